/* SPDX-License-Identifier: Apache-2.0 */
/* Counters that move with time (`nicsim rate`): nics/<if>.rates holds one line per moving
 * counter, "NAME PER_SECOND SINCE_MS".  Every load of the NIC adds PER_SECOND x the time
 * since SINCE_MS to the stored counter (and remembers the addition in nic->acc, so that a
 * save keeps storing the base), so ethtool, hw_counters and `nicsim counters` readers see
 * the counter grow between two samples, as on a congested port. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nicsim.h"

#define NS_RATE_MAX 1e12

static uint64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static void rates_path(char *out, size_t n, const char *dir, const char *ifname)
{
	snprintf(out, n, "%s/nics/%s.rates", dir, ifname);
}

struct rate {
	int idx;
	double per_s;
	uint64_t since_ms;
};

/* Parse the rates file into r (at most max); bad lines are skipped. */
static int load(const char *dir, const char *ifname, struct rate *r, int max)
{
	char path[NS_PATH_MAX];
	struct ns_buf b = {0};
	int n = 0;

	rates_path(path, sizeof(path), dir, ifname);
	int err = ns_read_file(path, &b);
	if (err) {
		ns_buf_free(&b);
		return err == -ENOENT ? 0 : err;
	}
	char *save = NULL;
	for (char *line = strtok_r((char *)b.p, "\n", &save); line && n < max;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[64];
		double per_s;
		unsigned long long since;
		if (sscanf(line, "%63s %lf %llu", name, &per_s, &since) != 3 || !isfinite(per_s) ||
		    per_s < 0 || per_s > NS_RATE_MAX)
			continue;
		int idx = ns_counter_index(name);
		if (idx < 0)
			continue;
		r[n++] = (struct rate){idx, per_s, since};
	}
	ns_buf_free(&b);
	return n;
}

int ns_rates_accrue(const char *dir, struct ns_nic *nic)
{
	struct rate r[NS_MAX_COUNTERS];
	int n = load(dir, nic->hw.ifname, r, NS_MAX_COUNTERS);
	uint64_t t = now_ms();

	if (n < 0)
		return n;
	for (int i = 0; i < n; i++) {
		uint64_t add = t > r[i].since_ms
				   ? (uint64_t)(r[i].per_s * (double)(t - r[i].since_ms) / 1000.0)
				   : 0;
		nic->cnt.v[r[i].idx] += add;
		nic->acc.v[r[i].idx] += add;
	}
	return 0;
}

int ns_rates_set(const char *dir, struct ns_nic *nic, const char *name, double per_s)
{
	struct rate r[NS_MAX_COUNTERS];
	char path[NS_PATH_MAX];
	struct ns_buf b = {0};
	int idx = ns_counter_index(name);
	int n = load(dir, nic->hw.ifname, r, NS_MAX_COUNTERS);

	if (idx < 0)
		return -ENOENT;
	if (n < 0)
		return n;
	if (!isfinite(per_s) || per_s < 0 || per_s > NS_RATE_MAX)
		return -EINVAL;
	/* what the counter reads now becomes its stored value */
	nic->acc.v[idx] = 0;
	nic->cnt_dirty = 1;
	for (int i = 0; i < n; i++)
		if (r[i].idx != idx)
			ns_buf_printf(&b, "%s %.17g %llu\n", ns_counters[r[i].idx].name, r[i].per_s,
				      (unsigned long long)r[i].since_ms);
	if (per_s > 0)
		ns_buf_printf(&b, "%s %.17g %llu\n", name, per_s, (unsigned long long)now_ms());
	/* the marker that lets hw_counters reads skip loading the NIC when nothing moves */
	snprintf(path, sizeof(path), "%s/%s", dir, NS_RATES_MARKER);
	if (ns_write_atomic(path, "", 0)) {
		ns_buf_free(&b);
		return -EIO;
	}
	rates_path(path, sizeof(path), dir, nic->hw.ifname);
	int err = b.oom ? -ENOMEM : ns_write_atomic(path, b.p ? (const void *)b.p : "", b.len);
	ns_buf_free(&b);
	return err;
}
