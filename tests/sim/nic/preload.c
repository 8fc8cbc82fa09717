/* SPDX-License-Identifier: Apache-2.0 */
/* libnicsim.so: LD_PRELOAD interposition that makes simulated NICs look real to a process.
 *
 * - RTM_GETDCB/RTM_SETDCB requests on a real NETLINK_ROUTE socket that name a simulated
 *   interface are answered from the simulated state (dcbnl.c); the replies are queued per
 *   socket and handed out by recv*(), read() and poll/select.  Everything else on the socket
 *   (RTM_GETLINK, requests for real interfaces) goes to the kernel untouched.
 * - SIOCETHTOOL for a simulated interface is answered by ethtool.c.
 * - Writes, mkdir and rmdir below DIR/sys go through the sysfs/configfs semantics of tree.c.
 * Without NICSIM_DIR in the environment the library passes everything through.
 *
 * This file: start-up and the descriptor table (which fd is a tracked tree file, which socket
 * has replies queued), kept right across close/dup/fcntl.  preload_nl.c: netlink, poll/select,
 * ethtool.  preload_fs.c: the tree.  Calls the simulator makes itself run with t_busy set, so
 * they reach libc directly. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "preload.h"

static int (*real_close)(int);
static int (*real_dup)(int);
static int (*real_dup2)(int, int);
static int (*real_dup3)(int, int, int);
static int (*real_fcntl)(int, int, ...);
static int (*real_fcntl64)(int, int, ...);

static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static int g_active;
char g_dir[NS_PATH_MAX];
char g_dir_env[NS_PATH_MAX];
char g_names[NS_MAX_NICS][NS_IFNAMSIZ];
int g_n_names;
pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
_Atomic unsigned char g_fdkind[NS_MAXFD];
_Atomic int g_queued;
struct fdent g_fd[NS_MAXFD];
__thread int t_busy;

static void init_once(void)
{
	char rp[PATH_MAX];
	const char *d = getenv("NICSIM_DIR");
	t_busy++;
	if (d && *d && strlen(d) < sizeof(g_dir_env) && realpath(d, rp) &&
	    strlen(rp) < sizeof(g_dir)) {
		strcpy(g_dir, rp);
		strcpy(g_dir_env, d);
		size_t n = strlen(g_dir_env);
		while (n > 1 && g_dir_env[n - 1] == '/')
			g_dir_env[--n] = 0;
		int k = ns_list_nics(g_dir, g_names, NS_MAX_NICS);
		if (k >= 0) {
			g_n_names = k;
			g_active = 1;
		}
	}
	t_busy--;
}

int active(void)
{
	if (t_busy)
		return 0;
	pthread_once(&g_once, init_once);
	return g_active;
}

int sim_name(const char *name)
{
	for (int i = 0; i < g_n_names; i++)
		if (!strcmp(g_names[i], name))
			return 1;
	return 0;
}

int fail(int err)
{
	errno = -err;
	return -1;
}

/* File descriptor bookkeeping */

void fd_forget(int fd)
{
	if (fd < 0 || fd >= NS_MAXFD || !atomic_load(&g_fdkind[fd]))
		return;
	pthread_mutex_lock(&g_mu);
	struct fdent *e = &g_fd[fd];
	if (e->head)
		atomic_fetch_sub(&g_queued, 1);
	while (e->head) {
		struct dgram *d = e->head;
		e->head = d->next;
		free(d);
	}
	e->tail = NULL;
	free(e->where);
	e->where = NULL;
	atomic_store(&g_fdkind[fd], 0);
	pthread_mutex_unlock(&g_mu);
}

void fd_track(int fd, int kind, const struct ns_where *w)
{
	struct stat st;
	if (fd < 0 || fd >= NS_MAXFD || fstat(fd, &st) < 0)
		return;
	struct ns_where *copy = malloc(sizeof(*copy));
	if (!copy)
		return;
	*copy = *w;
	pthread_mutex_lock(&g_mu);
	free(g_fd[fd].where);
	g_fd[fd].where = copy;
	g_fd[fd].dev = st.st_dev;
	g_fd[fd].ino = st.st_ino;
	atomic_store(&g_fdkind[fd], (unsigned char)kind);
	pthread_mutex_unlock(&g_mu);
}

/* A duplicate refers to the same open file: shells open a redirection target, then dup2()
 * it onto 1 and close the original */
void fd_copy(int from, int to)
{
	if (to < 0 || to >= NS_MAXFD)
		return;
	fd_forget(to);
	if (from < 0 || from >= NS_MAXFD)
		return;
	unsigned char kind = atomic_load(&g_fdkind[from]) & (FD_WRITE | FD_EINVAL);
	if (!kind)
		return;
	struct ns_where *copy = malloc(sizeof(*copy));
	if (!copy)
		return;
	pthread_mutex_lock(&g_mu);
	if (g_fd[from].where) {
		*copy = *g_fd[from].where;
		g_fd[to].where = copy;
		g_fd[to].dev = g_fd[from].dev;
		g_fd[to].ino = g_fd[from].ino;
		atomic_store(&g_fdkind[to], kind);
		copy = NULL;
	}
	pthread_mutex_unlock(&g_mu);
	free(copy);
}

/* The tracked file, if fd still refers to it */
int fd_where(int fd, int kind, struct ns_where *out)
{
	struct stat st;
	if (fd < 0 || fd >= NS_MAXFD || !(atomic_load(&g_fdkind[fd]) & kind))
		return 0;
	if (fstat(fd, &st) < 0)
		return 0;
	int ok = 0;
	pthread_mutex_lock(&g_mu);
	struct fdent *e = &g_fd[fd];
	if (e->where && e->dev == st.st_dev && e->ino == st.st_ino) {
		*out = *e->where;
		ok = 1;
	}
	pthread_mutex_unlock(&g_mu);
	return ok;
}

void enqueue(int fd, const struct ns_buf *b)
{
	if (!b->len || b->oom || fd < 0 || fd >= NS_MAXFD)
		return;
	struct dgram *d = malloc(sizeof(*d) + b->len);
	if (!d)
		return;
	d->next = NULL;
	d->len = b->len;
	memcpy(d->data, b->p, b->len);
	pthread_mutex_lock(&g_mu);
	struct fdent *e = &g_fd[fd];
	if (e->tail)
		e->tail->next = d;
	else {
		e->head = d;
		atomic_fetch_add(&g_queued, 1);
	}
	e->tail = d;
	atomic_fetch_or(&g_fdkind[fd], FD_NLQ);
	pthread_mutex_unlock(&g_mu);
}

int has_queue(int fd)
{
	return fd >= 0 && fd < NS_MAXFD && (atomic_load(&g_fdkind[fd]) & FD_NLQ);
}

NS_EXPORT int close(int fd)
{
	RESOLVE(real_close, "close");
	fd_forget(fd);
	return real_close(fd);
}

NS_EXPORT int dup(int fd)
{
	RESOLVE(real_dup, "dup");
	int r = real_dup(fd);
	if (r >= 0)
		fd_copy(fd, r);
	return r;
}

NS_EXPORT int dup2(int fd, int to)
{
	RESOLVE(real_dup2, "dup2");
	int r = real_dup2(fd, to);
	if (r >= 0 && fd != to)
		fd_copy(fd, r);
	return r;
}

NS_EXPORT int dup3(int fd, int to, int flags)
{
	RESOLVE(real_dup3, "dup3");
	int r = real_dup3(fd, to, flags);
	if (r >= 0)
		fd_copy(fd, r);
	return r;
}

/* fcntl's third argument is an int or a pointer; both travel in the same register class */
static int do_fcntl(int (*fn)(int, int, ...), int fd, int cmd, void *arg)
{
	int r = fn(fd, cmd, arg);
	if (r >= 0 && (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC))
		fd_copy(fd, r);
	return r;
}

NS_EXPORT int fcntl(int fd, int cmd, ...)
{
	va_list ap;
	va_start(ap, cmd);
	void *arg = va_arg(ap, void *);
	va_end(ap);
	RESOLVE(real_fcntl, "fcntl");
	return do_fcntl(real_fcntl, fd, cmd, arg);
}

NS_EXPORT int fcntl64(int fd, int cmd, ...)
{
	va_list ap;
	va_start(ap, cmd);
	void *arg = va_arg(ap, void *);
	va_end(ap);
	RESOLVE(real_fcntl64, "fcntl64");
	return do_fcntl(real_fcntl64, fd, cmd, arg);
}
