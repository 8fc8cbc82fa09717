/* SPDX-License-Identifier: Apache-2.0 */
/* The policy file (docs/POLICY.md): strict schema, units, then the cross-field rules. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "rocectl/inventory.h"
#include "rocectl/policy.h"
#include "rocectl/units.h"
#include "yaml_walk.h"

#define SIZE_MAX_BYTES	(1024ull * 1024 * 1024) /* sanity bound for thresholds and headroom */
#define WATCHDOG_MAX_MS 60000

static const char *const root_keys[] = {
    "apiVersion", "kind", "name", "trust",     "roce",		 "cnp",	  "pfc", "ecn",
    "headroom",	  "ets",  "host", "tolerance", "priority_to_tc", "dcqcn", NULL,
};
static const char *const root_required[] = {"name", "roce", "cnp", "pfc", "ecn", NULL};
static const char *const prio_keys[] = {"dscp", "priority", NULL};
static const char *const pfc_keys[] = {"priorities", "watchdog", NULL};
static const char *const pfc_required[] = {"priorities", NULL};
static const char *const wd_keys[] = {"detection", "restoration", "action", NULL};
static const char *const ecn_keys[] = {
    "enabled", "traffic_class", "min_threshold", "max_threshold", "probability", "host", NULL};
static const char *const ecn_required_on[] = {"min_threshold", "max_threshold", "probability",
					      NULL};
static const char *const ecn_host_keys[] = {"notification_point", "reaction_point", NULL};
static const char *const headroom_keys[] = {"cable_length", "mtu", "size", NULL};
static const char *const ets_keys[] = {"traffic_class", "mode", "bandwidth", NULL};
static const char *const ets_required[] = {"traffic_class", "mode", NULL};
static const char *const host_keys[] = {"roce_tos", NULL};
static const char *const tolerance_keys[] = {"threshold", NULL};
static const char *const dcqcn_keys[] = {"rp", "np", NULL};
static const char *const dcqcn_rp_keys[] = {
    "rp_ai_rate",
    "rp_hai_rate",
    "rp_min_rate",
    "rp_time_reset",
    "rp_byte_reset",
    "rp_threshold",
    "rp_initial_alpha_value",
    "rp_gd",
    NULL,
};
static const char *const dcqcn_np_keys[] = {"np_min_time_between_cnps", NULL};
static const char *const trust_names[] = {"pcp", "dscp", NULL};
static const char *const wd_action_names[] = {"drop", "forward", NULL};
static const char *const tsa_names[] = {"strict", "dwrr", NULL};

static struct rc_pos pos_of(const struct yd_node *n)
{
	return (struct rc_pos){n ? n->line : 0, n ? n->col : 0};
}

/* ---- warnings ---- */

void rc_warn_add(struct rc_warnings *w, const char *file, int line, int column, const char *fmt,
		 ...)
{
	struct rc_err *e;
	va_list ap;

	if (!w)
		return;
	if (w->n >= RC_WARN_MAX) {
		w->dropped++;
		return;
	}
	e = &w->w[w->n++];
	memset(e, 0, sizeof(*e));
	snprintf(e->file, sizeof(e->file), "%s", file ? file : "");
	e->line = line;
	e->column = column;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
}

void rc_warnings_print(const struct rc_warnings *w, FILE *out)
{
	if (!w)
		return;
	for (int i = 0; i < w->n && i < RC_WARN_MAX; i++) {
		const struct rc_err *e = &w->w[i];

		if (e->file[0])
			fprintf(out, "%s:%d:%d: warning: %s\n", e->file, e->line, e->column,
				e->msg);
		else
			fprintf(out, "warning: %s\n", e->msg);
	}
	if (w->dropped)
		fprintf(out, "warning: %d more warnings not shown\n", w->dropped);
}

/* ---- the cross-field rules ---- */

static void prio_list(uint8_t mask, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int p = 0; p < RC_NPRIO && o < len; p++)
		if (mask & (1u << p))
			o += (size_t)snprintf(buf + o, len - o, "%s%d", o ? ", " : "", p);
}

static int fail(const struct rc_policy *p, struct rc_pos at, struct rc_err *err, const char *fmt,
		...) __attribute__((format(printf, 4, 5)));

static int fail(const struct rc_policy *p, struct rc_pos at, struct rc_err *err, const char *fmt,
		...)
{
	char msg[RC_ERR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (at.line <= 0)
		at = p->pos.root;
	return rc_err_at(err, EINVAL, p->file, at.line > 0 ? at.line : 1,
			 at.column > 0 ? at.column : 1, "%s", msg);
}

static int check_classes(const struct rc_policy *p, struct rc_err *err)
{
	char list[32];

	prio_list(p->pfc_priorities, list, sizeof(list));
	if (!(p->pfc_priorities & (1u << p->roce_priority)))
		return fail(p, p->pos.roce_priority, err,
			    "roce.priority %u must be one of pfc.priorities [%s]: RoCE traffic "
			    "must be lossless",
			    p->roce_priority, list);
	if (p->cnp_priority == p->roce_priority)
		return fail(p, p->pos.cnp_priority, err,
			    "cnp.priority %u must differ from roce.priority %u", p->cnp_priority,
			    p->roce_priority);
	if (p->pfc_priorities & (1u << p->cnp_priority))
		return fail(p, p->pos.cnp_priority, err,
			    "cnp.priority %u must not be in pfc.priorities [%s]: CNPs must not be "
			    "paused",
			    p->cnp_priority, list);
	if (p->cnp_dscp == p->roce_dscp)
		return fail(p, p->pos.cnp_dscp, err, "cnp.dscp %u must differ from roce.dscp %u",
			    p->cnp_dscp, p->roce_dscp);
	if (p->ecn.traffic_class != p->prio2tc[p->roce_priority])
		return fail(p, p->pos.ecn_tc, err,
			    "ecn.traffic_class %u is not the class roce.priority %u maps to (%u)",
			    p->ecn.traffic_class, p->roce_priority, p->prio2tc[p->roce_priority]);
	return 0;
}

static int check_ecn(const struct rc_policy *p, struct rc_err *err)
{
	char a[32], b[32];
	bool given = p->ecn.kmin_bytes || p->ecn.kmax_bytes;

	if (p->ecn.enabled && !given)
		return fail(p, p->pos.ecn_enabled, err,
			    "ecn is enabled but ecn.min_threshold and ecn.max_threshold are not "
			    "set");
	if (given && p->ecn.kmin_bytes >= p->ecn.kmax_bytes) {
		rc_format_size(p->ecn.kmin_bytes, a, sizeof(a));
		rc_format_size(p->ecn.kmax_bytes, b, sizeof(b));
		return fail(p, p->pos.kmin.line ? p->pos.kmin : p->pos.kmax, err,
			    "ecn.min_threshold (%s) must be below ecn.max_threshold (%s)", a, b);
	}
	if (p->ecn.kmax_bytes > SIZE_MAX_BYTES) {
		rc_format_size(p->ecn.kmax_bytes, b, sizeof(b));
		return fail(p, p->pos.kmax, err, "ecn.max_threshold (%s) must be at most 1GiB", b);
	}
	if ((p->ecn.enabled || p->ecn.pmax_pct != 0) &&
	    !(p->ecn.pmax_pct > 0 && p->ecn.pmax_pct <= 100))
		return fail(p, p->pos.pmax, err,
			    "ecn.probability (%g%%) must be above 0%% and at most 100%%",
			    p->ecn.pmax_pct);
	return 0;
}

static int check_headroom(const struct rc_policy *p, struct rc_err *err)
{
	char a[32];

	if (p->headroom.cable_length_m < RC_CABLE_MIN_M ||
	    p->headroom.cable_length_m > RC_CABLE_MAX_M)
		return fail(p, p->pos.cable_length, err,
			    "headroom.cable_length (%um) must be between 1m and 100km",
			    p->headroom.cable_length_m);
	if (p->headroom.mtu < RC_MTU_MIN || p->headroom.mtu > RC_MTU_MAX)
		return fail(p, p->pos.mtu, err, "headroom.mtu (%u) must be between %d and %d",
			    p->headroom.mtu, RC_MTU_MIN, RC_MTU_MAX);
	if (p->headroom.size_bytes > SIZE_MAX_BYTES) {
		rc_format_size(p->headroom.size_bytes, a, sizeof(a));
		return fail(p, p->pos.size, err, "headroom.size (%s) must be at most 1GiB", a);
	}
	return 0;
}

static int check_rest(const struct rc_policy *p, struct rc_err *err)
{
	double sum = 0;
	int dwrr = 0, tos_dscp;

	for (int i = 0; i < p->n_ets; i++) {
		if (p->ets[i].mode == RC_TSA_DWRR) {
			sum += p->ets[i].bandwidth_pct;
			dwrr++;
		}
	}
	if (dwrr && fabs(sum - 100.0) > 1e-9)
		return fail(p, p->pos.ets, err,
			    "ets: bandwidths of the dwrr classes sum to %g%%, not 100%%", sum);
	tos_dscp = p->roce_tos >> 2;
	if (p->roce_tos < 0 || p->roce_tos > 255 || tos_dscp != p->roce_dscp)
		return fail(p, p->pos.roce_tos, err,
			    "host.roce_tos %d carries DSCP %d, not roce.dscp %u (auto gives %u)",
			    p->roce_tos, tos_dscp, p->roce_dscp, (unsigned)(p->roce_dscp << 2 | 2));
	if (!(p->tolerance_pct >= 0 && p->tolerance_pct <= RC_TOLERANCE_MAX_PCT))
		return fail(p, p->pos.tolerance, err,
			    "tolerance.threshold (%g%%) must be between 0%% and 50%%",
			    p->tolerance_pct);
	return 0;
}

static void warnings(const struct rc_policy *p, struct rc_warnings *warn)
{
	int n = __builtin_popcount(p->pfc_priorities);
	struct rc_pos at;

	if (!p->ecn.enabled) {
		at = p->pos.ecn_enabled.line ? p->pos.ecn_enabled : p->pos.ecn;
		rc_warn_add(warn, p->file, at.line, at.column,
			    "ecn.enabled is false: congestion is left to PFC pauses alone "
			    "(head-of-line blocking, pause storms)");
	}
	if (n > 2)
		rc_warn_add(warn, p->file, p->pos.pfc_priorities.line, p->pos.pfc_priorities.column,
			    "pfc.priorities has %d lossless priorities; switch headroom rarely "
			    "allows more than two",
			    n);
	if (!p->watchdog_present)
		rc_warn_add(warn, p->file, p->pos.pfc.line, p->pos.pfc.column,
			    "pfc.watchdog is not set: a PFC storm from a stuck receiver can stall "
			    "the fabric");
}

int rc_policy_check(const struct rc_policy *p, struct rc_warnings *warn, struct rc_err *err)
{
	int rc;

	if (p->roce_priority >= RC_NPRIO || p->cnp_priority >= RC_NPRIO ||
	    p->roce_dscp >= RC_NDSCP || p->cnp_dscp >= RC_NDSCP || p->ecn.traffic_class >= RC_NTC)
		return fail(p, p->pos.root, err, "priority, DSCP or traffic class out of range");
	rc = check_classes(p, err);
	if (rc == 0)
		rc = check_ecn(p, err);
	if (rc == 0)
		rc = check_headroom(p, err);
	if (rc == 0)
		rc = check_rest(p, err);
	if (rc == 0)
		warnings(p, warn);
	return rc;
}

/* ---- reading the file ---- */

static int read_prio_pair(struct yw *w, const struct yw_map *root, const char *key, uint8_t *dscp,
			  uint8_t *prio, struct rc_pos *dpos, struct rc_pos *ppos)
{
	static const char *const req[] = {"dscp", "priority", NULL};
	struct yw_map m;
	int rc;

	rc = yw_f_map(w, root, key, prio_keys, &m);
	if (rc <= 0)
		return rc;
	if (yw_require(w, &m, req) < 0 || yw_f_u8(w, &m, "dscp", RC_NDSCP - 1, dscp) < 0 ||
	    yw_f_u8(w, &m, "priority", RC_NPRIO - 1, prio) < 0)
		return -EINVAL;
	*dpos = pos_of(yw_get(&m, "dscp"));
	*ppos = pos_of(yw_get(&m, "priority"));
	return 0;
}

static int read_watchdog(struct yw *w, const struct yw_map *pfc, struct rc_policy *p)
{
	struct yw_map m;
	int action = RC_WD_DROP, rc;

	rc = yw_f_map(w, pfc, "watchdog", wd_keys, &m);
	if (rc <= 0)
		return rc;
	p->watchdog_present = true;
	p->watchdog.enabled = true;
	p->watchdog.detection_ms = 200;
	p->watchdog.restoration_ms = 400;
	if (yw_f_ms(w, &m, "detection", WATCHDOG_MAX_MS, &p->watchdog.detection_ms) < 0 ||
	    yw_f_ms(w, &m, "restoration", WATCHDOG_MAX_MS, &p->watchdog.restoration_ms) < 0 ||
	    yw_f_enum(w, &m, "action", wd_action_names, &action) < 0)
		return -EINVAL;
	p->watchdog.action = action == 1 ? RC_WD_FORWARD : RC_WD_DROP;
	return 0;
}

static int read_pfc(struct yw *w, const struct yw_map *root, struct rc_policy *p)
{
	const struct yd_node *list;
	struct yw_map m;
	char path[YW_PATH_MAX];

	if (yw_f_map(w, root, "pfc", pfc_keys, &m) < 0 || yw_require(w, &m, pfc_required) < 0)
		return -EINVAL;
	p->pos.pfc = pos_of(yw_get_key(root, "pfc"));
	if (yw_f_seq(w, &m, "priorities", &list) < 0)
		return -EINVAL;
	p->pos.pfc_priorities = pos_of(list);
	if (list->n == 0)
		return yw_fail(w, list, "pfc.priorities: list at least one lossless priority");
	for (size_t i = 0; i < list->n; i++) {
		uint64_t v;

		yw_index(path, "pfc.priorities", i);
		if (yw_uint(w, list->kids[i], path, 0, RC_NPRIO - 1, &v) < 0)
			return -EINVAL;
		if (p->pfc_priorities & (1u << v))
			return yw_fail(w, list->kids[i], "%s: priority %u is listed twice", path,
				       (unsigned)v);
		p->pfc_priorities |= (uint8_t)(1u << v);
	}
	return read_watchdog(w, &m, p);
}

static int read_ecn(struct yw *w, const struct yw_map *root, struct rc_policy *p)
{
	struct yw_map m, host;
	int rc;

	if (yw_f_map(w, root, "ecn", ecn_keys, &m) < 0)
		return -EINVAL;
	p->pos.ecn = pos_of(m.node);
	p->ecn.enabled = true;
	if (yw_f_bool(w, &m, "enabled", &p->ecn.enabled) < 0)
		return -EINVAL;
	/* Without marking switches a NIC has nothing to notify or react to. */
	p->ecn.host_np = p->ecn.enabled;
	p->ecn.host_rp = p->ecn.enabled;
	if (p->ecn.enabled && yw_require(w, &m, ecn_required_on) < 0)
		return -EINVAL;
	rc = yw_f_u8(w, &m, "traffic_class", RC_NTC - 1, &p->ecn.traffic_class);
	if (rc < 0)
		return rc;
	if (rc == 0)
		p->ecn.traffic_class = p->prio2tc[p->roce_priority];
	if (yw_f_size(w, &m, "min_threshold", &p->ecn.kmin_bytes) < 0 ||
	    yw_f_size(w, &m, "max_threshold", &p->ecn.kmax_bytes) < 0 ||
	    yw_f_percent(w, &m, "probability", &p->ecn.pmax_pct) < 0)
		return -EINVAL;
	p->pos.ecn_enabled = pos_of(yw_get(&m, "enabled"));
	p->pos.ecn_tc = pos_of(yw_get(&m, "traffic_class"));
	p->pos.kmin = pos_of(yw_get(&m, "min_threshold"));
	p->pos.kmax = pos_of(yw_get(&m, "max_threshold"));
	p->pos.pmax = pos_of(yw_get(&m, "probability"));
	rc = yw_f_map(w, &m, "host", ecn_host_keys, &host);
	if (rc < 0)
		return rc;
	if (rc == 1 && (yw_f_bool(w, &host, "notification_point", &p->ecn.host_np) < 0 ||
			yw_f_bool(w, &host, "reaction_point", &p->ecn.host_rp) < 0))
		return -EINVAL;
	return 0;
}

static int read_headroom(struct yw *w, const struct yw_map *root, struct rc_policy *p)
{
	struct yw_map m;
	uint64_t mtu;
	int rc;

	p->headroom.cable_length_m = 100;
	p->headroom.mtu = 9216;
	rc = yw_f_map(w, root, "headroom", headroom_keys, &m);
	if (rc <= 0)
		return rc;
	if (yw_f_length(w, &m, "cable_length", &p->headroom.cable_length_m) < 0 ||
	    yw_f_size(w, &m, "size", &p->headroom.size_bytes) < 0)
		return -EINVAL;
	rc = yw_f_uint(w, &m, "mtu", 0, UINT32_MAX, &mtu);
	if (rc < 0)
		return rc;
	if (rc == 1)
		p->headroom.mtu = (uint32_t)mtu;
	if (yw_get(&m, "size") && p->headroom.size_bytes == 0)
		return yw_fail(w, yw_get(&m, "size"),
			       "headroom.size: must be above 0 (leave it out for computed "
			       "headroom)");
	p->pos.cable_length = pos_of(yw_get(&m, "cable_length"));
	p->pos.mtu = pos_of(yw_get(&m, "mtu"));
	p->pos.size = pos_of(yw_get(&m, "size"));
	return 0;
}

static int read_ets_entry(struct yw *w, const struct yd_node *n, const char *path,
			  struct rc_policy_ets_entry *e, uint8_t *seen)
{
	struct yw_map m;
	int mode;

	if (yw_map(w, n, path, ets_keys, &m) < 0 || yw_require(w, &m, ets_required) < 0 ||
	    yw_f_u8(w, &m, "traffic_class", RC_NTC - 1, &e->traffic_class) < 0 ||
	    yw_f_enum(w, &m, "mode", tsa_names, &mode) < 0)
		return -EINVAL;
	if (*seen & (1u << e->traffic_class))
		return yw_fail(w, yw_get(&m, "traffic_class"),
			       "%s.traffic_class: traffic class %u is listed twice", path,
			       e->traffic_class);
	*seen |= (uint8_t)(1u << e->traffic_class);
	e->mode = mode == 0 ? RC_TSA_STRICT : RC_TSA_DWRR;
	if (e->mode == RC_TSA_STRICT) {
		if (yw_get(&m, "bandwidth"))
			return yw_fail(w, yw_get(&m, "bandwidth"),
				       "%s.bandwidth: only dwrr classes have a bandwidth", path);
		return 0;
	}
	if (!yw_get(&m, "bandwidth"))
		return yw_fail(w, n, "%s: missing required key 'bandwidth' (dwrr)", path);
	if (yw_f_percent(w, &m, "bandwidth", &e->bandwidth_pct) < 0)
		return -EINVAL;
	if (e->bandwidth_pct < 1 || e->bandwidth_pct > 100 ||
	    e->bandwidth_pct != floor(e->bandwidth_pct))
		return yw_fail(w, yw_get(&m, "bandwidth"),
			       "%s.bandwidth: ETS bandwidth must be a whole percent from 1%% to "
			       "100%%, found %g%%",
			       path, e->bandwidth_pct);
	return 0;
}

static int read_ets(struct yw *w, const struct yw_map *root, struct rc_policy *p)
{
	const struct yd_node *list;
	char path[YW_PATH_MAX];
	uint8_t seen = 0;
	int rc;

	rc = yw_f_seq(w, root, "ets", &list);
	if (rc <= 0)
		return rc;
	p->pos.ets = pos_of(list);
	if (list->n > RC_NTC)
		return yw_fail(w, list, "ets: at most %d traffic classes, found %zu", RC_NTC,
			       list->n);
	for (size_t i = 0; i < list->n; i++) {
		yw_index(path, "ets", i);
		if (read_ets_entry(w, list->kids[i], path, &p->ets[i], &seen) < 0)
			return -EINVAL;
		p->n_ets++;
	}
	return 0;
}

static int read_prio2tc(struct yw *w, const struct yw_map *root, struct rc_policy *p)
{
	const struct yd_node *n = yw_get(root, "priority_to_tc");
	char path[YW_PATH_MAX], shown[64];
	uint8_t seen = 0;

	for (int i = 0; i < RC_NPRIO; i++)
		p->prio2tc[i] = (uint8_t)i;
	if (!n)
		return 0;
	if (n->kind != YD_MAP) {
		yw_show(n, shown, sizeof(shown));
		return yw_fail(
		    w, n, "priority_to_tc: expected a mapping of priority: class, found %s", shown);
	}
	p->prio2tc_given = true;
	for (size_t i = 0; i < n->n; i++) {
		const struct yd_node *k = n->kids[2 * i], *v = n->kids[2 * i + 1];
		uint64_t prio, tc;

		if (yw_uint(w, k, "priority_to_tc", 0, RC_NPRIO - 1, &prio) < 0)
			return -EINVAL;
		snprintf(path, sizeof(path), "priority_to_tc.%u", (unsigned)prio);
		if (seen & (1u << prio))
			return yw_fail(w, k, "%s: duplicate key", path);
		seen |= (uint8_t)(1u << prio);
		if (yw_uint(w, v, path, 0, RC_NTC - 1, &tc) < 0)
			return -EINVAL;
		p->prio2tc[prio] = (uint8_t)tc;
	}
	return 0;
}

/* With an ets section and no priority_to_tc, the other priorities go to the default
 * class, as NVUE's RoCE mode does ("every other SP -> TC 0"): the listed classes are then
 * the whole scheduler, and classes the policy leaves out carry no traffic. */
static void default_prio2tc(struct rc_policy *p)
{
	int def = -1;

	if (p->prio2tc_given || p->n_ets <= 0)
		return;
	for (int i = 0; i < p->n_ets; i++)
		if (p->ets[i].traffic_class == 0)
			def = 0;
	for (int i = 0; def < 0 && i < p->n_ets; i++)
		if (p->ets[i].mode == RC_TSA_DWRR)
			def = p->ets[i].traffic_class;
	if (def < 0)
		def = p->ets[0].traffic_class;
	for (int prio = 0; prio < RC_NPRIO; prio++)
		if (prio != p->roce_priority && prio != p->cnp_priority)
			p->prio2tc[prio] = (uint8_t)def;
}

static int read_host(struct yw *w, const struct yw_map *root, struct rc_policy *p)
{
	struct yw_map m;
	const struct yd_node *tos;
	uint64_t v;
	int rc;

	p->roce_tos_auto = true;
	rc = yw_f_map(w, root, "host", host_keys, &m);
	if (rc < 0)
		return rc;
	tos = rc == 1 ? yw_get(&m, "roce_tos") : NULL;
	if (tos && !(tos->kind == YD_SCALAR && !strcmp(tos->str, "auto"))) {
		if (tos->kind != YD_SCALAR || !tos->plain || tos->str[0] < '0' ||
		    tos->str[0] > '9') {
			char shown[64];

			yw_show(tos, shown, sizeof(shown));
			return yw_fail(
			    w, tos, "host.roce_tos: expected auto or an integer 0..255, found %s",
			    shown);
		}
		if (yw_uint(w, tos, "host.roce_tos", 0, 255, &v) < 0)
			return -EINVAL;
		p->roce_tos_auto = false;
		p->roce_tos = (int)v;
	}
	/* ECT(0) in the two ECN bits: the NIC's packets are ECN-capable from the start. */
	if (p->roce_tos_auto)
		p->roce_tos = p->roce_dscp << 2 | 2;
	p->pos.roce_tos = pos_of(tos);
	return 0;
}

static int read_tolerance(struct yw *w, const struct yw_map *root, struct rc_policy *p)
{
	struct yw_map m;
	int rc;

	p->tolerance_pct = 8.0;
	rc = yw_f_map(w, root, "tolerance", tolerance_keys, &m);
	if (rc <= 0)
		return rc;
	if (yw_f_percent(w, &m, "threshold", &p->tolerance_pct) < 0)
		return -EINVAL;
	p->pos.tolerance = pos_of(yw_get(&m, "threshold"));
	return 0;
}

/* One of dcqcn.rp / dcqcn.np: each key is a cc_params name (model.h, enum rc_dcqcn_param).
 * cong.c writes them with kstrtou32 into 32-bit firmware fields and checks nothing else,
 * so 0..UINT32_MAX is exactly what the kernel takes; anything else is refused here. */
static int read_dcqcn_point(struct yw *w, const struct yw_map *dcqcn, const char *key,
			    const char *const *names, struct rc_policy *p)
{
	struct yw_map m;
	int rc;

	rc = yw_f_map(w, dcqcn, key, names, &m);
	if (rc <= 0)
		return rc;
	for (int i = 0; names[i]; i++) {
		int k = rc_dcqcn_index(names[i]);
		uint64_t v;

		rc = yw_f_uint(w, &m, names[i], 0, UINT32_MAX, &v);
		if (rc < 0)
			return rc;
		if (rc == 0 || k < 0)
			continue;
		p->dcqcn[k] = (uint32_t)v;
		p->dcqcn_mask |= (uint16_t)(1u << k);
	}
	return 0;
}

static int read_dcqcn(struct yw *w, const struct yw_map *root, struct rc_policy *p)
{
	struct yw_map m;
	int rc;

	rc = yw_f_map(w, root, "dcqcn", dcqcn_keys, &m);
	if (rc <= 0)
		return rc;
	if (read_dcqcn_point(w, &m, "rp", dcqcn_rp_keys, p) < 0 ||
	    read_dcqcn_point(w, &m, "np", dcqcn_np_keys, p) < 0)
		return -EINVAL;
	return 0;
}

static int read_top(struct yw *w, const struct yw_map *root, struct rc_policy *p)
{
	int trust = 1;

	if (yw_f_str(w, root, "name", p->name, sizeof(p->name)) < 0)
		return -EINVAL;
	if (!rc_name_is_safe(p->name))
		return yw_fail(w, yw_get(root, "name"),
			       "name: '%s' is not a safe name (letters, digits, '.', '_', '/', "
			       "'-'; first a letter or digit)",
			       p->name);
	if (yw_f_enum(w, root, "trust", trust_names, &trust) < 0)
		return -EINVAL;
	p->trust = trust == 0 ? RC_TRUST_PCP : RC_TRUST_DSCP;
	return 0;
}

static int read_policy(struct yw *w, const struct yd_node *top, struct rc_policy *p)
{
	struct yw_map root;

	if (yw_check_header(w, top, "Policy", " (an inventory is given with -i)") < 0 ||
	    yw_map(w, top, "", root_keys, &root) < 0 || yw_require(w, &root, root_required) < 0)
		return -EINVAL;
	p->pos.root = pos_of(top);
	if (read_top(w, &root, p) < 0 ||
	    read_prio_pair(w, &root, "roce", &p->roce_dscp, &p->roce_priority, &p->pos.roce_dscp,
			   &p->pos.roce_priority) < 0 ||
	    read_prio_pair(w, &root, "cnp", &p->cnp_dscp, &p->cnp_priority, &p->pos.cnp_dscp,
			   &p->pos.cnp_priority) < 0 ||
	    read_pfc(w, &root, p) < 0 || read_prio2tc(w, &root, p) < 0 ||
	    read_ecn(w, &root, p) < 0 || read_headroom(w, &root, p) < 0 ||
	    read_ets(w, &root, p) < 0 || (default_prio2tc(p), 0) || read_host(w, &root, p) < 0 ||
	    read_tolerance(w, &root, p) < 0 || read_dcqcn(w, &root, p) < 0)
		return -EINVAL;
	return 0;
}

static int load_doc(struct yd_doc *doc, struct rc_policy *out, struct rc_warnings *warn,
		    struct rc_err *err)
{
	struct yw w = {.file = doc->file, .err = err};
	int rc;

	snprintf(out->file, sizeof(out->file), "%s", doc->file);
	rc = read_policy(&w, doc->root, out);
	if (rc == 0)
		rc = rc_policy_check(out, warn, err);
	yd_free(doc);
	return rc < 0 ? -EINVAL : 0;
}

int rc_policy_load(const char *path, struct rc_policy *out, struct rc_warnings *warn,
		   struct rc_err *err)
{
	struct yd_doc doc;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = yd_load_file(path, &doc, err);
	if (rc < 0)
		return rc;
	return load_doc(&doc, out, warn, err);
}

int rc_policy_load_buffer(const char *name, const char *buf, size_t len, struct rc_policy *out,
			  struct rc_warnings *warn, struct rc_err *err)
{
	struct yd_doc doc;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = yd_load_buffer(name, buf, len, &doc, err);
	if (rc < 0)
		return rc;
	return load_doc(&doc, out, warn, err);
}

/* ---- per-device policy ---- */

int rc_policy_for_device(const struct rc_policy *base, const struct rc_device *dev,
			 struct rc_policy *out, struct rc_err *err)
{
	const struct rc_overrides *ov = &dev->ov;
	struct rc_policy_pos keep = base->pos;
	struct rc_pos at = ov->pos.line ? ov->pos : dev->pos;
	int rc;

	*out = *base;
	/* Positions now point into the inventory (the wrapper adds its file name). */
	out->file[0] = '\0';
	out->pos = (struct rc_policy_pos){at, at, at, at, at, at, at, at, at, at,
					  at, at, at, at, at, at, at, at, at};
	if (ov->has_ecn_enabled) {
		out->ecn.enabled = ov->ecn_enabled;
		out->pos.ecn_enabled = ov->ecn_enabled_pos;
	}
	if (ov->has_ecn_kmin) {
		out->ecn.kmin_bytes = ov->ecn_kmin_bytes;
		out->pos.kmin = ov->ecn_kmin_pos;
	}
	if (ov->has_ecn_kmax) {
		out->ecn.kmax_bytes = ov->ecn_kmax_bytes;
		out->pos.kmax = ov->ecn_kmax_pos;
	}
	if (ov->has_ecn_pmax) {
		out->ecn.pmax_pct = ov->ecn_pmax_pct;
		out->pos.pmax = ov->ecn_pmax_pos;
	}
	if (ov->has_cable_length) {
		out->headroom.cable_length_m = ov->cable_length_m;
		out->pos.cable_length = ov->cable_length_pos;
	}
	if (ov->has_headroom_size) {
		out->headroom.size_bytes = ov->headroom_size_bytes;
		out->pos.size = ov->headroom_size_pos;
	}
	if (ov->has_mtu) {
		out->headroom.mtu = ov->mtu;
		out->pos.mtu = ov->mtu_pos;
	}
	if (ov->has_tolerance) {
		out->tolerance_pct = ov->tolerance_pct;
		out->pos.tolerance = ov->tolerance_pos;
	}
	/* Only the overridable rules can newly fail; warnings were given for the base. */
	rc = check_ecn(out, err);
	if (rc == 0)
		rc = check_headroom(out, err);
	if (rc == 0)
		rc = check_rest(out, err);
	out->pos = keep;
	memcpy(out->file, base->file, sizeof(out->file));
	if (rc < 0)
		rc_err_prefix(err, "device '%s'", dev->name);
	return rc;
}
