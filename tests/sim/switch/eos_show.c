/* SPDX-License-Identifier: Apache-2.0 */
/* EOS show commands (Arista eAPI): running-config (whole, section REGEX, interfaces),
 * priority-flow-control [counters], qos maps, qos interfaces [trust|ecn|ecn counters queue],
 * interfaces [status], version, hostname, session-config [diffs], configuration sessions.
 * Each fills the text output and, where EOS has one, the JSON model eAPI returns. */
#include <ctype.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "eos.h"

static cJSON *counters_of(const struct eos_cli *c, int port)
{
	char name[32];
	snprintf(name, sizeof(name), "Ethernet%d", port);
	return jget1(jget1(c->ctx->st, "counters"), name);
}

static const cJSON *ifc_of(const cJSON *cfg, int port)
{
	char name[32];
	snprintf(name, sizeof(name), "Ethernet%d", port);
	return jget1(jget1(cfg, "interface"), name);
}

static char *join_words(int argc, char **argv)
{
	struct sbuf sb;
	sb_init(&sb);
	sb_addn(&sb, "", 0);
	for (int i = 0; i < argc; i++)
		sb_addf(&sb, "%s%s", i ? " " : "", argv[i]);
	return sb.buf;
}

/* Optional interface list at argv[*i]; all ports when absent. */
static int opt_ifs(int argc, char **argv, int *i, int *ports, struct eos_res *r)
{
	int end = *i;
	if (end < argc && !strcasecmp(argv[end], "ethernet"))
		end += 2;
	else if (end < argc && (!strncasecmp(argv[end], "et", 2)))
		end += 1;
	if (end > argc)
		end = argc;
	if (end == *i) {
		for (int p = 0; p < EOS_PORTS; p++)
			ports[p] = p + 1;
		return EOS_PORTS;
	}
	int n = eos_parse_ifs(end - *i, argv + *i, ports, EOS_PORTS);
	if (n < 0) {
		eos_res_invalid(r, argc, argv, *i);
		return -1;
	}
	*i = end;
	return n;
}

/* ---- running-config ---- */

/* The JSON form of running-config text: {"cmds": {LINE: null | {"cmds", "comments"}}}. */
static cJSON *cmds_tree(const char *text, cJSON *header)
{
	cJSON *root = cJSON_CreateObject(), *stack[8] = {0};
	cJSON *last[8] = {0};
	stack[0] = cJSON_AddObjectToObject(root, "cmds");
	const char *p = text;
	bool body = false;
	while (*p) {
		size_t n = strcspn(p, "\n");
		size_t ind = strspn(p, " ");
		char *line = strndup(p + ind, n - (ind > n ? n : ind));
		if (!line)
			abort();
		p += n + (p[n] == '\n');
		int lvl = (int)ind / 3;
		if (!*line || !strcmp(line, "end") || lvl > 6) {
			free(line);
			continue;
		}
		if (line[0] == '!') {
			if (!body && lvl == 0 && header && line[1] == ' ') {
				struct sbuf h;
				sb_init(&h);
				sb_addf(&h, "%s\n", line);
				cJSON_AddItemToArray(header, cJSON_CreateString(sb_str(&h)));
				sb_free(&h);
			}
			free(line);
			continue;
		}
		body = true;
		while (lvl > 0 && !stack[lvl]) {
			/* a child of the previous line: it becomes a block */
			cJSON *prev = last[lvl - 1];
			if (!prev) {
				lvl--;
				continue;
			}
			cJSON *blk = cJSON_CreateObject();
			stack[lvl] = cJSON_AddObjectToObject(blk, "cmds");
			cJSON_AddArrayToObject(blk, "comments");
			cJSON_ReplaceItemInObjectCaseSensitive(stack[lvl - 1], prev->string, blk);
			last[lvl - 1] = blk;
		}
		cJSON *item = cJSON_CreateNull();
		cJSON_AddItemToObject(stack[lvl], line, item);
		last[lvl] = item;
		for (int k = lvl + 1; k < 8; k++) {
			stack[k] = NULL;
			last[k] = NULL;
		}
		free(line);
	}
	return root;
}

/* Top-level blocks (a line and its indented children) in which a line matches re. */
static void section_filter(const char *text, const regex_t *re, struct sbuf *out)
{
	const char *p = text;
	struct sbuf blk;
	bool hit = false;
	sb_init(&blk);
	for (;;) {
		size_t n = strcspn(p, "\n");
		bool top = *p && p[0] != ' ';
		if ((top || !*p) && blk.len) {
			if (hit)
				sb_adds(out, sb_str(&blk));
			sb_reset(&blk);
			hit = false;
		}
		if (!*p)
			break;
		char *line = strndup(p, n);
		if (!line)
			abort();
		const char *trim = line + strspn(line, " ");
		bool comment = trim[0] == '!';
		if (!(top && comment) && strcmp(line, "end") != 0) {
			sb_addf(&blk, "%s\n", line);
			if (!comment && regexec(re, trim, 0, NULL, 0) == 0)
				hit = true;
		}
		free(line);
		p += n + (p[n] == '\n');
	}
	sb_free(&blk);
}

static int show_running(struct eos_cli *c, const cJSON *cfg, int argc, char **argv, int i,
			struct eos_res *r)
{
	static const char *const sub[] = {"all", "section", "interfaces", NULL};
	struct sbuf full;
	sb_init(&full);
	if (i < argc && eos_kw(argv[i], sub) == 0)
		i++;
	int s = i < argc ? eos_kw(argv[i], sub) : -1;
	if (i < argc && s <= 0) {
		eos_res_invalid(r, argc, argv, i);
		return -1;
	}
	cJSON *header = cJSON_CreateArray();
	if (s < 0) {
		eos_render(&c->sw, cfg, true, &r->text);
	} else if (s == 1) {
		if (++i >= argc) {
			cJSON_Delete(header);
			eos_res_invalid(r, argc, argv, i);
			return -1;
		}
		char *pat = join_words(argc - i, argv + i);
		regex_t re;
		if (regcomp(&re, pat, REG_EXTENDED | REG_NOSUB) != 0) {
			free(pat);
			cJSON_Delete(header);
			eos_res_invalid(r, argc, argv, i);
			return -1;
		}
		free(pat);
		eos_render(&c->sw, cfg, false, &full);
		section_filter(sb_str(&full), &re, &r->text);
		regfree(&re);
	} else {
		int ports[EOS_PORTS];
		i++;
		int n = eos_parse_ifs(argc - i, argv + i, ports, EOS_PORTS);
		if (i >= argc || n < 0) {
			cJSON_Delete(header);
			eos_res_invalid(r, argc, argv, i);
			return -1;
		}
		eos_render(&c->sw, cfg, false, &full);
		for (int k = 0; k < n; k++) {
			char head[40];
			snprintf(head, sizeof(head), "interface Ethernet%d\n", ports[k]);
			const char *at = strstr(sb_str(&full), head);
			if (!at)
				continue;
			const char *end = strstr(at, "\n!\n");
			sb_addn(&r->text, at, end ? (size_t)(end - at) + 1 : strlen(at));
		}
	}
	sb_free(&full);
	r->json = cmds_tree(sb_str(&r->text), header);
	jput(r->json, "header", header);
	r->has_json = true;
	return 0;
}

/* show startup-config: the saved configuration (st["eos"]["startup"]), rendered as the
 * running-config is; what a reload boots.  A state without one (never saved) shows
 * nothing. */
static int show_startup(struct eos_cli *c, int argc, char **argv, int i, struct eos_res *r)
{
	const cJSON *st = jget1(c->sw.eos, "startup");
	cJSON *header = cJSON_CreateArray();
	if (i < argc) {
		cJSON_Delete(header);
		eos_res_invalid(r, argc, argv, i);
		return -1;
	}
	if (cJSON_IsObject(st)) {
		sb_adds(&r->text, "! Command: show startup-config\n");
		sb_addf(&r->text, "! device: %s (%s, EOS-%s)\n!\n",
			jstr(st, "hostname", "localhost"), c->sw.model->dcs, c->sw.model->version);
		eos_render(&c->sw, st, false, &r->text);
	}
	r->json = cmds_tree(sb_str(&r->text), header);
	jput(r->json, "header", header);
	r->has_json = true;
	return 0;
}

/* ---- priority-flow-control ---- */

static double wd_value(const cJSON *cfg, const char *key, double dflt)
{
	const cJSON *v = jget(cfg, (const char *const[]){"pfc-watchdog", key}, 2);
	return cJSON_IsNumber(v) ? v->valuedouble : dflt;
}

static int show_pfc(struct eos_cli *c, const cJSON *cfg, int argc, char **argv, int i,
		    struct eos_res *r)
{
	int ports[EOS_PORTS], n = EOS_PORTS;
	static const char *const sub[] = {"interfaces", "counters", "status", NULL};
	int s = i < argc ? eos_kw(argv[i], sub) : -1;
	if (i < argc && s < 0) {
		eos_res_invalid(r, argc, argv, i);
		return -1;
	}
	if (s == 0) {
		i++;
		int end = i;
		n = opt_ifs(argc, argv, &end, ports, r);
		if (n < 0)
			return -1;
		if (end == i) {
			eos_res_invalid(r, argc, argv, i);
			return -1;
		}
		i = end;
		s = i < argc ? eos_kw(argv[i], sub) : -1;
		if (i < argc && s < 1) {
			eos_res_invalid(r, argc, argv, i);
			return -1;
		}
	} else {
		for (int p = 0; p < EOS_PORTS; p++)
			ports[p] = p + 1;
	}
	if (s >= 1)
		i++;
	if (i < argc) {
		eos_res_invalid(r, argc, argv, i);
		return -1;
	}
	r->has_json = true;
	r->json = cJSON_CreateObject();
	if (s == 1) {
		/* Revision 3 is the model Arista's ANTA reads (conformance
		 * eos/anta/show_priority-flow-control_counters.rev3.json): interfaceCounters.<if>.
		 * rxFrames/txFrames.  What revisions 1 and 2 answer is not public (eos/FACTS.md
		 * fact 11); this switch answers them with other keys ([switchsim stand-in]
		 * rxPfcFrames/txPfcFrames), so that a client that does not ask for revision 3
		 * reads nothing it knows rather than the right numbers by luck. */
		bool rev3 = c->revision >= 3;
		cJSON *ic = cJSON_AddObjectToObject(r->json, "interfaceCounters");
		struct table t;
		table_init(&t, 3, "Port", "RxPfc", "TxPfc");
		for (int k = 0; k < n; k++) {
			char name[32], short_name[16], rx[24], tx[24];
			const cJSON *cn = jget1(counters_of(c, ports[k]), "pfc");
			snprintf(name, sizeof(name), "Ethernet%d", ports[k]);
			snprintf(short_name, sizeof(short_name), "Et%d", ports[k]);
			cJSON *o = cJSON_AddObjectToObject(ic, name);
			cJSON_AddNumberToObject(o, rev3 ? "rxFrames" : "rxPfcFrames",
						(double)jint(cn, "rxFrames", 0));
			cJSON_AddNumberToObject(o, rev3 ? "txFrames" : "txPfcFrames",
						(double)jint(cn, "txFrames", 0));
			snprintf(rx, sizeof(rx), "%ld", jint(cn, "rxFrames", 0));
			snprintf(tx, sizeof(tx), "%ld", jint(cn, "txFrames", 0));
			table_row(&t, short_name, rx, tx);
		}
		table_print(&r->text, &t, 0);
		table_free(&t);
		return 0;
	}
	bool global = !cJSON_IsTrue(jget1(cfg, "pfc-all-off"));
	double to = wd_value(cfg, "timeout", 0.2), rec = wd_value(cfg, "recovery-time", 0.2),
	       poll = wd_value(cfg, "polling-interval", 0.1);
	const char *action = jstr(jget1(cfg, "pfc-watchdog"), "action", "drop");
	cJSON_AddBoolToObject(r->json, "globalPfcEnabled", global);
	cJSON *hw = cJSON_AddArrayToObject(r->json, "hardwarePriorities");
	for (int p = 0; p < 8; p++)
		cJSON_AddItemToArray(hw, cJSON_CreateNumber(p));
	cJSON *wd = cJSON_AddObjectToObject(r->json, "watchdog");
	cJSON_AddNumberToObject(wd, "timeout", to);
	cJSON_AddNumberToObject(wd, "recoveryTime", rec);
	cJSON_AddNumberToObject(wd, "pollingInterval", poll);
	cJSON_AddStringToObject(wd, "action", action);
	sb_adds(&r->text, "The hardware supports PFC on priorities 0 1 2 3 4 5 6 7\n");
	sb_addf(&r->text, "The PFC watchdog timeout is %g second(s)\n", to);
	sb_addf(&r->text, "The PFC watchdog recovery-time is %g second(s)\n", rec);
	sb_addf(&r->text, "The PFC watchdog polling-interval is %g second(s)\n", poll);
	sb_addf(&r->text, "The PFC watchdog action is %s\n", action);
	sb_addf(&r->text, "Global PFC : %s\n\n", global ? "Enabled" : "Disabled");
	sb_adds(&r->text, "E: PFC Enabled, D: PFC Disabled, A: PFC Active, W: PFC Watchdog "
			  "Enabled\n");
	cJSON *ifs = cJSON_AddObjectToObject(r->json, "interfaces");
	struct table t;
	table_init(&t, 6, "Port", "Status", "Priorities", "Action", "Timeout", "Recovery");
	for (int k = 0; k < n; k++) {
		const cJSON *ifc = ifc_of(cfg, ports[k]);
		bool on = cJSON_IsTrue(jget1(ifc, "pfc"));
		bool wdon = cJSON_IsTrue(jget1(ifc, "pfc-watchdog"));
		bool up = !cJSON_IsTrue(jget1(ifc, "shutdown"));
		cJSON *pr = cJSON_CreateArray();
		struct sbuf pl;
		sb_init(&pl);
		for (int p = 0; p < 8; p++) {
			char key[16];
			snprintf(key, sizeof(key), "%d", p);
			const char *a = jstr(jget1(ifc, "pfc-priority"), key, NULL);
			if (a && !strcmp(a, "no-drop")) {
				cJSON_AddItemToArray(pr, cJSON_CreateNumber(p));
				sb_addf(&pl, "%s%d", pl.len ? "," : "", p);
			}
		}
		bool active = on && global && up && cJSON_GetArraySize(pr) > 0;
		char name[32], short_name[16], status[16], tos[16], recs[16];
		snprintf(name, sizeof(name), "Ethernet%d", ports[k]);
		snprintf(short_name, sizeof(short_name), "Et%d", ports[k]);
		snprintf(status, sizeof(status), "%s%s%s", on ? "E" : "D", active ? " A" : "",
			 wdon ? " W" : "");
		snprintf(tos, sizeof(tos), "%g", to);
		snprintf(recs, sizeof(recs), "%g", rec);
		cJSON *o = cJSON_AddObjectToObject(ifs, name);
		cJSON_AddBoolToObject(o, "pfcEnabled", on);
		cJSON_AddBoolToObject(o, "active", active);
		cJSON_AddItemToObject(o, "priorities", pr);
		cJSON_AddBoolToObject(o, "watchdogEnabled", wdon);
		table_row(&t, short_name, status, pl.len ? sb_str(&pl) : "-", wdon ? action : "-",
			  wdon ? tos : "-", wdon ? recs : "-");
		sb_free(&pl);
	}
	table_print(&r->text, &t, 0);
	table_free(&t);
	return 0;
}

/* ---- qos ---- */

static const char *trust_of(const cJSON *ifc)
{
	const char *t = jstr(ifc, "qos-trust", NULL);
	/* factory: switched ports trust CoS (AVD's eos_cli_config_gen templates, UNVERIFIED
	 * default) */
	if (!t)
		return "COS";
	return !strcmp(t, "dscp") ? "DSCP" : !strcmp(t, "cos") ? "COS" : "UNTRUSTED";
}

static int show_qos_maps(const cJSON *cfg, struct eos_res *r)
{
	r->has_json = true;
	r->json = cJSON_CreateObject();
	cJSON_AddNumberToObject(r->json, "numTcSupported", 8);
	cJSON_AddNumberToObject(r->json, "numTxQueueSupported", 8);
	cJSON *cos = cJSON_AddObjectToObject(r->json, "cosToTcMap");
	cJSON *dscp = cJSON_AddObjectToObject(r->json, "dscpToTcMap");
	cJSON *txq = cJSON_AddObjectToObject(r->json, "tcToTxQueueMap");
	sb_adds(&r->text, "Number of Traffic Classes supported: 8\nNumber of transmit queues "
			  "supported: 8\n\nCos-tc map:\n  cos:  0 1 2 3 4 5 6 7\n"
			  "  ----------------------\n   tc:");
	for (int i = 0; i < 8; i++) {
		char k[16];
		snprintf(k, sizeof(k), "%d", i);
		cJSON_AddNumberToObject(cos, k, eos_cos_tc(cfg, i));
		cJSON_AddNumberToObject(txq, k, eos_tc_txq(cfg, i));
		sb_addf(&r->text, " %d", eos_cos_tc(cfg, i));
	}
	sb_adds(&r->text, "\n\nDscp-tc map:\n  d1 :  d2 0  1  2  3  4  5  6  7  8  9\n"
			  "  -------------------------------------\n");
	for (int d = 0; d < 64; d++) {
		char k[16];
		snprintf(k, sizeof(k), "%d", d);
		cJSON_AddNumberToObject(dscp, k, eos_dscp_tc(cfg, d));
		if (d % 10 == 0)
			sb_addf(&r->text, "   %d :    ", d / 10);
		sb_addf(&r->text, " %d ", eos_dscp_tc(cfg, d));
		if (d % 10 == 9 || d == 63)
			sb_adds(&r->text, "\n");
	}
	sb_adds(&r->text, "\nTc - tx-queue map:\n  tc:       0 1 2 3 4 5 6 7\n"
			  "  ----------------------------\n  tx-queue:");
	for (int t = 0; t < 8; t++)
		sb_addf(&r->text, " %d", eos_tc_txq(cfg, t));
	sb_addc(&r->text, '\n');
	return 0;
}

static int show_qos_ifs(struct eos_cli *c, const cJSON *cfg, int argc, char **argv, int i,
			struct eos_res *r)
{
	int ports[EOS_PORTS];
	int n = opt_ifs(argc, argv, &i, ports, r);
	if (n < 0)
		return -1;
	static const char *const sub[] = {"trust", "ecn", NULL};
	int s = i < argc ? eos_kw(argv[i], sub) : 0;
	if (s < 0) {
		eos_res_invalid(r, argc, argv, i);
		return -1;
	}
	if (i < argc)
		i++;
	bool counters = false;
	if (s == 1 && i < argc) {
		if (!strcasecmp(argv[i], "counters") && i + 1 < argc &&
		    !strcasecmp(argv[i + 1], "queue")) {
			counters = true;
			i += 2;
		}
	}
	if (i < argc) {
		eos_res_invalid(r, argc, argv, i);
		return -1;
	}
	r->has_json = true;
	r->json = cJSON_CreateObject();
	const char *txq = c->sw.model->uc_tx_queue ? "uc-tx-queue" : "tx-queue";
	if (s == 0) {
		cJSON *ic = cJSON_AddObjectToObject(r->json, "intfConfig");
		for (int k = 0; k < n; k++) {
			char name[32];
			snprintf(name, sizeof(name), "Ethernet%d", ports[k]);
			const cJSON *ifc = ifc_of(cfg, ports[k]);
			cJSON *o = cJSON_AddObjectToObject(ic, name);
			cJSON_AddStringToObject(o, "trustMode", trust_of(ifc));
			cJSON_AddBoolToObject(o, "trustModeConfigured",
					      jstr(ifc, "qos-trust", NULL) != NULL);
			cJSON_AddNumberToObject(o, "defaultCos", 0);
			cJSON_AddNumberToObject(o, "defaultDscp", 0);
			sb_addf(&r->text,
				"%s:\n   Trust Mode: %s\n   Default COS: 0\n   Default DSCP: 0\n\n",
				name, trust_of(ifc));
		}
		return 0;
	}
	if (counters) {
		cJSON *iq = cJSON_AddObjectToObject(r->json, "intfQueueCounters");
		struct table t;
		table_init(&t, 3, "Port", "TxQ", "ECN Marked");
		for (int k = 0; k < n; k++) {
			char name[32], short_name[16];
			snprintf(name, sizeof(name), "Ethernet%d", ports[k]);
			snprintf(short_name, sizeof(short_name), "Et%d", ports[k]);
			cJSON *qc = cJSON_AddObjectToObject(cJSON_AddObjectToObject(iq, name),
							    "queueCounters");
			const cJSON *tq = jget1(ifc_of(cfg, ports[k]), "tx-queue");
			for (int q = 0; q < 8; q++) {
				char key[16], v[24];
				snprintf(key, sizeof(key), "%d", q);
				const cJSON *tx = jget1(tq, key);
				/* counts only where ECN and "random-detect ecn count" are set */
				if (jget1(tx, "ecn") && cJSON_IsTrue(jget1(tx, "ecn-count")))
					snprintf(
					    v, sizeof(v), "%ld",
					    jint(jget1(counters_of(c, ports[k]), "ecn"), key, 0));
				else
					snprintf(v, sizeof(v), "-");
				cJSON_AddStringToObject(qc, key, v);
				table_row(&t, short_name, key, v);
			}
		}
		table_print(&r->text, &t, 0);
		table_free(&t);
		return 0;
	}
	cJSON *ij = cJSON_AddObjectToObject(r->json, "interfaces");
	for (int k = 0; k < n; k++) {
		char name[32];
		snprintf(name, sizeof(name), "Ethernet%d", ports[k]);
		const cJSON *tq = jget1(ifc_of(cfg, ports[k]), "tx-queue");
		cJSON *qs = cJSON_AddObjectToObject(cJSON_AddObjectToObject(ij, name), "txQueues");
		struct table t;
		table_init(&t, 5, "Tx-Queue", "ECN", "Min Threshold", "Max Threshold",
			   "Max Mark Probability");
		for (int q = 0; q < 8; q++) {
			char key[16], mn[48], mx[48], pr[16];
			snprintf(key, sizeof(key), "%d", q);
			const cJSON *e = jget1(jget1(tq, key), "ecn");
			cJSON *o = cJSON_AddObjectToObject(qs, key);
			cJSON_AddBoolToObject(o, "ecnEnabled", e != NULL);
			if (!e) {
				table_row(&t, key, "disabled", "-", "-", "-");
				continue;
			}
			long vmin = jint(e, "min", 0), vmax = jint(e, "max", 0);
			const char *umin = jstr(e, "min-unit", "bytes"),
				   *umax = jstr(e, "max-unit", "bytes");
			long prob = jint(e, "probability", 100);
			cJSON_AddNumberToObject(o, "minThreshold", (double)vmin);
			cJSON_AddStringToObject(o, "minThresholdUnit", umin);
			cJSON_AddNumberToObject(o, "maxThreshold", (double)vmax);
			cJSON_AddStringToObject(o, "maxThresholdUnit", umax);
			cJSON_AddNumberToObject(o, "minThresholdBytes",
						(double)(vmin * eos_unit_bytes(umin)));
			cJSON_AddNumberToObject(o, "maxThresholdBytes",
						(double)(vmax * eos_unit_bytes(umax)));
			cJSON_AddNumberToObject(o, "maxMarkProbability", (double)prob);
			cJSON_AddNumberToObject(o, "weight", (double)jint(e, "weight", 0));
			cJSON_AddBoolToObject(o, "counting",
					      cJSON_IsTrue(jget1(jget1(tq, key), "ecn-count")));
			snprintf(mn, sizeof(mn), "%ld %s", vmin, umin);
			snprintf(mx, sizeof(mx), "%ld %s", vmax, umax);
			snprintf(pr, sizeof(pr), "%ld", prob);
			table_row(&t, key, "enabled", mn, mx, pr);
		}
		sb_addf(&r->text, "%s (%s):\n", name, txq);
		table_print(&r->text, &t, 3);
		sb_addc(&r->text, '\n');
		table_free(&t);
	}
	return 0;
}

static int show_qos(struct eos_cli *c, const cJSON *cfg, int argc, char **argv, int i,
		    struct eos_res *r)
{
	static const char *const sub[] = {"maps", "interfaces", NULL};
	int s = i < argc ? eos_kw(argv[i], sub) : -1;
	if (s < 0) {
		eos_res_invalid(r, argc, argv, i);
		return -1;
	}
	if (s == 0) {
		if (i + 1 < argc) {
			eos_res_invalid(r, argc, argv, i + 1);
			return -1;
		}
		return show_qos_maps(cfg, r);
	}
	return show_qos_ifs(c, cfg, argc, argv, i + 1, r);
}

/* ---- interfaces, version, hostname ---- */

static void mac_of(const struct eos_cli *c, int port, char *buf, size_t len)
{
	unsigned h = 5381;
	for (const char *s = jstr(c->ctx->st, "name", "eos"); *s; s++)
		h = h * 33 + (unsigned char)*s;
	snprintf(buf, len, "02%02x.%02x%02x.%02x%02x", (h >> 16) & 0xff, (h >> 8) & 0xff, h & 0xff,
		 (port >> 8) & 0xff, port & 0xff);
}

/* show interfaces counters queue drops (revision 1, the model Arista's ANTA reads:
 * interfaces.<if>.trafficClasses.TC<n>.{egressQueueCounters,ingressVoqCounters}.countersSum.
 * droppedPackets; conformance eos/anta/show_interfaces_counters_queue_drops.rev1.json), from
 * st["counters"]["EthernetN"]["drops"][tc] {"egress", "voq"}.  No text table is modelled:
 * its CLI form has no public sample. */
static int queue_drops(struct eos_cli *c, const int *ports, int n, struct eos_res *r)
{
	r->has_json = true;
	r->json = cJSON_CreateObject();
	cJSON *ifs = cJSON_AddObjectToObject(r->json, "interfaces");
	for (int k = 0; k < n; k++) {
		char name[32];
		snprintf(name, sizeof(name), "Ethernet%d", ports[k]);
		const cJSON *d = jget1(counters_of(c, ports[k]), "drops");
		cJSON *tcs =
		    cJSON_AddObjectToObject(cJSON_AddObjectToObject(ifs, name), "trafficClasses");
		for (int t = 0; t < 8; t++) {
			char key[16], tc[16]; /* room for any int: -Wformat-truncation */
			snprintf(key, sizeof(key), "%d", t);
			snprintf(tc, sizeof(tc), "TC%d", t);
			cJSON *o = cJSON_AddObjectToObject(tcs, tc);
			cJSON_AddNumberToObject(
			    cJSON_AddObjectToObject(
				cJSON_AddObjectToObject(o, "ingressVoqCounters"), "countersSum"),
			    "droppedPackets", (double)jint(jget1(d, key), "voq", 0));
			cJSON_AddNumberToObject(
			    cJSON_AddObjectToObject(
				cJSON_AddObjectToObject(o, "egressQueueCounters"), "countersSum"),
			    "droppedPackets", (double)jint(jget1(d, key), "egress", 0));
		}
	}
	return 0;
}

static int show_interfaces(struct eos_cli *c, const cJSON *cfg, int argc, char **argv, int i,
			   struct eos_res *r)
{
	int ports[EOS_PORTS];
	int n = opt_ifs(argc, argv, &i, ports, r);
	if (n < 0)
		return -1;
	if (i + 3 == argc && !strcasecmp(argv[i], "counters") &&
	    !strcasecmp(argv[i + 1], "queue") && !strcasecmp(argv[i + 2], "drops"))
		return queue_drops(c, ports, n, r);
	static const char *const sub[] = {"status", NULL};
	bool status = i < argc && eos_kw(argv[i], sub) == 0;
	if (status)
		i++;
	if (i < argc) {
		eos_res_invalid(r, argc, argv, i);
		return -1;
	}
	long gbps = c->sw.model->speed_mbps / 1000;
	r->has_json = true;
	r->json = cJSON_CreateObject();
	cJSON *top = cJSON_AddObjectToObject(r->json, status ? "interfaceStatuses" : "interfaces");
	struct table t;
	if (status)
		table_init(&t, 6, "Port", "Name", "Status", "Vlan", "Duplex", "Speed");
	for (int k = 0; k < n; k++) {
		const cJSON *ifc = ifc_of(cfg, ports[k]);
		bool up = !cJSON_IsTrue(jget1(ifc, "shutdown"));
		long mtu = jint(ifc, "mtu", 9214);
		const char *desc = jstr(ifc, "description", "");
		char name[32], mac[32], speed[32];
		snprintf(name, sizeof(name), "Ethernet%d", ports[k]);
		snprintf(speed, sizeof(speed), "%ldG", gbps);
		mac_of(c, ports[k], mac, sizeof(mac));
		cJSON *o = cJSON_AddObjectToObject(top, name);
		if (status) {
			char short_name[16];
			snprintf(short_name, sizeof(short_name), "Et%d", ports[k]);
			cJSON_AddStringToObject(o, "linkStatus", up ? "connected" : "disabled");
			cJSON_AddNumberToObject(o, "bandwidth", (double)gbps * 1e9);
			cJSON_AddStringToObject(o, "duplex", "duplexFull");
			cJSON_AddStringToObject(o, "description", desc);
			table_row(&t, short_name, desc, up ? "connected" : "disabled", "1", "full",
				  speed);
			continue;
		}
		cJSON_AddStringToObject(o, "name", name);
		cJSON_AddStringToObject(o, "description", desc);
		cJSON_AddNumberToObject(o, "mtu", (double)mtu);
		cJSON_AddNumberToObject(o, "bandwidth", (double)gbps * 1e9);
		cJSON_AddStringToObject(o, "interfaceStatus", up ? "connected" : "disabled");
		cJSON_AddStringToObject(o, "lineProtocolStatus", up ? "up" : "down");
		cJSON_AddStringToObject(o, "physicalAddress", mac);
		cJSON_AddStringToObject(o, "hardware", "ethernet");
		cJSON_AddStringToObject(o, "duplex", "duplexFull");
		sb_addf(&r->text,
			"%s is %s, line protocol is %s (%s)\n  Hardware is Ethernet, address is %s "
			"(bia %s)\n  Ethernet MTU %ld bytes, BW %ld kbit\n  Full-duplex, %ldGb/s\n",
			name, up ? "up" : "administratively down", up ? "up" : "down",
			up ? "connected" : "disabled", mac, mac, mtu, gbps * 1000000, gbps);
		if (*desc)
			sb_addf(&r->text, "  Description: %s\n", desc);
	}
	if (status) {
		table_print(&r->text, &t, 0);
		table_free(&t);
	}
	return 0;
}

static int show_version(struct eos_cli *c, struct eos_res *r)
{
	char mac[32];
	mac_of(c, 0, mac, sizeof(mac));
	const struct eos_model *m = c->sw.model;
	r->has_json = true;
	r->json = cJSON_CreateObject();
	cJSON_AddStringToObject(r->json, "modelName", m->dcs);
	cJSON_AddStringToObject(r->json, "version", m->version);
	cJSON_AddStringToObject(r->json, "internalVersion", m->version);
	cJSON_AddStringToObject(r->json, "serialNumber", "SIMEOS0001");
	cJSON_AddStringToObject(r->json, "systemMacAddress", mac);
	cJSON_AddStringToObject(r->json, "hardwareRevision", "11.00");
	cJSON_AddStringToObject(r->json, "architecture", "x86_64");
	cJSON_AddBoolToObject(r->json, "isIntlVersion", false);
	sb_addf(&r->text,
		"Arista %s\nHardware version: 11.00\nSerial number: SIMEOS0001\nSystem MAC "
		"address: %s\n\nSoftware image version: %s\nArchitecture: x86_64\nInternal build "
		"version: %s-switchsim\n",
		m->dcs, mac, m->version, m->version);
	return 0;
}

/* ---- sessions ---- */

static int show_sessions(struct eos_cli *c, struct eos_res *r)
{
	const char *cur = jstr(c->ctx->login, "session", NULL);
	r->has_json = true;
	r->json = cJSON_CreateObject();
	cJSON *ss = cJSON_AddObjectToObject(r->json, "sessions");
	cJSON_AddNumberToObject(r->json, "maxSavedSessions", EOS_MAX_COMPLETED);
	cJSON_AddNumberToObject(r->json, "maxOpenSessions", EOS_MAX_PENDING);
	sb_addf(&r->text,
		"Maximum number of completed sessions: %d\nMaximum number of pending "
		"sessions: %d\n\n",
		EOS_MAX_COMPLETED, EOS_MAX_PENDING);
	struct table t;
	table_init(&t, 4, "  Name", "State", "User", "Terminal");
	const cJSON *s;
	cJSON_ArrayForEach(s, jget1(c->sw.eos, "sessions"))
	{
		cJSON *o = cJSON_AddObjectToObject(ss, s->string);
		const char *state = jstr(s, "state", "pending");
		cJSON_AddStringToObject(o, "state", state);
		cJSON_AddStringToObject(o, "commitUser", jstr(s, "user", ""));
		cJSON_AddStringToObject(o, "description", "");
		char name[96];
		snprintf(name, sizeof(name), "%s %s", cur && !strcmp(cur, s->string) ? "*" : " ",
			 s->string);
		table_row(&t, name, state, jstr(s, "user", ""), "");
	}
	table_print(&r->text, &t, 0);
	table_free(&t);
	return 0;
}

static int show_session_config(struct eos_cli *c, int argc, char **argv, int i, struct eos_res *r)
{
	const char *name = jstr(c->ctx->login, "session", NULL);
	static const char *const sub[] = {"named", "diffs", NULL};
	if (c->eapi && c->json) {
		/* a text-only command: eAPI refuses it in json format before running it */
		eos_res_error(r, 1003, "This is an unconverted command");
		return -1;
	}
	int s = i < argc ? eos_kw(argv[i], sub) : -1;
	if (s == 0) {
		if (i + 1 >= argc) {
			eos_res_invalid(r, argc, argv, i + 1);
			return -1;
		}
		name = argv[i + 1];
		i += 2;
		s = i < argc ? eos_kw(argv[i], sub) : -1;
	}
	bool diffs = s == 1;
	if (diffs)
		i++;
	if (i < argc || (s == 0)) {
		eos_res_invalid(r, argc, argv, i);
		return -1;
	}
	const cJSON *sess = name ? jget1(jget1(c->sw.eos, "sessions"), name) : NULL;
	if (!name) {
		eos_res_error(r, 1000, "Not in a configuration session");
		return -1;
	}
	if (!sess || strcmp(jstr(sess, "state", ""), "pending") != 0) {
		eos_res_error(r, 1000, "Session %s does not exist", name);
		return -1;
	}
	struct sbuf a, b;
	sb_init(&a);
	sb_init(&b);
	eos_render(&c->sw, jget1(sess, "config"), true, &b);
	if (!diffs) {
		sb_adds(&r->text, sb_str(&b));
	} else {
		char lb[128];
		eos_render(&c->sw, jget1(c->sw.eos, "running"), true, &a);
		snprintf(lb, sizeof(lb), "session:/%s-session-config", name);
		eos_diff(sb_str(&a), sb_str(&b), "system:/running-config", lb, &r->text);
	}
	sb_free(&a);
	sb_free(&b);
	/* text only: eAPI's json format answers "unconverted command" */
	r->has_json = false;
	return 0;
}

/* A colon MAC "aa:c1:ab:5d:2b:b4" as EOS prints it, "aac1.ab5d.2bb4"; false if not one. */
static bool dotted_mac(const char *mac, char *out, size_t len)
{
	char hex[13];
	int n = 0;
	for (const char *c = mac; *c; c++) {
		if (*c == ':')
			continue;
		if (!isxdigit((unsigned char)*c) || n >= 12)
			return false;
		hex[n++] = (char)tolower((unsigned char)*c);
	}
	if (n != 12 || strlen(mac) != 17 || len < 15)
		return false;
	snprintf(out, len, "%.4s.%.4s.%.4s", hex, hex + 4, hex + 8);
	return true;
}

/* One neighbour of st["lldp"] ({"host", "port", "type": ifname|local|mac, "chassis"}) as
 * `show lldp neighbors detail` prints it (conformance eos/FACTS.md facts 18-19, napalm's
 * captures): a MAC port ID dotted and unquoted, a name or local ID quoted inside the
 * string (the releases without interfaceId_v2), no systemName when the peer sent none. */
static cJSON *lldp_detail(const cJSON *e)
{
	const char *type = jstr(e, "type", "ifname"), *id = jstr(e, "port", "");
	const char *host = jstr(e, "host", "");
	char buf[SIM_NAME_MAX + 4];
	cJSON *o = cJSON_CreateObject(), *nii;
	if (host[0])
		cJSON_AddStringToObject(o, "systemName", host);
	if (dotted_mac(jstr(e, "chassis", ""), buf, sizeof(buf))) {
		cJSON_AddStringToObject(o, "chassisIdType", "macAddress");
		cJSON_AddStringToObject(o, "chassisId", buf);
	}
	cJSON_AddNumberToObject(o, "ttl", 120);
	nii = cJSON_AddObjectToObject(o, "neighborInterfaceInfo");
	if (!strcmp(type, "mac") && dotted_mac(id, buf, sizeof(buf))) {
		cJSON_AddStringToObject(nii, "interfaceIdType", "macAddress");
		cJSON_AddStringToObject(nii, "interfaceId", buf);
	} else {
		cJSON_AddStringToObject(nii, "interfaceIdType",
					strcmp(type, "local") ? "interfaceName" : "local");
		snprintf(buf, sizeof(buf), "\"%s\"", id);
		cJSON_AddStringToObject(nii, "interfaceId", buf);
	}
	return o;
}

/* show lldp neighbors [detail], from st["lldp"] (what the lab cabled).  Summary: the list
 * {"lldpNeighbors": [{"port", "neighborDevice", "neighborPort", "ttl"}]} (napalm's capture,
 * MAC port IDs dotted); detail: every port, lldpNeighborInfo [] without a neighbour. */
static int show_lldp(struct eos_cli *c, int argc, char **argv, struct eos_res *r)
{
	if (argc < 3 || argc > 4 || strcasecmp(argv[2], "neighbors") != 0 ||
	    (argc == 4 && strcasecmp(argv[3], "detail") != 0)) {
		eos_res_invalid(r, argc, argv,
				argc < 3 || strcasecmp(argv[2], "neighbors") ? 2 : 3);
		return -1;
	}
	const cJSON *lldp = jget1(c->ctx->st, "lldp");
	r->has_json = true;
	r->json = cJSON_CreateObject();
	if (argc == 4) {
		cJSON *ports = cJSON_AddObjectToObject(r->json, "lldpNeighbors");
		for (int p = 1; p <= EOS_PORTS; p++) {
			char name[32];
			snprintf(name, sizeof(name), "Ethernet%d", p);
			const cJSON *e = jget1(lldp, name);
			cJSON *info = cJSON_AddArrayToObject(cJSON_AddObjectToObject(ports, name),
							     "lldpNeighborInfo");
			if (!e)
				continue;
			cJSON_AddItemToArray(info, lldp_detail(e));
			sb_addf(&r->text, "Interface %s detected 1 LLDP neighbors:\n\n", name);
		}
		return 0;
	}
	const char **keys;
	int n = jkeys_sorted(lldp, &keys);
	struct table t;
	cJSON *list = cJSON_AddArrayToObject(r->json, "lldpNeighbors");
	table_init(&t, 4, "Port", "Neighbor Device ID", "Neighbor Port ID", "TTL");
	for (int i = 0; i < n; i++) {
		const cJSON *e = jget1(lldp, keys[i]);
		char mac[20];
		const char *rport = jstr(e, "port", "");
		if (!strcmp(jstr(e, "type", ""), "mac") && dotted_mac(rport, mac, sizeof(mac)))
			rport = mac;
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "port", keys[i]);
		cJSON_AddStringToObject(o, "neighborDevice", jstr(e, "host", ""));
		cJSON_AddStringToObject(o, "neighborPort", rport);
		cJSON_AddNumberToObject(o, "ttl", 120);
		cJSON_AddItemToArray(list, o);
		table_row(&t, keys[i], jstr(e, "host", ""), rport, "120");
	}
	free(keys);
	table_print(&r->text, &t, 0);
	table_free(&t);
	return 0;
}

int eos_show(struct eos_cli *c, const cJSON *cfg, int argc, char **argv, struct eos_res *r)
{
	static const char *const cmds[] = {"running-config",
					   "priority-flow-control",
					   "qos",
					   "interfaces",
					   "version",
					   "hostname",
					   "session-config",
					   "configuration",
					   "startup-config",
					   "lldp",
					   NULL};
	r->show = true;
	int k = argc > 1 ? eos_kw(argv[1], cmds) : -1;
	if (k < 0) {
		eos_res_invalid(r, argc, argv, 1);
		return -1;
	}
	switch (k) {
	case 0:
		return show_running(c, cfg, argc, argv, 2, r);
	case 1:
		return show_pfc(c, cfg, argc, argv, 2, r);
	case 2:
		return show_qos(c, cfg, argc, argv, 2, r);
	case 3:
		return show_interfaces(c, cfg, argc, argv, 2, r);
	case 4:
		if (argc > 2) {
			eos_res_invalid(r, argc, argv, 2);
			return -1;
		}
		return show_version(c, r);
	case 5: {
		if (argc > 2) {
			eos_res_invalid(r, argc, argv, 2);
			return -1;
		}
		const char *h = jstr(cfg, "hostname", "localhost");
		r->has_json = true;
		r->json = cJSON_CreateObject();
		cJSON_AddStringToObject(r->json, "hostname", h);
		cJSON_AddStringToObject(r->json, "fqdn", h);
		sb_addf(&r->text, "Hostname: %s\nFQDN:     %s\n", h, h);
		return 0;
	}
	case 6:
		return show_session_config(c, argc, argv, 2, r);
	case 8:
		return show_startup(c, argc, argv, 2, r);
	case 9:
		return show_lldp(c, argc, argv, r);
	default:
		if (argc < 3 || strcasecmp(argv[2], "sessions") != 0 ||
		    (argc > 3 && strcasecmp(argv[3], "detail") != 0) || argc > 4) {
			eos_res_invalid(r, argc, argv, argc < 3 ? 2 : argc > 3 ? 3 : 2);
			return -1;
		}
		return show_sessions(c, r);
	}
}
