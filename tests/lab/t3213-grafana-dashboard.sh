#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The Grafana dashboard (dist/grafana/rocectl.json) against what rocectl emits: on a lab,
# verify --counters, enforce and diagnose (with a congested port, so that a pause tree
# exists) write their Prometheus textfiles; promtool checks them; every query of the
# dashboard must parse as PromQL and name only metrics those files hold
# (tests/lib/grafana_check.py).  A query naming a metric rocectl does not emit, or one that
# does not parse, must fail the check.
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

LAB_CMD="$SRC_DIR/tests/lab/lab"
LAB="$TMP/lab"
INV="$LAB/inventory.yaml"
POLICY="$SRC_DIR/policies/roce-lossless.yaml"
DASH="$SRC_DIR/dist/grafana/rocectl.json"
CHECK="$SRC_DIR/tests/lib/grafana_check.py"
export BUILD_DIR ROCECTL

test_needs root promtool

test_at_exit '"$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true'

rc() {
	"$LAB_CMD" exec "$LAB" -- "$ROCECTL" "$@"
}

test_expect_success 'verify, enforce and diagnose write their textfiles on a lab' '
	"$LAB_CMD" up "$LAB" --hosts 2 --nics 1 --leaves 1 --spines 1 --platforms nvue >"$TMP/up" 2>&1 ||
		{ cat "$TMP/up"; false; } &&
	{ rc verify -p "$POLICY" -i "$INV" --counters --format prometheus -o "$TMP/verify.prom" \
		>"$TMP/v.out" 2>&1; test $? = 2 || { cat "$TMP/v.out"; false; }; } &&
	{ rc enforce -p "$POLICY" -i "$INV" --format prometheus -o "$TMP/enforce.prom" \
		>"$TMP/e.out" 2>&1; st=$?; test $st -le 2 || { cat "$TMP/e.out"; false; }; } &&
	"$LAB_CMD" congest "$LAB" leaf01:swp1 >/dev/null &&
	{ rc diagnose -p "$POLICY" -i "$INV" --interval 2s --format prometheus \
		-o "$TMP/diag.prom" >"$TMP/diag.out" 2>&1; test $? = 2 || { cat "$TMP/diag.out"; false; }; } &&
	for f in verify enforce diag; do
		test -s "$TMP/$f.prom" && promtool check metrics <"$TMP/$f.prom" ||
			{ echo "$f.prom"; return 1; }
	done
'

test_expect_success 'every query of the dashboard parses and names only metrics rocectl emits' '
	python3 "$CHECK" "$DASH" "$TMP/verify.prom" "$TMP/enforce.prom" "$TMP/diag.prom" \
		>"$TMP/check" 2>&1 || { cat "$TMP/check"; exit 1; } &&
	test_must_contain "$TMP/check" "^[1-9][0-9]* queries, [1-9][0-9]* metrics: ok$"
'

test_expect_success 'a query naming a metric rocectl does not emit fails, naming it' '
	sed "s/rocectl_cabling_problems/rocectl_cabling_issues/" "$DASH" >"$TMP/bad.json" &&
	test_expect_code 1 python3 "$CHECK" "$TMP/bad.json" "$TMP/verify.prom" "$TMP/enforce.prom" \
		"$TMP/diag.prom" >"$TMP/bad.out" 2>&1 &&
	test_must_contain "$TMP/bad.out" "panel .Cabling problems.: rocectl_cabling_issues is not a metric rocectl emits"
'

test_expect_success 'a query that is not PromQL fails' '
	sed "s/sum(rocectl_cabling_problems/sum((rocectl_cabling_problems/" "$DASH" >"$TMP/syntax.json" &&
	test_expect_code 1 python3 "$CHECK" "$TMP/syntax.json" "$TMP/verify.prom" \
		"$TMP/enforce.prom" "$TMP/diag.prom" >"$TMP/syntax.out" 2>&1 &&
	test_must_contain "$TMP/syntax.out" "^promtool check rules: "
'

test_done
