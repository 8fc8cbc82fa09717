/* SONiC's `show pfc counters` into counters named by meaning: two text tables, "Port Rx"
 * and "Port Tx", one row per port with PFC0..PFC7.  The output is untrusted text: rows
 * are split on blanks, digits may carry thousands separators, anything else ("N/A") is
 * skipped; a missing table is an error naming the port. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/driver.h"
#include "sonic.h"

#define MAX_TOKENS 12

/* Split one line (not NUL-terminated) into blank-separated tokens. */
static size_t tokens(const char *line, size_t len, char tok[][32], size_t max)
{
	size_t n = 0, i = 0;

	while (i < len && n < max) {
		size_t k = 0;

		while (i < len && isspace((unsigned char)line[i]))
			i++;
		if (i >= len)
			break;
		while (i < len && !isspace((unsigned char)line[i])) {
			if (k + 1 < sizeof(tok[0]))
				tok[n][k++] = line[i];
			i++;
		}
		tok[n++][k] = '\0';
	}
	return n;
}

/* "1,234" -> 1234; false for anything else. */
static bool number(const char *s, uint64_t *v)
{
	uint64_t x = 0;
	bool digit = false;

	for (; *s; s++) {
		if (*s == ',')
			continue;
		if (*s < '0' || *s > '9' || x > (UINT64_MAX - 9) / 10)
			return false;
		x = x * 10 + (uint64_t)(*s - '0');
		digit = true;
	}
	*v = x;
	return digit;
}

int sonic_parse_pfc_counters(const char *text, size_t len, const char *port,
			     struct rc_counters *out, struct rc_err *err)
{
	const char *dir = NULL;
	bool seen_table = false;
	size_t off = 0;
	int rc = 0;

	while (off < len && !rc) {
		const char *line = text + off, *nl = memchr(line, '\n', len - off);
		size_t l = nl ? (size_t)(nl - line) : len - off;
		char tok[MAX_TOKENS][32];
		size_t n = tokens(line, l, tok, MAX_TOKENS);

		off += l + (nl ? 1 : 0);
		if (n >= 2 && !strcmp(tok[0], "Port") &&
		    (!strcmp(tok[1], "Rx") || !strcmp(tok[1], "Tx"))) {
			dir = !strcmp(tok[1], "Rx") ? "rx" : "tx";
			seen_table = true;
			continue;
		}
		if (!dir || n < 2 || strcmp(tok[0], port))
			continue;
		for (size_t i = 1; i < n && i <= 8 && !rc; i++) {
			char name[48], src[64];
			uint64_t v;

			if (!number(tok[i], &v))
				continue;
			snprintf(name, sizeof(name), "pfc_pause_%s[%zu]", dir, i - 1);
			snprintf(src, sizeof(src), "sonic:show pfc counters %s PFC%zu", dir, i - 1);
			rc = rc_counters_add(out, port, name, src, v, false);
		}
	}
	if (rc)
		return rc_errf(err, -rc, "out of memory");
	if (!seen_table)
		return rc_errf(err, EPROTO, "'%s': 'show pfc counters' has no Port Rx/Tx table",
			       port);
	return 0;
}
