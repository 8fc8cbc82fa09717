/* SPDX-License-Identifier: Apache-2.0 */
/* An owner that is alive but hung (include/rocectl/confirm.h rc_confirm_hung): a timer or a
 * `rollback RUN` stuck on a device that never answers still holds the run and its device
 * locks; past the run's grace it is reported, and `rollback RUN --force` takes the run
 * over after stopping it. */
#include "rocectl/inventory.h"
#include "txn_int.h"

uint32_t rc_txn_grace_s(const struct rc_fleet *f)
{
	uint64_t slowest = 0;

	for (size_t i = 0; i < f->n; i++) {
		uint64_t ms = rc_fleet_read_deadline_ms(&f->inv->devices[f->devs[i].index]);

		if (ms > slowest)
			slowest = ms;
	}
	slowest = 2 * ((slowest + 999) / 1000);
	return slowest > RC_CONFIRM_GRACE_MIN_S ? (uint32_t)slowest : RC_CONFIRM_GRACE_MIN_S;
}
