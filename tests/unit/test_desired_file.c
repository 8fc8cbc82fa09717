/* SPDX-License-Identifier: Apache-2.0 */
/* A host's rendered desired state (engine/plan/desired_file.c): what `rocectl render`
 * writes is what `agent --desired` reads back, the inventory's cable lengths included, and
 * a file that is not one is refused with its reason. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "rocectl/desired.h"
#include "testutil.h"

struct fx {
	struct rc_policy pol;
	struct rc_inventory inv;
	char dir[256];
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	struct rc_warnings warn = {0};
	struct rc_err err = {0};
	char path[512];

	if (!f)
		return -1;
	rc_test_path(path, sizeof(path), "policies/roce-lossless.yaml");
	if (rc_policy_load(path, &f->pol, &warn, &err))
		return -1;
	rc_test_path(path, sizeof(path), "examples/inventory.yaml");
	if (rc_inventory_load(path, &f->inv, &warn, &err))
		return -1;
	if (!rc_test_tmpdir(f->dir, sizeof(f->dir), "desired"))
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	char cmd[300];

	rc_inventory_fini(&f->inv);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	if (system(cmd))
		return -1;
	free(f);
	return 0;
}

static size_t dev(const struct fx *f, const char *name)
{
	ptrdiff_t i = rc_inventory_device_index(&f->inv, name);

	assert_true(i >= 0);
	return (size_t)i;
}

static void test_render_has_the_inventory_values(void **state)
{
	struct fx *f = *state;
	struct rc_desired_set s;
	struct rc_err err = {0};

	assert_int_equal(rc_desired_render(&f->pol, &f->inv, dev(f, "gpu002"), &s, &err), 0);
	assert_string_equal(s.host, "gpu002");
	assert_string_equal(s.policy, "roce-lossless");
	assert_int_equal(s.n, 2);
	/* both NICs are on 3 m links; a port the inventory does not name gets the policy's */
	assert_int_equal(rc_desired_lookup(&s, "enp12s0np0")->cable_length_m, 3);
	assert_int_equal(rc_desired_lookup(&s, "enp13s0np0")->cable_length_m, 3);
	assert_int_equal(rc_desired_lookup(&s, "eth9")->cable_length_m, 100);
	assert_true(rc_desired_lookup(&s, "enp12s0np0")->known & RC_F_CABLE);
	assert_int_equal(rc_desired_lookup(&s, "enp12s0np0")->pfc_enabled, 1u << 3);
	rc_desired_fini(&s);
}

/* Each link's own length; a link without one and a port the inventory does not name get
 * the policy's (hosts have no `overrides:` in the inventory, docs/ENFORCE.md). */
static void test_render_per_link_lengths(void **state)
{
	static const char inv[] = "apiVersion: rocectl/v1\nkind: Inventory\n"
				  "hosts:\n"
				  "  - name: h1\n"
				  "switches: [{name: s1, platform: nvue, ports: [swp1-2]}]\n"
				  "links:\n"
				  "  - {a: \"h1:eth0\", b: \"s1:swp1\"}\n"
				  "  - {a: \"h1:eth1\", b: \"s1:swp2\", cable_length: 2m}\n";
	struct fx *f = *state;
	struct rc_warnings warn = {0};
	struct rc_inventory i = {0};
	struct rc_desired_set s;
	struct rc_err err = {0};

	if (rc_inventory_load_buffer("inv.yaml", inv, sizeof(inv) - 1, &i, &warn, &err))
		fail_msg("%s", err.msg);
	if (rc_desired_render(&f->pol, &i, 0, &s, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(s.n, 2);
	assert_int_equal(rc_desired_lookup(&s, "eth0")->cable_length_m, 100);
	assert_int_equal(rc_desired_lookup(&s, "eth1")->cable_length_m, 2); /* the link's own */
	assert_int_equal(rc_desired_lookup(&s, "eth5")->cable_length_m, 100);
	rc_desired_fini(&s);
	rc_inventory_fini(&i);
}

static void test_render_refuses_a_switch(void **state)
{
	struct fx *f = *state;
	struct rc_desired_set s;
	struct rc_err err = {0};

	assert_int_equal(rc_desired_render(&f->pol, &f->inv, dev(f, "leaf01"), &s, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "is a switch"));
}

static void test_round_trip(void **state)
{
	struct fx *f = *state;
	struct rc_desired_set a, b;
	struct rc_err err = {0};
	char path[300], *ja, *jb;

	assert_int_equal(rc_desired_render(&f->pol, &f->inv, dev(f, "gpu001"), &a, &err), 0);
	ja = rc_desired_to_json(&a);
	assert_non_null(ja);
	assert_int_equal(rc_test_write(f->dir, "gpu001.json", ja), 0);
	snprintf(path, sizeof(path), "%s/gpu001.json", f->dir);
	assert_int_equal(rc_desired_load(path, &b, &err), 0);
	assert_string_equal(b.host, "gpu001");
	assert_true(b.tolerance_pct == a.tolerance_pct);
	assert_int_equal(b.n, a.n);
	jb = rc_desired_to_json(&b);
	assert_non_null(jb);
	/* the same from "schema" on: before it, the header's timestamp may have ticked */
	assert_non_null(strstr(ja, "\"schema_version\""));
	assert_non_null(strstr(ja, "\"schema\""));
	assert_string_equal(strstr(ja, "\"schema\""), strstr(jb, "\"schema\""));
	assert_int_equal(rc_desired_lookup(&b, "enp13s0np0")->cable_length_m, 3);
	free(ja);
	free(jb);
	rc_desired_fini(&a);
	rc_desired_fini(&b);
}

static void refused(struct fx *f, const char *text, const char *why)
{
	struct rc_desired_set s;
	struct rc_err err = {0};
	char path[300];

	assert_int_equal(rc_test_write(f->dir, "bad.json", text), 0);
	snprintf(path, sizeof(path), "%s/bad.json", f->dir);
	assert_true(rc_desired_load(path, &s, &err) < 0);
	if (!strstr(err.msg, why))
		fail_msg("'%s': wanted '%s' in '%s'", text, why, err.msg);
}

#define Q "{\"known\": 0, \"unsupported\": 0}"

static void test_bad_files_are_refused(void **state)
{
	struct fx *f = *state;

	refused(f, "", "not a JSON object");
	refused(f, "{\"schema\": \"rocectl.desired/v1\", \"host\": \"gpu001\"",
		"not a JSON object");
	refused(f, "[]", "not a JSON object");
	refused(f,
		"{\"schema\": \"rocectl.agent/v1\", \"host\": \"h\", \"policy\": \"p\", "
		"\"tolerance_pct\": 5, \"ports\": [], \"default\": " Q "}",
		"schema");
	refused(f,
		"{\"schema\": \"rocectl.desired/v1\", \"policy\": \"p\", \"tolerance_pct\": 5, "
		"\"ports\": [], \"default\": " Q "}",
		"\"host\"");
	refused(f,
		"{\"schema\": \"rocectl.desired/v1\", \"host\": \"h\", \"policy\": \"p\", "
		"\"tolerance_pct\": 500, \"ports\": [], \"default\": " Q "}",
		"tolerance_pct");
	refused(f,
		"{\"schema\": \"rocectl.desired/v1\", \"host\": \"h\", \"policy\": \"p\", "
		"\"tolerance_pct\": 5, \"ports\": [{\"port\": \"a/b\", \"qos\": " Q
		"}], \"default\": " Q "}",
		"valid interface name");
	refused(f,
		"{\"schema\": \"rocectl.desired/v1\", \"host\": \"h\", \"policy\": \"p\", "
		"\"tolerance_pct\": 5, \"ports\": [{\"port\": \"e0\", \"qos\": " Q
		"}, {\"port\": \"e0\", \"qos\": " Q "}], \"default\": " Q "}",
		"listed twice");
	refused(f,
		"{\"schema\": \"rocectl.desired/v1\", \"host\": \"h\", \"policy\": \"p\", "
		"\"tolerance_pct\": 5, \"ports\": [{\"port\": \"e0\"}], \"default\": " Q "}",
		"port 'e0'");
	refused(f,
		"{\"schema\": \"rocectl.desired/v1\", \"host\": \"h\", \"policy\": \"p\", "
		"\"tolerance_pct\": 5, \"ports\": []}",
		"default");
}

static void test_missing_file(void **state)
{
	struct fx *f = *state;
	struct rc_desired_set s;
	struct rc_err err = {0};
	char path[300];

	snprintf(path, sizeof(path), "%s/none.json", f->dir);
	assert_true(rc_desired_load(path, &s, &err) < 0);
	assert_non_null(strstr(err.msg, "cannot read"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_render_has_the_inventory_values),
	    cmocka_unit_test(test_render_per_link_lengths),
	    cmocka_unit_test(test_render_refuses_a_switch),
	    cmocka_unit_test(test_round_trip),
	    cmocka_unit_test(test_bad_files_are_refused),
	    cmocka_unit_test(test_missing_file),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
