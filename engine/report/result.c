/* SPDX-License-Identifier: Apache-2.0 */
/* Cross-hop checks on a fabric that has been read (include/rocectl/result.h).
 *
 * Per-port compliance is the fleet's diff.  What a port-by-port view cannot see is
 * whether the two ends of a cable agree (a host marking DSCP 26 into priority 3 towards
 * a switch port that classifies it elsewhere), and whether a dual-homed host's NICs land
 * on switches with the same QoS (one ToR differing is drift even when
 * each link looks consistent). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/result.h"

const struct rc_fleet_dev *rc_result_device(const struct rc_result *r, size_t dev)
{
	for (size_t i = 0; i < r->fleet->n; i++)
		if (r->fleet->devs[i].index == dev)
			return &r->fleet->devs[i];
	return NULL;
}

const struct rc_port_state *rc_result_port(const struct rc_fleet_dev *d, const char *port,
					   bool want)
{
	const struct rc_devrun *run = &d->run;

	if (!run->have || !run->read_ok)
		return NULL;
	for (size_t i = 0; i < run->n_ports; i++)
		if (!strcmp(run->have[i].name, port))
			return want ? &run->want[i] : &run->have[i];
	return NULL;
}

size_t rc_result_port_drift(const struct rc_fleet_dev *d, const char *port)
{
	size_t n = 0;

	for (size_t i = 0; i < d->run.changes.n; i++) {
		const struct rc_change *c = &d->run.changes.v[i];

		if (!strcmp(c->port, port) && c->kind != RC_CHANGE_UNSUPPORTED)
			n++;
	}
	return n;
}

/* Collects mismatches of one check; `unknown` is set when a compared field was unread. */
struct cmp {
	struct rc_mismatch *v;
	size_t *n;
	bool unknown;
	const char *a_where, *b_where;
};

static void add(struct cmp *c, const char *field, const char *a, const char *b)
{
	struct rc_mismatch *m;

	if (*c->n >= RC_CHECK_MAX_MISMATCHES)
		return;
	m = &c->v[(*c->n)++];
	snprintf(m->field, sizeof(m->field), "%s", field);
	snprintf(m->a_value, sizeof(m->a_value), "%s", a);
	snprintf(m->b_value, sizeof(m->b_value), "%s", b);
	snprintf(m->a_where, sizeof(m->a_where), "%s", c->a_where);
	snprintf(m->b_where, sizeof(m->b_where), "%s", c->b_where);
}

static void add_u64(struct cmp *c, const char *field, uint64_t a, uint64_t b)
{
	char sa[32], sb[32];

	snprintf(sa, sizeof(sa), "%" PRIu64, a);
	snprintf(sb, sizeof(sb), "%" PRIu64, b);
	add(c, field, sa, sb);
}

static void prios(uint8_t mask, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int p = 0; p < RC_NPRIO; p++)
		if (mask & (1u << p))
			off += (size_t)snprintf(buf + off, off < len ? len - off : 0, "%s%d",
						off ? "," : "", p);
	if (!off)
		snprintf(buf, len, "none");
}

static bool both(struct cmp *c, const struct port_qos *a, const struct port_qos *b, uint32_t group)
{
	if ((a->known & group) && (b->known & group))
		return true;
	/* "not controllable here" on a side is not a disagreement; unreadable is unknown */
	if (!((a->unsupported | b->unsupported) & group))
		c->unknown = true;
	return false;
}

static void cmp_dscp(struct cmp *c, const struct port_qos *a, const struct port_qos *b,
		     unsigned dscp)
{
	char field[24];

	if (!both(c, a, b, RC_F_DSCP2PRIO))
		return;
	if (!(a->dscp_mask & b->dscp_mask & (1ull << dscp))) {
		c->unknown = true;
		return;
	}
	snprintf(field, sizeof(field), "dscp2prio[%u]", dscp);
	if (a->dscp2prio[dscp] != b->dscp2prio[dscp])
		add_u64(c, field, a->dscp2prio[dscp], b->dscp2prio[dscp]);
}

/* What the two ends of one cable must agree on. */
static void cmp_link_ends(struct cmp *c, const struct rc_policy *pol, const struct port_qos *a,
			  const struct port_qos *b)
{
	char sa[32], sb[32];

	if (both(c, a, b, RC_F_TRUST) && a->trust != b->trust)
		add(c, "trust", rc_trust_name(a->trust), rc_trust_name(b->trust));
	cmp_dscp(c, a, b, pol->roce_dscp);
	cmp_dscp(c, a, b, pol->cnp_dscp);
	if (both(c, a, b, RC_F_PFC) && a->pfc_enabled != b->pfc_enabled) {
		prios(a->pfc_enabled, sa, sizeof(sa));
		prios(b->pfc_enabled, sb, sizeof(sb));
		add(c, "pfc_enabled", sa, sb);
	}
}

/* MTU: two switches must agree; towards a host the switch port may be larger (switches
 * commonly run 9216 for hosts at 9000) but never smaller, or it drops what the NIC sends. */
static void cmp_mtu(struct cmp *c, const struct port_qos *a, const struct port_qos *b,
		    enum rc_dev_kind ka, enum rc_dev_kind kb)
{
	if (!(a->known & b->known & RC_F_MTU) || !a->mtu || !b->mtu)
		return;
	if (ka == kb ? a->mtu != b->mtu : (ka == RC_DEV_SWITCH ? a->mtu < b->mtu : b->mtu < a->mtu))
		add_u64(c, "mtu", a->mtu, b->mtu);
}

/* A switch port facing a host must treat RoCE lossless and mark ECN on its queue. */
static void cmp_host_facing(struct cmp *c, const struct rc_policy *pol, const struct port_qos *sw,
			    bool switch_is_a)
{
	unsigned prio = pol->roce_priority, tc = pol->ecn.traffic_class;
	const char *yes = "on", *no = "off";

	if ((sw->known & RC_F_PFC) && !(sw->pfc_enabled & (1u << prio))) {
		char field[32];

		snprintf(field, sizeof(field), "switch pfc on priority %u", prio);
		add(c, field, switch_is_a ? no : yes, switch_is_a ? yes : no);
	}
	if (pol->ecn.enabled && (sw->known & RC_F_ECN) && (sw->ecn_tc_mask & (1u << tc)) &&
	    !sw->ecn[tc].enabled) {
		char field[32];

		snprintf(field, sizeof(field), "switch ecn on queue %u", tc);
		add(c, field, switch_is_a ? no : yes, switch_is_a ? yes : no);
	}
}

void rc_check_link_ends(const struct rc_policy *pol, const struct rc_inventory *inv, size_t li,
			const struct port_qos *a, const struct port_qos *b,
			struct rc_link_check *lc)
{
	const struct rc_link *l = &inv->links[li];
	const struct rc_device *A = &inv->devices[l->a.dev], *B = &inv->devices[l->b.dev];
	char wa[2 * RC_NAME_MAX], wb[2 * RC_NAME_MAX];
	struct cmp c = {.v = lc->v, .n = &lc->n, .a_where = wa, .b_where = wb};

	memset(lc, 0, sizeof(*lc));
	lc->link = li;
	snprintf(wa, sizeof(wa), "%s:%s", A->name, l->a.port);
	snprintf(wb, sizeof(wb), "%s:%s", B->name, l->b.port);
	if (!a || !b) {
		lc->status = RC_CHECK_UNKNOWN;
		return;
	}
	cmp_link_ends(&c, pol, a, b);
	cmp_mtu(&c, a, b, A->kind, B->kind);
	if (A->kind == RC_DEV_SWITCH && B->kind == RC_DEV_HOST)
		cmp_host_facing(&c, pol, a, true);
	else if (B->kind == RC_DEV_SWITCH && A->kind == RC_DEV_HOST)
		cmp_host_facing(&c, pol, b, false);
	lc->status = lc->n ? RC_CHECK_MISMATCH : c.unknown ? RC_CHECK_UNKNOWN : RC_CHECK_OK;
}

static void check_link(struct rc_result *r, size_t li, struct rc_link_check *lc)
{
	const struct rc_link *l = &r->inv->links[li];
	const struct rc_fleet_dev *da = rc_result_device(r, l->a.dev);
	const struct rc_fleet_dev *db = rc_result_device(r, l->b.dev);
	const struct rc_port_state *pa =
	    da && !da->rc ? rc_result_port(da, l->a.port, false) : NULL;
	const struct rc_port_state *pb =
	    db && !db->rc ? rc_result_port(db, l->b.port, false) : NULL;

	rc_check_link_ends(r->fleet->pol, r->inv, li, pa ? &pa->qos : NULL, pb ? &pb->qos : NULL,
			   lc);
}

/* The switch port at the other end of the host's link `l`. */
static const struct rc_port_state *far_port(const struct rc_result *r, const struct rc_link *l,
					    size_t host, char *where, size_t len)
{
	const struct rc_link_end *far = l->a.dev == host ? &l->b : &l->a;
	const struct rc_fleet_dev *d = rc_result_device(r, far->dev);

	snprintf(where, len, "%s:%s", r->inv->devices[far->dev].name, far->port);
	if (r->inv->devices[far->dev].kind != RC_DEV_SWITCH || !d || d->rc)
		return NULL;
	return rc_result_port(d, far->port, false);
}

/* Switch-side QoS every NIC of one host must find the same. */
static void cmp_switch_sides(struct cmp *c, const struct rc_policy *pol, const struct port_qos *a,
			     const struct port_qos *b)
{
	unsigned tc = pol->ecn.traffic_class;

	cmp_link_ends(c, pol, a, b);
	if (!both(c, a, b, RC_F_ECN))
		return;
	if ((a->ecn_tc_mask & b->ecn_tc_mask & (1u << tc)) == 0)
		return;
	if (a->ecn[tc].enabled != b->ecn[tc].enabled)
		add(c, "ecn.enabled", a->ecn[tc].enabled ? "true" : "false",
		    b->ecn[tc].enabled ? "true" : "false");
	if (!rc_within_tolerance(a->ecn[tc].kmin_bytes, b->ecn[tc].kmin_bytes, pol->tolerance_pct))
		add_u64(c, "ecn.kmin_bytes", a->ecn[tc].kmin_bytes, b->ecn[tc].kmin_bytes);
	if (!rc_within_tolerance(a->ecn[tc].kmax_bytes, b->ecn[tc].kmax_bytes, pol->tolerance_pct))
		add_u64(c, "ecn.kmax_bytes", a->ecn[tc].kmax_bytes, b->ecn[tc].kmax_bytes);
}

void rc_host_check_begin(struct rc_host_check *hc, size_t dev)
{
	memset(hc, 0, sizeof(*hc));
	hc->dev = dev;
}

void rc_host_check_side(struct rc_host_check *hc, const struct rc_policy *pol,
			const struct port_qos *side, const char *where)
{
	struct cmp c = {.v = hc->v, .n = &hc->n, .a_where = hc->first_where, .b_where = where};

	hc->n_sides++;
	if (!side) {
		hc->unknown = true;
		return;
	}
	if (!hc->first) {
		hc->first_qos = *side;
		hc->first = true;
		snprintf(hc->first_where, sizeof(hc->first_where), "%s", where);
		return;
	}
	cmp_switch_sides(&c, pol, &hc->first_qos, side);
	hc->unknown |= c.unknown;
}

bool rc_host_check_end(struct rc_host_check *hc)
{
	if (hc->n_sides < 2)
		return false;
	hc->status = hc->n ? RC_CHECK_MISMATCH : hc->unknown ? RC_CHECK_UNKNOWN : RC_CHECK_OK;
	return true;
}

static bool check_host(struct rc_result *r, size_t dev, struct rc_host_check *hc)
{
	char where[2 * RC_NAME_MAX];

	rc_host_check_begin(hc, dev);
	for (size_t li = 0; li < r->inv->n_links; li++) {
		const struct rc_link *l = &r->inv->links[li];
		const struct rc_port_state *p;

		if (l->a.dev != dev && l->b.dev != dev)
			continue;
		p = far_port(r, l, dev, where, sizeof(where));
		rc_host_check_side(hc, r->fleet->pol, p ? &p->qos : NULL, where);
	}
	return rc_host_check_end(hc);
}

int rc_result_build(struct rc_result *r, const struct rc_fleet *f, struct rc_err *err)
{
	const struct rc_inventory *inv = f->inv;

	memset(r, 0, sizeof(*r));
	r->fleet = f;
	r->inv = inv;
	r->when = time(NULL);
	r->links = calloc(inv->n_links ? inv->n_links : 1, sizeof(*r->links));
	r->hosts = calloc(inv->n_devices ? inv->n_devices : 1, sizeof(*r->hosts));
	if (!r->links || !r->hosts) {
		rc_result_fini(r);
		return rc_errf(err, ENOMEM, "out of memory");
	}
	for (size_t li = 0; li < inv->n_links; li++) {
		const struct rc_link *l = &inv->links[li];

		/* a link half outside --limit is not judged */
		if (!rc_result_device(r, l->a.dev) || !rc_result_device(r, l->b.dev))
			continue;
		check_link(r, li, &r->links[r->n_links++]);
	}
	for (size_t i = 0; i < f->n; i++) {
		size_t dev = f->devs[i].index;

		if (inv->devices[dev].kind == RC_DEV_HOST &&
		    check_host(r, dev, &r->hosts[r->n_hosts]))
			r->n_hosts++;
	}
	return 0;
}

void rc_result_fini(struct rc_result *r)
{
	free(r->links);
	free(r->hosts);
	r->links = NULL;
	r->hosts = NULL;
	r->n_links = r->n_hosts = 0;
}
