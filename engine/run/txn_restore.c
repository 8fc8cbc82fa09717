/* SPDX-License-Identifier: Apache-2.0 */
/* Restoring journal entries (include/rocectl/txn.h, rc_txn_rollback): every device through
 * the same driver path as apply, on the fleet's worker pool (one job per device, its
 * entries newest run first so that it ends in the state the oldest interrupted run found),
 * while holding each device's lock (engine/run/lock.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/devrun.h"
#include "rocectl/fleet.h"
#include "rocectl/inventory.h"
#include "rocectl/journal.h"
#include "rocectl/lock.h"
#include "txn_int.h"

/* The journaled device: from the inventory, or the local host for the host driver. */
static int find_device(const struct rc_journal_entry *e, const struct rc_inventory *inv,
		       struct rc_device *local, const struct rc_device **dev, size_t *idx,
		       struct rc_err *err)
{
	ptrdiff_t i = inv ? rc_inventory_device_index(inv, e->device) : -1;

	if (i >= 0) {
		*dev = &inv->devices[i];
		*idx = (size_t)i;
		return 0;
	}
	if (!strcmp(e->driver, "mlx5")) {
		memset(local, 0, sizeof(*local));
		snprintf(local->name, sizeof(local->name), "%s", e->device);
		local->kind = RC_DEV_HOST;
		local->transport = RC_TRANSPORT_LOCAL;
		*dev = local;
		*idx = 0;
		return 0;
	}
	return rc_errf(err, ENOENT, "'%s' (%s) is not in the inventory; pass it with -i", e->device,
		       e->driver);
}

static int restore_entry(const struct rc_journal_entry *e, const struct rc_inventory *inv,
			 const struct rc_run_opts *ropts, const char *dir, bool *unsaved,
			 struct rc_err *err)
{
	struct rc_device local;
	const struct rc_device *dev = NULL;
	struct rc_devrun r;
	char(*names)[RC_NAME_MAX];
	size_t idx = 0;
	int rc = find_device(e, inv, &local, &dev, &idx, err);

	if (rc)
		return rc;
	names = calloc(e->n_ports ? e->n_ports : 1, sizeof(*names));
	if (!names)
		return rc_errf(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < e->n_ports; i++)
		snprintf(names[i], sizeof(names[i]), "%s", e->ports[i].name);
	rc = rc_devrun_open(&r, dev, idx, ropts, names, e->n_ports, err);
	if (!rc)
		rc = rc_devrun_restore_native(&r, e->native, e->ports, e->n_ports, err);
	if (!rc && (ropts->save_only_if_saved || ropts->undo_finished) && r.drv->found_unsaved)
		*unsaved |= r.drv->found_unsaved(r.sess);
	if (rc) {
		rc_err_prefix(err, "cannot restore '%s' from run %s", e->device, e->run_id);
	} else {
		/* restored, entry kept: a rollback run again restores it again (the same state) */
		rc_crashpoint("rollback.device");
		rc = rc_journal_done(dir, e->run_id, e->device, err);
	}
	rc_devrun_close(&r);
	free(names);
	return rc;
}

/* A pool worker (engine/run/fleet.c): one device, all its entries. */
static int restore_device(void *ctx, size_t i)
{
	struct rc_txn_restore_ctx *c = ctx;
	struct rc_txn_restore_job *j = &c->jobs[i];

	for (size_t k = j->n; k-- > 0;) {
		bool snap = c->from_snap && c->from_snap[j->e[k] - c->e0];

		j->rc = restore_entry(j->e[k], c->inv, snap ? &c->snap_opts : c->ropts, c->dir,
				      &j->unsaved, &j->err);
		if (j->rc)
			break; /* older states on top of a failed restore would mislead */
		j->restored++;
	}
	return j->rc != 0;
}

void rc_txn_restore_all(struct rc_txn_restore_ctx *c, unsigned parallel, size_t n_jobs)
{
	rc_pool_run(parallel ? parallel : RC_FLEET_DEFAULT_PARALLEL, false, n_jobs, restore_device,
		    c);
}

struct rc_txn_restore_job *rc_txn_restore_group(struct rc_journal_entry *e, size_t n,
						size_t *n_jobs, size_t *bad,
						const struct rc_txn_say *say)
{
	struct rc_txn_restore_job *jobs = calloc(n ? n : 1, sizeof(*jobs));

	*n_jobs = 0;
	for (size_t i = 0; jobs && i < n; i++) {
		size_t k = 0;

		if (e[i].bad[0]) {
			rc_txn_say(say, RC_TXN_ERROR, "rollback",
				   "'%s' (run %s) cannot be restored: %s; the file is left for "
				   "you to inspect",
				   e[i].device[0] ? e[i].device : "?", e[i].run_id, e[i].bad);
			(*bad)++;
			continue;
		}
		while (k < *n_jobs && strcmp(jobs[k].e[0]->device, e[i].device))
			k++;
		if (k == *n_jobs) {
			jobs[k].e = calloc(n, sizeof(*jobs[k].e));
			if (!jobs[k].e)
				break;
			(*n_jobs)++;
		}
		jobs[k].e[jobs[k].n++] = &e[i];
	}
	return jobs;
}

int rc_txn_restore_lock(const struct rc_txn_restore_job *jobs, size_t n, struct rc_locks *locks,
			char *why, size_t why_len, const struct rc_txn_say *say)
{
	const char **v = calloc(n ? n : 1, sizeof(*v));
	struct rc_warnings warn = {0};
	struct rc_err err = {0};
	int rc;

	if (!v) {
		rc_txn_say(say, RC_TXN_ERROR, "rollback", "out of memory");
		snprintf(why, why_len, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		v[i] = jobs[i].e[0]->device;
	rc = rc_lock_devices(rc_lock_dir(), v, n, "rollback", locks, &warn, &err);
	free(v);
	rc_txn_say_warnings(say, &warn);
	if (rc) {
		rc_txn_say(say, RC_TXN_ERROR, "rollback", "%s", err.msg);
		snprintf(why, why_len, "%s", err.msg);
	}
	return rc;
}

size_t rc_txn_restore_report(const struct rc_txn_restore_job *jobs, size_t n,
			     const struct rc_txn_say *say)
{
	size_t failed = 0;

	for (size_t i = 0; i < n; i++) {
		const struct rc_txn_restore_job *j = &jobs[i];

		for (size_t k = j->n; k-- > j->n - j->restored;)
			rc_txn_say(say, RC_TXN_NOTE, "rollback",
				   "restored '%s' (%zu port%s) from run %s", j->e[k]->device,
				   j->e[k]->n_ports, j->e[k]->n_ports == 1 ? "" : "s",
				   j->e[k]->run_id);
		if (j->unsaved)
			rc_txn_say(say, RC_TXN_NOTE, "rollback",
				   "'%s': not saved: its running configuration differed from the "
				   "saved one before the rollback (a change nobody saved); the "
				   "restore is in the running configuration only, save it once "
				   "checked",
				   j->e[0]->device);
		if (j->rc) {
			rc_txn_say(say, RC_TXN_ERROR, "rollback", "%s", j->err.msg);
			failed++;
		}
	}
	return failed;
}
