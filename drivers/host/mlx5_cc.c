/* SPDX-License-Identifier: Apache-2.0 */
/* CNP marking on upstream mlx5: debugfs mlx5/<pci-bdf>/cc_params/
 * (drivers/infiniband/hw/mlx5/cong.c and "Corrections and additions";
 * drivers/infiniband/hw/mlx5/cong.c). np_cnp_dscp       the DSCP of the CNPs this NIC sends (6-bit
 * firmware field) np_cnp_prio_mode  0: CNPs take np_cnp_prio; otherwise firmware does not use it
 *   np_cnp_prio       the 802.1p priority of CNPs (3 bits); writing it sets the mode to 0
 * The files exist only while debugfs is mounted and the HCA allows cc query and modify;
 * they are 0600 (root).  get_param answers "%d\n"; set_param takes at most 11 bytes and
 * parses them with kstrtou32.  MLX5_SET silently keeps only the field's width, so values
 * are range-checked here before writing.  MLNX_OFED's ecn/roce_np/cnp_dscp shows the same
 * firmware fields and is preferred where it exists (mlx5.c). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "host.h"

#define PATH_LEN 4096

/* "../../../0000:10:00.0" -> "0000:10:00.0": a PCI address, nothing else. */
static int pci_of(const char *root, const char *ifname, char *bdf, size_t len)
{
	char path[PATH_LEN], link[PATH_LEN];
	const char *base;
	ssize_t n;

	if (rc_host_path(path, sizeof(path), root, "sys/class/net/%s/device", ifname))
		return -ENAMETOOLONG;
	n = rc_host_readlink(path, link, sizeof(link));
	if (n < 0)
		return (int)n;
	base = strrchr(link, '/') ? strrchr(link, '/') + 1 : link;
	if (!*base || strlen(base) >= len ||
	    strspn(base, "0123456789abcdefABCDEF:.") != strlen(base))
		return -EINVAL;
	snprintf(bdf, len, "%s", base);
	return 0;
}

static int cc_path(char *buf, const char *root, const char *bdf, const char *name)
{
	return rc_host_path(buf, PATH_LEN, root, "sys/kernel/debug/mlx5/%s/cc_params/%s", bdf,
			    name);
}

static int read_u32(const char *root, const char *bdf, const char *name, long long *v)
{
	char path[PATH_LEN];
	int rc = cc_path(path, root, bdf, name);

	if (!rc)
		rc = rc_host_read_ll(path, v);
	if (!rc && (*v < INT32_MIN || *v > UINT32_MAX))
		rc = -ERANGE;
	/* get_param prints the u32 with "%d": a value above INT32_MAX reads negative. */
	if (!rc && *v < 0)
		*v += 1LL << 32;
	return rc;
}

void rc_mlx5_read_cc_dcqcn(const char *root, const char *ifname, struct rc_mlx5_state *st)
{
	char dir[PATH_LEN], bdf[32];

	st->has_dcqcn = false;
	st->dcqcn_unreadable = false;
	st->dcqcn_mask = 0;
	st->dcqcn_route = RC_CNP_NONE;
	if (pci_of(root, ifname, bdf, sizeof(bdf))) {
		snprintf(st->dcqcn_why, sizeof(st->dcqcn_why),
			 "no PCI device behind the interface");
		return;
	}
	if (cc_path(dir, root, bdf, "") || !rc_host_is_dir(dir)) {
		snprintf(st->dcqcn_why, sizeof(st->dcqcn_why),
			 "no OFED ecn/roce_rp sysfs and no debugfs mlx5/%s/cc_params (debugfs "
			 "not mounted, not root, or the HCA does not allow cc changes)",
			 bdf);
		return;
	}
	for (int i = 0; i < RC_DCQCN_N; i++) {
		long long v;
		int rc = read_u32(root, bdf, rc_dcqcn_name(i), &v);

		/* Older kernels lack some files (cong.c's mlx5_ib_dbg_cc_name[] grew over time):
		 * those are not controllable here, the others still are. */
		if (rc == -ENOENT)
			continue;
		if (rc) {
			snprintf(st->dcqcn_why, sizeof(st->dcqcn_why),
				 "cannot read debugfs mlx5/%s/cc_params/%s: %s", bdf,
				 rc_dcqcn_name(i), strerror(-rc));
			st->dcqcn_mask = 0;
			st->dcqcn_unreadable = true;
			st->dcqcn_route = RC_CNP_DEBUGFS;
			return;
		}
		st->dcqcn[i] = (uint32_t)v;
		st->dcqcn_mask |= (uint16_t)(1u << i);
	}
	snprintf(st->pci, sizeof(st->pci), "%s", bdf);
	st->dcqcn_route = RC_CNP_DEBUGFS;
	st->has_dcqcn = true;
}

void rc_mlx5_read_cc(const char *root, const char *ifname, struct rc_mlx5_state *st)
{
	long long dscp, mode, prio;
	char dir[PATH_LEN];
	int rc;

	if (pci_of(root, ifname, st->pci, sizeof(st->pci))) {
		snprintf(st->cnp_why, sizeof(st->cnp_why), "no PCI device behind the interface");
		return;
	}
	if (cc_path(dir, root, st->pci, "") || !rc_host_is_dir(dir)) {
		snprintf(st->cnp_why, sizeof(st->cnp_why),
			 "no OFED ecn/roce_np sysfs and no debugfs mlx5/%s/cc_params (debugfs "
			 "not mounted, not root, or the HCA does not allow cc changes)",
			 st->pci);
		return;
	}
	rc = read_u32(root, st->pci, "np_cnp_dscp", &dscp);
	if (!rc)
		rc = read_u32(root, st->pci, "np_cnp_prio_mode", &mode);
	if (!rc)
		rc = read_u32(root, st->pci, "np_cnp_prio", &prio);
	if (!rc && (dscp >= RC_NDSCP || prio >= RC_NPRIO))
		rc = -ERANGE;
	if (rc) {
		snprintf(st->cnp_why, sizeof(st->cnp_why),
			 "cannot read debugfs mlx5/%s/cc_params/np_cnp_*: %s", st->pci,
			 strerror(-rc));
		return;
	}
	st->cnp_dscp = (int)dscp;
	st->cnp_prio = (int)prio;
	st->cnp_prio_mode = (int)mode;
	st->cnp_route = RC_CNP_DEBUGFS;
	st->has_cnp = true;
}

static int write_cc(const char *ifname, const char *root, const char *bdf, const char *name,
		    uint32_t v, struct rc_err *err)
{
	char path[PATH_LEN], s[16];
	int rc = cc_path(path, root, bdf, name);

	if (rc)
		return rc_errf(err, ENAMETOOLONG, "'%s': path too long", ifname);
	snprintf(s, sizeof(s), "%u", v);
	rc = rc_host_write(path, s);
	if (rc)
		return rc_errf(err, -rc, "'%s': cannot write '%s' to '%s': %s", ifname, s, path,
			       strerror(-rc));
	return 0;
}

int rc_mlx5_write_cc_cnp(const char *root, const char *ifname, const struct rc_mlx5_state *st,
			 int dscp, int prio, struct rc_err *err)
{
	int rc = 0;

	if (dscp < 0 || dscp >= RC_NDSCP || prio < 0 || prio >= RC_NPRIO)
		return rc_errf(err, ERANGE, "'%s': CNP DSCP %d / priority %d out of range", ifname,
			       dscp, prio);
	if (st->cnp_dscp != dscp)
		rc = write_cc(ifname, root, st->pci, "np_cnp_dscp", (uint32_t)dscp, err);
	/* Writing the priority also sets np_cnp_prio_mode to 0, which makes it count. */
	if (!rc && (st->cnp_prio != prio || st->cnp_prio_mode != 0))
		rc = write_cc(ifname, root, st->pci, "np_cnp_prio", (uint32_t)prio, err);
	return rc;
}

/* "%u" of a u32 is at most 10 characters: within set_param's limit. */
int rc_mlx5_write_cc_dcqcn(const char *root, const char *ifname, const struct rc_mlx5_state *st,
			   uint16_t mask, const uint32_t *want, struct rc_err *err)
{
	int rc = 0;

	if (mask && !st->has_dcqcn)
		return rc_errf(err, EOPNOTSUPP,
			       "'%s': DCQCN parameters are not controllable here: %s", ifname,
			       st->dcqcn_why);
	if (st->dcqcn_route == RC_CNP_OFED)
		return rc_mlx5_write_ofed_dcqcn(root, ifname, st, mask, want, err);
	for (int i = 0; !rc && i < RC_DCQCN_N; i++) {
		uint16_t bit = (uint16_t)(1u << i);

		/* No file (older kernel): the plan said "not controllable here". */
		if (!(mask & st->dcqcn_mask & bit))
			continue;
		if (st->dcqcn[i] != want[i])
			rc = write_cc(ifname, root, st->pci, rc_dcqcn_name(i), want[i], err);
	}
	return rc;
}
