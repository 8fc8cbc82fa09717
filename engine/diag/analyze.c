/* SPDX-License-Identifier: Apache-2.0 */
/* The pause tree, DCQCN health and a verdict per path, from counter deltas alone
 * (include/rocectl/diag.h).  The reasoning follows how PFC and DCQCN work (IEEE 802.1Qbb:
 * a port sends pause upstream when its ingress buffer for a priority passes xoff, so the
 * congestion sits where pauses are sent but not received; DCQCN: switches mark CE, the
 * receiving NIC answers with CNPs, the sending NIC slows down on them). */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/diag.h"

#include "analyze.h"

const char *rc_diag_role_name(enum rc_diag_role r)
{
	switch (r) {
	case RC_HOP_CLEAN:
		return "clean";
	case RC_HOP_RELAY:
		return "relay";
	case RC_HOP_ROOT:
		return "root";
	case RC_HOP_STORM:
		return "storm";
	default:
		return "unknown";
	}
}

const char *rc_diag_verdict_name(enum rc_diag_verdict v)
{
	switch (v) {
	case RC_VERDICT_CLEAN:
		return "clean";
	case RC_VERDICT_CONGESTED:
		return "congested";
	case RC_VERDICT_LOSSY:
		return "lossy";
	case RC_VERDICT_HOST_SIDE:
		return "host-side";
	default:
		return "unknown";
	}
}

const char *rc_diag_finding_name(enum rc_diag_finding_kind k)
{
	switch (k) {
	case RC_FIND_MARKS_NO_CNP:
		return "marks_without_cnps";
	case RC_FIND_CNP_NOT_HANDLED:
		return "cnps_not_handled";
	case RC_FIND_PAUSE_NO_MARKS:
		return "pauses_without_marks";
	default:
		return "unexpected_pause";
	}
}

static const char *dev_name(const struct rc_diag *d, size_t dev)
{
	return d->inv->devices[dev].name;
}

bool rc_diag_is_storm(const struct rc_diag *d, const struct rc_diag_deltas *x)
{
	return x && x->pause_tx &&
	       (x->storm_events ||
		(double)x->pause_tx_us >= RC_DIAG_STORM_SHARE * d->window_s * 1e6);
}

void rc_diag_add_finding(struct rc_diag *d, enum rc_diag_finding_kind kind, size_t dev,
			 const char *port, const char *fields, const char *fmt, ...)
{
	struct rc_diag_finding *f;
	va_list ap;

	for (size_t i = 0; i < d->n_findings; i++)
		if (d->findings[i].kind == kind && d->findings[i].dev == dev &&
		    !strcmp(d->findings[i].port, port ? port : ""))
			return;
	if (d->n_findings == RC_DIAG_MAX_FINDINGS)
		return;
	f = &d->findings[d->n_findings++];
	f->kind = kind;
	f->dev = dev;
	snprintf(f->port, sizeof(f->port), "%s", port ? port : "");
	snprintf(f->fields, sizeof(f->fields), "%s", fields);
	va_start(ap, fmt);
	vsnprintf(f->message, sizeof(f->message), fmt, ap);
	va_end(ap);
}

static void add_root(struct rc_diag *d, const char *dev, const char *port)
{
	char r[sizeof(d->roots[0])];

	snprintf(r, sizeof(r), "%s%s%s", dev, port ? ":" : "", port ? port : "");
	for (size_t i = 0; i < d->n_roots; i++)
		if (!strcmp(d->roots[i], r))
			return;
	if (d->n_roots < sizeof(d->roots) / sizeof(d->roots[0]))
		snprintf(d->roots[d->n_roots++], sizeof(d->roots[0]), "%s", r);
}

/* ---- the pause tree over every sampled device ------------------------------------------ */

/* A switch port is where congestion starts when its device pauses some other port, the port
 * itself is not paused from downstream, and its queue shows it: marks or drops. */
static bool root_port(const struct rc_diag_dev *dev, size_t p)
{
	const struct rc_diag_deltas *x = &dev->v[p].d;
	bool pauses_other = false;

	for (size_t i = 0; i < dev->n; i++)
		pauses_other |= i != p && dev->v[i].d.pause_tx;
	return pauses_other && !x->pause_rx && (x->ecn_marked || x->discards);
}

/* A switch that pauses upstream with no port paused from downstream and no queue showing
 * marks or drops: the congestion is on it, which egress cannot be told. */
static bool root_unmarked(const struct rc_diag_dev *dev)
{
	bool pauses = false;

	for (size_t i = 0; i < dev->n; i++) {
		if (dev->v[i].d.pause_rx || root_port(dev, i))
			return false;
		pauses |= dev->v[i].d.pause_tx != 0;
	}
	return pauses;
}

void rc_diag_find_roots(struct rc_diag *d)
{
	const struct rc_inventory *inv = d->inv;

	for (size_t k = 0; k < inv->n_devices; k++) {
		const struct rc_diag_dev *dev = &d->devs[k];
		bool host = inv->devices[k].kind == RC_DEV_HOST;
		bool reports_marks = false;
		uint64_t sent = 0;

		if (!dev->sampled)
			continue;
		for (size_t i = 0; i < dev->n; i++) {
			const struct rc_diag_deltas *x = &dev->v[i].d;

			reports_marks |= (x->have & RC_DH_ECN_MARKED) != 0;
			sent += x->pause_tx;
			if (host ? x->pause_tx != 0 : root_port(dev, i))
				add_root(d, inv->devices[k].name, dev->v[i].name);
		}
		if (host || !root_unmarked(dev))
			continue;
		add_root(d, inv->devices[k].name, NULL);
		if (reports_marks)
			rc_diag_add_finding(
			    d, RC_FIND_PAUSE_NO_MARKS, k, NULL,
			    "ecn kmin_bytes, ecn kmax_bytes (policy ecn.min_threshold, "
			    "ecn.max_threshold)",
			    "%s sent %" PRIu64 " pause frames but marked no packet: PFC acts "
			    "before ECN, so the ECN thresholds (Kmin/Kmax) sit above the PFC "
			    "xoff threshold; lower them below it",
			    inv->devices[k].name, sent);
	}
}

/* ---- hops ------------------------------------------------------------------------------- */

static void judge_host(struct rc_diag *d, struct rc_diag_hop *h, bool receiver)
{
	const struct rc_diag_deltas *x = receiver ? h->in : h->out;

	if (!x) {
		h->role = RC_HOP_UNKNOWN;
		snprintf(h->why, sizeof(h->why), "no counters read");
		return;
	}
	if (rc_diag_is_storm(d, x)) {
		h->role = RC_HOP_STORM;
		snprintf(h->why, sizeof(h->why),
			 "NIC sends pause continuously: %" PRIu64 " frames, %" PRIu64
			 " us paused in %.1f s, %" PRIu64 " storm events",
			 x->pause_tx, x->pause_tx_us, d->window_s, x->storm_events);
	} else if (receiver && x->pause_tx) {
		h->role = RC_HOP_ROOT;
		snprintf(h->why, sizeof(h->why),
			 "NIC pauses its switch (%" PRIu64 " frames): the host does not take "
			 "what it receives fast enough",
			 x->pause_tx);
	} else if (x->pause_rx) {
		snprintf(h->why, sizeof(h->why), "paused by its switch (%" PRIu64 " frames)",
			 x->pause_rx);
	}
}

bool rc_diag_is_root_port(const struct rc_diag *d, size_t dev, const char *port)
{
	char r[sizeof(d->roots[0])];

	snprintf(r, sizeof(r), "%s:%s", dev_name(d, dev), port);
	for (size_t i = 0; i < d->n_roots; i++)
		if (!strcmp(d->roots[i], r) || !strcmp(d->roots[i], dev_name(d, dev)))
			return true;
	return false;
}

static void judge_switch(struct rc_diag *d, struct rc_diag_hop *h, const struct rc_trace_hop *t)
{
	if (!h->in || !h->out) {
		h->role = RC_HOP_UNKNOWN;
		snprintf(h->why, sizeof(h->why), "no counters read for %s",
			 !h->in ? t->in : t->out);
		return;
	}
	if (!h->in->pause_tx)
		return;
	if (h->out->pause_rx) {
		h->role = RC_HOP_RELAY;
		snprintf(h->why, sizeof(h->why),
			 "sends pause on %s (%" PRIu64 "), paused on %s (%" PRIu64 ")", t->in,
			 h->in->pause_tx, t->out, h->out->pause_rx);
	} else if (rc_diag_is_root_port(d, t->dev, t->out)) {
		h->role = RC_HOP_ROOT;
		snprintf(h->why, sizeof(h->why),
			 "sends pause on %s (%" PRIu64 "), not paused on %s, which marked %" PRIu64
			 " and dropped %" PRIu64,
			 t->in, h->in->pause_tx, t->out, h->out->ecn_marked, h->out->discards);
	} else {
		h->role = RC_HOP_RELAY;
		snprintf(h->why, sizeof(h->why),
			 "sends pause on %s (%" PRIu64 ") for another congested egress", t->in,
			 h->in->pause_tx);
	}
}

/* ---- verdicts --------------------------------------------------------------------------- */

static void verdict(struct rc_diag_path *p, enum rc_diag_verdict v, const char *dev,
		    const char *port, const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void verdict(struct rc_diag_path *p, enum rc_diag_verdict v, const char *dev,
		    const char *port, const char *fmt, ...)
{
	va_list ap;

	p->verdict = v;
	snprintf(p->at, sizeof(p->at), "%s%s%s", dev, port && *port ? ":" : "", port ? port : "");
	va_start(ap, fmt);
	vsnprintf(p->evidence, sizeof(p->evidence), fmt, ap);
	va_end(ap);
}

/* The port of hop k its deltas belong to: a host has one, a switch two. */
static const char *hop_port(const struct rc_trace_hop *t, bool out)
{
	return out ? t->out : t->in;
}

static void judge_path(struct rc_diag *d, struct rc_diag_path *p)
{
	const struct rc_trace_path *tp = p->p;
	size_t last = tp->n - 1;

	/* a NIC storm hurts everything behind it first */
	for (size_t k = 0; k < tp->n; k++)
		if (p->h[k].role == RC_HOP_STORM) {
			const struct rc_diag_deltas *x = k ? p->h[k].in : p->h[k].out;
			verdict(p, RC_VERDICT_HOST_SIDE, dev_name(d, tp->h[k].dev),
				hop_port(&tp->h[k], k == 0),
				"pause storm from this NIC (%" PRIu64 " frames sent)", x->pause_tx);
			return;
		}
	for (size_t k = 1; k < last; k++)
		for (int o = 0; o < 2; o++) {
			const struct rc_diag_deltas *x = o ? p->h[k].out : p->h[k].in;
			if (x && x->discards) {
				verdict(p, RC_VERDICT_LOSSY, dev_name(d, tp->h[k].dev),
					hop_port(&tp->h[k], o),
					"%" PRIu64 " drops on a lossless "
					"priority or class",
					x->discards);
				return;
			}
		}
	for (size_t k = 1; k < last; k++)
		if (p->h[k].role == RC_HOP_ROOT) {
			verdict(p, RC_VERDICT_CONGESTED, dev_name(d, tp->h[k].dev), tp->h[k].out,
				"%s", p->h[k].why);
			return;
		}
	if (p->h[last].role == RC_HOP_ROOT) {
		verdict(p, RC_VERDICT_HOST_SIDE, dev_name(d, tp->h[last].dev), tp->h[last].in, "%s",
			p->h[last].why);
		return;
	}
	for (size_t k = 0; k < tp->n; k++) {
		const struct rc_diag_deltas *x = k ? p->h[k].in : p->h[k].out;
		bool paused = p->h[k].role == RC_HOP_RELAY || (k == 0 && x && x->pause_rx);

		if (!paused)
			continue;
		if (d->n_roots)
			verdict(p, RC_VERDICT_CONGESTED, d->roots[0], NULL,
				"paused by the pause tree rooted at %s (first paused hop: %s)",
				d->roots[0], dev_name(d, tp->h[k].dev));
		else
			verdict(p, RC_VERDICT_CONGESTED, dev_name(d, tp->h[k].dev),
				hop_port(&tp->h[k], k == 0),
				"paused, root not among the devices read");
		return;
	}
	for (size_t k = 0; k <= last; k += last) {
		const struct rc_diag_deltas *x = k ? p->h[k].in : p->h[k].out;

		if (x && (x->out_of_buffer || x->seq_errors || x->discards)) {
			verdict(p, RC_VERDICT_HOST_SIDE, dev_name(d, tp->h[k].dev),
				hop_port(&tp->h[k], k == 0),
				"%" PRIu64 " out_of_buffer, %" PRIu64 " sequence errors, %" PRIu64
				" NIC discards",
				x->out_of_buffer, x->seq_errors, x->discards);
			return;
		}
		if (!last)
			break;
	}
	for (size_t k = 0; k < tp->n; k++)
		if (p->h[k].role == RC_HOP_UNKNOWN) {
			verdict(p, RC_VERDICT_UNKNOWN, dev_name(d, tp->h[k].dev), NULL, "%s",
				p->h[k].why);
			return;
		}
	verdict(p, RC_VERDICT_CLEAN, "", NULL, "no pause, drop or host error in the window");
}

/* Marks reach the receiving NIC but it sends no CNPs: nothing slows the senders down. */
static void check_dcqcn(struct rc_diag *d, const struct rc_diag_path *p)
{
	const struct rc_trace_path *tp = p->p;
	const struct rc_trace_hop *rb = &tp->h[tp->n - 1];
	const struct rc_diag_deltas *b = p->h[tp->n - 1].in;
	uint64_t marks = 0;
	size_t at = 0;

	for (size_t k = 1; k + 1 < tp->n; k++)
		if (p->h[k].out && p->h[k].out->ecn_marked > marks) {
			marks = p->h[k].out->ecn_marked;
			at = k;
		}
	if (!marks || !b || !(b->have & RC_DH_CNP_SENT) || b->cnp_sent)
		return;
	rc_diag_add_finding(
	    d, RC_FIND_MARKS_NO_CNP, rb->dev, rb->in,
	    "nic_ecn notification point (policy ecn.host.notification_point), cnp_prio, "
	    "cnp_dscp",
	    "%s:%s marked %" PRIu64 " packets towards %s:%s, which sent no CNP: ECN "
	    "notification point off on that NIC (or marks on a priority it does not "
	    "watch); enable it",
	    dev_name(d, tp->h[at].dev), tp->h[at].out, marks, dev_name(d, rb->dev), rb->in);
}

/* CNPs are sent somewhere but no NIC reacts to any: the reaction point is off. */
void rc_diag_check_cnp_handled(struct rc_diag *d)
{
	const struct rc_inventory *inv = d->inv;
	uint64_t sent = 0, handled = 0;
	size_t sender = SIZE_MAX;

	for (size_t k = 0; k < inv->n_devices; k++) {
		if (!d->devs[k].sampled || inv->devices[k].kind != RC_DEV_HOST)
			continue;
		for (size_t i = 0; i < d->devs[k].n; i++) {
			const struct rc_diag_deltas *x = &d->devs[k].v[i].d;

			sent += x->cnp_sent;
			handled += x->cnp_handled;
			if (x->cnp_sent && sender == SIZE_MAX)
				sender = k;
		}
	}
	if (sent && !handled)
		rc_diag_add_finding(
		    d, RC_FIND_CNP_NOT_HANDLED, sender, NULL,
		    "nic_ecn reaction point (policy ecn.host.reaction_point)",
		    "%" PRIu64 " CNPs were sent and no NIC handled one: DCQCN reaction "
		    "point off on the senders (or CNPs on a priority they do not watch)",
		    sent);
}

int rc_diag_analyze(struct rc_diag *d, const struct rc_inventory *inv,
		    const struct rc_diag_dev *devs, double window_s,
		    const struct rc_diag_paths *paths, struct rc_err *err)
{
	size_t n = paths->n;

	memset(d, 0, sizeof(*d));
	d->inv = inv;
	d->devs = devs;
	d->window_s = window_s > 0 ? window_s : 1;
	d->paths = calloc(n ? n : 1, sizeof(*d->paths));
	if (!d->paths)
		return rc_errf(err, ENOMEM, "out of memory");
	d->n_paths = n;
	rc_diag_find_roots(d);
	for (size_t i = 0; i < n; i++) {
		struct rc_diag_path *p = &d->paths[i];
		const struct rc_trace_path *tp = &paths->p[i];

		p->p = tp;
		p->from = paths->ends[i][0];
		p->to = paths->ends[i][1];
		for (size_t k = 0; k < tp->n; k++) {
			const struct rc_trace_hop *t = &tp->h[k];
			const struct rc_diag_dev *dev = &devs[t->dev];

			p->h[k].in = rc_diag_dev_port(dev, t->in);
			p->h[k].out = rc_diag_dev_port(dev, t->out);
			if (!dev->sampled) {
				p->h[k].role = RC_HOP_UNKNOWN;
				snprintf(p->h[k].why, sizeof(p->h[k].why), "not sampled");
			} else if (k == 0 || k == tp->n - 1) {
				judge_host(d, &p->h[k], k != 0);
			} else {
				judge_switch(d, &p->h[k], t);
			}
		}
		judge_path(d, p);
		check_dcqcn(d, p);
	}
	rc_diag_check_cnp_handled(d);
	return 0;
}

void rc_diag_fini(struct rc_diag *d)
{
	free(d->paths);
	free(d->ports);
	d->paths = NULL;
	d->ports = NULL;
	d->n_paths = 0;
	d->n_ports = 0;
}
