/* SPDX-License-Identifier: Apache-2.0 */
/* Where the devices of a fabric disagree, `export` writes what most ports have
 * (engine/plan/export.c) and names the others here, each with the value its own ports
 * mostly hold, so that the reader sees who `plan` with the export would change and to
 * what.  The settings listed are the ones a fabric must agree on for RoCE to be lossless
 * end to end (docs/POLICY.md, "Start from an existing fabric"): trust, the PFC priorities,
 * where RoCE's DSCP goes, the hosts' RoCE ToS and the CNP marking. */
#include <stdio.h>
#include <string.h>

#include "export_dissent.h"

enum field { F_TRUST, F_PFC, F_MAP, F_TOS, F_CNP, F_N };

static const char *const field_name[F_N] = {"trust", "pfc.priorities", "roce", "host.roce_tos",
					    "cnp"};

/* A device's own value of a field: the one most of its ports report (-1: none reports). */
struct own {
	long v[F_N];
};

#define MAX_DISTINCT 8

static long majority(const long *vals, size_t n)
{
	long seen[MAX_DISTINCT];
	size_t cnt[MAX_DISTINCT] = {0}, k = 0, best = 0;

	for (size_t i = 0; i < n; i++) {
		size_t j = 0;

		while (j < k && seen[j] != vals[i])
			j++;
		if (j == k) {
			if (k == MAX_DISTINCT)
				continue;
			seen[k++] = vals[i];
		}
		cnt[j]++;
	}
	for (size_t j = 1; j < k; j++)
		if (cnt[j] > cnt[best])
			best = j;
	return k ? seen[best] : -1;
}

static bool has(const struct port_qos *q, uint32_t group)
{
	return (q->known & group) && !(q->unsupported & group);
}

static void own_values(const struct rc_export_dev *x, int roce_dscp, struct own *o)
{
	long vals[F_N][256];
	size_t n[F_N] = {0};

	for (size_t i = 0; i < x->n_ports && i < 256; i++) {
		const struct port_qos *q = &x->have[i].qos;

		if (has(q, RC_F_TRUST) && q->trust != RC_TRUST_UNSET)
			vals[F_TRUST][n[F_TRUST]++] = q->trust;
		if (has(q, RC_F_PFC))
			vals[F_PFC][n[F_PFC]++] = q->pfc_enabled;
		if (has(q, RC_F_DSCP2PRIO) && (q->dscp_mask & (1ull << roce_dscp)))
			vals[F_MAP][n[F_MAP]++] = q->dscp2prio[roce_dscp];
		if (has(q, RC_F_ROCE_TOS) && q->roce_tos >= 0)
			vals[F_TOS][n[F_TOS]++] = q->roce_tos;
		if (has(q, RC_F_CNP))
			vals[F_CNP][n[F_CNP]++] = (long)q->cnp_dscp << 8 | q->cnp_prio;
	}
	for (int f = 0; f < F_N; f++)
		o->v[f] = majority(vals[f], n[f]);
}

static void show(enum field f, long v, char *buf, size_t len)
{
	size_t o = 0;

	switch (f) {
	case F_TRUST:
		snprintf(buf, len, "%s", v == RC_TRUST_PCP ? "pcp" : "dscp");
		break;
	case F_PFC:
		buf[0] = '\0';
		for (int p = 0; p < 8 && o + 3 < len; p++)
			if (v & (1L << p))
				o += (size_t)snprintf(buf + o, len - o, "%s%d", o ? "," : "[", p);
		snprintf(buf + o, len - o, "%s", o ? "]" : "[]");
		break;
	case F_TOS:
		snprintf(buf, len, "%ld (DSCP %ld)", v, v >> 2);
		break;
	case F_CNP:
		snprintf(buf, len, "DSCP %ld priority %ld", v >> 8, v & 7);
		break;
	default:
		snprintf(buf, len, "priority %ld", v);
	}
}

/* The value the export wrote, as a device would hold it (-1: nothing to compare). */
static long exported(enum field f, const struct rc_export_choice *c)
{
	switch (f) {
	case F_TRUST:
		return c->trust;
	case F_PFC:
		return c->pfc;
	case F_MAP:
		return c->roce_prio;
	case F_TOS:
		return c->tos >= 0 ? c->tos : (long)c->roce_dscp << 2 | 2;
	default:
		return (long)c->cnp_dscp << 8 | c->cnp_prio;
	}
}

static void append(struct rc_export *e, const char *s)
{
	size_t len = strlen(e->notes);

	snprintf(e->notes + len, sizeof(e->notes) - len, "%s", s);
}

void rc_export_dissent(const struct rc_inventory *inv, const struct rc_export_dev *devs, size_t n,
		       const struct rc_export_choice *c, struct rc_export *e)
{
	for (int f = 0; f < F_N; f++) {
		char line[1024], val[64];
		size_t o, shown = 0, more = 0;
		long want = exported((enum field)f, c);

		show((enum field)f, want, val, sizeof(val));
		if (f == F_MAP)
			o = (size_t)snprintf(line, sizeof(line),
					     "# disagree: DSCP %d to %s exported (most ports);",
					     c->roce_dscp, val);
		else
			o = (size_t)snprintf(
			    line, sizeof(line), "# disagree: %s %s exported (%s);", field_name[f],
			    val, f == F_TOS && c->tos < 0 ? "auto, from roce.dscp" : "most ports");
		for (size_t i = 0; i < n; i++) {
			struct own own;

			own_values(&devs[i], c->roce_dscp, &own);
			if (own.v[f] < 0 || own.v[f] == want)
				continue;
			if (shown == 8 || o + 80 >= sizeof(line)) {
				more++;
				continue;
			}
			show((enum field)f, own.v[f], val, sizeof(val));
			o += (size_t)snprintf(line + o, sizeof(line) - o, " %s has %s;",
					      inv->devices[devs[i].index].name, val);
			shown++;
		}
		if (!shown)
			continue;
		if (more)
			o += (size_t)snprintf(line + o, sizeof(line) - o,
					      " and %zu more device(s);", more);
		snprintf(line + o - 1, sizeof(line) - o + 1, "%s\n",
			 " (plan with the export changes them)");
		append(e, line);
	}
}
