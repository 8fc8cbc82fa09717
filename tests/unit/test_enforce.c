/* SPDX-License-Identifier: Apache-2.0 */
/* `rocectl enforce` (engine/run/enforce.c, engine/run/quarantine.c) against scripted fake
 * devices: the guardrails repair nothing when over a limit, disruptive drift is reported
 * but not written unless allowed, only the drifted groups are written, and a device that
 * keeps failing is quarantined until cleared.
 *
 *   spine01 -- leaf01 -- gpu001
 *           \- leaf02 -- gpu002
 *
 * The devices use "fake-d": the scripted fake of fake_driver.h with PFC marked disruptive
 * (as the NVUE, SONiC, EOS and mlx5 drivers do) and an apply that writes only the groups
 * it is given, recording them, so that a test sees exactly what reached each device. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "fake_driver.h"
#include "fake_fleet.h"
#include "rocectl/enforce.h"
#include "rocectl/print.h"
#include "testutil.h"

enum { SPINE01, LEAF01, LEAF02, GPU001, GPU002, N_DEV };

static const char *const dev_names[N_DEV] = {"spine01", "leaf01", "leaf02", "gpu001", "gpu002"};

/* Per fake device: the union of the groups written to it. */
static uint32_t written[FAKE_MAX_DEVS];

static int fields_apply(struct rc_session *s, const struct rc_port_write *w, size_t n,
			struct rc_err *err)
{
	struct rc_port_write cut[FAKE_MAX_PORTS];
	struct port_qos q[FAKE_MAX_PORTS];

	assert_true(n <= FAKE_MAX_PORTS);
	for (size_t i = 0; i < n; i++) {
		const struct rc_port_state *p = fake_port(s->d, w[i].port);

		q[i] = *w[i].want;
		/* the groups not asked for keep the device's value */
		if (p && !(w[i].fields & RC_F_PFC))
			q[i].pfc_enabled = p->qos.pfc_enabled;
		if (p && !(w[i].fields & RC_F_TRUST))
			q[i].trust = p->qos.trust;
		if (p && !(w[i].fields & RC_F_DSCP2PRIO))
			memcpy(q[i].dscp2prio, p->qos.dscp2prio, sizeof(q[i].dscp2prio));
		cut[i] = w[i];
		cut[i].want = &q[i];
		written[s->d - fake.dev] |= w[i].fields;
	}
	return fake_apply(s, cut, n, err);
}

static const struct rc_driver fake_d_driver = {
    .name = "fake-d",
    .disruptive = RC_F_PFC,
    .open = fake_open,
    .ports = fake_ports,
    .read = fake_read,
    .apply = fields_apply,
    .close = fake_close,
};

RC_DRIVER_REGISTER(fake_d_driver)

static int setup(void **state)
{
	static const char *const spine[] = {"swp1", "swp2"}, *const leaf[] = {"swp1", "swp51"},
				 *const host[] = {"eth0"};
	struct fixture *f = fake_fleet_new("enforce", "fake-d", dev_names);

	if (!f)
		return -1;
	*state = f;
	fake_fleet_add_device(f, SPINE01, RC_ROLE_SPINE, 2, spine);
	fake_fleet_add_device(f, LEAF01, RC_ROLE_LEAF, 2, leaf);
	fake_fleet_add_device(f, LEAF02, RC_ROLE_LEAF, 2, leaf);
	fake_fleet_add_device(f, GPU001, RC_ROLE_HOST, 1, host);
	fake_fleet_add_device(f, GPU002, RC_ROLE_HOST, 1, host);
	fake_fleet_add_link(f, SPINE01, "swp1", LEAF01, "swp51");
	fake_fleet_add_link(f, SPINE01, "swp2", LEAF02, "swp51");
	fake_fleet_add_link(f, LEAF01, "swp1", GPU001, "eth0");
	fake_fleet_add_link(f, LEAF02, "swp1", GPU002, "eth0");
	if (fake_fleet_converge(f)) {
		teardown(state);
		return -1;
	}
	memset(written, 0, sizeof(written));
	return 0;
}

/* A hand edit: DSCP 26 mapped to priority 0 on every port of the device. */
static void drift_pfc_off(int dev)
{
	struct fake_dev *d = fake_find(dev_names[dev]);

	for (size_t p = 0; p < d->n_ports; p++)
		d->ports[p].qos.pfc_enabled = 0;
}

static int applies(void)
{
	int n = 0;

	for (size_t i = 0; i < fake.n; i++)
		n += fake.dev[i].n_apply;
	return n;
}

static void test_in_sync_does_nothing(void **state)
{
	struct fixture *f = *state;
	struct rc_guardrails g = {.max_devices = 1};
	struct rc_enforce_run run;

	enforce(f, &g, NULL, &run);
	assert_int_equal(run.exit_code, 0);
	assert_int_equal(applies(), 0);
	assert_int_equal(run.repaired_fields, 0);
	rc_enforce_run_fini(&run);
}

static void test_max_devices_over_repairs_nothing(void **state)
{
	struct fixture *f = *state;
	struct rc_guardrails g = {.max_devices = 1};
	struct rc_enforce_run run;
	char *text, *json, *prom;

	drift_dscp(f, LEAF01);
	drift_dscp(f, LEAF02);
	drift_dscp(f, GPU001);
	enforce(f, &g, NULL, &run);
	assert_int_equal(run.exit_code, 2);
	assert_int_equal(run.decision.blocked, RC_GUARD_MAX_DEVICES);
	assert_int_equal(run.decision.repair_devices, 3);
	assert_int_equal(applies(), 0);
	assert_int_equal(fake_find("leaf01")->ports[0].qos.dscp2prio[26], 0);
	assert_int_equal(run.devs[LEAF01].action, RC_ENF_BLOCKED);
	assert_int_equal(run.devs[SPINE01].action, RC_ENF_IN_SYNC);
	assert_true(run.left_fields >= 3);

	text = render(&run, false, false);
	json = render(&run, true, false);
	prom = render(&run, false, true);
	assert_non_null(
	    strstr(text, "guardrail --max-devices: 3 devices to repair, the limit is 1"));
	assert_non_null(strstr(json, "\"guardrail\":\"max-devices\""));
	assert_non_null(
	    strstr(prom, "rocectl_enforce_guardrail_blocked{guardrail=\"max-devices\"} 1\n"));
	assert_non_null(
	    strstr(prom, "rocectl_enforce_guardrail_blocked{guardrail=\"max-changes\"} 0\n"));
	assert_non_null(strstr(prom, "rocectl_enforce_exit_code 2\n"));
	free(text);
	free(json);
	free(prom);
	rc_enforce_run_fini(&run);
}

/* The report says what --confirm did with the repair: nothing without it, the state
 * and the reason of a rollback, and a gauge an alert can watch. */
static void test_confirm_outcome_reported(void **state)
{
	struct fixture *f = *state;
	struct rc_guardrails g = {0};
	struct rc_enforce_run run;
	char *text, *json, *prom;

	enforce(f, &g, NULL, &run);
	json = render(&run, true, false);
	prom = render(&run, false, true);
	assert_non_null(strstr(json, "\"confirm\":null"));
	assert_non_null(strstr(prom, "rocectl_enforce_confirm_rolled_back 0\n"));
	free(json);
	free(prom);
	snprintf(run.confirm_state, sizeof(run.confirm_state), "rolled back");
	snprintf(run.confirm_reason, sizeof(run.confirm_reason), "verify failed");
	text = render(&run, false, false);
	json = render(&run, true, false);
	prom = render(&run, false, true);
	assert_non_null(strstr(text, "commit-confirm: rolled back (verify failed)\n"));
	assert_non_null(
	    strstr(json, "\"confirm\":{\"state\":\"rolled back\",\"reason\":\"verify failed\"}"));
	assert_non_null(strstr(prom, "rocectl_enforce_confirm_rolled_back 1\n"));
	free(text);
	free(json);
	free(prom);
	snprintf(run.confirm_state, sizeof(run.confirm_state), "confirmed");
	prom = render(&run, false, true);
	json = render(&run, true, false);
	assert_non_null(strstr(prom, "rocectl_enforce_confirm_rolled_back 0\n"));
	assert_non_null(strstr(json, "\"confirm\":{\"state\":\"confirmed\",\"reason\":null}"));
	free(json);
	free(prom);
	rc_enforce_run_fini(&run);
}

/* N% of the 5 selected devices, rounded down: 50% allows 2, 60% allows 3. */
static void test_max_devices_percent(void **state)
{
	struct fixture *f = *state;
	struct rc_guardrails g = {.max_devices = 50, .max_devices_pct = true};
	struct rc_enforce_run run;

	drift_dscp(f, LEAF01);
	drift_dscp(f, LEAF02);
	drift_dscp(f, GPU001);
	enforce(f, &g, NULL, &run);
	assert_int_equal(run.decision.device_limit, 2);
	assert_int_equal(run.decision.blocked, RC_GUARD_MAX_DEVICES);
	assert_int_equal(applies(), 0);
	rc_enforce_run_fini(&run);

	g.max_devices = 60;
	enforce(f, &g, NULL, &run);
	assert_int_equal(run.decision.blocked, RC_GUARD_NONE);
	assert_int_equal(run.exit_code, 0);
	assert_int_equal(run.repaired_devices, 3);
	assert_int_equal(fake_find("leaf01")->ports[0].qos.dscp2prio[26], 3);
	assert_int_equal(fake_find("gpu001")->ports[0].qos.dscp2prio[26], 3);
	rc_enforce_run_fini(&run);
}

static void test_max_changes(void **state)
{
	struct fixture *f = *state;
	struct rc_guardrails g = {.max_changes = 2};
	struct rc_enforce_run run;
	char *text;

	drift_dscp(f, LEAF01); /* two ports: two fields */
	drift_dscp(f, GPU001);
	enforce(f, &g, NULL, &run);
	assert_int_equal(run.decision.repair_changes, 3);
	assert_int_equal(run.decision.blocked, RC_GUARD_MAX_CHANGES);
	assert_int_equal(run.exit_code, 2);
	assert_int_equal(applies(), 0);
	text = render(&run, false, false);
	assert_non_null(
	    strstr(text, "guardrail --max-changes: 3 fields to repair, the limit is 2"));
	free(text);
	rc_enforce_run_fini(&run);

	g.max_changes = 3;
	enforce(f, &g, NULL, &run);
	assert_int_equal(run.exit_code, 0);
	assert_int_equal(run.repaired_fields, 3);
	rc_enforce_run_fini(&run);
}

/* PFC off on a host flaps its link when repaired: reported, not written, exit 2; with
 * allow, repaired. */
static void test_disruptive_drift_is_held_unless_allowed(void **state)
{
	struct fixture *f = *state;
	struct rc_guardrails g = {0};
	struct rc_enforce_run run;
	char *text;

	drift_pfc_off(GPU001);
	enforce(f, &g, NULL, &run);
	assert_int_equal(run.exit_code, 2);
	assert_int_equal(applies(), 0);
	assert_int_equal(run.devs[GPU001].action, RC_ENF_HELD);
	assert_int_equal(run.devs[GPU001].held, 1);
	assert_int_equal(run.held_fields, 1);
	assert_int_equal(fake_find("gpu001")->ports[0].qos.pfc_enabled, 0);
	text = render(&run, false, false);
	assert_non_null(strstr(text, "1 disruptive field(s) not repaired"));
	free(text);
	rc_enforce_run_fini(&run);

	g.allow_disruptive = true;
	enforce(f, &g, NULL, &run);
	assert_int_equal(run.exit_code, 0);
	assert_int_equal(run.devs[GPU001].action, RC_ENF_REPAIRED);
	assert_int_equal(fake_find("gpu001")->ports[0].qos.pfc_enabled, 1u << 3);
	assert_int_equal(written[GPU001], RC_F_PFC);
	rc_enforce_run_fini(&run);
}

/* A device with both kinds of drift: the other field is repaired, PFC is left as found,
 * and nothing but the drifted group reaches any device. */
static void test_only_drifted_groups_are_written(void **state)
{
	struct fixture *f = *state;
	struct rc_guardrails g = {0};
	struct rc_enforce_run run;

	drift_pfc_off(GPU001);
	drift_dscp(f, GPU001);
	drift_dscp(f, LEAF02);
	enforce(f, &g, NULL, &run);
	assert_int_equal(run.exit_code, 2);
	assert_int_equal(run.devs[GPU001].action, RC_ENF_REPAIRED);
	assert_int_equal(run.devs[GPU001].repaired, 1);
	assert_int_equal(run.devs[GPU001].left, 1);
	assert_int_equal(written[GPU001], RC_F_DSCP2PRIO);
	assert_int_equal(written[LEAF02], RC_F_DSCP2PRIO);
	assert_int_equal(written[LEAF01] | written[SPINE01] | written[GPU002], 0);
	assert_int_equal(fake_find("gpu001")->ports[0].qos.dscp2prio[26], 3);
	assert_int_equal(fake_find("gpu001")->ports[0].qos.pfc_enabled, 0);
	rc_enforce_run_fini(&run);
}

/* leaf02's apply keeps failing: after two failed runs it is quarantined (not even
 * opened), the rest is still enforced, the state survives a save and load, and clearing
 * it lets the next run try again. */
static void test_quarantine_after_k_failures(void **state)
{
	struct fixture *f = *state;
	struct rc_guardrails g = {.quarantine_after = 2};
	struct rc_quarantine q = {0}, back;
	struct rc_enforce_run run;
	struct rc_err err = {0};
	char path[512];

	snprintf(path, sizeof(path), "%s/enforce-state.json", f->dir);
	fake_find("leaf02")->fail_apply_from = 1;
	for (int i = 1; i <= 2; i++) {
		drift_dscp(f, LEAF02);
		enforce(f, &g, &q, &run);
		assert_int_equal(run.exit_code, 1);
		assert_int_equal(run.devs[LEAF02].action, RC_ENF_FAILED);
		assert_non_null(strstr(run.devs[LEAF02].error, "scripted apply failure"));
		assert_int_equal(rc_quarantine_find(&q, "leaf02")->failures, (unsigned)i);
		rc_enforce_run_fini(&run);
	}
	assert_int_equal(rc_quarantine_save(path, &q, &err), 0);
	assert_int_equal(rc_quarantine_load(path, &back, &err), 0);
	assert_int_equal(back.n, 1);
	assert_string_equal(back.v[0].device, "leaf02");
	assert_int_equal(back.v[0].failures, 2);
	assert_non_null(strstr(back.v[0].last_error, "scripted apply failure"));
	rc_quarantine_fini(&q);

	fake_find("leaf02")->n_open = 0;
	drift_dscp(f, GPU001);
	enforce(f, &g, &back, &run);
	assert_int_equal(run.exit_code, 2);
	assert_int_equal(run.devs[LEAF02].action, RC_ENF_QUARANTINED);
	assert_int_equal(fake_find("leaf02")->n_open, 0);
	assert_int_equal(run.devs[GPU001].action, RC_ENF_REPAIRED);
	assert_int_equal(run.quarantined, 1);
	rc_enforce_run_fini(&run);

	assert_int_equal(rc_quarantine_clear(&back, "leaf02"), 0);
	assert_int_equal(rc_quarantine_clear(&back, "leaf02"), -ENOENT);
	fake_find("leaf02")->fail_apply_from = 0;
	enforce(f, &g, &back, &run);
	assert_int_equal(run.exit_code, 0);
	assert_int_equal(run.devs[LEAF02].action, RC_ENF_REPAIRED);
	assert_null(rc_quarantine_find(&back, "leaf02"));
	rc_enforce_run_fini(&run);
	rc_quarantine_fini(&back);
}

/* A leaf whose repair fails holds back the host behind it (fleet tier order): the host is
 * "skipped", not written, and the report says why; the other leaf and its host go on. */
static void test_device_behind_a_failed_one_is_skipped(void **state)
{
	struct fixture *f = *state;
	struct rc_enforce_run run;
	struct rc_guardrails all = {.allow_disruptive = true};
	char *text;

	drift_dscp(f, LEAF01);
	drift_dscp(f, GPU001);
	drift_dscp(f, GPU002);
	fake_find("leaf01")->fail_apply_from = 1;
	enforce(f, &all, NULL, &run);
	assert_int_equal(run.exit_code, 1);
	assert_int_equal(run.devs[LEAF01].action, RC_ENF_FAILED);
	assert_int_equal(run.devs[GPU001].action, RC_ENF_SKIPPED);
	assert_int_equal(fake_find("gpu001")->n_apply, 0);
	assert_int_equal(fake_find("gpu001")->ports[0].qos.dscp2prio[26], 0);
	assert_int_equal(run.devs[GPU002].action, RC_ENF_REPAIRED);
	assert_int_equal(fake_find("gpu002")->ports[0].qos.dscp2prio[26], 3);
	text = render(&run, false, false);
	assert_non_null(strstr(text, "not repaired: "));
	free(text);
	text = render(&run, true, false);
	assert_non_null(strstr(text, "\"skipped\""));
	free(text);
	rc_enforce_run_fini(&run);
	fake_find("leaf01")->fail_apply_from = 0;
}

/* A state file that is not ours is refused, never taken as "nothing quarantined". */
static void test_state_file_refused_when_not_ours(void **state)
{
	struct fixture *f = *state;
	struct rc_quarantine q;
	struct rc_err err = {0};
	char path[512], link[512];

	snprintf(path, sizeof(path), "%s/missing.json", f->dir);
	assert_int_equal(rc_quarantine_load(path, &q, &err), 0);
	assert_int_equal(q.n, 0);
	assert_int_equal(rc_test_write(f->dir, "bad.json", "{\"devices\": [{\"device\": 3}]}"), 0);
	snprintf(path, sizeof(path), "%s/bad.json", f->dir);
	assert_true(rc_quarantine_load(path, &q, &err) < 0);
	assert_int_equal(rc_test_write(f->dir, "junk.json", "not json"), 0);
	snprintf(path, sizeof(path), "%s/junk.json", f->dir);
	assert_true(rc_quarantine_load(path, &q, &err) < 0);
	snprintf(link, sizeof(link), "%s/link.json", f->dir);
	assert_int_equal(symlink(path, link), 0);
	assert_true(rc_quarantine_load(link, &q, &err) < 0);
	assert_non_null(strstr(err.msg, "symbolic link"));
}

/* The default file sits beside the journal directory, and a save makes its missing parents
 * 0700 (the state directory of a first run may not exist yet). */
static void test_state_file_default_place_and_parents(void **state)
{
	struct fixture *f = *state;
	struct rc_quarantine q = {0};
	struct rc_err err = {0};
	char path[512], journal[512];
	struct stat st;

	rc_quarantine_default_path("/var/lib/rocectl/journal/", path, sizeof(path));
	assert_string_equal(path, "/var/lib/rocectl/enforce-state.json");
	rc_quarantine_default_path("/journal", path, sizeof(path));
	assert_string_equal(path, "/enforce-state.json");
	rc_quarantine_default_path("journal", path, sizeof(path));
	assert_string_equal(path, "enforce-state.json");
	snprintf(journal, sizeof(journal), "%s/new/state/journal", f->dir);
	rc_quarantine_default_path(journal, path, sizeof(path));
	assert_int_equal(rc_quarantine_record(&q, "leaf1", true, "run-1", "unreachable"), 0);
	assert_int_equal(rc_quarantine_save(path, &q, &err), 0);
	rc_quarantine_fini(&q);
	snprintf(journal, sizeof(journal), "%s/new/state", f->dir);
	assert_int_equal(stat(journal, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(rc_quarantine_load(path, &q, &err), 0);
	assert_int_equal(q.n, 1);
	rc_quarantine_fini(&q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_in_sync_does_nothing, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_confirm_outcome_reported, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_max_devices_over_repairs_nothing, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_max_devices_percent, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_max_changes, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_disruptive_drift_is_held_unless_allowed, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_only_drifted_groups_are_written, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_quarantine_after_k_failures, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_device_behind_a_failed_one_is_skipped, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_state_file_refused_when_not_ours, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_state_file_default_place_and_parents, setup,
					    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
