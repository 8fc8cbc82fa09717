/* SPDX-License-Identifier: Apache-2.0 */
/* NVUE REST API below /nvue_v1 (Cumulus Linux "NVUE API"):
 *   GET    /nvue_v1/<path>[?rev=operational|applied|startup|pending|N][&filled=false]
 *   POST   /nvue_v1/revision                      -> {"<id>": {"state": "pending", ...}}
 *   PATCH  /nvue_v1/<path>?rev=<id>   JSON body   -> merge patch into the revision (echo)
 *   DELETE /nvue_v1/<path>?rev=<id>               -> 204, unset in the revision
 *   PATCH  /nvue_v1/revision/<id>  {"state": "apply", "auto-prompt": {"ays": "ays_yes"}}
 *   PATCH  /nvue_v1/revision/applied  {"state": "save", "auto-prompt": {"ays": "ays_yes"}}
 *          -> the applied configuration becomes the startup one (NVIDIA's "Data Center Network
 *          Automation Quick Start Guide", Use Cases and Recommendations, Revisions step 5:
 *          the REST form of `nv config save`)
 *   GET    /nvue_v1/revision[/<id>]               -> state + transition ("applied_and_saved"
 *          from 5.9 on, where apply saves)
 *   "state-controls" / "auto-prompt": {"confirm": ...} (commit-confirm as third-party models
 *          spell it) are refused: NVIDIA documents no REST form of `--confirm`.
 * Errors use the problem+json shape {"detail", "status", "title", "type"}. */
#include <stdlib.h>
#include <string.h>

#include "nvue.h"

#define MAX_SEGS NV_MAX_DEPTH

static void body_json(struct sim_resp *r, int status, const cJSON *j)
{
	r->status = status;
	sb_reset(&r->body);
	jprint(&r->body, j);
}

static void problem(struct sim_resp *r, int status, const char *detail)
{
	static const struct {
		int code;
		const char *title;
	} titles[] = {{400, "Bad Request"},
		      {404, "Not Found"},
		      {405, "Method Not Allowed"},
		      {409, "Conflict"},
		      {500, "Internal Server Error"}};
	const char *t = "Error";
	for (size_t i = 0; i < sizeof(titles) / sizeof(titles[0]); i++)
		if (titles[i].code == status)
			t = titles[i].title;
	cJSON *j = cJSON_CreateObject();
	jput(j, "detail", cJSON_CreateString(detail));
	jput(j, "status", cJSON_CreateNumber(status));
	jput(j, "title", cJSON_CreateString(t));
	jput(j, "type", cJSON_CreateString("about:blank"));
	body_json(r, status, j);
	cJSON_Delete(j);
}

static int split_segs(char *path, char **seg)
{
	int n = 0;
	char *save = NULL;
	for (char *s = strtok_r(path, "/", &save); s; s = strtok_r(NULL, "/", &save)) {
		if (n == MAX_SEGS)
			return -1;
		seg[n++] = s;
	}
	return n;
}

static cJSON *parse_body(const struct sim_req *req, struct sim_resp *resp)
{
	cJSON *j = req->body_len ? cJSON_ParseWithLength(req->body, req->body_len) : NULL;
	if (!j)
		problem(resp, 400,
			"Failed to decode JSON object: the request body is not valid JSON");
	return j;
}

/* Walk the schema along a URL path, checking ids; canonicalises the roce enable/state
 * segment.  NULL (err filled) for a path the model does not have. */
static const struct nv_node *rest_node(const struct nv_sw *sw, char **seg, int n, bool *member,
				       struct sbuf *err)
{
	const struct nv_node *cur = &nv_root;
	*member = false;
	for (int i = 0; i < n; i++) {
		if (*member || !cur) {
			sb_adds(err, "The requested URL was not found on the server.");
			return NULL;
		}
		if (cur->kind == NV_OBJ) {
			const struct nv_node *k = nv_kid(cur, seg[i]);
			if (k && (k->flags & NVF_ROCE_EN)) {
				seg[i] = (char *)nv_canon_key(sw, k);
				k = nv_kid(cur, seg[i]);
			}
			cur = k;
		} else if (cur->kind == NV_COLL || cur->kind == NV_SET) {
			if (nv_check_id(cur, seg[i], err) < 0)
				return NULL;
			if (cur->kind == NV_SET)
				*member = true;
			else
				cur = cur->sub;
		} else {
			cur = NULL;
		}
	}
	if (!cur)
		sb_adds(err, "The requested URL was not found on the server.");
	return cur;
}

static cJSON *operational_root(const struct nv_sw *sw)
{
	const cJSON *oper = jget1(sw->st, "operational");
	cJSON *root = cJSON_CreateObject();
	jput(root, "qos", cJSON_Duplicate(jget1(oper, "qos"), true));
	jput(root, "interface", cJSON_Duplicate(jget1(oper, "interface"), true));
	jput(root, "system", nv_system_json(sw, false));
	jput(root, "platform", nv_system_json(sw, true));
	return root;
}

static void rest_get(struct sim_ctx *ctx, struct nv_sw *sw, const struct sim_req *req, char **seg,
		     int n, struct sim_resp *resp)
{
	const char *rev = req->query(req, "rev");
	const char *filled = req->query(req, "filled");
	cJSON *root;
	if (!rev || !strcmp(rev, "operational")) {
		if (n == 2 && !strcmp(seg[0], "qos") && !strcmp(seg[1], "roce")) {
			cJSON *r = nv_roce_oper(jget1(jget1(sw->st, "operational"), "qos"),
						nv_oper_roce_on(sw->st));
			body_json(resp, 200, r);
			cJSON_Delete(r);
			return;
		}
		root = operational_root(sw);
	} else {
		struct sbuf e;
		sb_init(&e);
		cJSON *sparse = nv_view_by_name(sw, rev, ctx->user, &e);
		if (!sparse) {
			problem(resp, 404, sb_str(&e));
			sb_free(&e);
			return;
		}
		sb_free(&e);
		if (filled && !strcmp(filled, "false")) {
			root = sparse;
		} else {
			root = nv_filled(sw, sparse);
			cJSON_Delete(sparse);
		}
	}
	if (n >= 1 && !strcmp(seg[0], "interface") && rev && strcmp(rev, "operational") != 0 &&
	    n >= 2 && !nv_port_valid(seg[1])) {
		problem(resp, 404, "The requested URL was not found on the server.");
		cJSON_Delete(root);
		return;
	}
	const cJSON *at = jget(root, (const char *const *)seg, n);
	if (!at && n >= 2 && !strcmp(seg[0], "interface") && nv_port_valid(seg[1]) && rev &&
	    strcmp(rev, "operational") != 0) {
		/* a port with nothing configured */
		cJSON *empty = cJSON_CreateObject();
		body_json(resp, 200, empty);
		cJSON_Delete(empty);
	} else if (!at) {
		problem(resp, 404, "The requested URL was not found on the server.");
	} else {
		body_json(resp, 200, at);
	}
	cJSON_Delete(root);
}

static cJSON *pending_rev(struct nv_sw *sw, const struct sim_req *req, struct sim_resp *resp)
{
	const char *rev = req->query(req, "rev");
	if (!rev) {
		problem(resp, 400, "Missing query parameter 'rev'");
		return NULL;
	}
	cJSON *r = is_uint(rev) ? nv_rev(sw, strtol(rev, NULL, 10)) : NULL;
	if (!r) {
		char d[160];
		snprintf(d, sizeof(d), "Revision '%.64s' not found", rev);
		problem(resp, 404, d);
		return NULL;
	}
	if (strcmp(jstr(r, "state", ""), "pending") != 0) {
		char d[160];
		snprintf(d, sizeof(d), "Revision '%.64s' is not pending (state %s)", rev,
			 jstr(r, "state", "?"));
		problem(resp, 409, d);
		return NULL;
	}
	return r;
}

static void rest_change(struct sim_ctx *ctx, struct nv_sw *sw, const struct sim_req *req,
			char **seg, int n, bool del, struct sim_resp *resp)
{
	struct sbuf e;
	bool member;
	cJSON *rev = pending_rev(sw, req, resp);
	if (!rev)
		return;
	sb_init(&e);
	const struct nv_node *node = rest_node(sw, seg, n, &member, &e);
	if (!node) {
		problem(resp, 404, sb_str(&e));
		sb_free(&e);
		return;
	}
	if (del) {
		nv_rev_add_op(rev, "unset", seg, n, NULL);
		ctx->dirty = true;
		resp->status = 204;
		sb_reset(&resp->body);
		sb_free(&e);
		return;
	}
	cJSON *body = parse_body(req, resp);
	if (!body) {
		sb_free(&e);
		return;
	}
	int rc = 0;
	struct sbuf where;
	sb_init(&where);
	nv_path_str(&where, seg, n, '.');
	if (member) {
		if (!cJSON_IsNull(body) && (!cJSON_IsObject(body) || body->child)) {
			sb_adds(&e, "a set member takes {} (or null to remove it)");
			rc = -1;
		}
	} else {
		rc = nv_check_json(sw, node, &body, &e, &where);
	}
	if (rc < 0) {
		sb_addf(&e, " - '%s'", sb_str(&where));
		problem(resp, 400, sb_str(&e));
	} else if (n == 0 && !cJSON_IsObject(body)) {
		problem(resp, 400, "the root of the configuration is an object");
	} else {
		nv_rev_add_op(rev, "patch", seg, n, cJSON_Duplicate(body, true));
		ctx->dirty = true;
		body_json(resp, 200, body);
	}
	cJSON_Delete(body);
	sb_free(&e);
	sb_free(&where);
}

/* PATCH /nvue_v1/revision/applied {"state": "save", ...}: `nv config save` over the API (the
 * guide's example answers {"state": "save", "transition": {"issue": {}, "progress": ""}}).
 * Any other method or state on "applied" is refused. */
static void rest_save(struct sim_ctx *ctx, struct nv_sw *sw, const struct sim_req *req,
		      struct sim_resp *resp)
{
	if (strcmp(req->method, "PATCH") != 0) {
		problem(resp, 405, "The method is not allowed for the requested URL.");
		return;
	}
	cJSON *body = parse_body(req, resp);
	if (!body)
		return;
	if (strcmp(jstr(body, "state", ""), "save") != 0) {
		problem(resp, 409, "Revision 'applied' can only be saved");
		cJSON_Delete(body);
		return;
	}
	cJSON_Delete(body);
	nv_save(sw);
	ctx->dirty = true;
	cJSON *j = cJSON_CreateObject();
	jput(j, "state", cJSON_CreateString("save"));
	cJSON *t = cJSON_AddObjectToObject(j, "transition");
	cJSON_AddObjectToObject(t, "issue");
	jput(t, "progress", cJSON_CreateString(""));
	body_json(resp, 200, j);
	cJSON_Delete(j);
}

static void rest_revision(struct sim_ctx *ctx, struct nv_sw *sw, const struct sim_req *req,
			  char **seg, int n, struct sim_resp *resp)
{
	const char *m = req->method;
	if (n == 1 && !strcmp(m, "POST")) {
		long id = nv_rev_new(sw, ctx->user, "rest");
		char k[24];
		snprintf(k, sizeof(k), "%ld", id);
		cJSON *j = cJSON_CreateObject();
		jput(j, k, nv_rev_state_json(nv_rev(sw, id)));
		body_json(resp, 200, j);
		cJSON_Delete(j);
		ctx->dirty = true;
		return;
	}
	if (n == 1 && !strcmp(m, "GET")) {
		cJSON *j = cJSON_CreateObject();
		const cJSON *r;
		cJSON_ArrayForEach(r, jget1(sw->nv, "revisions"))
		{
			cJSON_AddItemToObject(j, r->string, nv_rev_state_json(r));
		}
		body_json(resp, 200, j);
		cJSON_Delete(j);
		return;
	}
	if (n == 2 && !strcmp(seg[1], "applied")) {
		rest_save(ctx, sw, req, resp);
		return;
	}
	cJSON *rev = n == 2 && is_uint(seg[1]) ? nv_rev(sw, strtol(seg[1], NULL, 10)) : NULL;
	if (n != 2 || !rev) {
		problem(resp, 404, "Revision not found");
		return;
	}
	long id = strtol(seg[1], NULL, 10);
	if (!strcmp(m, "GET")) {
		cJSON *j = nv_rev_state_json(rev);
		long hold = jint(rev, "hold", 0);
		/* an apply is reported in progress once, so clients have to poll */
		if (hold > 0) {
			jput(rev, "hold", cJSON_CreateNumber((double)(hold - 1)));
			ctx->dirty = true;
		}
		body_json(resp, 200, j);
		cJSON_Delete(j);
		return;
	}
	if (!strcmp(m, "DELETE")) {
		if (strcmp(jstr(rev, "state", ""), "pending") != 0) {
			problem(resp, 409, "only a pending revision can be deleted");
			return;
		}
		cJSON_DeleteItemFromObjectCaseSensitive(jget1(sw->nv, "revisions"), seg[1]);
		ctx->dirty = true;
		resp->status = 204;
		sb_reset(&resp->body);
		return;
	}
	if (strcmp(m, "PATCH") != 0) {
		problem(resp, 405, "The method is not allowed for the requested URL.");
		return;
	}
	cJSON *body = parse_body(req, resp);
	if (!body)
		return;
	const char *state = jstr(body, "state", "");
	if (jget1(body, "state-controls") || jget1(jget1(body, "auto-prompt"), "confirm")) {
		/* third-party models name these; NVIDIA documents no REST commit-confirm */
		problem(resp, 400,
			"commit-confirm over the API [switchsim stand-in: the form is not "
			"documented by NVIDIA, so it is refused rather than guessed]");
	} else if (!strcmp(state, "save")) {
		/* the guide saves through revision "applied" only; what NVUE answers here is not
		 * documented */
		problem(resp, 400,
			"save revision 'applied' [switchsim stand-in, the real answer is not "
			"public]");
	} else if (strcmp(state, "apply") != 0) {
		char d[128];
		snprintf(d, sizeof(d), "'%.40s' is not one of ['apply', 'save'] - 'state'", state);
		problem(resp, 400, d);
	} else if (strcmp(jstr(rev, "state", ""), "pending") != 0) {
		char d[128];
		snprintf(d, sizeof(d), "Revision '%ld' is not pending (state %s)", id,
			 jstr(rev, "state", "?"));
		problem(resp, 409, d);
	} else {
		struct nv_apply ap = {
		    .assume_yes = !strcmp(jstr(jget1(body, "auto-prompt"), "ays", ""), "ays_yes"),
		};
		nv_apply_rev(ctx, sw, id, &ap);
		nv_apply_done(&ap);
		jput(nv_rev(sw, id), "hold", cJSON_CreateNumber(1));
		cJSON *j = cJSON_CreateObject();
		jput(j, "state", cJSON_CreateString("apply"));
		cJSON *t = cJSON_AddObjectToObject(j, "transition");
		cJSON_AddObjectToObject(t, "issue");
		jput(t, "progress", cJSON_CreateString(""));
		body_json(resp, 200, j);
		cJSON_Delete(j);
	}
	cJSON_Delete(body);
}

void nv_rest(struct sim_ctx *ctx, const struct sim_req *req, struct sim_resp *resp)
{
	struct nv_sw sw;
	char err[SIM_ERR_MAX];
	char *seg[MAX_SEGS];
	char *path = strdup(req->path);
	if (nv_sw_init(&sw, ctx->st, err, sizeof(err)) < 0) {
		problem(resp, 500, err);
		free(path);
		return;
	}
	int n = split_segs(path, seg);
	if (n < 0) {
		problem(resp, 404, "The requested URL was not found on the server.");
	} else if (n >= 1 && !strcmp(seg[0], "revision")) {
		rest_revision(ctx, &sw, req, seg, n, resp);
	} else if (!strcmp(req->method, "GET")) {
		rest_get(ctx, &sw, req, seg, n, resp);
	} else if (!strcmp(req->method, "PATCH") || !strcmp(req->method, "DELETE")) {
		rest_change(ctx, &sw, req, seg, n, !strcmp(req->method, "DELETE"), resp);
	} else {
		problem(resp, 405, "The method is not allowed for the requested URL.");
	}
	free(path);
}
