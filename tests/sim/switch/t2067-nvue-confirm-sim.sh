#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The simulated NVUE commit-confirm (NVUE reference, "Config Commands": `nv config apply
# --confirm [<minutes>]` rolls back unless confirmed, ten minutes by default;
# `--confirm-status` shows the time left; `nv config apply <rev> --confirm-yes|--confirm-no`
# and the revision states as third-party clients of real switches use them) with the test
# knob `simctl fault NAME confirm-minute 2s`.  The revision waits in state "confirm"; left
# alone, the applied revision, the startup file and the programmed state return to the
# previous ones by themselves ("confirm_fail"); --confirm-yes keeps it ("applied_and_saved"
# on 5.9+), --confirm-no rolls it back at once.  What NVIDIA does not document is refused:
# a unit suffix on --confirm, a confirm without the revision id, a bare `nv config apply`
# while a revision waits.  `nv config revision` prints the reference's columns.
. "$SRC_DIR/tests/lib/testlib.sh"

SIMCTL="$SRC_DIR/tests/sim/switch/simctl"
LAB="$TMP/lab"
export BUILD_DIR

test_needs root jq

test_at_exit '"$SIMCTL" down "$LAB" >/dev/null 2>&1 || true'

sw() {
	"$SIMCTL" exec "$LAB" -- ssh -F "$LAB/ssh_config" "$@"
}

# the switch's configuration as the state file has it, with nothing of the timer
config() {
	"$SIMCTL" state "$LAB" sw1 | jq -cS '[.nvue.applied, .nvue["applied-rev"], .nvue.startup]'
}

# the state file itself: reading it through simctl would apply a due timer on the way
no_timer() {
	jq -e '(has("timed-commit") | not)' "$LAB/switches/sw1.json" >/dev/null
}

wait_for() {
	n=$1
	shift
	while [ "$n" -gt 0 ]; do
		"$@" && return 0
		sleep 1
		n=$((n - 1))
	done
	"$@"
}

test_expect_success 'simctl up starts an NVUE switch; one minute lasts 2 s' '
	"$SIMCTL" up "$LAB" --switch sw1=127.0.6.71:nvue >/dev/null &&
	"$SIMCTL" fault "$LAB" sw1 confirm-minute 2s &&
	config >"$TMP/before.json"
'

# three "minutes" (6 s): room for the checks below on a loaded machine (make test runs
# several scripts at once) before the timer is due
test_expect_success 'apply --confirm 3: applied, a timer pending' '
	sw sw1 "nv set qos roce mode lossless && nv config apply --confirm 3 -y" >"$TMP/out" &&
	test_must_contain "$TMP/out" "applied \\[rev_id: 2\\]" &&
	sw sw1 "nv show qos roce -o json" | jq -e ".mode == \"lossless\"" &&
	! no_timer
'

test_expect_success 'left alone: the previous revision, startup and no timer, by itself' '
	sleep 6 &&
	wait_for 10 no_timer &&
	config >"$TMP/after.json" &&
	cmp "$TMP/before.json" "$TMP/after.json" &&
	"$SIMCTL" state "$LAB" sw1 | jq -e ".nvue.revisions[\"2\"].state == \"confirm_fail\""
'

state_of() { # state_of REV: its state in `nv config revision -o json`
	sw sw1 "nv config revision -o json" | jq -r ".[\"$1\"].state"
}

test_expect_success 'nv config revision: the reference columns; -o json keyed by id' '
	sw sw1 "nv config revision" >"$TMP/revs" &&
	head -n 1 "$TMP/revs" | grep -Eq "^Rev ID +State +Apply ID +Apply Date +Type +User +Reason +Message *$" &&
	grep -Eq "^1 +applied_and_saved +rev_1_apply_1 " "$TMP/revs" &&
	test "$(state_of 2)" = confirm_fail
'

# five minutes of 2 s: room for the commands below on a loaded machine
test_expect_success 'a unit suffix and a bare apply while a revision waits are refused' '
	test_expect_code 2 sw sw1 "nv set qos roce mode lossless && nv config apply --confirm 90s -y" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "Invalid value for .--confirm.: .90s." &&
	no_timer &&
	sw sw1 "nv config apply --confirm 5 -y" >"$TMP/out" &&
	test_must_contain "$TMP/out" "applied \\[rev_id: 3\\]" &&
	test "$(state_of 3)" = confirm &&
	sw sw1 "nv config apply --confirm-status" >"$TMP/status" &&
	test_must_contain "$TMP/status" "rev_id 3: [0-9]* seconds left" &&
	test_expect_code 1 sw sw1 "nv config apply" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "revision 3 is waiting for a confirm" &&
	test_expect_code 1 sw sw1 "nv config apply --confirm-yes" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "needs the revision id" &&
	test_expect_code 1 sw sw1 "nv config apply 2 --confirm-yes" 2>"$TMP/err" &&
	test "$(state_of 3)" = confirm
'

test_expect_success 'confirmed with --confirm-yes: applied_and_saved, stays past the timer' '
	sw sw1 "nv config apply 3 --confirm-yes" >"$TMP/out" &&
	test_must_contain "$TMP/out" "confirmed" &&
	no_timer &&
	test "$(state_of 3)" = applied_and_saved &&
	sleep 10 &&
	sw sw1 "nv show qos roce -o json" | jq -e ".mode == \"lossless\""
'

test_expect_success '--confirm-no rolls back at once: confirm_no' '
	config >"$TMP/before3.json" &&
	sw sw1 "nv set qos roce mode lossy && nv config apply --confirm 5 -y" >/dev/null &&
	sw sw1 "nv config apply 4 --confirm-no" >"$TMP/out" &&
	no_timer &&
	test "$(state_of 4)" = confirm_no &&
	config | cmp - "$TMP/before3.json"
'

test_expect_success 'a reboot before the confirmation rolls the revision back' '
	sw sw1 "nv unset qos roce && nv config apply -y && nv config save" >/dev/null &&
	config >"$TMP/before2.json" &&
	sw sw1 "nv set qos roce mode lossless && nv config apply --confirm 5 -y" >/dev/null &&
	"$SIMCTL" reboot "$LAB" sw1 >/dev/null &&
	no_timer &&
	"$SIMCTL" state "$LAB" sw1 | jq -cS ".nvue.applied" >"$TMP/a.json" &&
	jq -cS ".[0]" "$TMP/before2.json" | cmp - "$TMP/a.json"
'

test_done
