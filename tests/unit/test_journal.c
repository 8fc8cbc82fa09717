/* SPDX-License-Identifier: Apache-2.0 */
/* The journal and the port state serialization it relies on. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "rocectl/journal.h"

static struct port_qos full_state(void)
{
	struct port_qos q;

	memset(&q, 0, sizeof(q));
	q.known = RC_F_ALL;
	q.unsupported = RC_F_CNP;
	q.known &= ~RC_F_CNP;
	q.trust = RC_TRUST_DSCP;
	q.dscp_mask = (1ull << 26) | (1ull << 48) | (1ull << 63);
	q.dscp2prio[26] = 3;
	q.dscp2prio[48] = 6;
	q.dscp2prio[63] = 7;
	q.dscp_entries_known = true; /* 26 and 63 have entries, 48 keeps firmware's 6 */
	q.dscp_entries = (1ull << 26) | (1ull << 63);
	q.prio_mask = 1u << 3;
	q.prio2tc[3] = 3;
	q.pfc_enabled = 1u << 3;
	q.cable_length_m = 30;
	q.ecn_tc_mask = 1u << 3;
	q.ecn[3] = (struct rc_ecn_tc){true, 150000, 1500000, 0.5};
	q.headroom_mask = 1u << 3;
	q.headroom_bytes[3] = 126436;
	q.ets.tc_mask = (1u << 6) | (1u << 3);
	q.ets.tsa[6] = RC_TSA_STRICT;
	q.ets.tsa[3] = RC_TSA_DWRR;
	q.ets.bw_pct[3] = 50;
	q.watchdog = (struct rc_watchdog){true, 200, 400, RC_WD_FORWARD, RC_WD_FIXED_ACTION};
	q.mtu = 9216;
	q.speed_gbps = 400;
	q.nic_ecn_prio_mask = 0xff;
	q.nic_ecn_np = 1u << 3;
	q.nic_ecn_rp = (1u << 3) | (1u << 4);
	q.roce_tos = 106;
	q.dcbx_host = true;
	rc_effect_warn(&q.effect, RC_F_DSCP2PRIO, "DSCP 24-25 land in a lossless priority");
	rc_effect_inert(&q.effect, RC_F_CABLE, "firmware sizes the buffers; 100%% of them");
	rc_effect_drift(&q.effect, RC_F_PFC | RC_F_ECN, "running differs from startup");
	q.effect.unverified = RC_F_CABLE;
	return q;
}

static void test_state_round_trips(void **unused)
{
	struct port_qos in = full_state(), out;
	struct rc_err err = {0};
	char *json = rc_port_qos_to_json(&in);

	(void)unused;
	assert_non_null(json);
	assert_int_equal(rc_port_qos_from_json(json, &out, &err), 0);
	free(json);
	assert_memory_equal(&in, &out, sizeof(in));
}

/* A port state's reasons keep their groups through the journal; a state written before they
 * had groups reads as one reason about every group; reasons that do not make "why" are
 * refused. */
static void test_effect_reasons_round_trip(void **unused)
{
	static const char *const refused[] = {
	    "{\"known\":0,\"unsupported\":0,\"effect\":{\"drift\":4,\"inert\":0,"
	    "\"unverified\":0,\"why\":\"a; b\",\"reasons\":[{\"groups\":4,\"why\":\"a\"}]}}",
	    "{\"known\":0,\"unsupported\":0,\"effect\":{\"drift\":4,\"inert\":0,"
	    "\"unverified\":0,\"why\":\"a\",\"reasons\":{\"groups\":4,\"why\":\"a\"}}}",
	    "{\"known\":0,\"unsupported\":0,\"effect\":{\"drift\":4,\"inert\":0,"
	    "\"unverified\":0,\"why\":\"a\",\"reasons\":[{\"groups\":-1,\"why\":\"a\"}]}}",
	    "{\"known\":0,\"unsupported\":0,\"effect\":{\"drift\":4,\"inert\":0,"
	    "\"unverified\":0,\"why\":\"a\",\"reasons\":[{\"groups\":4}]}}",
	};
	const char *legacy = "{\"known\":0,\"unsupported\":0,\"effect\":{\"drift\":4,"
			     "\"inert\":8,\"unverified\":0,\"why\":\"a; b\"}}";
	struct port_qos in = full_state(), out;
	struct rc_err err = {0};
	char *json = rc_port_qos_to_json(&in), buf[RC_WHY_LEN];

	(void)unused;
	assert_non_null(strstr(json, "\"reasons\""));
	assert_int_equal(rc_port_qos_from_json(json, &out, &err), 0);
	free(json);
	assert_int_equal(out.effect.n_why, 3);
	rc_effect_why_of(&out.effect, RC_F_CABLE, buf, sizeof(buf));
	assert_string_equal(buf, "firmware sizes the buffers; 100% of them");
	rc_effect_why_of(&out.effect, RC_F_ECN, buf, sizeof(buf));
	assert_string_equal(buf, "running differs from startup");

	assert_int_equal(rc_port_qos_from_json(legacy, &out, &err), 0);
	assert_int_equal(out.effect.n_why, 0);
	rc_effect_why_of(&out.effect, RC_F_CABLE, buf, sizeof(buf));
	assert_string_equal(buf, "a; b");
	json = rc_port_qos_to_json(&out);
	assert_null(strstr(json, "reasons"));
	free(json);

	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		memset(&err, 0, sizeof(err));
		assert_true(rc_port_qos_from_json(refused[i], &out, &err) < 0);
		assert_non_null(strstr(err.msg, "malformed port state"));
	}
}

static void test_unknown_groups_are_not_written(void **unused)
{
	struct port_qos in, out;
	struct rc_err err = {0};
	char *json;

	(void)unused;
	memset(&in, 0, sizeof(in));
	in.known = RC_F_PFC;
	in.pfc_enabled = 1u << 3;
	in.trust = RC_TRUST_DSCP; /* not known: must not travel */
	json = rc_port_qos_to_json(&in);
	assert_null(strstr(json, "trust"));
	assert_int_equal(rc_port_qos_from_json(json, &out, &err), 0);
	free(json);
	assert_int_equal(out.known, RC_F_PFC);
	assert_int_equal(out.trust, RC_TRUST_UNSET);
	assert_int_equal(out.pfc_enabled, 1u << 3);
}

static void test_hostile_state_is_refused(void **unused)
{
	static const char *const bad[] = {
	    "",
	    "[]",
	    "{\"known\":4,\"unsupported\":0,\"pfc_enabled\":[9]}",
	    "{\"known\":4,\"unsupported\":0,\"pfc_enabled\":\"3\"}",
	    "{\"known\":2,\"unsupported\":0,\"dscp2prio\":{\"64\":3}}",
	    "{\"known\":2,\"unsupported\":0,\"dscp2prio\":{\"26\":8}}",
	    "{\"known\":2,\"unsupported\":0,\"dscp2prio\":{},\"dscp_entries\":[64]}",
	    "{\"known\":2,\"unsupported\":0,\"dscp2prio\":{},\"dscp_entries\":[2.5]}",
	    "{\"known\":2,\"unsupported\":0,\"dscp2prio\":{},\"dscp_entries\":26}",
	    "{\"known\":16,\"unsupported\":0,\"ecn\":[{\"tc\":99}]}",
	    "{\"known\":4096,\"unsupported\":0,\"roce_tos\":256}",
	    "{\"known\":8192,\"unsupported\":0,\"dcbx\":\"maybe\"}",
	    "{\"known\":-1}",
	    "{\"known\":1e300}",
	    "{\"known\":4,\"unsupported\":0,\"pfc_enabled\":[3",
	};
	struct port_qos q;

	(void)unused;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct rc_err err = {0};

		assert_true(rc_port_qos_from_json(bad[i], &q, &err) < 0);
		assert_non_null(strstr(err.msg, "malformed port state"));
	}
}

static char *make_dir(void)
{
	char tmpl[] = "/tmp/rocectl-journal-XXXXXX";
	char *d = mkdtemp(tmpl);

	assert_non_null(d);
	return strdup(d);
}

static void test_save_list_done(void **unused)
{
	struct rc_device dev = {.name = "leaf01", .address = "192.0.2.1"};
	struct rc_port_state ports[2] = {{.name = "swp1"}, {.name = "swp2"}};
	struct rc_journal_entry *e;
	struct rc_err err = {0};
	char *dir = make_dir(), path[512];
	size_t n;

	(void)unused;
	ports[0].qos = full_state();
	ports[1].qos.known = RC_F_TRUST;
	ports[1].qos.trust = RC_TRUST_PCP;
	assert_int_equal(rc_journal_save(dir, "run-a", &dev, "nvue-ssh", ports, 2, &err), 0);
	snprintf(dev.name, sizeof(dev.name), "leaf02");
	assert_int_equal(rc_journal_save(dir, "run-b", &dev, "nvue-ssh", ports, 1, &err), 0);

	/* the file is private: it holds a device's configuration */
	snprintf(path, sizeof(path), "%s/run-a/leaf01.json", dir);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 077, 0);

	assert_int_equal(rc_journal_list(dir, NULL, &e, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(e[0].run_id, "run-a");
	assert_string_equal(e[0].device, "leaf01");
	assert_string_equal(e[0].driver, "nvue-ssh");
	assert_int_equal(e[0].n_ports, 2);
	assert_string_equal(e[0].ports[1].name, "swp2");
	assert_memory_equal(&e[0].ports[0].qos, &ports[0].qos, sizeof(ports[0].qos));
	assert_int_equal(e[0].ports[1].qos.trust, RC_TRUST_PCP);
	assert_string_equal(e[1].device, "leaf02");
	rc_journal_entries_free(e, n);

	assert_int_equal(rc_journal_list(dir, "run-b", &e, &n, &err), 0);
	assert_int_equal(n, 1);
	rc_journal_entries_free(e, n);

	assert_int_equal(rc_journal_done(dir, "run-a", "leaf01", &err), 0);
	assert_int_equal(rc_journal_list(dir, NULL, &e, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_string_equal(e[0].device, "leaf02");
	rc_journal_entries_free(e, n);
	/* the finished run's directory is gone */
	snprintf(path, sizeof(path), "%s/run-a", dir);
	assert_int_not_equal(access(path, F_OK), 0);

	assert_int_equal(rc_journal_done(dir, "run-b", "leaf02", &err), 0);
	assert_int_equal(rmdir(dir), 0);
	free(dir);
}

static void test_missing_dir_is_empty(void **unused)
{
	struct rc_journal_entry *e;
	struct rc_err err = {0};
	size_t n = 99;

	(void)unused;
	assert_int_equal(rc_journal_list("/nonexistent/rocectl/journal", NULL, &e, &n, &err), 0);
	assert_int_equal(n, 0);
	rc_journal_entries_free(e, n);
}

/* A corrupt file is one entry marked bad with its reason, next to the good ones: it used
 * to fail the whole listing, and with it every rollback. */
static void test_corrupt_entry_is_reported_not_fatal(void **unused)
{
	struct rc_device dev = {.name = "leaf02", .address = "192.0.2.2"};
	struct rc_port_state port = {.name = "swp1"};
	struct rc_journal_entry *e;
	struct rc_err err = {0};
	char *dir = make_dir(), path[512], cmd[600];
	size_t n;
	FILE *f;

	(void)unused;
	assert_int_equal(rc_journal_save(dir, "run-x", &dev, "nvue-ssh", &port, 1, &err), 0);
	snprintf(path, sizeof(path), "%s/run-x/leaf01.json", dir);
	f = fopen(path, "w");
	fputs("{\"run_id\":\"run-x\",\"device\":\"leaf01\"", f);
	fclose(f);
	assert_int_equal(rc_journal_list(dir, NULL, &e, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(e[0].device, "leaf01");
	assert_non_null(strstr(e[0].bad, "leaf01.json"));
	assert_non_null(strstr(e[0].bad, "not valid JSON"));
	assert_null(e[0].ports);
	assert_string_equal(e[1].device, "leaf02");
	assert_string_equal(e[1].bad, "");
	assert_int_equal(e[1].n_ports, 1);
	rc_journal_entries_free(e, n);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	free(dir);
}

/* Nothing in the journal is followed through a symlink, read or written, and no device or
 * run name reaches outside it. */
static void test_journal_stays_inside_its_directory(void **unused)
{
	struct rc_device dev = {.name = "rack1/leaf01", .address = "192.0.2.1"};
	struct rc_port_state port = {.name = "swp1"};
	struct rc_journal_entry *e;
	struct rc_err err = {0};
	char *dir = make_dir(), *outside = make_dir(), path[512], target[512], cmd[1200];
	struct stat st;
	size_t n;

	(void)unused;
	/* a '/' in a device name stays in the file name */
	assert_int_equal(rc_journal_save(dir, "run-a", &dev, "nvue-ssh", &port, 1, &err), 0);
	snprintf(path, sizeof(path), "%s/run-a/rack1%%2Fleaf01.json", dir);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 077, 0);
	snprintf(path, sizeof(path), "%s/run-a", dir);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 077, 0);
	assert_int_equal(rc_journal_list(dir, NULL, &e, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_string_equal(e[0].device, "rack1/leaf01");
	assert_string_equal(e[0].bad, "");
	rc_journal_entries_free(e, n);
	assert_int_equal(rc_journal_done(dir, "run-a", "rack1/leaf01", &err), 0);

	/* hostile names */
	snprintf(dev.name, sizeof(dev.name), "../../etc/x");
	assert_int_equal(rc_journal_save(dir, "run-b", &dev, "nvue-ssh", &port, 1, &err), -EINVAL);
	snprintf(dev.name, sizeof(dev.name), "leaf01");
	assert_int_equal(rc_journal_save(dir, "../run-b", &dev, "nvue-ssh", &port, 1, &err),
			 -EINVAL);
	assert_int_equal(rc_journal_save(dir, ".hidden", &dev, "nvue-ssh", &port, 1, &err),
			 -EINVAL);
	assert_true(rc_journal_list(dir, "../x", &e, &n, &err) < 0);

	/* a run directory that is a symlink to elsewhere: neither written nor read through */
	snprintf(path, sizeof(path), "%s/run-c", dir);
	assert_int_equal(symlink(outside, path), 0);
	assert_true(rc_journal_save(dir, "run-c", &dev, "nvue-ssh", &port, 1, &err) < 0);
	assert_non_null(strstr(err.msg, "not a directory"));
	snprintf(target, sizeof(target), "%s/leaf01.json", outside);
	assert_int_not_equal(access(target, F_OK), 0);
	assert_int_equal(unlink(path), 0);

	/* a journal file that is a symlink: reported, not read */
	assert_int_equal(rc_journal_save(dir, "run-d", &dev, "nvue-ssh", &port, 1, &err), 0);
	snprintf(path, sizeof(path), "%s/run-d/leaf01.json", dir);
	assert_int_equal(rename(path, target), 0);
	assert_int_equal(symlink(target, path), 0);
	assert_int_equal(rc_journal_list(dir, NULL, &e, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_non_null(strstr(e[0].bad, "symbolic link"));
	rc_journal_entries_free(e, n);
	/* and writing over it replaces the link, never the file it points to */
	assert_int_equal(rc_journal_save(dir, "run-d", &dev, "nvue-ssh", &port, 1, &err), 0);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));

	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", dir, outside);
	assert_int_equal(system(cmd), 0);
	free(dir);
	free(outside);
}

static void test_run_ids_sort_by_time(void **unused)
{
	char a[64], b[64];

	(void)unused;
	rc_journal_new_run_id(a, sizeof(a));
	usleep(2000);
	rc_journal_new_run_id(b, sizeof(b));
	assert_true(strcmp(a, b) < 0);
	assert_int_equal(strspn(a, "0123456789TZ.-"), strlen(a));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_state_round_trips),
	    cmocka_unit_test(test_effect_reasons_round_trip),
	    cmocka_unit_test(test_unknown_groups_are_not_written),
	    cmocka_unit_test(test_hostile_state_is_refused),
	    cmocka_unit_test(test_save_list_done),
	    cmocka_unit_test(test_missing_dir_is_empty),
	    cmocka_unit_test(test_corrupt_entry_is_reported_not_fatal),
	    cmocka_unit_test(test_journal_stays_inside_its_directory),
	    cmocka_unit_test(test_run_ids_sort_by_time),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
