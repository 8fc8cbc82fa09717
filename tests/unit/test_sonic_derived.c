/* SPDX-License-Identifier: Apache-2.0 */
/* The lossless profiles buffermgrd made from a run's values, found after a restore
 * (sonic_derived.c): only pg_lossless_* profiles the snapshot did not hold and that
 * nothing references; the journaled blob is untrusted. */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>
#include <cmocka.h>

#include "../../drivers/switch/sonic.h"

static const char before[] =
    "{\"BUFFER_PROFILE\": {\"ingress_lossy_profile\": {\"size\": \"0\"},"
    " \"pg_lossless_400000_5m_profile\": {\"size\": \"1\"},"
    " \"pg_lossless_100000_40m_profile\": {\"size\": \"1\"}},"
    " \"BUFFER_PG\": {\"Ethernet0|3-4\": {\"profile\": \"pg_lossless_400000_5m_profile\"}}}";

/* after a restore: the run's 30m profile is left; a 300m one is still used by a PG, a
 * 200m one by a profile list, and someone's own profile is not buffermgrd's */
static const char after[] =
    "{\"BUFFER_PROFILE\": {\"ingress_lossy_profile\": {\"size\": \"0\"},"
    " \"pg_lossless_400000_5m_profile\": {\"size\": \"1\"},"
    " \"pg_lossless_100000_40m_profile\": {\"size\": \"1\"},"
    " \"pg_lossless_400000_30m_profile\": {\"size\": \"1\"},"
    " \"pg_lossless_400000_300m_profile\": {\"size\": \"1\"},"
    " \"pg_lossless_400000_200m_profile\": {\"size\": \"1\"},"
    " \"site_profile\": {\"size\": \"1\"}},"
    " \"BUFFER_PG\": {\"Ethernet0|3-4\": {\"profile\": \"pg_lossless_400000_5m_profile\"},"
    "  \"Ethernet8|3\": {\"profile\": \"pg_lossless_400000_300m_profile\"}},"
    " \"BUFFER_PORT_INGRESS_PROFILE_LIST\": {\"Ethernet8\":"
    "  {\"profile_list\": \"ingress_lossy_profile,pg_lossless_400000_200m_profile\"}}}";

static void test_leftover_removed(void **state)
{
	cJSON *pre = cJSON_Parse(before), *post = cJSON_Parse(after);
	struct rc_err err = {0};
	char *blob = sonic_derived_snapshot(pre, NULL), *patch = NULL;
	int n = -1;

	(void)state;
	assert_non_null(blob);
	assert_int_equal(sonic_derived_leftovers(post, blob, &patch, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_string_equal(patch, "[{\"op\":\"remove\",\"path\":\"/BUFFER_PROFILE/"
				   "pg_lossless_400000_30m_profile\"}]");
	free(patch);
	/* nothing left over: no patch */
	assert_int_equal(sonic_derived_leftovers(pre, blob, &patch, &n, &err), 0);
	assert_int_equal(n, 0);
	assert_null(patch);
	free(blob);
	cJSON_Delete(pre);
	cJSON_Delete(post);
}

static void test_hostile_blob(void **state)
{
	static const char *const bad[] = {
	    "",
	    "[]",
	    "{\"version\": 2, \"profiles\": []}",
	    "{\"version\": 1}",
	    "{\"version\": 1, \"profiles\": \"pg_lossless_400000_30m_profile\"}",
	    "{\"vers",
	};
	cJSON *post = cJSON_Parse(after);
	struct rc_err err = {0};
	char *patch = NULL;
	int n = -1;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_true(sonic_derived_leftovers(post, bad[i], &patch, &n, &err) < 0);
		assert_int_equal(n, 0);
		assert_null(patch);
	}
	assert_true(sonic_derived_leftovers(post, NULL, &patch, &n, &err) < 0);
	/* a name that cannot go into a JSON pointer is never removed */
	cJSON *odd = cJSON_Parse("{\"BUFFER_PROFILE\": {\"pg_lossless_1/../x\": {}}}");

	assert_int_equal(
	    sonic_derived_leftovers(odd, "{\"version\": 1, \"profiles\": []}", &patch, &n, &err),
	    0);
	assert_int_equal(n, 0);
	cJSON_Delete(odd);
	cJSON_Delete(post);
}

/* The saved configuration rides in the snapshot whole, and comes back out of it as it
 * was; a blob without it (an older journal) gives none, a wrong shape is refused. */
static void test_saved_configuration(void **state)
{
	cJSON *pre = cJSON_Parse(before), *saved = cJSON_Parse(after), *got = NULL;
	struct rc_err err = {0};
	char *blob = sonic_derived_snapshot(pre, saved), *patch = NULL;
	static const char *const bad[] = {"{\"version\": 1, \"profiles\": [], \"startup\": 3}",
					  "{\"version\": 1, \"profiles\": [], \"startup\": []}",
					  "[1]", "{", ""};
	int n = -1;

	(void)state;
	assert_non_null(blob);
	assert_int_equal(sonic_derived_startup(blob, &got, &err), 0);
	assert_non_null(got);
	assert_true(cJSON_Compare(got, saved, true));
	cJSON_Delete(got);
	/* the profile list is read as before */
	assert_int_equal(sonic_derived_leftovers(saved, blob, &patch, &n, &err), 0);
	assert_int_equal(n, 1);
	free(patch);
	free(blob);
	got = saved;
	assert_int_equal(sonic_derived_startup("{\"version\": 1, \"profiles\": []}", &got, &err),
			 0);
	assert_null(got);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		got = saved;
		assert_true(sonic_derived_startup(bad[i], &got, &err) < 0);
		assert_null(got);
	}
	cJSON_Delete(pre);
	cJSON_Delete(saved);
}

/* The PORT_QOS_MAP fields apply derives (fault campaign seed 60032): a restore puts them
 * back as the snapshot found them, not as the pre-run PFC list would derive them. */
static const char pqm_before[] =
    "{\"PORT_QOS_MAP\": {\"Ethernet0\": {\"pfc_enable\": \"2\", \"pfcwd_sw_enable\": \"3,4\","
    " \"tc_to_pg_map\": \"AZURE\"}, \"Ethernet8\": {\"pfc_enable\": \"3\"}}}";
/* after the value restore: PFC as it was, the derived fields as apply derives them */
static const char pqm_after[] =
    "{\"PORT_QOS_MAP\": {\"Ethernet0\": {\"pfc_enable\": \"2\", \"pfcwd_sw_enable\": \"2\","
    " \"tc_to_pg_map\": \"AZURE\"}, \"Ethernet8\": {\"pfc_enable\": \"3\","
    " \"pfcwd_sw_enable\": \"3\", \"pfc_to_queue_map\": \"AZURE\"},"
    " \"Ethernet16\": {\"pfcwd_sw_enable\": \"3,4\"}}}";

static bool has_op(const struct sonic_ops *ops, const char *key, const char *field, bool remove,
		   const char *value)
{
	for (size_t i = 0; i < ops->n; i++) {
		const struct sonic_op *o = &ops->v[i];

		if (!strcmp(o->table, "PORT_QOS_MAP") && !strcmp(o->key, key) &&
		    !strcmp(o->field, field) && o->remove == remove &&
		    (remove || !strcmp(o->value, value)))
			return true;
	}
	return false;
}

static void test_derived_fields(void **state)
{
	cJSON *pre = cJSON_Parse(pqm_before), *post = cJSON_Parse(pqm_after);
	struct sonic_ops ops = {0};
	struct rc_err err = {0};
	char *blob = sonic_derived_snapshot(pre, NULL);
	static const char *const bad[] = {
	    "{\"version\": 1, \"profiles\": [], \"port_qos\": []}",
	    "{\"version\": 1, \"profiles\": [], \"port_qos\": {\"Ethernet0\": 3}}",
	    "{\"version\": 1, \"profiles\": [], \"port_qos\": {\"Ethernet0\":"
	    " {\"pfcwd_sw_enable\": 34}}}",
	    "{\"version\": 1, \"profiles\": [], \"port_qos\": {\"a/b\": {}}}",
	    "{\"port_qos\"",
	};

	(void)state;
	assert_non_null(blob);
	assert_int_equal(sonic_derived_fields(post, blob, &ops, &err), 0);
	/* Ethernet16 had no entry before the run: not the snapshot's to say */
	assert_int_equal(ops.n, 3);
	assert_true(has_op(&ops, "Ethernet0", "pfcwd_sw_enable", false, "3,4"));
	assert_true(has_op(&ops, "Ethernet8", "pfcwd_sw_enable", true, NULL));
	assert_true(has_op(&ops, "Ethernet8", "pfc_to_queue_map", true, NULL));
	sonic_ops_free(&ops);
	/* as found: nothing to put back */
	assert_int_equal(sonic_derived_fields(pre, blob, &ops, &err), 0);
	assert_int_equal(ops.n, 0);
	free(blob);
	/* an older journal holds no fields: nothing is put back */
	assert_int_equal(
	    sonic_derived_fields(post, "{\"version\": 1, \"profiles\": []}", &ops, &err), 0);
	assert_int_equal(ops.n, 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_true(sonic_derived_fields(post, bad[i], &ops, &err) < 0);
		sonic_ops_free(&ops);
	}
	cJSON_Delete(pre);
	cJSON_Delete(post);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_leftover_removed),
	    cmocka_unit_test(test_hostile_blob),
	    cmocka_unit_test(test_saved_configuration),
	    cmocka_unit_test(test_derived_fields),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
