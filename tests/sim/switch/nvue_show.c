/* SPDX-License-Identifier: Apache-2.0 */
/* "nv show": tables with operational/applied columns (Cumulus Linux "NVUE CLI", Cumulus Linux QoS
 * guide and RoCE page) and JSON.
 *
 * Views: no revision option = operational and applied columns (JSON: operational);
 * --operational, --applied, --pending, --startup, --rev N = that one view.  The system-level
 * qos tree shows configured values; the per-interface one shows what the ASIC programmed
 * (quantized), as NVUE does (the Cumulus RoCE page's `nv show qos roce`). */
#include <stdlib.h>
#include <string.h>

#include "nvue.h"

static const char *const TOP[] = {"interface", "qos", "system", "platform"};

static void title(struct sbuf *sb, const char *t)
{
	sb_addf(sb, "\n%s\n", t);
	for (size_t i = 0; i < strlen(t) + 3; i++)
		sb_addc(sb, '=');
	sb_addc(sb, '\n');
}

static void out(struct nv_cli *c, struct sbuf *sb)
{
	fputs(sb_str(sb), c->out);
	sb_free(sb);
}

static bool single_view(const struct nv_cli *c)
{
	return c->rev != NULL;
}

static bool oper_view(const struct nv_cli *c)
{
	return !c->rev || strcmp(c->rev, "operational") == 0;
}

/* Filled config of the selected revision (the "applied" column by default). */
static cJSON *config_view(struct nv_cli *c)
{
	const char *name = c->rev && strcmp(c->rev, "operational") != 0 ? c->rev : "applied";
	struct sbuf e;
	sb_init(&e);
	cJSON *sparse = nv_view_by_name(&c->sw, name, c->ctx->user, &e);
	if (!sparse) {
		fprintf(c->err, "Error: %s\n", sb_str(&e));
		sb_free(&e);
		return NULL;
	}
	sb_free(&e);
	cJSON *f = nv_filled(&c->sw, sparse);
	cJSON_Delete(sparse);
	return f;
}

static const cJSON *oper(struct nv_cli *c)
{
	return jget1(c->ctx->st, "operational");
}

static void fmt_val(char *buf, size_t len, const struct nv_node *n, const cJSON *v)
{
	if (jis_long(v))
		snprintf(buf, len, "%ld%s", jlong(v, 0), n && (n->flags & NVF_BYTES) ? " B" : "");
	else if (cJSON_IsString(v))
		snprintf(buf, len, "%s", v->valuestring);
	else
		buf[0] = '\0';
}

/* ---- generic rows: one per leaf, nested objects indented, sets as "[key]" rows ---- */

struct cols {
	bool two;
	const char *name; /* the single column's name */
};

static void row(struct table *t, const struct cols *cl, const char *key, const char *o,
		const char *a, const char *desc)
{
	if (cl->two)
		table_row(t, key, o, a, desc);
	else
		table_row(t, key, cl->name && !strcmp(cl->name, "operational") ? o : a, desc);
}

static void obj_rows(struct nv_cli *c, struct table *t, const struct cols *cl,
		     const struct nv_node *node, const cJSON *o, const cJSON *a, int depth)
{
	char key[128], ov[64], av[64];
	for (const struct nv_node *k = node->sub; k->key; k++) {
		if ((k->flags & NVF_ROCE_EN) && strcmp(k->key, nv_canon_key(&c->sw, k)) != 0)
			continue;
		const cJSON *ok = jget1(o, k->key), *ak = jget1(a, k->key);
		if (!ok && !ak)
			continue;
		if (k->kind >= NV_INT) {
			snprintf(key, sizeof(key), "%*s%s", depth * 2, "", k->key);
			fmt_val(ov, sizeof(ov), k, ok);
			fmt_val(av, sizeof(av), k, ak);
			row(t, cl, key, ov, av, k->desc);
		} else if (k->kind == NV_OBJ) {
			snprintf(key, sizeof(key), "%*s%s", depth * 2, "", k->key);
			row(t, cl, key, "", "", "");
			obj_rows(c, t, cl, k, ok, ak, depth + 1);
		} else {
			/* sets and collections: one "[key]" row per member */
			cJSON *u = cJSON_CreateObject();
			const cJSON *m;
			cJSON_ArrayForEach(m, ok) jput(u, m->string, cJSON_CreateObject());
			cJSON_ArrayForEach(m, ak) jput(u, m->string, cJSON_CreateObject());
			const char **keys;
			int n = jkeys_sorted(u, &keys);
			snprintf(key, sizeof(key), "%*s[%s]", depth * 2, "", k->key);
			for (int i = 0; i < n; i++)
				row(t, cl, key, jget1(ok, keys[i]) ? keys[i] : "",
				    jget1(ak, keys[i]) ? keys[i] : "", k->desc);
			free(keys);
			cJSON_Delete(u);
		}
	}
}

static void table_start(struct table *t, const struct cols *cl)
{
	if (cl->two)
		table_init(t, 4, "", "operational", "applied", "description");
	else
		table_init(t, 3, "", cl->name, "description");
}

static struct cols cols_of(const struct nv_cli *c)
{
	struct cols cl = {.two = !single_view(c), .name = c->rev};
	if (cl.name && !strcmp(cl.name, "startup"))
		cl.name = "startup";
	return cl;
}

/* Rows for an operational-only object (per-interface state, counters). */
static void json_rows(struct table *t, const cJSON *o, int depth)
{
	const char **keys;
	int n = jkeys_sorted(o, &keys);
	char key[128], val[64];
	for (int i = 0; i < n; i++) {
		const cJSON *v = jget1(o, keys[i]);
		bool set =
		    cJSON_IsObject(v) && v->child && cJSON_IsObject(v->child) && !v->child->child;
		if (set) {
			const cJSON *m;
			snprintf(key, sizeof(key), "%*s[%s]", depth * 2, "", keys[i]);
			cJSON_ArrayForEach(m, v) table_row(t, key, m->string);
		} else if (cJSON_IsObject(v)) {
			snprintf(key, sizeof(key), "%*s%s", depth * 2, "", keys[i]);
			table_row(t, key, "");
			json_rows(t, v, depth + 1);
		} else {
			snprintf(key, sizeof(key), "%*s%s", depth * 2, "", keys[i]);
			fmt_val(val, sizeof(val), NULL, v);
			table_row(t, key, val);
		}
	}
	free(keys);
}

static int show_json_rows(struct nv_cli *c, const cJSON *o)
{
	if (c->fmt == FMT_JSON || c->fmt == FMT_YAML) {
		nv_print_json(c, o);
		return 0;
	}
	struct table t;
	struct sbuf sb;
	sb_init(&sb);
	table_init(&t, 2, "", "operational");
	json_rows(&t, o, 0);
	table_print(&sb, &t, 0);
	table_free(&t);
	out(c, &sb);
	return 0;
}

/* ---- qos roce ---- */

static void csv_keys(char *buf, size_t len, const cJSON *obj)
{
	const char **keys;
	int n = jkeys_sorted(obj, &keys);
	size_t off = 0;
	buf[0] = '\0';
	for (int i = 0; i < n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? "," : "", keys[i]);
	free(keys);
}

static const char *trust_mode(const char *trust)
{
	if (!strcmp(trust, "l2"))
		return "pcp";
	if (!strcmp(trust, "l3"))
		return "dscp";
	if (!strcmp(trust, "both"))
		return "pcp,dscp";
	return trust;
}

static long sp_to_tc(const cJSON *qos, int sp)
{
	char k[16];
	snprintf(k, sizeof(k), "%d", sp);
	const char *p[] = {"egress-queue-mapping", "default-global", "switch-priority", k};
	return jint(jget(qos, p, 4), "traffic-class", sp);
}

/* The operational RoCE object: what "nv show qos roce" derives from the running QoS. */
cJSON *nv_roce_oper(const cJSON *qos, bool on)
{
	cJSON *o = cJSON_Duplicate(jget1(qos, "roce"), true);
	if (!o)
		o = cJSON_CreateObject();
	if (!on)
		return o;
	char buf[256];
	const char *pcc[] = {"congestion-control", "default-global", "traffic-class"};
	const cJSON *tcs = jget(qos, pcc, 3), *tc;
	cJSON *en = cJSON_CreateObject();
	cJSON_ArrayForEach(tc, tcs) if (!strcmp(jstr(tc, "ecn", ""), "enable"))
	    jput(en, tc->string, cJSON_CreateObject());
	char k[24];
	snprintf(k, sizeof(k), "%ld", sp_to_tc(qos, 3));
	const cJSON *rtc = jget1(tcs, k);
	cJSON *cc = cJSON_AddObjectToObject(o, "congestion-control");
	csv_keys(buf, sizeof(buf), en);
	cJSON_Delete(en);
	jput(cc, "congestion-mode", cJSON_CreateString("ECN"));
	jput(cc, "enabled-tc", cJSON_CreateString(buf));
	jput(cc, "min-threshold", cJSON_CreateNumber((double)jint(rtc, "min-threshold", 0)));
	jput(cc, "max-threshold", cJSON_CreateNumber((double)jint(rtc, "max-threshold", 0)));
	jput(cc, "probability", cJSON_CreateNumber((double)jint(rtc, "probability", 0)));

	const char *ppfc[] = {"pfc", "default-global"};
	const cJSON *pfc = jget(qos, ppfc, 2);
	long prio = 3;
	if (pfc) {
		cJSON *po = cJSON_AddObjectToObject(o, "pfc");
		csv_keys(buf, sizeof(buf), jget1(pfc, "switch-priority"));
		if (jget1(pfc, "switch-priority") && jget1(pfc, "switch-priority")->child)
			prio = strtol(jget1(pfc, "switch-priority")->child->string, NULL, 10);
		jput(po, "pfc-priority", cJSON_CreateString(buf));
		jput(po, "rx-enabled",
		     cJSON_CreateString(strcmp(jstr(pfc, "rx", ""), "enable") ? "disabled"
									      : "enabled"));
		jput(po, "tx-enabled",
		     cJSON_CreateString(strcmp(jstr(pfc, "tx", ""), "enable") ? "disabled"
									      : "enabled"));
		/* RoCE mode's headroom comes from its own cable length (Cumulus Linux RoCE page,
		 * `qos roce cable-length`) */
		jput(po, "cable-length",
		     cJSON_CreateNumber((double)jint(jget1(qos, "roce"), "cable-length", 100)));
	}
	const char *pmap[] = {"mapping", "default-global"};
	const cJSON *map = jget(qos, pmap, 2);
	jput(cJSON_AddObjectToObject(o, "trust"), "trust-mode",
	     cJSON_CreateString(trust_mode(jstr(map, "trust", "l2"))));
	cJSON *lldp = cJSON_AddObjectToObject(o, "lldp-app-tlv");
	jput(lldp, "priority", cJSON_CreateNumber((double)prio));
	jput(lldp, "protocol-id", cJSON_CreateNumber(4791));
	jput(lldp, "selector", cJSON_CreateString("UDP"));

	/* PCP/DSCP -> SP, SP -> TC + ETS */
	cJSON *pm = cJSON_AddObjectToObject(o, "prio-map");
	cJSON *tm = cJSON_AddObjectToObject(o, "tc-map");
	const char *psched[] = {"egress-scheduler", "default-global", "traffic-class"};
	for (int sp = 0; sp < 8; sp++) {
		cJSON *d = cJSON_CreateObject(), *p = cJSON_CreateObject();
		const cJSON *e;
		cJSON_ArrayForEach(e, jget1(map, "dscp")) if (jint(e, "switch-priority", -1) == sp)
		    jput(d, e->string, cJSON_CreateObject());
		cJSON_ArrayForEach(e, jget1(map, "pcp")) if (jint(e, "switch-priority", -1) == sp)
		    jput(p, e->string, cJSON_CreateObject());
		char key[16], pcps[64], dscps[256];
		snprintf(key, sizeof(key), "%d", sp);
		csv_keys(pcps, sizeof(pcps), p);
		csv_keys(dscps, sizeof(dscps), d);
		cJSON_Delete(d);
		cJSON_Delete(p);
		cJSON *pe = cJSON_AddObjectToObject(pm, key);
		jput(pe, "pcp", cJSON_CreateString(pcps));
		jput(pe, "dscp", cJSON_CreateString(dscps));
		jput(pe, "switch-prio", cJSON_CreateNumber(sp));

		long tcn = sp_to_tc(qos, sp);
		char tck[24], weight[32];
		snprintf(tck, sizeof(tck), "%ld", tcn);
		const cJSON *s = jget1(jget(qos, psched, 3), tck);
		if (!strcmp(jstr(s, "mode", "dwrr"), "strict"))
			snprintf(weight, sizeof(weight), "strict-priority");
		else
			snprintf(weight, sizeof(weight), "DWRR-%ld%%", jint(s, "bw-percent", 0));
		cJSON *te = cJSON_AddObjectToObject(tm, key);
		jput(te, "switch-prio", cJSON_CreateNumber(sp));
		jput(te, "traffic-class", cJSON_CreateNumber((double)tcn));
		jput(te, "scheduler-weight", cJSON_CreateString(weight));
	}

	/* pools: ingress by switch priority, egress by traffic class */
	cJSON *pools = cJSON_AddObjectToObject(o, "pool-map");
	const cJSON *tp;
	int idx = 0;
	for (int dir = 0; dir < 2; dir++) {
		cJSON_ArrayForEach(tp, jget1(qos, "traffic-pool"))
		{
			char key[16], name[64], size[32], sps[64], tcsb[64];
			bool roce = strncmp(tp->string, "roce", 4) == 0;
			snprintf(key, sizeof(key), "%d", idx++);
			snprintf(name, sizeof(name), "%s-%s",
				 roce ? "roce-reserved" : "lossy-default",
				 dir ? "egress" : "ingress");
			if (dir && roce && !strcmp(tp->string, "roce-lossless"))
				snprintf(size, sizeof(size), "inf");
			else
				snprintf(size, sizeof(size), "%ld%%",
					 jint(tp, "memory-percent", 0));
			csv_keys(sps, sizeof(sps), jget1(tp, "switch-priority"));
			cJSON *tcset = cJSON_CreateObject();
			const cJSON *m;
			cJSON_ArrayForEach(m, jget1(tp, "switch-priority"))
			{
				char t[24];
				snprintf(t, sizeof(t), "%ld", sp_to_tc(qos, atoi(m->string)));
				jput(tcset, t, cJSON_CreateObject());
			}
			csv_keys(tcsb, sizeof(tcsb), tcset);
			cJSON_Delete(tcset);
			cJSON *pe = cJSON_AddObjectToObject(pools, key);
			jput(pe, "name", cJSON_CreateString(name));
			jput(pe, "mode", cJSON_CreateString("Dynamic"));
			jput(pe, "size", cJSON_CreateString(size));
			jput(pe, "switch-priorities", cJSON_CreateString(dir ? "-" : sps));
			jput(pe, "traffic-class", cJSON_CreateString(dir ? tcsb : "-"));
		}
	}
	return o;
}

static void size_cell(char *buf, size_t len, const cJSON *v)
{
	if (cJSON_IsNumber(v))
		fmt_bin_size(buf, len, v->valuedouble);
	else
		buf[0] = '\0';
}

static int show_roce(struct nv_cli *c)
{
	cJSON *cfg = NULL;
	const cJSON *oqos = jget1(oper(c), "qos");
	bool on = nv_oper_roce_on(c->ctx->st);
	if (!oper_view(c) || !single_view(c)) {
		cfg = config_view(c);
		if (!cfg)
			return 1;
	}
	if (c->fmt == FMT_JSON || c->fmt == FMT_YAML) {
		cJSON *j = oper_view(c) ? nv_roce_oper(oqos, on)
					: cJSON_Duplicate(jget1(jget1(cfg, "qos"), "roce"), true);
		nv_print_json(c, j);
		cJSON_Delete(j);
		cJSON_Delete(cfg);
		return 0;
	}
	struct cols cl = cols_of(c);
	cJSON *ro = nv_roce_oper(oqos, on);
	const cJSON *ar = jget1(jget1(cfg, "qos"), "roce");
	const char *enk = c->sw.version >= 515 ? "state" : "enable";
	struct table t;
	struct sbuf sb;
	char v[64];
	sb_init(&sb);
	if (cl.two)
		table_init(&t, 3, "", "operational", "applied");
	else
		table_init(&t, 2, "", cl.name);
	/* only enable/state and mode carry an applied value (RoCE page, `nv show qos roce`) */
	if (cl.two) {
		table_row(&t, enk, "", jstr(ar, enk, ""));
		table_row(&t, "mode", on ? jstr(ro, "mode", "") : "", jstr(ar, "mode", ""));
	} else if (oper_view(c)) {
		table_row(&t, enk, jstr(ro, enk, ""));
		table_row(&t, "mode", jstr(ro, "mode", ""));
	} else {
		table_row(&t, enk, jstr(ar, enk, ""));
		table_row(&t, "mode", jstr(ar, "mode", ""));
		snprintf(v, sizeof(v), "%ld", jint(ar, "cable-length", 100));
		table_row(&t, "cable-length", v);
	}
	bool show_oper = oper_view(c) && on;
	if (show_oper) {
		const cJSON *pfc = jget1(ro, "pfc"), *cc = jget1(ro, "congestion-control");
		if (pfc) {
			table_row(&t, "pfc", "", "");
			table_row(&t, "  pfc-priority", jstr(pfc, "pfc-priority", ""), "");
			table_row(&t, "  rx-enabled", jstr(pfc, "rx-enabled", ""), "");
			table_row(&t, "  tx-enabled", jstr(pfc, "tx-enabled", ""), "");
			snprintf(v, sizeof(v), "%ld", jint(pfc, "cable-length", 0));
			table_row(&t, "  cable-length", v, "");
		}
		table_row(&t, "congestion-control", "", "");
		table_row(&t, "  congestion-mode", jstr(cc, "congestion-mode", ""), "");
		table_row(&t, "  enabled-tc", jstr(cc, "enabled-tc", ""), "");
		size_cell(v, sizeof(v), jget1(cc, "max-threshold"));
		table_row(&t, "  max-threshold", v, "");
		size_cell(v, sizeof(v), jget1(cc, "min-threshold"));
		table_row(&t, "  min-threshold", v, "");
		snprintf(v, sizeof(v), "%ld", jint(cc, "probability", 0));
		table_row(&t, "  probability", v, "");
		const cJSON *l = jget1(ro, "lldp-app-tlv");
		table_row(&t, "lldp-app-tlv", "", "");
		snprintf(v, sizeof(v), "%ld", jint(l, "priority", 3));
		table_row(&t, "  priority", v, "");
		table_row(&t, "  protocol-id", "4791", "");
		table_row(&t, "  selector", "UDP", "");
		table_row(&t, "trust", "", "");
		table_row(&t, "  trust-mode", jstr(jget1(ro, "trust"), "trust-mode", ""), "");
	}
	table_print(&sb, &t, 0);
	table_free(&t);
	if (show_oper) {
		const cJSON *e;
		title(&sb, "RoCE PCP/DSCP->SP mapping configurations");
		table_init(&t, 4, "", "pcp", "dscp", "switch-prio");
		cJSON_ArrayForEach(e, jget1(ro, "prio-map"))
		{
			snprintf(v, sizeof(v), "%ld", jint(e, "switch-prio", 0));
			table_row(&t, e->string, jstr(e, "pcp", ""), jstr(e, "dscp", ""), v);
		}
		table_print(&sb, &t, 4);
		table_free(&t);
		title(&sb, "RoCE SP->TC mapping and ETS configurations");
		table_init(&t, 4, "", "switch-prio", "traffic-class", "scheduler-weight");
		cJSON_ArrayForEach(e, jget1(ro, "tc-map"))
		{
			char tc[24];
			snprintf(v, sizeof(v), "%ld", jint(e, "switch-prio", 0));
			snprintf(tc, sizeof(tc), "%ld", jint(e, "traffic-class", 0));
			table_row(&t, e->string, v, tc, jstr(e, "scheduler-weight", ""));
		}
		table_print(&sb, &t, 4);
		table_free(&t);
		title(&sb, "RoCE pool config");
		table_init(&t, 6, "", "name", "mode", "size", "switch-priorities", "traffic-class");
		cJSON_ArrayForEach(e, jget1(ro, "pool-map"))
		{
			table_row(&t, e->string, jstr(e, "name", ""), jstr(e, "mode", ""),
				  jstr(e, "size", ""), jstr(e, "switch-priorities", ""),
				  jstr(e, "traffic-class", ""));
		}
		table_print(&sb, &t, 4);
		table_free(&t);
		title(&sb, "Exception List");
		sb_adds(&sb, "No Data\n");
	}
	cJSON_Delete(ro);
	cJSON_Delete(cfg);
	out(c, &sb);
	return 0;
}

/* ---- special tables for profiles ---- */

static void ecn_table(struct sbuf *sb, const cJSON *tcs, bool hw)
{
	struct table t;
	const cJSON *tc;
	table_init(&t, 6, "traffic-class", "ECN", "RED", "Min Th", "Max Th", "Probability");
	cJSON_ArrayForEach(tc, tcs)
	{
		char mn[32], mx[32], pr[16];
		if (hw) {
			fmt_bin_size(mn, sizeof(mn), (double)jint(tc, "min-threshold", 0));
			fmt_bin_size(mx, sizeof(mx), (double)jint(tc, "max-threshold", 0));
		} else {
			snprintf(mn, sizeof(mn), "%ld B", jint(tc, "min-threshold", 0));
			snprintf(mx, sizeof(mx), "%ld B", jint(tc, "max-threshold", 0));
		}
		snprintf(pr, sizeof(pr), "%ld", jint(tc, "probability", 0));
		table_row(&t, tc->string, jstr(tc, "ecn", ""), jstr(tc, "red", ""), mn, mx, pr);
	}
	table_print(sb, &t, 4);
	table_free(&t);
}

static void map_table(struct sbuf *sb, const char *ttl, const cJSON *coll, const char *idcol,
		      const char *valcol, const char *valkey)
{
	struct table t;
	const cJSON *e;
	title(sb, ttl);
	table_init(&t, 2, idcol, valcol);
	cJSON_ArrayForEach(e, coll)
	{
		char v[16];
		snprintf(v, sizeof(v), "%ld", jint(e, valkey, 0));
		table_row(&t, e->string, v);
	}
	table_print(sb, &t, 4);
	table_free(&t);
}

/* Profiles whose NVUE show has tables rather than rows; true if handled. */
static bool profile_tables(struct nv_cli *c, const struct nv_target *tg, const cJSON *src,
			   const cJSON *cfg)
{
	if (tg->n != 3 || strcmp(tg->path[0], "qos") != 0)
		return false;
	const char *kind = tg->path[1];
	const cJSON *p = jget(src, (const char *const *)tg->path, 3);
	struct sbuf sb;
	sb_init(&sb);
	struct cols cl = cols_of(c);
	if (!strcmp(kind, "congestion-control")) {
		struct table t;
		table_start(&t, &cl);
		table_print(&sb, &t, 0);
		table_free(&t);
		title(&sb, "ECN Configurations");
		ecn_table(&sb, jget1(p, "traffic-class"), false);
	} else if (!strcmp(kind, "egress-queue-mapping")) {
		map_table(&sb, "SP->TC mapping configuration", jget1(p, "switch-priority"),
			  "switch-priority", "traffic-class", "traffic-class");
	} else if (!strcmp(kind, "mapping")) {
		struct table t;
		table_start(&t, &cl);
		const struct nv_node *mn = nv_kid(nv_kid(&nv_root, "qos"), "mapping")->sub;
		for (const struct nv_node *k = mn->sub; k->key; k++) {
			if (k->kind < NV_INT)
				continue;
			char ov[64], av[64];
			fmt_val(ov, sizeof(ov), k, jget1(p, k->key));
			fmt_val(av, sizeof(av), k,
				jget1(jget(cfg, (const char *const *)tg->path, 3), k->key));
			row(&t, &cl, k->key, ov, av, k->desc);
		}
		table_print(&sb, &t, 0);
		table_free(&t);
		map_table(&sb, "DSCP->SP mapping configuration", jget1(p, "dscp"), "dscp",
			  "switch-priority", "switch-priority");
		map_table(&sb, "PCP->SP mapping configuration", jget1(p, "pcp"), "pcp",
			  "switch-priority", "switch-priority");
	} else if (!strcmp(kind, "egress-scheduler")) {
		struct table t;
		const cJSON *e;
		title(&sb, "Egress scheduler configuration");
		table_init(&t, 3, "traffic-class", "mode", "bw-percent");
		cJSON_ArrayForEach(e, jget1(p, "traffic-class"))
		{
			char bw[16] = "";
			if (jget1(e, "bw-percent"))
				snprintf(bw, sizeof(bw), "%ld", jint(e, "bw-percent", 0));
			table_row(&t, e->string, jstr(e, "mode", ""), bw);
		}
		table_print(&sb, &t, 4);
		table_free(&t);
	} else {
		sb_free(&sb);
		return false;
	}
	out(c, &sb);
	return true;
}

/* ---- generic config paths (qos ..., applied-view interface ...) ---- */

static int show_config_path(struct nv_cli *c, int nw, char **w, const char *shown)
{
	struct nv_targets tg;
	struct sbuf msg;
	sb_init(&msg);
	int rc = nv_parse_words(nw, w, &tg, &msg);
	if (rc < 0 || tg.n != 1 || tg.end != nw) {
		fprintf(c->err, "Error: Invalid Command: show %s\n", shown);
		if (rc == -1)
			fprintf(c->err, "  %s\n", sb_str(&msg));
		if (rc >= 0)
			nv_targets_free(&tg);
		sb_free(&msg);
		return 1;
	}
	sb_free(&msg);
	struct nv_target *t = &tg.v[0];
	if (t->node->flags & NVF_ROCE_EN) {
		free(t->path[t->n - 1]);
		t->path[t->n - 1] = strdup(nv_canon_key(&c->sw, t->node));
	}
	cJSON *cfg = NULL;
	if (!single_view(c) || !oper_view(c)) {
		cfg = config_view(c);
		if (!cfg) {
			nv_targets_free(&tg);
			return 1;
		}
	}
	const cJSON *src = oper_view(c) ? oper(c) : cfg;
	const cJSON *o = jget(src, (const char *const *)t->path, t->n);
	const cJSON *a = jget(cfg, (const char *const *)t->path, t->n);
	rc = 0;
	if (!o && !a) {
		rc = nv_not_found(c);
	} else if (c->fmt == FMT_JSON || c->fmt == FMT_YAML) {
		if (o)
			nv_print_json(c, o);
		else
			rc = nv_not_found(c);
	} else if (!profile_tables(c, t, src, cfg)) {
		struct cols cl = cols_of(c);
		struct table tb;
		struct sbuf sb;
		sb_init(&sb);
		table_start(&tb, &cl);
		if (t->node->kind == NV_OBJ && !t->member) {
			obj_rows(c, &tb, &cl, t->node, o, a, 0);
		} else if (t->node->kind >= NV_INT) {
			char ov[64], av[64];
			fmt_val(ov, sizeof(ov), t->node, o);
			fmt_val(av, sizeof(av), t->node, a);
			row(&tb, &cl, t->node->key, ov, av, t->node->desc);
		} else {
			/* a collection: list its members */
			const struct nv_node wrap_kids[] = {*t->node, {0}};
			const struct nv_node wrap = {.kind = NV_OBJ, .sub = wrap_kids};
			cJSON *ow = cJSON_CreateObject(), *aw = cJSON_CreateObject();
			if (o)
				jput(ow, t->node->key, cJSON_Duplicate(o, true));
			if (a)
				jput(aw, t->node->key, cJSON_Duplicate(a, true));
			obj_rows(c, &tb, &cl, &wrap, ow, aw, 0);
			cJSON_Delete(ow);
			cJSON_Delete(aw);
		}
		table_print(&sb, &tb, 0);
		table_free(&tb);
		out(c, &sb);
	}
	cJSON_Delete(cfg);
	nv_targets_free(&tg);
	return rc;
}

/* ---- interfaces ---- */

static cJSON *roce_counters(const cJSON *cnt, long prio, long tc)
{
	char sp[24], t[24], cnp[8] = "6";
	snprintf(sp, sizeof(sp), "%ld", prio);
	snprintf(t, sizeof(t), "%ld", tc);
	const cJSON *pfc = jget1(jget1(cnt, "pfc-stats"), sp);
	const cJSON *eq = jget1(cnt, "egress-queue-stats");
	const char *ptx[] = {"port-stats", "tx-stats"};
	cJSON *o = cJSON_CreateObject();
	cJSON *rx = cJSON_AddObjectToObject(o, "rx-stats");
	cJSON *tx = cJSON_AddObjectToObject(o, "tx-stats");
	jput(cJSON_AddObjectToObject(rx, "rx-pfc-stats"), "pause-packets",
	     cJSON_CreateNumber((double)jint(pfc, "rx-pause-frames", 0)));
	jput(cJSON_AddObjectToObject(tx, "tx-pfc-stats"), "pause-packets",
	     cJSON_CreateNumber((double)jint(pfc, "tx-pause-frames", 0)));
	jput(cJSON_AddObjectToObject(tx, "tx-ecn-stats"), "ecn-marked-packets",
	     cJSON_CreateNumber((double)jint(jget(cnt, ptx, 2), "ecn-marked-packets", 0)));
	jput(cJSON_AddObjectToObject(tx, "tx-cnp-stats"), "cnp-packets",
	     cJSON_CreateNumber((double)jint(jget1(eq, cnp), "tx-frames", 0)));
	cJSON *r = cJSON_AddObjectToObject(tx, "tx-roce-stats");
	jput(r, "roce-packets", cJSON_CreateNumber((double)jint(jget1(eq, t), "tx-frames", 0)));
	jput(r, "roce-bytes", cJSON_CreateNumber((double)jint(jget1(eq, t), "tx-bytes", 0)));
	jput(r, "buffer-discards",
	     cJSON_CreateNumber((double)jint(jget1(eq, t), "tx-uc-buffer-discards", 0)));
	return o;
}

static int show_if_roce(struct nv_cli *c, const char *ifname, const cJSON *port, int nw, char **w)
{
	const cJSON *oqos = jget1(oper(c), "qos");
	const cJSON *pfc = jget1(jget1(port, "qos"), "pfc");
	long prio = 3;
	if (jget1(pfc, "switch-priority") && jget1(pfc, "switch-priority")->child)
		prio = strtol(jget1(pfc, "switch-priority")->child->string, NULL, 10);
	if (nw == 1 && !strcmp(w[0], "counters")) {
		cJSON *cnt = nv_counters_of(c->ctx, ifname);
		cJSON *r = roce_counters(cnt, prio, sp_to_tc(oqos, (int)prio));
		int rc = show_json_rows(c, r);
		cJSON_Delete(r);
		cJSON_Delete(cnt);
		return rc;
	}
	if (nw != 1 || strcmp(w[0], "status") != 0)
		return nv_not_found(c);
	cJSON *s = cJSON_CreateObject();
	char buf[64];
	bool on = nv_oper_roce_on(c->ctx->st);
	jput(s, "mode",
	     cJSON_CreateString(on ? jstr(jget1(oqos, "roce"), "mode", "") : "disabled"));
	jput(s, "congestion-mode", cJSON_CreateString("ecn, absolute"));
	csv_keys(buf, sizeof(buf), jget1(pfc, "switch-priority"));
	jput(s, "pfc-priority", cJSON_CreateString(buf));
	jput(s, "rx-enabled",
	     cJSON_CreateString(!strcmp(jstr(pfc, "rx", ""), "enable") && *buf ? "yes" : "no"));
	jput(s, "tx-enabled",
	     cJSON_CreateString(!strcmp(jstr(pfc, "tx", ""), "enable") && *buf ? "yes" : "no"));
	const char *pmap[] = {"mapping", "default-global", "dscp"};
	const cJSON *dmap = jget(oqos, pmap, 3);
	static const struct {
		const char *name;
		int dscp;
	} cls[] = {{"cnp", 48}, {"roce", 26}};
	for (int i = 0; i < 2; i++) {
		char k[16];
		snprintf(k, sizeof(k), "%d", cls[i].dscp);
		long sp = jint(jget1(dmap, k), "switch-priority", cls[i].dscp / 8);
		cJSON *e = cJSON_AddObjectToObject(s, cls[i].name);
		jput(e, "dscp", cJSON_CreateNumber(cls[i].dscp));
		jput(e, "pcp", cJSON_CreateNumber((double)sp));
		jput(e, "switch-prio", cJSON_CreateNumber((double)sp));
	}
	int rc = show_json_rows(c, s);
	cJSON_Delete(s);
	return rc;
}

/* nv show interface lldp: the neighbour table (NVUE command reference, "LLDP"), from
 * st["lldp"] (what the lab cabled, switchsim-ctl's `fault NAME lldp`). */
static int show_lldp(struct nv_cli *c, const cJSON *ifs)
{
	const cJSON *lldp = jget1(c->ctx->st, "lldp");
	const char **keys;
	int n = jkeys_sorted(lldp, &keys);
	struct table t;
	struct sbuf sb;

	sb_init(&sb);
	table_init(&t, 5, "Interface", "Speed", "Type", "Remote Host", "Remote Port");
	for (int i = 0; i < n; i++) {
		const cJSON *e = jget1(lldp, keys[i]);
		table_row(&t, keys[i], jstr(jget1(jget1(ifs, keys[i]), "link"), "speed", ""), "swp",
			  jstr(e, "host", ""), jstr(e, "port", ""));
	}
	free(keys);
	table_print(&sb, &t, 0);
	table_free(&t);
	out(c, &sb);
	return 0;
}

static int show_interface(struct nv_cli *c, int nw, char **w)
{
	const cJSON *ifs = jget1(oper(c), "interface");
	if (nw == 1 && !strcmp(w[0], "lldp"))
		return show_lldp(c, ifs);
	if (nw == 0) {
		cJSON *list = cJSON_CreateObject();
		const cJSON *p;
		cJSON_ArrayForEach(p, ifs)
		{
			cJSON *e = cJSON_CreateObject();
			jput(e, "link", cJSON_Duplicate(jget1(p, "link"), true));
			jput(e, "type", cJSON_CreateString("swp"));
			cJSON_AddItemToObject(list, p->string, e);
		}
		if (c->fmt == FMT_JSON || c->fmt == FMT_YAML) {
			nv_print_json(c, list);
		} else {
			struct table t;
			struct sbuf sb;
			sb_init(&sb);
			table_init(&t, 5, "Interface", "MTU", "Speed", "State", "Type");
			const char **keys;
			int n = jkeys_sorted(list, &keys);
			for (int i = 0; i < n; i++) {
				const cJSON *l = jget1(jget1(list, keys[i]), "link");
				char mtu[16];
				snprintf(mtu, sizeof(mtu), "%ld", jint(l, "mtu", 0));
				table_row(&t, keys[i], mtu, jstr(l, "speed", ""),
					  jstr(l, "state", ""), "swp");
			}
			free(keys);
			table_print(&sb, &t, 0);
			table_free(&t);
			out(c, &sb);
		}
		cJSON_Delete(list);
		return 0;
	}
	const char *ifname = w[0];
	const cJSON *port = jget1(ifs, ifname);
	if (!port || !nv_port_valid(ifname))
		return nv_not_found(c);
	if (nw >= 2) {
		static const char *const subs[] = {"qos", "counters", "link"};
		int s = match_word(w[1], subs, 3);
		if (s == 1)
			return nv_show_counters(c, ifname, nw - 2, w + 2);
		if (s == 2)
			return nw == 2 ? show_json_rows(c, jget1(port, "link")) : nv_not_found(c);
		if (s != 0)
			return nv_not_found(c);
		if (nw >= 3 && !strcmp(w[2], "roce"))
			return show_if_roce(c, ifname, port, nw - 3, w + 3);
		if (!oper_view(c)) {
			/* configured bindings of this port */
			char *words[NV_MAX_DEPTH];
			int k = 0;
			words[k++] = "interface";
			for (int i = 0; i < nw && k < NV_MAX_DEPTH; i++)
				words[k++] = w[i];
			struct sbuf shown;
			sb_init(&shown);
			for (int i = 0; i < k; i++)
				sb_addf(&shown, "%s%s", i ? " " : "", words[i]);
			int rc = show_config_path(c, k, words, sb_str(&shown));
			sb_free(&shown);
			return rc;
		}
		const cJSON *q = jget1(port, "qos");
		if (nw == 2)
			return show_json_rows(c, q);
		static const char *const kinds[] = {"mapping", "pfc", "congestion-control",
						    "egress-scheduler", "pfc-watchdog"};
		int k = match_word(w[2], kinds, 5);
		if (k < 0 || nw > 3)
			return nv_not_found(c);
		const cJSON *sel = jget1(q, kinds[k]);
		if (k == 2 && c->fmt == FMT_AUTO) {
			struct sbuf sb;
			sb_init(&sb);
			sb_addf(&sb, "profile  %s\n", jstr(sel, "profile", ""));
			title(&sb, "ECN configuration");
			ecn_table(&sb, jget1(sel, "traffic-class"), true);
			out(c, &sb);
			return 0;
		}
		return show_json_rows(c, sel);
	}
	cJSON *d = cJSON_CreateObject();
	jput(d, "type", cJSON_CreateString("swp"));
	jput(d, "link", cJSON_Duplicate(jget1(port, "link"), true));
	jput(d, "qos", cJSON_Duplicate(jget1(port, "qos"), true));
	int rc = show_json_rows(c, d);
	cJSON_Delete(d);
	return rc;
}

cJSON *nv_system_json(const struct nv_sw *sw, bool platform)
{
	cJSON *s = cJSON_CreateObject();
	const char *name = jstr(sw->st, "name", "switch");
	if (platform) {
		unsigned h = 5381;
		for (const char *p = name; *p; p++)
			h = h * 33 + (unsigned char)*p;
		char mac[32];
		snprintf(mac, sizeof(mac), "1c:34:da:%02x:%02x:%02x", (h >> 16) & 0xff,
			 (h >> 8) & 0xff, h & 0xff);
		jput(s, "product-name", cJSON_CreateString(sw->model->product));
		jput(s, "asic-model", cJSON_CreateString(sw->model->asic));
		jput(s, "manufacturer", cJSON_CreateString("Nvidia"));
		jput(s, "system-mac", cJSON_CreateString(mac));
		jput(s, "port-count", cJSON_CreateNumber(NV_PORTS));
	} else {
		char build[64];
		snprintf(build, sizeof(build), "Cumulus Linux %s",
			 jstr(sw->st, "version", "5.14.0"));
		jput(s, "hostname", cJSON_CreateString(jstr(sw->st, "hostname", name)));
		jput(s, "build", cJSON_CreateString(build));
		jput(s, "product-release", cJSON_CreateString(jstr(sw->st, "version", "")));
		jput(s, "applied-rev", cJSON_CreateNumber((double)nv_applied_rev(sw)));
	}
	return s;
}

static int show_system(struct nv_cli *c, bool platform)
{
	cJSON *s = nv_system_json(&c->sw, platform);
	int rc = show_json_rows(c, s);
	cJSON_Delete(s);
	return rc;
}

int nv_cmd_show(struct nv_cli *c, int nw, char **w)
{
	if (c->rev && !oper_view(c)) {
		/* fail early on an unknown revision */
		struct sbuf e;
		sb_init(&e);
		cJSON *v = nv_view_by_name(&c->sw, c->rev, c->ctx->user, &e);
		if (!v) {
			fprintf(c->err, "Error: %s\n", sb_str(&e));
			sb_free(&e);
			return 1;
		}
		cJSON_Delete(v);
		sb_free(&e);
	}
	if (nw == 0) {
		struct sbuf sb;
		sb_init(&sb);
		struct table t;
		table_init(&t, 2, "", "description");
		table_row(&t, "interface", "Interfaces");
		table_row(&t, "qos", "QoS");
		table_row(&t, "system", "Top-level system configuration");
		table_row(&t, "platform", "Platform configuration");
		table_print(&sb, &t, 0);
		table_free(&t);
		out(c, &sb);
		return 0;
	}
	int top = match_word(w[0], TOP, 4);
	if (top < 0) {
		fprintf(c->err, "Error: %s Command: show %s\n", top == -2 ? "Ambiguous" : "Invalid",
			w[0]);
		return 1;
	}
	if (top == 0)
		return show_interface(c, nw - 1, w + 1);
	if (top >= 2)
		return nw == 1 ? show_system(c, top == 3) : nv_not_found(c);

	w[0] = "qos";
	if (nw == 2) {
		const char *const roce[] = {"roce"};
		if (match_word(w[1], roce, 1) == 0)
			return show_roce(c);
	}
	struct sbuf shown;
	sb_init(&shown);
	for (int i = 0; i < nw; i++)
		sb_addf(&shown, "%s%s", i ? " " : "", w[i]);
	int rc = show_config_path(c, nw, w, sb_str(&shown));
	sb_free(&shown);
	return rc;
}
