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

static int fsync_parent(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	int fd, rc = 0;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fsync(fd))
		rc = -errno;
	close(fd);
	return rc;
}

/* dir/.name.tmp.PID: hidden, so that nothing listing the directory (the journal's runs)
 * takes a leftover for a real entry. */
static int tmp_name(char *buf, size_t len, const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	int dir_len = slash ? (int)(slash - path + 1) : 0;
	int n = snprintf(buf, len, "%.*s.%s.tmp.%d", dir_len, path, base, (int)getpid());

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int rc_write_atomic(const char *path, const void *data, size_t len, mode_t mode, const char *what,
		    struct rc_err *err)
{
	char tmp[PATH_MAX];
	int fd, rc, crc;

	if (tmp_name(tmp, sizeof(tmp), path))
		return rc_errf(err, ENAMETOOLONG, "cannot write %s '%s': name too long", what,
			       path);
	/* O_EXCL | O_NOFOLLOW: a file or symlink planted under the temporary name is refused,
	 * not written through (open(2)) */
	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	if (fd < 0) {
		rc = errno;
		/* the user named `path`: the temporary name would only confuse */
		return rc_errf(err, rc, "cannot write %s '%s': %s", what, path, strerror(rc));
	}
	rc = write_all(fd, data, len);
	if (!rc && fsync(fd))
		rc = -errno;
	crc = close(fd); /* always: a failed write must not leak the descriptor */
	if (!rc && crc)
		rc = -errno;
	if (!rc && rename(tmp, path))
		rc = -errno;
	if (rc) {
		unlink(tmp);
		return rc_errf(err, -rc, "cannot write %s '%s': %s", what, path, strerror(-rc));
	}
	rc = fsync_parent(path);
	if (rc)
		return rc_errf(err, -rc, "cannot write %s '%s': %s", what, path, strerror(-rc));
	return 0;
}
