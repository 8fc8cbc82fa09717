#!/bin/sh
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

test_expect_success 'a driver calling the option parser of cli/ is refused, by file and symbol' '
	printf "%s\n" "struct rc_cli; int rc_parse_options(void);" \
		"int planted(void); int planted(void) { return rc_parse_options(); }" >"$TMP/up.c" &&
	cc -c -o "$TMP/up.o" "$TMP/up.c" &&
	test_expect_code 1 scripts/check-layers --extra "$TMP/up.o=drivers/switch/planted.c" \
		"$OBJDIR" $(cat "$TMP/objs") >"$TMP/out" &&
	test_must_contain "$TMP/out" \
		"drivers/switch/planted.c: rc_parse_options \\(drivers -> cli not allowed"
'

test_expect_success 'the engine calling a switch dialect is refused' '
	printf "%s\n" "int rc_switch_exit_error(void);" \
		"int planted(void); int planted(void) { return rc_switch_exit_error(); }" >"$TMP/dn.c" &&
	cc -c -o "$TMP/dn.o" "$TMP/dn.c" &&
	test_expect_code 1 scripts/check-layers --extra "$TMP/dn.o=engine/run/planted.c" \
		"$OBJDIR" $(cat "$TMP/objs") >"$TMP/out" &&
	test_must_contain "$TMP/out" "engine/run/planted.c: rc_switch_exit_error \\(engine -> drivers"
'

test_expect_success 'a command other than the host commands may not call a driver' '
	printf "%s\n" "int rc_switch_exit_error(void);" \
		"int planted(void); int planted(void) { return rc_switch_exit_error(); }" >"$TMP/cl.c" &&
	cc -c -o "$TMP/cl.o" "$TMP/cl.c" &&
	test_expect_code 1 scripts/check-layers --extra "$TMP/cl.o=cli/cmd_planted.c" \
		"$OBJDIR" $(cat "$TMP/objs") >"$TMP/out" &&
	test_must_contain "$TMP/out" "cli/cmd_planted.c: rc_switch_exit_error \\(cli -> drivers"
'

test_done
