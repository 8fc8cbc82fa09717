/* SPDX-License-Identifier: Apache-2.0 */
/* NVUE read side: the qos tree and a port's interface qos tree -> struct port_qos.
 *
 * The tree has the same shape in every view (`nv show ... -o json`, GET /nvue_v1/...):
 * keys are CLI keywords, ids are object keys, set membership is an object of empty objects
 * (Cumulus Linux user guide, "NVUE API").  What the tree does not say is NVUE's default (NVUE
 * command reference, QoS), or
 * what RoCE mode programs when `qos roce` is on (Cumulus Linux RoCE page).  Anything else is
 * refused with the path where the output stopped making sense: the output is untrusted. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "nvue.h"
#include "switch_common.h"

#define DEFAULT_PROFILE	      "default-global"
#define PFC_DEFAULT_CABLE_M   10  /* Cumulus Linux QoS guide, PFC: PFC profiles */
#define ROCE_DEFAULT_CABLE_M  100 /* Cumulus Linux RoCE page */
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
	return rc_switch_name_ok(name, "._-");
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

/* on/off in every spelling NVUE releases use (Cumulus Linux "NVUE API"). */
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

/* "150000", 150000, "150000 B", "146.48 KB", "1.43 MB" (binary units, RoCE page, `nv show qos
 * roce`). */
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

/* RoCE mode as configured: `enable`/`state` is configuration, shown only in the applied
 * view (the `nv show qos roce` sample of the Cumulus Linux 5.18 RoCE page: `state ... enabled` has
 * a value in the applied column alone).  Returns 1 when the applied view says, 0 when it does not
 * (unknown: never taken as the factory "off"), <0 on a bad value. */
static int roce_configured(struct ctx *c, const cJSON *roce, bool *on)
{
	bool en = false, st = false;
	int r1, r2;

	*on = false;
	/* CL <= 5.14 `enable on|off`, CL 5.15+ `state enabled|disabled` */
	if ((r1 = get_onoff(c, roce, "enable", &en)) < 0)
		return r1;
	if ((r2 = get_onoff(c, roce, "state", &st)) < 0)
		return r2;
	*on = en || st;
	return r1 == 0 || r2 == 0;
}

/* The RoCE mode that runs (`mode` has an operational value in the same output), else the
 * configured one. */
static int roce_lossless(struct ctx *c, const cJSON *oper_roce, const cJSON *applied_roce,
			 bool *lossless)
{
	const cJSON *mode = kid(oper_roce, "mode");

	if (!mode)
		mode = kid(applied_roce, "mode");
	*lossless = true; /* `nv set qos roce` alone is lossless (Cumulus Linux 5.18 RoCE page,
			     "RoCE lossless") */
	if (!mode)
		return 0;
	if (!cJSON_IsString(mode))
		return bad(c, "mode", "a RoCE mode");
	*lossless = !strncmp(mode->valuestring, "lossless", 8);
	return 0;
}

/* Cumulus Linux RoCE page: what RoCE mode programs, under anything configured explicitly. */
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
	/* RoCE mode sizes headroom from `qos roce cable-length`, not from a profile's (its
	 * 10 m default included): Cumulus Linux 5.18 RoCE page, `qos roce cable-length` */
	if (!info->roce_mode)
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
	if (rc == 0 && !info->roce_mode)
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
			/* an entry's own defaults (QoS guide, Congestion Control (ECN): ECN on,
			 * 150000/1500000 B, 100 %) */
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
	/* `nv set interface <if> qos pfc-watchdog` alone turns it on (Cumulus Linux QoS guide, PFC)
	 */
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
 * what the ASIC was programmed with for this port, quantization included (RoCE page, `nv show qos
 * roce`, QoS guide, Congestion Control (ECN)). Only keys that are present override the profile's
 * values. */
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
	if (p && rc == 0 && !info->roce_mode)
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

/* A switch-priority set ({"3": {}}) of a traffic pool. */
static int pool_prios(struct ctx *c, const cJSON *pool, uint8_t *set)
{
	const cJSON *sps, *e;
	int rc;

	*set = 0;
	if ((rc = want_obj(c, pool, "switch-priority", &sps)) < 0)
		return rc;
	cJSON_ArrayForEach(e, sps)
	{
		int sp = id_of(c, e, RC_NPRIO - 1, "switch-priority");

		if (sp < 0)
			return sp;
		*set |= (uint8_t)(1u << sp);
	}
	return 0;
}

static int pool_read(struct ctx *c, const cJSON *pools, const char *name, bool *exists,
		     uint8_t *prios, uint32_t *pct)
{
	const cJSON *pool;
	uint64_t v = 0;
	int rc;

	snprintf(c->path, sizeof(c->path), "qos.traffic-pool");
	if ((rc = want_obj(c, pools, name, &pool)) < 0)
		return rc;
	*exists = pool != NULL;
	*prios = 0;
	*pct = 0;
	if (!pool)
		return 0;
	snprintf(c->path, sizeof(c->path), "qos.traffic-pool.%s", name);
	if ((rc = get_uint(c, pool, "memory-percent", 0, 100, false, &v)) < 0)
		return rc;
	*pct = (uint32_t)v;
	return pool_prios(c, pool, prios);
}

/* The traffic pools as configured (applied view; the documented `nv show qos traffic-pool
 * default-lossy` has an applied column only).  PFC needs its priorities in a lossless
 * pool: QoS guide "Flow Control Buffers" (Cumulus Linux 5.18, "Traffic Pools"): default-lossless
 * outside RoCE mode, roce-lossless in it, which RoCE lossless mode creates with SP 3 (the RoCE
 * page's "Default RoCE Configuration"). */
static int parse_pools(struct ctx *c, const cJSON *applied, bool roce_lossless,
		       struct nvue_port_info *info)
{
	const cJSON *pools;
	bool lossy_exists;
	int rc;

	snprintf(c->path, sizeof(c->path), "qos");
	if ((rc = want_obj(c, applied, "traffic-pool", &pools)) < 0)
		return rc;
	if ((rc = pool_read(c, pools, info->roce_mode ? "roce-lossless" : "default-lossless",
			    &info->lossless_pool_exists, &info->lossless_pool_prios,
			    &info->lossless_pool_pct)) < 0 ||
	    (rc = pool_read(c, pools, "default-lossy", &lossy_exists, &info->lossy_pool_prios,
			    &info->lossy_pool_pct)) < 0)
		return rc;
	if (!lossy_exists) { /* factory: 100 % and every priority (QoS guide, "Flow Control
				Buffers") */
		info->lossy_pool_prios = 0xff;
		info->lossy_pool_pct = 100;
	}
	if (info->roce_mode && roce_lossless && !info->lossless_pool_prios) {
		info->lossless_pool_exists = true;
		info->lossless_pool_prios = 1u << 3;
	}
	info->pools_read = true;
	return 0;
}

/* What a top-level key of the qos tree configures, in field groups. */
static uint32_t groups_of_key(const char *key)
{
	static const struct {
		const char *key;
		uint32_t groups;
	} map[] = {
	    {"roce", RC_F_TRUST | RC_F_DSCP2PRIO | RC_F_PRIO2TC | RC_F_PFC | RC_F_CABLE | RC_F_ECN |
			 RC_F_ETS},
	    {"mapping", RC_F_TRUST | RC_F_DSCP2PRIO},
	    {"pfc", RC_F_PFC | RC_F_CABLE},
	    {"traffic-pool", RC_F_PFC},
	    {"congestion-control", RC_F_ECN},
	    {"egress-scheduler", RC_F_ETS},
	    {"egress-queue-mapping", RC_F_PRIO2TC},
	    {"pfc-watchdog", RC_F_WATCHDOG},
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (key && !strcmp(key, map[i].key))
			return map[i].groups;
	return 0;
}

/* Groups whose qos subtree differs between two views. */
/* cJSON_Compare(a, b, true), without its cost: for an object it compares every member from
 * both sides, and each of those does the same below it, so an equal subtree at depth d was
 * compared 2^d times (cJSON 1.7.15 cJSON.c, cJSON_Compare, "doing this twice"): ~0.12 ms of
 * the controller's CPU per NVUE switch read (perf, 400 lab switches).  Here a's members are
 * compared with b's; b's need only be found in a, except a key's later duplicate in b, which
 * cJSON compares with a's first member of that key, as this does.  Leaves are cJSON's. */
static bool json_same(const cJSON *a, const cJSON *b)
{
	const cJSON *x, *y;

	if (!a || !b || (a->type & 0xFF) != (b->type & 0xFF))
		return false;
	if (cJSON_IsArray(a)) {
		for (x = a->child, y = b->child; x && y; x = x->next, y = y->next)
			if (!json_same(x, y))
				return false;
		return !x && !y;
	}
	if (!cJSON_IsObject(a))
		return cJSON_Compare(a, b, true);
	cJSON_ArrayForEach(x, a)
	{
		y = cJSON_GetObjectItemCaseSensitive(b, x->string);
		if (!y || !json_same(x, y))
			return false;
	}
	cJSON_ArrayForEach(y, b)
	{
		x = cJSON_GetObjectItemCaseSensitive(a, y->string);
		if (!x || (cJSON_GetObjectItemCaseSensitive(b, y->string) != y && !json_same(y, x)))
			return false;
	}
	return true;
}

static uint32_t differing_groups(const cJSON *a, const cJSON *b)
{
	const cJSON *e;
	uint32_t g = 0;

	cJSON_ArrayForEach(e, a) if (!json_same(e, kid(b, e->string))) g |=
	    groups_of_key(e->string);
	cJSON_ArrayForEach(e, b) if (!kid(a, e->string)) g |= groups_of_key(e->string);
	return g;
}

/* A reboot loads the startup configuration (`nv config apply` saves it only from CL 5.9,
 * or with `system config auto-save`: NVUE reference, "Config Commands", nv config apply):
 * what running has and startup lacks comes back as drift after a reload. */
uint32_t nvue_startup_groups(const cJSON *applied, const cJSON *startup)
{
	return differing_groups(applied, startup);
}

static void compare_startup(const struct nvue_views *v, const uint32_t *memo, struct port_qos *out,
			    struct nvue_port_info *info)
{
	uint32_t g;

	if (!v->startup || !v->applied) {
		out->effect.unverified |= RC_F_ALL & out->known;
		return;
	}
	g = (memo ? *memo : differing_groups(v->applied, v->startup)) & out->known;
	if (!g)
		return;
	info->startup_differs = true;
	rc_effect_drift(&out->effect, g,
			"running configuration differs from startup (not saved): a reboot "
			"would bring the startup one back");
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

static int read_roce(struct ctx *c, const struct nvue_views *v, struct port_qos *out,
		     struct nvue_port_info *info, bool *lossless)
{
	const cJSON *oroce = NULL, *aroce = NULL;
	uint64_t cable = ROCE_DEFAULT_CABLE_M;
	int rc;

	snprintf(c->path, sizeof(c->path), "qos");
	if ((rc = want_obj(c, v->oper, "roce", &oroce)) < 0)
		return rc;
	snprintf(c->path, sizeof(c->path), "applied qos");
	if ((rc = want_obj(c, v->applied, "roce", &aroce)) < 0)
		return rc;
	snprintf(c->path, sizeof(c->path), "applied qos.roce");
	if ((rc = roce_configured(c, aroce, &info->roce_mode)) < 0)
		return rc;
	info->roce_unknown = rc == 0;
	snprintf(c->path, sizeof(c->path), "qos.roce");
	if ((rc = roce_lossless(c, oroce, aroce, lossless)) < 0)
		return rc;
	info->roce_lossy = info->roce_mode && !*lossless;
	if (!info->roce_mode)
		return 0;
	roce_defaults(out, info, *lossless);
	/* configured value first, else what the operational view shows (the documented
	 * `nv show qos roce` has `pfc cable-length` in the operational column) */
	snprintf(c->path, sizeof(c->path), "applied qos.roce");
	if ((rc = get_uint(c, aroce, "cable-length", 1, 100000, false, &cable)) == 1) {
		snprintf(c->path, sizeof(c->path), "qos.roce");
		rc = get_uint(c, oroce, "cable-length", 1, 100000, false, &cable);
		if (rc == 1) {
			snprintf(c->path, sizeof(c->path), "qos.roce.pfc");
			rc = get_uint(c, kid(oroce, "pfc"), "cable-length", 1, 100000, false,
				      &cable);
		}
	}
	if (rc < 0)
		return rc;
	out->cable_length_m = (uint32_t)cable;
	return 0;
}

/* PFC on a priority no lossless pool carries is not lossless, whatever `nv show qos pfc`
 * says (Cumulus Linux 5.12 QoS guide, "Flow Control Buffers" and "PFC"): the effect is missing. */
static void check_pools(struct port_qos *out, const struct nvue_port_info *info)
{
	uint8_t bare;

	if (!info->pools_read) {
		out->effect.unverified |= RC_F_PFC;
		return;
	}
	bare = out->pfc_enabled & (uint8_t)~info->lossless_pool_prios;
	for (int p = 0; p < RC_NPRIO; p++)
		if (bare & (1u << p)) {
			rc_effect_drift(&out->effect, RC_F_PFC,
					"PFC on priority %d, which no lossless traffic pool "
					"carries (qos traffic-pool %s)",
					p, info->roce_mode ? "roce-lossless" : "default-lossless");
			break;
		}
}

int nvue_parse_port(const struct nvue_views *v, struct port_qos *out, struct nvue_port_info *info,
		    struct rc_err *err)
{
	return nvue_parse_port_with(v, NULL, out, info, err);
}

int nvue_parse_port_with(const struct nvue_views *v, const uint32_t *startup_groups,
			 struct port_qos *out, struct nvue_port_info *info, struct rc_err *err)
{
	struct ctx c = {.err = err};
	const cJSON *ifqos = v->ifqos;
	bool lossless;
	int rc;

	memset(out, 0, sizeof(*out));
	memset(info, 0, sizeof(*info));
	info->pfc_rx = info->pfc_tx =
	    true; /* what a new PFC profile gets (Cumulus Linux QoS guide, PFC) */
	if (!cJSON_IsObject(v->oper))
		return rc_errf(err, EPROTO, "unexpected NVUE output: qos is not an object");
	if (v->applied && !cJSON_IsObject(v->applied))
		return rc_errf(err, EPROTO, "unexpected NVUE output: applied qos is not an object");
	if (v->startup && !cJSON_IsObject(v->startup))
		return rc_errf(err, EPROTO, "unexpected NVUE output: startup qos is not an object");
	if (ifqos && !cJSON_IsObject(ifqos) && !cJSON_IsNull(ifqos))
		return rc_errf(err, EPROTO,
			       "unexpected NVUE output: interface qos is not an object");
	if (cJSON_IsNull(ifqos))
		ifqos = NULL;
	if ((rc = bindings(&c, ifqos, info)) < 0)
		return rc;

	/* NVUE's defaults first (NVUE reference, QoS) */
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

	if ((rc = read_roce(&c, v, out, info, &lossless)) < 0)
		return rc;
	snprintf(c.path, sizeof(c.path), "qos");
	if ((rc = parse_mapping(&c, v->oper, info->prof[NVUE_PROF_MAPPING], out)) < 0 ||
	    (rc = parse_prio2tc(&c, v->oper, out)) < 0 ||
	    (rc = parse_pfc(&c, v->oper, info->prof[NVUE_PROF_PFC], out, info)) < 0 ||
	    (rc = parse_ecn(&c, v->oper, info->prof[NVUE_PROF_CC], out)) < 0 ||
	    (rc = parse_sched(&c, v->oper, info->prof[NVUE_PROF_SCHED], out)) < 0 ||
	    (rc = parse_watchdog(&c, v->oper, ifqos, out, info)) < 0 ||
	    (rc = overlay_interface(&c, ifqos, out, info)) < 0)
		return rc;
	if (v->applied && (rc = parse_pools(&c, v->applied, lossless, info)) < 0)
		return rc;

	out->pfc_enabled = info->pfc_rx && info->pfc_tx ? info->pfc_prio_set : 0;
	info->cable_length_m = out->cable_length_m;
	out->dscp_mask = ~0ull;
	out->prio_mask = 0xff;
	out->ecn_tc_mask = 0xff;
	out->ets.tc_mask = 0xff;
	out->known = RC_F_TRUST | RC_F_DSCP2PRIO | RC_F_PRIO2TC | RC_F_PFC | RC_F_CABLE | RC_F_ECN |
		     RC_F_ETS | RC_F_WATCHDOG;
	/* switchd sizes headroom from the cable length itself (Cumulus Linux QoS guide, PFC): not
	 * ours to set */
	out->unsupported = RC_F_HEADROOM | RC_F_NIC_ECN | RC_F_CNP | RC_F_ROCE_TOS | RC_F_DCBX;
	if (info->roce_unknown) {
		/* which cable length and PFC defaults apply depends on RoCE mode: not known,
		 * so never taken as equal */
		out->known &= ~(uint32_t)(RC_F_PFC | RC_F_CABLE);
		out->effect.unverified |= RC_F_PFC | RC_F_CABLE;
	}
	check_pools(out, info);
	compare_startup(v, startup_groups, out, info);
	/* no public sample shows these views as JSON (neither the Cumulus Linux 5.18 guide nor the
	 * NVUE reference has one): `nv show qos -o json` and the interface qos tree are read by the
	 * documented CLI keywords, unverified */
	out->effect.unverified |= out->known;
	return 0;
}
