#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# --parallel and file descriptors (cli/fd_limit.c): the soft RLIMIT_NOFILE is raised to
# what the workers need; a hard limit too low for --parallel is refused before any device
# is opened, naming the limit and the --parallel that would fit.
. "$SRC_DIR/tests/lib/testlib.sh"

POLICY="$SRC_DIR/policies/roce-lossless.yaml"
# One switch that cannot be reached (its password variable is unset): nothing is connected.
cat >"$TMP/inv.yaml" <<'EOI'
apiVersion: rocectl/v1
kind: Inventory
switches:
  - name: leaf01
    address: 127.0.0.1
    platform: nvue
    transport: rest
    ports: [swp1]
    credentials: {user: admin, password_env: ROCECTL_T4301_UNSET}
EOI

run() { # HARD SOFT ARGS...
	h=$1 s=$2
	shift 2
	# shellcheck disable=SC3045 # dash and bash both have ulimit -H/-S -n
	(ulimit -Sn "$s" && ulimit -Hn "$h" && env -u ROCECTL_T4301_UNSET "$ROCECTL" verify \
		-p "$POLICY" -i "$TMP/inv.yaml" --format jsonl "$@")
}

test_expect_success 'a hard limit too low for --parallel is refused, with what would fit' '
	test_expect_code 1 run 400 100 --parallel 512 >"$TMP/out" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "parallel 512 needs about 2112 file descriptors, and the hard limit is 400" &&
	test_must_contain "$TMP/err" "lower --parallel to 84 or raise the limit" &&
	test ! -s "$TMP/out"
'

test_expect_success 'a low soft limit is raised: the run goes on to the device' '
	test_expect_code 1 run 4096 100 --parallel 512 >"$TMP/out" 2>"$TMP/err" &&
	! grep -q "file descriptors" "$TMP/err" &&
	grep -q "\"device\":\"leaf01\",.*\"status\":\"error\"" "$TMP/out"
'

test_done
