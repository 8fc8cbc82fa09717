/* SPDX-License-Identifier: Apache-2.0 */
/* verify --format dot at fabric size: hosts are drawn in their leaf's cluster, eight to a
 * row, so that 32 hosts on two leaves do not make one row tens of thousands of points wide.
 * Graphviz is the witness: `dot -Tplain` gives the picture's width and each node's place. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "rocectl/result.h"

#define N_LEAF	 2
#define PER_LEAF 16
#define N_HOST	 (N_LEAF * PER_LEAF)
#define N_DEV	 (1 + N_LEAF + N_HOST)
#define N_LINK	 (N_LEAF + N_HOST)

struct big {
	struct rc_device dev[N_DEV];
	struct rc_link links[N_LINK];
	struct rc_link_check lc[N_LINK];
	struct rc_inventory inv;
	struct rc_policy pol;
	struct rc_fleet fleet;
	struct rc_fleet_dev fdev[N_DEV];
	struct rc_result r;
};

static void dev(struct big *b, size_t i, const char *name, enum rc_dev_kind kind, enum rc_role role)
{
	snprintf(b->dev[i].name, sizeof(b->dev[i].name), "%s", name);
	b->dev[i].kind = kind;
	b->dev[i].role = role;
	b->dev[i].platform = kind == RC_DEV_HOST ? RC_PLAT_HOST : RC_PLAT_NVUE;
	b->fdev[i] = (struct rc_fleet_dev){.index = i};
	b->fdev[i].run.dev = &b->dev[i];
	b->fdev[i].run.dev_index = i;
	b->fdev[i].run.read_ok = true;
}

static void link_(struct big *b, size_t l, size_t up, const char *up_port, size_t down)
{
	b->links[l].a.dev = down;
	snprintf(b->links[l].a.port, RC_NAME_MAX, "eth0");
	b->links[l].b.dev = up;
	snprintf(b->links[l].b.port, RC_NAME_MAX, "%s", up_port);
	b->lc[l] = (struct rc_link_check){.link = l, .status = RC_CHECK_OK};
}

static struct big *build(void)
{
	struct big *b = calloc(1, sizeof(*b));
	char name[32];
	size_t l = 0;

	assert_non_null(b);
	dev(b, 0, "spine01", RC_DEV_SWITCH, RC_ROLE_SPINE);
	for (size_t k = 0; k < N_LEAF; k++) {
		snprintf(name, sizeof(name), "leaf%02zu", k + 1);
		dev(b, 1 + k, name, RC_DEV_SWITCH, RC_ROLE_LEAF);
		link_(b, l++, 0, k ? "swp2" : "swp1", 1 + k);
	}
	for (size_t h = 0; h < N_HOST; h++) {
		snprintf(name, sizeof(name), "gpu%03zu", h + 1);
		dev(b, 1 + N_LEAF + h, name, RC_DEV_HOST, RC_ROLE_HOST);
		snprintf(name, sizeof(name), "swp%zu", h % PER_LEAF + 1);
		link_(b, l++, 1 + h / PER_LEAF, name, 1 + N_LEAF + h);
	}
	b->inv.devices = b->dev;
	b->inv.n_devices = N_DEV;
	b->inv.links = b->links;
	b->inv.n_links = N_LINK;
	b->fleet.inv = &b->inv;
	b->fleet.pol = &b->pol;
	b->fleet.devs = b->fdev;
	b->fleet.n = N_DEV;
	b->r.fleet = &b->fleet;
	b->r.inv = &b->inv;
	b->r.links = b->lc;
	b->r.n_links = N_LINK;
	return b;
}

/* `dot -Tplain` of the picture, to be freed. */
static char *plain(struct big *b)
{
	char dir[] = "/tmp/rocectl-dotrows-XXXXXX", in[64], out[64], cmd[256], *buf = NULL;
	size_t len = 0;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(in, sizeof(in), "%s/f.dot", dir);
	snprintf(out, sizeof(out), "%s/f.plain", dir);
	f = fopen(in, "w");
	assert_non_null(f);
	rc_report_dot(f, &b->r);
	assert_int_equal(fclose(f), 0);
	snprintf(cmd, sizeof(cmd), "dot -Tplain -o '%s' '%s'", out, in);
	if (system(cmd) != 0)
		fail_msg("dot -Tplain failed: is graphviz installed (DEB_PACKAGES)?");
	f = fopen(out, "r");
	assert_non_null(f);
	assert_int_equal(getdelim(&buf, &len, '\0', f) > 0, 1);
	fclose(f);
	if (!getenv("KEEP_DOT"))
		unlink(in);
	unlink(out);
	if (!getenv("KEEP_DOT"))
		rmdir(dir);
	return buf;
}

static void node_xy(const char *text, const char *name, double *x, double *y)
{
	char key[64];
	const char *p;

	snprintf(key, sizeof(key), "\nnode %s ", name);
	p = strstr(text, key);
	if (!p)
		fail_msg("no node %s", name);
	assert_int_equal(sscanf(p + strlen(key), "%lf %lf", x, y), 2);
}

static void test_hosts_in_rows_of_eight_per_leaf(void **unused)
{
	struct big *b = build();
	char *text = plain(b);
	double width, height, ys[N_HOST], x, y, leaf_y;
	size_t rows = 0;

	(void)unused;
	/* "graph SCALE WIDTH HEIGHT", in inches: one row of the 32 hosts, each with its labelled
	 * edge, was 54; two clusters of two rows of eight are about 27 */
	assert_int_equal(sscanf(text, "graph %*f %lf %lf", &width, &height), 2);
	if (width > 30.0)
		fail_msg("the picture of %d hosts is %.1f in wide", N_HOST, width);
	node_xy(text, "leaf01", &x, &leaf_y);
	for (size_t h = 0; h < PER_LEAF; h++) { /* leaf01's hosts: two rows of eight */
		char name[16];
		size_t r;

		snprintf(name, sizeof(name), "gpu%03zu", h + 1);
		node_xy(text, name, &x, &y);
		assert_true(y < leaf_y);
		for (r = 0; r < rows && ys[r] != y; r++)
			;
		if (r == rows)
			ys[rows++] = y;
	}
	assert_int_equal(rows, 2);
	free(text);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_hosts_in_rows_of_eight_per_leaf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
