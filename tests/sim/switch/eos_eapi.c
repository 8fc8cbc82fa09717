/* SPDX-License-Identifier: Apache-2.0 */
/* eAPI: JSON-RPC 2.0 runCmds on POST /command-api (Arista eAPI, JSON-RPC 2.0).
 *
 * A command is a string or an object {"cmd", "revision"}: the revision of the command's JSON
 * model; without one eAPI answers revision 1 (Arista ANTA pins revisions per command, and
 * `show priority-flow-control counters` at 3).
 *
 * Every request is a fresh CLI session in privileged exec mode; commands run in order
 * until one fails.  Success: {"jsonrpc", "id", "result": [one element per command]}.
 * Failure: {"jsonrpc", "id", "error": {"code", "message": "CLI command N of M 'CMD'
 * failed: ...", "data": [the results before it, then {"errors": [...]}]}}.  Commands that
 * ran before the failing one stay done (configuration sessions are how clients get
 * atomicity). */
#include <stdlib.h>
#include <string.h>

#include "eos.h"

static void send(struct sim_resp *resp, cJSON *j)
{
	jprint(&resp->body, j);
	resp->status = 200;
	cJSON_Delete(j);
}

static cJSON *envelope(const cJSON *id)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "jsonrpc", "2.0");
	cJSON_AddItemToObject(j, "id", id ? cJSON_Duplicate(id, true) : cJSON_CreateNull());
	return j;
}

static void rpc_error(struct sim_resp *resp, const cJSON *id, int code, const char *msg)
{
	cJSON *j = envelope(id), *e = cJSON_CreateObject();
	cJSON_AddNumberToObject(e, "code", code);
	cJSON_AddStringToObject(e, "message", msg);
	cJSON_AddItemToObject(j, "error", e);
	send(resp, j);
}

static void problem(struct sim_resp *resp, int status, const char *title, const char *detail)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "detail", detail);
	cJSON_AddNumberToObject(j, "status", status);
	cJSON_AddStringToObject(j, "title", title);
	cJSON_AddStringToObject(j, "type", "about:blank");
	jprint(&resp->body, j);
	resp->status = status;
	cJSON_Delete(j);
}

void eos_rest(struct sim_ctx *ctx, const struct sim_req *req, struct sim_resp *resp)
{
	if (req->path[0] && strcmp(req->path, "/") != 0) {
		problem(resp, 404, "Not Found", "The requested URL was not found on the server.");
		return;
	}
	if (strcmp(req->method, "POST") != 0) {
		problem(resp, 405, "Method Not Allowed", "eAPI takes POST /command-api");
		return;
	}
	cJSON *in = cJSON_ParseWithLength(req->body ? req->body : "", req->body_len);
	if (!cJSON_IsObject(in)) {
		cJSON_Delete(in);
		rpc_error(resp, NULL, -32700, "Parse error");
		return;
	}
	const cJSON *id = jget1(in, "id");
	const char *ver = jstr(in, "jsonrpc", NULL);
	if (!ver || strcmp(ver, "2.0") != 0) {
		rpc_error(resp, NULL, -32600, "Expected field 'jsonrpc' not specified");
		cJSON_Delete(in);
		return;
	}
	const char *method = jstr(in, "method", NULL);
	if (!method || strcmp(method, "runCmds") != 0) {
		rpc_error(resp, id, -32601, "Method not found");
		cJSON_Delete(in);
		return;
	}
	const cJSON *params = jget1(in, "params"), *cmds = jget1(params, "cmds");
	const cJSON *version = jget1(params, "version");
	const char *format = jstr(params, "format", "json");
	bool ok = cJSON_IsArray(cmds) && cJSON_GetArraySize(cmds) > 0 &&
		  ((cJSON_IsNumber(version) && version->valuedouble == 1) ||
		   (cJSON_IsString(version) && !strcmp(version->valuestring, "latest"))) &&
		  (!strcmp(format, "json") || !strcmp(format, "text"));
	const cJSON *cmd;
	cJSON_ArrayForEach(cmd, cmds)
	{
		const cJSON *rev = jget1(cmd, "revision");
		/* a command object: {"cmd", "revision" 1..99} (Arista ANTA's AntaCommand) */
		ok =
		    ok && (cJSON_IsString(cmd) || jstr(cmd, "cmd", NULL)) &&
		    (!rev || (cJSON_IsNumber(rev) && rev->valuedouble >= 1 &&
			      rev->valuedouble <= 99 && rev->valuedouble == (int)rev->valuedouble));
	}
	if (!ok) {
		rpc_error(resp, id, -32602,
			  "Invalid params: expected {\"version\": 1|\"latest\", \"cmds\": [...], "
			  "\"format\": \"json\"|\"text\"}");
		cJSON_Delete(in);
		return;
	}

	struct eos_cli c = {.ctx = ctx, .eapi = true, .json = !strcmp(format, "json")};
	char e[SIM_ERR_MAX];
	if (eos_sw_init(&c.sw, ctx->st, e, sizeof(e)) < 0) {
		problem(resp, 500, "Internal Server Error", e);
		cJSON_Delete(in);
		return;
	}
	cJSON *results = cJSON_CreateArray();
	int n = cJSON_GetArraySize(cmds), i = 0;
	cJSON_ArrayForEach(cmd, cmds)
	{
		const char *text = cJSON_IsString(cmd) ? cmd->valuestring : jstr(cmd, "cmd", "");
		struct eos_res r;
		eos_res_init(&r);
		/* without a revision eAPI answers revision 1 of the command's model */
		c.revision = cJSON_IsObject(cmd) ? (int)jint(cmd, "revision", 1) : 1;
		int rc = eos_exec(&c, text, &r);
		i++;
		if (rc == 0 && c.json && r.show && !r.has_json) {
			eos_res_error(&r, 1003, "This is an unconverted command");
			rc = -1;
		}
		if (rc < 0) {
			cJSON *fail = cJSON_CreateObject();
			if (!c.json) {
				struct sbuf o;
				sb_init(&o);
				sb_addf(&o, "%% %s\n", r.msg);
				cJSON_AddStringToObject(fail, "output", sb_str(&o));
				sb_free(&o);
			}
			cJSON *errs = cJSON_AddArrayToObject(fail, "errors");
			cJSON_AddItemToArray(errs, cJSON_CreateString(r.msg));
			cJSON_AddItemToArray(results, fail);
			char msg[600];
			snprintf(msg, sizeof(msg), "CLI command %d of %d '%.300s' failed: %s", i, n,
				 text,
				 r.code == 1002	  ? "invalid command"
				 : r.code == 1003 ? "unconverted command"
						  : "could not run command");
			cJSON *j = envelope(id), *er = cJSON_CreateObject();
			cJSON_AddNumberToObject(er, "code", r.code ? r.code : 1000);
			cJSON_AddStringToObject(er, "message", msg);
			cJSON_AddItemToObject(er, "data", results);
			cJSON_AddItemToObject(j, "error", er);
			eos_res_free(&r);
			send(resp, j);
			cJSON_Delete(in);
			return;
		}
		cJSON *item;
		if (!c.json) {
			item = cJSON_CreateObject();
			cJSON_AddStringToObject(item, "output", sb_str(&r.text));
		} else if (r.json) {
			item = r.json;
			r.json = NULL;
		} else {
			item = cJSON_CreateObject();
		}
		cJSON_AddItemToArray(results, item);
		eos_res_free(&r);
	}
	cJSON *j = envelope(id);
	cJSON_AddItemToObject(j, "result", results);
	send(resp, j);
	cJSON_Delete(in);
}
