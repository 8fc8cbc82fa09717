/* SPDX-License-Identifier: Apache-2.0 */
/* Paths between two hosts through the inventory's link graph (engine/report/trace.c), for
 * `rocectl trace`: each NIC, each leaf, every equal-cost spine, and each hop judged from a
 * fabric result (its device's read, its ports' drift, the link it is reached by). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/fleet.h"
#include "rocectl/trace.h"

/* The far end of link `li` seen from device `dev`; NULL when the link is not dev's. */
static const struct rc_link_end *far_end(const struct rc_link *l, size_t dev,
					 const char **near_port)
{
	if (l->a.dev == dev) {
		*near_port = l->a.port;
		return &l->b;
	}
	if (l->b.dev == dev) {
		*near_port = l->b.port;
		return &l->a;
	}
	return NULL;
}

static void add_path(struct rc_trace *t, const struct rc_trace_hop *h, size_t n)
{
	if (t->n == RC_TRACE_MAX_PATHS)
		return;
	t->p[t->n].n = n;
	memcpy(t->p[t->n].h, h, n * sizeof(*h));
	t->n++;
}

/* Paths leaf X -> spine -> leaf Y, appended after A's two first hops. */
static void via_spines(struct rc_trace *t, struct rc_trace_hop *h, size_t x, size_t y,
		       const char *y_port, size_t y_link, size_t b, const char *b_port)
{
	const struct rc_inventory *inv = t->inv;

	for (size_t l1 = 0; l1 < inv->n_links; l1++) {
		const char *ux, *sx;
		const struct rc_link_end *s = far_end(&inv->links[l1], x, &ux);

		if (!s || inv->devices[s->dev].role != RC_ROLE_SPINE)
			continue;
		sx = s->port;
		for (size_t l2 = 0; l2 < inv->n_links; l2++) {
			const char *sy;
			const struct rc_link_end *yy = far_end(&inv->links[l2], s->dev, &sy);

			if (!yy || yy->dev != y)
				continue;
			h[1].out = ux;
			h[2] = (struct rc_trace_hop){s->dev, sx, sy, l1};
			h[3] = (struct rc_trace_hop){y, yy->port, y_port, l2};
			h[4] = (struct rc_trace_hop){b, b_port, NULL, y_link};
			add_path(t, h, 5);
		}
	}
}

void rc_trace_find(struct rc_trace *t, const struct rc_inventory *inv, size_t a, size_t b)
{
	t->inv = inv;
	t->n = 0;

	for (size_t la = 0; la < inv->n_links; la++) {
		const char *pa, *pb;
		const struct rc_link_end *x = far_end(&inv->links[la], a, &pa);

		if (!x || inv->devices[x->dev].kind != RC_DEV_SWITCH)
			continue;
		for (size_t lb = 0; lb < inv->n_links; lb++) {
			const struct rc_link_end *y = far_end(&inv->links[lb], b, &pb);
			struct rc_trace_hop h[RC_TRACE_MAX_HOPS];

			if (!y || inv->devices[y->dev].kind != RC_DEV_SWITCH)
				continue;
			h[0] = (struct rc_trace_hop){a, NULL, pa, SIZE_MAX};
			h[1] = (struct rc_trace_hop){x->dev, x->port, NULL, la};
			if (x->dev == y->dev) {
				h[1].out = y->port;
				h[2] = (struct rc_trace_hop){b, pb, NULL, lb};
				add_path(t, h, 3);
			} else {
				via_spines(t, h, x->dev, y->dev, y->port, lb, b, pb);
			}
		}
	}
}

char *rc_trace_devices(const struct rc_trace *t)
{
	const struct rc_inventory *inv = t->inv;
	bool *on = calloc(inv->n_devices ? inv->n_devices : 1, sizeof(*on));
	char *s;

	if (!on)
		return NULL;
	for (size_t i = 0; i < t->n; i++)
		for (size_t k = 0; k < t->p[i].n; k++)
			on[t->p[i].h[k].dev] = true;
	s = rc_limit_of(inv, on, NULL);
	free(on);
	return s;
}

/* Problems of one hop: its device's read, its ports' drift, the link it is reached by. */
const char *rc_trace_judge_hop(const struct rc_result *r, const struct rc_trace_hop *h,
			       const struct rc_link_check *in, char problems[][128], size_t *np)
{
	const struct rc_fleet_dev *d = rc_result_device(r, h->dev);
	const char *ports[2] = {h->in, h->out};
	const char *status = "ok";

	*np = 0;
	if (!d || d->rc) {
		snprintf(problems[(*np)++], 128, "cannot read: %s", d ? d->err.msg : "not read");
		return "error";
	}
	if (in && in->status == RC_CHECK_MISMATCH) {
		for (size_t m = 0; m < in->n && *np < RC_TRACE_MAX_PROBLEMS; m++)
			snprintf(problems[(*np)++], 128, "link %s -- %s disagrees on %s: %s | %s",
				 in->v[m].a_where, in->v[m].b_where, in->v[m].field,
				 in->v[m].a_value, in->v[m].b_value);
		status = "drift";
	}
	for (int k = 0; k < 2; k++) {
		if (!ports[k] || (k == 1 && h->in && !strcmp(h->in, h->out)))
			continue;
		for (size_t c = 0; c < d->run.changes.n && *np < RC_TRACE_MAX_PROBLEMS; c++) {
			const struct rc_change *ch = &d->run.changes.v[c];

			if (strcmp(ch->port, ports[k]) || ch->kind == RC_CHANGE_UNSUPPORTED)
				continue;
			snprintf(problems[(*np)++], 128, "%s %s: want %s, have %s", ch->port,
				 ch->field, ch->new_value,
				 ch->kind == RC_CHANGE_UNKNOWN ? "unknown" : ch->old_value);
			if (!strcmp(status, "ok"))
				status = ch->kind == RC_CHANGE_UNKNOWN ? "unknown" : "drift";
		}
	}
	return status;
}
