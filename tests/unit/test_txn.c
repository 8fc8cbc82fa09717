/* SPDX-License-Identifier: Apache-2.0 */
/* The run transaction's API (include/rocectl/txn.h) as the CLI calls it: options in, a
 * result out, every line through the caller's printer.  No device is reached: an empty
 * journal, a corrupt entry, a run nobody made, a run id too long to be one. */
#include <errno.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "rocectl/journal.h"
#include "rocectl/run_dir.h"
#include "rocectl/txn.h"
#include "testutil.h"

/* What the engine said, one "KIND CMD: TEXT" line each. */
struct said {
	char text[8192];
	size_t len;
};

static void collect(void *ctx, enum rc_txn_say_kind kind, const char *cmd, const char *text)
{
	static const char *const kinds[] = {"NOTE", "ERROR", "WARN", "RAW"};
	struct said *s = ctx;
	int n = snprintf(s->text + s->len, sizeof(s->text) - s->len, "%s %s: %s\n", kinds[kind],
			 cmd, text);

	if (n > 0 && (size_t)n < sizeof(s->text) - s->len)
		s->len += (size_t)n;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static char base[256], journal[300];

static int setup(void **state)
{
	char path[400];

	(void)state;
	if (!rc_test_tmpdir(base, sizeof(base), "txn"))
		return -1;
	snprintf(journal, sizeof(journal), "%s/journal", base);
	snprintf(path, sizeof(path), "%s/history", base);
	setenv("ROCECTL_HISTORY", path, 1);
	snprintf(path, sizeof(path), "%s/locks", base);
	setenv("ROCECTL_LOCK_DIR", path, 1);
	return mkdir(journal, 0700);
}

static int teardown(void **state)
{
	(void)state;
	nftw(base, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}

static void test_rollback_nothing(void **state)
{
	struct said s = {0};
	struct rc_txn_say say = {collect, &s};
	struct rc_txn_rollback_opts o = {.journal = journal};
	struct rc_txn_rollback r;

	(void)state;
	assert_int_equal(rc_txn_rollback(&o, &r, &say), RC_EXIT_OK);
	assert_int_equal(r.exit_code, RC_EXIT_OK);
	assert_string_equal(r.source, "none");
	assert_false(r.early);
	assert_int_equal(r.n_jobs, 0);
	assert_non_null(strstr(s.text, "NOTE rollback: nothing to roll back in '"));
	rc_txn_rollback_fini(&r);
}

/* A run nobody made is an error, said and kept for the document; a corrupt entry of a run
 * is reported and the file left. */
static void test_rollback_refusals(void **state)
{
	struct said s = {0};
	struct rc_txn_say say = {collect, &s};
	struct rc_txn_rollback_opts o = {.journal = journal, .run = "20261205T000000.000Z-1"};
	struct rc_txn_rollback r;
	char run[400];

	(void)state;
	assert_int_equal(rc_txn_rollback(&o, &r, &say), RC_EXIT_ERROR);
	assert_true(r.early);
	assert_non_null(strstr(r.error, "no run '20261205T000000.000Z-1'"));
	assert_non_null(strstr(s.text, "ERROR rollback: no run '20261205T000000.000Z-1'"));
	rc_txn_rollback_fini(&r);

	s.len = 0;
	s.text[0] = '\0';
	snprintf(run, sizeof(run), "%s/20261205T000000.000Z-2", journal);
	assert_int_equal(mkdir(run, 0700), 0);
	assert_int_equal(rc_test_write(run, "leaf01.json", "{\"run_id\": "), 0);
	o.run = NULL;
	assert_int_equal(rc_txn_rollback(&o, &r, &say), RC_EXIT_ERROR);
	assert_false(r.early);
	assert_int_equal(r.n, 1);
	assert_true(r.e[0].bad[0] != '\0');
	assert_int_equal(r.n_jobs, 0);
	assert_non_null(strstr(s.text, "NOTE rollback: journal '"));
	assert_non_null(strstr(s.text, "ERROR rollback: 'leaf01' (run 20261205T000000.000Z-2) "
				       "cannot be restored"));
	rc_txn_rollback_fini(&r);
	assert_int_equal(access(run, F_OK), 0); /* left for a person to see */
}

static void test_confirm_refusals(void **state)
{
	struct said s = {0};
	struct rc_txn_say say = {collect, &s};
	struct rc_txn_confirm_opts o = {.journal = journal, .run = "20261205T000000.000Z-3"};
	struct rc_txn_confirmed r;
	struct rc_err err = {0};
	char long_id[201], dir[4096];

	(void)state;
	assert_int_equal(rc_txn_confirm(&o, &r, &say), RC_EXIT_ERROR);
	assert_string_equal(r.status, "not-pending");
	assert_null(r.state);
	assert_non_null(strstr(r.error, "has nothing waiting for a confirm"));
	/* a mistyped id leaves nothing behind */
	assert_int_equal(rc_run_dir(o.run, dir, sizeof(dir), &err), 0);
	assert_non_null(strstr(dir, "/runs/20261205T000000.000Z-3"));
	assert_int_equal(access(dir, F_OK), -1);
	/* checked whole, never cut to fit and looked up */
	memset(long_id, '7', 200);
	long_id[200] = '\0';
	o.run = long_id;
	assert_int_equal(rc_txn_confirm(&o, &r, &say), RC_EXIT_ERROR);
	assert_string_equal(r.status, "error");
	assert_non_null(strstr(r.error, "is not a run id"));
	assert_non_null(strstr(r.run_id, "..."));
}

/* A run id as rc_txn_new_run_id writes it, for `pid` at `when`. */
static void run_id_at(char *buf, size_t len, time_t when, pid_t pid)
{
	struct tm tm;

	gmtime_r(&when, &tm);
	snprintf(buf, len, "%04d%02d%02dT%02d%02d%02d.000Z-%d", tm.tm_year + 1900, tm.tm_mon + 1,
		 tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (int)pid);
}

static bool listed(const struct rc_run_open *v, size_t n, const char *id, size_t entries)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].run_id, id))
			return v[i].journal_entries == entries;
	return false;
}

/* A plain run (no record) killed while it wrote is listed from its journal entries, so
 * that `history` shows it needs recovery; a run whose process lives is not, and a pid
 * reused by a process that started after the run named itself is not that run's. */
static void test_killed_plain_run_listed(void **state)
{
	struct rc_device a = {.name = "leaf01", .address = "192.0.2.1"};
	struct rc_device b = {.name = "leaf02", .address = "192.0.2.2"};
	struct rc_port_state port = {.name = "swp1"};
	struct rc_run_open *v = NULL;
	struct rc_err err = {0};
	char dead[64], live[64], reused[64], recorded[64];
	char *known[] = {recorded};
	pid_t child, sleeper;
	size_t n = 0;

	(void)state;
	child = fork();
	assert_true(child >= 0);
	if (child == 0)
		_exit(0);
	assert_int_equal(waitpid(child, NULL, 0), child);
	sleeper = fork();
	assert_true(sleeper >= 0);
	if (sleeper == 0) {
		pause();
		_exit(0);
	}
	run_id_at(dead, sizeof(dead), time(NULL), child);
	run_id_at(live, sizeof(live), time(NULL) + 5, sleeper);	       /* named after it started */
	run_id_at(reused, sizeof(reused), time(NULL) - 3600, sleeper); /* before it started */
	run_id_at(recorded, sizeof(recorded), time(NULL) - 60, child);
	assert_int_equal(rc_journal_save(journal, dead, &a, "nvue-ssh", &port, 1, &err), 0);
	assert_int_equal(rc_journal_save(journal, dead, &b, "nvue-ssh", &port, 1, &err), 0);
	assert_int_equal(rc_journal_save(journal, live, &a, "nvue-ssh", &port, 1, &err), 0);
	assert_int_equal(rc_journal_save(journal, reused, &b, "nvue-ssh", &port, 1, &err), 0);
	assert_int_equal(rc_journal_save(journal, recorded, &b, "nvue-ssh", &port, 1, &err), 0);

	assert_false(rc_txn_run_id_alive(dead));
	assert_true(rc_txn_run_id_alive(live));
	assert_false(rc_txn_run_id_alive(reused));
	assert_int_equal(rc_run_list_open(journal, known, 1, &v, &n), 0);
	kill(sleeper, SIGKILL);
	waitpid(sleeper, NULL, 0);
	assert_true(listed(v, n, dead, 2));
	assert_true(listed(v, n, reused, 1));
	assert_false(listed(v, n, live, 1));
	assert_false(listed(v, n, recorded, 1)); /* its history record says how it ended */
	assert_int_equal(n, 2);
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_rollback_nothing, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_rollback_refusals, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_confirm_refusals, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_killed_plain_run_listed, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
