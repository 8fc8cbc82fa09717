/* SPDX-License-Identifier: Apache-2.0 */
#include <stdarg.h>
#include <string.h>

#include "rocectl/err.h"

static void set_msg(struct rc_err *err, const char *fmt, va_list ap)
{
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
}

int rc_errf(struct rc_err *err, int errnum, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		err->file[0] = '\0';
		err->line = err->column = 0;
		va_start(ap, fmt);
		set_msg(err, fmt, ap);
		va_end(ap);
	}
	return errnum > 0 ? -errnum : errnum;
}

int rc_err_at(struct rc_err *err, int errnum, const char *file, int line, int column,
	      const char *fmt, ...)
{
	va_list ap;

	if (err) {
		snprintf(err->file, sizeof(err->file), "%s", file ? file : "");
		err->line = line;
		err->column = column;
		va_start(ap, fmt);
		set_msg(err, fmt, ap);
		va_end(ap);
	}
	return errnum > 0 ? -errnum : errnum;
}

void rc_err_prefix(struct rc_err *err, const char *fmt, ...)
{
	char old[RC_ERR_MSG_MAX];
	va_list ap;
	int n;

	if (!err)
		return;
	memcpy(old, err->msg, sizeof(old));
	va_start(ap, fmt);
	n = vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < sizeof(err->msg) - 2)
		snprintf(err->msg + n, sizeof(err->msg) - n, ": %s", old);
}

void rc_err_clear(struct rc_err *err)
{
	if (err)
		memset(err, 0, sizeof(*err));
}

int rc_err_format(const struct rc_err *err, char *buf, size_t len)
{
	if (err->file[0])
		return snprintf(buf, len, "%s:%d:%d: %s", err->file, err->line, err->column,
				err->msg);
	return snprintf(buf, len, "%s", err->msg);
}

void rc_err_print(const struct rc_err *err, FILE *out)
{
	char buf[RC_ERR_MSG_MAX + 300];

	rc_err_format(err, buf, sizeof(buf));
	fprintf(out, "%s\n", buf);
}
