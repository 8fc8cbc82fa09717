/* SPDX-License-Identifier: Apache-2.0 */
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
#include "../unit/testutil.h"

/* An NVUE artifact without its first line (the prompt and the command, the kit's README). */
static char *artifact(const char *rel, size_t *len)
{
	char path[1024];
	char *buf, *nl;

	snprintf(path, sizeof(path), "nvue/%s", rel);
	buf = rc_test_artifact(path, len);
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

/* The states of the documented revision list (NVUE reference, Config Commands,
 * `nv config revision`, a 5.9+ switch): every one is a finished, successful apply.  An
 * apply that waited for "applied" alone timed out on such a switch and was rolled back. */
static void test_revision_states(void **state)
{
	size_t len, n = 0;
	char *t = artifact("outputs/nv_config_revision.txt", &len), *save = NULL;
	bool ok = false;
	(void)state;

	for (char *line = strtok_r(t, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char id[16], st[64];

		if (sscanf(line, "%15s %63s", id, st) != 2 || id[0] < '0' || id[0] > '9')
			continue;
		if (!nvue_revision_final(st, &ok) || !ok)
			fail_msg("revision %s: documented state '%s' is not a finished apply", id,
				 st);
		n++;
	}
	assert_int_equal(n, 4);
	free(t);
	/* failures end an apply as failures; the steps on the way do not end it */
	assert_true(nvue_revision_final("invalid", &ok) && !ok);
	assert_true(nvue_revision_final("confirm_fail", &ok) && !ok);
	assert_true(nvue_revision_final("apply_error", &ok) && !ok);
	assert_true(nvue_revision_final("ays_no", &ok) && !ok);
	assert_false(nvue_revision_final("confirm", &ok));
	assert_false(nvue_revision_final("auto_saving", &ok));
	assert_false(nvue_revision_final("verifying", &ok));
}

/* The counters' columns as the docs print them (outputs/..._counters_qos_*.txt) are the keys
 * the parser reads, keyed directly by the first column's index (NVIDIA's ngts reads
 * egress-queue-stats so); tx-uc-buffer-discards prints "0 Bytes" yet is read as a frame
 * count, named without "bytes". */
static void test_counter_columns(void **state)
{
	static const struct {
		const char *file, *first, *key;
	} subs[] = {
	    {"outputs/nv_show_interface_swp1_counters_qos_egress-queue-stats.txt", "traffic-class",
	     "egress-queue-stats"},
	    {"outputs/nv_show_interface_swp1_counters_qos_pfc-stats.txt", "switch-priority",
	     "pfc-stats"},
	};
	struct rc_counters c = {0};
	struct rc_err err = {0};
	cJSON *doc = cJSON_CreateObject();
	(void)state;

	for (size_t i = 0; i < sizeof(subs) / sizeof(subs[0]); i++) {
		size_t len, ncol = 0;
		char *t = artifact(subs[i].file, &len), *hdr = strstr(t, subs[i].first);
		char *save = NULL, *cols[8];
		cJSON *map = cJSON_AddObjectToObject(doc, subs[i].key);

		assert_non_null(hdr); /* the egress sample has a stray title first (README) */
		*strchr(hdr, '\n') = '\0';
		for (char *col = strtok_r(hdr + strlen(subs[i].first), " ", &save); col && ncol < 8;
		     col = strtok_r(NULL, " ", &save))
			cols[ncol++] = col;
		assert_int_equal(ncol, 4);
		for (int k = 0; k < 8; k++) {
			char idx[4];
			cJSON *e;

			snprintf(idx, sizeof(idx), "%d", k);
			e = cJSON_AddObjectToObject(map, idx);
			for (size_t j = 0; j < ncol; j++)
				cJSON_AddNumberToObject(e, cols[j], (double)(j + 1));
		}
		free(t);
	}
	assert_int_equal(nvue_parse_counters(doc, "swp1", &c, &err), 0);
	for (size_t i = 0; i < c.n; i++)
		assert_null(strstr(c.v[i].name, "bytes"));
	/* per class: tx-uc-buffer-discards, wred-discards; per priority: rx, tx pause */
	assert_int_equal(c.n, 8 * 2 + 8 * 2);
	rc_counters_free(&c);
	cJSON_Delete(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_roce),
	    cmocka_unit_test(test_pfc_and_pools),
	    cmocka_unit_test(test_unknown_shapes),
	    cmocka_unit_test(test_rest_revision),
	    cmocka_unit_test(test_revision_states),
	    cmocka_unit_test(test_counter_columns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
