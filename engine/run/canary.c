/* SPDX-License-Identifier: Apache-2.0 */
/* `rocectl enforce --canary N`: repair a few units first and watch them before touching
 * the rest (include/rocectl/canary.h, docs/ENFORCE.md "Canary").
 *
 * The canaries are repaired through rc_fleet_apply like any repair, with one difference:
 * their journal entries are kept (struct rc_devrun.keep_journal) until the canary has been
 * judged.  A canary that is not clean is then restored from its own journal entry with
 * rc_devrun_restore_native, the abort path of a failed apply; a run killed during the
 * settle interval leaves the entries for `rocectl rollback`, so the canaries are never
 * left half-judged. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rocectl/canary.h"
#include "rocectl/devrun.h"
#include "rocectl/enforce.h"
#include "rocectl/journal.h"

const char *rc_canary_result_name(enum rc_canary_result r)
{
	switch (r) {
	case RC_CANARY_CLEAN:
		return "clean";
	case RC_CANARY_COUNTERS:
		return "counters";
	case RC_CANARY_OUT_OF_SYNC:
		return "out-of-sync";
	case RC_CANARY_NOT_SAMPLED:
		return "not-sampled";
	case RC_CANARY_APPLY_FAILED:
		return "apply-failed";
	case RC_CANARY_NONE:
		break;
	}
	return "none";
}

/* ---- which devices ---------------------------------------------------------------------- */

struct by_name {
	size_t *v; /* inventory indices */
	size_t n;
};

static int cmp_name(const void *a, const void *b)
{
	const struct rc_device *const *x = a, *const *y = b;

	return strcmp((*x)->name, (*y)->name);
}

/* Inventory indices of the devices of `role`, sorted by name (device pointers are sorted,
 * so that the comparison needs no context). */
static int sorted_role(const struct rc_inventory *inv, enum rc_role role, struct by_name *out)
{
	const struct rc_device **p = malloc((inv->n_devices ? inv->n_devices : 1) * sizeof(*p));

	out->n = 0;
	out->v = malloc((inv->n_devices ? inv->n_devices : 1) * sizeof(*out->v));
	if (!p || !out->v) {
		free(p);
		return -ENOMEM;
	}
	for (size_t i = 0; i < inv->n_devices; i++)
		if (inv->devices[i].role == role)
			p[out->n++] = &inv->devices[i];
	qsort(p, out->n, sizeof(*p), cmp_name);
	for (size_t i = 0; i < out->n; i++)
		out->v[i] = (size_t)(p[i] - inv->devices);
	free(p);
	return 0;
}

/* The other end of link l if it touches device d, else SIZE_MAX. */
static size_t peer_of(const struct rc_link *l, size_t d)
{
	if (l->a.dev == d)
		return l->b.dev;
	if (l->b.dev == d)
		return l->a.dev;
	return SIZE_MAX;
}

struct picker {
	const struct rc_fleet *f;
	long *fleet_of; /* per inventory device: its fleet index, or -1 */
	struct rc_canary_pick *out;
	unsigned want;
};

/* Read and with something to repair: a device a canary can repair. */
static bool drifted(const struct picker *p, size_t inv_index)
{
	long k = p->fleet_of[inv_index];

	return k >= 0 && !p->f->devs[k].rc && p->f->devs[k].n_changes > 0;
}

static void take(struct picker *p, size_t inv_index)
{
	long k = p->fleet_of[inv_index];

	if (!p->out->is_canary[k]) {
		p->out->is_canary[k] = true;
		p->out->n_devs++;
	}
}

static bool taken(const struct picker *p, size_t inv_index)
{
	long k = p->fleet_of[inv_index];

	return k >= 0 && p->out->is_canary[k];
}

static void new_unit(struct picker *p, size_t lead)
{
	p->out->unit_lead[p->out->n_units++] = lead;
}

/* A drifted leaf and its drifted hosts. */
static void leaf_units(struct picker *p, const struct by_name *leaves)
{
	const struct rc_inventory *inv = p->f->inv;

	for (size_t i = 0; i < leaves->n && p->out->n_units < p->want; i++) {
		size_t leaf = leaves->v[i];

		if (!drifted(p, leaf))
			continue;
		new_unit(p, leaf);
		take(p, leaf);
		for (size_t l = 0; l < inv->n_links; l++) {
			size_t h = peer_of(&inv->links[l], leaf);

			if (h != SIZE_MAX && inv->devices[h].role == RC_ROLE_HOST && drifted(p, h))
				take(p, h);
		}
	}
}

/* One drifted host per leaf: of the hosts linked to the leaf, the first by name. */
static void host_units(struct picker *p, const struct by_name *leaves, const struct by_name *hosts)
{
	const struct rc_inventory *inv = p->f->inv;

	for (size_t i = 0; i < leaves->n && p->out->n_units < p->want; i++) {
		for (size_t j = 0; j < hosts->n; j++) {
			size_t h = hosts->v[j];
			bool linked = false;

			if (!drifted(p, h) || taken(p, h))
				continue;
			for (size_t l = 0; l < inv->n_links && !linked; l++)
				linked = peer_of(&inv->links[l], leaves->v[i]) == h;
			if (!linked)
				continue;
			new_unit(p, h);
			take(p, h);
			break;
		}
	}
}

/* Devices of `role` one per unit, by name (hosts no leaf is linked to; spines). */
static void single_units(struct picker *p, const struct by_name *devs)
{
	for (size_t i = 0; i < devs->n && p->out->n_units < p->want; i++) {
		if (!drifted(p, devs->v[i]) || taken(p, devs->v[i]))
			continue;
		new_unit(p, devs->v[i]);
		take(p, devs->v[i]);
	}
}

int rc_canary_select(const struct rc_fleet *f, unsigned units, struct rc_canary_pick *out,
		     struct rc_err *err)
{
	const struct rc_inventory *inv = f->inv;
	struct by_name leaves = {0}, hosts = {0}, spines = {0};
	struct picker p = {.f = f, .out = out, .want = units};
	int rc = -ENOMEM;

	memset(out, 0, sizeof(*out));
	p.fleet_of = malloc((inv->n_devices ? inv->n_devices : 1) * sizeof(*p.fleet_of));
	out->is_canary = calloc(f->n ? f->n : 1, sizeof(*out->is_canary));
	out->unit_lead = calloc(units ? units : 1, sizeof(*out->unit_lead));
	if (!p.fleet_of || !out->is_canary || !out->unit_lead ||
	    sorted_role(inv, RC_ROLE_LEAF, &leaves) || sorted_role(inv, RC_ROLE_HOST, &hosts) ||
	    sorted_role(inv, RC_ROLE_SPINE, &spines))
		goto out;
	for (size_t i = 0; i < inv->n_devices; i++)
		p.fleet_of[i] = -1;
	for (size_t k = 0; k < f->n; k++)
		p.fleet_of[f->devs[k].index] = (long)k;
	leaf_units(&p, &leaves);
	if (!out->n_units)
		host_units(&p, &leaves, &hosts);
	if (!out->n_units)
		single_units(&p, &hosts);
	if (!out->n_units)
		single_units(&p, &spines);
	rc = 0;
out:
	free(p.fleet_of);
	free(leaves.v);
	free(hosts.v);
	free(spines.v);
	if (rc) {
		rc_canary_pick_fini(out);
		return rc_errf(err, -rc, "out of memory");
	}
	return 0;
}

void rc_canary_pick_fini(struct rc_canary_pick *p)
{
	free(p->is_canary);
	free(p->unit_lead);
	memset(p, 0, sizeof(*p));
}

/* ---- the judgement ---------------------------------------------------------------------- */

static bool finding(struct rc_canary_finding *out, const char *device, const char *port,
		    const char *counter, uint64_t delta, double rate, const char *why)
{
	snprintf(out->device, sizeof(out->device), "%s", device);
	snprintf(out->port, sizeof(out->port), "%s", port);
	snprintf(out->counter, sizeof(out->counter), "%s", counter);
	out->delta = delta;
	out->rate = rate;
	snprintf(out->why, sizeof(out->why), "%s:%s %s rose by %llu in the canary window (%s)",
		 device, port, counter, (unsigned long long)delta, why);
	return true;
}

bool rc_canary_judge(const struct rc_canary_opts *opts, const char *device, const char *port,
		     bool host, const struct rc_diag_deltas *d, double window_s,
		     struct rc_canary_finding *out)
{
	double w = window_s > 0.001 ? window_s : 0.001;
	double tx = (double)d->pause_tx / w, rx = (double)d->pause_rx / w;
	char why[96];

	memset(out, 0, sizeof(*out));
	if ((d->have & RC_DH_STORM) && d->storm_events)
		return finding(out, device, port, "pfc_storm_events", d->storm_events, 0,
			       "the NIC's own PFC storm detector fired");
	/* pausing for half the window or more is the storm diagnose reports
	 * (RC_DIAG_STORM_SHARE, docs/DIAGNOSE.md) */
	if ((d->have & RC_DH_PAUSE_US) && (double)d->pause_tx_us / 1e6 >= RC_DIAG_STORM_SHARE * w) {
		snprintf(why, sizeof(why), "pausing %.0f%% of %.1f s",
			 100.0 * (double)d->pause_tx_us / 1e6 / w, w);
		return finding(out, device, port, "pfc_pause_tx_duration_us", d->pause_tx_us, 0,
			       why);
	}
	if (opts->pause_rate && (d->have & RC_DH_PAUSE_TX) && tx > (double)opts->pause_rate) {
		snprintf(why, sizeof(why), "%.0f pause frames/s sent, the limit is %llu/s", tx,
			 (unsigned long long)opts->pause_rate);
		return finding(out, device, port, "pfc_pause_tx", d->pause_tx, tx, why);
	}
	if (opts->pause_rate && (d->have & RC_DH_PAUSE_RX) && rx > (double)opts->pause_rate) {
		snprintf(why, sizeof(why), "%.0f pause frames/s received, the limit is %llu/s", rx,
			 (unsigned long long)opts->pause_rate);
		return finding(out, device, port, "pfc_pause_rx", d->pause_rx, rx, why);
	}
	/* a lossless priority must lose nothing (engine/diag/deltas.c scopes the counters) */
	if ((d->have & RC_DH_DISCARDS) && d->discards)
		return finding(out, device, port, "discards", d->discards, 0,
			       "drops on a lossless priority");
	if (host && (d->have & RC_DH_OUT_OF_BUFFER) && d->out_of_buffer)
		return finding(out, device, port, "out_of_buffer", d->out_of_buffer, 0,
			       "RDMA receive queue out of buffers");
	return false;
}

void rc_canary_report_fini(struct rc_canary_report *r)
{
	free(r->units);
	free(r->devices);
	r->units = NULL;
	r->devices = NULL;
	r->n_units = r->n_devs = 0;
}
