/* SPDX-License-Identifier: Apache-2.0 */
/* The buffer dependency graph of the inventory's topology and its cycles
 * (include/rocectl/deadlock.h).  Routing: every shortest path between every two hosts, over
 * switches only (hosts do not forward). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/util.h"
#include "rocectl/deadlock.h"

struct vec {
	size_t n, cap;
	size_t *v;
};

static int push(struct vec *a, size_t x)
{
	if (rc_array_reserve((void **)&a->v, &a->cap, a->n + 1, sizeof(*a->v), 4))
		return -ENOMEM;
	a->v[a->n++] = x;
	return 0;
}

static int push_unique(struct vec *a, size_t x)
{
	for (size_t i = 0; i < a->n; i++)
		if (a->v[i] == x)
			return 0;
	return push(a, x);
}

static bool is_switch(const struct rc_inventory *inv, size_t dev)
{
	return inv->devices[dev].kind == RC_DEV_SWITCH;
}

const char *rc_deadlock_lateral_kind(const struct rc_inventory *inv, size_t link)
{
	const struct rc_link *l = &inv->links[link];
	const struct rc_device *a = &inv->devices[l->a.dev], *b = &inv->devices[l->b.dev];

	if (a->kind == RC_DEV_HOST && b->kind == RC_DEV_HOST)
		return "host-host";
	if (a->kind != RC_DEV_SWITCH || b->kind != RC_DEV_SWITCH || a->role != b->role)
		return NULL;
	return a->role == RC_ROLE_SPINE ? "spine-spine" : "leaf-leaf";
}

/* The graph and what building it needs. */
struct graph {
	const struct rc_inventory *inv;
	size_t n_nodes;
	struct vec *out, *in; /* per node */
	struct vec *adj;      /* per device: nodes leaving it towards another switch */
	size_t *dist;
	size_t *queue;
};

static size_t node_to(const struct rc_inventory *inv, size_t node)
{
	const struct rc_link *l = &inv->links[node / 2];

	return node % 2 ? l->a.dev : l->b.dev;
}

/* Shortest paths towards one host attached to `att` (n_att switches): dependencies of
 * every switch's way in on its ways out. */
static int towards(struct graph *g, const size_t *att, size_t n_att)
{
	const struct rc_inventory *inv = g->inv;
	size_t head = 0, tail = 0;

	for (size_t d = 0; d < inv->n_devices; d++)
		g->dist[d] = SIZE_MAX;
	for (size_t i = 0; i < n_att; i++)
		if (g->dist[att[i]] == SIZE_MAX) {
			g->dist[att[i]] = 1;
			g->queue[tail++] = att[i];
		}
	while (head < tail) {
		size_t u = g->queue[head++];

		for (size_t k = 0; k < g->adj[u].n; k++) {
			size_t v = node_to(inv, g->adj[u].v[k]);

			if (g->dist[v] == SIZE_MAX) {
				g->dist[v] = g->dist[u] + 1;
				g->queue[tail++] = v;
			}
		}
	}
	for (size_t u = 0; u < inv->n_devices; u++) {
		if (!is_switch(inv, u) || g->dist[u] == SIZE_MAX)
			continue;
		for (size_t k = 0; k < g->adj[u].n; k++) {
			size_t o = g->adj[u].v[k], v = node_to(inv, o);

			if (g->dist[v] + 1 != g->dist[u])
				continue;
			/* every way into u from a switch one hop further */
			for (size_t j = 0; j < g->adj[u].n; j++) {
				size_t back = g->adj[u].v[j] ^ 1, w = node_to(inv, g->adj[u].v[j]);

				if (g->dist[w] != g->dist[u] + 1)
					continue;
				if (push_unique(&g->out[back], o) || push_unique(&g->in[o], back))
					return -ENOMEM;
			}
		}
	}
	return 0;
}

static int build(struct graph *g)
{
	const struct rc_inventory *inv = g->inv;
	size_t *att = calloc(inv->n_devices ? inv->n_devices : 1, sizeof(*att));
	struct vec done = {0}; /* hosts whose attachment set was handled, as link lists */
	int rc = 0;

	if (!att)
		return -ENOMEM;
	for (size_t l = 0; l < inv->n_links && !rc; l++) {
		const struct rc_link *k = &inv->links[l];

		if (is_switch(inv, k->a.dev) && is_switch(inv, k->b.dev))
			rc = push(&g->adj[k->a.dev], 2 * l);
		if (!rc && is_switch(inv, k->a.dev) && is_switch(inv, k->b.dev))
			rc = push(&g->adj[k->b.dev], 2 * l + 1);
	}
	for (size_t h = 0; h < inv->n_devices && !rc; h++) {
		size_t n = 0;
		bool seen = false;

		if (is_switch(inv, h))
			continue;
		for (size_t l = 0; l < inv->n_links; l++) {
			const struct rc_link *k = &inv->links[l];
			size_t s = k->a.dev == h ? k->b.dev : k->b.dev == h ? k->a.dev : SIZE_MAX;

			if (s != SIZE_MAX && is_switch(inv, s))
				att[n++] = s;
		}
		/* hosts on the same switches see the same shortest paths */
		for (size_t i = 0; i < done.n && !seen; i++) {
			size_t o = done.v[i], m = 0;
			bool same = true;

			for (size_t l = 0; l < inv->n_links; l++) {
				const struct rc_link *k = &inv->links[l];
				size_t s = k->a.dev == o   ? k->b.dev
					   : k->b.dev == o ? k->a.dev
							   : SIZE_MAX;

				if (s == SIZE_MAX || !is_switch(inv, s))
					continue;
				same &= m < n && att[m] == s;
				m++;
			}
			seen = same && m == n;
		}
		if (!n || seen)
			continue;
		rc = push(&done, h);
		if (!rc)
			rc = towards(g, att, n);
	}
	free(done.v);
	free(att);
	return rc;
}

/* Kosaraju: comp[node] is the component's index; returns the number of components. */
static int components(const struct graph *g, size_t *comp, size_t *ncomp)
{
	size_t n = g->n_nodes, top = 0, nord = 0;
	size_t *order = calloc(n ? n : 1, sizeof(*order));
	size_t *stack = calloc(n ? n : 1, sizeof(*stack));
	size_t *pos = calloc(n ? n : 1, sizeof(*pos));
	bool *seen = calloc(n ? n : 1, sizeof(*seen));

	if (!order || !stack || !pos || !seen) {
		free(order);
		free(stack);
		free(pos);
		free(seen);
		return -ENOMEM;
	}
	for (size_t s = 0; s < n; s++) {
		if (seen[s])
			continue;
		seen[s] = true;
		stack[top++] = s;
		pos[s] = 0;
		while (top) {
			size_t u = stack[top - 1];

			if (pos[u] < g->out[u].n) {
				size_t v = g->out[u].v[pos[u]++];

				if (!seen[v]) {
					seen[v] = true;
					pos[v] = 0;
					stack[top++] = v;
				}
			} else {
				order[nord++] = u;
				top--;
			}
		}
	}
	*ncomp = 0;
	for (size_t i = 0; i < n; i++)
		comp[i] = SIZE_MAX;
	for (size_t i = nord; i > 0; i--) {
		size_t s = order[i - 1];

		if (comp[s] != SIZE_MAX)
			continue;
		comp[s] = *ncomp;
		stack[top++] = s;
		while (top) {
			size_t u = stack[--top];

			for (size_t k = 0; k < g->in[u].n; k++) {
				size_t v = g->in[u].v[k];

				if (comp[v] == SIZE_MAX) {
					comp[v] = *ncomp;
					stack[top++] = v;
				}
			}
		}
		(*ncomp)++;
	}
	free(order);
	free(stack);
	free(pos);
	free(seen);
	return 0;
}

/* One cycle through `start` inside its component: breadth-first until an edge returns. */
static int one_cycle(const struct graph *g, const size_t *comp, size_t start, struct rc_dl_cycle *c)
{
	size_t n = g->n_nodes, head = 0, tail = 0, end = SIZE_MAX;
	size_t *prev = malloc((n ? n : 1) * sizeof(*prev));
	size_t *queue = malloc((n ? n : 1) * sizeof(*queue));
	size_t len = 0;

	if (!prev || !queue) {
		free(prev);
		free(queue);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		prev[i] = SIZE_MAX;
	queue[tail++] = start;
	prev[start] = start;
	while (head < tail && end == SIZE_MAX) {
		size_t u = queue[head++];

		for (size_t k = 0; k < g->out[u].n && end == SIZE_MAX; k++) {
			size_t v = g->out[u].v[k];

			if (comp[v] != comp[start])
				continue;
			if (v == start)
				end = u;
			else if (prev[v] == SIZE_MAX) {
				prev[v] = u;
				queue[tail++] = v;
			}
		}
	}
	memset(c, 0, sizeof(*c));
	/* walk back from end to start (the queue is free now), then keep the cycle's start */
	for (size_t u = end; u != SIZE_MAX && len < n; u = prev[u]) {
		queue[len++] = u;
		if (u == start)
			break;
	}
	c->truncated = len > RC_DL_CYCLE_MAX;
	for (size_t i = 0; i < len && c->n < RC_DL_CYCLE_MAX; i++)
		c->node[c->n++] = queue[len - 1 - i];
	free(prev);
	free(queue);
	return 0;
}

static void graph_fini(struct graph *g, size_t n_devices)
{
	for (size_t i = 0; g->out && i < g->n_nodes; i++)
		free(g->out[i].v);
	for (size_t i = 0; g->in && i < g->n_nodes; i++)
		free(g->in[i].v);
	for (size_t i = 0; g->adj && i < n_devices; i++)
		free(g->adj[i].v);
	free(g->out);
	free(g->in);
	free(g->adj);
	free(g->dist);
	free(g->queue);
}

static int cycles(struct rc_deadlock *dl, const struct graph *g)
{
	size_t *comp = calloc(g->n_nodes ? g->n_nodes : 1, sizeof(*comp));
	size_t *size, ncomp = 0;
	int rc;

	if (!comp)
		return -ENOMEM;
	rc = components(g, comp, &ncomp);
	size = rc ? NULL : calloc(ncomp ? ncomp : 1, sizeof(*size));
	if (!rc && !size)
		rc = -ENOMEM;
	for (size_t i = 0; !rc && i < g->n_nodes; i++)
		size[comp[i]]++;
	for (size_t i = 0; !rc && i < g->n_nodes; i++) {
		if (size[comp[i]] < 2)
			continue;
		dl->prone_link[i / 2] = true;
		if (size[comp[i]] == SIZE_MAX) /* this component's cycle is listed already */
			continue;
		dl->n_cyclic_components++;
		if (dl->n_cycles < RC_DL_MAX_CYCLES)
			rc = one_cycle(g, comp, i, &dl->cycles[dl->n_cycles++]);
		size[comp[i]] = SIZE_MAX;
	}
	free(size);
	free(comp);
	return rc;
}

int rc_deadlock_analyze(struct rc_deadlock *dl, const struct rc_inventory *inv, struct rc_err *err)
{
	struct graph g = {.inv = inv, .n_nodes = 2 * inv->n_links};
	size_t nd = inv->n_devices ? inv->n_devices : 1, nn = g.n_nodes ? g.n_nodes : 1;
	int rc = 0;

	memset(dl, 0, sizeof(*dl));
	dl->inv = inv;
	g.out = calloc(nn, sizeof(*g.out));
	g.in = calloc(nn, sizeof(*g.in));
	g.adj = calloc(nd, sizeof(*g.adj));
	g.dist = calloc(nd, sizeof(*g.dist));
	g.queue = calloc(nd, sizeof(*g.queue));
	dl->lateral = calloc(inv->n_links ? inv->n_links : 1, sizeof(*dl->lateral));
	dl->prone_link = calloc(inv->n_links ? inv->n_links : 1, sizeof(*dl->prone_link));
	if (!g.out || !g.in || !g.adj || !g.dist || !g.queue || !dl->lateral || !dl->prone_link)
		rc = -ENOMEM;
	for (size_t l = 0; !rc && l < inv->n_links; l++)
		if (rc_deadlock_lateral_kind(inv, l)) {
			dl->lateral[dl->n_lateral++] = l;
			dl->prone_link[l] = true;
		}
	if (!rc)
		rc = build(&g);
	if (!rc)
		rc = cycles(dl, &g);
	graph_fini(&g, inv->n_devices);
	if (rc) {
		rc_deadlock_fini(dl);
		return rc_errf(err, -rc, "out of memory");
	}
	dl->prone = dl->n_lateral || dl->n_cyclic_components;
	return 0;
}

void rc_deadlock_fini(struct rc_deadlock *dl)
{
	free(dl->lateral);
	free(dl->prone_link);
	dl->lateral = NULL;
	dl->prone_link = NULL;
	dl->n_lateral = 0;
	dl->prone = false;
}
