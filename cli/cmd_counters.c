/* SPDX-License-Identifier: Apache-2.0 */
/* rocectl counters: the counters that tell whether the fabric is lossless in practice
 * (PFC pauses, ECN marks, CNPs, discards, RDMA sequence errors), named by meaning with the
 * platform's own name kept as the source, and every non-zero drop counter flagged.
 *
 *   rocectl counters [--interface IF]...         the local host (the data of `agent counters`)
 *   rocectl counters -i INVENTORY [--limit L]    every selected device, through its driver's
 *                                                counters op, on the fleet's worker pool
 *                                                (--parallel N)
 *
 * With -p POLICY, a non-zero PFC pause counter of a priority the policy does not make
 * lossless is marked "unexpected": some device on that link pauses a lossy priority.
 * A device whose driver reads no counters is listed as such, never silently left out.
 *
 * Totals since boot say a port dropped once; an SRE at 3 a.m. asks whether it drops now:
 *
 *   --interval 10s   read twice, 10 s apart, and report what rose in between
 *   --save           also keep this sample in the history (a run of command "counters")
 *   --since RUN      report what rose since the sample `counters --save` kept as RUN
 *
 * Plan, apply and enforce read no counters, so their runs keep none: --since needs a run of
 * `counters --save` (a timer that saves one a day gives a daily baseline).
 *
 * Exit: 0 read and no drops, 2 a drop counter is non-zero, 1 a device could not be read
 * (an error outranks drops).  With --interval or --since: 2 when a drop, discard or PFC
 * pause counter rose in the window (pauses: the fabric is congested now; `diagnose` says
 * where), 0 when none did.
 *
 * JSON (--json or --format json), schema "rocectl.counters/v1", one object on one line:
 *   {"schema": "rocectl.counters/v1", "command": "counters",
 *    "inventory": "<file>" | null, "policy": "<name>" | null,
 *    "devices": [{"device": "gpu001", "kind": "host" | "switch", "driver": "mlx5",
 *                 "status": "ok" | "drops" | "unsupported" | "error",
 *                 "error": "<message>",           (only with "unsupported" and "error")
 *                 "counters": [{"port": "eth0", "name": "pfc_pause_rx[3]", "value": 12,
 *                               "source": "ethtool:rx_prio3_pause", "is_drop": false,
 *                               "unexpected": false}]}],   (only with -p)
 *    "drops": <number of non-zero drop counters>,
 *    "status": "ok" | "drops" | "error", "exit_code": 0 | 1 | 2}
 * With --interval or --since: "mode": "delta", "window_s", "since" (the baseline's run id
 * or null), each value is the rise in the window, each device has "resets" (counters that
 * went backwards: their new value is counted), "pauses" counts the pause counters that
 * rose and status may be "pauses".  --save adds "run_id". */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rocectl/deadline.h"
#include "rocectl/cli.h"
#include "rocectl/diag.h"
#include "rocectl/fleet.h"
#include "rocectl/history.h"
#include "rocectl/units.h"
#include "rocectl/print.h"
#include "rocectl/txn.h"
#include "rocectl/util.h"

#define COUNTERS_SCHEMA "rocectl.counters/v1"
#define MAX_INTERFACES	64

struct ctr_opts {
	const char *policy;
	const char *inventory;
	const char *limit;
	const char *root;
	bool json;
	bool save;
	const char *since;   /* run id of a `counters --save` */
	const char *history; /* --history DIR */
	uint64_t interval_us;
	unsigned parallel;
	size_t n_if;
	char ifs[MAX_INTERFACES][RC_NAME_MAX];
};

enum {
	OPT_LIMIT = 256,
	OPT_FORMAT,
	OPT_PARALLEL,
	OPT_ROOT,
	OPT_INTERVAL,
	OPT_SINCE,
	OPT_SAVE,
	OPT_HISTORY
};

static const struct rc_option options[] = {
    {"inventory", 'i', "FILE", "every selected device of this inventory (default: this host)", 'i'},
    {"policy", 'p', "FILE", "mark pauses on priorities the policy keeps lossy", 'p'},
    {"limit", 0, "NAMES", RC_LIMIT_HELP, OPT_LIMIT},
    {"interface", 'I', "IF", "this host's interface (repeatable; default: every RDMA netdev)", 'I'},
    {"format", 0, "FMT",
     "text (default) or json (examples/counters.schema.json); -j, --json is an alias", OPT_FORMAT},
    {"parallel", 0, "N", "devices read at once (default 32)", OPT_PARALLEL},
    {"root", 0, "DIR", "sysfs root prefix of this host (default: the global --root)", OPT_ROOT},
    {"interval", 0, "DURATION",
     "read twice, DURATION apart (100ms..1h), and report what rose in between", OPT_INTERVAL},
    {"since", 0, "RUN", "report what rose since the sample `counters --save` kept as RUN",
     OPT_SINCE},
    {"save", 0, NULL, "keep this sample in the history (a baseline for --since)", OPT_SAVE},
    {"history", 0, "DIR",
     "history directory (default $ROCECTL_HISTORY or " RC_HISTORY_DEFAULT_DIR ")", OPT_HISTORY},
    {NULL, 0, NULL, NULL, 0},
};

#define USAGE                                                                                      \
	"rocectl counters [-i INVENTORY [--limit NAMES]] [-p POLICY] [--interface IF]... "         \
	"[--interval DURATION | --since RUN] [--save] [--json] [--parallel N] [--root DIR]"

static int on_option(int id, const char *arg, void *ctx)
{
	struct ctr_opts *o = ctx;
	uint64_t v;

	switch (id) {
	case 'i':
		o->inventory = arg;
		return 0;
	case 'p':
		o->policy = arg;
		return 0;
	case OPT_LIMIT:
		o->limit = arg;
		return 0;
	case 'I':
		return rc_interface_arg("counters", arg, o->ifs, &o->n_if, MAX_INTERFACES);
	case OPT_FORMAT:
		return rc_format_text_json("counters", arg, &o->json);
	case OPT_PARALLEL:
		return rc_number_arg("counters", "parallel", arg, 1, 1024, &o->parallel);
	case OPT_ROOT:
		o->root = arg;
		return 0;
	case OPT_INTERVAL: {
		const char *why = NULL;

		if (rc_parse_duration(arg, &v, &why) || v < 100000 || v > 3600000000ull) {
			fprintf(stderr,
				"rocectl counters: --interval: '%s' is not a duration in "
				"100ms..1h%s%s\n",
				arg, why ? ": " : "", why ? why : "");
			return -EINVAL;
		}
		o->interval_us = v;
		return 0;
	}
	case OPT_SINCE:
		o->since = arg;
		return 0;
	case OPT_SAVE:
		o->save = true;
		return 0;
	case OPT_HISTORY:
		o->history = arg;
		return 0;
	default:
		return -EINVAL;
	}
}

/* ---- output ----------------------------------------------------------------------------- */

struct tally {
	size_t drops, errors, unsupported, with_drops;
	size_t pauses, with_pauses; /* deltas only: pause counters that rose */
};

/* "pfc_pause_rx[3]", "pfc_pause_tx_duration_us[3]", ... (drivers' vendor-neutral names) */
static bool is_pause(const struct rc_counter *e)
{
	return !strncmp(e->name, "pfc_pause_", 10);
}

/* A PFC pause counter ("pfc_pause_rx[5]", "pfc_pause_tx_duration_us[5]") on a priority the
 * policy does not make lossless. */
static bool unexpected_pause(const struct rc_policy *pol, const struct rc_counter *e)
{
	const char *b = strchr(e->name, '[');

	if (!pol || !e->value || strncmp(e->name, "pfc_pause_", 10) || !b || b[1] < '0' ||
	    b[1] > '7' || b[2] != ']')
		return false;
	return !(pol->pfc_priorities & (1u << (b[1] - '0')));
}

static void out_counters(struct rc_out *o, const struct rc_policy *pol,
			 const struct rc_fleet_dev *d, bool delta, struct tally *t)
{
	const char *port = NULL;
	bool drops = false, pauses = false;

	rc_out_open_array(o, "counters");
	for (size_t k = 0; k < d->counters.n; k++) {
		const struct rc_counter *e = &d->counters.v[k];
		bool unexpected = unexpected_pause(pol, e);

		if (!port || strcmp(port, e->port))
			rc_out_text(o, "  %s:\n", e->port);
		port = e->port;
		rc_out_open_object(o, NULL);
		rc_out_str(o, "port", NULL, e->port);
		rc_out_str(o, "name", "    %-38s", e->name);
		if (e->not_enabled) {
			/* switched off on the device: no value, never a zero */
			rc_out_null(o, "value", "          not enabled");
			rc_out_bool(o, "not_enabled", NULL, true);
		} else {
			rc_out_uint(o, "value", " %20" PRIu64, e->value);
		}
		rc_out_str(o, "source", "  %s", e->source);
		rc_out_bool(o, "is_drop", NULL, e->is_drop);
		if (pol)
			rc_out_bool(o, "unexpected", NULL, unexpected);
		if (e->is_drop && e->value) {
			rc_out_text(o, "   DROPS");
			t->drops++;
			drops = true;
		} else if (delta && is_pause(e) && e->value && !e->not_enabled) {
			rc_out_text(o, "   PAUSES");
			t->pauses++;
			pauses = true;
		}
		if (unexpected)
			rc_out_text(o, "   UNEXPECTED (priority %c is lossy in the policy)",
				    strchr(e->name, '[')[1]);
		rc_out_text(o, "\n");
		rc_out_close_object(o);
	}
	rc_out_close_array(o);
	if (drops)
		t->with_drops++;
	else if (pauses)
		t->with_pauses++;
}

static void out_device(struct rc_out *o, const struct rc_fleet *f, const struct rc_policy *pol,
		       const struct rc_fleet_dev *d, const size_t *resets, struct tally *t)
{
	const struct rc_device *dev = &f->inv->devices[d->index];
	bool drops = false, pauses = false;

	for (size_t k = 0; k < d->counters.n; k++) {
		drops |= d->counters.v[k].is_drop && d->counters.v[k].value;
		pauses |= resets && is_pause(&d->counters.v[k]) && d->counters.v[k].value &&
			  !d->counters.v[k].not_enabled;
	}
	rc_out_open_object(o, NULL);
	rc_out_str(o, "device", "%s", dev->name);
	rc_out_str(o, "kind", " (%s", dev->kind == RC_DEV_SWITCH ? "switch" : "host");
	rc_out_str(o, "driver", ", %s)", rc_driver_name_for(dev));
	if (d->no_counters) {
		rc_out_str(o, "status", NULL, "unsupported");
		rc_out_str(o, "error", NULL, d->err.msg);
		rc_out_text(o, ": counters not supported by this driver\n");
		t->unsupported++;
	} else if (d->rc) {
		rc_out_str(o, "status", NULL, "error");
		rc_out_str(o, "error", ": error: %s\n", d->err.msg);
		fprintf(stderr, "rocectl counters: %s\n", d->err.msg);
		t->errors++;
	} else {
		rc_out_str(o, "status", NULL, drops ? "drops" : pauses ? "pauses" : "ok");
		rc_out_text(o, ":%s", d->counters.n ? "" : " no counters reported");
		if (resets && *resets)
			rc_out_uint(o, "resets",
				    " %" PRIu64 " counter(s) went back (cleared or restarted): "
				    "their new value is counted",
				    *resets);
		else if (resets)
			rc_out_uint(o, "resets", NULL, 0);
		rc_out_text(o, "\n");
	}
	out_counters(o, pol, d, resets != NULL, t);
	rc_out_close_object(o);
}

/* ---- the command -------------------------------------------------------------------------- */

/* Without -i: this host alone, as a one-device inventory (the fleet needs no more). */
static void local_inventory(struct ctr_opts *o, struct rc_device *dev, struct rc_inventory *inv)
{
	memset(dev, 0, sizeof(*dev));
	if (gethostname(dev->name, sizeof(dev->name) - 1) || !dev->name[0])
		snprintf(dev->name, sizeof(dev->name), "localhost");
	dev->kind = RC_DEV_HOST;
	dev->platform = RC_PLAT_HOST;
	dev->transport = RC_TRANSPORT_LOCAL;
	dev->role = RC_ROLE_HOST;
	dev->n_ports = o->n_if;
	dev->ports = o->n_if ? o->ifs : NULL;
	memset(inv, 0, sizeof(*inv));
	inv->n_devices = 1;
	inv->devices = dev;
}

static int load(const struct ctr_opts *o, struct rc_policy *pol, bool *have_pol,
		struct rc_inventory *inv, bool *have_inv, struct rc_err *err)
{
	struct rc_warnings warn = {0};

	if (o->policy) {
		if (rc_policy_load(o->policy, pol, &warn, err))
			return -EINVAL;
		*have_pol = true;
	}
	if (o->inventory) {
		if (rc_inventory_load(o->inventory, inv, &warn, err))
			return -EINVAL;
		*have_inv = true;
	}
	rc_warnings_print(&warn, stderr);
	return 0;
}

static int check_usage(const struct ctr_opts *o, int npos, char **argv)
{
	if (npos) {
		fprintf(stderr, "rocectl counters: unexpected argument '%s'\n", argv[0]);
		return -EINVAL;
	}
	if (o->limit && !o->inventory) {
		fprintf(stderr, "rocectl counters: --limit selects from an inventory (-i)\n");
		return -EINVAL;
	}
	if (o->interval_us && o->since) {
		fprintf(stderr, "rocectl counters: --interval and --since exclude each other\n");
		return -EINVAL;
	}
	if (o->n_if && o->inventory) {
		fprintf(stderr, "rocectl counters: --interface is for this host; the inventory "
				"names each host's interfaces\n");
		return -EINVAL;
	}
	return 0;
}

struct ctr_run {
	struct ctr_opts o;
	struct rc_policy pol;
	struct rc_inventory inv;
	struct rc_device local;
	struct rc_fleet f;
	bool have_pol, have_inv;
	size_t *resets; /* per fleet device, with --interval and --since (deltas) */
	double window_s;
	char run_id[64]; /* --save */
};

static int report(struct ctr_run *r)
{
	struct rc_out out;
	struct tally t = {0};
	const char *status;
	int code;

	rc_out_init(&out, stdout, r->o.json ? RC_OUT_JSON : RC_OUT_TEXT);
	out.quiet = rc_cli_verbosity() < 0; /* -q: the summary line only */
	rc_out_open_object(&out, NULL);
	rc_out_str(&out, "schema", NULL, COUNTERS_SCHEMA);
	rc_out_str(&out, "command", NULL, "counters");
	if (r->have_inv)
		rc_out_str(&out, "inventory", NULL, r->o.inventory);
	else
		rc_out_null(&out, "inventory", NULL);
	if (r->have_pol)
		rc_out_str(&out, "policy", NULL, r->pol.name);
	else
		rc_out_null(&out, "policy", NULL);
	if (r->resets) {
		rc_out_str(&out, "mode", NULL, "delta");
		rc_out_double(&out, "window_s", "rise over %.1f s", r->window_s);
		if (r->o.since)
			rc_out_str(&out, "since", " since run %s", r->o.since);
		else
			rc_out_null(&out, "since", NULL);
		rc_out_text(&out, "\n");
	} else {
		rc_out_str(&out, "mode", NULL, "total");
	}
	if (r->run_id[0])
		rc_out_str(&out, "run_id", NULL, r->run_id);
	rc_out_open_array(&out, "devices");
	for (size_t i = 0; i < r->f.n; i++)
		out_device(&out, &r->f, r->have_pol ? &r->pol : NULL, &r->f.devs[i],
			   r->resets ? &r->resets[i] : NULL, &t);
	rc_out_close_array(&out);
	code = t.errors ? RC_EXIT_ERROR : t.drops || t.pauses ? RC_EXIT_CHANGES : RC_EXIT_OK;
	status = t.errors ? "error" : t.drops ? "drops" : t.pauses ? "pauses" : "ok";
	rc_out_uint(&out, "drops", NULL, t.drops);
	if (r->resets)
		rc_out_uint(&out, "pauses", NULL, t.pauses);
	out.quiet = false;
	rc_out_text(&out, "%zu device%s: %zu with drops, ", r->f.n, r->f.n == 1 ? "" : "s",
		    t.with_drops);
	if (r->resets)
		rc_out_text(&out, "%zu pausing, ", t.with_pauses);
	rc_out_text(&out, "%zu failed, %zu without counters\n", t.errors, t.unsupported);
	rc_out_str(&out, "status", NULL, status);
	rc_out_int(&out, "exit_code", NULL, code);
	rc_out_close_object(&out);
	rc_out_end(&out);
	return code;
}

/* Every device's counters become their rise since base[i] (rc_counters_delta); a device
 * read now but without a baseline fails with `missing`. */
static int to_deltas(struct ctr_run *r, const struct rc_counters *base, const bool *has,
		     const char *missing)
{
	r->resets = calloc(r->f.n ? r->f.n : 1, sizeof(*r->resets));
	if (!r->resets)
		return -ENOMEM;
	for (size_t i = 0; i < r->f.n; i++) {
		struct rc_fleet_dev *d = &r->f.devs[i];
		struct rc_counters out = {0};
		size_t unmatched = 0;

		if (d->rc || d->no_counters)
			continue;
		if (!has[i]) {
			d->rc = rc_errf(&d->err, ENOENT, "'%s': %s", r->inv.devices[d->index].name,
					missing);
			rc_counters_fini(&d->counters);
			continue;
		}
		if (rc_counters_delta(&out, &base[i], &d->counters, &r->resets[i], &unmatched)) {
			rc_counters_fini(&out);
			return -ENOMEM;
		}
		rc_counters_fini(&d->counters);
		d->counters = out;
	}
	return 0;
}

/* --interval: read, wait, read again.  A device that failed either read has no deltas and
 * reports the first failure. */
static int sample_twice(struct ctr_run *r)
{
	size_t n = r->f.n ? r->f.n : 1;
	struct rc_counters *base = calloc(n, sizeof(*base));
	struct rc_err *first_err = calloc(n, sizeof(*first_err));
	int *first_rc = calloc(n, sizeof(*first_rc));
	bool *has = calloc(n, sizeof(*has));
	struct timespec ts = {.tv_sec = (time_t)(r->o.interval_us / 1000000u),
			      .tv_nsec = (long)(r->o.interval_us % 1000000u) * 1000};
	double t0;
	int rc = -ENOMEM;

	if (base && first_err && first_rc && has) {
		t0 = rc_now_s();
		rc_fleet_counters(&r->f);
		for (size_t i = 0; i < r->f.n; i++) {
			struct rc_fleet_dev *d = &r->f.devs[i];

			base[i] = d->counters;
			memset(&d->counters, 0, sizeof(d->counters));
			has[i] = !d->rc && !d->no_counters;
			first_rc[i] = d->rc;
			first_err[i] = d->err;
			/* the second read opens the device afresh (engine/diag/sample.c) */
			rc_devrun_close(&d->run);
		}
		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
		r->window_s = rc_now_s() - t0;
		rc_fleet_counters(&r->f);
		for (size_t i = 0; i < r->f.n; i++)
			if (first_rc[i] && !r->f.devs[i].rc) {
				r->f.devs[i].rc = first_rc[i];
				r->f.devs[i].err = first_err[i];
			}
		rc = to_deltas(r, base, has, "no first sample");
	}
	for (size_t i = 0; base && i < r->f.n; i++)
		rc_counters_fini(&base[i]);
	free(base);
	free(first_err);
	free(first_rc);
	free(has);
	return rc;
}

/* --since RUN: the baseline is the sample `counters --save` kept in RUN's record. */
static int load_baseline(struct ctr_run *r, const char *dir, struct rc_history *h,
			 struct rc_err *err)
{
	int rc = rc_history_load(dir, r->o.since, h, err);

	if (rc == -ENOENT)
		return rc_errf(err, ENOENT,
			       "no run '%s' in the history '%s' (see 'rocectl history')",
			       r->o.since, dir);
	if (rc)
		return rc;
	if (strcmp(h->command, "counters")) {
		rc_errf(err, EINVAL,
			"run '%s' is a %s run, which keeps no counters: take a baseline with "
			"'rocectl counters --save'",
			r->o.since, h->command);
		rc_history_fini(h);
		return -EINVAL;
	}
	return 0;
}

static int since_deltas(struct ctr_run *r, const struct rc_history *h)
{
	size_t n = r->f.n ? r->f.n : 1;
	struct rc_counters *base = calloc(n, sizeof(*base));
	bool *has = calloc(n, sizeof(*has));
	int rc = -ENOMEM;

	if (base && has) {
		for (size_t i = 0; i < r->f.n; i++)
			for (size_t k = 0; k < h->n; k++)
				if (h->devs[k].has_counters &&
				    !strcmp(h->devs[k].device,
					    r->inv.devices[r->f.devs[i].index].name)) {
					base[i] = h->devs[k].counters; /* borrowed */
					has[i] = true;
				}
		r->window_s = difftime(time(NULL), h->started);
		rc = to_deltas(r, base, has, "the baseline run kept no counters of this device");
	}
	free(base);
	free(has);
	return rc;
}

/* --save: the sample as read, before any delta. */
static int keep_sample(struct ctr_run *r, struct rc_history *h, struct rc_err *err)
{
	int rc;

	rc_txn_new_run_id(r->run_id, sizeof(r->run_id));
	rc = rc_history_begin(h, "counters", r->run_id, r->o.policy, r->o.inventory, err);
	for (size_t i = 0; !rc && i < r->f.n; i++) {
		const struct rc_fleet_dev *d = &r->f.devs[i];
		const struct rc_device *dev = &r->inv.devices[d->index];

		if (d->rc || d->no_counters)
			rc_history_result(h, dev->name, d->rc ? "failed" : "unsupported",
					  d->err.msg);
		else if (rc_history_counters(h, dev->name, rc_driver_name_for(dev), &d->counters))
			rc = rc_errf(err, ENOMEM, "out of memory");
	}
	return rc;
}

static int run(struct ctr_run *r, struct rc_err *err)
{
	const char *dir = r->o.history ? r->o.history : rc_history_dir();
	struct rc_history base = {0}, saved = {0};
	bool have_base = false, have_saved = false;
	int rc = 0, code;

	if (r->o.since) {
		rc = load_baseline(r, dir, &base, err);
		have_base = rc == 0;
	}
	if (!rc && r->o.interval_us)
		rc = sample_twice(r);
	else if (!rc)
		rc_fleet_counters(&r->f);
	/* what --save keeps is the sample as read (with --interval, the second one) */
	if (!rc && r->o.save) {
		rc = keep_sample(r, &saved, err);
		have_saved = true;
	}
	if (!rc && have_base)
		rc = since_deltas(r, &base);
	if (rc == -ENOMEM)
		rc_errf(err, ENOMEM, "out of memory");
	code = rc ? RC_EXIT_ERROR : report(r);
	if (!rc && have_saved && rc_history_write(&saved, dir, code, err))
		rc = -EIO;
	if (have_base)
		rc_history_fini(&base);
	if (have_saved)
		rc_history_fini(&saved);
	return rc ? rc : code;
}

int cmd_counters(int argc, char **argv, const struct rc_global *g)
{
	struct ctr_run *r = calloc(1, sizeof(*r));
	struct rc_run_opts opts = {0};
	struct rc_err err = {0};
	int npos, rc, code = RC_EXIT_ERROR, bad_limit = 0;

	if (!r) {
		fprintf(stderr, "rocectl counters: out of memory\n");
		return RC_EXIT_ERROR;
	}
	rc = rc_parse_options(argc, argv, USAGE, options, on_option, &r->o, &npos);
	if (rc || check_usage(&r->o, npos, argv)) {
		if (!rc)
			rc_print_usage(stderr, USAGE, options);
		free(r);
		return rc > 0 ? RC_EXIT_OK : RC_EXIT_USAGE;
	}
	opts.root = r->o.root ? r->o.root : g->root;
	opts.accept_new_host_keys = g->accept_new_host_keys;
	opts.verbose = rc_cli_verbosity() > 0;
	opts.dry_run = true; /* counters never write */
	rc = load(&r->o, &r->pol, &r->have_pol, &r->inv, &r->have_inv, &err);
	if (!rc && !r->have_inv)
		local_inventory(&r->o, &r->local, &r->inv);
	if (!rc && r->have_inv)
		bad_limit = rc_cli_limit_check("counters", &r->inv, r->o.limit);
	if (!rc && !bad_limit)
		rc = rc_fleet_init(&r->f, &r->inv, r->have_pol ? &r->pol : NULL, &opts, r->o.limit,
				   r->o.parallel, &err);
	if (!rc && !bad_limit) {
		r->f.progress = false;
		rc = run(r, &err);
		code = rc < 0 ? RC_EXIT_ERROR : rc;
	}
	if (rc < 0) {
		fprintf(stderr, "rocectl counters: ");
		rc_err_print(&err, stderr);
	}
	rc_fleet_fini(&r->f);
	if (r->have_inv)
		rc_inventory_fini(&r->inv);
	free(r->resets);
	free(r);
	return bad_limit ? bad_limit : code;
}
