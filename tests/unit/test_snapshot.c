/* SPDX-License-Identifier: Apache-2.0 */
/* The snapshot transport (drivers/transport/snapshot.c, docs/SNAPSHOT.md): capture files found
 * by their `# command:` line, raw answers by name, NVUE's `&&` line piece by piece, eAPI
 * answered command by command; writes refused through the SSH and REST transports; a
 * missing answer names the file expected; a capture without the end of its header is none. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cJSON.h>
#include <cmocka.h>

#include "rocectl/transport.h"

static char root[] = "/tmp/rocectl-snap-XXXXXX";

static void put(const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/sw1/%s", root, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	char dir[512];

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(dir, sizeof(dir), "%s/sw1", root);
	assert_int_equal(mkdir(dir, 0755), 0);
	put("07-show-lldp-neighbors.txt", "# rocectl-capture v1\n# platform: eos\n"
					  "# command: show lldp neighbors\n# format: json\n# ---\n"
					  "{\"lldpNeighbors\": []}");
	put("08-cut.txt", "# rocectl-capture v1\n# command: show version\n# format: text\n");
	put("show-pfc-counters.txt", "Port Rx PFC0\n");
	put("nv-show-qos-o-json.json", "{\"a\":1}\n");
	put("nv-show-interface-swp1-qos-o-json.json", "{\"b\":2}\n");
	put("show-priority-flow-control-counters.rev3.json", "{\"interfaceCounters\": {}}");
	return 0;
}

static int teardown(void **state)
{
	char cmd[600];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd);
}

static void test_answers(void **state)
{
	struct rc_err err = {0};
	char *out = NULL;
	size_t len = 0;

	(void)state;
	assert_int_equal(rc_snapshot_answer(root, "sw1", "show lldp neighbors", &out, &len, &err),
			 0);
	assert_string_equal(out, "{\"lldpNeighbors\": []}");
	free(out);
	assert_int_equal(rc_snapshot_answer(root, "sw1", "show pfc counters", &out, &len, &err), 0);
	assert_string_equal(out, "Port Rx PFC0\n");
	free(out);
	assert_int_equal(
	    rc_snapshot_answer(root, "sw1",
			       "nv show qos -o json && nv show interface swp1 qos -o json", &out,
			       &len, &err),
	    0);
	assert_string_equal(out, "{\"a\":1}\n{\"b\":2}\n");
	free(out);
	/* the header never ends: not an answer, and the message says what was expected */
	assert_int_equal(rc_snapshot_answer(root, "sw1", "show version", &out, &len, &err),
			 -ENOENT);
	assert_non_null(strstr(err.msg, "'sw1'"));
	assert_non_null(strstr(err.msg, "'show version'"));
	assert_non_null(strstr(err.msg, "/sw1/show-version.txt"));
	assert_int_equal(rc_snapshot_answer(root, "..", "show version", &out, &len, &err), -EINVAL);
	assert_int_equal(rc_snapshot_answer(root, "sw2", "show version", &out, &len, &err),
			 -ENOENT);
}

static void test_eapi(void **state)
{
	static const char req[] =
	    "{\"jsonrpc\":\"2.0\",\"method\":\"runCmds\",\"id\":\"r-1\",\"params\":{\"version\":1,"
	    "\"cmds\":[\"enable\",{\"cmd\":\"show priority-flow-control counters\",\"revision\":3},"
	    "\"show lldp neighbors\"],\"format\":\"json\"}}";
	struct rc_err err = {0};
	char *out = NULL;
	size_t len = 0;
	cJSON *j;

	(void)state;
	assert_int_equal(rc_snapshot_eapi(root, "sw1", req, strlen(req), &out, &len, &err), 0);
	j = cJSON_Parse(out);
	assert_string_equal(cJSON_GetObjectItem(j, "id")->valuestring, "r-1");
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(j, "result")), 3);
	assert_non_null(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "result"), 1),
					    "interfaceCounters"));
	cJSON_Delete(j);
	free(out);
}

/* Through the transports: nothing connects, and a write is refused before any file. */
static void test_refuses_writes(void **state)
{
	struct rc_device dev = {.name = "sw1", .address = "192.0.2.1"};
	struct rc_run_opts opts = {.snapshot = root};
	struct rc_ssh_result res;
	struct rc_rest_response resp;
	struct rc_err err = {0};
	struct rc_ssh *ssh = NULL;
	struct rc_rest *rest = NULL;

	(void)state;
	assert_int_equal(rc_ssh_open(&dev, &opts, &ssh, &err), 0);
	assert_int_equal(rc_ssh_run(ssh, "show pfc counters", NULL, 0, &res, &err), 0);
	assert_int_equal(res.exit_status, 0);
	rc_ssh_result_free(&res);
	assert_int_equal(rc_ssh_run(ssh, "sudo config apply-patch /dev/stdin", "[]", 2, &res, &err),
			 -EPERM);
	assert_non_null(strstr(err.msg, "reads only"));
	rc_ssh_result_free(&res);
	assert_int_equal(rc_ssh_run(ssh, "nv config apply -y", NULL, 0, &res, &err), -EPERM);
	rc_ssh_result_free(&res);
	rc_ssh_close(ssh);
	assert_int_equal(rc_rest_open(&dev, &opts, "/nvue_v1", 443, &rest, &err), 0);
	assert_int_equal(rc_rest_request(rest, "PATCH", "/qos?rev=2", "{}", 2, NULL, &resp, &err),
			 -EPERM);
	rc_rest_response_free(&resp);
	assert_int_equal(rc_rest_request(rest, "POST", "/revision", NULL, 0, NULL, &resp, &err),
			 -EPERM);
	rc_rest_response_free(&resp);
	rc_rest_close(rest);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_answers),
	    cmocka_unit_test(test_eapi),
	    cmocka_unit_test(test_refuses_writes),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
