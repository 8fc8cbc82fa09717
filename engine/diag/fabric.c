/* SPDX-License-Identifier: Apache-2.0 */
/* The whole fabric as equal-cost classes (include/rocectl/diag.h): the NIC ports of the
 * chosen hosts grouped by the switch they hang off (their edge), and one class per ordered
 * pair of edges standing for every path between a NIC behind the first and a NIC of
 * another host behind the second, over every spine both reach.  The walk is the one
 * rc_trace_find does per host pair (engine/report/trace.c), done once per pair of edges on
 * an index of each device's links, so a fabric of thousands of hosts costs edges^2 small
 * steps instead of hosts^2 path searches. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/diag.h"
#include "rocectl/fleet.h"

/* The far end of link li seen from dev, with dev's own port; NULL when not dev's. */
static const struct rc_link_end *far_end(const struct rc_inventory *inv, size_t li, size_t dev,
					 const char **near)
{
	const struct rc_link *l = &inv->links[li];

	if (l->a.dev == dev) {
		*near = l->a.port;
		return &l->b;
	}
	if (l->b.dev == dev) {
		*near = l->b.port;
		return &l->a;
	}
	return NULL;
}

/* Each device's links, compressed: adj[adj_off[d] .. adj_off[d + 1]). */
static int index_links(struct rc_diag_fabric *fab, struct rc_err *err)
{
	const struct rc_inventory *inv = fab->inv;
	size_t *fill;

	fab->adj_off = calloc(inv->n_devices + 1, sizeof(*fab->adj_off));
	fab->adj = calloc(2 * inv->n_links + 1, sizeof(*fab->adj));
	fill = calloc(inv->n_devices + 1, sizeof(*fill));
	if (!fab->adj_off || !fab->adj || !fill) {
		free(fill);
		return rc_errf(err, ENOMEM, "out of memory");
	}
	for (size_t l = 0; l < inv->n_links; l++) {
		fab->adj_off[inv->links[l].a.dev + 1]++;
		if (inv->links[l].b.dev != inv->links[l].a.dev)
			fab->adj_off[inv->links[l].b.dev + 1]++;
	}
	for (size_t d = 0; d < inv->n_devices; d++)
		fab->adj_off[d + 1] += fab->adj_off[d];
	for (size_t l = 0; l < inv->n_links; l++) {
		size_t a = inv->links[l].a.dev, b = inv->links[l].b.dev;

		fab->adj[fab->adj_off[a] + fill[a]++] = l;
		if (b != a)
			fab->adj[fab->adj_off[b] + fill[b]++] = l;
	}
	free(fill);
	return 0;
}

static int by_edge(const void *a, const void *b)
{
	const struct rc_diag_nic *x = a, *y = b;

	if (x->edge != y->edge)
		return x->edge < y->edge ? -1 : 1;
	return x->host < y->host ? -1 : x->host > y->host;
}

/* Every link of a chosen host to a switch is a NIC port on an edge. */
static int collect_nics(struct rc_diag_fabric *fab, const bool *hosts, struct rc_err *err)
{
	const struct rc_inventory *inv = fab->inv;

	fab->nics = calloc(inv->n_links + 1, sizeof(*fab->nics));
	fab->edge_first = calloc(inv->n_devices + 1, sizeof(*fab->edge_first));
	fab->edge_n = calloc(inv->n_devices + 1, sizeof(*fab->edge_n));
	if (!fab->nics || !fab->edge_first || !fab->edge_n)
		return rc_errf(err, ENOMEM, "out of memory");
	for (size_t h = 0; h < inv->n_devices; h++) {
		if (!hosts[h] || inv->devices[h].kind != RC_DEV_HOST)
			continue;
		for (size_t k = fab->adj_off[h]; k < fab->adj_off[h + 1]; k++) {
			const char *port;
			const struct rc_link_end *e = far_end(inv, fab->adj[k], h, &port);

			if (e && inv->devices[e->dev].kind == RC_DEV_SWITCH)
				fab->nics[fab->n_nics++] = (struct rc_diag_nic){
				    .host = h, .port = port, .edge = e->dev, .edge_port = e->port};
		}
	}
	qsort(fab->nics, fab->n_nics, sizeof(*fab->nics), by_edge);
	for (size_t i = 0; i < fab->n_nics; i++) {
		size_t e = fab->nics[i].edge;

		if (!fab->edge_n[e]++)
			fab->edge_first[e] = i;
	}
	return 0;
}

/* NIC-port pairs (a behind x, b behind y, on different hosts). */
static size_t nic_pairs(const struct rc_diag_fabric *fab, size_t x, size_t y)
{
	size_t n = 0;

	for (size_t i = fab->edge_first[x]; i < fab->edge_first[x] + fab->edge_n[x]; i++)
		for (size_t j = fab->edge_first[y]; j < fab->edge_first[y] + fab->edge_n[y]; j++)
			n += fab->nics[i].host != fab->nics[j].host;
	return n;
}

size_t rc_diag_fabric_ecmp(const struct rc_diag_fabric *fab, size_t x, size_t y, rc_diag_ecmp_fn fn,
			   void *ctx)
{
	const struct rc_inventory *inv = fab->inv;
	size_t n = 0;

	if (x == y)
		return 1;
	for (size_t k = fab->adj_off[x]; k < fab->adj_off[x + 1]; k++) {
		const char *ux;
		const struct rc_link_end *s = far_end(inv, fab->adj[k], x, &ux);

		if (!s || inv->devices[s->dev].role != RC_ROLE_SPINE)
			continue;
		for (size_t m = fab->adj_off[s->dev]; m < fab->adj_off[s->dev + 1]; m++) {
			const char *sy;
			const struct rc_link_end *yy = far_end(inv, fab->adj[m], s->dev, &sy);
			struct rc_diag_ecmp hop = {.spine = s->dev,
						   .x_out = ux,
						   .s_in = s->port,
						   .s_out = sy,
						   .y_in = yy ? yy->port : NULL};

			if (!yy || yy->dev != y)
				continue;
			n++;
			if (fn)
				fn(&hop, ctx);
		}
	}
	return n;
}

/* Pairs of NICs on one edge need no spine; pairs across edges need a spine linked to both
 * (the paths rc_trace_find would list). */
static int build_classes(struct rc_diag_fabric *fab, struct rc_err *err)
{
	const struct rc_inventory *inv = fab->inv;
	size_t n_edges = 0, cap;

	for (size_t d = 0; d < inv->n_devices; d++)
		n_edges += fab->edge_n[d] != 0;
	cap = n_edges * n_edges;
	fab->classes = calloc(cap ? cap : 1, sizeof(*fab->classes));
	if (!fab->classes)
		return rc_errf(err, ENOMEM, "out of memory");
	for (size_t x = 0; x < inv->n_devices; x++)
		for (size_t y = 0; fab->edge_n[x] && y < inv->n_devices; y++) {
			size_t pairs = fab->edge_n[y] ? nic_pairs(fab, x, y) : 0;
			size_t ecmp = pairs ? rc_diag_fabric_ecmp(fab, x, y, NULL, NULL) : 0;

			if (!pairs || !ecmp)
				continue;
			fab->classes[fab->n_classes++] = (struct rc_diag_class){
			    .from = x, .to = y, .n_ecmp = ecmp, .n_paths = pairs * ecmp};
			fab->n_paths += pairs * ecmp;
		}
	return 0;
}

int rc_diag_fabric_build(struct rc_diag_fabric *fab, const struct rc_inventory *inv,
			 const bool *hosts, struct rc_err *err)
{
	int rc;

	memset(fab, 0, sizeof(*fab));
	fab->inv = inv;
	rc = index_links(fab, err);
	if (!rc)
		rc = collect_nics(fab, hosts, err);
	if (!rc)
		rc = build_classes(fab, err);
	if (rc)
		rc_diag_fabric_fini(fab);
	return rc;
}

static void mark_spines(const struct rc_diag_ecmp *h, void *ctx)
{
	bool *on = ctx;

	on[h->spine] = true;
}

char *rc_diag_fabric_devices(const struct rc_diag_fabric *fab, const bool *skip)
{
	const struct rc_inventory *inv = fab->inv;
	bool *on = calloc(inv->n_devices ? inv->n_devices : 1, sizeof(*on));
	char *s;

	if (!on)
		return NULL;
	for (size_t i = 0; i < fab->n_nics; i++)
		on[fab->nics[i].host] = on[fab->nics[i].edge] = true;
	for (size_t c = 0; c < fab->n_classes; c++)
		rc_diag_fabric_ecmp(fab, fab->classes[c].from, fab->classes[c].to, mark_spines, on);
	s = rc_limit_of(inv, on, skip);
	free(on);
	return s;
}

void rc_diag_fabric_fini(struct rc_diag_fabric *fab)
{
	free(fab->adj_off);
	free(fab->adj);
	free(fab->nics);
	free(fab->edge_first);
	free(fab->edge_n);
	free(fab->classes);
	memset(fab, 0, sizeof(*fab));
}
