/* SPDX-License-Identifier: Apache-2.0 */
/* The confirm timer (include/rocectl/txn.h): armed before a --confirm run's first write,
 * it restores the run's devices at the deadline unless `rocectl confirm RUN` came first.
 * It is rocectl's own for every platform: each device restored from the journaled pre-run
 * state with the switches' native snapshots, exactly as `rocectl rollback` restores an
 * interrupted run.  It survives the controller's exit, not the controller host's reboot
 * (docs/ENFORCE.md says what to do then).  The switches with a timer of their own (NVUE
 * over SSH: `nv config apply --confirm <minutes>`, NVUE reference "Config Commands"; EOS:
 * `commit timer hh:mm:ss`, "Configure session") were committed under it for a little
 * longer (rc_confirm_device_seconds): they roll back by themselves when this timer is gone
 * too, and a confirm keeps them first (engine/run/txn_keep.c). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "txn_int.h"

static void close_from(int first)
{
#ifdef SYS_close_range
	if (syscall(SYS_close_range, (unsigned)first, ~0u, 0u) == 0)
		return;
#endif
	for (long fd = first, max = sysconf(_SC_OPEN_MAX); fd < max && fd < 65536; fd++)
		close((int)fd);
}

/* The timer: `rocectl [--root R] [--accept-new-host-keys] confirm-timer RUN --journal J`,
 * a grandchild in a session of its own (no SIGHUP when the controller's terminal goes,
 * reparented to init when the controller exits), its output appended to the run's log. */
static int spawn_timer(const struct rc_run_loc *l, const struct rc_confirm *c, const char *journal,
		       struct rc_err *err)
{
	const char *log = l->log;
	int st = 0;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return rc_errf(err, errno, "cannot start the confirm timer: %s", strerror(errno));
	if (pid == 0) {
		char a[8][TXN_PATH_MAX];
		char *argv[9] = {0};
		int argc = 0, out, nul;

		setsid();
		pid = fork();
		if (pid != 0)
			_exit(pid < 0 ? 1 : 0);
		nul = open("/dev/null", O_RDWR);
		out = open(log, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW, 0600);
		dup2(nul, 0);
		dup2(out >= 0 ? out : nul, 1);
		dup2(out >= 0 ? out : nul, 2);
		close_from(3); /* no device lock or session may outlive the run in the timer */
		snprintf(a[argc++], TXN_PATH_MAX, "rocectl");
		if (c->root[0]) {
			snprintf(a[argc++], TXN_PATH_MAX, "--root");
			snprintf(a[argc++], TXN_PATH_MAX, "%s", c->root);
		}
		if (c->accept_new_host_keys)
			snprintf(a[argc++], TXN_PATH_MAX, "--accept-new-host-keys");
		snprintf(a[argc++], TXN_PATH_MAX, "confirm-timer");
		snprintf(a[argc++], TXN_PATH_MAX, "%s", c->run_id);
		snprintf(a[argc++], TXN_PATH_MAX, "--journal");
		snprintf(a[argc++], TXN_PATH_MAX, "%s", journal);
		for (int i = 0; i < argc; i++)
			argv[i] = a[i];
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		return rc_errf(err, ECHILD, "cannot start the confirm timer");
	return 0;
}

/* The run is armed only once its timer runs: the timer writes its pid and start time into
 * the state first thing.  A timer that does not come up within 30 s (a loaded machine execs
 * slowly; a missing binary never does) means nothing is written. */
static int wait_timer(const struct rc_run_loc *l, struct rc_err *err)
{
	for (int i = 0; i < 300; i++) {
		struct timespec step = {0, 100 * 1000 * 1000};
		struct rc_confirm now;

		if (!rc_confirm_load(l, &now, err) && now.timer_pid > 0)
			return 0;
		nanosleep(&step, NULL);
	}
	return rc_errf(err, ETIMEDOUT, "the confirm timer did not start within 30s");
}

/* struct rc_fleet_arm.fn: before the first write, the record says applying (owner: this
 * process, deadline: now + the window) and the timer runs; it undoes the run at the
 * deadline, or at once when this process dies before the run is pending. */
static int arm(struct rc_fleet *f, void *ctx, struct rc_err *err)
{
	struct rc_txn_armer *a = ctx;
	struct rc_confirm c = {0};
	struct rc_err ignored = {0};
	size_t n = 0;
	int rc;

	for (size_t i = 0; i < f->n; i++)
		n += !f->devs[i].rc && !f->devs[i].skipped && f->devs[i].n_changes > 0;
	snprintf(c.run_id, sizeof(c.run_id), "%s", f->run_id);
	snprintf(c.command, sizeof(c.command), "%s", a->command);
	/* absolute: the timer keeps the cwd, a person running `rollback RUN` may not */
	if (!a->inventory || !realpath(a->inventory, c.inventory))
		snprintf(c.inventory, sizeof(c.inventory), "%s", a->inventory ? a->inventory : "");
	snprintf(c.root, sizeof(c.root), "%s", a->env.root ? a->env.root : "");
	c.accept_new_host_keys = a->env.accept_new_host_keys;
	c.n_devices = n;
	c.changed = time(NULL);
	c.deadline = c.changed + a->seconds;
	c.state = RC_CONFIRM_APPLYING;
	rc_txn_owner_self(&c.owner);
	c.grace_s = a->grace_s;
	rc = rc_confirm_save(&a->loc, &c, err);
	if (rc)
		return rc;
	rc_crashpoint("txn.record.applying");
	rc = spawn_timer(&a->loc, &c, a->journal, err);
	if (!rc)
		rc = wait_timer(&a->loc, err);
	if (rc) {
		/* nothing written: the run is over before it began */
		c.state = RC_CONFIRM_ROLLED_BACK;
		snprintf(c.reason, sizeof(c.reason), "no timer");
		rc_confirm_save(&a->loc, &c, &ignored);
		return rc;
	}
	rc_crashpoint("txn.timer.armed");
	return 0;
}

int rc_txn_prepare_confirm(struct rc_txn_armer *a, struct rc_fleet *f, const char *command,
			   const char *journal, const char *inventory, uint32_t seconds,
			   const struct rc_txn_env *env, struct rc_err *err)
{
	memset(a, 0, sizeof(*a));
	a->command = command;
	a->journal = journal;
	a->inventory = inventory;
	a->seconds = seconds;
	a->env = *env;
	a->grace_s = rc_txn_grace_s(f);
	if (rc_run_locate(journal, f->run_id, &a->loc, err))
		return -1;
	a->arm.fn = arm;
	a->arm.ctx = a;
	/* the entries are written where the run's record is: no move between apply and pending
	 * that a kill could split */
	f->journal_dir = a->loc.entries;
	f->keep_journal = true;
	f->arm = &a->arm;
	return 0;
}

/* The deadline passed while the run's state could not be read: the state the timer
 * started with is written back as "rolling back" (under the run lock) and the run is
 * rolled back like any other, so that a truncated or garbled state file never leaves a
 * change nobody undoes. */
static int timer_restore_unreadable(const struct rc_run_loc *l, struct rc_confirm *c,
				    const struct rc_txn_env *env, const struct rc_txn_say *say)
{
	struct rc_txn_env tenv;
	struct rc_err err = {0};
	int fd, rc;

	if (rc_confirm_lock(l, &fd, &err)) {
		rc_txn_say(say, RC_TXN_NOTE, "confirm-timer", "run %s: %s; the timer ends",
			   c->run_id, err.msg);
		return RC_EXIT_ERROR;
	}
	c->state = RC_CONFIRM_ROLLING_BACK;
	rc = rc_confirm_save(l, c, &err);
	close(fd);
	if (rc)
		rc_txn_say(say, RC_TXN_NOTE, "confirm-timer",
			   "run %s: cannot rewrite its state (%s); rolling back all the same",
			   c->run_id, err.msg);
	rc_txn_say(say, RC_TXN_NOTE, "confirm-timer",
		   "run %s was not confirmed by the deadline: restoring its devices", c->run_id);
	rc_txn_env_of(c, env, &tenv);
	rc = rc_txn_rollback_run(c->run_id, l->entries, c->inventory, &tenv, say);
	c->state = rc ? RC_CONFIRM_ROLLBACK_FAILED : RC_CONFIRM_ROLLED_BACK;
	if (rc_confirm_lock(l, &fd, &err) == 0) {
		if (rc_confirm_save(l, c, &err))
			rc_txn_say(say, RC_TXN_ERROR, "confirm-timer", "%s", err.msg);
		close(fd);
	}
	return rc ? RC_EXIT_ERROR : RC_EXIT_OK;
}

/* The timer says who it is, so that `history` can tell a dead one: 0 to go on, 1 when the
 * run is decided already, -1 on an error (said). */
static int timer_register(const struct rc_run_loc *l, struct rc_confirm *c,
			  const struct rc_txn_say *say)
{
	struct rc_txn_owner self;
	struct rc_err err = {0};
	bool end = false;
	int fd, rc;

	if (rc_confirm_lock(l, &fd, &err)) {
		rc_txn_say(say, RC_TXN_ERROR, "confirm-timer", "%s", err.msg);
		return -1;
	}
	rc = rc_confirm_load(l, c, &err);
	if (!rc && (c->state == RC_CONFIRM_PENDING || c->state == RC_CONFIRM_APPLYING)) {
		rc_txn_owner_self(&self);
		c->timer_pid = self.pid;
		c->timer_start = self.start;
		rc = rc_confirm_save(l, c, &err);
	} else if (!rc) {
		end = true;
	}
	close(fd);
	if (rc) {
		rc_txn_say(say, RC_TXN_ERROR, "confirm-timer", "%s", err.msg);
		return -1;
	}
	return end;
}

/* Polls the state file every second (a confirm needs no signal and a stale pid can never
 * be killed by mistake) until the run must be rolled back: why ("timer", "run killed"),
 * or NULL when the timer has nothing left to do (*code its exit code). */
static const char *timer_wait(const struct rc_run_loc *l, struct rc_confirm *c,
			      const struct rc_txn_env *env, const struct rc_txn_say *say, int *code)
{
	bool unreadable = false, end = false;

	for (;;) {
		struct timespec one = {1, 0};
		struct rc_confirm now;
		struct rc_err err = {0};
		const char *why;

		if (rc_confirm_load(l, &now, &err)) {
			/* The state is only ever replaced whole (rename), so an unreadable one
			 * was not written by a confirm: the run stays unconfirmed, and the
			 * deadline the timer started with still holds. */
			if (!unreadable) {
				rc_txn_say(say, RC_TXN_NOTE, "confirm-timer",
					   "run %s: its state cannot be read (%s); the deadline "
					   "it had stands",
					   c->run_id, err.msg);
				unreadable = true;
			}
			if (time(NULL) < c->deadline) {
				nanosleep(&one, NULL);
				continue;
			}
			*code = timer_restore_unreadable(l, c, env, say);
			return NULL;
		}
		why = rc_confirm_timer_due(&now, time(NULL), &end);
		if (end) {
			rc_txn_say(say, RC_TXN_NOTE, "confirm-timer", "run %s: %s; the timer ends",
				   c->run_id, rc_confirm_state_name(now.state));
			*code = RC_EXIT_OK;
			return NULL;
		}
		if (why)
			return why;
		nanosleep(&one, NULL);
	}
}

int rc_txn_timer(const struct rc_txn_confirm_opts *o, const struct rc_txn_say *say)
{
	struct rc_confirm c = {0};
	struct rc_run_loc loc;
	struct rc_txn_env tenv;
	struct rc_err err = {0};
	const char *why;
	int rc, code = RC_EXIT_OK;

	if (rc_run_locate(o->journal, o->run, &loc, &err)) {
		rc_txn_say(say, RC_TXN_ERROR, "confirm-timer", "%s", err.msg);
		return RC_EXIT_ERROR;
	}
	rc = timer_register(&loc, &c, say);
	if (rc)
		return rc < 0 ? RC_EXIT_ERROR : RC_EXIT_OK;
	rc_crashpoint("timer.started");
	rc_txn_say(say, RC_TXN_NOTE, "confirm-timer", "timer for run %s: pid %d", c.run_id,
		   (int)getpid());
	why = timer_wait(&loc, &c, &o->env, say, &code);
	if (!why)
		return code;
	rc = rc_confirm_transition(&loc, &c, RC_CONFIRM_EV_DEADLINE, why, &err);
	if (rc) {
		rc_txn_say(say, RC_TXN_NOTE, "confirm-timer", "run %s: %s; nothing to roll back",
			   c.run_id,
			   rc == -EALREADY ? "confirmed"
			   : err.msg[0]	   ? err.msg
					   : strerror(-rc));
		return rc == -EALREADY || rc == -EINVAL ? RC_EXIT_OK : RC_EXIT_ERROR;
	}
	rc_crashpoint("timer.fired");
	rc_txn_say(say, RC_TXN_NOTE, "confirm-timer", "run %s %s: restoring its devices", c.run_id,
		   strcmp(why, "timer") ? "was killed before it was pending"
					: "was not confirmed by the deadline");
	rc_txn_env_of(&c, &o->env, &tenv);
	rc = rc_txn_rollback_run(c.run_id, loc.entries, c.inventory, &tenv, say);
	if (rc_confirm_transition(&loc, &c,
				  rc ? RC_CONFIRM_EV_ROLLBACK_FAILED : RC_CONFIRM_EV_ROLLBACK_DONE,
				  NULL, &err))
		rc_txn_say(say, RC_TXN_ERROR, "confirm-timer", "%s", err.msg);
	return rc ? RC_EXIT_ERROR : RC_EXIT_OK;
}
