/* NVUE read side: the qos tree and a port's interface qos tree -> struct port_qos.
 *
 * The tree has the same shape in every view (`nv show ... -o json`, GET /nvue_v1/...):
 * keys are CLI keywords, ids are object keys, set membership is an object of empty objects
 * (switch-dialects.md §1.9).  What the tree does not say is NVUE's default (§1.4-1.6), or
 * what RoCE mode programs when `qos roce` is on (§1.2).  Anything else is refused with the
 * path where the output stopped making sense: the output is untrusted. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "nvue.h"

#define DEFAULT_PROFILE	      "default-global"
#define PFC_DEFAULT_CABLE_M   10  /* §1.5: PFC profiles */
#define ROCE_DEFAULT_CABLE_M  100 /* §1.2 */
#define WD_DEFAULT_POLL_MS    100
#define WD_DEFAULT_ROBUSTNESS 3
#define THRESH_MAX	      (1ull << 40) /* bytes: far beyond any switch buffer */

static const char *const prof_key[NVUE_PROF_N] = {
    [NVUE_PROF_MAPPING] = "mapping",
    [NVUE_PROF_PFC] = "pfc",
    [NVUE_PROF_CC] = "congestion-control",
    [NVUE_PROF_SCHED] = "egress-scheduler",
};

bool nvue_port_name_ok(const char *name)
{
	size_t n = name ? strnlen(name, RC_NAME_MAX) : 0;

	if (n < 1 || n >= RC_NAME_MAX)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = name[i];
		bool alnum =
		    (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');

		if (!alnum && (i == 0 || !strchr("._-", c)))
			return false;
	}
	return true;
}

void nvue_clean_text(const char *in, size_t in_len, char *out, size_t len)
{
	size_t o = 0;
	bool space = false;

	if (!len)
		return;
	for (size_t i = 0; in && i < in_len && o + 1 < len; i++) {
		unsigned char c = (unsigned char)in[i];

		if (c < 0x20 || c >= 0x7f || c == ' ') {
			/* runs of blanks, newlines and control bytes become one space */
			space = o > 0;
			continue;
		}
		if (space && o + 2 < len)
			out[o++] = ' ';
		space = false;
		out[o++] = (char)c;
	}
	out[o] = '\0';
}

int nvue_parse_json(const char *buf, size_t len, const char *what, cJSON **out, struct rc_err *err)
{
	const char *end = NULL;
	size_t at;

	*out = NULL;
	if (!buf || !len)
		return rc_errf(err, EPROTO, "%s: empty output where JSON was expected", what);
	*out = cJSON_ParseWithLengthOpts(buf, len, &end, 0);
	if (*out)
		return 0;
	at = end && end >= buf && end <= buf + len ? (size_t)(end - buf) : 0;
	/* cJSON stops at the last byte it could not use: the end means the text stopped */
	return rc_errf(err, EPROTO, "%s: output is not JSON (invalid at byte %zu of %zu%s)", what,
		       at, len, at + 1 >= len ? ", truncated?" : "");
}

int nvue_parse_json_seq(const char *buf, size_t len, const char *what, cJSON **docs, size_t n,
			struct rc_err *err)
{
	size_t off = 0;

	for (size_t i = 0; i < n; i++)
		docs[i] = NULL;
	for (size_t i = 0; i < n; i++) {
		const char *end = NULL;

		while (off < len && (buf[off] == ' ' || buf[off] == '\n' || buf[off] == '\r' ||
				     buf[off] == '\t'))
			off++;
		if (off >= len) {
			rc_errf(err, EPROTO, "%s: %zu JSON documents expected, the output has %zu",
				what, n, i);
			goto fail;
		}
		docs[i] = cJSON_ParseWithLengthOpts(buf + off, len - off, &end, 0);
		if (!docs[i]) {
			size_t at =
			    end && end >= buf + off && end <= buf + len ? (size_t)(end - buf) : off;

			rc_errf(err, EPROTO,
				"%s: document %zu is not JSON (invalid at byte %zu of %zu%s)", what,
				i + 1, at, len, at + 1 >= len ? ", truncated?" : "");
			goto fail;
		}
		off = (size_t)(end - buf);
	}
	while (off < len &&
	       (buf[off] == ' ' || buf[off] == '\n' || buf[off] == '\r' || buf[off] == '\t'))
		off++;
	if (off == len)
		return 0;
	rc_errf(err, EPROTO, "%s: unexpected output after %zu JSON documents (byte %zu of %zu)",
		what, n, off, len);
fail:
	for (size_t i = 0; i < n; i++) {
		cJSON_Delete(docs[i]);
		docs[i] = NULL;
	}
	return -EPROTO;
}

/* ---- values ---------------------------------------------------------------------------- */

struct ctx {
	struct rc_err *err;
	char path[256];
};

static int bad(struct ctx *c, const char *sub, const char *expected)
{
	return rc_errf(c->err, EPROTO, "unexpected NVUE output at %s%s%s: expected %s", c->path,
		       sub ? "." : "", sub ? sub : "", expected);
}

static const cJSON *kid(const cJSON *o, const char *key)
{
	return cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
}

/* An object, or absent (NULL); anything else is an error. */
static int want_obj(struct ctx *c, const cJSON *o, const char *key, const cJSON **out)
{
	const cJSON *k = kid(o, key);

	*out = NULL;
	if (!k || cJSON_IsNull(k))
		return 0;
	if (!cJSON_IsObject(k))
		return bad(c, key, "an object");
	*out = k;
	return 0;
}

/* on/off in every spelling NVUE releases use (§1.9 "version drift"). */
static int get_onoff(struct ctx *c, const cJSON *o, const char *key, bool *val)
{
	static const char *const on[] = {"on", "enable", "enabled", "yes", "true"};
	static const char *const off[] = {"off", "disable", "disabled", "no", "false"};
	const cJSON *k = kid(o, key);

	if (!k)
		return 1; /* absent: caller keeps its default */
	if (cJSON_IsBool(k)) {
		*val = cJSON_IsTrue(k);
		return 0;
	}
	if (!cJSON_IsString(k))
		return bad(c, key, "on/off");
	for (size_t i = 0; i < sizeof(on) / sizeof(on[0]); i++) {
		if (!strcmp(k->valuestring, on[i])) {
			*val = true;
			return 0;
		}
		if (!strcmp(k->valuestring, off[i])) {
			*val = false;
			return 0;
		}
	}
	return bad(c, key, "enable or disable");
}

/* "150000", 150000, "150000 B", "146.48 KB", "1.43 MB" (binary units, §1.3). */
static bool parse_size_text(const char *s, uint64_t *out)
{
	char *end;
	double v, mult = 1;

	while (*s == ' ')
		s++;
	if (!(*s >= '0' && *s <= '9'))
		return false;
	v = strtod(s, &end);
	while (*end == ' ')
		end++;
	if (!*end || !strcmp(end, "B"))
		mult = 1;
	else if (!strcmp(end, "KB"))
		mult = 1024;
	else if (!strcmp(end, "MB"))
		mult = 1024.0 * 1024;
	else if (!strcmp(end, "GB"))
		mult = 1024.0 * 1024 * 1024;
	else
		return false;
	v *= mult;
	if (!(v >= 0) || v > (double)THRESH_MAX)
		return false;
	*out = (uint64_t)(v + 0.5);
	return true;
}

static int get_uint(struct ctx *c, const cJSON *o, const char *key, uint64_t lo, uint64_t hi,
		    bool sizes, uint64_t *val)
{
	const cJSON *k = kid(o, key);
	char expected[96];
	uint64_t v;

	if (!k)
		return 1;
	snprintf(expected, sizeof(expected), "an integer in %llu..%llu%s", (unsigned long long)lo,
		 (unsigned long long)hi, sizes ? " (bytes)" : "");
	if (cJSON_IsNumber(k)) {
		double d = k->valuedouble;

		if (!(d >= (double)lo && d <= (double)hi) || d != (double)(uint64_t)d)
			return bad(c, key, expected);
		v = (uint64_t)d;
	} else if (cJSON_IsString(k)) {
		if (sizes) {
			if (!parse_size_text(k->valuestring, &v))
				return bad(c, key, expected);
		} else {
			char *end;
			unsigned long long u;

			if (!(k->valuestring[0] >= '0' && k->valuestring[0] <= '9'))
				return bad(c, key, expected);
			errno = 0;
			u = strtoull(k->valuestring, &end, 10);
			if (errno || (*end && strcmp(end, "%")))
				return bad(c, key, expected);
			v = u;
		}
		if (v < lo || v > hi)
			return bad(c, key, expected);
	} else {
		return bad(c, key, expected);
	}
	*val = v;
	return 0;
}

/* An object key that is a small decimal id ("0".."63"). */
static int id_of(struct ctx *c, const cJSON *item, int hi, const char *what)
{
	const char *s = item->string;
	long v = 0;

	if (!s || !*s || strlen(s) > 3)
		goto fail;
	for (const char *p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			goto fail;
		v = v * 10 + (*p - '0');
	}
	if (v <= hi && (s[0] != '0' || !s[1]))
		return (int)v;
fail:;
	char expected[64];

	snprintf(expected, sizeof(expected), "%s ids 0..%d", what, hi);
	bad(c, NULL, expected);
	return -EPROTO;
}

static void push_path(struct ctx *c, size_t *mark, const char *a, const char *b)
{
	size_t n = strlen(c->path);

	*mark = n;
	snprintf(c->path + n, sizeof(c->path) - n, "%s%s%s%s", n ? "." : "", a, b ? "." : "",
		 b ? b : "");
}

static void pop_path(struct ctx *c, size_t mark)
{
	c->path[mark] = '\0';
}

/* The path of one entry of a collection whose path ends at `mark`. */
static void entry_path(struct ctx *c, size_t mark, const cJSON *e)
{
	size_t ignored;

	pop_path(c, mark);
	push_path(c, &ignored, e->string, NULL);
	(void)ignored;
}

/* ---- groups ---------------------------------------------------------------------------- */

static bool roce_on(struct ctx *c, const cJSON *roce, bool *lossless, int *rc)
{
	bool on = false, st = false;
	const cJSON *mode = kid(roce, "mode");

	*rc = 0;
	*lossless = true;
	if (!roce)
		return false;
	/* CL <= 5.14 `enable on|off`, CL 5.15+ `state enabled|disabled` */
	if ((*rc = get_onoff(c, roce, "enable", &on)) < 0)
		return false;
	if ((*rc = get_onoff(c, roce, "state", &st)) < 0)
		return false;
	*rc = 0;
	if (cJSON_IsString(mode))
		*lossless = !strncmp(mode->valuestring, "lossless", 8);
	else if (mode)
		*rc = bad(c, "mode", "a RoCE mode");
	return on || st;
}

/* §1.2: what RoCE mode programs, under anything configured explicitly. */
static void roce_defaults(struct port_qos *q, struct nvue_port_info *info, bool lossless)
{
	q->trust = RC_TRUST_UNSET; /* pcp,dscp: neither alone */
	for (int p = 0; p < RC_NPRIO; p++)
		q->prio2tc[p] = 0;
	q->prio2tc[3] = 3;
	q->prio2tc[6] = 6;
	for (int t = 0; t < RC_NTC; t++) {
		q->ets.tsa[t] = RC_TSA_DWRR;
		q->ets.bw_pct[t] = 0;
	}
	q->ets.tsa[6] = RC_TSA_STRICT;
	q->ets.bw_pct[3] = 50;
	q->ets.bw_pct[0] = 50;
	q->ecn[0] = (struct rc_ecn_tc){true, 150000, 1500000, 100};
	q->ecn[3] = q->ecn[0];
	if (lossless) {
		info->pfc_prio_set = 1u << 3;
		info->pfc_rx = info->pfc_tx = true;
	}
}

static int parse_mapping_trust(struct ctx *c, const cJSON *m, struct port_qos *q)
{
	const cJSON *t = kid(m, "trust");

	if (!t)
		return 0;
	if (!cJSON_IsString(t))
		return bad(c, "trust", "l2, l3, both or port");
	if (!strcmp(t->valuestring, "l3"))
		q->trust = RC_TRUST_DSCP;
	else if (!strcmp(t->valuestring, "l2"))
		q->trust = RC_TRUST_PCP;
	else if (!strcmp(t->valuestring, "both") || !strcmp(t->valuestring, "port") ||
		 !strcmp(t->valuestring, "pcp,dscp"))
		q->trust = RC_TRUST_UNSET; /* neither DSCP nor PCP alone */
	else
		return bad(c, "trust", "l2, l3, both or port");
	return 0;
}

static int parse_mapping(struct ctx *c, const cJSON *qos, const char *prof, struct port_qos *q)
{
	const cJSON *mapping, *m, *dscp, *e;
	size_t mark;
	int rc;

	if ((rc = want_obj(c, qos, "mapping", &mapping)) < 0)
		return rc;
	push_path(c, &mark, "mapping", prof);
	if ((rc = want_obj(c, mapping, prof, &m)) < 0)
		goto out;
	if ((rc = parse_mapping_trust(c, m, q)) < 0)
		goto out;
	if ((rc = want_obj(c, m, "dscp", &dscp)) < 0)
		goto out;
	{
		size_t m2;

		push_path(c, &m2, "dscp", NULL);
		m2 = strlen(c->path);
		cJSON_ArrayForEach(e, dscp)
		{
			uint64_t sp;
			int d = id_of(c, e, RC_NDSCP - 1, "DSCP");

			if (d < 0) {
				rc = d;
				goto out;
			}
			if (!cJSON_IsObject(e)) {
				rc = bad(c, e->string, "an object");
				goto out;
			}
			entry_path(c, m2, e);
			rc = get_uint(c, e, "switch-priority", 0, RC_NPRIO - 1, false, &sp);
			if (rc < 0)
				goto out;
			if (rc == 0)
				q->dscp2prio[d] = (uint8_t)sp;
			rc = 0;
		}
	}
out:
	pop_path(c, mark);
	return rc;
}

static int parse_prio2tc(struct ctx *c, const cJSON *qos, struct port_qos *q)
{
	const cJSON *eqm, *g, *sps, *e;
	size_t mark, m2;
	int rc;

	if ((rc = want_obj(c, qos, "egress-queue-mapping", &eqm)) < 0)
		return rc;
	push_path(c, &mark, "egress-queue-mapping", DEFAULT_PROFILE);
	if ((rc = want_obj(c, eqm, DEFAULT_PROFILE, &g)) < 0 ||
	    (rc = want_obj(c, g, "switch-priority", &sps)) < 0)
		goto out;
	push_path(c, &m2, "switch-priority", NULL);
	m2 = strlen(c->path);
	cJSON_ArrayForEach(e, sps)
	{
		uint64_t tc;
		int sp = id_of(c, e, RC_NPRIO - 1, "switch-priority");

		if (sp < 0) {
			rc = sp;
			goto out;
		}
		entry_path(c, m2, e);
		rc = get_uint(c, e, "traffic-class", 0, RC_NTC - 1, false, &tc);
		if (rc < 0)
			goto out;
		if (rc == 0)
			q->prio2tc[sp] = (uint8_t)tc;
		rc = 0;
	}
out:
	pop_path(c, mark);
	return rc;
}

static int parse_pfc(struct ctx *c, const cJSON *qos, const char *prof, struct port_qos *q,
		     struct nvue_port_info *info)
{
	const cJSON *pfc, *p, *sps, *e;
	uint64_t cable;
	size_t mark;
	int rc;

	if ((rc = want_obj(c, qos, "pfc", &pfc)) < 0)
		return rc;
	push_path(c, &mark, "pfc", prof);
	if ((rc = want_obj(c, pfc, prof, &p)) < 0 || !p)
		goto out;
	info->pfc_profile_exists = true;
	info->pfc_prio_set = 0;
	info->pfc_rx = info->pfc_tx = true;
	q->cable_length_m = PFC_DEFAULT_CABLE_M;
	if ((rc = want_obj(c, p, "switch-priority", &sps)) < 0)
		goto out;
	cJSON_ArrayForEach(e, sps)
	{
		int sp = id_of(c, e, RC_NPRIO - 1, "switch-priority");

		if (sp < 0) {
			rc = sp;
			goto out;
		}
		info->pfc_prio_set |= (uint8_t)(1u << sp);
	}
	if ((rc = get_onoff(c, p, "rx", &info->pfc_rx)) < 0 ||
	    (rc = get_onoff(c, p, "tx", &info->pfc_tx)) < 0)
		goto out;
	rc = get_uint(c, p, "cable-length", 1, 100000, false, &cable);
	if (rc < 0)
		goto out;
	if (rc == 0)
		q->cable_length_m = (uint32_t)cable;
	rc = 0;
out:
	pop_path(c, mark);
	return rc;
}

static int parse_ecn(struct ctx *c, const cJSON *qos, const char *prof, struct port_qos *q)
{
	const cJSON *cc, *p, *tcs, *e;
	size_t mark;
	int rc;

	if ((rc = want_obj(c, qos, "congestion-control", &cc)) < 0)
		return rc;
	push_path(c, &mark, "congestion-control", prof);
	if ((rc = want_obj(c, cc, prof, &p)) < 0 ||
	    (rc = want_obj(c, p, "traffic-class", &tcs)) < 0)
		goto out;
	{
		size_t m2;

		push_path(c, &m2, "traffic-class", NULL);
		m2 = strlen(c->path);
		cJSON_ArrayForEach(e, tcs)
		{
			/* an entry's own defaults (§1.6: ECN on, 150000/1500000 B, 100 %) */
			struct rc_ecn_tc t = {true, 150000, 1500000, 100};
			uint64_t v;
			int tc = id_of(c, e, RC_NTC - 1, "traffic-class");

			if (tc < 0) {
				rc = tc;
				goto out;
			}
			if (!cJSON_IsObject(e)) {
				rc = bad(c, e->string, "an object");
				goto out;
			}
			entry_path(c, m2, e);
			if ((rc = get_onoff(c, e, "ecn", &t.enabled)) < 0)
				goto out;
			if ((rc = get_uint(c, e, "min-threshold", 1, THRESH_MAX, true, &v)) < 0)
				goto out;
			if (rc == 0)
				t.kmin_bytes = v;
			if ((rc = get_uint(c, e, "max-threshold", 1, THRESH_MAX, true, &v)) < 0)
				goto out;
			if (rc == 0)
				t.kmax_bytes = v;
			if ((rc = get_uint(c, e, "probability", 0, 100, false, &v)) < 0)
				goto out;
			if (rc == 0)
				t.pmax_pct = (double)v;
			rc = 0;
			q->ecn[tc] = t;
		}
	}
out:
	pop_path(c, mark);
	return rc;
}

static int parse_sched(struct ctx *c, const cJSON *qos, const char *prof, struct port_qos *q)
{
	const cJSON *es, *p, *tcs, *e;
	size_t mark, m2;
	int rc;

	if ((rc = want_obj(c, qos, "egress-scheduler", &es)) < 0)
		return rc;
	push_path(c, &mark, "egress-scheduler", prof);
	if ((rc = want_obj(c, es, prof, &p)) < 0 ||
	    (rc = want_obj(c, p, "traffic-class", &tcs)) < 0)
		goto out;
	push_path(c, &m2, "traffic-class", NULL);
	m2 = strlen(c->path);
	cJSON_ArrayForEach(e, tcs)
	{
		const cJSON *mode;
		uint64_t bw;
		int tc = id_of(c, e, RC_NTC - 1, "traffic-class");

		if (tc < 0) {
			rc = tc;
			goto out;
		}
		entry_path(c, m2, e);
		mode = kid(e, "mode");
		if (mode) {
			if (cJSON_IsString(mode) && !strcmp(mode->valuestring, "strict"))
				q->ets.tsa[tc] = RC_TSA_STRICT;
			else if (cJSON_IsString(mode) && !strcmp(mode->valuestring, "dwrr"))
				q->ets.tsa[tc] = RC_TSA_DWRR;
			else {
				rc = bad(c, "mode", "dwrr or strict");
				goto out;
			}
		}
		rc = get_uint(c, e, "bw-percent", 0, 100, false, &bw);
		if (rc < 0)
			goto out;
		if (rc == 0)
			q->ets.bw_pct[tc] = (uint8_t)bw;
		rc = 0;
	}
out:
	pop_path(c, mark);
	return rc;
}

static int parse_watchdog(struct ctx *c, const cJSON *qos, const cJSON *ifqos, struct port_qos *q,
			  struct nvue_port_info *info)
{
	const cJSON *g, *w;
	uint64_t v;
	int rc;

	info->wd_polling_ms = WD_DEFAULT_POLL_MS;
	info->wd_robustness = WD_DEFAULT_ROBUSTNESS;
	snprintf(c->path, sizeof(c->path), "qos");
	if ((rc = want_obj(c, qos, "pfc-watchdog", &g)) < 0)
		return rc;
	snprintf(c->path, sizeof(c->path), "qos.pfc-watchdog");
	if ((rc = get_uint(c, g, "polling-interval", NVUE_WD_POLL_MIN, NVUE_WD_POLL_MAX, false,
			   &v)) < 0)
		return rc;
	if (rc == 0)
		info->wd_polling_ms = (uint32_t)v;
	if ((rc = get_uint(c, g, "robustness", NVUE_WD_ROBUST_MIN, NVUE_WD_ROBUST_MAX, false, &v)) <
	    0)
		return rc;
	if (rc == 0)
		info->wd_robustness = (uint32_t)v;
	snprintf(c->path, sizeof(c->path), "interface qos");
	if ((rc = want_obj(c, ifqos, "pfc-watchdog", &w)) < 0)
		return rc;
	/* `nv set interface <if> qos pfc-watchdog` alone turns it on (§1.5) */
	q->watchdog.enabled = w != NULL;
	snprintf(c->path, sizeof(c->path), "interface qos.pfc-watchdog");
	if (w && (rc = get_onoff(c, w, "state", &q->watchdog.enabled)) < 0)
		return rc;
	/* NVUE has one timer: a queue is declared stalled, and released again, after
	 * `robustness` polling intervals; the action is always to drop. */
	q->watchdog.detection_ms = info->wd_polling_ms * info->wd_robustness;
	q->watchdog.restoration_ms = q->watchdog.detection_ms;
	q->watchdog.action = RC_WD_DROP;
	q->watchdog.fixed = RC_WD_FIXED_RESTORATION | RC_WD_FIXED_ACTION;
	return 0;
}

/* The interface's own operational view, where NVUE shows one (`nv show interface <if> qos`):
 * what the ASIC was programmed with for this port, quantization included (§1.3, §1.6).
 * Only keys that are present override the profile's values. */
static int overlay_interface(struct ctx *c, const cJSON *ifqos, struct port_qos *q,
			     struct nvue_port_info *info)
{
	const cJSON *m, *p, *cc, *tcs, *e, *sps;
	size_t m2;
	uint64_t v;
	int rc;

	snprintf(c->path, sizeof(c->path), "interface qos");
	if ((rc = want_obj(c, ifqos, "mapping", &m)) < 0 ||
	    (rc = want_obj(c, ifqos, "pfc", &p)) < 0 ||
	    (rc = want_obj(c, ifqos, "congestion-control", &cc)) < 0)
		return rc;
	if (m && kid(m, "trust")) {
		snprintf(c->path, sizeof(c->path), "interface qos");
		if ((rc = parse_mapping_trust(c, m, q)) < 0)
			return rc;
	}
	snprintf(c->path, sizeof(c->path), "interface qos.pfc");
	if (p && (rc = want_obj(c, p, "switch-priority", &sps)) < 0)
		return rc;
	if (p && sps) {
		info->pfc_prio_set = 0;
		cJSON_ArrayForEach(e, sps)
		{
			int sp = id_of(c, e, RC_NPRIO - 1, "switch-priority");

			if (sp < 0)
				return sp;
			info->pfc_prio_set |= (uint8_t)(1u << sp);
		}
	}
	if (p && ((rc = get_onoff(c, p, "rx", &info->pfc_rx)) < 0 ||
		  (rc = get_onoff(c, p, "tx", &info->pfc_tx)) < 0))
		return rc;
	if (p && (rc = get_uint(c, p, "cable-length", 1, 100000, false, &v)) < 0)
		return rc;
	if (p && rc == 0)
		q->cable_length_m = (uint32_t)v;
	snprintf(c->path, sizeof(c->path), "interface qos.congestion-control");
	if ((rc = want_obj(c, cc, "traffic-class", &tcs)) < 0)
		return rc;
	snprintf(c->path, sizeof(c->path), "interface qos.congestion-control.traffic-class");
	m2 = strlen(c->path);
	cJSON_ArrayForEach(e, tcs)
	{
		int tc = id_of(c, e, RC_NTC - 1, "traffic-class");
		struct rc_ecn_tc *t;

		if (tc < 0)
			return tc;
		if (!cJSON_IsObject(e))
			return bad(c, e->string, "an object");
		entry_path(c, m2, e);
		t = &q->ecn[tc];
		if ((rc = get_onoff(c, e, "ecn", &t->enabled)) < 0)
			return rc;
		if ((rc = get_uint(c, e, "min-threshold", 1, THRESH_MAX, true, &v)) < 0)
			return rc;
		if (rc == 0)
			t->kmin_bytes = v;
		if ((rc = get_uint(c, e, "max-threshold", 1, THRESH_MAX, true, &v)) < 0)
			return rc;
		if (rc == 0)
			t->kmax_bytes = v;
		if ((rc = get_uint(c, e, "probability", 0, 100, false, &v)) < 0)
			return rc;
		if (rc == 0)
			t->pmax_pct = (double)v;
	}
	return 0;
}

static int bindings(struct ctx *c, const cJSON *ifqos, struct nvue_port_info *info)
{
	snprintf(c->path, sizeof(c->path), "interface qos");
	for (int k = 0; k < NVUE_PROF_N; k++) {
		const cJSON *b, *p;
		int rc = want_obj(c, ifqos, prof_key[k], &b);

		snprintf(info->prof[k], sizeof(info->prof[k]), DEFAULT_PROFILE);
		if (rc < 0)
			return rc;
		p = kid(b, "profile");
		if (!p || cJSON_IsNull(p))
			continue;
		/* a profile name goes back into commands and URLs: same rules as a port */
		if (!cJSON_IsString(p) || !nvue_port_name_ok(p->valuestring))
			return bad(c, prof_key[k], "a profile name");
		snprintf(info->prof[k], sizeof(info->prof[k]), "%s", p->valuestring);
	}
	return 0;
}

int nvue_parse_port(const cJSON *qos, const cJSON *ifqos, struct port_qos *out,
		    struct nvue_port_info *info, struct rc_err *err)
{
	struct ctx c = {.err = err};
	const cJSON *roce = NULL;
	bool lossless;
	int rc;

	memset(out, 0, sizeof(*out));
	memset(info, 0, sizeof(*info));
	info->pfc_rx = info->pfc_tx = true; /* what a new PFC profile gets (§1.5) */
	if (!cJSON_IsObject(qos))
		return rc_errf(err, EPROTO, "unexpected NVUE output: qos is not an object");
	if (ifqos && !cJSON_IsObject(ifqos) && !cJSON_IsNull(ifqos))
		return rc_errf(err, EPROTO,
			       "unexpected NVUE output: interface qos is not an object");
	if (cJSON_IsNull(ifqos))
		ifqos = NULL;
	if ((rc = bindings(&c, ifqos, info)) < 0)
		return rc;

	/* NVUE's defaults first (§1.4-1.6) */
	out->trust = RC_TRUST_PCP; /* default-global trusts l2 */
	for (int d = 0; d < RC_NDSCP; d++)
		out->dscp2prio[d] = (uint8_t)(d >> 3);
	for (int p = 0; p < RC_NPRIO; p++)
		out->prio2tc[p] = (uint8_t)p;
	for (int t = 0; t < RC_NTC; t++) {
		out->ets.tsa[t] = RC_TSA_DWRR;
		out->ets.bw_pct[t] = (t & 1) ? 13 : 12;
	}
	out->cable_length_m = PFC_DEFAULT_CABLE_M;

	snprintf(c.path, sizeof(c.path), "qos");
	if ((rc = want_obj(&c, qos, "roce", &roce)) < 0)
		return rc;
	snprintf(c.path, sizeof(c.path), "qos.roce");
	info->roce_mode = roce_on(&c, roce, &lossless, &rc);
	if (rc < 0)
		return rc;
	if (info->roce_mode) {
		uint64_t cable = ROCE_DEFAULT_CABLE_M;

		roce_defaults(out, info, lossless);
		if ((rc = get_uint(&c, roce, "cable-length", 1, 100000, false, &cable)) < 0)
			return rc;
		out->cable_length_m = (uint32_t)cable;
	}

	snprintf(c.path, sizeof(c.path), "qos");
	if ((rc = parse_mapping(&c, qos, info->prof[NVUE_PROF_MAPPING], out)) < 0 ||
	    (rc = parse_prio2tc(&c, qos, out)) < 0 ||
	    (rc = parse_pfc(&c, qos, info->prof[NVUE_PROF_PFC], out, info)) < 0 ||
	    (rc = parse_ecn(&c, qos, info->prof[NVUE_PROF_CC], out)) < 0 ||
	    (rc = parse_sched(&c, qos, info->prof[NVUE_PROF_SCHED], out)) < 0 ||
	    (rc = parse_watchdog(&c, qos, ifqos, out, info)) < 0 ||
	    (rc = overlay_interface(&c, ifqos, out, info)) < 0)
		return rc;

	out->pfc_enabled = info->pfc_rx && info->pfc_tx ? info->pfc_prio_set : 0;
	info->cable_length_m = out->cable_length_m;
	out->dscp_mask = ~0ull;
	out->prio_mask = 0xff;
	out->ecn_tc_mask = 0xff;
	out->ets.tc_mask = 0xff;
	out->known = RC_F_TRUST | RC_F_DSCP2PRIO | RC_F_PRIO2TC | RC_F_PFC | RC_F_CABLE | RC_F_ECN |
		     RC_F_ETS | RC_F_WATCHDOG;
	/* switchd sizes headroom from the cable length itself (§1.5): not ours to set */
	out->unsupported = RC_F_HEADROOM | RC_F_NIC_ECN | RC_F_CNP | RC_F_ROCE_TOS | RC_F_DCBX;
	return 0;
}
