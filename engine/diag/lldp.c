/* SPDX-License-Identifier: Apache-2.0 */
/* LLDP neighbours of every device and the cabling they show (include/rocectl/lldp.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/devrun.h"
#include "rocectl/lldp.h"
#include "rocectl/util.h"

struct read_ctx {
	const struct rc_fleet *f;
	struct rc_lldp *l;
};

void rc_lldp_read_session(const struct rc_device *dev, struct rc_session *s,
			  struct rc_lldp_dev *out)
{
	const struct rc_driver *drv = rc_driver_find(rc_driver_name_for(dev));
	int rc;

	if (!drv || !drv->neighbors) {
		out->state = RC_LLDP_UNKNOWN;
		rc_errf(&out->err, EOPNOTSUPP, "the %s driver reads no LLDP",
			drv ? drv->name : rc_driver_name_for(dev));
		return;
	}
	rc = drv->neighbors(s, &out->nb, &out->err);
	if (rc == -ENOENT) {
		out->state = RC_LLDP_UNKNOWN;
		rc_neighbors_fini(&out->nb);
		return;
	}
	out->state = rc ? RC_LLDP_ERROR : RC_LLDP_OK;
}

void rc_lldp_dev_free(struct rc_lldp_dev *d)
{
	if (!d)
		return;
	rc_neighbors_fini(&d->nb);
	free(d);
}

/* A copy of what the fleet's read got (the fleet keeps its own). */
static int copy_dev(const struct rc_lldp_dev *from, struct rc_lldp_dev *to)
{
	*to = *from;
	to->nb.v = NULL;
	to->nb.n = to->nb.cap = 0;
	to->nb.ids = NULL;
	to->nb.n_ids = to->nb.cap_ids = 0;
	for (size_t i = 0; i < from->nb.n; i++)
		if (rc_neighbors_add(&to->nb, from->nb.v[i].port, from->nb.v[i].device,
				     from->nb.v[i].remote_port))
			return -ENOMEM;
	for (size_t i = 0; i < from->nb.n_ids; i++)
		if (rc_neighbors_add_ident(&to->nb, from->nb.ids[i].port, from->nb.ids[i].alias,
					   from->nb.ids[i].mac))
			return -ENOMEM;
	return 0;
}

static int read_one(void *arg, size_t i)
{
	struct read_ctx *c = arg;
	const struct rc_fleet_dev *fd = &c->f->devs[i];
	const struct rc_device *dev = &c->f->inv->devices[fd->index];
	struct rc_lldp_dev *out = &c->l->d[fd->index];
	const struct rc_driver *drv = rc_driver_find(rc_driver_name_for(dev));
	struct rc_devrun tmp = {0};
	struct rc_session *s = fd->run.sess;
	int rc = 0;

	if (fd->lldp) {
		if (copy_dev(fd->lldp, out)) {
			rc_neighbors_fini(&out->nb);
			out->state = RC_LLDP_ERROR;
			rc_errf(&out->err, ENOMEM, "out of memory");
		}
		return out->state == RC_LLDP_ERROR;
	}
	if (drv && drv->neighbors && !s) {
		rc = rc_devrun_open(&tmp, dev, fd->index, &c->f->opts, NULL, 0, &out->err);
		s = tmp.sess;
	}
	if (rc)
		out->state = RC_LLDP_ERROR;
	else
		rc_lldp_read_session(dev, s, out);
	if (tmp.sess)
		rc_devrun_close(&tmp);
	return out->state == RC_LLDP_ERROR;
}

int rc_lldp_read(struct rc_lldp *l, const struct rc_fleet *f, struct rc_err *err)
{
	struct read_ctx c = {f, l};

	memset(l, 0, sizeof(*l));
	l->inv = f->inv;
	l->d = calloc(f->inv->n_devices ? f->inv->n_devices : 1, sizeof(*l->d));
	if (!l->d)
		return rc_errf(err, ENOMEM, "out of memory");
	rc_pool_run(f->parallel, false, f->n, read_one, &c);
	rc_lldp_resolve(l);
	return 0;
}

void rc_lldp_fini(struct rc_lldp *l)
{
	for (size_t i = 0; l->d && i < l->inv->n_devices; i++)
		rc_neighbors_fini(&l->d[i].nb);
	free(l->d);
	l->d = NULL;
}

/* ---- the check ---------------------------------------------------------------------------- */

/* The inventory device an LLDP system name stands for: the name, or its first DNS label. */
static ptrdiff_t device_of(const struct rc_inventory *inv, const char *sysname)
{
	char label[RC_NAME_MAX];
	const char *dot = strchr(sysname, '.');
	ptrdiff_t i = rc_inventory_device_index(inv, sysname);

	if (i >= 0 || !dot || (size_t)(dot - sysname) >= sizeof(label))
		return i;
	memcpy(label, sysname, (size_t)(dot - sysname));
	label[dot - sysname] = '\0';
	return rc_inventory_device_index(inv, label);
}

/* lldpd's default port id is the MAC address: "aa:bb:cc:dd:ee:ff" (EOS's dotted form is
 * turned into this one by its parser, drivers/switch/eos_lldp.c). */
static bool is_mac(const char *s)
{
	if (strlen(s) != 17)
		return false;
	for (int i = 0; i < 17; i++)
		if (i % 3 == 2 ? s[i] != ':' && s[i] != '-'
			       : !strchr("0123456789abcdefABCDEF", s[i]))
			return false;
	return true;
}

/* Two MACs equal whatever the case and separator. */
static bool same_mac(const char *a, const char *b)
{
	if (!is_mac(a) || !is_mac(b))
		return false;
	for (int i = 0; i < 17; i++)
		if (i % 3 != 2 && (a[i] | 0x20) != (b[i] | 0x20))
			return false;
	return true;
}

/* Device r's port whose identity (alias or MAC) is `id`, NULL when none says so. */
static const char *port_by_ident(const struct rc_lldp_dev *r, const char *id)
{
	for (size_t i = 0; i < r->nb.n_ids; i++) {
		const struct rc_port_ident *e = &r->nb.ids[i];

		if ((e->alias[0] && !strcmp(e->alias, id)) || same_mac(e->mac, id))
			return e->port;
	}
	return NULL;
}

/* The device whose identities hold the MAC `id` (a neighbour that sent no System Name), -1
 * when none or several do. */
static ptrdiff_t device_by_mac(const struct rc_lldp *l, const char *id, const char **port)
{
	ptrdiff_t found = -1;

	for (size_t d = 0; is_mac(id) && d < l->inv->n_devices; d++) {
		const char *p = port_by_ident(&l->d[d], id);

		if (!p)
			continue;
		if (found >= 0)
			return -1;
		found = (ptrdiff_t)d;
		*port = p;
	}
	return found;
}

/* Neighbours name the far port as the far device advertises it: SONiC's alias (lldpmgrd's
 * `portidsubtype local <alias>`, conformance sonic/FACTS.md facts 6-7), a MAC (lldpd's
 * default, a NIC's firmware agent, host/FACTS.md fact 10).  Once every device is read, each
 * such ID is replaced by the port's name where the far device's identities say which
 * port it is, and a neighbour without a System Name gets the device whose port has that
 * MAC; what no identity explains is left as seen. */
void rc_lldp_resolve(struct rc_lldp *l)
{
	for (size_t d = 0; d < l->inv->n_devices; d++) {
		struct rc_lldp_dev *ld = &l->d[d];

		for (size_t i = 0; ld->state == RC_LLDP_OK && i < ld->nb.n; i++) {
			struct rc_neighbor *n = &ld->nb.v[i];
			ptrdiff_t r = n->device[0] ? device_of(l->inv, n->device) : -1;
			const char *port = NULL;

			if (!n->device[0] && (r = device_by_mac(l, n->remote_port, &port)) >= 0)
				snprintf(n->device, sizeof(n->device), "%s",
					 l->inv->devices[r].name);
			else if (r >= 0)
				port = port_by_ident(&l->d[r], n->remote_port);
			if (port && strcmp(port, n->remote_port))
				snprintf(n->remote_port, sizeof(n->remote_port), "%s", port);
		}
	}
}

static const struct rc_neighbor *neighbor_on(const struct rc_lldp_dev *d, const char *port)
{
	for (size_t i = 0; i < d->nb.n; i++)
		if (!strcmp(d->nb.v[i].port, port))
			return &d->nb.v[i];
	return NULL;
}

/* Does neighbour n stand for the link end e? */
static bool is_end(const struct rc_inventory *inv, const struct rc_neighbor *n,
		   const struct rc_link_end *e)
{
	ptrdiff_t d = device_of(inv, n->device);

	/* no System Name and a MAC no device's identities hold (a NIC's firmware agent):
	 * which device it is cannot be told, so it is not called miscabled */
	if (!n->device[0])
		return is_mac(n->remote_port);
	return d == (ptrdiff_t)e->dev &&
	       (is_mac(n->remote_port) || !strcmp(n->remote_port, e->port));
}

static int add(struct rc_cabling *c, const struct rc_cable_finding *f)
{
	if (rc_array_reserve((void **)&c->v, &c->cap, c->n + 1, sizeof(*c->v), 8))
		return -ENOMEM;
	c->v[c->n++] = *f;
	return 0;
}

static void where(char *buf, size_t len, const struct rc_inventory *inv,
		  const struct rc_link_end *e)
{
	snprintf(buf, len, "%s:%s", inv->devices[e->dev].name, e->port);
}

/* What the LLDP of one end of link k (side s) says of it; false when it agrees. */
static bool end_finding(const struct rc_inventory *inv, const struct rc_lldp_dev *d, size_t k,
			int s, struct rc_cable_finding *f)
{
	const struct rc_link_end *ends[2] = {&inv->links[k].a, &inv->links[k].b};
	const struct rc_neighbor *n = neighbor_on(d, ends[s]->port);

	if (n && is_end(inv, n, ends[!s]))
		return false;
	memset(f, 0, sizeof(*f));
	f->link = k;
	f->dev = ends[s]->dev;
	f->kind = n ? RC_CABLE_MISCABLED : RC_CABLE_MISSING;
	snprintf(f->port, sizeof(f->port), "%s", ends[s]->port);
	if (n)
		snprintf(f->seen, sizeof(f->seen), "%s:%s", n->device, n->remote_port);
	where(f->want, sizeof(f->want), inv, ends[!s]);
	return true;
}

/* Neighbours of device d on ports no link names, that are devices of the inventory. */
static int extra_findings(struct rc_cabling *c, const struct rc_inventory *inv, size_t d,
			  const struct rc_lldp_dev *ld)
{
	for (size_t i = 0; ld->state == RC_LLDP_OK && i < ld->nb.n; i++) {
		const struct rc_neighbor *n = &ld->nb.v[i];
		struct rc_cable_finding f = {.kind = RC_CABLE_EXTRA, .link = SIZE_MAX, .dev = d};

		if (rc_inventory_link_of(inv, d, n->port) || device_of(inv, n->device) < 0)
			continue;
		snprintf(f.port, sizeof(f.port), "%s", n->port);
		snprintf(f.seen, sizeof(f.seen), "%s:%s", n->device, n->remote_port);
		if (add(c, &f))
			return -ENOMEM;
	}
	return 0;
}

int rc_cabling_check(struct rc_cabling *c, const struct rc_lldp *l, struct rc_err *err)
{
	const struct rc_inventory *inv = l->inv;
	struct rc_cable_finding f;

	memset(c, 0, sizeof(*c));
	for (size_t k = 0; k < inv->n_links; k++) {
		const struct rc_link_end *ends[2] = {&inv->links[k].a, &inv->links[k].b};
		bool read = false;

		for (int s = 0; s < 2; s++) {
			const struct rc_lldp_dev *d = &l->d[ends[s]->dev];

			if (d->state != RC_LLDP_OK)
				continue;
			read = true;
			if (end_finding(inv, d, k, s, &f) && add(c, &f))
				goto oom;
		}
		c->links_checked += read;
		c->links_unknown += !read;
	}
	for (size_t d = 0; d < inv->n_devices; d++)
		if (extra_findings(c, inv, d, &l->d[d]))
			goto oom;
	return 0;
oom:
	rc_cabling_fini(c);
	return rc_errf(err, ENOMEM, "out of memory");
}

int rc_cabling_check_device(struct rc_cabling *c, const struct rc_inventory *inv, size_t dev,
			    const struct rc_lldp_dev *ld, const size_t *ends, size_t n_ends,
			    struct rc_err *err)
{
	struct rc_cable_finding f;

	if (ld->state != RC_LLDP_OK)
		return 0;
	for (size_t i = 0; i < n_ends; i++)
		if (end_finding(inv, ld, ends[i] / 2, (int)(ends[i] % 2), &f) && add(c, &f))
			return rc_errf(err, ENOMEM, "out of memory");
	if (extra_findings(c, inv, dev, ld))
		return rc_errf(err, ENOMEM, "out of memory");
	return 0;
}

void rc_cabling_fini(struct rc_cabling *c)
{
	free(c->v);
	memset(c, 0, sizeof(*c));
}

static const char *rc_cable_kind_name(enum rc_cable_kind k)
{
	return k == RC_CABLE_MISCABLED ? "miscabled" : k == RC_CABLE_MISSING ? "missing" : "extra";
}

/* ---- printers ----------------------------------------------------------------------------- */

static enum rc_lldp_state state_in(const void *ctx, size_t dev)
{
	return ((const struct rc_lldp *)ctx)->d[dev].state;
}

static const char *why_in(const void *ctx, size_t dev)
{
	const struct rc_lldp_dev *d = &((const struct rc_lldp *)ctx)->d[dev];

	return d->state == RC_LLDP_ERROR && d->err.msg[0] ? d->err.msg : NULL;
}

size_t rc_report_cabling(struct rc_out *o, const struct rc_lldp *l, const struct rc_cabling *c)
{
	return rc_report_cabling_states(o, l->inv, state_in, why_in, l, c);
}

/* The devices whose LLDP answer could not be read (cut, failed, an unknown shape) and why:
 * their ends of links are unknown, and the operator is told so rather than left with a
 * count (text: the first few). */
static void report_unreadable(struct rc_out *o, const struct rc_inventory *inv,
			      enum rc_lldp_state (*state)(const void *ctx, size_t dev),
			      const char *(*why)(const void *ctx, size_t dev), const void *ctx)
{
	struct rc_out_list shown = {0};
	bool head = false;

	rc_out_open_array(o, "unreadable");
	for (size_t d = 0; d < inv->n_devices; d++) {
		const char *name = inv->devices[d].name;
		const char *msg = state(ctx, d) == RC_LLDP_ERROR && why ? why(ctx, d) : NULL;
		char quoted[RC_NAME_MAX + 4];

		if (!msg)
			continue;
		if (!head)
			rc_out_text(o, "cabling (LLDP): neighbours not read (the links there are "
				       "unknown):\n");
		head = true;
		/* drivers' errors usually start with the device's name; text says it once */
		snprintf(quoted, sizeof(quoted), "'%s': ", name);
		rc_out_list_item(o, &shown);
		rc_out_open_object(o, NULL);
		rc_out_str(o, "device", strncmp(msg, quoted, strlen(quoted)) ? "  %s: " : "  ",
			   name);
		rc_out_str(o, "error", "%s\n", msg);
		rc_out_close_object(o);
	}
	rc_out_list_end(o, &shown, "devices");
	rc_out_close_array(o);
}

size_t rc_report_cabling_states(struct rc_out *o, const struct rc_inventory *inv,
				enum rc_lldp_state (*state)(const void *ctx, size_t dev),
				const char *(*why)(const void *ctx, size_t dev), const void *ctx,
				const struct rc_cabling *c)
{
	struct rc_out_list shown = {0};

	rc_out_open_object(o, "cabling");
	rc_out_uint(o, "links_checked", NULL, c->links_checked);
	rc_out_uint(o, "links_unknown", NULL, c->links_unknown);
	rc_out_open_array(o, "unknown_devices");
	for (size_t d = 0; d < inv->n_devices; d++)
		if (state(ctx, d) == RC_LLDP_UNKNOWN || state(ctx, d) == RC_LLDP_ERROR)
			rc_out_str(o, NULL, NULL, inv->devices[d].name);
	rc_out_close_array(o);
	report_unreadable(o, inv, state, why, ctx);
	if (c->n)
		rc_out_text(o, "cabling (LLDP): %zu problem%s\n", c->n, c->n == 1 ? "" : "s");
	rc_out_open_array(o, "findings");
	for (size_t i = 0; i < c->n; i++) {
		const struct rc_cable_finding *f = &c->v[i];
		char at[2 * RC_NAME_MAX + 2];

		snprintf(at, sizeof(at), "%s:%s", inv->devices[f->dev].name, f->port);
		rc_out_list_item(o, &shown); /* text: the first few */
		rc_out_open_object(o, NULL);
		rc_out_str(o, "kind", "  %-9s", rc_cable_kind_name(f->kind));
		rc_out_str(o, "at", " %s", at);
		if (f->link != SIZE_MAX) {
			char a[2 * RC_NAME_MAX + 2], b[2 * RC_NAME_MAX + 2],
			    ln[4 * RC_NAME_MAX + 8];

			where(a, sizeof(a), inv, &inv->links[f->link].a);
			where(b, sizeof(b), inv, &inv->links[f->link].b);
			snprintf(ln, sizeof(ln), "%s -- %s", a, b);
			rc_out_str(o, "link", " (link %s)", ln);
		} else {
			rc_out_null(o, "link", NULL);
		}
		rc_out_str(o, "seen", f->seen[0] ? ": sees %s" : ": sees nothing", f->seen);
		rc_out_str(o, "want",
			   f->want[0] ? ", inventory says %s" : ", inventory has no link", f->want);
		rc_out_text(o, "\n");
		rc_out_close_object(o);
	}
	rc_out_list_end(o, &shown, "problems");
	rc_out_close_array(o);
	rc_out_str(o, "status", NULL, c->n ? "drift" : c->links_checked ? "ok" : "unknown");
	rc_out_close_object(o);
	return c->n;
}

void rc_lldp_print_links(struct rc_out *o, const struct rc_lldp *l)
{
	const struct rc_inventory *inv = l->inv;
	char end[2 * RC_NAME_MAX + 2];

	rc_out_text(o, "links:\n");
	rc_out_open_array(o, "links");
	for (size_t d = 0; d < inv->n_devices; d++) {
		const struct rc_lldp_dev *ld = &l->d[d];

		for (size_t i = 0; ld->state == RC_LLDP_OK && i < ld->nb.n; i++) {
			const struct rc_neighbor *n = &ld->nb.v[i];
			ptrdiff_t r = device_of(inv, n->device);
			const struct rc_link *k;
			const struct rc_neighbor *back;

			if (r < 0)
				continue;
			/* a pair seen from both ends is printed once, from the first device */
			back = l->d[r].state == RC_LLDP_OK ? neighbor_on(&l->d[r], n->remote_port)
							   : NULL;
			if (back && (size_t)r < d && device_of(inv, back->device) == (ptrdiff_t)d &&
			    !strcmp(back->remote_port, n->port))
				continue;
			if ((size_t)r == d && strcmp(n->port, n->remote_port) > 0)
				continue;
			rc_out_open_object(o, NULL);
			snprintf(end, sizeof(end), "%s:%s", inv->devices[d].name, n->port);
			if (is_mac(n->remote_port)) {
				/* no link can be written: the far port is not named */
				rc_out_str(o, "a", "  # %s sees ", end);
				rc_out_str(o, "b_device", "%s, port id ", inv->devices[r].name);
				rc_out_str(o, "b_port_id_mac",
					   "%s (a MAC: set lldpd's portidsubtype to ifname)\n",
					   n->remote_port);
				rc_out_close_object(o);
				continue;
			}
			rc_out_str(o, "a", "  - {a: \"%s\"", end);
			snprintf(end, sizeof(end), "%s:%s", inv->devices[r].name, n->remote_port);
			rc_out_str(o, "b", ", b: \"%s\"", end);
			/* keep what the inventory says of the same cable */
			k = rc_inventory_link_of(inv, d, n->port);
			if (k && ((k->a.dev == (size_t)r && !strcmp(k->a.port, n->remote_port)) ||
				  (k->b.dev == (size_t)r && !strcmp(k->b.port, n->remote_port)))) {
				if (k->speed_gbps)
					rc_out_uint(o, "speed_gbps", ", speed: %" PRIu64 "G",
						    k->speed_gbps);
				if (k->cable_length_m)
					rc_out_uint(o, "cable_length_m",
						    ", cable_length: %" PRIu64 "m",
						    k->cable_length_m);
			}
			rc_out_text(o, "}\n");
			rc_out_close_object(o);
		}
	}
	rc_out_close_array(o);
}

void rc_report_cabling_prom(FILE *f, const struct rc_cabling *c)
{
	fprintf(f,
		"# HELP rocectl_cabling_problems links whose LLDP neighbours disagree with the "
		"inventory (miscabled, missing, extra)\n"
		"# TYPE rocectl_cabling_problems gauge\n"
		"rocectl_cabling_problems %zu\n"
		"# HELP rocectl_cabling_links_unknown links no end of which reads LLDP\n"
		"# TYPE rocectl_cabling_links_unknown gauge\n"
		"rocectl_cabling_links_unknown %zu\n",
		c->n, c->links_unknown);
}
