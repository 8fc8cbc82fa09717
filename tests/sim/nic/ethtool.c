/* SPDX-License-Identifier: Apache-2.0 */
/* SIOCETHTOOL for simulated netdevs: driver info and the ETH_SS_STATS string set, the way
 * `ethtool -S` asks for them (GSSET_INFO or GDRVINFO, then GSTRINGS, then GSTATS). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include <linux/ethtool.h>

#include "nicsim.h"

static uint32_t n_visible(const struct ns_nic *nic)
{
	uint32_t n = 0;
	for (size_t i = 0; i < ns_ncounters; i++)
		n += (uint32_t)ns_counter_visible(nic, i);
	return n;
}

static int drvinfo(const struct ns_nic *nic, struct ethtool_drvinfo *d)
{
	struct utsname u;
	memset((char *)d + sizeof(d->cmd), 0, sizeof(*d) - sizeof(d->cmd));
	snprintf(d->driver, sizeof(d->driver), "mlx5_core");
	/* mlx5 reports the kernel release as its version */
	snprintf(d->version, sizeof(d->version), "%.31s", uname(&u) ? "6.1.0" : u.release);
	snprintf(d->fw_version, sizeof(d->fw_version), "28.39.1002 (MT_0000000838)");
	snprintf(d->bus_info, sizeof(d->bus_info), "%s", nic->hw.pci);
	d->n_stats = n_visible(nic);
	return 0;
}

static int sset_info(const struct ns_nic *nic, struct ethtool_sset_info *s)
{
	uint64_t mask = s->sset_mask, out = 0;
	uint32_t *data = s->data;
	for (int i = 0; i < 64; i++) {
		if (!((mask >> i) & 1))
			continue;
		if (i == ETH_SS_STATS) {
			out |= 1ULL << i;
			*data++ = n_visible(nic);
		}
	}
	s->sset_mask = out;
	return 0;
}

/* The kernel ignores the caller's count and writes as many as the driver has now; when PFC
 * changed since the caller sized its buffer that overflows it.  The simulator stops at the
 * caller's count instead (0 = trust the current one). */
static uint32_t room(uint32_t asked, uint32_t have)
{
	return asked && asked < have ? asked : have;
}

static int gstrings(const struct ns_nic *nic, struct ethtool_gstrings *g)
{
	if (g->string_set != ETH_SS_STATS)
		return -EOPNOTSUPP;
	uint32_t k = 0, max = room(g->len, n_visible(nic));
	for (size_t i = 0; i < ns_ncounters && k < max; i++) {
		if (!ns_counter_visible(nic, i))
			continue;
		char *slot = (char *)g->data + (size_t)k * ETH_GSTRING_LEN;
		memset(slot, 0, ETH_GSTRING_LEN);
		snprintf(slot, ETH_GSTRING_LEN, "%s", ns_counters[i].name);
		k++;
	}
	g->len = k;
	return 0;
}

static void gstats(const struct ns_nic *nic, struct ethtool_stats *st)
{
	uint32_t k = 0, max = room(st->n_stats, n_visible(nic));
	for (size_t i = 0; i < ns_ncounters && k < max; i++)
		if (ns_counter_visible(nic, i))
			st->data[k++] = nic->cnt.v[i];
	st->n_stats = k;
}

/* data: the ifr_data of the caller (its memory, sized by the caller as for the kernel) */
int ns_ethtool(const char *dir, const char *ifname, void *data)
{
	struct ns_nic nic;
	struct ns_faults f;
	uint32_t cmd;
	int err;

	if (!data)
		return -EFAULT;
	memcpy(&cmd, data, sizeof(cmd));
	switch (cmd) {
	case ETHTOOL_GDRVINFO:
	case ETHTOOL_GSSET_INFO:
	case ETHTOOL_GSTRINGS:
	case ETHTOOL_GSTATS:
		break;
	default:
		return -EOPNOTSUPP; /* link settings etc. are not simulated: read sysfs */
	}
	int lock = ns_lock(dir);
	if (lock < 0)
		return lock;
	err = ns_nic_load(dir, ifname, &nic);
	if (!err)
		err = ns_faults_load(dir, &f);
	if (!err) {
		switch (cmd) {
		case ETHTOOL_GDRVINFO:
			err = drvinfo(&nic, data);
			break;
		case ETHTOOL_GSSET_INFO:
			err = sset_info(&nic, data);
			break;
		case ETHTOOL_GSTRINGS:
			err = gstrings(&nic, data);
			break;
		case ETHTOOL_GSTATS:
			if (ns_counters_grow(&nic, &f, NS_CK_ETH, -1))
				err = ns_nic_save(dir, &nic);
			gstats(&nic, data);
			break;
		}
	}
	ns_unlock(lock);
	return err;
}
