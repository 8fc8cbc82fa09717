/* SPDX-License-Identifier: Apache-2.0 */
/* Range expansion.  Zero padding follows the first number's width, as pdsh and ClusterShell
 * do: "gpu[001-032]" is gpu001..gpu032, "gpu[1-32]" is gpu1..gpu32. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "range.h"

#define MAX_DIGITS 9 /* keeps every number in 32 bits */

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* A run of 1..MAX_DIGITS digits at p, ending at `end`. */
static int number(const char *p, const char *end, uint32_t *v, int *width)
{
	size_t n = (size_t)(end - p);
	uint32_t x = 0;

	if (n < 1 || n > MAX_DIGITS)
		return -EINVAL;
	for (const char *q = p; q < end; q++) {
		if (!is_digit(*q))
			return -EINVAL;
		x = x * 10 + (uint32_t)(*q - '0');
	}
	*v = x;
	*width = (n > 1 && p[0] == '0') ? (int)n : 0;
	return 0;
}

static int set_bounds(struct rc_range *r, const char *a, const char *dash, const char *b_end,
		      const char **why)
{
	int wa, wb;

	if (number(a, dash, &r->first, &wa) < 0 || number(dash + 1, b_end, &r->last, &wb) < 0) {
		*why = "expected a range [FIRST-LAST] of up to 9 digits each, like [001-032]";
		return -EINVAL;
	}
	if (r->first > r->last) {
		*why = "range runs backwards (FIRST is above LAST)";
		return -EINVAL;
	}
	if ((uint64_t)r->last - r->first + 1 > RC_RANGE_MAX) {
		*why = "range has more than 65536 elements";
		return -E2BIG;
	}
	r->width = wa;
	r->is_range = true;
	return 0;
}

static void copy_part(char *dst, const char *from, const char *to)
{
	size_t n = (size_t)(to - from);

	memcpy(dst, from, n);
	dst[n] = '\0';
}

static int parse_bracket(const char *s, const char *open, struct rc_range *r, const char **why)
{
	const char *close = strchr(open, ']');
	const char *dash;
	int rc;

	if (!close) {
		*why = "'[' without a closing ']'";
		return -EINVAL;
	}
	if (strpbrk(close + 1, "[]") || memchr(s, ']', (size_t)(open - s))) {
		*why = "only one [FIRST-LAST] range is allowed in a name";
		return -EINVAL;
	}
	dash = memchr(open, '-', (size_t)(close - open));
	if (!dash) {
		*why = "expected a range [FIRST-LAST] like [001-032]";
		return -EINVAL;
	}
	rc = set_bounds(r, open + 1, dash, close, why);
	if (rc < 0)
		return rc;
	copy_part(r->prefix, s, open);
	copy_part(r->suffix, close + 1, s + strlen(s));
	return 0;
}

/* "swp1-32", "Ethernet1/1-32": FIRST after a non-digit, "-", LAST at the end. */
static int parse_bare(const char *s, struct rc_range *r, const char **why)
{
	const char *dash = strrchr(s, '-'), *a, *end = s + strlen(s);
	int rc;

	if (!dash || dash + 1 == end)
		return 1;
	for (const char *q = dash + 1; q < end; q++)
		if (!is_digit(*q))
			return 1;
	a = dash;
	while (a > s && is_digit(a[-1]))
		a--;
	if (a == dash || a == s)
		return 1; /* no FIRST, or nothing before it: a literal such as "1-32" */
	rc = set_bounds(r, a, dash, end, why);
	if (rc < 0)
		return rc;
	copy_part(r->prefix, s, a);
	r->suffix[0] = '\0';
	return 0;
}

int rc_range_parse(const char *s, bool bare, struct rc_range *r, const char **why)
{
	const char *open;
	size_t n = strnlen(s, sizeof(r->prefix));
	int rc;

	memset(r, 0, sizeof(*r));
	if (n >= sizeof(r->prefix)) {
		*why = "name is longer than 63 characters";
		return -ENAMETOOLONG;
	}
	open = strchr(s, '[');
	if (open)
		return parse_bracket(s, open, r, why);
	if (strchr(s, ']')) {
		*why = "']' without an opening '['";
		return -EINVAL;
	}
	if (bare) {
		rc = parse_bare(s, r, why);
		if (rc <= 0)
			return rc;
		memset(r, 0, sizeof(*r));
	}
	memcpy(r->prefix, s, n + 1);
	return 0;
}

size_t rc_range_count(const struct rc_range *r)
{
	return r->is_range ? (size_t)(r->last - r->first) + 1 : 1;
}

int rc_range_element(const struct rc_range *r, size_t i, char *out, size_t len)
{
	int n;

	if (!r->is_range)
		n = snprintf(out, len, "%s", r->prefix);
	else
		n = snprintf(out, len, "%s%0*lu%s", r->prefix, r->width,
			     (unsigned long)(r->first + i), r->suffix);
	return (n < 0 || (size_t)n >= len) ? -ENAMETOOLONG : 0;
}
