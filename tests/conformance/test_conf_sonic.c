/* SPDX-License-Identifier: Apache-2.0 */
/* SONiC parsers against real vendor artifacts in $CONFORMANCE_DIR (sonic-buildimage
 * YANG models and SKU files, sonic-utilities outputs; provenance in its README):
 * every SKU's pg_profile_lookup.ini (sonic-buildimage) must read as its rows,
 * sonic-utilities' `show pfc counters` fixture as its counts, its queue, WRED/ECN and PG-drop
 * tables as the COUNTERS_DB they were printed from, and `show lldp table` as its rows.  A
 * missing artifact fails. */
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
#include "../unit/testutil.h"

static void lookup(const char *sku, size_t rows_expected, uint32_t speed, uint32_t cable,
		   uint32_t up)
{
	char rel[256];
	struct sonic_rows rows;
	struct rc_err err = {0};
	size_t len;
	char *text;

	snprintf(rel, sizeof(rel), "sonic/skus/%s/pg_profile_lookup.ini", sku);
	text = rc_test_artifact(rel, &len);
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
		text = rc_test_artifact(rel, &len);
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
	char *text = rc_test_artifact("sonic/outputs/show_pfc_counters.txt", &len);
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

/* The counter behind a queue's (or PG's) table cell, from the kit's COUNTERS_DB mock
 * (sonic/mock_tables/counters_db.json): NAME_MAP["<port>:<i>"] -> oid, COUNTERS:<oid>.<field>.
 * -1 when the DB has no such counter (the CLI prints N/A), -2 for a queue that is not
 * unicast. */
static long long db_counter(const cJSON *db, const char *map, const char *port, unsigned i,
			    const char *field)
{
	char key[64];
	const cJSON *oid, *type, *v;

	snprintf(key, sizeof(key), "%s:%u", port, i);
	oid = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(db, map), key);
	if (!cJSON_IsString(oid))
		return -1;
	type = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(db, "COUNTERS_QUEUE_TYPE_MAP"), oid->valuestring);
	if (!strcmp(map, "COUNTERS_QUEUE_NAME_MAP") &&
	    (!cJSON_IsString(type) || strcmp(type->valuestring, "SAI_QUEUE_TYPE_UNICAST")))
		return -2;
	snprintf(key, sizeof(key), "COUNTERS:%s", oid->valuestring);
	v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(db, key), field);
	return cJSON_IsString(v) ? atoll(v->valuestring) : -1;
}

static const struct rc_counter *counter_named(const struct rc_counters *c, const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].name, name))
			return &c->v[i];
	return NULL;
}

/* One table of sonic-utilities' expected outputs against COUNTERS_DB: every counter the
 * parser gives for `port` is the DB's value, every unicast queue 0-7 (or PG) the DB has is
 * there, and a counter the DB lacks is "not countable" (N/A), never 0. */
static void
check_table(const cJSON *db, const char *file, const char *port,
	    int (*parse)(const char *, size_t, const char *, struct rc_counters *, struct rc_err *),
	    const char *map, const char *const *names, const char *const *fields, size_t nf)
{
	struct rc_counters c = {0};
	struct rc_err err = {0};
	size_t len, checked = 0;
	char *text = rc_test_artifact(file, &len);

	if (parse(text, len, port, &c, &err))
		fail_msg("%s: %s", file, err.msg);
	for (unsigned i = 0; i < 8; i++)
		for (size_t f = 0; f < nf; f++) {
			char name[48];
			long long want = db_counter(db, map, port, i, fields[f]);
			const struct rc_counter *e;

			snprintf(name, sizeof(name), names[f], i);
			e = counter_named(&c, name);
			if (want == -2)
				continue;
			if (!e)
				fail_msg("%s %s: no %s", file, port, name);
			if (want == -1 ? !e->not_enabled
				       : e->not_enabled || e->value != (uint64_t)want)
				fail_msg("%s %s %s: %llu, COUNTERS_DB says %lld", file, port, name,
					 (unsigned long long)e->value, want);
			checked++;
		}
	assert_true(checked >= nf);
	rc_counters_free(&c);
	free(text);
}

static void test_queue_and_pg_counters(void **state)
{
	static const char *const wred_names[] = {"wred_discards[%u]", "ecn_marked[%u]"};
	static const char *const wred_fields[] = {"SAI_QUEUE_STAT_WRED_DROPPED_PACKETS",
						  "SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS"};
	static const char *const q_names[] = {"egress_queue_discards[%u]"};
	static const char *const q_fields[] = {"SAI_QUEUE_STAT_DROPPED_PACKETS"};
	static const char *const pg_names[] = {"pg_discards[%u]"};
	static const char *const pg_fields[] = {"SAI_INGRESS_PRIORITY_GROUP_STAT_DROPPED_PACKETS"};
	static const char *const ports[] = {"Ethernet0", "Ethernet4", "Ethernet8"};
	size_t len;
	char *text = rc_test_artifact("sonic/mock_tables/counters_db.json", &len);
	cJSON *db = cJSON_ParseWithLength(text, len);
	(void)state;

	assert_non_null(db);
	for (size_t p = 0; p < 3; p++) {
		check_table(db, "sonic/outputs/show_queue_wredcounters.txt", ports[p],
			    sonic_parse_wred_counters, "COUNTERS_QUEUE_NAME_MAP", wred_names,
			    wred_fields, 2);
		check_table(db, "sonic/outputs/show_queue_counters.txt", ports[p],
			    sonic_parse_queue_counters, "COUNTERS_QUEUE_NAME_MAP", q_names,
			    q_fields, 1);
		check_table(db, "sonic/outputs/show_priority-group_drop_counters.txt", ports[p],
			    sonic_parse_pg_drops, "COUNTERS_PG_NAME_MAP", pg_names, pg_fields, 1);
	}
	cJSON_Delete(db);
	free(text);
}

/* A table cut short is an error naming the command, never a number read from half a
 * cell: the kit's PG drop table cut inside Ethernet8's row ("... 101    1" of "102"), and
 * cut at the end of that row before its newline. */
static void test_truncated_tables_fail(void **state)
{
	struct rc_counters c = {0};
	struct rc_err err = {0};
	size_t len;
	char *text = rc_test_artifact("sonic/outputs/show_priority-group_drop_counters.txt", &len);
	const char *row = strstr(text, "Ethernet8");
	const char *cut;
	(void)state;

	assert_non_null(row);
	cut = strstr(row, "102");
	assert_non_null(cut);
	assert_int_not_equal(
	    sonic_parse_pg_drops(text, (size_t)(cut - text) + 1, "Ethernet8", &c, &err), 0);
	assert_non_null(strstr(err.msg, "show priority-group drop counters"));
	rc_counters_free(&c);
	memset(&c, 0, sizeof(c));
	assert_true(len > 0 && text[len - 1] == '\n');
	assert_int_not_equal(sonic_parse_pg_drops(text, len - 1, "Ethernet8", &c, &err), 0);
	assert_non_null(strstr(err.msg, "no newline"));
	rc_counters_free(&c);
	memset(&c, 0, sizeof(c));
	assert_int_equal(sonic_parse_pg_drops(text, len, "Ethernet8", &c, &err), 0);
	rc_counters_free(&c);
	free(text);

	/* `show pfc counters` cut after its Rx table, and inside Ethernet4's Tx row */
	text = rc_test_artifact("sonic/outputs/show_pfc_counters.txt", &len);
	cut = strstr(text, "  Port Tx");
	assert_non_null(cut);
	memset(&c, 0, sizeof(c));
	assert_int_not_equal(
	    sonic_parse_pfc_counters(text, (size_t)(cut - text), "Ethernet4", &c, &err), 0);
	assert_non_null(strstr(err.msg, "no Port Tx table"));
	rc_counters_free(&c);
	cut = strstr(cut, "1,410");
	assert_non_null(cut);
	memset(&c, 0, sizeof(c));
	assert_int_not_equal(
	    sonic_parse_pfc_counters(text, (size_t)(cut - text) + 3, "Ethernet4", &c, &err), 0);
	assert_non_null(strstr(err.msg, "truncated"));
	rc_counters_free(&c);
	free(text);
}

/* `show lldp table` as lldpshow prints it (sonic/outputs/show_lldp_table.2macs.txt, whose
 * input is sonic/lldp/lldpctl_xml.2macs.xml): two neighbours on one port, colon MAC port
 * IDs; and with the System Name taken out of the same row (what lldpshow prints for a peer
 * without one, sonic/FACTS.md fact 10: a blank cell), the row is still read, the device
 * empty. */
static void test_lldp_table(void **state)
{
	struct rc_neighbors nb = {0};
	struct rc_err err = {0};
	size_t len;
	char *text = rc_test_artifact("sonic/outputs/show_lldp_table.2macs.txt", &len);
	char *dummy = strstr(text, "Ethernet0    dummy   ");
	(void)state;

	assert_int_equal(sonic_parse_lldp(text, len, "leaf", &nb, &err), 0);
	assert_int_equal(nb.n, 2);
	assert_string_equal(nb.v[0].port, "Ethernet0");
	assert_string_equal(nb.v[0].device, "dummy");
	assert_string_equal(nb.v[0].remote_port, "00:00:00:00:00:01");
	assert_string_equal(nb.v[1].remote_port, "00:00:00:00:00:02");
	rc_neighbors_fini(&nb);
	assert_non_null(dummy);
	memcpy(dummy + 13, "     ", 5); /* the RemoteDevice cell, blank */
	assert_int_equal(sonic_parse_lldp(text, len, "leaf", &nb, &err), 0);
	assert_int_equal(nb.n, 2);
	assert_string_equal(nb.v[0].device, "");
	assert_string_equal(nb.v[0].remote_port, "00:00:00:00:00:01");
	assert_string_equal(nb.v[1].device, "dummy");
	rc_neighbors_fini(&nb);
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
	char *text = rc_test_artifact("sonic/gcu/commit-2e9e81c1-gcu-4219.message.txt", &len);
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
	    cmocka_unit_test(test_queue_and_pg_counters),
	    cmocka_unit_test(test_truncated_tables_fail),
	    cmocka_unit_test(test_lldp_table),
	    cmocka_unit_test(test_gcu_scoped_failure),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
