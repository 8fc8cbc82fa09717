#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# One hung or slow switch never holds the fleet's read phase (engine/run/fleet.c,
# rc_fleet_read_deadline_ms): each device's read has a deadline (SSH: connect + command
# timeout; REST: twice its timeout).  A switch that answers every request just inside its
# timeout is cut at the deadline and reported failed; the other devices are read and
# reported as usual.  Without the deadline the slow switch's read below takes four of its
# slowed requests (about 9 s) and succeeds.
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

LAB_CMD="$SRC_DIR/tests/lab/lab"
SIMCTL="$SRC_DIR/tests/sim/switch/simctl"
LAB="$TMP/lab"
POLICY="$SRC_DIR/policies/roce-lossless.yaml"
export BUILD_DIR ROCECTL

test_needs root

test_at_exit '"$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true'

fault() {
	"$SIMCTL" fault "$LAB/switchsim" "$@" >/dev/null
}

# short timeouts: SSH deadline 2 + 2 s, REST deadline 2 x 3 s
short() {
	sed 's/^kind: Inventory$/kind: Inventory\
defaults:\
  ssh: {connect_timeout: 2s, command_timeout: 2s}\
  rest: {timeout: 3s}/' "$LAB/$1" >"$TMP/$1"
}

# verify INVENTORY: its output in $TMP/out, its length in seconds in $TMP/secs
verify_timed() {
	t0=$(date +%s%N)
	"$LAB_CMD" exec "$LAB" -- "$ROCECTL" verify -p "$POLICY" -i "$TMP/$1" --details >"$TMP/out" 2>&1
	echo $?>"$TMP/rc"
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000000000)) >"$TMP/secs"
	echo "verify took $(cat "$TMP/secs")s, exit $(cat "$TMP/rc")"
}

# every device other than leaf01 was read (a report line with drifted fields)
others_read() {
	for d in gpu001 gpu002 leaf02; do
		test_must_contain "$TMP/out" "^$d \([a-z-]+\): [0-9]+ drifted fields" || return 1
	done
}

test_expect_success 'bring-up of a lab with two NVUE leaves' '
	"$LAB_CMD" up "$LAB" --hosts 2 --nics 1 --leaves 2 --spines 0 >/dev/null &&
	short inventory.yaml && short inventory-rest.yaml
'

test_expect_success 'REST: a switch slower than its deadline fails alone, the others are read' '
	fault leaf01 slow 2200 &&
	verify_timed inventory-rest.yaml &&
	fault leaf01 clear &&
	test "$(cat "$TMP/rc")" = 1 &&
	test_must_contain "$TMP/out" "^leaf01 \(nvue-rest\): error: .*cut by the device.s deadline \(6s" &&
	others_read &&
	test "$(cat "$TMP/secs")" -lt 9
'

test_expect_success 'SSH: a hung switch fails at its deadline, the others are read' '
	fault leaf01 hang always &&
	verify_timed inventory.yaml &&
	fault leaf01 clear &&
	test "$(cat "$TMP/rc")" = 1 &&
	test_must_contain "$TMP/out" "^leaf01 \(nvue-ssh\): error: .*timed out" &&
	others_read &&
	test "$(cat "$TMP/secs")" -lt 8
'

test_expect_success 'without faults every device is read' '
	verify_timed inventory-rest.yaml &&
	test_must_contain "$TMP/out" "^leaf01 \(nvue-rest\): [0-9]+ drifted fields" &&
	others_read
'

test_done
