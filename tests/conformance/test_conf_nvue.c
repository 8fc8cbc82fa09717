/* NVUE parsers against NVIDIA's documented outputs ($CONFORMANCE_DIR/nvue/, see its
 * README): the row-table reader reads the values the docs show, an output shape it cannot
 * read is an error naming the command, the REST client's revision handling follows the
 * documented workflow (nvue/api/), and the counter that NVUE shows in bytes is named so.
 * A missing artifact fails the test. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>
#include <cmocka.h>

#include "../../drivers/switch/nvue.h"

/* An artifact without its first line (the prompt and the command, README). */
static char *artifact(const char *rel, size_t *len)
{
	const char *dir = getenv("CONFORMANCE_DIR");
	char path[1024];
	FILE *f;
	char *buf, *nl;
	long n;

	if (!dir || !*dir)
		fail_msg("CONFORMANCE_DIR is not set");
	snprintf(path, sizeof(path), "%s/nvue/%s", dir, rel);
	f = fopen(path, "rb");
	if (!f)
		fail_msg("missing artifact %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	nl = strchr(buf, '\n');
	assert_non_null(nl);
	memmove(buf, nl + 1, strlen(nl + 1) + 1);
	*len = strlen(buf);
	return buf;
}

static void field_is(const char *rel, const char *field, const char *column, const char *want)
{
	struct rc_err err = {0};
	size_t len;
	char *t = artifact(rel, &len), got[256];
	int rc = nvue_text_field(t, len, rel, field, column, got, sizeof(got), &err);

	if (rc != 0)
		fail_msg("%s %s (%s): rc %d %s", rel, field, column, rc, err.msg);
	if (strcmp(got, want))
		fail_msg("%s %s (%s): '%s', documented '%s'", rel, field, column, got, want);
	free(t);
}

/* `roce.enable`/`state` is configuration: the applied column alone has it. */
static void test_roce(void **state)
{
	(void)state;
	field_is("outputs/nv_show_qos_roce.txt", "state", "applied", "enabled");
	field_is("outputs/nv_show_qos_roce.txt", "state", "operational", "");
	field_is("outputs/nv_show_qos_roce.txt", "mode", "operational", "lossless-single-ipool");
	field_is("outputs/nv_show_qos_roce.txt", "pfc.cable-length", "operational", "100");
	field_is("outputs/nv_show_qos_roce.txt", "pfc.pfc-priority", "operational", "3");
	field_is("outputs/nv_show_qos_roce.txt", "congestion-control.min-threshold", "operational",
		 "146.48 KB");
	field_is("outputs/nv_show_qos_roce.lossy-multi-tc.txt", "state", "applied", "enabled");
}

static void test_pfc_and_pools(void **state)
{
	(void)state;
	field_is("outputs/nv_show_qos_pfc_default-global.txt", "cable-length", "applied", "105");
	field_is("outputs/nv_show_qos_pfc_default-global.txt", "[switch-priority]", "operational",
		 "3");
	field_is("outputs/nv_show_qos_pfc_default-global.txt", "small-packet-probability",
		 "applied", "60");
	field_is("outputs/nv_show_qos_pfc_default-global.txt", "small-packet-probability",
		 "operational", "");
	field_is("outputs/nv_show_interface_swp1-5_qos_pfc.txt", "cable-length", "operational",
		 "100");
	field_is("outputs/nv_show_interface_swp1-5_qos_pfc.txt", "small-packet-probability",
		 "operational", "60");
	/* the factory pool: every priority, in the applied column only */
	field_is("outputs/nv_show_qos_traffic-pool_default-lossy.txt", "memory-percent", "applied",
		 "80");
	field_is("outputs/nv_show_qos_traffic-pool_default-lossy.txt", "[switch-priority]",
		 "applied", "0,1,2,3,4,5,6,7");
	field_is("outputs/nv_show_interface_swp1_qos_pfc-watchdog.txt", "state", "operational",
		 "enabled");
}

/* Shapes the row reader does not know are errors naming the command. */
static void test_unknown_shapes(void **state)
{
	static const char *const other[] = {
	    "outputs/nv_show_interface_swp1_counters_qos.txt", "outputs/nv_show_qos_remark.txt",
	    "outputs/nv_show_interface_swp1_qos_congestion-control.txt"};
	(void)state;

	for (size_t i = 0; i < sizeof(other) / sizeof(other[0]); i++) {
		struct rc_err err = {0};
		size_t len;
		char *t = artifact(other[i], &len), got[64];
		int rc =
		    nvue_text_field(t, len, other[i], "state", "applied", got, sizeof(got), &err);

		if (rc != -EPROTO)
			fail_msg("%s: rc %d, expected a refusal", other[i], rc);
		assert_non_null(strstr(err.msg, other[i]));
		free(t);
	}
}

static cJSON *api_body(const char *rel)
{
	size_t len;
	char *t = artifact(rel, &len);
	cJSON *j = cJSON_ParseWithLength(t, len);

	free(t);
	if (!j)
		fail_msg("%s: the documented body is not JSON", rel);
	return j;
}

/* The revision workflow (API518): create -> id, apply -> "apply" (not final), poll ->
 * "applied" (final, success). */
static void test_rest_revision(void **state)
{
	struct rc_err err = {0};
	char id[32], st[32], issue[64];
	bool ok = true;
	cJSON *j;
	(void)state;

	j = api_body("api/01_POST_revision.txt");
	assert_int_equal(nvue_revision_id(j, id, sizeof(id), &err), 0);
	assert_string_equal(id, "2");
	cJSON_Delete(j);
	j = api_body("api/03_PATCH_revision_apply.txt");
	assert_int_equal(nvue_revision_state(j, st, sizeof(st), issue, sizeof(issue), &err), 0);
	assert_string_equal(st, "apply");
	assert_false(nvue_revision_final(st, &ok));
	cJSON_Delete(j);
	j = api_body("api/04_GET_revision_applied.txt");
	assert_int_equal(nvue_revision_state(j, st, sizeof(st), issue, sizeof(issue), &err), 0);
	assert_true(nvue_revision_final(st, &ok));
	assert_true(ok);
	cJSON_Delete(j);
}

/* tx-uc-buffer-discards is shown in bytes ("0 Bytes"): the counter is named as bytes. */
static void test_counter_units(void **state)
{
	struct rc_counters c = {0};
	struct rc_err err = {0};
	size_t len;
	char *t = artifact("outputs/nv_show_interface_swp1_counters_qos.txt", &len);
	cJSON *j = cJSON_Parse("{\"egress-queue-stats\":{\"traffic-class\":{\"3\":"
			       "{\"tx-uc-buffer-discards\":7}}}}");
	(void)state;

	assert_non_null(strstr(t, "tx-uc-buffer-discards"));
	assert_non_null(strstr(t, "0 Bytes   0 Bytes"));
	free(t);
	assert_int_equal(nvue_parse_counters(j, "swp1", &c, &err), 0);
	assert_int_equal(c.n, 1);
	assert_string_equal(c.v[0].name, "egress_buffer_discard_bytes[3]");
	rc_counters_free(&c);
	cJSON_Delete(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_roce),	   cmocka_unit_test(test_pfc_and_pools),
	    cmocka_unit_test(test_unknown_shapes), cmocka_unit_test(test_rest_revision),
	    cmocka_unit_test(test_counter_units),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
