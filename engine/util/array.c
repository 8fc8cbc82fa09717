/* SPDX-License-Identifier: Apache-2.0 */
/* One way to grow an array (include/rocectl/util.h), instead of a doubling loop in every
 * file that collects something: devices, links, changes, counters, commands, lines. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "rocectl/util.h"

int rc_array_reserve(void **v, size_t *cap, size_t need, size_t elem, size_t first)
{
	size_t n = *cap ? *cap : (first ? first : 8);
	void *q;

	if (need <= *cap)
		return 0;
	if (!elem)
		return -EINVAL;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return -ENOMEM;
		n *= 2;
	}
	if (n > SIZE_MAX / elem)
		return -ENOMEM;
	q = realloc(*v, n * elem);
	if (!q)
		return -ENOMEM;
	*v = q;
	*cap = n;
	return 0;
}
