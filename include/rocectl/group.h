/* SPDX-License-Identifier: Apache-2.0 */
/* plan's and verify's text at fleet size (engine/report/group.c): the same finding on many
 * devices is one line,
 *
 *   pfc_enabled want 3, have none — 4,096 NICs on 2,048 hosts gpu[0001-2048] (enp12s0np0,...)
 *   cable_length_m not effective here — 4,096 NICs on 2,048 hosts gpu[0001-2048] (...)
 *       cable length is used only once the host sizes the buffers (manual-buffer mode); ...
 *   in sync: 128 switches leaf[01-64],spine[01-64]
 *
 * one line per distinct (field, want, have, note), with how many ports and devices and their
 * names folded into ranges (include/rocectl/nameset.h).  Devices are added one at a time as
 * they are read; the table holds at most RC_GROUP_KINDS kinds with their counts and two
 * bounded name sets each, so that it does not grow with the fleet: a kind that finds the
 * table full is counted in an "and more" line.  With JSON, or o->details (--details, -v),
 * every device is printed as rc_report_device prints it (include/rocectl/report.h). */
#ifndef ROCECTL_GROUP_H
#define ROCECTL_GROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rocectl/inventory.h"
#include "rocectl/nameset.h"
#include "rocectl/report.h"

#define RC_GROUP_KINDS	  64
#define RC_GROUP_WHAT_LEN (RC_ERR_MSG_MAX + 16) /* a line of a kind: an error message whole */
/* The lines a group prints at most, its headers aside (its "and more" lines included): the
 * devices' findings, then the link and host checks' (engine/report/report_fabric.c). */
#define RC_GROUP_LINES	     60
#define RC_GROUP_CHECK_LINES 20

enum rc_group_class {
	RC_GROUP_DRIFT = 0,  /* set and unknown changes: drift (verify), changes (plan) */
	RC_GROUP_ERROR,	     /* devices that failed, by message */
	RC_GROUP_INFO,	     /* not controllable / not effective here, warnings, driver notes */
	RC_GROUP_UNVERIFIED, /* readings no vendor artifact confirms, by field list */
	RC_GROUP_LINK,	     /* link checks: the two ends disagree (sets: a ends, b ends) */
	RC_GROUP_HOST,	     /* dual-homed hosts whose switches differ */
	RC_GROUP_NCLASS
};

struct rc_group_kind {
	enum rc_group_class cls;
	char what[RC_GROUP_WHAT_LEN]; /* "pfc_enabled want 3, have none", an error message */
	char note[RC_WHY_LEN];
	size_t items;	/* ports (links, hosts; devices for errors and unverified) */
	size_t devices; /* distinct devices */
	bool hosts, switches;
	struct rc_nameset dev, port; /* links: a-end devices, b-end devices */
	size_t last_seq;	     /* the device last counted in `devices` */
	uint64_t *in;		     /* rc_group_in_order: the devices, by inventory index */
	size_t first_dev, first_add; /* rc_group_in_order: where it would have come first */
};

struct rc_group {
	struct rc_out *o;
	enum rc_report_mode mode;
	bool grouped; /* false: every device printed as it comes */
	size_t max_lines;
	size_t n;
	struct rc_group_kind *v; /* RC_GROUP_KINDS */
	size_t seq;		 /* devices added so far */
	/* per class, what found the table full: items, distinct devices */
	size_t more_items[RC_GROUP_NCLASS], more_devices[RC_GROUP_NCLASS];
	size_t more_seq[RC_GROUP_NCLASS];
	/* devices read with nothing to change (warnings and the like aside) */
	size_t clean;
	bool clean_hosts, clean_switches;
	struct rc_nameset clean_set;
	/* rc_group_in_order: the inventory's devices; the names are listed from bitmaps */
	const struct rc_device *base;
	size_t n_base, adds;
	uint64_t *clean_in;
};

/* Begin the device part of a report on `o`; fini frees it (rc_group_print prints it). */
void rc_group_init(struct rc_group *g, struct rc_out *o, enum rc_report_mode mode);
/* One device's diff (err_msg non-NULL: it failed).  Not grouped: printed now, with its times
 * (NULL: none) in JSON. */
void rc_group_device(struct rc_group *g, const struct rc_device *dev, const char *driver,
		     const struct rc_changes *changes, const char *err_msg,
		     const struct rc_report_times *t);
/* A note a driver made about a device (plan's check op).  Not grouped: printed now. */
void rc_group_note(struct rc_group *g, const struct rc_device *dev, const char *note);
/* One finding of a class for the table: `port` is the port (the b end of a link, the
 * device's name for a host check), NULL for none. */
void rc_group_add(struct rc_group *g, enum rc_group_class cls, const char *what, const char *note,
		  const struct rc_device *dev, const char *port);
/* Devices come in any order (the streaming verify adds each as it finishes): each kind keeps
 * a bitmap of the inventory's `n` devices instead of adding names as they come, and the
 * names are folded in inventory order when printed, as if added in that order.  n bits a
 * kind: flat.  0, or -ENOMEM (then names are added as they come). */
int rc_group_in_order(struct rc_group *g, const struct rc_device *devices, size_t n);
/* Print what was grouped (nothing when not grouped). */
void rc_group_print(struct rc_group *g);
void rc_group_fini(struct rc_group *g);

#endif
