/* SPDX-License-Identifier: Apache-2.0 */
/* Commit-confirm (`apply --confirm DURATION`, `enforce --confirm DURATION`, `rocectl
 * confirm RUN`; engine/run/confirm.c, cli/cmd_confirm.c, docs/ENFORCE.md "Commit-confirm").
 *
 * A run made with --confirm keeps its journal entries (the pre-change state, with each
 * switch's native snapshot) instead of dropping them once each device is verified.  If the
 * run is left pending, they move to CONFIRM_DIR/<run-id>/ and a detached timer process
 * (`rocectl confirm-timer RUN`) restores them at the deadline unless `rocectl confirm RUN`
 * came first.  The state file CONFIRM_DIR/<run-id>.json records the deadline, the timer's
 * pid and what happened, so that a timer that died is visible in `history` and `show`.
 *
 * CONFIRM_DIR is "confirm" next to the journal directory (/var/lib/rocectl/confirm with
 * the default journal); created 0700, files 0600, written atomically. */
#ifndef ROCECTL_CONFIRM_H
#define ROCECTL_CONFIRM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#include "rocectl/err.h"
#include "rocectl/run_dir.h"
#include "rocectl/txn.h"

/* Durations accepted by --confirm: 1 s .. 24 h. */
#define RC_CONFIRM_MIN_S 1u
#define RC_CONFIRM_MAX_S (24u * 3600u)

/* "20s", "5m", "1h", "1m30s", or plain seconds ("90").  Units s, m, h, each at most once
 * and in that descending order; the total in RC_CONFIRM_MIN_S..RC_CONFIRM_MAX_S. */
int rc_confirm_parse_duration(const char *s, uint32_t *seconds, struct rc_err *err);

enum rc_confirm_state {
	RC_CONFIRM_PENDING = 0, /* changed, waiting for `confirm RUN` or the deadline */
	RC_CONFIRM_CONFIRMED,	/* kept */
	RC_CONFIRM_ROLLING_BACK,
	RC_CONFIRM_ROLLED_BACK,
	RC_CONFIRM_ROLLBACK_FAILED, /* the journal is kept: `rocectl rollback RUN` again */
	/* written (with the deadline) before the timer is armed and before the first device
	 * write; the run's own process (the owner) is still at work.  Its owner dead, the run
	 * is orphaned: the timer, `rollback RUN` and plain `rollback` roll it back at once. */
	RC_CONFIRM_APPLYING,
};

enum rc_confirm_event {
	RC_CONFIRM_EV_CONFIRM,	       /* `rocectl confirm RUN`, or enforce confirming itself */
	RC_CONFIRM_EV_DEADLINE,	       /* the timer found the deadline passed */
	RC_CONFIRM_EV_ROLLBACK,	       /* roll back now (verify failed, a device went away) */
	RC_CONFIRM_EV_ROLLBACK_DONE,   /* every device restored */
	RC_CONFIRM_EV_ROLLBACK_FAILED, /* a device could not be restored */
	RC_CONFIRM_EV_APPLIED	       /* the run checked its devices: applying -> pending */
};

/* The state machine: 0 and *to set, or -EALREADY (confirming a run already confirmed),
 * -ESTALE (confirming a run whose rollback has begun or ended: too late), -EINVAL (an
 * event that cannot happen in `from`).  Pure. */
int rc_confirm_next(enum rc_confirm_state from, enum rc_confirm_event ev,
		    enum rc_confirm_state *to);
const char *rc_confirm_state_name(enum rc_confirm_state s);

struct rc_confirm {
	char run_id[64];
	char command[16]; /* "apply", "enforce" */
	enum rc_confirm_state state;
	time_t deadline;
	time_t changed; /* when the state last changed */
	pid_t timer_pid;
	uint64_t timer_start; /* the timer's start time (struct rc_txn_owner.start) */
	/* who works on the run now: the applying run, then whoever rolls it back (the timer,
	 * `rollback RUN`); a rolling-back run whose owner is dead is finished by the next
	 * `rollback` (include/rocectl/txn.h) */
	struct rc_txn_owner owner;
	/* how long past its deadline (or the start of its rollback) a run may be worked on
	 * before its owner, alive, counts as hung (0: not recorded, RC_CONFIRM_GRACE_S) */
	uint32_t grace_s;
	/* when anything of the run last moved: the newest change of its record, its timer's
	 * log and its kept entries (a restore drops one per device).  Read by rc_confirm_load,
	 * never saved. */
	time_t activity;
	char reason[32]; /* of a rollback: "timer", "verify failed", "unreachable", ... */
	char by[64];	 /* who confirmed */
	/* what the timer needs to restore the devices */
	char inventory[4096];
	char root[4096];
	bool accept_new_host_keys;
	size_t n_devices;
};

/* How long a switch's own timed commit runs for a --confirm of `seconds`: longer than
 * rocectl's own timer by RC_CONFIRM_DEVICE_GRACE_S, so that while the controller lives
 * its timer restores first, from the journal (exactly the pre-run state), and the device
 * rolls back by itself only when that timer is gone (docs/ENFORCE.md "Commit-confirm"). */
#define RC_CONFIRM_DEVICE_GRACE_S 30u
static inline uint32_t rc_confirm_device_seconds(uint32_t seconds)
{
	return seconds + RC_CONFIRM_DEVICE_GRACE_S;
}

/* CONFIRM_DIR for a journal directory (where records were before the run directory). */
int rc_confirm_dir(const char *journal_dir, char *buf, size_t len);
/* The run's record (loc->record, include/rocectl/run_dir.h); -ENOENT when it has none. */
int rc_confirm_load(const struct rc_run_loc *loc, struct rc_confirm *c, struct rc_err *err);
/* Written atomically (temp file, fsync, rename, directory fsync) before what it announces
 * is done; the run directory made first (0700). */
int rc_confirm_save(const struct rc_run_loc *loc, const struct rc_confirm *c, struct rc_err *err);
/* An exclusive lock on the run's record (loc->lock) so that a confirm and the timer's
 * deadline cannot both win; *fd is closed to release it. */
int rc_confirm_lock(const struct rc_run_loc *loc, int *fd, struct rc_err *err);
/* Retention (`rocectl history --keep/--keep-days`): delete the record of a run that is over
 * (confirmed or rolled back: the record, its lock, the timer's log, what is left of its
 * kept entries, its links in CONFIRM_DIR; the snapshots are rc_run_snap_forget's).
 * -ENOENT when the run has none; -EBUSY when it is pending, rolling back or its rollback
 * failed (its entries are still needed), nothing deleted. */
int rc_confirm_forget(const struct rc_run_loc *loc, struct rc_err *err);
/* One line for `history` and `show`: "pending confirm until 2026-12-03T16:00:00Z",
 * "confirmed", "rolled back (timer)", or, when the deadline has passed and the timer is
 * not running, "pending confirm until T: the timer is not running; 'rocectl rollback
 * RUN' or 'rocectl confirm RUN'". */
void rc_confirm_describe(const struct rc_confirm *c, time_t now, char *buf, size_t len);
/* The confirm timer as an owner (pid + start time, this host). */
void rc_confirm_timer_owner(const struct rc_confirm *c, struct rc_txn_owner *o);
/* Grace when the record has none, and the least any run gets. */
#define RC_CONFIRM_GRACE_MIN_S 10u
/* Hung: someone alive holds the run (applying or rolling back it: its owner; pending: its
 * timer, which should have fired) but nothing of it has moved for the run's grace, counted
 * from the later of its deadline and its last move.  Such an owner is not finishing the
 * run; `rollback RUN --force` stops it and takes the run over. */
bool rc_confirm_hung(const struct rc_confirm *c, time_t now);
/* Orphaned: nobody alive will finish the run.  Applying or rolling back with a dead owner,
 * rollback failed, or pending past its deadline with its timer dead. */
bool rc_confirm_orphaned(const struct rc_confirm *c, time_t now);
/* Per device of a run, "its own commit was kept" (confirm RUN, resumable): a marker file
 * ENTRIES/<run-id>/<device>.confirmed, beside the kept entries (which are *.json). */
int rc_confirm_mark_device(const struct rc_run_loc *loc, const char *device, struct rc_err *err);
void rc_confirm_unmark_device(const struct rc_run_loc *loc, const char *device);
bool rc_confirm_device_marked(const struct rc_run_loc *loc, const char *device);
/* The run record's transitions (engine/run/confirm_state.c), each under the run's lock. */
/* Who is confirming: $SUDO_USER when it is a plain name, else the effective user. */
void rc_confirm_who(char *buf, size_t len);
/* Under the run's lock: load, apply `ev` (rc_confirm_next), save: 0 or the state machine's
 * refusal.  A new rolling-back state is owned by this process; a confirm records who. */
int rc_confirm_transition(const struct rc_run_loc *loc, struct rc_confirm *c,
			  enum rc_confirm_event ev, const char *reason, struct rc_err *err);
/* applying -> pending, the deadline `seconds` from now (the window starts once the run's
 * checks are done). */
int rc_confirm_to_pending(const struct rc_run_loc *loc, struct rc_confirm *c, uint32_t seconds,
			  struct rc_err *err);
/* The run becomes this process's to roll back (rolling back, owned by us; what it was is
 * said through `say`): 0; 1 when it is over (confirmed, rolled back: nothing to claim);
 * -EBUSY when someone alive applies it or rolls it back (a dead owner's rollback is taken
 * over; with `force`, a hung owner (rc_confirm_hung) is stopped, SIGKILL to the pid whose
 * start time is the recorded one, and its run taken over). */
int rc_confirm_claim(const struct rc_txn_say *say, const struct rc_run_loc *loc,
		     struct rc_confirm *c, bool force, struct rc_err *err);
/* The timer's decision on the state it just read: why it must roll back now ("timer": the
 * deadline; "run killed": the run died before it was pending), or NULL to wait; *end when
 * the run is decided and the timer has nothing left to do. */
const char *rc_confirm_timer_due(const struct rc_confirm *now, time_t t, bool *end);
/* UTC ISO 8601 of `t` ("2026-12-03T16:00:00Z"). */
void rc_confirm_time(time_t t, char *buf, size_t len);

#endif
