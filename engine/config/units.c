/* SPDX-License-Identifier: Apache-2.0 */
/* Units of docs/POLICY.md.  Every form is parsed exactly with integers ("1.5MB" is 1500000 B,
 * never 1499999.99 B) so that a value printed back and parsed again is the same value. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rocectl/units.h"

struct unit {
	const char *suffix;
	uint64_t mult;
};

/* A decimal number "<digits>[.<digits>]" at the start of s: the digits as one integer and
 * how many of them are after the point.  Fraction zeros are only taken in when a non-zero
 * digit follows, so "1.000000000000000000000MB" is as good as "1MB". */
static int parse_decimal(const char *s, const char **end, uint64_t *mant, unsigned *frac)
{
	const char *p = s;
	uint64_t m = 0;
	unsigned f = 0, zeros = 0;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++)
		if (__builtin_mul_overflow(m, 10, &m) ||
		    __builtin_add_overflow(m, (uint64_t)(*p - '0'), &m))
			return -ERANGE;
	if (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			return -EINVAL;
		for (; *p >= '0' && *p <= '9'; p++) {
			if (*p == '0') {
				zeros++;
				continue;
			}
			for (unsigned z = 0; z <= zeros; z++)
				if (__builtin_mul_overflow(m, 10, &m))
					return -ERANGE;
			if (__builtin_add_overflow(m, (uint64_t)(*p - '0'), &m))
				return -ERANGE;
			f += zeros + 1;
			zeros = 0;
			if (f > 19)
				return -ERANGE;
		}
	}
	*end = p;
	*mant = m;
	*frac = f;
	return 0;
}

static uint64_t pow10u(unsigned n)
{
	uint64_t v = 1;

	while (n--)
		v *= 10;
	return v;
}

/* mant / 10^frac * mult, which must be a whole number (128-bit: no intermediate overflow). */
static int scale(uint64_t mant, unsigned frac, uint64_t mult, uint64_t *out, const char **why,
		 const char *not_whole)
{
	unsigned __int128 v = (unsigned __int128)mant * mult;
	uint64_t div = pow10u(frac);

	if (v % div != 0) {
		*why = not_whole;
		return -EINVAL;
	}
	v /= div;
	if (v > UINT64_MAX) {
		*why = "value is too large";
		return -ERANGE;
	}
	*out = (uint64_t)v;
	return 0;
}

/* The number, then exactly one of the suffixes (the whole rest of the string). */
static int parse_with_units(const char *s, const struct unit *units, uint64_t *out,
			    const char **why, const char *forms, const char *not_whole)
{
	const char *end;
	uint64_t mant;
	unsigned frac;
	int rc;

	*why = forms;
	if (!s || !*s)
		return -EINVAL;
	if (*s == '-') {
		*why = "must not be negative";
		return -EINVAL;
	}
	rc = parse_decimal(s, &end, &mant, &frac);
	if (rc == -ERANGE) {
		*why = "value is too large";
		return rc;
	}
	if (rc < 0)
		return rc;
	for (const struct unit *u = units; u->suffix; u++)
		if (strcmp(end, u->suffix) == 0)
			return scale(mant, frac, u->mult, out, why, not_whole);
	return -EINVAL;
}

int rc_parse_size(const char *s, uint64_t *bytes, const char **why)
{
	static const struct unit units[] = {
	    {"", 1},
	    {"B", 1},
	    {"KB", 1000},
	    {"MB", 1000 * 1000},
	    {"GB", 1000 * 1000 * 1000},
	    {"KiB", 1024},
	    {"MiB", 1024 * 1024},
	    {"GiB", 1024 * 1024 * 1024},
	    {NULL, 0},
	};

	return parse_with_units(s, units, bytes, why,
				"expected a size like 150000, 150KB, 1.5MB or 146KiB",
				"must be a whole number of bytes");
}

int rc_parse_length(const char *s, uint32_t *metres, const char **why)
{
	static const struct unit units[] = {{"m", 1}, {"km", 1000}, {NULL, 0}};
	uint64_t v;
	int rc;

	rc = parse_with_units(s, units, &v, why, "expected a length like 3m, 100m or 2km",
			      "must be a whole number of metres");
	if (rc < 0)
		return rc;
	if (v > UINT32_MAX) {
		*why = "value is too large";
		return -ERANGE;
	}
	if (v < 1) {
		*why = "must be at least 1m";
		return -EINVAL;
	}
	*metres = (uint32_t)v;
	return 0;
}

int rc_parse_speed(const char *s, uint32_t *gbps, const char **why)
{
	static const struct unit units[] = {{"G", 1}, {NULL, 0}};
	uint64_t v;
	int rc;

	rc = parse_with_units(s, units, &v, why, "expected a speed like 25G, 100G or 400G",
			      "must be a whole number of Gb/s");
	if (rc < 0)
		return rc;
	if (v > UINT32_MAX) {
		*why = "value is too large";
		return -ERANGE;
	}
	if (v < 1) {
		*why = "must be at least 1G";
		return -EINVAL;
	}
	*gbps = (uint32_t)v;
	return 0;
}

int rc_parse_duration(const char *s, uint64_t *usec, const char **why)
{
	static const struct unit units[] = {{"us", 1}, {"ms", 1000}, {"s", 1000 * 1000}, {NULL, 0}};

	return parse_with_units(s, units, usec, why, "expected a duration like 55us, 200ms or 1s",
				"must be a whole number of microseconds");
}

int rc_parse_percent(const char *s, double *pct, const char **why)
{
	const char *end;
	uint64_t mant;
	unsigned frac;
	int rc;

	/* The strict number grammar of the other units; a percentage may have any decimals. */
	*why = "expected a percentage like 100%, 5% or 0.5%";
	if (!s || !*s)
		return -EINVAL;
	if (*s == '-') {
		*why = "must not be negative";
		return -EINVAL;
	}
	rc = parse_decimal(s, &end, &mant, &frac);
	if (rc == -ERANGE)
		*why = "value is too large";
	if (rc < 0)
		return rc;
	if (strcmp(end, "%") != 0)
		return -EINVAL;
	*pct = (double)mant / (double)pow10u(frac);
	return 0;
}

void rc_format_size(uint64_t bytes, char *buf, unsigned len)
{
	/* Largest unit first; binary before decimal at each step so 2MiB stays 2MiB. */
	static const struct unit units[] = {
	    {"GiB", 1024ull * 1024 * 1024},
	    {"GB", 1000ull * 1000 * 1000},
	    {"MiB", 1024ull * 1024},
	    {"MB", 1000ull * 1000},
	    {"KiB", 1024},
	    {"KB", 1000},
	    {NULL, 0},
	};

	for (const struct unit *u = units; u->suffix; u++) {
		uint64_t whole = bytes / u->mult, rest = bytes % u->mult, centi;

		if (whole == 0)
			continue;
		if (rest == 0) {
			snprintf(buf, len, "%llu%s", (unsigned long long)whole, u->suffix);
			return;
		}
		/* One or two decimals, only when exact: 1.5MB, 1.25KiB (any byte count is
		 * exact in KB with three, which reads worse than the bytes). */
		if ((rest * 100) % u->mult != 0)
			continue;
		centi = rest * 100 / u->mult;
		if (centi % 10 == 0)
			snprintf(buf, len, "%llu.%01llu%s", (unsigned long long)whole,
				 (unsigned long long)(centi / 10), u->suffix);
		else
			snprintf(buf, len, "%llu.%02llu%s", (unsigned long long)whole,
				 (unsigned long long)centi, u->suffix);
		return;
	}
	snprintf(buf, len, "%lluB", (unsigned long long)bytes);
}
