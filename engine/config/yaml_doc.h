/* SPDX-License-Identifier: Apache-2.0 */
/* A YAML document as a small tree with source positions, built from libyaml events under
 * hard caps: the input is untrusted, so size, nesting and node count are bounded and the
 * features our format does not need (anchors/aliases, tags, several documents) are refused
 * with a positioned error instead of being expanded. */
#ifndef ROCECTL_YAML_DOC_H
#define ROCECTL_YAML_DOC_H

#include <stdbool.h>
#include <stddef.h>

#include "rocectl/err.h"

/* An inventory of a 100,000-GPU fabric (12,500 hosts with 8 NICs, ~4,000 switches, ~100,000
 * links) is ~12 MB and ~800,000 values: both caps leave room for it and still bound what a
 * hostile file can make rocectl allocate (~150 MB of nodes at most). */
#define YD_MAX_BYTES (32u * 1024 * 1024) /* larger files are refused before parsing */
#define YD_MAX_DEPTH 32			 /* nested lists/mappings */
#define YD_MAX_NODES 2097152		 /* scalars + lists + mappings */

enum yd_kind {
	YD_SCALAR,
	YD_SEQ,
	YD_MAP,
};

struct yd_node {
	enum yd_kind kind;
	bool plain;	 /* scalar written without quotes (only plain scalars are numbers/bools) */
	int line;	 /* 1-based */
	int col;	 /* 1-based */
	const char *str; /* scalar text, NUL-terminated, no NUL inside */
	size_t len;
	/* Sequence: n items.  Mapping: n pairs, kids[2i] the key (a scalar), kids[2i+1] the
	 * value. */
	struct yd_node **kids;
	size_t n;
};

struct yd_doc {
	char file[256];
	struct yd_node *root; /* never NULL after a successful load */
	struct yd_node *nodes;
	size_t n_nodes;
	struct yd_node **kidv;
	char *arena;
};

/* Read (at most YD_MAX_BYTES) and parse a file.  Errors are "file:line:col: message". */
int yd_load_file(const char *path, struct yd_doc *d, struct rc_err *err);
/* Parse from memory; `name` is used in positions. */
int yd_load_buffer(const char *name, const char *buf, size_t len, struct yd_doc *d,
		   struct rc_err *err);
void yd_free(struct yd_doc *d);

/* An empty plain scalar, "~" or "null". */
bool yd_is_null(const struct yd_node *n);
/* "a mapping", "a list", "nothing" or "a value": for "expected X, found Y" messages. */
const char *yd_describe(const struct yd_node *n);

#endif
