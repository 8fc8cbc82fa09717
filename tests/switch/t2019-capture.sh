#!/bin/sh
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

test_expect_success 'three simulated switches, their state before the capture' '
	sim up "$LAB" --switch eos1=127.0.41.1:eos --switch nv1=127.0.41.2:nvue \
		--switch so1=127.0.41.3:sonic >/dev/null &&
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
