/* SPDX-License-Identifier: Apache-2.0 */
/* One device through read -> diff -> journal -> apply -> re-read -> verify (engine/run/devrun.c).
 * Shared by `rocectl agent` (the local host), the switch commands and the fleet executor;
 * drivers only translate, this decides and sequences. */
#ifndef ROCECTL_DEVRUN_H
#define ROCECTL_DEVRUN_H

#include <stdbool.h>
#include <stddef.h>

#include "rocectl/desired.h"
#include "rocectl/diff.h"
#include "rocectl/driver.h"
#include "rocectl/inventory.h"
#include "rocectl/policy.h"

struct rc_devrun {
	const struct rc_device *dev;
	size_t dev_index; /* into the inventory, when there is one */
	const struct rc_driver *drv;
	struct rc_session *sess;
	size_t n_ports;
	struct rc_port_state *want; /* desired, per port */
	struct rc_port_state *have; /* actual, per port (last read) */
	uint32_t *write_fields;	    /* per port: RC_F_* groups that need writing */
	struct rc_changes changes;  /* every difference of the last diff */
	bool read_ok;
	/* RC_F_* groups reported but never written (`enforce --disruptive skip`): left out of
	 * write_fields and of the SET count the diff returns and the read-back waits for.
	 * Set after rc_devrun_open (which zeroes the struct). */
	uint32_t hold_groups;
	/* A rendered desired state (`agent --desired`, include/rocectl/desired.h): want[] is
	 * taken from it instead of being computed from the policy.  Set after rc_devrun_open. */
	const struct rc_desired_set *preset;
	/* Keep the journal entry after a verified apply (`enforce --canary`: the canary is
	 * judged later and rolled back from it; engine/run/canary_run.c).  rc_fleet_apply sets it
	 * from struct rc_fleet.keep_journal.
	 * Also commit-confirm (include/rocectl/confirm.h): the confirm timer restores the
	 * entry unless the run is confirmed. */
	bool keep_journal;
};

/* Connect through the device's driver.  `only_ports` (may be NULL/0) restricts the ports;
 * otherwise the inventory's ports, or the driver's discovery when the inventory has none. */
int rc_devrun_open(struct rc_devrun *r, const struct rc_device *dev, size_t dev_index,
		   const struct rc_run_opts *opts, char (*only_ports)[RC_NAME_MAX], size_t n_only,
		   struct rc_err *err);
/* Read the actual state of every port. */
int rc_devrun_read(struct rc_devrun *r, struct rc_err *err);
/* Desired state from the policy (device overrides applied) and the diff against the last
 * read.  Returns the number of SET changes, or a negative errno. */
int rc_devrun_diff(struct rc_devrun *r, const struct rc_policy *pol, const struct rc_inventory *inv,
		   struct rc_err *err);
/* Journal the pre-change state, apply what the diff says, re-read and re-diff.  On any
 * failure the device is restored from the journal and the error says what failed and
 * what was restored.  journal_dir NULL = no journal (tests only). */
int rc_devrun_apply(struct rc_devrun *r, const struct rc_policy *pol,
		    const struct rc_inventory *inv, const char *journal_dir, const char *run_id,
		    struct rc_err *err);
/* Drive the device back to `before` (a journaled pre-change state, matched by port name)
 * and verify it; used after a failed apply and by `rocectl rollback`. */
int rc_devrun_restore(struct rc_devrun *r, const struct rc_port_state *before, size_t n,
		      struct rc_err *err);
/* The same from a journal entry: through the driver's native restore when the entry has
 * a native snapshot and the driver one (what the run created is deleted), else by values
 * after discarding what the driver finds staged.  Fails when staged changes cannot be
 * discarded. */
int rc_devrun_restore_native(struct rc_devrun *r, const char *native,
			     const struct rc_port_state *before, size_t n, struct rc_err *err);
/* Close the driver session but keep what was read (a read-only run need not hold a
 * connection per device until the end: memory then follows --parallel, not fleet size). */
void rc_devrun_disconnect(struct rc_devrun *r);
void rc_devrun_close(struct rc_devrun *r);

#endif
