# SPDX-License-Identifier: Apache-2.0
# Set-up shared by the lab tests of commit-confirm (t3330, t3060, t3068): the lab's tools
# and files, a journal, history and confirm directory of the test's own, the root check,
# and, when the test ends, any confirm timer of the test's runs stopped and the lab taken
# down (the timers are detached: they would outlive the test).  Source after testlib.sh.
#
#   rc apply -p "$POLICY" -i "$INV" --confirm 20s    rocectl inside the lab's namespace

LAB_CMD="$SRC_DIR/tests/lab/lab"
SIMCTL="$SRC_DIR/tests/sim/switch/simctl"
LAB="$TMP/lab"
INV="$LAB/inventory.yaml"
POLICY="$SRC_DIR/policies/roce-lossless.yaml"
ROCECTL_JOURNAL="$TMP/journal"
ROCECTL_HISTORY="$TMP/history"
CONFIRM_DIR="$TMP/confirm" # the older layout: links to each run's record and log
RUNS_DIR="$ROCECTL_HISTORY/runs" # a run's directory (include/rocectl/run_dir.h)
export BUILD_DIR ROCECTL ROCECTL_JOURNAL ROCECTL_HISTORY

test_needs root

test_at_exit 'for p in $(cat "$CONFIRM_DIR"/*.json 2>/dev/null | sed -n "s/.*\"timer_pid\":[^0-9]*\([0-9]*\).*/\1/p"); do [ "$p" -gt 1 ] && kill "$p" 2>/dev/null; done; "$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true'

rc() {
	"$LAB_CMD" exec "$LAB" -- "$ROCECTL" "$@"
}
