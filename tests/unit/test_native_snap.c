/* SPDX-License-Identifier: Apache-2.0 */
/* Native snapshots (drivers/switch/nvue_snap.c, eos_snap.c): the blob written and read
 * back, malformed or hostile blobs refused (they come from a journal file on disk), and the
 * restore that deletes what a run created -- NVUE profiles and explicit settings, EOS lines
 * the factory did not have. */
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

#include "../../drivers/switch/eos.h"
#include "../../drivers/switch/nvue.h"
#include "../../drivers/switch/sonic.h"

static const char nv_ports[2][RC_NAME_MAX] = {"swp1", "swp2"};

/* `nv config show -o json` of a switch where qos was configured by hand, a profile bound. */
static const char nv_show[] =
    "[{\"header\": {\"model\": \"SN5600\", \"version\": \"Cumulus Linux 5.14.0\"}},"
    " {\"set\": {\"system\": {\"hostname\": \"leaf01\"},"
    "  \"qos\": {\"mapping\": {\"default-global\": {\"trust\": \"l3\"}},"
    "           \"pfc\": {\"lab\": {\"switch-priority\": {\"3\": {}}, \"cable-length\": 10}}},"
    "  \"interface\": {\"swp1\": {\"qos\": {\"pfc\": {\"profile\": \"lab\"}}},"
    "                  \"swp9\": {\"qos\": {\"pfc\": {\"profile\": \"lab\"}}}}}}]";

static void test_nvue_round_trip(void **state)
{
	struct rc_err err = {0};
	struct nvue_snap snap, back;
	cJSON *root = NULL;
	char *blob, *cli;

	(void)state;
	assert_int_equal(nvue_config_show_root(nv_show, strlen(nv_show), &root, &err), 0);
	assert_int_equal(nvue_snap_from_root(root, nv_ports, 2, &snap, &err), 0);
	cJSON_Delete(root);
	assert_null(snap.ifqos[1]); /* swp2: nothing configured */
	assert_false(snap.absent[0]);
	assert_true(snap.absent[1]); /* ... not even the interface entry */
	snap.rest = true;
	snap.pending = calloc(1, sizeof(*snap.pending));
	assert_non_null(snap.pending);
	strcpy(snap.pending[0], "12");
	snap.n_pending = 1;
	blob = nvue_snap_write(&snap);
	assert_non_null(blob);
	assert_int_equal(nvue_snap_parse(blob, &back, &err), 0);
	assert_true(back.rest);
	assert_false(back.timed); /* not written: the snapshot of a run without --confirm */
	assert_true(nvue_snap_was_pending(&back, "12"));
	assert_false(nvue_snap_was_pending(&back, "13"));
	assert_true(back.absent[1]);
	assert_true(cJSON_Compare(snap.qos, back.qos, true));
	cli = nvue_snap_cli(&back);
	assert_non_null(cli);
	/* the subtrees are emptied first (what the run created goes), then set back */
	assert_string_equal(cli, "nv unset qos\n"
				 "nv unset interface swp1 qos\n"
				 "nv unset interface swp2\n"
				 "nv set qos mapping default-global trust l3\n"
				 "nv set qos pfc lab switch-priority 3\n"
				 "nv set qos pfc lab cable-length 10\n"
				 "nv set interface swp1 qos pfc profile lab\n");
	free(cli);
	free(blob);
	nvue_snap_free(&snap);
	nvue_snap_free(&back);
}

/* GET /nvue_v1/?rev=applied as a device may answer it: a set member or a whole subtree
 * unset by a merge patch left as null (RFC 7386; NVUE PATCH unsets with null), and a port
 * whose interface entry is null.  Nulls are absent, never a reason to refuse the snapshot. */
static void test_nvue_applied_tree_with_nulls(void **state)
{
	static const char applied[] =
	    "{\"qos\": {\"pfc\": {\"lab\": {\"switch-priority\": {\"3\": {}, \"4\": null},"
	    "                    \"cable-length\": 10, \"rx\": null}},"
	    "         \"congestion-control\": null, \"roce\": {\"enable\": \"on\"}},"
	    " \"interface\": {\"swp1\": {\"qos\": {\"pfc\": {\"profile\": \"lab\"},"
	    "                                \"pfc-watchdog\": null}},"
	    "               \"swp2\": null}}";
	struct rc_err err = {0};
	struct nvue_snap snap;
	cJSON *root = cJSON_Parse(applied), *want;
	char *cli;

	(void)state;
	assert_non_null(root);
	assert_int_equal(nvue_snap_from_root(root, nv_ports, 2, &snap, &err), 0);
	cJSON_Delete(root);
	want = cJSON_Parse("{\"pfc\": {\"lab\": {\"switch-priority\": {\"3\": {}},"
			   " \"cable-length\": 10}}, \"roce\": {\"enable\": \"on\"}}");
	assert_true(cJSON_Compare(snap.qos, want, true));
	cJSON_Delete(want);
	assert_false(snap.absent[0]);
	assert_true(snap.absent[1]); /* swp2: null is no entry */
	assert_null(snap.ifqos[1]);
	cli = nvue_snap_cli(&snap);
	assert_non_null(cli);
	assert_null(strstr(cli, "null"));
	assert_non_null(strstr(cli, "nv set qos pfc lab switch-priority 3\n"));
	assert_null(strstr(cli, "switch-priority 4"));
	free(cli);
	nvue_snap_free(&snap);
	/* interface: null and qos: null alone */
	root = cJSON_Parse("{\"qos\": null, \"interface\": null}");
	assert_int_equal(nvue_snap_from_root(root, nv_ports, 2, &snap, &err), 0);
	cJSON_Delete(root);
	assert_null(snap.qos);
	assert_true(snap.absent[0] && snap.absent[1]);
	nvue_snap_free(&snap);
	/* a journaled blob with a null is refused: we never write one */
	assert_int_not_equal(
	    nvue_snap_parse(
		"{\"version\": 1, \"ports\": {}, \"absent\": [], \"qos\": {\"a\": null}}", &snap,
		&err),
	    0);
}

/* A run under NVUE's own timer (apply --confirm) says so in its snapshot: the restore
 * keeps the timed revision first, the confirm checks it is still there (nvue.c). */
static void test_nvue_timed_flag(void **state)
{
	struct rc_err err = {0};
	struct nvue_snap snap = {0}, back;
	char *blob;

	(void)state;
	snap.timed = true;
	blob = nvue_snap_write(&snap);
	assert_non_null(blob);
	assert_non_null(strstr(blob, "\"timed\":true"));
	assert_int_equal(nvue_snap_parse(blob, &back, &err), 0);
	assert_true(back.timed);
	free(blob);
	nvue_snap_free(&back);
	assert_int_equal(nvue_snap_parse("{\"version\": 1, \"ports\": {}, \"absent\": [], "
					 "\"timed\": false}",
					 &back, &err),
			 0);
	assert_false(back.timed);
	nvue_snap_free(&back);
}

static void test_nvue_patch(void **state)
{
	struct rc_err err = {0};
	struct nvue_snap snap;
	cJSON *root = NULL, *patch;

	(void)state;
	assert_int_equal(nvue_config_show_root(nv_show, strlen(nv_show), &root, &err), 0);
	assert_int_equal(nvue_snap_from_root(root, nv_ports, 2, &snap, &err), 0);
	patch = nvue_snap_patch(&snap);
	assert_non_null(patch);
	/* the managed subtrees only: not system, not swp9 */
	assert_null(cJSON_GetObjectItem(patch, "system"));
	assert_non_null(cJSON_GetObjectItem(cJSON_GetObjectItem(patch, "interface"), "swp1"));
	assert_null(cJSON_GetObjectItem(cJSON_GetObjectItem(patch, "interface"), "swp9"));
	assert_true(cJSON_Compare(cJSON_GetObjectItem(patch, "qos"),
				  cJSON_GetObjectItem(root, "qos"), true));
	cJSON_Delete(patch);
	cJSON_Delete(root);
	nvue_snap_free(&snap);
}

static void test_nvue_refuses(void **state)
{
	static const char *const bad[] = {
	    "",
	    "[",
	    "{}",
	    "{\"version\": 2, \"ports\": {}}",
	    "{\"version\": 1}",
	    "{\"version\": 1, \"ports\": []}",
	    /* a word that would reach a command line */
	    "{\"version\": 1, \"ports\": {}, \"qos\": {\"pfc\": {\"a; reboot\": {}}}}",
	    "{\"version\": 1, \"ports\": {}, \"qos\": {\"pfc\": {\"a\": \"x y\"}}}",
	    "{\"version\": 1, \"ports\": {\"swp1 && reboot\": {}}}",
	    "{\"version\": 1, \"ports\": {\"../x\": {}}}",
	    "{\"version\": 1, \"ports\": {}, \"absent\": [], \"pending\": [\"1/../x\"]}",
	    "{\"version\": 1, \"ports\": {}, \"absent\": [\"swp1\"]}",
	    "{\"version\": 1, \"ports\": {}}",
	    "{\"version\": 1, \"ports\": {}, \"qos\": {\"a\": [1]}}",
	    "{\"version\": 1, \"ports\": {}, \"qos\": {\"a\": 1.5}}",
	    "{\"version\": 1, \"ports\": {}, \"qos\": {\"a\": 1e300}}",
	    "{\"version\": 1, \"ports\": {}, \"qos\": {\"a\": true}}",
	    "{\"version\": 1, \"ports\": {}, \"qos\": \"x\"}",
	    "{\"version\": 1, \"ports\": {}, \"absent\": [], \"timed\": 1}",
	    "{\"version\": 1, \"ports\": {}, \"absent\": [], \"timed\": \"yes\"}",
	};
	struct rc_err err = {0};
	struct nvue_snap snap;
	cJSON *root;
	char deep[2048];
	size_t o = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (nvue_snap_parse(bad[i], &snap, &err) == 0)
			fail_msg("accepted: %s", bad[i]);
		assert_null(snap.qos);
	}
	assert_int_not_equal(nvue_snap_parse(NULL, &snap, &err), 0);
	o += (size_t)sprintf(deep, "{\"version\": 1, \"ports\": {}, \"qos\": ");
	for (int i = 0; i < 40; i++)
		o += (size_t)sprintf(deep + o, "{\"a\": ");
	o += (size_t)sprintf(deep + o, "1");
	for (int i = 0; i < 41; i++)
		o += (size_t)sprintf(deep + o, "}");
	assert_int_not_equal(nvue_snap_parse(deep, &snap, &err), 0);
	/* `nv config show` shapes that are not header + one set */
	assert_int_not_equal(nvue_config_show_root("{}", 2, &root, &err), 0);
	assert_int_not_equal(nvue_config_show_root("[{\"x\": 1}]", 10, &root, &err), 0);
	assert_int_not_equal(
	    nvue_config_show_root("[{\"set\": {}}, {\"set\": {}}]", 26, &root, &err), 0);
	assert_int_not_equal(nvue_config_show_root("[{\"set\": {}", 11, &root, &err), 0);
	assert_int_equal(nvue_config_show_root("[{\"header\": {}}]", 16, &root, &err), 0);
	assert_null(root->child);
	cJSON_Delete(root);
}

static void test_nvue_pending(void **state)
{
	static const char revs[] =
	    "{\"1\": {\"state\": \"applied\"}, \"4\": {\"state\": \"pending\"},"
	    " \"5\": {\"state\": \"invalid\"}}";
	struct rc_err err = {0};
	char(*ids)[64];
	size_t n;
	cJSON *j = cJSON_Parse(revs), *bad = cJSON_Parse("{\"4\": {\"x\": 1}}");

	(void)state;
	assert_int_equal(nvue_pending_revisions(j, &ids, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_string_equal(ids[0], "4");
	free(ids);
	assert_int_not_equal(nvue_pending_revisions(bad, &ids, &n, &err), 0);
	assert_null(ids);
	assert_int_not_equal(nvue_pending_revisions(NULL, &ids, &n, &err), 0);
	cJSON_Delete(j);
	cJSON_Delete(bad);
}

/* ---- EOS ----------------------------------------------------------------------------- */

static const char eos_ports[1][RC_NAME_MAX] = {"Ethernet1"};

static const char eos_before[] = "hostname leaf02\n"
				 "qos map dscp 24 to traffic-class 3\n"
				 "!\n"
				 "interface Ethernet1\n"
				 "   description uplink\n"
				 "   qos trust cos\n"
				 "   !\n"
				 "   tx-queue 3\n"
				 "      bandwidth percent 30\n"
				 "!\n"
				 "interface Ethernet2\n"
				 "   qos trust cos\n"
				 "!\n";

/* what a run left: lines added, one changed, a queue block created */
static const char eos_after[] = "hostname leaf02\n"
				"qos map dscp 24 26 to traffic-class 3\n"
				"priority-flow-control pause watchdog default timeout 0.2\n"
				"!\n"
				"interface Ethernet1\n"
				"   description uplink\n"
				"   qos trust dscp\n"
				"   priority-flow-control on\n"
				"   !\n"
				"   tx-queue 3\n"
				"      bandwidth percent 50\n"
				"      random-detect ecn count\n"
				"   !\n"
				"   tx-queue 6\n"
				"      priority strict\n"
				"!\n"
				"interface Ethernet2\n"
				"   qos trust dscp\n"
				"!\n";

static void parse_cfg(const char *text, struct eos_config *cfg)
{
	struct rc_err err = {0};

	assert_int_equal(eos_parse_config_text(text, strlen(text), "test", cfg, &err), 0);
}

static void test_eos_restore(void **state)
{
	static const char *const want[] = {
	    "default qos map dscp 24 26 to traffic-class 3",
	    "default priority-flow-control pause watchdog default timeout 0.2",
	    "qos map dscp 24 to traffic-class 3",
	    "interface Ethernet1",
	    "default qos trust dscp",
	    "default priority-flow-control on",
	    "tx-queue 3",
	    "default bandwidth percent 50",
	    "default random-detect ecn count",
	    "bandwidth percent 30",
	    "exit",
	    "default tx-queue 6",
	    "qos trust cos",
	    "exit",
	    NULL,
	};
	struct eos_config before, after;
	struct rc_err err = {0};
	struct eos_snap snap, back;
	char **lines, *blob;
	size_t n, i;

	(void)state;
	parse_cfg(eos_before, &before);
	parse_cfg(eos_after, &after);
	assert_int_equal(
	    eos_snap_from_config(&before, &before, eos_ports, 1, "rocectl-1-2-3", &snap, &err), 0);
	assert_false(snap.has_startup); /* equal to the running-config: not kept */
	blob = eos_snap_write(&snap);
	assert_non_null(blob);
	assert_int_equal(eos_snap_parse(blob, &back, &err), 0);
	assert_string_equal(back.session, "rocectl-1-2-3");
	assert_int_equal(eos_snap_restore_lines(&after, &back, &back.cfg, &lines, &n, &err), 0);
	for (i = 0; want[i] && i < n; i++)
		assert_string_equal(lines[i], want[i]);
	assert_int_equal(i, n);
	assert_null(want[i]);
	eos_lines_free(lines);
	/* restoring to itself: nothing to do */
	assert_int_equal(eos_snap_restore_lines(&before, &back, &back.cfg, &lines, &n, &err), 0);
	assert_int_equal(n, 0);
	eos_lines_free(lines);
	free(blob);
	eos_snap_free(&snap);
	eos_snap_free(&back);
	eos_config_free(&before);
	eos_config_free(&after);
}

static void test_eos_startup_kept(void **state)
{
	struct eos_config before, startup;
	struct rc_err err = {0};
	struct eos_snap snap, back;
	char *blob;

	(void)state;
	parse_cfg(eos_before, &before);
	parse_cfg("hostname leaf02\n", &startup);
	assert_int_equal(eos_snap_from_config(&before, &startup, eos_ports, 1, "s1", &snap, &err),
			 0);
	assert_true(snap.has_startup);
	blob = eos_snap_write(&snap);
	assert_int_equal(eos_snap_parse(blob, &back, &err), 0);
	assert_true(back.has_startup);
	assert_int_equal(back.startup.n, 0);
	free(blob);
	eos_snap_free(&snap);
	eos_snap_free(&back);
	eos_config_free(&before);
	eos_config_free(&startup);
}

/* After a restore the read-back is compared with the snapshot: what differs, by line. */
static void test_nvue_differences(void **state)
{
	struct rc_err err = {0};
	struct nvue_snap want, now;
	cJSON *root = NULL, *j;
	char why[512];

	(void)state;
	assert_int_equal(nvue_config_show_root(nv_show, strlen(nv_show), &root, &err), 0);
	assert_int_equal(nvue_snap_from_root(root, nv_ports, 2, &want, &err), 0);
	assert_int_equal(nvue_snap_from_root(root, nv_ports, 2, &now, &err), 0);
	assert_int_equal(nvue_snap_differences(&want, &now, why, sizeof(why)), 0);
	assert_string_equal(why, "");
	/* what a run left: a profile on swp2, an explicit trust, a cable length changed */
	j = cJSON_GetObjectItem(cJSON_GetObjectItem(now.qos, "pfc"), "lab");
	cJSON_ReplaceItemInObject(j, "cable-length", cJSON_CreateNumber(3));
	now.ifqos[1] = cJSON_Parse("{\"pfc\": {\"profile\": \"rocectl-cable-3m\"}}");
	now.absent[1] = false;
	assert_int_equal(nvue_snap_differences(&want, &now, why, sizeof(why)), 3);
	assert_string_equal(why, "-nv set qos pfc lab cable-length 10; "
				 "+nv set qos pfc lab cable-length 3; "
				 "+nv set interface swp2 qos pfc profile rocectl-cable-3m");
	cJSON_Delete(root);
	nvue_snap_free(&want);
	nvue_snap_free(&now);
}

static void test_eos_differences(void **state)
{
	struct eos_config before, after, split;
	struct rc_err err = {0};
	struct eos_snap snap;
	char why[600];

	(void)state;
	parse_cfg(eos_before, &before);
	parse_cfg(eos_after, &after);
	assert_int_equal(eos_snap_from_config(&before, &before, eos_ports, 1, "s1", &snap, &err),
			 0);
	assert_int_equal(eos_snap_differences(&before, &snap, &snap.cfg, why, sizeof(why), &err),
			 0);
	assert_string_equal(why, "");
	assert_true(eos_snap_differences(&after, &snap, &snap.cfg, why, sizeof(why), &err) > 0);
	assert_non_null(strstr(why, "+interface Ethernet1 > tx-queue 3 > random-detect ecn count"));
	assert_non_null(strstr(why, "-interface Ethernet1 > qos trust cos"));
	/* the same lines in another order differ too */
	parse_cfg("qos map dscp 24 to traffic-class 3\nqos map traffic-class 3 to tx-queue 3\n",
		  &split);
	eos_snap_free(&snap);
	assert_int_equal(eos_snap_from_config(&split, NULL, eos_ports, 1, "s1", &snap, &err), 0);
	eos_config_free(&split);
	parse_cfg("qos map traffic-class 3 to tx-queue 3\nqos map dscp 24 to traffic-class 3\n",
		  &split);
	assert_int_equal(eos_snap_differences(&split, &snap, &snap.cfg, why, sizeof(why), &err), 1);
	assert_string_equal(why, "the same lines in another order");
	eos_snap_free(&snap);
	eos_config_free(&split);
	eos_config_free(&before);
	eos_config_free(&after);
}

static void test_sonic_differences(void **state)
{
	cJSON *want = cJSON_Parse("{\"DSCP_TO_TC_MAP\": {\"AZURE\": {\"26\": \"3\"}},"
				  " \"BUFFER_PG\": {\"Ethernet0|3-4\": {\"profile\": \"p\"}}}");
	cJSON *now = cJSON_Parse("{\"DSCP_TO_TC_MAP\": {\"AZURE\": {\"26\": \"1\"}},"
				 " \"BUFFER_PG\": {\"Ethernet0|3\": {\"profile\": \"p\"}}}");
	char why[256];

	(void)state;
	assert_int_equal(sonic_config_differences(want, want, why, sizeof(why)), 0);
	assert_string_equal(why, "");
	assert_int_equal(sonic_config_differences(want, now, why, sizeof(why)), 3);
	assert_string_equal(why, "~DSCP_TO_TC_MAP|AZURE; -BUFFER_PG|Ethernet0|3-4; "
				 "+BUFFER_PG|Ethernet0|3");
	cJSON_Delete(want);
	cJSON_Delete(now);
}

static void test_eos_refuses(void **state)
{
	static const char *const bad[] = {
	    "",
	    "{}",
	    "{\"version\": 1, \"session\": \"s\", \"ports\": []}",
	    "{\"version\": 1, \"session\": \"s; x\", \"ports\": [], \"running\": \"\"}",
	    "{\"version\": 1, \"session\": \"s\", \"ports\": [\"Ethernet1\\nreload\"], "
	    "\"running\": \"\"}",
	    "{\"version\": 1, \"session\": \"s\", \"ports\": {}, \"running\": \"\"}",
	    /* lines rocectl does not manage must not reach a session */
	    "{\"version\": 1, \"session\": \"s\", \"ports\": [], \"running\": \"username x\\n\"}",
	    "{\"version\": 1, \"session\": \"s\", \"ports\": [\"Ethernet1\"], "
	    "\"running\": \"interface Ethernet1\\n   shutdown\\n\"}",
	    "{\"version\": 1, \"session\": \"s\", \"ports\": [], "
	    "\"running\": \"interface Ethernet1\\n   qos trust dscp\\n\"}",
	    "{\"version\": 1, \"session\": \"s\", \"ports\": [], "
	    "\"running\": \"qos map dscp 1\\u0007 to traffic-class 1\\n\"}",
	    "{\"version\": 1, \"session\": \"s\", \"ports\": [], \"running\": \"\\tqos\\n\"}",
	    "{\"version\": 1, \"session\": \"s\", \"ports\": [], \"running\": \"\", \"startup\": "
	    "3}",
	    "{\"version\": 2, \"session\": \"s\", \"ports\": [], \"running\": \"\"}",
	};
	struct rc_err err = {0};
	struct eos_snap snap;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (eos_snap_parse(bad[i], &snap, &err) == 0)
			fail_msg("accepted: %s", bad[i]);
		assert_int_equal(snap.cfg.n, 0);
	}
	assert_int_not_equal(eos_snap_parse(NULL, &snap, &err), 0);
	assert_int_equal(
	    eos_snap_parse("{\"version\": 1, \"session\": \"s\", \"ports\": [\"Ethernet1\"], "
			   "\"running\": \"qos map dscp 1 to traffic-class 1\\ninterface "
			   "Ethernet1\\n   qos trust dscp\\n\"}",
			   &snap, &err),
	    0);
	assert_int_equal(snap.cfg.n, 3);
	eos_snap_free(&snap);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_nvue_round_trip),
	    cmocka_unit_test(test_nvue_timed_flag),
	    cmocka_unit_test(test_nvue_patch),
	    cmocka_unit_test(test_nvue_applied_tree_with_nulls),
	    cmocka_unit_test(test_nvue_refuses),
	    cmocka_unit_test(test_nvue_pending),
	    cmocka_unit_test(test_eos_restore),
	    cmocka_unit_test(test_eos_startup_kept),
	    cmocka_unit_test(test_eos_refuses),
	    cmocka_unit_test(test_nvue_differences),
	    cmocka_unit_test(test_eos_differences),
	    cmocka_unit_test(test_sonic_differences),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
