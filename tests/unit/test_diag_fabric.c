/* SPDX-License-Identifier: Apache-2.0 */
/* Whole-fabric diagnose by equal-cost class (engine/diag/fabric.c, classes.c) on generated
 * Clos fabrics: the classes stand for exactly the paths the per-path enumeration lists,
 * and on 2,176 devices (2,048 hosts, 64 leaves, 64 spines: 2^27 paths, far past what can
 * be listed) an injected congestion is found at its root, every class into it blames it,
 * and the rest of the fabric stays clean. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rocectl/diag.h"

struct gen {
	char *buf;
	size_t len, cap;
};

static void put(struct gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct gen *g, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(g->buf + g->len, g->cap - g->len, fmt, ap);
		va_end(ap);
		assert_true(n >= 0);
		if (g->len + (size_t)n < g->cap)
			break;
		g->cap = g->cap ? g->cap * 2 : 1 << 16;
		g->buf = realloc(g->buf, g->cap);
		assert_non_null(g->buf);
	}
	g->len += (size_t)n;
}

/* hosts per leaf (each with `nics` NICs on its leaf), leaves, spines; every leaf on every
 * spine.  Leaf ports: swp1.. to the NICs, then one uplink per spine. */
static void inventory(struct rc_inventory *inv, unsigned per_leaf, unsigned nics, unsigned leaves,
		      unsigned spines)
{
	struct gen g = {0};
	struct rc_err err = {0};
	unsigned down = per_leaf * nics;

	put(&g, "apiVersion: rocectl/v1\nkind: Inventory\nhosts:\n");
	for (unsigned h = 0; h < per_leaf * leaves; h++) {
		put(&g, "  - {name: gpu%04u, transport: local, interfaces: [", h + 1);
		for (unsigned n = 0; n < nics; n++)
			put(&g, "%seth%u", n ? ", " : "", n);
		put(&g, "]}\n");
	}
	put(&g, "switches:\n");
	for (unsigned l = 0; l < leaves; l++) {
		put(&g, "  - {name: leaf%02u, platform: nvue, role: leaf, ports: [", l + 1);
		for (unsigned p = 0; p < down + spines; p++)
			put(&g, "%sswp%u", p ? ", " : "", p + 1);
		put(&g, "]}\n");
	}
	for (unsigned s = 0; s < spines; s++) {
		put(&g, "  - {name: spine%02u, platform: nvue, role: spine, ports: [", s + 1);
		for (unsigned p = 0; p < leaves; p++)
			put(&g, "%sswp%u", p ? ", " : "", p + 1);
		put(&g, "]}\n");
	}
	put(&g, "links:\n");
	for (unsigned h = 0; h < per_leaf * leaves; h++)
		for (unsigned n = 0; n < nics; n++)
			put(&g, "  - {a: 'gpu%04u:eth%u', b: 'leaf%02u:swp%u'}\n", h + 1, n,
			    h / per_leaf + 1, (h % per_leaf) * nics + n + 1);
	for (unsigned l = 0; l < leaves; l++)
		for (unsigned s = 0; s < spines; s++)
			put(&g, "  - {a: 'leaf%02u:swp%u', b: 'spine%02u:swp%u'}\n", l + 1,
			    down + s + 1, s + 1, l + 1);
	if (rc_inventory_load_buffer("gen.yaml", g.buf, g.len, inv, NULL, &err))
		fail_msg("generated inventory: %s", err.msg);
	free(g.buf);
}

static size_t idx(const struct rc_inventory *inv, const char *name)
{
	ptrdiff_t i = rc_inventory_device_index(inv, name);

	assert_true(i >= 0);
	return (size_t)i;
}

static bool *every_host(const struct rc_inventory *inv)
{
	bool *h = calloc(inv->n_devices, sizeof(*h));

	assert_non_null(h);
	for (size_t i = 0; i < inv->n_devices; i++)
		h[i] = inv->devices[i].kind == RC_DEV_HOST;
	return h;
}

/* The classes stand for exactly the paths rc_diag_paths lists: pairs of NIC ports on
 * different hosts, times the spines both leaves reach. */
static void test_classes_count_the_paths(void **state)
{
	struct rc_inventory inv;
	struct rc_diag_fabric fab;
	struct rc_diag_paths paths;
	struct rc_err err = {0};
	size_t *hosts, n = 0;
	bool *chosen;

	(void)state;
	inventory(&inv, 3, 2, 3, 2);
	chosen = every_host(&inv);
	hosts = calloc(inv.n_devices, sizeof(*hosts));
	assert_non_null(hosts);
	for (size_t i = 0; i < inv.n_devices; i++)
		if (chosen[i])
			hosts[n++] = i;
	assert_int_equal(rc_diag_fabric_build(&fab, &inv, chosen, &err), 0);
	assert_int_equal(rc_diag_paths(&inv, hosts, n, false, &paths, &err), 0);
	assert_int_equal(fab.n_paths, paths.n);
	assert_int_equal(fab.n_classes, 9);
	/* a host left out: its NICs are no one's ends any more */
	rc_diag_fabric_fini(&fab);
	rc_diag_paths_fini(&paths);
	chosen[hosts[0]] = false;
	assert_int_equal(rc_diag_fabric_build(&fab, &inv, chosen, &err), 0);
	assert_int_equal(rc_diag_paths(&inv, hosts + 1, n - 1, false, &paths, &err), 0);
	assert_int_equal(fab.n_paths, paths.n);
	rc_diag_fabric_fini(&fab);
	rc_diag_paths_fini(&paths);
	free(hosts);
	free(chosen);
	rc_inventory_fini(&inv);
}

/* Every port of every device sampled, all deltas 0 (pauses, marks, CNPs reported). */
static struct rc_diag_dev *quiet(const struct rc_inventory *inv)
{
	struct rc_diag_dev *devs = calloc(inv->n_devices, sizeof(*devs));

	assert_non_null(devs);
	for (size_t l = 0; l < inv->n_links; l++) {
		const struct rc_link_end *e[2] = {&inv->links[l].a, &inv->links[l].b};

		for (int k = 0; k < 2; k++) {
			struct rc_diag_dev *d = &devs[e[k]->dev];
			bool host = inv->devices[e[k]->dev].kind == RC_DEV_HOST;

			d->v = realloc(d->v, (d->n + 1) * sizeof(*d->v));
			assert_non_null(d->v);
			memset(&d->v[d->n], 0, sizeof(d->v[d->n]));
			snprintf(d->v[d->n].name, sizeof(d->v[d->n].name), "%s", e[k]->port);
			d->v[d->n].d.have = RC_DH_PAUSE_TX | RC_DH_PAUSE_RX |
					    (host ? RC_DH_CNP_SENT | RC_DH_CNP_HANDLED
						  : RC_DH_ECN_MARKED | RC_DH_DISCARDS);
			d->n++;
			d->sampled = true;
		}
	}
	return devs;
}

static struct rc_diag_deltas *at(const struct rc_inventory *inv, struct rc_diag_dev *devs,
				 const char *dev, const char *port)
{
	struct rc_diag_dev *d = &devs[idx(inv, dev)];

	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->v[i].name, port))
			return &d->v[i].d;
	fail_msg("no port %s:%s", dev, port);
	return NULL;
}

/* Incast on leaf07:swp3 (towards gpu0195): it marks and is not paused; leaf07 pauses every
 * spine, every spine pauses every other leaf, and the leaves pause their hosts. */
static void incast(const struct rc_inventory *inv, struct rc_diag_dev *devs)
{
	char sw[16], port[16];

	at(inv, devs, "leaf07", "swp3")->ecn_marked = 90000;
	for (unsigned s = 1; s <= 64; s++) {
		snprintf(port, sizeof(port), "swp%u", 32 + s);
		at(inv, devs, "leaf07", port)->pause_tx = 700;
		snprintf(sw, sizeof(sw), "spine%02u", s);
		at(inv, devs, sw, "swp7")->pause_rx = 700;
		for (unsigned l = 1; l <= 64; l++) {
			if (l == 7)
				continue;
			snprintf(port, sizeof(port), "swp%u", l);
			at(inv, devs, sw, port)->pause_tx = 300;
		}
	}
	for (unsigned l = 1; l <= 64; l++) {
		snprintf(sw, sizeof(sw), "leaf%02u", l);
		for (unsigned p = 1; l != 7 && p <= 32; p++) {
			snprintf(port, sizeof(port), "swp%u", p);
			at(inv, devs, sw, port)->pause_tx = 200;
		}
		for (unsigned s = 1; l != 7 && s <= 64; s++) {
			snprintf(port, sizeof(port), "swp%u", 32 + s);
			at(inv, devs, sw, port)->pause_rx = 300;
		}
	}
	at(inv, devs, "gpu0195", "eth0")->cnp_sent = 4000;
	for (unsigned h = 1; h <= 2048; h += 97) {
		snprintf(sw, sizeof(sw), "gpu%04u", h);
		at(inv, devs, sw, "eth0")->cnp_handled = 10;
	}
}

/* The whole fabric's text fits a screen: the root port on its own line, the relaying ports
 * one line per role; with details (-v) and in JSON every port is listed. */
static void assert_text_fits(const struct rc_diag *d)
{
	char *buf = NULL;
	size_t len = 0, lines = 0, relays = 0;
	FILE *f = open_memstream(&buf, &len);
	struct rc_out o;

	assert_non_null(f);
	rc_out_init(&o, f, RC_OUT_TEXT);
	rc_diag_print(&o, d);
	assert_int_equal(fclose(f), 0);
	for (const char *p = buf; *p; p++)
		lines += *p == '\n';
	for (size_t i = 0; i < d->n_ports; i++)
		relays += d->ports[i].role == RC_HOP_RELAY;
	assert_true(relays > 100);
	assert_true(lines <= 20);
	assert_non_null(strstr(buf, "  leaf07     swp3         root "));
	assert_non_null(strstr(buf, "  relay  "));
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	rc_out_init(&o, f, RC_OUT_TEXT);
	o.details = true;
	rc_diag_print(&o, d);
	assert_int_equal(fclose(f), 0);
	lines = 0;
	for (const char *p = buf; *p; p++)
		lines += *p == '\n';
	assert_true(lines > relays);
	free(buf);
}

static void test_whole_fabric_2176_devices(void **state)
{
	struct rc_inventory inv;
	struct rc_diag_fabric fab;
	struct rc_diag d;
	struct rc_err err = {0};
	struct rc_diag_dev *devs;
	bool *chosen;
	size_t into = 0, clean = 0;

	(void)state;
	inventory(&inv, 32, 1, 64, 64);
	assert_int_equal(inv.n_devices, 2176);
	chosen = every_host(&inv);
	assert_int_equal(rc_diag_fabric_build(&fab, &inv, chosen, &err), 0);
	assert_int_equal(fab.n_classes, 64 * 64);
	/* 2048 NICs: 2048 * 2047 pairs, 64 spines between different leaves, 1 on one leaf */
	assert_int_equal(fab.n_paths, (size_t)2048 * 31 + (size_t)2048 * (2048 - 32) * 64);
	assert_true(fab.n_paths > RC_DIAG_MAX_PATHS);

	devs = quiet(&inv);
	assert_int_equal(rc_diag_analyze_classes(&d, &inv, devs, 10.0, &fab, &err), 0);
	for (size_t i = 0; i < fab.n_classes; i++)
		assert_int_equal(fab.classes[i].verdict, RC_VERDICT_CLEAN);
	assert_int_equal(d.n_ports, 0);
	rc_diag_fini(&d);

	incast(&inv, devs);
	assert_int_equal(rc_diag_analyze_classes(&d, &inv, devs, 10.0, &fab, &err), 0);
	assert_int_equal(d.n_roots, 1);
	assert_string_equal(d.roots[0], "leaf07:swp3");
	for (size_t i = 0; i < fab.n_classes; i++) {
		const struct rc_diag_class *c = &fab.classes[i];

		if (c->to == idx(&inv, "leaf07")) {
			into++;
			if (c->from != c->to)
				assert_string_equal(c->at, "leaf07:swp3");
		}
		/* the rest is paused by the tree, and says where it is rooted */
		if (c->verdict == RC_VERDICT_CONGESTED)
			assert_string_equal(c->at, "leaf07:swp3");
		clean += c->verdict == RC_VERDICT_CLEAN;
	}
	assert_int_equal(into, 64);
	/* leaf07's own hosts are not paused: what leaves leaf07 for other leaves is clean */
	assert_int_equal(clean, 63);
	for (size_t i = 0; i < d.n_ports; i++)
		if (d.ports[i].role == RC_HOP_ROOT)
			assert_string_equal(d.ports[i].port, "swp3");
	assert_int_equal(d.n_findings, 0);
	assert_text_fits(&d);
	rc_diag_fini(&d);

	for (size_t i = 0; i < inv.n_devices; i++)
		rc_diag_dev_fini(&devs[i]);
	free(devs);
	free(chosen);
	rc_diag_fabric_fini(&fab);
	rc_inventory_fini(&inv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_classes_count_the_paths),
	    cmocka_unit_test(test_whole_fabric_2176_devices),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
