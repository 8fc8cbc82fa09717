/* Commit-confirm (include/rocectl/confirm.h, docs/ENFORCE.md "Commit-confirm"):
 *   - rc_confirm_after_run: what `apply --confirm D` and `enforce --confirm D` do once the
 *     change is made: re-read every device (does it still answer? is it in policy?), then
 *     roll back now, confirm (enforce) or leave the run pending under a timer (apply);
 *   - `rocectl confirm RUN`: keep a pending run;
 *   - `rocectl confirm-timer RUN` (internal): the detached process that restores the run's
 *     devices at the deadline unless it was confirmed first.
 * The timer is rocectl's own for every platform: it restores each device from the
 * journaled pre-change state, with the switches' native snapshots, exactly as `rocectl
 * rollback` restores an interrupted run.  It survives the controller's exit, not the
 * controller host's reboot (docs/ENFORCE.md says what to do then).  The switches with a
 * timer of their own (NVUE over SSH: `nv config apply --confirm <minutes>`, NVUE reference
 * "Config Commands"; EOS: `commit timer hh:mm:ss`, "Configure session") were committed
 * under it for a little longer (rc_confirm_device_seconds): they roll back by themselves
 * when this timer is gone too, and a confirm keeps them first (cli/confirm_devices.c). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "confirm_cmd.h"
#include "rocectl/confirm.h"
#include "rocectl/history.h"
#include "rocectl/journal.h"
#include "rocectl/print.h"
#include "rocectl/txn.h"
#include "rocectl/util.h"

#define CONFIRM_PATH_MAX 4096

/* `rocectl rollback RUN --journal DIR [-i INVENTORY]`, in this process: the same restore,
 * locks and record as a rollback typed by hand. */
static int rollback_run(const char *run_id, const char *dir, const char *inventory,
			const struct rc_global *g, bool to_stderr)
{
	char a0[] = "rollback", a2[] = "--journal", a4[] = "-i";
	char run[64], d[CONFIRM_PATH_MAX], inv[CONFIRM_PATH_MAX];
	char *argv[7] = {a0, run, a2, d, NULL, NULL, NULL};
	int argc = 4;

	snprintf(run, sizeof(run), "%s", run_id);
	snprintf(d, sizeof(d), "%s", dir);
	if (inventory && *inventory) {
		snprintf(inv, sizeof(inv), "%s", inventory);
		argv[argc++] = a4;
		argv[argc++] = inv;
	}
	fflush(stdout);
	if (to_stderr) { /* stdout is a JSON document: the restore's lines go to stderr */
		int saved = dup(STDOUT_FILENO), rc;

		if (saved < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
			if (saved >= 0)
				close(saved);
			return cmd_rollback(argc, argv, g);
		}
		rc = cmd_rollback(argc, argv, g);
		fflush(stdout);
		dup2(saved, STDOUT_FILENO);
		close(saved);
		return rc;
	}
	return cmd_rollback(argc, argv, g);
}

/* The run's devices whose journal entry is kept (what a rollback would restore). */
static size_t kept_entries(const char *dir, const char *run_id, struct rc_journal_entry **e)
{
	struct rc_err err = {0};
	size_t n = 0;

	if (rc_journal_list(dir, run_id, e, &n, &err)) {
		fprintf(stderr, "rocectl: warning: %s\n", err.msg);
		return 0;
	}
	return n;
}

/* Under the run's lock, so that the timer cannot take the deadline meanwhile: keep each
 * switch's commit made under its own timer (rc_confirm_devices; a switch kept by an earlier,
 * interrupted confirm is skipped), then mark the run confirmed.  The state machine's
 * refusals as rc_confirm_transition(); -ETIME when the deadline has passed (the timer, or
 * `rollback`, undoes the run: a confirm then would keep what is being restored); -EIO when a device
 * could not be kept, and the run is then marked rolling back for the caller to restore. */
static int keep_run(const char *dir, struct rc_confirm *c, const struct rc_global *g,
		    struct rc_err *err)
{
	struct rc_global tg = *g;
	struct rc_err ignored = {0};
	enum rc_confirm_state to;
	int fd, drc, rc = rc_confirm_lock(dir, c->run_id, &fd, err);

	if (rc)
		return rc;
	rc = rc_confirm_load(dir, c->run_id, c, err);
	if (!rc)
		rc = rc_confirm_next(c->state, RC_CONFIRM_EV_CONFIRM, &to);
	if (!rc && time(NULL) >= c->deadline)
		rc = -ETIME;
	if (rc) {
		close(fd);
		return rc;
	}
	rc_crashpoint("confirm.locked");
	tg.root = c->root[0] ? c->root : g->root;
	tg.accept_new_host_keys = c->accept_new_host_keys;
	drc = rc_confirm_devices(dir, c->run_id, c->inventory, &tg, err);
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

/* After keep_run's -EIO: restore every device of the run, as the timer would. */
static int roll_back_unkept(const char *dir, const struct rc_confirm *c, const struct rc_global *g,
			    bool to_stderr)
{
	struct rc_global tg = *g;
	int rc;

	tg.root = c->root[0] ? c->root : g->root;
	tg.accept_new_host_keys = c->accept_new_host_keys;
	rc = rollback_run(c->run_id, dir, c->inventory, &tg, to_stderr);
	rc_confirm_rollback_done(dir, c->run_id, rc == 0);
	return rc;
}

/* A confirmed run has nothing to roll back: its entries go, as a verified apply's do. */
static void drop_entries(const char *dir, const char *run_id, struct rc_history *h)
{
	struct rc_journal_entry *e = NULL;
	struct rc_err err = {0};
	char path[CONFIRM_PATH_MAX + 80];
	size_t n = kept_entries(dir, run_id, &e);

	for (size_t i = 0; i < n; i++) {
		if (rc_journal_done(dir, run_id, e[i].device, &err))
			fprintf(stderr, "rocectl confirm: warning: %s\n", err.msg);
		rc_confirm_unmark_device(dir, run_id, e[i].device);
		if (h)
			rc_history_result(h, e[i].device, "confirmed", NULL);
	}
	rc_journal_entries_free(e, n);
	snprintf(path, sizeof(path), "%s/%s", dir, run_id);
	rmdir(path); /* empty now; a file left in it stays for a human to see */
}

static void record_confirm(const char *dir, const char *run_id)
{
	struct rc_history h = {0};
	struct rc_err err = {0};
	char id[64];

	rc_journal_new_run_id(id, sizeof(id));
	if (!rc_history_begin(&h, "confirm", id, NULL, NULL, &err)) {
		rc_history_result(&h, run_id, "confirmed", NULL);
		drop_entries(dir, run_id, &h);
		rc_history_write(&h, rc_history_dir(), RC_EXIT_OK, &err);
	} else {
		drop_entries(dir, run_id, NULL);
	}
	if (err.msg[0])
		fprintf(stderr, "rocectl confirm: warning: no history record: %s\n", err.msg);
	rc_history_fini(&h);
}

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
 * reparented to init when the controller exits), its output appended to DIR/RUN.log. */
static int spawn_timer(const char *dir, const struct rc_confirm *c, const char *journal,
		       struct rc_err *err)
{
	char log[CONFIRM_PATH_MAX + 80];
	int st = 0;
	pid_t pid;

	snprintf(log, sizeof(log), "%s/%s.log", dir, c->run_id);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return rc_errf(err, errno, "cannot start the confirm timer: %s", strerror(errno));
	if (pid == 0) {
		char a[8][CONFIRM_PATH_MAX];
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
		snprintf(a[argc++], CONFIRM_PATH_MAX, "rocectl");
		if (c->root[0]) {
			snprintf(a[argc++], CONFIRM_PATH_MAX, "--root");
			snprintf(a[argc++], CONFIRM_PATH_MAX, "%s", c->root);
		}
		if (c->accept_new_host_keys)
			snprintf(a[argc++], CONFIRM_PATH_MAX, "--accept-new-host-keys");
		snprintf(a[argc++], CONFIRM_PATH_MAX, "confirm-timer");
		snprintf(a[argc++], CONFIRM_PATH_MAX, "%s", c->run_id);
		snprintf(a[argc++], CONFIRM_PATH_MAX, "--journal");
		snprintf(a[argc++], CONFIRM_PATH_MAX, "%s", journal);
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
static int wait_timer(const char *dir, const struct rc_confirm *c, struct rc_err *err)
{
	for (int i = 0; i < 300; i++) {
		struct timespec step = {0, 100 * 1000 * 1000};
		struct rc_confirm now;

		if (!rc_confirm_load(dir, c->run_id, &now, err) && now.timer_pid > 0)
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
	struct rc_confirm_armer *a = ctx;
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
	snprintf(c.root, sizeof(c.root), "%s", a->g->root ? a->g->root : "");
	c.accept_new_host_keys = a->g->accept_new_host_keys;
	c.n_devices = n;
	c.changed = time(NULL);
	c.deadline = c.changed + a->seconds;
	c.state = RC_CONFIRM_APPLYING;
	rc_txn_owner_self(&c.owner);
	rc = rc_confirm_save(a->dir, &c, err);
	if (rc)
		return rc;
	rc_crashpoint("txn.record.applying");
	rc = spawn_timer(a->dir, &c, a->journal, err);
	if (!rc)
		rc = wait_timer(a->dir, &c, err);
	if (rc) {
		/* nothing written: the run is over before it began */
		c.state = RC_CONFIRM_ROLLED_BACK;
		snprintf(c.reason, sizeof(c.reason), "no timer");
		rc_confirm_save(a->dir, &c, &ignored);
		return rc;
	}
	rc_crashpoint("txn.timer.armed");
	return 0;
}

int rc_confirm_prepare(struct rc_confirm_armer *a, struct rc_fleet *f, const char *command,
		       const char *journal, const char *inventory, uint32_t seconds,
		       const struct rc_global *g)
{
	memset(a, 0, sizeof(*a));
	a->command = command;
	a->journal = journal;
	a->inventory = inventory;
	a->seconds = seconds;
	a->g = g;
	if (rc_confirm_dir(journal, a->dir, sizeof(a->dir)))
		return -ENAMETOOLONG;
	a->arm.fn = arm;
	a->arm.ctx = a;
	/* the entries are written where the run's state is: no move between apply and pending
	 * that a kill could split */
	f->journal_dir = a->dir;
	f->keep_journal = true;
	f->arm = &a->arm;
	return 0;
}

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

static int roll_back_now(const struct rc_confirm_run *r, const char *dir, struct rc_confirm *c,
			 const char *reason, const struct rc_global *g)
{
	struct rc_err err = {0};
	int rc;

	fprintf(stderr, "rocectl %s: rolling back every device of run %s now (%s)\n", r->command,
		c->run_id, reason);
	if (rc_confirm_transition(dir, c, RC_CONFIRM_EV_ROLLBACK, reason, &err))
		fprintf(stderr, "rocectl %s: warning: %s\n", r->command, err.msg);
	rc = rollback_run(c->run_id, dir, r->inventory, g, r->data_on_stdout);
	if (rc_confirm_transition(dir, c,
				  rc ? RC_CONFIRM_EV_ROLLBACK_FAILED : RC_CONFIRM_EV_ROLLBACK_DONE,
				  NULL, &err))
		fprintf(stderr, "rocectl %s: warning: %s\n", r->command, err.msg);
	return rc;
}

int rc_confirm_after_run(const struct rc_confirm_run *r, struct rc_fleet *f, struct rc_locks *locks,
			 const struct rc_global *g)
{
	struct rc_journal_entry *e = NULL;
	struct rc_confirm c = {0};
	struct rc_txn_owner timer;
	struct rc_err err = {0};
	char dir[CONFIRM_PATH_MAX], why[RC_ERR_MSG_MAX + 64], t[32];
	size_t n, gone = 0, drift = 0;
	FILE *msg = r->data_on_stdout ? stderr : stdout;

	rc_locks_release(locks);
	if (rc_confirm_dir(r->journal, dir, sizeof(dir))) {
		fprintf(stderr, "rocectl %s: journal directory name too long\n", r->command);
		return RC_EXIT_ERROR;
	}
	/* no record: nothing was armed, so nothing was written */
	if (rc_confirm_load(dir, f->run_id, &c, &err)) {
		if (!r->failed)
			fprintf(msg, "nothing was changed: nothing to confirm\n");
		return r->exit_code;
	}
	n = kept_entries(dir, f->run_id, &e);
	rc_journal_entries_free(e, n);
	if (r->failed)
		return roll_back_now(r, dir, &c, "the run failed", g), RC_EXIT_ERROR;
	/* reachability first: a change that cut the controller off must not be kept */
	if (recheck(f, &gone, &drift, why, sizeof(why))) {
		roll_back_now(r, dir, &c, "out of memory", g);
		return RC_EXIT_ERROR;
	}
	if (gone || drift) {
		fprintf(stderr, "rocectl %s: %s\n", r->command, why);
		if (roll_back_now(r, dir, &c, gone ? "unreachable" : "verify failed", g))
			return RC_EXIT_ERROR;
		return gone ? RC_EXIT_ERROR : RC_EXIT_CHANGES;
	}
	rc_crashpoint("txn.checked");
	rc_confirm_timer_owner(&c, &timer);
	if (!rc_txn_owner_alive(&timer) || rc_confirm_to_pending(dir, &c, r->seconds, &err)) {
		fprintf(stderr, "rocectl %s: %s\n", r->command,
			err.msg[0] ? err.msg : "the confirm timer is gone");
		roll_back_now(r, dir, &c, "no timer", g);
		return RC_EXIT_ERROR;
	}
	rc_crashpoint("txn.record.pending");
	if (r->self_confirm) {
		int krc = keep_run(dir, &c, g, &err);

		if (krc == -EIO) {
			fprintf(stderr, "rocectl %s: %s; rolling back every device of run %s now\n",
				r->command, err.msg, c.run_id);
			roll_back_unkept(dir, &c, g, r->data_on_stdout);
			return RC_EXIT_ERROR;
		}
		if (krc) {
			fprintf(stderr, "rocectl %s: %s\n", r->command,
				err.msg[0] ? err.msg : strerror(-krc));
			return RC_EXIT_ERROR;
		}
		drop_entries(dir, c.run_id, NULL);
		fprintf(msg, "run %s confirmed: every device answers and is in policy\n", c.run_id);
		return r->exit_code;
	}
	rc_confirm_time(c.deadline, t, sizeof(t));
	fprintf(msg,
		"confirm with: rocectl confirm %s before %s (otherwise its %zu device%s will be "
		"restored)\n",
		c.run_id, t, n, n == 1 ? "" : "s");
	return r->exit_code;
}

int rc_confirm_claim_rollback(FILE *msg, const char *journal, const char *run_id, char *dir,
			      size_t len)
{
	struct rc_confirm c = {0};
	struct rc_err err = {0};
	int rc;

	if (rc_confirm_dir(journal, dir, len) || strlen(run_id) >= sizeof(c.run_id))
		return 0;
	snprintf(c.run_id, sizeof(c.run_id), "%s", run_id);
	if (rc_confirm_load(dir, run_id, &c, &err))
		return 0; /* none (or not ours: the journal path decides) */
	rc = rc_confirm_claim(msg, dir, &c, &err);
	if (rc == 1)
		return 0;
	if (rc) {
		fprintf(stderr, "rocectl rollback: %s\n", err.msg);
		return rc < 0 ? rc : -EIO;
	}
	return 1;
}

void rc_confirm_rollback_done(const char *dir, const char *run_id, bool ok)
{
	struct rc_confirm c = {0};
	struct rc_err err = {0};

	snprintf(c.run_id, sizeof(c.run_id), "%s", run_id);
	if (rc_confirm_transition(dir, &c,
				  ok ? RC_CONFIRM_EV_ROLLBACK_DONE : RC_CONFIRM_EV_ROLLBACK_FAILED,
				  NULL, &err))
		fprintf(stderr, "rocectl rollback: warning: %s\n", err.msg);
}

/* Roll back one orphaned run through `rollback RUN` (which claims it under its lock). */
static int recover(const struct rc_confirm *c, const char *journal, const char *inventory,
		   const struct rc_global *g, bool to_stderr)
{
	struct rc_global tg = *g;

	tg.root = c->root[0] ? c->root : g->root;
	tg.accept_new_host_keys = c->accept_new_host_keys;
	return rollback_run(c->run_id, journal, inventory && *inventory ? inventory : c->inventory,
			    &tg, to_stderr);
}

int rc_confirm_sweep(FILE *msg, const char *journal, const char *inventory,
		     const struct rc_global *g, bool to_stderr, size_t *found)
{
	char dir[CONFIRM_PATH_MAX], **ids = NULL;
	size_t n = 0;
	time_t now = time(NULL);
	int bad = 0;

	*found = 0;
	if (rc_confirm_dir(journal, dir, sizeof(dir)) || rc_confirm_list(dir, &ids, &n))
		return -EIO;
	for (size_t i = 0; i < n; i++) {
		struct rc_confirm c = {0};
		struct rc_err err = {0};

		if (rc_confirm_load(dir, ids[i], &c, &err)) {
			fprintf(stderr, "rocectl rollback: %s\n", err.msg);
			bad = -EIO;
			continue;
		}
		if (!rc_confirm_orphaned(&c, now))
			continue;
		(*found)++;
		fprintf(msg,
			"run %s needs recovery (%s, nobody is finishing it): rolling it back\n",
			c.run_id, rc_confirm_state_name(c.state));
		if (recover(&c, journal, inventory, g, to_stderr))
			bad = -EIO;
	}
	rc_confirm_list_free(ids, n);
	return bad;
}

static bool listed(const char *const *names, size_t n, const char *device)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], device))
			return true;
	return false;
}

/* The first of `names` that has an entry in run c (CONFIRM_DIR/<run-id>/), or NULL. */
static const char *first_shared(const char *dir, const struct rc_confirm *c,
				const char *const *names, size_t n, char *buf, size_t len)
{
	struct rc_journal_entry *e = NULL;
	size_t m = kept_entries(dir, c->run_id, &e);
	const char *hit = NULL;

	for (size_t i = 0; i < m && !hit; i++)
		if (listed(names, n, e[i].device)) {
			snprintf(buf, len, "%s", e[i].device);
			hit = buf;
		}
	rc_journal_entries_free(e, m);
	return hit;
}

int rc_confirm_guard(const char *command, const char *journal, const char *inventory,
		     const char *const *names, size_t n, const struct rc_global *g,
		     bool recover_orphans, bool to_stderr)
{
	char dir[CONFIRM_PATH_MAX], **ids = NULL, dev[RC_NAME_MAX], t[32];
	size_t m = 0;
	int refused = 0;

	if (rc_confirm_dir(journal, dir, sizeof(dir)) || rc_confirm_list(dir, &ids, &m))
		return 0;
	for (size_t i = 0; i < m && !refused; i++) {
		struct rc_confirm c = {0};
		struct rc_err err = {0};

		if (rc_confirm_load(dir, ids[i], &c, &err) || c.state == RC_CONFIRM_CONFIRMED ||
		    c.state == RC_CONFIRM_ROLLED_BACK ||
		    !first_shared(dir, &c, names, n, dev, sizeof(dev)))
			continue;
		if (recover_orphans && rc_confirm_orphaned(&c, time(NULL))) {
			fprintf(stderr,
				"rocectl %s: '%s' belongs to run %s, which needs recovery (%s, "
				"nobody is finishing it): rolling it back first\n",
				command, dev, c.run_id, rc_confirm_state_name(c.state));
			if (!recover(&c, journal, inventory, g, to_stderr) &&
			    !rc_confirm_load(dir, ids[i], &c, &err) &&
			    c.state == RC_CONFIRM_ROLLED_BACK)
				continue;
		}
		rc_confirm_time(c.deadline, t, sizeof(t));
		if (c.state == RC_CONFIRM_PENDING || c.state == RC_CONFIRM_APPLYING)
			fprintf(stderr,
				"rocectl %s: '%s' belongs to run %s, pending its confirm until %s: "
				"'rocectl confirm %s' or 'rocectl rollback %s' first; nothing was "
				"done\n",
				command, dev, c.run_id, t, c.run_id, c.run_id);
		else
			fprintf(
			    stderr,
			    "rocectl %s: '%s' belongs to run %s, which is %s: 'rocectl rollback "
			    "%s' first; nothing was done\n",
			    command, dev, c.run_id, rc_confirm_state_name(c.state), c.run_id);
		refused = -EBUSY;
	}
	rc_confirm_list_free(ids, m);
	return refused;
}

struct confirm_opts {
	const char *journal;
	const char *cmd;
	bool json;
};

enum { OPT_FORMAT = 256 };

static const struct rc_option confirm_options[] = {
    {"journal", 'J', "DIR",
     "journal directory (default $ROCECTL_JOURNAL or " RC_JOURNAL_DEFAULT_DIR ")", 'J'},
    {"format", 0, "FMT", "text (default) or json (examples/confirm.schema.json)", OPT_FORMAT},
    {NULL, 0, NULL, NULL, 0},
};

static int on_option(int id, const char *arg, void *ctx)
{
	struct confirm_opts *o = ctx;

	if (id == 'J')
		o->journal = arg;
	else if (id == OPT_FORMAT)
		return rc_format_text_json(o->cmd, arg, &o->json);
	return 0;
}

static int parse(const char *cmd, int argc, char **argv, struct confirm_opts *o, char *dir,
		 size_t len)
{
	char usage[80];
	int npos, rc;

	o->journal = getenv("ROCECTL_JOURNAL");
	o->cmd = cmd;
	snprintf(usage, sizeof(usage), "rocectl %s RUN [--journal DIR] [--format text|json]", cmd);
	rc = rc_parse_options(argc, argv, usage, confirm_options, on_option, o, &npos);
	if (rc)
		return rc > 0 ? RC_EXIT_OK : RC_EXIT_USAGE;
	if (npos != 1) {
		fprintf(stderr, "rocectl %s: one RUN is needed (see 'rocectl history')\n", cmd);
		return RC_EXIT_USAGE;
	}
	if (!o->journal || !*o->journal)
		o->journal = RC_JOURNAL_DEFAULT_DIR;
	if (rc_confirm_dir(o->journal, dir, len)) {
		fprintf(stderr, "rocectl %s: journal directory name too long\n", cmd);
		return RC_EXIT_ERROR;
	}
	return -1;
}

/* The outcome of `confirm RUN`: a line of text, or the JSON document
 * (examples/confirm.schema.json) with the same facts.  A refusal is also said on stderr. */
static int confirm_outcome(const struct confirm_opts *o, const struct rc_confirm *c, bool known,
			   const char *status, const char *error, int exit_code)
{
	struct rc_out out;

	if (error)
		fprintf(stderr, "rocectl confirm: %s\n", error);
	if (!o->json) {
		if (!strcmp(status, "confirmed"))
			printf("run %s confirmed: its %zu device%s keep the change\n", c->run_id,
			       c->n_devices, c->n_devices == 1 ? "" : "s");
		else if (!strcmp(status, "already-confirmed"))
			printf("run %s is already confirmed\n", c->run_id);
		return exit_code;
	}
	rc_out_init(&out, stdout, RC_OUT_JSON);
	rc_out_open_object(&out, NULL);
	rc_out_str(&out, "schema", NULL, "rocectl.confirm/v1");
	rc_out_str(&out, "command", NULL, "confirm");
	rc_out_str(&out, "run_id", NULL, c->run_id);
	rc_out_str(&out, "status", NULL, status);
	if (known)
		rc_out_str(&out, "state", NULL, rc_confirm_state_name(c->state));
	else
		rc_out_null(&out, "state", NULL);
	rc_out_uint(&out, "devices", NULL, c->n_devices);
	if (error)
		rc_out_str(&out, "error", NULL, error);
	else
		rc_out_null(&out, "error", NULL);
	rc_out_int(&out, "exit_code", NULL, exit_code);
	rc_out_close_object(&out);
	rc_out_end(&out);
	return exit_code;
}

int cmd_confirm(int argc, char **argv, const struct rc_global *g)
{
	struct confirm_opts o = {0};
	struct rc_confirm c = {0};
	struct rc_err err = {0};
	char dir[CONFIRM_PATH_MAX], why[CONFIRM_PATH_MAX + 160];
	bool known;
	int rc = parse("confirm", argc, argv, &o, dir, sizeof(dir));

	if (rc >= 0)
		return rc;
	snprintf(c.run_id, sizeof(c.run_id), "%s", argv[0]);
	rc = keep_run(dir, &c, g, &err);
	known = rc == 0 || rc == -EALREADY || rc == -ESTALE || rc == -EIO ||
		rc == -ETIME; /* c.state read */
	if (rc == -EIO) {
		bool restored = roll_back_unkept(dir, &c, g, o.json) == 0;

		snprintf(why, sizeof(why), "%s; run %s %s", err.msg, c.run_id,
			 restored ? "was rolled back on every device"
				  : "could not be rolled back: run 'rocectl rollback RUN'");
		rc_confirm_load(dir, c.run_id, &c, &err);
		return confirm_outcome(&o, &c, known, "error", why, RC_EXIT_ERROR);
	}
	if (rc == -EALREADY)
		return confirm_outcome(&o, &c, known, "already-confirmed", NULL, RC_EXIT_OK);
	if (rc == -ESTALE) {
		snprintf(why, sizeof(why), "too late: run %s is %s", c.run_id,
			 rc_confirm_state_name(c.state));
		return confirm_outcome(&o, &c, known, "too-late", why, RC_EXIT_ERROR);
	}
	if (rc == -ETIME) {
		char t[32];
		struct rc_txn_owner timer;

		rc_confirm_time(c.deadline, t, sizeof(t));
		rc_confirm_timer_owner(&c, &timer);
		snprintf(why, sizeof(why),
			 "too late: the deadline of run %s was %s; %s; nothing was confirmed",
			 c.run_id, t,
			 rc_txn_owner_alive(&timer)
			     ? "its timer is rolling it back"
			     : "its timer is gone: 'rocectl rollback' restores it");
		return confirm_outcome(&o, &c, known, "too-late", why, RC_EXIT_ERROR);
	}
	if (rc == -EBUSY) {
		if (rc_txn_owner_alive(&c.owner))
			snprintf(why, sizeof(why),
				 "run %s is still being applied by pid %d: not yet", c.run_id,
				 (int)c.owner.pid);
		else
			snprintf(
			    why, sizeof(why),
			    "run %s was killed while it was applied (pid %d is gone): it cannot "
			    "be confirmed; 'rocectl rollback' restores it",
			    c.run_id, (int)c.owner.pid);
		return confirm_outcome(&o, &c, true, "error", why, RC_EXIT_ERROR);
	}
	if (rc == -ENOENT) {
		snprintf(why, sizeof(why), "run %s has nothing waiting for a confirm in '%s'",
			 c.run_id, dir);
		return confirm_outcome(&o, &c, known, "not-pending", why, RC_EXIT_ERROR);
	}
	if (rc)
		return confirm_outcome(&o, &c, known, "error", err.msg, RC_EXIT_ERROR);
	record_confirm(dir, c.run_id);
	return confirm_outcome(&o, &c, known, "confirmed", NULL, RC_EXIT_OK);
}

/* The detached timer.  It polls the state file every second (a confirm needs no signal
 * and a stale pid can never be killed by mistake), then takes the deadline under the lock
 * so that exactly one of confirm and rollback wins.  While the run is still applying it
 * waits for the run's own process, and acts at once when that process is gone. */
/* The deadline passed while the run's state could not be read: the state the timer
 * started with is written back as "rolling back" (under the run lock) and the run is
 * rolled back like any other, so that a truncated or garbled state file never leaves a
 * change nobody undoes. */
static int timer_restore_unreadable(const char *dir, struct rc_confirm *c,
				    const struct rc_global *g)
{
	struct rc_global tg = *g;
	struct rc_err err = {0};
	int fd, rc;

	if (rc_confirm_lock(dir, c->run_id, &fd, &err)) {
		printf("run %s: %s; the timer ends\n", c->run_id, err.msg);
		return RC_EXIT_ERROR;
	}
	c->state = RC_CONFIRM_ROLLING_BACK;
	rc = rc_confirm_save(dir, c, &err);
	close(fd);
	if (rc)
		printf("run %s: cannot rewrite its state (%s); rolling back all the same\n",
		       c->run_id, err.msg);
	printf("run %s was not confirmed by the deadline: restoring its devices\n", c->run_id);
	fflush(stdout);
	tg.root = c->root[0] ? c->root : g->root;
	tg.accept_new_host_keys = c->accept_new_host_keys;
	rc = rollback_run(c->run_id, dir, c->inventory, &tg, false);
	c->state = rc ? RC_CONFIRM_ROLLBACK_FAILED : RC_CONFIRM_ROLLED_BACK;
	if (rc_confirm_lock(dir, c->run_id, &fd, &err) == 0) {
		if (rc_confirm_save(dir, c, &err))
			fprintf(stderr, "rocectl confirm-timer: %s\n", err.msg);
		close(fd);
	}
	return rc ? RC_EXIT_ERROR : RC_EXIT_OK;
}

int cmd_confirm_timer(int argc, char **argv, const struct rc_global *g)
{
	struct confirm_opts o = {0};
	struct rc_confirm c = {0};
	struct rc_txn_owner self;
	struct rc_err err = {0};
	char dir[CONFIRM_PATH_MAX];
	const char *why = NULL;
	int fd, rc = parse("confirm-timer", argc, argv, &o, dir, sizeof(dir));
	struct rc_global tg = *g;
	bool end = false, unreadable = false;

	if (rc >= 0)
		return rc;
	/* the timer says who it is, so that `history` can tell a dead one */
	if (rc_confirm_lock(dir, argv[0], &fd, &err)) {
		fprintf(stderr, "rocectl confirm-timer: %s\n", err.msg);
		return RC_EXIT_ERROR;
	}
	rc = rc_confirm_load(dir, argv[0], &c, &err);
	if (!rc && (c.state == RC_CONFIRM_PENDING || c.state == RC_CONFIRM_APPLYING)) {
		rc_txn_owner_self(&self);
		c.timer_pid = self.pid;
		c.timer_start = self.start;
		rc = rc_confirm_save(dir, &c, &err);
	} else if (!rc) {
		end = true;
	}
	close(fd);
	if (rc) {
		fprintf(stderr, "rocectl confirm-timer: %s\n", err.msg);
		return RC_EXIT_ERROR;
	}
	if (end)
		return RC_EXIT_OK;
	rc_crashpoint("timer.started");
	printf("timer for run %s: pid %d\n", c.run_id, (int)getpid());
	fflush(stdout);
	for (;;) {
		struct timespec one = {1, 0};
		struct rc_confirm now;

		if (rc_confirm_load(dir, c.run_id, &now, &err)) {
			/* The state is only ever replaced whole (rename), so an unreadable one
			 * was not written by a confirm: the run stays unconfirmed, and the
			 * deadline the timer started with still holds. */
			if (!unreadable) {
				printf("run %s: its state cannot be read (%s); the deadline it had "
				       "stands\n",
				       c.run_id, err.msg);
				fflush(stdout);
				unreadable = true;
			}
			if (time(NULL) < c.deadline) {
				nanosleep(&one, NULL);
				continue;
			}
			return timer_restore_unreadable(dir, &c, g);
		}
		why = rc_confirm_timer_due(&now, time(NULL), &end);
		if (end) {
			printf("run %s: %s; the timer ends\n", c.run_id,
			       rc_confirm_state_name(now.state));
			return RC_EXIT_OK;
		}
		if (why)
			break;
		nanosleep(&one, NULL);
	}
	rc = rc_confirm_transition(dir, &c, RC_CONFIRM_EV_DEADLINE, why, &err);
	if (rc) {
		printf("run %s: %s; nothing to roll back\n", c.run_id,
		       rc == -EALREADY ? "confirmed"
		       : err.msg[0]    ? err.msg
				       : strerror(-rc));
		return rc == -EALREADY || rc == -EINVAL ? RC_EXIT_OK : RC_EXIT_ERROR;
	}
	rc_crashpoint("timer.fired");
	printf("run %s %s: restoring its devices\n", c.run_id,
	       strcmp(why, "timer") ? "was killed before it was pending"
				    : "was not confirmed by the deadline");
	fflush(stdout);
	tg.root = c.root[0] ? c.root : g->root;
	tg.accept_new_host_keys = c.accept_new_host_keys;
	rc = rollback_run(c.run_id, dir, c.inventory, &tg, false);
	if (rc_confirm_transition(dir, &c,
				  rc ? RC_CONFIRM_EV_ROLLBACK_FAILED : RC_CONFIRM_EV_ROLLBACK_DONE,
				  NULL, &err))
		fprintf(stderr, "rocectl confirm-timer: %s\n", err.msg);
	return rc ? RC_EXIT_ERROR : RC_EXIT_OK;
}
