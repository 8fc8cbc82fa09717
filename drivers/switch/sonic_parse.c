/* SPDX-License-Identifier: Apache-2.0 */
/* SONiC read side: CONFIG_DB (and APPL_DB's buffer tables) -> struct port_qos.
 *
 * Every CONFIG_DB value is a string (sonic-buildimage src/sonic-yang-models/doc/Configuration.md),
 * so every number, list and name is parsed here with the pattern SONiC's YANG models give it
 * (sonic-buildimage Configuration.md and sonic-yang-models); anything else is refused with the
 * table, key and field where the output stopped making sense.  What a table does not say is what
 * SAI does without it: no DSCP map sends everything to TC 0, no TC -> queue map is the identity, no
 * wred_profile means no marking. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "sonic.h"
#include "switch_common.h"

#define THRESH_MAX (1ull << 40) /* bytes: far beyond any switch buffer */

bool sonic_name_ok(const char *name)
{
	return rc_switch_name_ok(name, "._-");
}

/* The shapes `show runningconfiguration all` takes besides plain CONFIG_DB
 * (sonic-utilities, `show runningconfiguration all`): a single-ASIC switch adds a top-level
 * "bgpraw" string (FRR's running configuration), dropped here; a multi-ASIC switch answers one
 * CONFIG_DB per namespace ({"localhost": {...}, "asic0": {...}}) and takes patches scoped
 * per ASIC (/asic0/TABLE/...), which this driver does not write: refused, by name. */
static int configdb_shape(cJSON **out, const char *what, struct rc_err *err)
{
	const cJSON *l = cJSON_GetObjectItemCaseSensitive(*out, "localhost"), *t;
	char names[96] = "";
	size_t o = 0;

	cJSON_DeleteItemFromObjectCaseSensitive(*out, "bgpraw");
	if (!cJSON_IsObject(l) || !cJSON_GetObjectItemCaseSensitive(l, "DEVICE_METADATA"))
		return 0;
	cJSON_ArrayForEach(t, *out)
	{
		if (t->string && !strncmp(t->string, "asic", 4) && o + 24 < sizeof(names))
			o += (size_t)snprintf(names + o, sizeof(names) - o, ", %.16s", t->string);
	}
	cJSON_Delete(*out);
	*out = NULL;
	return rc_errf(err, ENOTSUP,
		       "%s: a multi-ASIC switch (namespaces localhost%s): per-ASIC CONFIG_DB and "
		       "patches scoped /asicN/ are not supported by this driver; refusing",
		       what, names);
}

int sonic_parse_configdb(const char *buf, size_t len, const char *what, cJSON **out,
			 struct rc_err *err)
{
	const char *end = NULL;
	size_t at;

	*out = NULL;
	if (!buf || !len)
		return rc_errf(err, EPROTO, "%s: empty output where JSON was expected", what);
	*out = cJSON_ParseWithLengthOpts(buf, len, &end, 0);
	if (!*out) {
		at = end && end >= buf && end <= buf + len ? (size_t)(end - buf) : 0;
		return rc_errf(err, EPROTO, "%s: output is not JSON (invalid at byte %zu of %zu%s)",
			       what, at, len, at + 1 >= len ? ", truncated?" : "");
	}
	if (!cJSON_IsObject(*out)) {
		cJSON_Delete(*out);
		*out = NULL;
		return rc_errf(err, EPROTO, "%s: expected a JSON object of CONFIG_DB tables", what);
	}
	return configdb_shape(out, what, err);
}

/* ---- CONFIG_DB access -------------------------------------------------------------------- */

struct ctx {
	struct rc_err *err;
	const char *port;
};

static int bad_value(struct ctx *c, const char *table, const char *key, const char *field,
		     const char *value, const char *expected)
{
	char v[48];

	rc_clean_text(value ? value : "", value ? strlen(value) : 0, v, sizeof(v));
	return rc_errf(c->err, EPROTO, "unexpected SONiC output at %s|%s%s%s: expected %s%s%s%s",
		       table, key, field ? " " : "", field ? field : "", expected,
		       value ? ", got '" : "", value ? v : "", value ? "'" : "");
}

/* A table: an object, or absent (NULL). */
static int table_of(struct ctx *c, const cJSON *db, const char *name, const cJSON **out)
{
	const cJSON *t = cJSON_IsObject(db) ? cJSON_GetObjectItemCaseSensitive(db, name) : NULL;

	*out = NULL;
	if (!t || cJSON_IsNull(t))
		return 0;
	if (!cJSON_IsObject(t))
		return rc_errf(c->err, EPROTO,
			       "unexpected SONiC output: table %s is not an object of entries",
			       name);
	*out = t;
	return 0;
}

/* An entry of a table: an object, or absent (NULL). */
static int entry_of(struct ctx *c, const cJSON *table, const char *tname, const char *key,
		    const cJSON **out)
{
	const cJSON *e = table ? cJSON_GetObjectItemCaseSensitive(table, key) : NULL;

	*out = NULL;
	if (!e || cJSON_IsNull(e))
		return 0;
	if (!cJSON_IsObject(e))
		return bad_value(c, tname, key, NULL, NULL, "an object of fields");
	*out = e;
	return 0;
}

static int entry(struct ctx *c, const cJSON *db, const char *tname, const char *key,
		 const cJSON **out)
{
	const cJSON *t;
	int rc = table_of(c, db, tname, &t);

	*out = NULL;
	return rc ? rc : entry_of(c, t, tname, key, out);
}

/* A field: 1 when absent, 0 with *val, or an error when it is not a string. */
static int field_of(struct ctx *c, const cJSON *e, const char *tname, const char *key,
		    const char *field, const char **val)
{
	const cJSON *f = e ? cJSON_GetObjectItemCaseSensitive(e, field) : NULL;

	*val = NULL;
	if (!f)
		return 1;
	if (!cJSON_IsString(f))
		return bad_value(c, tname, key, field, NULL, "a string (CONFIG_DB values are)");
	*val = f->valuestring;
	return 0;
}

static bool parse_u64(const char *s, uint64_t hi, uint64_t *out)
{
	uint64_t v = 0;

	if (!s || !*s || strlen(s) > 20 || (s[0] == '0' && s[1]))
		return false;
	for (const char *p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			return false;
		if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return false;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (v > hi)
		return false;
	*out = v;
	return true;
}

static int get_u64(struct ctx *c, const cJSON *e, const char *tname, const char *key,
		   const char *field, uint64_t lo, uint64_t hi, uint64_t *out)
{
	const char *v;
	char expected[64];
	int rc = field_of(c, e, tname, key, field, &v);

	if (rc)
		return rc;
	if (!parse_u64(v, hi, out) || *out < lo) {
		snprintf(expected, sizeof(expected), "an integer in %llu..%llu",
			 (unsigned long long)lo, (unsigned long long)hi);
		return bad_value(c, tname, key, field, v, expected);
	}
	return 0;
}

/* A name field (map, profile): checked before it can reach a command or a JSON pointer. */
static int get_name(struct ctx *c, const cJSON *e, const char *tname, const char *key,
		    const char *field, char *out, size_t len)
{
	const char *v;
	int rc = field_of(c, e, tname, key, field, &v);

	out[0] = '\0';
	if (rc)
		return rc;
	if (!sonic_name_ok(v))
		return bad_value(c, tname, key, field, v, "a map or profile name");
	snprintf(out, len, "%s", v);
	return 0;
}

/* "3,4" -> bits; "" -> none (YANG: ([0-7](,[0-7])*)?). */
static bool parse_prio_list(const char *s, uint8_t *bits)
{
	*bits = 0;
	if (!*s)
		return true;
	for (;;) {
		if (*s < '0' || *s > '7')
			return false;
		*bits |= (uint8_t)(1u << (*s - '0'));
		s++;
		if (!*s)
			return true;
		if (*s != ',')
			return false;
		s++;
	}
}

/* Does "<port>|<suffix>" name index idx: suffix "N" or "N-M" (QUEUE, BUFFER_PG keys)?
 * *exact says whether it is the single-index form. */
static bool key_covers(const char *key, const char *port, int idx, bool *exact)
{
	size_t pl = strlen(port);
	uint64_t lo, hi;
	const char *s, *dash;
	char a[8];

	if (strncmp(key, port, pl) || key[pl] != '|')
		return false;
	s = key + pl + 1;
	dash = strchr(s, '-');
	if (!dash) {
		*exact = true;
		return parse_u64(s, 63, &lo) && lo == (uint64_t)idx;
	}
	if ((size_t)(dash - s) >= sizeof(a))
		return false;
	memcpy(a, s, (size_t)(dash - s));
	a[dash - s] = '\0';
	*exact = false;
	return parse_u64(a, 63, &lo) && parse_u64(dash + 1, 63, &hi) && lo <= hi &&
	       lo <= (uint64_t)idx && (uint64_t)idx <= hi;
}

/* The key of `table` that holds index idx of the port: the exact one if there is one,
 * else a range; "" when none. */
static void find_indexed(const cJSON *table, const char *port, int idx, char *out, size_t len)
{
	const cJSON *e;

	out[0] = '\0';
	cJSON_ArrayForEach(e, table)
	{
		bool exact = false;

		if (!e->string || !key_covers(e->string, port, idx, &exact))
			continue;
		if (exact || !out[0])
			snprintf(out, len, "%s", e->string);
		if (exact)
			return;
	}
}

/* ---- groups ------------------------------------------------------------------------------ */

static int read_port_entry(struct ctx *c, const cJSON *cfg, struct port_qos *q)
{
	const cJSON *p;
	uint64_t v;
	int rc = entry(c, cfg, "PORT", c->port, &p);

	if (rc)
		return rc;
	if (!p)
		return rc_errf(c->err, ENOENT,
			       "port '%s' does not exist on this switch (no PORT|%s in CONFIG_DB)",
			       c->port, c->port);
	/* speed in Mb/s (sonic-swss cfgmgr/buffermgr.cpp and buffer_headroom_mellanox.lua: 100000,
	 * 400000) */
	rc = get_u64(c, p, "PORT", c->port, "speed", 1, 10000000, &v);
	if (rc < 0)
		return rc;
	if (rc == 0 && v % 1000 == 0) {
		q->speed_gbps = (uint32_t)(v / 1000);
		q->known |= RC_F_SPEED;
	}
	/* The port MTU is checked but not reported as known: SONiC's 9100 against a host's
	 * 9000 is no fault (the port takes what the host sends), and the per-link check
	 * compares MTUs for equality.  NVUE's driver does not report it either. */
	rc = get_u64(c, p, "PORT", c->port, "mtu", 68, 65535, &v);
	if (rc < 0)
		return rc;
	if (rc == 0)
		q->mtu = (uint32_t)v;
	return 0;
}

static int read_bindings(struct ctx *c, const cJSON *cfg, struct sonic_port_info *info)
{
	const cJSON *pqm, *g;
	const char *s;
	int rc = entry(c, cfg, "PORT_QOS_MAP", c->port, &pqm);

	if (rc)
		return rc;
	info->qos_entry = pqm != NULL;
	if ((rc = get_name(c, pqm, "PORT_QOS_MAP", c->port, "dscp_to_tc_map", info->dscp_map,
			   sizeof(info->dscp_map))) < 0 ||
	    (rc = get_name(c, pqm, "PORT_QOS_MAP", c->port, "dot1p_to_tc_map", info->dot1p_map,
			   sizeof(info->dot1p_map))) < 0 ||
	    (rc = get_name(c, pqm, "PORT_QOS_MAP", c->port, "tc_to_queue_map", info->queue_map,
			   sizeof(info->queue_map))) < 0 ||
	    (rc = get_name(c, pqm, "PORT_QOS_MAP", c->port, "tc_to_pg_map", info->pg_map,
			   sizeof(info->pg_map))) < 0 ||
	    (rc = get_name(c, pqm, "PORT_QOS_MAP", c->port, "pfc_to_queue_map", info->pfc_queue_map,
			   sizeof(info->pfc_queue_map))) < 0)
		return rc;
	rc = field_of(c, pqm, "PORT_QOS_MAP", c->port, "pfcwd_sw_enable", &s);
	if (rc < 0)
		return rc;
	info->pfcwd_sw_field = rc == 0;
	if (rc == 0 && !parse_prio_list(s, &info->pfcwd_sw))
		return bad_value(c, "PORT_QOS_MAP", c->port, "pfcwd_sw_enable", s,
				 "a list of priorities 0-7 like '3,4'");
	if (info->dscp_map[0])
		return 0;
	/* a switch-wide DSCP map applies to ports that bind none of their own */
	if ((rc = entry(c, cfg, "PORT_QOS_MAP", "global", &g)) < 0 ||
	    (rc = get_name(c, g, "PORT_QOS_MAP", "global", "dscp_to_tc_map", info->dscp_map,
			   sizeof(info->dscp_map))) < 0)
		return rc;
	info->dscp_map_global = info->dscp_map[0] != '\0';
	return 0;
}

/* Map entries "<index>": "<value>" of a map table; absent entries keep *vals. */
static int read_map(struct ctx *c, const cJSON *cfg, const char *tname, const char *name, int n_idx,
		    uint64_t hi, uint8_t *vals)
{
	const cJSON *m, *f;
	int rc = entry(c, cfg, tname, name, &m);

	if (rc)
		return rc;
	cJSON_ArrayForEach(f, m)
	{
		uint64_t idx, v;
		char expected[48];

		if (!f->string || !parse_u64(f->string, (uint64_t)n_idx - 1, &idx)) {
			snprintf(expected, sizeof(expected), "fields 0..%d", n_idx - 1);
			return bad_value(c, tname, name, f->string ? f->string : "?", NULL,
					 expected);
		}
		if ((rc = get_u64(c, m, tname, name, f->string, 0, hi, &v)) != 0)
			return rc < 0 ? rc : -EPROTO;
		vals[idx] = (uint8_t)v;
	}
	return 0;
}

static int read_classification(struct ctx *c, const cJSON *cfg, const struct sonic_port_info *in,
			       struct port_qos *q)
{
	int rc;

	if (in->dscp_map[0])
		q->trust = RC_TRUST_DSCP;
	else if (in->dot1p_map[0])
		q->trust = RC_TRUST_PCP;
	else
		q->trust = RC_TRUST_UNSET;
	/* without a DSCP map (or an entry in it) SAI classifies into TC 0 */
	memset(q->dscp2prio, 0, sizeof(q->dscp2prio));
	if (in->dscp_map[0] && (rc = read_map(c, cfg, "DSCP_TO_TC_MAP", in->dscp_map, RC_NDSCP,
					      RC_NPRIO - 1, q->dscp2prio)) < 0)
		return rc;
	q->dscp_mask = ~0ull;
	for (int p = 0; p < RC_NPRIO; p++)
		q->prio2tc[p] = (uint8_t)p;
	if (in->queue_map[0] && (rc = read_map(c, cfg, "TC_TO_QUEUE_MAP", in->queue_map, RC_NPRIO,
					       RC_NTC - 1, q->prio2tc)) < 0)
		return rc;
	q->prio_mask = 0xff;
	q->known |= RC_F_TRUST | RC_F_DSCP2PRIO | RC_F_PRIO2TC;
	return 0;
}

static int read_pfc(struct ctx *c, const cJSON *cfg, struct port_qos *q)
{
	const cJSON *pqm;
	const char *s;
	int rc = entry(c, cfg, "PORT_QOS_MAP", c->port, &pqm);

	if (rc)
		return rc;
	rc = field_of(c, pqm, "PORT_QOS_MAP", c->port, "pfc_enable", &s);
	if (rc < 0)
		return rc;
	if (rc == 0 && !parse_prio_list(s, &q->pfc_enabled))
		return bad_value(c, "PORT_QOS_MAP", c->port, "pfc_enable", s,
				 "a list of priorities 0-7 like '3,4'");
	q->known |= RC_F_PFC;
	return 0;
}

static int read_cable(struct ctx *c, const cJSON *cfg, struct port_qos *q,
		      struct sonic_port_info *info)
{
	const cJSON *t, *e;
	int rc = table_of(c, cfg, "CABLE_LENGTH", &t);

	if (rc)
		return rc;
	q->cable_length_m = 0; /* no entry: buffermgrd gives the port no lossless profile */
	cJSON_ArrayForEach(e, t)
	{
		const char *v;
		size_t n;
		uint64_t m;
		char num[16];

		if (!e->string)
			continue;
		if (!cJSON_IsObject(e))
			return bad_value(c, "CABLE_LENGTH", e->string, NULL, NULL,
					 "an object of fields");
		rc = field_of(c, e, "CABLE_LENGTH", e->string, c->port, &v);
		if (rc < 0)
			return rc;
		if (rc)
			continue;
		/* YANG pattern [0-9]+m */
		n = strlen(v);
		if (n < 2 || n > sizeof(num) || v[n - 1] != 'm')
			return bad_value(c, "CABLE_LENGTH", e->string, c->port, v,
					 "a length like '40m'");
		memcpy(num, v, n - 1);
		num[n - 1] = '\0';
		if (!parse_u64(num, 1000000, &m))
			return bad_value(c, "CABLE_LENGTH", e->string, c->port, v,
					 "a length like '40m'");
		if (!sonic_name_ok(e->string))
			return bad_value(c, "CABLE_LENGTH", e->string, NULL, NULL,
					 "a key that is a name");
		q->cable_length_m = (uint32_t)m;
		snprintf(info->cable_key, sizeof(info->cable_key), "%s", e->string);
		break;
	}
	q->known |= RC_F_CABLE;
	return 0;
}

/* WRED marks green packets when the profile enables WRED for green and ECN covers green. */
static bool ecn_marks_green(const char *ecn)
{
	static const char *const modes[] = {"ecn_green", "ecn_green_yellow", "ecn_green_red",
					    "ecn_all"};

	for (size_t i = 0; ecn && i < sizeof(modes) / sizeof(modes[0]); i++)
		if (!strcmp(ecn, modes[i]))
			return true;
	return false;
}

static int read_wred(struct ctx *c, const cJSON *cfg, const char *name, struct rc_ecn_tc *t)
{
	static const char *const ecn_modes[] = {
	    "ecn_none",		"ecn_green",	 "ecn_yellow",	   "ecn_red",
	    "ecn_green_yellow", "ecn_green_red", "ecn_yellow_red", "ecn_all"};
	const cJSON *w;
	const char *ecn = NULL, *green = NULL;
	uint64_t v;
	bool known_mode = false;
	int rc = entry(c, cfg, "WRED_PROFILE", name, &w);

	memset(t, 0, sizeof(*t));
	t->pmax_pct = 100; /* YANG default */
	if (rc || !w)
		return rc; /* a dangling reference marks nothing */
	if ((rc = field_of(c, w, "WRED_PROFILE", name, "ecn", &ecn)) < 0)
		return rc;
	for (size_t i = 0; ecn && i < sizeof(ecn_modes) / sizeof(ecn_modes[0]); i++)
		known_mode |= !strcmp(ecn, ecn_modes[i]);
	if (ecn && !known_mode)
		return bad_value(c, "WRED_PROFILE", name, "ecn", ecn, "an ECN mode like ecn_all");
	if ((rc = field_of(c, w, "WRED_PROFILE", name, "wred_green_enable", &green)) < 0)
		return rc;
	if (green && strcmp(green, "true") && strcmp(green, "false"))
		return bad_value(c, "WRED_PROFILE", name, "wred_green_enable", green,
				 "true or false");
	t->enabled = ecn_marks_green(ecn) && green && !strcmp(green, "true");
	rc = get_u64(c, w, "WRED_PROFILE", name, "green_min_threshold", 0, THRESH_MAX, &v);
	if (rc < 0)
		return rc;
	if (rc == 0)
		t->kmin_bytes = v;
	rc = get_u64(c, w, "WRED_PROFILE", name, "green_max_threshold", 0, THRESH_MAX, &v);
	if (rc < 0)
		return rc;
	if (rc == 0)
		t->kmax_bytes = v;
	rc = get_u64(c, w, "WRED_PROFILE", name, "green_drop_probability", 0, 100, &v);
	if (rc < 0)
		return rc;
	if (rc == 0)
		t->pmax_pct = (double)v;
	return 0;
}

/* A VOQ chassis keys QUEUE as host|asic|port|queue (sonic-queue.yang's VOQ_QUEUE_LIST;
 * sonic-buildimage's sonic-queue.yang, VOQ_QUEUE_LIST).  Queues keyed so cannot be bound per port
 * here: refuse rather than read "no WRED" for a port whose queues live under such keys. */
static int refuse_voq_keys(struct ctx *c, const cJSON *queues)
{
	const cJSON *e;

	cJSON_ArrayForEach(e, queues)
	{
		const char *k = e->string, *bar = k ? strchr(k, '|') : NULL;

		if (bar && strchr(bar + 1, '|'))
			return bad_value(
			    c, "QUEUE", k, NULL, NULL,
			    "port|queue keys; a VOQ chassis key (host|asic|port|queue) "
			    "is not supported by this driver");
	}
	return 0;
}

static int read_ecn(struct ctx *c, const cJSON *cfg, struct port_qos *q,
		    struct sonic_port_info *info)
{
	const cJSON *queues;
	int rc = table_of(c, cfg, "QUEUE", &queues);

	if (rc)
		return rc;
	if ((rc = refuse_voq_keys(c, queues)) < 0)
		return rc;
	for (int t = 0; t < RC_NTC; t++) {
		const cJSON *e;
		const char *key = info->queue_key[t];

		find_indexed(queues, c->port, t, info->queue_key[t], sizeof(info->queue_key[t]));
		if ((rc = entry_of(c, queues, "QUEUE", key, &e)) < 0 ||
		    (rc = get_name(c, e, "QUEUE", key, "wred_profile", info->wred[t],
				   sizeof(info->wred[t]))) < 0)
			return rc;
		memset(&q->ecn[t], 0, sizeof(q->ecn[t]));
		if (info->wred[t][0] && (rc = read_wred(c, cfg, info->wred[t], &q->ecn[t])) < 0)
			return rc;
	}
	q->ecn_tc_mask = 0xff;
	q->known |= RC_F_ECN;
	return 0;
}

/* APPL_DB names profiles plainly or, in older releases, as "[BUFFER_PROFILE_TABLE:name]". */
static void strip_ref(const char *v, char *out, size_t len)
{
	static const char pre[] = "[BUFFER_PROFILE_TABLE:";
	size_t n = strlen(v);

	if (!strncmp(v, pre, sizeof(pre) - 1) && n > sizeof(pre) && v[n - 1] == ']')
		snprintf(out, len, "%.*s", (int)(n - sizeof(pre)), v + sizeof(pre) - 1);
	else
		snprintf(out, len, "%s", v);
}

/* The lossless profile of priority p: CONFIG_DB's BUFFER_PG, or APPL_DB's when the dynamic
 * model computes it (CONFIG_DB "NULL" or no entry).  Returns 1 when there is none. */
static int pg_profile(struct ctx *c, const cJSON *cfg, const cJSON *appl, int pg, char *name,
		      size_t len, bool *from_appl)
{
	const cJSON *t, *e;
	char key[SONIC_KEY_MAX], raw[RC_NAME_MAX + 32];
	const char *v;
	int rc = table_of(c, cfg, "BUFFER_PG", &t);

	*from_appl = false;
	name[0] = '\0';
	if (rc)
		return rc;
	find_indexed(t, c->port, pg, key, sizeof(key));
	if (key[0]) {
		if ((rc = entry_of(c, t, "BUFFER_PG", key, &e)) < 0)
			return rc;
		rc = field_of(c, e, "BUFFER_PG", key, "profile", &v);
		if (rc < 0)
			return rc;
		if (rc == 0 && strcmp(v, "NULL")) {
			if (!sonic_name_ok(v))
				return bad_value(c, "BUFFER_PG", key, "profile", v,
						 "a profile name");
			snprintf(name, len, "%s", v);
			return 0;
		}
	}
	if (!appl)
		return 1;
	if ((rc = table_of(c, appl, "BUFFER_PG_TABLE", &t)) < 0)
		return rc;
	/* APPL_DB keys join with ':'; search with the same helper on a rewritten key */
	cJSON_ArrayForEach(e, t)
	{
		char k[SONIC_KEY_MAX];
		bool exact;
		size_t pl = strlen(c->port);

		if (!e->string || strlen(e->string) >= sizeof(k) ||
		    strncmp(e->string, c->port, pl) || e->string[pl] != ':')
			continue;
		snprintf(k, sizeof(k), "%s", e->string);
		k[pl] = '|';
		if (!key_covers(k, c->port, pg, &exact))
			continue;
		if (!cJSON_IsObject(e))
			return bad_value(c, "BUFFER_PG_TABLE", e->string, NULL, NULL,
					 "an object of fields");
		rc = field_of(c, e, "BUFFER_PG_TABLE", e->string, "profile", &v);
		if (rc)
			return rc;
		strip_ref(v, raw, sizeof(raw));
		if (!sonic_name_ok(raw))
			return bad_value(c, "BUFFER_PG_TABLE", e->string, "profile", v,
					 "a profile name");
		snprintf(name, len, "%s", raw);
		*from_appl = true;
		return 0;
	}
	return 1;
}

/* What a PG's profile absorbs after XOFF is sent: its xoff.  Its size is not that: a
 * Broadcom lookup row reserves a small size beside a large xoff (the 7060X6's 100G/5m row:
 * size 18796, xoff 445770, in sonic-buildimage's pg_profile_lookup.ini of
 * Arista-7060X6-64PE-B-O128), and with the shared headroom pool buffer_headroom_mellanox.lua
 * sets size = xon, the xoff being taken from the pool (sonic-swss
 * cfgmgr/buffer_headroom_mellanox.lua).  A profile without xoff (lossy) absorbs nothing:
 * 0.  1 when the profile has no size either (not computed yet). */
static int profile_headroom(struct ctx *c, const cJSON *prof, const char *tname, const char *name,
			    uint64_t *out)
{
	uint64_t size;
	int rc = get_u64(c, prof, tname, name, "xoff", 0, THRESH_MAX, out);

	if (rc <= 0)
		return rc;
	rc = get_u64(c, prof, tname, name, "size", 0, THRESH_MAX, &size);
	if (rc == 0)
		*out = 0;
	return rc;
}

/* What CONFIG_DB's BUFFER_PG says of PG pg (priority p): listed, and with profile "NULL"
 * (or none), which the dynamic model computes. */
static void pg_cfg_kind(const cJSON *cfg, const char *port, int pg, int p,
			struct sonic_port_info *info)
{
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(cfg, "BUFFER_PG");
	const cJSON *prof;
	char key[SONIC_KEY_MAX];

	find_indexed(t, port, pg, key, sizeof(key));
	if (!key[0])
		return;
	snprintf(info->pg_key[p], sizeof(info->pg_key[p]), "%s", key);
	info->pg_cfg |= (uint8_t)(1u << p);
	prof =
	    cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(t, key), "profile");
	if (!cJSON_IsString(prof) || !strcmp(prof->valuestring, "NULL"))
		info->pg_cfg_null |= (uint8_t)(1u << p);
}

/* The shared headroom pool: on when CONFIG_DB gives ingress_lossless_pool an xoff or
 * DEFAULT_LOSSLESS_BUFFER_PARAMETER an over_subscribe_ratio (buffer_headroom_mellanox.lua's
 * shp_enabled, ../shared/conformance/sonic/skus/_swss/).  Its size: the configured xoff,
 * else what buffermgrd computed into APPL_DB BUFFER_POOL_TABLE (dynamic model). */
static int read_shp(struct ctx *c, const cJSON *cfg, const cJSON *appl,
		    struct sonic_port_info *info)
{
	const cJSON *pool, *par, *t, *apool = NULL;
	uint64_t xoff = 0, ratio = 0, v;
	int rc;

	if ((rc = entry(c, cfg, "BUFFER_POOL", "ingress_lossless_pool", &pool)) < 0)
		return rc;
	if (pool && (rc = get_u64(c, pool, "BUFFER_POOL", "ingress_lossless_pool", "xoff", 0,
				  THRESH_MAX, &xoff)) < 0)
		return rc;
	if ((rc = table_of(c, cfg, "DEFAULT_LOSSLESS_BUFFER_PARAMETER", &t)) < 0)
		return rc;
	cJSON_ArrayForEach(par, t)
	{
		if (!par->string || !cJSON_IsObject(par))
			continue;
		rc = get_u64(c, par, "DEFAULT_LOSSLESS_BUFFER_PARAMETER", par->string,
			     "over_subscribe_ratio", 0, 1000000, &v);
		if (rc < 0)
			return rc;
		if (rc == 0)
			ratio = v;
	}
	info->shp = xoff || ratio;
	info->shp_bytes = xoff;
	if (!info->shp || xoff || !appl)
		return 0;
	if ((rc = entry(c, appl, "BUFFER_POOL_TABLE", "ingress_lossless_pool", &apool)) < 0)
		return rc;
	if (apool && (rc = get_u64(c, apool, "BUFFER_POOL_TABLE", "ingress_lossless_pool", "xoff",
				   0, THRESH_MAX, &v)) < 0)
		return rc;
	if (apool && rc == 0)
		info->shp_bytes = v;
	return 0;
}

/* A lossless profile's pool must be ingress_lossless_pool (the SKUs' buffer templates and
 * buffermgrdyn.cpp put every lossless PG there); APPL_DB of older releases writes the
 * reference as "[BUFFER_POOL_TABLE:name]". */
static bool pool_is_lossless(const char *v)
{
	static const char name[] = "ingress_lossless_pool", pre[] = "[BUFFER_POOL_TABLE:";

	if (!strcmp(v, name))
		return true;
	return !strncmp(v, pre, sizeof(pre) - 1) &&
	       !strncmp(v + sizeof(pre) - 1, name, sizeof(name) - 1) &&
	       !strcmp(v + sizeof(pre) - 1 + sizeof(name) - 1, "]");
}

static bool is_integer(const char *v)
{
	const char *d = v + (v[0] == '-');

	return d[0] && strspn(d, "0123456789") == strlen(d);
}

/* What the writer needs of a PG's profile to write a headroom override beside it (xon and
 * dynamic_th are kept), and on the dynamic model the effect: a lossless priority's profile
 * sits in the lossless pool. */
static int profile_extras(struct ctx *c, const cJSON *prof, const char *tname, int p,
			  struct port_qos *q, struct sonic_port_info *info)
{
	const char *name = info->pg_profile[p], *v;
	uint64_t xon;
	int rc = get_u64(c, prof, tname, name, "xon", 0, THRESH_MAX, &xon);

	if (rc < 0)
		return rc;
	info->pg_xon[p] = rc == 0 ? xon : 0;
	if ((rc = field_of(c, prof, tname, name, "dynamic_th", &v)) < 0)
		return rc;
	/* dynamic_th: an integer, maybe negative (sonic-buffer-profile.yang); a lone "-" is not */
	if (rc == 0 && strlen(v) < sizeof(info->pg_th[p]) && is_integer(v))
		snprintf(info->pg_th[p], sizeof(info->pg_th[p]), "%s", v);
	if ((rc = field_of(c, prof, tname, name, "pool", &v)) < 0)
		return rc;
	if (info->buffer_dynamic && (q->pfc_enabled & (1u << p)) && (rc || !pool_is_lossless(v)))
		rc_effect_drift(&q->effect, RC_F_HEADROOM,
				"%s prio %d: profile %s is in pool %s, not ingress_lossless_pool",
				c->port, p, name, rc ? "(none)" : v);
	return 0;
}

static int read_headroom(struct ctx *c, const cJSON *cfg, const cJSON *appl, struct port_qos *q,
			 struct sonic_port_info *info)
{
	uint8_t pg_of[RC_NPRIO];
	int rc;

	/* TC -> PG: the bound map, identity without one */
	for (int p = 0; p < RC_NPRIO; p++)
		pg_of[p] = (uint8_t)p;
	if (info->pg_map[0] && (rc = read_map(c, cfg, "TC_TO_PRIORITY_GROUP_MAP", info->pg_map,
					      RC_NPRIO, 7, pg_of)) < 0)
		return rc;
	q->headroom_mask = 0;
	for (int p = 0; p < RC_NPRIO; p++) {
		const cJSON *prof;
		const char *tname;
		bool from_appl;
		uint64_t size;

		info->pg_of[p] = pg_of[p];
		pg_cfg_kind(cfg, c->port, pg_of[p], p, info);
		rc = pg_profile(c, cfg, appl, pg_of[p], info->pg_profile[p],
				sizeof(info->pg_profile[p]), &from_appl);
		if (rc < 0)
			return rc;
		if (rc)
			continue;
		if (from_appl)
			info->pg_appl |= (uint8_t)(1u << p);
		tname = from_appl ? "BUFFER_PROFILE_TABLE" : "BUFFER_PROFILE";
		if ((rc = entry(c, from_appl ? appl : cfg, tname, info->pg_profile[p], &prof)) < 0)
			return rc;
		if ((rc = profile_headroom(c, prof, tname, info->pg_profile[p], &size)) < 0)
			return rc;
		if (rc)
			continue; /* not (yet) computed: unknown */
		if ((rc = profile_extras(c, prof, tname, p, q, info)) < 0)
			return rc;
		if (info->buffer_dynamic && from_appl && (info->pg_cfg_null & (1u << p)))
			q->headroom_derived |= (uint8_t)(1u << p);
		/* dynamic model with the shared headroom pool: a PG's xoff is taken from the
		 * pool (buffer_headroom_mellanox.lua sets size = xon), so it can absorb no
		 * more than the pool holds; the pool's size unknown, the headroom is too */
		if (info->buffer_dynamic && info->shp && from_appl) {
			if (!info->shp_bytes)
				continue;
			if (info->shp_bytes < size)
				size = info->shp_bytes;
		}
		q->headroom_bytes[p] = size;
		q->headroom_mask |= (uint8_t)(1u << p);
	}
	/* the dynamic model derives headroom from speed, cable length and MTU itself
	 * (sonic-swss cfgmgr/buffermgrdyn.cpp; docs/platforms/sonic.md says why rocectl then
	 * judges the effect rather than its own estimate) */
	q->headroom_dynamic = info->buffer_dynamic;
	q->known |= RC_F_HEADROOM;
	return 0;
}

static int read_watchdog(struct ctx *c, const cJSON *cfg, struct port_qos *q,
			 struct sonic_port_info *info)
{
	const cJSON *wd, *g;
	const char *action;
	uint64_t v;
	int rc;

	if ((rc = entry(c, cfg, "PFC_WD", "GLOBAL", &g)) < 0)
		return rc;
	rc = get_u64(c, g, "PFC_WD", "GLOBAL", "POLL_INTERVAL", 1, 60000, &v);
	if (rc < 0)
		return rc;
	info->wd_poll_ms = rc == 0 ? (uint32_t)v : 0;
	if ((rc = entry(c, cfg, "PFC_WD", c->port, &wd)) < 0)
		return rc;
	info->wd_entry = wd != NULL;
	memset(&q->watchdog, 0, sizeof(q->watchdog));
	q->known |= RC_F_WATCHDOG;
	if (!wd)
		return 0;
	q->watchdog.enabled = true;
	rc = get_u64(c, wd, "PFC_WD", c->port, "detection_time", 1, 3600000, &v);
	if (rc < 0)
		return rc;
	if (rc == 0)
		q->watchdog.detection_ms = (uint32_t)v;
	rc = get_u64(c, wd, "PFC_WD", c->port, "restoration_time", 1, 3600000, &v);
	if (rc < 0)
		return rc;
	if (rc == 0)
		q->watchdog.restoration_ms = (uint32_t)v;
	rc = field_of(c, wd, "PFC_WD", c->port, "action", &action);
	if (rc < 0)
		return rc;
	/* `show pfcwd config` shows a missing action as drop (sonic-utilities
	 * Command-Reference.md); alert only logs, and traffic keeps flowing as with forward */
	if (rc || !strcmp(action, "drop"))
		q->watchdog.action = RC_WD_DROP;
	else if (!strcmp(action, "forward") || !strcmp(action, "alert"))
		q->watchdog.action = RC_WD_FORWARD;
	else
		return bad_value(c, "PFC_WD", c->port, "action", action, "drop, forward or alert");
	return 0;
}

int sonic_parse_port(const cJSON *cfg, const cJSON *appl, const char *port, struct port_qos *out,
		     struct sonic_port_info *info, struct rc_err *err)
{
	struct ctx c = {err, port};
	const cJSON *md;
	const char *model;
	int rc;

	memset(out, 0, sizeof(*out));
	memset(info, 0, sizeof(*info));
	if (!sonic_name_ok(port))
		return rc_errf(err, EINVAL, "port name '%s' is not a valid SONiC port name", port);
	if (!cJSON_IsObject(cfg))
		return rc_errf(err, EPROTO, "unexpected SONiC output: CONFIG_DB is not an object");
	if (appl && !cJSON_IsObject(appl))
		return rc_errf(err, EPROTO, "unexpected SONiC output: APPL_DB is not an object");
	if ((rc = entry(&c, cfg, "DEVICE_METADATA", "localhost", &md)) < 0 ||
	    (rc = field_of(&c, md, "DEVICE_METADATA", "localhost", "buffer_model", &model)) < 0)
		return rc;
	info->buffer_dynamic = rc == 0 && !strcmp(model, "dynamic");
	if ((rc = read_port_entry(&c, cfg, out)) < 0 || (rc = read_bindings(&c, cfg, info)) < 0 ||
	    (rc = read_classification(&c, cfg, info, out)) < 0 ||
	    (rc = read_pfc(&c, cfg, out)) < 0 || (rc = read_cable(&c, cfg, out, info)) < 0 ||
	    (rc = read_ecn(&c, cfg, out, info)) < 0 || (rc = read_shp(&c, cfg, appl, info)) < 0 ||
	    (rc = read_headroom(&c, cfg, appl, out, info)) < 0 ||
	    (rc = read_watchdog(&c, cfg, out, info)) < 0)
		return rc;
	/* SONiC schedules by DWRR weights per queue (SCHEDULER), not by shares of the port:
	 * no faithful mapping to percentages, so ETS is left to the operator here. */
	out->unsupported = RC_F_ETS | RC_F_NIC_ECN | RC_F_CNP | RC_F_ROCE_TOS | RC_F_DCBX;
	return 0;
}
