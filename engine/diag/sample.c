/* SPDX-License-Identifier: Apache-2.0 */
/* The two samples `diagnose` and `trace --counters` work on, and the paths they judge: the
 * devices on the paths read twice through their drivers' counters op, on the fleet's one
 * worker pool, `interval` apart. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rocectl/deadline.h"
#include "rocectl/devrun.h"
#include "rocectl/diag.h"
#include "rocectl/fleet.h"

struct rc_diag_scope rc_diag_scope_of(const struct rc_policy *pol)
{
	struct rc_diag_scope s = {.prio_mask = pol->pfc_priorities};

	for (int p = 0; p < RC_NPRIO; p++)
		if (pol->pfc_priorities & (1u << p))
			s.tc_mask |= (uint8_t)(1u << (pol->prio2tc[p] & 7));
	if (pol->ecn.enabled)
		s.tc_mask |= (uint8_t)(1u << (pol->ecn.traffic_class & 7));
	return s;
}

static void sleep_us(uint64_t us)
{
	struct timespec ts = {.tv_sec = (time_t)(us / 1000000u),
			      .tv_nsec = (long)(us % 1000000u) * 1000};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Read every device of f twice, interval_us apart, and fill devs[inventory index] with
 * the deltas of those read both times; *window_s is the time between the two reads,
 * *failed the devices that could not be read (their error is in f). */
static int rc_diag_sample(struct rc_fleet *f, uint64_t interval_us,
			  const struct rc_diag_scope *scope, struct rc_diag_dev *devs,
			  double *window_s, size_t *failed, struct rc_err *err)
{
	struct rc_counters *first = calloc(f->n ? f->n : 1, sizeof(*first));
	int *first_rc = calloc(f->n ? f->n : 1, sizeof(*first_rc));
	struct rc_err *first_err = calloc(f->n ? f->n : 1, sizeof(*first_err));
	double t0, t1;
	int rc = 0;

	if (!first || !first_rc || !first_err) {
		free(first);
		free(first_rc);
		free(first_err);
		return rc_errf(err, ENOMEM, "out of memory");
	}
	*failed = 0;
	t0 = rc_now_s();
	rc_fleet_counters(f);
	for (size_t i = 0; i < f->n; i++) {
		first[i] = f->devs[i].counters;
		memset(&f->devs[i].counters, 0, sizeof(f->devs[i].counters));
		first_rc[i] = f->devs[i].rc;
		first_err[i] = f->devs[i].err;
		/* the second read opens the device afresh (rc_fleet_counters expects a device
		 * it has not opened): release what the first one allocated */
		rc_devrun_close(&f->devs[i].run);
	}
	sleep_us(interval_us);
	t1 = rc_now_s();
	rc_fleet_counters(f);
	*window_s = t1 - t0;
	for (size_t i = 0; i < f->n && !rc; i++) {
		struct rc_fleet_dev *d = &f->devs[i];

		/* a device that failed either sample has no deltas: its hops stay unknown */
		if (first_rc[i] && !d->rc) {
			d->rc = first_rc[i];
			d->err = first_err[i];
		}
		if (d->rc || d->no_counters) {
			*failed += d->rc != 0;
			continue;
		}
		rc = rc_diag_dev_build(&devs[d->index], &first[i], &d->counters, scope, err);
	}
	for (size_t i = 0; i < f->n; i++)
		rc_counters_fini(&first[i]);
	free(first);
	free(first_rc);
	free(first_err);
	return rc;
}

int rc_diag_paths(const struct rc_inventory *inv, const size_t *hosts, size_t n_hosts, bool one_way,
		  struct rc_diag_paths *out, struct rc_err *err)
{
	struct rc_trace *t = calloc(1, sizeof(*t));
	size_t cap = 0;

	memset(out, 0, sizeof(*out));
	if (!t)
		return rc_errf(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < n_hosts; i++)
		for (size_t j = 0; j < n_hosts; j++) {
			if (i == j || (one_way && j < i))
				continue;
			rc_trace_find(t, inv, hosts[i], hosts[j]);
			for (size_t k = 0; k < t->n; k++) {
				if (out->n == RC_DIAG_MAX_PATHS) {
					free(t);
					rc_diag_paths_fini(out);
					return rc_errf(err, E2BIG,
						       "more than %d paths between the hosts: name "
						       "fewer hosts",
						       RC_DIAG_MAX_PATHS);
				}
				if (out->n == cap) {
					size_t c = cap ? cap * 2 : 64;
					struct rc_trace_path *p = realloc(out->p, c * sizeof(*p));
					size_t(*e)[2] =
					    p ? realloc(out->ends, c * sizeof(*e)) : NULL;

					if (p)
						out->p = p;
					if (!p || !e) {
						free(t);
						rc_diag_paths_fini(out);
						return rc_errf(err, ENOMEM, "out of memory");
					}
					out->ends = e;
					cap = c;
				}
				out->p[out->n] = t->p[k];
				out->ends[out->n][0] = hosts[i];
				out->ends[out->n][1] = hosts[j];
				out->n++;
			}
		}
	free(t);
	return 0;
}

void rc_diag_paths_fini(struct rc_diag_paths *p)
{
	free(p->p);
	free(p->ends);
	memset(p, 0, sizeof(*p));
}

/* The devices on the paths as a --limit list, malloc'd; NULL when out of memory; devices
 * with skip[i] set are left out (NULL: none). */
static char *rc_diag_paths_devices(const struct rc_inventory *inv, const struct rc_diag_paths *p,
				   const bool *skip)
{
	bool *on = calloc(inv->n_devices ? inv->n_devices : 1, sizeof(*on));
	char *s;

	if (!on)
		return NULL;
	for (size_t i = 0; i < p->n; i++)
		for (size_t k = 0; k < p->p[i].n; k++)
			on[p->p[i].h[k].dev] = true;
	s = rc_limit_of(inv, on, skip);
	free(on);
	return s;
}

/* Read the devices of `limit` twice (limit is freed); *window the time between. */
static int sample_limit(struct rc_diag_run *r, const struct rc_inventory *inv,
			const struct rc_policy *pol, const struct rc_run_opts *opts, char *limit,
			uint64_t interval_us, unsigned parallel, double *window, struct rc_err *err)
{
	struct rc_diag_scope scope = rc_diag_scope_of(pol);
	int rc = 0;

	memset(r, 0, sizeof(*r));
	r->n_devs = inv->n_devices;
	if (!limit || !(r->devs = calloc(inv->n_devices ? inv->n_devices : 1, sizeof(*r->devs))))
		rc = rc_errf(err, ENOMEM, "out of memory");
	else if (!*limit)
		rc = rc_errf(err, ENOENT, "no device left to read");
	if (!rc)
		rc = rc_fleet_init(&r->f, inv, pol, opts, limit, parallel, err);
	free(limit);
	if (rc)
		return rc;
	r->f.progress = false;
	return rc_diag_sample(&r->f, interval_us, &scope, r->devs, window, &r->failed, err);
}

int rc_diag_run(struct rc_diag_run *r, const struct rc_inventory *inv, const struct rc_policy *pol,
		const struct rc_run_opts *opts, const struct rc_diag_paths *paths, const bool *skip,
		uint64_t interval_us, unsigned parallel, struct rc_err *err)
{
	double window = 0;
	int rc = sample_limit(r, inv, pol, opts, rc_diag_paths_devices(inv, paths, skip),
			      interval_us, parallel, &window, err);

	if (!rc)
		rc = rc_diag_analyze(&r->d, inv, r->devs, window, paths, err);
	return rc;
}

int rc_diag_run_classes(struct rc_diag_run *r, const struct rc_inventory *inv,
			const struct rc_policy *pol, const struct rc_run_opts *opts,
			struct rc_diag_fabric *fab, const bool *skip, uint64_t interval_us,
			unsigned parallel, struct rc_err *err)
{
	double window = 0;
	int rc = sample_limit(r, inv, pol, opts, rc_diag_fabric_devices(fab, skip), interval_us,
			      parallel, &window, err);

	if (!rc)
		rc = rc_diag_analyze_classes(&r->d, inv, r->devs, window, fab, err);
	return rc;
}

void rc_diag_run_fini(struct rc_diag_run *r)
{
	rc_diag_fini(&r->d);
	for (size_t i = 0; r->devs && i < r->n_devs; i++)
		rc_diag_dev_fini(&r->devs[i]);
	free(r->devs);
	r->devs = NULL;
	rc_fleet_fini(&r->f);
}
