/* SPDX-License-Identifier: Apache-2.0 */
/* What the path analysis (analyze.c) and the whole-fabric one (classes.c) share: the
 * pause tree's roots, storms and findings are judged the same way by both. */
#ifndef ROCECTL_DIAG_ANALYZE_H
#define ROCECTL_DIAG_ANALYZE_H

#include <stdbool.h>
#include <stddef.h>

#include "rocectl/diag.h"

/* A NIC sending pause most of the window, or tripping its storm detector. */
bool rc_diag_is_storm(const struct rc_diag *d, const struct rc_diag_deltas *x);
/* Add a finding once per (kind, device, port), up to RC_DIAG_MAX_FINDINGS. */
void rc_diag_add_finding(struct rc_diag *d, enum rc_diag_finding_kind kind, size_t dev,
			 const char *port, const char *fields, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* d->roots from every sampled device, and the "pauses without marks" finding. */
void rc_diag_find_roots(struct rc_diag *d);
/* The port (or its whole device) is a root of the pause tree. */
bool rc_diag_is_root_port(const struct rc_diag *d, size_t dev, const char *port);
/* CNPs sent and none handled anywhere. */
void rc_diag_check_cnp_handled(struct rc_diag *d);

#endif
