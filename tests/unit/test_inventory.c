/* SPDX-License-Identifier: Apache-2.0 */
/* Inventory loading: ranges, lock-step pairing, links, roles, defaults, safe names,
 * lookups and per-device policies. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../engine/config/range.h"
#include "inventory_fixture.h"
#include "rocectl/inventory.h"
#include "rocectl/policy.h"

static const char *src_path(char *buf, size_t len, const char *rel)
{
	const char *src = getenv("SRC_DIR");

	snprintf(buf, len, "%s/%s", src && *src ? src : ".", rel);
	return buf;
}

/* ---- ranges ---- */

static void expand(const char *s, bool bare, size_t want_n, const char *first, const char *last)
{
	struct rc_range r;
	const char *why = NULL;
	char buf[RC_NAME_MAX];

	if (rc_range_parse(s, bare, &r, &why) != 0)
		fail_msg("'%s': %s", s, why);
	assert_int_equal(rc_range_count(&r), want_n);
	assert_int_equal(rc_range_element(&r, 0, buf, sizeof(buf)), 0);
	assert_string_equal(buf, first);
	assert_int_equal(rc_range_element(&r, want_n - 1, buf, sizeof(buf)), 0);
	assert_string_equal(buf, last);
}

static void refuse(const char *s, bool bare, int want, const char *why_part)
{
	struct rc_range r;
	const char *why = NULL;

	assert_int_equal(rc_range_parse(s, bare, &r, &why), want);
	assert_non_null(why);
	if (!strstr(why, why_part))
		fail_msg("'%s': why '%s' lacks '%s'", s, why, why_part);
}

static void test_ranges(void **state)
{
	struct rc_range r;
	const char *why;
	char buf[RC_NAME_MAX];

	(void)state;
	expand("gpu[001-032]", false, 32, "gpu001", "gpu032");
	expand("gpu[1-32]", false, 32, "gpu1", "gpu32");
	expand("gpu[01-100]", false, 100, "gpu01", "gpu100");
	expand("10.0.1.[1-32]", false, 32, "10.0.1.1", "10.0.1.32");
	expand("rack[1-2]-gpu", false, 2, "rack1-gpu", "rack2-gpu");
	expand("swp[1-32]", true, 32, "swp1", "swp32");
	expand("swp1-32", true, 32, "swp1", "swp32");
	expand("Ethernet1/1-32", true, 32, "Ethernet1/1", "Ethernet1/32");
	expand("swp01-10", true, 10, "swp01", "swp10");
	expand("gpu[7-7]", false, 1, "gpu7", "gpu7");
	expand("leaf01", false, 1, "leaf01", "leaf01");
	/* Bare ranges are ports only; names keep their dashes. */
	expand("swp1-32", false, 1, "swp1-32", "swp1-32");
	expand("1-32", true, 1, "1-32", "1-32");
	expand("Port-Channel1", true, 1, "Port-Channel1", "Port-Channel1");
	expand("swp-3", true, 1, "swp-3", "swp-3");

	assert_int_equal(rc_range_parse("gpu[001-003]", false, &r, &why), 0);
	assert_int_equal(rc_range_element(&r, 1, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "gpu002");
	assert_int_equal(rc_range_element(&r, 1, buf, 4), -ENAMETOOLONG);

	refuse("gpu[32-1]", false, -EINVAL, "backwards");
	refuse("swp32-1", true, -EINVAL, "backwards");
	refuse("gpu[1-2]x[1-2]", false, -EINVAL, "only one");
	refuse("gpu[1-2", false, -EINVAL, "without a closing");
	refuse("gpu1-2]", false, -EINVAL, "without an opening");
	refuse("gpu[1]", false, -EINVAL, "expected a range");
	refuse("gpu[a-b]", false, -EINVAL, "expected a range");
	refuse("gpu[-2]", false, -EINVAL, "expected a range");
	refuse("gpu[1-1234567890]", false, -EINVAL, "up to 9 digits");
	refuse("gpu[1-65537]", false, -E2BIG, "more than 65536");
	refuse("h[0-99999999]", false, -E2BIG, "more than 65536");
	refuse("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	       "aaaaaaaa"
	       "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	       false, -ENAMETOOLONG, "longer than 63");
	expand("gpu[1-65536]", false, 65536, "gpu1", "gpu65536");
}

static void test_names(void **state)
{
	(void)state;
	assert_true(rc_name_is_safe("leaf01"));
	assert_true(rc_name_is_safe("Ethernet1/1"));
	assert_true(rc_name_is_safe("swp1s0"));
	assert_true(rc_name_is_safe("a.b_c-d"));
	assert_true(rc_name_is_safe("0"));
	assert_false(rc_name_is_safe(""));
	assert_false(rc_name_is_safe(NULL));
	assert_false(rc_name_is_safe("swp1;reboot"));
	assert_false(rc_name_is_safe("swp1$(id)"));
	assert_false(rc_name_is_safe("swp1`id`"));
	assert_false(rc_name_is_safe("a b"));
	assert_false(rc_name_is_safe("leaf01:swp1"));
	assert_false(rc_name_is_safe("-rf"));
	assert_false(rc_name_is_safe(".hidden"));
	assert_false(rc_name_is_safe("/etc"));
	assert_false(rc_name_is_safe("a'b"));
	assert_false(rc_name_is_safe("a\nb"));
	assert_false(rc_name_is_safe("caf\xc3\xa9"));
	assert_true(rc_name_is_safe(
	    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")); /* 63 */
	assert_false(rc_name_is_safe(
	    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")); /* 64 */

	/* a device name is one path component as well (capture -o DIR/NAME) */
	assert_true(rc_device_name_is_safe("gpu-01.rack_2"));
	assert_false(rc_device_name_is_safe("rack1/leaf01"));
	assert_false(rc_device_name_is_safe("x/../../../../tmp/p"));
	assert_false(rc_device_name_is_safe("a..b"));
	assert_false(rc_device_name_is_safe(".."));
	assert_false(rc_device_name_is_safe("-x"));
	assert_false(rc_device_name_is_safe("a\x01b"));
	assert_false(rc_device_name_is_safe(NULL));

	assert_true(rc_address_is_safe("10.0.1.1"));
	assert_true(rc_address_is_safe("fe80::1"));
	assert_true(rc_address_is_safe("::1"));
	assert_true(rc_address_is_safe("leaf01.example.com"));
	assert_false(rc_address_is_safe("10.0.0.1;id"));
	assert_false(rc_address_is_safe("-oProxyCommand=x"));
	assert_false(rc_address_is_safe("a/b"));

	assert_true(rc_user_is_safe("cumulus"));
	assert_true(rc_user_is_safe("_svc"));
	assert_false(rc_user_is_safe("-oProxyCommand"));
	assert_false(rc_user_is_safe("a b"));
	assert_true(rc_env_name_is_safe("LEAF01_PW"));
	assert_false(rc_env_name_is_safe("1PW"));
	assert_false(rc_env_name_is_safe("LEAF-01"));

	assert_string_equal(rc_platform_name(RC_PLAT_NVUE), "nvue");
	assert_string_equal(rc_platform_name(RC_PLAT_SONIC), "sonic");
	assert_string_equal(rc_platform_name(RC_PLAT_EOS), "eos");
	assert_string_equal(rc_platform_name(RC_PLAT_HOST), "host");
	assert_string_equal(rc_transport_name(RC_TRANSPORT_REST), "rest");
	assert_string_equal(rc_role_name(RC_ROLE_SPINE), "spine");
}

/* ---- loading ---- */

/* $HOME for the `~/` of key paths (engine/config/yaml_walk.c expands it). */
static int setup(void **state)
{
	setenv("HOME", "/home/op", 1);
	return inventory_setup(state);
}

static void test_example(void **state)
{
	struct fixture *f = *state;
	char path[4096];
	const struct rc_device *d;
	const struct rc_link *l;
	ptrdiff_t leaf01;

	assert_int_equal(rc_inventory_load(src_path(path, sizeof(path), "examples/inventory.yaml"),
					   &f->inv, &f->w, &f->err),
			 0);
	assert_int_equal(f->w.n, 0);
	assert_int_equal(f->inv.n_devices, 7);
	assert_int_equal(f->inv.n_links, 12);

	d = dev(f, "gpu003");
	assert_int_equal(d->kind, RC_DEV_HOST);
	assert_int_equal(d->role, RC_ROLE_HOST);
	assert_int_equal(d->transport, RC_TRANSPORT_SSH);
	assert_string_equal(d->address, "10.0.1.3");
	assert_int_equal(d->n_ports, 2);
	assert_string_equal(d->ports[1], "enp13s0np0");
	assert_string_equal(d->ssh.user, "admin");
	assert_int_equal(d->ssh.port, 22);
	assert_string_equal(d->ssh.identity_file, "/home/op/.ssh/id_ed25519");
	assert_string_equal(d->ssh.known_hosts, "/home/op/.ssh/known_hosts");
	assert_int_equal(d->ssh.connect_timeout_ms, 10000);
	assert_int_equal(d->ssh.command_timeout_ms, 60000);

	d = dev(f, "leaf01");
	assert_int_equal(d->kind, RC_DEV_SWITCH);
	assert_int_equal(d->platform, RC_PLAT_NVUE);
	assert_int_equal(d->role, RC_ROLE_LEAF);
	assert_int_equal(d->n_ports, 32);
	assert_string_equal(d->ports[31], "swp32");
	assert_string_equal(d->cred.user, "cumulus");
	assert_string_equal(d->cred.password_file, "/etc/rocectl/secrets/leaf01");
	assert_string_equal(d->rest.ca_file, "/etc/rocectl/ca.pem");
	assert_int_equal(d->rest.timeout_ms, 30000);

	d = dev(f, "leaf02");
	assert_int_equal(d->platform, RC_PLAT_SONIC);
	assert_int_equal(d->role, RC_ROLE_LEAF);
	assert_string_equal(d->cred.password_env, "ROCECTL_LEAF02_PASSWORD");

	d = dev(f, "spine01");
	assert_int_equal(d->platform, RC_PLAT_EOS);
	assert_int_equal(d->transport, RC_TRANSPORT_REST);
	assert_int_equal(d->role, RC_ROLE_SPINE);
	assert_string_equal(d->ports[0], "Ethernet1/1");
	assert_true(d->ov.has_ecn_kmin && d->ov.has_ecn_kmax);
	assert_int_equal(d->ov.ecn_kmin_bytes, 1000000);
	assert_int_equal(d->ov.ecn_kmax_bytes, 10000000);
	assert_false(d->ov.has_ecn_pmax);

	/* Element-wise pairing: gpu00N:enp12s0np0 with leaf01:swpN. */
	for (size_t i = 0; i < 4; i++) {
		char want[16];

		l = &f->inv.links[i];
		snprintf(want, sizeof(want), "gpu%03zu", i + 1);
		assert_string_equal(f->inv.devices[l->a.dev].name, want);
		assert_string_equal(l->a.port, "enp12s0np0");
		snprintf(want, sizeof(want), "swp%zu", i + 1);
		assert_string_equal(f->inv.devices[l->b.dev].name, "leaf01");
		assert_string_equal(l->b.port, want);
		assert_int_equal(l->speed_gbps, 400);
		assert_int_equal(l->cable_length_m, 3);
	}
	assert_int_equal(f->inv.links[11].cable_length_m, 0); /* policy default */

	leaf01 = rc_inventory_device_index(&f->inv, "leaf01");
	assert_true(leaf01 >= 0);
	l = rc_inventory_link_of(&f->inv, (size_t)leaf01, "swp31");
	assert_non_null(l);
	assert_string_equal(f->inv.devices[l->b.dev].name, "spine01");
	assert_string_equal(l->b.port, "Ethernet1/1");
	assert_null(rc_inventory_link_of(&f->inv, (size_t)leaf01, "swp20"));
	assert_int_equal(rc_inventory_device_index(&f->inv, "nope"), -1);
	assert_null(rc_inventory_device(&f->inv, "gpu005"));
}

static void test_lockstep_and_roles(void **state)
{
	struct fixture *f = *state;
	const struct rc_device *d;

	assert_int_equal(load(f, HEAD
			      "hosts:\n"
			      "  - {name: 'gpu[08-11]', address: '10.1.[20-23].5'}\n"
			      "  - {name: solo, transport: local}\n"
			      "switches:\n"
			      "  - {name: 'sw[1-2]', address: 'sw[1-2].mgmt', platform: sonic}\n"
			      "  - {name: core, platform: eos, role: leaf}\n"
			      "  - {name: tor, platform: nvue, role: spine}\n"
			      "links:\n"
			      "  - {a: 'gpu[08-11]:eth0', b: 'sw1:Ethernet[0-3]'}\n"
			      "  - {a: 'tor:swp1', b: 'solo:eth0'}\n"
			      "  - {a: 'sw[1-2]:x', b: 'sw[2-1]:y'}\n"),
			 -EINVAL);
	/* sw[2-1] runs backwards: fix it and look again. */
	assert_int_equal(load(f, HEAD
			      "hosts:\n"
			      "  - {name: 'gpu[08-11]', address: '10.1.[20-23].5'}\n"
			      "  - {name: solo, transport: local}\n"
			      "switches:\n"
			      "  - {name: 'sw[1-2]', address: 'sw[1-2].mgmt', platform: sonic}\n"
			      "  - {name: core, platform: eos, role: leaf}\n"
			      "  - {name: tor, platform: nvue, role: spine}\n"
			      "links:\n"
			      "  - {a: 'gpu[08-11]:eth0', b: 'sw1:Ethernet[0-3]'}\n"
			      "  - {a: 'tor:swp1', b: 'solo:eth0'}\n"
			      "  - {a: 'sw[1-2]:x', b: 'core:y[1-2]'}\n"),
			 0);
	assert_int_equal(f->inv.n_devices, 9);
	assert_string_equal(dev(f, "gpu08")->address, "10.1.20.5");
	assert_string_equal(dev(f, "gpu11")->address, "10.1.23.5");
	d = dev(f, "solo");
	assert_string_equal(d->address, "solo"); /* defaults to the name */
	assert_int_equal(d->transport, RC_TRANSPORT_LOCAL);
	assert_int_equal(d->n_ports, 0);
	assert_string_equal(dev(f, "sw2")->address, "sw2.mgmt");
	assert_int_equal(dev(f, "sw1")->role, RC_ROLE_LEAF);  /* linked to hosts */
	assert_int_equal(dev(f, "sw2")->role, RC_ROLE_SPINE); /* only to switches */
	assert_int_equal(dev(f, "core")->role, RC_ROLE_LEAF); /* explicit */
	assert_int_equal(dev(f, "tor")->role, RC_ROLE_SPINE); /* explicit beats derived */
	assert_int_equal(f->inv.n_links, 4 + 1 + 2);
	assert_string_equal(f->inv.links[3].b.port, "Ethernet3");
	assert_string_equal(f->inv.devices[f->inv.links[3].a.dev].name, "gpu11");
	assert_string_equal(f->inv.links[6].b.port, "y2");
	assert_string_equal(f->inv.devices[f->inv.links[6].a.dev].name, "sw2");
}

static void test_defaults_inherit(void **state)
{
	struct fixture *f = *state;
	const struct rc_device *d;

	assert_int_equal(load(f, HEAD "defaults:\n"
				      "  ssh: {user: ops, port: 2222, command_timeout: 2s}\n"
				      "  credentials: {password_file: /s/default}\n"
				      "  rest: {port: 8443}\n"
				      "switches:\n"
				      "  - name: a\n"
				      "    platform: nvue\n"
				      "  - name: b\n"
				      "    platform: eos\n"
				      "    transport: rest\n"
				      "    ssh: {port: 22}\n"
				      "    rest: {insecure: true}\n"
				      "    credentials: {password_env: B_PW}\n"),
			 0);
	d = dev(f, "a");
	assert_string_equal(d->ssh.user, "ops");
	assert_int_equal(d->ssh.port, 2222);
	assert_int_equal(d->ssh.command_timeout_ms, 2000);
	assert_int_equal(d->ssh.connect_timeout_ms, 10000);
	assert_string_equal(d->cred.password_file, "/s/default");
	assert_int_equal(d->rest.port, 8443);
	assert_false(d->rest.insecure);
	d = dev(f, "b");
	assert_string_equal(d->ssh.user, "ops");
	assert_int_equal(d->ssh.port, 22);
	assert_true(d->rest.insecure);
	assert_int_equal(d->rest.port, 8443);
	assert_string_equal(d->cred.password_env, "B_PW");
	assert_null(d->cred.password_file); /* the other reference is dropped */
	assert_int_equal(f->w.n, 1);
	assert_int_equal(f->w.w[0].line, 14);
	assert_int_equal(f->w.w[0].column, 22);
	assert_non_null(strstr(f->w.w[0].msg, "switches[1].rest.insecure is true"));
}

static void test_host_without_interfaces(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(load(f, HEAD "hosts: [{name: h1}]\n"
				      "switches: [{name: s1, platform: nvue, ports: [swp1]}]\n"
				      "links: [{a: 'h1:anything0', b: 's1:swp1'}]\n"),
			 0);
	assert_string_equal(f->inv.links[0].a.port, "anything0");
	expect_error(f,
		     HEAD "hosts: [{name: h1}]\n"
			  "switches: [{name: s1, platform: nvue, ports: [swp1]}]\n"
			  "links: [{a: 'h1:eth0;id', b: 's1:swp1'}]\n",
		     5, 13, "links[0].a: 'h1:eth0;id' is not a safe endpoint");
}

static void test_link_errors(void **state)
{
	struct fixture *f = *state;
	static const char devs[] = HEAD "hosts: [{name: 'h[1-4]', address: '10.0.0.[1-4]'}]\n"
					"switches: [{name: s1, platform: nvue, ports: [swp1-8]}]\n";
	char buf[1024];

	snprintf(buf, sizeof(buf), "%slinks: [{a: 'h[1-4]:e0', b: 's1:swp[1-3]'}]\n", devs);
	expect_error(f, buf, 5, 29, "links[0]: a expands to 4 endpoints but b to 3");
	snprintf(buf, sizeof(buf), "%slinks: [{a: 'h[1-4]:e[0-1]', b: 's1:swp[1-4]'}]\n", devs);
	expect_error(f, buf, 5, 13, "ranges of 4 and 2 elements");
	snprintf(buf, sizeof(buf), "%slinks: [{a: 'h1:e0', b: 's1:swp9'}]\n", devs);
	expect_error(f, buf, 5, 25, "links[0].b: switch 's1' has no port 'swp9'");
	snprintf(buf, sizeof(buf), "%slinks: [{a: 'h9:e0', b: 's1:swp1'}]\n", devs);
	expect_error(f, buf, 5, 13, "links[0].a: device 'h9' is not in the inventory");
	snprintf(buf, sizeof(buf),
		 "%slinks:\n  - {a: 'h1:e0', b: 's1:swp1'}\n  - {a: 's1:swp1', b: 'h2:e0'}\n",
		 devs);
	expect_error(f, buf, 7, 9, "port 's1:swp1' is already used by the link at 6:21");
	snprintf(buf, sizeof(buf), "%slinks: [{a: 'h1:e0', b: 'h1:e0'}]\n", devs);
	expect_error(f, buf, 5, 25, "port 'h1:e0' is already used by the link at 5:13");
	snprintf(buf, sizeof(buf), "%slinks: [{a: 'h1:e0', b: 's1:swp1', speed: 100Gb}]\n", devs);
	expect_error(f, buf, 5, 43, "links[0].speed: expected a speed");
	snprintf(buf, sizeof(buf), "%slinks: [{a: 'h1:e0', b: 's1:swp1', cable_length: 0m}]\n",
		 devs);
	expect_error(f, buf, 5, 50, "must be at least 1m");
	snprintf(buf, sizeof(buf), "%slinks: [{a: 'h1:e0'}]\n", devs);
	expect_error(f, buf, 5, 9, "links[0]: missing required key 'b'");
	snprintf(buf, sizeof(buf), "%slinks: [{a: ':e0', b: 's1:swp1'}]\n", devs);
	expect_error(f, buf, 5, 13, "expected DEVICE:PORT");
}

static void test_device_errors(void **state)
{
	struct fixture *f = *state;

	expect_error(f, HEAD "hosts: [{name: 'g[1-4]', address: '10.0.0.[1-5]'}]\n", 3, 35,
		     "hosts[0].address: 5 addresses for 4 names");
	expect_error(f, HEAD "hosts: [{name: 'g[1-4]', address: 10.0.0.1}]\n", 3, 35,
		     "one address for 4 devices");
	expect_error(
	    f,
	    HEAD "hosts: [{name: g1, address: 10.0.0.1}]\nswitches: [{name: g1, platform: eos}]\n",
	    4, 12, "device name 'g1' is used twice (first at 3:9)");
	expect_error(f, HEAD "switches: [{name: s, platform: nvue, ports: [swp1-4, 'swp[3-5]']}]\n",
		     3, 54, "switches[0].ports: 'swp3' is listed twice (first at 3:46)");
	expect_error(f, HEAD "switches: [{name: s, platform: nvue, ports: [swp1-1025]}]\n", 3, 46,
		     "more than 1024 ports on one device");
	expect_error(f, HEAD "hosts: [{name: 'h[1-5]x'}, {name: 'h[1-65532]'}]\n", 3, 35,
		     "more than 65536 devices");
	expect_error(f, HEAD "switches: [{name: s, platform: nvue, credentials: {password: pw}}]\n",
		     3, 52,
		     "switches[0].credentials.password: literal passwords are not accepted; use "
		     "password_file or password_env");
	expect_error(
	    f, HEAD "switches: [{name: s, platform: nvue, overrides: {ecn: {probability: 0%}}}]\n",
	    3, 69, "switches[0].overrides.ecn.probability (0%) must be above 0%");
	expect_error(
	    f,
	    HEAD
	    "switches: [{name: s, platform: nvue, overrides: {tolerance: {threshold: 51%}}}]\n",
	    3, 73, "must be between 0% and 50%");
	expect_error(f, HEAD "hosts: [{name: h, address: 'a b'}]\n", 3, 28,
		     "hosts[0].address: 'a b' is not a safe address");
	expect_error(f, HEAD "hosts: [{name: h, role: leaf}]\n", 3, 19,
		     "hosts[0].role: unknown key");
	expect_error(f, HEAD, 1, 1, "the inventory has no hosts and no switches");
	expect_error(f, "apiVersion: rocectl/v1\nkind: Inventory\nhosts: [{name: h}]\nhosts: []\n",
		     4, 1, "hosts: duplicate key (first at 3:1)");
}

/* `cable_rows:` of a SONiC switch: lengths in ascending order, each error at its value. */
static void test_cable_rows(void **state)
{
	struct fixture *f = *state;
	const struct rc_device *d;

	assert_int_equal(load(f, HEAD "switches: [{name: s, platform: sonic, "
				      "cable_rows: [5m, 40m, 300m, 2km]}]\n"),
			 0);
	d = dev(f, "s");
	assert_int_equal(d->n_cable_rows, 4);
	assert_int_equal(d->cable_rows_m[0], 5);
	assert_int_equal(d->cable_rows_m[2], 300);
	assert_int_equal(d->cable_rows_m[3], 2000);
	assert_int_equal(load(f, HEAD "switches: [{name: s, platform: sonic}]\n"), 0);
	assert_int_equal(dev(f, "s")->n_cable_rows, 0);
	expect_error(f, HEAD "switches: [{name: s, platform: sonic, cable_rows: [5m, 40m, 40m]}]\n",
		     3, 61,
		     "switches[0].cable_rows[2] (40m) must be longer than the row before it");
	expect_error(f, HEAD "switches: [{name: s, platform: sonic, cable_rows: [5m, 3 m]}]\n", 3,
		     56, "switches[0].cable_rows[1]: expected a length");
	expect_error(f, HEAD "switches: [{name: s, platform: sonic, cable_rows: [200km]}]\n", 3, 52,
		     "switches[0].cable_rows[0] (200000m) must be between 1m and 100km");
	expect_error(f, HEAD "switches: [{name: s, platform: sonic, cable_rows: []}]\n", 3, 51,
		     "switches[0].cable_rows: expected 1 to 16 cable lengths, got 0");
	expect_error(f, HEAD "switches: [{name: s, platform: sonic, cable_rows: 5m}]\n", 3, 51,
		     "switches[0].cable_rows");
	expect_error(f, HEAD "switches: [{name: s, platform: nvue, cable_rows: [5m]}]\n", 3, 50,
		     "switches[0].cable_rows: only SONiC switches have cable-length rows");
	expect_error(f, HEAD "hosts: [{name: h, cable_rows: [5m]}]\n", 3, 19,
		     "hosts[0].cable_rows: unknown key");
}

static void test_home_unset(void **state)
{
	struct fixture *f = *state;

	unsetenv("HOME");
	expect_error(f, HEAD "defaults: {ssh: {known_hosts: ~/.ssh/kh}}\nhosts: [{name: h}]\n", 3,
		     31, "cannot expand '~/': HOME is not set");
	setenv("HOME", "/home/op", 1);
	assert_int_equal(load(f, HEAD
			      "defaults: {ssh: {known_hosts: /abs/kh, identity_file: rel/id}}\n"
			      "hosts: [{name: h}]\n"),
			 0);
	assert_string_equal(dev(f, "h")->ssh.known_hosts, "/abs/kh");
	assert_string_equal(dev(f, "h")->ssh.identity_file, "rel/id");
}

static void test_policy_per_device(void **state)
{
	struct fixture *f = *state;
	struct rc_policy *base = calloc(1, sizeof(*base)), *out = calloc(1, sizeof(*out));
	char path[4096];
	ptrdiff_t s;

	assert_non_null(base);
	assert_non_null(out);
	assert_int_equal(rc_policy_load(src_path(path, sizeof(path), "policies/roce-lossless.yaml"),
					base, NULL, &f->err),
			 0);
	assert_int_equal(load(f, HEAD
			      "switches:\n"
			      "  - name: ok\n"
			      "    platform: eos\n"
			      "    overrides: {ecn: {min_threshold: 1MB, max_threshold: 10MB}, "
			      "headroom: {mtu: 4200, cable_length: 2km}}\n"
			      "  - name: bad\n"
			      "    platform: eos\n"
			      "    overrides:\n"
			      "      ecn: {min_threshold: 2MB}\n"),
			 0);
	s = rc_inventory_device_index(&f->inv, "ok");
	assert_int_equal(rc_inventory_policy(&f->inv, (size_t)s, base, out, &f->err), 0);
	assert_int_equal(out->ecn.kmin_bytes, 1000000);
	assert_int_equal(out->ecn.kmax_bytes, 10000000);
	assert_int_equal(out->headroom.mtu, 4200);
	assert_int_equal(out->headroom.cable_length_m, 2000);
	assert_int_equal(out->roce_tos, 106);

	s = rc_inventory_device_index(&f->inv, "bad");
	assert_int_equal(rc_inventory_policy(&f->inv, (size_t)s, base, out, &f->err), -EINVAL);
	assert_string_equal(f->err.file, "i.yaml");
	assert_int_equal(f->err.line, 10);
	assert_int_equal(f->err.column, 28);
	assert_string_equal(f->err.msg, "device 'bad': ecn.min_threshold (2MB) must be below "
					"ecn.max_threshold (1.5MB)");
	free(base);
	free(out);
}

static void test_hand_built(void **state)
{
	struct rc_device devs[2];
	struct rc_link link;
	struct rc_inventory inv = {.n_devices = 2, .devices = devs, .n_links = 1, .links = &link};

	(void)state;
	memset(devs, 0, sizeof(devs));
	memset(&link, 0, sizeof(link));
	snprintf(devs[0].name, sizeof(devs[0].name), "h1");
	snprintf(devs[1].name, sizeof(devs[1].name), "s1");
	link.a.dev = 0;
	snprintf(link.a.port, sizeof(link.a.port), "eth0");
	link.b.dev = 1;
	snprintf(link.b.port, sizeof(link.b.port), "swp1");
	/* No index: the lookups fall back to a linear search. */
	assert_ptr_equal(rc_inventory_device(&inv, "s1"), &devs[1]);
	assert_int_equal(rc_inventory_device_index(&inv, "h1"), 0);
	assert_ptr_equal(rc_inventory_link_of(&inv, 1, "swp1"), &link);
	assert_null(rc_inventory_link_of(&inv, 1, "swp2"));
}

static void test_large_inventory(void **state)
{
	struct fixture *f = *state;
	size_t cap = 1 << 20, n = 0;
	char *buf = malloc(cap);

	assert_non_null(buf);
	n += (size_t)snprintf(buf + n, cap - n,
			      HEAD "defaults: {ssh: {identity_file: /etc/rocectl/id_ed25519}}\n"
				   "hosts: [{name: 'h[0001-2048]', interfaces: [e0, e1]}]\n"
				   "switches:\n");
	for (int s = 0; s < 64; s++)
		n += (size_t)snprintf(
		    buf + n, cap - n,
		    "  - {name: leaf%02d, platform: sonic, ports: [Ethernet1-64]}\n", s);
	n += (size_t)snprintf(buf + n, cap - n, "links:\n");
	for (int s = 0; s < 64; s++)
		n += (size_t)snprintf(buf + n, cap - n,
				      "  - {a: 'h[%04d-%04d]:e0', b: 'leaf%02d:Ethernet[1-32]'}\n",
				      s * 32 + 1, s * 32 + 32, s);
	assert_int_equal(rc_inventory_load_buffer("big.yaml", buf, n, &f->inv, NULL, &f->err), 0);
	assert_int_equal(f->inv.n_devices, 2048 + 64);
	assert_int_equal(f->inv.n_links, 2048);
	assert_int_equal(dev(f, "leaf63")->role, RC_ROLE_LEAF);
	assert_non_null(rc_inventory_link_of(
	    &f->inv, (size_t)rc_inventory_device_index(&f->inv, "h2048"), "e0"));
	/* the path given once is kept once, not once per device (include/rocectl/inventory.h,
	 * "Strings") */
	assert_string_equal(dev(f, "h0001")->ssh.identity_file, "/etc/rocectl/id_ed25519");
	assert_ptr_equal(dev(f, "h0001")->ssh.identity_file, dev(f, "leaf63")->ssh.identity_file);
	assert_true(sizeof(struct rc_device) <= 1024);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_ranges),
	    cmocka_unit_test(test_names),
	    cmocka_unit_test_setup_teardown(test_example, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_lockstep_and_roles, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_defaults_inherit, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_host_without_interfaces, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_link_errors, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_cable_rows, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_device_errors, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_home_unset, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_policy_per_device, setup, teardown),
	    cmocka_unit_test(test_hand_built),
	    cmocka_unit_test_setup_teardown(test_large_inventory, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
