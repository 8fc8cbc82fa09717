/* SPDX-License-Identifier: Apache-2.0 */
/* The result of reading a fabric: per device and port (the fleet's diffs), per link (both
 * ends agree) and per host (every NIC lands on switches with the same QoS).  One model,
 * several printers: text and JSON (engine/report/report_fabric.c), Prometheus text exposition
 * (engine/report/report_prom.c), Graphviz DOT (engine/report/report_dot.c), HTML
 * (engine/report/report_html.c). */
#ifndef ROCECTL_RESULT_H
#define ROCECTL_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

#include "rocectl/fleet.h"
#include "rocectl/group.h"
#include "rocectl/print.h"

enum rc_check_status {
	RC_CHECK_OK = 0,
	RC_CHECK_MISMATCH, /* the two sides disagree */
	RC_CHECK_UNKNOWN,  /* a side could not be read */
};

#define RC_CHECK_MAX_MISMATCHES 16

struct rc_mismatch {
	char field[48];	  /* "dscp2prio[26]", "pfc_enabled", "mtu", "ecn[3].kmin_bytes" ... */
	char a_value[48]; /* the A side (link: a end; host: first switch port) */
	char b_value[48];
	char a_where[2 * RC_NAME_MAX]; /* host checks: "leaf01:swp1"; links: the a endpoint */
	char b_where[2 * RC_NAME_MAX];
};

struct rc_link_check {
	size_t link; /* index into inv->links */
	enum rc_check_status status;
	size_t n;
	struct rc_mismatch v[RC_CHECK_MAX_MISMATCHES];
};

struct rc_host_check {
	size_t dev; /* index into inv->devices: a host with links to two or more switch ports */
	enum rc_check_status status;
	size_t n;
	struct rc_mismatch v[RC_CHECK_MAX_MISMATCHES];
	/* While the check is built (rc_host_check_side): the first switch side read, which
	 * every other side is compared with, and how many sides were seen. */
	size_t n_sides;
	bool first, unknown;
	struct port_qos first_qos;
	char first_where[2 * RC_NAME_MAX];
};

struct rc_result {
	const struct rc_fleet *fleet; /* devices: fleet->devs[i].run.{have,want,changes}, rc */
	const struct rc_inventory *inv;
	time_t when; /* when the read finished */
	size_t n_links;
	struct rc_link_check *links; /* only links whose two ends were both selected */
	size_t n_hosts;
	struct rc_host_check *hosts;
};

/* Build the link and host checks from a fleet that has been read. */
int rc_result_build(struct rc_result *r, const struct rc_fleet *f, struct rc_err *err);
void rc_result_fini(struct rc_result *r);
/* _fini releases what the struct holds, not the struct (_free would); the old name is
 * kept for callers not yet renamed. */
static inline void rc_result_free(struct rc_result *r)
{
	rc_result_fini(r);
}

/* The fleet device of inventory device `dev`, or NULL when it was not selected. */
const struct rc_fleet_dev *rc_result_device(const struct rc_result *r, size_t dev);
/* A port's state inside a fleet device, or NULL. */
const struct rc_port_state *rc_result_port(const struct rc_fleet_dev *d, const char *port,
					   bool want);
/* Drift of one port: SET+UNKNOWN changes of that port in the device's diff. */
size_t rc_result_port_drift(const struct rc_fleet_dev *d, const char *port);

/* The checks of one link from its two ends' states (NULL: that end was not read), for a
 * caller that keeps its own per-port state (the streaming verify, engine/report/stream.c). */
void rc_check_link_ends(const struct rc_policy *pol, const struct rc_inventory *inv, size_t li,
			const struct port_qos *a, const struct port_qos *b,
			struct rc_link_check *lc);
/* A dual-homed host's check, built from the switch side of each of its links in turn
 * (NULL: that side was not read; `where` is "leaf01:swp1"); _end returns false when the
 * host has fewer than two links (no check). */
void rc_host_check_begin(struct rc_host_check *hc, size_t dev);
void rc_host_check_side(struct rc_host_check *hc, const struct rc_policy *pol,
			const struct port_qos *side, const char *where);
bool rc_host_check_end(struct rc_host_check *hc);

/* Printers.  rc_report_checks prints the link and host checks (text: only the bad ones)
 * and counts the checks that are not ok. */
void rc_report_checks(struct rc_out *o, const struct rc_result *r, size_t *bad_links,
		      size_t *bad_hosts);
/* The same one check at a time (the streaming verify has no result): begin, every link,
 * then every host, end (which prints the grouped text and the counts line). */
struct rc_checks {
	struct rc_out *o;
	struct rc_group g;
	int section; /* not grouped: 0 none yet, 1 links, 2 hosts, 3 closed */
	size_t n_links, bad_links, n_hosts, bad_hosts;
};
void rc_checks_begin(struct rc_checks *c, struct rc_out *o);
void rc_checks_link(struct rc_checks *c, const struct rc_inventory *inv,
		    const struct rc_link_check *lc);
void rc_checks_host(struct rc_checks *c, const struct rc_inventory *inv,
		    const struct rc_host_check *hc);
void rc_checks_end(struct rc_checks *c);
/* One link or host check as a JSON object (or its text lines). */
void rc_report_link(struct rc_out *o, const struct rc_inventory *inv,
		    const struct rc_link_check *c);
void rc_report_host(struct rc_out *o, const struct rc_inventory *inv,
		    const struct rc_host_check *c);
void rc_report_prometheus(FILE *f, const struct rc_result *r);
/* rocectl_build_info{version, command} 1.  `command` tells the files of one node apart: the
 * textfile collector refuses two files that hold the same series. */
void rc_prom_build_info(FILE *f, const char *command);

/* The same file, made while devices are read (the streaming verify, engine/report/stream.c):
 * each device's, link's and host's samples go to a spool file per family (tmpfile(3), on
 * disk, not in memory) as they are known; rc_prom_spool_write prints every family in
 * rc_report_prometheus's order and grouping.  _init and _write return 0 or a negative errno
 * with `err` filled. */
struct rc_prom_spool {
	FILE *up, *port[3], *field, *link_ok, *link_unknown, *host_ok, *host_unknown;
	FILE **counter;	    /* [rc_prom_n_families()] */
	bool *counter_used; /* a family with no sample has no header either */
	size_t ok, failed, drift;
};
int rc_prom_spool_init(struct rc_prom_spool *ps, struct rc_err *err);
void rc_prom_spool_device(struct rc_prom_spool *ps, const struct rc_device *dev,
			  const struct rc_fleet_dev *d);
/* The same in two steps, so that a worker formats its device's samples without the lock
 * the spool needs (a 64-port switch far from policy is ~1,000 samples): _make outside it
 * (0, or -ENOMEM: then rc_prom_spool_device), _add under it, which frees them. */
struct rc_prom_lines {
	char *buf;   /* every family's samples, one after the other */
	size_t *end; /* [n]: where family slot i's end in buf */
	size_t n;
	bool ok;
	size_t drift;
};
int rc_prom_lines_make(struct rc_prom_lines *l, const struct rc_device *dev,
		       const struct rc_fleet_dev *d);
void rc_prom_spool_add(struct rc_prom_spool *ps, struct rc_prom_lines *l);
void rc_prom_lines_fini(struct rc_prom_lines *l);
void rc_prom_spool_link(struct rc_prom_spool *ps, const struct rc_inventory *inv, size_t link,
			enum rc_check_status status);
void rc_prom_spool_host(struct rc_prom_spool *ps, const struct rc_inventory *inv, size_t dev,
			enum rc_check_status status);
int rc_prom_spool_write(struct rc_prom_spool *ps, FILE *out, time_t when, struct rc_err *err);
void rc_prom_spool_fini(struct rc_prom_spool *ps);

/* One interface of a host that verified itself (`rocectl agent verify|enforce --format
 * prometheus`): its drifted or unreadable fields, or ok false when it could not be read. */
struct rc_prom_iface {
	const char *port;
	size_t drift;
	bool ok;
};
/* The same families as rc_report_prometheus, for one host and its interfaces (ok false: the
 * host could not be read at all), so the alert rules work on a node's textfile too. */
void rc_report_prometheus_host(FILE *f, const struct rc_device *dev, bool ok, time_t when,
			       const struct rc_prom_iface *v, size_t n);
void rc_report_dot(FILE *f, const struct rc_result *r);
/* One self-contained, offline HTML page (engine/report/report_html.c): the fabric drawn by
 * tier and leaf, every device and link coloured by state, drift by field, detail on click. */
void rc_report_html(FILE *f, const struct rc_result *r);

#endif
