/* SPDX-License-Identifier: Apache-2.0 */
/* The fleet executor (engine/run/fleet.c): every selected device of the inventory through
 * rc_devrun with bounded parallelism; one session per device reused across read -> apply
 * -> verify; a device that fails does not stop the others, and the apply order keeps
 * a host from marking DSCP towards a switch that does not treat it lossless. */
#ifndef ROCECTL_FLEET_H
#define ROCECTL_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rocectl/devrun.h"
#include "rocectl/inventory.h"
#include "rocectl/policy.h"

#define RC_FLEET_DEFAULT_PARALLEL 32

struct rc_lldp_dev; /* include/rocectl/lldp.h */
struct rc_fleet;

struct rc_fleet_dev {
	size_t index; /* into the inventory */
	struct rc_devrun run;
	bool opened;
	int rc; /* 0, or the negative errno of the step that failed */
	struct rc_err err;
	int n_changes; /* SET changes of the last diff */
	bool applied;
	bool skipped;		     /* not applied: a device it depends on failed */
	struct rc_counters counters; /* with read_counters, when the driver has them */
	bool no_counters;	     /* rc_fleet_counters: the driver reads none */
	/* with read_neighbors: the device's LLDP, read on the session of its read (NULL: not
	 * read; the session never opened) */
	struct rc_lldp_dev *lldp;
	/* How long its read phase (rc_fleet_read) and its apply (rc_fleet_apply, when
	 * apply_timed) took, in milliseconds: the JSON report's read_ms and apply_ms. */
	uint32_t read_ms, apply_ms;
	bool apply_timed;
};

/* Called once per run, before the first device is written (commit-confirm arms its undo
 * there: the record says applying with its deadline and the timer runs, include/rocectl/
 * txn.h).  Shared by pointer, so that a fleet copied for the canaries arms the same run.
 * Non-zero: nothing is written, every device to be applied fails with `err`. */
struct rc_fleet_arm {
	int (*fn)(struct rc_fleet *f, void *ctx, struct rc_err *err);
	void *ctx;
	bool done;
	int rc;
	struct rc_err err;
};

struct rc_fleet {
	const struct rc_inventory *inv;
	const struct rc_policy *pol;
	struct rc_run_opts opts;
	unsigned parallel;
	const char *journal_dir; /* NULL: no journal */
	char run_id[64];
	/* Progress on stderr (rc_fleet_init sets it): on a terminal one line redrawn as devices
	 * finish; otherwise a line every ROCECTL_PROGRESS_INTERVAL (5 s; 0 = none) with the
	 * devices done, failed and the slowest so far, for a timer's journal. */
	bool progress;
	bool disconnect_after_read; /* read-only runs: free each session once read */
	bool read_counters;	    /* also read each device's counters (verify --counters) */
	/* also read each device's LLDP neighbours before its session closes (verify's cabling
	 * check), so that no device is connected to twice */
	bool read_neighbors;
	/* Called by rc_fleet_read's worker as soon as a device is read and diffed (its session
	 * closed when disconnect_after_read), from that worker's thread: a streaming report
	 * prints the device and frees its state there (engine/report/stream.c).  NULL: none. */
	void (*on_read)(struct rc_fleet *f, struct rc_fleet_dev *d, void *ctx);
	void *on_read_ctx;
	/* Per device, groups read and reported but not written (struct rc_devrun.hold_groups):
	 * the driver's disruptive groups when `enforce --disruptive skip`. */
	bool hold_disruptive;
	/* Commit-confirm: every applied device keeps its journal entry (rc_devrun.keep_journal). */
	bool keep_journal;
	struct rc_fleet_arm *arm; /* NULL: nothing to arm */
	size_t n;
	struct rc_fleet_dev *devs; /* the selected devices, inventory order */
};

/* --limit (engine/run/limit.c): NULL or "" selects every device; else a comma-separated list
 * of device names, roles ("spine", "leaf", "host", "switch"), ranges ("gpu[001-016]") and
 * globs ("leaf*"), each optionally prefixed with '!' to exclude what it matches.  sel[i]
 * (one per inventory device) is set; a term that matches nothing is an error. */
int rc_limit_select(const struct rc_inventory *inv, const char *limit, bool *sel,
		    struct rc_err *err);
bool rc_limit_term_match(const struct rc_device *d, const char *term);
/* The devices with on[i] set and skip[i] not (skip may be NULL) as a --limit list of names
 * ("gpu001,leaf01,..."), malloc'd; "" when none, NULL when out of memory. */
char *rc_limit_of(const struct rc_inventory *inv, const bool *on, const bool *skip);

/* Select devices by --limit (rc_limit_select). */
int rc_fleet_init(struct rc_fleet *f, const struct rc_inventory *inv, const struct rc_policy *pol,
		  const struct rc_run_opts *opts, const char *limit, unsigned parallel,
		  struct rc_err *err);
/* Open (once), read and diff every device.  Per-device errors are kept in the device;
 * returns the number of devices that failed.  Each device's read phase has a deadline
 * (rc_fleet_read_deadline_ms): past it the device fails with -ETIMEDOUT and its worker
 * goes on with the next device. */
size_t rc_fleet_read(struct rc_fleet *f);
/* A device's read-phase deadline: SSH connect + command timeout, REST twice its timeout,
 * 0 (none) for the local agent. */
uint32_t rc_fleet_read_deadline_ms(const struct rc_device *dev);
/* Open every device (no policy needed, nothing diffed) and read its counters into
 * devs[i].counters, on the same worker pool.  A driver without a counters op is known
 * before connecting: no_counters is set and no session opened.  Returns the number of
 * devices that failed (no_counters is not a failure). */
size_t rc_fleet_counters(struct rc_fleet *f);
/* Apply every device with changes, tier by tier (switches before hosts when lossless is
 * being turned on; the reverse when it is turned off or moved).  A device is skipped when
 * a device it is linked to in an earlier tier failed.  Returns the number of devices that
 * failed or were skipped. */
size_t rc_fleet_apply(struct rc_fleet *f);
/* True (apply hosts first) when some device's RoCE priority stops being lossless or RoCE
 * moves off a lossless priority, and no device gains lossless on the priority the policy
 * puts RoCE on: any such gain means switches first.  Extra lossless priorities going away
 * never decide. */
bool rc_fleet_reverse_order(const struct rc_fleet *f);
void rc_fleet_fini(struct rc_fleet *f);
/* The one worker pool every fleet operation runs on, for work that is not a fleet of the
 * inventory (rollback's journal entries): work(ctx, i) for i in 0..n-1 on at most
 * `parallel` threads; returns how many returned non-zero. */
size_t rc_pool_run(unsigned parallel, bool show_progress, size_t n,
		   int (*work)(void *ctx, size_t i), void *ctx);
/* The same, with the name of item i for the progress lines' slowest device. */
size_t rc_pool_run_named(unsigned parallel, bool show_progress, size_t n,
			 int (*work)(void *ctx, size_t i), const char *(*name)(void *ctx, size_t i),
			 void *ctx);
/* _fini releases what the struct holds, not the struct (_free would); the old name is
 * kept for callers not yet renamed. */
static inline void rc_fleet_free(struct rc_fleet *f)
{
	rc_fleet_fini(f);
}

#endif
