/* SPDX-License-Identifier: Apache-2.0 */
/* cJSON helpers: paths, merge patches, and NVUE-like JSON / YAML printing. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

cJSON *jget1(const cJSON *obj, const char *key)
{
	if (!cJSON_IsObject(obj))
		return NULL;
	return cJSON_GetObjectItemCaseSensitive(obj, key);
}

cJSON *jget(const cJSON *root, const char *const *path, int n)
{
	const cJSON *cur = root;
	for (int i = 0; i < n && cur; i++)
		cur = jget1(cur, path[i]);
	return (cJSON *)cur;
}

void jput(cJSON *obj, const char *key, cJSON *val)
{
	if (cJSON_GetObjectItemCaseSensitive(obj, key))
		cJSON_ReplaceItemInObjectCaseSensitive(obj, key, val);
	else
		cJSON_AddItemToObject(obj, key, val);
}

cJSON *jmkpath(cJSON *root, const char *const *path, int n)
{
	cJSON *cur = root;
	for (int i = 0; i < n; i++) {
		cJSON *next = jget1(cur, path[i]);
		if (!cJSON_IsObject(next)) {
			next = cJSON_CreateObject();
			jput(cur, path[i], next);
		}
		cur = next;
	}
	return cur;
}

void jset(cJSON *root, const char *const *path, int n, cJSON *val)
{
	if (n == 0) {
		cJSON_Delete(val);
		return;
	}
	cJSON *parent = jmkpath(root, path, n - 1);
	jput(parent, path[n - 1], val);
}

bool jdel(cJSON *root, const char *const *path, int n)
{
	if (n == 0)
		return false;
	cJSON *parent = jget(root, path, n - 1);
	if (!cJSON_IsObject(parent) || !jget1(parent, path[n - 1]))
		return false;
	cJSON_DeleteItemFromObjectCaseSensitive(parent, path[n - 1]);
	return true;
}

bool jis_long(const cJSON *v)
{
	/* the range test first: converting an out-of-range double to long is undefined */
	return cJSON_IsNumber(v) && v->valuedouble >= -9.0e15 && v->valuedouble <= 9.0e15 &&
	       v->valuedouble == floor(v->valuedouble);
}

long jlong(const cJSON *v, long dflt)
{
	return jis_long(v) ? (long)v->valuedouble : dflt;
}

long jint(const cJSON *obj, const char *key, long dflt)
{
	return jlong(jget1(obj, key), dflt);
}

const char *jstr(const cJSON *obj, const char *key, const char *dflt)
{
	const cJSON *v = jget1(obj, key);
	return cJSON_IsString(v) ? v->valuestring : dflt;
}

#define JMERGE_DEPTH 32

static void jmerge_at(cJSON *dst, const cJSON *src, jreplace_fn fn, void *arg, const char **path,
		      int n)
{
	const cJSON *s;
	cJSON_ArrayForEach(s, src)
	{
		if (n >= JMERGE_DEPTH)
			return;
		path[n] = s->string;
		cJSON *d = jget1(dst, s->string);
		if (cJSON_IsNull(s)) {
			if (d)
				cJSON_DeleteItemFromObjectCaseSensitive(dst, s->string);
		} else if (cJSON_IsObject(s) && cJSON_IsObject(d) &&
			   !(fn && fn(path, n + 1, arg))) {
			jmerge_at(d, s, fn, arg, path, n + 1);
		} else if (cJSON_IsObject(s)) {
			/* RFC 7386: an object replaces a non-object (or a replaced one) as the
			 * patch applied to {}, so its nulls remove members, never stay */
			cJSON *o = cJSON_CreateObject();
			jmerge_at(o, s, fn, arg, path, n + 1);
			jput(dst, s->string, o);
		} else {
			jput(dst, s->string, cJSON_Duplicate(s, true));
		}
	}
}

void jmerge(cJSON *dst, const cJSON *src, jreplace_fn replace_at, void *arg)
{
	const char *path[JMERGE_DEPTH];
	if (cJSON_IsObject(dst) && cJSON_IsObject(src))
		jmerge_at(dst, src, replace_at, arg, path, 0);
}

cJSON *jparse_loose(const char *s)
{
	if (!s || !*s)
		return NULL;
	cJSON *j = cJSON_Parse(s);
	if (j)
		return j;
	return cJSON_CreateString(s);
}

int split_path(char *s, char sep, char **parts, int max)
{
	int n = 0;
	char *p = s;
	if (!*s)
		return 0;
	for (;;) {
		if (n == max)
			return -1;
		parts[n++] = p;
		char *d = strchr(p, sep);
		if (!d)
			break;
		*d = '\0';
		p = d + 1;
	}
	return n;
}

/* ---- printing ---- */

static int key_cmp(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	if (is_uint(x) && is_uint(y)) {
		long long u = atoll(x), v = atoll(y);
		return u < v ? -1 : u > v;
	}
	return strcmp(x, y);
}

int jkeys_sorted(const cJSON *obj, const char ***keys)
{
	int n = cJSON_GetArraySize(obj), i = 0;
	const cJSON *c;
	*keys = calloc((size_t)n + 1, sizeof(char *));
	if (!*keys)
		abort();
	cJSON_ArrayForEach(c, obj)(*keys)[i++] = c->string;
	qsort(*keys, (size_t)i, sizeof(char *), key_cmp);
	return i;
}

/* Runs of characters that need no escape go in one copy: a switch's read prints ~20 KB of
 * JSON, and a call per byte was most of the lab server's printing (perf, switchsim-mux). */
static void jstring(struct sbuf *out, const char *s)
{
	sb_addc(out, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		const unsigned char *run = p;
		while (*p >= 0x20 && *p != '"' && *p != '\\')
			p++;
		if (p > run)
			sb_addn(out, (const char *)run, (size_t)(p - run));
		if (!*p)
			break;
		switch (*p) {
		case '"':
			sb_adds(out, "\\\"");
			break;
		case '\\':
			sb_adds(out, "\\\\");
			break;
		case '\n':
			sb_adds(out, "\\n");
			break;
		case '\t':
			sb_adds(out, "\\t");
			break;
		case '\r':
			sb_adds(out, "\\r");
			break;
		default:
			sb_addf(out, "\\u%04x", *p);
		}
	}
	sb_addc(out, '"');
}

static void jnumber(struct sbuf *out, double d)
{
	char buf[40];
	if (d == floor(d) && fabs(d) < 9e15) {
		snprintf(buf, sizeof(buf), "%lld", (long long)d);
		sb_adds(out, buf);
		return;
	}
	/* the shortest form that reads back as the same double (0.1, not 0.100...01) */
	snprintf(buf, sizeof(buf), "%.15g", d);
	if (strtod(buf, NULL) != d)
		snprintf(buf, sizeof(buf), "%.17g", d);
	sb_adds(out, buf);
}

/* An object's members in key_cmp's order, each key tested for a number once (not once per
 * comparison) and its value taken from the member itself (not looked up by key again). */
struct jmember {
	const cJSON *c;
	long long num;
	bool is_num;
};

static int member_cmp(const void *a, const void *b)
{
	const struct jmember *x = a, *y = b;
	if (x->is_num && y->is_num)
		return x->num < y->num ? -1 : x->num > y->num;
	return strcmp(x->c->string, y->c->string);
}

static void jprint_at(struct sbuf *out, const cJSON *j, int ind)
{
	if (cJSON_IsObject(j)) {
		struct jmember small[32], *m = small;
		int n = 0;
		const cJSON *c;
		cJSON_ArrayForEach(c, j) n++;
		if (n == 0) {
			sb_adds(out, "{}");
			return;
		}
		if (n > (int)(sizeof(small) / sizeof(*small))) {
			m = malloc((size_t)n * sizeof(*m));
			if (!m)
				abort();
		}
		n = 0;
		cJSON_ArrayForEach(c, j)
		{
			bool num = is_uint(c->string);
			m[n++] = (struct jmember){
			    .c = c, .num = num ? atoll(c->string) : 0, .is_num = num};
		}
		qsort(m, (size_t)n, sizeof(*m), member_cmp);
		sb_adds(out, "{\n");
		for (int i = 0; i < n; i++) {
			sb_indent(out, ind + 2);
			jstring(out, m[i].c->string);
			sb_adds(out, ": ");
			jprint_at(out, m[i].c, ind + 2);
			sb_adds(out, i + 1 < n ? ",\n" : "\n");
		}
		sb_indent(out, ind);
		sb_addc(out, '}');
		if (m != small)
			free(m);
	} else if (cJSON_IsArray(j)) {
		int n = cJSON_GetArraySize(j), i = 0;
		const cJSON *c;
		if (n == 0) {
			sb_adds(out, "[]");
			return;
		}
		sb_adds(out, "[\n");
		cJSON_ArrayForEach(c, j)
		{
			sb_indent(out, ind + 2);
			jprint_at(out, c, ind + 2);
			sb_adds(out, ++i < n ? ",\n" : "\n");
		}
		sb_indent(out, ind);
		sb_addc(out, ']');
	} else if (cJSON_IsString(j)) {
		jstring(out, j->valuestring);
	} else if (cJSON_IsNumber(j)) {
		jnumber(out, j->valuedouble);
	} else if (cJSON_IsTrue(j)) {
		sb_adds(out, "true");
	} else if (cJSON_IsFalse(j)) {
		sb_adds(out, "false");
	} else {
		sb_adds(out, "null");
	}
}

void jprint(struct sbuf *out, const cJSON *j)
{
	jprint_at(out, j, 0);
	sb_addc(out, '\n');
}

/* YAML needs quotes for strings a YAML 1.1 reader would not read back as the same string;
 * NVUE leaves on/off bare, so do we. */
static void yscalar(struct sbuf *out, const char *s)
{
	bool quote = !*s || is_uint(s) || strchr("-?:,[]{}#&*!|>'\"%@` ", s[0]) ||
		     strstr(s, ": ") || strstr(s, " #") || s[strlen(s) - 1] == ' ' ||
		     strcmp(s, "null") == 0 || strcmp(s, "true") == 0 || strcmp(s, "false") == 0;
	if (!quote) {
		for (const char *p = s; *p; p++)
			if ((unsigned char)*p < 0x20)
				quote = true;
	}
	if (!quote) {
		sb_adds(out, s);
		return;
	}
	sb_addc(out, '\'');
	for (const char *p = s; *p; p++) {
		if (*p == '\'')
			sb_addc(out, '\'');
		sb_addc(out, (unsigned char)*p < 0x20 ? ' ' : *p);
	}
	sb_addc(out, '\'');
}

static void yvalue_inline(struct sbuf *out, const cJSON *j)
{
	if (cJSON_IsString(j))
		yscalar(out, j->valuestring);
	else if (cJSON_IsNumber(j))
		jnumber(out, j->valuedouble);
	else if (cJSON_IsTrue(j))
		sb_adds(out, "true");
	else if (cJSON_IsFalse(j))
		sb_adds(out, "false");
}

void yprint(struct sbuf *out, const cJSON *j, int ind)
{
	if (cJSON_IsObject(j)) {
		const char **keys;
		int n = jkeys_sorted(j, &keys);
		for (int i = 0; i < n; i++) {
			const cJSON *v = jget1(j, keys[i]);
			sb_indent(out, ind);
			yscalar(out, keys[i]);
			sb_addc(out, ':');
			if (cJSON_IsObject(v) && cJSON_GetArraySize(v) > 0) {
				sb_addc(out, '\n');
				yprint(out, v, ind + 2);
			} else if (cJSON_IsObject(v)) {
				sb_adds(out, " {}\n");
			} else if (cJSON_IsArray(v)) {
				sb_addc(out, '\n');
				yprint(out, v, ind + 2);
			} else if (cJSON_IsNull(v)) {
				sb_addc(out, '\n');
			} else {
				sb_addc(out, ' ');
				yvalue_inline(out, v);
				sb_addc(out, '\n');
			}
		}
		free(keys);
	} else if (cJSON_IsArray(j)) {
		const cJSON *c;
		cJSON_ArrayForEach(c, j)
		{
			sb_indent(out, ind);
			sb_adds(out, "- ");
			if (cJSON_IsObject(c) && cJSON_GetArraySize(c) > 0) {
				/* first key on the dash line, the rest aligned under it */
				struct sbuf tmp;
				sb_init(&tmp);
				yprint(&tmp, c, ind + 2);
				sb_adds(out, sb_str(&tmp) + ind + 2);
				sb_free(&tmp);
			} else {
				yvalue_inline(out, c);
				sb_addc(out, '\n');
			}
		}
	} else {
		sb_indent(out, ind);
		yvalue_inline(out, j);
		sb_addc(out, '\n');
	}
}
