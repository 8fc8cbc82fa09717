#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# --format on every command (README.md "Exit status and output conventions"): each command
# `rocectl --help` lists, and the agent's subcommands, take --format and -j/--json; a format
# a command does not write is a usage error (64) naming --format.  The commands that need
# no fabric are checked here against their schemas in examples/ (rollback, confirm, agent
# state), with bytes that are not UTF-8 in a journal file name; t3121 does the rest on a
# real lab fabric.
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

NICSIM="$SRC_DIR/tests/sim/nic/nicsim"
check() {
	schema=$1
	shift
	python3 "$SRC_DIR/tests/lib/schema_check.py" "$SRC_DIR/examples/$schema.schema.json" "$@"
}
ROCECTL_JOURNAL="$TMP/journal"
export ROCECTL_JOURNAL

test_expect_success 'every command and agent subcommand lists --format and -j, --json' '
	"$ROCECTL" --help | awk "/^commands:/ { f = 1; next } f && NF { print \$1 }" \
		| grep -v "^exit$" >"$TMP/cmds" &&
	test "$(wc -l <"$TMP/cmds")" -ge 20 &&
	{ cat "$TMP/cmds"; echo "agent state"; echo "agent write"; } | while read -r c; do
		"$ROCECTL" $c --help >"$TMP/help" || { echo "$c --help failed" >&2; exit 1; }
		grep -Eq "^ +--format FMT" "$TMP/help" &&
		grep -Eq "^ +-j, --json +the same as --format json" "$TMP/help" ||
			{ echo "$c: no --format/-j in --help" >&2; exit 1; }
	done
'

test_expect_success 'an unknown format is a usage error (64) that names --format, everywhere' '
	while read -r c; do
		test_expect_code 64 "$ROCECTL" $c --format yaml >/dev/null 2>"$TMP/err" &&
		test_must_contain "$TMP/err" "format" || { echo "command: $c" >&2; return 1; }
	done <"$TMP/cmds"
'

test_expect_success 'render and agent state|write write JSON only: --format text is refused (64)' '
	test_expect_code 64 "$ROCECTL" render --format text -p x -i y --host z 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "render writes the agent.s JSON input only" &&
	test_expect_code 64 "$ROCECTL" agent state --format text 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "not json" &&
	test_expect_code 64 "$ROCECTL" agent write --format text </dev/null 2>/dev/null
'

test_expect_success 'rollback -j with nothing to do: exit 0, status nothing, stdout is only JSON' '
	"$ROCECTL" rollback -j >"$TMP/rb0.json" 2>"$TMP/rb0.err" &&
	check rollback "$TMP/rb0.json" &&
	jq -e ".status == \"nothing\" and .exit_code == 0 and .source == \"none\"" "$TMP/rb0.json" &&
	test_must_contain "$TMP/rb0.err" "nothing to roll back" &&
	"$ROCECTL" rollback >"$TMP/rb0.txt" &&
	test_must_contain "$TMP/rb0.txt" "nothing to roll back"
'

test_expect_success 'rollback -j of an unusable journal file with a non-UTF-8 name: exit 1, valid' '
	mkdir -p "$ROCECTL_JOURNAL/20261203T000000Z-1" &&
	echo "{not json" >"$ROCECTL_JOURNAL/20261203T000000Z-1/leaf$(printf "\377").json" &&
	test_expect_code 1 "$ROCECTL" rollback --format json >"$TMP/rb1.json" 2>/dev/null &&
	check rollback "$TMP/rb1.json" &&
	jq -e ".status == \"failed\" and .exit_code == 1 and (.unusable | length) == 1" \
		"$TMP/rb1.json" &&
	test_must_contain "$TMP/rb1.json" "\\\\ufffd"
'

test_expect_success 'confirm -j of a run with nothing pending: exit 1, status not-pending' '
	test_expect_code 1 "$ROCECTL" confirm 20261203T000000Z-9 -j >"$TMP/cf.json" 2>"$TMP/cf.err" &&
	check confirm "$TMP/cf.json" &&
	jq -e ".status == \"not-pending\" and .state == null and .exit_code == 1" "$TMP/cf.json" &&
	test_must_contain "$TMP/cf.err" "nothing waiting for a confirm" &&
	test_expect_code 64 "$ROCECTL" confirm -j 2>/dev/null
'

test_expect_success 'export, discover and capture -j that fail before a report still print one' '
	for c in export discover capture; do
		o= && { test $c != capture || o="-o $TMP/cap"; } &&
		test_expect_code 1 "$ROCECTL" $c -j -i "$TMP/no-such.yaml" $o \
			>"$TMP/$c.json" 2>"$TMP/$c.err" &&
		check $c "$TMP/$c.json" &&
		jq -e ".command == \"$c\" and .exit_code == 1 and (.error | test(\"no-such.yaml\"))" \
			"$TMP/$c.json" &&
		test_must_contain "$TMP/$c.err" "^rocectl $c: .*no-such\.yaml" &&
		jq ". + {devices: []}" "$TMP/$c.json" >"$TMP/$c-more.json" &&
		! check $c "$TMP/$c-more.json" 2>/dev/null &&
		test_expect_code 1 "$ROCECTL" $c -i "$TMP/no-such.yaml" $o >"$TMP/$c.txt" \
			2>/dev/null &&
		test ! -s "$TMP/$c.txt" || { echo "command: $c" >&2; return 1; }
	done &&
	: >"$TMP/file" &&
	printf "apiVersion: rocectl/v1\nkind: Inventory\nhosts:\n  - {name: h1, transport: local}\n" \
		>"$TMP/one.yaml" &&
	test_expect_code 1 "$ROCECTL" capture -j -i "$TMP/one.yaml" -o "$TMP/file/x" \
		>"$TMP/cap2.json" 2>/dev/null &&
	check capture "$TMP/cap2.json" &&
	jq -e ".error | test(\"cannot create\")" "$TMP/cap2.json"
'

"$NICSIM" init "$TMP/h" --nic eth0,rdma=mlx5_0 >/dev/null

test_expect_success 'agent state -j (the controller reads it) validates, header included' '
	"$NICSIM" run "$TMP/h" -- "$ROCECTL" agent state -j >"$TMP/st.json" &&
	check agent-state "$TMP/st.json" &&
	jq -e ".interfaces[0].interface == \"eth0\" and .interfaces[0].qos != null" "$TMP/st.json" &&
	"$NICSIM" run "$TMP/h" -- "$ROCECTL" agent state >"$TMP/st2.json" &&
	check agent-state "$TMP/st2.json" &&
	echo "{\"writes\":[]}" | "$NICSIM" run "$TMP/h" -- "$ROCECTL" agent write -j >"$TMP/wr.json" &&
	check agent-write "$TMP/wr.json" &&
	echo "garbage" | test_expect_code 1 "$NICSIM" run "$TMP/h" -- "$ROCECTL" agent write \
		>"$TMP/wr2.json" &&
	check agent-write "$TMP/wr2.json" &&
	jq -e ".status == \"error\"" "$TMP/wr2.json"
'

test_expect_success 'a JSON schema for every command and document is in examples/' '
	for s in validate plan-file desired report trace enforce history show diff counters \
		diagnose headroom agent agent-state agent-write nccl-env rollback confirm discover \
		capture export; do
		test -f "$SRC_DIR/examples/$s.schema.json" &&
		python3 -c "import json,sys; json.load(open(sys.argv[1]))" \
			"$SRC_DIR/examples/$s.schema.json" || { echo "no schema $s" >&2; return 1; }
	done
'

test_expect_success 'every command with --limit says the same forms: ranges, globs, !TERM' '
	n=0 &&
	while read -r c; do
		"$ROCECTL" $c --help | grep -E "^ +--limit NAMES" >"$TMP/limit" || continue
		n=$((n + 1))
		test_must_contain "$TMP/limit" "ranges \(gpu\[001-016\]\), globs \(leaf\*\), !TERM" ||
			{ echo "command: $c" >&2; return 1; }
	done <"$TMP/cmds" &&
	test "$n" -ge 8
'

test_done
