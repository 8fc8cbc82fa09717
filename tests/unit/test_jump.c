/* SPDX-License-Identifier: Apache-2.0 */
/* Inventory proxy_jump: the [user@]host[:port] parser, inheritance (defaults, then the
 * entry: most specific wins, `none` cancels), and load errors with their positions. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "inventory_fixture.h"
#include "rocectl/inventory.h"
#include "rocectl/transport.h"

static void parses(const char *s, const char *user, const char *host, unsigned port)
{
	struct rc_jump j;
	const char *why = NULL;

	if (rc_jump_parse(s, &j, &why))
		fail_msg("'%s' refused: %s", s, why);
	assert_string_equal(j.user, user);
	assert_string_equal(j.host, host);
	assert_int_equal(j.port, port);
}

static void refused(const char *s, const char *why_part)
{
	struct rc_jump j;
	const char *why = NULL;

	if (!rc_jump_parse(s, &j, &why))
		fail_msg("'%s' accepted as %s@%s:%u", s, j.user, j.host, j.port);
	if (!why || !strstr(why, why_part))
		fail_msg("'%s': why '%s' lacks '%s'", s, why ? why : "(null)", why_part);
}

static void test_parse(void **state)
{
	struct rc_jump j;
	const char *why;
	char buf[128];

	(void)state;
	parses("bastion", "", "bastion", 22);
	parses("bastion.example.com:2222", "", "bastion.example.com", 2222);
	parses("ops@10.0.0.5", "ops", "10.0.0.5", 22);
	parses("ops_1@10.0.0.5:65535", "ops_1", "10.0.0.5", 65535);
	parses("[2001:db8::1]:2200", "", "2001:db8::1", 2200);
	parses("jump@[2001:db8::1]", "jump", "2001:db8::1", 22);
	parses("2001:db8::1", "", "2001:db8::1", 22); /* bare IPv6: no port */
	assert_int_equal(rc_jump_parse("none", &j, &why), 0);
	assert_string_equal(j.host, "");

	refused("", "empty");
	refused("ops@", "host is empty");
	refused(":22", "host is empty");
	refused("bastion:", "expected a port");
	refused("bastion:0", "between 1 and 65535");
	refused("bastion:65536", "between 1 and 65535");
	refused("bastion:99999999999999999999", "between 1 and 65535");
	refused("bastion:22x", "not a number");
	refused("bastion:-1", "not a number");
	refused("a@b@bastion", "more than one '@'");
	refused("o;ps@bastion", "not a safe login name");
	refused("-oProxyCommand=x@bastion", "not a safe login name");
	refused("bastion;reboot", "not an IPv4 or IPv6 address or a DNS name");
	refused("-bastion", "not an IPv4 or IPv6 address or a DNS name");
	refused("bas tion", "not an IPv4 or IPv6 address or a DNS name");
	refused("bastion/x", "not an IPv4 or IPv6 address or a DNS name");
	refused("[10.0.0.1]:22", "brackets are for IPv6");
	refused("[2001:db8::1", "without ']'");
	refused("[2001:db8::1]x", "expected ':PORT'");

	assert_int_equal(rc_jump_parse("ops@[2001:db8::1]:2200", &j, &why), 0);
	rc_jump_format(&j, buf, sizeof(buf));
	assert_string_equal(buf, "ops@[2001:db8::1]:2200");
	assert_int_equal(rc_jump_parse("bastion", &j, &why), 0);
	rc_jump_format(&j, buf, sizeof(buf));
	assert_string_equal(buf, "bastion:22");
	assert_int_equal(rc_jump_parse("none", &j, &why), 0);
	rc_jump_format(&j, buf, sizeof(buf));
	assert_string_equal(buf, "none");
}

static void test_inherit(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(load(f, HEAD "defaults:\n"
				      "  proxy_jump: ops@bastion.dc1:2222\n"
				      "hosts:\n"
				      "  - name: gpu[01-02]\n"
				      "  - name: gpu03\n"
				      "    proxy_jump: none\n"
				      "  - name: gpu04\n"
				      "    transport: local\n"
				      "switches:\n"
				      "  - name: leaf[01-02]\n"
				      "    platform: nvue\n"
				      "    proxy_jump: '[2001:db8::9]'\n"
				      "  - name: spine01\n"
				      "    platform: eos\n"
				      "    transport: rest\n"
				      "    proxy_jump: none\n"
				      "  - name: spine02\n"
				      "    platform: sonic\n"),
			 0);
	/* the defaults reach every entry of a range ... */
	assert_string_equal(dev(f, "gpu01")->jump.user, "ops");
	assert_string_equal(dev(f, "gpu02")->jump.host, "bastion.dc1");
	assert_int_equal(dev(f, "gpu02")->jump.port, 2222);
	assert_int_equal(dev(f, "gpu02")->jump.pos.line, 4);
	/* ... `none` cancels them, an entry's own wins for every device it expands to */
	assert_string_equal(dev(f, "gpu03")->jump.host, "");
	assert_string_equal(dev(f, "leaf01")->jump.host, "2001:db8::9");
	assert_string_equal(dev(f, "leaf02")->jump.host, "2001:db8::9");
	assert_string_equal(dev(f, "leaf02")->jump.user, "");
	assert_int_equal(dev(f, "leaf02")->jump.port, 22);
	assert_string_equal(dev(f, "spine01")->jump.host, "");
	assert_string_equal(dev(f, "spine02")->jump.host, "bastion.dc1");

	/* without any proxy_jump, none */
	assert_int_equal(load(f, HEAD "hosts:\n  - name: gpu01\n"), 0);
	assert_string_equal(dev(f, "gpu01")->jump.host, "");
}

static void test_errors(void **state)
{
	struct fixture *f = *state;

	expect_error(f, HEAD "defaults:\n  proxy_jump: 'bastion:0'\nhosts:\n  - name: a\n", 4, 15,
		     "defaults.proxy_jump: 'bastion:0': the port must be between 1 and 65535 "
		     "(expected [user@]host[:port] or none)");
	expect_error(f, HEAD "hosts:\n  - name: a\n    proxy_jump: 'ops@'\n", 5, 17,
		     "hosts[0].proxy_jump: 'ops@': the host is empty");
	expect_error(f, HEAD "hosts:\n  - name: a\n    proxy_jump: 'b;reboot'\n", 5, 17,
		     "not an IPv4 or IPv6 address or a DNS name");
	expect_error(f, HEAD "hosts:\n  - name: a\n    proxy_jump: 'r$(x)@b'\n", 5, 17,
		     "not a safe login name");
	expect_error(f, HEAD "hosts:\n  - name: a\n    proxy_jump: {host: b}\n", 5, 17,
		     "hosts[0].proxy_jump: expected a string");
	expect_error(f,
		     HEAD "switches:\n  - name: s\n    platform: eos\n    transport: rest\n"
			  "    proxy_jump: bastion\n",
		     7, 17,
		     "switches[0].proxy_jump: applies to SSH only, and this switch uses "
		     "transport: rest");
	expect_error(f,
		     HEAD "defaults:\n  proxy_jump: bastion\n"
			  "switches:\n  - name: s\n    platform: eos\n    transport: rest\n",
		     6, 5,
		     "switches[0]: transport rest does not go through the jump host "
		     "'bastion:22' inherited from defaults.proxy_jump (4:15)");
	expect_error(f, HEAD "hosts:\n  - name: a\n    transport: local\n    proxy_jump: b\n", 6,
		     17,
		     "hosts[0].proxy_jump: applies to SSH only, and this host uses transport: "
		     "local");
}

/* The transport: a jump host that does not answer is an error naming it and the device,
 * quickly; a jump host that is not a host name (an inventory built by hand, bypassing the
 * loader) is refused before any connection. */
static void test_transport(void **state)
{
	struct rc_run_opts opts = {0};
	struct rc_device d;
	struct rc_err err = {0};
	struct rc_ssh *s = (struct rc_ssh *)1;
	const char *why;

	(void)state;
	memset(&d, 0, sizeof(d));
	snprintf(d.name, sizeof(d.name), "leaf01");
	snprintf(d.address, sizeof(d.address), "127.0.0.1");
	d.ssh.known_hosts = "/nonexistent/known_hosts";
	d.ssh.connect_timeout_ms = 3000;
	assert_int_equal(rc_jump_parse("ops@127.0.0.1:1", &d.jump, &why), 0);
	assert_int_equal(rc_ssh_open(&d, &opts, &s, &err), -EHOSTUNREACH);
	assert_null(s);
	if (!strstr(err.msg, "cannot connect to jump host 'ops@127.0.0.1:1' of 'leaf01' "
			     "(127.0.0.1:1)"))
		fail_msg("%s", err.msg);

	s = (struct rc_ssh *)1;
	snprintf(d.jump.host, sizeof(d.jump.host), "-oProxyCommand=id");
	assert_int_equal(rc_ssh_open(&d, &opts, &s, &err), -EINVAL);
	assert_null(s);
	assert_non_null(strstr(err.msg, "jump host '-oProxyCommand=id' is not a host name"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse),
	    cmocka_unit_test_setup_teardown(test_inherit, inventory_setup, teardown),
	    cmocka_unit_test_setup_teardown(test_errors, inventory_setup, teardown),
	    cmocka_unit_test(test_transport),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
