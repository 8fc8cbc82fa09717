/* SPDX-License-Identifier: Apache-2.0 */
/* rdma-core's view of a netdev: which RDMA device and port it backs, the port state and
 * the GID table (drivers/infiniband/core/sysfs.c and cache.c).  The sysfs ABI is what rdma-core
 * itself reads and it honours --root; with the real root and a device libibverbs can open, the GID
 * table comes from ibv_query_gid_table() instead (the kernel's answer through uverbs). */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dlfcn.h>
#include <infiniband/verbs.h>

#include "rocectl/util.h"
#include "host.h"

#define IPV4_MAPPED_PREFIX "0000:0000:0000:0000:0000:ffff:"
#define ZERO_GID	   "0000:0000:0000:0000:0000:0000:0000:0000"

static int add_unique(char (**v)[RC_NAME_MAX], size_t *n, size_t *cap, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i], name))
			return 0;
	if (rc_array_reserve((void **)v, cap, *n + 1, sizeof(**v), 8))
		return -ENOMEM;
	snprintf((*v)[(*n)++], RC_NAME_MAX, "%s", name);
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

/* Netdevs named by a port's gid_attrs/ndevs (soft devices such as rxe have no
 * device/net directory). */
static int ndevs_of_port(const char *root, const char *ibdev, const char *port,
			 char (**v)[RC_NAME_MAX], size_t *n, size_t *cap)
{
	char path[4096], name[RC_NAME_MAX];
	char(*ents)[RC_NAME_MAX];
	size_t ne;
	int rc;

	if (rc_host_path(path, sizeof(path), root,
			 "sys/class/infiniband/%s/ports/%s/gid_attrs/ndevs", ibdev, port))
		return 0;
	if (rc_host_list(path, &ents, &ne))
		return 0;
	rc = 0;
	for (size_t i = 0; !rc && i < ne; i++) {
		char f[4096];

		if (rc_host_path(f, sizeof(f), root,
				 "sys/class/infiniband/%s/ports/%s/gid_attrs/ndevs/%s", ibdev, port,
				 ents[i]))
			continue;
		if (rc_host_read(f, name, sizeof(name)) <= 0 || !rc_host_ifname_ok(name))
			continue;
		rc = add_unique(v, n, cap, name);
	}
	free(ents);
	return rc;
}

int rc_rdma_netdevs(const char *root, char (**names)[RC_NAME_MAX], size_t *n, struct rc_err *err)
{
	char path[4096];
	char(*devs)[RC_NAME_MAX] = NULL, (*v)[RC_NAME_MAX] = NULL;
	size_t nd = 0, nv = 0, cap = 0;
	int rc;

	*names = NULL;
	*n = 0;
	if (rc_host_path(path, sizeof(path), root, "sys/class/infiniband"))
		return rc_errf(err, ENAMETOOLONG, "root path too long");
	rc = rc_host_list(path, &devs, &nd);
	if (rc == -ENOENT)
		return 0;
	if (rc)
		return rc_errf(err, -rc, "cannot list '%s': %s", path, strerror(-rc));
	for (size_t i = 0; !rc && i < nd; i++) {
		char(*nets)[RC_NAME_MAX] = NULL, (*ports)[RC_NAME_MAX] = NULL;
		size_t nn = 0, np = 0;

		if (!rc_host_path(path, sizeof(path), root, "sys/class/infiniband/%s/device/net",
				  devs[i]) &&
		    !rc_host_list(path, &nets, &nn) && nn) {
			for (size_t j = 0; !rc && j < nn; j++)
				if (rc_host_ifname_ok(nets[j]))
					rc = add_unique(&v, &nv, &cap, nets[j]);
			free(nets);
			continue;
		}
		free(nets);
		if (!rc_host_path(path, sizeof(path), root, "sys/class/infiniband/%s/ports",
				  devs[i]) &&
		    !rc_host_list(path, &ports, &np))
			for (size_t j = 0; !rc && j < np; j++)
				rc = ndevs_of_port(root, devs[i], ports[j], &v, &nv, &cap);
		free(ports);
	}
	free(devs);
	if (rc) {
		free(v);
		return rc_errf(err, -rc, "cannot list RDMA network interfaces: %s", strerror(-rc));
	}
	if (nv)
		qsort(v, nv, sizeof(*v), cmp_names);
	*names = v;
	*n = nv;
	return 0;
}

static bool port_has_ndev(const char *root, const char *ibdev, const char *port, const char *ifname)
{
	char(*v)[RC_NAME_MAX] = NULL;
	size_t n = 0, cap = 0;
	bool found = false;

	if (ndevs_of_port(root, ibdev, port, &v, &n, &cap))
		return false;
	for (size_t i = 0; i < n && !found; i++)
		found = !strcmp(v[i], ifname);
	free(v);
	return found;
}

/* The port of `ibdev` that `ifname` is on: the only port, else the one whose GID table
 * names it, else the netdev's dev_port + 1 (multi-port IB devices number from 1). */
static unsigned pick_port(const char *root, const char *ibdev, const char *ifname,
			  char (*ports)[RC_NAME_MAX], size_t np)
{
	char path[4096];
	long long dev_port;

	if (np == 1) /* mlx5: one netdev per function, port 1 */
		return (unsigned)strtoul(ports[0], NULL, 10);
	for (size_t i = 0; i < np; i++)
		if (port_has_ndev(root, ibdev, ports[i], ifname))
			return (unsigned)strtoul(ports[i], NULL, 10);
	if (!rc_host_path(path, sizeof(path), root, "sys/class/net/%s/dev_port", ifname) &&
	    !rc_host_read_ll(path, &dev_port) && dev_port >= 0 && dev_port < 255)
		return (unsigned)dev_port + 1;
	return 1;
}

static void read_port_file(const char *root, const struct rc_rdma_port *p, const char *file,
			   char *buf, size_t len)
{
	char path[4096], v[256];

	buf[0] = '\0';
	/* Read wider than the field: the trailing newline must not make it "too big". */
	if (!rc_host_path(path, sizeof(path), root, "sys/class/infiniband/%s/ports/%u/%s", p->ibdev,
			  p->port, file) &&
	    rc_host_read(path, v, sizeof(v)) > 0 && strlen(v) < len)
		snprintf(buf, len, "%s", v);
}

static int cmp_index(const void *a, const void *b)
{
	unsigned long x = strtoul((const char *)a, NULL, 10),
		      y = strtoul((const char *)b, NULL, 10);

	return x < y ? -1 : x > y;
}

/* The sysfs GID table; empty slots (all-zero GID, or a type that does not read) are
 * skipped as rdma-core does. */
static void sysfs_gids(const char *root, struct rc_rdma_port *p)
{
	char path[4096];
	char(*ents)[RC_NAME_MAX] = NULL;
	size_t ne = 0;

	if (rc_host_path(path, sizeof(path), root, "sys/class/infiniband/%s/ports/%u/gids",
			 p->ibdev, p->port) ||
	    rc_host_list(path, &ents, &ne))
		return;
	qsort(ents, ne, sizeof(*ents), cmp_index);
	for (size_t i = 0; i < ne && p->n_gids < RC_GID_MAX; i++) {
		struct rc_gid *g = &p->gids[p->n_gids];
		char *end;
		unsigned long idx = strtoul(ents[i], &end, 10);
		char rel[160];

		if (*end || end == ents[i])
			continue;
		memset(g, 0, sizeof(*g));
		g->index = (unsigned)idx;
		snprintf(rel, sizeof(rel), "gids/%lu", idx);
		read_port_file(root, p, rel, g->gid, sizeof(g->gid));
		if (!g->gid[0] || !strcmp(g->gid, ZERO_GID))
			continue;
		snprintf(rel, sizeof(rel), "gid_attrs/types/%lu", idx);
		read_port_file(root, p, rel, g->type, sizeof(g->type));
		if (!g->type[0])
			continue;
		snprintf(rel, sizeof(rel), "gid_attrs/ndevs/%lu", idx);
		read_port_file(root, p, rel, g->ndev, sizeof(g->ndev));
		p->n_gids++;
	}
	free(ents);
	snprintf(p->source, sizeof(p->source), "sysfs");
}

static const char *gid_type_name(uint32_t t)
{
	return t == IBV_GID_TYPE_ROCE_V2 ? "RoCE v2" : "IB/RoCE v1";
}

/* libibverbs, loaded the first time a device is opened: an agent that only reads DCB (or
 * runs against a simulated /sys) never maps it and the libnl-route it pulls in, which
 * was a tenth of its run time.  The entry points are libibverbs' exported ABI; the
 * header's inline wrappers are not used because they would link the library. */
struct verbs_api {
	void *handle;
	struct ibv_device **(*get_device_list)(int *num);
	void (*free_device_list)(struct ibv_device **list);
	const char *(*get_device_name)(struct ibv_device *dev);
	struct ibv_context *(*open_device)(struct ibv_device *dev);
	int (*close_device)(struct ibv_context *ctx);
	ssize_t (*query_gid_table)(struct ibv_context *ctx, struct ibv_gid_entry *entries,
				   size_t max_entries, uint32_t flags, size_t entry_size);
};

static bool verbs_load(struct verbs_api *v)
{
	memset(v, 0, sizeof(*v));
	v->handle = dlopen("libibverbs.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!v->handle)
		return false;
	*(void **)&v->get_device_list = dlsym(v->handle, "ibv_get_device_list");
	*(void **)&v->free_device_list = dlsym(v->handle, "ibv_free_device_list");
	*(void **)&v->get_device_name = dlsym(v->handle, "ibv_get_device_name");
	*(void **)&v->open_device = dlsym(v->handle, "ibv_open_device");
	*(void **)&v->close_device = dlsym(v->handle, "ibv_close_device");
	*(void **)&v->query_gid_table = dlsym(v->handle, "_ibv_query_gid_table");
	if (v->get_device_list && v->free_device_list && v->get_device_name && v->open_device &&
	    v->close_device && v->query_gid_table)
		return true;
	dlclose(v->handle);
	return false;
}

/* The GID table through libibverbs; false when the device cannot be opened (no library,
 * no permission, no provider, not this machine's /sys).  The port state comes from sysfs. */
static bool verbs_gids(struct rc_rdma_port *p)
{
	struct ibv_gid_entry ents[RC_GID_MAX];
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	struct verbs_api v;
	ssize_t k;
	int num = 0;

	if (!verbs_load(&v))
		return false;
	list = v.get_device_list(&num);
	if (!list) {
		dlclose(v.handle);
		return false;
	}
	for (int i = 0; i < num && !ctx; i++)
		if (!strcmp(v.get_device_name(list[i]), p->ibdev))
			ctx = v.open_device(list[i]);
	v.free_device_list(list);
	if (!ctx) {
		dlclose(v.handle);
		return false;
	}
	k = v.query_gid_table(ctx, ents, RC_GID_MAX, 0, sizeof(ents[0]));
	if (k < 0) {
		v.close_device(ctx);
		dlclose(v.handle);
		return false;
	}
	p->n_gids = 0;
	for (ssize_t i = 0; i < k && p->n_gids < RC_GID_MAX; i++) {
		struct rc_gid *g = &p->gids[p->n_gids];
		const uint8_t *r = ents[i].gid.raw;
		char ifn[IF_NAMESIZE];

		if (ents[i].port_num != p->port)
			continue;
		memset(g, 0, sizeof(*g));
		g->index = ents[i].gid_index;
		snprintf(g->gid, sizeof(g->gid),
			 "%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x",
			 r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11],
			 r[12], r[13], r[14], r[15]);
		snprintf(g->type, sizeof(g->type), "%s", gid_type_name(ents[i].gid_type));
		if (ents[i].ndev_ifindex && if_indextoname(ents[i].ndev_ifindex, ifn))
			snprintf(g->ndev, sizeof(g->ndev), "%s", ifn);
		p->n_gids++;
	}
	v.close_device(ctx);
	dlclose(v.handle);
	snprintf(p->source, sizeof(p->source), "verbs");
	return true;
}

/* The IPv4 RoCEv2 GID of `ifname` in a GID table, or -1. */
static int rc_rdma_roce_v2_ipv4_index(const struct rc_gid *g, size_t n, const char *ifname)
{
	for (size_t i = 0; i < n; i++) {
		if (strcmp(g[i].type, "RoCE v2"))
			continue;
		if (strncmp(g[i].gid, IPV4_MAPPED_PREFIX, strlen(IPV4_MAPPED_PREFIX)))
			continue;
		if (g[i].ndev[0] && strcmp(g[i].ndev, ifname))
			continue;
		return (int)g[i].index;
	}
	return -1;
}

static bool is_real_root(const char *root)
{
	return !root || !strcmp(root, "/") || !*root;
}

int rc_rdma_lookup(const char *root, const char *ifname, struct rc_rdma_port *p, struct rc_err *err)
{
	char path[4096];
	char(*devs)[RC_NAME_MAX] = NULL;
	size_t nd = 0;
	int rc;

	memset(p, 0, sizeof(*p));
	p->roce_v2_ipv4_gid = -1;
	if (!rc_host_ifname_ok(ifname))
		return rc_errf(err, EINVAL, "'%s' is not a network interface name", ifname);
	if (rc_host_path(path, sizeof(path), root, "sys/class/infiniband"))
		return rc_errf(err, ENAMETOOLONG, "root path too long");
	rc = rc_host_list(path, &devs, &nd);
	if (rc == -ENOENT)
		return 0;
	if (rc)
		return rc_errf(err, -rc, "cannot list '%s': %s", path, strerror(-rc));
	for (size_t i = 0; i < nd && !p->found; i++) {
		char(*ports)[RC_NAME_MAX] = NULL;
		size_t np = 0;
		bool direct;

		if (rc_host_path(path, sizeof(path), root, "sys/class/infiniband/%s/device/net/%s",
				 devs[i], ifname))
			continue;
		direct = rc_host_exists(path);
		if (rc_host_path(path, sizeof(path), root, "sys/class/infiniband/%s/ports",
				 devs[i]) ||
		    rc_host_list(path, &ports, &np) || !np) {
			free(ports);
			continue;
		}
		if (direct) {
			p->port = pick_port(root, devs[i], ifname, ports, np);
			p->found = true;
		} else {
			for (size_t j = 0; j < np && !p->found; j++) {
				if (port_has_ndev(root, devs[i], ports[j], ifname)) {
					p->port = (unsigned)strtoul(ports[j], NULL, 10);
					p->found = true;
				}
			}
		}
		if (p->found)
			snprintf(p->ibdev, sizeof(p->ibdev), "%s", devs[i]);
		free(ports);
	}
	free(devs);
	return 0;
}

int rc_rdma_details(const char *root, const char *ifname, struct rc_rdma_port *p)
{
	if (!p->found)
		return 0;
	read_port_file(root, p, "state", p->state, sizeof(p->state));
	read_port_file(root, p, "phys_state", p->phys_state, sizeof(p->phys_state));
	read_port_file(root, p, "link_layer", p->link_layer, sizeof(p->link_layer));
	if (!is_real_root(root) || !verbs_gids(p))
		sysfs_gids(root, p);
	p->roce_v2_ipv4_gid = rc_rdma_roce_v2_ipv4_index(p->gids, p->n_gids, ifname);
	return 0;
}
