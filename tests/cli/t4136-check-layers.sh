#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The layer check (scripts/check-layers, `make check-layers`): the product's objects
# reference only the layers below them, and a reference up the order is found and named.
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

cd "$SRC_DIR" || exit 1
OBJDIR="$BUILD_DIR/rel"

# The objects of today's sources (not of a source since moved away).
objects() {
	find cli engine support drivers -name '*.c' | sort | while read -r c; do
		o="$OBJDIR/${c%.c}.o"
		[ -f "$o" ] && echo "$o"
	done
}

test_expect_success 'the product objects follow the layer order' '
	objects >"$TMP/objs" && test "$(wc -l <"$TMP/objs")" -gt 100 &&
	scripts/check-layers "$OBJDIR" $(cat "$TMP/objs") >"$TMP/out" &&
	test_must_contain "$TMP/out" "every reference follows the layer order"
'

# plant SOURCE SYMBOL: check the tree plus an object "built from" SOURCE that calls SYMBOL;
# the output is in $TMP/out and the status is the script's.
plant() {
	printf "%s\n" "int $2(void);" "int planted(void); int planted(void) { return $2(); }" \
		>"$TMP/planted.c" &&
	cc -c -o "$TMP/planted.o" "$TMP/planted.c" || return 99
	scripts/check-layers --extra "$TMP/planted.o=$1" "$OBJDIR" $(cat "$TMP/objs") >"$TMP/out"
}

test_expect_success 'a driver calling the option parser of cli/ is refused, by file and symbol' '
	test_expect_code 1 plant drivers/switch/planted.c rc_parse_options &&
	test_must_contain "$TMP/out" \
		"drivers/switch/planted.c: rc_parse_options \\(drivers -> cli not allowed"
'

test_expect_success 'the engine calling a switch dialect is refused' '
	test_expect_code 1 plant engine/run/planted.c rc_switch_exit_error &&
	test_must_contain "$TMP/out" "engine/run/planted.c: rc_switch_exit_error \\(engine -> drivers"
'

test_expect_success 'a command other than the host commands may not call a driver' '
	test_expect_code 1 plant cli/cmd_planted.c rc_switch_exit_error &&
	test_must_contain "$TMP/out" "cli/cmd_planted.c: rc_switch_exit_error \\(cli -> drivers"
'

test_expect_success 'the host commands may call the host driver' '
	plant cli/agent_planted.c rc_host_preflight &&
	test_must_contain "$TMP/out" "every reference follows the layer order"
'

test_done
