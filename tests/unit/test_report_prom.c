/* SPDX-License-Identifier: Apache-2.0 */
/* Prometheus text exposition of a fabric result (engine/report/report_prom.c).  The output is
 * checked by a strict parser of format 0.0.4 written here (stricter than the format where
 * node_exporter's textfile collector is: no sample timestamps), then value by value.  The
 * result is built by hand so that these tests depend on neither drivers nor the loader. */
#include <errno.h>
#include <math.h>
#include <regex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rocectl/result.h"

/* ---- a strict parser of the text exposition format ---- */

#define MAX_LABELS  8
#define MAX_SAMPLES 256
#define MAX_FAMS    64

struct sample {
	char name[128];
	size_t n_labels;
	char key[MAX_LABELS][64];
	char val[MAX_LABELS][256]; /* unescaped */
	double value;
	char series[1024]; /* name and sorted labels: duplicate detection */
};

struct family {
	char name[128];
	char type[16];
	bool help, has_type, has_samples, closed;
};

struct expo {
	size_t n;
	struct sample s[MAX_SAMPLES];
	size_t n_fam;
	struct family fam[MAX_FAMS];
	char why[256];
};

static bool full_match(const char *re, const char *s)
{
	regex_t rx;
	bool ok;

	assert_int_equal(regcomp(&rx, re, REG_EXTENDED | REG_NOSUB), 0);
	ok = regexec(&rx, s, 0, NULL, 0) == 0;
	regfree(&rx);
	return ok;
}

static bool metric_name_ok(const char *s)
{
	return full_match("^[a-zA-Z_:][a-zA-Z0-9_:]*$", s);
}

static bool label_name_ok(const char *s)
{
	return full_match("^[a-zA-Z_][a-zA-Z0-9_]*$", s) && strncmp(s, "__", 2) != 0;
}

static bool float_ok(const char *s)
{
	return full_match("^([-+]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][-+]?[0-9]+)?|NaN|[-+]Inf)$",
			  s);
}

static bool utf8_ok(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	while (*s) {
		size_t n = *s < 0x80	     ? 1
			   : (*s >> 5) == 6  ? 2
			   : (*s >> 4) == 14 ? 3
			   : (*s >> 3) == 30 ? 4
					     : 0;
		uint32_t cp = n == 1 ? *s : *s & (0x7fu >> n);

		if (!n)
			return false;
		for (size_t i = 1; i < n; i++) {
			if ((s[i] & 0xc0) != 0x80)
				return false;
			cp = cp << 6 | (s[i] & 0x3fu);
		}
		if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) ||
		    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff))
			return false;
		s += n;
	}
	return true;
}

static int reject(struct expo *e, size_t line, const char *what)
{
	snprintf(e->why, sizeof(e->why), "line %zu: %s", line, what);
	return -1;
}

static struct family *fam_get(struct expo *e, const char *name, bool create)
{
	for (size_t i = 0; i < e->n_fam; i++)
		if (!strcmp(e->fam[i].name, name))
			return &e->fam[i];
	if (!create || e->n_fam == MAX_FAMS)
		return NULL;
	memset(&e->fam[e->n_fam], 0, sizeof(e->fam[0]));
	snprintf(e->fam[e->n_fam].name, sizeof(e->fam[0].name), "%s", name);
	return &e->fam[e->n_fam++];
}

/* Entering family `f` closes every other family that has begun: a family is one group. */
static int enter(struct expo *e, struct family *f, size_t line)
{
	if (f->closed)
		return reject(e, line, "family continues after another family began");
	for (size_t i = 0; i < e->n_fam; i++)
		if (&e->fam[i] != f &&
		    (e->fam[i].help || e->fam[i].has_type || e->fam[i].has_samples))
			e->fam[i].closed = true;
	return 0;
}

/* A token of [a-zA-Z0-9_:] at *p, copied to out. */
static bool token(const char **p, char *out, size_t len)
{
	size_t n = 0;

	while ((**p >= 'a' && **p <= 'z') || (**p >= 'A' && **p <= 'Z') ||
	       (**p >= '0' && **p <= '9') || **p == '_' || **p == ':') {
		if (n + 1 >= len)
			return false;
		out[n++] = *(*p)++;
	}
	out[n] = '\0';
	return n > 0;
}

static int parse_meta(struct expo *e, const char *l, size_t line)
{
	bool help = !strncmp(l, "# HELP ", 7);
	const char *p = l + 7;
	char name[128];
	struct family *f;

	if (!help && strncmp(l, "# TYPE ", 7))
		return 0; /* a comment */
	if (!token(&p, name, sizeof(name)) || !metric_name_ok(name) || *p != ' ')
		return reject(e, line, "bad metric name in HELP/TYPE");
	p++;
	f = fam_get(e, name, true);
	if (!f)
		return reject(e, line, "too many families");
	if (enter(e, f, line))
		return -1;
	if (f->has_samples)
		return reject(e, line, "HELP/TYPE after the family's samples");
	if (help) {
		if (f->help)
			return reject(e, line, "second HELP");
		for (; *p; p++)
			if (*p == '\\' && p[1] != '\\' && p[1] != 'n')
				return reject(e, line, "bad escape in HELP");
			else if (*p == '\\')
				p++;
		f->help = true;
		return 0;
	}
	if (f->has_type)
		return reject(e, line, "second TYPE");
	if (strcmp(p, "counter") && strcmp(p, "gauge") && strcmp(p, "histogram") &&
	    strcmp(p, "summary") && strcmp(p, "untyped"))
		return reject(e, line, "bad TYPE");
	/* OpenMetrics reserves the suffix for counters, and promtool rejects it elsewhere */
	if (strcmp(p, "counter") && strlen(name) > 6 && !strcmp(name + strlen(name) - 6, "_total"))
		return reject(e, line, "a gauge named *_total");
	snprintf(f->type, sizeof(f->type), "%s", p);
	f->has_type = true;
	return 0;
}

static int parse_label_value(struct expo *e, const char **pp, char *out, size_t len, size_t line)
{
	const char *p = *pp;
	size_t n = 0;

	if (*p++ != '"')
		return reject(e, line, "label value not quoted");
	for (;; p++) {
		char c = *p;

		if (!c)
			return reject(e, line, "unterminated label value");
		if (c == '"')
			break;
		if (c == '\\') {
			p++;
			c = *p == '\\' ? '\\' : *p == '"' ? '"' : *p == 'n' ? '\n' : 0;
			if (!c)
				return reject(e, line, "bad escape in label value");
		}
		if (n + 1 >= len)
			return reject(e, line, "label value too long");
		out[n++] = c;
	}
	out[n] = '\0';
	if (!utf8_ok(out))
		return reject(e, line, "label value is not UTF-8");
	*pp = p + 1;
	return 0;
}

static int cmp_label(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void series_key(struct sample *s)
{
	char pairs[MAX_LABELS][400], *sorted[MAX_LABELS];
	size_t off;

	for (size_t i = 0; i < s->n_labels; i++) {
		snprintf(pairs[i], sizeof(pairs[i]), "%s\x01%s", s->key[i], s->val[i]);
		sorted[i] = pairs[i];
	}
	qsort(sorted, s->n_labels, sizeof(sorted[0]), cmp_label);
	off = (size_t)snprintf(s->series, sizeof(s->series), "%s", s->name);
	for (size_t i = 0; i < s->n_labels && off < sizeof(s->series); i++)
		off +=
		    (size_t)snprintf(s->series + off, sizeof(s->series) - off, "\x02%s", sorted[i]);
}

static int parse_sample(struct expo *e, const char *l, size_t line)
{
	struct sample *s;
	struct family *f;
	const char *p = l;
	char value[64];
	size_t n = 0;

	if (e->n == MAX_SAMPLES)
		return reject(e, line, "too many samples");
	s = &e->s[e->n];
	memset(s, 0, sizeof(*s));
	if (!token(&p, s->name, sizeof(s->name)) || !metric_name_ok(s->name))
		return reject(e, line, "bad metric name");
	f = fam_get(e, s->name, false);
	if (!f || !f->has_type || !f->help)
		return reject(e, line, "sample without HELP and TYPE before it");
	if (strcmp(f->type, "histogram") && strcmp(f->type, "summary") && strcmp(f->name, s->name))
		return reject(e, line, "sample name is not its family's");
	if (enter(e, f, line))
		return -1;
	if (*p == '{') {
		p++;
		while (*p != '}') {
			if (s->n_labels == MAX_LABELS)
				return reject(e, line, "too many labels");
			if (!token(&p, s->key[s->n_labels], sizeof(s->key[0])) ||
			    !label_name_ok(s->key[s->n_labels]) || *p++ != '=')
				return reject(e, line, "bad label name");
			for (size_t i = 0; i < s->n_labels; i++)
				if (!strcmp(s->key[i], s->key[s->n_labels]))
					return reject(e, line, "label given twice");
			if (parse_label_value(e, &p, s->val[s->n_labels], sizeof(s->val[0]), line))
				return -1;
			s->n_labels++;
			if (*p == ',' && p[1] != '}')
				p++;
			else if (*p != '}')
				return reject(e, line, "expected ',' or '}' after a label");
		}
		p++;
	}
	if (*p++ != ' ')
		return reject(e, line, "expected one space before the value");
	while (*p && *p != ' ' && n + 1 < sizeof(value))
		value[n++] = *p++;
	value[n] = '\0';
	if (*p == ' ')
		return reject(e, line, "a timestamp (the textfile collector rejects them)");
	if (*p || !float_ok(value))
		return reject(e, line, "value is not a float");
	s->value = strtod(value, NULL);
	series_key(s);
	for (size_t i = 0; i < e->n; i++)
		if (!strcmp(e->s[i].series, s->series))
			return reject(e, line, "duplicate series");
	f->has_samples = true;
	e->n++;
	return 0;
}

/* 0 when `text` is valid exposition format; otherwise -1 and e->why. */
static int parse_expo(const char *text, struct expo *e)
{
	size_t len = strlen(text), line = 0;
	char *copy, *l, *next;
	int rc = 0;

	memset(e, 0, sizeof(*e));
	if (!len || text[len - 1] != '\n')
		return reject(e, 0, "no final newline");
	copy = strdup(text);
	assert_non_null(copy);
	for (l = copy; *l && !rc; l = next) {
		next = strchr(l, '\n');
		*next++ = '\0';
		line++;
		if (!*l)
			continue;
		rc = l[0] == '#' ? parse_meta(e, l, line) : parse_sample(e, l, line);
	}
	free(copy);
	return rc;
}

/* The value of the series with exactly these labels (key, value pairs, NULL-terminated),
 * NAN when there is none. */
static double lookup(const struct expo *e, const char *name, ...)
{
	for (size_t i = 0; i < e->n; i++) {
		const struct sample *s = &e->s[i];
		size_t n = 0;
		bool match = !strcmp(s->name, name);
		va_list ap;
		const char *k;

		va_start(ap, name);
		while (match && (k = va_arg(ap, const char *)) != NULL) {
			const char *v = va_arg(ap, const char *);

			match = n < s->n_labels && !strcmp(s->key[n], k) && !strcmp(s->val[n], v);
			n++;
		}
		va_end(ap);
		if (match && n == s->n_labels)
			return s->value;
	}
	return NAN;
}

static size_t count(const struct expo *e, const char *name)
{
	size_t n = 0;

	for (size_t i = 0; i < e->n; i++)
		n += !strcmp(e->s[i].name, name);
	return n;
}

/* ---- the parser must be able to say no ---- */

static void test_parser_rejects_invalid_exposition(void **state)
{
	static const char *const bad[] = {
	    "# HELP m x\n# TYPE m gauge\nm 1",				/* no final newline */
	    "m 1\n# HELP m x\n# TYPE m gauge\n",			/* sample before TYPE */
	    "# HELP m x\n# TYPE m gauge\n# TYPE m gauge\nm 1\n",	/* TYPE twice */
	    "# HELP m x\n# HELP m y\n# TYPE m gauge\nm 1\n",		/* HELP twice */
	    "# HELP m x\n# TYPE m gauges\nm 1\n",			/* unknown type */
	    "# HELP m x\n# TYPE m gauge\nm{a=\"1\"} 1\nm{a=\"1\"} 2\n", /* duplicate series */
	    "# HELP m x\n# TYPE m gauge\nm{a=\"1\",b=\"2\"} 1\nm{b=\"2\",a=\"1\"} 2\n",
	    "# HELP m x\n# TYPE m gauge\nm{a=\"x\"y\"} 1\n",  /* unescaped quote */
	    "# HELP m x\n# TYPE m gauge\nm{a=\"x\\ty\"} 1\n", /* unknown escape */
	    "# HELP m x\n# TYPE m gauge\nm{a=\"x\\\"} 1\n",   /* escaped closing quote */
	    "# HELP m x\n# TYPE m gauge\nm{a=\"\xff\"} 1\n",  /* not UTF-8 */
	    "# HELP m x\n# TYPE m gauge\nm{__a=\"1\"} 1\n",   /* reserved label name */
	    "# HELP m x\n# TYPE m gauge\nm{a=\"1\",a=\"2\"} 1\n",
	    "# HELP m x\n# TYPE m gauge\nm{a=\"1\",} 1\n",
	    "# HELP m x\n# TYPE m gauge\nm{a=1} 1\n",
	    "# HELP 1m x\n# TYPE 1m gauge\n1m 1\n", /* bad metric name */
	    "# HELP m x\n# TYPE m gauge\nm 1.2.3\n",
	    "# HELP m x\n# TYPE m gauge\nm abc\n",
	    "# HELP m x\n# TYPE m gauge\nm 0x10\n",
	    "# HELP m x\n# TYPE m gauge\nm  1\n",
	    "# HELP m x\n# TYPE m gauge\nm 1 1700000000000\n", /* timestamp */
	    "# HELP m x\n# TYPE m gauge\nm 1\n# HELP n x\n# TYPE n gauge\nn 1\nm 2\n", /* split */
	    "# HELP m x\n# TYPE m gauge\nm 1\n# HELP m y\n", /* HELP after samples */
	    "# HELP m a\\tb\n# TYPE m gauge\nm 1\n",	     /* bad HELP escape */
	    "# HELP m x\n# TYPE m gauge\nmm 1\n",	     /* undeclared family */
	    "# HELP m_total x\n# TYPE m_total gauge\nm_total 1\n",
	};
	struct expo *e = calloc(1, sizeof(*e));

	(void)state;
	assert_non_null(e);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (parse_expo(bad[i], e) == 0)
			fail_msg("accepted invalid input #%zu: %s", i, bad[i]);
	}
	free(e);
}

static void test_parser_accepts_valid_exposition(void **state)
{
	const char *good = "# a comment\n"
			   "# HELP m a \\\\ help\\nline\n"
			   "# TYPE m gauge\n"
			   "m{a=\"q\\\"b\\\\s\\nn\",b=\"\"} -1.5e3\n"
			   "m{a=\"x\"} NaN\n"
			   "\n"
			   "# HELP n x\n# TYPE n counter\n"
			   "n +Inf\n";
	struct expo *e = calloc(1, sizeof(*e));

	(void)state;
	assert_non_null(e);
	if (parse_expo(good, e))
		fail_msg("rejected valid input: %s", e->why);
	assert_int_equal(e->n, 3);
	assert_true(lookup(e, "m", "a", "q\"b\\s\nn", "b", "", NULL) == -1500.0);
	assert_true(isnan(e->s[1].value));
	assert_true(isinf(lookup(e, "n", NULL)));
	free(e);
}

/* ---- the fabric ---- */

enum { SPINE01, LEAF01, LEAF02, GPU001, GPU002, EVIL, N_DEV };
enum { L_GPU_LEAF01, L_LEAF_SPINE, L_GPU_LEAF02, L_GPU002, N_LINK };

#define HOSTILE_PORT	 "a\"b\\c\nd\xff"
#define HOSTILE_PORT_OUT "a\\\"b\\\\c\\nd\xef\xbf\xbd" /* as written in the output */
#define HOSTILE_PORT_VAL "a\"b\\c\nd\xef\xbf\xbd"      /* as a parser reads it back */
#define HOSTILE_HOST	 "h\"x\\y"

struct fixture {
	struct rc_device dev[N_DEV];
	struct rc_link links[N_LINK];
	struct rc_inventory inv;
	struct rc_policy pol;
	struct rc_fleet fleet;
	struct rc_fleet_dev fdev[N_DEV];
	struct rc_port_state ports[N_DEV][4];
	struct rc_change changes[N_DEV][4];
	struct rc_link_check lc[N_LINK];
	struct rc_host_check hc[2];
	struct rc_result r;
	struct expo e;
	char *out;
};

static void set_dev(struct fixture *fx, size_t i, const char *name, enum rc_dev_kind kind,
		    enum rc_role role, enum rc_platform plat)
{
	struct rc_device *d = &fx->dev[i];

	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->kind = kind;
	d->role = role;
	d->platform = plat;
	d->transport = kind == RC_DEV_HOST ? RC_TRANSPORT_LOCAL : RC_TRANSPORT_SSH;
}

static void set_link(struct fixture *fx, size_t i, size_t a, const char *pa, size_t b,
		     const char *pb)
{
	struct rc_link *l = &fx->links[i];

	memset(l, 0, sizeof(*l));
	l->a.dev = a;
	snprintf(l->a.port, sizeof(l->a.port), "%s", pa);
	l->b.dev = b;
	snprintf(l->b.port, sizeof(l->b.port), "%s", pb);
}

/* Adds the fleet device for inventory device i; `ports` NULL-terminated. */
static struct rc_fleet_dev *add_fleet_dev(struct fixture *fx, size_t i, int rc, const char **ports)
{
	struct rc_fleet_dev *d = &fx->fdev[fx->fleet.n++];
	size_t n = 0;

	memset(d, 0, sizeof(*d));
	d->index = i;
	d->rc = rc;
	d->run.dev = &fx->dev[i];
	d->run.dev_index = i;
	d->run.read_ok = true;
	while (ports && ports[n]) {
		snprintf(fx->ports[i][n].name, RC_NAME_MAX, "%s", ports[n]);
		n++;
	}
	d->run.n_ports = n;
	d->run.have = n ? fx->ports[i] : NULL;
	d->run.want = d->run.have;
	d->run.changes.v = fx->changes[i];
	return d;
}

static void add_change(struct fixture *fx, struct rc_fleet_dev *d, const char *port,
		       const char *field, enum rc_change_kind kind, const char *old_value,
		       const char *new_value)
{
	struct rc_change *c = &fx->changes[d->index][d->run.changes.n++];

	memset(c, 0, sizeof(*c));
	snprintf(c->port, sizeof(c->port), "%s", port);
	snprintf(c->field, sizeof(c->field), "%s", field);
	c->kind = kind;
	snprintf(c->old_value, sizeof(c->old_value), "%s", old_value);
	snprintf(c->new_value, sizeof(c->new_value), "%s", new_value);
	d->run.changes.cap = 4;
}

/* spine01 and leaf01 in sync but for leaf01:swp1 (two values differ, one unreadable) and
 * leaf01:swp2 (a watchdog field NVUE fixes itself); leaf02 failed after reading (its stale
 * ports and changes must not be reported); gpu001 dual-homed on leaf01 and leaf02 with a
 * drifted port whose name is hostile; gpu002 outside --limit; a host named hostilely. */
static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	struct rc_fleet_dev *d;
	const char *spine_ports[] = {"Ethernet1/1", NULL};
	const char *leaf_ports[] = {"swp1", "swp2", "swp31", NULL};
	const char *leaf02_ports[] = {"swp1", "swp9", NULL};
	const char *gpu_ports[] = {"enp12s0np0", "enp13s0np0", HOSTILE_PORT, NULL};
	const char *evil_ports[] = {"eth0", NULL};
	struct rc_mismatch *m;

	assert_non_null(fx);
	set_dev(fx, SPINE01, "spine01", RC_DEV_SWITCH, RC_ROLE_SPINE, RC_PLAT_EOS);
	set_dev(fx, LEAF01, "leaf01", RC_DEV_SWITCH, RC_ROLE_LEAF, RC_PLAT_NVUE);
	set_dev(fx, LEAF02, "leaf02", RC_DEV_SWITCH, RC_ROLE_LEAF, RC_PLAT_SONIC);
	set_dev(fx, GPU001, "gpu001", RC_DEV_HOST, RC_ROLE_HOST, RC_PLAT_HOST);
	set_dev(fx, GPU002, "gpu002", RC_DEV_HOST, RC_ROLE_HOST, RC_PLAT_HOST);
	set_dev(fx, EVIL, HOSTILE_HOST, RC_DEV_HOST, RC_ROLE_HOST, RC_PLAT_HOST);
	set_link(fx, L_GPU_LEAF01, GPU001, "enp12s0np0", LEAF01, "swp1");
	set_link(fx, L_LEAF_SPINE, LEAF01, "swp31", SPINE01, "Ethernet1/1");
	set_link(fx, L_GPU_LEAF02, GPU001, "enp13s0np0", LEAF02, "swp1");
	set_link(fx, L_GPU002, GPU002, "enp1", LEAF01, "swp2");
	fx->inv.n_devices = N_DEV;
	fx->inv.devices = fx->dev;
	fx->inv.n_links = N_LINK;
	fx->inv.links = fx->links;

	fx->fleet.inv = &fx->inv;
	fx->fleet.pol = &fx->pol;
	fx->fleet.devs = fx->fdev;
	add_fleet_dev(fx, SPINE01, 0, spine_ports);
	d = add_fleet_dev(fx, LEAF01, 0, leaf_ports);
	add_change(fx, d, "swp1", "pfc_enabled", RC_CHANGE_SET, "none", "3");
	add_change(fx, d, "swp1", "dscp2prio[26]", RC_CHANGE_SET, "0", "3");
	add_change(fx, d, "swp1", "ecn[3].kmin_bytes", RC_CHANGE_UNKNOWN, "", "150000");
	add_change(fx, d, "swp2", "watchdog.restoration_ms", RC_CHANGE_UNSUPPORTED, "", "400");
	d = add_fleet_dev(fx, LEAF02, -ETIMEDOUT, leaf02_ports);
	snprintf(d->err.msg, sizeof(d->err.msg), "cannot read 'leaf02': timed out after 10s");
	add_change(fx, d, "swp9", "trust", RC_CHANGE_SET, "pcp", "dscp");
	d = add_fleet_dev(fx, GPU001, 0, gpu_ports);
	add_change(fx, d, HOSTILE_PORT, "roce_tos", RC_CHANGE_SET, "0", "106");
	add_change(fx, d, HOSTILE_PORT, "dcbx", RC_CHANGE_UNSUPPORTED, "", "host");
	add_fleet_dev(fx, EVIL, 0, evil_ports);

	fx->lc[0] =
	    (struct rc_link_check){.link = L_GPU_LEAF01, .status = RC_CHECK_MISMATCH, .n = 1};
	m = &fx->lc[0].v[0];
	snprintf(m->field, sizeof(m->field), "pfc_enabled");
	snprintf(m->a_value, sizeof(m->a_value), "3");
	snprintf(m->b_value, sizeof(m->b_value), "none");
	fx->lc[1] = (struct rc_link_check){.link = L_LEAF_SPINE, .status = RC_CHECK_OK};
	fx->lc[2] = (struct rc_link_check){.link = L_GPU_LEAF02, .status = RC_CHECK_UNKNOWN};
	fx->hc[0] = (struct rc_host_check){.dev = GPU001, .status = RC_CHECK_UNKNOWN};
	fx->hc[1] = (struct rc_host_check){.dev = EVIL, .status = RC_CHECK_MISMATCH, .n = 1};

	fx->r.fleet = &fx->fleet;
	fx->r.inv = &fx->inv;
	fx->r.when = 1700000000;
	fx->r.n_links = 3;
	fx->r.links = fx->lc;
	fx->r.n_hosts = 2;
	fx->r.hosts = fx->hc;
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	free(fx->out);
	free(fx);
	return 0;
}

static char *render(const struct rc_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	rc_report_prometheus(f, r);
	assert_int_equal(fclose(f), 0);
	assert_non_null(buf);
	return buf;
}

/* Renders and parses the fixture; fails the test with the parser's reason. */
static struct expo *parsed(struct fixture *fx)
{
	free(fx->out);
	fx->out = render(&fx->r);
	if (parse_expo(fx->out, &fx->e))
		fail_msg("invalid exposition (%s):\n%s", fx->e.why, fx->out);
	return &fx->e;
}

static void assert_value(double got, double want, const char *what)
{
	if (isnan(got))
		fail_msg("no series %s", what);
	if (got != want)
		fail_msg("%s = %g, want %g", what, got, want);
}

static void test_output_is_valid_exposition(void **state)
{
	static const char *const families[] = {
	    "rocectl_build_info",   "rocectl_last_verify_timestamp_seconds",
	    "rocectl_devices",	    "rocectl_fabric_drift_fields",
	    "rocectl_device_up",    "rocectl_port_compliant",
	    "rocectl_drift_fields", "rocectl_port_uncontrollable_fields",
	    "rocectl_drift_field",  "rocectl_link_consistent",
	    "rocectl_link_unknown", "rocectl_host_symmetric",
	    "rocectl_host_unknown",
	};
	struct expo *e = parsed(*state);

	assert_int_equal(e->n_fam, sizeof(families) / sizeof(families[0]));
	for (size_t i = 0; i < e->n_fam; i++) {
		assert_string_equal(e->fam[i].name, families[i]);
		assert_string_equal(e->fam[i].type, "gauge");
	}
	assert_non_null(strstr(((struct fixture *)*state)->out,
			       "\nrocectl_build_info{version=\"" ROCECTL_VERSION
			       "\",command=\"verify\"} 1\n"));
}

static void test_output_is_stable(void **state)
{
	struct fixture *fx = *state;
	char *again;

	free(fx->out);
	fx->out = render(&fx->r);
	again = render(&fx->r);
	assert_string_equal(fx->out, again);
	free(again);
}

static void test_drifted_port_is_not_compliant(void **state)
{
	struct expo *e = parsed(*state);

	assert_value(lookup(e, "rocectl_port_compliant", "device", "leaf01", "port", "swp1", "role",
			    "leaf", NULL),
		     0, "compliant leaf01:swp1");
	/* two values differ and one could not be read: unreadable is drift too */
	assert_value(lookup(e, "rocectl_drift_fields", "device", "leaf01", "port", "swp1", "role",
			    "leaf", NULL),
		     3, "drift leaf01:swp1");
	assert_value(lookup(e, "rocectl_port_uncontrollable_fields", "device", "leaf01", "port",
			    "swp1", NULL),
		     0, "uncontrollable leaf01:swp1");
	assert_value(lookup(e, "rocectl_fabric_drift_fields", NULL), 4, "fabric drift");
	/* and each of those fields by name, the unreadable one included */
	assert_value(lookup(e, "rocectl_drift_field", "device", "leaf01", "port", "swp1", "role",
			    "leaf", "field", "pfc_enabled", NULL),
		     1, "drift field pfc_enabled");
	assert_value(lookup(e, "rocectl_drift_field", "device", "leaf01", "port", "swp1", "role",
			    "leaf", "field", "ecn[3].kmin_bytes", NULL),
		     1, "drift field ecn[3].kmin_bytes");
	assert_int_equal(count(e, "rocectl_drift_field"), 4);
}

static void test_uncontrollable_field_is_not_drift(void **state)
{
	struct expo *e = parsed(*state);

	assert_value(lookup(e, "rocectl_port_compliant", "device", "leaf01", "port", "swp2", "role",
			    "leaf", NULL),
		     1, "compliant leaf01:swp2");
	assert_value(lookup(e, "rocectl_drift_fields", "device", "leaf01", "port", "swp2", "role",
			    "leaf", NULL),
		     0, "drift leaf01:swp2");
	assert_value(lookup(e, "rocectl_port_uncontrollable_fields", "device", "leaf01", "port",
			    "swp2", NULL),
		     1, "uncontrollable leaf01:swp2");
	assert_value(lookup(e, "rocectl_port_compliant", "device", "spine01", "port", "Ethernet1/1",
			    "role", "spine", NULL),
		     1, "compliant spine01:Ethernet1/1");
}

static void test_failed_device_is_down_and_its_ports_absent(void **state)
{
	struct expo *e = parsed(*state);

	assert_value(lookup(e, "rocectl_device_up", "device", "leaf02", "role", "leaf", "driver",
			    "sonic-ssh", NULL),
		     0, "device_up leaf02");
	assert_value(lookup(e, "rocectl_device_up", "device", "spine01", "role", "spine", "driver",
			    "eos-ssh", NULL),
		     1, "device_up spine01");
	assert_value(lookup(e, "rocectl_device_up", "device", "gpu001", "role", "host", "driver",
			    "mlx5", NULL),
		     1, "device_up gpu001");
	assert_value(lookup(e, "rocectl_devices", "state", "ok", NULL), 4, "devices ok");
	assert_value(lookup(e, "rocectl_devices", "state", "failed", NULL), 1, "devices failed");
	/* its stale ports and changes are not reported as compliance */
	assert_true(isnan(lookup(e, "rocectl_port_compliant", "device", "leaf02", "port", "swp1",
				 "role", "leaf", NULL)));
	assert_null(strstr(((struct fixture *)*state)->out, "swp9"));
	/* 1 + 3 + 3 + 1 ports of the devices that were read */
	assert_int_equal(count(e, "rocectl_port_compliant"), 8);
	assert_int_equal(count(e, "rocectl_drift_fields"), 8);
	assert_int_equal(count(e, "rocectl_port_uncontrollable_fields"), 8);
	assert_int_equal(count(e, "rocectl_device_up"), 5);
}

static void test_unselected_device_is_absent(void **state)
{
	struct fixture *fx = *state;

	parsed(fx);
	assert_null(strstr(fx->out, "gpu002"));
}

static void test_links_and_hosts(void **state)
{
	struct expo *e = parsed(*state);

	assert_value(lookup(e, "rocectl_link_consistent", "a", "gpu001:enp12s0np0", "b",
			    "leaf01:swp1", NULL),
		     0, "consistent gpu001-leaf01");
	assert_value(
	    lookup(e, "rocectl_link_unknown", "a", "gpu001:enp12s0np0", "b", "leaf01:swp1", NULL),
	    0, "unknown gpu001-leaf01");
	assert_value(lookup(e, "rocectl_link_consistent", "a", "leaf01:swp31", "b",
			    "spine01:Ethernet1/1", NULL),
		     1, "consistent leaf01-spine01");
	assert_value(lookup(e, "rocectl_link_unknown", "a", "leaf01:swp31", "b",
			    "spine01:Ethernet1/1", NULL),
		     0, "unknown leaf01-spine01");
	assert_value(lookup(e, "rocectl_link_consistent", "a", "gpu001:enp13s0np0", "b",
			    "leaf02:swp1", NULL),
		     0, "consistent gpu001-leaf02");
	assert_value(
	    lookup(e, "rocectl_link_unknown", "a", "gpu001:enp13s0np0", "b", "leaf02:swp1", NULL),
	    1, "unknown gpu001-leaf02");
	assert_int_equal(count(e, "rocectl_link_consistent"), 3);
	assert_value(lookup(e, "rocectl_host_symmetric", "host", "gpu001", NULL), 0,
		     "symmetric gpu001");
	assert_value(lookup(e, "rocectl_host_unknown", "host", "gpu001", NULL), 1,
		     "unknown gpu001");
	assert_value(lookup(e, "rocectl_host_symmetric", "host", HOSTILE_HOST, NULL), 0,
		     "symmetric hostile host");
	assert_value(lookup(e, "rocectl_host_unknown", "host", HOSTILE_HOST, NULL), 0,
		     "unknown hostile host");
	assert_value(lookup(e, "rocectl_last_verify_timestamp_seconds", NULL), 1700000000,
		     "timestamp");
}

static void test_hostile_label_values_are_escaped(void **state)
{
	struct fixture *fx = *state;
	struct expo *e = parsed(fx);

	assert_non_null(strstr(fx->out, "port=\"" HOSTILE_PORT_OUT "\""));
	assert_non_null(strstr(fx->out, "host=\"h\\\"x\\\\y\""));
	assert_value(lookup(e, "rocectl_port_compliant", "device", "gpu001", "port",
			    HOSTILE_PORT_VAL, "role", "host", NULL),
		     0, "compliant of the hostile port");
	assert_value(lookup(e, "rocectl_drift_fields", "device", "gpu001", "port", HOSTILE_PORT_VAL,
			    "role", "host", NULL),
		     1, "drift of the hostile port");
	assert_value(lookup(e, "rocectl_port_uncontrollable_fields", "device", "gpu001", "port",
			    HOSTILE_PORT_VAL, NULL),
		     1, "uncontrollable of the hostile port");
	assert_value(lookup(e, "rocectl_device_up", "device", HOSTILE_HOST, "role", "host",
			    "driver", "mlx5", NULL),
		     1, "device_up of the hostile host");
}

/* Invalid UTF-8 in every position a sequence can break. */
static void test_invalid_utf8_is_replaced(void **state)
{
	static const char *const names[] = {
	    "\xc3",		/* truncated */
	    "\xc0\xaf",		/* overlong */
	    "\xed\xa0\x80",	/* surrogate */
	    "\xf4\x90\x80\x80", /* above U+10FFFF */
	    "ok\xe2\x82",	/* truncated at the end */
	    "\xe2\x82\xac",	/* valid: the euro sign stays */
	};
	struct fixture *fx = *state;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(fx->ports[SPINE01][0].name, RC_NAME_MAX, "%s", names[i]);
		parsed(fx);
	}
	assert_non_null(strstr(fx->out, "port=\"\xe2\x82\xac\""));
	snprintf(fx->ports[SPINE01][0].name, RC_NAME_MAX, "Ethernet1/1");
}

/* A port a device lists twice would be a duplicate series: the scrape would fail. */
static void test_repeated_port_is_reported_once(void **state)
{
	struct fixture *fx = *state;
	struct expo *e;

	snprintf(fx->ports[LEAF01][2].name, RC_NAME_MAX, "swp1");
	e = parsed(fx);
	assert_int_equal(count(e, "rocectl_port_compliant"), 7);
	assert_value(lookup(e, "rocectl_drift_fields", "device", "leaf01", "port", "swp1", "role",
			    "leaf", NULL),
		     3, "drift leaf01:swp1");
	snprintf(fx->ports[LEAF01][2].name, RC_NAME_MAX, "swp31");
}

/* Two names that differ only in invalid bytes are written the same. */
static void test_ports_equal_once_escaped_are_reported_once(void **state)
{
	struct fixture *fx = *state;
	struct expo *e;

	snprintf(fx->ports[LEAF01][1].name, RC_NAME_MAX, "swp\xfe");
	snprintf(fx->ports[LEAF01][2].name, RC_NAME_MAX, "swp\xff");
	e = parsed(fx);
	assert_int_equal(count(e, "rocectl_port_compliant"), 7);
	assert_value(lookup(e, "rocectl_port_compliant", "device", "leaf01", "port",
			    "swp\xef\xbf\xbd", "role", "leaf", NULL),
		     1, "compliant of leaf01's first mangled port");
}

/* verify --counters: one counter family per quantity (priority, queue, direction as labels,
 * base units), a failed device's left out; without counters there is no such family. */
/* The streaming verify's spool (rc_prom_spool_*) fed the fixture's devices, links and
 * hosts: in fleet order it writes exactly what rc_report_prometheus writes; in reverse
 * order (devices finish in any order) it is still valid exposition, each family one group,
 * with the same samples. */
static char *spooled_as(struct fixture *fx, bool reverse, bool two_steps)
{
	struct rc_prom_spool ps;
	struct rc_err err = {0};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(rc_prom_spool_init(&ps, &err), 0);
	for (size_t k = 0; k < fx->fleet.n; k++) {
		const struct rc_fleet_dev *d = &fx->fleet.devs[reverse ? fx->fleet.n - 1 - k : k];

		struct rc_prom_lines l;

		if (!two_steps) {
			rc_prom_spool_device(&ps, &fx->inv.devices[d->index], d);
			continue;
		}
		/* the streaming verify's way: made outside its lock, added under it */
		assert_int_equal(rc_prom_lines_make(&l, &fx->inv.devices[d->index], d), 0);
		rc_prom_spool_add(&ps, &l);
		assert_null(l.buf);
	}
	for (size_t k = 0; k < fx->r.n_links; k++)
		rc_prom_spool_link(&ps, &fx->inv, fx->r.links[k].link, fx->r.links[k].status);
	for (size_t k = 0; k < fx->r.n_hosts; k++)
		rc_prom_spool_host(&ps, &fx->inv, fx->r.hosts[k].dev, fx->r.hosts[k].status);
	assert_int_equal(rc_prom_spool_write(&ps, f, fx->r.when, &err), 0);
	rc_prom_spool_fini(&ps);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static char *spooled(struct fixture *fx, bool reverse)
{
	return spooled_as(fx, reverse, false);
}

static int line_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The text's lines, sorted, joined again. */
static char *sorted_lines(const char *text)
{
	char *copy = strdup(text), *out, **v, *save = NULL;
	size_t n = 0, len = strlen(text) + 2;

	assert_non_null(copy);
	v = calloc(len, sizeof(*v));
	out = calloc(len, 1);
	assert_non_null(v);
	assert_non_null(out);
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		v[n++] = l;
	qsort(v, n, sizeof(*v), line_cmp);
	for (size_t i = 0; i < n; i++) {
		strcat(out, v[i]);
		strcat(out, "\n");
	}
	free(v);
	free(copy);
	return out;
}

static void test_spool_equals_printer(void **state)
{
	struct fixture *fx = *state;
	struct rc_fleet_dev *gpu = NULL;
	char *want, *got, *rev, *a, *b;
	struct expo e;

	for (size_t i = 0; i < fx->fleet.n; i++)
		if (fx->fdev[i].index == GPU001)
			gpu = &fx->fdev[i];
	assert_non_null(gpu);
	assert_int_equal(rc_counters_add(&gpu->counters, "enp12s0np0", "pfc_pause_rx[3]",
					 "ethtool:rx_prio3_pause", 12, false),
			 0);
	want = render(&fx->r);
	got = spooled(fx, false);
	assert_string_equal(got, want);
	free(got);
	got = spooled_as(fx, false, true);
	assert_string_equal(got, want);
	rev = spooled(fx, true);
	if (parse_expo(rev, &e))
		fail_msg("invalid exposition (%s):\n%s", e.why, rev);
	a = sorted_lines(want);
	b = sorted_lines(rev);
	assert_string_equal(b, a);
	free(a);
	free(b);
	free(want);
	free(got);
	free(rev);
	rc_counters_fini(&gpu->counters);
}

static void test_device_counters(void **state)
{
	struct fixture *fx = *state;
	struct rc_fleet_dev *gpu = NULL, *leaf02 = NULL;
	struct expo *e;

	for (size_t i = 0; i < fx->fleet.n; i++) {
		if (fx->fdev[i].index == GPU001)
			gpu = &fx->fdev[i];
		if (fx->fdev[i].index == LEAF02)
			leaf02 = &fx->fdev[i];
	}
	assert_non_null(gpu);
	assert_non_null(leaf02);
	e = parsed(fx);
	assert_int_equal(count(e, "rocectl_pfc_pause_frames_total"), 0);
	assert_int_equal(count(e, "rocectl_discards_total"), 0);

	assert_int_equal(rc_counters_add(&gpu->counters, "enp12s0np0", "pfc_pause_rx[3]",
					 "ethtool:rx_prio3_pause", 12, false),
			 0);
	assert_int_equal(rc_counters_add(&gpu->counters, "enp12s0np0", "pfc_pause_tx[3]",
					 "ethtool:tx_prio3_pause", 4, false),
			 0);
	assert_int_equal(rc_counters_add(&gpu->counters, "enp12s0np0",
					 "pfc_pause_rx_duration_us[3]",
					 "ethtool:rx_prio3_pause_duration", 2500000, false),
			 0);
	assert_int_equal(rc_counters_add(&gpu->counters, "enp12s0np0", "rdma_rx_out_of_buffer",
					 "hw_counters:out_of_buffer", 3, true),
			 0);
	assert_int_equal(rc_counters_add(&gpu->counters, "enp12s0np0", "rdma_local_ack_timeouts",
					 "hw_counters:local_ack_timeout_err", 7, true),
			 0);
	assert_int_equal(
	    rc_counters_add(&gpu->counters, "enp12s0np0", "ecn_marked[9]", "x", 1, false), 0);
	assert_int_equal(
	    rc_counters_add(&gpu->counters, "enp12s0np0", "pfc_pause_rx", "eos:x", 5, false), 0);
	assert_int_equal(
	    rc_counters_add(&leaf02->counters, "swp1", "wred_discards[3]", "x", 9, true), 0);
	e = parsed(fx);
	assert_value(lookup(e, "rocectl_pfc_pause_frames_total", "device", "gpu001", "port",
			    "enp12s0np0", "direction", "rx", "priority", "3", "source",
			    "ethtool:rx_prio3_pause", NULL),
		     12, "pause frames received on priority 3");
	assert_value(lookup(e, "rocectl_pfc_pause_frames_total", "device", "gpu001", "port",
			    "enp12s0np0", "direction", "tx", "priority", "3", "source",
			    "ethtool:tx_prio3_pause", NULL),
		     4, "pause frames sent on priority 3");
	/* a platform that counts the whole port: no priority label */
	assert_value(lookup(e, "rocectl_pfc_pause_frames_total", "device", "gpu001", "port",
			    "enp12s0np0", "direction", "rx", "source", "eos:x", NULL),
		     5, "pause frames of the port");
	/* microseconds become the base unit, seconds */
	assert_value(lookup(e, "rocectl_pfc_pause_duration_seconds_total", "device", "gpu001",
			    "port", "enp12s0np0", "direction", "rx", "priority", "3", "source",
			    "ethtool:rx_prio3_pause_duration", NULL),
		     2.5, "pause duration in seconds");
	assert_value(lookup(e, "rocectl_discards_total", "device", "gpu001", "port", "enp12s0np0",
			    "reason", "rdma_out_of_buffer", "direction", "rx", "source",
			    "hw_counters:out_of_buffer", NULL),
		     3, "out_of_buffer is a discard");
	assert_value(lookup(e, "rocectl_rdma_events_total", "device", "gpu001", "port",
			    "enp12s0np0", "event", "local_ack_timeouts", "source",
			    "hw_counters:local_ack_timeout_err", NULL),
		     7, "an RDMA event by name");
	/* an index that is no priority is not invented into one: the catch-all keeps it */
	assert_value(lookup(e, "rocectl_device_events_total", "device", "gpu001", "port",
			    "enp12s0np0", "name", "ecn_marked[9]", "source", "x", NULL),
		     1, "unknown shape of counter");
	/* leaf02 failed to read: its counters are not believed */
	assert_int_equal(count(e, "rocectl_discards_total"), 1);
	for (size_t i = 0; i < e->n_fam; i++) {
		size_t len = strlen(e->fam[i].name);

		if (strncmp(e->fam[i].name, "rocectl_", 8) || len < 6 ||
		    strcmp(e->fam[i].name + len - 6, "_total"))
			continue;
		assert_string_equal(e->fam[i].type, "counter");
		assert_null(strstr(e->fam[i].name, "counter"));
	}
	rc_counters_fini(&gpu->counters);
	rc_counters_fini(&leaf02->counters);
}

static void test_empty_fleet(void **state)
{
	struct fixture *fx = *state;
	struct rc_fleet empty = {.inv = &fx->inv};
	struct rc_result r = {.fleet = &empty, .inv = &fx->inv, .when = 5};
	char *out = render(&r);

	if (parse_expo(out, &fx->e))
		fail_msg("invalid exposition (%s):\n%s", fx->e.why, out);
	assert_value(lookup(&fx->e, "rocectl_devices", "state", "ok", NULL), 0, "devices ok");
	assert_value(lookup(&fx->e, "rocectl_devices", "state", "failed", NULL), 0,
		     "devices failed");
	assert_value(lookup(&fx->e, "rocectl_fabric_drift_fields", NULL), 0, "fabric drift");
	assert_int_equal(count(&fx->e, "rocectl_device_up"), 0);
	free(out);
}

static const struct rc_prom_iface host_ifs[] = {
    {.port = "eth0", .drift = 3, .ok = true},
    {.port = "eth1", .drift = 0, .ok = true},
    {.port = "eth2", .drift = 7, .ok = false},
};

/* One host's metrics as the agent writes them (rc_report_prometheus_host), parsed. */
static struct expo *host_parsed(struct fixture *fx, const struct rc_device *dev, bool up)
{
	size_t len = 0;
	FILE *f;

	free(fx->out);
	fx->out = NULL;
	f = open_memstream(&fx->out, &len);
	assert_non_null(f);
	rc_report_prometheus_host(f, dev, up, 42, host_ifs, 3);
	assert_int_equal(fclose(f), 0);
	if (parse_expo(fx->out, &fx->e))
		fail_msg("invalid exposition (%s):\n%s", fx->e.why, fx->out);
	return &fx->e;
}

/* Valid exposition, the hostile host name escaped, an unreadable interface absent from the
 * port families and from the sum; a host that could not be read is down with no port. */
static void test_host_textfile(void **state)
{
	struct fixture *fx = *state;
	struct rc_device dev = {
	    .kind = RC_DEV_HOST, .role = RC_ROLE_HOST, .platform = RC_PLAT_HOST};
	struct expo *e;

	snprintf(dev.name, sizeof(dev.name), "%s", HOSTILE_HOST);
	e = host_parsed(fx, &dev, false);
	assert_value(lookup(e, "rocectl_device_up", "device", HOSTILE_HOST, "role", "host",
			    "driver", "mlx5", "scope", "agent", NULL),
		     0, "device_up of a host not read");
	assert_value(lookup(e, "rocectl_devices", "state", "failed", "scope", "agent", NULL), 1,
		     "devices failed");
	assert_value(lookup(e, "rocectl_fabric_drift_fields", "scope", "agent", NULL), 0,
		     "fabric drift");
	assert_int_equal(count(e, "rocectl_port_compliant"), 0);
	assert_int_equal(count(e, "rocectl_drift_fields"), 0);

	e = host_parsed(fx, &dev, true);
	assert_non_null(strstr(fx->out, "device=\"h\\\"x\\\\y\""));
	assert_value(lookup(e, "rocectl_device_up", "device", HOSTILE_HOST, "role", "host",
			    "driver", "mlx5", "scope", "agent", NULL),
		     1, "device_up");
	assert_value(lookup(e, "rocectl_last_verify_timestamp_seconds", "scope", "agent", NULL), 42,
		     "timestamp");
	assert_value(lookup(e, "rocectl_fabric_drift_fields", "scope", "agent", NULL), 3,
		     "fabric drift");
	assert_int_equal(count(e, "rocectl_port_compliant"), 2);
	assert_value(lookup(e, "rocectl_port_compliant", "device", HOSTILE_HOST, "port", "eth0",
			    "role", "host", "scope", "agent", NULL),
		     0, "eth0 compliant");
	assert_value(lookup(e, "rocectl_port_compliant", "device", HOSTILE_HOST, "port", "eth1",
			    "role", "host", "scope", "agent", NULL),
		     1, "eth1 compliant");
	assert_value(lookup(e, "rocectl_drift_fields", "device", HOSTILE_HOST, "port", "eth0",
			    "role", "host", "scope", "agent", NULL),
		     3, "eth0 drift");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parser_rejects_invalid_exposition),
	    cmocka_unit_test(test_parser_accepts_valid_exposition),
	    cmocka_unit_test_setup_teardown(test_output_is_valid_exposition, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_output_is_stable, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_drifted_port_is_not_compliant, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_uncontrollable_field_is_not_drift, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_failed_device_is_down_and_its_ports_absent, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_unselected_device_is_absent, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_links_and_hosts, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_hostile_label_values_are_escaped, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_invalid_utf8_is_replaced, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_repeated_port_is_reported_once, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_ports_equal_once_escaped_are_reported_once, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_device_counters, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_spool_equals_printer, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_empty_fleet, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_host_textfile, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
