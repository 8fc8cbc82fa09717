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

static void effect_add(struct rc_effect *e, const char *fmt, va_list ap)
{
	size_t len = strnlen(e->why, sizeof(e->why));

	if (len && len + 2 < sizeof(e->why)) {
		memcpy(e->why + len, "; ", 3);
		len += 2;
	}
	if (len + 1 < sizeof(e->why))
		vsnprintf(e->why + len, sizeof(e->why) - len, fmt, ap);
}

void rc_effect_drift(struct rc_effect *e, uint32_t groups, const char *fmt, ...)
{
	va_list ap;

	e->drift |= groups;
	va_start(ap, fmt);
	effect_add(e, fmt, ap);
	va_end(ap);
}

void rc_effect_inert(struct rc_effect *e, uint32_t groups, const char *fmt, ...)
{
	va_list ap;

	e->inert |= groups;
	va_start(ap, fmt);
	effect_add(e, fmt, ap);
	va_end(ap);
}

void rc_effect_warn(struct rc_effect *e, uint32_t groups, const char *fmt, ...)
{
	va_list ap;

	e->warn |= groups;
	va_start(ap, fmt);
	effect_add(e, fmt, ap);
	va_end(ap);
}
