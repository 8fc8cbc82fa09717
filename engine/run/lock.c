/* SPDX-License-Identifier: Apache-2.0 */
/* Per-device run locks (include/rocectl/lock.h).  A holder writes "pid N\nhost H\nstarted T\n
 * command C\n" into its lock file and truncates it when it releases: a non-empty file whose
 * lock could be taken was therefore left by a run that did not finish (killed, crashed), as
 * flock(2) says a lock "is released either by an explicit LOCK_UN operation on any of
 * these duplicate file descriptors, or when all such file descriptors have been closed". */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rocectl/lock.h"
#include "rocectl/util.h"

#define HOLDER_MAX 512 /* what is read of a lock file: ours are far smaller */

struct holder {
	long pid;
	char host[128];
	char started[64];
	char command[32];
};

const char *rc_lock_dir(void)
{
	const char *d = getenv("ROCECTL_LOCK_DIR");

	return d && *d ? d : RC_LOCK_DEFAULT_DIR;
}

/* Whoever owns the lock directory can plant lock files in it: block every run, or write a
 * holder record that names another run.  So it must be ours, a real directory (not a
 * symlink to someone else's), and nobody else's to write; one of ours that a permissive
 * umask or an older version left wider is narrowed to 0700. */
static int check_dir(const char *dir, struct rc_err *err)
{
	struct stat st;

	if (lstat(dir, &st))
		return rc_errf(err, errno, "cannot use lock directory '%s': %s", dir,
			       strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return rc_errf(err, ENOTDIR,
			       "refusing lock directory '%s': not a directory (a symbolic link?)",
			       dir);
	if (st.st_uid != geteuid())
		return rc_errf(err, EPERM,
			       "refusing lock directory '%s': owned by uid %u, not by us (uid %u); "
			       "whoever owns it could block or impersonate runs",
			       dir, (unsigned)st.st_uid, (unsigned)geteuid());
	if ((st.st_mode & 077) && chmod(dir, 0700))
		return rc_errf(err, errno, "cannot make lock directory '%s' 0700: %s", dir,
			       strerror(errno));
	return 0;
}

/* `dir` and missing parents, 0700 for what we create. */
static int make_dir(const char *dir, struct rc_err *err)
{
	char tmp[PATH_MAX];

	if (snprintf(tmp, sizeof(tmp), "%s", dir) >= (int)sizeof(tmp))
		return rc_errf(err, ENAMETOOLONG, "lock directory path too long: '%s'", dir);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) && errno != EEXIST)
			return rc_errf(err, errno, "cannot create lock directory '%s': %s", tmp,
				       strerror(errno));
		*p = '/';
	}
	if (mkdir(tmp, 0700) && errno != EEXIST)
		return rc_errf(err, errno, "cannot create lock directory '%s': %s", tmp,
			       strerror(errno));
	return check_dir(tmp, err);
}

/* The holder's record, parsed defensively: a lock file is anyone's writing. */
static void read_holder(int fd, struct holder *h)
{
	char buf[HOLDER_MAX + 1], *line, *save = NULL;
	ssize_t n = pread(fd, buf, HOLDER_MAX, 0);

	memset(h, 0, sizeof(*h));
	buf[n > 0 ? n : 0] = '\0';
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *v = strchr(line, ' ');
		uint64_t pid;

		if (!v)
			continue;
		*v++ = '\0';
		if (!strcmp(line, "pid") && !rc_parse_u64(v, 10, 1, INT_MAX, &pid))
			h->pid = (long)pid;
		else if (!strcmp(line, "host"))
			snprintf(h->host, sizeof(h->host), "%s", v);
		else if (!strcmp(line, "started"))
			snprintf(h->started, sizeof(h->started), "%s", v);
		else if (!strcmp(line, "command"))
			snprintf(h->command, sizeof(h->command), "%s", v);
	}
	/* printable only: the text goes to a terminal */
	for (char *s = h->host; *s; s++)
		if (*s < 0x20 || *s > 0x7e)
			*s = '?';
	for (char *s = h->started; *s; s++)
		if (*s < 0x20 || *s > 0x7e)
			*s = '?';
	for (char *s = h->command; *s; s++)
		if (*s < 0x20 || *s > 0x7e)
			*s = '?';
}

static void describe(const struct holder *h, char *buf, size_t len)
{
	if (!h->pid) {
		snprintf(buf, len, "pid unknown");
		return;
	}
	snprintf(buf, len, "'%s', pid %ld on host %s, started %s", h->command[0] ? h->command : "?",
		 h->pid, h->host[0] ? h->host : "?", h->started[0] ? h->started : "?");
}

static void write_holder(int fd, const char *command)
{
	char buf[HOLDER_MAX], host[128] = "?", when[32] = "?";
	time_t now = time(NULL);
	struct tm tm;
	int n;

	gethostname(host, sizeof(host) - 1);
	host[sizeof(host) - 1] = '\0';
	if (gmtime_r(&now, &tm))
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	n = snprintf(buf, sizeof(buf), "pid %d\nhost %s\nstarted %s\ncommand %s\n", (int)getpid(),
		     host, when, command);
	/* best effort: the lock itself is the flock, the text only explains it */
	if (n > 0 && ftruncate(fd, 0) == 0 && pwrite(fd, buf, (size_t)n, 0) == n)
		fsync(fd);
}

/* A record left in a lock we could take: its run ended without releasing. */
static void check_stale(int fd, const char *name, const char *file, struct rc_warnings *warn)
{
	struct holder h;
	char who[300], host[128] = "";
	bool same_host;

	read_holder(fd, &h);
	if (!h.pid)
		return;
	gethostname(host, sizeof(host) - 1);
	same_host = !strcmp(host, h.host);
	describe(&h, who, sizeof(who));
	if (same_host && kill((pid_t)h.pid, 0) == 0)
		return; /* alive, yet without the lock: a reused pid; nothing to say */
	rc_warn_add(warn, NULL, 0, 0,
		    "'%s': the run %s ended without releasing its lock %s (killed?): the "
		    "device may be half-changed; 'rocectl rollback' restores what its journal "
		    "kept, then 'rocectl verify' shows where it stands",
		    name, who, file);
}

/* A lock file someone else can write holds whatever holder record they like. */
static int lock_file_ours(int fd, const char *file, struct rc_err *err)
{
	struct stat st;

	if (fstat(fd, &st))
		return rc_errf(err, errno, "cannot use lock '%s': %s", file, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return rc_errf(err, EPERM, "refusing lock '%s': not a regular file", file);
	return rc_check_ours(&st, "lock", file, err);
}

static int lock_one(const char *dir, const char *name, const char *command, int *out,
		    struct rc_warnings *warn, struct rc_err *err)
{
	char file[PATH_MAX], base[RC_NAME_MAX * 3 + 8], who[300];
	struct holder h;
	int fd, e;

	if (rc_name_to_file(name, ".lock", base, sizeof(base)))
		return rc_errf(err, EINVAL, "'%s': not a name a lock file can have", name);
	snprintf(file, sizeof(file), "%s/%s", dir, base);
	fd = open(file, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0600);
	if (fd < 0)
		return rc_errf(err, errno, "cannot open lock '%s': %s", file, strerror(errno));
	if (lock_file_ours(fd, file, err)) {
		close(fd);
		return -EPERM;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		e = errno;
		read_holder(fd, &h);
		close(fd);
		describe(&h, who, sizeof(who));
		if (e == EWOULDBLOCK)
			return rc_errf(err, EBUSY,
				       "'%s' is locked by another rocectl run (%s; lock %s); "
				       "nothing was changed",
				       name, who, file);
		return rc_errf(err, e, "cannot lock '%s': %s", file, strerror(e));
	}
	check_stale(fd, name, file, warn);
	write_holder(fd, command);
	*out = fd;
	return 0;
}

int rc_lock_devices(const char *dir, const char *const *names, size_t n, const char *command,
		    struct rc_locks *l, struct rc_warnings *warn, struct rc_err *err)
{
	int rc = make_dir(dir, err);

	memset(l, 0, sizeof(*l));
	if (rc)
		return rc;
	l->fds = malloc((n ? n : 1) * sizeof(*l->fds));
	if (!l->fds)
		return rc_errf(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		rc = lock_one(dir, names[i], command, &l->fds[l->n], warn, err);
		if (rc) {
			rc_locks_release(l);
			return rc;
		}
		l->n++;
	}
	return 0;
}

void rc_locks_release(struct rc_locks *l)
{
	for (size_t i = 0; l && i < l->n; i++) {
		/* emptied first: a record left behind means the holder did not get here */
		if (ftruncate(l->fds[i], 0) == 0)
			fsync(l->fds[i]);
		close(l->fds[i]); /* closing drops the flock */
	}
	if (l) {
		free(l->fds);
		l->fds = NULL;
		l->n = 0;
	}
}
