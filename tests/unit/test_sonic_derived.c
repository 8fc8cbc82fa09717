/* The lossless profiles buffermgrd made from a run's values, found after a restore
 * (sonic_derived.c): only pg_lossless_* profiles the snapshot did not hold and that
 * nothing references; the journaled blob is untrusted. */
#include <setjmp.h>
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
	char *blob = sonic_derived_snapshot(pre), *patch = NULL;
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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_leftover_removed),
	    cmocka_unit_test(test_hostile_blob),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
