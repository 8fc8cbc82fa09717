/* SPDX-License-Identifier: Apache-2.0 */
/* NVUE revision objects, as the REST API (GET /nvue_v1/revision[/<id>]) and the CLI
 * (`nv config revision -o json`) show them: ids, states, and which states end an apply.
 *
 * States (Cumulus Linux 5.18 "NVUE API": a revision is polled until "applied"; NVUE
 * reference, Config Commands, `nv config revision`: every revision of a 5.9+ switch shows
 * "applied_and_saved", since `nv config apply` saves by itself from 5.9 on).  A revision
 * applied with `nv config apply --confirm` waits in state "confirm" until
 * `nv config apply <rev> --confirm-yes|--confirm-no` (the state and the two options are
 * those of third-party clients written against real switches, e.g. napalm-cumulus forks
 * with commit-confirm; NVIDIA's pages name only `--confirm` and `--confirm-status`). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "nvue.h"

int nvue_revision_id(const cJSON *j, char *id, size_t len, struct rc_err *err)
{
	const cJSON *first = cJSON_IsObject(j) ? j->child : NULL;

	if (!first || !first->string || !first->string[0] || first->next)
		return rc_errf(err, EPROTO,
			       "unexpected NVUE answer to creating a revision: expected one "
			       "revision id");
	if (strlen(first->string) >= len)
		return rc_errf(err, EPROTO, "NVUE revision id is too long");
	snprintf(id, len, "%s", first->string);
	return 0;
}

int nvue_revision_state(const cJSON *j, char *state, size_t slen, char *issue, size_t ilen,
			struct rc_err *err)
{
	const cJSON *st = cJSON_IsObject(j) ? cJSON_GetObjectItemCaseSensitive(j, "state") : NULL;
	const cJSON *tr, *issues, *first, *msg;

	issue[0] = '\0';
	if (!cJSON_IsString(st) || !st->valuestring[0])
		return rc_errf(err, EPROTO, "unexpected NVUE revision: no state");
	rc_clean_text(st->valuestring, strlen(st->valuestring), state, slen);
	tr = cJSON_GetObjectItemCaseSensitive(j, "transition");
	issues = cJSON_IsObject(tr) ? cJSON_GetObjectItemCaseSensitive(tr, "issue") : NULL;
	first = cJSON_IsObject(issues) || cJSON_IsArray(issues) ? issues->child : NULL;
	msg = cJSON_IsObject(first) ? cJSON_GetObjectItemCaseSensitive(first, "message") : NULL;
	if (cJSON_IsString(msg))
		rc_clean_text(msg->valuestring, strlen(msg->valuestring), issue, ilen);
	if (!issue[0] && cJSON_IsObject(tr)) {
		const cJSON *pr = cJSON_GetObjectItemCaseSensitive(tr, "progress");

		if (cJSON_IsString(pr))
			rc_clean_text(pr->valuestring, strlen(pr->valuestring), issue, ilen);
	}
	return 0;
}

bool nvue_revision_applied(const char *state)
{
	return !strcmp(state, "applied") || !strcmp(state, "applied_and_saved");
}

/* The failures: refused by validation, a prompt answered no or not at all, an apply or
 * verify step that failed, a confirm refused or timed out, a revision detached.  The
 * spellings not in NVIDIA's pages come from third-party tools that enumerate NVUE's
 * transitions; anything ending in _fail or _error is a failure too.  Every other state
 * (apply, ays, checking, verifying, auto_saving, confirm, ...) is a step on the way. */
bool nvue_revision_final(const char *state, bool *ok)
{
	static const char *const failed[] = {
	    "invalid",	   "ays_fail",	     "ays_no",	     "apply_fail", "apply_error",
	    "ignore_fail", "ignore_fail_no", "confirm_fail", "confirm_no", "verify_error",
	    "ready_error", "detached",	     "failed",	     "aborted",
	};
	size_t n = strlen(state);

	*ok = nvue_revision_applied(state);
	if (*ok)
		return true;
	for (size_t i = 0; i < sizeof(failed) / sizeof(failed[0]); i++)
		if (!strcmp(state, failed[i]))
			return true;
	return !strncmp(state, "fail", 4) || (n > 5 && !strcmp(state + n - 5, "_fail")) ||
	       (n > 6 && !strcmp(state + n - 6, "_error"));
}

/* A revision id that can go into a command line: NVUE's are numbers; letters, '_' and '-'
 * are let through, nothing else. */
static bool rev_id_ok(const char *id)
{
	size_t n = id ? strlen(id) : 0;

	if (!n || n >= 64)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((id[i] >= '0' && id[i] <= '9') || (id[i] >= 'a' && id[i] <= 'z') ||
		      (id[i] >= 'A' && id[i] <= 'Z') || id[i] == '_' || id[i] == '-'))
			return false;
	return true;
}

int nvue_revisions_in_state(const cJSON *revs, const char *state, char (**ids)[64], size_t *n,
			    struct rc_err *err)
{
	const cJSON *r;
	size_t k = 0;

	*ids = NULL;
	*n = 0;
	if (!cJSON_IsObject(revs))
		return rc_errf(err, EPROTO, "NVUE revisions: not an object keyed by revision id");
	*ids = calloc((size_t)cJSON_GetArraySize(revs) + 1, sizeof(**ids));
	if (!*ids)
		return rc_errf(err, ENOMEM, "out of memory");
	cJSON_ArrayForEach(r, revs)
	{
		const char *st = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "state"));

		if (!st || !rev_id_ok(r->string)) {
			free(*ids);
			*ids = NULL;
			return rc_errf(err, EPROTO,
				       "NVUE revisions: a revision has no valid id or no state");
		}
		if (!strcmp(st, state))
			snprintf((*ids)[k++], sizeof(**ids), "%s", r->string);
	}
	*n = k;
	return 0;
}

int nvue_revision_state_of(const cJSON *revs, const char *id, char *state, size_t slen,
			   struct rc_err *err)
{
	const cJSON *r = cJSON_IsObject(revs) ? cJSON_GetObjectItemCaseSensitive(revs, id) : NULL;
	const char *st = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "state"));

	state[0] = '\0';
	if (!cJSON_IsObject(revs))
		return rc_errf(err, EPROTO, "NVUE revisions: not an object keyed by revision id");
	if (!r)
		return 1;
	if (!st || !st[0])
		return rc_errf(err, EPROTO, "NVUE revision %s: no state", id);
	rc_clean_text(st, strlen(st), state, slen);
	return 0;
}
