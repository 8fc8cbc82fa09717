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

# test_lab_needs_root: a lab test (tests/lab/lab) needs root for its namespaces and sshd;
# without it one failing test says so and the script ends.  Otherwise the lab in $LAB is
# taken down when the script exits, whatever happened.
test_lab_needs_root() {
	if [ "$(id -u)" != 0 ]; then
		test_expect_success 'the lab needs root (namespaces, sshd): not run' 'false'
		test_done
		exit
	fi
	test_at_exit '"$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true'
}
