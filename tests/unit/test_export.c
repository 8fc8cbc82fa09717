/* SPDX-License-Identifier: Apache-2.0 */
/* rc_export_derive (engine/plan/export.c): the policy a fabric already follows.  Ports are
 * built by hand as drivers report them; the exported YAML must load as a policy with the
 * majority's values, a switch that differs where the inventory can say so gets an
 * override, and what cannot be exported (no PFC anywhere) is refused with the reason. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rocectl/export.h"

static const char inventory[] = "apiVersion: rocectl/v1\nkind: Inventory\n"
				"hosts:\n"
				"  - {name: gpu1, transport: local, interfaces: [eth0]}\n"
				"  - {name: gpu2, transport: local, interfaces: [eth0]}\n"
				"switches:\n"
				"  - {name: leaf1, platform: nvue, role: leaf, ports: [p1, p2]}\n"
				"  - {name: leaf2, platform: nvue, role: leaf, ports: [p1, p2]}\n"
				"  - {name: spine, platform: eos, role: spine, ports: [s1, s2]}\n"
				"links:\n"
				"  - {a: 'gpu1:eth0', b: 'leaf1:p1', cable_length: 3m}\n"
				"  - {a: 'gpu2:eth0', b: 'leaf2:p1', cable_length: 3m}\n"
				"  - {a: 'leaf1:p2', b: 'spine:s1'}\n"
				"  - {a: 'leaf2:p2', b: 'spine:s2'}\n";

struct fx {
	struct rc_inventory inv;
	struct rc_port_state ports[5][2];
	struct rc_export_dev devs[5];
	struct rc_err err;
};

/* A switch port with the factory DSCP map (dscp >> 3), lossless priority 3, ECN on class 3
 * from 100 KiB to 1 MiB at 50 %, a 100 ms watchdog, 40 m cables. */
static void switch_port(struct rc_port_state *p, const char *name)
{
	struct port_qos *q = &p->qos;

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	q->known = RC_F_TRUST | RC_F_DSCP2PRIO | RC_F_PFC | RC_F_ECN | RC_F_PRIO2TC |
		   RC_F_WATCHDOG | RC_F_CABLE;
	q->trust = RC_TRUST_DSCP;
	for (int d = 0; d < RC_NDSCP; d++) {
		q->dscp_mask |= 1ull << d;
		q->dscp2prio[d] = (uint8_t)(d >> 3);
	}
	q->prio_mask = 0xff;
	for (int p2 = 0; p2 < RC_NPRIO; p2++)
		q->prio2tc[p2] = (uint8_t)p2;
	q->pfc_enabled = 1u << 3;
	q->ecn_tc_mask = 1u << 3;
	q->ecn[3] = (struct rc_ecn_tc){true, 102400, 1048576, 50};
	q->watchdog =
	    (struct rc_watchdog){.enabled = true, .detection_ms = 100, .restoration_ms = 200};
	q->cable_length_m = 40;
}

/* A host port as the mlx5 driver reports it: CNPs on 48 -> 6, ToS of DSCP 26. */
static void host_port(struct rc_port_state *p)
{
	struct port_qos *q = &p->qos;

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "eth0");
	q->known = RC_F_TRUST | RC_F_DSCP2PRIO | RC_F_PFC | RC_F_CNP | RC_F_ROCE_TOS |
		   RC_F_NIC_ECN | RC_F_CABLE;
	q->trust = RC_TRUST_DSCP;
	q->dscp_mask = 1ull << 26 | 1ull << 48;
	q->dscp2prio[26] = 3;
	q->dscp2prio[48] = 6;
	q->pfc_enabled = 1u << 3;
	q->cnp_dscp = 48;
	q->cnp_prio = 6;
	q->roce_tos = 106;
	q->nic_ecn_prio_mask = 1u << 3;
	q->nic_ecn_np = 1u << 3;
	q->nic_ecn_rp = 0;
	q->cable_length_m = 3; /* from the link: not the policy's to say */
}

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	assert_int_equal(rc_inventory_load_buffer("i.yaml", inventory, strlen(inventory), &f->inv,
						  NULL, &f->err),
			 0);
	for (size_t i = 0; i < f->inv.n_devices; i++) {
		const struct rc_device *d = &f->inv.devices[i];

		if (d->kind == RC_DEV_HOST) {
			host_port(&f->ports[i][0]);
			f->devs[i] = (struct rc_export_dev){i, f->ports[i], 1};
		} else {
			switch_port(&f->ports[i][0], d->name[0] == 's' ? "s1" : "p1");
			switch_port(&f->ports[i][1], d->name[0] == 's' ? "s2" : "p2");
			f->devs[i] = (struct rc_export_dev){i, f->ports[i], 2};
		}
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	rc_inventory_fini(&f->inv);
	free(f);
	return 0;
}

static size_t dev(const struct fx *f, const char *name)
{
	for (size_t i = 0; i < f->inv.n_devices; i++)
		if (!strcmp(f->inv.devices[i].name, name))
			return i;
	fail_msg("no device %s", name);
	return 0;
}

static void test_majority_policy_loads(void **state)
{
	struct fx *f = *state;
	struct rc_export e;
	struct rc_policy pol;

	/* one port of leaf2 has PFC on 3 and 4: outvoted */
	f->ports[dev(f, "leaf2")][1].qos.pfc_enabled = 0x18;
	assert_int_equal(rc_export_derive(&f->inv, f->devs, f->inv.n_devices, "brown", &e, &f->err),
			 0);
	assert_int_equal(rc_policy_load_buffer("x", e.yaml, strlen(e.yaml), &pol, NULL, &f->err),
			 0);
	assert_string_equal(pol.name, "brown");
	assert_int_equal(pol.trust, RC_TRUST_DSCP);
	assert_int_equal(pol.pfc_priorities, 1u << 3);
	assert_int_equal(pol.roce_dscp, 26); /* the hosts' ToS says so */
	assert_int_equal(pol.roce_priority, 3);
	assert_int_equal(pol.cnp_dscp, 48);
	assert_int_equal(pol.cnp_priority, 6);
	assert_true(pol.ecn.enabled);
	assert_int_equal(pol.ecn.traffic_class, 3);
	assert_int_equal(pol.ecn.kmin_bytes, 102400);
	assert_int_equal(pol.ecn.kmax_bytes, 1048576);
	assert_true(pol.ecn.pmax_pct > 49.99 && pol.ecn.pmax_pct < 50.01);
	assert_true(pol.ecn.host_np);
	assert_false(pol.ecn.host_rp);
	assert_true(pol.watchdog_present);
	assert_int_equal(pol.watchdog.detection_ms, 100);
	assert_int_equal(pol.headroom.cable_length_m, 40); /* hosts' 3 m come from their links */
	assert_true(pol.roce_tos_auto);
	assert_int_equal(e.n_ov, 0);
	rc_export_fini(&e);
}

static void test_switch_of_its_own_gets_override(void **state)
{
	struct fx *f = *state;
	size_t s = dev(f, "spine");
	struct rc_export e;
	char *ov;

	for (int k = 0; k < 2; k++) {
		f->ports[s][k].qos.ecn[3].kmin_bytes = 1000000;
		f->ports[s][k].qos.ecn[3].kmax_bytes = 10000000;
		f->ports[s][k].qos.cable_length_m = 300;
	}
	assert_int_equal(rc_export_derive(&f->inv, f->devs, f->inv.n_devices, "x", &e, &f->err), 0);
	assert_int_equal(e.n_ov, 1);
	assert_true(e.ov[s].has_ecn_kmin && e.ov[s].has_ecn_kmax && e.ov[s].has_cable_length);
	assert_false(e.ov[s].has_ecn_pmax || e.ov[s].has_ecn_enabled);
	ov = rc_export_overrides_yaml(&f->inv, &e);
	assert_non_null(ov);
	assert_string_equal(ov, "switches:\n"
				"  - name: spine\n"
				"    overrides:\n"
				"      ecn: {min_threshold: 1000000B, max_threshold: 10000000B}\n"
				"      headroom: {cable_length: 300m}\n");
	free(ov);
	rc_export_fini(&e);
}

static void test_no_lossless_priority_refused(void **state)
{
	struct fx *f = *state;
	struct rc_export e;

	for (size_t i = 0; i < f->inv.n_devices; i++)
		for (size_t k = 0; k < f->devs[i].n_ports; k++)
			f->ports[i][k].qos.pfc_enabled = 0;
	assert_int_equal(rc_export_derive(&f->inv, f->devs, f->inv.n_devices, "x", &e, &f->err),
			 -EINVAL);
	assert_non_null(strstr(f->err.msg, "not lossless yet"));
	assert_null(e.yaml);
}

static void test_switch_only_fabric_notes_assumptions(void **state)
{
	struct fx *f = *state;
	struct rc_export e;
	struct rc_policy pol;
	struct rc_export_dev sw[3];
	size_t n = 0;

	for (size_t i = 0; i < f->inv.n_devices; i++)
		if (f->inv.devices[i].kind == RC_DEV_SWITCH)
			sw[n++] = f->devs[i];
	/* without hosts the RoCE DSCP is the one the map sends to a lossless priority (26 of
	 * 24-31) and the CNP DSCP an assumption said in a note */
	assert_int_equal(rc_export_derive(&f->inv, sw, n, "x", &e, &f->err), 0);
	assert_int_equal(rc_policy_load_buffer("x", e.yaml, strlen(e.yaml), &pol, NULL, &f->err),
			 0);
	assert_int_equal(pol.roce_dscp, 26);
	assert_int_equal(pol.roce_priority, 3);
	assert_int_equal(pol.cnp_dscp, 48);
	assert_int_equal(pol.cnp_priority, 6);
	assert_non_null(strstr(e.notes, "cnp.dscp 48 assumed"));
	rc_export_fini(&e);
}

/* Hosts that never set their RDMA ToS (0, the kernel's default) but carry DSCP 26 on
 * priority 3 through APP entries of their own: RoCE's DSCP is 26, not 0 (a policy with 0
 * would make best-effort traffic lossless), and the hosts are named with their ToS. */
static void test_default_tos_does_not_decide(void **state)
{
	struct fx *f = *state;
	struct rc_export e;
	struct rc_policy pol;

	for (size_t i = 0; i < f->inv.n_devices; i++)
		if (f->inv.devices[i].kind == RC_DEV_HOST) {
			struct port_qos *q = &f->ports[i][0].qos;

			q->roce_tos = 0;
			q->dscp_entries_known = true;
			q->dscp_entries = 1ull << 26;
		}
	assert_int_equal(rc_export_derive(&f->inv, f->devs, f->inv.n_devices, "x", &e, &f->err), 0);
	assert_int_equal(rc_policy_load_buffer("x", e.yaml, strlen(e.yaml), &pol, NULL, &f->err),
			 0);
	assert_int_equal(pol.roce_dscp, 26);
	assert_int_equal(pol.roce_priority, 3);
	assert_true(pol.roce_tos_auto);
	assert_non_null(strstr(e.notes, "hosts' own DSCP entries"));
	assert_non_null(strstr(e.notes,
			       "# disagree: host.roce_tos 106 (DSCP 26) exported (auto, "
			       "from roce.dscp); gpu1 has 0 (DSCP 0); gpu2 has 0 (DSCP 0)"));
	rc_export_fini(&e);
	/* nothing maps a DSCP to a lossless priority (no map read anywhere): still not 0 */
	for (size_t i = 0; i < f->inv.n_devices; i++)
		for (size_t k = 0; k < f->devs[i].n_ports; k++)
			f->ports[i][k].qos.known &= ~(uint32_t)RC_F_DSCP2PRIO;
	assert_int_equal(rc_export_derive(&f->inv, f->devs, f->inv.n_devices, "x", &e, &f->err), 0);
	assert_non_null(strstr(e.yaml, "roce: {dscp: 26, priority: 3}"));
	rc_export_fini(&e);
}

/* A switch whose PFC priorities differ from the rest is named with its own. */
static void test_dissenting_switch_named(void **state)
{
	struct fx *f = *state;
	size_t s = dev(f, "spine");
	struct rc_export e;

	f->ports[s][0].qos.pfc_enabled = 0x18;
	f->ports[s][1].qos.pfc_enabled = 0x18;
	assert_int_equal(rc_export_derive(&f->inv, f->devs, f->inv.n_devices, "x", &e, &f->err), 0);
	assert_non_null(strstr(e.yaml, "priorities: [3]"));
	assert_non_null(strstr(e.notes, "# disagree: pfc.priorities [3] exported (most ports); "
					"spine has [3,4]"));
	rc_export_fini(&e);
}

/* ETS: over the classes in use; a factory NIC's "vendor" classes outside them do not count,
 * and without a majority for one scheduler there is no ets section. */
static void ets(struct port_qos *q, uint8_t tsa_other)
{
	q->known |= RC_F_ETS;
	q->ets.tc_mask = 0xff;
	for (int tc = 0; tc < RC_NTC; tc++)
		q->ets.tsa[tc] = tsa_other;
	q->ets.tsa[0] = q->ets.tsa[3] = RC_TSA_DWRR;
	q->ets.bw_pct[0] = q->ets.bw_pct[3] = 50;
	q->ets.tsa[6] = RC_TSA_STRICT;
	for (int p = 0; p < RC_NPRIO; p++)
		q->prio2tc[p] = p == 3 ? 3 : p == 6 ? 6 : 0;
	q->prio_mask = 0xff;
}

static void test_ets_over_classes_in_use(void **state)
{
	struct fx *f = *state;
	struct rc_export e;

	for (size_t i = 0; i < f->inv.n_devices; i++)
		for (size_t k = 0; k < f->devs[i].n_ports; k++)
			ets(&f->ports[i][k].qos,
			    f->inv.devices[i].kind == RC_DEV_HOST ? RC_TSA_VENDOR : RC_TSA_STRICT);
	assert_int_equal(rc_export_derive(&f->inv, f->devs, f->inv.n_devices, "x", &e, &f->err), 0);
	assert_non_null(strstr(e.yaml, "ets:\n  - {traffic_class: 0, mode: dwrr, bandwidth: 50%}\n"
				       "  - {traffic_class: 3, mode: dwrr, bandwidth: 50%}\n"
				       "  - {traffic_class: 6, mode: strict}\n"));
	rc_export_fini(&e);
	/* most ports strict everywhere (EOS's factory queues): scheduling left alone */
	for (size_t i = 0; i < f->inv.n_devices; i++)
		for (size_t k = 0; f->inv.devices[i].kind == RC_DEV_SWITCH && k < 2; k++)
			f->ports[i][k].qos.ets.tsa[0] = f->ports[i][k].qos.ets.tsa[3] =
			    RC_TSA_STRICT;
	assert_int_equal(rc_export_derive(&f->inv, f->devs, f->inv.n_devices, "x", &e, &f->err), 0);
	assert_null(strstr(e.yaml, "ets:"));
	assert_non_null(strstr(e.notes, "no ets section"));
	rc_export_fini(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_majority_policy_loads, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_switch_of_its_own_gets_override, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_no_lossless_priority_refused, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_switch_only_fabric_notes_assumptions, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_default_tos_does_not_decide, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_dissenting_switch_named, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_ets_over_classes_in_use, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
