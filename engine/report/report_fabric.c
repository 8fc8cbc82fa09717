/* SPDX-License-Identifier: Apache-2.0 */
/* Link and host checks of a fabric result, in text or JSON with the one printer:
 *
 *   link gpu001:enp12s0np0 -- leaf01:swp1: mismatch
 *     pfc_enabled            3 | none
 *   host gpu002: NICs land on switches that differ
 *     ecn.kmin_bytes         leaf01:swp2 159744 | leaf02:swp2 1048576
 *
 * JSON: "links": [{"a","b","status":"ok|mismatch|unknown","mismatches":[{"field","a","b"}]}],
 *       "hosts": [{"host","status",
 *                  "mismatches":[{"field","a_port","a","b_port","b"}]}] */
#include <string.h>

#include "rocectl/group.h"
#include "rocectl/result.h"

static const char *status_name(enum rc_check_status s)
{
	return s == RC_CHECK_OK ? "ok" : s == RC_CHECK_MISMATCH ? "mismatch" : "unknown";
}

void rc_report_link(struct rc_out *o, const struct rc_inventory *inv, const struct rc_link_check *c)
{
	const struct rc_link *l = &inv->links[c->link];
	char a[2 * RC_NAME_MAX], b[2 * RC_NAME_MAX];

	snprintf(a, sizeof(a), "%s:%s", inv->devices[l->a.dev].name, l->a.port);
	snprintf(b, sizeof(b), "%s:%s", inv->devices[l->b.dev].name, l->b.port);
	rc_out_open_object(o, NULL);
	rc_out_str(o, "a", "link %s", a);
	rc_out_str(o, "b", " -- %s: ", b);
	rc_out_str(o, "status", "%s\n", status_name(c->status));
	rc_out_open_array(o, "mismatches");
	for (size_t m = 0; m < c->n; m++) {
		rc_out_open_object(o, NULL);
		rc_out_str(o, "field", "  %-24s", c->v[m].field);
		rc_out_str(o, "a", " %s |", c->v[m].a_value);
		rc_out_str(o, "b", " %s\n", c->v[m].b_value);
		rc_out_close_object(o);
	}
	rc_out_close_array(o);
	rc_out_close_object(o);
}

void rc_report_host(struct rc_out *o, const struct rc_inventory *inv, const struct rc_host_check *c)
{
	rc_out_open_object(o, NULL);
	rc_out_str(o, "host", "host %s: ", inv->devices[c->dev].name);
	rc_out_str(o, "status", NULL, status_name(c->status));
	rc_out_text(o, "%s\n",
		    c->status == RC_CHECK_OK	     ? "every NIC lands on the same QoS"
		    : c->status == RC_CHECK_MISMATCH ? "NICs land on switches that differ"
						     : "a switch side could not be read");
	rc_out_open_array(o, "mismatches");
	for (size_t m = 0; m < c->n; m++) {
		rc_out_open_object(o, NULL);
		rc_out_str(o, "field", "  %-24s", c->v[m].field);
		rc_out_str(o, "a_port", " %s", c->v[m].a_where);
		rc_out_str(o, "a", " %s |", c->v[m].a_value);
		rc_out_str(o, "b_port", " %s", c->v[m].b_where);
		rc_out_str(o, "b", " %s\n", c->v[m].b_value);
		rc_out_close_object(o);
	}
	rc_out_close_array(o);
	rc_out_close_object(o);
}

/* The text at fleet size (include/rocectl/group.h): one line per field and pair of values,
 * with the links (a ends -- b ends) or hosts that have it. */
static void group_link(struct rc_group *g, const struct rc_inventory *inv,
		       const struct rc_link_check *c)
{
	const struct rc_link *l = &inv->links[c->link];
	const struct rc_device *a = &inv->devices[l->a.dev], *b = &inv->devices[l->b.dev];
	char what[RC_GROUP_WHAT_LEN];

	g->seq++;
	if (c->status == RC_CHECK_UNKNOWN)
		rc_group_add(g, RC_GROUP_LINK, "link not checked: an end was not read", NULL, a,
			     b->name);
	for (size_t m = 0; m < c->n; m++) {
		snprintf(what, sizeof(what), "%s %s | %s", c->v[m].field, c->v[m].a_value,
			 c->v[m].b_value);
		rc_group_add(g, RC_GROUP_LINK, what, NULL, a, b->name);
	}
}

/* A host's sides are in the order they were read: the values of a pair are sorted so that
 * "dscp | pcp" and "pcp | dscp" are one kind. */
static void group_host(struct rc_group *g, const struct rc_inventory *inv,
		       const struct rc_host_check *c)
{
	const struct rc_device *h = &inv->devices[c->dev];
	char what[RC_GROUP_WHAT_LEN];

	g->seq++;
	if (c->status == RC_CHECK_UNKNOWN)
		rc_group_add(g, RC_GROUP_HOST, "not checked: a switch side was not read", NULL, h,
			     NULL);
	for (size_t m = 0; m < c->n; m++) {
		const char *x = c->v[m].a_value, *y = c->v[m].b_value;
		bool swap = strcmp(x, y) > 0;

		snprintf(what, sizeof(what), "%s %s | %s", c->v[m].field, swap ? y : x,
			 swap ? x : y);
		rc_group_add(g, RC_GROUP_HOST, what, NULL, h, NULL);
	}
}

void rc_checks_begin(struct rc_checks *c, struct rc_out *o)
{
	memset(c, 0, sizeof(*c));
	c->o = o;
	rc_group_init(&c->g, o, RC_REPORT_VERIFY);
	c->g.max_lines = RC_GROUP_CHECK_LINES;
}

/* Not grouped (JSON, --details): the "links" array (section 1), then the "hosts" array (2),
 * both always there; 3: both closed. */
static void checks_to(struct rc_checks *c, int section)
{
	while (!c->g.grouped && c->section < section) {
		if (c->section == 1 || c->section == 2)
			rc_out_close_array(c->o);
		c->section++;
		if (c->section <= 2)
			rc_out_open_array(c->o, c->section == 1 ? "links" : "hosts");
	}
}

void rc_checks_link(struct rc_checks *c, const struct rc_inventory *inv,
		    const struct rc_link_check *lc)
{
	c->n_links++;
	c->bad_links += lc->status != RC_CHECK_OK;
	if (c->g.grouped) {
		group_link(&c->g, inv, lc);
		return;
	}
	checks_to(c, 1);
	if (rc_out_json(c->o) || lc->status != RC_CHECK_OK)
		rc_report_link(c->o, inv, lc);
}

void rc_checks_host(struct rc_checks *c, const struct rc_inventory *inv,
		    const struct rc_host_check *hc)
{
	c->n_hosts++;
	c->bad_hosts += hc->status != RC_CHECK_OK;
	if (c->g.grouped) {
		group_host(&c->g, inv, hc);
		return;
	}
	checks_to(c, 2);
	if (rc_out_json(c->o) || hc->status != RC_CHECK_OK)
		rc_report_host(c->o, inv, hc);
}

void rc_checks_end(struct rc_checks *c)
{
	if (c->g.grouped) {
		rc_group_print(&c->g);
	} else {
		checks_to(c, 3);
	}
	rc_group_fini(&c->g);
	rc_out_text(c->o,
		    "links: %zu checked, %zu not consistent; dual-homed hosts: %zu checked, "
		    "%zu asymmetric\n",
		    c->n_links, c->bad_links, c->n_hosts, c->bad_hosts);
}

void rc_report_checks(struct rc_out *o, const struct rc_result *r, size_t *bad_links,
		      size_t *bad_hosts)
{
	struct rc_checks c;

	rc_checks_begin(&c, o);
	for (size_t i = 0; i < r->n_links; i++)
		rc_checks_link(&c, r->inv, &r->links[i]);
	for (size_t i = 0; i < r->n_hosts; i++)
		rc_checks_host(&c, r->inv, &r->hosts[i]);
	rc_checks_end(&c);
	*bad_links = c.bad_links;
	*bad_hosts = c.bad_hosts;
}
