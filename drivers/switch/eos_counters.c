/* SPDX-License-Identifier: Apache-2.0 */
/* Arista EOS counters (`show priority-flow-control counters` at revision 3 and `show qos
 * interfaces ecn counters queue` at revision 1, JSON from eAPI or `| json revision N` over
 * SSH, eos_cmd_revision) into counters named by meaning.  Revision 3 counts PFC frames per
 * port, not per priority (conformance eos/FACTS.md fact 11); ECN marks are per queue and
 * given as strings, "-" where the queue cannot count (fact 14).  Untrusted: anything else
 * that is not a non-negative integer is skipped.
 *
 * A queue that answers "-" has marks that are not countable here: EOS counts them only under
 * `random-detect ecn count` (AVD's ethernet-interfaces.cfg, fact 9), and some ASICs are said
 * to need `hardware counter feature ecn out` too (third-party guides; no Arista source in
 * the kit says which).  Such a queue, and a switch that refuses the ECN command, is reported
 * "not countable", never 0, so that diagnose does not read "no marks" into it. */
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

#define ECN_CMD "show qos interfaces ecn counters queue"

/* ecn_marked[q] for one queue: its count, or "not countable" for "-". */
static int ecn_queue(const cJSON *e, const char *port, struct rc_counters *out)
{
	char name[48], src[96], *end;
	uint64_t v;
	long t;

	t = strtol(e->string, &end, 10);
	if (*end || end == e->string || t < 0 || t > 7)
		return 0;
	snprintf(name, sizeof(name), "ecn_marked[%ld]", t);
	if (cJSON_IsString(e) && !strcmp(e->valuestring, "-")) {
		snprintf(src, sizeof(src), "eos:%s.%ld '-': marks not countable here", ECN_CMD, t);
		return rc_counters_add_disabled(out, port, name, src);
	}
	if (!count_of(e, &v))
		return 0;
	snprintf(src, sizeof(src), "eos:%s.%ld", ECN_CMD, t);
	return rc_counters_add(out, port, name, src, v, false);
}

int eos_parse_counters(const cJSON *pfc, const cJSON *ecn, const char *port,
		       struct rc_counters *out, struct rc_err *err)
{
	const cJSON *ic = cJSON_GetObjectItemCaseSensitive(pfc, "interfaceCounters");
	const cJSON *p = cJSON_GetObjectItemCaseSensitive(ic, port);
	const cJSON *iq = cJSON_GetObjectItemCaseSensitive(ecn, "intfQueueCounters");
	const cJSON *q = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(iq, port), "queueCounters");
	const cJSON *e;
	uint64_t v;
	int rc = 0;

	if (!cJSON_IsObject(pfc) || (ecn && !cJSON_IsObject(ecn)))
		return rc_errf(err, EPROTO, "'%s': EOS counters are not JSON objects", port);
	if (!cJSON_IsObject(ic))
		return rc_errf(err, EPROTO,
			       "'%s': 'show priority-flow-control counters' (revision 3) has no "
			       "interfaceCounters object",
			       port);
	if (p && !cJSON_GetObjectItemCaseSensitive(p, "rxFrames") &&
	    !cJSON_GetObjectItemCaseSensitive(p, "txFrames"))
		return rc_errf(err, EPROTO,
			       "'%s': 'show priority-flow-control counters' lists the port without "
			       "rxFrames/txFrames (not the revision 3 model)",
			       port);
	if (count_of(cJSON_GetObjectItemCaseSensitive(p, "rxFrames"), &v))
		rc = rc_counters_add(out, port, "pfc_pause_rx",
				     "eos:show priority-flow-control counters.rxFrames", v, false);
	if (!rc && count_of(cJSON_GetObjectItemCaseSensitive(p, "txFrames"), &v))
		rc = rc_counters_add(out, port, "pfc_pause_tx",
				     "eos:show priority-flow-control counters.txFrames", v, false);
	/* no ECN answer (the command refused), or none for this port: not countable here */
	if (!rc && (!cJSON_IsObject(iq) || !cJSON_IsObject(q)))
		rc = rc_counters_add_disabled(out, port, "ecn_marked",
					      "eos:" ECN_CMD ": marks not countable here");
	if (!cJSON_IsObject(q))
		q = NULL;
	cJSON_ArrayForEach(e, q)
	{
		if (rc || !e->string)
			break;
		rc = ecn_queue(e, port, out);
	}
	return rc ? rc_errf(err, -rc, "out of memory") : 0;
}

/* "TC3" -> 3..3, "TC0-5" -> 0..5; false for anything else (conformance eos/FACTS.md fact 16:
 * keys can be ranges, which Arista's ANTA resolves with get_value_by_range_key). */
static bool tc_range(const char *key, long *lo, long *hi)
{
	char *end;

	if (strncmp(key, "TC", 2) || key[2] < '0' || key[2] > '9')
		return false;
	*lo = *hi = strtol(key + 2, &end, 10);
	if (*end == '-') {
		const char *b = end + 1;

		if (*b < '0' || *b > '9')
			return false;
		*hi = strtol(b, &end, 10);
	}
	return !*end && *lo >= 0 && *hi >= *lo && *hi <= 7;
}

/* countersSum.droppedPackets of tc[which] as `base[tc]`, or `base[lo-hi]` for a range: the
 * sum of several classes, shown but not given to one class (diagnose reads only base[t]). */
static int tc_drop(const cJSON *tc, const char *which, const char *base, long lo, long hi,
		   const char *port, struct rc_counters *out)
{
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(tc, which),
					     "countersSum"),
	    "droppedPackets");
	char name[48], src[96];
	uint64_t v;

	if (!count_of(n, &v))
		return 0;
	if (lo == hi)
		snprintf(name, sizeof(name), "%s[%ld]", base, lo);
	else
		snprintf(name, sizeof(name), "%s[%ld-%ld]", base, lo, hi);
	snprintf(src, sizeof(src), "eos:show interfaces counters queue drops.%s.%s", tc->string,
		 which);
	return rc_counters_add(out, port, name, src, v, true);
}

int eos_parse_queue_drops(const cJSON *doc, const char *port, struct rc_counters *out,
			  struct rc_err *err)
{
	const cJSON *ifs = cJSON_GetObjectItemCaseSensitive(doc, "interfaces");
	const cJSON *tcs = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(ifs, port), "trafficClasses");
	const cJSON *tc;
	int rc = 0;

	if (!cJSON_IsObject(ifs))
		return rc_errf(
		    err, EPROTO,
		    "'%s': 'show interfaces counters queue drops' has no interfaces object", port);
	if (!cJSON_IsObject(tcs))
		return 0;
	cJSON_ArrayForEach(tc, tcs)
	{
		long lo, hi;

		if (rc || !tc->string || !tc_range(tc->string, &lo, &hi))
			continue;
		rc = tc_drop(tc, "egressQueueCounters", "egress_queue_discards", lo, hi, port, out);
		if (!rc)
			rc = tc_drop(tc, "ingressVoqCounters", "voq_discards", lo, hi, port, out);
	}
	return rc ? rc_errf(err, -rc, "out of memory") : 0;
}
