/* SPDX-License-Identifier: Apache-2.0 */
/* Counters that move with time: a congestion state, not a fixed number.
 *
 * st["rates"] maps a counters path (the same dotted path `drift counters:PATH=V` takes,
 * e.g. "swp1.pfc-stats.3.tx-pause-frames") to {"per_s", "since", "base"}:
 * the counter reads base + per_s x (now - since).  Every load of the switch state
 * (sim_switch_open) writes the current values into st["counters"], so every show command
 * and REST read of every dialect sees them move between two samples.  A rate of 0 freezes
 * the counter at its current value and removes the entry. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim.h"

#define RATE_MAX 1e12 /* per second; beyond any port's frame rate */

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int split(const char *path, char *copy, size_t len, char **parts, int max)
{
	if (strlen(path) >= len)
		return -1;
	strcpy(copy, path);
	int n = split_path(copy, '.', parts, max);
	for (int i = 0; i < n; i++)
		if (!*parts[i])
			return -1;
	return n;
}

static double value_at(const cJSON *r, double t)
{
	double since = cJSON_GetNumberValue(jget1(r, "since"));
	double v = cJSON_GetNumberValue(jget1(r, "base")) +
		   cJSON_GetNumberValue(jget1(r, "per_s")) * (t > since ? t - since : 0);
	return isfinite(v) && v >= 0 ? floor(v) : 0;
}

static void put_counter(cJSON *st, const char *path, double v)
{
	char copy[512], *parts[32];
	int n = split(path, copy, sizeof(copy), parts, 32);
	if (n <= 0)
		return;
	cJSON *cnt = jget1(st, "counters");
	if (!cJSON_IsObject(cnt)) {
		cnt = cJSON_CreateObject();
		jput(st, "counters", cnt);
	}
	jset(cnt, (const char *const *)parts, n, cJSON_CreateNumber(v));
}

void sim_rates_apply(cJSON *st)
{
	const cJSON *rates = jget1(st, "rates");
	const cJSON *r;
	double t = now_s();
	cJSON_ArrayForEach(r, rates)
	{
		if (r->string && cJSON_IsObject(r))
			put_counter(st, r->string, value_at(r, t));
	}
}

int sim_rates_set(cJSON *st, const char *spec, char *err, size_t errlen)
{
	char copy[512], *parts[32], *end;
	const char *eq = strchr(spec, '=');
	if (!eq || eq == spec || (size_t)(eq - spec) >= sizeof(copy)) {
		snprintf(err, errlen, "rate: expected PATH=PER_SECOND, got '%s'", spec);
		return -1;
	}
	char path[512];
	memcpy(path, spec, (size_t)(eq - spec));
	path[eq - spec] = '\0';
	double per_s = strtod(eq + 1, &end);
	if (*end || end == eq + 1 || !isfinite(per_s) || per_s < 0 || per_s > RATE_MAX) {
		snprintf(err, errlen, "rate: '%s' is not a rate in 0..1e12 per second", eq + 1);
		return -1;
	}
	int n = split(path, copy, sizeof(copy), parts, 32);
	if (n < 2) {
		snprintf(err, errlen, "rate: bad counters path '%s' (PORT.KEY...)", path);
		return -1;
	}
	cJSON *rates = jget1(st, "rates");
	if (!cJSON_IsObject(rates)) {
		rates = cJSON_CreateObject();
		jput(st, "rates", rates);
	}
	double t = now_s();
	/* the counter as it reads now: the running rate's value, else the stored one */
	const cJSON *old = jget1(rates, path);
	double base =
	    old ? value_at(old, t)
		: (double)jlong(jget(jget1(st, "counters"), (const char *const *)parts, n), 0);
	put_counter(st, path, base);
	if (per_s == 0) {
		cJSON_DeleteItemFromObjectCaseSensitive(rates, path);
		return 0;
	}
	cJSON *r = cJSON_CreateObject();
	jput(r, "per_s", cJSON_CreateNumber(per_s));
	jput(r, "since", cJSON_CreateNumber(t));
	jput(r, "base", cJSON_CreateNumber(base));
	jput(rates, path, r);
	return 0;
}

void sim_rates_clear(cJSON *st)
{
	sim_rates_apply(st);
	jput(st, "rates", cJSON_CreateObject());
}
