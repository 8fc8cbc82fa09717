/* SPDX-License-Identifier: Apache-2.0 */
/* EOS counter views into counters named by meaning (eos_counters.c). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cJSON.h>
#include <cmocka.h>

#include "../../drivers/switch/eos.h"
#include "rocectl/driver.h"

static const struct rc_counter *find(const struct rc_counters *c, const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].name, name))
			return &c->v[i];
	return NULL;
}

static int parse(const char *pfc, const char *ecn, struct rc_counters *c)
{
	cJSON *p = cJSON_Parse(pfc), *e = cJSON_Parse(ecn);
	struct rc_err err = {0};
	int rc;

	memset(c, 0, sizeof(*c));
	rc = eos_parse_counters(p, e, "Ethernet1", c, &err);
	cJSON_Delete(p);
	cJSON_Delete(e);
	return rc;
}

static void test_counters_by_meaning(void **state)
{
	struct rc_counters c;
	const struct rc_counter *e;

	(void)state;
	assert_int_equal(
	    parse("{\"interfaceCounters\":{\"Ethernet1\":{\"rxFrames\":12,\"txFrames\":3},"
		  "\"Ethernet2\":{\"rxFrames\":99,\"txFrames\":99}}}",
		  "{\"intfQueueCounters\":{\"Ethernet1\":{\"queueCounters\":{\"0\":\"-\","
		  "\"3\":\"7\"}}}}",
		  &c),
	    0);
	assert_int_equal(c.n, 4);
	e = find(&c, "pfc_pause_rx");
	assert_non_null(e);
	assert_int_equal(e->value, 12);
	assert_string_equal(e->source, "eos:show priority-flow-control counters.rxFrames");
	assert_int_equal(find(&c, "pfc_pause_tx")->value, 3);
	e = find(&c, "ecn_marked[3]");
	assert_non_null(e);
	assert_int_equal(e->value, 7);
	assert_false(e->is_drop);
	assert_false(e->not_enabled);
	/* "-": the queue cannot count its marks here; never a zero */
	e = find(&c, "ecn_marked[0]");
	assert_non_null(e);
	assert_true(e->not_enabled);
	assert_non_null(strstr(e->source, "marks not countable here"));
	rc_counters_free(&c);
}

/* No ECN answer (the switch refused the command) or none for the port: not countable. */
static void test_marks_not_countable(void **state)
{
	struct rc_counters c = {0};
	struct rc_err err = {0};
	cJSON *p = cJSON_Parse("{\"interfaceCounters\":{\"Ethernet1\":{\"rxFrames\":1,"
			       "\"txFrames\":2}}}");
	const struct rc_counter *e;

	(void)state;
	assert_int_equal(eos_parse_counters(p, NULL, "Ethernet1", &c, &err), 0);
	assert_int_equal(c.n, 3);
	e = find(&c, "ecn_marked");
	assert_non_null(e);
	assert_true(e->not_enabled);
	assert_non_null(strstr(e->source, "marks not countable here"));
	rc_counters_free(&c);
	cJSON_Delete(p);
}

/* Revision 3's model (Arista ANTA's VerifyInterfacesPFCCounters); a port listed without
 * rxFrames/txFrames is another revision's answer: an error, not zero pauses. */
static void test_pfc_revision(void **state)
{
	struct rc_counters c;

	(void)state;
	assert_int_equal(
	    parse("{\"interfaceCounters\":{\"Ethernet1\":{\"rxPfcFrames\":12}}}", "{}", &c),
	    -EPROTO);
	rc_counters_free(&c);
	assert_int_equal(parse("{\"interfaces\":{}}", "{}", &c), -EPROTO);
	rc_counters_free(&c);
}

static void test_hostile_counters(void **state)
{
	struct rc_counters c;

	(void)state;
	assert_int_equal(
	    parse("{\"interfaceCounters\":{\"Ethernet1\":{\"rxFrames\":-1,\"txFrames\":\"x\"}}}",
		  "{\"intfQueueCounters\":{\"Ethernet1\":{\"queueCounters\":{\"9\":\"1\","
		  "\"a\":\"1\",\"3\":\"7x\",\"4\":\"99999999999999999999999\",\"5\":[]}}}}",
		  &c),
	    0);
	assert_int_equal(c.n, 0);
	rc_counters_free(&c);
	assert_true(parse("[]", "{}", &c) < 0);
	rc_counters_free(&c);
	assert_true(parse("{\"interfaceCounters\":{}}", "[]", &c) < 0);
	rc_counters_free(&c);
	/* a port the PFC view does not list has no pause counters, which is not an error; its
	 * marks are not countable */
	assert_int_equal(parse("{\"interfaceCounters\":{}}", "{}", &c), 0);
	assert_int_equal(c.n, 1);
	assert_true(c.v[0].not_enabled);
	rc_counters_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_counters_by_meaning),
	    cmocka_unit_test(test_marks_not_countable),
	    cmocka_unit_test(test_pfc_revision),
	    cmocka_unit_test(test_hostile_counters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
