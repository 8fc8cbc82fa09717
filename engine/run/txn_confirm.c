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
static size_t kept_entries(const char *dir, const char *run_id, struct rc_journal_entry **e,
			   const struct rc_txn_say *say)
{
	struct rc_err err = {0};
	size_t n = 0;

	if (rc_journal_list(dir, run_id, e, &n, &err)) {
		rc_txn_say(say, RC_TXN_RAW, "", "rocectl: warning: %s", err.msg);
		return 0;
	}
	return n;
}

int rc_txn_keep_run(const char *dir, struct rc_confirm *c, const struct rc_txn_env *env,
		    const struct rc_txn_say *say, struct rc_err *err)
{
	struct rc_txn_env tenv;
	struct rc_err ignored = {0};
	enum rc_confirm_state to;
	int fd, drc, rc = rc_confirm_lock(dir, c->run_id, &fd, err);

	if (rc)
		return rc;
	rc = rc_confirm_load(dir, c->run_id, c, err);
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
	drc = rc_txn_confirm_devices(dir, c->run_id, c->inventory, &tenv, say, err);
	if (drc) {
		rc_confirm_next(c->state, RC_CONFIRM_EV_ROLLBACK, &to);
		snprintf(c->reason, sizeof(c->reason), "confirm failed");
		rc_txn_owner_self(&c->owner);
	} else {
		rc_confirm_who(c->by, sizeof(c->by));
	}
	c->state = to;
	c->changed = time(NULL);
	rc = rc_confirm_save(dir, c, drc ? &ignored : err);
	if (!drc && !rc)
		rc_crashpoint("confirm.recorded");
	close(fd);
	return drc ? -EIO : rc;
}

int rc_txn_roll_back_unkept(const char *dir, const struct rc_confirm *c,
			    const struct rc_txn_env *env, const struct rc_txn_say *say)
{
	struct rc_txn_env tenv;
	int rc;

	rc_txn_env_of(c, env, &tenv);
	rc = rc_txn_rollback_run(c->run_id, dir, c->inventory, &tenv, say);
	rc_txn_rollback_done(dir, c->run_id, rc == 0, say);
	return rc;
}

void rc_txn_drop_entries(const char *dir, const char *run_id, struct rc_history *h,
			 const struct rc_txn_say *say)
{
	struct rc_journal_entry *e = NULL;
	struct rc_err err = {0};
	char path[TXN_PATH_MAX + 80];
	size_t n = kept_entries(dir, run_id, &e, say);

	for (size_t i = 0; i < n; i++) {
		if (rc_journal_done(dir, run_id, e[i].device, &err))
			rc_txn_say(say, RC_TXN_WARN, "confirm", "%s", err.msg);
		rc_confirm_unmark_device(dir, run_id, e[i].device);
		if (h)
			rc_history_result(h, e[i].device, "confirmed", NULL);
	}
	rc_journal_entries_free(e, n);
	snprintf(path, sizeof(path), "%s/%s", dir, run_id);
	rmdir(path); /* empty now; a file left in it stays for a human to see */
}

/* The confirm's own history record, and the run's entries dropped. */
static void record_confirm(const char *dir, const char *run_id, const struct rc_txn_say *say)
{
	struct rc_history h = {0};
	struct rc_err err = {0};
	char id[64];

	rc_journal_new_run_id(id, sizeof(id));
	if (!rc_history_begin(&h, "confirm", id, NULL, NULL, &err)) {
		rc_history_result(&h, run_id, "confirmed", NULL);
		rc_txn_drop_entries(dir, run_id, &h, say);
		rc_history_write(&h, rc_history_dir(), RC_EXIT_OK, &err);
	} else {
		rc_txn_drop_entries(dir, run_id, NULL, say);
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
	struct rc_err err = {0};
	char dir[TXN_PATH_MAX];
	bool known;
	int rc;

	memset(r, 0, sizeof(*r));
	r->exit_code = RC_EXIT_ERROR;
	if (rc_confirm_dir(o->journal, dir, sizeof(dir))) {
		rc_txn_say(say, RC_TXN_ERROR, "confirm", "journal directory name too long");
		return r->exit_code;
	}
	snprintf(c.run_id, sizeof(c.run_id), "%s", o->run);
	rc = rc_txn_keep_run(dir, &c, &o->env, say, &err);
	/* c.state read */
	known = rc == 0 || rc == -EALREADY || rc == -ESTALE || rc == -EIO || rc == -ETIME ||
		rc == -EBUSY;
	if (rc == -EIO) {
		bool restored = rc_txn_roll_back_unkept(dir, &c, &o->env, say) == 0;

		snprintf(r->error, sizeof(r->error), "%s; run %s %s", err.msg, c.run_id,
			 restored ? "was rolled back on every device"
				  : "could not be rolled back: run 'rocectl rollback RUN'");
		rc_confirm_load(dir, c.run_id, &c, &err);
		r->status = "error";
	} else if (rc) {
		r->status = refusal(rc, &c, dir, err.msg, r->error, sizeof(r->error));
	} else {
		record_confirm(dir, c.run_id, say);
		r->status = "confirmed";
	}
	snprintf(r->run_id, sizeof(r->run_id), "%s", c.run_id);
	r->state = known ? rc_confirm_state_name(c.state) : NULL;
	r->n_devices = c.n_devices;
	r->exit_code = rc == 0 || rc == -EALREADY ? RC_EXIT_OK : RC_EXIT_ERROR;
	return r->exit_code;
}

int rc_txn_claim_rollback(const char *journal, const char *run_id, bool force, char *dir,
			  size_t len, const struct rc_txn_say *say)
{
	struct rc_confirm c = {0};
	struct rc_err err = {0};
	int rc;

	(void)force;
	if (rc_confirm_dir(journal, dir, len) || strlen(run_id) >= sizeof(c.run_id))
		return 0;
	snprintf(c.run_id, sizeof(c.run_id), "%s", run_id);
	if (rc_confirm_load(dir, run_id, &c, &err))
		return 0; /* none (or not ours: the journal path decides) */
	rc = rc_confirm_claim(say, dir, &c, &err);
	if (rc == 1)
		return 0;
	if (rc) {
		rc_txn_say(say, RC_TXN_ERROR, "rollback", "%s", err.msg);
		return rc < 0 ? rc : -EIO;
	}
	return 1;
}

void rc_txn_rollback_done(const char *dir, const char *run_id, bool ok,
			  const struct rc_txn_say *say)
{
	struct rc_confirm c = {0};
	struct rc_err err = {0};

	snprintf(c.run_id, sizeof(c.run_id), "%s", run_id);
	if (rc_confirm_transition(dir, &c,
				  ok ? RC_CONFIRM_EV_ROLLBACK_DONE : RC_CONFIRM_EV_ROLLBACK_FAILED,
				  NULL, &err))
		rc_txn_say(say, RC_TXN_WARN, "rollback", "%s", err.msg);
}
