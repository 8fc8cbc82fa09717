# SPDX-License-Identifier: Apache-2.0
# Shell test library, after git's test-lib.sh: each test is a sentence and a body.
#
#   . "$SRC_DIR/tests/lib/testlib.sh"
#   test_expect_success 'second apply plans nothing' '
#           "$ROCECTL" agent plan -p "$POLICY" && ...
#   '
#   test_done
#
# Output is TAP ("ok N - ...", "not ok N - ..." followed by the body's output as "# "
# comments).  As in git's tests, a body is one &&-chain: its exit status decides (`set -e`
# is not in force inside an `if`, so a broken chain would silently pass).  Use
# test_expect_code for expected non-zero exits.  TMP is a fresh directory per script.
: "${ROCECTL:?run through make test}" "${SRC_DIR:?}" "${BUILD_DIR:?}"
test_n=0
test_failed=0
TMP=$(mktemp -d "${TMPDIR:-/tmp}/rocectl-test.XXXXXX")
export TMP
test_cleanup_cmds=
trap 'eval "$test_cleanup_cmds"; rm -rf "$TMP"' EXIT

# test_at_exit CMD: run CMD when the script exits (stop servers, remove namespaces)
test_at_exit() {
	test_cleanup_cmds="$1; $test_cleanup_cmds"
}

test_expect_success() {
	test_n=$((test_n + 1))
	if (eval "$2") >"$TMP/.out" 2>&1; then
		echo "ok $test_n - $1"
	else
		echo "not ok $test_n - $1"
		sed 's/^/# /' "$TMP/.out" | tail -n 40
		test_failed=$((test_failed + 1))
	fi
}

# test_expect_code CODE CMD...: run CMD, succeed iff it exits with CODE
test_expect_code() {
	want=$1
	shift
	"$@"
	got=$?
	if [ "$got" -ne "$want" ]; then
		echo "expected exit $want, got $got: $*" >&2
		return 1
	fi
	return 0
}

# test_must_contain FILE PATTERN (grep -E)
test_must_contain() {
	grep -Eq -- "$2" "$1" || { echo "'$1' lacks /$2/:" >&2; cat "$1" >&2; return 1; }
}

test_must_not_contain() {
	! grep -Eq -- "$2" "$1" || { echo "'$1' unexpectedly has /$2/:" >&2; cat "$1" >&2; return 1; }
}

test_done() {
	echo "1..$test_n"
	[ "$test_failed" -eq 0 ]
}

# test_needs CAP...: what the whole script needs: `root` (namespaces, sshd, the lab) or a
# command (lldpd, chromium, qemu-system-x86_64 ...).  When one is missing the script says
# "ok 1 # skip (needs CAP)" and ends.  tests/run.sh counts skips, and `make check` (the
# README's test command, on a machine with every prerequisite: `make deps`) counts each one
# as a failure, so that a missing prerequisite never passes for a tested feature.
test_needs() {
	for cap in "$@"; do
		case $cap in
		root) [ "$(id -u)" = 0 ] && continue ;;
		*) command -v "$cap" >/dev/null 2>&1 && continue ;;
		esac
		echo "ok 1 # skip (needs $cap)"
		echo "1..1"
		exit 0
	done
}

# test_lab_needs_root: a lab test (tests/lab/lab) needs root for its namespaces and sshd
# (test_needs root).  The lab in $LAB is taken down when the script exits, whatever happened.
test_lab_needs_root() {
	test_needs root
	test_at_exit '"$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true'
}
