/* SPDX-License-Identifier: Apache-2.0 */
/* PFC headroom arithmetic (engine/plan/headroom.c).
 *
 * Every expected value is worked out by hand below from the decomposition
 *   total = 2 x MTU + 84 (PAUSE) + cable + response + interface
 * with, per speed (IEEE 802.3 Annex 31B; sonic-swss buffer_headroom_mellanox.lua):
 *
 *   speed  quanta  response=quanta*64  delay bits/end  interface=2*bits/8  cable RTT B/m
 *   10G      67        4288                8192             2048             12.5
 *   25G      80        5120                6144             1536             31.25
 *   40G     118        7552               24576             6144             50
 *   50G     147        9408               61440            15360             62.5
 *   100G    394       25216              122880            30720            125
 *   200G    453       28992              122880            30720            250
 *   400G    905       57920              122880            30720            500
 *   800G   1810      115840              122880            30720           1000
 *
 * cable = ceil(length_m x 10 ns x Gb/s / 8) (round trip at 5 ns/m).
 * With MTU 9216: 2 x 9216 + 84 = 18516. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "rocectl/headroom.h"

static struct rc_headroom compute_ok(uint32_t gbps, uint32_t m, uint32_t mtu)
{
	struct rc_headroom h;
	struct rc_err err = {0};

	memset(&h, 0xa5, sizeof(h));
	assert_int_equal(rc_headroom_compute(gbps, m, mtu, &h, &err), 0);
	/* the total is always the sum of the printed terms */
	assert_int_equal(h.total_bytes, h.mtu_rx_bytes + h.mtu_tx_bytes + h.pause_frame_bytes +
					    h.cable_bytes + h.response_bytes + h.interface_bytes);
	assert_int_equal(h.speed_gbps, gbps);
	assert_int_equal(h.cable_length_m, m);
	assert_int_equal(h.mtu, mtu);
	return h;
}

static uint64_t total(uint32_t gbps, uint32_t m, uint32_t mtu)
{
	return compute_ok(gbps, m, mtu).total_bytes;
}

/* 100G: 18516 + 25216 + 30720 = 74452, + cable 125 B/m.
 * (the same sum without interface delay: 3 m 44107, 100 m 56232; + 30720 ✓) */
static void test_100g(void **state)
{
	struct rc_headroom h = compute_ok(100, 3, 9216);

	(void)state;
	assert_int_equal(h.mtu_rx_bytes, 9216);
	assert_int_equal(h.mtu_tx_bytes, 9216);
	assert_int_equal(h.pause_frame_bytes, 84);
	assert_int_equal(h.cable_bytes, 375); /* 3 x 10 x 100 = 3000 bits */
	assert_int_equal(h.response_quanta, 394);
	assert_int_equal(h.response_bytes, 25216);
	assert_int_equal(h.interface_delay_bits, 122880);
	assert_int_equal(h.interface_bytes, 30720);
	assert_int_equal(h.total_bytes, 74827);		/* 74452 + 375 */
	assert_int_equal(total(100, 30, 9216), 78202);	/* 74452 + 3750 */
	assert_int_equal(total(100, 100, 9216), 86952); /* 74452 + 12500 */
}

/* 400G: 18516 + 57920 + 30720 = 107156, + cable 500 B/m.
 * (table: 3 m 77936 + 30720 = 108656 ✓, 100 m 126436 + 30720 = 157156 ✓)
 * Below the 117760 B SONiC programs on a Spectrum-4 400G port at 5 m (109656 here). */
static void test_400g(void **state)
{
	struct rc_headroom h = compute_ok(400, 30, 9216);

	(void)state;
	assert_int_equal(h.cable_bytes, 15000); /* 30 x 10 x 400 = 120000 bits */
	assert_int_equal(h.response_bytes, 57920);
	assert_int_equal(h.interface_bytes, 30720);
	assert_int_equal(h.total_bytes, 122156);	 /* 107156 + 15000 */
	assert_int_equal(total(400, 3, 9216), 108656);	 /* 107156 + 1500 */
	assert_int_equal(total(400, 5, 9216), 109656);	 /* 107156 + 2500 */
	assert_int_equal(total(400, 100, 9216), 157156); /* 107156 + 50000 */
}

/* 800G: 18516 + 115840 + 30720 = 165076, + cable 1000 B/m.
 * (table: 3 m 137356 + 30720 = 168076 ✓, 100 m 234356 + 30720 = 265076 ✓) */
static void test_800g(void **state)
{
	struct rc_headroom h = compute_ok(800, 100, 9216);

	(void)state;
	assert_int_equal(h.response_quanta, 1810);
	assert_int_equal(h.response_bytes, 115840);
	assert_int_equal(h.interface_delay_bits, 122880);
	assert_int_equal(h.interface_bytes, 30720);
	assert_int_equal(h.cable_bytes, 100000); /* 100 x 10 x 800 = 800000 bits */
	assert_int_equal(h.total_bytes, 265076);
	assert_int_equal(total(800, 3, 9216), 168076);	/* 165076 + 3000 */
	assert_int_equal(total(800, 30, 9216), 195076); /* 165076 + 30000 */
}

static void test_other_speeds_3m(void **state)
{
	(void)state;
	/* 10G: 18516 + 4288 + 2048 = 24852; cable 3 x 10 x 10 = 300 bits = 37.5 -> 38 */
	assert_int_equal(total(10, 3, 9216), 24890);
	assert_int_equal(compute_ok(10, 3, 9216).cable_bytes, 38);
	/* 25G: 18516 + 5120 + 1536 = 25172; cable 750 bits = 93.75 -> 94 */
	assert_int_equal(total(25, 3, 9216), 25266);
	/* 40G: 18516 + 7552 + 6144 = 32212; cable 1200 bits = 150 */
	assert_int_equal(total(40, 3, 9216), 32362);
	/* 50G: 18516 + 9408 + 15360 = 43284; cable 1500 bits = 187.5 -> 188 */
	assert_int_equal(total(50, 3, 9216), 43472);
	/* 200G: 18516 + 28992 + 30720 = 78228; cable 750 (table: 48258 + 30720 ✓) */
	assert_int_equal(total(200, 3, 9216), 78978);
}

/* The MTU counts twice: 100G 3 m at MTU 1500 = 3000 + 84 + 375 + 25216 + 30720. */
static void test_mtu_counts_twice(void **state)
{
	(void)state;
	assert_int_equal(total(100, 3, 1500), 59395);
	assert_int_equal(total(100, 3, 9216) - total(100, 3, 1500), 2 * (9216 - 1500));
}

/* Longest cable: 100 km at 800G = 100000 x 10 x 800 / 8 = 100 MB of cable term. */
static void test_range_edges_accepted(void **state)
{
	(void)state;
	assert_int_equal(compute_ok(800, 100000, 9216).cable_bytes, 100000000);
	assert_int_equal(total(100, 1, 1500), 3000 + 84 + 125 + 25216 + 30720);
	assert_int_equal(total(100, 1, 9216), 18432 + 84 + 125 + 25216 + 30720);
}

static void test_refuses_300g(void **state)
{
	struct rc_headroom h = {.total_bytes = 7};
	struct rc_err err = {0};

	(void)state;
	assert_int_equal(rc_headroom_compute(300, 30, 9216, &h, &err), -EINVAL);
	assert_string_equal(
	    err.msg, "unsupported speed 300G; supported: 10G 25G 40G 50G 100G 200G 400G 800G");
	assert_int_equal(h.total_bytes, 7); /* untouched */
	assert_int_equal(rc_headroom_compute(0, 30, 9216, &h, &err), -EINVAL);
	assert_int_equal(rc_headroom_compute(1, 30, 9216, &h, &err), -EINVAL);
	assert_false(rc_headroom_speed_supported(300));
	assert_false(rc_headroom_speed_supported(1600));
	assert_true(rc_headroom_speed_supported(10));
	assert_true(rc_headroom_speed_supported(800));
}

static void test_refuses_cable(void **state)
{
	struct rc_headroom h;
	struct rc_err err = {0};

	(void)state;
	assert_int_equal(rc_headroom_compute(100, 0, 9216, &h, &err), -ERANGE);
	assert_string_equal(err.msg, "cable length 0m out of range: must be 1m..100000m");
	assert_int_equal(rc_headroom_compute(100, 100001, 9216, &h, &err), -ERANGE);
	assert_non_null(strstr(err.msg, "100001m"));
}

static void test_refuses_mtu(void **state)
{
	struct rc_headroom h;
	struct rc_err err = {0};

	(void)state;
	assert_int_equal(rc_headroom_compute(100, 3, 1499, &h, &err), -ERANGE);
	assert_string_equal(err.msg, "mtu 1499 out of range: must be 1500..9216");
	assert_int_equal(rc_headroom_compute(100, 3, 9217, &h, &err), -ERANGE);
	assert_int_equal(rc_headroom_compute(100, 3, 0, &h, &err), -ERANGE);
}

/* Headroom never shrinks when the link gets faster or longer (same MTU). */
static void test_monotonic(void **state)
{
	static const uint32_t speeds[] = {10, 25, 40, 50, 100, 200, 400, 800};

	(void)state;
	for (size_t i = 1; i < sizeof(speeds) / sizeof(speeds[0]); i++)
		assert_true(total(speeds[i], 30, 9216) > total(speeds[i - 1], 30, 9216));
	for (uint32_t m = 1; m < 2000; m += 7)
		assert_true(total(400, m + 1, 9216) > total(400, m, 9216));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_100g),
	    cmocka_unit_test(test_400g),
	    cmocka_unit_test(test_800g),
	    cmocka_unit_test(test_other_speeds_3m),
	    cmocka_unit_test(test_mtu_counts_twice),
	    cmocka_unit_test(test_range_edges_accepted),
	    cmocka_unit_test(test_refuses_300g),
	    cmocka_unit_test(test_refuses_cable),
	    cmocka_unit_test(test_refuses_mtu),
	    cmocka_unit_test(test_monotonic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
