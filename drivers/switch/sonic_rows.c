/* SPDX-License-Identifier: Apache-2.0 */
/* SONiC lookup rows when the switch's pg_profile_lookup.ini cannot be read (no permission,
 * a platform directory named otherwise): the inventory's `cable_rows`, else the cable
 * lengths of the SKUs in sonic-buildimage's device/<vendor>/<platform>/<HWSKU>/.  Each
 * of those files has the same lengths at every speed it lists, so the rows hold lengths only. */
#include <stdio.h>
#include <string.h>

#include "sonic.h"

static const struct {
	const char *hwsku;
	uint32_t m[8];
} builtin[] = {
    /* skus/Arista-7060X6-64PE-B-O128/pg_profile_lookup.ini (100000, 400000) */
    {"Arista-7060X6-64PE-B-O128", {5, 30, 40, 60, 150, 500}},
    /* skus/Arista-7260CX3-D108C8/pg_profile_lookup.ini (40000-100000) */
    {"Arista-7260CX3-D108C8", {5, 40, 300}},
    /* skus/Mellanox-SN3800-D112C8/, skus/Mellanox-SN4600C-C64/ (10000-100000) */
    {"Mellanox-SN3800-D112C8", {5, 40, 300, 2000}},
    {"Mellanox-SN4600C-C64", {5, 40, 300, 2000}},
    /* skus/Mellanox-SN5600-O128/pg_profile_lookup.ini (10000-800000) */
    {"Mellanox-SN5600-O128", {5, 40, 300}},
};

static void from_lengths(const uint32_t *m, size_t n, struct sonic_rows *rows)
{
	rows->n = 0;
	for (size_t i = 0; i < n && rows->n < SONIC_ROWS_MAX; i++)
		if (m[i]) {
			rows->v[rows->n].speed_mbps = 0;
			rows->v[rows->n++].cable_m = m[i];
		}
}

bool sonic_rows_fallback(const uint32_t *inv_rows_m, size_t n, const char *hwsku,
			 struct sonic_rows *rows)
{
	rows->n = 0;
	rows->src[0] = '\0';
	if (n) {
		from_lengths(inv_rows_m, n, rows);
		snprintf(rows->src, sizeof(rows->src), "the inventory's cable_rows");
		return rows->n > 0;
	}
	for (size_t i = 0; hwsku && i < sizeof(builtin) / sizeof(builtin[0]); i++) {
		if (strcmp(builtin[i].hwsku, hwsku))
			continue;
		from_lengths(builtin[i].m, sizeof(builtin[i].m) / sizeof(builtin[i].m[0]), rows);
		snprintf(rows->src, sizeof(rows->src), "rocectl's rows for %.60s", hwsku);
		return true;
	}
	return false;
}
