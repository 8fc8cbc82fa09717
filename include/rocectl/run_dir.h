/* SPDX-License-Identifier: Apache-2.0 */
/* The run directory (engine/run/run_dir.c, docs/ARCHITECTURE.md "The run record"): one
 * directory per run, $ROCECTL_STATE_DIR/runs/<run-id>/ (else $ROCECTL_HISTORY/runs/<run-id>/,
 * else /var/lib/rocectl/runs/<run-id>/), 0700, holding
 *   record.json          the run record: state, owner, deadline (include/rocectl/confirm.h)
 *   record.lock          the lock every change of the record is made under
 *   timer.log            what the confirm timer said
 *   <device>.snap        each device's native snapshot before the run's first write to it
 *                        (include/rocectl/run_snap.h)
 *   journal/<run-id>/    the entries kept for the undo while the run is not over (the
 *                        journal's layout: <device>.json, and <device>.confirmed once a
 *                        confirm kept that switch's own commit)
 * A run made before the run directory existed keeps its record where it was, in CONFIRM_DIR
 * ("confirm" next to the journal directory: <run-id>.json, .lock, .log and <run-id>/): it
 * is read, confirmed and rolled back there.  For tools written against that layout, a new
 * run's record and log are also linked from CONFIRM_DIR (<run-id>.json and <run-id>.log,
 * symbolic links); rocectl itself never reads through them.
 *
 * The views at the end are what `history` and `show` see of it (engine/run/run_view.c). */
#ifndef ROCECTL_RUN_DIR_H
#define ROCECTL_RUN_DIR_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "rocectl/err.h"

/* $ROCECTL_STATE_DIR/runs, $ROCECTL_HISTORY/runs or /var/lib/rocectl/runs. */
int rc_runs_root(char *buf, size_t len, struct rc_err *err);
/* The run's directory: the one place that says where it is.  -EINVAL for a run id that
 * is not a plain name of at most 63 characters (never cut to fit). */
int rc_run_dir(const char *run_id, char *buf, size_t len, struct rc_err *err);
/* A run id: letters, digits and "._-", not starting with '.' or '-', at most 63 long. */
bool rc_run_id_ok(const char *run_id);

/* `path` and each missing parent made 0700; the directory itself must then be ours (owned
 * by us or root, not writable by group or others, not a link). */
int rc_run_make_dir(const char *path, struct rc_err *err);

/* Where a run's record and what goes with it are. */
struct rc_run_loc {
	char run_id[64];
	char dir[PATH_MAX];	 /* the run directory, or CONFIRM_DIR of an older run */
	char record[PATH_MAX];	 /* record.json, or CONFIRM_DIR/<run-id>.json */
	char lock[PATH_MAX];	 /* record.lock, or CONFIRM_DIR/<run-id>.lock */
	char log[PATH_MAX];	 /* timer.log, or CONFIRM_DIR/<run-id>.log */
	char entries[PATH_MAX];	 /* the journal of its kept entries: entries/<run-id>/ */
	char view_dir[PATH_MAX]; /* CONFIRM_DIR, where a new record is linked from */
	bool legacy;		 /* an older run's record in CONFIRM_DIR */
};
/* The run `run_id` with the journal `journal`: its run directory, unless only CONFIRM_DIR
 * holds a record of it (a regular file, not a link).  A run with no record at all is
 * given its run directory (a new run's).  -EINVAL for a bad run id. */
int rc_run_locate(const char *journal, const char *run_id, struct rc_run_loc *loc,
		  struct rc_err *err);
/* An older run's place in CONFIRM_DIR `confirm_dir`. */
int rc_run_loc_legacy(const char *confirm_dir, const char *run_id, struct rc_run_loc *loc,
		      struct rc_err *err);
/* Every run with a record: the run directories' and CONFIRM_DIR's older ones, each once;
 * free with rc_run_ids_free.  0, or a negative errno (no memory). */
int rc_run_list_records(const char *journal, char ***ids, size_t *n);
void rc_run_ids_free(char **ids, size_t n);

/* ---- Views (engine/run/run_view.c) ---- */

/* A run made with --confirm, in one line: "pending confirm until 2026-12-03T16:00:00Z",
 * "confirmed at T by U", "needs recovery: ...", "owner hung: ...".  0, or -ENOENT when
 * the run has no record. */
int rc_run_state_line(const char *journal, const char *run_id, char *buf, size_t len);

/* A run with a record that is not over (not confirmed, not rolled back), or a plain run
 * (no --confirm, so no record) killed while it wrote: its entries are still in the journal
 * `journal` and its process is gone. */
struct rc_run_open {
	char run_id[64];
	char command[16]; /* "" for a plain run: the journal does not say which command */
	char host[64];	  /* its owner's, "" when unknown */
	time_t changed;
	size_t journal_entries; /* a plain run's entries left in the journal (0: a record) */
};
/* Such runs whose id is not one of `known` (the history records); free *out. */
int rc_run_list_open(const char *journal, char *const *known, size_t n_known,
		     struct rc_run_open **out, size_t *n);

/* Retention (`history --keep`): the run's record goes with its history record, unless
 * the run is pending or its rollback is not over (-EBUSY: kept for `confirm`/`rollback
 * RUN`).  -ENOENT when it has none. */
int rc_run_forget(const char *journal, const char *run_id, struct rc_err *err);

#endif
