#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `rocectl enforce --canary N --canary-wait D --canary-pause-rate R`: values out of range are
# refused with exit 64 and the range, before any input is read (docs/ENFORCE.md "Canary").
. "$SRC_DIR/tests/lib/testlib.sh"

P="$SRC_DIR/policies/roce-lossless.yaml"
I="$SRC_DIR/examples/inventory.yaml"

test_expect_success '--canary wants 1..1000 units' '
	test_expect_code 64 "$ROCECTL" enforce -p "$P" -i "$I" --canary 0 2>"$TMP/e1" &&
	test_must_contain "$TMP/e1" "^rocectl enforce: --canary: .0. is not a number in 1..1000$" &&
	test_expect_code 64 "$ROCECTL" enforce -p "$P" -i "$I" --canary x 2>/dev/null
'

test_expect_success '--canary-wait wants a duration of 1s..3600s' '
	test_expect_code 64 "$ROCECTL" enforce -p "$P" -i "$I" --canary 1 --canary-wait 500ms \
		2>"$TMP/e2" &&
	test_must_contain "$TMP/e2" "^rocectl enforce: --canary-wait: .500ms. is not a duration in 1s..3600s$" &&
	test_expect_code 64 "$ROCECTL" enforce -p "$P" -i "$I" --canary-wait 3601s 2>/dev/null &&
	test_expect_code 64 "$ROCECTL" enforce -p "$P" -i "$I" --canary-wait soon 2>"$TMP/e3" &&
	test_must_contain "$TMP/e3" "expected a duration"
'

test_expect_success '--canary-pause-rate wants a positive number' '
	test_expect_code 64 "$ROCECTL" enforce -p "$P" -i "$I" --canary-pause-rate 0 2>/dev/null &&
	test_expect_code 64 "$ROCECTL" enforce -p "$P" -i "$I" --canary-pause-rate -5 2>/dev/null
'

test_expect_success 'enforce --help lists the canary options' '
	"$ROCECTL" enforce --help >"$TMP/help" &&
	test_must_contain "$TMP/help" "--canary N" &&
	test_must_contain "$TMP/help" "--canary-wait DURATION" &&
	test_must_contain "$TMP/help" "--canary-pause-rate N"
'

test_done
