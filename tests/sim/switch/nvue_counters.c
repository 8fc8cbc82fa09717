/* SPDX-License-Identifier: Apache-2.0 */
/* `nv show interface <if> counters qos [<sub-object>] [-o json]` (NVUE reference, Show
 * Commands, QoS; CL 5.5+).  Four sub-objects, each keyed directly by index in JSON, the
 * nesting NVIDIA's own switch tests read (sonic-mgmt fork, ngts nvue_interface_clis.py,
 * get_interface_queue_counters) and scripts against a real SN5600 read from the combined
 * command:
 *   ingress-buffer-stats {<pg>: {rx-frames, rx-buffer-discards, rx-shared-buffer-discards}}
 *   egress-queue-stats   {<tc>: {tx-frames, tx-bytes, tx-uc-buffer-discards, wred-discards,
 *                                ecn-marked-frames}}
 *   pfc-stats            {<sp>: {rx-pause-frames, rx-pause-duration, tx-pause-frames,
 *                                tx-pause-duration}}
 *   port-stats           {rx-stats: {...}, tx-stats: {..., ecn-marked-packets}}  (JSON shape
 *                        unverified; the text rows are the documented ones)
 * Tables as the reference prints them: under a title and indented 4 in the combined view,
 * bare for one sub-object; byte columns with a unit ("0 Bytes", "75.19 KB"), even
 * tx-uc-buffer-discards, whose value is a frame count.  Values come from st["counters"]
 * (`simctl fault NAME drift counters:swp1.pfc-stats.3.rx-pause-frames=12`). */
#include <stdlib.h>
#include <string.h>

#include "nvue.h"

struct sub {
	const char *key, *title, *index;
	const char *cols[5];
	unsigned bytes;	   /* bit i: column i is shown with a byte unit */
	const char *extra; /* a JSON-only field, or NULL */
};

static const struct sub SUBS[] = {
    {"ingress-buffer-stats",
     "Ingress Buffer Statistics",
     "priority-group",
     {"rx-frames", "rx-buffer-discards", "rx-shared-buffer-discards"},
     6u,
     NULL},
    {"egress-queue-stats",
     "Egress Queue Statistics",
     "traffic-class",
     {"tx-frames", "tx-bytes", "tx-uc-buffer-discards", "wred-discards"},
     6u,
     "ecn-marked-frames"},
    {"pfc-stats",
     "PFC Statistics",
     "switch-priority",
     {"rx-pause-frames", "rx-pause-duration", "tx-pause-frames", "tx-pause-duration"},
     0u,
     NULL},
};
#define NSUBS ((int)(sizeof(SUBS) / sizeof(SUBS[0])))

static int ncols(const struct sub *s)
{
	int n = 0;
	while (n < 5 && s->cols[n])
		n++;
	return n;
}

static long long count(const cJSON *o, const char *key)
{
	const cJSON *v = jget1(o, key);
	return cJSON_IsNumber(v) ? (long long)v->valuedouble : 0;
}

cJSON *nv_counters_of(const struct sim_ctx *ctx, const char *ifname)
{
	cJSON *t = cJSON_CreateObject();
	for (int s = 0; s < NSUBS; s++) {
		cJSON *m = cJSON_AddObjectToObject(t, SUBS[s].key);
		for (int i = 0; i < 8; i++) {
			char k[12]; /* any int: -Wformat-truncation */
			snprintf(k, sizeof(k), "%d", i);
			cJSON *e = cJSON_AddObjectToObject(m, k);
			for (int c = 0; c < ncols(&SUBS[s]); c++)
				jput(e, SUBS[s].cols[c], cJSON_CreateNumber(0));
			if (SUBS[s].extra)
				jput(e, SUBS[s].extra, cJSON_CreateNumber(0));
		}
	}
	cJSON *ps = cJSON_AddObjectToObject(t, "port-stats");
	cJSON *rx = cJSON_AddObjectToObject(ps, "rx-stats");
	cJSON *tx = cJSON_AddObjectToObject(ps, "tx-stats");
	static const char *const rk[] = {"rx-frames", "rx-bytes", "rx-discards",
					 "rx-buffer-discards", "pause-frames"};
	static const char *const tk[] = {"tx-frames", "tx-bytes", "tx-discards",
					 "mc-buffer-discards", "pause-frames"};
	for (int j = 0; j < 5; j++) {
		jput(rx, rk[j], cJSON_CreateNumber(0));
		jput(tx, tk[j], cJSON_CreateNumber(0));
	}
	const cJSON *set = jget1(jget1(ctx->st, "counters"), ifname);
	jmerge(t, set, NULL, NULL);
	/* the port's marks are its classes' marks, unless set on their own */
	if (!jget1(jget1(jget1(set, "port-stats"), "tx-stats"), "ecn-marked-packets")) {
		long long sum = 0;
		const cJSON *e;
		cJSON_ArrayForEach(e, jget1(t, "egress-queue-stats")) sum +=
		    count(e, "ecn-marked-frames");
		jput(tx, "ecn-marked-packets", cJSON_CreateNumber((double)sum));
	}
	return t;
}

/* "0 Bytes", "75.19 KB": the reference's byte cells (1024-based). */
static void bytes_cell(char *buf, size_t len, long long v)
{
	static const char *const unit[] = {"KB", "MB", "GB", "TB"};
	double d = (double)v;
	int u = -1;
	if (v < 1024) {
		snprintf(buf, len, "%lld Bytes", v);
		return;
	}
	while (d >= 1024 && u < 3) {
		d /= 1024;
		u++;
	}
	snprintf(buf, len, "%.2f %s", d, unit[u]);
}

static void sub_table(struct sbuf *sb, const struct sub *s, const cJSON *m, int indent)
{
	struct table t;
	int n = ncols(s);
	table_init(&t, n + 1, s->index, s->cols[0], s->cols[1], s->cols[2],
		   n > 3 ? s->cols[3] : "");
	for (int i = 0; i < 8; i++) {
		char k[12], v[5][32]; /* k: any int */
		const char *cells[5] = {k, v[0], v[1], v[2], v[3]};
		snprintf(k, sizeof(k), "%d", i);
		const cJSON *e = jget1(m, k);
		for (int c = 0; c < n; c++) {
			if (s->bytes >> c & 1u)
				bytes_cell(v[c], sizeof(v[c]), count(e, s->cols[c]));
			else
				snprintf(v[c], sizeof(v[c]), "%lld", count(e, s->cols[c]));
		}
		table_rowv(&t, cells);
	}
	table_print(sb, &t, indent);
	table_free(&t);
}

/* Counter / Receive / Transmit; the combined view spells the rows as keys. */
static void port_table(struct sbuf *sb, const cJSON *ps, bool combined, int indent)
{
	static const char *const label[][2] = {{"ECN Marked Packets", "ecn-marked-packets"},
					       {"MC Buffer Discards", "mc-buffer-discards"},
					       {"Pause Frames", "pause-frames"}};
	const cJSON *tx = jget1(ps, "tx-stats"), *rx = jget1(ps, "rx-stats");
	struct table t;
	char a[24], b[24];
	table_init(&t, 3, "Counter", "Receive", "Transmit");
	snprintf(b, sizeof(b), "%lld", count(tx, "ecn-marked-packets"));
	table_row(&t, label[0][combined], "n/a", b);
	snprintf(b, sizeof(b), "%lld", count(tx, "mc-buffer-discards"));
	table_row(&t, label[1][combined], "n/a", b);
	snprintf(a, sizeof(a), "%lld", count(rx, "pause-frames"));
	snprintf(b, sizeof(b), "%lld", count(tx, "pause-frames"));
	table_row(&t, label[2][combined], a, b);
	table_print(sb, &t, indent);
	table_free(&t);
}

static void titled(struct sbuf *sb, const char *title)
{
	sb_addf(sb, "%s%s\n", sb->len ? "\n" : "", title);
	for (size_t i = 0; i < strlen(title) + 3; i++)
		sb_addc(sb, '=');
	sb_addc(sb, '\n');
}

int nv_show_counters(struct nv_cli *c, const char *ifname, int nw, char **w)
{
	static const char *const kinds[] = {"ingress-buffer-stats", "egress-queue-stats",
					    "pfc-stats", "port-stats"};
	if (nw < 1 || strcmp(w[0], "qos") != 0 || nw > 2)
		return nv_not_found(c);
	int k = nw == 2 ? match_word(w[1], kinds, 4) : -1;
	if (nw == 2 && k < 0)
		return nv_not_found(c);
	cJSON *cnt = nv_counters_of(c->ctx, ifname);
	struct sbuf sb;
	sb_init(&sb);
	if (c->fmt == FMT_JSON || c->fmt == FMT_YAML) {
		nv_print_json(c, k >= 0 ? jget1(cnt, kinds[k]) : cnt);
	} else if (k == 3) {
		port_table(&sb, jget1(cnt, "port-stats"), false, 0);
	} else if (k >= 0) {
		sub_table(&sb, &SUBS[k], jget1(cnt, kinds[k]), 0);
	} else {
		for (int s = 0; s < NSUBS; s++) {
			titled(&sb, SUBS[s].title);
			sub_table(&sb, &SUBS[s], jget1(cnt, SUBS[s].key), 4);
		}
		titled(&sb, "Qos Port Statistics");
		port_table(&sb, jget1(cnt, "port-stats"), true, 4);
	}
	fputs(sb_str(&sb), c->out);
	sb_free(&sb);
	cJSON_Delete(cnt);
	return 0;
}
