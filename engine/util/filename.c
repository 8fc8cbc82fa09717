/* SPDX-License-Identifier: Apache-2.0 */
/* One file per device in the journal and the lock directory: the file name must stay in
 * its directory whatever the inventory calls the device.  Device names pass
 * rc_name_is_safe() (engine/util/names.c), which allows '/' ("rack1/leaf01"): a '/' is
 * written as "%2F" ('%' never occurs in a safe name, so the mapping is one to one), and
 * nothing else of the name can form "." or ".." as a whole file name, since a safe name
 * starts with a letter or digit. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rocectl/inventory.h"
#include "rocectl/util.h"

int rc_name_to_file(const char *name, const char *suffix, char *buf, size_t len)
{
	size_t o = 0;

	if (!rc_name_is_safe(name) || len == 0)
		return -EINVAL;
	for (const char *p = name; *p; p++) {
		const char *put = *p == '/' ? "%2F" : NULL;
		size_t n = put ? 3 : 1;

		if (o + n >= len)
			return -ENAMETOOLONG;
		memcpy(buf + o, put ? put : p, n);
		o += n;
	}
	if (o + strlen(suffix) >= len)
		return -ENAMETOOLONG;
	snprintf(buf + o, len - o, "%s", suffix);
	return 0;
}
