/* SPDX-License-Identifier: Apache-2.0 */
/* `rocectl export` (engine/plan/export.c): the fabric's configuration as it is, written as a
 * policy.  Each field of the policy takes the value most ports have (ties: the first device
 * of the inventory that has it); a switch whose own value differs where the inventory can
 * say so (`overrides:` ECN thresholds and cable length, docs/INVENTORY.md) gets an override;
 * whatever no policy field or override can express stays a difference, which `plan` with
 * the exported policy will list (the caller diffs every device to name them).
 * Pure: the caller reads the devices; nothing here does I/O. */
#ifndef ROCECTL_EXPORT_H
#define ROCECTL_EXPORT_H

#include <stddef.h>

#include "rocectl/inventory.h"
#include "rocectl/model.h"
#include "rocectl/policy.h"

/* One device as read. */
struct rc_export_dev {
	size_t index; /* into the inventory */
	const struct rc_port_state *have;
	size_t n_ports;
};

#define RC_EXPORT_NOTES 8192

struct rc_export {
	char *yaml;		     /* the policy, malloc'd, loadable by rc_policy_load */
	struct rc_overrides *ov;     /* per inventory device (has_* false: none) */
	size_t n_ov;		     /* devices with an override */
	char notes[RC_EXPORT_NOTES]; /* choices made, one "# ..." line each */
};

/* Derive the policy `name` from the devices read.  -EINVAL with the reason when the fabric
 * has nothing a lossless policy can be made of (no PFC priority anywhere). */
int rc_export_derive(const struct rc_inventory *inv, const struct rc_export_dev *devs, size_t n,
		     const char *name, struct rc_export *out, struct rc_err *err);
/* The overrides as an inventory fragment ("switches:" entries with name and overrides),
 * malloc'd; "" when there are none. */
char *rc_export_overrides_yaml(const struct rc_inventory *inv, const struct rc_export *e);
void rc_export_fini(struct rc_export *e);

#endif
