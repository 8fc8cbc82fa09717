/* SPDX-License-Identifier: Apache-2.0 */
/* The fixture of the `rocectl enforce` unit tests (test_enforce.c, test_canary.c): a small
 * fabric of fake_driver.h devices with its inventory, the reference policy and a journal
 * directory, brought into policy by one enforce run before each test.
 *
 * Header-only, like fake_driver.h whose device world it fills: that world is static to each
 * test's translation unit, so a separately compiled helper would see another (empty) one.
 * Include after <cmocka.h> and fake_driver.h. */
#ifndef ROCECTL_FAKE_FLEET_H
#define ROCECTL_FAKE_FLEET_H

#include <stdio.h>
#include <stdlib.h>

#include "fake_driver.h"
#include "rocectl/enforce.h"
#include "rocectl/fleet.h"
#include "rocectl/inventory.h"
#include "rocectl/policy.h"
#include "rocectl/print.h"
#include "testutil.h"

#define FAKE_FLEET_MAX_LINKS 8

struct fixture {
	struct rc_policy pol;
	struct rc_device dev[FAKE_MAX_DEVS];
	char ports[FAKE_MAX_DEVS][FAKE_MAX_PORTS][RC_NAME_MAX];
	struct rc_link links[FAKE_FLEET_MAX_LINKS];
	struct rc_inventory inv;
	char dir[256];
	char driver[RC_NAME_MAX]; /* every device's, a driver the test registers */
	const char *const *names; /* device i is names[i] */
};

/* An empty fleet of `driver` devices named by `names`, a fresh journal directory
 * (rocectl-<tag>-*) and policies/roce-lossless.yaml; NULL on failure, said on stderr. */
static inline struct fixture *fake_fleet_new(const char *tag, const char *driver,
					     const char *const *names)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct rc_warnings warn = {0};
	struct rc_err err = {0};
	char path[4096];

	if (!f || !rc_test_tmpdir(f->dir, sizeof(f->dir), tag)) {
		free(f);
		return NULL;
	}
	rc_test_path(path, sizeof(path), "policies/roce-lossless.yaml");
	if (rc_policy_load(path, &f->pol, &warn, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		free(f);
		return NULL;
	}
	snprintf(f->driver, sizeof(f->driver), "%s", driver);
	f->names = names;
	f->inv.devices = f->dev;
	f->inv.links = f->links;
	fake_reset();
	return f;
}

/* Device i of the inventory and its fake twin, every port at factory defaults. */
static inline void fake_fleet_add_device(struct fixture *f, size_t i, enum rc_role role, size_t n,
					 const char *const *ports)
{
	struct rc_device *d = &f->dev[i];

	assert_true(i < FAKE_MAX_DEVS && n <= FAKE_MAX_PORTS);
	snprintf(d->name, sizeof(d->name), "%s", f->names[i]);
	snprintf(d->driver, sizeof(d->driver), "%s", f->driver);
	d->role = role;
	d->kind = role == RC_ROLE_HOST ? RC_DEV_HOST : RC_DEV_SWITCH;
	d->platform = role == RC_ROLE_HOST ? RC_PLAT_HOST : RC_PLAT_NVUE;
	d->n_ports = n;
	d->ports = f->ports[i];
	for (size_t k = 0; k < n; k++)
		snprintf(f->ports[i][k], RC_NAME_MAX, "%s", ports[k]);
	fake_add(d->name, ports, n);
	if (f->inv.n_devices <= i)
		f->inv.n_devices = i + 1;
}

/* The next link of the inventory: device a's port ap to device b's port bp, 100G. */
static inline void fake_fleet_add_link(struct fixture *f, size_t a, const char *ap, size_t b,
				       const char *bp)
{
	struct rc_link *l = &f->links[f->inv.n_links];

	assert_true(f->inv.n_links < FAKE_FLEET_MAX_LINKS);
	l->a.dev = a;
	snprintf(l->a.port, RC_NAME_MAX, "%s", ap);
	l->b.dev = b;
	snprintf(l->b.port, RC_NAME_MAX, "%s", bp);
	l->speed_gbps = 100;
	f->inv.n_links++;
}

/* One enforce run over the whole fleet, run id "run<length of the fake log>". */
static inline void enforce(struct fixture *f, const struct rc_guardrails *g,
			   struct rc_quarantine *q, struct rc_enforce_run *run)
{
	struct rc_run_opts opts = {.root = "/"};
	struct rc_err err = {0};
	struct rc_fleet fl;

	assert_int_equal(rc_fleet_init(&fl, &f->inv, &f->pol, &opts, NULL, 3, &err), 0);
	fl.progress = false;
	fl.journal_dir = f->dir;
	snprintf(fl.run_id, sizeof(fl.run_id), "run%zu", fake.n_log);
	assert_int_equal(rc_enforce_execute(&fl, g, q, NULL, run, &err), 0);
	rc_fleet_fini(&fl);
}

/* Bring the fleet into policy (disruptive groups allowed), then start counting: the fake
 * devices' open/read/apply counts and the log start from zero.  -1 when that run failed,
 * each device's outcome on stderr. */
static inline int fake_fleet_converge(struct fixture *f)
{
	struct rc_guardrails all = {.allow_disruptive = true};
	struct rc_enforce_run run;

	enforce(f, &all, NULL, &run);
	if (run.exit_code != 0) {
		fprintf(stderr, "set-up enforce exited %d\n", run.exit_code);
		for (size_t i = 0; i < run.n; i++)
			fprintf(stderr, "  %s: %s %s\n", run.devs[i].device,
				rc_enforce_action_name(run.devs[i].action), run.devs[i].error);
		rc_enforce_run_fini(&run);
		return -1;
	}
	rc_enforce_run_fini(&run);
	for (size_t i = 0; i < fake.n; i++)
		fake.dev[i].n_apply = fake.dev[i].n_open = fake.dev[i].n_read = 0;
	fake.n_log = 0;
	return 0;
}

/* Device i's DSCP 26 (the RoCE traffic) moved to priority 0 on every port: the drift the
 * enforce tests repair, in a field group that is not disruptive. */
static inline void drift_dscp(const struct fixture *f, size_t i)
{
	struct fake_dev *d = fake_find(f->names[i]);

	assert_non_null(d);
	for (size_t p = 0; p < d->n_ports; p++)
		d->ports[p].qos.dscp2prio[26] = 0;
}

/* An enforce run's report as text, JSON or Prometheus text, in a buffer the caller frees. */
static inline char *render(const struct rc_enforce_run *run, bool json, bool prom)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	struct rc_out out;

	assert_non_null(m);
	if (prom) {
		rc_enforce_prometheus(m, run);
	} else {
		rc_out_init(&out, m, json ? RC_OUT_JSON : RC_OUT_TEXT);
		rc_enforce_report(&out, run);
	}
	fclose(m);
	return buf;
}

/* cmocka teardown: the journal directory and the fixture go. */
static inline int teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	assert_int_equal(system(cmd), 0);
	free(f);
	return 0;
}

#endif
