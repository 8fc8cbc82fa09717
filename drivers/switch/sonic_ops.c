/* SPDX-License-Identifier: Apache-2.0 */
/* SONiC write side: writes of the vendor-neutral model -> CONFIG_DB changes -> one RFC 6902
 * JSON Patch for the Generic Config Updater (sonic-utilities generic_config_updater; SONiC's
 * "Generic Config Update and Rollback" design), and GCU's output judged.
 *
 * Maps and WRED profiles are shared (every port of a factory switch binds DSCP_TO_TC_MAP
 * AZURE and WRED_PROFILE AZURE_LOSSLESS): a change to one is checked against every port
 * that was read, and refused before anything is sent when a port sharing it does not want
 * that change. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "rocectl/util.h"
#include "sonic.h"
#include "switch_common.h"

#define DEFAULT_MAP	 "AZURE" /* SONiC's templated map names (sonic-buildimage Configuration.md) */
#define DEFAULT_WRED	 "AZURE_LOSSLESS"
#define WD_DETECT_MIN	 100 /* PFC_WD ranges, ms (sonic-yang-models, sonic-pfcwd.yang) */
#define WD_DETECT_MAX	 5000
#define WD_RESTORE_MIN	 100
#define WD_RESTORE_MAX	 60000
#define CABLE_MAX_M	 100000
#define THRESH_WRITE_MAX (1ull << 40)

void sonic_ops_free(struct sonic_ops *ops)
{
	free(ops->v);
	ops->v = NULL;
	ops->n = ops->cap = 0;
}

static const cJSON *db_entry(const cJSON *cfg, const char *table, const char *key)
{
	const cJSON *t = cJSON_IsObject(cfg) ? cJSON_GetObjectItemCaseSensitive(cfg, table) : NULL;
	const cJSON *e = cJSON_IsObject(t) ? cJSON_GetObjectItemCaseSensitive(t, key) : NULL;

	return cJSON_IsObject(e) ? e : NULL;
}

static const char *db_field(const cJSON *cfg, const char *table, const char *key, const char *field)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(db_entry(cfg, table, key), field);

	return cJSON_IsString(f) ? f->valuestring : NULL;
}

int sonic_ops_add(struct sonic_ops *ops, struct rc_err *err, const char *port, uint32_t group,
		  const char *table, const char *key, const char *field, bool remove,
		  const char *value)
{
	struct sonic_op o;

	memset(&o, 0, sizeof(o));
	if (strlen(table) >= sizeof(o.table) || strlen(key) >= sizeof(o.key) ||
	    strlen(field) >= sizeof(o.field) || (value && strlen(value) >= sizeof(o.value)))
		return rc_errf(err, ENAMETOOLONG, "CONFIG_DB name too long: %s|%.60s", table, key);
	snprintf(o.table, sizeof(o.table), "%s", table);
	snprintf(o.key, sizeof(o.key), "%s", key);
	snprintf(o.field, sizeof(o.field), "%s", field);
	o.remove = remove;
	if (!remove && value)
		snprintf(o.value, sizeof(o.value), "%s", value);
	o.port = port;
	o.group = group;
	for (size_t i = 0; i < ops->n; i++) {
		const struct sonic_op *p = &ops->v[i];

		if (strcmp(p->table, o.table) || strcmp(p->key, o.key) || strcmp(p->field, o.field))
			continue;
		if (p->remove == o.remove && !strcmp(p->value, o.value))
			return 0;
		return rc_errf(err, EINVAL,
			       "ports '%s' and '%s' share %s|%s%s%s but need different values "
			       "('%s', '%s'); bind them to separate maps or profiles",
			       p->port ? p->port : "?", port ? port : "?", table, key,
			       field[0] ? " " : "", field, p->remove ? "(removed)" : p->value,
			       o.remove ? "(removed)" : o.value);
	}
	if (rc_array_reserve((void **)&ops->v, &ops->cap, ops->n + 1, sizeof(*ops->v), 32))
		return rc_errf(err, ENOMEM, "out of memory");
	ops->v[ops->n++] = o;
	return 0;
}

static void num(char *buf, size_t len, unsigned long long v)
{
	snprintf(buf, len, "%llu", v);
}

/* "3,4" from bits (pfc_enable is sorted and comma-joined, sonic-utilities Command-Reference.md). */
static void prio_list(uint8_t bits, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int p = 0; p < RC_NPRIO && o + 3 < len; p++)
		if (bits & (1u << p))
			o += (size_t)snprintf(buf + o, len - o, "%s%d", o ? "," : "", p);
}

/* no libm: percentages are small and non-negative */
static long long round_pct(double v)
{
	return v < 0 ? -1 : (long long)(v + 0.5);
}

/* ---- per group -------------------------------------------------------------------------- */

struct wctx {
	const cJSON *cfg;
	const struct rc_port_write *w;
	const struct sonic_port_info *info;
	struct sonic_ops *ops;
	struct rc_err *err;
};

#define OP_SET(x, g, t, k, f, v)                                                                   \
	sonic_ops_add((x)->ops, (x)->err, (x)->w->port, g, t, k, f, false, v)
#define OP_DEL(x, g, t, k, f)                                                                      \
	sonic_ops_add((x)->ops, (x)->err, (x)->w->port, g, t, k, f, true, NULL)

/* The DSCP map the port classifies with, or the one it will be bound to. */
static const char *dscp_map_of(const struct wctx *x)
{
	return x->info->dscp_map[0] ? x->info->dscp_map : DEFAULT_MAP;
}

static int w_trust(struct wctx *x)
{
	const struct port_qos *want = x->w->want, *have = x->w->have;
	const char *port = x->w->port;
	int rc;

	if (want->trust == have->trust || want->trust == RC_TRUST_UNSET)
		return 0;
	if (want->trust == RC_TRUST_DSCP)
		return OP_SET(x, RC_F_TRUST, "PORT_QOS_MAP", port, "dscp_to_tc_map",
			      dscp_map_of(x));
	/* PCP: classify by the 802.1p map instead of the DSCP one */
	if (x->info->dscp_map_global)
		return rc_errf(x->err, EINVAL,
			       "'%s': trust pcp is not possible per port: the switch-wide DSCP "
			       "map of PORT_QOS_MAP|global applies to it",
			       port);
	if (!db_entry(x->cfg, "DOT1P_TO_TC_MAP", DEFAULT_MAP) && !x->info->dot1p_map[0])
		return rc_errf(x->err, ENOENT,
			       "'%s': trust pcp needs a DOT1P_TO_TC_MAP, and the switch has none",
			       port);
	rc = OP_DEL(x, RC_F_TRUST, "PORT_QOS_MAP", port, "dscp_to_tc_map");
	if (!rc && !x->info->dot1p_map[0])
		rc = OP_SET(x, RC_F_TRUST, "PORT_QOS_MAP", port, "dot1p_to_tc_map", DEFAULT_MAP);
	return rc;
}

static int w_dscp(struct wctx *x)
{
	const struct port_qos *want = x->w->want, *have = x->w->have;
	char id[8], v[8];
	int rc = 0;

	for (int d = 0; d < RC_NDSCP && !rc; d++) {
		if (!(want->dscp_mask & (1ull << d)))
			continue;
		if (want->dscp2prio[d] >= RC_NPRIO)
			return rc_errf(x->err, ERANGE, "'%s': DSCP %d to priority %u: out of range",
				       x->w->port, d, want->dscp2prio[d]);
		if ((have->dscp_mask & (1ull << d)) && have->dscp2prio[d] == want->dscp2prio[d] &&
		    db_entry(x->cfg, "DSCP_TO_TC_MAP", dscp_map_of(x)))
			continue;
		num(id, sizeof(id), (unsigned)d);
		num(v, sizeof(v), want->dscp2prio[d]);
		rc = OP_SET(x, RC_F_DSCP2PRIO, "DSCP_TO_TC_MAP", dscp_map_of(x), id, v);
	}
	return rc;
}

static int w_prio2tc(struct wctx *x)
{
	const struct port_qos *want = x->w->want, *have = x->w->have;
	const char *map = x->info->queue_map[0] ? x->info->queue_map : DEFAULT_MAP;
	bool exists = db_entry(x->cfg, "TC_TO_QUEUE_MAP", map) != NULL;
	char id[8], v[8];
	int rc = 0;

	if (!x->info->queue_map[0])
		rc = OP_SET(x, RC_F_PRIO2TC, "PORT_QOS_MAP", x->w->port, "tc_to_queue_map", map);
	for (int p = 0; p < RC_NPRIO && !rc; p++) {
		bool wanted = want->prio_mask & (1u << p);
		uint8_t tc = wanted ? want->prio2tc[p] : (uint8_t)p;

		if (tc >= RC_NTC)
			return rc_errf(x->err, ERANGE,
				       "'%s': priority %d to queue %u: out of range", x->w->port, p,
				       tc);
		/* a new map is written whole (identity elsewhere), an existing one only where
		 * it differs */
		if (exists &&
		    (!wanted || ((have->prio_mask & (1u << p)) && have->prio2tc[p] == tc)))
			continue;
		num(id, sizeof(id), (unsigned)p);
		num(v, sizeof(v), tc);
		rc = OP_SET(x, RC_F_PRIO2TC, "TC_TO_QUEUE_MAP", map, id, v);
	}
	return rc;
}

/* Set a PORT_QOS_MAP|<port> priority list ("" removes it) unless it already reads so: a
 * group rewritten for its effect (sonic_effect.c) changes only what parted. */
static int pqm_list(struct wctx *x, const char *field, const char *list)
{
	const char *cur = db_field(x->cfg, "PORT_QOS_MAP", x->w->port, field);

	if (!list[0])
		return cur ? OP_DEL(x, RC_F_PFC, "PORT_QOS_MAP", x->w->port, field) : 0;
	if (cur && !strcmp(cur, list))
		return 0;
	return OP_SET(x, RC_F_PFC, "PORT_QOS_MAP", x->w->port, field, list);
}

/* Does the write want priority p's headroom to be the one the device derives (the policy
 * leaves it computed, or a journaled state had it derived)? */
static bool wants_derived(const struct port_qos *want, int p)
{
	return (want->headroom_mask & (1u << p)) &&
	       (want->headroom_is_min || (want->headroom_derived & (1u << p)));
}

/* The dynamic buffer model makes a PG lossless only when CONFIG_DB lists it with profile
 * "NULL" (the templates write BUFFER_PG|<port>|3-4 so; buffermgrd computes its profile,
 * docs/platforms/sonic.md); pfc_enable alone gives it no headroom.  A lossless priority
 * whose PG no entry lists gets one; a PG under a configured lossy profile (PG 0's
 * ingress_lossy_profile) cannot be made lossless without taking the port's lossy traffic
 * along: refused. */
static int w_lossless_pgs(struct wctx *x)
{
	const struct sonic_port_info *in = x->info;
	uint8_t done = 0;
	char key[SONIC_KEY_MAX];
	int rc = 0;

	for (int p = 0; p < RC_NPRIO && !rc; p++) {
		uint8_t bit = (uint8_t)(1u << p);
		uint8_t pg = in->pg_of[p];

		if (!(x->w->want->pfc_enabled & bit) || (in->pg_cfg_null & bit) ||
		    (done & (1u << pg)))
			continue;
		/* an explicit headroom binds the PG to its override instead (w_headroom) */
		if ((x->w->fields & RC_F_HEADROOM) && (x->w->want->headroom_mask & bit) &&
		    !wants_derived(x->w->want, p))
			continue;
		if (in->pg_cfg & bit) {
			if ((x->w->have->headroom_mask & bit) && x->w->have->headroom_bytes[p])
				continue; /* a configured profile with xoff: headroom override */
			return rc_errf(x->err, EINVAL,
				       "'%s' prio %d: its PG %u is under profile '%s' in "
				       "BUFFER_PG, not lossless; map the priority to a PG of its "
				       "own (TC_TO_PRIORITY_GROUP_MAP)",
				       x->w->port, p, pg,
				       in->pg_profile[p][0] ? in->pg_profile[p] : "?");
		}
		done |= (uint8_t)(1u << pg);
		snprintf(key, sizeof(key), "%s|%u", x->w->port, pg);
		rc = OP_SET(x, RC_F_PFC, "BUFFER_PG", key, "profile", "NULL");
	}
	return rc;
}

static int w_pfc(struct wctx *x)
{
	const struct port_qos *want = x->w->want;
	const char *port = x->w->port;
	char list[24];
	int rc;

	prio_list(want->pfc_enabled, list, sizeof(list));
	rc = pqm_list(x, "pfc_enable", list);
	/* the template keeps the software watchdog's list equal to pfc_enable (sonic-buildimage
	 * Configuration.md and sonic-yang-models) */
	if (!rc && x->info->pfcwd_sw_field)
		rc = pqm_list(x, "pfcwd_sw_enable", list);
	/* lossless needs the PG and PFC-queue maps bound; bind SONiC's own when missing */
	if (!rc && want->pfc_enabled && !x->info->pg_map[0] &&
	    db_entry(x->cfg, "TC_TO_PRIORITY_GROUP_MAP", DEFAULT_MAP))
		rc = OP_SET(x, RC_F_PFC, "PORT_QOS_MAP", port, "tc_to_pg_map", DEFAULT_MAP);
	if (!rc && want->pfc_enabled && !x->info->pfc_queue_map[0] &&
	    db_entry(x->cfg, "MAP_PFC_PRIORITY_TO_QUEUE", DEFAULT_MAP))
		rc = OP_SET(x, RC_F_PFC, "PORT_QOS_MAP", port, "pfc_to_queue_map", DEFAULT_MAP);
	if (!rc && x->info->buffer_dynamic)
		rc = w_lossless_pgs(x);
	return rc;
}

static int w_cable(struct wctx *x)
{
	const struct port_qos *want = x->w->want;
	char v[24];

	if (want->cable_length_m < 1 || want->cable_length_m > CABLE_MAX_M)
		return rc_errf(x->err, ERANGE, "'%s': cable length %um is outside 1..%u",
			       x->w->port, want->cable_length_m, CABLE_MAX_M);
	snprintf(v, sizeof(v), "%um", want->cable_length_m);
	return OP_SET(x, RC_F_CABLE, "CABLE_LENGTH",
		      x->info->cable_key[0] ? x->info->cable_key : DEFAULT_MAP, x->w->port, v);
}

/* Set a WRED_PROFILE field when the profile does not already hold that value. */
static int wred_field(struct wctx *x, const char *prof, const char *field, const char *value)
{
	const char *cur = db_field(x->cfg, "WRED_PROFILE", prof, field);

	if (cur && !strcmp(cur, value))
		return 0;
	return OP_SET(x, RC_F_ECN, "WRED_PROFILE", prof, field, value);
}

static int w_ecn(struct wctx *x)
{
	const struct port_qos *want = x->w->want;
	const struct sonic_port_info *in = x->info;
	const char *port = x->w->port;
	int rc = 0;

	for (int t = 0; t < RC_NTC && !rc; t++) {
		const struct rc_ecn_tc *wt = &want->ecn[t];
		const char *prof = in->wred[t][0] ? in->wred[t] : DEFAULT_WRED, *ecn;
		char qkey[SONIC_KEY_MAX], v[32];
		long long p;

		if (!(want->ecn_tc_mask & (1u << t)))
			continue;
		if (in->queue_key[t][0])
			snprintf(qkey, sizeof(qkey), "%s", in->queue_key[t]);
		else
			snprintf(qkey, sizeof(qkey), "%s|%d", port, t);
		if (!wt->enabled) {
			/* unbind on this port's queue rather than change a shared profile */
			if (in->wred[t][0])
				rc = OP_DEL(x, RC_F_ECN, "QUEUE", qkey, "wred_profile");
			continue;
		}
		p = round_pct(wt->pmax_pct);
		if (wt->kmin_bytes < 1 || wt->kmin_bytes >= wt->kmax_bytes ||
		    wt->kmax_bytes > THRESH_WRITE_MAX)
			return rc_errf(x->err, EINVAL,
				       "'%s': ECN thresholds of queue %d are not 0 < min < max",
				       port, t);
		if (p < 1 || p > 100)
			return rc_errf(x->err, ERANGE,
				       "'%s': ECN probability %g%% is outside 1..100", port,
				       wt->pmax_pct);
		if (!in->wred[t][0])
			rc = OP_SET(x, RC_F_ECN, "QUEUE", qkey, "wred_profile", prof);
		ecn = db_field(x->cfg, "WRED_PROFILE", prof, "ecn");
		if (!rc &&
		    !(ecn && (!strcmp(ecn, "ecn_all") || !strcmp(ecn, "ecn_green") ||
			      !strcmp(ecn, "ecn_green_yellow") || !strcmp(ecn, "ecn_green_red"))))
			rc = wred_field(x, prof, "ecn", "ecn_all");
		if (!rc)
			rc = wred_field(x, prof, "wred_green_enable", "true");
		num(v, sizeof(v), wt->kmin_bytes);
		if (!rc)
			rc = wred_field(x, prof, "green_min_threshold", v);
		num(v, sizeof(v), wt->kmax_bytes);
		if (!rc)
			rc = wred_field(x, prof, "green_max_threshold", v);
		num(v, sizeof(v), (unsigned long long)p);
		if (!rc)
			rc = wred_field(x, prof, "green_drop_probability", v);
	}
	return rc;
}

/* The dynamic model's headroom override (sonic-net/SONiC
 * doc/qos/dynamically-headroom-calculation.md, "headroom override"): a static lossless profile in
 * ingress_lossless_pool with the policy's xoff, bound to the PG instead of "NULL".  xon and
 * dynamic_th are kept from the PG's profile; size is xon with the shared headroom pool (the xoff
 * then comes from the pool), else xon + xoff (buffer_headroom_mellanox.lua sizes its profiles so,
 * and sonic-mgmt's test_headroom_override sizes an override so).  The profile is named by its
 * values, so ports that want the same share it and a new size is a new profile, not an edit of one
 * in use. */
static int w_headroom_override(struct wctx *x, int p)
{
	const struct sonic_port_info *in = x->info;
	uint64_t xoff = x->w->want->headroom_bytes[p], xon = in->pg_xon[p];
	char name[RC_NAME_MAX], key[SONIC_KEY_MAX], v[24];
	int rc;

	if (!xon)
		return rc_errf(x->err, EAGAIN,
			       "'%s' headroom[%d].bytes: PG %u has no profile with an xon to keep "
			       "yet (buffermgrd has not derived one); run apply again once it has",
			       x->w->port, p, in->pg_of[p]);
	if (xoff > THRESH_WRITE_MAX)
		return rc_errf(x->err, ERANGE, "'%s' headroom[%d].bytes %llu is too large",
			       x->w->port, p, (unsigned long long)xoff);
	snprintf(name, sizeof(name), "rocectl_headroom_%llu_%llu", (unsigned long long)xoff,
		 (unsigned long long)xon);
	if (in->pg_key[p][0])
		snprintf(key, sizeof(key), "%s", in->pg_key[p]);
	else
		snprintf(key, sizeof(key), "%s|%u", x->w->port, in->pg_of[p]);
	rc = OP_SET(x, RC_F_HEADROOM, "BUFFER_PROFILE", name, "pool", "ingress_lossless_pool");
	num(v, sizeof(v), xon);
	if (!rc)
		rc = OP_SET(x, RC_F_HEADROOM, "BUFFER_PROFILE", name, "xon", v);
	num(v, sizeof(v), xoff);
	if (!rc)
		rc = OP_SET(x, RC_F_HEADROOM, "BUFFER_PROFILE", name, "xoff", v);
	num(v, sizeof(v), in->shp ? xon : xon + xoff);
	if (!rc)
		rc = OP_SET(x, RC_F_HEADROOM, "BUFFER_PROFILE", name, "size", v);
	if (!rc && in->pg_th[p][0])
		rc = OP_SET(x, RC_F_HEADROOM, "BUFFER_PROFILE", name, "dynamic_th", in->pg_th[p]);
	if (!rc)
		rc = OP_SET(x, RC_F_HEADROOM, "BUFFER_PG", key, "profile", name);
	return rc;
}

/* The dynamic model: a computed headroom is the device's to derive, so the repair is to take
 * an override off the PG ("NULL" again); an explicit one is written as an override. */
static int w_headroom_dynamic(struct wctx *x)
{
	const struct port_qos *want = x->w->want, *have = x->w->have;
	const struct sonic_port_info *in = x->info;
	bool wrote = false;
	int rc = 0;

	for (int p = 0; p < RC_NPRIO && !rc; p++) {
		uint8_t bit = (uint8_t)(1u << p);

		if (!(want->headroom_mask & bit))
			continue;
		if (!wants_derived(want, p)) {
			if ((have->headroom_mask & bit) && !(have->headroom_derived & bit) &&
			    have->headroom_bytes[p] == want->headroom_bytes[p])
				continue;
			rc = w_headroom_override(x, p);
			wrote = true;
		} else if ((in->pg_cfg & bit) && !(in->pg_cfg_null & bit) && in->pg_key[p][0] &&
			   !(have->headroom_derived & bit)) {
			rc =
			    OP_SET(x, RC_F_HEADROOM, "BUFFER_PG", in->pg_key[p], "profile", "NULL");
			wrote = true;
		}
	}
	if (rc || wrote || (x->w->fields & (RC_F_CABLE | RC_F_PFC)))
		return rc;
	return rc_errf(x->err, EPERM,
		       "'%s' headroom: buffermgrd derives it from the speed, cable length and "
		       "MTU, and nothing rocectl writes changes what it found (%s)",
		       x->w->port,
		       have->effect.why[0] ? have->effect.why : "no derived profile yet");
}

/* Headroom follows the cable length: buffermgrd recomputes the lossless profile when the
 * cable length (or speed, or pfc_enable) changes (sonic-swss cfgmgr/buffermgr.cpp and
 * buffer_headroom_mellanox.lua).  A profile edited by hand is not live-changeable through GCU on
 * most platforms (SONiC's Generic Config Update design and sonic-utilities generic_config_updater),
 * so on the traditional model a headroom change without a cable length change cannot be made
 * here. */
static int w_headroom(struct wctx *x)
{
	if (x->info->buffer_dynamic)
		return w_headroom_dynamic(x);
	if (x->w->fields & (RC_F_CABLE | RC_F_PFC))
		return 0;
	for (int p = 0; p < RC_NPRIO; p++)
		if (x->w->want->headroom_mask & (1u << p))
			return rc_errf(x->err, EPERM,
				       "'%s' headroom[%d].bytes: not live-changeable on this "
				       "platform (buffermgrd derives BUFFER_PROFILE from the cable "
				       "length and speed; GCU refuses size/xon/xoff edits)",
				       x->w->port, p);
	return 0;
}

static int w_watchdog(struct wctx *x)
{
	const struct rc_watchdog *want = &x->w->want->watchdog, *have = &x->w->have->watchdog;
	const char *port = x->w->port;
	char v[24];
	int rc = 0;

	if (!want->enabled)
		return x->info->wd_entry ? OP_DEL(x, RC_F_WATCHDOG, "PFC_WD", port, "") : 0;
	if (want->detection_ms < WD_DETECT_MIN || want->detection_ms > WD_DETECT_MAX)
		return rc_errf(x->err, ERANGE,
			       "'%s': watchdog detection %ums is outside SONiC's %u..%u ms", port,
			       want->detection_ms, WD_DETECT_MIN, WD_DETECT_MAX);
	if (want->restoration_ms < WD_RESTORE_MIN || want->restoration_ms > WD_RESTORE_MAX)
		return rc_errf(x->err, ERANGE,
			       "'%s': watchdog restoration %ums is outside SONiC's %u..%u ms", port,
			       want->restoration_ms, WD_RESTORE_MIN, WD_RESTORE_MAX);
	if (!have->enabled || have->detection_ms != want->detection_ms) {
		num(v, sizeof(v), want->detection_ms);
		rc = OP_SET(x, RC_F_WATCHDOG, "PFC_WD", port, "detection_time", v);
	}
	if (!rc && (!have->enabled || have->restoration_ms != want->restoration_ms)) {
		num(v, sizeof(v), want->restoration_ms);
		rc = OP_SET(x, RC_F_WATCHDOG, "PFC_WD", port, "restoration_time", v);
	}
	if (!rc && (!have->enabled || have->action != want->action ||
		    !db_field(x->cfg, "PFC_WD", port, "action")))
		rc = OP_SET(x, RC_F_WATCHDOG, "PFC_WD", port, "action",
			    want->action == RC_WD_FORWARD ? "forward" : "drop");
	/* detection and restoration must not be shorter than the polling interval (sonic-utilities
	 * Command-Reference.md) */
	if (!rc && x->info->wd_poll_ms > want->detection_ms &&
	    want->detection_ms <= want->restoration_ms) {
		num(v, sizeof(v), want->detection_ms);
		rc = OP_SET(x, RC_F_WATCHDOG, "PFC_WD", "GLOBAL", "POLL_INTERVAL", v);
	} else if (!rc && x->info->wd_poll_ms > want->restoration_ms) {
		num(v, sizeof(v), want->restoration_ms);
		rc = OP_SET(x, RC_F_WATCHDOG, "PFC_WD", "GLOBAL", "POLL_INTERVAL", v);
	}
	return rc;
}

static const struct {
	uint32_t group;
	int (*fn)(struct wctx *x);
} writers[] = {
    {RC_F_TRUST, w_trust},	 {RC_F_DSCP2PRIO, w_dscp},    {RC_F_PRIO2TC, w_prio2tc},
    {RC_F_PFC, w_pfc},		 {RC_F_CABLE, w_cable},	      {RC_F_ECN, w_ecn},
    {RC_F_HEADROOM, w_headroom}, {RC_F_WATCHDOG, w_watchdog},
};

/* Does op `o` change an object that the port with `in` also uses? */
static bool op_touches(const struct sonic_op *o, const struct sonic_port_info *in)
{
	if (!strcmp(o->table, "DSCP_TO_TC_MAP"))
		return !strcmp(o->key, in->dscp_map);
	if (!strcmp(o->table, "TC_TO_QUEUE_MAP"))
		return !strcmp(o->key, in->queue_map);
	if (!strcmp(o->table, "WRED_PROFILE")) {
		for (int t = 0; t < RC_NTC; t++)
			if (!strcmp(o->key, in->wred[t]))
				return true;
		return false;
	}
	if (!strcmp(o->table, "PFC_WD"))
		return !strcmp(o->key, "GLOBAL");
	return false; /* PORT_QOS_MAP, QUEUE, CABLE_LENGTH fields, PFC_WD|<port>: one port */
}

int sonic_build_ops(const cJSON *cfg, const struct rc_port_write *w,
		    const struct sonic_port_info *info, size_t n, const struct sonic_peer *peers,
		    size_t n_peers, struct sonic_ops *ops, struct rc_err *err)
{
	int rc = 0;

	memset(ops, 0, sizeof(*ops));
	for (size_t i = 0; i < n && !rc; i++) {
		struct wctx x = {cfg, &w[i], &info[i], ops, err};

		if (!sonic_name_ok(w[i].port)) {
			rc = rc_errf(err, EINVAL, "port name '%s' is not a valid SONiC port name",
				     w[i].port);
			break;
		}
		for (size_t g = 0; g < sizeof(writers) / sizeof(writers[0]) && !rc; g++)
			if (w[i].fields & writers[g].group)
				rc = writers[g].fn(&x);
	}
	for (size_t k = 0; k < ops->n && !rc; k++) {
		const struct sonic_op *o = &ops->v[k];

		for (size_t p = 0; p < n_peers && !rc; p++) {
			if (!op_touches(o, peers[p].info))
				continue;
			if (!rc_switch_port_writes(w, n, peers[p].port, o->group))
				rc = rc_errf(
				    err, EINVAL,
				    "changing %s|%s %s for port '%s' would also change port "
				    "'%s', which shares it and is already as wanted; bind "
				    "them to separate maps or profiles",
				    o->table, o->key, o->field, o->port ? o->port : "?",
				    peers[p].port);
		}
	}
	if (rc)
		sonic_ops_free(ops);
	return rc;
}

/* ---- maps GCU cannot patch ------------------------------------------------------------- */

/* Does `map` (an entry of DSCP_TO_TC_MAP or TC_TO_QUEUE_MAP) give every mapping `want`
 * asks of that table? */
static bool map_fits(const cJSON *map, bool dscp, const struct port_qos *want)
{
	int n = dscp ? RC_NDSCP : RC_NPRIO;
	char id[8], v[8];

	for (int k = 0; k < n; k++) {
		bool wanted = dscp ? (want->dscp_mask >> k) & 1 : (want->prio_mask >> k) & 1;
		const cJSON *f;

		if (!wanted)
			continue;
		num(id, sizeof(id), (unsigned)k);
		num(v, sizeof(v), dscp ? want->dscp2prio[k] : want->prio2tc[k]);
		f = cJSON_GetObjectItemCaseSensitive(map, id);
		if (!cJSON_IsString(f) || strcmp(f->valuestring, v))
			return false;
	}
	return true;
}

static void drop_table_ops(struct sonic_ops *ops, const char *table)
{
	size_t o = 0;

	for (size_t i = 0; i < ops->n; i++)
		if (strcmp(ops->v[i].table, table))
			ops->v[o++] = ops->v[i];
	ops->n = o;
}

int sonic_rebind_map(const cJSON *cfg, const struct rc_port_write *w,
		     const struct sonic_port_info *info, size_t n, const char *table,
		     struct sonic_ops *ops, char *bound, size_t bound_len, struct rc_err *err)
{
	bool dscp = !strcmp(table, "DSCP_TO_TC_MAP");
	const char *field = dscp ? "dscp_to_tc_map" : "tc_to_queue_map";
	uint32_t group = dscp ? RC_F_DSCP2PRIO : RC_F_PRIO2TC;
	const cJSON *maps =
	    cJSON_IsObject(cfg) ? cJSON_GetObjectItemCaseSensitive(cfg, table) : NULL;
	size_t o = 0, keep;
	int rc = 0;

	if (!dscp && strcmp(table, "TC_TO_QUEUE_MAP"))
		return rc_errf(err, EINVAL, "%s is not a map rocectl can re-bind", table);
	bound[0] = '\0';
	drop_table_ops(ops, table);
	for (size_t i = 0; i < n && !rc; i++) {
		const char *cur = dscp ? info[i].dscp_map : info[i].queue_map;
		const cJSON *m, *fit = NULL;
		struct wctx x = {cfg, &w[i], &info[i], ops, err};

		if (!(w[i].fields & group))
			continue;
		if (dscp && info[i].dscp_map_global)
			return rc_errf(err, EPERM,
				       "port '%s' classifies by the switch-wide DSCP_TO_TC_MAP of "
				       "PORT_QOS_MAP|global, which cannot be re-bound per port",
				       w[i].port);
		cJSON_ArrayForEach(m, maps)
		{
			if (m->string && sonic_name_ok(m->string) && cJSON_IsObject(m) &&
			    map_fits(m, dscp, w[i].want)) {
				fit = m;
				break;
			}
		}
		if (!fit)
			return rc_errf(err, ENOENT,
				       "no existing %s gives port '%s' the mapping the policy "
				       "wants, so its binding cannot replace the edit",
				       table, w[i].port);
		/* a binding the writers made (trust, an unbound queue map) gives way */
		keep = 0;
		for (size_t k = 0; k < ops->n; k++) {
			const struct sonic_op *p = &ops->v[k];

			if (strcmp(p->table, "PORT_QOS_MAP") || strcmp(p->key, w[i].port) ||
			    strcmp(p->field, field))
				ops->v[keep++] = *p;
		}
		ops->n = keep;
		if (!strcmp(cur, fit->string))
			continue; /* the map it is bound to already fits */
		rc = OP_SET(&x, group, "PORT_QOS_MAP", w[i].port, field, fit->string);
		if (!rc && !strstr(bound, fit->string) && o + strlen(fit->string) + 3 < bound_len)
			o += (size_t)snprintf(bound + o, bound_len - o, "%s'%s'", o ? ", " : "",
					      fit->string);
	}
	return rc;
}

/* ---- the JSON Patch ------------------------------------------------------------------- */

static size_t escape_token(char *out, size_t len, const char *tok)
{
	size_t o = 0;

	for (const char *p = tok; *p; p++) {
		const char *rep = *p == '~' ? "~0" : *p == '/' ? "~1" : NULL;
		size_t n = rep ? 2 : 1;

		if (o + n >= len)
			return len;
		if (rep)
			memcpy(out + o, rep, 2);
		else
			out[o] = *p;
		o += n;
	}
	out[o] = '\0';
	return o;
}

int sonic_json_pointer(char *out, size_t len, const char *table, const char *key, const char *field)
{
	const char *parts[3] = {table, key, field};
	size_t o = 0;

	if (!len)
		return -ENAMETOOLONG;
	out[0] = '\0';
	for (int i = 0; i < 3 && parts[i]; i++) {
		size_t w;

		if (o + 2 >= len)
			return -ENAMETOOLONG;
		out[o++] = '/';
		w = escape_token(out + o, len - o, parts[i]);
		if (w >= len - o)
			return -ENAMETOOLONG;
		o += w;
	}
	return 0;
}

static int push_op(cJSON *patch, const char *op, const char *table, const char *key,
		   const char *field, cJSON *value, struct rc_err *err)
{
	char path[3 * 2 * SONIC_KEY_MAX];
	cJSON *o = cJSON_CreateObject();

	if (!o || sonic_json_pointer(path, sizeof(path), table, key, field) ||
	    !cJSON_AddStringToObject(o, "op", op) || !cJSON_AddStringToObject(o, "path", path) ||
	    (value && !cJSON_AddItemToObject(o, "value", value))) {
		cJSON_Delete(o);
		if (!o)
			cJSON_Delete(value);
		return rc_errf(err, ENOMEM, "cannot build the patch for %s|%s", table, key);
	}
	cJSON_AddItemToArray(patch, o);
	return 0;
}

/* Fields set on (table, key) by the ops, as an object. */
static cJSON *fields_object(const struct sonic_ops *ops, const char *table, const char *key)
{
	cJSON *o = cJSON_CreateObject();

	for (size_t i = 0; o && i < ops->n; i++) {
		const struct sonic_op *p = &ops->v[i];

		if (!p->remove && !strcmp(p->table, table) && !strcmp(p->key, key) &&
		    !cJSON_AddStringToObject(o, p->field, p->value)) {
			cJSON_Delete(o);
			return NULL;
		}
	}
	return o;
}

static bool seen_before(const struct sonic_ops *ops, size_t i, bool same_key)
{
	for (size_t k = 0; k < i; k++)
		if (!strcmp(ops->v[k].table, ops->v[i].table) &&
		    (!same_key || !strcmp(ops->v[k].key, ops->v[i].key)))
			return true;
	return false;
}

/* Will (table, key) be empty once the ops are done?  `kobj` is the entry as it is. */
static bool entry_emptied(const struct sonic_ops *ops, const char *table, const char *key,
			  const cJSON *kobj)
{
	const cJSON *f;

	for (size_t i = 0; i < ops->n; i++) {
		const struct sonic_op *p = &ops->v[i];

		if (strcmp(p->table, table) || strcmp(p->key, key))
			continue;
		if (p->remove && !p->field[0])
			return true;
		if (!p->remove)
			return false;
	}
	cJSON_ArrayForEach(f, kobj)
	{
		bool removed = false;

		for (size_t i = 0; i < ops->n && !removed; i++)
			removed = ops->v[i].remove && !strcmp(ops->v[i].table, table) &&
				  !strcmp(ops->v[i].key, key) && f->string &&
				  !strcmp(ops->v[i].field, f->string);
		if (!removed)
			return false;
	}
	return true;
}

static bool table_emptied(const struct sonic_ops *ops, const char *table, const cJSON *tobj)
{
	const cJSON *e;

	if (!tobj->child)
		return false;
	cJSON_ArrayForEach(e, tobj) if (!e->string ||
					!entry_emptied(ops, table, e->string, e)) return false;
	for (size_t i = 0; i < ops->n; i++)
		if (!ops->v[i].remove && !strcmp(ops->v[i].table, table))
			return false;
	return true;
}

static int render_entry(cJSON *patch, const struct sonic_ops *ops, size_t first, const cJSON *tobj,
			struct rc_err *err)
{
	const struct sonic_op *o = &ops->v[first];
	const cJSON *kobj = cJSON_GetObjectItemCaseSensitive(tobj, o->key);
	int rc = 0;

	if (kobj && !cJSON_IsObject(kobj))
		return rc_errf(err, EPROTO, "%s|%s in CONFIG_DB is not an object", o->table,
			       o->key);
	if (!kobj) {
		cJSON *v = fields_object(ops, o->table, o->key);

		if (!v)
			return rc_errf(err, ENOMEM, "out of memory");
		if (!v->child) {
			cJSON_Delete(v); /* removals of what is not there */
			return 0;
		}
		return push_op(patch, "add", o->table, o->key, NULL, v, err);
	}
	if (entry_emptied(ops, o->table, o->key, kobj))
		return push_op(patch, "remove", o->table, o->key, NULL, NULL, err);
	for (size_t i = first; i < ops->n && !rc; i++) {
		const struct sonic_op *p = &ops->v[i];
		bool exists;
		cJSON *v;

		if (strcmp(p->table, o->table) || strcmp(p->key, o->key) || !p->field[0])
			continue;
		exists = cJSON_GetObjectItemCaseSensitive(kobj, p->field) != NULL;
		if (p->remove) {
			if (exists)
				rc =
				    push_op(patch, "remove", p->table, p->key, p->field, NULL, err);
			continue;
		}
		v = cJSON_CreateString(p->value);
		if (!v)
			return rc_errf(err, ENOMEM, "out of memory");
		rc = push_op(patch, exists ? "replace" : "add", p->table, p->key, p->field, v, err);
	}
	return rc;
}

cJSON *sonic_render_patch(const struct sonic_ops *ops, const cJSON *cfg, struct rc_err *err)
{
	cJSON *patch = cJSON_CreateArray();
	int rc = 0;

	if (!patch) {
		rc_errf(err, ENOMEM, "out of memory");
		return NULL;
	}
	for (size_t i = 0; i < ops->n && !rc; i++) {
		const struct sonic_op *o = &ops->v[i];
		const cJSON *tobj =
		    cJSON_IsObject(cfg) ? cJSON_GetObjectItemCaseSensitive(cfg, o->table) : NULL;

		if (seen_before(ops, i, false))
			continue;
		if (tobj && !cJSON_IsObject(tobj)) {
			rc = rc_errf(err, EPROTO, "table %s in CONFIG_DB is not an object",
				     o->table);
			break;
		}
		if (!tobj) {
			/* a new table: added whole, with every entry the ops set */
			cJSON *t = cJSON_CreateObject();

			for (size_t k = i; t && k < ops->n; k++) {
				cJSON *e;

				if (strcmp(ops->v[k].table, o->table) ||
				    seen_before(ops, k, true) || ops->v[k].remove)
					continue;
				e = fields_object(ops, o->table, ops->v[k].key);
				if (!e || !cJSON_AddItemToObject(t, ops->v[k].key, e)) {
					cJSON_Delete(e);
					cJSON_Delete(t);
					t = NULL;
				}
			}
			if (!t) {
				rc = rc_errf(err, ENOMEM, "out of memory");
				break;
			}
			if (!t->child)
				cJSON_Delete(t);
			else
				rc = push_op(patch, "add", o->table, NULL, NULL, t, err);
			continue;
		}
		/* GCU refuses a patch that leaves a table empty (SONiC's Generic Config Update
		 * design and sonic-utilities generic_config_updater) */
		if (table_emptied(ops, o->table, tobj)) {
			rc = push_op(patch, "remove", o->table, NULL, NULL, NULL, err);
			continue;
		}
		for (size_t k = i; k < ops->n && !rc; k++)
			if (!strcmp(ops->v[k].table, o->table) && !seen_before(ops, k, true))
				rc = render_entry(patch, ops, k, tobj, err);
	}
	if (rc) {
		cJSON_Delete(patch);
		return NULL;
	}
	return patch;
}

/* ---- GCU output --------------------------------------------------------------------------- */

/* The first line of `text` that contains `needle`, cleaned (from the needle on when
 * from_needle). */
static bool find_line(const char *text, size_t len, const char *needle, bool from_needle, char *out,
		      size_t olen)
{
	const char *at = text ? memmem(text, len, needle, strlen(needle)) : NULL;
	size_t s, e;

	if (!at)
		return false;
	s = e = (size_t)(at - text);
	while (!from_needle && s > 0 && text[s - 1] != '\n')
		s--;
	while (e < len && text[e] != '\n')
		e++;
	rc_clean_text(text + s, e - s, out, olen);
	return true;
}

/* From 202405 on, apply-patch words its failure per scope (sonic-utilities config/main.py
 * apply_patch; the output quoted in the message of sonic-utilities commit
 * 2e9e81c1, "[GCU] Update WRED_PROFILE and BUFFER_POOL validators for GCU (#4219)"):
 *   Failed to apply patch due to: Failed to apply patch on the following scopes:
 *   - localhost: Modification of BUFFER_POOL table is illegal- ...
 * The reason is on the "- <scope>: " lines after the marker line: joined with "; ", the
 * scope dropped when it is the one scope of a single-ASIC switch ("localhost"). */
static const char SCOPES_MARK[] = "Failed to apply patch on the following scopes:";

static bool scoped_reason(const char *text, size_t len, char *why, size_t why_len)
{
	const char *at = text ? memmem(text, len, SCOPES_MARK, sizeof(SCOPES_MARK) - 1) : NULL;
	size_t o = 0, i;

	if (!at)
		return false;
	why[0] = '\0';
	i = (size_t)(at - text);
	while (i < len && text[i] != '\n')
		i++;
	while (i < len && text[i] == '\n' && i + 2 < len && text[i + 1] == '-' &&
	       text[i + 2] == ' ') {
		size_t s = i + 3, e = s;
		char line[400];

		while (e < len && text[e] != '\n')
			e++;
		rc_clean_text(text + s, e - s, line, sizeof(line));
		if (!o && !strncmp(line, "localhost: ", 11) &&
		    (e >= len || e + 2 >= len || text[e + 1] != '-' || text[e + 2] != ' '))
			memmove(line, line + 11, strlen(line + 11) + 1);
		if (o + 3 < why_len)
			o += (size_t)snprintf(why + o, why_len - o, "%s%s", o ? "; " : "", line);
		if (o >= why_len)
			o = why_len - 1;
		i = e;
	}
	return why[0] != '\0';
}

int sonic_gcu_verdict(enum sonic_gcu_cmd cmd, const char *out, size_t out_len, const char *errout,
		      size_t err_len, int exit_status, char *why, size_t why_len)
{
	/* SONiC's Generic Config Update design and sonic-utilities generic_config_updater: "Failed
	 * to apply patch due to: <reason>" then click's "Error: <reason>" */
	static const char *const marks[] = {"Failed to apply patch due to: ",
					    "Failed to rollback config due to: ",
					    "Failed to create checkpoint due to: ",
					    "Failed to ",
					    "does not exist",
					    "Error: ",
					    "Traceback",
					    "not found"};
	(void)cmd;

	why[0] = '\0';
	if (scoped_reason(errout, err_len, why, why_len) ||
	    scoped_reason(out, out_len, why, why_len))
		return -EIO;
	for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
		bool after = i < 3;
		char line[400];

		if (find_line(errout, err_len, marks[i], after, line, sizeof(line)) ||
		    find_line(out, out_len, marks[i], after, line, sizeof(line))) {
			/* drop the marker itself for the "due to" forms */
			const char *r = after ? line + strlen(marks[i]) - 1 : line;

			while (*r == ' ')
				r++;
			snprintf(why, why_len, "%s", r);
			return -EIO;
		}
	}
	return rc_switch_cli_status(out, out_len, errout, err_len, exit_status, why, why_len);
}

size_t sonic_gcu_refused_tables(const char *text, size_t len, char (*tables)[RC_NAME_MAX],
				size_t max)
{
	static const char pre[] = "Modification of ", post[] = " table is illegal";
	size_t n = 0;

	for (size_t i = 0; text && i + sizeof(pre) - 1 < len && n < max; i++) {
		const char *at = memmem(text + i, len - i, pre, sizeof(pre) - 1);
		size_t s, e;
		char name[RC_NAME_MAX];
		bool dup = false;

		if (!at)
			break;
		i = (size_t)(at - text);
		s = i + sizeof(pre) - 1;
		for (e = s; e < len && e - s < RC_NAME_MAX - 1 &&
			    ((text[e] >= 'A' && text[e] <= 'Z') || text[e] == '_' ||
			     (text[e] >= '0' && text[e] <= '9'));
		     e++)
			;
		if (e == s || e + sizeof(post) - 1 > len ||
		    memcmp(text + e, post, sizeof(post) - 1))
			continue;
		memcpy(name, text + s, e - s);
		name[e - s] = '\0';
		for (size_t k = 0; k < n; k++)
			dup |= !strcmp(tables[k], name);
		if (!dup)
			snprintf(tables[n++], RC_NAME_MAX, "%s", name);
		i = e;
	}
	return n;
}
