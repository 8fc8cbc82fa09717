/* SPDX-License-Identifier: Apache-2.0 */
/* Headroom on SONiC's dynamic buffer model (docs/platforms/sonic.md, "Headroom on the dynamic
 * buffer model"): buffermgrd derives it from speed, cable length and MTU, so a computed policy
 * headroom is judged by the effect (a derived profile that absorbs something, in the lossless
 * pool) and rocectl's estimate is shown beside the device's value; an explicit headroom is
 * written as a headroom override (a static lossless profile bound to the PG) and compared
 * exactly.  engine/plan/diff.c decides; drivers/switch/sonic_parse.c and sonic_ops.c read and
 * write. */
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
#include "rocectl/diff.h"
#include "rocectl/headroom.h"

/* One 400G Spectrum-4 port on the dynamic model, PFC on 3,4, PG 3-4 as `pg34`. */
static cJSON *cfg_doc(const char *pg34, const char *extra)
{
	char buf[4096];
	cJSON *j;

	snprintf(
	    buf, sizeof(buf),
	    "{\"DEVICE_METADATA\": {\"localhost\": {\"buffer_model\": \"dynamic\"}},"
	    "\"PORT\": {\"Ethernet0\": {\"speed\": \"400000\", \"mtu\": \"9100\", "
	    "\"admin_status\": \"up\", \"lanes\": \"0,1,2,3\"}},"
	    "\"CABLE_LENGTH\": {\"AZURE\": {\"Ethernet0\": \"7m\"}},"
	    "\"DSCP_TO_TC_MAP\": {\"AZURE\": {\"26\": \"3\"}},"
	    "\"TC_TO_PRIORITY_GROUP_MAP\": {\"AZURE\": {\"0\": \"0\", \"3\": \"3\", \"4\": "
	    "\"4\"}},"
	    "\"PORT_QOS_MAP\": {\"Ethernet0\": {\"dscp_to_tc_map\": \"AZURE\", \"tc_to_pg_map\": "
	    "\"AZURE\", \"pfc_enable\": \"3,4\"}},"
	    "\"BUFFER_POOL\": {\"ingress_lossless_pool\": {\"type\": \"ingress\", \"mode\": "
	    "\"dynamic\"}},"
	    "\"BUFFER_PROFILE\": {\"ingress_lossy_profile\": {\"pool\": "
	    "\"ingress_lossless_pool\", \"size\": \"0\", \"dynamic_th\": \"3\"}%s},"
	    "\"BUFFER_PG\": {\"Ethernet0|0\": {\"profile\": \"ingress_lossy_profile\"}, "
	    "\"Ethernet0|3-4\": {\"profile\": \"%s\"}}}",
	    extra, pg34);
	j = cJSON_Parse(buf);
	assert_non_null(j);
	return j;
}

/* APPL_DB as buffermgrd leaves it: 400G 7m on Spectrum-4, xoff 99328 (the value
 * buffer_headroom_mellanox.lua gives, tests/switch/t2120-sonic-dynbuf.sh), in `pool`. */
static cJSON *appl_doc(const char *pool)
{
	char buf[1024];
	cJSON *j;

	snprintf(buf, sizeof(buf),
		 "{\"BUFFER_PG_TABLE\": {\"Ethernet0:3-4\": {\"profile\": "
		 "\"pg_lossless_400000_7m_profile\"}},"
		 "\"BUFFER_PROFILE_TABLE\": {\"pg_lossless_400000_7m_profile\": {\"xon\": "
		 "\"19456\", \"xoff\": \"99328\", \"size\": \"118784\", \"pool\": \"%s\", "
		 "\"dynamic_th\": \"0\"}}}",
		 pool);
	j = cJSON_Parse(buf);
	assert_non_null(j);
	return j;
}

/* The policy's want for the port: PFC 3,4 and headroom `bytes`, a floor when `is_min`. */
static void want_of(struct port_qos *w, uint64_t bytes, bool is_min)
{
	memset(w, 0, sizeof(*w));
	w->known = RC_F_HEADROOM;
	w->speed_gbps = 400;
	w->cable_length_m = 7;
	w->mtu = 9216;
	w->pfc_enabled = (1u << 3) | (1u << 4);
	w->headroom_mask = w->pfc_enabled;
	w->headroom_bytes[3] = w->headroom_bytes[4] = bytes;
	w->headroom_is_min = is_min;
}

static size_t count(const struct rc_changes *c, enum rc_change_kind k, bool warning)
{
	size_t n = 0;

	for (size_t i = 0; i < c->n; i++)
		n += c->v[i].kind == k && c->v[i].warning == warning;
	return n;
}

static uint64_t estimate_7m(void)
{
	struct rc_headroom h;
	struct rc_err err = {0};

	assert_int_equal(rc_headroom_compute(400, 7, 9216, &h, &err), 0);
	return h.total_bytes;
}

/* The shipped policies' computed headroom (9216-byte frames) is above what the device
 * derives for a 7 m cable: on the dynamic model that is the device's call, in sync, with
 * rocectl's estimate shown as a warning beside the device's xoff.  The same numbers on a
 * device that does not derive headroom (traditional model) stay drift. */
static void test_computed_is_the_device_call(void **state)
{
	struct sonic_port_info info;
	struct port_qos have, want;
	struct rc_changes ch = {0};
	struct rc_err err = {0};
	cJSON *cfg = cfg_doc("NULL", ""), *appl = appl_doc("ingress_lossless_pool");
	uint64_t est = estimate_7m();
	(void)state;

	assert_true(est > 99328);
	assert_int_equal(sonic_parse_port(cfg, appl, "Ethernet0", &have, &info, &err), 0);
	assert_true(have.headroom_dynamic);
	assert_int_equal(have.headroom_derived, (1u << 3) | (1u << 4));
	assert_int_equal(have.headroom_bytes[3], 99328);
	assert_int_equal(have.effect.drift, 0);
	want_of(&want, est, true);
	assert_int_equal(rc_diff_port("Ethernet0", &want, &have, 0, 0, &ch), 0);
	assert_int_equal(count(&ch, RC_CHANGE_SET, false), 0);
	assert_int_equal(count(&ch, RC_CHANGE_UNKNOWN, false), 0);
	assert_int_equal(count(&ch, RC_CHANGE_UNSUPPORTED, true), 2);
	assert_string_equal(ch.v[0].field, "headroom[3].estimate");
	assert_string_equal(ch.v[0].old_value, "99328");
	assert_non_null(strstr(rc_change_note(&ch.v[0]), "99328"));
	rc_changes_fini(&ch);

	/* a derived xoff at or above the estimate: nothing to say */
	have.headroom_bytes[3] = have.headroom_bytes[4] = est;
	assert_int_equal(rc_diff_port("Ethernet0", &want, &have, 0, 0, &ch), 0);
	assert_int_equal(ch.n, 0);
	rc_changes_fini(&ch);

	/* a derived profile that absorbs nothing is drift */
	have.headroom_bytes[3] = 0;
	assert_int_equal(rc_diff_port("Ethernet0", &want, &have, 0, 0, &ch), RC_F_HEADROOM);
	rc_changes_fini(&ch);

	/* the device does not derive it: the estimate is the floor, as before */
	have.headroom_bytes[3] = have.headroom_bytes[4] = 99328;
	have.headroom_dynamic = false;
	assert_int_equal(rc_diff_port("Ethernet0", &want, &have, 0, 0, &ch), RC_F_HEADROOM);
	assert_int_equal(count(&ch, RC_CHANGE_SET, false), 2);
	rc_changes_fini(&ch);
	cJSON_Delete(appl);
	cJSON_Delete(cfg);
}

/* The effect beyond the value: a derived profile outside the lossless pool is drift on
 * headroom; a shared headroom pool not sized yet leaves the headroom unknown (never equal). */
static void test_effect_pool(void **state)
{
	struct sonic_port_info info;
	struct port_qos have, want;
	struct rc_changes ch = {0};
	struct rc_err err = {0};
	cJSON *cfg = cfg_doc("NULL", ""), *appl = appl_doc("ingress_lossy_pool");
	(void)state;

	assert_int_equal(sonic_parse_port(cfg, appl, "Ethernet0", &have, &info, &err), 0);
	assert_int_equal(have.effect.drift, RC_F_HEADROOM);
	assert_non_null(strstr(have.effect.why, "ingress_lossy_pool"));
	want_of(&want, estimate_7m(), true);
	assert_int_equal(rc_diff_port("Ethernet0", &want, &have, 0, 0, &ch), RC_F_HEADROOM);
	rc_changes_fini(&ch);
	cJSON_Delete(appl);
	cJSON_Delete(cfg);

	cfg = cfg_doc("NULL", "");
	cJSON_AddItemToObject(
	    cfg, "DEFAULT_LOSSLESS_BUFFER_PARAMETER",
	    cJSON_Parse("{\"AZURE\": {\"default_dynamic_th\": \"0\", \"over_subscribe_ratio\": "
			"\"2\"}}"));
	appl = appl_doc("ingress_lossless_pool");
	assert_int_equal(sonic_parse_port(cfg, appl, "Ethernet0", &have, &info, &err), 0);
	assert_false(have.headroom_mask & (1u << 3));
	assert_int_equal(rc_diff_port("Ethernet0", &want, &have, 0, 0, &ch), 0);
	assert_int_equal(count(&ch, RC_CHANGE_UNKNOWN, false), 2);
	rc_changes_fini(&ch);
	cJSON_Delete(appl);
	cJSON_Delete(cfg);
}

static const struct sonic_op *find_op(const struct sonic_ops *ops, const char *table,
				      const char *key, const char *field)
{
	for (size_t i = 0; i < ops->n; i++)
		if (!strcmp(ops->v[i].table, table) && !strcmp(ops->v[i].key, key) &&
		    !strcmp(ops->v[i].field, field))
			return &ops->v[i];
	return NULL;
}

/* An explicit headroom: the derived xoff is drift against it, and apply writes an override
 * (pool, xon kept, xoff, size = xon + xoff, dynamic_th kept) bound to PG 3-4; with the
 * shared headroom pool the size is xon.  Read back, the override is compared exactly and is
 * not "derived". */
static void test_explicit_override(void **state)
{
	static const char prof[] =
	    ",\"rocectl_headroom_131072_19456\": {\"pool\": \"ingress_lossless_pool\", \"xon\": "
	    "\"19456\", \"xoff\": \"131072\", \"size\": \"150528\", \"dynamic_th\": \"0\"}";
	struct sonic_port_info info;
	struct port_qos have, want;
	struct rc_changes ch = {0};
	struct rc_port_write w = {"Ethernet0", &want, &have, RC_F_HEADROOM};
	struct sonic_ops ops;
	struct rc_err err = {0};
	const struct sonic_op *o;
	cJSON *cfg = cfg_doc("NULL", ""), *appl = appl_doc("ingress_lossless_pool");
	(void)state;

	assert_int_equal(sonic_parse_port(cfg, appl, "Ethernet0", &have, &info, &err), 0);
	want_of(&want, 131072, false);
	assert_int_equal(rc_diff_port("Ethernet0", &want, &have, 0, 0, &ch), RC_F_HEADROOM);
	rc_changes_fini(&ch);
	assert_int_equal(sonic_build_ops(cfg, &w, &info, 1, NULL, 0, &ops, &err), 0);
	o = find_op(&ops, "BUFFER_PG", "Ethernet0|3-4", "profile");
	assert_non_null(o);
	assert_string_equal(o->value, "rocectl_headroom_131072_19456");
	o = find_op(&ops, "BUFFER_PROFILE", "rocectl_headroom_131072_19456", "size");
	assert_non_null(o);
	assert_string_equal(o->value, "150528");
	assert_non_null(find_op(&ops, "BUFFER_PROFILE", "rocectl_headroom_131072_19456", "pool"));
	assert_string_equal(
	    find_op(&ops, "BUFFER_PROFILE", "rocectl_headroom_131072_19456", "xoff")->value,
	    "131072");
	assert_string_equal(
	    find_op(&ops, "BUFFER_PROFILE", "rocectl_headroom_131072_19456", "dynamic_th")->value,
	    "0");
	sonic_ops_free(&ops);

	/* with the shared headroom pool the override's size is its xon */
	info.shp = true;
	assert_int_equal(sonic_build_ops(cfg, &w, &info, 1, NULL, 0, &ops, &err), 0);
	assert_string_equal(
	    find_op(&ops, "BUFFER_PROFILE", "rocectl_headroom_131072_19456", "size")->value,
	    "19456");
	sonic_ops_free(&ops);
	cJSON_Delete(appl);
	cJSON_Delete(cfg);

	/* applied: CONFIG_DB binds the override, buffermgrd passes it through */
	cfg = cfg_doc("rocectl_headroom_131072_19456", prof);
	assert_int_equal(sonic_parse_port(cfg, NULL, "Ethernet0", &have, &info, &err), 0);
	assert_int_equal(have.headroom_derived, 0);
	assert_int_equal(have.headroom_bytes[3], 131072);
	assert_int_equal(rc_diff_port("Ethernet0", &want, &have, 0, 0, &ch), 0);
	assert_int_equal(ch.n, 0);
	rc_changes_fini(&ch);

	/* back to a computed headroom: the override is drift, and apply takes it off */
	want_of(&want, estimate_7m(), true);
	assert_int_equal(rc_diff_port("Ethernet0", &want, &have, 0, 0, &ch), RC_F_HEADROOM);
	assert_string_equal(ch.v[0].old_value, "131072 (override)");
	rc_changes_fini(&ch);
	assert_int_equal(sonic_build_ops(cfg, &w, &info, 1, NULL, 0, &ops, &err), 0);
	o = find_op(&ops, "BUFFER_PG", "Ethernet0|3-4", "profile");
	assert_non_null(o);
	assert_string_equal(o->value, "NULL");
	sonic_ops_free(&ops);

	/* a journaled state that had the headroom derived is restored as derived, whatever
	 * bytes it had then */
	want_of(&want, 98304, false);
	want.headroom_derived = (1u << 3) | (1u << 4);
	assert_int_equal(rc_diff_port("Ethernet0", &want, &have, 0, 0, &ch), RC_F_HEADROOM);
	rc_changes_fini(&ch);
	assert_int_equal(sonic_build_ops(cfg, &w, &info, 1, NULL, 0, &ops, &err), 0);
	assert_string_equal(find_op(&ops, "BUFFER_PG", "Ethernet0|3-4", "profile")->value, "NULL");
	sonic_ops_free(&ops);
	cJSON_Delete(cfg);
	cfg = cfg_doc("NULL", "");
	appl = appl_doc("ingress_lossless_pool");
	assert_int_equal(sonic_parse_port(cfg, appl, "Ethernet0", &have, &info, &err), 0);
	assert_int_equal(rc_diff_port("Ethernet0", &want, &have, 0, 0, &ch), 0);
	assert_int_equal(ch.n, 0);
	rc_changes_fini(&ch);
	cJSON_Delete(appl);
	cJSON_Delete(cfg);
}

/* dynamic_th is copied into an override profile: only an integer (sonic-buffer-profile.yang),
 * never a lone sign or trailing garbage from the device. */
static void test_dynamic_th_is_an_integer(void **state)
{
	static const struct {
		const char *read, *kept;
	} cases[] = {{"0", "0"}, {"-7", "-7"}, {"-", ""}, {"", ""}, {"3x", ""}, {"--1", ""}};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct sonic_port_info info;
		struct port_qos have;
		struct rc_err err = {0};
		cJSON *cfg = cfg_doc("NULL", ""), *appl = appl_doc("ingress_lossless_pool");
		cJSON *prof = cJSON_GetObjectItemCaseSensitive(
		    cJSON_GetObjectItemCaseSensitive(appl, "BUFFER_PROFILE_TABLE"),
		    "pg_lossless_400000_7m_profile");

		cJSON_ReplaceItemInObjectCaseSensitive(prof, "dynamic_th",
						       cJSON_CreateString(cases[i].read));
		assert_int_equal(sonic_parse_port(cfg, appl, "Ethernet0", &have, &info, &err), 0);
		assert_string_equal(info.pg_th[3], cases[i].kept);
		cJSON_Delete(appl);
		cJSON_Delete(cfg);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_computed_is_the_device_call),
	    cmocka_unit_test(test_effect_pool),
	    cmocka_unit_test(test_explicit_override),
	    cmocka_unit_test(test_dynamic_th_is_an_integer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
