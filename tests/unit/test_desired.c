/* SPDX-License-Identifier: Apache-2.0 */
/* Desired state of a port from policy x device x link (engine/plan/desired.c).  Policies and
 * inventories are built by hand so that these tests do not depend on the YAML loader. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "rocectl/desired.h"
#include "rocectl/headroom.h"

/* docs/POLICY.md's reference policy. */
static struct rc_policy ref_policy(void)
{
	struct rc_policy p;

	memset(&p, 0, sizeof(p));
	strcpy(p.name, "roce-lossless");
	p.trust = RC_TRUST_DSCP;
	p.roce_dscp = 26;
	p.roce_priority = 3;
	p.cnp_dscp = 48;
	p.cnp_priority = 6;
	p.pfc_priorities = 1u << 3;
	p.watchdog_present = true;
	p.watchdog = (struct rc_watchdog){true, 200, 400, RC_WD_DROP, 0};
	p.ecn.enabled = true;
	p.ecn.traffic_class = 3;
	p.ecn.kmin_bytes = 150000;
	p.ecn.kmax_bytes = 1500000;
	p.ecn.pmax_pct = 100.0;
	p.ecn.host_np = true;
	p.ecn.host_rp = true;
	p.headroom.cable_length_m = 100;
	p.headroom.mtu = 9216;
	p.n_ets = 3;
	p.ets[0] = (struct rc_policy_ets_entry){6, RC_TSA_STRICT, 0};
	p.ets[1] = (struct rc_policy_ets_entry){3, RC_TSA_DWRR, 50};
	p.ets[2] = (struct rc_policy_ets_entry){0, RC_TSA_DWRR, 50};
	p.roce_tos_auto = true;
	p.roce_tos = 106;
	p.tolerance_pct = 8.0;
	for (int i = 0; i < RC_NPRIO; i++)
		p.prio2tc[i] = (uint8_t)i; /* identity, as the loader fills it */
	return p;
}

/* A PFC-only fabric: ECN off, no ETS, no watchdog. */
static struct rc_policy pfc_only_policy(void)
{
	struct rc_policy p = ref_policy();

	p.ecn.enabled = false;
	p.ecn.kmin_bytes = p.ecn.kmax_bytes = 0;
	p.ecn.pmax_pct = 0;
	p.n_ets = 0;
	p.watchdog_present = false;
	memset(&p.watchdog, 0, sizeof(p.watchdog));
	return p;
}

/* gpu001 -- leaf01 -- spine01 (deep buffers: ECN override), leaf01:swp2 unlinked,
 * leaf01:swp3 linked without speed or cable, gpu002 linked at 300G (unsupported). */
enum { GPU001, LEAF01, SPINE01, GPU002, N_DEV };

struct fixture {
	struct rc_device dev[N_DEV];
	struct rc_link links[4];
	struct rc_inventory inv;
};

static void set_dev(struct rc_device *d, const char *name, enum rc_dev_kind kind)
{
	memset(d, 0, sizeof(*d));
	strcpy(d->name, name);
	d->kind = kind;
	d->platform = kind == RC_DEV_HOST ? RC_PLAT_HOST : RC_PLAT_NVUE;
}

static struct rc_link link(size_t a, const char *pa, size_t b, const char *pb, uint32_t gbps,
			   uint32_t m)
{
	struct rc_link l;

	memset(&l, 0, sizeof(l));
	l.a.dev = a;
	strcpy(l.a.port, pa);
	l.b.dev = b;
	strcpy(l.b.port, pb);
	l.speed_gbps = gbps;
	l.cable_length_m = m;
	return l;
}

static int setup(void **state)
{
	static struct fixture f;

	set_dev(&f.dev[GPU001], "gpu001", RC_DEV_HOST);
	set_dev(&f.dev[LEAF01], "leaf01", RC_DEV_SWITCH);
	set_dev(&f.dev[SPINE01], "spine01", RC_DEV_SWITCH);
	set_dev(&f.dev[GPU002], "gpu002", RC_DEV_HOST);
	f.dev[SPINE01].platform = RC_PLAT_EOS;
	f.dev[SPINE01].ov.has_ecn_kmin = true;
	f.dev[SPINE01].ov.ecn_kmin_bytes = 1000000;
	f.dev[SPINE01].ov.has_ecn_kmax = true;
	f.dev[SPINE01].ov.ecn_kmax_bytes = 10000000;
	f.links[0] = link(GPU001, "enp12s0np0", LEAF01, "swp1", 400, 3);
	f.links[1] = link(LEAF01, "swp31", SPINE01, "Ethernet1/1", 400, 30);
	f.links[2] = link(LEAF01, "swp3", GPU002, "enp1", 0, 0);
	f.links[3] = link(GPU002, "enp2", LEAF01, "swp4", 300, 3);
	f.inv.n_devices = N_DEV;
	f.inv.devices = f.dev;
	f.inv.n_links = 4;
	f.inv.links = f.links;
	*state = &f;
	return 0;
}

static uint64_t computed(uint32_t gbps, uint32_t m)
{
	struct rc_headroom h;
	struct rc_err err = {0};

	assert_int_equal(rc_headroom_compute(gbps, m, 9216, &h, &err), 0);
	return h.total_bytes;
}

static void test_switch_port_reference_policy(void **state)
{
	struct fixture *f = *state;
	struct rc_policy p = ref_policy();
	struct port_qos q;
	struct rc_err err = {0};

	memset(&q, 0xa5, sizeof(q)); /* everything not pinned must be cleared */
	assert_int_equal(rc_desired_port(&p, &f->inv, LEAF01, "swp31", RC_DEV_SWITCH, 0, &q, &err),
			 0);
	assert_int_equal(q.known, RC_F_TRUST | RC_F_DSCP2PRIO | RC_F_PRIO2TC | RC_F_PFC |
				      RC_F_CABLE | RC_F_ECN | RC_F_HEADROOM | RC_F_ETS |
				      RC_F_WATCHDOG);
	assert_int_equal(q.unsupported, 0);
	assert_int_equal(q.trust, RC_TRUST_DSCP);
	/* exactly the two DSCPs of the policy */
	assert_true(q.dscp_mask == ((1ull << 26) | (1ull << 48)));
	assert_int_equal(q.dscp2prio[26], 3);
	assert_int_equal(q.dscp2prio[48], 6);
	assert_int_equal(q.dscp2prio[0], 0);
	/* with an ets section every priority is pinned (the hand-built policy maps them all
	 * by identity; a loaded one sends the others to the default class) */
	assert_int_equal(q.prio_mask, 0xff);
	assert_int_equal(q.prio2tc[3], 3);
	assert_int_equal(q.prio2tc[6], 6);
	/* classes the policy does not list must hold no DWRR share */
	assert_int_equal(q.ets.no_share_mask, (uint8_t) ~((1u << 0) | (1u << 3) | (1u << 6)));
	assert_int_equal(q.pfc_enabled, 1u << 3);
	assert_int_equal(q.cable_length_m, 30); /* the link's */
	assert_int_equal(q.ecn_tc_mask, 1u << 3);
	assert_true(q.ecn[3].enabled);
	assert_int_equal(q.mtu, 9216);
}

static void test_switch_port_values(void **state)
{
	struct fixture *f = *state;
	struct rc_policy p = ref_policy();
	struct port_qos q;
	struct rc_err err = {0};

	assert_int_equal(rc_desired_port(&p, &f->inv, LEAF01, "swp31", RC_DEV_SWITCH, 0, &q, &err),
			 0);
	/* leaf01 has no overrides: the base policy's thresholds */
	assert_int_equal(q.ecn[3].kmin_bytes, 150000);
	assert_int_equal(q.ecn[3].kmax_bytes, 1500000);
	assert_true(q.ecn[3].pmax_pct == 100.0);
	/* 400G x 30 m x MTU 9216, computed and a floor: 122156 (see test_headroom.c) */
	assert_int_equal(q.headroom_mask, 1u << 3);
	assert_int_equal(q.headroom_bytes[3], 122156);
	assert_int_equal(q.headroom_bytes[3], computed(400, 30));
	assert_true(q.headroom_is_min);
	assert_int_equal(q.ets.tc_mask, (1u << 0) | (1u << 3) | (1u << 6));
	assert_int_equal(q.ets.tsa[6], RC_TSA_STRICT);
	assert_int_equal(q.ets.bw_pct[6], 0);
	assert_int_equal(q.ets.tsa[3], RC_TSA_DWRR);
	assert_int_equal(q.ets.bw_pct[3], 50);
	assert_int_equal(q.ets.bw_pct[0], 50);
	assert_true(q.watchdog.enabled);
	assert_int_equal(q.watchdog.detection_ms, 200);
	assert_int_equal(q.watchdog.restoration_ms, 400);
	assert_int_equal(q.watchdog.action, RC_WD_DROP);
	/* host-only groups stay out */
	assert_int_equal(q.known & (RC_F_NIC_ECN | RC_F_CNP | RC_F_ROCE_TOS | RC_F_DCBX), 0);
	assert_int_equal(q.speed_gbps, 400);
}

/* The far end of the same link gets the link's speed and cable, and its own overrides. */
static void test_overrides(void **state)
{
	struct fixture *f = *state;
	struct rc_policy p = ref_policy();
	struct port_qos q;
	struct rc_err err = {0};

	assert_int_equal(
	    rc_desired_port(&p, &f->inv, SPINE01, "Ethernet1/1", RC_DEV_SWITCH, 0, &q, &err), 0);
	assert_int_equal(q.ecn[3].kmin_bytes, 1000000);
	assert_int_equal(q.ecn[3].kmax_bytes, 10000000);
	assert_true(q.ecn[3].pmax_pct == 100.0); /* not overridden */
	assert_int_equal(q.cable_length_m, 30);
	assert_int_equal(q.headroom_bytes[3], 122156);
	/* the base policy is not modified by resolving a device */
	assert_int_equal(p.ecn.kmin_bytes, 150000);

	/* an override of the cable default, the headroom size and the MTU */
	f->dev[LEAF01].ov.has_cable_length = true;
	f->dev[LEAF01].ov.cable_length_m = 5;
	assert_int_equal(rc_desired_port(&p, &f->inv, LEAF01, "swp2", RC_DEV_SWITCH, 100, &q, &err),
			 0);
	assert_int_equal(q.cable_length_m, 5);
	assert_int_equal(q.headroom_bytes[3], computed(100, 5));
	/* a link's own length still wins over the device default */
	assert_int_equal(rc_desired_port(&p, &f->inv, LEAF01, "swp1", RC_DEV_SWITCH, 0, &q, &err),
			 0);
	assert_int_equal(q.cable_length_m, 3);
	f->dev[LEAF01].ov.has_headroom_size = true;
	f->dev[LEAF01].ov.headroom_size_bytes = 300000;
	assert_int_equal(rc_desired_port(&p, &f->inv, LEAF01, "swp1", RC_DEV_SWITCH, 0, &q, &err),
			 0);
	assert_int_equal(q.headroom_bytes[3], 300000);
	assert_false(q.headroom_is_min);
	f->dev[LEAF01].ov.has_cable_length = false;
	f->dev[LEAF01].ov.has_headroom_size = false;
}

/* An override that breaks the policy (Kmin above Kmax) is refused, not half applied. */
static void test_bad_override_refused(void **state)
{
	struct fixture *f = *state;
	struct rc_policy p = ref_policy();
	struct port_qos q;
	struct rc_err err = {0};

	f->dev[LEAF01].ov.has_ecn_kmin = true;
	f->dev[LEAF01].ov.ecn_kmin_bytes = 2000000;
	assert_true(rc_desired_port(&p, &f->inv, LEAF01, "swp1", RC_DEV_SWITCH, 0, &q, &err) < 0);
	assert_true(err.msg[0] != '\0');
	f->dev[LEAF01].ov.has_ecn_kmin = false;
}

static void test_cable_default_and_speed(void **state)
{
	struct fixture *f = *state;
	struct rc_policy p = ref_policy();
	struct port_qos q;
	struct rc_err err = {0};

	/* swp2 is on no link: policy default cable 100 m; no speed known -> headroom unpinned */
	assert_int_equal(rc_desired_port(&p, &f->inv, LEAF01, "swp2", RC_DEV_SWITCH, 0, &q, &err),
			 0);
	assert_int_equal(q.cable_length_m, 100);
	assert_true(q.known & RC_F_CABLE);
	assert_false(q.known & RC_F_HEADROOM);
	assert_int_equal(q.headroom_mask, 0);
	/* the port's own speed (read from the device) stands in: 100G x 100 m = 86952 */
	assert_int_equal(rc_desired_port(&p, &f->inv, LEAF01, "swp2", RC_DEV_SWITCH, 100, &q, &err),
			 0);
	assert_true(q.known & RC_F_HEADROOM);
	assert_int_equal(q.headroom_bytes[3], 86952);
	/* swp3's link gives neither speed nor cable: the defaults */
	assert_int_equal(rc_desired_port(&p, &f->inv, LEAF01, "swp3", RC_DEV_SWITCH, 0, &q, &err),
			 0);
	assert_int_equal(q.cable_length_m, 100);
	assert_false(q.known & RC_F_HEADROOM);
	/* the inventory's speed wins over what the port says */
	assert_int_equal(rc_desired_port(&p, &f->inv, LEAF01, "swp1", RC_DEV_SWITCH, 100, &q, &err),
			 0);
	assert_int_equal(q.headroom_bytes[3], computed(400, 3));
	assert_int_equal(q.headroom_bytes[3], 108656);
}

static void test_unsupported_link_speed(void **state)
{
	struct fixture *f = *state;
	struct rc_policy p = ref_policy();
	struct port_qos q;
	struct rc_err err = {0};

	assert_int_equal(rc_desired_port(&p, &f->inv, LEAF01, "swp4", RC_DEV_SWITCH, 0, &q, &err),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "'swp4'"));
	assert_non_null(strstr(err.msg, "unsupported speed 300G"));
	/* a host does not compute headroom, so the speed does not matter there */
	assert_int_equal(rc_desired_port(&p, &f->inv, GPU002, "enp2", RC_DEV_HOST, 0, &q, &err), 0);
}

static void test_host_port(void **state)
{
	struct fixture *f = *state;
	struct rc_policy p = ref_policy();
	struct port_qos q;
	struct rc_err err = {0};

	memset(&q, 0xa5, sizeof(q));
	assert_int_equal(
	    rc_desired_port(&p, &f->inv, GPU001, "enp12s0np0", RC_DEV_HOST, 0, &q, &err), 0);
	/* the reference policy has an ets section: the NIC's scheduler must agree */
	assert_int_equal(q.known, RC_F_TRUST | RC_F_DSCP2PRIO | RC_F_PFC | RC_F_CABLE |
				      RC_F_NIC_ECN | RC_F_CNP | RC_F_ROCE_TOS | RC_F_DCBX |
				      RC_F_ETS | RC_F_PRIO2TC);
	assert_int_equal(q.ets.tc_mask, (1u << 0) | (1u << 3) | (1u << 6));
	assert_int_equal(q.ets.tsa[6], RC_TSA_STRICT);
	assert_int_equal(q.ets.bw_pct[3], 50);
	assert_int_equal(q.prio2tc[3], 3);
	assert_int_equal(q.trust, RC_TRUST_DSCP);
	assert_true(q.dscp_mask == ((1ull << 26) | (1ull << 48)));
	assert_int_equal(q.dscp2prio[26], 3);
	assert_int_equal(q.pfc_enabled, 1u << 3);
	assert_int_equal(q.cable_length_m, 3); /* mlx5 PFC delay = the link's length */
	assert_int_equal(q.nic_ecn_prio_mask, 1u << 3);
	assert_int_equal(q.nic_ecn_np, 1u << 3);
	assert_int_equal(q.nic_ecn_rp, 1u << 3);
	assert_int_equal(q.cnp_dscp, 48);
	assert_int_equal(q.cnp_prio, 6);
	assert_int_equal(q.roce_tos, 106);
	assert_true(q.dcbx_host);
	assert_int_equal(q.headroom_mask, 0);
	assert_int_equal(q.ecn_tc_mask, 0);

	/* without an ets section scheduling is left alone */
	p.n_ets = 0;
	assert_int_equal(
	    rc_desired_port(&p, &f->inv, GPU001, "enp12s0np0", RC_DEV_HOST, 0, &q, &err), 0);
	assert_false(q.known & (RC_F_ETS | RC_F_PRIO2TC));
	p = ref_policy();

	/* explicit headroom: the host gets it too, exact */
	p.headroom.size_bytes = 204800;
	assert_int_equal(
	    rc_desired_port(&p, &f->inv, GPU001, "enp12s0np0", RC_DEV_HOST, 0, &q, &err), 0);
	assert_true(q.known & RC_F_HEADROOM);
	assert_int_equal(q.headroom_mask, 1u << 3);
	assert_int_equal(q.headroom_bytes[3], 204800);
	assert_false(q.headroom_is_min);

	/* notification point only */
	p.ecn.host_rp = false;
	assert_int_equal(
	    rc_desired_port(&p, &f->inv, GPU001, "enp12s0np0", RC_DEV_HOST, 0, &q, &err), 0);
	assert_int_equal(q.nic_ecn_np, 1u << 3);
	assert_int_equal(q.nic_ecn_rp, 0);
}

static void test_pfc_only_policy(void **state)
{
	struct fixture *f = *state;
	struct rc_policy p = pfc_only_policy();
	struct port_qos q;
	struct rc_err err = {0};

	assert_int_equal(rc_desired_port(&p, &f->inv, LEAF01, "swp1", RC_DEV_SWITCH, 0, &q, &err),
			 0);
	/* marking explicitly off on the RoCE class */
	assert_true(q.known & RC_F_ECN);
	assert_int_equal(q.ecn_tc_mask, 1u << 3);
	assert_false(q.ecn[3].enabled);
	assert_int_equal(q.ecn[3].kmin_bytes, 0);
	/* lossless still: PFC and headroom */
	assert_int_equal(q.pfc_enabled, 1u << 3);
	assert_int_equal(q.headroom_bytes[3], 108656);
	/* scheduling and watchdog left alone */
	assert_false(q.known & RC_F_ETS);
	assert_false(q.known & RC_F_WATCHDOG);

	assert_int_equal(
	    rc_desired_port(&p, &f->inv, GPU001, "enp12s0np0", RC_DEV_HOST, 0, &q, &err), 0);
	assert_int_equal(q.nic_ecn_prio_mask, 1u << 3);
	assert_int_equal(q.nic_ecn_np, 0);
	assert_int_equal(q.nic_ecn_rp, 0);
}

static void test_two_lossless_priorities(void **state)
{
	struct fixture *f = *state;
	struct rc_policy p = ref_policy();
	struct port_qos q;
	struct rc_err err = {0};

	p.pfc_priorities = (1u << 3) | (1u << 4);
	assert_int_equal(rc_desired_port(&p, &f->inv, LEAF01, "swp1", RC_DEV_SWITCH, 0, &q, &err),
			 0);
	assert_int_equal(q.pfc_enabled, (1u << 3) | (1u << 4));
	assert_int_equal(q.headroom_mask, (1u << 3) | (1u << 4));
	assert_int_equal(q.headroom_bytes[3], 108656);
	assert_int_equal(q.headroom_bytes[4], 108656);
}

/* The local agent has no inventory: the policy's defaults and the port's own speed. */
static void test_agent_without_inventory(void **state)
{
	struct rc_policy p = ref_policy();
	struct port_qos q;
	struct rc_err err = {0};

	(void)state;
	assert_int_equal(rc_desired_port(&p, NULL, 0, "enp12s0np0", RC_DEV_HOST, 200, &q, &err), 0);
	assert_int_equal(q.cable_length_m, 100);
	assert_int_equal(q.roce_tos, 106);
	assert_int_equal(rc_desired_port(&p, NULL, 0, "swp1", RC_DEV_SWITCH, 200, &q, &err), 0);
	assert_int_equal(q.headroom_bytes[3], computed(200, 100));
}

static void test_pcp_trust_leaves_dscp_map(void **state)
{
	struct rc_policy p = ref_policy();
	struct port_qos q;
	struct rc_err err = {0};

	(void)state;
	p.trust = RC_TRUST_PCP;
	assert_int_equal(rc_desired_port(&p, NULL, 0, "swp1", RC_DEV_SWITCH, 0, &q, &err), 0);
	assert_int_equal(q.trust, RC_TRUST_PCP);
	assert_false(q.known & RC_F_DSCP2PRIO);
	assert_true(q.dscp_mask == 0);
	assert_true(q.known & RC_F_PRIO2TC);
}

static void test_bad_arguments(void **state)
{
	struct fixture *f = *state;
	struct rc_policy p = ref_policy();
	struct port_qos q;
	struct rc_err err = {0};

	assert_int_equal(rc_desired_port(&p, &f->inv, N_DEV, "swp1", RC_DEV_SWITCH, 0, &q, &err),
			 -EINVAL);
	assert_int_equal(rc_desired_port(NULL, &f->inv, 0, "swp1", RC_DEV_SWITCH, 0, &q, &err),
			 -EINVAL);
	p.roce_dscp = 64;
	assert_int_equal(rc_desired_port(&p, NULL, 0, "swp1", RC_DEV_SWITCH, 0, &q, &err), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_switch_port_reference_policy),
	    cmocka_unit_test(test_switch_port_values),
	    cmocka_unit_test(test_overrides),
	    cmocka_unit_test(test_bad_override_refused),
	    cmocka_unit_test(test_cable_default_and_speed),
	    cmocka_unit_test(test_unsupported_link_speed),
	    cmocka_unit_test(test_host_port),
	    cmocka_unit_test(test_pfc_only_policy),
	    cmocka_unit_test(test_two_lossless_priorities),
	    cmocka_unit_test(test_agent_without_inventory),
	    cmocka_unit_test(test_pcp_trust_leaves_dscp_map),
	    cmocka_unit_test(test_bad_arguments),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
