/* SPDX-License-Identifier: Apache-2.0 */
/* NVUE's per-port QoS counters into counters named by meaning (nvue_counters.c). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cJSON.h>
#include <cmocka.h>

#include "../../drivers/switch/nvue.h"
#include "rocectl/driver.h"

static const struct rc_counter *find(const struct rc_counters *c, const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].name, name))
			return &c->v[i];
	return NULL;
}

static int parse(const char *json, struct rc_counters *c)
{
	cJSON *doc = cJSON_Parse(json);
	struct rc_err err = {0};
	int rc;

	memset(c, 0, sizeof(*c));
	rc = nvue_parse_counters(doc, "swp1", c, &err);
	cJSON_Delete(doc);
	return rc;
}

static void test_counters_by_meaning(void **state)
{
	struct rc_counters c;
	const struct rc_counter *e;

	(void)state;
	assert_int_equal(
	    parse("{\"pfc-stats\":{\"switch-priority\":{\"3\":{\"rx-pause-frames\":12,"
		  "\"tx-pause-frames\":4,\"rx-pause-duration\":99}}},"
		  "\"egress-queue-stats\":{\"traffic-class\":{\"3\":{\"tx-frames\":1000,"
		  "\"tx-uc-buffer-discards\":0,\"wred-discards\":5}}},"
		  "\"port-stats\":{\"tx-stats\":{\"ecn-marked-packets\":77}}}",
		  &c),
	    0);
	assert_int_equal(c.n, 5);
	e = find(&c, "pfc_pause_rx[3]");
	assert_non_null(e);
	assert_int_equal(e->value, 12);
	assert_false(e->is_drop);
	assert_string_equal(e->source, "nv:pfc-stats.switch-priority.3.rx-pause-frames");
	assert_string_equal(e->port, "swp1");
	assert_int_equal(find(&c, "pfc_pause_tx[3]")->value, 4);
	e = find(&c, "wred_discards[3]");
	assert_non_null(e);
	assert_int_equal(e->value, 5);
	assert_true(e->is_drop);
	assert_true(find(&c, "egress_buffer_discards[3]")->is_drop);
	assert_int_equal(find(&c, "ecn_marked")->value, 77);
	rc_counters_free(&c);
}

/* Switch output is untrusted: odd values are skipped, a non-object is an error. */
static void test_hostile_counters(void **state)
{
	struct rc_counters c;

	(void)state;
	assert_int_equal(parse("{\"pfc-stats\":{\"switch-priority\":{\"9\":{\"rx-pause-frames\":1},"
			       "\"-1\":{\"rx-pause-frames\":1},\"x\":{\"rx-pause-frames\":1},"
			       "\"3\":{\"rx-pause-frames\":-4,\"tx-pause-frames\":\"12\"},"
			       "\"4\":{\"rx-pause-frames\":1e300},\"5\":[1,2]}},"
			       "\"port-stats\":{\"tx-stats\":null}}",
			       &c),
			 0);
	assert_int_equal(c.n, 0);
	rc_counters_free(&c);
	/* a sub-object that is not a map is not "no counters" */
	assert_int_equal(parse("{\"egress-queue-stats\":7}", &c), -EPROTO);
	rc_counters_free(&c);
	assert_true(parse("[]", &c) < 0);
	rc_counters_free(&c);
	assert_true(parse("\"counters\"", &c) < 0);
	rc_counters_free(&c);
	/* an empty object is no counters, not an error */
	assert_int_equal(parse("{}", &c), 0);
	assert_int_equal(c.n, 0);
	rc_counters_free(&c);
}

/* The nesting NVIDIA's tests and real SN5600 readers use: keyed by index directly, ECN
 * marks per class, tx-uc-buffer-discards a frame count (nvue_counters.c). */
static void test_direct_nesting(void **state)
{
	struct rc_counters c;
	const struct rc_counter *e;

	(void)state;
	assert_int_equal(
	    parse("{\"egress-queue-stats\":{\"3\":{\"ecn-marked-frames\":100,\"tx-frames\":1000,"
		  "\"tx-uc-buffer-discards\":76993,\"wred-discards\":5},"
		  "\"4\":{\"ecn-marked-frames\":9}},"
		  "\"pfc-stats\":{\"3\":{\"rx-pause-frames\":200,\"tx-pause-frames\":300}},"
		  "\"port-stats\":{\"tx-stats\":{\"ecn-marked-packets\":109}}}",
		  &c),
	    0);
	e = find(&c, "ecn_marked[3]");
	assert_non_null(e);
	assert_int_equal(e->value, 100);
	assert_string_equal(e->source, "nv:egress-queue-stats.3.ecn-marked-frames");
	assert_int_equal(find(&c, "ecn_marked[4]")->value, 9);
	/* the port total is not counted a second time */
	assert_null(find(&c, "ecn_marked"));
	e = find(&c, "egress_buffer_discards[3]");
	assert_non_null(e);
	assert_int_equal(e->value, 76993);
	assert_true(e->is_drop);
	assert_null(find(&c, "egress_buffer_discard_bytes[3]"));
	assert_int_equal(find(&c, "wred_discards[3]")->value, 5);
	e = find(&c, "pfc_pause_rx[3]");
	assert_non_null(e);
	assert_int_equal(e->value, 200);
	assert_string_equal(e->source, "nv:pfc-stats.3.rx-pause-frames");
	assert_int_equal(find(&c, "pfc_pause_tx[3]")->value, 300);
	assert_int_equal(c.n, 6);
	rc_counters_free(&c);
}

/* A nesting that is neither is an error naming the path, never an empty read. */
static void test_unknown_nesting(void **state)
{
	static const char *const bad[] = {
	    "{\"egress-queue-stats\":{\"queues\":{\"3\":{\"wred-discards\":1}}}}",
	    "{\"pfc-stats\":{\"priority\":{\"3\":{\"rx-pause-frames\":1}}}}",
	    "{\"pfc-stats\":{\"switch-priority\":{},\"3\":{}}}",
	    "{\"egress-queue-stats\":{\"3\":7}}",
	};
	(void)state;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cJSON *doc = cJSON_Parse(bad[i]);
		struct rc_counters c = {0};
		struct rc_err err = {0};

		assert_int_equal(nvue_parse_counters(doc, "swp1", &c, &err), -EPROTO);
		assert_non_null(strstr(err.msg, "swp1"));
		assert_non_null(
		    strstr(err.msg, strstr(bad[i], "pfc") ? "pfc-stats" : "egress-queue-stats"));
		rc_counters_free(&c);
		cJSON_Delete(doc);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_counters_by_meaning),
	    cmocka_unit_test(test_hostile_counters),
	    cmocka_unit_test(test_direct_nesting),
	    cmocka_unit_test(test_unknown_nesting),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
