/* SPDX-License-Identifier: Apache-2.0 */
/* rocectl diff RUN_A RUN_B [--format text|json]: what differs between the records two runs
 * left in the history (engine/run/history.c).
 *
 * A record keeps, per device, the result and each field the run found different from the
 * policy (port, field, old -> new); it does not keep the whole state of a device.  So diff
 * compares what was recorded: for every device and field either run recorded, the value
 * the run left the device with (an applied change: its new value; otherwise the value as
 * read), "not recorded" (JSON null) where a run recorded nothing for it.  The inputs (policy and
 * inventory digests) and each device's result are compared too.
 *
 * Exit: 0 the records agree, 2 they differ, 1 a run cannot be read, 64 usage.
 *
 * JSON, schema "rocectl.diff/v1" (examples/diff.schema.json):
 *   {"schema", "command": "diff", "a": RUN, "b": RUN,
 *    "inputs": [{"input": "policy"|"inventory", "a": sha256|null, "b": sha256|null}],
 *    "devices": [{"device", "a": {"result"}|null, "b": {"result"}|null,
 *                 "fields": [{"port", "field", "a": value|null, "b": value|null}]}],
 *    "differences": N, "status": "same"|"differ", "exit_code": 0|2}
 * RUN: {"run_id", "command", "started", "exit_code"}.  Only what differs is listed. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rocectl/cli.h"
#include "rocectl/history.h"
#include "rocectl/print.h"

enum { OPT_FORMAT = 256, OPT_DIR };

struct diff_opts {
	bool json;
	const char *dir;
};

static const struct rc_option options[] = {
    {"format", 0, "FMT", "text (default) or json (examples/diff.schema.json)", OPT_FORMAT},
    {"history", 0, "DIR",
     "history directory (default $ROCECTL_HISTORY or " RC_HISTORY_DEFAULT_DIR ")", OPT_DIR},
    {NULL, 0, NULL, NULL, 0},
};

#define USAGE "rocectl diff RUN_A RUN_B [--format text|json] [--history DIR]"

static int on_option(int id, const char *arg, void *ctx)
{
	struct diff_opts *o = ctx;

	if (id == OPT_FORMAT)
		return rc_format_text_json("diff", arg, &o->json);
	if (id == OPT_DIR)
		o->dir = arg;
	return 0;
}

static const struct rc_history_dev *dev_of(const struct rc_history *h, const char *name)
{
	for (size_t i = 0; i < h->n; i++)
		if (!strcmp(h->devs[i].device, name))
			return &h->devs[i];
	return NULL;
}

static const struct rc_change *change_of(const struct rc_history_dev *d, const char *port,
					 const char *field)
{
	for (size_t i = 0; d && i < d->changes.n; i++)
		if (!strcmp(d->changes.v[i].port, port) && !strcmp(d->changes.v[i].field, field))
			return &d->changes.v[i];
	return NULL;
}

/* The value the run left the field with: the new one if it applied it, else as read. */
static const char *left(const struct rc_history_dev *d, const struct rc_change *c)
{
	if (!c)
		return NULL;
	if (!strcmp(d->result, "applied"))
		return c->new_value;
	return c->old_value[0] ? c->old_value : "unknown";
}

static bool same_str(const char *a, const char *b)
{
	return a && b ? !strcmp(a, b) : a == b;
}

static void out_run(struct rc_out *o, const char *key, const struct rc_history *h)
{
	char t[32];
	struct tm tm;

	gmtime_r(&h->started, &tm);
	strftime(t, sizeof(t), "%Y-%m-%dT%H:%M:%SZ", &tm);
	rc_out_open_object(o, key);
	rc_out_str(o, "run_id", "%s", h->run_id);
	rc_out_str(o, "command", " (%s", h->command);
	rc_out_str(o, "started", ", %s", t);
	rc_out_int(o, "exit_code", ", exit %" PRId64 ")", h->exit_code);
	rc_out_close_object(o);
}

static void out_opt_str(struct rc_out *o, const char *key, const char *fmt, const char *v)
{
	if (v)
		rc_out_str(o, key, fmt, v);
	else
		rc_out_null(o, key, "not recorded");
}

static size_t out_inputs(struct rc_out *o, const struct rc_history *a, const struct rc_history *b)
{
	const char *names[] = {"policy", "inventory"};
	const char *va[] = {a->policy_sha256, a->inventory_sha256};
	const char *vb[] = {b->policy_sha256, b->inventory_sha256};
	size_t n = 0;

	rc_out_open_array(o, "inputs");
	for (int i = 0; i < 2; i++) {
		if (!strcmp(va[i], vb[i]))
			continue;
		n++;
		rc_out_open_object(o, NULL);
		rc_out_str(o, "input", "%-10s ", names[i]);
		out_opt_str(o, "a", "sha256:%s", va[i][0] ? va[i] : NULL);
		rc_out_text(o, " -> ");
		out_opt_str(o, "b", "sha256:%s", vb[i][0] ? vb[i] : NULL);
		rc_out_text(o, "\n");
		rc_out_close_object(o);
	}
	rc_out_close_array(o);
	return n;
}

/* Fields of x, and of y that x lacks, whose values differ. */
static size_t count_fields(const struct rc_history_dev *x, const struct rc_history_dev *y,
			   bool print, struct rc_out *o, bool x_is_a)
{
	size_t n = 0;

	for (size_t i = 0; x && i < x->changes.n; i++) {
		const struct rc_change *cx = &x->changes.v[i],
				       *cy = change_of(y, cx->port, cx->field);
		const char *vx = left(x, cx), *vy = cy ? left(y, cy) : NULL;

		if ((!x_is_a && cy) || same_str(vx, vy))
			continue; /* the second pass only adds what the first lacked */
		n++;
		if (!print)
			continue;
		rc_out_open_object(o, NULL);
		rc_out_str(o, "port", "  %-14s", cx->port);
		rc_out_str(o, "field", " %-22s ", cx->field);
		out_opt_str(o, "a", "%s", x_is_a ? vx : vy);
		rc_out_text(o, " -> ");
		out_opt_str(o, "b", "%s", x_is_a ? vy : vx);
		rc_out_text(o, "\n");
		rc_out_close_object(o);
	}
	return n;
}

static size_t dev_diff(struct rc_out *o, const char *name, const struct rc_history_dev *a,
		       const struct rc_history_dev *b)
{
	size_t n = count_fields(a, b, false, NULL, true) + count_fields(b, a, false, NULL, false);

	if (!a || !b || strcmp(a->result, b->result))
		n++;
	if (!n)
		return 0;
	rc_out_open_object(o, NULL);
	rc_out_str(o, "device", "%s: ", name);
	if (a) {
		rc_out_open_object(o, "a");
		rc_out_str(o, "result", "%s", a->result);
		rc_out_close_object(o);
	} else {
		rc_out_null(o, "a", "not in the run");
	}
	rc_out_text(o, " -> ");
	if (b) {
		rc_out_open_object(o, "b");
		rc_out_str(o, "result", "%s", b->result);
		rc_out_close_object(o);
	} else {
		rc_out_null(o, "b", "not in the run");
	}
	rc_out_text(o, "\n");
	rc_out_open_array(o, "fields");
	count_fields(a, b, true, o, true);
	count_fields(b, a, true, o, false);
	rc_out_close_array(o);
	rc_out_close_object(o);
	return n;
}

static int report(const struct diff_opts *opt, const struct rc_history *a,
		  const struct rc_history *b)
{
	struct rc_out o;
	size_t n;
	int code;

	rc_out_init(&o, stdout, opt->json ? RC_OUT_JSON : RC_OUT_TEXT);
	rc_out_open_object(&o, NULL);
	rc_out_str(&o, "schema", NULL, "rocectl.diff/v1");
	rc_out_str(&o, "command", NULL, "diff");
	rc_out_text(&o, "a: ");
	out_run(&o, "a", a);
	rc_out_text(&o, "\nb: ");
	out_run(&o, "b", b);
	rc_out_text(&o, "\n");
	n = out_inputs(&o, a, b);
	rc_out_open_array(&o, "devices");
	for (size_t i = 0; i < a->n; i++)
		n += dev_diff(&o, a->devs[i].device, &a->devs[i], dev_of(b, a->devs[i].device));
	for (size_t i = 0; i < b->n; i++)
		if (!dev_of(a, b->devs[i].device))
			n += dev_diff(&o, b->devs[i].device, NULL, &b->devs[i]);
	rc_out_close_array(&o);
	code = n ? RC_EXIT_CHANGES : RC_EXIT_OK;
	rc_out_uint(&o, "differences", "%" PRIu64 " difference(s)\n", n);
	rc_out_str(&o, "status", NULL, n ? "differ" : "same");
	rc_out_int(&o, "exit_code", NULL, code);
	rc_out_close_object(&o);
	rc_out_end(&o);
	return code;
}

int cmd_diff(int argc, char **argv, const struct rc_global *g)
{
	struct diff_opts o = {0};
	struct rc_history a, b;
	struct rc_err err = {0};
	int npos, rc, code;

	(void)g;
	rc = rc_parse_options(argc, argv, USAGE, options, on_option, &o, &npos);
	if (rc)
		return rc > 0 ? RC_EXIT_OK : RC_EXIT_USAGE;
	if (npos != 2) {
		fprintf(stderr, "rocectl diff: two runs are needed (see 'rocectl history')\n");
		rc_print_usage(stderr, USAGE, options);
		return RC_EXIT_USAGE;
	}
	if (!o.dir)
		o.dir = rc_history_dir();
	if (rc_history_load(o.dir, argv[0], &a, &err)) {
		fprintf(stderr, "rocectl diff: %s\n", err.msg);
		return RC_EXIT_ERROR;
	}
	if (rc_history_load(o.dir, argv[1], &b, &err)) {
		fprintf(stderr, "rocectl diff: %s\n", err.msg);
		rc_history_fini(&a);
		return RC_EXIT_ERROR;
	}
	code = report(&o, &a, &b);
	rc_history_fini(&a);
	rc_history_fini(&b);
	return code;
}
