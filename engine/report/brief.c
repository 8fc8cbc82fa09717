/* SPDX-License-Identifier: Apache-2.0 */
/* The compact per-port state the cross-hop checks need (include/rocectl/stream.h). */
#include <string.h>

#include "rocectl/stream.h"

void rc_port_brief_make(const struct rc_policy *pol, const struct port_qos *q,
			struct rc_port_brief *b)
{
	unsigned tc = pol->ecn.traffic_class % RC_NTC;

	memset(b, 0, sizeof(*b));
	b->flags = RC_BRIEF_READ;
	b->known = q->known;
	b->unsupported = q->unsupported;
	b->mtu = q->mtu;
	b->trust = (uint8_t)q->trust;
	b->pfc_enabled = q->pfc_enabled;
	b->roce_prio = q->dscp2prio[pol->roce_dscp % RC_NDSCP];
	b->cnp_prio = q->dscp2prio[pol->cnp_dscp % RC_NDSCP];
	if (q->dscp_mask & (1ull << (pol->roce_dscp % RC_NDSCP)))
		b->flags |= RC_BRIEF_ROCE_DSCP;
	if (q->dscp_mask & (1ull << (pol->cnp_dscp % RC_NDSCP)))
		b->flags |= RC_BRIEF_CNP_DSCP;
	if (q->ecn_tc_mask & (1u << tc))
		b->flags |= RC_BRIEF_ECN_TC;
	if (q->ecn[tc].enabled)
		b->flags |= RC_BRIEF_ECN_ON;
	if (q->watchdog.enabled)
		b->flags |= RC_BRIEF_WD_ON;
	b->kmin_bytes = q->ecn[tc].kmin_bytes;
	b->kmax_bytes = q->ecn[tc].kmax_bytes;
}

void rc_port_brief_expand(const struct rc_policy *pol, const struct rc_port_brief *b,
			  struct port_qos *q)
{
	unsigned tc = pol->ecn.traffic_class % RC_NTC;
	unsigned roce = pol->roce_dscp % RC_NDSCP, cnp = pol->cnp_dscp % RC_NDSCP;

	memset(q, 0, sizeof(*q));
	q->known = b->known;
	q->unsupported = b->unsupported;
	q->mtu = b->mtu;
	q->trust = (enum rc_trust)b->trust;
	q->pfc_enabled = b->pfc_enabled;
	/* the CNP DSCP last: when the policy gave both the same DSCP (rc_policy_check refuses
	 * it), one entry holds one value either way */
	q->dscp2prio[roce] = b->roce_prio;
	q->dscp2prio[cnp] = b->cnp_prio;
	if (b->flags & RC_BRIEF_ROCE_DSCP)
		q->dscp_mask |= 1ull << roce;
	if (b->flags & RC_BRIEF_CNP_DSCP)
		q->dscp_mask |= 1ull << cnp;
	if (b->flags & RC_BRIEF_ECN_TC)
		q->ecn_tc_mask = (uint8_t)(1u << tc);
	q->ecn[tc].enabled = (b->flags & RC_BRIEF_ECN_ON) != 0;
	q->watchdog.enabled = (b->flags & RC_BRIEF_WD_ON) != 0;
	q->ecn[tc].kmin_bytes = b->kmin_bytes;
	q->ecn[tc].kmax_bytes = b->kmax_bytes;
}
