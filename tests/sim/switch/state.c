/* SPDX-License-Identifier: Apache-2.0 */
/* One JSON file per switch, read and written under an exclusive flock.
 *
 * Many SSH sessions and REST threads touch the same switch at once, so every command is a
 * locked read-modify-write, and the file is replaced atomically (tmp + rename) so that a
 * reader without the lock never sees half a file.  The lock is a separate file because
 * rename() swaps the JSON file's inode. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sim.h"

#define STATE_MAX_BYTES (64L * 1024 * 1024)

static int read_file(const char *path, char **data, size_t *len, size_t max)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	struct sbuf sb;
	sb_init(&sb);
	char buf[65536];
	for (;;) {
		ssize_t r = read(fd, buf, sizeof(buf));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			close(fd);
			sb_free(&sb);
			return -e;
		}
		if (r == 0)
			break;
		if (sb.len + (size_t)r > max) {
			close(fd);
			sb_free(&sb);
			return -EFBIG;
		}
		sb_addn(&sb, buf, (size_t)r);
	}
	close(fd);
	if (!sb.buf)
		sb_addn(&sb, "", 0);
	*data = sb.buf;
	*len = sb.len;
	return 0;
}

int sim_read_secret(const char *path, char *buf, size_t len)
{
	char *data;
	size_t n;
	int rc = read_file(path, &data, &n, 4096);
	if (rc < 0)
		return rc;
	while (n && (data[n - 1] == '\n' || data[n - 1] == '\r'))
		n--;
	if (n >= len) {
		free(data);
		return -ENAMETOOLONG;
	}
	memcpy(buf, data, n);
	buf[n] = '\0';
	free(data);
	return 0;
}

int sim_name_by_addr(const char *run_dir, const char *addr, char *name, size_t len, char *err,
		     size_t errlen)
{
	char path[SIM_PATH_MAX];
	if (!is_safe_name(addr)) {
		snprintf(err, errlen, "invalid server address '%s'", addr);
		return -EINVAL;
	}
	snprintf(path, sizeof(path), "%s/by-addr/%s", run_dir, addr);
	int rc = sim_read_secret(path, name, len);
	if (rc < 0) {
		snprintf(err, errlen, "no simulated switch at address '%s'", addr);
		return rc;
	}
	if (!is_safe_name(name)) {
		snprintf(err, errlen, "bad switch name for address '%s'", addr);
		return -EINVAL;
	}
	return 0;
}

static int write_atomic(const char *path, const cJSON *st, char *err, size_t errlen);

static int lock_switch(const char *run_dir, const char *name, char *err, size_t errlen)
{
	char path[SIM_PATH_MAX];
	snprintf(path, sizeof(path), "%s/switches/%s.lock", run_dir, name);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0664);
	if (fd < 0) {
		int e = errno;
		snprintf(err, errlen, "cannot open lock '%s': %s", path, strerror(e));
		return -e;
	}
	while (flock(fd, LOCK_EX) < 0) {
		if (errno == EINTR)
			continue;
		int e = errno;
		close(fd);
		snprintf(err, errlen, "cannot lock '%s': %s", path, strerror(e));
		return -e;
	}
	return fd;
}

int sim_switch_open(const char *run_dir, const char *name, struct sim_switch *sw, char *err,
		    size_t errlen)
{
	memset(sw, 0, sizeof(*sw));
	sw->lock_fd = -1;
	if (!is_safe_name(name)) {
		snprintf(err, errlen, "invalid switch name '%s'", name);
		return -EINVAL;
	}
	snprintf(sw->name, sizeof(sw->name), "%s", name);
	snprintf(sw->run_dir, sizeof(sw->run_dir), "%s", run_dir);
	snprintf(sw->path, sizeof(sw->path), "%s/switches/%s.json", run_dir, name);
	int fd = lock_switch(run_dir, name, err, errlen);
	if (fd < 0)
		return fd;
	sw->lock_fd = fd;

	char *data;
	size_t len;
	int rc = read_file(sw->path, &data, &len, STATE_MAX_BYTES);
	if (rc < 0) {
		snprintf(err, errlen, "cannot read '%s': %s", sw->path, strerror(-rc));
		sim_switch_close(sw);
		return rc;
	}
	sw->st = cJSON_ParseWithLength(data, len);
	free(data);
	if (!cJSON_IsObject(sw->st)) {
		snprintf(err, errlen, "cannot parse '%s'", sw->path);
		sim_switch_close(sw);
		return -EINVAL;
	}
	/* a timed commit whose deadline has passed is rolled back before anyone reads the
	 * state (timer.c) */
	if (sim_timer_expire(sw->st, time(NULL))) {
		rc = write_atomic(sw->path, sw->st, err, errlen);
		if (rc < 0) {
			sim_switch_close(sw);
			return rc;
		}
	}
	/* counters under a congestion state read as of now (rates.c) */
	sim_rates_apply(sw->st);
	return 0;
}

static int write_atomic(const char *path, const cJSON *st, char *err, size_t errlen)
{
	char tmp[SIM_PATH_MAX + 32];
	char *text = cJSON_PrintUnformatted(st);
	if (!text) {
		snprintf(err, errlen, "cannot serialise state for '%s'", path);
		return -ENOMEM;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0664);
	if (fd < 0) {
		int e = errno;
		cJSON_free(text);
		snprintf(err, errlen, "cannot create '%s': %s", tmp, strerror(e));
		return -e;
	}
	size_t len = strlen(text), off = 0;
	while (off < len) {
		ssize_t w = write(fd, text + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			int e = errno;
			close(fd);
			unlink(tmp);
			cJSON_free(text);
			snprintf(err, errlen, "cannot write '%s': %s", tmp, strerror(e));
			return -e;
		}
		off += (size_t)w;
	}
	cJSON_free(text);
	/* fchmod: the REST server and the CLI run as the lab user, simctl as root; the umask
	 * must not make the file unreadable to either */
	fchmod(fd, 0664);
	if (close(fd) < 0 || rename(tmp, path) < 0) {
		int e = errno;
		unlink(tmp);
		snprintf(err, errlen, "cannot replace '%s': %s", path, strerror(e));
		return -e;
	}
	return 0;
}

int sim_switch_save(struct sim_switch *sw, char *err, size_t errlen)
{
	sim_timer_spawn(sw->st, sw->run_dir, sw->name);
	return write_atomic(sw->path, sw->st, err, errlen);
}

void sim_switch_close(struct sim_switch *sw)
{
	cJSON_Delete(sw->st);
	sw->st = NULL;
	if (sw->lock_fd >= 0)
		close(sw->lock_fd); /* releases the flock */
	sw->lock_fd = -1;
}

int sim_switch_create(const char *run_dir, const char *name, cJSON *st, char *err, size_t errlen)
{
	char path[SIM_PATH_MAX];
	if (!is_safe_name(name)) {
		snprintf(err, errlen, "invalid switch name '%s'", name);
		return -EINVAL;
	}
	int fd = lock_switch(run_dir, name, err, errlen);
	if (fd < 0)
		return fd;
	fchmod(fd, 0664);
	snprintf(path, sizeof(path), "%s/switches/%s.json", run_dir, name);
	int rc = write_atomic(path, st, err, errlen);
	close(fd);
	return rc;
}
