/* SPDX-License-Identifier: Apache-2.0 */
/* NVUE's row tables, as `nv show` prints them without -o json: a header naming the columns
 * ("operational", "applied", "description"), a rule of dashes under it that gives each
 * column's start, then one row per field, nested fields indented by two spaces and set
 * members as repeated "[key]" rows.  The shapes are those of the documented outputs in
 * the samples of the Cumulus Linux 5.18 QoS and RoCE pages (`nv show qos roce`, `nv show qos pfc
 * default- global.txt, nv_show_qos_traffic-pool_default-lossy.txt, ...).  Device output is
 * untrusted: anything else is an error naming the command. */
#include <errno.h>
#include <string.h>

#include "nvue.h"

#define MAX_COLS  8
#define MAX_DEPTH 8

struct line {
	const char *s;
	size_t n;
};

static bool next_line(const char *text, size_t len, size_t *off, struct line *l)
{
	size_t e = *off;

	if (*off >= len)
		return false;
	while (e < len && text[e] != '\n')
		e++;
	l->s = text + *off;
	l->n = e - *off;
	if (l->n && l->s[l->n - 1] == '\r')
		l->n--;
	*off = e < len ? e + 1 : e;
	return true;
}

static bool blank(const struct line *l)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->s[i] != ' ' && l->s[i] != '\t')
			return false;
	return true;
}

/* Column starts from a rule of dashes ("----  -------  -----"); 0 if it is not one. */
static int rule_cols(const struct line *l, size_t *start)
{
	int n = 0;

	if (!l->n || l->s[0] != '-')
		return 0;
	for (size_t i = 0; i < l->n; i++) {
		if (l->s[i] != '-' && l->s[i] != ' ')
			return 0;
		if (l->s[i] == '-' && (i == 0 || l->s[i - 1] == ' ')) {
			if (n == MAX_COLS)
				return 0;
			start[n++] = i;
		}
	}
	return n;
}

/* The text of line l from a to b, blanks trimmed, into out. */
static void cell(const struct line *l, size_t a, size_t b, char *out, size_t olen)
{
	size_t o = 0;

	if (b > l->n)
		b = l->n;
	while (a < b && l->s[a] == ' ')
		a++;
	while (b > a && l->s[b - 1] == ' ')
		b--;
	for (; a < b && o + 1 < olen; a++)
		out[o++] = (l->s[a] >= 0x20 && l->s[a] < 0x7f) ? l->s[a] : '?';
	out[o] = '\0';
}

static int find_col(const struct line *hdr, const size_t *start, int ncols, const char *column)
{
	char name[64];

	for (int c = 1; c < ncols; c++) {
		cell(hdr, start[c], c + 1 < ncols ? start[c + 1] : hdr->n, name, sizeof(name));
		if (!strcmp(name, column))
			return c;
	}
	return -1;
}

/* Append v to out ("a,b" for set members). */
static void append(char *out, size_t olen, bool *found, const char *v)
{
	size_t n = strlen(out);

	if (*found && n + 1 < olen)
		out[n++] = ',';
	snprintf(out + n, olen - n, "%s", v);
	*found = true;
}

int nvue_text_field(const char *text, size_t len, const char *cmd, const char *field,
		    const char *column, char *out, size_t olen, struct rc_err *err)
{
	char stack[MAX_DEPTH][RC_NAME_MAX], path[MAX_DEPTH * RC_NAME_MAX], v[256];
	size_t off = 0, start[MAX_COLS];
	struct line hdr = {0}, l;
	bool found = false;
	int ncols = 0, col;

	out[0] = '\0';
	while (next_line(text, len, &off, &hdr) && blank(&hdr))
		;
	if (!hdr.s || !next_line(text, len, &off, &l) || (ncols = rule_cols(&l, start)) < 2)
		return rc_errf(err, EPROTO,
			       "'%s': unexpected output: no table header with a rule of dashes",
			       cmd);
	col = find_col(&hdr, start, ncols, column);
	if (col < 0)
		return rc_errf(err, EPROTO, "'%s': unexpected output: no '%s' column", cmd, column);
	/* the table ends at a blank line or at the "====" rule under the next title */
	while (next_line(text, len, &off, &l) && !blank(&l) && l.s[0] != '=') {
		size_t ind = 0, k;
		int depth;

		while (ind < l.n && l.s[ind] == ' ')
			ind++;
		depth = (int)(ind / 2);
		if (depth >= MAX_DEPTH || ind % 2)
			return rc_errf(err, EPROTO,
				       "'%s': unexpected output: row indented by %zu spaces", cmd,
				       ind);
		for (k = ind; k < l.n && l.s[k] != ' '; k++)
			;
		cell(&l, ind, k, stack[depth], sizeof(stack[depth]));
		path[0] = '\0';
		for (int d = 0; d <= depth; d++) {
			size_t n = strlen(path);

			snprintf(path + n, sizeof(path) - n, "%s%s", d ? "." : "", stack[d]);
		}
		if (strcmp(path, field))
			continue;
		/* a key wider than its column pushes the values right ("small-packet-
		 * probability 60" in nv_show_interface_swp1-5_qos_pfc.txt) */
		cell(&l, start[col] > k ? start[col] : k,
		     col + 1 < ncols ? (start[col + 1] > k ? start[col + 1] : l.n) : l.n, v,
		     sizeof(v));
		if (v[0] || !found)
			append(out, olen, &found, v);
	}
	return found ? 0 : 1;
}
