/* SPDX-License-Identifier: Apache-2.0 */
/* A scripted driver for unit tests of the transaction (engine/run/devrun.c) and the fleet
 * executor (engine/run/fleet.c): no root, no lab, no network.
 *
 * Each fake device holds a port_qos per port in memory.  read() returns it, apply() makes
 * the written ports equal to what was asked, and every operation can be told to fail at
 * its Nth call, so that a test can break the transaction at each step and look at what
 * the device was left with.  Every open/read/apply is appended to one log under a lock
 * (the fleet calls from its worker threads), which lets a test check the order of
 * devices across tiers.
 *
 * A device uses it when its `driver` is "fake" (struct rc_device.driver). */
#ifndef ROCECTL_FAKE_DRIVER_H
#define ROCECTL_FAKE_DRIVER_H

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/driver.h"

#define FAKE_MAX_DEVS  8
#define FAKE_MAX_PORTS 4
#define FAKE_LOG_MAX   256

struct fake_dev {
	char name[RC_NAME_MAX];
	size_t n_ports;
	struct rc_port_state ports[FAKE_MAX_PORTS]; /* the device's state */
	/* Script: fail the Nth call (1-based; 0 = never) with -EIO. */
	int fail_open;
	int fail_read_at;
	int fail_apply_at;
	int fail_apply_from;  /* this call and every later one */
	int partial_apply_at; /* the Nth apply writes the first port of its batch, then fails */
	int ignore_apply_at;  /* the Nth apply returns 0 but changes nothing */
	/* A native snapshot and restore (driver.h snapshot/restore_native), when `native`: the
	 * device keeps its snapshot, and restore puts back everything, `hidden` included. */
	bool native;
	/* A setting the values do not show, as EOS's `random-detect ecn count`: an apply that
	 * writes a marking ECN queue turns it on (drivers/switch/eos_ops.c, w_ecn_count). */
	bool hidden[FAKE_MAX_PORTS];
	/* After the Nth native restore, the device is again as the first apply left it: a
	 * command of an interrupted run that the device ran late. */
	int late_after_native;
	/* What happened. */
	int n_open, n_read, n_apply, n_close, n_native;
	/* The device's own copies (native snapshot; state after the first apply). */
	struct rc_port_state snap[FAKE_MAX_PORTS], late[FAKE_MAX_PORTS];
	bool snap_hidden[FAKE_MAX_PORTS], late_hidden[FAKE_MAX_PORTS], have_late;
};

struct fake_world {
	pthread_mutex_t lock;
	size_t n;
	struct fake_dev dev[FAKE_MAX_DEVS];
	size_t n_log;
	char log[FAKE_LOG_MAX][2 * RC_NAME_MAX]; /* "apply leaf01", "read gpu001", ... */
};

static struct fake_world fake = {.lock = PTHREAD_MUTEX_INITIALIZER};

struct rc_session {
	struct fake_dev *d;
};

/* Not thread-safe: tests reset between runs. */
static inline void fake_reset(void)
{
	fake.n = 0;
	fake.n_log = 0;
	memset(fake.dev, 0, sizeof(fake.dev));
}

/* A port at factory defaults: trust pcp, no PFC, nothing mapped; every group known. */
static inline void fake_factory_port(struct rc_port_state *p, const char *name)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->qos.known = RC_F_ALL;
	p->qos.trust = RC_TRUST_PCP;
	p->qos.dscp_mask = ~0ull;
	p->qos.prio_mask = 0xff;
	p->qos.ecn_tc_mask = 0xff;
	p->qos.headroom_mask = 0xff;
	p->qos.ets.tc_mask = 0xff;
	p->qos.nic_ecn_prio_mask = 0xff;
	p->qos.mtu = 9216;
	p->qos.speed_gbps = 100;
}

static inline struct fake_dev *fake_add(const char *name, const char *const *ports, size_t n)
{
	struct fake_dev *d = &fake.dev[fake.n++];

	snprintf(d->name, sizeof(d->name), "%s", name);
	d->n_ports = n;
	for (size_t i = 0; i < n; i++)
		fake_factory_port(&d->ports[i], ports[i]);
	return d;
}

static inline struct fake_dev *fake_find(const char *name)
{
	for (size_t i = 0; i < fake.n; i++)
		if (!strcmp(fake.dev[i].name, name))
			return &fake.dev[i];
	return NULL;
}

static inline struct rc_port_state *fake_port(struct fake_dev *d, const char *port)
{
	for (size_t i = 0; i < d->n_ports; i++)
		if (!strcmp(d->ports[i].name, port))
			return &d->ports[i];
	return NULL;
}

static inline void fake_log(const char *op, const struct fake_dev *d)
{
	if (fake.n_log < FAKE_LOG_MAX)
		snprintf(fake.log[fake.n_log++], sizeof(fake.log[0]), "%s %s", op, d->name);
}

/* Index of the first log line equal to "op device", or -1. */
static inline int fake_log_index(const char *op, const char *device)
{
	char want[2 * RC_NAME_MAX];

	snprintf(want, sizeof(want), "%s %s", op, device);
	for (size_t i = 0; i < fake.n_log; i++)
		if (!strcmp(fake.log[i], want))
			return (int)i;
	return -1;
}

static inline bool fake_hits(int n, int at)
{
	return at > 0 && n == at;
}

static int fake_open(const struct rc_device *dev, const struct rc_run_opts *opts,
		     struct rc_session **out, struct rc_err *err)
{
	struct fake_dev *d;
	int rc = 0;

	(void)opts;
	*out = NULL;
	pthread_mutex_lock(&fake.lock);
	d = fake_find(dev->name);
	if (d) {
		d->n_open++;
		fake_log("open", d);
		if (fake_hits(d->n_open, d->fail_open))
			rc = rc_errf(err, EHOSTUNREACH, "'%s': scripted open failure", d->name);
	} else {
		rc = rc_errf(err, ENODEV, "'%s': no such fake device", dev->name);
	}
	pthread_mutex_unlock(&fake.lock);
	if (rc)
		return rc;
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return rc_errf(err, ENOMEM, "out of memory");
	(*out)->d = d;
	return 0;
}

static int fake_ports(struct rc_session *s, char (**names)[RC_NAME_MAX], size_t *n,
		      struct rc_err *err)
{
	*names = calloc(s->d->n_ports ? s->d->n_ports : 1, sizeof(**names));
	if (!*names)
		return rc_errf(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < s->d->n_ports; i++)
		snprintf((*names)[i], sizeof((*names)[i]), "%s", s->d->ports[i].name);
	*n = s->d->n_ports;
	return 0;
}

static int fake_read(struct rc_session *s, struct rc_port_state *ports, size_t n,
		     struct rc_err *err)
{
	struct fake_dev *d = s->d;
	int rc = 0;

	pthread_mutex_lock(&fake.lock);
	d->n_read++;
	fake_log("read", d);
	if (fake_hits(d->n_read, d->fail_read_at))
		rc = rc_errf(err, EIO, "'%s': scripted read failure", d->name);
	for (size_t i = 0; !rc && i < n; i++) {
		const struct rc_port_state *p = fake_port(d, ports[i].name);

		if (!p)
			rc = rc_errf(err, ENOENT, "'%s': no port '%s'", d->name, ports[i].name);
		else
			ports[i].qos = p->qos;
	}
	pthread_mutex_unlock(&fake.lock);
	return rc;
}

/* The written groups become what was asked: the fake keeps whole port_qos values. */
static void fake_write_port(struct fake_dev *d, const struct rc_port_write *w)
{
	struct rc_port_state *p = fake_port(d, w->port);
	uint32_t speed, mtu;

	if (!p)
		return;
	speed = p->qos.speed_gbps;
	mtu = p->qos.mtu;
	p->qos = *w->want;
	p->qos.known = RC_F_ALL;
	p->qos.unsupported = 0;
	p->qos.headroom_is_min = false;
	p->qos.speed_gbps = speed; /* read-only on every platform */
	p->qos.mtu = mtu;
	for (int t = 0; t < RC_NTC; t++)
		if ((w->fields & RC_F_ECN) && w->want->ecn[t].enabled)
			d->hidden[p - d->ports] = true;
}

static int fake_apply(struct rc_session *s, const struct rc_port_write *w, size_t n,
		      struct rc_err *err)
{
	struct fake_dev *d = s->d;
	int rc = 0;

	pthread_mutex_lock(&fake.lock);
	d->n_apply++;
	fake_log("apply", d);
	if (fake_hits(d->n_apply, d->partial_apply_at) && n)
		fake_write_port(d, &w[0]);
	if (fake_hits(d->n_apply, d->fail_apply_at) || fake_hits(d->n_apply, d->partial_apply_at) ||
	    (d->fail_apply_from > 0 && d->n_apply >= d->fail_apply_from)) {
		rc = rc_errf(err, EIO, "'%s': scripted apply failure", d->name);
	} else if (!fake_hits(d->n_apply, d->ignore_apply_at)) {
		for (size_t i = 0; i < n; i++)
			fake_write_port(d, &w[i]);
	}
	if (!rc && !d->have_late) {
		memcpy(d->late, d->ports, sizeof(d->late));
		memcpy(d->late_hidden, d->hidden, sizeof(d->late_hidden));
		d->have_late = true;
	}
	pthread_mutex_unlock(&fake.lock);
	return rc;
}

static int fake_snapshot(struct rc_session *s, char **blob, struct rc_err *err)
{
	struct fake_dev *d = s->d;

	*blob = NULL;
	if (!d->native)
		return 0;
	pthread_mutex_lock(&fake.lock);
	memcpy(d->snap, d->ports, sizeof(d->snap));
	memcpy(d->snap_hidden, d->hidden, sizeof(d->snap_hidden));
	pthread_mutex_unlock(&fake.lock);
	*blob = strdup("fake-native");
	return *blob ? 0 : rc_errf(err, ENOMEM, "out of memory");
}

static int fake_restore_native(struct rc_session *s, const char *blob, struct rc_err *err)
{
	struct fake_dev *d = s->d;

	if (!blob || strcmp(blob, "fake-native"))
		return rc_errf(err, EPROTO, "'%s': not a fake snapshot", d->name);
	pthread_mutex_lock(&fake.lock);
	d->n_native++;
	fake_log("restore-native", d);
	memcpy(d->ports, d->snap, sizeof(d->ports));
	memcpy(d->hidden, d->snap_hidden, sizeof(d->hidden));
	if (fake_hits(d->n_native, d->late_after_native) && d->have_late) {
		memcpy(d->ports, d->late, sizeof(d->ports));
		memcpy(d->hidden, d->late_hidden, sizeof(d->hidden));
	}
	pthread_mutex_unlock(&fake.lock);
	return 0;
}

static void fake_close(struct rc_session *s)
{
	if (!s)
		return;
	pthread_mutex_lock(&fake.lock);
	s->d->n_close++;
	pthread_mutex_unlock(&fake.lock);
	free(s);
}

static const struct rc_driver fake_driver = {
    .name = "fake",
    .open = fake_open,
    .ports = fake_ports,
    .read = fake_read,
    .apply = fake_apply,
    .close = fake_close,
    .snapshot = fake_snapshot,
    .restore_native = fake_restore_native,
};

RC_DRIVER_REGISTER(fake_driver)

#endif
