/* The journal (include/rocectl/journal.h): pre-change state on disk before any write. */
#include <dirent.h>
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

static int fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	int rc = 0;

	if (fd < 0)
		return -errno;
	if (fsync(fd))
		rc = -errno;
	close(fd);
	return rc;
}

/* Write `data` to dir/name atomically and durably (engine/util/atomic.c). */
static int write_durable(const char *dir, const char *name, const char *data, struct rc_err *err)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return rc_write_atomic(path, data, strlen(data), 0600, "journal", err);
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
	char rundir[PATH_MAX], name[RC_NAME_MAX + 8];
	cJSON *o = cJSON_CreateObject(), *arr;
	char *text;
	int rc;

	if (!o)
		return rc_errf(err, ENOMEM, "out of memory");
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
	if (!text)
		return rc_errf(err, ENOMEM, "out of memory");

	snprintf(rundir, sizeof(rundir), "%s/%s", dir, run_id);
	snprintf(name, sizeof(name), "%s.json", dev->name);
	rc = mkdir_p(rundir, err);
	if (!rc)
		fsync_dir(dir); /* best effort: the new run directory's entry */
	if (!rc)
		rc = write_durable(rundir, name, text, err);
	free(text);
	return rc;
}

int rc_journal_done(const char *dir, const char *run_id, const char *device, struct rc_err *err)
{
	char path[PATH_MAX], rundir[PATH_MAX];

	snprintf(rundir, sizeof(rundir), "%s/%s", dir, run_id);
	snprintf(path, sizeof(path), "%s/%s.json", rundir, device);
	if (unlink(path) && errno != ENOENT)
		return rc_errf(err, errno, "cannot remove journal '%s': %s", path, strerror(errno));
	fsync_dir(rundir);
	rmdir(rundir); /* only succeeds once every device of the run is done */
	return 0;
}

static char *slurp(const char *path, struct rc_err *err)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	long len;

	if (!f) {
		rc_errf(err, errno, "cannot read journal '%s': %s", path, strerror(errno));
		return NULL;
	}
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || len > (long)JOURNAL_MAX_BYTES ||
	    fseek(f, 0, SEEK_SET)) {
		rc_errf(err, EFBIG, "journal '%s' is unreadable or too big", path);
		fclose(f);
		return NULL;
	}
	buf = malloc((size_t)len + 1);
	if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
		free(buf);
		buf = NULL;
		rc_errf(err, EIO, "cannot read journal '%s'", path);
	} else if (buf) {
		buf[len] = '\0';
	} else {
		rc_errf(err, ENOMEM, "out of memory");
	}
	fclose(f);
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

static int parse_entry(const char *path, const char *text, struct rc_journal_entry *e,
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

/* Sorted names of the entries of `dir` that pass `want`. */
static int list_dir(const char *dir, int want_dirs, char ***out, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **v = NULL;
	size_t cap = 0;

	*n = 0;
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (de->d_name[0] == '.')
			continue;
		if (want_dirs ? de->d_type != DT_DIR && de->d_type != DT_UNKNOWN
			      : (l < 6 || strcmp(de->d_name + l - 5, ".json")))
			continue;
		if (*n == cap) {
			char **nv = realloc(v, (cap = cap ? cap * 2 : 16) * sizeof(*v));

			if (!nv)
				break;
			v = nv;
		}
		v[(*n)++] = strdup(de->d_name);
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

int rc_journal_list(const char *dir, const char *run_id, struct rc_journal_entry **out, size_t *n,
		    struct rc_err *err)
{
	char **runs = NULL, **files;
	size_t nruns = 0, nfiles, cap = 0;
	int rc = list_dir(dir, 1, &runs, &nruns);

	*out = NULL;
	*n = 0;
	if (rc)
		return rc_errf(err, -rc, "cannot read journal '%s': %s", dir, strerror(-rc));
	for (size_t r = 0; r < nruns && !rc; r++) {
		char rundir[PATH_MAX];

		if (run_id && strcmp(run_id, runs[r]))
			continue;
		snprintf(rundir, sizeof(rundir), "%s/%s", dir, runs[r]);
		if (list_dir(rundir, 0, &files, &nfiles))
			continue;
		for (size_t f = 0; f < nfiles && !rc; f++) {
			char path[PATH_MAX];
			char *text;

			snprintf(path, sizeof(path), "%s/%s", rundir, files[f]);
			text = slurp(path, err);
			if (!text) {
				rc = -EIO;
				break;
			}
			if (*n == cap) {
				struct rc_journal_entry *nv =
				    realloc(*out, (cap = cap ? cap * 2 : 8) * sizeof(**out));

				if (!nv) {
					free(text);
					rc = rc_errf(err, ENOMEM, "out of memory");
					break;
				}
				*out = nv;
			}
			rc = parse_entry(path, text, &(*out)[*n], err);
			free(text);
			if (!rc)
				(*n)++;
		}
		free_names(files, nfiles);
	}
	free_names(runs, nruns);
	if (rc) {
		rc_journal_entries_free(*out, *n);
		*out = NULL;
		*n = 0;
	}
	return rc;
}

void rc_journal_entries_free(struct rc_journal_entry *e, size_t n)
{
	for (size_t i = 0; e && i < n; i++) {
		free(e[i].ports);
		free(e[i].native);
	}
	free(e);
}
