/* plan / apply / verify over the inventory: load, read every selected device through the
 * fleet executor, print per device and port, exit with POLICY.md's codes:
 *   plan    0 no changes, 2 changes, 1 error
 *   apply   0 done (or nothing to do), 1 error (the failed device was rolled back)
 *   verify  0 in sync, 2 drift, 1 error
 * Until the fabric engine covers hosts, links and paths here, the default selection is
 * the inventory's switches. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet_cmd.h"
#include "rocectl/fleet.h"
#include "rocectl/journal.h"
#include "rocectl/report.h"

enum {
	OPT_LIMIT = 256,
	OPT_FORMAT,
	OPT_PARALLEL,
	OPT_JOURNAL = 'J',
};

struct cmd_opts {
	const char *policy;
	const char *inventory;
	const char *limit;
	const char *journal;
	enum rc_out_mode format;
	unsigned parallel;
};

static const char *const names[] = {"plan", "apply", "verify"};

static const struct rc_option read_options[] = {
    {"policy", 'p', "FILE", "the policy (YAML)", 'p'},
    {"inventory", 'i', "FILE", "the inventory (YAML)", 'i'},
    {"limit", 0, "NAMES", "only these devices or roles (comma-separated; default: switch)",
     OPT_LIMIT},
    {"format", 0, "FMT", "text (default) or json", OPT_FORMAT},
    {"parallel", 0, "N", "devices worked on at once (default 32)", OPT_PARALLEL},
    {NULL, 0, NULL, NULL, 0},
};

static const struct rc_option apply_options[] = {
    {"policy", 'p', "FILE", "the policy (YAML)", 'p'},
    {"inventory", 'i', "FILE", "the inventory (YAML)", 'i'},
    {"limit", 0, "NAMES", "only these devices or roles (comma-separated; default: switch)",
     OPT_LIMIT},
    {"format", 0, "FMT", "text (default) or json", OPT_FORMAT},
    {"parallel", 0, "N", "devices worked on at once (default 32)", OPT_PARALLEL},
    {"journal", 'J', "DIR",
     "journal directory (default $ROCECTL_JOURNAL or " RC_JOURNAL_DEFAULT_DIR ")", OPT_JOURNAL},
    {NULL, 0, NULL, NULL, 0},
};

static int on_option(int id, const char *arg, void *ctx)
{
	struct cmd_opts *o = ctx;
	char *end;
	unsigned long v;

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
	case OPT_FORMAT:
		if (!strcmp(arg, "text"))
			o->format = RC_OUT_TEXT;
		else if (!strcmp(arg, "json"))
			o->format = RC_OUT_JSON;
		else {
			fprintf(stderr, "rocectl: --format: '%s' is not text or json\n", arg);
			return -EINVAL;
		}
		break;
	case OPT_PARALLEL:
		v = strtoul(arg, &end, 10);
		if (*end || !*arg || v < 1 || v > 1024) {
			fprintf(stderr, "rocectl: --parallel: '%s' is not a number in 1..1024\n",
				arg);
			return -EINVAL;
		}
		o->parallel = (unsigned)v;
		break;
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

/* The changes a device had before apply, kept for the report (apply re-diffs). */
static int copy_changes(const struct rc_changes *from, struct rc_changes *to)
{
	memset(to, 0, sizeof(*to));
	if (!from->n)
		return 0;
	to->v = malloc(from->n * sizeof(*to->v));
	if (!to->v)
		return -ENOMEM;
	memcpy(to->v, from->v, from->n * sizeof(*to->v));
	to->n = to->cap = from->n;
	return 0;
}

struct tally {
	size_t devices, failed, with_changes, changes;
};

static void report_read(struct rc_out *out, enum rc_fleet_cmd cmd, struct rc_fleet *f,
			struct tally *t)
{
	enum rc_report_mode mode = cmd == RC_FLEET_CMD_VERIFY ? RC_REPORT_VERIFY : RC_REPORT_PLAN;

	for (size_t i = 0; i < f->n; i++) {
		struct rc_fleet_dev *d = &f->devs[i];
		const struct rc_device *dev = &f->inv->devices[d->index];
		const struct rc_changes *c = d->rc ? NULL : &d->run.changes;
		size_t n =
		    c ? rc_changes_count(c, RC_CHANGE_SET) + rc_changes_count(c, RC_CHANGE_UNKNOWN)
		      : 0;

		t->devices++;
		t->failed += d->rc != 0;
		t->with_changes += n > 0;
		t->changes += n;
		rc_report_device(out, mode, dev->name, rc_driver_name_for(dev), c,
				 d->rc ? d->err.msg : NULL);
	}
}

static void summary(struct rc_out *out, enum rc_fleet_cmd cmd, const struct tally *t)
{
	const char *what = cmd == RC_FLEET_CMD_VERIFY ? "drifted field" : "change";

	rc_out_open_object(out, "summary");
	rc_out_text(out, "%s: ", names[cmd]);
	rc_out_uint(out, cmd == RC_FLEET_CMD_VERIFY ? "drifted_fields" : "changes", "%" PRIu64,
		    t->changes);
	rc_out_text(out, " %s%s%s on ", what, t->changes == 1 ? "" : "s",
		    cmd == RC_FLEET_CMD_APPLY ? " made" : "");
	rc_out_uint(out, "devices_with_changes", "%" PRIu64, t->with_changes);
	rc_out_uint(out, "devices", " of %" PRIu64 " device(s)", t->devices);
	rc_out_uint(out, "errors", ", %" PRIu64 " failed\n", t->failed);
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
		if (!f->devs[i].rc && copy_changes(&f->devs[i].run.changes, &before[i])) {
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
		rc_report_device(out, RC_REPORT_PLAN, dev->name, rc_driver_name_for(dev),
				 failed ? NULL : &before[i], failed ? d->err.msg : NULL);
		if (!failed && n)
			rc_out_text(out, "  applied and verified\n");
		rc_changes_free(&before[i]);
	}
	free(before);
	return bad ? RC_EXIT_ERROR : RC_EXIT_OK;
}

int rc_fleet_command(enum rc_fleet_cmd cmd, int argc, char **argv, const struct rc_global *g)
{
	struct cmd_opts o = {.journal = getenv("ROCECTL_JOURNAL")};
	struct rc_run_opts ropts = {
	    .root = g->root,
	    .accept_new_host_keys = g->accept_new_host_keys,
	    .dry_run = cmd != RC_FLEET_CMD_APPLY,
	};
	struct rc_policy pol;
	struct rc_inventory inv = {0};
	struct rc_fleet f = {0};
	struct rc_err err = {0};
	struct rc_out out;
	struct tally t = {0};
	char usage[96];
	int npos, rc, exit_code;

	snprintf(usage, sizeof(usage), "rocectl %s -p POLICY -i INVENTORY [options]", names[cmd]);
	rc = rc_parse_options(argc, argv, usage,
			      cmd == RC_FLEET_CMD_APPLY ? apply_options : read_options, on_option,
			      &o, &npos);
	if (rc)
		return rc > 0 ? RC_EXIT_OK : RC_EXIT_ERROR;
	if (npos) {
		fprintf(stderr, "rocectl %s: unexpected argument '%s'%s\n", names[cmd], argv[0],
			cmd == RC_FLEET_CMD_APPLY ? " (applying a saved plan is not supported yet)"
						  : "");
		return RC_EXIT_ERROR;
	}
	if (!o.policy || !o.inventory) {
		fprintf(stderr, "rocectl %s: both -p POLICY and -i INVENTORY are needed\n",
			names[cmd]);
		rc_print_usage(stderr, usage,
			       cmd == RC_FLEET_CMD_APPLY ? apply_options : read_options);
		return RC_EXIT_ERROR;
	}
	if (!o.journal || !*o.journal)
		o.journal = RC_JOURNAL_DEFAULT_DIR;
	memset(&pol, 0, sizeof(pol));
	if (load(&o, &pol, &inv)) {
		rc_inventory_free(&inv);
		return RC_EXIT_ERROR;
	}
	if (rc_fleet_init(&f, &inv, &pol, &ropts, o.limit ? o.limit : "switch", o.parallel, &err)) {
		fprintf(stderr, "rocectl %s: %s\n", names[cmd], err.msg);
		rc_fleet_free(&f);
		rc_inventory_free(&inv);
		return RC_EXIT_ERROR;
	}
	f.journal_dir = o.journal;
	rc_journal_new_run_id(f.run_id, sizeof(f.run_id));

	rc_out_init(&out, stdout, o.format);
	rc_out_open_object(&out, NULL);
	rc_out_str(&out, "command", NULL, names[cmd]);
	rc_fleet_read(&f);
	rc_out_open_array(&out, "devices");
	if (cmd == RC_FLEET_CMD_APPLY) {
		exit_code = run_apply(&out, &f, &t);
	} else {
		report_read(&out, cmd, &f, &t);
		exit_code = t.failed ? RC_EXIT_ERROR : t.changes ? RC_EXIT_CHANGES : RC_EXIT_OK;
	}
	rc_out_close_array(&out);
	summary(&out, cmd, &t);
	rc_out_close_object(&out);
	rc_out_end(&out);
	fflush(stdout);

	rc_fleet_free(&f);
	rc_inventory_free(&inv);
	return exit_code;
}
