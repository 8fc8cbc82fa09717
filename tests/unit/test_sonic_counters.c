/* SPDX-License-Identifier: Apache-2.0 */
/* SONiC's show pfc counters into counters named by meaning (sonic_counters.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../drivers/switch/sonic.h"
#include "rocectl/driver.h"

static const char table[] =
    "  Port Rx    PFC0    PFC1    PFC2    PFC3    PFC4    PFC5    PFC6    PFC7\n"
    "---------  ------  ------  ------  ------  ------  ------  ------  ------\n"
    "Ethernet0       0       0       0   1,234       0       0       0       0\n"
    "Ethernet4       0       0       0       9       0       0       0       0\n"
    "\n"
    "  Port Tx    PFC0    PFC1    PFC2    PFC3    PFC4    PFC5    PFC6    PFC7\n"
    "---------  ------  ------  ------  ------  ------  ------  ------  ------\n"
    "Ethernet0       0       0       0       5     N/A       0       0       0\n";

static const struct rc_counter *find(const struct rc_counters *c, const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].name, name))
			return &c->v[i];
	return NULL;
}

static void test_pfc_tables(void **state)
{
	struct rc_counters c = {0};
	struct rc_err err = {0};
	const struct rc_counter *e;

	(void)state;
	assert_int_equal(sonic_parse_pfc_counters(table, strlen(table), "Ethernet0", &c, &err), 0);
	assert_int_equal(c.n, 15); /* 8 rx + 7 tx (N/A skipped) */
	e = find(&c, "pfc_pause_rx[3]");
	assert_non_null(e);
	assert_int_equal(e->value, 1234);
	assert_string_equal(e->source, "sonic:show pfc counters rx PFC3");
	assert_string_equal(e->port, "Ethernet0");
	assert_int_equal(find(&c, "pfc_pause_tx[3]")->value, 5);
	assert_null(find(&c, "pfc_pause_tx[4]"));
	rc_counters_free(&c);
	/* a port is matched whole: Ethernet4 is not Ethernet40 */
	assert_int_equal(sonic_parse_pfc_counters(table, strlen(table), "Ethernet4", &c, &err), 0);
	assert_int_equal(find(&c, "pfc_pause_rx[3]")->value, 9);
	rc_counters_free(&c);
}

static void test_hostile_output(void **state)
{
	static const char *const bad[] = {"", "Error: no such command\n", "Ethernet0 1 2 3\n"};
	static const char overflow[] = "Port Rx PFC0 PFC1 PFC2\n"
				       "Ethernet0 99999999999999999999999 7x 3\n"
				       "Port Tx PFC0 PFC1 PFC2\n"
				       "Ethernet0 0 0 0\n";
	struct rc_counters c = {0};
	struct rc_err err = {0};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_true(
		    sonic_parse_pfc_counters(bad[i], strlen(bad[i]), "Ethernet0", &c, &err) < 0);
		assert_non_null(strstr(err.msg, "has no Port Rx table"));
		rc_counters_free(&c);
	}
	/* a cell that is not a number is skipped, never read as one */
	assert_int_equal(
	    sonic_parse_pfc_counters(overflow, strlen(overflow), "Ethernet0", &c, &err), 0);
	assert_int_equal(c.n, 4);
	assert_string_equal(c.v[0].name, "pfc_pause_rx[2]");
	rc_counters_free(&c);
	/* not NUL-terminated: only `len` bytes are read, and 40 of them are a cut answer */
	assert_true(sonic_parse_pfc_counters(table, 40, "Ethernet0", &c, &err) < 0);
	rc_counters_free(&c);
	/* a row short of cells, or the Tx table missing: cut, an error */
	assert_true(sonic_parse_pfc_counters(table, strlen(table) - 20, "Ethernet0", &c, &err) < 0);
	assert_non_null(strstr(err.msg, "truncated"));
	rc_counters_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_pfc_tables),
	    cmocka_unit_test(test_hostile_output),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
