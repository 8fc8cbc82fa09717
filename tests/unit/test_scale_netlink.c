/* SPDX-License-Identifier: Apache-2.0 */
/* The host driver keeps one netlink socket for a whole run (bench/README.md): `rocectl agent`
 * opens a session per interface, one after the other, and each used to open its own
 * socket.  Sessions in turn now share one (the same socket inode every time); sessions
 * open at the same time still get one each, so that no socket carries two conversations.
 * No root needed: a NETLINK_ROUTE socket opens unprivileged. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "rocectl/driver.h"

/* The socket inodes this process holds open, in *v (at most max); returns how many. */
static size_t sockets(unsigned long *v, size_t max)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	size_t n = 0;

	assert_non_null(d);
	while ((e = readdir(d))) {
		char path[300], link[64];
		ssize_t k;
		unsigned long ino;

		snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
		k = readlink(path, link, sizeof(link) - 1);
		if (k <= 0)
			continue;
		link[k] = '\0';
		if (sscanf(link, "socket:[%lu]", &ino) == 1 && n < max)
			v[n++] = ino;
	}
	closedir(d);
	return n;
}

static bool holds(const unsigned long *v, size_t n, unsigned long ino)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == ino)
			return true;
	return false;
}

/* The socket that appeared since `before` (exactly one must have). */
static unsigned long new_socket(const unsigned long *before, size_t nb)
{
	unsigned long now[64], found = 0;
	size_t n = sockets(now, 64), fresh = 0;

	for (size_t i = 0; i < n; i++)
		if (!holds(before, nb, now[i])) {
			found = now[i];
			fresh++;
		}
	assert_int_equal(fresh, 1);
	return found;
}

static void test_sessions_in_turn_share_one_socket(void **state)
{
	const struct rc_driver *drv = rc_driver_find("mlx5");
	struct rc_device dev = {.name = "localhost"};
	struct rc_run_opts opts = {.root = "/", .dry_run = true};
	struct rc_session *s, *t;
	struct rc_err err = {0};
	unsigned long base[64], first = 0, inside[64];
	size_t nb, ni;

	(void)state;
	assert_non_null(drv);
	nb = sockets(base, 64);
	for (int i = 0; i < 8; i++) {
		unsigned long ino;

		assert_int_equal(drv->open(&dev, &opts, &s, &err), 0);
		ino = i == 0 ? new_socket(base, nb) : 0;
		if (i == 0)
			first = ino;
		/* the eighth session uses the first one's socket, and no other was opened */
		ni = sockets(inside, 64);
		assert_int_equal(ni, nb + 1);
		assert_true(holds(inside, ni, first));
		drv->close(s);
	}
	/* two at once: the second gets a socket of its own */
	assert_int_equal(drv->open(&dev, &opts, &s, &err), 0);
	ni = sockets(inside, 64);
	assert_int_equal(drv->open(&dev, &opts, &t, &err), 0);
	assert_int_not_equal(new_socket(inside, ni), first);
	drv->close(t);
	drv->close(s);
	/* one idle socket is kept for the next session, never more */
	ni = sockets(inside, 64);
	assert_int_equal(ni, nb + 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sessions_in_turn_share_one_socket),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
