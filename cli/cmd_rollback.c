/* rocectl rollback [RUN]: restore every device left in the journal by an interrupted or
 * failed run, through the same driver path as apply. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rocectl/cli.h"
#include "rocectl/devrun.h"
#include "rocectl/journal.h"

struct rollback_opts {
	const char *inventory;
	const char *journal;
};

static const struct rc_option options[] = {
    {"inventory", 'i', "FILE", "inventory giving how to reach journaled switches", 'i'},
    {"journal", 'J', "DIR",
     "journal directory (default $ROCECTL_JOURNAL or " RC_JOURNAL_DEFAULT_DIR ")", 'J'},
    {NULL, 0, NULL, NULL, 0},
};

static int on_option(int id, const char *arg, void *ctx)
{
	struct rollback_opts *o = ctx;

	if (id == 'i')
		o->inventory = arg;
	else if (id == 'J')
		o->journal = arg;
	return 0;
}

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

static int restore_one(const struct rc_journal_entry *e, const struct rc_inventory *inv,
		       const struct rc_run_opts *ropts, const char *dir, struct rc_err *err)
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
	if (rc)
		rc_err_prefix(err, "cannot restore '%s' from run %s", e->device, e->run_id);
	else
		rc = rc_journal_done(dir, e->run_id, e->device, err);
	rc_devrun_close(&r);
	free(names);
	return rc;
}

int cmd_rollback(int argc, char **argv, const struct rc_global *g)
{
	struct rollback_opts o = {.journal = getenv("ROCECTL_JOURNAL")};
	struct rc_run_opts ropts = {.root = g->root,
				    .accept_new_host_keys = g->accept_new_host_keys};
	struct rc_inventory inv = {0};
	struct rc_journal_entry *e = NULL;
	struct rc_err err = {0};
	size_t n = 0, failed = 0;
	int npos, rc;

	rc = rc_parse_options(argc, argv, "rocectl rollback [RUN] [-i INVENTORY] [--journal DIR]",
			      options, on_option, &o, &npos);
	if (rc)
		return rc > 0 ? RC_EXIT_OK : RC_EXIT_ERROR;
	if (npos > 1) {
		fprintf(stderr, "rocectl rollback: at most one RUN\n");
		return RC_EXIT_ERROR;
	}
	if (!o.journal || !*o.journal)
		o.journal = RC_JOURNAL_DEFAULT_DIR;
	if (o.inventory && rc_inventory_load(o.inventory, &inv, NULL, &err)) {
		rc_err_print(&err, stderr);
		return RC_EXIT_ERROR;
	}
	if (rc_journal_list(o.journal, npos ? argv[0] : NULL, &e, &n, &err)) {
		fprintf(stderr, "rocectl rollback: %s\n", err.msg);
		rc_inventory_fini(&inv);
		return RC_EXIT_ERROR;
	}
	if (n == 0)
		printf("nothing to roll back in '%s'\n", o.journal);
	for (size_t i = 0; i < n; i++) {
		if (restore_one(&e[i], o.inventory ? &inv : NULL, &ropts, o.journal, &err)) {
			fprintf(stderr, "rocectl rollback: %s\n", err.msg);
			failed++;
			continue;
		}
		printf("restored '%s' (%zu port%s) from run %s\n", e[i].device, e[i].n_ports,
		       e[i].n_ports == 1 ? "" : "s", e[i].run_id);
	}
	rc_journal_entries_free(e, n);
	rc_inventory_fini(&inv);
	return failed ? RC_EXIT_ERROR : RC_EXIT_OK;
}
