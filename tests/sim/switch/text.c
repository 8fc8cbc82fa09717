/* SPDX-License-Identifier: Apache-2.0 */
/* Strings, tables, sizes and a small command-line splitter. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

static void sb_grow(struct sbuf *sb, size_t need)
{
	if (sb->len + need + 1 <= sb->cap)
		return;
	size_t cap = sb->cap ? sb->cap : 256;
	while (cap < sb->len + need + 1)
		cap *= 2;
	char *p = realloc(sb->buf, cap);
	if (!p)
		abort(); /* out of memory in a test simulator: nothing sensible to do */
	sb->buf = p;
	sb->cap = cap;
}

void sb_init(struct sbuf *sb)
{
	sb->buf = NULL;
	sb->len = 0;
	sb->cap = 0;
}

void sb_free(struct sbuf *sb)
{
	free(sb->buf);
	sb_init(sb);
}

void sb_reset(struct sbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

void sb_addn(struct sbuf *sb, const char *s, size_t n)
{
	sb_grow(sb, n);
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void sb_adds(struct sbuf *sb, const char *s)
{
	sb_addn(sb, s, strlen(s));
}

void sb_addc(struct sbuf *sb, char c)
{
	sb_grow(sb, 1);
	sb->buf[sb->len++] = c;
	sb->buf[sb->len] = '\0';
}

void sb_addf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	sb_grow(sb, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

void sb_indent(struct sbuf *sb, int n)
{
	if (n <= 0)
		return;
	sb_grow(sb, (size_t)n);
	memset(sb->buf + sb->len, ' ', (size_t)n);
	sb->len += (size_t)n;
	sb->buf[sb->len] = '\0';
}

const char *sb_str(const struct sbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

/* ---- tables ---- */

static void table_add(struct table *t, const char *const *cells)
{
	if (t->nrows == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 16;
		t->cells = realloc(t->cells, sizeof(char *) * (size_t)t->cap * (size_t)t->ncols);
		if (!t->cells)
			abort();
	}
	for (int c = 0; c < t->ncols; c++)
		t->cells[t->nrows * t->ncols + c] = strdup(cells[c] ? cells[c] : "");
	t->nrows++;
}

void table_init(struct table *t, int ncols, ...)
{
	const char *hdr[16];
	va_list ap;
	t->ncols = ncols;
	t->nrows = 0;
	t->cap = 0;
	t->cells = NULL;
	va_start(ap, ncols);
	for (int c = 0; c < ncols && c < 16; c++)
		hdr[c] = va_arg(ap, const char *);
	va_end(ap);
	table_add(t, hdr);
}

void table_row(struct table *t, ...)
{
	const char *cells[16];
	va_list ap;
	va_start(ap, t);
	for (int c = 0; c < t->ncols && c < 16; c++)
		cells[c] = va_arg(ap, const char *);
	va_end(ap);
	table_add(t, cells);
}

void table_rowv(struct table *t, const char *const *cells)
{
	table_add(t, cells);
}

void table_print(struct sbuf *out, const struct table *t, int indent)
{
	size_t w[16] = {0};
	int last = t->ncols - 1;
	for (int r = 0; r < t->nrows; r++)
		for (int c = 0; c < t->ncols; c++) {
			size_t l = strlen(t->cells[r * t->ncols + c]);
			if (l > w[c])
				w[c] = l;
		}
	/* trailing empty columns are dropped per line, as NVUE's tabulated output does */
	for (int r = 0; r < t->nrows; r++) {
		struct sbuf line;
		sb_init(&line);
		sb_indent(&line, indent);
		for (int c = 0; c < t->ncols; c++) {
			const char *cell = t->cells[r * t->ncols + c];
			sb_adds(&line, cell);
			if (c < last)
				sb_indent(&line, (int)(w[c] - strlen(cell)) + 2);
		}
		while (line.len && line.buf[line.len - 1] == ' ')
			line.buf[--line.len] = '\0';
		sb_adds(out, sb_str(&line));
		sb_addc(out, '\n');
		sb_free(&line);
		if (r == 0) {
			sb_indent(out, indent);
			for (int c = 0; c < t->ncols; c++) {
				for (size_t i = 0; i < (w[c] ? w[c] : 1); i++)
					sb_addc(out, '-');
				if (c < last)
					sb_adds(out, "  ");
			}
			sb_addc(out, '\n');
		}
	}
}

void table_free(struct table *t)
{
	for (int i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	t->cells = NULL;
	t->nrows = 0;
	t->cap = 0;
}

void fmt_bin_size(char *buf, size_t len, double bytes)
{
	if (bytes >= 1024.0 * 1024.0)
		snprintf(buf, len, "%.2f MB", bytes / (1024.0 * 1024.0));
	else if (bytes >= 1024.0)
		snprintf(buf, len, "%.2f KB", bytes / 1024.0);
	else
		snprintf(buf, len, "%.0f B", bytes);
}

/* ---- small parsers ---- */

bool is_uint(const char *s)
{
	if (!s || !*s || strlen(s) > 18)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

int parse_id_list(const char *s, long lo, long hi, long *ids, int max)
{
	int n = 0;
	char tmp[256];
	if (!s || strlen(s) >= sizeof(tmp))
		return -1;
	strcpy(tmp, s);
	char *save = NULL;
	for (char *item = strtok_r(tmp, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char *dash = strchr(item, '-');
		long a, b;
		if (dash) {
			*dash = '\0';
			if (!is_uint(item) || !is_uint(dash + 1))
				return -1;
			a = strtol(item, NULL, 10);
			b = strtol(dash + 1, NULL, 10);
		} else {
			if (!is_uint(item))
				return -1;
			a = b = strtol(item, NULL, 10);
		}
		if (a > b || a < lo || b > hi)
			return -1;
		for (long v = a; v <= b; v++) {
			bool dup = false;
			for (int i = 0; i < n; i++)
				dup |= ids[i] == v;
			if (dup)
				continue;
			if (n == max)
				return -1;
			ids[n++] = v;
		}
	}
	return n ? n : -1;
}

bool is_safe_name(const char *s)
{
	size_t n = s ? strlen(s) : 0;
	if (n == 0 || n >= SIM_NAME_MAX || s[0] == '.' || s[0] == '-')
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("._:-", *s))
			return false;
	return true;
}

int match_word(const char *word, const char *const *cands, int n)
{
	int found = -1;
	size_t l = strlen(word);
	if (l == 0)
		return -1;
	for (int i = 0; i < n; i++)
		if (strcmp(word, cands[i]) == 0)
			return i;
	for (int i = 0; i < n; i++) {
		if (strncmp(word, cands[i], l) != 0)
			continue;
		if (found >= 0)
			return -2;
		found = i;
	}
	return found;
}

/* ---- command-line splitter ---- */

struct words {
	char **v;
	int n;
	int cap;
};

static void words_push(struct words *w, char *s)
{
	if (w->n + 1 >= w->cap) {
		w->cap = w->cap ? w->cap * 2 : 8;
		w->v = realloc(w->v, sizeof(char *) * (size_t)w->cap);
		if (!w->v)
			abort();
	}
	w->v[w->n++] = s;
	w->v[w->n] = NULL;
}

static int cmd_push(struct sh_cmd **cmds, int *n, struct words *w, enum sh_link link)
{
	if (w->n == 0) {
		free(w->v);
		w->v = NULL;
		w->cap = 0;
		/* "a ;; b" or a leading "&&" is a syntax error in sh; a lone ';' is not */
		return link == SH_AND || link == SH_OR ? -1 : 0;
	}
	struct sh_cmd *p = realloc(*cmds, sizeof(**cmds) * (size_t)(*n + 1));
	if (!p)
		abort();
	*cmds = p;
	p[*n].argc = w->n;
	p[*n].argv = w->v;
	p[*n].link = link;
	(*n)++;
	w->v = NULL;
	w->n = 0;
	w->cap = 0;
	return 0;
}

int sh_split(const char *line, struct sh_cmd **cmds, char *err, size_t errlen)
{
	struct words w = {0};
	struct sbuf cur;
	bool in_word = false;
	int n = 0;
	const char *p = line;

	*cmds = NULL;
	if (strchr(line, SH_SUBST_BEGIN) || strchr(line, SH_SUBST_END)) {
		snprintf(err, errlen, "unsupported control character in the command line");
		return -1;
	}
	sb_init(&cur);
	for (;;) {
		char c = *p;
		bool sep = c == '\0' || c == ' ' || c == '\t' || c == '\n' || c == ';' ||
			   c == '&' || c == '|' || c == '#';
		if (c == '#' && in_word)
			sep = false;
		if (sep && in_word) {
			words_push(&w, strdup(sb_str(&cur)));
			sb_reset(&cur);
			in_word = false;
		}
		if (c == '\0')
			break;
		if (c == ' ' || c == '\t') {
			p++;
			continue;
		}
		if (sep) {
			enum sh_link link = SH_SEQ;
			if (c == '#') {
				while (*p && *p != '\n')
					p++;
				continue;
			}
			if (c == '&' || c == '|') {
				if (p[1] != c) {
					snprintf(err, errlen, "unsupported shell syntax '%c'", c);
					goto fail;
				}
				link = c == '&' ? SH_AND : SH_OR;
				p++;
			}
			p++;
			if (cmd_push(cmds, &n, &w, link) < 0) {
				snprintf(err, errlen, "syntax error near unexpected token '%s'",
					 link == SH_AND ? "&&" : "||");
				goto fail;
			}
			continue;
		}
		if (strchr("<>`$()", c)) {
			snprintf(err, errlen, "unsupported shell syntax '%c'", c);
			goto fail;
		}
		in_word = true;
		if (c == '\'') {
			const char *end = strchr(p + 1, '\'');
			if (!end) {
				snprintf(err, errlen, "unterminated quoted string");
				goto fail;
			}
			sb_addn(&cur, p + 1, (size_t)(end - p - 1));
			p = end + 1;
		} else if (c == '"') {
			p++;
			while (*p && *p != '"') {
				if (*p == '\\' && p[1] && strchr("\"\\$`\n", p[1])) {
					p++;
				} else if (*p == '$' && p[1] == '(') {
					/* "$(cmd)": kept between SH_SUBST_BEGIN and SH_SUBST_END,
					 * run by sh_expand; cmd's own quotes end at its ')' */
					const char *q = p + 2;
					int depth = 1;
					char quote = 0;
					for (; *q && depth; q++) {
						if (quote) {
							quote = *q == quote ? 0 : quote;
						} else if (*q == '\'' || *q == '"') {
							quote = *q;
						} else if (*q == '(') {
							depth++;
						} else if (*q == ')') {
							depth--;
						}
					}
					if (depth) {
						snprintf(err, errlen,
							 "unterminated command substitution");
						goto fail;
					}
					sb_addc(&cur, SH_SUBST_BEGIN);
					sb_addn(&cur, p + 2, (size_t)(q - 1 - (p + 2)));
					sb_addc(&cur, SH_SUBST_END);
					p = q;
					continue;
				} else if (*p == '$' || *p == '`') {
					snprintf(err, errlen, "unsupported shell syntax '%c'", *p);
					goto fail;
				}
				sb_addc(&cur, *p++);
			}
			if (*p != '"') {
				snprintf(err, errlen, "unterminated quoted string");
				goto fail;
			}
			p++;
		} else if (c == '\\') {
			if (p[1] == '\n') {
				p += 2;
				continue;
			}
			if (p[1])
				sb_addc(&cur, p[1]);
			p += p[1] ? 2 : 1;
		} else {
			sb_addc(&cur, c);
			p++;
		}
	}
	if (n > 0 && w.n == 0 && ((*cmds)[n - 1].link == SH_AND || (*cmds)[n - 1].link == SH_OR)) {
		snprintf(err, errlen, "syntax error: unexpected end of file");
		goto fail;
	}
	cmd_push(cmds, &n, &w, SH_END);
	if (n > 0)
		(*cmds)[n - 1].link = SH_END;
	sb_free(&cur);
	return n;
fail:
	for (int i = 0; i < w.n; i++)
		free(w.v[i]);
	free(w.v);
	sb_free(&cur);
	sh_free(*cmds, n);
	*cmds = NULL;
	return -1;
}

int sh_expand(int argc, char **argv, sh_subst_fn run, void *arg)
{
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *b;
		struct sbuf w;

		if (!strchr(a, SH_SUBST_BEGIN))
			continue;
		sb_init(&w);
		while ((b = strchr(a, SH_SUBST_BEGIN))) {
			const char *e = strchr(b, SH_SUBST_END);
			struct sbuf out;
			char *inner;

			if (!e)
				abort(); /* sh_split always closes what it opens */
			sb_addn(&w, a, (size_t)(b - a));
			inner = strndup(b + 1, (size_t)(e - b - 1));
			if (!inner)
				abort();
			sb_init(&out);
			run(arg, inner, &out);
			free(inner);
			/* sh drops the trailing newlines of what the command printed */
			while (out.len && sb_str(&out)[out.len - 1] == '\n')
				out.len--;
			sb_addn(&w, sb_str(&out), out.len);
			sb_free(&out);
			a = e + 1;
		}
		sb_addn(&w, a, strlen(a));
		free(argv[i]);
		argv[i] = strdup(sb_str(&w));
		sb_free(&w);
		if (!argv[i])
			abort();
	}
	return 0;
}

void sh_free(struct sh_cmd *cmds, int n)
{
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < cmds[i].argc; j++)
			free(cmds[i].argv[j]);
		free(cmds[i].argv);
	}
	free(cmds);
}

bool sh_builtin(FILE *out, int argc, char **argv, int *status, bool *quit)
{
	if (!strcmp(argv[0], "exit") || !strcmp(argv[0], "logout")) {
		*quit = true;
		*status = argc > 1 ? atoi(argv[1]) : 0;
	} else if (!strcmp(argv[0], "true") || !strcmp(argv[0], "false")) {
		*status = argv[0][0] == 'f';
	} else if (!strcmp(argv[0], "echo")) {
		for (int i = 1; i < argc; i++)
			fprintf(out, "%s%s", i > 1 ? " " : "", argv[i]);
		fprintf(out, "\n");
		*status = 0;
	} else {
		return false;
	}
	return true;
}
