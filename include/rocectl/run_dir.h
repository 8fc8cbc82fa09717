/* The run record as the other commands see it (engine/run/run_view.c): `history` and `show`
 * say where a run made with --confirm stands, list the runs that never wrote their history
 * record (killed) while nobody has finished them, and retention deletes a record with its
 * run.  The record itself is include/rocectl/confirm.h's. */
#ifndef ROCECTL_RUN_DIR_H
#define ROCECTL_RUN_DIR_H

#include <stddef.h>
#include <time.h>

#include "rocectl/err.h"

/* One line: "pending confirm until 2026-12-03T16:00:00Z", "confirmed at T by U",
 * "needs recovery: ...", "owner hung: ...".  0, or -ENOENT when the run has no record. */
int rc_run_state_line(const char *journal, const char *run_id, char *buf, size_t len);

/* A run with a record that is not over (not confirmed, not rolled back). */
struct rc_run_open {
	char run_id[64];
	char command[16];
	char host[64]; /* its owner's, "" when unknown */
	time_t changed;
};
/* Such runs whose id is not one of `known` (the history records), in directory order;
 * free *out. */
int rc_run_list_open(const char *journal, char *const *known, size_t n_known,
		     struct rc_run_open **out, size_t *n);

/* Retention (`history --keep`): the run's record goes with its history record, unless
 * the run is pending or its rollback is not over (-EBUSY: kept for `confirm`/`rollback
 * RUN`).  -ENOENT when it has none. */
int rc_run_forget(const char *journal, const char *run_id, struct rc_err *err);

#endif
