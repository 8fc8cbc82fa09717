/* SPDX-License-Identifier: Apache-2.0 */
/* NVUE's LLDP neighbour table, `nv show interface lldp` (NVUE command reference, "LLDP"):
 *
 *   Interface  Speed  Type  Remote Host      Remote Port
 *   ---------  -----  ----  ---------------  -----------------
 *   swp51      1G     swp   spine01          swp1
 *
 * a fixed-width table: cells are cut at the header's column starts, so an empty Speed or
 * Remote Host cell is read as empty.  Untrusted text: a cell that is not one printable
 * word is skipped; output without this header is an error naming the command (no public
 * JSON sample of this command exists, so the text form is read; docs/PLATFORMS.md). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nvue.h"
#include "switch_common.h"

/* The word starting at column col of line (len bytes), into out; false when none fits. */
static bool cell(const char *line, size_t len, size_t col, size_t end, char *out, size_t max)
{
	size_t i = col, k = 0;

	if (end > len)
		end = len;
	while (i < end && line[i] == ' ')
		i++;
	while (i < end && line[i] != ' ') {
		if (!isgraph((unsigned char)line[i]) || k + 1 >= max)
			return false;
		out[k++] = line[i++];
	}
	out[k] = '\0';
	return k > 0;
}

/* Only blanks between col and end (or the line ends before). */
static bool blank(const char *line, size_t len, size_t col, size_t end)
{
	for (size_t i = col; i < end && i < len; i++)
		if (line[i] != ' ')
			return false;
	return true;
}

static const char *find(const char *line, size_t len, const char *word)
{
	size_t w = strlen(word);

	for (size_t i = 0; i + w <= len; i++)
		if (!memcmp(line + i, word, w))
			return line + i;
	return NULL;
}

int nvue_parse_lldp(const char *text, size_t len, const char *device, struct rc_neighbors *out,
		    struct rc_err *err)
{
	size_t off = 0, c_if = 0, c_host = 0, c_port = 0;
	bool header = false, any = false;

	while (off < len) {
		const char *line = text + off, *nl = memchr(line, '\n', len - off);
		size_t l = nl ? (size_t)(nl - line) : len - off;
		char port[RC_NAME_MAX], host[RC_NAME_MAX], rport[RC_NAME_MAX];

		off += l + (nl ? 1 : 0);
		while (l && (line[l - 1] == '\r' || line[l - 1] == ' '))
			l--;
		if (!l)
			continue;
		any = true;
		if (!header) {
			const char *h = find(line, l, "Remote Host"),
				   *p = find(line, l, "Remote Port");

			if (l >= 9 && !memcmp(line, "Interface", 9) && h && p && h < p) {
				header = true;
				c_if = 0;
				c_host = (size_t)(h - line);
				c_port = (size_t)(p - line);
			}
			continue;
		}
		if (line[0] == '-')
			continue;
		/* a blank Remote Host: a peer that sent no System Name (a NIC's firmware agent,
		 * conformance host/FACTS.md fact 10) is kept, nameless, for its port ID */
		if (!cell(line, l, c_if, c_host, port, sizeof(port)) ||
		    (!cell(line, l, c_host, c_port, host, sizeof(host)) &&
		     !blank(line, l, c_host, c_port)) ||
		    !cell(line, l, c_port, l, rport, sizeof(rport)))
			continue;
		if (rc_neighbors_add(out, port, host, rport))
			return rc_errf(err, ENOMEM, "out of memory");
	}
	if (any && !header)
		return rc_errf(err, EPROTO,
			       "'%s': 'nv show interface lldp' has no Interface/Remote Host/Remote "
			       "Port table",
			       device);
	return 0;
}

int nvue_split_lldp(const char *out, size_t len, const char *device, struct rc_neighbors *nb,
		    int *nb_rc, struct rc_err *nb_err, size_t *qos_off, struct rc_err *err)
{
	size_t end;
	bool ok;

	if (rc_switch_split_folded(out, len, NVUE_LLDP_END, NVUE_QOS_BEGIN, &end, &ok, qos_off))
		return rc_errf(err, EPROTO,
			       "'%s': the read's answer has no QoS section (no '%s' line): cut "
			       "short",
			       device, NVUE_QOS_BEGIN);
	if (!ok) {
		*nb_rc = rc_errf(nb_err, EIO,
				 "'%s': the LLDP section ('nv show interface lldp') of the read "
				 "failed or was cut short",
				 device);
		return 0;
	}
	*nb_rc = nvue_parse_lldp(out, end, device, nb, nb_err);
	return 0;
}
