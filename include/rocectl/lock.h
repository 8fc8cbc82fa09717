/* SPDX-License-Identifier: Apache-2.0 */
/* Excluding concurrent runs that write to the same device, across the machine: one lock
 * file per device name in a lock directory ($ROCECTL_LOCK_DIR, else /run/lock/rocectl),
 * whatever journal directory each run uses.  flock(2): the kernel releases a lock when its
 * holder dies, so a killed run never blocks the next one; its lock file still holds what
 * it wrote (pid, host, start, command), which is how a killed run is detected. */
#ifndef ROCECTL_LOCK_H
#define ROCECTL_LOCK_H

#include <stddef.h>

#include "rocectl/err.h"
#include "rocectl/policy.h" /* struct rc_warnings */

#define RC_LOCK_DEFAULT_DIR "/run/lock/rocectl"

struct rc_locks {
	size_t n;
	int *fds; /* one per device, kept open while the run works */
};

/* $ROCECTL_LOCK_DIR or RC_LOCK_DEFAULT_DIR. */
const char *rc_lock_dir(void);

/* Lock every named device (all or none).  -EBUSY naming the device and the holder's pid,
 * host and start time when another run holds one; a lock file left by a run that was
 * killed (its pid gone) is taken over and reported in `warn` with what to do. */
int rc_lock_devices(const char *dir, const char *const *names, size_t n, const char *command,
		    struct rc_locks *l, struct rc_warnings *warn, struct rc_err *err);
/* Release (and mark released) every lock taken; safe on a zeroed struct. */
void rc_locks_release(struct rc_locks *l);

#endif
