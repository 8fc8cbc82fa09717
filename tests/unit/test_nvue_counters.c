/* NVUE's per-port QoS counters into counters named by meaning (nvue_counters.c). */
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
	assert_true(find(&c, "egress_buffer_discard_bytes[3]")->is_drop);
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
			       "\"egress-queue-stats\":7,\"port-stats\":{\"tx-stats\":null}}",
			       &c),
			 0);
	assert_int_equal(c.n, 0);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_counters_by_meaning),
	    cmocka_unit_test(test_hostile_counters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
