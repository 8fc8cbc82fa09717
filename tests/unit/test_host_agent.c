/* SPDX-License-Identifier: Apache-2.0 */
/* What a remote host's agent answers the controller (drivers/host/agent_answer.c): a host
 * without rocectl prints nothing and exits 127; a broken one prints garbage.  Each must be
 * a clear error for that device, never a crash and never a parsed state. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../drivers/host/agent_answer.h"

static int judge(const char *out, size_t len, const char *errout, int status, struct rc_err *e)
{
	cJSON *j = NULL;
	int rc;

	memset(e, 0, sizeof(*e));
	rc = rc_agent_answer_parse("gpu001", "rocectl agent state", out, len, errout,
				   errout ? strlen(errout) : 0, status, &j, e);
	if (rc)
		assert_null(j);
	else
		assert_true(cJSON_IsObject(j));
	cJSON_Delete(j);
	return rc;
}

static void nothing_printed_is_an_error(void **state)
{
	struct rc_err e;

	(void)state;
	/* What the transport hands over when the command printed nothing: no buffer. */
	assert_int_equal(judge(NULL, 0, "bash: rocectl: command not found\n", 127, &e), -EPROTO);
	assert_non_null(strstr(e.msg, "'gpu001'"));
	assert_non_null(strstr(e.msg, "not installed"));
	assert_non_null(strstr(e.msg, "command not found"));
	assert_int_equal(judge(NULL, 0, NULL, 0, &e), -EPROTO);
	assert_non_null(strstr(e.msg, "is empty"));
	assert_int_equal(judge("", 0, NULL, -1, &e), -EPROTO);
}

static void garbage_is_an_error(void **state)
{
	static const char *bad[] = {
	    "Segmentation fault",
	    "{\"interfaces\":[",
	    "[]",
	    "\"x\"",
	    "42",
	    "null",
	    "{} trailing",
	    "{}{}",
	    "{\"a\":1}\n\nmore",
	};
	struct rc_err e;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(judge(bad[i], strlen(bad[i]), NULL, 0, &e), -EPROTO);
		assert_non_null(strstr(e.msg, "rocectl agent state"));
	}
	assert_int_equal(judge("oops", 4, "error: bad\nmore", 3, &e), -EPROTO);
	assert_non_null(strstr(e.msg, "exit 3: error: bad"));
}

static void truncated_nul_and_non_utf8_are_errors(void **state)
{
	static const char nul[] = "{\"a\":\"x\0y\"}";
	static const char *latin1 = "{\"a\":\"caf\xe9\"}";
	static const char *overlong = "{\"a\":\"\xc0\xaf\"}";
	static const char *surrogate = "{\"a\":\"\xed\xa0\x80\"}";
	static const char *cut = "{\"a\":\"\xe2\x82\"}";
	struct rc_err e;

	(void)state;
	assert_int_equal(judge(nul, sizeof(nul) - 1, NULL, 0, &e), -EPROTO);
	assert_non_null(strstr(e.msg, "NUL"));
	assert_int_equal(judge(latin1, strlen(latin1), NULL, 0, &e), -EPROTO);
	assert_non_null(strstr(e.msg, "UTF-8"));
	assert_int_equal(judge(overlong, strlen(overlong), NULL, 0, &e), -EPROTO);
	assert_int_equal(judge(surrogate, strlen(surrogate), NULL, 0, &e), -EPROTO);
	assert_int_equal(judge(cut, strlen(cut), NULL, 0, &e), -EPROTO);
	/* A length shorter than the text: only that much is read. */
	assert_int_equal(judge("{\"a\":1}", 5, NULL, 0, &e), -EPROTO);
}

static void huge_is_capped(void **state)
{
	size_t n = RC_AGENT_ANSWER_MAX + 1;
	char *big = malloc(n);
	struct rc_err e;

	(void)state;
	assert_non_null(big);
	memset(big, ' ', n);
	big[0] = '{';
	big[n - 1] = '}';
	assert_int_equal(judge(big, n, NULL, 0, &e), -EPROTO);
	assert_non_null(strstr(e.msg, "exceeds"));
	free(big);
}

static void an_object_is_accepted_whatever_the_exit(void **state)
{
	static const char *ok = "{\"status\":\"error\",\"error\":\"caf\xc3\xa9\"}\n";
	struct rc_err e;

	(void)state;
	assert_int_equal(judge(ok, strlen(ok), NULL, 0, &e), 0);
	/* The agent reports its own failure in the object; the caller reads it. */
	assert_int_equal(judge(ok, strlen(ok), NULL, 1, &e), 0);
}

/* The "lldp" key of `agent state`: each way it can say something, and names lldpd.c would
 * refuse skipped, never taken as a neighbour. */
static int lldp_of(const char *answer, struct rc_neighbors *nb, struct rc_err *e)
{
	cJSON *j = cJSON_Parse(answer);
	int rc;

	assert_non_null(j);
	*nb = (struct rc_neighbors){0};
	rc = rc_agent_lldp_parse("h1", j, nb, e);
	cJSON_Delete(j);
	return rc;
}

static void lldp_answers(void **unused)
{
	struct rc_neighbors nb;
	struct rc_err e = {0};

	(void)unused;
	assert_int_equal(lldp_of("{\"rocectl_version\":\"0.0.9\"}", &nb, &e), -EPROTO);
	assert_non_null(strstr(e.msg, "rocectl 0.0.9"));
	assert_non_null(strstr(e.msg, "older"));
	rc_neighbors_fini(&nb);
	assert_int_equal(
	    lldp_of("{\"lldp\":{\"status\":\"no-agent\",\"error\":\"no lldpd\"}}", &nb, &e),
	    -ENOENT);
	assert_non_null(strstr(e.msg, "'h1': no lldpd"));
	rc_neighbors_fini(&nb);
	assert_int_equal(lldp_of("{\"lldp\":{\"status\":\"error\"}}", &nb, &e), -EIO);
	rc_neighbors_fini(&nb);
	assert_int_equal(lldp_of("{\"lldp\":{\"status\":\"ok\",\"neighbors\":{}}}", &nb, &e),
			 -EPROTO);
	assert_non_null(strstr(e.msg, "no neighbour list"));
	rc_neighbors_fini(&nb);
	assert_int_equal(
	    lldp_of("{\"lldp\":{\"status\":\"ok\",\"neighbors\":["
		    "{\"interface\":\"eth0\",\"system_name\":\"leaf01\",\"port_id\":\"swp1\"},"
		    "{\"interface\":\"eth1\",\"system_name\":\"leaf 02\",\"port_id\":\"swp1\"},"
		    "{\"interface\":\"eth2\",\"system_name\":\"leaf03\"},"
		    "{\"interface\":3,\"system_name\":\"leaf04\",\"port_id\":\"swp1\"}]}}",
		    &nb, &e),
	    0);
	assert_int_equal(nb.n, 1);
	assert_string_equal(nb.v[0].port, "eth0");
	assert_string_equal(nb.v[0].device, "leaf01");
	assert_string_equal(nb.v[0].remote_port, "swp1");
	rc_neighbors_fini(&nb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(nothing_printed_is_an_error),
	    cmocka_unit_test(garbage_is_an_error),
	    cmocka_unit_test(truncated_nul_and_non_utf8_are_errors),
	    cmocka_unit_test(huge_is_capped),
	    cmocka_unit_test(an_object_is_accepted_whatever_the_exit),
	    cmocka_unit_test(lldp_answers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
