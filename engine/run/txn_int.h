/* SPDX-License-Identifier: Apache-2.0 */
/* What the files of the run transaction share (engine/run/txn_*.c); the public side is
 * include/rocectl/txn.h.  A run's record and its kept entries are found through struct
 * rc_run_loc (include/rocectl/run_dir.h). */
#ifndef ROCECTL_TXN_INT_H
#define ROCECTL_TXN_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rocectl/confirm.h"
#include "rocectl/devrun.h"
#include "rocectl/fleet.h"
#include "rocectl/history.h"
#include "rocectl/txn.h"

#define TXN_PATH_MAX 4096

/* Every warning of `w`, as rc_warnings_print prints them, on the error stream. */
void rc_txn_say_warnings(const struct rc_txn_say *say, const struct rc_warnings *w);
/* `base` with the root and host-key choice the run was made with (its record's). */
void rc_txn_env_of(const struct rc_confirm *c, const struct rc_txn_env *base,
		   struct rc_txn_env *out);

/* A --confirm run's undo, armed before its first write (struct rc_fleet_arm): the record
 * says applying with the deadline, owned by this process, and the timer is up
 * (engine/run/txn_timer.c). */
struct rc_txn_armer {
	const char *command, *journal, *inventory;
	uint32_t seconds;
	uint32_t grace_s; /* struct rc_confirm.grace_s */
	struct rc_txn_env env;
	struct rc_run_loc loc; /* the run's record; its entries are written to loc.entries */
	struct rc_fleet_arm arm;
};
/* How long an owner past the deadline (or the start of its rollback) may still be at work
 * before it counts as hung: twice the slowest device's connect and command time, and at
 * least RC_CONFIRM_GRACE_MIN_S (engine/run/txn_hung.c). */
uint32_t rc_txn_grace_s(const struct rc_fleet *f);

/* Set f up for a --confirm run (f->run_id set): its journal entries go to the run's own
 * (include/rocectl/run_dir.h) and the timer is armed before the first write.  `a` must
 * outlive the apply.  0, or -1 with err set. */
int rc_txn_prepare_confirm(struct rc_txn_armer *a, struct rc_fleet *f, const char *command,
			   const char *journal, const char *inventory, uint32_t seconds,
			   const struct rc_txn_env *env, struct rc_err *err);

/* The restore of journal entries, device by device (engine/run/txn_restore.c). */
struct rc_txn_restore_ctx {
	const struct rc_inventory *inv; /* NULL: none given */
	const struct rc_run_opts *ropts;
	const char *dir; /* the journal the entries are in */
	struct rc_txn_restore_job *jobs;
	/* the devices undone from a finished run's kept snapshots (rc_run_opts.undo_finished),
	 * with how they are saved; the others are journal entries of an interrupted run */
	const bool *from_snap; /* per entry of the listing, NULL: none */
	const struct rc_journal_entry *e0;
	struct rc_run_opts snap_opts;
};
/* The usable entries grouped by device; `bad` counts the unusable ones (said). */
struct rc_txn_restore_job *rc_txn_restore_group(struct rc_journal_entry *e, size_t n,
						size_t *n_jobs, size_t *bad,
						const struct rc_txn_say *say);
/* Every job's device locked (all or none); `why` gets the error. */
int rc_txn_restore_lock(const struct rc_txn_restore_job *jobs, size_t n, struct rc_locks *locks,
			char *why, size_t why_len, const struct rc_txn_say *say);
/* Every job run on the worker pool. */
void rc_txn_restore_all(struct rc_txn_restore_ctx *c, unsigned parallel, size_t n_jobs);
/* What was restored, said per device; returns how many devices failed. */
size_t rc_txn_restore_report(const struct rc_txn_restore_job *jobs, size_t n,
			     const struct rc_txn_say *say);

/* `rollback RUN` with the journal `dir` (the run's own when it is pending), in this
 * process: the same restore, locks and record as one typed by hand.  0 or 1 (its exit
 * code: 1 when a device could not be restored). */
int rc_txn_rollback_run(const char *run_id, const char *dir, const char *inventory,
			const struct rc_txn_env *env, const struct rc_txn_say *say);

/* `rollback RUN` of a run left pending: its entries are its own (loc->entries, *loc
 * filled), and the run is marked as rolling back so that a confirm is too late and the
 * timer stands down.  1 when it is such a run, 0 when not, -EBUSY when someone alive rolls
 * it back right now (said; with `force`, an owner past the run's grace is stopped and the
 * run taken over). */
int rc_txn_claim_rollback(const char *journal, const char *run_id, bool force,
			  struct rc_run_loc *loc, const struct rc_txn_say *say);
/* After the claimed rollback: rolled back, or failed (a later rollback may retry). */
void rc_txn_rollback_done(const struct rc_run_loc *loc, bool ok, const struct rc_txn_say *say);

/* Under the run's lock: keep each switch's own commit, then mark the run confirmed
 * (engine/run/txn_confirm.c).  The state machine's refusals as rc_confirm_transition();
 * -ETIME past the deadline; -EIO when a device could not be kept (the run is then marked
 * rolling back for the caller to restore). */
int rc_txn_keep_run(const struct rc_run_loc *loc, struct rc_confirm *c,
		    const struct rc_txn_env *env, const struct rc_txn_say *say, struct rc_err *err);
/* After rc_txn_keep_run's -EIO: every device of the run restored, as the timer would. */
int rc_txn_roll_back_unkept(const struct rc_run_loc *loc, const struct rc_confirm *c,
			    const struct rc_txn_env *env, const struct rc_txn_say *say);
/* A confirmed run's entries dropped (and its devices recorded as confirmed in h). */
void rc_txn_drop_entries(const struct rc_run_loc *loc, struct rc_history *h,
			 const struct rc_txn_say *say);

/* Keep each switch's commit made under its own timer (struct rc_driver.confirm) for the
 * run's kept entries, and save it, under the device locks (engine/run/txn_keep.c). */
int rc_txn_confirm_devices(const struct rc_run_loc *loc, const char *inventory,
			   const struct rc_txn_env *env, const struct rc_txn_say *say,
			   struct rc_err *err);

/* After a run made with f->keep_journal (engine/run/txn_settle.c): nothing changed ->
 * nothing to do; a failure, a device that no longer answers or drift on the re-read ->
 * every device rolled back now; else enforce confirms, apply leaves the run pending.  The
 * device locks are released first.  Returns the run's exit code. */
struct rc_txn_after {
	const char *command, *journal, *inventory;
	uint32_t seconds;
	bool failed;	   /* a device failed or was skipped in the run */
	bool self_confirm; /* enforce: keep it at once when the checks pass */
	int exit_code;
};
int rc_txn_after_run(const struct rc_txn_after *r, struct rc_fleet *f, struct rc_locks *locks,
		     const struct rc_txn_env *env, const struct rc_txn_say *say);

/* Plain `rollback`: every orphaned run rolled back (engine/run/txn_guard.c); *found counts
 * them.  0, or -EIO when one could not be read or restored. */
int rc_txn_sweep(const char *journal, const char *inventory, const struct rc_txn_env *env,
		 const struct rc_txn_say *say, size_t *found);
/* Before a run writes: a device of `names` that belongs to a run not over refuses the run
 * (said, naming the run and its deadline): -EBUSY.  With recover_orphans, an orphaned
 * such run is rolled back first.  0 when the devices are free. */
int rc_txn_guard(const char *command, const char *journal, const char *inventory,
		 const char *const *names, size_t n, const struct rc_txn_env *env,
		 bool recover_orphans, const struct rc_txn_say *say);

#endif
