/* SPDX-License-Identifier: Apache-2.0 */
/* rocectl history [--device D] [--since T] [--format text|json] [--keep N | --keep-days D]
 * rocectl show RUN [--format text|json]
 * The run records of engine/run/history.c: a list, one record in full, and retention.
 * JSON: examples/history.schema.json ("rocectl.runs/v1", the list) and
 * examples/show.schema.json ("rocectl.run/v1", one run). */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rocectl/cli.h"
#include "rocectl/history.h"
#include "rocectl/print.h"
#include "rocectl/run_dir.h"
#include "rocectl/run_snap.h"
#include "rocectl/txn.h"
#include "rocectl/util.h"

enum {
	OPT_DEVICE = 256,
	OPT_SINCE,
	OPT_FORMAT,
	OPT_KEEP,
	OPT_KEEP_DAYS,
	OPT_DIR,
};

struct opts {
	const char *device;
	const char *dir;
	time_t since;
	bool json;
	unsigned keep, keep_days;
};

static const struct rc_option history_options[] = {
    {"device", 0, "NAME", "only runs that changed this device or failed on it", OPT_DEVICE},
    {"since", 0, "TIME",
     "only runs started at or after TIME: 2026-12-03, 2026-12-03T10:00:00Z, or 12h, 7d ago",
     OPT_SINCE},
    {"format", 0, "FMT", "text (default) or json (examples/history.schema.json)", OPT_FORMAT},
    {"keep", 0, "N", "retention: delete all but the newest N records, then list", OPT_KEEP},
    {"keep-days", 0, "D", "retention: delete records of runs older than D days, then list",
     OPT_KEEP_DAYS},
    {"history", 0, "DIR",
     "history directory (default $ROCECTL_HISTORY or " RC_HISTORY_DEFAULT_DIR ")", OPT_DIR},
    {NULL, 0, NULL, NULL, 0},
};

static const struct rc_option show_options[] = {
    {"format", 0, "FMT", "text (default) or json (examples/show.schema.json)", OPT_FORMAT},
    {"history", 0, "DIR",
     "history directory (default $ROCECTL_HISTORY or " RC_HISTORY_DEFAULT_DIR ")", OPT_DIR},
    {NULL, 0, NULL, NULL, 0},
};

/* "2026-12-03", "2026-12-03T10:00:00Z" (UTC), or a duration ago: "90m", "12h", "7d". */
static int parse_time(const char *s, time_t *out)
{
	struct tm tm = {0};
	const char *end;
	uint64_t n;
	size_t len = strlen(s);

	if (len >= 2 && strchr("mhd", s[len - 1])) {
		char num[24];

		snprintf(num, sizeof(num), "%.*s", (int)(len - 1), s);
		if (len - 1 < sizeof(num) && !rc_parse_u64(num, 10, 0, 1000000, &n)) {
			n *= s[len - 1] == 'm' ? 60 : s[len - 1] == 'h' ? 3600 : 86400;
			*out = time(NULL) - (time_t)n;
			return 0;
		}
	}
	end = strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (!end || *end) {
		memset(&tm, 0, sizeof(tm));
		end = strptime(s, "%Y-%m-%d", &tm);
	}
	if (!end || *end)
		return -EINVAL;
	*out = timegm(&tm);
	return 0;
}

static int on_option(int id, const char *arg, void *ctx)
{
	struct opts *o = ctx;
	uint64_t v;

	switch (id) {
	case OPT_DEVICE:
		o->device = arg;
		break;
	case OPT_DIR:
		o->dir = arg;
		break;
	case OPT_FORMAT:
		return rc_format_text_json("history", arg, &o->json);
	case OPT_SINCE:
		if (parse_time(arg, &o->since)) {
			fprintf(stderr,
				"rocectl history: --since: '%s' is neither YYYY-MM-DD, "
				"YYYY-MM-DDTHH:MM:SSZ nor a duration like 12h or 7d\n",
				arg);
			return -EINVAL;
		}
		break;
	case OPT_KEEP:
	case OPT_KEEP_DAYS:
		if (rc_parse_u64(arg, 10, 1, 1000000, &v)) {
			fprintf(stderr,
				"rocectl history: --%s: '%s' is not a number in 1..1000000\n",
				id == OPT_KEEP ? "keep" : "keep-days", arg);
			return -EINVAL;
		}
		if (id == OPT_KEEP)
			o->keep = (unsigned)v;
		else
			o->keep_days = (unsigned)v;
		break;
	}
	return 0;
}

static bool touched(const struct rc_history *h, const char *device)
{
	for (size_t i = 0; i < h->n; i++)
		if (!strcmp(h->devs[i].device, device))
			return h->devs[i].changes.n || h->devs[i].error[0];
	return false;
}

static void when(time_t t, char *buf, size_t len)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* A run made with --confirm: where it stands (include/rocectl/run_dir.h). */
static void confirm_state(struct rc_out *out, const char *run_id)
{
	char line[512];

	if (rc_run_state_line(rc_txn_journal_dir(NULL), run_id, line, sizeof(line)))
		return;
	rc_out_str(out, "confirm", "  [%s]", line);
}

static void header(struct rc_out *out, const struct rc_history *h)
{
	char t[32];

	when(h->started, t, sizeof(t));
	rc_out_str(out, "run_id", "%s", h->run_id);
	rc_out_str(out, "command", "  %-8s", h->command);
	rc_out_str(out, "user", "  %s", h->user);
	if (h->sudo_user[0])
		rc_out_str(out, "sudo_user", " (for %s)", h->sudo_user);
	rc_out_str(out, "host", "@%s", h->host);
	rc_out_str(out, "started", "  %s", t);
	rc_out_int(out, "exit_code", "  exit %" PRId64, h->exit_code);
	confirm_state(out, h->run_id);
}

static void list_one(struct rc_out *out, const struct rc_history *h)
{
	size_t changed = 0;

	rc_out_open_object(out, NULL);
	header(out, h);
	rc_out_open_array(out, "devices");
	for (size_t i = 0; i < h->n; i++) {
		const struct rc_history_dev *d = &h->devs[i];

		if (!d->changes.n && !d->error[0])
			continue;
		rc_out_open_object(out, NULL);
		rc_out_str(out, "device", changed++ ? ", %s" : "  %s", d->device);
		rc_out_str(out, "result", " %s", d->result);
		rc_out_uint(out, "changes", " (%" PRIu64 ")", d->changes.n);
		rc_out_close_object(out);
	}
	rc_out_close_array(out);
	rc_out_text(out, "\n");
	rc_out_close_object(out);
}

/* A run killed before it wrote its history record (the record is written once the run has
 * ended) still has its run record: listed from it while nobody has finished it, exit 1
 * (it did not end), so that "needs recovery" is seen. */
/* A plain run killed while it wrote (its journal entries are all that is left of it). */
static const char *killed_plain(size_t n, char *buf, size_t len)
{
	snprintf(buf, len,
		 "needs recovery: killed while writing, %zu device%s left in the journal; "
		 "'rocectl rollback' restores %s",
		 n, n == 1 ? "" : "s", n == 1 ? "it" : "them");
	return buf;
}

static void list_unrecorded(struct rc_out *out, char **ids, size_t n)
{
	struct rc_run_open *v = NULL;
	size_t m = 0;
	char t[32], left[160];

	rc_run_list_open(rc_txn_journal_dir(NULL), ids, n, &v, &m);
	for (size_t i = 0; i < m; i++) {
		when(v[i].changed, t, sizeof(t));
		rc_out_open_object(out, NULL);
		rc_out_str(out, "run_id", "%s", v[i].run_id);
		rc_out_str(out, "command", "  %-8s", v[i].command[0] ? v[i].command : "?");
		rc_out_str(out, "user", "  %s", "?");
		rc_out_str(out, "host", "@%s", v[i].host[0] ? v[i].host : "?");
		rc_out_str(out, "started", "  %s", t);
		rc_out_int(out, "exit_code", "  exit %" PRId64, RC_EXIT_ERROR);
		if (v[i].journal_entries)
			rc_out_str(out, "confirm", "  [%s]",
				   killed_plain(v[i].journal_entries, left, sizeof(left)));
		else
			confirm_state(out, v[i].run_id);
		rc_out_open_array(out, "devices");
		rc_out_close_array(out);
		rc_out_text(out, "  (no history record: the run did not end)\n");
		rc_out_close_object(out);
	}
	free(v);
}

/* A dropped record takes its run's record along, unless the run is still pending or its
 * rollback is not over: then the record stays for `confirm`/`rollback RUN`. */
static void forget_confirm(const char *run_id)
{
	struct rc_err err = {0};
	int rc = rc_run_forget(rc_txn_journal_dir(NULL), run_id, &err);

	if (rc && rc != -ENOENT)
		fprintf(stderr, "rocectl history: %s\n", err.msg);
}

/* Retention: the oldest records beyond `keep`, and those older than keep_days. */
static void prune(const char *dir, char **ids, size_t *n, unsigned keep, unsigned keep_days)
{
	time_t cutoff = keep_days ? time(NULL) - (time_t)keep_days * 86400 : 0;
	size_t kept = 0;

	for (size_t i = 0; i < *n; i++) {
		struct rc_history h;
		struct rc_err err = {0};
		char path[4096];
		bool drop = keep && *n - i > keep;

		if (!drop && cutoff && !rc_history_load(dir, ids[i], &h, &err)) {
			drop = h.started < cutoff;
			rc_history_fini(&h);
		}
		snprintf(path, sizeof(path), "%s/%s.json", dir, ids[i]);
		if (drop && unlink(path) == 0) {
			forget_confirm(ids[i]);
			if (rc_run_snap_forget(ids[i], &err))
				fprintf(stderr, "rocectl history: %s\n", err.msg);
			free(ids[i]);
			continue;
		}
		if (drop)
			fprintf(stderr, "rocectl history: cannot delete '%s': %s\n", path,
				strerror(errno));
		ids[kept++] = ids[i];
	}
	*n = kept;
}

int cmd_history(int argc, char **argv, const struct rc_global *g)
{
	struct opts o = {0};
	struct rc_err err = {0};
	struct rc_out out;
	char **ids = NULL;
	size_t n = 0, listed = 0, failed = 0;
	int npos, rc, bad = 0;

	(void)g;
	rc = rc_parse_options(argc, argv,
			      "rocectl history [--device NAME] [--since TIME] [--format text|json] "
			      "[--keep N] [--keep-days D]",
			      history_options, on_option, &o, &npos);
	if (rc)
		return rc > 0 ? RC_EXIT_OK : RC_EXIT_USAGE;
	if (npos) {
		fprintf(stderr, "rocectl history: unexpected argument '%s'\n", argv[0]);
		return RC_EXIT_USAGE;
	}
	if (!o.dir)
		o.dir = rc_history_dir();
	if (rc_history_list(o.dir, &ids, &n, &err)) {
		fprintf(stderr, "rocectl history: %s\n", err.msg);
		return RC_EXIT_ERROR;
	}
	if (o.keep || o.keep_days)
		prune(o.dir, ids, &n, o.keep, o.keep_days);
	rc_out_init(&out, stdout, o.json ? RC_OUT_JSON : RC_OUT_TEXT);
	out.quiet = rc_cli_verbosity() < 0; /* -q: the summary line only */
	rc_out_open_object(&out, NULL);
	rc_out_str(&out, "schema", NULL, "rocectl.runs/v1");
	rc_out_str(&out, "command", NULL, "history");
	rc_out_open_array(&out, "runs");
	for (size_t i = 0; i < n; i++) {
		struct rc_history h;

		if (rc_history_load(o.dir, ids[i], &h, &err)) {
			fprintf(stderr, "rocectl history: %s\n", err.msg);
			bad = 1;
			continue;
		}
		if (h.started >= o.since && (!o.device || touched(&h, o.device))) {
			list_one(&out, &h);
			listed++;
			failed += h.exit_code == RC_EXIT_ERROR;
		}
		rc_history_fini(&h);
	}
	if (!o.device && !o.since)
		list_unrecorded(&out, ids, n);
	rc_out_close_array(&out);
	out.quiet = false;
	rc_out_text(&out, "history: %zu run%s, %zu failed\n", listed, listed == 1 ? "" : "s",
		    failed);
	rc_out_close_object(&out);
	rc_out_end(&out);
	rc_history_ids_free(ids, n);
	return bad ? RC_EXIT_ERROR : RC_EXIT_OK;
}

int cmd_show(int argc, char **argv, const struct rc_global *g)
{
	struct opts o = {0};
	struct rc_history h;
	struct rc_err err = {0};
	struct rc_out out;
	int npos, rc;

	(void)g;
	rc = rc_parse_options(argc, argv, "rocectl show RUN [--format text|json]", show_options,
			      on_option, &o, &npos);
	if (rc)
		return rc > 0 ? RC_EXIT_OK : RC_EXIT_USAGE;
	if (npos != 1) {
		fprintf(stderr, "rocectl show: one RUN is needed (see 'rocectl history')\n");
		return RC_EXIT_USAGE;
	}
	if (!o.dir)
		o.dir = rc_history_dir();
	if (rc_history_load(o.dir, argv[0], &h, &err)) {
		fprintf(stderr, "rocectl show: %s\n", err.msg);
		return RC_EXIT_ERROR;
	}
	rc_out_init(&out, stdout, o.json ? RC_OUT_JSON : RC_OUT_TEXT);
	rc_out_open_object(&out, NULL);
	rc_out_str(&out, "schema", NULL, "rocectl.run/v1");
	header(&out, &h);
	rc_out_text(&out, "\n");
	if (h.policy[0]) {
		rc_out_str(&out, "policy", "policy     %s", h.policy);
		rc_out_str(&out, "policy_sha256", "  sha256:%s\n", h.policy_sha256);
	}
	if (h.inventory[0]) {
		rc_out_str(&out, "inventory", "inventory  %s", h.inventory);
		rc_out_str(&out, "inventory_sha256", "  sha256:%s\n", h.inventory_sha256);
	}
	rc_out_open_array(&out, "devices");
	for (size_t i = 0; i < h.n; i++) {
		const struct rc_history_dev *d = &h.devs[i];

		rc_out_open_object(&out, NULL);
		rc_out_str(&out, "device", "%s", d->device);
		rc_out_str(&out, "driver", " (%s)", d->driver);
		rc_out_str(&out, "result", ": %s\n", d->result);
		if (d->error[0])
			rc_out_str(&out, "error", "  %s\n", d->error);
		rc_out_open_array(&out, "changes");
		for (size_t k = 0; k < d->changes.n; k++) {
			const struct rc_change *c = &d->changes.v[k];

			rc_out_open_object(&out, NULL);
			rc_out_str(&out, "port", "  %-14s", c->port);
			rc_out_str(&out, "field", " %-22s", c->field);
			rc_out_str(&out, "old", " %s", c->old_value[0] ? c->old_value : "unknown");
			rc_out_str(&out, "new", " -> %s\n", c->new_value);
			rc_out_close_object(&out);
		}
		rc_out_close_array(&out);
		rc_out_close_object(&out);
	}
	rc_out_close_array(&out);
	rc_out_close_object(&out);
	rc_out_end(&out);
	rc_history_fini(&h);
	return RC_EXIT_OK;
}
