/* SPDX-License-Identifier: Apache-2.0 */
/* rocectl rollback [RUN]: options, the engine's rollback (include/rocectl/txn.h
 * rc_txn_rollback: every device left by an interrupted or failed run, or every device of
 * RUN, restored under its lock), and its report: the engine's lines as they come, and with
 * --format json the document of examples/rollback.schema.json. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/cli.h"
#include "rocectl/print.h"
#include "txn_print.h"

struct rollback_opts {
	struct rc_txn_rollback_opts run;
	const char *journal;
	bool json;
};

enum { OPT_PARALLEL = 256, OPT_FORMAT, OPT_FORCE };

static const struct rc_option options[] = {
    {"inventory", 'i', "FILE", "inventory giving how to reach journaled switches", 'i'},
    RC_OPT_JOURNAL('J'),
    {"parallel", 0, "N", "devices restored at once (default 32)", OPT_PARALLEL},
    {"format", 0, "FMT", "text (default) or json (examples/rollback.schema.json)", OPT_FORMAT},
    {"force", 0, NULL,
     "RUN: take the run over from an owner that is alive but hung (past its deadline by the "
     "run's grace): the owner is stopped first",
     OPT_FORCE},
    {NULL, 0, NULL, NULL, 0},
};

static int on_option(int id, const char *arg, void *ctx)
{
	struct rollback_opts *o = ctx;

	if (id == 'i')
		o->run.inventory = arg;
	else if (id == 'J')
		o->journal = arg;
	else if (id == OPT_FORCE)
		o->run.force = true;
	else if (id == OPT_FORMAT)
		return rc_format_text_json("rollback", arg, &o->json);
	else if (id == OPT_PARALLEL)
		return rc_number_arg("rollback", "parallel", arg, 1, 1024, &o->run.parallel);
	return 0;
}

static void print_restored(struct rc_out *o, const struct rc_txn_restore_job *j, bool early)
{
	rc_out_open_array(o, "restored");
	for (size_t k = j->n; !early && k-- > j->n - j->restored;) {
		rc_out_open_object(o, NULL);
		rc_out_str(o, "run_id", NULL, j->e[k]->run_id);
		rc_out_uint(o, "ports", NULL, j->e[k]->n_ports);
		rc_out_close_object(o);
	}
	rc_out_close_array(o);
}

/* The JSON document (examples/rollback.schema.json): what was restored, per device. */
static void print_json(const char *run, const struct rc_txn_rollback *r)
{
	const char *error = r->error[0] ? r->error : NULL;
	size_t n_jobs = r->early || !r->jobs ? 0 : r->n_jobs, n = r->early ? 0 : r->n;
	bool failed = error != NULL;
	struct rc_out o;

	rc_out_init(&o, stdout, RC_OUT_JSON);
	rc_out_open_object(&o, NULL);
	rc_out_str(&o, "schema", NULL, "rocectl.rollback/v1");
	rc_out_str(&o, "command", NULL, "rollback");
	rc_out_str(&o, "journal", NULL, r->journal);
	if (run)
		rc_out_str(&o, "run_id", NULL, run);
	else
		rc_out_null(&o, "run_id", NULL);
	rc_out_str(&o, "source", NULL, r->source);
	rc_out_open_array(&o, "devices");
	for (size_t i = 0; i < n_jobs; i++) {
		const struct rc_txn_restore_job *j = &r->jobs[i];

		rc_out_open_object(&o, NULL);
		rc_out_str(&o, "device", NULL, j->e[0]->device);
		rc_out_str(&o, "status", NULL,
			   error   ? "not-restored"
			   : j->rc ? "failed"
				   : "restored");
		print_restored(&o, j, error != NULL);
		if (j->rc && !error)
			rc_out_str(&o, "error", NULL, j->err.msg);
		else
			rc_out_null(&o, "error", NULL);
		if (j->unsaved && !error)
			rc_out_bool(&o, "unsaved", NULL, true);
		rc_out_close_object(&o);
		failed |= j->rc != 0;
	}
	rc_out_close_array(&o);
	rc_out_open_array(&o, "unusable");
	for (size_t i = 0; i < n; i++) {
		if (!r->e[i].bad[0])
			continue;
		rc_out_open_object(&o, NULL);
		rc_out_str(&o, "run_id", NULL, r->e[i].run_id);
		rc_out_str(&o, "device", NULL, r->e[i].device);
		rc_out_str(&o, "reason", NULL, r->e[i].bad);
		rc_out_close_object(&o);
		failed = true;
	}
	rc_out_close_array(&o);
	rc_out_str(&o, "status", NULL, failed ? "failed" : n_jobs ? "restored" : "nothing");
	if (error)
		rc_out_str(&o, "error", NULL, error);
	else
		rc_out_null(&o, "error", NULL);
	rc_out_int(&o, "exit_code", NULL, r->exit_code);
	rc_out_close_object(&o);
	rc_out_end(&o);
}

int cmd_rollback(int argc, char **argv, const struct rc_global *g)
{
	struct rollback_opts o = {0};
	struct rc_txn_rollback r;
	struct rc_cli_say say;
	int npos, rc, exit_code;

	rc =
	    rc_parse_options(argc, argv,
			     "rocectl rollback [RUN] [-i INVENTORY] [--journal DIR] [--parallel N] "
			     "[--format text|json] [--force]",
			     options, on_option, &o, &npos);
	if (rc)
		return rc > 0 ? RC_EXIT_OK : RC_EXIT_USAGE;
	if (npos > 1) {
		fprintf(stderr, "rocectl rollback: at most one RUN\n");
		return RC_EXIT_USAGE;
	}
	if (o.run.force && !npos) {
		fprintf(stderr, "rocectl rollback: --force takes over one RUN: name it\n");
		return RC_EXIT_USAGE;
	}
	o.run.run = npos ? argv[0] : NULL;
	o.run.journal = rc_txn_journal_dir(o.journal);
	rc_cli_txn_env(g, &o.run.env);
	/* with --format json, stdout is the document alone */
	rc_cli_say_init(&say, o.json);
	exit_code = rc_txn_rollback(&o.run, &r, &say.say);
	if (o.json)
		print_json(o.run.run, &r);
	rc_txn_rollback_fini(&r);
	return exit_code;
}
