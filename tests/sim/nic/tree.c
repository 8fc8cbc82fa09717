/* SPDX-License-Identifier: Apache-2.0 */
/* The fake sysfs/configfs tree under DIR/sys, laid out like an mlx5 PF's:
 *   devices/pci0000:00/<bdf>/{vendor,device,driver,net/<if>/...,infiniband/<rdma>/...}
 *   class/net/<if> and class/infiniband/<rdma> as symlinks into devices/
 *   kernel/config/rdma_cm/ with configfs semantics (mkdir creates the port attributes)
 * Files are plain files that the simulator rewrites when the state changes; writes, mkdir and
 * rmdir go through the store functions below (the preload library routes them here). */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nicsim.h"

#define PCI_ROOT "sys/devices/pci0000:00"
#define CFS_ROOT "sys/kernel/config/rdma_cm"
#define DBG_ROOT "sys/kernel/debug/mlx5"

static const char *const ofed_attrs[] = {"ecn/roce_np/cnp_dscp", "ecn/roce_np/cnp_802p_prio",
					 "qos/trust"};

static int mkdirs(const char *path)
{
	char tmp[NS_PATH_MAX];
	ns_pathf(tmp, sizeof(tmp), "%s", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

/* Rewrites a file only when its content changes, atomically, with the temporary file outside
 * the tree so that a reader listing a directory never sees it */
static int put_file(const char *dir, const char *rel, const char *content)
{
	char path[NS_PATH_MAX], tmp[NS_PATH_MAX];
	struct ns_buf old = {0};
	size_t n = strlen(content);

	ns_pathf(path, sizeof(path), "%s/%s", dir, rel);
	if (!ns_read_file(path, &old) && old.len == n && !memcmp(old.p, content, n)) {
		ns_buf_free(&old);
		return 0;
	}
	ns_buf_free(&old);
	ns_pathf(tmp, sizeof(tmp), "%s/.tmp-%ld", dir, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	ssize_t w = write(fd, content, n);
	int err = w == (ssize_t)n ? 0 : -EIO;
	close(fd);
	if (!err && rename(tmp, path) < 0)
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}

static int put_filef(const char *dir, const char *content, const char *relfmt, ...)
    __attribute__((format(printf, 3, 4)));
static int put_filef(const char *dir, const char *content, const char *relfmt, ...)
{
	char rel[NS_PATH_MAX];
	va_list ap;
	va_start(ap, relfmt);
	vsnprintf(rel, sizeof(rel), relfmt, ap);
	va_end(ap);
	return put_file(dir, rel, content);
}

static int put_link(const char *dir, const char *target, const char *rel)
{
	char path[NS_PATH_MAX];
	ns_pathf(path, sizeof(path), "%s/%s", dir, rel);
	if (symlink(target, path) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

static void guid(const uint8_t *mac, char *out, size_t n)
{
	ns_pathf(out, n, "%02x%02x:%02xff:fe%02x:%02x%02x", mac[0], mac[1], mac[2], mac[3], mac[4],
		 mac[5]);
}

/* mlx5 RoCE GID table for one IPv4 address: 0/1 link-local v1/v2, 2/3 IPv4-mapped v1/v2 */
static void gid_text(const struct ns_hw *hw, int slot, char *out, size_t n)
{
	const uint8_t *m = hw->mac;
	const uint8_t *ip = hw->ipv4;
	if (slot == 0 || slot == 1)
		ns_pathf(out, n, "fe80:0000:0000:0000:%02x%02x:%02xff:fe%02x:%02x%02x\n", m[0] ^ 2,
			 m[1], m[2], m[3], m[4], m[5]);
	else if (slot == 2 || slot == 3)
		ns_pathf(out, n, "0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x\n", ip[0], ip[1],
			 ip[2], ip[3]);
	else
		ns_pathf(out, n, "0000:0000:0000:0000:0000:0000:0000:0000\n");
}

static const char *rate_text(uint32_t mbps, char *buf, size_t n)
{
	const char *w = mbps >= 400000	 ? "4X NDR"
			: mbps >= 200000 ? "4X HDR"
			: mbps >= 100000 ? "4X EDR"
			: mbps >= 50000	 ? "2X HDR"
			: mbps >= 25000	 ? "1X EDR"
					 : "1X SDR";
	ns_pathf(buf, n, "%u Gb/sec (%s)\n", mbps / 1000, w);
	return buf;
}

static int create_ib(const char *dir, const struct ns_nic *nic, const char *pcidir)
{
	const struct ns_hw *hw = &nic->hw;
	char ib[NS_PATH_MAX], v[128], g[64];
	int err = 0;

	ns_pathf(ib, sizeof(ib), "%s/infiniband/%s", pcidir, hw->rdma);
	static const char *const sub[] = {"ports/1/gids", "ports/1/gid_attrs/types",
					  "ports/1/gid_attrs/ndevs", "ports/1/hw_counters",
					  "ports/1/counters"};
	for (size_t i = 0; i < sizeof(sub) / sizeof(sub[0]); i++) {
		char p[NS_PATH_MAX];
		ns_pathf(p, sizeof(p), "%s/%s/%s", dir, ib, sub[i]);
		if ((err = mkdirs(p)))
			return err;
	}
	guid(hw->mac, g, sizeof(g));
	ns_pathf(v, sizeof(v), "%s\n", g);
	err |= put_filef(dir, "1: CA\n", "%s/node_type", ib);
	err |= put_filef(dir, v, "%s/node_guid", ib);
	err |= put_filef(dir, v, "%s/sys_image_guid", ib);
	err |= put_filef(dir, "28.39.1002\n", "%s/fw_ver", ib);
	err |= put_filef(dir, "MT4129\n", "%s/hca_type", ib);
	err |= put_filef(dir, "MT_0000000838\n", "%s/board_id", ib);
	err |= put_filef(dir, "0\n", "%s/hw_rev", ib);
	ns_pathf(v, sizeof(v), "nicsim %s\n", hw->rdma);
	err |= put_filef(dir, v, "%s/node_desc", ib);
	err |= put_filef(dir, "4: ACTIVE\n", "%s/ports/1/state", ib);
	err |= put_filef(dir, "5: LinkUp\n", "%s/ports/1/phys_state", ib);
	err |= put_filef(dir, "Ethernet\n", "%s/ports/1/link_layer", ib);
	err |= put_filef(dir, rate_text(hw->speed_mbps, v, sizeof(v)), "%s/ports/1/rate", ib);
	err |= put_filef(dir, "0x0\n", "%s/ports/1/lid", ib);
	err |= put_filef(dir, "0x0\n", "%s/ports/1/sm_lid", ib);
	err |= put_filef(dir, "0\n", "%s/ports/1/lid_mask_count", ib);
	err |= put_filef(dir, "0\n", "%s/ports/1/sm_sl", ib);
	err |= put_filef(dir, "0x04010000\n", "%s/ports/1/cap_mask", ib);
	err |= put_filef(dir, "10\n", "%s/ports/1/hw_counters/lifespan", ib);
	for (int s = 0; s < NS_GID_SLOTS; s++) {
		gid_text(hw, s, v, sizeof(v));
		err |= put_filef(dir, v, "%s/ports/1/gids/%d", ib, s);
		/* empty slots: files exist, reading them fails with EINVAL (the preload does it) */
		const char *type = s >= NS_GID_VALID ? "" : s % 2 ? "RoCE v2\n" : "IB/RoCE v1\n";
		err |= put_filef(dir, type, "%s/ports/1/gid_attrs/types/%d", ib, s);
		ns_pathf(v, sizeof(v), "%s\n", s >= NS_GID_VALID ? "" : hw->ifname);
		err |= put_filef(dir, s >= NS_GID_VALID ? "" : v, "%s/ports/1/gid_attrs/ndevs/%d",
				 ib, s);
	}
	ns_pathf(v, sizeof(v), "../../../%s", hw->pci);
	char link[NS_PATH_MAX];
	ns_pathf(link, sizeof(link), "%s/device", ib);
	err |= put_link(dir, v, link);
	ns_pathf(v, sizeof(v), "../../devices/pci0000:00/%s/infiniband/%s", hw->pci, hw->rdma);
	ns_pathf(link, sizeof(link), "sys/class/infiniband/%s", hw->rdma);
	err |= put_link(dir, v, link);
	return err ? -EIO : 0;
}

int ns_tree_create(const char *dir, const struct ns_nic *nic)
{
	const struct ns_hw *hw = &nic->hw;
	char pcidir[NS_PATH_MAX], net[NS_PATH_MAX], p[NS_PATH_MAX], v[128];
	int err;

	ns_pathf(pcidir, sizeof(pcidir), PCI_ROOT "/%s", hw->pci);
	ns_pathf(net, sizeof(net), "%s/net/%s", pcidir, hw->ifname);
	static const char *const dirs[] = {"sys/class/net", "sys/class/infiniband",
					   "sys/bus/pci/drivers/mlx5_core", CFS_ROOT};
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		ns_pathf(p, sizeof(p), "%s/%s", dir, dirs[i]);
		if ((err = mkdirs(p)))
			return err;
	}
	ns_pathf(p, sizeof(p), "%s/%s", dir, net);
	if ((err = mkdirs(p)))
		return err;
	if (hw->debugfs) {
		ns_pathf(p, sizeof(p), "%s/" DBG_ROOT "/%s/cc_params", dir, hw->pci);
		if ((err = mkdirs(p)))
			return err;
	}
	if (hw->ofed) {
		ns_pathf(p, sizeof(p), "%s/%s/ecn/roce_np/enable", dir, net);
		err |= mkdirs(p);
		ns_pathf(p, sizeof(p), "%s/%s/ecn/roce_rp/enable", dir, net);
		err |= mkdirs(p);
		ns_pathf(p, sizeof(p), "%s/%s/qos", dir, net);
		err |= mkdirs(p);
		if (err)
			return -EIO;
	}

	err |= put_filef(dir, "0x15b3\n", "%s/vendor", pcidir);
	err |= put_filef(dir, "0x1021\n", "%s/device", pcidir);
	err |= put_filef(dir, "0x15b3\n", "%s/subsystem_vendor", pcidir);
	err |= put_filef(dir, "0x0041\n", "%s/subsystem_device", pcidir);
	err |= put_filef(dir, "0x020000\n", "%s/class", pcidir);
	err |= put_filef(dir, "0\n", "%s/numa_node", pcidir);
	ns_pathf(p, sizeof(p), "%s/driver", pcidir);
	err |= put_link(dir, "../../../bus/pci/drivers/mlx5_core", p);
	ns_pathf(v, sizeof(v), "../../../../devices/pci0000:00/%s", hw->pci);
	ns_pathf(p, sizeof(p), "sys/bus/pci/drivers/mlx5_core/%s", hw->pci);
	err |= put_link(dir, v, p);

	ns_pathf(v, sizeof(v), "%02x:%02x:%02x:%02x:%02x:%02x\n", hw->mac[0], hw->mac[1],
		 hw->mac[2], hw->mac[3], hw->mac[4], hw->mac[5]);
	err |= put_filef(dir, v, "%s/address", net);
	err |= put_filef(dir, "ff:ff:ff:ff:ff:ff\n", "%s/broadcast", net);
	err |= put_filef(dir, "6\n", "%s/addr_len", net);
	err |= put_filef(dir, "0x0\n", "%s/dev_id", net);
	err |= put_filef(dir, "0\n", "%s/dev_port", net);
	err |= put_filef(dir, "full\n", "%s/duplex", net);
	err |= put_filef(dir, "0x1003\n", "%s/flags", net);
	err |= put_filef(dir, "up\n", "%s/operstate", net);
	err |= put_filef(dir, "1\n", "%s/carrier", net);
	err |= put_filef(dir, "1\n", "%s/type", net);
	err |= put_filef(dir, "1000\n", "%s/tx_queue_len", net);
	ns_pathf(v, sizeof(v), "%u\n", hw->speed_mbps);
	err |= put_filef(dir, v, "%s/speed", net);
	ns_pathf(v, sizeof(v), "%u\n", hw->ifindex);
	err |= put_filef(dir, v, "%s/ifindex", net);
	err |= put_filef(dir, v, "%s/iflink", net);
	ns_pathf(v, sizeof(v), "../../../%s", hw->pci);
	ns_pathf(p, sizeof(p), "%s/device", net);
	err |= put_link(dir, v, p);
	ns_pathf(v, sizeof(v), "../../devices/pci0000:00/%s/net/%s", hw->pci, hw->ifname);
	ns_pathf(p, sizeof(p), "sys/class/net/%s", hw->ifname);
	err |= put_link(dir, v, p);
	if (err)
		return -EIO;
	if (hw->rdma[0] && (err = create_ib(dir, nic, pcidir)))
		return err;
	return ns_tree_sync(dir, nic);
}

static int cfs_exists(const char *dir, const char *rdma)
{
	char p[NS_PATH_MAX];
	struct stat st;
	ns_pathf(p, sizeof(p), "%s/" CFS_ROOT "/%s/ports/1", dir, rdma);
	return stat(p, &st) == 0;
}

static int sync_cfs(const char *dir, const struct ns_nic *nic)
{
	char v[32];
	int err = 0;
	ns_pathf(v, sizeof(v), "%u\n", nic->cfg.roce_tos);
	err |= put_filef(dir, v, CFS_ROOT "/%s/ports/1/default_roce_tos", nic->hw.rdma);
	err |= put_filef(dir, nic->cfg.roce_mode == NS_ROCE_V1 ? "IB/RoCE v1\n" : "RoCE v2\n",
			 CFS_ROOT "/%s/ports/1/default_roce_mode", nic->hw.rdma);
	return err ? -EIO : 0;
}

/* Rewrites every file whose content follows the state or the counters */
int ns_tree_sync(const char *dir, const struct ns_nic *nic)
{
	const struct ns_hw *hw = &nic->hw;
	const struct ns_cfg *c = &nic->cfg;
	char net[NS_PATH_MAX], v[64];
	int err = 0;

	ns_pathf(net, sizeof(net), PCI_ROOT "/%s/net/%s", hw->pci, hw->ifname);
	ns_pathf(v, sizeof(v), "%u\n", c->mtu);
	err |= put_filef(dir, v, "%s/mtu", net);
	for (size_t i = 0; i < ns_ncounters; i++) {
		const struct ns_cdef *d = &ns_counters[i];
		ns_pathf(v, sizeof(v), "%llu\n", (unsigned long long)nic->cnt.v[i]);
		if (d->kind == NS_CK_LINK)
			err |= put_filef(dir, v, "%s/%s", net, d->name);
		else if (hw->rdma[0] && (d->kind == NS_CK_HW || d->kind == NS_CK_IB))
			err |= put_filef(dir, v, PCI_ROOT "/%s/infiniband/%s/ports/1/%s/%s",
					 hw->pci, hw->rdma,
					 d->kind == NS_CK_HW ? "hw_counters" : "counters", d->name);
	}
	if (hw->ofed) {
		for (int p = 0; p < NS_NPRIO; p++) {
			err |= put_filef(dir, c->ecn_np[p] ? "1\n" : "0\n",
					 "%s/ecn/roce_np/enable/%d", net, p);
			err |= put_filef(dir, c->ecn_rp[p] ? "1\n" : "0\n",
					 "%s/ecn/roce_rp/enable/%d", net, p);
		}
		ns_pathf(v, sizeof(v), "%u\n", c->cnp_dscp);
		err |= put_filef(dir, v, "%s/%s", net, ofed_attrs[0]);
		ns_pathf(v, sizeof(v), "%u\n", c->cnp_prio);
		err |= put_filef(dir, v, "%s/%s", net, ofed_attrs[1]);
		err |=
		    put_filef(dir, c->trust_dscp ? "dscp\n" : "pcp\n", "%s/%s", net, ofed_attrs[2]);
		/* OFED shows the u32 firmware field with "%d" (en_ecn.c) */
		for (int k = 0; k < NS_CC_OFED_N; k++) {
			ns_pathf(v, sizeof(v), "%d\n", (int)ns_cc_get(c, ns_cc_ofed_param(k)));
			err |= put_filef(dir, v, "%s/%s", net, ns_cc_ofed_attr(k));
		}
	}
	if (hw->rdma[0] && cfs_exists(dir, hw->rdma))
		err |= sync_cfs(dir, nic);
	/* get_param prints "%d\n" of the u32 (cong.c) */
	for (int i = 0; hw->debugfs && i < NS_CC_N; i++) {
		ns_pathf(v, sizeof(v), "%d\n", (int)ns_cc_get(c, i));
		err |= put_filef(dir, v, DBG_ROOT "/%s/cc_params/%s", hw->pci, ns_cc_name(i));
	}
	return err ? -EIO : 0;
}

/* Which NIC a netdev, RDMA device or (debugfs) PCI function name belongs to */
static int find_nic(const char *dir, enum ns_area area, const char *dev, struct ns_nic *nic)
{
	char names[NS_MAX_NICS][NS_IFNAMSIZ];
	if (area == NS_AREA_NET)
		return ns_nic_load(dir, dev, nic);
	int n = ns_list_nics(dir, names, NS_MAX_NICS);
	for (int i = 0; i < n; i++) {
		int err = ns_nic_load(dir, names[i], nic);
		if (err)
			return err;
		if (area == NS_AREA_DBG ? !strcmp(nic->hw.pci, dev)
					: nic->hw.rdma[0] && !strcmp(nic->hw.rdma, dev))
			return 0;
	}
	return -ENODEV;
}

/* rel: a canonical path relative to DIR (symlinks resolved) */
int ns_classify(const char *dir, const char *rel, struct ns_where *w)
{
	(void)dir;
	memset(w, 0, sizeof(*w));
	ns_pathf(w->rel, sizeof(w->rel), "%s", rel);
	ns_pathf(w->show, sizeof(w->show), "%s", rel);
	if (strncmp(rel, "sys/", 4) && strcmp(rel, "sys")) {
		w->area = NS_AREA_NONE;
		return 0;
	}
	w->area = NS_AREA_OTHER;
	const char *p;
	if (!strncmp(rel, CFS_ROOT "/", strlen(CFS_ROOT) + 1)) {
		p = rel + strlen(CFS_ROOT) + 1;
		size_t n = strcspn(p, "/");
		if (!n || n >= sizeof(w->dev))
			return 0;
		w->area = NS_AREA_CFS;
		memcpy(w->dev, p, n);
		ns_pathf(w->attr, sizeof(w->attr), "%s", p[n] ? p + n + 1 : "");
		return 0;
	}
	if (!strncmp(rel, DBG_ROOT "/", strlen(DBG_ROOT) + 1)) {
		p = rel + strlen(DBG_ROOT) + 1;
		size_t n = strcspn(p, "/");
		if (!n || n >= sizeof(w->dev))
			return 0;
		w->area = NS_AREA_DBG;
		memcpy(w->dev, p, n);
		ns_pathf(w->attr, sizeof(w->attr), "%s", p[n] ? p + n + 1 : "");
		return 0;
	}
	if (strncmp(rel, PCI_ROOT "/", strlen(PCI_ROOT) + 1))
		return 0;
	p = rel + strlen(PCI_ROOT) + 1;
	p += strcspn(p, "/"); /* the PCI function */
	if (*p != '/')
		return 0;
	p++;
	enum ns_area area;
	if (!strncmp(p, "net/", 4)) {
		area = NS_AREA_NET;
		p += 4;
	} else if (!strncmp(p, "infiniband/", 11)) {
		area = NS_AREA_IB;
		p += 11;
	} else {
		return 0;
	}
	size_t n = strcspn(p, "/");
	if (!n || n >= sizeof(w->dev))
		return 0;
	w->area = area;
	memcpy(w->dev, p, n);
	ns_pathf(w->attr, sizeof(w->attr), "%s", p[n] ? p + n + 1 : "");
	ns_pathf(w->show, sizeof(w->show), "sys/class/%s/%s%s%s",
		 area == NS_AREA_NET ? "net" : "infiniband", w->dev, w->attr[0] ? "/" : "",
		 w->attr);
	return 0;
}

static int eperm_fault(const char *dir, const struct ns_where *w)
{
	struct ns_faults f;
	if (ns_faults_load(dir, &f))
		return 0;
	for (int i = 0; i < f.n_eperm; i++)
		if (!strcmp(f.eperm[i], w->rel))
			return 1;
	return 0;
}

static int net_attr_writable(const struct ns_nic *nic, const char *attr)
{
	if (!strcmp(attr, "mtu"))
		return 1;
	if (!nic->hw.ofed)
		return 0;
	for (size_t i = 0; i < sizeof(ofed_attrs) / sizeof(ofed_attrs[0]); i++)
		if (!strcmp(attr, ofed_attrs[i]))
			return 1;
	if (ns_cc_ofed_index(attr) >= 0)
		return 1;
	int prio;
	char tail;
	return (sscanf(attr, "ecn/roce_np/enable/%d%c", &prio, &tail) == 1 ||
		sscanf(attr, "ecn/roce_rp/enable/%d%c", &prio, &tail) == 1) &&
	       prio >= 0 && prio < NS_NPRIO;
}

static int cfs_attr(const char *attr)
{
	if (!strcmp(attr, "ports/1/default_roce_tos"))
		return 1;
	if (!strcmp(attr, "ports/1/default_roce_mode"))
		return 2;
	return 0;
}

/* May this path be opened for writing?  sysfs answers EACCES for read-only attributes */
int ns_tree_open_write(const char *dir, const struct ns_where *w, int exists)
{
	struct ns_nic nic;
	int err = 0;
	int lock = ns_lock(dir);
	if (lock < 0)
		return lock;
	if (eperm_fault(dir, w)) {
		err = -EPERM;
	} else if (!exists) {
		err = -EACCES;
	} else if (w->area == NS_AREA_NET) {
		err = find_nic(dir, w->area, w->dev, &nic);
		if (!err && !net_attr_writable(&nic, w->attr))
			err = -EACCES;
	} else if (w->area == NS_AREA_CFS) {
		err = cfs_attr(w->attr) ? 0 : -EACCES;
	} else if (w->area == NS_AREA_DBG) {
		err = find_nic(dir, w->area, w->dev, &nic);
		if (!err && (strncmp(w->attr, "cc_params/", 10) || ns_cc_index(w->attr + 10) < 0))
			err = -EACCES;
	} else {
		err = -EACCES;
	}
	if (err)
		ns_log(dir, "write %s (open) -> -%s", w->show, ns_errname(err));
	ns_unlock(lock);
	return err;
}

/* kstrtoull(): optional '+', base 0 (0x hex, 0 octal), one trailing newline, nothing else */
static int kstrtoull(const char *buf, size_t len, uint64_t max, uint64_t *out)
{
	char s[32];
	if (len && buf[len - 1] == '\n')
		len--;
	if (!len || len >= sizeof(s))
		return -EINVAL;
	memcpy(s, buf, len);
	s[len] = 0;
	const char *p = s + (s[0] == '+');
	unsigned base = 10;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && p[2]) {
		base = 16;
		p += 2;
	} else if (p[0] == '0' && p[1]) {
		base = 8;
		p++;
	}
	if (!*p)
		return -EINVAL;
	uint64_t v = 0;
	for (; *p; p++) {
		unsigned d;
		if (*p >= '0' && *p <= '9')
			d = (unsigned)(*p - '0');
		else if (*p >= 'a' && *p <= 'f')
			d = (unsigned)(*p - 'a' + 10);
		else if (*p >= 'A' && *p <= 'F')
			d = (unsigned)(*p - 'A' + 10);
		else
			return -EINVAL;
		if (d >= base)
			return -EINVAL;
		if (v > (UINT64_MAX - d) / base)
			return -ERANGE;
		v = v * base + d;
	}
	if (v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

/* sysfs_streq(): equal but for one trailing newline */
static int streq_nl(const char *buf, size_t len, const char *want)
{
	if (len && buf[len - 1] == '\n')
		len--;
	return len == strlen(want) && !memcmp(buf, want, len);
}

/* OFED parses with sscanf("%d") */
static int scan_int(const char *buf, size_t len, int *out)
{
	char s[64];
	if (len >= sizeof(s))
		return -EINVAL;
	memcpy(s, buf, len);
	s[len] = 0;
	return sscanf(s, "%d", out) == 1 ? 0 : -EINVAL;
}

static int store_net(struct ns_nic *nic, const char *attr, const char *buf, size_t len)
{
	struct ns_cfg *c = &nic->cfg;
	uint64_t v;
	int iv, prio, err;
	char tail;

	if (!strcmp(attr, "mtu")) {
		if ((err = kstrtoull(buf, len, UINT32_MAX, &v)))
			return err;
		if (v < 68 || v > nic->hw.max_mtu)
			return -EINVAL;
		c->mtu = (uint32_t)v;
	} else if (!strcmp(attr, "qos/trust")) {
		if (streq_nl(buf, len, "dscp")) {
			/* like the driver's boot path in DSCP trust: list the whole firmware map */
			if (!c->dscp_listed)
				c->dscp_listed = UINT64_MAX;
			c->trust_dscp = 1;
		} else if (streq_nl(buf, len, "pcp")) {
			c->dscp_listed = 0;
			c->trust_dscp = 0;
		} else {
			return -EINVAL;
		}
	} else if (!strcmp(attr, ofed_attrs[0]) || !strcmp(attr, ofed_attrs[1])) {
		int is_dscp = attr[strlen(attr) - 1] == 'p';
		if ((err = scan_int(buf, len, &iv)))
			return err;
		if (iv < 0 || iv > (is_dscp ? 63 : 7))
			return -EINVAL;
		*(is_dscp ? &c->cnp_dscp : &c->cnp_prio) = (uint32_t)iv;
	} else if (ns_cc_ofed_index(attr) >= 0) {
		return ns_cc_ofed_store(nic, ns_cc_ofed_index(attr), buf, len);
	} else if (sscanf(attr, "ecn/roce_%*[nr]p/enable/%d%c", &prio, &tail) == 1) {
		uint8_t *en = (attr[9] == 'n' ? c->ecn_np : c->ecn_rp);
		if ((err = scan_int(buf, len, &iv)))
			return err;
		if (iv != 0 && iv != 1)
			return -EINVAL;
		/* OFED quirk: enabling an enabled priority is refused; read before writing */
		if (iv == 1 && en[prio])
			return -EPERM;
		en[prio] = (uint8_t)iv;
	} else {
		return -EACCES;
	}
	nic->cfg_dirty = 1;
	return 0;
}

static int store_cfs(struct ns_nic *nic, const char *attr, const char *buf, size_t len)
{
	uint64_t v;
	int err;
	switch (cfs_attr(attr)) {
	case 1: /* kstrtou8(buf, 0) */
		if ((err = kstrtoull(buf, len, 255, &v)))
			return err;
		nic->cfg.roce_tos = (uint8_t)v;
		break;
	case 2:
		if (streq_nl(buf, len, "RoCE v2"))
			nic->cfg.roce_mode = NS_ROCE_V2;
		else if (streq_nl(buf, len, "IB/RoCE v1"))
			nic->cfg.roce_mode = NS_ROCE_V1;
		else
			return -EINVAL;
		break;
	default:
		return -EACCES;
	}
	nic->cfg_dirty = 1;
	return 0;
}

static void printable(const char *buf, size_t len, char *out, size_t n)
{
	size_t o = 0;
	if (len && buf[len - 1] == '\n')
		len--;
	out[o++] = '"';
	for (size_t i = 0; i < len && o + 6 < n; i++) {
		unsigned char ch = (unsigned char)buf[i];
		if (ch >= 0x20 && ch < 0x7f && ch != '"' && ch != '\\')
			out[o++] = (char)ch;
		else
			o += (size_t)snprintf(out + o, n - o, "\\x%02x", ch);
	}
	out[o++] = '"';
	out[o] = 0;
}

int ns_tree_store(const char *dir, const struct ns_where *w, const char *buf, size_t len)
{
	struct ns_nic nic;
	char shown[96];
	int lock = ns_lock(dir);
	if (lock < 0)
		return lock;
	int err = find_nic(dir, w->area == NS_AREA_CFS ? NS_AREA_IB : w->area, w->dev, &nic);
	if (!err) {
		if (w->area == NS_AREA_NET)
			err = store_net(&nic, w->attr, buf, len);
		else if (w->area == NS_AREA_CFS)
			err = store_cfs(&nic, w->attr, buf, len);
		else if (w->area == NS_AREA_DBG && !strncmp(w->attr, "cc_params/", 10))
			err = ns_cc_store(&nic, w->attr + 10, buf, len);
		else
			err = -EACCES;
	}
	if (!err)
		err = ns_nic_save(dir, &nic);
	printable(buf, len, shown, sizeof(shown));
	if (err)
		ns_log(dir, "write %s %s -> -%s", w->show, shown, ns_errname(err));
	else
		ns_log(dir, "write %s %s -> 0", w->show, shown);
	ns_unlock(lock);
	return err;
}

/* Before a read: 1 when the read must fail with EINVAL (an empty GID slot's attributes),
 * and under the counters-grow fault, advances the counter being read */
int ns_tree_read_special(const char *dir, const struct ns_where *w)
{
	int slot;
	char tail, name[64];
	if (w->area != NS_AREA_IB)
		return 0;
	if ((sscanf(w->attr, "ports/1/gid_attrs/types/%d%c", &slot, &tail) == 1 ||
	     sscanf(w->attr, "ports/1/gid_attrs/ndevs/%d%c", &slot, &tail) == 1) &&
	    slot >= NS_GID_VALID)
		return 1;
	if (sscanf(w->attr, "ports/1/hw_counters/%63s", name) != 1 &&
	    sscanf(w->attr, "ports/1/counters/%63s", name) != 1)
		return 0;
	int idx = ns_counter_index(name);
	if (idx < 0)
		return 0;
	struct ns_faults f;
	struct ns_nic nic;
	int lock = ns_lock(dir);
	if (lock < 0)
		return 0;
	/* a moving counter (rates.c) is rewritten with its value as of now; the host's
	 * marker file says whether any counter moves, so that other reads stay cheap */
	char marker[NS_PATH_MAX];
	ns_pathf(marker, sizeof(marker), "%s/%s", dir, NS_RATES_MARKER);
	int moving = access(marker, F_OK) == 0;
	if (!ns_faults_load(dir, &f) && (f.grow || moving) &&
	    !find_nic(dir, NS_AREA_IB, w->dev, &nic) &&
	    ((f.grow && ns_counters_grow(&nic, &f, -1, idx)) || nic.acc.v[idx]))
		ns_nic_save(dir, &nic);
	ns_unlock(lock);
	return 0;
}

static int rm_cfs(const char *dir, const char *rdma)
{
	char p[NS_PATH_MAX];
	static const char *const files[] = {"ports/1/default_roce_tos",
					    "ports/1/default_roce_mode"};
	for (size_t i = 0; i < 2; i++) {
		ns_pathf(p, sizeof(p), "%s/" CFS_ROOT "/%s/%s", dir, rdma, files[i]);
		unlink(p);
	}
	static const char *const dirs[] = {"ports/1", "ports", ""};
	for (size_t i = 0; i < 3; i++) {
		ns_pathf(p, sizeof(p), "%s/" CFS_ROOT "/%s/%s", dir, rdma, dirs[i]);
		if (rmdir(p) < 0)
			return -errno;
	}
	return 0;
}

/* configfs: mkdir rdma_cm/<ibdev> makes ports/<n>/default_roce_{tos,mode} appear, with the
 * values the kernel keeps in its cma_device (they survive rmdir) */
int ns_tree_mkdir(const char *dir, const struct ns_where *w)
{
	struct ns_nic nic;
	char p[NS_PATH_MAX];
	int lock = ns_lock(dir);
	if (lock < 0)
		return lock;
	int err = 0;
	if (eperm_fault(dir, w))
		err = -EPERM;
	else if (w->area != NS_AREA_CFS || w->attr[0])
		err = -EPERM;
	else if (find_nic(dir, NS_AREA_IB, w->dev, &nic))
		err = -ENODEV;
	else if (cfs_exists(dir, w->dev))
		err = -EEXIST;
	if (!err) {
		ns_pathf(p, sizeof(p), "%s/" CFS_ROOT "/%s/ports/1", dir, w->dev);
		err = mkdirs(p);
		if (!err)
			err = sync_cfs(dir, &nic);
	}
	ns_log(dir, "mkdir %s -> %s%s", w->show, err ? "-" : "", err ? ns_errname(err) : "0");
	ns_unlock(lock);
	return err;
}

int ns_tree_rmdir(const char *dir, const struct ns_where *w)
{
	int lock = ns_lock(dir);
	if (lock < 0)
		return lock;
	int err = 0;
	if (eperm_fault(dir, w))
		err = -EPERM;
	else if (w->area != NS_AREA_CFS || w->attr[0])
		err = -EPERM; /* sysfs directories and configfs default groups */
	else if (!cfs_exists(dir, w->dev))
		err = -ENOENT;
	else
		err = rm_cfs(dir, w->dev);
	ns_log(dir, "rmdir %s -> %s%s", w->show, err ? "-" : "", err ? ns_errname(err) : "0");
	ns_unlock(lock);
	return err;
}
