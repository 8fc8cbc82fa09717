/* SPDX-License-Identifier: Apache-2.0 */
/* Strict unsigned numbers for options, saved plans and journals.  strtoul(3) alone accepts
 * leading blanks, a sign ("-1" becomes ULONG_MAX) and, in base 16, a "0x" prefix; a
 * number that reaches us from a command line or a file must be digits and nothing else. */
#include <errno.h>
#include <stdlib.h>

#include "rocectl/util.h"

static bool is_digit_in(char c, int base)
{
	if (c >= '0' && c <= '9')
		return c - '0' < base;
	if (base == 16)
		return (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
	return false;
}

int rc_parse_u64(const char *s, int base, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || !*s || (base != 10 && base != 16))
		return -EINVAL;
	for (const char *p = s; *p; p++)
		if (!is_digit_in(*p, base))
			return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	if (errno || *end)
		return -EINVAL;
	*out = v;
	return 0;
}
