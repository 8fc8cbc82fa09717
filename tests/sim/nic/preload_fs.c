/* SPDX-License-Identifier: Apache-2.0 */
/* libnicsim.so, file side: writes, mkdir and rmdir below DIR/sys get the sysfs/configfs
 * semantics of tree.c, whether they come through open()/write() (and dup'ed descriptors),
 * fopen()/fdopen() streams or dprintf().  read()/write() also serve netlink sockets. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "preload.h"

/* glibc's fortified and large-file entry points, which callers may bind to */
int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);
int __openat_2(int dirfd, const char *path, int flags);
int __openat64_2(int dirfd, const char *path, int flags);
ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen);
int __vdprintf_chk(int fd, int flag, const char *fmt, va_list ap);
int __dprintf_chk(int fd, int flag, const char *fmt, ...);

static int (*real_openat)(int, const char *, int, ...);
static FILE *(*real_fopen)(const char *, const char *);
static ssize_t (*real_write)(int, const void *, size_t);
static ssize_t (*real_read)(int, void *, size_t);
static ssize_t (*real_read_chk)(int, void *, size_t, size_t);
static int (*real_mkdir)(const char *, mode_t);
static int (*real_mkdirat)(int, const char *, mode_t);
static int (*real_rmdir)(const char *);

/* read() on a netlink socket, or on a GID attribute of an empty slot (EINVAL like sysfs) */
static ssize_t sim_read(int fd, void *buf, size_t n)
{
	if (t_busy || fd < 0 || fd >= NS_MAXFD || !atomic_load(&g_fdkind[fd]))
		return -2;
	ssize_t r = sim_recvfrom(fd, buf, n, 0, NULL, NULL);
	if (r != -2)
		return r;
	struct ns_where w;
	if (fd_where(fd, FD_EINVAL, &w))
		return fail(-EINVAL);
	return -2;
}

NS_EXPORT ssize_t read(int fd, void *buf, size_t n)
{
	RESOLVE(real_read, "read");
	ssize_t r = sim_read(fd, buf, n);
	return r != -2 ? r : real_read(fd, buf, n);
}

NS_EXPORT ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen)
{
	RESOLVE(real_read_chk, "__read_chk");
	ssize_t r = n <= buflen ? sim_read(fd, buf, n) : -2;
	return r != -2 ? r : real_read_chk(fd, buf, n, buflen);
}

NS_EXPORT ssize_t write(int fd, const void *buf, size_t n)
{
	RESOLVE(real_write, "write");
	if (t_busy || !buf)
		return real_write(fd, buf, n);
	struct ns_where w;
	if (fd >= 0 && fd < NS_MAXFD && (atomic_load(&g_fdkind[fd]) & FD_WRITE) &&
	    fd_where(fd, FD_WRITE, &w)) {
		t_busy++;
		int err = ns_tree_store(g_dir, &w, buf, n);
		t_busy--;
		return err ? fail(err) : (ssize_t)n;
	}
	ssize_t r = sim_send(fd, buf, n, 0, NULL, 0);
	return r != -2 ? r : real_write(fd, buf, n);
}

/* The fake tree */

static int under_dir(const char *abs, const char *dir)
{
	size_t n = strlen(dir);
	return n && !strncmp(abs, dir, n) && (abs[n] == '/' || abs[n] == 0);
}

/* Whether path (relative to dirfd) lies in DIR/sys; fills w with its canonical place.
 * want_parent: the path may not exist yet (creating it), resolve its parent instead. */
static int in_tree(int dirfd, const char *path, int want_parent, struct ns_where *w, char *canon)
{
	char abs[NS_PATH_MAX], base[NS_PATH_MAX];
	if (!path || !*path)
		return 0;
	if (path[0] == '/') {
		if (strlen(path) >= sizeof(abs))
			return 0;
		strcpy(abs, path);
	} else {
		if (dirfd == AT_FDCWD) {
			if (!getcwd(base, sizeof(base)))
				return 0;
		} else {
			char link[64];
			snprintf(link, sizeof(link), "/proc/self/fd/%d", dirfd);
			ssize_t n = readlink(link, base, sizeof(base) - 1);
			if (n <= 0)
				return 0;
			base[n] = 0;
		}
		if ((size_t)snprintf(abs, sizeof(abs), "%s/%s", base, path) >= sizeof(abs))
			return 0;
	}
	if (!under_dir(abs, g_dir) && !under_dir(abs, g_dir_env))
		return 0;
	char rp[PATH_MAX];
	if (!realpath(abs, rp)) {
		if (errno != ENOENT || !want_parent)
			return 0;
		size_t n = strlen(abs);
		while (n > 1 && abs[n - 1] == '/')
			abs[--n] = 0;
		char *slash = strrchr(abs, '/');
		if (!slash || !strcmp(slash + 1, ".") || !strcmp(slash + 1, ".."))
			return 0;
		*slash = 0;
		char prp[PATH_MAX];
		if (!realpath(abs[0] ? abs : "/", prp) ||
		    (size_t)snprintf(rp, sizeof(rp), "%s/%s", prp, slash + 1) >= sizeof(rp))
			return 0;
	}
	if (!under_dir(rp, g_dir) || !rp[strlen(g_dir)])
		return 0;
	ns_classify(g_dir, rp + strlen(g_dir) + 1, w);
	if (canon)
		strcpy(canon, rp);
	return w->area != NS_AREA_NONE;
}

static int do_openat(int dirfd, const char *path, int flags, mode_t mode)
{
	RESOLVE(real_openat, "openat");
	if (!path || !active())
		return real_openat(dirfd, path, flags, mode);
	int acc = flags & O_ACCMODE;
	int writing = acc == O_WRONLY || acc == O_RDWR;
	struct ns_where *w = malloc(sizeof(*w));
	char *canon = malloc(PATH_MAX);
	int fd;
	if (!w || !canon) {
		free(w);
		free(canon);
		return real_openat(dirfd, path, flags, mode);
	}
	t_busy++;
	if (!in_tree(dirfd, path, writing && (flags & O_CREAT), w, canon)) {
		fd = real_openat(dirfd, path, flags, mode);
		if (fd >= 0)
			fd_forget(fd);
	} else if (writing) {
		struct stat st;
		int exists = stat(canon, &st) == 0 && S_ISREG(st.st_mode);
		int err = ns_tree_open_write(g_dir, w, exists);
		if (err) {
			fd = fail(err);
		} else {
			/* writes never reach this descriptor: write() stores them */
			fd = real_openat(AT_FDCWD, canon, O_RDONLY | (flags & O_CLOEXEC));
			if (fd >= 0)
				fd_track(fd, FD_WRITE, w);
		}
	} else {
		int einval = ns_tree_read_special(g_dir, w);
		fd = real_openat(dirfd, path, flags, mode);
		if (fd >= 0 && einval)
			fd_track(fd, FD_EINVAL, w);
		else if (fd >= 0)
			fd_forget(fd);
	}
	t_busy--;
	int e = errno;
	free(w);
	free(canon);
	errno = e;
	return fd;
}

static mode_t open_mode(int flags, va_list ap)
{
	return (flags & (O_CREAT | O_TMPFILE)) ? (mode_t)va_arg(ap, int) : 0;
}

NS_EXPORT int open(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = open_mode(flags, ap);
	va_end(ap);
	return do_openat(AT_FDCWD, path, flags, mode);
}

NS_EXPORT int open64(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = open_mode(flags, ap);
	va_end(ap);
	return do_openat(AT_FDCWD, path, flags, mode);
}

NS_EXPORT int openat(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = open_mode(flags, ap);
	va_end(ap);
	return do_openat(dirfd, path, flags, mode);
}

NS_EXPORT int openat64(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = open_mode(flags, ap);
	va_end(ap);
	return do_openat(dirfd, path, flags, mode);
}

NS_EXPORT int __open_2(const char *path, int flags)
{
	return do_openat(AT_FDCWD, path, flags, 0);
}

NS_EXPORT int __open64_2(const char *path, int flags)
{
	return do_openat(AT_FDCWD, path, flags, 0);
}

NS_EXPORT int __openat_2(int dirfd, const char *path, int flags)
{
	return do_openat(dirfd, path, flags, 0);
}

NS_EXPORT int __openat64_2(int dirfd, const char *path, int flags)
{
	return do_openat(dirfd, path, flags, 0);
}

NS_EXPORT int creat(const char *path, mode_t mode)
{
	return do_openat(AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC, mode);
}

/* stdio streams on tree files: fopencookie() so that writes get sysfs semantics too */

struct tcookie {
	struct ns_where w;
	int fd; /* fdopen(): the descriptor fclose() must close; else -1 */
};

static ssize_t tc_read(void *cookie, char *buf, size_t n)
{
	(void)cookie;
	(void)buf;
	(void)n;
	errno = EINVAL; /* only empty GID slots are opened this way for reading */
	return -1;
}

static ssize_t tc_write(void *cookie, const char *buf, size_t n)
{
	struct tcookie *c = cookie;
	t_busy++;
	int err = ns_tree_store(g_dir, &c->w, buf, n);
	t_busy--;
	if (err) {
		errno = -err;
		return -1;
	}
	return (ssize_t)n;
}

static int tc_close(void *cookie)
{
	struct tcookie *c = cookie;
	int r = c->fd >= 0 ? close(c->fd) : 0;
	free(c);
	return r;
}

static FILE *do_fopen(const char *path, const char *mode)
{
	RESOLVE(real_fopen, "fopen");
	if (!path || !mode || !active())
		return real_fopen(path, mode);
	int writing = strchr(mode, 'w') || strchr(mode, 'a') || strchr(mode, '+');
	struct tcookie *c = malloc(sizeof(*c));
	char *canon = malloc(PATH_MAX);
	FILE *f;
	if (!c || !canon) {
		free(c);
		free(canon);
		return real_fopen(path, mode);
	}
	c->fd = -1;
	t_busy++;
	if (!in_tree(AT_FDCWD, path, writing, &c->w, canon)) {
		f = real_fopen(path, mode);
	} else if (writing) {
		struct stat st;
		int exists = stat(canon, &st) == 0 && S_ISREG(st.st_mode);
		int err = ns_tree_open_write(g_dir, &c->w, exists);
		f = NULL;
		if (err) {
			errno = -err;
		} else {
			cookie_io_functions_t io = {.write = tc_write, .close = tc_close};
			f = fopencookie(c, "w", io);
			if (f)
				c = NULL;
		}
	} else if (ns_tree_read_special(g_dir, &c->w)) {
		cookie_io_functions_t io = {.read = tc_read, .close = tc_close};
		f = fopencookie(c, "r", io);
		if (f)
			c = NULL;
	} else {
		f = real_fopen(path, mode);
	}
	t_busy--;
	int e = errno;
	free(c);
	free(canon);
	errno = e;
	return f;
}

NS_EXPORT FILE *fopen(const char *path, const char *mode)
{
	return do_fopen(path, mode);
}

NS_EXPORT FILE *fopen64(const char *path, const char *mode)
{
	return do_fopen(path, mode);
}

/* fdopen() and dprintf() on a descriptor opened for writing a tree file */
NS_EXPORT FILE *fdopen(int fd, const char *mode)
{
	static FILE *(*real_fdopen)(int, const char *);
	RESOLVE(real_fdopen, "fdopen");
	struct tcookie *c;
	if (t_busy || !mode || !(strchr(mode, 'w') || strchr(mode, 'a') || strchr(mode, '+')) ||
	    fd < 0 || fd >= NS_MAXFD || !(atomic_load(&g_fdkind[fd]) & FD_WRITE) ||
	    !(c = malloc(sizeof(*c))))
		return real_fdopen(fd, mode);
	if (!fd_where(fd, FD_WRITE, &c->w)) {
		free(c);
		return real_fdopen(fd, mode);
	}
	c->fd = fd;
	cookie_io_functions_t io = {.write = tc_write, .close = tc_close};
	FILE *f = fopencookie(c, "w", io);
	if (!f)
		free(c);
	return f;
}

NS_EXPORT int vdprintf(int fd, const char *fmt, va_list ap)
{
	static int (*real_vdprintf)(int, const char *, va_list);
	RESOLVE(real_vdprintf, "vdprintf");
	if (t_busy || fd < 0 || fd >= NS_MAXFD || !(atomic_load(&g_fdkind[fd]) & FD_WRITE))
		return real_vdprintf(fd, fmt, ap);
	char *text = NULL;
	int n = vasprintf(&text, fmt, ap);
	if (n < 0)
		return -1;
	ssize_t w = write(fd, text, (size_t)n);
	free(text);
	return w < 0 ? -1 : n;
}

NS_EXPORT int dprintf(int fd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vdprintf(fd, fmt, ap);
	va_end(ap);
	return n;
}

/* _FORTIFY_SOURCE variants; the flag only asks for %n checks */
NS_EXPORT int __vdprintf_chk(int fd, int flag, const char *fmt, va_list ap)
{
	(void)flag;
	return vdprintf(fd, fmt, ap);
}

NS_EXPORT int __dprintf_chk(int fd, int flag, const char *fmt, ...)
{
	va_list ap;
	(void)flag;
	va_start(ap, fmt);
	int n = vdprintf(fd, fmt, ap);
	va_end(ap);
	return n;
}

static int do_mkdirat(int dirfd, const char *path, mode_t mode, int is_at)
{
	RESOLVE(real_mkdir, "mkdir");
	RESOLVE(real_mkdirat, "mkdirat");
	struct ns_where *w = active() ? malloc(sizeof(*w)) : NULL;
	if (w) {
		t_busy++;
		int in = in_tree(dirfd, path, 1, w, NULL);
		int err = in ? ns_tree_mkdir(g_dir, w) : 0;
		t_busy--;
		free(w);
		if (in)
			return err ? fail(err) : 0;
	}
	return is_at ? real_mkdirat(dirfd, path, mode) : real_mkdir(path, mode);
}

NS_EXPORT int mkdir(const char *path, mode_t mode)
{
	return do_mkdirat(AT_FDCWD, path, mode, 0);
}

NS_EXPORT int mkdirat(int dirfd, const char *path, mode_t mode)
{
	return do_mkdirat(dirfd, path, mode, 1);
}

NS_EXPORT int rmdir(const char *path)
{
	RESOLVE(real_rmdir, "rmdir");
	struct ns_where *w = active() ? malloc(sizeof(*w)) : NULL;
	if (w) {
		t_busy++;
		int in = in_tree(AT_FDCWD, path, 0, w, NULL);
		int err = in ? ns_tree_rmdir(g_dir, w) : 0;
		t_busy--;
		free(w);
		if (in)
			return err ? fail(err) : 0;
	}
	return real_rmdir(path);
}
