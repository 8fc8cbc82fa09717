/* SPDX-License-Identifier: Apache-2.0 */
/* rocectl trace -p P -i I A B: every path between two hosts through the link graph (each
 * NIC, each leaf, every equal-cost spine), each hop with its state, the first misaligned
 * hop of each path marked.  Only the devices on the paths are read.
 *
 * JSON (--format json):
 *   {"command":"trace","from":A,"to":B,"status":"ok|misaligned|error",
 *    "paths":[{"hops":[{"device","in","out","status":"ok|drift|unknown|error",
 *                       "problems":["pfc_enabled: want 3, have none", ...]}],
 *              "first_misaligned": N | null}]}
 * With --counters [--interval 10s] each hop also carries what `rocectl diagnose` says of it
 * ("role", "why", "deltas"; cli/cmd_diagnose.c) and each path its "verdict", "at" and
 * "evidence", from two samples of the counters of the devices on the paths.
 * Exit: 0 every hop aligned, 2 a hop is misaligned (or, with --counters, a path is not
 * clean), 1 error. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/cli.h"
#include "rocectl/diag.h"
#include "rocectl/trace.h"
#include "rocectl/units.h"

struct trace_opts {
	const char *policy, *inventory;
	bool json;
	bool counters;
	uint64_t interval_us;
};

static const struct rc_option options[] = {
    {"policy", 'p', "FILE", "the policy (YAML)", 'p'},
    {"inventory", 'i', "FILE", "the inventory (YAML)", 'i'},
    {"format", 0, "FMT", "text (default) or json", 256},
    {"counters", 0, NULL, "also sample counters twice and judge each hop, as diagnose does", 257},
    {"interval", 0, "DURATION", "with --counters: time between the samples (default 10s)", 258},
    {NULL, 0, NULL, NULL, 0},
};

static int on_option(int id, const char *arg, void *ctx)
{
	struct trace_opts *o = ctx;
	const char *why = NULL;
	uint64_t v;

	if (id == 'p')
		o->policy = arg;
	else if (id == 'i')
		o->inventory = arg;
	else if (id == 257)
		o->counters = true;
	else if (id == 258) {
		if (rc_parse_duration(arg, &v, &why) || v < 100000 || v > 3600000000ull) {
			fprintf(stderr,
				"rocectl trace: --interval: '%s' is not a duration in "
				"100ms..1h\n",
				arg);
			return -EINVAL;
		}
		o->interval_us = v;
	} else if (!strcmp(arg, "json") || !strcmp(arg, "text"))
		o->json = !strcmp(arg, "json");
	else {
		fprintf(stderr, "rocectl trace: --format: '%s' is not text or json\n", arg);
		return -EINVAL;
	}
	return 0;
}

static bool print_path(struct rc_out *o, const struct rc_result *r, const struct rc_trace_path *p,
		       const struct rc_link_check **check_of, size_t index,
		       const struct rc_diag_path *dp)
{
	const struct rc_inventory *inv = r->inv;
	char problems[RC_TRACE_MAX_PROBLEMS][128];
	long first = -1;

	rc_out_open_object(o, NULL);
	rc_out_text(o, "path %zu:", index + 1);
	for (size_t k = 0; k < p->n; k++)
		rc_out_text(o, "%s %s", k ? " ->" : "", inv->devices[p->h[k].dev].name);
	rc_out_text(o, "\n");
	rc_out_open_array(o, "hops");
	for (size_t k = 0; k < p->n; k++) {
		const struct rc_trace_hop *h = &p->h[k];
		const struct rc_link_check *in =
		    h->link_in == SIZE_MAX ? NULL : check_of[h->link_in];
		size_t np;
		const char *st = rc_trace_judge_hop(r, h, in, problems, &np);
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
		if (dp) {
			rc_out_text(o, "      counters:");
			rc_diag_print_hop(o, dp, k);
		}
		rc_out_close_object(o);
	}
	rc_out_close_array(o);
	if (first >= 0)
		rc_out_int(o, "first_misaligned", NULL, first);
	else
		rc_out_null(o, "first_misaligned", NULL);
	if (dp) {
		rc_out_str(o, "verdict", "  verdict: %s", rc_diag_verdict_name(dp->verdict));
		if (dp->at[0])
			rc_out_str(o, "at", " at %s", dp->at);
		else
			rc_out_null(o, "at", NULL);
		rc_out_str(o, "evidence", " (%s)\n", dp->evidence);
	}
	rc_out_close_object(o);
	return first >= 0 || (dp && dp->verdict != RC_VERDICT_CLEAN);
}

/* --counters: the trace's paths, from a to b only, sampled and judged as diagnose does. */
static int sample_paths(const struct trace_opts *o, const struct rc_inventory *inv,
			const struct rc_policy *pol, const struct rc_run_opts *ropts,
			const struct rc_trace *t, size_t a, size_t b, struct rc_diag_paths *dp,
			struct rc_diag_run *dr)
{
	struct rc_err err = {0};

	dp->n = t->n;
	dp->p = calloc(t->n ? t->n : 1, sizeof(*dp->p));
	dp->ends = calloc(t->n ? t->n : 1, sizeof(*dp->ends));
	if (!dp->p || !dp->ends) {
		fprintf(stderr, "rocectl trace: out of memory\n");
		return -ENOMEM;
	}
	for (size_t i = 0; i < t->n; i++) {
		dp->p[i] = t->p[i];
		dp->ends[i][0] = a;
		dp->ends[i][1] = b;
	}
	if (rc_diag_run(dr, inv, pol, ropts, dp, NULL, o->interval_us, 0, &err)) {
		fprintf(stderr, "rocectl trace: %s\n", err.msg);
		return -EIO;
	}
	for (size_t i = 0; i < dr->f.n; i++)
		if (dr->f.devs[i].rc)
			fprintf(stderr, "rocectl trace: counters: %s\n", dr->f.devs[i].err.msg);
	return 0;
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
		     const char *to, struct rc_trace *t)
{
	struct rc_run_opts ropts = {.root = g->root,
				    .accept_new_host_keys = g->accept_new_host_keys,
				    .dry_run = true,
				    .verbose = rc_cli_verbosity() > 0};
	struct rc_policy pol;
	struct rc_inventory inv = {0};
	struct rc_fleet f = {0};
	struct rc_result r = {0};
	const struct rc_link_check **check_of = NULL;
	struct rc_err err = {0};
	struct rc_out out;
	struct rc_diag_paths dpaths = {0};
	struct rc_diag_run dr = {0};
	ptrdiff_t a, b;
	char *limit = NULL;
	size_t misaligned = 0, failed = 0;
	int code = RC_EXIT_ERROR;

	if (load(o, &pol, &inv))
		goto out;
	if ((a = host_index(&inv, from)) < 0 || (b = host_index(&inv, to)) < 0)
		goto out;
	rc_trace_find(t, &inv, (size_t)a, (size_t)b);
	if (!t->n) {
		fprintf(stderr, "rocectl trace: no path from '%s' to '%s' in the inventory\n", from,
			to);
		goto out;
	}
	limit = rc_trace_devices(t);
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
	if (o->counters) {
		if (sample_paths(o, &inv, &pol, &ropts, t, (size_t)a, (size_t)b, &dpaths, &dr))
			goto out;
		failed += dr.failed;
	}

	rc_out_init(&out, stdout, o->json ? RC_OUT_JSON : RC_OUT_TEXT);
	rc_out_open_object(&out, NULL);
	rc_out_str(&out, "command", NULL, "trace");
	rc_out_str(&out, "from", "trace %s", from);
	rc_out_str(&out, "to", " -> %s: ", to);
	rc_out_text(&out, "%zu path%s\n", t->n, t->n == 1 ? "" : "s");
	rc_out_open_array(&out, "paths");
	for (size_t i = 0; i < t->n; i++)
		misaligned += print_path(&out, &r, &t->p[i], check_of, i,
					 o->counters ? &dr.d.paths[i] : NULL);
	rc_out_close_array(&out);
	code = failed ? RC_EXIT_ERROR : misaligned ? RC_EXIT_CHANGES : RC_EXIT_OK;
	rc_out_str(&out, "status", "%s",
		   code == RC_EXIT_OK ? "ok"
		   : failed	      ? "error"
				      : "misaligned");
	rc_out_text(&out, ": %zu of %zu paths %s\n", misaligned, t->n,
		    o->counters ? "misaligned or not clean" : "misaligned");
	rc_out_close_object(&out);
	rc_out_end(&out);
out:
	rc_diag_run_fini(&dr);
	rc_diag_paths_fini(&dpaths);
	rc_result_fini(&r);
	free(check_of);
	free(limit);
	rc_fleet_fini(&f);
	rc_inventory_fini(&inv);
	return code;
}

int cmd_trace(int argc, char **argv, const struct rc_global *g)
{
	struct trace_opts o = {.interval_us = 10000000};
	struct rc_trace *t;
	int npos, rc;

	rc = rc_parse_options(argc, argv,
			      "rocectl trace -p POLICY -i INVENTORY HOST_A HOST_B "
			      "[--counters [--interval 10s]]",
			      options, on_option, &o, &npos);
	if (rc)
		return rc > 0 ? RC_EXIT_OK : RC_EXIT_USAGE;
	if (npos != 2 || !o.policy || !o.inventory) {
		fprintf(stderr, "rocectl trace: need -p POLICY, -i INVENTORY and two hosts\n");
		return RC_EXIT_USAGE;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return RC_EXIT_ERROR;
	rc = run_trace(&o, g, argv[0], argv[1], t);
	free(t);
	return rc;
}
