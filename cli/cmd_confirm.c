/* SPDX-License-Identifier: Apache-2.0 */
/* rocectl confirm RUN: keep a run applied with --confirm (include/rocectl/txn.h
 * rc_txn_confirm), and say so in text or JSON (examples/confirm.schema.json).
 * rocectl confirm-timer RUN (internal): the detached process that restores the run at its
 * deadline unless it was confirmed first (rc_txn_timer). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/cli.h"
#include "rocectl/print.h"
#include "txn_print.h"

struct confirm_opts {
	const char *journal;
	const char *cmd;
	bool json;
};

enum { OPT_FORMAT = 256 };

static const struct rc_option confirm_options[] = {
    RC_OPT_JOURNAL('J'),
    {"format", 0, "FMT", "text (default) or json (examples/confirm.schema.json)", OPT_FORMAT},
    {NULL, 0, NULL, NULL, 0},
};

static int on_option(int id, const char *arg, void *ctx)
{
	struct confirm_opts *o = ctx;

	if (id == 'J')
		o->journal = arg;
	else if (id == OPT_FORMAT)
		return rc_format_text_json(o->cmd, arg, &o->json);
	return 0;
}

/* The options of `confirm` and `confirm-timer` into `t`: -1 to go on, else the exit code. */
static int parse(const char *cmd, int argc, char **argv, struct confirm_opts *o,
		 struct rc_txn_confirm_opts *t, const struct rc_global *g)
{
	char usage[80];
	int npos, rc;

	o->cmd = cmd;
	snprintf(usage, sizeof(usage), "rocectl %s RUN [--journal DIR] [--format text|json]", cmd);
	rc = rc_parse_options(argc, argv, usage, confirm_options, on_option, o, &npos);
	if (rc)
		return rc > 0 ? RC_EXIT_OK : RC_EXIT_USAGE;
	if (npos != 1) {
		fprintf(stderr, "rocectl %s: one RUN is needed (see 'rocectl history')\n", cmd);
		return RC_EXIT_USAGE;
	}
	t->run = argv[0];
	t->journal = rc_txn_journal_dir(o->journal);
	t->data_on_stdout = o->json;
	rc_cli_txn_env(g, &t->env);
	return -1;
}

/* The outcome of `confirm RUN`: a line of text, or the JSON document
 * (examples/confirm.schema.json) with the same facts.  A refusal is also said on stderr. */
static int print_outcome(const struct confirm_opts *o, const struct rc_txn_confirmed *r)
{
	struct rc_out out;

	if (r->error[0])
		fprintf(stderr, "rocectl confirm: %s\n", r->error);
	if (!o->json) {
		if (!strcmp(r->status, "confirmed"))
			printf("run %s confirmed: its %zu device%s keep the change\n", r->run_id,
			       r->n_devices, r->n_devices == 1 ? "" : "s");
		else if (!strcmp(r->status, "already-confirmed"))
			printf("run %s is already confirmed\n", r->run_id);
		return r->exit_code;
	}
	rc_out_init(&out, stdout, RC_OUT_JSON);
	rc_out_open_object(&out, NULL);
	rc_out_str(&out, "schema", NULL, "rocectl.confirm/v1");
	rc_out_str(&out, "command", NULL, "confirm");
	rc_out_str(&out, "run_id", NULL, r->run_id);
	rc_out_str(&out, "status", NULL, r->status);
	if (r->state)
		rc_out_str(&out, "state", NULL, r->state);
	else
		rc_out_null(&out, "state", NULL);
	rc_out_uint(&out, "devices", NULL, r->n_devices);
	if (r->error[0])
		rc_out_str(&out, "error", NULL, r->error);
	else
		rc_out_null(&out, "error", NULL);
	rc_out_int(&out, "exit_code", NULL, r->exit_code);
	rc_out_close_object(&out);
	rc_out_end(&out);
	return r->exit_code;
}

int cmd_confirm(int argc, char **argv, const struct rc_global *g)
{
	struct confirm_opts o = {0};
	struct rc_txn_confirm_opts t = {0};
	struct rc_txn_confirmed r;
	struct rc_cli_say say;
	int rc = parse("confirm", argc, argv, &o, &t, g);

	if (rc >= 0)
		return rc;
	rc_cli_say_init(&say, o.json); /* a restore's lines go to stderr under JSON */
	rc = rc_txn_confirm(&t, &r, &say.say);
	return r.status ? print_outcome(&o, &r) : rc;
}

int cmd_confirm_timer(int argc, char **argv, const struct rc_global *g)
{
	struct confirm_opts o = {0};
	struct rc_txn_confirm_opts t = {0};
	struct rc_cli_say say;
	int rc = parse("confirm-timer", argc, argv, &o, &t, g);

	if (rc >= 0)
		return rc;
	/* its output is its log (DIR/RUN.log): every line there as it is said */
	rc_cli_say_init(&say, false);
	say.flush = true;
	return rc_txn_timer(&t, &say.say);
}
