/* SPDX-License-Identifier: Apache-2.0 */
/* Transports (drivers/transport/): secrets from files and the environment never leak
 * into messages, names are checked before anything is sent, unreachable devices give
 * errors that name the device and where, and `insecure: true` always warns.  The real
 * sshd / HTTPS paths are exercised by tests/switch/t2xxx against the simulated switch. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "rocectl/transport.h"

#define SECRET "Pa55-w0rd-never-shown"

static char tmpdir[256];

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/rocectl-transport.XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	char cmd[300];
	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static void write_file(const char *name, const char *content, char *path, size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(content, f);
	fclose(f);
	assert_int_equal(chmod(path, 0600), 0); /* as a password file must be */
}

static void device(struct rc_device *d, const char *address)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "leaf01");
	snprintf(d->address, sizeof(d->address), "%s", address);
	snprintf(d->cred.user, sizeof(d->cred.user), "cumulus");
	d->kind = RC_DEV_SWITCH;
	d->platform = RC_PLAT_NVUE;
}

/* the files the device under test names (its strings point at these) */
static char pw_path[PATH_MAX], kh_path[PATH_MAX], ca_path[PATH_MAX];

static void test_password_file(void **state)
{
	struct rc_device d;
	struct rc_err err = {0};
	char pw[RC_SECRET_MAX];
	(void)state;

	device(&d, "127.0.0.1");
	write_file("pw", SECRET "\n", pw_path, sizeof(pw_path));
	d.cred.password_file = pw_path;
	assert_int_equal(rc_secret_password(&d, pw, sizeof(pw), &err), 0);
	assert_string_equal(pw, SECRET);

	/* only the first line, without CR */
	write_file("pw2", SECRET "\r\nsecond line\n", pw_path, sizeof(pw_path));
	d.cred.password_file = pw_path;
	assert_int_equal(rc_secret_password(&d, pw, sizeof(pw), &err), 0);
	assert_string_equal(pw, SECRET);
	rc_secret_wipe(pw, sizeof(pw));
	for (size_t i = 0; i < sizeof(pw); i++)
		assert_int_equal(pw[i], 0);

	write_file("empty", "\n", pw_path, sizeof(pw_path));
	d.cred.password_file = pw_path;
	assert_int_equal(rc_secret_password(&d, pw, sizeof(pw), &err), -EINVAL);
	assert_non_null(strstr(err.msg, "is empty"));

	d.cred.password_file = pw_path;
	snprintf(pw_path, sizeof(pw_path), "%s/missing", tmpdir);
	assert_int_equal(rc_secret_password(&d, pw, sizeof(pw), &err), -ENOENT);
	assert_non_null(strstr(err.msg, "missing"));
	assert_non_null(strstr(err.msg, "'leaf01'"));

	/* a directory is not a password file */
	d.cred.password_file = pw_path;
	snprintf(pw_path, sizeof(pw_path), "%s", tmpdir);
	assert_int_equal(rc_secret_password(&d, pw, sizeof(pw), &err), -EINVAL);
}

/* A FIFO as password_file used to hang the run in open(2); now it is refused at once, and
 * so are symlinks and files other users may read, each naming the file. */
static void test_password_file_not_plain(void **state)
{
	struct rc_device d;
	struct rc_err err = {0};
	char pw[RC_SECRET_MAX], target[300];
	(void)state;

	device(&d, "127.0.0.1");
	d.cred.password_file = pw_path;
	snprintf(pw_path, sizeof(pw_path), "%s/fifo", tmpdir);
	assert_int_equal(mkfifo(d.cred.password_file, 0600), 0);
	assert_int_equal(rc_secret_password(&d, pw, sizeof(pw), &err), -EINVAL);
	assert_non_null(strstr(err.msg, "not a regular file"));
	assert_non_null(strstr(err.msg, d.cred.password_file));

	write_file("shared", SECRET "\n", target, sizeof(target));
	assert_int_equal(chmod(target, 0640), 0);
	d.cred.password_file = pw_path;
	snprintf(pw_path, sizeof(pw_path), "%s", target);
	assert_int_equal(rc_secret_password(&d, pw, sizeof(pw), &err), -EPERM);
	assert_non_null(strstr(err.msg, "accessible by group or others (mode 0640)"));
	assert_non_null(strstr(err.msg, target));
	assert_null(strstr(err.msg, "Pa55"));
	assert_int_equal(chmod(target, 0604), 0);
	assert_int_equal(rc_secret_password(&d, pw, sizeof(pw), &err), -EPERM);

	assert_int_equal(chmod(target, 0600), 0);
	d.cred.password_file = pw_path;
	snprintf(pw_path, sizeof(pw_path), "%s/link", tmpdir);
	assert_int_equal(symlink(target, d.cred.password_file), 0);
	assert_int_equal(rc_secret_password(&d, pw, sizeof(pw), &err), -ELOOP);
	assert_non_null(strstr(err.msg, "symbolic link"));
	assert_non_null(strstr(err.msg, "/link"));

	d.cred.password_file = pw_path;
	snprintf(pw_path, sizeof(pw_path), "/dev/null");
	assert_int_equal(rc_secret_password(&d, pw, sizeof(pw), &err), -EINVAL);
	assert_non_null(strstr(err.msg, "not a regular file"));
}

static void test_password_too_long(void **state)
{
	struct rc_device d;
	struct rc_err err = {0};
	char pw[16];
	(void)state;

	device(&d, "127.0.0.1");
	write_file("long", SECRET SECRET "\n", pw_path, sizeof(pw_path));
	d.cred.password_file = pw_path;
	assert_int_equal(rc_secret_password(&d, pw, sizeof(pw), &err), -EFBIG);
	/* neither the message nor the buffer keeps any of it */
	assert_null(strstr(err.msg, "Pa55"));
	for (size_t i = 0; i < sizeof(pw); i++)
		assert_int_equal(pw[i], 0);
}

static void test_password_env(void **state)
{
	struct rc_device d;
	struct rc_err err = {0};
	char pw[RC_SECRET_MAX];
	(void)state;

	device(&d, "127.0.0.1");
	assert_int_equal(rc_secret_password(&d, pw, sizeof(pw), &err), 1); /* no source */
	d.cred.password_env = "ROCECTL_TEST_PW";
	unsetenv("ROCECTL_TEST_PW");
	assert_int_equal(rc_secret_password(&d, pw, sizeof(pw), &err), -ENOENT);
	assert_non_null(strstr(err.msg, "ROCECTL_TEST_PW"));
	assert_non_null(strstr(err.msg, "not set"));
	setenv("ROCECTL_TEST_PW", SECRET, 1);
	assert_int_equal(rc_secret_password(&d, pw, sizeof(pw), &err), 0);
	assert_string_equal(pw, SECRET);
	setenv("ROCECTL_TEST_PW", "", 1);
	assert_int_equal(rc_secret_password(&d, pw, sizeof(pw), &err), -ENOENT);
	assert_non_null(strstr(err.msg, "empty"));
	unsetenv("ROCECTL_TEST_PW");
}

static void test_expand_home(void **state)
{
	char out[64];
	const char *home = getenv("HOME");
	(void)state;

	assert_int_equal(rc_expand_home("/etc/x", out, sizeof(out)), 0);
	assert_string_equal(out, "/etc/x");
	setenv("HOME", "/home/op", 1);
	assert_int_equal(rc_expand_home("~/.ssh/known_hosts", out, sizeof(out)), 0);
	assert_string_equal(out, "/home/op/.ssh/known_hosts");
	assert_int_equal(rc_expand_home("~other/x", out, sizeof(out)), 0); /* not ours */
	assert_string_equal(out, "~other/x");
	assert_int_equal(
	    rc_expand_home("~/a-very-long-name-that-does-not-fit-in-the-buffer", out, 20),
	    -ENAMETOOLONG);
	if (home)
		setenv("HOME", home, 1);
	else
		unsetenv("HOME");
}

static void test_escape(void **state)
{
	char out[64];
	(void)state;

	assert_int_equal(rc_rest_escape("swp1", out, sizeof(out)), 0);
	assert_string_equal(out, "swp1");
	assert_int_equal(rc_rest_escape("a/b c?d#e&f", out, sizeof(out)), 0);
	assert_string_equal(out, "a%2Fb%20c%3Fd%23e%26f");
	assert_int_equal(rc_rest_escape("..", out, sizeof(out)), 0);
	assert_string_equal(out, "..");
	assert_int_equal(rc_rest_escape("abcdef", out, 6), -ENAMETOOLONG);
	assert_int_equal(rc_rest_escape("//", out, 6), -ENAMETOOLONG);
}

/* An address that could carry options or a user is refused before any connection. */
static void test_unsafe_addresses(void **state)
{
	const char *bad[] = {"user@10.0.0.1", "-oProxyCommand=id", "10.0.0.1;reboot",
			     "10.0.0.1/evil", "host name",	   ""};
	struct rc_run_opts opts = {0};
	(void)state;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct rc_device d;
		struct rc_err err = {0};
		struct rc_ssh *s = (struct rc_ssh *)1;
		struct rc_rest *r = (struct rc_rest *)1;

		device(&d, bad[i]);
		assert_int_equal(rc_ssh_open(&d, &opts, &s, &err), -EINVAL);
		assert_null(s);
		assert_non_null(strstr(err.msg, "not a host name"));
		assert_int_equal(rc_rest_open(&d, &opts, "/nvue_v1", 8765, &r, &err), -EINVAL);
		assert_null(r);
	}
}

/* A port nothing listens on: a clear error naming device and where, quickly (no retry
 * storm for a connection that is refused on SSH; REST retries GET a bounded number of
 * times), and never the password. */
static void test_unreachable(void **state)
{
	struct rc_device d;
	struct rc_run_opts opts = {0};
	struct rc_err err = {0};
	struct rc_ssh *s = NULL;
	struct rc_rest *r = NULL;
	struct rc_rest_response resp;
	(void)state;

	device(&d, "127.0.0.1");
	d.ssh.port = 1;
	d.ssh.connect_timeout_ms = 3000;
	snprintf(kh_path, sizeof(kh_path), "%s/kh", tmpdir);
	d.ssh.known_hosts = kh_path;
	write_file("pw", SECRET "\n", pw_path, sizeof(pw_path));
	d.cred.password_file = pw_path;
	assert_int_equal(rc_ssh_open(&d, &opts, &s, &err), -EHOSTUNREACH);
	assert_null(s);
	assert_non_null(strstr(err.msg, "'leaf01'"));
	assert_non_null(strstr(err.msg, "127.0.0.1:1"));
	assert_null(strstr(err.msg, SECRET));

	d.rest.port = 1;
	d.rest.timeout_ms = 3000;
	assert_int_equal(rc_rest_open(&d, &opts, "/nvue_v1", 8765, &r, &err), 0);
	assert_int_equal(rc_rest_request(r, "GET", "/qos", NULL, 0, NULL, &resp, &err),
			 -EHOSTUNREACH);
	assert_non_null(strstr(err.msg, "'leaf01'"));
	assert_non_null(strstr(err.msg, "https://127.0.0.1:1/nvue_v1/qos"));
	assert_null(strstr(err.msg, SECRET));
	rc_rest_close(r);
}

static void test_ca_file_missing(void **state)
{
	struct rc_device d;
	struct rc_run_opts opts = {0};
	struct rc_err err = {0};
	struct rc_rest *r = NULL;
	(void)state;

	device(&d, "127.0.0.1");
	snprintf(ca_path, sizeof(ca_path), "%s/no-such-ca.pem", tmpdir);
	d.rest.ca_file = ca_path;
	assert_int_equal(rc_rest_open(&d, &opts, "/nvue_v1", 8765, &r, &err), -ENOENT);
	assert_null(r);
	assert_non_null(strstr(err.msg, "no-such-ca.pem"));
}

/* insecure: true is never silent: every open says so on stderr. */
static void test_insecure_warns(void **state)
{
	struct rc_device d;
	struct rc_run_opts opts = {0};
	struct rc_err err = {0};
	struct rc_rest *r = NULL;
	char path[300], buf[1024] = "";
	int saved, fd;
	FILE *f;
	(void)state;

	device(&d, "127.0.0.1");
	d.rest.insecure = true;
	snprintf(path, sizeof(path), "%s/stderr", tmpdir);
	fflush(stderr);
	saved = dup(2);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0 && saved >= 0);
	dup2(fd, 2);
	close(fd);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(rc_rest_open(&d, &opts, "/nvue_v1", 8765, &r, &err), 0);
		rc_rest_close(r);
	}
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_true(fread(buf, 1, sizeof(buf) - 1, f) > 0);
	fclose(f);
	{
		char *first = strstr(buf, "verification is OFF");

		assert_non_null(first);
		assert_non_null(strstr(first + 1, "verification is OFF")); /* twice */
		assert_non_null(strstr(buf, "'leaf01'"));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_password_file),
	    cmocka_unit_test(test_password_file_not_plain),
	    cmocka_unit_test(test_password_too_long),
	    cmocka_unit_test(test_password_env),
	    cmocka_unit_test(test_expand_home),
	    cmocka_unit_test(test_escape),
	    cmocka_unit_test(test_unsafe_addresses),
	    cmocka_unit_test(test_unreachable),
	    cmocka_unit_test(test_ca_file_missing),
	    cmocka_unit_test(test_insecure_warns),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
