#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Shape conformance: every request rocectl's switch drivers send (asked of rocectl itself:
# verify --counters against a snapshot the simulator's binaries fill, no sshd) with a real
# answer in the conformance kit is answered by the simulator in the same shape — JSON key
# paths and value types, text tables' headers in order, the eAPI revision asked
# (tests/conformance/shape.py says how); the NVUE REST apply path's answers come from the
# simulator's REST server in a network namespace of its own (unshare -rn, openssl for its
# throwaway certificate).  Known mismatches being fixed are listed in
# tests/conformance/shape-pending.txt, and fail once they match.  No lab, no root.
. "$SRC_DIR/tests/lib/testlib.sh"

# run once outside the test, so that the count and the unverified requests are in the
# test's name, the line `make conformance` prints
if [ -n "$CONFORMANCE_DIR" ]; then
	python3 "$SRC_DIR/tests/conformance/shape.py" "$CONFORMANCE_DIR" "$BUILD_DIR" "$ROCECTL" \
		"$SRC_DIR" "$SRC_DIR/tests/conformance/shape-pending.txt" "$TMP/shape" \
		>"$TMP/out" 2>&1
	echo $? >"$TMP/rc"
fi
SUMMARY=$(sed -n "s/^# shape: //p" "$TMP/out" 2>/dev/null)

test_expect_success "the simulators answer in the real answers' shapes: ${SUMMARY:-no summary}" '
	test -n "$CONFORMANCE_DIR" && test -n "$SUMMARY" &&
	{ test "$(cat "$TMP/rc")" = 0 || { grep "^FAIL" "$TMP/out" | sed "s/^/# /"; false; }; }
'

test_expect_success 'a shape that differs fails, naming the request, the path and both shapes' '
	mkdir -p "$TMP/kit/sonic/outputs" &&
	cp -r "$CONFORMANCE_DIR/." "$TMP/kit/" 2>/dev/null &&
	chmod -R u+w "$TMP/kit" &&
	sed "s/PFC7/PFC7  PFC8/" "$CONFORMANCE_DIR/sonic/outputs/show_pfc_counters.txt" \
		>"$TMP/kit/sonic/outputs/show_pfc_counters.txt" &&
	! CONFORMANCE_DIR="$TMP/kit" python3 "$SRC_DIR/tests/conformance/shape.py" "$TMP/kit" \
		"$BUILD_DIR" "$ROCECTL" "$SRC_DIR" "$SRC_DIR/tests/conformance/shape-pending.txt" \
		"$TMP/shape2" >"$TMP/out2" 2>&1 &&
	grep -q "^FAIL: sonic ssh: show pfc counters: (headers): real .*PFC8.*, simulator " \
		"$TMP/out2"
'

test_expect_success 'a pending request that matches fails until its line is removed' '
	{ cat "$SRC_DIR/tests/conformance/shape-pending.txt" &&
		echo "sonic ssh: show pfc counters"; } >"$TMP/pending" &&
	! python3 "$SRC_DIR/tests/conformance/shape.py" "$CONFORMANCE_DIR" "$BUILD_DIR" \
		"$ROCECTL" "$SRC_DIR" "$TMP/pending" "$TMP/shape3" >"$TMP/out3" 2>&1 &&
	grep -q "^FAIL: sonic ssh: show pfc counters: listed in .* but its shape matches now" \
		"$TMP/out3"
'
test_done
