/* SPDX-License-Identifier: Apache-2.0 */
/* verify --format dot made while devices are read (engine/report/stream_dot.c) draws the
 * picture rc_report_dot draws from the whole read fleet, byte for byte.
 *
 * A small fabric of fake devices (driver "dotfake": each port reads as the policy wants it,
 * then a device's or a port's scripted fault) is read twice: once whole, its result drawn by
 * rc_report_dot; once through the stream with four workers, so that devices finish out of
 * inventory order.  The faults give every kind of node and edge: devices not read, drifted
 * ports (more tooltip lines than a node shows), links whose ends disagree or cannot be read,
 * hosts whose switch sides differ or cannot be read, a host with one link, one with none, a
 * name that must be escaped, and a host outside --limit. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rocectl/desired.h"
#include "rocectl/driver.h"
#include "rocectl/fleet.h"
#include "rocectl/result.h"
#include "rocectl/stream.h"
#include "testutil.h"

#define N_SPINE	  2
#define N_LEAF	  4
#define N_HOST	  14 /* 12 dual-homed, one with one link, one with none */
#define N_DEV	  (N_SPINE + N_LEAF + N_HOST)
#define N_LINK	  (N_LEAF * N_SPINE + 12 * 2 + 1)
#define MAX_PORTS 16

static struct world {
	struct rc_policy pol;
	struct rc_inventory inv;
	struct rc_device dev[N_DEV];
	struct rc_link links[N_LINK];
	char ports[N_DEV][MAX_PORTS][RC_NAME_MAX];
} w;

/* ---- the driver ---- */

struct rc_session {
	size_t dev; /* inventory index */
};

/* Not read at all: a leaf and a host (and gpu014, which has no port to read). */
static bool fails_open(const char *name)
{
	return !strcmp(name, "leaf03") || !strcmp(name, "gpu004");
}

static int dot_open(const struct rc_device *dev, const struct rc_run_opts *opts,
		    struct rc_session **out, struct rc_err *err)
{
	(void)opts;
	if (fails_open(dev->name))
		return rc_errf(err, EHOSTUNREACH, "'%s': connection refused", dev->name);
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return rc_errf(err, ENOMEM, "out of memory");
	(*out)->dev = (size_t)(dev - w.inv.devices);
	return 0;
}

/* The policy's port, then the fault of the device or port, if any. */
static int dot_read(struct rc_session *s, struct rc_port_state *ports, size_t n, struct rc_err *err)
{
	const struct rc_device *dev = &w.inv.devices[s->dev];

	for (size_t i = 0; i < n; i++) {
		struct port_qos *q = &ports[i].qos;
		const char *p = ports[i].name;
		unsigned tc = w.pol.ecn.traffic_class;

		if (rc_desired_port(&w.pol, &w.inv, s->dev, p, dev->kind, 400, q, err))
			return -EINVAL;
		if (!strcmp(dev->name, "spine01")) { /* factory: every field drifts */
			memset(q, 0, sizeof(*q));
			q->known = RC_F_ALL;
			q->trust = RC_TRUST_PCP;
			q->dscp_mask = ~0ull;
			q->mtu = 9216;
		} else if (!strcmp(dev->name, "gpu002") && !strcmp(p, "enp12s0np0")) {
			q->dscp2prio[w.pol.roce_dscp] = 0; /* the link's ends disagree */
		} else if (!strcmp(dev->name, "leaf02") && !strcmp(p, "swp3")) {
			q->ecn[tc].kmin_bytes *= 2; /* gpu005's switch sides differ */
		} else if (!strcmp(dev->name, "leaf04") && !strcmp(p, "swp1")) {
			q->known &= ~(uint32_t)RC_F_PFC; /* unreadable: unknown */
		} else if (!strcmp(dev->name, "leaf02") && !strcmp(p, "swp8")) {
			q->trust = RC_TRUST_PCP; /* an uplink's ends disagree */
		}
	}
	return 0;
}

static int dot_apply(struct rc_session *s, const struct rc_port_write *wr, size_t n,
		     struct rc_err *err)
{
	(void)s;
	(void)wr;
	(void)n;
	return rc_errf(err, EROFS, "read-only");
}

static void dot_close(struct rc_session *s)
{
	free(s);
}

static const struct rc_driver dot_driver = {
    .name = "dotfake",
    .open = dot_open,
    .read = dot_read,
    .apply = dot_apply,
    .close = dot_close,
};

RC_DRIVER_REGISTER(dot_driver)

/* ---- the fabric ---- */

static size_t add_dev(const char *name, enum rc_role role)
{
	size_t i = w.inv.n_devices++;
	struct rc_device *d = &w.dev[i];

	snprintf(d->name, sizeof(d->name), "%s", name);
	snprintf(d->driver, sizeof(d->driver), "dotfake");
	d->role = role;
	d->kind = role == RC_ROLE_HOST ? RC_DEV_HOST : RC_DEV_SWITCH;
	d->platform = role == RC_ROLE_HOST ? RC_PLAT_HOST : RC_PLAT_NVUE;
	d->ports = w.ports[i];
	return i;
}

static const char *add_port(size_t dev, const char *fmt, size_t k)
{
	struct rc_device *d = &w.dev[dev];

	assert_true(d->n_ports < MAX_PORTS);
	snprintf(d->ports[d->n_ports], RC_NAME_MAX, fmt, k);
	return d->ports[d->n_ports++];
}

static void add_link(size_t a, const char *ap, size_t b, const char *bp)
{
	struct rc_link *l = &w.links[w.inv.n_links++];

	assert_true(w.inv.n_links <= N_LINK);
	l->a.dev = a;
	snprintf(l->a.port, RC_NAME_MAX, "%s", ap);
	l->b.dev = b;
	snprintf(l->b.port, RC_NAME_MAX, "%s", bp);
	l->speed_gbps = 400;
	l->cable_length_m = 3;
}

/* Spines first, then leaves, then hosts: host h's NIC k on leaf (h + k) % N_LEAF; the
 * leaves' uplinks after their host ports. */
static void make_world(void)
{
	struct rc_warnings warn = {0};
	struct rc_err err = {0};
	size_t spine[N_SPINE], leaf[N_LEAF];
	char path[4096], name[RC_NAME_MAX];

	memset(&w, 0, sizeof(w));
	rc_test_path(path, sizeof(path), "policies/roce-lossless.yaml");
	assert_int_equal(rc_policy_load(path, &w.pol, &warn, &err), 0);
	w.inv.devices = w.dev;
	w.inv.links = w.links;
	for (size_t s = 0; s < N_SPINE; s++) {
		snprintf(name, sizeof(name), "spine%02zu", s + 1);
		spine[s] = add_dev(name, RC_ROLE_SPINE);
	}
	for (size_t l = 0; l < N_LEAF; l++) {
		snprintf(name, sizeof(name), "leaf%02zu", l + 1);
		leaf[l] = add_dev(name, RC_ROLE_LEAF);
	}
	for (size_t h = 0; h < N_HOST; h++) {
		size_t nics = h < 12 ? 2 : h == 12 ? 1 : 0;
		size_t d;

		if (h == 5) /* a quote and backslashes: escaped in the spooled tooltip too */
			snprintf(name, sizeof(name), "gpu\"0\\6\\");
		else
			snprintf(name, sizeof(name), "gpu%03zu", h + 1);
		d = add_dev(name, RC_ROLE_HOST);
		for (size_t k = 0; k < nics; k++) {
			size_t lf = leaf[(h + k) % N_LEAF];
			const char *hp = add_port(d, "enp%zus0np0", 12 + k);

			add_link(d, hp, lf, add_port(lf, "swp%zu", w.dev[lf].n_ports + 1));
		}
	}
	for (size_t l = 0; l < N_LEAF; l++)
		for (size_t s = 0; s < N_SPINE; s++)
			add_link(leaf[l], add_port(leaf[l], "swp%zu", w.dev[leaf[l]].n_ports + 1),
				 spine[s],
				 add_port(spine[s], "swp%zu", w.dev[spine[s]].n_ports + 1));
	assert_int_equal(w.inv.n_devices, N_DEV);
	assert_int_equal(w.inv.n_links, N_LINK);
}

/* The whole read fleet's counts, as the whole-fleet verify makes its exit code. */
static void count_checks(const struct rc_result *r, struct rc_stream_totals *t)
{
	memset(t, 0, sizeof(*t));
	t->links = r->n_links;
	t->hosts = r->n_hosts;
	for (size_t i = 0; i < r->n_links; i++)
		t->bad_links += r->links[i].status != RC_CHECK_OK;
	for (size_t i = 0; i < r->n_hosts; i++)
		t->bad_hosts += r->hosts[i].status != RC_CHECK_OK;
}

/* The picture, malloc'd: the stream's (four workers), or rc_report_dot of the whole read
 * fleet (one); its checks counted in `t`. */
static char *picture(const char *limit, bool stream, struct rc_stream_totals *t)
{
	struct rc_run_opts opts = {.root = "/", .dry_run = true};
	struct rc_err err = {0};
	struct rc_fleet fl;
	struct rc_result r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(rc_fleet_init(&fl, &w.inv, &w.pol, &opts, limit, stream ? 4 : 1, &err), 0);
	fl.progress = false;
	fl.disconnect_after_read = stream;
	if (stream) {
		assert_int_equal(rc_stream_verify_as(&fl,
						     &(struct rc_stream_opts){.fmt = RC_STREAM_DOT},
						     f, t, NULL, NULL, &err),
				 0);
	} else {
		rc_fleet_read(&fl);
		assert_int_equal(rc_result_build(&r, &fl, &err), 0);
		rc_report_dot(f, &r);
		count_checks(&r, t);
		rc_result_fini(&r);
	}
	rc_fleet_fini(&fl);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void assert_same(const char *want, const char *got)
{
	size_t i = 0;

	while (want[i] && want[i] == got[i])
		i++;
	if (want[i] != got[i])
		fail_msg(
		    "the stream's picture differs at byte %zu:\nwhole:  %.160s\nstream: %.160s", i,
		    want + i, got + i);
}

static void same_picture(const char *limit)
{
	struct rc_stream_totals tw, ts;
	char *want, *got;

	make_world();
	want = picture(limit, false, &tw);
	got = picture(limit, true, &ts);
	/* the faults drew every kind of statement */
	assert_non_null(strstr(want, "color=\"darkgreen\""));
	assert_non_null(strstr(want, "color=\"orange\""));
	assert_non_null(strstr(want, "style=\"dashed\""));
	assert_non_null(strstr(want, "not read: 'leaf03': connection refused"));
	assert_non_null(strstr(want, "\\n... and "));
	assert_non_null(strstr(want, "switch sides differ"));
	assert_non_null(strstr(want, "a switch side could not be read"));
	assert_non_null(strstr(want, "an end could not be read"));
	assert_non_null(strstr(want, "has 1 drifted field"));
	assert_non_null(strstr(want, "\"cluster_hosts_\""));
	assert_non_null(strstr(want, "lhead="));
	assert_non_null(strstr(want, "trust: pcp (leaf02:swp8) vs dscp (spine02:swp2)"));
	assert_non_null(strstr(want, "\"gpu\\\"0\\\\6\\\\\""));
	assert_same(want, got);
	assert_int_equal(ts.links, tw.links);
	assert_int_equal(ts.bad_links, tw.bad_links);
	assert_int_equal(ts.hosts, tw.hosts);
	assert_int_equal(ts.bad_hosts, tw.bad_hosts);
	assert_int_equal(ts.devices, N_DEV - (limit ? 1 : 0));
	assert_int_equal(ts.failed, 3);
	free(want);
	free(got);
}

static void test_same_picture(void **state)
{
	(void)state;
	same_picture(NULL);
}

/* gpu001 outside --limit: its links are not judged and the first host of leaf01's and
 * leaf02's clusters is another. */
static void test_same_picture_limited(void **state)
{
	(void)state;
	same_picture("!gpu001");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_same_picture),
	    cmocka_unit_test(test_same_picture_limited),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
