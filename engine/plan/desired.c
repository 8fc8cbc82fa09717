/* SPDX-License-Identifier: Apache-2.0 */
/* Desired state: what one port's QoS must be, from the policy (with the device's
 * overrides) and the link the port is on.  Only the groups set in `known` are pinned; the
 * diff leaves every other group alone. */
#include <errno.h>
#include <string.h>

#include "rocectl/desired.h"
#include "rocectl/headroom.h"

/* The DSCP -> priority entries the policy cares about: RoCE data and CNPs.  Only under
 * DSCP trust: with PCP trust the switch and the NIC classify by the VLAN tag and a DSCP
 * table would be written for nothing. */
static void want_dscp_map(const struct rc_policy *p, struct port_qos *q)
{
	if (p->trust != RC_TRUST_DSCP)
		return;
	q->dscp_mask = (1ull << p->roce_dscp) | (1ull << p->cnp_dscp);
	q->dscp2prio[p->roce_dscp] = p->roce_priority;
	q->dscp2prio[p->cnp_dscp] = p->cnp_priority;
	q->known |= RC_F_DSCP2PRIO;
}

/* The classes the policy's two priorities go to (policy.h: identity unless the policy
 * has priority_to_tc; ecn.traffic_class is always prio2tc[roce.priority]).  With an ets
 * section every priority is pinned: the policy then describes the whole scheduler. */
static void want_prio2tc(const struct rc_policy *p, struct port_qos *q)
{
	q->prio_mask = (uint8_t)((1u << p->roce_priority) | (1u << p->cnp_priority));
	if (p->n_ets > 0)
		q->prio_mask = 0xff;
	for (int prio = 0; prio < RC_NPRIO; prio++)
		if (q->prio_mask & (1u << prio))
			q->prio2tc[prio] = p->prio2tc[prio];
	q->known |= RC_F_PRIO2TC;
}

static void want_ecn(const struct rc_policy *p, struct port_qos *q)
{
	uint8_t tc = p->ecn.traffic_class; /* checked < RC_NTC by the caller */

	q->ecn_tc_mask = (uint8_t)(1u << tc);
	q->ecn[tc].enabled = p->ecn.enabled;
	/* A PFC-only policy wants marking off and says nothing about thresholds. */
	if (p->ecn.enabled) {
		q->ecn[tc].kmin_bytes = p->ecn.kmin_bytes;
		q->ecn[tc].kmax_bytes = p->ecn.kmax_bytes;
		q->ecn[tc].pmax_pct = p->ecn.pmax_pct;
	}
	q->known |= RC_F_ECN;
}

static void want_ets(const struct rc_policy *p, struct port_qos *q)
{
	if (p->n_ets <= 0)
		return;
	for (int i = 0; i < p->n_ets && i < RC_NTC; i++) {
		const struct rc_policy_ets_entry *e = &p->ets[i];

		if (e->traffic_class >= RC_NTC)
			continue;
		q->ets.tc_mask |= (uint8_t)(1u << e->traffic_class);
		q->ets.tsa[e->traffic_class] = (uint8_t)e->mode;
		/* Validated to 0..100%; round to the whole percent platforms program. */
		if (e->mode == RC_TSA_DWRR && e->bandwidth_pct > 0 && e->bandwidth_pct <= 100)
			q->ets.bw_pct[e->traffic_class] = (uint8_t)(e->bandwidth_pct + 0.5);
	}
	q->ets.no_share_mask = (uint8_t)~q->ets.tc_mask;
	q->known |= RC_F_ETS;
}

/* Headroom per lossless priority: an explicit size is exact; otherwise the computed floor
 * for the link, which needs the speed (no speed -> nothing pinned). */
static int want_headroom(const struct rc_policy *p, bool explicit_only, uint32_t speed,
			 uint32_t cable, const char *port, struct port_qos *q, struct rc_err *err)
{
	uint64_t bytes;
	bool is_min;

	if (!p->pfc_priorities)
		return 0;
	if (p->headroom.size_bytes) {
		bytes = p->headroom.size_bytes;
		is_min = false;
	} else {
		struct rc_headroom h;
		int rc;

		if (explicit_only || !speed || !cable)
			return 0;
		rc = rc_headroom_compute(speed, cable, p->headroom.mtu, &h, err);
		if (rc < 0) {
			rc_err_prefix(err, "headroom of port '%s'", port);
			return rc;
		}
		bytes = h.total_bytes;
		is_min = true;
	}
	q->headroom_mask = p->pfc_priorities;
	for (int prio = 0; prio < RC_NPRIO; prio++)
		if (p->pfc_priorities & (1u << prio))
			q->headroom_bytes[prio] = bytes;
	q->headroom_is_min = is_min;
	q->known |= RC_F_HEADROOM;
	return 0;
}

static int want_switch(const struct rc_policy *p, uint32_t speed, uint32_t cable, const char *port,
		       struct port_qos *q, struct rc_err *err)
{
	want_prio2tc(p, q);
	want_ecn(p, q);
	want_ets(p, q);
	if (p->watchdog_present) {
		q->watchdog = p->watchdog;
		q->watchdog.enabled = true; /* present in the policy = wanted on */
		q->known |= RC_F_WATCHDOG;
	}
	return want_headroom(p, false, speed, cable, port, q, err);
}

/* Host (mlx5): DCQCN on the RoCE priority, CNPs marked as the policy says, rdma_cm ToS,
 * and DCBX in host control so that what we write is not overwritten by the switch's
 * DCBX (mlx5's en_dcbnl.c: a firmware-controlled DCBX overwrites the host's settings).  Headroom
 * only when the policy fixes it: otherwise the driver sizes its buffers from the cable length
 * (mlx5's en/port_buffer.c, which sizes the lossless buffer from the cable length). ETS and the
 * priority -> TC map only when the policy has an ets section: the NIC's scheduler then has to agree
 * with the switches' (strict CNP class, DWRR shares). */
static int want_host(const struct rc_policy *p, const char *port, struct port_qos *q,
		     struct rc_err *err)
{
	uint8_t roce = (uint8_t)(1u << p->roce_priority);

	q->nic_ecn_prio_mask = roce;
	q->nic_ecn_np = p->ecn.enabled && p->ecn.host_np ? roce : 0;
	q->nic_ecn_rp = p->ecn.enabled && p->ecn.host_rp ? roce : 0;
	q->cnp_dscp = p->cnp_dscp;
	q->cnp_prio = p->cnp_priority;
	q->roce_tos = p->roce_tos;
	q->dcbx_host = true;
	q->known |= RC_F_NIC_ECN | RC_F_CNP | RC_F_ROCE_TOS | RC_F_DCBX;
	/* DCQCN parameters only when the policy names some: firmware's defaults otherwise. */
	if (p->dcqcn_mask) {
		q->dcqcn_mask = p->dcqcn_mask;
		memcpy(q->dcqcn, p->dcqcn, sizeof(q->dcqcn));
		q->known |= RC_F_DCQCN;
	}
	if (p->n_ets > 0) {
		want_prio2tc(p, q);
		want_ets(p, q);
	}
	return want_headroom(p, true, 0, 0, port, q, err);
}

int rc_desired_port(const struct rc_policy *policy, const struct rc_inventory *inv,
		    size_t dev_index, const char *port, enum rc_dev_kind kind, uint32_t speed_gbps,
		    struct port_qos *out, struct rc_err *err)
{
	struct rc_policy eff;
	const struct rc_link *link = NULL;
	uint32_t speed = speed_gbps, cable;
	int rc;

	if (!policy || !port || !out)
		return rc_errf(err, EINVAL, "desired state: missing policy, port or output");
	if (inv) {
		if (dev_index >= inv->n_devices)
			return rc_errf(err, EINVAL,
				       "desired state: no device #%zu in the inventory", dev_index);
		rc = rc_inventory_policy(inv, dev_index, policy, &eff, err);
		if (rc < 0)
			return rc;
		link = rc_inventory_link_of(inv, dev_index, port);
	} else {
		eff = *policy;
	}
	if (eff.roce_dscp >= RC_NDSCP || eff.cnp_dscp >= RC_NDSCP ||
	    eff.roce_priority >= RC_NPRIO || eff.cnp_priority >= RC_NPRIO ||
	    eff.ecn.traffic_class >= RC_NTC || eff.prio2tc[eff.roce_priority] >= RC_NTC ||
	    eff.prio2tc[eff.cnp_priority] >= RC_NTC)
		return rc_errf(err, EINVAL,
			       "policy '%s': dscp, priority or traffic class out of range",
			       eff.name);

	/* The inventory's link is the better witness; the caller's speed (read from the
	 * port) stands in when the link does not say. */
	if (link && link->speed_gbps)
		speed = link->speed_gbps;
	cable = link && link->cable_length_m ? link->cable_length_m : eff.headroom.cable_length_m;

	memset(out, 0, sizeof(*out));
	out->trust = eff.trust;
	out->pfc_enabled = eff.pfc_priorities;
	out->cable_length_m = cable;
	out->mtu = eff.headroom.mtu;
	out->speed_gbps = speed;
	out->known = RC_F_TRUST | RC_F_PFC;
	if (cable) /* a policy without a default and a link without a length: leave it */
		out->known |= RC_F_CABLE;
	want_dscp_map(&eff, out);

	if (kind == RC_DEV_HOST)
		return want_host(&eff, port, out, err);
	return want_switch(&eff, speed, cable, port, out, err);
}
