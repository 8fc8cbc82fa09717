/* SPDX-License-Identifier: Apache-2.0 */
/* SONiC read side (drivers/switch/sonic_parse.c) fed recorded outputs from
 * tests/data/sonic/: `sonic-db-cli HGETALL` Python dicts, the factory CONFIG_DB (AZURE
 * templates: DSCP 26 -> TC 1), the state after a lossless apply, the dynamic buffer model
 * with APPL_DB, legitimate variants, and truncated and hostile documents. */
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
#include "testutil.h"

static cJSON *load_db(const char *name)
{
	struct rc_err err = {0};
	size_t len;
	char *buf = rc_test_fixture("tests/data/sonic", name, &len);
	cJSON *j = NULL;

	if (sonic_parse_configdb(buf, len, name, &j, &err))
		fail_msg("%s: %s", name, err.msg);
	free(buf);
	return j;
}

static int parse(const char *cfg_file, const char *appl_file, const char *port, struct port_qos *q,
		 struct sonic_port_info *info, struct rc_err *err)
{
	cJSON *cfg = load_db(cfg_file), *appl = appl_file ? load_db(appl_file) : NULL;
	int rc;

	memset(err, 0, sizeof(*err));
	rc = sonic_parse_port(cfg, appl, port, q, info, err);
	cJSON_Delete(cfg);
	cJSON_Delete(appl);
	return rc;
}

static void parse_ok(const char *cfg_file, const char *appl_file, const char *port,
		     struct port_qos *q, struct sonic_port_info *info)
{
	struct rc_err err;

	if (parse(cfg_file, appl_file, port, q, info, &err))
		fail_msg("%s: %s", cfg_file, err.msg);
	/* every group a switch policy pins is known or declared not controllable */
	assert_int_equal(q->known & q->unsupported, 0);
	assert_int_equal(q->known & (RC_F_TRUST | RC_F_DSCP2PRIO | RC_F_PRIO2TC | RC_F_PFC |
				     RC_F_CABLE | RC_F_ECN | RC_F_HEADROOM | RC_F_WATCHDOG),
			 RC_F_TRUST | RC_F_DSCP2PRIO | RC_F_PRIO2TC | RC_F_PFC | RC_F_CABLE |
			     RC_F_ECN | RC_F_HEADROOM | RC_F_WATCHDOG);
	assert_true(q->unsupported & RC_F_ETS);
}

static void parse_fails(const char *cfg_file, const char *port, const char *msg_part)
{
	struct port_qos q;
	struct sonic_port_info in;
	struct rc_err err;
	int rc = parse(cfg_file, NULL, port, &q, &in, &err);

	if (rc >= 0)
		fail_msg("%s: accepted", cfg_file);
	if (!strstr(err.msg, msg_part))
		fail_msg("%s: message '%s' lacks '%s'", cfg_file, err.msg, msg_part);
}

/* ---- Python dicts ---- */

static cJSON *pydict(const char *file, struct rc_err *err, int *rc)
{
	size_t len;
	char *buf = rc_test_fixture("tests/data/sonic", file, &len);
	cJSON *j = NULL;

	memset(err, 0, sizeof(*err));
	*rc = sonic_parse_pydict(buf, len, file, &j, err);
	free(buf);
	return j;
}

static void test_pydict(void **state)
{
	struct rc_err err;
	int rc;
	cJSON *j;
	(void)state;

	j = pydict("hgetall-port-qos-map.txt", &err, &rc);
	assert_int_equal(rc, 0);
	assert_string_equal(cJSON_GetObjectItem(j, "pfc_enable")->valuestring, "3,4");
	assert_string_equal(cJSON_GetObjectItem(j, "dscp_to_tc_map")->valuestring, "AZURE");
	assert_int_equal(cJSON_GetArraySize(j), 5);
	cJSON_Delete(j);

	j = pydict("hgetall-empty.txt", &err, &rc);
	assert_int_equal(rc, 0);
	assert_int_equal(cJSON_GetArraySize(j), 0);
	cJSON_Delete(j);

	/* double quotes when the text holds a single quote; \\, \t, \xe9, \u2713 */
	j = pydict("hgetall-escapes.txt", &err, &rc);
	assert_int_equal(rc, 0);
	assert_string_equal(cJSON_GetObjectItem(j, "description")->valuestring, "it's a \\ path");
	assert_string_equal(cJSON_GetObjectItem(j, "alias")->valuestring, "etp1\tx");
	assert_string_equal(cJSON_GetObjectItem(j, "note")->valuestring,
			    "caf\xc3\xa9 \xe2\x9c\x93");
	cJSON_Delete(j);
}

static void test_pydict_hostile(void **state)
{
	static const struct {
		const char *file, *msg;
	} cases[] = {
	    {"hgetall-truncated.txt", "unterminated string (truncated?)"},
	    {"hgetall-number.txt", "a quoted string"},
	    {"hgetall-duplicate.txt", "duplicate field 'a'"},
	    {"hgetall-nul.txt", "non-NUL"},
	    {"hgetall-hscan.txt", "'{'"},
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rc_err err;
		int rc;
		cJSON *j = pydict(cases[i].file, &err, &rc);

		assert_null(j);
		assert_int_equal(rc, -EPROTO);
		if (!strstr(err.msg, cases[i].msg))
			fail_msg("%s: '%s' lacks '%s'", cases[i].file, err.msg, cases[i].msg);
	}
}

static void test_pydict_lines(void **state)
{
	struct rc_err err = {0};
	size_t len;
	char *buf = rc_test_fixture("tests/data/sonic", "hgetall-lines.txt", &len);
	cJSON *docs[4];
	(void)state;

	assert_int_equal(sonic_parse_pydict_lines(buf, len, "x", docs, 3, &err), 0);
	assert_string_equal(cJSON_GetObjectItem(docs[0], "pfc_enable")->valuestring, "3");
	assert_int_equal(cJSON_GetArraySize(docs[1]), 0);
	assert_string_equal(cJSON_GetObjectItem(docs[2], "POLL_INTERVAL")->valuestring, "200");
	for (int i = 0; i < 3; i++)
		cJSON_Delete(docs[i]);
	/* a missing or an extra answer is an error, and nothing is returned */
	assert_int_equal(sonic_parse_pydict_lines(buf, len, "x", docs, 4, &err), -EPROTO);
	assert_non_null(strstr(err.msg, "4 answers expected, the output has 3"));
	assert_null(docs[0]);
	assert_int_equal(sonic_parse_pydict_lines(buf, len, "x", docs, 2, &err), -EPROTO);
	assert_null(docs[1]);
	free(buf);
}

/* ---- CONFIG_DB -> model ---- */

static void test_factory(void **state)
{
	struct port_qos q;
	struct sonic_port_info in;
	(void)state;

	parse_ok("configdb-factory.json", NULL, "Ethernet0", &q, &in);
	assert_int_equal(q.trust, RC_TRUST_DSCP);
	/* SONiC's stock map sends DSCP 26 to TC 1 (lossy) and CNPs (48) to 6 */
	assert_int_equal(q.dscp2prio[26], 1);
	assert_int_equal(q.dscp2prio[48], 6);
	assert_int_equal(q.dscp2prio[3], 3);
	assert_int_equal(q.dscp_mask, ~0ull);
	assert_int_equal(q.prio2tc[3], 3);
	assert_int_equal(q.prio2tc[6], 6);
	assert_int_equal(q.pfc_enabled, (1u << 3) | (1u << 4));
	assert_int_equal(q.cable_length_m, 40);
	assert_string_equal(in.cable_key, "AZURE");
	/* AZURE_LOSSLESS on queues 3 and 4: 1 MiB / 2 MiB at 5 % */
	assert_true(q.ecn[3].enabled);
	assert_int_equal(q.ecn[3].kmin_bytes, 1048576);
	assert_int_equal(q.ecn[3].kmax_bytes, 2097152);
	assert_true(q.ecn[3].pmax_pct == 5.0);
	assert_false(q.ecn[0].enabled);
	assert_string_equal(in.wred[3], "AZURE_LOSSLESS");
	assert_string_equal(in.queue_key[3], "Ethernet0|3");
	assert_string_equal(in.wred[0], "");
	/* the lossless PG 3-4 profile's xoff, not its size (xon + xoff) */
	assert_true(q.headroom_mask & (1u << 3));
	assert_int_equal(q.headroom_bytes[3], 38912);
	assert_int_equal(q.headroom_bytes[4], 38912);
	assert_string_equal(in.pg_profile[3], "pg_lossless_100000_40m_profile");
	assert_true(q.watchdog.enabled);
	assert_int_equal(q.watchdog.detection_ms, 200);
	assert_int_equal(q.watchdog.restoration_ms, 200);
	assert_int_equal(q.watchdog.action, RC_WD_DROP);
	assert_int_equal(q.watchdog.fixed, 0);
	assert_int_equal(in.wd_poll_ms, 200);
	assert_int_equal(q.speed_gbps, 100);
	assert_int_equal(q.mtu, 9100);
	assert_false(q.known & RC_F_MTU);
	assert_true(q.known & RC_F_SPEED);
	assert_string_equal(in.dscp_map, "AZURE");
	assert_false(in.dscp_map_global);
	assert_true(in.pfcwd_sw_field);
	assert_false(in.buffer_dynamic);
}

static void test_lossless(void **state)
{
	struct port_qos q;
	struct sonic_port_info in;
	(void)state;

	parse_ok("configdb-lossless.json", NULL, "Ethernet8", &q, &in);
	assert_int_equal(q.dscp2prio[26], 3);
	assert_int_equal(q.pfc_enabled, 1u << 3);
	assert_int_equal(q.cable_length_m, 100);
	assert_int_equal(q.ecn[3].kmin_bytes, 150000);
	assert_int_equal(q.ecn[3].kmax_bytes, 1500000);
	assert_true(q.ecn[3].pmax_pct == 100.0);
	assert_int_equal(q.headroom_bytes[3], 52224);
	/* PG 4 lost its lossless profile with pfc_enable 3: TC 4 now maps to PG 4, none */
	assert_false(q.headroom_mask & (1u << 4));
	assert_int_equal(q.watchdog.detection_ms, 300);
}

static void test_dynamic_buffers(void **state)
{
	struct port_qos q;
	struct sonic_port_info in;
	struct rc_err err;
	(void)state;

	/* CONFIG_DB says NULL: the profile buffermgrd computed is in APPL_DB */
	parse_ok("configdb-dynamic.json", "appl-dynamic.json", "Ethernet0", &q, &in);
	assert_true(in.buffer_dynamic);
	assert_int_equal(q.headroom_bytes[3], 53248);
	/* older releases reference it as [BUFFER_PROFILE_TABLE:name] */
	parse_ok("configdb-dynamic.json", "appl-dynamic.json", "Ethernet8", &q, &in);
	assert_int_equal(q.headroom_bytes[3], 53248);
	assert_string_equal(in.pg_profile[3], "pg_lossless_100000_40m_profile");
	/* without APPL_DB the headroom is unknown, never guessed */
	assert_int_equal(parse("configdb-dynamic.json", NULL, "Ethernet0", &q, &in, &err), 0);
	assert_false(q.headroom_mask & (1u << 3));
}

static void test_bare_switch(void **state)
{
	struct port_qos q;
	struct sonic_port_info in;
	(void)state;

	/* no QoS tables: SAI classifies everything into TC 0, no PFC, no marking */
	parse_ok("configdb-bare.json", NULL, "Ethernet0", &q, &in);
	assert_int_equal(q.trust, RC_TRUST_UNSET);
	assert_int_equal(q.dscp2prio[26], 0);
	assert_int_equal(q.prio2tc[3], 3);
	assert_int_equal(q.pfc_enabled, 0);
	assert_int_equal(q.cable_length_m, 0);
	assert_false(q.ecn[3].enabled);
	assert_int_equal(q.headroom_mask, 0);
	assert_false(q.watchdog.enabled);
	assert_false(in.qos_entry);
	assert_string_equal(in.cable_key, "");
}

static void test_variants(void **state)
{
	struct port_qos q;
	struct sonic_port_info in;
	(void)state;

	/* the switch-wide map applies to a port that binds none */
	parse_ok("variant-global-map.json", NULL, "Ethernet0", &q, &in);
	assert_int_equal(q.trust, RC_TRUST_DSCP);
	assert_true(in.dscp_map_global);
	assert_int_equal(q.dscp2prio[26], 1);
	/* a queue range key "3-4" holds queue 3 */
	parse_ok("variant-queue-range.json", NULL, "Ethernet0", &q, &in);
	assert_string_equal(in.queue_key[3], "Ethernet0|3-4");
	assert_string_equal(in.queue_key[4], "Ethernet0|3-4");
	assert_true(q.ecn[4].enabled);
	/* alert only logs: traffic flows as with forward */
	parse_ok("variant-wd-alert.json", NULL, "Ethernet0", &q, &in);
	assert_int_equal(q.watchdog.action, RC_WD_FORWARD);
}

static void test_hostile(void **state)
{
	(void)state;
	parse_fails("hostile-pfc-enable.json", "Ethernet0",
		    "PORT_QOS_MAP|Ethernet0 pfc_enable: expected a list of priorities 0-7 like "
		    "'3,4', got '3,9'");
	parse_fails("hostile-map-name.json", "Ethernet0",
		    "dscp_to_tc_map: expected a map or profile name, got 'AZURE;reboot'");
	parse_fails("hostile-dscp-value.json", "Ethernet0", "DSCP_TO_TC_MAP|AZURE 26");
	parse_fails("hostile-dscp-key.json", "Ethernet0", "expected fields 0..63");
	parse_fails("hostile-number-type.json", "Ethernet0",
		    "WRED_PROFILE|AZURE_LOSSLESS green_min_threshold: expected a string");
	parse_fails("hostile-threshold-huge.json", "Ethernet0", "green_min_threshold");
	parse_fails("hostile-cable.json", "Ethernet0", "got '40 m'");
	parse_fails("hostile-wd-action.json", "Ethernet0", "drop, forward or alert");
	parse_fails("hostile-table-list.json", "Ethernet0", "table PORT_QOS_MAP is not an object");
	parse_fails("hostile-profile-name.json", "Ethernet0", "got '../../etc/passwd'");
	parse_fails("hostile-ecn-mode.json", "Ethernet0", "ecn_maybe");
	parse_fails("hostile-no-port.json", "Ethernet0", "port 'Ethernet0' does not exist");
	parse_fails("hostile-leading-zero.json", "Ethernet0", "detection_time");
	/* the other port of those documents is unaffected where the damage is per port */
	{
		struct port_qos q;
		struct sonic_port_info in;

		parse_ok("hostile-pfc-enable.json", NULL, "Ethernet8", &q, &in);
		assert_int_equal(q.pfc_enabled, 0x18);
	}
	/* a port name that could change a command is refused before anything is looked at */
	parse_fails("configdb-factory.json", "Ethernet0;reboot", "not a valid SONiC port name");
}

static void test_configdb_text(void **state)
{
	struct rc_err err = {0};
	size_t len;
	char *buf = rc_test_fixture("tests/data/sonic", "configdb-truncated.json", &len);
	cJSON *j = NULL;
	(void)state;

	assert_int_equal(
	    sonic_parse_configdb(buf, len, "'show runningconfiguration all'", &j, &err), -EPROTO);
	assert_null(j);
	assert_non_null(strstr(err.msg, "truncated?"));
	free(buf);
	assert_int_equal(sonic_parse_configdb("[1]", 3, "x", &j, &err), -EPROTO);
	assert_non_null(strstr(err.msg, "object of CONFIG_DB tables"));
	assert_int_equal(sonic_parse_configdb("", 0, "x", &j, &err), -EPROTO);
}

/* A Broadcom lookup row reserves a small size beside a large xoff (Arista-7060X6-64PE-B-O128's
 * pg_profile_lookup.ini, 100000 150m: size 18796, xoff 611328): the headroom is the xoff. */
static void test_headroom_is_xoff(void **state)
{
	struct port_qos q;
	struct sonic_port_info in;
	(void)state;

	parse_ok("configdb-broadcom-row.json", NULL, "Ethernet8", &q, &in);
	assert_true(q.headroom_mask & (1u << 3));
	assert_int_equal(q.headroom_bytes[3], 611328);
	assert_int_equal(q.cable_length_m, 150);
	/* a lossy PG absorbs nothing after XOFF */
	assert_int_equal(q.headroom_bytes[0], 0);
}

/* `show runningconfiguration all` shapes (sonic-utilities, single- and multi-ASIC). */
static void test_shapes(void **state)
{
	struct port_qos q;
	struct sonic_port_info in;
	struct rc_err err = {0};
	size_t len;
	char *buf;
	cJSON *j = NULL;
	(void)state;

	/* single ASIC: FRR's configuration rides along as a "bgpraw" string */
	parse_ok("configdb-bgpraw.json", NULL, "Ethernet8", &q, &in);
	assert_int_equal(q.dscp2prio[26], 3);
	/* multi-ASIC: one CONFIG_DB per namespace; refused by name */
	buf = rc_test_fixture("tests/data/sonic", "configdb-multi-asic.json", &len);
	assert_int_equal(
	    sonic_parse_configdb(buf, len, "'show runningconfiguration all'", &j, &err), -ENOTSUP);
	assert_null(j);
	assert_non_null(strstr(err.msg, "'show runningconfiguration all'"));
	assert_non_null(strstr(err.msg, "multi-ASIC"));
	assert_non_null(strstr(err.msg, "asic0, asic1"));
	free(buf);
	/* VOQ chassis QUEUE keys: a clear error naming the table and key */
	assert_int_equal(parse("configdb-voq.json", NULL, "Ethernet8", &q, &in, &err), -EPROTO);
	assert_non_null(strstr(err.msg, "QUEUE|sonic-lc1|asic0|Ethernet8|"));
	assert_non_null(strstr(err.msg, "VOQ"));
}

static void test_names(void **state)
{
	(void)state;
	assert_true(sonic_name_ok("Ethernet0"));
	assert_true(sonic_name_ok("pg_lossless_100000_5m_profile"));
	assert_true(sonic_name_ok("scheduler.1"));
	assert_false(sonic_name_ok(""));
	assert_false(sonic_name_ok("-x"));
	assert_false(sonic_name_ok("a/b"));
	assert_false(sonic_name_ok("a|b"));
	assert_false(sonic_name_ok("a b"));
	assert_false(sonic_name_ok("a'b"));
	assert_false(sonic_name_ok("a~b"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_pydict),	 cmocka_unit_test(test_pydict_hostile),
	    cmocka_unit_test(test_pydict_lines), cmocka_unit_test(test_factory),
	    cmocka_unit_test(test_lossless),	 cmocka_unit_test(test_dynamic_buffers),
	    cmocka_unit_test(test_bare_switch),	 cmocka_unit_test(test_variants),
	    cmocka_unit_test(test_hostile),	 cmocka_unit_test(test_configdb_text),
	    cmocka_unit_test(test_names),	 cmocka_unit_test(test_headroom_is_xoff),
	    cmocka_unit_test(test_shapes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
