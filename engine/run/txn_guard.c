/* SPDX-License-Identifier: Apache-2.0 */
/* Runs that are not over (engine/run/txn_int.h): a device of a run pending its confirm
 * belongs to that run, and any other run that would write it is refused (its timer would
 * undo the other run's work without a word); an orphaned run, which nobody alive will
 * finish, is rolled back by plain `rollback` and before a run that needs its devices. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "rocectl/journal.h"
#include "txn_int.h"

/* Roll back one orphaned run through `rollback RUN` (which claims it under its lock). */
static int recover(const struct rc_confirm *c, const char *journal, const char *inventory,
		   const struct rc_txn_env *env, const struct rc_txn_say *say)
{
	struct rc_txn_env tenv;

	rc_txn_env_of(c, env, &tenv);
	return rc_txn_rollback_run(c->run_id, journal,
				   inventory && *inventory ? inventory : c->inventory, &tenv, say);
}

int rc_txn_sweep(const char *journal, const char *inventory, const struct rc_txn_env *env,
		 const struct rc_txn_say *say, size_t *found)
{
	char **ids = NULL;
	size_t n = 0;
	time_t now = time(NULL);
	int bad = 0;

	*found = 0;
	if (rc_run_list_records(journal, &ids, &n))
		return -EIO;
	for (size_t i = 0; i < n; i++) {
		struct rc_confirm c = {0};
		struct rc_run_loc loc;
		struct rc_err err = {0};

		if (rc_run_locate(journal, ids[i], &loc, &err) || rc_confirm_load(&loc, &c, &err)) {
			rc_txn_say(say, RC_TXN_ERROR, "rollback", "%s", err.msg);
			bad = -EIO;
			continue;
		}
		if (rc_confirm_hung(&c, now)) {
			char line[512];

			/* alive: not ours to stop unasked (a slow device may yet answer) */
			rc_confirm_describe(&c, now, line, sizeof(line));
			rc_txn_say(say, RC_TXN_ERROR, "rollback", "run %s: %s", c.run_id, line);
			bad = -EIO;
			continue;
		}
		if (!rc_confirm_orphaned(&c, now))
			continue;
		(*found)++;
		rc_txn_say(say, RC_TXN_NOTE, "rollback",
			   "run %s needs recovery (%s, nobody is finishing it): rolling it back",
			   c.run_id, rc_confirm_state_name(c.state));
		if (recover(&c, journal, inventory, env, say))
			bad = -EIO;
	}
	rc_run_ids_free(ids, n);
	return bad;
}

static bool listed(const char *const *names, size_t n, const char *device)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], device))
			return true;
	return false;
}

/* The first of `names` that has an entry kept by the run, or NULL. */
static const char *first_shared(const struct rc_run_loc *l, const char *const *names, size_t n,
				char *buf, size_t len, const struct rc_txn_say *say)
{
	struct rc_journal_entry *e = NULL;
	struct rc_err err = {0};
	const char *hit = NULL;
	size_t m = 0;

	if (rc_journal_list(l->entries, l->run_id, &e, &m, &err)) {
		rc_txn_say(say, RC_TXN_RAW, "", "rocectl: warning: %s", err.msg);
		return NULL;
	}
	for (size_t i = 0; i < m && !hit; i++)
		if (listed(names, n, e[i].device)) {
			snprintf(buf, len, "%s", e[i].device);
			hit = buf;
		}
	rc_journal_entries_free(e, m);
	return hit;
}

static void refuse(const char *command, const char *dev, const struct rc_confirm *c,
		   const struct rc_txn_say *say)
{
	char t[32];

	rc_confirm_time(c->deadline, t, sizeof(t));
	if (c->state == RC_CONFIRM_PENDING || c->state == RC_CONFIRM_APPLYING)
		rc_txn_say(say, RC_TXN_ERROR, command,
			   "'%s' belongs to run %s, pending its confirm until %s: 'rocectl "
			   "confirm %s' or 'rocectl rollback %s' first; nothing was done",
			   dev, c->run_id, t, c->run_id, c->run_id);
	else
		rc_txn_say(say, RC_TXN_ERROR, command,
			   "'%s' belongs to run %s, which is %s: 'rocectl rollback %s' first; "
			   "nothing was done",
			   dev, c->run_id, rc_confirm_state_name(c->state), c->run_id);
}

int rc_txn_guard(const char *command, const char *journal, const char *inventory,
		 const char *const *names, size_t n, const struct rc_txn_env *env,
		 bool recover_orphans, const struct rc_txn_say *say)
{
	char **ids = NULL, dev[RC_NAME_MAX];
	size_t m = 0;
	int refused = 0;

	if (rc_run_list_records(journal, &ids, &m))
		return 0;
	for (size_t i = 0; i < m && !refused; i++) {
		struct rc_confirm c = {0};
		struct rc_run_loc loc;
		struct rc_err err = {0};

		if (rc_run_locate(journal, ids[i], &loc, &err) || rc_confirm_load(&loc, &c, &err) ||
		    c.state == RC_CONFIRM_CONFIRMED || c.state == RC_CONFIRM_ROLLED_BACK ||
		    !first_shared(&loc, names, n, dev, sizeof(dev), say))
			continue;
		if (recover_orphans && rc_confirm_orphaned(&c, time(NULL))) {
			rc_txn_say(say, RC_TXN_ERROR, command,
				   "'%s' belongs to run %s, which needs recovery (%s, nobody is "
				   "finishing it): rolling it back first",
				   dev, c.run_id, rc_confirm_state_name(c.state));
			if (!recover(&c, journal, inventory, env, say) &&
			    !rc_confirm_load(&loc, &c, &err) && c.state == RC_CONFIRM_ROLLED_BACK)
				continue;
		}
		refuse(command, dev, &c, say);
		refused = -EBUSY;
	}
	rc_run_ids_free(ids, m);
	return refused;
}
