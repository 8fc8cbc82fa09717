/* SPDX-License-Identifier: Apache-2.0 */
/* The pause tree, DCQCN findings and path verdicts of engine/diag/ on synthetic counter
 * samples of a small Clos: gpu1 and gpu2 on leaf1, gpu3 on leaf2, one spine.  Each test
 * sets the deltas a fault would make and checks roles, verdicts and findings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rocectl/diag.h"

static const char inventory[] =
    "apiVersion: rocectl/v1\nkind: Inventory\n"
    "hosts:\n"
    "  - {name: gpu1, transport: local, interfaces: [eth0]}\n"
    "  - {name: gpu2, transport: local, interfaces: [eth0]}\n"
    "  - {name: gpu3, transport: local, interfaces: [eth0]}\n"
    "switches:\n"
    "  - {name: leaf1, platform: nvue, role: leaf, ports: [p1, p2, up]}\n"
    "  - {name: leaf2, platform: nvue, role: leaf, ports: [p1, up]}\n"
    "  - {name: spine, platform: nvue, role: spine, ports: [s1, s2]}\n"
    "links:\n"
    "  - {a: 'gpu1:eth0', b: 'leaf1:p1'}\n"
    "  - {a: 'gpu2:eth0', b: 'leaf1:p2'}\n"
    "  - {a: 'gpu3:eth0', b: 'leaf2:p1'}\n"
    "  - {a: 'leaf1:up', b: 'spine:s1'}\n"
    "  - {a: 'leaf2:up', b: 'spine:s2'}\n";

struct fx {
	struct rc_inventory inv;
	struct rc_counters before[8], after[8];
	struct rc_diag_dev devs[8];
	struct rc_diag_paths paths;
	struct rc_diag d;
	struct rc_err err;
	/* the same window judged by equal-cost class (engine/diag/classes.c) */
	struct rc_diag_fabric fab;
	struct rc_diag dc;
};

static const struct rc_diag_scope scope = {.prio_mask = 1u << 3, .tc_mask = 1u << 3};

static size_t idx(struct fx *f, const char *name)
{
	ptrdiff_t i = rc_inventory_device_index(&f->inv, name);

	assert_true(i >= 0);
	return (size_t)i;
}

/* Set the delta of one counter (both samples get the counter; before is 1000). */
static void set(struct fx *f, const char *dev, const char *port, const char *name, uint64_t delta)
{
	size_t d = idx(f, dev);

	for (size_t i = 0; i < f->after[d].n; i++)
		if (!strcmp(f->after[d].v[i].port, port) && !strcmp(f->after[d].v[i].name, name)) {
			f->after[d].v[i].value = 1000 + delta;
			return;
		}
	assert_int_equal(rc_counters_add(&f->before[d], port, name, "test", 1000, false), 0);
	assert_int_equal(rc_counters_add(&f->after[d], port, name, "test", 1000 + delta, false), 0);
}

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	assert_int_equal(rc_inventory_load_buffer("i.yaml", inventory, strlen(inventory), &f->inv,
						  NULL, &f->err),
			 0);
	assert_true(f->inv.n_devices <= 8);
	/* every port reports pauses; switches marks, hosts CNPs: all zero */
	for (size_t l = 0; l < f->inv.n_links; l++) {
		const struct rc_link_end *e[2] = {&f->inv.links[l].a, &f->inv.links[l].b};

		for (int k = 0; k < 2; k++) {
			const char *dev = f->inv.devices[e[k]->dev].name;
			bool host = f->inv.devices[e[k]->dev].kind == RC_DEV_HOST;

			set(f, dev, e[k]->port, "pfc_pause_tx[3]", 0);
			set(f, dev, e[k]->port, "pfc_pause_rx[3]", 0);
			set(f, dev, e[k]->port, host ? "cnp_sent" : "ecn_marked", 0);
			if (host)
				set(f, dev, e[k]->port, "cnp_handled", 0);
		}
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	rc_diag_fini(&f->d);
	rc_diag_fini(&f->dc);
	rc_diag_fabric_fini(&f->fab);
	rc_diag_paths_fini(&f->paths);
	for (size_t i = 0; i < 8; i++) {
		rc_counters_fini(&f->before[i]);
		rc_counters_fini(&f->after[i]);
		rc_diag_dev_fini(&f->devs[i]);
	}
	rc_inventory_fini(&f->inv);
	free(f);
	return 0;
}

static void analyze(struct fx *f)
{
	size_t hosts[] = {idx(f, "gpu1"), idx(f, "gpu2"), idx(f, "gpu3")};

	for (size_t i = 0; i < f->inv.n_devices; i++)
		assert_int_equal(
		    rc_diag_dev_build(&f->devs[i], &f->before[i], &f->after[i], &scope, &f->err),
		    0);
	assert_int_equal(rc_diag_paths(&f->inv, hosts, 3, false, &f->paths, &f->err), 0);
	assert_int_equal(f->paths.n, 6);
	assert_int_equal(rc_diag_analyze(&f->d, &f->inv, f->devs, 10.0, &f->paths, &f->err), 0);
}

/* By class: leaf1 -> leaf1 (gpu1 <-> gpu2), leaf1 -> leaf2, leaf2 -> leaf1; the classes
 * stand for the same 6 paths, and see the same roots. */
static void analyze_classes(struct fx *f)
{
	bool hosts[8] = {0};

	hosts[idx(f, "gpu1")] = hosts[idx(f, "gpu2")] = hosts[idx(f, "gpu3")] = true;
	assert_int_equal(rc_diag_fabric_build(&f->fab, &f->inv, hosts, &f->err), 0);
	assert_int_equal(f->fab.n_classes, 3);
	assert_int_equal(f->fab.n_paths, 6);
	assert_int_equal(rc_diag_analyze_classes(&f->dc, &f->inv, f->devs, 10.0, &f->fab, &f->err),
			 0);
	assert_int_equal(f->dc.n_roots, f->d.n_roots);
	for (size_t i = 0; i < f->d.n_roots; i++)
		assert_string_equal(f->dc.roots[i], f->d.roots[i]);
}

static const struct rc_diag_class *klass(struct fx *f, const char *from, const char *to)
{
	for (size_t i = 0; i < f->fab.n_classes; i++)
		if (f->fab.classes[i].from == idx(f, from) && f->fab.classes[i].to == idx(f, to))
			return &f->fab.classes[i];
	fail_msg("no class %s -> %s", from, to);
	return NULL;
}

static void class_is(struct fx *f, const char *from, const char *to, enum rc_diag_verdict v,
		     const char *at)
{
	const struct rc_diag_class *c = klass(f, from, to);

	if (c->verdict != v || strcmp(c->at, at))
		fail_msg("class %s -> %s: %s at '%s' (%s), want %s at '%s'", from, to,
			 rc_diag_verdict_name(c->verdict), c->at, c->evidence,
			 rc_diag_verdict_name(v), at);
}

static const struct rc_diag_port_role *port_role(struct fx *f, const char *dev, const char *port)
{
	for (size_t i = 0; i < f->dc.n_ports; i++)
		if (f->dc.ports[i].dev == idx(f, dev) && !strcmp(f->dc.ports[i].port, port))
			return &f->dc.ports[i];
	return NULL;
}

static const struct rc_diag_path *path(struct fx *f, const char *from, const char *to)
{
	for (size_t i = 0; i < f->d.n_paths; i++)
		if (f->d.paths[i].from == idx(f, from) && f->d.paths[i].to == idx(f, to))
			return &f->d.paths[i];
	fail_msg("no path %s -> %s", from, to);
	return NULL;
}

static void roles(const struct rc_diag_path *p, const enum rc_diag_role *want, size_t n)
{
	assert_int_equal(p->p->n, n);
	for (size_t k = 0; k < n; k++)
		if (p->h[k].role != want[k])
			fail_msg("hop %zu: role %s, want %s (%s)", k,
				 rc_diag_role_name(p->h[k].role), rc_diag_role_name(want[k]),
				 p->h[k].why);
}

/* Congestion at leaf2:p1 (towards gpu3): leaf2 pauses its uplink, the spine pauses leaf1,
 * leaf1 pauses its hosts; leaf2:p1 marks, gpu3 sends CNPs, the senders handle them. */
static void congest_leaf2(struct fx *f, bool cnps)
{
	set(f, "leaf2", "p1", "ecn_marked", 5000);
	set(f, "leaf2", "up", "pfc_pause_tx[3]", 400);
	set(f, "spine", "s2", "pfc_pause_rx[3]", 400);
	set(f, "spine", "s1", "pfc_pause_tx[3]", 390);
	set(f, "leaf1", "up", "pfc_pause_rx[3]", 390);
	set(f, "leaf1", "p1", "pfc_pause_tx[3]", 380);
	set(f, "leaf1", "p2", "pfc_pause_tx[3]", 380);
	set(f, "gpu1", "eth0", "pfc_pause_rx[3]", 380);
	set(f, "gpu2", "eth0", "pfc_pause_rx[3]", 380);
	if (cnps) {
		set(f, "gpu3", "eth0", "cnp_sent", 900);
		set(f, "gpu1", "eth0", "cnp_handled", 450);
		set(f, "gpu2", "eth0", "cnp_handled", 450);
	}
}

static void test_clean(void **state)
{
	struct fx *f = *state;

	analyze(f);
	for (size_t i = 0; i < f->d.n_paths; i++) {
		assert_int_equal(f->d.paths[i].verdict, RC_VERDICT_CLEAN);
		for (size_t k = 0; k < f->d.paths[i].p->n; k++)
			assert_int_equal(f->d.paths[i].h[k].role, RC_HOP_CLEAN);
	}
	assert_int_equal(f->d.n_findings, 0);
	assert_int_equal(f->d.n_roots, 0);
	analyze_classes(f);
	for (size_t i = 0; i < f->fab.n_classes; i++)
		assert_int_equal(f->fab.classes[i].verdict, RC_VERDICT_CLEAN);
	assert_int_equal(f->dc.n_ports, 0);
	assert_int_equal(f->dc.n_findings, 0);
}

static void test_congestion_root_and_relays(void **state)
{
	struct fx *f = *state;
	const struct rc_diag_path *p;

	congest_leaf2(f, true);
	analyze(f);
	assert_int_equal(f->d.n_roots, 1);
	assert_string_equal(f->d.roots[0], "leaf2:p1");
	p = path(f, "gpu1", "gpu3");
	roles(p,
	      (const enum rc_diag_role[]){RC_HOP_CLEAN, RC_HOP_RELAY, RC_HOP_RELAY, RC_HOP_ROOT,
					  RC_HOP_CLEAN},
	      5);
	assert_int_equal(p->verdict, RC_VERDICT_CONGESTED);
	assert_string_equal(p->at, "leaf2:p1");
	/* a victim of the tree: paused at leaf1 for another egress */
	p = path(f, "gpu1", "gpu2");
	roles(p, (const enum rc_diag_role[]){RC_HOP_CLEAN, RC_HOP_RELAY, RC_HOP_CLEAN}, 3);
	assert_int_equal(p->verdict, RC_VERDICT_CONGESTED);
	assert_string_equal(p->at, "leaf2:p1");
	/* the other way round nothing pauses */
	assert_int_equal(path(f, "gpu3", "gpu1")->verdict, RC_VERDICT_CLEAN);
	assert_int_equal(f->d.n_findings, 0);
	/* by class: the same places, and the ports that are not clean listed with their role */
	analyze_classes(f);
	class_is(f, "leaf1", "leaf2", RC_VERDICT_CONGESTED, "leaf2:p1");
	class_is(f, "leaf1", "leaf1", RC_VERDICT_CONGESTED, "leaf2:p1");
	class_is(f, "leaf2", "leaf1", RC_VERDICT_CLEAN, "");
	assert_non_null(port_role(f, "leaf2", "p1"));
	assert_int_equal(port_role(f, "leaf2", "p1")->role, RC_HOP_ROOT);
	assert_int_equal(port_role(f, "spine", "s1")->role, RC_HOP_RELAY);
	assert_int_equal(port_role(f, "leaf1", "p2")->role, RC_HOP_RELAY);
	assert_int_equal(f->dc.n_findings, 0);
}

static void test_marks_without_cnps(void **state)
{
	struct fx *f = *state;

	congest_leaf2(f, false);
	analyze(f);
	assert_int_equal(f->d.n_findings, 1);
	assert_int_equal(f->d.findings[0].kind, RC_FIND_MARKS_NO_CNP);
	assert_int_equal(f->d.findings[0].dev, idx(f, "gpu3"));
	assert_string_equal(f->d.findings[0].port, "eth0");
	assert_non_null(strstr(f->d.findings[0].fields, "notification_point"));
	assert_non_null(strstr(f->d.findings[0].message, "leaf2:p1 marked 5000"));
	analyze_classes(f);
	assert_int_equal(f->dc.n_findings, 1);
	assert_int_equal(f->dc.findings[0].kind, RC_FIND_MARKS_NO_CNP);
	assert_int_equal(f->dc.findings[0].dev, idx(f, "gpu3"));
	assert_non_null(strstr(f->dc.findings[0].message, "5000 packets were marked towards gpu3"));
}

static void test_cnps_not_handled(void **state)
{
	struct fx *f = *state;

	congest_leaf2(f, false);
	set(f, "gpu3", "eth0", "cnp_sent", 900);
	analyze(f);
	assert_int_equal(f->d.n_findings, 1);
	assert_int_equal(f->d.findings[0].kind, RC_FIND_CNP_NOT_HANDLED);
	assert_non_null(strstr(f->d.findings[0].fields, "reaction_point"));
}

static void test_pauses_without_marks(void **state)
{
	struct fx *f = *state;
	const struct rc_diag_path *p;

	congest_leaf2(f, true);
	set(f, "leaf2", "p1", "ecn_marked", 0);
	analyze(f);
	assert_int_equal(f->d.n_roots, 1);
	assert_string_equal(f->d.roots[0], "leaf2");
	p = path(f, "gpu1", "gpu3");
	assert_int_equal(p->h[3].role, RC_HOP_ROOT);
	assert_int_equal(p->verdict, RC_VERDICT_CONGESTED);
	assert_int_equal(f->d.n_findings, 1);
	assert_int_equal(f->d.findings[0].kind, RC_FIND_PAUSE_NO_MARKS);
	assert_int_equal(f->d.findings[0].dev, idx(f, "leaf2"));
	assert_non_null(strstr(f->d.findings[0].fields, "kmin"));
}

/* gpu3's NIC pauses its leaf 80% of the window: a storm, and the tree grows from leaf2. */
static void test_storm(void **state)
{
	struct fx *f = *state;
	const struct rc_diag_path *p;

	set(f, "gpu3", "eth0", "pfc_pause_tx[3]", 200000);
	set(f, "gpu3", "eth0", "pfc_pause_tx_duration_us[3]", 8000000);
	set(f, "leaf2", "p1", "pfc_pause_rx[3]", 200000);
	set(f, "leaf2", "up", "pfc_pause_tx[3]", 400);
	set(f, "spine", "s2", "pfc_pause_rx[3]", 400);
	set(f, "spine", "s1", "pfc_pause_tx[3]", 390);
	set(f, "leaf1", "up", "pfc_pause_rx[3]", 390);
	set(f, "leaf1", "p1", "pfc_pause_tx[3]", 380);
	analyze(f);
	p = path(f, "gpu1", "gpu3");
	roles(p,
	      (const enum rc_diag_role[]){RC_HOP_CLEAN, RC_HOP_RELAY, RC_HOP_RELAY, RC_HOP_RELAY,
					  RC_HOP_STORM},
	      5);
	assert_int_equal(p->verdict, RC_VERDICT_HOST_SIDE);
	assert_string_equal(p->at, "gpu3:eth0");
	/* the storming NIC taints its paths the other way too */
	assert_int_equal(path(f, "gpu3", "gpu2")->verdict, RC_VERDICT_HOST_SIDE);
	analyze_classes(f);
	class_is(f, "leaf1", "leaf2", RC_VERDICT_HOST_SIDE, "gpu3:eth0");
	class_is(f, "leaf2", "leaf1", RC_VERDICT_HOST_SIDE, "gpu3:eth0");
	assert_int_equal(port_role(f, "gpu3", "eth0")->role, RC_HOP_STORM);
	rc_diag_fini(&f->dc);
	rc_diag_fabric_fini(&f->fab);
	/* a NIC pausing briefly is not a storm but the root of its own tree */
	set(f, "gpu3", "eth0", "pfc_pause_tx_duration_us[3]", 1000);
	rc_diag_fini(&f->d);
	rc_diag_paths_fini(&f->paths);
	for (size_t i = 0; i < 8; i++)
		rc_diag_dev_fini(&f->devs[i]);
	analyze(f);
	p = path(f, "gpu1", "gpu3");
	assert_int_equal(p->h[4].role, RC_HOP_ROOT);
	assert_int_equal(p->verdict, RC_VERDICT_HOST_SIDE);
}

static void test_lossy_and_host_side(void **state)
{
	struct fx *f = *state;

	set(f, "leaf1", "up", "wred_discards[3]", 12);
	set(f, "leaf1", "up", "wred_discards[1]", 99999); /* a lossy class: not a finding */
	set(f, "gpu2", "eth0", "rdma_out_of_sequence", 3);
	analyze(f);
	assert_int_equal(path(f, "gpu1", "gpu3")->verdict, RC_VERDICT_LOSSY);
	assert_string_equal(path(f, "gpu1", "gpu3")->at, "leaf1:up");
	assert_int_equal(path(f, "gpu1", "gpu2")->verdict, RC_VERDICT_HOST_SIDE);
	assert_string_equal(path(f, "gpu1", "gpu2")->at, "gpu2:eth0");
	assert_int_equal(path(f, "gpu3", "gpu2")->verdict, RC_VERDICT_LOSSY);
	analyze_classes(f);
	class_is(f, "leaf1", "leaf2", RC_VERDICT_LOSSY, "leaf1:up");
	class_is(f, "leaf2", "leaf1", RC_VERDICT_LOSSY, "leaf1:up");
	class_is(f, "leaf1", "leaf1", RC_VERDICT_HOST_SIDE, "gpu2:eth0");
}

/* Deltas: scope, counters reset, counters only in one sample, switched-off counters. */
static void test_deltas(void **state)
{
	struct fx *f = *state;
	struct rc_counters b = {0}, a = {0};
	struct rc_diag_dev dev;
	const struct rc_diag_deltas *x;

	(void)f;
	assert_int_equal(rc_counters_add(&b, "p", "pfc_pause_tx[3]", "s", 10, false), 0);
	assert_int_equal(rc_counters_add(&a, "p", "pfc_pause_tx[3]", "s", 30, false), 0);
	assert_int_equal(rc_counters_add(&b, "p", "pfc_pause_tx[0]", "s", 5, false), 0);
	assert_int_equal(rc_counters_add(&a, "p", "pfc_pause_tx[0]", "s", 500, false), 0);
	/* EOS: per port, no priority */
	assert_int_equal(rc_counters_add(&b, "p", "pfc_pause_rx", "s", 1, false), 0);
	assert_int_equal(rc_counters_add(&a, "p", "pfc_pause_rx", "s", 4, false), 0);
	/* cleared between the samples */
	assert_int_equal(rc_counters_add(&b, "p", "ecn_marked", "s", 900, false), 0);
	assert_int_equal(rc_counters_add(&a, "p", "ecn_marked", "s", 7, false), 0);
	/* only in the second sample */
	assert_int_equal(rc_counters_add(&a, "p", "cnp_sent", "s", 70, false), 0);
	assert_int_equal(rc_counters_add_disabled(&b, "p", "cnp_handled", "s"), 0);
	assert_int_equal(rc_counters_add_disabled(&a, "p", "cnp_handled", "s"), 0);
	/* an unclassified drop counter is a discard */
	assert_int_equal(rc_counters_add(&b, "q", "tx_errors", "s", 0, true), 0);
	assert_int_equal(rc_counters_add(&a, "q", "tx_errors", "s", 2, true), 0);
	assert_int_equal(rc_diag_dev_build(&dev, &b, &a, &scope, &f->err), 0);
	x = rc_diag_dev_port(&dev, "p");
	assert_non_null(x);
	assert_int_equal(x->pause_tx, 20);
	assert_int_equal(x->pause_rx, 3);
	assert_int_equal(x->ecn_marked, 7);
	assert_true(x->reset);
	assert_int_equal(x->cnp_sent, 0);
	assert_false(x->have & RC_DH_CNP_SENT);
	assert_false(x->have & RC_DH_CNP_HANDLED);
	assert_true(x->have & RC_DH_PAUSE_TX);
	x = rc_diag_dev_port(&dev, "q");
	assert_non_null(x);
	assert_int_equal(x->discards, 2);
	assert_null(rc_diag_dev_port(&dev, "r"));
	rc_diag_dev_fini(&dev);
	rc_counters_fini(&a);
	rc_counters_fini(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_clean, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_congestion_root_and_relays, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_marks_without_cnps, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_cnps_not_handled, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_pauses_without_marks, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_storm, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_lossy_and_host_side, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_deltas, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
