#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# verify --format jsonl ends with the fabric-wide sections of the JSON report, each on one
# line, equal to what --format json says: the PFC deadlock risk (a leaf-leaf cable, the
# watchdog off, then on) and the cabling against LLDP (right, then two swapped cables).
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

LAB_CMD="$SRC_DIR/tests/lab/lab"
LAB="$TMP/lab"
INV="$LAB/inventory.yaml"
LL="$TMP/leaf-leaf.yaml"
POLICY="$SRC_DIR/policies/roce-lossless.yaml"
NOWD="$TMP/no-watchdog.yaml"
ROCECTL_JOURNAL="$TMP/journal"
ROCECTL_LOCK_DIR="$TMP/locks"
export BUILD_DIR ROCECTL ROCECTL_JOURNAL ROCECTL_LOCK_DIR

test_needs root

test_at_exit '"$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true'

rc() {
	"$LAB_CMD" exec "$LAB" -- "$ROCECTL" "$@"
}

# both formats of one verify; the jsonl's KEY line must equal the json's KEY section
same_section() { # KEY JSON JSONL
	jq -c ".$1" "$2" >"$TMP/want.$1" &&
	jq -c "select(has(\"$1\")) | .$1" "$3" >"$TMP/got.$1" &&
	test "$(wc -l <"$TMP/got.$1")" = 1 &&
	diff -u "$TMP/want.$1" "$TMP/got.$1"
}

# the jsonl's last line is the summary; its fabric counts
summary_is() { # JSONL UNPROTECTED CABLING
	tail -n 1 "$1" | jq -e --argjson u "$2" --argjson c "$3" \
		'.summary.deadlock_unprotected == $u and .summary.cabling_problems == $c' >/dev/null
}

test_expect_success 'a lab with a leaf01-leaf02 cable, a policy without watchdog' '
	"$LAB_CMD" up "$LAB" --hosts 4 --leaves 2 --spines 1 >/dev/null &&
	sed "s/ports: \[swp1-5\]/ports: [swp1-6]/" "$INV" >"$LL" &&
	echo "  - {a: \"leaf01:swp6\", b: \"leaf02:swp6\", speed: 400G, cable_length: 3m}" >>"$LL" &&
	"$SRC_DIR/tests/sim/switch/simctl" fault "$LAB/switchsim" leaf01 lldp swp6=leaf02:swp6 &&
	"$SRC_DIR/tests/sim/switch/simctl" fault "$LAB/switchsim" leaf02 lldp swp6=leaf01:swp6 &&
	awk "/^  watchdog:/ { skip = 1; next } skip && /^    / { next } { skip = 0; print }" \
		"$POLICY" >"$NOWD" &&
	rc apply -p "$NOWD" -i "$LL" >/dev/null
'

test_expect_success 'watchdog off on a deadlock-prone link: jsonl says what json says, exit 2' '
	test_expect_code 2 rc verify -p "$NOWD" -i "$LL" --format json >"$TMP/v.json" &&
	test_expect_code 2 rc verify -p "$NOWD" -i "$LL" --format jsonl >"$TMP/v.jsonl" &&
	jq -e ".deadlock.status == \"unprotected\"" "$TMP/v.json" &&
	same_section deadlock "$TMP/v.json" "$TMP/v.jsonl" &&
	same_section cabling "$TMP/v.json" "$TMP/v.jsonl" &&
	summary_is "$TMP/v.jsonl" 2 0 &&
	tail -n 3 "$TMP/v.jsonl" | head -n 1 | jq -e "has(\"deadlock\")" >/dev/null &&
	tail -n 2 "$TMP/v.jsonl" | head -n 1 | jq -e "has(\"cabling\")" >/dev/null
'

test_expect_success 'watchdog on: the risk is protected in both, the fabric in sync (exit 0)' '
	rc apply -p "$POLICY" -i "$LL" >/dev/null &&
	rc verify -p "$POLICY" -i "$LL" --format json >"$TMP/p.json" &&
	rc verify -p "$POLICY" -i "$LL" --format jsonl >"$TMP/p.jsonl" &&
	jq -e ".deadlock.status == \"protected\"" "$TMP/p.json" &&
	same_section deadlock "$TMP/p.json" "$TMP/p.jsonl" &&
	same_section cabling "$TMP/p.json" "$TMP/p.jsonl" &&
	summary_is "$TMP/p.jsonl" 0 0
'

test_expect_success 'two swapped cables: the same findings, in the same order, exit 2' '
	set -- $(awk "\$1 == \"link\" && \$3 ~ /^leaf01:/ { print \$3 }" "$LAB/topology" | head -n 2) &&
	test -n "$2" &&
	"$LAB_CMD" miscable "$LAB" "$1" "$2" >/dev/null &&
	test_expect_code 2 rc verify -p "$POLICY" -i "$LL" --format json >"$TMP/m.json" &&
	test_expect_code 2 rc verify -p "$POLICY" -i "$LL" --format jsonl >"$TMP/m.jsonl" &&
	jq -e ".cabling.status == \"drift\" and (.cabling.findings | length) >= 2" "$TMP/m.json" &&
	same_section cabling "$TMP/m.json" "$TMP/m.jsonl" &&
	same_section deadlock "$TMP/m.json" "$TMP/m.jsonl" &&
	n=$(jq ".cabling.findings | length" "$TMP/m.json") &&
	summary_is "$TMP/m.jsonl" 0 "$n"
'

test_done
