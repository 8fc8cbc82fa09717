/* SPDX-License-Identifier: Apache-2.0 */
/* diagnose --format prometheus on a fabric with two spines: every host pair across the
 * leaves has two equal-cost paths with the same end ports.  node_exporter's textfile
 * collector refuses a whole file that holds two samples of one series, so each series
 * must appear once, and no label may carry a value that changes with the verdict. */
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
    "switches:\n"
    "  - {name: leaf1, platform: nvue, role: leaf, ports: [p1, u1, u2]}\n"
    "  - {name: leaf2, platform: nvue, role: leaf, ports: [p1, u1, u2]}\n"
    "  - {name: spine1, platform: nvue, role: spine, ports: [s1, s2]}\n"
    "  - {name: spine2, platform: nvue, role: spine, ports: [s1, s2]}\n"
    "links:\n"
    "  - {a: 'gpu1:eth0', b: 'leaf1:p1'}\n"
    "  - {a: 'gpu2:eth0', b: 'leaf2:p1'}\n"
    "  - {a: 'leaf1:u1', b: 'spine1:s1'}\n"
    "  - {a: 'leaf1:u2', b: 'spine2:s1'}\n"
    "  - {a: 'leaf2:u1', b: 'spine1:s2'}\n"
    "  - {a: 'leaf2:u2', b: 'spine2:s2'}\n";

#define NDEV 6

struct fx {
	struct rc_inventory inv;
	struct rc_counters before[NDEV], after[NDEV];
	struct rc_diag_dev devs[NDEV];
	struct rc_diag_paths paths;
	struct rc_diag d;
	struct rc_err err;
};

static const struct rc_diag_scope scope = {.prio_mask = 1u << 3, .tc_mask = 1u << 3};

static void set(struct fx *f, const char *dev, const char *port, const char *name, uint64_t delta)
{
	ptrdiff_t d = rc_inventory_device_index(&f->inv, dev);

	assert_true(d >= 0);
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
	assert_int_equal(f->inv.n_devices, NDEV);
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
	rc_diag_paths_fini(&f->paths);
	for (size_t i = 0; i < NDEV; i++) {
		rc_counters_fini(&f->before[i]);
		rc_counters_fini(&f->after[i]);
		rc_diag_dev_fini(&f->devs[i]);
	}
	rc_inventory_fini(&f->inv);
	free(f);
	return 0;
}

/* The textfile of the analysis, malloc'd. */
static char *prom(struct fx *f)
{
	size_t hosts[] = {(size_t)rc_inventory_device_index(&f->inv, "gpu1"),
			  (size_t)rc_inventory_device_index(&f->inv, "gpu2")};
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	for (size_t i = 0; i < NDEV; i++)
		assert_int_equal(
		    rc_diag_dev_build(&f->devs[i], &f->before[i], &f->after[i], &scope, &f->err),
		    0);
	assert_int_equal(rc_diag_paths(&f->inv, hosts, 2, false, &f->paths, &f->err), 0);
	/* both directions, each over both spines */
	assert_int_equal(f->paths.n, 4);
	assert_int_equal(rc_diag_analyze(&f->d, &f->inv, f->devs, 10.0, &f->paths, &f->err), 0);
	m = open_memstream(&buf, &len);
	assert_non_null(m);
	assert_int_equal(rc_diag_prom(m, &f->d), 0);
	assert_int_equal(fclose(m), 0);
	return buf;
}

/* Every sample line's series (name and labels: all but the value) appears once. */
static void assert_unique_series(const char *text)
{
	char *copy = strdup(text), *save = NULL;
	char *seen[256];
	size_t n = 0;

	assert_non_null(copy);
	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *sp = strrchr(line, ' ');

		if (line[0] == '#' || !sp)
			continue;
		*sp = '\0';
		for (size_t i = 0; i < n; i++)
			if (!strcmp(seen[i], line))
				fail_msg("series twice in the textfile: %s", line);
		assert_true(n < 256);
		seen[n++] = line;
	}
	free(copy);
}

static const char *sample(const char *text, const char *series)
{
	const char *p = strstr(text, series);

	if (!p)
		fail_msg("no sample %s in:\n%s", series, text);
	return p + strlen(series);
}

static void test_clean_fabric_one_series_per_port_pair(void **state)
{
	struct fx *f = *state;
	char *text = prom(f);

	assert_unique_series(text);
	assert_null(strstr(text, "verdict="));
	assert_null(strstr(text, ",at="));
	assert_int_equal(strncmp(sample(text, "rocectl_diagnose_path_clean{from=\"gpu1\","
					      "from_port=\"eth0\",to=\"gpu2\",to_port=\"eth0\"} "),
				 "1\n", 2),
			 0);
	free(text);
}

/* Congestion behind spine2 only: one of the two equal-cost paths is congested, so the pair
 * is not clean, and the counts say one path of two. */
static void test_one_congested_path_makes_the_pair_unclean(void **state)
{
	struct fx *f = *state;
	char *text;

	set(f, "leaf2", "p1", "ecn_marked", 5000);
	set(f, "leaf2", "u2", "pfc_pause_tx[3]", 400);
	set(f, "spine2", "s2", "pfc_pause_rx[3]", 400);
	set(f, "spine2", "s1", "pfc_pause_tx[3]", 390);
	set(f, "leaf1", "u2", "pfc_pause_rx[3]", 390);
	set(f, "leaf1", "p1", "pfc_pause_tx[3]", 380);
	set(f, "gpu1", "eth0", "pfc_pause_rx[3]", 380);
	text = prom(f);
	assert_unique_series(text);
	assert_int_equal(strncmp(sample(text, "rocectl_diagnose_path_clean{from=\"gpu1\","
					      "from_port=\"eth0\",to=\"gpu2\",to_port=\"eth0\"} "),
				 "0\n", 2),
			 0);
	assert_int_equal(strncmp(sample(text, "rocectl_diagnose_paths{from=\"gpu1\","
					      "from_port=\"eth0\",to=\"gpu2\",to_port=\"eth0\"} "),
				 "2\n", 2),
			 0);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_clean_fabric_one_series_per_port_pair, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_one_congested_path_makes_the_pair_unclean, setup,
					    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
