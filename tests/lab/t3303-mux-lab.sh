#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The multiplexed lab (lab up --mux: one switchsim-mux per device kind instead of sshd
# sessions) answers rocectl as the sshd lab does: the same topology on both, the same
# verify (drift), apply, verify (in sync, exit 0), rollback, verify (drift again), and the
# verify verdicts (device, status, every change's port, field, old and new) compared with
# jq.  Then what only the mux has: a device's latency served by a timer, and its servers'
# session count (tests/lab/README.md).
. "$SRC_DIR/tests/lib/testlib.sh"

test_needs root jq

LAB_CMD="$SRC_DIR/tests/lab/lab"
POLICY="$SRC_DIR/policies/roce-lossless.yaml"
export BUILD_DIR ROCECTL

test_at_exit '"$LAB_CMD" down "$TMP/sshd" >/dev/null 2>&1 || true;
	"$LAB_CMD" down "$TMP/mux" >/dev/null 2>&1 || true'

# rocectl in a lab's namespace, with a journal of its own per lab
rc() { # LAB ARGS...
	lab=$1
	shift
	"$LAB_CMD" exec "$TMP/$lab" -- env ROCECTL_JOURNAL="$TMP/journal-$lab" "$ROCECTL" "$@"
}

# The verdicts of a verify's JSON, in a form the two labs must share
verdicts() { # JSON
	jq -S '[.devices[] | {device, status,
		changes: ([.changes[] | {port, field, old, new}] | sort_by(.port, .field))}]
		| sort_by(.device)' "$1"
}

# verify, apply, verify, rollback, verify on one lab; the verify JSONs in $TMP/LAB.N.json
sequence() { # LAB
	test_expect_code 2 rc "$1" verify -p "$POLICY" -i "$TMP/$1/inventory.yaml" \
		--format json >"$TMP/$1.1.json" &&
	rc "$1" apply -p "$POLICY" -i "$TMP/$1/inventory.yaml" >"$TMP/$1.apply" &&
	rc "$1" verify -p "$POLICY" -i "$TMP/$1/inventory.yaml" --format json \
		>"$TMP/$1.2.json" &&
	run=$(sed -n "s/^run //p" "$TMP/$1.apply") &&
	test -n "$run" &&
	rc "$1" rollback "$run" -i "$TMP/$1/inventory.yaml" >"$TMP/$1.rollback" &&
	test_expect_code 2 rc "$1" verify -p "$POLICY" -i "$TMP/$1/inventory.yaml" \
		--format json >"$TMP/$1.3.json" || {
		# what the step that failed said
		for f in "$TMP/$1".apply "$TMP/$1".rollback "$TMP/$1".*.json; do
			[ ! -f "$f" ] || { echo "== $f" && grep -v "^  " "$f" | tail -n 5 | cut -c 1-400; }
		done >&2
		return 1
	}
}

test_expect_success 'the same fabric comes up with sshd and with --mux' '
	"$LAB_CMD" up "$TMP/sshd" --hosts 8 --leaves 4 --spines 2 \
		--platforms nvue,sonic,eos >/dev/null &&
	"$LAB_CMD" up "$TMP/mux" --hosts 8 --leaves 4 --spines 2 \
		--platforms nvue,sonic,eos --mux >/dev/null &&
	. "$TMP/mux/lab.env" &&
	test "$(echo $MUX_PIDS | wc -w)" = 4 &&
	! grep -q "^HOST_SSHD_PID=" "$TMP/mux/lab.env" &&
	! grep -q "^SSHD_PID=" "$TMP/mux/switchsim/lab.env"
'

test_expect_success 'the mux lab answers the real OpenSSH client on every kind' '
	"$LAB_CMD" ssh "$TMP/mux" leaf01 "nv show qos roce" </dev/null >"$TMP/nv" &&
	test_must_contain "$TMP/nv" "lossless" &&
	"$LAB_CMD" ssh "$TMP/mux" leaf02 "show version" </dev/null >"$TMP/sonic" &&
	test_must_contain "$TMP/sonic" "SONiC Software Version" &&
	"$LAB_CMD" ssh "$TMP/mux" leaf03 "show version" </dev/null >"$TMP/eos" &&
	test_must_contain "$TMP/eos" "Arista DCS-7060DX5" &&
	"$LAB_CMD" ssh "$TMP/mux" gpu001 hostname </dev/null >"$TMP/host" &&
	test "$(cat "$TMP/host")" = gpu001 &&
	test_expect_code 3 "$LAB_CMD" ssh "$TMP/mux" leaf01 "true && exit 3" </dev/null
'

test_expect_success 'verify, apply, verify, rollback, verify on the sshd lab' '
	sequence sshd
'

test_expect_success 'the same on the mux lab' '
	sequence mux
'

test_expect_success 'the two labs give the same verdicts at every step' '
	for n in 1 2 3; do
		verdicts "$TMP/sshd.$n.json" >"$TMP/sshd.$n.v" &&
		verdicts "$TMP/mux.$n.json" >"$TMP/mux.$n.v" &&
		diff -u "$TMP/sshd.$n.v" "$TMP/mux.$n.v" || return 1
	done &&
	jq -e "[.devices[].status] | length == 14 and all(. == \"drift\")" "$TMP/mux.1.json" &&
	jq -e "[.devices[].status] | all(. == \"in-sync\" or . == \"ok\")" "$TMP/mux.2.json" &&
	jq -e "[.devices[] | select(.status == \"drift\")] | length == 14" "$TMP/mux.3.json"
'

test_expect_success 'a latency on the mux lab is served (a timer, not a busy server)' '
	"$LAB_CMD" delay "$TMP/mux" --delay nvue=1s --jitter 0 &&
	start=$(date +%s%N) &&
	"$LAB_CMD" ssh "$TMP/mux" leaf01 "nv show qos roce" </dev/null >/dev/null &&
	ms=$((($(date +%s%N) - start) / 1000000)) &&
	test "$ms" -ge 1000 &&
	"$LAB_CMD" delay "$TMP/mux" &&
	. "$TMP/mux/lab.env" &&
	test "$(sed -n "s/^sessions //p" "$RUN/mux/nvue.stats")" -gt 0
'

test_done
