/* SPDX-License-Identifier: Apache-2.0 */
/* The snapshots a run keeps for `rollback RUN` (engine/run/run_snap.c): where they live,
 * kept once, refused when someone else could have written them, into the journal. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "rocectl/journal.h"
#include "rocectl/run_snap.h"

static char root[64];

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/rocectl-runsnap.XXXXXX");
	if (!mkdtemp(root))
		return -1;
	setenv("ROCECTL_STATE_DIR", root, 1);
	setenv("ROCECTL_HISTORY", "/nonexistent/history", 1); /* no record: all devices */
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

static void keep(const char *run, const char *device, uint8_t prio, const char *native)
{
	struct rc_port_state p;
	struct rc_device dev;
	struct rc_err err = {0};

	memset(&p, 0, sizeof(p));
	memset(&dev, 0, sizeof(dev));
	snprintf(p.name, sizeof(p.name), "swp1");
	p.qos.known = RC_F_DSCP2PRIO;
	p.qos.dscp_mask = 1ull << 26;
	p.qos.dscp2prio[26] = prio;
	snprintf(dev.name, sizeof(dev.name), "%s", device);
	snprintf(dev.address, sizeof(dev.address), "127.1.0.1");
	assert_int_equal(rc_run_snap_keep(run, &dev, "nvue-ssh", &p, 1, native, &err), 0);
}

static void test_dir(void **state)
{
	struct rc_err err = {0};
	char buf[256], want[256];

	(void)state;
	assert_int_equal(rc_run_snap_dir("20261205T000000.000Z-1", buf, sizeof(buf), &err), 0);
	snprintf(want, sizeof(want), "%s/runs/20261205T000000.000Z-1", root);
	assert_string_equal(buf, want);
	assert_int_equal(rc_run_snap_dir("../x", buf, sizeof(buf), &err), -EINVAL);
	assert_int_equal(rc_run_snap_dir(".hidden", buf, sizeof(buf), &err), -EINVAL);
}

/* the first snapshot of a device in a run is the one before its first write */
static void test_kept_once(void **state)
{
	struct rc_journal_entry *e = NULL;
	struct rc_err err = {0};
	size_t n = 0;

	(void)state;
	keep("r1", "leaf01", 3, "{\"native\": 1}");
	keep("r1", "leaf01", 5, NULL);
	keep("r1", "rack1/leaf02", 4, NULL);
	assert_int_equal(rc_run_snap_list("r1", &e, &n, &err), 0);
	assert_int_equal(n, 2);
	for (size_t i = 0; i < n; i++) {
		assert_string_equal(e[i].bad, "");
		if (!strcmp(e[i].device, "leaf01")) {
			assert_int_equal(e[i].ports[0].qos.dscp2prio[26], 3);
			assert_string_equal(e[i].native, "{\"native\": 1}");
		} else {
			assert_string_equal(e[i].device, "rack1/leaf02");
			assert_null(e[i].native);
		}
	}
	rc_journal_entries_free(e, n);
	/* a run that kept nothing */
	assert_int_equal(rc_run_snap_list("r0", &e, &n, &err), 0);
	assert_int_equal(n, 0);
}

/* a file anyone could have written is not used; a symlink neither */
static void test_refused(void **state)
{
	struct rc_journal_entry *e = NULL;
	struct rc_err err = {0};
	char path[256], link[256];
	size_t n = 0;

	(void)state;
	keep("r2", "leaf01", 3, NULL);
	snprintf(path, sizeof(path), "%s/runs/r2/leaf01.snap", root);
	assert_int_equal(chmod(path, 0666), 0);
	snprintf(link, sizeof(link), "%s/runs/r2/leaf03.snap", root);
	assert_int_equal(symlink(path, link), 0);
	assert_int_equal(rc_run_snap_list("r2", &e, &n, &err), 0);
	assert_int_equal(n, 2);
	for (size_t i = 0; i < n; i++)
		assert_non_null(strstr(e[i].bad, !strcmp(e[i].device, "leaf01")
						     ? "writable by group or others"
						     : "a symbolic link"));
	rc_journal_entries_free(e, n);
}

/* no record: every kept device into the journal, a device journaled already left to it */
static void test_to_journal(void **state)
{
	struct rc_journal_entry *e = NULL;
	struct rc_err err = {0};
	char journal[128];
	struct rc_run_undo u;
	size_t n = 0;

	(void)state;
	keep("r3", "leaf01", 3, NULL);
	keep("r3", "leaf02", 4, NULL);
	snprintf(journal, sizeof(journal), "%s/journal", root);
	assert_int_equal(mkdir(journal, 0700), 0);
	assert_int_equal(rc_run_undo_to_journal("r3", journal, &u, &err), 0);
	assert_int_equal(u.n_saved, 2);
	assert_int_equal(u.by_value, 0);
	assert_false(u.finished);
	assert_int_equal(rc_run_undo_to_journal("r3", journal, &u, &err), 0);
	assert_int_equal(u.n_saved, 0);
	assert_int_equal(rc_journal_list(journal, "r3", &e, &n, &err), 0);
	assert_int_equal(n, 2);
	rc_journal_entries_free(e, n);
	assert_int_equal(rc_run_undo_to_journal("r9", journal, &u, &err), -ENOENT);
	/* retention */
	assert_int_equal(rc_run_snap_forget("r3", &err), 0);
	assert_int_equal(rc_run_snap_list("r3", &e, &n, &err), 0);
	assert_int_equal(n, 0);
}

/* an interrupted run: leaf01 left in the journal, leaf02 verified; both come back, and the
 * listing says which came from the kept snapshots */
static void test_relist(void **state)
{
	struct rc_journal_entry *e = NULL;
	struct rc_run_undo u;
	struct rc_err err = {0};
	struct rc_device dev;
	struct rc_port_state p;
	char journal[128];
	bool *from_snap = NULL;
	size_t n = 0;

	(void)state;
	keep("r4", "leaf01", 3, NULL);
	keep("r4", "leaf02", 4, NULL);
	snprintf(journal, sizeof(journal), "%s/journal4", root);
	memset(&dev, 0, sizeof(dev));
	memset(&p, 0, sizeof(p));
	snprintf(dev.name, sizeof(dev.name), "leaf01");
	snprintf(p.name, sizeof(p.name), "swp1");
	assert_int_equal(mkdir(journal, 0700), 0);
	assert_int_equal(rc_journal_save(journal, "r4", &dev, "nvue-ssh", &p, 1, &err), 0);
	assert_int_equal(rc_journal_list(journal, "r4", &e, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(rc_run_undo_to_journal("r4", journal, &u, &err), 0);
	assert_int_equal(u.n_saved, 1);
	assert_int_equal(rc_run_undo_relist("r4", journal, &e, &n, &from_snap, &err), 0);
	assert_int_equal(n, 2);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(from_snap[i], !strcmp(e[i].device, "leaf02"));
	free(from_snap);
	rc_journal_entries_free(e, n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_dir),	    cmocka_unit_test(test_kept_once),
	    cmocka_unit_test(test_refused), cmocka_unit_test(test_to_journal),
	    cmocka_unit_test(test_relist),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
