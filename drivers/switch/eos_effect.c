/* SPDX-License-Identifier: Apache-2.0 */
/* EOS effects the values alone do not show (struct rc_effect, include/rocectl/model.h):
 *
 *  - ECN marks are counted only with `random-detect ecn count` under the queue (AVD's
 *    intended EOS configuration eos/avd/intended_configs/qos.cfg, interfaces Ethernet6 and
 *    Ethernet7).  A queue `show qos interfaces ecn counters queue` answers "-" for (Arista
 *    ANTA's answers, eos/anta/, show such queues) is read as "marks not countable here"
 *    (eos_counters.c).
 *  - A configuration session's commit changes the running-config only; a reload boots the
 *    startup-config, which `copy running-config startup-config` (`write memory`) saves.
 *    A group that differs between the two comes back wrong after a reboot.
 *  - No public source has real EOS output of the configuration views this driver reads
 *    (`show priority-flow-control`, `show qos interfaces trust|ecn`, `show qos maps`): every
 *    group it reads is unverified (docs/platforms/eos.md). */
#include <errno.h>
#include <string.h>

#include "eos.h"

void eos_effect_ecn_count(struct port_qos *q, const struct eos_port_info *info)
{
	for (int t = 0; t < RC_NTC; t++)
		if (q->ecn[t].enabled && !info->ecn_count[t])
			rc_effect_drift(
			    &q->effect, RC_F_ECN,
			    "ECN marks of tx-queue %d are not counted (no 'random-detect "
			    "ecn count')",
			    t);
}

static bool same_ecn(const struct port_qos *a, const struct port_qos *b,
		     const struct eos_port_info *ia, const struct eos_port_info *ib)
{
	for (int t = 0; t < RC_NTC; t++) {
		const struct rc_ecn_tc *x = &a->ecn[t], *y = &b->ecn[t];

		if (x->enabled != y->enabled || ia->ecn_count[t] != ib->ecn_count[t])
			return false;
		if (x->enabled && (x->kmin_bytes != y->kmin_bytes ||
				   x->kmax_bytes != y->kmax_bytes || x->pmax_pct != y->pmax_pct))
			return false;
	}
	return true;
}

static bool same_ets(const struct rc_ets *a, const struct rc_ets *b)
{
	for (int t = 0; t < RC_NTC; t++)
		if (a->tsa[t] != b->tsa[t] ||
		    (a->tsa[t] == RC_TSA_DWRR && a->bw_pct[t] != b->bw_pct[t]))
			return false;
	return true;
}

static bool same_wd(const struct port_qos *a, const struct port_qos *b)
{
	const struct rc_watchdog *x = &a->watchdog, *y = &b->watchdog;

	return x->enabled == y->enabled && x->detection_ms == y->detection_ms &&
	       x->restoration_ms == y->restoration_ms && x->action == y->action;
}

/* The groups whose configured values differ between two readings of one port. */
static uint32_t differing(const struct port_qos *a, const struct port_qos *b,
			  const struct eos_port_info *ia, const struct eos_port_info *ib)
{
	uint32_t g = 0;

	if (a->trust != b->trust)
		g |= RC_F_TRUST;
	if (memcmp(a->dscp2prio, b->dscp2prio, sizeof(a->dscp2prio)))
		g |= RC_F_DSCP2PRIO;
	if (memcmp(a->prio2tc, b->prio2tc, sizeof(a->prio2tc)))
		g |= RC_F_PRIO2TC;
	if (a->pfc_enabled != b->pfc_enabled)
		g |= RC_F_PFC;
	if (!same_ecn(a, b, ia, ib))
		g |= RC_F_ECN;
	if (!same_ets(&a->ets, &b->ets))
		g |= RC_F_ETS;
	if (!same_wd(a, b))
		g |= RC_F_WATCHDOG;
	return g;
}

int eos_effect_startup(const struct eos_config *running, const struct eos_config *startup,
		       const char *port, struct port_qos *q, struct rc_err *err)
{
	struct port_qos run, boot;
	struct eos_port_info irun, iboot;
	struct rc_err e2 = {0};
	uint32_t g;
	int rc;

	rc = eos_parse_port(running, port, &run, &irun, err);
	if (rc)
		return rc;
	rc = eos_parse_port(startup, port, &boot, &iboot, &e2);
	if (rc == -ENOENT || startup->n == 0) {
		rc_effect_drift(&q->effect, run.known & ~run.unsupported,
				"running differs from startup: the startup-config has no "
				"'interface %s' (configuration not saved)",
				port);
		return 1;
	}
	if (rc) {
		rc_errf(err, rc < 0 ? -rc : EPROTO, "startup-config: %s", e2.msg);
		return rc;
	}
	g = differing(&run, &boot, &irun, &iboot);
	if (!g)
		return 0;
	rc_effect_drift(&q->effect, g,
			"running differs from startup: a reload would bring back the saved "
			"configuration (not saved after the last change)");
	return 1;
}

void eos_mark_unverified(struct port_qos *q)
{
	q->effect.unverified |= q->known & ~q->unsupported;
}
