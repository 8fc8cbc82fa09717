/* SPDX-License-Identifier: Apache-2.0 */
/* struct port_qos <-> JSON, for the journal and for the agent's --json output.
 *
 * Only the groups in `known` (and the `unsupported` mask) are written, so a journaled
 * state restores exactly what was read and nothing that was not.  The reader is strict:
 * a journal is trusted only as far as it parses. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "rocectl/journal.h"

static cJSON *prio_list(uint8_t mask)
{
	cJSON *a = cJSON_CreateArray();

	for (int p = 0; a && p < RC_NPRIO; p++)
		if (mask & (1u << p))
			cJSON_AddItemToArray(a, cJSON_CreateNumber(p));
	return a;
}

static void add_ecn(cJSON *o, const struct port_qos *q)
{
	cJSON *arr = cJSON_AddArrayToObject(o, "ecn");

	for (int t = 0; arr && t < RC_NTC; t++) {
		cJSON *e;

		if (!(q->ecn_tc_mask & (1u << t)))
			continue;
		e = cJSON_CreateObject();
		cJSON_AddNumberToObject(e, "tc", t);
		cJSON_AddBoolToObject(e, "enabled", q->ecn[t].enabled);
		cJSON_AddNumberToObject(e, "kmin_bytes", (double)q->ecn[t].kmin_bytes);
		cJSON_AddNumberToObject(e, "kmax_bytes", (double)q->ecn[t].kmax_bytes);
		cJSON_AddNumberToObject(e, "pmax_pct", q->ecn[t].pmax_pct);
		cJSON_AddItemToArray(arr, e);
	}
}

static void add_map(cJSON *o, const char *key, uint64_t mask, const uint8_t *vals, int n)
{
	cJSON *m = cJSON_AddObjectToObject(o, key);
	char k[8];

	for (int i = 0; m && i < n; i++) {
		if (!(mask & (1ull << i)))
			continue;
		snprintf(k, sizeof(k), "%d", i);
		cJSON_AddNumberToObject(m, k, vals[i]);
	}
}

/* "reasons": [{"groups", "why"}], each reason of "why" with the groups it is about (absent
 * from a state whose reasons have no groups: "why" is then about every group). */
static void add_reasons(cJSON *j, const struct rc_effect *e)
{
	cJSON *arr;

	if (!e->n_why)
		return;
	arr = cJSON_AddArrayToObject(j, "reasons");
	for (size_t i = 0; arr && i < rc_effect_n_reasons(e); i++) {
		cJSON *r = cJSON_CreateObject();
		char text[RC_WHY_LEN];
		uint32_t groups;
		size_t a, b;

		if (!r)
			return;
		rc_effect_reason_at(e, i, &groups, &a, &b);
		snprintf(text, sizeof(text), "%.*s", (int)(b - a), e->why + a);
		cJSON_AddNumberToObject(r, "groups", groups);
		cJSON_AddStringToObject(r, "why", text);
		cJSON_AddItemToArray(arr, r);
	}
}

/* What the driver saw beyond the values; only when it saw something. */
static void add_effect(cJSON *o, const struct rc_effect *e)
{
	cJSON *j;

	if (!e->drift && !e->inert && !e->unverified && !e->warn && !e->why[0])
		return;
	j = cJSON_AddObjectToObject(o, "effect");
	cJSON_AddNumberToObject(j, "drift", e->drift);
	cJSON_AddNumberToObject(j, "inert", e->inert);
	cJSON_AddNumberToObject(j, "unverified", e->unverified);
	cJSON_AddNumberToObject(j, "warn", e->warn);
	cJSON_AddStringToObject(j, "why", e->why);
	add_reasons(j, e);
}

cJSON *rc_port_qos_to_cjson(const struct port_qos *q)
{
	cJSON *o = cJSON_CreateObject();
	uint32_t k = q->known;

	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "known", k);
	cJSON_AddNumberToObject(o, "unsupported", q->unsupported);
	if (k & RC_F_TRUST)
		cJSON_AddStringToObject(o, "trust", rc_trust_name(q->trust));
	if (k & RC_F_DSCP2PRIO)
		add_map(o, "dscp2prio", q->dscp_mask, q->dscp2prio, RC_NDSCP);
	if ((k & RC_F_DSCP2PRIO) && q->dscp_entries_known) {
		cJSON *e = cJSON_AddArrayToObject(o, "dscp_entries");

		for (int d = 0; e && d < RC_NDSCP; d++)
			if (q->dscp_entries & (1ull << d))
				cJSON_AddItemToArray(e, cJSON_CreateNumber(d));
	}
	if (k & RC_F_PRIO2TC)
		add_map(o, "prio2tc", q->prio_mask, q->prio2tc, RC_NPRIO);
	if (k & RC_F_PFC)
		cJSON_AddItemToObject(o, "pfc_enabled", prio_list(q->pfc_enabled));
	if (k & RC_F_CABLE)
		cJSON_AddNumberToObject(o, "cable_length_m", q->cable_length_m);
	if (k & RC_F_ECN)
		add_ecn(o, q);
	if (k & RC_F_HEADROOM) {
		cJSON *h = cJSON_AddObjectToObject(o, "headroom_bytes");
		char key[4];

		for (int p = 0; h && p < RC_NPRIO; p++) {
			if (!(q->headroom_mask & (1u << p)))
				continue;
			snprintf(key, sizeof(key), "%d", p);
			cJSON_AddNumberToObject(h, key, (double)q->headroom_bytes[p]);
		}
	}
	if (k & RC_F_ETS) {
		cJSON *arr = cJSON_AddArrayToObject(o, "ets");

		for (int t = 0; arr && t < RC_NTC; t++) {
			cJSON *e;

			if (!(q->ets.tc_mask & (1u << t)))
				continue;
			e = cJSON_CreateObject();
			cJSON_AddNumberToObject(e, "tc", t);
			cJSON_AddStringToObject(e, "tsa", rc_tsa_name(q->ets.tsa[t]));
			cJSON_AddNumberToObject(e, "bw_pct", q->ets.bw_pct[t]);
			cJSON_AddItemToArray(arr, e);
		}
	}
	if (k & RC_F_WATCHDOG) {
		cJSON *w = cJSON_AddObjectToObject(o, "watchdog");

		cJSON_AddBoolToObject(w, "enabled", q->watchdog.enabled);
		cJSON_AddNumberToObject(w, "detection_ms", q->watchdog.detection_ms);
		cJSON_AddNumberToObject(w, "restoration_ms", q->watchdog.restoration_ms);
		cJSON_AddStringToObject(w, "action",
					q->watchdog.action == RC_WD_FORWARD ? "forward" : "drop");
		if (q->watchdog.fixed)
			cJSON_AddNumberToObject(w, "fixed", q->watchdog.fixed);
	}
	if (k & RC_F_MTU)
		cJSON_AddNumberToObject(o, "mtu", q->mtu);
	if (k & RC_F_SPEED)
		cJSON_AddNumberToObject(o, "speed_gbps", q->speed_gbps);
	if (k & RC_F_NIC_ECN) {
		cJSON *n = cJSON_AddObjectToObject(o, "nic_ecn");

		cJSON_AddItemToObject(n, "priorities", prio_list(q->nic_ecn_prio_mask));
		cJSON_AddItemToObject(n, "np", prio_list(q->nic_ecn_np));
		cJSON_AddItemToObject(n, "rp", prio_list(q->nic_ecn_rp));
	}
	if (k & RC_F_CNP) {
		cJSON *c = cJSON_AddObjectToObject(o, "cnp");

		cJSON_AddNumberToObject(c, "dscp", q->cnp_dscp);
		cJSON_AddNumberToObject(c, "prio", q->cnp_prio);
	}
	if (k & RC_F_DCQCN) {
		cJSON *c = cJSON_AddObjectToObject(o, "dcqcn");

		/* Only the parameters read (or pinned): a restore writes nothing else. */
		for (int i = 0; c && i < RC_DCQCN_N; i++)
			if (q->dcqcn_mask & (1u << i))
				cJSON_AddNumberToObject(c, rc_dcqcn_name(i), q->dcqcn[i]);
	}
	if (k & RC_F_ROCE_TOS)
		cJSON_AddNumberToObject(o, "roce_tos", q->roce_tos);
	if (k & RC_F_DCBX)
		cJSON_AddStringToObject(o, "dcbx", q->dcbx_host ? "host" : "firmware");
	if (q->headroom_is_min)
		cJSON_AddBoolToObject(o, "headroom_is_min", true);
	/* a journaled state whose headroom the device derived is restored as derived (the
	 * override is taken off), not as an override of the bytes it had */
	if (q->headroom_derived)
		cJSON_AddNumberToObject(o, "headroom_derived", q->headroom_derived);
	add_effect(o, &q->effect);
	return o;
}

char *rc_port_qos_to_json(const struct port_qos *q)
{
	cJSON *o = rc_port_qos_to_cjson(q);
	char *s = o ? cJSON_PrintUnformatted(o) : NULL;

	cJSON_Delete(o);
	return s;
}

/* --- reading back --- */

struct rd {
	struct rc_err *err;
	int rc;
};

static int bad(struct rd *r, const char *what)
{
	if (!r->rc)
		r->rc = rc_errf(r->err, EINVAL, "malformed port state: %s", what);
	return r->rc;
}

static double num(struct rd *r, const cJSON *o, const char *key, double lo, double hi)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < lo ||
	    v->valuedouble > hi) {
		bad(r, key);
		return lo;
	}
	return v->valuedouble;
}

static uint8_t prio_mask_of(struct rd *r, const cJSON *a)
{
	const cJSON *v;
	uint8_t m = 0;

	if (!cJSON_IsArray(a)) {
		bad(r, "priority list");
		return 0;
	}
	cJSON_ArrayForEach(v, a)
	{
		if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble >= RC_NPRIO) {
			bad(r, "priority");
			return 0;
		}
		m |= 1u << (int)v->valuedouble;
	}
	return m;
}

static uint64_t read_map(struct rd *r, const cJSON *m, uint8_t *vals, int n, int vmax)
{
	const cJSON *v;
	uint64_t mask = 0;

	if (!cJSON_IsObject(m)) {
		bad(r, "map");
		return 0;
	}
	cJSON_ArrayForEach(v, m)
	{
		char *end;
		long i = strtol(v->string, &end, 10);

		if (*end || i < 0 || i >= n || !cJSON_IsNumber(v) || v->valuedouble < 0 ||
		    v->valuedouble > vmax) {
			bad(r, "map entry");
			return 0;
		}
		vals[i] = (uint8_t)v->valuedouble;
		mask |= 1ull << i;
	}
	return mask;
}

/* "dscp_entries": [26, 48] (optional: journals written before it have none). */
static void read_entries(struct rd *r, const cJSON *a, struct port_qos *q)
{
	const cJSON *v;

	if (!a)
		return;
	if (!cJSON_IsArray(a)) {
		bad(r, "dscp_entries");
		return;
	}
	cJSON_ArrayForEach(v, a)
	{
		if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble >= RC_NDSCP ||
		    v->valuedouble != (double)(int)v->valuedouble) {
			bad(r, "dscp_entries entry");
			return;
		}
		q->dscp_entries |= 1ull << (int)v->valuedouble;
	}
	q->dscp_entries_known = true;
}

static enum rc_tsa tsa_of(const char *s)
{
	if (!s)
		return RC_TSA_UNSET;
	if (!strcmp(s, "strict"))
		return RC_TSA_STRICT;
	if (!strcmp(s, "dwrr"))
		return RC_TSA_DWRR;
	if (!strcmp(s, "vendor"))
		return RC_TSA_VENDOR;
	return RC_TSA_UNSET;
}

static void read_ecn(struct rd *r, const cJSON *arr, struct port_qos *q)
{
	const cJSON *e;

	if (!cJSON_IsArray(arr)) {
		bad(r, "ecn");
		return;
	}
	cJSON_ArrayForEach(e, arr)
	{
		int t = (int)num(r, e, "tc", 0, RC_NTC - 1);

		q->ecn_tc_mask |= 1u << t;
		q->ecn[t].enabled = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "enabled"));
		q->ecn[t].kmin_bytes = (uint64_t)num(r, e, "kmin_bytes", 0, 1e15);
		q->ecn[t].kmax_bytes = (uint64_t)num(r, e, "kmax_bytes", 0, 1e15);
		q->ecn[t].pmax_pct = num(r, e, "pmax_pct", 0, 100);
	}
}

static void read_rest(struct rd *r, const cJSON *o, struct port_qos *q)
{
	const cJSON *v;

	if (q->known & RC_F_HEADROOM) {
		v = cJSON_GetObjectItemCaseSensitive(o, "headroom_bytes");
		if (!cJSON_IsObject(v)) {
			bad(r, "headroom_bytes");
		} else {
			const cJSON *h;

			cJSON_ArrayForEach(h, v)
			{
				char *end;
				long p = strtol(h->string, &end, 10);

				if (*end || p < 0 || p >= RC_NPRIO || !cJSON_IsNumber(h) ||
				    h->valuedouble < 0) {
					bad(r, "headroom entry");
					break;
				}
				q->headroom_mask |= 1u << p;
				q->headroom_bytes[p] = (uint64_t)h->valuedouble;
			}
		}
	}
	if (q->known & RC_F_ETS) {
		const cJSON *e;

		v = cJSON_GetObjectItemCaseSensitive(o, "ets");
		if (!cJSON_IsArray(v))
			bad(r, "ets");
		cJSON_ArrayForEach(e, v)
		{
			int t = (int)num(r, e, "tc", 0, RC_NTC - 1);

			q->ets.tc_mask |= 1u << t;
			q->ets.tsa[t] = tsa_of(
			    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "tsa")));
			q->ets.bw_pct[t] = (uint8_t)num(r, e, "bw_pct", 0, 100);
		}
	}
	if (q->known & RC_F_WATCHDOG) {
		const char *a;

		v = cJSON_GetObjectItemCaseSensitive(o, "watchdog");
		q->watchdog.enabled = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(v, "enabled"));
		q->watchdog.detection_ms = (uint32_t)num(r, v, "detection_ms", 0, 1e9);
		q->watchdog.restoration_ms = (uint32_t)num(r, v, "restoration_ms", 0, 1e9);
		a = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(v, "action"));
		q->watchdog.action = a && !strcmp(a, "forward") ? RC_WD_FORWARD : RC_WD_DROP;
		if (cJSON_GetObjectItemCaseSensitive(v, "fixed"))
			q->watchdog.fixed = (uint8_t)num(r, v, "fixed", 0, 3);
	}
	if (q->known & RC_F_MTU)
		q->mtu = (uint32_t)num(r, o, "mtu", 0, 1e6);
	if (q->known & RC_F_SPEED)
		q->speed_gbps = (uint32_t)num(r, o, "speed_gbps", 0, 1e6);
	if (q->known & RC_F_NIC_ECN) {
		v = cJSON_GetObjectItemCaseSensitive(o, "nic_ecn");
		q->nic_ecn_prio_mask =
		    prio_mask_of(r, cJSON_GetObjectItemCaseSensitive(v, "priorities"));
		q->nic_ecn_np = prio_mask_of(r, cJSON_GetObjectItemCaseSensitive(v, "np"));
		q->nic_ecn_rp = prio_mask_of(r, cJSON_GetObjectItemCaseSensitive(v, "rp"));
	}
	if (q->known & RC_F_CNP) {
		v = cJSON_GetObjectItemCaseSensitive(o, "cnp");
		q->cnp_dscp = (uint8_t)num(r, v, "dscp", 0, RC_NDSCP - 1);
		q->cnp_prio = (uint8_t)num(r, v, "prio", 0, RC_NPRIO - 1);
	}
	if (q->known & RC_F_DCQCN) {
		v = cJSON_GetObjectItemCaseSensitive(o, "dcqcn");
		if (!cJSON_IsObject(v))
			bad(r, "dcqcn");
		for (int i = 0; cJSON_IsObject(v) && i < RC_DCQCN_N; i++) {
			const cJSON *x = cJSON_GetObjectItemCaseSensitive(v, rc_dcqcn_name(i));

			if (!x)
				continue;
			if (!cJSON_IsNumber(x) || x->valuedouble != floor(x->valuedouble)) {
				bad(r, rc_dcqcn_name(i));
				break;
			}
			q->dcqcn[i] = (uint32_t)num(r, v, rc_dcqcn_name(i), 0, UINT32_MAX);
			q->dcqcn_mask |= (uint16_t)(1u << i);
		}
	}
	if (q->known & RC_F_ROCE_TOS)
		q->roce_tos = (int)num(r, o, "roce_tos", 0, 255);
	if (q->known & RC_F_DCBX) {
		const char *d = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "dcbx"));

		if (!d || (strcmp(d, "host") && strcmp(d, "firmware")))
			bad(r, "dcbx");
		q->dcbx_host = d && !strcmp(d, "host");
	}
	q->headroom_is_min = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "headroom_is_min"));
	if (cJSON_GetObjectItemCaseSensitive(o, "headroom_derived"))
		q->headroom_derived = (uint8_t)num(r, o, "headroom_derived", 0, 255);
}

/* Optional (older agents and journals have none: "why" is then about every group).  The
 * reasons are added again as the driver added them; they must make "why" byte for byte. */
static void read_reasons(struct rd *r, const cJSON *arr, struct rc_effect *e)
{
	struct rc_effect again;
	const cJSON *it;

	if (!arr)
		return;
	memset(&again, 0, sizeof(again));
	if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) > RC_WHY_PARTS) {
		bad(r, "effect.reasons");
		return;
	}
	cJSON_ArrayForEach(it, arr)
	{
		const char *text =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "why"));
		uint32_t groups = (uint32_t)num(r, it, "groups", 0, RC_F_ALL) & RC_F_ALL;

		if (!cJSON_IsObject(it) || !text) {
			bad(r, "effect.reasons");
			return;
		}
		rc_effect_reason(&again, groups, "%s", text);
	}
	if (strcmp(again.why, e->why)) {
		bad(r, "effect.reasons");
		return;
	}
	e->n_why = again.n_why;
	memcpy(e->why_end, again.why_end, sizeof(e->why_end));
	memcpy(e->why_groups, again.why_groups, sizeof(e->why_groups));
}

/* Optional; a why too long for the model is refused, not cut (it came from our own
 * writer, so a long one means the document is not ours). */
static void read_effect(struct rd *r, const cJSON *o, struct rc_effect *e)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, "effect");
	const char *why;

	if (!j)
		return;
	if (!cJSON_IsObject(j)) {
		bad(r, "effect");
		return;
	}
	e->drift = (uint32_t)num(r, j, "drift", 0, RC_F_ALL) & RC_F_ALL;
	e->inert = (uint32_t)num(r, j, "inert", 0, RC_F_ALL) & RC_F_ALL;
	e->unverified = (uint32_t)num(r, j, "unverified", 0, RC_F_ALL) & RC_F_ALL;
	/* optional: older agents do not send it */
	if (cJSON_GetObjectItemCaseSensitive(j, "warn"))
		e->warn = (uint32_t)num(r, j, "warn", 0, RC_F_ALL) & RC_F_ALL;
	why = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "why"));
	if (!why || strlen(why) >= sizeof(e->why)) {
		bad(r, "effect.why");
		return;
	}
	memcpy(e->why, why, strlen(why) + 1);
	read_reasons(r, cJSON_GetObjectItemCaseSensitive(j, "reasons"), e);
}

int rc_port_qos_from_cjson(const cJSON *o, struct port_qos *q, struct rc_err *err)
{
	struct rd r = {.err = err};
	const cJSON *v;

	memset(q, 0, sizeof(*q));
	if (!cJSON_IsObject(o))
		return bad(&r, "not an object");
	q->known = (uint32_t)num(&r, o, "known", 0, RC_F_ALL) & RC_F_ALL;
	q->unsupported = (uint32_t)num(&r, o, "unsupported", 0, RC_F_ALL) & RC_F_ALL;
	if (q->known & RC_F_TRUST) {
		const char *t = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "trust"));

		q->trust = !t			? RC_TRUST_UNSET
			   : !strcmp(t, "dscp") ? RC_TRUST_DSCP
			   : !strcmp(t, "pcp")	? RC_TRUST_PCP
						: RC_TRUST_UNSET;
	}
	if (q->known & RC_F_DSCP2PRIO) {
		q->dscp_mask = read_map(&r, cJSON_GetObjectItemCaseSensitive(o, "dscp2prio"),
					q->dscp2prio, RC_NDSCP, RC_NPRIO - 1);
		read_entries(&r, cJSON_GetObjectItemCaseSensitive(o, "dscp_entries"), q);
	}
	if (q->known & RC_F_PRIO2TC)
		q->prio_mask = (uint8_t)read_map(&r, cJSON_GetObjectItemCaseSensitive(o, "prio2tc"),
						 q->prio2tc, RC_NPRIO, RC_NTC - 1);
	if (q->known & RC_F_PFC)
		q->pfc_enabled =
		    prio_mask_of(&r, cJSON_GetObjectItemCaseSensitive(o, "pfc_enabled"));
	if (q->known & RC_F_CABLE)
		q->cable_length_m = (uint32_t)num(&r, o, "cable_length_m", 0, 1e6);
	if (q->known & RC_F_ECN) {
		v = cJSON_GetObjectItemCaseSensitive(o, "ecn");
		read_ecn(&r, v, q);
	}
	read_rest(&r, o, q);
	read_effect(&r, o, &q->effect);
	return r.rc;
}

int rc_port_qos_from_json(const char *json, struct port_qos *q, struct rc_err *err)
{
	cJSON *o = cJSON_Parse(json);
	int rc;

	if (!o)
		return rc_errf(err, EINVAL, "malformed port state: not JSON");
	rc = rc_port_qos_from_cjson(o, q, err);
	cJSON_Delete(o);
	return rc;
}
