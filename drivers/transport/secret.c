/* SPDX-License-Identifier: Apache-2.0 */
/* Passwords from the inventory's password_file / password_env, and "~/" expansion for the
 * key and known_hosts paths.  The secret itself never goes into a message. */
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rocectl/transport.h"

void rc_secret_wipe(void *buf, size_t len)
{
	/* volatile so that the compiler cannot drop the stores as dead */
	volatile unsigned char *p = buf;

	while (p && len--)
		*p++ = 0;
}

/* Open a password file the way OpenSSH opens a private key (authfile.c, sshkey_perm_ok():
 * "UNPROTECTED PRIVATE KEY FILE"): O_NONBLOCK so that a FIFO or a device cannot hang the
 * run in open(2) or read(2), O_NOFOLLOW so that a symlink is not followed, then fstat on
 * what was opened: only a regular file without group or other permission bits is read.
 * Returns the descriptor or a negative errno with the message naming the file. */
static int open_secret(const struct rc_device *dev, const char *file, struct rc_err *err)
{
	struct stat st;
	int fd, e;

	fd = open(file, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW);
	if (fd < 0 && errno == ELOOP)
		return rc_errf(err, ELOOP,
			       "'%s': password file '%s' is a symbolic link; name the file itself",
			       dev->name, file);
	if (fd < 0) {
		e = errno;
		return rc_errf(err, e, "'%s': cannot read password file '%s': %s", dev->name, file,
			       strerror(e));
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return rc_errf(err, EINVAL, "'%s': password file '%s' is not a regular file",
			       dev->name, file);
	}
	if (st.st_mode & (S_IRWXG | S_IRWXO)) {
		close(fd);
		return rc_errf(err, EPERM,
			       "'%s': password file '%s' is accessible by group or others "
			       "(mode %04o); it must be 0600 or stricter (chmod 600 '%s')",
			       dev->name, file, (unsigned)(st.st_mode & 07777), file);
	}
	return fd;
}

static int read_secret_file(const struct rc_device *dev, const char *path, char *buf, size_t len,
			    struct rc_err *err)
{
	char file[PATH_MAX];
	size_t got = 0;
	int fd, e;

	if (rc_expand_home(path, file, sizeof(file)))
		return rc_errf(err, ENAMETOOLONG, "'%s': password file path is too long",
			       dev->name);
	fd = open_secret(dev, file, err);
	if (fd < 0)
		return fd;
	while (got < len - 1) {
		ssize_t n = read(fd, buf + got, len - 1 - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			e = errno;
			close(fd);
			rc_secret_wipe(buf, len);
			return rc_errf(err, e, "'%s': cannot read password file '%s': %s",
				       dev->name, file, strerror(e));
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	buf[got] = '\0';
	/* the first line is the password; a trailing newline is not part of it */
	buf[strcspn(buf, "\r\n")] = '\0';
	if (got == len - 1 && strlen(buf) == got) {
		rc_secret_wipe(buf, len);
		return rc_errf(err, EFBIG, "'%s': password in '%s' is longer than %zu bytes",
			       dev->name, file, len - 2);
	}
	if (!buf[0])
		return rc_errf(err, EINVAL, "'%s': password file '%s' is empty", dev->name, file);
	return 0;
}

int rc_secret_password(const struct rc_device *dev, char *buf, size_t len, struct rc_err *err)
{
	const char *v;
	size_t n;

	if (len < 2)
		return rc_errf(err, EINVAL, "'%s': no room for a password", dev->name);
	buf[0] = '\0';
	if (rc_inv_str(dev->cred.password_file)[0])
		return read_secret_file(dev, dev->cred.password_file, buf, len, err);
	if (!rc_inv_str(dev->cred.password_env)[0])
		return 1; /* no password source: not an error here */
	v = getenv(dev->cred.password_env);
	if (!v || !*v)
		return rc_errf(err, ENOENT, "'%s': environment variable '%s' (password_env) is %s",
			       dev->name, dev->cred.password_env, v ? "empty" : "not set");
	n = strlen(v);
	if (n >= len)
		return rc_errf(err, EFBIG, "'%s': password in $%s is longer than %zu bytes",
			       dev->name, dev->cred.password_env, len - 1);
	memcpy(buf, v, n + 1);
	return 0;
}

int rc_expand_home(const char *path, char *out, size_t len)
{
	const char *home;
	struct passwd pw, *res = NULL;
	char pwbuf[1024];
	int n;

	if (strncmp(path, "~/", 2) != 0) {
		n = snprintf(out, len, "%s", path);
		return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
	}
	home = getenv("HOME");
	if (!home || !*home) {
		if (getpwuid_r(getuid(), &pw, pwbuf, sizeof(pwbuf), &res) || !res)
			return -ENOENT;
		home = res->pw_dir;
	}
	n = snprintf(out, len, "%s/%s", home, path + 2);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}
