/* SPDX-License-Identifier: Apache-2.0 */
/* One atomic, durable file replacement for the journal, saved plans and report files.
 * rename(2) is atomic within a file system (POSIX rename), and without the fsync before it
 * a crash can leave the new name pointing at an empty file; the fsync of the directory
 * makes the rename itself survive a crash (fsync(2), "Calling fsync() does not necessarily
 * ensure that the entry in the directory containing the file has also reached disk"). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rocectl/util.h"

static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		if (w == 0)
			return -EIO;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

/* .name.tmp.PID: hidden, so that nothing listing the directory (the journal's runs) takes a
 * leftover for a real entry. */
static int tmp_name(char *buf, size_t len, const char *base)
{
	int n = snprintf(buf, len, ".%s.tmp.%d", base, (int)getpid());

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* Write through the directory's descriptor: neither a symlink planted under the temporary
 * name nor one swapped in for the directory after it was opened is followed (openat(2)). */
static int write_at(int dfd, const char *base, const void *data, size_t len, mode_t mode)
{
	char tmp[NAME_MAX + 1];
	int fd, rc, crc;

	if (tmp_name(tmp, sizeof(tmp), base))
		return -ENAMETOOLONG;
	unlinkat(dfd, tmp, 0); /* a leftover of a killed run with our pid */
	fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	if (fd < 0)
		return -errno;
	/* The mode is the caller's decision, not the umask's: a metrics textfile written by a
	 * unit with UMask=0077 must still be readable by node_exporter's own user (0644), and a
	 * journal stays 0600 whatever a permissive umask says (open(2): "the mode of the created
	 * file is (mode & ~umask)"). */
	rc = fchmod(fd, mode) ? -errno : 0;
	if (!rc)
		rc = write_all(fd, data, len);
	if (!rc && fsync(fd))
		rc = -errno;
	crc = close(fd); /* always: a failed write must not leak the descriptor */
	if (!rc && crc)
		rc = -errno;
	if (!rc && renameat(dfd, tmp, dfd, base))
		rc = -errno;
	if (rc) {
		unlinkat(dfd, tmp, 0);
		return rc;
	}
	return fsync(dfd) ? -errno : 0;
}

int rc_write_atomic_at(int dfd, const char *name, const void *data, size_t len, mode_t mode,
		       const char *what, struct rc_err *err)
{
	int rc;

	if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return rc_errf(err, EINVAL, "cannot write %s '%s': not a file name", what, name);
	rc = write_at(dfd, name, data, len, mode);
	if (rc)
		return rc_errf(err, -rc, "cannot write %s '%s': %s", what, name, strerror(-rc));
	return 0;
}

int rc_write_atomic(const char *path, const void *data, size_t len, mode_t mode, const char *what,
		    struct rc_err *err)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	int dfd, rc;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else if (snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path) >= (int)sizeof(dir))
		return rc_errf(err, ENAMETOOLONG, "cannot write %s '%s': name too long", what,
			       path);
	if (!*base || !strcmp(base, ".") || !strcmp(base, ".."))
		return rc_errf(err, EISDIR, "cannot write %s '%s': not a file name", what, path);
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		rc = -errno;
	else
		rc = write_at(dfd, base, data, len, mode);
	if (dfd >= 0)
		close(dfd);
	/* the user named `path`: a temporary name would only confuse */
	if (rc)
		return rc_errf(err, -rc, "cannot write %s '%s': %s", what, path, strerror(-rc));
	return 0;
}

int rc_make_parents(const char *path, struct rc_err *err)
{
	char tmp[PATH_MAX];

	if (snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp))
		return rc_errf(err, ENAMETOOLONG, "'%s': path too long", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0700) && errno != EEXIST)
			return rc_errf(err, errno, "cannot create '%s': %s", tmp, strerror(errno));
		*p = '/';
	}
	return 0;
}
