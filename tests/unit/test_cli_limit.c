/* SPDX-License-Identifier: Apache-2.0 */
/* --limit (engine/run/limit.c): names, roles, ranges, globs and '!' exclusions over an
 * inventory built by hand; a term that matches nothing is refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rocectl/fleet.h"

#define N_GPU 20

static struct rc_device devs[N_GPU + 3];
static struct rc_inventory inv = {.devices = devs};

static int setup(void **state)
{
	(void)state;
	memset(devs, 0, sizeof(devs));
	for (int i = 0; i < N_GPU; i++) {
		snprintf(devs[i].name, sizeof(devs[i].name), "gpu%03d", i + 1);
		devs[i].kind = RC_DEV_HOST;
		devs[i].role = RC_ROLE_HOST;
	}
	snprintf(devs[N_GPU].name, sizeof(devs[0].name), "leaf01");
	snprintf(devs[N_GPU + 1].name, sizeof(devs[0].name), "leaf02");
	snprintf(devs[N_GPU + 2].name, sizeof(devs[0].name), "spine01");
	for (int i = N_GPU; i < N_GPU + 3; i++)
		devs[i].kind = RC_DEV_SWITCH;
	devs[N_GPU].role = devs[N_GPU + 1].role = RC_ROLE_LEAF;
	devs[N_GPU + 2].role = RC_ROLE_SPINE;
	inv.n_devices = N_GPU + 3;
	return 0;
}

/* The selected names, comma-separated, or "ERR: message". */
static const char *pick(const char *limit)
{
	static char out[1024];
	bool sel[N_GPU + 3];
	struct rc_err err = {0};
	size_t o = 0;

	if (rc_limit_select(&inv, limit, sel, &err)) {
		snprintf(out, sizeof(out), "ERR: %s", err.msg);
		return out;
	}
	out[0] = '\0';
	for (size_t i = 0; i < inv.n_devices; i++)
		if (sel[i])
			o += (size_t)snprintf(out + o, sizeof(out) - o, "%s%s", o ? "," : "",
					      devs[i].name);
	return out;
}

static void test_names_and_roles(void **state)
{
	(void)state;
	assert_string_equal(pick("leaf01,gpu002"), "gpu002,leaf01");
	assert_string_equal(pick("spine"), "spine01");
	assert_string_equal(pick("switch"), "leaf01,leaf02,spine01");
	assert_int_equal(strlen(pick(NULL)), strlen(pick("")));
	assert_int_equal(strlen(pick("")), 20 * 7 + 7 * 2 + 7);
}

static void test_ranges(void **state)
{
	(void)state;
	assert_string_equal(pick("gpu[001-003]"), "gpu001,gpu002,gpu003");
	assert_string_equal(pick("gpu[018-025]"), "gpu018,gpu019,gpu020");
	/* the inventory's spelling: gpu[1-3] names gpu1..gpu3, none of which exists */
	assert_string_equal(pick("gpu[1-3]"),
			    "ERR: --limit: 'gpu[1-3]' is neither a device nor a role, and matches "
			    "no device name");
	assert_string_equal(pick("leaf[01-02],spine"), "leaf01,leaf02,spine01");
}

static void test_globs(void **state)
{
	(void)state;
	assert_string_equal(pick("leaf*"), "leaf01,leaf02");
	assert_string_equal(pick("gpu01?"), "gpu010,gpu011,gpu012,gpu013,gpu014,gpu015,gpu016,"
					    "gpu017,gpu018,gpu019");
	assert_string_equal(pick("*01"), "gpu001,leaf01,spine01");
	assert_string_equal(pick("gpu0[12]0"), "gpu010,gpu020");
}

static void test_exclusions(void **state)
{
	(void)state;
	assert_string_equal(pick("switch,!leaf02"), "leaf01,spine01");
	/* exclusions win wherever they stand */
	assert_string_equal(pick("!leaf02,switch"), "leaf01,spine01");
	assert_string_equal(pick("gpu[001-020],!gpu[002-019]"), "gpu001,gpu020");
	/* only exclusions: everything else */
	assert_string_equal(pick("!host,!spine"), "leaf01,leaf02");
	assert_string_equal(pick("!gpu*,!leaf*"), "spine01");
}

static void test_refused(void **state)
{
	(void)state;
	assert_string_equal(pick("leaf03"),
			    "ERR: --limit: 'leaf03' is neither a device nor a role, and matches "
			    "no device name");
	assert_string_equal(pick("!tor*"),
			    "ERR: --limit: 'tor*' is neither a device nor a role, and matches no "
			    "device name");
	assert_string_equal(pick("leaf01,,spine"),
			    "ERR: --limit: an empty name in 'leaf01,,spine'");
	assert_string_equal(pick("!"), "ERR: --limit: '!' needs a name after it");
	assert_string_equal(pick("gpu[003-001]"),
			    "ERR: --limit: 'gpu[003-001]' is neither a device nor a role, and "
			    "matches no device name");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(test_names_and_roles, setup),
	    cmocka_unit_test_setup(test_ranges, setup),
	    cmocka_unit_test_setup(test_globs, setup),
	    cmocka_unit_test_setup(test_exclusions, setup),
	    cmocka_unit_test_setup(test_refused, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
