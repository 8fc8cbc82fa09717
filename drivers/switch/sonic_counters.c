/* SPDX-License-Identifier: Apache-2.0 */
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
	bool seen_rx = false, seen_tx = false;
	size_t off = 0, width = 0;
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
			*(!strcmp(tok[1], "Rx") ? &seen_rx : &seen_tx) = true;
			width = n; /* "Port Rx PFC0 .. PFC7": the rows have one word less */
			continue;
		}
		if (!dir || n < 2 || strcmp(tok[0], port))
			continue;
		/* pfcstat prints a cell under every heading and ends each row with a newline
		 * (conformance sonic/outputs/show_pfc_counters.txt): anything short is cut */
		if (n + 1 != width || !nl)
			return rc_errf(err, EPROTO,
				       "'%s': a 'show pfc counters' %s row has %zu of %zu cells%s "
				       "(truncated?)",
				       port, dir, n, width - 1, nl ? "" : " and no newline");
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
	if (!seen_rx || !seen_tx)
		return rc_errf(err, EPROTO, "'%s': 'show pfc counters' has no Port %s table%s",
			       port, seen_rx ? "Tx" : "Rx",
			       seen_rx || seen_tx ? " (truncated?)" : "");
	return 0;
}

/* ---- queues and priority groups ------------------------------------------------------- */

/* The columns of one table, found by their header words (sonic-utilities prints them with
 * tabulate; every cell is one word: digits, or N/A for a counter missing in COUNTERS_DB). */
struct columns {
	const char *title; /* "Ingress PG dropped packets:" above the header, or NULL */
	const char *first; /* the header's first word: "Port" */
	const char *key;   /* "TxQ", or NULL when the cells follow the port (PG0..PG7) */
	const char *cells[2];
	const char *names[2]; /* counter names, "%u" for the queue or PG index */
	bool drop[2];
	const char *cmd;
};

static const struct columns queue_cols = {
    NULL,
    "Port",
    "TxQ",
    {"Drop/pkts", NULL},
    {"egress_queue_discards[%u]", NULL},
    {true, false},
    "show queue counters",
};

static const struct columns wred_cols = {
    NULL,
    "Port",
    "TxQ",
    {"WredDrp/pkts", "EcnMarked/pkts"},
    {"wred_discards[%u]", "ecn_marked[%u]"},
    {true, false},
    "show queue wredcounters",
};

/* `UC3` -> 3: unicast queues, or `ALL3` where the ASIC does not split them; multicast
 * queues (numbered on from the unicast ones, MC10...) carry no RoCE traffic. */
static bool unicast_queue(const char *q, unsigned *idx)
{
	const char *d = !strncmp(q, "UC", 2) ? q + 2 : !strncmp(q, "ALL", 3) ? q + 3 : NULL;
	uint64_t v;

	if (!d || !*d || !number(d, &v) || strchr(d, ',') || v > 7)
		return false;
	*idx = (unsigned)v;
	return true;
}

static int add_cell(struct rc_counters *out, const char *port, const struct columns *c, int k,
		    unsigned idx, const char *cell)
{
	char name[48], src[96], col[32];
	uint64_t v;

	snprintf(name, sizeof(name), c->names[k], idx);
	if (c->key)
		snprintf(col, sizeof(col), "%s", c->cells[k]);
	else
		snprintf(col, sizeof(col), "PG%u", idx);
	if (!strcmp(cell, "N/A")) {
		/* not in COUNTERS_DB (sonic-utilities: a missing counter prints N/A) */
		snprintf(src, sizeof(src), "sonic:%s %s N/A: not countable here", c->cmd, col);
		return rc_counters_add_disabled(out, port, name, src);
	}
	if (!number(cell, &v))
		return 0;
	snprintf(src, sizeof(src), "sonic:%s %s", c->cmd, col);
	return rc_counters_add(out, port, name, src, v, c->drop[k]);
}

/* Rows of `port` under every header of the table (one per port: queue counters print a
 * table per port). */
static int parse_table(const char *text, size_t len, const char *port, const struct columns *c,
		       struct rc_counters *out, struct rc_err *err)
{
	int at[2] = {-1, -1}, key = -1;
	bool seen = false, titled = !c->title;
	size_t off = 0, width = 0;
	int rc = 0;

	while (off < len && !rc) {
		const char *line = text + off, *nl = memchr(line, '\n', len - off);
		size_t l = nl ? (size_t)(nl - line) : len - off;
		char tok[MAX_TOKENS][32];
		size_t n = tokens(line, l, tok, MAX_TOKENS);
		unsigned idx;

		off += l + (nl ? 1 : 0);
		if (c->title && l >= strlen(c->title) && !memcmp(line, c->title, strlen(c->title)))
			titled = true;
		if (n && !strcmp(tok[0], c->first) && titled) {
			at[0] = at[1] = key = -1;
			for (size_t i = 1; i < n; i++) {
				for (int k = 0; k < 2; k++)
					if (c->cells[k] && !strcmp(tok[i], c->cells[k]))
						at[k] = (int)i;
				if (c->key && !strcmp(tok[i], c->key))
					key = (int)i;
			}
			seen = at[0] > 0 && (!c->key || key > 0);
			width = n;
			continue;
		}
		if (!seen || !n || strcmp(tok[0], port))
			continue;
		/* every row has a cell under each heading ("N/A" where there is no value) and
		 * the CLI ends each with a newline: a row short of cells, or cut before its
		 * newline, is a truncated answer, never numbers to read (the kit's tables,
		 * sonic/outputs/show_queue_counters.txt and the others, are so) */
		if (n != width || !nl)
			return rc_errf(err, EPROTO,
				       "'%s': a '%s' row has %zu of its header's %zu cells%s "
				       "(truncated?)",
				       port, c->cmd, n, width, nl ? "" : " and no newline");
		if (!c->key) { /* Port PG0 ... PG7 */
			for (size_t i = 1; i < n && i <= 8 && !rc; i++)
				rc = add_cell(out, port, c, 0, (unsigned)(i - 1), tok[i]);
			continue;
		}
		if ((size_t)key >= n || !unicast_queue(tok[key], &idx))
			continue;
		for (int k = 0; k < 2 && !rc; k++)
			if (at[k] > 0 && (size_t)at[k] < n)
				rc = add_cell(out, port, c, k, idx, tok[at[k]]);
	}
	if (rc)
		return rc_errf(err, -rc, "out of memory");
	if (!seen)
		return rc_errf(err, EPROTO, "'%s': '%s' has no %s %s table", port, c->cmd, c->first,
			       c->key ? c->key : "PG0");
	return 0;
}

int sonic_parse_queue_counters(const char *text, size_t len, const char *port,
			       struct rc_counters *out, struct rc_err *err)
{
	return parse_table(text, len, port, &queue_cols, out, err);
}

int sonic_parse_wred_counters(const char *text, size_t len, const char *port,
			      struct rc_counters *out, struct rc_err *err)
{
	return parse_table(text, len, port, &wred_cols, out, err);
}

int sonic_parse_pg_drops(const char *text, size_t len, const char *port, struct rc_counters *out,
			 struct rc_err *err)
{
	static const struct columns pg = {
	    "Ingress PG dropped packets:",
	    "Port",
	    NULL,
	    {"PG0", NULL},
	    {"pg_discards[%u]", NULL},
	    {true, false},
	    "show priority-group drop counters",
	};

	/* pg-drop's answer with the flex counter off (sonic-utilities scripts/pg-drop) */
	if (memmem(text, len, "PG counters are disabled", 24))
		return rc_counters_add_disabled(out, port, "pg_discards",
						"sonic:show priority-group drop counters: disabled "
						"(counterpoll pg-drop enable)")
			   ? rc_errf(err, ENOMEM, "out of memory")
			   : 0;
	return parse_table(text, len, port, &pg, out, err);
}
