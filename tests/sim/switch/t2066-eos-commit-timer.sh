#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The simulated EOS commit timer (EOS manual, "Configure session": `commit timer hh:mm:ss`
# commits the session, which is rolled back at the timer unless `configure session NAME
# commit` follows): over ssh and eAPI, the rollback reaches the state file by itself (the
# simulator's sleeper, nobody talking to the switch), a confirmation keeps the change,
# `show configuration sessions` shows the pending timer.
. "$SRC_DIR/tests/lib/testlib.sh"

SIMCTL="$SRC_DIR/tests/sim/switch/simctl"
LAB="$TMP/lab"
export BUILD_DIR

test_needs root jq

test_at_exit '"$SIMCTL" down "$LAB" >/dev/null 2>&1 || true'

sw() {
	"$SIMCTL" exec "$LAB" -- ssh -F "$LAB/ssh_config" "$@"
}

running() {
	"$SIMCTL" state "$LAB" "$1" | jq -cS .eos.running
}

# wait_for SECONDS CMD...: poll once a second until CMD succeeds
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

# the state file itself: reading it through simctl would apply a due timer on the way
no_timer() {
	jq -e '(has("timed-commit") | not)' "$LAB/switches/$1.json" >/dev/null
}

E1=127.0.6.61

test_expect_success 'simctl up starts an EOS switch' '
	"$SIMCTL" up "$LAB" --switch leaf=$E1:eos >/dev/null &&
	(umask 077 && printf "user = \"switchsim:%s\"\n" "$(cat "$LAB/secrets/leaf")" \
		>"$TMP/curl.conf") &&
	running leaf >"$TMP/before.json"
'

test_expect_success 'commit timer: the change is in the running-config, the session pending its timer' '
	printf "%s\n" "configure session t1" "qos map dscp 48 to traffic-class 6" \
		"commit timer 00:00:04" | sw leaf >"$TMP/out" &&
	sw leaf "show running-config section qos" >"$TMP/out" &&
	test_must_contain "$TMP/out" "qos map dscp 48 to traffic-class 6" &&
	sw leaf "show configuration sessions | json" >"$TMP/s.json" &&
	jq -e ".sessions.t1.state == \"pendingCommitTimer\"" "$TMP/s.json" &&
	! no_timer leaf
'

test_expect_success 'left alone, the state file returns to the pre-commit running-config' '
	sleep 5 &&
	wait_for 5 no_timer leaf &&
	running leaf >"$TMP/after.json" &&
	cmp "$TMP/before.json" "$TMP/after.json" &&
	"$SIMCTL" state "$LAB" leaf | jq -e ".eos.sessions | has(\"t1\") | not"
'

test_expect_success 'confirmed with configure session NAME commit, the change stays past the timer' '
	printf "%s\n" "configure session t2" "qos map dscp 48 to traffic-class 6" \
		"commit timer 00:00:03" | sw leaf >"$TMP/out" &&
	sw leaf "configure session t2 commit" &&
	no_timer leaf &&
	sleep 4 &&
	sw leaf "show running-config section qos" >"$TMP/out" &&
	test_must_contain "$TMP/out" "qos map dscp 48 to traffic-class 6" &&
	sw leaf "show configuration sessions | json" |
		jq -e ".sessions.t2.state == \"completed\""
'

test_expect_success 'over eAPI: configure session NAME commit timer, then rolled back' '
	running leaf >"$TMP/before2.json" &&
	body=$(jq -cn "{jsonrpc: \"2.0\", method: \"runCmds\", id: \"t\",
		params: {version: 1, format: \"json\", cmds: [\"enable\",
		\"configure session t3\", \"qos map dscp 40 to traffic-class 5\", \"end\",
		\"configure session t3 commit timer 00:00:03\"]}}") &&
	"$SIMCTL" exec "$LAB" -- curl -sS --cacert "$LAB/ca.pem" -K "$TMP/curl.conf" \
		-H "Content-Type: application/json-rpc" "https://$E1:8765/command-api" \
		-d "$body" >"$TMP/r.json" &&
	jq -e "has(\"result\")" "$TMP/r.json" &&
	sw leaf "show running-config section qos" >"$TMP/out" &&
	test_must_contain "$TMP/out" "qos map dscp 40 to traffic-class 5" &&
	sleep 4 &&
	wait_for 5 no_timer leaf &&
	running leaf >"$TMP/after2.json" &&
	cmp "$TMP/before2.json" "$TMP/after2.json"
'

test_expect_success 'a bad timer is refused and commits nothing' '
	printf "%s\n" "configure session t4" "qos map dscp 40 to traffic-class 5" \
		"commit timer 00:99:00" | sw leaf >"$TMP/out" 2>&1;
	test_must_contain "$TMP/out" "Invalid input" &&
	running leaf >"$TMP/after3.json" &&
	cmp "$TMP/before2.json" "$TMP/after3.json"
'

test_done
