/* SPDX-License-Identifier: Apache-2.0 */
/* verify --shard and --merge (include/rocectl/shard.h): the shards are a function of the
 * fabric alone, not of the inventory's order; a pod stays whole; the merge takes the
 * shards' lines (tests/data/merge, also the fuzzer's seeds) and refuses broken ones. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "rocectl/shard.h"
#include "testutil.h"

/* Two pods (leaf01 with gpu001-002, leaf02 with gpu003; gpu002 dual-homed joins leaf03),
 * a leaf without hosts and two spines. */
static const char inv_a[] =
    "apiVersion: rocectl/v1\nkind: Inventory\nhosts:\n"
    "  - {name: gpu001, address: 127.2.0.1, interfaces: [e0]}\n"
    "  - {name: gpu002, address: 127.2.0.2, interfaces: [e0, e1]}\n"
    "  - {name: gpu003, address: 127.2.0.3, interfaces: [e0]}\n"
    "switches:\n"
    "  - {name: leaf01, address: 127.1.0.1, platform: nvue, ports: [swp1-3]}\n"
    "  - {name: leaf02, address: 127.1.0.2, platform: nvue, ports: [swp1-3]}\n"
    "  - {name: leaf03, address: 127.1.0.3, platform: nvue, ports: [swp1-3]}\n"
    "  - {name: leaf04, address: 127.1.0.4, platform: nvue, role: leaf, ports: [swp1]}\n"
    "  - {name: spine01, address: 127.1.1.1, platform: nvue, ports: [swp1-4]}\n"
    "  - {name: spine02, address: 127.1.1.2, platform: nvue, ports: [swp1-4]}\n"
    "links:\n"
    "  - {a: \"gpu001:e0\", b: \"leaf01:swp1\"}\n"
    "  - {a: \"gpu002:e0\", b: \"leaf01:swp2\"}\n"
    "  - {a: \"gpu002:e1\", b: \"leaf03:swp1\"}\n"
    "  - {a: \"gpu003:e0\", b: \"leaf02:swp1\"}\n"
    "  - {a: \"leaf01:swp3\", b: \"spine01:swp1\"}\n"
    "  - {a: \"leaf02:swp3\", b: \"spine01:swp2\"}\n"
    "  - {a: \"leaf03:swp3\", b: \"spine02:swp1\"}\n"
    "  - {a: \"leaf04:swp1\", b: \"spine02:swp2\"}\n";

/* The same fabric, every list in another order. */
static const char inv_b[] =
    "apiVersion: rocectl/v1\nkind: Inventory\nhosts:\n"
    "  - {name: gpu003, address: 127.2.0.3, interfaces: [e0]}\n"
    "  - {name: gpu002, address: 127.2.0.2, interfaces: [e0, e1]}\n"
    "  - {name: gpu001, address: 127.2.0.1, interfaces: [e0]}\n"
    "switches:\n"
    "  - {name: spine02, address: 127.1.1.2, platform: nvue, ports: [swp1-4]}\n"
    "  - {name: leaf04, address: 127.1.0.4, platform: nvue, role: leaf, ports: [swp1]}\n"
    "  - {name: leaf03, address: 127.1.0.3, platform: nvue, ports: [swp1-3]}\n"
    "  - {name: spine01, address: 127.1.1.1, platform: nvue, ports: [swp1-4]}\n"
    "  - {name: leaf02, address: 127.1.0.2, platform: nvue, ports: [swp1-3]}\n"
    "  - {name: leaf01, address: 127.1.0.1, platform: nvue, ports: [swp1-3]}\n"
    "links:\n"
    "  - {a: \"leaf04:swp1\", b: \"spine02:swp2\"}\n"
    "  - {a: \"leaf03:swp3\", b: \"spine02:swp1\"}\n"
    "  - {a: \"spine01:swp2\", b: \"leaf02:swp3\"}\n"
    "  - {a: \"leaf01:swp3\", b: \"spine01:swp1\"}\n"
    "  - {a: \"gpu003:e0\", b: \"leaf02:swp1\"}\n"
    "  - {a: \"gpu002:e1\", b: \"leaf03:swp1\"}\n"
    "  - {a: \"gpu002:e0\", b: \"leaf01:swp2\"}\n"
    "  - {a: \"gpu001:e0\", b: \"leaf01:swp1\"}\n";

static void load(const char *yaml, struct rc_inventory *inv)
{
	struct rc_err err = {0};

	assert_int_equal(rc_inventory_load_buffer("inv.yaml", yaml, strlen(yaml), inv, NULL, &err),
			 0);
}

static unsigned shard_of(const struct rc_inventory *inv, const unsigned *s, const char *name)
{
	for (size_t i = 0; i < inv->n_devices; i++)
		if (!strcmp(inv->devices[i].name, name))
			return s[i];
	fail_msg("no device %s", name);
	return 0;
}

static void test_shards_follow_the_fabric_not_the_order(void **state)
{
	struct rc_inventory a, b;
	unsigned sa[16], sb[16];
	struct rc_err err = {0};

	(void)state;
	load(inv_a, &a);
	load(inv_b, &b);
	for (unsigned n = 1; n <= 6; n++) {
		size_t per[7] = {0};

		assert_int_equal(rc_shard_assign(&a, n, sa, &err), 0);
		assert_int_equal(rc_shard_assign(&b, n, sb, &err), 0);
		for (size_t i = 0; i < a.n_devices; i++) {
			assert_true(sa[i] >= 1 && sa[i] <= n);
			assert_int_equal(sa[i], shard_of(&b, sb, a.devices[i].name));
			per[sa[i]]++;
		}
		/* a pod whole: the dual-homed gpu002 joins leaf01 and leaf03 */
		assert_int_equal(shard_of(&a, sa, "gpu001"), shard_of(&a, sa, "leaf01"));
		assert_int_equal(shard_of(&a, sa, "gpu002"), shard_of(&a, sa, "leaf03"));
		assert_int_equal(shard_of(&a, sa, "gpu002"), shard_of(&a, sa, "leaf01"));
		assert_int_equal(shard_of(&a, sa, "gpu003"), shard_of(&a, sa, "leaf02"));
		/* the pod of four first, then each unit where fewest devices are (ties: the
		 * lowest shard), the units of one device by name */
		if (n == 3) {
			assert_int_equal(per[1], 4);
			assert_int_equal(shard_of(&a, sa, "gpu003"), 2);
			assert_int_equal(shard_of(&a, sa, "leaf04"), 3);
			assert_int_equal(shard_of(&a, sa, "spine01"), 3);
			assert_int_equal(shard_of(&a, sa, "spine02"), 2);
		}
	}
	rc_inventory_fini(&a);
	rc_inventory_fini(&b);
}

static void test_shard_parse(void **state)
{
	unsigned k, n;
	struct rc_err err = {0};

	(void)state;
	assert_int_equal(rc_shard_parse("2/8", &k, &n, &err), 0);
	assert_int_equal(k, 2);
	assert_int_equal(n, 8);
	assert_int_equal(rc_shard_parse("1/1", &k, &n, &err), 0);
	assert_int_not_equal(rc_shard_parse("0/3", &k, &n, &err), 0);
	assert_int_not_equal(rc_shard_parse("4/3", &k, &n, &err), 0);
	assert_int_not_equal(rc_shard_parse("3", &k, &n, &err), 0);
	assert_int_not_equal(rc_shard_parse("1/", &k, &n, &err), 0);
	assert_int_not_equal(rc_shard_parse("-1/3", &k, &n, &err), 0);
	assert_int_not_equal(rc_shard_parse("1/10001", &k, &n, &err), 0);
}

/* The fuzzer's fabric (tests/fuzz/fuzz_merge.c) */
static const char fuzz_inv[] =
    "apiVersion: rocectl/v1\nkind: Inventory\n"
    "hosts:\n"
    "  - {name: gpu001, address: 127.2.0.1, transport: ssh, interfaces: [enp12s0np0]}\n"
    "  - {name: gpu002, address: 127.2.0.2, transport: ssh, interfaces: [enp12s0np0]}\n"
    "switches:\n"
    "  - {name: leaf01, address: 127.1.0.1, platform: nvue, ports: [swp1-3]}\n"
    "  - {name: spine01, address: 127.1.100.1, platform: sonic, ports: [Ethernet0]}\n"
    "links:\n"
    "  - {a: \"gpu001:enp12s0np0\", b: \"leaf01:swp1\"}\n"
    "  - {a: \"gpu002:enp12s0np0\", b: \"leaf01:swp2\"}\n"
    "  - {a: \"leaf01:swp3\", b: \"spine01:Ethernet0\"}\n";

static const char fuzz_pol[] = "apiVersion: rocectl/v1\nkind: Policy\nname: f\n"
			       "roce: {dscp: 26, priority: 3}\ncnp: {dscp: 48, priority: 6}\n"
			       "pfc: {priorities: [3]}\n"
			       "ecn: {min_threshold: 150KB, max_threshold: 1500KB, "
			       "probability: 100%}\n";

/* Merge `text` (files separated by "--" lines, as the fuzzer reads them): 0 or the error. */
static int merge_text(const char *text, struct rc_err *err, size_t *n_devs)
{
	struct rc_inventory inv;
	struct rc_policy pol;
	struct rc_merge m;
	struct rc_fleet f;
	const char *p = text;
	int rc;

	load(fuzz_inv, &inv);
	assert_int_equal(
	    rc_policy_load_buffer("pol.yaml", fuzz_pol, strlen(fuzz_pol), &pol, NULL, err), 0);
	assert_int_equal(rc_merge_init(&m, &inv, &pol, err), 0);
	rc_merge_begin_file(&m, "a.jsonl");
	rc = 0;
	while (!rc && *p) {
		size_t len = strcspn(p, "\n");

		if (len == 2 && !strncmp(p, "--", 2)) {
			rc = rc_merge_end_file(&m, err);
			rc_merge_begin_file(&m, "b.jsonl");
		} else {
			rc = rc_merge_line(&m, p, len, err);
		}
		p += len + (p[len] == '\n');
	}
	if (!rc)
		rc = rc_merge_end_file(&m, err);
	if (!rc)
		rc = rc_merge_finish(&m, &f, err);
	if (!rc) {
		*n_devs = f.n;
		for (size_t i = 0; i < f.n; i++) {
			assert_non_null(f.devs[i].lldp); /* never a session opened to ask again */
			if (i)
				assert_true(f.devs[i].index > f.devs[i - 1].index);
		}
	}
	rc_merge_fini(&m);
	rc_inventory_fini(&inv);
	return rc;
}

static char *seed(const char *name)
{
	char rel[128];
	char *s;

	snprintf(rel, sizeof(rel), "tests/data/merge/%s", name);
	s = rc_test_slurp(rel, NULL);
	assert_non_null(s);
	return s;
}

static void test_merge_seeds(void **state)
{
	struct rc_err err = {0};
	size_t n = 0;
	char *one = seed("one-shard.jsonl"), *two = seed("two-shards.jsonl");

	(void)state;
	assert_int_equal(merge_text(one, &err, &n), 0);
	assert_int_equal(n, 4);
	n = 0;
	assert_int_equal(merge_text(two, &err, &n), 0);
	assert_int_equal(n, 4);
	free(one);
	free(two);
}

static void test_merge_refuses(void **state)
{
	struct rc_err err = {0};
	size_t n = 0;
	char *two = seed("two-shards.jsonl"), *buf = malloc(2 * strlen(two) + 64), *cut;

	(void)state;
	assert_non_null(buf);
	/* the second file missing: shard 2/2 */
	cut = strstr(two, "--\n");
	assert_non_null(cut);
	snprintf(buf, (size_t)(cut - two) + 1, "%s", two);
	assert_int_not_equal(merge_text(buf, &err, &n), 0);
	assert_non_null(strstr(err.msg, "shard 2/2 is missing"));
	/* the first file twice */
	snprintf(buf, 2 * strlen(two) + 64, "%.*s--\n%s", (int)(cut - two), two, two);
	assert_int_not_equal(merge_text(buf, &err, &n), 0);
	assert_non_null(strstr(err.msg, "appears in two shards"));
	/* a device line duplicated within a file */
	snprintf(buf, 2 * strlen(two) + 64, "%.*s%s", (int)strcspn(two, "\n") + 1, two, two);
	assert_int_not_equal(merge_text(buf, &err, &n), 0);
	assert_non_null(strstr(err.msg, "a.jsonl:2: 'gpu001' appears twice in this file"));
	/* a name outside the inventory, a number out of range */
	snprintf(buf, 2 * strlen(two) + 64, "%s", two);
	memcpy(strstr(buf, "\"gpu001\""), "\"gpu009\"", 8);
	assert_int_not_equal(merge_text(buf, &err, &n), 0);
	assert_non_null(strstr(err.msg, "not a device of the inventory"));
	snprintf(buf, 2 * strlen(two) + 64, "%s", two);
	memcpy(strstr(buf, "\"trust\":2"), "\"trust\":9", 9);
	assert_int_not_equal(merge_text(buf, &err, &n), 0);
	assert_non_null(strstr(err.msg, "\"trust\" in range"));
	free(buf);
	free(two);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_shards_follow_the_fabric_not_the_order),
	    cmocka_unit_test(test_shard_parse),
	    cmocka_unit_test(test_merge_seeds),
	    cmocka_unit_test(test_merge_refuses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
