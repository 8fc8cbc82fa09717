/* SPDX-License-Identifier: Apache-2.0 */
/* rocectl enforce -p POLICY -i INVENTORY: verify, decide, repair, verify, in one run, for
 * a timer (dist/systemd/rocectl-enforce.timer).  Exit 0 in sync, 2 drift left (a guardrail,
 * disruptive fields held, a quarantined device), 1 error.  The run itself is
 * rc_enforce_execute (engine/run/enforce.c) inside the engine's run transaction (locks,
 * journal, --confirm, record: include/rocectl/txn.h); this file parses, loads and saves the
 * quarantine, and prints. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rocectl/cli.h"
#include "rocectl/confirm.h"
#include "rocectl/enforce.h"
#include "rocectl/print.h"
#include "rocectl/units.h"
#include "rocectl/util.h"
#include "txn_print.h"

enum {
	OPT_LIMIT = 256,
	OPT_PARALLEL,
	OPT_FORMAT,
	OPT_MAX_DEVICES,
	OPT_MAX_CHANGES,
	OPT_DISRUPTIVE,
	OPT_QUARANTINE,
	OPT_STATE,
	OPT_CLEAR,
	OPT_CANARY,
	OPT_CANARY_WAIT,
	OPT_CANARY_PAUSE_RATE,
	OPT_JOURNAL = 'J',
	OPT_OUTPUT = 'o',
	OPT_CONFIRM = 300,
};

enum fmt { FMT_TEXT, FMT_JSON, FMT_PROMETHEUS };

struct opts {
	const char *policy, *inventory, *limit, *journal, *output, *state, *clear;
	unsigned parallel;
	enum fmt format;
	struct rc_guardrails guard;
	uint32_t confirm_s; /* --confirm (include/rocectl/txn.h), 0 = none */
};

#define QUARANTINE_AFTER_DEFAULT 3

static const struct rc_option options[] = {
    {"policy", 'p', "FILE", "the policy (YAML)", 'p'},
    {"inventory", 'i', "FILE", "the inventory (YAML)", 'i'},
    {"limit", 0, "NAMES", RC_LIMIT_HELP, OPT_LIMIT},
    {"parallel", 0, "N", "devices worked on at once (default 32)", OPT_PARALLEL},
    {"max-devices", 0, "N|N%",
     "repair nothing when more devices than this (or N% of the selected) have drifted",
     OPT_MAX_DEVICES},
    {"max-changes", 0, "N", "repair nothing when more fields than this have drifted",
     OPT_MAX_CHANGES},
    {"disruptive", 0, "skip|allow",
     "skip (default): report drift of fields that flap links or restart channels, do not "
     "repair it; allow: repair it too",
     OPT_DISRUPTIVE},
    {"quarantine-after", 0, "K",
     "a device that failed in the last K runs in a row is not touched until cleared "
     "(default 3; 0 = never)",
     OPT_QUARANTINE},
    {"state", 0, "FILE",
     "the quarantine file (default enforce-state.json next to the journal directory)", OPT_STATE},
    {"canary", 0, "N",
     "repair N units first (a leaf with its hosts, or one host per leaf), watch their "
     "counters, and go on only if they stay clean; else roll them back",
     OPT_CANARY},
    {"canary-wait", 0, "DURATION", "how long the canaries are watched (default 10s; 1s..3600s)",
     OPT_CANARY_WAIT},
    {"canary-pause-rate", 0, "N",
     "PFC pause frames per second on a canary port that count as a storm (default 50000)",
     OPT_CANARY_PAUSE_RATE},
    {"clear", 0, "DEVICE", "forget DEVICE's failures (lift its quarantine) and exit", OPT_CLEAR},
    {"format", 0, "FMT", "text (default), json or prometheus", OPT_FORMAT},
    {"output", 'o', "FILE",
     "write the report to FILE atomically (for the node_exporter textfile collector)", OPT_OUTPUT},
    RC_OPT_JOURNAL(OPT_JOURNAL),
    {"confirm", 0, "DURATION",
     "keep the repair only if every device still answers and verifies after it; else "
     "roll back every repaired device",
     OPT_CONFIRM},
    {NULL, 0, NULL, NULL, 0},
};

static int canary_option(int id, const char *arg, struct rc_canary_opts *c)
{
	const char *why = NULL;
	unsigned n;
	uint64_t us;

	if (id == OPT_CANARY)
		return rc_number_arg("enforce", "canary", arg, 1, 1000, &c->units);
	if (id == OPT_CANARY_PAUSE_RATE) {
		if (rc_number_arg("enforce", "canary-pause-rate", arg, 1, 100000000, &n))
			return -EINVAL;
		c->pause_rate = n;
		return 0;
	}
	if (!rc_parse_duration(arg, &us, &why))
		why = NULL; /* a duration, out of range */
	else
		us = 0;
	if (why || us < 1000000 || us > 3600000000ull) {
		fprintf(stderr,
			"rocectl enforce: --canary-wait: '%s' is not a duration in 1s..3600s%s%s\n",
			arg, why ? ": " : "", why ? why : "");
		return -EINVAL;
	}
	c->wait_ms = (uint32_t)(us / 1000);
	return 0;
}

static int on_option(int id, const char *arg, void *ctx)
{
	struct opts *o = ctx;
	size_t len;

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
	case OPT_STATE:
		o->state = arg;
		break;
	case OPT_CLEAR:
		o->clear = arg;
		break;
	case OPT_PARALLEL:
		return rc_number_arg("enforce", "parallel", arg, 1, 1024, &o->parallel);
	case OPT_MAX_CHANGES:
		return rc_number_arg("enforce", "max-changes", arg, 1, 1000000,
				     &o->guard.max_changes);
	case OPT_QUARANTINE:
		return rc_number_arg("enforce", "quarantine-after", arg, 0, 1000,
				     &o->guard.quarantine_after);
	case OPT_CANARY:
	case OPT_CANARY_WAIT:
	case OPT_CANARY_PAUSE_RATE:
		return canary_option(id, arg, &o->guard.canary);
	case OPT_MAX_DEVICES:
		len = strlen(arg);
		if (len > 1 && arg[len - 1] == '%') {
			char pct[8];

			snprintf(pct, sizeof(pct), "%.*s", (int)(len - 1), arg);
			o->guard.max_devices_pct = true;
			return rc_number_arg("enforce", "max-devices",
					     len - 1 < sizeof(pct) ? pct : "x", 1, 100,
					     &o->guard.max_devices);
		}
		return rc_number_arg("enforce", "max-devices", arg, 1, 1000000,
				     &o->guard.max_devices);
	case OPT_DISRUPTIVE:
		if (strcmp(arg, "skip") && strcmp(arg, "allow")) {
			fprintf(stderr,
				"rocectl enforce: --disruptive: '%s' is not one of skip, allow\n",
				arg);
			return -EINVAL;
		}
		o->guard.allow_disruptive = !strcmp(arg, "allow");
		break;
	case OPT_CONFIRM: {
		struct rc_err err = {0};

		if (rc_confirm_parse_duration(arg, &o->confirm_s, &err)) {
			fprintf(stderr, "rocectl enforce: --confirm: %s\n", err.msg);
			return -EINVAL;
		}
		break;
	}
	case OPT_FORMAT:
		if (!strcmp(arg, "text"))
			o->format = FMT_TEXT;
		else if (!strcmp(arg, "json"))
			o->format = FMT_JSON;
		else if (!strcmp(arg, "prometheus"))
			o->format = FMT_PROMETHEUS;
		else {
			fprintf(stderr,
				"rocectl enforce: --format: '%s' is not one of text, json, "
				"prometheus\n",
				arg);
			return -EINVAL;
		}
		break;
	}
	return 0;
}

static int clear_device(const char *state, const char *device)
{
	struct rc_quarantine q;
	struct rc_err err = {0};
	int rc;

	if (rc_quarantine_load(state, &q, &err)) {
		fprintf(stderr, "rocectl enforce: %s\n", err.msg);
		return RC_EXIT_ERROR;
	}
	rc = rc_quarantine_clear(&q, device);
	if (rc == 0 && rc_quarantine_save(state, &q, &err)) {
		fprintf(stderr, "rocectl enforce: %s\n", err.msg);
		rc_quarantine_fini(&q);
		return RC_EXIT_ERROR;
	}
	rc_quarantine_fini(&q);
	if (rc) {
		fprintf(stderr, "rocectl enforce: '%s' has no failures recorded in '%s'\n", device,
			state);
		return RC_EXIT_ERROR;
	}
	printf("'%s' cleared: the next enforce run reads and repairs it again\n", device);
	return RC_EXIT_OK;
}

static int load_inputs(const struct opts *o, struct rc_policy *pol, struct rc_inventory *inv)
{
	struct rc_warnings warn = {0};
	struct rc_err err = {0};

	if (rc_policy_load(o->policy, pol, &warn, &err) ||
	    rc_inventory_load(o->inventory, inv, &warn, &err)) {
		rc_err_print(&err, stderr);
		return -1;
	}
	rc_warnings_print(&warn, stderr);
	return 0;
}

static int print(const struct opts *o, const struct rc_enforce_run *run)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *dst = o->output ? open_memstream(&buf, &len) : stdout;
	struct rc_err err = {0};
	struct rc_out out;
	int rc = 0;

	if (!dst) {
		fprintf(stderr, "rocectl enforce: out of memory\n");
		return -1;
	}
	if (o->format == FMT_PROMETHEUS) {
		rc_enforce_prometheus(dst, run);
	} else {
		rc_out_init(&out, dst, o->format == FMT_JSON ? RC_OUT_JSON : RC_OUT_TEXT);
		out.quiet = rc_cli_verbosity() < 0; /* -q: the summary line only */
		rc_enforce_report(&out, run);
	}
	if (dst == stdout)
		return fflush(stdout) ? -1 : 0;
	fclose(dst);
	if (rc_write_atomic(o->output, buf, len, 0644, "report", &err)) {
		fprintf(stderr, "rocectl enforce: %s\n", err.msg);
		rc = -1;
	}
	free(buf);
	return rc;
}

/* The engine's run transaction for this run (include/rocectl/txn.h). */
static void txn_opts(const struct opts *o, const struct rc_global *g, struct rc_txn_opts *t)
{
	memset(t, 0, sizeof(*t));
	t->kind = RC_TXN_ENFORCE;
	t->journal = o->journal;
	t->policy = o->policy;
	t->inventory = o->inventory;
	t->confirm_s = o->confirm_s;
	t->data_on_stdout = o->format != FMT_TEXT && !o->output;
	rc_cli_txn_env(g, &t->env);
}

int cmd_enforce(int argc, char **argv, const struct rc_global *g)
{
	struct opts o = {.guard = {.quarantine_after = QUARANTINE_AFTER_DEFAULT,
				   .canary = {.wait_ms = RC_CANARY_WAIT_MS_DEFAULT,
					      .pause_rate = RC_CANARY_PAUSE_RATE_DEFAULT}}};
	struct rc_run_opts ropts = {.root = g->root,
				    .accept_new_host_keys = g->accept_new_host_keys,
				    .save_pending = g->save_pending};
	const char *usage = "rocectl enforce -p POLICY -i INVENTORY [options]\n"
			    "       rocectl enforce --clear DEVICE [--state FILE | --journal DIR]";
	struct rc_policy pol;
	struct rc_inventory inv = {0};
	struct rc_fleet f = {0};
	struct rc_quarantine q = {0};
	struct rc_enforce_run run = {0};
	struct rc_txn_opts topts;
	struct rc_txn txn = {0};
	struct rc_cli_say say;
	struct rc_err err = {0};
	char state[4096];
	int npos, rc, exit_code = RC_EXIT_ERROR;

	rc = rc_parse_options(argc, argv, usage, options, on_option, &o, &npos);
	if (rc)
		return rc > 0 ? RC_EXIT_OK : RC_EXIT_USAGE;
	if (npos) {
		fprintf(stderr, "rocectl enforce: unexpected argument '%s'\n", argv[0]);
		return RC_EXIT_USAGE;
	}
	o.journal = rc_txn_journal_dir(o.journal);
	if (o.state)
		snprintf(state, sizeof(state), "%s", o.state);
	else
		rc_quarantine_default_path(o.journal, state, sizeof(state));
	if (o.clear)
		return clear_device(state, o.clear);
	if (!o.policy || !o.inventory) {
		fprintf(stderr, "rocectl enforce: both -p POLICY and -i INVENTORY are needed\n");
		rc_print_usage(stderr, usage, options);
		return RC_EXIT_USAGE;
	}
	memset(&pol, 0, sizeof(pol));
	if (load_inputs(&o, &pol, &inv))
		goto out;
	if (rc_quarantine_load(state, &q, &err)) {
		fprintf(stderr, "rocectl enforce: %s\n", err.msg);
		goto out;
	}
	if ((rc = rc_cli_limit_check("enforce", &inv, o.limit))) {
		exit_code = rc;
		goto out;
	}
	if (rc_fleet_init(&f, &inv, &pol, &ropts, o.limit, o.parallel, &err)) {
		fprintf(stderr, "rocectl enforce: %s\n", err.msg);
		goto out;
	}
	f.progress = rc_cli_verbosity() >= 0; /* -q: the summary alone */
	txn_opts(&o, g, &topts);
	rc_cli_say_init(&say, topts.data_on_stdout);
	if (rc_txn_begin(&txn, &topts, &f, &say.say))
		goto out;
	if (rc_enforce_execute(&f, &o.guard, &q, txn.hist, &run, &err)) {
		fprintf(stderr, "rocectl enforce: %s\n", err.msg);
		goto out;
	}
	exit_code = rc_txn_end(&txn, run.exit_code, run.failed > 0);
	snprintf(run.confirm_state, sizeof(run.confirm_state), "%s", txn.confirm_state);
	snprintf(run.confirm_reason, sizeof(run.confirm_reason), "%s", txn.confirm_reason);
	if (rc_quarantine_save(state, &q, &err)) {
		if (err.msg[0])
			fprintf(stderr, "rocectl enforce: %s\n", err.msg);
		exit_code = RC_EXIT_ERROR;
	}
	if (print(&o, &run))
		exit_code = RC_EXIT_ERROR;
out:
	rc_txn_fini(&txn);
	rc_enforce_run_fini(&run);
	rc_quarantine_fini(&q);
	rc_fleet_fini(&f);
	rc_inventory_fini(&inv);
	return exit_code;
}
