/* SPDX-License-Identifier: Apache-2.0 */
/* One run over a fleet (include/rocectl/txn.h rc_txn_begin .. rc_txn_end): what plan,
 * apply, verify and enforce do around their read and write.  apply and enforce hold the
 * lock of every device they selected (engine/run/lock.c) from before the read to the end,
 * and refuse a device that belongs to a run pending its confirm; with --confirm the undo is
 * armed before the first write (engine/run/txn_timer.c) and settled after the run
 * (engine/run/txn_settle.c); the history record is written once the run has ended, so
 * that a run killed before leaves no exit code to misread. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rocectl/journal.h"
#include "rocectl/util.h"
#include "txn_int.h"

static const char *const kind_names[] = {"plan", "apply", "verify", "enforce"};

static const char *name_of(const struct rc_txn *t)
{
	return kind_names[t->o.kind];
}

static bool writes(const struct rc_txn *t)
{
	return t->o.kind == RC_TXN_APPLY || t->o.kind == RC_TXN_ENFORCE;
}

static bool in_fleet(const struct rc_fleet *f, const char *device)
{
	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->inv->devices[f->devs[i].index].name, device))
			return true;
	return false;
}

/* Journal entries left by runs that were killed or failed to restore: a warning before the
 * run, for the selected devices (a rollback would revert them to the state they hold). */
static void warn_stale(const struct rc_txn *t)
{
	struct rc_journal_entry *e = NULL;
	struct rc_err err = {0};
	size_t n = 0;

	if (rc_journal_list(t->o.journal, NULL, &e, &n, &err)) {
		rc_txn_say(t->say, RC_TXN_WARN, name_of(t), "%s", err.msg);
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (in_fleet(t->f, e[i].device) && !rc_txn_run_id_alive(e[i].run_id))
			rc_txn_say(t->say, RC_TXN_WARN, name_of(t),
				   "'%s' has a stale journal entry from run %s (killed or "
				   "failed)%s%s; 'rocectl rollback %s' would restore the state it "
				   "recorded",
				   e[i].device, e[i].run_id, e[i].bad[0] ? ": " : "", e[i].bad,
				   e[i].run_id);
	rc_journal_entries_free(e, n);
}

/* A device this run found in policy (verify) or brought there (apply) has nothing left to
 * roll back: its stale entries go, so that a later rollback never reverts verified work. */
static void clear_verified(const struct rc_txn *t)
{
	const struct rc_fleet *f = t->f;
	struct rc_journal_entry *e = NULL;
	struct rc_err err = {0};
	size_t n = 0;

	if (rc_journal_list(t->o.journal, NULL, &e, &n, &err))
		return;
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < f->n; k++) {
			const struct rc_fleet_dev *d = &f->devs[k];
			/* verify: the read's SET count (verify --format jsonl has freed the
			 * changes once printed); apply: what its re-read left */
			size_t set = t->o.kind == RC_TXN_VERIFY
					 ? (size_t)(d->n_changes > 0 ? d->n_changes : 0)
					 : rc_changes_count(&d->run.changes, RC_CHANGE_SET);

			if (strcmp(f->inv->devices[d->index].name, e[i].device) || d->rc ||
			    d->skipped || set || !strcmp(e[i].run_id, f->run_id) ||
			    rc_txn_run_id_alive(e[i].run_id))
				continue;
			if (rc_journal_done(t->o.journal, e[i].run_id, e[i].device, &err) == 0)
				rc_txn_say(t->say, RC_TXN_ERROR, name_of(t),
					   "'%s' is verified in policy: its stale journal entry "
					   "from run %s is cleared",
					   e[i].device, e[i].run_id);
			else
				rc_txn_say(t->say, RC_TXN_WARN, name_of(t), "%s", err.msg);
		}
	}
	rc_journal_entries_free(e, n);
}

/* Every selected device locked across the machine before it is read, so that the state
 * the run diffs against is not changed under it by another run (engine/run/lock.c). */
static int lock_fleet(struct rc_txn *t)
{
	const struct rc_fleet *f = t->f;
	const char **v = calloc(f->n ? f->n : 1, sizeof(*v));
	struct rc_warnings warn = {0};
	struct rc_err err = {0};
	int rc;

	if (!v) {
		rc_txn_say(t->say, RC_TXN_ERROR, name_of(t), "out of memory");
		return -1;
	}
	for (size_t i = 0; i < f->n; i++)
		v[i] = f->inv->devices[f->devs[i].index].name;
	/* a device of a run pending its confirm is that run's (its timer would undo this run's
	 * work): refused; an orphaned such run is rolled back first, before the locks its
	 * rollback needs are ours, and checked again under them */
	rc = rc_txn_guard(name_of(t), t->o.journal, t->o.inventory, v, f->n, &t->o.env, true,
			  t->say);
	if (!rc)
		rc = rc_lock_devices(rc_lock_dir(), v, f->n, name_of(t), &t->locks, &warn, &err);
	if (!rc)
		rc = rc_txn_guard(name_of(t), t->o.journal, t->o.inventory, v, f->n, &t->o.env,
				  false, t->say);
	else if (err.msg[0])
		rc_txn_say(t->say, RC_TXN_ERROR, name_of(t), "%s", err.msg);
	free(v);
	rc_txn_say_warnings(t->say, &warn);
	return rc;
}

int rc_txn_begin(struct rc_txn *t, const struct rc_txn_opts *o, struct rc_fleet *f,
		 const struct rc_txn_say *say)
{
	struct rc_err err = {0};

	memset(t, 0, sizeof(*t));
	t->o = *o;
	t->say = say;
	t->f = f;
	if (writes(t) && lock_fleet(t))
		return -1;
	f->journal_dir = o->journal;
	if (writes(t))
		f->opts.confirm_s = o->confirm_s;
	rc_journal_new_run_id(f->run_id, sizeof(f->run_id));
	if (writes(t) && o->confirm_s) {
		t->armer = calloc(1, sizeof(*t->armer));
		if (!t->armer ||
		    rc_txn_prepare_confirm(t->armer, f, name_of(t), o->journal, o->inventory,
					   o->confirm_s, &o->env, &err)) {
			rc_txn_say(say, RC_TXN_ERROR, name_of(t), "%s",
				   t->armer ? err.msg : "out of memory");
			return -1;
		}
	}
	if (o->kind != RC_TXN_ENFORCE) {
		warn_stale(t);
		return 0;
	}
	t->hist = calloc(1, sizeof(*t->hist));
	if (!t->hist ||
	    rc_history_begin(t->hist, "enforce", f->run_id, o->policy, o->inventory, &err)) {
		rc_txn_say(say, RC_TXN_ERROR, "enforce", "%s", t->hist ? err.msg : "out of memory");
		return -1;
	}
	return 0;
}

void rc_txn_record_read(struct rc_txn *t)
{
	struct rc_err err = {0};

	if (t->o.kind != RC_TXN_PLAN && t->o.kind != RC_TXN_APPLY)
		return;
	t->hist = calloc(1, sizeof(*t->hist));
	if (!t->hist ||
	    rc_history_fleet_begin(t->hist, name_of(t), t->f, t->o.policy, t->o.inventory,
				   t->o.kind == RC_TXN_PLAN ? "planned" : "pending", &err))
		rc_txn_say(t->say, RC_TXN_WARN, name_of(t), "no history record: %s",
			   t->hist ? err.msg : "out of memory");
}

/* The run's confirm state once the confirm step is done, for enforce's report. */
static void confirm_outcome(struct rc_txn *t)
{
	struct rc_confirm c = {0};
	struct rc_run_loc loc;
	struct rc_err err = {0};

	if (rc_run_locate(t->o.journal, t->f->run_id, &loc, &err) ||
	    rc_confirm_load(&loc, &c, &err))
		return; /* nothing was changed: nothing to confirm */
	snprintf(t->confirm_state, sizeof(t->confirm_state), "%s", rc_confirm_state_name(c.state));
	snprintf(t->confirm_reason, sizeof(t->confirm_reason), "%s", c.reason);
}

/* --confirm: roll back now, leave the run pending (apply) or confirm it (enforce). */
static int confirm_step(struct rc_txn *t, int exit_code, bool failed)
{
	struct rc_txn_after r = {.command = name_of(t),
				 .journal = t->o.journal,
				 .inventory = t->o.inventory,
				 .seconds = t->o.confirm_s,
				 .failed = failed,
				 .self_confirm = t->o.kind == RC_TXN_ENFORCE,
				 .exit_code = exit_code};

	for (size_t i = 0; t->o.kind == RC_TXN_APPLY && i < t->f->n; i++)
		r.failed |= t->f->devs[i].rc != 0 || t->f->devs[i].skipped;
	exit_code = rc_txn_after_run(&r, t->f, &t->locks, &t->o.env, t->say);
	if (t->o.kind == RC_TXN_ENFORCE)
		confirm_outcome(t);
	return exit_code;
}

int rc_txn_end(struct rc_txn *t, int exit_code, bool failed)
{
	struct rc_err err = {0};

	if (t->o.kind == RC_TXN_APPLY && t->hist)
		rc_history_fleet_applied(t->hist, t->f);
	rc_crashpoint("apply.devices.done");
	/* the record says how the run ended, the confirm step included: a run killed before
	 * this point leaves no exit code to misread (its run record says what it reached) */
	if (writes(t) && t->o.confirm_s)
		exit_code = confirm_step(t, exit_code, failed);
	if (t->hist && t->hist->run_id[0] &&
	    rc_history_write(t->hist, rc_history_dir(), exit_code, &err))
		rc_txn_say(t->say, RC_TXN_WARN, name_of(t), "no history record: %s", err.msg);
	if (t->o.kind == RC_TXN_APPLY || t->o.kind == RC_TXN_VERIFY)
		clear_verified(t);
	return exit_code;
}

void rc_txn_fini(struct rc_txn *t)
{
	if (t->hist) {
		rc_history_fini(t->hist);
		free(t->hist);
	}
	rc_locks_release(&t->locks);
	free(t->armer);
	memset(t, 0, sizeof(*t));
}
