/* SPDX-License-Identifier: Apache-2.0 */
/* The worker pool's progress when stderr is not a terminal (engine/run/fleet.c): a line every
 * ROCECTL_PROGRESS_INTERVAL with the devices done, failed and the slowest so far, naming one
 * that is still being worked on when it has taken longest; none when the interval is 0 or
 * progress is off.  stderr is a file here, so the pool takes it for a timer's journal. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "rocectl/fleet.h"
#include "rocectl/report.h"

/* Item i sleeps ms[i] milliseconds; odd items fail. */
struct job {
	const unsigned *ms;
};

static int work(void *ctx, size_t i)
{
	const struct job *j = ctx;
	struct timespec t = {.tv_sec = j->ms[i] / 1000,
			     .tv_nsec = (long)(j->ms[i] % 1000) * 1000000L};

	nanosleep(&t, NULL);
	return (int)(i % 2);
}

static const char *name(void *ctx, size_t i)
{
	static const char *const names[] = {"leaf07", "gpu0001", "gpu0002", "gpu0003"};

	(void)ctx;
	return i < 4 ? names[i] : "?";
}

/* What the pool wrote on stderr while running n items. */
static char *run(const char *interval, bool show, unsigned parallel, const unsigned *ms, size_t n,
		 size_t *failed)
{
	char path[] = "/tmp/rocectl-progress-XXXXXX";
	int fd = mkstemp(path), saved;
	struct job j = {.ms = ms};
	FILE *f;
	char *text = calloc(1, 8192);

	assert_true(fd >= 0);
	assert_non_null(text);
	if (interval)
		setenv("ROCECTL_PROGRESS_INTERVAL", interval, 1);
	else
		unsetenv("ROCECTL_PROGRESS_INTERVAL");
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	assert_true(saved >= 0);
	assert_true(dup2(fd, STDERR_FILENO) >= 0);
	*failed = rc_pool_run_named(parallel, show, n, work, name, &j);
	fflush(stderr);
	assert_true(dup2(saved, STDERR_FILENO) >= 0);
	close(saved);
	f = fdopen(fd, "r");
	assert_non_null(f);
	rewind(f);
	text[fread(text, 1, 8191, f)] = '\0';
	fclose(f);
	unlink(path);
	return text;
}

static void test_lines_name_the_slowest_still_running(void **state)
{
	static const unsigned ms[] = {900, 10, 10, 10};
	size_t failed;
	char *out = run("200ms", true, 4, ms, 4, &failed);

	(void)state;
	assert_int_equal(failed, 2);
	if (!strstr(out, "rocectl: [3/4] devices done, 2 failed, ") ||
	    !strstr(out, "; slowest leaf07 ") || !strstr(out, "s (still running)\n"))
		fail_msg("no progress line naming leaf07 still running in:\n%s", out);
	free(out);
}

/* Seconds as a plain number work too.  One at a time: at the tick leaf07 (0.5 s) is done and
 * gpu0001 has run for less, so leaf07 is the slowest, finished. */
static void test_lines_name_the_slowest_finished(void **state)
{
	static const unsigned ms[] = {500, 900};
	size_t failed;
	char *out = run("1", true, 1, ms, 2, &failed);
	const char *line, *running;

	(void)state;
	assert_int_equal(failed, 1);
	line = strstr(out, "rocectl: [1/2] devices done, 0 failed, ");
	running = line ? strstr(line, "running") : NULL;
	if (!line || !strstr(line, "; slowest leaf07 0.") ||
	    (running && running < strchr(line, '\n')))
		fail_msg("no line naming leaf07 as the slowest finished in:\n%s", out);
	free(out);
}

static void test_no_lines_when_off(void **state)
{
	static const unsigned ms[] = {400, 400};
	size_t failed;
	char *out;

	(void)state;
	out = run("0", true, 4, ms, 2, &failed);
	assert_string_equal(out, "");
	free(out);
	out = run("100ms", false, 4, ms, 2, &failed);
	assert_string_equal(out, "");
	free(out);
	/* a run shorter than the interval says nothing */
	out = run(NULL, true, 4, ms, 2, &failed);
	assert_string_equal(out, "");
	free(out);
	out = run("soon", true, 4, ms, 2, &failed);
	assert_non_null(strstr(out, "ROCECTL_PROGRESS_INTERVAL 'soon' is not seconds"));
	free(out);
}

/* The JSON of a device carries its read and apply times; the text does not. */
static void test_device_times_in_json(void **state)
{
	struct rc_report_times t = {.read = true, .read_ms = 1234, .apply = true, .apply_ms = 56};
	char *buf = NULL;
	size_t len = 0;
	FILE *m;
	struct rc_out o;

	(void)state;
	for (int json = 0; json < 2; json++) {
		m = open_memstream(&buf, &len);
		assert_non_null(m);
		rc_out_init(&o, m, json ? RC_OUT_JSON : RC_OUT_TEXT);
		rc_report_device_timed(&o, RC_REPORT_PLAN, "leaf01", "nvue-ssh", NULL, NULL, &t);
		rc_report_device_timed(&o, RC_REPORT_PLAN, "leaf02", "nvue-ssh", NULL, "refused",
				       &(struct rc_report_times){.read = true, .read_ms = 7});
		fclose(m);
		if (json) {
			assert_non_null(strstr(buf, "\"device\":\"leaf01\",\"driver\":\"nvue-ssh\","
						    "\"status\":\"in-sync\",\"read_ms\":1234,"
						    "\"apply_ms\":56,"));
			assert_non_null(strstr(buf, "\"status\":\"error\",\"error\":\"refused\","
						    "\"read_ms\":7,\"changes\""));
		} else {
			assert_null(strstr(buf, "1234"));
			assert_non_null(strstr(buf, "leaf02 (nvue-ssh): error: refused\n"));
		}
		free(buf);
		buf = NULL;
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_lines_name_the_slowest_still_running),
	    cmocka_unit_test(test_lines_name_the_slowest_finished),
	    cmocka_unit_test(test_no_lines_when_off),
	    cmocka_unit_test(test_device_times_in_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
