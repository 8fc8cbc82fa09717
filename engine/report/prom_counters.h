/* SPDX-License-Identifier: Apache-2.0 */
/* The devices' counters as Prometheus metrics: one family per quantity, in base units, the
 * priority or queue a label (engine/report/prom_counters.c). */
#ifndef ROCECTL_PROM_COUNTERS_H
#define ROCECTL_PROM_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>

struct rc_prom_family {
	const char *name; /* ends in _total (counters), base unit before it */
	const char *help;
};

/* Where one counter goes: its family, up to two fixed labels, the index label (priority,
 * queue) with its value, and the factor to the base unit (1e-6 for microseconds). */
struct rc_prom_sample {
	size_t family;
	const char *key[2], *value[2];
	const char *index_key;
	char index[4];
	double scale;
};

size_t rc_prom_n_families(void);
const struct rc_prom_family *rc_prom_family_at(size_t i);
/* Map a counter name of struct rc_counter ("pfc_pause_rx[3]", "ecn_marked", ...).  Names
 * without an entry go to the "other" family with their name as the `name` label (key[0]),
 * so that a counter a driver adds later is exported, not lost. */
void rc_prom_counter_map(const char *name, struct rc_prom_sample *out);

#endif
