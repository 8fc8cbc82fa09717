/* SPDX-License-Identifier: Apache-2.0 */
/* mlx5 knobs outside DCB netlink (mlx5's en_dcbnl.c, drivers/infiniband/hw/mlx5/cong.c,
 * MLNX_OFED's en_ecn.c, drivers/infiniband/core/cma_configfs.c):
 *   - legacy MLNX_OFED trust file  /sys/class/net/IF/qos/trust  ("pcp" | "dscp")
 *   - MLNX_OFED DCQCN enables      /sys/class/net/IF/ecn/roce_{np,rp}/enable/<prio>
 *     and RP/NP parameters          /sys/class/net/IF/ecn/roce_{rp,np}/... (mlx5_ofed_cc.c)
 *     and the CNP marking          /sys/class/net/IF/ecn/roce_np/{cnp_dscp,cnp_802p_prio},
 *     or on upstream kernels       debugfs mlx5/<pci>/cc_params/np_cnp_* (mlx5_cc.c)
 *   - rdma_cm default ToS          /sys/kernel/config/rdma_cm/IBDEV/ports/N/default_roce_tos
 * Upstream mlx5 has none of the OFED files: their groups are then "not controllable here",
 * which the caller reports as such (neither drift nor success). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host.h"

#define PATH_LEN 4096

static int net_path(char *buf, const char *root, const char *ifname, const char *rel)
{
	return rc_host_path(buf, PATH_LEN, root, "sys/class/net/%s/%s", ifname, rel);
}

static void read_qos_trust(const char *root, const char *ifname, struct rc_mlx5_state *st)
{
	char path[PATH_LEN], v[32];

	if (net_path(path, root, ifname, "qos/trust") || rc_host_read(path, v, sizeof(v)) < 0)
		return;
	if (!strcmp(v, "dscp"))
		st->qos_trust = RC_TRUST_DSCP;
	else if (!strcmp(v, "pcp"))
		st->qos_trust = RC_TRUST_PCP;
	else
		return;
	st->has_qos_trust = true;
}

static int read_enable(const char *root, const char *ifname, const char *point, int prio,
		       long long *v)
{
	char path[PATH_LEN], rel[64];

	snprintf(rel, sizeof(rel), "ecn/roce_%s/enable/%d", point, prio);
	if (net_path(path, root, ifname, rel))
		return -ENAMETOOLONG;
	return rc_host_read_ll(path, v);
}

static void read_ecn(const char *root, const char *ifname, struct rc_mlx5_state *st)
{
	char path[PATH_LEN];
	long long np, rp, dscp, prio;

	for (int p = 0; p < RC_NPRIO; p++) {
		if (read_enable(root, ifname, "np", p, &np) ||
		    read_enable(root, ifname, "rp", p, &rp))
			continue;
		st->ecn_prio_mask |= (uint8_t)(1u << p);
		if (np)
			st->np |= (uint8_t)(1u << p);
		if (rp)
			st->rp |= (uint8_t)(1u << p);
	}
	st->has_ecn = st->ecn_prio_mask != 0;
	/* The route the host offers, OFED's first: where both exist they show the same
	 * firmware fields, and OFED's files need no debugfs mount. */
	if (!rc_mlx5_read_ofed_dcqcn(root, ifname, st))
		rc_mlx5_read_cc_dcqcn(root, ifname, st);
	if (net_path(path, root, ifname, "ecn/roce_np/cnp_dscp") || rc_host_read_ll(path, &dscp) ||
	    net_path(path, root, ifname, "ecn/roce_np/cnp_802p_prio") ||
	    rc_host_read_ll(path, &prio) || dscp < 0 || dscp >= RC_NDSCP || prio < 0 ||
	    prio >= RC_NPRIO) {
		/* Upstream kernels: the same firmware fields through debugfs. */
		rc_mlx5_read_cc(root, ifname, st);
		return;
	}
	st->cnp_dscp = (int)dscp;
	st->cnp_prio = (int)prio;
	st->cnp_route = RC_CNP_OFED;
	st->has_cnp = true;
}

/* configfs: the rdma_cm group of a device exists only while someone holds it; like
 * NVIDIA's cma_roce_tos we create it for the access and remove it afterwards (the value
 * lives in the kernel's cma_device and survives the rmdir). */
struct tos_dir {
	char dir[PATH_LEN];
	bool created;
};

static int tos_enter(const char *root, const struct rc_rdma_port *rdma, struct tos_dir *t,
		     char *why, size_t why_len)
{
	char base[PATH_LEN];

	t->created = false;
	if (rc_host_path(base, sizeof(base), root, "sys/kernel/config/rdma_cm") ||
	    rc_host_path(t->dir, sizeof(t->dir), root, "sys/kernel/config/rdma_cm/%s",
			 rdma->ibdev)) {
		snprintf(why, why_len, "path too long");
		return -ENAMETOOLONG;
	}
	if (!rc_host_is_dir(base)) {
		snprintf(why, why_len,
			 "rdma_cm configfs is not available (configfs not mounted or rdma_cm "
			 "not loaded)");
		return -ENOENT;
	}
	if (rc_host_is_dir(t->dir))
		return 0;
	if (mkdir(t->dir, 0755) && errno != EEXIST) {
		int e = errno;

		snprintf(why, why_len, "cannot create '%s': %s", t->dir, strerror(e));
		return -e;
	}
	t->created = true;
	return 0;
}

static void tos_leave(struct tos_dir *t)
{
	if (t->created)
		rmdir(t->dir);
}

static int tos_file(const struct tos_dir *t, const struct rc_rdma_port *rdma, char *buf)
{
	int n = snprintf(buf, PATH_LEN, "%s/ports/%u/default_roce_tos", t->dir, rdma->port);

	return n < 0 || n >= PATH_LEN ? -ENAMETOOLONG : 0;
}

static void read_tos(const char *root, const struct rc_rdma_port *rdma, struct rc_mlx5_state *st)
{
	char path[PATH_LEN];
	struct tos_dir t;
	long long v;
	int rc;

	if (!rdma || !rdma->found) {
		snprintf(st->tos_why, sizeof(st->tos_why), "no RDMA device behind the interface");
		return;
	}
	if (tos_enter(root, rdma, &t, st->tos_why, sizeof(st->tos_why)))
		return;
	rc = tos_file(&t, rdma, path);
	if (!rc)
		rc = rc_host_read_ll(path, &v);
	tos_leave(&t);
	if (rc || v < 0 || v > 255) {
		snprintf(st->tos_why, sizeof(st->tos_why), "cannot read '%s': %s", path,
			 rc ? strerror(-rc) : "out of range");
		return;
	}
	st->roce_tos = (int)v;
	st->has_tos = true;
}

int rc_mlx5_read(const char *root, const char *ifname, const struct rc_rdma_port *rdma,
		 unsigned sections, struct rc_mlx5_state *st, struct rc_err *err)
{
	memset(st, 0, sizeof(*st));
	st->roce_tos = -1;
	if (!rc_host_ifname_ok(ifname))
		return rc_errf(err, EINVAL, "'%s' is not a network interface name", ifname);
	if (sections & RC_HOST_SEC_DCB)
		read_qos_trust(root, ifname, st);
	if (sections & RC_HOST_SEC_ECN)
		read_ecn(root, ifname, st);
	if (sections & RC_HOST_SEC_RDMA)
		read_tos(root, rdma, st);
	return 0;
}

static int write_file(const char *ifname, const char *path, const char *value, struct rc_err *err)
{
	int rc = rc_host_write(path, value);

	if (rc)
		return rc_errf(err, -rc, "'%s': cannot write '%s' to '%s': %s", ifname, value, path,
			       strerror(-rc));
	return 0;
}

int rc_mlx5_write_qos_trust(const char *root, const char *ifname, enum rc_trust t,
			    struct rc_err *err)
{
	char path[PATH_LEN];

	if (net_path(path, root, ifname, "qos/trust"))
		return rc_errf(err, ENAMETOOLONG, "'%s': path too long", ifname);
	return write_file(ifname, path, t == RC_TRUST_DSCP ? "dscp" : "pcp", err);
}

int rc_mlx5_write_ecn(const char *root, const char *ifname, const char *point, uint8_t mask,
		      uint8_t want, struct rc_err *err)
{
	for (int p = 0; p < RC_NPRIO; p++) {
		char path[PATH_LEN], rel[64];
		long long cur;
		bool on = want & (1u << p);
		int rc;

		if (!(mask & (1u << p)))
			continue;
		snprintf(rel, sizeof(rel), "ecn/roce_%s/enable/%d", point, p);
		if (net_path(path, root, ifname, rel))
			return rc_errf(err, ENAMETOOLONG, "'%s': path too long", ifname);
		/* OFED answers EPERM to enabling what is already enabled: read first. */
		rc = rc_host_read_ll(path, &cur);
		if (rc)
			return rc_errf(err, -rc, "'%s': cannot read '%s': %s", ifname, path,
				       strerror(-rc));
		if ((cur != 0) == on)
			continue;
		rc = write_file(ifname, path, on ? "1" : "0", err);
		if (rc)
			return rc;
	}
	return 0;
}

static int write_if_differs(const char *ifname, const char *path, int want, struct rc_err *err)
{
	char v[16];
	long long cur;
	int rc = rc_host_read_ll(path, &cur);

	if (rc)
		return rc_errf(err, -rc, "'%s': cannot read '%s': %s", ifname, path, strerror(-rc));
	if (cur == want)
		return 0;
	snprintf(v, sizeof(v), "%d", want);
	return write_file(ifname, path, v, err);
}

int rc_mlx5_write_cnp(const char *root, const char *ifname, const struct rc_mlx5_state *st,
		      int dscp, int prio, struct rc_err *err)
{
	char path[PATH_LEN];
	int rc;

	if (st->cnp_route == RC_CNP_DEBUGFS)
		return rc_mlx5_write_cc_cnp(root, ifname, st, dscp, prio, err);
	if (st->cnp_route != RC_CNP_OFED)
		return rc_errf(err, EOPNOTSUPP, "'%s': CNP marking is not controllable here (%s)",
			       ifname, st->cnp_why);

	if (net_path(path, root, ifname, "ecn/roce_np/cnp_dscp"))
		return rc_errf(err, ENAMETOOLONG, "'%s': path too long", ifname);
	rc = write_if_differs(ifname, path, dscp, err);
	if (rc)
		return rc;
	if (net_path(path, root, ifname, "ecn/roce_np/cnp_802p_prio"))
		return rc_errf(err, ENAMETOOLONG, "'%s': path too long", ifname);
	return write_if_differs(ifname, path, prio, err);
}

int rc_mlx5_write_tos(const char *root, const struct rc_rdma_port *rdma, int tos,
		      struct rc_err *err)
{
	char path[PATH_LEN], why[160];
	struct tos_dir t;
	int rc;

	if (!rdma->found)
		return rc_errf(err, ENODEV, "no RDMA device to set the rdma_cm ToS of");
	if (tos < 0 || tos > 255)
		return rc_errf(err, EINVAL, "'%s': ToS %d is not a byte", rdma->ibdev, tos);
	rc = tos_enter(root, rdma, &t, why, sizeof(why));
	if (rc)
		return rc_errf(err, -rc, "'%s': %s", rdma->ibdev, why);
	rc = tos_file(&t, rdma, path);
	if (!rc)
		rc = write_if_differs(rdma->ibdev, path, tos, err);
	else
		rc = rc_errf(err, -rc, "'%s': path too long", rdma->ibdev);
	tos_leave(&t);
	return rc;
}
