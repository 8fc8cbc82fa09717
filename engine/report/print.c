/* SPDX-License-Identifier: Apache-2.0 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rocectl/print.h"
#include "rocectl/util.h"

void rc_out_init(struct rc_out *o, FILE *f, enum rc_out_mode mode)
{
	o->f = f;
	o->mode = mode;
	o->depth = 0;
	o->need_comma[0] = false;
	o->no_header = false;
	o->details = false;
	o->quiet = false;
}

/* Runs of characters that need no escape go out in one fwrite: a character at a time
 * took the stream's lock per byte, a tenth of a large verify's CPU (bench/README.md). */
void rc_json_escape(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s, *run = p;

	fputc('"', f);
	for (; *p; p++) {
		const char *esc = NULL;

		if (*p >= 0x80) {
			/* JSON is Unicode: bytes that are not UTF-8 become U+FFFD (utf8.c) */
			size_t n = rc_utf8_seq_len(p, strnlen((const char *)p, 4));

			if (n) {
				p += n - 1; /* a valid sequence stays in the run */
				continue;
			}
			if (p > run)
				fwrite(run, 1, (size_t)(p - run), f);
			fputs("\\ufffd", f);
			run = p + 1;
			continue;
		}
		switch (*p) {
		case '"':
			esc = "\\\"";
			break;
		case '\\':
			esc = "\\\\";
			break;
		case '\n':
			esc = "\\n";
			break;
		case '\t':
			esc = "\\t";
			break;
		case '\r':
			esc = "\\r";
			break;
		default:
			if (*p >= 0x20 && *p != 0x7f)
				continue;
		}
		if (p > run)
			fwrite(run, 1, (size_t)(p - run), f);
		if (esc)
			fputs(esc, f);
		else
			fprintf(f, "\\u%04x", *p);
		run = p + 1;
	}
	if (p > run)
		fwrite(run, 1, (size_t)(p - run), f);
	fputc('"', f);
}

/* Separator and key before a JSON value. */
static void json_key(struct rc_out *o, const char *key)
{
	if (o->need_comma[o->depth])
		fputc(',', o->f);
	o->need_comma[o->depth] = true;
	if (key) {
		rc_json_escape(o->f, key);
		fputc(':', o->f);
	}
}

static void json_open(struct rc_out *o, const char *key, char c)
{
	json_key(o, key);
	fputc(c, o->f);
	if (o->depth < RC_OUT_DEPTH - 1)
		o->depth++;
	o->need_comma[o->depth] = false;
}

static void json_close(struct rc_out *o, char c)
{
	fputc(c, o->f);
	if (o->depth > 0)
		o->depth--;
}

/* What every JSON document starts with, whatever the command: the version of its schema
 * (the schemas in examples/; bumped only when a key changes meaning or goes), the rocectl
 * that wrote it, and when (UTC, RFC 3339). */
static void json_header(struct rc_out *o)
{
	char ts[32];
	time_t now = time(NULL);
	struct tm tm;

	if (!gmtime_r(&now, &tm) || !strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(ts, sizeof(ts), "1970-01-01T00:00:00Z");
	rc_out_uint(o, "schema_version", NULL, RC_JSON_SCHEMA_VERSION);
	rc_out_str(o, "rocectl_version", NULL, ROCECTL_VERSION);
	rc_out_str(o, "timestamp", NULL, ts);
}

void rc_out_header_line(struct rc_out *o, FILE *f, const char *key)
{
	rc_out_init(o, f, RC_OUT_JSON);
	json_open(o, NULL, '{');
	json_header(o);
	json_key(o, key);
	rc_out_init(o, f, RC_OUT_JSON);
	o->no_header = true;
}

void rc_out_open_object(struct rc_out *o, const char *key)
{
	if (!rc_out_json(o))
		return;
	json_open(o, key, '{');
	if (o->depth == 1 && !key && !o->no_header)
		json_header(o);
}

void rc_out_close_object(struct rc_out *o)
{
	if (rc_out_json(o))
		json_close(o, '}');
}

void rc_out_open_array(struct rc_out *o, const char *key)
{
	if (rc_out_json(o))
		json_open(o, key, '[');
}

void rc_out_close_array(struct rc_out *o)
{
	if (rc_out_json(o))
		json_close(o, ']');
}

void rc_out_str(struct rc_out *o, const char *key, const char *text_fmt, const char *value)
{
	if (rc_out_json(o)) {
		json_key(o, key);
		rc_json_escape(o->f, value ? value : "");
	} else if (text_fmt && !o->quiet) {
		char *fixed = value && !rc_utf8_valid(value) ? rc_utf8_fix(value) : NULL;

		fprintf(o->f, text_fmt, fixed ? fixed : value ? value : "");
		free(fixed);
	}
}

void rc_out_uint(struct rc_out *o, const char *key, const char *text_fmt, uint64_t value)
{
	if (rc_out_json(o)) {
		json_key(o, key);
		fprintf(o->f, "%" PRIu64, value);
	} else if (text_fmt && !o->quiet) {
		fprintf(o->f, text_fmt, value);
	}
}

void rc_out_int(struct rc_out *o, const char *key, const char *text_fmt, int64_t value)
{
	if (rc_out_json(o)) {
		json_key(o, key);
		fprintf(o->f, "%" PRId64, value);
	} else if (text_fmt && !o->quiet) {
		fprintf(o->f, text_fmt, value);
	}
}

void rc_out_double(struct rc_out *o, const char *key, const char *text_fmt, double value)
{
	if (rc_out_json(o)) {
		json_key(o, key);
		if (isfinite(value))
			fprintf(o->f, "%.10g", value);
		else
			fputs("null", o->f);
	} else if (text_fmt && !o->quiet) {
		fprintf(o->f, text_fmt, value);
	}
}

void rc_out_bool(struct rc_out *o, const char *key, const char *text_fmt, bool value)
{
	if (rc_out_json(o)) {
		json_key(o, key);
		fputs(value ? "true" : "false", o->f);
	} else if (text_fmt && !o->quiet) {
		fprintf(o->f, text_fmt, value ? "on" : "off");
	}
}

void rc_out_null(struct rc_out *o, const char *key, const char *text)
{
	if (rc_out_json(o)) {
		json_key(o, key);
		fputs("null", o->f);
	} else if (text && !o->quiet) {
		fputs(text, o->f);
	}
}

void rc_out_text(struct rc_out *o, const char *fmt, ...)
{
	va_list ap;

	if (rc_out_json(o) || o->quiet)
		return;
	va_start(ap, fmt);
	vfprintf(o->f, fmt, ap);
	va_end(ap);
}

void rc_out_list_item(struct rc_out *o, struct rc_out_list *l)
{
	if (!l->n++)
		l->quiet = o->quiet;
	if (l->n > RC_OUT_LIST_SHOWN && !o->details)
		o->quiet = true;
}

void rc_out_list_end(struct rc_out *o, struct rc_out_list *l, const char *what)
{
	if (!l->n)
		return;
	o->quiet = l->quiet;
	if (l->n > RC_OUT_LIST_SHOWN && !o->details)
		rc_out_text(o, "  and %zu more %s (--details lists them)\n",
			    l->n - RC_OUT_LIST_SHOWN, what);
}

void rc_out_end(struct rc_out *o)
{
	if (rc_out_json(o))
		fputc('\n', o->f);
	fflush(o->f);
}
