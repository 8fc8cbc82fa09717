/* SPDX-License-Identifier: Apache-2.0 */
/* The host LLDP parser against lldpd's own expectation of its json0 output
 * ($CONFORMANCE_DIR/host/lldp/lldpcli.json0.show_neighbors_details.expected.json, lldpd's
 * tests/integration/test_lldpcli.py test_json0_output; host/FACTS.md fact 13): rocectl sends
 * `lldpcli -f json0 show neighbors` (drivers/host/lldpd.h) and reads the neighbour lldpd
 * prints, and every cut of that answer is an error naming the command or fewer neighbours,
 * never a neighbour lldpd did not print.  A missing artifact fails the test. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../drivers/host/lldpd.h"
#include "../unit/testutil.h"

#define JSON0 "host/lldp/lldpcli.json0.show_neighbors_details.expected.json"

/* eth0's neighbour as lldpd prints it: chassis name ns-2.example.com, port ID the MAC
 * 00:00:00:00:00:02 (type mac) */
static void test_json0_neighbour(void **state)
{
	struct rc_neighbors nb = {0};
	struct rc_err err = {0};
	size_t len;
	char *text = rc_test_artifact(JSON0, &len);
	(void)state;

	if (rc_lldpd_parse(text, len, "gpu1", &nb, &err))
		fail_msg("%s: %s", JSON0, err.msg);
	assert_int_equal(nb.n, 1);
	assert_string_equal(nb.v[0].port, "eth0");
	assert_string_equal(nb.v[0].device, "ns-2.example.com");
	assert_string_equal(nb.v[0].remote_port, "00:00:00:00:00:02");
	rc_neighbors_fini(&nb);
	free(text);
}

/* Every prefix of the answer: not JSON (an error naming the host and the command), or JSON
 * that holds no neighbour; never a neighbour read from half an answer. */
static void test_json0_truncated(void **state)
{
	size_t len, errors = 0;
	char *text = rc_test_artifact(JSON0, &len);
	(void)state;

	for (size_t cut = 0; cut < len - 1; cut++) {
		struct rc_neighbors nb = {0};
		struct rc_err err = {0};
		int rc = rc_lldpd_parse(text, cut, "gpu1", &nb, &err);

		if (rc) {
			assert_int_equal(rc, -EPROTO);
			if (!strstr(err.msg, "gpu1") || !strstr(err.msg, RC_LLDPD_CMD))
				fail_msg("cut at %zu: '%s' names neither host nor command", cut,
					 err.msg);
			errors++;
		}
		assert_int_equal(nb.n, 0);
		rc_neighbors_fini(&nb);
	}
	assert_true(errors > 0);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_json0_neighbour),
	    cmocka_unit_test(test_json0_truncated),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
