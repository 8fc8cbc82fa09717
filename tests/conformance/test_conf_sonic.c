/* SONiC parsers against real vendor artifacts in $CONFORMANCE_DIR (sonic-buildimage
 * YANG models and SKU files, sonic-utilities outputs; provenance in its README):
 * every SKU's pg_profile_lookup.ini (sonic-buildimage) must read as its rows, and
 * sonic-utilities' `show pfc counters` fixture as its counts.  A missing artifact fails. */
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

static char *artifact(const char *rel, size_t *len)
{
	const char *dir = getenv("CONFORMANCE_DIR");
	char path[1024];
	FILE *f;
	char *buf;
	long n;

	if (!dir || !*dir)
		fail_msg("CONFORMANCE_DIR is not set");
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "rb");
	if (!f)
		fail_msg("missing artifact %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void lookup(const char *sku, size_t rows_expected, uint32_t speed, uint32_t cable,
		   uint32_t up)
{
	char rel[256];
	struct sonic_rows rows;
	struct rc_err err = {0};
	size_t len;
	char *text;

	snprintf(rel, sizeof(rel), "sonic/skus/%s/pg_profile_lookup.ini", sku);
	text = artifact(rel, &len);
	if (sonic_parse_lookup(text, len, rel, &rows, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(rows.n, rows_expected);
	assert_int_equal(sonic_row_up(&rows, speed, cable, NULL), up);
	free(text);
}

static void test_lookup_rows(void **state)
{
	(void)state;
	/* counts and rows as the kit's README lists them */
	lookup("Arista-7060X6-64PE-B-O128", 12, 400000, 100, 150);
	lookup("Arista-7260CX3-D108C8", 9, 50000, 41, 300);
	lookup("Mellanox-SN3800-D112C8", 20, 100000, 300, 300);
	lookup("Mellanox-SN4600C-C64", 20, 100000, 301, 2000);
	lookup("Mellanox-SN5600-O128", 24, 800000, 6, 40);
}

/* rocectl's own rows (used when a switch's file cannot be read) are each kit SKU's lengths,
 * and the file has a row of every one of them at every speed it lists. */
static void test_builtin_rows(void **state)
{
	static const char *const skus[] = {"Arista-7060X6-64PE-B-O128", "Arista-7260CX3-D108C8",
					   "Mellanox-SN3800-D112C8", "Mellanox-SN4600C-C64",
					   "Mellanox-SN5600-O128"};
	(void)state;

	for (size_t k = 0; k < sizeof(skus) / sizeof(skus[0]); k++) {
		struct sonic_rows file, table;
		struct rc_err err = {0};
		char rel[256];
		size_t len, n_speeds = 0;
		uint32_t speeds[16];
		char *text;

		snprintf(rel, sizeof(rel), "sonic/skus/%s/pg_profile_lookup.ini", skus[k]);
		text = artifact(rel, &len);
		if (sonic_parse_lookup(text, len, rel, &file, &err))
			fail_msg("%s", err.msg);
		free(text);
		assert_true(sonic_rows_fallback(NULL, 0, skus[k], &table));
		for (size_t i = 0; i < file.n; i++) {
			bool seen = false, listed = false;

			for (size_t s = 0; s < n_speeds; s++)
				seen |= speeds[s] == file.v[i].speed_mbps;
			if (!seen && n_speeds < 16)
				speeds[n_speeds++] = file.v[i].speed_mbps;
			for (size_t t = 0; t < table.n; t++)
				listed |= table.v[t].cable_m == file.v[i].cable_m;
			if (!listed)
				fail_msg("%s: %um is not in rocectl's rows", skus[k],
					 file.v[i].cable_m);
		}
		for (size_t t = 0; t < table.n; t++)
			for (size_t s = 0; s < n_speeds; s++)
				if (sonic_row_up(&file, speeds[s], table.v[t].cable_m, NULL) !=
				    table.v[t].cable_m)
					fail_msg("%s: no %u Mb/s row at %um", skus[k], speeds[s],
						 table.v[t].cable_m);
		assert_int_equal(file.n, table.n * n_speeds);
	}
}

static void test_pfc_counters(void **state)
{
	struct rc_counters c = {0};
	struct rc_err err = {0};
	size_t len;
	char *text = artifact("sonic/outputs/show_pfc_counters.txt", &len);
	bool rx3 = false, tx0 = false;
	(void)state;

	if (sonic_parse_pfc_counters(text, len, "Ethernet4", &c, &err))
		fail_msg("%s", err.msg);
	for (size_t i = 0; i < c.n; i++) {
		rx3 |= !strcmp(c.v[i].name, "pfc_pause_rx[3]") && c.v[i].value == 403;
		tx0 |= !strcmp(c.v[i].name, "pfc_pause_tx[0]") && c.v[i].value == 1410;
	}
	assert_true(rx3);
	assert_true(tx0);
	rc_counters_free(&c);
	free(text);
}

/* GCU's failure as sonic-utilities prints it from 202405 on, quoted in the commit message
 * of PR #4219 (sonic/gcu/commit-2e9e81c1-gcu-4219.message.txt): "Failed to apply patch due
 * to: Failed to apply patch on the following scopes:" then "- localhost: <reason>".  The
 * verdict must carry the reason (the one scope of a single-ASIC switch dropped), and the
 * refused table must be found in it. */
static void test_gcu_scoped_failure(void **state)
{
	static const char want[] = "Modification of BUFFER_POOL table is illegal- "
				   "validating function generic_config_updater."
				   "field_operation_validators.rdma_config_update_validator "
				   "returned False";
	char why[400], tables[4][RC_NAME_MAX];
	size_t len;
	char *text = artifact("sonic/gcu/commit-2e9e81c1-gcu-4219.message.txt", &len);
	const char *from = strstr(text, "Patch Applier: localhost: Patch application starting.");
	const char *to = from ? strstr(from, "\nValidation for RDMA tables") : NULL;
	(void)state;

	if (!from || !to)
		fail_msg("the example output is not in the commit message");
	/* the whole example as the command's output (stdout and stderr interleaved) */
	assert_int_equal(sonic_gcu_verdict(SONIC_GCU_DRY_RUN, from, (size_t)(to - from), from,
					   (size_t)(to - from), 2, why, sizeof(why)),
			 -EIO);
	assert_string_equal(why, want);
	assert_int_equal(sonic_gcu_refused_tables(why, strlen(why), tables, 4), 1);
	assert_string_equal(tables[0], "BUFFER_POOL");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_lookup_rows),
	    cmocka_unit_test(test_builtin_rows),
	    cmocka_unit_test(test_pfc_counters),
	    cmocka_unit_test(test_gcu_scoped_failure),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
