/* SPDX-License-Identifier: Apache-2.0 */
/* A run's kept snapshots (include/rocectl/run_snap.h).  The files are state of our own that
 * a later `rollback RUN` reads back: they are opened below a directory we own through
 * descriptors, without following a symlink, and used only when owned by us (or root) and
 * not writable by anyone else (the journal's rules, engine/run/journal.c). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rocectl/history.h"
#include "rocectl/run_dir.h"
#include "rocectl/run_snap.h"
#include "rocectl/util.h"

#define SNAP_SUFFIX    ".snap"
#define SNAP_MAX_BYTES (16u << 20) /* the journal's bound on one entry */

int rc_run_snap_dir(const char *run_id, char *buf, size_t len, struct rc_err *err)
{
	return rc_run_dir(run_id, buf, len, err);
}

/* Ours: owned by us or root, nobody else may write it. */
static int check_ours(const struct stat *st, const char *path, struct rc_err *err)
{
	if (st->st_uid != geteuid() && st->st_uid != 0)
		return rc_errf(err, EPERM, "'%s' is owned by another user (uid %u)", path,
			       (unsigned)st->st_uid);
	if (st->st_mode & (S_IWGRP | S_IWOTH))
		return rc_errf(err, EPERM, "'%s' is writable by group or others", path);
	return 0;
}

/* The run's directory, open; `create` makes it (and the runs directory).  -ENOENT when
 * it does not exist and is not to be made. */
static int open_run_dir(const char *run_id, bool create, int *fd, char *path, size_t len,
			struct rc_err *err)
{
	struct stat st;
	int rc = rc_run_snap_dir(run_id, path, len, err);

	*fd = -1;
	if (!rc && create)
		rc = rc_run_make_dir(path, err);
	if (rc)
		return rc;
	*fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (*fd < 0) {
		int e = errno;

		if (e == ENOENT)
			return -ENOENT;
		return rc_errf(err, e, "cannot open '%s': %s", path,
			       e == ELOOP || e == ENOTDIR ? "not a directory" : strerror(e));
	}
	rc = fstat(*fd, &st) ? rc_errf(err, errno, "cannot read '%s'", path)
			     : check_ours(&st, path, err);
	if (rc) {
		close(*fd);
		*fd = -1;
	}
	return rc;
}

int rc_run_snap_keep(const char *run_id, const struct rc_device *dev, const char *driver,
		     const struct rc_port_state *ports, size_t n, const char *native,
		     struct rc_err *err)
{
	char path[PATH_MAX], name[RC_NAME_MAX * 3 + 8];
	struct stat st;
	char *text;
	int fd, rc;

	if (rc_name_to_file(dev->name, SNAP_SUFFIX, name, sizeof(name)))
		return rc_errf(err, EINVAL, "'%s': not a name a file can have", dev->name);
	rc = open_run_dir(run_id, true, &fd, path, sizeof(path), err);
	if (rc)
		return rc;
	/* never rewritten: a second prepare of the device in the same run (the agent adds its
	 * interfaces one at a time) finds the device already changed by the first */
	if (!fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW)) {
		close(fd);
		return 0;
	}
	text = rc_journal_entry_text(run_id, dev, driver, ports, n, native);
	rc = text ? rc_write_atomic_at(fd, name, text, strlen(text), 0600, "run snapshot", err)
		  : rc_errf(err, ENOMEM, "out of memory");
	if (rc)
		rc_err_prefix(err, "'%s'", path);
	free(text);
	close(fd);
	return rc;
}

/* The file's text: a regular file of ours of a sane size, read whole. */
static char *slurp(int dfd, const char *name, const char *path, struct rc_err *err)
{
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	char *buf = NULL;
	size_t got = 0;

	if (fd < 0) {
		rc_errf(err, errno, "cannot read '%s': %s", path,
			errno == ELOOP ? "a symbolic link" : strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > (off_t)SNAP_MAX_BYTES)
		rc_errf(err, EFBIG, "'%s' is not a regular file of at most 16 MiB", path);
	else if (!check_ours(&st, path, err))
		buf = malloc((size_t)st.st_size + 1);
	while (buf && got < (size_t)st.st_size) {
		ssize_t k = read(fd, buf + got, (size_t)st.st_size - got);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		got += (size_t)k;
	}
	close(fd);
	if (buf) {
		buf[got] = '\0';
		if (got != (size_t)st.st_size || strlen(buf) != got) {
			rc_errf(err, EIO, "'%s' is truncated or not text", path);
			free(buf);
			buf = NULL;
		}
	} else if (!err->msg[0]) {
		rc_errf(err, ENOMEM, "out of memory");
	}
	return buf;
}

/* One file into `e`, or `e->bad` saying why it cannot be used. */
static void read_one(int dfd, const char *dir, const char *run_id, const char *file,
		     struct rc_journal_entry *e)
{
	char path[PATH_MAX + RC_NAME_MAX * 3], want[RC_NAME_MAX * 3 + 8];
	struct rc_err err = {0};
	char *text;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	text = slurp(dfd, file, path, &err);
	if (text && !rc_journal_entry_parse(path, text, e, &err)) {
		if (strcmp(e->run_id, run_id) ||
		    rc_name_to_file(e->device, SNAP_SUFFIX, want, sizeof(want)) ||
		    strcmp(want, file))
			rc_errf(&err, EINVAL, "'%s' names another run or device", path);
	}
	free(text);
	if (!err.msg[0])
		return;
	free(e->ports);
	free(e->native);
	memset(e, 0, sizeof(*e));
	snprintf(e->run_id, sizeof(e->run_id), "%s", run_id);
	snprintf(e->device, sizeof(e->device), "%.*s", (int)(strlen(file) - strlen(SNAP_SUFFIX)),
		 file);
	for (char *c = e->device; *c; c++) /* a name for messages, never an escape sequence */
		if (*c < 0x20 || *c > 0x7e)
			*c = '?';
	snprintf(e->bad, sizeof(e->bad), "%s", err.msg);
}

static bool is_snap_file(const char *name)
{
	size_t l = strlen(name), s = strlen(SNAP_SUFFIX);

	return name[0] != '.' && l > s && !strcmp(name + l - s, SNAP_SUFFIX);
}

int rc_run_snap_list(const char *run_id, struct rc_journal_entry **out, size_t *n,
		     struct rc_err *err)
{
	char path[PATH_MAX];
	struct dirent *de;
	size_t cap = 0;
	DIR *d;
	int fd, rc = open_run_dir(run_id, false, &fd, path, sizeof(path), err);

	*out = NULL;
	*n = 0;
	if (rc)
		return rc == -ENOENT ? 0 : rc;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return rc_errf(err, errno, "cannot read '%s': %s", path, strerror(errno));
	}
	while (!rc && (de = readdir(d))) {
		if (!is_snap_file(de->d_name))
			continue;
		rc = rc_array_reserve((void **)out, &cap, *n + 1, sizeof(**out), 8);
		if (rc) {
			rc = rc_errf(err, ENOMEM, "out of memory");
			break;
		}
		memset(&(*out)[*n], 0, sizeof(**out));
		read_one(dirfd(d), path, run_id, de->d_name, &(*out)[(*n)++]);
	}
	closedir(d);
	if (rc) {
		rc_journal_entries_free(*out, *n);
		*out = NULL;
		*n = 0;
	}
	return rc;
}

int rc_run_snap_forget(const char *run_id, struct rc_err *err)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int fd, rc = open_run_dir(run_id, false, &fd, path, sizeof(path), err);

	if (rc)
		return rc == -ENOENT ? 0 : rc;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return rc_errf(err, errno, "cannot read '%s': %s", path, strerror(errno));
	}
	while ((de = readdir(d)))
		if (is_snap_file(de->d_name) && unlinkat(dirfd(d), de->d_name, 0) && !rc)
			rc = rc_errf(err, errno, "cannot delete '%s/%s': %s", path, de->d_name,
				     strerror(errno));
	fsync(dirfd(d));
	closedir(d);
	if (!rc && rmdir(path) && errno != ENOTEMPTY && errno != EEXIST)
		rc = rc_errf(err, errno, "cannot delete '%s': %s", path, strerror(errno));
	return rc;
}

static const struct rc_journal_entry *find_entry(const struct rc_journal_entry *e, size_t n,
						 const char *device)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(e[i].device, device))
			return &e[i];
	return NULL;
}

/* Whether the journal holds an entry of the run for `device` already (left by the run
 * itself: it is restored from there). */
static bool journaled(const char *journal_dir, const char *run_id, const char *device)
{
	struct rc_journal_entry *e = NULL;
	struct rc_err ignored = {0};
	size_t n = 0;
	bool found = false;

	if (!rc_journal_list(journal_dir, run_id, &e, &n, &ignored))
		found = find_entry(e, n, device) != NULL;
	rc_journal_entries_free(e, n);
	return found;
}

/* One kept snapshot into the journal as an entry of the run (unless one is there). */
static int snap_to_journal(const struct rc_journal_entry *e, const char *journal_dir,
			   struct rc_err *err)
{
	struct rc_device dev;

	if (journaled(journal_dir, e->run_id, e->device))
		return -EEXIST;
	if (e->bad[0])
		return rc_errf(err, EINVAL, "'%s': its snapshot cannot be used: %s", e->device,
			       e->bad);
	memset(&dev, 0, sizeof(dev));
	snprintf(dev.name, sizeof(dev.name), "%s", e->device);
	snprintf(dev.address, sizeof(dev.address), "%s", e->address);
	return rc_journal_save_native(journal_dir, e->run_id, &dev, e->driver, e->ports, e->n_ports,
				      e->native, err);
}

/* A device of a record older than the kept snapshots: the values the record kept. */
static int values_to_journal(const char *run_id, const struct rc_history_dev *d,
			     const char *journal_dir, struct rc_err *err)
{
	struct rc_device dev;

	if (journaled(journal_dir, run_id, d->device))
		return -EEXIST;
	memset(&dev, 0, sizeof(dev));
	snprintf(dev.name, sizeof(dev.name), "%s", d->device);
	snprintf(dev.address, sizeof(dev.address), "%s", d->address);
	return rc_journal_save(journal_dir, run_id, &dev, d->driver, d->before, d->n_ports, err);
}

/* Each device the record says the run applied. */
static int from_record(const struct rc_history *h, const struct rc_journal_entry *e, size_t n,
		       const char *journal_dir, struct rc_run_undo *u, struct rc_err *err)
{
	int first = 0;

	for (size_t i = 0; i < h->n; i++) {
		const struct rc_history_dev *d = &h->devs[i];
		const struct rc_journal_entry *s = find_entry(e, n, d->device);
		struct rc_err one = {0};
		int rc;

		if (strcmp(d->result, "applied") || (!s && !d->n_ports))
			continue;
		rc = s ? snap_to_journal(s, journal_dir, &one)
		       : values_to_journal(h->run_id, d, journal_dir, &one);
		if (rc == -EEXIST)
			continue;
		u->n_saved += rc == 0;
		u->by_value += rc == 0 && !s;
		if (rc && !first) {
			first = rc;
			*err = one;
		}
	}
	return first;
}

int rc_run_undo_to_journal(const char *run_id, const char *journal_dir, struct rc_run_undo *u,
			   struct rc_err *err)
{
	struct rc_journal_entry *e = NULL;
	struct rc_history h;
	size_t n = 0;
	int rc = rc_run_snap_list(run_id, &e, &n, err), hrc = 0;

	memset(u, 0, sizeof(*u));
	if (rc)
		return rc;
	hrc = rc_history_load(rc_history_dir(), run_id, &h, err);
	if (hrc && hrc != -ENOENT) {
		rc = hrc;
	} else if (!hrc) {
		u->finished = true;
		rc = from_record(&h, e, n, journal_dir, u, err);
		rc_history_fini(&h);
	} else if (n == 0) {
		rc = -ENOENT;
	} else {
		/* no record (the run was killed before writing it): every device it kept */
		memset(err, 0, sizeof(*err));
		for (size_t i = 0; i < n; i++) {
			struct rc_err one = {0};
			int r = snap_to_journal(&e[i], journal_dir, &one);

			if (r == -EEXIST)
				continue;
			u->n_saved += r == 0;
			if (r && !rc) {
				rc = r;
				*err = one;
			}
		}
	}
	rc_journal_entries_free(e, n);
	return rc;
}

/* The run's journal entries again, once the snapshots are in (include/rocectl/run_snap.h). */
int rc_run_undo_relist(const char *run, const char *journal, struct rc_journal_entry **e, size_t *n,
		       bool **from_snap, struct rc_err *err)
{
	struct rc_journal_entry *now = NULL;
	size_t k = 0;
	int rc = rc_journal_list(journal, run, &now, &k, err);

	if (rc)
		return rc;
	*from_snap = calloc(k ? k : 1, sizeof(**from_snap));
	if (!*from_snap) {
		rc_journal_entries_free(now, k);
		return rc_errf(err, ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < k; i++) {
		(*from_snap)[i] = true;
		for (size_t j = 0; j < *n; j++)
			if (!strcmp((*e)[j].device, now[i].device))
				(*from_snap)[i] = false;
	}
	rc_journal_entries_free(*e, *n);
	*e = now;
	*n = k;
	return 0;
}
