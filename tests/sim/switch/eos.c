/* SPDX-License-Identifier: Apache-2.0 */
/* The EOS dialect's entry points (struct sim_dialect): models, factory state, drift. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "eos.h"

static const struct eos_model models[] = {
    {"7060DX5", "DCS-7060DX5-64S", 400000, false, "4.31.2F"},
    {"7050CX3", "DCS-7050CX3-32S", 100000, true, "4.30.4M"},
};

static const char *const model_names[] = {"7060DX5", "7050CX3", NULL};

const struct eos_model *eos_model_find(const char *name)
{
	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		if (strcasecmp(models[i].name, name) == 0)
			return &models[i];
	return NULL;
}

int eos_sw_init(struct eos_sw *sw, cJSON *st, char *err, size_t errlen)
{
	sw->st = st;
	sw->eos = jget1(st, "eos");
	sw->model = eos_model_find(jstr(st, "model", ""));
	if (!cJSON_IsObject(sw->eos) || !cJSON_IsObject(jget1(sw->eos, "running")) || !sw->model) {
		snprintf(err, errlen, "bad EOS state");
		return -1;
	}
	return 0;
}

static int eos_factory_state(cJSON *st, const char *model, char *err, size_t errlen)
{
	const struct eos_model *m = eos_model_find(model);
	if (!m) {
		snprintf(err, errlen, "unknown EOS model '%s' (7060DX5, 7050CX3)", model);
		return -1;
	}
	jput(st, "model", cJSON_CreateString(m->name));
	jput(st, "version", cJSON_CreateString(m->version));
	cJSON *eos = cJSON_CreateObject();
	jput(eos, "running", eos_factory_cfg(jstr(st, "hostname", "localhost")));
	/* a factory switch boots what it runs */
	jput(eos, "startup", eos_factory_cfg(jstr(st, "hostname", "localhost")));
	jput(eos, "sessions", cJSON_CreateObject());
	jput(eos, "next-session", cJSON_CreateNumber(1));
	jput(st, "eos", eos);
	return 0;
}

/* What a removal leaves behind (empty objects, false flags) is not configuration. */
static void prune_empty(cJSON *o)
{
	cJSON *e = o ? o->child : NULL, *next;
	for (; e; e = next) {
		next = e->next;
		if (cJSON_IsObject(e))
			prune_empty(e);
		if ((cJSON_IsObject(e) && !e->child) || cJSON_IsFalse(e))
			cJSON_Delete(cJSON_DetachItemViaPointer(o, e));
	}
}

/* Drift: config:PATH=VALUE changes the running configuration as if an operator had typed
 * it in "configure": PATH is dotted over the JSON form of running-config (eos_cfg.c), e.g.
 * interface.Ethernet1.pfc-priority.3=drop, qos-map-dscp.26=1,
 * interface.Ethernet1.qos-trust=cos.  The result must be a configuration EOS can express:
 * it is rendered, loaded back and compared. */
static int eos_drift(struct sim_ctx *ctx, const char *root, char **path, int n, cJSON *val,
		     char *err, size_t errlen)
{
	struct eos_sw sw;
	if (eos_sw_init(&sw, ctx->st, err, errlen) < 0) {
		cJSON_Delete(val);
		return -1;
	}
	if (!strcmp(root, "counters")) {
		cJSON *base = jget1(ctx->st, "counters");
		if (!cJSON_IsObject(base)) {
			base = cJSON_CreateObject();
			jput(ctx->st, "counters", base);
		}
		if (val)
			jset(base, (const char *const *)path, n, val);
		else
			jdel(base, (const char *const *)path, n);
		ctx->dirty = true;
		return 0;
	}
	if (strcmp(root, "config") != 0) {
		snprintf(err, errlen,
			 "an EOS switch's state is its running-config: drift config:PATH or "
			 "counters:EthernetN.pfc.rxFrames (no '%s:')",
			 root);
		cJSON_Delete(val);
		return -1;
	}
	cJSON *cfg = cJSON_Duplicate(jget1(sw.eos, "running"), true);
	if (val)
		jset(cfg, (const char *const *)path, n, val);
	else
		jdel(cfg, (const char *const *)path, n);
	prune_empty(cfg);
	struct sbuf a, b;
	sb_init(&a);
	sb_init(&b);
	eos_render(&sw, cfg, false, &a);
	cJSON *back = NULL;
	char why[SIM_ERR_MAX];
	int rc = eos_load(&sw, sb_str(&a), &back, why, sizeof(why));
	if (rc == 0)
		eos_render(&sw, back, false, &b);
	if (rc < 0) {
		snprintf(err, errlen, "drift: not a valid EOS configuration: %s", why);
	} else if (strcmp(sb_str(&a), sb_str(&b)) != 0 || !cJSON_Compare(cfg, back, true)) {
		snprintf(err, errlen,
			 "drift: '%s...' is not part of the configuration this switch renders "
			 "(see README, EOS drift paths)",
			 path[0]);
		rc = -1;
	}
	sb_free(&a);
	sb_free(&b);
	cJSON_Delete(cfg);
	if (rc < 0) {
		cJSON_Delete(back);
		return -1;
	}
	jput(sw.eos, "running", back);
	ctx->dirty = true;
	return 0;
}

/* A reload: the running configuration is replaced by the startup-config (what `copy
 * running-config startup-config` / `write memory` saved), and configuration sessions,
 * which live in memory, are gone.  A state that never saved boots the factory
 * configuration. */
static int eos_reboot(struct sim_ctx *ctx, char *err, size_t errlen)
{
	struct eos_sw sw;
	if (eos_sw_init(&sw, ctx->st, err, errlen) < 0)
		return -1;
	const cJSON *st = jget1(sw.eos, "startup");
	cJSON *run = cJSON_IsObject(st) ? cJSON_Duplicate(st, true)
					: eos_factory_cfg(jstr(ctx->st, "hostname", "localhost"));
	jput(sw.eos, "running", run);
	jput(sw.eos, "sessions", cJSON_CreateObject());
	/* a commit timer lives in memory too: the reload already went back to startup */
	sim_timer_clear(ctx->st);
	ctx->dirty = true;
	return 0;
}

const struct sim_dialect eos_dialect = {
    .name = "eos",
    .rest_base = "/command-api",
    .default_model = "7060DX5",
    .models = model_names,
    .factory = eos_factory_state,
    .cli = eos_cli_argv,
    .prompt = eos_prompt,
    .rest = eos_rest,
    .drift = eos_drift,
    .line = eos_line,
    .reboot = eos_reboot,
    .auth_realm = "eAPI",
};
