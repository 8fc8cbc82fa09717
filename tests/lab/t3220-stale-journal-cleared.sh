#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A stale journal entry (left by a killed run) is cleared by a verify that finds its device
# in policy (cli/fleet_cmd.c, clear_verified), so that a later `rollback` never reverts
# verified work; the entry of a device that verify finds drifted or cannot read stays.
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

LAB_CMD="$SRC_DIR/tests/lab/lab"
SIMCTL="$SRC_DIR/tests/sim/switch/simctl"
LAB="$TMP/lab"
INV="$LAB/inventory.yaml"
POLICY="$SRC_DIR/policies/roce-lossless.yaml"
JOURNAL="$TMP/journal"
ROCECTL_LOCK_DIR="$TMP/locks"
export BUILD_DIR ROCECTL ROCECTL_LOCK_DIR

test_needs root

test_at_exit '"$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true'

rc() {
	"$LAB_CMD" exec "$LAB" -- env ROCECTL_JOURNAL="$JOURNAL" ROCECTL_LOCK_DIR="$ROCECTL_LOCK_DIR" \
		"$ROCECTL" "$@"
}

# A run id whose process is gone (the pid of a shell that has exited).
dead=$(sh -c 'echo $$')
RUN="20250101T000000.000Z-$dead"

# stale DEVICE DRIVER PORT: a journal entry for DEVICE from the dead run
stale() {
	mkdir -p "$JOURNAL/$RUN" && chmod 700 "$JOURNAL" "$JOURNAL/$RUN" &&
		cat >"$JOURNAL/$RUN/$1.json" <<-EOJ &&
			{"version": 1, "run_id": "$RUN", "device": "$1", "driver": "$2",
			 "address": "192.0.2.1", "ports": [{"name": "$3", "qos": {"known": 0, "unsupported": 0}}]}
		EOJ
		chmod 600 "$JOURNAL/$RUN/$1.json"
}

test_expect_success 'a lab fabric brought to the policy' '
	"$LAB_CMD" up "$LAB" --hosts 2 --nics 1 --leaves 2 --spines 0 >/dev/null &&
	rc apply -p "$POLICY" -i "$INV" >"$TMP/out" 2>&1 &&
	test ! -d "$JOURNAL/$RUN"
'

test_expect_success 'verify clears the stale entries of devices it finds in policy, keeps the drifted one' '
	stale leaf01 nvue-ssh swp1 && stale gpu001 agent-ssh enp12s0np0 &&
	stale leaf02 nvue-ssh swp1 &&
	"$SIMCTL" fault "$LAB/switchsim" leaf02 drift \
		qos.congestion-control.default-global.traffic-class.3.min-threshold=331776 >/dev/null &&
	test_expect_code 2 rc verify -p "$POLICY" -i "$INV" >"$TMP/out" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "warning: .leaf01. has a stale journal entry from run $RUN" &&
	test_must_contain "$TMP/err" ".leaf01. is verified in policy: its stale journal entry from run $RUN is cleared" &&
	test_must_contain "$TMP/err" ".gpu001. is verified in policy: its stale journal entry from run $RUN is cleared" &&
	test_must_not_contain "$TMP/err" ".leaf02. is verified in policy" &&
	test ! -e "$JOURNAL/$RUN/leaf01.json" && test ! -e "$JOURNAL/$RUN/gpu001.json" &&
	test -e "$JOURNAL/$RUN/leaf02.json"
'

test_expect_success 'a device verify cannot read keeps its stale entry' '
	stale leaf01 nvue-ssh swp1 &&
	"$SIMCTL" fault "$LAB/switchsim" leaf01 drop-after 0 >/dev/null &&
	test_expect_code 1 rc verify -p "$POLICY" -i "$INV" --limit leaf01 >"$TMP/out" 2>"$TMP/err" &&
	"$SIMCTL" fault "$LAB/switchsim" leaf01 clear >/dev/null &&
	test_must_not_contain "$TMP/err" "is verified in policy" &&
	test -e "$JOURNAL/$RUN/leaf01.json"
'

test_expect_success 'the next rollback has only the drifted device left to restore' '
	rm "$JOURNAL/$RUN/leaf01.json" &&
	rc rollback -i "$INV" >"$TMP/out" 2>"$TMP/err";
	test_must_contain "$TMP/out" "holds 1 entr" &&
	test_must_contain "$TMP/out" "leaf02" && test_must_not_contain "$TMP/out" "gpu001"
'

test_done
