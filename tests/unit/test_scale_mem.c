/* SPDX-License-Identifier: Apache-2.0 */
/* verify's memory does not grow with the devices it has finished (bench/README.md), measured on
 * the heap (mallinfo2, or ASan's allocator when the test runs under it), never timed.
 *
 * A generated fabric of fake devices (driver "flatfake": each port's state is made from
 * its name on every read, so the driver itself holds nothing per device) is verified with
 * rc_stream_verify, the path of `verify --format jsonl`: each device is printed and freed
 * as it is read.  Factory-state ports drift in every group, so each device's full report
 * (two ports, ~30 changes each) is far larger than the 8 KB per device the issue allows:
 * a run that kept reports would fail both tests.
 *
 * Also: the 40-byte brief the streaming checks keep per link end gives the same link and
 * host verdicts as the full port_qos it was made from. */
#include <malloc.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rocectl/driver.h"
#include "rocectl/fleet.h"
#include "rocectl/result.h"
#include "rocectl/stream.h"
#include "testutil.h"

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

/* Bytes in use on the heap now.  ASan serves malloc itself, so glibc's arena says nothing
 * there: ask the allocator that is in use. */
static size_t heap_in_use(void)
{
#ifdef HAVE_ASAN
	return __sanitizer_get_current_allocated_bytes();
#else
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
#endif
}

/* ---- the flat fake driver ---- */

struct rc_session {
	int unused;
};

static int flat_open(const struct rc_device *dev, const struct rc_run_opts *opts,
		     struct rc_session **out, struct rc_err *err)
{
	(void)opts;
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : rc_errf(err, ENOMEM, "'%s': out of memory", dev->name);
}

/* Factory defaults: trust pcp, no PFC, nothing mapped, every group known. */
static int flat_read(struct rc_session *s, struct rc_port_state *ports, size_t n,
		     struct rc_err *err)
{
	(void)s;
	(void)err;
	for (size_t i = 0; i < n; i++) {
		struct port_qos *q = &ports[i].qos;

		memset(q, 0, sizeof(*q));
		q->known = RC_F_ALL;
		q->trust = RC_TRUST_PCP;
		q->dscp_mask = ~0ull;
		q->prio_mask = 0xff;
		q->ecn_tc_mask = 0xff;
		q->headroom_mask = 0xff;
		q->ets.tc_mask = 0xff;
		q->nic_ecn_prio_mask = 0xff;
		q->mtu = 9216;
		q->speed_gbps = 400;
	}
	return 0;
}

static int flat_apply(struct rc_session *s, const struct rc_port_write *w, size_t n,
		      struct rc_err *err)
{
	(void)s;
	(void)w;
	(void)n;
	return rc_errf(err, EROFS, "the flat fake is read-only");
}

static void flat_close(struct rc_session *s)
{
	free(s);
}

static const struct rc_driver flat_driver = {
    .name = "flatfake",
    .open = flat_open,
    .read = flat_read,
    .apply = flat_apply,
    .close = flat_close,
};

RC_DRIVER_REGISTER(flat_driver)

/* ---- a generated fabric: H hosts with 2 NICs, each NIC on its own leaf ---- */

#define LEAVES		  8
#define PORTS_PER_LEAF	  256
#define MAX_BOUND_PER_DEV (8 * 1024) /* bench/README.md: growth <= 8 KB per device */

struct fabric {
	struct rc_policy pol;
	struct rc_inventory inv;
	char (*ports)[RC_NAME_MAX]; /* 2 per host, then PORTS_PER_LEAF per leaf */
};

static void make_fabric(struct fabric *fb, size_t hosts)
{
	struct rc_warnings warn = {0};
	struct rc_err err = {0};
	size_t nd = hosts + LEAVES;
	char path[4096];

	assert_true(hosts <= LEAVES * PORTS_PER_LEAF / 2);
	memset(fb, 0, sizeof(*fb));
	rc_test_path(path, sizeof(path), "policies/roce-lossless.yaml");
	assert_int_equal(rc_policy_load(path, &fb->pol, &warn, &err), 0);
	fb->inv.devices = calloc(nd, sizeof(*fb->inv.devices));
	fb->inv.links = calloc(2 * hosts, sizeof(*fb->inv.links));
	fb->ports = calloc(2 * hosts + LEAVES * PORTS_PER_LEAF, sizeof(*fb->ports));
	assert_non_null(fb->inv.devices);
	assert_non_null(fb->inv.links);
	assert_non_null(fb->ports);
	for (size_t l = 0; l < LEAVES; l++) {
		struct rc_device *d = &fb->inv.devices[l];

		snprintf(d->name, sizeof(d->name), "leaf%02zu", l + 1);
		snprintf(d->driver, sizeof(d->driver), "flatfake");
		d->kind = RC_DEV_SWITCH;
		d->role = RC_ROLE_LEAF;
		d->platform = RC_PLAT_NVUE;
		d->ports = &fb->ports[2 * hosts + l * PORTS_PER_LEAF];
		d->n_ports = hosts * 2 / LEAVES + 1;
		for (size_t p = 0; p < d->n_ports; p++)
			snprintf(d->ports[p], RC_NAME_MAX, "swp%zu", p + 1);
	}
	for (size_t h = 0; h < hosts; h++) {
		struct rc_device *d = &fb->inv.devices[LEAVES + h];

		snprintf(d->name, sizeof(d->name), "gpu%05zu", h + 1);
		snprintf(d->driver, sizeof(d->driver), "flatfake");
		d->kind = RC_DEV_HOST;
		d->role = RC_ROLE_HOST;
		d->platform = RC_PLAT_HOST;
		d->ports = &fb->ports[2 * h];
		d->n_ports = 2;
		for (size_t k = 0; k < 2; k++) {
			/* NIC k of host h on leaf (2h + k) % LEAVES, port (2h + k) / LEAVES + 1 */
			size_t e = 2 * h + k;
			struct rc_link *l = &fb->inv.links[e];

			snprintf(d->ports[k], RC_NAME_MAX, "enp%zus0np0", 12 + k);
			l->a.dev = LEAVES + h;
			snprintf(l->a.port, RC_NAME_MAX, "%s", d->ports[k]);
			l->b.dev = e % LEAVES;
			snprintf(l->b.port, RC_NAME_MAX, "swp%zu", e / LEAVES + 1);
			l->speed_gbps = 400;
		}
	}
	fb->inv.n_devices = nd;
	fb->inv.n_links = 2 * hosts;
}

static void free_fabric(struct fabric *fb)
{
	free(fb->inv.devices);
	free(fb->inv.links);
	free(fb->ports);
}

struct probe {
	size_t at_first, at_last; /* heap after the devices numbered first and last finished */
	size_t first, last;
	size_t calls;
};

static void after(void *ctx, size_t done)
{
	struct probe *p = ctx;

	p->calls++;
	if (done == p->first)
		p->at_first = heap_in_use();
	if (done == p->last)
		p->at_last = heap_in_use();
}

/* Verify the fabric through the stream; the heap is sampled after devices `first` and
 * `last` finished; returns the heap in use once the run is printed (fleet not freed). */
static size_t verify_as(struct fabric *fb, enum rc_stream_format fmt, unsigned parallel,
			struct probe *p, struct rc_stream_totals *t)
{
	struct rc_run_opts opts = {.root = "/", .dry_run = true};
	struct rc_err err = {0};
	struct rc_fleet fl;
	FILE *out = fopen("/dev/null", "w");
	size_t heap;

	assert_non_null(out);
	assert_int_equal(rc_fleet_init(&fl, &fb->inv, &fb->pol, &opts, NULL, parallel, &err), 0);
	fl.progress = false;
	fl.disconnect_after_read = true;
	assert_int_equal(
	    rc_stream_verify_as(&fl, &(struct rc_stream_opts){.fmt = fmt}, out, t, after, p, &err),
	    0);
	heap = heap_in_use();
	rc_fleet_fini(&fl);
	fclose(out);
	return heap;
}

static size_t verify(struct fabric *fb, unsigned parallel, struct probe *p,
		     struct rc_stream_totals *t)
{
	return verify_as(fb, RC_STREAM_JSONL, parallel, p, t);
}

/* After each finished device the heap stays flat: the 900 devices finished between the
 * 100th and the 1000th leave at most 8 KB each behind (in fact nothing: the briefs are
 * allocated before the first read). */
static void test_heap_flat_as_devices_finish(void **state)
{
	struct fabric fb;
	struct rc_stream_totals t;
	struct probe p = {.first = 100, .last = 1000};
	double per_dev;

	(void)state;
	make_fabric(&fb, 1000 - LEAVES);
	verify(&fb, 1, &p, &t);
	assert_int_equal(p.calls, 1000);
	assert_int_equal(t.devices, 1000);
	assert_int_equal(t.failed, 0);
	assert_true(t.with_changes == 1000); /* factory state: every device drifts */
	assert_int_equal(t.links, 2 * (1000 - LEAVES));
	assert_int_equal(t.hosts, 1000 - LEAVES);
	per_dev = ((double)p.at_last - (double)p.at_first) / 900.0;
	print_message("heap growth after each finished device: %.0f bytes\n", per_dev);
	assert_true(per_dev <= MAX_BOUND_PER_DEV);
	free_fabric(&fb);
}

/* The same for `verify --format prometheus` (what the timers run): every family's samples
 * are spooled to disk as devices finish, so the heap stays as flat as jsonl's. */
static void test_heap_flat_prometheus(void **state)
{
	struct fabric fb;
	struct rc_stream_totals t;
	struct probe p = {.first = 100, .last = 1000};
	double per_dev;

	(void)state;
	make_fabric(&fb, 1000 - LEAVES);
	verify_as(&fb, RC_STREAM_PROMETHEUS, 1, &p, &t);
	assert_int_equal(p.calls, 1000);
	assert_int_equal(t.devices, 1000);
	assert_true(t.with_changes == 1000);
	assert_int_equal(t.links, 2 * (1000 - LEAVES));
	per_dev = ((double)p.at_last - (double)p.at_first) / 900.0;
	print_message("prometheus: heap growth after each finished device: %.0f bytes\n", per_dev);
	assert_true(per_dev <= MAX_BOUND_PER_DEV);
	free_fabric(&fb);
}

/* And for the default text report (the devices' findings grouped as they finish, a bitmap
 * of the fabric's devices per kind of finding), JSON (each device's object spooled to disk,
 * 16 bytes of offsets a device) and DOT (each device's tooltip spooled to disk, 18 bytes a
 * device and 4 a link end, all allocated before the first read): no device kept. */
static void heap_flat(enum rc_stream_format fmt, const char *name)
{
	struct fabric fb;
	struct rc_stream_totals t;
	struct probe p = {.first = 100, .last = 1000};
	double per_dev;

	make_fabric(&fb, 1000 - LEAVES);
	verify_as(&fb, fmt, 1, &p, &t);
	assert_int_equal(p.calls, 1000);
	assert_int_equal(t.devices, 1000);
	assert_true(t.with_changes == 1000);
	per_dev = ((double)p.at_last - (double)p.at_first) / 900.0;
	print_message("%s: heap growth after each finished device: %.0f bytes\n", name, per_dev);
	assert_true(per_dev <= MAX_BOUND_PER_DEV);
	free_fabric(&fb);
}

static void test_heap_flat_text(void **state)
{
	(void)state;
	heap_flat(RC_STREAM_TEXT, "text");
}

static void test_heap_flat_json(void **state)
{
	(void)state;
	heap_flat(RC_STREAM_JSON, "json");
}

static void test_heap_flat_dot(void **state)
{
	(void)state;
	heap_flat(RC_STREAM_DOT, "dot");
}

/* What a run holds at its end, per device of the fabric, from 100 to 1000 devices and at
 * the default parallelism: the fleet's entry, the briefs, no report. */
static void test_heap_per_device_100_vs_1000(void **state)
{
	struct fabric small, big;
	struct rc_stream_totals t;
	struct probe p = {0};
	size_t base, h100, h1000;
	double slope;

	(void)state;
	base = heap_in_use();
	make_fabric(&small, 100 - LEAVES);
	h100 = verify(&small, RC_FLEET_DEFAULT_PARALLEL, &p, &t) - base;
	assert_int_equal(t.devices, 100);
	free_fabric(&small);
	base = heap_in_use();
	make_fabric(&big, 1000 - LEAVES);
	h1000 = verify(&big, RC_FLEET_DEFAULT_PARALLEL, &p, &t) - base;
	assert_int_equal(t.devices, 1000);
	free_fabric(&big);
	slope = ((double)h1000 - (double)h100) / 900.0;
	print_message("heap at the end of verify: 100 devices %zu KB, 1000 devices %zu KB, "
		      "%.0f bytes per device\n",
		      h100 / 1024, h1000 / 1024, slope);
	assert_true(slope <= MAX_BOUND_PER_DEV);
}

/* ---- the brief keeps the checks' verdicts ---- */

static uint64_t rnd_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

/* A port whose every field the checks read takes one of two values, so that pairs agree
 * and disagree field by field. */
static void random_port(struct port_qos *q)
{
	memset(q, 0, sizeof(*q));
	q->known = (uint32_t)(rnd() & RC_F_ALL) | (rnd() % 4 ? RC_F_ALL : 0);
	q->unsupported = rnd() % 5 ? 0 : (uint32_t)(rnd() & RC_F_ALL);
	q->trust = rnd() % 2 ? RC_TRUST_DSCP : RC_TRUST_PCP;
	q->dscp_mask = rnd() % 6 ? ~0ull : rnd();
	for (int d = 0; d < RC_NDSCP; d++)
		q->dscp2prio[d] = (uint8_t)(rnd() % 2 ? 3 : rnd() % 8);
	q->pfc_enabled = (uint8_t)(rnd() % 2 ? 1u << 3 : rnd());
	q->mtu = rnd() % 2 ? 9216 : 9000;
	q->ecn_tc_mask = (uint8_t)(rnd() % 4 ? 0xff : rnd());
	for (int t = 0; t < RC_NTC; t++) {
		q->ecn[t].enabled = rnd() % 3 != 0;
		q->ecn[t].kmin_bytes = rnd() % 2 ? 150000 : 159744 + rnd() % 100000;
		q->ecn[t].kmax_bytes = rnd() % 2 ? 1500000 : 1048576;
		q->ecn[t].pmax_pct = 100;
	}
}

static void roundtrip(const struct rc_policy *pol, const struct port_qos *q, struct port_qos *out)
{
	struct rc_port_brief b;

	rc_port_brief_make(pol, q, &b);
	rc_port_brief_expand(pol, &b, out);
}

static void assert_same_mismatches(const struct rc_mismatch *a, const struct rc_mismatch *b,
				   size_t n)
{
	for (size_t i = 0; i < n; i++) {
		assert_string_equal(a[i].field, b[i].field);
		assert_string_equal(a[i].a_value, b[i].a_value);
		assert_string_equal(a[i].b_value, b[i].b_value);
		assert_string_equal(a[i].a_where, b[i].a_where);
		assert_string_equal(a[i].b_where, b[i].b_where);
	}
}

static void test_brief_keeps_verdicts(void **state)
{
	struct fabric fb;
	struct rc_link_check *full = malloc(sizeof(*full)), *brief = malloc(sizeof(*brief));
	struct rc_host_check *hfull = malloc(sizeof(*hfull)), *hbrief = malloc(sizeof(*hbrief));
	struct port_qos a, b, c, ea, eb, ec;
	size_t statuses[3] = {0};

	(void)state;
	assert_non_null(full);
	assert_non_null(brief);
	assert_non_null(hfull);
	assert_non_null(hbrief);
	make_fabric(&fb, 8);
	for (int i = 0; i < 5000; i++) {
		size_t li = (size_t)i % fb.inv.n_links;

		random_port(&a);
		random_port(&b);
		random_port(&c);
		roundtrip(&fb.pol, &a, &ea);
		roundtrip(&fb.pol, &b, &eb);
		roundtrip(&fb.pol, &c, &ec);
		rc_check_link_ends(&fb.pol, &fb.inv, li, &a, &b, full);
		rc_check_link_ends(&fb.pol, &fb.inv, li, &ea, &eb, brief);
		assert_int_equal(full->status, brief->status);
		assert_int_equal(full->n, brief->n);
		assert_same_mismatches(full->v, brief->v, full->n);
		statuses[full->status]++;

		rc_host_check_begin(hfull, 9);
		rc_host_check_begin(hbrief, 9);
		rc_host_check_side(hfull, &fb.pol, &a, "leaf01:swp1");
		rc_host_check_side(hbrief, &fb.pol, &ea, "leaf01:swp1");
		rc_host_check_side(hfull, &fb.pol, &b, "leaf02:swp1");
		rc_host_check_side(hbrief, &fb.pol, &eb, "leaf02:swp1");
		rc_host_check_side(hfull, &fb.pol, i % 7 ? &c : NULL, "leaf03:swp1");
		rc_host_check_side(hbrief, &fb.pol, i % 7 ? &ec : NULL, "leaf03:swp1");
		assert_true(rc_host_check_end(hfull));
		assert_true(rc_host_check_end(hbrief));
		assert_int_equal(hfull->status, hbrief->status);
		assert_int_equal(hfull->n, hbrief->n);
		assert_same_mismatches(hfull->v, hbrief->v, hfull->n);
	}
	/* the random ports exercised every verdict */
	assert_true(statuses[RC_CHECK_OK] > 0);
	assert_true(statuses[RC_CHECK_MISMATCH] > 0);
	assert_true(statuses[RC_CHECK_UNKNOWN] > 0);
	free(full);
	free(brief);
	free(hfull);
	free(hbrief);
	free_fabric(&fb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_brief_keeps_verdicts),
	    cmocka_unit_test(test_heap_flat_as_devices_finish),
	    cmocka_unit_test(test_heap_flat_prometheus),
	    cmocka_unit_test(test_heap_flat_text),
	    cmocka_unit_test(test_heap_flat_json),
	    cmocka_unit_test(test_heap_flat_dot),
	    cmocka_unit_test(test_heap_per_device_100_vs_1000),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
