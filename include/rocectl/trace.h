/* SPDX-License-Identifier: Apache-2.0 */
/* Paths between two hosts and the judgement of each hop (engine/report/trace.c). */
#ifndef ROCECTL_TRACE_H
#define ROCECTL_TRACE_H

#include <stddef.h>

#include "rocectl/result.h"

#define RC_TRACE_MAX_HOPS     5 /* host, leaf, spine, leaf, host */
#define RC_TRACE_MAX_PATHS    256
#define RC_TRACE_MAX_PROBLEMS 8

struct rc_trace_hop {
	size_t dev;
	const char *in, *out; /* ports; NULL at the path's ends */
	size_t link_in;	      /* link from the previous hop; SIZE_MAX at the first hop */
};

struct rc_trace_path {
	size_t n;
	struct rc_trace_hop h[RC_TRACE_MAX_HOPS];
};

struct rc_trace {
	const struct rc_inventory *inv;
	size_t n; /* paths found (at most RC_TRACE_MAX_PATHS) */
	struct rc_trace_path p[RC_TRACE_MAX_PATHS];
};

/* Every path from host a to host b (inventory indices): through one shared switch, or
 * leaf -> spine -> leaf over every spine linked to both leaves. */
void rc_trace_find(struct rc_trace *t, const struct rc_inventory *inv, size_t a, size_t b);
/* The devices on some path as a --limit list ("gpu001,leaf01,..."), malloc'd; NULL when
 * out of memory. */
char *rc_trace_devices(const struct rc_trace *t);
/* A hop's status ("ok", "drift", "unknown", "error") and up to RC_TRACE_MAX_PROBLEMS
 * sentences saying why; `in` is the check of the link the hop is reached by, or NULL. */
const char *rc_trace_judge_hop(const struct rc_result *r, const struct rc_trace_hop *h,
			       const struct rc_link_check *in, char problems[][128], size_t *np);

#endif
