/* SPDX-License-Identifier: Apache-2.0 */
/* Errors: every fallible function returns 0 or a negative errno and fills a struct rc_err
 * with a human message, produced once where the context (file, device, object) is known. */
#ifndef ROCECTL_ERR_H
#define ROCECTL_ERR_H

#include <stdio.h>

#define RC_ERR_MSG_MAX 512

struct rc_err {
	char msg[RC_ERR_MSG_MAX];
	/* Source position for policy/inventory errors; file[0] == 0 when none applies. */
	char file[256];
	int line;   /* 1-based */
	int column; /* 1-based */
};

/* Set the message (printf-style) and return -errnum (errnum given positive, e.g. EINVAL). */
int rc_errf(struct rc_err *err, int errnum, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Same, with a source position. */
int rc_err_at(struct rc_err *err, int errnum, const char *file, int line, int column,
	      const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* Prefix the existing message with "prefix: " (adds context on the way up). */
void rc_err_prefix(struct rc_err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

void rc_err_clear(struct rc_err *err);

/* "file:line:column: message" or just "message". */
void rc_err_print(const struct rc_err *err, FILE *out);
int rc_err_format(const struct rc_err *err, char *buf, size_t len);

#endif
