/* SPDX-License-Identifier: Apache-2.0 */
/* The devices that disagree with an export (engine/plan/export_dissent.c). */
#ifndef ROCECTL_EXPORT_DISSENT_H
#define ROCECTL_EXPORT_DISSENT_H

#include "rocectl/export.h"

/* What the export wrote for the settings a fabric must agree on. */
struct rc_export_choice {
	int trust;
	uint8_t pfc;
	int roce_dscp, roce_prio, cnp_dscp, cnp_prio;
	int tos; /* -1: auto */
};

/* One "# disagree: ..." note per setting some devices hold otherwise, naming each device
 * with its own (majority of its ports) value. */
void rc_export_dissent(const struct rc_inventory *inv, const struct rc_export_dev *devs, size_t n,
		       const struct rc_export_choice *c, struct rc_export *e);

#endif
