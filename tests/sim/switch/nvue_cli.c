/* SPDX-License-Identifier: Apache-2.0 */
/* The "nv" command: set/unset stage changes, "nv config ..." manages revisions, "nv show"
 * lives in nvue_show.c.  Texts follow Cumulus Linux "NVUE CLI" and Cumulus Linux "NVUE CLI"; where
 * the reference has none, the choice is documented in README.md. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "nvue.h"

static const char *const VERBS[] = {"set", "unset", "show", "config", "action"};
#define NVERBS ((int)(sizeof(VERBS) / sizeof(VERBS[0])))

static void words_str(struct sbuf *sb, int n, char **w)
{
	for (int i = 0; i < n; i++) {
		if (i)
			sb_addc(sb, ' ');
		sb_adds(sb, w[i]);
	}
}

static int fail(struct nv_cli *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct nv_cli *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfprintf(c->err, fmt, ap);
	va_end(ap);
	fputc('\n', c->err);
	return 1;
}

void nv_print_json(struct nv_cli *c, const cJSON *j)
{
	struct sbuf sb;
	sb_init(&sb);
	if (c->fmt == FMT_YAML)
		yprint(&sb, j, 0);
	else
		jprint(&sb, j);
	fputs(sb_str(&sb), c->out);
	sb_free(&sb);
}

int nv_not_found(struct nv_cli *c)
{
	return fail(c, "Error: The requested item does not exist.");
}

/* Report a parse failure of "<verb> <words>" (see nv_parse_words for rc). */
static int parse_error(struct nv_cli *c, const char *verb, int nw, char **w, int rc,
		       const struct sbuf *msg)
{
	struct sbuf cmd;
	sb_init(&cmd);
	int upto = nw;
	if (rc <= -2) {
		const char *colon = strchr(sb_str(msg), ':');
		upto = colon ? atoi(colon + 1) + 1 : nw;
	}
	sb_adds(&cmd, verb);
	sb_addc(&cmd, ' ');
	words_str(&cmd, upto, w);
	if (rc == -3)
		fail(c, "Error: Ambiguous Command: %s", sb_str(&cmd));
	else if (rc == -2)
		fail(c, "Error: Invalid Command: %s", sb_str(&cmd));
	else
		fail(c, "Error: Invalid Command: %s\n  %s", sb_str(&cmd), sb_str(msg));
	sb_free(&cmd);
	return 1;
}

static void target_path(struct sbuf *sb, const struct nv_target *t)
{
	nv_path_str(sb, t->path, t->n, '.');
}

static const struct nv_node *bare_leaf(const struct nv_sw *sw, const struct nv_node *obj)
{
	for (const struct nv_node *k = obj->sub; k->key; k++)
		if ((k->flags & NVF_BARE) && strcmp(k->key, nv_canon_key(sw, k)) == 0)
			return k;
	return NULL;
}

static bool is_roce(const struct nv_target *t)
{
	return t->n >= 2 && strcmp(t->path[0], "qos") == 0 && strcmp(t->path[1], "roce") == 0;
}

/* "nv set qos roce" and "nv set qos roce mode X" turn RoCE on (Cumulus Linux RoCE page: they are
 * equivalent); setting only cable-length does not. */
static void roce_side_effect(struct nv_cli *c, cJSON *rev, const struct nv_target *t)
{
	if (!is_roce(t) || (t->n == 3 && strcmp(t->path[2], "mode") != 0))
		return;
	const struct nv_node *en = bare_leaf(&c->sw, nv_kid(nv_kid(&nv_root, "qos"), "roce"));
	char *p[3] = {"qos", "roce", (char *)en->key};
	nv_rev_add_op(rev, "set", p, 3, cJSON_CreateString(en->vals[0]));
}

static int cmd_set(struct nv_cli *c, int nw, char **w, bool unset)
{
	const char *verb = unset ? "unset" : "set";
	struct nv_targets tg;
	struct sbuf msg;
	sb_init(&msg);
	if (nw == 0) {
		sb_free(&msg);
		return fail(c, "Error: Incomplete Command: %s", verb);
	}
	int rc = nv_parse_words(nw, w, &tg, &msg);
	if (rc < 0) {
		parse_error(c, verb, nw, w, rc, &msg);
		sb_free(&msg);
		return 1;
	}
	const struct nv_node *node = tg.v[0].node;
	bool leaf = node->kind >= NV_INT && !tg.v[0].member;
	int extra = nw - tg.end;
	struct sbuf cmd;
	sb_init(&cmd);
	sb_adds(&cmd, verb);
	sb_addc(&cmd, ' ');
	words_str(&cmd, nw, w);
	if ((leaf && !unset && extra != 1) || (leaf && unset && extra > 1) ||
	    (!leaf && extra > 0)) {
		rc = fail(c, "Error: %s Command: %s", extra ? "Invalid" : "Incomplete",
			  sb_str(&cmd));
		goto out;
	}
	/* with nothing after it, "set" creates a collection entry (a profile) or sets an
	 * object's bare attribute ("nv set qos roce"); anything else is incomplete */
	if (!unset && !leaf && !tg.v[0].member) {
		bool member;
		const struct nv_node *parent =
		    nv_node_at((const char *const *)tg.v[0].path, tg.v[0].n - 1, &member);
		bool entry = parent && parent->kind == NV_COLL;
		if (node->kind != NV_OBJ || (!entry && !bare_leaf(&c->sw, node))) {
			rc = fail(c, "Error: Incomplete Command: %s", sb_str(&cmd));
			goto out;
		}
	}

	/* check every target before staging anything: a bad value changes nothing */
	cJSON **vals = calloc((size_t)tg.n, sizeof(cJSON *));
	for (int i = 0; i < tg.n && rc == 0; i++) {
		struct nv_target *t = &tg.v[i];
		const struct nv_node *nd = t->node;
		if (nd->flags & NVF_ROCE_EN) {
			const char *ck = nv_canon_key(&c->sw, nd);
			free(t->path[t->n - 1]);
			t->path[t->n - 1] = strdup(ck);
			nd = t->node = nv_kid(nv_kid(nv_kid(&nv_root, "qos"), "roce"), ck);
		}
		if (unset)
			continue;
		if (t->member) {
			vals[i] = cJSON_CreateObject();
		} else if (leaf) {
			vals[i] = nv_parse_value(&c->sw, nd, w[nw - 1], &msg);
			if (!vals[i]) {
				struct sbuf p;
				sb_init(&p);
				target_path(&p, t);
				rc = fail(c, "Error: Invalid value for %s: %s", sb_str(&p),
					  sb_str(&msg));
				sb_free(&p);
			}
		}
	}
	if (rc == 0) {
		long id = nv_cli_pending(&c->sw, c->ctx->user, true);
		cJSON *rev = nv_rev(&c->sw, id);
		for (int i = 0; i < tg.n; i++) {
			struct nv_target *t = &tg.v[i];
			if (unset) {
				nv_rev_add_op(rev, "unset", t->path, t->n, NULL);
				continue;
			}
			const struct nv_node *bl =
			    node->kind == NV_OBJ ? bare_leaf(&c->sw, node) : NULL;
			if (vals[i]) {
				nv_rev_add_op(rev, "set", t->path, t->n, vals[i]);
				vals[i] = NULL;
			} else if (bl) {
				t->path[t->n++] = strdup(bl->key);
				nv_rev_add_op(rev, "set", t->path, t->n,
					      cJSON_CreateString(bl->vals[0]));
				t->n--;
				free(t->path[t->n]);
				/* "nv set qos roce" keeps an existing mode, else it means lossless
				 */
				if (is_roce(t)) {
					cJSON *view = nv_rev_view(&c->sw, rev);
					const char *p[] = {"qos", "roce", "mode"};
					if (!jget(view, p, 3)) {
						char *pp[] = {"qos", "roce", "mode"};
						nv_rev_add_op(rev, "set", pp, 3,
							      cJSON_CreateString("lossless"));
					}
					cJSON_Delete(view);
				}
				continue;
			} else {
				nv_rev_add_op(rev, "patch", t->path, t->n, cJSON_CreateObject());
			}
			roce_side_effect(c, rev, t);
		}
		c->ctx->dirty = true;
	}
	for (int i = 0; i < tg.n; i++)
		cJSON_Delete(vals[i]);
	free(vals);
out:
	sb_free(&cmd);
	sb_free(&msg);
	nv_targets_free(&tg);
	return rc;
}

/* ---- nv config ---- */

static bool cli_confirm(void *arg)
{
	struct nv_cli *c = arg;
	char line[64];
	if (c->assume_no)
		return false;
	fputs("Are you sure? [y/N] ", c->out);
	fflush(c->out);
	if (!c->ctx->in || !fgets(line, sizeof(line), c->ctx->in)) {
		fputc('\n', c->out);
		return false;
	}
	return line[0] == 'y' || line[0] == 'Y';
}

static void print_issues(struct nv_cli *c, long id, const cJSON *issues)
{
	const cJSON *i;
	fprintf(c->err, "Invalid config [rev_id: %ld]\n", id);
	cJSON_ArrayForEach(i, issues)
	{
		fprintf(c->err, "  Config invalid at %s: %s\n", jstr(i, "location", "?"),
			jstr(i, "reason", "?"));
	}
}

static int config_apply(struct nv_cli *c, int nw, char **w)
{
	long id;
	if (c->confirm_status)
		return nv_confirm_status(c);
	if (c->confirm_answer)
		return nv_confirm_answer(c, nw, w);
	if (nw > 1)
		return fail(c, "Error: Invalid Command: config apply %s", w[1]);
	if (nw == 1 && strcmp(w[0], "pending") != 0) {
		const cJSON *r = is_uint(w[0]) ? nv_rev(&c->sw, strtol(w[0], NULL, 10)) : NULL;
		if (!r || strcmp(jstr(r, "state", ""), "pending") != 0)
			return fail(c, "Error: Revision '%s' is not a pending revision", w[0]);
		id = strtol(w[0], NULL, 10);
	} else {
		id = nv_cli_pending(&c->sw, c->ctx->user, false);
	}
	if (id == 0 && nv_confirm_check_bare(c))
		return 1;
	if (id == 0) {
		fprintf(c->out, "Warning: no pending changes to apply\n");
		return 0;
	}
	if (c->confirm_min && sim_timer_pending(c->ctx->st))
		return fail(c, "Error: a revision applied with --confirm is not confirmed yet");
	cJSON *restore = c->confirm_min ? nv_confirm_restore(c->ctx, &c->sw, id) : NULL;
	struct nv_apply ap = {.assume_yes = c->assume_yes, .message = c->message};
	/* warnings are printed before the question, as NVUE does */
	cJSON *next = nv_rev_view(&c->sw, nv_rev(&c->sw, id));
	cJSON *warn = cJSON_CreateArray();
	const cJSON *wi;
	nv_warnings(nv_applied(&c->sw), next, warn);
	cJSON_ArrayForEach(wi, warn) fprintf(c->out, "Warning: %s\n", wi->valuestring);
	bool ask = cJSON_GetArraySize(warn) > 0 && !c->assume_yes;
	cJSON_Delete(warn);
	cJSON_Delete(next);
	if (ask) {
		char err[SIM_ERR_MAX];
		bool yes =
		    c->ctx->unlocked ? c->ctx->unlocked(c->ctx, cli_confirm, c) : cli_confirm(c);
		if (!c->ctx->st || nv_sw_init(&c->sw, c->ctx->st, err, sizeof(err)) < 0)
			return fail(c, "Error: the switch state could not be read again");
		const cJSON *r = nv_rev(&c->sw, id);
		if (!r || strcmp(jstr(r, "state", ""), "pending") != 0)
			return fail(c, "Error: revision %ld is no longer pending", id);
		if (!yes)
			return fail(c, "Aborted apply after warnings");
		ap.assume_yes = true;
	}

	enum nv_apply_status st = nv_apply_rev(c->ctx, &c->sw, id, &ap);
	cJSON *rev = nv_rev(&c->sw, id);
	int rc = 0;
	switch (st) {
	case NV_APPLIED:
		fprintf(c->out, "applied [rev_id: %ld]\n", id);
		if (restore) {
			nv_confirm_arm(c->ctx, &c->sw, id, c->confirm_min, restore);
			restore = NULL;
		}
		break;
	case NV_AYS_FAIL:
		/* the CLI keeps its pending revision: run again with -y */
		jput(rev, "state", cJSON_CreateString("pending"));
		rc = fail(c, "Aborted apply after warnings");
		break;
	case NV_INVALID:
		print_issues(c, id, ap.issues);
		jput(rev, "state", cJSON_CreateString("pending"));
		rc = 1;
		break;
	case NV_REJECTED:
		print_issues(c, id, ap.issues);
		rc = 1;
		break;
	}
	nv_apply_done(&ap);
	cJSON_Delete(restore);
	return rc;
}

static int view_or_fail(struct nv_cli *c, const char *name, cJSON **out)
{
	struct sbuf e;
	sb_init(&e);
	*out = nv_view_by_name(&c->sw, name, c->ctx->user, &e);
	if (!*out)
		fail(c, "Error: %s", sb_str(&e));
	sb_free(&e);
	return *out ? 0 : 1;
}

static int config_diff(struct nv_cli *c, int nw, char **w)
{
	const char *a = "applied", *b = "pending";
	cJSON *ja, *jb;
	if (nw == 1)
		b = w[0];
	else if (nw == 2)
		a = w[0], b = w[1];
	else if (nw > 2)
		return fail(c, "Error: Invalid Command: config diff %s", w[2]);
	if (view_or_fail(c, a, &ja))
		return 1;
	if (view_or_fail(c, b, &jb)) {
		cJSON_Delete(ja);
		return 1;
	}
	cJSON *set = cJSON_CreateObject(), *unset = cJSON_CreateObject();
	nv_diff(ja, jb, set, unset);
	struct sbuf sb;
	sb_init(&sb);
	if (c->fmt == FMT_COMMANDS) {
		nv_diff_commands(&sb, set, unset);
	} else {
		cJSON *list = cJSON_CreateArray();
		if (set->child) {
			cJSON *o = cJSON_CreateObject();
			jput(o, "set", cJSON_Duplicate(set, true));
			cJSON_AddItemToArray(list, o);
		}
		if (unset->child) {
			cJSON *o = cJSON_CreateObject();
			jput(o, "unset", cJSON_Duplicate(unset, true));
			cJSON_AddItemToArray(list, o);
		}
		if (c->fmt == FMT_JSON)
			jprint(&sb, list);
		else if (list->child)
			yprint(&sb, list, 0);
		cJSON_Delete(list);
	}
	fputs(sb_str(&sb), c->out);
	sb_free(&sb);
	cJSON_Delete(set);
	cJSON_Delete(unset);
	cJSON_Delete(ja);
	cJSON_Delete(jb);
	return 0;
}

static int config_show(struct nv_cli *c, int nw, char **w)
{
	cJSON *cfg;
	if (nw > 0)
		return fail(c, "Error: Invalid Command: config show %s", w[0]);
	if (view_or_fail(c, c->rev ? c->rev : "applied", &cfg))
		return 1;
	struct sbuf sb;
	sb_init(&sb);
	if (c->fmt == FMT_COMMANDS) {
		cJSON *empty = cJSON_CreateObject();
		nv_diff_commands(&sb, cfg, empty);
		cJSON_Delete(empty);
	} else {
		cJSON *list = cJSON_CreateArray();
		cJSON *h = cJSON_CreateObject(), *hdr = cJSON_AddObjectToObject(h, "header");
		char ver[64];
		snprintf(ver, sizeof(ver), "Cumulus Linux %s",
			 jstr(c->ctx->st, "version", "5.14.0"));
		jput(hdr, "model", cJSON_CreateString(c->sw.model->product));
		jput(hdr, "nvue-api-version", cJSON_CreateString("nvue_v1"));
		jput(hdr, "rev-id", cJSON_CreateString("1.0.0"));
		jput(hdr, "version", cJSON_CreateString(ver));
		cJSON_AddItemToArray(list, h);
		cJSON *s = cJSON_CreateObject();
		jput(s, "set", cfg);
		cfg = NULL;
		cJSON_AddItemToArray(list, s);
		if (c->fmt == FMT_JSON)
			jprint(&sb, list);
		else
			yprint(&sb, list, 0);
		cJSON_Delete(list);
	}
	cJSON_Delete(cfg);
	fputs(sb_str(&sb), c->out);
	sb_free(&sb);
	return 0;
}

static int config_history(struct nv_cli *c, bool all)
{
	const cJSON *revs = jget1(c->sw.nv, "revisions");
	const char **keys;
	int n = jkeys_sorted(revs, &keys);
	cJSON *list = cJSON_CreateArray();
	for (int i = n - 1; i >= 0; i--) {
		const cJSON *r = jget1(revs, keys[i]);
		const char *state = jstr(r, "state", "");
		if (!all && !nv_state_applied(state))
			continue;
		cJSON *o = cJSON_CreateObject();
		jput(o, "rev-id", cJSON_CreateString(keys[i]));
		jput(o, "state", cJSON_CreateString(state));
		jput(o, "date", cJSON_CreateString(jstr(r, "date", "")));
		jput(o, "user", cJSON_CreateString(jstr(r, "user", "")));
		jput(o, "message", cJSON_CreateString(jstr(r, "message", "")));
		cJSON_AddItemToArray(list, o);
	}
	free(keys);
	struct sbuf sb;
	sb_init(&sb);
	if (c->fmt == FMT_JSON) {
		jprint(&sb, list);
	} else {
		struct table t;
		table_init(&t, 5, "rev-id", "state", "date", "user", "message");
		const cJSON *o;
		cJSON_ArrayForEach(o, list)
		{
			table_row(&t, jstr(o, "rev-id", ""), jstr(o, "state", ""),
				  jstr(o, "date", ""), jstr(o, "user", ""), jstr(o, "message", ""));
		}
		table_print(&sb, &t, 0);
		table_free(&t);
	}
	cJSON_Delete(list);
	fputs(sb_str(&sb), c->out);
	sb_free(&sb);
	return 0;
}

static int cmd_config(struct nv_cli *c, int nw, char **w)
{
	static const char *const subs[] = {"apply",  "diff", "show",	"history",
					   "detach", "save", "revision"};
	if (nw == 0)
		return fail(c, "Error: Incomplete Command: config");
	int i = match_word(w[0], subs, (int)(sizeof(subs) / sizeof(subs[0])));
	if (i < 0)
		return fail(c, "Error: %s Command: config %s", i == -2 ? "Ambiguous" : "Invalid",
			    w[0]);
	switch (i) {
	case 0:
		return config_apply(c, nw - 1, w + 1);
	case 1:
		return config_diff(c, nw - 1, w + 1);
	case 2:
		return config_show(c, nw - 1, w + 1);
	case 3:
		return config_history(c, false);
	case 4: {
		long id = nv_cli_pending(&c->sw, c->ctx->user, false);
		if (id) {
			char k[24];
			snprintf(k, sizeof(k), "%ld", id);
			cJSON_DeleteItemFromObjectCaseSensitive(jget1(c->sw.nv, "revisions"), k);
			nv_cli_pending(&c->sw, c->ctx->user, false);
			c->ctx->dirty = true;
		}
		return 0;
	}
	case 5:
		nv_save(&c->sw);
		c->ctx->dirty = true;
		return 0;
	default:
		return nv_config_revision(c);
	}
}

/* nv action clear interface <if> [qos roce] counters */
static int cmd_action(struct nv_cli *c, int nw, char **w)
{
	if (nw >= 4 && strcmp(w[0], "clear") == 0 && strncmp(w[1], "int", 3) == 0 &&
	    strcmp(w[nw - 1], "counters") == 0) {
		char **ids;
		struct sbuf e;
		sb_init(&e);
		int n = nv_expand_ids(nv_kid(&nv_root, "interface"), w[2], &ids, &e);
		if (n < 0) {
			fail(c, "Error: %s", sb_str(&e));
			sb_free(&e);
			return 1;
		}
		sb_free(&e);
		cJSON *cnt = jget1(c->ctx->st, "counters");
		for (int i = 0; i < n; i++) {
			if (cnt)
				cJSON_DeleteItemFromObjectCaseSensitive(cnt, ids[i]);
			free(ids[i]);
		}
		free(ids);
		c->ctx->dirty = true;
		fprintf(c->out, "Action succeeded\n");
		return 0;
	}
	struct sbuf s;
	sb_init(&s);
	words_str(&s, nw, w);
	fail(c, "Error: Invalid Command: action %s", sb_str(&s));
	sb_free(&s);
	return 1;
}

static int parse_options(struct nv_cli *c, int argc, char **argv, int *nw, char **w)
{
	*nw = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = NULL;
		if (a[0] != '-' || a[1] == '\0') {
			w[(*nw)++] = argv[i];
			continue;
		}
		char opt[32];
		const char *eq = strchr(a, '=');
		size_t ol = eq ? (size_t)(eq - a) : strlen(a);
		if (ol >= sizeof(opt))
			return fail(c, "Error: No such option: %s", a);
		memcpy(opt, a, ol);
		opt[ol] = '\0';
		bool takes = !strcmp(opt, "-o") || !strcmp(opt, "--output") || !strcmp(opt, "-r") ||
			     !strcmp(opt, "--rev") || !strcmp(opt, "-m") ||
			     !strcmp(opt, "--message") || !strcmp(opt, "--color") ||
			     !strcmp(opt, "--paginate") || !strcmp(opt, "--filter") ||
			     !strcmp(opt, "--view");
		if (takes) {
			val = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
			if (!val)
				return fail(c, "Error: Option '%s' requires an argument.", opt);
		} else if (eq && strcmp(opt, "--confirm") != 0) {
			return fail(c, "Error: Option '%s' does not take a value.", opt);
		}
		if (!strcmp(opt, "-o") || !strcmp(opt, "--output")) {
			if (!strcmp(val, "json"))
				c->fmt = FMT_JSON;
			else if (!strcmp(val, "yaml"))
				c->fmt = FMT_YAML;
			else if (!strcmp(val, "commands"))
				c->fmt = FMT_COMMANDS;
			else if (!strcmp(val, "auto") || !strcmp(val, "native"))
				c->fmt = FMT_AUTO;
			else
				return fail(
				    c,
				    "Error: Invalid value for '-o' / '--output': '%s' is not "
				    "one of 'auto', 'json', 'yaml', 'native', 'commands'.",
				    val);
		} else if (!strcmp(opt, "-r") || !strcmp(opt, "--rev")) {
			c->rev = val;
		} else if (!strcmp(opt, "--applied") || !strcmp(opt, "--pending") ||
			   !strcmp(opt, "--operational") || !strcmp(opt, "--startup")) {
			c->rev = argv[i] + 2;
		} else if (!strcmp(opt, "--confirm")) {
			/* --confirm [<minutes>]: ten minutes by default (NVUE reference); a
			 * word that starts with a digit is its value, suffixed or not */
			const char *m =
			    eq ? eq + 1
			       : (i + 1 < argc && argv[i + 1][0] >= '0' && argv[i + 1][0] <= '9'
				      ? argv[++i]
				      : "10");
			if (nv_confirm_minutes(m, &c->confirm_min) < 0)
				return fail(c,
					    "Error: Invalid value for '--confirm': '%s' (a number "
					    "of minutes) [switchsim: a unit suffix is not "
					    "documented by NVIDIA]",
					    m);
		} else if (!strcmp(opt, "--confirm-yes") || !strcmp(opt, "--confirm-no")) {
			c->confirm_answer = !strcmp(opt, "--confirm-yes") ? 1 : -1;
		} else if (!strcmp(opt, "--confirm-status")) {
			c->confirm_status = true;
		} else if (!strcmp(opt, "-y") || !strcmp(opt, "--assume-yes")) {
			c->assume_yes = true;
		} else if (!strcmp(opt, "--assume-no")) {
			c->assume_no = true;
		} else if (!strcmp(opt, "-m") || !strcmp(opt, "--message")) {
			c->message = val;
		} else if (!strcmp(opt, "-h") || !strcmp(opt, "--help")) {
			c->help = true;
		} else if (!takes && strcmp(opt, "--all") && strcmp(opt, "--verbose")) {
			return fail(c, "Error: No such option: %s", a);
		}
	}
	return 0;
}

static int usage(struct nv_cli *c)
{
	fprintf(c->out, "Usage:\n  nv [options] <command> [<args>] ...\n\n"
			"Commands:\n"
			"  set        Update the pending revision\n"
			"  unset      Remove from the pending revision\n"
			"  show       Show the state of the system\n"
			"  config     Manage configuration revisions (apply, diff, show, "
			"history, detach)\n"
			"  action     Run actions (clear interface <if> counters)\n");
	return 0;
}

int nvue_cli(struct sim_ctx *ctx, int argc, char **argv, FILE *out, FILE *err)
{
	struct nv_cli c = {.ctx = ctx, .out = out, .err = err};
	char errbuf[SIM_ERR_MAX];
	int nw;

	if (strcmp(argv[0], "nv") != 0) {
		fprintf(err, "-sh: 1: %s: not found\n", argv[0]);
		return 127;
	}
	if (nv_sw_init(&c.sw, ctx->st, errbuf, sizeof(errbuf)) < 0)
		return fail(&c, "Error: %s", errbuf);
	char **w = calloc((size_t)argc + 1, sizeof(char *));
	if (parse_options(&c, argc, argv, &nw, w) != 0) {
		free(w);
		return 2;
	}
	int rc;
	if (nw == 0) {
		rc = c.help ? usage(&c) : (usage(&c), 2);
		free(w);
		return rc;
	}
	int v = match_word(w[0], VERBS, NVERBS);
	if (v == -2) {
		struct sbuf rest;
		sb_init(&rest);
		words_str(&rest, nw - 1, w + 1);
		fprintf(err, "Error: Ambiguous Command:\n");
		for (int i = 0; i < NVERBS; i++)
			if (strncmp(w[0], VERBS[i], strlen(w[0])) == 0)
				fprintf(err, "  %s %s\n", VERBS[i], sb_str(&rest));
		sb_free(&rest);
		free(w);
		return 1;
	}
	if (v < 0) {
		rc = fail(&c, "Error: Invalid Command: %s", w[0]);
	} else if (c.help) {
		rc = usage(&c);
	} else if (v == 0 || v == 1) {
		rc = cmd_set(&c, nw - 1, w + 1, v == 1);
	} else if (v == 2) {
		rc = nv_cmd_show(&c, nw - 1, w + 1);
	} else if (v == 3) {
		rc = cmd_config(&c, nw - 1, w + 1);
	} else {
		rc = cmd_action(&c, nw - 1, w + 1);
	}
	free(w);
	return rc;
}
