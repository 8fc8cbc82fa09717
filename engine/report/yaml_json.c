/* SPDX-License-Identifier: Apache-2.0 */
/* A YAML document (one our own code wrote: `export`'s policy and overrides) printed as the
 * same tree in JSON (include/rocectl/print.h).  Typing follows YAML 1.2's core schema for
 * plain scalars only: null, true/false, integers and finite decimals become JSON literals;
 * a quoted scalar and anything else ("100G", "3m") stays a string, as the loaders read it. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../config/yaml_doc.h"
#include "rocectl/print.h"

static bool is_bool(const struct yd_node *n, bool *v)
{
	if (!strcmp(n->str, "true") || !strcmp(n->str, "True") || !strcmp(n->str, "TRUE"))
		*v = true;
	else if (!strcmp(n->str, "false") || !strcmp(n->str, "False") || !strcmp(n->str, "FALSE"))
		*v = false;
	else
		return false;
	return true;
}

static void scalar(struct rc_out *o, const char *key, const struct yd_node *n)
{
	char *end;
	bool b;
	long long i;
	double d;

	if (!n->plain) {
		rc_out_str(o, key, NULL, n->str);
		return;
	}
	if (yd_is_null(n)) {
		rc_out_null(o, key, NULL);
		return;
	}
	if (is_bool(n, &b)) {
		rc_out_bool(o, key, NULL, b);
		return;
	}
	errno = 0;
	i = strtoll(n->str, &end, 10);
	if (!errno && end != n->str && !*end) {
		rc_out_int(o, key, NULL, i);
		return;
	}
	errno = 0;
	d = strtod(n->str, &end);
	/* hex floats, "inf" and "nan" are not YAML core-schema numbers */
	if (!errno && end != n->str && !*end && isfinite(d) && !strpbrk(n->str, "xXnNiI")) {
		rc_out_double(o, key, NULL, d);
		return;
	}
	rc_out_str(o, key, NULL, n->str);
}

static void node(struct rc_out *o, const char *key, const struct yd_node *n)
{
	switch (n->kind) {
	case YD_SCALAR:
		scalar(o, key, n);
		return;
	case YD_SEQ:
		rc_out_open_array(o, key);
		for (size_t i = 0; i < n->n; i++)
			node(o, NULL, n->kids[i]);
		rc_out_close_array(o);
		return;
	case YD_MAP:
		rc_out_open_object(o, key);
		for (size_t i = 0; i < n->n; i++)
			node(o, n->kids[2 * i]->str, n->kids[2 * i + 1]);
		rc_out_close_object(o);
		return;
	}
}

int rc_out_yaml(struct rc_out *o, const char *key, const char *name, const char *yaml,
		struct rc_err *err)
{
	struct yd_doc d;
	int rc = yd_load_buffer(name, yaml, strlen(yaml), &d, err);

	if (rc)
		return rc;
	node(o, key, d.root);
	yd_free(&d);
	return 0;
}
