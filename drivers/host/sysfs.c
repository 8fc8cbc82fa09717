/* SPDX-License-Identifier: Apache-2.0 */
/* The --root prefix: every sysfs and configfs path of the host side is built here, so that
 * tests (and the simulated NIC) can point the whole driver at a directory tree. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rocectl/util.h"
#include "host.h"

/* A directory listing bigger than this is not a sysfs class directory. */
#define LIST_MAX 4096

int rc_host_path(char *buf, size_t len, const char *root, const char *fmt, ...)
{
	size_t rl;
	va_list ap;
	int n;

	if (!root || !*root)
		root = "/";
	rl = strlen(root);
	while (rl > 0 && root[rl - 1] == '/')
		rl--;
	if (rl + 2 > len)
		return -ENAMETOOLONG;
	memcpy(buf, root, rl);
	buf[rl] = '/';
	va_start(ap, fmt);
	n = vsnprintf(buf + rl + 1, len - rl - 1, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len - rl - 1)
		return -ENAMETOOLONG;
	return 0;
}

int rc_host_read(const char *path, char *buf, size_t len)
{
	size_t off = 0;
	int fd, rc = 0;

	if (len == 0)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		rc_host_raw_file(path, NULL, rc);
		return rc;
	}
	for (;;) {
		ssize_t r;

		if (off == len - 1) {
			char extra;

			/* Full: one more byte tells "exactly fits" from "too big". */
			r = read(fd, &extra, 1);
			if (r > 0)
				rc = -EFBIG;
			else if (r < 0 && errno != EINTR)
				rc = -errno;
			break;
		}
		r = read(fd, buf + off, len - 1 - off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			rc = -errno;
			break;
		}
		if (r == 0)
			break;
		off += (size_t)r;
	}
	close(fd);
	if (rc) {
		rc_host_raw_file(path, NULL, rc);
		return rc;
	}
	buf[off] = '\0';
	while (off > 0 && isspace((unsigned char)buf[off - 1]))
		buf[--off] = '\0';
	rc_host_raw_file(path, buf, 0);
	return (int)off;
}

int rc_host_read_ll(const char *path, long long *v)
{
	char buf[64], *end;
	int rc = rc_host_read(path, buf, sizeof(buf));

	if (rc < 0)
		return rc;
	if (rc == 0)
		return -EINVAL;
	errno = 0;
	*v = strtoll(buf, &end, 0);
	if (errno || *end)
		return -EINVAL;
	return 0;
}

int rc_host_write(const char *path, const char *s)
{
	size_t len = strlen(s);
	ssize_t w;
	int fd, rc = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* sysfs takes a value in one write; a short write is an error, not a retry. */
	do
		w = write(fd, s, len);
	while (w < 0 && errno == EINTR);
	if (w < 0)
		rc = -errno;
	else if ((size_t)w != len)
		rc = -EIO;
	if (close(fd) && !rc)
		rc = -errno;
	return rc;
}

bool rc_host_is_dir(const char *path)
{
	struct stat st;
	bool is_dir = stat(path, &st) == 0 && S_ISDIR(st.st_mode);

	rc_host_raw_dir(path, is_dir);
	return is_dir;
}

int rc_host_readlink(const char *path, char *buf, size_t len)
{
	ssize_t n = len ? readlink(path, buf, len - 1) : -1;
	int rc;

	if (n < 0) {
		rc = len ? -errno : -EINVAL;
		rc_host_raw_link(path, NULL, rc);
		return rc;
	}
	buf[n] = '\0';
	rc_host_raw_link(path, buf, 0);
	return (int)n;
}

bool rc_host_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

int rc_host_list(const char *path, char (**names)[RC_NAME_MAX], size_t *n)
{
	char(*v)[RC_NAME_MAX] = NULL;
	size_t cap = 0, cnt = 0;
	struct dirent *de;
	DIR *d;

	*names = NULL;
	*n = 0;
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (strlen(de->d_name) >= RC_NAME_MAX)
			continue; /* not a name we could use anyway */
		if (cnt == LIST_MAX) {
			closedir(d);
			free(v);
			return -E2BIG;
		}
		if (rc_array_reserve((void **)&v, &cap, cnt + 1, sizeof(*v), 16)) {
			closedir(d);
			free(v);
			return -ENOMEM;
		}
		snprintf(v[cnt], sizeof(v[cnt]), "%s", de->d_name);
		cnt++;
	}
	closedir(d);
	if (cnt)
		qsort(v, cnt, sizeof(*v), cmp_name);
	*names = v;
	*n = cnt;
	return 0;
}

bool rc_host_ifname_ok(const char *name)
{
	return rc_ifname_is_safe(name);
}
