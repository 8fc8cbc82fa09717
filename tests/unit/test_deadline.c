/* SPDX-License-Identifier: Apache-2.0 */
/* Per-thread deadlines (engine/util/deadline.c) and the fleet's read-phase deadline of a
 * device (engine/run/fleet.c). */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "rocectl/deadline.h"
#include "rocectl/fleet.h"

static void test_no_deadline_keeps_the_timeout(void **state)
{
	bool cut = true;

	(void)state;
	rc_deadline_clear();
	assert_int_equal(rc_deadline_clamp_ms(5000, &cut), 5000);
	assert_false(cut);
	assert_int_equal(rc_deadline_length_ms(), 0);
}

static void test_deadline_clamps_and_passes(void **state)
{
	struct timespec ts = {0, 30 * 1000000L};
	bool cut = false;
	uint32_t left;

	(void)state;
	rc_deadline_set(20);
	assert_int_equal(rc_deadline_length_ms(), 20);
	left = rc_deadline_clamp_ms(5000, &cut);
	assert_true(cut);
	assert_true(left <= 20);
	/* a timeout shorter than what is left is the timeout */
	assert_int_equal(rc_deadline_clamp_ms(1, &cut), 1);
	assert_false(cut);
	nanosleep(&ts, NULL);
	assert_int_equal(rc_deadline_clamp_ms(5000, &cut), 0);
	assert_true(cut);
	rc_deadline_clear();
	assert_int_equal(rc_deadline_clamp_ms(5000, &cut), 5000);
}

static void *other_thread(void *arg)
{
	*(uint32_t *)arg = rc_deadline_clamp_ms(5000, NULL);
	return NULL;
}

static void test_deadline_is_per_thread(void **state)
{
	pthread_t t;
	uint32_t seen = 0;

	(void)state;
	rc_deadline_set(10);
	assert_int_equal(pthread_create(&t, NULL, other_thread, &seen), 0);
	pthread_join(t, NULL);
	rc_deadline_clear();
	assert_int_equal(seen, 5000);
}

static void test_read_deadline_per_transport(void **state)
{
	struct rc_device d;

	(void)state;
	memset(&d, 0, sizeof(d));
	d.transport = RC_TRANSPORT_SSH;
	d.ssh.connect_timeout_ms = 3000;
	d.ssh.command_timeout_ms = 6000;
	assert_int_equal(rc_fleet_read_deadline_ms(&d), 9000);
	d.ssh.connect_timeout_ms = 0;
	d.ssh.command_timeout_ms = 0;
	assert_int_equal(rc_fleet_read_deadline_ms(&d),
			 RC_SSH_CONNECT_TIMEOUT_MS_DEFAULT + RC_SSH_COMMAND_TIMEOUT_MS_DEFAULT);
	d.transport = RC_TRANSPORT_REST;
	d.rest.timeout_ms = 4000;
	assert_int_equal(rc_fleet_read_deadline_ms(&d), 8000);
	d.transport = RC_TRANSPORT_LOCAL;
	assert_int_equal(rc_fleet_read_deadline_ms(&d), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_no_deadline_keeps_the_timeout),
	    cmocka_unit_test(test_deadline_clamps_and_passes),
	    cmocka_unit_test(test_deadline_is_per_thread),
	    cmocka_unit_test(test_read_deadline_per_transport),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
