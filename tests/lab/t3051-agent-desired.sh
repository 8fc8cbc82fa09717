#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# One source of truth (docs/ENFORCE.md): after the controller applied the fabric with the
# inventory's 3 m cables (the policy's default is 100 m) to hosts whose buffers are sized by
# the host (manual-buffer mode, where the cable length counts), `agent plan` on each host with
# the inventory (-i, the host named by its hostname or --host) or with the state the
# controller rendered for it (--desired) is empty; with the policy alone it is not, which
# is what makes this test able to fail.  A cable length drifted on a host is repaired by
# `agent enforce --desired` to the controller's value, which the controller then verifies.
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

LAB_CMD="$SRC_DIR/tests/lab/lab"
LAB="$TMP/lab"
INV="$LAB/inventory.yaml"
POLICY="$SRC_DIR/policies/roce-lossless.yaml"
ROCECTL_JOURNAL="$TMP/state/journal"
IF=enp12s0np0
export BUILD_DIR ROCECTL ROCECTL_JOURNAL

test_needs root

test_at_exit '"$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true; [ -s "$TMP/shared" ] && rm -rf "$(cat "$TMP/shared")"'

rc() {
	"$LAB_CMD" exec "$LAB" -- "$ROCECTL" "$@"
}

# on HOST, as its operator would: the hosts may run in a user namespace that cannot read
# the test's private $TMP, so their files live in $SH (readable by all, removed at exit)
on() {
	h=$1
	shift
	"$LAB_CMD" ssh "$LAB" "$h" "$*"
}

# manual_buffers HOST: the host sizes its buffers, lossless priority 3 in buffer 1; in that
# order, as the kernel needs (a buffer made lossless while empty is -ENOMEM, nicsim README)
manual_buffers() {
	on "$1" "dcb buffer set dev $IF buffer-size 0:256K 1:512K 2:0 3:0 4:0 5:0 6:0 7:0" >/dev/null 2>&1
	on "$1" "dcb buffer set dev $IF prio-buffer 0:0 1:0 2:0 3:1 4:0 5:0 6:0 7:0" >/dev/null 2>&1
	on "$1" "dcb buffer show dev $IF" | grep -q "prio-buffer 0:0 1:0 2:0 3:1 "
}

test_expect_success 'bring-up of a 2-host, 1-leaf lab, manual buffers, applied from the controller (3 m cables)' '
	"$LAB_CMD" up "$LAB" --hosts 2 --leaves 1 --spines 0 --nics 1 >/dev/null &&
	manual_buffers gpu001 && manual_buffers gpu002 &&
	grep -q "cable_length: 3m" "$INV" &&
	grep -q "cable_length: 100m" "$POLICY" &&
	rc apply -p "$POLICY" -i "$INV" >/dev/null &&
	rc verify -p "$POLICY" -i "$INV" >/dev/null &&
	SH=$(mktemp -d /tmp/rocectl-desired.XXXXXX) && echo "$SH" >"$TMP/shared" &&
	chmod 755 "$SH" && cp "$INV" "$SH/inventory.yaml" && chmod 644 "$SH/inventory.yaml"
'
SH=$(cat "$TMP/shared" 2>/dev/null)

test_expect_success 'agent plan with the policy alone wants the default 100 m cable (the test can fail)' '
	for h in gpu001 gpu002; do
		test_expect_code 2 on $h "rocectl agent plan -p $POLICY --json" >"$TMP/p0-$h.json" &&
		jq -e "[.interfaces[].changes[] | select(.field == \"cable_length_m\" and .old == \"3\" and .new == \"100\")] | length == 1" \
			"$TMP/p0-$h.json" || exit 1
	done
'

test_expect_success 'agent plan -i (host from the hostname) is empty on every host' '
	for h in gpu001 gpu002; do
		on $h "rocectl agent plan -p $POLICY -i $SH/inventory.yaml --json" >"$TMP/p1-$h.json" &&
		jq -e ".host == \"$h\" and .status == \"in-sync\" and .exit_code == 0 and
			([.interfaces[].changes[] | select(.kind == \"set\")] | length == 0)" "$TMP/p1-$h.json" ||
			exit 1
	done
'

test_expect_success 'agent verify -i --host NAME is in sync; --host of a host not in the inventory fails' '
	on gpu002 "rocectl agent verify -p $POLICY -i $SH/inventory.yaml --host gpu002" >"$TMP/v1.txt" &&
	test_must_contain "$TMP/v1.txt" "in sync" &&
	test_expect_code 1 on gpu002 "rocectl agent plan -p $POLICY -i $SH/inventory.yaml --host gpu999" \
		>/dev/null 2>"$TMP/v2.err" &&
	test_must_contain "$TMP/v2.err" "host .gpu999. is not in the inventory" &&
	test_expect_code 1 on gpu002 "rocectl agent plan -p $POLICY -i $SH/inventory.yaml --host leaf01" \
		>/dev/null 2>"$TMP/v3.err" &&
	test_must_contain "$TMP/v3.err" "is a switch"
'

test_expect_success 'render writes each host its desired state (3 m), and agent plan --desired is empty' '
	for h in gpu001 gpu002; do
		rc render -p "$POLICY" -i "$INV" --host $h -o "$SH/$h.json" &&
		chmod 644 "$SH/$h.json" &&
		jq -e ".schema == \"rocectl.desired/v1\" and .host == \"$h\" and
			(.ports[] | select(.port == \"$IF\")).qos.cable_length_m == 3 and
			.default.cable_length_m == 100" "$SH/$h.json" &&
		on $h "rocectl agent plan --desired $SH/$h.json --json" >"$TMP/p2-$h.json" &&
		jq -e ".status == \"in-sync\" and .policy == \"roce-lossless\"" "$TMP/p2-$h.json" ||
			exit 1
	done
'

test_expect_success 'a state rendered for another host is refused; --desired with -p is refused' '
	test_expect_code 1 on gpu001 "rocectl agent plan --desired $SH/gpu002.json" >/dev/null 2>"$TMP/d1.err" &&
	test_must_contain "$TMP/d1.err" "rendered for host .gpu002., this is .gpu001." &&
	test_expect_code 1 on gpu001 "rocectl agent plan --desired $SH/gpu001.json -p $POLICY" >/dev/null 2>"$TMP/d2.err" &&
	test_must_contain "$TMP/d2.err" "replaces -p and -i" &&
	test_expect_code 1 rc render -p "$POLICY" -i "$INV" --host leaf01 >/dev/null 2>"$TMP/d3.err" &&
	test_must_contain "$TMP/d3.err" "is a switch, not a host"
'

test_expect_success 'a drifted cable is repaired by agent enforce --desired to the controller value' '
	AJ=$(mktemp -d "$SH/journal.XXXXXX") && chmod 1777 "$AJ" &&
	{ on gpu001 "dcb pfc set dev $IF delay 100" >/dev/null 2>&1 || true; } &&
	test_expect_code 2 on gpu001 "rocectl agent plan --desired $SH/gpu001.json --json" >"$TMP/e0.json" &&
	jq -e "[.interfaces[].changes[] | select(.field == \"cable_length_m\" and .new == \"3\")] | length == 1" \
		"$TMP/e0.json" &&
	test_expect_code 2 rc verify -p "$POLICY" -i "$INV" >/dev/null &&
	on gpu001 "rocectl agent enforce --desired $SH/gpu001.json --journal $AJ --json" >"$TMP/e1.json" &&
	jq -e ".command == \"enforce\" and .exit_code == 0" "$TMP/e1.json" &&
	rc verify -p "$POLICY" -i "$INV" >/dev/null
'

test_done
