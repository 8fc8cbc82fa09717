/* SPDX-License-Identifier: Apache-2.0 */
/* SONiC's CONFIG_DB: models, the factory database (sonic-buildimage Configuration.md and
 * sonic-yang-models templates), buffermgrd's lossless headroom (sonic-swss cfgmgr/buffermgr.cpp and
 * buffer_headroom_mellanox.lua), YANG-style validation, the printers, and sonic-db-cli
 * (sonic-swss-common sonic-db-cli). */
#include <ctype.h>
#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sonic.h"

const char *const sn_qos_tables[] = {"DSCP_TO_TC_MAP",	"TC_TO_PRIORITY_GROUP_MAP",
				     "TC_TO_QUEUE_MAP", "MAP_PFC_PRIORITY_TO_QUEUE",
				     "PORT_QOS_MAP",	"SCHEDULER",
				     "QUEUE",		"WRED_PROFILE",
				     "CABLE_LENGTH",	"BUFFER_POOL",
				     "BUFFER_PROFILE",	"BUFFER_PG",
				     "BUFFER_QUEUE",	NULL};

const struct sn_model *sn_model_find(const char *name)
{
	for (const struct sn_model *m = sn_models; m->name; m++)
		if (strcasecmp(m->name, name) == 0)
			return m;
	return NULL;
}

int sn_sw_init(struct sn_sw *sw, cJSON *st, char *err, size_t errlen)
{
	sw->st = st;
	sw->sn = jget1(st, "sonic");
	sw->db = jget1(sw->sn, "config_db");
	sw->model = sn_model_find(jstr(st, "model", ""));
	sw->release = jint(sw->sn, "release", SN_RELEASE);
	sw->rules = sw->release >= SN_RULES_NEW_REL ? SN_RULES_NEW : SN_RULES_OLD;
	sw->rdma = cJSON_IsTrue(jget1(sw->sn, "rdma"));
	if (!cJSON_IsObject(sw->db) || !sw->model) {
		snprintf(err, errlen, "bad SONiC state");
		return -1;
	}
	return 0;
}

/* ---- factory database ---- */

static void put(cJSON *db, const char *table, const char *key, const char *field, const char *val)
{
	const char *path[] = {table, key};
	cJSON *h = jmkpath(db, path, 2);
	jput(h, field, cJSON_CreateString(val));
}

static void putf(cJSON *db, const char *table, const char *key, const char *field, long v)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%ld", v);
	put(db, table, key, field, buf);
}

bool sn_port_of(const struct sn_model *m, int i, char *name, size_t len, long *speed, int *lanes,
		int *first_lane)
{
	int n = m->layout == SN_LAYOUT_C64 ? 64 : m->layout == SN_LAYOUT_O128 ? 128 : 120;
	if (i < 0 || i >= n)
		return false;
	if (m->layout != SN_LAYOUT_D_C8) {
		snprintf(name, len, "Ethernet%d", i * 4);
		*speed = m->layout == SN_LAYOUT_O128 ? 400000 : 100000;
		*lanes = 4;
		*first_lane = i * 4;
		return true;
	}
	/* 0..23: 50G pairs of cages 0-11; 24..31: 100G cages 12-19; 32..: pairs of 20-63 */
	int cage = i < 24 ? i / 2 : i < 32 ? 12 + (i - 24) : 20 + (i - 32) / 2;
	int half = i < 24 ? i % 2 : i < 32 ? 0 : (i - 32) % 2;
	bool hundred = i >= 24 && i < 32;
	snprintf(name, len, "Ethernet%d", cage * 4 + half * 2);
	*speed = hundred ? 100000 : 50000;
	*lanes = hundred ? 4 : 2;
	*first_lane = cage * 4 + half * 2;
	return true;
}

/* The traditional model's pools and profiles (buffers_defaults_t*.j2 without dynamic_mode). */
static void traditional_buffers(const struct sn_model *m, cJSON *db)
{
	put(db, "BUFFER_POOL", "egress_lossless_pool", "mode", "dynamic");
	put(db, "BUFFER_POOL", "egress_lossless_pool", "size", "60817392");
	put(db, "BUFFER_POOL", "egress_lossless_pool", "type", "egress");
	put(db, "BUFFER_POOL", "egress_lossy_pool", "mode", "dynamic");
	put(db, "BUFFER_POOL", "egress_lossy_pool", "size", "50270208");
	put(db, "BUFFER_POOL", "egress_lossy_pool", "type", "egress");
	put(db, "BUFFER_POOL", "ingress_lossless_pool", "mode", "dynamic");
	put(db, "BUFFER_POOL", "ingress_lossless_pool", "size", "50270208");
	put(db, "BUFFER_POOL", "ingress_lossless_pool", "type", "ingress");
	if (m->shp_xoff)
		putf(db, "BUFFER_POOL", "ingress_lossless_pool", "xoff", m->shp_xoff);
	put(db, "BUFFER_PROFILE", "egress_lossless_profile", "dynamic_th", "7");
	put(db, "BUFFER_PROFILE", "egress_lossless_profile", "pool", "egress_lossless_pool");
	put(db, "BUFFER_PROFILE", "egress_lossless_profile", "size", "0");
	put(db, "BUFFER_PROFILE", "egress_lossy_profile", "dynamic_th", "7");
	put(db, "BUFFER_PROFILE", "egress_lossy_profile", "pool", "egress_lossy_pool");
	put(db, "BUFFER_PROFILE", "egress_lossy_profile", "size", "9216");
	put(db, "BUFFER_PROFILE", "ingress_lossy_profile", "dynamic_th", "3");
	put(db, "BUFFER_PROFILE", "ingress_lossy_profile", "pool", "ingress_lossless_pool");
	put(db, "BUFFER_PROFILE", "ingress_lossy_profile", "size", "0");
}

cJSON *sn_factory_db(const struct sn_model *m, bool dynamic, const char *hostname, const char *mac)
{
	cJSON *db = cJSON_CreateObject();
	char p[32], key[48];

	put(db, "DEVICE_METADATA", "localhost", "buffer_model", "traditional");
	put(db, "DEVICE_METADATA", "localhost", "hostname", hostname);
	put(db, "DEVICE_METADATA", "localhost", "hwsku", m->name);
	put(db, "DEVICE_METADATA", "localhost", "mac", mac);
	put(db, "DEVICE_METADATA", "localhost", "platform", m->platform);
	put(db, "DEVICE_METADATA", "localhost", "type", "ToRRouter");

	long speed;
	int lanes, lane0;
	for (int i = 0; sn_port_of(m, i, p, sizeof(p), &speed, &lanes, &lane0); i++) {
		struct sbuf l;
		sb_init(&l);
		for (int j = 0; j < lanes; j++)
			sb_addf(&l, "%s%d", j ? "," : "", lane0 + j);
		put(db, "PORT", p, "admin_status", "up");
		snprintf(key, sizeof(key), "etp%d", i + 1);
		put(db, "PORT", p, "alias", key);
		put(db, "PORT", p, "fec", "rs");
		putf(db, "PORT", p, "index", i + 1);
		put(db, "PORT", p, "lanes", sb_str(&l));
		put(db, "PORT", p, "mtu", "9100");
		putf(db, "PORT", p, "speed", speed);
		sb_free(&l);
	}

	/* AZURE maps (qos_config.j2): DSCP 26 is lossy TC 1 */
	for (int d = 0; d < 64; d++) {
		int tc = d == 3	   ? 3
			 : d == 4  ? 4
			 : d == 5  ? 2
			 : d == 8  ? 0
			 : d == 46 ? 5
			 : d == 48 ? 6
				   : 1;
		snprintf(key, sizeof(key), "%d", d);
		putf(db, "DSCP_TO_TC_MAP", "AZURE", key, tc);
	}
	for (int t = 0; t < 8; t++) {
		snprintf(key, sizeof(key), "%d", t);
		putf(db, "TC_TO_PRIORITY_GROUP_MAP", "AZURE", key,
		     t == 3 || t == 4 || t == 7 ? t : 0);
		putf(db, "TC_TO_QUEUE_MAP", "AZURE", key, t);
		putf(db, "MAP_PFC_PRIORITY_TO_QUEUE", "AZURE", key, t);
	}
	put(db, "SCHEDULER", "scheduler.0", "type", "DWRR");
	put(db, "SCHEDULER", "scheduler.0", "weight", "14");
	put(db, "SCHEDULER", "scheduler.1", "type", "DWRR");
	put(db, "SCHEDULER", "scheduler.1", "weight", "15");
	static const char *const wred[][2] = {
	    {"ecn", "ecn_all"},
	    {"green_drop_probability", "5"},
	    {"green_max_threshold", "2097152"},
	    {"green_min_threshold", "1048576"},
	    {"red_drop_probability", "5"},
	    {"red_max_threshold", "2097152"},
	    {"red_min_threshold", "1048576"},
	    {"wred_green_enable", "true"},
	    {"wred_red_enable", "true"},
	    {"wred_yellow_enable", "true"},
	    {"yellow_drop_probability", "5"},
	    {"yellow_max_threshold", "2097152"},
	    {"yellow_min_threshold", "1048576"},
	};
	for (size_t i = 0; i < sizeof(wred) / sizeof(wred[0]); i++)
		put(db, "WRED_PROFILE", "AZURE_LOSSLESS", wred[i][0], wred[i][1]);

	if (!dynamic)
		traditional_buffers(m, db);

	const char *names[SN_PORTS_MAX];
	size_t n_names = 0;
	for (int i = 0; sn_port_of(m, i, p, sizeof(p), &speed, &lanes, &lane0); i++) {
		static const char *const qos[][2] = {
		    {"dscp_to_tc_map", "AZURE"},   {"pfc_enable", "3,4"},
		    {"pfc_to_queue_map", "AZURE"}, {"pfcwd_sw_enable", "3,4"},
		    {"tc_to_pg_map", "AZURE"},	   {"tc_to_queue_map", "AZURE"},
		};
		for (size_t j = 0; j < sizeof(qos) / sizeof(qos[0]); j++)
			put(db, "PORT_QOS_MAP", p, qos[j][0], qos[j][1]);
		for (int q = 0; q < 7; q++) {
			snprintf(key, sizeof(key), "%s|%d", p, q);
			bool lossless = q == 3 || q == 4;
			put(db, "QUEUE", key, "scheduler",
			    lossless ? "scheduler.1" : "scheduler.0");
			if (lossless)
				put(db, "QUEUE", key, "wred_profile", "AZURE_LOSSLESS");
		}
		put(db, "CABLE_LENGTH", "AZURE", p, "5m");
		if (dynamic) {
			names[n_names++] = jget1(jget1(db, "PORT_QOS_MAP"), p)->string;
		} else {
			snprintf(key, sizeof(key), "%s|0", p);
			put(db, "BUFFER_PG", key, "profile", "ingress_lossy_profile");
			snprintf(key, sizeof(key), "%s|0-2", p);
			put(db, "BUFFER_QUEUE", key, "profile", "egress_lossy_profile");
			snprintf(key, sizeof(key), "%s|3-4", p);
			put(db, "BUFFER_QUEUE", key, "profile", "egress_lossless_profile");
			snprintf(key, sizeof(key), "%s|5-6", p);
			put(db, "BUFFER_QUEUE", key, "profile", "egress_lossy_profile");
		}
		/* pfcwd start_default */
		put(db, "PFC_WD", p, "action", "drop");
		put(db, "PFC_WD", p, "detection_time", "200");
		put(db, "PFC_WD", p, "restoration_time", "200");
	}
	put(db, "PFC_WD", "GLOBAL", "POLL_INTERVAL", "200");
	if (dynamic)
		sn_factory_dynamic(db, names, n_names);
	sn_buffermgrd(m, NULL, db);
	return db;
}

/* ---- buffermgrd ---- */

const struct sn_row *sn_row_of(const struct sn_model *m, long speed, long cable_m)
{
	for (size_t i = 0; i < m->n_rows; i++)
		if (m->rows[i].speed == speed && m->rows[i].cable_m == cable_m)
			return &m->rows[i];
	return NULL;
}

bool sn_port_exists(const cJSON *db, const char *port)
{
	const char *path[] = {"PORT", port};
	return cJSON_IsObject(jget(db, path, 2));
}

struct bm_in {
	const char *speed, *cable, *pfc;
};

static struct bm_in bm_inputs(const cJSON *db, const char *port)
{
	const char *ps[] = {"PORT", port}, *cs[] = {"CABLE_LENGTH", "AZURE"},
		   *qs[] = {"PORT_QOS_MAP", port};
	struct bm_in in = {jstr(jget(db, ps, 2), "speed", NULL), jstr(jget(db, cs, 2), port, NULL),
			   jstr(jget(db, qs, 2), "pfc_enable", NULL)};
	return in;
}

static bool str_eq(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* The lossless PG keys ("3-4", or "1" and "3-4") of a pfc_enable list. */
static int lossless_pgs(const char *pfc, char out[8][8])
{
	unsigned mask = 0;
	int n = 0;
	for (const char *s = pfc ? pfc : ""; *s; s++)
		if (*s >= '0' && *s <= '7')
			mask |= 1u << (*s - '0');
	for (int p = 0; p < 8; p++) {
		if (!(mask & (1u << p)))
			continue;
		int q = p;
		while (q + 1 < 8 && (mask & (1u << (q + 1))))
			q++;
		/* single digits: p and q are 0..7 */
		out[n][0] = (char)('0' + p);
		out[n][1] = '\0';
		if (q != p) {
			out[n][1] = '-';
			out[n][2] = (char)('0' + q);
			out[n][3] = '\0';
		}
		n++;
		p = q;
	}
	return n;
}

static void bm_port(const struct sn_model *m, cJSON *db, const char *port)
{
	struct bm_in in = bm_inputs(db, port);
	char pgs[8][8], key[160], prof[96];
	long cable = in.cable ? strtol(in.cable, NULL, 10) : 0, speed = 0;
	const struct sn_row *row = NULL;
	if (in.speed)
		speed = strtol(in.speed, NULL, 10);
	int n = lossless_pgs(in.pfc, pgs);
	/* a missing (speed, cable) row: buffermgrd logs "No PG profile configured for speed S
	 * and cable length C" and leaves the port's PGs as they are */
	if (n > 0 && !(row = sn_row_of(m, speed, cable)))
		return;
	cJSON *pg = jget1(db, "BUFFER_PG"), *e, *next;
	size_t plen = strlen(port);
	for (e = pg ? pg->child : NULL; e; e = next) {
		next = e->next;
		if (strncmp(e->string, port, plen) == 0 && e->string[plen] == '|' &&
		    strncmp(jstr(e, "profile", ""), "pg_lossless_", 12) == 0)
			cJSON_DeleteItemFromObjectCaseSensitive(pg, e->string);
	}
	if (n == 0 || cable <= 0)
		return;
	snprintf(prof, sizeof(prof), "pg_lossless_%ld_%ldm_profile", speed, cable);
	const char *pp[] = {"BUFFER_PROFILE", prof};
	if (!jget(db, pp, 2)) {
		put(db, "BUFFER_PROFILE", prof, "dynamic_th", "0");
		put(db, "BUFFER_PROFILE", prof, "pool", "ingress_lossless_pool");
		/* with the shared headroom pool the profile reserves xon only
		 * (buffer_headroom_mellanox.lua); the row's size otherwise */
		putf(db, "BUFFER_PROFILE", prof, "size", m->shp_xoff ? row->xon : row->size);
		putf(db, "BUFFER_PROFILE", prof, "xoff", row->xoff);
		putf(db, "BUFFER_PROFILE", prof, "xon", row->xon);
	}
	for (int i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "%s|%s", port, pgs[i]);
		put(db, "BUFFER_PG", key, "profile", prof);
	}
}

void sn_buffermgrd(const struct sn_model *m, const cJSON *before, cJSON *db)
{
	const cJSON *port;
	/* the dynamic model's buffermgrd writes APPL_DB and STATE_DB only (sonic_dyn.c) */
	if (sn_db_dynamic(db))
		return;
	cJSON_ArrayForEach(port, jget1(db, "PORT"))
	{
		struct bm_in now = bm_inputs(db, port->string);
		if (before) {
			struct bm_in was = bm_inputs(before, port->string);
			if (str_eq(was.speed, now.speed) && str_eq(was.cable, now.cable) &&
			    str_eq(was.pfc, now.pfc))
				continue;
		}
		bm_port(m, db, port->string);
	}
}

/* ---- validation (YANG-style; the texts are libyang's shapes, sonic-buildimage Configuration.md
 * and sonic-yang-models rules) ---- */

struct vctx {
	const cJSON *db;
	struct sbuf *err;
	const char *table, *key, *field;
};

static int verr(struct vctx *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int verr(struct vctx *v, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char buf[512];
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	sb_adds(v->err, buf);
	return -1;
}

static bool uint_in(const char *s, long lo, long hi)
{
	if (!is_uint(s) || strlen(s) > 12)
		return false;
	long x = strtol(s, NULL, 10);
	return x >= lo && x <= hi;
}

static bool int_in(const char *s, long lo, long hi)
{
	if (*s == '-')
		return uint_in(s + 1, 0, -lo) && strtol(s, NULL, 10) >= lo;
	return uint_in(s, 0, hi) && strtol(s, NULL, 10) >= lo;
}

static bool list07(const char *s)
{
	/* ([0-7](,[0-7])*)? */
	if (!*s)
		return true;
	for (;;) {
		if (*s < '0' || *s > '7')
			return false;
		s++;
		if (!*s)
			return true;
		if (*s++ != ',')
			return false;
	}
}

static bool range07(const char *s)
{
	/* [0-7](-[0-7])? */
	return s[0] >= '0' && s[0] <= '7' &&
	       (!s[1] || (s[1] == '-' && s[2] >= '0' && s[2] <= '7' && !s[3] && s[2] > s[0]));
}

static bool one_of(const char *s, const char *const *vals)
{
	for (; *vals; vals++)
		if (strcmp(s, *vals) == 0)
			return true;
	return false;
}

static int constraint(struct vctx *v, const char *val, const char *what)
{
	return verr(v,
		    "Value \"%s\" of %s|%s|%s does not satisfy the constraint \"%s\" (range, "
		    "length, or pattern).",
		    val, v->table, v->key, v->field, what);
}

static int leafref(struct vctx *v, const char *table, const char *val)
{
	const char *path[] = {table, val};
	if (cJSON_IsObject(jget(v->db, path, 2)))
		return 0;
	return verr(v,
		    "Leafref \"/%s/%s_LIST/name\" of value \"%s\" points to a non-existing "
		    "leaf (%s|%s|%s).",
		    table, table, val, v->table, v->key, v->field);
}

static int port_ref(struct vctx *v, const char *port)
{
	if (sn_port_exists(v->db, port))
		return 0;
	return verr(v,
		    "Leafref \"/PORT/PORT_LIST/name\" of value \"%s\" points to a non-existing "
		    "leaf (%s|%s).",
		    port, v->table, v->key);
}

/* "Ethernet0|3" -> port and the rest */
static int split_key(struct vctx *v, char *port, size_t len, const char **rest)
{
	const char *bar = strchr(v->key, '|');
	if (!bar || (size_t)(bar - v->key) >= len)
		return verr(v, "Key \"%s\" of %s is not PORT|INDEX.", v->key, v->table);
	snprintf(port, len, "%.*s", (int)(bar - v->key), v->key);
	*rest = bar + 1;
	return port_ref(v, port);
}

static const char *const wred_fields[] = {"ecn",
					  "green_drop_probability",
					  "green_max_threshold",
					  "green_min_threshold",
					  "red_drop_probability",
					  "red_max_threshold",
					  "red_min_threshold",
					  "wred_green_enable",
					  "wred_red_enable",
					  "wred_yellow_enable",
					  "yellow_drop_probability",
					  "yellow_max_threshold",
					  "yellow_min_threshold",
					  NULL};
static const char *const qos_map_fields[] = {"dscp_to_tc_map",
					     "tc_to_pg_map",
					     "tc_to_queue_map",
					     "pfc_to_queue_map",
					     "pfc_to_pg_map",
					     "dot1p_to_tc_map",
					     "tc_to_dscp_map",
					     "scheduler",
					     "pfc_enable",
					     "pfcwd_sw_enable",
					     NULL};
static const char *const ecn_vals[] = {"ecn_none",	 "ecn_green",	     "ecn_yellow",
				       "ecn_red",	 "ecn_green_yellow", "ecn_green_red",
				       "ecn_yellow_red", "ecn_all",	     NULL};
static const char *const bool_vals[] = {"true", "false", NULL};

static int v_field(struct vctx *v, const char *val)
{
	const char *t = v->table, *f = v->field;
	if (!strcmp(t, "DSCP_TO_TC_MAP")) {
		if (!uint_in(f, 0, 63))
			return verr(v, "Unknown element \"%s\" (%s|%s).", f, t, v->key);
		return uint_in(val, 0, 15) ? 0 : constraint(v, val, "0..15");
	}
	if (!strcmp(t, "TC_TO_PRIORITY_GROUP_MAP") || !strcmp(t, "TC_TO_QUEUE_MAP") ||
	    !strcmp(t, "MAP_PFC_PRIORITY_TO_QUEUE")) {
		if (!uint_in(f, 0, !strcmp(t, "MAP_PFC_PRIORITY_TO_QUEUE") ? 7 : 15))
			return verr(v, "Unknown element \"%s\" (%s|%s).", f, t, v->key);
		return uint_in(val, 0, 7) ? 0 : constraint(v, val, "0..7");
	}
	if (!strcmp(t, "PORT_QOS_MAP")) {
		if (!one_of(f, qos_map_fields))
			return verr(v, "Unknown element \"%s\" (%s|%s).", f, t, v->key);
		if (!strcmp(f, "pfc_enable") || !strcmp(f, "pfcwd_sw_enable"))
			return list07(val) ? 0 : constraint(v, val, "([0-7](,[0-7])*)?");
		if (!strcmp(f, "dscp_to_tc_map"))
			return leafref(v, "DSCP_TO_TC_MAP", val);
		if (!strcmp(f, "tc_to_pg_map"))
			return leafref(v, "TC_TO_PRIORITY_GROUP_MAP", val);
		if (!strcmp(f, "tc_to_queue_map"))
			return leafref(v, "TC_TO_QUEUE_MAP", val);
		if (!strcmp(f, "pfc_to_queue_map"))
			return leafref(v, "MAP_PFC_PRIORITY_TO_QUEUE", val);
		if (!strcmp(f, "scheduler"))
			return leafref(v, "SCHEDULER", val);
		return 0;
	}
	if (!strcmp(t, "QUEUE")) {
		if (!strcmp(f, "scheduler"))
			return leafref(v, "SCHEDULER", val);
		if (!strcmp(f, "wred_profile"))
			return leafref(v, "WRED_PROFILE", val);
		return verr(v, "Unknown element \"%s\" (%s|%s).", f, t, v->key);
	}
	if (!strcmp(t, "SCHEDULER")) {
		static const char *const types[] = {"DWRR", "WRR", "STRICT", NULL};
		if (!strcmp(f, "type"))
			return one_of(val, types) ? 0 : constraint(v, val, "DWRR|WRR|STRICT");
		if (!strcmp(f, "weight"))
			return uint_in(val, 1, 100) ? 0 : constraint(v, val, "1..100");
		if (!strcmp(f, "meter_type") || !strcmp(f, "pir") || !strcmp(f, "pbs") ||
		    !strcmp(f, "cir") || !strcmp(f, "cbs"))
			return 0;
		return verr(v, "Unknown element \"%s\" (%s|%s).", f, t, v->key);
	}
	if (!strcmp(t, "WRED_PROFILE")) {
		if (!one_of(f, wred_fields))
			return verr(v, "Unknown element \"%s\" (%s|%s).", f, t, v->key);
		if (!strcmp(f, "ecn"))
			return one_of(val, ecn_vals) ? 0
						     : constraint(v, val, "ecn_none|...|ecn_all");
		if (strstr(f, "_enable"))
			return one_of(val, bool_vals) ? 0 : constraint(v, val, "true|false");
		if (strstr(f, "probability"))
			return uint_in(val, 0, 100) ? 0 : constraint(v, val, "0..100");
		return uint_in(val, 0, 999999999999L) ? 0 : constraint(v, val, "uint64");
	}
	if (!strcmp(t, "BUFFER_POOL")) {
		static const char *const types[] = {"ingress", "egress", "both", NULL};
		static const char *const modes[] = {"static", "dynamic", NULL};
		if (!strcmp(f, "type"))
			return one_of(val, types) ? 0 : constraint(v, val, "ingress|egress|both");
		if (!strcmp(f, "mode"))
			return one_of(val, modes) ? 0 : constraint(v, val, "static|dynamic");
		if (!strcmp(f, "size") || !strcmp(f, "xoff") || !strcmp(f, "percentage"))
			return uint_in(val, 0, 999999999999L) ? 0 : constraint(v, val, "uint64");
		return verr(v, "Unknown element \"%s\" (%s|%s).", f, t, v->key);
	}
	if (!strcmp(t, "BUFFER_PROFILE")) {
		if (!strcmp(f, "pool"))
			return leafref(v, "BUFFER_POOL", val);
		if (!strcmp(f, "size") || !strcmp(f, "xon") || !strcmp(f, "xoff") ||
		    !strcmp(f, "xon_offset") || !strcmp(f, "static_th"))
			return uint_in(val, 0, 999999999999L) ? 0 : constraint(v, val, "uint64");
		if (!strcmp(f, "dynamic_th"))
			return int_in(val, -8, 7) ? 0 : constraint(v, val, "-8..7");
		if (!strcmp(f, "headroom_type") || !strcmp(f, "packet_discard_action"))
			return 0;
		return verr(v, "Unknown element \"%s\" (%s|%s).", f, t, v->key);
	}
	if (!strcmp(t, "BUFFER_PG") || !strcmp(t, "BUFFER_QUEUE")) {
		if (strcmp(f, "profile") != 0)
			return verr(v, "Unknown element \"%s\" (%s|%s).", f, t, v->key);
		if (!strcmp(val, "NULL") && !strcmp(t, "BUFFER_PG"))
			return 0;
		return leafref(v, "BUFFER_PROFILE", val);
	}
	if (!strcmp(t, "CABLE_LENGTH")) {
		size_t n = strlen(val);
		if (port_ref(v, f) < 0)
			return -1;
		if (n < 2 || val[n - 1] != 'm' || strspn(val, "0123456789") != n - 1)
			return constraint(v, val, "[0-9]+m");
		return 0;
	}
	if (!strcmp(t, "PFC_WD")) {
		static const char *const actions[] = {"drop", "forward", "alert", NULL};
		static const char *const ed[] = {"enable", "disable", NULL};
		if (!strcmp(v->key, "GLOBAL")) {
			if (!strcmp(f, "POLL_INTERVAL"))
				return uint_in(val, 100, 1000) ? 0
							       : constraint(v, val, "100..1000");
			if (!strcmp(f, "BIG_RED_SWITCH"))
				return one_of(val, ed) ? 0 : constraint(v, val, "enable|disable");
			return verr(v, "Unknown element \"%s\" (%s|%s).", f, t, v->key);
		}
		if (!strcmp(f, "action"))
			return one_of(val, actions) ? 0 : constraint(v, val, "drop|forward|alert");
		if (!strcmp(f, "detection_time"))
			return uint_in(val, 100, 5000) ? 0 : constraint(v, val, "100..5000");
		if (!strcmp(f, "restoration_time"))
			return uint_in(val, 100, 60000) ? 0 : constraint(v, val, "100..60000");
		if (!strcmp(f, "pfc_stat_history"))
			return one_of(val, ed) ? 0 : constraint(v, val, "enable|disable");
		return verr(v, "Unknown element \"%s\" (%s|%s).", f, t, v->key);
	}
	if (!strcmp(t, "DEVICE_METADATA") && !strcmp(f, "buffer_model")) {
		static const char *const bm[] = {"traditional", "dynamic", NULL};
		return one_of(val, bm) ? 0 : constraint(v, val, "traditional|dynamic");
	}
	if (!strcmp(t, "PORT") && (!strcmp(f, "mtu") || !strcmp(f, "speed")))
		return uint_in(val, 1, 9999999) ? 0 : constraint(v, val, "uint32");
	return 0;
}

static long field_long(const cJSON *h, const char *f, long dflt)
{
	const char *s = jstr(h, f, NULL);
	return s && is_uint(s) && strlen(s) < 13 ? strtol(s, NULL, 10) : dflt;
}

static int v_key(struct vctx *v, const cJSON *hash)
{
	char port[64];
	const char *rest = "";
	const char *t = v->table;
	if (!strcmp(t, "PORT_QOS_MAP") && strcmp(v->key, "global") != 0 && port_ref(v, v->key) < 0)
		return -1;
	if (!strcmp(t, "PFC_WD") && strcmp(v->key, "GLOBAL") != 0 && port_ref(v, v->key) < 0)
		return -1;
	if (!strcmp(t, "QUEUE") || !strcmp(t, "BUFFER_QUEUE") || !strcmp(t, "BUFFER_PG")) {
		if (split_key(v, port, sizeof(port), &rest) < 0)
			return -1;
		if (!range07(rest))
			return verr(v,
				    "Value \"%s\" of key %s|%s does not satisfy the constraint "
				    "\"[0-7](-[0-7])?\" (range, length, or pattern).",
				    rest, t, v->key);
	}
	if (!strcmp(t, "WRED_PROFILE")) {
		static const char *const colors[] = {"green", "yellow", "red"};
		for (int i = 0; i < 3; i++) {
			char mn[48], mx[48];
			snprintf(mn, sizeof(mn), "%s_min_threshold", colors[i]);
			snprintf(mx, sizeof(mx), "%s_max_threshold", colors[i]);
			long a = field_long(hash, mn, -1), b = field_long(hash, mx, -1);
			if (a >= 0 && b >= 0 && a > b)
				return verr(v, "Must condition \"%s <= %s\" not satisfied (%s|%s).",
					    mn, mx, t, v->key);
		}
	}
	if (!strcmp(t, "BUFFER_PROFILE")) {
		if (!jstr(hash, "size", NULL))
			return verr(v, "Mandatory node \"size\" instance does not exist (%s|%s).",
				    t, v->key);
		/* no "xoff <= size" rule: sonic-buffer-profile.yang has none, and Broadcom
		 * lookup rows have xoff far above size (sonic-buildimage's sonic-yang-models,
		 * skus/Arista-7260CX3-D108C8/pg_profile_lookup.ini) */
	}
	if (!strcmp(t, "PFC_WD") && strcmp(v->key, "GLOBAL") != 0) {
		const char *g[] = {"PFC_WD", "GLOBAL"};
		long poll = field_long(jget(v->db, g, 2), "POLL_INTERVAL", 0);
		long det = field_long(hash, "detection_time", -1),
		     res = field_long(hash, "restoration_time", -1);
		if ((det >= 0 && det < poll) || (res >= 0 && res < poll))
			return verr(v,
				    "Must condition \"detection_time and restoration_time >= "
				    "POLL_INTERVAL\" not satisfied (%s|%s).",
				    t, v->key);
	}
	return 0;
}

int sn_validate(const struct sn_sw *sw, const cJSON *db, struct sbuf *err)
{
	struct vctx v = {.db = db, .err = err};
	const cJSON *t, *k, *f;
	(void)sw;
	if (!cJSON_IsObject(db)) {
		sb_adds(err, "the configuration is not a JSON object");
		return -1;
	}
	cJSON_ArrayForEach(t, db)
	{
		v.table = t->string;
		if (!cJSON_IsObject(t))
			return verr(&v, "Table \"%s\" is not an object.", t->string);
		cJSON_ArrayForEach(k, t)
		{
			v.key = k->string;
			if (!cJSON_IsObject(k))
				return verr(&v, "Entry \"%s|%s\" is not an object.", t->string,
					    k->string);
			cJSON_ArrayForEach(f, k)
			{
				v.field = f->string;
				if (!cJSON_IsString(f))
					return verr(&v,
						    "Value of %s|%s|%s is not a string (CONFIG_DB "
						    "holds strings only).",
						    t->string, k->string, f->string);
				if (v_field(&v, f->valuestring) < 0)
					return -1;
			}
			v.field = NULL;
			if (v_key(&v, k) < 0)
				return -1;
		}
	}
	return 0;
}

/* ---- printing ---- */

int sn_natcmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			const char *x = a, *y = b;
			while (*x == '0' && isdigit((unsigned char)x[1]))
				x++;
			while (*y == '0' && isdigit((unsigned char)y[1]))
				y++;
			size_t lx = strspn(x, "0123456789"), ly = strspn(y, "0123456789");
			if (lx != ly)
				return lx < ly ? -1 : 1;
			int c = strncmp(x, y, lx);
			if (c)
				return c;
			a = x + lx;
			b = y + ly;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

static int nat_key_cmp(const void *x, const void *y)
{
	return sn_natcmp(*(const char *const *)x, *(const char *const *)y);
}

static void py_jstring(struct sbuf *out, const char *s)
{
	sb_addc(out, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			sb_addf(out, "\\%c", *p);
		else if (*p == '\n')
			sb_adds(out, "\\n");
		else if (*p == '\t')
			sb_adds(out, "\\t");
		else if (*p == '\r')
			sb_adds(out, "\\r");
		else if (*p < 0x20)
			sb_addf(out, "\\u%04x", *p);
		else
			sb_addc(out, (char)*p);
	}
	sb_addc(out, '"');
}

static void scalar(struct sbuf *out, const cJSON *j)
{
	if (cJSON_IsString(j))
		py_jstring(out, j->valuestring);
	else if (cJSON_IsNumber(j) && jis_long(j))
		sb_addf(out, "%ld", jlong(j, 0));
	else if (cJSON_IsNumber(j))
		sb_addf(out, "%.17g", j->valuedouble);
	else if (cJSON_IsTrue(j))
		sb_adds(out, "true");
	else if (cJSON_IsFalse(j))
		sb_adds(out, "false");
	else
		sb_adds(out, "null");
}

static int nat_member_cmp(const void *a, const void *b)
{
	const char *ka = (*(const cJSON *const *)a)->string;
	const char *kb = (*(const cJSON *const *)b)->string;
	return nat_key_cmp(&ka, &kb);
}

static void pretty_at(struct sbuf *out, const cJSON *j, int ind)
{
	if (cJSON_IsObject(j) || cJSON_IsArray(j)) {
		int n = cJSON_GetArraySize(j), i = 0;
		bool obj = cJSON_IsObject(j);
		if (n == 0) {
			sb_adds(out, obj ? "{}" : "[]");
			return;
		}
		const char **keys = calloc((size_t)n, sizeof(char *));
		const cJSON **vals = calloc((size_t)n, sizeof(cJSON *));
		if (!keys || !vals)
			abort();
		const cJSON *c;
		cJSON_ArrayForEach(c, j)
		{
			keys[i] = c->string;
			vals[i++] = c;
		}
		if (obj) {
			/* the members sorted with their keys: a lookup per sorted key made a
			 * table of thousands of rows quadratic */
			qsort(vals, (size_t)n, sizeof(cJSON *), nat_member_cmp);
			for (i = 0; i < n; i++)
				keys[i] = vals[i]->string;
		}
		sb_adds(out, obj ? "{\n" : "[\n");
		for (i = 0; i < n; i++) {
			sb_indent(out, ind + 4);
			if (obj) {
				py_jstring(out, keys[i]);
				sb_adds(out, ": ");
			}
			pretty_at(out, vals[i], ind + 4);
			sb_adds(out, i + 1 < n ? ",\n" : "\n");
		}
		sb_indent(out, ind);
		sb_addc(out, obj ? '}' : ']');
		free(keys);
		free(vals);
		return;
	}
	scalar(out, j);
}

void sn_print_json(struct sbuf *out, const cJSON *j)
{
	pretty_at(out, j, 0);
	sb_addc(out, '\n');
}

void sn_print_compact(struct sbuf *out, const cJSON *j)
{
	const cJSON *c;
	int i = 0;
	if (cJSON_IsObject(j)) {
		sb_addc(out, '{');
		cJSON_ArrayForEach(c, j)
		{
			sb_adds(out, i++ ? ", " : "");
			py_jstring(out, c->string);
			sb_adds(out, ": ");
			sn_print_compact(out, c);
		}
		sb_addc(out, '}');
	} else if (cJSON_IsArray(j)) {
		sb_addc(out, '[');
		cJSON_ArrayForEach(c, j)
		{
			sb_adds(out, i++ ? ", " : "");
			sn_print_compact(out, c);
		}
		sb_addc(out, ']');
	} else {
		scalar(out, j);
	}
}

void sn_pyrepr_str(struct sbuf *out, const char *s)
{
	char q = strchr(s, '\'') && !strchr(s, '"') ? '"' : '\'';
	sb_addc(out, q);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '\\' || *p == (unsigned char)q)
			sb_addf(out, "\\%c", *p);
		else if (*p == '\n')
			sb_adds(out, "\\n");
		else if (*p == '\t')
			sb_adds(out, "\\t");
		else if (*p == '\r')
			sb_adds(out, "\\r");
		else if (*p < 0x20 || *p == 0x7f)
			sb_addf(out, "\\x%02x", *p);
		else
			sb_addc(out, (char)*p);
	}
	sb_addc(out, q);
}

void sn_pyrepr_hash(struct sbuf *out, const cJSON *hash)
{
	const cJSON *f;
	int i = 0;
	sb_addc(out, '{');
	cJSON_ArrayForEach(f, hash)
	{
		sb_adds(out, i++ ? ", " : "");
		sn_pyrepr_str(out, f->string);
		sb_adds(out, ": ");
		sn_pyrepr_str(out, cJSON_IsString(f) ? f->valuestring : "");
	}
	sb_addc(out, '}');
}

/* ---- writes behind GCU's back ---- */

void sn_commit_direct(struct sn_sw *sw, cJSON *db)
{
	sn_buffermgrd(sw->model, sw->db, db);
	jput(sw->sn, "config_db", db);
	sw->db = db;
}

/* ---- sonic-db-cli ---- */

static const char *const db_names[] = {"APPL_DB",
				       "ASIC_DB",
				       "COUNTERS_DB",
				       "LOGLEVEL_DB",
				       "CONFIG_DB",
				       "PFC_WD_DB",
				       "FLEX_COUNTER_DB",
				       "STATE_DB",
				       "SNMP_OVERLAY_DB",
				       "RESTAPI_DB",
				       "GB_ASIC_DB",
				       "GB_COUNTERS_DB",
				       "GB_FLEX_COUNTER_DB",
				       "CHASSIS_APP_DB",
				       "CHASSIS_STATE_DB",
				       "APPL_STATE_DB",
				       NULL};

static int db_usage(struct sn_cli *c)
{
	fprintf(c->err, "usage: sonic-db-cli [-h] [-s] [-n NAMESPACE] db_or_op [cmd ...]\n");
	return 1;
}

static int redis_err(struct sn_cli *c, const char *fmt, const char *arg)
{
	fputs("(error) ", c->out);
	fprintf(c->out, fmt, arg);
	fputc('\n', c->out);
	return 1;
}

/* "TABLE|key" -> table and key (the key may hold more '|'); APPL_DB joins with ':'. */
static char key_sep = '|';

static bool split_redis_key(const char *k, char *table, size_t tlen, const char **key)
{
	const char *bar = strchr(k, key_sep);
	if (!bar || bar == k || (size_t)(bar - k) >= tlen || !bar[1])
		return false;
	snprintf(table, tlen, "%.*s", (int)(bar - k), k);
	*key = bar + 1;
	return true;
}

static cJSON *hash_of(cJSON *db, const char *k)
{
	char table[128];
	const char *key;
	if (!split_redis_key(k, table, sizeof(table), &key))
		return NULL;
	const char *path[] = {table, key};
	cJSON *h = jget(db, path, 2);
	return cJSON_IsObject(h) ? h : NULL;
}

static int cmp_str(const void *a, const void *b)
{
	return sn_natcmp(*(const char *const *)a, *(const char *const *)b);
}

static int db_keys(struct sn_cli *c, cJSON *db, const char *pat)
{
	const cJSON *t, *k;
	size_t n = 0, cap = 0;
	char **v = NULL;
	cJSON_ArrayForEach(t, db)
	{
		cJSON_ArrayForEach(k, t)
		{
			struct sbuf s;
			sb_init(&s);
			sb_addf(&s, "%s%c%s", t->string, key_sep, k->string);
			if (fnmatch(pat, sb_str(&s), 0) != 0) {
				sb_free(&s);
				continue;
			}
			if (n == cap) {
				cap = cap ? cap * 2 : 64;
				v = realloc(v, cap * sizeof(*v));
				if (!v)
					abort();
			}
			v[n++] = s.buf;
		}
	}
	if (n)
		qsort(v, n, sizeof(*v), cmp_str);
	for (size_t i = 0; i < n; i++) {
		fprintf(c->out, "%s\n", v[i]);
		free(v[i]);
	}
	free(v);
	return 0;
}

static int db_write(struct sn_cli *c, const char *cmd, int argc, char **argv)
{
	cJSON *db = cJSON_Duplicate(c->sw.db, true);
	char table[128];
	const char *key;
	long count = 0;

	if (!strcasecmp(cmd, "DEL")) {
		for (int i = 0; i < argc; i++) {
			if (!split_redis_key(argv[i], table, sizeof(table), &key))
				continue;
			const char *path[] = {table, key};
			if (jdel(db, path, 2))
				count++;
			cJSON *t = jget1(db, table);
			if (cJSON_IsObject(t) && !t->child)
				cJSON_DeleteItemFromObjectCaseSensitive(db, table);
		}
	} else {
		if (!split_redis_key(argv[0], table, sizeof(table), &key)) {
			cJSON_Delete(db);
			fprintf(
			    c->err,
			    "ERR the simulated CONFIG_DB holds TABLE|KEY hashes only, not '%s'\n",
			    argv[0]);
			return 1;
		}
		const char *path[] = {table, key};
		if (!strcasecmp(cmd, "HDEL")) {
			cJSON *h = jget(db, path, 2);
			for (int i = 1; i < argc && cJSON_IsObject(h); i++)
				if (jdel(h, (const char *const *)&argv[i], 1))
					count++;
			if (cJSON_IsObject(h) && !h->child) {
				jdel(db, path, 2);
				cJSON *t = jget1(db, table);
				if (cJSON_IsObject(t) && !t->child)
					cJSON_DeleteItemFromObjectCaseSensitive(db, table);
			}
		} else {
			cJSON *h = jmkpath(db, path, 2);
			for (int i = 1; i + 1 < argc; i += 2) {
				if (!jget1(h, argv[i]))
					count++;
				jput(h, argv[i], cJSON_CreateString(argv[i + 1]));
			}
		}
	}
	sn_commit_direct(&c->sw, db);
	c->ctx->dirty = true;
	if (!strcasecmp(cmd, "HMSET"))
		fprintf(c->out, "OK\n");
	else
		fprintf(c->out, "%ld\n", count);
	return 0;
}

static int db_run(struct sn_cli *c, cJSON *db, const char *dbname, const char *cmd, int n,
		  char **a);

int sn_db_cli(struct sn_cli *c, int argc, char **argv)
{
	int i = 1;
	while (i < argc && argv[i][0] == '-') {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			db_usage(c);
			return 0;
		}
		if ((!strcmp(argv[i], "-n") || !strcmp(argv[i], "--namespace")) && i + 1 < argc)
			i += 2;
		else if (!strcmp(argv[i], "-s") || !strcmp(argv[i], "--unixsocket"))
			i++;
		else
			return db_usage(c);
	}
	if (i >= argc)
		return db_usage(c);
	const char *dbname = argv[i++];
	if (!strcmp(dbname, "PING")) {
		fprintf(c->out, "PONG\n");
		return 0;
	}
	if (!one_of(dbname, db_names)) {
		fprintf(c->err, "Invalid database name input : '%s'\n", dbname);
		return 1;
	}
	if (i >= argc)
		return db_usage(c);
	const char *cmd = argv[i++];
	/* CONFIG_DB is the switch; APPL_DB and STATE_DB hold the buffer tables the dynamic
	 * model's buffermgrd derives from it (sonic_dyn.c); the others answer as empty */
	if (strcmp(dbname, "CONFIG_DB") == 0)
		return db_run(c, c->sw.db, dbname, cmd, argc - i, argv + i);
	cJSON *derived = sn_derived_db(c->sw.model, c->sw.db, dbname);
	key_sep = strcmp(dbname, "APPL_DB") == 0 ? ':' : '|';
	int rc = db_run(c, derived, dbname, cmd, argc - i, argv + i);
	key_sep = '|';
	cJSON_Delete(derived);
	return rc;
}

static int db_run(struct sn_cli *c, cJSON *db, const char *dbname, const char *cmd, int n, char **a)
{
	char lower[32];
	snprintf(lower, sizeof(lower), "%s", cmd);
	for (char *p = lower; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	struct {
		const char *name;
		int min, max; /* argument counts; max -1 = any */
	} const cmds[] = {{"ping", 0, 1},    {"keys", 1, 1},	{"exists", 1, -1}, {"type", 1, 1},
			  {"hgetall", 1, 1}, {"hget", 2, 2},	{"hkeys", 1, 1},   {"hvals", 1, 1},
			  {"hlen", 1, 1},    {"hexists", 2, 2}, {"hset", 3, -1},   {"hmset", 3, -1},
			  {"hdel", 2, -1},   {"del", 1, -1}};
	int which = -1;
	for (size_t k = 0; k < sizeof(cmds) / sizeof(cmds[0]); k++)
		if (!strcmp(lower, cmds[k].name))
			which = (int)k;
	if (which < 0)
		return redis_err(c, "ERR unknown command '%s'", cmd);
	if (n < cmds[which].min || (cmds[which].max >= 0 && n > cmds[which].max) ||
	    ((!strcmp(lower, "hset") || !strcmp(lower, "hmset")) && (n - 1) % 2))
		return redis_err(c, "ERR wrong number of arguments for '%s' command", lower);

	if (!strcmp(lower, "ping")) {
		fprintf(c->out, "PONG\n");
		return 0;
	}
	if (!strcmp(lower, "keys"))
		return db_keys(c, db, a[0]);
	if (!strcmp(lower, "exists")) {
		long cnt = 0;
		for (int k = 0; k < n; k++)
			cnt += hash_of(db, a[k]) != NULL;
		fprintf(c->out, "%ld\n", cnt);
		return 0;
	}
	cJSON *h = hash_of(db, a[0]);
	if (!strcmp(lower, "type")) {
		fprintf(c->out, "%s\n", h ? "hash" : "none");
		return 0;
	}
	if (!strcmp(lower, "hgetall")) {
		struct sbuf sb;
		sb_init(&sb);
		sn_pyrepr_hash(&sb, h);
		fprintf(c->out, "%s\n", sb_str(&sb));
		sb_free(&sb);
		return 0;
	}
	if (!strcmp(lower, "hget")) {
		fprintf(c->out, "%s\n", jstr(h, a[1], ""));
		return 0;
	}
	if (!strcmp(lower, "hkeys") || !strcmp(lower, "hvals")) {
		const cJSON *f;
		cJSON_ArrayForEach(f, h)
		{
			fprintf(c->out, "%s\n", lower[1] == 'k' ? f->string : f->valuestring);
		}
		return 0;
	}
	if (!strcmp(lower, "hlen")) {
		fprintf(c->out, "%d\n", h ? cJSON_GetArraySize(h) : 0);
		return 0;
	}
	if (!strcmp(lower, "hexists")) {
		fprintf(c->out, "%d\n", jget1(h, a[1]) ? 1 : 0);
		return 0;
	}
	if (db != c->sw.db) {
		fprintf(c->err, "ERR %s is not simulated (read-only and empty)\n", dbname);
		return 1;
	}
	return db_write(c, lower, n, a);
}
