/* SPDX-License-Identifier: Apache-2.0 */
/* The canary phase of `rocectl enforce` (rc_enforce_canary, include/rocectl/canary.h):
 * sample, repair the canaries, wait, sample again, read everything again, judge, and roll
 * the canaries back from the journal when they are not clean.  Which devices and how they
 * are judged is engine/run/canary.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rocectl/deadline.h"
#include "rocectl/canary.h"
#include "rocectl/devrun.h"
#include "rocectl/enforce.h"
#include "rocectl/journal.h"

/* ---- counters of the canaries and their link peers ---------------------------------- */

struct sampler {
	struct rc_fleet f;	    /* its own fleet: counters open each device afresh */
	struct rc_counters *first;  /* per sampler device */
	int *first_rc;		    /* per sampler device */
	struct rc_err *first_err;   /* per sampler device */
	struct rc_diag_dev *deltas; /* per sampler device */
	double t0, window_s;
};

static int sampler_init(struct sampler *s, const struct rc_fleet *f, const bool *is_canary,
			struct rc_err *err)
{
	const struct rc_inventory *inv = f->inv;
	bool *on = calloc(inv->n_devices ? inv->n_devices : 1, sizeof(*on));
	size_t n = 0;

	memset(s, 0, sizeof(*s));
	if (!on)
		return rc_errf(err, ENOMEM, "out of memory");
	for (size_t k = 0; k < f->n; k++) {
		size_t d = f->devs[k].index;

		if (!is_canary[k])
			continue;
		on[d] = true;
		for (size_t l = 0; l < inv->n_links; l++) {
			if (inv->links[l].a.dev == d)
				on[inv->links[l].b.dev] = true;
			else if (inv->links[l].b.dev == d)
				on[inv->links[l].a.dev] = true;
		}
	}
	for (size_t i = 0; i < inv->n_devices; i++)
		n += on[i];
	s->f.inv = inv;
	s->f.pol = f->pol;
	s->f.opts = f->opts;
	s->f.parallel = f->parallel;
	s->f.devs = calloc(n ? n : 1, sizeof(*s->f.devs));
	s->first = calloc(n ? n : 1, sizeof(*s->first));
	s->first_rc = calloc(n ? n : 1, sizeof(*s->first_rc));
	s->first_err = calloc(n ? n : 1, sizeof(*s->first_err));
	s->deltas = calloc(n ? n : 1, sizeof(*s->deltas));
	if (!s->f.devs || !s->first || !s->first_rc || !s->first_err || !s->deltas) {
		free(on);
		return rc_errf(err, ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < inv->n_devices; i++)
		if (on[i])
			s->f.devs[s->f.n++].index = i;
	free(on);
	return 0;
}

static void sampler_fini(struct sampler *s)
{
	for (size_t i = 0; i < s->f.n; i++) {
		rc_counters_fini(&s->first[i]);
		if (s->deltas)
			rc_diag_dev_fini(&s->deltas[i]);
	}
	free(s->first);
	free(s->first_rc);
	free(s->first_err);
	free(s->deltas);
	rc_fleet_fini(&s->f);
}

static void sample_first(struct sampler *s)
{
	s->t0 = rc_now_s();
	rc_fleet_counters(&s->f);
	for (size_t i = 0; i < s->f.n; i++) {
		struct rc_fleet_dev *d = &s->f.devs[i];

		s->first[i] = d->counters;
		memset(&d->counters, 0, sizeof(d->counters));
		s->first_rc[i] = d->rc;
		s->first_err[i] = d->err;
		/* the second sample opens the device afresh (as engine/diag/sample.c does) */
		rc_devrun_close(&d->run);
	}
}

static int sample_second(struct sampler *s, const struct rc_diag_scope *scope, struct rc_err *err)
{
	rc_fleet_counters(&s->f);
	s->window_s = rc_now_s() - s->t0;
	for (size_t i = 0; i < s->f.n; i++) {
		struct rc_fleet_dev *d = &s->f.devs[i];

		if (s->first_rc[i] && !d->rc) {
			d->rc = s->first_rc[i];
			d->err = s->first_err[i];
		}
		if (d->rc || d->no_counters)
			continue;
		if (rc_diag_dev_build(&s->deltas[i], &s->first[i], &d->counters, scope, err))
			return -ENOMEM;
	}
	return 0;
}

/* The first finding over every sampled port, inventory then port order; a device whose
 * counters could not be read is a finding of its own (kind NOT_SAMPLED), reported only when
 * no counter rose. */
static enum rc_canary_result judge_counters(const struct sampler *s, const struct rc_canary_opts *o,
					    struct rc_canary_report *rep)
{
	struct rc_canary_finding unread = {0};

	for (size_t i = 0; i < s->f.n; i++)
		rep->n_sampled += !s->f.devs[i].rc && !s->f.devs[i].no_counters;
	for (size_t i = 0; i < s->f.n; i++) {
		const struct rc_fleet_dev *d = &s->f.devs[i];
		const struct rc_device *dev = &s->f.inv->devices[d->index];

		if (d->no_counters)
			continue;
		if (d->rc) {
			if (!unread.device[0]) {
				snprintf(unread.device, sizeof(unread.device), "%s", dev->name);
				snprintf(unread.why, sizeof(unread.why),
					 "the counters of %s could not be read: %s", dev->name,
					 d->err.msg);
			}
			continue;
		}
		for (size_t p = 0; p < s->deltas[i].n; p++)
			if (rc_canary_judge(o, dev->name, s->deltas[i].v[p].name,
					    dev->kind == RC_DEV_HOST, &s->deltas[i].v[p].d,
					    s->window_s, &rep->finding))
				return RC_CANARY_COUNTERS;
	}
	if (unread.device[0]) {
		rep->finding = unread;
		return RC_CANARY_NOT_SAMPLED;
	}
	return RC_CANARY_CLEAN;
}

/* ---- repair, re-read, roll back ------------------------------------------------------ */

/* rc_fleet_apply on the canaries only: a fleet of their own, moved out of f and back. */
static int apply_canaries(struct rc_fleet *f, const bool *is_canary, size_t n)
{
	struct rc_fleet c = *f;
	size_t m = 0;

	c.devs = calloc(n ? n : 1, sizeof(*c.devs));
	if (!c.devs)
		return -ENOMEM;
	for (size_t k = 0; k < f->n; k++) {
		if (!is_canary[k])
			continue;
		c.devs[m++] = f->devs[k];
	}
	c.n = m;
	/* judged after the wait: until then the journal entries are the way back
	 * (rc_fleet_apply gives each device the fleet's keep_journal) */
	c.keep_journal = true;
	rc_fleet_apply(&c);
	m = 0;
	for (size_t k = 0; k < f->n; k++)
		if (is_canary[k])
			f->devs[k] = c.devs[m++];
	free(c.devs);
	return 0;
}

/* Every device read again: the canaries' verify after the wait, the others' state fresh
 * for their repair (a session kept idle through a long wait may be gone). */
static void read_again(struct rc_fleet *f, const int *first_changes)
{
	for (size_t k = 0; k < f->n; k++) {
		rc_devrun_close(&f->devs[k].run);
		f->devs[k].opened = false;
	}
	/* with --confirm, the canaries' switches under their own timer save at the confirm */
	f->opts.timed_commit_pending = f->opts.confirm_s > 0;
	rc_fleet_read(f);
	/* the decision was taken on the first read: what drifted since is the next run's */
	for (size_t k = 0; k < f->n; k++)
		if (first_changes[k] <= 0 && f->devs[k].n_changes > 0)
			f->devs[k].n_changes = 0;
}

struct undo {
	struct rc_fleet *f;
	const char *journal_dir;
	size_t *devs; /* fleet indices */
	struct rc_journal_entry *e;
	size_t n_e;
	int *rc;
	struct rc_err *err;
};

static int undo_one(void *ctx, size_t i)
{
	struct undo *u = ctx;
	struct rc_fleet_dev *d = &u->f->devs[u->devs[i]];
	const struct rc_device *dev = &u->f->inv->devices[d->index];
	const struct rc_journal_entry *e = NULL;
	int rc = 0;

	for (size_t k = 0; k < u->n_e && !e; k++)
		if (!strcmp(u->e[k].device, dev->name) && !u->e[k].bad[0])
			e = &u->e[k];
	if (!e) {
		rc = rc_errf(&u->err[i], ENOENT, "'%s': no usable journal entry of run %s",
			     dev->name, u->f->run_id);
		goto out;
	}
	if (!d->opened) {
		/* apply disconnected it; rc_devrun_open starts from a zeroed device */
		rc_devrun_close(&d->run);
		rc = rc_devrun_open(&d->run, dev, d->index, &u->f->opts, NULL, 0, &u->err[i]);
		d->opened = rc == 0;
	}
	if (!rc)
		rc = rc_devrun_restore_native(&d->run, e->native, e->ports, e->n_ports, &u->err[i]);
	if (!rc)
		rc_journal_done(u->journal_dir, u->f->run_id, dev->name, NULL);
out:
	u->rc[i] = rc;
	return rc != 0;
}

/* Restore the canaries that were repaired; the journal entry of one whose restore failed
 * is kept for `rocectl rollback`. */
static int roll_back(struct rc_fleet *f, const bool *is_canary, const size_t *map,
		     struct rc_enforce_run *out, struct rc_err *err)
{
	struct undo u = {.f = f, .journal_dir = f->journal_dir};
	size_t n = 0;
	int rc;

	u.devs = calloc(f->n ? f->n : 1, sizeof(*u.devs));
	u.rc = calloc(f->n ? f->n : 1, sizeof(*u.rc));
	u.err = calloc(f->n ? f->n : 1, sizeof(*u.err));
	if (!u.devs || !u.rc || !u.err) {
		rc = rc_errf(err, ENOMEM, "out of memory");
		goto out;
	}
	for (size_t k = 0; k < f->n; k++)
		if (is_canary[k] && out->devs[map[k]].action == RC_ENF_REPAIRED)
			u.devs[n++] = k;
	/* no list: every restore fails below with "no usable journal entry" */
	if (rc_journal_list(f->journal_dir, f->run_id, &u.e, &u.n_e, &u.err[0])) {
		u.e = NULL;
		u.n_e = 0;
	}
	rc_pool_run(f->parallel, false, n, undo_one, &u);
	rc = 0;
	for (size_t i = 0; i < n; i++) {
		struct rc_enforce_dev *o = &out->devs[map[u.devs[i]]];

		if (u.rc[i]) {
			o->action = RC_ENF_FAILED;
			snprintf(o->error, sizeof(o->error),
				 "canary not clean (%s); rolling it back failed: %s; the journal "
				 "is kept for 'rocectl rollback'",
				 out->canary.finding.why, u.err[i].msg);
			out->canary.rollback_failed++;
		} else {
			o->action = RC_ENF_ROLLED_BACK;
			o->left = o->repaired;
			o->repaired = 0;
			snprintf(o->error, sizeof(o->error), "canary not clean: %s",
				 out->canary.finding.why);
			out->canary.rolled_back++;
		}
	}
out:
	rc_journal_entries_free(u.e, u.n_e);
	free(u.devs);
	free(u.rc);
	free(u.err);
	return rc;
}

/* The canaries' outcome of the repair, as after_repair() in enforce.c says it. */
static bool canaries_applied(const struct rc_fleet *f, const bool *is_canary, const size_t *map,
			     struct rc_enforce_run *out)
{
	bool ok = true;

	for (size_t k = 0; k < f->n; k++) {
		const struct rc_fleet_dev *d = &f->devs[k];
		struct rc_enforce_dev *o = &out->devs[map[k]];

		if (!is_canary[k])
			continue;
		if (d->rc || d->skipped) {
			o->action = d->rc ? RC_ENF_FAILED : RC_ENF_SKIPPED;
			snprintf(o->error, sizeof(o->error), "canary: %s", d->err.msg);
			if (ok) {
				struct rc_canary_finding *fi = &out->canary.finding;

				snprintf(fi->device, sizeof(fi->device), "%s", o->device);
				snprintf(fi->why, sizeof(fi->why), "the repair of %s failed: %s",
					 o->device, d->err.msg);
			}
			ok = false;
		} else if (d->applied) {
			o->action = RC_ENF_REPAIRED;
			o->repaired = (size_t)d->n_changes;
		}
	}
	return ok;
}

/* After the wait: every canary read and with nothing left to repair. */
static bool canaries_in_sync(const struct rc_fleet *f, const bool *is_canary,
			     struct rc_canary_finding *fi)
{
	for (size_t k = 0; k < f->n; k++) {
		const struct rc_fleet_dev *d = &f->devs[k];
		const char *name = f->inv->devices[d->index].name;

		if (!is_canary[k] || (!d->rc && d->n_changes <= 0))
			continue;
		memset(fi, 0, sizeof(*fi));
		snprintf(fi->device, sizeof(fi->device), "%s", name);
		if (d->rc) {
			snprintf(fi->why, sizeof(fi->why),
				 "%s could not be read after the wait: %s", name, d->err.msg);
			return false;
		}
		for (size_t i = 0; i < d->run.changes.n; i++) {
			const struct rc_change *c = &d->run.changes.v[i];

			if (c->kind != RC_CHANGE_SET || (c->group & d->run.hold_groups))
				continue;
			snprintf(fi->port, sizeof(fi->port), "%s", c->port);
			snprintf(fi->counter, sizeof(fi->counter), "%s", c->field);
			snprintf(fi->why, sizeof(fi->why),
				 "%s:%s %s drifted again after the repair (%s, want %s)", name,
				 c->port, c->field, c->old_value, c->new_value);
			break;
		}
		return false;
	}
	return true;
}

static int names_of(struct rc_fleet *f, const struct rc_canary_pick *pick,
		    struct rc_canary_report *rep)
{
	rep->units = calloc(pick->n_units ? pick->n_units : 1, sizeof(*rep->units));
	rep->devices = calloc(pick->n_devs ? pick->n_devs : 1, sizeof(*rep->devices));
	if (!rep->units || !rep->devices)
		return -ENOMEM;
	for (size_t u = 0; u < pick->n_units; u++)
		snprintf(rep->units[rep->n_units++], RC_NAME_MAX, "%s",
			 f->inv->devices[pick->unit_lead[u]].name);
	for (size_t k = 0; k < f->n; k++)
		if (pick->is_canary[k])
			snprintf(rep->devices[rep->n_devs++], RC_NAME_MAX, "%s",
				 f->inv->devices[f->devs[k].index].name);
	return 0;
}

/* Clean canaries: the guardrails hold for the whole run, the canaries' repairs included,
 * so the rest as read again must still fit in what is left of them. */
static void recheck_guardrails(const struct rc_fleet *f, const struct rc_guardrails *g,
			       const bool *is_canary, const size_t *map, struct rc_enforce_run *out)
{
	struct rc_enforce_decision d;
	size_t dev = 0, changes = 0;

	rc_enforce_decide(f, g, &d);
	for (size_t k = 0; k < f->n; k++) {
		const struct rc_enforce_dev *o = &out->devs[map[k]];

		if (is_canary[k] && o->action == RC_ENF_REPAIRED) {
			dev++;
			changes += o->repaired;
		}
	}
	if (g->max_devices && d.repair_devices + dev > out->decision.device_limit)
		out->decision.blocked = RC_GUARD_MAX_DEVICES;
	else if (g->max_changes && d.repair_changes + changes > g->max_changes)
		out->decision.blocked = RC_GUARD_MAX_CHANGES;
	if (out->decision.blocked) {
		out->decision.repair_devices = d.repair_devices + dev;
		out->decision.repair_changes = d.repair_changes + changes;
	}
}

/* The devices the run does not repair now that it stops: blocked, as by a guardrail. */
static void block_rest(struct rc_fleet *f, const bool *is_canary, const int *first_changes,
		       const size_t *map, struct rc_enforce_run *out)
{
	for (size_t k = 0; k < f->n; k++) {
		struct rc_enforce_dev *o = &out->devs[map[k]];

		if (!is_canary[k] && first_changes[k] > 0 && o->action == RC_ENF_IN_SYNC)
			o->action = RC_ENF_BLOCKED;
		if (!is_canary[k])
			f->devs[k].n_changes = 0;
	}
}

int rc_enforce_canary(struct rc_fleet *f, const struct rc_guardrails *g, const size_t *map,
		      struct rc_enforce_run *out, struct rc_err *err)
{
	struct rc_canary_report *rep = &out->canary;
	struct rc_diag_scope scope = rc_diag_scope_of(f->pol);
	struct rc_canary_pick pick;
	struct sampler s;
	int *first_changes = NULL;
	int rc;

	rep->units_wanted = g->canary.units;
	if (!f->journal_dir)
		return rc_errf(err, EINVAL, "a canary needs the journal: it is the way back");
	rc = rc_canary_select(f, g->canary.units, &pick, err);
	if (rc)
		return rc;
	first_changes = calloc(f->n ? f->n : 1, sizeof(*first_changes));
	if (!first_changes || names_of(f, &pick, rep)) {
		free(first_changes);
		rc_canary_pick_fini(&pick);
		return rc_errf(err, ENOMEM, "out of memory");
	}
	for (size_t k = 0; k < f->n; k++)
		first_changes[k] = f->devs[k].rc ? 0 : f->devs[k].n_changes;
	rc = sampler_init(&s, f, pick.is_canary, err);
	if (rc)
		goto out;
	sample_first(&s);
	rc = apply_canaries(f, pick.is_canary, pick.n_devs);
	if (rc) {
		rc = rc_errf(err, ENOMEM, "out of memory");
		goto out;
	}
	if (!canaries_applied(f, pick.is_canary, map, out)) {
		rep->result = RC_CANARY_APPLY_FAILED;
	} else {
		rc_sleep_ms(g->canary.wait_ms);
		rc = sample_second(&s, &scope, err);
		if (rc)
			goto out;
		read_again(f, first_changes);
		rep->window_s = s.window_s;
		rep->result = judge_counters(&s, &g->canary, rep);
		if (rep->result == RC_CANARY_CLEAN &&
		    !canaries_in_sync(f, pick.is_canary, &rep->finding))
			rep->result = RC_CANARY_OUT_OF_SYNC;
		else if (rep->result == RC_CANARY_NOT_SAMPLED) {
			struct rc_canary_finding sync;

			/* out of sync says more than counters that could not be read */
			if (!canaries_in_sync(f, pick.is_canary, &sync)) {
				rep->finding = sync;
				rep->result = RC_CANARY_OUT_OF_SYNC;
			}
		}
	}
	if (rep->result == RC_CANARY_CLEAN) {
		/* with --confirm the run's entries stay until it is confirmed or rolled back
		 * (include/rocectl/confirm.h), the canaries' too */
		for (size_t k = 0; k < f->n && !f->keep_journal; k++)
			if (pick.is_canary[k] && out->devs[map[k]].action == RC_ENF_REPAIRED)
				rc_journal_done(f->journal_dir, f->run_id,
						f->inv->devices[f->devs[k].index].name, NULL);
		recheck_guardrails(f, g, pick.is_canary, map, out);
		if (out->decision.blocked)
			block_rest(f, pick.is_canary, first_changes, map, out);
	} else {
		out->decision.blocked = RC_GUARD_CANARY;
		block_rest(f, pick.is_canary, first_changes, map, out);
		rc = roll_back(f, pick.is_canary, map, out, err);
	}
out:
	sampler_fini(&s);
	free(first_changes);
	rc_canary_pick_fini(&pick);
	return rc;
}
