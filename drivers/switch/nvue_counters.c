/* NVUE's per-port QoS counters (`nv show interface swpN counters qos -o json`) into the
 * vendor-neutral counter list: PFC pause frames per switch priority, buffer and WRED
 * discards per traffic class (drops), ECN-marked packets.  Switch output is untrusted:
 * anything that is not a non-negative integer where one is expected is skipped, and a
 * document that is not the expected object is an error naming the port. */
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

/* An index key ("3") of a per-priority or per-class map, 0..7. */
static int index_of(const char *key)
{
	char *end;
	long i = strtol(key, &end, 10);

	return *end || end == key || i < 0 || i > 7 ? -1 : (int)i;
}

static int add(struct rc_counters *out, const char *port, const char *name, int idx,
	       const char *source, uint64_t v, bool drop)
{
	char n[48];

	if (idx >= 0)
		snprintf(n, sizeof(n), "%s[%d]", name, idx);
	else
		snprintf(n, sizeof(n), "%s", name);
	return rc_counters_add(out, port, n, source, v, drop);
}

struct field {
	const char *key, *name;
	bool drop;
};

static int per_index(const cJSON *map, const char *port, const char *prefix,
		     const struct field *fields, size_t nf, struct rc_counters *out)
{
	const cJSON *e;
	int rc = 0;

	cJSON_ArrayForEach(e, map)
	{
		int idx = e->string ? index_of(e->string) : -1;

		if (idx < 0 || !cJSON_IsObject(e))
			continue;
		for (size_t f = 0; f < nf && !rc; f++) {
			char src[96];
			uint64_t v;

			if (!count_of(e, fields[f].key, &v))
				continue;
			snprintf(src, sizeof(src), "nv:%s.%d.%s", prefix, idx, fields[f].key);
			rc = add(out, port, fields[f].name, idx, src, v, fields[f].drop);
		}
	}
	return rc;
}

int nvue_parse_counters(const cJSON *doc, const char *port, struct rc_counters *out,
			struct rc_err *err)
{
	static const struct field pfc[] =
	    {
		{"rx-pause-frames", "pfc_pause_rx", false},
		{"tx-pause-frames", "pfc_pause_tx", false},
	    },
				  queue[] = {
				      {"tx-uc-buffer-discards", "egress_buffer_discard_bytes",
				       true},
				      {"wred-discards", "wred_discards", true},
				  };
	const cJSON *tx;
	uint64_t v;
	int rc;

	if (!cJSON_IsObject(doc))
		return rc_errf(err, EPROTO, "'%s': counters are not a JSON object", port);
	rc = per_index(cJSON_GetObjectItemCaseSensitive(
			   cJSON_GetObjectItemCaseSensitive(doc, "pfc-stats"), "switch-priority"),
		       port, "pfc-stats.switch-priority", pfc, 2, out);
	if (!rc)
		rc = per_index(cJSON_GetObjectItemCaseSensitive(
				   cJSON_GetObjectItemCaseSensitive(doc, "egress-queue-stats"),
				   "traffic-class"),
			       port, "egress-queue-stats.traffic-class", queue, 2, out);
	tx = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "port-stats"),
					      "tx-stats");
	if (!rc && count_of(tx, "ecn-marked-packets", &v))
		rc = add(out, port, "ecn_marked", -1, "nv:port-stats.tx-stats.ecn-marked-packets",
			 v, false);
	return rc ? rc_errf(err, -rc, "out of memory") : 0;
}
