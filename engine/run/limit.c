/* SPDX-License-Identifier: Apache-2.0 */
/* --limit (include/rocectl/fleet.h): which devices of the inventory a command works on.
 * A comma-separated list of terms, each a device name, a role (spine, leaf, switch, host),
 * an inventory-style range ("gpu[001-016]", engine/config/range.c), or a shell glob
 * ("leaf*", fnmatch(3)); a term prefixed with '!' removes what it matches.  Only
 * exclusions: everything but them.  A term that matches nothing is refused, so that a typo
 * never silently selects nothing (or, excluded, everything). */
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/fleet.h"
#include "rocectl/util.h"
#include "../config/range.h"

/* One term as a string; -ENAMETOOLONG when it does not fit. */
static int term_at(const char *p, size_t len, char *out, size_t out_len)
{
	if (len >= out_len)
		return -ENAMETOOLONG;
	memcpy(out, p, len);
	out[len] = '\0';
	return 0;
}

static bool range_match(const struct rc_range *r, const char *name)
{
	size_t np = strlen(r->prefix), ns = strlen(r->suffix), n = strlen(name);
	char digits[16], again[24];
	uint64_t v;

	if (n <= np + ns || strncmp(name, r->prefix, np) || strcmp(name + n - ns, r->suffix) ||
	    n - np - ns >= sizeof(digits))
		return false;
	memcpy(digits, name + np, n - np - ns);
	digits[n - np - ns] = '\0';
	if (rc_parse_u64(digits, 10, r->first, r->last, &v))
		return false;
	/* the same spelling the inventory gives the element: gpu[001-016] is gpu007, not gpu7 */
	snprintf(again, sizeof(again), "%0*" PRIu64, r->width, v);
	return !strcmp(again, digits);
}

static bool role_match(const struct rc_device *d, const char *t)
{
	return !strcmp(t, rc_role_name(d->role)) ||
	       (!strcmp(t, "switch") && d->kind == RC_DEV_SWITCH);
}

static bool is_role(const char *t)
{
	return !strcmp(t, "spine") || !strcmp(t, "leaf") || !strcmp(t, "host") ||
	       !strcmp(t, "switch");
}

bool rc_limit_term_match(const struct rc_device *d, const char *t)
{
	struct rc_range r;
	const char *why;

	if (!strcmp(t, d->name) || role_match(d, t))
		return true;
	if (strchr(t, '[') && rc_range_parse(t, false, &r, &why) == 0 && r.is_range)
		return range_match(&r, d->name);
	if (strpbrk(t, "*?["))
		return fnmatch(t, d->name, 0) == 0;
	return false;
}

int rc_limit_select(const struct rc_inventory *inv, const char *limit, bool *sel,
		    struct rc_err *err)
{
	bool any_positive = false;
	const char *p;

	for (p = limit; p && *p;) {
		size_t len = strcspn(p, ",");

		any_positive |= len > 0 && *p != '!';
		p += len + (p[len] == ',');
	}
	for (size_t i = 0; i < inv->n_devices; i++)
		sel[i] = !any_positive;
	for (p = limit; p && *p;) {
		size_t len = strcspn(p, ",");
		char t[2 * RC_NAME_MAX];
		bool neg = *p == '!', hit = false;

		if (!len)
			return rc_errf(err, EINVAL, "--limit: an empty name in '%s'", limit);
		if (term_at(p + neg, len - neg, t, sizeof(t)))
			return rc_errf(err, ENAMETOOLONG, "--limit: '%.*s' is too long", (int)len,
				       p);
		if (!t[0])
			return rc_errf(err, EINVAL, "--limit: '!' needs a name after it");
		for (size_t i = 0; i < inv->n_devices; i++) {
			if (!rc_limit_term_match(&inv->devices[i], t))
				continue;
			hit = true;
			sel[i] |= !neg; /* exclusions are applied last, below */
		}
		if (!hit && !is_role(t))
			return rc_errf(err, EINVAL,
				       "--limit: '%s' is neither a device nor a role, and matches "
				       "no device name",
				       t);
		p += len + (p[len] == ',');
	}
	/* exclusions win whatever their place in the list */
	for (p = limit; p && *p;) {
		size_t len = strcspn(p, ",");
		char t[2 * RC_NAME_MAX];

		if (*p == '!' && !term_at(p + 1, len - 1, t, sizeof(t)))
			for (size_t i = 0; i < inv->n_devices; i++)
				if (rc_limit_term_match(&inv->devices[i], t))
					sel[i] = false;
		p += len + (p[len] == ',');
	}
	return 0;
}

char *rc_limit_of(const struct rc_inventory *inv, const bool *on, const bool *skip)
{
	char *s = calloc(inv->n_devices ? inv->n_devices : 1, RC_NAME_MAX + 1);
	size_t off = 0;

	for (size_t d = 0; s && d < inv->n_devices; d++)
		if (on[d] && !(skip && skip[d]))
			off += (size_t)snprintf(s + off, RC_NAME_MAX + 1, "%s%s", off ? "," : "",
						inv->devices[d].name);
	return s;
}
