/* SPDX-License-Identifier: Apache-2.0 */
/* The whole-fabric judgement (include/rocectl/diag.h, rc_diag_analyze_classes): the same
 * reasoning as the per-path one in analyze.c, applied once per equal-cost class.  A class
 * crosses its source edge's host-facing ports (ingress), the fabric ports of every
 * equal-cost path (edge uplink, spine in and out, far edge downlink) and its far edge's
 * host-facing ports (egress); its verdict is the worst any of its paths could get, in
 * analyze.c's order: a NIC storm, drops, a congested egress (a root of the pause tree), a
 * receiver pausing its switch, pauses relayed from elsewhere, host-side losses, a device
 * not read. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/diag.h"

#include "analyze.h"

/* What an edge's own ports and NICs say, once per edge rather than once per class. */
struct edge_view {
	const struct rc_diag_nic *storm, *nic_root, *host_loss;
	const char *drop_port, *root_port, *pausing_port;
	uint64_t drops;
	uint64_t marks_in; /* most marks on a fabric port towards this edge, any class */
};

struct class_walk {
	struct rc_diag *d;
	const struct rc_diag_class *c;
	/* the first fabric port of each kind met on the class's equal-cost paths */
	size_t drop_dev, root_dev, paused_dev, unsampled;
	const char *drop_port, *root_port, *paused_port;
	uint64_t drops, marks;
};

static const struct rc_diag_deltas *port_of(const struct rc_diag *d, size_t dev, const char *port)
{
	return d->devs[dev].sampled ? rc_diag_dev_port(&d->devs[dev], port) : NULL;
}

static const char *name(const struct rc_diag *d, size_t dev)
{
	return d->inv->devices[dev].name;
}

static void see_edge(const struct rc_diag *d, const struct rc_diag_nic *n, struct edge_view *v)
{
	const struct rc_diag_deltas *nic = port_of(d, n->host, n->port);
	const struct rc_diag_deltas *sw = port_of(d, n->edge, n->edge_port);

	if (nic && rc_diag_is_storm(d, nic) && !v->storm)
		v->storm = n;
	else if (nic && nic->pause_tx && !v->nic_root)
		v->nic_root = n;
	if (nic && (nic->out_of_buffer || nic->seq_errors || nic->discards) && !v->host_loss)
		v->host_loss = n;
	if (!sw)
		return;
	if (sw->discards && !v->drop_port) {
		v->drop_port = n->edge_port;
		v->drops = sw->discards;
	}
	if (!v->root_port && rc_diag_is_root_port(d, n->edge, n->edge_port))
		v->root_port = n->edge_port;
	if (sw->pause_tx && !v->pausing_port)
		v->pausing_port = n->edge_port;
}

static void first_drop(struct class_walk *w, size_t dev, const char *port)
{
	const struct rc_diag_deltas *x = port_of(w->d, dev, port);

	if (x && x->discards && !w->drop_port) {
		w->drop_dev = dev;
		w->drop_port = port;
		w->drops = x->discards;
	}
}

/* One equal-cost path of the class: its four fabric ports. */
static void walk_ecmp(const struct rc_diag_ecmp *h, void *ctx)
{
	struct class_walk *w = ctx;
	const struct rc_diag *d = w->d;
	const struct rc_diag_class *c = w->c;
	const size_t dev[4] = {c->from, h->spine, h->spine, c->to};
	const char *port[4] = {h->x_out, h->s_in, h->s_out, h->y_in};

	if (!d->devs[h->spine].sampled && w->unsampled == SIZE_MAX)
		w->unsampled = h->spine;
	for (int k = 0; k < 4; k++) {
		const struct rc_diag_deltas *x = port_of(d, dev[k], port[k]);
		bool egress = k == 0 || k == 2;

		first_drop(w, dev[k], port[k]);
		if (!x)
			continue;
		if (egress && x->ecn_marked > w->marks)
			w->marks = x->ecn_marked;
		if (egress && !w->root_port && rc_diag_is_root_port(d, dev[k], port[k])) {
			w->root_dev = dev[k];
			w->root_port = port[k];
		}
		if (!egress && x->pause_tx && !w->paused_port) {
			w->paused_dev = dev[k];
			w->paused_port = port[k];
		}
	}
}

static void verdict(struct rc_diag_class *c, enum rc_diag_verdict v, const char *dev,
		    const char *port, const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void verdict(struct rc_diag_class *c, enum rc_diag_verdict v, const char *dev,
		    const char *port, const char *fmt, ...)
{
	va_list ap;

	c->verdict = v;
	snprintf(c->at, sizeof(c->at), "%s%s%s", dev, port && *port ? ":" : "", port ? port : "");
	va_start(ap, fmt);
	vsnprintf(c->evidence, sizeof(c->evidence), fmt, ap);
	va_end(ap);
}

static bool storm_or_drops(struct rc_diag *d, struct rc_diag_class *c, const struct edge_view *a,
			   const struct edge_view *b, const struct class_walk *w)
{
	const struct rc_diag_nic *s = a->storm ? a->storm : b->storm;

	if (s) {
		verdict(c, RC_VERDICT_HOST_SIDE, name(d, s->host), s->port,
			"pause storm from this NIC (%" PRIu64 " frames sent)",
			port_of(d, s->host, s->port)->pause_tx);
		return true;
	}
	if (a->drop_port || w->drop_port || b->drop_port) {
		size_t dev = a->drop_port ? c->from : w->drop_port ? w->drop_dev : c->to;
		const char *port = a->drop_port	  ? a->drop_port
				   : w->drop_port ? w->drop_port
						  : b->drop_port;
		uint64_t n = a->drop_port ? a->drops : w->drop_port ? w->drops : b->drops;

		verdict(c, RC_VERDICT_LOSSY, name(d, dev), port,
			"%" PRIu64 " drops on a lossless priority or class", n);
		return true;
	}
	return false;
}

static bool congested(struct rc_diag *d, struct rc_diag_class *c, const struct edge_view *a,
		      const struct edge_view *b, const struct class_walk *w)
{
	if (w->root_port || b->root_port) {
		size_t dev = w->root_port ? w->root_dev : c->to;
		const char *port = w->root_port ? w->root_port : b->root_port;
		const struct rc_diag_deltas *x = port_of(d, dev, port);

		verdict(c, RC_VERDICT_CONGESTED, name(d, dev), port,
			"root of the pause tree: %s marked %" PRIu64 " and dropped %" PRIu64, port,
			x ? x->ecn_marked : 0, x ? x->discards : 0);
		return true;
	}
	if (b->nic_root) {
		verdict(c, RC_VERDICT_HOST_SIDE, name(d, b->nic_root->host), b->nic_root->port,
			"NIC pauses its switch (%" PRIu64 " frames): the host does not take what "
			"it receives fast enough",
			port_of(d, b->nic_root->host, b->nic_root->port)->pause_tx);
		return true;
	}
	if (!a->pausing_port && !w->paused_port)
		return false;
	if (d->n_roots)
		verdict(c, RC_VERDICT_CONGESTED, d->roots[0], NULL,
			"paused by the pause tree rooted at %s (first paused hop: %s)", d->roots[0],
			name(d, a->pausing_port ? c->from : w->paused_dev));
	else
		verdict(c, RC_VERDICT_CONGESTED, name(d, a->pausing_port ? c->from : w->paused_dev),
			a->pausing_port ? a->pausing_port : w->paused_port,
			"paused, root not among the devices read");
	return true;
}

static void judge_class(struct rc_diag *d, struct rc_diag_class *c, struct edge_view *view)
{
	const struct rc_diag_fabric *fab = d->fab;
	struct edge_view *a = &view[c->from], *b = &view[c->to];
	struct class_walk w = {.d = d, .c = c, .unsampled = SIZE_MAX};
	const struct rc_diag_nic *loss = a->host_loss ? a->host_loss : b->host_loss;

	rc_diag_fabric_ecmp(fab, c->from, c->to, walk_ecmp, &w);
	if (w.marks > b->marks_in)
		b->marks_in = w.marks;
	if (storm_or_drops(d, c, a, b, &w) || congested(d, c, a, b, &w))
		return;
	if (loss) {
		const struct rc_diag_deltas *x = port_of(d, loss->host, loss->port);

		verdict(c, RC_VERDICT_HOST_SIDE, name(d, loss->host), loss->port,
			"%" PRIu64 " out_of_buffer, %" PRIu64 " sequence errors, %" PRIu64
			" NIC discards",
			x->out_of_buffer, x->seq_errors, x->discards);
		return;
	}
	if (!d->devs[c->from].sampled || !d->devs[c->to].sampled || w.unsampled != SIZE_MAX) {
		size_t dev = !d->devs[c->from].sampled ? c->from
			     : !d->devs[c->to].sampled ? c->to
						       : w.unsampled;

		verdict(c, RC_VERDICT_UNKNOWN, name(d, dev), NULL, "not sampled");
		return;
	}
	verdict(c, RC_VERDICT_CLEAN, "", NULL, "no pause, drop or host error in the window");
}

/* Marks reach a NIC behind an edge (on its own downlink or on the fabric towards that
 * edge) and the NIC sends no CNP: the notification point is off there. */
static void check_marks(struct rc_diag *d, const struct edge_view *view)
{
	const struct rc_diag_fabric *fab = d->fab;

	for (size_t i = 0; i < fab->n_nics; i++) {
		const struct rc_diag_nic *n = &fab->nics[i];
		const struct rc_diag_deltas *b = port_of(d, n->host, n->port);
		const struct rc_diag_deltas *sw = port_of(d, n->edge, n->edge_port);
		uint64_t marks = view[n->edge].marks_in;

		if (sw && sw->ecn_marked > marks)
			marks = sw->ecn_marked;
		if (!marks || !b || !(b->have & RC_DH_CNP_SENT) || b->cnp_sent)
			continue;
		rc_diag_add_finding(d, RC_FIND_MARKS_NO_CNP, n->host, n->port,
				    "nic_ecn notification point (policy "
				    "ecn.host.notification_point), cnp_prio, cnp_dscp",
				    "%" PRIu64 " packets were marked towards %s:%s, which sent no "
				    "CNP: ECN notification point off on that NIC (or marks on a "
				    "priority it does not watch); enable it",
				    marks, name(d, n->host), n->port);
	}
}

static int add_port(struct rc_diag *d, size_t *cap, size_t dev, const char *port,
		    enum rc_diag_role role, const struct rc_diag_deltas *x, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));

static int add_port(struct rc_diag *d, size_t *cap, size_t dev, const char *port,
		    enum rc_diag_role role, const struct rc_diag_deltas *x, const char *fmt, ...)
{
	struct rc_diag_port_role *p;
	va_list ap;

	if (d->n_ports == *cap) {
		size_t c = *cap ? *cap * 2 : 64;

		p = realloc(d->ports, c * sizeof(*p));
		if (!p)
			return -ENOMEM;
		d->ports = p;
		*cap = c;
	}
	p = &d->ports[d->n_ports++];
	*p = (struct rc_diag_port_role){.dev = dev, .port = port, .role = role, .x = x};
	va_start(ap, fmt);
	vsnprintf(p->why, sizeof(p->why), fmt, ap);
	va_end(ap);
	return 0;
}

/* A switch port: root, relay (it sends pause upstream) or dropping. */
static int switch_port(struct rc_diag *d, size_t *cap, size_t dev, const char *port,
		       const struct rc_diag_deltas *x)
{
	char at[2 * RC_NAME_MAX + 2];
	bool root = false;

	snprintf(at, sizeof(at), "%s:%s", name(d, dev), port);
	for (size_t i = 0; i < d->n_roots; i++)
		root |= !strcmp(d->roots[i], at);
	if (root)
		return add_port(d, cap, dev, port, RC_HOP_ROOT, x,
				"congested egress: marked %" PRIu64 ", dropped %" PRIu64
				", not paused from downstream",
				x->ecn_marked, x->discards);
	if (x->pause_tx)
		return add_port(d, cap, dev, port, RC_HOP_RELAY, x,
				"sends pause upstream (%" PRIu64 " frames)%s", x->pause_tx,
				x->pause_rx ? ", paused itself" : "");
	if (x->discards)
		return add_port(d, cap, dev, port, RC_HOP_CLEAN, x,
				"%" PRIu64 " drops on a lossless priority or class", x->discards);
	return 0;
}

static int nic_port(struct rc_diag *d, size_t *cap, size_t dev, const char *port,
		    const struct rc_diag_deltas *x)
{
	if (rc_diag_is_storm(d, x))
		return add_port(d, cap, dev, port, RC_HOP_STORM, x,
				"NIC sends pause continuously: %" PRIu64 " frames, %" PRIu64
				" us paused in %.1f s, %" PRIu64 " storm events",
				x->pause_tx, x->pause_tx_us, d->window_s, x->storm_events);
	if (x->pause_tx)
		return add_port(d, cap, dev, port, RC_HOP_ROOT, x,
				"NIC pauses its switch (%" PRIu64 " frames)", x->pause_tx);
	if (x->out_of_buffer || x->seq_errors || x->discards)
		return add_port(d, cap, dev, port, RC_HOP_CLEAN, x,
				"%" PRIu64 " out_of_buffer, %" PRIu64 " sequence errors, %" PRIu64
				" NIC discards",
				x->out_of_buffer, x->seq_errors, x->discards);
	return 0;
}

/* Every sampled port that is not clean, inventory order. */
static int list_ports(struct rc_diag *d)
{
	const struct rc_inventory *inv = d->inv;
	size_t cap = 0;
	int rc = 0;

	for (size_t k = 0; k < inv->n_devices && !rc; k++) {
		const struct rc_diag_dev *dev = &d->devs[k];
		bool host = inv->devices[k].kind == RC_DEV_HOST;

		for (size_t i = 0; dev->sampled && i < dev->n && !rc; i++)
			rc = host ? nic_port(d, &cap, k, dev->v[i].name, &dev->v[i].d)
				  : switch_port(d, &cap, k, dev->v[i].name, &dev->v[i].d);
	}
	return rc;
}

int rc_diag_analyze_classes(struct rc_diag *d, const struct rc_inventory *inv,
			    const struct rc_diag_dev *devs, double window_s,
			    struct rc_diag_fabric *fab, struct rc_err *err)
{
	struct edge_view *view = calloc(inv->n_devices ? inv->n_devices : 1, sizeof(*view));

	memset(d, 0, sizeof(*d));
	if (!view)
		return rc_errf(err, ENOMEM, "out of memory");
	d->inv = inv;
	d->devs = devs;
	d->fab = fab;
	d->window_s = window_s > 0 ? window_s : 1;
	rc_diag_find_roots(d);
	for (size_t i = 0; i < fab->n_nics; i++)
		see_edge(d, &fab->nics[i], &view[fab->nics[i].edge]);
	for (size_t c = 0; c < fab->n_classes; c++)
		judge_class(d, &fab->classes[c], view);
	check_marks(d, view);
	rc_diag_check_cnp_handled(d);
	free(view);
	if (list_ports(d))
		return rc_errf(err, ENOMEM, "out of memory");
	return 0;
}
