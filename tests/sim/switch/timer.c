/* SPDX-License-Identifier: Apache-2.0 */
/* Timed commits: a change that undoes itself at a deadline unless it is confirmed (EOS
 * `commit timer hh:mm:ss`, EOS manual "Configure session").
 *
 * The pending rollback lives in the switch's state, st["timed-commit"]:
 *   {"id": "...", "deadline": EPOCH, "sleeper": bool,
 *    "restore": [{"path": ["eos", "running"], "value": ...}, ...]}
 * where a null value deletes the path.  Two things make it happen on time:
 *  - every open of the state (sim_switch_open) first applies a timer whose deadline has
 *    passed, so nothing ever reads a state that should already have rolled back;
 *  - the first save after arming starts a sleeper (`switchsim-ctl --run-dir RUN tick NAME
 *    DEADLINE`, detached) that opens the state at the deadline, so the rollback reaches
 *    the state file even when nobody talks to the switch. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sim.h"

#define TIMER_PATH_MAX 8

void sim_timer_arm(cJSON *st, const char *id, time_t deadline, cJSON *restore)
{
	cJSON *t = cJSON_CreateObject();
	jput(t, "id", cJSON_CreateString(id));
	jput(t, "deadline", cJSON_CreateNumber((double)deadline));
	jput(t, "sleeper", cJSON_CreateBool(false));
	jput(t, "restore", restore);
	jput(st, "timed-commit", t);
}

const cJSON *sim_timer_pending(const cJSON *st)
{
	const cJSON *t = jget1(st, "timed-commit");
	return cJSON_IsObject(t) ? t : NULL;
}

void sim_timer_clear(cJSON *st)
{
	cJSON_DeleteItemFromObjectCaseSensitive(st, "timed-commit");
}

bool sim_timer_expire(cJSON *st, time_t now)
{
	cJSON *t = jget1(st, "timed-commit");
	if (!cJSON_IsObject(t))
		return false;
	if (jlong(jget1(t, "deadline"), 0) > (long)now)
		return false;
	cJSON *r;
	cJSON_ArrayForEach(r, jget1(t, "restore"))
	{
		const char *path[TIMER_PATH_MAX];
		int n = 0;
		const cJSON *p;
		cJSON_ArrayForEach(p, jget1(r, "path"))
		{
			if (n == TIMER_PATH_MAX || !cJSON_IsString(p))
				break;
			path[n++] = p->valuestring;
		}
		if (n == 0)
			continue;
		cJSON *v = jget1(r, "value");
		if (!v || cJSON_IsNull(v))
			jdel(st, path, n);
		else
			jset(st, path, n, cJSON_Duplicate(v, true));
	}
	sim_timer_clear(st);
	return true;
}

/* Fork + exec only (the REST server has threads): the child runs nothing but
 * async-signal-safe calls before exec. */
void sim_timer_spawn(cJSON *st, const char *run_dir, const char *name)
{
	cJSON *t = jget1(st, "timed-commit");
	if (!cJSON_IsObject(t) || cJSON_IsTrue(jget1(t, "sleeper")))
		return;
	jput(t, "sleeper", cJSON_CreateBool(true));
	char exe[PATH_MAX], ctl[PATH_MAX + 32], when[32];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return;
	exe[n] = '\0';
	char *slash = strrchr(exe, '/');
	if (!slash)
		return;
	*slash = '\0';
	snprintf(ctl, sizeof(ctl), "%s/switchsim-ctl", exe);
	snprintf(when, sizeof(when), "%ld", jlong(jget1(t, "deadline"), 0));
	char *const argv[] = {ctl, "--run-dir", (char *)run_dir, "tick", (char *)name, when, NULL};
	pid_t pid = fork();
	if (pid < 0)
		return;
	if (pid == 0) {
		/* a grandchild in its own session: not a zombie of ours, not tied to the login */
		if (fork() != 0)
			_exit(0);
		setsid();
		int fd = open("/dev/null", O_RDWR);
		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
		}
		for (int i = 3; i < 1024; i++)
			close(i);
		execv(ctl, argv);
		_exit(127);
	}
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}
