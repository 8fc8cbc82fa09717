#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# rocectl capture end to end against simulated EOS (SSH and eAPI), NVUE (SSH and REST) and
# SONiC switches: one file per read command with a provenance header, nothing written to
# the devices, no secret or address of the inventory in any file, and the files replay
# through the parsers (tests/unit/test_captured_replay.c) as a real device's would.
. "$SRC_DIR/tests/lib/testlib.sh"

SIMCTL="$SRC_DIR/tests/sim/switch/simctl"
LAB="$TMP/lab"

sim() {
	sh "$SIMCTL" "$@"
}

rc() {
	sh "$SIMCTL" exec "$LAB" -- env -u SSH_AUTH_SOCK "$ROCECTL" "$@"
}

test_at_exit 'sh "$SIMCTL" down "$LAB" >/dev/null 2>&1 || true'

# Secrets planted on the switches, one per secret-bearing key of each platform (the table in
# docs/PLATFORMS.md, "What capture scrubs"): none may appear in a capture.  NVUE's read is
# `nv show qos` and the interfaces' qos, which hold none; its aaa/snmp values are planted so
# that a read of the whole configuration would be caught too.
PLANTED="tacGlobalPk1 tacSrvPk2 radGlobalPk3 radSrvPk4 snmpRoComm5 snmpAuthPw7 snmpPrivPw8
eosHash19 eosEnable20 070E234F1F5B4A21 0207165218120E22 eosComm23 nvTacGlobal10 nvTacSecret11
nvRadSecret12 nvHash13 nvPlainPw14 nvComm15"

plant_secrets() {
	sim fault "$LAB" so1 drift 'TACPLUS.global={"auth_type":"pap","passkey":"tacGlobalPk1"}' \
		'TACPLUS_SERVER.192.0.2.9.passkey=tacSrvPk2' 'RADIUS.global.passkey=radGlobalPk3' \
		'RADIUS_SERVER.192.0.2.10.passkey=radSrvPk4' 'SNMP_COMMUNITY.snmpRoComm5={"TYPE":"RO"}' \
		'SNMP_USER.ops={"SNMP_USER_AUTH_PASSWORD":"snmpAuthPw7","SNMP_USER_ENCRYPTION_PASSWORD":"snmpPrivPw8"}' &&
	sim fault "$LAB" eos1 drift 'aaa-lines=[
		"username admin privilege 15 role network-admin secret sha512 $6$eosSalt$eosHash19",
		"enable secret sha512 $6$eosEnable20", "tacacs-server key 7 070E234F1F5B4A21",
		"radius-server host 192.0.2.11 key 7 0207165218120E22",
		"snmp-server community eosComm23 ro"]' &&
	sim fault "$LAB" nv1 drift system.aaa.tacacs.secret=nvTacGlobal10 \
		system.aaa.tacacs.server.1.secret=nvTacSecret11 \
		system.aaa.radius.server.radsrv.secret=nvRadSecret12 \
		system.aaa.user.ops.hashed-password=nvHash13 system.aaa.user.ops.password=nvPlainPw14 \
		'service.snmp-server.readonly-community.nvComm15.access={"any":{}}'
}

test_expect_success 'three simulated switches with credentials, their state before the capture' '
	sim up "$LAB" --switch eos1=127.0.41.1:eos --switch nv1=127.0.41.2:nvue \
		--switch so1=127.0.41.3:sonic >/dev/null &&
	plant_secrets >"$TMP/plant" 2>&1 || { cat "$TMP/plant"; exit 1; } &&
	sim cli "$LAB" eos1 "show running-config" | grep -q "snmp-server community eosComm23" &&
	sim cli "$LAB" eos1 "show running-config" >"$TMP/eos.before" &&
	sim cli "$LAB" eos1 "show configuration sessions" >"$TMP/sess.before"
'

test_expect_success 'capture over SSH and over the APIs: exit 0, one file per command' '
	rc capture -i "$LAB/inventory.yaml" -o "$TMP/cap/ssh" >"$TMP/out" 2>&1 &&
	rc capture -i "$LAB/inventory-rest.yaml" -o "$TMP/cap/api" >>"$TMP/out" 2>&1 &&
	test_must_contain "$TMP/out" "^eos1: [0-9]+ answer" &&
	test -s "$TMP/cap/ssh/eos1/01-show-running-config.txt" &&
	test -s "$TMP/cap/ssh/so1/01-show-runningconfiguration-all.txt" &&
	test -s "$TMP/cap/api/eos1/04-show-qos-maps.txt" &&
	test -s "$TMP/cap/api/nv1/01-GET-qos.txt" &&
	f="$TMP/cap/ssh/eos1/05-show-startup-config.txt" &&
	test_must_contain "$f" "^# platform: eos$" &&
	test_must_contain "$f" "^# version: 4\.31\.2F$" &&
	test_must_contain "$f" "^# command: show startup-config$" &&
	test_must_contain "$f" "^# time: 20[0-9-]+T[0-9:]+Z$" &&
	test_must_contain "$TMP/cap/ssh/nv1/"*.txt "^# version: [0-9]"
'

test_expect_success '--limit captures only the devices named' '
	rc capture -i "$LAB/inventory.yaml" --limit nv1 -o "$TMP/cap/one" >/dev/null 2>&1 &&
	test "$(ls "$TMP/cap/one")" = nv1
'

test_expect_success 'nothing was written: same running-config, no configuration session' '
	sim cli "$LAB" eos1 "show running-config" >"$TMP/eos.after" &&
	cmp "$TMP/eos.before" "$TMP/eos.after" &&
	sim cli "$LAB" eos1 "show configuration sessions" >"$TMP/sess.after" &&
	cmp "$TMP/sess.before" "$TMP/sess.after"
'

test_expect_success 'no secret or address from the inventory appears in any file' '
	for s in "$LAB"/secrets/*; do
		pw=$(head -n 1 "$s") &&
		test -n "$pw" &&
		! grep -rF -- "$pw" "$TMP/cap" || { echo "password of $s leaked"; exit 1; }
	done &&
	! grep -rE "127\.0\.41\.[0-9]" "$TMP/cap" &&
	grep -rq "<mac>" "$TMP/cap"
'

test_expect_success 'no planted credential appears in any file; their keys are still there' '
	for s in $PLANTED; do
		! grep -rF -- "$s" "$TMP/cap" || { echo "$s leaked"; exit 1; }
	done &&
	f="$TMP/cap/ssh/so1/01-show-runningconfiguration-all.txt" &&
	test_must_contain "$f" "\"passkey\": \"<secret>\"" &&
	test_must_contain "$f" "\"<secret-1>\": \\{" &&
	test_must_contain "$TMP/cap/ssh/eos1/01-show-running-config.txt" \
		"^snmp-server community <secret> ro$" &&
	test_must_contain "$TMP/cap/api/eos1/01-show-running-config.txt" "tacacs-server key <secret>"
'

test_expect_success 'the captures replay through the parsers, as a real device capture would' '
	for p in eos nvue sonic; do mkdir -p "$TMP/src/tests/data/$p/captured"; done &&
	mkdir -p "$TMP/src/tests/data/eos/captured/ssh" "$TMP/src/tests/data/eos/captured/api" &&
	cp "$TMP/cap/ssh/eos1/"* "$TMP/src/tests/data/eos/captured/ssh/" &&
	cp "$TMP/cap/api/eos1/"* "$TMP/src/tests/data/eos/captured/api/" &&
	cp -r "$TMP/cap/ssh/nv1" "$TMP/src/tests/data/nvue/captured/ssh" &&
	cp -r "$TMP/cap/api/nv1" "$TMP/src/tests/data/nvue/captured/api" &&
	cp -r "$TMP/cap/ssh/so1" "$TMP/src/tests/data/sonic/captured/ssh" &&
	SRC_DIR="$TMP/src" "$BUILD_DIR/san/tests/unit/test_captured_replay" >"$TMP/replay" 2>&1 ||
		{ cat "$TMP/replay"; exit 1; }
'

test_expect_success 'the simulated switches go down cleanly' '
	sim down "$LAB"
'
test_done
