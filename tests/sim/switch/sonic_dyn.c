/* SPDX-License-Identifier: Apache-2.0 */
/* buffermgrd of the dynamic buffer model (DEVICE_METADATA buffer_model "dynamic", the model
 * of the Mellanox SKUs here).  In this model CONFIG_DB names the lossless PGs with profile
 * "NULL" (the SKUs' buffers_defaults_objects.j2 writes BUFFER_PG|<port>|3-4 "NULL" when
 * dynamic_mode is set) and buffermgrd computes the profile of each from the port's speed,
 * cable length and MTU, writing it to APPL_DB BUFFER_PROFILE_TABLE and STATE_DB
 * BUFFER_PROFILE_TABLE, never to CONFIG_DB; no pg_profile_lookup.ini row is needed, so any
 * cable length works (sonic-swss cfgmgr/buffermgrdyn.cpp: refreshPgsForPort,
 * allocateProfile, updateBufferProfileToDb; read for this simulator, nothing copied).
 *
 * The simulator derives APPL_DB and STATE_DB from CONFIG_DB each time they are read, so a
 * profile nothing references any more is gone, as buffermgrdyn's releaseProfile removes it.
 * Not modelled: pool sizes (buffer_pool_mellanox.lua needs the ASIC's MMU size, which no
 * artifact gives; pools keep the size CONFIG_DB has, if any), gearbox delay, the per-port
 * headroom limit, static-threshold (_th) names. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sonic.h"

/* STATE_DB ASIC_TABLE of the SKUs' ASICs: sonic-buildimage platform/mellanox/asic_table.j2
 * (cell_size in bytes; pipeline_latency, mac_phy_delay, peer_response_time in KB). */
static const struct sn_asic {
	const char *family; /* sn_model.asic */
	const char *key;    /* ASIC_TABLE|<key>; its last digit is the Spectrum generation */
	long cell_size;
	double pipeline_kb, mac_phy_kb, peer_response_kb;
} asics[] = {
    {"spc2", "MELLANOX-SPECTRUM-2", 144, 19, 0.8, 3.8},
    {"spc3", "MELLANOX-SPECTRUM-3", 144, 19, 0.8, 3.8},
    {"spc4", "MELLANOX-SPECTRUM-4", 192, 19, 0.8, 3.8},
};

static const struct sn_asic *asic_of(const struct sn_model *m)
{
	for (size_t i = 0; i < sizeof(asics) / sizeof(asics[0]); i++)
		if (!strcmp(asics[i].family, m->asic))
			return &asics[i];
	return NULL;
}

bool sn_model_dynamic(const struct sn_model *m)
{
	return asic_of(m) != NULL;
}

bool sn_db_dynamic(const cJSON *db)
{
	const char *p[] = {"DEVICE_METADATA", "localhost"};
	return !strcmp(jstr(jget(db, p, 2), "buffer_model", ""), "dynamic");
}

static long ceil1024(double v)
{
	return (long)ceil(v / 1024) * 1024;
}

/* buffer_headroom_mellanox.lua (../shared/conformance/sonic/skus/_swss/), step by step:
 *   pause quanta by speed (IEEE 802.3 31B.3.7, the Lua's pause_quanta_per_speed);
 *   peer_response = quanta * 512 / 8 (else ASIC peer_response_time KB);
 *   worst_case_factor = ceil(cell > 128 ? cell / 64 : 2 * cell / (1 + cell));
 *   small-packet share by bytes spb = 100 * 64 / ((spp * 64 + (100 - spp) * mtu_l) / 100);
 *   cell_occupancy = (100 - spb + spb * worst_case_factor) / 100;
 *   bytes_on_cable = 2 * cable_m * speed_mbps * 1e9 / 198000000 / 8000;
 *   kb_on_tile = speed / 1000 * 120 / 8 on Spectrum-4 and -5, else 0;
 *   propagation = port_mtu + bytes_on_cable + mac_phy + peer_response + kb_on_tile;
 *   xoff = ceil1024(mtu_l + propagation * cell_occupancy), + 2048 when the shared headroom
 *     pool is off, spp != 100 and that still stays below ceil1024(mtu_l + propagation *
 *     worst_case_factor);
 *   xon = ceil1024(pipeline_latency), doubled on 8-lane ports;
 *   size = ceil1024(shared headroom pool on ? xon : xoff + xon (+ port_mtu on 8 lanes)).
 * mtu_l and spp are LOSSLESS_TRAFFIC_PATTERN's mtu and small_packet_percentage. */
static void headroom(const struct sn_asic *a, long speed, long cable_m, long port_mtu, long mtu_l,
		     long spp, bool shp, bool eight_lane, long out[3])
{
	static const long quanta[][2] = {{800000, 905}, {400000, 905}, {200000, 453}, {100000, 394},
					 {50000, 147},	{40000, 118},  {25000, 80},   {10000, 67},
					 {1000, 2},	{100, 1}};
	double peer = a->peer_response_kb * 1024;
	for (size_t i = 0; i < sizeof(quanta) / sizeof(quanta[0]); i++)
		if (quanta[i][0] == speed)
			peer = quanta[i][1] * 512.0 / 8;
	double cell = (double)a->cell_size;
	double wcf = ceil(cell > 128 ? cell / 64 : 2 * cell / (1 + cell));
	double spb = 100.0 * 64 / ((spp * 64.0 + (100.0 - spp) * mtu_l) / 100);
	double occ = (100 - spb + spb * wcf) / 100;
	double on_cable = 2.0 * cable_m * speed * 1e9 / 198000000 / 8000;
	char gen = a->key[strlen(a->key) - 1];
	double tile = gen == '4' || gen == '5' ? speed / 1000.0 * 120 / 8 : 0;
	double prop = port_mtu + on_cable + a->mac_phy_kb * 1024 + peer + tile;
	long xoff = ceil1024(mtu_l + prop * occ);
	if (!shp && spp != 100 && xoff + 2048 < ceil1024(mtu_l + prop * wcf))
		xoff += 2048;
	long xon = ceil1024(a->pipeline_kb * 1024 * (eight_lane ? 2 : 1));
	out[0] = xon;
	out[1] = xoff;
	out[2] = ceil1024(shp ? (double)xon : (double)(xoff + xon + (eight_lane ? port_mtu : 0)));
}

static long num(const cJSON *h, const char *f, long dflt)
{
	const char *s = jstr(h, f, NULL);
	return s && is_uint(s) && strlen(s) < 12 ? strtol(s, NULL, 10) : dflt;
}

static const cJSON *only_entry(const cJSON *db, const char *table)
{
	const cJSON *t = jget1(db, table);
	return cJSON_IsObject(t) ? t->child : NULL;
}

static void put(cJSON *db, const char *table, const char *key, const char *field, const char *v)
{
	const char *path[] = {table, key};
	jput(jmkpath(db, path, 2), field, cJSON_CreateString(v));
}

static void putl(cJSON *db, const char *table, const char *key, const char *field, long v)
{
	char b[32];
	snprintf(b, sizeof(b), "%ld", v);
	put(db, table, key, field, b);
}

/* The shared headroom pool is on when CONFIG_DB gives ingress_lossless_pool an xoff or
 * DEFAULT_LOSSLESS_BUFFER_PARAMETER an over_subscribe_ratio (both Luas' shp_enabled). */
static void shp_of(const cJSON *db, long *cfg_xoff, long *ratio)
{
	const char *p[] = {"BUFFER_POOL", "ingress_lossless_pool"};
	*cfg_xoff = num(jget(db, p, 2), "xoff", 0);
	*ratio =
	    num(only_entry(db, "DEFAULT_LOSSLESS_BUFFER_PARAMETER"), "over_subscribe_ratio", 0);
}

/* Derive APPL_DB (sep ':') or STATE_DB (sep '|') buffer tables from CONFIG_DB. */
static cJSON *derive(const struct sn_model *m, const cJSON *cfg, bool state)
{
	const struct sn_asic *a = asic_of(m);
	cJSON *out = cJSON_CreateObject();
	const cJSON *e, *f;
	char key[192];
	long cfg_xoff, ratio, sum_xoff = 0, lossless_ports = 0;
	const char *ptab = "BUFFER_PROFILE_TABLE";
	char sep = state ? '|' : ':';

	if (!a || !sn_db_dynamic(cfg))
		return out;
	if (state) {
		putl(out, "ASIC_TABLE", a->key, "cell_size", a->cell_size);
		put(out, "ASIC_TABLE", a->key, "mac_phy_delay", "0.8");
		put(out, "ASIC_TABLE", a->key, "peer_response_time", "3.8");
		putl(out, "ASIC_TABLE", a->key, "pipeline_latency", (long)a->pipeline_kb);
	}
	shp_of(cfg, &cfg_xoff, &ratio);
	bool shp = cfg_xoff || ratio;
	const cJSON *pat = only_entry(cfg, "LOSSLESS_TRAFFIC_PATTERN");
	long mtu_l = num(pat, "mtu", 1024), spp = num(pat, "small_packet_percentage", 50);
	const char *th =
	    jstr(only_entry(cfg, "DEFAULT_LOSSLESS_BUFFER_PARAMETER"), "default_dynamic_th", "0");

	/* the configured profiles go through as they are */
	cJSON_ArrayForEach(e, jget1(cfg, "BUFFER_PROFILE"))
	{
		cJSON_ArrayForEach(f, e)
		{
			if (cJSON_IsString(f))
				put(out, ptab, e->string, f->string, f->valuestring);
		}
	}
	cJSON *seen = cJSON_CreateObject(); /* the ports with a lossless PG */
	cJSON_ArrayForEach(e, jget1(cfg, "BUFFER_PG"))
	{
		const char *bar = strchr(e->string, '|');
		const char *prof = jstr(e, "profile", "NULL");
		char port[64];
		if (!bar || (size_t)(bar - e->string) >= sizeof(port))
			continue;
		snprintf(port, sizeof(port), "%.*s", (int)(bar - e->string), e->string);
		snprintf(key, sizeof(key), "%s%c%s", port, sep, bar + 1);
		if (strcmp(prof, "NULL") != 0) {
			if (!state)
				put(out, "BUFFER_PG_TABLE", key, "profile", prof);
			continue;
		}
		/* a lossless PG: the port must be up (lossless PGs of admin-down ports are
		 * removed, sonic-net/SONiC doc/qos/reclaim-reserved-buffer.md), have a
		 * speed and a cable length other than 0m (refreshPgsForPort) */
		const char *pp[] = {"PORT", port}, *cp[] = {"CABLE_LENGTH", "AZURE"};
		const cJSON *pe = jget(cfg, pp, 2);
		const char *cable = jstr(jget(cfg, cp, 2), port, NULL);
		long speed = num(pe, "speed", 0), mtu = num(pe, "mtu", 9100);
		long cable_m = cable ? strtol(cable, NULL, 10) : 0;
		if (!pe || strcmp(jstr(pe, "admin_status", "down"), "up") != 0 || !speed ||
		    cable_m <= 0)
			continue;
		int lanes = 1;
		for (const char *l = jstr(pe, "lanes", ""); *l; l++)
			lanes += *l == ',';
		/* buffermgrdyn getDynamicProfileName: _mtu<N> unless 9100, _th<N> unless the
		 * default; _8lane on a Spectrum-4 8-lane port below 400G */
		char name[160];
		int o = snprintf(name, sizeof(name), "pg_lossless_%ld_%ldm", speed, cable_m);
		if (mtu != 9100)
			o += snprintf(name + o, sizeof(name) - (size_t)o, "_mtu%ld", mtu);
		if (lanes == 8 && a->key[strlen(a->key) - 1] == '4' && speed != 400000)
			o += snprintf(name + o, sizeof(name) - (size_t)o, "_8lane");
		snprintf(name + o, sizeof(name) - (size_t)o, "_profile");
		long v[3];
		headroom(a, speed, cable_m, mtu, mtu_l, spp, shp, lanes == 8, v);
		putl(out, ptab, name, "xon", v[0]);
		putl(out, ptab, name, "xoff", v[1]);
		putl(out, ptab, name, "size", v[2]);
		put(out, ptab, name, "pool", "ingress_lossless_pool");
		put(out, ptab, name, "dynamic_th", th);
		if (!state)
			put(out, "BUFFER_PG_TABLE", key, "profile", name);
		/* buffer_pool_mellanox.lua: each PG of the range counts; ports once */
		const char *r = bar + 1;
		long n_pg = strlen(r) == 3 && r[1] == '-' ? r[2] - r[0] + 1 : 1;
		sum_xoff += v[1] * n_pg;
		if (!jget1(seen, port)) {
			jput(seen, port, cJSON_CreateTrue());
			lossless_ports++;
		}
	}
	/* pools: as configured, and the shared headroom pool's xoff: the configured size,
	 * else (over_subscribe_ratio) buffer_pool_mellanox.lua's ceil((sum of the lossless
	 * PGs' xoff - 10 KB private headroom per lossless port) / ratio), 655360 when that
	 * is 0 */
	cJSON_ArrayForEach(e, jget1(cfg, "BUFFER_POOL"))
	{
		char pk[96];
		snprintf(pk, sizeof(pk), "%s", e->string);
		cJSON_ArrayForEach(f, e)
		{
			if (cJSON_IsString(f) && strcmp(f->string, "xoff") != 0)
				put(out, "BUFFER_POOL_TABLE", pk, f->string, f->valuestring);
		}
		if (strcmp(pk, "ingress_lossless_pool") != 0 || !shp)
			continue;
		long x = cfg_xoff;
		if (!x) {
			long acc = sum_xoff - lossless_ports * 10240;
			x = acc > 0 ? (acc + ratio - 1) / ratio : 0;
			if (!x)
				x = 655360;
		}
		putl(out, "BUFFER_POOL_TABLE", pk, "xoff", x);
	}
	cJSON_Delete(seen);
	return out;
}

cJSON *sn_derived_db(const struct sn_model *m, const cJSON *cfg, const char *dbname)
{
	if (!strcmp(dbname, "APPL_DB"))
		return derive(m, cfg, false);
	if (!strcmp(dbname, "STATE_DB"))
		return derive(m, cfg, true);
	return cJSON_CreateObject();
}

/* The factory buffer tables of a dynamic-model SKU (buffers_dynamic.json.j2 through
 * buffers_defaults_objects.j2 and _common/buffers_config.j2 with dynamic_mode set): pools
 * without size or xoff where the template leaves them out, PG 3-4 "NULL", PG 0 lossy,
 * queues on q_lossy_profile, and DEFAULT_LOSSLESS_BUFFER_PARAMETER and
 * LOSSLESS_TRAFFIC_PATTERN.  None of the SKUs' buffers_dynamic.json.j2 sets `shp`, so the
 * shared headroom pool is off at the factory (over_subscribe_ratio absent). */
void sn_factory_dynamic(cJSON *db, const char *const *ports, size_t n)
{
	char key[96];

	put(db, "DEVICE_METADATA", "localhost", "buffer_model", "dynamic");
	put(db, "BUFFER_POOL", "egress_lossless_pool", "mode", "dynamic");
	put(db, "BUFFER_POOL", "egress_lossless_pool", "size", "60817392");
	put(db, "BUFFER_POOL", "egress_lossless_pool", "type", "egress");
	put(db, "BUFFER_POOL", "egress_lossy_pool", "mode", "dynamic");
	put(db, "BUFFER_POOL", "egress_lossy_pool", "type", "egress");
	put(db, "BUFFER_POOL", "ingress_lossless_pool", "mode", "dynamic");
	put(db, "BUFFER_POOL", "ingress_lossless_pool", "type", "ingress");
	static const char *const prof[][3] = {
	    {"egress_lossless_profile", "egress_lossless_pool", "0"},
	    {"egress_lossy_profile", "egress_lossy_pool", "9216"},
	    {"ingress_lossless_profile", "ingress_lossless_pool", "0"},
	    {"ingress_lossy_profile", "ingress_lossless_pool", "0"},
	    {"q_lossy_profile", "egress_lossy_pool", "0"},
	};
	static const char *const th[] = {"7", "7", "7", "3", "3"};
	for (size_t i = 0; i < 5; i++) {
		put(db, "BUFFER_PROFILE", prof[i][0], "dynamic_th", th[i]);
		put(db, "BUFFER_PROFILE", prof[i][0], "pool", prof[i][1]);
		put(db, "BUFFER_PROFILE", prof[i][0], "size", prof[i][2]);
	}
	for (size_t i = 0; i < n; i++) {
		const char *p = ports[i];
		snprintf(key, sizeof(key), "%s|0", p);
		put(db, "BUFFER_PG", key, "profile", "ingress_lossy_profile");
		snprintf(key, sizeof(key), "%s|3-4", p);
		put(db, "BUFFER_PG", key, "profile", "NULL");
		snprintf(key, sizeof(key), "%s|0-2", p);
		put(db, "BUFFER_QUEUE", key, "profile", "q_lossy_profile");
		snprintf(key, sizeof(key), "%s|3-4", p);
		put(db, "BUFFER_QUEUE", key, "profile", "egress_lossless_profile");
		snprintf(key, sizeof(key), "%s|5-6", p);
		put(db, "BUFFER_QUEUE", key, "profile", "q_lossy_profile");
		put(db, "BUFFER_PORT_INGRESS_PROFILE_LIST", p, "profile_list",
		    "ingress_lossless_profile");
		put(db, "BUFFER_PORT_EGRESS_PROFILE_LIST", p, "profile_list",
		    "egress_lossless_profile,egress_lossy_profile");
	}
	put(db, "DEFAULT_LOSSLESS_BUFFER_PARAMETER", "AZURE", "default_dynamic_th", "0");
	put(db, "LOSSLESS_TRAFFIC_PATTERN", "AZURE", "mtu", "1024");
	put(db, "LOSSLESS_TRAFFIC_PATTERN", "AZURE", "small_packet_percentage", "50");
}
