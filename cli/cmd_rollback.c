/* rocectl rollback [RUN]: restore every device left in the journal by an interrupted or
 * failed run, through the same driver path as apply, on the fleet's worker pool (one job
 * per device) while holding each device's lock (engine/run/lock.c).  A journal file that
 * cannot be used is reported with its reason and the others are restored (exit 1). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rocectl/lock.h"
#include "confirm_cmd.h"
#include "rocectl/cli.h"
#include "rocectl/devrun.h"
#include "rocectl/fleet.h"
#include "rocectl/history.h"
#include "rocectl/journal.h"
#include "rocectl/print.h"
#include "rocectl/run_snap.h"
#include "rocectl/txn.h"
#include "rocectl/util.h"

struct rollback_opts {
	const char *inventory;
	const char *journal;
	unsigned parallel;
	bool json;
};

enum { OPT_PARALLEL = 256, OPT_FORMAT };

static const struct rc_option options[] = {
    {"inventory", 'i', "FILE", "inventory giving how to reach journaled switches", 'i'},
    {"journal", 'J', "DIR",
     "journal directory (default $ROCECTL_JOURNAL or " RC_JOURNAL_DEFAULT_DIR ")", 'J'},
    {"parallel", 0, "N", "devices restored at once (default 32)", OPT_PARALLEL},
    {"format", 0, "FMT", "text (default) or json (examples/rollback.schema.json)", OPT_FORMAT},
    {NULL, 0, NULL, NULL, 0},
};

static int on_option(int id, const char *arg, void *ctx)
{
	struct rollback_opts *o = ctx;

	if (id == 'i')
		o->inventory = arg;
	else if (id == 'J')
		o->journal = arg;
	else if (id == OPT_FORMAT)
		return rc_format_text_json("rollback", arg, &o->json);
	else if (id == OPT_PARALLEL)
		return rc_number_arg("rollback", "parallel", arg, 1, 1024, &o->parallel);
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

/* One device's journal entries, restored newest run first so that it ends in the state
 * the oldest interrupted run found. */
struct device_job {
	struct rc_journal_entry **e; /* oldest first */
	size_t n;
	size_t restored;
	int rc;
	struct rc_err err;
	bool unsaved; /* restored, not saved (rc_run_opts.save_only_if_saved) */
};

struct rollback_ctx {
	const struct rc_inventory *inv;
	const struct rc_run_opts *ropts;
	const char *dir;
	struct device_job *jobs;
	/* the devices undone from a finished run's kept snapshots (rc_run_opts.undo_finished),
	 * with how they are saved; the others are journal entries of an interrupted run */
	const bool *from_snap; /* per entry of the listing, NULL: none */
	const struct rc_journal_entry *e0;
	struct rc_run_opts snap_opts;
};

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
	struct rollback_ctx *c = ctx;
	struct device_job *j = &c->jobs[i];

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

/* Group the usable entries by device; `bad` counts the unusable ones (reported here). */
static struct device_job *group(struct rc_journal_entry *e, size_t n, size_t *n_jobs, size_t *bad)
{
	struct device_job *jobs = calloc(n ? n : 1, sizeof(*jobs));

	*n_jobs = 0;
	for (size_t i = 0; jobs && i < n; i++) {
		size_t k = 0;

		if (e[i].bad[0]) {
			fprintf(stderr,
				"rocectl rollback: '%s' (run %s) cannot be restored: %s; the file "
				"is left for you to inspect\n",
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

static void list_entries(FILE *msg, const struct rc_journal_entry *e, size_t n, const char *dir)
{
	fprintf(msg, "journal '%s' holds %zu entr%s left by interrupted or failed runs:\n", dir, n,
		n == 1 ? "y" : "ies");
	for (size_t i = 0; i < n; i++)
		fprintf(msg, "  run %s  %s%s\n", e[i].run_id, e[i].device[0] ? e[i].device : "?",
			e[i].bad[0] ? "  (unreadable)" : "");
}

static int lock_jobs(const struct device_job *jobs, size_t n, struct rc_locks *locks, char *why,
		     size_t why_len)
{
	const char **v = calloc(n ? n : 1, sizeof(*v));
	struct rc_warnings warn = {0};
	struct rc_err err = {0};
	int rc;

	if (!v) {
		fprintf(stderr, "rocectl rollback: out of memory\n");
		snprintf(why, why_len, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		v[i] = jobs[i].e[0]->device;
	rc = rc_lock_devices(rc_lock_dir(), v, n, "rollback", locks, &warn, &err);
	free(v);
	rc_warnings_print(&warn, stderr);
	if (rc) {
		fprintf(stderr, "rocectl rollback: %s\n", err.msg);
		snprintf(why, why_len, "%s", err.msg);
	}
	return rc;
}

static size_t report(FILE *msg, const struct device_job *jobs, size_t n)
{
	size_t failed = 0;

	for (size_t i = 0; i < n; i++) {
		const struct device_job *j = &jobs[i];

		for (size_t k = j->n; k-- > j->n - j->restored;)
			fprintf(msg, "restored '%s' (%zu port%s) from run %s\n", j->e[k]->device,
				j->e[k]->n_ports, j->e[k]->n_ports == 1 ? "" : "s",
				j->e[k]->run_id);
		if (j->unsaved)
			fprintf(
			    msg,
			    "'%s': not saved: its running configuration differed from the "
			    "saved one before the rollback (a change nobody saved); the restore "
			    "is in the running configuration only, save it once checked\n",
			    j->e[0]->device);
		if (j->rc) {
			fprintf(stderr, "rocectl rollback: %s\n", j->err.msg);
			failed++;
		}
	}
	return failed;
}

/* `rollback RUN` of a run that finished (nothing of it left in the journal), or of the
 * devices a failed or interrupted run had verified (`in_journal` entries left): the native
 * snapshots it kept (include/rocectl/run_snap.h) go to the journal and are restored like
 * any other entry.  u->by_value: devices that had none (a record older than the
 * snapshots), restored from the record's values.  *failed: a snapshot could not be used. */
static size_t undo_finished(FILE *msg, const char *run, const char *journal, size_t in_journal,
			    struct rc_run_undo *u, bool *failed)
{
	struct rc_err err = {0};
	int rc = rc_run_undo_to_journal(run, journal, u, &err);
	size_t n = u->n_saved, *by_value = &u->by_value;

	*failed = rc && rc != -ENOENT;
	if (*failed)
		fprintf(stderr, "rocectl rollback: %s\n", err.msg);
	if (n && !in_journal)
		fprintf(msg, "run %s finished; undoing it from %s (%zu device%s)\n", run,
			*by_value ? "its history record" : "its kept snapshots", n,
			n == 1 ? "" : "s");
	else if (n)
		fprintf(msg, "run %s: %zu device%s it had verified undone too, from %s\n", run, n,
			n == 1 ? "" : "s", *by_value ? "its history record" : "its kept snapshots");
	return n;
}

/* Whether the run left a history record (a record that exists but cannot be read or
 * trusted counts as recorded: undo_finished has said why it cannot be used). */
static bool run_recorded(const char *run)
{
	struct rc_history h;
	struct rc_err err = {0};
	int rc = rc_history_load(rc_history_dir(), run, &h, &err);

	if (!rc)
		rc_history_fini(&h);
	return rc != -ENOENT;
}

/* The rollback's own record (include/rocectl/history.h): each device restored or not. */
static void record(const struct device_job *jobs, size_t n)
{
	struct rc_history h;
	struct rc_err err = {0};
	char run_id[64];
	int failed = 0;

	rc_journal_new_run_id(run_id, sizeof(run_id));
	if (!rc_history_begin(&h, "rollback", run_id, NULL, NULL, &err)) {
		for (size_t i = 0; i < n; i++) {
			rc_history_result(&h, jobs[i].e[0]->device,
					  jobs[i].rc ? "failed" : "restored",
					  jobs[i].rc ? jobs[i].err.msg : NULL);
			failed |= jobs[i].rc != 0;
		}
		rc_history_write(&h, rc_history_dir(), failed ? RC_EXIT_ERROR : RC_EXIT_OK, &err);
	}
	if (err.msg[0])
		fprintf(stderr, "rocectl rollback: warning: no history record: %s\n", err.msg);
	rc_history_fini(&h);
}

/* The JSON document (examples/rollback.schema.json): what was restored, per device. */
static void print_json(const char *journal, const char *run, const char *source,
		       const struct rc_journal_entry *e, size_t n, const struct device_job *jobs,
		       size_t n_jobs, const char *error, int exit_code)
{
	struct rc_out o;
	bool failed = error != NULL;

	rc_out_init(&o, stdout, RC_OUT_JSON);
	rc_out_open_object(&o, NULL);
	rc_out_str(&o, "schema", NULL, "rocectl.rollback/v1");
	rc_out_str(&o, "command", NULL, "rollback");
	rc_out_str(&o, "journal", NULL, journal);
	if (run)
		rc_out_str(&o, "run_id", NULL, run);
	else
		rc_out_null(&o, "run_id", NULL);
	rc_out_str(&o, "source", NULL, source);
	rc_out_open_array(&o, "devices");
	for (size_t i = 0; i < n_jobs; i++) {
		const struct device_job *j = &jobs[i];

		rc_out_open_object(&o, NULL);
		rc_out_str(&o, "device", NULL, j->e[0]->device);
		rc_out_str(&o, "status", NULL,
			   error   ? "not-restored"
			   : j->rc ? "failed"
				   : "restored");
		rc_out_open_array(&o, "restored");
		for (size_t k = j->n; !error && k-- > j->n - j->restored;) {
			rc_out_open_object(&o, NULL);
			rc_out_str(&o, "run_id", NULL, j->e[k]->run_id);
			rc_out_uint(&o, "ports", NULL, j->e[k]->n_ports);
			rc_out_close_object(&o);
		}
		rc_out_close_array(&o);
		if (j->rc && !error)
			rc_out_str(&o, "error", NULL, j->err.msg);
		else
			rc_out_null(&o, "error", NULL);
		if (j->unsaved && !error)
			rc_out_bool(&o, "unsaved", NULL, true);
		rc_out_close_object(&o);
		failed |= j->rc != 0;
	}
	rc_out_close_array(&o);
	rc_out_open_array(&o, "unusable");
	for (size_t i = 0; i < n; i++) {
		if (!e[i].bad[0])
			continue;
		rc_out_open_object(&o, NULL);
		rc_out_str(&o, "run_id", NULL, e[i].run_id);
		rc_out_str(&o, "device", NULL, e[i].device);
		rc_out_str(&o, "reason", NULL, e[i].bad);
		rc_out_close_object(&o);
		failed = true;
	}
	rc_out_close_array(&o);
	rc_out_str(&o, "status", NULL, failed ? "failed" : n_jobs ? "restored" : "nothing");
	if (error)
		rc_out_str(&o, "error", NULL, error);
	else
		rc_out_null(&o, "error", NULL);
	rc_out_int(&o, "exit_code", NULL, exit_code);
	rc_out_close_object(&o);
	rc_out_end(&o);
}

/* A failure before any device was touched: said on stderr, and as the JSON document when
 * one is asked for, so that a script reading stdout is never left with nothing. */
static int fail_early(const struct rollback_opts *o, const char *run, const char *msg)
{
	fprintf(stderr, "rocectl rollback: %s\n", msg);
	if (o->json)
		print_json(o->journal, run, "none", NULL, 0, NULL, 0, msg, RC_EXIT_ERROR);
	return RC_EXIT_ERROR;
}

int cmd_rollback(int argc, char **argv, const struct rc_global *g)
{
	struct rollback_opts o = {.journal = getenv("ROCECTL_JOURNAL")};
	struct rc_run_opts ropts = {.root = g->root,
				    .accept_new_host_keys = g->accept_new_host_keys};
	struct rc_inventory inv = {0};
	struct rc_journal_entry *e = NULL;
	struct device_job *jobs = NULL;
	struct rc_locks locks = {0};
	struct rc_err err = {0};
	size_t n = 0, n_jobs = 0, bad = 0;
	struct rc_run_undo undo = {0};
	struct rc_run_opts snap_opts;
	bool snap_bad = false, *from_snap = NULL;
	char confirm_dir[4096], lock_err[RC_ERR_MSG_MAX] = "";
	const char *run, *source = "journal";
	FILE *msg;
	int npos, rc, exit_code, pending = 0; /* RUN waits for a confirm (cli/cmd_confirm.c) */

	rc =
	    rc_parse_options(argc, argv,
			     "rocectl rollback [RUN] [-i INVENTORY] [--journal DIR] [--parallel N] "
			     "[--format text|json]",
			     options, on_option, &o, &npos);
	if (rc)
		return rc > 0 ? RC_EXIT_OK : RC_EXIT_USAGE;
	ropts.verbose = rc_cli_verbosity() > 0;
	if (npos > 1) {
		fprintf(stderr, "rocectl rollback: at most one RUN\n");
		return RC_EXIT_USAGE;
	}
	run = npos ? argv[0] : NULL;
	msg = o.json ? stderr : stdout; /* with --format json, stdout is the document alone */
	if (!o.journal || !*o.journal)
		o.journal = RC_JOURNAL_DEFAULT_DIR;
	if (o.inventory && rc_inventory_load(o.inventory, &inv, NULL, &err)) {
		rc_err_print(&err, stderr);
		if (o.json)
			print_json(o.journal, run, "none", NULL, 0, NULL, 0, err.msg,
				   RC_EXIT_ERROR);
		return RC_EXIT_ERROR;
	}
	if (rc_journal_list(o.journal, run, &e, &n, &err)) {
		rc_inventory_fini(&inv);
		return fail_early(&o, run, err.msg);
	}
	if (n == 0 && run) {
		pending = rc_confirm_claim_rollback(msg, o.journal, run, confirm_dir,
						    sizeof(confirm_dir));
		if (pending < 0) {
			rc_inventory_fini(&inv);
			if (o.json)
				print_json(o.journal, run, "none", NULL, 0, NULL, 0,
					   "the run's confirm state does not allow a rollback now",
					   RC_EXIT_ERROR);
			return RC_EXIT_ERROR;
		}
		if (pending) {
			o.journal = confirm_dir;
			source = "confirm";
		}
	}
	if (pending && rc_journal_list(o.journal, run, &e, &n, &err)) {
		rc_confirm_rollback_done(confirm_dir, run, false);
		rc_inventory_fini(&inv);
		return fail_early(&o, run, err.msg);
	}
	/* a failed or interrupted run: its devices that were verified are undone too */
	if (run && !pending && undo_finished(msg, run, o.journal, n, &undo, &snap_bad) > 0) {
		if (n == 0)
			source = "history";
		if (rc_run_undo_relist(run, o.journal, &e, &n, &from_snap, &err)) {
			rc_inventory_fini(&inv);
			return fail_early(&o, run, err.msg);
		}
	}
	snap_opts = ropts;
	/* values cannot say what the saved configuration was: what was saved since is not
	 * this rollback's to save over (a native snapshot puts it back itself) */
	snap_opts.save_only_if_saved = undo.by_value > 0;
	snap_opts.undo_finished = undo.finished;
	if (n == 0 && run && !pending && !run_recorded(run)) {
		/* a mistyped id must not look like a rollback that worked */
		snprintf(lock_err, sizeof(lock_err),
			 "no run '%s': nothing of it in the journal '%s', no confirm pending, no "
			 "record in '%s' (rocectl history lists the runs)",
			 run, o.journal, rc_history_dir());
		rc_journal_entries_free(e, n);
		free(from_snap);
		rc_inventory_fini(&inv);
		return fail_early(&o, run, lock_err);
	}
	if (n == 0 && snap_bad) {
		/* the record exists but cannot be used: that is a failure, not an empty run */
		fprintf(msg, "run %s: nothing restored (its record cannot be used: see above)\n",
			run);
		source = "none";
	} else if (n == 0) {
		fprintf(msg, "nothing to roll back in '%s'\n", o.journal);
		source = "none";
	} else {
		list_entries(msg, e, n, o.journal);
	}
	jobs = group(e, n, &n_jobs, &bad);
	rc = jobs ? 0 : -ENOMEM;
	if (!jobs)
		snprintf(lock_err, sizeof(lock_err), "out of memory");
	if (!rc && n_jobs)
		rc = lock_jobs(jobs, n_jobs, &locks, lock_err, sizeof(lock_err));
	if (!rc) {
		struct rollback_ctx c = {
		    o.inventory ? &inv : NULL, &ropts, o.journal, jobs, from_snap, e, snap_opts};

		rc_pool_run(o.parallel ? o.parallel : RC_FLEET_DEFAULT_PARALLEL, false, n_jobs,
			    restore_device, &c);
		bad += report(msg, jobs, n_jobs);
		if (n_jobs)
			rc_crashpoint("rollback.restored");
	}
	if (!rc && n_jobs)
		record(jobs, n_jobs);
	if (pending)
		rc_confirm_rollback_done(confirm_dir, run, !rc && !bad);
	exit_code = rc || bad || snap_bad ? RC_EXIT_ERROR : RC_EXIT_OK;
	/* plain `rollback` always finishes the runs nobody else will: a rollback whose owner
	 * died, a run killed while it was applied, a pending run past its deadline whose timer
	 * is gone (include/rocectl/confirm.h rc_confirm_orphaned) */
	if (!run) {
		size_t found = 0;

		if (rc_confirm_sweep(msg, o.journal, o.inventory, g, o.json, &found))
			exit_code = RC_EXIT_ERROR;
		if (found && !strcmp(source, "none"))
			source = "confirm";
	}
	if (o.json)
		print_json(o.journal, run, source, e, n, jobs, jobs ? n_jobs : 0,
			   rc ? lock_err : NULL, exit_code);
	rc_locks_release(&locks);
	for (size_t i = 0; jobs && i < n_jobs; i++)
		free(jobs[i].e);
	free(jobs);
	free(from_snap);
	rc_journal_entries_free(e, n);
	rc_inventory_fini(&inv);
	return exit_code;
}
