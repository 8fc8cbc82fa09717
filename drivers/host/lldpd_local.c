/* SPDX-License-Identifier: Apache-2.0 */
/* lldpd's neighbours on this machine (a host with transport local): `lldpcli -f json0 show
 * neighbors` run directly (posix_spawnp, no shell, a fixed argument list), its answer read
 * by the same parser as a remote host's (lldpd.c).  A machine without lldpcli, or whose lldpd
 * does not answer, runs no LLDP agent: -ENOENT, unknown and never drift, as agent_ssh.c. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lldpd.h"

#define LLDPCLI_OUT_MAX	   (4u << 20)
#define LLDPCLI_TIMEOUT_MS 10000

extern char **environ;

/* stdout of the child until EOF, the cap or the deadline; -ETIMEDOUT, -EFBIG, -ENOMEM */
static int read_all(int fd, char **out, size_t *len)
{
	struct timespec t0, t;
	size_t cap = 8192, n = 0;
	char *buf = malloc(cap);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (buf) {
		struct pollfd p = {fd, POLLIN, 0};
		long ms;
		ssize_t r;

		clock_gettime(CLOCK_MONOTONIC, &t);
		ms = (t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000;
		if (ms >= LLDPCLI_TIMEOUT_MS || poll(&p, 1, (int)(LLDPCLI_TIMEOUT_MS - ms)) == 0) {
			free(buf);
			return -ETIMEDOUT;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
		if (n + 1 == cap) {
			char *nb = cap >= LLDPCLI_OUT_MAX ? NULL : realloc(buf, cap * 2);

			if (!nb) {
				free(buf);
				return cap >= LLDPCLI_OUT_MAX ? -EFBIG : -ENOMEM;
			}
			buf = nb;
			cap *= 2;
		}
	}
	if (!buf)
		return -ENOMEM;
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

int rc_lldpd_local(const char *device, struct rc_neighbors *out, struct rc_err *err)
{
	char *const argv[] = {"lldpcli", "-f", "json0", "show", "neighbors", NULL};
	posix_spawn_file_actions_t fa;
	int pipefd[2], status = 0, rc;
	char *text = NULL;
	size_t len = 0;
	pid_t pid;

	if (pipe(pipefd))
		return rc_errf(err, errno, "'%s': pipe: %s", device, strerror(errno));
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addclose(&fa, pipefd[0]);
	rc = posix_spawnp(&pid, "lldpcli", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (rc) {
		close(pipefd[0]);
		return rc_errf(err, ENOENT, "'%s': no LLDP agent here (lldpcli: %s)", device,
			       strerror(rc));
	}
	rc = read_all(pipefd[0], &text, &len);
	close(pipefd[0]);
	if (rc)
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (rc) {
		free(text);
		return rc_errf(err, -rc, "'%s': '%s': %s", device, RC_LLDPD_CMD, strerror(-rc));
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		free(text);
		return rc_errf(err, ENOENT, "'%s': no LLDP agent answers ('%s' exited %d)", device,
			       RC_LLDPD_CMD, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	}
	rc = rc_lldpd_parse(text, len, device, out, err);
	free(text);
	return rc;
}
