/* SPDX-License-Identifier: Apache-2.0 */
/* SONiC's "show" commands that concern lossless QoS (sonic-utilities Command-Reference.md):
 * runningconfiguration, version, pfc priority|counters, pfcwd config, ecn, queue
 * counters|wredcounters, priority-group drop counters, lldp table. */
#include <stdlib.h>
#include <string.h>

#include "sonic.h"

static int click_no_such(struct sn_cli *c, const char *group, const char *what)
{
	fprintf(c->err,
		"Usage: show %s[OPTIONS] COMMAND [ARGS]...\nTry \"show %s-h\" for help.\n\nError: "
		"No such command \"%s\".\n",
		group, group, what);
	return 2;
}

static void print_table(struct sn_cli *c, struct table *t)
{
	struct sbuf sb;
	sb_init(&sb);
	table_print(&sb, t, 0);
	fputs(sb_str(&sb), c->out);
	sb_free(&sb);
	table_free(t);
}

/* A table as python-tabulate's "simple" format prints it, which sonic-utilities uses: a
 * column is as wide as its widest cell or its header plus 2 (tabulate's MIN_PADDING), columns
 * two spaces apart, dashes under the header; `right`: every cell right-aligned
 * (stralign='right', as pfcstat, queuestat, wredstat and pg-drop ask), else left (lldpshow).
 * Blank cells stay blank (lldpshow's '' RemoteDevice). */
static void tabulate(struct sn_cli *c, struct table *t, bool right)
{
	size_t w[16] = {0};
	for (int r = 0; r < t->nrows; r++)
		for (int k = 0; k < t->ncols && k < 16; k++) {
			size_t l = strlen(t->cells[r * t->ncols + k]) + (r == 0 ? 2 : 0);
			w[k] = l > w[k] ? l : w[k];
		}
	for (int r = 0; r < t->nrows; r++) {
		struct sbuf line;
		sb_init(&line);
		for (int k = 0; k < t->ncols && k < 16; k++) {
			const char *cell = t->cells[r * t->ncols + k];
			int pad = (int)(w[k] - strlen(cell));
			if (k)
				sb_adds(&line, "  ");
			if (right)
				sb_indent(&line, pad);
			sb_adds(&line, cell);
			if (!right)
				sb_indent(&line, pad);
		}
		while (line.len && line.buf[line.len - 1] == ' ')
			line.buf[--line.len] = '\0';
		fprintf(c->out, "%s\n", sb_str(&line));
		sb_free(&line);
		if (r == 0) {
			for (int k = 0; k < t->ncols && k < 16; k++) {
				fputs(k ? "  " : "", c->out);
				for (size_t i = 0; i < w[k]; i++)
					fputc('-', c->out);
			}
			fputc('\n', c->out);
		}
	}
	table_free(t);
}

/* "1200" -> "1,200": pfcstat prints its counts with thousands separators (conformance
 * sonic/outputs/show_pfc_counters.txt), the queue and PG tables do not. */
static void thousands(long v, char *out, size_t len)
{
	char d[32];
	int n = snprintf(d, sizeof(d), "%ld", v < 0 ? 0 : v), o = 0;
	for (int i = 0; i < n && (size_t)o + 2 < len; i++) {
		if (i && (n - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = d[i];
	}
	out[o] = '\0';
}

/* A counter of st["counters"][port][a][b][c] (drift counters:PORT.a.b.c=V, or a rate). */
static long counter(struct sn_cli *c, const char *port, const char *a, const char *b, const char *k)
{
	const char *path[] = {port, a, b};
	return jint(jget(jget1(c->ctx->st, "counters"), path, 3), k, 0);
}

/* Ports of the switch in natural order. */
static int ports(const cJSON *db, const char ***out)
{
	const cJSON *p;
	int n = 0;
	const cJSON *tab = jget1(db, "PORT");
	*out = calloc((size_t)cJSON_GetArraySize(tab) + 1, sizeof(char *));
	if (!*out)
		abort();
	cJSON_ArrayForEach(p, tab)(*out)[n++] = p->string;
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && sn_natcmp((*out)[j - 1], (*out)[j]) > 0; j--) {
			const char *t = (*out)[j];
			(*out)[j] = (*out)[j - 1];
			(*out)[j - 1] = t;
		}
	return n;
}

static int show_version(struct sn_cli *c)
{
	const struct sn_model *m = c->sw.model;
	fprintf(c->out,
		"\nSONiC Software Version: SONiC.%ld.1-switchsim\n"
		"SONiC OS Version: 12\n"
		"Distribution: Debian 12.5\n"
		"Kernel: 6.1.0-22-2-amd64\n"
		"Build commit: 0000000\n"
		"Build date: Mon Jan  1 00:00:00 UTC 2024\n"
		"Built by: switchsim\n\n"
		"Platform: %s\n"
		"HwSKU: %s\n"
		"ASIC: %s\n"
		"ASIC Count: 1\n"
		"Serial Number: SIM%s\n"
		"Model Number: %s\n"
		"Hardware Revision: A1\n"
		"Uptime: 00:00:00 up 1 day,  0:00,  0 user,  load average: 0.00, 0.00, 0.00\n",
		c->sw.release, m->platform, m->name, m->asic_type, m->name, m->name);
	return 0;
}

static int show_pfc(struct sn_cli *c, int argc, char **argv)
{
	if (argc < 3)
		return click_no_such(c, "pfc ", "");
	const char **pv;
	int n = ports(c->sw.db, &pv);
	if (!strcmp(argv[2], "priority") || !strcmp(argv[2], "asymmetric")) {
		bool prio = argv[2][0] == 'p';
		struct table t;
		table_init(&t, 2, "Interface", prio ? "Lossless priorities" : "Asymmetric");
		for (int i = 0; i < n; i++) {
			if (argc > 3 && strcmp(argv[3], pv[i]) != 0)
				continue;
			const char *path[] = {"PORT_QOS_MAP", pv[i]};
			const char *v = jstr(jget(c->sw.db, path, 2), "pfc_enable", NULL);
			table_row(&t, pv[i], prio ? (v && *v ? v : "N/A") : "off");
		}
		print_table(c, &t);
		free(pv);
		return 0;
	}
	if (!strcmp(argv[2], "counters")) {
		for (int dir = 0; dir < 2; dir++) {
			struct table t;
			table_init(&t, 9, dir ? "Port Tx" : "Port Rx", "PFC0", "PFC1", "PFC2",
				   "PFC3", "PFC4", "PFC5", "PFC6", "PFC7");
			for (int i = 0; i < n; i++) {
				char v[8][32];
				const char *cells[9] = {pv[i]};
				const char *path[] = {pv[i], "pfc", dir ? "tx" : "rx"};
				const cJSON *cnt = jget(jget1(c->ctx->st, "counters"), path, 3);
				for (int p = 0; p < 8; p++) {
					char k[16];
					snprintf(k, sizeof(k), "%d", p);
					thousands(jint(cnt, k, 0), v[p], sizeof(v[p]));
					cells[p + 1] = v[p];
				}
				table_rowv(&t, cells);
			}
			if (dir)
				fputc('\n', c->out);
			tabulate(c, &t, true);
		}
		free(pv);
		return 0;
	}
	free(pv);
	return click_no_such(c, "pfc ", argv[2]);
}

/* Queues as sonic-utilities names them (COUNTERS_QUEUE_TYPE_MAP): unicast UC0-7, then
 * multicast numbered on, MC8-15 (conformance sonic/FACTS.md fact 2). */
#define SN_UC_QUEUES 8

/* show queue counters | wredcounters: one table per port (queuestat, wredstat), from
 * st["counters"][port]["queue"][q] {pkts, bytes, drop_pkts, drop_bytes, wred_drop_pkts,
 * wred_drop_bytes, ecn_marked_pkts, ecn_marked_bytes}; multicast queues count nothing here. */
static int show_queue(struct sn_cli *c, int argc, char **argv)
{
	if (argc != 3 || (strcmp(argv[2], "counters") && strcmp(argv[2], "wredcounters")))
		return click_no_such(c, "queue ", argc < 3 ? "" : argv[2]);
	bool wred = argv[2][0] == 'w';
	static const char *const qk[] = {"pkts", "bytes", "drop_pkts", "drop_bytes"};
	static const char *const wk[] = {"wred_drop_pkts", "wred_drop_bytes", "ecn_marked_pkts",
					 "ecn_marked_bytes"};
	const char **pv;
	int n = ports(c->sw.db, &pv);
	for (int i = 0; i < n; i++) {
		struct table t;
		if (wred)
			table_init(&t, 6, "Port", "TxQ", "WredDrp/pkts", "WredDrp/bytes",
				   "EcnMarked/pkts", "EcnMarked/bytes");
		else
			table_init(&t, 6, "Port", "TxQ", "Counter/pkts", "Counter/bytes",
				   "Drop/pkts", "Drop/bytes");
		for (int q = 0; q < 2 * SN_UC_QUEUES; q++) {
			char name[16], qs[16], v[4][24];
			const char *cells[6] = {pv[i], name, v[0], v[1], v[2], v[3]};
			snprintf(name, sizeof(name), "%s%d", q < SN_UC_QUEUES ? "UC" : "MC", q);
			snprintf(qs, sizeof(qs), "%d", q);
			for (int k = 0; k < 4; k++)
				snprintf(v[k], sizeof(v[k]), "%ld",
					 q < SN_UC_QUEUES
					     ? counter(c, pv[i], "queue", qs, wred ? wk[k] : qk[k])
					     : 0);
			table_rowv(&t, cells);
		}
		if (!wred)
			fputs("For namespace :\n", c->out);
		tabulate(c, &t, true);
		fputc('\n', c->out);
	}
	free(pv);
	return 0;
}

/* show priority-group drop counters (pg-drop): PG0-7 per port, from
 * st["counters"][port]["pg"][pg]["drop"]. */
static int show_pg(struct sn_cli *c, int argc, char **argv)
{
	if (argc != 4 || strcmp(argv[2], "drop") || strcmp(argv[3], "counters"))
		return click_no_such(c, "priority-group ", argc < 3 ? "" : argv[2]);
	const char **pv;
	int n = ports(c->sw.db, &pv);
	struct table t;
	table_init(&t, 9, "Port", "PG0", "PG1", "PG2", "PG3", "PG4", "PG5", "PG6", "PG7");
	for (int i = 0; i < n; i++) {
		char v[8][24];
		const char *cells[9] = {pv[i]};
		for (int p = 0; p < 8; p++) {
			char k[12]; /* any int: -Wformat-truncation */
			snprintf(k, sizeof(k), "%d", p);
			snprintf(v[p], sizeof(v[p]), "%ld", counter(c, pv[i], "pg", k, "drop"));
			cells[p + 1] = v[p];
		}
		table_rowv(&t, cells);
	}
	fputs("Ingress PG dropped packets:\n", c->out);
	tabulate(c, &t, true);
	free(pv);
	return 0;
}

static int show_pfcwd(struct sn_cli *c, int argc, char **argv)
{
	if (argc < 3 || strcmp(argv[2], "config") != 0)
		return click_no_such(c, "pfcwd ", argc < 3 ? "" : argv[2]);
	const char *g[] = {"PFC_WD", "GLOBAL"};
	const cJSON *glob = jget(c->sw.db, g, 2);
	if (jstr(glob, "POLL_INTERVAL", NULL))
		fprintf(c->out, "Changed polling interval to %sms\n",
			jstr(glob, "POLL_INTERVAL", ""));
	const char **pv;
	int n = ports(c->sw.db, &pv);
	struct table t;
	table_init(&t, 5, "PORT", "ACTION", "DETECTION TIME", "RESTORATION TIME", "HISTORY");
	for (int i = 0; i < n; i++) {
		const char *path[] = {"PFC_WD", pv[i]};
		const cJSON *w = jget(c->sw.db, path, 2);
		if (!w)
			continue;
		table_row(&t, pv[i], jstr(w, "action", "drop"), jstr(w, "detection_time", "N/A"),
			  jstr(w, "restoration_time", "infinite"),
			  jstr(w, "pfc_stat_history", "disable"));
	}
	print_table(c, &t);
	free(pv);
	return 0;
}

static int show_ecn(struct sn_cli *c)
{
	const cJSON *p;
	cJSON_ArrayForEach(p, jget1(c->sw.db, "WRED_PROFILE"))
	{
		fprintf(c->out, "Profile: %s\n", p->string);
		size_t w0 = 0, w1 = 0;
		const cJSON *f;
		cJSON_ArrayForEach(f, p)
		{
			size_t a = strlen(f->string), b = strlen(jstr(p, f->string, ""));
			w0 = a > w0 ? a : w0;
			w1 = b + (strstr(f->string, "probability") ? 1 : 0) > w1
				 ? b + (strstr(f->string, "probability") ? 1 : 0)
				 : w1;
		}
		struct sbuf sb;
		sb_init(&sb);
		for (size_t i = 0; i < w0; i++)
			sb_addc(&sb, '-');
		sb_adds(&sb, "  ");
		for (size_t i = 0; i < w1; i++)
			sb_addc(&sb, '-');
		fprintf(c->out, "%s\n", sb_str(&sb));
		cJSON_ArrayForEach(f, p)
		{
			fprintf(c->out, "%-*s  %s%s\n", (int)w0, f->string, jstr(p, f->string, ""),
				strstr(f->string, "probability") ? "%" : "");
		}
		fprintf(c->out, "%s\n\n", sb_str(&sb));
		sb_free(&sb);
	}
	return 0;
}

/* show lldp table: lldpshow's summary (conformance sonic/outputs/show_lldp_table.2macs.txt,
 * sonic/FACTS.md fact 10), from st["lldp"] (what the lab cabled): RemotePortID is the port ID
 * as the peer sent it (an alias, an ifname, a colon MAC), a peer without a system name
 * leaves RemoteDevice blank; rows in natural order of the local port. */
static int show_lldp(struct sn_cli *c, int argc, char **argv)
{
	if (argc != 3 || strcmp(argv[2], "table") != 0)
		return click_no_such(c, "lldp ", argc < 3 ? "" : argv[2]);
	const cJSON *lldp = jget1(c->ctx->st, "lldp");
	const char **keys;
	int n = jkeys_sorted(lldp, &keys);
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && sn_natcmp(keys[j - 1], keys[j]) > 0; j--) {
			const char *t = keys[j];
			keys[j] = keys[j - 1];
			keys[j - 1] = t;
		}
	struct table t;
	fputs("Capability codes: (R) Router, (B) Bridge, (O) Other\n", c->out);
	table_init(&t, 5, "LocalPort", "RemoteDevice", "RemotePortID", "Capability",
		   "RemotePortDescr");
	for (int i = 0; i < n; i++) {
		const cJSON *e = jget1(lldp, keys[i]);
		const char *host = jstr(e, "host", "");
		table_row(&t, keys[i], host, jstr(e, "port", ""), host[0] ? "BR" : "",
			  jstr(e, "descr", ""));
	}
	free(keys);
	tabulate(c, &t, false);
	fprintf(c->out, "%s\nTotal entries displayed:  %d\n",
		"--------------------------------------------------", n);
	return 0;
}

int sn_show(struct sn_cli *c, int argc, char **argv)
{
	if (argc < 2)
		return click_no_such(c, "", "");
	const char *w = argv[1];
	if (!strcmp(w, "runningconfiguration")) {
		if (argc < 3 || strcmp(argv[2], "all") != 0)
			return click_no_such(c, "runningconfiguration ", argc < 3 ? "" : argv[2]);
		struct sbuf sb;
		sb_init(&sb);
		/* a single-ASIC switch adds FRR's configuration as "bgpraw" (sonic-utilities,
		 * `show runningconfiguration all`) */
		cJSON *all = cJSON_Duplicate(c->sw.db, true);
		jput(all, "bgpraw",
		     cJSON_CreateString("Building configuration...\n\nCurrent configuration:\n!\n"
					"frr version 8.5.4\nfrr defaults traditional\n!\nend\n"));
		sn_print_json(&sb, all);
		cJSON_Delete(all);
		fputs(sb_str(&sb), c->out);
		sb_free(&sb);
		return 0;
	}
	if (!strcmp(w, "version"))
		return show_version(c);
	if (!strcmp(w, "pfc"))
		return show_pfc(c, argc, argv);
	if (!strcmp(w, "pfcwd"))
		return show_pfcwd(c, argc, argv);
	if (!strcmp(w, "lldp"))
		return show_lldp(c, argc, argv);
	if (!strcmp(w, "queue"))
		return show_queue(c, argc, argv);
	if (!strcmp(w, "priority-group"))
		return show_pg(c, argc, argv);
	if (!strcmp(w, "ecn"))
		return show_ecn(c);
	return click_no_such(c, "", w);
}
