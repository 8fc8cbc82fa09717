#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Commit-confirm through the switches' own timers (docs/ENFORCE.md "Commit-confirm"): an
# `apply --confirm` commits NVUE (over SSH: `nv config apply --confirm <minutes>`) and EOS
# (`commit timer hh:mm:ss`, over SSH and eAPI) under the platform's timer and saves nothing
# until the confirm.  When rocectl's own timer is gone too (the controller died), each of
# those switches returns to its pre-run configuration by itself, startup included; the
# devices without such a timer (hosts, NVUE over REST) stay changed until `rollback RUN`.
# A confirm keeps every switch's commit and saves it (NVUE: `nv config apply <rev>
# --confirm-yes`, and the revision leaves state "confirm"); a confirm that comes after a
# switch rolled back by itself is refused (its deadline has passed) and `rollback` restores
# the run.
# The witnesses are the simulators' state files (tests/faults/campaign.py's views).
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

# shellcheck source=tests/lib/confirmlib.sh
. "$SRC_DIR/tests/lib/confirmlib.sh"

# view NAME: one device's configuration from the simulator's own file (hosts: NIC files).
view() {
	python3 -c 'import sys, json, os
sys.path.insert(0, sys.argv[1])
import campaign
lab, name = sys.argv[2], sys.argv[3]
sw = os.path.join(lab, "switchsim", "switches", name + ".json")
v = campaign.switch_view(sw) if os.path.exists(sw) else campaign.host_view(os.path.join(lab, "hosts", name))
print(json.dumps(v, sort_keys=True, indent=1))' "$SRC_DIR/tests/faults" "$LAB" "$1"
}

views() { # views SUFFIX: every device into $TMP/<name>.SUFFIX
	for d in leaf01 leaf02 gpu001 gpu002; do view $d >"$TMP/$d.$1" || return 1; done
}

# the apply's run id, and rocectl's timer killed at once (the controller "died")
apply_and_kill_timer() {
	rc apply -p "$POLICY" -i "$1" --confirm 5s >"$TMP/apply.out" &&
	run=$(sed -n "s/^confirm with: rocectl confirm \([^ ]*\) before .*/\1/p" "$TMP/apply.out") &&
	test -n "$run" && echo "$run" >"$TMP/run" &&
	n=0 && until jq -e ".timer_pid > 1" "$CONFIRM_DIR/$run.json" >/dev/null 2>&1; do
		n=$((n + 1)) && [ $n -le 300 ] && sleep 0.1 || return 1; done &&
	kill -9 "$(jq .timer_pid "$CONFIRM_DIR/$run.json")"
}

# wait_back NAME SUFFIX: the device's view becomes the saved one (at most 120 s)
wait_back() {
	n=0
	until view "$1" >"$TMP/$1.now" && cmp -s "$TMP/$1.$2" "$TMP/$1.now"; do
		n=$((n + 1))
		[ $n -le 120 ] || { diff -u "$TMP/$1.$2" "$TMP/$1.now"; return 1; }
		sleep 1
	done
}

test_expect_success 'bring-up: an NVUE and an EOS leaf, two hosts; NVUE minutes are 20 s' '
	"$LAB_CMD" up "$LAB" --hosts 2 --leaves 2 --spines 0 --platforms nvue,eos --nics 1 \
		>/dev/null &&
	"$SIMCTL" fault "$LAB/switchsim" leaf01 confirm-minute 20s >/dev/null &&
	views pre
'

test_expect_success 'SSH: NVUE and EOS commit under their own timers and save nothing yet' '
	apply_and_kill_timer "$LAB/inventory.yaml" &&
	"$SIMCTL" state "$LAB/switchsim" leaf02 >"$TMP/eos.state" &&
	jq -e "[.eos.sessions[]? | select(.state == \"pendingCommitTimer\")] | length == 1" \
		"$TMP/eos.state" >/dev/null &&
	jq -e ".\"timed-commit\" != null" "$TMP/eos.state" >/dev/null &&
	"$SIMCTL" state "$LAB/switchsim" leaf01 | jq -e ".\"timed-commit\" != null" >/dev/null &&
	"$SIMCTL" state "$LAB/switchsim" leaf01 |
		jq -e "[.nvue.revisions[] | select(.state == \"confirm\")] | length == 1" >/dev/null &&
	views mid &&
	jq -e --slurpfile p "$TMP/leaf02.pre" ".eos.startup == \$p[0].eos.startup and .eos.startup != null" \
		"$TMP/leaf02.mid" >/dev/null &&
	! cmp -s "$TMP/leaf02.pre" "$TMP/leaf02.mid" && ! cmp -s "$TMP/leaf01.pre" "$TMP/leaf01.mid" &&
	! cmp -s "$TMP/gpu001.pre" "$TMP/gpu001.mid"
'

test_expect_success 'SSH: rocectl timer gone, each switch rolls back by itself, startup too; hosts wait' '
	wait_back leaf01 pre && wait_back leaf02 pre &&
	view gpu001 >"$TMP/gpu001.late" && cmp -s "$TMP/gpu001.mid" "$TMP/gpu001.late" &&
	rc rollback "$(cat "$TMP/run")" -i "$LAB/inventory.yaml" >"$TMP/rb.out" &&
	views post &&
	for d in leaf01 leaf02 gpu001 gpu002; do diff -u "$TMP/$d.pre" "$TMP/$d.post" || exit 1; done
'

test_expect_success 'eAPI: EOS rolls back by itself; NVUE over REST has no timer and waits' '
	apply_and_kill_timer "$LAB/inventory-rest.yaml" &&
	views mid2 &&
	! cmp -s "$TMP/leaf02.pre" "$TMP/leaf02.mid2" &&
	wait_back leaf02 pre &&
	view leaf01 >"$TMP/leaf01.late2" && cmp -s "$TMP/leaf01.mid2" "$TMP/leaf01.late2" &&
	rc rollback "$(cat "$TMP/run")" -i "$LAB/inventory-rest.yaml" >/dev/null &&
	views post2 &&
	for d in leaf01 leaf02 gpu001 gpu002; do diff -u "$TMP/$d.pre" "$TMP/$d.post2" || exit 1; done
'

test_expect_success 'confirm keeps the switches'"'"' commits and saves them (a reboot keeps them)' '
	rc apply -p "$POLICY" -i "$LAB/inventory.yaml" --confirm 5m >"$TMP/k.out" &&
	run=$(sed -n "s/^confirm with: rocectl confirm \([^ ]*\) before .*/\1/p" "$TMP/k.out") &&
	"$SIMCTL" state "$LAB/switchsim" leaf01 >"$TMP/k.nvue" &&
	rev=$(jq -r ".nvue.revisions | to_entries[] | select(.value.state == \"confirm\") | .key" "$TMP/k.nvue") &&
	test -n "$rev" &&
	rc confirm "$run" >"$TMP/k.confirm" &&
	test_must_contain "$TMP/k.confirm" "run $run confirmed" &&
	"$SIMCTL" state "$LAB/switchsim" leaf01 |
		jq -e ".nvue.revisions[\"$rev\"].state == \"applied_and_saved\"" >/dev/null &&
	"$SIMCTL" state "$LAB/switchsim" leaf02 | jq -e ".\"timed-commit\" == null" >/dev/null &&
	"$SIMCTL" state "$LAB/switchsim" leaf01 | jq -e ".\"timed-commit\" == null" >/dev/null &&
	for sw in leaf01 leaf02; do "$LAB_CMD" reboot "$LAB" "$sw" >/dev/null || exit 1; done &&
	rc verify -p "$POLICY" -i "$LAB/inventory.yaml" >/dev/null &&
	rc rollback "$run" -i "$LAB/inventory.yaml" >/dev/null
'

# (past the deadline a confirm is refused before any switch is asked: the run is rolled
# back by `rollback`, which finishes a pending run whose timer is gone)
test_expect_success 'a confirm after a switch rolled back by itself is refused; the run is rolled back' '
	views pre3 &&
	apply_and_kill_timer "$LAB/inventory.yaml" &&
	wait_back leaf01 pre3 &&
	test_expect_code 1 rc confirm "$(cat "$TMP/run")" >"$TMP/late.out" 2>"$TMP/late.err" &&
	test_must_contain "$TMP/late.err" "too late: the deadline of run .*its timer is gone" &&
	rc rollback -i "$LAB/inventory.yaml" >"$TMP/late.rb" &&
	test_must_contain "$TMP/late.rb" "needs recovery \(pending" &&
	jq -e ".state == \"rolled back\"" "$CONFIRM_DIR/$(cat "$TMP/run").json" &&
	views post3 &&
	for d in leaf01 leaf02 gpu001 gpu002; do diff -u "$TMP/$d.pre3" "$TMP/$d.post3" || exit 1; done
'

test_done
