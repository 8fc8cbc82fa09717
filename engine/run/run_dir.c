/* SPDX-License-Identifier: Apache-2.0 */
/* The run directory and where a run's record is (include/rocectl/run_dir.h).  A state file
 * is read back by another process (the timer, `confirm`, `rollback RUN`, `history`): the
 * directories it lives in are made 0700 and must be ours, and nothing is read through a
 * link. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rocectl/confirm.h"
#include "rocectl/run_dir.h"
#include "rocectl/util.h"

#define RECORD "record.json"

bool rc_run_id_ok(const char *id)
{
	size_t n = id ? strnlen(id, 64) : 0;

	/* the journal's rule too (engine/run/journal.c): it names the run's entries' directory */
	if (n == 0 || n >= 64 ||
	    !((id[0] >= '0' && id[0] <= '9') || (id[0] >= 'A' && id[0] <= 'Z') ||
	      (id[0] >= 'a' && id[0] <= 'z')))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!strchr("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz._-",
			    id[i]))
			return false;
	return true;
}

static int path_of(char *buf, size_t len, struct rc_err *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int path_of(char *buf, size_t len, struct rc_err *err, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len)
		return rc_errf(err, ENAMETOOLONG, "the run directory's path is too long");
	return 0;
}

int rc_runs_root(char *buf, size_t len, struct rc_err *err)
{
	const char *state = getenv("ROCECTL_STATE_DIR");
	const char *hist = getenv("ROCECTL_HISTORY");

	if (state && *state)
		return path_of(buf, len, err, "%s/runs", state);
	if (hist && *hist)
		return path_of(buf, len, err, "%s/runs", hist);
	return path_of(buf, len, err, "/var/lib/rocectl/runs");
}

int rc_run_dir(const char *run_id, char *buf, size_t len, struct rc_err *err)
{
	char root[PATH_MAX];
	int rc;

	if (!rc_run_id_ok(run_id))
		return rc_errf(err, EINVAL, "'%s' is not a run id", run_id ? run_id : "");
	rc = rc_runs_root(root, sizeof(root), err);
	return rc ? rc : path_of(buf, len, err, "%s/%s", root, run_id);
}

int rc_run_make_dir(const char *path, struct rc_err *err)
{
	struct stat st;
	int rc = rc_make_parents(path, err);

	if (rc)
		return rc;
	if (mkdir(path, 0700) && errno != EEXIST)
		return rc_errf(err, errno, "cannot create '%s': %s", path, strerror(errno));
	if (lstat(path, &st))
		return rc_errf(err, errno, "cannot read '%s': %s", path, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return rc_errf(err, ENOTDIR, "'%s' is not a directory", path);
	if (st.st_uid != geteuid() && st.st_uid != 0)
		return rc_errf(err, EPERM, "'%s' is owned by another user (uid %u)", path,
			       (unsigned)st.st_uid);
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		return rc_errf(err, EPERM, "'%s' is writable by group or others", path);
	return 0;
}

int rc_run_loc_legacy(const char *confirm_dir, const char *run_id, struct rc_run_loc *loc,
		      struct rc_err *err)
{
	const char *d = confirm_dir;

	memset(loc, 0, sizeof(*loc));
	if (!rc_run_id_ok(run_id))
		return rc_errf(err, EINVAL, "'%s' is not a run id", run_id ? run_id : "");
	snprintf(loc->run_id, sizeof(loc->run_id), "%s", run_id);
	loc->legacy = true;
	if (path_of(loc->dir, sizeof(loc->dir), err, "%s", d) ||
	    path_of(loc->record, sizeof(loc->record), err, "%s/%s.json", d, run_id) ||
	    path_of(loc->lock, sizeof(loc->lock), err, "%s/%s.lock", d, run_id) ||
	    path_of(loc->log, sizeof(loc->log), err, "%s/%s.log", d, run_id) ||
	    path_of(loc->entries, sizeof(loc->entries), err, "%s", d))
		return -ENAMETOOLONG;
	return 0;
}

static int loc_new(const char *journal, const char *run_id, struct rc_run_loc *loc,
		   struct rc_err *err)
{
	int rc;

	memset(loc, 0, sizeof(*loc));
	snprintf(loc->run_id, sizeof(loc->run_id), "%s", run_id);
	rc = rc_run_dir(run_id, loc->dir, sizeof(loc->dir), err);
	if (rc)
		return rc;
	if (path_of(loc->record, sizeof(loc->record), err, "%s/" RECORD, loc->dir) ||
	    path_of(loc->lock, sizeof(loc->lock), err, "%s/record.lock", loc->dir) ||
	    path_of(loc->log, sizeof(loc->log), err, "%s/timer.log", loc->dir) ||
	    path_of(loc->entries, sizeof(loc->entries), err, "%s/journal", loc->dir))
		return -ENAMETOOLONG;
	if (journal && rc_confirm_dir(journal, loc->view_dir, sizeof(loc->view_dir)))
		loc->view_dir[0] = '\0';
	return 0;
}

/* An older run's record: a regular file in CONFIRM_DIR (a link there is a new run's view). */
static bool legacy_record(const char *journal, const char *run_id, char *dir, size_t len)
{
	char path[PATH_MAX];
	struct stat st;

	if (!journal || rc_confirm_dir(journal, dir, len) ||
	    snprintf(path, sizeof(path), "%s/%s.json", dir, run_id) >= (int)sizeof(path))
		return false;
	return lstat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int rc_run_locate(const char *journal, const char *run_id, struct rc_run_loc *loc,
		  struct rc_err *err)
{
	char dir[PATH_MAX];
	struct stat st;
	int rc = loc_new(journal, run_id, loc, err);

	if (rc)
		return rc;
	if (lstat(loc->record, &st) == 0 || !legacy_record(journal, run_id, dir, sizeof(dir)))
		return 0;
	return rc_run_loc_legacy(dir, run_id, loc, err);
}

static int add_id(char ***ids, size_t *n, size_t *cap, const char *id)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*ids)[i], id))
			return 0;
	if (rc_array_reserve((void **)ids, cap, *n + 1, sizeof(**ids), 8))
		return -ENOMEM;
	(*ids)[*n] = strdup(id);
	if (!(*ids)[*n])
		return -ENOMEM;
	(*n)++;
	return 0;
}

/* The run directories that hold a record. */
static int list_runs(char ***ids, size_t *n, size_t *cap)
{
	char root[PATH_MAX];
	struct rc_err err = {0};
	struct dirent *de;
	DIR *d;
	int rc = 0;

	if (rc_runs_root(root, sizeof(root), &err) || !(d = opendir(root)))
		return 0;
	while (!rc && (de = readdir(d))) {
		char path[PATH_MAX + 80];
		struct stat st;

		if (!rc_run_id_ok(de->d_name) ||
		    snprintf(path, sizeof(path), "%s/%s/" RECORD, root, de->d_name) >=
			(int)sizeof(path) ||
		    lstat(path, &st))
			continue;
		rc = add_id(ids, n, cap, de->d_name);
	}
	closedir(d);
	return rc;
}

/* CONFIRM_DIR's older records (regular <run-id>.json files). */
static int list_legacy(const char *journal, char ***ids, size_t *n, size_t *cap)
{
	char dir[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int rc = 0;

	if (!journal || rc_confirm_dir(journal, dir, sizeof(dir)) || !(d = opendir(dir)))
		return 0;
	while (!rc && (de = readdir(d))) {
		size_t l = strlen(de->d_name);
		char id[64];
		struct stat st;

		if (l < 6 || l - 5 >= sizeof(id) || strcmp(de->d_name + l - 5, ".json"))
			continue;
		snprintf(id, sizeof(id), "%.*s", (int)(l - 5), de->d_name);
		if (!rc_run_id_ok(id) || fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode))
			continue;
		rc = add_id(ids, n, cap, id);
	}
	closedir(d);
	return rc;
}

int rc_run_list_records(const char *journal, char ***ids, size_t *n)
{
	size_t cap = 0;
	int rc;

	*ids = NULL;
	*n = 0;
	rc = list_runs(ids, n, &cap);
	if (!rc)
		rc = list_legacy(journal, ids, n, &cap);
	if (rc) {
		rc_run_ids_free(*ids, *n);
		*ids = NULL;
		*n = 0;
	}
	return rc;
}

void rc_run_ids_free(char **ids, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(ids[i]);
	free(ids);
}
