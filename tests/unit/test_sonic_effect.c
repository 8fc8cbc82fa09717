/* SPDX-License-Identifier: Apache-2.0 */
/* SONiC effects (drivers/switch/sonic_effect.c): the SKU's lookup rows, a cable length
 * buffermgrd has no row for, and a running configuration that differs from startup. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>
#include <cmocka.h>

#include "../../drivers/switch/sonic.h"

/* Arista-7060X6-64PE-B-O128/pg_profile_lookup.ini's first lines, as `cat` prints them */
static const char ini[] = "# PG lossless profiles.\n"
			  "# speed cable size    xon  xoff threshold xon_offset\n"
			  "400000  5m    18796   0    445770  0         3556\n"
			  "400000  30m   8636    0    445770  0         3556\n"
			  "400000  40m   18796   0    445770  0         3556\n"
			  "400000  150m  18796   0    611328  0         3556\n"
			  "100000  5m    18796   0    445770  0         3556\n"
			  "\n";

static void test_rows(void **state)
{
	struct sonic_rows rows;
	struct rc_err err = {0};
	uint32_t below = 99;
	(void)state;

	assert_int_equal(sonic_parse_lookup(ini, strlen(ini), "'cat x'", &rows, &err), 0);
	assert_int_equal(rows.n, 5);
	/* round up to the next row the SKU has */
	assert_int_equal(sonic_row_up(&rows, 400000, 3, &below), 5);
	assert_int_equal(below, 0);
	assert_int_equal(sonic_row_up(&rows, 400000, 30, &below), 30);
	assert_int_equal(below, 5);
	assert_int_equal(sonic_row_up(&rows, 400000, 100, &below), 150);
	assert_int_equal(below, 40);
	assert_int_equal(sonic_row_up(&rows, 400000, 151, NULL), 0);
	assert_int_equal(sonic_row_up(&rows, 100000, 30, NULL), 0);
	/* an unknown shape is an error naming the command */
	assert_int_equal(
	    sonic_parse_lookup("speed cable\n400000 5 1 2 3\n", 28, "'cat x'", &rows, &err),
	    -EPROTO);
	assert_non_null(strstr(err.msg, "'cat x'"));
	assert_int_equal(sonic_parse_lookup("", 0, "'cat x'", &rows, &err), -EPROTO);
	assert_int_equal(sonic_parse_lookup("# only\n", 7, "'cat x'", &rows, &err), -EPROTO);
}

/* No readable lookup file: the inventory's rows win, else the table of the SKUs whose files
 * the project has checked, else unknown.  Fallback rows hold for every speed. */
static void test_rows_fallback(void **state)
{
	static const uint32_t inv[] = {5, 40, 300};
	struct sonic_rows rows;
	uint32_t below = 0;
	(void)state;

	assert_true(sonic_rows_fallback(inv, 3, "Arista-7060X6-64PE-B-O128", &rows));
	assert_int_equal(rows.n, 3);
	assert_string_equal(rows.src, "the inventory's cable_rows");
	assert_int_equal(sonic_row_up(&rows, 400000, 100, &below), 300);
	assert_int_equal(below, 40);
	assert_int_equal(sonic_row_up(&rows, 25000, 6, NULL), 40);
	assert_int_equal(sonic_row_up(&rows, 400000, 301, NULL), 0);
	assert_true(sonic_rows_fallback(NULL, 0, "Arista-7060X6-64PE-B-O128", &rows));
	assert_int_equal(rows.n, 6);
	assert_int_equal(sonic_row_up(&rows, 400000, 100, NULL), 150);
	assert_non_null(strstr(rows.src, "Arista-7060X6-64PE-B-O128"));
	assert_false(sonic_rows_fallback(NULL, 0, "Vendor-Unknown-SKU", &rows));
	assert_int_equal(rows.n, 0);
	assert_false(sonic_rows_fallback(NULL, 0, NULL, &rows));
}

/* What no artifact checks is marked unverified: the dynamic model's headroom and cable
 * effect, and rows the inventory gave; the traditional model with the file's rows is not. */
static void test_unverified(void **state)
{
	static const uint32_t inv[] = {5, 40};
	struct sonic_port_info info;
	struct sonic_rows rows;
	struct port_qos q;
	(void)state;

	memset(&info, 0, sizeof(info));
	memset(&q, 0, sizeof(q));
	rows.n = 1;
	snprintf(rows.src, sizeof(rows.src), "pg_profile_lookup.ini");
	sonic_effect_unverified(&info, &rows, &q);
	assert_int_equal(q.effect.unverified, 0);
	info.buffer_dynamic = true;
	sonic_effect_unverified(&info, &rows, &q);
	assert_int_equal(q.effect.unverified, RC_F_HEADROOM | RC_F_CABLE);
	memset(&q, 0, sizeof(q));
	info.buffer_dynamic = false;
	assert_true(sonic_rows_fallback(inv, 2, NULL, &rows));
	sonic_effect_unverified(&info, &rows, &q);
	assert_int_equal(q.effect.unverified, RC_F_CABLE);
	memset(&q, 0, sizeof(q));
	assert_true(sonic_rows_fallback(NULL, 0, "Mellanox-SN5600-O128", &rows));
	sonic_effect_unverified(&info, &rows, &q);
	assert_int_equal(q.effect.unverified, 0);
}

static void port(struct port_qos *q, struct sonic_port_info *in, uint32_t cable,
		 const char *profile)
{
	memset(q, 0, sizeof(*q));
	memset(in, 0, sizeof(*in));
	q->known = RC_F_CABLE | RC_F_SPEED | RC_F_PFC;
	q->speed_gbps = 400;
	q->cable_length_m = cable;
	q->pfc_enabled = 1u << 3;
	snprintf(in->pg_profile[3], sizeof(in->pg_profile[3]), "%s", profile);
}

static void test_cable_effect(void **state)
{
	struct sonic_rows rows;
	struct rc_err err = {0};
	struct port_qos q;
	struct sonic_port_info in;
	(void)state;

	assert_int_equal(sonic_parse_lookup(ini, strlen(ini), "x", &rows, &err), 0);
	/* the row's profile: in effect; the length stands for (40, 150] */
	port(&q, &in, 150, "pg_lossless_400000_150m_profile");
	sonic_effect_cable(&rows, &in, "Ethernet0", &q);
	assert_int_equal(q.effect.drift, 0);
	assert_true(q.cable_is_row);
	assert_int_equal(q.cable_row_below_m, 40);
	/* 100m has no row: buffermgrd dropped it, the old profile stays */
	port(&q, &in, 100, "pg_lossless_400000_5m_profile");
	sonic_effect_cable(&rows, &in, "Ethernet0", &q);
	assert_int_equal(q.effect.drift, RC_F_CABLE);
	assert_false(q.cable_is_row);
	assert_non_null(strstr(q.effect.why, "pg_lossless_400000_100m_profile"));
	assert_non_null(strstr(q.effect.why, "no lookup row"));
	/* no lossless profile at all */
	port(&q, &in, 40, "");
	sonic_effect_cable(&rows, &in, "Ethernet0", &q);
	assert_int_equal(q.effect.drift, RC_F_CABLE);
	assert_non_null(strstr(q.effect.why, "not lossless"));
	/* rows unknown: the profile is still checked */
	port(&q, &in, 40, "pg_lossless_400000_5m_profile");
	sonic_effect_cable(NULL, &in, "Ethernet0", &q);
	assert_int_equal(q.effect.drift, RC_F_CABLE);
}

static void test_startup(void **state)
{
	struct port_qos run, start;
	(void)state;

	memset(&run, 0, sizeof(run));
	run.known = RC_F_PFC | RC_F_CABLE | RC_F_WATCHDOG;
	run.pfc_enabled = 1u << 3;
	run.cable_length_m = 40;
	start = run;
	sonic_effect_startup(&start, NULL, &run);
	assert_int_equal(run.effect.drift, 0);
	start.pfc_enabled = (1u << 3) | (1u << 4);
	sonic_effect_startup(&start, NULL, &run);
	assert_int_equal(run.effect.drift, RC_F_PFC);
	assert_non_null(strstr(run.effect.why, "running differs from startup"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_rows),       cmocka_unit_test(test_rows_fallback),
	    cmocka_unit_test(test_unverified), cmocka_unit_test(test_cable_effect),
	    cmocka_unit_test(test_startup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
