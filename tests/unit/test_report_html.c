/* SPDX-License-Identifier: Apache-2.0 */
/* The HTML fabric report (engine/report/report_html.c).  The embedded data is parsed back
 * with cJSON, an independent JSON parser, to check every device and its state; hostile
 * strings from the devices must come back intact from the JSON but never appear raw in the
 * page; the page must reference nothing outside itself; and a 2,200-device fabric must give
 * a small file in time that grows linearly.  tests/lab/t3211-html-report.sh runs the
 * script in Chromium. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cJSON.h>
#include <cmocka.h>

#include "rocectl/diag.h"
#include "rocectl/result.h"
#include "rocectl/util.h"

#define HOSTILE_PORT  "sw\"p</script><img src=x onerror=alert(1)>\xff\xfe"
#define HOSTILE_VALUE "</SCRIPT><script>alert(1)</script>\xe2\x80\xa8&amp;"
#define HOSTILE_ERROR "timed out <!-- </script\n> https://evil.example/x.js \x01"

/* A fabric of n_spines spines, n_leaves leaves (each linked to every spine) and n_hosts
 * hosts (host i on leaf i % n_leaves); every fleet device read. */
struct fab {
	size_t n;
	struct rc_device *dev;
	struct rc_link *links;
	struct rc_inventory inv;
	struct rc_policy pol;
	struct rc_fleet fleet;
	struct rc_fleet_dev *fdev;
	struct rc_change *changes; /* 4 per device */
	struct rc_link_check *lc;
	struct rc_result r;
};

static void fab_init(struct fab *fb, size_t n_spines, size_t n_leaves, size_t n_hosts)
{
	size_t n = n_spines + n_leaves + n_hosts, nl = n_spines * n_leaves + n_hosts, k = 0;

	memset(fb, 0, sizeof(*fb));
	fb->n = n;
	fb->dev = calloc(n, sizeof(*fb->dev));
	fb->links = calloc(nl, sizeof(*fb->links));
	fb->fdev = calloc(n, sizeof(*fb->fdev));
	fb->changes = calloc(n * 4, sizeof(*fb->changes));
	fb->lc = calloc(nl, sizeof(*fb->lc));
	assert_true(fb->dev && fb->links && fb->fdev && fb->changes && fb->lc);
	for (size_t i = 0; i < n; i++) {
		struct rc_device *d = &fb->dev[i];
		struct rc_fleet_dev *fd = &fb->fdev[i];

		if (i < n_spines)
			snprintf(d->name, sizeof(d->name), "spine%02zu", i + 1);
		else if (i < n_spines + n_leaves)
			snprintf(d->name, sizeof(d->name), "leaf%03zu", i - n_spines + 1);
		else
			snprintf(d->name, sizeof(d->name), "gpu%04zu", i - n_spines - n_leaves + 1);
		d->role = i < n_spines		    ? RC_ROLE_SPINE
			  : i < n_spines + n_leaves ? RC_ROLE_LEAF
						    : RC_ROLE_HOST;
		d->kind = d->role == RC_ROLE_HOST ? RC_DEV_HOST : RC_DEV_SWITCH;
		fd->index = i;
		fd->run.dev = d;
		fd->run.dev_index = i;
		fd->run.read_ok = true;
		fd->run.changes.v = &fb->changes[i * 4];
		fd->run.changes.cap = 4;
	}
	for (size_t s = 0; s < n_spines; s++)
		for (size_t l = 0; l < n_leaves; l++, k++) {
			fb->links[k].a.dev = n_spines + l;
			snprintf(fb->links[k].a.port, RC_NAME_MAX, "swp%zu", 49 + s);
			fb->links[k].b.dev = s;
			snprintf(fb->links[k].b.port, RC_NAME_MAX, "swp%zu", 1 + l);
		}
	for (size_t h = 0; h < n_hosts; h++, k++) {
		fb->links[k].a.dev = n_spines + n_leaves + h;
		snprintf(fb->links[k].a.port, RC_NAME_MAX, "enp1s0np0");
		fb->links[k].b.dev = n_spines + h % n_leaves;
		snprintf(fb->links[k].b.port, RC_NAME_MAX, "swp%zu", 1 + h / n_leaves);
	}
	for (size_t i = 0; i < nl; i++)
		fb->lc[i] = (struct rc_link_check){.link = i, .status = RC_CHECK_OK};
	fb->inv.n_devices = n;
	fb->inv.devices = fb->dev;
	fb->inv.n_links = nl;
	fb->inv.links = fb->links;
	fb->fleet.inv = &fb->inv;
	fb->fleet.pol = &fb->pol;
	fb->fleet.devs = fb->fdev;
	fb->fleet.n = n;
	fb->r.fleet = &fb->fleet;
	fb->r.inv = &fb->inv;
	fb->r.when = 1700000000;
	fb->r.n_links = nl;
	fb->r.links = fb->lc;
}

static void fab_fini(struct fab *fb)
{
	free(fb->dev);
	free(fb->links);
	free(fb->fdev);
	free(fb->changes);
	free(fb->lc);
}

static void add_change(struct fab *fb, size_t dev, const char *port, const char *field,
		       enum rc_change_kind kind, const char *have, const char *want)
{
	struct rc_fleet_dev *fd = &fb->fdev[dev];
	struct rc_change *c = &fd->run.changes.v[fd->run.changes.n++];

	assert_true(fd->run.changes.n <= fd->run.changes.cap);
	memset(c, 0, sizeof(*c));
	snprintf(c->port, sizeof(c->port), "%s", port);
	snprintf(c->field, sizeof(c->field), "%s", field);
	c->kind = kind;
	snprintf(c->old_value, sizeof(c->old_value), "%s", have);
	snprintf(c->new_value, sizeof(c->new_value), "%s", want);
}

static char *render(const struct rc_result *r, size_t *len)
{
	char *out = NULL;
	FILE *f = open_memstream(&out, len);

	assert_non_null(f);
	rc_report_html(f, r);
	assert_int_equal(fclose(f), 0);
	assert_non_null(out);
	return out;
}

/* The JSON inside <script type="application/json" id="data">...</script>. */
static cJSON *data_of(const char *html)
{
	static const char open[] = "<script type=\"application/json\" id=\"data\">";
	const char *start = strstr(html, open), *end;
	char *text;
	cJSON *j;

	assert_non_null(start);
	start += strlen(open);
	end = strstr(start, "</script>");
	assert_non_null(end);
	text = strndup(start, (size_t)(end - start));
	assert_non_null(text);
	j = cJSON_Parse(text);
	free(text);
	assert_non_null(j);
	return j;
}

static const char *dev_field(cJSON *data, size_t i, int k)
{
	cJSON *d = cJSON_GetArrayItem(cJSON_GetObjectItem(data, "d"), (int)i);
	cJSON *v = cJSON_GetArrayItem(d, k);

	assert_non_null(v);
	return cJSON_IsString(v) ? v->valuestring : "";
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; (p = strcasestr(p, needle)); p++)
		n++;
	return n;
}

/* 2 spines, 2 leaves, 4 hosts: leaf001 drifted, gpu0002 unreachable, gpu0003 outside
 * --limit, the spine01--leaf002 link mismatched, and a dual-homed host check mismatched
 * on gpu0004. */
static void small_fabric(struct fab *fb, struct rc_host_check *hc)
{
	fab_init(fb, 2, 2, 4);
	add_change(fb, 2, "swp1", "pfc_enabled", RC_CHANGE_SET, "none", "3");
	add_change(fb, 2, "swp2", "pfc_enabled", RC_CHANGE_SET, "none", "3");
	add_change(fb, 2, "swp2", "ecn[3].kmin_bytes", RC_CHANGE_UNKNOWN, "", "150000");
	add_change(fb, 3, "swp9", "watchdog.restoration_ms", RC_CHANGE_UNSUPPORTED, "", "400");
	fb->fdev[5].rc = -ETIMEDOUT;
	fb->fdev[5].run.read_ok = false;
	snprintf(fb->fdev[5].err.msg, sizeof(fb->fdev[5].err.msg), "cannot read: timed out");
	/* gpu0003 (device 6) not selected: drop it from the fleet, and its link */
	fb->fdev[6] = fb->fdev[7];
	fb->fleet.n = 7;
	fb->lc[6] = fb->lc[7];
	fb->r.n_links = 7;
	fb->lc[1].status = RC_CHECK_MISMATCH;
	*hc = (struct rc_host_check){.dev = 7, .status = RC_CHECK_MISMATCH};
	fb->r.n_hosts = 1;
	fb->r.hosts = hc;
}

static void test_every_device_with_its_state(void **state)
{
	static const char *const want[][2] = {
	    {"spine01", "sync"},    {"spine02", "sync"},  {"leaf001", "drift"},
	    {"leaf002", "sync"},    {"gpu0001", "sync"},  {"gpu0002", "unreachable"},
	    {"gpu0003", "skipped"}, {"gpu0004", "drift"},
	};
	struct rc_host_check hc;
	struct fab fb;
	size_t len;
	char *html;
	cJSON *data, *links, *fields;

	(void)state;
	small_fabric(&fb, &hc);
	html = render(&fb.r, &len);
	data = data_of(html);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(data, "d")), 8);
	for (size_t i = 0; i < 8; i++) {
		assert_string_equal(dev_field(data, i, 0), want[i][0]);
		assert_string_equal(dev_field(data, i, 2), want[i][1]);
	}
	assert_string_equal(dev_field(data, 5, 3), "cannot read: timed out");
	assert_string_equal(dev_field(data, 2, 3), "");
	/* links: 7 checked + gpu0003's, unchecked */
	links = cJSON_GetObjectItem(data, "l");
	assert_int_equal(cJSON_GetArraySize(links), 8);
	/* link 0 (leaf001--spine01) is ok but leaf001:swp49 did not drift: sync; link 1 mismatch */
	assert_string_equal(cJSON_GetArrayItem(cJSON_GetArrayItem(links, 0), 2)->valuestring,
			    "sync");
	assert_string_equal(cJSON_GetArrayItem(cJSON_GetArrayItem(links, 1), 2)->valuestring,
			    "mismatch");
	/* gpu0001 -- leaf001:swp1, and swp1 drifted: the cable is drawn as drift */
	assert_string_equal(cJSON_GetArrayItem(cJSON_GetArrayItem(links, 4), 2)->valuestring,
			    "drift");
	assert_string_equal(cJSON_GetArrayItem(cJSON_GetArrayItem(links, 7), 2)->valuestring,
			    "skipped");
	/* drift by field: pfc_enabled twice on one device, kmin once; unsupported left out */
	fields = cJSON_GetObjectItem(data, "f");
	assert_int_equal(cJSON_GetArraySize(fields), 2);
	assert_string_equal(cJSON_GetArrayItem(cJSON_GetArrayItem(fields, 1), 0)->valuestring,
			    "pfc_enabled");
	assert_int_equal(cJSON_GetArrayItem(cJSON_GetArrayItem(fields, 1), 1)->valueint, 2);
	assert_int_equal(cJSON_GetArrayItem(cJSON_GetArrayItem(fields, 1), 2)->valueint, 1);
	/* per-device detail rows: [dev, port, field, have, want] */
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(data, "x")), 3);
	assert_string_equal(
	    cJSON_GetArrayItem(cJSON_GetArrayItem(cJSON_GetObjectItem(data, "x"), 2), 3)
		->valuestring,
	    "(unreadable)");
	cJSON_Delete(data);
	free(html);
	fab_fini(&fb);
}

/* Nothing of the page is fetched: no URL, no protocol-relative reference, and a CSP that
 * forbids loading anything. */
static void assert_offline(const char *html)
{
	assert_null(strcasestr(html, "http://"));
	assert_null(strcasestr(html, "https://"));
	assert_null(strstr(html, "//"));
	assert_null(strcasestr(html, "<link"));
	assert_null(strcasestr(html, "@import"));
	assert_null(strcasestr(html, "url("));
	assert_non_null(strstr(html, "default-src 'none'"));
}

static void test_hostile_strings_stay_data(void **state)
{
	struct rc_host_check hc;
	struct fab fb;
	size_t len;
	char *html;
	cJSON *data, *x;

	(void)state;
	small_fabric(&fb, &hc);
	snprintf(fb.dev[4].name, sizeof(fb.dev[4].name), "%s", "g\"</script><b>x");
	fb.fdev[4].run.changes.n = 0;
	add_change(&fb, 4, HOSTILE_PORT, "pfc_enabled", RC_CHANGE_SET, HOSTILE_VALUE, "3<!--");
	snprintf(fb.fdev[5].err.msg, sizeof(fb.fdev[5].err.msg), "%s", HOSTILE_ERROR);
	snprintf(fb.links[4].a.port, RC_NAME_MAX, "%s", "p</script>");
	html = render(&fb.r, &len);
	assert_int_equal(strlen(html), len);
	/* the only script ends are the page's own two; no element the devices could inject */
	assert_int_equal(count(html, "</script"), 2);
	assert_int_equal(count(html, "<script"), 2);
	assert_null(strcasestr(html, "<img"));
	assert_null(strcasestr(html, "<b>"));
	assert_null(strstr(html, "<!--"));
	assert_null(strstr(html, "\xe2\x80\xa8"));
	assert_true(rc_utf8_valid(html));
	assert_offline(html);
	/* and the data says what the devices said (invalid bytes as U+FFFD) */
	data = data_of(html);
	assert_string_equal(dev_field(data, 4, 0), "g\"</script><b>x");
	assert_string_equal(dev_field(data, 5, 3), HOSTILE_ERROR);
	x = cJSON_GetArrayItem(cJSON_GetObjectItem(data, "x"), 3);
	assert_non_null(x);
	assert_string_equal(cJSON_GetArrayItem(x, 1)->valuestring,
			    "sw\"p</script><img src=x onerror=alert(1)>\xef\xbf\xbd\xef\xbf\xbd");
	assert_string_equal(cJSON_GetArrayItem(x, 3)->valuestring, HOSTILE_VALUE);
	assert_string_equal(cJSON_GetArrayItem(x, 4)->valuestring, "3<!--");
	cJSON_Delete(data);
	free(html);
	fab_fini(&fb);
}

/* CPU time of the fastest of three renders, and the size. */
static double timed_render(const struct rc_result *r, size_t *len)
{
	double best = 1e9;

	for (int k = 0; k < 3; k++) {
		clock_t t0 = clock();
		char *html = render(r, len);
		double s = (double)(clock() - t0) / CLOCKS_PER_SEC;

		if (s < best)
			best = s;
		if (k == 2)
			assert_offline(html);
		free(html);
	}
	return best;
}

static void drift_some(struct fab *fb)
{
	for (size_t i = 0; i < fb->n; i += 7) {
		add_change(fb, i, "swp1", "pfc_enabled", RC_CHANGE_SET, "none", "3");
		add_change(fb, i, "swp1", "dscp2prio[26]", RC_CHANGE_SET, "0", "3");
	}
	for (size_t i = 3; i < fb->n; i += 50) {
		fb->fdev[i].rc = -ETIMEDOUT;
		fb->fdev[i].run.read_ok = false;
		snprintf(fb->fdev[i].err.msg, sizeof(fb->fdev[i].err.msg),
			 "cannot read '%s': timed out after 10s", fb->dev[i].name);
	}
}

/* 8 spines, 64 leaves, 2,128 hosts: the page stays under 2 MB, and four times the fabric
 * (8 spines, 256 leaves, 8,536 hosts) takes less than eight times as long (a quadratic
 * printer would take sixteen). */
static void test_fleet_size(void **state)
{
	struct fab big, huge;
	size_t len, len4;
	double t, t4;
	char *html;
	cJSON *data;

	(void)state;
	fab_init(&big, 8, 64, 2128);
	drift_some(&big);
	t = timed_render(&big.r, &len);
	assert_true(len < 2 * 1024 * 1024);
	html = render(&big.r, &len);
	data = data_of(html);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(data, "d")), 2200);
	assert_string_equal(dev_field(data, 0, 2), "drift");
	assert_string_equal(dev_field(data, 3, 2), "unreachable");
	assert_string_equal(dev_field(data, 1, 2), "sync");
	cJSON_Delete(data);
	free(html);
	fab_init(&huge, 8, 256, 8536);
	drift_some(&huge);
	t4 = timed_render(&huge.r, &len4);
	print_message("# 2,200 devices: %zu bytes, %.3f s; 8,800: %zu bytes, %.3f s\n", len, t,
		      len4, t4);
	assert_true(t < 2.0);
	assert_true(t4 < 8 * t + 0.01);
	assert_true(len4 < 5 * len);
	fab_fini(&big);
	fab_fini(&huge);
}

/* diagnose: gpu0001 -> leaf001 -> spine01 -> leaf002 -> gpu0002; leaf002 is the root, spine01
 * relays, gpu0002 storms. */
static void test_diagnose_roles(void **state)
{
	static const char *const want[] = {"relay", "idle",  "clean", "root",
					   "clean", "storm", "idle",  "idle"};
	struct rc_trace_path tp = {.n = 5};
	struct rc_diag_path p = {.p = &tp, .from = 4, .to = 5};
	struct rc_diag d = {0};
	struct fab fb;
	size_t len = 0;
	char *html = NULL;
	FILE *f;
	cJSON *data, *links;

	(void)state;
	fab_init(&fb, 2, 2, 4);
	/* links: 0 leaf001-spine01, 1 leaf002-spine01, 4 gpu0001-leaf001, 5 gpu0002-leaf002 */
	tp.h[0] = (struct rc_trace_hop){.dev = 4, .out = "enp1s0np0", .link_in = SIZE_MAX};
	tp.h[1] = (struct rc_trace_hop){.dev = 2, .in = "swp1", .out = "swp49", .link_in = 4};
	tp.h[2] = (struct rc_trace_hop){.dev = 0, .in = "swp1", .out = "swp2", .link_in = 0};
	tp.h[3] = (struct rc_trace_hop){.dev = 3, .in = "swp49", .out = "swp3", .link_in = 1};
	tp.h[4] = (struct rc_trace_hop){.dev = 5, .in = "enp1s0np0", .link_in = 5};
	p.h[2].role = RC_HOP_RELAY;
	p.h[3].role = RC_HOP_ROOT;
	snprintf(p.h[3].why, sizeof(p.h[3].why), "%s", "pauses </script> upstream");
	p.h[4].role = RC_HOP_STORM;
	d.inv = &fb.inv;
	d.n_paths = 1;
	d.paths = &p;
	d.n_findings = 2;
	/* a finding on no device of the inventory is left out: the page indexes devices */
	d.findings[0] = (struct rc_diag_finding){.kind = RC_FIND_CNP_NOT_HANDLED, .dev = 99};
	d.findings[1] = (struct rc_diag_finding){.kind = RC_FIND_MARKS_NO_CNP, .dev = 5};
	snprintf(d.findings[1].message, sizeof(d.findings[1].message), "%s", "no CNP <img>");
	f = open_memstream(&html, &len);
	assert_non_null(f);
	rc_report_diag_html(f, &d, &fb.fleet, 1700000000);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(count(html, "</script"), 2);
	assert_null(strcasestr(html, "<img"));
	assert_offline(html);
	data = data_of(html);
	assert_string_equal(cJSON_GetObjectItem(data, "kind")->valuestring, "diagnose");
	for (size_t i = 0; i < 8; i++)
		assert_string_equal(dev_field(data, i, 2), want[i]);
	links = cJSON_GetObjectItem(data, "l");
	assert_int_equal(cJSON_GetArraySize(links), 8);
	assert_string_equal(cJSON_GetArrayItem(cJSON_GetArrayItem(links, 0), 2)->valuestring,
			    "relay");
	assert_string_equal(cJSON_GetArrayItem(cJSON_GetArrayItem(links, 1), 2)->valuestring,
			    "root");
	assert_string_equal(cJSON_GetArrayItem(cJSON_GetArrayItem(links, 5), 2)->valuestring,
			    "storm");
	assert_string_equal(cJSON_GetArrayItem(cJSON_GetArrayItem(links, 2), 2)->valuestring,
			    "idle");
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(data, "fi")), 1);
	assert_string_equal(
	    cJSON_GetArrayItem(cJSON_GetArrayItem(cJSON_GetObjectItem(data, "fi"), 0), 3)
		->valuestring,
	    "no CNP <img>");
	cJSON_Delete(data);
	free(html);
	fab_fini(&fb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_device_with_its_state),
	    cmocka_unit_test(test_hostile_strings_stay_data),
	    cmocka_unit_test(test_fleet_size),
	    cmocka_unit_test(test_diagnose_roles),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
