/* SPDX-License-Identifier: Apache-2.0 */
/* Unattended drift remediation (`rocectl enforce`): after the fleet has been read, decide
 * what may be repaired (engine/run/enforce.c), and remember which devices keep failing so
 * that a scheduled run stops retrying them until a human looks (engine/run/quarantine.c). */
#ifndef ROCECTL_ENFORCE_H
#define ROCECTL_ENFORCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rocectl/canary.h"
#include "rocectl/err.h"
#include "rocectl/fleet.h"

/* The guardrails.  0 = no limit. */
struct rc_guardrails {
	unsigned max_devices;	      /* devices to repair, or a percentage with max_devices_pct */
	bool max_devices_pct;	      /* max_devices is N% of the devices the run selected */
	unsigned max_changes;	      /* fields to repair, all devices together */
	bool allow_disruptive;	      /* repair the driver's disruptive groups too */
	unsigned quarantine_after;    /* failed runs in a row that quarantine a device; 0 = never */
	struct rc_canary_opts canary; /* `--canary N`: units repaired and watched first */
};

enum rc_guardrail {
	RC_GUARD_NONE = 0,
	RC_GUARD_MAX_DEVICES,
	RC_GUARD_MAX_CHANGES,
	RC_GUARD_CANARY, /* the canary was not clean: rolled back, the rest not repaired */
};

/* "max-devices", "max-changes", "canary" (the option that set the limit); NULL for NONE. */
const char *rc_guardrail_name(enum rc_guardrail g);

/* What the read found, against the guardrails. */
struct rc_enforce_decision {
	size_t devices;		   /* selected and read (quarantined ones are not selected) */
	size_t failed;		   /* could not be read */
	size_t repair_devices;	   /* devices with fields to repair */
	size_t repair_changes;	   /* fields to repair */
	size_t held_changes;	   /* disruptive fields reported, not repaired */
	size_t unknown_changes;	   /* fields that could not be read: never repaired blind */
	unsigned device_limit;	   /* max_devices resolved to a count (0 = none) */
	enum rc_guardrail blocked; /* NONE: go on and repair */
};

/* Count the fleet as read (rc_fleet_read with hold_disruptive = !allow_disruptive) and
 * check the guardrails.  Pure: nothing is touched. */
void rc_enforce_decide(const struct rc_fleet *f, const struct rc_guardrails *g,
		       struct rc_enforce_decision *d);

/* The quarantine: per device, how many enforce runs in a row failed on it, the last
 * failing run and its error.  A JSON file, 0600, written atomically. */
struct rc_quarantine_dev {
	char device[RC_NAME_MAX];
	unsigned failures; /* runs in a row */
	char last_run[64];
	char last_error[RC_ERR_MSG_MAX];
};

struct rc_quarantine {
	size_t n, cap;
	struct rc_quarantine_dev *v;
};

/* Load `path`; a missing file is an empty state.  A file that is not ours (bad JSON, a
 * symlink, not a regular file) is an error: a scheduled run must not forget quarantines. */
int rc_quarantine_load(const char *path, struct rc_quarantine *q, struct rc_err *err);
/* Written atomically, 0600; missing parent directories are made 0700, like the journal's. */
int rc_quarantine_save(const char *path, const struct rc_quarantine *q, struct rc_err *err);
/* The default file: enforce-state.json in the directory that holds the journal directory
 * `journal` (with the default journal, /var/lib/rocectl/enforce-state.json, which
 * dist/systemd's ReadWritePaths= allows). */
void rc_quarantine_default_path(const char *journal, char *buf, size_t len);
/* The entry of `device`, or NULL. */
struct rc_quarantine_dev *rc_quarantine_find(struct rc_quarantine *q, const char *device);
/* Is `device` quarantined (failed in the last `after` runs in a row; after 0 = never)? */
bool rc_quarantine_blocks(const struct rc_quarantine *q, const char *device, unsigned after);
/* After a run: a device that failed gets one more failure; one that did not is forgotten. */
int rc_quarantine_record(struct rc_quarantine *q, const char *device, bool failed,
			 const char *run_id, const char *error);
/* `enforce --clear DEVICE`: 0, or -ENOENT when it held no entry. */
int rc_quarantine_clear(struct rc_quarantine *q, const char *device);
void rc_quarantine_fini(struct rc_quarantine *q);

/* One run's outcome, for the printers (engine/report/report_enforce.c). */
enum rc_enforce_action {
	RC_ENF_IN_SYNC = 0, /* nothing to do */
	RC_ENF_REPAIRED,    /* repaired and verified */
	RC_ENF_HELD,	    /* only disruptive (or unreadable) drift: reported, not repaired */
	RC_ENF_BLOCKED,	    /* a guardrail stopped the repair */
	RC_ENF_FAILED,	    /* read or repair failed (a failed repair is rolled back) */
	RC_ENF_SKIPPED,	    /* not repaired: a device it depends on failed first */
	RC_ENF_QUARANTINED, /* failed in the last K runs: neither read nor repaired */
	RC_ENF_ROLLED_BACK, /* a canary that was not clean: repaired, then restored */
};

const char *rc_enforce_action_name(enum rc_enforce_action a);

struct rc_enforce_dev {
	const char *device;
	const char *driver;
	enum rc_enforce_action action;
	struct rc_changes found; /* what the first read found */
	size_t repaired;	 /* fields repaired */
	size_t held;		 /* disruptive fields not repaired */
	size_t left;		 /* fields still drifted (set or unreadable) after the run */
	char error[RC_ERR_MSG_MAX];
};

struct rc_enforce_run {
	char run_id[64];
	double started;	   /* seconds since the epoch */
	double duration_s; /* wall time of the run */
	struct rc_guardrails guard;
	struct rc_enforce_decision decision;
	size_t n;
	struct rc_enforce_dev *devs;	/* every device of the selection, quarantined ones too */
	struct rc_canary_report canary; /* result RC_CANARY_NONE without --canary */
	size_t repaired_devices, repaired_fields, held_fields, left_fields, failed, quarantined;
	int exit_code; /* 0 in sync, 2 drift left, 1 error */
	/* --confirm: the run's confirm state after it (rc_confirm_state_name: "confirmed",
	 * "rolled back", "rollback failed") and the reason of a rollback; "" when there was
	 * no --confirm or nothing to confirm. */
	char confirm_state[24];
	char confirm_reason[32];
};

/* The whole run on a fleet made by rc_fleet_init (journal_dir and run_id set by the
 * caller): devices `q` quarantines (may be NULL) are taken out of the selection; the rest
 * are read with the disruptive groups held unless g->allow_disruptive, the guardrails
 * decide, the repair runs through rc_fleet_apply (journal, tier order, read-back, restore
 * of a failed device) and everything is read again.  `q` is then updated (a device that
 * failed gets one more failure, the others are forgotten); saving it is the caller's.
 * `hist` (may be NULL, else begun by rc_history_begin) gets every device read, what it
 * was to change and its outcome.  Per-device failures are in `out`, not an error: returns
 * 0 or -ENOMEM. */
struct rc_history;
int rc_enforce_execute(struct rc_fleet *f, const struct rc_guardrails *g, struct rc_quarantine *q,
		       struct rc_history *hist, struct rc_enforce_run *out, struct rc_err *err);
void rc_enforce_run_fini(struct rc_enforce_run *r);

/* Text or JSON (one printer), and the Prometheus textfile. */
struct rc_out;
void rc_enforce_report(struct rc_out *o, const struct rc_enforce_run *r);
void rc_enforce_prometheus(FILE *f, const struct rc_enforce_run *r);

#endif
