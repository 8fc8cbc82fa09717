/* SPDX-License-Identifier: Apache-2.0 */
/* Diff of desired vs actual port state (engine/plan/diff.c). */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "rocectl/diff.h"

/* A desired switch port as engine/plan/desired.c builds it for the reference policy: trust
 * DSCP, 26 -> 3, 48 -> 6, PFC on 3, ECN 150KB/1500KB/100% on TC 3, ETS 6 strict and
 * 3/0 DWRR 50/50, watchdog 200/400 ms drop, computed headroom floor on 3. */
static struct port_qos switch_want(void)
{
	struct port_qos q;

	memset(&q, 0, sizeof(q));
	q.known = RC_F_TRUST | RC_F_DSCP2PRIO | RC_F_PRIO2TC | RC_F_PFC | RC_F_CABLE | RC_F_ECN |
		  RC_F_HEADROOM | RC_F_ETS | RC_F_WATCHDOG;
	q.trust = RC_TRUST_DSCP;
	q.dscp_mask = (1ull << 26) | (1ull << 48);
	q.dscp2prio[26] = 3;
	q.dscp2prio[48] = 6;
	q.prio_mask = (1u << 3) | (1u << 6);
	q.prio2tc[3] = 3;
	q.prio2tc[6] = 6;
	q.pfc_enabled = 1u << 3;
	q.cable_length_m = 30;
	q.ecn_tc_mask = 1u << 3;
	q.ecn[3] = (struct rc_ecn_tc){true, 150000, 1500000, 100.0};
	q.headroom_mask = 1u << 3;
	q.headroom_bytes[3] = 214316;
	q.headroom_is_min = true;
	q.ets.tc_mask = (1u << 0) | (1u << 3) | (1u << 6);
	q.ets.tsa[0] = RC_TSA_DWRR;
	q.ets.bw_pct[0] = 50;
	q.ets.tsa[3] = RC_TSA_DWRR;
	q.ets.bw_pct[3] = 50;
	q.ets.tsa[6] = RC_TSA_STRICT;
	q.watchdog = (struct rc_watchdog){true, 200, 400, RC_WD_DROP, 0};
	return q;
}

/* What a driver reading a full switch reports when it is in sync: whole tables. */
static struct port_qos switch_have(void)
{
	struct port_qos q = switch_want();

	q.headroom_is_min = false;
	q.dscp_mask = ~0ull;
	for (int d = 0; d < RC_NDSCP; d++)
		if (d != 26 && d != 48)
			q.dscp2prio[d] = (uint8_t)(d >> 3);
	q.prio_mask = 0xff;
	for (int p = 0; p < RC_NPRIO; p++)
		q.prio2tc[p] = (uint8_t)p;
	q.ecn_tc_mask = 0xff;
	q.headroom_mask = 1u << 3;
	q.headroom_bytes[3] = 229376; /* what the ASIC chose, above the floor */
	q.mtu = 9216;
	q.speed_gbps = 400;
	q.known |= RC_F_MTU | RC_F_SPEED;
	return q;
}

static struct port_qos host_want(void)
{
	struct port_qos q;

	memset(&q, 0, sizeof(q));
	q.known = RC_F_TRUST | RC_F_DSCP2PRIO | RC_F_PFC | RC_F_CABLE | RC_F_NIC_ECN | RC_F_CNP |
		  RC_F_ROCE_TOS | RC_F_DCBX;
	q.trust = RC_TRUST_DSCP;
	q.dscp_mask = (1ull << 26) | (1ull << 48);
	q.dscp2prio[26] = 3;
	q.dscp2prio[48] = 6;
	q.pfc_enabled = 1u << 3;
	q.cable_length_m = 3;
	q.nic_ecn_prio_mask = 1u << 3;
	q.nic_ecn_np = 1u << 3;
	q.nic_ecn_rp = 1u << 3;
	q.cnp_dscp = 48;
	q.cnp_prio = 6;
	q.roce_tos = 106;
	q.dcbx_host = true;
	return q;
}

static struct port_qos host_have(void)
{
	struct port_qos q = host_want();

	q.nic_ecn_prio_mask = 0xff; /* mlx5 reports every priority */
	q.nic_ecn_np = 0xff;
	q.nic_ecn_rp = 0xff;
	return q;
}

static const struct rc_change *find(const struct rc_changes *c, const char *field)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].field, field))
			return &c->v[i];
	return NULL;
}

static void assert_set(const struct rc_changes *c, const char *field, const char *old_value,
		       const char *new_value)
{
	const struct rc_change *ch = find(c, field);

	if (!ch)
		fail_msg("no change for '%s'", field);
	assert_int_equal(ch->kind, RC_CHANGE_SET);
	assert_string_equal(ch->old_value, old_value);
	assert_string_equal(ch->new_value, new_value);
}

static void test_equal_no_changes(void **state)
{
	struct port_qos w = switch_want(), h = switch_have();
	struct port_qos hw = host_want(), hh = host_have();
	struct rc_changes c = {0};

	(void)state;
	assert_int_equal(rc_diff_port("swp1", &w, &h, 8.0, 0, &c), 0);
	assert_int_equal(rc_diff_port("enp1", &hw, &hh, 8.0, 0, &c), 0);
	assert_int_equal(c.n, 0);
	rc_changes_fini(&c);
}

/* What the desired state does not pin is not looked at, however different. */
static void test_unpinned_groups_ignored(void **state)
{
	struct port_qos w = switch_want(), h = switch_have();
	struct rc_changes c = {0};

	(void)state;
	w.known &= ~(RC_F_TRUST | RC_F_ETS);
	h.trust = RC_TRUST_PCP;
	h.ets.tsa[6] = RC_TSA_DWRR;
	h.mtu = 1500;	     /* MTU is read, never pinned by desired */
	h.dscp2prio[10] = 7; /* an entry the policy does not describe */
	assert_int_equal(rc_diff_port("swp1", &w, &h, 8.0, 0, &c), 0);
	assert_int_equal(c.n, 0);
}

static void test_trust_dscp_prio2tc(void **state)
{
	struct port_qos w = switch_want(), h = switch_have();
	struct rc_changes c = {0};
	int64_t m;

	(void)state;
	h.trust = RC_TRUST_PCP;
	h.dscp2prio[26] = 1; /* SONiC AZURE default */
	h.prio2tc[6] = 0;
	m = rc_diff_port("Ethernet0", &w, &h, 8.0, 0, &c);
	assert_int_equal(m, RC_F_TRUST | RC_F_DSCP2PRIO | RC_F_PRIO2TC);
	assert_int_equal(c.n, 3);
	/* deterministic order: trust, dscp2prio, prio2tc */
	assert_string_equal(c.v[0].field, "trust");
	assert_string_equal(c.v[0].old_value, "pcp");
	assert_string_equal(c.v[0].new_value, "dscp");
	assert_int_equal(c.v[0].group, RC_F_TRUST);
	assert_string_equal(c.v[0].port, "Ethernet0");
	assert_string_equal(c.v[1].field, "dscp2prio[26]");
	assert_string_equal(c.v[1].old_value, "1");
	assert_string_equal(c.v[1].new_value, "3");
	assert_int_equal(c.v[1].group, RC_F_DSCP2PRIO);
	assert_string_equal(c.v[2].field, "prio2tc[6]");
	assert_string_equal(c.v[2].old_value, "0");
	assert_string_equal(c.v[2].new_value, "6");
	rc_changes_fini(&c);
	assert_null(c.v);
	assert_int_equal(c.n, 0);
}

/* A table entry the driver did not report is unknown, not "0". */
static void test_dscp_entry_not_read(void **state)
{
	struct port_qos w = switch_want(), h = switch_have();
	struct rc_changes c = {0};

	(void)state;
	h.dscp_mask &= ~(1ull << 48);
	h.dscp2prio[48] = 6;
	assert_int_equal(rc_diff_port("swp1", &w, &h, 8.0, 0, &c), 0);
	assert_int_equal(c.n, 1);
	assert_string_equal(c.v[0].field, "dscp2prio[48]");
	assert_int_equal(c.v[0].kind, RC_CHANGE_UNKNOWN);
	assert_string_equal(c.v[0].old_value, "");
	assert_string_equal(c.v[0].new_value, "6");
	rc_changes_fini(&c);
}

/* A journaled host table being restored: the same priorities, but 48 had no entry of its
 * own before (firmware's default 48 >> 3 = 6 reads the same as an entry 48:6).  A want
 * from the policy says nothing of entries and is not concerned. */
static void test_dscp_entries_of_a_journaled_table(void **state)
{
	struct port_qos w = host_have(), h = host_have(), p = host_want();
	struct rc_changes c = {0};

	(void)state;
	w.dscp_entries_known = h.dscp_entries_known = true;
	w.dscp_entries = 1ull << 26;
	h.dscp_entries = (1ull << 26) | (1ull << 48);
	assert_int_equal(rc_diff_port("eth0", &w, &h, 8.0, 0, &c), RC_F_DSCP2PRIO);
	assert_int_equal(c.n, 1);
	assert_set(&c, "dscp2prio.entries", "26,48", "26");
	rc_changes_fini(&c);
	assert_int_equal(rc_diff_port("eth0", &p, &h, 8.0, 0, &c), 0);
	assert_int_equal(c.n, 0);
	rc_changes_fini(&c);
}

static void test_pfc_rendering(void **state)
{
	struct port_qos w = switch_want(), h = switch_have();
	struct rc_changes c = {0};

	(void)state;
	h.pfc_enabled = (1u << 3) | (1u << 4); /* SONiC default 3,4 */
	assert_int_equal(rc_diff_port("swp1", &w, &h, 8.0, 0, &c), RC_F_PFC);
	assert_set(&c, "pfc_enabled", "3,4", "3");
	rc_changes_fini(&c);

	h.pfc_enabled = 0;
	rc_diff_port("swp1", &w, &h, 8.0, 0, &c);
	assert_set(&c, "pfc_enabled", "none", "3");
	rc_changes_fini(&c);

	w.pfc_enabled = 0; /* turning lossless off */
	h.pfc_enabled = 0xff;
	rc_diff_port("swp1", &w, &h, 8.0, 0, &c);
	assert_set(&c, "pfc_enabled", "0,1,2,3,4,5,6,7", "none");
	rc_changes_fini(&c);
}

static void test_cable(void **state)
{
	struct port_qos w = switch_want(), h = switch_have();
	struct rc_changes c = {0};

	(void)state;
	h.cable_length_m = 100; /* NVUE RoCE default */
	assert_int_equal(rc_diff_port("swp1", &w, &h, 8.0, 0, &c), RC_F_CABLE);
	assert_set(&c, "cable_length_m", "100", "30");
	rc_changes_fini(&c);
}

/* 8% of 150000 is 12000: 138000..162000 is in sync, one byte further is drift. */
static void test_ecn_tolerance_edges(void **state)
{
	struct port_qos w = switch_want(), h = switch_have();
	struct rc_changes c = {0};

	(void)state;
	h.ecn[3].kmin_bytes = 162000;
	h.ecn[3].kmax_bytes = 1380000; /* 1500000 - 8% exactly */
	assert_int_equal(rc_diff_port("swp1", &w, &h, 8.0, 0, &c), 0);
	h.ecn[3].kmin_bytes = 138000;
	h.ecn[3].kmax_bytes = 1620000;
	assert_int_equal(rc_diff_port("swp1", &w, &h, 8.0, 0, &c), 0);
	h.ecn[3].kmin_bytes = 159744; /* NVUE on Spectrum-4 (README.md, tolerance) */
	assert_int_equal(rc_diff_port("swp1", &w, &h, 8.0, 0, &c), 0);
	assert_int_equal(c.n, 0);

	h.ecn[3].kmin_bytes = 162001;
	h.ecn[3].kmax_bytes = 1379999;
	assert_int_equal(rc_diff_port("swp1", &w, &h, 8.0, 0, &c), RC_F_ECN);
	assert_int_equal(c.n, 2);
	assert_set(&c, "ecn[3].kmin_bytes", "162001", "150000");
	assert_set(&c, "ecn[3].kmax_bytes", "1379999", "1500000");
	rc_changes_fini(&c);

	h.ecn[3].kmin_bytes = 137999;
	h.ecn[3].kmax_bytes = 1500000;
	assert_int_equal(rc_diff_port("swp1", &w, &h, 8.0, 0, &c), RC_F_ECN);
	assert_set(&c, "ecn[3].kmin_bytes", "137999", "150000");
	rc_changes_fini(&c);

	/* tolerance 0: exact */
	h.ecn[3].kmin_bytes = 150001;
	assert_int_equal(rc_diff_port("swp1", &w, &h, 0.0, 0, &c), RC_F_ECN);
	assert_set(&c, "ecn[3].kmin_bytes", "150001", "150000");
	rc_changes_fini(&c);
}

static void test_ecn_enable_and_probability(void **state)
{
	struct port_qos w = switch_want(), h = switch_have();
	struct rc_changes c = {0};

	(void)state;
	h.ecn[3].pmax_pct = 99.5; /* whole-percent rounding */
	assert_int_equal(rc_diff_port("swp1", &w, &h, 8.0, 0, &c), 0);
	h.ecn[3].pmax_pct = 99.4;
	h.ecn[3].enabled = false;
	assert_int_equal(rc_diff_port("swp1", &w, &h, 8.0, 0, &c), RC_F_ECN);
	assert_int_equal(c.n, 2);
	assert_string_equal(c.v[0].field, "ecn[3].enabled");
	assert_string_equal(c.v[0].old_value, "false");
	assert_string_equal(c.v[0].new_value, "true");
	assert_set(&c, "ecn[3].pmax_pct", "99.4", "100");
	rc_changes_fini(&c);
}

/* A PFC-only policy wants marking off; leftover thresholds are not drift. */
static void test_ecn_disabled_ignores_thresholds(void **state)
{
	struct port_qos w = switch_want(), h = switch_have();
	struct rc_changes c = {0};

	(void)state;
	w.ecn[3] = (struct rc_ecn_tc){false, 0, 0, 0};
	h.ecn[3].enabled = false;
	assert_int_equal(rc_diff_port("swp1", &w, &h, 8.0, 0, &c), 0);
	h.ecn[3].enabled = true;
	assert_int_equal(rc_diff_port("swp1", &w, &h, 8.0, 0, &c), RC_F_ECN);
	assert_int_equal(c.n, 1);
	assert_set(&c, "ecn[3].enabled", "true", "false");
	rc_changes_fini(&c);
}

static void test_headroom_floor_and_exact(void **state)
{
	struct port_qos w = switch_want(), h = switch_have();
	struct rc_changes c = {0};

	(void)state;
	/* a floor: exactly at it, or anything above, is fine */
	h.headroom_bytes[3] = 214316;
	assert_int_equal(rc_diff_port("swp1", &w, &h, 8.0, 0, &c), 0);
	h.headroom_bytes[3] = 10000000;
	assert_int_equal(rc_diff_port("swp1", &w, &h, 8.0, 0, &c), 0);
	/* a floor has no tolerance below it */
	h.headroom_bytes[3] = 214315;
	assert_int_equal(rc_diff_port("swp1", &w, &h, 8.0, 0, &c), RC_F_HEADROOM);
	assert_set(&c, "headroom[3].bytes", "214315", ">= 214316");
	rc_changes_fini(&c);

	/* an explicit size: the tolerance both ways (200KiB = 204800, 8% = 16384) */
	w.headroom_is_min = false;
	w.headroom_bytes[3] = 204800;
	h.headroom_bytes[3] = 204800 + 16384;
	assert_int_equal(rc_diff_port("swp1", &w, &h, 8.0, 0, &c), 0);
	h.headroom_bytes[3] = 204800 - 16384;
	assert_int_equal(rc_diff_port("swp1", &w, &h, 8.0, 0, &c), 0);
	h.headroom_bytes[3] = 204800 + 16385;
	assert_int_equal(rc_diff_port("swp1", &w, &h, 8.0, 0, &c), RC_F_HEADROOM);
	assert_set(&c, "headroom[3].bytes", "221185", "204800");
	rc_changes_fini(&c);

	/* a lossless priority whose buffer the driver did not report */
	h.headroom_bytes[3] = 204800;
	w.headroom_mask |= 1u << 4;
	w.headroom_bytes[4] = 204800;
	assert_int_equal(rc_diff_port("swp1", &w, &h, 8.0, 0, &c), 0);
	assert_int_equal(c.n, 1);
	assert_string_equal(c.v[0].field, "headroom[4].bytes");
	assert_int_equal(c.v[0].kind, RC_CHANGE_UNKNOWN);
	rc_changes_fini(&c);
}

static void test_ets(void **state)
{
	struct port_qos w = switch_want(), h = switch_have();
	struct rc_changes c = {0};

	(void)state;
	h.ets.tsa[6] = RC_TSA_DWRR;
	h.ets.bw_pct[6] = 10; /* no share is wanted for a strict class */
	h.ets.bw_pct[3] = 40;
	h.ets.bw_pct[0] = 60;
	assert_int_equal(rc_diff_port("swp1", &w, &h, 8.0, 0, &c), RC_F_ETS);
	assert_int_equal(c.n, 3);
	assert_string_equal(c.v[0].field, "ets[0].bw_pct");
	assert_string_equal(c.v[1].field, "ets[3].bw_pct");
	assert_string_equal(c.v[2].field, "ets[6].tsa");
	assert_set(&c, "ets[0].bw_pct", "60", "50");
	assert_set(&c, "ets[3].bw_pct", "40", "50");
	assert_set(&c, "ets[6].tsa", "dwrr", "strict");
	rc_changes_fini(&c);
}

static void test_watchdog(void **state)
{
	struct port_qos w = switch_want(), h = switch_have();
	struct rc_changes c = {0};

	(void)state;
	h.watchdog = (struct rc_watchdog){true, 100, 400, RC_WD_FORWARD, 0};
	assert_int_equal(rc_diff_port("swp1", &w, &h, 8.0, 0, &c), RC_F_WATCHDOG);
	assert_int_equal(c.n, 2);
	assert_set(&c, "watchdog.detection_ms", "100", "200");
	assert_set(&c, "watchdog.action", "forward", "drop");
	rc_changes_fini(&c);

	h.watchdog = (struct rc_watchdog){false, 0, 0, RC_WD_DROP, 0};
	rc_diff_port("swp1", &w, &h, 8.0, 0, &c);
	assert_set(&c, "watchdog.enabled", "false", "true");
	assert_set(&c, "watchdog.restoration_ms", "0", "400");
	rc_changes_fini(&c);

	/* off wanted: timers do not matter */
	w.watchdog = (struct rc_watchdog){false, 0, 0, RC_WD_DROP, 0};
	h.watchdog = (struct rc_watchdog){false, 999, 999, RC_WD_FORWARD, 0};
	assert_int_equal(rc_diff_port("swp1", &w, &h, 8.0, 0, &c), 0);
	assert_int_equal(c.n, 0);
}

/* NVUE restores after its detection time and always drops: those fields are reported as
 * not controllable, never as drift, and only what can be written makes the group dirty. */
static void test_watchdog_fixed_fields(void **state)
{
	struct port_qos w = switch_want(), h = switch_have();
	struct rc_changes c = {0};
	const struct rc_change *ch;

	(void)state;
	w.watchdog.action = RC_WD_FORWARD;
	h.watchdog = (struct rc_watchdog){true, 200, 200, RC_WD_DROP,
					  RC_WD_FIXED_RESTORATION | RC_WD_FIXED_ACTION};
	assert_int_equal(rc_diff_port("swp1", &w, &h, 8.0, 0, &c), 0);
	assert_int_equal(c.n, 2);
	assert_int_equal(rc_changes_count(&c, RC_CHANGE_SET), 0);
	ch = find(&c, "watchdog.restoration_ms");
	assert_non_null(ch);
	assert_int_equal(ch->kind, RC_CHANGE_UNSUPPORTED);
	assert_string_equal(ch->new_value, "400");
	ch = find(&c, "watchdog.action");
	assert_non_null(ch);
	assert_int_equal(ch->kind, RC_CHANGE_UNSUPPORTED);
	rc_changes_fini(&c);

	/* the detection time is still compared and written */
	h.watchdog.detection_ms = 100;
	assert_int_equal(rc_diff_port("swp1", &w, &h, 8.0, 0, &c), RC_F_WATCHDOG);
	assert_set(&c, "watchdog.detection_ms", "100", "200");
	rc_changes_fini(&c);

	/* equal values of fixed fields say nothing */
	w.watchdog = (struct rc_watchdog){true, 200, 200, RC_WD_DROP, 0};
	h.watchdog = (struct rc_watchdog){true, 200, 200, RC_WD_DROP,
					  RC_WD_FIXED_RESTORATION | RC_WD_FIXED_ACTION};
	assert_int_equal(rc_diff_port("swp1", &w, &h, 8.0, 0, &c), 0);
	assert_int_equal(c.n, 0);
}

static void test_host_groups(void **state)
{
	struct port_qos w = host_want(), h = host_have();
	struct rc_changes c = {0};
	int64_t m;

	(void)state;
	h.nic_ecn_np = 0x00;		     /* off everywhere */
	h.nic_ecn_rp = (uint8_t) ~(1u << 3); /* on everywhere but 3 */
	h.cnp_dscp = 46;
	h.cnp_prio = 5;
	h.roce_tos = 0;
	h.dcbx_host = false;
	m = rc_diff_port("enp12s0np0", &w, &h, 8.0, 0, &c);
	assert_int_equal(m, RC_F_NIC_ECN | RC_F_CNP | RC_F_ROCE_TOS | RC_F_DCBX);
	assert_int_equal(c.n, 6);
	/* only the described priority is compared and shown */
	assert_set(&c, "nic_ecn.np", "none", "3");
	assert_set(&c, "nic_ecn.rp", "none", "3");
	assert_set(&c, "cnp.dscp", "46", "48");
	assert_set(&c, "cnp.prio", "5", "6");
	assert_set(&c, "roce_tos", "0", "106");
	assert_set(&c, "dcbx", "firmware", "host");
	assert_string_equal(c.v[0].field, "nic_ecn.np");
	assert_string_equal(c.v[5].field, "dcbx");
	rc_changes_fini(&c);

	/* ECN off on the host: NP/RP must be off on the RoCE priority, others left alone */
	w.nic_ecn_np = w.nic_ecn_rp = 0;
	h = host_have();
	assert_int_equal(rc_diff_port("enp12s0np0", &w, &h, 8.0, 0, &c), RC_F_NIC_ECN);
	assert_set(&c, "nic_ecn.np", "3", "none");
	rc_changes_fini(&c);

	/* the driver did not read priority 3's enables */
	w = host_want();
	h = host_have();
	h.nic_ecn_prio_mask = (uint8_t) ~(1u << 3);
	assert_int_equal(rc_diff_port("enp12s0np0", &w, &h, 8.0, 0, &c), 0);
	assert_int_equal(rc_changes_count(&c, RC_CHANGE_UNKNOWN), 2);
	rc_changes_fini(&c);
}

/* A group the driver could not read is never taken as equal, and is not written. */
static void test_unknown_group(void **state)
{
	struct port_qos w = switch_want(), h = switch_want();
	struct rc_changes c = {0};

	(void)state;
	h.known &= ~RC_F_ECN; /* the values happen to match: still unknown */
	assert_int_equal(rc_diff_port("swp1", &w, &h, 8.0, 0, &c), 0);
	assert_int_equal(c.n, 4);
	for (size_t i = 0; i < c.n; i++) {
		assert_int_equal(c.v[i].kind, RC_CHANGE_UNKNOWN);
		assert_int_equal(c.v[i].group, RC_F_ECN);
		assert_string_equal(c.v[i].old_value, "");
	}
	assert_string_equal(c.v[0].field, "ecn[3].enabled");
	assert_string_equal(c.v[0].new_value, "true");
	assert_string_equal(c.v[1].field, "ecn[3].kmin_bytes");
	assert_string_equal(c.v[1].new_value, "150000");
	assert_string_equal(c.v[3].field, "ecn[3].pmax_pct");
	assert_int_equal(rc_changes_count(&c, RC_CHANGE_UNKNOWN), 4);
	assert_int_equal(rc_changes_count(&c, RC_CHANGE_SET), 0);
	rc_changes_fini(&c);

	h = switch_have();
	h.known = 0; /* nothing readable */
	assert_int_equal(rc_diff_port("swp1", &w, &h, 8.0, 0, &c), 0);
	assert_int_equal(rc_changes_count(&c, RC_CHANGE_SET), 0);
	assert_true(rc_changes_count(&c, RC_CHANGE_UNKNOWN) >= 9);
	assert_non_null(find(&c, "trust"));
	assert_string_equal(find(&c, "headroom[3].bytes")->new_value, ">= 214316");
	rc_changes_fini(&c);
}

/* Not controllable here: reported, not drift, not written, even when it differs. */
static void test_unsupported_group(void **state)
{
	struct port_qos w = switch_want(), h = switch_have();
	struct rc_changes c = {0};

	(void)state;
	h.unsupported = RC_F_HEADROOM | RC_F_WATCHDOG;
	h.known &= ~RC_F_HEADROOM;   /* cannot read it either */
	h.watchdog.detection_ms = 5; /* differs, but cannot be controlled */
	assert_int_equal(rc_diff_port("Ethernet1/1", &w, &h, 8.0, 0, &c), 0);
	assert_int_equal(rc_changes_count(&c, RC_CHANGE_UNSUPPORTED), c.n);
	assert_int_equal(c.v[0].group, RC_F_HEADROOM);
	assert_string_equal(c.v[0].field, "headroom[3].bytes");
	assert_non_null(find(&c, "watchdog.enabled"));
	assert_non_null(find(&c, "watchdog.detection_ms"));
	assert_int_equal(rc_changes_count(&c, RC_CHANGE_SET), 0);
	assert_int_equal(rc_changes_count(&c, RC_CHANGE_UNKNOWN), 0);
	rc_changes_fini(&c);
}

static void test_disruptive_and_append(void **state)
{
	struct port_qos w = host_want(), h = host_have();
	struct rc_changes c = {0};

	(void)state;
	h.pfc_enabled = 0;
	h.roce_tos = 104;
	/* mlx5: a PFC change flaps the link */
	assert_int_equal(rc_diff_port("enp1", &w, &h, 8.0, RC_F_PFC, &c), RC_F_PFC | RC_F_ROCE_TOS);
	assert_int_equal(rc_diff_port("enp2", &w, &h, 8.0, RC_F_PFC, &c), RC_F_PFC | RC_F_ROCE_TOS);
	assert_int_equal(c.n, 4);
	assert_string_equal(c.v[0].port, "enp1");
	assert_string_equal(c.v[0].field, "pfc_enabled");
	assert_true(c.v[0].disruptive);
	assert_string_equal(c.v[1].field, "roce_tos");
	assert_false(c.v[1].disruptive);
	assert_string_equal(c.v[2].port, "enp2");
	assert_true(c.v[2].disruptive);
	rc_changes_fini(&c);
}

/* The same inputs give the same list, in the same order. */
static void test_deterministic(void **state)
{
	struct port_qos w = switch_want(), h = switch_have();
	struct rc_changes a = {0}, b = {0};

	(void)state;
	memset(&h, 0, sizeof(h));
	h.known = RC_F_ALL;
	h.dscp_mask = ~0ull; /* every table read, every value 0 */
	h.prio_mask = h.ecn_tc_mask = h.headroom_mask = h.ets.tc_mask = 0xff;
	assert_int_equal(rc_diff_port("swp1", &w, &h, 8.0, 0, &a), w.known);
	assert_int_equal(rc_diff_port("swp1", &w, &h, 8.0, 0, &b), w.known);
	assert_int_equal(a.n, b.n);
	for (size_t i = 0; i < a.n; i++)
		assert_memory_equal(&a.v[i], &b.v[i], sizeof(a.v[i]));
	assert_string_equal(a.v[0].field, "trust");
	assert_string_equal(a.v[1].field, "dscp2prio[26]");
	assert_string_equal(a.v[2].field, "dscp2prio[48]");
	assert_string_equal(a.v[3].field, "prio2tc[3]");
	assert_string_equal(a.v[4].field, "prio2tc[6]");
	assert_string_equal(a.v[5].field, "pfc_enabled");
	assert_string_equal(a.v[6].field, "cable_length_m");
	assert_string_equal(a.v[7].field, "headroom[3].bytes");
	assert_string_equal(a.v[8].field, "ecn[3].enabled");
	rc_changes_fini(&a);
	rc_changes_fini(&b);
}

static void test_within_tolerance(void **state)
{
	(void)state;
	assert_true(rc_within_tolerance(100, 108, 8.0));
	assert_true(rc_within_tolerance(100, 92, 8.0));
	assert_false(rc_within_tolerance(100, 109, 8.0));
	assert_false(rc_within_tolerance(100, 91, 8.0));
	assert_true(rc_within_tolerance(0, 0, 8.0));
	assert_false(rc_within_tolerance(0, 1, 8.0));
	assert_true(rc_within_tolerance(5, 5, 0.0));
	assert_false(rc_within_tolerance(5, 6, 0.0));
	assert_false(rc_within_tolerance(5, 6, NAN));
	assert_false(rc_within_tolerance(5, 6, -10.0));
	assert_true(rc_within_tolerance(UINT64_C(1) << 40, (UINT64_C(1) << 40) + 1, 1.0));
	assert_true(rc_within_tolerance(1, UINT64_MAX, INFINITY));
}

static void test_bad_arguments(void **state)
{
	struct port_qos w = switch_want();
	struct rc_changes c = {0};

	(void)state;
	assert_int_equal(rc_diff_port("swp1", &w, NULL, 8.0, 0, &c), -EINVAL);
	assert_int_equal(rc_diff_port("swp1", NULL, &w, 8.0, 0, &c), -EINVAL);
	assert_int_equal(rc_diff_port("swp1", &w, &w, 8.0, 0, NULL), -EINVAL);
	assert_int_equal(rc_changes_count(NULL, RC_CHANGE_SET), 0);
	rc_changes_fini(NULL);
}

/* Values that read as wanted but whose effect the driver found missing are drift: one
 * SET change "<group>.effect" with the reason, and the group is in the write mask. */
static void test_effect_drift(void **state)
{
	struct port_qos want = switch_want(), have = switch_have();
	struct rc_changes c = {0};
	int64_t mask;

	(void)state;
	rc_effect_drift(&have.effect, RC_F_PFC, "no lossless traffic pool carries priority %d", 3);
	rc_effect_drift(&have.effect, RC_F_CABLE, "BUFFER_PG profile still %s",
			"pg_lossless_400000_5m");
	mask = rc_diff_port("swp1", &want, &have, 5.0, 0, &c);
	assert_int_equal(mask, RC_F_PFC | RC_F_CABLE);
	assert_int_equal(c.n, 2);
	assert_string_equal(c.v[0].field, "pfc_enabled.effect");
	assert_int_equal(c.v[0].kind, RC_CHANGE_SET);
	assert_string_equal(c.v[0].old_value, "not in effect");
	assert_string_equal(rc_change_note(&c.v[0]), "no lossless traffic pool carries priority 3");
	assert_string_equal(c.v[1].field, "cable_length_m.effect");
	assert_string_equal(rc_change_note(&c.v[1]),
			    "BUFFER_PG profile still pg_lossless_400000_5m");
	rc_changes_free(&c);
}

/* Each change's note carries the reasons about its own group only (an mlx5 host in
 * firmware-buffer mode: the DSCP warning and the inert cable length are two notes), a
 * reason about two groups is in both, and a reason without groups (a state written before
 * reasons had them) is about every group. */
static void test_effect_notes_stay_with_their_group(void **state)
{
	struct port_qos want = switch_want(), have = switch_have();
	struct rc_changes c = {0};

	(void)state;
	rc_effect_warn(&have.effect, RC_F_DSCP2PRIO,
		       "DSCP 24-25,27-31 without an APP entry land in a lossless priority");
	rc_effect_inert(&have.effect, RC_F_CABLE,
			"cable length is used only once the host "
			"sizes the buffers");
	rc_effect_drift(&have.effect, RC_F_PFC | RC_F_ECN, "running differs from startup");
	assert_int_equal(rc_diff_port("eth0", &want, &have, 5.0, 0, &c), RC_F_PFC | RC_F_ECN);
	assert_int_equal(c.n, 4);
	assert_string_equal(c.v[0].field, "dscp2prio.warning");
	assert_string_equal(rc_change_note(&c.v[0]),
			    "DSCP 24-25,27-31 without an APP entry land in a lossless priority");
	assert_string_equal(c.v[1].field, "pfc_enabled.effect");
	assert_string_equal(rc_change_note(&c.v[1]), "running differs from startup");
	assert_string_equal(c.v[2].field, "cable_length_m");
	assert_string_equal(rc_change_note(&c.v[2]),
			    "cable length is used only once the host sizes the buffers");
	assert_string_equal(c.v[3].field, "ecn.effect");
	assert_string_equal(rc_change_note(&c.v[3]), "running differs from startup");
	rc_changes_fini(&c);

	memset(&have.effect, 0, sizeof(have.effect));
	have.effect.warn = RC_F_DSCP2PRIO;
	have.effect.inert = RC_F_CABLE;
	snprintf(have.effect.why, sizeof(have.effect.why), "seen before groups were kept");
	assert_int_equal(rc_diff_port("eth0", &want, &have, 5.0, 0, &c), 0);
	assert_int_equal(c.n, 2);
	assert_string_equal(rc_change_note(&c.v[0]), "seen before groups were kept");
	assert_string_equal(rc_change_note(&c.v[1]), "seen before groups were kept");
	rc_changes_fini(&c);
}

/* A group with no reason of its own says so rather than borrow another group's. */
static void test_effect_note_without_reason(void **state)
{
	struct port_qos want = switch_want(), have = switch_have();
	struct rc_changes c = {0};

	(void)state;
	rc_effect_drift(&have.effect, RC_F_CABLE, "BUFFER_PG profile still pg_lossless");
	have.effect.drift |= RC_F_PFC;
	assert_int_equal(rc_diff_port("swp1", &want, &have, 5.0, 0, &c), RC_F_PFC | RC_F_CABLE);
	assert_int_equal(c.n, 2);
	assert_string_equal(c.v[0].field, "pfc_enabled.effect");
	assert_string_equal(rc_change_note(&c.v[0]), "no reason given");
	assert_string_equal(rc_change_note(&c.v[1]), "BUFFER_PG profile still pg_lossless");
	rc_changes_fini(&c);
}

/* Restoring a journaled state that was read with the effect already missing asks for its
 * values back, not for the effect: the restore of such a device can verify. */
static void test_effect_missing_in_restored_state(void **state)
{
	struct port_qos want = switch_have(), have = switch_have();
	struct rc_changes c = {0};

	(void)state;
	rc_effect_drift(&want.effect, RC_F_PFC, "no lossless pool");
	rc_effect_drift(&have.effect, RC_F_PFC | RC_F_CABLE, "no lossless pool; profile");
	assert_int_equal(rc_diff_port("swp1", &want, &have, 0.0, 0, &c), RC_F_CABLE);
	assert_int_equal(c.n, 1);
	assert_string_equal(c.v[0].field, "cable_length_m.effect");
	rc_changes_free(&c);
}

/* A group whose values differ is reported by its values, not twice. */
static void test_effect_drift_with_value_drift(void **state)
{
	struct port_qos want = switch_want(), have = switch_have();
	struct rc_changes c = {0};

	(void)state;
	have.pfc_enabled = 0;
	rc_effect_drift(&have.effect, RC_F_PFC, "no lossless pool");
	assert_int_equal(rc_diff_port("swp1", &want, &have, 5.0, 0, &c), RC_F_PFC);
	assert_int_equal(c.n, 1);
	assert_string_equal(c.v[0].field, "pfc_enabled");
	rc_changes_free(&c);
}

/* An inert group (mlx5 cable length in firmware-buffer mode) is neither drift nor in
 * sync: one UNSUPPORTED change with the reason, whatever its value. */
static void test_effect_inert(void **state)
{
	struct port_qos want = switch_want(), have = switch_have();
	struct rc_changes c = {0};

	(void)state;
	have.cable_length_m = 7;
	rc_effect_inert(&have.effect, RC_F_CABLE, "firmware sizes the buffers");
	assert_int_equal(rc_diff_port("eth0", &want, &have, 5.0, 0, &c), 0);
	assert_int_equal(c.n, 1);
	assert_string_equal(c.v[0].field, "cable_length_m");
	assert_int_equal(c.v[0].kind, RC_CHANGE_UNSUPPORTED);
	assert_string_equal(rc_change_note(&c.v[0]), "firmware sizes the buffers");
	assert_int_equal(rc_changes_count(&c, RC_CHANGE_SET), 0);
	rc_changes_free(&c);
}

/* A warning is listed with its reason, never counted as drift nor written; the groups
 * whose reading is unverified are gathered for the report. */
static void test_effect_warn_and_unverified(void **state)
{
	struct port_qos want = switch_want(), have = switch_have();
	struct rc_changes c = {0};

	(void)state;
	rc_effect_warn(&have.effect, RC_F_DSCP2PRIO,
		       "DSCP 24-25,27-31 land in a lossless priority");
	have.effect.unverified = RC_F_DSCP2PRIO | RC_F_NIC_ECN; /* NIC ECN: not in policy */
	assert_int_equal(rc_diff_port("eth0", &want, &have, 5.0, 0, &c), 0);
	assert_int_equal(c.n, 1);
	assert_string_equal(c.v[0].field, "dscp2prio.warning");
	assert_int_equal(c.v[0].kind, RC_CHANGE_UNSUPPORTED);
	assert_true(c.v[0].warning);
	assert_non_null(strstr(rc_change_note(&c.v[0]), "24-25,27-31"));
	assert_int_equal(c.unverified, RC_F_DSCP2PRIO);
	rc_changes_fini(&c);
}

/* Reasons are cut to fit, never overflow. */
static void test_effect_why_bounded(void **state)
{
	struct rc_effect e;
	char big[512];

	(void)state;
	memset(&e, 0, sizeof(e));
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	for (int i = 0; i < 5; i++)
		rc_effect_drift(&e, RC_F_PFC, "%s", big);
	assert_int_equal(strlen(e.why), sizeof(e.why) - 1);
	assert_int_equal(e.n_why, 1);

	/* more reasons than slots: the last slot holds the rest, with their groups */
	memset(&e, 0, sizeof(e));
	for (int i = 0; i < RC_WHY_PARTS + 2; i++)
		rc_effect_drift(&e, 1u << i, "r%d", i);
	assert_int_equal(e.n_why, RC_WHY_PARTS);
	{
		char buf[RC_WHY_LEN];

		rc_effect_why_of(&e, 1u << (RC_WHY_PARTS + 1), buf, sizeof(buf));
		assert_string_equal(buf, "r7; r8; r9");
		rc_effect_why_of(&e, 1u << 1, buf, sizeof(buf));
		assert_string_equal(buf, "r1");
		rc_effect_why_of(&e, (1u << 0) | (1u << 2), buf, sizeof(buf));
		assert_string_equal(buf, "r0; r2");
		rc_effect_why_of(&e, RC_F_ALL, buf, 6);
		assert_string_equal(buf, "r0; r");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_equal_no_changes),
	    cmocka_unit_test(test_unpinned_groups_ignored),
	    cmocka_unit_test(test_trust_dscp_prio2tc),
	    cmocka_unit_test(test_dscp_entry_not_read),
	    cmocka_unit_test(test_dscp_entries_of_a_journaled_table),
	    cmocka_unit_test(test_pfc_rendering),
	    cmocka_unit_test(test_cable),
	    cmocka_unit_test(test_ecn_tolerance_edges),
	    cmocka_unit_test(test_ecn_enable_and_probability),
	    cmocka_unit_test(test_ecn_disabled_ignores_thresholds),
	    cmocka_unit_test(test_headroom_floor_and_exact),
	    cmocka_unit_test(test_ets),
	    cmocka_unit_test(test_watchdog),
	    cmocka_unit_test(test_host_groups),
	    cmocka_unit_test(test_unknown_group),
	    cmocka_unit_test(test_unsupported_group),
	    cmocka_unit_test(test_watchdog_fixed_fields),
	    cmocka_unit_test(test_disruptive_and_append),
	    cmocka_unit_test(test_deterministic),
	    cmocka_unit_test(test_within_tolerance),
	    cmocka_unit_test(test_bad_arguments),
	    cmocka_unit_test(test_effect_drift),
	    cmocka_unit_test(test_effect_notes_stay_with_their_group),
	    cmocka_unit_test(test_effect_note_without_reason),
	    cmocka_unit_test(test_effect_missing_in_restored_state),
	    cmocka_unit_test(test_effect_drift_with_value_drift),
	    cmocka_unit_test(test_effect_inert),
	    cmocka_unit_test(test_effect_why_bounded),
	    cmocka_unit_test(test_effect_warn_and_unverified),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
