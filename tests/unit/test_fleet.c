/* SPDX-License-Identifier: Apache-2.0 */
/* The fleet executor (engine/run/fleet.c) against scripted fake devices: the apply order
 * across tiers, a device skipped behind a failed one, and the rollback of a failed device
 * while the others are applied.
 *
 *   spine01 -- leaf01 -- gpu001        (each device has the ports named in the links)
 *           \- leaf02 -- gpu002
 *
 * Lossless being turned on goes spine, leaf, host: no host may mark DSCP 26 towards a
 * switch that does not yet treat it lossless.  Turned off (or moved), the reverse. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "fake_driver.h"
#include "rocectl/desired.h"
#include "rocectl/fleet.h"
#include "testutil.h"

enum { SPINE01, LEAF01, LEAF02, GPU001, GPU002, N_DEV };

static const char *const dev_names[N_DEV] = {"spine01", "leaf01", "leaf02", "gpu001", "gpu002"};

struct fixture {
	struct rc_policy pol;
	struct rc_device dev[N_DEV];
	char ports[N_DEV][2][RC_NAME_MAX];
	struct rc_link links[4];
	struct rc_inventory inv;
};

static void add_device(struct fixture *f, int i, enum rc_role role, const char *p0, const char *p1)
{
	struct rc_device *d = &f->dev[i];
	const char *names[2] = {p0, p1};

	snprintf(d->name, sizeof(d->name), "%s", dev_names[i]);
	snprintf(d->driver, sizeof(d->driver), "fake");
	d->role = role;
	d->kind = role == RC_ROLE_HOST ? RC_DEV_HOST : RC_DEV_SWITCH;
	d->platform = role == RC_ROLE_HOST ? RC_PLAT_HOST : RC_PLAT_NVUE;
	d->n_ports = p1 ? 2 : 1;
	d->ports = f->ports[i];
	for (size_t k = 0; k < d->n_ports; k++)
		snprintf(f->ports[i][k], RC_NAME_MAX, "%s", names[k]);
	fake_add(d->name, names, d->n_ports);
}

static void add_link(struct fixture *f, size_t l, int a, const char *ap, int b, const char *bp)
{
	f->links[l].a.dev = (size_t)a;
	snprintf(f->links[l].a.port, RC_NAME_MAX, "%s", ap);
	f->links[l].b.dev = (size_t)b;
	snprintf(f->links[l].b.port, RC_NAME_MAX, "%s", bp);
	f->links[l].speed_gbps = 100;
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct rc_warnings warn = {0};
	struct rc_err err = {0};
	char path[4096];

	if (!f)
		return -1;
	rc_test_path(path, sizeof(path), "policies/roce-lossless.yaml");
	if (rc_policy_load(path, &f->pol, &warn, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		free(f);
		return -1;
	}
	fake_reset();
	add_device(f, SPINE01, RC_ROLE_SPINE, "swp1", "swp2");
	add_device(f, LEAF01, RC_ROLE_LEAF, "swp1", "swp51");
	add_device(f, LEAF02, RC_ROLE_LEAF, "swp1", "swp51");
	add_device(f, GPU001, RC_ROLE_HOST, "eth0", NULL);
	add_device(f, GPU002, RC_ROLE_HOST, "eth0", NULL);
	add_link(f, 0, SPINE01, "swp1", LEAF01, "swp51");
	add_link(f, 1, SPINE01, "swp2", LEAF02, "swp51");
	add_link(f, 2, LEAF01, "swp1", GPU001, "eth0");
	add_link(f, 3, LEAF02, "swp1", GPU002, "eth0");
	f->inv.n_devices = N_DEV;
	f->inv.devices = f->dev;
	f->inv.n_links = 4;
	f->inv.links = f->links;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	free(*state);
	return 0;
}

/* Read and apply the whole fabric with `parallel` workers and no journal; *reverse says
 * which order the read state called for. */
static size_t run(struct fixture *f, const struct rc_policy *pol, unsigned parallel,
		  struct rc_fleet *fl, bool *reverse)
{
	struct rc_run_opts opts = {.root = "/"};
	struct rc_err err = {0};

	assert_int_equal(rc_fleet_init(fl, &f->inv, pol, &opts, NULL, parallel, &err), 0);
	fl->progress = false;
	assert_int_equal(rc_fleet_read(fl), 0);
	*reverse = rc_fleet_reverse_order(fl);
	return rc_fleet_apply(fl);
}

static int applied_at(int dev)
{
	return fake_log_index("apply", dev_names[dev]);
}

static void assert_before(int first, int then)
{
	assert_true(applied_at(first) >= 0);
	assert_true(applied_at(then) >= 0);
	assert_true(applied_at(first) < applied_at(then));
}

static void test_lossless_on_goes_switches_first(void **state)
{
	struct fixture *f = *state;
	struct rc_fleet fl;

	bool reverse;

	assert_int_equal(run(f, &f->pol, 4, &fl, &reverse), 0);
	assert_false(reverse);
	for (int leaf = LEAF01; leaf <= LEAF02; leaf++) {
		assert_before(SPINE01, leaf);
		assert_before(leaf, GPU001);
		assert_before(leaf, GPU002);
	}
	for (int i = 0; i < N_DEV; i++)
		assert_true(fl.devs[i].applied);
	rc_fleet_fini(&fl);
}

/* Start compliant with PFC on priority 3, then a policy that moves it to 4: priority 3
 * stops being lossless, so hosts must stop marking before switches stop honouring it. */
static void test_lossless_off_goes_hosts_first(void **state)
{
	struct fixture *f = *state;
	struct rc_policy moved = f->pol;
	struct rc_fleet fl;
	bool reverse;

	assert_int_equal(run(f, &f->pol, 4, &fl, &reverse), 0);
	rc_fleet_fini(&fl);
	fake.n_log = 0;
	moved.pfc_priorities = 1u << 4;
	assert_int_equal(run(f, &moved, 4, &fl, &reverse), 0);
	assert_true(reverse);
	for (int leaf = LEAF01; leaf <= LEAF02; leaf++) {
		assert_before(GPU001, leaf);
		assert_before(GPU002, leaf);
		assert_before(leaf, SPINE01);
	}
	assert_int_equal(fake_find("spine01")->ports[0].qos.pfc_enabled, 1u << 4);
	rc_fleet_fini(&fl);
}

/* A factory SONiC leaf (PORT_QOS_MAP pfc_enable "3,4") loses priority 4 while the whole
 * fabric gains priority 3 for RoCE: switches first all the same, never hosts first. */
static void test_extra_lossless_priority_does_not_reverse(void **state)
{
	struct fixture *f = *state;
	struct fake_dev *leaf01 = fake_find("leaf01");
	struct rc_fleet fl;
	bool reverse;

	for (size_t p = 0; p < leaf01->n_ports; p++) {
		leaf01->ports[p].qos.pfc_enabled = (1u << 3) | (1u << 4);
		leaf01->ports[p].qos.dscp2prio[26] = 3;
	}
	assert_int_equal(run(f, &f->pol, 4, &fl, &reverse), 0);
	assert_false(reverse);
	for (int leaf = LEAF01; leaf <= LEAF02; leaf++) {
		assert_before(SPINE01, leaf);
		assert_before(leaf, GPU001);
		assert_before(leaf, GPU002);
	}
	assert_int_equal(leaf01->ports[0].qos.pfc_enabled, 1u << 3);
	rc_fleet_fini(&fl);

	/* compliant everywhere but the extra priority: still not hosts first */
	leaf01->ports[0].qos.pfc_enabled |= 1u << 4;
	fake.n_log = 0;
	assert_int_equal(run(f, &f->pol, 4, &fl, &reverse), 0);
	assert_false(reverse);
	assert_true(applied_at(LEAF01) >= 0);
	rc_fleet_fini(&fl);
}

/* leaf01 fails and is restored; gpu001 behind it is not touched; leaf02 and gpu002 are
 * applied all the same. */
static void test_device_behind_a_failed_one_is_skipped(void **state)
{
	struct fixture *f = *state;
	struct fake_dev *leaf01 = fake_find("leaf01"), *gpu001 = fake_find("gpu001");
	struct rc_port_state leaf01_before[2], gpu001_before;
	struct rc_fleet fl;

	assert_non_null(leaf01);
	assert_non_null(gpu001);
	memcpy(leaf01_before, leaf01->ports, sizeof(leaf01_before));
	gpu001_before = gpu001->ports[0];
	leaf01->partial_apply_at = 1;
	bool reverse;

	assert_int_equal(run(f, &f->pol, 2, &fl, &reverse), 2); /* leaf01 failed, gpu001 skipped */

	assert_true(fl.devs[LEAF01].rc < 0);
	assert_non_null(strstr(fl.devs[LEAF01].err.msg, "restored the pre-change state"));
	assert_memory_equal(leaf01->ports, leaf01_before, sizeof(leaf01_before));

	assert_true(fl.devs[GPU001].skipped);
	assert_false(fl.devs[GPU001].applied);
	assert_non_null(strstr(fl.devs[GPU001].err.msg, "because 'leaf01' (leaf) failed first"));
	assert_int_equal(applied_at(GPU001), -1);
	assert_memory_equal(&gpu001->ports[0], &gpu001_before, sizeof(gpu001_before));

	assert_true(fl.devs[LEAF02].applied);
	assert_true(fl.devs[GPU002].applied);
	assert_true(fl.devs[SPINE01].applied);
	rc_fleet_fini(&fl);
}

/* A device that cannot be read is not applied, and neither is what sits behind it. */
static void test_unreadable_switch_blocks_its_hosts(void **state)
{
	struct fixture *f = *state;
	struct rc_run_opts opts = {.root = "/"};
	struct rc_err err = {0};
	struct rc_fleet fl;

	fake_find("leaf02")->fail_read_at = 1;
	assert_int_equal(rc_fleet_init(&fl, &f->inv, &f->pol, &opts, NULL, 3, &err), 0);
	fl.progress = false;
	assert_int_equal(rc_fleet_read(&fl), 1);
	assert_int_equal(rc_fleet_apply(&fl), 2);
	assert_true(fl.devs[GPU002].skipped);
	assert_int_equal(applied_at(GPU002), -1);
	assert_int_equal(applied_at(LEAF02), -1);
	assert_true(fl.devs[GPU001].applied);
	rc_fleet_fini(&fl);
}

/* Serial and parallel runs reach the same order guarantee. */
static void test_one_worker_keeps_the_order(void **state)
{
	struct fixture *f = *state;
	struct rc_fleet fl;
	bool reverse;

	assert_int_equal(run(f, &f->pol, 1, &fl, &reverse), 0);
	assert_before(SPINE01, LEAF01);
	assert_before(LEAF02, GPU001);
	rc_fleet_fini(&fl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_lossless_on_goes_switches_first, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_lossless_off_goes_hosts_first, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_extra_lossless_priority_does_not_reverse, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_device_behind_a_failed_one_is_skipped, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_unreadable_switch_blocks_its_hosts, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_one_worker_keeps_the_order, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
