#!/bin/sh
# The simulated NVUE `nv config apply --confirm [<minutes>]` (NVUE reference, "Config
# Commands": rolled back unless confirmed, ten minutes by default) with the test knob
# `simctl fault NAME confirm-minute 2s`: left alone, the applied revision, the startup file
# and the programmed state return to the previous ones by themselves (the simulator's
# sleeper); `nv config apply` with nothing pending keeps the revision.
. "$SRC_DIR/tests/lib/testlib.sh"

SIMCTL="$SRC_DIR/tests/sim/switch/simctl"
LAB="$TMP/lab"
export BUILD_DIR

if [ "$(id -u)" != 0 ]; then
	test_expect_success 'the switch simulator needs root (namespaces, sshd): not run' 'false'
	test_done
	exit
fi
if ! command -v jq >/dev/null; then
	test_expect_success 'these tests need jq (make deps installs it): not run' 'false'
	test_done
	exit
fi

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

test_expect_success 'apply --confirm 1: applied, a timer pending' '
	sw sw1 "nv set qos roce mode lossless && nv config apply --confirm 1 -y" >"$TMP/out" &&
	test_must_contain "$TMP/out" "applied \\[rev_id: 2\\]" &&
	sw sw1 "nv show qos roce -o json" | jq -e ".mode == \"lossless\"" &&
	! no_timer
'

test_expect_success 'left alone: the previous revision, startup and no timer, by itself' '
	sleep 3 &&
	wait_for 5 no_timer &&
	config >"$TMP/after.json" &&
	cmp "$TMP/before.json" "$TMP/after.json" &&
	"$SIMCTL" state "$LAB" sw1 | jq -e ".nvue.revisions[\"2\"].state == \"confirm_fail\""
'

test_expect_success 'confirmed with nv config apply: the revision stays past the timer' '
	sw sw1 "nv set qos roce mode lossless && nv config apply --confirm 1 -y" >"$TMP/out" &&
	sw sw1 "nv config apply" >"$TMP/out" &&
	test_must_contain "$TMP/out" "confirmed" &&
	no_timer &&
	sleep 3 &&
	sw sw1 "nv show qos roce -o json" | jq -e ".mode == \"lossless\""
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
