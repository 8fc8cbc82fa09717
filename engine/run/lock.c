#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lock.h"

int rc_lock_take(const char *dir, int *fd, struct rc_err *err)
{
	char path[4096], pid[32] = "";
	ssize_t n;
	int f;

	if (mkdir(dir, 0700) && errno != EEXIST)
		return rc_errf(err, errno, "cannot create '%s': %s", dir, strerror(errno));
	snprintf(path, sizeof(path), "%s/.lock", dir);
	f = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (f < 0)
		return rc_errf(err, errno, "cannot open lock '%s': %s", path, strerror(errno));
	if (flock(f, LOCK_EX | LOCK_NB)) {
		int e = errno;

		n = pread(f, pid, sizeof(pid) - 1, 0);
		pid[n > 0 ? n : 0] = '\0';
		pid[strcspn(pid, "\n")] = '\0';
		close(f);
		if (e == EWOULDBLOCK)
			return rc_errf(err, EBUSY,
				       "another rocectl run holds the lock '%s' (pid %s); "
				       "nothing was changed",
				       path, pid[0] ? pid : "unknown");
		return rc_errf(err, e, "cannot lock '%s': %s", path, strerror(e));
	}
	n = snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	if (ftruncate(f, 0) == 0 && pwrite(f, pid, (size_t)n, 0) == n)
		fsync(f);
	*fd = f;
	return 0;
}

void rc_lock_release(int fd)
{
	if (fd >= 0)
		close(fd); /* closing drops the flock */
}
