/* SPDX-License-Identifier: Apache-2.0 */
/* Reading a whole file rocectl wrote itself or was handed (plans, desired states, history
 * records, the enforce state): capped, regular files only, never a FIFO that would block. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rocectl/util.h"

/* Inside a user namespace (a container, the lab's hosts) a file whose owner is not mapped
 * into it shows as the overflow uid (user_namespaces(7), "Unmapped user and group IDs"):
 * typically root of the host that put it there.  It is taken as root's only there; in the
 * initial namespace, whose uid_map is the identity over every uid, the overflow uid is an
 * ordinary user ("nobody") and gets no such benefit. */
static bool unmapped_owner(uid_t uid)
{
	unsigned long inside, outside, count, overflow = 65534;
	bool initial = false;
	FILE *f;

	f = fopen("/proc/sys/kernel/overflowuid", "re");
	if (f) {
		if (fscanf(f, "%lu", &overflow) != 1)
			overflow = 65534;
		fclose(f);
	}
	if (uid != (uid_t)overflow)
		return false;
	f = fopen("/proc/self/uid_map", "re");
	if (!f)
		return false;
	initial = fscanf(f, "%lu %lu %lu", &inside, &outside, &count) == 3 && inside == 0 &&
		  outside == 0 && count == 4294967295ul;
	fclose(f);
	return !initial;
}

int rc_check_ours(const struct stat *st, const char *what, const char *path, struct rc_err *err)
{
	if (st->st_uid != geteuid() && st->st_uid != 0 && !unmapped_owner(st->st_uid))
		return rc_errf(err, EPERM,
			       "refusing %s '%s': owned by uid %u, not by root or by us", what,
			       path, (unsigned)st->st_uid);
	if (st->st_mode & (S_IWGRP | S_IWOTH))
		return rc_errf(err, EPERM,
			       "refusing %s '%s': writable by group or others (mode %04o)", what,
			       path, (unsigned)(st->st_mode & 07777));
	return 0;
}

char *rc_read_file(const char *path, size_t max, unsigned flags, size_t *len, struct rc_err *err)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC |
				((flags & RC_READ_NOFOLLOW) ? O_NOFOLLOW : 0));
	struct stat st;
	char *buf;
	size_t got = 0;
	int e;

	if (fd < 0) {
		e = errno;
		rc_errf(err, e, "cannot read '%s': %s", path,
			e == ELOOP ? "a symbolic link" : strerror(e));
		errno = e;
		return NULL;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (uintmax_t)st.st_size > max) {
		rc_errf(err, EFBIG, "'%s' is not a regular file of at most %zu KiB", path,
			max >> 10);
		close(fd);
		errno = EFBIG;
		return NULL;
	}
	if ((flags & RC_READ_OURS) && rc_check_ours(&st, "file", path, err)) {
		close(fd);
		errno = EPERM;
		return NULL;
	}
	buf = malloc((size_t)st.st_size + 1);
	while (buf && got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	if (!buf) {
		rc_errf(err, ENOMEM, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	if (got != (size_t)st.st_size) {
		/* shrank or failed while read: half a file is never parsed */
		rc_errf(err, EIO, "'%s' is truncated", path);
		free(buf);
		errno = EIO;
		return NULL;
	}
	buf[got] = '\0';
	if (len)
		*len = got;
	return buf;
}
