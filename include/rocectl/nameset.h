/* SPDX-License-Identifier: Apache-2.0 */
/* A set of device or port names kept as ranges, for a summary line (engine/report/nameset.c).
 *
 * Names are added one at a time, in any order, repeats ignored, into at most RC_NAMESET_RUNS
 * runs of consecutive numbers: gpu0001 .. gpu2048 is one run, whatever their number.  A name
 * that fits no run when they are all taken is counted, not kept, so a set has a fixed size
 * however many names go in.  It prints as a --limit expression (engine/run/limit.c,
 * engine/config/range.c): "gpu[0001-2048],leaf01" selects exactly the names it holds. */
#ifndef ROCECTL_NAMESET_H
#define ROCECTL_NAMESET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rocectl/model.h"

#define RC_NAMESET_RUNS 12

/* The names `name` with its number (the last run of digits) replaced by first..last. */
struct rc_name_run {
	char name[RC_NAME_MAX];
	uint8_t num_at, num_len; /* where name's number is; num_len 0: a name without one */
	uint8_t width;		 /* zero-padded to this many digits; 0 = not padded */
	uint32_t first, last;
};

struct rc_nameset {
	size_t n_runs;
	struct rc_name_run run[RC_NAMESET_RUNS];
	size_t kept;	/* names the runs hold */
	size_t dropped; /* names added when no run could take them (repeats among them too) */
};

/* Add `name` (names longer than RC_NAME_MAX - 1 are cut). */
void rc_nameset_add(struct rc_nameset *s, const char *name);
/* The set as "gpu[0001-2048],leaf01" into buf.  When it does not fit in len, or names were
 * dropped, it ends in ",..." after the runs that fit.  Returns how many names the text leaves
 * out (those dropped, with any repeats among them, and those of the runs that did not fit). */
size_t rc_nameset_format(const struct rc_nameset *s, char *buf, size_t len);
/* The runs in name order (the text around the number, then the number), for a set whose
 * names came in no particular order: the same names print the same way. */
void rc_nameset_sort(struct rc_nameset *s);

#endif
