/* SPDX-License-Identifier: Apache-2.0 */
/* The controller/agent handshake (drivers/host/agent_answer.c): an answer of another
 * protocol, or of an agent older than the handshake, is refused with both sides' protocol
 * and version in the message; the host's version text is bounded and made printable. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../../drivers/host/agent_answer.h"

static int check(const char *json, struct rc_err *err)
{
	cJSON *j = cJSON_Parse(json);
	int rc;

	assert_non_null(j);
	memset(err, 0, sizeof(*err));
	rc = rc_agent_protocol_check("gpu001", j, err);
	cJSON_Delete(j);
	return rc;
}

static void test_same_protocol(void **state)
{
	char buf[128];
	struct rc_err err;

	(void)state;
	snprintf(buf, sizeof(buf), "{\"protocol\":%d,\"rocectl_version\":\"9.9.9\"}",
		 RC_AGENT_PROTOCOL);
	assert_int_equal(check(buf, &err), 0);
}

static void test_other_protocol(void **state)
{
	char want[256];
	struct rc_err err;

	(void)state;
	assert_int_equal(check("{\"protocol\":7,\"rocectl_version\":\"0.9.0\"}", &err), -EPROTO);
	snprintf(want, sizeof(want),
		 "'gpu001': the agent speaks protocol 7 (rocectl 0.9.0), this controller protocol "
		 "%d (rocectl %s): install the same rocectl version on the host",
		 RC_AGENT_PROTOCOL, ROCECTL_VERSION);
	assert_string_equal(err.msg, want);
}

static void test_before_handshake(void **state)
{
	struct rc_err err;

	(void)state;
	assert_int_equal(check("{\"schema\":\"rocectl.agent-state/v1\",\"interfaces\":[]}", &err),
			 -EPROTO);
	assert_non_null(strstr(err.msg, "speaks protocol none (rocectl unknown)"));
	assert_int_equal(check("{\"protocol\":\"1\"}", &err), -EPROTO);
	assert_int_equal(check("{\"protocol\":1.5}", &err), -EPROTO);
	assert_int_equal(check("{\"protocol\":-1}", &err), -EPROTO);
	assert_non_null(strstr(err.msg, "protocol none"));
}

static void test_hostile_version(void **state)
{
	struct rc_err err;

	(void)state;
	assert_int_equal(check("{\"protocol\":0,\"rocectl_version\":\"\\u001b[31mred\\nline2 "
			       "0123456789012345678901234567890123456789\"}",
			       &err),
			 -EPROTO);
	assert_non_null(strstr(err.msg, "(rocectl ?[31mred)"));
	assert_null(strchr(err.msg, '\033'));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_same_protocol),
	    cmocka_unit_test(test_other_protocol),
	    cmocka_unit_test(test_before_handshake),
	    cmocka_unit_test(test_hostile_version),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
