#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The run transaction's undo paths when a process dies (include/rocectl/txn.h): a kill is
# simulated at a named step with ROCECTL_CRASH_AT (the process _exit(137)s there, as
# kill -9 leaves it), on an NVUE and an EOS leaf over SSH and two hosts:
#   (a) the confirm timer killed while it restores: the run is "needs recovery" in
#       history, `confirm` is too late, `rollback RUN` finishes it (the owner is checked by
#       pid and start time, never assumed alive);
#   (b) `apply --confirm` killed after its first write with its timer gone too: plain
#       `rollback` rolls the run back (never "nothing to roll back" with exit 0), and no
#       history record says exit 0;
#   (c) `apply` on a device that a run pending its confirm holds: exit 1 naming the run
#       and its deadline, nothing written;
#   (d) `confirm RUN` killed after one switch kept its commit: run again, it finishes the
#       others (the kept one skipped) instead of rolling the run back;
#   (e) a confirm after the deadline is refused and says so;
#   (f) the run's state file truncated while it waits: the timer keeps the deadline it
#       started with and rolls the run back (never ends without restoring);
#   (g) `rollback RUN` of a pending run whose NVUE leaf hangs once: a command that timed
#       out fails that device's restore (it is not taken for the switch's own timer
#       having rolled back), so no run ends "rolled back" with the switch's revision still
#       waiting for its confirm; run again, it finishes exactly;
#   (h) an EOS restore killed between staging and committing its session leaves that
#       session pending: the next restore knows it by name (from the journaled session)
#       and aborts it, so no session is left open on the switch.
# The witnesses are the simulators' state files (tests/faults/campaign.py's views).
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

# shellcheck source=tests/lib/confirmlib.sh
. "$SRC_DIR/tests/lib/confirmlib.sh"

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

run_of() {
	sed -n 's/^confirm with: rocectl confirm \([^ ]*\) before .*/\1/p' "$1" | grep .
}

# the one run of the confirm directory (the test's runs come one at a time)
only_run() {
	ls -t "$CONFIRM_DIR" | sed -n 's/\.json$//p' | head -1
}

# wait_for EXPR RUN: jq EXPR on the run's state becomes true (at most 60 s)
wait_for() {
	n=0
	until jq -e "$1" "$CONFIRM_DIR/$2.json" >/dev/null 2>&1; do
		n=$((n + 1))
		[ $n -le 120 ] || { cat "$CONFIRM_DIR/$2.json"; return 1; }
		sleep 0.5
	done
}

test_expect_success 'bring-up: an NVUE and an EOS leaf, two hosts' '
	"$LAB_CMD" up "$LAB" --hosts 2 --leaves 2 --spines 0 --platforms nvue,eos --nics 1 \
		>/dev/null &&
	views >"$TMP/factory"
'

test_expect_success '(a) the timer killed mid-restore: needs recovery, rollback RUN finishes it' '
	env ROCECTL_CRASH_AT=rollback.device "$LAB_CMD" exec "$LAB" -- "$ROCECTL" apply \
		-p "$POLICY" -i "$INV" --confirm 3s >"$TMP/a.out" &&
	run=$(run_of "$TMP/a.out") &&
	wait_for ".state == \"rolling back\"" "$run" &&
	n=0 && until grep -q "crash point reached" "$CONFIRM_DIR/$run.log"; do
		n=$((n + 1)) && [ $n -le 120 ] && sleep 0.5 || exit 1; done &&
	sleep 1 &&
	jq -e ".state == \"rolling back\"" "$CONFIRM_DIR/$run.json" &&
	rc history >"$TMP/a.hist" &&
	test_must_contain "$TMP/a.hist" "$run .*needs recovery: rolling back" &&
	test_expect_code 1 rc confirm "$run" 2>"$TMP/a.err" &&
	test_must_contain "$TMP/a.err" "too late" &&
	rc rollback "$run" -i "$INV" >"$TMP/a.rb" &&
	test_must_contain "$TMP/a.rb" "which is gone: finishing its rollback" &&
	jq -e ".state == \"rolled back\"" "$CONFIRM_DIR/$run.json" &&
	views >"$TMP/a.after" && diff -u "$TMP/factory" "$TMP/a.after"
'

test_expect_success '(b) apply --confirm killed after a write, timer gone: plain rollback undoes it' '
	# the timer dies as soon as it has recorded itself, the run after its first write
	test_expect_code 137 env ROCECTL_CRASH_AT=timer.started,dev.write.sent \
		"$LAB_CMD" exec "$LAB" -- "$ROCECTL" apply -p "$POLICY" -i "$INV" --limit gpu001 \
		--confirm 1h >"$TMP/b.out" 2>&1 &&
	run=$(only_run) && test -n "$run" &&
	jq -e ".state == \"applying\" and .timer_pid > 1" "$CONFIRM_DIR/$run.json" &&
	test_expect_code 1 rc confirm "$run" 2>"$TMP/b.err" &&
	test_must_contain "$TMP/b.err" "was killed while it was applied" &&
	views >"$TMP/b.mid" && ! cmp -s "$TMP/factory" "$TMP/b.mid" &&
	rc history --json >"$TMP/b.hist" &&
	! jq -e --arg r "$run" "[.runs[] | select(.run_id == \$r and .exit_code == 0)] | length > 0" \
		"$TMP/b.hist" >/dev/null &&
	python3 "$SRC_DIR/tests/lib/schema_check.py" "$SRC_DIR/examples/history.schema.json" \
		"$TMP/b.hist" &&
	rc history >"$TMP/b.htxt" &&
	test_must_contain "$TMP/b.htxt" "^$run  apply .*exit 1  \[needs recovery: applying" &&
	rc rollback -i "$INV" >"$TMP/b.rb" &&
	test_must_contain "$TMP/b.rb" "run $run needs recovery \(applying" &&
	jq -e ".state == \"rolled back\" and .reason == \"run killed\"" "$CONFIRM_DIR/$run.json" &&
	views >"$TMP/b.after" && diff -u "$TMP/factory" "$TMP/b.after"
'

test_expect_success '(c) no run on top of a run pending its confirm' '
	rc apply -p "$POLICY" -i "$INV" --limit leaf01,gpu001 --confirm 5m >"$TMP/c.out" &&
	run=$(run_of "$TMP/c.out") && echo "$run" >"$TMP/run-c" &&
	views >"$TMP/c.pending" &&
	test_expect_code 1 rc apply -p "$POLICY" -i "$INV" 2>"$TMP/c.err" &&
	test_must_contain "$TMP/c.err" "belongs to run $run, pending its confirm until 20" &&
	test_expect_code 1 rc enforce -p "$POLICY" -i "$INV" --limit leaf01 2>"$TMP/c.err2" &&
	test_must_contain "$TMP/c.err2" "belongs to run $run" &&
	views >"$TMP/c.after" && diff -u "$TMP/c.pending" "$TMP/c.after"
'

test_expect_success '(d) confirm killed after one switch was kept: run again, it finishes' '
	rc rollback "$(cat "$TMP/run-c")" -i "$INV" >/dev/null &&
	rc apply -p "$POLICY" -i "$INV" --confirm 5m >"$TMP/d.out" &&
	run=$(run_of "$TMP/d.out") &&
	test_expect_code 137 env ROCECTL_CRASH_AT=confirm.device \
		"$LAB_CMD" exec "$LAB" -- "$ROCECTL" confirm "$run" >"$TMP/d.c1" 2>&1 &&
	ls "$RUNS_DIR/$run/journal/$run/" | grep -q "\.confirmed$" &&
	jq -e ".state == \"pending\"" "$CONFIRM_DIR/$run.json" &&
	rc confirm "$run" >"$TMP/d.c2" &&
	test_must_contain "$TMP/d.c2" "run $run confirmed" &&
	jq -e ".state == \"confirmed\"" "$CONFIRM_DIR/$run.json" &&
	rc verify -p "$POLICY" -i "$INV" >/dev/null
'

test_expect_success '(e) a confirm after the deadline is refused and says what happened' '
	rc rollback "$(only_run)" -i "$INV" >/dev/null 2>&1;
	views >"$TMP/e.before" &&
	rc apply -p "$POLICY" -i "$INV" --limit gpu002 --confirm 3s >"$TMP/e.out" &&
	run=$(run_of "$TMP/e.out") &&
	kill -9 "$(jq .timer_pid "$CONFIRM_DIR/$run.json")" &&
	deadline=$(jq .deadline "$CONFIRM_DIR/$run.json") &&
	while [ "$(date +%s)" -le "$deadline" ]; do sleep 0.5; done &&
	test_expect_code 1 rc confirm "$run" 2>"$TMP/e.err" &&
	test_must_contain "$TMP/e.err" "too late: the deadline of run $run was .*its timer is gone" &&
	jq -e ".state == \"pending\"" "$CONFIRM_DIR/$run.json" &&
	rc rollback -i "$INV" >"$TMP/e.rb" &&
	test_must_contain "$TMP/e.rb" "run $run needs recovery \(pending" &&
	jq -e ".state == \"rolled back\"" "$CONFIRM_DIR/$run.json" &&
	views >"$TMP/e.after" && diff -u "$TMP/e.before" "$TMP/e.after"
'

test_expect_success '(f) a truncated state file: the timer still rolls the run back at the deadline' '
	views >"$TMP/f.before" &&
	rc apply -p "$POLICY" -i "$INV" --limit gpu002 --confirm 3s >"$TMP/f.out" &&
	run=$(run_of "$TMP/f.out") &&
	views >"$TMP/f.mid" && ! cmp -s "$TMP/f.before" "$TMP/f.mid" &&
	head -c 20 "$CONFIRM_DIR/$run.json" >"$TMP/f.cut" &&
	cat "$TMP/f.cut" >"$CONFIRM_DIR/$run.json" &&
	wait_for ".state == \"rolled back\"" "$run" &&
	test_must_contain "$CONFIRM_DIR/$run.log" "its state cannot be read" &&
	views >"$TMP/f.after" && diff -u "$TMP/f.before" "$TMP/f.after"
'

test_expect_success '(g) a hung command during rollback RUN is an error, never the switch timer'"'"'s rollback' '
	views >"$TMP/g.before" &&
	rc apply -p "$POLICY" -i "$INV" --limit leaf01 --confirm 5m >"$TMP/g.out" &&
	run=$(run_of "$TMP/g.out") &&
	"$SIMCTL" fault "$LAB/switchsim" leaf01 hang >/dev/null &&
	{ rc rollback "$run" -i "$INV" >"$TMP/g.rb1" 2>&1; echo $? >"$TMP/g.rc1"; } &&
	{ "$SIMCTL" fault "$LAB/switchsim" leaf01 clear >/dev/null 2>&1 || true; } &&
	if [ "$(cat "$TMP/g.rc1")" = 0 ]; then
		views >"$TMP/g.mid" && diff -u "$TMP/g.before" "$TMP/g.mid"
	else
		test_must_contain "$TMP/g.rb1" "leaf01" &&
		rc rollback "$run" -i "$INV" >"$TMP/g.rb2" &&
		views >"$TMP/g.after" && diff -u "$TMP/g.before" "$TMP/g.after"
	fi &&
	jq -e ".state == \"rolled back\"" "$CONFIRM_DIR/$run.json"
'

test_expect_success '(h) a restore session a killed rollback left pending on EOS is aborted by the next one' '
	views >"$TMP/h.before" &&
	rc apply -p "$POLICY" -i "$INV" --limit leaf02 >"$TMP/h.out" &&
	run=$(sed -n "s/^run \(.*\)/\1/p" "$TMP/h.out") && test -n "$run" &&
	sess=$(grep -o "rocectl-[0-9]*-[0-9]*-[0-9]*" "$RUNS_DIR/$run/leaf02.snap" | head -1) &&
	test -n "$sess" &&
	"$SIMCTL" cli "$LAB/switchsim" leaf02 "configure session $sess-u2
interface Ethernet1
description left-by-a-killed-restore" >/dev/null &&
	views >"$TMP/h.mid" && grep -q "pending" "$TMP/h.mid" &&
	rc rollback "$run" -i "$INV" >"$TMP/h.rb" &&
	views >"$TMP/h.after" && diff -u "$TMP/h.before" "$TMP/h.after"
'

test_done
