/* SPDX-License-Identifier: Apache-2.0 */
/* Device text made fit for one line of a report (include/rocectl/util.h). */
#include <stdbool.h>

#include "rocectl/util.h"

void rc_clean_text(const char *in, size_t in_len, char *out, size_t len)
{
	size_t o = 0;
	bool space = false;

	if (!len)
		return;
	for (size_t i = 0; in && i < in_len && o + 1 < len; i++) {
		unsigned char c = (unsigned char)in[i];

		if (c < 0x20 || c >= 0x7f || c == ' ') {
			/* runs of blanks, newlines, control and non-ASCII bytes become one space */
			space = o > 0;
			continue;
		}
		if (space && o + 2 < len)
			out[o++] = ' ';
		space = false;
		out[o++] = (char)c;
	}
	out[o] = '\0';
}
