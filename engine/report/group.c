/* SPDX-License-Identifier: Apache-2.0 */
/* The grouped text of plan and verify (include/rocectl/group.h).
 *
 * A kind is a class and the text of one line ("pfc_enabled want 3, have none") with its note;
 * kinds are found by a linear search of a table of RC_GROUP_KINDS, which costs a few hundred
 * comparisons a port at worst and keeps the memory of a 4,000-device verify what it is for
 * four.  What is printed is bounded too: each class has a budget of lines, and what does not
 * fit is one "and more" line, so that a fleet of any size, in sync or not, fits a screen. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/group.h"

/* The order classes print in, and the lines each is sure of when a group has more to say
 * than g->max_lines (a kind with a note takes two): the lines left go to the classes in
 * this order. */
static const enum rc_group_class order[] = {
    RC_GROUP_DRIFT, RC_GROUP_ERROR, RC_GROUP_LINK,
    RC_GROUP_HOST,  RC_GROUP_INFO,  RC_GROUP_UNVERIFIED,
};
static const size_t floor_lines[RC_GROUP_NCLASS] = {
    [RC_GROUP_DRIFT] = 24,     [RC_GROUP_ERROR] = 6, [RC_GROUP_INFO] = 10,
    [RC_GROUP_UNVERIFIED] = 4, [RC_GROUP_LINK] = 8,  [RC_GROUP_HOST] = 6,
};

/* How far the name lists of a line may run before they end in "...". */
#define DEVICES_LEN 120
#define PORTS_LEN   48

void rc_group_init(struct rc_group *g, struct rc_out *o, enum rc_report_mode mode)
{
	memset(g, 0, sizeof(*g));
	g->o = o;
	g->mode = mode;
	g->max_lines = RC_GROUP_LINES;
	if (rc_out_json(o) || o->details)
		return;
	g->v = calloc(RC_GROUP_KINDS, sizeof(*g->v));
	g->grouped = g->v != NULL; /* out of memory: printed per device, as with --details */
}

int rc_group_in_order(struct rc_group *g, const struct rc_device *devices, size_t n)
{
	if (!g->grouped)
		return 0;
	g->clean_in = calloc((n + 63) / 64 + 1, sizeof(uint64_t));
	if (!g->clean_in)
		return -ENOMEM;
	g->base = devices;
	g->n_base = n;
	return 0;
}

/* Device `dev` into bitmap *bits (made on first use): false when it is not kept that way
 * (no order asked, not an inventory device, out of memory): its name is added now. */
static bool mark(struct rc_group *g, uint64_t **bits, const struct rc_device *dev)
{
	size_t i;

	if (!g->base || dev < g->base || dev >= g->base + g->n_base)
		return false;
	if (!*bits && !(*bits = calloc((g->n_base + 63) / 64 + 1, sizeof(uint64_t))))
		return false;
	i = (size_t)(dev - g->base);
	(*bits)[i / 64] |= (uint64_t)1 << (i % 64);
	return true;
}

/* The marked devices' names into `set`, in inventory order. */
static void unfold(const struct rc_group *g, const uint64_t *bits, struct rc_nameset *set)
{
	for (size_t i = 0; bits && i < g->n_base; i++)
		if (bits[i / 64] & ((uint64_t)1 << (i % 64)))
			rc_nameset_add(set, g->base[i].name);
}

void rc_group_fini(struct rc_group *g)
{
	for (size_t i = 0; g->v && i < g->n; i++)
		free(g->v[i].in);
	free(g->clean_in);
	g->clean_in = NULL;
	free(g->v);
	g->v = NULL;
	g->n = 0;
}

static struct rc_group_kind *find(struct rc_group *g, enum rc_group_class cls, const char *what,
				  const char *note)
{
	struct rc_group_kind *k;

	for (size_t i = g->n; i-- > 0;) { /* a device's next port repeats its last kinds */
		k = &g->v[i];
		if (k->cls == cls && !strcmp(k->what, what) && !strcmp(k->note, note))
			return k;
	}
	if (g->n == RC_GROUP_KINDS)
		return NULL;
	k = &g->v[g->n++];
	memset(k, 0, sizeof(*k));
	k->cls = cls;
	snprintf(k->what, sizeof(k->what), "%s", what);
	snprintf(k->note, sizeof(k->note), "%s", note);
	k->last_seq = (size_t)-1;
	return k;
}

/* In order (rc_group_in_order): the kinds are printed in the order devices taken in
 * inventory order would have made them: by the first device that has the kind, then by
 * when that device added it (a device's findings are added together). */
static void keep_first(struct rc_group *g, struct rc_group_kind *k, const struct rc_device *dev)
{
	size_t i;

	if (!g->base || dev < g->base || dev >= g->base + g->n_base)
		return;
	i = (size_t)(dev - g->base);
	g->adds++;
	if (k->items && k->first_dev <= i)
		return;
	k->first_dev = i;
	k->first_add = g->adds;
}

static int first_cmp(const void *x, const void *y)
{
	const struct rc_group_kind *a = x, *b = y;

	if (a->first_dev != b->first_dev)
		return a->first_dev < b->first_dev ? -1 : 1;
	return a->first_add < b->first_add ? -1 : a->first_add > b->first_add;
}

void rc_group_add(struct rc_group *g, enum rc_group_class cls, const char *what, const char *note,
		  const struct rc_device *dev, const char *port)
{
	struct rc_group_kind *k;

	if (!g->grouped)
		return;
	k = find(g, cls, what, note ? note : "");
	if (!k) {
		g->more_items[cls]++;
		if (g->more_seq[cls] != g->seq + 1) {
			g->more_seq[cls] = g->seq + 1;
			g->more_devices[cls]++;
		}
		return;
	}
	keep_first(g, k, dev);
	k->items++;
	if (k->last_seq != g->seq) {
		k->last_seq = g->seq;
		k->devices++;
	}
	if (!mark(g, &k->in, dev))
		rc_nameset_add(&k->dev, dev->name);
	k->hosts |= dev->kind == RC_DEV_HOST;
	k->switches |= dev->kind != RC_DEV_HOST;
	if (port)
		rc_nameset_add(&k->port, port);
}

/* The line of a change, as rc_report_device words it. */
static void change_what(enum rc_report_mode mode, const struct rc_change *c, char *buf, size_t len)
{
	const char *tail = c->disruptive && mode == RC_REPORT_PLAN ? " (disruptive)" : "";

	if (c->kind == RC_CHANGE_UNSUPPORTED && c->warning)
		snprintf(buf, len, "%s%s", c->field,
			 strstr(c->field, ".warning") ? "" : " warning"); /* not twice */
	else if (c->kind == RC_CHANGE_UNSUPPORTED)
		snprintf(buf, len, "%s %s", c->field,
			 rc_change_note(c)[0] ? "not effective here" : "not controllable here");
	else if (mode == RC_REPORT_PLAN)
		snprintf(buf, len, "%s %s -> %s%s", c->field,
			 c->kind == RC_CHANGE_UNKNOWN ? "unknown" : c->old_value, c->new_value,
			 tail);
	else
		snprintf(buf, len, "%s want %s, have %s", c->field, c->new_value,
			 c->kind == RC_CHANGE_UNKNOWN ? "unknown (unreadable)" : c->old_value);
}

static void add_unverified(struct rc_group *g, const struct rc_device *dev, uint32_t u)
{
	char what[RC_GROUP_WHAT_LEN];
	const char *sep = " ";
	size_t o;

	if (!u)
		return;
	o = (size_t)snprintf(what, sizeof(what), "unverified reading on this platform:");
	for (uint32_t bit = 1; bit && bit <= RC_F_ALL && o < sizeof(what); bit <<= 1) {
		if (!(u & bit))
			continue;
		o += (size_t)snprintf(what + o, sizeof(what) - o, "%s%s", sep, rc_field_name(bit));
		sep = ", ";
	}
	rc_group_add(g, RC_GROUP_UNVERIFIED, what, NULL, dev, NULL);
}

/* "'leaf01': connect: refused" and "leaf01: ..." are one kind for every device. */
static const char *error_what(const char *device, const char *msg)
{
	size_t n = strlen(device);

	if (msg[0] == '\'' && !strncmp(msg + 1, device, n) && !strncmp(msg + 1 + n, "': ", 3))
		return msg + n + 4;
	if (!strncmp(msg, device, n) && !strncmp(msg + n, ": ", 2))
		return msg + n + 2;
	return msg;
}

/* A port's fields that cannot be controlled here, as one finding: a platform has the same
 * list on every port, so that it is one line for the fleet, not one per field. */
struct fixed {
	const char *port;
	char what[RC_GROUP_WHAT_LEN];
	size_t len;
};

static void fixed_flush(struct rc_group *g, const struct rc_device *dev, struct fixed *x)
{
	if (x->port)
		rc_group_add(g, RC_GROUP_INFO, x->what, NULL, dev, x->port);
	x->port = NULL;
}

static void fixed_add(struct rc_group *g, const struct rc_device *dev, struct fixed *x,
		      const struct rc_change *c)
{
	if (x->port && strcmp(x->port, c->port))
		fixed_flush(g, dev, x);
	if (!x->port)
		x->len = (size_t)snprintf(x->what, sizeof(x->what), "not controllable here:");
	x->port = c->port;
	if (x->len < sizeof(x->what))
		x->len += (size_t)snprintf(x->what + x->len, sizeof(x->what) - x->len, "%s%s",
					   x->what[x->len - 1] == ':' ? " " : ", ", c->field);
}

void rc_group_device(struct rc_group *g, const struct rc_device *dev, const char *driver,
		     const struct rc_changes *changes, const char *err_msg,
		     const struct rc_report_times *t)
{
	struct fixed x = {0};
	char what[RC_GROUP_WHAT_LEN];
	bool clean = true;

	if (!g->grouped) {
		rc_report_device_timed(g->o, g->mode, dev->name, driver, changes, err_msg, t);
		return;
	}
	g->seq++;
	if (err_msg) {
		rc_group_add(g, RC_GROUP_ERROR, error_what(dev->name, err_msg), NULL, dev, NULL);
		return;
	}
	for (size_t i = 0; changes && i < changes->n; i++) {
		const struct rc_change *c = &changes->v[i];
		bool info = c->kind == RC_CHANGE_UNSUPPORTED;

		if (info && !rc_change_note(c)[0] && !c->warning) {
			fixed_add(g, dev, &x, c);
			continue;
		}
		change_what(g->mode, c, what, sizeof(what));
		rc_group_add(g, info ? RC_GROUP_INFO : RC_GROUP_DRIFT, what, rc_change_note(c), dev,
			     c->port);
		clean &= info;
	}
	fixed_flush(g, dev, &x);
	add_unverified(g, dev, changes ? changes->unverified : 0);
	if (!clean)
		return;
	g->clean++;
	g->clean_hosts |= dev->kind == RC_DEV_HOST;
	g->clean_switches |= dev->kind != RC_DEV_HOST;
	if (!mark(g, &g->clean_in, dev))
		rc_nameset_add(&g->clean_set, dev->name);
}

void rc_group_note(struct rc_group *g, const struct rc_device *dev, const char *note)
{
	char what[RC_GROUP_WHAT_LEN];

	if (!g->grouped) {
		rc_out_text(g->o, "  note: %s\n", note);
		return;
	}
	snprintf(what, sizeof(what), "note: %s", note);
	/* a note is about this device: counted with it, not as a device of its own */
	rc_group_add(g, RC_GROUP_INFO, what, NULL, dev, NULL);
}

/* ---- printing ----------------------------------------------------------------------------- */

/* 4096 -> "4,096" */
static const char *count(size_t n, char *buf, size_t len)
{
	char digits[32];
	size_t nd = (size_t)snprintf(digits, sizeof(digits), "%zu", n), o = 0;

	for (size_t i = 0; i < nd && o + 2 < len; i++) {
		if (i && (nd - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
	return buf;
}

static const char *noun(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

static const char *device_noun(size_t n, bool hosts, bool switches)
{
	if (hosts && !switches)
		return noun(n, "host", "hosts");
	if (switches && !hosts)
		return noun(n, "switch", "switches");
	return noun(n, "device", "devices");
}

/* " (eth0,eth1)" or "": the ports of a kind, when they say something in little room. */
static void ports_of(const struct rc_group_kind *k, char *buf, size_t len)
{
	char set[PORTS_LEN];

	buf[0] = '\0';
	if (!k->port.n_runs)
		return;
	rc_nameset_format(&k->port, set, sizeof(set));
	snprintf(buf, len, " (%s)", set);
}

static void print_kind(struct rc_out *o, const struct rc_group_kind *k)
{
	char n1[32], n2[32], devs[DEVICES_LEN], b[DEVICES_LEN], ports[PORTS_LEN + 4];

	rc_nameset_format(&k->dev, devs, sizeof(devs));
	if (k->cls == RC_GROUP_LINK) {
		rc_nameset_format(&k->port, b, sizeof(b));
		rc_out_text(o, "  %s — %s %s %s -- %s\n", k->what, count(k->items, n1, sizeof(n1)),
			    noun(k->items, "link", "links"), devs, b);
	} else if (k->port.n_runs) { /* drift and findings of ports */
		ports_of(k, ports, sizeof(ports));
		rc_out_text(o, "  %s — %s %s on %s %s %s%s\n", k->what,
			    count(k->items, n1, sizeof(n1)),
			    k->hosts && !k->switches ? noun(k->items, "NIC", "NICs")
						     : noun(k->items, "port", "ports"),
			    count(k->devices, n2, sizeof(n2)),
			    device_noun(k->devices, k->hosts, k->switches), devs, ports);
	} else { /* findings of devices */
		rc_out_text(o, "  %s — %s %s %s\n", k->what, count(k->devices, n1, sizeof(n1)),
			    device_noun(k->devices, k->hosts, k->switches), devs);
	}
	if (k->note[0])
		rc_out_text(o, "      %s\n", k->note);
}

static const char *class_items(enum rc_group_class cls, enum rc_report_mode mode)
{
	switch (cls) {
	case RC_GROUP_DRIFT:
		return mode == RC_REPORT_PLAN ? "changes" : "drifted fields";
	case RC_GROUP_ERROR:
		return "failed devices";
	case RC_GROUP_LINK:
		return "links";
	case RC_GROUP_HOST:
		return "hosts";
	default:
		return "findings";
	}
}

static size_t kind_lines(const struct rc_group_kind *k)
{
	return k->note[0] ? 2 : 1;
}

/* Every kind of one class within `lines`, the last of them for the rest when they do not all
 * fit. */
static void print_class(struct rc_group *g, enum rc_group_class cls, size_t lines, bool all)
{
	size_t used = 0, kinds_left = 0, items_left = g->more_items[cls];
	char n1[32], n2[32];

	for (size_t i = 0; i < g->n; i++) {
		const struct rc_group_kind *k = &g->v[i];

		if (k->cls != cls)
			continue;
		if (!kinds_left && (all || used + kind_lines(k) < lines)) {
			print_kind(g->o, k);
			used += kind_lines(k);
			continue;
		}
		kinds_left++;
		items_left += cls == RC_GROUP_ERROR ? k->devices : k->items;
	}
	if (g->more_items[cls])
		kinds_left++; /* at least one kind the table had no room for */
	if (!kinds_left)
		return;
	rc_out_text(g->o, "  and %s%s more kind%s: %s %s (--details lists them)\n",
		    g->more_items[cls] ? "at least " : "", count(kinds_left, n1, sizeof(n1)),
		    kinds_left == 1 ? "" : "s", count(items_left, n2, sizeof(n2)),
		    class_items(cls, g->mode));
}

/* Lines each class needs to say everything, and what it may print within g->max_lines. */
static void plan_lines(const struct rc_group *g, size_t *need, size_t *give)
{
	size_t total = 0, left = g->max_lines;

	for (size_t i = 0; i < g->n; i++)
		need[g->v[i].cls] += kind_lines(&g->v[i]);
	for (int c = 0; c < RC_GROUP_NCLASS; c++) {
		need[c] += g->more_items[c] ? 1 : 0;
		total += need[c];
	}
	if (total <= g->max_lines) {
		memcpy(give, need, RC_GROUP_NCLASS * sizeof(*give));
		return;
	}
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		enum rc_group_class c = order[i];

		give[c] = need[c] < floor_lines[c] ? need[c] : floor_lines[c];
		give[c] = give[c] < left ? give[c] : left;
		left -= give[c];
	}
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		enum rc_group_class c = order[i];
		size_t more = need[c] - give[c] < left ? need[c] - give[c] : left;

		give[c] += more;
		left -= more;
	}
}

static const char *header(enum rc_group_class cls, enum rc_report_mode mode)
{
	switch (cls) {
	case RC_GROUP_DRIFT:
		return mode == RC_REPORT_PLAN ? "changes:" : "drift:";
	case RC_GROUP_ERROR:
		return "failed:";
	case RC_GROUP_LINK:
		return "links whose ends disagree:";
	case RC_GROUP_HOST:
		return "dual-homed hosts whose switches differ:";
	case RC_GROUP_INFO:
		return "not drift:";
	default:
		return NULL; /* under "not drift" */
	}
}

void rc_group_print(struct rc_group *g)
{
	size_t need[RC_GROUP_NCLASS] = {0}, give[RC_GROUP_NCLASS] = {0};
	char n1[32], devs[DEVICES_LEN];
	bool info_said = false;

	if (!g->grouped)
		return;
	if (g->base)
		qsort(g->v, g->n, sizeof(*g->v), first_cmp);
	for (size_t i = 0; i < g->n; i++) {
		unfold(g, g->v[i].in, &g->v[i].dev);
		/* in name order: devices finish in any order, and the same ports must print
		 * the same way whichever path made the report (a merged verify's too) */
		rc_nameset_sort(&g->v[i].port);
	}
	unfold(g, g->clean_in, &g->clean_set);
	plan_lines(g, need, give);
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		enum rc_group_class c = order[i];
		const char *h = header(c, g->mode);

		if (!need[c])
			continue;
		if (c == RC_GROUP_UNVERIFIED && !info_said)
			h = header(RC_GROUP_INFO, g->mode);
		info_said |= c == RC_GROUP_INFO;
		if (h)
			rc_out_text(g->o, "%s\n", h);
		print_class(g, c, give[c] ? give[c] : 1, give[c] == need[c]);
	}
	if (!g->clean)
		return;
	rc_nameset_format(&g->clean_set, devs, sizeof(devs));
	rc_out_text(g->o, "%s: %s %s %s\n", g->mode == RC_REPORT_PLAN ? "no changes" : "in sync",
		    count(g->clean, n1, sizeof(n1)),
		    device_noun(g->clean, g->clean_hosts, g->clean_switches), devs);
}
