/* SONiC's LLDP neighbour summary, `show lldp table` (sonic-utilities' lldpshow):
 *
 *   Capability codes: (R) Router, (B) Bridge, (O) Other
 *   LocalPort    RemoteDevice   RemotePortID   Capability   RemotePortDescr
 *   -----------  -------------  -------------  -----------  ---------------
 *   Ethernet0    spine01        Ethernet4      BR           ...
 *   -------------------------------------------------------------------
 *   Total entries displayed:  1
 *
 * The first three columns are single words; rows are split on blanks.  Untrusted text: a
 * row whose cells are not printable words that fit a name is skipped; output without the
 * header is an error naming the command (docs/PLATFORMS.md: documented, no capture). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rocectl/driver.h"
#include "sonic.h"

/* The n-th blank-separated word of line (len bytes) into out; false when absent or too long. */
static bool word(const char *line, size_t len, int n, char *out, size_t max)
{
	size_t i = 0;

	for (int k = 0;; k++) {
		size_t start, w;

		while (i < len && isspace((unsigned char)line[i]))
			i++;
		if (i >= len)
			return false;
		start = i;
		while (i < len && !isspace((unsigned char)line[i])) {
			if (!isgraph((unsigned char)line[i]))
				return false;
			i++;
		}
		if (k < n)
			continue;
		w = i - start;
		if (w + 1 > max)
			return false;
		memcpy(out, line + start, w);
		out[w] = '\0';
		return true;
	}
}

int sonic_parse_lldp(const char *text, size_t len, const char *device, struct rc_neighbors *out,
		     struct rc_err *err)
{
	size_t off = 0;
	bool header = false, any = false;

	while (off < len) {
		const char *line = text + off, *nl = memchr(line, '\n', len - off);
		size_t l = nl ? (size_t)(nl - line) : len - off;
		char port[RC_NAME_MAX], dev[RC_NAME_MAX], rport[RC_NAME_MAX];

		off += l + (nl ? 1 : 0);
		if (!l)
			continue;
		any = true;
		if (!header) {
			header = l >= 9 && !memcmp(line, "LocalPort", 9) &&
				 word(line, l, 1, dev, sizeof(dev)) &&
				 !strcmp(dev, "RemoteDevice") &&
				 word(line, l, 2, dev, sizeof(dev)) && !strcmp(dev, "RemotePortID");
			continue;
		}
		if (line[0] == '-' || (l >= 13 && !memcmp(line, "Total entries", 13)))
			continue;
		if (!word(line, l, 0, port, sizeof(port)) || !word(line, l, 1, dev, sizeof(dev)) ||
		    !word(line, l, 2, rport, sizeof(rport)))
			continue;
		if (rc_neighbors_add(out, port, dev, rport))
			return rc_errf(err, ENOMEM, "out of memory");
	}
	if (any && !header)
		return rc_errf(err, EPROTO,
			       "'%s': 'show lldp table' has no LocalPort/RemoteDevice/RemotePortID "
			       "table",
			       device);
	return 0;
}
