/* SPDX-License-Identifier: Apache-2.0 */
/* The shared helpers of engine/util/: the atomic file replacement used by the journal,
 * saved plans and `verify -o`. */
#include <dirent.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "rocectl/plan_file.h"
#include "rocectl/fleet.h"
#include "rocectl/util.h"
#include "testutil.h"

static size_t count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static void remove_dir(const char *dir)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_write_replaces_the_file(void **unused)
{
	char dir[256], path[300];
	struct rc_err err = {0};
	char *got;

	(void)unused;
	assert_non_null(rc_test_tmpdir(dir, sizeof(dir), "util"));
	snprintf(path, sizeof(path), "%s/report.txt", dir);
	assert_int_equal(rc_test_write(dir, "report.txt", "old"), 0);
	assert_int_equal(rc_write_atomic(path, "new text\n", 9, 0644, "report", &err), 0);
	got = rc_test_slurp_file(path, NULL);
	assert_non_null(got);
	assert_string_equal(got, "new text\n");
	free(got);
	assert_int_equal(count_entries(dir), 1); /* no temporary file left */
	remove_dir(dir);
}

/* The caller's mode wins over the umask: a systemd unit's UMask=0077 must not make the
 * Prometheus textfile unreadable to node_exporter, nor a permissive umask open a journal. */
static void test_write_mode_ignores_umask(void **unused)
{
	char dir[256], path[300];
	struct rc_err err = {0};
	struct stat st;
	mode_t old;

	(void)unused;
	assert_non_null(rc_test_tmpdir(dir, sizeof(dir), "util"));
	snprintf(path, sizeof(path), "%s/metrics.prom", dir);
	old = umask(0077);
	assert_int_equal(rc_write_atomic(path, "m 1\n", 4, 0644, "metrics", &err), 0);
	umask(0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	assert_int_equal(rc_write_atomic(path, "m 2\n", 4, 0600, "metrics", &err), 0);
	umask(old);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	remove_dir(dir);
}

static void test_failed_write_leaves_the_old_file(void **unused)
{
	char dir[256], path[300];
	struct rc_err err = {0};
	char *got;

	(void)unused;
	assert_non_null(rc_test_tmpdir(dir, sizeof(dir), "util"));
	snprintf(path, sizeof(path), "%s/missing-dir/report.txt", dir);
	assert_true(rc_write_atomic(path, "x", 1, 0644, "report", &err) < 0);
	assert_non_null(strstr(err.msg, "cannot write report"));
	snprintf(path, sizeof(path), "%s/report.txt", dir);
	assert_int_equal(rc_test_write(dir, "report.txt", "old"), 0);
	chmod(dir, 0500);
	if (access(dir, W_OK) == 0) { /* root ignores the mode: nothing to check here */
		chmod(dir, 0700);
		remove_dir(dir);
		return;
	}
	assert_true(rc_write_atomic(path, "new", 3, 0644, "report", &err) < 0);
	chmod(dir, 0700);
	got = rc_test_slurp_file(path, NULL);
	assert_string_equal(got, "old");
	free(got);
	remove_dir(dir);
}

static size_t open_fds(void)
{
	return count_entries("/proc/self/fd");
}

/* A write cut short (here by RLIMIT_FSIZE, as a full disk would) must neither leave a
 * descriptor open nor a temporary file behind, and must not create the plan. */
static void test_short_write_of_a_plan_leaks_nothing(void **unused)
{
	struct rlimit old, small = {.rlim_cur = 16, .rlim_max = RLIM_INFINITY};
	char dir[256], path[300], policy[4096], inventory[4096];
	struct rc_fleet f = {0};
	struct rc_err err = {0};
	size_t before;
	int rc;

	(void)unused;
	assert_non_null(rc_test_tmpdir(dir, sizeof(dir), "util"));
	snprintf(path, sizeof(path), "%s/plan.json", dir);
	rc_test_path(policy, sizeof(policy), "policies/roce-lossless.yaml");
	rc_test_path(inventory, sizeof(inventory), "examples/inventory.yaml");
	signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	small.rlim_max = old.rlim_max;
	before = open_fds();
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
	rc = rc_plan_save(path, policy, inventory, &f, &err);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	assert_true(rc < 0);
	assert_non_null(strstr(err.msg, "cannot write plan"));
	assert_int_equal(open_fds(), before);
	assert_int_equal(count_entries(dir), 0);
	remove_dir(dir);
}

static void test_numbers_are_digits_only(void **unused)
{
	static const char *const bad[] = {"", " 5", "5 ", "+5", "-1", "5x", "0x10", "1e3", NULL};
	uint64_t v = 7;

	(void)unused;
	for (int i = 0; bad[i]; i++)
		assert_int_equal(rc_parse_u64(bad[i], 10, 0, UINT64_MAX, &v), -EINVAL);
	assert_int_equal(rc_parse_u64(NULL, 10, 0, 10, &v), -EINVAL);
	assert_int_equal(v, 7); /* untouched on failure */
	assert_int_equal(rc_parse_u64("1024", 10, 1, 1024, &v), 0);
	assert_int_equal(v, 1024);
	assert_int_equal(rc_parse_u64("1025", 10, 1, 1024, &v), -ERANGE);
	assert_int_equal(rc_parse_u64("0", 10, 1, 1024, &v), -ERANGE);
	assert_int_equal(rc_parse_u64("99999999999999999999", 10, 0, UINT64_MAX, &v), -ERANGE);
	assert_int_equal(rc_parse_u64("ffffffffffffffff", 16, 0, UINT64_MAX, &v), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(rc_parse_u64("-00000000000000f", 16, 0, UINT64_MAX, &v), -EINVAL);
	assert_int_equal(rc_parse_u64("12", 8, 0, 100, &v), -EINVAL);
}

/* The one growth rule: doubling from the first size, nothing moved when there is room,
 * overflow refused with the array untouched. */
static void test_array_reserve(void **unused)
{
	int *v = NULL;
	size_t cap = 0;

	(void)unused;
	assert_int_equal(rc_array_reserve((void **)&v, &cap, 1, sizeof(*v), 4), 0);
	assert_int_equal(cap, 4);
	for (int i = 0; i < 4; i++)
		v[i] = i;
	assert_int_equal(rc_array_reserve((void **)&v, &cap, 4, sizeof(*v), 4), 0);
	assert_int_equal(cap, 4);
	assert_int_equal(rc_array_reserve((void **)&v, &cap, 9, sizeof(*v), 4), 0);
	assert_int_equal(cap, 16);
	assert_int_equal(v[3], 3);
	assert_int_equal(rc_array_reserve((void **)&v, &cap, SIZE_MAX / 2, sizeof(*v), 4), -ENOMEM);
	assert_int_equal(cap, 16);
	assert_int_equal(v[2], 2);
	assert_int_equal(rc_array_reserve((void **)&v, &cap, 17, 0, 4), -EINVAL);
	free(v);
}

/* Device text becomes one printable line: controls and non-ASCII folded into one space,
 * cut to fit, never unterminated. */
static void test_clean_text(void **unused)
{
	char out[16];
	const char in[] = "  Error:\x1b[31m bad\r\n\tvalue\xff  ";

	(void)unused;
	rc_clean_text(in, sizeof(in) - 1, out, sizeof(out));
	assert_string_equal(out, "Error: [31m bad");
	rc_clean_text("abc", 3, out, 2);
	assert_string_equal(out, "a");
	rc_clean_text(NULL, 5, out, sizeof(out));
	assert_string_equal(out, "");
}

/* Equal strings share one copy, distinct ones do not, and every copy survives the
 * table's growth (the inventory's devices keep pointers into it). */
static void test_strpool_interns(void **unused)
{
	struct rc_strpool *p = rc_strpool_new();
	const char *first[3000];
	char buf[64];

	(void)unused;
	assert_non_null(p);
	assert_null(rc_strpool_intern(p, NULL));
	for (int i = 0; i < 3000; i++) {
		snprintf(buf, sizeof(buf), "/etc/rocectl/key-%d", i);
		first[i] = rc_strpool_intern(p, buf);
		assert_non_null(first[i]);
		assert_string_equal(first[i], buf);
	}
	for (int i = 0; i < 3000; i++) {
		snprintf(buf, sizeof(buf), "/etc/rocectl/key-%d", i);
		assert_ptr_equal(rc_strpool_intern(p, buf), first[i]);
	}
	assert_ptr_not_equal(first[0], first[1]);
	assert_string_equal(rc_strpool_intern(p, ""), "");
	rc_strpool_free(p);
	rc_strpool_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_numbers_are_digits_only),
	    cmocka_unit_test(test_array_reserve),
	    cmocka_unit_test(test_clean_text),
	    cmocka_unit_test(test_strpool_interns),
	    cmocka_unit_test(test_write_replaces_the_file),
	    cmocka_unit_test(test_write_mode_ignores_umask),
	    cmocka_unit_test(test_failed_write_leaves_the_old_file),
	    cmocka_unit_test(test_short_write_of_a_plan_leaks_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
