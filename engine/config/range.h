/* SPDX-License-Identifier: Apache-2.0 */
/* Range expressions in names and addresses (docs/INVENTORY.md): "gpu[001-032]",
 * "10.0.1.[1-32]", "swp[1-32]", and for ports also the bare "swp1-32", "Ethernet1/1-32". */
#ifndef ROCECTL_RANGE_H
#define ROCECTL_RANGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rocectl/model.h"

/* No range expands to more elements than this (inventory caps are lower still). */
#define RC_RANGE_MAX 65536

struct rc_range {
	char prefix[2 * RC_NAME_MAX];
	char suffix[2 * RC_NAME_MAX];
	uint32_t first, last;
	int width; /* zero-padded to this many digits; 0 = not padded */
	bool is_range;
};

/* Parse s.  `bare` also accepts the unbracketed "PREFIX<first>-<last>" form (ports).  A string
 * with no range is one literal element.  Returns 0, or -EINVAL/-E2BIG/-ENAMETOOLONG with a
 * static reason in `why`. */
int rc_range_parse(const char *s, bool bare, struct rc_range *r, const char **why);

/* Number of elements (1 for a literal). */
size_t rc_range_count(const struct rc_range *r);

/* Element i (0-based) into out; -ENAMETOOLONG when it does not fit in len. */
int rc_range_element(const struct rc_range *r, size_t i, char *out, size_t len);

#endif
