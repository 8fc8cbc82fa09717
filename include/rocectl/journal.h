/* SPDX-License-Identifier: Apache-2.0 */
/* The journal: a device's pre-change state saved (and fsynced) before anything is written,
 * so that a failed apply can roll the device back and a crash mid-apply can be recovered
 * with `rocectl rollback` (engine/run/journal.c).
 *
 * Layout: DIR/<run-id>/<device>.json, one file per device, written atomically; a file
 * is removed when the device's apply has been verified (or rolled back).  Whatever is left
 * in DIR after a run is what `rocectl rollback` restores. */
#ifndef ROCECTL_JOURNAL_H
#define ROCECTL_JOURNAL_H

#include <stddef.h>

#include "rocectl/err.h"
#include "rocectl/inventory.h"
#include "rocectl/model.h"

#define RC_JOURNAL_DEFAULT_DIR "/var/lib/rocectl/journal"

struct rc_journal_entry {
	char run_id[64];
	char device[RC_NAME_MAX];
	char driver[32];
	char address[RC_NAME_MAX];
	size_t n_ports;
	struct rc_port_state *ports; /* the pre-change state */
	/* Non-empty: the file could not be used (unreadable, corrupt, a symlink, naming another
	 * device); only run_id and device (from the file name) are set, and why is here. */
	char bad[RC_ERR_MSG_MAX];
	char *native; /* the driver's native snapshot (struct rc_driver.snapshot), or NULL */
};

/* A new run id: UTC timestamp + pid, sortable. */
void rc_journal_new_run_id(char *buf, size_t len);

int rc_journal_save(const char *dir, const char *run_id, const struct rc_device *dev,
		    const char *driver, const struct rc_port_state *ports, size_t n,
		    struct rc_err *err);
/* The same with the driver's native snapshot (may be NULL), kept as the entry's "native". */
int rc_journal_save_native(const char *dir, const char *run_id, const struct rc_device *dev,
			   const char *driver, const struct rc_port_state *ports, size_t n,
			   const char *native, struct rc_err *err);
int rc_journal_done(const char *dir, const char *run_id, const char *device, struct rc_err *err);

/* Every entry left in DIR (or only run `run_id` when non-NULL), oldest run first.  A file
 * that cannot be used is an entry with `bad` set, not an error: one corrupt file must not
 * block the rollback of the others.  Errors: DIR unreadable, a bad run id, no memory. */
int rc_journal_list(const char *dir, const char *run_id, struct rc_journal_entry **out, size_t *n,
		    struct rc_err *err);
void rc_journal_entries_free(struct rc_journal_entry *e, size_t n);

/* One entry as the journal writes it (malloc'd JSON text, NULL: no memory), and parsed
 * back from such text (`path` names it in errors; e->native malloc'd or NULL, e->ports
 * malloc'd): the same format serves the run's kept snapshots (include/rocectl/run_snap.h). */
char *rc_journal_entry_text(const char *run_id, const struct rc_device *dev, const char *driver,
			    const struct rc_port_state *ports, size_t n, const char *native);
int rc_journal_entry_parse(const char *path, const char *text, struct rc_journal_entry *e,
			   struct rc_err *err);

/* Serialization of the groups in q->known, exposed for tests and for the agent's --json
 * output (the same shape the controller reads back). */
struct cJSON;
char *rc_port_qos_to_json(const struct port_qos *q);
struct cJSON *rc_port_qos_to_cjson(const struct port_qos *q);
int rc_port_qos_from_json(const char *json, struct port_qos *q, struct rc_err *err);
int rc_port_qos_from_cjson(const struct cJSON *o, struct port_qos *q, struct rc_err *err);

#endif
