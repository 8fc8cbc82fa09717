/* SPDX-License-Identifier: Apache-2.0 */
/* EOS native snapshot (include/rocectl/driver.h, snapshot/restore_native): the
 * running-config lines rocectl manages -- global `qos ...` and `priority-flow-control ...`
 * lines, and in each managed port's `interface` block its `qos`, `priority-flow-control`
 * and transmit-queue lines (AVD's eos_cli_config_gen templates and its intended configuration
 * qos.cfg)
 * -- and the configuration-session lines that bring a running-config back to them: what
 * the run added is reset with `default <line>` (EOS's default form restores the factory
 * setting, where `no` can itself be a setting: `no qos trust`, `no priority`), then what
 * it changed or removed is written back.  Nothing here does I/O.
 *
 * The blob is read back from a journal file on disk: it is parsed like device output and
 * every line must be a managed line again, so nothing else can reach a session. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "rocectl/util.h"
#include "eos.h"

#define SNAP_VERSION	 1
#define SNAP_MAX_TEXT	 (1u << 20)
#define SNAP_MAX_PORTS	 4096
#define SNAP_SESSION_MAX 64

static bool has_prefix(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

/* The `no` form of a line is the same setting spelled negatively. */
static const char *positive(const char *line)
{
	return has_prefix(line, "no ") ? line + 3 : line;
}

static bool global_managed(const char *line)
{
	const char *p = positive(line);

	return has_prefix(p, "qos ") || has_prefix(p, "priority-flow-control ");
}

static bool queue_header(const char *line)
{
	return has_prefix(line, "tx-queue ") || has_prefix(line, "uc-tx-queue ");
}

static bool iface_managed(const char *line)
{
	const char *p = positive(line);

	return has_prefix(p, "qos ") || !strcmp(p, "qos") ||
	       has_prefix(p, "priority-flow-control") || queue_header(line);
}

static bool printable(const char *s)
{
	for (; *s; s++)
		if (*s < 0x20 || *s > 0x7e)
			return false;
	return true;
}

void eos_snap_free(struct eos_snap *s)
{
	eos_config_free(&s->cfg);
	eos_config_free(&s->startup);
	free(s->port);
	memset(s, 0, sizeof(*s));
}

static int keep(struct eos_config *out, int depth, const char *text, struct rc_err *err)
{
	if (rc_array_reserve((void **)&out->v, &out->cap, out->n + 1, sizeof(*out->v), 64))
		return rc_errf(err, ENOMEM, "out of memory");
	out->v[out->n].depth = depth;
	snprintf(out->v[out->n].text, sizeof(out->v[out->n].text), "%s", text);
	out->n++;
	return 0;
}

static bool is_port(const struct eos_snap *s, const char *header)
{
	if (!has_prefix(header, "interface "))
		return false;
	for (size_t i = 0; i < s->n_ports; i++)
		if (!strcmp(header + 10, s->port[i]))
			return true;
	return false;
}

/* The managed lines of `cfg` for the snapshot's ports, into `out`. */
static int filter(const struct eos_config *cfg, const struct eos_snap *s, struct eos_config *out,
		  struct rc_err *err)
{
	bool in_port = false, in_queue = false;
	int rc = 0;

	for (size_t i = 0; !rc && i < cfg->n; i++) {
		const struct eos_line *l = &cfg->v[i];

		if (!printable(l->text))
			return rc_errf(err, EPROTO, "a configuration line is not printable text");
		if (l->depth == 0) {
			in_port = is_port(s, l->text);
			in_queue = false;
			if (in_port || global_managed(l->text))
				rc = keep(out, 0, l->text, err);
		} else if (l->depth == 1 && in_port) {
			in_queue = queue_header(l->text);
			if (iface_managed(l->text))
				rc = keep(out, 1, l->text, err);
		} else if (l->depth == 2 && in_port && in_queue) {
			rc = keep(out, 2, l->text, err);
		}
	}
	out->uc_queues = cfg->uc_queues;
	return rc;
}

static int set_ports(struct eos_snap *s, size_t n, struct rc_err *err)
{
	if (n > SNAP_MAX_PORTS)
		return rc_errf(err, E2BIG, "too many ports");
	s->port = calloc(n ? n : 1, sizeof(*s->port));
	if (!s->port)
		return rc_errf(err, ENOMEM, "out of memory");
	s->n_ports = n;
	return 0;
}

bool eos_config_same(const struct eos_config *a, const struct eos_config *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (a->v[i].depth != b->v[i].depth || strcmp(a->v[i].text, b->v[i].text))
			return false;
	return true;
}

int eos_snap_from_config(const struct eos_config *cfg, const struct eos_config *startup,
			 const char (*ports)[RC_NAME_MAX], size_t n, const char *session,
			 struct eos_snap *out, struct rc_err *err)
{
	int rc;

	memset(out, 0, sizeof(*out));
	if (!eos_name_ok(session) || strlen(session) >= sizeof(out->session))
		return rc_errf(err, EINVAL, "'%.40s' is not a session name", session);
	snprintf(out->session, sizeof(out->session), "%s", session);
	rc = set_ports(out, n, err);
	for (size_t i = 0; !rc && i < n; i++) {
		if (!eos_port_name_ok(ports[i]))
			rc = rc_errf(err, EINVAL, "'%s' is not an EOS interface name", ports[i]);
		else
			snprintf(out->port[i], sizeof(out->port[i]), "%s", ports[i]);
	}
	if (!rc)
		rc = filter(cfg, out, &out->cfg, err);
	if (!rc && startup)
		rc = filter(startup, out, &out->startup, err);
	out->has_startup = startup && !eos_config_same(&out->cfg, &out->startup);
	if (rc)
		eos_snap_free(out);
	return rc;
}

/* The kept lines as running-config text (3-space indentation per level). */
static char *render(const struct eos_config *c)
{
	size_t len = 1, o = 0;
	char *t;

	for (size_t i = 0; i < c->n; i++)
		len += strlen(c->v[i].text) + 3 * (size_t)c->v[i].depth + 1;
	t = malloc(len);
	if (!t)
		return NULL;
	t[0] = '\0';
	for (size_t i = 0; i < c->n; i++)
		o += (size_t)sprintf(t + o, "%*s%s\n", 3 * c->v[i].depth, "", c->v[i].text);
	return t;
}

char *eos_snap_write(const struct eos_snap *s)
{
	cJSON *o = cJSON_CreateObject(), *ports = cJSON_AddArrayToObject(o, "ports");
	char *text = render(&s->cfg), *st = s->has_startup ? render(&s->startup) : NULL,
	     *out = NULL;
	bool ok = o && ports && text && (st || !s->has_startup) &&
		  cJSON_AddNumberToObject(o, "version", SNAP_VERSION) &&
		  cJSON_AddStringToObject(o, "session", s->session) &&
		  cJSON_AddStringToObject(o, "running", text) &&
		  cJSON_AddBoolToObject(o, "uc_queues", s->cfg.uc_queues);

	if (ok && st)
		ok = cJSON_AddStringToObject(o, "startup", st) != NULL;
	for (size_t i = 0; ok && i < s->n_ports; i++)
		ok = cJSON_AddItemToArray(ports, cJSON_CreateString(s->port[i]));
	if (ok)
		out = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	free(text);
	free(st);
	return out;
}

static int parse_ports(const cJSON *ports, struct eos_snap *s, struct rc_err *err)
{
	const cJSON *p;
	size_t i = 0;
	int rc;

	if (!cJSON_IsArray(ports))
		return rc_errf(err, EPROTO, "native snapshot: 'ports' is not a list");
	rc = set_ports(s, (size_t)cJSON_GetArraySize(ports), err);
	cJSON_ArrayForEach(p, ports)
	{
		if (rc)
			break;
		if (!cJSON_IsString(p) || !eos_port_name_ok(p->valuestring))
			return rc_errf(err, EPROTO, "native snapshot: a port is not an EOS name");
		snprintf(s->port[i++], sizeof(s->port[0]), "%s", p->valuestring);
	}
	return rc;
}

/* Text of the blob -> lines; every line must be a managed one: anything else is not ours. */
static int parse_text(const char *text, const struct eos_snap *s, struct eos_config *out,
		      struct rc_err *err)
{
	struct eos_config cfg = {0};
	int rc = eos_parse_config_text(text, strlen(text), "native snapshot", &cfg, err);

	if (!rc)
		rc = filter(&cfg, s, out, err);
	if (!rc && out->n != cfg.n)
		rc = rc_errf(err, EPROTO, "native snapshot: a line is not one rocectl manages");
	eos_config_free(&cfg);
	return rc;
}

int eos_snap_parse(const char *blob, struct eos_snap *out, struct rc_err *err)
{
	cJSON *o = blob ? cJSON_Parse(blob) : NULL;
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "version");
	const char *sess = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "session"));
	const char *run = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "running"));
	const cJSON *stj = cJSON_GetObjectItemCaseSensitive(o, "startup");
	const char *st = cJSON_GetStringValue(stj);
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (!cJSON_IsObject(o))
		rc = rc_errf(err, EPROTO, "native snapshot: not a JSON object");
	else if (!cJSON_IsNumber(v) || v->valuedouble != SNAP_VERSION)
		rc = rc_errf(err, EPROTO, "native snapshot: unknown version");
	else if (!sess || !eos_name_ok(sess) || strlen(sess) >= sizeof(out->session))
		rc = rc_errf(err, EPROTO, "native snapshot: bad 'session'");
	else if (!run || strlen(run) > SNAP_MAX_TEXT)
		rc = rc_errf(err, EPROTO, "native snapshot: bad 'running'");
	else if (stj && (!st || strlen(st) > SNAP_MAX_TEXT))
		rc = rc_errf(err, EPROTO, "native snapshot: bad 'startup'");
	if (!rc) {
		snprintf(out->session, sizeof(out->session), "%s", sess);
		rc = parse_ports(cJSON_GetObjectItemCaseSensitive(o, "ports"), out, err);
	}
	if (!rc)
		rc = parse_text(run, out, &out->cfg, err);
	if (!rc && st) {
		rc = parse_text(st, out, &out->startup, err);
		out->has_startup = true;
	}
	if (!rc) {
		out->cfg.uc_queues = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "uc_queues"));
		out->startup.uc_queues = out->cfg.uc_queues;
	}
	cJSON_Delete(o);
	if (rc)
		eos_snap_free(out);
	return rc;
}

/* ---- the restore ---------------------------------------------------------------------- */

struct lines {
	char **v;
	size_t n, cap;
	bool failed;
};

static void add(struct lines *l, const char *a, const char *b)
{
	char *s;

	if (l->failed)
		return;
	if (rc_array_reserve((void **)&l->v, &l->cap, l->n + 2, sizeof(*l->v), 64)) {
		l->failed = true;
		return;
	}
	size_t la = strlen(a), lb = strlen(b);

	s = malloc(la + lb + 1);
	if (!s) {
		l->failed = true;
		return;
	}
	memcpy(s, a, la);
	memcpy(s + la, b, lb + 1);
	l->v[l->n++] = s;
	l->v[l->n] = NULL;
}

/* Index range [*lo, *hi) of the children of line `at` (deeper lines that follow it). */
static void children(const struct eos_config *c, size_t at, size_t *lo, size_t *hi)
{
	*lo = at + 1;
	*hi = *lo;
	while (*hi < c->n && c->v[*hi].depth > c->v[at].depth)
		(*hi)++;
}

/* Line `text` at `depth` among [lo, hi) of c; the index or -1. */
static long find(const struct eos_config *c, size_t lo, size_t hi, int depth, const char *text)
{
	for (size_t i = lo; i < hi; i++)
		if (c->v[i].depth == depth && !strcmp(c->v[i].text, text))
			return (long)i;
	return -1;
}

/* Lines at `depth` in [alo, ahi) of a missing from [blo, bhi) of b: emitted as
 * `prefix line` (prefix "default ": reset; "": write back).  Headers with children are
 * skipped when `leaves` (they are handled as blocks). */
static void missing(struct lines *l, const struct eos_config *a, size_t alo, size_t ahi,
		    const struct eos_config *b, size_t blo, size_t bhi, int depth, bool reset)
{
	for (size_t i = alo; i < ahi; i++) {
		const char *t = a->v[i].text;

		if (a->v[i].depth != depth || (depth == 1 && queue_header(t)))
			continue;
		if (find(b, blo, bhi, depth, t) < 0)
			add(l, reset ? "default " : "", reset ? positive(t) : t);
	}
}

/* One queue block of the port (header text `h`), now [nlo, nhi) and before [blo, bhi). */
static void queue_block(struct lines *l, const char *h, const struct eos_config *now, long nh,
			const struct eos_config *was, long bh)
{
	size_t nlo = 0, nhi = 0, blo = 0, bhi = 0, mark = l->n;

	if (nh >= 0)
		children(now, (size_t)nh, &nlo, &nhi);
	if (bh < 0) {
		add(l, "default ", h); /* the run created the whole queue block */
		return;
	}
	children(was, (size_t)bh, &blo, &bhi);
	add(l, h, "");
	if (nh >= 0)
		missing(l, now, nlo, nhi, was, blo, bhi, 2, true);
	missing(l, was, blo, bhi, nh >= 0 ? now : was, nh >= 0 ? nlo : 0, nh >= 0 ? nhi : 0, 2,
		false);
	if (l->n == mark + 1 && nh >= 0) { /* nothing changed in it */
		free(l->v[--l->n]);
		l->v[l->n] = NULL;
		return;
	}
	add(l, "exit", "");
}

static void port_block(struct lines *l, const char *port, const struct eos_config *now,
		       const struct eos_config *was)
{
	char head[RC_NAME_MAX + 16];
	long nh, bh;
	size_t nlo = 0, nhi = 0, blo = 0, bhi = 0, mark = l->n;

	snprintf(head, sizeof(head), "interface %s", port);
	nh = find(now, 0, now->n, 0, head);
	bh = find(was, 0, was->n, 0, head);
	if (nh >= 0)
		children(now, (size_t)nh, &nlo, &nhi);
	if (bh >= 0)
		children(was, (size_t)bh, &blo, &bhi);
	add(l, head, "");
	missing(l, now, nlo, nhi, was, blo, bhi, 1, true);
	for (size_t i = nlo; i < nhi; i++)
		if (now->v[i].depth == 1 && queue_header(now->v[i].text))
			queue_block(l, now->v[i].text, now, (long)i, was,
				    bh >= 0 ? find(was, blo, bhi, 1, now->v[i].text) : -1);
	missing(l, was, blo, bhi, now, nlo, nhi, 1, false);
	for (size_t i = blo; i < bhi; i++)
		if (was->v[i].depth == 1 && queue_header(was->v[i].text) &&
		    find(now, nlo, nhi, 1, was->v[i].text) < 0)
			queue_block(l, was->v[i].text, now, -1, was, (long)i);
	if (l->n == mark + 1) {
		free(l->v[--l->n]);
		l->v[l->n] = NULL;
		return;
	}
	add(l, "exit", "");
}

int eos_snap_restore_lines(const struct eos_config *running, const struct eos_snap *s,
			   const struct eos_config *to, char ***out, size_t *n, struct rc_err *err)
{
	struct eos_snap now;
	struct lines l = {0};
	int rc;

	*out = NULL;
	*n = 0;
	rc = eos_snap_from_config(running, NULL, (const char(*)[RC_NAME_MAX])s->port, s->n_ports,
				  s->session, &now, err);
	if (rc)
		return rc;
	l.v = calloc(1, sizeof(*l.v));
	l.cap = l.v ? 1 : 0;
	l.failed = !l.v;
	missing(&l, &now.cfg, 0, now.cfg.n, to, 0, to->n, 0, true);
	missing(&l, to, 0, to->n, &now.cfg, 0, now.cfg.n, 0, false);
	/* interface headers are depth-0 lines of both: they were emitted above; drop them */
	for (size_t i = 0; i < l.n;) {
		if (has_prefix(l.v[i], "interface ") || has_prefix(l.v[i], "default interface ")) {
			free(l.v[i]);
			memmove(&l.v[i], &l.v[i + 1], (l.n - i) * sizeof(*l.v));
			l.n--;
		} else {
			i++;
		}
	}
	for (size_t i = 0; i < s->n_ports; i++)
		port_block(&l, s->port[i], &now.cfg, to);
	eos_snap_free(&now);
	if (l.failed) {
		eos_lines_free(l.v);
		return rc_errf(err, ENOMEM, "out of memory");
	}
	*out = l.v;
	*n = l.n;
	return 0;
}

/* Line i of c with its parents ("interface Ethernet1 > tx-queue 3 > random-detect ..."). */
static void with_context(const struct eos_config *c, size_t i, char *buf, size_t len)
{
	const char *parent[3] = {NULL, NULL, NULL};
	size_t o = 0;

	for (size_t k = 0; k <= i; k++)
		if (c->v[k].depth >= 0 && c->v[k].depth < 3)
			parent[c->v[k].depth] = c->v[k].text;
	buf[0] = '\0';
	for (int d = 0; d <= c->v[i].depth && d < 3 && o < len; d++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", d ? " > " : "",
				      d == c->v[i].depth ? c->v[i].text
				      : parent[d]	 ? parent[d]
							 : "?");
}

static bool has_line(const struct eos_config *c, const char *line, char *tmp, size_t len)
{
	for (size_t i = 0; i < c->n; i++) {
		with_context(c, i, tmp, len);
		if (!strcmp(tmp, line))
			return true;
	}
	return false;
}

/* The lines of `a` that `b` lacks, listed in why with `sign`. */
static size_t lacking(const struct eos_config *a, const struct eos_config *b, char sign, char *why,
		      size_t len)
{
	char line[4 * EOS_LINE_MAX], tmp[4 * EOS_LINE_MAX];
	size_t n = 0, o = strlen(why);

	for (size_t i = 0; i < a->n; i++) {
		with_context(a, i, line, sizeof(line));
		if (has_line(b, line, tmp, sizeof(tmp)))
			continue;
		n++;
		if (o < len)
			o +=
			    (size_t)snprintf(why + o, len - o, "%s%c%s", o ? "; " : "", sign, line);
	}
	return n;
}

int eos_snap_differences(const struct eos_config *now, const struct eos_snap *s,
			 const struct eos_config *want, char *why, size_t len, struct rc_err *err)
{
	struct eos_snap got;
	size_t n;
	int rc = eos_snap_from_config(now, NULL, (const char(*)[RC_NAME_MAX])s->port, s->n_ports,
				      s->session, &got, err);

	if (len)
		why[0] = '\0';
	if (rc)
		return rc;
	n = eos_config_same(&got.cfg, want) ? 0 : lacking(want, &got.cfg, '-', why, len);
	if (!eos_config_same(&got.cfg, want))
		n += lacking(&got.cfg, want, '+', why, len);
	if (!n && !eos_config_same(&got.cfg, want)) {
		snprintf(why, len, "the same lines in another order");
		n = 1;
	}
	eos_snap_free(&got);
	return (int)n;
}
