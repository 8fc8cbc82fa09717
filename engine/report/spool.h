/* SPDX-License-Identifier: Apache-2.0 */
/* A span of a spool file copied out: the streaming verify writes each device's part of a
 * report to a spool (tmpfile(3)) as the device finishes and copies the parts out in the
 * fleet's order at the end (engine/report/stream.c, stream_dot.c). */
#ifndef ROCECTL_SPOOL_H
#define ROCECTL_SPOOL_H

#include <errno.h>
#include <stdio.h>

/* `len` bytes from offset `at` of `spool` (flushed) to `out`: 0, or an errno. */
static inline int rc_spool_copy(FILE *out, FILE *spool, long at, long len)
{
	char buf[65536];

	if (fseek(spool, at, SEEK_SET))
		return errno ? errno : EIO;
	while (len > 0) {
		size_t want = len < (long)sizeof(buf) ? (size_t)len : sizeof(buf);
		size_t got = fread(buf, 1, want, spool);

		if (!got || fwrite(buf, 1, got, out) != got)
			return EIO;
		len -= (long)got;
	}
	return 0;
}

#endif
