/* SPDX-License-Identifier: Apache-2.0 */
/* verify --format dot while devices are read (engine/report/report_dot.h): the picture is
 * drawn only once every device is read (a host's node says its host check, which needs
 * every switch it is cabled to, and the tiers come in the fleet's order, not the order
 * devices finish), so each device leaves, when it finishes, the part of its node that only
 * its full state can say (its tooltip's drifted fields) in a spool file, on disk, and a few
 * bytes: whether it was read and drifted, and each of its link ends' drift.  The layout is
 * rc_report_dot's (rc_dot_write), the link and host checks the stream's, made one at a time
 * from its per-link-end briefs. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report_dot.h"
#include "spool.h"

enum dot_dev_flag {
	DOT_DEV_OK = 1u << 0,	   /* rc_dot_dev_ok */
	DOT_DEV_DRIFTED = 1u << 1, /* rc_dot_dev_drift > 0 */
};

int rc_dot_spool_init(struct rc_dot_spool *ds, const struct rc_fleet *f, struct rc_err *err)
{
	size_t n = f->n ? f->n : 1, ends = 2 * f->inv->n_links + 1;

	memset(ds, 0, sizeof(*ds));
	ds->f = tmpfile();
	ds->at = calloc(n, sizeof(*ds->at));
	ds->len = calloc(n, sizeof(*ds->len));
	ds->lines = calloc(n, sizeof(*ds->lines));
	ds->flags = calloc(n, sizeof(*ds->flags));
	ds->drift = calloc(ends, sizeof(*ds->drift));
	if (!ds->f || !ds->at || !ds->len || !ds->lines || !ds->flags || !ds->drift)
		return rc_errf(err, ds->f ? ENOMEM : errno, "cannot make the picture's spool");
	return 0;
}

void rc_dot_spool_ends(struct rc_dot_spool *ds, const struct rc_inventory *inv,
		       const struct rc_fleet_dev *d, const size_t *ends, size_t n_ends)
{
	if (!rc_dot_dev_ok(d))
		return;
	for (size_t k = 0; k < n_ends; k++) {
		const struct rc_link *l = &inv->links[ends[k] / 2];
		size_t drift = rc_result_port_drift(d, ends[k] % 2 ? l->b.port : l->a.port);

		ds->drift[ends[k]] = drift > UINT32_MAX ? UINT32_MAX : (uint32_t)drift;
	}
}

void rc_dot_spool_device(struct rc_dot_spool *ds, const struct rc_fleet *f,
			 const struct rc_fleet_dev *d)
{
	size_t i = (size_t)(d - f->devs), lines = 0;

	ds->flags[i] = (uint8_t)((rc_dot_dev_ok(d) ? DOT_DEV_OK : 0) |
				 (rc_dot_dev_drift(d) ? DOT_DEV_DRIFTED : 0));
	ds->at[i] = ftell(ds->f);
	rc_dot_node_device(ds->f, &f->inv->devices[d->index], d, &lines);
	ds->len[i] = ftell(ds->f) - ds->at[i];
	ds->lines[i] = (uint8_t)lines; /* at most the tooltip's 20 */
}

/* What the picture's callbacks need: the spool, the stream's checks, the link cursor. */
struct drawing {
	struct rc_dot_spool *ds;
	const struct rc_dot_checks *c;
	struct rc_host_check *hc;
	struct rc_link_check *lc;
	size_t next; /* the next inventory link */
	int bad;     /* an errno of the spool's copy */
};

static void spool_node(FILE *f, const struct rc_dot_src *s, size_t i)
{
	struct drawing *w = s->ctx;
	size_t dev = s->fleet->devs[i].index, lines = w->ds->lines[i];
	bool has_hc = s->inv->devices[dev].kind == RC_DEV_HOST && w->c->host(w->c->ctx, dev, w->hc);
	int bad;

	rc_dot_node_open(f, &s->inv->devices[dev], w->ds->flags[i] & DOT_DEV_OK,
			 w->ds->flags[i] & DOT_DEV_DRIFTED, has_hc ? w->hc : NULL);
	bad = rc_spool_copy(f, w->ds->f, w->ds->at[i], w->ds->len[i]);
	if (bad && !w->bad)
		w->bad = bad;
	rc_dot_node_close(f, has_hc ? w->hc : NULL, &lines);
}

static const struct rc_link_check *spool_next_link(const struct rc_dot_src *s)
{
	struct drawing *w = s->ctx;

	while (w->next < s->inv->n_links)
		if (w->c->link(w->c->ctx, w->next++, w->lc))
			return w->lc;
	return NULL;
}

static size_t spool_end_drift(const struct rc_dot_src *s, size_t li, int side)
{
	const struct drawing *w = s->ctx;

	return w->ds->drift[2 * li + (size_t)side];
}

int rc_dot_spool_write(struct rc_dot_spool *ds, FILE *out, const struct rc_fleet *f,
		       const struct rc_dot_checks *c, struct rc_err *err)
{
	struct drawing w = {.ds = ds, .c = c};

	w.hc = malloc(sizeof(*w.hc));
	w.lc = malloc(sizeof(*w.lc));
	if (!w.hc || !w.lc) {
		free(w.hc);
		free(w.lc);
		return rc_errf(err, ENOMEM, "out of memory");
	}
	if (fflush(ds->f))
		w.bad = errno ? errno : EIO;
	rc_dot_write(out, &(struct rc_dot_src){.inv = f->inv,
					       .fleet = f,
					       .node = spool_node,
					       .next_link = spool_next_link,
					       .end_drift = spool_end_drift,
					       .ctx = &w});
	free(w.hc);
	free(w.lc);
	if (w.bad)
		return rc_errf(err, w.bad, "cannot copy the picture's nodes: %s", strerror(w.bad));
	return 0;
}

void rc_dot_spool_fini(struct rc_dot_spool *ds)
{
	if (ds->f)
		fclose(ds->f);
	free(ds->at);
	free(ds->len);
	free(ds->lines);
	free(ds->flags);
	free(ds->drift);
	memset(ds, 0, sizeof(*ds));
}
