/* SPDX-License-Identifier: Apache-2.0 */
/* Where it hurts: counter deltas between two samples, judged along the paths between hosts
 * (engine/diag/).  Pure: no device is read here; the caller samples the counters twice
 * (`rocectl diagnose`, `rocectl trace --counters`) and hands over both lists.
 *
 * On a path from host A to host B traffic flows A -> B.  A switch hop that sends PFC pause
 * on its `in` port (upstream, towards A) and receives none on its `out` port (downstream)
 * holds the congestion: it is the "root" of the pause tree when its `out` port shows the
 * congested queue (ECN marks or drops), or when nothing else on the device explains the
 * pauses.  A hop that sends pause upstream because it is paused itself, or because another
 * of its egress queues is full, "relays" it.  A NIC that sends pauses most of the time (or
 * trips its storm detector) is a "storm": its host cannot take what it is sent. */
#ifndef ROCECTL_DIAG_H
#define ROCECTL_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "rocectl/driver.h"
#include "rocectl/fleet.h"
#include "rocectl/inventory.h"
#include "rocectl/print.h"
#include "rocectl/trace.h"

/* Which fields of struct rc_diag_deltas the device reports (SONiC has no ECN counter in
 * `show pfc counters`; EOS counts PFC per port, not per priority). */
enum rc_diag_have {
	RC_DH_PAUSE_TX = 1u << 0,
	RC_DH_PAUSE_RX = 1u << 1,
	RC_DH_PAUSE_US = 1u << 2,
	RC_DH_ECN_MARKED = 1u << 3,
	RC_DH_ECN_RECEIVED = 1u << 4,
	RC_DH_CNP_SENT = 1u << 5,
	RC_DH_CNP_HANDLED = 1u << 6,
	RC_DH_DISCARDS = 1u << 7,
	RC_DH_OUT_OF_BUFFER = 1u << 8,
	RC_DH_SEQ_ERRORS = 1u << 9,
	RC_DH_STORM = 1u << 10,
};

/* One port's counter deltas over the window, lossless priorities only where the counter
 * is per priority or per class. */
struct rc_diag_deltas {
	uint64_t pause_tx, pause_rx; /* PFC frames sent / received */
	uint64_t pause_tx_us;	     /* time spent sending pause, where reported */
	uint64_t ecn_marked;	     /* switch: packets marked CE on egress */
	uint64_t ecn_received;	     /* NIC: CE-marked RoCE packets received */
	uint64_t cnp_sent, cnp_handled;
	uint64_t discards;	/* buffer, WRED, PHY discards and other drop counters */
	uint64_t out_of_buffer; /* RDMA receive queue out of buffers (host-side) */
	uint64_t seq_errors;	/* out-of-sequence, sequence NAKs (losses seen by RDMA) */
	uint64_t storm_events;	/* NIC pause-storm warnings/errors */
	uint32_t have;		/* enum rc_diag_have */
	bool reset;		/* a counter went backwards (cleared): its delta is its value */
};

/* Which counters count: the lossless priorities and the traffic classes ECN marks on. */
struct rc_diag_scope {
	uint8_t prio_mask;
	uint8_t tc_mask;
};

/* Deltas of every port of one device. */
struct rc_diag_port {
	char name[RC_NAME_MAX];
	struct rc_diag_deltas d;
};

struct rc_diag_dev {
	bool sampled; /* both samples were read */
	size_t n;
	struct rc_diag_port *v;
};

/* Deltas per port between two samples of one device's counters.  A counter present in
 * only one sample is left out; one that went backwards counts its new value. */
int rc_diag_dev_build(struct rc_diag_dev *out, const struct rc_counters *before,
		      const struct rc_counters *after, const struct rc_diag_scope *scope,
		      struct rc_err *err);
void rc_diag_dev_fini(struct rc_diag_dev *d);
/* `counters --interval`/`--since`: every counter of `after` as its rise since `before`,
 * matched by port and name, into out (empty on entry).  A counter that went backwards
 * (cleared, a restarted driver) counts its new value and adds one to *resets; one the
 * device keeps switched off stays "not enabled"; one absent from `before` is left out
 * and adds one to *unmatched.  0 or -ENOMEM. */
int rc_counters_delta(struct rc_counters *out, const struct rc_counters *before,
		      const struct rc_counters *after, size_t *resets, size_t *unmatched);
/* A port's deltas, or NULL. */
const struct rc_diag_deltas *rc_diag_dev_port(const struct rc_diag_dev *d, const char *port);

enum rc_diag_role {
	RC_HOP_CLEAN = 0,
	RC_HOP_RELAY,
	RC_HOP_ROOT,
	RC_HOP_STORM,
	RC_HOP_UNKNOWN, /* the device could not be sampled */
};

enum rc_diag_verdict {
	RC_VERDICT_CLEAN = 0,
	RC_VERDICT_CONGESTED,
	RC_VERDICT_LOSSY,
	RC_VERDICT_HOST_SIDE,
	RC_VERDICT_UNKNOWN,
};

#define RC_DIAG_WHY 200

struct rc_diag_hop {
	enum rc_diag_role role;
	const struct rc_diag_deltas *in, *out; /* NULL where the hop has no such port */
	char why[RC_DIAG_WHY];
};

struct rc_diag_path {
	const struct rc_trace_path *p; /* hops, devices and ports */
	size_t from, to;	       /* inventory indices of the hosts */
	struct rc_diag_hop h[RC_TRACE_MAX_HOPS];
	enum rc_diag_verdict verdict;
	char at[2 * RC_NAME_MAX + 2]; /* "leaf02:swp2": where the verdict points */
	char evidence[RC_DIAG_WHY];
};

enum rc_diag_finding_kind {
	RC_FIND_MARKS_NO_CNP,	  /* marks reach a NIC that sends no CNPs */
	RC_FIND_CNP_NOT_HANDLED,  /* CNPs are sent but no sender reacts */
	RC_FIND_PAUSE_NO_MARKS,	  /* PFC acts before ECN: thresholds in the wrong order */
	RC_FIND_UNEXPECTED_PAUSE, /* (reserved) pauses on a lossy priority */
};

struct rc_diag_finding {
	enum rc_diag_finding_kind kind;
	size_t dev;
	char port[RC_NAME_MAX];
	char message[320];
	char fields[96]; /* the settings to change, comma-separated */
};

#define RC_DIAG_MAX_FINDINGS 64

/* Everything one window says.  devs[] is indexed like the inventory's devices (devices
 * not sampled have sampled == false). */
struct rc_diag {
	const struct rc_inventory *inv;
	const struct rc_diag_dev *devs;
	double window_s;
	size_t n_paths;
	struct rc_diag_path *paths;
	size_t n_findings;
	struct rc_diag_finding findings[RC_DIAG_MAX_FINDINGS];
	/* the roots of the pause tree over the whole window ("leaf02:swp2"), for paths that
	 * are only paused by it */
	size_t n_roots;
	char roots[8][2 * RC_NAME_MAX + 2];
	/* by class (rc_diag_analyze_classes): paths stays empty, the classes are fab's */
	struct rc_diag_fabric *fab;
	size_t n_ports;
	struct rc_diag_port_role *ports;
};

/* A NIC pausing for at least this share of the window is a storm. */
#define RC_DIAG_STORM_SHARE 0.5

/* Paths between hosts, each with the hosts it goes from and to (engine/diag/sample.c). */
#define RC_DIAG_MAX_PATHS 65536

struct rc_diag_paths {
	size_t n;
	struct rc_trace_path *p;
	size_t (*ends)[2]; /* inventory indices of the sending and the receiving host */
};

/* Every path from each host to each other one (rc_trace_find), in both directions unless
 * one_way (then from hosts[i] to hosts[j] for i < j only). */
int rc_diag_paths(const struct rc_inventory *inv, const size_t *hosts, size_t n_hosts, bool one_way,
		  struct rc_diag_paths *out, struct rc_err *err);
void rc_diag_paths_fini(struct rc_diag_paths *p);
/* ---- the whole fabric by equal-cost class (engine/diag/fabric.c, classes.c) -------------
 * Enumerating host pairs does not scale (2,048 hosts with two NICs over eight spines are
 * 134 million paths), and the paths between two edge switches all cross the same fabric
 * ports: one class per ordered pair of edges (the switches the chosen hosts hang off)
 * stands for them.  Its verdict is the worst its paths could have; NIC problems (storms,
 * a receiver pausing its switch, losses) are listed per NIC port instead of per path. */

/* A NIC port of a chosen host and the edge switch port it is linked to. */
struct rc_diag_nic {
	size_t host, edge;
	const char *port, *edge_port;
};

struct rc_diag_class {
	size_t from, to; /* edge switches, inventory indices (equal: both ends on one switch) */
	size_t n_ecmp;	 /* equal-cost paths between them (1 on one switch) */
	size_t n_paths;	 /* NIC-port pairs on different hosts, times n_ecmp */
	enum rc_diag_verdict verdict;
	char at[2 * RC_NAME_MAX + 2];
	char evidence[RC_DIAG_WHY];
};

struct rc_diag_fabric {
	const struct rc_inventory *inv;
	size_t *adj_off, *adj; /* each device's links: adj[adj_off[d] .. adj_off[d + 1]) */
	size_t n_nics;
	struct rc_diag_nic *nics;    /* sorted by edge */
	size_t *edge_first, *edge_n; /* per device: its NICs in nics[], 0 when not an edge */
	size_t n_classes;
	struct rc_diag_class *classes;
	size_t n_paths; /* the paths the classes stand for */
};

/* One equal-cost path between edges x and y: x -> spine -> y. */
struct rc_diag_ecmp {
	size_t spine;
	const char *x_out, *s_in, *s_out, *y_in;
};
typedef void (*rc_diag_ecmp_fn)(const struct rc_diag_ecmp *h, void *ctx);

/* The NIC ports of the hosts with hosts[i] set, their edges and the classes. */
int rc_diag_fabric_build(struct rc_diag_fabric *fab, const struct rc_inventory *inv,
			 const bool *hosts, struct rc_err *err);
void rc_diag_fabric_fini(struct rc_diag_fabric *fab);
/* The equal-cost paths from edge x to edge y (1 when x == y, fn not called), each passed
 * to fn when fn is not NULL. */
size_t rc_diag_fabric_ecmp(const struct rc_diag_fabric *fab, size_t x, size_t y, rc_diag_ecmp_fn fn,
			   void *ctx);
/* The hosts, edges and spines of the classes as a --limit list, malloc'd (NULL: no
 * memory); devices with skip[i] set are left out (NULL: none). */
char *rc_diag_fabric_devices(const struct rc_diag_fabric *fab, const bool *skip);

/* A port that is not clean in the whole-fabric judgement. */
struct rc_diag_port_role {
	size_t dev;
	const char *port;
	enum rc_diag_role role;
	const struct rc_diag_deltas *x;
	char why[RC_DIAG_WHY];
};

/* The lossless priorities of the policy and the classes they map to (and ECN's). */
struct rc_diag_scope rc_diag_scope_of(const struct rc_policy *pol);

/* Judge every hop of every path and the paths; `paths` must outlive d.  devs has
 * inv->n_devices entries. */
int rc_diag_analyze(struct rc_diag *d, const struct rc_inventory *inv,
		    const struct rc_diag_dev *devs, double window_s,
		    const struct rc_diag_paths *paths, struct rc_err *err);
void rc_diag_fini(struct rc_diag *d);
/* Judge the whole fabric by class (fab must outlive d): roots and findings as above, every
 * port that is not clean, and a verdict per class in fab->classes. */
int rc_diag_analyze_classes(struct rc_diag *d, const struct rc_inventory *inv,
			    const struct rc_diag_dev *devs, double window_s,
			    struct rc_diag_fabric *fab, struct rc_err *err);

/* Sample and judge in one call: the devices on `paths` through their drivers, twice,
 * interval_us apart, on a fleet of their own (its per-device errors stay in r->f); devices
 * with skip[i] set (NULL: none) are not read, and their hops stay unknown. */
struct rc_diag_run {
	struct rc_fleet f;
	size_t n_devs;
	struct rc_diag_dev *devs;
	struct rc_diag d;
	size_t failed; /* devices that could not be read */
};

int rc_diag_run(struct rc_diag_run *r, const struct rc_inventory *inv, const struct rc_policy *pol,
		const struct rc_run_opts *opts, const struct rc_diag_paths *paths, const bool *skip,
		uint64_t interval_us, unsigned parallel, struct rc_err *err);
/* The same over fab's classes (rc_diag_analyze_classes); skip as for
 * rc_diag_fabric_devices. */
int rc_diag_run_classes(struct rc_diag_run *r, const struct rc_inventory *inv,
			const struct rc_policy *pol, const struct rc_run_opts *opts,
			struct rc_diag_fabric *fab, const bool *skip, uint64_t interval_us,
			unsigned parallel, struct rc_err *err);
void rc_diag_run_fini(struct rc_diag_run *r);

/* Printers (engine/report/report_diag.c).  rc_diag_print writes "window_s", "roots",
 * "paths" (each with "from", "from_port", "to", "to_port", "verdict", "at", "evidence" and
 * "hops": [{"device", "in", "out", "role", "why", "deltas": {"in": {...}, "out": {...}}}])
 * and "findings" ([{"kind", "device", "port", "message", "fields"}]) into the open object,
 * and returns the number of paths that are not clean.  Text lists every path, and the hops
 * of those that are not clean. */
size_t rc_diag_print(struct rc_out *o, const struct rc_diag *d);
/* One path's "hops" array; one hop's "role", "why" and "deltas" (`trace --counters`). */
void rc_diag_print_hops(struct rc_out *o, const struct rc_diag *d, const struct rc_diag_path *p);
void rc_diag_print_hop(struct rc_out *o, const struct rc_diag_path *p, size_t k);
/* rocectl_diagnose_path_clean, _paths, _paths_not_clean (one sample per pair of NIC ports,
 * equal-cost paths folded), _pause_root, _finding, _window_seconds; -ENOMEM. */
int rc_diag_prom(FILE *f, const struct rc_diag *d);
/* The same fabric page as rc_report_html (engine/report/report_html.c), each device and link
 * coloured by the worst role it takes on a path (root, storm, relay, clean); fl (may be
 * NULL) gives the devices' read errors. */
void rc_report_diag_html(FILE *f, const struct rc_diag *d, const struct rc_fleet *fl, time_t when);

const char *rc_diag_role_name(enum rc_diag_role r);
const char *rc_diag_verdict_name(enum rc_diag_verdict v);
const char *rc_diag_finding_name(enum rc_diag_finding_kind k);

#endif
