/* SPDX-License-Identifier: Apache-2.0 */
/* The policy a fabric already follows (include/rocectl/export.h): each field by vote of the
 * ports that report it, written in the policy's own syntax (docs/POLICY.md) so that
 * `rocectl validate` loads it and `plan` finds nothing to change where the fabric agrees
 * with itself.  Where no port says (a fabric without hosts has no CNP DSCP to read), the
 * documented default is taken and a note says so. */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export_dissent.h"

/* ---- votes -------------------------------------------------------------------------------- */

#define VOTE_SLOTS 16
#define VOTE_SIZE  32

/* Distinct values (as bytes) and how many ports hold each; beyond VOTE_SLOTS distinct values
 * the rare ones are not counted (they cannot win). */
struct vote {
	size_t n;
	unsigned char v[VOTE_SLOTS][VOTE_SIZE];
	size_t cnt[VOTE_SLOTS];
};

static void vote(struct vote *v, const void *p, size_t size)
{
	unsigned char key[VOTE_SIZE] = {0};

	memcpy(key, p, size < VOTE_SIZE ? size : VOTE_SIZE);
	for (size_t i = 0; i < v->n; i++)
		if (!memcmp(v->v[i], key, VOTE_SIZE)) {
			v->cnt[i]++;
			return;
		}
	if (v->n == VOTE_SLOTS)
		return;
	memcpy(v->v[v->n], key, VOTE_SIZE);
	v->cnt[v->n++] = 1;
}

/* The most common value (the first seen among equals), copied to out; false if none. */
static bool winner(const struct vote *v, void *out, size_t size)
{
	size_t best = 0;

	if (size > VOTE_SIZE)
		return false;
	if (!v->n)
		return false;
	for (size_t i = 1; i < v->n; i++)
		if (v->cnt[i] > v->cnt[best])
			best = i;
	memcpy(out, v->v[best], size);
	return true;
}

static void vote_u64(struct vote *v, uint64_t x)
{
	vote(v, &x, sizeof(x));
}

static bool winner_u64(const struct vote *v, uint64_t *x)
{
	return winner(v, x, sizeof(*x));
}

/* Composite values, padding-free (uint64 fields) so that equal values are equal bytes. */
struct ecn_key {
	uint64_t enabled, kmin, kmax, pmax_milli; /* percent x 1000 */
};

struct wd_key {
	uint32_t enabled, detection_ms, restoration_ms, action; /* restoration 0: fixed */
};

struct ets_key {
	uint8_t tc_mask;
	uint8_t tsa[RC_NTC];
	uint8_t bw[RC_NTC];
};

_Static_assert(sizeof(struct ecn_key) <= VOTE_SIZE && sizeof(struct wd_key) <= VOTE_SIZE &&
		   sizeof(struct ets_key) <= VOTE_SIZE,
	       "a vote holds every key whole");

struct tallies {
	struct vote trust, pfc, roce_tos, cnp, nic_np, nic_rp, wd, cable;
	struct vote prio2tc[RC_NPRIO];
	struct vote ecn[RC_NTC];
	struct vote dscp[RC_NDSCP];
	size_t dscp_entry[RC_NDSCP][RC_NPRIO]; /* hosts' own APP entries: DSCP -> priority */
	struct vote dcqcn[RC_DCQCN_N];
};

static bool has(const struct port_qos *q, uint32_t group)
{
	return (q->known & group) && !(q->unsupported & group);
}

static struct ecn_key ecn_key_of(const struct rc_ecn_tc *e)
{
	struct ecn_key k = {.enabled = e->enabled};

	if (e->enabled) {
		k.kmin = e->kmin_bytes;
		k.kmax = e->kmax_bytes;
		k.pmax_milli = (uint64_t)(e->pmax_pct * 1000 + 0.5);
	}
	return k;
}

/* The cable a port's policy decides: only where its link does not give one. */
static bool cable_from_policy(const struct rc_inventory *inv, size_t dev, const char *port)
{
	const struct rc_link *l = rc_inventory_link_of(inv, dev, port);

	return !l || !l->cable_length_m;
}

static void count_port(struct tallies *t, const struct rc_inventory *inv, size_t dev,
		       const struct rc_port_state *p)
{
	const struct port_qos *q = &p->qos;

	if (has(q, RC_F_TRUST) && q->trust != RC_TRUST_UNSET)
		vote_u64(&t->trust, q->trust);
	if (has(q, RC_F_PFC))
		vote_u64(&t->pfc, q->pfc_enabled);
	if (has(q, RC_F_DSCP2PRIO))
		for (int d = 0; d < RC_NDSCP; d++) {
			if (!(q->dscp_mask & (1ull << d)))
				continue;
			vote_u64(&t->dscp[d], q->dscp2prio[d]);
			if (q->dscp_entries_known && (q->dscp_entries & (1ull << d)) &&
			    q->dscp2prio[d] < RC_NPRIO)
				t->dscp_entry[d][q->dscp2prio[d]]++;
		}
	if (has(q, RC_F_PRIO2TC) || has(q, RC_F_ETS))
		for (int p2 = 0; p2 < RC_NPRIO; p2++)
			if (q->prio_mask & (1u << p2))
				vote_u64(&t->prio2tc[p2], q->prio2tc[p2]);
	if (has(q, RC_F_ECN))
		for (int tc = 0; tc < RC_NTC; tc++)
			if (q->ecn_tc_mask & (1u << tc)) {
				struct ecn_key k = ecn_key_of(&q->ecn[tc]);

				vote(&t->ecn[tc], &k, sizeof(k));
			}
	if (has(q, RC_F_ROCE_TOS) && q->roce_tos >= 0)
		vote_u64(&t->roce_tos, (uint64_t)q->roce_tos);
	if (has(q, RC_F_CNP))
		vote_u64(&t->cnp, (uint64_t)q->cnp_dscp << 8 | q->cnp_prio);
	if (has(q, RC_F_NIC_ECN)) {
		/* per priority: kept as the masks, judged on RoCE's priority later */
		vote_u64(&t->nic_np, (uint64_t)q->nic_ecn_prio_mask << 8 | q->nic_ecn_np);
		vote_u64(&t->nic_rp, (uint64_t)q->nic_ecn_prio_mask << 8 | q->nic_ecn_rp);
	}
	if (has(q, RC_F_WATCHDOG)) {
		struct wd_key k = {.enabled = q->watchdog.enabled};

		if (q->watchdog.enabled) {
			k.detection_ms = q->watchdog.detection_ms;
			if (!(q->watchdog.fixed & RC_WD_FIXED_RESTORATION))
				k.restoration_ms = q->watchdog.restoration_ms;
			k.action =
			    q->watchdog.fixed & RC_WD_FIXED_ACTION ? 0xff : q->watchdog.action;
		}
		vote(&t->wd, &k, sizeof(k));
	}
	if (has(q, RC_F_CABLE) && q->cable_length_m && cable_from_policy(inv, dev, p->name))
		vote_u64(&t->cable, q->cable_length_m);
	if (has(q, RC_F_DCQCN))
		for (int i = 0; i < RC_DCQCN_N; i++)
			if (q->dcqcn_mask & (1u << i))
				vote_u64(&t->dcqcn[i], q->dcqcn[i]);
}

/* ---- the policy ---------------------------------------------------------------------------- */

struct text {
	char *s;
	size_t len, cap;
	bool oom;
};

static void put(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->oom)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(t->s ? t->s + t->len : NULL, t->s ? t->cap - t->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0) {
			t->oom = true;
			return;
		}
		if (t->s && t->len + (size_t)n < t->cap) {
			t->len += (size_t)n;
			return;
		}
		size_t cap = (t->cap ? t->cap * 2 : 4096) + (size_t)n;
		char *s = realloc(t->s, cap);

		if (!s) {
			t->oom = true;
			return;
		}
		t->s = s;
		t->cap = cap;
	}
}

static void note(struct rc_export *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct rc_export *e, const char *fmt, ...)
{
	size_t len = strlen(e->notes);
	va_list ap;

	if (len + 4 >= sizeof(e->notes))
		return;
	memcpy(e->notes + len, "# ", 3);
	len += 2;
	va_start(ap, fmt);
	vsnprintf(e->notes + len, sizeof(e->notes) - len, fmt, ap);
	va_end(ap);
	len = strlen(e->notes);
	if (len + 1 < sizeof(e->notes))
		memcpy(e->notes + len, "\n", 2);
}

static int lowest(uint8_t mask)
{
	for (int p = 0; p < 8; p++)
		if (mask & (1u << p))
			return p;
	return -1;
}

/* What the policy is made of, before it is written. */
struct derived {
	int trust;
	uint8_t pfc;
	int map[RC_NDSCP]; /* -1: no port says */
	int roce_dscp, roce_prio, cnp_dscp, cnp_prio;
	uint8_t p2t[RC_NPRIO];
	int tc;
	struct ecn_key ecn;
	bool host_np, host_rp;
	struct wd_key wd;
	bool has_wd;
	uint32_t cable_m;
	struct ets_key ets;
	bool has_ets;
	int tos; /* -1: auto */
	uint16_t dcqcn_mask;
	uint32_t dcqcn[RC_DCQCN_N];
};

/* How many ports map DSCP c to a lossless priority (a priority of `pfc`), and which such
 * priority most of them use. */
static size_t lossless_votes(const struct vote *v, uint8_t pfc, int *prio)
{
	size_t total = 0, best = 0;

	for (size_t i = 0; i < v->n; i++) {
		uint64_t p;

		memcpy(&p, v->v[i], sizeof(p));
		if (p >= RC_NPRIO || !(pfc & (1u << p)))
			continue;
		total += v->cnt[i];
		if (v->cnt[i] > best) {
			best = v->cnt[i];
			*prio = (int)p;
		}
	}
	return total;
}

/* RoCE's DSCP is the one the fabric carries losslessly: the DSCP most ports map to a PFC
 * priority, the hosts' own APP entries (what an operator set: `dcb app ... dscp-prio 26:3`,
 * mlnx_qos) first, since the default maps (DSCP >> 3) send eight DSCPs to each priority.
 * Among equals: the DSCP of the ToS the hosts give RoCE connections, else 26 (the RoCEv2
 * convention of the NVUE `qos roce` and SONiC lossless templates), else the lowest.  The
 * hosts' ToS alone never decides: a default ToS 0 says nothing of where RoCE should be. */
static void derive_roce(const struct tallies *t, struct derived *d, struct rc_export *e)
{
	size_t best_entries = 0, best_ports = 0, ties = 0;
	int prio[RC_NDSCP], tos_dscp = -1;
	uint64_t v = 0;

	/* DSCP 0 is the unset ToS: no evidence, and as RoCE's DSCP it would make best-effort
	 * traffic lossless */
	if (winner_u64(&t->roce_tos, &v) && (v >> 2))
		tos_dscp = (int)(v >> 2);
	d->roce_dscp = -1;
	for (int c = 0; c < RC_NDSCP; c++) {
		size_t entries = 0, ports;

		prio[c] = -1;
		ports = lossless_votes(&t->dscp[c], d->pfc, &prio[c]);
		for (int p = 0; p < RC_NPRIO; p++)
			if (d->pfc & (1u << p))
				entries += t->dscp_entry[c][p];
		if (!ports)
			continue;
		if (entries > best_entries || (entries == best_entries && ports > best_ports)) {
			best_entries = entries;
			best_ports = ports;
			d->roce_dscp = c;
			ties = 1;
		} else if (entries == best_entries && ports == best_ports) {
			ties++;
			if (c == tos_dscp || (c == 26 && d->roce_dscp != tos_dscp))
				d->roce_dscp = c;
		}
	}
	if (d->roce_dscp < 0) {
		d->roce_dscp = tos_dscp >= 0 ? tos_dscp : 26;
		d->roce_prio = lowest(d->pfc);
		note(e,
		     "no port maps a DSCP to a lossless priority: roce.dscp %d (%s) on priority "
		     "%d, the lowest with PFC",
		     d->roce_dscp, tos_dscp >= 0 ? "the hosts' RoCE ToS" : "assumed", d->roce_prio);
		return;
	}
	d->roce_prio = prio[d->roce_dscp];
	note(e, "roce.dscp %d: %zu port(s) map it to lossless priority %d%s", d->roce_dscp,
	     best_ports, d->roce_prio,
	     best_entries ? ", the hosts' own DSCP entries among them" : "");
	if (ties > 1)
		note(e,
		     "%zu DSCPs reach a lossless priority on as many ports (the default maps): "
		     "%d taken (%s)",
		     ties, d->roce_dscp,
		     d->roce_dscp == tos_dscp ? "the hosts' RoCE ToS"
		     : d->roce_dscp == 26     ? "the RoCEv2 convention"
					      : "the lowest");
}

/* Without a NIC that says where it sends CNPs (MLNX_OFED's roce_np files), the hosts' own
 * DSCP entries can: one to a lossy priority, besides RoCE's, is the CNPs' (`dcb app ...
 * dscp-prio 48:6`, mlnx_qos). */
static bool cnp_from_entries(const struct tallies *t, struct derived *d)
{
	size_t best = 0;

	for (int c = 0; c < RC_NDSCP; c++)
		for (int p = 0; p < RC_NPRIO; p++)
			if (c != d->roce_dscp && !(d->pfc & (1u << p)) &&
			    t->dscp_entry[c][p] > best) {
				best = t->dscp_entry[c][p];
				d->cnp_dscp = c;
				d->cnp_prio = p;
			}
	return best > 0;
}

static void derive_cnp(const struct tallies *t, struct derived *d, struct rc_export *e)
{
	uint64_t v = 0;
	bool ok;

	if (winner_u64(&t->cnp, &v)) {
		d->cnp_dscp = (int)(v >> 8 & 0x3f);
		d->cnp_prio = (int)(v & 7);
	} else if (cnp_from_entries(t, d)) {
		note(e,
		     "no host reports its CNP marking: cnp.dscp %d on priority %d, the lossy "
		     "DSCP entry most hosts have",
		     d->cnp_dscp, d->cnp_prio);
	} else {
		d->cnp_dscp = 48;
		d->cnp_prio = d->map[48] >= 0 ? d->map[48] : 6;
		note(e, "no host reports its CNP marking: cnp.dscp 48 assumed, on priority %d",
		     d->cnp_prio);
	}
	ok = d->cnp_dscp != d->roce_dscp && d->cnp_prio != d->roce_prio &&
	     !(d->pfc & (1u << d->cnp_prio));
	for (int p = 7; !ok && p >= 0; p--)
		if (p != d->roce_prio && !(d->pfc & (1u << p))) {
			note(e,
			     "CNPs read on DSCP %d priority %d, which a policy cannot keep (it "
			     "must be lossy and not RoCE's): priority %d written, plan will change "
			     "it",
			     d->cnp_dscp, d->cnp_prio, p);
			d->cnp_prio = p;
			if (d->cnp_dscp == d->roce_dscp)
				d->cnp_dscp = d->roce_dscp == 48 ? 46 : 48;
			ok = true;
		}
}

static bool ecn_valid(const struct ecn_key *k)
{
	return !k->enabled || (k->kmin < k->kmax && k->kmax <= (1ull << 30) && k->pmax_milli > 0 &&
			       k->pmax_milli <= 100000);
}

static void derive_rest(const struct tallies *t, struct derived *d, struct rc_export *e)
{
	uint64_t v = 0;

	for (int p = 0; p < RC_NPRIO; p++)
		d->p2t[p] = winner_u64(&t->prio2tc[p], &v) && v < RC_NTC ? (uint8_t)v : (uint8_t)p;
	d->tc = d->p2t[d->roce_prio];
	if (!winner(&t->ecn[d->tc], &d->ecn, sizeof(d->ecn)) || !ecn_valid(&d->ecn)) {
		d->ecn = (struct ecn_key){1, 150000, 1500000, 100000};
		note(e,
		     "no switch reports a usable ECN setting of class %d: 150KB/1500KB/100%% "
		     "(docs/POLICY.md) written",
		     d->tc);
	}
	d->host_np = d->host_rp = d->ecn.enabled;
	if (winner_u64(&t->nic_np, &v) && (v >> 8) & (1u << d->roce_prio))
		d->host_np = (v & (1u << d->roce_prio)) != 0;
	if (winner_u64(&t->nic_rp, &v) && (v >> 8) & (1u << d->roce_prio))
		d->host_rp = (v & (1u << d->roce_prio)) != 0;
	d->has_wd = winner(&t->wd, &d->wd, sizeof(d->wd)) && d->wd.enabled &&
		    d->wd.detection_ms >= 1 && d->wd.detection_ms <= 60000 &&
		    d->wd.restoration_ms <= 60000;
	d->cable_m = winner_u64(&t->cable, &v) && v >= 1 && v <= 100000 ? (uint32_t)v : 100;
	d->tos = -1;
	if (winner_u64(&t->roce_tos, &v) && v != ((uint64_t)d->roce_dscp << 2 | 2) &&
	    (int)(v >> 2) == d->roce_dscp)
		d->tos = (int)v;
	for (int i = 0; i < RC_DCQCN_N; i++)
		if (winner_u64(&t->dcqcn[i], &v) && v <= UINT32_MAX) {
			d->dcqcn_mask |= (uint16_t)(1u << i);
			d->dcqcn[i] = (uint32_t)v;
		}
}

/* The scheduler, by vote of the ports, over the traffic classes some priority reaches
 * (priority_to_tc as exported): a class no priority uses carries nothing, and how a
 * device schedules it (strict on a switch, "vendor" on a factory NIC) is no choice anyone
 * made.  Only a scheduler a policy can write takes part: strict or DWRR classes, the shares
 * summing to 100 %. */
static void derive_ets(const struct rc_export_dev *devs, size_t n, struct derived *d,
		       struct rc_export *e)
{
	struct vote v = {0};
	size_t reporting = 0, most = 0;
	uint8_t used = 0;

	for (int p = 0; p < RC_NPRIO; p++)
		used |= (uint8_t)(1u << d->p2t[p]);
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < devs[i].n_ports; k++) {
			const struct port_qos *q = &devs[i].have[k].qos;
			struct ets_key key = {.tc_mask = q->ets.tc_mask & used};
			unsigned sum = 0;
			bool ok = has(q, RC_F_ETS) && key.tc_mask == used;

			for (int tc = 0; ok && tc < RC_NTC; tc++) {
				if (!(used & (1u << tc)))
					continue;
				key.tsa[tc] = q->ets.tsa[tc];
				key.bw[tc] = q->ets.tsa[tc] == RC_TSA_DWRR ? q->ets.bw_pct[tc] : 0;
				ok = key.tsa[tc] == RC_TSA_STRICT || key.tsa[tc] == RC_TSA_DWRR;
				sum += key.bw[tc];
			}
			if (has(q, RC_F_ETS))
				reporting++;
			if (ok && sum == 100)
				vote(&v, &key, sizeof(key));
		}
	d->has_ets = winner(&v, &d->ets, sizeof(d->ets));
	for (size_t i = 0; d->has_ets && i < v.n; i++)
		if (!memcmp(v.v[i], &d->ets, sizeof(d->ets)))
			most = v.cnt[i];
	/* the platforms' factory schedulers differ (strict queues, DWRR, "vendor"): unless
	 * most ports agree on one, the fabric has none, and the export leaves scheduling
	 * alone rather than impose one platform's default on the others */
	if (d->has_ets && 2 * most <= reporting) {
		d->has_ets = false;
		note(e,
		     "the scheduler of the classes in use differs between ports (the one most "
		     "have: %zu of %zu ports): no ets section (scheduling left alone)",
		     most, reporting);
	} else if (!d->has_ets) {
		note(e, "no port schedules its traffic classes in use as strict and DWRR classes "
			"summing to 100%%: no ets section (scheduling left alone)");
	}
}

static void write_policy(struct text *y, const struct derived *d, const char *name)
{
	put(y, "apiVersion: rocectl/v1\nkind: Policy\nname: %s\n", name);
	put(y, "trust: %s\n", d->trust == RC_TRUST_PCP ? "pcp" : "dscp");
	put(y, "roce: {dscp: %d, priority: %d}\n", d->roce_dscp, d->roce_prio);
	put(y, "cnp: {dscp: %d, priority: %d}\n", d->cnp_dscp, d->cnp_prio);
	put(y, "priority_to_tc: {");
	for (int p = 0; p < RC_NPRIO; p++)
		put(y, "%s%d: %d", p ? ", " : "", p, d->p2t[p]);
	put(y, "}\npfc:\n  priorities: [");
	for (int p = 0, n = 0; p < RC_NPRIO; p++)
		if (d->pfc & (1u << p))
			put(y, "%s%d", n++ ? ", " : "", p);
	put(y, "]\n");
	if (d->has_wd)
		put(y, "  watchdog: {detection: %ums, restoration: %ums, action: %s}\n",
		    d->wd.detection_ms, d->wd.restoration_ms ? d->wd.restoration_ms : 400,
		    d->wd.action == RC_WD_FORWARD ? "forward" : "drop");
	put(y, "ecn:\n  enabled: %s\n  traffic_class: %d\n", d->ecn.enabled ? "true" : "false",
	    d->tc);
	if (d->ecn.enabled)
		put(y, "  min_threshold: %lluB\n  max_threshold: %lluB\n  probability: %g%%\n",
		    (unsigned long long)d->ecn.kmin, (unsigned long long)d->ecn.kmax,
		    (double)d->ecn.pmax_milli / 1000);
	put(y, "  host: {notification_point: %s, reaction_point: %s}\n",
	    d->host_np ? "true" : "false", d->host_rp ? "true" : "false");
	put(y, "headroom: {cable_length: %um}\n", d->cable_m);
	if (d->has_ets) {
		put(y, "ets:\n");
		for (int tc = 0; tc < RC_NTC; tc++) {
			if (!(d->ets.tc_mask & (1u << tc)))
				continue;
			if (d->ets.tsa[tc] == RC_TSA_STRICT)
				put(y, "  - {traffic_class: %d, mode: strict}\n", tc);
			else if (d->ets.bw[tc])
				put(y, "  - {traffic_class: %d, mode: dwrr, bandwidth: %u%%}\n", tc,
				    d->ets.bw[tc]);
		}
	}
	if (d->tos >= 0)
		put(y, "host: {roce_tos: %d}\n", d->tos);
	else
		put(y, "host: {roce_tos: auto}\n");
	if (d->dcqcn_mask) {
		const char *sect[2] = {"rp", "np"};

		put(y, "dcqcn:\n");
		for (int s = 0; s < 2; s++) {
			bool first = true;

			for (int i = 0; i < RC_DCQCN_N; i++) {
				const char *pn = rc_dcqcn_name(i);

				if (!(d->dcqcn_mask & (1u << i)) || !pn || strncmp(pn, sect[s], 2))
					continue;
				if (first)
					put(y, "  %s: {", sect[s]);
				put(y, "%s%s: %u", first ? "" : ", ", pn, d->dcqcn[i]);
				first = false;
			}
			if (!first)
				put(y, "}\n");
		}
	}
}

/* ---- overrides ----------------------------------------------------------------------------- */

/* A switch's own ECN setting and cable, by vote of its ports; an override where they differ
 * from the policy and the result is still a valid policy. */
static bool device_overrides(const struct rc_inventory *inv, const struct rc_export_dev *x,
			     const struct derived *d, struct rc_overrides *ov)
{
	struct vote ecn = {0}, cable = {0};
	struct ecn_key k;
	uint64_t v = 0;

	memset(ov, 0, sizeof(*ov));
	for (size_t i = 0; i < x->n_ports; i++) {
		const struct port_qos *q = &x->have[i].qos;

		if (has(q, RC_F_ECN) && (q->ecn_tc_mask & (1u << d->tc))) {
			k = ecn_key_of(&q->ecn[d->tc]);
			vote(&ecn, &k, sizeof(k));
		}
		if (has(q, RC_F_CABLE) && q->cable_length_m &&
		    cable_from_policy(inv, x->index, x->have[i].name))
			vote_u64(&cable, q->cable_length_m);
	}
	if (winner(&ecn, &k, sizeof(k)) && memcmp(&k, &d->ecn, sizeof(k)) && ecn_valid(&k)) {
		ov->has_ecn_enabled = k.enabled != d->ecn.enabled;
		ov->ecn_enabled = k.enabled;
		if (k.enabled) {
			ov->has_ecn_kmin = k.kmin != d->ecn.kmin;
			ov->ecn_kmin_bytes = k.kmin;
			ov->has_ecn_kmax = k.kmax != d->ecn.kmax;
			ov->ecn_kmax_bytes = k.kmax;
			ov->has_ecn_pmax = k.pmax_milli != d->ecn.pmax_milli;
			ov->ecn_pmax_pct = (double)k.pmax_milli / 1000;
		}
	}
	if (winner_u64(&cable, &v) && v != d->cable_m && v >= 1 && v <= 100000) {
		ov->has_cable_length = true;
		ov->cable_length_m = (uint32_t)v;
	}
	return ov->has_ecn_enabled || ov->has_ecn_kmin || ov->has_ecn_kmax || ov->has_ecn_pmax ||
	       ov->has_cable_length;
}

int rc_export_derive(const struct rc_inventory *inv, const struct rc_export_dev *devs, size_t n,
		     const char *name, struct rc_export *out, struct rc_err *err)
{
	struct tallies *t = calloc(1, sizeof(*t));
	struct derived d = {0};
	struct text y = {0};
	uint64_t v = 0;

	memset(out, 0, sizeof(*out));
	out->ov = calloc(inv->n_devices ? inv->n_devices : 1, sizeof(*out->ov));
	if (!t || !out->ov) {
		free(t);
		rc_export_fini(out);
		return rc_errf(err, ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < devs[i].n_ports; k++)
			count_port(t, inv, devs[i].index, &devs[i].have[k]);
	if (!winner_u64(&t->pfc, &v) || !(v & 0xff)) {
		free(t);
		rc_export_fini(out);
		return rc_errf(err, EINVAL,
			       "most ports have PFC off on every priority: the fabric is not "
			       "lossless yet, there is no policy to export (start from "
			       "policies/roce-lossless.yaml)");
	}
	d.pfc = (uint8_t)v;
	d.trust = winner_u64(&t->trust, &v) ? (int)v : RC_TRUST_DSCP;
	for (int c = 0; c < RC_NDSCP; c++)
		d.map[c] = winner_u64(&t->dscp[c], &v) && v < RC_NPRIO ? (int)v : -1;
	derive_roce(t, &d, out);
	derive_cnp(t, &d, out);
	derive_rest(t, &d, out);
	derive_ets(devs, n, &d, out);
	free(t);
	write_policy(&y, &d, name);
	if (y.oom) {
		free(y.s);
		rc_export_fini(out);
		return rc_errf(err, ENOMEM, "out of memory");
	}
	out->yaml = y.s;
	rc_export_dissent(inv, devs, n,
			  &(struct rc_export_choice){d.trust, d.pfc, d.roce_dscp, d.roce_prio,
						     d.cnp_dscp, d.cnp_prio, d.tos},
			  out);
	for (size_t i = 0; i < n; i++)
		if (inv->devices[devs[i].index].kind == RC_DEV_SWITCH &&
		    device_overrides(inv, &devs[i], &d, &out->ov[devs[i].index]))
			out->n_ov++;
	return 0;
}

char *rc_export_overrides_yaml(const struct rc_inventory *inv, const struct rc_export *e)
{
	struct text y = {0};

	put(&y, "%s", "");
	for (size_t i = 0; e->ov && i < inv->n_devices; i++) {
		const struct rc_overrides *ov = &e->ov[i];
		const char *sep = "";

		if (!ov->has_ecn_enabled && !ov->has_ecn_kmin && !ov->has_ecn_kmax &&
		    !ov->has_ecn_pmax && !ov->has_cable_length)
			continue;
		if (!y.len)
			put(&y, "switches:\n");
		put(&y, "  - name: %s\n    overrides:\n", inv->devices[i].name);
		if (ov->has_ecn_enabled || ov->has_ecn_kmin || ov->has_ecn_kmax ||
		    ov->has_ecn_pmax) {
			put(&y, "      ecn: {");
			if (ov->has_ecn_enabled) {
				put(&y, "enabled: %s", ov->ecn_enabled ? "true" : "false");
				sep = ", ";
			}
			if (ov->has_ecn_kmin) {
				put(&y, "%smin_threshold: %lluB", sep,
				    (unsigned long long)ov->ecn_kmin_bytes);
				sep = ", ";
			}
			if (ov->has_ecn_kmax) {
				put(&y, "%smax_threshold: %lluB", sep,
				    (unsigned long long)ov->ecn_kmax_bytes);
				sep = ", ";
			}
			if (ov->has_ecn_pmax)
				put(&y, "%sprobability: %g%%", sep, ov->ecn_pmax_pct);
			put(&y, "}\n");
		}
		if (ov->has_cable_length)
			put(&y, "      headroom: {cable_length: %um}\n", ov->cable_length_m);
	}
	if (y.oom) {
		free(y.s);
		return NULL;
	}
	return y.s;
}

void rc_export_fini(struct rc_export *e)
{
	free(e->yaml);
	free(e->ov);
	e->yaml = NULL;
	e->ov = NULL;
	e->n_ov = 0;
}
