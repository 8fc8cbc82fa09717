/* rocectl trace -p P -i I A B: every path between two hosts through the link graph (each
 * NIC, each leaf, every equal-cost spine), each hop with its state, the first misaligned
 * hop of each path marked.  Only the devices on the paths are read.
 *
 * JSON (--format json):
 *   {"command":"trace","from":A,"to":B,"status":"ok|misaligned|error",
 *    "paths":[{"hops":[{"device","in","out","status":"ok|drift|unknown|error",
 *                       "problems":["pfc_enabled: want 3, have none", ...]}],
 *              "first_misaligned": N | null}]}
 * Exit: 0 every hop aligned, 2 a hop is misaligned, 1 error. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/cli.h"
#include "rocectl/result.h"

#define MAX_HOPS     5
#define MAX_PATHS    256
#define MAX_PROBLEMS 8

struct hop {
	size_t dev;
	const char *in, *out; /* ports; NULL at the path's ends */
	size_t link_in;	      /* link from the previous hop; SIZE_MAX at the first hop */
};

struct path {
	size_t n;
	struct hop h[MAX_HOPS];
};

struct trace {
	const struct rc_inventory *inv;
	size_t n;
	struct path p[MAX_PATHS];
};

struct trace_opts {
	const char *policy, *inventory;
	bool json;
};

static const struct rc_option options[] = {
    {"policy", 'p', "FILE", "the policy (YAML)", 'p'},
    {"inventory", 'i', "FILE", "the inventory (YAML)", 'i'},
    {"format", 0, "FMT", "text (default) or json", 256},
    {NULL, 0, NULL, NULL, 0},
};

static int on_option(int id, const char *arg, void *ctx)
{
	struct trace_opts *o = ctx;

	if (id == 'p')
		o->policy = arg;
	else if (id == 'i')
		o->inventory = arg;
	else if (!strcmp(arg, "json") || !strcmp(arg, "text"))
		o->json = !strcmp(arg, "json");
	else {
		fprintf(stderr, "rocectl trace: --format: '%s' is not text or json\n", arg);
		return -EINVAL;
	}
	return 0;
}

/* The far end of link `li` seen from device `dev`; NULL when the link is not dev's. */
static const struct rc_link_end *far_end(const struct rc_link *l, size_t dev,
					 const char **near_port)
{
	if (l->a.dev == dev) {
		*near_port = l->a.port;
		return &l->b;
	}
	if (l->b.dev == dev) {
		*near_port = l->b.port;
		return &l->a;
	}
	return NULL;
}

static void add_path(struct trace *t, const struct hop *h, size_t n)
{
	if (t->n == MAX_PATHS)
		return;
	t->p[t->n].n = n;
	memcpy(t->p[t->n].h, h, n * sizeof(*h));
	t->n++;
}

/* Paths leaf X -> spine -> leaf Y, appended after A's two first hops. */
static void via_spines(struct trace *t, struct hop *h, size_t x, size_t y, const char *y_port,
		       size_t y_link, size_t b, const char *b_port)
{
	const struct rc_inventory *inv = t->inv;

	for (size_t l1 = 0; l1 < inv->n_links; l1++) {
		const char *ux, *sx;
		const struct rc_link_end *s = far_end(&inv->links[l1], x, &ux);

		if (!s || inv->devices[s->dev].role != RC_ROLE_SPINE)
			continue;
		sx = s->port;
		for (size_t l2 = 0; l2 < inv->n_links; l2++) {
			const char *sy;
			const struct rc_link_end *yy = far_end(&inv->links[l2], s->dev, &sy);

			if (!yy || yy->dev != y)
				continue;
			h[1].out = ux;
			h[2] = (struct hop){s->dev, sx, sy, l1};
			h[3] = (struct hop){y, yy->port, y_port, l2};
			h[4] = (struct hop){b, b_port, NULL, y_link};
			add_path(t, h, 5);
		}
	}
}

static void find_paths(struct trace *t, size_t a, size_t b)
{
	const struct rc_inventory *inv = t->inv;

	for (size_t la = 0; la < inv->n_links; la++) {
		const char *pa, *pb;
		const struct rc_link_end *x = far_end(&inv->links[la], a, &pa);

		if (!x || inv->devices[x->dev].kind != RC_DEV_SWITCH)
			continue;
		for (size_t lb = 0; lb < inv->n_links; lb++) {
			const struct rc_link_end *y = far_end(&inv->links[lb], b, &pb);
			struct hop h[MAX_HOPS];

			if (!y || inv->devices[y->dev].kind != RC_DEV_SWITCH)
				continue;
			h[0] = (struct hop){a, NULL, pa, SIZE_MAX};
			h[1] = (struct hop){x->dev, x->port, NULL, la};
			if (x->dev == y->dev) {
				h[1].out = y->port;
				h[2] = (struct hop){b, pb, NULL, lb};
				add_path(t, h, 3);
			} else {
				via_spines(t, h, x->dev, y->dev, y->port, lb, b, pb);
			}
		}
	}
}

/* --limit for the fleet: every device on some path. */
static char *path_devices(const struct trace *t)
{
	const struct rc_inventory *inv = t->inv;
	bool *on = calloc(inv->n_devices ? inv->n_devices : 1, sizeof(*on));
	char *s = calloc(inv->n_devices ? inv->n_devices : 1, RC_NAME_MAX + 1);
	size_t off = 0;

	if (!on || !s) {
		free(on);
		free(s);
		return NULL;
	}
	for (size_t i = 0; i < t->n; i++)
		for (size_t k = 0; k < t->p[i].n; k++)
			on[t->p[i].h[k].dev] = true;
	for (size_t d = 0; d < inv->n_devices; d++)
		if (on[d])
			off +=
			    (size_t)sprintf(s + off, "%s%s", off ? "," : "", inv->devices[d].name);
	free(on);
	return s;
}

/* Problems of one hop: its device's read, its ports' drift, the link it is reached by. */
static const char *judge_hop(const struct rc_result *r, const struct hop *h,
			     const struct rc_link_check *in, char problems[][128], size_t *np)
{
	const struct rc_fleet_dev *d = rc_result_device(r, h->dev);
	const char *ports[2] = {h->in, h->out};
	const char *status = "ok";

	*np = 0;
	if (!d || d->rc) {
		snprintf(problems[(*np)++], 128, "cannot read: %s", d ? d->err.msg : "not read");
		return "error";
	}
	if (in && in->status == RC_CHECK_MISMATCH) {
		for (size_t m = 0; m < in->n && *np < MAX_PROBLEMS; m++)
			snprintf(problems[(*np)++], 128, "link %s -- %s disagrees on %s: %s | %s",
				 in->v[m].a_where, in->v[m].b_where, in->v[m].field,
				 in->v[m].a_value, in->v[m].b_value);
		status = "drift";
	}
	for (int k = 0; k < 2; k++) {
		if (!ports[k] || (k == 1 && h->in && !strcmp(h->in, h->out)))
			continue;
		for (size_t c = 0; c < d->run.changes.n && *np < MAX_PROBLEMS; c++) {
			const struct rc_change *ch = &d->run.changes.v[c];

			if (strcmp(ch->port, ports[k]) || ch->kind == RC_CHANGE_UNSUPPORTED)
				continue;
			snprintf(problems[(*np)++], 128, "%s %s: want %s, have %s", ch->port,
				 ch->field, ch->new_value,
				 ch->kind == RC_CHANGE_UNKNOWN ? "unknown" : ch->old_value);
			if (!strcmp(status, "ok"))
				status = ch->kind == RC_CHANGE_UNKNOWN ? "unknown" : "drift";
		}
	}
	return status;
}

static bool print_path(struct rc_out *o, const struct rc_result *r, const struct path *p,
		       const struct rc_link_check **check_of, size_t index)
{
	const struct rc_inventory *inv = r->inv;
	char problems[MAX_PROBLEMS][128];
	long first = -1;

	rc_out_open_object(o, NULL);
	rc_out_text(o, "path %zu:", index + 1);
	for (size_t k = 0; k < p->n; k++)
		rc_out_text(o, "%s %s", k ? " ->" : "", inv->devices[p->h[k].dev].name);
	rc_out_text(o, "\n");
	rc_out_open_array(o, "hops");
	for (size_t k = 0; k < p->n; k++) {
		const struct hop *h = &p->h[k];
		const struct rc_link_check *in =
		    h->link_in == SIZE_MAX ? NULL : check_of[h->link_in];
		size_t np;
		const char *st = judge_hop(r, h, in, problems, &np);
		char ports[2 * RC_NAME_MAX + 8];
		bool bad = strcmp(st, "ok") != 0;

		if (bad && first < 0)
			first = (long)k;
		snprintf(ports, sizeof(ports), "%s%s%s", h->in ? h->in : "",
			 h->in && h->out ? " -> " : "", h->out ? h->out : "");
		rc_out_open_object(o, NULL);
		rc_out_str(o, "device", "  %-10s", inv->devices[h->dev].name);
		rc_out_text(o, " %-22s", ports);
		rc_out_str(o, "in", NULL, h->in ? h->in : "");
		rc_out_str(o, "out", NULL, h->out ? h->out : "");
		rc_out_str(o, "status", " %s", st);
		rc_out_text(o, "%s\n", first == (long)k ? "   <== first misaligned hop" : "");
		rc_out_open_array(o, "problems");
		for (size_t i = 0; i < np; i++)
			rc_out_str(o, NULL, "      %s\n", problems[i]);
		rc_out_close_array(o);
		rc_out_close_object(o);
	}
	rc_out_close_array(o);
	if (first >= 0)
		rc_out_int(o, "first_misaligned", NULL, first);
	else
		rc_out_null(o, "first_misaligned", NULL);
	rc_out_close_object(o);
	return first >= 0;
}

static int load(const struct trace_opts *o, struct rc_policy *pol, struct rc_inventory *inv)
{
	struct rc_err err = {0};

	if (rc_policy_load(o->policy, pol, NULL, &err) ||
	    rc_inventory_load(o->inventory, inv, NULL, &err)) {
		rc_err_print(&err, stderr);
		return -1;
	}
	return 0;
}

static ptrdiff_t host_index(const struct rc_inventory *inv, const char *name)
{
	ptrdiff_t i = rc_inventory_device_index(inv, name);

	if (i < 0 || inv->devices[i].kind != RC_DEV_HOST) {
		fprintf(stderr, "rocectl trace: '%s' is not a host of the inventory\n", name);
		return -1;
	}
	return i;
}

static int run_trace(const struct trace_opts *o, const struct rc_global *g, const char *from,
		     const char *to, struct trace *t)
{
	struct rc_run_opts ropts = {
	    .root = g->root, .accept_new_host_keys = g->accept_new_host_keys, .dry_run = true};
	struct rc_policy pol;
	struct rc_inventory inv = {0};
	struct rc_fleet f = {0};
	struct rc_result r = {0};
	const struct rc_link_check **check_of = NULL;
	struct rc_err err = {0};
	struct rc_out out;
	ptrdiff_t a, b;
	char *limit = NULL;
	size_t misaligned = 0, failed = 0;
	int code = RC_EXIT_ERROR;

	if (load(o, &pol, &inv))
		goto out;
	if ((a = host_index(&inv, from)) < 0 || (b = host_index(&inv, to)) < 0)
		goto out;
	t->inv = &inv;
	find_paths(t, (size_t)a, (size_t)b);
	if (!t->n) {
		fprintf(stderr, "rocectl trace: no path from '%s' to '%s' in the inventory\n", from,
			to);
		goto out;
	}
	limit = path_devices(t);
	if (!limit || rc_fleet_init(&f, &inv, &pol, &ropts, limit, 0, &err)) {
		fprintf(stderr, "rocectl trace: %s\n", limit ? err.msg : "out of memory");
		goto out;
	}
	f.disconnect_after_read = true;
	rc_fleet_read(&f);
	check_of = calloc(inv.n_links ? inv.n_links : 1, sizeof(*check_of));
	if (!check_of || rc_result_build(&r, &f, &err))
		goto out;
	for (size_t i = 0; i < r.n_links; i++)
		check_of[r.links[i].link] = &r.links[i];
	for (size_t i = 0; i < f.n; i++)
		failed += f.devs[i].rc != 0;

	rc_out_init(&out, stdout, o->json ? RC_OUT_JSON : RC_OUT_TEXT);
	rc_out_open_object(&out, NULL);
	rc_out_str(&out, "command", NULL, "trace");
	rc_out_str(&out, "from", "trace %s", from);
	rc_out_str(&out, "to", " -> %s: ", to);
	rc_out_text(&out, "%zu path%s\n", t->n, t->n == 1 ? "" : "s");
	rc_out_open_array(&out, "paths");
	for (size_t i = 0; i < t->n; i++)
		misaligned += print_path(&out, &r, &t->p[i], check_of, i);
	rc_out_close_array(&out);
	code = failed ? RC_EXIT_ERROR : misaligned ? RC_EXIT_CHANGES : RC_EXIT_OK;
	rc_out_str(&out, "status", "%s",
		   code == RC_EXIT_OK ? "ok"
		   : failed	      ? "error"
				      : "misaligned");
	rc_out_text(&out, ": %zu of %zu paths misaligned\n", misaligned, t->n);
	rc_out_close_object(&out);
	rc_out_end(&out);
out:
	rc_result_fini(&r);
	free(check_of);
	free(limit);
	rc_fleet_fini(&f);
	rc_inventory_fini(&inv);
	return code;
}

int cmd_trace(int argc, char **argv, const struct rc_global *g)
{
	struct trace_opts o = {0};
	struct trace *t;
	int npos, rc;

	rc = rc_parse_options(argc, argv, "rocectl trace -p POLICY -i INVENTORY HOST_A HOST_B",
			      options, on_option, &o, &npos);
	if (rc)
		return rc > 0 ? RC_EXIT_OK : RC_EXIT_ERROR;
	if (npos != 2 || !o.policy || !o.inventory) {
		fprintf(stderr, "rocectl trace: need -p POLICY, -i INVENTORY and two hosts\n");
		return RC_EXIT_ERROR;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return RC_EXIT_ERROR;
	rc = run_trace(&o, g, argv[0], argv[1], t);
	free(t);
	return rc;
}
