#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The simulated switches through real clients: OpenSSH's ssh and curl, run inside the lab's
# network namespace with simctl exec, as rocectl will be.
. "$SRC_DIR/tests/lib/testlib.sh"

SIMCTL="$SRC_DIR/tests/sim/switch/simctl"
LAB="$TMP/lab"
export BUILD_DIR

test_needs root

test_at_exit '"$SIMCTL" down "$LAB" >/dev/null 2>&1 || true'

sw() {
	"$SIMCTL" exec "$LAB" -- ssh -F "$LAB/ssh_config" "$@"
}

# curl with the lab's CA; the password goes through a config file, not the command line
rest() {
	"$SIMCTL" exec "$LAB" -- curl -sS --cacert "$LAB/ca.pem" -K "$TMP/curl.conf" \
		-H 'Content-Type: application/json' "$@"
}

U1=https://127.0.1.1:8765/nvue_v1
U2=https://127.0.1.2:8765/nvue_v1

test_expect_success 'simctl up starts a lab of two NVUE switches' '
	"$SIMCTL" up "$LAB" --switch leaf01=127.0.1.1:nvue:SN5600 \
		--switch leaf02=127.0.1.2:nvue:VX >"$TMP/up.out" &&
	for f in inventory.yaml inventory-rest.yaml known_hosts ca.pem id_ed25519 ssh_config \
		secrets/leaf01 lab.env; do
		test -s "$LAB/$f" || { echo "missing $f"; exit 1; }
	done &&
	test_must_contain "$LAB/inventory.yaml" "transport: ssh" &&
	test_must_contain "$LAB/inventory.yaml" "known_hosts: \"$LAB/known_hosts\"" &&
	test_must_contain "$LAB/inventory-rest.yaml" "password_file: \"$LAB/secrets/leaf01\"" &&
	test_must_contain "$LAB/inventory-rest.yaml" "ca_file: \"$LAB/ca.pem\"" &&
	(umask 077 && printf "user = \"switchsim:%s\"\n" "$(cat "$LAB/secrets/leaf01")" \
		>"$TMP/curl.conf")
'

test_expect_success 'a factory switch has RoCE off and the default QoS profile' '
	sw leaf01 "nv show qos roce; nv show qos roce -o json" >"$TMP/out" &&
	test_must_contain "$TMP/out" "^enable +off" &&
	test_must_not_contain "$TMP/out" "pfc-priority" &&
	test_must_not_contain "$TMP/out" "\"enable\"" &&
	sw leaf01 "nv show qos roce --applied -o json" >"$TMP/out" &&
	test_must_contain "$TMP/out" "\"enable\": \"off\"" &&
	sw 127.0.1.1 "nv show qos -o json" >"$TMP/qos.json" &&
	test_must_contain "$TMP/qos.json" "\"trust\": \"l2\"" &&
	test_must_contain "$TMP/qos.json" "\"min-threshold\": 150000" &&
	test_must_contain "$TMP/qos.json" "\"pfc\": \\{\\}" &&
	sw leaf01 "nv show qos mapping default-global dscp 26 -o json" >"$TMP/out" &&
	test_must_contain "$TMP/out" "\"switch-priority\": 3"
'

test_expect_success 'nv set stages a change that nv config apply -y applies' '
	sw leaf01 "nv set qos roce && nv show qos roce --applied -o json && nv config diff" \
		>"$TMP/out" &&
	test_must_contain "$TMP/out" "\"enable\": \"off\"" &&
	test_must_contain "$TMP/out" "^ +enable: on" &&
	sw leaf01 "nv config apply -y" >"$TMP/out" &&
	test_must_contain "$TMP/out" "^applied \\[rev_id: 2\\]" &&
	sw leaf01 "nv config diff; nv show qos roce --applied -o json; nv show qos roce -o json" \
		>"$TMP/out" &&
	test_must_not_contain "$TMP/out" "^- set" &&
	test_must_contain "$TMP/out" "\"enable\": \"on\"" &&
	test_must_contain "$TMP/out" "\"pfc-priority\": \"3\"" &&
	test_must_contain "$TMP/out" "\"trust-mode\": \"pcp,dscp\"" &&
	sw leaf01 "nv show interface swp1 qos pfc -o json" >"$TMP/out" &&
	test_must_contain "$TMP/out" "\"3\": \\{\\}" &&
	test_must_contain "$TMP/out" "\"xoff-threshold\": [1-9]"
'

test_expect_success 'bad values are refused with NVUE-style errors and stage nothing' '
	test_expect_code 1 sw leaf01 "nv set qos roce mode fast" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "Error: Invalid value for qos.roce.mode: .fast. is not one of" &&
	test_expect_code 1 sw leaf01 "nv set qos roce cable-length 0" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "0 is less than the minimum of 1" &&
	test_expect_code 1 sw leaf01 "nv set qos pfc default-global switch-priority 8" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "Invalid Command" &&
	test_expect_code 1 sw leaf01 "nv set qos pfc-watchdog polling-interval 50" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "50 is less than the minimum of 100" &&
	test_expect_code 1 sw leaf01 "nv set qos pfc-watchdog polling-interval 5001" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "5001 is greater than the maximum of 5000" &&
	test_expect_code 1 sw leaf01 "nv set qos pfc-watchdog robustness 1001" 2>"$TMP/err" &&
	sw leaf01 "nv set qos pfc-watchdog polling-interval 5000 && nv config detach" &&
	sw leaf01 "nv config diff" >"$TMP/out" &&
	test_must_not_contain "$TMP/out" "set"
'

test_expect_success 'an invalid config is refused at apply with the NVUE message' '
	test_expect_code 1 sw leaf01 "nv set qos congestion-control default-global traffic-class 3 min-threshold 2000000 && nv config apply -y" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "^Invalid config \\[rev_id: [0-9]+\\]" &&
	test_must_contain "$TMP/err" "Config invalid at qos.congestion-control.default-global.traffic-class.3: min-threshold" &&
	sw leaf01 "nv config detach; nv config diff" >"$TMP/out" &&
	test_must_not_contain "$TMP/out" "set"
'

test_expect_success 'PFC on a priority no lossless traffic pool carries is refused at apply' '
	test_expect_code 1 sw leaf01 "nv set qos pfc default-global switch-priority 2 && nv config apply -y" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "Config invalid at qos.pfc.default-global.switch-priority: switch-priority 2 is not in a lossless traffic pool" &&
	sw leaf01 "nv config detach" &&
	sw leaf01 "nv set qos pfc default-global switch-priority 2 && nv set qos traffic-pool roce-lossless switch-priority 2 && nv config apply -y" >"$TMP/out" &&
	test_must_contain "$TMP/out" "^applied" &&
	sw leaf01 "nv unset qos pfc default-global switch-priority 2 && nv unset qos traffic-pool roce-lossless switch-priority 2 && nv config apply -y" >/dev/null
'

test_expect_success 'Spectrum-4 programs 150000 B as 159744 B, VX as configured' '
	sw leaf02 "nv set qos roce && nv config apply -y" >/dev/null &&
	sw leaf01 "nv show interface swp1 qos congestion-control -o json" >"$TMP/sn5600" &&
	test_must_contain "$TMP/sn5600" "\"min-threshold\": 159744" &&
	test_must_contain "$TMP/sn5600" "\"max-threshold\": 1511424" &&
	sw leaf02 "nv show interface swp1 qos congestion-control -o json" >"$TMP/vx" &&
	test_must_contain "$TMP/vx" "\"min-threshold\": 150000" &&
	sw leaf01 "nv show qos congestion-control default-global -o json" >"$TMP/global" &&
	test_must_contain "$TMP/global" "\"min-threshold\": 150000" &&
	sw leaf01 "nv show interface swp1 qos congestion-control" >"$TMP/text" &&
	test_must_contain "$TMP/text" "156.00 KB"
'

test_expect_success 'apply without -y is aborted when the change restarts switchd' '
	test_expect_code 1 sw leaf01 "nv set qos roce mode lossy && nv config apply" \
		</dev/null >"$TMP/out" 2>&1 &&
	test_must_contain "$TMP/out" "Are you sure\\? \\[y/N\\]" &&
	test_must_contain "$TMP/out" "Aborted apply after warnings" &&
	sw leaf01 "nv show qos roce --applied -o json" >"$TMP/out" &&
	test_must_contain "$TMP/out" "\"mode\": \"lossless\"" &&
	sw leaf01 "nv config detach"
'

test_expect_success 'reject-next fails the apply and keeps the previous revision' '
	"$SIMCTL" fault "$LAB" leaf01 reject-next &&
	test_expect_code 1 sw leaf01 "nv set qos roce mode lossy && nv config apply -y" \
		>/dev/null 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "Invalid config \\[rev_id" &&
	sw leaf01 "nv show qos roce --applied -o json; nv config diff" >"$TMP/out" &&
	test_must_contain "$TMP/out" "\"mode\": \"lossless\"" &&
	test_must_not_contain "$TMP/out" "lossy" &&
	sw leaf01 "nv set qos roce mode lossy && nv config apply -y" >"$TMP/out" &&
	test_must_contain "$TMP/out" "^applied" &&
	sw leaf01 "nv set qos roce mode lossless && nv config apply -y" >/dev/null
'

test_expect_success 'drift changes applied and operational state behind the tool' '
	"$SIMCTL" fault "$LAB" leaf01 drift \
		qos.congestion-control.default-global.traffic-class.3.min-threshold=300000 &&
	sw leaf01 "nv show qos congestion-control default-global --applied -o json" >"$TMP/out" &&
	test_must_contain "$TMP/out" "\"min-threshold\": 300000" &&
	sw leaf01 "nv show interface swp7 qos congestion-control -o json" >"$TMP/out" &&
	test_must_contain "$TMP/out" "\"min-threshold\": 307200" &&
	"$SIMCTL" fault "$LAB" leaf01 drift "oper:interface.swp2.qos.pfc.switch-priority={\"4\":{}}" &&
	sw leaf01 "nv show interface swp2 qos pfc -o json" >"$TMP/out" &&
	test_must_contain "$TMP/out" "\"4\": \\{\\}" &&
	test_must_not_contain "$TMP/out" "\"3\": \\{\\}"
'

test_expect_success 'REST: revision, patch, apply, poll until applied (and saved: 5.9+)' '
	rest -X POST $U2/revision >"$TMP/rev" &&
	rev=$(sed -n "s/^  \"\\([0-9]*\\)\": {/\\1/p" "$TMP/rev") &&
	test -n "$rev" &&
	test_must_contain "$TMP/rev" "\"state\": \"pending\"" &&
	rest -X PATCH "$U2/qos/mapping/default-global?rev=$rev" \
		-d "{\"trust\": \"l3\", \"dscp\": {\"26\": {\"switch-priority\": 3}}}" >"$TMP/out" &&
	test_must_contain "$TMP/out" "\"trust\": \"l3\"" &&
	rest -X PATCH "$U2/qos/pfc/default-global/switch-priority?rev=$rev" -d "{\"4\": {}}" \
		>/dev/null &&
	rest -X PATCH "$U2/qos/traffic-pool/roce-lossless/switch-priority?rev=$rev" \
		-d "{\"4\": {}}" >/dev/null &&
	rest -X PATCH "$U2/revision/$rev" \
		-d "{\"state\": \"apply\", \"auto-prompt\": {\"ays\": \"ays_yes\"}}" >"$TMP/out" &&
	test_must_contain "$TMP/out" "\"state\": \"apply\"" &&
	rest "$U2/revision/$rev" >"$TMP/poll1" &&
	test_must_contain "$TMP/poll1" "\"state\": \"apply\"" &&
	rest "$U2/revision/$rev" >"$TMP/poll2" &&
	test_must_contain "$TMP/poll2" "\"state\": \"applied_and_saved\"" &&
	rest "$U2/qos/mapping/default-global?rev=applied" >"$TMP/out" &&
	test_must_contain "$TMP/out" "\"trust\": \"l3\"" &&
	rest "$U2/interface/swp1/qos/pfc" >"$TMP/out" &&
	test_must_contain "$TMP/out" "\"4\": \\{\\}" &&
	sw leaf02 "nv show qos mapping default-global --applied -o json" >"$TMP/out" &&
	test_must_contain "$TMP/out" "\"trust\": \"l3\""
'

test_expect_success 'REST: wrong password 401, bad value 400, wrong CA refused, default 403' '
	"$SIMCTL" exec "$LAB" -- curl -sS --cacert "$LAB/ca.pem" -u switchsim:wrong \
		-o "$TMP/out" -w "%{http_code}" $U1/qos/roce >"$TMP/code" &&
	test "$(cat "$TMP/code")" = 401 &&
	test_must_contain "$TMP/out" "\"status\": 401" &&
	rest -X POST $U1/revision >"$TMP/rev" &&
	rev=$(sed -n "s/^  \"\\([0-9]*\\)\": {/\\1/p" "$TMP/rev") &&
	rest -o "$TMP/out" -w "%{http_code}" -X PATCH "$U1/qos/roce?rev=$rev" \
		-d "{\"mode\": \"fast\"}" >"$TMP/code" &&
	test "$(cat "$TMP/code")" = 400 &&
	test_must_contain "$TMP/out" "is not one of" &&
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 \
		-keyout "$TMP/other.key" -out "$TMP/other.pem" -subj /CN=other 2>/dev/null &&
	test_expect_code 60 "$SIMCTL" exec "$LAB" -- curl -sS --cacert "$TMP/other.pem" \
		-K "$TMP/curl.conf" $U1/system 2>/dev/null &&
	echo cumulus >"$TMP/default-pw" &&
	"$SIMCTL" rest-password "$LAB" leaf02 "$TMP/default-pw" &&
	"$SIMCTL" exec "$LAB" -- curl -sS --cacert "$LAB/ca.pem" -u switchsim:cumulus \
		-o /dev/null -w "%{http_code}" $U2/system >"$TMP/code" &&
	test "$(cat "$TMP/code")" = 403 &&
	"$SIMCTL" rest-password "$LAB" leaf02 "$LAB/secrets/password" &&
	rest $U2/system >/dev/null
'

test_expect_success 'REST: reject-next leaves the revision invalid and the config as it was' '
	"$SIMCTL" fault "$LAB" leaf02 reject-next &&
	rest -X POST $U2/revision >"$TMP/rev" &&
	rev=$(sed -n "s/^  \"\\([0-9]*\\)\": {/\\1/p" "$TMP/rev") &&
	rest -X PATCH "$U2/qos/roce?rev=$rev" -d "{\"mode\": \"lossy\"}" >/dev/null &&
	rest -X PATCH "$U2/revision/$rev" \
		-d "{\"state\": \"apply\", \"auto-prompt\": {\"ays\": \"ays_yes\"}}" >/dev/null &&
	rest "$U2/revision/$rev" >/dev/null &&
	rest "$U2/revision/$rev" >"$TMP/out" &&
	test_must_contain "$TMP/out" "\"state\": \"invalid\"" &&
	test_must_contain "$TMP/out" "reject-next" &&
	rest "$U2/qos/roce?rev=applied" >"$TMP/out" &&
	test_must_contain "$TMP/out" "\"mode\": \"lossless\""
'

test_expect_success 'drop-after closes the connection; hang never answers' '
	"$SIMCTL" fault "$LAB" leaf02 drop-after 1 &&
	sw leaf02 "nv show system -o json" >/dev/null &&
	test_expect_code 255 sw leaf02 "nv show system -o json" >/dev/null 2>&1 &&
	sw leaf02 "nv show system -o json" >/dev/null &&
	"$SIMCTL" fault "$LAB" leaf02 hang &&
	test_expect_code 124 "$SIMCTL" exec "$LAB" -- timeout 1 \
		ssh -F "$LAB/ssh_config" leaf02 "nv show system" &&
	sw leaf02 true
'

test_expect_success 'password login works with the lab password and fails with another' '
	printf "#!/bin/sh\ncat \"%s\"\n" "$LAB/secrets/leaf01" >"$TMP/askpass" &&
	printf "#!/bin/sh\necho not-the-password\n" >"$TMP/askpass-bad" &&
	chmod 700 "$TMP/askpass" "$TMP/askpass-bad" &&
	SSH_ASKPASS="$TMP/askpass" SSH_ASKPASS_REQUIRE=force \
		sw -o PreferredAuthentications=password leaf01 "nv show system -o json" >"$TMP/out" &&
	test_must_contain "$TMP/out" "\"hostname\": \"leaf01\"" &&
	SSH_ASKPASS="$TMP/askpass-bad" SSH_ASKPASS_REQUIRE=force test_expect_code 255 \
		sw -o PreferredAuthentications=password -o NumberOfPasswordPrompts=1 leaf01 true \
		2>"$TMP/err" &&
	test_must_contain "$TMP/err" "Permission denied"
'

test_expect_success 'a new host key is refused until known_hosts has it' '
	"$SIMCTL" rekey "$LAB" &&
	test_expect_code 255 sw leaf01 true 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "REMOTE HOST IDENTIFICATION HAS CHANGED" &&
	"$SIMCTL" rekey "$LAB" --update-known-hosts &&
	sw leaf01 true
'

test_expect_success 'simctl down stops everything and removes the namespace' '
	. "$LAB/lab.env" &&
	pids=$(ip netns pids "$NS") &&
	test -n "$pids" &&
	"$SIMCTL" down "$LAB" &&
	! ip netns list | grep -q "^$NS\\b" &&
	test ! -e "$RUN" &&
	for p in $pids; do
		# gone, or a zombie not yet reaped by init
		state=$(sed "s/.*) //" "/proc/$p/stat" 2>/dev/null | cut -d" " -f1) || state=
		case $state in "" | Z | X) ;; *) echo "pid $p still runs ($state)"; exit 1 ;; esac
	done &&
	test ! -e "$LAB/lab.env"
'

test_done
