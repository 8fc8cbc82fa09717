/* SPDX-License-Identifier: Apache-2.0 */
/* A deadline for the work one thread does on behalf of one device (engine/util/deadline.c).
 *
 * The fleet's read phase gives each device a deadline (rc_fleet_read): a device that
 * answers every command just inside its command timeout, or a REST API retried on 5xx,
 * would otherwise hold the read phase for many command timeouts.  The transports clamp
 * every wait to what is left (rc_deadline_clamp_ms), so a device past its deadline fails
 * with -ETIMEDOUT like any timed-out command, and its worker is free for the next device.
 * The deadline is per thread: devices on other workers are not affected. */
#ifndef ROCECTL_DEADLINE_H
#define ROCECTL_DEADLINE_H

#include <stdbool.h>
#include <stdint.h>

/* Milliseconds of CLOCK_MONOTONIC. */
uint64_t rc_now_ms(void);

/* Seconds of CLOCK_MONOTONIC, for measuring windows (counter rates). */
double rc_now_s(void);

/* Sleep `ms` milliseconds, resumed after a signal. */
void rc_sleep_ms(uint32_t ms);

/* This thread's work must end within `ms` from now (0: no deadline). */
void rc_deadline_set(uint32_t ms);
void rc_deadline_clear(void);

/* `timeout_ms` clamped to what is left of this thread's deadline (at least 1 ms while any
 * is left, 0 when it has passed); *cut is set when the deadline, not the timeout, decides. */
uint32_t rc_deadline_clamp_ms(uint32_t timeout_ms, bool *cut);

/* The deadline's length as set (ms), 0 when none: for messages. */
uint32_t rc_deadline_length_ms(void);

#endif
