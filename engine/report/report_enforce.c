/* SPDX-License-Identifier: Apache-2.0 */
/* The report of `rocectl enforce` (include/rocectl/enforce.h): per device what the first
 * read found and what was done about it, the guardrail that stopped the run if one did, the
 * quarantined devices, a summary; and the same as Prometheus gauges for node_exporter's
 * textfile collector (one family per quantity, base units, no timestamps: see
 * engine/report/report_prom.c for the format rules followed). */
#include <inttypes.h>
#include <string.h>

#include "rocectl/enforce.h"
#include "rocectl/result.h"
#include "rocectl/print.h"
#include "rocectl/report.h"

const char *rc_enforce_action_name(enum rc_enforce_action a)
{
	switch (a) {
	case RC_ENF_REPAIRED:
		return "repaired";
	case RC_ENF_HELD:
		return "held";
	case RC_ENF_BLOCKED:
		return "blocked";
	case RC_ENF_FAILED:
		return "failed";
	case RC_ENF_SKIPPED:
		return "skipped";
	case RC_ENF_QUARANTINED:
		return "quarantined";
	case RC_ENF_ROLLED_BACK:
		return "rolled-back";
	case RC_ENF_IN_SYNC:
		break;
	}
	return "in-sync";
}

static void action_text(struct rc_out *o, const struct rc_enforce_run *r,
			const struct rc_enforce_dev *d)
{
	switch (d->action) {
	case RC_ENF_REPAIRED:
		rc_out_text(o, "  repaired %zu field(s) and verified\n", d->repaired);
		break;
	case RC_ENF_BLOCKED:
		rc_out_text(o, "  not repaired: guardrail --%s\n",
			    rc_guardrail_name(r->decision.blocked));
		break;
	case RC_ENF_SKIPPED:
		rc_out_text(o, "  not repaired: %s\n", d->error);
		break;
	case RC_ENF_ROLLED_BACK:
		rc_out_text(o, "  repaired as a canary, then rolled back: %s\n", d->error);
		break;
	case RC_ENF_QUARANTINED:
		rc_out_text(o,
			    "%s: quarantined, not touched: %s (clear with 'rocectl enforce "
			    "--clear %s')\n",
			    d->device, d->error, d->device);
		break;
	default:
		break;
	}
	if (d->held)
		rc_out_text(o,
			    "  %zu disruptive field(s) not repaired (--disruptive allow repairs "
			    "them)\n",
			    d->held);
}

static void device(struct rc_out *o, const struct rc_enforce_run *r, const struct rc_enforce_dev *d)
{
	bool failed = d->action == RC_ENF_FAILED;

	if (d->action == RC_ENF_QUARANTINED && !rc_out_json(o)) {
		action_text(o, r, d);
		return;
	}
	if (d->action == RC_ENF_QUARANTINED) {
		rc_out_open_object(o, NULL);
		rc_out_str(o, "device", NULL, d->device);
		rc_out_str(o, "driver", NULL, d->driver);
		rc_out_str(o, "status", NULL, "quarantined");
		rc_out_str(o, "error", NULL, d->error);
		rc_out_open_array(o, "changes");
		rc_out_close_array(o);
		rc_out_close_object(o);
		return;
	}
	rc_report_device(o, RC_REPORT_VERIFY, d->device, d->driver, failed ? NULL : &d->found,
			 failed ? d->error : NULL);
	action_text(o, r, d);
}

static void action_json(struct rc_out *o, const struct rc_enforce_dev *d)
{
	rc_out_open_object(o, NULL);
	rc_out_str(o, "device", NULL, d->device);
	rc_out_str(o, "action", NULL, rc_enforce_action_name(d->action));
	rc_out_uint(o, "repaired_fields", NULL, d->repaired);
	rc_out_uint(o, "held_fields", NULL, d->held);
	rc_out_uint(o, "drift_left_fields", NULL, d->left);
	if (d->error[0])
		rc_out_str(o, "error", NULL, d->error);
	rc_out_close_object(o);
}

/* What --confirm did with the repair: the report describes the repair, and this says
 * whether it stayed (cli/cmd_confirm.c). */
static void confirm_print(struct rc_out *o, const struct rc_enforce_run *r)
{
	if (!r->confirm_state[0]) {
		rc_out_null(o, "confirm", NULL);
		return;
	}
	rc_out_open_object(o, "confirm");
	rc_out_str(o, "state", "commit-confirm: %s", r->confirm_state);
	if (r->confirm_reason[0] && strcmp(r->confirm_state, "confirmed") != 0)
		rc_out_str(o, "reason", " (%s)", r->confirm_reason);
	else
		rc_out_null(o, "reason", NULL);
	rc_out_text(o, "\n");
	rc_out_close_object(o);
}

void rc_enforce_report(struct rc_out *o, const struct rc_enforce_run *r)
{
	const struct rc_enforce_decision *dec = &r->decision;
	const char *guard = rc_guardrail_name(dec->blocked);

	rc_out_open_object(o, NULL);
	rc_out_str(o, "command", NULL, "enforce");
	rc_out_str(o, "run_id", "enforce run %s\n", r->run_id);
	rc_out_open_array(o, "devices");
	for (size_t i = 0; i < r->n; i++)
		device(o, r, &r->devs[i]);
	rc_out_close_array(o);
	if (rc_out_json(o)) {
		rc_out_open_array(o, "actions");
		for (size_t i = 0; i < r->n; i++)
			action_json(o, &r->devs[i]);
		rc_out_close_array(o);
	}
	rc_canary_print(o, r);
	if (guard) {
		rc_out_str(o, "guardrail", "guardrail --%s: ", guard);
		if (dec->blocked == RC_GUARD_CANARY)
			rc_out_text(o, "the canary was not clean: %s: its devices were rolled back",
				    r->canary.finding.why);
		else if (dec->blocked == RC_GUARD_MAX_DEVICES)
			rc_out_text(o, "%zu devices to repair, the limit is %u",
				    dec->repair_devices, dec->device_limit);
		else
			rc_out_text(o, "%zu fields to repair, the limit is %u", dec->repair_changes,
				    r->guard.max_changes);
		rc_out_text(o, dec->blocked == RC_GUARD_CANARY ? ", nothing else was repaired\n"
							       : ": nothing was repaired\n");
	} else {
		rc_out_null(o, "guardrail", NULL);
	}
	confirm_print(o, r);
	o->quiet = false; /* -q muted what came before */
	rc_out_open_object(o, "summary");
	rc_out_uint(o, "repaired_fields", "enforce: %" PRIu64 " field(s) repaired",
		    r->repaired_fields);
	rc_out_uint(o, "repaired_devices", " on %" PRIu64 " device(s)", r->repaired_devices);
	rc_out_uint(o, "devices", " of %" PRIu64, r->n);
	rc_out_uint(o, "held_fields", ", %" PRIu64 " disruptive held", r->held_fields);
	rc_out_uint(o, "drift_left_fields", ", %" PRIu64 " drifted left", r->left_fields);
	rc_out_uint(o, "quarantined", ", %" PRIu64 " quarantined", r->quarantined);
	rc_out_uint(o, "errors", ", %" PRIu64 " failed\n", r->failed);
	rc_out_close_object(o);
	rc_out_close_object(o);
	rc_out_end(o);
}

static void gauge(FILE *f, const char *name, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

enum dev_metric { DEV_REPAIRED, DEV_HELD, DEV_LEFT, DEV_FAILED, DEV_QUARANTINED };

static size_t dev_value(const struct rc_enforce_dev *d, enum dev_metric m)
{
	switch (m) {
	case DEV_REPAIRED:
		return d->repaired;
	case DEV_HELD:
		return d->held;
	case DEV_LEFT:
		return d->left;
	case DEV_FAILED:
		return d->action == RC_ENF_FAILED;
	case DEV_QUARANTINED:
		return d->action == RC_ENF_QUARANTINED;
	}
	return 0;
}

/* One family, its samples together after its HELP and TYPE.  Device names are inventory
 * names (rc_name_is_safe: letters, digits, "._/-"), which need no escaping in a label. */
static void per_device(FILE *f, const struct rc_enforce_run *r, const char *name, const char *help,
		       enum dev_metric m)
{
	gauge(f, name, help);
	for (size_t i = 0; i < r->n; i++)
		fprintf(f, "%s{device=\"%s\"} %zu\n", name, r->devs[i].device,
			dev_value(&r->devs[i], m));
}

void rc_enforce_prometheus(FILE *f, const struct rc_enforce_run *r)
{
	static const enum rc_guardrail guards[] = {RC_GUARD_MAX_DEVICES, RC_GUARD_MAX_CHANGES,
						   RC_GUARD_CANARY};

	rc_prom_build_info(f, "enforce");
	gauge(f, "rocectl_enforce_last_run_timestamp_seconds",
	      "When the last enforce run started (seconds since the epoch).");
	fprintf(f, "rocectl_enforce_last_run_timestamp_seconds %.3f\n", r->started);
	gauge(f, "rocectl_enforce_run_duration_seconds", "Wall time of the last enforce run.");
	fprintf(f, "rocectl_enforce_run_duration_seconds %.3f\n", r->duration_s);
	gauge(f, "rocectl_enforce_exit_code",
	      "Exit status of the last enforce run: 0 in sync, 2 drift left, 1 error.");
	fprintf(f, "rocectl_enforce_exit_code %d\n", r->exit_code);
	gauge(f, "rocectl_enforce_confirm_rolled_back",
	      "1 when enforce --confirm rolled its repair back (it did not verify, a device "
	      "stopped answering, a switch could not be kept), else 0");
	fprintf(f, "rocectl_enforce_confirm_rolled_back %d\n",
		r->confirm_state[0] && strcmp(r->confirm_state, "confirmed") != 0);
	gauge(f, "rocectl_enforce_guardrail_blocked",
	      "1 when the guardrail stopped the last run from repairing anything.");
	for (size_t i = 0; i < sizeof(guards) / sizeof(guards[0]); i++)
		fprintf(f, "rocectl_enforce_guardrail_blocked{guardrail=\"%s\"} %d\n",
			rc_guardrail_name(guards[i]), r->decision.blocked == guards[i]);
	per_device(f, r, "rocectl_enforce_repaired_fields",
		   "Fields the last run repaired, per device.", DEV_REPAIRED);
	per_device(f, r, "rocectl_enforce_held_fields",
		   "Disruptive drifted fields the last run reported but did not repair.", DEV_HELD);
	per_device(f, r, "rocectl_enforce_drift_left_fields",
		   "Fields still drifted (or unreadable) after the last run.", DEV_LEFT);
	per_device(f, r, "rocectl_enforce_device_failed",
		   "1 when the last run could not read or repair the device.", DEV_FAILED);
	per_device(f, r, "rocectl_enforce_device_quarantined",
		   "1 when the device failed in the last runs and is not touched until cleared.",
		   DEV_QUARANTINED);
	rc_canary_prometheus(f, r);
}
