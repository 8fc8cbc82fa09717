/* SPDX-License-Identifier: Apache-2.0 */
/* NVUE revisions (Cumulus Linux "NVUE CLI", Cumulus Linux "NVUE API"): "nv set"/"nv unset" and REST
 * PATCH/DELETE stage changes in a pending revision; apply validates them against the *current*
 * applied configuration (a revision is a list of changes, so a concurrent apply by someone else is
 * rebased over, as NVUE does), then the ASIC is re-programmed.
 *
 * State (st["nvue"]):
 *   next-rev, applied-rev, applied (sparse config: only what was set),
 *   revisions {id: {state, user, via, ops[], issue{}, progress, hold, date, message,
 *                   config (applied snapshot, kept for the last few applied revisions)}},
 *   cli-pending {user: id}  -- one CLI pending revision per login name */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nvue.h"

#define KEEP_REVISIONS 64
#define KEEP_CONFIGS   16

static cJSON *obj_of(cJSON *parent, const char *key)
{
	cJSON *o = jget1(parent, key);
	if (!cJSON_IsObject(o)) {
		o = cJSON_CreateObject();
		jput(parent, key, o);
	}
	return o;
}

cJSON *nv_applied(const struct nv_sw *sw)
{
	return obj_of(sw->nv, "applied");
}

long nv_applied_rev(const struct nv_sw *sw)
{
	return jint(sw->nv, "applied-rev", 1);
}

cJSON *nv_rev(const struct nv_sw *sw, long id)
{
	char k[24];
	snprintf(k, sizeof(k), "%ld", id);
	return jget1(jget1(sw->nv, "revisions"), k);
}

static void now_iso(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Forget the oldest finished revisions, and the config snapshots of old applied ones. */
static void prune(struct nv_sw *sw)
{
	cJSON *revs = obj_of(sw->nv, "revisions");
	const char **keys;
	int n = jkeys_sorted(revs, &keys), finished = 0, configs = 0;
	for (int i = n - 1; i >= 0; i--) {
		cJSON *r = jget1(revs, keys[i]);
		const char *state = jstr(r, "state", "");
		if (strcmp(state, "pending") == 0)
			continue;
		if (strtol(keys[i], NULL, 10) == nv_applied_rev(sw)) {
			configs++;
			continue;
		}
		if (++finished > KEEP_REVISIONS) {
			cJSON_DeleteItemFromObjectCaseSensitive(revs, keys[i]);
			continue;
		}
		if (jget1(r, "config") && ++configs > KEEP_CONFIGS)
			cJSON_DeleteItemFromObjectCaseSensitive(r, "config");
	}
	free(keys);
}

long nv_rev_new(struct nv_sw *sw, const char *user, const char *via)
{
	long id = jint(sw->nv, "next-rev", 2);
	char k[24], date[32];
	jput(sw->nv, "next-rev", cJSON_CreateNumber((double)(id + 1)));
	snprintf(k, sizeof(k), "%ld", id);
	now_iso(date, sizeof(date));
	cJSON *r = cJSON_CreateObject();
	jput(r, "state", cJSON_CreateString("pending"));
	jput(r, "user", cJSON_CreateString(user));
	jput(r, "via", cJSON_CreateString(via));
	jput(r, "date", cJSON_CreateString(date));
	jput(r, "ops", cJSON_CreateArray());
	jput(r, "issue", cJSON_CreateObject());
	jput(r, "progress", cJSON_CreateString(""));
	jput(obj_of(sw->nv, "revisions"), k, r);
	prune(sw);
	return id;
}

long nv_cli_pending(struct nv_sw *sw, const char *user, bool create)
{
	cJSON *map = obj_of(sw->nv, "cli-pending");
	long id = jint(map, user, 0);
	cJSON *r = id ? nv_rev(sw, id) : NULL;
	if (r && strcmp(jstr(r, "state", ""), "pending") == 0)
		return id;
	if (!create) {
		if (id)
			cJSON_DeleteItemFromObjectCaseSensitive(map, user);
		return 0;
	}
	id = nv_rev_new(sw, user, "cli");
	jput(map, user, cJSON_CreateNumber((double)id));
	return id;
}

static void drop_cli_pending(struct nv_sw *sw, long id)
{
	cJSON *map = obj_of(sw->nv, "cli-pending");
	cJSON *c = map->child;
	while (c) {
		cJSON *next = c->next;
		if (jlong(c, 0) == id)
			cJSON_Delete(cJSON_DetachItemViaPointer(map, c));
		c = next;
	}
}

void nv_rev_add_op(cJSON *rev, const char *op, char *const *path, int n, cJSON *value)
{
	cJSON *o = cJSON_CreateObject();
	cJSON *p = cJSON_CreateArray();
	jput(o, "op", cJSON_CreateString(op));
	for (int i = 0; i < n; i++)
		cJSON_AddItemToArray(p, cJSON_CreateString(path[i]));
	jput(o, "path", p);
	if (value)
		jput(o, "value", value);
	cJSON *ops = jget1(rev, "ops");
	if (!cJSON_IsArray(ops)) {
		ops = cJSON_CreateArray();
		jput(rev, "ops", ops);
	}
	cJSON_AddItemToArray(ops, o);
}

static void apply_op(cJSON *cfg, const cJSON *op)
{
	const char *path[NV_MAX_DEPTH];
	int n = 0;
	const cJSON *s;
	cJSON_ArrayForEach(s, jget1(op, "path"))
	{
		if (n == NV_MAX_DEPTH || !cJSON_IsString(s))
			return;
		path[n++] = s->valuestring;
	}
	const char *kind = jstr(op, "op", "");
	const cJSON *val = jget1(op, "value");
	if (strcmp(kind, "unset") == 0 || (strcmp(kind, "patch") == 0 && cJSON_IsNull(val))) {
		if (n == 0) {
			while (cfg->child)
				cJSON_Delete(cJSON_DetachItemViaPointer(cfg, cfg->child));
		} else {
			jdel(cfg, path, n);
			/* a top-level container (interface, qos) left empty renders like none:
			 * keep one state for both */
			cJSON *top = jget1(cfg, path[0]);
			if (n > 1 && cJSON_IsObject(top) && !top->child)
				cJSON_DeleteItemFromObjectCaseSensitive(cfg, path[0]);
		}
	} else if (strcmp(kind, "set") == 0 && val) {
		jset(cfg, path, n, cJSON_Duplicate(val, true));
	} else if (strcmp(kind, "patch") == 0 && val) {
		cJSON *at = n ? jget(cfg, path, n) : cfg;
		if (cJSON_IsObject(val) && cJSON_IsObject(at))
			jmerge(at, val, NULL, NULL);
		else if (cJSON_IsObject(val) && n) {
			cJSON *fresh = cJSON_CreateObject();
			jmerge(fresh, val, NULL, NULL);
			jset(cfg, path, n, fresh);
		} else if (n) {
			jset(cfg, path, n, cJSON_Duplicate(val, true));
		}
	}
}

cJSON *nv_rev_view(const struct nv_sw *sw, const cJSON *rev)
{
	const cJSON *snap = jget1(rev, "config");
	if (snap)
		return cJSON_Duplicate(snap, true);
	cJSON *cfg = cJSON_Duplicate(nv_applied(sw), true);
	const cJSON *op;
	cJSON_ArrayForEach(op, jget1(rev, "ops")) apply_op(cfg, op);
	nv_prune_sets(cfg);
	return cfg;
}

/* The startup configuration (/etc/nvue.d/startup.yaml on a switch) is what a reboot
 * loads.  `nv config apply` saves it by itself from CL 5.9 on; before, only
 * `nv config save` (or `system config auto-save`, not modelled) does (NVUE reference,
 * "Config Commands": nv config apply, nv config save). */
cJSON *nv_startup(const struct nv_sw *sw)
{
	cJSON *st = jget1(sw->nv, "startup");
	return cJSON_IsObject(st) ? st : nv_applied(sw);
}

void nv_save(struct nv_sw *sw)
{
	jput(sw->nv, "startup", cJSON_Duplicate(nv_applied(sw), true));
}

bool nv_auto_save(const struct nv_sw *sw)
{
	return sw->version >= 509;
}

cJSON *nv_view_by_name(struct nv_sw *sw, const char *name, const char *user, struct sbuf *err)
{
	if (!strcmp(name, "applied"))
		return cJSON_Duplicate(nv_applied(sw), true);
	if (!strcmp(name, "startup"))
		return cJSON_Duplicate(nv_startup(sw), true);
	if (!strcmp(name, "empty"))
		return cJSON_CreateObject();
	if (!strcmp(name, "pending")) {
		long id = nv_cli_pending(sw, user, false);
		return id ? nv_rev_view(sw, nv_rev(sw, id)) : cJSON_Duplicate(nv_applied(sw), true);
	}
	if (is_uint(name)) {
		long id = strtol(name, NULL, 10);
		if (id == nv_applied_rev(sw))
			return cJSON_Duplicate(nv_applied(sw), true);
		const cJSON *r = nv_rev(sw, id);
		if (r && (jget1(r, "config") || strcmp(jstr(r, "state", ""), "pending") == 0))
			return nv_rev_view(sw, r);
	}
	sb_addf(err, "Revision '%s' not found", name);
	return NULL;
}

static void set_result(cJSON *rev, const char *state, const cJSON *issues, const char *progress)
{
	cJSON *map = cJSON_CreateObject();
	const cJSON *i;
	int n = 0;
	cJSON_ArrayForEach(i, issues)
	{
		char k[16], msg[1024];
		const char *loc = jstr(i, "location", ""), *reason = jstr(i, "reason", "");
		cJSON *e = cJSON_CreateObject();
		snprintf(k, sizeof(k), "%d", n++);
		jput(e, "code", cJSON_CreateString(jstr(i, "code", "config_invalid")));
		if (*loc) {
			cJSON *d = cJSON_AddObjectToObject(e, "data");
			jput(d, "location", cJSON_CreateString(loc));
			jput(d, "reason", cJSON_CreateString(reason));
			snprintf(msg, sizeof(msg), "Config invalid at %s: %s", loc, reason);
		} else {
			cJSON_AddObjectToObject(e, "data");
			snprintf(msg, sizeof(msg), "%s", reason);
		}
		jput(e, "message", cJSON_CreateString(msg));
		jput(e, "severity", cJSON_CreateString("error"));
		cJSON_AddItemToObject(map, k, e);
	}
	jput(rev, "state", cJSON_CreateString(state));
	jput(rev, "issue", map);
	jput(rev, "progress", cJSON_CreateString(progress));
}

void nv_program(struct nv_sw *sw)
{
	jput(sw->st, "operational", nv_operational(sw, nv_applied(sw)));
}

/* A revision NVUE applied and, from 5.9 on, saved: its state says which (NVUE reference,
 * Config Commands, `nv config revision`: "applied_and_saved" on a 5.9+ switch). */
const char *nv_applied_state(const struct nv_sw *sw)
{
	return nv_auto_save(sw) ? "applied_and_saved" : "applied";
}

bool nv_state_applied(const char *state)
{
	return !strcmp(state, "applied") || !strcmp(state, "applied_and_saved");
}

static void make_applied(struct nv_sw *sw, long id, cJSON *rev, cJSON *cfg)
{
	jput(rev, "config", cJSON_Duplicate(cfg, true));
	jput(rev, "state", cJSON_CreateString(nv_applied_state(sw)));
	jput(sw->nv, "applied", cfg);
	jput(sw->nv, "applied-rev", cJSON_CreateNumber((double)id));
	drop_cli_pending(sw, id);
	nv_program(sw);
	if (nv_auto_save(sw))
		nv_save(sw);
	prune(sw);
}

enum nv_apply_status nv_apply_rev(struct sim_ctx *ctx, struct nv_sw *sw, long id,
				  struct nv_apply *ap)
{
	cJSON *rev = nv_rev(sw, id);
	char date[32];
	ap->warnings = cJSON_CreateArray();
	ap->issues = cJSON_CreateArray();
	ctx->dirty = true;

	cJSON *next = nv_rev_view(sw, rev);
	nv_warnings(nv_applied(sw), next, ap->warnings);
	if (cJSON_GetArraySize(ap->warnings) > 0 && !ap->assume_yes &&
	    !(ap->confirm && ap->confirm(ap->arg, ap->warnings))) {
		cJSON *i = cJSON_CreateObject();
		jput(i, "code", cJSON_CreateString("client_timeout"));
		jput(i, "reason", cJSON_CreateString("Timeout while waiting for client response"));
		cJSON_AddItemToArray(ap->issues, i);
		set_result(rev, "ays_fail", ap->issues, "Aborted apply after warnings");
		cJSON_Delete(next);
		return NV_AYS_FAIL;
	}
	if (sim_fault_take_reject(ctx)) {
		cJSON *i = cJSON_CreateObject();
		jput(i, "location", cJSON_CreateString("qos"));
		jput(i, "reason",
		     cJSON_CreateString("switchd failed to program the configuration "
					"(injected fault 'reject-next'); the previous revision "
					"stays applied"));
		cJSON_AddItemToArray(ap->issues, i);
		set_result(rev, "invalid", ap->issues, "Invalid config");
		drop_cli_pending(sw, id);
		cJSON_Delete(next);
		return NV_REJECTED;
	}
	nv_validate(sw, next, ap->issues);
	if (cJSON_GetArraySize(ap->issues) > 0) {
		set_result(rev, "invalid", ap->issues, "Invalid config");
		cJSON_Delete(next);
		return NV_INVALID;
	}
	set_result(rev, "applied", ap->issues, "");
	now_iso(date, sizeof(date));
	jput(rev, "date", cJSON_CreateString(date));
	jput(rev, "message", cJSON_CreateString(ap->message ? ap->message : ""));
	make_applied(sw, id, rev, next);
	return NV_APPLIED;
}

void nv_apply_done(struct nv_apply *ap)
{
	cJSON_Delete(ap->warnings);
	cJSON_Delete(ap->issues);
	ap->warnings = ap->issues = NULL;
}

void nv_commit_direct(struct nv_sw *sw, cJSON *sparse, const char *user, const char *message)
{
	long id = nv_rev_new(sw, user, "direct");
	cJSON *rev = nv_rev(sw, id);
	set_result(rev, "applied", NULL, "");
	jput(rev, "message", cJSON_CreateString(message));
	make_applied(sw, id, rev, sparse);
}

cJSON *nv_rev_state_json(const cJSON *rev)
{
	cJSON *o = cJSON_CreateObject();
	cJSON *t = cJSON_CreateObject();
	bool held = jint(rev, "hold", 0) > 0;
	jput(o, "state", cJSON_CreateString(held ? "apply" : jstr(rev, "state", "pending")));
	const cJSON *issue = jget1(rev, "issue");
	jput(t, "issue", held || !issue ? cJSON_CreateObject() : cJSON_Duplicate(issue, true));
	jput(t, "progress", cJSON_CreateString(held ? "" : jstr(rev, "progress", "")));
	jput(o, "transition", t);
	return o;
}

static void diff_at(const cJSON *a, const cJSON *b, cJSON *set, cJSON *unset, const char **path,
		    int n)
{
	const cJSON *bv, *av;
	if (n >= NV_MAX_DEPTH - 1)
		return;
	cJSON_ArrayForEach(bv, b)
	{
		path[n] = bv->string;
		av = jget1(a, bv->string);
		if (!av)
			jset(set, path, n + 1, cJSON_Duplicate(bv, true));
		else if (cJSON_IsObject(av) && cJSON_IsObject(bv))
			diff_at(av, bv, set, unset, path, n + 1);
		else if (!cJSON_Compare(av, bv, true))
			jset(set, path, n + 1, cJSON_Duplicate(bv, true));
	}
	cJSON_ArrayForEach(av, a)
	{
		if (jget1(b, av->string))
			continue;
		path[n] = av->string;
		jset(unset, path, n + 1, cJSON_CreateNull());
	}
}

void nv_diff(const cJSON *a, const cJSON *b, cJSON *set, cJSON *unset)
{
	const char *path[NV_MAX_DEPTH];
	diff_at(a, b, set, unset, path, 0);
}

static void cmds_at(struct sbuf *out, const cJSON *j, bool unset, const char **path, int n)
{
	const char **keys;
	int k = jkeys_sorted(j, &keys);
	for (int i = 0; i < k && n < NV_MAX_DEPTH; i++) {
		const cJSON *v = jget1(j, keys[i]);
		path[n] = keys[i];
		if (cJSON_IsObject(v) && v->child) {
			cmds_at(out, v, unset, path, n + 1);
			continue;
		}
		sb_adds(out, unset ? "nv unset" : "nv set");
		for (int p = 0; p <= n; p++)
			sb_addf(out, " %s", path[p]);
		if (cJSON_IsString(v))
			sb_addf(out, " %s", v->valuestring);
		else if (cJSON_IsNumber(v))
			sb_addf(out, " %ld", jlong(v, 0));
		sb_addc(out, '\n');
	}
	free(keys);
}

void nv_diff_commands(struct sbuf *out, const cJSON *set, const cJSON *unset)
{
	const char *path[NV_MAX_DEPTH];
	cmds_at(out, unset, true, path, 0);
	cmds_at(out, set, false, path, 0);
}
