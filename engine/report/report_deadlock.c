/* SPDX-License-Identifier: Apache-2.0 */
/* verify's deadlock section (include/rocectl/deadlock.h): the links that break up-down, the
 * cycles of the buffer dependency graph, and the switch ports on them whose PFC watchdog is
 * off while the policy keeps a priority lossless. */
#include <stdio.h>
#include <string.h>

#include "rocectl/deadlock.h"

static void endpoint(char *buf, size_t len, const struct rc_inventory *inv,
		     const struct rc_link_end *e)
{
	snprintf(buf, len, "%s:%s", inv->devices[e->dev].name, e->port);
}

/* Watchdog state of one end: "on", "off" or "unknown" (not read, not readable here). */
static const char *watchdog_of(const struct rc_result *r, const struct rc_link_end *e)
{
	const struct rc_fleet_dev *d = rc_result_device(r, e->dev);
	const struct rc_port_state *p = d && !d->rc ? rc_result_port(d, e->port, false) : NULL;

	if (!p || !(p->qos.known & RC_F_WATCHDOG) || (p->qos.unsupported & RC_F_WATCHDOG))
		return "unknown";
	return p->qos.watchdog.enabled ? "on" : "off";
}

static bool result_selected(const void *ctx, size_t dev)
{
	return rc_result_device(ctx, dev) != NULL;
}

static const char *result_watchdog(const void *ctx, size_t link, int side)
{
	const struct rc_result *r = ctx;
	const struct rc_link *l = &r->fleet->inv->links[link];

	return watchdog_of(r, side ? &l->b : &l->a);
}

static struct rc_dl_ends result_ends(const struct rc_result *r)
{
	return (struct rc_dl_ends){
	    .lossless = r->fleet->pol ? r->fleet->pol->pfc_priorities : 0,
	    .selected = result_selected,
	    .watchdog = result_watchdog,
	    .ctx = r,
	};
}

static void out_cycle(struct rc_out *o, const struct rc_inventory *inv, const struct rc_dl_cycle *c)
{
	rc_out_open_array(o, NULL);
	rc_out_text(o, "  cycle:");
	for (size_t i = 0; i < c->n; i++) {
		const struct rc_link *l = &inv->links[c->node[i] / 2];
		const struct rc_link_end *from = c->node[i] % 2 ? &l->b : &l->a;
		const struct rc_link_end *to = c->node[i] % 2 ? &l->a : &l->b;
		char a[2 * RC_NAME_MAX + 2], b[2 * RC_NAME_MAX + 2], hop[4 * RC_NAME_MAX + 8];

		endpoint(a, sizeof(a), inv, from);
		endpoint(b, sizeof(b), inv, to);
		snprintf(hop, sizeof(hop), "%s -> %s", a, b);
		rc_out_str(o, NULL, i ? ", %s" : " %s", hop);
	}
	rc_out_text(o, "%s\n", c->truncated ? ", ..." : "");
	rc_out_close_array(o);
}

void rc_report_deadlock(struct rc_out *o, const struct rc_deadlock *dl, const struct rc_result *r,
			size_t *unprotected)
{
	struct rc_dl_ends e = result_ends(r);

	rc_report_deadlock_ends(o, dl, &e, unprotected);
}

void rc_report_deadlock_ends(struct rc_out *o, const struct rc_deadlock *dl,
			     const struct rc_dl_ends *e, size_t *unprotected)
{
	const struct rc_inventory *inv = dl->inv;
	uint8_t lossless = e->lossless;
	struct rc_out_list lat = {0}, cyc = {0}, unp = {0}; /* text: the first few of each */
	size_t unknown = 0;

	*unprotected = 0;
	rc_out_open_object(o, "deadlock");
	rc_out_bool(o, "prone", NULL, dl->prone && lossless);
	rc_out_open_array(o, "lossless_priorities");
	for (int p = 0; p < RC_NPRIO; p++)
		if (lossless & (1u << p))
			rc_out_int(o, NULL, NULL, p);
	rc_out_close_array(o);
	if (dl->prone && lossless) {
		rc_out_text(o, "deadlock risk on lossless priorit%s",
			    lossless & (lossless - 1) ? "ies" : "y");
		for (int p = 0; p < RC_NPRIO; p++)
			if (lossless & (1u << p))
				rc_out_text(o, " %d", p);
		rc_out_text(o,
			    ": %zu link%s break%s up-down routing, %zu cycle%s in the buffer "
			    "dependency graph\n",
			    dl->n_lateral, dl->n_lateral == 1 ? "" : "s",
			    dl->n_lateral == 1 ? "s" : "", dl->n_cyclic_components,
			    dl->n_cyclic_components == 1 ? "" : "s");
	}
	rc_out_open_array(o, "lateral_links");
	for (size_t i = 0; i < dl->n_lateral; i++) {
		const struct rc_link *l = &inv->links[dl->lateral[i]];
		char a[2 * RC_NAME_MAX + 2], b[2 * RC_NAME_MAX + 2];

		endpoint(a, sizeof(a), inv, &l->a);
		endpoint(b, sizeof(b), inv, &l->b);
		rc_out_list_item(o, &lat);
		rc_out_open_object(o, NULL);
		rc_out_str(o, "kind", "  %s link", rc_deadlock_lateral_kind(inv, dl->lateral[i]));
		rc_out_str(o, "a", " %s", a);
		rc_out_str(o, "b", " -- %s\n", b);
		rc_out_close_object(o);
	}
	rc_out_list_end(o, &lat, "links");
	rc_out_close_array(o);
	rc_out_open_array(o, "cycles");
	for (size_t i = 0; i < dl->n_cycles; i++) {
		rc_out_list_item(o, &cyc);
		out_cycle(o, inv, &dl->cycles[i]);
	}
	rc_out_list_end(o, &cyc, "cycles");
	rc_out_close_array(o);
	rc_out_open_array(o, "unprotected");
	for (size_t l = 0; lossless && l < inv->n_links; l++) {
		const struct rc_link_end *ends[2] = {&inv->links[l].a, &inv->links[l].b};

		if (!dl->prone_link[l])
			continue;
		for (int k = 0; k < 2; k++) {
			const char *wd;
			char at[2 * RC_NAME_MAX + 2];

			if (inv->devices[ends[k]->dev].kind != RC_DEV_SWITCH ||
			    !e->selected(e->ctx, ends[k]->dev))
				continue;
			wd = e->watchdog(e->ctx, l, k);
			if (!strcmp(wd, "on"))
				continue;
			endpoint(at, sizeof(at), inv, ends[k]);
			rc_out_list_item(o, &unp);
			rc_out_open_object(o, NULL);
			rc_out_str(o, "device", NULL, inv->devices[ends[k]->dev].name);
			rc_out_str(o, "port", NULL, ends[k]->port);
			rc_out_str(o, "watchdog", NULL, wd);
			if (!strcmp(wd, "off")) {
				rc_out_text(o,
					    "  %s: PFC watchdog off on a deadlock-prone link "
					    "(drift: pfc.watchdog must be on here)\n",
					    at);
				(*unprotected)++;
			} else {
				rc_out_text(
				    o, "  %s: PFC watchdog unknown on a deadlock-prone link\n", at);
				unknown++;
			}
			rc_out_close_object(o);
		}
	}
	rc_out_list_end(o, &unp, "ports");
	rc_out_close_array(o);
	rc_out_str(o, "status", NULL,
		   !dl->prone || !lossless ? "ok"
		   : *unprotected	   ? "unprotected"
		   : unknown		   ? "unknown"
					   : "protected");
	rc_out_close_object(o);
}

size_t rc_deadlock_unprotected(const struct rc_deadlock *dl, const struct rc_result *r)
{
	struct rc_dl_ends e = result_ends(r);

	return rc_deadlock_unprotected_ends(dl, &e);
}

size_t rc_deadlock_unprotected_ends(const struct rc_deadlock *dl, const struct rc_dl_ends *e)
{
	size_t off = 0;

	if (!e->lossless)
		return 0;
	for (size_t l = 0; l < dl->inv->n_links; l++) {
		const struct rc_link_end *ends[2] = {&dl->inv->links[l].a, &dl->inv->links[l].b};

		for (int k = 0; dl->prone_link[l] && k < 2; k++)
			off += dl->inv->devices[ends[k]->dev].kind == RC_DEV_SWITCH &&
			       e->selected(e->ctx, ends[k]->dev) &&
			       !strcmp(e->watchdog(e->ctx, l, k), "off");
	}
	return off;
}

void rc_report_deadlock_prom(FILE *f, const struct rc_deadlock *dl, const struct rc_result *r)
{
	rc_report_deadlock_prom_n(f, dl, rc_deadlock_unprotected(dl, r));
}

void rc_report_deadlock_prom_n(FILE *f, const struct rc_deadlock *dl, size_t unprotected)
{
	size_t prone = 0;

	for (size_t l = 0; l < dl->inv->n_links; l++)
		prone += dl->prone_link[l];
	fprintf(f,
		"# HELP rocectl_deadlock_prone_links links that break up-down routing or lie on a "
		"cycle of the buffer dependency graph\n"
		"# TYPE rocectl_deadlock_prone_links gauge\n"
		"rocectl_deadlock_prone_links %zu\n"
		"# HELP rocectl_deadlock_unprotected_ports switch ports of those links whose PFC "
		"watchdog is off while a priority is lossless\n"
		"# TYPE rocectl_deadlock_unprotected_ports gauge\n"
		"rocectl_deadlock_unprotected_ports %zu\n",
		prone, unprotected);
}
