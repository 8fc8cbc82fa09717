/* SPDX-License-Identifier: Apache-2.0 */
/* The run transaction's owner and crash points (include/rocectl/txn.h).
 *
 * An owner is alive only when its pid exists AND that process started when the record
 * says (proc(5), /proc/PID/stat field 22 "starttime"): a pid reused by another process
 * after a kill -9 is not the owner.  Nothing here assumes liveness from a pid alone. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rocectl/txn.h"
#include "rocectl/util.h"

uint64_t rc_txn_proc_start(pid_t pid)
{
	char path[64], buf[1024];
	const char *p;
	ssize_t n;
	uint64_t v = 0;
	int fd, field = 2;

	if (pid <= 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* field 2 (comm) is in parentheses and may hold blanks and ')': count from the last */
	p = strrchr(buf, ')');
	if (!p || p[1] != ' ')
		return 0;
	/* field 3, the state: a zombie (Z) or dead (X) process is gone, its entry only waits
	 * for a parent to reap it (a timer's parent may be a namespace's init that never does) */
	if (p[2] == 'Z' || p[2] == 'X')
		return 0;
	for (p++; *p && field < 22; p++)
		if (*p == ' ')
			field++;
	while (*p >= '0' && *p <= '9') {
		v = v * 10 + (uint64_t)(*p - '0');
		p++;
	}
	return field == 22 ? v : 0;
}

static void this_host(char *buf, size_t len)
{
	if (gethostname(buf, len))
		snprintf(buf, len, "?");
	buf[len - 1] = '\0';
}

void rc_txn_owner_self(struct rc_txn_owner *o)
{
	o->pid = getpid();
	o->start = rc_txn_proc_start(o->pid);
	this_host(o->host, sizeof(o->host));
}

bool rc_txn_owner_remote(const struct rc_txn_owner *o)
{
	char host[64];

	this_host(host, sizeof(host));
	return o->host[0] && strcmp(o->host, host) != 0;
}

bool rc_txn_owner_alive(const struct rc_txn_owner *o)
{
	uint64_t start;

	if (o->pid <= 0)
		return false;
	if (rc_txn_owner_remote(o))
		return true;
	start = rc_txn_proc_start(o->pid);
	/* a record without a start time (written before it was kept) cannot be checked
	 * better than by the pid; one with it must match */
	return start != 0 && (o->start == 0 || start == o->start);
}

/* The machine's boot time (proc(5), /proc/stat "btime"), 0 when unknown. */
static time_t boot_time(void)
{
	char buf[8192];
	const char *p;
	ssize_t n;
	int fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
	uint64_t v = 0;

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	p = strstr(buf, "\nbtime ");
	if (!p)
		return 0;
	for (p += 7; *p >= '0' && *p <= '9'; p++)
		v = v * 10 + (uint64_t)(*p - '0');
	return (time_t)v;
}

int rc_txn_run_id_parse(const char *id, time_t *when, pid_t *pid)
{
	struct tm tm = {0};
	const char *dash = strrchr(id, '-');
	uint64_t v;

	if (!dash || rc_parse_u64(dash + 1, 10, 1, INT32_MAX, &v))
		return -EINVAL;
	*pid = (pid_t)v;
	*when = 0;
	if (sscanf(id, "%4d%2d%2dT%2d%2d%2d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
		   &tm.tm_min, &tm.tm_sec) == 6) {
		tm.tm_year -= 1900;
		tm.tm_mon -= 1;
		*when = timegm(&tm);
	}
	return 0;
}

bool rc_txn_run_id_alive(const char *run_id)
{
	time_t when, boot = boot_time();
	pid_t pid;
	uint64_t start;
	long hz = sysconf(_SC_CLK_TCK);

	if (rc_txn_run_id_parse(run_id, &when, &pid) || pid == getpid())
		return false;
	start = rc_txn_proc_start(pid);
	if (!start)
		return false;
	/* the process must have started by the second the run named itself (one second of
	 * slack for the rounding of both clocks); unknown times leave the pid to decide */
	if (when > 0 && boot > 0 && hz > 0)
		return boot + (time_t)(start / (uint64_t)hz) <= when + 1;
	return true;
}

/* Every named step, in the order a run meets them (docs/ARCHITECTURE.md "Crash points"). */
static const struct {
	const char *name, *where;
} points[] = {
    {"txn.record.applying", "apply/enforce --confirm: the record says applying, no timer yet"},
    {"txn.timer.armed", "apply/enforce --confirm: timer recorded, nothing written yet"},
    {"dev.snapped", "apply: a device's journal entry saved, nothing written to it yet"},
    {"dev.write.sent", "apply: a device written, not yet read back"},
    {"dev.verified", "apply: a device read back in policy, its entry not yet settled"},
    {"dev.done", "apply: a device finished (entry dropped, or kept for the confirm)"},
    {"apply.devices.done", "apply/enforce: every device applied, nothing recorded yet"},
    {"txn.checked", "apply/enforce --confirm: devices re-read, the run not yet pending"},
    {"txn.record.pending", "apply --confirm: the record says pending with its deadline"},
    {"confirm.locked", "confirm: the run locked and its deadline checked"},
    {"confirm.device", "confirm: one switch's own commit kept (and recorded)"},
    {"confirm.recorded", "confirm: the record says confirmed, entries not yet dropped"},
    {"rollback.claimed", "rollback RUN / timer: the record says rolling back, owned by us"},
    {"rollback.device", "rollback: one device restored, its entry not yet dropped"},
    {"rollback.restored", "rollback: every device restored, the record not yet updated"},
    {"timer.started", "timer: its pid and start time recorded"},
    {"timer.fired", "timer: the deadline taken, nothing restored yet"},
};

const char *const *rc_crashpoint_names(size_t *n)
{
	static const char *names[sizeof(points) / sizeof(points[0])];

	for (size_t i = 0; i < sizeof(points) / sizeof(points[0]); i++)
		names[i] = points[i].name;
	*n = sizeof(points) / sizeof(points[0]);
	return names;
}

void rc_crashpoint_print(FILE *f)
{
	for (size_t i = 0; i < sizeof(points) / sizeof(points[0]); i++)
		fprintf(f, "%s\t%s\n", points[i].name, points[i].where);
}

static const char *crash_at, *hang_at;

/* `name` is one of the comma-separated names of `list` */
static bool in_list(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, name, n) && (p[n] == ',' || p[n] == '\0'))
			return true;
	return false;
}

static void read_crash_at(void)
{
	crash_at = getenv("ROCECTL_CRASH_AT");
	hang_at = getenv("ROCECTL_HANG_AT");
}

void rc_crashpoint(const char *name)
{
	/* read once (the fleet's worker threads meet crash points too) */
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, read_crash_at);
	if (crash_at && *crash_at && in_list(crash_at, name)) {
		static const char msg[] = "rocectl: crash point reached\n";
		ssize_t ignored = write(STDERR_FILENO, msg, sizeof(msg) - 1);

		(void)ignored;
		_exit(137);
	}
	if (hang_at && *hang_at && in_list(hang_at, name)) {
		/* alive, holding what it holds, doing nothing: a process stuck on a device that
		 * never answers, as `history` must call it hung and `rollback RUN --force` stop */
		static const char msg[] = "rocectl: hang point reached\n";
		ssize_t ignored = write(STDERR_FILENO, msg, sizeof(msg) - 1);

		(void)ignored;
		raise(SIGSTOP);
	}
}
