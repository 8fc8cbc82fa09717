/* SPDX-License-Identifier: Apache-2.0 */
/* Per-thread deadlines and the monotonic clock (include/rocectl/deadline.h). */
#include <errno.h>
#include <time.h>

#include "rocectl/deadline.h"

/* Each fleet worker serves one device at a time: the deadline belongs to the thread. */
static _Thread_local uint64_t deadline_at_ms;
static _Thread_local uint32_t deadline_len_ms;

uint64_t rc_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

double rc_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void rc_sleep_ms(uint32_t ms)
{
	struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

void rc_deadline_set(uint32_t ms)
{
	deadline_len_ms = ms;
	deadline_at_ms = ms ? rc_now_ms() + ms : 0;
}

void rc_deadline_clear(void)
{
	rc_deadline_set(0);
}

uint32_t rc_deadline_clamp_ms(uint32_t timeout_ms, bool *cut)
{
	uint64_t now, left;

	if (cut)
		*cut = false;
	if (!deadline_at_ms)
		return timeout_ms;
	now = rc_now_ms();
	left = deadline_at_ms > now ? deadline_at_ms - now : 0;
	if (left >= timeout_ms)
		return timeout_ms;
	if (cut)
		*cut = true;
	return (uint32_t)left;
}

uint32_t rc_deadline_length_ms(void)
{
	return deadline_at_ms ? deadline_len_ms : 0;
}
