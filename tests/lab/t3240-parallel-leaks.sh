#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# --parallel 256 on a 64-host lab leaks neither memory nor file descriptors: plan, apply,
# verify and rollback under LeakSanitizer (the ASan build, detect_leaks=1 set here whatever
# the caller's ASAN_OPTIONS), once on a healthy fabric and once with a hung switch (the
# error paths: timeouts, hosts skipped behind it, restores).  Descriptors are counted by a preloaded
# helper (tests/lib/fdcount.c): at exit rocectl must hold what it was started with.
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

LAB_CMD="$SRC_DIR/tests/lab/lab"
SIMCTL="$SRC_DIR/tests/sim/switch/simctl"
LAB="$TMP/lab"
INV="$TMP/inv.yaml"
POLICY="$SRC_DIR/policies/roce-lossless.yaml"
JOURNAL="$TMP/journal"
export BUILD_DIR ROCECTL

test_needs root

test_at_exit '"$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true'

# rc NAME EXPECTED_EXIT ARGS...: rocectl with 256 workers, LeakSanitizer on, descriptors
# counted; fails on another exit status, a leak report or a descriptor left open
rc() {
	name=$1 want=$2
	shift 2
	"$LAB_CMD" exec "$LAB" -- env ROCECTL_JOURNAL="$JOURNAL" \
		ROCECTL_LOCK_DIR="${ROCECTL_LOCK_DIR:-$TMP/locks}" \
		ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:verify_asan_link_order=0 \
		LD_PRELOAD="$TMP/fdcount.so" FDCOUNT_OUT="$TMP/$name.fds" \
		"$ROCECTL" "$@" --parallel 256 >"$TMP/$name.out" 2>&1
	st=$?
	if grep -q 'LeakSanitizer\|AddressSanitizer' "$TMP/$name.out"; then
		echo "$name: sanitizer report:" >&2
		head -n 40 "$TMP/$name.out" >&2
		return 1
	fi
	if [ "$st" != "$want" ]; then
		echo "$name: exit $st, expected $want" >&2
		grep -m 10 "error" "$TMP/$name.out" >&2
		tail -n 3 "$TMP/$name.out" >&2
		return 1
	fi
	read -r start end <"$TMP/$name.fds" || return 1
	if [ "$start" != "$end" ]; then
		echo "$name: $start descriptors at start, $end at exit" >&2
		return 1
	fi
}

test_expect_success 'a lab of 64 hosts and 2 leaves; the descriptor counter' '
	cc -shared -fPIC -O1 -o "$TMP/fdcount.so" "$SRC_DIR/tests/lib/fdcount.c" &&
	"$LAB_CMD" up "$LAB" --hosts 64 --nics 1 --leaves 2 --spines 0 >/dev/null &&
	sed "s/^kind: Inventory$/kind: Inventory\\
defaults:\\
  ssh: {connect_timeout: 10s, command_timeout: 15s}/" "$LAB/inventory.yaml" >"$INV" &&
	test "$(grep -c "name: gpu" "$INV")" = 64
'

test_expect_success 'plan, apply, verify: no leak' '
	rc plan 2 plan -p "$POLICY" -i "$INV" &&
	rc apply 0 apply -p "$POLICY" -i "$INV" &&
	rc verify 0 verify -p "$POLICY" -i "$INV" &&
	test_must_contain "$TMP/verify.out" "0 failed"
'

test_expect_success 'a hung switch: no leak on the error paths' '
	"$SIMCTL" fault "$LAB/switchsim" leaf02 hang always >/dev/null &&
	rc apply-failed 1 apply -p "$SRC_DIR/policies/pfc-only.yaml" -i "$INV" &&
	rc verify-failed 1 verify -p "$POLICY" -i "$INV" &&
	"$SIMCTL" fault "$LAB/switchsim" leaf02 clear >/dev/null &&
	test_must_contain "$TMP/apply-failed.out" "leaf02.*error"
'

test_expect_success 'rollback and a last verify: no leak' '
	rc rollback 0 rollback -i "$INV" &&
	rc verify-end 2 verify -p "$POLICY" -i "$INV"
'

test_done
