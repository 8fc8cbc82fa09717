/* SPDX-License-Identifier: Apache-2.0 */
/* NVUE commit-confirm and the revision list (NVUE reference, Config Commands):
 *   nv config apply [<rev>] --confirm [<minutes>] -y   applied, rolled back by itself unless
 *                                                      confirmed (ten minutes by default;
 *                                                      `--confirm 60` is one hour)
 *   nv config apply --confirm-status                   the time left
 *   nv config apply <rev> --confirm-yes|--confirm-no   keep it now, or roll it back now
 *   nv config revision [-o json]                       every revision and its state
 * While the timer runs the revision is in state "confirm"; kept, it is "applied" or
 * "applied_and_saved" (5.9+: apply saves); rolled back by the timer "confirm_fail", by
 * --confirm-no "confirm_no".  `--confirm-yes/-no`, the state names other than
 * "applied_and_saved" and the JSON shape (an object keyed by revision id, each with a
 * "state") come from third-party clients written against real switches (napalm-cumulus
 * forks with commit-confirm).  What is not known is refused, not guessed: a suffixed
 * `--confirm 90s` (unit undocumented), a confirm without the revision id, and a bare
 * `nv config apply` with nothing pending while a revision waits. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nvue.h"

static int say(FILE *f, const char *msg, const char *arg)
{
	fprintf(f, msg, arg);
	fputc('\n', f);
	return 1;
}

cJSON *nv_confirm_restore(struct sim_ctx *ctx, const struct nv_sw *sw, long id)
{
	static const char *const keys[] = {"applied", "applied-rev", "startup"};
	cJSON *restore = cJSON_CreateArray();
	char rid[32];
	snprintf(rid, sizeof(rid), "%ld", id);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *path[] = {"nvue", keys[i]};
		cJSON *e = cJSON_CreateObject(), *v = jget1(sw->nv, keys[i]);
		jput(e, "path", cJSON_CreateStringArray(path, 2));
		jput(e, "value", v ? cJSON_Duplicate(v, true) : cJSON_CreateNull());
		cJSON_AddItemToArray(restore, e);
	}
	const char *op[] = {"operational"}, *rs[] = {"nvue", "revisions", rid, "state"};
	cJSON *e = cJSON_CreateObject(), *v = jget1(ctx->st, "operational");
	jput(e, "path", cJSON_CreateStringArray(op, 1));
	jput(e, "value", v ? cJSON_Duplicate(v, true) : cJSON_CreateNull());
	cJSON_AddItemToArray(restore, e);
	e = cJSON_CreateObject();
	jput(e, "path", cJSON_CreateStringArray(rs, 4));
	jput(e, "value", cJSON_CreateString("confirm_fail"));
	cJSON_AddItemToArray(restore, e);
	return restore;
}

void nv_confirm_arm(struct sim_ctx *ctx, struct nv_sw *sw, long id, long minutes, cJSON *restore)
{
	char rid[32];
	long minute = jint(jget1(ctx->st, "faults"), "confirm-minute", 60);
	snprintf(rid, sizeof(rid), "%ld", id);
	jput(nv_rev(sw, id), "state", cJSON_CreateString("confirm"));
	sim_timer_arm(ctx->st, rid, time(NULL) + minutes * minute, restore);
}

/* The id of the revision waiting for a confirm, or NULL. */
static const char *waiting(const struct sim_ctx *ctx)
{
	const cJSON *t = sim_timer_pending(ctx->st);
	return t ? jstr(t, "id", NULL) : NULL;
}

int nv_confirm_check_bare(struct nv_cli *c)
{
	const char *id = waiting(c->ctx);
	if (!id)
		return 0;
	return say(c->err,
		   "Error: revision %s is waiting for a confirm: nv config apply <rev> "
		   "--confirm-yes|--confirm-no [switchsim: what NVUE does with a bare apply here "
		   "is not documented]",
		   id);
}

int nv_confirm_answer(struct nv_cli *c, int nw, char **w)
{
	const char *id = waiting(c->ctx);
	if (nw != 1)
		return say(c->err,
			   "Error: --confirm-%s needs the revision id [switchsim: the form without "
			   "one is not documented]",
			   c->confirm_answer > 0 ? "yes" : "no");
	if (!id || strcmp(id, w[0]) != 0)
		return say(c->err, "Error: Revision '%s' is not waiting for a confirm", w[0]);
	long rid = strtol(id, NULL, 10);
	c->ctx->dirty = true;
	if (c->confirm_answer > 0) {
		sim_timer_clear(c->ctx->st);
		if (nv_auto_save(&c->sw))
			nv_save(&c->sw);
		jput(nv_rev(&c->sw, rid), "state", cJSON_CreateString(nv_applied_state(&c->sw)));
		fprintf(c->out, "confirmed [rev_id: %ld]\n", rid);
		return 0;
	}
	/* roll back now: the timer's own restore, due at once */
	sim_timer_expire(c->ctx->st,
			 (time_t)jlong(jget1(sim_timer_pending(c->ctx->st), "deadline"), 0));
	jput(nv_rev(&c->sw, rid), "state", cJSON_CreateString("confirm_no"));
	fprintf(c->out, "rolled back [rev_id: %ld]\n", rid);
	return 0;
}

int nv_confirm_status(struct nv_cli *c)
{
	const cJSON *t = sim_timer_pending(c->ctx->st);
	if (!t) {
		fprintf(c->out, "No revision is waiting for a confirm\n");
		return 0;
	}
	long left = jlong(jget1(t, "deadline"), 0) - (long)time(NULL);
	fprintf(c->out, "rev_id %s: %ld seconds left to confirm\n", jstr(t, "id", "?"),
		left > 0 ? left : 0);
	return 0;
}

/* `--confirm [<minutes>]`: a bare number of minutes; 10 when none follows. */
int nv_confirm_minutes(const char *text, long *minutes)
{
	size_t n = strlen(text), d = strspn(text, "0123456789");
	if (n == 0 || n > 5 || d != n)
		return -1;
	*minutes = strtol(text, NULL, 10);
	return *minutes < 1 ? -1 : 0;
}

/* "2024-04-26T11:24:50Z" -> "2024-04-26 11:24:50", the sample's Apply Date. */
static void apply_date(char *buf, size_t len, const char *iso)
{
	snprintf(buf, len, "%.19s", iso);
	if (strlen(buf) > 10 && buf[10] == 'T')
		buf[10] = ' ';
}

int nv_config_revision(struct nv_cli *c)
{
	const cJSON *revs = jget1(c->sw.nv, "revisions");
	const char **keys;
	int n = jkeys_sorted(revs, &keys);
	struct sbuf sb;
	sb_init(&sb);
	if (c->fmt == FMT_JSON || c->fmt == FMT_YAML) {
		cJSON *o = cJSON_CreateObject();
		for (int i = 0; i < n; i++)
			jput(cJSON_AddObjectToObject(o, keys[i]), "state",
			     cJSON_CreateString(jstr(jget1(revs, keys[i]), "state", "")));
		nv_print_json(c, o);
		cJSON_Delete(o);
	} else {
		struct table t;
		table_init(&t, 8, "Rev ID", "State", "Apply ID", "Apply Date", "Type", "User",
			   "Reason", "Message");
		for (int i = 0; i < n; i++) {
			const cJSON *r = jget1(revs, keys[i]);
			const char *state = jstr(r, "state", "");
			bool done = strcmp(state, "pending") != 0;
			char aid[48] = "", date[24] = "", msg[160];
			if (done)
				snprintf(aid, sizeof(aid), "rev_%s_apply_1", keys[i]);
			if (done)
				apply_date(date, sizeof(date), jstr(r, "date", ""));
			snprintf(msg, sizeof(msg), "%s", jstr(r, "message", ""));
			if (!msg[0])
				snprintf(msg, sizeof(msg), "Config update by %s",
					 jstr(r, "user", ""));
			/* the sample's only Type and Reason */
			table_row(&t, keys[i], state, aid, date, "CLI", jstr(r, "user", ""),
				  "Config update", msg);
		}
		table_print(&sb, &t, 0);
		table_free(&t);
		fputs(sb_str(&sb), c->out);
	}
	sb_free(&sb);
	free(keys);
	return 0;
}
