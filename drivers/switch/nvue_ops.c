/* SPDX-License-Identifier: Apache-2.0 */
/* NVUE write side: writes of the vendor-neutral model -> NVUE operations, rendered as
 * `nv set`/`nv unset` lines (SSH) or one JSON patch of the root tree (REST).  The two
 * renderings come from the same list, so they cannot disagree: a CLI path and a JSON path
 * are the same words (Cumulus Linux user guide, "NVUE API").
 *
 * Profiles are shared: writing default-global changes every port bound to it.  Ops on a
 * profile are therefore checked against every port that was read: a port that shares the
 * profile but does not want the same change is a conflict, refused before anything is
 * sent. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "rocectl/util.h"
#include "nvue.h"
#include "switch_common.h"

void nvue_ops_free(struct nvue_ops *ops)
{
	free(ops->v);
	ops->v = NULL;
	ops->n = ops->cap = 0;
}

static bool same_path(const struct nvue_op *a, const struct nvue_op *b)
{
	if (a->n != b->n)
		return false;
	for (int i = 0; i < a->n; i++)
		if (strcmp(a->tok[i], b->tok[i]))
			return false;
	return true;
}

static bool same_value(const struct nvue_op *a, const struct nvue_op *b)
{
	if (a->unset != b->unset || a->vt != b->vt)
		return false;
	if (a->vt == NVUE_V_INT)
		return a->ival == b->ival;
	if (a->vt == NVUE_V_STR)
		return !strcmp(a->sval, b->sval);
	return true;
}

static void op_value_text(const struct nvue_op *o, char *buf, size_t len)
{
	if (o->unset)
		snprintf(buf, len, "(unset)");
	else if (o->vt == NVUE_V_INT)
		snprintf(buf, len, "%lld", o->ival);
	else if (o->vt == NVUE_V_STR)
		snprintf(buf, len, "%s", o->sval);
	else
		snprintf(buf, len, "(present)");
}

static void op_path_text(const struct nvue_op *o, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < o->n && n < len; i++) {
		int w = snprintf(buf + n, len - n, "%s%s", i ? " " : "", o->tok[i]);

		if (w < 0)
			return;
		n += (size_t)w;
	}
}

/* Append one op (path words as varargs, NULL-terminated); an identical op is kept once,
 * a different value for the same path is a conflict. */
static int add_op(struct nvue_ops *ops, struct rc_err *err, const char *port, bool unset,
		  enum nvue_val vt, long long ival, const char *sval, ...)
{
	struct nvue_op o;
	va_list ap;
	const char *w;

	memset(&o, 0, sizeof(o));
	o.unset = unset;
	o.vt = unset ? NVUE_V_NONE : vt;
	o.ival = ival;
	o.port = port;
	if (sval)
		snprintf(o.sval, sizeof(o.sval), "%s", sval);
	va_start(ap, sval);
	while ((w = va_arg(ap, const char *)) != NULL) {
		if (o.n == NVUE_PATH_MAX) {
			va_end(ap);
			return rc_errf(err, E2BIG, "NVUE path too deep");
		}
		snprintf(o.tok[o.n++], RC_NAME_MAX, "%s", w);
	}
	va_end(ap);
	for (size_t i = 0; i < ops->n; i++) {
		char p[256], a[64], b[64];

		if (!same_path(&ops->v[i], &o))
			continue;
		if (same_value(&ops->v[i], &o))
			return 0;
		op_path_text(&o, p, sizeof(p));
		op_value_text(&ops->v[i], a, sizeof(a));
		op_value_text(&o, b, sizeof(b));
		return rc_errf(err, EINVAL,
			       "ports '%s' and '%s' share '%s' but need different values (%s, %s); "
			       "bind them to separate NVUE profiles",
			       ops->v[i].port ? ops->v[i].port : "?", port ? port : "?", p, a, b);
	}
	if (rc_array_reserve((void **)&ops->v, &ops->cap, ops->n + 1, sizeof(*ops->v), 32))
		return rc_errf(err, ENOMEM, "out of memory");
	ops->v[ops->n++] = o;
	return 0;
}

#define SET_INT(port, v, ...)                                                                      \
	add_op(ops, err, port, false, NVUE_V_INT, (v), NULL, __VA_ARGS__, NULL)
#define SET_STR(port, v, ...) add_op(ops, err, port, false, NVUE_V_STR, 0, (v), __VA_ARGS__, NULL)
#define SET_MEMBER(port, ...) add_op(ops, err, port, false, NVUE_V_NONE, 0, NULL, __VA_ARGS__, NULL)
#define UNSET(port, ...)      add_op(ops, err, port, true, NVUE_V_NONE, 0, NULL, __VA_ARGS__, NULL)

/* no libm: percentages are small and non-negative */
static long long round_pct(double v)
{
	return v < 0 ? -1 : (long long)(v + 0.5);
}

static void num(char *buf, size_t len, long long v)
{
	snprintf(buf, len, "%lld", v);
}

/* ---- per group ---------------------------------------------------------------------- */

struct wctx {
	const struct rc_port_write *w;
	const struct nvue_port_info *info;
	struct nvue_ops *ops;
	struct rc_err *err;
	bool new_pfc_profile; /* the port moves to a PFC profile of its own cable length */
};

static int w_trust(struct wctx *x)
{
	const struct port_qos *want = x->w->want, *have = x->w->have;
	struct nvue_ops *ops = x->ops;
	struct rc_err *err = x->err;
	const char *v;

	if (want->trust == have->trust)
		return 0;
	if (want->trust == RC_TRUST_DSCP)
		v = "l3";
	else if (want->trust == RC_TRUST_PCP)
		v = "l2";
	else
		return 0; /* nothing to say */
	return SET_STR(x->w->port, v, "qos", "mapping", x->info->prof[NVUE_PROF_MAPPING], "trust");
}

static int w_dscp(struct wctx *x)
{
	const struct port_qos *want = x->w->want, *have = x->w->have;
	struct nvue_ops *ops = x->ops;
	struct rc_err *err = x->err;
	char id[8];
	int rc = 0;

	for (int d = 0; d < RC_NDSCP && !rc; d++) {
		if (!(want->dscp_mask & (1ull << d)))
			continue;
		if ((have->dscp_mask & (1ull << d)) && have->dscp2prio[d] == want->dscp2prio[d])
			continue;
		num(id, sizeof(id), d);
		rc = SET_INT(x->w->port, want->dscp2prio[d], "qos", "mapping",
			     x->info->prof[NVUE_PROF_MAPPING], "dscp", id, "switch-priority");
	}
	return rc;
}

static int w_prio2tc(struct wctx *x)
{
	const struct port_qos *want = x->w->want, *have = x->w->have;
	struct nvue_ops *ops = x->ops;
	struct rc_err *err = x->err;
	char id[8];
	int rc = 0;

	for (int p = 0; p < RC_NPRIO && !rc; p++) {
		if (!(want->prio_mask & (1u << p)))
			continue;
		if ((have->prio_mask & (1u << p)) && have->prio2tc[p] == want->prio2tc[p])
			continue;
		num(id, sizeof(id), p);
		/* NVUE reference, QoS: only default-global exists for egress queue mapping */
		rc = SET_INT(x->w->port, want->prio2tc[p], "qos", "egress-queue-mapping",
			     "default-global", "switch-priority", id, "traffic-class");
	}
	return rc;
}

/* The lossless traffic pool PFC needs (QoS guide, "Flow Control Buffers": configure the
 * lossless pool before PFC; Cumulus Linux 5.18 QoS guide, "Flow Control Buffers" and "Traffic
 * Pools"): its priorities include the PFC ones, it has a share of the buffer, and the pools
 * together stay within 100 %.  Outside RoCE mode the priorities also leave default-lossy, which has
 * them all by default; RoCE mode owns default-lossy itself and creates roce-lossless with SP 3. */
static int w_pool(struct wctx *x, uint8_t want)
{
	const struct nvue_port_info *in = x->info;
	const char *pool = in->roce_mode ? "roce-lossless" : "default-lossless", *port = x->w->port;
	uint8_t add = want & (uint8_t)~in->lossless_pool_prios, move;
	struct nvue_ops *ops = x->ops;
	struct rc_err *err = x->err;
	uint32_t pct = in->lossless_pool_pct;
	char id[8];
	int rc = 0;

	if (!want || !in->pools_read)
		return 0;
	/* RoCE lossy mode has no lossless pool for PFC; RoCE lossless mode creates roce-lossless
	 * with switch priority 3 (Cumulus Linux 5.18 RoCE page, "RoCE lossless" and "Default
	 * RoCE Configuration").  The mode is the switch's: every port that wants PFC asks for
	 * the same value, and the plan marks the PFC change disruptive. */
	if (in->roce_mode && in->roce_lossy) {
		rc = SET_STR(port, "lossless", "qos", "roce", "mode");
		add = want & (uint8_t) ~(1u << 3);
	}
	for (int p = 0; p < RC_NPRIO && !rc; p++) {
		num(id, sizeof(id), p);
		if (add & (1u << p))
			rc = SET_MEMBER(port, "qos", "traffic-pool", pool, "switch-priority", id);
	}
	if (rc || in->roce_mode)
		return rc;
	if (!in->lossless_pool_exists || !pct) {
		pct = NVUE_LOSSLESS_POOL_PCT;
		rc = SET_INT(port, pct, "qos", "traffic-pool", pool, "memory-percent");
	}
	if (!rc && in->lossy_pool_pct + pct > 100)
		rc = SET_INT(port, 100 - pct, "qos", "traffic-pool", "default-lossy",
			     "memory-percent");
	move = in->lossy_pool_prios & want;
	for (int p = 0; p < RC_NPRIO && !rc && move; p++) {
		num(id, sizeof(id), p);
		/* the set as configured, explicitly, without the lossless priorities */
		if (move & (1u << p))
			rc = UNSET(port, "qos", "traffic-pool", "default-lossy", "switch-priority",
				   id);
		else if (in->lossy_pool_prios & (1u << p))
			rc = SET_MEMBER(port, "qos", "traffic-pool", "default-lossy",
					"switch-priority", id);
	}
	return rc;
}

static int w_pfc(struct wctx *x)
{
	const struct nvue_port_info *in = x->info;
	const char *prof = in->prof[NVUE_PROF_PFC], *port = x->w->port;
	uint8_t want = x->w->want->pfc_enabled, cur = in->pfc_prio_set;
	struct nvue_ops *ops = x->ops;
	struct rc_err *err = x->err;
	char id[8];
	int rc = 0;

	for (int p = 0; p < RC_NPRIO && !rc; p++) {
		uint8_t bit = (uint8_t)(1u << p);

		num(id, sizeof(id), p);
		if ((want & bit) && !(cur & bit))
			rc = SET_MEMBER(port, "qos", "pfc", prof, "switch-priority", id);
		else if (!(want & bit) && (cur & bit))
			rc = UNSET(port, "qos", "pfc", prof, "switch-priority", id);
	}
	/* PFC is only in effect with both directions on */
	if (!rc && want && !in->pfc_rx)
		rc = SET_STR(port, "enable", "qos", "pfc", prof, "rx");
	if (!rc && want && !in->pfc_tx)
		rc = SET_STR(port, "enable", "qos", "pfc", prof, "tx");
	/* (a port moving to a profile of its own is not a change of its PFC) */
	return rc || !(x->w->fields & RC_F_PFC) ? rc : w_pool(x, want);
}

static int w_cable(struct wctx *x)
{
	const struct port_qos *want = x->w->want, *have = x->w->have;
	struct nvue_ops *ops = x->ops;
	struct rc_err *err = x->err;

	if (want->cable_length_m == have->cable_length_m && !x->new_pfc_profile)
		return 0;
	if (want->cable_length_m < 1 || want->cable_length_m > 100000)
		return rc_errf(err, ERANGE, "'%s': cable length %um is outside NVUE's 1..100000",
			       x->w->port, want->cable_length_m);
	/* RoCE mode sizes headroom from its own cable length (Cumulus Linux 5.18 RoCE page: `nv set
	 * qos roce cable-length`) */
	if (x->info->roce_mode)
		return SET_INT(x->w->port, want->cable_length_m, "qos", "roce", "cable-length");
	return SET_INT(x->w->port, want->cable_length_m, "qos", "pfc", x->info->prof[NVUE_PROF_PFC],
		       "cable-length");
}

static int w_ecn(struct wctx *x)
{
	const struct port_qos *want = x->w->want, *have = x->w->have;
	const char *prof = x->info->prof[NVUE_PROF_CC], *port = x->w->port;
	struct nvue_ops *ops = x->ops;
	struct rc_err *err = x->err;
	char id[8];
	int rc = 0;

	for (int t = 0; t < RC_NTC && !rc; t++) {
		const struct rc_ecn_tc *wt = &want->ecn[t], *ht = &have->ecn[t];
		bool known = have->ecn_tc_mask & (1u << t);
		long long p;

		if (!(want->ecn_tc_mask & (1u << t)))
			continue;
		num(id, sizeof(id), t);
		if (!wt->enabled) {
			if (!known || ht->enabled)
				rc = SET_STR(port, "disable", "qos", "congestion-control", prof,
					     "traffic-class", id, "ecn");
			continue;
		}
		if (wt->kmin_bytes < 1 || wt->kmax_bytes < 1 || wt->kmin_bytes >= wt->kmax_bytes)
			return rc_errf(err, EINVAL,
				       "'%s': ECN thresholds of traffic class %d are not "
				       "0 < min < max",
				       port, t);
		p = round_pct(wt->pmax_pct);
		if (p < 1 || p > 100)
			return rc_errf(err, ERANGE,
				       "'%s': ECN probability %g%% is outside NVUE's 1..100", port,
				       wt->pmax_pct);
		if (!known || !ht->enabled)
			rc = SET_STR(port, "enable", "qos", "congestion-control", prof,
				     "traffic-class", id, "ecn");
		if (!rc && (!known || ht->kmin_bytes != wt->kmin_bytes))
			rc = SET_INT(port, (long long)wt->kmin_bytes, "qos", "congestion-control",
				     prof, "traffic-class", id, "min-threshold");
		if (!rc && (!known || ht->kmax_bytes != wt->kmax_bytes))
			rc = SET_INT(port, (long long)wt->kmax_bytes, "qos", "congestion-control",
				     prof, "traffic-class", id, "max-threshold");
		if (!rc && (!known || round_pct(ht->pmax_pct) != p))
			rc = SET_INT(port, p, "qos", "congestion-control", prof, "traffic-class",
				     id, "probability");
	}
	return rc;
}

static int w_ets(struct wctx *x)
{
	const struct rc_ets *want = &x->w->want->ets, *have = &x->w->have->ets;
	const char *prof = x->info->prof[NVUE_PROF_SCHED], *port = x->w->port;
	struct nvue_ops *ops = x->ops;
	struct rc_err *err = x->err;
	char id[8];
	int rc = 0;

	for (int t = 0; t < RC_NTC && !rc; t++) {
		bool known = have->tc_mask & (1u << t);

		if (!(want->tc_mask & (1u << t)))
			continue;
		num(id, sizeof(id), t);
		if (want->tsa[t] != RC_TSA_STRICT && want->tsa[t] != RC_TSA_DWRR)
			continue;
		if (!known || have->tsa[t] != want->tsa[t])
			rc = SET_STR(port, want->tsa[t] == RC_TSA_STRICT ? "strict" : "dwrr", "qos",
				     "egress-scheduler", prof, "traffic-class", id, "mode");
		if (rc || want->tsa[t] != RC_TSA_DWRR)
			continue;
		if (want->bw_pct[t] < 1 || want->bw_pct[t] > 100)
			return rc_errf(err, ERANGE,
				       "'%s': bandwidth %u%% of traffic class %d is "
				       "outside NVUE's 1..100",
				       port, want->bw_pct[t], t);
		if (!known || have->bw_pct[t] != want->bw_pct[t])
			rc = SET_INT(port, want->bw_pct[t], "qos", "egress-scheduler", prof,
				     "traffic-class", id, "bw-percent");
	}
	/* A class the policy leaves out carries no traffic (every priority is mapped to a
	 * listed class) and must hold no DWRR share: NVUE's shares are 1..100 and unset means
	 * the factory share, so such a class is made strict, which has no share. */
	for (int t = 0; t < RC_NTC && !rc; t++) {
		if (!(want->no_share_mask & have->tc_mask & (1u << t)) ||
		    have->tsa[t] != RC_TSA_DWRR || !have->bw_pct[t])
			continue;
		num(id, sizeof(id), t);
		rc = SET_STR(port, "strict", "qos", "egress-scheduler", prof, "traffic-class", id,
			     "mode");
	}
	return rc;
}

int nvue_wd_split(uint32_t detection_ms, uint32_t *poll_ms, uint32_t *robustness)
{
	/* NVUE's own 100 ms polling when the time allows it, else the smallest polling
	 * interval in range that divides the time into an allowed number of polls */
	for (uint32_t poll = NVUE_WD_POLL_MIN; poll <= NVUE_WD_POLL_MAX; poll++) {
		uint32_t n = detection_ms / poll;

		if (detection_ms % poll || n < NVUE_WD_ROBUST_MIN || n > NVUE_WD_ROBUST_MAX)
			continue;
		*poll_ms = poll;
		*robustness = n;
		return 0;
	}
	return -ERANGE;
}

/* NVUE has one timer (polling-interval x robustness) for detection and restoration and
 * always drops: the reader marks restoration and action as fixed (the diff reports them
 * as not controllable), so only the detection time and the state are written here. */
static int w_watchdog(struct wctx *x)
{
	const struct rc_watchdog *want = &x->w->want->watchdog, *have = &x->w->have->watchdog;
	const char *port = x->w->port;
	struct nvue_ops *ops = x->ops;
	struct rc_err *err = x->err;
	uint32_t poll, robust;
	int rc = 0;

	if (want->enabled != have->enabled)
		rc = SET_STR(port, want->enabled ? "enable" : "disable", "interface", port, "qos",
			     "pfc-watchdog", "state");
	if (rc || !want->enabled)
		return rc;
	if (want->detection_ms == have->detection_ms)
		return 0;
	rc = nvue_wd_split(want->detection_ms, &poll, &robust);
	if (rc)
		return rc_errf(err, ERANGE,
			       "'%s': watchdog detection %ums cannot be made of NVUE's "
			       "polling-interval (%u..%u ms) x robustness (%u..%u); nothing "
			       "was written",
			       port, want->detection_ms, NVUE_WD_POLL_MIN, NVUE_WD_POLL_MAX,
			       NVUE_WD_ROBUST_MIN, NVUE_WD_ROBUST_MAX);
	if (poll != x->info->wd_polling_ms)
		rc = SET_INT(port, poll, "qos", "pfc-watchdog", "polling-interval");
	if (!rc && robust != x->info->wd_robustness)
		rc = SET_INT(port, robust, "qos", "pfc-watchdog", "robustness");
	return rc;
}

static const struct {
	uint32_t group;
	int (*fn)(struct wctx *x);
} writers[] = {
    {RC_F_TRUST, w_trust}, {RC_F_DSCP2PRIO, w_dscp},	{RC_F_PRIO2TC, w_prio2tc},
    {RC_F_PFC, w_pfc},	   {RC_F_CABLE, w_cable},	{RC_F_ECN, w_ecn},
    {RC_F_ETS, w_ets},	   {RC_F_WATCHDOG, w_watchdog},
};

/* Does op `o` (made for a port) change a profile that port `other` also uses? */
static bool op_touches(const struct nvue_op *o, const struct nvue_port_info *other)
{
	static const char *const keys[NVUE_PROF_N] = {"mapping", "pfc", "congestion-control",
						      "egress-scheduler"};

	if (o->n < 2 || strcmp(o->tok[0], "qos"))
		return false; /* interface-level: that port only */
	if (!strcmp(o->tok[1], "egress-queue-mapping") || !strcmp(o->tok[1], "pfc-watchdog") ||
	    !strcmp(o->tok[1], "roce") || !strcmp(o->tok[1], "traffic-pool"))
		return true; /* global */
	for (int k = 0; k < NVUE_PROF_N; k++)
		if (!strcmp(o->tok[1], keys[k]) && o->n > 2 && !strcmp(o->tok[2], other->prof[k]))
			return true;
	return false;
}

static uint32_t group_of(const struct nvue_op *o)
{
	if (!strcmp(o->tok[0], "interface"))
		return RC_F_WATCHDOG;
	if (!strcmp(o->tok[1], "mapping"))
		return o->n > 3 && !strcmp(o->tok[3], "trust") ? RC_F_TRUST : RC_F_DSCP2PRIO;
	if (!strcmp(o->tok[1], "egress-queue-mapping"))
		return RC_F_PRIO2TC;
	if (!strcmp(o->tok[1], "pfc"))
		return o->n > 3 && !strcmp(o->tok[3], "cable-length") ? RC_F_CABLE : RC_F_PFC;
	if (!strcmp(o->tok[1], "congestion-control"))
		return RC_F_ECN;
	if (!strcmp(o->tok[1], "roce")) /* its mode decides every port's PFC (w_pool) */
		return o->n > 2 && !strcmp(o->tok[2], "mode") ? RC_F_PFC : RC_F_CABLE;
	if (!strcmp(o->tok[1], "traffic-pool"))
		return RC_F_PFC;
	if (!strcmp(o->tok[1], "egress-scheduler"))
		return RC_F_ETS;
	return RC_F_WATCHDOG;
}

/* The cable length a port sharing `prof` will have: what it is asked for if it is written
 * with RC_F_CABLE, else what it has. */
static bool pfc_profile_conflict(const struct rc_port_write *w, const struct nvue_port_info *info,
				 size_t n, const struct nvue_peer *peers, size_t n_peers, size_t i)
{
	const char *prof = info[i].prof[NVUE_PROF_PFC];
	uint32_t mine = w[i].want->cable_length_m;

	for (size_t j = 0; j < n; j++)
		if (j != i && !strcmp(info[j].prof[NVUE_PROF_PFC], prof) &&
		    (w[j].fields & RC_F_CABLE) && w[j].want->cable_length_m != mine)
			return true;
	for (size_t p = 0; p < n_peers; p++) {
		bool written = false;

		for (size_t j = 0; j < n; j++)
			written |= !strcmp(w[j].port, peers[p].port);
		if (!written && !strcmp(peers[p].info->prof[NVUE_PROF_PFC], prof) &&
		    peers[p].info->cable_length_m != mine)
			return true;
	}
	return false;
}

/* Ports that share a PFC profile but need different cable lengths (host links of 3 m and
 * uplinks of 30 m on one leaf) each move to a profile of their own length, created here
 * with the PFC settings they want: one NVUE profile carries one cable length. */
static int split_pfc_profiles(const struct rc_port_write *w, struct nvue_port_info *info, size_t n,
			      const struct nvue_peer *peers, size_t n_peers, bool *moved,
			      struct nvue_ops *ops, struct rc_err *err)
{
	int rc = 0;

	/* judge every port against the profiles as read, then move: the result does not
	 * depend on the order of the ports */
	/* (RoCE mode has one cable length for the switch: nothing to split) */
	for (size_t i = 0; i < n; i++)
		moved[i] = (w[i].fields & RC_F_CABLE) && !info[i].roce_mode &&
			   pfc_profile_conflict(w, info, n, peers, n_peers, i);
	for (size_t i = 0; i < n && !rc; i++) {
		char name[RC_NAME_MAX];

		if (!moved[i])
			continue;
		snprintf(name, sizeof(name), "rocectl-cable-%um", w[i].want->cable_length_m);
		if (!strcmp(info[i].prof[NVUE_PROF_PFC], name)) {
			moved[i] = false;
			continue;
		}
		snprintf(info[i].prof[NVUE_PROF_PFC], sizeof(info[i].prof[NVUE_PROF_PFC]), "%s",
			 name);
		info[i].pfc_prio_set = 0;
		info[i].pfc_rx = info[i].pfc_tx = false;
		rc = SET_STR(w[i].port, name, "interface", w[i].port, "qos", "pfc", "profile");
	}
	return rc;
}

int nvue_build_ops(const struct rc_port_write *w, const struct nvue_port_info *info_in, size_t n,
		   const struct nvue_peer *peers, size_t n_peers, struct nvue_ops *ops,
		   struct rc_err *err)
{
	struct nvue_port_info *info = malloc((n ? n : 1) * sizeof(*info));
	bool *moved = calloc(n ? n : 1, sizeof(*moved));
	int rc = 0;

	memset(ops, 0, sizeof(*ops));
	if (!info || !moved) {
		free(info);
		free(moved);
		return rc_errf(err, ENOMEM, "out of memory");
	}
	memcpy(info, info_in, n * sizeof(*info));
	for (size_t i = 0; i < n && !rc; i++)
		if (!nvue_port_name_ok(w[i].port))
			rc =
			    rc_errf(err, EINVAL,
				    "port name '%s' is not a valid NVUE interface name", w[i].port);
	if (!rc)
		rc = split_pfc_profiles(w, info, n, peers, n_peers, moved, ops, err);
	for (size_t i = 0; i < n && !rc; i++) {
		struct wctx x = {&w[i], &info[i], ops, err, moved[i]};
		uint32_t fields = w[i].fields;

		/* a new profile needs the port's whole PFC setting, not only what changed */
		if (moved[i])
			fields |= RC_F_PFC | RC_F_CABLE;
		for (size_t g = 0; g < sizeof(writers) / sizeof(writers[0]) && !rc; g++)
			if (fields & writers[g].group)
				rc = writers[g].fn(&x);
	}
	free(moved);
	/* A shared profile may only change when every port using it wants that change. */
	for (size_t k = 0; k < ops->n && !rc; k++) {
		const struct nvue_op *o = &ops->v[k];
		uint32_t g = group_of(o);

		for (size_t p = 0; p < n_peers && !rc; p++) {
			if (!op_touches(o, peers[p].info))
				continue;
			if (!rc_switch_port_writes(w, n, peers[p].port, g)) {
				char path[256];

				op_path_text(o, path, sizeof(path));
				rc = rc_errf(err, EINVAL,
					     "changing '%s' for port '%s' would also change port "
					     "'%s', which shares it and is already as wanted; bind "
					     "them to separate NVUE profiles",
					     path, o->port ? o->port : "?", peers[p].port);
			}
		}
	}
	free(info);
	if (rc)
		nvue_ops_free(ops);
	return rc;
}

/* ---- rendering ---------------------------------------------------------------------- */

char *nvue_render_cli(const struct nvue_ops *ops)
{
	size_t cap = 64 + ops->n * (NVUE_PATH_MAX * RC_NAME_MAX + RC_NAME_MAX + 16), len = 0;
	char *buf = malloc(cap);

	if (!buf)
		return NULL;
	buf[0] = '\0';
	for (size_t i = 0; i < ops->n; i++) {
		const struct nvue_op *o = &ops->v[i];
		char path[NVUE_PATH_MAX * RC_NAME_MAX + 8], val[RC_NAME_MAX + 2] = "";

		op_path_text(o, path, sizeof(path));
		if (!o->unset && o->vt == NVUE_V_INT)
			snprintf(val, sizeof(val), " %lld", o->ival);
		else if (!o->unset && o->vt == NVUE_V_STR)
			snprintf(val, sizeof(val), " %s", o->sval);
		len += (size_t)snprintf(buf + len, cap - len, "nv %s %s%s\n",
					o->unset ? "unset" : "set", path, val);
	}
	return buf;
}

cJSON *nvue_render_patch(const struct nvue_ops *ops)
{
	cJSON *root = cJSON_CreateObject();

	for (size_t i = 0; root && i < ops->n; i++) {
		const struct nvue_op *o = &ops->v[i];
		cJSON *cur = root, *leaf;

		for (int t = 0; t + 1 < o->n; t++) {
			cJSON *next = cJSON_GetObjectItemCaseSensitive(cur, o->tok[t]);

			if (!cJSON_IsObject(next)) {
				if (next)
					cJSON_DeleteItemFromObjectCaseSensitive(cur, o->tok[t]);
				next = cJSON_AddObjectToObject(cur, o->tok[t]);
			}
			if (!next)
				goto fail;
			cur = next;
		}
		if (o->unset)
			leaf = cJSON_CreateNull();
		else if (o->vt == NVUE_V_INT)
			leaf = cJSON_CreateNumber((double)o->ival);
		else if (o->vt == NVUE_V_STR)
			leaf = cJSON_CreateString(o->sval);
		else
			leaf = cJSON_CreateObject();
		if (!leaf)
			goto fail;
		cJSON_DeleteItemFromObjectCaseSensitive(cur, o->tok[o->n - 1]);
		cJSON_AddItemToObject(cur, o->tok[o->n - 1], leaf);
	}
	return root;
fail:
	cJSON_Delete(root);
	return NULL;
}

/* ---- apply results ------------------------------------------------------------------ */

/* The first line of `text` that contains `needle`, cleaned. */
static bool find_line(const char *text, size_t len, const char *needle, char *out, size_t olen)
{
	size_t nl = strlen(needle);

	for (size_t i = 0; text && i + nl <= len; i++) {
		if (memcmp(text + i, needle, nl))
			continue;
		size_t s = i, e = i;

		while (s > 0 && text[s - 1] != '\n')
			s--;
		while (e < len && text[e] != '\n')
			e++;
		rc_clean_text(text + s, e - s, out, olen);
		return true;
	}
	return false;
}

int nvue_check_apply_output(const char *out, size_t out_len, const char *errout, size_t err_len,
			    int exit_status, char *why, size_t why_len)
{
	/* the first two are definitive (Cumulus Linux "NVUE CLI"); the others only explain a failed
	 * exit */
	static const char *const marks[] = {"Config invalid", "Invalid config", "Error",
					    "error:",	      "Aborted",	"failed"};

	why[0] = '\0';
	for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
		if (exit_status == 0 && i >= 2)
			break;
		if (find_line(errout, err_len, marks[i], why, why_len) ||
		    find_line(out, out_len, marks[i], why, why_len))
			return -EIO;
	}
	return rc_switch_cli_status(out, out_len, errout, err_len, exit_status, why, why_len);
}
