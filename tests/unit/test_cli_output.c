/* SPDX-License-Identifier: Apache-2.0 */
/* What every command's output shares (engine/util/utf8.c, engine/report/print.c): bytes
 * that are not UTF-8 become U+FFFD, in JSON and in text, and every JSON document opens with
 * schema_version, rocectl_version and timestamp. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rocectl/print.h"
#include "rocectl/transport.h"
#include "rocectl/util.h"

static void test_utf8_valid(void **state)
{
	static const char *const good[] = {"",
					   "ascii",
					   "caf\xc3\xa9",
					   "\xe2\x82\xac",
					   "\xf0\x9f\x98\x80",
					   "\xf4\x8f\xbf\xbf",
					   "\xed\x9f\xbf"};
	static const char *const bad[] = {
	    "\xff",		/* never in UTF-8 */
	    "\x80",		/* a lone continuation byte */
	    "\xc0\xaf",		/* overlong '/' */
	    "\xe0\x80\xaf",	/* overlong, 3 bytes */
	    "\xed\xa0\x80",	/* a UTF-16 surrogate */
	    "\xf4\x90\x80\x80", /* above U+10FFFF */
	    "\xc3",		/* truncated at the end */
	    "\xe2\x82x",	/* truncated before ASCII */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		assert_true(rc_utf8_valid(good[i]));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_false(rc_utf8_valid(bad[i]));
}

static void test_utf8_fix(void **state)
{
	char *s;

	(void)state;
	s = rc_utf8_fix("a\xff"
			"b\xc3\xa9\xe2\x82");
	assert_non_null(s);
	assert_string_equal(s, "a\xef\xbf\xbd"
			       "b\xc3\xa9\xef\xbf\xbd\xef\xbf\xbd");
	assert_true(rc_utf8_valid(s));
	free(s);
}

/* Run fn on a JSON or text rc_out into a string. */
static char *render(enum rc_out_mode mode, void (*fn)(struct rc_out *o))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct rc_out o;

	assert_non_null(f);
	rc_out_init(&o, f, mode);
	fn(&o);
	fclose(f);
	return buf;
}

static void doc(struct rc_out *o)
{
	rc_out_open_object(o, NULL);
	rc_out_str(o, "device", "device %s\n", "leaf\xfe\x01");
	rc_out_open_array(o, "list");
	rc_out_open_object(o, NULL);
	rc_out_str(o, "x", NULL, "\xe2\x82\xac");
	rc_out_close_object(o);
	rc_out_close_array(o);
	rc_out_close_object(o);
	rc_out_end(o);
}

static void test_json_document(void **state)
{
	char *s = render(RC_OUT_JSON, doc);
	const char *p = s;

	(void)state;
	assert_true(rc_utf8_valid(s));
	assert_int_equal(strncmp(p, "{\"schema_version\":1,\"rocectl_version\":\"", 39), 0);
	p = strstr(s, "\"timestamp\":\"");
	assert_non_null(p);
	/* 2026-12-03T12:00:00Z: RFC 3339, UTC */
	assert_int_equal(p[13 + 4], '-');
	assert_int_equal(p[13 + 10], 'T');
	assert_int_equal(p[13 + 19], 'Z');
	assert_non_null(strstr(s, "\"device\":\"leaf\\ufffd\\u0001\""));
	/* a well-formed sequence stays as it is, and nested objects carry no header */
	assert_non_null(strstr(s, "\"list\":[{\"x\":\"\xe2\x82\xac\"}]"));
	assert_null(strstr(s + 1, "{\"schema_version\""));
	free(s);
}

static void test_text_fixed(void **state)
{
	char *s = render(RC_OUT_TEXT, doc);

	(void)state;
	assert_string_equal(s, "device leaf\xef\xbf\xbd\x01\n");
	free(s);
}

/* -v: secrets go, addresses stay (drivers/transport/tap.c) */
static void test_redact(void **state)
{
	static const char in[] = "username admin secret sha512 $6$abc role x; snmp community "
				 "pub1ic; ntp server 10.0.0.1 key 7; {\"password\": \"hunter22\"}";
	char *out = NULL;
	size_t len = 0;

	(void)state;
	assert_int_equal(rc_redact(in, strlen(in), NULL, &out, &len), 0);
	/* a value runs to the next blank or quote, an encryption type goes with it (tap.c) */
	assert_string_equal(out, "username admin secret <secret> role x; snmp community "
				 "<secret> ntp server 10.0.0.1 key <secret> {\"password\": "
				 "\"<secret>\"}");
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_utf8_valid),	  cmocka_unit_test(test_utf8_fix),
	    cmocka_unit_test(test_json_document), cmocka_unit_test(test_text_fixed),
	    cmocka_unit_test(test_redact),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
