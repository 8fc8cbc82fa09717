/* SPDX-License-Identifier: Apache-2.0 */
/* plan / apply / verify over the inventory: load, read every selected device through the
 * fleet executor, print per device and port, exit with the codes of README.md "Exit status":
 *   plan    0 no changes, 2 changes, 1 error
 *   apply   0 done (or nothing to do), 1 error (the failed device was rolled back)
 *   verify  0 in sync, 2 drift, 1 error
 * Every device of the inventory is selected unless --limit says otherwise; verify also
 * checks every link (both ends agree) and every dual-homed host (its NICs land on
 * switches with the same QoS).  `plan -o FILE` saves a plan with a fingerprint of each
 * device's state; `apply FILE` applies it only if nothing changed since.  Locks, journal,
 * --confirm and the history record are the engine's run transaction (include/rocectl/
 * txn.h): this file loads, reads and applies through the fleet executor, and prints. */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fleet_cmd.h"
#include "rocectl/confirm.h"
#include "rocectl/deadlock.h"
#include "rocectl/fleet.h"
#include "rocectl/group.h"
#include "rocectl/lldp.h"
#include "rocectl/plan_file.h"
#include "rocectl/report.h"
#include "rocectl/result.h"
#include "rocectl/shard.h"
#include "rocectl/stream.h"
#include "rocectl/util.h"
#include "txn_print.h"

enum {
	OPT_LIMIT = 256,
	OPT_FORMAT,
	OPT_PARALLEL,
	OPT_JOURNAL = 'J',
	OPT_OUTPUT = 'o',
	OPT_COUNTERS = 260,
	OPT_CONFIRM,
	OPT_SNAPSHOT,
	OPT_DETAILS,
	OPT_SHARD, /* verify --shard K/N, --merge FILE... (include/rocectl/shard.h) */
	OPT_MERGE,
	OPT_GCU_DRY_RUN,
};

enum report_format {
	FMT_TEXT = 0,
	FMT_JSON,
	FMT_PROMETHEUS,
	FMT_DOT,
	FMT_HTML,
	FMT_JSONL, /* verify: one line per device as it is read (engine/report/stream.c) */
};

struct cmd_opts {
	enum rc_fleet_cmd cmd;
	const char *policy;
	const char *inventory;
	const char *limit;
	const char *journal;
	const char *output;
	bool counters;
	bool gcu_dry_run; /* plan --gcu-dry-run */
	bool details;	  /* text: every device and field, not the findings grouped */
	enum report_format format;
	unsigned parallel;
	uint32_t confirm_s;	   /* apply --confirm: seconds, 0 = none */
	const char *snapshot;	   /* verify --snapshot DIR (docs/SNAPSHOT.md) */
	unsigned shard_k, shard_n; /* verify --shard K/N; 0: all */
	bool merge;		   /* verify --merge: the positional arguments are shards' files */
	int n_files;
};

static const char *const names[] = {"plan", "apply", "verify"};

#define COMMON_OPTIONS                                                                             \
	{"policy", 'p', "FILE", "the policy (YAML)", 'p'},                                         \
	    {"inventory", 'i', "FILE", "the inventory (YAML)", 'i'},                               \
	    {"limit", 0, "NAMES", RC_LIMIT_HELP, OPT_LIMIT},                                       \
	{                                                                                          \
		"parallel", 0, "N", "devices worked on at once (default 32)", OPT_PARALLEL         \
	}

static const struct rc_option plan_options[] = {
    COMMON_OPTIONS,
    {"format", 0, "FMT", "text (default) or json", OPT_FORMAT},
    {"details", 0, NULL,
     "text: every device and port as read, not one line per kind of finding (also -v)",
     OPT_DETAILS},
    {"output", 'o', "FILE", "save the plan, with a fingerprint of every device's state",
     OPT_OUTPUT},
    {"gcu-dry-run", 0, NULL,
     "SONiC: also ask GCU (config apply-patch --dry-run) whether it would apply each "
     "switch's patch and which lossless tables it changes live, as notes (a few more "
     "command lines per SONiC switch)",
     OPT_GCU_DRY_RUN},
    RC_OPT_JOURNAL(OPT_JOURNAL),
    {NULL, 0, NULL, NULL, 0},
};

static const struct rc_option verify_options[] = {
    COMMON_OPTIONS,
    {"format", 0, "FMT",
     "text (default), json, prometheus, dot, html (a page to open in a browser), or jsonl (one "
     "line per device as it is read, "
     "in flat memory: for very large fabrics)",
     OPT_FORMAT},
    {"details", 0, NULL,
     "text: every device and port as read, not one line per kind of finding (also -v)",
     OPT_DETAILS},
    {"output", 'o', "FILE",
     "write the report to FILE atomically (temporary file, then rename: for the "
     "node_exporter textfile collector)",
     OPT_OUTPUT},
    {"counters", 0, NULL,
     "also read every device's counters (PFC pauses, ECN marks, CNPs, drops) into the "
     "prometheus output",
     OPT_COUNTERS},
    {"snapshot", 0, "DIR", RC_SNAPSHOT_HELP, OPT_SNAPSHOT},
    {"shard", 0, "K/N",
     "read only shard K of N: the inventory's pods (a leaf, its hosts and their other leaves) "
     "and its other switches dealt out over N shards, the same on every machine; with "
     "--limit, what both select (docs/SCALE.md)",
     OPT_SHARD},
    {"merge", 0, NULL,
     "the arguments are the N shards' 'verify --shard K/N --format jsonl' outputs: print "
     "the report one verify of them all prints (text, json or jsonl)",
     OPT_MERGE},
    RC_OPT_JOURNAL(OPT_JOURNAL),
    {NULL, 0, NULL, NULL, 0},
};

static const struct rc_option apply_options[] = {
    COMMON_OPTIONS,
    {"format", 0, "FMT", "text (default) or json", OPT_FORMAT},
    {"confirm", 0, "DURATION",
     "roll every changed device back after DURATION (20s, 5m, 1h) unless 'rocectl confirm "
     "RUN' keeps it; at once when a device stops answering or verify fails",
     OPT_CONFIRM},
    RC_OPT_JOURNAL(OPT_JOURNAL),
    {NULL, 0, NULL, NULL, 0},
};

static int on_option(int id, const char *arg, void *ctx)
{
	struct cmd_opts *o = ctx;

	switch (id) {
	case 'p':
		o->policy = arg;
		break;
	case 'i':
		o->inventory = arg;
		break;
	case OPT_LIMIT:
		o->limit = arg;
		break;
	case OPT_JOURNAL:
		o->journal = arg;
		break;
	case OPT_OUTPUT:
		o->output = arg;
		break;
	case OPT_COUNTERS:
		o->counters = true;
		break;
	case OPT_GCU_DRY_RUN:
		o->gcu_dry_run = true;
		break;
	case OPT_SNAPSHOT:
		o->snapshot = arg;
		break;
	case OPT_DETAILS:
		o->details = true;
		break;
	case OPT_SHARD: {
		struct rc_err err = {0};

		if (rc_shard_parse(arg, &o->shard_k, &o->shard_n, &err)) {
			fprintf(stderr, "rocectl verify: --shard: %s\n", err.msg);
			return -EINVAL;
		}
		break;
	}
	case OPT_MERGE:
		o->merge = true;
		break;
	case OPT_CONFIRM: {
		struct rc_err err = {0};

		if (rc_confirm_parse_duration(arg, &o->confirm_s, &err)) {
			fprintf(stderr, "rocectl apply: --confirm: %s\n", err.msg);
			return -EINVAL;
		}
		break;
	}
	case OPT_FORMAT:
		if (!strcmp(arg, "text"))
			o->format = FMT_TEXT;
		else if (!strcmp(arg, "json"))
			o->format = FMT_JSON;
		else if (o->cmd == RC_FLEET_CMD_VERIFY && !strcmp(arg, "prometheus"))
			o->format = FMT_PROMETHEUS;
		else if (o->cmd == RC_FLEET_CMD_VERIFY && !strcmp(arg, "dot"))
			o->format = FMT_DOT;
		else if (o->cmd == RC_FLEET_CMD_VERIFY && !strcmp(arg, "html"))
			o->format = FMT_HTML;
		else if (o->cmd == RC_FLEET_CMD_VERIFY && !strcmp(arg, "jsonl"))
			o->format = FMT_JSONL;
		else {
			fprintf(stderr, "rocectl: --format: '%s' is not one of %s\n", arg,
				o->cmd == RC_FLEET_CMD_VERIFY
				    ? "text, json, prometheus, dot, html, jsonl"
				    : "text, json");
			return -EINVAL;
		}
		break;
	case OPT_PARALLEL:
		return rc_number_arg(names[o->cmd], "parallel", arg, 1, 1024, &o->parallel);
	}
	return 0;
}

static int load(const struct cmd_opts *o, struct rc_policy *pol, struct rc_inventory *inv)
{
	struct rc_warnings warn = {0};
	struct rc_err err = {0};

	if (rc_policy_load(o->policy, pol, &warn, &err)) {
		rc_err_print(&err, stderr);
		return -1;
	}
	if (rc_inventory_load(o->inventory, inv, &warn, &err)) {
		rc_err_print(&err, stderr);
		return -1;
	}
	rc_warnings_print(&warn, stderr);
	return 0;
}

struct tally {
	size_t devices, failed, with_changes, changes;
};

/* plan: a driver's own verdict on its writes (the optional `check` op, e.g. SONiC's GCU
 * dry run); NULL when it has nothing to say. */
static struct rc_notes *check_device(const struct rc_fleet_dev *d)
{
	const struct rc_devrun *r = &d->run;
	struct rc_port_write *w;
	struct rc_notes *notes;
	struct rc_err err = {0};

	if (d->rc || !r->drv || !r->drv->check || !r->sess || !r->changes.n)
		return NULL;
	w = calloc(r->n_ports ? r->n_ports : 1, sizeof(*w));
	notes = calloc(1, sizeof(*notes));
	if (!w || !notes) {
		free(w);
		free(notes);
		return NULL;
	}
	for (size_t i = 0; i < r->n_ports; i++)
		w[i] = (struct rc_port_write){r->have[i].name, &r->want[i].qos, &r->have[i].qos,
					      r->write_fields[i]};
	if (r->drv->check(r->sess, w, r->n_ports, notes, &err) && notes->n < RC_NOTES_MAX)
		snprintf(notes->v[notes->n++], RC_NOTE_LEN, "check failed: %s", err.msg);
	free(w);
	if (!notes->n && !notes->dropped) {
		free(notes);
		return NULL;
	}
	return notes;
}

/* The notes of every device as "notes": [{"device", "note"}] (JSON; text prints them
 * under each device). */
static void notes_json(struct rc_out *out, const struct rc_fleet *f, struct rc_notes **notes)
{
	if (!notes || !rc_out_json(out))
		return;
	rc_out_open_array(out, "notes");
	for (size_t i = 0; i < f->n; i++)
		for (size_t k = 0; notes[i] && k < notes[i]->n; k++) {
			rc_out_open_object(out, NULL);
			rc_out_str(out, "device", NULL, f->inv->devices[f->devs[i].index].name);
			rc_out_str(out, "note", NULL, notes[i]->v[k]);
			rc_out_close_object(out);
		}
	rc_out_close_array(out);
}

/* What the read found, counted from the fleet (the model), not from what was printed. */
static void tally_read(const struct rc_fleet *f, struct tally *t)
{
	for (size_t i = 0; i < f->n; i++) {
		const struct rc_fleet_dev *d = &f->devs[i];
		const struct rc_changes *c = &d->run.changes;
		size_t n = d->rc ? 0
				 : rc_changes_count(c, RC_CHANGE_SET) +
				       rc_changes_count(c, RC_CHANGE_UNKNOWN);

		t->devices++;
		t->failed += d->rc != 0;
		t->with_changes += n > 0;
		t->changes += n;
	}
}

static void report_read(struct rc_out *out, enum rc_fleet_cmd cmd, struct rc_fleet *f,
			struct rc_notes **notes)
{
	enum rc_report_mode mode = cmd == RC_FLEET_CMD_VERIFY ? RC_REPORT_VERIFY : RC_REPORT_PLAN;
	struct rc_group g; /* text: grouped by kind unless --details (include/rocectl/group.h) */
	char more[64];

	rc_group_init(&g, out, mode);
	for (size_t i = 0; i < f->n; i++) {
		struct rc_fleet_dev *d = &f->devs[i];
		const struct rc_device *dev = &f->inv->devices[d->index];
		struct rc_report_times t = {.read = true, .read_ms = d->read_ms};

		rc_group_device(&g, dev, rc_driver_name_for(dev), d->rc ? NULL : &d->run.changes,
				d->rc ? d->err.msg : NULL, &t);
		if (!notes || !(notes[i] = check_device(d)) || rc_out_json(out))
			continue;
		for (size_t k = 0; k < notes[i]->n; k++)
			rc_group_note(&g, dev, notes[i]->v[k]);
		snprintf(more, sizeof(more), "%zu more not shown", notes[i]->dropped);
		if (notes[i]->dropped)
			rc_group_note(&g, dev, more);
	}
	rc_group_print(&g);
	rc_group_fini(&g);
}

static void summary(struct rc_out *out, enum rc_fleet_cmd cmd, const struct tally *t)
{
	rc_out_open_object(out, "summary");
	rc_report_summary_counts(out, names[cmd], t->changes, t->with_changes, t->devices,
				 t->failed);
	rc_out_close_object(out);
}

static int run_apply(struct rc_out *out, struct rc_fleet *f, struct tally *t)
{
	struct rc_changes *before = calloc(f->n ? f->n : 1, sizeof(*before));
	size_t bad;

	if (!before) {
		fprintf(stderr, "rocectl apply: out of memory\n");
		return RC_EXIT_ERROR;
	}
	for (size_t i = 0; i < f->n; i++)
		if (!f->devs[i].rc && rc_changes_copy(&f->devs[i].run.changes, &before[i])) {
			fprintf(stderr, "rocectl apply: out of memory\n");
			free(before);
			return RC_EXIT_ERROR;
		}
	bad = rc_fleet_apply(f);
	for (size_t i = 0; i < f->n; i++) {
		struct rc_fleet_dev *d = &f->devs[i];
		const struct rc_device *dev = &f->inv->devices[d->index];
		size_t n = rc_changes_count(&before[i], RC_CHANGE_SET);
		bool failed = d->rc || d->skipped;

		t->devices++;
		t->failed += failed;
		t->with_changes += n > 0 && !failed;
		t->changes += failed ? 0 : n;
		struct rc_report_times tm = {.read = true,
					     .read_ms = d->read_ms,
					     .apply = d->apply_timed,
					     .apply_ms = d->apply_ms};

		rc_report_device_timed(out, RC_REPORT_PLAN, dev->name, rc_driver_name_for(dev),
				       failed ? NULL : &before[i], failed ? d->err.msg : NULL, &tm);
		if (!failed && n)
			rc_out_text(out, "  applied and verified\n");
		rc_changes_fini(&before[i]);
	}
	free(before);
	return bad ? RC_EXIT_ERROR : RC_EXIT_OK;
}

int rc_verify_checks_build(struct rc_verify_checks *c, const struct rc_fleet *f)
{
	struct rc_err err = {0};

	memset(c, 0, sizeof(*c));
	if (rc_result_build(&c->r, f, &err)) {
		fprintf(stderr, "rocectl verify: %s\n", err.msg);
		return -1;
	}
	/* PFC deadlock risk of the topology (include/rocectl/deadlock.h) */
	if (rc_deadlock_analyze(&c->dl, f->inv, &err)) {
		fprintf(stderr, "rocectl verify: %s\n", err.msg);
		rc_result_fini(&c->r);
		return -1;
	}
	/* cabling against LLDP (include/rocectl/lldp.h) */
	if (rc_lldp_read(&c->lldp, f, &err) || rc_cabling_check(&c->cab, &c->lldp, &err)) {
		fprintf(stderr, "rocectl verify: %s\n", err.msg);
		rc_cabling_fini(&c->cab);
		rc_lldp_fini(&c->lldp);
		rc_deadlock_fini(&c->dl);
		rc_result_fini(&c->r);
		return -1;
	}
	return 0;
}

void rc_verify_checks_fini(struct rc_verify_checks *c)
{
	rc_cabling_fini(&c->cab);
	rc_lldp_fini(&c->lldp);
	rc_deadlock_fini(&c->dl);
	rc_result_fini(&c->r);
}

/* verify's cross-hop checks, after the per-device report; returns the exit code. */
static int verify_checks(struct rc_out *out, FILE *dst, const struct rc_fleet *f,
			 const struct tally *t, enum report_format fmt)
{
	struct rc_verify_checks vc;
	size_t bad_links = 0, bad_hosts = 0, deadlock = 0, cabling = 0;
	int code;

	if (rc_verify_checks_build(&vc, f))
		return RC_EXIT_ERROR;
	/* prometheus and dot, like text, json and jsonl, are printed as devices are read
	 * (streams()) */
	if (fmt == FMT_HTML)
		rc_report_html(dst, &vc.r);
	if (!out) {
		for (size_t i = 0; i < vc.r.n_links; i++)
			bad_links += vc.r.links[i].status != RC_CHECK_OK;
		for (size_t i = 0; i < vc.r.n_hosts; i++)
			bad_hosts += vc.r.hosts[i].status != RC_CHECK_OK;
		deadlock = rc_deadlock_unprotected(&vc.dl, &vc.r);
		cabling = vc.cab.n;
	} else {
		rc_report_checks(out, &vc.r, &bad_links, &bad_hosts);
		rc_report_deadlock(out, &vc.dl, &vc.r, &deadlock);
		cabling = rc_report_cabling(out, &vc.lldp, &vc.cab);
	}
	code = t->failed						     ? RC_EXIT_ERROR
	       : t->changes || bad_links || bad_hosts || deadlock || cabling ? RC_EXIT_CHANGES
									     : RC_EXIT_OK;
	rc_verify_checks_fini(&vc);
	return code;
}

/* verify's formats whose report is made while devices are read (each device printed, grouped
 * or spooled, then freed: engine/report/stream.c): jsonl (with --shard, the merge's data on
 * its lines), prometheus, text, json, dot. */
static bool streams(enum rc_fleet_cmd cmd, enum report_format fmt, bool details)
{
	/* text with --details lists every device in inventory order: not streamed */
	return fmt == FMT_JSONL || (cmd == RC_FLEET_CMD_VERIFY &&
				    (fmt == FMT_PROMETHEUS || fmt == FMT_JSON || fmt == FMT_DOT ||
				     (fmt == FMT_TEXT && !details && rc_cli_verbosity() <= 0)));
}

/* Reads and prints as above; returns the exit code. */
static int verify_stream(FILE *dst, struct rc_fleet *f, const struct cmd_opts *o)
{
	struct rc_stream_opts so = {.fmt = o->format == FMT_JSONL	 ? RC_STREAM_JSONL
					   : o->format == FMT_PROMETHEUS ? RC_STREAM_PROMETHEUS
					   : o->format == FMT_JSON	 ? RC_STREAM_JSON
					   : o->format == FMT_DOT	 ? RC_STREAM_DOT
									 : RC_STREAM_TEXT,
				    .details = o->details || rc_cli_verbosity() > 0};
	FILE *sink = NULL; /* -q, text: what comes before the summary goes nowhere */
	struct rc_stream_totals t;
	struct rc_shard_meta meta = {.index = o->shard_k, .count = o->shard_n};
	struct rc_err err = {0};
	int rc;

	if (o->shard_n && (rc_shard_file_sha256(o->policy, meta.policy_sha256, &err) ||
			   rc_shard_file_sha256(o->inventory, meta.inventory_sha256, &err))) {
		fprintf(stderr, "rocectl verify: %s\n", err.msg);
		return RC_EXIT_ERROR;
	}
	snprintf(meta.limit, sizeof(meta.limit), "%s", o->limit ? o->limit : "");
	so.shard = o->shard_n ? &meta : NULL;
	if (so.fmt == RC_STREAM_TEXT && rc_cli_verbosity() < 0)
		sink = fopen("/dev/null", "w");
	rc = rc_stream_verify_as(f, &so, sink ? sink : dst, &t, NULL, NULL, &err);
	if (sink)
		fclose(sink);
	if (rc) {
		fprintf(stderr, "rocectl verify: %s\n", err.msg);
		return RC_EXIT_ERROR;
	}
	if (so.fmt == RC_STREAM_TEXT) {
		struct tally ty = {.devices = t.devices,
				   .failed = t.failed,
				   .with_changes = t.with_changes,
				   .changes = t.changes};
		struct rc_out out;

		rc_out_init(&out, dst, RC_OUT_TEXT);
		summary(&out, RC_FLEET_CMD_VERIFY, &ty);
		rc_out_end(&out);
	}
	return t.failed ? RC_EXIT_ERROR
	       : t.changes || t.bad_links || t.bad_hosts || t.deadlock_unprotected || t.cabling
		   ? RC_EXIT_CHANGES
		   : RC_EXIT_OK;
}

/* `apply FILE`: the plan's files and every device's state must be what was reviewed. */
static int check_saved_plan(const struct rc_plan_file *plan, const struct rc_fleet *f)
{
	struct rc_err err = {0};
	uint64_t fp;
	int bad = 0;

	if (rc_plan_file_hash(plan->policy, &fp, &err) || fp != plan->policy_fp) {
		fprintf(stderr, "rocectl apply: the policy '%s' changed since the plan was made\n",
			plan->policy);
		return -1;
	}
	if (rc_plan_file_hash(plan->inventory, &fp, &err) || fp != plan->inventory_fp) {
		fprintf(stderr,
			"rocectl apply: the inventory '%s' changed since the plan was made\n",
			plan->inventory);
		return -1;
	}
	for (size_t i = 0; i < f->n; i++) {
		const struct rc_fleet_dev *d = &f->devs[i];
		const char *name = f->inv->devices[d->index].name;
		bool listed = false;

		for (size_t j = 0; j < plan->n; j++)
			listed |= !strcmp(plan->devs[j].name, name);
		if (!listed) {
			/* only what the plan fingerprinted may be applied */
			fprintf(stderr,
				"rocectl apply: '%s' is not in the plan; nothing was applied\n",
				name);
			bad = -1;
		}
		for (size_t j = 0; j < plan->n; j++) {
			if (strcmp(plan->devs[j].name, name))
				continue;
			if (d->rc) {
				fprintf(stderr, "rocectl apply: cannot re-read '%s': %s\n", name,
					d->err.msg);
				bad = -1;
			} else if (rc_plan_fingerprint(d) != plan->devs[j].fingerprint) {
				fprintf(stderr,
					"rocectl apply: '%s' changed since the plan was made; "
					"nothing was applied (make a new plan)\n",
					name);
				bad = -1;
			}
		}
	}
	return bad;
}

/* The plan's devices as a --limit list. */
static char *plan_limit(const struct rc_plan_file *plan)
{
	char *s = calloc(plan->n ? plan->n : 1, RC_NAME_MAX + 1);
	size_t off = 0;

	for (size_t i = 0; s && i < plan->n; i++)
		off += (size_t)sprintf(s + off, "%s%s", i ? "," : "", plan->devs[i].name);
	return s;
}

static int parse_args(enum rc_fleet_cmd cmd, int argc, char **argv, struct cmd_opts *o,
		      const char **plan_path)
{
	const struct rc_option *opts = cmd == RC_FLEET_CMD_APPLY  ? apply_options
				       : cmd == RC_FLEET_CMD_PLAN ? plan_options
								  : verify_options;
	char usage[128];
	int npos, rc;

	snprintf(usage, sizeof(usage), "rocectl %s -p POLICY -i INVENTORY [options]%s", names[cmd],
		 cmd == RC_FLEET_CMD_APPLY ? "\n       rocectl apply PLANFILE [options]" : "");
	rc = rc_parse_options(argc, argv, usage, opts, on_option, o, &npos);
	if (rc)
		return rc > 0 ? RC_EXIT_OK : RC_EXIT_USAGE;
	*plan_path = NULL;
	if (npos == 1 && cmd == RC_FLEET_CMD_APPLY && !o->policy && !o->inventory && !o->limit) {
		*plan_path = argv[0];
		return -1;
	}
	o->n_files = npos;
	if (o->merge && !npos) {
		fprintf(stderr, "rocectl verify: --merge needs the shards' files\n");
		return RC_EXIT_USAGE;
	}
	if (npos && !o->merge) {
		fprintf(stderr, "rocectl %s: unexpected argument '%s'\n", names[cmd], argv[0]);
		return RC_EXIT_USAGE;
	}
	if (o->merge && (o->shard_n || o->limit || o->snapshot || o->counters)) {
		fprintf(stderr, "rocectl verify: --merge reads files: --shard, --limit, --snapshot "
				"and --counters are the shards' options\n");
		return RC_EXIT_USAGE;
	}
	if (o->merge && o->format != FMT_TEXT && o->format != FMT_JSON && o->format != FMT_JSONL) {
		fprintf(stderr, "rocectl verify: --merge prints text, json or jsonl\n");
		return RC_EXIT_USAGE;
	}
	if (o->shard_n && o->limit &&
	    strlen(o->limit) >= sizeof(((struct rc_shard_meta *)0)->limit)) {
		fprintf(stderr, "rocectl verify: --limit is too long for --shard (1023 bytes)\n");
		return RC_EXIT_USAGE;
	}
	if (!o->policy || !o->inventory) {
		fprintf(stderr, "rocectl %s: both -p POLICY and -i INVENTORY are needed\n",
			names[cmd]);
		rc_print_usage(stderr, usage, opts);
		return RC_EXIT_USAGE;
	}
	return -1; /* go on */
}

/* Text or JSON: every device, then (verify) the cross-hop checks, then the summary. */
static int print_report(FILE *dst, enum rc_fleet_cmd cmd, const struct cmd_opts *o,
			struct rc_fleet *f)
{
	struct rc_notes **notes = NULL; /* plan: per device, from the drivers' check op */
	struct tally t = {0};
	struct rc_out out;
	FILE *sink = NULL; /* -q, text: what comes before the summary goes nowhere */
	int exit_code;

	if (rc_cli_verbosity() < 0 && o->format == FMT_TEXT)
		sink = fopen("/dev/null", "w");
	rc_out_init(&out, sink ? sink : dst, o->format == FMT_JSON ? RC_OUT_JSON : RC_OUT_TEXT);
	out.details = o->details || rc_cli_verbosity() > 0;
	rc_out_open_object(&out, NULL);
	rc_out_str(&out, "command", NULL, names[cmd]);
	if (cmd == RC_FLEET_CMD_APPLY)
		rc_out_str(&out, "run_id", "run %s\n", f->run_id);
	rc_out_open_array(&out, "devices");
	if (cmd == RC_FLEET_CMD_APPLY) {
		exit_code = run_apply(&out, f, &t);
	} else {
		if (cmd == RC_FLEET_CMD_PLAN)
			notes = calloc(f->n ? f->n : 1, sizeof(*notes));
		tally_read(f, &t);
		report_read(&out, cmd, f, notes);
		/* a device whose apply would be refused fails the plan (its note says why) */
		for (size_t i = 0; notes && i < f->n; i++)
			t.failed += notes[i] && notes[i]->apply_fails && !f->devs[i].rc;
		exit_code = t.failed ? RC_EXIT_ERROR : t.changes ? RC_EXIT_CHANGES : RC_EXIT_OK;
	}
	rc_out_close_array(&out);
	notes_json(&out, f, notes);
	for (size_t i = 0; notes && i < f->n; i++)
		free(notes[i]);
	free(notes);
	if (cmd == RC_FLEET_CMD_VERIFY)
		exit_code = verify_checks(&out, dst, f, &t, o->format);
	if (sink) {
		fclose(sink);
		out.f = dst;
	}
	summary(&out, cmd, &t);
	rc_out_close_object(&out);
	rc_out_end(&out);
	return exit_code;
}

/* verify --merge A.jsonl B.jsonl ...: the shards' lines become one fleet
 * (engine/report/merge.c), printed as verify prints a fleet it read; jsonl by
 * cli/verify_merge.c.  Nothing is printed when a file is refused. */
static int verify_merge(const struct cmd_opts *o, char **files)
{
	struct rc_policy pol;
	struct rc_inventory inv = {0};
	struct rc_merge m = {0};
	struct rc_fleet f = {0};
	struct rc_err err = {0};
	char psha[RC_SHA256_HEX_LEN], isha[RC_SHA256_HEX_LEN];
	char *buf = NULL;
	size_t buf_len = 0;
	FILE *dst = stdout;
	int exit_code = RC_EXIT_ERROR;

	memset(&pol, 0, sizeof(pol));
	if (load(o, &pol, &inv))
		goto out;
	if (rc_shard_file_sha256(o->policy, psha, &err) ||
	    rc_shard_file_sha256(o->inventory, isha, &err) || rc_merge_init(&m, &inv, &pol, &err)) {
		fprintf(stderr, "rocectl verify: %s\n", err.msg);
		goto out;
	}
	m.policy_sha256 = psha;
	m.inventory_sha256 = isha;
	for (int i = 0; i < o->n_files; i++) {
		FILE *in = fopen(files[i], "r");
		int rc;

		if (!in) {
			fprintf(stderr, "rocectl verify: --merge: cannot open '%s': %s\n", files[i],
				strerror(errno));
			goto out;
		}
		rc = rc_merge_file(&m, in, files[i], &err);
		fclose(in);
		if (rc) {
			fprintf(stderr, "rocectl verify: --merge: %s\n", err.msg);
			goto out;
		}
	}
	if (rc_merge_finish(&m, &f, &err)) {
		fprintf(stderr, "rocectl verify: --merge: %s\n", err.msg);
		goto out;
	}
	if (o->output && !(dst = open_memstream(&buf, &buf_len))) {
		fprintf(stderr, "rocectl verify: out of memory\n");
		goto out;
	}
	exit_code = o->format == FMT_JSONL ? rc_verify_merged_jsonl(dst, &f)
					   : print_report(dst, RC_FLEET_CMD_VERIFY, o, &f);
	if (dst != stdout) {
		fclose(dst);
		if (rc_write_atomic(o->output, buf, buf_len, 0644, "report", &err)) {
			fprintf(stderr, "rocectl verify: %s\n", err.msg);
			exit_code = RC_EXIT_ERROR;
		}
	}
out:
	free(buf);
	rc_merge_fini(&m); /* f.devs is m's */
	rc_inventory_fini(&inv);
	return exit_code;
}

/* The engine's run transaction for this run (include/rocectl/txn.h). */
static void txn_opts(const struct cmd_opts *o, const struct rc_global *g, struct rc_txn_opts *t)
{
	static const enum rc_txn_kind kinds[] = {RC_TXN_PLAN, RC_TXN_APPLY, RC_TXN_VERIFY};

	memset(t, 0, sizeof(*t));
	t->kind = kinds[o->cmd];
	t->journal = o->journal;
	t->policy = o->policy;
	t->inventory = o->inventory;
	t->confirm_s = o->cmd == RC_FLEET_CMD_APPLY ? o->confirm_s : 0;
	t->data_on_stdout = o->format != FMT_TEXT;
	rc_cli_txn_env(g, &t->env);
}

int rc_fleet_command(enum rc_fleet_cmd cmd, int argc, char **argv, const struct rc_global *g)
{
	struct cmd_opts o = {.cmd = cmd};
	struct rc_run_opts ropts = {
	    .root = g->root,
	    .accept_new_host_keys = g->accept_new_host_keys,
	    .dry_run = cmd != RC_FLEET_CMD_APPLY,
	    .save_pending = g->save_pending,
	};
	struct rc_plan_file plan = {0};
	const char *plan_path;
	char *limit = NULL;
	struct rc_policy pol;
	struct rc_inventory inv = {0};
	struct rc_fleet f = {0};
	struct rc_err err = {0};
	struct tally t = {0};
	struct rc_txn_opts topts;
	struct rc_txn txn = {0};
	struct rc_cli_say say;
	int exit_code = RC_EXIT_ERROR;
	struct rc_atomic_file report = {.dfd = -1}; /* verify -o: whole or not at all */
	FILE *dst = stdout;

	exit_code = parse_args(cmd, argc, argv, &o, &plan_path);
	if (exit_code >= 0)
		return exit_code;
	if (o.merge)
		return verify_merge(&o, argv);
	ropts.verbose = rc_cli_verbosity() > 0;
	ropts.snapshot = o.snapshot;
	/* verify, and plan unless asked, send no platform dry run (SONiC's GCU): a device is
	 * read with one command line */
	ropts.no_platform_dry_runs =
	    cmd == RC_FLEET_CMD_VERIFY || (cmd == RC_FLEET_CMD_PLAN && !o.gcu_dry_run);
	exit_code = RC_EXIT_ERROR;
	if (plan_path) {
		if (rc_plan_load(plan_path, &plan, &err)) {
			fprintf(stderr, "rocectl apply: %s\n", err.msg);
			return RC_EXIT_ERROR;
		}
		o.policy = plan.policy;
		o.inventory = plan.inventory;
		o.limit = limit = plan_limit(&plan);
	}
	o.journal = rc_txn_journal_dir(o.journal);
	memset(&pol, 0, sizeof(pol));
	if (load(&o, &pol, &inv))
		goto out;
	/* a plan's own list is not the operator's: a device it names gone is the plan's error */
	if (!plan_path && (exit_code = rc_cli_limit_check(names[cmd], &inv, o.limit)))
		goto out;
	exit_code = RC_EXIT_ERROR;
	if (rc_fleet_init(&f, &inv, &pol, &ropts, o.limit, o.parallel, &err)) {
		fprintf(stderr, "rocectl %s: %s\n", names[cmd], err.msg);
		goto out;
	}
	if (o.shard_n) {
		size_t before = f.n;

		if (rc_shard_filter(&f, o.shard_k, o.shard_n, &err)) {
			fprintf(stderr, "rocectl verify: %s\n", err.msg);
			goto out;
		}
		if (!f.n) {
			fprintf(stderr,
				"rocectl verify: shard %u/%u holds none of the %zu device(s) "
				"selected%s (fewer shards, or a wider --limit)\n",
				o.shard_k, o.shard_n, before, o.limit ? " by --limit" : "");
			exit_code = RC_EXIT_USAGE;
			goto out;
		}
	}
	if (rc_fd_limit_for(f.parallel, names[cmd]))
		goto out;
	f.progress = rc_cli_verbosity() >= 0; /* -q: the summary alone */
	f.disconnect_after_read = cmd == RC_FLEET_CMD_VERIFY;
	f.read_counters = cmd == RC_FLEET_CMD_VERIFY && o.counters;
	f.read_neighbors = cmd == RC_FLEET_CMD_VERIFY;
	/* apply: every selected device locked before it is read; --confirm armed before the
	 * first write; stale journal entries of the selection said */
	txn_opts(&o, g, &topts);
	rc_cli_say_init(&say, topts.data_on_stdout);
	if (rc_txn_begin(&txn, &topts, &f, &say.say))
		goto out;
	if (cmd == RC_FLEET_CMD_VERIFY && o.output) {
		/* written as it is made into a temporary file renamed at the end: the file
		 * appears whole or not at all, and the report is never held in memory */
		if (rc_atomic_open(&report, o.output, 0644, "report", &err)) {
			fprintf(stderr, "rocectl verify: %s\n", err.msg);
			goto out;
		}
		dst = report.f;
	}
	if (streams(cmd, o.format, o.details)) {
		/* reads while printing: each device is printed and freed as it finishes */
		exit_code = verify_stream(dst, &f, &o);
	} else {
		rc_fleet_read(&f);
		if (plan_path && check_saved_plan(&plan, &f))
			goto out;
	}
	/* plan and apply leave a record (include/rocectl/history.h); verify changes nothing */
	rc_txn_record_read(&txn);
	if (streams(cmd, o.format, o.details)) {
		/* printed above */
	} else if (o.format == FMT_HTML) {
		/* the same model, another printer: no text report is made to be thrown away */
		tally_read(&f, &t);
		exit_code = verify_checks(NULL, dst, &f, &t, o.format);
	} else {
		exit_code = print_report(dst, cmd, &o, &f);
	}
	fflush(stdout); /* the report before what the confirm step says */
	exit_code = rc_txn_end(&txn, exit_code, false);
	if (dst != stdout && rc_atomic_commit(&report, &err)) {
		fprintf(stderr, "rocectl verify: %s\n", err.msg);
		exit_code = RC_EXIT_ERROR;
	}
	fflush(stdout);
	if (cmd == RC_FLEET_CMD_PLAN && o.output && exit_code != RC_EXIT_ERROR) {
		if (rc_plan_save(o.output, o.policy, o.inventory, &f, &err)) {
			fprintf(stderr, "rocectl plan: %s\n", err.msg);
			exit_code = RC_EXIT_ERROR;
		} else {
			fprintf(stderr, "plan saved to '%s'; apply it with 'rocectl apply %s'\n",
				o.output, o.output);
		}
	}
out:
	rc_atomic_abort(&report); /* nothing once committed */
	rc_txn_fini(&txn);
	rc_fleet_fini(&f);
	rc_inventory_fini(&inv);
	rc_plan_fini(&plan);
	free(limit);
	return exit_code;
}
