/* SPDX-License-Identifier: Apache-2.0 */
/* `confirm RUN` on the switches themselves (engine/run/txn_int.h rc_txn_confirm_devices): a
 * run applied with --confirm committed NVUE and EOS under the platform's own timer (struct
 * rc_driver.confirm); keeping the run means keeping each of those commits and saving it,
 * device by device, before the run is marked confirmed.  Hosts and SONiC have no timer of
 * their own: their entries need nothing here (rocectl's timer is theirs, docs/ENFORCE.md
 * "Commit-confirm"). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/devrun.h"
#include "rocectl/driver.h"
#include "rocectl/inventory.h"
#include "rocectl/journal.h"
#include "rocectl/lock.h"
#include "txn_int.h"

static bool needs_device_confirm(const struct rc_journal_entry *e)
{
	const struct rc_driver *d = e->bad[0] ? NULL : rc_driver_find(e->driver);

	return d && d->confirm && e->native;
}

static int confirm_entry(const struct rc_journal_entry *e, const struct rc_inventory *inv,
			 const struct rc_run_opts *ropts, struct rc_err *err)
{
	ptrdiff_t i = rc_inventory_device_index(inv, e->device);
	char(*names)[RC_NAME_MAX];
	struct rc_devrun r;
	int rc;

	if (i < 0)
		return rc_errf(err, ENOENT, "'%s' is not in the inventory", e->device);
	names = calloc(e->n_ports ? e->n_ports : 1, sizeof(*names));
	if (!names)
		return rc_errf(err, ENOMEM, "out of memory");
	for (size_t k = 0; k < e->n_ports; k++)
		snprintf(names[k], sizeof(names[k]), "%s", e->ports[k].name);
	rc = rc_devrun_open(&r, &inv->devices[i], (size_t)i, ropts, names, e->n_ports, err);
	if (!rc && r.drv->confirm)
		rc = r.drv->confirm(r.sess, e->native, err);
	rc_devrun_close(&r);
	free(names);
	return rc;
}

static int confirm_all(const struct rc_run_loc *l, const struct rc_journal_entry *e, size_t n,
		       const char *inventory, const struct rc_txn_env *env,
		       const struct rc_txn_say *say, struct rc_err *err)
{
	struct rc_run_opts ropts = {.root = env->root,
				    .accept_new_host_keys = env->accept_new_host_keys};
	const char **names = calloc(n ? n : 1, sizeof(*names));
	struct rc_inventory inv = {0};
	struct rc_warnings warn = {0};
	struct rc_locks locks = {0};
	size_t k = 0;
	int rc;

	if (!names)
		return rc_errf(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		if (needs_device_confirm(&e[i]))
			names[k++] = e[i].device;
	rc = rc_inventory_load(inventory, &inv, NULL, err);
	if (!rc)
		rc = rc_lock_devices(rc_lock_dir(), names, k, "confirm", &locks, &warn, err);
	rc_txn_say_warnings(say, &warn);
	for (size_t i = 0; !rc && i < n; i++) {
		/* kept by an earlier confirm of this run that was interrupted: its own commit
		 * is no longer pending on the switch, confirming it again would fail */
		if (!needs_device_confirm(&e[i]) || rc_confirm_device_marked(l, e[i].device))
			continue;
		rc = confirm_entry(&e[i], &inv, &ropts, err);
		if (!rc)
			rc = rc_confirm_mark_device(l, e[i].device, err);
		if (!rc)
			rc_crashpoint("confirm.device");
	}
	rc_locks_release(&locks);
	rc_inventory_free(&inv);
	free(names);
	return rc;
}

int rc_txn_confirm_devices(const struct rc_run_loc *l, const char *inventory,
			   const struct rc_txn_env *env, const struct rc_txn_say *say,
			   struct rc_err *err)
{
	struct rc_journal_entry *e = NULL;
	size_t n = 0, timed = 0;
	int rc = rc_journal_list(l->entries, l->run_id, &e, &n, err);

	for (size_t i = 0; !rc && i < n; i++)
		timed += needs_device_confirm(&e[i]);
	if (!rc && timed && (!inventory || !*inventory))
		rc = rc_errf(err, EINVAL, "no inventory recorded for the run's switches");
	if (!rc && timed)
		rc = confirm_all(l, e, n, inventory, env, say, err);
	rc_journal_entries_free(e, n);
	return rc;
}
