/* SPDX-License-Identifier: Apache-2.0 */
/* Typed, strict reading of a struct yd_doc: every mapping is checked against the keys it
 * may have (unknown and duplicate keys are errors), every value against its type, and every
 * error is "file:line:col: key.path: rule". */
#ifndef ROCECTL_YAML_WALK_H
#define ROCECTL_YAML_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rocectl/err.h"
#include "yaml_doc.h"

#define YW_PATH_MAX 160
#define YW_MAX_KEYS 24

struct yw {
	const char *file;
	struct rc_err *err;
};

/* A mapping checked against its schema (a NULL-terminated list of key names). */
struct yw_map {
	const struct yd_node *node;
	const char *const *names;
	const struct yd_node *key[YW_MAX_KEYS];
	const struct yd_node *val[YW_MAX_KEYS];
	char path[YW_PATH_MAX];
};

/* Error at a node's position: "path: message" is up to the caller's format. */
int yw_fail(struct yw *w, const struct yd_node *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* "parent.key" / "parent[i]" (just "key" at the top). */
void yw_join(char *out, const char *parent, const char *key);
void yw_index(char *out, const char *parent, size_t i);

/* A scalar quoted for a message: printable, at most ~40 characters; or "a mapping" etc. */
void yw_show(const struct yd_node *n, char *buf, size_t len);

/* The top level is a mapping with "apiVersion: rocectl/v1" and "kind: <kind>"; checked
 * before the keys so that a policy given as an inventory gets the helpful message.  `hint`
 * is appended to a wrong-kind message. */
int yw_check_header(struct yw *w, const struct yd_node *root, const char *kind, const char *hint);

/* Check that n is a mapping whose keys are all in `names`, each at most once. */
int yw_map(struct yw *w, const struct yd_node *n, const char *path, const char *const *names,
	   struct yw_map *m);
const struct yd_node *yw_get(const struct yw_map *m, const char *name);
const struct yd_node *yw_get_key(const struct yw_map *m, const char *name);
/* Each of the NULL-terminated `keys` must be present. */
int yw_require(struct yw *w, const struct yw_map *m, const char *const *keys);
/* The sub-mapping under key (0 = absent, 1 = read). */
int yw_f_map(struct yw *w, const struct yw_map *m, const char *key, const char *const *names,
	     struct yw_map *sub);
/* The list under key: 0 = absent, 1 = *out is a sequence node. */
int yw_f_seq(struct yw *w, const struct yw_map *m, const char *key, const struct yd_node **out);

/* Node readers: 0 or a negative errno (with the error set). */
int yw_uint(struct yw *w, const struct yd_node *n, const char *path, uint64_t min, uint64_t max,
	    uint64_t *out);
int yw_str(struct yw *w, const struct yd_node *n, const char *path, char *buf, size_t len);
int yw_length(struct yw *w, const struct yd_node *n, const char *path, uint32_t *out);

/* Field readers on a checked mapping: 1 = read, 0 = key absent (out untouched), < 0 error. */
int yw_f_uint(struct yw *w, const struct yw_map *m, const char *key, uint64_t min, uint64_t max,
	      uint64_t *out);
int yw_f_u8(struct yw *w, const struct yw_map *m, const char *key, uint8_t max, uint8_t *out);
int yw_f_bool(struct yw *w, const struct yw_map *m, const char *key, bool *out);
int yw_f_str(struct yw *w, const struct yw_map *m, const char *key, char *buf, size_t len);
int yw_f_enum(struct yw *w, const struct yw_map *m, const char *key, const char *const *names,
	      int *out);
int yw_f_size(struct yw *w, const struct yw_map *m, const char *key, uint64_t *out);
int yw_f_length(struct yw *w, const struct yw_map *m, const char *key, uint32_t *out);
int yw_f_speed(struct yw *w, const struct yw_map *m, const char *key, uint32_t *out);
int yw_f_ms(struct yw *w, const struct yw_map *m, const char *key, uint32_t max_ms, uint32_t *out);
int yw_f_percent(struct yw *w, const struct yw_map *m, const char *key, double *out);
int yw_f_path(struct yw *w, const struct yw_map *m, const char *key, char *buf, size_t len);

#endif
