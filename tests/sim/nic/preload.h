/* SPDX-License-Identifier: Apache-2.0 */
/* Private to libnicsim.so: what the interposition files (preload*.c) share. */
#ifndef NICSIM_PRELOAD_H
#define NICSIM_PRELOAD_H

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "nicsim.h"

#define NS_MAXFD  4096
#define NS_EXPORT __attribute__((visibility("default")))

/* The next definition of a libc function (libc itself, or a sanitizer's interceptor) */
#define RESOLVE(var, name)                                                                         \
	do {                                                                                       \
		if (!(var))                                                                        \
			*(void **)(&(var)) = dlsym(RTLD_NEXT, name);                               \
	} while (0)

struct dgram {
	struct dgram *next;
	size_t len;
	uint8_t data[];
};

enum { FD_NLQ = 1, FD_WRITE = 2, FD_EINVAL = 4 };

struct fdent {
	struct dgram *head, *tail;
	dev_t dev;
	ino_t ino;
	struct ns_where *where;
};

extern char g_dir[NS_PATH_MAX];	    /* the simulated host, canonical */
extern char g_dir_env[NS_PATH_MAX]; /* as NICSIM_DIR spells it */
extern char g_names[NS_MAX_NICS][NS_IFNAMSIZ];
extern int g_n_names;
extern pthread_mutex_t g_mu;
extern _Atomic unsigned char g_fdkind[NS_MAXFD];
extern _Atomic int g_queued; /* sockets with replies waiting: poll/select fast path */
extern struct fdent g_fd[NS_MAXFD];
extern __thread int t_busy; /* set during the simulator's own calls: straight to libc */

int active(void);
int sim_name(const char *name);
int fail(int err);
void fd_forget(int fd);
void fd_track(int fd, int kind, const struct ns_where *w);
void fd_copy(int from, int to);
int fd_where(int fd, int kind, struct ns_where *out);
void enqueue(int fd, const struct ns_buf *b);
int has_queue(int fd);
ssize_t sim_send(int fd, const uint8_t *buf, size_t len, int flags, const struct sockaddr *to,
		 socklen_t tolen);
ssize_t sim_recvfrom(int fd, void *buf, size_t n, int flags, struct sockaddr *addr,
		     socklen_t *alen);

#endif
