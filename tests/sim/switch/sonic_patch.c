/* SPDX-License-Identifier: Apache-2.0 */
/* RFC 6902 JSON Patch over RFC 6901 pointers, as GCU uses them (python-jsonpatch's
 * semantics and, loosely, its messages), and the table/key/field diff GCU sorts into
 * changes. */
#include <stdlib.h>
#include <string.h>

#include "sonic.h"

#define JP_DEPTH 32

struct jptr {
	int n;
	char *tok[JP_DEPTH];
};

static void jptr_free(struct jptr *p)
{
	for (int i = 0; i < p->n; i++)
		free(p->tok[i]);
	p->n = 0;
}

static int jptr_parse(const char *s, struct jptr *p, struct sbuf *err)
{
	p->n = 0;
	if (!*s)
		return 0;
	if (*s != '/') {
		sb_addf(err, "Location must start with /");
		return -1;
	}
	s++;
	for (;;) {
		if (p->n == JP_DEPTH) {
			sb_addf(err, "path too deep");
			jptr_free(p);
			return -1;
		}
		size_t len = strcspn(s, "/");
		struct sbuf t;
		sb_init(&t);
		sb_addn(&t, "", 0);
		for (size_t i = 0; i < len; i++) {
			if (s[i] == '~') {
				if (i + 1 < len && (s[i + 1] == '0' || s[i + 1] == '1')) {
					sb_addc(&t, s[i + 1] == '0' ? '~' : '/');
					i++;
					continue;
				}
				sb_addf(err, "Found stray ~ in path");
				sb_free(&t);
				jptr_free(p);
				return -1;
			}
			sb_addc(&t, s[i]);
		}
		p->tok[p->n++] = t.buf;
		if (!s[len])
			break;
		s += len + 1;
	}
	return 0;
}

/* Array index token: digits without leading zeros; -1 if not one. */
static int index_of(const char *t)
{
	if (!is_uint(t) || (t[0] == '0' && t[1]) || strlen(t) > 9)
		return -1;
	return atoi(t);
}

static cJSON *child(cJSON *cur, const char *tok)
{
	if (cJSON_IsObject(cur))
		return cJSON_GetObjectItemCaseSensitive(cur, tok);
	if (cJSON_IsArray(cur)) {
		int i = index_of(tok);
		return i >= 0 ? cJSON_GetArrayItem(cur, i) : NULL;
	}
	return NULL;
}

/* The element at the first n tokens; NULL with jsonpointer's message. */
static cJSON *resolve(cJSON *doc, const struct jptr *p, int n, struct sbuf *err)
{
	cJSON *cur = doc;
	for (int i = 0; i < n; i++) {
		cJSON *next = child(cur, p->tok[i]);
		if (!next) {
			if (cJSON_IsArray(cur))
				sb_addf(err, "index '%s' is out of bounds", p->tok[i]);
			else
				sb_addf(err, "member '%s' not found in %s", p->tok[i],
					cJSON_IsObject(cur) ? "object" : "value");
			return NULL;
		}
		cur = next;
	}
	return cur;
}

static int op_add(cJSON **doc, const struct jptr *p, cJSON *val, struct sbuf *err)
{
	if (p->n == 0) {
		cJSON_Delete(*doc);
		*doc = val;
		return 0;
	}
	cJSON *parent = resolve(*doc, p, p->n - 1, err);
	const char *last = p->tok[p->n - 1];
	if (!parent)
		goto fail;
	if (cJSON_IsObject(parent)) {
		jput(parent, last, val);
		return 0;
	}
	if (cJSON_IsArray(parent)) {
		int size = cJSON_GetArraySize(parent);
		int i = strcmp(last, "-") == 0 ? size : index_of(last);
		if (i < 0 || i > size) {
			sb_addf(err, "can't insert outside of list");
			goto fail;
		}
		if (i == size)
			cJSON_AddItemToArray(parent, val);
		else
			cJSON_InsertItemInArray(parent, i, val);
		return 0;
	}
	sb_addf(err, "can't add to a value that is not an object or a list");
fail:
	cJSON_Delete(val);
	return -1;
}

static cJSON *op_detach(cJSON *doc, const struct jptr *p, const char *verb, struct sbuf *err)
{
	cJSON *parent = resolve(doc, p, p->n - 1, err);
	const char *last = p->tok[p->n - 1];
	if (!parent)
		return NULL;
	if (cJSON_IsObject(parent) && cJSON_GetObjectItemCaseSensitive(parent, last))
		return cJSON_DetachItemFromObjectCaseSensitive(parent, last);
	if (cJSON_IsArray(parent)) {
		int i = index_of(last);
		if (i >= 0 && i < cJSON_GetArraySize(parent))
			return cJSON_DetachItemFromArray(parent, i);
	}
	sb_addf(err, "can't %s a non-existent object '%s'", verb, last);
	return NULL;
}

static const char *opstr(const cJSON *op, const char *key)
{
	return jstr(op, key, NULL);
}

static bool is_prefix(const struct jptr *a, const struct jptr *b)
{
	if (a->n >= b->n)
		return false;
	for (int i = 0; i < a->n; i++)
		if (strcmp(a->tok[i], b->tok[i]) != 0)
			return false;
	return true;
}

static int apply_one(cJSON **doc, const cJSON *op, struct sbuf *err)
{
	const char *name = opstr(op, "op"), *path = opstr(op, "path");
	const cJSON *value = jget1(op, "value");
	struct jptr p, from = {0};
	int rc = -1;

	if (!cJSON_IsObject(op)) {
		sb_addf(err, "Operation is not an object");
		return -1;
	}
	if (!name) {
		sb_addf(err, "Operation does not contain 'op' member");
		return -1;
	}
	if (!path) {
		sb_addf(err, "Operation does not contain 'path' member");
		return -1;
	}
	bool need_value = !strcmp(name, "add") || !strcmp(name, "replace") || !strcmp(name, "test");
	bool need_from = !strcmp(name, "move") || !strcmp(name, "copy");
	if (!need_value && !need_from && strcmp(name, "remove") != 0) {
		sb_addf(err, "Unknown operation '%s'", name);
		return -1;
	}
	if (need_value && !value) {
		sb_addf(err, "The operation does not contain a 'value' member");
		return -1;
	}
	if (need_from && !opstr(op, "from")) {
		sb_addf(err, "The operation does not contain a 'from' member");
		return -1;
	}
	if (jptr_parse(path, &p, err) < 0)
		return -1;
	if (need_from && jptr_parse(opstr(op, "from"), &from, err) < 0)
		goto out;

	if (!strcmp(name, "add")) {
		rc = op_add(doc, &p, cJSON_Duplicate(value, true), err);
	} else if (!strcmp(name, "remove")) {
		if (p.n == 0) {
			sb_addf(err, "can't remove the whole document");
			goto out;
		}
		cJSON *old = op_detach(*doc, &p, "remove", err);
		if (old) {
			cJSON_Delete(old);
			rc = 0;
		}
	} else if (!strcmp(name, "replace")) {
		if (p.n == 0) {
			cJSON_Delete(*doc);
			*doc = cJSON_Duplicate(value, true);
			rc = 0;
			goto out;
		}
		/* in place: a hash field keeps its position when it is updated (redis) */
		cJSON *parent = resolve(*doc, &p, p.n - 1, err);
		cJSON *cur = parent ? child(parent, p.tok[p.n - 1]) : NULL;
		if (parent && !cur)
			sb_addf(err, "can't replace a non-existent object '%s'", p.tok[p.n - 1]);
		if (cur && cJSON_IsObject(parent))
			cJSON_ReplaceItemInObjectCaseSensitive(parent, cur->string,
							       cJSON_Duplicate(value, true));
		else if (cur)
			cJSON_ReplaceItemViaPointer(parent, cur, cJSON_Duplicate(value, true));
		rc = cur ? 0 : -1;
	} else if (!strcmp(name, "test")) {
		cJSON *cur = resolve(*doc, &p, p.n, err);
		if (cur && !cJSON_Compare(cur, value, true)) {
			char *a = cJSON_PrintUnformatted(cur), *b = cJSON_PrintUnformatted(value);
			sb_addf(err, "%s is not equal to tested value %s", a ? a : "?",
				b ? b : "?");
			cJSON_free(a);
			cJSON_free(b);
		} else if (cur) {
			rc = 0;
		}
	} else {
		cJSON *src = resolve(*doc, &from, from.n, err);
		if (!src)
			goto out;
		if (!strcmp(name, "move")) {
			if (is_prefix(&from, &p)) {
				sb_addf(err, "Cannot move values into their own children");
				goto out;
			}
			if (from.n == 0) {
				sb_addf(err, "can't move the whole document");
				goto out;
			}
			cJSON *v = op_detach(*doc, &from, "remove", err);
			rc = v ? op_add(doc, &p, v, err) : -1;
		} else {
			rc = op_add(doc, &p, cJSON_Duplicate(src, true), err);
		}
	}
out:
	jptr_free(&p);
	jptr_free(&from);
	return rc;
}

int jpatch_apply(cJSON **doc, const cJSON *patch, struct sbuf *err)
{
	const cJSON *op;
	if (!cJSON_IsArray(patch)) {
		sb_addf(err, "Document is expected to be sequence of operations, got a %s",
			cJSON_IsObject(patch) ? "dict" : "scalar");
		return -1;
	}
	cJSON_ArrayForEach(op, patch)
	{
		if (apply_one(doc, op, err) < 0)
			return -1;
	}
	return 0;
}

void jpointer_add(struct sbuf *out, const char *token)
{
	sb_addc(out, '/');
	for (const char *s = token; *s; s++) {
		if (*s == '~')
			sb_adds(out, "~0");
		else if (*s == '/')
			sb_adds(out, "~1");
		else
			sb_addc(out, *s);
	}
}

static void add_op(cJSON *ops, const char *op, const char *const *path, int n, const cJSON *v)
{
	struct sbuf p;
	sb_init(&p);
	sb_addn(&p, "", 0);
	for (int i = 0; i < n; i++)
		jpointer_add(&p, path[i]);
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "op", op);
	cJSON_AddStringToObject(o, "path", sb_str(&p));
	if (v)
		cJSON_AddItemToObject(o, "value", cJSON_Duplicate(v, true));
	cJSON_AddItemToArray(ops, o);
	sb_free(&p);
}

/* obj's member named key; `*hint` (the member after the previous find) is tried first.
 * The two sides of a diff are mostly one table before and after a patch, with their keys
 * in the same order: walking them side by side makes a diff of tables with thousands of
 * rows (QUEUE, BUFFER_PG of 128 ports) linear instead of quadratic in lookups. */
static const cJSON *member_near(const cJSON *obj, const char *key, const cJSON **hint)
{
	const cJSON *y = *hint;
	if (!y || !y->string || strcmp(y->string, key))
		y = jget1(obj, key);
	*hint = y ? y->next : NULL;
	return y;
}

static void diff_at(const cJSON *a, const cJSON *b, const char **path, int n, cJSON *ops)
{
	const cJSON *x, *hint = b ? b->child : NULL;
	cJSON_ArrayForEach(x, a)
	{
		const cJSON *y = member_near(b, x->string, &hint);
		path[n] = x->string;
		if (!y)
			add_op(ops, "remove", path, n + 1, NULL);
		else if (cJSON_IsObject(x) && cJSON_IsObject(y) && n + 1 < 3)
			diff_at(x, y, path, n + 1, ops);
		else if (!cJSON_Compare(x, y, true))
			add_op(ops, "replace", path, n + 1, y);
	}
	hint = a ? a->child : NULL;
	cJSON_ArrayForEach(x, b)
	{
		if (member_near(a, x->string, &hint))
			continue;
		path[n] = x->string;
		add_op(ops, "add", path, n + 1, x);
	}
}

void jpatch_diff(const cJSON *a, const cJSON *b, cJSON *ops)
{
	const char *path[4];
	if (cJSON_IsObject(a) && cJSON_IsObject(b))
		diff_at(a, b, path, 0, ops);
	else if (!cJSON_Compare(a, b, true))
		add_op(ops, "replace", path, 0, b);
}
