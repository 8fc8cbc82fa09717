/* SPDX-License-Identifier: Apache-2.0 */
/* The journal (include/rocectl/journal.h): pre-change state on disk before any write. */
#include <dirent.h>
#include <limits.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cJSON.h>

#include "rocectl/journal.h"
#include "rocectl/util.h"

/* Everything here works through directory descriptors with O_NOFOLLOW below DIR: a run or
 * file name is never a path, a device name becomes a file name by rc_name_to_file(), and a
 * run id must be a plain name (run_id_is_safe), so nothing can reach outside DIR. */

/* A journal file is small; anything bigger is not ours. */
#define JOURNAL_MAX_BYTES (16u << 20)

void rc_journal_new_run_id(char *buf, size_t len)
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	snprintf(buf, len, "%04d%02d%02dT%02d%02d%02d.%03ldZ-%d", tm.tm_year + 1900, tm.tm_mon + 1,
		 tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000000, (int)getpid());
}

/* A run id is a file name of the journal: it may not name anything outside it. */
static bool run_id_is_safe(const char *id)
{
	size_t n = strnlen(id, 64);

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

static int mkdir_p(const char *path, struct rc_err *err)
{
	char tmp[PATH_MAX];

	if (snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp))
		return rc_errf(err, ENAMETOOLONG, "journal path too long: '%s'", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0700) && errno != EEXIST)
			return rc_errf(err, errno, "cannot create journal directory '%s': %s", tmp,
				       strerror(errno));
		*p = '/';
	}
	if (mkdir(tmp, 0700) && errno != EEXIST)
		return rc_errf(err, errno, "cannot create journal directory '%s': %s", tmp,
			       strerror(errno));
	return 0;
}

/* DIR itself (the operator's choice, symlinks allowed) and DIR/RUN, which must be a real
 * directory: O_NOFOLLOW, so that a symlink planted in the journal is never written through
 * or read from (openat(2)). */
static int open_run(const char *dir, const char *run_id, bool create, int *dfd, int *rfd,
		    struct rc_err *err)
{
	*dfd = *rfd = -1;
	if (!run_id_is_safe(run_id))
		return rc_errf(err, EINVAL, "'%s' is not a journal run id", run_id);
	*dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (*dfd < 0)
		return rc_errf(err, errno, "cannot open journal '%s': %s", dir, strerror(errno));
	if (create && mkdirat(*dfd, run_id, 0700) == 0)
		fsync(*dfd); /* best effort: the new run directory's entry */
	*rfd = openat(*dfd, run_id, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (*rfd < 0) {
		int e = errno;

		close(*dfd);
		*dfd = -1;
		return rc_errf(err, e, "cannot open journal run '%s/%s': %s", dir, run_id,
			       e == ELOOP || e == ENOTDIR ? "not a directory" : strerror(e));
	}
	return 0;
}

static void close_run(int dfd, int rfd)
{
	if (rfd >= 0)
		close(rfd);
	if (dfd >= 0)
		close(dfd);
}

char *rc_journal_entry_text(const char *run_id, const struct rc_device *dev, const char *driver,
			    const struct rc_port_state *ports, size_t n, const char *native)
{
	cJSON *o = cJSON_CreateObject(), *arr;
	char *text;

	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "version", 1);
	cJSON_AddStringToObject(o, "run_id", run_id);
	cJSON_AddStringToObject(o, "device", dev->name);
	cJSON_AddStringToObject(o, "driver", driver);
	cJSON_AddStringToObject(o, "address", dev->address);
	arr = cJSON_AddArrayToObject(o, "ports");
	for (size_t i = 0; i < n; i++) {
		cJSON *p = cJSON_CreateObject();

		cJSON_AddStringToObject(p, "name", ports[i].name);
		cJSON_AddItemToObject(p, "qos", rc_port_qos_to_cjson(&ports[i].qos));
		cJSON_AddItemToArray(arr, p);
	}
	if (native)
		cJSON_AddStringToObject(o, "native", native);
	text = cJSON_Print(o);
	cJSON_Delete(o);
	return text;
}

int rc_journal_save(const char *dir, const char *run_id, const struct rc_device *dev,
		    const char *driver, const struct rc_port_state *ports, size_t n,
		    struct rc_err *err)
{
	return rc_journal_save_native(dir, run_id, dev, driver, ports, n, NULL, err);
}

int rc_journal_save_native(const char *dir, const char *run_id, const struct rc_device *dev,
			   const char *driver, const struct rc_port_state *ports, size_t n,
			   const char *native, struct rc_err *err)
{
	char name[RC_NAME_MAX * 3 + 8];
	char *text;
	int rc, dfd, rfd;

	if (rc_name_to_file(dev->name, ".json", name, sizeof(name)))
		return rc_errf(err, EINVAL, "'%s': not a name a journal file can have", dev->name);
	text = rc_journal_entry_text(run_id, dev, driver, ports, n, native);
	if (!text)
		return rc_errf(err, ENOMEM, "out of memory");
	rc = mkdir_p(dir, err);
	/* rc_journal_done of another device of the run removes the run directory while it is
	 * empty, as it is between our mkdirat and our write when the run's other entries are
	 * done: the open or the write then finds no directory (ENOENT) and is made again */
	for (int attempt = 0; !rc; attempt++) {
		rc = open_run(dir, run_id, true, &dfd, &rfd, err);
		if (rc == -ENOENT && attempt < 3) {
			rc = 0;
			continue;
		}
		if (rc)
			break;
		/* atomic and durable (engine/util/atomic.c), 0600: it holds a configuration */
		rc = rc_write_atomic_at(rfd, name, text, strlen(text), 0600, "journal", err);
		close_run(dfd, rfd);
		if (rc == -ENOENT && attempt < 3) {
			rc = 0;
			continue;
		}
		if (rc)
			rc_err_prefix(err, "journal run '%s/%s'", dir, run_id);
		break;
	}
	free(text);
	return rc;
}

int rc_journal_done(const char *dir, const char *run_id, const char *device, struct rc_err *err)
{
	char name[RC_NAME_MAX * 3 + 8];
	struct rc_err ignored;
	int dfd, rfd, rc = 0;

	if (!err)
		err = &ignored;
	if (rc_name_to_file(device, ".json", name, sizeof(name)))
		return rc_errf(err, EINVAL, "'%s': not a name a journal file can have", device);
	rc = open_run(dir, run_id, false, &dfd, &rfd, err);
	if (rc)
		return rc == -ENOENT ? 0 : rc;
	if (unlinkat(rfd, name, 0) && errno != ENOENT)
		rc = rc_errf(err, errno, "cannot remove journal '%s/%s/%s': %s", dir, run_id, name,
			     strerror(errno));
	fsync(rfd);
	unlinkat(dfd, run_id, AT_REMOVEDIR); /* only succeeds once every device is done */
	fsync(dfd);
	close_run(dfd, rfd);
	return rc;
}

/* A journal file, read without following a symlink and only if it is a regular file of a
 * sane size. */
static char *slurp_at(int rfd, const char *name, const char *path, struct rc_err *err)
{
	int fd = openat(rfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	char *buf = NULL;
	size_t got = 0;

	if (fd < 0) {
		rc_errf(err, errno, "cannot read journal '%s': %s", path,
			errno == ELOOP ? "a symbolic link" : strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > (off_t)JOURNAL_MAX_BYTES) {
		rc_errf(err, EFBIG, "journal '%s' is not a regular file of at most 16 MiB", path);
		close(fd);
		return NULL;
	}
	/* a journal says what to write back to a device: only one we (or root) wrote */
	if (rc_check_ours(&st, "journal", path, err)) {
		close(fd);
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
		return NULL;
	}
	buf[got] = '\0';
	if (got != (size_t)st.st_size || strlen(buf) != got) {
		rc_errf(err, EIO, "journal '%s' is truncated or not text", path);
		free(buf);
		return NULL;
	}
	return buf;
}

static int copy_str(struct rc_err *err, const char *path, const cJSON *o, const char *key,
		    char *dst, size_t len)
{
	const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));

	if (!s || strlen(s) >= len)
		return rc_errf(err, EINVAL, "journal '%s': bad or missing '%s'", path, key);
	memcpy(dst, s, strlen(s) + 1);
	return 0;
}

/* Optional: an entry written without a native snapshot restores by values. */
static int copy_native(struct rc_err *err, const char *path, const cJSON *o,
		       struct rc_journal_entry *e)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "native");

	if (!v || cJSON_IsNull(v))
		return 0;
	if (!cJSON_IsString(v))
		return rc_errf(err, EINVAL, "journal '%s': 'native' is not a string", path);
	e->native = strdup(v->valuestring);
	return e->native ? 0 : rc_errf(err, ENOMEM, "out of memory");
}

int rc_journal_entry_parse(const char *path, const char *text, struct rc_journal_entry *e,
			   struct rc_err *err)
{
	cJSON *o = cJSON_Parse(text);
	const cJSON *ports, *p;
	int rc;
	size_t i = 0;

	memset(e, 0, sizeof(*e));
	if (!o)
		return rc_errf(err, EINVAL, "journal '%s' is not valid JSON", path);
	rc = copy_str(err, path, o, "run_id", e->run_id, sizeof(e->run_id));
	if (!rc)
		rc = copy_str(err, path, o, "device", e->device, sizeof(e->device));
	if (!rc)
		rc = copy_str(err, path, o, "driver", e->driver, sizeof(e->driver));
	if (!rc)
		rc = copy_str(err, path, o, "address", e->address, sizeof(e->address));
	ports = cJSON_GetObjectItemCaseSensitive(o, "ports");
	if (!rc && !cJSON_IsArray(ports))
		rc = rc_errf(err, EINVAL, "journal '%s': missing 'ports'", path);
	if (!rc) {
		e->n_ports = (size_t)cJSON_GetArraySize(ports);
		e->ports = calloc(e->n_ports ? e->n_ports : 1, sizeof(*e->ports));
		if (!e->ports)
			rc = rc_errf(err, ENOMEM, "out of memory");
	}
	cJSON_ArrayForEach(p, ports)
	{
		if (rc)
			break;
		rc = copy_str(err, path, p, "name", e->ports[i].name, sizeof(e->ports[i].name));
		if (!rc)
			rc = rc_port_qos_from_cjson(cJSON_GetObjectItemCaseSensitive(p, "qos"),
						    &e->ports[i].qos, err);
		if (rc)
			rc_err_prefix(err, "journal '%s'", path);
		i++;
	}
	if (!rc)
		rc = copy_native(err, path, o, e);
	cJSON_Delete(o);
	if (rc) {
		free(e->ports);
		e->ports = NULL;
	}
	return rc;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names in the directory open as `fd` (not consumed): runs (directories, or any
 * non-hidden name when want_dirs: a run that is not a directory is reported at open) or
 * journal files (*.json). */
static int list_dir(int fd, int want_dirs, char ***out, size_t *n)
{
	int dup_fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
	struct dirent *de;
	char **v = NULL;
	size_t cap = 0;

	*n = 0;
	*out = NULL;
	if (!d) {
		if (dup_fd >= 0)
			close(dup_fd);
		return -errno;
	}
	rewinddir(d);
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (de->d_name[0] == '.')
			continue;
		if (!want_dirs && (l < 6 || strcmp(de->d_name + l - 5, ".json")))
			continue;
		if (rc_array_reserve((void **)&v, &cap, *n + 1, sizeof(*v), 16))
			break;
		if (!(v[*n] = strdup(de->d_name)))
			break;
		(*n)++;
	}
	closedir(d);
	if (*n)
		qsort(v, *n, sizeof(*v), cmp_names);
	*out = v;
	return 0;
}

static void free_names(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static struct rc_journal_entry *grow(struct rc_journal_entry **v, size_t *n, size_t *cap)
{
	if (rc_array_reserve((void **)v, cap, *n + 1, sizeof(**v), 8))
		return NULL;
	memset(&(*v)[*n], 0, sizeof(**v));
	return &(*v)[(*n)++];
}

/* The device a journal file is about, from its name ("rack1%2Fleaf01.json"). */
static void device_of_file(const char *file, char *dev, size_t len)
{
	size_t o = 0;

	for (const char *p = file; *p && strcmp(p, ".json") && o + 1 < len; p++) {
		if (!strncmp(p, "%2F", 3)) {
			dev[o++] = '/';
			p += 2;
		} else {
			dev[o++] = (*p >= 0x20 && *p < 0x7f) ? *p : '?';
		}
	}
	dev[o] = '\0';
}

/* One journal file into `e`; a file that cannot be used becomes an entry with `bad` set,
 * so that the caller reports it and goes on with the others. */
static void read_entry(int rfd, const char *dir, const char *run, const char *file,
		       struct rc_journal_entry *e)
{
	char path[PATH_MAX], want[RC_NAME_MAX * 3 + 8];
	struct rc_err err = {0};
	char *text;

	snprintf(path, sizeof(path), "%s/%s/%s", dir, run, file);
	text = slurp_at(rfd, file, path, &err);
	if (text && !rc_journal_entry_parse(path, text, e, &err)) {
		if (strcmp(e->run_id, run) ||
		    rc_name_to_file(e->device, ".json", want, sizeof(want)) || strcmp(want, file))
			rc_errf(&err, EINVAL, "journal '%s' names another run or device", path);
		else
			err.msg[0] = '\0';
	}
	free(text);
	if (!err.msg[0])
		return;
	free(e->ports);
	memset(e, 0, sizeof(*e));
	snprintf(e->run_id, sizeof(e->run_id), "%s", run);
	device_of_file(file, e->device, sizeof(e->device));
	snprintf(e->bad, sizeof(e->bad), "%s", err.msg);
}

static int list_run(int dfd, const char *dir, const char *run, struct rc_journal_entry **out,
		    size_t *n, size_t *cap)
{
	int rfd = openat(dfd, run, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	char **files = NULL;
	size_t nfiles = 0;
	int rc = 0;

	if (rfd < 0) {
		struct rc_journal_entry *e = grow(out, n, cap);

		if (!e)
			return -ENOMEM;
		snprintf(e->run_id, sizeof(e->run_id), "%.63s", run);
		snprintf(e->bad, sizeof(e->bad), "journal run '%s/%s' is not a directory (%s)", dir,
			 run, strerror(errno));
		return 0;
	}
	if (list_dir(rfd, 0, &files, &nfiles) == 0) {
		for (size_t f = 0; f < nfiles; f++) {
			struct rc_journal_entry *e = grow(out, n, cap);

			if (!e) {
				rc = -ENOMEM;
				break;
			}
			read_entry(rfd, dir, run, files[f], e);
		}
	}
	free_names(files, nfiles);
	close(rfd);
	return rc;
}

int rc_journal_list(const char *dir, const char *run_id, struct rc_journal_entry **out, size_t *n,
		    struct rc_err *err)
{
	char **runs = NULL;
	size_t nruns = 0, cap = 0;
	int dfd, rc = 0;

	*out = NULL;
	*n = 0;
	if (run_id && !run_id_is_safe(run_id))
		return rc_errf(err, EINVAL, "'%s' is not a journal run id", run_id);
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return errno == ENOENT ? 0
				       : rc_errf(err, errno, "cannot read journal '%s': %s", dir,
						 strerror(errno));
	rc = list_dir(dfd, 1, &runs, &nruns);
	for (size_t r = 0; !rc && r < nruns; r++)
		if (!run_id || !strcmp(run_id, runs[r]))
			rc = list_run(dfd, dir, runs[r], out, n, &cap);
	free_names(runs, nruns);
	close(dfd);
	if (rc) {
		rc_journal_entries_free(*out, *n);
		*out = NULL;
		*n = 0;
		return rc_errf(err, -rc, "cannot read journal '%s': %s", dir, strerror(-rc));
	}
	return 0;
}

void rc_journal_entries_free(struct rc_journal_entry *e, size_t n)
{
	for (size_t i = 0; e && i < n; i++) {
		free(e[i].ports);
		free(e[i].native);
	}
	free(e);
}
