#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# verify -o FILE (cli/fleet_cmd.c, engine/util/atomic.c): the report is written through a
# temporary file and a rename; a FILE whose directory is missing is an error naming FILE
# (it used to be a segfault: the stream was closed twice), and nothing is left behind.
. "$SRC_DIR/tests/lib/testlib.sh"

POLICY="$SRC_DIR/policies/roce-lossless.yaml"
# One switch that cannot be reached (its password variable is unset): verify still
# reports, with an error for it, so the report exists and -o has something to write.
cat >"$TMP/inv.yaml" <<'EOI'
apiVersion: rocectl/v1
kind: Inventory
switches:
  - name: leaf01
    address: 127.0.0.1
    platform: nvue
    transport: rest
    ports: [swp1]
    credentials: {user: admin, password_env: ROCECTL_T3100_UNSET}
EOI

test_expect_success 'verify -o into a missing directory is an error naming the file' '
	for fmt in text json prometheus dot; do
		test_expect_code 1 env -u ROCECTL_T3100_UNSET "$ROCECTL" verify -p "$POLICY" \
			-i "$TMP/inv.yaml" --format $fmt -o "$TMP/missing/dir/report" \
			>"$TMP/out" 2>"$TMP/err" &&
		test_must_contain "$TMP/err" "cannot write report .$TMP/missing/dir/report.: No such file" &&
		test_must_not_contain "$TMP/err" "\.tmp\.|AddressSanitizer|SEGV" &&
		test ! -e "$TMP/missing" || return 1
	done
'

test_expect_success 'verify -o into an existing directory writes the report there' '
	mkdir -p "$TMP/out.d" &&
	test_expect_code 1 env -u ROCECTL_T3100_UNSET "$ROCECTL" verify -p "$POLICY" \
		-i "$TMP/inv.yaml" --format prometheus -o "$TMP/out.d/rocectl.prom" \
		>"$TMP/out" 2>"$TMP/err" &&
	test_must_contain "$TMP/out.d/rocectl.prom" "rocectl_last_verify_timestamp_seconds" &&
	test "$(ls -A "$TMP/out.d")" = rocectl.prom
'

test_done
