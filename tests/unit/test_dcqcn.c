/* SPDX-License-Identifier: Apache-2.0 */
/* DCQCN RP/NP parameters: the policy's dcqcn section (names and ranges of
 * drivers/infiniband/hw/mlx5/cong.c), the desired host state, the diff group and its
 * journal form. */
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

#include "rocectl/desired.h"
#include "rocectl/diff.h"
#include "rocectl/journal.h"
#include "rocectl/policy.h"

/* Line numbers below refer to this text (line 1 = apiVersion). */
static const char base[] = "apiVersion: rocectl/v1\n"	      /* 1 */
			   "kind: Policy\n"		      /* 2 */
			   "name: t\n"			      /* 3 */
			   "roce: {dscp: 26, priority: 3}\n"  /* 4 */
			   "cnp: {dscp: 48, priority: 6}\n"   /* 5 */
			   "pfc:\n"			      /* 6 */
			   "  priorities: [3]\n"	      /* 7 */
			   "  watchdog: {detection: 200ms}\n" /* 8 */
			   "ecn:\n"			      /* 9 */
			   "  min_threshold: 150KB\n"	      /* 10 */
			   "  max_threshold: 1500KB\n"	      /* 11 */
			   "  probability: 100%\n";	      /* 12 */

static struct rc_policy pol;
static struct rc_err err;

static int load(const char *extra)
{
	char buf[2048];
	int n = snprintf(buf, sizeof(buf), "%s%s", base, extra);

	assert_true(n > 0 && (size_t)n < sizeof(buf));
	rc_err_clear(&err);
	return rc_policy_load_buffer("p.yaml", buf, (size_t)n, &pol, NULL, &err);
}

static void expect_error(const char *extra, int line, int col, const char *msg)
{
	int rc = load(extra);

	if (rc == 0 || err.line != line || err.column != col || !strstr(err.msg, msg))
		fail_msg("'%s': rc %d, got %s:%d:%d: %s; want %d:%d: %s", extra, rc, err.file,
			 err.line, err.column, err.msg, line, col, msg);
	assert_string_equal(err.file, "p.yaml");
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(rc_dcqcn_name(RC_DCQCN_RP_AI_RATE), "rp_ai_rate");
	assert_string_equal(rc_dcqcn_name(RC_DCQCN_NP_MIN_TIME_BETWEEN_CNPS),
			    "np_min_time_between_cnps");
	assert_null(rc_dcqcn_name(RC_DCQCN_N));
	assert_null(rc_dcqcn_name(-1));
	assert_int_equal(rc_dcqcn_index("rp_gd"), RC_DCQCN_RP_GD);
	assert_int_equal(rc_dcqcn_index("rp_max_rate"), -1);
	assert_string_equal(rc_field_name(RC_F_DCQCN), "dcqcn");
}

static void test_policy_good(void **state)
{
	(void)state;
	assert_int_equal(load(""), 0);
	assert_int_equal(pol.dcqcn_mask, 0);

	assert_int_equal(load("dcqcn:\n"			   /* 13 */
			      "  rp:\n"				   /* 14 */
			      "    rp_ai_rate: 5\n"		   /* 15 */
			      "    rp_hai_rate: 50\n"		   /* 16 */
			      "    rp_min_rate: 1\n"		   /* 17 */
			      "    rp_time_reset: 300\n"	   /* 18 */
			      "    rp_byte_reset: 32767\n"	   /* 19 */
			      "    rp_threshold: 1\n"		   /* 20 */
			      "    rp_initial_alpha_value: 1023\n" /* 21 */
			      "    rp_gd: 11\n"			   /* 22 */
			      "  np: {np_min_time_between_cnps: 4}\n"),
			 0);
	assert_int_equal(pol.dcqcn_mask, (1u << RC_DCQCN_N) - 1);
	assert_int_equal(pol.dcqcn[RC_DCQCN_RP_AI_RATE], 5);
	assert_int_equal(pol.dcqcn[RC_DCQCN_RP_BYTE_RESET], 32767);
	assert_int_equal(pol.dcqcn[RC_DCQCN_RP_INITIAL_ALPHA_VALUE], 1023);
	assert_int_equal(pol.dcqcn[RC_DCQCN_NP_MIN_TIME_BETWEEN_CNPS], 4);

	/* Only what is named is pinned; the top of the u32 range is accepted. */
	assert_int_equal(load("dcqcn: {rp: {rp_min_rate: 4294967295}}\n"), 0);
	assert_int_equal(pol.dcqcn_mask, 1u << RC_DCQCN_RP_MIN_RATE);
	assert_int_equal(pol.dcqcn[RC_DCQCN_RP_MIN_RATE], UINT32_MAX);
}

static void test_policy_bad(void **state)
{
	(void)state;
	/* Beyond kstrtou32 (cong.c set_param). */
	expect_error("dcqcn:\n  rp:\n    rp_ai_rate: 4294967296\n", 15, 17, "rp_ai_rate");
	expect_error("dcqcn:\n  rp:\n    rp_gd: -1\n", 15, 12, "rp_gd");
	expect_error("dcqcn:\n  np:\n    np_min_time_between_cnps: 4us\n", 15, 31,
		     "np_min_time_between_cnps");
	expect_error("dcqcn:\n  rp:\n    rp_hai_rate: fast\n", 15, 18, "rp_hai_rate");
	/* An NP parameter under rp, an unknown parameter, an unknown point. */
	expect_error("dcqcn:\n  rp:\n    np_min_time_between_cnps: 4\n", 15, 5,
		     "np_min_time_between_cnps");
	expect_error("dcqcn:\n  rp:\n    rp_max_rate: 0\n", 15, 5, "rp_max_rate");
	expect_error("dcqcn:\n  cp: {}\n", 14, 3, "cp");
	expect_error("dcqcn: 5\n", 13, 8, "dcqcn");
}

static void test_desired(void **state)
{
	struct port_qos q;

	(void)state;
	assert_int_equal(load(""), 0);
	assert_int_equal(rc_desired_port(&pol, NULL, 0, "eth0", RC_DEV_HOST, 0, &q, &err), 0);
	assert_false(q.known & RC_F_DCQCN);

	assert_int_equal(load("dcqcn: {rp: {rp_ai_rate: 10}, np: {np_min_time_between_cnps: 0}}\n"),
			 0);
	assert_int_equal(rc_desired_port(&pol, NULL, 0, "eth0", RC_DEV_HOST, 0, &q, &err), 0);
	assert_true(q.known & RC_F_DCQCN);
	assert_int_equal(q.dcqcn_mask,
			 (1u << RC_DCQCN_RP_AI_RATE) | (1u << RC_DCQCN_NP_MIN_TIME_BETWEEN_CNPS));
	assert_int_equal(q.dcqcn[RC_DCQCN_RP_AI_RATE], 10);
	/* Switches have no DCQCN reaction point to pin. */
	assert_int_equal(rc_desired_port(&pol, NULL, 0, "swp1", RC_DEV_SWITCH, 400, &q, &err), 0);
	assert_false(q.known & RC_F_DCQCN);
}

static const struct rc_change *find(const struct rc_changes *c, const char *field)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].field, field))
			return &c->v[i];
	return NULL;
}

static void want_have(struct port_qos *want, struct port_qos *have)
{
	memset(want, 0, sizeof(*want));
	memset(have, 0, sizeof(*have));
	want->known = RC_F_DCQCN;
	want->dcqcn_mask = (1u << RC_DCQCN_RP_AI_RATE) | (1u << RC_DCQCN_RP_GD) |
			   (1u << RC_DCQCN_NP_MIN_TIME_BETWEEN_CNPS);
	want->dcqcn[RC_DCQCN_RP_AI_RATE] = 10;
	want->dcqcn[RC_DCQCN_RP_GD] = 11;
	want->dcqcn[RC_DCQCN_NP_MIN_TIME_BETWEEN_CNPS] = 4;
	have->known = RC_F_DCQCN;
	have->dcqcn_mask = (1u << RC_DCQCN_N) - 1;
	have->dcqcn[RC_DCQCN_RP_AI_RATE] = 5;
	have->dcqcn[RC_DCQCN_RP_GD] = 11;
	have->dcqcn[RC_DCQCN_NP_MIN_TIME_BETWEEN_CNPS] = 0;
	have->dcqcn[RC_DCQCN_RP_HAI_RATE] = 999; /* not in policy: never looked at */
}

static void test_diff(void **state)
{
	struct port_qos want, have;
	struct rc_changes c = {0};
	const struct rc_change *ch;

	(void)state;
	want_have(&want, &have);
	assert_int_equal(rc_diff_port("eth0", &want, &have, 0, 0, &c), RC_F_DCQCN);
	assert_int_equal(c.n, 2);
	ch = find(&c, "dcqcn.rp_ai_rate");
	assert_non_null(ch);
	assert_int_equal(ch->kind, RC_CHANGE_SET);
	assert_int_equal(ch->group, RC_F_DCQCN);
	assert_string_equal(ch->old_value, "5");
	assert_string_equal(ch->new_value, "10");
	ch = find(&c, "dcqcn.np_min_time_between_cnps");
	assert_non_null(ch);
	assert_string_equal(ch->old_value, "0");
	assert_string_equal(ch->new_value, "4");
	assert_null(find(&c, "dcqcn.rp_gd"));
	rc_changes_fini(&c);

	/* In sync. */
	have.dcqcn[RC_DCQCN_RP_AI_RATE] = 10;
	have.dcqcn[RC_DCQCN_NP_MIN_TIME_BETWEEN_CNPS] = 4;
	assert_int_equal(rc_diff_port("eth0", &want, &have, 0, 0, &c), 0);
	assert_int_equal(c.n, 0);

	/* An older kernel without np_min_time_between_cnps: that one is not controllable
	 * here, the others still compare. */
	have.dcqcn_mask &= (uint16_t) ~(1u << RC_DCQCN_NP_MIN_TIME_BETWEEN_CNPS);
	have.dcqcn[RC_DCQCN_RP_GD] = 12;
	assert_int_equal(rc_diff_port("eth0", &want, &have, 0, 0, &c), RC_F_DCQCN);
	assert_int_equal(c.n, 2);
	assert_int_equal(find(&c, "dcqcn.np_min_time_between_cnps")->kind, RC_CHANGE_UNSUPPORTED);
	assert_int_equal(find(&c, "dcqcn.rp_gd")->kind, RC_CHANGE_SET);
	rc_changes_fini(&c);

	/* No cc_params at all: every pinned parameter is not controllable, none is drift. */
	have.known = 0;
	have.unsupported = RC_F_DCQCN;
	assert_int_equal(rc_diff_port("eth0", &want, &have, 0, 0, &c), 0);
	assert_int_equal(c.n, 3);
	assert_int_equal(rc_changes_count(&c, RC_CHANGE_UNSUPPORTED), 3);
	rc_changes_fini(&c);

	/* Read failed: unknown, never taken as equal. */
	have.unsupported = 0;
	assert_int_equal(rc_diff_port("eth0", &want, &have, 0, 0, &c), 0);
	assert_int_equal(rc_changes_count(&c, RC_CHANGE_UNKNOWN), 3);
	rc_changes_fini(&c);
}

/* The journal keeps exactly the parameters read, so a rollback writes back only those. */
static void test_json_roundtrip(void **state)
{
	struct port_qos want, have, back;
	cJSON *j;
	char *s;

	(void)state;
	want_have(&want, &have);
	have.dcqcn_mask = (1u << RC_DCQCN_RP_AI_RATE) | (1u << RC_DCQCN_RP_HAI_RATE);
	have.dcqcn[RC_DCQCN_RP_HAI_RATE] = UINT32_MAX;
	j = rc_port_qos_to_cjson(&have);
	assert_non_null(j);
	assert_int_equal(rc_port_qos_from_cjson(j, &back, &err), 0);
	assert_true(back.known & RC_F_DCQCN);
	assert_int_equal(back.dcqcn_mask, have.dcqcn_mask);
	assert_int_equal(back.dcqcn[RC_DCQCN_RP_AI_RATE], 5);
	assert_int_equal(back.dcqcn[RC_DCQCN_RP_HAI_RATE], UINT32_MAX);
	cJSON_Delete(j);

	s = strdup("{\"known\":32768,\"unsupported\":0,\"dcqcn\":{\"rp_gd\":-1}}");
	assert_non_null(s);
	assert_int_not_equal(rc_port_qos_from_json(s, &back, &err), 0);
	free(s);
	assert_int_not_equal(
	    rc_port_qos_from_json("{\"known\":32768,\"unsupported\":0,\"dcqcn\":{\"rp_gd\":1.5}}",
				  &back, &err),
	    0);
	assert_int_not_equal(
	    rc_port_qos_from_json("{\"known\":32768,\"unsupported\":0,\"dcqcn\":[]}", &back, &err),
	    0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_names),      cmocka_unit_test(test_policy_good),
	    cmocka_unit_test(test_policy_bad), cmocka_unit_test(test_desired),
	    cmocka_unit_test(test_diff),       cmocka_unit_test(test_json_roundtrip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
