#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The test runner's skips are not passes: a script whose prerequisite is missing
# (testlib's test_needs) is counted as skipped, never as passed, and under
# ROCECTL_TEST_NO_SKIP (what `make check` and so `make test` set) each skip is a failure and
# the run exits non-zero.  Runs tests/run.sh itself on a tree of two planted scripts.
. "$SRC_DIR/tests/lib/testlib.sh"

T="$TMP/tree"

test_expect_success 'a tree with one passing script and one that needs a missing command' '
	mkdir -p "$T/tests/lib" "$T/tests/x" &&
	cp "$SRC_DIR/tests/lib/testlib.sh" "$SRC_DIR/tests/lib/run-script.sh" "$T/tests/lib/" &&
	printf "%s\n" ". \"\$SRC_DIR/tests/lib/testlib.sh\"" \
		"test_expect_success \"passes\" \"true\"" "test_done" >"$T/tests/x/t9001-pass.sh" &&
	printf "%s\n" ". \"\$SRC_DIR/tests/lib/testlib.sh\"" \
		"test_needs no-such-command-rocectl" \
		"test_expect_success \"never runs\" \"true\"" "test_done" >"$T/tests/x/t9002-skip.sh"
'

test_expect_success 'without ROCECTL_TEST_NO_SKIP: one passed, one skipped, none failed' '
	mkdir -p "$TMP/b1" &&
	{ env -u ROCECTL_TEST_NO_SKIP -u ROCECTL_TEST_FILTER SRC_DIR="$T" BUILD_DIR="$TMP/b1" ROCECTL="$ROCECTL" \
		sh "$SRC_DIR/tests/run.sh" >"$TMP/out1" 2>&1 || { cat "$TMP/out1"; false; }; } &&
	test_must_contain "$TMP/out1" "^\[t9002-skip\] ok 1 # skip \(needs no-such-command-rocectl\)$" &&
	test_must_contain "$TMP/out1" "^1 skipped " &&
	test "$(tail -n 1 "$TMP/out1")" = "1 passed, 0 failed"
'

test_expect_success 'with ROCECTL_TEST_NO_SKIP: the skip is a failure and the run exits non-zero' '
	mkdir -p "$TMP/b2" &&
	{ test_expect_code 1 env -u ROCECTL_TEST_FILTER ROCECTL_TEST_NO_SKIP=1 SRC_DIR="$T" BUILD_DIR="$TMP/b2" \
		ROCECTL="$ROCECTL" sh "$SRC_DIR/tests/run.sh" >"$TMP/out2" 2>&1 ||
		{ cat "$TMP/out2"; false; }; } &&
	test_must_contain "$TMP/out2" "^not ok - t9002-skip skipped 1 test\(s\) where every prerequisite must be present" &&
	test "$(tail -n 1 "$TMP/out2")" = "1 passed, 1 failed"
'

test_done
