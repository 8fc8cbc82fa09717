/* SPDX-License-Identifier: Apache-2.0 */
/* EOS configuration: the config/interface/tx-queue mode grammar (AVD's eos_cli_config_gen
 * templates), the running-config rendering (3-space indents, '!' separators), loading text back,
 * and the unified diff of configuration sessions.
 *
 * cfg (JSON) holds what was configured, nothing derived:
 *   hostname, aaa-lines [the credential lines, as typed], qos-map-dscp {DSCP: TC}, pfc-all-off,
 * pfc-watchdog {timeout, recovery-time, polling-interval, action}, interface {EthernetN:
 * {description, mtu, shutdown, qos-trust (dscp|cos|untrusted), pfc (bool), pfc-priority {P:
 * no-drop|drop}, pfc-watchdog (bool), tx-queue {Q: {ecn {min, min-unit, max, max-unit, probability,
 * weight}, ecn-count, bandwidth, no-priority}}}} */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "eos.h"

void eos_res_error(struct eos_res *r, int code, const char *fmt, ...)
{
	va_list ap;
	r->code = code;
	va_start(ap, fmt);
	vsnprintf(r->msg, sizeof(r->msg), fmt, ap);
	va_end(ap);
}

void eos_res_invalid(struct eos_res *r, int argc, char **argv, int at)
{
	if (at >= argc)
		eos_res_error(r, 1002, "Incomplete command");
	else
		eos_res_error(r, 1002, "Invalid input (at token %d: '%.200s')", at, argv[at]);
}

int eos_kw(const char *tok, const char *const *cands)
{
	size_t l = strlen(tok);
	int found = -1;
	if (!l)
		return -1;
	for (int i = 0; cands[i]; i++)
		if (strcasecmp(tok, cands[i]) == 0)
			return i;
	for (int i = 0; cands[i]; i++) {
		if (strncasecmp(tok, cands[i], l) != 0)
			continue;
		if (found >= 0)
			return -2;
		found = i;
	}
	return found;
}

/* One keyword at argv[*i]: true and advance, else r filled. */
static bool want(int argc, char **argv, int *i, const char *kw, struct eos_res *r)
{
	const char *c[] = {kw, NULL};
	if (*i < argc && eos_kw(argv[*i], c) == 0) {
		(*i)++;
		return true;
	}
	eos_res_invalid(r, argc, argv, *i);
	return false;
}

static bool number(int argc, char **argv, int *i, long lo, long hi, long *v, struct eos_res *r)
{
	if (*i < argc && is_uint(argv[*i]) && strlen(argv[*i]) <= 10) {
		long x = strtol(argv[*i], NULL, 10);
		if (x >= lo && x <= hi) {
			*v = x;
			(*i)++;
			return true;
		}
	}
	eos_res_invalid(r, argc, argv, *i);
	return false;
}

/* A seconds value "0.2" within lo..hi. */
static bool seconds(int argc, char **argv, int *i, double lo, double hi, double *v,
		    struct eos_res *r)
{
	if (*i < argc) {
		char *end;
		const char *s = argv[*i];
		double x = strtod(s, &end);
		if (end != s && !*end && isdigit((unsigned char)s[0]) && x >= lo && x <= hi) {
			*v = x;
			(*i)++;
			return true;
		}
	}
	eos_res_invalid(r, argc, argv, *i);
	return false;
}

static bool at_end(int argc, char **argv, int i, struct eos_res *r)
{
	if (i == argc)
		return true;
	eos_res_invalid(r, argc, argv, i);
	return false;
}

int eos_parse_ifs(int argc, char **argv, int *ports, int max)
{
	char buf[512];
	size_t len = 0;
	for (int i = 0; i < argc; i++) {
		size_t l = strlen(argv[i]);
		if (len + l >= sizeof(buf))
			return -1;
		memcpy(buf + len, argv[i], l);
		len += l;
	}
	buf[len] = '\0';
	/* drop every "ethernet"/"et" prefix: "Ethernet1-4,Et6" -> "1-4,6" */
	char ids[512];
	size_t o = 0;
	for (size_t i = 0; i < len;) {
		if (i == 0 || buf[i - 1] == ',') {
			if (strncasecmp(buf + i, "ethernet", 8) == 0)
				i += 8;
			else if (strncasecmp(buf + i, "et", 2) == 0)
				i += 2;
			else if (i == 0)
				return -1;
		}
		ids[o++] = buf[i++];
	}
	ids[o] = '\0';
	long v[EOS_PORTS];
	int n = parse_id_list(ids, 1, EOS_PORTS, v, EOS_PORTS);
	if (n < 0 || n > max)
		return -1;
	for (int i = 0; i < n; i++)
		ports[i] = (int)v[i];
	return n;
}

static int map_get(const cJSON *cfg, const char *map, int from)
{
	char k[16];
	snprintf(k, sizeof(k), "%d", from);
	return (int)jint(jget1(cfg, map), k, -1);
}

int eos_cos_tc(const cJSON *cfg, int cos)
{
	int v = map_get(cfg, "qos-map-cos", cos);
	return v >= 0 ? v : cos == 0 ? 1 : cos == 1 ? 0 : cos;
}

/* The default DSCP map goes through the default CoS map (DSCP/8 -> CoS -> TC). */
int eos_dscp_tc(const cJSON *cfg, int dscp)
{
	int v = map_get(cfg, "qos-map-dscp", dscp);
	return v >= 0 ? v : eos_cos_tc(NULL, dscp / 8);
}

int eos_tc_txq(const cJSON *cfg, int tc)
{
	int v = map_get(cfg, "qos-map-tc-txq", tc);
	return v >= 0 ? v : tc;
}

long eos_unit_bytes(const char *unit)
{
	if (!strcmp(unit, "bytes"))
		return 1;
	if (!strcmp(unit, "kbytes"))
		return 1000;
	if (!strcmp(unit, "mbytes"))
		return 1000000;
	if (!strcmp(unit, "segments"))
		return EOS_SEGMENT_BYTES;
	return 0;
}

static cJSON *obj_at(cJSON *parent, const char *key)
{
	cJSON *o = jget1(parent, key);
	if (!cJSON_IsObject(o)) {
		o = cJSON_CreateObject();
		jput(parent, key, o);
	}
	return o;
}

static cJSON *iface(cJSON *cfg, int port)
{
	char name[32];
	snprintf(name, sizeof(name), "Ethernet%d", port);
	return obj_at(obj_at(cfg, "interface"), name);
}

static void del_key(cJSON *o, const char *key)
{
	cJSON_DeleteItemFromObjectCaseSensitive(o, key);
}

/* ---- global configuration mode ---- */

/* The lines that carry credentials (EOS manual: `username NAME ... secret ...`, `enable
 * secret`, `tacacs-server key`, `radius-server host ... key`, `snmp-server community`), kept
 * as typed, without checking their grammar: the simulator holds them so that a capture can
 * be shown to scrub them.  "no LINE" removes the lines that start with LINE. */
static int cfg_aaa_line(cJSON *cfg, int argc, char **argv, int i, const char *kw, bool off,
			struct eos_res *r)
{
	char line[512];
	size_t o = (size_t)snprintf(line, sizeof(line), "%s", kw);
	cJSON *lines = jget1(cfg, "aaa-lines");

	for (int a = i + 1; a < argc && o < sizeof(line); a++)
		o += (size_t)snprintf(line + o, sizeof(line) - o, " %s", argv[a]);
	if (o >= sizeof(line) || (!off && i + 1 >= argc)) {
		eos_res_invalid(r, argc, argv, i + 1);
		return -1;
	}
	if (!lines) {
		lines = cJSON_CreateArray();
		jput(cfg, "aaa-lines", lines);
	}
	for (int n = cJSON_GetArraySize(lines) - 1; n >= 0; n--) {
		const char *l = cJSON_GetStringValue(cJSON_GetArrayItem(lines, n));

		if (l && (off ? !strncmp(l, line, o) : !strcmp(l, line)))
			cJSON_DeleteItemFromArray(lines, n);
	}
	if (!off)
		cJSON_AddItemToArray(lines, cJSON_CreateString(line));
	if (!cJSON_GetArraySize(lines))
		del_key(cfg, "aaa-lines");
	return 0;
}

static int cfg_global(cJSON *cfg, struct eos_pos *pos, int argc, char **argv, int i, bool no,
		      bool dflt, struct eos_res *r, bool *unknown)
{
	static const char *const cmds[] = {
	    "qos",    "priority-flow-control", "interface",	"hostname",    "username",
	    "enable", "tacacs-server",	       "radius-server", "snmp-server", NULL};
	int k = eos_kw(argv[i], cmds);
	if (k < 0) {
		*unknown = true;
		eos_res_invalid(r, argc, argv, i);
		return -1;
	}
	if (k >= 4)
		return cfg_aaa_line(cfg, argc, argv, i, cmds[k], no || dflt, r);
	i++;
	bool off = no || dflt;
	if (k == 0) { /* qos map dscp|cos|traffic-class LIST to traffic-class|tx-queue N */
		static const char *const what[] = {"map", NULL};
		static const char *const maps[] = {"dscp", "cos", "traffic-class", NULL};
		static const char *const keys[] = {"qos-map-dscp", "qos-map-cos", "qos-map-tc-txq"};
		static const char *const dsts[] = {"traffic-class", "traffic-class", "tx-queue"};
		if (i >= argc || eos_kw(argv[i], what) != 0) {
			eos_res_invalid(r, argc, argv, i);
			return -1;
		}
		i++;
		int m = i < argc ? eos_kw(argv[i], maps) : -1;
		if (m < 0) {
			eos_res_invalid(r, argc, argv, i);
			return -1;
		}
		i++;
		long hi = m == 0 ? 63 : 7;
		long ids[64];
		int nd = 0;
		/* values and ranges ("24 25 26", "24-31") up to "to" */
		while (i < argc && strchr("0123456789", argv[i][0])) {
			long tmp[64];
			int got = parse_id_list(argv[i], 0, hi, tmp, 64);
			if (got < 0 || strchr(argv[i], ',')) {
				eos_res_invalid(r, argc, argv, i);
				return -1;
			}
			for (int j = 0; j < got && nd < 64; j++)
				ids[nd++] = tmp[j];
			i++;
		}
		if (nd == 0) {
			eos_res_invalid(r, argc, argv, i);
			return -1;
		}
		long to = -1;
		if (i < argc || !off) {
			if (!want(argc, argv, &i, "to", r) || !want(argc, argv, &i, dsts[m], r) ||
			    !number(argc, argv, &i, 0, 7, &to, r) || !at_end(argc, argv, i, r))
				return -1;
		}
		cJSON *map = obj_at(cfg, keys[m]);
		for (int j = 0; j < nd; j++) {
			char key[16];
			snprintf(key, sizeof(key), "%ld", ids[j]);
			if (off)
				del_key(map, key);
			else
				jput(map, key, cJSON_CreateNumber((double)to));
		}
		if (!map->child)
			del_key(cfg, keys[m]);
		return 0;
	}
	if (k == 1) { /* priority-flow-control all off | pause watchdog ... */
		static const char *const sub[] = {"all", "pause", NULL};
		int s = i < argc ? eos_kw(argv[i], sub) : -1;
		if (s < 0) {
			eos_res_invalid(r, argc, argv, i);
			return -1;
		}
		i++;
		if (s == 0) {
			if (!want(argc, argv, &i, "off", r) || !at_end(argc, argv, i, r))
				return -1;
			if (off)
				del_key(cfg, "pfc-all-off");
			else
				jput(cfg, "pfc-all-off", cJSON_CreateTrue());
			return 0;
		}
		if (!want(argc, argv, &i, "watchdog", r))
			return -1;
		static const char *const wd[] = {"default", "action", NULL};
		int w = i < argc ? eos_kw(argv[i], wd) : -1;
		if (w < 0) {
			eos_res_invalid(r, argc, argv, i);
			return -1;
		}
		i++;
		cJSON *o = obj_at(cfg, "pfc-watchdog");
		if (w == 1) {
			static const char *const acts[] = {"drop", "no-drop", NULL};
			int a = i < argc ? eos_kw(argv[i], acts) : -1;
			if (off && i == argc) {
				del_key(o, "action");
			} else {
				if (a < 0) {
					eos_res_invalid(r, argc, argv, i);
					return -1;
				}
				i++;
				if (!at_end(argc, argv, i, r))
					return -1;
				if (off)
					del_key(o, "action");
				else
					jput(o, "action", cJSON_CreateString(acts[a]));
			}
		} else {
			static const char *const keys[] = {"timeout", "recovery-time",
							   "polling-interval", NULL};
			static const double hi[] = {60, 600, 30};
			int t = i < argc ? eos_kw(argv[i], keys) : -1;
			if (t < 0) {
				eos_res_invalid(r, argc, argv, i);
				return -1;
			}
			i++;
			double v = 0;
			if (!(off && i == argc) &&
			    (!seconds(argc, argv, &i, t == 2 ? 0.005 : 0.01, hi[t], &v, r) ||
			     !at_end(argc, argv, i, r)))
				return -1;
			if (off)
				del_key(o, keys[t]);
			else
				jput(o, keys[t], cJSON_CreateNumber(v));
		}
		if (!o->child)
			del_key(cfg, "pfc-watchdog");
		return 0;
	}
	if (k == 2) { /* interface IFLIST */
		int ports[EOS_PORTS];
		int n = eos_parse_ifs(argc - i, argv + i, ports, EOS_PORTS);
		if (i >= argc || n < 0) {
			eos_res_invalid(r, argc, argv, i);
			return -1;
		}
		if (off) {
			/* "no interface EthernetN" resets a physical port's configuration */
			for (int j = 0; j < n; j++) {
				char name[32];
				snprintf(name, sizeof(name), "Ethernet%d", ports[j]);
				del_key(obj_at(cfg, "interface"), name);
			}
			return 0;
		}
		pos->mode = EM_IF;
		pos->nifs = n;
		memcpy(pos->ifs, ports, sizeof(int) * (size_t)n);
		return 0;
	}
	/* hostname NAME; "no hostname [NAME]" */
	if (off) {
		if (i + 1 < argc) {
			eos_res_invalid(r, argc, argv, i + 1);
			return -1;
		}
		jput(cfg, "hostname", cJSON_CreateString("localhost"));
		return 0;
	}
	if (i >= argc || !is_safe_name(argv[i]) || strlen(argv[i]) > 63) {
		eos_res_invalid(r, argc, argv, i);
		return -1;
	}
	if (!at_end(argc, argv, i + 1, r))
		return -1;
	jput(cfg, "hostname", cJSON_CreateString(argv[i]));
	return 0;
}

/* ---- interface mode ---- */

static int cfg_iface(const struct eos_sw *sw, cJSON *cfg, struct eos_pos *pos, int argc,
		     char **argv, int i, bool no, bool dflt, struct eos_res *r, bool *unknown)
{
	static const char *const cmds[] = {
	    "description",	     "mtu",	 "shutdown",	"qos",
	    "priority-flow-control", "tx-queue", "uc-tx-queue", NULL};
	int k = eos_kw(argv[i], cmds);
	if (k < 0) {
		*unknown = true;
		eos_res_invalid(r, argc, argv, i);
		return -1;
	}
	bool off = no || dflt;
	int start = i++;
	if (k == 0) {
		struct sbuf d;
		sb_init(&d);
		for (int j = i; j < argc; j++)
			sb_addf(&d, "%s%s", j > i ? " " : "", argv[j]);
		if (!off && i >= argc) {
			sb_free(&d);
			eos_res_invalid(r, argc, argv, i);
			return -1;
		}
		for (int p = 0; p < pos->nifs; p++) {
			cJSON *ifc = iface(cfg, pos->ifs[p]);
			if (off)
				del_key(ifc, "description");
			else
				jput(ifc, "description", cJSON_CreateString(sb_str(&d)));
		}
		sb_free(&d);
		return 0;
	}
	if (k == 1) {
		long mtu = 0;
		if (!(off && i == argc) &&
		    (!number(argc, argv, &i, 68, 9214, &mtu, r) || !at_end(argc, argv, i, r)))
			return -1;
		for (int p = 0; p < pos->nifs; p++) {
			cJSON *ifc = iface(cfg, pos->ifs[p]);
			if (off)
				del_key(ifc, "mtu");
			else
				jput(ifc, "mtu", cJSON_CreateNumber((double)mtu));
		}
		return 0;
	}
	if (k == 2) {
		if (!at_end(argc, argv, i, r))
			return -1;
		for (int p = 0; p < pos->nifs; p++) {
			cJSON *ifc = iface(cfg, pos->ifs[p]);
			if (off)
				del_key(ifc, "shutdown");
			else
				jput(ifc, "shutdown", cJSON_CreateTrue());
		}
		return 0;
	}
	if (k == 3) { /* qos trust dscp|cos */
		static const char *const modes[] = {"dscp", "cos", NULL};
		if (!want(argc, argv, &i, "trust", r))
			return -1;
		int m = -1;
		if (!(off && i == argc)) {
			m = i < argc ? eos_kw(argv[i], modes) : -1;
			if (m < 0) {
				eos_res_invalid(r, argc, argv, i);
				return -1;
			}
			i++;
		}
		if (!at_end(argc, argv, i, r))
			return -1;
		for (int p = 0; p < pos->nifs; p++) {
			cJSON *ifc = iface(cfg, pos->ifs[p]);
			if (dflt)
				del_key(ifc, "qos-trust");
			else
				jput(ifc, "qos-trust",
				     cJSON_CreateString(no ? "untrusted" : modes[m]));
		}
		return 0;
	}
	if (k ==
	    4) { /* priority-flow-control on | mode on | priority N no-drop|drop | pause watchdog */
		static const char *const sub[] = {"on", "mode", "priority", "pause", NULL};
		int s = i < argc ? eos_kw(argv[i], sub) : off ? 0 : -1;
		if (s < 0) {
			eos_res_invalid(r, argc, argv, i);
			return -1;
		}
		if (i < argc)
			i++;
		if (s == 1 && !want(argc, argv, &i, "on", r))
			return -1;
		long prio = -1;
		int action = 0;
		if (s == 2) {
			static const char *const acts[] = {"no-drop", "drop", NULL};
			if (!number(argc, argv, &i, 0, 7, &prio, r))
				return -1;
			if (!(off && i == argc)) {
				action = i < argc ? eos_kw(argv[i], acts) : -1;
				if (action < 0) {
					eos_res_invalid(r, argc, argv, i);
					return -1;
				}
				i++;
			}
		}
		if (s == 3 && !want(argc, argv, &i, "watchdog", r))
			return -1;
		if (!at_end(argc, argv, i, r))
			return -1;
		for (int p = 0; p < pos->nifs; p++) {
			cJSON *ifc = iface(cfg, pos->ifs[p]);
			if (s <= 1) {
				if (off)
					del_key(ifc, "pfc");
				else
					jput(ifc, "pfc", cJSON_CreateTrue());
			} else if (s == 2) {
				char key[16];
				snprintf(key, sizeof(key), "%ld", prio);
				cJSON *pp = obj_at(ifc, "pfc-priority");
				if (off)
					del_key(pp, key);
				else
					jput(pp, key,
					     cJSON_CreateString(action == 0 ? "no-drop" : "drop"));
				if (!pp->child)
					del_key(ifc, "pfc-priority");
			} else {
				if (off)
					del_key(ifc, "pfc-watchdog");
				else
					jput(ifc, "pfc-watchdog", cJSON_CreateTrue());
			}
		}
		return 0;
	}
	/* tx-queue N / uc-tx-queue N: which one exists depends on the platform */
	if ((k == 6) != sw->model->uc_tx_queue) {
		eos_res_invalid(r, argc, argv, start);
		return -1;
	}
	long q;
	if (!number(argc, argv, &i, 0, 7, &q, r) || !at_end(argc, argv, i, r))
		return -1;
	if (off) {
		char key[16];
		snprintf(key, sizeof(key), "%ld", q);
		for (int p = 0; p < pos->nifs; p++) {
			cJSON *ifc = iface(cfg, pos->ifs[p]);
			cJSON *tq = jget1(ifc, "tx-queue");
			if (tq) {
				del_key(tq, key);
				if (!tq->child)
					del_key(ifc, "tx-queue");
			}
		}
		return 0;
	}
	pos->mode = EM_TXQ;
	pos->txq = (int)q;
	return 0;
}

/* ---- tx-queue mode ---- */

static int cfg_txq(cJSON *cfg, struct eos_pos *pos, int argc, char **argv, int i, bool no,
		   bool dflt, struct eos_res *r, bool *unknown)
{
	static const char *const cmds[] = {"random-detect", "bandwidth", "priority", NULL};
	int k = eos_kw(argv[i], cmds);
	if (k < 0) {
		*unknown = true;
		eos_res_invalid(r, argc, argv, i);
		return -1;
	}
	bool off = no || dflt;
	i++;
	char qkey[16];
	snprintf(qkey, sizeof(qkey), "%d", pos->txq);
	if (k == 0) {
		if (!want(argc, argv, &i, "ecn", r))
			return -1;
		static const char *const sub[] = {"minimum-threshold", "count", NULL};
		int s = i < argc ? eos_kw(argv[i], sub) : off ? 0 : -1;
		if (s < 0) {
			eos_res_invalid(r, argc, argv, i);
			return -1;
		}
		if (i < argc)
			i++;
		static const char *const units[] = {"segments", "bytes", "kbytes", "mbytes", NULL};
		long mn = 0, mx = 0, prob = -1, weight = -1;
		int umn = 0, umx = 0;
		if (s == 0 && !(off && i == argc)) {
			if (!number(argc, argv, &i, 1, 256000000, &mn, r))
				return -1;
			umn = i < argc ? eos_kw(argv[i], units) : -1;
			if (umn < 0) {
				eos_res_invalid(r, argc, argv, i);
				return -1;
			}
			i++;
			if (!want(argc, argv, &i, "maximum-threshold", r) ||
			    !number(argc, argv, &i, 1, 256000000, &mx, r))
				return -1;
			umx = i < argc ? eos_kw(argv[i], units) : -1;
			if (umx < 0) {
				eos_res_invalid(r, argc, argv, i);
				return -1;
			}
			i++;
			static const char *const opt[] = {"max-mark-probability", "weight", NULL};
			while (i < argc) {
				int o = eos_kw(argv[i], opt);
				if (o < 0 || (o == 0 && prob >= 0) || (o == 1 && weight >= 0)) {
					eos_res_invalid(r, argc, argv, i);
					return -1;
				}
				i++;
				if (!number(argc, argv, &i, o == 0 ? 1 : 0, o == 0 ? 100 : 15,
					    o == 0 ? &prob : &weight, r))
					return -1;
			}
			if (mn * eos_unit_bytes(units[umn]) > mx * eos_unit_bytes(units[umx])) {
				eos_res_error(r, 1000,
					      "Minimum threshold must be less than or equal to "
					      "maximum threshold");
				return -1;
			}
		}
		if (!at_end(argc, argv, i, r))
			return -1;
		for (int p = 0; p < pos->nifs; p++) {
			cJSON *q = obj_at(obj_at(iface(cfg, pos->ifs[p]), "tx-queue"), qkey);
			if (s == 1) {
				if (off)
					del_key(q, "ecn-count");
				else
					jput(q, "ecn-count", cJSON_CreateTrue());
				continue;
			}
			if (off) {
				del_key(q, "ecn");
				continue;
			}
			cJSON *e = cJSON_CreateObject();
			jput(e, "min", cJSON_CreateNumber((double)mn));
			jput(e, "min-unit", cJSON_CreateString(units[umn]));
			jput(e, "max", cJSON_CreateNumber((double)mx));
			jput(e, "max-unit", cJSON_CreateString(units[umx]));
			if (prob >= 0)
				jput(e, "probability", cJSON_CreateNumber((double)prob));
			if (weight >= 0)
				jput(e, "weight", cJSON_CreateNumber((double)weight));
			jput(q, "ecn", e);
		}
		return 0;
	}
	if (k == 1) {
		long pct = 0;
		if (!(off && (i == argc ||
			      (i + 1 == argc &&
			       eos_kw(argv[i], (const char *const[]){"percent", NULL}) == 0)))) {
			if (!want(argc, argv, &i, "percent", r) ||
			    !number(argc, argv, &i, 1, 100, &pct, r) || !at_end(argc, argv, i, r))
				return -1;
		}
		for (int p = 0; p < pos->nifs; p++) {
			cJSON *q = obj_at(obj_at(iface(cfg, pos->ifs[p]), "tx-queue"), qkey);
			if (off)
				del_key(q, "bandwidth");
			else
				jput(q, "bandwidth", cJSON_CreateNumber((double)pct));
		}
		return 0;
	}
	/* priority strict | no priority */
	if (!off && !want(argc, argv, &i, "strict", r))
		return -1;
	if (off && i < argc && !want(argc, argv, &i, "strict", r))
		return -1;
	if (!at_end(argc, argv, i, r))
		return -1;
	for (int p = 0; p < pos->nifs; p++) {
		cJSON *q = obj_at(obj_at(iface(cfg, pos->ifs[p]), "tx-queue"), qkey);
		if (no)
			jput(q, "no-priority", cJSON_CreateTrue());
		else
			del_key(q, "no-priority");
	}
	return 0;
}

/* Drop what an edit left empty, so that rendering and JSON agree. */
static void prune(cJSON *cfg)
{
	cJSON *ifs = jget1(cfg, "interface"), *ifc, *nif;
	for (ifc = ifs ? ifs->child : NULL; ifc; ifc = nif) {
		nif = ifc->next;
		cJSON *tq = jget1(ifc, "tx-queue"), *q, *nq;
		for (q = tq ? tq->child : NULL; q; q = nq) {
			nq = q->next;
			if (!q->child)
				del_key(tq, q->string);
		}
		if (tq && !tq->child)
			del_key(ifc, "tx-queue");
		if (!ifc->child)
			del_key(ifs, ifc->string);
	}
	/* no interface configured and an empty interface table render the same
	 * running-config: keep one state for both */
	if (ifs && !ifs->child)
		del_key(cfg, "interface");
}

int eos_cfg_line(const struct eos_sw *sw, cJSON *cfg, struct eos_pos *pos, int argc, char **argv,
		 struct eos_res *r, bool *unknown)
{
	static const char *const lead[] = {"no", "default", NULL};
	int i = 0;
	*unknown = false;
	if (argc == 0)
		return 0;
	int l = eos_kw(argv[0], lead);
	/* "no" must be spelled out far enough not to be "node..."; EOS takes "no" only */
	if (l == 0 && strcasecmp(argv[0], "no") != 0)
		l = -1;
	if (l >= 0)
		i = 1;
	if (i >= argc) {
		eos_res_invalid(r, argc, argv, i);
		return -1;
	}
	int rc;
	if (pos->mode == EM_CONFIG)
		rc = cfg_global(cfg, pos, argc, argv, i, l == 0, l == 1, r, unknown);
	else if (pos->mode == EM_IF)
		rc = cfg_iface(sw, cfg, pos, argc, argv, i, l == 0, l == 1, r, unknown);
	else
		rc = cfg_txq(cfg, pos, argc, argv, i, l == 0, l == 1, r, unknown);
	prune(cfg);
	return rc;
}

/* ---- rendering ---- */

static void render_iface(const struct eos_sw *sw, const cJSON *ifc, int port, struct sbuf *out)
{
	sb_addf(out, "interface Ethernet%d\n", port);
	if (jstr(ifc, "description", NULL))
		sb_addf(out, "   description %s\n", jstr(ifc, "description", ""));
	if (cJSON_IsTrue(jget1(ifc, "shutdown")))
		sb_adds(out, "   shutdown\n");
	if (jint(ifc, "mtu", 0))
		sb_addf(out, "   mtu %ld\n", jint(ifc, "mtu", 0));
	const char *trust = jstr(ifc, "qos-trust", NULL);
	if (trust && !strcmp(trust, "untrusted"))
		sb_adds(out, "   no qos trust\n");
	else if (trust)
		sb_addf(out, "   qos trust %s\n", trust);
	if (cJSON_IsTrue(jget1(ifc, "pfc")))
		sb_adds(out, "   priority-flow-control on\n");
	for (int p = 0; p < 8; p++) {
		char k[16];
		snprintf(k, sizeof(k), "%d", p);
		const char *a = jstr(jget1(ifc, "pfc-priority"), k, NULL);
		if (a)
			sb_addf(out, "   priority-flow-control priority %d %s\n", p, a);
	}
	if (cJSON_IsTrue(jget1(ifc, "pfc-watchdog")))
		sb_adds(out, "   priority-flow-control pause watchdog\n");
	const cJSON *tq = jget1(ifc, "tx-queue");
	for (int q = 0; q < 8; q++) {
		char k[16];
		snprintf(k, sizeof(k), "%d", q);
		const cJSON *t = jget1(tq, k);
		if (!t)
			continue;
		sb_adds(out, "   !\n");
		sb_addf(out, "   %s %d\n", sw->model->uc_tx_queue ? "uc-tx-queue" : "tx-queue", q);
		if (jint(t, "bandwidth", 0))
			sb_addf(out, "      bandwidth percent %ld\n", jint(t, "bandwidth", 0));
		if (cJSON_IsTrue(jget1(t, "no-priority")))
			sb_adds(out, "      no priority\n");
		const cJSON *e = jget1(t, "ecn");
		if (e) {
			sb_addf(
			    out,
			    "      random-detect ecn minimum-threshold %ld %s maximum-threshold "
			    "%ld %s",
			    jint(e, "min", 0), jstr(e, "min-unit", "bytes"), jint(e, "max", 0),
			    jstr(e, "max-unit", "bytes"));
			if (jget1(e, "probability"))
				sb_addf(out, " max-mark-probability %ld",
					jint(e, "probability", 0));
			if (jget1(e, "weight"))
				sb_addf(out, " weight %ld", jint(e, "weight", 0));
			sb_addc(out, '\n');
		}
		if (cJSON_IsTrue(jget1(t, "ecn-count")))
			sb_adds(out, "      random-detect ecn count\n");
	}
	sb_adds(out, "!\n");
}

/* One line per target value, its sources ascending; whatever the values are (drift may put
 * nonsense there, which loading the text back then refuses). */
static bool render_map(const cJSON *map, const char *fmt, struct sbuf *out)
{
	const cJSON *e;
	long done = -1000000;
	bool any = false;
	for (;;) {
		long to = 1000000;
		cJSON_ArrayForEach(e, map)
		{
			long v = jlong(e, -1000000);
			if (v > done && v < to)
				to = v;
		}
		if (to == 1000000)
			return any;
		struct sbuf l;
		sb_init(&l);
		for (int d = 0; d < 64; d++) {
			char k[16];
			snprintf(k, sizeof(k), "%d", d);
			if (jget1(map, k) && jint(map, k, -1000000) == to)
				sb_addf(&l, " %d", d);
		}
		cJSON_ArrayForEach(e, map)
		{
			if (jlong(e, -1000000) == to &&
			    (!is_uint(e->string) || atol(e->string) > 63))
				sb_addf(&l, " %s", e->string);
		}
		sb_addf(out, fmt, sb_str(&l), to);
		sb_free(&l);
		any = true;
		done = to;
	}
}

void eos_render(const struct eos_sw *sw, const cJSON *cfg, bool header, struct sbuf *out)
{
	if (header) {
		sb_adds(out, "! Command: show running-config\n");
		sb_addf(out, "! device: %s (%s, EOS-%s)\n", jstr(cfg, "hostname", "localhost"),
			sw->model->dcs, sw->model->version);
		sb_adds(out, "!\n");
	}
	sb_addf(out, "hostname %s\n!\n", jstr(cfg, "hostname", "localhost"));
	const cJSON *aaa;
	cJSON_ArrayForEach(aaa, jget1(cfg, "aaa-lines"))
	{
		if (cJSON_IsString(aaa))
			sb_addf(out, "%s\n", aaa->valuestring);
	}
	if (jget1(cfg, "aaa-lines"))
		sb_adds(out, "!\n");
	bool any = false;
	static const char *const keys[] = {"qos-map-cos", "qos-map-dscp", "qos-map-tc-txq"};
	static const char *const fmt[] = {"qos map cos%s to traffic-class %ld\n",
					  "qos map dscp%s to traffic-class %ld\n",
					  "qos map traffic-class%s to tx-queue %ld\n"};
	for (int m = 0; m < 3; m++)
		any |= render_map(jget1(cfg, keys[m]), fmt[m], out);
	if (any)
		sb_adds(out, "!\n");
	const cJSON *wd = jget1(cfg, "pfc-watchdog");
	if (cJSON_IsTrue(jget1(cfg, "pfc-all-off")))
		sb_adds(out, "priority-flow-control all off\n");
	if (jget1(wd, "timeout"))
		sb_addf(out, "priority-flow-control pause watchdog default timeout %.2f\n",
			cJSON_GetNumberValue(jget1(wd, "timeout")));
	if (jget1(wd, "recovery-time"))
		sb_addf(out, "priority-flow-control pause watchdog default recovery-time %.2f\n",
			cJSON_GetNumberValue(jget1(wd, "recovery-time")));
	if (jget1(wd, "polling-interval"))
		sb_addf(out, "priority-flow-control pause watchdog default polling-interval %.3f\n",
			cJSON_GetNumberValue(jget1(wd, "polling-interval")));
	if (jstr(wd, "action", NULL))
		sb_addf(out, "priority-flow-control pause watchdog action %s\n",
			jstr(wd, "action", ""));
	if (wd || cJSON_IsTrue(jget1(cfg, "pfc-all-off")))
		sb_adds(out, "!\n");
	const cJSON *ifs = jget1(cfg, "interface");
	for (int p = 1; p <= EOS_PORTS; p++) {
		char name[32];
		snprintf(name, sizeof(name), "Ethernet%d", p);
		render_iface(sw, jget1(ifs, name), p, out);
	}
	if (header)
		sb_adds(out, "end\n");
}

cJSON *eos_factory_cfg(const char *hostname)
{
	cJSON *cfg = cJSON_CreateObject();
	jput(cfg, "hostname", cJSON_CreateString(hostname));
	return cfg;
}

/* ---- loading text ---- */

static int split_words(char *line, char **w, int max)
{
	int n = 0;
	char *save = NULL;
	for (char *s = strtok_r(line, " \t", &save); s && n < max; s = strtok_r(NULL, " \t", &save))
		w[n++] = s;
	return n;
}

int eos_load(const struct eos_sw *sw, const char *text, cJSON **out, char *err, size_t errlen)
{
	cJSON *cfg = eos_factory_cfg("localhost");
	struct eos_pos pos = {.mode = EM_CONFIG};
	int lineno = 0;
	const char *p = text;
	while (*p) {
		size_t n = strcspn(p, "\n");
		char *line = strndup(p, n);
		if (!line)
			abort();
		p += n + (p[n] == '\n');
		lineno++;
		size_t ind = strspn(line, " ");
		char *w[64];
		int argc = split_words(line + ind, w, 64);
		if (argc == 0 || w[0][0] == '!' || !strcmp(w[0], "end")) {
			free(line);
			continue;
		}
		int level = (int)ind / 3;
		if (level == 0)
			pos.mode = EM_CONFIG;
		else if (level == 1 && pos.mode == EM_TXQ)
			pos.mode = EM_IF;
		if ((level == 1 && pos.mode != EM_IF) || (level == 2 && pos.mode != EM_TXQ) ||
		    level > 2) {
			snprintf(err, errlen, "line %d: '%s' is not inside a block", lineno,
				 line + ind);
			free(line);
			cJSON_Delete(cfg);
			return -1;
		}
		struct eos_res r;
		bool unknown;
		memset(&r, 0, sizeof(r));
		if (eos_cfg_line(sw, cfg, &pos, argc, w, &r, &unknown) < 0) {
			snprintf(err, errlen, "line %d: %s", lineno, r.msg);
			free(line);
			cJSON_Delete(cfg);
			return -1;
		}
		free(line);
	}
	*out = cfg;
	return 0;
}

/* ---- unified diff ---- */

struct lines {
	int n;
	char **v;
};

static void split_lines(const char *s, struct lines *l)
{
	l->n = 0;
	l->v = NULL;
	int cap = 0;
	while (*s) {
		size_t n = strcspn(s, "\n");
		if (l->n == cap) {
			cap = cap ? cap * 2 : 64;
			l->v = realloc(l->v, sizeof(char *) * (size_t)cap);
			if (!l->v)
				abort();
		}
		l->v[l->n++] = strndup(s, n);
		s += n + (s[n] == '\n');
	}
}

static void free_lines(struct lines *l)
{
	for (int i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

void eos_diff(const char *a, const char *b, const char *la, const char *lb, struct sbuf *out)
{
	struct lines x, y;
	split_lines(a, &x);
	split_lines(b, &y);
	int n = x.n, m = y.n;
	/* LCS table: the configs are a few hundred lines */
	int *t = calloc((size_t)(n + 1) * (size_t)(m + 1), sizeof(int));
	if (!t)
		abort();
#define T(i, j) t[(size_t)(i) * (size_t)(m + 1) + (size_t)(j)]
	for (int i = n - 1; i >= 0; i--)
		for (int j = m - 1; j >= 0; j--)
			T(i, j) = strcmp(x.v[i], y.v[j]) == 0  ? T(i + 1, j + 1) + 1
				  : T(i + 1, j) >= T(i, j + 1) ? T(i + 1, j)
							       : T(i, j + 1);
	/* edit script: op per step, with the line numbers */
	int cap = n + m + 1, k = 0;
	char *op = malloc((size_t)cap);
	int *ia = malloc(sizeof(int) * (size_t)cap), *ib = malloc(sizeof(int) * (size_t)cap);
	if (!op || !ia || !ib)
		abort();
	int i = 0, j = 0;
	while (i < n || j < m) {
		if (i < n && j < m && strcmp(x.v[i], y.v[j]) == 0) {
			op[k] = ' ';
			ia[k] = i++;
			ib[k++] = j++;
		} else if (j < m && (i == n || T(i, j + 1) >= T(i + 1, j))) {
			op[k] = '+';
			ia[k] = i;
			ib[k++] = j++;
		} else {
			op[k] = '-';
			ia[k] = i++;
			ib[k++] = j;
		}
	}
#undef T
	free(t);
	bool any = false;
	for (int s = 0; s < k; s++)
		any |= op[s] != ' ';
	if (any)
		sb_addf(out, "--- %s\n+++ %s\n", la, lb);
	const int ctx = 3;
	for (int s = 0; s < k;) {
		if (op[s] == ' ') {
			s++;
			continue;
		}
		int start = s - ctx < 0 ? 0 : s - ctx, end = s;
		/* extend while changes are within 2*ctx of each other */
		for (;;) {
			while (end < k && op[end] != ' ')
				end++;
			int e2 = end;
			while (e2 < k && op[e2] == ' ' && e2 - end < 2 * ctx)
				e2++;
			if (e2 < k && op[e2] != ' ') {
				end = e2;
				continue;
			}
			break;
		}
		int stop = end + ctx > k ? k : end + ctx;
		int a0 = -1, an = 0, b0 = -1, bn = 0;
		for (int q = start; q < stop; q++) {
			if (op[q] != '+') {
				if (a0 < 0)
					a0 = ia[q];
				an++;
			}
			if (op[q] != '-') {
				if (b0 < 0)
					b0 = ib[q];
				bn++;
			}
		}
		if (a0 < 0)
			a0 = ia[start] - 1 < 0 ? 0 : ia[start];
		if (b0 < 0)
			b0 = ib[start] - 1 < 0 ? 0 : ib[start];
		sb_addf(out, "@@ -%d,%d +%d,%d @@\n", an ? a0 + 1 : a0, an, bn ? b0 + 1 : b0, bn);
		for (int q = start; q < stop; q++)
			sb_addf(out, "%c%s\n", op[q], op[q] == '+' ? y.v[ib[q]] : x.v[ia[q]]);
		s = stop;
	}
	free(op);
	free(ia);
	free(ib);
	free_lines(&x);
	free_lines(&y);
}
