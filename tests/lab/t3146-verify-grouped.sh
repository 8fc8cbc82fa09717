#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# plan's and verify's text at fleet size (engine/report/group.c): the same drift on several
# hosts is one line with its count and the hosts as a range, --details lists every device
# and port as before, -q prints only the summary, a fabric in sync fits a few lines, and the
# JSON report is the same whatever the text does.  The drift is made with the hosts' own
# dcb, as an operator would; the simulators' state files are the witness of what it did.
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

LAB_CMD="$SRC_DIR/tests/lab/lab"
LAB="$TMP/lab"
INV="$LAB/inventory.yaml"
POLICY="$SRC_DIR/policies/roce-lossless.yaml"
ROCECTL_JOURNAL="$TMP/journal"
ROCECTL_LOCK_DIR="$TMP/locks"
DRIFTED="gpu002 gpu003 gpu004 gpu005"
export BUILD_DIR ROCECTL ROCECTL_JOURNAL ROCECTL_LOCK_DIR

test_needs root

test_at_exit '"$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true'

rc() {
	"$LAB_CMD" exec "$LAB" -- "$ROCECTL" "$@"
}

# the first NIC of every host
nic=enp12s0np0

test_expect_success 'bring-up of a 6-host, 2-leaf, 1-spine lab, in policy' '
	"$LAB_CMD" up "$LAB" --hosts 6 --leaves 2 --spines 1 >/dev/null &&
	rc apply -p "$POLICY" -i "$INV" >/dev/null
'

test_expect_success 'in sync: the whole fabric in a few lines, its warnings said once' '
	rc verify -p "$POLICY" -i "$INV" >"$TMP/sync.txt" &&
	test "$(wc -l <"$TMP/sync.txt")" -le 12 &&
	test_must_contain "$TMP/sync.txt" "^in sync: 9 devices gpu\[001-006\],leaf\[01-02\],spine01$" &&
	test_must_contain "$TMP/sync.txt" "^  cable_length_m not effective here — 12 NICs on 6 hosts gpu\[001-006\] \(enp12s0np0,enp13s0np0\)$" &&
	test "$(grep -c "not effective here" "$TMP/sync.txt")" = 1 &&
	test "$(grep -c "unverified reading" "$TMP/sync.txt")" -le 2 &&
	test_must_contain "$TMP/sync.txt" "^verify: 0 drifted fields on 0 of 9 device\(s\), 0 failed$" &&
	rc verify -p "$POLICY" -i "$INV" --details >"$TMP/sync-details.txt" &&
	test "$(grep -c ": in sync" "$TMP/sync-details.txt")" = 9
'

test_expect_success 'the same drift on four hosts: one line with the count and the range' '
	for h in $DRIFTED; do
		"$LAB_CMD" ssh "$LAB" "$h" "dcb pfc set dev $nic prio-pfc 3:off" || exit 1
	done &&
	for h in $DRIFTED; do
		grep -qx "pfc-en 0x00" "$LAB/hosts/$h/nics/$nic.state" || exit 1
	done &&
	test_expect_code 2 rc verify -p "$POLICY" -i "$INV" >"$TMP/drift.txt" &&
	test_must_contain "$TMP/drift.txt" "^drift:$" &&
	test_must_contain "$TMP/drift.txt" "^  pfc_enabled want 3, have none — 4 NICs on 4 hosts gpu\[002-005\] \($nic\)$" &&
	test "$(grep -c "pfc_enabled want" "$TMP/drift.txt")" = 1 &&
	test_must_contain "$TMP/drift.txt" "^links whose ends disagree:$" &&
	test_must_contain "$TMP/drift.txt" "^  pfc_enabled none \| 3 — 4 links gpu\[002-005\] -- leaf\[01-02\]$" &&
	test_must_contain "$TMP/drift.txt" "^in sync: 5 devices gpu001,gpu006,leaf\[01-02\],spine01$" &&
	test_must_contain "$TMP/drift.txt" "^verify: 4 drifted fields on 4 of 9 device\(s\), 0 failed$" &&
	test "$(wc -l <"$TMP/drift.txt")" -le 20
'

test_expect_success '--details (and -v) list every drifted device and port, as before' '
	test_expect_code 2 rc verify -p "$POLICY" -i "$INV" --details >"$TMP/details.txt" &&
	for h in $DRIFTED; do
		test_must_contain "$TMP/details.txt" "^$h \(agent-ssh\): 1 drifted field$" || exit 1
	done &&
	test "$(grep -cE "^  $nic +pfc_enabled +want 3, have none$" "$TMP/details.txt")" = 4 &&
	test "$(grep -c ": in sync" "$TMP/details.txt")" = 5 &&
	test_expect_code 2 rc -v verify -p "$POLICY" -i "$INV" >"$TMP/v.txt" 2>/dev/null &&
	test "$(grep -cE "^  $nic +pfc_enabled +want 3, have none$" "$TMP/v.txt")" = 4
'

test_expect_success 'plan groups the same way; -q prints only the summary' '
	test_expect_code 2 rc plan -p "$POLICY" -i "$INV" >"$TMP/plan.txt" &&
	test_must_contain "$TMP/plan.txt" "^  pfc_enabled none -> 3 \(disruptive\) — 4 NICs on 4 hosts gpu\[002-005\] \($nic\)$" &&
	test_must_contain "$TMP/plan.txt" "^no changes: 5 devices gpu001,gpu006,leaf\[01-02\],spine01$" &&
	test_expect_code 2 rc -q verify -p "$POLICY" -i "$INV" >"$TMP/q.txt" &&
	test "$(cat "$TMP/q.txt")" = "verify: 4 drifted fields on 4 of 9 device(s), 0 failed"
'

test_expect_success 'JSON is per device whatever the text does' '
	test_expect_code 2 rc verify -p "$POLICY" -i "$INV" --format json >"$TMP/drift.json" &&
	jq -e "(.devices | length) == 9 and
		([.devices[] | select(.status == \"drift\") | .device] == [\"gpu002\", \"gpu003\", \"gpu004\", \"gpu005\"]) and
		all(.devices[] | select(.status == \"drift\") | .changes[] | select(.kind == \"set\");
			.port == \"$nic\" and .field == \"pfc_enabled\" and .old == \"none\" and .new == \"3\")" \
		"$TMP/drift.json" &&
	test_expect_code 2 rc verify -p "$POLICY" -i "$INV" --format json --details >"$TMP/drift2.json" &&
	jq -S "del(.timestamp) | del(.devices[].read_ms)" "$TMP/drift.json" >"$TMP/a.json" &&
	jq -S "del(.timestamp) | del(.devices[].read_ms)" "$TMP/drift2.json" >"$TMP/b.json" &&
	diff -u "$TMP/a.json" "$TMP/b.json"
'

test_expect_success 'not on a terminal: a progress line every interval, the slowest device named; JSON has each read time' '
	"$LAB_CMD" delay "$LAB" --delay host=1500ms --jitter 0 &&
	{ "$LAB_CMD" exec "$LAB" -- env ROCECTL_PROGRESS_INTERVAL=500ms "$ROCECTL" verify -p "$POLICY" \
		-i "$INV" --format json >"$TMP/slow.json" 2>"$TMP/slow.err"; st=$?; } ;
	"$LAB_CMD" delay "$LAB" &&
	test "$st" = 2 &&
	grep -Eq "^rocectl: \[[0-9]/9\] devices done, 0 failed, [0-9.]+s; slowest gpu00[1-6] [0-9.]+s \(still running\)$" \
		"$TMP/slow.err" &&
	jq -e "all(.devices[] | select(.device | startswith(\"gpu\")); .read_ms >= 1500) and
		all(.devices[]; .read_ms >= 0)" "$TMP/slow.json" &&
	test_expect_code 2 rc -q verify -p "$POLICY" -i "$INV" 2>"$TMP/q.err" >/dev/null &&
	test ! -s "$TMP/q.err"
'

test_expect_success 'enforce -q repairs and prints only its summary' '
	rc -q enforce -p "$POLICY" -i "$INV" --disruptive allow >"$TMP/enf.txt" &&
	test "$(wc -l <"$TMP/enf.txt")" = 1 &&
	test_must_contain "$TMP/enf.txt" "^enforce: 4 field\(s\) repaired on 4 device\(s\) of 9" &&
	rc verify -p "$POLICY" -i "$INV" >/dev/null
'

test_expect_success 'a range from the report selects exactly those hosts with --limit' '
	test_expect_code 2 rc verify -p "$POLICY" -i "$INV" --limit "gpu[002-005]" --format json >"$TMP/lim.json" &&
	jq -e "[.devices[].device] == [\"gpu002\", \"gpu003\", \"gpu004\", \"gpu005\"]" "$TMP/lim.json"
'

test_done
