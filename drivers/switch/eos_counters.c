/* Arista EOS counters (`show priority-flow-control counters` and `show qos interfaces ecn
 * counters queue`, JSON from eAPI or `| json` over SSH) into counters named by meaning.
 * EOS counts PFC frames per port, not per priority; ECN marks are per queue and given as
 * strings ("-" where the queue does not mark).  Untrusted: anything that is not a
 * non-negative integer is skipped. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "eos.h"

static bool count_of(const cJSON *n, uint64_t *v)
{
	if (cJSON_IsNumber(n)) {
		if (!isfinite(n->valuedouble) || n->valuedouble < 0 || n->valuedouble > 1.8e19)
			return false;
		*v = (uint64_t)n->valuedouble;
		return true;
	}
	if (cJSON_IsString(n) && n->valuestring[0] >= '0' && n->valuestring[0] <= '9') {
		char *end;
		unsigned long long x;

		errno = 0;
		x = strtoull(n->valuestring, &end, 10);
		if (*end || errno)
			return false;
		*v = x;
		return true;
	}
	return false;
}

static const cJSON *member(const cJSON *o, const char *a, const char *b)
{
	return cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(o, a), b);
}

int eos_parse_counters(const cJSON *pfc, const cJSON *ecn, const char *port,
		       struct rc_counters *out, struct rc_err *err)
{
	const cJSON *p = member(pfc, "interfaceCounters", port);
	const cJSON *q = cJSON_GetObjectItemCaseSensitive(member(ecn, "intfQueueCounters", port),
							  "queueCounters");
	const cJSON *e;
	uint64_t v;
	int rc = 0;

	if (!cJSON_IsObject(pfc) || !cJSON_IsObject(ecn))
		return rc_errf(err, EPROTO, "'%s': EOS counters are not JSON objects", port);
	if (count_of(cJSON_GetObjectItemCaseSensitive(p, "rxFrames"), &v))
		rc = rc_counters_add(out, port, "pfc_pause_rx",
				     "eos:show priority-flow-control counters.rxFrames", v, false);
	if (!rc && count_of(cJSON_GetObjectItemCaseSensitive(p, "txFrames"), &v))
		rc = rc_counters_add(out, port, "pfc_pause_tx",
				     "eos:show priority-flow-control counters.txFrames", v, false);
	cJSON_ArrayForEach(e, q)
	{
		char name[48], src[96], *end;
		long t;

		if (rc || !e->string)
			break;
		t = strtol(e->string, &end, 10);
		if (*end || end == e->string || t < 0 || t > 7 || !count_of(e, &v))
			continue;
		snprintf(name, sizeof(name), "ecn_marked[%ld]", t);
		snprintf(src, sizeof(src), "eos:show qos interfaces ecn counters queue.%ld", t);
		rc = rc_counters_add(out, port, name, src, v, false);
	}
	return rc ? rc_errf(err, -rc, "out of memory") : 0;
}
