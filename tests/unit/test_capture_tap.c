/* The capture tap's rules (drivers/transport/tap.c): only read-only commands and requests
 * pass, and answers are scrubbed of addresses, MACs, secrets and serial numbers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rocectl/transport.h"

static void test_read_only(void **state)
{
	static const char *const ok[] = {
	    "show running-config",
	    "show priority-flow-control counters | json",
	    "show priority-flow-control counters | json revision 3",
	    "nv show qos -o json && nv show interface swp1 qos -o json",
	    "show runningconfiguration all",
	    "sonic-db-cli APPL_DB HGETALL 'BUFFER_PG_TABLE:Ethernet0:3'",
	    "rocectl agent state",
	    "rocectl agent state --raw --interface eth0",
	    "/opt/rocectl/bin/rocectl agent state --raw",
	    "sudo -n /usr/bin/rocectl agent state",
	    "sudo -n rocectl agent show --json",
	    "lldpcli -f json0 show neighbors",
	    NULL};
	static const char *const bad[] = {"configure session s",
					  "nv config apply -y",
					  "sudo config apply-patch /dev/stdin",
					  "show running-config > /mnt/flash/x",
					  "show version; reload",
					  "copy running-config startup-config",
					  "sonic-db-cli CONFIG_DB HSET 'PORT|Ethernet0' mtu 9100",
					  "show $(reboot)",
					  "write memory",
					  "",
					  "sudo -n /usr/bin/rocectl agent write",
					  "/usr/bin/rocectl-evil agent state",
					  "/usr/bin/notrocectl agent state",
					  "sudo /usr/bin/rocectl agent state",
					  "lldpcli configure system hostname x",
					  "lldpcli -c /tmp/x show neighbors",
					  "show lldp neighbors | json revision 3x",
					  "show lldp neighbors | json revision 100",
					  NULL};
	static const char eapi_show[] = "{\"jsonrpc\":\"2.0\",\"method\":\"runCmds\",\"params\":"
					"{\"cmds\":[\"enable\",\"show qos maps\"]}}";
	/* eAPI command objects {"cmd", "revision"} (drivers/switch/eos_ops.c) */
	static const char eapi_rev[] =
	    "{\"jsonrpc\":\"2.0\",\"method\":\"runCmds\",\"params\":"
	    "{\"cmds\":[\"enable\",{\"cmd\":\"show priority-flow-control "
	    "counters\",\"revision\":3}]}}";
	static const char eapi_rev_cfg[] = "{\"jsonrpc\":\"2.0\",\"method\":\"runCmds\","
					   "\"params\":{\"cmds\":[{\"cmd\":\"configure\","
					   "\"revision\":1}]}}";
	static const char eapi_cfg[] = "{\"jsonrpc\":\"2.0\",\"method\":\"runCmds\",\"params\":"
				       "{\"cmds\":[\"enable\",\"configure\",\"qos map dscp 26 to "
				       "traffic-class 3\"]}}";
	(void)state;

	for (int i = 0; ok[i]; i++)
		if (!rc_tap_read_only_cmd(ok[i]))
			fail_msg("refused: %s", ok[i]);
	for (int i = 0; bad[i]; i++)
		if (rc_tap_read_only_cmd(bad[i]))
			fail_msg("accepted: %s", bad[i]);
	assert_true(rc_tap_read_only_http("GET", "/qos", NULL, 0));
	assert_false(rc_tap_read_only_http("PATCH", "/qos", "{}", 2));
	assert_false(rc_tap_read_only_http("POST", "/revision", NULL, 0));
	assert_true(rc_tap_read_only_http("POST", "/command-api", eapi_show, strlen(eapi_show)));
	assert_false(rc_tap_read_only_http("POST", "/command-api", eapi_cfg, strlen(eapi_cfg)));
	assert_true(rc_tap_read_only_http("POST", "/command-api", eapi_rev, strlen(eapi_rev)));
	assert_false(
	    rc_tap_read_only_http("POST", "/command-api", eapi_rev_cfg, strlen(eapi_rev_cfg)));
	assert_false(rc_tap_read_only_http("POST", "/command-api", "{", 1));
}

static void test_scrub(void **state)
{
	static const char in[] =
	    "interface Management1\n   ip address 10.73.255.122/24\n"
	    "ipv6 address 2001:db8::1/64 fe80::1\n"
	    "\"mac\": \"00:1c:73:aa:bb:cc\", \"systemMacAddress\": \"001c.73aa.bbcc\"\n"
	    "username admin privilege 15 secret sha512 $6$abc$def\n"
	    "snmp-server community public ro\n"
	    "Serial number:          JPE12345678\n"
	    "{\"serialNumber\": \"JPE12345678\", \"token\": \"abcd\"}\n"
	    "uptime 07:36:01, version 4.31.2F, timeout 0.30, EOS-4.31.2F hunter2pw\n";
	static const char *const lit[] = {"hunter2pw", NULL};
	char *out;
	size_t n;
	(void)state;

	assert_int_equal(rc_scrub(in, strlen(in), lit, &out, &n), 0);
	assert_int_equal(strlen(out), n);
	{
		static const char *const gone[] = {
		    "10.73.255.122",  "2001:db8::1", "fe80::1", "00:1c:73:aa:bb:cc",
		    "001c.73aa.bbcc", "$6$abc$def",  "public",	"JPE12345678",
		    "abcd",	      "hunter2pw",   NULL};
		static const char *const kept[] = {
		    "07:36:01",		  "4.31.2F",   "0.30",	"EOS-4.31.2F",
		    "<ipv4>/24",	  "<ipv6>/64", "<mac>", "secret <secret>",
		    "community <secret>", "<serial>",  NULL};

		for (int i = 0; gone[i]; i++)
			if (strstr(out, gone[i]))
				fail_msg("'%s' left in:\n%s", gone[i], out);
		for (int i = 0; kept[i]; i++)
			if (!strstr(out, kept[i]))
				fail_msg("'%s' missing in:\n%s", kept[i], out);
	}
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_read_only),
	    cmocka_unit_test(test_scrub),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
