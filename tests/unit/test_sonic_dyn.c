/* SPDX-License-Identifier: Apache-2.0 */
/* SONiC's two buffer models as the driver reads them (drivers/switch/sonic_parse.c,
 * sonic_effect.c, sonic_ops.c): the headroom compared is xoff in both (plus the shared
 * headroom pool's bound on the dynamic model), the cable length's effect is CONFIG_DB's
 * profile name on the traditional model and APPL_DB's on the dynamic one, and a lossless
 * priority needs a "NULL" BUFFER_PG on the dynamic model. */
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

/* The CONFIG_DB shared by the cases: one 400G port, PFC on TC 3 (and 4), AZURE maps with
 * TC 6 on PG 6 so that a priority can lack a PG. */
static const char cfg_common[] =
    "\"PORT\": {\"Ethernet0\": {\"speed\": \"400000\", \"mtu\": \"9100\", \"admin_status\": "
    "\"up\", \"lanes\": \"0,1,2,3\"}},"
    "\"DSCP_TO_TC_MAP\": {\"AZURE\": {\"26\": \"3\", \"48\": \"6\"}},"
    "\"TC_TO_PRIORITY_GROUP_MAP\": {\"AZURE\": {\"0\": \"0\", \"3\": \"3\", \"4\": \"4\", "
    "\"6\": \"6\"}},"
    "\"TC_TO_QUEUE_MAP\": {\"AZURE\": {\"3\": \"3\", \"6\": \"6\"}},"
    "\"PORT_QOS_MAP\": {\"Ethernet0\": {\"dscp_to_tc_map\": \"AZURE\", \"tc_to_pg_map\": "
    "\"AZURE\", \"tc_to_queue_map\": \"AZURE\", \"pfc_enable\": \"3,4\"}},"
    "\"PFC_WD\": {\"GLOBAL\": {\"POLL_INTERVAL\": \"200\"}},";

static cJSON *doc(const char *model, const char *cable, const char *rest)
{
	char buf[4096];
	cJSON *j;

	snprintf(buf, sizeof(buf),
		 "{%s\"DEVICE_METADATA\": {\"localhost\": {\"buffer_model\": \"%s\"}},"
		 "\"CABLE_LENGTH\": {\"AZURE\": {\"Ethernet0\": \"%s\"}}%s}",
		 cfg_common, model, cable, rest);
	j = cJSON_Parse(buf);
	assert_non_null(j);
	return j;
}

/* The traditional model: a Broadcom lookup row's profile (Arista-7260CX3-D108C8's 100G/5m:
 * size 1248, xoff 54080) counts with its xoff, and a cable length the PG did not follow
 * (the PG still on the 5m profile) is drift. */
static void test_traditional(void **state)
{
	static const char bufs[] =
	    ",\"BUFFER_POOL\": {\"ingress_lossless_pool\": {\"type\": \"ingress\", \"mode\": "
	    "\"dynamic\", \"size\": \"1000000\"}},"
	    "\"BUFFER_PROFILE\": {\"pg_lossless_400000_5m_profile\": {\"pool\": "
	    "\"ingress_lossless_pool\", \"size\": \"1248\", \"xon\": \"1248\", \"xoff\": "
	    "\"54080\", \"dynamic_th\": \"0\"}},"
	    "\"BUFFER_PG\": {\"Ethernet0|3-4\": {\"profile\": \"pg_lossless_400000_5m_profile\"}}";
	struct sonic_port_info info;
	struct port_qos q;
	struct rc_err err = {0};
	cJSON *cfg = doc("traditional", "5m", bufs);
	(void)state;

	assert_int_equal(sonic_parse_port(cfg, NULL, "Ethernet0", &q, &info, &err), 0);
	assert_false(info.buffer_dynamic);
	assert_true(q.headroom_mask & (1u << 3));
	assert_int_equal(q.headroom_bytes[3], 54080);
	sonic_effect_cable(NULL, &info, "Ethernet0", &q);
	assert_int_equal(q.effect.drift, 0);
	cJSON_Delete(cfg);

	cfg = doc("traditional", "40m", bufs);
	assert_int_equal(sonic_parse_port(cfg, NULL, "Ethernet0", &q, &info, &err), 0);
	sonic_effect_cable(NULL, &info, "Ethernet0", &q);
	assert_int_equal(q.effect.drift, RC_F_CABLE);
	assert_non_null(strstr(q.effect.why, "pg_lossless_400000_40m_profile"));
	cJSON_Delete(cfg);
}

/* APPL_DB as buffermgrd leaves it for Ethernet0's PGs 3-4 (profile names as
 * getDynamicProfileName makes them; values of buffer_headroom_mellanox.lua on Spectrum-4,
 * 400G: 7m without the shared pool, 5m with it, size = xon). */
static cJSON *appl(const char *profile, const char *size, const char *pool_xoff)
{
	char buf[1024];
	cJSON *j;

	snprintf(buf, sizeof(buf),
		 "{\"BUFFER_PG_TABLE\": {\"Ethernet0:3-4\": {\"profile\": \"%s\"}},"
		 "\"BUFFER_PROFILE_TABLE\": {\"%s\": {\"xon\": \"19456\", \"xoff\": \"98304\", "
		 "\"size\": \"%s\", \"pool\": \"ingress_lossless_pool\", \"dynamic_th\": \"0\"}}"
		 "%s%s%s}",
		 profile, profile, size,
		 pool_xoff ? ",\"BUFFER_POOL_TABLE\": {\"ingress_lossless_pool\": {\"xoff\": \""
			   : "",
		 pool_xoff ? pool_xoff : "", pool_xoff ? "\"}}" : "");
	j = cJSON_Parse(buf);
	assert_non_null(j);
	return j;
}

static const char dyn_bufs[] =
    ",\"BUFFER_POOL\": {\"ingress_lossless_pool\": {\"type\": \"ingress\", \"mode\": "
    "\"dynamic\"}},"
    "\"BUFFER_PROFILE\": {\"ingress_lossy_profile\": {\"pool\": \"ingress_lossless_pool\", "
    "\"size\": \"0\", \"dynamic_th\": \"3\"}},"
    "\"BUFFER_PG\": {\"Ethernet0|0\": {\"profile\": \"ingress_lossy_profile\"}, "
    "\"Ethernet0|3-4\": {\"profile\": \"NULL\"}}";

/* The dynamic model without the shared headroom pool: APPL_DB's profile, its xoff; any
 * cable length is fine when the profile follows it, drift when it does not. */
static void test_dynamic(void **state)
{
	struct sonic_port_info info;
	struct port_qos q;
	struct rc_err err = {0};
	cJSON *cfg = doc("dynamic", "7m", dyn_bufs);
	cJSON *a = appl("pg_lossless_400000_7m_profile", "117760", NULL);
	(void)state;

	assert_int_equal(sonic_parse_port(cfg, a, "Ethernet0", &q, &info, &err), 0);
	assert_true(info.buffer_dynamic);
	assert_false(info.shp);
	assert_int_equal(q.cable_length_m, 7);
	assert_int_equal(q.headroom_bytes[3], 98304);
	assert_int_equal(q.headroom_bytes[4], 98304);
	sonic_effect_cable(NULL, &info, "Ethernet0", &q);
	assert_int_equal(q.effect.drift, 0);
	/* a non-default MTU adds a part after the cable: still the 7m profile */
	cJSON_Delete(a);
	a = appl("pg_lossless_400000_7m_mtu1500_profile", "117760", NULL);
	assert_int_equal(sonic_parse_port(cfg, a, "Ethernet0", &q, &info, &err), 0);
	sonic_effect_cable(NULL, &info, "Ethernet0", &q);
	assert_int_equal(q.effect.drift, 0);
	cJSON_Delete(cfg);

	/* CONFIG_DB says 40m, APPL_DB still has the 7m profile */
	cfg = doc("dynamic", "40m", dyn_bufs);
	assert_int_equal(sonic_parse_port(cfg, a, "Ethernet0", &q, &info, &err), 0);
	sonic_effect_cable(NULL, &info, "Ethernet0", &q);
	assert_int_equal(q.effect.drift, RC_F_CABLE);
	assert_non_null(strstr(q.effect.why, "did not follow"));
	assert_non_null(strstr(q.effect.why, "pg_lossless_400000_40m_"));
	cJSON_Delete(a);

	/* no APPL_DB entry at all (port admin down): drift, headroom unknown */
	assert_int_equal(sonic_parse_port(cfg, NULL, "Ethernet0", &q, &info, &err), 0);
	assert_false(q.headroom_mask & (1u << 3));
	sonic_effect_cable(NULL, &info, "Ethernet0", &q);
	assert_int_equal(q.effect.drift, RC_F_CABLE);
	assert_non_null(strstr(q.effect.why, "no profile"));
	cJSON_Delete(cfg);
}

/* The dynamic model with the shared headroom pool (over_subscribe_ratio): the profile's
 * size is xon, and a PG absorbs its xoff only as far as the pool's xoff (APPL_DB) goes. */
static void test_dynamic_shp(void **state)
{
	char bufs[sizeof(dyn_bufs) + 256];
	struct sonic_port_info info;
	struct port_qos q;
	struct rc_err err = {0};
	cJSON *cfg, *a;
	(void)state;

	snprintf(bufs, sizeof(bufs),
		 "%s,\"DEFAULT_LOSSLESS_BUFFER_PARAMETER\": {\"AZURE\": {\"default_dynamic_th\": "
		 "\"0\", \"over_subscribe_ratio\": \"2\"}}",
		 dyn_bufs);
	cfg = doc("dynamic", "5m", bufs);
	a = appl("pg_lossless_400000_5m_profile", "19456", "655360");
	assert_int_equal(sonic_parse_port(cfg, a, "Ethernet0", &q, &info, &err), 0);
	assert_true(info.shp);
	assert_int_equal(info.shp_bytes, 655360);
	assert_int_equal(q.headroom_bytes[3], 98304); /* xoff, not size (19456) */
	cJSON_Delete(a);
	a = appl("pg_lossless_400000_5m_profile", "19456", "40960");
	assert_int_equal(sonic_parse_port(cfg, a, "Ethernet0", &q, &info, &err), 0);
	assert_int_equal(q.headroom_bytes[3], 40960); /* bounded by the pool */
	cJSON_Delete(a);
	a = appl("pg_lossless_400000_5m_profile", "19456", NULL);
	assert_int_equal(sonic_parse_port(cfg, a, "Ethernet0", &q, &info, &err), 0);
	assert_false(q.headroom_mask & (1u << 3)); /* pool size unknown */
	cJSON_Delete(a);
	cJSON_Delete(cfg);
}

/* PFC on TC 6 in the dynamic model: no BUFFER_PG lists PG 6, which is drift on PFC, and
 * the writer adds BUFFER_PG|Ethernet0|6 "NULL"; the traditional model's writer does not
 * (its buffermgrd makes PGs from pfc_enable). */
static void test_dynamic_pg_written(void **state)
{
	struct sonic_port_info info;
	struct port_qos have, want;
	struct rc_port_write w;
	struct sonic_ops ops;
	struct rc_err err = {0};
	cJSON *cfg = doc("dynamic", "5m", dyn_bufs);
	cJSON *a = appl("pg_lossless_400000_5m_profile", "117760", NULL);
	bool found = false;
	(void)state;

	assert_int_equal(sonic_parse_port(cfg, a, "Ethernet0", &have, &info, &err), 0);
	want = have;
	want.pfc_enabled = (1u << 3) | (1u << 6);
	have.pfc_enabled = want.pfc_enabled; /* as if read so */
	sonic_effect_cable(NULL, &info, "Ethernet0", &have);
	assert_int_equal(have.effect.drift, RC_F_PFC);
	assert_non_null(strstr(have.effect.why, "PG 6"));

	memset(&w, 0, sizeof(w));
	w.port = "Ethernet0";
	w.have = &have;
	w.want = &want;
	w.fields = RC_F_PFC;
	assert_int_equal(sonic_build_ops(cfg, &w, &info, 1, NULL, 0, &ops, &err), 0);
	for (size_t i = 0; i < ops.n; i++)
		if (!strcmp(ops.v[i].table, "BUFFER_PG") && !strcmp(ops.v[i].key, "Ethernet0|6") &&
		    !strcmp(ops.v[i].value, "NULL"))
			found = true;
	assert_true(found);
	sonic_ops_free(&ops);

	/* PG 0 is lossy: TC 0 cannot be made lossless there */
	want.pfc_enabled = 1u << 0;
	assert_int_equal(sonic_build_ops(cfg, &w, &info, 1, NULL, 0, &ops, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "ingress_lossy_profile"));
	cJSON_Delete(a);
	cJSON_Delete(cfg);

	cfg = doc("traditional", "5m", "");
	assert_int_equal(sonic_parse_port(cfg, NULL, "Ethernet0", &have, &info, &err), 0);
	want = have;
	want.pfc_enabled = (1u << 3) | (1u << 6);
	assert_int_equal(sonic_build_ops(cfg, &w, &info, 1, NULL, 0, &ops, &err), 0);
	for (size_t i = 0; i < ops.n; i++)
		assert_string_not_equal(ops.v[i].table, "BUFFER_PG");
	sonic_ops_free(&ops);
	cJSON_Delete(cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_traditional),
	    cmocka_unit_test(test_dynamic),
	    cmocka_unit_test(test_dynamic_shp),
	    cmocka_unit_test(test_dynamic_pg_written),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
