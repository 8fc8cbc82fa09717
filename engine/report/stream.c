/* SPDX-License-Identifier: Apache-2.0 */
/* verify --format jsonl: print each device as it is read, free it, keep only the compact
 * per-link-end state the cross-hop checks need (include/rocectl/stream.h).
 *
 * The fleet's worker calls on_read() for the device it has just read; everything that
 * worker touches there is its own device's, except the printer and the totals (one lock)
 * and the brief slots of its device's link ends (no other device writes them).  Link ends
 * are found through a per-device list built once from the inventory, so that neither the
 * briefs nor the checks search the links per device. */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report_dot.h"
#include "rocectl/deadlock.h"
#include "rocectl/lldp.h"
#include "rocectl/report.h"
#include "rocectl/result.h"
#include "rocectl/shard.h"
#include "rocectl/stream.h"
#include "rocectl/util.h"
#include "spool.h"

struct stream {
	struct rc_fleet *f;
	enum rc_stream_format fmt;
	struct rc_prom_spool prom; /* RC_STREAM_PROMETHEUS: the families' samples so far */
	struct rc_group group;	   /* RC_STREAM_TEXT: the devices' findings, grouped */
	struct rc_checks checks;   /* RC_STREAM_TEXT, _JSON: the link and host checks */
	struct rc_dot_spool dot;   /* RC_STREAM_DOT: the nodes' tooltips, the ends' drift */
	/* RC_STREAM_JSON: each device's object in a spool file as it finishes, copied out in
	 * the fleet's order at the end (at[i], len[i]: fleet device i's) */
	FILE *spool;
	long *at, *len;
	struct rc_out out;
	pthread_mutex_t lock;
	struct rc_stream_totals *t;
	void (*after)(void *ctx, size_t done);
	void *ctx;
	size_t done;
	/* link ends of inventory device d: ends[first[d] .. first[d + 1]), each 2 * link + side
	 * (0 = a, 1 = b) */
	size_t *first, *ends;
	struct rc_port_brief *brief; /* [2 * n_links] */
	size_t *fleet_of; /* inventory device -> index in f->devs, SIZE_MAX: not selected */
	/* cabling: each inventory device's LLDP state (enum rc_lldp_state) and the findings
	 * of the devices read so far (a good fabric has none) */
	uint8_t *lldp_state;
	struct rc_cabling cab;
	int cab_rc; /* -ENOMEM: a device's findings were lost */
	/* the ports whose LLDP port ID is an alias (SONiC's lldpmgrd): a neighbour names the
	 * far port by it, and only once every device is read can it be told which port it is
	 * (rc_lldp_resolve does the same for the whole fabric at once) */
	struct stream_alias {
		size_t dev;
		char port[RC_NAME_MAX], alias[RC_NAME_MAX];
	} * alias;
	size_t n_alias, cap_alias;
	/* why each device whose LLDP read failed failed (a healthy fabric has none) */
	struct stream_why {
		size_t dev;
		char *msg;
	} * why;
	size_t n_why, cap_why;
	const struct rc_shard_meta *shard; /* --shard: the merge's data on the lines (shard.h) */
};

static int index_links(struct stream *s, struct rc_err *err)
{
	const struct rc_inventory *inv = s->f->inv;
	size_t nd = inv->n_devices, nl = inv->n_links;
	size_t *fill;

	s->first = calloc(nd + 1, sizeof(*s->first));
	s->ends = calloc(2 * nl + 1, sizeof(*s->ends));
	s->brief = calloc(2 * nl + 1, sizeof(*s->brief));
	s->fleet_of = malloc((nd + 1) * sizeof(*s->fleet_of));
	s->lldp_state = calloc(nd + 1, sizeof(*s->lldp_state));
	fill = calloc(nd + 1, sizeof(*fill));
	if (!s->first || !s->ends || !s->brief || !s->fleet_of || !s->lldp_state || !fill) {
		free(fill);
		return rc_errf(err, ENOMEM, "out of memory");
	}
	for (size_t l = 0; l < nl; l++) {
		s->first[inv->links[l].a.dev + 1]++;
		s->first[inv->links[l].b.dev + 1]++;
	}
	for (size_t d = 0; d < nd; d++)
		s->first[d + 1] += s->first[d];
	for (size_t l = 0; l < nl; l++) {
		size_t a = inv->links[l].a.dev, b = inv->links[l].b.dev;

		s->ends[s->first[a] + fill[a]++] = 2 * l;
		s->ends[s->first[b] + fill[b]++] = 2 * l + 1;
	}
	free(fill);
	for (size_t d = 0; d < nd; d++)
		s->fleet_of[d] = SIZE_MAX;
	for (size_t i = 0; i < s->f->n; i++)
		s->fleet_of[s->f->devs[i].index] = i;
	return 0;
}

static const char *end_port(const struct rc_inventory *inv, size_t end)
{
	const struct rc_link *l = &inv->links[end / 2];

	return end % 2 ? l->b.port : l->a.port;
}

/* The briefs of the device's link ends, from what was read. */
static void keep_briefs(struct stream *s, const struct rc_fleet_dev *d)
{
	const struct rc_devrun *run = &d->run;
	const struct rc_inventory *inv = s->f->inv;

	if (d->rc || !run->read_ok || !run->have)
		return;
	for (size_t k = s->first[d->index]; k < s->first[d->index + 1]; k++) {
		const char *port = end_port(inv, s->ends[k]);

		for (size_t p = 0; p < run->n_ports; p++)
			if (!strcmp(run->have[p].name, port)) {
				rc_port_brief_make(s->f->pol, &run->have[p].qos,
						   &s->brief[s->ends[k]]);
				break;
			}
	}
}

/* One line {"KEY": VALUE}: VALUE is printed with a fresh printer, as a top-level value. */
static void line_open(struct stream *s, const char *key)
{
	rc_out_header_line(&s->out, s->out.f, key);
}

static void line_close(struct stream *s)
{
	fputs("}\n", s->out.f);
}

/* One line {header, "KEY": {...}} for a section whose printer names its own key. */
static void section_open(struct stream *s)
{
	rc_out_init(&s->out, s->out.f, RC_OUT_JSON);
	rc_out_open_object(&s->out, NULL);
}

static void section_close(struct stream *s)
{
	rc_out_close_object(&s->out);
	fputc('\n', s->out.f);
}

/* Under the stream's lock (devices finish in parallel), as keep_cabling is. */
static void keep_aliases(struct stream *s, const struct rc_fleet_dev *d)
{
	for (size_t i = 0; d->lldp && i < d->lldp->nb.n_ids; i++) {
		const struct rc_port_ident *e = &d->lldp->nb.ids[i];
		struct stream_alias *a;

		if (!e->alias[0] || !strcmp(e->alias, e->port))
			continue;
		if (rc_array_reserve((void **)&s->alias, &s->cap_alias, s->n_alias + 1,
				     sizeof(*s->alias), 16)) {
			s->cab_rc = -ENOMEM;
			return;
		}
		a = &s->alias[s->n_alias++];
		a->dev = d->index;
		snprintf(a->port, sizeof(a->port), "%s", e->port);
		snprintf(a->alias, sizeof(a->alias), "%s", e->alias);
	}
}

/* A finding's "seen" end named by the far device's alias becomes that port's name; a
 * miscabled end that then is the wanted one was cabled right all along: dropped. */
static void resolve_aliases(struct stream *s)
{
	const struct rc_inventory *inv = s->f->inv;
	size_t kept = 0;

	for (size_t i = 0; i < s->cab.n; i++) {
		struct rc_cable_finding *f = &s->cab.v[i];
		char *colon = strchr(f->seen, ':');

		for (size_t k = 0; colon && k < s->n_alias; k++) {
			const struct stream_alias *a = &s->alias[k];
			size_t dl = (size_t)(colon - f->seen);

			if (strcmp(colon + 1, a->alias) ||
			    strlen(inv->devices[a->dev].name) != dl ||
			    strncmp(f->seen, inv->devices[a->dev].name, dl))
				continue;
			snprintf(colon + 1, sizeof(f->seen) - dl - 1, "%s", a->port);
			break;
		}
		if (f->kind == RC_CABLE_MISCABLED && !strcmp(f->seen, f->want))
			continue;
		s->cab.v[kept++] = *f;
	}
	s->cab.n = kept;
}

/* The device's cabling findings, from its LLDP (read by the fleet on the device's session);
 * outside the stream's lock: they go only into `mine`. */
static int find_cabling(struct stream *s, const struct rc_fleet_dev *d, struct rc_cabling *mine)
{
	struct rc_err err = {0};

	memset(mine, 0, sizeof(*mine));
	if (d->lldp && rc_cabling_check_device(mine, s->f->inv, d->index, d->lldp,
					       s->ends + s->first[d->index],
					       s->first[d->index + 1] - s->first[d->index], &err))
		return -ENOMEM;
	return 0;
}

/* Why the device's LLDP could not be read, kept for the report (a failed read is said, not
 * only counted as unknown).  Under the stream's lock. */
static void keep_why(struct stream *s, const struct rc_fleet_dev *d)
{
	struct stream_why *w;

	if (!d->lldp || d->lldp->state != RC_LLDP_ERROR || !d->lldp->err.msg[0])
		return;
	if (rc_array_reserve((void **)&s->why, &s->cap_why, s->n_why + 1, sizeof(*s->why), 8)) {
		s->cab_rc = -ENOMEM;
		return;
	}
	w = &s->why[s->n_why];
	w->dev = d->index;
	w->msg = strdup(d->lldp->err.msg);
	if (!w->msg)
		s->cab_rc = -ENOMEM;
	else
		s->n_why++;
}

/* The state, aliases and error of the device's LLDP kept, the LLDP freed: under the
 * stream's lock. */
static void keep_cabling(struct stream *s, struct rc_fleet_dev *d)
{
	/* a device whose session never opened was not read: as rc_lldp_read says of it */
	s->lldp_state[d->index] = (uint8_t)(d->lldp ? d->lldp->state : RC_LLDP_ERROR);
	keep_aliases(s, d);
	keep_why(s, d);
	rc_lldp_dev_free(d->lldp);
	d->lldp = NULL;
}

static void merge_cabling(struct stream *s, struct rc_cabling *mine)
{
	if (mine->n && !rc_array_reserve((void **)&s->cab.v, &s->cab.cap, s->cab.n + mine->n,
					 sizeof(*s->cab.v), 8)) {
		memcpy(s->cab.v + s->cab.n, mine->v, mine->n * sizeof(*mine->v));
		s->cab.n += mine->n;
	} else if (mine->n) {
		s->cab_rc = -ENOMEM;
	}
	rc_cabling_fini(mine);
}

/* The device's object of the JSON report's "devices" array, into the spool. */
static void spool_device(struct stream *s, const struct rc_fleet_dev *d,
			 const struct rc_device *dev, const struct rc_changes *c)
{
	size_t i = (size_t)(d - s->f->devs);
	struct rc_out o;

	rc_out_init(&o, s->spool, RC_OUT_JSON);
	o.no_header = true; /* a value inside the report, not a document */
	s->at[i] = ftell(s->spool);
	rc_report_device_timed(&o, RC_REPORT_VERIFY, dev->name, rc_driver_name_for(dev),
			       d->rc ? NULL : c, d->rc ? d->err.msg : NULL,
			       &(struct rc_report_times){.read = true, .read_ms = d->read_ms});
	s->len[i] = ftell(s->spool) - s->at[i];
}

static void on_read(struct rc_fleet *f, struct rc_fleet_dev *d, void *ctx)
{
	struct stream *s = ctx;
	const struct rc_device *dev = &f->inv->devices[d->index];
	const struct rc_changes *c = &d->run.changes;
	size_t n =
	    d->rc ? 0 : rc_changes_count(c, RC_CHANGE_SET) + rc_changes_count(c, RC_CHANGE_UNKNOWN);
	struct rc_cabling mine;
	struct rc_prom_lines lines;
	bool made;
	int found;

	keep_briefs(s, d);
	if (s->fmt == RC_STREAM_DOT)
		rc_dot_spool_ends(&s->dot, f->inv, d, s->ends + s->first[d->index],
				  s->first[d->index + 1] - s->first[d->index]);
	found = find_cabling(s, d, &mine);
	/* the samples made outside the lock: the other workers' devices wait for it */
	made = s->fmt == RC_STREAM_PROMETHEUS && !rc_prom_lines_make(&lines, dev, d);
	pthread_mutex_lock(&s->lock);
	if (found)
		s->cab_rc = found;
	if (s->fmt == RC_STREAM_PROMETHEUS && made) {
		rc_prom_spool_add(&s->prom, &lines);
	} else if (s->fmt == RC_STREAM_PROMETHEUS) {
		rc_prom_spool_device(&s->prom, dev, d);
	} else if (s->fmt == RC_STREAM_TEXT) {
		rc_group_device(&s->group, dev, rc_driver_name_for(dev), d->rc ? NULL : c,
				d->rc ? d->err.msg : NULL,
				&(struct rc_report_times){.read = true, .read_ms = d->read_ms});
	} else if (s->fmt == RC_STREAM_JSON) {
		spool_device(s, d, dev, c);
	} else if (s->fmt == RC_STREAM_DOT) {
		rc_dot_spool_device(&s->dot, f, d);
	} else {
		line_open(s, "device");
		rc_report_device_timed(
		    &s->out, RC_REPORT_VERIFY, dev->name, rc_driver_name_for(dev), d->rc ? NULL : c,
		    d->rc ? d->err.msg : NULL,
		    &(struct rc_report_times){.read = true, .read_ms = d->read_ms});
		if (s->shard) /* before keep_cabling frees the device's LLDP */
			rc_shard_device_data(&s->out, f->inv, d, s->brief,
					     s->ends + s->first[d->index],
					     s->first[d->index + 1] - s->first[d->index]);
		line_close(s);
	}
	keep_cabling(s, d);
	merge_cabling(s, &mine);
	s->t->devices++;
	s->t->failed += d->rc != 0;
	s->t->with_changes += n > 0;
	s->t->changes += n;
	/* the full state goes now: only the briefs and the verdict stay.  n_changes (the SET
	 * count) is what the caller still reads (cli/fleet_cmd.c: clear_verified) */
	rc_devrun_close(&d->run);
	d->opened = false;
	rc_counters_fini(&d->counters);
	s->done++;
	if (s->after)
		s->after(s->ctx, s->done);
	pthread_mutex_unlock(&s->lock);
}

/* The brief of one link end, expanded, or NULL when its device was not read. */
static const struct port_qos *end_qos(const struct stream *s, size_t end, struct port_qos *q)
{
	const struct rc_link *l = &s->f->inv->links[end / 2];
	size_t dev = end % 2 ? l->b.dev : l->a.dev;
	size_t i = s->fleet_of[dev];

	if (i == SIZE_MAX || s->f->devs[i].rc || !(s->brief[end].flags & RC_BRIEF_READ))
		return NULL;
	rc_port_brief_expand(s->f->pol, &s->brief[end], q);
	return q;
}

/* Link `l`'s check; false when it is not judged: a link half outside --limit (as
 * rc_result_build). */
static bool link_check(struct stream *s, size_t l, struct rc_link_check *lc)
{
	const struct rc_inventory *inv = s->f->inv;
	struct port_qos qa, qb;

	if (s->fleet_of[inv->links[l].a.dev] == SIZE_MAX ||
	    s->fleet_of[inv->links[l].b.dev] == SIZE_MAX)
		return false;
	rc_check_link_ends(s->f->pol, inv, l, end_qos(s, 2 * l, &qa), end_qos(s, 2 * l + 1, &qb),
			   lc);
	return true;
}

/* Host `dev`'s check from the switch side of each of its links; false when it has none. */
static bool host_check(struct stream *s, size_t dev, struct rc_host_check *hc)
{
	const struct rc_inventory *inv = s->f->inv;
	char where[2 * RC_NAME_MAX];
	struct port_qos q;

	rc_host_check_begin(hc, dev);
	for (size_t k = s->first[dev]; k < s->first[dev + 1]; k++) {
		size_t far = s->ends[k] ^ 1; /* the other end of the same link */
		const struct rc_link *l = &inv->links[far / 2];
		size_t fdev = far % 2 ? l->b.dev : l->a.dev;

		snprintf(where, sizeof(where), "%s:%s", inv->devices[fdev].name,
			 end_port(inv, far));
		rc_host_check_side(
		    hc, s->f->pol,
		    inv->devices[fdev].kind == RC_DEV_SWITCH ? end_qos(s, far, &q) : NULL, where);
	}
	return rc_host_check_end(hc);
}

/* The link checks, printed (DOT: counted; its picture makes them again, one at a time) */
static void print_links(struct stream *s, struct rc_link_check *lc)
{
	const struct rc_inventory *inv = s->f->inv;

	for (size_t l = 0; l < inv->n_links; l++) {
		if (!link_check(s, l, lc))
			continue;
		s->t->links++;
		s->t->bad_links += lc->status != RC_CHECK_OK;
		if (s->fmt == RC_STREAM_PROMETHEUS) {
			rc_prom_spool_link(&s->prom, inv, l, lc->status);
			continue;
		}
		if (s->fmt == RC_STREAM_TEXT || s->fmt == RC_STREAM_JSON) {
			rc_checks_link(&s->checks, inv, lc);
			continue;
		}
		if (s->fmt == RC_STREAM_DOT)
			continue;
		line_open(s, "link");
		rc_report_link(&s->out, inv, lc);
		line_close(s);
	}
}

static void print_hosts(struct stream *s, struct rc_host_check *hc)
{
	const struct rc_inventory *inv = s->f->inv;

	for (size_t i = 0; i < s->f->n; i++) {
		size_t dev = s->f->devs[i].index;

		if (inv->devices[dev].kind != RC_DEV_HOST || !host_check(s, dev, hc))
			continue;
		s->t->hosts++;
		s->t->bad_hosts += hc->status != RC_CHECK_OK;
		if (s->fmt == RC_STREAM_PROMETHEUS) {
			rc_prom_spool_host(&s->prom, inv, dev, hc->status);
			continue;
		}
		if (s->fmt == RC_STREAM_TEXT || s->fmt == RC_STREAM_JSON) {
			rc_checks_host(&s->checks, inv, hc);
			continue;
		}
		if (s->fmt == RC_STREAM_DOT)
			continue;
		line_open(s, "host");
		rc_report_host(&s->out, inv, hc);
		line_close(s);
	}
}

/* The picture's checks (stream_dot.c): the stream's, one at a time. */
static bool dot_host(void *ctx, size_t dev, struct rc_host_check *hc)
{
	return host_check(ctx, dev, hc);
}

static bool dot_link(void *ctx, size_t li, struct rc_link_check *lc)
{
	return link_check(ctx, li, lc);
}

static bool dl_selected(const void *ctx, size_t dev)
{
	return ((const struct stream *)ctx)->fleet_of[dev] != SIZE_MAX;
}

static const char *dl_watchdog(const void *ctx, size_t link, int side)
{
	const struct stream *s = ctx;
	const struct rc_port_brief *b = &s->brief[2 * link + (size_t)side];
	struct port_qos q;

	if (!end_qos(s, 2 * link + (size_t)side, &q) || !(b->known & RC_F_WATCHDOG) ||
	    (b->unsupported & RC_F_WATCHDOG))
		return "unknown";
	return q.watchdog.enabled ? "on" : "off";
}

/* The deadlock risk of the topology, the ports' watchdogs from their briefs. */
static int print_deadlock(struct stream *s, struct rc_err *err)
{
	struct rc_dl_ends e = {.lossless = s->f->pol->pfc_priorities,
			       .selected = dl_selected,
			       .watchdog = dl_watchdog,
			       .ctx = s};
	struct rc_deadlock dl;
	int rc = rc_deadlock_analyze(&dl, s->f->inv, err);

	if (rc)
		return rc;
	if (s->fmt == RC_STREAM_PROMETHEUS || s->fmt == RC_STREAM_DOT) {
		/* the picture has no deadlock section: counted for the exit code */
		s->t->deadlock_unprotected = rc_deadlock_unprotected_ends(&dl, &e);
		if (s->fmt == RC_STREAM_PROMETHEUS)
			rc_report_deadlock_prom_n(s->out.f, &dl, s->t->deadlock_unprotected);
	} else if (s->fmt == RC_STREAM_TEXT || s->fmt == RC_STREAM_JSON) {
		rc_report_deadlock_ends(&s->out, &dl, &e, &s->t->deadlock_unprotected);
	} else {
		section_open(s);
		rc_report_deadlock_ends(&s->out, &dl, &e, &s->t->deadlock_unprotected);
		section_close(s);
	}
	rc_deadlock_fini(&dl);
	return 0;
}

static enum rc_lldp_state cab_state(const void *ctx, size_t dev)
{
	return (enum rc_lldp_state)((const struct stream *)ctx)->lldp_state[dev];
}

static int why_cmp(const void *a, const void *b)
{
	size_t x = ((const struct stream_why *)a)->dev, y = ((const struct stream_why *)b)->dev;

	return x < y ? -1 : x > y;
}

/* s->why sorted by device (print_cabling sorts it once every device is read). */
static const char *cab_why(const void *ctx, size_t dev)
{
	const struct stream *s = ctx;
	struct stream_why key = {.dev = dev}, *w;

	w = s->n_why ? bsearch(&key, s->why, s->n_why, sizeof(*s->why), why_cmp) : NULL;
	return w ? w->msg : NULL;
}

/* Findings in rc_cabling_check's order: by link (end a, then b), then the extra ones by
 * device, each device's in the order its LLDP listed them (one device's were added
 * together, in that order: their position breaks ties, qsort being unstable). */
static struct {
	const struct rc_inventory *inv;
	const struct rc_cable_finding *v;
} sort_by;

static int finding_cmp(const void *x, const void *y)
{
	size_t ia = *(const size_t *)x, ib = *(const size_t *)y;
	const struct rc_cable_finding *a = &sort_by.v[ia], *b = &sort_by.v[ib];
	bool ea = a->link == SIZE_MAX, eb = b->link == SIZE_MAX;
	size_t ka = ea ? a->dev : a->link, kb = eb ? b->dev : b->link;

	if (ea != eb)
		return ea ? 1 : -1;
	if (ka != kb)
		return ka < kb ? -1 : 1;
	if (!ea) {
		const struct rc_link_end *la = &sort_by.inv->links[a->link].a;
		bool sa = a->dev == la->dev && !strcmp(a->port, la->port);
		bool sb = b->dev == la->dev && !strcmp(b->port, la->port);

		if (sa != sb)
			return sa ? -1 : 1;
	}
	return ia < ib ? -1 : ia > ib;
}

static int sort_findings(struct rc_cabling *c, const struct rc_inventory *inv)
{
	size_t *idx = malloc((c->n ? c->n : 1) * sizeof(*idx));
	struct rc_cable_finding *v = malloc((c->n ? c->n : 1) * sizeof(*v));

	if (!idx || !v) {
		free(idx);
		free(v);
		return -ENOMEM;
	}
	for (size_t i = 0; i < c->n; i++)
		idx[i] = i;
	sort_by.inv = inv;
	sort_by.v = c->v;
	qsort(idx, c->n, sizeof(*idx), finding_cmp);
	for (size_t i = 0; i < c->n; i++)
		v[i] = c->v[idx[i]];
	free(idx);
	free(c->v);
	c->v = v;
	c->cap = c->n ? c->n : 1;
	return 0;
}

static int print_cabling(struct stream *s, struct rc_err *err)
{
	const struct rc_inventory *inv = s->f->inv;

	if (s->cab_rc)
		return rc_errf(err, ENOMEM, "out of memory (cabling findings)");
	for (size_t k = 0; k < inv->n_links; k++) {
		bool read = s->lldp_state[inv->links[k].a.dev] == RC_LLDP_OK ||
			    s->lldp_state[inv->links[k].b.dev] == RC_LLDP_OK;

		s->cab.links_checked += read;
		s->cab.links_unknown += !read;
	}
	resolve_aliases(s);
	if (s->fmt == RC_STREAM_DOT) { /* no section in the picture: counted */
		s->t->cabling = s->cab.n;
		return 0;
	}
	if (s->n_why)
		qsort(s->why, s->n_why, sizeof(*s->why), why_cmp);
	if (sort_findings(&s->cab, inv))
		return rc_errf(err, ENOMEM, "out of memory (cabling findings)");
	if (s->fmt == RC_STREAM_PROMETHEUS) {
		rc_report_cabling_prom(s->out.f, &s->cab);
		s->t->cabling = s->cab.n;
		return 0;
	}
	if (s->fmt == RC_STREAM_TEXT || s->fmt == RC_STREAM_JSON) {
		s->t->cabling =
		    rc_report_cabling_states(&s->out, inv, cab_state, cab_why, s, &s->cab);
		return 0;
	}
	section_open(s);
	s->t->cabling = rc_report_cabling_states(&s->out, inv, cab_state, cab_why, s, &s->cab);
	section_close(s);
	return 0;
}

void rc_stream_summary_line(FILE *f, const struct rc_stream_totals *t,
			    const struct rc_shard_meta *shard)
{
	struct rc_out o;

	rc_out_header_line(&o, f, "summary");
	rc_out_open_object(&o, NULL);
	rc_out_str(&o, "command", NULL, "verify");
	rc_report_summary_counts(&o, "verify", t->changes, t->with_changes, t->devices, t->failed);
	rc_out_uint(&o, "links", NULL, t->links);
	rc_out_uint(&o, "links_inconsistent", NULL, t->bad_links);
	rc_out_uint(&o, "hosts", NULL, t->hosts);
	rc_out_uint(&o, "hosts_asymmetric", NULL, t->bad_hosts);
	rc_out_uint(&o, "deadlock_unprotected", NULL, t->deadlock_unprotected);
	rc_out_uint(&o, "cabling_problems", NULL, t->cabling);
	rc_out_close_object(&o);
	if (shard)
		rc_shard_summary_meta(&o, shard);
	fputs("}\n", f);
}

static void print_summary(struct stream *s)
{
	rc_stream_summary_line(s->out.f, s->t, s->shard);
}

/* Text: the devices' findings grouped, kept in inventory order whatever order they finish
 * in (rc_group_in_order). */
static int text_begin(struct stream *s, bool details, struct rc_err *err)
{
	rc_out_init(&s->out, s->out.f, RC_OUT_TEXT);
	s->out.details = details;
	rc_group_init(&s->group, &s->out, RC_REPORT_VERIFY);
	if (rc_group_in_order(&s->group, s->f->inv->devices, s->f->inv->n_devices))
		return rc_errf(err, ENOMEM, "out of memory");
	return 0;
}

/* JSON: the report's object opened, its devices spooled as they finish. */
static int json_begin(struct stream *s, struct rc_err *err)
{
	size_t n = s->f->n ? s->f->n : 1;

	s->spool = tmpfile();
	s->at = calloc(n, sizeof(*s->at));
	s->len = calloc(n, sizeof(*s->len));
	if (!s->spool || !s->at || !s->len)
		return rc_errf(err, s->spool ? ENOMEM : errno, "cannot make the report's spool");
	rc_out_init(&s->out, s->out.f, RC_OUT_JSON);
	rc_out_open_object(&s->out, NULL);
	rc_out_str(&s->out, "command", NULL, "verify");
	return 0;
}

/* The "devices" array: each device's object from the spool, in the fleet's order (the
 * order the whole-fleet report has). */
static int json_devices(struct stream *s, struct rc_err *err)
{
	int bad = fflush(s->spool) ? errno : 0;

	rc_out_open_array(&s->out, "devices");
	for (size_t i = 0; !bad && i < s->f->n; i++) {
		if (i)
			fputc(',', s->out.f);
		bad = rc_spool_copy(s->out.f, s->spool, s->at[i], s->len[i]);
	}
	rc_out_close_array(&s->out);
	return bad ? rc_errf(err, bad, "cannot copy the report's devices: %s", strerror(bad)) : 0;
}

/* JSON: the summary of the whole-fleet report, the object closed. */
static void json_end(struct stream *s)
{
	const struct rc_stream_totals *t = s->t;

	rc_out_open_object(&s->out, "summary");
	rc_report_summary_counts(&s->out, "verify", t->changes, t->with_changes, t->devices,
				 t->failed);
	rc_out_close_object(&s->out);
	rc_out_close_object(&s->out);
	rc_out_end(&s->out);
}

int rc_stream_verify_as(struct rc_fleet *f, const struct rc_stream_opts *o, FILE *out,
			struct rc_stream_totals *t, void (*after)(void *ctx, size_t done),
			void *ctx, struct rc_err *err)
{
	enum rc_stream_format fmt = o->fmt;
	struct stream s = {
	    .f = f, .fmt = fmt, .t = t, .after = after, .ctx = ctx, .shard = o->shard};
	struct rc_link_check *lc = NULL;
	struct rc_host_check *hc = NULL;
	int rc;

	memset(t, 0, sizeof(*t));
	rc_out_init(&s.out, out, RC_OUT_JSON);
	rc = index_links(&s, err);
	if (!rc && fmt == RC_STREAM_PROMETHEUS)
		rc = rc_prom_spool_init(&s.prom, err);
	if (!rc && fmt == RC_STREAM_TEXT)
		rc = text_begin(&s, o->details, err);
	if (!rc && fmt == RC_STREAM_JSON)
		rc = json_begin(&s, err);
	if (!rc && fmt == RC_STREAM_DOT)
		rc = rc_dot_spool_init(&s.dot, f, err);
	if (!rc) {
		lc = malloc(sizeof(*lc));
		hc = malloc(sizeof(*hc));
		if (!lc || !hc)
			rc = rc_errf(err, ENOMEM, "out of memory");
	}
	if (!rc) {
		pthread_mutex_init(&s.lock, NULL);
		f->on_read = on_read;
		f->on_read_ctx = &s;
		rc_fleet_read(f);
		f->on_read = NULL;
		f->on_read_ctx = NULL;
		pthread_mutex_destroy(&s.lock);
		if (fmt == RC_STREAM_TEXT)
			rc_group_print(&s.group);
		if (fmt == RC_STREAM_JSON)
			rc = json_devices(&s, err);
		if (fmt == RC_STREAM_TEXT || fmt == RC_STREAM_JSON)
			rc_checks_begin(&s.checks, &s.out);
		print_links(&s, lc);
		print_hosts(&s, hc);
		if (fmt == RC_STREAM_TEXT || fmt == RC_STREAM_JSON)
			rc_checks_end(&s.checks);
		if (!rc && fmt == RC_STREAM_PROMETHEUS)
			rc = rc_prom_spool_write(&s.prom, out, time(NULL), err);
		if (!rc && fmt == RC_STREAM_DOT)
			rc = rc_dot_spool_write(
			    &s.dot, out, f,
			    &(struct rc_dot_checks){.host = dot_host, .link = dot_link, .ctx = &s},
			    err);
		if (!rc)
			rc = print_deadlock(&s, err);
		if (!rc)
			rc = print_cabling(&s, err);
		if (fmt == RC_STREAM_JSONL)
			print_summary(&s);
		if (fmt == RC_STREAM_JSON)
			json_end(&s);
		fflush(out);
	}
	free(lc);
	free(hc);
	if (fmt == RC_STREAM_PROMETHEUS)
		rc_prom_spool_fini(&s.prom);
	if (fmt == RC_STREAM_TEXT)
		rc_group_fini(&s.group);
	if (fmt == RC_STREAM_DOT)
		rc_dot_spool_fini(&s.dot);
	if (s.spool)
		fclose(s.spool);
	free(s.at);
	free(s.len);
	free(s.first);
	free(s.ends);
	free(s.brief);
	free(s.fleet_of);
	free(s.lldp_state);
	free(s.alias);
	for (size_t i = 0; i < s.n_why; i++)
		free(s.why[i].msg);
	free(s.why);
	rc_cabling_fini(&s.cab);
	return rc;
}

int rc_stream_verify(struct rc_fleet *f, FILE *out, struct rc_stream_totals *t,
		     void (*after)(void *ctx, size_t done), void *ctx, struct rc_err *err)
{
	return rc_stream_verify_as(f, &(struct rc_stream_opts){.fmt = RC_STREAM_JSONL}, out, t,
				   after, ctx, err);
}

int rc_stream_verify_shard(struct rc_fleet *f, FILE *out, struct rc_stream_totals *t,
			   const struct rc_shard_meta *meta, struct rc_err *err)
{
	return rc_stream_verify_as(f,
				   &(struct rc_stream_opts){.fmt = RC_STREAM_JSONL, .shard = meta},
				   out, t, NULL, NULL, err);
}
