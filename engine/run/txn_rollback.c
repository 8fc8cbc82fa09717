/* SPDX-License-Identifier: Apache-2.0 */
/* rollback [RUN] (include/rocectl/txn.h rc_txn_rollback): restore every device left in the
 * journal by an interrupted or failed run, or every device of run RUN (its entries, its
 * pending confirm, or once it finished its kept snapshots, include/rocectl/run_snap.h),
 * then record the rollback; plain `rollback` then finishes every orphaned run.  A journal
 * file that cannot be used is reported with its reason and the others are restored. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/history.h"
#include "rocectl/inventory.h"
#include "rocectl/journal.h"
#include "rocectl/run_snap.h"
#include "txn_int.h"

/* `rollback RUN` of a run that finished (nothing of it left in the journal), or of the
 * devices a failed or interrupted run had verified (`in_journal` entries left): the native
 * snapshots it kept go to the journal and are restored like any other entry.
 * u->by_value: devices that had none (a record older than the snapshots), restored from
 * the record's values.  *failed: a snapshot could not be used. */
static size_t undo_finished(const struct rc_txn_say *say, const char *run, const char *journal,
			    size_t in_journal, struct rc_run_undo *u, bool *failed)
{
	struct rc_err err = {0};
	int rc = rc_run_undo_to_journal(run, journal, u, &err);
	size_t n = u->n_saved, *by_value = &u->by_value;

	*failed = rc && rc != -ENOENT;
	if (*failed)
		rc_txn_say(say, RC_TXN_ERROR, "rollback", "%s", err.msg);
	if (n && !in_journal)
		rc_txn_say(say, RC_TXN_NOTE, "rollback",
			   "run %s finished; undoing it from %s (%zu device%s)", run,
			   *by_value ? "its history record" : "its kept snapshots", n,
			   n == 1 ? "" : "s");
	else if (n)
		rc_txn_say(say, RC_TXN_NOTE, "rollback",
			   "run %s: %zu device%s it had verified undone too, from %s", run, n,
			   n == 1 ? "" : "s",
			   *by_value ? "its history record" : "its kept snapshots");
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
static void record(const struct rc_txn_restore_job *jobs, size_t n, const struct rc_txn_say *say)
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
		rc_txn_say(say, RC_TXN_WARN, "rollback", "no history record: %s", err.msg);
	rc_history_fini(&h);
}

/* A failure before any device was touched: said, and kept for the caller's document. */
static int fail_early(struct rc_txn_rollback *r, const char *msg, const struct rc_txn_say *say)
{
	if (say)
		rc_txn_say(say, RC_TXN_ERROR, "rollback", "%s", msg);
	if (msg != r->error)
		snprintf(r->error, sizeof(r->error), "%s", msg);
	r->early = true;
	r->source = "none";
	r->exit_code = RC_EXIT_ERROR;
	return RC_EXIT_ERROR;
}

static void say_entries(const struct rc_txn_say *say, const struct rc_journal_entry *e, size_t n,
			const char *dir)
{
	rc_txn_say(say, RC_TXN_NOTE, "rollback",
		   "journal '%s' holds %zu entr%s left by interrupted or failed runs:", dir, n,
		   n == 1 ? "y" : "ies");
	for (size_t i = 0; i < n; i++)
		rc_txn_say(say, RC_TXN_NOTE, "rollback", "  run %s  %s%s", e[i].run_id,
			   e[i].device[0] ? e[i].device : "?", e[i].bad[0] ? "  (unreadable)" : "");
}

/* What the rollback works on: the journal's entries (of RUN), the entries of RUN left
 * pending (claimed), and those of a finished RUN from its kept snapshots.  0 to go on,
 * else the exit code (r says why). */
struct work {
	struct rc_run_loc loc;
	int pending; /* RUN waits for a confirm: its entries are its own (loc.entries) */
	struct rc_run_undo undo;
	bool snap_bad, *from_snap;
};

static int gather(const struct rc_txn_rollback_opts *o, struct rc_txn_rollback *r, struct work *w,
		  const struct rc_txn_say *say)
{
	struct rc_err err = {0};
	const char *run = o->run;

	if (rc_journal_list(r->journal, run, &r->e, &r->n, &err))
		return fail_early(r, err.msg, say);
	if (r->n == 0 && run) {
		w->pending = rc_txn_claim_rollback(r->journal, run, o->force, &w->loc, say);
		if (w->pending < 0)
			return fail_early(
			    r, "the run's confirm state does not allow a rollback now", NULL);
		if (w->pending) {
			snprintf(r->journal, sizeof(r->journal), "%s", w->loc.entries);
			r->source = "confirm";
		}
	}
	if (w->pending && rc_journal_list(r->journal, run, &r->e, &r->n, &err)) {
		rc_txn_rollback_done(&w->loc, false, say);
		return fail_early(r, err.msg, say);
	}
	/* a failed or interrupted run: its devices that were verified are undone too */
	if (run && !w->pending &&
	    undo_finished(say, run, r->journal, r->n, &w->undo, &w->snap_bad) > 0) {
		if (r->n == 0)
			r->source = "history";
		if (rc_run_undo_relist(run, r->journal, &r->e, &r->n, &w->from_snap, &err))
			return fail_early(r, err.msg, say);
	}
	if (r->n == 0 && run && !w->pending && !run_recorded(run)) {
		/* a mistyped id must not look like a rollback that worked */
		snprintf(r->error, sizeof(r->error),
			 "no run '%s': nothing of it in the journal '%s', no confirm pending, no "
			 "record in '%s' (rocectl history lists the runs)",
			 run, r->journal, rc_history_dir());
		return fail_early(r, r->error, say);
	}
	return 0;
}

/* Every job restored under the device locks, said and recorded; `bad` counts failures. */
static int restore(const struct rc_txn_rollback_opts *o, const struct rc_inventory *inv,
		   struct rc_txn_rollback *r, struct work *w, size_t *bad,
		   const struct rc_txn_say *say)
{
	struct rc_run_opts ropts = {.root = o->env.root,
				    .accept_new_host_keys = o->env.accept_new_host_keys,
				    .verbose = o->env.verbose};
	struct rc_locks locks = {0};
	int rc = 0;

	r->jobs = rc_txn_restore_group(r->e, r->n, &r->n_jobs, bad, say);
	if (!r->jobs) {
		rc = -ENOMEM;
		snprintf(r->error, sizeof(r->error), "out of memory");
	}
	if (!rc && r->n_jobs)
		rc = rc_txn_restore_lock(r->jobs, r->n_jobs, &locks, r->error, sizeof(r->error),
					 say);
	if (!rc) {
		struct rc_txn_restore_ctx c = {o->inventory ? inv : NULL,
					       &ropts,
					       r->journal,
					       r->jobs,
					       w->from_snap,
					       r->e,
					       ropts};

		/* values cannot say what the saved configuration was: what was saved since is
		 * not this rollback's to save over (a native snapshot puts it back itself) */
		c.snap_opts.save_only_if_saved = w->undo.by_value > 0;
		c.snap_opts.undo_finished = w->undo.finished;
		rc_txn_restore_all(&c, o->parallel, r->n_jobs);
		*bad += rc_txn_restore_report(r->jobs, r->n_jobs, say);
		if (r->n_jobs)
			rc_crashpoint("rollback.restored");
	}
	if (!rc && r->n_jobs)
		record(r->jobs, r->n_jobs, say);
	rc_locks_release(&locks);
	return rc;
}

int rc_txn_rollback(const struct rc_txn_rollback_opts *o, struct rc_txn_rollback *r,
		    const struct rc_txn_say *say)
{
	struct rc_inventory inv = {0};
	struct rc_err err = {0};
	struct work w = {0};
	size_t bad = 0;
	int rc;

	memset(r, 0, sizeof(*r));
	r->source = "journal";
	snprintf(r->journal, sizeof(r->journal), "%s", o->journal);
	if (o->inventory && rc_inventory_load(o->inventory, &inv, NULL, &err)) {
		char line[RC_ERR_MSG_MAX + 300];

		rc_err_format(&err, line, sizeof(line));
		rc_txn_say(say, RC_TXN_RAW, "rollback", "%s", line);
		return fail_early(r, err.msg, NULL);
	}
	rc = gather(o, r, &w, say);
	if (rc) {
		free(w.from_snap);
		rc_inventory_fini(&inv);
		return rc;
	}
	if (r->n == 0 && w.snap_bad) {
		/* the record exists but cannot be used: that is a failure, not an empty run */
		rc_txn_say(say, RC_TXN_NOTE, "rollback",
			   "run %s: nothing restored (its record cannot be used: see above)",
			   o->run);
		r->source = "none";
	} else if (r->n == 0) {
		rc_txn_say(say, RC_TXN_NOTE, "rollback", "nothing to roll back in '%s'",
			   r->journal);
		r->source = "none";
	} else {
		say_entries(say, r->e, r->n, r->journal);
	}
	rc = restore(o, &inv, r, &w, &bad, say);
	if (w.pending)
		rc_txn_rollback_done(&w.loc, !rc && !bad, say);
	r->exit_code = rc || bad || w.snap_bad ? RC_EXIT_ERROR : RC_EXIT_OK;
	/* plain `rollback` always finishes the runs nobody else will: a rollback whose owner
	 * died, a run killed while it was applied, a pending run past its deadline whose timer
	 * is gone (include/rocectl/confirm.h rc_confirm_orphaned) */
	if (!o->run) {
		size_t found = 0;

		if (rc_txn_sweep(o->journal, o->inventory, &o->env, say, &found))
			r->exit_code = RC_EXIT_ERROR;
		if (found && !strcmp(r->source, "none"))
			r->source = "confirm";
	}
	if (!rc)
		r->error[0] = '\0';
	free(w.from_snap);
	rc_inventory_fini(&inv);
	return r->exit_code;
}

void rc_txn_rollback_fini(struct rc_txn_rollback *r)
{
	for (size_t i = 0; r->jobs && i < r->n_jobs; i++)
		free(r->jobs[i].e);
	free(r->jobs);
	rc_journal_entries_free(r->e, r->n);
	memset(r, 0, sizeof(*r));
}

int rc_txn_rollback_run(const char *run_id, const char *dir, const char *inventory,
			const struct rc_txn_env *env, const struct rc_txn_say *say)
{
	struct rc_txn_rollback_opts o = {.run = run_id,
					 .journal = dir,
					 .inventory = inventory && *inventory ? inventory : NULL,
					 .env = *env};
	struct rc_txn_rollback r;
	int rc = rc_txn_rollback(&o, &r, say);

	rc_txn_rollback_fini(&r);
	return rc;
}
