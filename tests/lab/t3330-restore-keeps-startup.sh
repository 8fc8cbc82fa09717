#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every journal-based restore leaves each switch's startup (saved) configuration exactly as
# it was found (fault campaign seed 42039, tests/faults/README.md).  The SONiC leaf's
# CONFIG_DB and the EOS leaf's running-config are changed behind rocectl's back and not
# saved.  An apply saves the policy (SONiC `config save`, EOS `copy running-config
# startup-config`); a restore must put the saved configuration back as it was, not save the
# restored running one over it.  Paths: the commit-confirm timer's rollback, a run that
# fails on one switch and is rolled back at once (enforce --confirm, an NVUE leaf
# rejecting, as in 42039), `rollback RUN` of a run waiting for its confirm, and `kill -9` of
# an apply followed by `rollback`.  Last, `rollback RUN` of a finished run: running and
# startup as the run found them, from the snapshots it kept.
# test-serial: its kill lands after a save found by polling, and once, beside seven other
# scripts, the EOS leaf's SSH session dropped mid-apply (the apply then rolled back, as it
# must, but the path under test was not reached)
# Witness: the simulators' state files (running and startup), normalized as the campaign
# does; never rocectl.
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

# shellcheck source=tests/lib/confirmlib.sh
. "$SRC_DIR/tests/lib/confirmlib.sh"

# The switches' configurations (running and startup), from the simulators' own files.
views() {
	python3 -c 'import sys, json, os
sys.path.insert(0, sys.argv[1])
import campaign
sw, out = os.path.join(sys.argv[2], "switchsim", "switches"), {}
for f in sorted(os.listdir(sw)):
    if f.endswith(".json"):
        out[f[:-5]] = campaign.switch_view(os.path.join(sw, f))
print(json.dumps(out, sort_keys=True, indent=1))' "$SRC_DIR/tests/faults" "$LAB"
}

# The startup configurations alone (a shorter diff when they are what differs).
startups() {
	jq -S "{sonic: .leaf01.sonic.startup, eos: .leaf02.eos.startup, nvue: .leaf03.nvue.startup}" "$1"
}

# same_views PRE POST: each platform's startup first (named when it differs), then the rest
same_views() {
	startups "$1" >"$1.st" && startups "$2" >"$2.st" || return 1
	bad=
	for k in sonic eos nvue; do
		[ "$(jq -c ".$k" "$1.st")" = "$(jq -c ".$k" "$2.st")" ] || bad="$bad $k"
	done
	[ -z "$bad" ] || { echo "startup differs from the pre-run one on:$bad" && return 1; }
	diff -u "$1" "$2" >"$2.diff" || { head -40 "$2.diff" && return 1; }
}

# wait_state RUN STATE: the run's confirm state becomes STATE (at most 180 s)
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

state() {
	"$SIMCTL" state "$LAB/switchsim" "$1"
}

test_expect_success 'bring-up: SONiC, EOS and NVUE leaves, three hosts' '
	"$LAB_CMD" up "$LAB" --hosts 3 --nics 1 --leaves 3 --spines 0 \
		--platforms sonic,eos,nvue >/dev/null &&
	state leaf01 | jq -e .sonic >/dev/null && state leaf02 | jq -e .eos >/dev/null &&
	state leaf03 | jq -e .nvue >/dev/null
'

# The SONiC port's PFC drifts to priority 2 alone, its watchdog list stays 3,4 (fault
# campaign seed 60032): a restore puts back pfcwd_sw_enable as found, not derived from the
# pre-run pfc_enable as apply derives it.
test_expect_success 'drift in running only on SONiC and EOS (running != startup after it)' '
	map=$(state leaf01 | jq -r "[.sonic.config_db.PORT_QOS_MAP[].dscp_to_tc_map // empty][0]") &&
	test -n "$map" &&
	p0=$(state leaf01 | jq -r "[.sonic.config_db.PORT_QOS_MAP | to_entries[] |
		select(.value.pfcwd_sw_enable == \"3,4\") | .key][0] // empty") &&
	test -n "$p0" &&
	"$SIMCTL" fault "$LAB/switchsim" leaf01 drift "DSCP_TO_TC_MAP.$map.26=5" >/dev/null &&
	"$SIMCTL" fault "$LAB/switchsim" leaf01 drift "PORT_QOS_MAP.$p0.pfc_enable=2" >/dev/null &&
	state leaf01 | jq -e ".sonic.config_db.PORT_QOS_MAP.\"$p0\" |
		.pfc_enable == \"2\" and .pfcwd_sw_enable == \"3,4\"" >/dev/null &&
	"$SIMCTL" fault "$LAB/switchsim" leaf02 drift "qos-map-dscp.26=5" >/dev/null &&
	state leaf01 | jq -e ".sonic.config_db.DSCP_TO_TC_MAP.\"$map\".\"26\" !=
		.sonic.startup.DSCP_TO_TC_MAP.\"$map\".\"26\"" &&
	state leaf02 | jq -e ".eos.running != .eos.startup" &&
	views >"$TMP/pre" && startups "$TMP/pre" >"$TMP/pre.st" &&
	echo "$map" >"$TMP/map" && echo "$p0" >"$TMP/p0"
'

test_expect_success 'apply --confirm, not confirmed: the timer restores startup as found' '
	rc apply -p "$POLICY" -i "$INV" --confirm 10s >"$TMP/a.out" &&
	run=$(run_of "$TMP/a.out") &&
	views >"$TMP/a.mid" && startups "$TMP/a.mid" >"$TMP/a.mid.st" &&
	# SONiC saved (else this proves nothing); EOS committed under its own commit timer
	# and saves only at the confirm (docs/ENFORCE.md "Commit-confirm")
	[ "$(jq -c .sonic "$TMP/pre.st")" != "$(jq -c .sonic "$TMP/a.mid.st")" ] ||
		{ echo "the apply did not save sonic" && exit 1; } &&
	[ "$(jq -c .eos "$TMP/pre.st")" = "$(jq -c .eos "$TMP/a.mid.st")" ] ||
		{ echo "the apply saved eos before the confirm" && exit 1; } &&
	wait_state "$run" "rolled back" &&
	views >"$TMP/a.after" &&
	same_views "$TMP/pre" "$TMP/a.after"
'

test_expect_success 'enforce --confirm failing on the NVUE leaf (seed 42039): startup as found' '
	"$SIMCTL" fault "$LAB/switchsim" leaf03 reject-next >/dev/null &&
	test_expect_code 1 rc enforce -p "$POLICY" -i "$INV" --disruptive allow --confirm 20s \
		>"$TMP/e.out" 2>"$TMP/e.err" &&
	cat "$TMP/e.err" &&
	test_must_contain "$TMP/e.err" "rolling back every device of run" &&
	"$SIMCTL" fault "$LAB/switchsim" leaf03 clear >/dev/null &&
	views >"$TMP/e.after" &&
	same_views "$TMP/pre" "$TMP/e.after"
'

test_expect_success 'rollback RUN of a run waiting for its confirm: startup as found' '
	rc apply -p "$POLICY" -i "$INV" --confirm 5m >"$TMP/r.out" &&
	run=$(run_of "$TMP/r.out") &&
	rc rollback "$run" -i "$INV" >"$TMP/r.rb" &&
	jq -e ".state == \"rolled back\"" "$CONFIRM_DIR/$run.json" &&
	views >"$TMP/r.after" &&
	same_views "$TMP/pre" "$TMP/r.after"
'

# kill -9 the apply once the SONiC leaf saved (its startup changed: the run has not ended,
# its journal entry is still there), then roll back; the views in $TMP/k.*.
kill_after_save() {
	J="$TMP/journal-kill"
	"$SIMCTL" fault "$LAB/switchsim" leaf01 slow 300 >/dev/null || return 1
	setsid "$LAB_CMD" exec "$LAB" -- env ROCECTL_JOURNAL="$J" "$ROCECTL" apply \
		-p "$POLICY" -i "$INV" --limit leaf01 >"$TMP/k.out" 2>&1 &
	pid=$!
	jq -cS .sonic.startup "$LAB/switchsim/switches/leaf01.json" >"$TMP/k.pre.sn"
	i=0
	while jq -cS .sonic.startup "$LAB/switchsim/switches/leaf01.json" >"$TMP/k.mid.sn" &&
		cmp -s "$TMP/k.pre.sn" "$TMP/k.mid.sn" && [ $i -lt 3000 ]; do
		i=$((i + 1))
	done
	kill -9 "-$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	"$SIMCTL" fault "$LAB/switchsim" leaf01 clear >/dev/null
	n=0
	while pgrep -f switchsim-cli >/dev/null && [ $n -lt 150 ]; do
		sleep 0.2
		n=$((n + 1))
	done
	! cmp -s "$TMP/k.pre.sn" "$TMP/k.mid.sn" ||
		{ echo "the startup configuration never changed" && return 1; }
	test "$(find "$J" -name leaf01.json | wc -l)" != 0 ||
		{ echo "the apply ended before the kill" && cat "$TMP/k.out" && return 1; }
	"$LAB_CMD" exec "$LAB" -- env ROCECTL_JOURNAL="$J" "$ROCECTL" rollback -i "$INV"
}

test_expect_success 'kill -9 after a save, then rollback: startup as found' '
	kill_after_save &&
	views >"$TMP/k.after" &&
	same_views "$TMP/pre" "$TMP/k.after"
'

# `rollback RUN` of a run that finished restores from the native snapshots the run kept
# (include/rocectl/run_snap.h): running and startup both go back to what the run found,
# whatever was changed in between (here a drift after the run, not saved), and the run's
# own save is undone with it.  (t3350 compares the switches' own output byte for byte.)
run_finished() {
	rc apply -p "$POLICY" -i "$INV" >"$1" && sed -n "s/^run //p" "$1" | grep .
}

test_expect_success 'rollback RUN of a finished run, drift after it: startup as found' '
	map=$(cat "$TMP/map") && p0=$(cat "$TMP/p0") &&
	views >"$TMP/f1.pre" &&
	run=$(run_finished "$TMP/f1.out") &&
	"$SIMCTL" fault "$LAB/switchsim" leaf01 drift "DSCP_TO_TC_MAP.$map.26=5" >/dev/null &&
	"$SIMCTL" fault "$LAB/switchsim" leaf02 drift "qos-map-dscp.26=5" >/dev/null &&
	state leaf01 | jq -e ".sonic.config_db != .sonic.startup" >/dev/null &&
	state leaf02 | jq -e ".eos.running != .eos.startup" >/dev/null &&
	rc rollback "$run" -i "$INV" >"$TMP/f1.rb" &&
	cat "$TMP/f1.rb" &&
	! grep -q "not saved" "$TMP/f1.rb" &&
	views >"$TMP/f1.after" &&
	same_views "$TMP/f1.pre" "$TMP/f1.after" &&
	# the values are back in running all the same (PFC on 2 alone, as found)
	state leaf01 | jq -e ".sonic.config_db.PORT_QOS_MAP.\"$p0\".pfc_enable == \"2\""
'

test_expect_success 'rollback RUN of a finished run, --format json: every device restored' '
	views >"$TMP/f2.pre" &&
	run=$(run_finished "$TMP/f2.out") &&
	rc rollback "$run" -i "$INV" --format json >"$TMP/f2.rb" &&
	jq -e "all(.devices[]; .status == \"restored\" and (has(\"unsaved\") | not))" "$TMP/f2.rb" &&
	views >"$TMP/f2.after" &&
	same_views "$TMP/f2.pre" "$TMP/f2.after"
'

test_done
