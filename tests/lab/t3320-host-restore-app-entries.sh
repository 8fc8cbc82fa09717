#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A host apply that fails after the DSCP APP table was written puts the table back EXACTLY:
# an entry the run added is deleted even when its priority is firmware's default for that
# DSCP (48 -> 6 = 48 >> 3), which the value alone cannot tell from no entry (fault campaign
# seed 10012, tests/faults/README.md).  The host had an entry of its own (26:5, as an
# operator leaves one), so the restore is of a whole table, not of "no entry at all".
# Witness: the NIC's state file (nicsim), never rocectl.
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

LAB_CMD="$SRC_DIR/tests/lab/lab"
NICSIM="$SRC_DIR/tests/sim/nic/nicsim"
LAB="$TMP/lab"
POLICY="$SRC_DIR/policies/roce-lossless.yaml"
ROCECTL_JOURNAL="$TMP/journal"
export BUILD_DIR ROCECTL ROCECTL_JOURNAL

test_needs root

test_at_exit '"$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true'

# The NIC's APP table as nicsim keeps it ("26:5 48:6").
app_of() {
	sed -n 's/^app-dscp //p' "$LAB/hosts/gpu001/nics/enp12s0np0.state"
}

test_expect_success 'lab up: 1 MLNX_OFED host, 1 leaf' '
	"$LAB_CMD" up "$LAB" --hosts 1 --nics 1 --leaves 1 --spines 0 \
		--host-features ofed >"$TMP/up.out"
'

test_expect_success 'the host has an APP entry of its own (26:5)' '
	"$LAB_CMD" ssh "$LAB" gpu001 "dcb app add dev enp12s0np0 dscp-prio 26:5" &&
	test "$(app_of)" = "26:5"
'

test_expect_success 'apply fails on the host after its APP table was written' '
	. "$LAB/lab.env" &&
	runuser -u "${SWITCHSIM_USER:-switchsim}" -- "$NICSIM" fault "$RUN/hosts/gpu001" eperm \
		sys/class/net/enp12s0np0/ecn/roce_np/enable/3 &&
	code=0 &&
	"$LAB_CMD" exec "$LAB" -- env ROCECTL_JOURNAL="$ROCECTL_JOURNAL" "$ROCECTL" apply \
		-p "$POLICY" -i "$LAB/inventory.yaml" >"$TMP/apply.out" 2>&1 || code=$? &&
	cat "$TMP/apply.out" &&
	test "$code" = 1 &&
	grep -q "gpu001.*restored the pre-change state" "$TMP/apply.out"
'

test_expect_success 'the APP table is the pre-run one: 26:5, no 48:6' '
	echo "app-dscp: $(app_of)" &&
	test "$(app_of)" = "26:5"
'

test_done
