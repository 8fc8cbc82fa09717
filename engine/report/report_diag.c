/* SPDX-License-Identifier: Apache-2.0 */
/* Printers of a diagnosis (include/rocectl/diag.h): text and JSON through the one printer
 * (print.c), and the Prometheus text format. */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rocectl/diag.h"
#include "rocectl/result.h"

#include "report_diag.h"

static const struct {
	const char *key;
	uint32_t bit;
	size_t off;
} delta_fields[] = {
    {"pause_tx", RC_DH_PAUSE_TX, offsetof(struct rc_diag_deltas, pause_tx)},
    {"pause_rx", RC_DH_PAUSE_RX, offsetof(struct rc_diag_deltas, pause_rx)},
    {"pause_tx_us", RC_DH_PAUSE_US, offsetof(struct rc_diag_deltas, pause_tx_us)},
    {"ecn_marked", RC_DH_ECN_MARKED, offsetof(struct rc_diag_deltas, ecn_marked)},
    {"ecn_received", RC_DH_ECN_RECEIVED, offsetof(struct rc_diag_deltas, ecn_received)},
    {"cnp_sent", RC_DH_CNP_SENT, offsetof(struct rc_diag_deltas, cnp_sent)},
    {"cnp_handled", RC_DH_CNP_HANDLED, offsetof(struct rc_diag_deltas, cnp_handled)},
    {"discards", RC_DH_DISCARDS, offsetof(struct rc_diag_deltas, discards)},
    {"out_of_buffer", RC_DH_OUT_OF_BUFFER, offsetof(struct rc_diag_deltas, out_of_buffer)},
    {"seq_errors", RC_DH_SEQ_ERRORS, offsetof(struct rc_diag_deltas, seq_errors)},
    {"storm_events", RC_DH_STORM, offsetof(struct rc_diag_deltas, storm_events)},
};

/* JSON: the deltas the device reports (absent = not reported); text: the non-zero ones. */
void rc_diag_out_deltas(struct rc_out *o, const char *key, const char *port,
			const struct rc_diag_deltas *x)
{
	bool any = false;

	if (!x) {
		rc_out_null(o, key, NULL);
		return;
	}
	rc_out_open_object(o, key);
	rc_out_str(o, "port", NULL, port);
	for (size_t i = 0; i < sizeof(delta_fields) / sizeof(delta_fields[0]); i++) {
		uint64_t v;

		if (!(x->have & delta_fields[i].bit))
			continue;
		memcpy(&v, (const char *)x + delta_fields[i].off, sizeof(v));
		rc_out_uint(o, delta_fields[i].key, NULL, v);
		if (v)
			rc_out_text(o, "%s%s %s=%" PRIu64, any ? "," : "        ", any ? "" : port,
				    delta_fields[i].key, v);
		any |= v != 0;
	}
	if (x->reset)
		rc_out_bool(o, "counter_reset", "  (a counter was reset)", true);
	if (any)
		rc_out_text(o, "\n");
	rc_out_close_object(o);
}

void rc_diag_print_hop(struct rc_out *o, const struct rc_diag_path *p, size_t k)
{
	const struct rc_trace_hop *t = &p->p->h[k];
	const struct rc_diag_hop *h = &p->h[k];

	rc_out_str(o, "role", " %-6s", rc_diag_role_name(h->role));
	rc_out_str(o, "why", " %s", h->why);
	rc_out_text(o, "\n");
	rc_out_open_object(o, "deltas");
	if (t->in)
		rc_diag_out_deltas(o, "in", t->in, h->in);
	if (t->out)
		rc_diag_out_deltas(o, "out", t->out, h->out);
	rc_out_close_object(o);
}

void rc_diag_print_hops(struct rc_out *o, const struct rc_diag *d, const struct rc_diag_path *p)
{
	const struct rc_trace_path *tp = p->p;

	rc_out_open_array(o, "hops");
	for (size_t k = 0; k < tp->n; k++) {
		const struct rc_trace_hop *t = &tp->h[k];
		char ports[2 * RC_NAME_MAX + 8];

		snprintf(ports, sizeof(ports), "%s%s%s", t->in ? t->in : "",
			 t->in && t->out ? " -> " : "", t->out ? t->out : "");
		rc_out_open_object(o, NULL);
		rc_out_str(o, "device", "    %-10s", d->inv->devices[t->dev].name);
		rc_out_text(o, " %-22s", ports);
		rc_out_str(o, "in", NULL, t->in ? t->in : "");
		rc_out_str(o, "out", NULL, t->out ? t->out : "");
		rc_diag_print_hop(o, p, k);
		rc_out_close_object(o);
	}
	rc_out_close_array(o);
}

static void out_path(struct rc_out *o, const struct rc_diag *d, const struct rc_diag_path *p)
{
	const struct rc_trace_path *tp = p->p;
	const struct rc_inventory *inv = d->inv;

	rc_out_open_object(o, NULL);
	rc_out_str(o, "from", "  %s", inv->devices[p->from].name);
	rc_out_str(o, "from_port", ":%s", tp->h[0].out);
	rc_out_str(o, "to", " -> %s", inv->devices[p->to].name);
	rc_out_str(o, "to_port", ":%s", tp->h[tp->n - 1].in);
	rc_out_str(o, "verdict", ": %s", rc_diag_verdict_name(p->verdict));
	if (p->at[0])
		rc_out_str(o, "at", " at %s", p->at);
	else
		rc_out_null(o, "at", NULL);
	rc_out_str(o, "evidence", p->verdict == RC_VERDICT_CLEAN ? NULL : " (%s)", p->evidence);
	rc_out_text(o, "\n");
	if (p->verdict == RC_VERDICT_CLEAN && !rc_out_json(o)) {
		rc_out_close_object(o);
		return;
	}
	rc_diag_print_hops(o, d, p);
	rc_out_close_object(o);
}

void rc_diag_out_findings(struct rc_out *o, const struct rc_diag *d)
{
	rc_out_open_array(o, "findings");
	for (size_t i = 0; i < d->n_findings; i++) {
		const struct rc_diag_finding *f = &d->findings[i];

		rc_out_open_object(o, NULL);
		rc_out_str(o, "kind", "%s", rc_diag_finding_name(f->kind));
		rc_out_str(o, "device", " %s", d->inv->devices[f->dev].name);
		rc_out_str(o, "port", f->port[0] ? ":%s" : NULL, f->port);
		rc_out_str(o, "message", ": %s\n", f->message);
		rc_out_str(o, "fields", "    change: %s\n", f->fields);
		rc_out_close_object(o);
	}
	rc_out_close_array(o);
}

void rc_diag_out_roots(struct rc_out *o, const struct rc_diag *d)
{
	rc_out_open_array(o, "roots");
	if (d->n_roots)
		rc_out_text(o, "pause tree root%s:", d->n_roots == 1 ? "" : "s");
	for (size_t i = 0; i < d->n_roots; i++)
		rc_out_str(o, NULL, " %s", d->roots[i]);
	if (d->n_roots)
		rc_out_text(o, "\n");
	rc_out_close_array(o);
}

size_t rc_diag_print(struct rc_out *o, const struct rc_diag *d)
{
	size_t count[RC_VERDICT_UNKNOWN + 1] = {0}, bad = 0;

	if (d->fab)
		return rc_diag_print_classes(o, d);
	for (size_t i = 0; i < d->n_paths; i++)
		count[d->paths[i].verdict]++;
	bad = d->n_paths - count[RC_VERDICT_CLEAN];
	rc_out_double(o, "window_s", "window %.1f s", d->window_s);
	rc_out_str(o, "by", NULL, "path");
	rc_out_uint(o, "n_paths", NULL, d->n_paths);
	rc_out_text(o,
		    ", %zu path%s: %zu clean, %zu congested, %zu lossy, %zu host-side, %zu "
		    "unknown\n",
		    d->n_paths, d->n_paths == 1 ? "" : "s", count[RC_VERDICT_CLEAN],
		    count[RC_VERDICT_CONGESTED], count[RC_VERDICT_LOSSY],
		    count[RC_VERDICT_HOST_SIDE], count[RC_VERDICT_UNKNOWN]);
	rc_diag_out_roots(o, d);
	rc_out_open_array(o, "paths");
	for (size_t i = 0; i < d->n_paths; i++)
		out_path(o, d, &d->paths[i]);
	rc_out_close_array(o);
	rc_out_open_array(o, "classes");
	rc_out_close_array(o);
	rc_out_open_array(o, "ports");
	rc_out_close_array(o);
	rc_diag_out_findings(o, d);
	return bad;
}

/* Inventory names are checked against a safe set (no quote, backslash or newline); the
 * texts below are ours.  Escaped anyway, as the exposition format says. */
void rc_diag_prom_label(FILE *f, const char *key, const char *v, bool first)
{
	fprintf(f, "%s%s=\"", first ? "" : ",", key);
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			fputc('\\', f);
		if (*v == '\n')
			fputs("\\n", f);
		else
			fputc(*v, f);
	}
	fputc('"', f);
}

/* Equal-cost paths between the same two NIC ports share every label a scrape can tell
 * them by, and node_exporter refuses a textfile with two samples of one series
 * (prometheus/common expfmt: "second sample of the same metric"): the paths are sorted so
 * that each (from, from_port, to, to_port) forms one group, reported once. */
struct path_key {
	const struct rc_diag *d;
	size_t i;
};

static const char *path_end(const struct rc_diag_path *p, bool last)
{
	return last ? p->p->h[p->p->n - 1].in : p->p->h[0].out;
}

static int path_key_cmp(const void *a, const void *b)
{
	const struct path_key *x = a, *y = b;
	const struct rc_diag_path *p = &x->d->paths[x->i], *q = &y->d->paths[y->i];
	const struct rc_inventory *inv = x->d->inv;
	int c;

	if ((c = strcmp(inv->devices[p->from].name, inv->devices[q->from].name)))
		return c;
	if ((c = strcmp(path_end(p, false), path_end(q, false))))
		return c;
	if ((c = strcmp(inv->devices[p->to].name, inv->devices[q->to].name)))
		return c;
	if ((c = strcmp(path_end(p, true), path_end(q, true))))
		return c;
	return x->i < y->i ? -1 : x->i > y->i;
}

static bool same_ends(const struct rc_diag *d, size_t a, size_t b)
{
	const struct rc_diag_path *p = &d->paths[a], *q = &d->paths[b];

	return p->from == q->from && p->to == q->to &&
	       !strcmp(path_end(p, false), path_end(q, false)) &&
	       !strcmp(path_end(p, true), path_end(q, true));
}

static void path_labels(FILE *f, const struct rc_diag *d, const struct rc_diag_path *p)
{
	rc_diag_prom_label(f, "from", d->inv->devices[p->from].name, true);
	rc_diag_prom_label(f, "from_port", path_end(p, false), false);
	rc_diag_prom_label(f, "to", d->inv->devices[p->to].name, false);
	rc_diag_prom_label(f, "to_port", path_end(p, true), false);
}

/* One sample per pair of NIC ports: clean only when every equal-cost path between them
 * is; how many of those paths there are and how many are not clean beside it.  The
 * verdict and the port it points at change from run to run, so they stay out of the
 * labels (a label that changes makes a new series each time); JSON and text carry them. */
static void prom_paths(FILE *f, const struct rc_diag *d, struct path_key *k)
{
	static const char *const fam[][2] = {
	    {"rocectl_diagnose_path_clean",
	     "1 when every equal-cost path between the two NIC ports showed no pause, drop or "
	     "host error in the window"},
	    {"rocectl_diagnose_paths", "equal-cost paths between the two NIC ports"},
	    {"rocectl_diagnose_paths_not_clean",
	     "equal-cost paths between the two NIC ports whose verdict is not clean"},
	};

	for (size_t m = 0; m < 3; m++) {
		fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n", fam[m][0], fam[m][1], fam[m][0]);
		for (size_t i = 0, j; i < d->n_paths; i = j) {
			size_t bad = 0;

			for (j = i; j < d->n_paths && same_ends(d, k[i].i, k[j].i); j++)
				bad += d->paths[k[j].i].verdict != RC_VERDICT_CLEAN;
			fprintf(f, "%s{", fam[m][0]);
			path_labels(f, d, &d->paths[k[i].i]);
			fprintf(f, "} %zu\n", m == 0 ? (size_t)(bad == 0) : m == 1 ? j - i : bad);
		}
	}
}

static bool root_repeated(const struct rc_diag *d, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (!strcmp(d->roots[j], d->roots[i]))
			return true;
	return false;
}

static bool finding_repeated(const struct rc_diag *d, size_t i)
{
	const struct rc_diag_finding *a = &d->findings[i];

	for (size_t j = 0; j < i; j++) {
		const struct rc_diag_finding *b = &d->findings[j];

		if (a->kind == b->kind && a->dev == b->dev && !strcmp(a->port, b->port))
			return true;
	}
	return false;
}

int rc_diag_prom(FILE *f, const struct rc_diag *d)
{
	const struct rc_inventory *inv = d->inv;
	struct path_key *k = calloc(d->n_paths ? d->n_paths : 1, sizeof(*k));

	if (!k)
		return -ENOMEM;
	for (size_t i = 0; i < d->n_paths; i++)
		k[i] = (struct path_key){d, i};
	qsort(k, d->n_paths, sizeof(*k), path_key_cmp);
	rc_prom_build_info(f, "diagnose");
	if (d->fab)
		rc_diag_prom_classes(f, d);
	else
		prom_paths(f, d, k);
	free(k);
	fputs("# HELP rocectl_diagnose_pause_root 1 for each port where a pause tree starts\n"
	      "# TYPE rocectl_diagnose_pause_root gauge\n",
	      f);
	for (size_t i = 0; i < d->n_roots; i++) {
		if (root_repeated(d, i))
			continue;
		fputs("rocectl_diagnose_pause_root{", f);
		rc_diag_prom_label(f, "at", d->roots[i], true);
		fputs("} 1\n", f);
	}
	fputs("# HELP rocectl_diagnose_finding 1 for each DCQCN or threshold problem found\n"
	      "# TYPE rocectl_diagnose_finding gauge\n",
	      f);
	for (size_t i = 0; i < d->n_findings; i++) {
		if (finding_repeated(d, i))
			continue;
		fputs("rocectl_diagnose_finding{", f);
		rc_diag_prom_label(f, "kind", rc_diag_finding_name(d->findings[i].kind), true);
		rc_diag_prom_label(f, "device", inv->devices[d->findings[i].dev].name, false);
		rc_diag_prom_label(f, "port", d->findings[i].port, false);
		fputs("} 1\n", f);
	}
	fprintf(f,
		"# HELP rocectl_diagnose_window_seconds time between the two samples\n"
		"# TYPE rocectl_diagnose_window_seconds gauge\n"
		"rocectl_diagnose_window_seconds %.3f\n"
		"# HELP rocectl_last_diagnose_timestamp_seconds when this diagnosis ended\n"
		"# TYPE rocectl_last_diagnose_timestamp_seconds gauge\n"
		"rocectl_last_diagnose_timestamp_seconds %lld\n",
		d->window_s, (long long)time(NULL));
	return 0;
}
