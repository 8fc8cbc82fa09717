#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# /etc/rocectl/rocectl.conf (here $ROCECTL_CONFIG): -p, -i and --parallel defaults for the
# fabric commands; the command line wins over the environment, which wins over the file; a
# file that does not parse, or that others could have written, is an error naming it.
. "$SRC_DIR/tests/lib/testlib.sh"

POL="$SRC_DIR/policies/roce-lossless.yaml"
PFC="$SRC_DIR/policies/pfc-only.yaml"
INV="$SRC_DIR/examples/inventory.yaml"
unset ROCECTL_POLICY ROCECTL_INVENTORY ROCECTL_PARALLEL

conf() {
	printf '%s\n' "$@" >"$TMP/rocectl.conf" && chmod 0644 "$TMP/rocectl.conf"
}

test_expect_success 'validate takes -p and -i from the file' '
	conf "# shipped by the package" "policy = $POL" "inventory  =  $INV" "" &&
	ROCECTL_CONFIG="$TMP/rocectl.conf" "$ROCECTL" validate >"$TMP/out" 2>"$TMP/err" &&
	test_must_contain "$TMP/out" "^policy: roce-lossless " &&
	test_must_contain "$TMP/out" "^inventory: $INV$"
'

test_expect_success '-p on the command line wins over the environment, which wins over the file' '
	conf "policy = $POL" &&
	ROCECTL_CONFIG="$TMP/rocectl.conf" ROCECTL_POLICY="$PFC" "$ROCECTL" validate >"$TMP/env" &&
	test_must_contain "$TMP/env" "^policy: pfc-only " &&
	ROCECTL_CONFIG="$TMP/rocectl.conf" ROCECTL_POLICY="$PFC" "$ROCECTL" validate -p "$POL" \
		>"$TMP/cli" &&
	test_must_contain "$TMP/cli" "^policy: roce-lossless "
'

test_expect_success '--parallel from the file is checked like a typed one' '
	conf "parallel = 0" "policy = $POL" "inventory = $INV" &&
	ROCECTL_CONFIG="$TMP/rocectl.conf" test_expect_code 64 "$ROCECTL" verify 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "parallel.*0"
'

test_expect_success 'an unknown key, a line without =, a key given twice: file:line and exit 1' '
	conf "policy = $POL" "polcy = x" &&
	ROCECTL_CONFIG="$TMP/rocectl.conf" test_expect_code 1 "$ROCECTL" validate 2>"$TMP/e1" &&
	test_must_contain "$TMP/e1" "rocectl.conf:2: unknown key .polcy." &&
	conf "policy $POL" &&
	ROCECTL_CONFIG="$TMP/rocectl.conf" test_expect_code 1 "$ROCECTL" validate 2>"$TMP/e2" &&
	test_must_contain "$TMP/e2" "rocectl.conf:1: expected .key = value." &&
	conf "policy = $POL" "policy = $PFC" &&
	ROCECTL_CONFIG="$TMP/rocectl.conf" test_expect_code 1 "$ROCECTL" validate 2>"$TMP/e3" &&
	test_must_contain "$TMP/e3" "rocectl.conf:2: .policy. given twice"
'

test_expect_success 'a file others can write, or a missing named file, is refused' '
	conf "policy = $POL" && chmod 0666 "$TMP/rocectl.conf" &&
	ROCECTL_CONFIG="$TMP/rocectl.conf" test_expect_code 1 "$ROCECTL" validate 2>"$TMP/w" &&
	test_must_contain "$TMP/w" "writable by group or others" &&
	ROCECTL_CONFIG="$TMP/none.conf" test_expect_code 1 "$ROCECTL" validate 2>"$TMP/m" &&
	test_must_contain "$TMP/m" "none.conf: No such file"
'

test_expect_success 'fabric commands take the inventory; host-local counters stays on this host' '
	conf "inventory = $TMP/no-such-inventory.yaml" &&
	ROCECTL_CONFIG="$TMP/rocectl.conf" test_expect_code 1 "$ROCECTL" discover 2>"$TMP/d" &&
	test_must_contain "$TMP/d" "no-such-inventory.yaml" &&
	{ ROCECTL_CONFIG="$TMP/rocectl.conf" "$ROCECTL" counters >"$TMP/c" 2>&1; true; } &&
	test_must_not_contain "$TMP/c" "no-such-inventory"
'

test_done
