/* SPDX-License-Identifier: Apache-2.0 */
/* Commit-confirm state (include/rocectl/confirm.h): the duration parser, the state machine
 * and the run's state file.  The file is read back by a different process (the timer,
 * `confirm`, `history`), so it is parsed like any input: a symlink, a file too big or a
 * field out of range is refused, never half-used. */
#include <cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rocectl/confirm.h"
#include "rocectl/run_dir.h"
#include "rocectl/util.h"

#define STATE_MAX_BYTES (64u << 10)

int rc_confirm_parse_duration(const char *s, uint32_t *seconds, struct rc_err *err)
{
	static const struct {
		char unit;
		uint64_t mult;
	} units[] = {{'h', 3600}, {'m', 60}, {'s', 1}};
	const char *p = s;
	uint64_t total = 0;
	size_t next = 0; /* units must come in descending order, each once */

	if (!s || !*s)
		return rc_errf(err, EINVAL, "an empty duration; say e.g. 20s, 5m or 1h");
	while (*p) {
		uint64_t v = 0;
		const char *d = p;
		size_t u;

		while (*p >= '0' && *p <= '9') {
			v = v * 10 + (uint64_t)(*p - '0');
			if (v > RC_CONFIRM_MAX_S)
				return rc_errf(err, ERANGE, "duration '%s' is longer than 24h", s);
			p++;
		}
		if (p == d)
			return rc_errf(err, EINVAL,
				       "'%s' is not a duration (a number with s, m or h: 20s, 5m, "
				       "1m30s)",
				       s);
		if (!*p) { /* plain seconds, only alone */
			if (d != s)
				return rc_errf(err, EINVAL, "'%s': a unit is missing at the end",
					       s);
			total = v;
			break;
		}
		for (u = next; u < sizeof(units) / sizeof(units[0]); u++)
			if (*p == units[u].unit)
				break;
		if (u == sizeof(units) / sizeof(units[0]))
			return rc_errf(err, EINVAL,
				       "'%s' is not a duration (units h, m, s, in that order)", s);
		total += v * units[u].mult;
		if (total > RC_CONFIRM_MAX_S)
			return rc_errf(err, ERANGE, "duration '%s' is longer than 24h", s);
		next = u + 1;
		p++;
	}
	if (total < RC_CONFIRM_MIN_S)
		return rc_errf(err, ERANGE, "duration '%s' is shorter than 1s", s);
	*seconds = (uint32_t)total;
	return 0;
}

int rc_confirm_next(enum rc_confirm_state from, enum rc_confirm_event ev, enum rc_confirm_state *to)
{
	switch (from) {
	case RC_CONFIRM_APPLYING:
		if (ev == RC_CONFIRM_EV_APPLIED)
			*to = RC_CONFIRM_PENDING;
		else if (ev == RC_CONFIRM_EV_DEADLINE || ev == RC_CONFIRM_EV_ROLLBACK)
			*to = RC_CONFIRM_ROLLING_BACK;
		else
			return ev == RC_CONFIRM_EV_CONFIRM ? -EBUSY : -EINVAL;
		return 0;
	case RC_CONFIRM_PENDING:
		if (ev == RC_CONFIRM_EV_CONFIRM)
			*to = RC_CONFIRM_CONFIRMED;
		else if (ev == RC_CONFIRM_EV_DEADLINE || ev == RC_CONFIRM_EV_ROLLBACK)
			*to = RC_CONFIRM_ROLLING_BACK;
		else
			return -EINVAL;
		return 0;
	case RC_CONFIRM_CONFIRMED:
		/* a timer that wakes after a confirm finds nothing to do */
		return ev == RC_CONFIRM_EV_CONFIRM || ev == RC_CONFIRM_EV_DEADLINE ? -EALREADY
										   : -EINVAL;
	case RC_CONFIRM_ROLLING_BACK:
		if (ev == RC_CONFIRM_EV_ROLLBACK_DONE)
			*to = RC_CONFIRM_ROLLED_BACK;
		else if (ev == RC_CONFIRM_EV_ROLLBACK_FAILED)
			*to = RC_CONFIRM_ROLLBACK_FAILED;
		else
			return ev == RC_CONFIRM_EV_CONFIRM ? -ESTALE : -EINVAL;
		return 0;
	case RC_CONFIRM_ROLLED_BACK:
		return ev == RC_CONFIRM_EV_CONFIRM ? -ESTALE : -EINVAL;
	case RC_CONFIRM_ROLLBACK_FAILED:
		/* a later `rocectl rollback RUN` may retry; confirming is still too late */
		if (ev == RC_CONFIRM_EV_ROLLBACK) {
			*to = RC_CONFIRM_ROLLING_BACK;
			return 0;
		}
		return ev == RC_CONFIRM_EV_CONFIRM ? -ESTALE : -EINVAL;
	}
	return -EINVAL;
}

static const char *const state_names[] = {"pending",	 "confirmed",	    "rolling back",
					  "rolled back", "rollback failed", "applying"};

const char *rc_confirm_state_name(enum rc_confirm_state s)
{
	return (unsigned)s < sizeof(state_names) / sizeof(state_names[0]) ? state_names[s] : "?";
}

static int state_from_name(const char *s, enum rc_confirm_state *out)
{
	for (size_t i = 0; i < sizeof(state_names) / sizeof(state_names[0]); i++)
		if (!strcmp(s, state_names[i])) {
			*out = (enum rc_confirm_state)i;
			return 0;
		}
	return -EINVAL;
}

int rc_confirm_dir(const char *journal_dir, char *buf, size_t len)
{
	size_t n = strlen(journal_dir);
	int w;

	while (n > 1 && journal_dir[n - 1] == '/')
		n--;
	while (n > 0 && journal_dir[n - 1] != '/')
		n--;
	/* "journal" (no slash): the current directory */
	w = n ? snprintf(buf, len, "%.*sconfirm", (int)n, journal_dir)
	      : snprintf(buf, len, "confirm");
	return w < 0 || (size_t)w >= len ? -ENAMETOOLONG : 0;
}

static void copy_str(const cJSON *o, const char *key, char *dst, size_t len)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (cJSON_IsString(v) && strlen(v->valuestring) < len)
		snprintf(dst, len, "%s", v->valuestring);
}

static bool get_num(const cJSON *o, const char *key, double min, double max, double *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!cJSON_IsNumber(v) || v->valuedouble < min || v->valuedouble > max)
		return false;
	*out = v->valuedouble;
	return true;
}

/* The newest change of the run's record, log and kept entries (a restore drops one entry per
 * device, the timer logs each step), never older than `changed`. */
static time_t last_move(const struct rc_run_loc *l, time_t changed)
{
	char entries[PATH_MAX + 80];
	const char *paths[] = {l->record, l->log, entries};
	time_t t = changed;

	snprintf(entries, sizeof(entries), "%s/%s", l->entries, l->run_id);
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		struct stat st;

		if (lstat(paths[i], &st) == 0 && st.st_mtime > t)
			t = st.st_mtime;
	}
	return t;
}

int rc_confirm_load(const struct rc_run_loc *l, struct rc_confirm *c, struct rc_err *err)
{
	const char *path = l->record, *id = l->run_id;
	char *text;
	const cJSON *st;
	cJSON *root;
	double deadline, changed, pid, ndev, num;

	memset(c, 0, sizeof(*c));
	text = rc_read_file(path, STATE_MAX_BYTES, RC_READ_NOFOLLOW | RC_READ_OURS, NULL, err);
	if (!text)
		return -errno;
	root = cJSON_Parse(text);
	free(text);
	st = cJSON_GetObjectItemCaseSensitive(root, "state");
	if (!cJSON_IsString(st) || state_from_name(st->valuestring, &c->state) ||
	    !get_num(root, "deadline", 0, 1e11, &deadline) ||
	    !get_num(root, "changed", 0, 1e11, &changed) ||
	    !get_num(root, "timer_pid", 0, INT_MAX, &pid) ||
	    !get_num(root, "devices", 0, 1e7, &ndev)) {
		cJSON_Delete(root);
		return rc_errf(err, EINVAL, "run record '%s' is not rocectl's", path);
	}
	snprintf(c->run_id, sizeof(c->run_id), "%s", id);
	c->deadline = (time_t)deadline;
	c->changed = (time_t)changed;
	c->timer_pid = (pid_t)pid;
	c->n_devices = (size_t)ndev;
	/* kept since the run record has owners: absent in older files (then 0, unknown) */
	if (get_num(root, "timer_start", 0, 1e18, &num))
		c->timer_start = (uint64_t)num;
	if (get_num(root, "owner_pid", 0, INT_MAX, &num))
		c->owner.pid = (pid_t)num;
	if (get_num(root, "owner_start", 0, 1e18, &num))
		c->owner.start = (uint64_t)num;
	if (get_num(root, "grace_s", 0, RC_CONFIRM_MAX_S, &num))
		c->grace_s = (uint32_t)num;
	c->activity = last_move(l, c->changed);
	copy_str(root, "owner_host", c->owner.host, sizeof(c->owner.host));
	copy_str(root, "command", c->command, sizeof(c->command));
	copy_str(root, "reason", c->reason, sizeof(c->reason));
	copy_str(root, "by", c->by, sizeof(c->by));
	copy_str(root, "inventory", c->inventory, sizeof(c->inventory));
	copy_str(root, "root", c->root, sizeof(c->root));
	c->accept_new_host_keys =
	    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "accept_new_host_keys"));
	cJSON_Delete(root);
	return 0;
}

/* The record's directory (0700, ours); a new run's record is also linked from CONFIRM_DIR
 * for tools that read the older layout (include/rocectl/run_dir.h). */
static int make_home(const struct rc_run_loc *l, struct rc_err *err)
{
	char abs[PATH_MAX], link[PATH_MAX + 80];
	int rc;

	if (l->legacy) {
		if (mkdir(l->dir, 0700) && errno != EEXIST)
			return rc_errf(err, errno, "cannot create '%s': %s", l->dir,
				       strerror(errno));
		return 0;
	}
	rc = rc_run_make_dir(l->dir, err);
	if (rc || !l->view_dir[0] || !realpath(l->dir, abs))
		return rc;
	if (mkdir(l->view_dir, 0700) && errno != EEXIST)
		return 0; /* a view is a convenience: the record is what counts */
	snprintf(link, sizeof(link), "%s/%s.json", l->view_dir, l->run_id);
	if (strlen(abs) + 16 < sizeof(abs)) {
		char target[PATH_MAX + 16];

		snprintf(target, sizeof(target), "%s/record.json", abs);
		if (symlink(target, link) == 0 || errno == EEXIST) {
			snprintf(link, sizeof(link), "%s/%s.log", l->view_dir, l->run_id);
			snprintf(target, sizeof(target), "%s/timer.log", abs);
			if (symlink(target, link)) {
				/* EEXIST: made by an earlier save */
			}
		}
	}
	return 0;
}

int rc_confirm_save(const struct rc_run_loc *l, const struct rc_confirm *c, struct rc_err *err)
{
	char *text;
	cJSON *o;
	int rc;

	if (strcmp(c->run_id, l->run_id))
		return rc_errf(err, EINVAL, "run %s saved as run %s", c->run_id, l->run_id);
	rc = make_home(l, err);
	if (rc)
		return rc;
	o = cJSON_CreateObject();
	if (!o || !cJSON_AddStringToObject(o, "run_id", c->run_id) ||
	    !cJSON_AddStringToObject(o, "command", c->command) ||
	    !cJSON_AddStringToObject(o, "state", rc_confirm_state_name(c->state)) ||
	    !cJSON_AddNumberToObject(o, "deadline", (double)c->deadline) ||
	    !cJSON_AddNumberToObject(o, "changed", (double)c->changed) ||
	    !cJSON_AddNumberToObject(o, "timer_pid", (double)c->timer_pid) ||
	    !cJSON_AddNumberToObject(o, "timer_start", (double)c->timer_start) ||
	    !cJSON_AddNumberToObject(o, "owner_pid", (double)c->owner.pid) ||
	    !cJSON_AddNumberToObject(o, "owner_start", (double)c->owner.start) ||
	    !cJSON_AddStringToObject(o, "owner_host", c->owner.host) ||
	    !cJSON_AddNumberToObject(o, "grace_s", (double)c->grace_s) ||
	    !cJSON_AddNumberToObject(o, "devices", (double)c->n_devices) ||
	    !cJSON_AddStringToObject(o, "reason", c->reason) ||
	    !cJSON_AddStringToObject(o, "by", c->by) ||
	    !cJSON_AddStringToObject(o, "inventory", c->inventory) ||
	    !cJSON_AddStringToObject(o, "root", c->root) ||
	    !cJSON_AddBoolToObject(o, "accept_new_host_keys", c->accept_new_host_keys) ||
	    !(text = cJSON_Print(o))) {
		cJSON_Delete(o);
		return rc_errf(err, ENOMEM, "out of memory");
	}
	cJSON_Delete(o);
	rc = rc_write_atomic(l->record, text, strlen(text), 0600, "run record", err);
	free(text);
	return rc;
}

int rc_confirm_lock(const struct rc_run_loc *l, int *fd, struct rc_err *err)
{
	const char *path = l->lock;
	struct stat st;
	int rc;

	/* a run directory is made by its record's first save, never by a lock (a mistyped
	 * run id leaves nothing behind) */
	if (!l->legacy && lstat(l->dir, &st))
		return rc_errf(err, ENOENT, "run %s has no record", l->run_id);
	rc = l->legacy ? make_home(l, err) : 0;
	if (rc)
		return rc;
	*fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (*fd < 0)
		return rc_errf(err, errno, "cannot open '%s': %s", path, strerror(errno));
	while (flock(*fd, LOCK_EX) < 0)
		if (errno != EINTR) {
			rc = rc_errf(err, errno, "cannot lock '%s': %s", path, strerror(errno));
			close(*fd);
			*fd = -1;
			return rc;
		}
	return 0;
}

/* The entries left in ENTRIES/<run-id>/: plain files, as rc_journal writes them. */
static int remove_entries(const char *path, struct rc_err *err)
{
	DIR *d = opendir(path);
	struct dirent *de;
	int rc = 0;

	if (!d)
		return errno == ENOENT
			   ? 0
			   : rc_errf(err, errno, "cannot open '%s': %s", path, strerror(errno));
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    unlinkat(dirfd(d), de->d_name, 0) && !rc)
			rc = rc_errf(err, errno, "cannot delete '%s/%s': %s", path, de->d_name,
				     strerror(errno));
	closedir(d);
	if (!rc && rmdir(path))
		rc = rc_errf(err, errno, "cannot delete '%s': %s", path, strerror(errno));
	return rc;
}

/* A file of the run's, gone (-ENOENT is fine: never made). */
static int remove_file(const char *path, struct rc_err *err)
{
	if (unlink(path) && errno != ENOENT)
		return rc_errf(err, errno, "cannot delete '%s': %s", path, strerror(errno));
	return 0;
}

/* A link view of CONFIRM_DIR, gone (only a link: a regular file there is an older run's). */
static void remove_view(const char *view_dir, const char *run_id, const char *suffix)
{
	char path[PATH_MAX + 80];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s%s", view_dir, run_id, suffix);
	if (view_dir[0] && lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
		unlink(path);
}

int rc_confirm_forget(const struct rc_run_loc *l, struct rc_err *err)
{
	struct rc_confirm c;
	char path[PATH_MAX + 80];
	int fd = -1, rc = rc_confirm_load(l, &c, err);

	if (rc)
		return rc;
	if (c.state != RC_CONFIRM_CONFIRMED && c.state != RC_CONFIRM_ROLLED_BACK)
		return rc_errf(err, EBUSY, "run %s is %s: its confirm state is kept", l->run_id,
			       rc_confirm_state_name(c.state));
	/* under the run's lock: a late `confirm RUN` finds the state or nothing, never half */
	rc = rc_confirm_lock(l, &fd, err);
	snprintf(path, sizeof(path), "%s/%s", l->entries, l->run_id);
	if (!rc)
		rc = remove_entries(path, err);
	if (!rc && !l->legacy && rmdir(l->entries) && errno != ENOENT)
		rc = rc_errf(err, errno, "cannot delete '%s': %s", l->entries, strerror(errno));
	if (!rc)
		rc = remove_file(l->record, err);
	if (!rc)
		rc = remove_file(l->log, err);
	if (!rc)
		rc = remove_file(l->lock, err);
	if (!rc && !l->legacy) {
		remove_view(l->view_dir, l->run_id, ".json");
		remove_view(l->view_dir, l->run_id, ".log");
	}
	if (fd >= 0)
		close(fd);
	return rc;
}

void rc_confirm_time(time_t t, char *buf, size_t len)
{
	struct tm tm;

	if (!gmtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, len, "?");
}

void rc_confirm_timer_owner(const struct rc_confirm *c, struct rc_txn_owner *o)
{
	rc_txn_owner_self(o); /* the timer runs on this host */
	o->pid = c->timer_pid;
	o->start = c->timer_start;
}

bool rc_confirm_hung(const struct rc_confirm *c, time_t now)
{
	struct rc_txn_owner who;
	time_t since = c->activity > c->deadline ? c->activity : c->deadline;
	uint32_t grace = c->grace_s ? c->grace_s : RC_CONFIRM_GRACE_MIN_S;

	switch (c->state) {
	case RC_CONFIRM_APPLYING:
	case RC_CONFIRM_ROLLING_BACK:
		who = c->owner;
		break;
	case RC_CONFIRM_PENDING:
		rc_confirm_timer_owner(c, &who);
		break;
	default:
		return false;
	}
	/* an owner on another host cannot be checked, let alone stopped, from here */
	return now > since + (time_t)grace && rc_txn_owner_alive(&who) &&
	       !rc_txn_owner_remote(&who);
}

bool rc_confirm_orphaned(const struct rc_confirm *c, time_t now)
{
	struct rc_txn_owner timer;

	switch (c->state) {
	case RC_CONFIRM_APPLYING:
	case RC_CONFIRM_ROLLING_BACK:
		return !rc_txn_owner_alive(&c->owner);
	case RC_CONFIRM_ROLLBACK_FAILED:
		return true;
	case RC_CONFIRM_PENDING:
		rc_confirm_timer_owner(c, &timer);
		return now >= c->deadline && !rc_txn_owner_alive(&timer);
	default:
		return false;
	}
}

/* ENTRIES/<run-id>/<device>.confirmed */
static int mark_path(const struct rc_run_loc *l, const char *device, char *buf, size_t len)
{
	char name[512];
	int n;

	if (rc_name_to_file(device, ".confirmed", name, sizeof(name)))
		return -EINVAL;
	n = snprintf(buf, len, "%s/%s/%s", l->entries, l->run_id, name);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int rc_confirm_mark_device(const struct rc_run_loc *l, const char *device, struct rc_err *err)
{
	char path[PATH_MAX + 600];

	if (mark_path(l, device, path, sizeof(path)))
		return rc_errf(err, EINVAL, "'%s' cannot name a file", device);
	return rc_write_atomic(path, "", 0, 0600, "confirm mark", err);
}

void rc_confirm_unmark_device(const struct rc_run_loc *l, const char *device)
{
	char path[PATH_MAX + 600];

	if (!mark_path(l, device, path, sizeof(path)))
		unlink(path);
}

bool rc_confirm_device_marked(const struct rc_run_loc *l, const char *device)
{
	char path[PATH_MAX + 600];
	struct stat st;

	return !mark_path(l, device, path, sizeof(path)) && lstat(path, &st) == 0 &&
	       S_ISREG(st.st_mode);
}

void rc_confirm_describe(const struct rc_confirm *c, time_t now, char *buf, size_t len)
{
	char t[32];

	rc_confirm_time(c->state == RC_CONFIRM_PENDING || c->state == RC_CONFIRM_APPLYING
			    ? c->deadline
			    : c->changed,
			t, sizeof(t));
	if (rc_confirm_orphaned(c, now)) {
		snprintf(buf, len,
			 "needs recovery: %s, nobody is finishing it; 'rocectl rollback' "
			 "finishes it",
			 rc_confirm_state_name(c->state));
		return;
	}
	if (rc_confirm_hung(c, now)) {
		char moved[32];
		struct rc_txn_owner who = c->owner;

		if (c->state == RC_CONFIRM_PENDING)
			rc_confirm_timer_owner(c, &who);
		rc_confirm_time(c->activity, moved, sizeof(moved));
		snprintf(buf, len,
			 "owner hung: %s by pid %d, alive, nothing moved since %s; 'rocectl "
			 "rollback %s --force' stops it and finishes the run",
			 rc_confirm_state_name(c->state), (int)who.pid, moved, c->run_id);
		return;
	}
	switch (c->state) {
	case RC_CONFIRM_APPLYING:
		snprintf(buf, len, "being applied by pid %d, pending confirm until %s",
			 (int)c->owner.pid, t);
		break;
	case RC_CONFIRM_PENDING:
		if (now > c->deadline + 5 && (c->timer_pid <= 0 || kill(c->timer_pid, 0)))
			snprintf(buf, len,
				 "pending confirm until %s: the timer is not running; "
				 "'rocectl rollback %s' or 'rocectl confirm %s'",
				 t, c->run_id, c->run_id);
		else
			snprintf(buf, len, "pending confirm until %s", t);
		break;
	case RC_CONFIRM_CONFIRMED:
		snprintf(buf, len, "confirmed at %s%s%s", t, c->by[0] ? " by " : "", c->by);
		break;
	case RC_CONFIRM_ROLLING_BACK:
		snprintf(buf, len, "rolling back (%s) since %s", c->reason, t);
		break;
	case RC_CONFIRM_ROLLED_BACK:
		snprintf(buf, len, "rolled back (%s) at %s", c->reason, t);
		break;
	case RC_CONFIRM_ROLLBACK_FAILED:
		snprintf(buf, len, "rollback (%s) failed at %s; 'rocectl rollback %s' again",
			 c->reason, t, c->run_id);
		break;
	}
}
