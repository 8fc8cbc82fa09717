#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# rocectl headroom: the PFC headroom a link needs and how it is made up.
# Expected totals are worked out by hand in tests/unit/test_headroom.c.
. "$SRC_DIR/tests/lib/testlib.sh"

test_expect_success 'headroom for 400G over 30m shows every term and the total' '
	"$ROCECTL" headroom --speed 400G --cable 30m --mtu 9216 >"$TMP/out" &&
	test_must_contain "$TMP/out" "^headroom for 400G on 30m of cable, MTU 9216$" &&
	test_must_contain "$TMP/out" "^  mtu_rx +9216 B" &&
	test_must_contain "$TMP/out" "^  mtu_tx +9216 B" &&
	test_must_contain "$TMP/out" "^  pause_frame +84 B" &&
	test_must_contain "$TMP/out" "^  cable +15000 B" &&
	test_must_contain "$TMP/out" "^  response +57920 B .*905 quanta" &&
	test_must_contain "$TMP/out" "^  interface +30720 B .*2 x 122880 bit times" &&
	test_must_contain "$TMP/out" "^  total +122156 B$"
'

test_expect_success 'JSON carries the same numbers as the text' '
	"$ROCECTL" headroom --speed 400G --cable 30m --mtu 9216 --json >"$TMP/json" &&
	test "$(wc -l <"$TMP/json")" -eq 1 &&
	test_must_contain "$TMP/json" "^\{\"schema_version\":1,\"rocectl_version\":\"[^\"]+\",\"timestamp\":\"[^\"]+\",\"speed_gbps\":400,\"cable_length_m\":30,\"mtu\":9216," &&
	test_must_contain "$TMP/json" "\"total_bytes\":122156\}$" &&
	"$ROCECTL" headroom --speed 400G --cable 30m --mtu 9216 >"$TMP/text" &&
	for term in mtu_rx mtu_tx pause_frame cable response interface total; do
		t=$(sed -n "s/^  $term  *\([0-9][0-9]*\) B.*/\1/p" "$TMP/text") &&
		j=$(sed -n "s/.*\"${term}_bytes\":\([0-9][0-9]*\).*/\1/p" "$TMP/json") &&
		test -n "$t" && test "$t" = "$j" || { echo "$term: text $t json $j"; exit 1; }
	done
'

test_expect_success 'totals for other speeds and lengths' '
	"$ROCECTL" headroom --speed 100G --cable 3m --json >"$TMP/a" &&
	test_must_contain "$TMP/a" "\"total_bytes\":74827\}" &&
	"$ROCECTL" headroom --speed 800G --cable 100m --json >"$TMP/b" &&
	test_must_contain "$TMP/b" "\"total_bytes\":265076\}" &&
	"$ROCECTL" headroom --speed 10G --cable 3m --json >"$TMP/c" &&
	test_must_contain "$TMP/c" "\"cable_bytes\":38," &&
	test_must_contain "$TMP/c" "\"total_bytes\":24890\}" &&
	"$ROCECTL" headroom --speed 100G --cable 3m --mtu 1500 --json >"$TMP/d" &&
	test_must_contain "$TMP/d" "\"total_bytes\":59395\}"
'

test_expect_success 'the MTU defaults to 9216 and lengths accept km' '
	"$ROCECTL" headroom --speed 200G --cable 2km >"$TMP/default" &&
	"$ROCECTL" headroom --speed 200G --cable 2000m --mtu 9216 >"$TMP/explicit" &&
	cmp "$TMP/default" "$TMP/explicit" &&
	test_must_contain "$TMP/default" "on 2000m of cable, MTU 9216"
'

test_expect_success 'an unsupported speed is refused with the list of supported ones' '
	test_expect_code 64 "$ROCECTL" headroom --speed 300G --cable 30m >"$TMP/out" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" \
		"^rocectl headroom: unsupported speed 300G; supported: 10G 25G 40G 50G 100G 200G 400G 800G$" &&
	test ! -s "$TMP/out"
'

test_expect_success 'a zero cable length is refused' '
	test_expect_code 64 "$ROCECTL" headroom --speed 100G --cable 0m >"$TMP/out" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "^rocectl headroom: .*cable.*0m" &&
	test ! -s "$TMP/out"
'

test_expect_success 'an MTU out of range or not a number is refused' '
	test_expect_code 64 "$ROCECTL" headroom --speed 100G --cable 3m --mtu 9217 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "^rocectl headroom: mtu 9217 out of range: must be 1500\.\.9216$" &&
	test_expect_code 64 "$ROCECTL" headroom --speed 100G --cable 3m --mtu 1499 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "mtu 1499 out of range" &&
	test_expect_code 64 "$ROCECTL" headroom --speed 100G --cable 3m --mtu 9k 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "^rocectl headroom: invalid mtu .9k."
'

test_expect_success 'missing or malformed arguments are errors' '
	test_expect_code 64 "$ROCECTL" headroom --cable 3m 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "--speed is required" &&
	test_expect_code 64 "$ROCECTL" headroom --speed 100G 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "--cable is required" &&
	test_expect_code 64 "$ROCECTL" headroom --speed fast --cable 3m 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "^rocectl headroom: invalid speed .fast." &&
	test_expect_code 64 "$ROCECTL" headroom --speed 100G --cable 3m extra 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "unexpected argument .extra." &&
	test_expect_code 64 "$ROCECTL" headroom --speed 100G --cable 3m --bogus 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "--bogus"
'

test_expect_success '--help lists the options and exits 0' '
	"$ROCECTL" headroom --help >"$TMP/help" &&
	test_must_contain "$TMP/help" "^usage: rocectl headroom" &&
	test_must_contain "$TMP/help" "--speed SPEED" &&
	test_must_contain "$TMP/help" "--cable LENGTH" &&
	test_must_contain "$TMP/help" "--mtu MTU" &&
	test_must_contain "$TMP/help" "--json"
'

test_done
