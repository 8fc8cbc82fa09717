/* SPDX-License-Identifier: Apache-2.0 */
/* Units of docs/POLICY.md: sizes, lengths, speeds, durations, percentages. */
#ifndef ROCECTL_UNITS_H
#define ROCECTL_UNITS_H

#include <stdbool.h>
#include <stdint.h>

/* Each returns 0, or -EINVAL with a message naming the accepted forms in `why`
 * (a static string).  Integers overflowing 64 bits are -ERANGE. */

/* "150000", "150KB" (x1000), "1.5MB", "146KiB" (x1024), "2MiB", "1GB", "1GiB", "150000B". */
int rc_parse_size(const char *s, uint64_t *bytes, const char **why);
/* "3m", "100m", "2km": integer metres >= 1. */
int rc_parse_length(const char *s, uint32_t *metres, const char **why);
/* "100G", "400G", "25G": Gb/s. */
int rc_parse_speed(const char *s, uint32_t *gbps, const char **why);
/* "200ms", "1s", "55us": returned in microseconds. */
int rc_parse_duration(const char *s, uint64_t *usec, const char **why);
/* "100%", "5%", "0.5%". */
int rc_parse_percent(const char *s, double *pct, const char **why);

/* Human forms for printing ("1.5MB" style is not round-trippable; these are exact). */
void rc_format_size(uint64_t bytes, char *buf, unsigned len);

#endif
