/* SPDX-License-Identifier: Apache-2.0 */
/* Saved plans (`rocectl plan -o FILE`, `rocectl apply FILE`): what was reviewed is what
 * is applied.  The file records the policy and inventory files and, per device, a
 * fingerprint of the state read when the plan was made; apply re-reads and refuses when
 * anything differs.  The file carries "digest": "sha256:HEX" of its canonical body (the
 * object without the digest, printed unformatted): a truncated or edited plan, one that
 * lists no device, a role instead of a device, or a device twice is refused at load. */
#ifndef ROCECTL_PLAN_FILE_H
#define ROCECTL_PLAN_FILE_H

#include <stdint.h>

#include "rocectl/fleet.h"

struct rc_plan_device {
	char name[RC_NAME_MAX];
	uint64_t fingerprint;
};

struct rc_plan_file {
	char policy[4096];
	char inventory[4096];
	uint64_t policy_fp, inventory_fp;
	size_t n;
	struct rc_plan_device *devs;
};

/* FNV-1a 64 of a device's read state (ports in order, their known groups). */
uint64_t rc_plan_fingerprint(const struct rc_fleet_dev *d);
/* FNV-1a 64 of a file's bytes; 0 and an error when unreadable. */
int rc_plan_file_hash(const char *path, uint64_t *out, struct rc_err *err);

int rc_plan_save(const char *path, const char *policy, const char *inventory,
		 const struct rc_fleet *f, struct rc_err *err);
int rc_plan_load(const char *path, struct rc_plan_file *p, struct rc_err *err);
void rc_plan_fini(struct rc_plan_file *p);
/* _fini releases what the struct holds, not the struct (_free would); the old name is
 * kept for callers not yet renamed. */
static inline void rc_plan_free(struct rc_plan_file *p)
{
	rc_plan_fini(p);
}

#endif
