/* SPDX-License-Identifier: Apache-2.0 */
/* The Python dict lexer of the SONiC dialect: `sonic-db-cli` prints a hash as a Python dict
 * repr ({'key': 'value', ...}, Python's str.__repr__ quoting and escapes), which is parsed
 * here into a cJSON object of strings; anything else is refused with the byte offset where
 * it stopped making sense. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "sonic.h"

#define PYDICT_MAX_FIELDS 4096
#define PYSTR_MAX	  65536

struct py {
	const char *s;
	size_t len, i;
	const char *what;
	struct rc_err *err;
};

static int py_bad(struct py *p, const char *expected)
{
	return rc_errf(p->err, EPROTO, "%s: not a Python dict of strings (at byte %zu of %zu: %s)",
		       p->what, p->i, p->len, expected);
}

static void py_ws(struct py *p)
{
	while (p->i < p->len && (p->s[p->i] == ' ' || p->s[p->i] == '\t'))
		p->i++;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int put_utf8(char *out, size_t *o, size_t cap, unsigned long cp)
{
	unsigned char b[4];
	size_t n;

	if (cp == 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return -1;
	if (cp < 0x80) {
		b[0] = (unsigned char)cp;
		n = 1;
	} else if (cp < 0x800) {
		b[0] = (unsigned char)(0xc0 | (cp >> 6));
		b[1] = (unsigned char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		b[0] = (unsigned char)(0xe0 | (cp >> 12));
		b[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
		b[2] = (unsigned char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		b[0] = (unsigned char)(0xf0 | (cp >> 18));
		b[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3f));
		b[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
		b[3] = (unsigned char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	if (*o + n >= cap)
		return -1;
	memcpy(out + *o, b, n);
	*o += n;
	return 0;
}

/* A str repr: '...' or "..." with Python's escapes; NUL is refused (no name or value of
 * CONFIG_DB holds one, and C strings cannot). */
static int py_string(struct py *p, char **out)
{
	char q, *buf;
	size_t o = 0, cap;

	*out = NULL;
	if (p->i >= p->len || (p->s[p->i] != '\'' && p->s[p->i] != '"'))
		return py_bad(p, "a quoted string");
	q = p->s[p->i++];
	cap = p->len - p->i + 1;
	if (cap > PYSTR_MAX)
		cap = PYSTR_MAX;
	buf = malloc(cap);
	if (!buf)
		return rc_errf(p->err, ENOMEM, "out of memory");
	for (;;) {
		char c;

		if (p->i >= p->len) {
			free(buf);
			return py_bad(p, "an unterminated string (truncated?)");
		}
		c = p->s[p->i++];
		if (c == q)
			break;
		if (c == '\n' || c == '\r' || c == '\0') {
			free(buf);
			return py_bad(p, "a control character inside a string");
		}
		if (c != '\\') {
			if (o + 1 >= cap) {
				free(buf);
				return py_bad(p, "a string of reasonable length");
			}
			buf[o++] = c;
			continue;
		}
		if (p->i >= p->len) {
			free(buf);
			return py_bad(p, "an unterminated escape");
		}
		c = p->s[p->i++];
		{
			unsigned long cp = 0;
			int digits = 0;
			char simple = 0;

			switch (c) {
			case '\\':
			case '\'':
			case '"':
				simple = c;
				break;
			case 'n':
				simple = '\n';
				break;
			case 't':
				simple = '\t';
				break;
			case 'r':
				simple = '\r';
				break;
			case 'x':
				digits = 2;
				break;
			case 'u':
				digits = 4;
				break;
			case 'U':
				digits = 8;
				break;
			default:
				free(buf);
				return py_bad(p, "a known escape");
			}
			if (simple) {
				if (o + 1 >= cap) {
					free(buf);
					return py_bad(p, "a string of reasonable length");
				}
				buf[o++] = simple;
				continue;
			}
			for (int k = 0; k < digits; k++) {
				int h = p->i < p->len ? hexval(p->s[p->i]) : -1;

				if (h < 0) {
					free(buf);
					return py_bad(p, "hex digits in an escape");
				}
				cp = cp * 16 + (unsigned long)h;
				p->i++;
			}
			if (put_utf8(buf, &o, cap, cp)) {
				free(buf);
				return py_bad(p, "an escape of a valid, non-NUL character");
			}
		}
	}
	buf[o] = '\0';
	*out = buf;
	return 0;
}

int sonic_parse_pydict(const char *buf, size_t len, const char *what, cJSON **out,
		       struct rc_err *err)
{
	struct py p = {buf, len, 0, what, err};
	cJSON *obj;
	size_t n = 0;
	int rc = 0;

	*out = NULL;
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r' || buf[len - 1] == ' '))
		p.len = --len;
	py_ws(&p);
	if (p.i >= p.len || buf[p.i] != '{')
		return py_bad(&p, len ? "'{'" : "output, found none");
	p.i++;
	obj = cJSON_CreateObject();
	if (!obj)
		return rc_errf(err, ENOMEM, "out of memory");
	py_ws(&p);
	if (p.i < p.len && buf[p.i] == '}') {
		p.i++;
		goto end;
	}
	for (;;) {
		char *k = NULL, *v = NULL;

		py_ws(&p);
		if ((rc = py_string(&p, &k)) < 0)
			goto fail;
		py_ws(&p);
		if (p.i >= p.len || buf[p.i] != ':') {
			free(k);
			rc = py_bad(&p, "':'");
			goto fail;
		}
		p.i++;
		py_ws(&p);
		if ((rc = py_string(&p, &v)) < 0) {
			free(k);
			goto fail;
		}
		if (cJSON_GetObjectItemCaseSensitive(obj, k) || ++n > PYDICT_MAX_FIELDS) {
			rc = rc_errf(err, EPROTO, "%s: %s field '%.60s'", what,
				     n > PYDICT_MAX_FIELDS ? "too many fields at" : "duplicate", k);
			free(k);
			free(v);
			goto fail;
		}
		if (!cJSON_AddStringToObject(obj, k, v)) {
			free(k);
			free(v);
			rc = rc_errf(err, ENOMEM, "out of memory");
			goto fail;
		}
		free(k);
		free(v);
		py_ws(&p);
		if (p.i < p.len && buf[p.i] == ',') {
			p.i++;
			continue;
		}
		if (p.i < p.len && buf[p.i] == '}') {
			p.i++;
			break;
		}
		rc = py_bad(&p, p.i >= p.len ? "',' or '}' (truncated?)" : "',' or '}'");
		goto fail;
	}
end:
	py_ws(&p);
	if (p.i != p.len) {
		rc = py_bad(&p, "nothing after the dict");
		goto fail;
	}
	*out = obj;
	return 0;
fail:
	cJSON_Delete(obj);
	return rc;
}

int sonic_parse_pydict_lines(const char *buf, size_t len, const char *what, cJSON **docs, size_t n,
			     struct rc_err *err)
{
	size_t off = 0, i = 0;
	char w[160];

	for (size_t k = 0; k < n; k++)
		docs[k] = NULL;
	while (off < len && i <= n) {
		const char *nl = memchr(buf + off, '\n', len - off);
		size_t end = nl ? (size_t)(nl - buf) : len;
		bool blank = true;

		for (size_t k = off; k < end; k++)
			if (buf[k] != ' ' && buf[k] != '\r' && buf[k] != '\t')
				blank = false;
		if (!blank) {
			if (i == n) {
				rc_errf(err, EPROTO, "%s: more than the %zu answers expected", what,
					n);
				goto fail;
			}
			snprintf(w, sizeof(w), "%s (answer %zu)", what, i + 1);
			if (sonic_parse_pydict(buf + off, end - off, w, &docs[i], err) < 0)
				goto fail;
			i++;
		}
		off = end + 1;
	}
	if (i == n)
		return 0;
	rc_errf(err, EPROTO, "%s: %zu answers expected, the output has %zu", what, n, i);
fail:
	for (size_t k = 0; k < n; k++) {
		cJSON_Delete(docs[k]);
		docs[k] = NULL;
	}
	return -EPROTO;
}
