/* SPDX-License-Identifier: Apache-2.0 */
/* What the diagnosis printers share (report_diag.c: per path, report_diag_class.c: per
 * equal-cost class). */
#ifndef ROCECTL_REPORT_DIAG_H
#define ROCECTL_REPORT_DIAG_H

#include <stdbool.h>
#include <stdio.h>

#include "rocectl/diag.h"

/* One port's deltas: JSON every counter the device reports, text the non-zero ones. */
void rc_diag_out_deltas(struct rc_out *o, const char *key, const char *port,
			const struct rc_diag_deltas *x);
/* key="value" escaped as the exposition format says, after a comma unless first. */
void rc_diag_prom_label(FILE *f, const char *key, const char *v, bool first);
/* The by-class body of rc_diag_print and rc_diag_prom. */
size_t rc_diag_print_classes(struct rc_out *o, const struct rc_diag *d);
void rc_diag_prom_classes(FILE *f, const struct rc_diag *d);
/* roots and findings, as both bodies print them */
void rc_diag_out_roots(struct rc_out *o, const struct rc_diag *d);
void rc_diag_out_findings(struct rc_out *o, const struct rc_diag *d);

#endif
