/* SPDX-License-Identifier: Apache-2.0 */
/* Diff: desired vs actual port_qos -> typed changes in the operator's names.
 *
 * Only the groups the desired state pins are looked at.  For each, in a fixed order: a
 * group the platform cannot read or control is reported once per field as UNSUPPORTED
 * (neither drift nor written); a group the driver could not read is UNKNOWN (never
 * equal); otherwise every field that differs is a SET change.  A group the driver found
 * without effect (struct rc_effect) is drift even when its values are equal: one SET change
 * "<group>.effect" with the driver's reason, so apply rewrites the group; a group whose
 * value is inert on the device is one UNSUPPORTED change with the reason, and a warning
 * the driver raised about a group is one UNSUPPORTED change "<group>.warning"; each carries
 * the reasons the driver gave for that group only.  Byte sizes are
 * compared with the policy's tolerance because switch ASICs quantize (docs/POLICY.md,
 * tolerance.threshold). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/diff.h"
#include "rocectl/util.h"

/* Marking probabilities: platforms store whole percents (SONiC, EOS) or round to them;
 * half a percentage point either way is that rounding, not drift. */
#define PMAX_TOLERANCE_PCT 0.5

struct differ {
	const char *port;
	const struct port_qos *want;
	const struct port_qos *have;
	double tolerance_pct;
	uint32_t disruptive;
	struct rc_changes *out;
	uint32_t mask; /* groups with SET changes */
	/* Per group, while it is being compared: RC_CHANGE_SET when readable, else the kind
	 * every field of the group is reported with. */
	enum rc_change_kind group_kind;
	uint32_t group;
	int rc;
};

bool rc_within_tolerance(uint64_t want, uint64_t have, double tolerance_pct)
{
	uint64_t d = want > have ? want - have : have - want;

	if (d == 0)
		return true;
	if (!(tolerance_pct > 0)) /* also NaN */
		return false;
	/* d / want <= t / 100, kept in doubles: exact for the sizes we meet (< 2^53). */
	return (double)d * 100.0 <= (double)want * tolerance_pct;
}

int rc_change_set_note(struct rc_change *c, const char *text)
{
	free(c->note);
	c->note = NULL;
	if (!text || !text[0])
		return 0;
	c->note = strndup(text, RC_WHY_LEN - 1);
	return c->note ? 0 : -ENOMEM;
}

void rc_changes_fini(struct rc_changes *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++)
		free(c->v[i].note);
	free(c->v);
	c->v = NULL;
	c->n = c->cap = 0;
}

void rc_changes_fit(struct rc_changes *c)
{
	struct rc_change *v;

	if (!c || c->n == c->cap)
		return;
	if (!c->n) {
		rc_changes_fini(c);
		return;
	}
	v = realloc(c->v, c->n * sizeof(*v));
	if (v) { /* else the larger array stays, which is no error */
		c->v = v;
		c->cap = c->n;
	}
}

int rc_changes_copy(const struct rc_changes *from, struct rc_changes *to)
{
	memset(to, 0, sizeof(*to));
	to->unverified = from->unverified;
	if (!from->n)
		return 0;
	to->v = malloc(from->n * sizeof(*to->v));
	if (!to->v)
		return -ENOMEM;
	memcpy(to->v, from->v, from->n * sizeof(*to->v));
	to->n = to->cap = from->n;
	for (size_t i = 0; i < to->n; i++) {
		to->v[i].note = NULL;
		if (rc_change_set_note(&to->v[i], from->v[i].note)) {
			rc_changes_fini(to);
			return -ENOMEM;
		}
	}
	return 0;
}

size_t rc_changes_count(const struct rc_changes *c, enum rc_change_kind kind)
{
	size_t n = 0;

	for (size_t i = 0; c && i < c->n; i++)
		if (c->v[i].kind == kind)
			n++;
	return n;
}

static int push(struct rc_changes *c, const struct rc_change *ch)
{
	int rc = rc_array_reserve((void **)&c->v, &c->cap, c->n + 1, sizeof(*c->v), 16);

	if (rc)
		return rc;
	c->v[c->n++] = *ch;
	return 0;
}

/* One change of the current group.  `field_unknown`: this one entry of a readable group
 * was not read (e.g. a DSCP the driver's table does not cover). */
static void emit(struct differ *d, const char *field, const char *old_value, const char *new_value,
		 bool field_unknown)
{
	struct rc_change ch;

	if (d->rc < 0)
		return;
	memset(&ch, 0, sizeof(ch));
	snprintf(ch.port, sizeof(ch.port), "%s", d->port ? d->port : "");
	snprintf(ch.field, sizeof(ch.field), "%s", field);
	ch.group = d->group;
	ch.kind = d->group_kind;
	if (ch.kind == RC_CHANGE_SET && field_unknown)
		ch.kind = RC_CHANGE_UNKNOWN;
	if (ch.kind == RC_CHANGE_SET) {
		snprintf(ch.old_value, sizeof(ch.old_value), "%s", old_value);
		ch.disruptive = (d->group & d->disruptive) != 0;
		d->mask |= d->group;
	}
	snprintf(ch.new_value, sizeof(ch.new_value), "%s", new_value);
	d->rc = push(d->out, &ch);
}

/* Is the group's actual value to be compared at all (RC_CHANGE_SET), or is every field
 * reported as UNSUPPORTED / UNKNOWN? */
static bool readable(const struct differ *d)
{
	return d->group_kind == RC_CHANGE_SET;
}

static void fmt_u64(char *buf, size_t len, uint64_t v)
{
	snprintf(buf, len, "%" PRIu64, v);
}

/* "3", "3,4" or "none": priority sets as an operator writes them. */
static void fmt_prios(char *buf, size_t len, uint8_t mask)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int p = 0; p < 8 && n < len; p++) {
		int w;

		if (!(mask & (1u << p)))
			continue;
		w = snprintf(buf + n, len - n, "%s%d", n ? "," : "", p);
		if (w < 0)
			return;
		n += (size_t)w;
	}
	if (!n)
		snprintf(buf, len, "none");
}

static void fmt_pct(char *buf, size_t len, double v)
{
	snprintf(buf, len, "%g", v);
}

/* Compare two unsigned values of the current group; exact. */
static void cmp_u64(struct differ *d, const char *field, uint64_t want, uint64_t have,
		    bool field_unknown)
{
	char o[32], n[32];

	if (readable(d) && !field_unknown && want == have)
		return;
	fmt_u64(o, sizeof(o), have);
	fmt_u64(n, sizeof(n), want);
	emit(d, field, o, n, field_unknown);
}

/* Byte sizes: within the tolerance is equal; `at_least` makes `want` a floor. */
static void cmp_bytes(struct differ *d, const char *field, uint64_t want, uint64_t have,
		      bool at_least, bool field_unknown)
{
	char o[32], n[32];

	if (readable(d) && !field_unknown) {
		if (at_least ? have >= want : rc_within_tolerance(want, have, d->tolerance_pct))
			return;
	}
	fmt_u64(o, sizeof(o), have);
	if (at_least)
		snprintf(n, sizeof(n), ">= %" PRIu64, want);
	else
		fmt_u64(n, sizeof(n), want);
	emit(d, field, o, n, field_unknown);
}

static void cmp_str(struct differ *d, const char *field, const char *want, const char *have)
{
	if (readable(d) && !strcmp(want, have))
		return;
	emit(d, field, have, want, false);
}

static void cmp_prios(struct differ *d, const char *field, uint8_t want, uint8_t have,
		      bool field_unknown)
{
	char o[24], n[24];

	if (readable(d) && !field_unknown && want == have)
		return;
	fmt_prios(o, sizeof(o), have);
	fmt_prios(n, sizeof(n), want);
	emit(d, field, o, n, field_unknown);
}

static void diff_trust(struct differ *d)
{
	cmp_str(d, "trust", rc_trust_name(d->want->trust), rc_trust_name(d->have->trust));
}

/* "26,48" (or "none"). */
static void dscp_set_text(uint64_t set, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int i = 0; i < RC_NDSCP && o < len; i++)
		if (set & (1ull << i))
			o += (size_t)snprintf(buf + o, len - o, "%s%d", o ? "," : "", i);
	if (!o)
		snprintf(buf, len, "none");
}

static void diff_dscp2prio(struct differ *d)
{
	char f[32];

	for (int i = 0; i < RC_NDSCP; i++) {
		if (!(d->want->dscp_mask & (1ull << i)))
			continue;
		snprintf(f, sizeof(f), "dscp2prio[%d]", i);
		cmp_u64(d, f, d->want->dscp2prio[i], d->have->dscp2prio[i],
			!(d->have->dscp_mask & (1ull << i)));
	}
	/* A journaled state being restored says which DSCPs had an entry of their own: an
	 * entry the run added with firmware's default priority reads the same as none. */
	if (d->want->dscp_entries_known && d->have->dscp_entries_known &&
	    d->want->dscp_entries != d->have->dscp_entries) {
		char was[RC_NDSCP * 3 + 1], want[RC_NDSCP * 3 + 1];

		dscp_set_text(d->have->dscp_entries, was, sizeof(was));
		dscp_set_text(d->want->dscp_entries, want, sizeof(want));
		emit(d, "dscp2prio.entries", was, want, false);
	}
}

static void diff_prio2tc(struct differ *d)
{
	char f[32];

	for (int p = 0; p < RC_NPRIO; p++) {
		if (!(d->want->prio_mask & (1u << p)))
			continue;
		snprintf(f, sizeof(f), "prio2tc[%d]", p);
		cmp_u64(d, f, d->want->prio2tc[p], d->have->prio2tc[p],
			!(d->have->prio_mask & (1u << p)));
	}
}

static void diff_pfc(struct differ *d)
{
	cmp_prios(d, "pfc_enabled", d->want->pfc_enabled, d->have->pfc_enabled, false);
}

static void diff_cable(struct differ *d)
{
	const struct port_qos *h = d->have;
	bool row = h->cable_is_row && d->want->cable_length_m > h->cable_row_below_m &&
		   d->want->cable_length_m <= h->cable_length_m;

	cmp_u64(d, "cable_length_m", row ? h->cable_length_m : d->want->cable_length_m,
		h->cable_length_m, false);
}

static void diff_ecn(struct differ *d)
{
	char f[48], o[32], n[32];

	for (int t = 0; t < RC_NTC; t++) {
		const struct rc_ecn_tc *w = &d->want->ecn[t], *h = &d->have->ecn[t];
		bool unk = !(d->have->ecn_tc_mask & (1u << t));
		double dp;

		if (!(d->want->ecn_tc_mask & (1u << t)))
			continue;
		snprintf(f, sizeof(f), "ecn[%d].enabled", t);
		if (!readable(d) || unk || w->enabled != h->enabled)
			emit(d, f, h->enabled ? "true" : "false", w->enabled ? "true" : "false",
			     unk);
		/* Marking off: the thresholds left behind do not matter. */
		if (!w->enabled)
			continue;
		snprintf(f, sizeof(f), "ecn[%d].kmin_bytes", t);
		cmp_bytes(d, f, w->kmin_bytes, h->kmin_bytes, false, unk);
		snprintf(f, sizeof(f), "ecn[%d].kmax_bytes", t);
		cmp_bytes(d, f, w->kmax_bytes, h->kmax_bytes, false, unk);
		snprintf(f, sizeof(f), "ecn[%d].pmax_pct", t);
		dp = w->pmax_pct - h->pmax_pct;
		if (!readable(d) || unk ||
		    !(dp <= PMAX_TOLERANCE_PCT && dp >= -PMAX_TOLERANCE_PCT)) {
			fmt_pct(o, sizeof(o), h->pmax_pct);
			fmt_pct(n, sizeof(n), w->pmax_pct);
			emit(d, f, o, n, unk);
		}
	}
}

/* rocectl's own estimate beside the device's derived value, when the device's is smaller:
 * shown (a warning with both numbers), neither drift nor written. */
static void headroom_estimate(struct differ *d, int p, uint64_t have)
{
	const struct port_qos *w = d->want;
	struct rc_change ch;
	char note[RC_WHY_LEN];

	if (d->rc < 0 || have >= w->headroom_bytes[p])
		return;
	memset(&ch, 0, sizeof(ch));
	snprintf(ch.port, sizeof(ch.port), "%s", d->port ? d->port : "");
	snprintf(ch.field, sizeof(ch.field), "headroom[%d].estimate", p);
	ch.group = d->group;
	ch.kind = RC_CHANGE_UNSUPPORTED;
	ch.warning = true;
	snprintf(ch.old_value, sizeof(ch.old_value), "%" PRIu64, have);
	snprintf(ch.new_value, sizeof(ch.new_value), "%" PRIu64, w->headroom_bytes[p]);
	snprintf(note, sizeof(note),
		 "the device derived xoff %" PRIu64 " B for %u G, %u m, MTU %u; rocectl's "
		 "estimate is %" PRIu64 " B (information: the device sizes headroom here)",
		 have, w->speed_gbps, w->cable_length_m, w->mtu, w->headroom_bytes[p]);
	d->rc = rc_change_set_note(&ch, note);
	if (!d->rc)
		d->rc = push(d->out, &ch);
	if (d->rc)
		free(ch.note);
}

/* The device derives headroom itself (actual headroom_dynamic: SONiC's dynamic buffer
 * model) and the policy leaves it computed, or a journaled state had it derived: what is
 * wanted is the device's own derivation, so priority p must have a derived profile (not an
 * override) that absorbs something.  The driver reports the rest of the effect (pool, shared
 * headroom pool, cable followed) as effect drift. */
static void diff_headroom_derived(struct differ *d, int p, const char *f)
{
	const struct port_qos *h = d->have;
	uint8_t bit = (uint8_t)(1u << p);
	char o[32];

	if (!readable(d)) {
		emit(d, f, "", "derived by the device", false);
		return;
	}
	if (!(h->headroom_derived & bit)) {
		if (h->headroom_mask & bit)
			snprintf(o, sizeof(o), "%" PRIu64 " (override)", h->headroom_bytes[p]);
		else
			snprintf(o, sizeof(o), "none");
		emit(d, f, o, "derived by the device", !(h->headroom_mask & bit));
		return;
	}
	if (!(h->headroom_mask & bit)) {
		emit(d, f, "", "derived by the device", true);
		return;
	}
	if (!h->headroom_bytes[p]) {
		emit(d, f, "0", "derived by the device, > 0", false);
		return;
	}
	if (d->want->headroom_is_min)
		headroom_estimate(d, p, h->headroom_bytes[p]);
}

static void diff_headroom(struct differ *d)
{
	char f[48];

	for (int p = 0; p < RC_NPRIO; p++) {
		if (!(d->want->headroom_mask & (1u << p)))
			continue;
		snprintf(f, sizeof(f), "headroom[%d].bytes", p);
		if (d->have->headroom_dynamic &&
		    (d->want->headroom_is_min || (d->want->headroom_derived & (1u << p)))) {
			diff_headroom_derived(d, p, f);
			continue;
		}
		cmp_bytes(d, f, d->want->headroom_bytes[p], d->have->headroom_bytes[p],
			  d->want->headroom_is_min, !(d->have->headroom_mask & (1u << p)));
	}
}

static void diff_ets(struct differ *d)
{
	const struct rc_ets *w = &d->want->ets, *h = &d->have->ets;
	char f[48];

	for (int t = 0; t < RC_NTC; t++) {
		bool unk = !(h->tc_mask & (1u << t));

		if (!(w->tc_mask & (1u << t)))
			continue;
		snprintf(f, sizeof(f), "ets[%d].tsa", t);
		if (!readable(d) || unk || w->tsa[t] != h->tsa[t])
			emit(d, f, rc_tsa_name((enum rc_tsa)h->tsa[t]),
			     rc_tsa_name((enum rc_tsa)w->tsa[t]), unk);
		/* A strict class has no bandwidth share. */
		if (w->tsa[t] != RC_TSA_DWRR)
			continue;
		snprintf(f, sizeof(f), "ets[%d].bw_pct", t);
		cmp_u64(d, f, w->bw_pct[t], h->bw_pct[t], unk);
	}
	/* Classes the policy leaves out keep no DWRR share: otherwise the shares the switch
	 * already has would add to the policy's 100%. */
	for (int t = 0; readable(d) && t < RC_NTC; t++) {
		char old[8];

		if (!(w->no_share_mask & h->tc_mask & (1u << t)) || h->tsa[t] != RC_TSA_DWRR ||
		    !h->bw_pct[t])
			continue;
		snprintf(f, sizeof(f), "ets[%d].bw_pct", t);
		snprintf(old, sizeof(old), "%u", h->bw_pct[t]);
		emit(d, f, old, "0 (no share)", false);
	}
}

static const char *wd_action_name(enum rc_wd_action a)
{
	return a == RC_WD_FORWARD ? "forward" : "drop";
}

/* A field the platform fixes: a difference is reported as not controllable, not drift. */
static void emit_unsupported(struct differ *d, const char *field, const char *want)
{
	enum rc_change_kind k = d->group_kind;

	d->group_kind = RC_CHANGE_UNSUPPORTED;
	emit(d, field, "", want, false);
	d->group_kind = k;
}

static void fixed(struct differ *d, const char *field, bool differs, uint64_t want)
{
	char n[32];

	if (!differs)
		return;
	fmt_u64(n, sizeof(n), want);
	emit_unsupported(d, field, n);
}

static void diff_watchdog(struct differ *d)
{
	const struct rc_watchdog *w = &d->want->watchdog, *h = &d->have->watchdog;

	cmp_str(d, "watchdog.enabled", w->enabled ? "true" : "false",
		h->enabled ? "true" : "false");
	/* Off: its timers are irrelevant. */
	if (!w->enabled)
		return;
	cmp_u64(d, "watchdog.detection_ms", w->detection_ms, h->detection_ms, false);
	if (readable(d) && (h->fixed & RC_WD_FIXED_RESTORATION))
		fixed(d, "watchdog.restoration_ms", w->restoration_ms != h->restoration_ms,
		      w->restoration_ms);
	else
		cmp_u64(d, "watchdog.restoration_ms", w->restoration_ms, h->restoration_ms, false);
	if (readable(d) && (h->fixed & RC_WD_FIXED_ACTION)) {
		if (w->action != h->action)
			emit_unsupported(d, "watchdog.action", wd_action_name(w->action));
	} else {
		cmp_str(d, "watchdog.action", wd_action_name(w->action), wd_action_name(h->action));
	}
}

static void diff_mtu(struct differ *d)
{
	cmp_u64(d, "mtu", d->want->mtu, d->have->mtu, false);
}

static void diff_speed(struct differ *d)
{
	cmp_u64(d, "speed_gbps", d->want->speed_gbps, d->have->speed_gbps, false);
}

/* Only the priorities the desired state describes; a priority the driver did not report
 * is unknown, never "off". */
static void diff_nic_ecn(struct differ *d)
{
	uint8_t m = d->want->nic_ecn_prio_mask;
	bool unk = (d->have->nic_ecn_prio_mask & m) != m;

	cmp_prios(d, "nic_ecn.np", d->want->nic_ecn_np & m, d->have->nic_ecn_np & m, unk);
	cmp_prios(d, "nic_ecn.rp", d->want->nic_ecn_rp & m, d->have->nic_ecn_rp & m, unk);
}

static void diff_cnp(struct differ *d)
{
	cmp_u64(d, "cnp.dscp", d->want->cnp_dscp, d->have->cnp_dscp, false);
	cmp_u64(d, "cnp.prio", d->want->cnp_prio, d->have->cnp_prio, false);
}

/* Only the parameters the policy names.  One whose cc_params file the kernel does not have
 * (rp_max_rate and np_min_time_between_cnps came in 2020) is not controllable here. */
static void diff_dcqcn(struct differ *d)
{
	char f[48], n[16];

	for (int i = 0; i < RC_DCQCN_N; i++) {
		uint16_t bit = (uint16_t)(1u << i);

		if (!(d->want->dcqcn_mask & bit))
			continue;
		snprintf(f, sizeof(f), "dcqcn.%s", rc_dcqcn_name(i));
		if (readable(d) && !(d->have->dcqcn_mask & bit)) {
			snprintf(n, sizeof(n), "%u", d->want->dcqcn[i]);
			emit_unsupported(d, f, n);
			continue;
		}
		cmp_u64(d, f, d->want->dcqcn[i], d->have->dcqcn[i], false);
	}
}

static void diff_roce_tos(struct differ *d)
{
	char o[16], n[16];

	if (readable(d) && d->want->roce_tos == d->have->roce_tos)
		return;
	snprintf(o, sizeof(o), "%d", d->have->roce_tos);
	snprintf(n, sizeof(n), "%d", d->want->roce_tos);
	emit(d, "roce_tos", o, n, false);
}

static void diff_dcbx(struct differ *d)
{
	cmp_str(d, "dcbx", d->want->dcbx_host ? "host" : "firmware",
		d->have->dcbx_host ? "host" : "firmware");
}

/* The order changes are listed in: classification first, then what depends on it. */
static const struct {
	uint32_t group;
	void (*fn)(struct differ *d);
} groups[] = {
    {RC_F_TRUST, diff_trust},	    {RC_F_DSCP2PRIO, diff_dscp2prio},
    {RC_F_PRIO2TC, diff_prio2tc},   {RC_F_PFC, diff_pfc},
    {RC_F_CABLE, diff_cable},	    {RC_F_HEADROOM, diff_headroom},
    {RC_F_ECN, diff_ecn},	    {RC_F_ETS, diff_ets},
    {RC_F_WATCHDOG, diff_watchdog}, {RC_F_NIC_ECN, diff_nic_ecn},
    {RC_F_CNP, diff_cnp},	    {RC_F_DCQCN, diff_dcqcn},
    {RC_F_ROCE_TOS, diff_roce_tos}, {RC_F_DCBX, diff_dcbx},
    {RC_F_MTU, diff_mtu},	    {RC_F_SPEED, diff_speed},
};

/* The driver's verdict on a group beyond its values (struct rc_effect). */
static void emit_note(struct differ *d, const char *suffix, const char *old_value,
		      const char *new_value)
{
	char field[48], note[RC_WHY_LEN];
	size_t before = d->out->n;

	snprintf(field, sizeof(field), "%s%s", rc_field_name(d->group), suffix);
	emit(d, field, old_value, new_value, false);
	if (d->rc || d->out->n <= before)
		return;
	/* only the reasons about this group: another group's are that group's note */
	rc_effect_why_of(&d->have->effect, d->group, note, sizeof(note));
	d->rc = rc_change_set_note(&d->out->v[before], note[0] ? note : "no reason given");
}

static void diff_group(struct differ *d, void (*fn)(struct differ *d))
{
	const struct rc_effect *e = &d->have->effect;

	if (readable(d) && (e->inert & d->group)) {
		d->group_kind = RC_CHANGE_UNSUPPORTED;
		emit_note(d, "", "", "not effective here");
		return;
	}
	fn(d);
	/* Values equal (no SET change for the group) but the effect is missing.  A want that
	 * itself records the effect missing is a journaled pre-change state being restored
	 * (rollback, undo): it asks for the values back, not for an effect it never had. */
	if (readable(d) && (e->drift & d->group) && !(d->mask & d->group) &&
	    !(d->want->effect.drift & d->group))
		emit_note(d, ".effect", "not in effect", "in effect");
	if (readable(d) && (e->warn & d->group)) {
		size_t at = d->out->n;

		d->group_kind = RC_CHANGE_UNSUPPORTED;
		emit_note(d, ".warning", "", "warning");
		if (d->rc == 0 && d->out->n > at)
			d->out->v[at].warning = true;
		d->group_kind = RC_CHANGE_SET;
	}
}

int64_t rc_diff_port(const char *port, const struct port_qos *want, const struct port_qos *have,
		     double tolerance_pct, uint32_t disruptive_groups, struct rc_changes *out)
{
	struct differ d = {
	    .port = port,
	    .want = want,
	    .have = have,
	    .tolerance_pct = tolerance_pct,
	    .disruptive = disruptive_groups,
	    .out = out,
	};

	if (!want || !have || !out)
		return -EINVAL;
	for (size_t i = 0; i < sizeof(groups) / sizeof(groups[0]) && d.rc == 0; i++) {
		if (!(want->known & groups[i].group))
			continue;
		d.group = groups[i].group;
		if (have->unsupported & d.group)
			d.group_kind = RC_CHANGE_UNSUPPORTED;
		else if (!(have->known & d.group))
			d.group_kind = RC_CHANGE_UNKNOWN;
		else
			d.group_kind = RC_CHANGE_SET;
		diff_group(&d, groups[i].fn);
		out->unverified |= have->effect.unverified & d.group;
	}
	if (d.rc < 0)
		return d.rc;
	return d.mask;
}
