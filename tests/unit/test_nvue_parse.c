/* SPDX-License-Identifier: Apache-2.0 */
/* NVUE read side (drivers/switch/nvue_parse.c) fed recorded outputs from tests/data/nvue/:
 * factory defaults of two releases, RoCE mode, custom profiles, older spellings, the
 * quantized per-interface view, and truncated and hostile documents. */
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

#include "../../drivers/switch/nvue.h"
#include "testutil.h"

static cJSON *load(const char *name)
{
	struct rc_err err = {0};
	size_t len;
	char *buf = rc_test_fixture("tests/data/nvue", name, &len);
	cJSON *j = NULL;

	if (nvue_parse_json(buf, len, name, &j, &err))
		fail_msg("%s: %s", name, err.msg);
	free(buf);
	return j;
}

/* Parse qos file + interface file (NULL = none); returns rc, fills q/info/err. */
static int parse(const char *qos_file, const char *if_file, struct port_qos *q,
		 struct nvue_port_info *info, struct rc_err *err)
{
	cJSON *qos = load(qos_file), *ifq = if_file ? load(if_file) : NULL;
	int rc;

	memset(err, 0, sizeof(*err));
	rc = nvue_parse_port(&(struct nvue_views){qos, qos, qos, ifq}, q, info, err);
	cJSON_Delete(qos);
	cJSON_Delete(ifq);
	return rc;
}

static void parse_ok(const char *qos_file, const char *if_file, struct port_qos *q,
		     struct nvue_port_info *info)
{
	struct rc_err err;

	if (parse(qos_file, if_file, q, info, &err))
		fail_msg("%s + %s: %s", qos_file, if_file ? if_file : "-", err.msg);
	/* whatever was read, every group a switch policy pins is either known or declared
	 * not controllable: the diff must never have to guess */
	assert_int_equal(q->known & q->unsupported, 0);
	assert_true(q->known & RC_F_PFC);
	assert_true(q->unsupported & RC_F_HEADROOM);
}

static void test_factory_defaults(void **state)
{
	const char *files[] = {"qos-factory-5.14.json", "qos-factory-5.15.json"};
	(void)state;

	for (size_t f = 0; f < 2; f++) {
		struct port_qos q;
		struct nvue_port_info in;

		parse_ok(files[f], "if-empty.json", &q, &in);
		assert_int_equal(q.trust, RC_TRUST_PCP); /* default-global trusts l2 */
		assert_int_equal(q.dscp_mask, ~0ull);
		assert_int_equal(q.dscp2prio[26], 3);
		assert_int_equal(q.dscp2prio[48], 6);
		assert_int_equal(q.dscp2prio[63], 7);
		assert_int_equal(q.pfc_enabled, 0);
		assert_false(in.pfc_profile_exists);
		assert_int_equal(q.cable_length_m, 10);
		assert_int_equal(q.prio2tc[3], 3);
		assert_int_equal(q.prio2tc[6], 6);
		/* TC 0 marks at 150000/1500000 out of the box; TC 3 does not mark */
		assert_true(q.ecn[0].enabled);
		assert_int_equal(q.ecn[0].kmin_bytes, 150000);
		assert_int_equal(q.ecn[0].kmax_bytes, 1500000);
		assert_false(q.ecn[3].enabled);
		assert_int_equal(q.ets.tsa[3], RC_TSA_DWRR);
		assert_int_equal(q.ets.bw_pct[3], 13);
		assert_int_equal(q.ets.bw_pct[0], 12);
		assert_false(q.watchdog.enabled);
		assert_int_equal(q.watchdog.detection_ms, 300);
		assert_false(in.roce_mode);
		assert_string_equal(in.prof[NVUE_PROF_PFC], "default-global");
	}
}

static void test_lossless_config(void **state)
{
	struct port_qos q;
	struct nvue_port_info in;
	(void)state;

	parse_ok("qos-lossless.json", NULL, &q, &in);
	assert_int_equal(q.trust, RC_TRUST_DSCP);
	assert_int_equal(q.pfc_enabled, 1u << 3);
	assert_true(in.pfc_profile_exists);
	assert_int_equal(q.cable_length_m, 100);
	assert_true(q.ecn[3].enabled);
	assert_int_equal(q.ecn[3].kmin_bytes, 150000);
	assert_int_equal(q.ecn[3].kmax_bytes, 1500000);
	assert_true(q.ecn[3].pmax_pct == 100.0);
}

/* The interface view carries what the ASIC was programmed with (Spectrum rounds 150000 B
 * up to 159744 B): that is what verify must compare, with the policy's tolerance. */
static void test_interface_view_quantized(void **state)
{
	struct port_qos q;
	struct nvue_port_info in;
	(void)state;

	parse_ok("qos-lossless.json", "if-lossless-quantized.json", &q, &in);
	assert_int_equal(q.ecn[3].kmin_bytes, 159744);
	assert_int_equal(q.ecn[3].kmax_bytes, 1505280);
	assert_true(q.watchdog.enabled);
	assert_int_equal(q.pfc_enabled, 1u << 3);
	assert_int_equal(q.cable_length_m, 100);

	/* the interface view wins over the profile: it says PFC is off on this port */
	parse_ok("qos-lossless.json", "if-default.json", &q, &in);
	assert_int_equal(q.pfc_enabled, 0);
	assert_int_equal(q.trust, RC_TRUST_PCP);
}

static void test_sparse_config(void **state)
{
	struct port_qos q;
	struct nvue_port_info in;
	(void)state;

	/* only what was set is there; the rest is NVUE's default */
	parse_ok("qos-sparse.json", NULL, &q, &in);
	assert_int_equal(q.trust, RC_TRUST_DSCP);
	assert_int_equal(q.dscp2prio[26], 3);
	assert_int_equal(q.dscp2prio[27], 3);
	assert_int_equal(q.dscp2prio[8], 1);
	assert_int_equal(q.pfc_enabled, 1u << 3); /* rx/tx default to enable */
	assert_int_equal(q.cable_length_m, 30);
	assert_int_equal(q.prio2tc[5], 5);
	assert_false(q.ecn[0].enabled); /* no congestion-control in this view */
}

static void test_roce_mode(void **state)
{
	struct port_qos q;
	struct nvue_port_info in;
	(void)state;

	parse_ok("qos-roce-5.15.json", NULL, &q, &in);
	assert_true(in.roce_mode);
	assert_int_equal(q.trust, RC_TRUST_UNSET); /* pcp,dscp: neither alone */
	assert_int_equal(q.pfc_enabled, 1u << 3);
	assert_int_equal(q.cable_length_m, 50);
	assert_int_equal(q.prio2tc[3], 3);
	assert_int_equal(q.prio2tc[6], 6);
	assert_int_equal(q.prio2tc[1], 0);
	assert_true(q.ecn[3].enabled);
	assert_int_equal(q.ecn[3].kmin_bytes, 150000);
	assert_int_equal(q.ets.tsa[6], RC_TSA_STRICT);
	assert_int_equal(q.ets.bw_pct[3], 50);

	/* lossy RoCE: no PFC */
	parse_ok("qos-roce-lossy-5.14.json", NULL, &q, &in);
	assert_true(in.roce_mode);
	assert_int_equal(q.pfc_enabled, 0);
	assert_true(q.ecn[3].enabled);
}

static void test_spellings_and_units(void **state)
{
	struct port_qos q;
	struct nvue_port_info in;
	(void)state;

	parse_ok("qos-spellings.json", NULL, &q, &in);
	assert_true(q.ecn[3].enabled);
	/* 146.48 KB and 1.43 MB are binary units, two decimals */
	assert_int_equal(q.ecn[3].kmin_bytes, 149996);
	assert_int_equal(q.ecn[3].kmax_bytes, 1499464);
	assert_int_equal(in.pfc_prio_set, (1u << 3) | (1u << 4));
	/* rx disabled: PFC configured but not in effect */
	assert_false(in.pfc_rx);
	assert_int_equal(q.pfc_enabled, 0);
	assert_int_equal(q.cable_length_m, 50);
}

static void test_custom_profiles(void **state)
{
	struct port_qos q;
	struct nvue_port_info in;
	(void)state;

	parse_ok("qos-profiles.json", "if-uplink.json", &q, &in);
	assert_string_equal(in.prof[NVUE_PROF_PFC], "uplink");
	assert_string_equal(in.prof[NVUE_PROF_CC], "deep");
	assert_string_equal(in.prof[NVUE_PROF_MAPPING], "default-global");
	assert_int_equal(q.cable_length_m, 30);
	assert_int_equal(q.ecn[3].kmin_bytes, 1000000);
	assert_true(q.ecn[3].pmax_pct == 50.0);
	assert_false(q.ecn[0].enabled); /* the 'deep' profile has no TC 0 */
	/* a bare `pfc-watchdog` object: NVUE's bare set turns it on */
	assert_true(q.watchdog.enabled);

	parse_ok("qos-profiles.json", NULL, &q, &in);
	assert_int_equal(q.cable_length_m, 3);
}

static void expect_refused(const char *qos_file, const char *if_file, const char *needle)
{
	struct port_qos q;
	struct nvue_port_info in;
	struct rc_err err;
	int rc = parse(qos_file, if_file, &q, &in, &err);

	if (rc != -EPROTO)
		fail_msg("%s + %s: expected -EPROTO, got %d (%s)", qos_file,
			 if_file ? if_file : "-", rc, err.msg);
	if (!strstr(err.msg, needle))
		fail_msg("%s: message '%s' lacks '%s'", qos_file, err.msg, needle);
}

static void test_hostile(void **state)
{
	(void)state;
	expect_refused("qos-hostile-dscp-id.json", NULL, "mapping.default-global.dscp");
	expect_refused("qos-hostile-dscp-leading-zero.json", NULL, "DSCP ids 0..63");
	expect_refused("qos-hostile-prio.json", NULL, "dscp.26.switch-priority");
	expect_refused("qos-hostile-negative.json", NULL, "min-threshold");
	expect_refused("qos-hostile-huge.json", NULL, "max-threshold");
	expect_refused("qos-hostile-fraction.json", NULL, "cable-length");
	expect_refused("qos-hostile-types.json", NULL, "qos.mapping");
	expect_refused("qos-hostile-trust.json", NULL, "trust");
	expect_refused("qos-hostile-onoff.json", NULL, "rx");
	expect_refused("qos-hostile-unit.json", NULL, "min-threshold");
	/* a profile name read from the switch goes back into commands: refused */
	expect_refused("qos-factory-5.14.json", "if-hostile-profile.json", "pfc");
	expect_refused("qos-factory-5.14.json", "if-hostile-profile-path.json",
		       "congestion-control");
}

static void test_not_json(void **state)
{
	struct rc_err err = {0};
	size_t len;
	char *buf;
	cJSON *j = NULL;
	(void)state;

	buf = rc_test_fixture("tests/data/nvue", "qos-truncated.json", &len);
	assert_int_equal(nvue_parse_json(buf, len, "nv show qos -o json", &j, &err), -EPROTO);
	assert_null(j);
	assert_non_null(strstr(err.msg, "nv show qos -o json"));
	assert_non_null(strstr(err.msg, "truncated"));
	free(buf);

	assert_int_equal(nvue_parse_json("", 0, "x", &j, &err), -EPROTO);
	assert_int_equal(
	    nvue_parse_json("Error: The requested item does not exist.\n", 43, "x", &j, &err),
	    -EPROTO);

	/* deeply nested: refused by the JSON parser's depth limit, not by a crash */
	buf = rc_test_fixture("tests/data/nvue", "qos-hostile-deep.json", &len);
	assert_int_equal(nvue_parse_json(buf, len, "x", &j, &err), -EPROTO);
	free(buf);

	{
		cJSON *qos = load("qos-not-object.json");
		struct port_qos q;
		struct nvue_port_info in;

		assert_int_equal(
		    nvue_parse_port(&(struct nvue_views){qos, qos, qos, NULL}, &q, &in, &err),
		    -EPROTO);
		cJSON_Delete(qos);
	}
}

/* Several show commands in one SSH command line: exactly n documents, nothing else. */
static void test_json_sequence(void **state)
{
	const char *three = "{\"a\": 1}\n{\"b\": {}}\n  [1, 2]\n";
	struct rc_err err = {0};
	cJSON *d[3];
	(void)state;

	assert_int_equal(nvue_parse_json_seq(three, strlen(three), "x", d, 3, &err), 0);
	assert_true(cJSON_IsObject(d[0]) && cJSON_IsObject(d[1]) && cJSON_IsArray(d[2]));
	for (int i = 0; i < 3; i++)
		cJSON_Delete(d[i]);
	/* one missing (a command printed nothing) */
	{
		cJSON *e[4];

		assert_int_equal(nvue_parse_json_seq(three, strlen(three), "x", e, 4, &err),
				 -EPROTO);
		assert_non_null(strstr(err.msg, "4 JSON documents expected, the output has 3"));
		for (int i = 0; i < 4; i++)
			assert_null(e[i]);
	}
	/* one too many, or trailing text */
	assert_int_equal(nvue_parse_json_seq(three, strlen(three), "x", d, 2, &err), -EPROTO);
	assert_non_null(strstr(err.msg, "unexpected output after 2"));
	assert_int_equal(nvue_parse_json_seq("{} Error: x", 11, "x", d, 1, &err), -EPROTO);
	/* truncated in the second document */
	assert_int_equal(nvue_parse_json_seq("{}\n{\"a\": [1, 2", 15, "x", d, 2, &err), -EPROTO);
	assert_non_null(strstr(err.msg, "document 2"));
	assert_non_null(strstr(err.msg, "truncated"));
	assert_null(d[0]);
	assert_null(d[1]);
}

static void test_port_names(void **state)
{
	(void)state;
	assert_true(nvue_port_name_ok("swp1"));
	assert_true(nvue_port_name_ok("swp1s0"));
	assert_true(nvue_port_name_ok("bond0.100"));
	assert_false(nvue_port_name_ok("swp1;reboot"));
	assert_false(nvue_port_name_ok("swp1$(id)"));
	assert_false(nvue_port_name_ok("swp1 swp2"));
	assert_false(nvue_port_name_ok("swp1/../x"));
	assert_false(nvue_port_name_ok("-o"));
	assert_false(nvue_port_name_ok(""));
	assert_false(nvue_port_name_ok(NULL));
	assert_false(nvue_port_name_ok("swp`id`"));
	assert_false(nvue_port_name_ok("swp1\nnv config apply"));
}

/* Views of one switch: operational, applied and startup qos trees, inline. */
static int parse_views(const char *oper, const char *applied, const char *startup,
		       struct port_qos *q, struct nvue_port_info *info, struct rc_err *err)
{
	cJSON *o = cJSON_Parse(oper), *a = applied ? cJSON_Parse(applied) : NULL;
	cJSON *st = startup ? cJSON_Parse(startup) : NULL;
	int rc;

	assert_non_null(o);
	memset(err, 0, sizeof(*err));
	rc = nvue_parse_port(&(struct nvue_views){o, a, st, NULL}, q, info, err);
	cJSON_Delete(o);
	cJSON_Delete(a);
	cJSON_Delete(st);
	return rc;
}

#define OPER_ROCE                                                                                  \
	"{\"roce\":{\"mode\":\"lossless\",\"pfc\":{\"cable-length\":30}},"                         \
	"\"pfc\":{\"default-global\":{\"switch-priority\":{\"3\":{}}}}}"

/* RoCE mode is configuration: `state`/`enable` shows in the applied view only
 * (conformance nvue/outputs/nv_show_qos_roce.txt), and RoCE mode's cable length is its
 * own, never a PFC profile's 10 m default. */
static void test_roce_from_applied(void **state)
{
	struct port_qos q;
	struct nvue_port_info info;
	struct rc_err err;
	(void)state;

	assert_int_equal(parse_views(OPER_ROCE,
				     "{\"roce\":{\"state\":\"enabled\",\"cable-length\":30}}", NULL,
				     &q, &info, &err),
			 0);
	assert_true(info.roce_mode);
	assert_false(info.roce_unknown);
	assert_int_equal(q.cable_length_m, 30);
	assert_int_equal(q.pfc_enabled, 1u << 3);
	assert_true(q.known & RC_F_CABLE);
	/* 5.14 spelling; the cable length only in the operational view */
	assert_int_equal(
	    parse_views(OPER_ROCE, "{\"roce\":{\"enable\":\"on\"}}", NULL, &q, &info, &err), 0);
	assert_true(info.roce_mode);
	assert_int_equal(q.cable_length_m, 30);
	/* configured off */
	assert_int_equal(
	    parse_views(OPER_ROCE, "{\"roce\":{\"state\":\"disabled\"}}", NULL, &q, &info, &err),
	    0);
	assert_false(info.roce_mode);
	assert_int_equal(q.cable_length_m, 10);
	/* nothing said: unknown, not factory; PFC and cable are not taken as read */
	assert_int_equal(parse_views(OPER_ROCE, "{\"roce\":{}}", NULL, &q, &info, &err), 0);
	assert_true(info.roce_unknown);
	assert_false(q.known & (RC_F_PFC | RC_F_CABLE));
	assert_true(q.effect.unverified & RC_F_PFC);
	assert_int_equal(parse_views(OPER_ROCE, NULL, NULL, &q, &info, &err), 0);
	assert_true(info.roce_unknown);
	/* a hostile value is an error naming the applied view */
	assert_int_equal(parse_views(OPER_ROCE, "{\"roce\":{\"state\":7}}", NULL, &q, &info, &err),
			 -EPROTO);
	assert_non_null(strstr(err.msg, "applied qos.roce"));
}

#define OPER_PFC3 "{\"pfc\":{\"default-global\":{\"switch-priority\":{\"3\":{}}}}}"

/* PFC on a priority no lossless pool carries is effect drift (QoS guide, Flow Control
 * Buffers; factory: 100 % default-lossy). */
static void test_pfc_needs_lossless_pool(void **state)
{
	struct port_qos q;
	struct nvue_port_info info;
	struct rc_err err;
	const char *factory =
	    "{\"roce\":{\"state\":\"disabled\"},\"traffic-pool\":{\"default-lossy\":{"
	    "\"memory-percent\":100,\"switch-priority\":{\"0\":{},\"3\":{}}}}}";
	const char *pooled =
	    "{\"roce\":{\"state\":\"disabled\"},\"traffic-pool\":{\"default-lossy\":{"
	    "\"memory-percent\":50,\"switch-priority\":{\"0\":{}}},\"default-lossless\":{"
	    "\"memory-percent\":50,\"switch-priority\":{\"3\":{}}}}}";
	(void)state;

	assert_int_equal(parse_views(OPER_PFC3, factory, factory, &q, &info, &err), 0);
	assert_int_equal(q.pfc_enabled, 1u << 3);
	assert_true(q.effect.drift & RC_F_PFC);
	assert_non_null(strstr(q.effect.why, "priority 3"));
	assert_non_null(strstr(q.effect.why, "default-lossless"));
	assert_int_equal(info.lossy_pool_pct, 100);
	assert_int_equal(parse_views(OPER_PFC3, pooled, pooled, &q, &info, &err), 0);
	assert_int_equal(q.effect.drift, 0);
	assert_int_equal(info.lossless_pool_prios, 1u << 3);
	assert_int_equal(info.lossless_pool_pct, 50);
	/* RoCE lossless mode carries SP 3 in roce-lossless by itself */
	assert_int_equal(parse_views(OPER_ROCE, "{\"roce\":{\"state\":\"enabled\"}}",
				     "{\"roce\":{\"state\":\"enabled\"}}", &q, &info, &err),
			 0);
	assert_int_equal(q.effect.drift, 0);
	/* a pool that is not what NVUE sends */
	assert_int_equal(parse_views(OPER_PFC3,
				     "{\"traffic-pool\":{\"default-lossless\":{"
				     "\"memory-percent\":101}}}",
				     NULL, &q, &info, &err),
			 -EPROTO);
	assert_non_null(strstr(err.msg, "memory-percent"));
}

/* Running that differs from startup comes back after a reboot: effect drift on the
 * groups that differ, nothing when they are the same. */
static void test_startup_differs(void **state)
{
	struct port_qos q;
	struct nvue_port_info info;
	struct rc_err err;
	const char *applied =
	    "{\"roce\":{\"state\":\"disabled\"},\"pfc\":{\"default-global\":{\"switch-priority\":"
	    "{\"3\":{}}}},\"traffic-pool\":{\"default-lossless\":{\"memory-percent\":50,"
	    "\"switch-priority\":{\"3\":{}}}}}";
	const char *startup = "{\"roce\":{\"state\":\"disabled\"},\"pfc\":{}}";
	(void)state;

	assert_int_equal(parse_views(OPER_PFC3, applied, applied, &q, &info, &err), 0);
	assert_int_equal(q.effect.drift, 0);
	assert_false(info.startup_differs);
	assert_int_equal(parse_views(OPER_PFC3, applied, startup, &q, &info, &err), 0);
	assert_true(info.startup_differs);
	assert_int_equal(q.effect.drift, RC_F_PFC | RC_F_CABLE);
	assert_non_null(strstr(q.effect.why, "startup"));
	/* not read: unverified, not drift */
	assert_int_equal(parse_views(OPER_PFC3, applied, NULL, &q, &info, &err), 0);
	assert_int_equal(q.effect.drift, 0);
	assert_true(q.effect.unverified & RC_F_PFC);
	/* a startup view that is not an object */
	assert_int_equal(parse_views(OPER_PFC3, applied, "[1]", &q, &info, &err), -EPROTO);
}

/* nvue_startup_groups compares as cJSON_Compare does (its own walk, not cJSON's, whose
 * cost doubles per level of nesting): deep equality, a difference deep down, a member on
 * one side only, arrays of other lengths or order, a key twice in startup. */
static void test_startup_groups_compare(void **state)
{
	static const struct {
		const char *applied, *startup;
		bool differs;
	} cases[] = {
	    {"{\"pfc\":{\"a\":{\"b\":{\"c\":[1,{\"d\":\"x\"}],\"e\":true}}}}",
	     "{\"pfc\":{\"a\":{\"b\":{\"e\":true,\"c\":[1,{\"d\":\"x\"}]}}}}", false},
	    {"{\"pfc\":{\"a\":{\"b\":{\"c\":[1,{\"d\":\"x\"}]}}}}",
	     "{\"pfc\":{\"a\":{\"b\":{\"c\":[1,{\"d\":\"y\"}]}}}}", true},
	    {"{\"pfc\":{\"a\":1}}", "{\"pfc\":{\"a\":1,\"b\":2}}", true},
	    {"{\"pfc\":{\"a\":1,\"b\":2}}", "{\"pfc\":{\"a\":1}}", true},
	    {"{\"pfc\":{\"a\":[1,2]}}", "{\"pfc\":{\"a\":[1,2,3]}}", true},
	    {"{\"pfc\":{\"a\":[1,2]}}", "{\"pfc\":{\"a\":[2,1]}}", true},
	    {"{\"pfc\":{\"a\":1,\"b\":1}}", "{\"pfc\":{\"a\":1,\"a\":2}}", true},
	    {"{\"pfc\":{\"a\":1}}", "{\"pfc\":{\"a\":1,\"a\":2}}", true},
	    {"{\"pfc\":{\"a\":1,\"a\":1}}", "{\"pfc\":{\"a\":1,\"a\":1}}", false},
	    {"{\"pfc\":{\"a\":\"1\"}}", "{\"pfc\":{\"a\":1}}", true},
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		cJSON *a = cJSON_Parse(cases[i].applied), *b = cJSON_Parse(cases[i].startup);

		assert_non_null(a);
		assert_non_null(b);
		/* the same verdict as cJSON's own comparison */
		assert_int_equal(!cJSON_Compare(a, b, true), cases[i].differs);
		if (cases[i].differs)
			assert_int_not_equal(nvue_startup_groups(a, b), 0);
		else
			assert_int_equal(nvue_startup_groups(a, b), 0);
		cJSON_Delete(a);
		cJSON_Delete(b);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_factory_defaults),
	    cmocka_unit_test(test_lossless_config),
	    cmocka_unit_test(test_interface_view_quantized),
	    cmocka_unit_test(test_sparse_config),
	    cmocka_unit_test(test_roce_mode),
	    cmocka_unit_test(test_spellings_and_units),
	    cmocka_unit_test(test_custom_profiles),
	    cmocka_unit_test(test_hostile),
	    cmocka_unit_test(test_not_json),
	    cmocka_unit_test(test_json_sequence),
	    cmocka_unit_test(test_port_names),
	    cmocka_unit_test(test_roce_from_applied),
	    cmocka_unit_test(test_pfc_needs_lossless_pool),
	    cmocka_unit_test(test_startup_differs),
	    cmocka_unit_test(test_startup_groups_compare),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
