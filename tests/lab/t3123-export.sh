#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# rocectl export on the lab (tests/lab): a brownfield fabric written as a policy.  A fabric
# set up by a policy exports to the same values, and plan with the export finds nothing; a
# switch set up with other ECN thresholds gets an inventory override; after random drift
# (`lab drift`, whose drift.json is the witness) export lists exactly what plan with the
# exported policy and overrides then changes, each as a warning (exit 0); the files are 0600.
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

LAB_CMD="$SRC_DIR/tests/lab/lab"
LAB="$TMP/lab"
INV="$LAB/inventory.yaml"
ROCECTL_JOURNAL="$TMP/journal"
ROCECTL_LOCK_DIR="$TMP/locks"
ROCECTL_HISTORY="$TMP/history"
export BUILD_DIR ROCECTL ROCECTL_JOURNAL ROCECTL_LOCK_DIR ROCECTL_HISTORY

test_needs root

test_at_exit '"$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true'

rc() {
	"$LAB_CMD" exec "$LAB" -- "$ROCECTL" "$@"
}

# The "Mixed vendors, a non-default mapping" policy of docs/POLICY.md: RoCE on DSCP 24,
# priority 4, marking from 100 KiB, not the defaults an export could fall back on.
awk '/^### Mixed vendors, a non-default mapping/ { f = 1 }
	f && /^```yaml/ { g = 1; next } g && /^```/ { exit } g' \
	"$SRC_DIR/docs/POLICY.md" >"$TMP/mixed.yaml"

# merge INVENTORY FRAGMENT OUT: the fragment's switch overrides put into the inventory
merge() {
	python3 -c '
import sys, yaml
inv = yaml.safe_load(open(sys.argv[1]))
frag = yaml.safe_load(open(sys.argv[2])) or {}
ov = {s["name"]: s["overrides"] for s in frag.get("switches") or []}
for s in inv.get("switches", []):
    if s["name"] in ov:
        s["overrides"] = ov[s["name"]]
yaml.safe_dump(inv, open(sys.argv[3], "w"), sort_keys=False)
' "$1" "$2" "$3"
}

# changes FILE: "device port field" of every change plan would make (plan JSON)
plan_changes() {
	jq -r '.devices[] | .device as $d | .changes[] | select(.kind == "set") |
		"\($d) \(.port) \(.field)"' "$1" | sort
}
# listed FILE: "device port field" of every difference export listed
listed() {
	sed -n 's/^# differs: \([^ ]*\) \([^ ]*\) \([^:]*\): .*/\1 \2 \3/p' "$1" | sort
}

test_expect_success 'bring-up of an NVUE, SONiC and EOS lab' '
	"$LAB_CMD" up "$LAB" --hosts 2 --leaves 2 --spines 1 --platforms nvue,sonic,eos >/dev/null
'

test_expect_success 'a factory fabric (PFC off) has no lossless policy to export: exit 1, nothing written' '
	test_expect_code 1 rc export -i "$INV" -o "$TMP/factory.yaml" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "not lossless yet" &&
	test ! -e "$TMP/factory.yaml"
'

test_expect_success 'a fabric set up by a policy exports to its values; plan with it: no change' '
	rc apply -p "$TMP/mixed.yaml" -i "$INV" >/dev/null &&
	rc export -i "$INV" -o "$TMP/exp.yaml" --overrides "$TMP/ov.yaml" --name brownfield \
		2>"$TMP/err" &&
	test_must_contain "$TMP/err" "5 device\(s\) read, 0 switch override\(s\), 0 warning" &&
	grep -qx "switches: \[\]" "$TMP/ov.yaml" &&
	test "$(stat -c %a "$TMP/exp.yaml")" = 600 && test "$(stat -c %a "$TMP/ov.yaml")" = 600 &&
	rc validate -p "$TMP/exp.yaml" -j >"$TMP/v.json" &&
	jq -e ".policy.name == \"brownfield\" and .policy.trust == \"dscp\" and
		.policy.roce.dscp == 24 and .policy.roce.priority == 4 and
		.policy.pfc.priorities == [4] and .policy.pfc.watchdog.detection_ms == 100 and
		.policy.ecn.enabled and .policy.ecn.traffic_class == 4 and
		.policy.ecn.min_threshold_bytes == 102400 and .policy.ecn.probability_pct == 50 and
		.policy.host.roce_tos == 96" "$TMP/v.json" &&
	rc plan -p "$TMP/exp.yaml" -i "$INV" >"$TMP/plan.txt" &&
	test_must_contain "$TMP/plan.txt" "^plan: 0 changes on 0 of 5"
'

test_expect_success 'a switch with thresholds of its own gets an override; without it, plan would change it' '
	sed "/^  - name: spine01/a\\    overrides: {ecn: {min_threshold: 1MB, max_threshold: 10MB}}" \
		"$INV" >"$TMP/inv-deep.yaml" &&
	rc apply -p "$TMP/mixed.yaml" -i "$TMP/inv-deep.yaml" >/dev/null &&
	rc export -i "$INV" -o "$TMP/exp2.yaml" --overrides "$TMP/ov2.yaml" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "1 switch override\(s\), 0 warning" &&
	test "$(python3 -c "import yaml,sys; print(yaml.safe_load(open(sys.argv[1])))" "$TMP/ov2.yaml")" = \
		"{'\''switches'\'': [{'\''name'\'': '\''spine01'\'', '\''overrides'\'': {'\''ecn'\'': {'\''min_threshold'\'': '\''1000000B'\'', '\''max_threshold'\'': '\''10000000B'\''}}}]}" &&
	test_must_contain "$TMP/exp2.yaml" "^#       overrides:" &&
	merge "$INV" "$TMP/ov2.yaml" "$TMP/inv-merged.yaml" &&
	rc plan -p "$TMP/exp2.yaml" -i "$TMP/inv-merged.yaml" >"$TMP/plan2.txt" &&
	test_must_contain "$TMP/plan2.txt" "^plan: 0 changes" &&
	test_expect_code 2 rc plan -p "$TMP/exp2.yaml" -i "$INV" -j >"$TMP/plan2b.json" &&
	test "$(plan_changes "$TMP/plan2b.json" | cut -d" " -f1 | sort -u)" = spine01
'

test_expect_success 'after random drift: export lists exactly what plan with it then changes' '
	seed=$(od -An -N2 -tu2 /dev/urandom | tr -d " ") && echo "drift seed $seed" &&
	"$LAB_CMD" drift "$LAB" "$seed" 6 >/dev/null && cat "$LAB/drift.json" &&
	st=0 && { rc export -i "$INV" -o "$TMP/exp3.yaml" --overrides "$TMP/ov3.yaml" \
		2>"$TMP/err" || st=$?; } &&
	cat "$TMP/err" &&
	merge "$INV" "$TMP/ov3.yaml" "$TMP/inv3.yaml" &&
	pst=0 && { rc plan -p "$TMP/exp3.yaml" -i "$TMP/inv3.yaml" -j >"$TMP/plan3.json" ||
		pst=$?; } &&
	test "$pst" -le 2 &&
	listed "$TMP/exp3.yaml" >"$TMP/listed" && plan_changes "$TMP/plan3.json" >"$TMP/planned" &&
	diff -u "$TMP/listed" "$TMP/planned" &&
	# export exits 0 and warns of each; plan exits 2 with differences, 0 without
	test "$st" = 0 &&
	test "$(grep -c "^rocectl export: warning: " "$TMP/err")" = "$(wc -l <"$TMP/listed")" &&
	if test -s "$TMP/listed"; then test "$pst" = 2; else test "$pst" = 0; fi
'

test_expect_success 'usage: no inventory or a stray argument exits 64; an unreadable device exits 1' '
	test_expect_code 64 "$ROCECTL" export 2>/dev/null &&
	test_expect_code 64 "$ROCECTL" export -i "$INV" extra 2>/dev/null &&
	test_expect_code 64 "$ROCECTL" export -i "$INV" --name "../x" 2>/dev/null &&
	sed "s/address: 127.1.0.1/address: 127.9.9.9/" "$INV" >"$TMP/inv-bad.yaml" &&
	test_expect_code 1 rc export -i "$TMP/inv-bad.yaml" -o "$TMP/bad.yaml" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "could not be read: nothing written" &&
	test ! -e "$TMP/bad.yaml"
'

test_done
