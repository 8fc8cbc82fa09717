/* SPDX-License-Identifier: Apache-2.0 */
/* Per-device run locks (engine/run/lock.c): one lock file per device in a machine-wide
 * directory, whatever journal each run uses; a second run touching a locked device is
 * refused with the holder's pid, host and start; a run killed while holding its locks
 * leaves them free (flock) and is reported with what to do. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "rocectl/lock.h"
#include "testutil.h"

static char dir[256];

static int setup(void **state)
{
	(void)state;
	return rc_test_tmpdir(dir, sizeof(dir), "lock") ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_second_run_on_a_device_is_refused(void **state)
{
	const char *const a[] = {"leaf01", "gpu001"}, *const b[] = {"spine01", "gpu001"};
	const char *const c[] = {"spine01"};
	struct rc_locks first, second;
	struct rc_warnings warn = {0};
	struct rc_err err = {0};
	char want[64], path[300];
	struct stat st;

	(void)state;
	assert_int_equal(rc_lock_devices(dir, a, 2, "apply", &first, &warn, &err), 0);
	assert_int_equal(first.n, 2);
	assert_int_equal(rc_lock_devices(dir, b, 2, "rollback", &second, &warn, &err), -EBUSY);
	assert_non_null(strstr(err.msg, "'gpu001' is locked by another rocectl run"));
	snprintf(want, sizeof(want), "'apply', pid %d on host ", (int)getpid());
	assert_non_null(strstr(err.msg, want));
	assert_non_null(strstr(err.msg, ", started 20"));
	assert_non_null(strstr(err.msg, "nothing was changed"));
	assert_int_equal(second.n, 0);
	/* all or none: spine01, taken before gpu001 was refused, was given back */
	assert_int_equal(rc_lock_devices(dir, c, 1, "apply", &second, &warn, &err), 0);
	rc_locks_release(&second);
	rc_locks_release(&first);
	assert_int_equal(rc_lock_devices(dir, b, 2, "rollback", &second, &warn, &err), 0);
	rc_locks_release(&second);
	assert_int_equal(warn.n, 0);
	snprintf(path, sizeof(path), "%s/gpu001.lock", dir);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 077, 0);
	assert_int_equal(st.st_size, 0); /* released: emptied */
}

/* A run killed while holding its lock: the lock is free at once; the next run is told. */
static void test_lock_of_a_killed_run_is_reported(void **state)
{
	const char *const a[] = {"rack1/leaf01"};
	struct rc_locks l;
	struct rc_warnings warn = {0};
	struct rc_err err = {0};
	char want[64];
	pid_t child;
	int status;

	(void)state;
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		struct rc_locks held;

		_exit(rc_lock_devices(dir, a, 1, "apply", &held, NULL, &err) ? 1 : 0);
	}
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(rc_lock_devices(dir, a, 1, "rollback", &l, &warn, &err), 0);
	assert_int_equal(warn.n, 1);
	snprintf(want, sizeof(want), "pid %d", (int)child);
	assert_non_null(strstr(warn.w[0].msg, want));
	assert_non_null(strstr(warn.w[0].msg, "'rack1/leaf01': the run 'apply'"));
	assert_non_null(strstr(warn.w[0].msg, "ended without releasing its lock"));
	assert_non_null(strstr(warn.w[0].msg, "rocectl rollback"));
	rc_locks_release(&l);
}

static void test_hostile_names_and_files(void **state)
{
	const char *const bad[] = {"../x"}, *const ok[] = {"leaf01"};
	struct rc_locks l;
	struct rc_err err = {0};
	char path[300], junk[300];
	FILE *f;

	(void)state;
	assert_int_equal(rc_lock_devices(dir, bad, 1, "apply", &l, NULL, &err), -EINVAL);
	/* a lock file that is a symlink is not followed */
	snprintf(path, sizeof(path), "%s/leaf01.lock", dir);
	snprintf(junk, sizeof(junk), "%s/elsewhere", dir);
	assert_int_equal(symlink(junk, path), 0);
	assert_true(rc_lock_devices(dir, ok, 1, "apply", &l, NULL, &err) < 0);
	assert_int_not_equal(access(junk, F_OK), 0);
	assert_int_equal(unlink(path), 0);
	/* garbage in a lock file is not echoed raw */
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("pid 99999999999\nhost \033[2Jevil\n", f);
	fclose(f);
	assert_int_equal(rc_lock_devices(dir, ok, 1, "apply", &l, NULL, &err), 0);
	rc_locks_release(&l);
}

/* A lock directory someone else owns lets them block every run or forge a holder record;
 * a lock file someone else can write, likewise.  Both refused (the tests run as root, so a
 * file of uid 65534 is "another user"); a directory of ours left 0755 is narrowed to 0700. */
static void test_foreign_lock_dir_and_files_are_refused(void **state)
{
	const char *const a[] = {"leaf01"};
	struct rc_locks l;
	struct rc_err err = {0};
	char sub[300], file[340];
	struct stat st;

	(void)state;
	snprintf(sub, sizeof(sub), "%s/foreign", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	if (geteuid() != 0) { /* chown needs root; the lab and CI run as root */
		skip();
		return;
	}
	assert_int_equal(chown(sub, 65534, 65534), 0);
	assert_int_equal(rc_lock_devices(sub, a, 1, "apply", &l, NULL, &err), -EPERM);
	assert_non_null(strstr(err.msg, "not by us"));
	assert_int_equal(chown(sub, 0, 0), 0);
	assert_int_equal(chmod(sub, 0755), 0);
	assert_int_equal(rc_lock_devices(sub, a, 1, "apply", &l, NULL, &err), 0);
	rc_locks_release(&l);
	assert_int_equal(stat(sub, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0700);
	snprintf(file, sizeof(file), "%s/leaf01.lock", sub);
	assert_int_equal(chmod(file, 0666), 0);
	assert_int_equal(rc_lock_devices(sub, a, 1, "apply", &l, NULL, &err), -EPERM);
	assert_non_null(strstr(err.msg, "writable by group or others"));
	assert_int_equal(chmod(file, 0600), 0);
	assert_int_equal(chown(file, 65534, 65534), 0);
	assert_int_equal(rc_lock_devices(sub, a, 1, "apply", &l, NULL, &err), -EPERM);
	assert_int_equal(unlink(file), 0);
	/* a symlink in place of the directory is not followed */
	snprintf(file, sizeof(file), "%s/link", dir);
	assert_int_equal(symlink(sub, file), 0);
	assert_int_equal(rc_lock_devices(file, a, 1, "apply", &l, NULL, &err), -ENOTDIR);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_second_run_on_a_device_is_refused, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_lock_of_a_killed_run_is_reported, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_hostile_names_and_files, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_foreign_lock_dir_and_files_are_refused, setup,
					    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
