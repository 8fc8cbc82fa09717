/* SPDX-License-Identifier: Apache-2.0 */
/* The network plugin's ABI check (support/registry.c): a driver compiled for another
 * rocectl version is not registered, and the load error names both versions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rocectl/driver.h"

static const struct rc_driver other = {.name = "abi-other"};
static const struct rc_driver same = {.name = "abi-same"};

static void test_other_version_refused(void **state)
{
	const char *e;

	(void)state;
	rc_driver_register_checked(&other, "0.0.0-other");
	e = rc_driver_load_error();
	assert_non_null(e);
	assert_non_null(strstr(e, "driver 'abi-other' was built for rocectl 0.0.0-other, this is "
				  "rocectl " ROCECTL_VERSION));
	/* no plugin may be found either: ROCECTL_PLUGIN names nothing */
	assert_null(rc_driver_find("abi-other"));
}

static void test_same_version_registered(void **state)
{
	(void)state;
	rc_driver_register_checked(&same, ROCECTL_VERSION);
	assert_ptr_equal(rc_driver_find("abi-same"), &same);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_other_version_refused),
	    cmocka_unit_test(test_same_version_registered),
	};

	setenv("ROCECTL_PLUGIN", "/nonexistent/rocectl-net.so", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
