/* SPDX-License-Identifier: Apache-2.0 */
/* libyaml events -> struct yd_doc.  Iterative (an explicit stack bounded by YD_MAX_DEPTH),
 * so hostile nesting cannot exhaust the C stack, and libyaml's own lookahead is bounded by
 * the depth cap because we stop at the first event past it. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

#include "yaml_doc.h"

struct builder {
	struct yd_doc *d;
	struct rc_err *err;
	size_t cap_nodes;
	size_t *kid_idx; /* per node: first index into kidv (during the build) */
	size_t *pending; /* finished children waiting for their parent's end */
	size_t n_pending, cap_pending;
	size_t *kidv_idx; /* children as node indices, turned into pointers at the end */
	size_t n_kidv, cap_kidv;
	size_t arena_len, arena_cap;
	size_t *str_off;
	struct {
		size_t node;
		size_t first_pending;
	} stack[YD_MAX_DEPTH];
	int depth;
};

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
	size_t n = *cap ? *cap : 64;
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	q = realloc(*p, n * elem);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = n;
	return 0;
}

static int fail_at(struct builder *b, yaml_mark_t m, const char *fmt, const char *what)
{
	return rc_err_at(b->err, EINVAL, b->d->file, (int)m.line + 1, (int)m.column + 1, fmt, what);
}

/* nodes, str_off and kid_idx are parallel arrays: grow them together. */
static int grow_nodes(struct builder *b)
{
	size_t cap = b->cap_nodes ? b->cap_nodes * 2 : 256;
	void *n, *s, *k;

	n = realloc(b->d->nodes, cap * sizeof(*b->d->nodes));
	if (n)
		b->d->nodes = n;
	s = realloc(b->str_off, cap * sizeof(*b->str_off));
	if (s)
		b->str_off = s;
	k = realloc(b->kid_idx, cap * sizeof(*b->kid_idx));
	if (k)
		b->kid_idx = k;
	if (!n || !s || !k)
		return rc_errf(b->err, ENOMEM, "out of memory reading '%s'", b->d->file);
	b->cap_nodes = cap;
	return 0;
}

static int add_node(struct builder *b, enum yd_kind kind, yaml_mark_t m, size_t *idx)
{
	struct yd_doc *d = b->d;
	int rc;

	if (d->n_nodes >= YD_MAX_NODES)
		return fail_at(b, m, "%s",
			       "document has more than 2097152 values; the limit keeps memory "
			       "bounded");
	if (d->n_nodes >= b->cap_nodes) {
		rc = grow_nodes(b);
		if (rc < 0)
			return rc;
	}
	*idx = d->n_nodes++;
	memset(&d->nodes[*idx], 0, sizeof(d->nodes[*idx]));
	d->nodes[*idx].kind = kind;
	d->nodes[*idx].line = (int)m.line + 1;
	d->nodes[*idx].col = (int)m.column + 1;
	b->str_off[*idx] = SIZE_MAX;
	b->kid_idx[*idx] = 0;
	return 0;
}

static int push_pending(struct builder *b, size_t idx)
{
	if (grow((void **)&b->pending, &b->cap_pending, b->n_pending + 1, sizeof(*b->pending)) < 0)
		return rc_errf(b->err, ENOMEM, "out of memory reading '%s'", b->d->file);
	b->pending[b->n_pending++] = idx;
	return 0;
}

/* A node starting inside a mapping at an even position is a key: keys must be scalars. */
static int check_key_slot(struct builder *b, yaml_mark_t m)
{
	size_t parent, count;

	if (b->depth == 0)
		return 0;
	parent = b->stack[b->depth - 1].node;
	count = b->n_pending - b->stack[b->depth - 1].first_pending;
	if (b->d->nodes[parent].kind == YD_MAP && count % 2 == 0)
		return fail_at(b, m, "%s",
			       "mapping keys must be plain names, not lists or mappings");
	return 0;
}

static int on_scalar(struct builder *b, const yaml_event_t *ev)
{
	const char *v = (const char *)ev->data.scalar.value;
	size_t len = ev->data.scalar.length, idx;
	struct yd_node *n;
	int rc;

	if (memchr(v, '\0', len))
		return fail_at(b, ev->start_mark, "%s", "value contains a NUL character");
	rc = add_node(b, YD_SCALAR, ev->start_mark, &idx);
	if (rc < 0)
		return rc;
	n = &b->d->nodes[idx];
	n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
	n->len = len;
	if (grow((void **)&b->d->arena, &b->arena_cap, b->arena_len + len + 1, 1) < 0)
		return rc_errf(b->err, ENOMEM, "out of memory reading '%s'", b->d->file);
	memcpy(b->d->arena + b->arena_len, v, len);
	b->d->arena[b->arena_len + len] = '\0';
	b->str_off[idx] = b->arena_len;
	b->arena_len += len + 1;
	return push_pending(b, idx);
}

static int on_start(struct builder *b, const yaml_event_t *ev, enum yd_kind kind)
{
	size_t idx;
	int rc;

	rc = check_key_slot(b, ev->start_mark);
	if (rc < 0)
		return rc;
	if (b->depth >= YD_MAX_DEPTH)
		return fail_at(b, ev->start_mark, "%s",
			       "nesting is deeper than 32 levels; the limit keeps parsing bounded");
	rc = add_node(b, kind, ev->start_mark, &idx);
	if (rc < 0)
		return rc;
	b->stack[b->depth].node = idx;
	b->stack[b->depth].first_pending = b->n_pending;
	b->depth++;
	return 0;
}

static int on_end(struct builder *b)
{
	size_t idx = b->stack[b->depth - 1].node, first = b->stack[b->depth - 1].first_pending;
	size_t count = b->n_pending - first;
	struct yd_node *n = &b->d->nodes[idx];

	b->depth--;
	if (grow((void **)&b->kidv_idx, &b->cap_kidv, b->n_kidv + count, sizeof(*b->kidv_idx)) < 0)
		return rc_errf(b->err, ENOMEM, "out of memory reading '%s'", b->d->file);
	b->kid_idx[idx] = b->n_kidv;
	if (count)
		memcpy(b->kidv_idx + b->n_kidv, b->pending + first, count * sizeof(*b->pending));
	b->n_kidv += count;
	b->n_pending = first;
	n->n = n->kind == YD_MAP ? count / 2 : count;
	return push_pending(b, idx);
}

/* Refuse what the format does not use before it can do harm (alias expansion). */
static int check_features(struct builder *b, const yaml_event_t *ev)
{
	const yaml_char_t *anchor = NULL, *tag = NULL;

	switch (ev->type) {
	case YAML_ALIAS_EVENT:
		return fail_at(b, ev->start_mark, "%s",
			       "YAML aliases (*name) are not supported; write the value out");
	case YAML_SCALAR_EVENT:
		anchor = ev->data.scalar.anchor;
		tag = ev->data.scalar.tag;
		break;
	case YAML_SEQUENCE_START_EVENT:
		anchor = ev->data.sequence_start.anchor;
		tag = ev->data.sequence_start.tag;
		break;
	case YAML_MAPPING_START_EVENT:
		anchor = ev->data.mapping_start.anchor;
		tag = ev->data.mapping_start.tag;
		break;
	default:
		return 0;
	}
	if (anchor)
		return fail_at(b, ev->start_mark, "%s",
			       "YAML anchors (&name) and aliases are not supported; write the "
			       "value out");
	if (tag)
		return fail_at(b, ev->start_mark, "%s", "YAML tags (!tag) are not supported");
	return 0;
}

/* libyaml reports reader errors (bad UTF-8, control characters) by byte offset only. */
static void offset_to_pos(const char *buf, size_t len, size_t off, int *line, int *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < off && i < len; i++) {
		if (buf[i] == '\n') {
			(*line)++;
			*col = 1;
		} else if (((unsigned char)buf[i] & 0xc0) != 0x80) {
			(*col)++;
		}
	}
}

static int parser_error(struct builder *b, const yaml_parser_t *p, const char *buf, size_t len)
{
	const char *what = p->problem ? p->problem : "cannot parse";
	int line = (int)p->problem_mark.line + 1, col = (int)p->problem_mark.column + 1;

	if (p->error == YAML_READER_ERROR) {
		offset_to_pos(buf, len, p->problem_offset, &line, &col);
		return rc_err_at(b->err, EINVAL, b->d->file, line, col,
				 "not valid UTF-8 YAML text: %s", what);
	}
	if (p->error == YAML_MEMORY_ERROR)
		return rc_errf(b->err, ENOMEM, "out of memory parsing '%s'", b->d->file);
	if (p->context)
		return rc_err_at(b->err, EINVAL, b->d->file, line, col,
				 "invalid YAML: %s %s (started at %d:%d)", what, p->context,
				 (int)p->context_mark.line + 1, (int)p->context_mark.column + 1);
	return rc_err_at(b->err, EINVAL, b->d->file, line, col, "invalid YAML: %s", what);
}

/* YAML forbids tabs in indentation; libyaml's message for them is obscure. */
static int check_tabs(struct builder *b, const char *buf, size_t len)
{
	int line = 1;

	for (size_t i = 0; i < len; line++) {
		size_t start = i;

		while (i < len && (buf[i] == ' ' || buf[i] == '\t')) {
			if (buf[i] == '\t')
				return rc_err_at(
				    b->err, EINVAL, b->d->file, line, (int)(i - start) + 1,
				    "tab character in indentation; indent with spaces");
			i++;
		}
		while (i < len && buf[i] != '\n')
			i++;
		i++;
	}
	return 0;
}

static int run_parser(struct builder *b, yaml_parser_t *p, const char *buf, size_t len)
{
	yaml_event_t ev;
	int docs = 0, rc = 0;
	bool done = false;

	while (!done && rc == 0) {
		if (!yaml_parser_parse(p, &ev))
			return parser_error(b, p, buf, len);
		rc = check_features(b, &ev);
		if (rc == 0) {
			switch (ev.type) {
			case YAML_STREAM_END_EVENT:
				done = true;
				break;
			case YAML_DOCUMENT_START_EVENT:
				if (++docs > 1)
					rc = fail_at(b, ev.start_mark, "%s",
						     "only one YAML document is allowed per file");
				break;
			case YAML_SCALAR_EVENT:
				rc = on_scalar(b, &ev);
				break;
			case YAML_SEQUENCE_START_EVENT:
				rc = on_start(b, &ev, YD_SEQ);
				break;
			case YAML_MAPPING_START_EVENT:
				rc = on_start(b, &ev, YD_MAP);
				break;
			case YAML_SEQUENCE_END_EVENT:
			case YAML_MAPPING_END_EVENT:
				rc = on_end(b);
				break;
			default:
				break;
			}
		}
		yaml_event_delete(&ev);
	}
	return rc;
}

static void finish(struct builder *b)
{
	struct yd_doc *d = b->d;

	for (size_t i = 0; i < d->n_nodes; i++) {
		struct yd_node *n = &d->nodes[i];

		if (n->kind == YD_SCALAR) {
			n->str = d->arena + b->str_off[i];
		} else {
			n->kids = d->kidv + b->kid_idx[i];
		}
	}
	for (size_t i = 0; i < b->n_kidv; i++)
		d->kidv[i] = &d->nodes[b->kidv_idx[i]];
	d->root = &d->nodes[b->pending[0]];
}

int yd_load_buffer(const char *name, const char *buf, size_t len, struct yd_doc *d,
		   struct rc_err *err)
{
	struct builder b = {.d = d, .err = err};
	yaml_parser_t p;
	int rc;

	memset(d, 0, sizeof(*d));
	snprintf(d->file, sizeof(d->file), "%s", name);
	if (len > YD_MAX_BYTES)
		return rc_err_at(err, EFBIG, d->file, 1, 1,
				 "file is larger than 32 MiB, the limit for policy and inventory "
				 "files");
	rc = check_tabs(&b, buf, len);
	if (rc < 0)
		return rc;
	if (!yaml_parser_initialize(&p))
		return rc_errf(err, ENOMEM, "out of memory parsing '%s'", d->file);
	yaml_parser_set_encoding(&p, YAML_UTF8_ENCODING);
	yaml_parser_set_input_string(&p, (const unsigned char *)buf, len);
	rc = run_parser(&b, &p, buf, len);
	yaml_parser_delete(&p);
	if (rc == 0 && b.n_pending == 0)
		rc = rc_err_at(err, EINVAL, d->file, 1, 1,
			       "empty document; expected a mapping with apiVersion and kind");
	if (rc == 0) {
		d->kidv = calloc(b.n_kidv ? b.n_kidv : 1, sizeof(*d->kidv));
		if (!d->kidv)
			rc = rc_errf(err, ENOMEM, "out of memory reading '%s'", d->file);
		else
			finish(&b);
	}
	free(b.kid_idx);
	free(b.pending);
	free(b.kidv_idx);
	free(b.str_off);
	if (rc < 0)
		yd_free(d);
	return rc;
}

static int read_capped(int fd, char **out, size_t *len)
{
	size_t cap = 0, n = 0;
	char *buf = NULL;

	for (;;) {
		ssize_t r;

		if (n == cap) {
			size_t want = cap ? cap * 2 : 65536;
			char *q;

			if (want > YD_MAX_BYTES + 1)
				want = YD_MAX_BYTES + 1;
			if (want == cap) {
				free(buf);
				return -EFBIG;
			}
			q = realloc(buf, want);
			if (!q) {
				free(buf);
				return -ENOMEM;
			}
			buf = q;
			cap = want;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			free(buf);
			return -e;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	*out = buf;
	*len = n;
	return 0;
}

int yd_load_file(const char *path, struct yd_doc *d, struct rc_err *err)
{
	struct stat st;
	char *buf = NULL;
	size_t len = 0;
	int fd, rc;

	memset(d, 0, sizeof(*d));
	/* O_NONBLOCK: opening a FIFO must not wait for a writer that may never come */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return rc_errf(err, errno, "cannot read '%s': %s", path, strerror(errno));
	if (fstat(fd, &st) < 0) {
		rc = rc_errf(err, errno, "cannot read '%s': %s", path, strerror(errno));
		close(fd);
		return rc;
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		return rc_errf(err, EISDIR, "cannot read '%s': %s", path, strerror(EISDIR));
	}
	/* a FIFO, a socket or a device could hand over anything, or nothing, forever */
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return rc_errf(err, EINVAL, "cannot read '%s': not a regular file", path);
	}
	/* Refuse before reading a byte: a 100 MB file is a mistake, not a policy. */
	if (S_ISREG(st.st_mode) && st.st_size > (off_t)YD_MAX_BYTES)
		rc = -EFBIG;
	else
		rc = read_capped(fd, &buf, &len);
	close(fd);
	if (rc == -EFBIG)
		return rc_err_at(err, EFBIG, path, 1, 1,
				 "file is larger than 32 MiB, the limit for policy and inventory "
				 "files");
	if (rc < 0)
		return rc_errf(err, -rc, "cannot read '%s': %s", path, strerror(-rc));
	rc = yd_load_buffer(path, buf ? buf : "", len, d, err);
	free(buf);
	return rc;
}

void yd_free(struct yd_doc *d)
{
	free(d->nodes);
	free(d->kidv);
	free(d->arena);
	d->nodes = NULL;
	d->kidv = NULL;
	d->arena = NULL;
	d->root = NULL;
	d->n_nodes = 0;
}

bool yd_is_null(const struct yd_node *n)
{
	return n->kind == YD_SCALAR && n->plain &&
	       (n->len == 0 || !strcmp(n->str, "~") || !strcmp(n->str, "null") ||
		!strcmp(n->str, "Null") || !strcmp(n->str, "NULL"));
}

const char *yd_describe(const struct yd_node *n)
{
	if (n->kind == YD_MAP)
		return "a mapping";
	if (n->kind == YD_SEQ)
		return "a list";
	if (yd_is_null(n))
		return "nothing";
	return "a value";
}
