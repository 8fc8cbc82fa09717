/* SPDX-License-Identifier: Apache-2.0 */
/* Printing a device's changes (plan) or drift (verify) with the one printer
 * (engine/report/report_changes.c).  Text:
 *
 *   leaf01 (nvue-ssh): 3 changes
 *     swp1  trust             pcp -> dscp          disruptive
 *     swp1  ecn[3].kmin_bytes unknown -> 150000
 *     swp1  nic_ecn.np        not controllable here
 *
 * JSON: {"device":..., "driver":..., "status":"in-sync|changes|drift|error",
 *        "error": "...", "read_ms": N, "apply_ms": N,
 *        "changes":[{"port","field","kind":"set|unknown|unsupported", "old","new","disruptive"}]}
 */
#ifndef ROCECTL_REPORT_H
#define ROCECTL_REPORT_H

#include "rocectl/diff.h"
#include "rocectl/print.h"

enum rc_report_mode {
	RC_REPORT_PLAN = 0,   /* "old -> new" */
	RC_REPORT_VERIFY = 1, /* "want X, have Y" */
};

/* One device as a JSON object (or a text block).  err_msg non-NULL = the device failed. */
void rc_report_device(struct rc_out *o, enum rc_report_mode mode, const char *device,
		      const char *driver, const struct rc_changes *changes, const char *err_msg);

/* What one change says in JSON beside where it is ("port" or "field"/"group", the caller's):
 * "kind" (set, unknown, unsupported or warning), "old" (null unless set), "new",
 * "disruptive" and, when there is one, "note".  verify, plan and the host agent print it
 * so. */
void rc_report_change_json(struct rc_out *o, const struct rc_change *c);

/* The counts a fleet command's summary starts with, for verify ("verify: N drifted fields
 * on M of D device(s), F failed"; JSON "drifted_fields", "devices_with_changes", "devices",
 * "errors") or plan/apply (`cmd`; "changes", with "made" after an apply).  One writer for the
 * whole-fleet report, the streamed JSON and the jsonl summary line, so the keys agree. */
void rc_report_summary_counts(struct rc_out *o, const char *cmd, uint64_t changes,
			      uint64_t with_changes, uint64_t devices, uint64_t failed);

/* How long a device took, in milliseconds: JSON's "read_ms" and "apply_ms" (each only when
 * it was measured), not in the text. */
struct rc_report_times {
	bool read, apply;
	uint32_t read_ms, apply_ms;
};
/* rc_report_device with the device's times (NULL: none). */
void rc_report_device_timed(struct rc_out *o, enum rc_report_mode mode, const char *device,
			    const char *driver, const struct rc_changes *changes,
			    const char *err_msg, const struct rc_report_times *t);

#endif
