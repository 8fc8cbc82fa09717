/* SPDX-License-Identifier: Apache-2.0 */
/* The host side's files: the --root prefix, RDMA netdev discovery and GIDs, the mlx5
 * OFED knobs (read before write), counter names, and the model view of a NIC. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../drivers/host/host.h"

static char root[256];

static void put(const char *rel, const char *content)
{
	char path[1024], dir[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		snprintf(dir, sizeof(dir), "%.*s", (int)(p - path), path);
		mkdir(dir, 0755);
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(content, f);
	fclose(f);
}

/* What the product's reader (rc_host_read) reads from the simulated sysfs. */
static char *host_read(const char *rel)
{
	static char buf[256];
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	assert_true(rc_host_read(path, buf, sizeof(buf)) >= 0);
	return buf;
}

/* Set a file's mtime far in the past: a later write would move it. */
static void age(const char *rel)
{
	char path[1024];
	struct timespec ts[2] = {{1000, 0}, {1000, 0}};

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	assert_int_equal(utimensat(AT_FDCWD, path, ts, 0), 0);
}

static bool written(const char *rel)
{
	char path[1024];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	assert_int_equal(stat(path, &st), 0);
	return st.st_mtim.tv_sec != 1000;
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "%s/rc-host-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	assert_non_null(mkdtemp(root));
	/* mlx5_0: a ConnectX PF behind eth2; mlx5_1 behind eth1; rxe0: a soft device on eth9
	 * (no device/net, only GID ndevs). */
	put("sys/class/infiniband/mlx5_0/device/net/eth2/ifindex", "4\n");
	put("sys/class/infiniband/mlx5_0/ports/1/state", "4: ACTIVE\n");
	put("sys/class/infiniband/mlx5_0/ports/1/phys_state", "5: LinkUp\n");
	put("sys/class/infiniband/mlx5_0/ports/1/link_layer", "Ethernet\n");
	put("sys/class/infiniband/mlx5_0/ports/1/gids/0",
	    "fe80:0000:0000:0000:0ac0:ebff:fe40:8df2\n");
	put("sys/class/infiniband/mlx5_0/ports/1/gids/1",
	    "fe80:0000:0000:0000:0ac0:ebff:fe40:8df2\n");
	put("sys/class/infiniband/mlx5_0/ports/1/gids/2",
	    "0000:0000:0000:0000:0000:ffff:c0a8:0101\n");
	put("sys/class/infiniband/mlx5_0/ports/1/gids/3",
	    "0000:0000:0000:0000:0000:ffff:c0a8:0101\n");
	put("sys/class/infiniband/mlx5_0/ports/1/gids/10",
	    "0000:0000:0000:0000:0000:0000:0000:0000\n");
	put("sys/class/infiniband/mlx5_0/ports/1/gid_attrs/types/0", "IB/RoCE v1\n");
	put("sys/class/infiniband/mlx5_0/ports/1/gid_attrs/types/1", "RoCE v2\n");
	put("sys/class/infiniband/mlx5_0/ports/1/gid_attrs/types/2", "IB/RoCE v1\n");
	put("sys/class/infiniband/mlx5_0/ports/1/gid_attrs/types/3", "RoCE v2\n");
	put("sys/class/infiniband/mlx5_0/ports/1/gid_attrs/ndevs/0", "eth2\n");
	put("sys/class/infiniband/mlx5_0/ports/1/gid_attrs/ndevs/1", "eth2\n");
	put("sys/class/infiniband/mlx5_0/ports/1/gid_attrs/ndevs/2", "eth2\n");
	put("sys/class/infiniband/mlx5_0/ports/1/gid_attrs/ndevs/3", "eth2\n");
	put("sys/class/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent", "17\n");
	put("sys/class/infiniband/mlx5_0/ports/1/hw_counters/out_of_buffer", "3\n");
	put("sys/class/infiniband/mlx5_1/device/net/eth1/ifindex", "3\n");
	put("sys/class/infiniband/mlx5_1/ports/1/state", "1: DOWN\n");
	put("sys/class/infiniband/rxe0/ports/1/gids/0",
	    "fe80:0000:0000:0000:5054:00ff:fe12:3456\n");
	put("sys/class/infiniband/rxe0/ports/1/gids/1",
	    "0000:0000:0000:0000:0000:ffff:0a00:0205\n");
	put("sys/class/infiniband/rxe0/ports/1/gid_attrs/types/0", "RoCE v2\n");
	put("sys/class/infiniband/rxe0/ports/1/gid_attrs/types/1", "RoCE v2\n");
	put("sys/class/infiniband/rxe0/ports/1/gid_attrs/ndevs/0", "eth9\n");
	put("sys/class/infiniband/rxe0/ports/1/gid_attrs/ndevs/1", "eth9\n");
	/* OFED knobs on eth2 only. */
	for (int p = 0; p < 8; p++) {
		char rel[128];

		snprintf(rel, sizeof(rel), "sys/class/net/eth2/ecn/roce_np/enable/%d", p);
		put(rel, p == 3 ? "1\n" : "0\n");
		snprintf(rel, sizeof(rel), "sys/class/net/eth2/ecn/roce_rp/enable/%d", p);
		put(rel, "0\n");
	}
	put("sys/class/net/eth2/ecn/roce_np/cnp_dscp", "48\n");
	put("sys/class/net/eth2/ecn/roce_np/cnp_802p_prio", "6\n");
	put("sys/class/net/eth2/mtu", "9000\n");
	put("sys/class/net/eth2/speed", "100000\n");
	put("sys/class/net/eth1/mtu", "1500\n");
	put("sys/class/net/eth1/speed", "-1\n");
	put("sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos", "0\n");
	return 0;
}

static int teardown(void **state)
{
	char cmd[512];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

static void root_prefix_paths(void **state)
{
	char p[64];

	(void)state;
	assert_int_equal(rc_host_path(p, sizeof(p), "/", "sys/class/net/%s", "eth0"), 0);
	assert_string_equal(p, "/sys/class/net/eth0");
	assert_int_equal(rc_host_path(p, sizeof(p), "/tmp/x//", "sys/a"), 0);
	assert_string_equal(p, "/tmp/x/sys/a");
	assert_int_equal(rc_host_path(p, sizeof(p), "", "sys"), 0);
	assert_string_equal(p, "/sys");
	assert_int_equal(rc_host_path(p, 8, "/tmp/x", "sys/class"), -ENAMETOOLONG);
}

static void read_is_bounded_and_trimmed(void **state)
{
	char path[1024], small[4];
	long long v;

	(void)state;
	put("f/ok", "  106 \n");
	put("f/big", "0123456789");
	put("f/notnum", "12ab\n");
	snprintf(path, sizeof(path), "%s/f/ok", root);
	assert_int_equal(rc_host_read_ll(path, &v), 0);
	assert_int_equal(v, 106);
	snprintf(path, sizeof(path), "%s/f/big", root);
	assert_int_equal(rc_host_read(path, small, sizeof(small)), -EFBIG);
	snprintf(path, sizeof(path), "%s/f/notnum", root);
	assert_int_equal(rc_host_read_ll(path, &v), -EINVAL);
	snprintf(path, sizeof(path), "%s/f/missing", root);
	assert_int_equal(rc_host_read_ll(path, &v), -ENOENT);
}

static void ifnames_are_checked(void **state)
{
	(void)state;
	assert_true(rc_host_ifname_ok("enp12s0np0"));
	assert_false(rc_host_ifname_ok(""));
	assert_false(rc_host_ifname_ok(".."));
	assert_false(rc_host_ifname_ok("a/b"));
	assert_false(rc_host_ifname_ok("eth0:1"));
	assert_false(rc_host_ifname_ok("eth 0"));
	assert_false(rc_host_ifname_ok("abcdefghijklmnop"));
}

static void discovers_every_rdma_netdev(void **state)
{
	char(*names)[RC_NAME_MAX];
	struct rc_err err = {0};
	size_t n;

	(void)state;
	assert_int_equal(rc_rdma_netdevs(root, &names, &n, &err), 0);
	assert_int_equal(n, 3);
	assert_string_equal(names[0], "eth1");
	assert_string_equal(names[1], "eth2");
	assert_string_equal(names[2], "eth9"); /* rxe: from the GID table's ndevs */
	free(names);
}

static void no_rdma_tree_means_none(void **state)
{
	char(*names)[RC_NAME_MAX];
	struct rc_err err = {0};
	size_t n = 7;

	(void)state;
	assert_int_equal(rc_rdma_netdevs("/nonexistent-rocectl-root", &names, &n, &err), 0);
	assert_int_equal(n, 0);
	free(names);
}

static void gid_table_and_roce_v2_index(void **state)
{
	struct rc_rdma_port *p = malloc(sizeof(*p));
	struct rc_err err = {0};

	(void)state;
	assert_int_equal(rc_rdma_lookup(root, "eth2", p, &err), 0);
	assert_true(p->found);
	assert_string_equal(p->ibdev, "mlx5_0");
	assert_int_equal(p->port, 1);
	rc_rdma_details(root, "eth2", p);
	assert_string_equal(p->state, "4: ACTIVE");
	assert_string_equal(p->source, "sysfs");
	assert_int_equal(p->n_gids, 4); /* the all-zero slot 10 is empty */
	assert_int_equal(p->gids[3].index, 3);
	assert_string_equal(p->gids[3].type, "RoCE v2");
	assert_int_equal(p->roce_v2_ipv4_gid, 3);

	assert_int_equal(rc_rdma_lookup(root, "eth9", p, &err), 0);
	assert_true(p->found);
	assert_string_equal(p->ibdev, "rxe0");
	rc_rdma_details(root, "eth9", p);
	assert_int_equal(p->roce_v2_ipv4_gid, 1);

	assert_int_equal(rc_rdma_lookup(root, "eth7", p, &err), 0);
	assert_false(p->found);
	free(p);
}

static void ofed_knobs_are_read(void **state)
{
	struct rc_rdma_port *p = malloc(sizeof(*p));
	struct rc_mlx5_state st;
	struct rc_err err = {0};

	(void)state;
	rc_rdma_lookup(root, "eth2", p, &err);
	assert_int_equal(rc_mlx5_read(root, "eth2", p, RC_HOST_SEC_ALL, &st, &err), 0);
	assert_true(st.has_ecn);
	assert_int_equal(st.ecn_prio_mask, 0xff);
	assert_int_equal(st.np, 0x08);
	assert_int_equal(st.rp, 0x00);
	assert_true(st.has_cnp);
	assert_int_equal(st.cnp_dscp, 48);
	assert_int_equal(st.cnp_prio, 6);
	assert_true(st.has_tos);
	assert_int_equal(st.roce_tos, 0);
	assert_false(st.has_qos_trust);

	/* Upstream driver: nothing to control, said so. */
	rc_rdma_lookup(root, "eth1", p, &err);
	assert_int_equal(rc_mlx5_read(root, "eth1", p, RC_HOST_SEC_ALL, &st, &err), 0);
	assert_false(st.has_ecn);
	assert_false(st.has_cnp);
	assert_false(st.has_tos);
	assert_non_null(strstr(st.tos_why, "cannot read"));
	free(p);
}

/* OFED answers EPERM to enabling an enabled priority: only differing files are written. */
static void ecn_writes_read_first(void **state)
{
	struct rc_mlx5_state st;
	struct rc_err err = {0};

	(void)state;
	age("sys/class/net/eth2/ecn/roce_np/enable/3");
	age("sys/class/net/eth2/ecn/roce_np/enable/2");
	age("sys/class/net/eth2/ecn/roce_rp/enable/3");
	assert_int_equal(rc_mlx5_write_ecn(root, "eth2", "np", 0x08, 0x08, &err), 0);
	assert_false(written("sys/class/net/eth2/ecn/roce_np/enable/3"));
	assert_false(written("sys/class/net/eth2/ecn/roce_np/enable/2"));
	assert_int_equal(rc_mlx5_write_ecn(root, "eth2", "rp", 0x08, 0x08, &err), 0);
	assert_true(written("sys/class/net/eth2/ecn/roce_rp/enable/3"));
	assert_string_equal(host_read("sys/class/net/eth2/ecn/roce_rp/enable/3"), "1");

	age("sys/class/net/eth2/ecn/roce_np/cnp_dscp");
	assert_int_equal(rc_mlx5_read(root, "eth2", NULL, RC_HOST_SEC_ECN, &st, &err), 0);
	assert_int_equal(st.cnp_route, RC_CNP_OFED);
	assert_int_equal(rc_mlx5_write_cnp(root, "eth2", &st, 48, 5, &err), 0);
	assert_false(written("sys/class/net/eth2/ecn/roce_np/cnp_dscp"));
	assert_string_equal(host_read("sys/class/net/eth2/ecn/roce_np/cnp_802p_prio"), "5");

	assert_int_equal(rc_mlx5_write_ecn(root, "eth1", "np", 0x08, 0x08, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "'eth1': cannot read"));
}

/* Upstream kernels: CNP DSCP/priority in debugfs mlx5/<pci>/cc_params (cong.c), found
 * through the netdev's PCI device; np_cnp_prio is written when the mode ignores it. */
static void cnp_through_debugfs(void **state)
{
	const char *cc = "sys/kernel/debug/mlx5/0000:30:00.0/cc_params";
	char link[1024], rel[256];
	struct rc_mlx5_state st;
	struct rc_err err = {0};

	(void)state;
	put("sys/devices/pci0000:00/0000:30:00.0/net/eth3/mtu", "1500\n");
	snprintf(link, sizeof(link), "%s/sys/class/net/eth3", root);
	mkdir(link, 0755);
	snprintf(link, sizeof(link), "%s/sys/class/net/eth3/device", root);
	assert_int_equal(symlink("../../../devices/pci0000:00/0000:30:00.0", link), 0);
	/* No debugfs: not controllable, and the reason names what is missing. */
	assert_int_equal(rc_mlx5_read(root, "eth3", NULL, RC_HOST_SEC_ECN, &st, &err), 0);
	assert_false(st.has_cnp);
	assert_non_null(strstr(st.cnp_why, "mlx5/0000:30:00.0/cc_params"));
	assert_int_equal(rc_mlx5_write_cnp(root, "eth3", &st, 48, 6, &err), -EOPNOTSUPP);

	snprintf(rel, sizeof(rel), "%s/np_cnp_dscp", cc);
	put(rel, "48\n");
	snprintf(rel, sizeof(rel), "%s/np_cnp_prio_mode", cc);
	put(rel, "1\n");
	snprintf(rel, sizeof(rel), "%s/np_cnp_prio", cc);
	put(rel, "6\n");
	assert_int_equal(rc_mlx5_read(root, "eth3", NULL, RC_HOST_SEC_ECN, &st, &err), 0);
	assert_true(st.has_cnp);
	assert_int_equal(st.cnp_route, RC_CNP_DEBUGFS);
	assert_string_equal(st.pci, "0000:30:00.0");
	assert_int_equal(st.cnp_dscp, 48);
	assert_int_equal(st.cnp_prio, 6);
	assert_int_equal(st.cnp_prio_mode, 1);

	snprintf(rel, sizeof(rel), "%s/np_cnp_dscp", cc);
	age(rel);
	assert_int_equal(rc_mlx5_write_cnp(root, "eth3", &st, 48, 6, &err), 0);
	assert_false(written(rel));
	snprintf(rel, sizeof(rel), "%s/np_cnp_prio", cc);
	assert_true(written(rel));
	assert_string_equal(host_read(rel), "6");
	assert_int_equal(rc_mlx5_write_cnp(root, "eth3", &st, 64, 6, &err), -ERANGE);

	/* Hostile values: out of range is not a reading. */
	snprintf(rel, sizeof(rel), "%s/np_cnp_dscp", cc);
	put(rel, "4294967296\n");
	assert_int_equal(rc_mlx5_read(root, "eth3", NULL, RC_HOST_SEC_ECN, &st, &err), 0);
	assert_false(st.has_cnp);
	put(rel, "\n");
	assert_int_equal(rc_mlx5_read(root, "eth3", NULL, RC_HOST_SEC_ECN, &st, &err), 0);
	assert_false(st.has_cnp);
	put(rel, "64\n");
	assert_int_equal(rc_mlx5_read(root, "eth3", NULL, RC_HOST_SEC_ECN, &st, &err), 0);
	assert_false(st.has_cnp);
}

/* MLNX_OFED's ecn/roce_{rp,np}/ files carry the DCQCN parameters (mlx5_ofed_cc.c): they
 * win over debugfs cc_params where both exist, "%d" shows a u32 above INT_MAX negative,
 * a missing file is not controllable, and writes go to OFED's files only. */
static void dcqcn_through_ofed_sysfs(void **state)
{
	const char *cc = "sys/kernel/debug/mlx5/0000:40:00.0/cc_params";
	const char *rp = "sys/class/net/eth4/ecn/roce_rp";
	uint32_t want[RC_DCQCN_N] = {0};
	char link[1024], rel[256];
	struct rc_mlx5_state st;
	struct rc_err err = {0};

	(void)state;
	put("sys/devices/pci0000:00/0000:40:00.0/net/eth4/mtu", "1500\n");
	snprintf(link, sizeof(link), "%s/sys/class/net/eth4", root);
	mkdir(link, 0755);
	snprintf(link, sizeof(link), "%s/sys/class/net/eth4/device", root);
	assert_int_equal(symlink("../../../devices/pci0000:00/0000:40:00.0", link), 0);
	for (int i = 0; i < RC_DCQCN_N; i++) {
		snprintf(rel, sizeof(rel), "%s/%s", cc, rc_dcqcn_name(i));
		put(rel, "7\n");
	}
	/* debugfs only: that route */
	assert_int_equal(rc_mlx5_read(root, "eth4", NULL, RC_HOST_SEC_ECN, &st, &err), 0);
	assert_true(st.has_dcqcn);
	assert_int_equal(st.dcqcn_route, RC_CNP_DEBUGFS);
	assert_string_equal(rc_cc_route_name(st.dcqcn_route), "debugfs");

	/* OFED files too (rp_min_rate's missing): OFED's route, its values */
	snprintf(rel, sizeof(rel), "%s/rpg_ai_rate", rp);
	put(rel, "5\n");
	snprintf(rel, sizeof(rel), "%s/rpg_byte_reset", rp);
	put(rel, "-1\n");
	assert_string_equal(rc_mlx5_ofed_dcqcn_file(RC_DCQCN_RP_MIN_RATE), "roce_rp/rpg_min_rate");
	for (int i = 0; i < RC_DCQCN_N; i++) {
		const char *f = rc_mlx5_ofed_dcqcn_file(i);

		if (i == RC_DCQCN_RP_AI_RATE || i == RC_DCQCN_RP_BYTE_RESET ||
		    i == RC_DCQCN_RP_MIN_RATE)
			continue;
		snprintf(rel, sizeof(rel), "sys/class/net/eth4/ecn/%s", f);
		put(rel, "11\n");
	}
	assert_int_equal(rc_mlx5_read(root, "eth4", NULL, RC_HOST_SEC_ECN, &st, &err), 0);
	assert_true(st.has_dcqcn);
	assert_int_equal(st.dcqcn_route, RC_CNP_OFED);
	assert_int_equal(st.dcqcn[RC_DCQCN_RP_AI_RATE], 5);
	assert_int_equal(st.dcqcn[RC_DCQCN_RP_BYTE_RESET], 4294967295u);
	assert_int_equal(st.dcqcn[RC_DCQCN_NP_MIN_TIME_BETWEEN_CNPS], 11);
	assert_false(st.dcqcn_mask & (1u << RC_DCQCN_RP_MIN_RATE));

	/* only what differs is written, to OFED's files, a big value as its "%d" form */
	memcpy(want, st.dcqcn, sizeof(want));
	want[RC_DCQCN_RP_AI_RATE] = 10;
	want[RC_DCQCN_RP_HAI_RATE] = 3000000000u;
	want[RC_DCQCN_RP_MIN_RATE] = 9;
	snprintf(rel, sizeof(rel), "%s/rpg_gd", rp);
	age(rel);
	snprintf(rel, sizeof(rel), "%s/rp_ai_rate", cc);
	age(rel);
	assert_int_equal(
	    rc_mlx5_write_cc_dcqcn(root, "eth4", &st, (1u << RC_DCQCN_N) - 1, want, &err), 0);
	assert_false(written(rel));
	snprintf(rel, sizeof(rel), "%s/rpg_gd", rp);
	assert_false(written(rel));
	snprintf(rel, sizeof(rel), "%s/rpg_ai_rate", rp);
	assert_string_equal(host_read(rel), "10");
	snprintf(rel, sizeof(rel), "%s/rpg_hai_rate", rp);
	assert_string_equal(host_read(rel), "-1294967296");
	assert_int_equal(rc_mlx5_read(root, "eth4", NULL, RC_HOST_SEC_ECN, &st, &err), 0);
	assert_int_equal(st.dcqcn[RC_DCQCN_RP_HAI_RATE], 3000000000u);

	/* hostile: out of an int's range, or no number, is not a reading */
	put(rel, "4294967296\n");
	assert_int_equal(rc_mlx5_read(root, "eth4", NULL, RC_HOST_SEC_ECN, &st, &err), 0);
	assert_false(st.has_dcqcn);
	assert_true(st.dcqcn_unreadable);
	assert_non_null(strstr(st.dcqcn_why, "ecn/roce_rp/rpg_hai_rate"));
	put(rel, "fast\n");
	assert_int_equal(rc_mlx5_read(root, "eth4", NULL, RC_HOST_SEC_ECN, &st, &err), 0);
	assert_false(st.has_dcqcn);
	assert_int_equal(rc_mlx5_write_cc_dcqcn(root, "eth4", &st, 1, want, &err), -EOPNOTSUPP);
}

/* debugfs get_param prints the u32 with "%d" too (cong.c). */
static void debugfs_dcqcn_above_int_max(void **state)
{
	const char *cc = "sys/kernel/debug/mlx5/0000:30:00.0/cc_params";
	struct rc_mlx5_state st;
	struct rc_err err = {0};
	char rel[256];

	(void)state;
	snprintf(rel, sizeof(rel), "%s/rp_byte_reset", cc);
	put(rel, "-2\n");
	assert_int_equal(rc_mlx5_read(root, "eth3", NULL, RC_HOST_SEC_ECN, &st, &err), 0);
	assert_true(st.has_dcqcn);
	assert_int_equal(st.dcqcn_route, RC_CNP_DEBUGFS);
	assert_int_equal(st.dcqcn[RC_DCQCN_RP_BYTE_RESET], 4294967294u);
}

static void roce_tos_through_configfs(void **state)
{
	struct rc_rdma_port *p = malloc(sizeof(*p));
	struct rc_err err = {0};

	(void)state;
	rc_rdma_lookup(root, "eth2", p, &err);
	assert_int_equal(rc_mlx5_write_tos(root, p, 106, &err), 0);
	assert_string_equal(host_read("sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos"),
			    "106");
	assert_int_equal(rc_mlx5_write_tos(root, p, 300, &err), -EINVAL);
	free(p);
}

static void counter_names_by_meaning(void **state)
{
	char buf[48];
	bool drop = false;

	(void)state;
	assert_string_equal(
	    rc_host_counter_meaning("ethtool", "rx_prio3_pause", buf, sizeof(buf), &drop),
	    "pfc_pause_rx[3]");
	assert_false(drop);
	assert_string_equal(
	    rc_host_counter_meaning("ethtool", "tx_prio6_pause_duration", buf, sizeof(buf), &drop),
	    "pfc_pause_tx_duration_us[6]");
	assert_string_equal(
	    rc_host_counter_meaning("ethtool", "rx_discards_phy", buf, sizeof(buf), &drop),
	    "rx_port_buffer_discards");
	assert_true(drop);
	assert_null(rc_host_counter_meaning("ethtool", "rx_prio8_pause", buf, sizeof(buf), &drop));
	assert_null(rc_host_counter_meaning("ethtool", "rx_prio3_pausex", buf, sizeof(buf), &drop));
	assert_null(rc_host_counter_meaning("ethtool", "rx_bytes", buf, sizeof(buf), &drop));
	assert_string_equal(
	    rc_host_counter_meaning("hw_counters", "np_cnp_sent", buf, sizeof(buf), &drop),
	    "cnp_sent");
	assert_string_equal(
	    rc_host_counter_meaning("hw_counters", "packet_seq_err", buf, sizeof(buf), &drop),
	    "rdma_packet_seq_errors");
	assert_true(drop);
}

static void hw_counters_keep_their_source(void **state)
{
	struct rc_rdma_port *p = malloc(sizeof(*p));
	struct rc_counters c = {0};
	struct rc_err err = {0};
	bool seen_cnp = false, seen_oob = false;

	(void)state;
	rc_rdma_lookup(root, "eth2", p, &err);
	assert_int_equal(rc_host_rdma_counters(root, "eth2", p, &c, &err), 0);
	for (size_t i = 0; i < c.n; i++) {
		if (!strcmp(c.v[i].name, "cnp_sent")) {
			seen_cnp = true;
			assert_int_equal(c.v[i].value, 17);
			assert_string_equal(c.v[i].source, "hw_counters:mlx5_0/1/np_cnp_sent");
			assert_false(c.v[i].is_drop);
		}
		if (!strcmp(c.v[i].name, "rdma_rx_out_of_buffer")) {
			seen_oob = true;
			assert_true(c.v[i].is_drop);
		}
	}
	assert_true(seen_cnp && seen_oob);
	/* The two present, and mlx5's five optional counters: switched off here, so "not
	 * enabled" with the command that enables them, never a zero. */
	assert_int_equal(c.n, 7);
	for (size_t i = 0; i < c.n; i++) {
		bool optional = !strcmp(c.v[i].name, "ecn_ce_received") ||
				!strcmp(c.v[i].name, "cnp_received") ||
				!strcmp(c.v[i].name, "cnp_transmitted") ||
				!strcmp(c.v[i].name, "rdma_tx_packets") ||
				!strcmp(c.v[i].name, "rdma_rx_packets");

		assert_int_equal(c.v[i].not_enabled, optional);
		if (optional)
			assert_non_null(strstr(c.v[i].source, "rdma statistic set link mlx5_0/1 "
							      "optional-counters "));
	}
	rc_counters_free(&c);
	free(p);
}

/* The model view: the whole DSCP table is known (missing = 0, what mlx5 firmware holds
 * after delapp), trust follows the table, cable length is the PFC delay. */
static void model_view_of_a_nic(void **state)
{
	struct rc_host_port *hp = calloc(1, sizeof(*hp));
	struct port_qos q;

	(void)state;
	hp->mtu = 9000;
	hp->speed_mbps = 100000;
	hp->dcb.has_pfc = hp->dcb.has_buffer = hp->dcb.has_ets = hp->dcb.has_dcbx = true;
	hp->dcb.pfc.pfc_en = 0x08;
	hp->dcb.pfc.delay = 7;
	hp->dcb.buffer.prio2buffer[3] = 1;
	hp->dcb.buffer.buffer_size[0] = 130944;
	hp->dcb.buffer.buffer_size[1] = 156672;
	hp->dcb.dcbx = 0x0d;
	hp->dcb.n_app = 2;
	hp->dcb.app[0] = (struct rc_dcb_app){5, 3, 26};
	hp->dcb.app[1] = (struct rc_dcb_app){5, 6, 48};
	hp->nic.has_tos = true;
	hp->nic.roce_tos = 106;
	rc_host_to_qos(hp, RC_HOST_SEC_ALL, &q);
	assert_int_equal(q.trust, RC_TRUST_DSCP);
	assert_int_equal(q.dscp_mask, ~0ull);
	assert_int_equal(q.dscp2prio[26], 3);
	assert_int_equal(q.dscp2prio[48], 6);
	/* No entry: firmware's default dscp >> 3, not 0 (en_dcbnl.c) -- and DSCP 24-31 then
	 * share RoCE's lossless priority 3: a warning with the list, not drift. */
	assert_int_equal(q.dscp2prio[24], 3);
	assert_int_equal(q.dscp2prio[63], 7);
	assert_true(q.effect.warn & RC_F_DSCP2PRIO);
	assert_false(q.effect.drift & RC_F_DSCP2PRIO);
	assert_non_null(strstr(q.effect.why, "DSCP 24-25,27-31 "));
	assert_true(q.effect.unverified & RC_F_DSCP2PRIO);
	/* The host sized the buffers (prio 3 in buffer 1): the cable length counts. */
	assert_false(q.effect.inert & RC_F_CABLE);
	assert_int_equal(q.pfc_enabled, 0x08);
	assert_int_equal(q.cable_length_m, 7);
	assert_int_equal(q.headroom_bytes[3], 156672);
	assert_int_equal(q.headroom_bytes[0], 130944);
	assert_true(q.dcbx_host);
	assert_int_equal(q.roce_tos, 106);
	assert_int_equal(q.speed_gbps, 100);
	assert_true(q.known & RC_F_TRUST);
	assert_true(q.unsupported & RC_F_NIC_ECN); /* upstream: no OFED ecn/ files */
	assert_true(q.unsupported & RC_F_CNP);
	assert_false(q.known & RC_F_NIC_ECN);

	/* DSCP 24-31 mapped away explicitly: nothing else reaches priority 3. */
	for (int d = 24; d < 32; d++)
		if (d != 26)
			hp->dcb.app[hp->dcb.n_app++] = (struct rc_dcb_app){5, 0, (uint16_t)d};
	rc_host_to_qos(hp, RC_HOST_SEC_ALL, &q);
	assert_false(q.effect.warn & RC_F_DSCP2PRIO);
	assert_int_equal(q.dscp2prio[24], 0);

	/* Firmware-buffer mode (every priority in buffer 0): the cable length is stored
	 * but sizes nothing, so it is "not effective here" (en_dcbnl.c setpfc). */
	hp->dcb.buffer.prio2buffer[3] = 0;
	rc_host_to_qos(hp, RC_HOST_SEC_ALL, &q);
	assert_true(q.effect.inert & RC_F_CABLE);
	assert_non_null(strstr(q.effect.why, "manual-buffer"));
	assert_int_equal(q.cable_length_m, 7);
	/* ...a guess from the layout: the kernel does not report the mode. */
	assert_true(q.effect.unverified & RC_F_CABLE);
	assert_false(q.effect.unverified & (RC_F_PFC | RC_F_ETS | RC_F_TRUST));

	/* CNP priority through debugfs with a mode that ignores it: drift, unverified. */
	hp->nic.has_cnp = true;
	hp->nic.cnp_route = RC_CNP_DEBUGFS;
	hp->nic.cnp_dscp = 48;
	hp->nic.cnp_prio = 6;
	hp->nic.cnp_prio_mode = 1;
	rc_host_to_qos(hp, RC_HOST_SEC_ALL, &q);
	assert_true(q.known & RC_F_CNP);
	assert_true(q.effect.drift & RC_F_CNP);
	assert_true(q.effect.unverified & RC_F_CNP);
	assert_non_null(strstr(q.effect.why, "np_cnp_prio_mode is 1"));
	hp->nic.cnp_prio_mode = 0;
	rc_host_to_qos(hp, RC_HOST_SEC_ALL, &q);
	assert_false(q.effect.drift & RC_F_CNP);
	hp->nic.has_cnp = false;

	/* Empty table: PCP trust, the map is firmware's and no DSCP is a stray. */
	hp->dcb.n_app = 0;
	rc_host_to_qos(hp, RC_HOST_SEC_ALL, &q);
	assert_int_equal(q.trust, RC_TRUST_PCP);
	assert_false(q.effect.drift & RC_F_DSCP2PRIO);

	/* Sections left out are "not controllable in this run", never unknown (drift). */
	rc_host_to_qos(hp, RC_HOST_SEC_RDMA, &q);
	assert_int_equal(q.unsupported & RC_HOST_DCB_GROUPS, RC_HOST_DCB_GROUPS);
	assert_false(q.known & RC_F_PFC);

	/* A NIC without DCB: its groups are not readable at all. */
	hp->dcb_rc = -EOPNOTSUPP;
	rc_host_to_qos(hp, RC_HOST_SEC_ALL, &q);
	assert_false(q.known & RC_HOST_DCB_GROUPS);
	free(hp);
}

static void sections_parse(void **state)
{
	unsigned m;
	char bad[16];

	(void)state;
	assert_int_equal(rc_host_parse_sections("dcb,rdma", &m, bad, sizeof(bad)), 0);
	assert_int_equal(m, RC_HOST_SEC_DCB | RC_HOST_SEC_RDMA);
	assert_int_equal(rc_host_parse_sections("dcb,pfc", &m, bad, sizeof(bad)), -EINVAL);
	assert_string_equal(bad, "pfc");
	assert_int_equal(rc_host_parse_sections("", &m, bad, sizeof(bad)), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(root_prefix_paths),
	    cmocka_unit_test(read_is_bounded_and_trimmed),
	    cmocka_unit_test(ifnames_are_checked),
	    cmocka_unit_test(discovers_every_rdma_netdev),
	    cmocka_unit_test(no_rdma_tree_means_none),
	    cmocka_unit_test(gid_table_and_roce_v2_index),
	    cmocka_unit_test(ofed_knobs_are_read),
	    cmocka_unit_test(ecn_writes_read_first),
	    cmocka_unit_test(cnp_through_debugfs),
	    cmocka_unit_test(dcqcn_through_ofed_sysfs),
	    cmocka_unit_test(debugfs_dcqcn_above_int_max),
	    cmocka_unit_test(roce_tos_through_configfs),
	    cmocka_unit_test(counter_names_by_meaning),
	    cmocka_unit_test(hw_counters_keep_their_source),
	    cmocka_unit_test(model_view_of_a_nic),
	    cmocka_unit_test(sections_parse),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
