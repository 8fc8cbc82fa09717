/* SPDX-License-Identifier: Apache-2.0 */
/* Canary repairs for `rocectl enforce --canary N` (engine/run/canary.c): a few units of the
 * fabric are repaired first, their drop and pause counters (and their link peers') are
 * compared before and after a settle interval, and only when they stay clean and in sync
 * is the rest repaired.  A canary that is not clean is rolled back from the journal, the
 * way a failed apply is (docs/ENFORCE.md "Canary"). */
#ifndef ROCECTL_CANARY_H
#define ROCECTL_CANARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rocectl/diag.h"
#include "rocectl/fleet.h"
#include "rocectl/inventory.h"

#define RC_CANARY_WAIT_MS_DEFAULT    10000u
#define RC_CANARY_PAUSE_RATE_DEFAULT 50000u

struct rc_canary_opts {
	unsigned units;	     /* canary units; 0 = no canary */
	uint32_t wait_ms;    /* settle interval after the canary repair */
	uint64_t pause_rate; /* PFC pause frames per second on a port above which it storms */
};

/* Which fleet devices are canaries (include/rocectl/fleet.h: f->devs[k]).  A unit is a
 * leaf with the hosts linked to it that have drifted; when no leaf has drifted, one host
 * per leaf; when neither has, one spine (or other switch).  Units are taken in sorted name
 * order of their leaf (or device).  Only devices that were read and have something to
 * repair are canaries. */
struct rc_canary_pick {
	size_t n_units;
	size_t *unit_lead; /* per unit: the inventory index of its leaf or device */
	bool *is_canary;   /* per fleet device */
	size_t n_devs;	   /* canary devices */
};

int rc_canary_select(const struct rc_fleet *f, unsigned units, struct rc_canary_pick *out,
		     struct rc_err *err);
void rc_canary_pick_fini(struct rc_canary_pick *p);

/* What made a canary not clean: the first finding, in inventory then port order. */
enum rc_canary_result {
	RC_CANARY_NONE = 0,	/* no canary ran */
	RC_CANARY_CLEAN,	/* repaired, in sync, counters clean: the rest went on */
	RC_CANARY_COUNTERS,	/* a counter rose: rolled back */
	RC_CANARY_OUT_OF_SYNC,	/* drifted again (or unreadable) after the wait: rolled back */
	RC_CANARY_NOT_SAMPLED,	/* counters could not be read: rolled back */
	RC_CANARY_APPLY_FAILED, /* the repair itself failed (restored by apply) */
};

const char *rc_canary_result_name(enum rc_canary_result r);

struct rc_canary_finding {
	char device[RC_NAME_MAX];
	char port[RC_NAME_MAX];
	char counter[40]; /* "pfc_pause_tx", "pfc_storm_events", "discards", "out_of_buffer" */
	uint64_t delta;	  /* how much it rose over the window */
	double rate;	  /* per second, for pause counters; else 0 */
	char why[200];	  /* one line for the report */
};

/* Judge one port's deltas over window_s seconds: true (and *out filled) when the port is
 * not clean: storm events, pausing half the window or more, pause frames (sent or
 * received) faster than opts->pause_rate per second, a discard on a lossless priority,
 * or (host) an RDMA receive queue out of buffers.  Pure. */
bool rc_canary_judge(const struct rc_canary_opts *opts, const char *device, const char *port,
		     bool host, const struct rc_diag_deltas *d, double window_s,
		     struct rc_canary_finding *out);

/* The outcome of the canary phase, for the report. */
struct rc_canary_report {
	unsigned units_wanted;
	size_t n_units;
	char (*units)[RC_NAME_MAX]; /* the units' leads, in the order chosen */
	size_t n_devs;
	char (*devices)[RC_NAME_MAX]; /* every canary device */
	size_t n_sampled;	      /* devices whose counters were compared */
	double window_s;
	enum rc_canary_result result;
	struct rc_canary_finding finding; /* RC_CANARY_COUNTERS, _OUT_OF_SYNC, _NOT_SAMPLED */
	size_t rolled_back;		  /* canary devices restored */
	size_t rollback_failed;		  /* canary devices whose restore failed */
};

void rc_canary_report_fini(struct rc_canary_report *r);

struct rc_enforce_run;
struct rc_guardrails;
/* The canary phase of rc_enforce_execute, after the first read and the guardrails' go:
 * pick the units, sample, repair the canaries (journal kept), wait, sample again, read the
 * whole fleet again, judge.  Clean: the canaries' journal entries are closed and the
 * fleet is ready for rc_fleet_apply (the canaries in sync, the rest freshly read, a device
 * that had nothing to repair at the first read not repaired now).  Not clean: the
 * canaries are restored from the journal and out->decision.blocked is RC_GUARD_CANARY.
 * map[k] is the outcome index of f->devs[k]. */
int rc_enforce_canary(struct rc_fleet *f, const struct rc_guardrails *g, const size_t *map,
		      struct rc_enforce_run *out, struct rc_err *err);

/* The "canary" member of enforce's report (null without --canary) and its Prometheus
 * gauges (engine/report/report_canary.c). */
struct rc_out;
void rc_canary_print(struct rc_out *o, const struct rc_enforce_run *r);
void rc_canary_prometheus(FILE *f, const struct rc_enforce_run *r);

#endif
