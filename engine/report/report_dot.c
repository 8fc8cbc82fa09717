/* Graphviz DOT of a fabric result (include/rocectl/result.h): one node per selected device,
 * one edge per checked link, faults in red.  dot ranks an undirected edge from its first
 * node to its second, so every edge is written from the upper tier down (spine, leaf,
 * host) and its label names the ports in that order; together with one rank=same subgraph
 * per tier this keeps spines on top and hosts at the bottom.  Names and fields are
 * escaped even though the inventory's names are a safe charset: port names and values
 * come from the devices, and invalid UTF-8 or control characters would make the SVG that
 * dot writes unreadable. */
#include <stdint.h>
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

void rc_report_dot(FILE *f, const struct rc_result *r)
{
	fputs("graph fabric {\n"
	      "\tgraph [ranksep=1.2, nodesep=0.4, fontname=\"Helvetica\"];\n"
	      "\tnode [fontname=\"Helvetica\"];\n"
	      "\tedge [fontname=\"Helvetica\", fontsize=10];\n",
	      f);
	tier(f, r, RC_ROLE_SPINE, "spines");
	tier(f, r, RC_ROLE_LEAF, "leaves");
	tier(f, r, RC_ROLE_HOST, "hosts");
	for (size_t i = 0; i < r->n_links; i++)
		edge(f, r, &r->links[i]);
	fputs("}\n", f);
}
