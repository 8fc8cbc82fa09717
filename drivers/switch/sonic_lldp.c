/* SPDX-License-Identifier: Apache-2.0 */
/* SONiC's LLDP neighbour summary, `show lldp table` (sonic-utilities' lldpshow, conformance
 * sonic/outputs/show_lldp_table.2macs.txt and sonic/FACTS.md fact 10):
 *
 *   Capability codes: (R) Router, (B) Bridge, (O) Other
 *   LocalPort    RemoteDevice    RemotePortID       Capability    RemotePortDescr
 *   -----------  --------------  -----------------  ------------  -----------------
 *   Ethernet0    dummy           00:00:00:00:00:01  BR            First MAC
 *   Ethernet4                    50:6b:4b:f6:1e:b1                ConnectX-4 Lx
 *   --------------------------------------------------
 *   Total entries displayed:  2
 *
 * tabulate's columns: cells are cut where the dashes under the header put them, because a
 * peer without a System Name leaves RemoteDevice blank ('' in lldpshow, not N/A) and a
 * description may hold blanks.  RemotePortID is the peer's port ID as sent: a colon MAC, an
 * ifname, or a SONiC peer's alias (lldpmgrd, fact 6).  Untrusted text: a row whose cells are
 * not printable words that fit a name is skipped; output without the header is an error
 * naming the command. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <cJSON.h>

#include "rocectl/driver.h"
#include "sonic.h"

#define COLS 3 /* LocalPort, RemoteDevice, RemotePortID */

struct span {
	size_t start, end;
};

/* The dash runs of the line under the header: the columns. */
static size_t spans(const char *line, size_t len, struct span *s, size_t max)
{
	size_t n = 0, i = 0;

	while (i < len && n < max) {
		while (i < len && line[i] == ' ')
			i++;
		if (i >= len)
			break;
		if (line[i] != '-')
			return 0;
		s[n].start = i;
		while (i < len && line[i] == '-')
			i++;
		s[n++].end = i;
	}
	return n;
}

/* The cell of line within span sp, trimmed, into out: true when it is one printable word that
 * fits (or empty, when `empty`). */
static bool cell(const char *line, size_t len, struct span sp, bool empty, char *out, size_t max)
{
	size_t a = sp.start, b = sp.end < len ? sp.end : len, k = 0;

	while (a < b && line[a] == ' ')
		a++;
	while (b > a && line[b - 1] == ' ')
		b--;
	for (size_t i = a; i < b; i++) {
		if (!isgraph((unsigned char)line[i]) || k + 1 >= max)
			return false;
		out[k++] = (char)line[i];
	}
	out[k] = '\0';
	return k > 0 || empty;
}

static bool is_header(const char *line, size_t len)
{
	static const char *const want[COLS] = {"LocalPort", "RemoteDevice", "RemotePortID"};
	size_t i = 0;

	for (int k = 0; k < COLS; k++) {
		size_t w = strlen(want[k]);

		while (i < len && line[i] == ' ')
			i++;
		if (i + w > len || memcmp(line + i, want[k], w) ||
		    (i + w < len && line[i + w] != ' '))
			return false;
		i += w;
	}
	return true;
}

/* A colon MAC in lower case, as lldpd prints it; anything else unchanged. */
static void lower_mac(char *s)
{
	if (strlen(s) != 17)
		return;
	for (int i = 0; i < 17; i++)
		if (i % 3 == 2 ? s[i] != ':' : !isxdigit((unsigned char)s[i]))
			return;
	for (; *s; s++)
		*s = (char)tolower((unsigned char)*s);
}

int sonic_parse_lldp(const char *text, size_t len, const char *device, struct rc_neighbors *out,
		     struct rc_err *err)
{
	struct span sp[8];
	size_t off = 0, ns = 0;
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
			header = is_header(line, l);
			continue;
		}
		if (ns < COLS) {
			ns = spans(line, l, sp, 8);
			if (ns < COLS)
				return rc_errf(err, EPROTO,
					       "'%s': 'show lldp table' has no dashes under its "
					       "header",
					       device);
			continue;
		}
		if (line[0] == '-' || (l >= 13 && !memcmp(line, "Total entries", 13)))
			continue;
		if (!cell(line, l, sp[0], false, port, sizeof(port)) ||
		    !cell(line, l, sp[1], true, dev, sizeof(dev)) ||
		    !cell(line, l, sp[2], false, rport, sizeof(rport)))
			continue;
		lower_mac(rport);
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

int sonic_parse_port_aliases(const char *text, size_t len, const char *device,
			     struct rc_neighbors *out, struct rc_err *err)
{
	cJSON *db = cJSON_ParseWithLength(text, len);
	const cJSON *ports = cJSON_GetObjectItemCaseSensitive(db, "PORT"), *p;
	int rc = 0;

	if (!cJSON_IsObject(db)) {
		cJSON_Delete(db);
		return rc_errf(err, EPROTO, "'%s': 'show runningconfiguration all' is not JSON",
			       device);
	}
	if (!cJSON_IsObject(ports))
		ports = NULL;
	cJSON_ArrayForEach(p, ports)
	{
		const cJSON *a = cJSON_GetObjectItemCaseSensitive(p, "alias");

		if (!p->string || strlen(p->string) >= RC_NAME_MAX || !cJSON_IsString(a) ||
		    !a->valuestring[0] || strlen(a->valuestring) >= RC_NAME_MAX ||
		    !strcmp(a->valuestring, p->string))
			continue;
		if (rc_neighbors_add_ident(out, p->string, a->valuestring, NULL)) {
			rc = rc_errf(err, ENOMEM, "out of memory");
			break;
		}
	}
	cJSON_Delete(db);
	return rc;
}
