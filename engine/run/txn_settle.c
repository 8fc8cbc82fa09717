/* SPDX-License-Identifier: Apache-2.0 */
/* What `apply --confirm D` and `enforce --confirm D` do once the change is made (engine/run/
 * txn_int.h rc_txn_after_run): re-read every device (does it still answer? is it in
 * policy?), then roll back now, confirm (enforce) or leave the run pending under its timer
 * (apply). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rocectl/journal.h"
#include "txn_int.h"

/* Re-read every device the run had read: how many no longer answer, how many drift. */
static int recheck(struct rc_fleet *f, size_t *gone, size_t *drift, char *first, size_t len)
{
	bool *was_ok = calloc(f->n ? f->n : 1, sizeof(*was_ok));

	if (!was_ok)
		return -ENOMEM;
	*gone = *drift = 0;
	first[0] = '\0';
	for (size_t i = 0; i < f->n; i++) {
		was_ok[i] = !f->devs[i].rc && !f->devs[i].skipped;
		rc_devrun_close(&f->devs[i].run);
		f->devs[i].opened = false;
	}
	f->opts.dry_run = true;
	f->opts.timed_commit_pending = true; /* saved by the confirm, not yet */
	rc_fleet_read(f);
	for (size_t i = 0; i < f->n; i++) {
		const struct rc_fleet_dev *d = &f->devs[i];
		const char *name = f->inv->devices[d->index].name;

		if (!was_ok[i])
			continue;
		if (d->rc) {
			if (!*gone && !*drift)
				snprintf(first, len, "'%s' no longer answers: %s", name,
					 d->err.msg);
			(*gone)++;
		} else if (d->n_changes > 0) {
			if (!*gone && !*drift)
				snprintf(first, len, "'%s' is not in policy after the change",
					 name);
			(*drift)++;
		}
	}
	free(was_ok);
	return 0;
}

static int roll_back_now(const struct rc_txn_after *r, const struct rc_run_loc *l,
			 struct rc_confirm *c, const char *reason, const struct rc_txn_env *env,
			 const struct rc_txn_say *say)
{
	struct rc_err err = {0};
	int rc;

	rc_txn_say(say, RC_TXN_ERROR, r->command, "rolling back every device of run %s now (%s)",
		   c->run_id, reason);
	if (rc_confirm_transition(l, c, RC_CONFIRM_EV_ROLLBACK, reason, &err))
		rc_txn_say(say, RC_TXN_WARN, r->command, "%s", err.msg);
	rc = rc_txn_rollback_run(c->run_id, l->entries, r->inventory, env, say);
	if (rc_confirm_transition(
		l, c, rc ? RC_CONFIRM_EV_ROLLBACK_FAILED : RC_CONFIRM_EV_ROLLBACK_DONE, NULL, &err))
		rc_txn_say(say, RC_TXN_WARN, r->command, "%s", err.msg);
	return rc;
}

/* enforce: the run kept at once, its checks passed. */
static int self_confirm(const struct rc_txn_after *r, const struct rc_run_loc *l,
			struct rc_confirm *c, const struct rc_txn_env *env,
			const struct rc_txn_say *say)
{
	struct rc_err err = {0};
	int krc = rc_txn_keep_run(l, c, env, say, &err);

	if (krc == -EIO) {
		rc_txn_say(say, RC_TXN_ERROR, r->command,
			   "%s; rolling back every device of run %s now", err.msg, c->run_id);
		rc_txn_roll_back_unkept(l, c, env, say);
		return RC_EXIT_ERROR;
	}
	if (krc) {
		rc_txn_say(say, RC_TXN_ERROR, r->command, "%s",
			   err.msg[0] ? err.msg : strerror(-krc));
		return RC_EXIT_ERROR;
	}
	rc_txn_drop_entries(l, NULL, say);
	rc_txn_say(say, RC_TXN_NOTE, r->command,
		   "run %s confirmed: every device answers and is in policy", c->run_id);
	return r->exit_code;
}

int rc_txn_after_run(const struct rc_txn_after *r, struct rc_fleet *f, struct rc_locks *locks,
		     const struct rc_txn_env *env, const struct rc_txn_say *say)
{
	struct rc_journal_entry *e = NULL;
	struct rc_confirm c = {0};
	struct rc_txn_owner timer;
	struct rc_run_loc loc, *l = &loc;
	struct rc_err err = {0};
	char why[RC_ERR_MSG_MAX + 64], t[32];
	size_t n = 0, gone = 0, drift = 0;

	rc_locks_release(locks);
	if (rc_run_locate(r->journal, f->run_id, &loc, &err)) {
		rc_txn_say(say, RC_TXN_ERROR, r->command, "%s", err.msg);
		return RC_EXIT_ERROR;
	}
	/* no record: nothing was armed, so nothing was written */
	if (rc_confirm_load(l, &c, &err)) {
		if (!r->failed)
			rc_txn_say(say, RC_TXN_NOTE, r->command,
				   "nothing was changed: nothing to confirm");
		return r->exit_code;
	}
	if (rc_journal_list(l->entries, l->run_id, &e, &n, &err)) {
		rc_txn_say(say, RC_TXN_RAW, "", "rocectl: warning: %s", err.msg);
		n = 0;
	}
	rc_journal_entries_free(e, n);
	if (r->failed)
		return roll_back_now(r, l, &c, "the run failed", env, say), RC_EXIT_ERROR;
	/* reachability first: a change that cut the controller off must not be kept */
	if (recheck(f, &gone, &drift, why, sizeof(why))) {
		roll_back_now(r, l, &c, "out of memory", env, say);
		return RC_EXIT_ERROR;
	}
	if (gone || drift) {
		rc_txn_say(say, RC_TXN_ERROR, r->command, "%s", why);
		if (roll_back_now(r, l, &c, gone ? "unreachable" : "verify failed", env, say))
			return RC_EXIT_ERROR;
		return gone ? RC_EXIT_ERROR : RC_EXIT_CHANGES;
	}
	rc_crashpoint("txn.checked");
	rc_confirm_timer_owner(&c, &timer);
	if (!rc_txn_owner_alive(&timer) || rc_confirm_to_pending(l, &c, r->seconds, &err)) {
		rc_txn_say(say, RC_TXN_ERROR, r->command, "%s",
			   err.msg[0] ? err.msg : "the confirm timer is gone");
		roll_back_now(r, l, &c, "no timer", env, say);
		return RC_EXIT_ERROR;
	}
	rc_crashpoint("txn.record.pending");
	if (r->self_confirm)
		return self_confirm(r, l, &c, env, say);
	rc_confirm_time(c.deadline, t, sizeof(t));
	rc_txn_say(say, RC_TXN_NOTE, r->command,
		   "confirm with: rocectl confirm %s before %s (otherwise its %zu device%s will be "
		   "restored)",
		   c.run_id, t, n, n == 1 ? "" : "s");
	return r->exit_code;
}
