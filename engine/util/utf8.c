/* SPDX-License-Identifier: Apache-2.0 */
/* UTF-8 validation for output (include/rocectl/util.h).  Device answers and file names are
 * bytes, but JSON must be Unicode (RFC 8259 section 8.1) and a terminal shows the text:
 * what is not well-formed UTF-8 per RFC 3629 section 4 (overlong forms, surrogates, code
 * points above U+10FFFF, truncated sequences) is replaced, byte by byte, with U+FFFD. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/util.h"

size_t rc_utf8_seq_len(const unsigned char *p, size_t avail)
{
	uint32_t cp;
	size_t n;

	if (!avail)
		return 0;
	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, cp = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, cp = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, cp = p[0] & 0x07;
	else
		return 0; /* a continuation byte, 0xc0/0xc1 (overlong) or 0xf5.. */
	if (avail < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

bool rc_utf8_valid(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s), n;

	for (size_t i = 0; i < len; i += n)
		if (!(n = rc_utf8_seq_len(p + i, len - i)))
			return false;
	return true;
}

char *rc_utf8_fix(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s), o = 0, n;
	char *out = malloc(len * 3 + 1); /* every byte may become the 3 bytes of U+FFFD */

	if (!out)
		return NULL;
	for (size_t i = 0; i < len; i += n ? n : 1) {
		n = rc_utf8_seq_len(p + i, len - i);
		if (n) {
			memcpy(out + o, p + i, n);
			o += n;
		} else {
			memcpy(out + o, "\xef\xbf\xbd", 3);
			o += 3;
		}
	}
	out[o] = '\0';
	return out;
}
