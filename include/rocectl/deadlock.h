/* SPDX-License-Identifier: Apache-2.0 */
/* PFC deadlock risk from the inventory's topology (engine/diag/deadlock.c).
 *
 * A lossless priority deadlocks when pause frames chase each other around a cycle of
 * buffers: each egress queue waits for the next one to drain.  The buffer dependency graph
 * has one node per direction of each switch-to-switch link (its egress queue) and an edge
 * A -> B when routed traffic leaves by A and then by B.  Routing is taken as every
 * shortest path between every two hosts (ECMP), which in a two-tier Clos is up-down: such
 * paths never go down and up again, so the graph has no cycle.  A link between two
 * switches of the same tier (leaf-leaf, spine-spine) or between two hosts (a host that
 * forwards) breaks up-down: a reroute after a failure or the shortest paths themselves
 * (a ring) can then close a cycle.  Those links, and the links on cycles found, are
 * "deadlock-prone"; on such a link a lossless priority needs the PFC watchdog, which
 * breaks a deadlock by dropping (the mitigation the vendors' PFC watchdog guides give). */
#ifndef ROCECTL_DEADLOCK_H
#define ROCECTL_DEADLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rocectl/inventory.h"
#include "rocectl/print.h"
#include "rocectl/result.h"

#define RC_DL_MAX_CYCLES 8
#define RC_DL_CYCLE_MAX	 32

/* A node of the graph: link index * 2 + direction (0: a -> b, 1: b -> a). */
struct rc_dl_cycle {
	size_t n;
	size_t node[RC_DL_CYCLE_MAX];
	bool truncated; /* longer than RC_DL_CYCLE_MAX: the first ones are kept */
};

struct rc_deadlock {
	const struct rc_inventory *inv;
	size_t n_lateral;
	size_t *lateral; /* links that break up-down */
	size_t n_cycles; /* cycles found (one per strongly connected component) */
	struct rc_dl_cycle cycles[RC_DL_MAX_CYCLES];
	size_t n_cyclic_components; /* all of them, including those not listed */
	bool *prone_link;	    /* per inventory link: lateral or on a cycle */
	bool prone;		    /* some link is */
};

int rc_deadlock_analyze(struct rc_deadlock *dl, const struct rc_inventory *inv, struct rc_err *err);
void rc_deadlock_fini(struct rc_deadlock *dl);
/* "leaf-leaf", "spine-spine", "host-host" for a lateral link; NULL otherwise. */
const char *rc_deadlock_lateral_kind(const struct rc_inventory *inv, size_t link);

/* verify: the deadlock-prone links' switch ports whose PFC watchdog was read off, for the
 * policy's lossless priorities, as a "deadlock" object (text: a section when prone);
 * *unprotected counts those ports (drift).  engine/report/report_deadlock.c */
void rc_report_deadlock(struct rc_out *o, const struct rc_deadlock *dl, const struct rc_result *r,
			size_t *unprotected);
void rc_report_deadlock_prom(FILE *f, const struct rc_deadlock *dl, const struct rc_result *r);
/* The same with the unprotected ports counted by the caller (rc_deadlock_unprotected_ends). */
void rc_report_deadlock_prom_n(FILE *f, const struct rc_deadlock *dl, size_t unprotected);
/* The count rc_report_deadlock makes, without printing. */
size_t rc_deadlock_unprotected(const struct rc_deadlock *dl, const struct rc_result *r);

/* The same from what is known of each link end, without a result (verify --format jsonl
 * keeps only a brief of each end, include/rocectl/stream.h). */
struct rc_dl_ends {
	uint8_t lossless; /* the policy's lossless priorities (pfc_priorities) */
	bool (*selected)(const void *ctx, size_t dev); /* the device is in the run */
	/* "on", "off" or "unknown" for end `side` (0: a, 1: b) of the link */
	const char *(*watchdog)(const void *ctx, size_t link, int side);
	const void *ctx;
};
void rc_report_deadlock_ends(struct rc_out *o, const struct rc_deadlock *dl,
			     const struct rc_dl_ends *e, size_t *unprotected);
size_t rc_deadlock_unprotected_ends(const struct rc_deadlock *dl, const struct rc_dl_ends *e);

#endif
