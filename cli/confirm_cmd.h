/* Commit-confirm for apply and enforce (cli/cmd_confirm.c, include/rocectl/confirm.h). */
#ifndef ROCECTL_CONFIRM_CMD_H
#define ROCECTL_CONFIRM_CMD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "rocectl/lock.h"
#include "rocectl/cli.h"
#include "rocectl/fleet.h"

struct rc_confirm_run {
	const char *command;   /* "apply", "enforce" */
	const char *journal;   /* the run's journal directory */
	const char *inventory; /* path, for the timer's restore */
	uint32_t seconds;      /* --confirm */
	bool failed;	       /* a device failed or was skipped in the run */
	bool self_confirm;     /* enforce: keep it at once when the checks pass */
	int exit_code;	       /* the run's exit code so far */
	bool data_on_stdout;   /* stdout carries JSON or metrics: say everything on stderr */
};

/* A --confirm run's undo, armed before its first write (struct rc_fleet_arm): the run
 * record says applying with the deadline, owned by this process, and the timer is up. */
struct rc_confirm_armer {
	const char *command, *journal, *inventory;
	uint32_t seconds;
	const struct rc_global *g;
	char dir[4096]; /* CONFIRM_DIR: the run's entries are written there */
	struct rc_fleet_arm arm;
};
/* Set f up for a --confirm run: its journal entries go to CONFIRM_DIR/<run-id>/ and the
 * timer is armed before the first write.  `a` must outlive the apply. */
int rc_confirm_prepare(struct rc_confirm_armer *a, struct rc_fleet *f, const char *command,
		       const char *journal, const char *inventory, uint32_t seconds,
		       const struct rc_global *g);

/* Plain `rollback`: every orphaned run of the confirm directory (rc_confirm_orphaned) rolled
 * back through `rollback RUN`; *found counts them.  0, or -EIO when one could not be read
 * or restored. */
int rc_confirm_sweep(FILE *msg, const char *journal, const char *inventory,
		     const struct rc_global *g, bool to_stderr, size_t *found);
/* Before a run writes: a device of `names` that belongs to a run not over (pending its
 * confirm, applying, rolling back, rollback failed) refuses the run: said on stderr
 * (naming the run and its deadline), -EBUSY.  With recover_orphans, an orphaned such run
 * is rolled back first and no longer refuses.  0 when the devices are free. */
int rc_confirm_guard(const char *command, const char *journal, const char *inventory,
		     const char *const *names, size_t n, const struct rc_global *g,
		     bool recover_orphans, bool to_stderr);

/* After a run made with f->keep_journal: nothing changed → nothing to do; a failure, a
 * device that no longer answers or drift on the re-read → every device of the run rolled
 * back now; else enforce confirms, apply leaves the run pending under the confirm timer.
 * The device locks are released first (the restore takes them again).  Returns the run's
 * exit code: unchanged, or 1 (failed, unreachable) / 2 (drift) after a rollback. */
int rc_confirm_after_run(const struct rc_confirm_run *r, struct rc_fleet *f, struct rc_locks *locks,
			 const struct rc_global *g);

/* `rocectl rollback RUN` of a run left pending: its entries are in the confirm directory
 * (written to `dir`), and the run is marked as rolling back so that a confirm is too late
 * and the timer stands down.  1 when it is such a run, 0 when not (a confirmed or finished
 * run: undone from its history record as any other), -EBUSY when its timer is rolling it
 * back right now.  What it says of the run goes to `msg`. */
int rc_confirm_claim_rollback(FILE *msg, const char *journal, const char *run_id, char *dir,
			      size_t len);
/* Keep each switch's commit made under its own timer (struct rc_driver.confirm) for the
 * run's entries in `dir` (the confirm directory), and save it, under the device locks;
 * the first failure stops (the caller rolls the whole run back).  Nothing to do, and no
 * inventory needed, when no entry is of such a switch. */
int rc_confirm_devices(const char *dir, const char *run_id, const char *inventory,
		       const struct rc_global *g, struct rc_err *err);

/* After the claimed rollback: rolled back, or failed (a later rollback may retry). */
void rc_confirm_rollback_done(const char *dir, const char *run_id, bool ok);

#endif
