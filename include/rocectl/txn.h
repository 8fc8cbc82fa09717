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
 * (tests/lab/t4140-crash-points.sh).  Without the variables a crash point is one compare. */
#ifndef ROCECTL_TXN_H
#define ROCECTL_TXN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

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

/* Stop here, as a kill -9 would, when ROCECTL_CRASH_AT names this step. */
void rc_crashpoint(const char *name);
/* Every name rc_crashpoint knows, one a line, each with the command it belongs to. */
void rc_crashpoint_print(FILE *f);
/* The known names (for the unit test): *n set, the table returned. */
const char *const *rc_crashpoint_names(size_t *n);

#endif
