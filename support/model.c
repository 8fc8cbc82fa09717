/* SPDX-License-Identifier: Apache-2.0 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "rocectl/model.h"

const char *rc_trust_name(enum rc_trust t)
{
	switch (t) {
	case RC_TRUST_PCP:
		return "pcp";
	case RC_TRUST_DSCP:
		return "dscp";
	default:
		return "unset";
	}
}

const char *rc_tsa_name(enum rc_tsa t)
{
	switch (t) {
	case RC_TSA_STRICT:
		return "strict";
	case RC_TSA_DWRR:
		return "dwrr";
	case RC_TSA_VENDOR:
		return "vendor";
	default:
		return "unset";
	}
}

const char *rc_field_name(uint32_t field_bit)
{
	static const char *const names[] = {
	    "trust",	"dscp2prio", "pfc_enabled", "cable_length_m", "ecn",	 "headroom",
	    "ets",	"watchdog",  "mtu",	    "speed",	      "nic_ecn", "cnp",
	    "roce_tos", "dcbx",	     "prio2tc",	    "dcqcn",
	};

	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (field_bit == 1u << i)
			return names[i];
	return "?";
}

const char *rc_dcqcn_name(int param)
{
	static const char *const names[RC_DCQCN_N] = {
	    "rp_ai_rate",
	    "rp_hai_rate",
	    "rp_min_rate",
	    "rp_time_reset",
	    "rp_byte_reset",
	    "rp_threshold",
	    "rp_initial_alpha_value",
	    "rp_gd",
	    "np_min_time_between_cnps",
	};

	return param >= 0 && param < RC_DCQCN_N ? names[param] : NULL;
}

int rc_dcqcn_index(const char *name)
{
	for (int i = 0; name && i < RC_DCQCN_N; i++)
		if (!strcmp(rc_dcqcn_name(i), name))
			return i;
	return -1;
}

_Static_assert(RC_WHY_LEN <= 256, "why_end holds offsets into why in a byte");
_Static_assert(RC_F_ALL <= UINT16_MAX, "why_groups holds a group mask in 16 bits");

/* The reason is appended with the groups it is about.  A separator is written only with room
 * for some of the reason after it, so that a text read back from a journal is rebuilt byte for
 * byte by the same calls (engine/run/qos_json.c). */
static void effect_add(struct rc_effect *e, uint32_t groups, const char *fmt, va_list ap)
{
	size_t len = strnlen(e->why, sizeof(e->why)), at;

	if (len) {
		if (len + 3 >= sizeof(e->why))
			return;
		memcpy(e->why + len, "; ", 3);
		len += 2;
	}
	vsnprintf(e->why + len, sizeof(e->why) - len, fmt, ap);
	at = e->n_why;
	if (at == RC_WHY_PARTS) { /* full: the last slot takes this reason too */
		at--;
		groups |= e->why_groups[at];
	} else {
		e->n_why++;
	}
	e->why_groups[at] = (uint16_t)(groups & RC_F_ALL);
	e->why_end[at] = (uint8_t)strnlen(e->why, sizeof(e->why));
}

void rc_effect_drift(struct rc_effect *e, uint32_t groups, const char *fmt, ...)
{
	va_list ap;

	e->drift |= groups;
	va_start(ap, fmt);
	effect_add(e, groups, fmt, ap);
	va_end(ap);
}

void rc_effect_inert(struct rc_effect *e, uint32_t groups, const char *fmt, ...)
{
	va_list ap;

	e->inert |= groups;
	va_start(ap, fmt);
	effect_add(e, groups, fmt, ap);
	va_end(ap);
}

void rc_effect_warn(struct rc_effect *e, uint32_t groups, const char *fmt, ...)
{
	va_list ap;

	e->warn |= groups;
	va_start(ap, fmt);
	effect_add(e, groups, fmt, ap);
	va_end(ap);
}

void rc_effect_reason(struct rc_effect *e, uint32_t groups, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	effect_add(e, groups, fmt, ap);
	va_end(ap);
}

size_t rc_effect_n_reasons(const struct rc_effect *e)
{
	if (e->n_why)
		return e->n_why < RC_WHY_PARTS ? e->n_why : RC_WHY_PARTS;
	return e->why[0] ? 1 : 0;
}

void rc_effect_reason_at(const struct rc_effect *e, size_t i, uint32_t *groups, size_t *start,
			 size_t *end)
{
	size_t len = strnlen(e->why, sizeof(e->why));

	if (!e->n_why) { /* one reason about everything */
		*groups = RC_F_ALL;
		*start = 0;
		*end = len;
		return;
	}
	*groups = e->why_groups[i];
	*start = i ? (size_t)e->why_end[i - 1] + 2 : 0;
	*end = e->why_end[i];
	/* the offsets are ours, but a state may come from elsewhere: never past the text */
	if (*end > len)
		*end = len;
	if (*start > *end)
		*start = *end;
}

void rc_effect_why_of(const struct rc_effect *e, uint32_t groups, char *buf, size_t len)
{
	size_t o = 0;

	if (!len)
		return;
	buf[0] = '\0';
	for (size_t i = 0; i < rc_effect_n_reasons(e); i++) {
		uint32_t g;
		size_t a, b;
		int w;

		rc_effect_reason_at(e, i, &g, &a, &b);
		if (!(g & groups) || o + 1 >= len)
			continue;
		w = snprintf(buf + o, len - o, "%s%.*s", o ? "; " : "", (int)(b - a), e->why + a);
		if (w < 0)
			return;
		o += (size_t)w < len - o ? (size_t)w : len - o - 1;
	}
}
