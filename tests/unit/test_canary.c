/* SPDX-License-Identifier: Apache-2.0 */
/* `rocectl enforce --canary N` (engine/run/canary.c, engine/run/canary_run.c) against
 * scripted fake devices whose counters move as the test says:
 *
 *   spine01 -- leaf01 -- gpu001, gpu003
 *           \- leaf02 -- gpu002
 *
 * Units are chosen by sorted name (a drifted leaf with its drifted hosts, else one host per
 * leaf, else a spine); synthetic deltas are judged (storm, pause rate, discards,
 * out_of_buffer); a clean canary is repaired before the rest; a canary whose peer storms is
 * rolled back to exactly what it was, the rest is not touched, and the run exits 2 with
 * the device, counter and delta in the report. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "fake_driver.h"
#include "fake_fleet.h"
#include "rocectl/canary.h"
#include "rocectl/enforce.h"
#include "rocectl/journal.h"
#include "rocectl/print.h"
#include "testutil.h"

enum { SPINE01, LEAF01, LEAF02, GPU001, GPU002, GPU003, N_DEV };

static const char *const dev_names[N_DEV] = {"spine01", "leaf01", "leaf02",
					     "gpu001",	"gpu002", "gpu003"};

/* Per fake device: a counter that grows by `step` on every counters() call. */
struct script {
	char name[48];
	uint64_t step;
	bool is_drop;
};

static struct script scripted[FAKE_MAX_DEVS];
static unsigned n_samples[FAKE_MAX_DEVS];

static int fake_counters(struct rc_session *s, const struct rc_port_state *ports, size_t n,
			 struct rc_counters *out, struct rc_err *err)
{
	size_t i = (size_t)(s->d - fake.dev);
	unsigned k;
	int rc = 0;

	pthread_mutex_lock(&fake.lock);
	k = ++n_samples[i];
	pthread_mutex_unlock(&fake.lock);
	for (size_t p = 0; !rc && p < n; p++) {
		/* every port counts pauses on the lossless priority, quietly */
		rc = rc_counters_add(out, ports[p].name, "pfc_pause_tx[3]", "fake:tx_prio3_pause",
				     0, false);
		if (!rc && scripted[i].name[0])
			rc = rc_counters_add(out, ports[p].name, scripted[i].name, "fake",
					     scripted[i].step * k, scripted[i].is_drop);
	}
	return rc ? rc_errf(err, ENOMEM, "out of memory") : 0;
}

static const struct rc_driver fake_c_driver = {
    .name = "fake-c",
    .open = fake_open,
    .ports = fake_ports,
    .read = fake_read,
    .apply = fake_apply,
    .counters = fake_counters,
    .close = fake_close,
};

RC_DRIVER_REGISTER(fake_c_driver)

static int setup(void **state)
{
	static const char *const sw[] = {"swp1", "swp2", "swp51"};
	static const char *const host[] = {"eth0"};
	struct fixture *f = fake_fleet_new("canary", "fake-c", dev_names);

	if (!f)
		return -1;
	*state = f;
	memset(scripted, 0, sizeof(scripted));
	memset(n_samples, 0, sizeof(n_samples));
	fake_fleet_add_device(f, SPINE01, RC_ROLE_SPINE, 2, sw);
	fake_fleet_add_device(f, LEAF01, RC_ROLE_LEAF, 3, sw);
	fake_fleet_add_device(f, LEAF02, RC_ROLE_LEAF, 3, sw);
	fake_fleet_add_device(f, GPU001, RC_ROLE_HOST, 1, host);
	fake_fleet_add_device(f, GPU002, RC_ROLE_HOST, 1, host);
	fake_fleet_add_device(f, GPU003, RC_ROLE_HOST, 1, host);
	fake_fleet_add_link(f, SPINE01, "swp1", LEAF01, "swp51");
	fake_fleet_add_link(f, SPINE01, "swp2", LEAF02, "swp51");
	fake_fleet_add_link(f, LEAF01, "swp1", GPU001, "eth0");
	fake_fleet_add_link(f, LEAF01, "swp2", GPU003, "eth0");
	fake_fleet_add_link(f, LEAF02, "swp1", GPU002, "eth0");
	if (fake_fleet_converge(f)) {
		teardown(state);
		return -1;
	}
	return 0;
}

/* A fleet as if read: n_changes per device as given, nothing opened. */
static void pick(struct fixture *f, const int *changes, unsigned units, struct rc_canary_pick *p)
{
	struct rc_run_opts opts = {.root = "/"};
	struct rc_err err = {0};
	struct rc_fleet fl;

	assert_int_equal(rc_fleet_init(&fl, &f->inv, &f->pol, &opts, NULL, 1, &err), 0);
	for (size_t k = 0; k < fl.n; k++)
		fl.devs[k].n_changes = changes[fl.devs[k].index];
	assert_int_equal(rc_canary_select(&fl, units, p, &err), 0);
	rc_fleet_fini(&fl);
}

static void test_units_are_leaves_with_their_hosts(void **state)
{
	struct fixture *f = *state;
	/* spine01 leaf01 leaf02 gpu001 gpu002 gpu003 */
	const int changes[N_DEV] = {1, 2, 2, 1, 1, 1};
	struct rc_canary_pick p;

	pick(f, changes, 1, &p);
	assert_int_equal(p.n_units, 1);
	assert_int_equal(p.unit_lead[0], LEAF01);
	assert_int_equal(p.n_devs, 3);
	assert_true(p.is_canary[LEAF01] && p.is_canary[GPU001] && p.is_canary[GPU003]);
	assert_false(p.is_canary[SPINE01] || p.is_canary[LEAF02] || p.is_canary[GPU002]);
	rc_canary_pick_fini(&p);

	pick(f, changes, 5, &p);
	assert_int_equal(p.n_units, 2);
	assert_int_equal(p.unit_lead[1], LEAF02);
	assert_int_equal(p.n_devs, 5);
	assert_false(p.is_canary[SPINE01]);
	rc_canary_pick_fini(&p);
}

/* leaf01 in sync: the first unit is leaf02, the first drifted leaf by name. */
static void test_in_sync_leaf_is_no_unit(void **state)
{
	struct fixture *f = *state;
	const int changes[N_DEV] = {0, 0, 1, 1, 1, 0};
	struct rc_canary_pick p;

	pick(f, changes, 1, &p);
	assert_int_equal(p.n_units, 1);
	assert_int_equal(p.unit_lead[0], LEAF02);
	assert_true(p.is_canary[LEAF02] && p.is_canary[GPU002]);
	assert_false(p.is_canary[GPU001]);
	rc_canary_pick_fini(&p);
}

static void test_only_hosts_one_host_per_leaf(void **state)
{
	struct fixture *f = *state;
	const int changes[N_DEV] = {0, 0, 0, 1, 1, 1};
	struct rc_canary_pick p;

	pick(f, changes, 1, &p);
	assert_int_equal(p.n_units, 1);
	assert_int_equal(p.unit_lead[0], GPU001);
	assert_int_equal(p.n_devs, 1);
	rc_canary_pick_fini(&p);

	/* one per leaf: gpu003 shares leaf01 with gpu001, so the second unit is gpu002 */
	pick(f, changes, 3, &p);
	assert_int_equal(p.n_units, 2);
	assert_int_equal(p.unit_lead[0], GPU001);
	assert_int_equal(p.unit_lead[1], GPU002);
	assert_false(p.is_canary[GPU003]);
	rc_canary_pick_fini(&p);
}

/* Sorted by name, not by inventory order: leaf01 renamed leaf09 comes after leaf02, and
 * gpu001 renamed gpu009 after gpu003. */
static void test_units_in_name_order(void **state)
{
	struct fixture *f = *state;
	const int all[N_DEV] = {1, 1, 1, 1, 1, 1};
	const int hosts[N_DEV] = {0, 0, 0, 1, 1, 1};
	struct rc_canary_pick p;

	snprintf(f->dev[LEAF01].name, sizeof(f->dev[LEAF01].name), "leaf09");
	snprintf(f->dev[GPU001].name, sizeof(f->dev[GPU001].name), "gpu009");
	pick(f, all, 1, &p);
	assert_int_equal(p.unit_lead[0], LEAF02);
	rc_canary_pick_fini(&p);

	pick(f, hosts, 2, &p);
	assert_int_equal(p.n_units, 2);
	assert_int_equal(p.unit_lead[0], GPU002); /* behind leaf02 */
	assert_int_equal(p.unit_lead[1], GPU003); /* behind leaf09: gpu003 before gpu009 */
	assert_false(p.is_canary[GPU001]);
	rc_canary_pick_fini(&p);
}

static void test_only_a_spine(void **state)
{
	struct fixture *f = *state;
	const int changes[N_DEV] = {1, 0, 0, 0, 0, 0};
	struct rc_canary_pick p;

	pick(f, changes, 1, &p);
	assert_int_equal(p.n_units, 1);
	assert_int_equal(p.unit_lead[0], SPINE01);
	rc_canary_pick_fini(&p);
}

static void test_judge_synthetic_deltas(void **state)
{
	struct rc_canary_opts o = {.pause_rate = 1000};
	struct rc_diag_deltas d = {.have = RC_DH_PAUSE_TX | RC_DH_PAUSE_RX | RC_DH_DISCARDS |
					   RC_DH_OUT_OF_BUFFER | RC_DH_STORM | RC_DH_PAUSE_US};
	struct rc_canary_finding fi;

	(void)state;
	/* 900 frames/s over 10 s, a quarter of the time paused: congestion, not a storm */
	d.pause_tx = 9000;
	d.pause_rx = 9000;
	d.pause_tx_us = 2500000;
	assert_false(rc_canary_judge(&o, "leaf01", "swp1", false, &d, 10.0, &fi));

	d.pause_rx = 20000;
	assert_true(rc_canary_judge(&o, "leaf01", "swp1", false, &d, 10.0, &fi));
	assert_string_equal(fi.counter, "pfc_pause_rx");
	assert_int_equal(fi.delta, 20000);
	assert_true(fi.rate > 1999.0 && fi.rate < 2001.0);
	assert_non_null(strstr(fi.why, "leaf01:swp1 pfc_pause_rx rose by 20000"));
	d.pause_rx = 0;

	d.pause_tx_us = 6000000; /* 60% of the window */
	assert_true(rc_canary_judge(&o, "gpu001", "eth0", true, &d, 10.0, &fi));
	assert_string_equal(fi.counter, "pfc_pause_tx_duration_us");
	d.pause_tx_us = 0;

	d.storm_events = 1;
	assert_true(rc_canary_judge(&o, "gpu001", "eth0", true, &d, 10.0, &fi));
	assert_string_equal(fi.counter, "pfc_storm_events");
	d.storm_events = 0;

	d.discards = 3;
	assert_true(rc_canary_judge(&o, "leaf01", "swp2", false, &d, 10.0, &fi));
	assert_string_equal(fi.counter, "discards");
	assert_int_equal(fi.delta, 3);
	d.discards = 0;

	/* out_of_buffer is a host's counter */
	d.out_of_buffer = 7;
	assert_false(rc_canary_judge(&o, "leaf01", "swp2", false, &d, 10.0, &fi));
	assert_true(rc_canary_judge(&o, "gpu001", "eth0", true, &d, 10.0, &fi));
	assert_string_equal(fi.counter, "out_of_buffer");

	/* a counter the device does not report says nothing */
	d.out_of_buffer = 0;
	d.have = RC_DH_PAUSE_TX;
	d.discards = 5;
	d.pause_tx = 100;
	assert_false(rc_canary_judge(&o, "leaf01", "swp2", false, &d, 10.0, &fi));
}

/* No difference at all, tolerance 0, between two states of a port. */
static void assert_same_state(const struct rc_port_state *want, const struct rc_port_state *have)
{
	struct rc_changes c = {0};

	assert_int_equal(want->qos.known, have->qos.known);
	assert_true(rc_diff_port(want->name, &want->qos, &have->qos, 0.0, 0, &c) >= 0);
	assert_int_equal(rc_changes_count(&c, RC_CHANGE_SET), 0);
	assert_int_equal(rc_changes_count(&c, RC_CHANGE_UNKNOWN), 0);
	rc_changes_fini(&c);
}

static void assert_no_journal_left(const struct fixture *f, const char *run_id)
{
	struct rc_journal_entry *e = NULL;
	size_t n = 0;
	struct rc_err err = {0};

	assert_int_equal(rc_journal_list(f->dir, run_id, &e, &n, &err), 0);
	assert_int_equal(n, 0);
	rc_journal_entries_free(e, n);
}

/* Clean canary: leaf01 and gpu001 are repaired before anything else is, then the rest. */
static void test_clean_canary_goes_on(void **state)
{
	struct fixture *f = *state;
	struct rc_guardrails g = {.canary = {.units = 1, .pause_rate = 1000}};
	struct rc_enforce_run run;
	char *text, *json, *prom;

	drift_dscp(f, LEAF01);
	drift_dscp(f, LEAF02);
	drift_dscp(f, GPU001);
	drift_dscp(f, GPU002);
	enforce(f, &g, NULL, &run);
	assert_int_equal(run.exit_code, 0);
	assert_int_equal(run.canary.result, RC_CANARY_CLEAN);
	assert_int_equal(run.canary.n_units, 1);
	assert_string_equal(run.canary.units[0], "leaf01");
	assert_int_equal(run.canary.n_devs, 2);
	/* the canary and its peers: leaf01, spine01, gpu001, gpu003 */
	assert_int_equal(run.canary.n_sampled, 4);
	assert_int_equal(run.repaired_devices, 4);
	assert_true(fake_log_index("apply", "gpu001") < fake_log_index("apply", "leaf02"));
	assert_true(fake_log_index("apply", "leaf01") < fake_log_index("apply", "leaf02"));
	assert_int_equal(fake_find("leaf02")->ports[0].qos.dscp2prio[26], 3);
	assert_int_equal(fake_find("gpu002")->ports[0].qos.dscp2prio[26], 3);
	assert_no_journal_left(f, run.run_id);

	text = render(&run, false, false);
	json = render(&run, true, false);
	prom = render(&run, false, true);
	assert_non_null(strstr(text, "canary: 1 unit(s) (leaf01): leaf01, gpu001;"));
	assert_non_null(strstr(text, ": clean\n"));
	assert_non_null(strstr(json, "\"result\":\"clean\""));
	assert_non_null(strstr(json, "\"units\":[\"leaf01\"]"));
	assert_non_null(strstr(prom, "rocectl_enforce_canary_clean 1\n"));
	free(text);
	free(json);
	free(prom);
	rc_enforce_run_fini(&run);
}

/* gpu003 (behind the canary leaf, itself in sync) starts a PFC storm: the canary is rolled
 * back to exactly its pre-run state, leaf02 and gpu002 are not touched, exit 2. */
static void test_storm_rolls_the_canary_back(void **state)
{
	struct fixture *f = *state;
	struct rc_guardrails g = {.canary = {.units = 1, .pause_rate = 1000}};
	struct rc_quarantine q = {0};
	struct rc_port_state leaf01_before[3], gpu001_before;
	struct rc_enforce_run run;
	char *text, *json, *prom;

	drift_dscp(f, LEAF01);
	drift_dscp(f, LEAF02);
	drift_dscp(f, GPU001);
	drift_dscp(f, GPU002);
	struct fake_dev *leaf01 = fake_find("leaf01");

	assert_non_null(leaf01);
	for (size_t p = 0; p < 3; p++)
		leaf01_before[p] = leaf01->ports[p];
	gpu001_before = fake_find("gpu001")->ports[0];
	snprintf(scripted[GPU003].name, sizeof(scripted[GPU003].name), "pfc_storm_warnings");
	scripted[GPU003].step = 2;
	g.quarantine_after = 3;
	enforce(f, &g, &q, &run);
	assert_int_equal(run.exit_code, 2);
	assert_int_equal(run.decision.blocked, RC_GUARD_CANARY);
	assert_int_equal(run.canary.result, RC_CANARY_COUNTERS);
	assert_string_equal(run.canary.finding.device, "gpu003");
	assert_string_equal(run.canary.finding.counter, "pfc_storm_events");
	assert_int_equal(run.canary.finding.delta, 2);
	assert_int_equal(run.canary.rolled_back, 2);
	assert_int_equal(run.devs[LEAF01].action, RC_ENF_ROLLED_BACK);
	assert_int_equal(run.devs[GPU001].action, RC_ENF_ROLLED_BACK);
	assert_int_equal(run.devs[LEAF02].action, RC_ENF_BLOCKED);
	/* exactly as before: every group of every port */
	for (size_t p = 0; p < 3; p++)
		assert_same_state(&leaf01_before[p], &leaf01->ports[p]);
	assert_same_state(&gpu001_before, &fake_find("gpu001")->ports[0]);
	assert_int_equal(fake_find("leaf02")->n_apply, 0);
	assert_int_equal(fake_find("gpu002")->n_apply, 0);
	assert_int_equal(fake_find("spine01")->n_apply, 0);
	assert_no_journal_left(f, run.run_id);
	/* the failure counts towards the quarantine of the canary devices */
	assert_int_equal(rc_quarantine_find(&q, "leaf01")->failures, 1);
	assert_int_equal(rc_quarantine_find(&q, "gpu001")->failures, 1);
	assert_null(rc_quarantine_find(&q, "leaf02"));

	text = render(&run, false, false);
	json = render(&run, true, false);
	prom = render(&run, false, true);
	assert_non_null(strstr(text, "gpu003:eth0 pfc_storm_events rose by 2"));
	assert_non_null(strstr(text, "guardrail --canary: the canary was not clean: gpu003:eth0"));
	assert_non_null(strstr(text, "its devices were rolled back, nothing else was repaired\n"));
	assert_non_null(strstr(text, "2 canary device(s) rolled back"));
	assert_non_null(strstr(json, "\"guardrail\":\"canary\""));
	assert_non_null(strstr(json, "\"action\":\"rolled-back\""));
	assert_non_null(strstr(json, "\"counter\":\"pfc_storm_events\""));
	assert_non_null(strstr(prom, "rocectl_enforce_canary_clean 0\n"));
	assert_non_null(
	    strstr(prom, "rocectl_enforce_guardrail_blocked{guardrail=\"canary\"} 1\n"));
	free(text);
	free(json);
	free(prom);
	rc_enforce_run_fini(&run);
	rc_quarantine_fini(&q);
}

/* A discard on a lossless priority of the canary leaf itself. */
static void test_discard_on_canary_leaf(void **state)
{
	struct fixture *f = *state;
	struct rc_guardrails g = {.canary = {.units = 1, .pause_rate = 1000}};
	struct rc_enforce_run run;

	drift_dscp(f, LEAF01);
	drift_dscp(f, LEAF02);
	snprintf(scripted[LEAF01].name, sizeof(scripted[LEAF01].name), "wred_discards[3]");
	scripted[LEAF01].step = 5;
	scripted[LEAF01].is_drop = true;
	enforce(f, &g, NULL, &run);
	assert_int_equal(run.exit_code, 2);
	assert_string_equal(run.canary.finding.device, "leaf01");
	assert_string_equal(run.canary.finding.counter, "discards");
	assert_int_equal(fake_find("leaf01")->ports[0].qos.dscp2prio[26], 0);
	assert_int_equal(fake_find("leaf02")->n_apply, 0);
	rc_enforce_run_fini(&run);
}

/* The canary's own repair fails: restored by apply, the rest is not touched, exit 1. */
static void test_canary_apply_failure_stops_the_run(void **state)
{
	struct fixture *f = *state;
	struct rc_guardrails g = {.canary = {.units = 1, .pause_rate = 1000}};
	struct rc_enforce_run run;

	drift_dscp(f, LEAF01);
	drift_dscp(f, LEAF02);
	drift_dscp(f, GPU001);
	fake_find("leaf01")->fail_apply_from = 1;
	enforce(f, &g, NULL, &run);
	assert_int_equal(run.exit_code, 1);
	assert_int_equal(run.canary.result, RC_CANARY_APPLY_FAILED);
	assert_int_equal(run.devs[LEAF01].action, RC_ENF_FAILED);
	assert_int_equal(run.devs[GPU001].action, RC_ENF_SKIPPED);
	assert_int_equal(fake_find("leaf02")->n_apply, 0);
	assert_int_equal(fake_find("gpu001")->n_apply, 0);
	rc_enforce_run_fini(&run);
	fake_find("leaf01")->fail_apply_from = 0;
}

/* A host of the canary unit fails after its leaf was repaired: the leaf and the other host
 * are rolled back, the failed host is restored by apply, the rest is not touched. */
static void test_canary_host_failure_rolls_the_unit_back(void **state)
{
	struct fixture *f = *state;
	struct rc_guardrails g = {.canary = {.units = 1, .pause_rate = 1000}};
	struct rc_enforce_run run;

	drift_dscp(f, LEAF01);
	drift_dscp(f, LEAF02);
	drift_dscp(f, GPU001);
	drift_dscp(f, GPU003);
	fake_find("gpu003")->fail_apply_from = 1;
	enforce(f, &g, NULL, &run);
	assert_int_equal(run.exit_code, 1);
	assert_int_equal(run.canary.result, RC_CANARY_APPLY_FAILED);
	assert_string_equal(run.canary.finding.device, "gpu003");
	assert_int_equal(run.devs[GPU003].action, RC_ENF_FAILED);
	assert_int_equal(run.devs[LEAF01].action, RC_ENF_ROLLED_BACK);
	assert_int_equal(run.devs[GPU001].action, RC_ENF_ROLLED_BACK);
	assert_int_equal(run.canary.rolled_back, 2);
	assert_int_equal(fake_find("leaf01")->ports[0].qos.dscp2prio[26], 0);
	assert_int_equal(fake_find("gpu001")->ports[0].qos.dscp2prio[26], 0);
	assert_int_equal(fake_find("gpu003")->ports[0].qos.dscp2prio[26], 0);
	assert_int_equal(fake_find("leaf02")->n_apply, 0);
	assert_no_journal_left(f, run.run_id);
	rc_enforce_run_fini(&run);
	fake_find("gpu003")->fail_apply_from = 0;
}

/* --max-devices counts the canaries too: 3 drifted, limit 2, nothing repaired at all. */
static void test_guardrails_count_the_canaries(void **state)
{
	struct fixture *f = *state;
	struct rc_guardrails g = {.max_devices = 2, .canary = {.units = 1, .pause_rate = 1000}};
	struct rc_enforce_run run;

	drift_dscp(f, LEAF01);
	drift_dscp(f, GPU001);
	drift_dscp(f, LEAF02);
	enforce(f, &g, NULL, &run);
	assert_int_equal(run.exit_code, 2);
	assert_int_equal(run.decision.blocked, RC_GUARD_MAX_DEVICES);
	assert_int_equal(run.canary.result, RC_CANARY_NONE);
	assert_int_equal(fake_find("leaf01")->n_apply, 0);
	rc_enforce_run_fini(&run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_units_are_leaves_with_their_hosts, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_in_sync_leaf_is_no_unit, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_only_hosts_one_host_per_leaf, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_units_in_name_order, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_only_a_spine, setup, teardown),
	    cmocka_unit_test(test_judge_synthetic_deltas),
	    cmocka_unit_test_setup_teardown(test_clean_canary_goes_on, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_storm_rolls_the_canary_back, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_discard_on_canary_leaf, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_canary_apply_failure_stops_the_run, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_canary_host_failure_rolls_the_unit_back, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_guardrails_count_the_canaries, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
