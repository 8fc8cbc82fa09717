/* SPDX-License-Identifier: Apache-2.0 */
/* Keeping a pending run (include/rocectl/txn.h rc_txn_confirm): under the run's lock, with
 * its deadline checked there, each switch's own timed commit is kept (engine/run/
 * txn_keep.c), the record says confirmed, and the entries kept for the undo go.  An
 * interrupted confirm is resumed (a switch kept already is skipped); a switch that cannot
 * be kept rolls the whole run back.  Also the claim of a pending run by `rollback RUN`. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rocectl/journal.h"
#include "txn_int.h"

/* The run's devices whose journal entry is kept (what a rollback would restore). */
static size_t kept_entries(const struct rc_run_loc *l, struct rc_journal_entry **e,
			   const struct rc_txn_say *say)
{
	struct rc_err err = {0};
	size_t n = 0;

	if (rc_journal_list(l->entries, l->run_id, e, &n, &err)) {
		rc_txn_say(say, RC_TXN_RAW, "", "rocectl: warning: %s", err.msg);
		return 0;
	}
	return n;
}

int rc_txn_keep_run(const struct rc_run_loc *l, struct rc_confirm *c, const struct rc_txn_env *env,
		    const struct rc_txn_say *say, struct rc_err *err)
{
	struct rc_txn_env tenv;
	struct rc_err ignored = {0};
	enum rc_confirm_state to;
	int fd, drc, rc = rc_confirm_lock(l, &fd, err);

	if (rc)
		return rc;
	rc = rc_confirm_load(l, c, err);
	if (!rc)
		rc = rc_confirm_next(c->state, RC_CONFIRM_EV_CONFIRM, &to);
	/* past the deadline the timer, or `rollback`, undoes the run: a confirm then would
	 * keep what is being restored */
	if (!rc && time(NULL) >= c->deadline)
		rc = -ETIME;
	if (rc) {
		close(fd);
		return rc;
	}
	rc_crashpoint("confirm.locked");
	rc_txn_env_of(c, env, &tenv);
	drc = rc_txn_confirm_devices(l, c->inventory, &tenv, say, err);
	if (drc) {
		rc_confirm_next(c->state, RC_CONFIRM_EV_ROLLBACK, &to);
		snprintf(c->reason, sizeof(c->reason), "confirm failed");
		rc_txn_owner_self(&c->owner);
	} else {
		rc_confirm_who(c->by, sizeof(c->by));
	}
	c->state = to;
	c->changed = time(NULL);
	rc = rc_confirm_save(l, c, drc ? &ignored : err);
	if (!drc && !rc)
		rc_crashpoint("confirm.recorded");
	close(fd);
	return drc ? -EIO : rc;
}

int rc_txn_roll_back_unkept(const struct rc_run_loc *l, const struct rc_confirm *c,
			    const struct rc_txn_env *env, const struct rc_txn_say *say)
{
	struct rc_txn_env tenv;
	int rc;

	rc_txn_env_of(c, env, &tenv);
	rc = rc_txn_rollback_run(c->run_id, l->entries, c->inventory, &tenv, say);
	rc_txn_rollback_done(l, rc == 0, say);
	return rc;
}

void rc_txn_drop_entries(const struct rc_run_loc *l, struct rc_history *h,
			 const struct rc_txn_say *say)
{
	struct rc_journal_entry *e = NULL;
	struct rc_err err = {0};
	char path[PATH_MAX + 80];
	size_t n = kept_entries(l, &e, say);

	for (size_t i = 0; i < n; i++) {
		if (rc_journal_done(l->entries, l->run_id, e[i].device, &err))
			rc_txn_say(say, RC_TXN_WARN, "confirm", "%s", err.msg);
		rc_confirm_unmark_device(l, e[i].device);
		if (h)
			rc_history_result(h, e[i].device, "confirmed", NULL);
	}
	rc_journal_entries_free(e, n);
	snprintf(path, sizeof(path), "%s/%s", l->entries, l->run_id);
	rmdir(path); /* empty now; a file left in it stays for a human to see */
	if (!l->legacy)
		rmdir(l->entries);
}

/* The confirm's own history record, and the run's entries dropped. */
static void record_confirm(const struct rc_run_loc *l, const struct rc_txn_say *say)
{
	const char *run_id = l->run_id;
	struct rc_history h = {0};
	struct rc_err err = {0};
	char id[64];

	rc_journal_new_run_id(id, sizeof(id));
	if (!rc_history_begin(&h, "confirm", id, NULL, NULL, &err)) {
		rc_history_result(&h, run_id, "confirmed", NULL);
		rc_txn_drop_entries(l, &h, say);
		rc_history_write(&h, rc_history_dir(), RC_EXIT_OK, &err);
	} else {
		rc_txn_drop_entries(l, NULL, say);
	}
	if (err.msg[0])
		rc_txn_say(say, RC_TXN_WARN, "confirm", "no history record: %s", err.msg);
	rc_history_fini(&h);
}

/* Why a run that was not confirmed was not, in the operator's words. */
static const char *refusal(int rc, const struct rc_confirm *c, const char *dir, const char *msg,
			   char *why, size_t len)
{
	struct rc_txn_owner timer;
	char t[32];

	switch (rc) {
	case -EALREADY:
		return "already-confirmed";
	case -ESTALE:
		snprintf(why, len, "too late: run %s is %s", c->run_id,
			 rc_confirm_state_name(c->state));
		return "too-late";
	case -ETIME:
		rc_confirm_time(c->deadline, t, sizeof(t));
		rc_confirm_timer_owner(c, &timer);
		snprintf(why, len,
			 "too late: the deadline of run %s was %s; %s; nothing was confirmed",
			 c->run_id, t,
			 rc_txn_owner_alive(&timer)
			     ? "its timer is rolling it back"
			     : "its timer is gone: 'rocectl rollback' restores it");
		return "too-late";
	case -EBUSY:
		if (rc_txn_owner_alive(&c->owner))
			snprintf(why, len, "run %s is still being applied by pid %d: not yet",
				 c->run_id, (int)c->owner.pid);
		else
			snprintf(why, len,
				 "run %s was killed while it was applied (pid %d is gone): it "
				 "cannot be confirmed; 'rocectl rollback' restores it",
				 c->run_id, (int)c->owner.pid);
		return "error";
	case -ENOENT:
		snprintf(why, len, "run %s has nothing waiting for a confirm in '%s'", c->run_id,
			 dir);
		return "not-pending";
	default:
		snprintf(why, len, "%s", msg);
		return "error";
	}
}

int rc_txn_confirm(const struct rc_txn_confirm_opts *o, struct rc_txn_confirmed *r,
		   const struct rc_txn_say *say)
{
	struct rc_confirm c = {0};
	struct rc_run_loc loc;
	struct rc_err err = {0};
	bool known;
	int rc;

	memset(r, 0, sizeof(*r));
	r->exit_code = RC_EXIT_ERROR;
	/* a run id is checked whole, never cut to fit and looked up */
	if (rc_run_locate(o->journal, o->run, &loc, &err)) {
		bool cut = strlen(o->run) >= sizeof(r->run_id); /* said so, in the report only */

		snprintf(r->run_id, sizeof(r->run_id), "%.*s%s",
			 cut ? (int)sizeof(r->run_id) - 4 : (int)sizeof(r->run_id), o->run,
			 cut ? "..." : "");
		snprintf(r->error, sizeof(r->error), "%s", err.msg);
		r->status = "error";
		return r->exit_code;
	}
	snprintf(c.run_id, sizeof(c.run_id), "%s", o->run);
	rc = rc_txn_keep_run(&loc, &c, &o->env, say, &err);
	/* c.state read */
	known = rc == 0 || rc == -EALREADY || rc == -ESTALE || rc == -EIO || rc == -ETIME ||
		rc == -EBUSY;
	if (rc == -EIO) {
		bool restored = rc_txn_roll_back_unkept(&loc, &c, &o->env, say) == 0;

		snprintf(r->error, sizeof(r->error), "%s; run %s %s", err.msg, c.run_id,
			 restored ? "was rolled back on every device"
				  : "could not be rolled back: run 'rocectl rollback RUN'");
		rc_confirm_load(&loc, &c, &err);
		r->status = "error";
	} else if (rc) {
		r->status = refusal(rc, &c, loc.dir, err.msg, r->error, sizeof(r->error));
	} else {
		record_confirm(&loc, say);
		r->status = "confirmed";
	}
	snprintf(r->run_id, sizeof(r->run_id), "%s", c.run_id);
	r->state = known ? rc_confirm_state_name(c.state) : NULL;
	r->n_devices = c.n_devices;
	r->exit_code = rc == 0 || rc == -EALREADY ? RC_EXIT_OK : RC_EXIT_ERROR;
	return r->exit_code;
}

int rc_txn_claim_rollback(const char *journal, const char *run_id, bool force,
			  struct rc_run_loc *loc, const struct rc_txn_say *say)
{
	struct rc_confirm c = {0};
	struct rc_err err = {0};
	int rc;

	if (rc_run_locate(journal, run_id, loc, &err))
		return 0;
	if (rc_confirm_load(loc, &c, &err))
		return 0; /* none (or not ours: the journal path decides) */
	rc = rc_confirm_claim(say, loc, &c, force, &err);
	if (rc == 1)
		return 0;
	if (rc) {
		rc_txn_say(say, RC_TXN_ERROR, "rollback", "%s", err.msg);
		return rc < 0 ? rc : -EIO;
	}
	return 1;
}

void rc_txn_rollback_done(const struct rc_run_loc *l, bool ok, const struct rc_txn_say *say)
{
	struct rc_confirm c = {0};
	struct rc_err err = {0};

	snprintf(c.run_id, sizeof(c.run_id), "%s", l->run_id);
	if (rc_confirm_transition(l, &c,
				  ok ? RC_CONFIRM_EV_ROLLBACK_DONE : RC_CONFIRM_EV_ROLLBACK_FAILED,
				  NULL, &err))
		rc_txn_say(say, RC_TXN_WARN, "rollback", "%s", err.msg);
}
