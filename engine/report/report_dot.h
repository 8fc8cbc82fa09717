/* SPDX-License-Identifier: Apache-2.0 */
/* The Graphviz DOT picture of a fabric, shared by its two printers: rc_report_dot, from a
 * whole read fleet (engine/report/report_dot.c), and the streaming verify's, which writes
 * each device's tooltip to a spool file as the device finishes and draws the picture once
 * every device is read (engine/report/stream_dot.c).  One layout and one set of statement
 * writers serve both, so the two pictures are the same bytes. */
#ifndef ROCECTL_REPORT_DOT_H
#define ROCECTL_REPORT_DOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rocectl/result.h"

/* Where the picture's devices and links come from. */
struct rc_dot_src {
	const struct rc_inventory *inv;
	const struct rc_fleet *fleet; /* the devices drawn, in this order */
	/* fleet device i's node statement, from "\t\t" to ";\n" */
	void (*node)(FILE *f, const struct rc_dot_src *s, size_t i);
	/* the next judged link's check (both ends selected), in inventory order; NULL after
	 * the last.  Valid until the next call. */
	const struct rc_link_check *(*next_link)(const struct rc_dot_src *s);
	/* drifted fields of end `side` (0: a, 1: b) of link `li`; 0 when its device was not
	 * selected or not read */
	size_t (*end_drift)(const struct rc_dot_src *s, size_t li, int side);
	void *ctx;
};

/* The whole graph: spines, leaves, the hosts clustered under their leaf, the links. */
void rc_dot_write(FILE *f, const struct rc_dot_src *s);

/* A device's node statement in three parts, the tooltip's lines counted across them:
 * the attributes up to the tooltip's text (its colours say whether the device was read,
 * drifted, and its host check, NULL for none); the tooltip's device part (read or not,
 * its drifted fields); the host check's lines and the statement's end. */
bool rc_dot_dev_ok(const struct rc_fleet_dev *d);
size_t rc_dot_dev_drift(const struct rc_fleet_dev *d);
void rc_dot_node_open(FILE *f, const struct rc_device *dev, bool ok, bool drifted,
		      const struct rc_host_check *hc);
void rc_dot_node_device(FILE *f, const struct rc_device *dev, const struct rc_fleet_dev *d,
			size_t *lines);
void rc_dot_node_close(FILE *f, const struct rc_host_check *hc, size_t *lines);

/* The streaming verify's DOT (engine/report/stream_dot.c).  Per fleet device, what its node
 * needs once the device is freed: where its tooltip part is in the spool file, whether it
 * was read and drifted, and how many tooltip lines it took; per link end, its drifted
 * fields (what the edges' colours and tooltips say of it). */
struct rc_dot_spool {
	FILE *f;
	long *at, *len;	 /* [fleet n] */
	uint8_t *lines;	 /* [fleet n] */
	uint8_t *flags;	 /* [fleet n]: read, drifted (stream_dot.c) */
	uint32_t *drift; /* [2 * n_links]: link l's end a at 2l, b at 2l + 1 */
};

/* The cross-hop checks the picture shows, made by the stream one at a time. */
struct rc_dot_checks {
	/* inventory device `dev`'s host check; false when it has none */
	bool (*host)(void *ctx, size_t dev, struct rc_host_check *hc);
	/* link `li`'s check; false when it is not judged (an end outside --limit) */
	bool (*link)(void *ctx, size_t li, struct rc_link_check *lc);
	void *ctx;
};

int rc_dot_spool_init(struct rc_dot_spool *ds, const struct rc_fleet *f, struct rc_err *err);
/* Each of the device's link ends' drift (its slots only: outside the stream's lock);
 * `ends` are the device's ends, each 2 * link + side. */
void rc_dot_spool_ends(struct rc_dot_spool *ds, const struct rc_inventory *inv,
		       const struct rc_fleet_dev *d, const size_t *ends, size_t n_ends);
/* Fleet device `d`'s tooltip part into the spool (under the stream's lock). */
void rc_dot_spool_device(struct rc_dot_spool *ds, const struct rc_fleet *f,
			 const struct rc_fleet_dev *d);
/* The graph, the nodes' tooltips from the spool, the checks from `c`. */
int rc_dot_spool_write(struct rc_dot_spool *ds, FILE *out, const struct rc_fleet *f,
		       const struct rc_dot_checks *c, struct rc_err *err);
void rc_dot_spool_fini(struct rc_dot_spool *ds);

#endif
