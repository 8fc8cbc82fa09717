/* SPDX-License-Identifier: Apache-2.0 */
/* Enough file descriptors for --parallel (bench/README.md).  Each device worked on holds its
 * transport's socket, and libssh/libcurl a few more descriptors around it (a resolver
 * socket, the known_hosts and key files while connecting): 4 per worker and 64 for the
 * rest of the process is the budget.  The soft limit (1024 by default on Debian, whose
 * hard limit is 524288 under systemd, see systemd's DefaultLimitNOFILE) is raised to what
 * that needs; when the hard limit is lower, say so before any device is opened instead of
 * failing devices one by one with EMFILE half-way through a run. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "fleet_cmd.h"

#define FDS_PER_WORKER 4
#define FDS_BASE       64

int rc_fd_limit_for(unsigned parallel, const char *cmd)
{
	rlim_t need = (rlim_t)parallel * FDS_PER_WORKER + FDS_BASE;
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return 0; /* nothing to go by: let the run tell */
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur >= need)
		return 0;
	if (rl.rlim_cur == RLIM_INFINITY)
		return 0;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < need) {
		fprintf(stderr,
			"rocectl %s: --parallel %u needs about %llu file descriptors, and the hard "
			"limit is %llu (ulimit -Hn): lower --parallel to %llu or raise the limit\n",
			cmd, parallel, (unsigned long long)need, (unsigned long long)rl.rlim_max,
			(unsigned long long)(rl.rlim_max > FDS_BASE
						 ? (rl.rlim_max - FDS_BASE) / FDS_PER_WORKER
						 : 1));
		return -EMFILE;
	}
	rl.rlim_cur = need;
	if (setrlimit(RLIMIT_NOFILE, &rl)) {
		fprintf(stderr, "rocectl %s: cannot raise the file descriptor limit to %llu: %s\n",
			cmd, (unsigned long long)need, strerror(errno));
		return -errno;
	}
	return 0;
}
