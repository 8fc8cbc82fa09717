/* SPDX-License-Identifier: Apache-2.0 */
/* NVUE native snapshot (include/rocectl/driver.h, snapshot/restore_native): the applied
 * configuration of what rocectl manages -- the `qos` tree and each managed port's
 * `interface <if> qos` tree -- as NVUE keeps it (sparse: only what was set), and the
 * restore that replaces those subtrees with it in one revision.
 *
 * Sources: Cumulus Linux user guide "NVUE CLI" (`nv config show` = `header` then `set:` with
 * the applied tree; `nv config replace` takes a file of `nv set/unset` lines), "NVUE API"
 * (the JSON shape: keys are the CLI keywords, ids are object keys, list memberships are objects
 * of empty objects; `GET ...?rev=applied&
 * filled=false` = only the configured values; DELETE / PATCH `?rev=<id>` stage changes;
 * the "Replace an Entire Configuration" workflow deletes then patches the tree in one
 * revision, as its samples show).  An interface entry that did not exist before
 * the run is deleted whole.  Over REST the revisions pending before the run are kept, so
 * that a rollback can find the one a killed run staged (it is created after the journal
 * is written, so its id cannot be in it).  Nothing here does I/O.
 *
 * The blob is untrusted when it is read back (a journal file on disk): every key and value
 * is checked against NVUE's token character set before it can reach a command line. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "nvue.h"

#define SNAP_VERSION   1
#define SNAP_MAX_DEPTH 12
#define SNAP_MAX_NODES 20000

/* A key or a value that may go into `nv set` words: NVUE keywords, ids, profile names. */
static bool token_ok(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (n == 0 || n >= RC_NAME_MAX)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '-' || c == '_' || c == '.' || c == ':'))
			return false;
	}
	return true;
}

/* Objects, strings and integers only (Cumulus Linux "NVUE API"), keys and strings as tokens,
 * bounded. */
static int check_tree(const cJSON *j, int depth, size_t *nodes, const char *what,
		      struct rc_err *err)
{
	const cJSON *c;

	if (++*nodes > SNAP_MAX_NODES || depth > SNAP_MAX_DEPTH)
		return rc_errf(err, E2BIG, "%s: the configuration tree is too big or too deep",
			       what);
	if (cJSON_IsString(j))
		return token_ok(j->valuestring)
			   ? 0
			   : rc_errf(err, EPROTO, "%s: a value is not an NVUE word", what);
	if (cJSON_IsNumber(j)) {
		double v = j->valuedouble;

		if (!(v >= -1e15 && v <= 1e15) || v != (double)(long long)v)
			return rc_errf(err, EPROTO, "%s: a number is not an integer", what);
		return 0;
	}
	if (!cJSON_IsObject(j))
		return rc_errf(err, EPROTO, "%s: unexpected JSON type in the configuration tree",
			       what);
	cJSON_ArrayForEach(c, j)
	{
		int rc;

		if (!token_ok(c->string))
			return rc_errf(err, EPROTO, "%s: a key is not an NVUE word", what);
		rc = check_tree(c, depth + 1, nodes, what, err);
		if (rc)
			return rc;
	}
	return 0;
}

void nvue_snap_free(struct nvue_snap *s)
{
	cJSON_Delete(s->qos);
	for (size_t i = 0; s->ifqos && i < s->n_ports; i++)
		cJSON_Delete(s->ifqos[i]);
	free(s->ifqos);
	free(s->port);
	free(s->absent);
	free(s->pending);
	memset(s, 0, sizeof(*s));
}

static int alloc_ports(struct nvue_snap *s, size_t n, struct rc_err *err)
{
	s->port = calloc(n ? n : 1, sizeof(*s->port));
	s->ifqos = calloc(n ? n : 1, sizeof(*s->ifqos));
	s->absent = calloc(n ? n : 1, sizeof(*s->absent));
	if (!s->port || !s->ifqos || !s->absent)
		return rc_errf(err, ENOMEM, "out of memory");
	s->n_ports = n;
	return 0;
}

/* A null member is an absent one: NVUE's PATCH bodies unset with null (Cumulus Linux "NVUE API")
 * and a merge-patched tree may keep one (RFC 7386 §2), so the applied tree as a device answers may
 * carry them.  Bounded by check_tree's depth on the caller's side. */
static void drop_nulls(cJSON *j, int depth)
{
	cJSON *c = j ? j->child : NULL;

	if (!cJSON_IsObject(j) || depth > SNAP_MAX_DEPTH)
		return;
	while (c) {
		cJSON *next = c->next;

		if (cJSON_IsNull(c))
			cJSON_Delete(cJSON_DetachItemViaPointer(j, c));
		else
			drop_nulls(c, depth + 1);
		c = next;
	}
}

/* A subtree copied, or NULL when absent; checked like any device output.  `device`: the
 * tree comes from the switch (nulls are dropped), not from a journaled blob (we never
 * write one, so one there is refused). */
static int take(const cJSON *src, cJSON **dst, bool device, const char *what, struct rc_err *err)
{
	size_t nodes = 0;
	cJSON *copy;
	int rc;

	*dst = NULL;
	if (!src || (device && cJSON_IsNull(src)))
		return 0;
	copy = cJSON_Duplicate(src, true);
	if (!copy)
		return rc_errf(err, ENOMEM, "out of memory");
	if (device)
		drop_nulls(copy, 0);
	rc = check_tree(copy, 0, &nodes, what, err);
	if (!rc && !cJSON_IsObject(copy))
		rc = rc_errf(err, EPROTO, "%s: not an object", what);
	if (rc) {
		cJSON_Delete(copy);
		return rc;
	}
	*dst = copy;
	return 0;
}

int nvue_snap_from_root(const cJSON *root, const char (*ports)[RC_NAME_MAX], size_t n,
			struct nvue_snap *out, struct rc_err *err)
{
	const cJSON *ifs = cJSON_GetObjectItemCaseSensitive(root, "interface");
	int rc;

	memset(out, 0, sizeof(*out));
	if (cJSON_IsNull(ifs))
		ifs = NULL;
	if (!cJSON_IsObject(root) || (ifs && !cJSON_IsObject(ifs)))
		return rc_errf(err, EPROTO, "the applied configuration is not an object tree");
	rc = alloc_ports(out, n, err);
	if (!rc)
		rc = take(cJSON_GetObjectItemCaseSensitive(root, "qos"), &out->qos, true, "qos",
			  err);
	for (size_t i = 0; !rc && i < n; i++) {
		const cJSON *p = cJSON_GetObjectItemCaseSensitive(ifs, ports[i]);

		if (!nvue_port_name_ok(ports[i]))
			rc = rc_errf(err, EINVAL, "'%s' is not an NVUE interface name", ports[i]);
		else
			rc = take(cJSON_GetObjectItemCaseSensitive(p, "qos"), &out->ifqos[i], true,
				  ports[i], err);
		if (!rc)
			snprintf(out->port[i], sizeof(out->port[i]), "%s", ports[i]);
		out->absent[i] = !p || cJSON_IsNull(p);
	}
	if (rc)
		nvue_snap_free(out);
	return rc;
}

/* Revision ids by state from GET /nvue_v1/revision: {"<id>": {"state": ...}, ...} (the
 * shape of one revision's object, the "NVUE API" page's revision samples; that the
 * listing is an object of those is what the simulator answers, unverified). */
int nvue_pending_revisions(const cJSON *revs, char (**ids)[64], size_t *n, struct rc_err *err)
{
	const cJSON *r;
	size_t k = 0;

	*ids = NULL;
	*n = 0;
	if (!cJSON_IsObject(revs))
		return rc_errf(err, EPROTO, "GET /revision: not an object of revisions");
	*ids = calloc((size_t)cJSON_GetArraySize(revs) + 1, sizeof(**ids));
	if (!*ids)
		return rc_errf(err, ENOMEM, "out of memory");
	cJSON_ArrayForEach(r, revs)
	{
		const char *st = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "state"));

		if (!st || !token_ok(r->string) || strlen(r->string) >= sizeof(**ids)) {
			free(*ids);
			*ids = NULL;
			return rc_errf(err, EPROTO, "GET /revision: a revision has no id or state");
		}
		if (!strcmp(st, "pending"))
			snprintf((*ids)[k++], sizeof(**ids), "%s", r->string);
	}
	*n = k;
	return 0;
}

bool nvue_snap_was_pending(const struct nvue_snap *s, const char *id)
{
	for (size_t i = 0; i < s->n_pending; i++)
		if (!strcmp(s->pending[i], id))
			return true;
	return false;
}

/* `nv config show -o json`: the YAML form's list -- a `header` item, then a `set` item
 * with the applied tree (Cumulus Linux "NVUE CLI"; that -o json gives the same list is unverified,
 * hence the strict shape check).  No `set` item: nothing is configured. */
int nvue_config_show_root(const char *buf, size_t len, cJSON **root, struct rc_err *err)
{
	static const char what[] = "'nv config show -o json'";
	const cJSON *it, *set = NULL;
	cJSON *doc = NULL;
	int rc = nvue_parse_json(buf, len, what, &doc, err);

	*root = NULL;
	if (rc)
		return rc;
	if (!cJSON_IsArray(doc)) {
		cJSON_Delete(doc);
		return rc_errf(err, EPROTO, "%s: not a list of header and set items", what);
	}
	cJSON_ArrayForEach(it, doc)
	{
		const cJSON *h = cJSON_GetObjectItemCaseSensitive(it, "header");
		const cJSON *s = cJSON_GetObjectItemCaseSensitive(it, "set");

		if (!cJSON_IsObject(it) || (!h && !s) || (s && (set || !cJSON_IsObject(s)))) {
			cJSON_Delete(doc);
			return rc_errf(err, EPROTO, "%s: an item is neither 'header' nor one 'set'",
				       what);
		}
		if (s)
			set = s;
	}
	*root = set ? cJSON_Duplicate(set, true) : cJSON_CreateObject();
	cJSON_Delete(doc);
	return *root ? 0 : rc_errf(err, ENOMEM, "out of memory");
}

char *nvue_snap_write(const struct nvue_snap *s)
{
	cJSON *o = cJSON_CreateObject(), *ports = cJSON_AddObjectToObject(o, "ports");
	cJSON *absent = cJSON_AddArrayToObject(o, "absent");
	cJSON *pend = s->rest ? cJSON_AddArrayToObject(o, "pending") : NULL;
	char *text = NULL;
	bool ok = o && ports && absent && (pend || !s->rest) &&
		  cJSON_AddNumberToObject(o, "version", SNAP_VERSION);

	if (ok && s->timed)
		ok = cJSON_AddTrueToObject(o, "timed") != NULL;
	for (size_t i = 0; ok && i < s->n_pending; i++)
		ok = cJSON_AddItemToArray(pend, cJSON_CreateString(s->pending[i]));
	if (ok && s->qos)
		ok = cJSON_AddItemToObject(o, "qos", cJSON_Duplicate(s->qos, true));
	for (size_t i = 0; ok && i < s->n_ports; i++) {
		ok = cJSON_AddItemToObject(ports, s->port[i],
					   s->ifqos[i] ? cJSON_Duplicate(s->ifqos[i], true)
						       : cJSON_CreateObject());
		if (ok && s->absent[i])
			ok = cJSON_AddItemToArray(absent, cJSON_CreateString(s->port[i]));
	}
	if (ok)
		text = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	return text;
}

/* The list of ports whose interface entry did not exist, and of revisions pending then. */
static int parse_lists(const cJSON *o, struct nvue_snap *out, struct rc_err *err)
{
	const cJSON *absent = cJSON_GetObjectItemCaseSensitive(o, "absent");
	const cJSON *pend = cJSON_GetObjectItemCaseSensitive(o, "pending"), *v;
	const cJSON *timed = cJSON_GetObjectItemCaseSensitive(o, "timed");

	if (!cJSON_IsArray(absent) || (pend && !cJSON_IsArray(pend)))
		return rc_errf(err, EPROTO, "native snapshot: bad 'absent' or 'pending'");
	if (timed && !cJSON_IsBool(timed))
		return rc_errf(err, EPROTO, "native snapshot: 'timed' is not a boolean");
	out->timed = cJSON_IsTrue(timed);
	cJSON_ArrayForEach(v, absent)
	{
		size_t i = 0;

		while (i < out->n_ports &&
		       (!cJSON_IsString(v) || strcmp(out->port[i], v->valuestring)))
			i++;
		if (i == out->n_ports)
			return rc_errf(err, EPROTO, "native snapshot: 'absent' names no port");
		out->absent[i] = true;
	}
	out->rest = pend != NULL;
	out->pending = calloc((size_t)cJSON_GetArraySize(pend) + 1, sizeof(*out->pending));
	if (!out->pending)
		return rc_errf(err, ENOMEM, "out of memory");
	cJSON_ArrayForEach(v, pend)
	{
		if (!cJSON_IsString(v) || !token_ok(v->valuestring) ||
		    strlen(v->valuestring) >= sizeof(*out->pending))
			return rc_errf(err, EPROTO, "native snapshot: bad revision id");
		snprintf(out->pending[out->n_pending++], sizeof(*out->pending), "%s",
			 v->valuestring);
	}
	return 0;
}

static int parse_ports(const cJSON *ports, struct nvue_snap *out, struct rc_err *err)
{
	const cJSON *p;
	size_t i = 0;
	int rc;

	if (!cJSON_IsObject(ports))
		return rc_errf(err, EPROTO, "native snapshot: 'ports' is not an object");
	rc = alloc_ports(out, (size_t)cJSON_GetArraySize(ports), err);
	cJSON_ArrayForEach(p, ports)
	{
		if (rc)
			break;
		if (!p->string || !nvue_port_name_ok(p->string))
			return rc_errf(err, EPROTO, "native snapshot: a port is not an NVUE name");
		snprintf(out->port[i], sizeof(out->port[i]), "%s", p->string);
		rc = take(p, &out->ifqos[i], false, "native snapshot port", err);
		if (!rc && !out->ifqos[i]->child) {
			cJSON_Delete(out->ifqos[i]);
			out->ifqos[i] = NULL;
		}
		i++;
	}
	return rc;
}

int nvue_snap_parse(const char *blob, struct nvue_snap *out, struct rc_err *err)
{
	cJSON *o = blob ? cJSON_Parse(blob) : NULL;
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "version");
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (!cJSON_IsObject(o))
		rc = rc_errf(err, EPROTO, "native snapshot: not a JSON object");
	else if (!cJSON_IsNumber(v) || v->valuedouble != SNAP_VERSION)
		rc = rc_errf(err, EPROTO, "native snapshot: unknown version");
	if (!rc)
		rc = take(cJSON_GetObjectItemCaseSensitive(o, "qos"), &out->qos, false,
			  "native snapshot qos", err);
	if (!rc)
		rc = parse_ports(cJSON_GetObjectItemCaseSensitive(o, "ports"), out, err);
	if (!rc)
		rc = parse_lists(o, out, err);
	cJSON_Delete(o);
	if (rc)
		nvue_snap_free(out);
	return rc;
}

/* ---- the restore ---------------------------------------------------------------------- */

struct words {
	const char *w[SNAP_MAX_DEPTH + 4];
	int n;
};

static void add_text(char **buf, size_t *len, size_t *cap, const char *s, bool *ok)
{
	size_t l = strlen(s);

	if (!*ok)
		return;
	if (*len + l + 1 > *cap) {
		size_t nc = (*cap ? *cap * 2 : 1024) + l;
		char *nb = realloc(*buf, nc);

		if (!nb) {
			*ok = false;
			return;
		}
		*buf = nb;
		*cap = nc;
	}
	memcpy(*buf + *len, s, l + 1);
	*len += l;
}

struct out {
	char *buf;
	size_t len, cap;
	bool ok;
};

static void line(struct out *o, const char *verb, const struct words *w, const char *value)
{
	add_text(&o->buf, &o->len, &o->cap, verb, &o->ok);
	for (int i = 0; i < w->n; i++) {
		add_text(&o->buf, &o->len, &o->cap, " ", &o->ok);
		add_text(&o->buf, &o->len, &o->cap, w->w[i], &o->ok);
	}
	if (value) {
		add_text(&o->buf, &o->len, &o->cap, " ", &o->ok);
		add_text(&o->buf, &o->len, &o->cap, value, &o->ok);
	}
	add_text(&o->buf, &o->len, &o->cap, "\n", &o->ok);
}

/* `nv set` of every leaf below w.  An empty object is a collection entry (a profile) or a
 * set member (`switch-priority 3`), which `nv set PATH` creates (Cumulus Linux "NVUE API");
 * `min_bare` is the shortest path where that can be (below the tree's own containers). */
static void set_lines(struct out *o, struct words *w, const cJSON *j, int min_bare)
{
	const cJSON *c;
	char num[32];

	if (cJSON_IsString(j)) {
		line(o, "nv set", w, j->valuestring);
		return;
	}
	if (cJSON_IsNumber(j)) {
		snprintf(num, sizeof(num), "%lld", (long long)j->valuedouble);
		line(o, "nv set", w, num);
		return;
	}
	if (!j->child) {
		if (w->n >= min_bare)
			line(o, "nv set", w, NULL);
		return;
	}
	if (w->n >= (int)(sizeof(w->w) / sizeof(w->w[0])))
		return; /* checked at parse: cannot happen */
	cJSON_ArrayForEach(c, j)
	{
		w->w[w->n++] = c->string;
		set_lines(o, w, c, min_bare);
		w->n--;
	}
}

char *nvue_snap_cli(const struct nvue_snap *s)
{
	struct out o = {.ok = true};
	struct words w = {.w = {"qos"}, .n = 1};

	line(&o, "nv unset", &w, NULL);
	for (size_t i = 0; i < s->n_ports; i++) {
		/* an interface entry the run created goes as a whole */
		struct words p = {.w = {"interface", s->port[i], "qos"}, .n = s->absent[i] ? 2 : 3};

		line(&o, "nv unset", &p, NULL);
	}
	if (s->qos)
		set_lines(&o, &w, s->qos, 3);
	for (size_t i = 0; i < s->n_ports; i++) {
		struct words p = {.w = {"interface", s->port[i], "qos"}, .n = 3};

		if (s->ifqos[i])
			set_lines(&o, &p, s->ifqos[i], 5);
	}
	if (!o.ok) {
		free(o.buf);
		return NULL;
	}
	return o.buf;
}

cJSON *nvue_snap_patch(const struct nvue_snap *s)
{
	cJSON *root = cJSON_CreateObject(), *ifs = NULL;
	bool ok = root != NULL;

	if (ok && s->qos)
		ok = cJSON_AddItemToObject(root, "qos", cJSON_Duplicate(s->qos, true));
	for (size_t i = 0; ok && i < s->n_ports; i++) {
		cJSON *p;

		if (!s->ifqos[i])
			continue;
		if (!ifs)
			ifs = cJSON_AddObjectToObject(root, "interface");
		p = ifs ? cJSON_AddObjectToObject(ifs, s->port[i]) : NULL;
		ok = p && cJSON_AddItemToObject(p, "qos", cJSON_Duplicate(s->ifqos[i], true));
	}
	if (!ok) {
		cJSON_Delete(root);
		return NULL;
	}
	return root;
}

/* Every setting of s as `nv set` lines (an interface entry by itself when it exists with
 * nothing below: `nv set interface swp1`). */
static char *set_text(const struct nvue_snap *s)
{
	struct out o = {.ok = true};
	struct words w = {.w = {"qos"}, .n = 1};

	add_text(&o.buf, &o.len, &o.cap, "", &o.ok);
	if (s->qos)
		set_lines(&o, &w, s->qos, 1);
	for (size_t i = 0; i < s->n_ports; i++) {
		struct words p = {.w = {"interface", s->port[i], "qos"}, .n = 3};

		if (s->ifqos[i])
			set_lines(&o, &p, s->ifqos[i], 3);
		else if (!s->absent[i])
			line(&o, "nv set", &(struct words){.w = {"interface", s->port[i]}, .n = 2},
			     NULL);
	}
	if (!o.ok) {
		free(o.buf);
		return NULL;
	}
	return o.buf;
}

static bool has_text_line(const char *text, const char *l, size_t n)
{
	for (const char *p = text; *p;) {
		const char *e = strchr(p, '\n');
		size_t k = e ? (size_t)(e - p) : strlen(p);

		if (k == n && !strncmp(p, l, n))
			return true;
		p += k + (e != NULL);
	}
	return false;
}

/* The lines of a that b lacks, into why with `sign`. */
static int lacking(const char *a, const char *b, char sign, char *why, size_t len)
{
	size_t o = strlen(why);
	int n = 0;

	for (const char *p = a; *p;) {
		const char *e = strchr(p, '\n');
		size_t k = e ? (size_t)(e - p) : strlen(p);

		if (k && !has_text_line(b, p, k)) {
			n++;
			if (o < len)
				o += (size_t)snprintf(why + o, len - o, "%s%c%.*s", o ? "; " : "",
						      sign, (int)k, p);
		}
		p += k + (e != NULL);
	}
	return n;
}

int nvue_snap_differences(const struct nvue_snap *want, const struct nvue_snap *now, char *why,
			  size_t len)
{
	char *a = set_text(want), *b = set_text(now);
	int n = -ENOMEM;

	if (len)
		why[0] = '\0';
	if (a && b)
		n = lacking(a, b, '-', why, len) + lacking(b, a, '+', why, len);
	free(a);
	free(b);
	return n;
}
