#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The simulated Arista EOS switches through the real ssh client (CLI lines as the command
# or on stdin) and curl (eAPI JSON-RPC on /command-api): running-config sections, PFC and
# ECN views, configuration sessions with commit and abort, eAPI results and per-command
# errors, drift and faults.
. "$SRC_DIR/tests/lib/testlib.sh"

SIMCTL="$SRC_DIR/tests/sim/switch/simctl"
LAB="$TMP/lab"
export BUILD_DIR

test_needs root jq

test_at_exit '"$SIMCTL" down "$LAB" >/dev/null 2>&1 || true'

sw() {
	"$SIMCTL" exec "$LAB" -- ssh -F "$LAB/ssh_config" "$@"
}

# eapi ADDR BODY: one JSON-RPC request (the password from a curl config file)
eapi() {
	"$SIMCTL" exec "$LAB" -- curl -sS --cacert "$LAB/ca.pem" -K "$TMP/curl.conf" \
		-H 'Content-Type: application/json-rpc' "https://$1:8765/command-api" -d "$2"
}

# run_cmds ADDR FORMAT CMD...: a runCmds request of those commands
run_cmds() {
	a=$1 f=$2
	shift 2
	body=$(jq -cn --arg f "$f" '{jsonrpc: "2.0", method: "runCmds", id: "t",
		params: {version: 1, format: $f, cmds: $ARGS.positional}}' --args "$@")
	eapi "$a" "$body"
}

E1=127.0.5.1
E2=127.0.5.2

test_expect_success 'simctl up starts EOS switches of two models' '
	"$SIMCTL" up "$LAB" --switch leaf=$E1:eos:7060DX5 --switch old=$E2:eos:7050CX3 \
		>/dev/null &&
	test_must_contain "$LAB/inventory.yaml" "ports: \\[Ethernet1-4\\]" &&
	test_must_contain "$LAB/inventory-rest.yaml" "transport: rest" &&
	(umask 077 && printf "user = \"switchsim:%s\"\n" "$(cat "$LAB/secrets/leaf")" \
		>"$TMP/curl.conf")
'

test_expect_success 'factory: no QoS lines, no PFC, CoS trust, DSCP 26 on TC 3 by default' '
	sw leaf "show running-config section qos" >"$TMP/out" &&
	test ! -s "$TMP/out" &&
	sw leaf "show running-config interfaces Ethernet1" >"$TMP/out" &&
	test "$(cat "$TMP/out")" = "interface Ethernet1" &&
	sw leaf "show priority-flow-control | json" >"$TMP/pfc.json" &&
	jq -e ".globalPfcEnabled and (.interfaces.Ethernet1.pfcEnabled | not) and
		.interfaces.Ethernet1.priorities == [] and (.interfaces | length) == 64" \
		"$TMP/pfc.json" &&
	sw leaf "show priority-flow-control" >"$TMP/out" &&
	test_must_contain "$TMP/out" "^Global PFC : Enabled$" &&
	sw leaf "show qos interfaces Ethernet1 trust | json" |
		jq -e ".intfConfig.Ethernet1.trustMode == \"COS\"" &&
	sw leaf "show qos maps | json" | jq -e ".dscpToTcMap[\"26\"] == 3 and .cosToTcMap[\"0\"] == 1"
'

cat >"$TMP/roce.cli" <<'EOF'
configure session rocectl-1
qos map dscp 26 to traffic-class 3
qos map dscp 48 to traffic-class 6
qos map traffic-class 6 to tx-queue 7
priority-flow-control pause watchdog default timeout 0.2
interface Ethernet1-2
qos trust dscp
priority-flow-control on
priority-flow-control priority 3 no-drop
priority-flow-control pause watchdog
tx-queue 3
random-detect ecn minimum-threshold 150 kbytes maximum-threshold 1500 kbytes max-mark-probability 100
end
EOF

test_expect_success 'a configuration session on stdin stays pending until commit' '
	sw leaf <"$TMP/roce.cli" >"$TMP/out" &&
	sw leaf "show running-config section qos" >"$TMP/out" &&
	test ! -s "$TMP/out" &&
	sw leaf "show configuration sessions | json" |
		jq -e ".sessions[\"rocectl-1\"].state == \"pending\"" &&
	sw leaf "show session-config named rocectl-1 diffs" >"$TMP/diff" &&
	test_must_contain "$TMP/diff" "^--- system:/running-config$" &&
	test_must_contain "$TMP/diff" "^\\+qos map dscp 26 to traffic-class 3$" &&
	test_must_contain "$TMP/diff" "^\\+   priority-flow-control priority 3 no-drop$" &&
	test_must_contain "$TMP/diff" "^\\+      random-detect ecn minimum-threshold 150 kbytes maximum-threshold 1500 kbytes max-mark-probability 100$"
'

test_expect_success 'commit makes the session the running-config, seen by every view' '
	sw leaf "configure session rocectl-1 commit" &&
	sw leaf "show running-config section qos" >"$TMP/out" &&
	test_must_contain "$TMP/out" "^qos map dscp 26 to traffic-class 3$" &&
	test_must_contain "$TMP/out" "^qos map traffic-class 6 to tx-queue 7$" &&
	test_must_contain "$TMP/out" "^interface Ethernet2$" &&
	sw leaf "show qos maps | json" |
		jq -e ".tcToTxQueueMap[\"6\"] == 7 and .dscpToTcMap[\"26\"] == 3" &&
	test_must_not_contain "$TMP/out" "^interface Ethernet3$" &&
	sw leaf "show running-config interfaces Ethernet1" >"$TMP/out" &&
	printf "%s\n" "interface Ethernet1" "   qos trust dscp" "   priority-flow-control on" \
		"   priority-flow-control priority 3 no-drop" "   priority-flow-control pause watchdog" \
		"   !" "   tx-queue 3" \
		"      random-detect ecn minimum-threshold 150 kbytes maximum-threshold 1500 kbytes max-mark-probability 100" \
		>"$TMP/expect" &&
	diff -u "$TMP/expect" "$TMP/out" &&
	sw leaf "show priority-flow-control interfaces Ethernet1 | json" |
		jq -e ".interfaces.Ethernet1 == {pfcEnabled: true, active: true, priorities: [3],
			watchdogEnabled: true} and .watchdog.timeout == 0.2" &&
	sw leaf "show qos interfaces Ethernet2 ecn | json" |
		jq -e ".interfaces.Ethernet2.txQueues[\"3\"] | .ecnEnabled and
			.minThresholdBytes == 150000 and .maxThresholdBytes == 1500000 and
			.maxMarkProbability == 100" &&
	sw leaf "show configuration sessions | json" |
		jq -e ".sessions[\"rocectl-1\"].state == \"completed\""
'

test_expect_success 'abort discards a session; commit and abort need a session' '
	printf "configure session s2\ninterface Ethernet1\nno priority-flow-control on\nabort\n" |
		sw leaf &&
	sw leaf "show running-config interfaces Ethernet1" >"$TMP/out" &&
	test_must_contain "$TMP/out" "priority-flow-control on" &&
	printf "configure session s3\ninterface Ethernet1\nshutdown\nend\n" | sw leaf &&
	sw leaf "configure session s3 abort" &&
	sw leaf "show configuration sessions | json" | jq -e ".sessions | has(\"s3\") | not" &&
	test_expect_code 1 sw leaf "configure session s3 commit" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "^% Session s3 does not exist$" &&
	printf "configure\ncommit\n" | test_expect_code 1 sw leaf 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "^% Invalid input \\(at token 0: .commit.\\)$"
'

test_expect_success 'errors: % Invalid input with the token, % Incomplete command, status 1' '
	test_expect_code 1 sw leaf "show bogus" 2>"$TMP/err" &&
	test "$(cat "$TMP/err")" = "% Invalid input (at token 1: '\''bogus'\'')" &&
	printf "configure session s4\ninterface Ethernet1\ntx-queue 3\nrandom-detect ecn minimum-threshold 1 kbytes maximum-threshold 2 kbytes max-mark-probability 101\npriority-flow-control priority\nabort\n" |
		test_expect_code 1 sw leaf 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "^% Invalid input \\(at token 9: .101.\\)$" &&
	test_must_contain "$TMP/err" "^% Incomplete command$"
'

test_expect_success 'a platform with uc-tx-queues refuses tx-queue' '
	printf "configure session q\ninterface Ethernet1\ntx-queue 3\nuc-tx-queue 3\nbandwidth percent 40\nno priority\nend\nconfigure session q commit\n" |
		test_expect_code 1 sw old 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "Invalid input \\(at token 0: .tx-queue.\\)" &&
	sw old "show running-config interfaces Ethernet1" >"$TMP/out" &&
	test_must_contain "$TMP/out" "^   uc-tx-queue 3$" &&
	test_must_contain "$TMP/out" "^      bandwidth percent 40$"
'

test_expect_success 'eAPI: one result per command, {} for configuration, text format' '
	run_cmds $E2 json enable "show hostname" configure "interface Ethernet2" \
		"qos trust dscp" end "show qos interfaces Ethernet2 trust" >"$TMP/out" &&
	jq -e ".jsonrpc == \"2.0\" and .id == \"t\" and (.result | length) == 7 and
		.result[0] == {} and .result[1].hostname == \"old\" and .result[4] == {} and
		.result[6].intfConfig.Ethernet2.trustMode == \"DSCP\"" "$TMP/out" &&
	run_cmds $E2 text "show running-config interfaces Ethernet2" |
		jq -e ".result[0].output == \"interface Ethernet2\n   qos trust dscp\n\"" &&
	run_cmds $E2 json "show running-config" |
		jq -e ".result[0].cmds[\"interface Ethernet2\"].cmds | has(\"qos trust dscp\")"
'

test_expect_success 'eAPI: a failing command stops the request with its results so far' '
	run_cmds $E1 json "show hostname" "show bogus" "show version" >"$TMP/out" &&
	jq -e ".error.code == 1002 and
		.error.message == \"CLI command 2 of 3 '\''show bogus'\'' failed: invalid command\" and
		(.error.data | length) == 2 and .error.data[0].hostname == \"leaf\" and
		.error.data[1].errors == [\"Invalid input (at token 1: '\''bogus'\'')\"]" "$TMP/out" &&
	run_cmds $E1 text "show hostname" "show bogus" |
		jq -e ".error.data[1].output == \"% Invalid input (at token 1: '\''bogus'\'')\n\"" &&
	run_cmds $E1 json "show session-config named x diffs" | jq -e ".error.code == 1003" &&
	eapi $E1 "{\"method\": \"runCmds\"}" | jq -e ".error.code == -32600 and .id == null" &&
	"$SIMCTL" exec "$LAB" -- curl -sS --cacert "$LAB/ca.pem" -u switchsim:wrong \
		-o /dev/null -w "%{http_code}" https://$E1:8765/command-api -d "{}" >"$TMP/code" &&
	test "$(cat "$TMP/code")" = 401
'

test_expect_success 'eAPI: a session left pending by an error is aborted; running unchanged' '
	run_cmds $E1 json "configure session api1" "interface Ethernet3" \
		"priority-flow-control on" "tx-queue 3" \
		"random-detect ecn minimum-threshold 2 mbytes maximum-threshold 1 mbytes" \
		"commit" >"$TMP/out" &&
	jq -e ".error.code == 1000 and (.error.data | length) == 5 and
		(.error.message | test(\"CLI command 5 of 6 .* failed: could not run command\"))" \
		"$TMP/out" &&
	run_cmds $E1 json "show configuration sessions" |
		jq -e ".result[0].sessions.api1.state == \"pending\"" &&
	run_cmds $E1 json "configure session api1 abort" | jq -e ".result == [{}]" &&
	sw leaf "show running-config interfaces Ethernet3" >"$TMP/out" &&
	test "$(cat "$TMP/out")" = "interface Ethernet3"
'

test_expect_success 'reject-next fails the commit (CLI and eAPI); the session stays pending' '
	"$SIMCTL" fault "$LAB" leaf reject-next 2 &&
	printf "configure session rj\ninterface Ethernet4\npriority-flow-control on\ncommit\n" |
		test_expect_code 1 sw leaf 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "^% Failed to commit session rj: .*reject-next" &&
	run_cmds $E1 json "configure session rj commit" >"$TMP/out" &&
	jq -e ".error.code == 1000 and (.error.data[0].errors[0] | test(\"reject-next\"))" \
		"$TMP/out" &&
	sw leaf "show running-config interfaces Ethernet4" >"$TMP/out" &&
	test_must_not_contain "$TMP/out" "priority-flow-control" &&
	run_cmds $E1 json "configure session rj commit" | jq -e ".result == [{}]" &&
	sw leaf "show running-config interfaces Ethernet4" >"$TMP/out" &&
	test_must_contain "$TMP/out" "priority-flow-control on"
'

test_expect_success 'drift changes the running-config behind the tool; nonsense is refused' '
	"$SIMCTL" fault "$LAB" leaf drift qos-map-dscp.26=1 \
		"interface.Ethernet1.pfc-priority={\"4\":\"no-drop\"}" \
		interface.Ethernet2.qos-trust=cos \
		interface.Ethernet2.tx-queue.3.ecn.min-unit=bytes \
		interface.Ethernet2.tx-queue.3.ecn.min=331776 &&
	sw leaf "show qos maps | json" | jq -e ".dscpToTcMap[\"26\"] == 1" &&
	sw leaf "show priority-flow-control | json" |
		jq -e ".interfaces.Ethernet1.priorities == [4]" &&
	sw leaf "show qos interfaces Ethernet2 | json" |
		jq -e ".intfConfig.Ethernet2.trustMode == \"COS\"" &&
	sw leaf "show qos interfaces Ethernet2 ecn | json" |
		jq -e ".interfaces.Ethernet2.txQueues[\"3\"].minThresholdBytes == 331776" &&
	test_expect_code 1 "$SIMCTL" fault "$LAB" leaf drift interface.Ethernet1.bogus=1 \
		2>"$TMP/err" &&
	test_expect_code 1 "$SIMCTL" fault "$LAB" leaf drift qos-map-dscp.26=9 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "not a valid EOS configuration"
'

test_expect_success 'counters: PFC frames (per revision asked) and ECN marks as EOS reports them' '
	"$SIMCTL" fault "$LAB" leaf drift counters:Ethernet1.pfc.rxFrames=12 \
		counters:Ethernet2.ecn.3=7 &&
	sw leaf "show priority-flow-control counters | json revision 3" |
		jq -e ".interfaceCounters.Ethernet1 == {rxFrames: 12, txFrames: 0}" &&
	sw leaf "show priority-flow-control counters | json" |
		jq -e ".interfaceCounters.Ethernet1 == {rxPfcFrames: 12, txPfcFrames: 0}" &&
	test_expect_code 1 sw leaf "show priority-flow-control counters | json revision 0" &&
	eapi $E1 "{\"jsonrpc\": \"2.0\", \"method\": \"runCmds\", \"id\": \"r\",
		\"params\": {\"version\": 1, \"format\": \"json\", \"cmds\": [
		{\"cmd\": \"show priority-flow-control counters\", \"revision\": 3},
		\"show priority-flow-control counters\"]}}" >"$TMP/rev.json" &&
	jq -e ".result[0].interfaceCounters.Ethernet1.rxFrames == 12 and
		.result[1].interfaceCounters.Ethernet1.rxPfcFrames == 12" "$TMP/rev.json" &&
	printf "configure\ninterface Ethernet2\ntx-queue 3\nrandom-detect ecn count\nend\n" |
		sw leaf &&
	sw leaf "show qos interfaces ecn counters queue | json" |
		jq -e ".intfQueueCounters.Ethernet2.queueCounters[\"3\"] == \"7\" and
			.intfQueueCounters.Ethernet1.queueCounters[\"3\"] == \"-\""
'

test_expect_success 'faults: drop-after closes eAPI and SSH connections, hang never answers' '
	"$SIMCTL" fault "$LAB" leaf drop-after 1 &&
	run_cmds $E1 json "show hostname" >/dev/null &&
	test_expect_code 52 run_cmds $E1 json "show hostname" >/dev/null 2>&1 &&
	"$SIMCTL" fault "$LAB" leaf drop-after 0 &&
	test_expect_code 255 sw leaf "show hostname" >/dev/null 2>&1 &&
	"$SIMCTL" fault "$LAB" leaf hang &&
	test_expect_code 124 "$SIMCTL" exec "$LAB" -- timeout 1 \
		ssh -F "$LAB/ssh_config" leaf "show hostname" &&
	sw leaf "show hostname" >/dev/null
'

# A reload boots the startup-config: write memory / copy running-config
# startup-config save, show startup-config shows it, simctl reboot replaces running by it.
test_expect_success 'startup-config: saved by write memory, booted by simctl reboot' '
	"$SIMCTL" fault "$LAB" leaf clear &&
	sw leaf "show startup-config" >"$TMP/st0" &&
	test_must_contain "$TMP/st0" "^! Command: show startup-config$" &&
	"$SIMCTL" fault "$LAB" leaf drift interface.Ethernet1.qos-trust=cos &&
	sw leaf "write memory" >"$TMP/wr" &&
	test_must_contain "$TMP/wr" "Copy completed successfully" &&
	sw leaf "show startup-config" >"$TMP/st1" &&
	test_must_contain "$TMP/st1" "^   qos trust cos$" &&
	"$SIMCTL" fault "$LAB" leaf drift interface.Ethernet1.qos-trust=dscp &&
	sw leaf "show running-config interfaces Ethernet1" >"$TMP/r1" &&
	test_must_contain "$TMP/r1" "^   qos trust dscp$" &&
	"$SIMCTL" reboot "$LAB" leaf >/dev/null &&
	sw leaf "show running-config interfaces Ethernet1" >"$TMP/r2" &&
	test_must_contain "$TMP/r2" "^   qos trust cos$" &&
	sw leaf "show configuration sessions" >"$TMP/sess" &&
	test -z "$(awk "\$2 == \"pending\"" "$TMP/sess")"
'

test_expect_success 'simctl down removes the lab' '
	"$SIMCTL" down "$LAB" &&
	test ! -e "$LAB/lab.env"
'

test_done
