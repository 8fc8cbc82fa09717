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

#include "rocectl/report.h"
#include "rocectl/result.h"
#include "rocectl/stream.h"

struct stream {
	struct rc_fleet *f;
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
	fill = calloc(nd + 1, sizeof(*fill));
	if (!s->first || !s->ends || !s->brief || !s->fleet_of || !fill) {
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

static void on_read(struct rc_fleet *f, struct rc_fleet_dev *d, void *ctx)
{
	struct stream *s = ctx;
	const struct rc_device *dev = &f->inv->devices[d->index];
	const struct rc_changes *c = &d->run.changes;
	size_t n =
	    d->rc ? 0 : rc_changes_count(c, RC_CHANGE_SET) + rc_changes_count(c, RC_CHANGE_UNKNOWN);

	keep_briefs(s, d);
	pthread_mutex_lock(&s->lock);
	line_open(s, "device");
	rc_report_device(&s->out, RC_REPORT_VERIFY, dev->name, rc_driver_name_for(dev),
			 d->rc ? NULL : c, d->rc ? d->err.msg : NULL);
	line_close(s);
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

static void print_links(struct stream *s, struct rc_link_check *lc)
{
	const struct rc_inventory *inv = s->f->inv;
	struct port_qos qa, qb;

	for (size_t l = 0; l < inv->n_links; l++) {
		/* a link half outside --limit is not judged (as rc_result_build) */
		if (s->fleet_of[inv->links[l].a.dev] == SIZE_MAX ||
		    s->fleet_of[inv->links[l].b.dev] == SIZE_MAX)
			continue;
		rc_check_link_ends(s->f->pol, inv, l, end_qos(s, 2 * l, &qa),
				   end_qos(s, 2 * l + 1, &qb), lc);
		s->t->links++;
		s->t->bad_links += lc->status != RC_CHECK_OK;
		line_open(s, "link");
		rc_report_link(&s->out, inv, lc);
		line_close(s);
	}
}

static void print_hosts(struct stream *s, struct rc_host_check *hc)
{
	const struct rc_inventory *inv = s->f->inv;
	char where[2 * RC_NAME_MAX];
	struct port_qos q;

	for (size_t i = 0; i < s->f->n; i++) {
		size_t dev = s->f->devs[i].index;

		if (inv->devices[dev].kind != RC_DEV_HOST)
			continue;
		rc_host_check_begin(hc, dev);
		for (size_t k = s->first[dev]; k < s->first[dev + 1]; k++) {
			size_t far = s->ends[k] ^ 1; /* the other end of the same link */
			const struct rc_link *l = &inv->links[far / 2];
			size_t fdev = far % 2 ? l->b.dev : l->a.dev;

			snprintf(where, sizeof(where), "%s:%s", inv->devices[fdev].name,
				 end_port(inv, far));
			rc_host_check_side(
			    hc, s->f->pol,
			    inv->devices[fdev].kind == RC_DEV_SWITCH ? end_qos(s, far, &q) : NULL,
			    where);
		}
		if (!rc_host_check_end(hc))
			continue;
		s->t->hosts++;
		s->t->bad_hosts += hc->status != RC_CHECK_OK;
		line_open(s, "host");
		rc_report_host(&s->out, inv, hc);
		line_close(s);
	}
}

static void print_summary(struct stream *s)
{
	const struct rc_stream_totals *t = s->t;

	line_open(s, "summary");
	rc_out_open_object(&s->out, NULL);
	rc_out_str(&s->out, "command", NULL, "verify");
	rc_out_uint(&s->out, "drifted_fields", NULL, t->changes);
	rc_out_uint(&s->out, "devices_with_changes", NULL, t->with_changes);
	rc_out_uint(&s->out, "devices", NULL, t->devices);
	rc_out_uint(&s->out, "errors", NULL, t->failed);
	rc_out_uint(&s->out, "links", NULL, t->links);
	rc_out_uint(&s->out, "links_inconsistent", NULL, t->bad_links);
	rc_out_uint(&s->out, "hosts", NULL, t->hosts);
	rc_out_uint(&s->out, "hosts_asymmetric", NULL, t->bad_hosts);
	rc_out_close_object(&s->out);
	line_close(s);
}

int rc_stream_verify(struct rc_fleet *f, FILE *out, struct rc_stream_totals *t,
		     void (*after)(void *ctx, size_t done), void *ctx, struct rc_err *err)
{
	struct stream s = {.f = f, .t = t, .after = after, .ctx = ctx};
	struct rc_link_check *lc = NULL;
	struct rc_host_check *hc = NULL;
	int rc;

	memset(t, 0, sizeof(*t));
	rc_out_init(&s.out, out, RC_OUT_JSON);
	rc = index_links(&s, err);
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
		print_links(&s, lc);
		print_hosts(&s, hc);
		print_summary(&s);
		fflush(out);
	}
	free(lc);
	free(hc);
	free(s.first);
	free(s.ends);
	free(s.brief);
	free(s.fleet_of);
	return rc;
}
