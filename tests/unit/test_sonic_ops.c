/* SPDX-License-Identifier: Apache-2.0 */
/* SONiC write side (drivers/switch/sonic_ops.c): the CONFIG_DB changes and the RFC 6902
 * patch for the Generic Config Updater from recorded switch states, shared maps and
 * profiles checked against every port read, JSON pointer escaping, and GCU's output
 * judged from recorded runs (tests/data/sonic/gcu-*). */
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

/* The policy of the project's examples: DSCP 26 -> 3 lossless, CNP 48 -> 6, ECN on queue 3
 * at 150000/1500000 B and 100 %, watchdog 300 ms drop, 100 m cables. */
static void policy_want(struct port_qos *q)
{
	memset(q, 0, sizeof(*q));
	q->known = RC_F_TRUST | RC_F_DSCP2PRIO | RC_F_PRIO2TC | RC_F_PFC | RC_F_CABLE | RC_F_ECN |
		   RC_F_WATCHDOG;
	q->trust = RC_TRUST_DSCP;
	q->dscp_mask = (1ull << 26) | (1ull << 48);
	q->dscp2prio[26] = 3;
	q->dscp2prio[48] = 6;
	q->prio_mask = (1u << 3) | (1u << 6);
	q->prio2tc[3] = 3;
	q->prio2tc[6] = 6;
	q->pfc_enabled = 1u << 3;
	q->cable_length_m = 100;
	q->ecn_tc_mask = 1u << 3;
	q->ecn[3] = (struct rc_ecn_tc){true, 150000, 1500000, 100};
	q->watchdog = (struct rc_watchdog){true, 300, 300, RC_WD_DROP, 0};
}

struct fixture {
	cJSON *cfg;
	size_t n;
	const char *ports[4];
	struct port_qos have[4], want[4];
	struct sonic_port_info info[4];
	struct rc_port_write w[4];
	struct sonic_peer peers[4];
};

/* Read the ports from cfg_file, want the policy, diff them into writes. */
static void setup(struct fixture *f, const char *cfg_file, size_t n, const char *const *ports)
{
	memset(f, 0, sizeof(*f));
	f->cfg = load_db(cfg_file);
	f->n = n;
	for (size_t i = 0; i < n; i++) {
		struct rc_err err = {0};
		struct rc_changes ch = {0};
		int64_t m;

		f->ports[i] = ports[i];
		if (sonic_parse_port(f->cfg, NULL, ports[i], &f->have[i], &f->info[i], &err))
			fail_msg("%s %s: %s", cfg_file, ports[i], err.msg);
		policy_want(&f->want[i]);
		m = rc_diff_port(ports[i], &f->want[i], &f->have[i], 0, 0, &ch);
		assert_true(m >= 0);
		rc_changes_free(&ch);
		f->w[i] = (struct rc_port_write){ports[i], &f->want[i], &f->have[i], (uint32_t)m};
		f->peers[i] = (struct sonic_peer){ports[i], &f->info[i]};
	}
}

static void teardown(struct fixture *f)
{
	cJSON_Delete(f->cfg);
}

/* The patch op with this path, or NULL. */
static const cJSON *op_at(const cJSON *patch, const char *path)
{
	const cJSON *o;

	cJSON_ArrayForEach(o, patch)
	{
		const cJSON *p = cJSON_GetObjectItem(o, "path");

		if (cJSON_IsString(p) && !strcmp(p->valuestring, path))
			return o;
	}
	return NULL;
}

static void expect_op(const cJSON *patch, const char *op, const char *path, const char *value)
{
	const cJSON *o = op_at(patch, path), *v;

	if (!o) {
		char *s = cJSON_PrintUnformatted(patch);

		fail_msg("no op at %s in %s", path, s);
	}
	assert_string_equal(cJSON_GetObjectItem(o, "op")->valuestring, op);
	v = cJSON_GetObjectItem(o, "value");
	if (value)
		assert_string_equal(v->valuestring, value);
	else
		assert_null(v);
}

static cJSON *patch_of(struct fixture *f, size_t n_writes, struct rc_err *err, int *rc)
{
	struct sonic_ops ops;
	cJSON *patch;

	memset(err, 0, sizeof(*err));
	*rc = sonic_build_ops(f->cfg, f->w, f->info, n_writes, f->peers, f->n, &ops, err);
	if (*rc)
		return NULL;
	patch = sonic_render_patch(&ops, f->cfg, err);
	assert_non_null(patch);
	sonic_ops_free(&ops);
	return patch;
}

static void test_factory_to_lossless(void **state)
{
	static const char *const ports[] = {"Ethernet0", "Ethernet8"};
	struct fixture f;
	struct rc_err err;
	int rc;
	cJSON *patch;
	(void)state;

	setup(&f, "configdb-factory.json", 2, ports);
	/* SONiC's stock map sends DSCP 26 to TC 1: the plan must change it */
	assert_true(f.w[0].fields & RC_F_DSCP2PRIO);
	assert_false(f.w[0].fields & RC_F_TRUST);
	assert_false(f.w[0].fields & RC_F_PRIO2TC);
	patch = patch_of(&f, 2, &err, &rc);
	assert_int_equal(rc, 0);
	expect_op(patch, "replace", "/DSCP_TO_TC_MAP/AZURE/26", "3");
	expect_op(patch, "replace", "/PORT_QOS_MAP/Ethernet0/pfc_enable", "3");
	expect_op(patch, "replace", "/PORT_QOS_MAP/Ethernet0/pfcwd_sw_enable", "3");
	expect_op(patch, "replace", "/PORT_QOS_MAP/Ethernet8/pfc_enable", "3");
	expect_op(patch, "replace", "/CABLE_LENGTH/AZURE/Ethernet0", "100m");
	expect_op(patch, "replace", "/CABLE_LENGTH/AZURE/Ethernet8", "100m");
	/* the shared profile is changed once, for both ports */
	expect_op(patch, "replace", "/WRED_PROFILE/AZURE_LOSSLESS/green_min_threshold", "150000");
	expect_op(patch, "replace", "/WRED_PROFILE/AZURE_LOSSLESS/green_max_threshold", "1500000");
	expect_op(patch, "replace", "/WRED_PROFILE/AZURE_LOSSLESS/green_drop_probability", "100");
	expect_op(patch, "replace", "/PFC_WD/Ethernet0/detection_time", "300");
	expect_op(patch, "replace", "/PFC_WD/Ethernet0/restoration_time", "300");
	assert_null(op_at(patch, "/PFC_WD/Ethernet0/action")); /* already drop */
	assert_null(op_at(patch, "/DSCP_TO_TC_MAP/AZURE/48")); /* already 6 */
	assert_null(op_at(patch, "/WRED_PROFILE/AZURE_LOSSLESS/ecn"));
	/* 2 x (pfc_enable, pfcwd_sw_enable, cable, detection, restoration) + 26 + 3 WRED */
	assert_int_equal(cJSON_GetArraySize(patch), 14);
	cJSON_Delete(patch);
	teardown(&f);
}

static void test_nothing_to_do(void **state)
{
	static const char *const ports[] = {"Ethernet0", "Ethernet8"};
	struct fixture f;
	(void)state;

	setup(&f, "configdb-lossless.json", 2, ports);
	assert_int_equal(f.w[0].fields, 0);
	assert_int_equal(f.w[1].fields, 0);
	teardown(&f);
}

/* A failed apply rolled back half way left PORT_QOS_MAP|Ethernet0 with pfc_enable "3,4"
 * (as before) but pfcwd_sw_enable "3" (as the policy wanted).  Restoring the state read
 * before must bring the watchdog's list back with pfc_enable, though pfc_enable itself
 * reads as wanted. */
static void test_restore_pfcwd_follows_pfc(void **state)
{
	cJSON *cfg = load_db("configdb-factory.json");
	cJSON *pqm = cJSON_GetObjectItem(cJSON_GetObjectItem(cfg, "PORT_QOS_MAP"), "Ethernet0");
	struct port_qos before, have;
	struct sonic_port_info info_before, info;
	struct rc_changes ch = {0};
	struct rc_err err = {0};
	struct sonic_ops ops;
	struct rc_port_write w;
	struct sonic_peer peer;
	cJSON *patch;
	int64_t m;
	(void)state;

	assert_int_equal(sonic_parse_port(cfg, NULL, "Ethernet0", &before, &info_before, &err), 0);
	sonic_effect_pfcwd(&info_before, "Ethernet0", &before);
	assert_int_equal(before.effect.drift, 0); /* the factory's lists agree */
	cJSON_ReplaceItemInObject(pqm, "pfcwd_sw_enable", cJSON_CreateString("3"));
	assert_int_equal(sonic_parse_port(cfg, NULL, "Ethernet0", &have, &info, &err), 0);
	sonic_effect_pfcwd(&info, "Ethernet0", &have);
	assert_int_equal(have.pfc_enabled, before.pfc_enabled);
	assert_true(have.effect.drift & RC_F_PFC);
	assert_non_null(
	    strstr(have.effect.why, "pfcwd_sw_enable 3 does not follow pfc_enable 3,4"));
	m = rc_diff_port("Ethernet0", &before, &have, 0, 0, &ch);
	rc_changes_free(&ch);
	assert_true(m > 0 && (m & RC_F_PFC));
	w = (struct rc_port_write){"Ethernet0", &before, &have, (uint32_t)m};
	peer = (struct sonic_peer){"Ethernet0", &info};
	assert_int_equal(sonic_build_ops(cfg, &w, &info, 1, &peer, 1, &ops, &err), 0);
	patch = sonic_render_patch(&ops, cfg, &err);
	assert_non_null(patch);
	expect_op(patch, "replace", "/PORT_QOS_MAP/Ethernet0/pfcwd_sw_enable", "3,4");
	assert_null(op_at(patch, "/PORT_QOS_MAP/Ethernet0/pfc_enable")); /* already 3,4 */
	cJSON_Delete(patch);
	sonic_ops_free(&ops);
	cJSON_Delete(cfg);
}

static void test_bare_switch_adds_whole_tables(void **state)
{
	static const char *const ports[] = {"Ethernet0"};
	struct fixture f;
	struct rc_err err;
	int rc;
	const cJSON *o, *v;
	cJSON *patch;
	(void)state;

	setup(&f, "configdb-bare.json", 1, ports);
	patch = patch_of(&f, 1, &err, &rc);
	assert_int_equal(rc, 0);
	/* new tables are added whole (a pointer into a missing table would fail) */
	o = op_at(patch, "/DSCP_TO_TC_MAP");
	assert_non_null(o);
	assert_string_equal(cJSON_GetObjectItem(o, "op")->valuestring, "add");
	v = cJSON_GetObjectItem(cJSON_GetObjectItem(o, "value"), "AZURE");
	assert_string_equal(cJSON_GetObjectItem(v, "26")->valuestring, "3");
	assert_string_equal(cJSON_GetObjectItem(v, "48")->valuestring, "6");
	o = op_at(patch, "/PORT_QOS_MAP");
	v = cJSON_GetObjectItem(cJSON_GetObjectItem(o, "value"), "Ethernet0");
	assert_string_equal(cJSON_GetObjectItem(v, "dscp_to_tc_map")->valuestring, "AZURE");
	assert_string_equal(cJSON_GetObjectItem(v, "pfc_enable")->valuestring, "3");
	o = op_at(patch, "/QUEUE");
	v = cJSON_GetObjectItem(cJSON_GetObjectItem(o, "value"), "Ethernet0|3");
	assert_string_equal(cJSON_GetObjectItem(v, "wred_profile")->valuestring, "AZURE_LOSSLESS");
	o = op_at(patch, "/WRED_PROFILE");
	v = cJSON_GetObjectItem(cJSON_GetObjectItem(o, "value"), "AZURE_LOSSLESS");
	assert_string_equal(cJSON_GetObjectItem(v, "ecn")->valuestring, "ecn_all");
	assert_string_equal(cJSON_GetObjectItem(v, "wred_green_enable")->valuestring, "true");
	o = op_at(patch, "/CABLE_LENGTH");
	v = cJSON_GetObjectItem(cJSON_GetObjectItem(o, "value"), "AZURE");
	assert_string_equal(cJSON_GetObjectItem(v, "Ethernet0")->valuestring, "100m");
	o = op_at(patch, "/PFC_WD");
	v = cJSON_GetObjectItem(cJSON_GetObjectItem(o, "value"), "Ethernet0");
	assert_string_equal(cJSON_GetObjectItem(v, "action")->valuestring, "drop");
	cJSON_Delete(patch);
	teardown(&f);
}

static void test_watchdog_off_and_empty_tables(void **state)
{
	static const char *const ports[] = {"Ethernet0"};
	struct fixture f;
	struct rc_err err;
	int rc;
	cJSON *patch;
	(void)state;

	setup(&f, "configdb-lossless.json", 1, ports);
	f.want[0].watchdog.enabled = false;
	f.w[0].fields = RC_F_WATCHDOG;
	patch = patch_of(&f, 1, &err, &rc);
	assert_int_equal(rc, 0);
	/* the entry goes; GLOBAL keeps the table alive */
	expect_op(patch, "remove", "/PFC_WD/Ethernet0", NULL);
	assert_int_equal(cJSON_GetArraySize(patch), 1);
	cJSON_Delete(patch);

	/* unbinding the last wred_profile of an entry that holds other fields: field only */
	f.want[0].ecn[3].enabled = false;
	f.w[0].fields = RC_F_ECN;
	patch = patch_of(&f, 1, &err, &rc);
	assert_int_equal(rc, 0);
	expect_op(patch, "remove", "/QUEUE/Ethernet0|3/wred_profile", NULL);
	cJSON_Delete(patch);
	teardown(&f);
}

static void test_render_removes_emptied(void **state)
{
	cJSON *cfg = cJSON_Parse("{\"PFC_WD\": {\"Ethernet0\": {\"action\": \"drop\"}},"
				 " \"QUEUE\": {\"Ethernet0|3\": {\"wred_profile\": \"W\"},"
				 "             \"Ethernet0|4\": {\"wred_profile\": \"W\"}}}");
	struct sonic_ops ops = {0};
	struct rc_err err = {0};
	cJSON *patch;
	(void)state;

	ops.v = calloc(4, sizeof(*ops.v));
	ops.cap = 4;
	ops.v[ops.n++] = (struct sonic_op){"PFC_WD", "Ethernet0", "", true, "", "Ethernet0", 0};
	ops.v[ops.n++] =
	    (struct sonic_op){"QUEUE", "Ethernet0|3", "wred_profile", true, "", "Ethernet0", 0};
	patch = sonic_render_patch(&ops, cfg, &err);
	/* GCU refuses empty tables: the last entry's removal removes the table; the last
	 * field's removal removes the entry */
	expect_op(patch, "remove", "/PFC_WD", NULL);
	expect_op(patch, "remove", "/QUEUE/Ethernet0|3", NULL);
	assert_int_equal(cJSON_GetArraySize(patch), 2);
	cJSON_Delete(patch);
	sonic_ops_free(&ops);
	cJSON_Delete(cfg);
}

static void test_shared_conflicts(void **state)
{
	static const char *const ports[] = {"Ethernet0", "Ethernet8"};
	struct fixture f;
	struct rc_err err;
	int rc;
	cJSON *patch;
	(void)state;

	/* two ports on one map wanting different classes for DSCP 26 */
	setup(&f, "configdb-factory.json", 2, ports);
	f.want[1].dscp2prio[26] = 4;
	patch = patch_of(&f, 2, &err, &rc);
	assert_null(patch);
	assert_int_equal(rc, -EINVAL);
	assert_non_null(strstr(err.msg, "share DSCP_TO_TC_MAP|AZURE 26"));
	teardown(&f);

	/* a port read but not written that shares the profile: refused, nothing built */
	setup(&f, "configdb-factory.json", 2, ports);
	f.w[1].fields &= ~RC_F_ECN;
	patch = patch_of(&f, 2, &err, &rc);
	assert_null(patch);
	assert_int_equal(rc, -EINVAL);
	assert_non_null(strstr(err.msg, "WRED_PROFILE|AZURE_LOSSLESS"));
	assert_non_null(strstr(err.msg, "'Ethernet8'"));
	teardown(&f);
}

static void test_refusals(void **state)
{
	static const char *const ports[] = {"Ethernet0"};
	struct fixture f;
	struct rc_err err;
	int rc;
	cJSON *patch;
	(void)state;

	/* headroom without a cable length change: not live-changeable here */
	setup(&f, "configdb-lossless.json", 1, ports);
	f.want[0].known |= RC_F_HEADROOM;
	f.want[0].headroom_mask = 1u << 3;
	f.want[0].headroom_bytes[3] = 200000;
	f.w[0].fields = RC_F_HEADROOM;
	patch = patch_of(&f, 1, &err, &rc);
	assert_null(patch);
	assert_int_equal(rc, -EPERM);
	assert_non_null(strstr(err.msg, "headroom[3].bytes: not live-changeable on this platform"));
	/* ... but with one it follows the cable length (buffermgrd) */
	f.want[0].cable_length_m = 300;
	f.w[0].fields = RC_F_HEADROOM | RC_F_CABLE;
	patch = patch_of(&f, 1, &err, &rc);
	assert_int_equal(rc, 0);
	expect_op(patch, "replace", "/CABLE_LENGTH/AZURE/Ethernet0", "300m");
	assert_int_equal(cJSON_GetArraySize(patch), 1);
	cJSON_Delete(patch);

	/* out of SONiC's ranges */
	f.want[0].watchdog.detection_ms = 50;
	f.w[0].fields = RC_F_WATCHDOG;
	patch = patch_of(&f, 1, &err, &rc);
	assert_int_equal(rc, -ERANGE);
	assert_non_null(strstr(err.msg, "100..5000"));
	f.want[0].watchdog.detection_ms = 300;
	f.want[0].ecn[3].kmin_bytes = 2000000;
	f.w[0].fields = RC_F_ECN;
	patch = patch_of(&f, 1, &err, &rc);
	assert_int_equal(rc, -EINVAL);
	teardown(&f);

	/* a port name that would change a pointer or a command */
	setup(&f, "configdb-lossless.json", 1, ports);
	f.w[0].port = "Ethernet0/../x";
	f.w[0].fields = RC_F_PFC;
	patch = patch_of(&f, 1, &err, &rc);
	assert_int_equal(rc, -EINVAL);
	teardown(&f);
}

static void test_poll_interval(void **state)
{
	static const char *const ports[] = {"Ethernet0"};
	struct fixture f;
	struct rc_err err;
	int rc;
	cJSON *patch;
	(void)state;

	/* detection shorter than the polling interval: the interval comes down */
	setup(&f, "configdb-factory.json", 1, ports);
	f.want[0].watchdog.detection_ms = 150;
	f.want[0].watchdog.restoration_ms = 400;
	f.w[0].fields = RC_F_WATCHDOG;
	patch = patch_of(&f, 1, &err, &rc);
	assert_int_equal(rc, 0);
	expect_op(patch, "replace", "/PFC_WD/GLOBAL/POLL_INTERVAL", "150");
	expect_op(patch, "replace", "/PFC_WD/Ethernet0/detection_time", "150");
	cJSON_Delete(patch);
	teardown(&f);
}

static void test_json_pointer(void **state)
{
	char p[64];
	(void)state;

	assert_int_equal(sonic_json_pointer(p, sizeof(p), "QUEUE", "Ethernet0|3", "wred_profile"),
			 0);
	assert_string_equal(p, "/QUEUE/Ethernet0|3/wred_profile");
	assert_int_equal(sonic_json_pointer(p, sizeof(p), "T", "a/b~c", NULL), 0);
	assert_string_equal(p, "/T/a~1b~0c");
	assert_int_equal(sonic_json_pointer(p, sizeof(p), "T", NULL, NULL), 0);
	assert_string_equal(p, "/T");
	assert_int_equal(sonic_json_pointer(p, 8, "TABLE", "Ethernet0", NULL), -ENAMETOOLONG);
}

static void verdict(const char *out_file, const char *err_file, int status, int want_rc,
		    const char *why_part)
{
	size_t ol = 0, el = 0;
	char *o = out_file ? rc_test_fixture("tests/data/sonic", out_file, &ol) : NULL,
	     *e = err_file ? rc_test_fixture("tests/data/sonic", err_file, &el) : NULL;
	char why[400];
	int rc = sonic_gcu_verdict(SONIC_GCU_APPLY, o, ol, e, el, status, why, sizeof(why));

	assert_int_equal(rc, want_rc);
	if (why_part && !strstr(why, why_part))
		fail_msg("'%s' lacks '%s'", why, why_part);
	free(o);
	free(e);
}

static void test_gcu_output(void **state)
{
	char tables[4][RC_NAME_MAX];
	size_t len;
	char *e;
	(void)state;

	verdict("gcu-apply-ok.out", NULL, 0, 0, NULL);
	verdict("gcu-dry-run-ok.out", NULL, 0, 0, NULL);
	verdict("gcu-checkpoint-ok.out", NULL, 0, 0, NULL);
	verdict("gcu-refused.out", "gcu-refused.err", 2, -EIO,
		"Modification of CABLE_LENGTH table is illegal- validating function");
	verdict("gcu-dry-run-ok.out", "gcu-empty-table.err", 2, -EIO,
		"will result in empty tables which is not allowed in ConfigDb. Table: PFC_WD");
	verdict(NULL, "gcu-rollback-missing.err", 2, -EIO, "Checkpoint 'rocectl-1' does not exist");
	verdict(NULL, "gcu-not-root.err", 1, -EIO, "Root privileges are required");
	/* the reason, not the "Failed to ... due to:" wrapper */
	verdict(NULL, "gcu-refused.err", 2, -EIO, NULL);
	{
		char why[400];
		char *x = rc_test_fixture("tests/data/sonic", "gcu-refused.err", &len);

		sonic_gcu_verdict(SONIC_GCU_APPLY, NULL, 0, x, len, 2, why, sizeof(why));
		assert_true(!strncmp(why, "Modification of CABLE_LENGTH", 28));
		free(x);
	}
	/* a silent failure still fails */
	verdict(NULL, NULL, 1, -EIO, "exit status 1");
	/* per-scope wording (202405 on): every scope's reason, scopes kept when several */
	{
		static const char two[] =
		    "Failed to apply patch due to: Failed to apply patch on the following "
		    "scopes:\n- asic0: Modification of PFC_WD table is illegal- x\n- asic1: "
		    "Modification of BUFFER_POOL table is illegal- y\nUsage: config apply-patch\n";
		char why[400];

		assert_int_equal(sonic_gcu_verdict(SONIC_GCU_APPLY, NULL, 0, two, sizeof(two) - 1,
						   2, why, sizeof(why)),
				 -EIO);
		assert_string_equal(why, "asic0: Modification of PFC_WD table is illegal- x; "
					 "asic1: Modification of BUFFER_POOL table is illegal- y");
		assert_int_equal(sonic_gcu_refused_tables(why, strlen(why), tables, 4), 2);
	}

	e = rc_test_fixture("tests/data/sonic", "gcu-refused.err", &len);
	assert_int_equal(sonic_gcu_refused_tables(e, len, tables, 4), 1);
	assert_string_equal(tables[0], "CABLE_LENGTH");
	free(e);
	assert_int_equal(sonic_gcu_refused_tables("Modification of X table", 23, tables, 4), 0);
	assert_int_equal(sonic_gcu_refused_tables("Modification of A table is illegal; "
						  "Modification of B table is illegal",
						  70, tables, 4),
			 2);
	assert_string_equal(tables[1], "B");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_factory_to_lossless),
	    cmocka_unit_test(test_nothing_to_do),
	    cmocka_unit_test(test_restore_pfcwd_follows_pfc),
	    cmocka_unit_test(test_bare_switch_adds_whole_tables),
	    cmocka_unit_test(test_watchdog_off_and_empty_tables),
	    cmocka_unit_test(test_render_removes_emptied),
	    cmocka_unit_test(test_shared_conflicts),
	    cmocka_unit_test(test_refusals),
	    cmocka_unit_test(test_poll_interval),
	    cmocka_unit_test(test_json_pointer),
	    cmocka_unit_test(test_gcu_output),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
