/* SPDX-License-Identifier: Apache-2.0 */
/* Small helpers shared by the preload library and nicsimctl: growable buffers, errno names. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicsim.h"

void ns_buf_put(struct ns_buf *b, const void *data, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap < b->len + n + 1)
			cap *= 2;
		uint8_t *p = realloc(b->p, cap);
		if (!p) {
			b->oom = 1;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	if (n)
		memcpy(b->p + b->len, data, n);
	b->len += n;
	b->p[b->len] = 0; /* text users rely on it; not counted */
}

void ns_buf_printf(struct ns_buf *b, const char *fmt, ...)
{
	char tmp[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(tmp)) {
		char *big = malloc((size_t)n + 1);
		if (!big) {
			b->oom = 1;
			return;
		}
		va_start(ap, fmt);
		vsnprintf(big, (size_t)n + 1, fmt, ap);
		va_end(ap);
		ns_buf_put(b, big, (size_t)n);
		free(big);
		return;
	}
	ns_buf_put(b, tmp, (size_t)n);
}

void ns_buf_free(struct ns_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

static const struct {
	int err;
	const char *name;
} errnames[] = {
    {EPERM, "EPERM"},	      {ENOENT, "ENOENT"}, {EIO, "EIO"},
    {ENODEV, "ENODEV"},	      {EACCES, "EACCES"}, {EBUSY, "EBUSY"},
    {EEXIST, "EEXIST"},	      {EINVAL, "EINVAL"}, {ENOMEM, "ENOMEM"},
    {ENOSPC, "ENOSPC"},	      {ERANGE, "ERANGE"}, {EOPNOTSUPP, "EOPNOTSUPP"},
    {ETIMEDOUT, "ETIMEDOUT"}, {EAGAIN, "EAGAIN"}, {ENOTEMPTY, "ENOTEMPTY"},
    {EMSGSIZE, "EMSGSIZE"},   {524, "ENOTSUPP"},
};

const char *ns_errname(int err)
{
	static __thread char other[16];
	if (err < 0)
		err = -err;
	for (size_t i = 0; i < sizeof(errnames) / sizeof(errnames[0]); i++)
		if (errnames[i].err == err)
			return errnames[i].name;
	snprintf(other, sizeof(other), "%d", err);
	return other;
}

/* "EIO", "eio", "5" -> 5; 0 when unknown */
int ns_errno_parse(const char *s)
{
	for (size_t i = 0; i < sizeof(errnames) / sizeof(errnames[0]); i++)
		if (!strcasecmp(s, errnames[i].name))
			return errnames[i].err;
	char *end;
	long v = strtol(s, &end, 10);
	if (*s && !*end && v > 0 && v < 4096)
		return (int)v;
	return 0;
}

/* snprintf() for paths: the same, through a call the compiler cannot size, so that building
 * paths of unknown length does not trip -Wformat-truncation; truncation is still reported */
int ns_pathf(char *out, size_t n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = vsnprintf(out, n, fmt, ap);
	va_end(ap);
	return r;
}
