#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# History and undo on the lab (tests/lab): every plan, apply, enforce and rollback leaves
# a record (0600, in a 0700 directory); `history` lists them, `show RUN` tells who changed
# what; `rollback RUN` undoes a run that succeeded, back to the values it found, and only
# those; every change reaches syslog with ROCECTL_* fields (a listener on /dev/log in a
# private mount namespace is the witness).
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"
. "$SRC_DIR/tests/lib/sysloglib.sh"

LAB_CMD="$SRC_DIR/tests/lab/lab"
LAB="$TMP/lab"
INV="$LAB/inventory.yaml"
POLICY="$SRC_DIR/policies/roce-lossless.yaml"
ROCECTL_JOURNAL="$TMP/journal"
ROCECTL_HISTORY="$TMP/history"
IF=enp12s0np0
export BUILD_DIR ROCECTL ROCECTL_JOURNAL ROCECTL_HISTORY

test_needs root

test_at_exit '"$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true'

rc() {
	"$LAB_CMD" exec "$LAB" -- "$ROCECTL" "$@"
}

# rc_logged LOG ARGS...: rocectl in the lab, its syslog messages in LOG
rc_logged() {
	log=$1
	shift
	with_syslog "$log" "$LAB_CMD" exec "$LAB" -- "$ROCECTL" "$@"
}

test_expect_success 'bring-up of a 2-host, 1-leaf lab; apply leaves a record' '
	"$LAB_CMD" up "$LAB" --hosts 2 --leaves 1 --spines 0 --nics 1 >/dev/null &&
	rc apply -p "$POLICY" -i "$INV" >"$TMP/apply0.txt" &&
	rc verify -p "$POLICY" -i "$INV" >/dev/null &&
	test "$(stat -c %a "$ROCECTL_HISTORY")" = 700 &&
	for f in "$ROCECTL_HISTORY"/*.json; do test "$(stat -c %a "$f")" = 600 || exit 1; done &&
	run0=$(sed -n "s/^run //p" "$TMP/apply0.txt") &&
	jq -e --arg p "$(realpath "$POLICY")" ".command == \"apply\" and .policy == \$p and
		.policy_sha256 == \"$(sha256sum "$POLICY" | cut -d" " -f1)\" and
		.inventory_sha256 == \"$(sha256sum "$INV" | cut -d" " -f1)\" and
		.user == \"root\" and (.host | length > 0) and .exit_code == 0" \
		"$ROCECTL_HISTORY/$run0.json"
'

test_expect_success 'a drift (PFC also on priority 4) repaired by apply: history and show name the device and the field, syslog has it' '
	n=0 &&
	until rc verify -p "$POLICY" -i "$INV" --format json >"$TMP/v1.json";
		jq -e "any(.devices[].changes[]; .field == \"pfc_enabled\")" "$TMP/v1.json" >/dev/null; do
		n=$((n + 1)) && [ "$n" -le 5 ] &&
		{ "$LAB_CMD" ssh "$LAB" gpu002 "dcb pfc set dev $IF prio-pfc 4:on" >/dev/null 2>&1 || true; }
	done &&
	jq -r ".devices[] | select(.status == \"drift\") | .device" "$TMP/v1.json" >"$TMP/drifted" &&
	test "$(cat "$TMP/drifted")" = gpu002 &&
	rc_logged "$TMP/syslog" apply -p "$POLICY" -i "$INV" >"$TMP/apply1.txt" &&
	run1=$(sed -n "s/^run //p" "$TMP/apply1.txt") && echo "$run1" >"$TMP/run1" &&
	rc history --device gpu002 --json >"$TMP/h.json" &&
	jq -e --arg r "$run1" "(.runs | last | .run_id == \$r) and
		(.runs | last | .devices | length == 1 and .[0].device == \"gpu002\" and
		 .[0].result == \"applied\" and .[0].changes > 0)" \
		"$TMP/h.json" &&
	rc history --device gpu001 --json | jq -e --arg r "$run1" "all(.runs[]; .run_id != \$r)" &&
	rc history >"$TMP/h.txt" && test_must_contain "$TMP/h.txt" "^$run1  apply .* gpu002 applied" &&
	rc show "$run1" >"$TMP/show.txt" &&
	test_must_contain "$TMP/show.txt" "^gpu002 \(agent-ssh\): applied" &&
	test_must_contain "$TMP/show.txt" "^policy .*sha256:$(sha256sum "$POLICY" | cut -d" " -f1)" &&
	rc show "$run1" --json >"$TMP/show.json" &&
	jq -e ".devices[] | select(.device == \"gpu002\") | .changes | length > 0" "$TMP/show.json" &&
	test_must_contain "$TMP/syslog" "rocectl\[[0-9]+\]: ROCECTL_RUN=$run1 ROCECTL_COMMAND=apply ROCECTL_DEVICE=gpu002 ROCECTL_PORT=$IF ROCECTL_FIELD=" &&
	test_must_not_contain "$TMP/syslog" "ROCECTL_DEVICE=gpu001"
'

test_expect_success 'rollback RUN undoes the successful apply: gpu002 drifts again as it was, nothing else' '
	run1=$(cat "$TMP/run1") &&
	rc rollback "$run1" -i "$INV" >"$TMP/rb.txt" &&
	test_must_contain "$TMP/rb.txt" "run $run1 finished; undoing it from its kept snapshots \(1 device\)" &&
	test_must_contain "$TMP/rb.txt" "restored .gpu002." &&
	test_expect_code 2 rc verify -p "$POLICY" -i "$INV" --format json >"$TMP/v2.json" &&
	jq -c "[.devices[] | select(.status == \"drift\") | {device, changes: [.changes[] | select(.kind == \"set\") | [.port, .field, .old]]}]" \
		"$TMP/v1.json" >"$TMP/want" &&
	jq -c "[.devices[] | select(.status == \"drift\") | {device, changes: [.changes[] | select(.kind == \"set\") | [.port, .field, .old]]}]" \
		"$TMP/v2.json" >"$TMP/got" &&
	diff -u "$TMP/want" "$TMP/got" &&
	rc history --json >"$TMP/h2.json" &&
	jq -e "[.runs[].command] | index(\"rollback\") != null and index(\"apply\") != null" "$TMP/h2.json"
'

test_expect_success 'plan and enforce leave records too; --since and --keep' '
	test_expect_code 2 rc plan -p "$POLICY" -i "$INV" >/dev/null &&
	rc enforce -p "$POLICY" -i "$INV" --disruptive allow >/dev/null &&
	rc history --json >"$TMP/h3.json" &&
	jq -e "[.runs[].command] | index(\"plan\") != null and index(\"enforce\") != null" "$TMP/h3.json" &&
	rc history --since 2000-01-01 --json | jq -e ".runs | length >= 5" &&
	rc history --since 2099-01-01 --json | jq -e ".runs | length == 0" &&
	rc history --keep 2 --json | jq -e ".runs | length == 2" &&
	test "$(ls "$ROCECTL_HISTORY"/*.json | wc -l)" = 2 &&
	# the snapshots of the runs whose records went, with them
	test "$(ls "$ROCECTL_HISTORY/runs" | wc -l)" -le 2
'

test_done
