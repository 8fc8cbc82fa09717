/* SPDX-License-Identifier: Apache-2.0 */
/* rc_out_yaml (engine/report/yaml_json.c): the YAML `export` writes, as the same tree in
 * JSON.  Plain null/bool/number scalars become JSON literals; quoted scalars, units and
 * everything else stay strings; a document that does not parse is refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rocectl/print.h"

/* The JSON value of `yaml` under the key "v" of an object without a header. */
static char *convert(const char *yaml, int *rc)
{
	struct rc_err err = {0};
	struct rc_out o;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	rc_out_init(&o, f, RC_OUT_JSON);
	o.no_header = true;
	rc_out_open_object(&o, NULL);
	*rc = rc_out_yaml(&o, "v", "test", yaml, &err);
	rc_out_close_object(&o);
	fclose(f);
	return buf;
}

static void test_scalars_typed(void **state)
{
	int rc;
	char *s = convert("a: 26\nb: -3\nc: 1.5\nd: true\ne: False\nf: ~\ng:\nh: 100G\n"
			  "i: \"26\"\nj: 'true'\nk: inf\nl: 0x1A\nm: 8%\n",
			  &rc);

	(void)state;
	assert_int_equal(rc, 0);
	assert_string_equal(s, "{\"v\":{\"a\":26,\"b\":-3,\"c\":1.5,\"d\":true,\"e\":false,"
			       "\"f\":null,\"g\":null,\"h\":\"100G\",\"i\":\"26\",\"j\":\"true\","
			       "\"k\":\"inf\",\"l\":\"0x1A\",\"m\":\"8%\"}}");
	free(s);
}

static void test_nesting(void **state)
{
	int rc;
	char *s = convert("apiVersion: rocectl/v1\npfc:\n  priorities: [3, 4]\n"
			  "ets:\n  - {traffic_class: 6, mode: strict}\n  - []\nx: {}\n",
			  &rc);

	(void)state;
	assert_int_equal(rc, 0);
	assert_string_equal(s,
			    "{\"v\":{\"apiVersion\":\"rocectl/v1\",\"pfc\":{\"priorities\":[3,4]},"
			    "\"ets\":[{\"traffic_class\":6,\"mode\":\"strict\"},[]],\"x\":{}}}");
	free(s);
}

static void test_strings_escaped(void **state)
{
	int rc;
	char *s = convert("name: \"a\\\"b\\\\c\\td\"\n", &rc);

	(void)state;
	assert_int_equal(rc, 0);
	assert_string_equal(s, "{\"v\":{\"name\":\"a\\\"b\\\\c\\td\"}}");
	free(s);
}

static void test_refused(void **state)
{
	int rc;
	char *s = convert("a: [1, 2\n", &rc);

	(void)state;
	assert_true(rc < 0);
	free(s);
	s = convert("a: &x 1\nb: *x\n", &rc); /* anchors are refused, as by every loader */
	assert_true(rc < 0);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_scalars_typed),
	    cmocka_unit_test(test_nesting),
	    cmocka_unit_test(test_strings_escaped),
	    cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
