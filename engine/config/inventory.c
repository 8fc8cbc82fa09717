/* SPDX-License-Identifier: Apache-2.0 */
/* The inventory file (docs/INVENTORY.md): devices with ranges expanded, links paired
 * element-wise and checked against the devices' ports, roles derived. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "range.h"
#include "rocectl/inventory.h"
#include "rocectl/util.h"
#include "yaml_device.h"
#include "yaml_walk.h"

static const char *const root_keys[] = {"apiVersion", "kind",  "defaults", "hosts",
					"switches",   "links", NULL};
static const char *const defaults_keys[] = {"ssh",	     "rest",	   "credentials",
					    "agent_command", "proxy_jump", NULL};
static const char *const host_keys[] = {"name",		 "address",    "interfaces",
					"transport",	 "ssh",	       "credentials",
					"agent_command", "proxy_jump", NULL};
static const char *const switch_keys[] = {
    "name",	 "address", "platform", "transport",  "ports",	    "role", "credentials",
    "overrides", "ssh",	    "rest",	"cable_rows", "proxy_jump", NULL};
static const char *const name_required[] = {"name", NULL};
static const char *const switch_required[] = {"name", "platform", NULL};
static const char *const link_keys[] = {"a", "b", "speed", "cable_length", NULL};
static const char *const link_required[] = {"a", "b", NULL};
static const char *const host_transports[] = {"ssh", "local", NULL};
static const char *const switch_transports[] = {"ssh", "rest", NULL};
static const char *const platforms[] = {"nvue", "sonic", "eos", NULL};
static const char *const roles[] = {"leaf", "spine", NULL};
static const uint32_t speeds[] = {10, 25, 40, 50, 100, 200, 400, 800};

#define SAFE_RULE   "letters, digits, '.', '_', '/', '-'; first a letter or digit; at most 63"
#define DEVICE_RULE "letters, digits, '.', '_', '-'; first a letter or digit; no '..'; at most 63"

/* A (device, port) pair, sorted for lookups and duplicate checks. */
struct ep {
	size_t dev;
	const char *port;
	size_t link; /* link index, or port index within the device */
	int side;    /* 0 = a, 1 = b */
};

struct named {
	const char *name;
	size_t dev;
};

struct rc_inv_index {
	struct named *by_name; /* devices sorted by name */
	struct ep *dports;     /* every listed port of every device */
	size_t n_dports;
	struct ep *eps; /* every link endpoint */
	size_t n_eps;
};

struct ctx {
	struct yw w;
	struct rc_inventory *inv;
	struct rc_warnings *warn;
	struct rc_ssh_opts ssh;
	struct rc_rest_opts rest;
	struct rc_credentials cred;
	const char *agent_command; /* defaults.agent_command */
	struct rc_jump jump;	   /* defaults.proxy_jump */
	size_t cap_devices, cap_links, total_ports;
	bool *role_given;
	size_t cap_role;
};

static struct rc_pos pos_of(const struct yd_node *n)
{
	return (struct rc_pos){n ? n->line : 0, n ? n->col : 0};
}

static int cmp_ep(const void *a, const void *b)
{
	const struct ep *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	return strcmp(x->port, y->port);
}

/* ---- names and ranges ---- */

static int parse_range(struct ctx *c, const struct yd_node *n, const char *path, bool bare,
		       struct rc_range *r)
{
	char buf[2 * RC_NAME_MAX], shown[64];
	const char *why = "";

	if (yw_str(&c->w, n, path, buf, sizeof(buf)) < 0)
		return -EINVAL;
	if (rc_range_parse(buf, bare, r, &why) < 0) {
		yw_show(n, shown, sizeof(shown));
		return yw_fail(&c->w, n, "%s: %s: %s", path, shown, why);
	}
	return 0;
}

/* Element i of r, checked with `safe`. */
static int element(struct ctx *c, const struct yd_node *n, const char *path,
		   const struct rc_range *r, size_t i, bool (*safe)(const char *), const char *rule,
		   char *out)
{
	char tmp[2 * RC_NAME_MAX];

	if (rc_range_element(r, i, tmp, sizeof(tmp)) < 0 || !safe(tmp))
		return yw_fail(&c->w, n, "%s: '%.80s' is not a safe %s (%s)", path, tmp,
			       safe == rc_address_is_safe ? "address" : "name", rule);
	memcpy(out, tmp, RC_NAME_MAX);
	out[RC_NAME_MAX - 1] = '\0';
	return 0;
}

static int cmp_named(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int d = strcmp(x->name, y->name);

	if (d)
		return d;
	return x->dev < y->dev ? -1 : x->dev > y->dev;
}

/* A port listed twice (possibly through overlapping ranges): report the later item. */
static int check_port_list(struct ctx *c, char (*ports)[RC_NAME_MAX], size_t n,
			   const struct yd_node **from, const char *path)
{
	struct named *v = calloc(n ? n : 1, sizeof(*v));
	int rc = 0;

	if (!v)
		return rc_errf(c->w.err, ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		v[i] = (struct named){ports[i], i};
	qsort(v, n, sizeof(*v), cmp_named);
	for (size_t i = 1; i < n && rc == 0; i++) {
		const struct yd_node *first = from[v[i - 1].dev], *later = from[v[i].dev];

		if (strcmp(v[i - 1].name, v[i].name) != 0)
			continue;
		rc = yw_fail(&c->w, later, "%s: '%s' is listed twice (first at %d:%d)", path,
			     v[i].name, first->line, first->col);
	}
	free(v);
	return rc;
}

/* A device's port (or interface) list, ranges expanded. */
static int read_ports(struct ctx *c, const struct yw_map *m, const char *key,
		      char (**out)[RC_NAME_MAX], size_t *n_out)
{
	const struct yd_node *list, **from = NULL;
	char path[YW_PATH_MAX];
	char(*ports)[RC_NAME_MAX] = NULL;
	size_t n = 0;
	int rc = yw_f_seq(&c->w, m, key, &list);

	*out = NULL;
	*n_out = 0;
	if (rc <= 0)
		return rc;
	ports = calloc(RC_INV_MAX_PORTS, sizeof(*ports));
	from = calloc(RC_INV_MAX_PORTS, sizeof(*from));
	if (!ports || !from) {
		rc_errf(c->w.err, ENOMEM, "out of memory");
		goto fail;
	}
	for (size_t i = 0; i < list->n; i++) {
		struct rc_range r;
		size_t cnt;

		snprintf(path, sizeof(path), "%s%s%s[%zu]", m->path, *m->path ? "." : "", key, i);
		if (parse_range(c, list->kids[i], path, true, &r) < 0)
			goto fail;
		cnt = rc_range_count(&r);
		if (n + cnt > RC_INV_MAX_PORTS) {
			yw_fail(&c->w, list->kids[i], "%s: more than %d ports on one device", path,
				RC_INV_MAX_PORTS);
			goto fail;
		}
		for (size_t k = 0; k < cnt; k++, n++) {
			from[n] = list->kids[i];
			if (element(c, list->kids[i], path, &r, k, rc_name_is_safe, SAFE_RULE,
				    ports[n]) < 0)
				goto fail;
		}
	}
	yw_join(path, m->path, key);
	if (check_port_list(c, ports, n, from, path) < 0)
		goto fail;
	free(from);
	*out = ports;
	*n_out = n;
	return 1;
fail:
	free(ports);
	free(from);
	return -EINVAL;
}

/* ---- devices ---- */

static int add_devices(struct ctx *c, size_t count, const struct yd_node *at, const char *path)
{
	struct rc_inventory *inv = c->inv;
	size_t need = inv->n_devices + count;

	if (need > RC_INV_MAX_DEVICES)
		return yw_fail(&c->w, at, "%s: the inventory would have more than %d devices", path,
			       RC_INV_MAX_DEVICES);
	size_t cap_roles = c->cap_devices;

	/* the two arrays grow together: role_given[i] belongs to devices[i] */
	if (rc_array_reserve((void **)&inv->devices, &c->cap_devices, need, sizeof(*inv->devices),
			     16) ||
	    rc_array_reserve((void **)&c->role_given, &cap_roles, c->cap_devices,
			     sizeof(*c->role_given), 16))
		return rc_errf(c->w.err, ENOMEM, "out of memory");
	return 0;
}

/* One hosts[]/switches[] entry: a template device and the name/address ranges. */
static int expand_entry(struct ctx *c, const struct yw_map *m, const struct rc_device *tmpl,
			char (*ports)[RC_NAME_MAX], size_t n_ports, bool role_given)
{
	const struct yd_node *nn = yw_get(m, "name"), *an = yw_get(m, "address");
	char npath[YW_PATH_MAX], apath[YW_PATH_MAX];
	struct rc_range nr, ar;
	size_t count;
	int rc;

	yw_join(npath, m->path, "name");
	yw_join(apath, m->path, "address");
	if (parse_range(c, nn, npath, false, &nr) < 0)
		return -EINVAL;
	count = rc_range_count(&nr);
	if (an) {
		size_t acount;

		if (parse_range(c, an, apath, false, &ar) < 0)
			return -EINVAL;
		acount = rc_range_count(&ar);
		if (acount == 1 && count > 1)
			return yw_fail(&c->w, an,
				       "%s: one address for %zu devices; give a range that expands "
				       "with the name, like 10.0.1.[1-%zu]",
				       apath, count, count);
		if (acount != count)
			return yw_fail(&c->w, an,
				       "%s: %zu addresses for %zu names; name and address ranges "
				       "expand in lock-step and must have the same length",
				       apath, acount, count);
	}
	if (c->total_ports + count * n_ports > RC_INV_MAX_TOTAL_PORTS)
		return yw_fail(&c->w, nn, "%s: the inventory would have more than %d ports", npath,
			       RC_INV_MAX_TOTAL_PORTS);
	rc = add_devices(c, count, nn, npath);
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < count; i++) {
		struct rc_device *d = &c->inv->devices[c->inv->n_devices];

		*d = *tmpl;
		d->ports = NULL;
		d->n_ports = 0;
		if (element(c, nn, npath, &nr, i, rc_device_name_is_safe, DEVICE_RULE, d->name) < 0)
			return -EINVAL;
		if (an) {
			if (element(c, an, apath, &ar, i, rc_address_is_safe,
				    "IPv4, IPv6 or a DNS name", d->address) < 0)
				return -EINVAL;
		} else {
			memcpy(d->address, d->name, sizeof(d->address));
		}
		if (n_ports) {
			d->ports = malloc(n_ports * sizeof(*d->ports));
			if (!d->ports)
				return rc_errf(c->w.err, ENOMEM, "out of memory");
			memcpy(d->ports, ports, n_ports * sizeof(*d->ports));
			d->n_ports = n_ports;
		}
		c->role_given[c->inv->n_devices] = role_given;
		c->inv->n_devices++;
		c->total_ports += n_ports;
	}
	return 0;
}

/* agent_command: how the controller calls rocectl on a host (agent_ssh.c). */
static int read_agent_command(struct ctx *c, const struct yw_map *m, const char **out)
{
	char path[YW_PATH_MAX], cmd[RC_AGENT_COMMAND_MAX];
	int rc = yw_f_str(&c->w, m, "agent_command", cmd, sizeof(cmd));

	if (rc != 1)
		return rc;
	if (!rc_agent_command_is_safe(cmd)) {
		yw_join(path, m->path, "agent_command");
		return yw_fail(&c->w, yw_get(m, "agent_command"),
			       "%s: '%s' is not 'rocectl' or an absolute path of letters, digits, "
			       "'.', '_', '/', '-' (optionally after 'sudo -n ')",
			       path, cmd);
	}
	*out = rc_strpool_intern(c->inv->strings, cmd);
	if (!*out)
		return yw_fail(&c->w, yw_get(m, "agent_command"), "out of memory");
	return 1;
}

/* proxy_jump: [user@]host[:port] or none (engine/util/jump.c). */
static int read_proxy_jump(struct yw *w, const struct yw_map *m, struct rc_jump *out)
{
	const struct yd_node *n = yw_get(m, "proxy_jump");
	char path[YW_PATH_MAX], buf[2 * RC_NAME_MAX + 16], shown[64];
	const char *why = "";
	int rc;

	if (!n)
		return 0;
	yw_join(path, m->path, "proxy_jump");
	rc = yw_str(w, n, path, buf, sizeof(buf));
	if (rc < 0)
		return rc;
	if (rc_jump_parse(buf, out, &why)) {
		yw_show(n, shown, sizeof(shown));
		return yw_fail(w, n, "%s: %s: %s (expected [user@]host[:port] or none)", path,
			       shown, why);
	}
	out->pos = pos_of(n);
	return 1;
}

/* The jump host is an SSH hop: a REST switch would be reached directly, around it, so
 * one that has a jump host (its own or inherited) is refused until it says `none`; a
 * local host reaches nothing, so only its own proxy_jump is refused. */
static int check_jump_transport(struct ctx *c, const struct yw_map *m, const struct rc_device *t)
{
	const struct yd_node *own = yw_get(m, "proxy_jump");
	char jump[2 * RC_NAME_MAX + 16];

	if (!t->jump.host[0] || t->transport == RC_TRANSPORT_SSH)
		return 0;
	if (t->transport == RC_TRANSPORT_LOCAL && !own)
		return 0;
	rc_jump_format(&t->jump, jump, sizeof(jump));
	if (own)
		return yw_fail(
		    &c->w, own,
		    "%s%sproxy_jump: applies to SSH only, and this %s uses transport: %s", m->path,
		    *m->path ? "." : "", t->kind == RC_DEV_HOST ? "host" : "switch",
		    rc_transport_name(t->transport));
	return yw_fail(&c->w, m->node,
		       "%s: transport %s does not go through the jump host '%s' inherited from "
		       "defaults.proxy_jump (%d:%d), which applies to SSH only; set "
		       "'proxy_jump: none' on this entry to reach it directly",
		       m->path, rc_transport_name(t->transport), jump, t->jump.pos.line,
		       t->jump.pos.column);
}

static void init_template(struct ctx *c, struct rc_device *t, const struct yw_map *m)
{
	memset(t, 0, sizeof(*t));
	t->ssh = c->ssh;
	t->rest = c->rest;
	t->cred = c->cred;
	t->agent_command = c->agent_command;
	t->jump = c->jump;
	t->pos = pos_of(m->node);
}

static int read_entry(struct ctx *c, const struct yd_node *n, const char *path, bool is_switch)
{
	char(*ports)[RC_NAME_MAX] = NULL;
	struct rc_device t;
	struct yw_map m;
	size_t n_ports = 0;
	int v, rc = -EINVAL;
	bool role_given = false;

	if (yw_map(&c->w, n, path, is_switch ? switch_keys : host_keys, &m) < 0 ||
	    yw_require(&c->w, &m, is_switch ? switch_required : name_required) < 0)
		return -EINVAL;
	init_template(c, &t, &m);
	t.kind = is_switch ? RC_DEV_SWITCH : RC_DEV_HOST;
	t.platform = RC_PLAT_HOST;
	t.role = RC_ROLE_HOST;
	t.transport = RC_TRANSPORT_SSH;
	v = 0;
	if (is_switch) {
		if (yw_f_enum(&c->w, &m, "platform", platforms, &v) < 0)
			return -EINVAL;
		t.platform = (enum rc_platform)(RC_PLAT_NVUE + v);
		v = 0;
		if (yw_f_enum(&c->w, &m, "transport", switch_transports, &v) < 0)
			return -EINVAL;
		t.transport = v == 0 ? RC_TRANSPORT_SSH : RC_TRANSPORT_REST;
		rc = yw_f_enum(&c->w, &m, "role", roles, &v);
		if (rc < 0)
			return rc;
		role_given = rc == 1;
		if (role_given)
			t.role = v == 0 ? RC_ROLE_LEAF : RC_ROLE_SPINE;
		if (ydev_read_overrides(&c->w, &m, "overrides", &t.ov) < 0 ||
		    ydev_read_rest(&c->w, &m, "rest", c->inv->strings, &t.rest, c->warn) < 0 ||
		    ydev_read_cable_rows(&c->w, &m, "cable_rows", &t) < 0)
			return -EINVAL;
		/* only SONiC reads a lookup table of cable lengths (docs/platforms/sonic.md) */
		if (t.n_cable_rows && t.platform != RC_PLAT_SONIC)
			return yw_fail(&c->w, yw_get(&m, "cable_rows"),
				       "%s%scable_rows: only SONiC switches have cable-length rows",
				       m.path, *m.path ? "." : "");
	} else {
		if (yw_f_enum(&c->w, &m, "transport", host_transports, &v) < 0 ||
		    read_agent_command(c, &m, &t.agent_command) < 0)
			return -EINVAL;
		t.transport = v == 0 ? RC_TRANSPORT_SSH : RC_TRANSPORT_LOCAL;
	}
	if (ydev_read_ssh(&c->w, &m, "ssh", c->inv->strings, &t.ssh) < 0 ||
	    ydev_read_credentials(&c->w, &m, "credentials", c->inv->strings, &t.cred) < 0 ||
	    read_proxy_jump(&c->w, &m, &t.jump) < 0 || check_jump_transport(c, &m, &t) < 0)
		return -EINVAL;
	rc = read_ports(c, &m, is_switch ? "ports" : "interfaces", &ports, &n_ports);
	if (rc < 0)
		return rc;
	rc = expand_entry(c, &m, &t, ports, n_ports, role_given);
	free(ports);
	return rc;
}

static int read_devices(struct ctx *c, const struct yw_map *root, const char *key, bool is_switch)
{
	const struct yd_node *list;
	char path[YW_PATH_MAX];
	int rc = yw_f_seq(&c->w, root, key, &list);

	if (rc <= 0)
		return rc;
	for (size_t i = 0; i < list->n; i++) {
		yw_index(path, key, i);
		if (read_entry(c, list->kids[i], path, is_switch) < 0)
			return -EINVAL;
	}
	return 0;
}

/* ---- the index: device names, ports ---- */

static int build_device_index(struct ctx *c)
{
	struct rc_inventory *inv = c->inv;
	struct rc_inv_index *ix = calloc(1, sizeof(*ix));
	size_t k = 0;

	if (!ix)
		return rc_errf(c->w.err, ENOMEM, "out of memory");
	inv->index = ix;
	ix->by_name = calloc(inv->n_devices ? inv->n_devices : 1, sizeof(*ix->by_name));
	ix->dports = calloc(c->total_ports ? c->total_ports : 1, sizeof(*ix->dports));
	if (!ix->by_name || !ix->dports)
		return rc_errf(c->w.err, ENOMEM, "out of memory");
	for (size_t i = 0; i < inv->n_devices; i++) {
		ix->by_name[i] = (struct named){inv->devices[i].name, i};
		for (size_t p = 0; p < inv->devices[i].n_ports; p++)
			ix->dports[k++] = (struct ep){i, inv->devices[i].ports[p], p, 0};
	}
	ix->n_dports = k;
	/* Equal names end up adjacent, in document order. */
	qsort(ix->by_name, inv->n_devices, sizeof(*ix->by_name), cmp_named);
	qsort(ix->dports, ix->n_dports, sizeof(*ix->dports), cmp_ep);
	return 0;
}

static int check_unique_names(struct ctx *c)
{
	const struct rc_inventory *inv = c->inv;
	const struct rc_inv_index *ix = inv->index;

	for (size_t i = 1; i < inv->n_devices; i++) {
		const struct rc_device *a = &inv->devices[ix->by_name[i - 1].dev];
		const struct rc_device *b = &inv->devices[ix->by_name[i].dev];

		if (strcmp(a->name, b->name) != 0)
			continue;
		return rc_err_at(c->w.err, EINVAL, inv->file, b->pos.line, b->pos.column,
				 "device name '%s' is used twice (first at %d:%d)", b->name,
				 a->pos.line, a->pos.column);
	}
	return 0;
}

static ptrdiff_t find_device(const struct rc_inventory *inv, const char *name)
{
	const struct rc_inv_index *ix = inv->index;
	size_t lo = 0, hi;

	if (!ix) {
		for (size_t i = 0; i < inv->n_devices; i++)
			if (!strcmp(inv->devices[i].name, name))
				return (ptrdiff_t)i;
		return -1;
	}
	hi = inv->n_devices;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int d = strcmp(ix->by_name[mid].name, name);

		if (d == 0)
			return (ptrdiff_t)ix->by_name[mid].dev;
		if (d < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static const struct ep *find_ep(const struct ep *v, size_t n, size_t dev, const char *port)
{
	struct ep key = {dev, port, 0, 0};

	return v ? bsearch(&key, v, n, sizeof(*v), cmp_ep) : NULL;
}

/* ---- links ---- */

struct endpoint {
	struct rc_range dev, port;
	size_t count;
};

static int parse_endpoint(struct ctx *c, const struct yd_node *n, const char *path,
			  struct endpoint *e)
{
	char buf[4 * RC_NAME_MAX], *colon, shown[64];
	const char *why = "";

	if (yw_str(&c->w, n, path, buf, sizeof(buf)) < 0)
		return -EINVAL;
	colon = strchr(buf, ':');
	yw_show(n, shown, sizeof(shown));
	if (!colon || colon == buf || !colon[1])
		return yw_fail(&c->w, n, "%s: expected DEVICE:PORT like 'leaf01:swp1', found %s",
			       path, shown);
	*colon = '\0';
	if (rc_range_parse(buf, false, &e->dev, &why) < 0 ||
	    rc_range_parse(colon + 1, true, &e->port, &why) < 0)
		return yw_fail(&c->w, n, "%s: %s: %s", path, shown, why);
	size_t dn = rc_range_count(&e->dev), pn = rc_range_count(&e->port);

	if (dn > 1 && pn > 1 && dn != pn)
		return yw_fail(&c->w, n,
			       "%s: %s has ranges of %zu and %zu elements; ranges in one endpoint "
			       "expand in lock-step and must have the same length",
			       path, shown, dn, pn);
	e->count = dn > pn ? dn : pn;
	return 0;
}

/* Element i of an endpoint, resolved to a device and a port it has. */
static int resolve(struct ctx *c, const struct yd_node *n, const char *path,
		   const struct endpoint *e, size_t i, struct rc_link_end *out)
{
	const struct rc_inventory *inv = c->inv;
	char dev[2 * RC_NAME_MAX], port[2 * RC_NAME_MAX];
	const struct rc_device *d;
	ptrdiff_t di;

	if (rc_range_element(&e->dev, rc_range_count(&e->dev) > 1 ? i : 0, dev, sizeof(dev)) < 0 ||
	    rc_range_element(&e->port, rc_range_count(&e->port) > 1 ? i : 0, port, sizeof(port)) <
		0 ||
	    !rc_name_is_safe(dev) || !rc_name_is_safe(port))
		return yw_fail(&c->w, n, "%s: '%.80s:%.80s' is not a safe endpoint (%s)", path, dev,
			       port, SAFE_RULE);
	di = find_device(inv, dev);
	if (di < 0)
		return yw_fail(&c->w, n, "%s: device '%s' is not in the inventory", path, dev);
	d = &inv->devices[di];
	if (d->n_ports && !find_ep(inv->index->dports, inv->index->n_dports, (size_t)di, port))
		return yw_fail(&c->w, n, "%s: %s '%s' has no %s '%s'", path,
			       d->kind == RC_DEV_HOST ? "host" : "switch", d->name,
			       d->kind == RC_DEV_HOST ? "interface" : "port", port);
	out->dev = (size_t)di;
	snprintf(out->port, sizeof(out->port), "%s", port);
	return 0;
}

static int add_links(struct ctx *c, size_t count, const struct yd_node *at, const char *path)
{
	struct rc_inventory *inv = c->inv;
	size_t need = inv->n_links + count;

	if (need > RC_INV_MAX_LINKS)
		return yw_fail(&c->w, at, "%s: the inventory would have more than %d links", path,
			       RC_INV_MAX_LINKS);
	if (rc_array_reserve((void **)&inv->links, &c->cap_links, need, sizeof(*inv->links), 16))
		return rc_errf(c->w.err, ENOMEM, "out of memory");
	return 0;
}

static bool speed_ok(uint32_t g)
{
	for (size_t i = 0; i < sizeof(speeds) / sizeof(speeds[0]); i++)
		if (speeds[i] == g)
			return true;
	return false;
}

static int read_link(struct ctx *c, const struct yd_node *n, const char *path)
{
	char apath[YW_PATH_MAX], bpath[YW_PATH_MAX], spath[YW_PATH_MAX];
	const struct yd_node *an, *bn;
	struct endpoint a, b;
	struct rc_link tmpl = {0};
	struct yw_map m;
	int rc;

	if (yw_map(&c->w, n, path, link_keys, &m) < 0 || yw_require(&c->w, &m, link_required) < 0 ||
	    yw_f_speed(&c->w, &m, "speed", &tmpl.speed_gbps) < 0 ||
	    yw_f_length(&c->w, &m, "cable_length", &tmpl.cable_length_m) < 0)
		return -EINVAL;
	yw_join(spath, path, "speed");
	if (tmpl.speed_gbps && !speed_ok(tmpl.speed_gbps))
		return yw_fail(&c->w, yw_get(&m, "speed"),
			       "%s: %uG is not a supported Ethernet speed (10G, 25G, 40G, 50G, "
			       "100G, 200G, 400G, 800G)",
			       spath, tmpl.speed_gbps);
	if (tmpl.cable_length_m > RC_CABLE_MAX_M)
		return yw_fail(&c->w, yw_get(&m, "cable_length"),
			       "%s.cable_length (%um) must be between 1m and 100km", path,
			       tmpl.cable_length_m);
	an = yw_get(&m, "a");
	bn = yw_get(&m, "b");
	yw_join(apath, path, "a");
	yw_join(bpath, path, "b");
	if (parse_endpoint(c, an, apath, &a) < 0 || parse_endpoint(c, bn, bpath, &b) < 0)
		return -EINVAL;
	if (a.count != b.count)
		return yw_fail(&c->w, bn,
			       "%s: a expands to %zu endpoints but b to %zu; the two sides pair "
			       "element-wise and must have the same length",
			       path, a.count, b.count);
	tmpl.pos = pos_of(n);
	tmpl.a_pos = pos_of(an);
	tmpl.b_pos = pos_of(bn);
	rc = add_links(c, a.count, n, path);
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < a.count; i++) {
		struct rc_link *l = &c->inv->links[c->inv->n_links];

		*l = tmpl;
		if (resolve(c, an, apath, &a, i, &l->a) < 0 ||
		    resolve(c, bn, bpath, &b, i, &l->b) < 0)
			return -EINVAL;
		c->inv->n_links++;
	}
	return 0;
}

static int check_ports_used_once(struct ctx *c)
{
	struct rc_inventory *inv = c->inv;
	struct rc_inv_index *ix = inv->index;
	size_t k = 0;

	ix->eps = calloc(inv->n_links ? 2 * inv->n_links : 1, sizeof(*ix->eps));
	if (!ix->eps)
		return rc_errf(c->w.err, ENOMEM, "out of memory");
	for (size_t i = 0; i < inv->n_links; i++) {
		ix->eps[k++] = (struct ep){inv->links[i].a.dev, inv->links[i].a.port, i, 0};
		ix->eps[k++] = (struct ep){inv->links[i].b.dev, inv->links[i].b.port, i, 1};
	}
	ix->n_eps = k;
	qsort(ix->eps, k, sizeof(*ix->eps), cmp_ep);
	/* Report the use that comes later in the file, pointing at the earlier one. */
	for (size_t i = 1; i < k; i++) {
		const struct ep *x = &ix->eps[i - 1], *y = &ix->eps[i];
		const struct rc_link *lx, *ly;
		struct rc_pos px, py;

		if (x->dev != y->dev || strcmp(x->port, y->port) != 0)
			continue;
		if (x->link > y->link || (x->link == y->link && x->side > y->side)) {
			const struct ep *t = x;

			x = y;
			y = t;
		}
		lx = &inv->links[x->link];
		ly = &inv->links[y->link];
		px = x->side ? lx->b_pos : lx->a_pos;
		py = y->side ? ly->b_pos : ly->a_pos;
		return rc_err_at(c->w.err, EINVAL, inv->file, py.line, py.column,
				 "port '%s:%s' is already used by the link at %d:%d",
				 inv->devices[y->dev].name, y->port, px.line, px.column);
	}
	return 0;
}

static int read_links(struct ctx *c, const struct yw_map *root)
{
	const struct yd_node *list;
	char path[YW_PATH_MAX];
	int rc = yw_f_seq(&c->w, root, "links", &list);

	if (rc < 0)
		return rc;
	for (size_t i = 0; rc == 1 && i < list->n; i++) {
		yw_index(path, "links", i);
		if (read_link(c, list->kids[i], path) < 0)
			return -EINVAL;
	}
	return check_ports_used_once(c);
}

/* A switch with a link to a host is a leaf, unless the inventory says otherwise. */
static void derive_roles(struct ctx *c)
{
	struct rc_inventory *inv = c->inv;

	for (size_t i = 0; i < inv->n_devices; i++)
		if (inv->devices[i].kind == RC_DEV_SWITCH && !c->role_given[i])
			inv->devices[i].role = RC_ROLE_SPINE;
	for (size_t i = 0; i < inv->n_links; i++) {
		size_t a = inv->links[i].a.dev, b = inv->links[i].b.dev;

		if (inv->devices[a].kind == RC_DEV_HOST && !c->role_given[b] &&
		    inv->devices[b].kind == RC_DEV_SWITCH)
			inv->devices[b].role = RC_ROLE_LEAF;
		if (inv->devices[b].kind == RC_DEV_HOST && !c->role_given[a] &&
		    inv->devices[a].kind == RC_DEV_SWITCH)
			inv->devices[a].role = RC_ROLE_LEAF;
	}
}

/* ---- the file ---- */

static int read_defaults(struct ctx *c, const struct yw_map *root)
{
	struct yw_map d;
	int rc;

	c->ssh.port = RC_SSH_PORT_DEFAULT;
	c->ssh.connect_timeout_ms = RC_SSH_CONNECT_TIMEOUT_MS_DEFAULT;
	c->ssh.command_timeout_ms = RC_SSH_COMMAND_TIMEOUT_MS_DEFAULT;
	c->rest.timeout_ms = RC_REST_TIMEOUT_MS_DEFAULT;
	rc = yw_f_map(&c->w, root, "defaults", defaults_keys, &d);
	if (rc <= 0)
		return rc;
	if (ydev_read_ssh(&c->w, &d, "ssh", c->inv->strings, &c->ssh) < 0 ||
	    ydev_read_rest(&c->w, &d, "rest", c->inv->strings, &c->rest, c->warn) < 0 ||
	    ydev_read_credentials(&c->w, &d, "credentials", c->inv->strings, &c->cred) < 0 ||
	    read_agent_command(c, &d, &c->agent_command) < 0 ||
	    read_proxy_jump(&c->w, &d, &c->jump) < 0)
		return -EINVAL;
	return 0;
}

/* The device array grew by doubling; what it holds is kept for the whole run, so the room
 * beyond it goes back (up to half: 1.5 MB at 2,176 devices).  Before the index is built:
 * the index points into the devices. */
static void fit_devices(struct ctx *c)
{
	struct rc_device *d = realloc(c->inv->devices, c->inv->n_devices * sizeof(*d));

	if (d) { /* else the larger array stays, which is no error */
		c->inv->devices = d;
		c->cap_devices = c->inv->n_devices;
	}
}

static int read_inventory(struct ctx *c, const struct yd_node *top)
{
	struct yw_map root;
	int rc;

	if (yw_check_header(&c->w, top, "Inventory", " (a policy is given with -p)") < 0 ||
	    yw_map(&c->w, top, "", root_keys, &root) < 0 || read_defaults(c, &root) < 0 ||
	    read_devices(c, &root, "hosts", false) < 0 ||
	    read_devices(c, &root, "switches", true) < 0)
		return -EINVAL;
	if (c->inv->n_devices == 0)
		return yw_fail(&c->w, top, "the inventory has no hosts and no switches");
	fit_devices(c);
	rc = build_device_index(c);
	if (rc == 0)
		rc = check_unique_names(c);
	if (rc == 0)
		rc = read_links(c, &root);
	if (rc == 0)
		derive_roles(c);
	return rc;
}

static int load_doc(struct yd_doc *doc, struct rc_inventory *out, struct rc_warnings *warn,
		    struct rc_err *err)
{
	struct ctx c = {.w = {.file = doc->file, .err = err}, .inv = out, .warn = warn};
	int rc;

	snprintf(out->file, sizeof(out->file), "%s", doc->file);
	out->strings = rc_strpool_new();
	rc = out->strings ? read_inventory(&c, doc->root) : rc_errf(err, ENOMEM, "out of memory");
	free(c.role_given);
	yd_free(doc);
	if (rc < 0) {
		rc_inventory_fini(out);
		return rc == -ENOMEM ? rc : -EINVAL;
	}
	return 0;
}

int rc_inventory_load(const char *path, struct rc_inventory *out, struct rc_warnings *warn,
		      struct rc_err *err)
{
	struct yd_doc doc;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = yd_load_file(path, &doc, err);
	if (rc < 0)
		return rc;
	return load_doc(&doc, out, warn, err);
}

int rc_inventory_load_buffer(const char *name, const char *buf, size_t len,
			     struct rc_inventory *out, struct rc_warnings *warn, struct rc_err *err)
{
	struct yd_doc doc;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = yd_load_buffer(name, buf, len, &doc, err);
	if (rc < 0)
		return rc;
	return load_doc(&doc, out, warn, err);
}

void rc_inventory_fini(struct rc_inventory *inv)
{
	if (!inv)
		return;
	for (size_t i = 0; i < inv->n_devices; i++)
		free(inv->devices[i].ports);
	free(inv->devices);
	free(inv->links);
	if (inv->index) {
		free(inv->index->by_name);
		free(inv->index->dports);
		free(inv->index->eps);
		free(inv->index);
	}
	rc_strpool_free(inv->strings);
	inv->devices = NULL;
	inv->links = NULL;
	inv->index = NULL;
	inv->strings = NULL;
	inv->n_devices = inv->n_links = 0;
}

/* ---- lookups ---- */

const struct rc_device *rc_inventory_device(const struct rc_inventory *inv, const char *name)
{
	ptrdiff_t i = find_device(inv, name);

	return i < 0 ? NULL : &inv->devices[i];
}

ptrdiff_t rc_inventory_device_index(const struct rc_inventory *inv, const char *name)
{
	return find_device(inv, name);
}

const struct rc_link *rc_inventory_link_of(const struct rc_inventory *inv, size_t dev,
					   const char *port)
{
	const struct ep *e;

	if (inv->index && inv->index->eps) {
		e = find_ep(inv->index->eps, inv->index->n_eps, dev, port);
		return e ? &inv->links[e->link] : NULL;
	}
	for (size_t i = 0; i < inv->n_links; i++) {
		const struct rc_link *l = &inv->links[i];

		if ((l->a.dev == dev && !strcmp(l->a.port, port)) ||
		    (l->b.dev == dev && !strcmp(l->b.port, port)))
			return l;
	}
	return NULL;
}

int rc_inventory_policy(const struct rc_inventory *inv, size_t dev, const struct rc_policy *base,
			struct rc_policy *out, struct rc_err *err)
{
	int rc = rc_policy_for_device(base, &inv->devices[dev], out, err);

	if (rc < 0 && err && err->line > 0)
		snprintf(err->file, sizeof(err->file), "%s", inv->file);
	return rc;
}

const char *rc_platform_name(enum rc_platform p)
{
	switch (p) {
	case RC_PLAT_HOST:
		return "host";
	case RC_PLAT_NVUE:
		return "nvue";
	case RC_PLAT_SONIC:
		return "sonic";
	case RC_PLAT_EOS:
		return "eos";
	}
	return "?";
}

const char *rc_transport_name(enum rc_transport t)
{
	switch (t) {
	case RC_TRANSPORT_LOCAL:
		return "local";
	case RC_TRANSPORT_SSH:
		return "ssh";
	case RC_TRANSPORT_REST:
		return "rest";
	}
	return "?";
}

const char *rc_role_name(enum rc_role r)
{
	switch (r) {
	case RC_ROLE_HOST:
		return "host";
	case RC_ROLE_LEAF:
		return "leaf";
	case RC_ROLE_SPINE:
		return "spine";
	}
	return "?";
}
