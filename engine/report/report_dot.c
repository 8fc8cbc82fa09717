/* SPDX-License-Identifier: Apache-2.0 */
/* Graphviz DOT of a fabric result (include/rocectl/result.h): one node per selected device,
 * one edge per checked link, faults in red.  dot ranks an undirected edge from its first
 * node to its second, so every edge is written from the upper tier down (spine, leaf,
 * host) and its label names the ports in that order; together with one rank=same subgraph
 * per tier this keeps spines on top and hosts at the bottom.  Names and fields are
 * escaped even though the inventory's names are a safe charset: port names and values
 * come from the devices, and invalid UTF-8 or control characters would make the SVG that
 * dot writes unreadable.  The layout (rc_dot_write) draws from a struct rc_dot_src
 * (report_dot.h): here a whole read fleet's result, in stream_dot.c the streaming verify's
 * spool, so both write the same bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report_dot.h"
#include "rocectl/util.h"

#define TOOLTIP_MAX_LINES 20

/* The inside of a quoted DOT string.  A backslash is doubled so that labels (escString)
 * do not read "\N" or "\G" as substitutions; control characters, which XML forbids in the
 * SVG, and bytes that are not UTF-8 become U+FFFD. */
static void esc(FILE *f, const char *str, size_t max)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t len = strnlen(str, max);

	for (size_t i = 0; i < len;) {
		size_t n = rc_utf8_seq_len(s + i, len - i);

		if (s[i] == '\\')
			fputs("\\\\", f);
		else if (s[i] == '"')
			fputs("\\\"", f);
		else if (s[i] == '\n')
			fputs("\\n", f);
		else if (!n || s[i] < 0x20 || s[i] == 0x7f)
			fputs("\xef\xbf\xbd", f);
		else
			fwrite(s + i, 1, n, f);
		i += n ? n : 1;
	}
}

static void quoted(FILE *f, const char *s)
{
	fputc('"', f);
	esc(f, s, RC_NAME_MAX);
	fputc('"', f);
}

bool rc_dot_dev_ok(const struct rc_fleet_dev *d)
{
	return d->rc == 0 && d->run.read_ok && (d->run.have || !d->run.n_ports);
}

size_t rc_dot_dev_drift(const struct rc_fleet_dev *d)
{
	if (!rc_dot_dev_ok(d))
		return 0;
	return d->run.changes.n - rc_changes_count(&d->run.changes, RC_CHANGE_UNSUPPORTED);
}

/* One line per drifted field of the device, at most TOOLTIP_MAX_LINES. */
static void drift_lines(FILE *f, const struct rc_fleet_dev *d, size_t *lines)
{
	size_t skipped = 0;

	for (size_t i = 0; i < d->run.changes.n; i++) {
		const struct rc_change *c = &d->run.changes.v[i];

		if (c->kind == RC_CHANGE_UNSUPPORTED)
			continue;
		if (*lines >= TOOLTIP_MAX_LINES) {
			skipped++;
			continue;
		}
		fputs("\\n", f);
		esc(f, c->port, sizeof(c->port));
		fputc(' ', f);
		esc(f, c->field, sizeof(c->field));
		if (c->kind == RC_CHANGE_UNKNOWN) {
			fputs(": unreadable", f);
		} else {
			fputs(": have ", f);
			esc(f, c->old_value, sizeof(c->old_value));
		}
		fputs(", want ", f);
		esc(f, c->new_value, sizeof(c->new_value));
		(*lines)++;
	}
	if (skipped)
		fprintf(f, "\\n... and %zu more", skipped);
}

static void mismatch_lines(FILE *f, const struct rc_mismatch *v, size_t n, size_t *lines)
{
	for (size_t i = 0; i < n && *lines < TOOLTIP_MAX_LINES; i++, (*lines)++) {
		fputs("\\n", f);
		esc(f, v[i].field, sizeof(v[i].field));
		fputs(": ", f);
		esc(f, v[i].a_value, sizeof(v[i].a_value));
		fputs(" (", f);
		esc(f, v[i].a_where, sizeof(v[i].a_where));
		fputs(") vs ", f);
		esc(f, v[i].b_value, sizeof(v[i].b_value));
		fputs(" (", f);
		esc(f, v[i].b_where, sizeof(v[i].b_where));
		fputc(')', f);
	}
}

void rc_dot_node_open(FILE *f, const struct rc_device *dev, bool ok, bool drifted,
		      const struct rc_host_check *hc)
{
	bool asym = hc && hc->status == RC_CHECK_MISMATCH;
	const char *colour = !ok || drifted || asym		    ? "red"
			     : hc && hc->status == RC_CHECK_UNKNOWN ? "orange"
								    : "darkgreen";

	fputs("\t\t", f);
	quoted(f, dev->name);
	fprintf(f, " [shape=%s, label=", dev->kind == RC_DEV_SWITCH ? "box" : "ellipse");
	quoted(f, dev->name);
	fprintf(f, ", color=\"%s\", fontcolor=\"%s\"", colour, colour);
	if (!ok)
		fputs(", style=\"dashed\"", f);
	if (!ok || drifted || asym)
		fputs(", penwidth=2", f);
	fputs(", tooltip=\"", f);
}

void rc_dot_node_device(FILE *f, const struct rc_device *dev, const struct rc_fleet_dev *d,
			size_t *lines)
{
	esc(f, dev->name, sizeof(dev->name));
	if (!rc_dot_dev_ok(d)) {
		fputs(": not read: ", f);
		esc(f, d->err.msg[0] ? d->err.msg : "not read yet", sizeof(d->err.msg));
	} else {
		size_t drift = rc_dot_dev_drift(d);

		fprintf(f, ": %zu drifted field%s", drift, drift == 1 ? "" : "s");
		drift_lines(f, d, lines);
	}
}

void rc_dot_node_close(FILE *f, const struct rc_host_check *hc, size_t *lines)
{
	if (hc && hc->status == RC_CHECK_MISMATCH) {
		fputs("\\nswitch sides differ:", f);
		mismatch_lines(f, hc->v, hc->n, lines);
	} else if (hc && hc->status == RC_CHECK_UNKNOWN) {
		fputs("\\na switch side could not be read", f);
	}
	fputs("\"];\n", f);
}

static void tier(FILE *f, const struct rc_dot_src *s, enum rc_role role, const char *name)
{
	bool any = false;

	for (size_t i = 0; i < s->fleet->n; i++) {
		if (s->inv->devices[s->fleet->devs[i].index].role != role)
			continue;
		if (!any)
			fprintf(f, "\tsubgraph %s {\n\t\trank=same;\n", name);
		any = true;
		s->node(f, s, i);
	}
	if (any)
		fputs("\t}\n", f);
}

static void end_line(FILE *f, const struct rc_device *dev, const struct rc_link_end *e,
		     size_t drift)
{
	if (!drift)
		return;
	fputs("\\n", f);
	esc(f, dev->name, sizeof(dev->name));
	fputc(':', f);
	esc(f, e->port, sizeof(e->port));
	fprintf(f, " has %zu drifted field%s", drift, drift == 1 ? "" : "s");
}

/* A link between a host and a switch whose ends agree and neither of which drifted: drawn
 * only as part of its cluster's summary edge (rc_dot_write). */
static bool quiet_host_link(const struct rc_dot_src *s, const struct rc_link_check *lc)
{
	const struct rc_link *l = &s->inv->links[lc->link];
	bool a_host = s->inv->devices[l->a.dev].kind == RC_DEV_HOST;
	bool b_host = s->inv->devices[l->b.dev].kind == RC_DEV_HOST;

	return a_host != b_host && lc->status == RC_CHECK_OK && !s->end_drift(s, lc->link, 0) &&
	       !s->end_drift(s, lc->link, 1);
}

static void edge(FILE *f, const struct rc_dot_src *s, const struct rc_link_check *lc)
{
	const struct rc_inventory *inv = s->inv;
	const struct rc_link *l = &inv->links[lc->link];
	const struct rc_device *A = &inv->devices[l->a.dev], *B = &inv->devices[l->b.dev];
	bool swap = A->role < B->role;
	const struct rc_link_end *top = swap ? &l->b : &l->a, *bottom = swap ? &l->a : &l->b;
	size_t drift_a = s->end_drift(s, lc->link, 0), drift_b = s->end_drift(s, lc->link, 1);
	size_t lines = 0;
	bool bad = lc->status == RC_CHECK_MISMATCH || drift_a || drift_b;
	const char *colour = bad ? "red" : lc->status == RC_CHECK_UNKNOWN ? "orange" : "darkgreen";

	fputc('\t', f);
	quoted(f, inv->devices[top->dev].name);
	fputs(" -- ", f);
	quoted(f, inv->devices[bottom->dev].name);
	fputs(" [label=\"", f);
	esc(f, top->port, sizeof(top->port));
	fputs(" -- ", f);
	esc(f, bottom->port, sizeof(bottom->port));
	fprintf(f, "\", color=\"%s\", fontcolor=\"%s\"%s, tooltip=\"", colour, colour,
		bad ? ", penwidth=2" : "");
	esc(f, A->name, sizeof(A->name));
	fputc(':', f);
	esc(f, l->a.port, sizeof(l->a.port));
	fputs(" -- ", f);
	esc(f, B->name, sizeof(B->name));
	fputc(':', f);
	esc(f, l->b.port, sizeof(l->b.port));
	if (lc->status == RC_CHECK_MISMATCH)
		mismatch_lines(f, lc->v, lc->n, &lines);
	else if (lc->status == RC_CHECK_UNKNOWN)
		fputs("\\nan end could not be read", f);
	else
		fputs("\\nboth ends agree", f);
	end_line(f, A, &l->a, drift_a);
	end_line(f, B, &l->b, drift_b);
	fputs("\"];\n", f);
}

/* Hosts are drawn in their leaf's cluster, HOSTS_PER_ROW to a row: one row of every host
 * of a fabric is tens of thousands of points wide and unreadable.  A host's leaf is the
 * switch of its first link in inventory order (a dual-homed host is drawn under its first
 * leaf; its other links cross to the next cluster). */
#define HOSTS_PER_ROW 8
#define NO_SWITCH     SIZE_MAX

static size_t *host_homes(const struct rc_inventory *inv)
{
	size_t *home = malloc((inv->n_devices ? inv->n_devices : 1) * sizeof(*home));

	if (!home)
		return NULL;
	for (size_t i = 0; i < inv->n_devices; i++)
		home[i] = NO_SWITCH;
	for (size_t l = 0; l < inv->n_links; l++) {
		size_t a = inv->links[l].a.dev, b = inv->links[l].b.dev;
		bool a_host = inv->devices[a].kind == RC_DEV_HOST;
		bool b_host = inv->devices[b].kind == RC_DEV_HOST;

		if (a_host && !b_host && home[a] == NO_SWITCH)
			home[a] = b;
		else if (b_host && !a_host && home[b] == NO_SWITCH)
			home[b] = a;
	}
	return home;
}

/* The first leaf of the picture: hosts with no link hang below it (invisibly), so that
 * they stay on the hosts' level rather than float to the top. */
static const struct rc_device *first_leaf(const struct rc_dot_src *s)
{
	for (size_t i = 0; i < s->fleet->n; i++) {
		const struct rc_device *d = &s->inv->devices[s->fleet->devs[i].index];

		if (d->role == RC_ROLE_LEAF)
			return d;
	}
	return NULL;
}

static void cluster_open(FILE *f, const struct rc_inventory *inv, size_t sw)
{
	fputs("\tsubgraph \"cluster_hosts_", f);
	esc(f, sw == NO_SWITCH ? "" : inv->devices[sw].name, RC_NAME_MAX);
	fputs("\" {\n\t\tlabel=\"", f);
	esc(f, sw == NO_SWITCH ? "no link" : inv->devices[sw].name, RC_NAME_MAX);
	fputs("\";\n\t\tstyle=\"rounded,dashed\";\n\t\tcolor=\"grey\";\n", f);
}

static void invisible_edge(FILE *f, const char *upper, const char *lower)
{
	fputc('\t', f);
	quoted(f, upper);
	fputs(" -- ", f);
	quoted(f, lower);
	fputs(" [style=\"invis\"];\n", f);
}

/* One cluster: the hosts whose home is `sw` (NO_SWITCH: not cabled), in rows of
 * HOSTS_PER_ROW.  Each row is a rank of its own (subgraphs are one by name in DOT, hence
 * the row number in it), held below the previous row by an invisible edge between their
 * first hosts, written after the cluster so that neither end joins a row's rank; the first
 * row of hosts with no link hangs below the first leaf the same way. */
static void host_cluster(FILE *f, const struct rc_dot_src *s, const size_t *home, size_t sw,
			 size_t *row)
{
	const struct rc_inventory *inv = s->inv;
	const struct rc_device *leaf = first_leaf(s);
	size_t k = 0;

	for (size_t i = 0; i < s->fleet->n; i++) {
		size_t dev = s->fleet->devs[i].index;

		if (inv->devices[dev].role != RC_ROLE_HOST || home[dev] != sw)
			continue;
		if (!k)
			cluster_open(f, inv, sw);
		if (k % HOSTS_PER_ROW == 0)
			fprintf(f, "%s\t\tsubgraph hosts_row_%zu {\n\t\trank=same;\n",
				k ? "\t\t}\n" : "", (*row)++);
		s->node(f, s, i);
		k++;
	}
	if (!k)
		return;
	fputs("\t\t}\n\t}\n", f);
	/* the heads of the rows, again: the k-th host of each row */
	for (size_t i = 0, n = 0, prev = SIZE_MAX; i < s->fleet->n; i++) {
		size_t dev = s->fleet->devs[i].index;

		if (inv->devices[dev].role != RC_ROLE_HOST || home[dev] != sw)
			continue;
		if (n++ % HOSTS_PER_ROW)
			continue;
		if (prev != SIZE_MAX)
			invisible_edge(f, inv->devices[prev].name, inv->devices[dev].name);
		else if (sw == NO_SWITCH && leaf)
			invisible_edge(f, leaf->name, inv->devices[dev].name);
		prev = dev;
	}
}

/* A summary edge: `n` links from switch `sw` to hosts of the cluster of `home`, all of them
 * agreeing (red and orange links are drawn one by one). */
struct dot_summary {
	size_t sw, home, n;
};

struct dot_ctx {
	size_t *home;  /* per device: the switch whose cluster a host is drawn in */
	size_t *first; /* per switch: the first host drawn in its cluster, or NO_SWITCH */
	struct dot_summary *sum;
	size_t n_sum;
};

static void host_clusters(FILE *f, const struct rc_dot_src *s, struct dot_ctx *c)
{
	size_t row = 1;

	for (size_t i = 0; i < s->fleet->n; i++) {
		size_t dev = s->fleet->devs[i].index, sw = c->home[dev];

		if (s->inv->devices[dev].role == RC_ROLE_HOST && sw != NO_SWITCH &&
		    c->first[sw] == NO_SWITCH)
			c->first[sw] = dev;
	}
	for (size_t sw = 0; sw < s->inv->n_devices; sw++)
		if (s->inv->devices[sw].kind != RC_DEV_HOST)
			host_cluster(f, s, c->home, sw, &row);
	host_cluster(f, s, c->home, NO_SWITCH, &row);
}

static int summarize(struct dot_ctx *c, const struct rc_inventory *inv, const struct rc_link *l)
{
	bool a_host = inv->devices[l->a.dev].kind == RC_DEV_HOST;
	size_t host = a_host ? l->a.dev : l->b.dev, sw = a_host ? l->b.dev : l->a.dev;
	size_t home = c->home[host];
	struct dot_summary *grown;

	for (size_t i = 0; i < c->n_sum; i++)
		if (c->sum[i].sw == sw && c->sum[i].home == home) {
			c->sum[i].n++;
			return 0;
		}
	grown = realloc(c->sum, (c->n_sum + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	c->sum = grown;
	c->sum[c->n_sum++] = (struct dot_summary){sw, home, 1};
	return 0;
}

/* One edge from the switch to the cluster (lhead: graphviz clips it at the cluster's
 * border), to its first host, which is in the cluster's top row: an edge per host would
 * cross every row above its host's and make each row as wide as the whole cluster. */
static void summary_edge(FILE *f, const struct rc_inventory *inv, const struct dot_ctx *c,
			 const struct dot_summary *sum)
{
	const char *sw = inv->devices[sum->sw].name;

	fputc('\t', f);
	quoted(f, sw);
	fputs(" -- ", f);
	quoted(f, inv->devices[c->first[sum->home]].name);
	fputs(" [lhead=\"cluster_hosts_", f);
	esc(f, inv->devices[sum->home].name, RC_NAME_MAX);
	fprintf(f,
		"\", label=\"%zu link%s\", color=\"darkgreen\", fontcolor=\"darkgreen\", "
		"tooltip=\"",
		sum->n, sum->n == 1 ? "" : "s");
	esc(f, sw, RC_NAME_MAX);
	fprintf(f, " to the hosts under ");
	esc(f, inv->devices[sum->home].name, RC_NAME_MAX);
	fprintf(f, ": %zu link%s, both ends agree\"];\n", sum->n, sum->n == 1 ? "" : "s");
}

static void edges(FILE *f, const struct rc_dot_src *s, struct dot_ctx *c)
{
	const struct rc_link_check *lc;

	while ((lc = s->next_link(s))) {
		const struct rc_link *l = &s->inv->links[lc->link];
		size_t host = s->inv->devices[l->a.dev].kind == RC_DEV_HOST ? l->a.dev : l->b.dev;

		/* a host drawn in a cluster whose first host exists: summarized when quiet */
		if (quiet_host_link(s, lc) && c->home[host] != NO_SWITCH &&
		    c->first[c->home[host]] != NO_SWITCH && !summarize(c, s->inv, l))
			continue;
		edge(f, s, lc);
	}
	for (size_t i = 0; i < c->n_sum; i++)
		summary_edge(f, s->inv, c, &c->sum[i]);
}

void rc_dot_write(FILE *f, const struct rc_dot_src *s)
{
	struct dot_ctx c = {.home = host_homes(s->inv)};
	const struct rc_link_check *lc;

	c.first = malloc((s->inv->n_devices ? s->inv->n_devices : 1) * sizeof(*c.first));
	fputs("graph fabric {\n"
	      "\tgraph [compound=true, ranksep=1.2, nodesep=0.4, fontname=\"Helvetica\"];\n"
	      "\tnode [fontname=\"Helvetica\"];\n"
	      "\tedge [fontname=\"Helvetica\", fontsize=10];\n",
	      f);
	tier(f, s, RC_ROLE_SPINE, "spines");
	tier(f, s, RC_ROLE_LEAF, "leaves");
	if (c.home && c.first) {
		for (size_t i = 0; i < s->inv->n_devices; i++)
			c.first[i] = NO_SWITCH;
		host_clusters(f, s, &c);
		edges(f, s, &c);
	} else { /* out of memory: every host in one row, every link drawn */
		tier(f, s, RC_ROLE_HOST, "hosts");
		while ((lc = s->next_link(s)))
			edge(f, s, lc);
	}
	fputs("}\n", f);
	free(c.home);
	free(c.first);
	free(c.sum);
}

/* ---- from a whole read fleet ---- */

struct whole {
	const struct rc_result *r;
	size_t next; /* the next of r->links */
};

static const struct rc_host_check *host_check(const struct rc_result *r, size_t dev)
{
	for (size_t i = 0; i < r->n_hosts; i++)
		if (r->hosts[i].dev == dev)
			return &r->hosts[i];
	return NULL;
}

static void whole_node(FILE *f, const struct rc_dot_src *s, size_t i)
{
	const struct whole *w = s->ctx;
	const struct rc_fleet_dev *d = &s->fleet->devs[i];
	const struct rc_device *dev = &s->inv->devices[d->index];
	const struct rc_host_check *hc = host_check(w->r, d->index);
	size_t lines = 0;

	rc_dot_node_open(f, dev, rc_dot_dev_ok(d), rc_dot_dev_drift(d) > 0, hc);
	rc_dot_node_device(f, dev, d, &lines);
	rc_dot_node_close(f, hc, &lines);
}

static const struct rc_link_check *whole_next_link(const struct rc_dot_src *s)
{
	struct whole *w = s->ctx;

	return w->next < w->r->n_links ? &w->r->links[w->next++] : NULL;
}

static size_t whole_end_drift(const struct rc_dot_src *s, size_t li, int side)
{
	const struct whole *w = s->ctx;
	const struct rc_link *l = &s->inv->links[li];
	const struct rc_link_end *e = side ? &l->b : &l->a;
	const struct rc_fleet_dev *d = rc_result_device(w->r, e->dev);

	return d && rc_dot_dev_ok(d) ? rc_result_port_drift(d, e->port) : 0;
}

void rc_report_dot(FILE *f, const struct rc_result *r)
{
	struct whole w = {.r = r};

	rc_dot_write(f, &(struct rc_dot_src){.inv = r->inv,
					     .fleet = r->fleet,
					     .node = whole_node,
					     .next_link = whole_next_link,
					     .end_drift = whole_end_drift,
					     .ctx = &w});
}
