/* SPDX-License-Identifier: Apache-2.0 */
/* The NVUE dialect's entry points (struct sim_dialect). */
#include <stdlib.h>
#include <string.h>

#include "nvue.h"

static const char *const nv_models[] = {"SN5600", "SN5400", "SN4700", "SN4600",
					"SN3700", "SN2700", "VX",     NULL};

/* model is "SN5600" or "SN5600@5.15" (the Cumulus Linux release to imitate; 5.15 and later
 * spell "qos roce state enabled", earlier ones "qos roce enable on"). */
static int nv_factory_state(cJSON *st, const char *model, char *err, size_t errlen)
{
	char name[32], version[16] = "5.14.0";
	const char *at = strchr(model, '@');
	size_t n = at ? (size_t)(at - model) : strlen(model);
	if (n >= sizeof(name)) {
		snprintf(err, errlen, "unknown NVUE model '%s'", model);
		return -1;
	}
	memcpy(name, model, n);
	name[n] = '\0';
	const struct nv_model *m = nv_model_find(name);
	if (!m) {
		snprintf(err, errlen,
			 "unknown NVUE model '%s' (SN5600, SN5400, SN4700, SN4600, "
			 "SN3700, SN2700, VX)",
			 name);
		return -1;
	}
	if (at) {
		int maj, min;
		if (sscanf(at + 1, "%d.%d", &maj, &min) != 2 || maj != 5 || min < 0 || min > 99) {
			snprintf(err, errlen, "bad Cumulus Linux release '%s' (e.g. 5.14)", at + 1);
			return -1;
		}
		snprintf(version, sizeof(version), "%d.%d.0", maj, min);
	}
	jput(st, "model", cJSON_CreateString(m->name));
	jput(st, "version", cJSON_CreateString(version));

	cJSON *nv = cJSON_CreateObject();
	jput(nv, "next-rev", cJSON_CreateNumber(2));
	jput(nv, "applied-rev", cJSON_CreateNumber(1));
	jput(nv, "applied", cJSON_CreateObject());
	cJSON *rev = cJSON_CreateObject();
	jput(rev, "state", cJSON_CreateString("applied"));
	jput(rev, "user", cJSON_CreateString("root"));
	jput(rev, "via", cJSON_CreateString("factory"));
	jput(rev, "message", cJSON_CreateString("factory default"));
	jput(rev, "config", cJSON_CreateObject());
	jput(cJSON_AddObjectToObject(nv, "revisions"), "1", rev);
	cJSON_AddObjectToObject(nv, "cli-pending");
	cJSON_AddObjectToObject(nv, "startup");
	jput(st, "nvue", nv);

	struct nv_sw sw;
	if (nv_sw_init(&sw, st, err, errlen) < 0)
		return -1;
	jput(rev, "state", cJSON_CreateString(nv_applied_state(&sw)));
	nv_program(&sw);
	return 0;
}

static void nv_prompt(const struct sim_ctx *ctx, struct sbuf *out)
{
	sb_addf(out, "%s@%s:mgmt:~$ ", ctx->user, jstr(ctx->st, "hostname", "switch"));
}

/* Drift: change the switch behind the tool's back.
 *   config   PATH=VALUE  a new applied revision, as if an operator had run nv set + apply
 *   oper     PATH=VALUE  only the operational state (the ASIC disagrees with the config)
 *   counters PATH=VALUE  interface counters, e.g. swp1.pfc-stats.3.rx-pause-frames */
static int nv_drift(struct sim_ctx *ctx, const char *root, char **path, int n, cJSON *val,
		    char *err, size_t errlen)
{
	struct nv_sw sw;
	struct sbuf e;
	if (nv_sw_init(&sw, ctx->st, err, errlen) < 0)
		return -1;
	if (n == 0) {
		snprintf(err, errlen, "empty drift path");
		return -1;
	}
	ctx->dirty = true;
	if (strcmp(root, "oper") == 0 || strcmp(root, "counters") == 0) {
		cJSON *base =
		    jget1(ctx->st, strcmp(root, "oper") == 0 ? "operational" : "counters");
		if (!cJSON_IsObject(base)) {
			base = cJSON_CreateObject();
			jput(ctx->st, strcmp(root, "oper") == 0 ? "operational" : "counters", base);
		}
		if (val)
			jset(base, (const char *const *)path, n, val);
		else
			jdel(base, (const char *const *)path, n);
		return 0;
	}
	bool member;
	const struct nv_node *node = nv_node_at((const char *const *)path, n, &member);
	if (!node) {
		struct sbuf p;
		sb_init(&p);
		nv_path_str(&p, path, n, '.');
		snprintf(err, errlen, "'%s' is not a configuration path this switch knows",
			 sb_str(&p));
		sb_free(&p);
		cJSON_Delete(val);
		return -1;
	}
	if (node->flags & NVF_ROCE_EN) {
		path[n - 1] = (char *)nv_canon_key(&sw, node);
		node = nv_node_at((const char *const *)path, n, &member);
	}
	sb_init(&e);
	if (val && !member && nv_check_json(&sw, node, &val, &e, NULL) < 0) {
		snprintf(err, errlen, "bad drift value: %s", sb_str(&e));
		sb_free(&e);
		cJSON_Delete(val);
		return -1;
	}
	sb_free(&e);
	cJSON *cfg = cJSON_Duplicate(nv_applied(&sw), true);
	if (val)
		jset(cfg, (const char *const *)path, n, val);
	else
		jdel(cfg, (const char *const *)path, n);
	nv_prune_sets(cfg);
	nv_commit_direct(&sw, cfg, "drift", "changed behind the tool's back (simctl fault drift)");
	return 0;
}

/* A reload: the switch comes up with the saved startup configuration (NVUE reference,
 * "Config Commands": what was applied but not saved does not persist after a reboot). */
static int nv_reboot(struct sim_ctx *ctx, char *err, size_t errlen)
{
	struct nv_sw sw;
	/* a revision applied with --confirm and not confirmed does not survive a reboot */
	if (sim_timer_pending(ctx->st)) {
		jput(jget1(ctx->st, "timed-commit"), "deadline", cJSON_CreateNumber(0));
		sim_timer_expire(ctx->st, time(NULL));
	}
	if (nv_sw_init(&sw, ctx->st, err, errlen) < 0)
		return -1;
	cJSON *cfg = cJSON_Duplicate(nv_startup(&sw), true);
	cJSON_Delete(cJSON_DetachItemFromObjectCaseSensitive(sw.nv, "cli-pending"));
	cJSON_AddObjectToObject(sw.nv, "cli-pending");
	nv_commit_direct(&sw, cfg, "root", "reboot: the startup configuration was loaded");
	ctx->dirty = true;
	return 0;
}

const struct sim_dialect nvue_dialect = {
    .name = "nvue",
    .rest_base = "/nvue_v1",
    .default_model = "SN5600",
    .models = nv_models,
    .factory = nv_factory_state,
    .cli = nvue_cli,
    .prompt = nv_prompt,
    .rest = nv_rest,
    .drift = nv_drift,
    .reboot = nv_reboot,
    .auth_realm = "nvue",
    .default_password = "cumulus",
};
