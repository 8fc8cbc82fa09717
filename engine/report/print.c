#include <inttypes.h>
#include <math.h>
#include <stdarg.h>

#include "rocectl/print.h"

void rc_out_init(struct rc_out *o, FILE *f, enum rc_out_mode mode)
{
	o->f = f;
	o->mode = mode;
	o->depth = 0;
	o->need_comma[0] = false;
}

/* Runs of characters that need no escape go out in one fwrite: a character at a time
 * took the stream's lock per byte, a tenth of a large verify's CPU (issue #15). */
void rc_json_escape(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s, *run = p;

	fputc('"', f);
	for (; *p; p++) {
		const char *esc = NULL;

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

void rc_out_open_object(struct rc_out *o, const char *key)
{
	if (rc_out_json(o))
		json_open(o, key, '{');
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
	} else if (text_fmt) {
		fprintf(o->f, text_fmt, value ? value : "");
	}
}

void rc_out_uint(struct rc_out *o, const char *key, const char *text_fmt, uint64_t value)
{
	if (rc_out_json(o)) {
		json_key(o, key);
		fprintf(o->f, "%" PRIu64, value);
	} else if (text_fmt) {
		fprintf(o->f, text_fmt, value);
	}
}

void rc_out_int(struct rc_out *o, const char *key, const char *text_fmt, int64_t value)
{
	if (rc_out_json(o)) {
		json_key(o, key);
		fprintf(o->f, "%" PRId64, value);
	} else if (text_fmt) {
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
	} else if (text_fmt) {
		fprintf(o->f, text_fmt, value);
	}
}

void rc_out_bool(struct rc_out *o, const char *key, const char *text_fmt, bool value)
{
	if (rc_out_json(o)) {
		json_key(o, key);
		fputs(value ? "true" : "false", o->f);
	} else if (text_fmt) {
		fprintf(o->f, text_fmt, value ? "on" : "off");
	}
}

void rc_out_null(struct rc_out *o, const char *key, const char *text)
{
	if (rc_out_json(o)) {
		json_key(o, key);
		fputs("null", o->f);
	} else if (text) {
		fputs(text, o->f);
	}
}

void rc_out_text(struct rc_out *o, const char *fmt, ...)
{
	va_list ap;

	if (rc_out_json(o))
		return;
	va_start(ap, fmt);
	vfprintf(o->f, fmt, ap);
	va_end(ap);
}

void rc_out_end(struct rc_out *o)
{
	if (rc_out_json(o))
		fputc('\n', o->f);
	fflush(o->f);
}
