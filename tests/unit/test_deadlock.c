/* SPDX-License-Identifier: Apache-2.0 */
/* PFC deadlock risk of a topology (engine/diag/deadlock.c): links that break up-down and
 * cycles of the buffer dependency graph, on small inventories. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rocectl/deadlock.h"

#define HEAD "apiVersion: rocectl/v1\nkind: Inventory\n"

struct fx {
	struct rc_inventory inv;
	struct rc_deadlock dl;
	struct rc_err err;
};

static int setup(void **state)
{
	*state = calloc(1, sizeof(struct fx));
	return *state ? 0 : -1;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	rc_deadlock_fini(&f->dl);
	rc_inventory_fini(&f->inv);
	free(f);
	return 0;
}

static void load(struct fx *f, const char *text)
{
	if (rc_inventory_load_buffer("i.yaml", text, strlen(text), &f->inv, NULL, &f->err))
		fail_msg("%s", f->err.msg);
	assert_int_equal(rc_deadlock_analyze(&f->dl, &f->inv, &f->err), 0);
}

static size_t link_of(struct fx *f, const char *a, const char *b)
{
	for (size_t l = 0; l < f->inv.n_links; l++) {
		char x[160], y[160];
		const struct rc_link *k = &f->inv.links[l];

		snprintf(x, sizeof(x), "%s:%s", f->inv.devices[k->a.dev].name, k->a.port);
		snprintf(y, sizeof(y), "%s:%s", f->inv.devices[k->b.dev].name, k->b.port);
		if (!strcmp(x, a) && !strcmp(y, b))
			return l;
	}
	fail_msg("no link %s -- %s", a, b);
	return 0;
}

static size_t from(const struct rc_inventory *inv, size_t node)
{
	return node % 2 ? inv->links[node / 2].b.dev : inv->links[node / 2].a.dev;
}

static size_t to(const struct rc_inventory *inv, size_t node)
{
	return node % 2 ? inv->links[node / 2].a.dev : inv->links[node / 2].b.dev;
}

/* A cycle is a closed walk: each queue feeds the next one's switch. */
static void closed(const struct rc_inventory *inv, const struct rc_dl_cycle *c)
{
	assert_true(c->n >= 2);
	assert_false(c->truncated);
	for (size_t i = 0; i < c->n; i++)
		assert_int_equal(to(inv, c->node[i]), from(inv, c->node[(i + 1) % c->n]));
}

#define CLOS                                                                                       \
	HEAD "hosts:\n"                                                                            \
	     "  - {name: h1, transport: local, interfaces: [e0, e1]}\n"                            \
	     "  - {name: h2, transport: local, interfaces: [e0, e1]}\n"                            \
	     "switches:\n"                                                                         \
	     "  - {name: leaf1, platform: nvue, role: leaf, ports: [p1, p2, u1, u2, x]}\n"         \
	     "  - {name: leaf2, platform: nvue, role: leaf, ports: [p1, p2, u1, u2, x]}\n"         \
	     "  - {name: spine1, platform: nvue, role: spine, ports: [d1, d2]}\n"                  \
	     "  - {name: spine2, platform: nvue, role: spine, ports: [d1, d2]}\n"                  \
	     "links:\n"                                                                            \
	     "  - {a: 'h1:e0', b: 'leaf1:p1'}\n"                                                   \
	     "  - {a: 'h1:e1', b: 'leaf2:p1'}\n"                                                   \
	     "  - {a: 'h2:e0', b: 'leaf2:p2'}\n"                                                   \
	     "  - {a: 'h2:e1', b: 'leaf1:p2'}\n"                                                   \
	     "  - {a: 'leaf1:u1', b: 'spine1:d1'}\n"                                               \
	     "  - {a: 'leaf1:u2', b: 'spine2:d1'}\n"                                               \
	     "  - {a: 'leaf2:u1', b: 'spine1:d2'}\n"                                               \
	     "  - {a: 'leaf2:u2', b: 'spine2:d2'}\n"

static void test_clos_is_free(void **state)
{
	struct fx *f = *state;

	load(f, CLOS);
	assert_false(f->dl.prone);
	assert_int_equal(f->dl.n_lateral, 0);
	assert_int_equal(f->dl.n_cyclic_components, 0);
	for (size_t l = 0; l < f->inv.n_links; l++)
		assert_false(f->dl.prone_link[l]);
}

static void test_leaf_leaf_link(void **state)
{
	struct fx *f = *state;
	size_t l;

	load(f, CLOS "  - {a: 'leaf1:x', b: 'leaf2:x'}\n");
	assert_true(f->dl.prone);
	assert_int_equal(f->dl.n_lateral, 1);
	l = link_of(f, "leaf1:x", "leaf2:x");
	assert_int_equal(f->dl.lateral[0], l);
	assert_string_equal(rc_deadlock_lateral_kind(&f->inv, l), "leaf-leaf");
	assert_true(f->dl.prone_link[l]);
	assert_false(f->dl.prone_link[link_of(f, "leaf1:u1", "spine1:d1")]);
	assert_null(rc_deadlock_lateral_kind(&f->inv, link_of(f, "leaf1:u1", "spine1:d1")));
}

static void test_spine_spine_and_host_host(void **state)
{
	struct fx *f = *state;

	load(f, HEAD "hosts:\n"
		     "  - {name: h1, transport: local, interfaces: [e0, e1]}\n"
		     "  - {name: h2, transport: local, interfaces: [e0, e1]}\n"
		     "switches:\n"
		     "  - {name: l1, platform: nvue, role: leaf, ports: [p1, u1]}\n"
		     "  - {name: l2, platform: nvue, role: leaf, ports: [p1, u1]}\n"
		     "  - {name: s1, platform: nvue, role: spine, ports: [d1, x]}\n"
		     "  - {name: s2, platform: nvue, role: spine, ports: [d1, x]}\n"
		     "links:\n"
		     "  - {a: 'h1:e0', b: 'l1:p1'}\n"
		     "  - {a: 'h2:e0', b: 'l2:p1'}\n"
		     "  - {a: 'h1:e1', b: 'h2:e1'}\n"
		     "  - {a: 'l1:u1', b: 's1:d1'}\n"
		     "  - {a: 'l2:u1', b: 's2:d1'}\n"
		     "  - {a: 's1:x', b: 's2:x'}\n");
	assert_true(f->dl.prone);
	assert_int_equal(f->dl.n_lateral, 2);
	assert_string_equal(rc_deadlock_lateral_kind(&f->inv, link_of(f, "h1:e1", "h2:e1")),
			    "host-host");
	assert_string_equal(rc_deadlock_lateral_kind(&f->inv, link_of(f, "s1:x", "s2:x")),
			    "spine-spine");
}

/* Four leaves in a ring, a host on each: the shortest paths alone close a cycle. */
static void test_ring_cycle(void **state)
{
	struct fx *f = *state;

	load(f, HEAD "hosts:\n"
		     "  - {name: h1, transport: local, interfaces: [e0]}\n"
		     "  - {name: h2, transport: local, interfaces: [e0]}\n"
		     "  - {name: h3, transport: local, interfaces: [e0]}\n"
		     "  - {name: h4, transport: local, interfaces: [e0]}\n"
		     "switches:\n"
		     "  - {name: l1, platform: nvue, role: leaf, ports: [p, a, b]}\n"
		     "  - {name: l2, platform: nvue, role: leaf, ports: [p, a, b]}\n"
		     "  - {name: l3, platform: nvue, role: leaf, ports: [p, a, b]}\n"
		     "  - {name: l4, platform: nvue, role: leaf, ports: [p, a, b]}\n"
		     "links:\n"
		     "  - {a: 'h1:e0', b: 'l1:p'}\n"
		     "  - {a: 'h2:e0', b: 'l2:p'}\n"
		     "  - {a: 'h3:e0', b: 'l3:p'}\n"
		     "  - {a: 'h4:e0', b: 'l4:p'}\n"
		     "  - {a: 'l1:a', b: 'l2:b'}\n"
		     "  - {a: 'l2:a', b: 'l3:b'}\n"
		     "  - {a: 'l3:a', b: 'l4:b'}\n"
		     "  - {a: 'l4:a', b: 'l1:b'}\n");
	assert_int_equal(f->dl.n_lateral, 4);
	assert_true(f->dl.n_cyclic_components >= 1);
	assert_true(f->dl.n_cycles >= 1);
	assert_int_equal(f->dl.cycles[0].n, 4);
	closed(&f->inv, &f->dl.cycles[0]);
}

/* No lateral link, but hosts on the spines of a 2x2 ring: paths between them bounce down
 * and up again through the leaves, and that closes a cycle, one in each direction round
 * the ring. */
static void test_down_up_cycle(void **state)
{
	struct fx *f = *state;

	load(f, HEAD "hosts:\n"
		     "  - {name: a, transport: local, interfaces: [e0]}\n"
		     "  - {name: b, transport: local, interfaces: [e0]}\n"
		     "  - {name: c, transport: local, interfaces: [e0]}\n"
		     "  - {name: d, transport: local, interfaces: [e0]}\n"
		     "switches:\n"
		     "  - {name: l1, platform: nvue, role: leaf, ports: [p, u1, u2]}\n"
		     "  - {name: l2, platform: nvue, role: leaf, ports: [p, u1, u2]}\n"
		     "  - {name: s1, platform: nvue, role: spine, ports: [p, d1, d2]}\n"
		     "  - {name: s2, platform: nvue, role: spine, ports: [p, d1, d2]}\n"
		     "links:\n"
		     "  - {a: 'a:e0', b: 'l1:p'}\n"
		     "  - {a: 'b:e0', b: 'l2:p'}\n"
		     "  - {a: 'c:e0', b: 's1:p'}\n"
		     "  - {a: 'd:e0', b: 's2:p'}\n"
		     "  - {a: 'l1:u1', b: 's1:d1'}\n"
		     "  - {a: 'l1:u2', b: 's2:d1'}\n"
		     "  - {a: 'l2:u1', b: 's1:d2'}\n"
		     "  - {a: 'l2:u2', b: 's2:d2'}\n");
	assert_int_equal(f->dl.n_lateral, 0);
	assert_true(f->dl.prone);
	assert_int_equal(f->dl.n_cyclic_components, 2);
	assert_int_equal(f->dl.n_cycles, 2);
	for (size_t i = 0; i < 2; i++) {
		closed(&f->inv, &f->dl.cycles[i]);
		assert_int_equal(f->dl.cycles[i].n, 4);
	}
	assert_true(f->dl.prone_link[link_of(f, "l1:u1", "s1:d1")]);
	assert_false(f->dl.prone_link[link_of(f, "a:e0", "l1:p")]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_clos_is_free, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_leaf_leaf_link, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_spine_spine_and_host_host, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_ring_cycle, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_down_up_cycle, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
