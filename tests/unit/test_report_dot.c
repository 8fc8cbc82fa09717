/* SPDX-License-Identifier: Apache-2.0 */
/* Graphviz DOT of a fabric result (engine/report/report_dot.c).  Graphviz itself is the witness:
 * the output must render with `dot -Tsvg` without a warning, and `dot -Tplain` must place
 * spines above leaves above hosts.  graphviz is a build dependency (DEB_PACKAGES), so a
 * missing `dot` fails these tests instead of skipping them.  The statements are then
 * checked one by one: colours, shapes, tiers, labels and tooltips. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "rocectl/result.h"

enum { SPINE01, LEAF01, LEAF02, GPU001, EVIL, GPU002, GPU003, N_DEV };
enum { L_GPU_LEAF01, L_LEAF_SPINE, L_GPU_LEAF02, L_LEAF_SPINE2, L_EVIL, L_GPU002, N_LINK };

#define HOSTILE_HOST	"h\"x\\y\\"	      /* a quote, a backslash, a trailing backslash */
#define HOSTILE_HOST_ID "\"h\\\"x\\\\y\\\\\"" /* as a quoted DOT ID */
#define MAX_CHANGES	32

struct fixture {
	struct rc_device dev[N_DEV];
	struct rc_link links[N_LINK];
	struct rc_inventory inv;
	struct rc_policy pol;
	struct rc_fleet fleet;
	struct rc_fleet_dev fdev[N_DEV];
	struct rc_port_state ports[N_DEV][4];
	struct rc_change changes[N_DEV][MAX_CHANGES];
	struct rc_link_check lc[N_LINK];
	struct rc_host_check hc[1];
	struct rc_result r;
	char *out;
	char dir[64];
};

static void set_dev(struct fixture *fx, size_t i, const char *name, enum rc_dev_kind kind,
		    enum rc_role role)
{
	struct rc_device *d = &fx->dev[i];

	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->kind = kind;
	d->role = role;
	d->platform = kind == RC_DEV_HOST ? RC_PLAT_HOST : RC_PLAT_NVUE;
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

static struct rc_fleet_dev *add_fleet_dev(struct fixture *fx, size_t i, int rc, const char **ports)
{
	struct rc_fleet_dev *d = &fx->fdev[fx->fleet.n++];
	size_t n = 0;

	memset(d, 0, sizeof(*d));
	d->index = i;
	d->rc = rc;
	d->run.dev = &fx->dev[i];
	d->run.dev_index = i;
	d->run.read_ok = rc == 0;
	while (ports && ports[n]) {
		snprintf(fx->ports[i][n].name, RC_NAME_MAX, "%s", ports[n]);
		n++;
	}
	d->run.n_ports = n;
	d->run.have = n ? fx->ports[i] : NULL;
	d->run.want = d->run.have;
	d->run.changes.v = fx->changes[i];
	d->run.changes.cap = MAX_CHANGES;
	return d;
}

static void add_change(struct fixture *fx, struct rc_fleet_dev *d, const char *port,
		       const char *field, enum rc_change_kind kind, const char *old_value,
		       const char *new_value)
{
	struct rc_change *c = &fx->changes[d->index][d->run.changes.n++];

	assert_true(d->run.changes.n <= MAX_CHANGES);
	memset(c, 0, sizeof(*c));
	snprintf(c->port, sizeof(c->port), "%s", port);
	snprintf(c->field, sizeof(c->field), "%s", field);
	c->kind = kind;
	snprintf(c->old_value, sizeof(c->old_value), "%s", old_value);
	snprintf(c->new_value, sizeof(c->new_value), "%s", new_value);
}

static void mismatch(struct rc_mismatch *m, const char *field, const char *a, const char *b,
		     const char *aw, const char *bw)
{
	snprintf(m->field, sizeof(m->field), "%s", field);
	snprintf(m->a_value, sizeof(m->a_value), "%s", a);
	snprintf(m->b_value, sizeof(m->b_value), "%s", b);
	snprintf(m->a_where, sizeof(m->a_where), "%s", aw);
	snprintf(m->b_where, sizeof(m->b_where), "%s", bw);
}

/* spine01 -- leaf01 disagree on PFC (a link mismatch, neither port drifted); leaf01:swp1
 * drifted (so its cable to gpu001 is red although the two ends agree); leaf01:swp2 has only
 * a field NVUE cannot control (its cable stays green); leaf02 failed (its cable to gpu001
 * is unknown); a host with a hostile name; gpu002 outside --limit; gpu003 not cabled yet
 * (only its tier puts it at the bottom).  Links are written host
 * first, as inventories usually do, to check that edges are drawn from the top down. */
static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	struct rc_fleet_dev *d;
	const char *spine_ports[] = {"Ethernet1/1", "Ethernet1/2", NULL};
	const char *leaf_ports[] = {"swp1", "swp2", "swp3", "swp31", NULL};
	const char *gpu_ports[] = {"enp12s0np0", "enp13s0np0", NULL};
	const char *evil_ports[] = {"eth0", NULL};

	assert_non_null(fx);
	set_dev(fx, SPINE01, "spine01", RC_DEV_SWITCH, RC_ROLE_SPINE);
	set_dev(fx, LEAF01, "leaf01", RC_DEV_SWITCH, RC_ROLE_LEAF);
	set_dev(fx, LEAF02, "leaf02", RC_DEV_SWITCH, RC_ROLE_LEAF);
	set_dev(fx, GPU001, "gpu001", RC_DEV_HOST, RC_ROLE_HOST);
	set_dev(fx, EVIL, HOSTILE_HOST, RC_DEV_HOST, RC_ROLE_HOST);
	set_dev(fx, GPU002, "gpu002", RC_DEV_HOST, RC_ROLE_HOST);
	set_dev(fx, GPU003, "gpu003", RC_DEV_HOST, RC_ROLE_HOST);
	set_link(fx, L_GPU_LEAF01, GPU001, "enp12s0np0", LEAF01, "swp1");
	set_link(fx, L_LEAF_SPINE, LEAF01, "swp31", SPINE01, "Ethernet1/1");
	set_link(fx, L_GPU_LEAF02, GPU001, "enp13s0np0", LEAF02, "swp1");
	set_link(fx, L_LEAF_SPINE2, LEAF01, "swp2", SPINE01, "Ethernet1/2");
	set_link(fx, L_EVIL, EVIL, "eth0", LEAF01, "swp3");
	set_link(fx, L_GPU002, GPU002, "enp1", LEAF01, "swp4");
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
	d = add_fleet_dev(fx, LEAF02, -ETIMEDOUT, NULL);
	snprintf(d->err.msg, sizeof(d->err.msg), "cannot read 'leaf02': timed out after 10s");
	add_fleet_dev(fx, GPU001, 0, gpu_ports);
	add_fleet_dev(fx, EVIL, 0, evil_ports);
	add_fleet_dev(fx, GPU003, 0, gpu_ports);

	fx->lc[0] = (struct rc_link_check){.link = L_GPU_LEAF01, .status = RC_CHECK_OK};
	fx->lc[1] =
	    (struct rc_link_check){.link = L_LEAF_SPINE, .status = RC_CHECK_MISMATCH, .n = 1};
	mismatch(&fx->lc[1].v[0], "pfc_enabled", "3", "none", "leaf01:swp31",
		 "spine01:Ethernet1/1");
	fx->lc[2] = (struct rc_link_check){.link = L_GPU_LEAF02, .status = RC_CHECK_UNKNOWN};
	fx->lc[3] = (struct rc_link_check){.link = L_LEAF_SPINE2, .status = RC_CHECK_OK};
	fx->lc[4] = (struct rc_link_check){.link = L_EVIL, .status = RC_CHECK_OK};
	fx->hc[0] = (struct rc_host_check){.dev = GPU001, .status = RC_CHECK_UNKNOWN};

	fx->r.fleet = &fx->fleet;
	fx->r.inv = &fx->inv;
	fx->r.when = 1700000000;
	fx->r.n_links = 5;
	fx->r.links = fx->lc;
	fx->r.n_hosts = 1;
	fx->r.hosts = fx->hc;
	snprintf(fx->dir, sizeof(fx->dir), "/tmp/rocectl-dot-XXXXXX");
	assert_non_null(mkdtemp(fx->dir));
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	static const char *const files[] = {"fabric.dot", "fabric.svg", "fabric.plain", "stderr"};
	struct fixture *fx = *state;
	char path[128];

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", fx->dir, files[i]);
		unlink(path);
	}
	assert_int_equal(rmdir(fx->dir), 0);
	free(fx->out);
	free(fx);
	return 0;
}

static const char *render(struct fixture *fx)
{
	size_t len = 0;
	FILE *f;

	free(fx->out);
	fx->out = NULL;
	f = open_memstream(&fx->out, &len);
	assert_non_null(f);
	rc_report_dot(f, &fx->r);
	assert_int_equal(fclose(f), 0);
	assert_non_null(fx->out);
	return fx->out;
}

/* ---- graphviz ---- */

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long len;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	assert_true(len >= 0);
	rewind(f);
	buf = calloc(1, (size_t)len + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	return buf;
}

static void require_dot(void)
{
	if (system("command -v dot >/dev/null 2>&1") != 0)
		fail_msg("'dot' not found: install graphviz (it is in DEB_PACKAGES)");
}

/* Runs `dot -T<format>` on the fixture's output; fails on a non-zero exit or any message on
 * stderr (graphviz warns and carries on for bad UTF-8 and unknown attributes).  Returns
 * what dot wrote, to be freed. */
static char *run_dot(struct fixture *fx, const char *format)
{
	char in[128], out[128], errs[128], cmd[512], *msg;
	int st;

	require_dot();
	snprintf(in, sizeof(in), "%s/fabric.dot", fx->dir);
	snprintf(out, sizeof(out), "%s/fabric.%s", fx->dir, format);
	snprintf(errs, sizeof(errs), "%s/stderr", fx->dir);
	write_file(in, render(fx));
	snprintf(cmd, sizeof(cmd), "dot -T%s -o '%s' '%s' 2>'%s'", format, out, in, errs);
	st = system(cmd);
	msg = read_file(errs);
	if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0 || msg[0])
		fail_msg("dot -T%s failed (status %d): %s\n%s", format, st, msg, fx->out);
	free(msg);
	return read_file(out);
}

/* y of a node in `dot -Tplain` output ("node NAME X Y ..."), NAME as dot quotes it. */
static double plain_y(const char *plain, const char *name)
{
	size_t n = strlen(name);

	for (const char *l = plain; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		double x, y;

		if (strncmp(l, "node ", 5) || strncmp(l + 5, name, n) || l[5 + n] != ' ')
			continue;
		assert_int_equal(sscanf(l + 5 + n, " %lf %lf", &x, &y), 2);
		return y;
	}
	fail_msg("node %s not in dot -Tplain output:\n%s", name, plain);
	return 0;
}

/* ---- the statements of the output ---- */

/* A copy of the statement line that starts (after tabs) with `prefix`, to be freed. */
static char *stmt(const char *dot, const char *prefix)
{
	const char *hit = NULL;

	for (const char *l = dot; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *s = l + strspn(l, "\t");

		if (strncmp(s, prefix, strlen(prefix)))
			continue;
		if (hit)
			fail_msg("two statements start with %s", prefix);
		hit = s;
	}
	if (!hit)
		fail_msg("no statement starts with %s in:\n%s", prefix, dot);
	return strndup(hit, strcspn(hit, "\n"));
}

/* The value of attribute `key` in a statement's [...] list as graphviz's lexer reads it;
 * NULL if absent. */
static char *attr(const char *st, const char *key)
{
	const char *p = strchr(st, '[');
	size_t klen = strlen(key);

	assert_non_null(p);
	for (p++; *p && *p != ']';) {
		bool match;
		char *v, *o;

		p += strspn(p, " ,");
		match = !strncmp(p, key, klen) && p[klen] == '=';
		p = strchr(p, '=');
		assert_non_null(p);
		p++;
		v = o = calloc(1, strlen(p) + 1);
		assert_non_null(v);
		if (*p == '"') {
			for (p++; *p && *p != '"'; p++) {
				/* the lexer turns \" into a quote and keeps any other
				 * backslash pair as it is (escString reads those later) */
				if (*p == '\\' && p[1] == '"')
					p++;
				else if (*p == '\\' && p[1])
					*o++ = *p++;
				*o++ = *p;
			}
			assert_int_equal(*p, '"');
			p++;
		} else {
			while (*p && *p != ',' && *p != ']')
				*o++ = *p++;
		}
		if (match)
			return v;
		free(v);
	}
	return NULL;
}

static void assert_attr(const char *st, const char *key, const char *want)
{
	char *v = attr(st, key);

	if (!want && v)
		fail_msg("%s=%s, want none in %s", key, v, st);
	if (want && (!v || strcmp(v, want)))
		fail_msg("%s=%s, want %s in %s", key, v ? v : "(none)", want, st);
	free(v);
}

static void assert_attr_contains(const char *st, const char *key, const char *part)
{
	char *v = attr(st, key);

	if (!v || !strstr(v, part))
		fail_msg("%s=%s does not contain '%s'", key, v ? v : "(none)", part);
	free(v);
}

/* The subgraph a node statement is in, "" when at top level. */
static const char *tier_of(const char *dot, const char *id)
{
	static char tier[32];
	size_t n = strlen(id);

	tier[0] = '\0';
	for (const char *l = dot; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *s = l + strspn(l, "\t");

		if (!strncmp(s, "subgraph ", 9))
			sscanf(s + 9, "%31[a-z_]", tier);
		else if (*s == '}')
			tier[0] = '\0';
		else if (!strncmp(s, id, n) && !strncmp(s + n, " [", 2))
			return tier;
	}
	fail_msg("no node statement for %s", id);
	return NULL;
}

/* ---- tests ---- */

static void test_renders_without_warnings(void **state)
{
	struct fixture *fx = *state;
	char *svg = run_dot(fx, "svg");

	assert_non_null(strstr(svg, "<svg"));
	/* labels are the names as they are: escString did not eat the backslashes */
	assert_non_null(strstr(svg, ">h&quot;x\\y\\</text>"));
	assert_non_null(strstr(svg, ">Ethernet1/1 &#45;&#45; swp31</text>"));
	free(svg);
}

static void test_tiers_are_ranked_top_down(void **state)
{
	struct fixture *fx = *state;
	char *plain = run_dot(fx, "plain");
	double spine = plain_y(plain, "spine01"), leaf01 = plain_y(plain, "leaf01"),
	       leaf02 = plain_y(plain, "leaf02"), gpu = plain_y(plain, "gpu001"),
	       evil = plain_y(plain, HOSTILE_HOST_ID), uncabled = plain_y(plain, "gpu003");

	/* -Tplain has y growing upwards */
	assert_true(spine > leaf01);
	assert_true(leaf01 == leaf02);
	assert_true(leaf01 > gpu);
	assert_true(gpu == evil);
	assert_true(gpu == uncabled);
	free(plain);
	assert_string_equal(tier_of(fx->out, "\"spine01\""), "spines");
	assert_string_equal(tier_of(fx->out, "\"leaf01\""), "leaves");
	assert_string_equal(tier_of(fx->out, "\"leaf02\""), "leaves");
	assert_string_equal(tier_of(fx->out, "\"gpu001\""), "hosts_row_");
	/* in the cluster of the leaf of their first link */
	assert_true(strstr(fx->out, "subgraph \"cluster_hosts_leaf01\"") <
		    strstr(fx->out, "\t\t\"gpu001\" ["));
	assert_string_equal(tier_of(fx->out, HOSTILE_HOST_ID), "hosts_row_");
}

static void test_graph_structure(void **state)
{
	struct fixture *fx = *state;
	const char *dot = render(fx);
	size_t n_edges = 0;

	assert_int_equal(strncmp(dot, "graph fabric {\n", 15), 0);
	assert_string_equal(dot + strlen(dot) - 2, "}\n");
	for (const char *p = dot; (p = strstr(p, " -- \"")) != NULL; p++)
		n_edges += strncmp(strchr(p, '['), "[style=\"invis\"]", 15) != 0;
	/* four links one by one, the quiet host link (HOSTILE_HOST's) in leaf01's summary edge;
	 * the uncabled host hangs below the first leaf by an invisible edge */
	assert_int_equal(n_edges, 5);
	assert_non_null(strstr(dot, "\n\t\"leaf01\" -- \"gpu003\" [style=\"invis\"];\n"));
	/* outside --limit: neither node nor edge */
	assert_null(strstr(dot, "gpu002"));
}

static void test_switches_are_boxes_hosts_ellipses(void **state)
{
	struct fixture *fx = *state;
	const char *dot = render(fx);
	char *s;

	s = stmt(dot, "\"spine01\" [");
	assert_attr(s, "shape", "box");
	free(s);
	s = stmt(dot, "\"leaf02\" [");
	assert_attr(s, "shape", "box");
	free(s);
	s = stmt(dot, "\"gpu001\" [");
	assert_attr(s, "shape", "ellipse");
	free(s);
	s = stmt(dot, HOSTILE_HOST_ID " [");
	assert_attr(s, "shape", "ellipse");
	assert_attr(s, "label", "h\"x\\\\y\\\\"); /* escString: a doubled backslash is one */
	free(s);
}

static void test_mismatched_link_is_red(void **state)
{
	struct fixture *fx = *state;
	char *s = stmt(render(fx), "\"spine01\" -- \"leaf01\" [label=\"Ethernet1/1 -- swp31\"");

	assert_attr(s, "color", "red");
	assert_attr(s, "penwidth", "2");
	assert_attr_contains(s, "tooltip", "leaf01:swp31 -- spine01:Ethernet1/1");
	assert_attr_contains(s, "tooltip",
			     "pfc_enabled: 3 (leaf01:swp31) vs none (spine01:Ethernet1/1)");
	free(s);
	/* the nodes themselves are in sync */
	s = stmt(fx->out, "\"spine01\" [");
	assert_attr(s, "color", "darkgreen");
	assert_attr(s, "penwidth", NULL);
	free(s);
}

static void test_link_with_drifted_end_is_red(void **state)
{
	struct fixture *fx = *state;
	char *s = stmt(render(fx), "\"leaf01\" -- \"gpu001\" [label=\"swp1 -- enp12s0np0\"");

	assert_attr(s, "color", "red");
	assert_attr(s, "penwidth", "2");
	assert_attr_contains(s, "tooltip", "gpu001:enp12s0np0 -- leaf01:swp1");
	assert_attr_contains(s, "tooltip", "leaf01:swp1 has 3 drifted fields");
	free(s);
}

static void test_unknown_link_is_orange(void **state)
{
	struct fixture *fx = *state;
	char *s = stmt(render(fx), "\"leaf02\" -- \"gpu001\" [label=\"swp1 -- enp13s0np0\"");

	assert_attr(s, "color", "orange");
	assert_attr(s, "penwidth", NULL);
	assert_attr_contains(s, "tooltip", "could not be read");
	free(s);
}

static void test_uncontrollable_field_leaves_link_green(void **state)
{
	struct fixture *fx = *state;
	char *s = stmt(render(fx), "\"spine01\" -- \"leaf01\" [label=\"Ethernet1/2 -- swp2\"");

	assert_attr(s, "color", "darkgreen");
	assert_attr(s, "penwidth", NULL);
	free(s);
	/* a host link whose ends agree is counted in its cluster's summary edge */
	s = stmt(fx->out,
		 "\"leaf01\" -- \"gpu001\" [lhead=\"cluster_hosts_leaf01\", label=\"1 link\"");
	assert_attr(s, "color", "darkgreen");
	assert_attr_contains(s, "tooltip", "1 link, both ends agree");
	free(s);
}

static void test_drifted_and_failed_devices_are_red(void **state)
{
	struct fixture *fx = *state;
	const char *dot = render(fx);
	char *s;

	s = stmt(dot, "\"leaf01\" [");
	assert_attr(s, "color", "red");
	assert_attr(s, "penwidth", "2");
	assert_attr(s, "style", NULL);
	assert_attr_contains(s, "tooltip", "leaf01: 3 drifted fields");
	assert_attr_contains(s, "tooltip", "\\nswp1 pfc_enabled: have none, want 3");
	assert_attr_contains(s, "tooltip", "\\nswp1 ecn[3].kmin_bytes: unreadable, want 150000");
	free(s);
	s = stmt(dot, "\"leaf02\" [");
	assert_attr(s, "color", "red");
	assert_attr(s, "style", "dashed");
	assert_attr_contains(s, "tooltip", "cannot read 'leaf02': timed out after 10s");
	free(s);
	/* dual-homed on a switch that could not be read */
	s = stmt(dot, "\"gpu001\" [");
	assert_attr(s, "color", "orange");
	free(s);
	s = stmt(dot, HOSTILE_HOST_ID " [");
	assert_attr(s, "color", "darkgreen");
	free(s);
}

static void test_asymmetric_host_is_red(void **state)
{
	struct fixture *fx = *state;
	char *s;

	fx->hc[0].status = RC_CHECK_MISMATCH;
	fx->hc[0].n = 1;
	mismatch(&fx->hc[0].v[0], "ecn.kmin_bytes", "150000", "1000000", "leaf01:swp1",
		 "leaf02:swp1");
	s = stmt(render(fx), "\"gpu001\" [");
	assert_attr(s, "color", "red");
	assert_attr_contains(s, "tooltip",
			     "ecn.kmin_bytes: 150000 (leaf01:swp1) vs 1000000 (leaf02:swp1)");
	free(s);
}

static void test_long_tooltips_are_cut(void **state)
{
	struct fixture *fx = *state;
	struct rc_fleet_dev *d = &fx->fdev[1];
	char field[48], *s, *tip;
	size_t lines = 0;

	assert_int_equal(d->index, LEAF01);
	for (int i = 0; i < 25; i++) {
		snprintf(field, sizeof(field), "dscp2prio[%d]", i);
		add_change(fx, d, "swp3", field, RC_CHANGE_SET, "0", "1");
	}
	free(run_dot(fx, "svg"));
	s = stmt(fx->out, "\"leaf01\" [");
	tip = attr(s, "tooltip");
	assert_non_null(tip);
	for (const char *p = tip; (p = strstr(p, "\\n")) != NULL; p++)
		lines++;
	assert_int_equal(lines, 21); /* 20 fields and the count of the rest */
	assert_non_null(strstr(tip, "leaf01: 28 drifted fields"));
	assert_non_null(strstr(tip, "\\n... and 8 more"));
	free(tip);
	free(s);
}

static void test_hostile_port_names(void **state)
{
	struct fixture *fx = *state;
	char *svg, *s;

	/* a port name from a device: quote, backslash, newline, control and invalid bytes */
	snprintf(fx->ports[LEAF01][0].name, RC_NAME_MAX, "p\"q\\r\ns\x01t\xff");
	snprintf(fx->changes[LEAF01][0].port, RC_NAME_MAX, "p\"q\\r\ns\x01t\xff");
	snprintf(fx->links[L_GPU_LEAF01].b.port, RC_NAME_MAX, "p\"q\\r\ns\x01t\xff");
	svg = run_dot(fx, "svg");
	free(svg);
	s = stmt(fx->out,
		 "\"leaf01\" -- \"gpu001\" [label=\"p\\\"q\\\\r\\ns\xef\xbf\xbdt\xef\xbf\xbd "
		 "-- enp12s0np0\"");
	assert_attr(s, "color", "red");
	free(s);
}

static void test_empty_fleet(void **state)
{
	struct fixture *fx = *state;
	struct rc_fleet empty = {.inv = &fx->inv};
	char *svg;

	fx->r.fleet = &empty;
	fx->r.n_links = 0;
	fx->r.n_hosts = 0;
	svg = run_dot(fx, "svg");
	assert_null(strstr(fx->out, "subgraph"));
	free(svg);
	fx->r.fleet = &fx->fleet;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_renders_without_warnings, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_tiers_are_ranked_top_down, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_graph_structure, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_switches_are_boxes_hosts_ellipses, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_mismatched_link_is_red, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_link_with_drifted_end_is_red, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_unknown_link_is_orange, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_uncontrollable_field_leaves_link_green, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_drifted_and_failed_devices_are_red, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_asymmetric_host_is_red, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_long_tooltips_are_cut, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_hostile_port_names, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_empty_fleet, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
