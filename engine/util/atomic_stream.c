/* SPDX-License-Identifier: Apache-2.0 */
/* A report file written as it is made and replaced atomically at the end: what
 * rc_write_atomic does for a buffer, for a stream, so that a report of any size never has
 * to be held in memory to appear whole or not at all (the same temporary name, mode, fsync
 * and rename rules: engine/util/atomic.c). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rocectl/util.h"

static int split(const char *path, char *dir, size_t dlen, const char **base)
{
	const char *slash = strrchr(path, '/');

	*base = slash ? slash + 1 : path;
	if (!slash)
		snprintf(dir, dlen, ".");
	else if (slash == path)
		snprintf(dir, dlen, "/");
	else if (snprintf(dir, dlen, "%.*s", (int)(slash - path), path) >= (int)dlen)
		return -ENAMETOOLONG;
	if (!**base || !strcmp(*base, ".") || !strcmp(*base, "..") || strlen(*base) > NAME_MAX - 24)
		return -EISDIR;
	return 0;
}

int rc_atomic_open(struct rc_atomic_file *af, const char *path, mode_t mode, const char *what,
		   struct rc_err *err)
{
	char dir[PATH_MAX];
	const char *base;
	int fd, rc;

	memset(af, 0, sizeof(*af));
	af->dfd = -1;
	af->what = what;
	af->path = path;
	rc = split(path, dir, sizeof(dir), &base);
	if (rc)
		return rc_errf(err, -rc, "cannot write %s '%s': not a file name", what, path);
	snprintf(af->base, sizeof(af->base), "%s", base);
	snprintf(af->tmp, sizeof(af->tmp), ".%s.tmp.%d", base, (int)getpid());
	af->dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (af->dfd < 0)
		return rc_errf(err, errno, "cannot write %s '%s': %s", what, path, strerror(errno));
	unlinkat(af->dfd, af->tmp, 0); /* a leftover of a killed run with our pid */
	fd = openat(af->dfd, af->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	/* the mode is ours, not the umask's (atomic.c says why) */
	if (fd >= 0 && fchmod(fd, mode)) {
		close(fd);
		fd = -1;
	}
	if (fd < 0 || !(af->f = fdopen(fd, "w"))) {
		rc = errno;
		if (fd >= 0)
			close(fd);
		unlinkat(af->dfd, af->tmp, 0);
		close(af->dfd);
		af->dfd = -1;
		return rc_errf(err, rc, "cannot write %s '%s': %s", what, path, strerror(rc));
	}
	return 0;
}

int rc_atomic_commit(struct rc_atomic_file *af, struct rc_err *err)
{
	int rc = 0;

	if (!af->f)
		return rc_errf(err, EBADF, "cannot write %s '%s': not open", af->what, af->path);
	if (fflush(af->f) || ferror(af->f) || fsync(fileno(af->f)))
		rc = errno ? errno : EIO;
	if (fclose(af->f) && !rc)
		rc = errno;
	af->f = NULL;
	if (!rc && renameat(af->dfd, af->tmp, af->dfd, af->base))
		rc = errno;
	if (!rc && fsync(af->dfd))
		rc = errno;
	if (rc)
		unlinkat(af->dfd, af->tmp, 0);
	close(af->dfd);
	af->dfd = -1;
	if (rc)
		return rc_errf(err, rc, "cannot write %s '%s': %s", af->what, af->path,
			       strerror(rc));
	return 0;
}

void rc_atomic_abort(struct rc_atomic_file *af)
{
	if (af->f)
		fclose(af->f);
	af->f = NULL;
	if (af->dfd >= 0) {
		unlinkat(af->dfd, af->tmp, 0);
		close(af->dfd);
	}
	af->dfd = -1;
}
