#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every named step of the run transaction crashed at (include/rocectl/txn.h,
# tests/faults/crashpoints.py): apply, apply --confirm, enforce --confirm, confirm,
# rollback RUN and the confirm timer, each stopped at each of its steps by ROCECTL_CRASH_AT
# (an _exit(137), as kill -9 leaves it), then recovered (`rollback`, or `confirm` run
# again); every device's running and startup configuration, read from the simulators'
# own files, must be exactly its pre-run state or exactly the policy's.  The crash points
# rocectl lists must all be covered; the output lists them.  One lab, restored between
# steps: an NVUE switch over SSH and one over REST, SONiC, EOS and two hosts.
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

LAB_CMD="$SRC_DIR/tests/lab/lab"
FABRIC=${CRASH_FABRIC:-crash-mixed}

test_needs root

test_at_exit '"$LAB_CMD" down "$TMP/crash/$FABRIC" >/dev/null 2>&1 || true'

test_expect_success 'rocectl lists its crash points' '
	ROCECTL_CRASH_LIST=1 "$ROCECTL" >"$TMP/points" &&
	test "$(wc -l <"$TMP/points")" -ge 15 &&
	test_must_contain "$TMP/points" "^txn.timer.armed	" &&
	test_must_contain "$TMP/points" "^rollback.device	"
'

test_expect_success "every crash point on $FABRIC: each device before or policy after recovery" '
	ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0 \
		python3 "$SRC_DIR/tests/faults/crashpoints.py" --fabric "$FABRIC" \
		--lab-root "$TMP/crash" >"$TMP/crash.out" 2>&1;
	st=$?;
	grep -E "^(not ok|crash points covered|[0-9]+ steps)" "$TMP/crash.out";
	test "$st" = 0 && test_must_contain "$TMP/crash.out" "^[0-9]+ steps, 0 failed"
'

# the steps crashed at, and each step's outcome, as TAP comments
sed -n 's/^\(crash points covered: .*\|[0-9]* steps, .*\|ok .*\|not ok .*\)$/# \1/p' "$TMP/crash.out" 2>/dev/null

test_done
