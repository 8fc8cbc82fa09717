/* SPDX-License-Identifier: Apache-2.0 */
/* The grouped text of plan and verify (engine/report/group.c) and the name sets it folds
 * device and port names into (engine/report/nameset.c).  Devices and their diffs are built by
 * hand, at fleet size, so that these tests depend on neither drivers nor the loader. */
#include <errno.h>
#include <malloc.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rocectl/fleet.h"
#include "rocectl/group.h"
#include "rocectl/nameset.h"
#include "rocectl/result.h"

/* ---- name sets ---- */

static const char *folded(struct rc_nameset *s, char *buf, size_t len, size_t *left)
{
	size_t l = rc_nameset_format(s, buf, len);

	if (left)
		*left = l;
	return buf;
}

static void add_numbered(struct rc_nameset *s, const char *fmt, unsigned from, unsigned to)
{
	char name[RC_NAME_MAX];

	for (unsigned i = from; i <= to; i++) {
		snprintf(name, sizeof(name), fmt, i);
		rc_nameset_add(s, name);
	}
}

static void test_nameset_runs(void **state)
{
	struct rc_nameset s;
	char buf[256];
	size_t left;

	(void)state;
	memset(&s, 0, sizeof(s));
	add_numbered(&s, "gpu%04u", 1, 2048);
	assert_string_equal(folded(&s, buf, sizeof(buf), &left), "gpu[0001-2048]");
	assert_int_equal(left, 0);
	assert_int_equal(s.kept, 2048);

	/* repeats are not counted; other names make runs of their own */
	add_numbered(&s, "gpu%04u", 7, 9);
	rc_nameset_add(&s, "leaf01");
	rc_nameset_add(&s, "leaf02");
	rc_nameset_add(&s, "spine01");
	rc_nameset_add(&s, "bastion");
	rc_nameset_add(&s, "bastion");
	assert_string_equal(folded(&s, buf, sizeof(buf), NULL),
			    "gpu[0001-2048],leaf[01-02],spine01,bastion");
	assert_int_equal(s.kept, 2052);

	/* unpadded numbers, and ports whose number is not last */
	memset(&s, 0, sizeof(s));
	add_numbered(&s, "swp%u", 1, 32);
	add_numbered(&s, "swp%us0", 1, 2);
	add_numbered(&s, "Ethernet1/%u", 1, 4);
	assert_string_equal(folded(&s, buf, sizeof(buf), NULL),
			    "swp[1-32],swp1s0,swp2s0,Ethernet1/[1-4]");
}

/* Names in any order fold as they would in order; a padded number after an unpadded one of
 * the same width (gpu1000 then gpu0999) joins it. */
static void test_nameset_any_order(void **state)
{
	static const unsigned order[] = {5, 3, 9, 4, 1, 2, 8, 6, 7};
	struct rc_nameset s;
	char buf[128], name[16];

	(void)state;
	memset(&s, 0, sizeof(s));
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		snprintf(name, sizeof(name), "gpu%03u", order[i]);
		rc_nameset_add(&s, name);
	}
	assert_string_equal(folded(&s, buf, sizeof(buf), NULL), "gpu[001-009]");
	assert_int_equal(s.n_runs, 1);

	memset(&s, 0, sizeof(s));
	rc_nameset_add(&s, "gpu1000");
	rc_nameset_add(&s, "gpu1001");
	rc_nameset_add(&s, "gpu0999");
	assert_string_equal(folded(&s, buf, sizeof(buf), NULL), "gpu[0999-1001]");

	memset(&s, 0, sizeof(s));
	rc_nameset_add(&s, "leaf9");
	rc_nameset_add(&s, "leaf10");
	rc_nameset_add(&s, "leaf010"); /* another name than leaf10 */
	assert_string_equal(folded(&s, buf, sizeof(buf), NULL), "leaf[9-10],leaf010");
}

/* A set keeps RC_NAMESET_RUNS runs: what comes after is counted, and the text ends in ",...";
 * so does a text that does not fit its buffer. */
static void test_nameset_bounded(void **state)
{
	struct rc_nameset s;
	char buf[256], small[24];
	size_t left;

	(void)state;
	memset(&s, 0, sizeof(s));
	for (unsigned i = 1; i <= 1000; i += 2) { /* every other host: no two in a run */
		char name[16];

		snprintf(name, sizeof(name), "gpu%04u", i);
		rc_nameset_add(&s, name);
	}
	assert_int_equal(s.n_runs, RC_NAMESET_RUNS);
	assert_int_equal(s.kept, RC_NAMESET_RUNS);
	assert_int_equal(s.dropped, 500 - RC_NAMESET_RUNS);
	folded(&s, buf, sizeof(buf), &left);
	assert_int_equal(left, 500 - RC_NAMESET_RUNS);
	assert_string_equal(buf, "gpu0001,gpu0003,gpu0005,gpu0007,gpu0009,gpu0011,gpu0013,"
				 "gpu0015,gpu0017,gpu0019,gpu0021,gpu0023,...");

	folded(&s, small, sizeof(small), &left);
	assert_string_equal(small, "gpu0001,gpu0003,...");
	assert_int_equal(left, 500 - 2);

	memset(&s, 0, sizeof(s));
	rc_nameset_add(&s, "a-name-longer-than-the-buffer-it-is-printed-into");
	folded(&s, small, sizeof(small), &left);
	assert_string_equal(small, "...");
	assert_int_equal(left, 1);
}

/* The text is a --limit expression that selects exactly the names that went in. */
static void test_nameset_is_a_limit(void **state)
{
	static const char *const names[] = {"gpu0001", "gpu0002", "gpu0003", "gpu0010",
					    "leaf01",  "leaf02",  "spine1",  "spine2",
					    "gpu0004", "gpu0009", "leaf03",  "spine3"};
	enum { N = sizeof(names) / sizeof(names[0]), ADDED = 8 };
	struct rc_device dev[N];
	struct rc_inventory inv = {.devices = dev, .n_devices = N};
	struct rc_nameset s;
	struct rc_err err = {0};
	bool sel[N];
	char buf[256];

	(void)state;
	memset(dev, 0, sizeof(dev));
	memset(&s, 0, sizeof(s));
	for (size_t i = 0; i < N; i++) {
		snprintf(dev[i].name, sizeof(dev[i].name), "%s", names[i]);
		dev[i].kind = names[i][0] == 'g' ? RC_DEV_HOST : RC_DEV_SWITCH;
		dev[i].role = dev[i].kind == RC_DEV_HOST ? RC_ROLE_HOST : RC_ROLE_LEAF;
	}
	for (size_t i = 0; i < ADDED; i++)
		rc_nameset_add(&s, names[i]);
	folded(&s, buf, sizeof(buf), NULL);
	assert_string_equal(buf, "gpu[0001-0003],gpu0010,leaf[01-02],spine[1-2]");
	assert_int_equal(rc_limit_select(&inv, buf, sel, &err), 0);
	for (size_t i = 0; i < N; i++)
		assert_int_equal(sel[i], i < ADDED);
}

/* ---- the grouped report ---- */

/* A fleet of hosts gpu0001.. and switches leaf01.. with their diffs, built by hand. */
struct fleet {
	size_t n_hosts, n_switches;
	struct rc_device *dev;
	struct rc_changes *ch; /* per device */
};

static struct fleet *fleet_new(size_t hosts, size_t switches)
{
	struct fleet *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->n_hosts = hosts;
	f->n_switches = switches;
	f->dev = calloc(hosts + switches, sizeof(*f->dev));
	f->ch = calloc(hosts + switches, sizeof(*f->ch));
	assert_non_null(f->dev);
	assert_non_null(f->ch);
	for (size_t i = 0; i < hosts + switches; i++) {
		struct rc_device *d = &f->dev[i];

		if (i < hosts)
			snprintf(d->name, sizeof(d->name), "gpu%04zu", i + 1);
		else
			snprintf(d->name, sizeof(d->name), "leaf%02zu", i - hosts + 1);
		d->kind = i < hosts ? RC_DEV_HOST : RC_DEV_SWITCH;
		d->role = i < hosts ? RC_ROLE_HOST : RC_ROLE_LEAF;
	}
	return f;
}

static void fleet_free(struct fleet *f)
{
	for (size_t i = 0; i < f->n_hosts + f->n_switches; i++)
		rc_changes_fini(&f->ch[i]);
	free(f->ch);
	free(f->dev);
	free(f);
}

static struct rc_change *change(struct fleet *f, size_t dev, const char *port, const char *field,
				enum rc_change_kind kind, const char *have, const char *want)
{
	struct rc_changes *c = &f->ch[dev];
	struct rc_change *ch;

	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 8;
		c->v = realloc(c->v, c->cap * sizeof(*c->v));
		assert_non_null(c->v);
	}
	ch = &c->v[c->n++];
	memset(ch, 0, sizeof(*ch));
	snprintf(ch->port, sizeof(ch->port), "%s", port);
	snprintf(ch->field, sizeof(ch->field), "%s", field);
	ch->kind = kind;
	snprintf(ch->old_value, sizeof(ch->old_value), "%s", have);
	snprintf(ch->new_value, sizeof(ch->new_value), "%s", want);
	return ch;
}

/* What an mlx5 host in firmware-buffer mode says on each NIC when it is in sync. */
static void host_in_sync(struct fleet *f, size_t dev)
{
	static const char *const nics[] = {"eth0", "eth1"};

	for (size_t n = 0; n < 2; n++) {
		struct rc_change *c;

		c = change(f, dev, nics[n], "dscp2prio.warning", RC_CHANGE_UNSUPPORTED, "",
			   "warning");
		c->warning = true;
		assert_int_equal(rc_change_set_note(c, "DSCP 24-25 land in a lossless priority"),
				 0);
		c = change(f, dev, nics[n], "cable_length_m", RC_CHANGE_UNSUPPORTED, "",
			   "not effective here");
		assert_int_equal(rc_change_set_note(c, "firmware owns the buffers"), 0);
		change(f, dev, nics[n], "cnp.dscp", RC_CHANGE_UNSUPPORTED, "", "48");
		change(f, dev, nics[n], "cnp.prio", RC_CHANGE_UNSUPPORTED, "", "6");
	}
	f->ch[dev].unverified = RC_F_DSCP2PRIO | RC_F_CABLE;
}

/* The report of every device, grouped (details false) or not, with what fails listed. */
static char *report(struct fleet *f, enum rc_report_mode mode, bool details, bool json,
		    const char *const *errors)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	struct rc_out o;
	struct rc_group g;

	assert_non_null(m);
	rc_out_init(&o, m, json ? RC_OUT_JSON : RC_OUT_TEXT);
	o.details = details;
	rc_group_init(&g, &o, mode);
	for (size_t i = 0; i < f->n_hosts + f->n_switches; i++)
		rc_group_device(&g, &f->dev[i], i < f->n_hosts ? "agent-ssh" : "nvue-ssh",
				errors && errors[i] ? NULL : &f->ch[i], errors ? errors[i] : NULL,
				NULL);
	rc_group_print(&g);
	rc_group_fini(&g);
	fclose(m);
	return buf;
}

/* The same devices added in another order (as a streaming verify's devices finish), with
 * rc_group_in_order: `step` coprime with the fleet's size visits every device once. */
static char *report_shuffled(struct fleet *f, size_t step)
{
	size_t n = f->n_hosts + f->n_switches;
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	struct rc_out o;
	struct rc_group g;

	assert_non_null(m);
	rc_out_init(&o, m, RC_OUT_TEXT);
	rc_group_init(&g, &o, RC_REPORT_VERIFY);
	assert_int_equal(rc_group_in_order(&g, f->dev, n), 0);
	for (size_t k = 0, i = 0; k < n; k++, i = (i + step) % n)
		rc_group_device(&g, &f->dev[i], i < f->n_hosts ? "agent-ssh" : "nvue-ssh",
				&f->ch[i], NULL, NULL);
	rc_group_print(&g);
	rc_group_fini(&g);
	fclose(m);
	return buf;
}

static size_t lines(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = text; (p = strstr(p, line)); p += n)
		if ((p == text || p[-1] == '\n') && p[n] == '\n')
			return true;
	return false;
}

#define assert_line(text, line)                                                                    \
	do {                                                                                       \
		if (!has_line(text, line))                                                         \
			fail_msg("no line \"%s\" in:\n%s", line, text);                            \
	} while (0)

/* The same drift on 2,048 hosts is one line with its counts and ranges. */
static void test_same_drift_is_one_line(void **state)
{
	struct fleet *f = fleet_new(2048, 64);
	char *out;

	(void)state;
	for (size_t i = 0; i < 2048; i++) {
		host_in_sync(f, i);
		change(f, i, "eth0", "pfc_enabled", RC_CHANGE_SET, "none", "3");
		change(f, i, "eth1", "pfc_enabled", RC_CHANGE_SET, "none", "3");
	}
	change(f, 2048 + 6, "swp1", "trust", RC_CHANGE_SET, "pcp", "dscp")->disruptive = true;
	change(f, 2048 + 6, "swp2", "trust", RC_CHANGE_SET, "pcp", "dscp");
	out = report(f, RC_REPORT_VERIFY, false, false, NULL);
	assert_line(out, "drift:");
	assert_line(out, "  pfc_enabled want 3, have none — 4,096 NICs on 2,048 hosts "
			 "gpu[0001-2048] (eth[0-1])");
	assert_line(out, "  trust want dscp, have pcp — 2 ports on 1 switch leaf07 (swp[1-2])");
	assert_line(out, "not drift:");
	assert_line(out,
		    "  dscp2prio.warning — 4,096 NICs on 2,048 hosts gpu[0001-2048] (eth[0-1])");
	assert_line(out, "      DSCP 24-25 land in a lossless priority");
	assert_line(out, "  cable_length_m not effective here — 4,096 NICs on 2,048 hosts "
			 "gpu[0001-2048] (eth[0-1])");
	assert_line(out, "      firmware owns the buffers");
	assert_line(out, "  not controllable here: cnp.dscp, cnp.prio — 4,096 NICs on 2,048 hosts "
			 "gpu[0001-2048] (eth[0-1])");
	assert_line(out, "  unverified reading on this platform: dscp2prio, cable_length_m — "
			 "2,048 hosts gpu[0001-2048]");
	assert_line(out, "in sync: 63 switches leaf[01-06],leaf[08-64]");
	assert_int_equal(lines(out), 11);
	free(out);

	/* plan words it as a change, disruptive where it is */
	out = report(f, RC_REPORT_PLAN, false, false, NULL);
	assert_line(out, "changes:");
	assert_line(out, "  pfc_enabled none -> 3 — 4,096 NICs on 2,048 hosts gpu[0001-2048] "
			 "(eth[0-1])");
	assert_line(out, "  trust pcp -> dscp (disruptive) — 1 port on 1 switch leaf07 (swp1)");
	assert_line(out, "  trust pcp -> dscp — 1 port on 1 switch leaf07 (swp2)");
	assert_line(out, "no changes: 63 switches leaf[01-06],leaf[08-64]");
	free(out);
	fleet_free(f);
}

/* A fleet in sync fits a screen however large: its repeated warnings are said once. */
/* Kinds, device names and ports print the same whatever order the devices come in. */
static void test_any_device_order_same_text(void **state)
{
	struct fleet *f = fleet_new(300, 16);
	char *want, *got;

	(void)state;
	for (size_t i = 0; i < 300; i++) {
		host_in_sync(f, i);
		if (i % 7 == 0)
			change(f, i, "eth1", "pfc_enabled", RC_CHANGE_SET, "none", "3");
		if (i % 11 == 0)
			change(f, i, "eth0", "trust", RC_CHANGE_SET, "pcp", "dscp");
	}
	change(f, 300 + 3, "swp9", "trust", RC_CHANGE_SET, "pcp", "dscp");
	change(f, 300 + 5, "Ethernet1/1", "pfc_enabled", RC_CHANGE_SET, "none", "3");
	want = report(f, RC_REPORT_VERIFY, false, false, NULL);
	got = report_shuffled(f, 97); /* 97 and 316 are coprime */
	assert_string_equal(got, want);
	free(got);
	got = report_shuffled(f, 1);
	assert_string_equal(got, want);
	free(got);
	free(want);
	fleet_free(f);
}

static void test_in_sync_fleet_fits_a_screen(void **state)
{
	struct fleet *f = fleet_new(4096, 256);
	char *out;

	(void)state;
	for (size_t i = 0; i < 4096; i++)
		host_in_sync(f, i);
	for (size_t i = 4096; i < 4096 + 256; i++)
		f->ch[i].unverified = RC_F_ECN | RC_F_ETS;
	out = report(f, RC_REPORT_VERIFY, false, false, NULL);
	assert_int_equal(lines(out), 9);
	assert_line(out, "in sync: 4,352 devices gpu[0001-4096],leaf[01-256]");
	assert_line(out, "  unverified reading on this platform: ecn, ets — 256 switches "
			 "leaf[01-256]");
	free(out);
	fleet_free(f);
}

/* "— 4,352 ports" -> 4352 */
static size_t count_after_dash(const char *line)
{
	const char *p = strstr(line, "— ");
	size_t n = 0;

	assert_non_null(p);
	for (p += strlen("— "); (*p >= '0' && *p <= '9') || *p == ','; p++)
		if (*p != ',')
			n = n * 10 + (size_t)(*p - '0');
	return n;
}

/* Drift that differs on every port (a factory fabric's cable lengths, say) makes more kinds
 * than the table holds and than a screen shows: the lines stay bounded, and what is not shown
 * is counted so that the total is right. */
static void test_many_kinds_stay_bounded(void **state)
{
	struct fleet *f = fleet_new(2048, 128);
	size_t shown = 0, kinds = 0, more_kinds = 0, more_fields = 0;
	char *out, *line, *save = NULL, have[16];

	(void)state;
	for (size_t i = 0; i < 2048 + 128; i++) {
		for (size_t p = 0; p < 2; p++) {
			char port[16];

			snprintf(port, sizeof(port), "swp%zu", p + 1);
			snprintf(have, sizeof(have), "%zu", (i * 2 + p) % 500);
			change(f, i, port, "cable_length_m", RC_CHANGE_SET, have, "30");
			change(f, i, port, "trust", RC_CHANGE_SET, "pcp", "dscp");
		}
	}
	out = report(f, RC_REPORT_VERIFY, false, false, NULL);
	assert_true(lines(out) <= RC_GROUP_LINES + 1);
	assert_line(out, "  trust want dscp, have pcp — 4,352 ports on 2,176 devices "
			 "gpu[0001-2048],leaf[01-128] (swp[1-2])");
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char plain[256];
		size_t o = 0;

		for (const char *c = line; *c && o + 1 < sizeof(plain); c++)
			if (*c != ',') /* 4,352 */
				plain[o++] = *c;
		plain[o] = '\0';
		if (sscanf(plain, "  and at least %zu more kinds: %zu drifted fields", &more_kinds,
			   &more_fields) == 2)
			continue;
		if (strstr(line, "want ")) {
			shown += count_after_dash(line);
			kinds++;
		}
	}
	assert_int_equal(shown + more_fields, 2 * 4352);
	assert_true(kinds + more_kinds <= 501);
	assert_true(more_kinds >= 1 && kinds >= 20);
	free(out);
	fleet_free(f);
}

#if defined(__SANITIZE_ADDRESS__)
#define HAVE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HAVE_ASAN 1
#endif
#endif
#ifdef HAVE_ASAN
/* compiler-rt's sanitizer/allocator_interface.h, which gcc does not ship */
size_t __sanitizer_get_current_allocated_bytes(void);
#endif

/* Bytes in use on the heap now (ASan serves malloc itself under the sanitizer build). */
static size_t heap_in_use(void)
{
#ifdef HAVE_ASAN
	return __sanitizer_get_current_allocated_bytes();
#else
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
#endif
}

/* The table is allocated once: 100,000 devices, each with a kind of drift of its own, take
 * not a byte more than the first. */
static void test_memory_is_flat(void **state)
{
	struct fleet *f = fleet_new(1, 0);
	struct rc_group g;
	struct rc_out o;
	FILE *null = fopen("/dev/null", "w");
	size_t before;

	(void)state;
	assert_non_null(null);
	change(f, 0, "eth0", "cable_length_m", RC_CHANGE_SET, "", "30");
	change(f, 0, "eth1", "pfc_enabled", RC_CHANGE_SET, "none", "3");
	rc_out_init(&o, null, RC_OUT_TEXT);
	rc_group_init(&g, &o, RC_REPORT_VERIFY);
	before = heap_in_use();
	for (size_t i = 0; i < 100000; i++) {
		snprintf(f->dev[0].name, sizeof(f->dev[0].name), "gpu%06zu", i);
		snprintf(f->ch[0].v[0].old_value, sizeof(f->ch[0].v[0].old_value), "%zu", i);
		rc_group_device(&g, &f->dev[0], "agent-ssh", &f->ch[0], NULL, NULL);
	}
	assert_int_equal(heap_in_use(), before);
	assert_int_equal(g.n, RC_GROUP_KINDS);
	assert_int_equal(g.more_items[RC_GROUP_DRIFT], 100000 - (RC_GROUP_KINDS - 1));
	rc_group_print(&g);
	rc_group_fini(&g);
	fclose(null);
	fleet_free(f);
}

/* Devices that fail the same way are one line, whatever their name in the message. */
static void test_errors_grouped(void **state)
{
	struct fleet *f = fleet_new(4, 2);
	const char *errors[6] = {NULL,
				 "'gpu0002': connect: Connection refused",
				 "'gpu0003': connect: Connection refused",
				 "gpu0004: connect: Connection refused",
				 "host key of 'leaf01' is not known",
				 NULL};
	char *out;

	(void)state;
	out = report(f, RC_REPORT_VERIFY, false, false, errors);
	assert_line(out, "failed:");
	assert_line(out, "  connect: Connection refused — 3 hosts gpu[0002-0004]");
	assert_line(out, "  host key of 'leaf01' is not known — 1 switch leaf01");
	assert_line(out, "in sync: 2 devices gpu0001,leaf02");
	free(out);
	fleet_free(f);
}

/* --details and JSON print every device as rc_report_device does, as they did before. */
static void test_details_and_json_per_device(void **state)
{
	struct fleet *f = fleet_new(2, 1);
	char *out, *want = NULL;
	size_t len = 0;
	FILE *m;
	struct rc_out o;

	(void)state;
	host_in_sync(f, 0);
	change(f, 1, "eth0", "pfc_enabled", RC_CHANGE_SET, "none", "3");
	for (int json = 0; json < 2; json++) {
		out = report(f, RC_REPORT_VERIFY, !json, json, NULL);
		m = open_memstream(&want, &len);
		assert_non_null(m);
		rc_out_init(&o, m, json ? RC_OUT_JSON : RC_OUT_TEXT);
		for (size_t i = 0; i < 3; i++)
			rc_report_device(&o, RC_REPORT_VERIFY, f->dev[i].name,
					 i < 2 ? "agent-ssh" : "nvue-ssh", &f->ch[i], NULL);
		fclose(m);
		assert_string_equal(out, want);
		free(out);
		free(want);
		want = NULL;
	}
	fleet_free(f);
}

/* The link and host checks group the same way: one line per field and pair of values with
 * the links' two ends as ranges, a host's pair in either order as one. */
static void test_checks_grouped(void **state)
{
	struct fleet *f = fleet_new(64, 2);
	struct rc_inventory inv = {.devices = f->dev, .n_devices = 66};
	struct rc_link links[128];
	struct rc_link_check lc[128];
	struct rc_host_check hc[64];
	struct rc_fleet fl = {.inv = &inv};
	struct rc_result r = {.fleet = &fl, .inv = &inv, .links = lc, .hosts = hc};
	char *buf = NULL;
	size_t len = 0, bad_links, bad_hosts;
	FILE *m = open_memstream(&buf, &len);
	struct rc_out o;

	(void)state;
	memset(links, 0, sizeof(links));
	memset(lc, 0, sizeof(lc));
	memset(hc, 0, sizeof(hc));
	for (size_t h = 0; h < 64; h++) {
		for (size_t k = 0; k < 2; k++) {
			struct rc_link *l = &links[2 * h + k];
			struct rc_link_check *c = &lc[2 * h + k];

			l->a.dev = h;
			snprintf(l->a.port, sizeof(l->a.port), "eth%zu", k);
			l->b.dev = 64 + k;
			snprintf(l->b.port, sizeof(l->b.port), "swp%zu", h + 1);
			c->link = 2 * h + k;
			c->status = k ? RC_CHECK_MISMATCH : RC_CHECK_OK;
			c->n = k;
			snprintf(c->v[0].field, sizeof(c->v[0].field), "pfc_enabled");
			snprintf(c->v[0].a_value, sizeof(c->v[0].a_value), "3");
			snprintf(c->v[0].b_value, sizeof(c->v[0].b_value), "none");
		}
		hc[h].dev = h;
		hc[h].status = RC_CHECK_MISMATCH;
		hc[h].n = 1;
		snprintf(hc[h].v[0].field, sizeof(hc[h].v[0].field), "trust");
		snprintf(hc[h].v[0].a_value, sizeof(hc[h].v[0].a_value), h % 2 ? "dscp" : "pcp");
		snprintf(hc[h].v[0].b_value, sizeof(hc[h].v[0].b_value), h % 2 ? "pcp" : "dscp");
	}
	inv.links = links;
	inv.n_links = r.n_links = 128;
	r.n_hosts = 64;
	assert_non_null(m);
	rc_out_init(&o, m, RC_OUT_TEXT);
	rc_report_checks(&o, &r, &bad_links, &bad_hosts);
	fclose(m);
	assert_int_equal(bad_links, 64);
	assert_int_equal(bad_hosts, 64);
	assert_line(buf, "links whose ends disagree:");
	assert_line(buf, "  pfc_enabled 3 | none — 64 links gpu[0001-0064] -- leaf02");
	assert_line(buf, "dual-homed hosts whose switches differ:");
	assert_line(buf, "  trust dscp | pcp — 64 hosts gpu[0001-0064]");
	assert_int_equal(lines(buf), 5);
	free(buf);
	fleet_free(f);
}

/* A long list (deadlock-prone ports, cabling problems) shows its first items in text and
 * counts the rest; --details and JSON have them all. */
static void test_long_lists_are_cut(void **state)
{
	for (int mode = 0; mode < 3; mode++) { /* text, --details, JSON */
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);
		struct rc_out o;
		struct rc_out_list l = {0};

		(void)state;
		assert_non_null(m);
		rc_out_init(&o, m, mode == 2 ? RC_OUT_JSON : RC_OUT_TEXT);
		o.details = mode == 1;
		rc_out_open_array(&o, NULL);
		for (int i = 0; i < 20; i++) {
			char item[16];

			snprintf(item, sizeof(item), "swp%d", i + 1);
			rc_out_list_item(&o, &l);
			rc_out_str(&o, NULL, "  %s\n", item);
		}
		rc_out_list_end(&o, &l, "ports");
		rc_out_close_array(&o);
		rc_out_text(&o, "after\n");
		fclose(m);
		if (mode == 0) {
			assert_int_equal(lines(buf), RC_OUT_LIST_SHOWN + 2);
			assert_line(buf, "  swp8");
			assert_line(buf, "  and 12 more ports (--details lists them)");
			assert_line(buf, "after");
		} else if (mode == 1) {
			assert_int_equal(lines(buf), 21);
			assert_line(buf, "  swp20");
		} else {
			assert_non_null(strstr(buf, "\"swp20\"]"));
		}
		free(buf);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_nameset_runs),
	    cmocka_unit_test(test_nameset_any_order),
	    cmocka_unit_test(test_any_device_order_same_text),
	    cmocka_unit_test(test_nameset_bounded),
	    cmocka_unit_test(test_nameset_is_a_limit),
	    cmocka_unit_test(test_same_drift_is_one_line),
	    cmocka_unit_test(test_in_sync_fleet_fits_a_screen),
	    cmocka_unit_test(test_many_kinds_stay_bounded),
	    cmocka_unit_test(test_memory_is_flat),
	    cmocka_unit_test(test_errors_grouped),
	    cmocka_unit_test(test_details_and_json_per_device),
	    cmocka_unit_test(test_checks_grouped),
	    cmocka_unit_test(test_long_lists_are_cut),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
