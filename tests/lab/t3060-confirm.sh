#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Commit-confirm on a lab with an NVUE, a SONiC and an EOS leaf (over SSH) and three hosts:
#   (a) `apply --confirm 20s` and nobody confirms: after the deadline every device is
#       exactly its pre-run state (the simulators' state files and the hosts' NIC and sysfs
#       files, normalized as the fault campaign does: tests/faults/campaign.py), with no
#       NVUE revision staged and no EOS session open;
#   (b) `apply --confirm 20s`, then `rocectl confirm RUN`: past the deadline every device
#       is still in policy, and each switch's startup configuration holds it (a reboot);
#   (c) a run that fails on one switch: every device of the run is rolled back at once;
#   (d) a timer that died shows in `show` ("needs recovery"), and `rollback RUN` restores
#       the pending run;
#   (e) enforce --confirm whose repair fails rolls back every device it repaired;
#   (f) a switch that no longer answers after the change: rolled back at once.
# The witnesses are the simulators' files, never rocectl's own reading.
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

# shellcheck source=tests/lib/confirmlib.sh
. "$SRC_DIR/tests/lib/confirmlib.sh"

# Every device's configuration, from the simulators' own files.
views() {
	python3 -c 'import sys, json, os
sys.path.insert(0, sys.argv[1])
import campaign
lab, out = sys.argv[2], {}
sw = os.path.join(lab, "switchsim", "switches")
for f in sorted(os.listdir(sw)):
    if f.endswith(".json"):
        out[f[:-5]] = campaign.switch_view(os.path.join(sw, f))
for h in sorted(os.listdir(os.path.join(lab, "hosts"))):
    out[h] = campaign.host_view(os.path.join(lab, "hosts", h))
print(json.dumps(out, sort_keys=True, indent=1))' "$SRC_DIR/tests/faults" "$LAB"
}

# Nothing left staged on the switches: no NVUE revision waiting, no EOS session open.
nothing_staged() {
	python3 -c 'import sys, json
v = json.load(open(sys.argv[1]))
bad = [k for k, d in v.items() if d.get("nvue", {}).get("staged_revisions") or d.get("eos", {}).get("open_sessions")]
if bad:
    print("something is left staged on", bad)
sys.exit(1 if bad else 0)' "$1"
}

# wait_state RUN STATE: the run's confirm state becomes STATE (at most 180 s: a loaded machine)
wait_state() {
	n=0
	until jq -e --arg s "$2" '.state == $s' "$CONFIRM_DIR/$1.json" >/dev/null 2>&1; do
		n=$((n + 1))
		[ $n -le 360 ] || {
			echo "run $1 is not '$2' after 180 s:" && cat "$CONFIRM_DIR/$1.json" "$CONFIRM_DIR/$1.log"
			return 1
		}
		sleep 0.5
	done
}

run_of() {
	sed -n 's/^confirm with: rocectl confirm \([^ ]*\) before .*/\1/p' "$1" | grep . ||
		{ echo "no 'confirm with:' line in $1" >&2 && tail -3 "$1" >&2 && return 1; }
}

test_expect_success 'bring-up: NVUE, SONiC and EOS leaves and three hosts; durations are checked' '
	"$LAB_CMD" up "$LAB" --hosts 3 --leaves 3 --spines 0 --platforms nvue,sonic,eos \
		--nics 1 >/dev/null &&
	test_expect_code 64 rc apply -p "$POLICY" -i "$INV" --confirm 0s 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "shorter than 1s" &&
	test_expect_code 64 rc apply -p "$POLICY" -i "$INV" --confirm 10x 2>"$TMP/err" &&
	test_expect_code 64 rc apply -p "$POLICY" -i "$INV" --confirm 25h 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "longer than 24h" &&
	test_expect_code 1 rc confirm 20991231T000000.000Z-1 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "has nothing waiting for a confirm" &&
	test_expect_code 64 rc confirm 2>/dev/null &&
	views >"$TMP/factory"
'

test_expect_success '(a) apply --confirm 20s, no confirm: every device returns to its pre-run state' '
	rc apply -p "$POLICY" -i "$INV" --confirm 20s >"$TMP/a.out" &&
	run=$(run_of "$TMP/a.out") && test -n "$run" && echo "$run" >"$TMP/run-a" &&
	# inside the window: quick checks only, the timer does not wait for a slow machine
	views >"$TMP/applied" &&
	jq -e ".state == \"pending\" and .devices == 6 and .timer_pid > 1" "$CONFIRM_DIR/$run.json" &&
	{ ! cmp -s "$TMP/factory" "$TMP/applied" || { echo "apply changed nothing" && false; }; } &&
	{ test "$(stat -c %a "$RUNS_DIR/$run")" = 700 &&
		test "$(stat -c %a "$RUNS_DIR/$run/record.json")" = 600 &&
		test -L "$CONFIRM_DIR/$run.json" ||
		{ ls -la "$RUNS_DIR/$run" "$CONFIRM_DIR" && false; }; } &&
	rc history >"$TMP/h.txt" &&
	test_must_contain "$TMP/h.txt" "^$run  apply .*\[pending confirm until " &&
	wait_state "$run" "rolled back" &&
	views >"$TMP/a.after" &&
	diff -u "$TMP/factory" "$TMP/a.after" &&
	nothing_staged "$TMP/a.after" &&
	test_expect_code 2 rc plan -p "$POLICY" -i "$INV" >/dev/null &&
	rc show "$run" >"$TMP/show.txt" &&
	test_must_contain "$TMP/show.txt" "\[rolled back \(timer\) at " &&
	test_must_contain "$CONFIRM_DIR/$run.log" "not confirmed by the deadline" &&
	test_must_not_contain "$CONFIRM_DIR/$run.log" "Sanitizer" &&
	rc history --json | jq -e "[.runs[].command] | index(\"rollback\") != null" &&
	test_expect_code 1 rc confirm "$run" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "too late: run $run is rolled back"
'

test_expect_success '(b) apply --confirm 20s then confirm: kept past the deadline, startup holds it' '
	rc apply -p "$POLICY" -i "$INV" --confirm 20s >"$TMP/b.out" &&
	run=$(run_of "$TMP/b.out") && test -n "$run" && echo "$run" >"$TMP/run-b" &&
	rc confirm "$run" >"$TMP/confirm.out" &&
	# the switches with a timer of their own save at the confirm, not before
	views >"$TMP/b.applied" &&
	test_must_contain "$TMP/confirm.out" "run $run confirmed: its 6 devices keep the change" &&
	wait_state "$run" confirmed &&
	rc confirm "$run" | grep -q "already confirmed" &&
	test ! -e "$RUNS_DIR/$run/journal" &&
	deadline=$(jq .deadline "$CONFIRM_DIR/$run.json") &&
	while [ "$(date +%s)" -le $((deadline + 2)) ]; do sleep 1; done &&
	views >"$TMP/b.after" &&
	diff -u "$TMP/b.applied" "$TMP/b.after" &&
	rc verify -p "$POLICY" -i "$INV" >/dev/null &&
	rc history >"$TMP/h.txt" &&
	test_must_contain "$TMP/h.txt" "^$run  apply .*\[confirmed at .* by root\]" &&
	test_must_contain "$TMP/h.txt" "  confirm " &&
	for sw in leaf01 leaf02 leaf03; do "$LAB_CMD" reboot "$LAB" "$sw" >/dev/null || exit 1; done &&
	rc verify -p "$POLICY" -i "$INV" >/dev/null
'

test_expect_success '(c) a run that fails on one switch rolls every device back at once' '
	rc rollback "$(cat "$TMP/run-b")" -i "$INV" >/dev/null &&
	views >"$TMP/c.before" &&
	test_expect_code 2 rc plan -p "$POLICY" -i "$INV" >/dev/null &&
	"$SIMCTL" fault "$LAB/switchsim" leaf03 reject-next >/dev/null &&
	test_expect_code 1 rc apply -p "$POLICY" -i "$INV" --confirm 20s >"$TMP/c.out" 2>"$TMP/c.err" &&
	test_must_contain "$TMP/c.err" "rolling back every device of run .* now \(the run failed\)" &&
	test_must_not_contain "$TMP/c.out" "^confirm with:" &&
	views >"$TMP/c.after" &&
	diff -u "$TMP/c.before" "$TMP/c.after" &&
	nothing_staged "$TMP/c.after"
'

test_expect_success '(d) a timer that died is visible in history; rollback RUN restores the pending run by hand' '
	views >"$TMP/d.before" &&
	rc apply -p "$POLICY" -i "$INV" --confirm 10s >"$TMP/d.out" &&
	run=$(run_of "$TMP/d.out") && test -n "$run" &&
	n=0 && until jq -e ".timer_pid > 1" "$CONFIRM_DIR/$run.json" >/dev/null; do
		n=$((n + 1)) && [ $n -le 50 ] && sleep 0.1 || exit 1; done &&
	kill -9 "$(jq .timer_pid "$CONFIRM_DIR/$run.json")" &&
	deadline=$(jq .deadline "$CONFIRM_DIR/$run.json") &&
	while [ "$(date +%s)" -le $((deadline + 6)) ]; do sleep 1; done &&
	jq -e ".state == \"pending\"" "$CONFIRM_DIR/$run.json" &&
	rc show "$run" >"$TMP/d.show" &&
	test_must_contain "$TMP/d.show" "needs recovery: pending, nobody is finishing it" &&
	rc rollback "$run" -i "$INV" >"$TMP/d.rb" &&
	test_must_contain "$TMP/d.rb" "run $run was waiting for a confirm" &&
	jq -e ".state == \"rolled back\" and .reason == \"rollback\"" "$CONFIRM_DIR/$run.json" &&
	views >"$TMP/d.after" &&
	diff -u "$TMP/d.before" "$TMP/d.after" &&
	nothing_staged "$TMP/d.after"
'

test_expect_success '(e) enforce --confirm whose repair fails on a switch rolls every repaired device back; JSON stays JSON' '
	views >"$TMP/e.before" &&
	"$SIMCTL" fault "$LAB/switchsim" leaf01 reject-next >/dev/null &&
	test_expect_code 1 rc enforce -p "$POLICY" -i "$INV" --disruptive allow --confirm 20s \
		--format json >"$TMP/e.json" 2>"$TMP/e.err" &&
	jq -e ".confirm == {\"state\": \"rolled back\", \"reason\": \"the run failed\"}" \
		"$TMP/e.json" >/dev/null &&
	python3 "$SRC_DIR/tests/lib/schema_check.py" "$SRC_DIR/examples/enforce.schema.json" \
		"$TMP/e.json" &&
	test_must_contain "$TMP/e.err" "rolling back every device of run .* now \(the run failed\)" &&
	test_must_contain "$TMP/e.err" "restored .leaf02." &&
	views >"$TMP/e.after" &&
	diff -u "$TMP/e.before" "$TMP/e.after" &&
	nothing_staged "$TMP/e.after"
'

test_expect_success '(f) a switch that stops answering after the change is rolled back at once' '
	"$SIMCTL" fault "$LAB/switchsim" leaf03 drop-after 1000 >/dev/null &&
	rc apply -p "$POLICY" -i "$INV" --limit leaf03 >"$TMP/f0.out" &&
	left=$(jq ".faults[\"drop-after\"]" "$LAB/switchsim/switches/leaf03.json") &&
	"$SIMCTL" fault "$LAB/switchsim" leaf03 clear >/dev/null &&
	rc rollback "$(sed -n "s/^run //p" "$TMP/f0.out")" -i "$INV" >/dev/null &&
	views >"$TMP/f.before" &&
	# the apply is served as before; the connection drops on the first read after it
	"$SIMCTL" fault "$LAB/switchsim" leaf03 drop-after $((1000 - left)) >/dev/null &&
	test_expect_code 1 rc apply -p "$POLICY" -i "$INV" --limit leaf03 --confirm 20s \
		>"$TMP/f.out" 2>"$TMP/f.err" &&
	test_must_contain "$TMP/f.err" "leaf03. no longer answers" &&
	test_must_contain "$TMP/f.err" "rolling back every device of run .* now \(unreachable\)" &&
	"$SIMCTL" fault "$LAB/switchsim" leaf03 clear >/dev/null &&
	views >"$TMP/f.after" &&
	diff -u "$TMP/f.before" "$TMP/f.after" &&
	nothing_staged "$TMP/f.after"
'

test_expect_success 'enforce --confirm keeps a repair that verifies and says so' '
	rc enforce -p "$POLICY" -i "$INV" --disruptive allow --confirm 20s >"$TMP/e.out" &&
	test_must_contain "$TMP/e.out" "run .* confirmed: every device answers and is in policy" &&
	rc verify -p "$POLICY" -i "$INV" >/dev/null &&
	run=$(sed -n "s/^run \([^ ]*\) confirmed.*/\1/p" "$TMP/e.out") &&
	jq -e ".state == \"confirmed\"" "$CONFIRM_DIR/$run.json" &&
	test ! -e "$RUNS_DIR/$run/journal"
'

test_expect_success 'history retention deletes the confirm state of a run that is over' '
	erun=$(jq -r ".run_id" "$TMP/e.json") &&
	test -e "$CONFIRM_DIR/$erun.json" &&
	rc history --keep 1 >/dev/null &&
	test ! -e "$CONFIRM_DIR/$erun.json" &&
	test ! -e "$CONFIRM_DIR/$erun.lock" &&
	test ! -e "$CONFIRM_DIR/$erun" &&
	test ! -L "$CONFIRM_DIR/$erun.json" &&
	test ! -e "$RUNS_DIR/$erun/record.json" &&
	test ! -e "$RUNS_DIR/$erun/record.lock"
'

test_done
