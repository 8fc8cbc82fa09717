/* SPDX-License-Identifier: Apache-2.0 */
/* The counter -> metric map of verify --counters (engine/report/prom_counters.c): every name
 * the drivers write (drivers/host/counters.c, drivers/switch/ *_counters.c) has a family of
 * its own, family names follow Prometheus' rules, and a name of another shape is not
 * forced into a family that would misread it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../engine/report/prom_counters.h"

static const char *const driver_names[] = {
    "pfc_pause_rx[3]",
    "pfc_pause_tx[0]",
    "pfc_pause_rx",
    "pfc_pause_tx",
    "pfc_pause_rx_duration_us[3]",
    "pfc_pause_tx_duration_us[3]",
    "pfc_pause_rx_transitions[3]",
    "rx_packets[3]",
    "tx_packets[3]",
    "rx_buffer_discards[3]",
    "rx_congestion_discards[3]",
    "ecn_marked_by_nic[3]",
    "rx_port_buffer_discards",
    "tx_port_discards",
    "tx_errors",
    "rx_ring_out_of_buffer",
    "rx_buffer_near_full_events",
    "pfc_storm_warnings",
    "pfc_storm_errors",
    "pause_frames_rx",
    "pause_frames_tx",
    "global_pause_rx",
    "global_pause_tx",
    "rdma_rx_out_of_buffer",
    "rdma_out_of_sequence",
    "rdma_packet_seq_errors",
    "rdma_implied_nak_seq_errors",
    "rdma_local_ack_timeouts",
    "rdma_transport_retries_exceeded",
    "rdma_duplicate_requests",
    "rdma_rnr_nak_retry_errors",
    "rdma_rx_icrc_errors",
    "ecn_marked_received",
    "cnp_sent",
    "cnp_handled",
    "cnp_ignored",
    "ecn_ce_received",
    "cnp_received",
    "cnp_transmitted",
    "roce_slow_restarts",
    "roce_slow_restart_cnps",
    "roce_slow_restart_transitions",
    "roce_adaptive_retransmissions",
    "roce_adaptive_retransmission_timeouts",
    "rdma_rnr_retries_exceeded",
    "rdma_tx_packets",
    "rdma_rx_packets",
    "rdma_completer_retries",
    "rdma_rnr_naks_sent",
    "rdma_acks_deferred",
    "rdma_send_errors",
    "rdma_link_downed",
    "rdma_send_operations",
    "rdma_receive_operations",
    "ecn_marked",
    "ecn_marked[3]",
    "wred_discards[3]",
    "egress_buffer_discard_bytes[3]",
    "egress_buffer_discards[3]",
};

static const char *family_of(const char *counter, struct rc_prom_sample *s)
{
	rc_prom_counter_map(counter, s);
	return rc_prom_family_at(s->family)->name;
}

static void test_every_driver_name_has_a_family(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(driver_names) / sizeof(driver_names[0]); i++) {
		struct rc_prom_sample s;
		const char *fam = family_of(driver_names[i], &s);

		if (!strcmp(fam, "rocectl_device_events_total"))
			fail_msg("'%s' has no family of its own", driver_names[i]);
		/* an index in the name is a label, never lost */
		if (strchr(driver_names[i], '[') && !s.index_key)
			fail_msg("'%s' lost its index", driver_names[i]);
	}
}

static void test_family_names_follow_the_rules(void **state)
{
	(void)state;
	for (size_t i = 0; i < rc_prom_n_families(); i++) {
		const char *n = rc_prom_family_at(i)->name;
		size_t len = strlen(n);

		assert_true(len > 14 && !strncmp(n, "rocectl_", 8));
		assert_string_equal(n + len - 6, "_total");
		assert_null(strstr(n, "counter"));
		assert_null(strstr(n, "_us_"));
		for (size_t k = 0; k < len; k++)
			assert_true((n[k] >= 'a' && n[k] <= 'z') || n[k] == '_');
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(n, rc_prom_family_at(j)->name);
	}
	assert_null(rc_prom_family_at(rc_prom_n_families()));
}

static void test_labels_and_units(void **state)
{
	struct rc_prom_sample s;

	(void)state;
	assert_string_equal(family_of("pfc_pause_tx[5]", &s), "rocectl_pfc_pause_frames_total");
	assert_string_equal(s.key[0], "direction");
	assert_string_equal(s.value[0], "tx");
	assert_string_equal(s.index_key, "priority");
	assert_string_equal(s.index, "5");
	assert_true(s.scale == 1);
	assert_string_equal(family_of("pfc_pause_rx_duration_us[2]", &s),
			    "rocectl_pfc_pause_duration_seconds_total");
	assert_true(s.scale == 1e-6);
	assert_string_equal(family_of("wred_discards[7]", &s), "rocectl_discards_total");
	assert_string_equal(s.index_key, "queue");
	assert_string_equal(family_of("rdma_link_downed", &s), "rocectl_rdma_events_total");
	assert_string_equal(s.value[0], "link_downed");
	assert_string_equal(family_of("egress_buffer_discard_bytes[1]", &s),
			    "rocectl_discards_bytes_total");
}

static void test_other_shapes_go_to_the_catch_all(void **state)
{
	static const char *const odd[] = {"pfc_pause_rx[8]",
					  "pfc_pause_rx[33]",
					  "pfc_pause_rx[3",
					  "pfc_pause_rx[3]x",
					  "tx_errors[1]",
					  "pfc_pause",
					  "pfc_pause_rxx",
					  "",
					  "rdma_"};
	struct rc_prom_sample s;

	(void)state;
	for (size_t i = 0; i < sizeof(odd) / sizeof(odd[0]); i++) {
		if (strcmp(family_of(odd[i], &s), "rocectl_device_events_total"))
			fail_msg("'%s' was mapped to a family", odd[i]);
		assert_string_equal(s.key[0], "name");
		assert_string_equal(s.value[0], odd[i]);
		assert_null(s.index_key);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_driver_name_has_a_family),
	    cmocka_unit_test(test_family_names_follow_the_rules),
	    cmocka_unit_test(test_labels_and_units),
	    cmocka_unit_test(test_other_shapes_go_to_the_catch_all),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
