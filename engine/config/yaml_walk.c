/* SPDX-License-Identifier: Apache-2.0 */
/* Strict typed reading of YAML trees.  Values from the file are shown in messages only
 * through yw_show() (printable, truncated) so that an error stays one line, and never for
 * a key we refuse (a literal password's value must not reach a terminal or a log). */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/units.h"
#include "yaml_walk.h"

#define SHOW_MAX 48

int yw_fail(struct yw *w, const struct yd_node *n, const char *fmt, ...)
{
	char msg[RC_ERR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return rc_err_at(w->err, EINVAL, w->file, n ? n->line : 1, n ? n->col : 1, "%s", msg);
}

void yw_join(char *out, const char *parent, const char *key)
{
	if (!parent || !*parent)
		snprintf(out, YW_PATH_MAX, "%s", key);
	else
		snprintf(out, YW_PATH_MAX, "%s.%s", parent, key);
}

void yw_index(char *out, const char *parent, size_t i)
{
	snprintf(out, YW_PATH_MAX, "%s[%zu]", parent, i);
}

/* Printable, at most SHOW_MAX characters (then "..."). */
static void sanitize(const char *str, size_t n, char *buf, size_t len)
{
	size_t o = 0;

	for (size_t i = 0; i < n && o + 4 < len && o < SHOW_MAX; i++) {
		unsigned char c = (unsigned char)str[i];

		buf[o++] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
	}
	if (o < n && o + 4 <= len) {
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o] = '\0';
}

void yw_show(const struct yd_node *n, char *buf, size_t len)
{
	char s[SHOW_MAX + 4];

	if (n->kind != YD_SCALAR || yd_is_null(n)) {
		snprintf(buf, len, "%s", yd_describe(n));
		return;
	}
	sanitize(n->str, n->len, s, sizeof(s));
	snprintf(buf, len, "'%s'", s);
}

static int find_name(const char *const *names, const char *key)
{
	for (int i = 0; names[i]; i++)
		if (!strcmp(names[i], key))
			return i;
	return -1;
}

/* Levenshtein distance, for "did you mean"; both strings are short key names. */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[64];

	if (la >= 64 || lb >= 64)
		return SIZE_MAX;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

static int unknown_key(struct yw *w, const struct yd_node *k, const char *path,
		       const char *const *names)
{
	char key[SHOW_MAX + 4], list[256];
	const char *best = NULL, *dot = *path ? "." : "";
	size_t best_d = 3, o = 0;

	sanitize(k->str, k->len, key, sizeof(key));
	/* Say why, and never echo the value: it is the secret. */
	if (!strcmp(k->str, "password") || !strcmp(k->str, "passwd"))
		return yw_fail(w, k,
			       "%s%s%s: literal passwords are not accepted; use password_file "
			       "or password_env",
			       path, dot, key);
	for (int i = 0; names[i]; i++) {
		size_t d = distance(k->str, names[i]);

		if (d < best_d) {
			best_d = d;
			best = names[i];
		}
	}
	if (best)
		return yw_fail(w, k, "%s%s%s: unknown key; did you mean '%s'?", path, dot, key,
			       best);
	list[0] = '\0';
	for (int i = 0; names[i] && o < sizeof(list); i++)
		o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%s", i ? ", " : "", names[i]);
	return yw_fail(w, k, "%s%s%s: unknown key (expected one of: %s)", path, dot, key, list);
}

static int expected(struct yw *w, const struct yd_node *n, const char *path, const char *what)
{
	char shown[SHOW_MAX + 8];

	yw_show(n, shown, sizeof(shown));
	return yw_fail(w, n, "%s: %s, found %s", path, what, shown);
}

/* Numbers and booleans must be plain: a quoted "26" is a string in YAML. */
static int expected_plain(struct yw *w, const struct yd_node *n, const char *path, const char *what)
{
	char shown[SHOW_MAX + 8];

	if (n->kind != YD_SCALAR || n->plain)
		return expected(w, n, path, what);
	yw_show(n, shown, sizeof(shown));
	return yw_fail(w, n, "%s: %s, found the quoted string %s (write it without quotes)", path,
		       what, shown);
}

static const struct yd_node *lookup(const struct yd_node *map, const char *key)
{
	for (size_t i = 0; i < map->n; i++)
		if (!strcmp(map->kids[2 * i]->str, key))
			return map->kids[2 * i + 1];
	return NULL;
}

int yw_check_header(struct yw *w, const struct yd_node *root, const char *kind, const char *hint)
{
	const struct yd_node *api, *k;
	char shown[SHOW_MAX + 8];

	if (root->kind != YD_MAP) {
		yw_show(root, shown, sizeof(shown));
		return yw_fail(w, root, "expected a mapping at the top level, found %s", shown);
	}
	api = lookup(root, "apiVersion");
	k = lookup(root, "kind");
	if (!api)
		return yw_fail(w, root, "missing required key 'apiVersion' (rocectl/v1)");
	if (api->kind != YD_SCALAR || strcmp(api->str, "rocectl/v1") != 0)
		return expected(w, api, "apiVersion", "expected 'rocectl/v1'");
	if (!k)
		return yw_fail(w, root, "missing required key 'kind' (%s)", kind);
	if (k->kind != YD_SCALAR || strcmp(k->str, kind) != 0) {
		yw_show(k, shown, sizeof(shown));
		return yw_fail(w, k, "kind: expected '%s', found %s%s", kind, shown,
			       k->kind == YD_SCALAR ? hint : "");
	}
	return 0;
}

int yw_map(struct yw *w, const struct yd_node *n, const char *path, const char *const *names,
	   struct yw_map *m)
{
	char shown[SHOW_MAX + 8];

	memset(m, 0, sizeof(*m));
	m->node = n;
	m->names = names;
	snprintf(m->path, sizeof(m->path), "%s", path);
	if (n->kind != YD_MAP) {
		yw_show(n, shown, sizeof(shown));
		if (!*path)
			return yw_fail(w, n, "expected a mapping at the top level, found %s",
				       shown);
		return yw_fail(w, n, "%s: expected a mapping, found %s", path, shown);
	}
	for (size_t i = 0; i < n->n; i++) {
		const struct yd_node *k = n->kids[2 * i];
		int idx;

		if (yd_is_null(k) || k->len == 0)
			return yw_fail(w, k, "%s%sempty key", path, *path ? ": " : "");
		idx = find_name(names, k->str);
		if (idx < 0 || idx >= YW_MAX_KEYS)
			return unknown_key(w, k, path, names);
		if (m->key[idx]) {
			char kpath[YW_PATH_MAX];

			yw_join(kpath, path, names[idx]);
			return yw_fail(w, k, "%s: duplicate key (first at %d:%d)", kpath,
				       m->key[idx]->line, m->key[idx]->col);
		}
		m->key[idx] = k;
		m->val[idx] = n->kids[2 * i + 1];
	}
	return 0;
}

const struct yd_node *yw_get(const struct yw_map *m, const char *name)
{
	int i = find_name(m->names, name);

	return i < 0 || i >= YW_MAX_KEYS ? NULL : m->val[i];
}

const struct yd_node *yw_get_key(const struct yw_map *m, const char *name)
{
	int i = find_name(m->names, name);

	return i < 0 || i >= YW_MAX_KEYS ? NULL : m->key[i];
}

int yw_require(struct yw *w, const struct yw_map *m, const char *const *keys)
{
	for (; *keys; keys++) {
		if (yw_get(m, *keys))
			continue;
		if (!*m->path)
			return yw_fail(w, m->node, "missing required key '%s'", *keys);
		return yw_fail(w, m->node, "%s: missing required key '%s'", m->path, *keys);
	}
	return 0;
}

static bool is_scalar_value(const struct yd_node *n)
{
	return n->kind == YD_SCALAR && !yd_is_null(n);
}

int yw_uint(struct yw *w, const struct yd_node *n, const char *path, uint64_t min, uint64_t max,
	    uint64_t *out)
{
	char what[96];
	uint64_t v = 0;

	snprintf(what, sizeof(what), "expected an integer %llu..%llu", (unsigned long long)min,
		 (unsigned long long)max);
	/* Plain decimal only: "026" is octal to some YAML readers, "0x1a" hex to others. */
	if (!is_scalar_value(n) || !n->plain || n->len > 20 || (n->str[0] == '0' && n->len > 1))
		return expected_plain(w, n, path, what);
	for (size_t i = 0; i < n->len; i++) {
		if (n->str[i] < '0' || n->str[i] > '9')
			return expected(w, n, path, what);
		if (__builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, (uint64_t)(n->str[i] - '0'), &v))
			return expected(w, n, path, what);
	}
	if (v < min || v > max)
		return expected(w, n, path, what);
	*out = v;
	return 0;
}

static int yw_bool(struct yw *w, const struct yd_node *n, const char *path, bool *out)
{
	if (is_scalar_value(n) && n->plain && !strcmp(n->str, "true"))
		*out = true;
	else if (is_scalar_value(n) && n->plain && !strcmp(n->str, "false"))
		*out = false;
	else
		return expected_plain(w, n, path, "expected true or false");
	return 0;
}

int yw_str(struct yw *w, const struct yd_node *n, const char *path, char *buf, size_t len)
{
	char what[64];

	if (!is_scalar_value(n))
		return expected(w, n, path, "expected a string");
	for (size_t i = 0; i < n->len; i++) {
		unsigned char c = (unsigned char)n->str[i];

		if (c < 0x20 || c == 0x7f)
			return expected(w, n, path, "expected text without control characters");
	}
	if (n->len >= len) {
		snprintf(what, sizeof(what), "expected at most %zu characters", len - 1);
		return expected(w, n, path, what);
	}
	memcpy(buf, n->str, n->len + 1);
	return 0;
}

static int yw_enum(struct yw *w, const struct yd_node *n, const char *path,
		   const char *const *names, int *out)
{
	char what[200];
	size_t o;

	if (is_scalar_value(n)) {
		for (int i = 0; names[i]; i++) {
			if (!strcmp(names[i], n->str)) {
				*out = i;
				return 0;
			}
		}
	}
	o = (size_t)snprintf(what, sizeof(what), "expected one of");
	for (int i = 0; names[i] && o < sizeof(what); i++)
		o += (size_t)snprintf(what + o, sizeof(what) - o, "%s %s", i ? "," : "", names[i]);
	return expected(w, n, path, what);
}

static int yw_size(struct yw *w, const struct yd_node *n, const char *path, uint64_t *out)
{
	const char *why = "expected a size like 150000, 150KB, 1.5MB or 146KiB";

	if (!is_scalar_value(n))
		return expected(w, n, path, why);
	if (rc_parse_size(n->str, out, &why) < 0)
		return expected(w, n, path, why);
	return 0;
}

int yw_length(struct yw *w, const struct yd_node *n, const char *path, uint32_t *out)
{
	const char *why = "expected a length like 3m, 100m or 2km";

	if (!is_scalar_value(n))
		return expected(w, n, path, why);
	if (rc_parse_length(n->str, out, &why) < 0)
		return expected(w, n, path, why);
	return 0;
}

static int yw_speed(struct yw *w, const struct yd_node *n, const char *path, uint32_t *out)
{
	const char *why = "expected a speed like 25G, 100G or 400G";

	if (!is_scalar_value(n))
		return expected(w, n, path, why);
	if (rc_parse_speed(n->str, out, &why) < 0)
		return expected(w, n, path, why);
	return 0;
}

/* A duration in whole milliseconds, 1ms .. max_ms. */
static int yw_ms(struct yw *w, const struct yd_node *n, const char *path, uint32_t max_ms,
		 uint32_t *out)
{
	const char *why = "expected a duration like 55us, 200ms or 1s";
	char what[96];
	uint64_t us;
	int rc;

	if (!is_scalar_value(n))
		return expected(w, n, path, why);
	rc = rc_parse_duration(n->str, &us, &why);
	if (rc < 0)
		return expected(w, n, path, why);
	if (us % 1000 != 0 || us < 1000 || us / 1000 > max_ms) {
		snprintf(what, sizeof(what), "expected whole milliseconds from 1ms to %lums",
			 (unsigned long)max_ms);
		return expected(w, n, path, what);
	}
	*out = (uint32_t)(us / 1000);
	return 0;
}

static int yw_percent(struct yw *w, const struct yd_node *n, const char *path, double *out)
{
	const char *why = "expected a percentage like 100%, 5% or 0.5%";

	if (!is_scalar_value(n))
		return expected(w, n, path, why);
	if (rc_parse_percent(n->str, out, &why) < 0)
		return expected(w, n, path, why);
	return 0;
}

/* A file path; a leading "~/" is expanded with $HOME. */
static int yw_path(struct yw *w, const struct yd_node *n, const char *path, char *buf, size_t len)
{
	char raw[PATH_MAX];
	const char *home;
	int rc, k;

	rc = yw_str(w, n, path, raw, sizeof(raw));
	if (rc < 0)
		return rc;
	if (raw[0] == '~' && raw[1] != '/')
		return expected(w, n, path, "expected a path; only a leading '~/' is expanded");
	if (raw[0] != '~') {
		k = snprintf(buf, len, "%s", raw);
	} else {
		home = getenv("HOME");
		if (!home || !*home)
			return yw_fail(w, n, "%s: cannot expand '~/': HOME is not set", path);
		k = snprintf(buf, len, "%s%s", home, raw + 1);
	}
	if (k < 0 || (size_t)k >= len)
		return expected(w, n, path, "expected a shorter path");
	return 0;
}

static const struct yd_node *field(const struct yw_map *m, const char *key, char *path)
{
	const struct yd_node *n = yw_get(m, key);

	if (n)
		yw_join(path, m->path, key);
	return n;
}

int yw_f_map(struct yw *w, const struct yw_map *m, const char *key, const char *const *names,
	     struct yw_map *sub)
{
	char path[YW_PATH_MAX];
	const struct yd_node *n = field(m, key, path);

	if (!n)
		return 0;
	return yw_map(w, n, path, names, sub) < 0 ? -EINVAL : 1;
}

int yw_f_seq(struct yw *w, const struct yw_map *m, const char *key, const struct yd_node **out)
{
	char path[YW_PATH_MAX];
	const struct yd_node *n = field(m, key, path);

	if (!n)
		return 0;
	if (n->kind != YD_SEQ)
		return expected(w, n, path, "expected a list");
	*out = n;
	return 1;
}

#define FIELD(call)                                                                                \
	do {                                                                                       \
		char path[YW_PATH_MAX];                                                            \
		const struct yd_node *n = field(m, key, path);                                     \
		if (!n)                                                                            \
			return 0;                                                                  \
		return (call) < 0 ? -EINVAL : 1;                                                   \
	} while (0)

int yw_f_uint(struct yw *w, const struct yw_map *m, const char *key, uint64_t min, uint64_t max,
	      uint64_t *out)
{
	FIELD(yw_uint(w, n, path, min, max, out));
}

int yw_f_u8(struct yw *w, const struct yw_map *m, const char *key, uint8_t max, uint8_t *out)
{
	uint64_t v;
	int rc = yw_f_uint(w, m, key, 0, max, &v);

	if (rc == 1)
		*out = (uint8_t)v;
	return rc;
}

int yw_f_bool(struct yw *w, const struct yw_map *m, const char *key, bool *out)
{
	FIELD(yw_bool(w, n, path, out));
}

int yw_f_str(struct yw *w, const struct yw_map *m, const char *key, char *buf, size_t len)
{
	FIELD(yw_str(w, n, path, buf, len));
}

int yw_f_enum(struct yw *w, const struct yw_map *m, const char *key, const char *const *names,
	      int *out)
{
	FIELD(yw_enum(w, n, path, names, out));
}

int yw_f_size(struct yw *w, const struct yw_map *m, const char *key, uint64_t *out)
{
	FIELD(yw_size(w, n, path, out));
}

int yw_f_length(struct yw *w, const struct yw_map *m, const char *key, uint32_t *out)
{
	FIELD(yw_length(w, n, path, out));
}

int yw_f_speed(struct yw *w, const struct yw_map *m, const char *key, uint32_t *out)
{
	FIELD(yw_speed(w, n, path, out));
}

int yw_f_ms(struct yw *w, const struct yw_map *m, const char *key, uint32_t max_ms, uint32_t *out)
{
	FIELD(yw_ms(w, n, path, max_ms, out));
}

int yw_f_percent(struct yw *w, const struct yw_map *m, const char *key, double *out)
{
	FIELD(yw_percent(w, n, path, out));
}

int yw_f_path(struct yw *w, const struct yw_map *m, const char *key, char *buf, size_t len)
{
	FIELD(yw_path(w, n, path, buf, len));
}
