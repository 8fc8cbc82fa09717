/* SPDX-License-Identifier: Apache-2.0 */
/* One printer for text and JSON, after iproute2's json_print: every field is printed by a
 * call that knows both its JSON key and its text format, so the two outputs cannot
 * disagree.  In JSON mode the text formats are ignored; in text mode keys and the
 * object/array structure are ignored (only text_fmt output and rc_out_text appear). */
#ifndef ROCECTL_PRINT_H
#define ROCECTL_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "rocectl/err.h"

enum rc_out_mode {
	RC_OUT_TEXT = 0,
	RC_OUT_JSON = 1,
};

#define RC_OUT_DEPTH 32

/* Every JSON document's top-level object opens with "schema_version" (this), then
 * "rocectl_version" and "timestamp"; the schemas in examples/ require the three. */
#define RC_JSON_SCHEMA_VERSION 1

struct rc_out {
	FILE *f;
	enum rc_out_mode mode;
	int depth;
	bool need_comma[RC_OUT_DEPTH];
	/* The value printed is nested in a line that already carries the header
	 * (rc_out_header_line: `verify --format jsonl`), so its top-level object has none. */
	bool no_header;
	/* Text: every device and field as it comes (--details), not the fleet's findings
	 * grouped by kind (include/rocectl/group.h).  JSON is the same either way. */
	bool details;
	/* Text: print nothing (-q: what comes before a command's summary line).  JSON is the
	 * same either way. */
	bool quiet;
};

void rc_out_init(struct rc_out *o, FILE *f, enum rc_out_mode mode);
/* Opens a JSON Lines line as `{"schema_version":…,"rocectl_version":…,"timestamp":…,"KEY":`
 * and makes `o` print the value that follows without a header of its own. */
void rc_out_header_line(struct rc_out *o, FILE *f, const char *key);
static inline bool rc_out_json(const struct rc_out *o)
{
	return o->mode == RC_OUT_JSON;
}

/* A list whose text stops after RC_OUT_LIST_SHOWN items unless o->details (--details): the
 * rest is muted in text and said as "and K more" (JSON has every item).  Zero it, call
 * rc_out_list_item before printing each item and rc_out_list_end after the last. */
#define RC_OUT_LIST_SHOWN 8
struct rc_out_list {
	size_t n;
	bool quiet; /* o->quiet before the list */
};
void rc_out_list_item(struct rc_out *o, struct rc_out_list *l);
/* "  and K more WHAT (--details lists them)" when items were muted. */
void rc_out_list_end(struct rc_out *o, struct rc_out_list *l, const char *what);

/* key is NULL inside arrays and for the top-level value. */
void rc_out_open_object(struct rc_out *o, const char *key);
void rc_out_close_object(struct rc_out *o);
void rc_out_open_array(struct rc_out *o, const char *key);
void rc_out_close_array(struct rc_out *o);

/* text_fmt may be NULL: the value then appears in JSON only. */
void rc_out_str(struct rc_out *o, const char *key, const char *text_fmt, const char *value);
void rc_out_uint(struct rc_out *o, const char *key, const char *text_fmt, uint64_t value);
void rc_out_int(struct rc_out *o, const char *key, const char *text_fmt, int64_t value);
void rc_out_double(struct rc_out *o, const char *key, const char *text_fmt, double value);
void rc_out_bool(struct rc_out *o, const char *key, const char *text_fmt, bool value);
void rc_out_null(struct rc_out *o, const char *key, const char *text);
/* Text-only output. */
void rc_out_text(struct rc_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Finish: a final newline in JSON mode. */
void rc_out_end(struct rc_out *o);

/* A YAML document's tree as the JSON value of `key` (engine/report/yaml_json.c): plain
 * null/bool/number scalars as JSON literals, every other scalar a string.  JSON mode only;
 * `name` names the document in a parse error. */
int rc_out_yaml(struct rc_out *o, const char *key, const char *name, const char *yaml,
		struct rc_err *err);

/* Write s as a JSON string literal (quotes included). */
void rc_json_escape(FILE *f, const char *s);

#endif
