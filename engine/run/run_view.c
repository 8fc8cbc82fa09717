/* SPDX-License-Identifier: Apache-2.0 */
/* The run record as `history` and `show` see it (include/rocectl/run_dir.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rocectl/confirm.h"
#include "rocectl/journal.h"
#include "rocectl/run_dir.h"
#include "rocectl/util.h"

int rc_run_state_line(const char *journal, const char *run_id, char *buf, size_t len)
{
	struct rc_confirm c;
	struct rc_run_loc loc;
	struct rc_err err = {0};

	if (rc_run_locate(journal, run_id, &loc, &err) || rc_confirm_load(&loc, &c, &err))
		return -ENOENT;
	rc_confirm_describe(&c, time(NULL), buf, len);
	return 0;
}

static bool is_known(char *const *known, size_t n, const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(known[i], id))
			return true;
	return false;
}

/* The run in `v` (n of them) with id `id`, or NULL. */
static struct rc_run_open *find_open(struct rc_run_open *v, size_t n, const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].run_id, id))
			return &v[i];
	return NULL;
}

/* A plain run keeps no record: killed while it wrote, what is left of it is its journal
 * entries, which the next plain `rollback` restores.  Listed so that `history` shows it
 * needs recovery until then (a run whose process still lives is at work, not listed). */
static int list_killed_plain(const char *journal, char *const *known, size_t n_known,
			     struct rc_run_open **out, size_t *n)
{
	struct rc_journal_entry *e = NULL;
	struct rc_err err = {0};
	size_t m = 0, cap = *n;
	pid_t pid;
	int rc = 0;

	if (rc_journal_list(journal, NULL, &e, &m, &err))
		return 0; /* an unreadable journal is `rollback`'s to report, not history's */
	for (size_t i = 0; i < m; i++) {
		struct rc_run_open *r = find_open(*out, *n, e[i].run_id);

		if (r && r->journal_entries) {
			r->journal_entries++;
			continue;
		}
		if (r || is_known(known, n_known, e[i].run_id) || rc_txn_run_id_alive(e[i].run_id))
			continue;
		if (rc_array_reserve((void **)out, &cap, *n + 1, sizeof(**out), 4)) {
			rc = -ENOMEM;
			break;
		}
		r = &(*out)[(*n)++];
		memset(r, 0, sizeof(*r));
		snprintf(r->run_id, sizeof(r->run_id), "%s", e[i].run_id);
		r->journal_entries = 1;
		if (rc_txn_run_id_parse(r->run_id, &r->changed, &pid))
			r->changed = 0;
	}
	rc_journal_entries_free(e, m);
	return rc;
}

int rc_run_list_open(const char *journal, char *const *known, size_t n_known,
		     struct rc_run_open **out, size_t *n)
{
	char **ids = NULL;
	size_t m = 0, cap = 0;
	int rc;

	*out = NULL;
	*n = 0;
	rc = rc_run_list_records(journal, &ids, &m);
	for (size_t i = 0; !rc && i < m; i++) {
		struct rc_confirm c;
		struct rc_run_loc loc;
		struct rc_err err = {0};
		struct rc_run_open *r;

		if (is_known(known, n_known, ids[i]) ||
		    rc_run_locate(journal, ids[i], &loc, &err) || rc_confirm_load(&loc, &c, &err) ||
		    c.state == RC_CONFIRM_CONFIRMED || c.state == RC_CONFIRM_ROLLED_BACK)
			continue;
		if (rc_array_reserve((void **)out, &cap, *n + 1, sizeof(**out), 4)) {
			rc = -ENOMEM;
			break;
		}
		r = &(*out)[(*n)++];
		memset(r, 0, sizeof(*r));
		snprintf(r->run_id, sizeof(r->run_id), "%s", ids[i]);
		snprintf(r->command, sizeof(r->command), "%s", c.command);
		snprintf(r->host, sizeof(r->host), "%s", c.owner.host);
		r->changed = c.changed;
	}
	rc_run_ids_free(ids, m);
	return rc ? rc : list_killed_plain(journal, known, n_known, out, n);
}

int rc_run_forget(const char *journal, const char *run_id, struct rc_err *err)
{
	struct rc_run_loc loc;
	int rc = rc_run_locate(journal, run_id, &loc, err);

	return rc ? rc : rc_confirm_forget(&loc, err);
}
