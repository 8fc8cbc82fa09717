/* SPDX-License-Identifier: Apache-2.0 */
/* Diff: desired vs actual port_qos -> typed changes (engine/plan/diff.c). */
#ifndef ROCECTL_DIFF_H
#define ROCECTL_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rocectl/model.h"

enum rc_change_kind {
	RC_CHANGE_SET = 0,     /* differs: old -> new */
	RC_CHANGE_UNKNOWN,     /* the driver could not read it: never taken as equal */
	RC_CHANGE_UNSUPPORTED, /* not controllable on this platform: reported, not drift */
};

/* One typed change of one port, e.g. field "ecn[3].kmin_bytes", 1048576 -> 150000. */
struct rc_change {
	char port[RC_NAME_MAX];
	char field[48]; /* operator's name, with index: "dscp2prio[26]", "ecn[3].kmin_bytes" */
	uint32_t group; /* the RC_F_* bit the field belongs to */
	enum rc_change_kind kind;
	char old_value[48]; /* "" when unknown */
	char new_value[48];
	bool disruptive; /* flaps the link / restarts channels on this platform */
	/* What the driver saw about this field's group (the reasons of struct rc_effect.why
	 * recorded for it, rc_effect_why_of): with SET, the group reads as wanted but
	 * its effect is missing ("effect" field); with UNSUPPORTED, the value has no effect
	 * on this device as configured ("not effective here").  NULL otherwise.  Owned by the
	 * change (rc_change_set_note; freed by rc_changes_fini): most changes have none, and a
	 * 200-byte array in each made a factory-state switch's thousand changes 420 KB. */
	char *note;
	/* With UNSUPPORTED and a note: a warning (the group is in policy but something
	 * about it deserves a look), not "not effective here". */
	bool warning;
};

struct rc_changes {
	size_t n, cap;
	struct rc_change *v;
	/* Groups the policy pins whose reading on this platform is not checked against a
	 * vendor artifact (struct rc_effect.unverified, every port diffed): verify says so. */
	uint32_t unverified;
};

/* Compare.  tolerance_pct: accepted relative difference for byte sizes (ECN thresholds,
 * headroom), because ASICs quantize.  Appends to `out`; returns the mask of RC_F_* groups
 * that need writing (kind SET), or a negative errno on allocation failure.
 * `disruptive_groups` marks changes of those groups as disruptive. */
int64_t rc_diff_port(const char *port, const struct port_qos *want, const struct port_qos *have,
		     double tolerance_pct, uint32_t disruptive_groups, struct rc_changes *out);

void rc_changes_fini(struct rc_changes *c);
/* A change's note, "" when it has none. */
static inline const char *rc_change_note(const struct rc_change *c)
{
	return c->note ? c->note : "";
}
/* c's note becomes a copy of `text` (at most RC_WHY_LEN - 1 bytes; "" = none): 0 or
 * -ENOMEM (the note is then none). */
int rc_change_set_note(struct rc_change *c, const char *text);
/* Gives back the room the array grew beyond its changes (a factory-state switch has about
 * a thousand, 420 bytes each, held while its report is written). */
void rc_changes_fit(struct rc_changes *c);
/* _fini releases what the struct holds, not the struct (_free would); the old name is
 * kept for callers not yet renamed. */
static inline void rc_changes_free(struct rc_changes *c)
{
	rc_changes_fini(c);
}
/* `to` becomes a copy of `from` (which stays as it is): 0 or -ENOMEM. */
int rc_changes_copy(const struct rc_changes *from, struct rc_changes *to);
/* Count of changes of kind SET / UNKNOWN (drift means either). */
size_t rc_changes_count(const struct rc_changes *c, enum rc_change_kind kind);

/* Is `have` within tolerance of `want` (relative, percent)? */
bool rc_within_tolerance(uint64_t want, uint64_t have, double tolerance_pct);

#endif
