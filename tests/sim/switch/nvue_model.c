/* SPDX-License-Identifier: Apache-2.0 */
/* What an NVUE switch does with its configuration: factory defaults, what RoCE mode implies
 * (RoCE page), validation at apply, and the operational state the ASIC ends up with. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "nvue.h"

/* ECN thresholds: Spectrum-4 programs them in units of 64 cells of 192 B (12288 B), which is
 * what turns 150000 B into the documented 159744 B (RoCE page, `nv show qos roce`); older ASICs
 * round up to one cell.  VX has no ASIC and keeps values as configured. */
static const struct nv_model models[] = {
    {"SN5600", "MSN5600", "Spectrum-4", 192, 64, 800000},
    {"SN5400", "MSN5400", "Spectrum-4", 192, 64, 400000},
    {"SN4700", "MSN4700", "Spectrum-3", 144, 1, 400000},
    {"SN4600", "MSN4600", "Spectrum-3", 144, 1, 200000},
    {"SN3700", "MSN3700", "Spectrum-2", 144, 1, 200000},
    {"SN2700", "MSN2700", "Spectrum", 96, 1, 100000},
    {"VX", "VX", "vx", 0, 1, 100000},
};

const struct nv_model *nv_model_find(const char *name)
{
	if (!name)
		return NULL;
	if (strncasecmp(name, "MSN", 3) == 0)
		name++;
	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		if (strcasecmp(models[i].name, name) == 0)
			return &models[i];
	return NULL;
}

int nv_sw_init(struct nv_sw *sw, cJSON *st, char *err, size_t errlen)
{
	sw->st = st;
	sw->nv = jget1(st, "nvue");
	sw->name = jstr(st, "name", "switch");
	sw->model = nv_model_find(jstr(st, "model", NULL));
	const char *v = jstr(st, "version", "5.14.0");
	int maj = 0, min = 0;
	if (sscanf(v, "%d.%d", &maj, &min) != 2)
		maj = 5, min = 14;
	sw->version = maj * 100 + min;
	if (!cJSON_IsObject(sw->nv) || !sw->model) {
		snprintf(err, errlen, "state of '%s' is not an NVUE switch", sw->name);
		return -1;
	}
	return 0;
}

bool nv_port_valid(const char *ifname)
{
	if (strncmp(ifname, "swp", 3) != 0 || !is_uint(ifname + 3) || ifname[3] == '0')
		return false;
	long n = strtol(ifname + 3, NULL, 10);
	return n >= 1 && n <= NV_PORTS;
}

long nv_quantize(const struct nv_sw *sw, long bytes)
{
	long gran = (long)sw->model->cell_bytes * sw->model->ecn_cells;
	if (gran <= 1)
		return bytes;
	return (bytes + gran - 1) / gran * gran;
}

static cJSON *num(long v)
{
	return cJSON_CreateNumber((double)v);
}

static cJSON *str(const char *s)
{
	return cJSON_CreateString(s);
}

static void put_sp_set(cJSON *obj, const char *key, unsigned mask)
{
	cJSON *set = cJSON_CreateObject();
	for (int i = 0; i < 8; i++)
		if (mask & (1u << i)) {
			char k[16];
			snprintf(k, sizeof(k), "%d", i);
			cJSON_AddItemToObject(set, k, cJSON_CreateObject());
		}
	jput(obj, key, set);
}

static cJSON *ecn_tc(void)
{
	cJSON *tc = cJSON_CreateObject();
	jput(tc, "ecn", str("enable"));
	jput(tc, "red", str("disable"));
	jput(tc, "min-threshold", num(150000));
	jput(tc, "max-threshold", num(1500000));
	jput(tc, "probability", num(100));
	return tc;
}

static const char *const P_MAP[] = {"qos", "mapping", "default-global"};
static const char *const P_CC[] = {"qos", "congestion-control", "default-global", "traffic-class"};
static const char *const P_EQM[] = {"qos", "egress-queue-mapping", "default-global",
				    "switch-priority"};
static const char *const P_SCHED[] = {"qos", "egress-scheduler", "default-global", "traffic-class"};

cJSON *nv_factory(const struct nv_sw *sw)
{
	cJSON *root = cJSON_CreateObject();
	cJSON *qos = cJSON_AddObjectToObject(root, "qos");
	cJSON_AddObjectToObject(root, "interface");

	cJSON *roce = cJSON_AddObjectToObject(qos, "roce");
	if (sw->version >= 515)
		jput(roce, "state", str("disabled"));
	else
		jput(roce, "enable", str("off"));
	jput(roce, "mode", str("lossless"));
	jput(roce, "cable-length", num(100));

	/* default DSCP map: eight code points per priority (0-7 -> 0 ... 48-55 -> 6) */
	cJSON *map = jmkpath(root, P_MAP, 3);
	jput(map, "trust", str("l2"));
	jput(map, "port-default-sp", num(0));
	cJSON *dscp = cJSON_AddObjectToObject(map, "dscp");
	cJSON *pcp = cJSON_AddObjectToObject(map, "pcp");
	for (int d = 0; d < 64; d++) {
		char k[16];
		snprintf(k, sizeof(k), "%d", d);
		cJSON *e = cJSON_AddObjectToObject(dscp, k);
		jput(e, "switch-priority", num(d / 8));
		if (d < 8) {
			e = cJSON_AddObjectToObject(pcp, k);
			jput(e, "switch-priority", num(d));
		}
	}
	cJSON_AddObjectToObject(qos, "pfc");
	cJSON_AddItemToObject(jmkpath(root, P_CC, 4), "0", ecn_tc());

	cJSON *wd = cJSON_AddObjectToObject(qos, "pfc-watchdog");
	jput(wd, "polling-interval", num(100));
	jput(wd, "robustness", num(3));

	cJSON *eqm = jmkpath(root, P_EQM, 4);
	cJSON *sched = jmkpath(root, P_SCHED, 4);
	for (int i = 0; i < 8; i++) {
		char k[16];
		snprintf(k, sizeof(k), "%d", i);
		jput(cJSON_AddObjectToObject(eqm, k), "traffic-class", num(i));
		cJSON *t = cJSON_AddObjectToObject(sched, k);
		jput(t, "mode", str("dwrr"));
		jput(t, "bw-percent", num(i % 2 ? 13 : 12));
	}
	cJSON *pool =
	    cJSON_AddObjectToObject(cJSON_AddObjectToObject(qos, "traffic-pool"), "default-lossy");
	jput(pool, "memory-percent", num(100));
	put_sp_set(pool, "switch-priority", 0xff);
	return root;
}

bool nv_oper_roce_on(const cJSON *st)
{
	return cJSON_IsTrue(jget1(jget1(st, "operational"), "roce-running"));
}

bool nv_roce_on(const cJSON *qos)
{
	const cJSON *roce = jget1(qos, "roce");
	return strcmp(jstr(roce, "enable", ""), "on") == 0 ||
	       strcmp(jstr(roce, "state", ""), "enabled") == 0;
}

static bool lossless_mode(const char *mode)
{
	return strcmp(mode, "lossless") == 0 || strcmp(mode, "lossless-single-ipool") == 0;
}

/* What "nv set qos roce" programs (Cumulus Linux RoCE page table). */
static cJSON *roce_derived(const char *mode, long cable_m)
{
	cJSON *d = cJSON_CreateObject();
	jput(jmkpath(d, P_MAP, 3), "trust", str("both"));

	cJSON *eqm = jmkpath(d, P_EQM, 4);
	for (int sp = 0; sp < 8; sp++) {
		char k[16];
		snprintf(k, sizeof(k), "%d", sp);
		jput(cJSON_AddObjectToObject(eqm, k), "traffic-class",
		     num(sp == 3 || sp == 6 ? sp : 0));
	}
	cJSON *sched = jmkpath(d, P_SCHED, 4);
	cJSON *t = cJSON_AddObjectToObject(sched, "0");
	jput(t, "mode", str("dwrr"));
	jput(t, "bw-percent", num(50));
	t = cJSON_AddObjectToObject(sched, "3");
	jput(t, "mode", str("dwrr"));
	jput(t, "bw-percent", num(50));
	jput(cJSON_AddObjectToObject(sched, "6"), "mode", str("strict"));

	cJSON *cc = jmkpath(d, P_CC, 4);
	jput(cc, "0", ecn_tc());
	jput(cc, "3", ecn_tc());

	cJSON *qos = jget1(d, "qos");
	cJSON *pools = cJSON_AddObjectToObject(qos, "traffic-pool");
	cJSON *lossy = cJSON_AddObjectToObject(pools, "default-lossy");
	jput(lossy, "memory-percent", num(50));
	put_sp_set(lossy, "switch-priority", 0xf7);
	cJSON *rp =
	    cJSON_AddObjectToObject(pools, lossless_mode(mode) ? "roce-lossless" : "roce-lossy");
	jput(rp, "memory-percent", num(50));
	put_sp_set(rp, "switch-priority", 0x08);

	if (lossless_mode(mode)) {
		cJSON *pfc =
		    cJSON_AddObjectToObject(cJSON_AddObjectToObject(qos, "pfc"), "default-global");
		put_sp_set(pfc, "switch-priority", 0x08);
		jput(pfc, "tx", str("enable"));
		jput(pfc, "rx", str("enable"));
		jput(pfc, "cable-length", num(cable_m));
	}
	return d;
}

/* RoCE mode owns these subtrees as a whole; the user's own settings still go on top. */
static bool replace_derived(const char *const *path, int n, void *arg)
{
	(void)arg;
	if (n == 2 && strcmp(path[0], "qos") == 0 && strcmp(path[1], "traffic-pool") == 0)
		return true;
	return n == 3 && strcmp(path[0], "qos") == 0 && strcmp(path[2], "default-global") == 0 &&
	       (strcmp(path[1], "egress-queue-mapping") == 0 ||
		strcmp(path[1], "egress-scheduler") == 0);
}

/* A configured set replaces the default one ("pfc switch-priority 2" moves PFC off 3). */
static bool replace_sets(const char *const *path, int n, void *arg)
{
	(void)arg;
	bool member;
	const struct nv_node *nd = nv_node_at(path, n, &member);
	return nd && nd->kind == NV_SET && !member;
}

static void fill_defaults(const struct nv_sw *sw, const struct nv_node *node, cJSON *obj)
{
	if (!cJSON_IsObject(obj))
		return;
	if (node->kind == NV_COLL) {
		cJSON *e;
		cJSON_ArrayForEach(e, obj) fill_defaults(sw, node->sub, e);
		return;
	}
	if (node->kind != NV_OBJ)
		return;
	for (const struct nv_node *k = node->sub; k->key; k++) {
		if ((k->flags & NVF_ROCE_EN) && strcmp(k->key, nv_canon_key(sw, k)) != 0)
			continue;
		cJSON *v = jget1(obj, k->key);
		if (!v && k->def)
			jput(obj, k->key,
			     k->kind == NV_INT ? num(strtol(k->def, NULL, 10)) : str(k->def));
		else if (v && (k->kind == NV_OBJ || k->kind == NV_COLL))
			fill_defaults(sw, k, v);
	}
}

cJSON *nv_filled(const struct nv_sw *sw, const cJSON *sparse)
{
	cJSON *f = nv_factory(sw);
	jmerge(f, sparse, replace_sets, NULL);
	fill_defaults(sw, &nv_root, f);
	return f;
}

cJSON *nv_effective(const struct nv_sw *sw, const cJSON *sparse)
{
	cJSON *eff = nv_factory(sw);
	cJSON *roce = cJSON_Duplicate(jget1(jget1(eff, "qos"), "roce"), true);
	jmerge(roce, jget1(jget1(sparse, "qos"), "roce"), NULL, NULL);
	cJSON *wrap = cJSON_CreateObject();
	jput(wrap, "roce", roce);
	if (nv_roce_on(wrap)) {
		cJSON *d =
		    roce_derived(jstr(roce, "mode", "lossless"), jint(roce, "cable-length", 100));
		jmerge(eff, d, replace_derived, NULL);
		cJSON_Delete(d);
	}
	cJSON_Delete(wrap);
	jmerge(eff, sparse, replace_sets, NULL);
	fill_defaults(sw, &nv_root, eff);
	return eff;
}

/* Lossless headroom.  switchd's formula is not public (Cumulus Linux QoS guide, PFC); the simulator
 * uses SONiC's Mellanox one (sonic-swss buffer_headroom_mellanox.lua) with NVUE's port MTU, which
 * has the right inputs and shape. */
static void headroom(const struct nv_sw *sw, long cable_m, long *xon, long *xoff, long *size)
{
	static const struct {
		long mbps, quanta;
	} pq[] = {{800000, 905}, {400000, 905}, {200000, 453}, {100000, 394},
		  {50000, 147},	 {40000, 118},	{25000, 80},   {10000, 67}};
	long speed = sw->model->speed_mbps, quanta = 394;
	for (size_t i = 0; i < sizeof(pq) / sizeof(pq[0]); i++)
		if (pq[i].mbps == speed)
			quanta = pq[i].quanta;
	double cell = sw->model->cell_bytes ? sw->model->cell_bytes : 128;
	const double lossless_mtu = 1024, port_mtu = 9216, spp = 50;
	double peer = (double)quanta * 512 / 8;
	double wcf = ceil(cell > 128 ? cell / 64 : 2 * cell / (1 + cell));
	double sp_bytes = 100 * 64 / ((spp * 64 + (100 - spp) * lossless_mtu) / 100);
	double occupancy = (100 - sp_bytes + sp_bytes * wcf) / 100;
	double on_cable = 2.0 * (double)cable_m * (double)speed * 1e9 / 198000000 / 8000;
	double on_tile = sw->model->cell_bytes == 192 ? (double)speed / 1000 * 120 / 8 : 0;
	double propagation = port_mtu + on_cable + 0.8 * 1024 + peer + on_tile;
	long x = (long)(ceil((lossless_mtu + propagation * occupancy) / 1024) * 1024);
	long full = (long)(ceil((lossless_mtu + propagation * wcf) / 1024) * 1024);
	if (x + 2048 < full)
		x += 2048;
	*xoff = x;
	*xon = 19 * 1024;
	*size = (long)(ceil((double)(x + *xon) / 1024) * 1024);
}

static long cell_round(const struct nv_sw *sw, long v)
{
	long c = sw->model->cell_bytes;
	return c > 1 ? (v + c - 1) / c * c : v;
}

static const char *bound_profile(const cJSON *ifqos, const char *what)
{
	return jstr(jget1(ifqos, what), "profile", "default-global");
}

static cJSON *port_pfc(const struct nv_sw *sw, const cJSON *qos, const char *prof)
{
	const cJSON *p = jget1(jget1(qos, "pfc"), prof);
	/* RoCE mode sizes headroom from `qos roce cable-length`, not from a PFC profile's
	 * (Cumulus Linux 5.12 QoS guide, "Flow Control Buffers") */
	long cable = nv_roce_on(qos) ? jint(jget1(qos, "roce"), "cable-length", 100)
				     : jint(p, "cable-length", 10);
	cJSON *o = cJSON_CreateObject();
	const cJSON *sps = jget1(p, "switch-priority");
	jput(o, "profile", str(prof));
	jput(o, "switch-priority", sps ? cJSON_Duplicate(sps, true) : cJSON_CreateObject());
	if (!p || cJSON_GetArraySize(sps) == 0)
		return o;
	long xon, xoff, size;
	headroom(sw, cable, &xon, &xoff, &size);
	jput(o, "tx", str(jstr(p, "tx", "enable")));
	jput(o, "rx", str(jstr(p, "rx", "enable")));
	jput(o, "cable-length", num(cable));
	jput(o, "port-buffer", num(cell_round(sw, jint(p, "port-buffer", size))));
	jput(o, "xoff-threshold", num(cell_round(sw, jint(p, "xoff-threshold", xoff))));
	jput(o, "xon-threshold", num(cell_round(sw, jint(p, "xon-threshold", xon))));
	return o;
}

static cJSON *port_cc(const struct nv_sw *sw, const cJSON *qos, const char *prof)
{
	cJSON *o = cJSON_CreateObject();
	cJSON *tcs = cJSON_CreateObject();
	const cJSON *tc;
	jput(o, "profile", str(prof));
	jput(o, "traffic-class", tcs);
	cJSON_ArrayForEach(tc,
			   jget1(jget1(jget1(qos, "congestion-control"), prof), "traffic-class"))
	{
		cJSON *q = cJSON_Duplicate(tc, true);
		jput(q, "min-threshold", num(nv_quantize(sw, jint(tc, "min-threshold", 150000))));
		jput(q, "max-threshold", num(nv_quantize(sw, jint(tc, "max-threshold", 1500000))));
		cJSON_AddItemToObject(tcs, tc->string, q);
	}
	return o;
}

cJSON *nv_operational(const struct nv_sw *sw, const cJSON *sparse)
{
	cJSON *eff = nv_effective(sw, sparse);
	cJSON *oper = cJSON_CreateObject();
	cJSON *qos = cJSON_DetachItemFromObjectCaseSensitive(eff, "qos");
	cJSON *ifs = cJSON_AddObjectToObject(oper, "interface");
	const cJSON *cfg_ifs = jget1(eff, "interface");
	char speed[32];
	snprintf(speed, sizeof(speed), "%ldG", sw->model->speed_mbps / 1000);
	for (int p = 1; p <= NV_PORTS; p++) {
		char name[16];
		snprintf(name, sizeof(name), "swp%d", p);
		const cJSON *ifq = jget1(jget1(cfg_ifs, name), "qos");
		cJSON *port = cJSON_AddObjectToObject(ifs, name);
		cJSON *link = cJSON_AddObjectToObject(port, "link");
		jput(link, "state", str("up"));
		jput(link, "speed", str(speed));
		jput(link, "mtu", num(9216));
		cJSON *q = cJSON_AddObjectToObject(port, "qos");

		const char *mp = bound_profile(ifq, "mapping");
		const cJSON *m = jget1(jget1(qos, "mapping"), mp);
		cJSON *mo = cJSON_AddObjectToObject(q, "mapping");
		jput(mo, "profile", str(mp));
		jput(mo, "trust", str(jstr(m, "trust", "l2")));
		jput(mo, "port-default-sp", num(jint(m, "port-default-sp", 0)));
		jput(q, "pfc", port_pfc(sw, qos, bound_profile(ifq, "pfc")));
		jput(q, "congestion-control",
		     port_cc(sw, qos, bound_profile(ifq, "congestion-control")));
		jput(cJSON_AddObjectToObject(q, "egress-scheduler"), "profile",
		     str(bound_profile(ifq, "egress-scheduler")));
		jput(cJSON_AddObjectToObject(q, "pfc-watchdog"), "state",
		     str(jstr(jget1(ifq, "pfc-watchdog"), "state", "disable")));
	}
	/* `enable`/`state` is configuration: the documented `nv show qos roce` shows it in
	 * the applied column only (conformance nvue/outputs/nv_show_qos_roce.txt); `mode`
	 * has an operational value.  Whether RoCE runs is kept aside for the shows. */
	jput(oper, "roce-running", cJSON_CreateBool(nv_roce_on(qos)));
	cJSON_DeleteItemFromObjectCaseSensitive(jget1(qos, "roce"), "enable");
	cJSON_DeleteItemFromObjectCaseSensitive(jget1(qos, "roce"), "state");
	cJSON_AddItemToObject(oper, "qos", qos);
	cJSON_Delete(eff);
	return oper;
}

static void issue(cJSON *issues, const char *location, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void issue(cJSON *issues, const char *location, const char *fmt, ...)
{
	char reason[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	cJSON *i = cJSON_CreateObject();
	jput(i, "location", str(location));
	jput(i, "reason", str(reason));
	cJSON_AddItemToArray(issues, i);
}

static void validate_interfaces(const cJSON *eff, cJSON *issues)
{
	static const char *const kinds[] = {"mapping", "pfc", "congestion-control",
					    "egress-scheduler"};
	const cJSON *ifc;
	cJSON_ArrayForEach(ifc, jget1(eff, "interface"))
	{
		char loc[256];
		if (!nv_port_valid(ifc->string)) {
			snprintf(loc, sizeof(loc), "interface.%s", ifc->string);
			issue(issues, loc,
			      "interface '%s' does not exist on this platform (swp1-swp%d)",
			      ifc->string, NV_PORTS);
			continue;
		}
		for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
			const char *prof =
			    jstr(jget1(jget1(ifc, "qos"), kinds[k]), "profile", NULL);
			if (!prof || jget1(jget1(jget1(eff, "qos"), kinds[k]), prof))
				continue;
			snprintf(loc, sizeof(loc), "interface.%s.qos.%s.profile", ifc->string,
				 kinds[k]);
			issue(issues, loc, "%s profile '%s' does not exist", kinds[k], prof);
		}
	}
}

/* Lossless traffic pools (QoS guide, "Traffic Pools" and "Flow Control Buffers";
 * Cumulus Linux 5.18 QoS guide, "Flow Control Buffers", "Traffic Pools"): only one lossless pool at
 * a time, and the pools must be configured before PFC: a PFC priority that no lossless pool carries
 * is refused here, as the guide's prerequisite says (the exact message of a real switch is not
 * public). */
static void validate_pools(const cJSON *qos, cJSON *issues)
{
	const cJSON *pools = jget1(qos, "traffic-pool"), *prof, *sp;
	const cJSON *dl = jget1(pools, "default-lossless"), *rl = jget1(pools, "roce-lossless");
	const cJSON *lossless = dl ? dl : rl;
	char loc[256];

	if (dl && rl)
		issue(issues, "qos.traffic-pool",
		      "only one lossless traffic pool can exist: default-lossless or "
		      "roce-lossless");
	cJSON_ArrayForEach(prof, jget1(qos, "pfc"))
	{
		cJSON_ArrayForEach(sp, jget1(prof, "switch-priority"))
		{
			if (jget1(jget1(lossless, "switch-priority"), sp->string) &&
			    jint(lossless, "memory-percent", 0) > 0)
				continue;
			snprintf(loc, sizeof(loc), "qos.pfc.%s.switch-priority", prof->string);
			issue(issues, loc,
			      "switch-priority %s is not in a lossless traffic pool; configure "
			      "qos traffic-pool default-lossless (memory-percent and "
			      "switch-priority) before PFC",
			      sp->string);
		}
	}
}

void nv_validate(const struct nv_sw *sw, const cJSON *sparse, cJSON *issues)
{
	cJSON *eff = nv_effective(sw, sparse);
	const cJSON *qos = jget1(eff, "qos");
	const cJSON *prof, *tc;
	char loc[256];

	cJSON_ArrayForEach(prof, jget1(qos, "congestion-control"))
	{
		cJSON_ArrayForEach(tc, jget1(prof, "traffic-class"))
		{
			long lo = jint(tc, "min-threshold", 0), hi = jint(tc, "max-threshold", 0);
			if (lo < hi)
				continue;
			snprintf(loc, sizeof(loc), "qos.congestion-control.%s.traffic-class.%s",
				 prof->string, tc->string);
			issue(issues, loc,
			      "min-threshold (%ld) must be less than max-threshold (%ld)", lo, hi);
		}
	}
	cJSON_ArrayForEach(prof, jget1(qos, "egress-scheduler"))
	{
		long sum = 0;
		cJSON_ArrayForEach(tc, jget1(prof, "traffic-class"))
		{
			if (strcmp(jstr(tc, "mode", "dwrr"), "dwrr") == 0)
				sum += jint(tc, "bw-percent", 0);
		}
		if (sum <= 100)
			continue;
		snprintf(loc, sizeof(loc), "qos.egress-scheduler.%s", prof->string);
		issue(issues, loc,
		      "total bw-percent of dwrr traffic classes is %ld, must not exceed 100", sum);
	}
	cJSON_ArrayForEach(prof, jget1(qos, "egress-queue-mapping"))
	{
		if (strcmp(prof->string, "default-global") == 0)
			continue;
		snprintf(loc, sizeof(loc), "qos.egress-queue-mapping.%s", prof->string);
		issue(issues, loc, "only the default-global profile is supported");
	}
	long mem = 0;
	cJSON_ArrayForEach(prof, jget1(qos, "traffic-pool")) mem += jint(prof, "memory-percent", 0);
	if (mem > 100)
		issue(issues, "qos.traffic-pool",
		      "total memory-percent of traffic pools is %ld, must not exceed 100", mem);
	validate_pools(qos, issues);
	validate_interfaces(eff, issues);
	(void)sw;
	cJSON_Delete(eff);
}

void nv_warnings(const cJSON *from, const cJSON *to, cJSON *warnings)
{
	static const char *const areas[] = {"roce", "traffic-pool"};
	for (size_t i = 0; i < sizeof(areas) / sizeof(areas[0]); i++) {
		const cJSON *a = jget1(jget1(from, "qos"), areas[i]);
		const cJSON *b = jget1(jget1(to, "qos"), areas[i]);
		if ((!a && !b) || (a && b && cJSON_Compare(a, b, true)))
			continue;
		char w[256];
		snprintf(w, sizeof(w),
			 "qos %s: applying this change restarts switchd; traffic on all ports is "
			 "interrupted",
			 areas[i]);
		cJSON_AddItemToArray(warnings, str(w));
	}
}

static void prune_at(const struct nv_node *node, cJSON *obj)
{
	if (!cJSON_IsObject(obj) || (node->kind != NV_OBJ && node->kind != NV_COLL))
		return;
	cJSON *c = obj->child;
	while (c) {
		cJSON *next = c->next;
		const struct nv_node *kid =
		    node->kind == NV_OBJ ? nv_kid(node, c->string) : node->sub;
		if (kid && kid->kind == NV_SET && cJSON_IsObject(c) && !c->child)
			cJSON_Delete(cJSON_DetachItemViaPointer(obj, c));
		else if (kid)
			prune_at(kid, c);
		c = next;
	}
}

void nv_prune_sets(cJSON *sparse)
{
	prune_at(&nv_root, sparse);
}
