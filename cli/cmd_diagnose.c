/* SPDX-License-Identifier: Apache-2.0 */
/* rocectl diagnose -p P -i I [HOST...] [--interval 10s]: where it hurts.  The counters of
 * every device on the paths between the hosts (every host when none is named; HOST takes
 * names, ranges, globs and roles as --limit does) are read twice, --interval apart; the
 * deltas locate the pause tree's root and its relays, NIC pause storms, drops on lossless
 * priorities, host-side losses and DCQCN mistakes, and every path gets a verdict
 * (include/rocectl/diag.h).  Past RC_DIAG_MAX_PATHS paths (or with --by class) the paths
 * are judged per equal-cost class instead: "by": "class", "classes", "ports".
 *
 * JSON (--json or --format json), schema "rocectl.diagnose/v1", one object:
 *   {"schema", "command": "diagnose", "inventory", "policy", "window_s",
 *    "roots": ["leaf02:swp2"],
 *    "paths": [{"from", "from_port", "to", "to_port",
 *               "verdict": "clean|congested|lossy|host-side|unknown", "at": "DEV:PORT"|null,
 *               "evidence", "hops": [{"device", "in", "out",
 *                                      "role": "root|relay|storm|clean|unknown", "why",
 *                                      "deltas": {"in": {"port", "pause_tx", ...},
 *                                                 "out": {...}}}]}],
 *    "findings": [{"kind", "device", "port", "message", "fields"}],
 *    "errors": ["<device error>"], "status": "clean|not_clean|error", "exit_code"}
 * --format prometheus: rocectl_diagnose_* (engine/report/report_diag.c).
 * -o FILE writes any format to FILE atomically, mode 0644, instead of stdout.
 * Exit: 0 every path clean, 2 a path is not clean or a finding was made, 1 a device could
 * not be read (an error outranks the rest). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rocectl/cli.h"
#include "rocectl/diag.h"
#include "rocectl/fleet.h"
#include "rocectl/units.h"
#include "rocectl/util.h"

#define DIAG_SCHEMA "rocectl.diagnose/v1"

enum diag_fmt { FMT_TEXT, FMT_JSON, FMT_PROM, FMT_HTML };

struct diag_opts {
	const char *policy, *inventory;
	uint64_t interval_us;
	const char *snapshot; /* --snapshot DIR (docs/SNAPSHOT.md) */
	enum diag_fmt fmt;
	unsigned parallel;
	const char *output;
	const char *limit;
	enum { BY_AUTO, BY_PATH, BY_CLASS } by;
};

enum { OPT_INTERVAL = 256, OPT_FORMAT, OPT_PARALLEL, OPT_SNAPSHOT, OPT_LIMIT, OPT_BY };

static const struct rc_option options[] = {
    {"policy", 'p', "FILE", "the policy (its lossless priorities and ECN class)", 'p'},
    {"inventory", 'i', "FILE", "the inventory (YAML)", 'i'},
    {"interval", 0, "DURATION", "time between the two samples (default 10s; 100ms..1h)",
     OPT_INTERVAL},
    {"format", 0, "FMT",
     "text (default), json (examples/diagnose.schema.json), prometheus or html (a page to "
     "open in a browser); -j, --json is an alias",
     OPT_FORMAT},
    {"parallel", 0, "N", "devices read at once (default 32)", OPT_PARALLEL},
    {"output", 'o', "FILE",
     "write the report to FILE (replaced atomically, mode 0644: the node_exporter textfile "
     "collector reads it) instead of stdout",
     'o'},
    {"snapshot", 0, "DIR", RC_SNAPSHOT_HELP, OPT_SNAPSHOT},
    {"limit", 0, "NAMES",
     RC_LIMIT_HELP "; hosts left out are not diagnosed, switches left out "
		   "are not read (their hops stay unknown)",
     OPT_LIMIT},
    {"by", 0, "HOW",
     "path (every path between two NIC ports, at most 65536), class (one verdict per pair "
     "of edge switches, any fabric size) or auto (default: path when it fits)",
     OPT_BY},
    {NULL, 0, NULL, NULL, 0},
};

#define USAGE                                                                                      \
	"rocectl diagnose -p POLICY -i INVENTORY [HOST...] [--interval 10s] "                      \
	"[--format text|json|prometheus|html] [-o FILE] [--parallel N] [--snapshot DIR] "          \
	"[--limit NAMES] [--by path|class|auto]"

static int on_option(int id, const char *arg, void *ctx)
{
	struct diag_opts *o = ctx;
	const char *why = NULL;
	uint64_t v;

	switch (id) {
	case 'p':
		o->policy = arg;
		return 0;
	case 'i':
		o->inventory = arg;
		return 0;
	case OPT_INTERVAL:
		if (rc_parse_duration(arg, &v, &why) || v < 100000 || v > 3600000000ull) {
			fprintf(stderr,
				"rocectl diagnose: --interval: '%s' is not a duration in "
				"100ms..1h%s%s\n",
				arg, why ? ": " : "", why ? why : "");
			return -EINVAL;
		}
		o->interval_us = v;
		return 0;
	case OPT_FORMAT:
		if (!strcmp(arg, "text"))
			o->fmt = FMT_TEXT;
		else if (!strcmp(arg, "json"))
			o->fmt = FMT_JSON;
		else if (!strcmp(arg, "prometheus"))
			o->fmt = FMT_PROM;
		else if (!strcmp(arg, "html"))
			o->fmt = FMT_HTML;
		else {
			fprintf(stderr,
				"rocectl diagnose: --format: '%s' is not text, json, prometheus or "
				"html\n",
				arg);
			return -EINVAL;
		}
		return 0;
	case OPT_PARALLEL:
		return rc_number_arg("diagnose", "parallel", arg, 1, 1024, &o->parallel);
	case 'o':
		o->output = arg;
		return 0;
	case OPT_SNAPSHOT:
		o->snapshot = arg;
		return 0;
	case OPT_LIMIT:
		o->limit = arg;
		return 0;
	case OPT_BY:
		if (!strcmp(arg, "auto") || !strcmp(arg, "path") || !strcmp(arg, "class")) {
			o->by = arg[0] == 'a' ? BY_AUTO : arg[0] == 'p' ? BY_PATH : BY_CLASS;
			return 0;
		}
		fprintf(stderr, "rocectl diagnose: --by: '%s' is not path, class or auto\n", arg);
		return -EINVAL;
	default:
		return -EINVAL;
	}
}

struct diag_run {
	struct diag_opts o;
	struct rc_policy pol;
	struct rc_inventory inv;
	struct rc_diag_paths paths;
	struct rc_diag_fabric fab;
	struct rc_diag_run dr;
	size_t *hosts, n_hosts;
	bool *chosen, *skip; /* per inventory device: a diagnosed host; left out by --limit */
	bool have_inv;
};

/* Each HOST argument is a --limit list (names, ranges, globs, roles) that must select a
 * host; none means every host.  --limit narrows the hosts and the devices read. */
static int select_hosts(struct diag_run *r, int npos, char **argv, struct rc_err *err)
{
	const struct rc_inventory *inv = &r->inv;
	size_t n = inv->n_devices ? inv->n_devices : 1;
	bool *sel = calloc(n, sizeof(*sel));
	int rc = 0;

	r->chosen = calloc(n, sizeof(*r->chosen));
	r->skip = calloc(n, sizeof(*r->skip));
	if (!sel || !r->chosen || !r->skip) {
		free(sel);
		return rc_errf(err, ENOMEM, "out of memory");
	}
	for (int i = 0; i < npos && !rc; i++) {
		bool any = false;

		rc = rc_limit_select(inv, argv[i], sel, err);
		for (size_t k = 0; !rc && k < inv->n_devices; k++)
			if (sel[k] && inv->devices[k].kind == RC_DEV_HOST)
				any = r->chosen[k] = true;
		if (!rc && !any)
			rc = rc_errf(err, EINVAL, "'%s' selects no host of the inventory", argv[i]);
	}
	for (size_t k = 0; !npos && k < inv->n_devices; k++)
		r->chosen[k] = inv->devices[k].kind == RC_DEV_HOST;
	if (!rc && r->o.limit) {
		rc = rc_limit_select(inv, r->o.limit, sel, err);
		for (size_t k = 0; !rc && k < inv->n_devices; k++) {
			r->skip[k] = !sel[k];
			r->chosen[k] &= sel[k];
		}
	}
	free(sel);
	return rc;
}

/* The chosen hosts as a list of inventory indices, for the path enumeration. */
static int list_hosts(struct diag_run *r, struct rc_err *err)
{
	const struct rc_inventory *inv = &r->inv;

	r->hosts = calloc(inv->n_devices ? inv->n_devices : 1, sizeof(*r->hosts));
	if (!r->hosts)
		return rc_errf(err, ENOMEM, "out of memory");
	for (size_t k = 0; k < inv->n_devices; k++)
		if (r->chosen[k])
			r->hosts[r->n_hosts++] = k;
	if (r->n_hosts < 2)
		return rc_errf(err, EINVAL, "paths need two hosts at least");
	return 0;
}

/* By path when asked, or when the paths are few enough to list; else by class. */
static int judge(struct diag_run *r, const struct rc_run_opts *opts, struct rc_err *err)
{
	int rc = rc_diag_fabric_build(&r->fab, &r->inv, r->chosen, err);
	bool by_class =
	    r->o.by == BY_CLASS || (r->o.by == BY_AUTO && r->fab.n_paths > RC_DIAG_MAX_PATHS);

	if (!rc && !r->fab.n_paths)
		rc = rc_errf(err, ENOENT, "no path between the hosts in the inventory");
	if (!rc && by_class)
		return rc_diag_run_classes(&r->dr, &r->inv, &r->pol, opts, &r->fab, r->skip,
					   r->o.interval_us, r->o.parallel, err);
	if (!rc)
		rc = rc_diag_paths(&r->inv, r->hosts, r->n_hosts, false, &r->paths, err);
	if (!rc && !r->paths.n)
		rc = rc_errf(err, ENOENT, "no path between the hosts in the inventory");
	if (!rc)
		rc = rc_diag_run(&r->dr, &r->inv, &r->pol, opts, &r->paths, r->skip,
				 r->o.interval_us, r->o.parallel, err);
	return rc;
}

static int report_to(struct diag_run *r, FILE *f)
{
	FILE *sink = NULL;
	struct rc_out out;
	size_t bad;
	int code;

	if (r->o.fmt == FMT_PROM || r->o.fmt == FMT_HTML) {
		if (r->o.fmt == FMT_HTML) {
			rc_report_diag_html(f, &r->dr.d, &r->dr.f, time(NULL));
		} else if (rc_diag_prom(f, &r->dr.d)) {
			fprintf(stderr, "rocectl diagnose: out of memory\n");
			return RC_EXIT_ERROR;
		}
		bad = 0;
		for (size_t i = 0; i < r->dr.d.n_paths; i++)
			bad += r->dr.d.paths[i].verdict != RC_VERDICT_CLEAN;
		for (size_t i = 0; r->dr.d.fab && i < r->dr.d.fab->n_classes; i++)
			bad += r->dr.d.fab->classes[i].verdict != RC_VERDICT_CLEAN;
		return r->dr.failed		   ? RC_EXIT_ERROR
		       : bad || r->dr.d.n_findings ? RC_EXIT_CHANGES
						   : RC_EXIT_OK;
	}
	/* -q, text: only the status line, as for every command (cli/fleet_cmd.c) */
	if (rc_cli_verbosity() < 0 && r->o.fmt == FMT_TEXT)
		sink = fopen("/dev/null", "we");
	rc_out_init(&out, sink ? sink : f, r->o.fmt == FMT_JSON ? RC_OUT_JSON : RC_OUT_TEXT);
	out.details = rc_cli_verbosity() > 0; /* -v: every port, not one line per role */
	rc_out_open_object(&out, NULL);
	rc_out_str(&out, "schema", NULL, DIAG_SCHEMA);
	rc_out_str(&out, "command", NULL, "diagnose");
	rc_out_str(&out, "inventory", NULL, r->o.inventory);
	rc_out_str(&out, "policy", NULL, r->pol.name);
	bad = rc_diag_print(&out, &r->dr.d);
	rc_out_open_array(&out, "errors");
	for (size_t i = 0; i < r->dr.f.n; i++)
		if (r->dr.f.devs[i].rc)
			rc_out_str(&out, NULL, "error: %s\n", r->dr.f.devs[i].err.msg);
	rc_out_close_array(&out);
	if (sink) {
		fclose(sink);
		out.f = f;
		fprintf(f, "%zu path(s) not clean, %zu finding(s)\n", bad, r->dr.d.n_findings);
	}
	code = r->dr.failed		   ? RC_EXIT_ERROR
	       : bad || r->dr.d.n_findings ? RC_EXIT_CHANGES
					   : RC_EXIT_OK;
	rc_out_str(&out, "status", "status: %s\n",
		   code == RC_EXIT_OK	   ? "clean"
		   : code == RC_EXIT_ERROR ? "error"
					   : "not_clean");
	rc_out_int(&out, "exit_code", NULL, code);
	rc_out_close_object(&out);
	rc_out_end(&out);
	return code;
}

/* -o FILE: the whole report first in memory, then one atomic replacement, so that a
 * collector never reads half a file (engine/util/atomic.c). */
static int report(struct diag_run *r)
{
	struct rc_err err = {0};
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int code;

	if (!r->o.output)
		return report_to(r, stdout);
	f = open_memstream(&buf, &len);
	if (!f) {
		fprintf(stderr, "rocectl diagnose: out of memory\n");
		return RC_EXIT_ERROR;
	}
	code = report_to(r, f);
	if (fclose(f) || !buf) {
		free(buf);
		fprintf(stderr, "rocectl diagnose: out of memory\n");
		return RC_EXIT_ERROR;
	}
	if (rc_write_atomic(r->o.output, buf, len, 0644, "report", &err)) {
		fprintf(stderr, "rocectl diagnose: ");
		rc_err_print(&err, stderr);
		code = RC_EXIT_ERROR;
	}
	free(buf);
	return code;
}

static int run(struct diag_run *r, int npos, char **argv, const struct rc_global *g)
{
	struct rc_run_opts opts = {.root = g->root,
				   .accept_new_host_keys = g->accept_new_host_keys,
				   .snapshot = r->o.snapshot,
				   .dry_run = true};
	struct rc_warnings warn = {0};
	struct rc_err err = {0};
	int rc;

	/* both samples come from the same files: waiting between them shows nothing more */
	if (r->o.snapshot)
		r->o.interval_us = 100000;

	if (rc_policy_load(r->o.policy, &r->pol, &warn, &err) ||
	    rc_inventory_load(r->o.inventory, &r->inv, &warn, &err)) {
		fprintf(stderr, "rocectl diagnose: ");
		rc_err_print(&err, stderr);
		return RC_EXIT_ERROR;
	}
	r->have_inv = true;
	rc_warnings_print(&warn, stderr);
	rc = rc_cli_limit_check("diagnose", &r->inv, r->o.limit);
	if (rc)
		return rc;
	rc = select_hosts(r, npos, argv, &err);
	if (!rc)
		rc = list_hosts(r, &err);
	if (rc) {
		fprintf(stderr, "rocectl diagnose: ");
		rc_err_print(&err, stderr);
		return rc == -ENOMEM ? RC_EXIT_ERROR : RC_EXIT_USAGE;
	}
	rc = judge(r, &opts, &err);
	if (rc) {
		fprintf(stderr, "rocectl diagnose: ");
		rc_err_print(&err, stderr);
		return RC_EXIT_ERROR;
	}
	for (size_t i = 0; i < r->dr.f.n; i++)
		if (r->dr.f.devs[i].rc)
			fprintf(stderr, "rocectl diagnose: %s\n", r->dr.f.devs[i].err.msg);
	return report(r);
}

int cmd_diagnose(int argc, char **argv, const struct rc_global *g)
{
	struct diag_run *r = calloc(1, sizeof(*r));
	int npos, rc, code;

	if (!r) {
		fprintf(stderr, "rocectl diagnose: out of memory\n");
		return RC_EXIT_ERROR;
	}
	r->o.interval_us = 10000000;
	rc = rc_parse_options(argc, argv, USAGE, options, on_option, &r->o, &npos);
	if (!rc && (!r->o.policy || !r->o.inventory)) {
		fprintf(stderr, "rocectl diagnose: need -p POLICY and -i INVENTORY\n");
		rc_print_usage(stderr, USAGE, options);
		rc = -EINVAL;
	}
	if (rc) {
		free(r);
		return rc > 0 ? RC_EXIT_OK : RC_EXIT_USAGE;
	}
	code = run(r, npos, argv, g);
	rc_diag_run_fini(&r->dr);
	rc_diag_paths_fini(&r->paths);
	rc_diag_fabric_fini(&r->fab);
	free(r->hosts);
	free(r->chosen);
	free(r->skip);
	if (r->have_inv)
		rc_inventory_fini(&r->inv);
	free(r);
	return code;
}
