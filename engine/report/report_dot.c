/* SPDX-License-Identifier: Apache-2.0 */
/* Graphviz DOT of a fabric result (include/rocectl/result.h): one node per selected device,
 * one edge per checked link, faults in red.  dot ranks an undirected edge from its first
 * node to its second, so every edge is written from the upper tier down (spine, leaf,
 * host) and its label names the ports in that order; together with one rank=same subgraph
 * per tier this keeps spines on top and hosts at the bottom.  Names and fields are
 * escaped even though the inventory's names are a safe charset: port names and values
 * come from the devices, and invalid UTF-8 or control characters would make the SVG that
 * dot writes unreadable. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/result.h"
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

static bool dev_ok(const struct rc_fleet_dev *d)
{
	return d->rc == 0 && d->run.read_ok && (d->run.have || !d->run.n_ports);
}

static size_t dev_drift(const struct rc_fleet_dev *d)
{
	if (!dev_ok(d))
		return 0;
	return d->run.changes.n - rc_changes_count(&d->run.changes, RC_CHANGE_UNSUPPORTED);
}

static const struct rc_host_check *host_check(const struct rc_result *r, size_t dev)
{
	for (size_t i = 0; i < r->n_hosts; i++)
		if (r->hosts[i].dev == dev)
			return &r->hosts[i];
	return NULL;
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

static void node(FILE *f, const struct rc_result *r, const struct rc_fleet_dev *d)
{
	const struct rc_device *dev = &r->inv->devices[d->index];
	const struct rc_host_check *hc = host_check(r, d->index);
	bool ok = dev_ok(d), asym = hc && hc->status == RC_CHECK_MISMATCH;
	size_t drift = dev_drift(d), lines = 0;
	const char *colour = !ok || drift || asym		    ? "red"
			     : hc && hc->status == RC_CHECK_UNKNOWN ? "orange"
								    : "darkgreen";

	fputs("\t\t", f);
	quoted(f, dev->name);
	fprintf(f, " [shape=%s, label=", dev->kind == RC_DEV_SWITCH ? "box" : "ellipse");
	quoted(f, dev->name);
	fprintf(f, ", color=\"%s\", fontcolor=\"%s\"", colour, colour);
	if (!ok)
		fputs(", style=\"dashed\"", f);
	if (!ok || drift || asym)
		fputs(", penwidth=2", f);
	fputs(", tooltip=\"", f);
	esc(f, dev->name, sizeof(dev->name));
	if (!ok) {
		fputs(": not read: ", f);
		esc(f, d->err.msg[0] ? d->err.msg : "not read yet", sizeof(d->err.msg));
	} else {
		fprintf(f, ": %zu drifted field%s", drift, drift == 1 ? "" : "s");
		drift_lines(f, d, &lines);
	}
	if (asym) {
		fputs("\\nswitch sides differ:", f);
		mismatch_lines(f, hc->v, hc->n, &lines);
	} else if (hc && hc->status == RC_CHECK_UNKNOWN) {
		fputs("\\na switch side could not be read", f);
	}
	fputs("\"];\n", f);
}

static void tier(FILE *f, const struct rc_result *r, enum rc_role role, const char *name)
{
	bool any = false;

	for (size_t i = 0; i < r->fleet->n; i++) {
		const struct rc_fleet_dev *d = &r->fleet->devs[i];

		if (r->inv->devices[d->index].role != role)
			continue;
		if (!any)
			fprintf(f, "\tsubgraph %s {\n\t\trank=same;\n", name);
		any = true;
		node(f, r, d);
	}
	if (any)
		fputs("\t}\n", f);
}

static size_t end_drift(const struct rc_result *r, const struct rc_link_end *e)
{
	const struct rc_fleet_dev *d = rc_result_device(r, e->dev);

	return d && dev_ok(d) ? rc_result_port_drift(d, e->port) : 0;
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
 * only as part of its cluster's summary edge (rc_report_dot). */
static bool quiet_host_link(const struct rc_result *r, const struct rc_link_check *lc)
{
	const struct rc_link *l = &r->inv->links[lc->link];
	bool a_host = r->inv->devices[l->a.dev].kind == RC_DEV_HOST;
	bool b_host = r->inv->devices[l->b.dev].kind == RC_DEV_HOST;

	return a_host != b_host && lc->status == RC_CHECK_OK && !end_drift(r, &l->a) &&
	       !end_drift(r, &l->b);
}

static void edge(FILE *f, const struct rc_result *r, const struct rc_link_check *lc)
{
	const struct rc_link *l = &r->inv->links[lc->link];
	const struct rc_device *A = &r->inv->devices[l->a.dev], *B = &r->inv->devices[l->b.dev];
	bool swap = A->role < B->role;
	const struct rc_link_end *top = swap ? &l->b : &l->a, *bottom = swap ? &l->a : &l->b;
	size_t drift_a = end_drift(r, &l->a), drift_b = end_drift(r, &l->b), lines = 0;
	bool bad = lc->status == RC_CHECK_MISMATCH || drift_a || drift_b;
	const char *colour = bad ? "red" : lc->status == RC_CHECK_UNKNOWN ? "orange" : "darkgreen";

	fputc('\t', f);
	quoted(f, r->inv->devices[top->dev].name);
	fputs(" -- ", f);
	quoted(f, r->inv->devices[bottom->dev].name);
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
static const struct rc_device *first_leaf(const struct rc_result *r)
{
	for (size_t i = 0; i < r->fleet->n; i++) {
		const struct rc_device *d = &r->inv->devices[r->fleet->devs[i].index];

		if (d->role == RC_ROLE_LEAF)
			return d;
	}
	return NULL;
}

static void cluster_open(FILE *f, const struct rc_result *r, size_t sw)
{
	fputs("\tsubgraph \"cluster_hosts_", f);
	esc(f, sw == NO_SWITCH ? "" : r->inv->devices[sw].name, RC_NAME_MAX);
	fputs("\" {\n\t\tlabel=\"", f);
	esc(f, sw == NO_SWITCH ? "no link" : r->inv->devices[sw].name, RC_NAME_MAX);
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
static void host_cluster(FILE *f, const struct rc_result *r, const size_t *home, size_t sw,
			 size_t *row)
{
	const struct rc_device *leaf = first_leaf(r);
	size_t k = 0;

	for (size_t i = 0; i < r->fleet->n; i++) {
		const struct rc_fleet_dev *d = &r->fleet->devs[i];
		const struct rc_device *dev = &r->inv->devices[d->index];

		if (dev->role != RC_ROLE_HOST || home[d->index] != sw)
			continue;
		if (!k)
			cluster_open(f, r, sw);
		if (k % HOSTS_PER_ROW == 0)
			fprintf(f, "%s\t\tsubgraph hosts_row_%zu {\n\t\trank=same;\n",
				k ? "\t\t}\n" : "", (*row)++);
		node(f, r, d);
		k++;
	}
	if (!k)
		return;
	fputs("\t\t}\n\t}\n", f);
	/* the heads of the rows, again: the k-th host of each row */
	for (size_t i = 0, n = 0, prev = SIZE_MAX; i < r->fleet->n; i++) {
		size_t dev = r->fleet->devs[i].index;

		if (r->inv->devices[dev].role != RC_ROLE_HOST || home[dev] != sw)
			continue;
		if (n++ % HOSTS_PER_ROW)
			continue;
		if (prev != SIZE_MAX)
			invisible_edge(f, r->inv->devices[prev].name, r->inv->devices[dev].name);
		else if (sw == NO_SWITCH && leaf)
			invisible_edge(f, leaf->name, r->inv->devices[dev].name);
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

static void host_clusters(FILE *f, const struct rc_result *r, struct dot_ctx *c)
{
	size_t row = 1;

	for (size_t i = 0; i < r->fleet->n; i++) {
		size_t dev = r->fleet->devs[i].index, sw = c->home[dev];

		if (r->inv->devices[dev].role == RC_ROLE_HOST && sw != NO_SWITCH &&
		    c->first[sw] == NO_SWITCH)
			c->first[sw] = dev;
	}
	for (size_t sw = 0; sw < r->inv->n_devices; sw++)
		if (r->inv->devices[sw].kind != RC_DEV_HOST)
			host_cluster(f, r, c->home, sw, &row);
	host_cluster(f, r, c->home, NO_SWITCH, &row);
}

static int summarize(struct dot_ctx *c, const struct rc_result *r, const struct rc_link *l)
{
	bool a_host = r->inv->devices[l->a.dev].kind == RC_DEV_HOST;
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
static void summary_edge(FILE *f, const struct rc_result *r, const struct dot_ctx *c,
			 const struct dot_summary *s)
{
	const char *sw = r->inv->devices[s->sw].name;

	fputc('\t', f);
	quoted(f, sw);
	fputs(" -- ", f);
	quoted(f, r->inv->devices[c->first[s->home]].name);
	fputs(" [lhead=\"cluster_hosts_", f);
	esc(f, r->inv->devices[s->home].name, RC_NAME_MAX);
	fprintf(f,
		"\", label=\"%zu link%s\", color=\"darkgreen\", fontcolor=\"darkgreen\", "
		"tooltip=\"",
		s->n, s->n == 1 ? "" : "s");
	esc(f, sw, RC_NAME_MAX);
	fprintf(f, " to the hosts under ");
	esc(f, r->inv->devices[s->home].name, RC_NAME_MAX);
	fprintf(f, ": %zu link%s, both ends agree\"];\n", s->n, s->n == 1 ? "" : "s");
}

static void edges(FILE *f, const struct rc_result *r, struct dot_ctx *c)
{
	for (size_t i = 0; i < r->n_links; i++) {
		const struct rc_link_check *lc = &r->links[i];
		const struct rc_link *l = &r->inv->links[lc->link];
		size_t host = r->inv->devices[l->a.dev].kind == RC_DEV_HOST ? l->a.dev : l->b.dev;

		/* a host drawn in a cluster whose first host exists: summarized when quiet */
		if (quiet_host_link(r, lc) && c->home[host] != NO_SWITCH &&
		    c->first[c->home[host]] != NO_SWITCH && !summarize(c, r, l))
			continue;
		edge(f, r, lc);
	}
	for (size_t i = 0; i < c->n_sum; i++)
		summary_edge(f, r, c, &c->sum[i]);
}

void rc_report_dot(FILE *f, const struct rc_result *r)
{
	struct dot_ctx c = {.home = host_homes(r->inv)};

	c.first = malloc((r->inv->n_devices ? r->inv->n_devices : 1) * sizeof(*c.first));
	fputs("graph fabric {\n"
	      "\tgraph [compound=true, ranksep=1.2, nodesep=0.4, fontname=\"Helvetica\"];\n"
	      "\tnode [fontname=\"Helvetica\"];\n"
	      "\tedge [fontname=\"Helvetica\", fontsize=10];\n",
	      f);
	tier(f, r, RC_ROLE_SPINE, "spines");
	tier(f, r, RC_ROLE_LEAF, "leaves");
	if (c.home && c.first) {
		for (size_t i = 0; i < r->inv->n_devices; i++)
			c.first[i] = NO_SWITCH;
		host_clusters(f, r, &c);
		edges(f, r, &c);
	} else { /* out of memory: every host in one row, every link drawn */
		tier(f, r, RC_ROLE_HOST, "hosts");
		for (size_t i = 0; i < r->n_links; i++)
			edge(f, r, &r->links[i]);
	}
	fputs("}\n", f);
	free(c.home);
	free(c.first);
	free(c.sum);
}
