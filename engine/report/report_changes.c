/* SPDX-License-Identifier: Apache-2.0 */
#include <inttypes.h>
#include <string.h>

#include "rocectl/report.h"

static const char *kind_name(enum rc_change_kind k)
{
	switch (k) {
	case RC_CHANGE_UNKNOWN:
		return "unknown";
	case RC_CHANGE_UNSUPPORTED:
		return "unsupported";
	default:
		return "set";
	}
}

void rc_report_change_json(struct rc_out *o, const struct rc_change *c)
{
	rc_out_str(o, "kind", NULL, c->warning ? "warning" : kind_name(c->kind));
	if (c->kind == RC_CHANGE_SET)
		rc_out_str(o, "old", NULL, c->old_value);
	else
		rc_out_null(o, "old", NULL);
	rc_out_str(o, "new", NULL, c->new_value);
	rc_out_bool(o, "disruptive", NULL, c->disruptive);
	if (rc_change_note(c)[0])
		rc_out_str(o, "note", NULL, rc_change_note(c));
}

static const char *status_of(enum rc_report_mode mode, const struct rc_changes *c,
			     const char *err_msg)
{
	if (err_msg)
		return "error";
	if (c && (rc_changes_count(c, RC_CHANGE_SET) || rc_changes_count(c, RC_CHANGE_UNKNOWN)))
		return mode == RC_REPORT_PLAN ? "changes" : "drift";
	return "in-sync";
}

static void text_change(struct rc_out *o, enum rc_report_mode mode, const struct rc_change *c)
{
	char value[128];

	if (c->kind == RC_CHANGE_UNSUPPORTED && c->warning)
		snprintf(value, sizeof(value), "warning");
	else if (c->kind == RC_CHANGE_UNSUPPORTED && rc_change_note(c)[0])
		snprintf(value, sizeof(value), "not effective here");
	else if (c->kind == RC_CHANGE_UNSUPPORTED)
		snprintf(value, sizeof(value), "not controllable here");
	else if (mode == RC_REPORT_PLAN)
		snprintf(value, sizeof(value), "%s -> %s",
			 c->kind == RC_CHANGE_UNKNOWN ? "unknown" : c->old_value, c->new_value);
	else
		snprintf(value, sizeof(value), "want %s, have %s", c->new_value,
			 c->kind == RC_CHANGE_UNKNOWN ? "unknown (unreadable)" : c->old_value);
	rc_out_text(o, "  %-14s %-22s %s%s\n", c->port, c->field, value,
		    c->disruptive && mode == RC_REPORT_PLAN ? "   (disruptive)" : "");
	if (rc_change_note(c)[0])
		rc_out_text(o, "  %-14s %-22s   %s\n", "", "", rc_change_note(c));
}

/* Groups whose reading on this platform no vendor artifact confirms (docs/PLATFORMS.md):
 * so that an operator knows which "in sync" to trust less. */
static void report_unverified(struct rc_out *o, const struct rc_changes *changes)
{
	uint32_t u = changes ? changes->unverified : 0;
	bool first = true;

	if (!u)
		return;
	rc_out_open_array(o, "unverified");
	rc_out_text(o, "  unverified reading on this platform: ");
	for (uint32_t bit = 1; bit && bit <= RC_F_ALL; bit <<= 1) {
		if (!(u & bit))
			continue;
		rc_out_text(o, "%s", first ? "" : ", ");
		rc_out_str(o, NULL, "%s", rc_field_name(bit));
		first = false;
	}
	rc_out_text(o, "\n");
	rc_out_close_array(o);
}

void rc_report_device(struct rc_out *o, enum rc_report_mode mode, const char *device,
		      const char *driver, const struct rc_changes *changes, const char *err_msg)
{
	rc_report_device_timed(o, mode, device, driver, changes, err_msg, NULL);
}

void rc_report_device_timed(struct rc_out *o, enum rc_report_mode mode, const char *device,
			    const char *driver, const struct rc_changes *changes,
			    const char *err_msg, const struct rc_report_times *t)
{
	size_t n_set = changes ? rc_changes_count(changes, RC_CHANGE_SET) : 0;
	size_t n_unknown = changes ? rc_changes_count(changes, RC_CHANGE_UNKNOWN) : 0;
	size_t n_unsup = changes ? rc_changes_count(changes, RC_CHANGE_UNSUPPORTED) : 0;
	size_t n_warn = 0;
	const char *status = status_of(mode, changes, err_msg);

	for (size_t i = 0; changes && i < changes->n; i++)
		n_warn += changes->v[i].warning;
	rc_out_open_object(o, NULL);
	rc_out_str(o, "device", "%s", device);
	rc_out_str(o, "driver", " (%s): ", driver);
	rc_out_str(o, "status", NULL, status);
	if (err_msg)
		rc_out_str(o, "error", "error: %s\n", err_msg);
	if (t && t->read)
		rc_out_uint(o, "read_ms", NULL, t->read_ms);
	if (t && t->apply)
		rc_out_uint(o, "apply_ms", NULL, t->apply_ms);
	if (err_msg) {
		/* said above */
	} else if (!n_set && !n_unknown) {
		rc_out_text(o, "%s", mode == RC_REPORT_PLAN ? "no changes" : "in sync");
		if (mode == RC_REPORT_VERIFY && n_unsup > n_warn)
			rc_out_text(o, " (%zu field%s not controllable here)", n_unsup - n_warn,
				    n_unsup - n_warn == 1 ? "" : "s");
		if (n_warn)
			rc_out_text(o, " (%zu warning%s)", n_warn, n_warn == 1 ? "" : "s");
		rc_out_text(o, "\n");
	} else {
		rc_out_text(o, "%zu %s%s", n_set + n_unknown,
			    mode == RC_REPORT_PLAN ? "change" : "drifted field",
			    n_set + n_unknown == 1 ? "" : "s");
		if (n_unknown)
			rc_out_text(o, " (%zu unreadable)", n_unknown);
		rc_out_text(o, "\n");
	}
	report_unverified(o, changes);
	rc_out_open_array(o, "changes");
	for (size_t i = 0; changes && i < changes->n; i++) {
		const struct rc_change *c = &changes->v[i];

		/* verify's text says only what drifted; what cannot be controlled was
		 * shown by plan and is counted in the header */
		if (!rc_out_json(o) && mode == RC_REPORT_VERIFY &&
		    c->kind == RC_CHANGE_UNSUPPORTED && !rc_change_note(c)[0])
			continue;
		if (rc_out_json(o)) {
			rc_out_open_object(o, NULL);
			rc_out_str(o, "port", NULL, c->port);
			rc_out_str(o, "field", NULL, c->field);
			rc_report_change_json(o, c);
			rc_out_close_object(o);
		} else {
			text_change(o, mode, c);
		}
	}
	rc_out_close_array(o);
	rc_out_close_object(o);
}

void rc_report_summary_counts(struct rc_out *o, const char *cmd, uint64_t changes,
			      uint64_t with_changes, uint64_t devices, uint64_t failed)
{
	bool verify = !strcmp(cmd, "verify");

	rc_out_text(o, "%s: ", cmd);
	rc_out_uint(o, verify ? "drifted_fields" : "changes", "%" PRIu64, changes);
	rc_out_text(o, " %s%s%s on ", verify ? "drifted field" : "change", changes == 1 ? "" : "s",
		    !strcmp(cmd, "apply") ? " made" : "");
	rc_out_uint(o, "devices_with_changes", "%" PRIu64, with_changes);
	rc_out_uint(o, "devices", " of %" PRIu64 " device(s)", devices);
	rc_out_uint(o, "errors", ", %" PRIu64 " failed\n", failed);
}
