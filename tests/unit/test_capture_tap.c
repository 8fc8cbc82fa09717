/* SPDX-License-Identifier: Apache-2.0 */
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
	    "rocectl agent counters --json --interface eth0",
	    "lldpcli -f json0 show neighbors",
	    "cat /etc/sonic/config_db.json",
	    "cat /usr/share/sonic/device/x86_64-mlnx_msn2700-r0/ACS-MSN2700/pg_profile_lookup.ini",
	    NULL};
	static const char *const bad[] = {
	    "configure session s",
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
	    "cat /etc/shadow",
	    "cat /etc/sonic/config_db.json /etc/shadow",
	    "cat /usr/share/sonic/device/../../../etc/pg_profile_lookup.ini",
	    "cat /usr/share/sonic/device/a/b/c/pg_profile_lookup.ini",
	    "cat /usr/share/sonic/device/a b/c/pg_profile_lookup.ini",
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
	/* commands asked at a revision: {"cmd", "revision"} objects */
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

/* Every secret-bearing key of each platform (docs/PLATFORMS.md, "What capture scrubs"), in
 * the shapes the drivers read: SONiC `show runningconfiguration all` (CONFIG_DB as JSON),
 * NVUE `nv config show -o json`, EOS `show running-config` as text and through eAPI (each
 * line a JSON key), and SSH/TLS private keys in text and inside a JSON string. */
static void test_scrub_platform_secrets(void **state)
{
	static const char in[] =
	    "{\"TACPLUS\": {\"global\": {\"auth_type\": \"pap\", \"passkey\": \"tacGlobalPk1\"}},\n"
	    " \"TACPLUS_SERVER\": {\"192.0.2.9\": {\"priority\": \"1\", \"passkey\": \"tac srv "
	    "pk2\"}},\n"
	    " \"RADIUS\": {\"global\": {\"passkey\": \"radGlobalPk3\"}},\n"
	    " \"RADIUS_SERVER\": {\"192.0.2.10\": {\"passkey\": \"radSrvPk4\"}},\n"
	    " \"SNMP_COMMUNITY\": {\"snmpRoComm5\": {\"TYPE\": \"RO\"}, \"snmpRwComm6\": "
	    "{\"TYPE\": "
	    "\"RW\"}},\n"
	    " \"SNMP_USER\": {\"ops\": {\"SNMP_USER_AUTH_PASSWORD\": \"snmpAuthPw7\", "
	    "\"SNMP_USER_ENCRYPTION_PASSWORD\": \"snmpPrivPw8\"}},\n"
	    " \"LDAP\": {\"global\": {\"bind_password\": \"ldapBindPw9\"}}}\n"
	    "SNMP_COMMUNITY|snmpKeyComm10\n"
	    "[{\"set\": {\"system\": {\"aaa\": {\"tacacs\": {\"server\": {\"1\": {\"host\": \"h\", "
	    "\"secret\": \"nvTacSecret11\"}}}, \"radius\": {\"server\": {\"r\": {\"secret\": "
	    "\"nvRadSecret12\"}}}, \"user\": {\"ops\": {\"hashed-password\": "
	    "\"$6$nvSalt13$nvHash13\", \"password\": \"nvPlainPw14\"}}}},\n"
	    " \"service\": {\"snmp-server\": {\"readonly-community\": {\"nvComm15\": {\"access\": "
	    "{\"any\": {}}}}, \"readonly-community-v6\": {\"nvComm16\": {}}, \"username\": "
	    "{\"u\": {\"auth-sha\": {\"nvAuthPw17\": {\"encrypt-aes\": {\"nvPrivPw18\": "
	    "{}}}}}}}}}}]\n"
	    "username admin privilege 15 role network-admin secret sha512 $6$eosSalt19$eosHash19\n"
	    "enable secret sha512 $6$eosEnable20$x\n"
	    "tacacs-server key 7 070E234F1F5B4A21\n"
	    "radius-server host 192.0.2.11 key 7 0207165218120E22\n"
	    "snmp-server community eosComm23 ro\n"
	    "username ops sshkey ssh-rsa AAAAB3NzaEosPub24 ops@host\n"
	    "{\"cmds\": {\"tacacs-server key 7 13061E010803025\": null, "
	    "\"snmp-server community eosJsonComm26 rw\": null}}\n"
	    "-----BEGIN RSA PRIVATE KEY-----\nMIIEpemRsaPriv27\nAAAA\n-----END RSA PRIVATE "
	    "KEY-----\n"
	    "{\"key\": \"-----BEGIN PRIVATE KEY-----\\nMIIJsonPemPriv28\\n-----END PRIVATE "
	    "KEY-----\\n\", \"cert\": \"-----BEGIN CERTIFICATE-----\\nMIICert\\n-----END "
	    "CERTIFICATE-----\"}\n"
	    "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaCutPriv29\n";
	static const char *const gone[] = {"tacGlobalPk1",
					   "tac srv pk2",
					   "srv pk2",
					   "radGlobalPk3",
					   "radSrvPk4",
					   "snmpRoComm5",
					   "snmpRwComm6",
					   "snmpAuthPw7",
					   "snmpPrivPw8",
					   "ldapBindPw9",
					   "snmpKeyComm10",
					   "nvTacSecret11",
					   "nvRadSecret12",
					   "nvHash13",
					   "nvPlainPw14",
					   "nvComm15",
					   "nvComm16",
					   "nvAuthPw17",
					   "nvPrivPw18",
					   "eosHash19",
					   "eosEnable20",
					   "070E234F1F5B4A21",
					   "0207165218120E22",
					   "eosComm23",
					   "AAAAB3NzaEosPub24",
					   "13061E010803025",
					   "eosJsonComm26",
					   "MIIEpemRsaPriv27",
					   "MIIJsonPemPriv28",
					   "b3BlbnNzaCutPriv29",
					   NULL};
	static const char *const kept[] = {"\"auth_type\": \"pap\"",
					   "\"TYPE\": \"RO\"",
					   "\"SNMP_COMMUNITY\": {\"<secret-1>\": {",
					   "\"<secret-2>\"",
					   "\"host\": \"h\"",
					   "tacacs-server key <secret>",
					   "snmp-server community <secret> ro",
					   "<private-key>",
					   "MIICert",
					   NULL};
	char *out;
	size_t n;
	(void)state;

	assert_int_equal(rc_scrub(in, strlen(in), NULL, &out, &n), 0);
	for (int i = 0; gone[i]; i++)
		if (strstr(out, gone[i]))
			fail_msg("'%s' left in:\n%s", gone[i], out);
	for (int i = 0; kept[i]; i++)
		if (!strstr(out, kept[i]))
			fail_msg("'%s' missing in:\n%s", kept[i], out);
	free(out);
}

/* Device output is untrusted: secrets nested in secrets however deep are scrubbed in one pass
 * (no recursion to overflow), and a cut answer ends the scrubbing, not the program. */
static void test_scrub_nested_and_cut(void **state)
{
	static const char head[] = "{\"community\": ";
	const size_t levels = 100000;
	size_t len = sizeof(head) - 1 + levels * 26 + 64, o = 0, n;
	char *in = malloc(len), *out;
	(void)state;

	assert_non_null(in);
	o += (size_t)snprintf(in + o, len - o, "%s", head);
	for (size_t i = 0; i < levels; i++)
		o += (size_t)snprintf(in + o, len - o, "{\"deepSecret\": {\"key\": ");
	snprintf(in + o, len - o, "\"innerPw\"");
	assert_int_equal(rc_scrub(in, strlen(in), NULL, &out, &n), 0);
	assert_null(strstr(out, "deepSecret"));
	assert_null(strstr(out, "innerPw"));
	free(out);
	free(in);
	{
		static const char cut[] = "{\"SNMP_COMMUNITY\": {\"pub";
		static const char cut2[] = "\"passkey\": \"abc";

		assert_int_equal(rc_scrub(cut, strlen(cut), NULL, &out, &n), 0);
		assert_null(strstr(out, "pub"));
		free(out);
		assert_int_equal(rc_scrub(cut2, strlen(cut2), NULL, &out, &n), 0);
		assert_null(strstr(out, "abc"));
		free(out);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_read_only),
	    cmocka_unit_test(test_scrub),
	    cmocka_unit_test(test_scrub_platform_secrets),
	    cmocka_unit_test(test_scrub_nested_and_cut),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
