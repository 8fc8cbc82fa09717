/* SPDX-License-Identifier: Apache-2.0 */
/* What a run keeps of each device it writes (engine/run/run_snap.c): the driver's native
 * snapshot (running and saved configuration, include/rocectl/driver.h) and the values read
 * before the first write, taken at the journal's prepare step and never rewritten.  The
 * journal entry goes when the device is verified; this copy stays with the run's record,
 * so that `rocectl rollback RUN` of a run that finished restores from the platform's own
 * configuration (deleting what the run added) instead of from values.
 *
 * Layout: rc_run_snap_dir(RUN)/<device>.snap (the journal's entry format, 0600, written
 * atomically), the directory 0700. */
#ifndef ROCECTL_RUN_SNAP_H
#define ROCECTL_RUN_SNAP_H

#include <stdbool.h>
#include <stddef.h>

#include "rocectl/err.h"
#include "rocectl/inventory.h"
#include "rocectl/journal.h"
#include "rocectl/model.h"

/* Where run RUN's snapshots live: its run directory (include/rocectl/run_dir.h rc_run_dir:
 * $ROCECTL_STATE_DIR/runs/RUN, else $ROCECTL_HISTORY/runs/RUN, else /var/lib/rocectl/runs/RUN).
 * -EINVAL for a run id that is not a plain name. */
int rc_run_snap_dir(const char *run_id, char *buf, size_t len, struct rc_err *err);

/* Keep `dev`'s snapshot for the run, unless one is kept already (the first is the one
 * taken before the run's first write). */
int rc_run_snap_keep(const char *run_id, const struct rc_device *dev, const char *driver,
		     const struct rc_port_state *ports, size_t n, const char *native,
		     struct rc_err *err);

/* Every snapshot the run kept (none: *n == 0, not an error).  A file that cannot be used
 * (not ours, group- or world-writable, a symlink, truncated, naming another run or device)
 * is an entry with `bad` set. */
int rc_run_snap_list(const char *run_id, struct rc_journal_entry **out, size_t *n,
		     struct rc_err *err);

/* The run's snapshots deleted, with its directory once empty (history retention): 0 when
 * there are none. */
int rc_run_snap_forget(const char *run_id, struct rc_err *err);

/* `rollback RUN` of a run nothing of which is left in the journal: each device its history
 * record says it applied (every kept snapshot when there is no record) goes to the journal
 * from its kept snapshot, or by value from the record when none was kept (a record older
 * than the snapshots).  A device the journal holds an entry of the run for (a failed or
 * interrupted run) is left to that entry.
 * -ENOENT: neither a record nor a snapshot.  A snapshot that cannot be used fails (err
 * names it) after the others are written. */
struct rc_run_undo {
	size_t n_saved;	 /* journal entries written */
	size_t by_value; /* of them, from the record's values */
	bool finished;	 /* the run has a record: it ended (else it was killed) */
};
int rc_run_undo_to_journal(const char *run_id, const char *journal_dir, struct rc_run_undo *u,
			   struct rc_err *err);

/* After rc_run_undo_to_journal: the run's journal entries listed again into *e / *n (the
 * old listing freed), and (*from_snap)[i] (malloc'd) true for each entry that came from the
 * kept snapshots (its device had no entry in the old listing). */
int rc_run_undo_relist(const char *run, const char *journal, struct rc_journal_entry **e, size_t *n,
		       bool **from_snap, struct rc_err *err);

#endif
