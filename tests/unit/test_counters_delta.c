/* SPDX-License-Identifier: Apache-2.0 */
/* rc_counters_delta (engine/diag/deltas.c), what `counters --interval` and `--since`
 * report: each counter's rise between two samples, matched by port and name whatever
 * the order, a counter that went back counted from zero, one absent from the first
 * sample left out, one switched off kept as such. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rocectl/diag.h"
#include "rocectl/history.h"
#include "testutil.h"

static const struct rc_counter *find(const struct rc_counters *c, const char *port,
				     const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].port, port) && !strcmp(c->v[i].name, name))
			return &c->v[i];
	return NULL;
}

static void test_rise_matched_by_name(void **state)
{
	struct rc_counters a = {0}, b = {0}, d = {0};
	size_t resets = 0, unmatched = 0;

	(void)state;
	assert_int_equal(rc_counters_add(&a, "swp1", "pfc_pause_tx[3]", "x", 100, false), 0);
	assert_int_equal(rc_counters_add(&a, "swp1", "wred_discards[3]", "y", 7, true), 0);
	assert_int_equal(rc_counters_add(&a, "swp2", "pfc_pause_tx[3]", "x", 5, false), 0);
	/* the second sample in another order, swp2's counter cleared, a new one on swp3 */
	assert_int_equal(rc_counters_add(&b, "swp2", "pfc_pause_tx[3]", "x", 2, false), 0);
	assert_int_equal(rc_counters_add(&b, "swp1", "wred_discards[3]", "y", 7, true), 0);
	assert_int_equal(rc_counters_add(&b, "swp1", "pfc_pause_tx[3]", "x", 160, false), 0);
	assert_int_equal(rc_counters_add(&b, "swp3", "pfc_pause_tx[3]", "x", 9, false), 0);
	assert_int_equal(rc_counters_add_disabled(&b, "swp1", "cnp_received", "enable it"), 0);

	assert_int_equal(rc_counters_delta(&d, &a, &b, &resets, &unmatched), 0);
	assert_int_equal(d.n, 4);
	assert_int_equal(find(&d, "swp1", "pfc_pause_tx[3]")->value, 60);
	assert_int_equal(find(&d, "swp1", "wred_discards[3]")->value, 0);
	assert_true(find(&d, "swp1", "wred_discards[3]")->is_drop);
	assert_int_equal(find(&d, "swp2", "pfc_pause_tx[3]")->value, 2);
	assert_true(find(&d, "swp1", "cnp_received")->not_enabled);
	assert_null(find(&d, "swp3", "pfc_pause_tx[3]"));
	assert_int_equal(resets, 1);
	assert_int_equal(unmatched, 1);
	rc_counters_fini(&a);
	rc_counters_fini(&b);
	rc_counters_fini(&d);
}

static void test_full_range(void **state)
{
	struct rc_counters a = {0}, b = {0}, d = {0};
	size_t resets = 0, unmatched = 0;

	(void)state;
	/* 64-bit counters near their top: no double in between */
	assert_int_equal(rc_counters_add(&a, "eth0", "tx_errors", "z", UINT64_MAX - 10, true), 0);
	assert_int_equal(rc_counters_add(&b, "eth0", "tx_errors", "z", UINT64_MAX - 1, true), 0);
	assert_int_equal(rc_counters_delta(&d, &a, &b, &resets, &unmatched), 0);
	assert_int_equal(d.n, 1);
	assert_int_equal(d.v[0].value, 9);
	assert_int_equal(resets, 0);
	rc_counters_fini(&a);
	rc_counters_fini(&b);
	rc_counters_fini(&d);
}

/* The baseline of `counters --since RUN`: the sample `counters --save` kept, read back
 * exactly (values past 2^53 too) and refused when a value is not a decimal number. */
static void test_history_keeps_sample(void **state)
{
	struct rc_counters c = {0};
	struct rc_history h, back;
	struct rc_err err = {0};
	char dir[256], hist[300];

	(void)state;
	assert_non_null(rc_test_tmpdir(dir, sizeof(dir), "ctrhist"));
	snprintf(hist, sizeof(hist), "%s/h", dir);
	assert_int_equal(
	    rc_counters_add(&c, "swp1", "pfc_pause_rx[3]", "nvue:rx", UINT64_MAX - 3, false), 0);
	assert_int_equal(rc_counters_add(&c, "swp1", "wred_discards[3]", "nvue:w", 12, true), 0);
	assert_int_equal(rc_counters_add_disabled(&c, "swp2", "cnp_received", "enable"), 0);
	assert_int_equal(rc_history_begin(&h, "counters", "r1", NULL, NULL, &err), 0);
	assert_int_equal(rc_history_counters(&h, "leaf01", "nvue-ssh", &c), 0);
	rc_history_result(&h, "leaf02", "failed", "'leaf02': timed out");
	assert_int_equal(rc_history_write(&h, hist, 0, &err), 0);
	rc_history_fini(&h);

	assert_int_equal(rc_history_load(hist, "r1", &back, &err), 0);
	assert_string_equal(back.command, "counters");
	assert_int_equal(back.n, 2);
	assert_true(back.devs[0].has_counters);
	assert_false(back.devs[1].has_counters);
	assert_int_equal(back.devs[0].counters.n, 3);
	assert_int_equal(back.devs[0].counters.v[0].value, UINT64_MAX - 3);
	assert_true(back.devs[0].counters.v[1].is_drop);
	assert_int_equal(back.devs[0].counters.v[1].value, 12);
	assert_true(back.devs[0].counters.v[2].not_enabled);
	rc_history_fini(&back);
	rc_counters_fini(&c);

	/* a value edited into something else is refused with the device named */
	assert_int_equal(rc_test_write(hist, "r2.json",
				       "{\"schema\": \"rocectl.history/v1\", \"run_id\": \"r2\", "
				       "\"command\": \"counters\", \"devices\": [{\"device\": "
				       "\"leaf01\", \"changes\": [], \"before\": [], \"counters\": "
				       "[{\"port\": \"swp1\", \"name\": \"x\", \"value\": "
				       "\"-1\"}]}]}"),
			 0);
	assert_true(rc_history_load(hist, "r2", &back, &err) < 0);
	assert_non_null(strstr(err.msg, "leaf01"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_rise_matched_by_name),
	    cmocka_unit_test(test_full_range),
	    cmocka_unit_test(test_history_keeps_sample),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
