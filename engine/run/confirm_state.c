/* SPDX-License-Identifier: Apache-2.0 */
/* The run record's transitions, each under the run's lock (include/rocectl/confirm.h):
 * what the commit-confirm commands and the timer do to a run's state, apart from the
 * devices they restore or keep (cli/cmd_confirm.c, cli/cmd_rollback.c). */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rocectl/confirm.h"
#include "rocectl/inventory.h"
#include "rocectl/txn.h"
#include "rocectl/util.h"

void rc_confirm_who(char *buf, size_t len)
{
	const char *sudo = getenv("SUDO_USER");
	const struct passwd *pw = getpwuid(geteuid());

	if (sudo && *sudo && rc_name_is_safe(sudo))
		snprintf(buf, len, "%s", sudo);
	else
		snprintf(buf, len, "%s", pw ? pw->pw_name : "?");
}

/* Move to `to` under the lock; 0 or the state machine's refusal. */
int rc_confirm_transition(const struct rc_run_loc *l, struct rc_confirm *c,
			  enum rc_confirm_event ev, const char *reason, struct rc_err *err)
{
	enum rc_confirm_state to;
	int fd, rc = rc_confirm_lock(l, &fd, err);

	if (rc)
		return rc;
	rc = rc_confirm_load(l, c, err);
	if (!rc)
		rc = rc_confirm_next(c->state, ev, &to);
	if (!rc) {
		c->state = to;
		c->changed = time(NULL);
		/* whoever starts a rollback owns it until it ends: dead, it is taken over */
		if (to == RC_CONFIRM_ROLLING_BACK)
			rc_txn_owner_self(&c->owner);
		if (reason)
			snprintf(c->reason, sizeof(c->reason), "%s", reason);
		if (ev == RC_CONFIRM_EV_CONFIRM)
			rc_confirm_who(c->by, sizeof(c->by));
		rc = rc_confirm_save(l, c, err);
	}
	close(fd);
	return rc;
}

/* applying -> pending, the window starting now that the checks are done (not when the
 * change was made), under the run's lock. */
int rc_confirm_to_pending(const struct rc_run_loc *l, struct rc_confirm *c, uint32_t seconds,
			  struct rc_err *err)
{
	enum rc_confirm_state to;
	int fd, rc = rc_confirm_lock(l, &fd, err);

	if (rc)
		return rc;
	rc = rc_confirm_load(l, c, err);
	if (!rc)
		rc = rc_confirm_next(c->state, RC_CONFIRM_EV_APPLIED, &to);
	if (!rc) {
		c->state = to;
		c->changed = time(NULL);
		c->deadline = c->changed + seconds;
		rc = rc_confirm_save(l, c, err);
	} else if (!err->msg[0]) {
		rc = rc_errf(err, -rc, "run %s is %s, not applying", c->run_id,
			     rc_confirm_state_name(c->state));
	}
	close(fd);
	return rc;
}

/* Under the run's lock: the run becomes ours to roll back, or -EBUSY when someone alive is
 * at it (applying it, or rolling it back).  A rollback whose owner died (kill -9 of the
 * timer or of `rollback RUN` mid-restore) is taken over: its restored devices have no
 * entry left, the others are restored now. */
/* SIGKILL to a hung owner, checked to be the recorded process (pid and start time) just
 * before; then wait until it is gone (its device locks go with it).  0, or -EBUSY. */
static int stop_owner(const struct rc_txn_owner *o)
{
	if (!rc_txn_owner_alive(o) || rc_txn_owner_remote(o))
		return -EBUSY;
	kill(o->pid, SIGKILL);
	for (int i = 0; i < 100; i++) {
		struct timespec step = {0, 100 * 1000 * 1000};

		if (!rc_txn_owner_alive(o))
			return 0;
		nanosleep(&step, NULL);
	}
	return -EBUSY;
}

/* An owner alive at work on the run: -EBUSY saying so (and, hung, what to do), or 0 once a
 * hung owner was stopped for `force`. */
static int busy_owner(const struct rc_txn_say *say, const struct rc_confirm *c, bool force,
		      struct rc_err *err)
{
	const char *doing = c->state == RC_CONFIRM_APPLYING ? "being applied" : "being rolled back";
	bool hung = rc_confirm_hung(c, time(NULL));
	char moved[32];

	rc_confirm_time(c->activity, moved, sizeof(moved));
	if (hung && force && !stop_owner(&c->owner)) {
		rc_txn_say(say, RC_TXN_NOTE, "rollback",
			   "run %s: pid %d was alive but hung (nothing moved since %s): stopped; "
			   "taking the run over",
			   c->run_id, (int)c->owner.pid, moved);
		return 0;
	}
	if (hung)
		return rc_errf(err, EBUSY,
			       "run %s is %s by pid %d, which is alive but hung (nothing moved "
			       "since %s): 'rocectl rollback %s --force' stops it and takes the "
			       "run over",
			       c->run_id, doing, (int)c->owner.pid, moved, c->run_id);
	return rc_errf(err, EBUSY, "run %s is %s by pid %d%s now%s", c->run_id, doing,
		       (int)c->owner.pid, rc_txn_owner_remote(&c->owner) ? " on another host" : "",
		       force ? " (not hung: it moved within the run's grace; not taken over)" : "");
}

int rc_confirm_claim(const struct rc_txn_say *say, const struct rc_run_loc *l, struct rc_confirm *c,
		     bool force, struct rc_err *err)
{
	enum rc_confirm_state to = RC_CONFIRM_ROLLING_BACK;
	bool alive;
	int fd, rc = rc_confirm_lock(l, &fd, err);

	if (rc)
		return rc;
	rc = rc_confirm_load(l, c, err);
	/* the timer restoring through `rollback RUN` in its own process owns the run already */
	alive = rc_txn_owner_alive(&c->owner) && c->owner.pid != getpid();
	if (!rc && alive &&
	    (c->state == RC_CONFIRM_ROLLING_BACK || c->state == RC_CONFIRM_APPLYING))
		rc = busy_owner(say, c, force, err);
	if (!rc && force && c->state == RC_CONFIRM_PENDING && rc_confirm_hung(c, time(NULL))) {
		struct rc_txn_owner timer;

		rc_confirm_timer_owner(c, &timer);
		stop_owner(&timer); /* it would find the run rolling back and end; now, not later */
	}
	if (rc) {
		/* said by err */
	} else if (c->state == RC_CONFIRM_ROLLING_BACK) {
		rc_txn_say(say, RC_TXN_NOTE, "rollback",
			   "run %s was being rolled back (%s) by pid %d, which is gone: finishing "
			   "its rollback",
			   c->run_id, c->reason, (int)c->owner.pid);
	} else if (c->state == RC_CONFIRM_APPLYING || c->state == RC_CONFIRM_PENDING ||
		   c->state == RC_CONFIRM_ROLLBACK_FAILED) {
		rc_txn_say(say, RC_TXN_NOTE, "rollback", "run %s was %s: restoring it from '%s'",
			   c->run_id,
			   c->state == RC_CONFIRM_APPLYING  ? "killed while it was applied"
			   : c->state == RC_CONFIRM_PENDING ? "waiting for a confirm"
							    : "not rolled back completely",
			   l->dir);
		snprintf(c->reason, sizeof(c->reason), "%s",
			 c->state == RC_CONFIRM_APPLYING ? "run killed" : "rollback");
	} else {
		rc = 1; /* confirmed or rolled back: not a run for the confirm directory */
	}
	if (!rc) {
		c->state = to;
		c->changed = time(NULL);
		rc_txn_owner_self(&c->owner);
		rc = rc_confirm_save(l, c, err);
		if (!rc)
			rc_crashpoint("rollback.claimed");
	}
	close(fd);
	return rc;
}

/* Whether the timer must act now, and why ("timer": the deadline; "run killed": the run
 * died before it was pending); NULL: wait (or, with *end, stop: the run is decided). */
const char *rc_confirm_timer_due(const struct rc_confirm *now, time_t t, bool *end)
{
	*end = false;
	if (now->state == RC_CONFIRM_APPLYING)
		return rc_txn_owner_alive(&now->owner) ? NULL : "run killed";
	if (now->state == RC_CONFIRM_PENDING)
		return t >= now->deadline ? "timer" : NULL;
	*end = true;
	return NULL;
}
