/* SPDX-License-Identifier: Apache-2.0 */
/* `rocectl enforce`: the decision between the first read and the repair.  The read already
 * left the disruptive groups out of what each device would write (struct
 * rc_devrun.hold_groups), so what is counted here is exactly what rc_fleet_apply would
 * send; the guardrails are all-or-nothing: over a limit, nothing is repaired, because a
 * drift that touches more of the fabric than expected is more likely a wrong policy or
 * inventory than a hand edit (docs/ENFORCE.md). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rocectl/enforce.h"
#include "rocectl/history.h"

const char *rc_guardrail_name(enum rc_guardrail g)
{
	switch (g) {
	case RC_GUARD_MAX_DEVICES:
		return "max-devices";
	case RC_GUARD_MAX_CHANGES:
		return "max-changes";
	case RC_GUARD_CANARY:
		return "canary";
	case RC_GUARD_NONE:
		break;
	}
	return NULL;
}

static size_t held_of(const struct rc_devrun *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->changes.n; i++)
		n += r->changes.v[i].kind == RC_CHANGE_SET &&
		     (r->changes.v[i].group & r->hold_groups);
	return n;
}

void rc_enforce_decide(const struct rc_fleet *f, const struct rc_guardrails *g,
		       struct rc_enforce_decision *d)
{
	*d = (struct rc_enforce_decision){.devices = f->n};
	for (size_t i = 0; i < f->n; i++) {
		const struct rc_fleet_dev *dev = &f->devs[i];

		if (dev->rc) {
			d->failed++;
			continue;
		}
		if (dev->n_changes > 0) {
			d->repair_devices++;
			d->repair_changes += (size_t)dev->n_changes;
		}
		d->held_changes += held_of(&dev->run);
		d->unknown_changes += rc_changes_count(&dev->run.changes, RC_CHANGE_UNKNOWN);
	}
	/* N% of the selected devices, rounded down: a limit errs on the side of not acting */
	d->device_limit =
	    g->max_devices_pct ? (unsigned)(f->n * g->max_devices / 100) : g->max_devices;
	if (g->max_devices && d->repair_devices > d->device_limit)
		d->blocked = RC_GUARD_MAX_DEVICES;
	else if (g->max_changes && d->repair_changes > g->max_changes)
		d->blocked = RC_GUARD_MAX_CHANGES;
}

static size_t drift_of(const struct rc_changes *c)
{
	return rc_changes_count(c, RC_CHANGE_SET) + rc_changes_count(c, RC_CHANGE_UNKNOWN);
}

/* Take the quarantined devices out of the fleet; map[k] is the outcome index of f->devs[k]. */
static void quarantine_out(struct rc_fleet *f, const struct rc_guardrails *g,
			   const struct rc_quarantine *q, struct rc_enforce_run *out, size_t *map)
{
	size_t keep = 0;

	for (size_t i = 0; i < f->n; i++) {
		const struct rc_device *dev = &f->inv->devices[f->devs[i].index];
		struct rc_enforce_dev *o = &out->devs[i];

		o->device = dev->name;
		o->driver = rc_driver_name_for(dev);
		if (q && rc_quarantine_blocks(q, dev->name, g->quarantine_after)) {
			for (size_t k = 0; k < q->n; k++)
				if (!strcmp(q->v[k].device, dev->name))
					snprintf(o->error, sizeof(o->error),
						 "failed in the last %u runs (last %s: %s)",
						 q->v[k].failures, q->v[k].last_run,
						 q->v[k].last_error);
			o->action = RC_ENF_QUARANTINED;
			out->quarantined++;
			continue;
		}
		map[keep] = i;
		f->devs[keep++] = f->devs[i];
	}
	f->n = keep;
}

static void after_repair(struct rc_fleet *f, const size_t *map, struct rc_enforce_run *out)
{
	for (size_t k = 0; k < f->n; k++) {
		struct rc_fleet_dev *d = &f->devs[k];
		struct rc_enforce_dev *o = &out->devs[map[k]];

		if (o->action == RC_ENF_FAILED)
			continue;
		if (d->rc) {
			o->action = RC_ENF_FAILED;
			snprintf(o->error, sizeof(o->error), "%s", d->err.msg);
		} else if (d->skipped) {
			o->action = RC_ENF_SKIPPED;
			snprintf(o->error, sizeof(o->error), "%s", d->err.msg);
		} else if (d->applied && d->n_changes > 0) {
			o->action = RC_ENF_REPAIRED;
			o->repaired = (size_t)d->n_changes;
		}
	}
}

/* The device's result in the history record ("applied" is what syslog logs). */
static const char *history_result(enum rc_enforce_action a)
{
	return a == RC_ENF_REPAIRED ? "applied" : rc_enforce_action_name(a);
}

int rc_enforce_execute(struct rc_fleet *f, const struct rc_guardrails *g, struct rc_quarantine *q,
		       struct rc_history *hist, struct rc_enforce_run *out, struct rc_err *err)
{
	size_t *map = calloc(f->n ? f->n : 1, sizeof(*map));
	bool repair;
	struct timespec t0, t1;

	clock_gettime(CLOCK_REALTIME, &t0);
	memset(out, 0, sizeof(*out));
	snprintf(out->run_id, sizeof(out->run_id), "%s", f->run_id);
	out->started = (double)t0.tv_sec + t0.tv_nsec / 1e9;
	out->guard = *g;
	out->n = f->n;
	out->devs = calloc(f->n ? f->n : 1, sizeof(*out->devs));
	if (!map || !out->devs) {
		free(map);
		return rc_errf(err, ENOMEM, "out of memory");
	}
	quarantine_out(f, g, q, out, map);
	f->hold_disruptive = !g->allow_disruptive;
	rc_fleet_read(f);
	rc_enforce_decide(f, g, &out->decision);
	for (size_t k = 0; k < f->n; k++) {
		struct rc_fleet_dev *d = &f->devs[k];
		struct rc_enforce_dev *o = &out->devs[map[k]];

		if (d->rc) {
			o->action = RC_ENF_FAILED;
			snprintf(o->error, sizeof(o->error), "%s", d->err.msg);
			continue;
		}
		if (rc_changes_copy(&d->run.changes, &o->found) ||
		    (hist && rc_history_add(hist, &d->run, "pending"))) {
			free(map);
			return rc_errf(err, ENOMEM, "out of memory");
		}
		o->held = held_of(&d->run);
		o->left = drift_of(&d->run.changes);
		if (d->n_changes > 0 && out->decision.blocked)
			o->action = RC_ENF_BLOCKED;
	}
	repair = !out->decision.blocked && out->decision.repair_devices > 0;
	/* canaries first (engine/run/canary_run.c); not clean: rolled back, nothing else */
	if (repair && g->canary.units) {
		int rc = rc_enforce_canary(f, g, map, out, err);

		if (rc) {
			free(map);
			return rc;
		}
		repair = !out->decision.blocked;
	}
	if (repair) {
		rc_fleet_apply(f);
		after_repair(f, map, out);
		/* verify again, everything: a repair must not have disturbed a neighbour.
		 * rc_devrun_open starts from a zeroed device: what the first read left is
		 * freed first. */
		for (size_t k = 0; k < f->n; k++) {
			rc_devrun_close(&f->devs[k].run);
			f->devs[k].opened = false;
		}
		f->disconnect_after_read = true;
		/* with --confirm, switches under their own timer save at the confirm */
		f->opts.timed_commit_pending = f->opts.confirm_s > 0;
		rc_fleet_read(f);
		for (size_t k = 0; k < f->n; k++) {
			struct rc_fleet_dev *d = &f->devs[k];
			struct rc_enforce_dev *o = &out->devs[map[k]];

			if (o->action == RC_ENF_FAILED)
				continue;
			if (d->rc) {
				o->action = RC_ENF_FAILED;
				snprintf(o->error, sizeof(o->error), "verify after repair: %s",
					 d->err.msg);
				continue;
			}
			o->left = drift_of(&d->run.changes);
			o->held = held_of(&d->run);
		}
	}
	for (size_t i = 0; i < out->n; i++) {
		struct rc_enforce_dev *o = &out->devs[i];

		if (o->action == RC_ENF_IN_SYNC && o->left)
			o->action = RC_ENF_HELD;
		out->repaired_devices += o->repaired > 0;
		out->repaired_fields += o->repaired;
		out->held_fields += o->held;
		out->left_fields += o->left;
		out->failed += o->action == RC_ENF_FAILED;
		if (hist)
			rc_history_result(hist, o->device, history_result(o->action),
					  o->error[0] ? o->error : NULL);
		/* a canary rolled back counts as a failure of the device */
		if (q && o->action != RC_ENF_QUARANTINED &&
		    rc_quarantine_record(
			q, o->device, o->action == RC_ENF_FAILED || o->action == RC_ENF_ROLLED_BACK,
			out->run_id, o->error)) {
			free(map);
			return rc_errf(err, ENOMEM, "out of memory");
		}
	}
	out->exit_code = out->failed							 ? 1
			 : out->left_fields || out->decision.blocked || out->quarantined ? 2
											 : 0;
	clock_gettime(CLOCK_REALTIME, &t1);
	out->duration_s = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	free(map);
	return 0;
}

void rc_enforce_run_fini(struct rc_enforce_run *r)
{
	for (size_t i = 0; i < r->n; i++)
		rc_changes_fini(&r->devs[i].found);
	rc_canary_report_fini(&r->canary);
	free(r->devs);
	r->devs = NULL;
	r->n = 0;
}
