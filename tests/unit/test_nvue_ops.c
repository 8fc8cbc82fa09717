/* SPDX-License-Identifier: Apache-2.0 */
/* NVUE write side (drivers/switch/nvue_ops.c): the change list for a write, its CLI and
 * JSON renderings, shared-profile conflicts, and the judgement of apply results. */
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
	size_t len;
	char *buf = rc_test_fixture("tests/data/nvue", name, &len);
	cJSON *j = cJSON_ParseWithLength(buf, len);

	free(buf);
	assert_non_null(j);
	return j;
}

static void read_port(const char *qos_file, const char *if_file, struct port_qos *q,
		      struct nvue_port_info *info)
{
	cJSON *qos = load(qos_file), *ifq = if_file ? load(if_file) : NULL;
	struct rc_err err = {0};

	if (nvue_parse_port(&(struct nvue_views){qos, qos, qos, ifq}, q, info, &err))
		fail_msg("%s", err.msg);
	cJSON_Delete(qos);
	cJSON_Delete(ifq);
}

/* The reference policy of docs/POLICY.md on a switch port: trust dscp, 26 -> 3, 48 -> 6, PFC on 3,
 * ECN on TC 3 at 150KB/1500KB/100 %, cable 100 m. */
static void policy_want(struct port_qos *w)
{
	memset(w, 0, sizeof(*w));
	w->known = RC_F_TRUST | RC_F_DSCP2PRIO | RC_F_PRIO2TC | RC_F_PFC | RC_F_CABLE | RC_F_ECN;
	w->trust = RC_TRUST_DSCP;
	w->dscp_mask = (1ull << 26) | (1ull << 48);
	w->dscp2prio[26] = 3;
	w->dscp2prio[48] = 6;
	w->prio_mask = (1u << 3) | (1u << 6);
	w->prio2tc[3] = 3;
	w->prio2tc[6] = 6;
	w->pfc_enabled = 1u << 3;
	w->cable_length_m = 100;
	w->ecn_tc_mask = 1u << 3;
	w->ecn[3] = (struct rc_ecn_tc){true, 150000, 1500000, 100};
}

static int build(const struct rc_port_write *w, const struct nvue_port_info *info, size_t n,
		 struct nvue_ops *ops, struct rc_err *err)
{
	struct nvue_peer peers[8];

	assert_true(n <= 8);
	for (size_t i = 0; i < n; i++)
		peers[i] = (struct nvue_peer){w[i].port, &info[i]};
	memset(err, 0, sizeof(*err));
	return nvue_build_ops(w, info, n, peers, n, ops, err);
}

static void test_factory_to_policy(void **state)
{
	struct port_qos want, have;
	struct nvue_port_info info;
	struct nvue_ops ops;
	struct rc_err err;
	char *cli;
	(void)state;

	policy_want(&want);
	read_port("qos-factory-5.14.json", "if-empty.json", &have, &info);
	struct rc_port_write w = {"swp1", &want, &have,
				  RC_F_TRUST | RC_F_PFC | RC_F_CABLE | RC_F_ECN};

	assert_int_equal(build(&w, &info, 1, &ops, &err), 0);
	cli = nvue_render_cli(&ops);
	assert_non_null(cli);
	/* exactly what differs from a factory-default switch, nothing else */
	assert_string_equal(
	    cli, "nv set qos mapping default-global trust l3\n"
		 "nv set qos pfc default-global switch-priority 3\n"
		 /* PFC needs a lossless pool carrying priority 3 (factory: 100 %
		  * default-lossy with every priority) */
		 "nv set qos traffic-pool default-lossless switch-priority 3\n"
		 "nv set qos traffic-pool default-lossless memory-percent 50\n"
		 "nv set qos traffic-pool default-lossy memory-percent 50\n"
		 "nv set qos traffic-pool default-lossy switch-priority 0\n"
		 "nv set qos traffic-pool default-lossy switch-priority 1\n"
		 "nv set qos traffic-pool default-lossy switch-priority 2\n"
		 "nv unset qos traffic-pool default-lossy switch-priority 3\n"
		 "nv set qos traffic-pool default-lossy switch-priority 4\n"
		 "nv set qos traffic-pool default-lossy switch-priority 5\n"
		 "nv set qos traffic-pool default-lossy switch-priority 6\n"
		 "nv set qos traffic-pool default-lossy switch-priority 7\n"
		 "nv set qos pfc default-global cable-length 100\n"
		 "nv set qos congestion-control default-global traffic-class 3 ecn enable\n"
		 "nv set qos congestion-control default-global traffic-class 3 "
		 "min-threshold 150000\n"
		 "nv set qos congestion-control default-global traffic-class 3 "
		 "max-threshold 1500000\n"
		 "nv set qos congestion-control default-global traffic-class 3 "
		 "probability 100\n");
	free(cli);

	/* the same ops as one JSON patch of the root tree */
	cJSON *patch = nvue_render_patch(&ops);
	char *text = cJSON_PrintUnformatted(patch);

	assert_string_equal(
	    text, "{\"qos\":{\"mapping\":{\"default-global\":{\"trust\":\"l3\"}},"
		  "\"pfc\":{\"default-global\":{\"switch-priority\":{\"3\":{}},"
		  "\"cable-length\":100}},\"traffic-pool\":{\"default-lossless\":{"
		  "\"switch-priority\":{\"3\":{}},\"memory-percent\":50},\"default-lossy\":{"
		  "\"memory-percent\":50,\"switch-priority\":{\"0\":{},\"1\":{},\"2\":{},"
		  "\"3\":null,\"4\":{},\"5\":{},\"6\":{},\"7\":{}}}},"
		  "\"congestion-control\":{\"default-global\":"
		  "{\"traffic-class\":{\"3\":{\"ecn\":\"enable\",\"min-threshold\":150000,"
		  "\"max-threshold\":1500000,\"probability\":100}}}}}}");
	free(text);
	cJSON_Delete(patch);
	nvue_ops_free(&ops);
}

/* Restoring a factory state (rollback): PFC priorities are removed, ECN turned off. */
static void test_restore_unsets(void **state)
{
	struct port_qos want, have;
	struct nvue_port_info info_f, info;
	struct nvue_ops ops;
	struct rc_err err;
	char *cli;
	(void)state;

	read_port("qos-factory-5.14.json", NULL, &want, &info_f);
	read_port("qos-lossless.json", NULL, &have, &info);
	struct rc_port_write w = {"swp1", &want, &have,
				  RC_F_TRUST | RC_F_PFC | RC_F_CABLE | RC_F_ECN};

	assert_int_equal(build(&w, &info, 1, &ops, &err), 0);
	cli = nvue_render_cli(&ops);
	assert_non_null(strstr(cli, "nv set qos mapping default-global trust l2\n"));
	assert_non_null(strstr(cli, "nv unset qos pfc default-global switch-priority 3\n"));
	assert_non_null(strstr(cli, "nv set qos pfc default-global cable-length 10\n"));
	assert_non_null(strstr(cli,
			       "nv set qos congestion-control default-global traffic-class 3 ecn "
			       "disable\n"));
	/* TC 0 is the same on both sides: not touched */
	assert_null(strstr(cli, "traffic-class 0"));
	free(cli);

	cJSON *patch = nvue_render_patch(&ops);
	const char *path[] = {"qos", "pfc", "default-global", "switch-priority", "3"};
	const cJSON *j = patch;

	for (size_t i = 0; i < 5; i++)
		j = cJSON_GetObjectItemCaseSensitive(j, path[i]);
	assert_true(cJSON_IsNull(j)); /* unset = null in a patch */
	cJSON_Delete(patch);
	nvue_ops_free(&ops);
}

/* Nothing differs: no op at all (apply then sends nothing). */
static void test_in_sync_no_ops(void **state)
{
	struct port_qos want, have;
	struct nvue_port_info info;
	struct nvue_ops ops;
	struct rc_err err;
	(void)state;

	policy_want(&want);
	read_port("qos-lossless.json", NULL, &have, &info);
	struct rc_port_write w = {"swp1", &want, &have, RC_F_ALL};

	assert_int_equal(build(&w, &info, 1, &ops, &err), 0);
	assert_int_equal(ops.n, 0);
	nvue_ops_free(&ops);
}

/* Two ports on default-global wanting different cable lengths: each moves to a PFC
 * profile of its own length, created with the port's whole PFC setting. */
static void test_shared_profile_conflict(void **state)
{
	struct port_qos want1, want2, have;
	struct nvue_port_info info[2];
	struct nvue_ops ops;
	struct rc_err err;
	(void)state;

	policy_want(&want1);
	policy_want(&want2);
	want2.cable_length_m = 30;
	read_port("qos-factory-5.14.json", NULL, &have, &info[0]);
	info[1] = info[0];
	struct rc_port_write w[2] = {{"swp1", &want1, &have, RC_F_CABLE},
				     {"swp31", &want2, &have, RC_F_CABLE}};

	assert_int_equal(build(w, info, 2, &ops, &err), 0);
	{
		char *cli = nvue_render_cli(&ops);

		assert_non_null(strstr(cli, "nv set interface swp1 qos pfc profile "
					    "rocectl-cable-100m\n"));
		assert_non_null(strstr(cli, "nv set interface swp31 qos pfc profile "
					    "rocectl-cable-30m\n"));
		assert_non_null(strstr(cli, "nv set qos pfc rocectl-cable-30m cable-length 30\n"));
		assert_non_null(
		    strstr(cli, "nv set qos pfc rocectl-cable-100m cable-length 100\n"));
		/* the new profiles carry the PFC priority, both directions on */
		assert_non_null(strstr(cli, "nv set qos pfc rocectl-cable-30m switch-priority 3"));
		assert_non_null(strstr(cli, "nv set qos pfc rocectl-cable-30m rx enable\n"));
		assert_non_null(strstr(cli, "nv set qos pfc rocectl-cable-30m tx enable\n"));
		/* default-global itself is left alone */
		assert_null(strstr(cli, "qos pfc default-global cable-length"));
		free(cli);
		nvue_ops_free(&ops);
	}

	/* with the uplink on its own profile there is no conflict */
	{
		struct port_qos have2;
		struct nvue_port_info i2[2];

		read_port("qos-profiles.json", NULL, &have, &i2[0]);
		read_port("qos-profiles.json", "if-uplink.json", &have2, &i2[1]);
		want1.cable_length_m = 5;
		struct rc_port_write w2[2] = {{"swp1", &want1, &have, RC_F_CABLE},
					      {"swp31", &want2, &have2, RC_F_CABLE}};

		want2.cable_length_m = 50;
		assert_int_equal(build(w2, i2, 2, &ops, &err), 0);
		char *cli = nvue_render_cli(&ops);

		assert_string_equal(cli, "nv set qos pfc default-global cable-length 5\n"
					 "nv set qos pfc uplink cable-length 50\n");
		free(cli);
		nvue_ops_free(&ops);
	}
}

/* A port that is already as wanted must not be changed behind its back by a write for
 * another port sharing its profile: the written port moves to a profile of its own. */
static void test_shared_profile_peer(void **state)
{
	struct port_qos want, have;
	struct nvue_port_info info[2];
	struct nvue_peer peers[2];
	struct nvue_ops ops;
	struct rc_err err = {0};
	(void)state;

	policy_want(&want);
	want.cable_length_m = 30;
	read_port("qos-lossless.json", NULL, &have, &info[0]);
	info[1] = info[0];
	peers[0] = (struct nvue_peer){"swp1", &info[0]};
	peers[1] = (struct nvue_peer){"swp2", &info[1]};
	struct rc_port_write w = {"swp2", &want, &have, RC_F_CABLE};

	assert_int_equal(nvue_build_ops(&w, &info[1], 1, peers, 2, &ops, &err), 0);
	{
		char *cli = nvue_render_cli(&ops);

		assert_non_null(
		    strstr(cli, "nv set interface swp2 qos pfc profile rocectl-cable-30m\n"));
		assert_non_null(strstr(cli, "nv set qos pfc rocectl-cable-30m cable-length 30\n"));
		assert_null(strstr(cli, "default-global cable-length"));
		free(cli);
		nvue_ops_free(&ops);
	}
}

static void test_bad_names_refused(void **state)
{
	struct port_qos want, have;
	struct nvue_port_info info;
	struct nvue_ops ops;
	struct rc_err err;
	const char *bad[] = {"swp1;reboot", "swp1$(id)", "swp1 && nv config apply", "../swp1"};
	(void)state;

	policy_want(&want);
	want.known |= RC_F_WATCHDOG; /* a per-interface op would carry the name */
	want.watchdog = (struct rc_watchdog){true, 300, 300, RC_WD_DROP, 0};
	read_port("qos-factory-5.14.json", NULL, &have, &info);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct rc_port_write w = {bad[i], &want, &have, RC_F_ALL};

		assert_int_equal(build(&w, &info, 1, &ops, &err), -EINVAL);
		assert_int_equal(ops.n, 0);
	}
}

static void test_watchdog(void **state)
{
	struct port_qos want, have;
	struct nvue_port_info info;
	struct nvue_ops ops;
	struct rc_err err;
	char *cli;
	(void)state;

	memset(&want, 0, sizeof(want));
	want.known = RC_F_WATCHDOG;
	want.watchdog = (struct rc_watchdog){true, 200, 200, RC_WD_DROP, 0};
	read_port("qos-factory-5.14.json", NULL, &have, &info);
	struct rc_port_write w = {"swp7", &want, &have, RC_F_WATCHDOG};

	assert_int_equal(build(&w, &info, 1, &ops, &err), 0);
	cli = nvue_render_cli(&ops);
	assert_string_equal(cli, "nv set interface swp7 qos pfc-watchdog state enable\n"
				 "nv set qos pfc-watchdog robustness 2\n");
	free(cli);
	nvue_ops_free(&ops);

	/* what NVUE fixes itself (restoration = detection, action drop) is reported by the
	 * diff as not controllable; the writer sends only the detection time */
	assert_int_equal(have.watchdog.fixed, RC_WD_FIXED_RESTORATION | RC_WD_FIXED_ACTION);
	want.watchdog.restoration_ms = 400;
	want.watchdog.action = RC_WD_FORWARD;
	assert_int_equal(build(&w, &info, 1, &ops, &err), 0);
	cli = nvue_render_cli(&ops);
	assert_null(strstr(cli, "restor"));
	assert_null(strstr(cli, "action"));
	free(cli);
	nvue_ops_free(&ops);
}

/* NVUE's watchdog ranges (Cumulus Linux 5.6 release notes and the 5.18 QoS guide, "PFC Watchdog":
 * polling-interval 100-5000 ms, robustness 1-1000): a detection time that no pair in range gives is
 * refused before anything is written, and a time that needs a polling interval other than 100 ms
 * gets one in range. */
static void test_watchdog_ranges(void **state)
{
	struct port_qos want, have;
	struct nvue_port_info info;
	struct nvue_ops ops;
	struct rc_err err;
	uint32_t poll, robust;
	char *cli;
	(void)state;

	memset(&want, 0, sizeof(want));
	want.known = RC_F_WATCHDOG;
	read_port("qos-factory-5.14.json", NULL, &have, &info);
	struct rc_port_write w = {"swp7", &want, &have, RC_F_WATCHDOG};

	/* 50 ms: below the smallest polling interval */
	want.watchdog = (struct rc_watchdog){true, 50, 50, RC_WD_DROP, 0};
	assert_int_equal(build(&w, &info, 1, &ops, &err), -ERANGE);
	assert_non_null(strstr(err.msg, "100..5000"));
	assert_int_equal(ops.n, 0);
	/* 150 ms: 150 x 1 */
	want.watchdog.detection_ms = 150;
	assert_int_equal(build(&w, &info, 1, &ops, &err), 0);
	cli = nvue_render_cli(&ops);
	assert_string_equal(cli, "nv set interface swp7 qos pfc-watchdog state enable\n"
				 "nv set qos pfc-watchdog polling-interval 150\n"
				 "nv set qos pfc-watchdog robustness 1\n");
	free(cli);
	nvue_ops_free(&ops);
	/* the largest: 5000 ms x 1000 */
	assert_int_equal(nvue_wd_split(5000000, &poll, &robust), 0);
	assert_int_equal(robust * poll, 5000000);
	assert_true(poll <= 5000 && robust <= 1000);
	assert_int_equal(nvue_wd_split(5000001, &poll, &robust), -ERANGE);
	assert_int_equal(nvue_wd_split(0, &poll, &robust), -ERANGE);
	/* 300 ms stays on NVUE's default 100 ms polling */
	assert_int_equal(nvue_wd_split(300, &poll, &robust), 0);
	assert_int_equal(poll, 100);
	assert_int_equal(robust, 3);
}

/* RoCE mode's headroom comes from `qos roce cable-length`: that is what is written there,
 * one value for the switch, never a PFC profile's. */
static void test_roce_cable(void **state)
{
	struct port_qos want, have;
	struct nvue_port_info info;
	struct nvue_ops ops;
	struct rc_err err;
	char *cli;
	(void)state;

	policy_want(&want);
	want.cable_length_m = 30;
	read_port("qos-roce-5.15.json", NULL, &have, &info);
	assert_true(info.roce_mode);
	struct rc_port_write w = {"swp1", &want, &have, RC_F_CABLE};

	assert_int_equal(build(&w, &info, 1, &ops, &err), 0);
	cli = nvue_render_cli(&ops);
	assert_string_equal(cli, "nv set qos roce cable-length 30\n");
	free(cli);
	nvue_ops_free(&ops);
}

/* RoCE lossy mode has no lossless pool: PFC is served by RoCE's lossless mode, one value for
 * the switch, never by a pool edit NVUE would refuse. */
static void test_roce_lossy_to_lossless(void **state)
{
	struct port_qos want, have;
	struct nvue_port_info info[2];
	struct nvue_ops ops;
	struct rc_err err;
	char *cli;
	(void)state;

	policy_want(&want);
	read_port("qos-roce-5.15.json", NULL, &have, &info[0]);
	assert_true(info[0].roce_mode);
	info[0].roce_lossy = true;
	info[0].pools_read = true;
	info[0].lossless_pool_prios = 0;
	have.pfc_enabled = 0;
	info[1] = info[0];
	struct rc_port_write w[2] = {{"swp1", &want, &have, RC_F_PFC},
				     {"swp2", &want, &have, RC_F_PFC}};

	if (build(w, info, 2, &ops, &err))
		fail_msg("%s", err.msg);
	cli = nvue_render_cli(&ops);
	assert_non_null(strstr(cli, "nv set qos roce mode lossless\n"));
	/* once for the switch, and no pool of its own */
	assert_null(strstr(strstr(cli, "mode lossless") + 1, "mode lossless"));
	assert_null(strstr(cli, "traffic-pool"));
	free(cli);
	nvue_ops_free(&ops);
}

static void test_ets_and_prio2tc(void **state)
{
	struct port_qos want, have;
	struct nvue_port_info info;
	struct nvue_ops ops;
	struct rc_err err;
	char *cli;
	(void)state;

	memset(&want, 0, sizeof(want));
	want.known = RC_F_ETS | RC_F_PRIO2TC;
	want.ets.tc_mask = (1u << 6) | (1u << 3);
	want.ets.tsa[6] = RC_TSA_STRICT;
	want.ets.tsa[3] = RC_TSA_DWRR;
	want.ets.bw_pct[3] = 50;
	want.prio_mask = 1u << 3;
	want.prio2tc[3] = 1;
	read_port("qos-factory-5.14.json", NULL, &have, &info);
	struct rc_port_write w = {"swp1", &want, &have, RC_F_ETS | RC_F_PRIO2TC};

	assert_int_equal(build(&w, &info, 1, &ops, &err), 0);
	cli = nvue_render_cli(&ops);
	assert_string_equal(
	    cli, "nv set qos egress-queue-mapping default-global switch-priority 3 "
		 "traffic-class 1\n"
		 "nv set qos egress-scheduler default-global traffic-class 3 bw-percent 50\n"
		 "nv set qos egress-scheduler default-global traffic-class 6 mode strict\n");
	free(cli);
	nvue_ops_free(&ops);
}

static char *file_text(const char *name, size_t *len)
{
	return rc_test_fixture("tests/data/nvue", name, len);
}

static void test_apply_output(void **state)
{
	char why[256];
	size_t lo, le;
	char *out, *errout;
	(void)state;

	out = file_text("apply-ok.out", &lo);
	assert_int_equal(nvue_check_apply_output(out, lo, "", 0, 0, why, sizeof(why)), 0);
	free(out);

	errout = file_text("apply-invalid.err", &le);
	assert_int_equal(nvue_check_apply_output("", 0, errout, le, 1, why, sizeof(why)), -EIO);
	assert_non_null(strstr(why, "Config invalid at qos.congestion-control"));
	/* even with a zero exit status, "Invalid config" is a failure */
	assert_int_equal(nvue_check_apply_output(errout, le, "", 0, 0, why, sizeof(why)), -EIO);
	free(errout);

	out = file_text("apply-aborted.out", &lo);
	errout = file_text("apply-aborted.err", &le);
	assert_int_equal(nvue_check_apply_output(out, lo, errout, le, 1, why, sizeof(why)), -EIO);
	assert_non_null(strstr(why, "Aborted"));
	free(out);
	free(errout);

	/* a bare failure still says something; control bytes never reach the message */
	assert_int_equal(
	    nvue_check_apply_output("", 0, "\x1b[31mboom\x07", 10, 2, why, sizeof(why)), -EIO);
	assert_string_equal(why, "[31mboom");
	assert_int_equal(nvue_check_apply_output("", 0, "", 0, 3, why, sizeof(why)), -EIO);
	assert_string_equal(why, "exit status 3");
}

/* `nv config revision -o json` as commit-confirm clients read it: the one revision waiting
 * in "confirm"; an id that could not go into a command line refuses the whole answer. */
static void test_revisions_waiting(void **state)
{
	char(*ids)[64] = NULL;
	struct rc_err err = {0};
	char st[32];
	size_t n = 9;
	cJSON *j = cJSON_Parse("{\"1\": {\"state\": \"applied_and_saved\"}, \"7\": {\"state\": "
			       "\"confirm\"}, \"8\": {\"state\": \"pending\"}}");
	(void)state;

	assert_int_equal(nvue_revisions_in_state(j, "confirm", &ids, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_string_equal(ids[0], "7");
	free(ids);
	assert_int_equal(nvue_revision_state_of(j, "1", st, sizeof(st), &err), 0);
	assert_string_equal(st, "applied_and_saved");
	assert_true(nvue_revision_applied(st));
	assert_int_equal(nvue_revision_state_of(j, "9", st, sizeof(st), &err), 1);
	cJSON_Delete(j);

	j = cJSON_Parse("{\"7; nv config apply\": {\"state\": \"confirm\"}}");
	assert_int_equal(nvue_revisions_in_state(j, "confirm", &ids, &n, &err), -EPROTO);
	assert_null(ids);
	cJSON_Delete(j);
	j = cJSON_Parse("{\"7\": {\"state\": 3}}");
	assert_int_equal(nvue_revisions_in_state(j, "confirm", &ids, &n, &err), -EPROTO);
	assert_int_equal(nvue_revision_state_of(j, "7", st, sizeof(st), &err), -EPROTO);
	cJSON_Delete(j);
	j = cJSON_Parse("[]");
	assert_int_equal(nvue_revisions_in_state(j, "confirm", &ids, &n, &err), -EPROTO);
	cJSON_Delete(j);
}

static void test_revisions(void **state)
{
	char id[32], st[32], issue[256];
	struct rc_err err = {0};
	bool ok;
	cJSON *j;
	(void)state;

	j = load("rev-post.json");
	assert_int_equal(nvue_revision_id(j, id, sizeof(id), &err), 0);
	assert_string_equal(id, "7");
	cJSON_Delete(j);
	j = load("rev-post-hostile.json");
	assert_int_equal(nvue_revision_id(j, id, sizeof(id), &err), -EPROTO);
	cJSON_Delete(j);

	j = load("rev-applied.json");
	assert_int_equal(nvue_revision_state(j, st, sizeof(st), issue, sizeof(issue), &err), 0);
	assert_true(nvue_revision_final(st, &ok));
	assert_true(ok);
	cJSON_Delete(j);

	j = load("rev-apply.json");
	assert_int_equal(nvue_revision_state(j, st, sizeof(st), issue, sizeof(issue), &err), 0);
	assert_false(nvue_revision_final(st, &ok));
	cJSON_Delete(j);

	j = load("rev-invalid.json");
	assert_int_equal(nvue_revision_state(j, st, sizeof(st), issue, sizeof(issue), &err), 0);
	assert_true(nvue_revision_final(st, &ok));
	assert_false(ok);
	assert_non_null(strstr(issue, "min-threshold (1500000) must be less"));
	assert_null(strchr(issue, '\n'));
	cJSON_Delete(j);

	j = load("rev-ays-fail.json");
	assert_int_equal(nvue_revision_state(j, st, sizeof(st), issue, sizeof(issue), &err), 0);
	assert_true(nvue_revision_final(st, &ok));
	assert_false(ok);
	assert_string_equal(issue, "Timeout while waiting for client response");
	cJSON_Delete(j);

	j = cJSON_Parse("{\"state\": 5}");
	assert_int_equal(nvue_revision_state(j, st, sizeof(st), issue, sizeof(issue), &err),
			 -EPROTO);
	cJSON_Delete(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_factory_to_policy),
	    cmocka_unit_test(test_restore_unsets),
	    cmocka_unit_test(test_in_sync_no_ops),
	    cmocka_unit_test(test_shared_profile_conflict),
	    cmocka_unit_test(test_shared_profile_peer),
	    cmocka_unit_test(test_bad_names_refused),
	    cmocka_unit_test(test_watchdog),
	    cmocka_unit_test(test_watchdog_ranges),
	    cmocka_unit_test(test_roce_cable),
	    cmocka_unit_test(test_roce_lossy_to_lossless),
	    cmocka_unit_test(test_ets_and_prio2tc),
	    cmocka_unit_test(test_apply_output),
	    cmocka_unit_test(test_revisions),
	    cmocka_unit_test(test_revisions_waiting),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
