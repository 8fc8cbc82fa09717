/* SPDX-License-Identifier: Apache-2.0 */
/* History and audit (engine/run/history.c): every plan, apply, enforce and rollback leaves a
 * record of who ran it (user, host), when, on which inputs (SHA-256 of the policy and the
 * inventory), per device what it changed (field, old -> new) and the result.  A record of a
 * run that changed devices also keeps each device's pre-change values of the groups it
 * wrote, so that `rocectl rollback RUN` can undo even a run that succeeded.
 *
 * Layout: DIR/<run-id>.json, one file per run, 0600, written atomically (rc_write_atomic),
 * DIR created 0700.  DIR is $ROCECTL_HISTORY or /var/lib/rocectl/history.  Each change
 * actually made is also sent to syslog(3) with structured fields (ROCECTL_RUN=,
 * ROCECTL_DEVICE=, ROCECTL_FIELD=, ...) so that journald and log shippers see it. */
#ifndef ROCECTL_HISTORY_H
#define ROCECTL_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "rocectl/devrun.h"
#include "rocectl/driver.h"
#include "rocectl/err.h"
#include "rocectl/model.h"
#include "rocectl/util.h"

#define RC_HISTORY_DEFAULT_DIR "/var/lib/rocectl/history"

/* $ROCECTL_HISTORY or RC_HISTORY_DEFAULT_DIR. */
const char *rc_history_dir(void);

struct rc_history_dev {
	char device[RC_NAME_MAX];
	char driver[32];
	char address[RC_NAME_MAX];
	struct rc_changes changes; /* the changes the run was to make (SET, not held) */
	size_t n_ports;
	struct rc_port_state *before; /* per port: known = the groups written, pre-change values */
	char result[24];	      /* "applied", "failed", "skipped", "planned", ... */
	char error[RC_ERR_MSG_MAX];
	/* `counters --save`: the device's counters as read at the run's start, the
	 * baseline of a later `counters --since RUN` (has_counters false: none kept). */
	bool has_counters;
	struct rc_counters counters;
};

struct rc_history {
	char run_id[64];
	char command[16];
	char user[64];	    /* the effective user */
	char sudo_user[64]; /* $SUDO_USER when run through sudo, else "" */
	char host[256];
	time_t started;
	time_t finished;
	char policy[4096], inventory[4096];
	char policy_sha256[RC_SHA256_HEX_LEN];
	char inventory_sha256[RC_SHA256_HEX_LEN];
	int exit_code;
	size_t n, cap;
	struct rc_history_dev *devs;
};

/* Start a record: who, when, the inputs' digests (a path may be NULL). */
int rc_history_begin(struct rc_history *h, const char *command, const char *run_id,
		     const char *policy, const char *inventory, struct rc_err *err);
/* A device as read and diffed, before anything is written: its pending changes (the SET
 * changes of groups it will write) and the pre-change values of those groups.  Added
 * again (the agent, one interface at a time), its ports and changes are added to its
 * entry. */
int rc_history_add(struct rc_history *h, const struct rc_devrun *r, const char *result);
/* The device's outcome, once known. */
void rc_history_result(struct rc_history *h, const char *device, const char *result,
		       const char *error);
/* Keep a counter sample of `device` in the record (`counters --save`): a copy of c. */
int rc_history_counters(struct rc_history *h, const char *device, const char *driver,
			const struct rc_counters *c);
/* Write DIR/<run-id>.json, and send every change of a device whose result is "applied"
 * or "restored" to syslog. */
int rc_history_write(struct rc_history *h, const char *dir, int exit_code, struct rc_err *err);
void rc_history_fini(struct rc_history *h);

/* A fleet as read (before apply): every device added with `result`, a device that could
 * not be read as "failed". */
struct rc_fleet;
int rc_history_fleet_begin(struct rc_history *h, const char *command, const struct rc_fleet *f,
			   const char *policy, const char *inventory, const char *result,
			   struct rc_err *err);
/* After rc_fleet_apply: each device "applied", "failed", "skipped" or "unchanged". */
void rc_history_fleet_applied(struct rc_history *h, const struct rc_fleet *f);

/* Read one record back (`show`, `rollback RUN`). */
int rc_history_load(const char *dir, const char *run_id, struct rc_history *h, struct rc_err *err);
/* Undo of a finished run (`rocectl rollback RUN`): the pre-change values its record kept
 * for every device it applied to, written to the journal as if the run had been
 * interrupted, so that rollback restores them the way it restores any run.  Only the
 * groups the run wrote are restored.  -ENOENT when there is no record. */
int rc_history_to_journal(const char *hist_dir, const char *run_id, const char *journal_dir,
			  size_t *n_saved, struct rc_err *err);
/* Every record's run id in DIR, oldest first (malloc'd array of malloc'd strings). */
int rc_history_list(const char *dir, char ***ids, size_t *n, struct rc_err *err);
void rc_history_ids_free(char **ids, size_t n);

#endif
