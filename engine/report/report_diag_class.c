/* SPDX-License-Identifier: Apache-2.0 */
/* A whole-fabric diagnosis (include/rocectl/diag.h, by class) as text, JSON and Prometheus.
 * Text stays short at any size: classes with the same verdict at the same place are one
 * line with their count and a few examples; JSON lists every class and every port that is
 * not clean. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/diag.h"
#include "rocectl/nameset.h"

#include "report_diag.h"

/* Examples of the classes in one text group. */
#define GROUP_EXAMPLES 3

static const char *dev(const struct rc_diag *d, size_t i)
{
	return d->inv->devices[i].name;
}

struct class_key {
	const struct rc_diag_class *c;
};

static int class_cmp(const void *a, const void *b)
{
	const struct rc_diag_class *x = ((const struct class_key *)a)->c;
	const struct rc_diag_class *y = ((const struct class_key *)b)->c;
	int r;

	if (x->verdict != y->verdict)
		return x->verdict < y->verdict ? -1 : 1;
	if ((r = strcmp(x->at, y->at)))
		return r;
	return x < y ? -1 : x > y;
}

/* Text: one line per (verdict, place) group of classes that are not clean. */
static void text_groups(struct rc_out *o, const struct rc_diag *d)
{
	const struct rc_diag_fabric *fab = d->fab;
	struct class_key *k = calloc(fab->n_classes ? fab->n_classes : 1, sizeof(*k));

	if (!k) {
		rc_out_text(o, "  (out of memory listing the classes)\n");
		return;
	}
	for (size_t i = 0; i < fab->n_classes; i++)
		k[i].c = &fab->classes[i];
	qsort(k, fab->n_classes, sizeof(*k), class_cmp);
	for (size_t i = 0, j; i < fab->n_classes; i = j) {
		const struct rc_diag_class *c = k[i].c;
		size_t paths = 0;

		for (j = i; j < fab->n_classes && k[j].c->verdict == c->verdict &&
			    !strcmp(k[j].c->at, c->at);
		     j++)
			paths += k[j].c->n_paths;
		if (c->verdict == RC_VERDICT_CLEAN)
			continue;
		rc_out_text(o, "  %s at %s: %zu class%s, %zu paths (%s)\n    e.g.",
			    rc_diag_verdict_name(c->verdict), c->at, j - i, j - i == 1 ? "" : "es",
			    paths, c->evidence);
		for (size_t e = i; e < j && e < i + GROUP_EXAMPLES; e++)
			rc_out_text(o, "%s %s -> %s", e > i ? "," : "", dev(d, k[e].c->from),
				    dev(d, k[e].c->to));
		rc_out_text(o, "%s\n", j - i > GROUP_EXAMPLES ? ", ..." : "");
	}
	free(k);
}

static void json_classes(struct rc_out *o, const struct rc_diag *d)
{
	const struct rc_diag_fabric *fab = d->fab;

	rc_out_open_array(o, "classes");
	for (size_t i = 0; rc_out_json(o) && i < fab->n_classes; i++) {
		const struct rc_diag_class *c = &fab->classes[i];

		rc_out_open_object(o, NULL);
		rc_out_str(o, "from", NULL, dev(d, c->from));
		rc_out_str(o, "to", NULL, dev(d, c->to));
		rc_out_uint(o, "paths", NULL, c->n_paths);
		rc_out_uint(o, "ecmp", NULL, c->n_ecmp);
		rc_out_str(o, "verdict", NULL, rc_diag_verdict_name(c->verdict));
		if (c->at[0])
			rc_out_str(o, "at", NULL, c->at);
		else
			rc_out_null(o, "at", NULL);
		rc_out_str(o, "evidence", NULL, c->evidence);
		rc_out_close_object(o);
	}
	rc_out_close_array(o);
}

/* More ports than this of one role are one line in text (a pause tree across a fabric
 * relays on thousands of ports); JSON and --details list every port. */
#define PORTS_PER_ROLE 8

static size_t role_count(const struct rc_diag *d, enum rc_diag_role role)
{
	size_t n = 0;

	for (size_t i = 0; i < d->n_ports; i++)
		n += d->ports[i].role == role;
	return n;
}

/* Text: the ports of a role with many, as one line with their devices and ports folded
 * into ranges and the first port's reason as an example. */
static void role_line(struct rc_out *o, const struct rc_diag *d, enum rc_diag_role role, size_t n)
{
	struct rc_nameset devs, ports;
	const struct rc_diag_port_role *first = NULL;
	char dl[160], pl[80];
	size_t n_dev = 0, last = SIZE_MAX;

	memset(&devs, 0, sizeof(devs));
	memset(&ports, 0, sizeof(ports));
	for (size_t i = 0; i < d->n_ports; i++) {
		const struct rc_diag_port_role *p = &d->ports[i];

		if (p->role != role)
			continue;
		first = first ? first : p;
		n_dev += p->dev != last; /* ports come device by device */
		last = p->dev;
		rc_nameset_add(&devs, dev(d, p->dev));
		rc_nameset_add(&ports, p->port);
	}
	rc_nameset_format(&devs, dl, sizeof(dl));
	rc_nameset_sort(&ports);
	rc_nameset_format(&ports, pl, sizeof(pl));
	rc_out_text(o, "  %-6s %zu ports on %zu devices %s (%s), e.g. %s %s: %s\n",
		    rc_diag_role_name(role), n, n_dev, dl, pl, dev(d, first->dev), first->port,
		    first->why);
}

static void out_ports(struct rc_out *o, const struct rc_diag *d)
{
	bool folded[RC_HOP_UNKNOWN + 1] = {false};

	rc_out_open_array(o, "ports");
	if (d->n_ports)
		rc_out_text(o, "ports that are not clean:\n");
	for (int r = 0; !rc_out_json(o) && !o->details && r <= RC_HOP_UNKNOWN; r++) {
		size_t n = role_count(d, (enum rc_diag_role)r);

		folded[r] = n > PORTS_PER_ROLE;
		if (folded[r])
			role_line(o, d, (enum rc_diag_role)r, n);
	}
	for (size_t i = 0; i < d->n_ports; i++) {
		const struct rc_diag_port_role *p = &d->ports[i];

		if (p->role <= RC_HOP_UNKNOWN && folded[p->role])
			continue;
		rc_out_open_object(o, NULL);
		rc_out_str(o, "device", "  %-10s", dev(d, p->dev));
		rc_out_str(o, "port", " %-12s", p->port);
		rc_out_str(o, "role", " %-6s", rc_diag_role_name(p->role));
		rc_out_str(o, "why", " %s\n", p->why);
		rc_diag_out_deltas(o, "deltas", p->port, p->x);
		rc_out_close_object(o);
	}
	rc_out_close_array(o);
}

size_t rc_diag_print_classes(struct rc_out *o, const struct rc_diag *d)
{
	const struct rc_diag_fabric *fab = d->fab;
	size_t count[RC_VERDICT_UNKNOWN + 1] = {0}, paths[RC_VERDICT_UNKNOWN + 1] = {0};

	for (size_t i = 0; i < fab->n_classes; i++) {
		count[fab->classes[i].verdict]++;
		paths[fab->classes[i].verdict] += fab->classes[i].n_paths;
	}
	rc_out_double(o, "window_s", "window %.1f s", d->window_s);
	rc_out_str(o, "by", NULL, "class");
	rc_out_uint(o, "n_paths", NULL, fab->n_paths);
	rc_out_text(o,
		    ", %zu paths in %zu equal-cost classes: %zu clean, %zu congested, %zu lossy, "
		    "%zu host-side, %zu unknown (paths)\n",
		    fab->n_paths, fab->n_classes, paths[RC_VERDICT_CLEAN],
		    paths[RC_VERDICT_CONGESTED], paths[RC_VERDICT_LOSSY],
		    paths[RC_VERDICT_HOST_SIDE], paths[RC_VERDICT_UNKNOWN]);
	rc_diag_out_roots(o, d);
	rc_out_open_array(o, "paths");
	rc_out_close_array(o);
	if (!rc_out_json(o))
		text_groups(o, d);
	json_classes(o, d);
	out_ports(o, d);
	rc_diag_out_findings(o, d);
	return fab->n_classes - count[RC_VERDICT_CLEAN];
}

/* One sample per class (the ordered pair of edges is unique); as for paths, the verdict
 * and its place stay out of the labels, which would change from run to run. */
void rc_diag_prom_classes(FILE *f, const struct rc_diag *d)
{
	static const char *const fam[][2] = {
	    {"rocectl_diagnose_class_clean",
	     "1 when no path between the two edge switches showed a pause, drop or host error "
	     "in the window"},
	    {"rocectl_diagnose_class_paths",
	     "paths between NICs behind the two edge switches (NIC pairs times equal-cost "
	     "paths)"},
	};
	const struct rc_diag_fabric *fab = d->fab;

	for (size_t m = 0; m < 2; m++) {
		fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n", fam[m][0], fam[m][1], fam[m][0]);
		for (size_t i = 0; i < fab->n_classes; i++) {
			const struct rc_diag_class *c = &fab->classes[i];

			fprintf(f, "%s{", fam[m][0]);
			rc_diag_prom_label(f, "from", dev(d, c->from), true);
			rc_diag_prom_label(f, "to", dev(d, c->to), false);
			fprintf(f, "} %zu\n",
				m == 0 ? (size_t)(c->verdict == RC_VERDICT_CLEAN) : c->n_paths);
		}
	}
}
