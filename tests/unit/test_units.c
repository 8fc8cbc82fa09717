/* SPDX-License-Identifier: Apache-2.0 */
/* Units of docs/POLICY.md: every accepted form, and the edges that must be refused. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "rocectl/units.h"

static uint64_t size_ok(const char *s)
{
	const char *why = NULL;
	uint64_t v = 0;

	assert_int_equal(rc_parse_size(s, &v, &why), 0);
	return v;
}

static const char *size_bad(const char *s, int want)
{
	const char *why = NULL;
	uint64_t v = 12345;

	assert_int_equal(rc_parse_size(s, &v, &why), want);
	assert_non_null(why);
	assert_int_equal(v, 12345); /* untouched on error */
	return why;
}

static void test_size_forms(void **state)
{
	(void)state;
	assert_int_equal(size_ok("150000"), 150000);
	assert_int_equal(size_ok("150000B"), 150000);
	assert_int_equal(size_ok("150KB"), 150000);
	assert_int_equal(size_ok("1.5MB"), 1500000);
	assert_int_equal(size_ok("146KiB"), 146 * 1024);
	assert_int_equal(size_ok("2MiB"), 2 * 1024 * 1024);
	assert_int_equal(size_ok("1GB"), 1000000000);
	assert_int_equal(size_ok("1GiB"), 1073741824);
	assert_int_equal(size_ok("1.5KiB"), 1536);
	assert_int_equal(size_ok("0.5MB"), 500000);
	assert_int_equal(size_ok("0"), 0);
	assert_int_equal(size_ok("007KB"), 7000);
	/* Trailing fraction zeros do not count against exactness or range. */
	assert_int_equal(size_ok("1.000000000000000000000000GiB"), 1073741824);
	assert_int_equal(size_ok("0.000000001GB"), 1);
	assert_true(size_ok("18446744073709551615") == UINT64_MAX);
	assert_true(size_ok("17179869183GiB") == 17179869183ull * 1073741824ull);
}

static void test_size_refused(void **state)
{
	(void)state;
	assert_string_equal(size_bad("-150KB", -EINVAL), "must not be negative");
	assert_string_equal(size_bad("1.5B", -EINVAL), "must be a whole number of bytes");
	assert_string_equal(size_bad("0.1KiB", -EINVAL), "must be a whole number of bytes");
	assert_string_equal(size_bad("18446744073709551616", -ERANGE), "value is too large");
	assert_string_equal(size_bad("17179869184GiB", -ERANGE), "value is too large");
	assert_string_equal(size_bad("99999999999999999999KB", -ERANGE), "value is too large");
	assert_non_null(strstr(size_bad("150XB", -EINVAL), "expected a size"));
	size_bad("150kb", -EINVAL); /* units are case-sensitive: kb could be kilobits */
	size_bad("150 KB", -EINVAL);
	size_bad("KB", -EINVAL);
	size_bad("", -EINVAL);
	size_bad("1.", -EINVAL);
	size_bad(".5MB", -EINVAL);
	size_bad("1..5MB", -EINVAL);
	size_bad("+150KB", -EINVAL);
	size_bad("0x10", -EINVAL);
	size_bad("1e3", -EINVAL);
	size_bad("150KBB", -EINVAL);
}

static void test_length(void **state)
{
	const char *why = NULL;
	uint32_t m = 0;

	(void)state;
	assert_int_equal(rc_parse_length("3m", &m, &why), 0);
	assert_int_equal(m, 3);
	assert_int_equal(rc_parse_length("100m", &m, &why), 0);
	assert_int_equal(m, 100);
	assert_int_equal(rc_parse_length("2km", &m, &why), 0);
	assert_int_equal(m, 2000);
	assert_int_equal(rc_parse_length("1.5km", &m, &why), 0);
	assert_int_equal(m, 1500);
	assert_int_equal(rc_parse_length("0m", &m, &why), -EINVAL);
	assert_string_equal(why, "must be at least 1m");
	assert_int_equal(rc_parse_length("2.5m", &m, &why), -EINVAL);
	assert_string_equal(why, "must be a whole number of metres");
	assert_int_equal(rc_parse_length("-3m", &m, &why), -EINVAL);
	assert_int_equal(rc_parse_length("3", &m, &why), -EINVAL);
	assert_int_equal(rc_parse_length("3M", &m, &why), -EINVAL);
	assert_int_equal(rc_parse_length("3 m", &m, &why), -EINVAL);
	assert_int_equal(rc_parse_length("4294967296m", &m, &why), -ERANGE);
	assert_int_equal(rc_parse_length("4294967295m", &m, &why), 0);
	assert_int_equal(m, UINT32_MAX);
}

static void test_speed(void **state)
{
	const char *why = NULL;
	uint32_t g = 0;

	(void)state;
	assert_int_equal(rc_parse_speed("25G", &g, &why), 0);
	assert_int_equal(g, 25);
	assert_int_equal(rc_parse_speed("400G", &g, &why), 0);
	assert_int_equal(g, 400);
	assert_int_equal(rc_parse_speed("800G", &g, &why), 0);
	assert_int_equal(g, 800);
	assert_int_equal(rc_parse_speed("0G", &g, &why), -EINVAL);
	assert_int_equal(rc_parse_speed("400", &g, &why), -EINVAL);
	assert_int_equal(rc_parse_speed("400Gb", &g, &why), -EINVAL);
	assert_int_equal(rc_parse_speed("2.5G", &g, &why), -EINVAL);
	assert_int_equal(rc_parse_speed("-25G", &g, &why), -EINVAL);
	assert_int_equal(rc_parse_speed("99999999999G", &g, &why), -ERANGE);
}

static void test_duration(void **state)
{
	const char *why = NULL;
	uint64_t us = 0;

	(void)state;
	assert_int_equal(rc_parse_duration("200ms", &us, &why), 0);
	assert_int_equal(us, 200000);
	assert_int_equal(rc_parse_duration("1s", &us, &why), 0);
	assert_int_equal(us, 1000000);
	assert_int_equal(rc_parse_duration("55us", &us, &why), 0);
	assert_int_equal(us, 55);
	assert_int_equal(rc_parse_duration("1.5s", &us, &why), 0);
	assert_int_equal(us, 1500000);
	assert_int_equal(rc_parse_duration("0ms", &us, &why), 0);
	assert_int_equal(us, 0);
	assert_int_equal(rc_parse_duration("0.5us", &us, &why), -EINVAL);
	assert_int_equal(rc_parse_duration("200", &us, &why), -EINVAL);
	assert_int_equal(rc_parse_duration("200m", &us, &why), -EINVAL);
	assert_int_equal(rc_parse_duration("-1s", &us, &why), -EINVAL);
	assert_int_equal(rc_parse_duration("1min", &us, &why), -EINVAL);
}

static void test_percent(void **state)
{
	const char *why = NULL;
	double p = -1;

	(void)state;
	assert_int_equal(rc_parse_percent("100%", &p, &why), 0);
	assert_true(p == 100.0);
	assert_int_equal(rc_parse_percent("5%", &p, &why), 0);
	assert_true(p == 5.0);
	assert_int_equal(rc_parse_percent("0.5%", &p, &why), 0);
	assert_true(p == 0.5);
	assert_int_equal(rc_parse_percent("0%", &p, &why), 0);
	assert_true(p == 0.0);
	assert_int_equal(rc_parse_percent("100", &p, &why), -EINVAL);
	assert_int_equal(rc_parse_percent("-5%", &p, &why), -EINVAL);
	assert_string_equal(why, "must not be negative");
	assert_int_equal(rc_parse_percent("5 %", &p, &why), -EINVAL);
	assert_int_equal(rc_parse_percent("%", &p, &why), -EINVAL);
	assert_int_equal(rc_parse_percent("5%%", &p, &why), -EINVAL);
}

static void check_format(uint64_t bytes, const char *want)
{
	char buf[32];
	uint64_t back = 0;
	const char *why;

	rc_format_size(bytes, buf, sizeof(buf));
	assert_string_equal(buf, want);
	/* Exact: what is printed parses back to the same number of bytes. */
	assert_int_equal(rc_parse_size(buf, &back, &why), 0);
	assert_true(back == bytes);
}

static void test_format_size(void **state)
{
	(void)state;
	check_format(0, "0B");
	check_format(999, "999B");
	check_format(1000, "1KB");
	check_format(150000, "150KB");
	check_format(1500000, "1.5MB");
	check_format(2000000, "2MB");
	check_format(1536, "1.5KiB");
	check_format(159744, "156KiB");
	check_format(2097152, "2MiB");
	check_format(1073741824, "1GiB");
	check_format(1250, "1.25KB");
	check_format(1001, "1001B");
	check_format(1234567, "1234567B");
	check_format(150001, "150001B");
	check_format(UINT64_MAX, "18446744073709551615B");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_size_forms),	cmocka_unit_test(test_size_refused),
	    cmocka_unit_test(test_length),	cmocka_unit_test(test_speed),
	    cmocka_unit_test(test_duration),	cmocka_unit_test(test_percent),
	    cmocka_unit_test(test_format_size),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
