#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Numbers on the command line are digits and nothing else (engine/util/number.c): strtoul
# alone would take " 5", "+5" and "-1" (as a huge value) and run with them.
. "$SRC_DIR/tests/lib/testlib.sh"

mkdir -p "$TMP/root"

test_expect_success '--parallel refuses blanks, signs and prefixes before doing anything' '
	for v in " 5" "+5" "-1" "0x10" "5 " ""; do
		test_expect_code 64 "$ROCECTL" counters --root "$TMP/root" --parallel "$v" \
			>"$TMP/out" 2>"$TMP/err" &&
		test_must_contain "$TMP/err" "--parallel: .* is not a number in 1..1024" || return 1
	done
'

test_expect_success '--parallel takes 1 and 1024 and refuses 0 and 1025' '
	for v in 0 1025; do
		test_expect_code 64 "$ROCECTL" counters --root "$TMP/root" --parallel "$v" \
			2>"$TMP/err" &&
		test_must_contain "$TMP/err" "--parallel: .* is not a number in 1..1024" || return 1
	done &&
	for v in 1 1024; do
		"$ROCECTL" counters --root "$TMP/root" --parallel "$v" >/dev/null 2>"$TMP/err"
		test_must_not_contain "$TMP/err" "--parallel" || return 1
	done
'

test_expect_success 'headroom --mtu refuses a leading blank or sign' '
	for v in " 9000" "+9000"; do
		test_expect_code 64 "$ROCECTL" headroom --speed 400G --cable 30m --mtu "$v" \
			2>"$TMP/err" &&
		test_must_contain "$TMP/err" "invalid mtu" || return 1
	done
'

test_done
