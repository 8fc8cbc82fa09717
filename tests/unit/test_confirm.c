/* SPDX-License-Identifier: Apache-2.0 */
/* Commit-confirm (include/rocectl/confirm.h): the --confirm duration, the state machine
 * that decides between a confirm and the timer, and the state file other processes read. */
#include <errno.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "rocectl/confirm.h"
#include "rocectl/txn.h"
#include "testutil.h"

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* The scratch directory and everything in it. */
static void rm_tree(const char *dir)
{
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* A record's place in a CONFIRM_DIR (the layout before the run directory). */
static struct rc_run_loc *at(const char *dir, const char *run)
{
	static struct rc_run_loc l;
	struct rc_err err = {0};

	if (rc_run_loc_legacy(dir, run, &l, &err))
		snprintf(l.run_id, sizeof(l.run_id), "!bad"); /* a bad id: checked by the caller */
	return &l;
}

static uint32_t dur_ok(const char *s)
{
	struct rc_err err = {0};
	uint32_t v = 0;

	assert_int_equal(rc_confirm_parse_duration(s, &v, &err), 0);
	return v;
}

static void dur_bad(const char *s, int want, const char *msg)
{
	struct rc_err err = {0};
	uint32_t v = 777;

	assert_int_equal(rc_confirm_parse_duration(s, &v, &err), -want);
	assert_non_null(strstr(err.msg, msg));
	assert_int_equal(v, 777);
}

static void test_duration_forms(void **state)
{
	(void)state;
	assert_int_equal(dur_ok("20s"), 20);
	assert_int_equal(dur_ok("90"), 90);
	assert_int_equal(dur_ok("5m"), 300);
	assert_int_equal(dur_ok("1h"), 3600);
	assert_int_equal(dur_ok("1m30s"), 90);
	assert_int_equal(dur_ok("1h0m5s"), 3605);
	assert_int_equal(dur_ok("24h"), 24 * 3600);
	assert_int_equal(dur_ok("1s"), 1);
}

static void test_duration_refused(void **state)
{
	(void)state;
	dur_bad("", EINVAL, "empty");
	dur_bad("0s", ERANGE, "shorter than 1s");
	dur_bad("0", ERANGE, "shorter than 1s");
	dur_bad("24h1s", ERANGE, "longer than 24h");
	dur_bad("99999999999999999999s", ERANGE, "longer than 24h");
	dur_bad("10x", EINVAL, "not a duration");
	dur_bad("s", EINVAL, "not a duration");
	dur_bad("-5s", EINVAL, "not a duration");
	dur_bad("5s1m", EINVAL, "in that order"); /* descending units only */
	dur_bad("1m1m", EINVAL, "in that order"); /* each once */
	dur_bad("1m30", EINVAL, "unit is missing");
	dur_bad(" 5s", EINVAL, "not a duration");
}

static int next(enum rc_confirm_state from, enum rc_confirm_event ev, enum rc_confirm_state *to)
{
	*to = (enum rc_confirm_state)99;
	return rc_confirm_next(from, ev, to);
}

static void test_state_machine(void **state)
{
	enum rc_confirm_state to;

	(void)state;
	/* pending: a confirm keeps it, the deadline or a failed check rolls it back */
	assert_int_equal(next(RC_CONFIRM_PENDING, RC_CONFIRM_EV_CONFIRM, &to), 0);
	assert_int_equal(to, RC_CONFIRM_CONFIRMED);
	assert_int_equal(next(RC_CONFIRM_PENDING, RC_CONFIRM_EV_DEADLINE, &to), 0);
	assert_int_equal(to, RC_CONFIRM_ROLLING_BACK);
	assert_int_equal(next(RC_CONFIRM_PENDING, RC_CONFIRM_EV_ROLLBACK, &to), 0);
	assert_int_equal(to, RC_CONFIRM_ROLLING_BACK);
	assert_int_equal(next(RC_CONFIRM_PENDING, RC_CONFIRM_EV_ROLLBACK_DONE, &to), -EINVAL);
	/* confirmed: the timer that wakes finds nothing to do; a second confirm says so */
	assert_int_equal(next(RC_CONFIRM_CONFIRMED, RC_CONFIRM_EV_DEADLINE, &to), -EALREADY);
	assert_int_equal(next(RC_CONFIRM_CONFIRMED, RC_CONFIRM_EV_CONFIRM, &to), -EALREADY);
	assert_int_equal(next(RC_CONFIRM_CONFIRMED, RC_CONFIRM_EV_ROLLBACK, &to), -EINVAL);
	/* once the rollback has begun, a confirm is too late */
	assert_int_equal(next(RC_CONFIRM_ROLLING_BACK, RC_CONFIRM_EV_CONFIRM, &to), -ESTALE);
	assert_int_equal(next(RC_CONFIRM_ROLLING_BACK, RC_CONFIRM_EV_DEADLINE, &to), -EINVAL);
	assert_int_equal(next(RC_CONFIRM_ROLLING_BACK, RC_CONFIRM_EV_ROLLBACK_DONE, &to), 0);
	assert_int_equal(to, RC_CONFIRM_ROLLED_BACK);
	assert_int_equal(next(RC_CONFIRM_ROLLING_BACK, RC_CONFIRM_EV_ROLLBACK_FAILED, &to), 0);
	assert_int_equal(to, RC_CONFIRM_ROLLBACK_FAILED);
	assert_int_equal(next(RC_CONFIRM_ROLLED_BACK, RC_CONFIRM_EV_CONFIRM, &to), -ESTALE);
	assert_int_equal(next(RC_CONFIRM_ROLLED_BACK, RC_CONFIRM_EV_ROLLBACK, &to), -EINVAL);
	/* applying: armed before the first write, pending once the checks pass */
	assert_int_equal(next(RC_CONFIRM_APPLYING, RC_CONFIRM_EV_APPLIED, &to), 0);
	assert_int_equal(to, RC_CONFIRM_PENDING);
	assert_int_equal(next(RC_CONFIRM_APPLYING, RC_CONFIRM_EV_DEADLINE, &to), 0);
	assert_int_equal(to, RC_CONFIRM_ROLLING_BACK);
	assert_int_equal(next(RC_CONFIRM_APPLYING, RC_CONFIRM_EV_ROLLBACK, &to), 0);
	assert_int_equal(to, RC_CONFIRM_ROLLING_BACK);
	assert_int_equal(next(RC_CONFIRM_APPLYING, RC_CONFIRM_EV_CONFIRM, &to), -EBUSY);
	assert_int_equal(next(RC_CONFIRM_PENDING, RC_CONFIRM_EV_APPLIED, &to), -EINVAL);
	assert_string_equal(rc_confirm_state_name(RC_CONFIRM_APPLYING), "applying");
	/* a failed rollback may be tried again, never confirmed */
	assert_int_equal(next(RC_CONFIRM_ROLLBACK_FAILED, RC_CONFIRM_EV_ROLLBACK, &to), 0);
	assert_int_equal(to, RC_CONFIRM_ROLLING_BACK);
	assert_int_equal(next(RC_CONFIRM_ROLLBACK_FAILED, RC_CONFIRM_EV_CONFIRM, &to), -ESTALE);
	assert_string_equal(rc_confirm_state_name(RC_CONFIRM_ROLLED_BACK), "rolled back");
	assert_string_equal(rc_confirm_state_name((enum rc_confirm_state)42), "?");
}

static void test_dir(void **state)
{
	char buf[64];

	(void)state;
	assert_int_equal(rc_confirm_dir("/var/lib/rocectl/journal", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/var/lib/rocectl/confirm");
	assert_int_equal(rc_confirm_dir("/tmp/x/journal/", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/tmp/x/confirm");
	assert_int_equal(rc_confirm_dir("journal", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "confirm");
	assert_int_equal(
	    rc_confirm_dir("/a/very/long/path/that/does/not/fit/in/this/buffer/journal", buf, 16),
	    -ENAMETOOLONG);
}

static void test_state_file(void **state)
{
	struct rc_run_loc l;
	struct rc_confirm c = {0}, back;
	struct rc_err err = {0};
	char dir[256], path[512], line[512];
	struct stat st;
	int fd;

	(void)state;
	assert_non_null(rc_test_tmpdir(dir, sizeof(dir), "confirm"));
	snprintf(dir + strlen(dir), sizeof(dir) - strlen(dir),
		 "/confirm"); /* created by save, 0700 */
	snprintf(c.run_id, sizeof(c.run_id), "20261203T120000.000Z-42");
	snprintf(c.command, sizeof(c.command), "apply");
	snprintf(c.inventory, sizeof(c.inventory), "/etc/rocectl/inventory.yaml");
	snprintf(c.root, sizeof(c.root), "/");
	c.deadline = 1796300000;
	c.changed = 1796299980;
	c.timer_pid = 0;
	c.n_devices = 6;
	assert_int_equal(rc_confirm_save(at(dir, c.run_id), &c, &err), 0);
	assert_int_equal(stat(dir, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	snprintf(path, sizeof(path), "%s/%s.json", dir, c.run_id);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(rc_confirm_load(at(dir, c.run_id), &back, &err), 0);
	assert_string_equal(back.run_id, c.run_id);
	assert_string_equal(back.inventory, c.inventory);
	assert_int_equal(back.state, RC_CONFIRM_PENDING);
	assert_int_equal(back.deadline, c.deadline);
	assert_int_equal(back.n_devices, 6);

	/* pending, the deadline long past and no timer: nobody finishes it, say what to do */
	rc_confirm_describe(&back, c.deadline + 60, line, sizeof(line));
	assert_non_null(strstr(line, "needs recovery: pending, nobody is finishing it"));
	assert_non_null(strstr(line, "'rocectl rollback'"));
	assert_true(rc_confirm_orphaned(&back, c.deadline + 60));
	assert_false(rc_confirm_orphaned(&back, c.deadline - 1)); /* its deadline not yet */
	/* before the deadline: pending, whatever the timer */
	rc_confirm_describe(&back, c.deadline - 10, line, sizeof(line));
	assert_non_null(strstr(line, "pending confirm until 2026-12-03T"));
	back.timer_pid = getpid(); /* alive */
	back.timer_start = rc_txn_proc_start(getpid());
	rc_confirm_describe(&back, c.deadline + 60, line, sizeof(line));
	assert_null(strstr(line, "needs recovery"));
	back.timer_start += 1; /* the pid reused by another process: not the timer */
	assert_true(rc_confirm_orphaned(&back, c.deadline + 60));

	/* applying or rolling back: orphaned exactly when the owner is gone */
	back.state = RC_CONFIRM_APPLYING;
	rc_txn_owner_self(&back.owner);
	assert_false(rc_confirm_orphaned(&back, c.deadline + 60));
	back.state = RC_CONFIRM_ROLLING_BACK;
	assert_false(rc_confirm_orphaned(&back, c.deadline + 60));
	back.owner.start += 1;
	assert_true(rc_confirm_orphaned(&back, c.deadline + 60));
	rc_confirm_describe(&back, c.deadline + 60, line, sizeof(line));
	assert_non_null(strstr(line, "needs recovery: rolling back"));
	/* the owner survives a save and a load */
	assert_int_equal(rc_confirm_save(at(dir, back.run_id), &back, &err), 0);
	assert_int_equal(rc_confirm_load(at(dir, c.run_id), &c, &err), 0);
	assert_int_equal(c.owner.pid, getpid());
	assert_true(c.owner.start == back.owner.start);
	assert_int_equal(c.timer_pid, getpid());
	assert_true(c.timer_start == back.timer_start);
	assert_int_equal(c.state, RC_CONFIRM_ROLLING_BACK);
	back.state = RC_CONFIRM_ROLLED_BACK;
	snprintf(back.reason, sizeof(back.reason), "timer");
	rc_confirm_describe(&back, c.deadline + 60, line, sizeof(line));
	assert_non_null(strstr(line, "rolled back (timer) at "));
	back.state = RC_CONFIRM_CONFIRMED;
	snprintf(back.by, sizeof(back.by), "alice");
	rc_confirm_describe(&back, c.deadline + 60, line, sizeof(line));
	assert_non_null(strstr(line, "confirmed at 2026-12-03T"));
	assert_non_null(strstr(line, " by alice"));

	/* the lock can be taken again once released */
	assert_int_equal(rc_confirm_lock(at(dir, c.run_id), &fd, &err), 0);
	close(fd);
	assert_int_equal(rc_confirm_lock(at(dir, c.run_id), &fd, &err), 0);
	close(fd);

	/* not ours: garbage, a state nobody wrote, a symlink, a run id with a slash */
	assert_int_equal(rc_test_write(dir, "bad.json", "{\"state\": \"pending\"}"), 0);
	assert_int_equal(rc_confirm_load(at(dir, "bad"), &back, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "not rocectl's"));
	assert_int_equal(rc_test_write(dir, "odd.json",
				       "{\"state\": \"maybe\", \"deadline\": 1, \"changed\": 1, "
				       "\"timer_pid\": 0, \"devices\": 1}"),
			 0);
	assert_int_equal(rc_confirm_load(at(dir, "odd"), &back, &err), -EINVAL);
	snprintf(line, sizeof(line), "%s/link.json", dir);
	assert_int_equal(symlink(path, line), 0);
	assert_true(rc_confirm_load(at(dir, "link"), &back, &err) < 0);
	assert_int_equal(rc_run_loc_legacy(dir, "../x", &l, &err), -EINVAL);
	assert_int_equal(rc_confirm_load(at(dir, "absent"), &back, &err), -ENOENT);
	*strrchr(dir, '/') = '\0';
	rm_tree(dir);
}

/* The exit status of a child that meets crash point `name` with ROCECTL_CRASH_AT=`at`. */
static int crash_child(const char *at, const char *name)
{
	int st = 0;
	pid_t pid = fork();

	if (pid == 0) {
		setenv("ROCECTL_CRASH_AT", at, 1);
		rc_crashpoint(name);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

/* Liveness by pid and start time; the crash points' names. */
static void test_owner_and_crashpoints(void **state)
{
	struct rc_txn_owner o;
	const char *const *names;
	size_t n;

	(void)state;
	rc_txn_owner_self(&o);
	assert_true(o.start > 0);
	assert_true(rc_txn_owner_alive(&o));
	o.start++; /* another process under the same pid */
	assert_false(rc_txn_owner_alive(&o));
	o.pid = 0;
	assert_false(rc_txn_owner_alive(&o));
	assert_true(rc_txn_proc_start(-1) == 0);
	rc_txn_owner_self(&o);
	snprintf(o.host, sizeof(o.host), "not-this-host.invalid");
	o.start++;
	assert_true(rc_txn_owner_remote(&o));
	assert_true(rc_txn_owner_alive(&o)); /* cannot be checked from here: not taken over */
	names = rc_crashpoint_names(&n);
	assert_true(n >= 15);
	for (size_t i = 0; i < n; i++)
		for (size_t k = i + 1; k < n; k++)
			assert_string_not_equal(names[i], names[k]);
	/* in a child each: the variable is read once per process */
	assert_int_equal(crash_child("a.b,dev.write.sent", "dev.write.sent"), 137);
	assert_int_equal(crash_child("timer.started,dev.snapped", "timer.started"), 137);
	assert_int_equal(crash_child("dev.write.sent", "dev.write"), 0); /* whole names only */
	assert_int_equal(crash_child("dev.write", "dev.write.sent"), 0);
	assert_int_equal(crash_child("", "dev.snapped"), 0);
}

/* Retention: a run that is over loses its state, one still pending (or whose rollback
 * failed) keeps it and its entries. */
static void test_forget(void **state)
{
	static const enum rc_confirm_state kept[] = {RC_CONFIRM_PENDING, RC_CONFIRM_ROLLING_BACK,
						     RC_CONFIRM_ROLLBACK_FAILED};
	struct rc_confirm c = {0};
	struct rc_err err = {0};
	char base[256], dir[300], path[400];
	int fd;

	(void)state;
	assert_non_null(rc_test_tmpdir(base, sizeof(base), "confirm-f"));
	snprintf(dir, sizeof(dir), "%s/confirm", base);
	snprintf(c.run_id, sizeof(c.run_id), "run-1");
	snprintf(c.command, sizeof(c.command), "apply");
	c.deadline = c.changed = 1796300000;
	c.n_devices = 1;
	snprintf(path, sizeof(path), "%s/run-1", dir);
	for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
		c.state = kept[i];
		assert_int_equal(rc_confirm_save(at(dir, c.run_id), &c, &err), 0);
		(void)mkdir(path, 0700);
		assert_int_equal(rc_test_write(path, "leaf01.json", "{}"), 0);
		assert_int_equal(rc_confirm_forget(at(dir, "run-1"), &err), -EBUSY);
		assert_non_null(strstr(err.msg, rc_confirm_state_name(kept[i])));
		assert_int_equal(access(path, F_OK), 0);
	}
	c.state = RC_CONFIRM_ROLLED_BACK;
	assert_int_equal(rc_confirm_save(at(dir, c.run_id), &c, &err), 0);
	assert_int_equal(rc_confirm_lock(at(dir, "run-1"), &fd, &err), 0);
	close(fd);
	assert_int_equal(rc_confirm_forget(at(dir, "run-1"), &err), 0);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof(path), "%s/run-1.json", dir);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof(path), "%s/run-1.lock", dir);
	assert_int_equal(access(path, F_OK), -1);
	/* confirmed, its entries already dropped: the state goes */
	c.state = RC_CONFIRM_CONFIRMED;
	assert_int_equal(rc_confirm_save(at(dir, c.run_id), &c, &err), 0);
	assert_int_equal(rc_confirm_forget(at(dir, "run-1"), &err), 0);
	assert_int_equal(rc_confirm_forget(at(dir, "run-1"), &err), -ENOENT);
	rm_tree(base);
}

/* A new run's record lives in its run directory (include/rocectl/run_dir.h), linked from
 * CONFIRM_DIR for tools of the older layout; an older run's record is still found where it
 * was; retention takes the record, its links and its entries, not the snapshots. */
static void test_run_dir(void **state)
{
	struct rc_confirm c = {0}, back;
	struct rc_run_loc l, old;
	struct rc_err err = {0};
	char base[256], journal[300], confirm[300], path[600], target[600];
	char **ids = NULL;
	size_t n = 0;
	struct stat st;
	ssize_t k;

	(void)state;
	assert_non_null(rc_test_tmpdir(base, sizeof(base), "confirm-r"));
	snprintf(journal, sizeof(journal), "%s/journal", base);
	snprintf(confirm, sizeof(confirm), "%s/confirm", base);
	snprintf(path, sizeof(path), "%s/state", base);
	setenv("ROCECTL_STATE_DIR", path, 1);
	assert_int_equal(rc_run_locate(journal, "run-new", &l, &err), 0);
	assert_false(l.legacy);
	snprintf(path, sizeof(path), "%s/state/runs/run-new/record.json", base);
	assert_string_equal(l.record, path);
	snprintf(path, sizeof(path), "%s/state/runs/run-new/journal", base);
	assert_string_equal(l.entries, path);
	/* no record yet: a lock makes nothing (a mistyped id leaves nothing behind) */
	assert_int_equal(rc_confirm_lock(&l, &(int){0}, &err), -ENOENT);
	assert_int_equal(access(l.dir, F_OK), -1);
	snprintf(c.run_id, sizeof(c.run_id), "run-new");
	snprintf(c.command, sizeof(c.command), "apply");
	c.deadline = c.changed = 1796300000;
	c.grace_s = 42;
	assert_int_equal(rc_confirm_save(&l, &c, &err), 0);
	assert_int_equal(stat(l.dir, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	assert_int_equal(stat(l.record, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(rc_confirm_load(&l, &back, &err), 0);
	assert_int_equal(back.grace_s, 42);
	/* the older layout's view: a link to the record, never read by rocectl */
	snprintf(path, sizeof(path), "%s/run-new.json", confirm);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	k = readlink(path, target, sizeof(target) - 1);
	assert_true(k > 0);
	target[k] = '\0';
	assert_non_null(strstr(target, "/runs/run-new/record.json"));
	/* located again: the run directory, not the link */
	assert_int_equal(rc_run_locate(journal, "run-new", &l, &err), 0);
	assert_false(l.legacy);

	/* a record of the older layout (a regular file in CONFIRM_DIR) is found there */
	snprintf(c.run_id, sizeof(c.run_id), "run-old");
	assert_int_equal(rc_run_loc_legacy(confirm, "run-old", &old, &err), 0);
	assert_int_equal(rc_confirm_save(&old, &c, &err), 0);
	assert_int_equal(rc_run_locate(journal, "run-old", &l, &err), 0);
	assert_true(l.legacy);
	snprintf(path, sizeof(path), "%s/run-old.json", confirm);
	assert_string_equal(l.record, path);
	assert_string_equal(l.entries, confirm);
	/* both listed, each once */
	assert_int_equal(rc_run_list_records(journal, &ids, &n), 0);
	assert_int_equal(n, 2);
	rc_run_ids_free(ids, n);
	/* ids are checked whole, never cut to fit */
	memset(target, '7', 200);
	target[200] = '\0';
	assert_int_equal(rc_run_locate(journal, target, &l, &err), -EINVAL);
	assert_int_equal(rc_run_locate(journal, "../x", &l, &err), -EINVAL);

	/* retention of the new run: record, lock, entries and links go, snapshots stay */
	assert_int_equal(rc_run_locate(journal, "run-new", &l, &err), 0);
	snprintf(c.run_id, sizeof(c.run_id), "run-new");
	c.state = RC_CONFIRM_ROLLED_BACK;
	assert_int_equal(rc_confirm_save(&l, &c, &err), 0);
	snprintf(path, sizeof(path), "%s/run-new", l.entries);
	assert_int_equal(mkdir(l.entries, 0700), 0);
	assert_int_equal(mkdir(path, 0700), 0);
	assert_int_equal(rc_test_write(path, "leaf01.json", "{}"), 0);
	assert_int_equal(rc_test_write(l.dir, "leaf01.snap", "{}"), 0);
	assert_int_equal(rc_confirm_forget(&l, &err), 0);
	assert_int_equal(access(l.record, F_OK), -1);
	assert_int_equal(access(l.entries, F_OK), -1);
	snprintf(path, sizeof(path), "%s/run-new.json", confirm);
	assert_int_equal(lstat(path, &st), -1);
	snprintf(path, sizeof(path), "%s/leaf01.snap", l.dir);
	assert_int_equal(access(path, F_OK), 0);
	unsetenv("ROCECTL_STATE_DIR");
	rm_tree(base);
}

/* An owner alive but hung: nothing of the run moved for its grace past the deadline. */
static void test_hung(void **state)
{
	struct rc_confirm c = {0};

	(void)state;
	snprintf(c.run_id, sizeof(c.run_id), "run-1");
	c.state = RC_CONFIRM_ROLLING_BACK;
	rc_txn_owner_self(&c.owner); /* alive */
	c.deadline = 1000;
	c.activity = 1000;
	c.grace_s = 30;
	assert_false(rc_confirm_hung(&c, 1030)); /* within its grace */
	assert_true(rc_confirm_hung(&c, 1031));
	c.activity = 2000; /* it moved: the grace counts from there */
	assert_false(rc_confirm_hung(&c, 2030));
	assert_true(rc_confirm_hung(&c, 2031));
	c.grace_s = 0; /* a record without one: the least grace */
	assert_true(rc_confirm_hung(&c, 2000 + RC_CONFIRM_GRACE_MIN_S + 1));
	assert_false(rc_confirm_hung(&c, 2000 + RC_CONFIRM_GRACE_MIN_S));
	c.owner.start += 1; /* dead (its pid reused): orphaned, not hung */
	assert_false(rc_confirm_hung(&c, 5000));
	assert_true(rc_confirm_orphaned(&c, 5000));
	rc_txn_owner_self(&c.owner);
	snprintf(c.owner.host, sizeof(c.owner.host), "elsewhere.invalid"); /* not ours to stop */
	assert_false(rc_confirm_hung(&c, 5000));
	/* pending: the timer should have fired; alive and past the grace, it is hung */
	c.state = RC_CONFIRM_PENDING;
	c.timer_pid = getpid();
	c.timer_start = rc_txn_proc_start(getpid());
	assert_true(rc_confirm_hung(&c, 5000));
	c.state = RC_CONFIRM_CONFIRMED; /* over: nothing hangs */
	assert_false(rc_confirm_hung(&c, 5000));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_duration_forms), cmocka_unit_test(test_duration_refused),
	    cmocka_unit_test(test_state_machine),  cmocka_unit_test(test_dir),
	    cmocka_unit_test(test_state_file),	   cmocka_unit_test(test_owner_and_crashpoints),
	    cmocka_unit_test(test_forget),	   cmocka_unit_test(test_run_dir),
	    cmocka_unit_test(test_hung),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
