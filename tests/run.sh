#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Run every test and print one summary line: "N passed, N failed" (always the last line).
#
# Unit tests are cmocka binaries given as arguments (TAP output); shell tests are every
# tests/**/tNNNN-*.sh script (tests/lib/testlib.sh, TAP output).  A binary or script that
# dies without reporting a failure (sanitizer abort, crash) counts as one failure.
# ROCECTL_TEST_FILTER="pattern ..." runs only the shell tests whose path matches one.
#
# Shell scripts run ROCECTL_TEST_JOBS at a time (default: four per CPU, at most 8; each lab is in
# namespaces of its own and each script gets its own lock, history and journal directories,
# tests/lib/run-script.sh); a script that says "# test-serial: WHY" runs alone after them.
# Blocks of results print as scripts finish; the tally is in the scripts' order.
# A script whose prerequisite is missing skips (tests/lib/testlib.sh test_needs); with
# ROCECTL_TEST_NO_SKIP set (make check) each skip counts as a failure.
set -u
: "${ROCECTL:?}" "${BUILD_DIR:?}" "${SRC_DIR:?}"
export ROCECTL BUILD_DIR SRC_DIR
export CMOCKA_MESSAGE_OUTPUT=TAP
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:verify_asan_link_order=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

# Device locks (engine/run/lock.c) are machine-wide: each test run gets its own directory,
# so that builds of other worktrees applying to their own "leaf01" do not collide.
ROCECTL_LOCK_DIR="${ROCECTL_LOCK_DIR:-$BUILD_DIR/locks}"
export ROCECTL_LOCK_DIR
# Run records (engine/run/history.c) likewise stay out of /var/lib/rocectl/history.
ROCECTL_HISTORY="${ROCECTL_HISTORY:-$BUILD_DIR/history}"
export ROCECTL_HISTORY

# The machine's /etc/rocectl/rocectl.conf (cli/config_file.c) must not change what the tests
# run: an empty one of our own.
ROCECTL_CONFIG="$BUILD_DIR/rocectl.conf"
: >"$ROCECTL_CONFIG" && chmod 0644 "$ROCECTL_CONFIG"
export ROCECTL_CONFIG
unset ROCECTL_POLICY ROCECTL_INVENTORY ROCECTL_PARALLEL

log_dir="$BUILD_DIR/test-logs"
rm -rf "$log_dir" && mkdir -p "$log_dir"
passed=0
failed=0
skipped=0

# count FILE STATUS NAME: tally TAP lines of one test program
count() {
	[ -f "$1" ] || : >"$1"
	p=$(grep -c '^ok ' "$1")
	f=$(grep -c '^not ok ' "$1")
	s=$(grep -ci '^ok .*# skip' "$1")
	if [ "$2" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - $3 exited with status $2 without reporting a failure"
		f=1
	fi
	if [ "$s" -gt 0 ] && [ -n "${ROCECTL_TEST_NO_SKIP:-}" ]; then
		echo "not ok - $3 skipped $s test(s) where every prerequisite must be present" \
			"($(grep -i -m1 '^ok .*# skip' "$1" | sed 's/.*# *//'); make deps, run as root)"
		f=$((f + s))
	fi
	passed=$((passed + p - s))
	skipped=$((skipped + s))
	failed=$((failed + f))
}

for bin in "$@"; do
	name=$(basename "$bin")
	out="$log_dir/$name.log"
	"$bin" >"$out" 2>&1
	st=$?
	grep -E '^(not )?ok ' "$out" | sed "s/^/[$name] /"
	[ "$st" -ne 0 ] && grep -vE '^(not )?ok |^1\.\.|^# ' "$out" | head -n 40 | sed 's/^/    /'
	count "$out" "$st" "$name"
done

scripts=$(find "$SRC_DIR/tests" -name 't[0-9][0-9][0-9][0-9]-*.sh' | sort |
	while IFS= read -r t; do
		[ -z "${ROCECTL_TEST_FILTER:-}" ] && echo "$t" && continue
		for pat in $ROCECTL_TEST_FILTER; do
			case "$t" in *"$pat"*) echo "$t" && break ;; esac
		done
	done)
serial=$(for t in $scripts; do grep -l '^# test-serial:' "$t"; done)
# four per CPU, at most 8: nproc counts CPUs a container's quota may not give, and each
# script may run a lab of a dozen processes
jobs=$(($(nproc 2>/dev/null || echo 1) * 4))
[ "$jobs" -le 8 ] || jobs=8
jobs=${ROCECTL_TEST_JOBS:-$jobs}
start=$(date +%s)
for t in $scripts; do
	case " $(echo $serial) " in *" $t "*) ;; *) echo "$t" ;; esac
done | xargs -r -P "$jobs" -n 1 sh "$SRC_DIR/tests/lib/run-script.sh" "$log_dir" --
for t in $serial; do
	sh "$SRC_DIR/tests/lib/run-script.sh" "$log_dir" -- "$t"
done

failed_scripts=
for t in $scripts; do
	name=$(basename "$t" .sh)
	before=$failed
	count "$log_dir/$name.log" "$(cat "$log_dir/$name.rc" 2>/dev/null || echo 1)" "$name"
	[ "$failed" -eq "$before" ] || failed_scripts="$failed_scripts $name"
done
[ -z "$failed_scripts" ] || echo "failed:$failed_scripts"
[ "$skipped" -eq 0 ] || echo "$skipped skipped (a prerequisite missing: see the [name] ok ... # skip lines)"
echo "shell scripts: $(echo $scripts | wc -w), $jobs at a time, $(($(date +%s) - start)) s wall"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
