/* SPDX-License-Identifier: Apache-2.0 */
/* The run transaction's shared pieces (engine/run/txn.c, docs/ARCHITECTURE.md "The run
 * record"): who owns a run (pid + process start time + host, so that a dead owner is
 * recognised and never assumed alive), and the named crash points a test build stops at.
 *
 * Crash points: every named step of apply, apply/enforce --confirm, confirm, rollback RUN
 * and the confirm timer calls rc_crashpoint("name").  With ROCECTL_CRASH_AT=name in the
 * environment (or a comma-separated list of names: the confirm timer inherits it, so that
 * "timer.started,dev.write.sent" kills the run and its timer both) the process ends at
 * the first of them it meets with _exit(137), as a kill -9 would leave it (no
 * atexit, no flush, no unlock but the kernel's).  ROCECTL_CRASH_LIST=1 makes `rocectl`
 * print every name it knows and exit 0, so that a test can cover each one
 * (tests/lab/t3140-crash-points.sh).  ROCECTL_HANG_AT=name stops the process there instead
 * (SIGSTOP: alive, its locks held, doing nothing), as a process stuck on a device that never
 * answers (tests/host/t1144-run-hung-owner.sh).  Without the variables a crash point is one
 * compare. */
#ifndef ROCECTL_TXN_H
#define ROCECTL_TXN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "rocectl/err.h"
#include "rocectl/exit_code.h"
#include "rocectl/lock.h"

struct rc_txn_owner {
	pid_t pid;	/* 0: none */
	uint64_t start; /* /proc/PID/stat field 22 (starttime, clock ticks since boot) */
	char host[64];
};

/* This process as an owner. */
void rc_txn_owner_self(struct rc_txn_owner *o);
/* The start time of `pid` from /proc/PID/stat (field 22), 0 when it cannot be read (no
 * such process, or /proc not mounted). */
uint64_t rc_txn_proc_start(pid_t pid);
/* Alive = the pid exists, its start time is the recorded one, and it runs on this host.
 * An owner recorded on another host is reported alive (it cannot be checked from here:
 * the caller says so rather than taking its run over). */
bool rc_txn_owner_alive(const struct rc_txn_owner *o);
/* On another host than this one (then rc_txn_owner_alive cannot know). */
bool rc_txn_owner_remote(const struct rc_txn_owner *o);
/* The run of a journal entry still runs: its id ("<UTC time>-<pid>", rc_txn_new_run_id)
 * names a live process, not this one, that had started by the time in the id (a pid
 * reused after a kill -9 started later, so it is not the run's). */
bool rc_txn_run_id_alive(const char *run_id);
/* A run id's time (whole seconds; 0 when it has none) and pid: 0, or -EINVAL when it does
 * not end in "-<pid>". */
int rc_txn_run_id_parse(const char *run_id, time_t *when, pid_t *pid);

/* Stop here, as a kill -9 would, when ROCECTL_CRASH_AT names this step. */
void rc_crashpoint(const char *name);
/* Every name rc_crashpoint knows, one a line, each with the command it belongs to. */
void rc_crashpoint_print(FILE *f);
/* The known names (for the unit test): *n set, the table returned. */
const char *const *rc_crashpoint_names(size_t *n);

/* ---- The run transaction (engine/run/txn_*.c, docs/ARCHITECTURE.md "The run record") ----
 * The fleet-level transaction (lock -> read -> diff -> journal -> apply tier by tier ->
 * verify -> confirm or roll back -> record) is the engine's: the commands parse their
 * options, call these, and print.  Nothing of a run's state is kept by a caller. */

/* How the engine says what it does: every line goes through the caller's printer, so that
 * the CLI decides where (stdout, or stderr when stdout carries a JSON document). */
enum rc_txn_say_kind {
	RC_TXN_NOTE,  /* a line for the operator */
	RC_TXN_ERROR, /* an error, said as "rocectl CMD: TEXT" */
	RC_TXN_WARN,  /* said as "rocectl CMD: warning: TEXT" */
	RC_TXN_RAW,   /* TEXT as it is, on the error stream (a located parse error) */
};
struct rc_txn_say {
	/* `text` has no trailing newline; `cmd` is the command the line is about */
	void (*fn)(void *ctx, enum rc_txn_say_kind kind, const char *cmd, const char *text);
	void *ctx;
};
void rc_txn_say(const struct rc_txn_say *s, enum rc_txn_say_kind kind, const char *cmd,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* How devices are reached (the global options of the command line). */
struct rc_txn_env {
	const char *root; /* NULL: "/" */
	bool accept_new_host_keys;
	bool save_pending;
	bool verbose;
};

/* The journal directory a command uses: `opt` (--journal), else $ROCECTL_JOURNAL, else
 * RC_JOURNAL_DEFAULT_DIR. */
const char *rc_txn_journal_dir(const char *opt);
/* A new run id (UTC timestamp + pid, sortable). */
void rc_txn_new_run_id(char *buf, size_t len);

/* -- plan, apply, verify and enforce: one run over a fleet (engine/run/txn_apply.c) -- */
enum rc_txn_kind { RC_TXN_PLAN, RC_TXN_APPLY, RC_TXN_VERIFY, RC_TXN_ENFORCE };

struct rc_txn_opts {
	enum rc_txn_kind kind;
	const char *journal; /* rc_txn_journal_dir() */
	const char *policy, *inventory;
	uint32_t confirm_s;  /* --confirm (apply, enforce): seconds, 0 = none */
	bool data_on_stdout; /* stdout carries a document: every note goes to stderr */
	struct rc_txn_env env;
};

struct rc_fleet;
struct rc_txn_armer;
struct rc_txn {
	struct rc_txn_opts o;
	const struct rc_txn_say *say;
	struct rc_fleet *f;
	struct rc_locks locks;
	struct rc_history *hist;    /* the run's history record (NULL: none) */
	struct rc_txn_armer *armer; /* --confirm: the undo armed before the first write */
	char confirm_state[24];	    /* after rc_txn_end with --confirm: where the run stands */
	char confirm_reason[32];
};

/* Before the read: apply and enforce lock every selected device (a device that belongs to
 * a run pending its confirm refuses the run; an orphaned such run is rolled back first);
 * the run gets its id and journal (and, with --confirm, its undo: armed before the first
 * write); plan, apply and verify warn of stale journal entries of the selected devices;
 * enforce begins its history record.  0, or -1 when it was said why the run cannot go on. */
int rc_txn_begin(struct rc_txn *t, const struct rc_txn_opts *o, struct rc_fleet *f,
		 const struct rc_txn_say *say);
/* plan and apply, after the read: the history record of every device as read. */
void rc_txn_record_read(struct rc_txn *t);
/* After the run wrote (or only read): apply's devices recorded; with --confirm, every
 * device re-read and the run kept pending (apply), confirmed (enforce) or rolled back now;
 * the history record written with the exit code; stale entries of devices found in policy
 * cleared.  `failed`: a device failed (enforce; apply counts its own).  Returns the exit
 * code, `exit_code` unless the confirm step changed it. */
int rc_txn_end(struct rc_txn *t, int exit_code, bool failed);
void rc_txn_fini(struct rc_txn *t);

/* -- rollback [RUN] (engine/run/txn_rollback.c) -- */
struct rc_txn_rollback_opts {
	const char *run;       /* NULL: every entry of the journal, then every orphaned run */
	const char *journal;   /* rc_txn_journal_dir() */
	const char *inventory; /* NULL: none (a host of the local driver needs none) */
	unsigned parallel;     /* devices restored at once, 0: the fleet's default */
	bool force;	       /* take over a run whose owner is alive but hung */
	struct rc_txn_env env;
};

struct rc_journal_entry;
/* One device and its entries, restored newest run first. */
struct rc_txn_restore_job {
	struct rc_journal_entry **e; /* oldest first */
	size_t n;
	size_t restored; /* the newest `restored` of them */
	int rc;
	struct rc_err err;
	bool unsaved; /* restored, not saved (struct rc_run_opts.save_only_if_saved) */
};

struct rc_txn_rollback {
	char journal[4096]; /* where the entries were: the run's own for a run left pending */
	const char *source; /* "journal", "confirm", "history", "none" */
	struct rc_journal_entry *e; /* every entry listed, usable or not */
	size_t n;
	struct rc_txn_restore_job *jobs;
	size_t n_jobs;
	bool early;		    /* failed before any device was touched */
	char error[RC_ERR_MSG_MAX]; /* non-empty: why nothing was restored (already said) */
	int exit_code;
};

/* Restore what the journal holds (or run RUN: its entries, its pending confirm, or, once
 * finished, its kept snapshots), device by device under the device locks, record it, and
 * (no RUN) finish every orphaned run.  Returns the exit code (also in r->exit_code). */
int rc_txn_rollback(const struct rc_txn_rollback_opts *o, struct rc_txn_rollback *r,
		    const struct rc_txn_say *say);
void rc_txn_rollback_fini(struct rc_txn_rollback *r);

/* -- confirm RUN and the confirm timer (engine/run/txn_confirm.c, txn_timer.c) -- */
struct rc_txn_confirm_opts {
	const char *run;
	const char *journal; /* rc_txn_journal_dir() */
	bool data_on_stdout; /* a restore's lines go to stderr */
	struct rc_txn_env env;
};

struct rc_txn_confirmed {
	char run_id[64];
	/* "confirmed", "already-confirmed", "too-late", "not-pending", "error"; NULL: nothing
	 * to report (said on the error stream) */
	const char *status;
	const char *state; /* the run's state name, NULL when it could not be read */
	size_t n_devices;
	char error[4096 + 256]; /* "" or why it was not confirmed */
	int exit_code;
};

/* Keep a pending run: each switch's own timed commit kept, the record confirmed, the
 * entries dropped.  An interrupted confirm is resumed; one after the deadline is refused;
 * a switch that cannot be kept rolls the whole run back. */
int rc_txn_confirm(const struct rc_txn_confirm_opts *o, struct rc_txn_confirmed *r,
		   const struct rc_txn_say *say);
/* The detached timer of a run (`rocectl confirm-timer RUN`): restores the run at its
 * deadline unless it was confirmed, at once when the run's owner died before it was
 * pending.  Returns the exit code. */
int rc_txn_timer(const struct rc_txn_confirm_opts *o, const struct rc_txn_say *say);

#endif
