/* SPDX-License-Identifier: Apache-2.0 */
/* NVUE's per-port QoS counters (`nv show interface swpN counters qos -o json`) into the
 * vendor-neutral counter list: PFC pause frames per switch priority; buffer and WRED
 * discards and ECN marks per traffic class.
 *
 * The nesting is what NVIDIA's own switch tests read: a sub-object's map is keyed directly
 * by traffic class (sonic-mgmt fork, ngts/cli_wrappers/nvue/nvue_interface_clis.py,
 * get_interface_queue_counters: `output[queue]["tx-frames"]`), and scripts that read a
 * real SN5600 take `egress-queue-stats` -> <tc> -> `ecn-marked-frames`,
 * `tx-uc-buffer-discards` and `wred-discards` from the combined command the same way.
 * `tx-uc-buffer-discards` counts frames: the table view prints it with a byte suffix
 * (NVUE reference, Show Commands, QoS: "0 Bytes"), but the JSON value is a frame count.
 * The older reading, a wrapper object keyed "traffic-class" / "switch-priority", is still
 * accepted; any other nesting is an error naming the path, never an empty read.  Switch
 * output is untrusted: values that are not non-negative integers are skipped. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "nvue.h"

static bool count_of(const cJSON *o, const char *key, uint64_t *v)
{
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!cJSON_IsNumber(n) || !isfinite(n->valuedouble) || n->valuedouble < 0 ||
	    n->valuedouble > 1.8e19)
		return false;
	*v = (uint64_t)n->valuedouble;
	return true;
}

/* A decimal key ("3"): its value, -1 when the key is not a number at all. */
static long number_key(const char *key)
{
	char *end;
	long i;

	if (!key || key[0] < '0' || key[0] > '9' || strlen(key) > 6)
		return -1;
	i = strtol(key, &end, 10);
	return *end ? -1 : i;
}

static int add(struct rc_counters *out, const char *port, const char *name, long idx,
	       const char *source, uint64_t v, bool drop)
{
	char n[48];

	if (idx >= 0)
		snprintf(n, sizeof(n), "%s[%ld]", name, idx);
	else
		snprintf(n, sizeof(n), "%s", name);
	return rc_counters_add(out, port, n, source, v, drop) ? -ENOMEM : 0;
}

struct field {
	const char *key, *name;
	bool drop;
};

struct group {
	const char *key;     /* "egress-queue-stats" */
	const char *wrapper; /* the older reading's inner key: "traffic-class" */
	const struct field *fields;
	size_t nf;
};

/* The per-index map of one group, and the source prefix of its entries: `map` keyed by
 * index directly, or `map.<wrapper>` so keyed.  -EPROTO naming the path otherwise. */
static int entries_of(const cJSON *map, const struct group *g, const char *port,
		      const cJSON **entries, char *prefix, size_t plen, struct rc_err *err)
{
	const cJSON *w = cJSON_GetObjectItemCaseSensitive(map, g->wrapper), *e;

	*entries = NULL;
	if (!cJSON_IsObject(map))
		return rc_errf(err, EPROTO, "'%s': counters: %s is not a JSON object", port,
			       g->key);
	if (w && !w->next && w == map->child && cJSON_IsObject(w)) {
		*entries = w;
		snprintf(prefix, plen, "%s.%s", g->key, g->wrapper);
		return 0;
	}
	cJSON_ArrayForEach(e, map)
	{
		if (number_key(e->string) < 0 || !cJSON_IsObject(e))
			return rc_errf(err, EPROTO,
				       "'%s': counters: unknown nesting at %s.%.40s (expected %s "
				       "numbers as keys)",
				       port, g->key, e->string ? e->string : "?", g->wrapper);
	}
	*entries = map;
	snprintf(prefix, plen, "%s", g->key);
	return 0;
}

/* One group's counters; *found counts the values of `only` (a field key) read. */
static int read_group(const cJSON *doc, const struct group *g, const char *port,
		      struct rc_counters *out, const char *only, size_t *found, struct rc_err *err)
{
	const cJSON *map = cJSON_GetObjectItemCaseSensitive(doc, g->key), *entries, *e;
	char prefix[64];
	int rc;

	if (!map)
		return 0; /* a release without this sub-object */
	rc = entries_of(map, g, port, &entries, prefix, sizeof(prefix), err);
	if (rc)
		return rc;
	cJSON_ArrayForEach(e, entries)
	{
		long idx = number_key(e->string);

		if (idx < 0 || idx > 7 || !cJSON_IsObject(e))
			continue;
		for (size_t f = 0; f < g->nf; f++) {
			char src[96];
			uint64_t v;

			if (!count_of(e, g->fields[f].key, &v))
				continue;
			if (only && !strcmp(g->fields[f].key, only))
				(*found)++;
			snprintf(src, sizeof(src), "nv:%s.%ld.%s", prefix, idx, g->fields[f].key);
			if (add(out, port, g->fields[f].name, idx, src, v, g->fields[f].drop))
				return rc_errf(err, ENOMEM, "out of memory");
		}
	}
	return 0;
}

int nvue_parse_counters(const cJSON *doc, const char *port, struct rc_counters *out,
			struct rc_err *err)
{
	static const struct field pfc[] = {
	    {"rx-pause-frames", "pfc_pause_rx", false},
	    {"tx-pause-frames", "pfc_pause_tx", false},
	};
	static const struct field queue[] = {
	    {"tx-uc-buffer-discards", "egress_buffer_discards", true},
	    {"wred-discards", "wred_discards", true},
	    {"ecn-marked-frames", "ecn_marked", false},
	};
	static const struct group pfc_g = {"pfc-stats", "switch-priority", pfc, 2},
				  queue_g = {"egress-queue-stats", "traffic-class", queue, 3};
	const cJSON *tx;
	size_t per_tc_ecn = 0, none = 0;
	uint64_t v;
	int rc;

	if (!cJSON_IsObject(doc))
		return rc_errf(err, EPROTO, "'%s': counters are not a JSON object", port);
	rc = read_group(doc, &pfc_g, port, out, NULL, &none, err);
	if (!rc)
		rc = read_group(doc, &queue_g, port, out, "ecn-marked-frames", &per_tc_ecn, err);
	if (rc)
		return rc;
	/* A port total only where no class says (the port-stats JSON shape is unverified;
	 * counting both would count every mark twice). */
	tx = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "port-stats"),
					      "tx-stats");
	if (!per_tc_ecn && count_of(tx, "ecn-marked-packets", &v) &&
	    add(out, port, "ecn_marked", -1, "nv:port-stats.tx-stats.ecn-marked-packets", v, false))
		return rc_errf(err, ENOMEM, "out of memory");
	return 0;
}
