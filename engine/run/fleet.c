/* SPDX-License-Identifier: Apache-2.0 */
/* The fleet executor: a fixed pool of worker threads taking devices from a shared index.
 * Everything a worker touches belongs to its device (struct rc_fleet_dev), so the only
 * shared state is the next-index counter and the progress tally, all under one lock. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rocectl/deadline.h"
#include "rocectl/fleet.h"
#include "rocectl/lldp.h"
#include "rocectl/units.h"
#include "rocectl/util.h"

/* Progress on stderr: on a terminal one line redrawn as devices finish; elsewhere (a timer's
 * journal) a line every interval, from a thread of its own so that it comes even while
 * every worker waits on a device that hangs. */
enum progress {
	PROGRESS_NONE = 0,
	PROGRESS_TTY,
	PROGRESS_LINES,
};

#define PROGRESS_INTERVAL_MS_DEFAULT 5000

/* What a worker is on, for the slowest device still being worked on. */
struct slot {
	bool busy;
	size_t i;
	struct timespec start;
};

struct pool {
	size_t n;
	size_t next;
	size_t done, failed;
	int (*work)(void *ctx, size_t i);
	const char *(*name)(void *ctx, size_t i); /* NULL: items have no names */
	void *ctx;
	enum progress progress;
	uint64_t interval_ms;
	pthread_mutex_t lock;
	pthread_cond_t wake; /* the ticker's: the work is over */
	bool over;
	struct timespec start;
	/* the slowest item finished so far */
	bool have_slowest;
	size_t slowest_i;
	double slowest_s;
	size_t n_slots;
	struct slot *slots;
};

struct worker_arg {
	struct pool *p;
	size_t slot;
};

static double seconds_between(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

static double elapsed_s(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return seconds_between(start, &now);
}

static void progress_tty(struct pool *p)
{
	if (p->progress != PROGRESS_TTY)
		return;
	fprintf(stderr, "\r\033[K[%zu/%zu] devices done, %zu failed, %.1fs", p->done, p->n,
		p->failed, elapsed_s(&p->start));
	fflush(stderr);
}

/* One line for a journal: how far, how many failed, and the slowest device so far, finished
 * or (when it has taken longer) still being worked on.  Under the pool's lock. */
static void progress_line(struct pool *p)
{
	struct timespec now;
	bool running = false, any = p->have_slowest;
	double slowest = p->slowest_s;
	size_t at = p->slowest_i;
	const char *name;

	clock_gettime(CLOCK_MONOTONIC, &now);
	for (size_t k = 0; k < p->n_slots; k++) {
		double s = seconds_between(&p->slots[k].start, &now);

		if (p->slots[k].busy && (!any || s > slowest)) {
			any = running = true;
			slowest = s;
			at = p->slots[k].i;
		}
	}
	fprintf(stderr, "rocectl: [%zu/%zu] devices done, %zu failed, %.1fs", p->done, p->n,
		p->failed, seconds_between(&p->start, &now));
	name = any && p->name ? p->name(p->ctx, at) : NULL;
	if (name)
		fprintf(stderr, "; slowest %s %.1fs%s", name, slowest,
			running ? " (still running)" : "");
	fputc('\n', stderr);
	fflush(stderr);
}

static void *ticker(void *arg)
{
	struct pool *p = arg;
	struct timespec next = p->start, now;

	pthread_mutex_lock(&p->lock);
	while (!p->over) {
		next.tv_sec += (time_t)(p->interval_ms / 1000);
		next.tv_nsec += (long)(p->interval_ms % 1000) * 1000000L;
		if (next.tv_nsec >= 1000000000L) {
			next.tv_sec++;
			next.tv_nsec -= 1000000000L;
		}
		do {
			pthread_cond_timedwait(&p->wake, &p->lock, &next);
			clock_gettime(CLOCK_MONOTONIC, &now);
		} while (!p->over && seconds_between(&now, &next) > 0);
		if (!p->over)
			progress_line(p);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

static void *worker(void *arg)
{
	struct worker_arg *w = arg;
	struct pool *p = w->p;
	struct slot *me = &p->slots[w->slot];

	for (;;) {
		struct timespec end;
		double took;
		size_t i;
		int bad;

		pthread_mutex_lock(&p->lock);
		if (p->next >= p->n) {
			pthread_mutex_unlock(&p->lock);
			return NULL;
		}
		i = p->next++;
		me->busy = true;
		me->i = i;
		clock_gettime(CLOCK_MONOTONIC, &me->start);
		pthread_mutex_unlock(&p->lock);

		bad = p->work(p->ctx, i);

		pthread_mutex_lock(&p->lock);
		clock_gettime(CLOCK_MONOTONIC, &end);
		took = seconds_between(&me->start, &end);
		me->busy = false;
		if (!p->have_slowest || took > p->slowest_s) {
			p->have_slowest = true;
			p->slowest_s = took;
			p->slowest_i = i;
		}
		p->done++;
		if (bad)
			p->failed++;
		progress_tty(p);
		pthread_mutex_unlock(&p->lock);
	}
}

/* ROCECTL_PROGRESS_INTERVAL: seconds ("5") or a duration ("500ms", "2s"); 0 = no lines. */
static uint64_t progress_interval_ms(void)
{
	const char *env = getenv("ROCECTL_PROGRESS_INTERVAL"), *why = NULL;
	uint64_t v;

	if (!env || !*env)
		return PROGRESS_INTERVAL_MS_DEFAULT;
	if (!rc_parse_u64(env, 10, 0, 86400, &v))
		return v * 1000;
	if (!rc_parse_duration(env, &v, &why))
		return v / 1000 ? v / 1000 : 1;
	fprintf(stderr,
		"rocectl: warning: ROCECTL_PROGRESS_INTERVAL '%s' is not seconds or a duration "
		"(%s); using 5s\n",
		env, why ? why : "?");
	return PROGRESS_INTERVAL_MS_DEFAULT;
}

static void pool_progress(struct pool *p, bool show)
{
	if (!show)
		return;
	if (isatty(STDERR_FILENO)) {
		p->progress = PROGRESS_TTY;
		return;
	}
	p->interval_ms = progress_interval_ms();
	p->progress = p->interval_ms ? PROGRESS_LINES : PROGRESS_NONE;
}

static size_t pool_run(unsigned parallel, bool show_progress, size_t n,
		       int (*work)(void *ctx, size_t i), const char *(*name)(void *ctx, size_t i),
		       void *ctx)
{
	struct pool p = {.n = n, .work = work, .name = name, .ctx = ctx};
	size_t nthreads = parallel < n ? parallel : n;
	struct slot here = {0};
	pthread_condattr_t ca;
	struct worker_arg *args;
	pthread_t *tids, tick;
	size_t started = 0;
	bool ticking = false;

	if (n == 0)
		return 0;
	pool_progress(&p, show_progress);
	pthread_mutex_init(&p.lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&p.wake, &ca);
	pthread_condattr_destroy(&ca);
	clock_gettime(CLOCK_MONOTONIC, &p.start);
	nthreads = nthreads ? nthreads : 1;
	tids = calloc(nthreads, sizeof(*tids));
	args = calloc(nthreads, sizeof(*args));
	p.slots = calloc(nthreads, sizeof(*p.slots));
	p.n_slots = nthreads;
	if (!tids || !args || !p.slots) { /* out of memory: one worker, this thread */
		free(p.slots);
		p.slots = &here;
		p.n_slots = 1;
		nthreads = 0;
	}
	if (p.progress == PROGRESS_LINES)
		ticking = pthread_create(&tick, NULL, ticker, &p) == 0;
	for (size_t i = 0; i < nthreads; i++) {
		args[i] = (struct worker_arg){&p, i};
		if (pthread_create(&tids[i], NULL, worker, &args[i]) == 0)
			started++;
	}
	if (started == 0) /* no thread could start: do the work here */
		worker(&(struct worker_arg){&p, 0});
	for (size_t i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	pthread_mutex_lock(&p.lock);
	p.over = true;
	pthread_cond_signal(&p.wake);
	pthread_mutex_unlock(&p.lock);
	if (ticking)
		pthread_join(tick, NULL);
	if (p.progress == PROGRESS_TTY)
		fprintf(stderr, "\r\033[K");
	free(tids);
	free(args);
	if (p.slots != &here)
		free(p.slots);
	pthread_cond_destroy(&p.wake);
	pthread_mutex_destroy(&p.lock);
	return p.failed;
}

size_t rc_pool_run(unsigned parallel, bool show_progress, size_t n,
		   int (*work)(void *ctx, size_t i), void *ctx)
{
	return pool_run(parallel, show_progress, n, work, NULL, ctx);
}

size_t rc_pool_run_named(unsigned parallel, bool show_progress, size_t n,
			 int (*work)(void *ctx, size_t i), const char *(*name)(void *ctx, size_t i),
			 void *ctx)
{
	return pool_run(parallel, show_progress, n, work, name, ctx);
}

struct fleet_job {
	struct rc_fleet *f;
	size_t *order; /* device indices (into f->devs) to work on */
	void (*work)(struct rc_fleet *f, struct rc_fleet_dev *d);
};

static int fleet_job_one(void *ctx, size_t i)
{
	struct fleet_job *j = ctx;
	struct rc_fleet_dev *d = &j->f->devs[j->order[i]];

	j->work(j->f, d);
	return d->rc != 0;
}

static const char *fleet_job_name(void *ctx, size_t i)
{
	struct fleet_job *j = ctx;

	return j->f->inv->devices[j->f->devs[j->order[i]].index].name;
}

/* Run work() on the listed devices with at most f->parallel threads. */
static size_t run_pool(struct rc_fleet *f, size_t *order, size_t n,
		       void (*work)(struct rc_fleet *, struct rc_fleet_dev *))
{
	struct fleet_job j = {.f = f, .order = order, .work = work};

	return rc_pool_run_named(f->parallel, f->progress, n, fleet_job_one, fleet_job_name, &j);
}

/* Milliseconds since `start` (CLOCK_MONOTONIC), for a device's report. */
static uint32_t ms_since(const struct timespec *start)
{
	double ms = elapsed_s(start) * 1000.0;

	return ms <= 0 ? 0 : ms >= (double)UINT32_MAX ? UINT32_MAX : (uint32_t)(ms + 0.5);
}

int rc_fleet_init(struct rc_fleet *f, const struct rc_inventory *inv, const struct rc_policy *pol,
		  const struct rc_run_opts *opts, const char *limit, unsigned parallel,
		  struct rc_err *err)
{
	bool *sel;
	int rc;

	memset(f, 0, sizeof(*f));
	f->inv = inv;
	f->pol = pol;
	f->opts = *opts;
	f->parallel = parallel ? parallel : RC_FLEET_DEFAULT_PARALLEL;
	f->progress = true;
	f->devs = calloc(inv->n_devices ? inv->n_devices : 1, sizeof(*f->devs));
	sel = calloc(inv->n_devices ? inv->n_devices : 1, sizeof(*sel));
	if (!f->devs || !sel) {
		free(sel);
		return rc_errf(err, ENOMEM, "out of memory");
	}
	rc = rc_limit_select(inv, limit, sel, err);
	for (size_t i = 0; !rc && i < inv->n_devices; i++)
		if (sel[i])
			f->devs[f->n++].index = i;
	free(sel);
	if (rc)
		return rc;
	if (f->n == 0)
		return rc_errf(err, ENOENT, "no device selected");
	return 0;
}

/* How long one device's read phase (connect, read, diff, counters) may take: one connect
 * plus one command over SSH, two requests' timeouts over REST (the API is asked several
 * times; a retry after a 5xx must not add a whole timeout each).  A device that answers
 * each command just inside its timeout would otherwise hold the phase for many of them. */
uint32_t rc_fleet_read_deadline_ms(const struct rc_device *dev)
{
	uint64_t ms;

	switch (dev->transport) {
	case RC_TRANSPORT_SSH:
		ms = (uint64_t)(dev->ssh.connect_timeout_ms ? dev->ssh.connect_timeout_ms
							    : RC_SSH_CONNECT_TIMEOUT_MS_DEFAULT) +
		     (dev->ssh.command_timeout_ms ? dev->ssh.command_timeout_ms
						  : RC_SSH_COMMAND_TIMEOUT_MS_DEFAULT);
		break;
	case RC_TRANSPORT_REST:
		ms = 2 * (uint64_t)(dev->rest.timeout_ms ? dev->rest.timeout_ms
							 : RC_REST_TIMEOUT_MS_DEFAULT);
		break;
	default: /* the local agent: netlink and files, nothing that hangs on a peer */
		return 0;
	}
	return ms > UINT32_MAX ? UINT32_MAX : (uint32_t)ms;
}

static void read_one(struct rc_fleet *f, struct rc_fleet_dev *d)
{
	const struct rc_device *dev = &f->inv->devices[d->index];
	struct timespec start;
	int rc = 0;

	clock_gettime(CLOCK_MONOTONIC, &start);
	d->rc = 0;
	rc_deadline_set(rc_fleet_read_deadline_ms(dev));
	if (!d->opened) {
		rc = rc_devrun_open(&d->run, dev, d->index, &f->opts, NULL, 0, &d->err);
		d->opened = rc == 0;
	}
	if (!rc && f->hold_disruptive)
		d->run.hold_groups = d->run.drv->disruptive;
	if (!rc)
		rc = rc_devrun_read(&d->run, &d->err);
	if (!rc) {
		rc = rc_devrun_diff(&d->run, f->pol, f->inv, &d->err);
		if (rc >= 0) {
			d->n_changes = rc;
			rc = 0;
		}
	}
	d->rc = rc;
	/* counters are an addition to the report: a device that cannot give them is still
	 * judged on its configuration */
	if (!rc && f->read_counters && d->run.drv->counters) {
		struct rc_err cerr = {0};

		rc_counters_fini(&d->counters);
		if (d->run.drv->counters(d->run.sess, d->run.have, d->run.n_ports, &d->counters,
					 &cerr))
			rc_counters_fini(&d->counters);
	}
	if (f->read_neighbors && d->opened) {
		rc_lldp_dev_free(d->lldp);
		d->lldp = calloc(1, sizeof(*d->lldp));
		if (d->lldp)
			rc_lldp_read_session(dev, d->run.sess, d->lldp);
	}
	rc_deadline_clear();
	if (f->disconnect_after_read && d->opened) {
		rc_devrun_disconnect(&d->run);
		d->opened = false;
	}
	d->read_ms = ms_since(&start);
	if (f->on_read)
		f->on_read(f, d, f->on_read_ctx);
}

static size_t *all_indices(size_t n)
{
	size_t *v = malloc((n ? n : 1) * sizeof(*v));

	for (size_t i = 0; v && i < n; i++)
		v[i] = i;
	return v;
}

size_t rc_fleet_read(struct rc_fleet *f)
{
	size_t *order = all_indices(f->n), failed;

	if (!order)
		return f->n;
	/* set before the pool: every session opened by this read folds LLDP into it */
	f->opts.read_neighbors = f->read_neighbors;
	f->opts.read_counters = f->read_counters;
	failed = run_pool(f, order, f->n, read_one);
	free(order);
	return failed;
}

/* The apply order protects RoCE: no host may mark the RoCE DSCP towards a hop that does not
 * yet treat its priority lossless (switches first), and no hop may stop honouring the
 * priority RoCE is on while hosts still send on it (hosts first).  Only the priority RoCE
 * travels on decides: a device with extra lossless priorities (a factory SONiC leaf has
 * PORT_QOS_MAP pfc_enable "3,4", as in sonic-utilities'
 * tests/filter_fdb_input/config_db.json) losing them must not flip the order for the
 * whole fabric. */

/* The device gains lossless on the priority the policy puts RoCE on. */
static bool gains_roce_lossless(const struct port_qos *w, const struct port_qos *h, uint8_t dscp)
{
	uint8_t prio = w->dscp2prio[dscp];

	if (!(w->known & RC_F_PFC) || !(w->pfc_enabled & (1u << prio)))
		return false;
	return !(h->known & RC_F_PFC) || !(h->pfc_enabled & (1u << prio));
}

/* The priority RoCE is on now is lossless now, and stops being so or RoCE moves off it. */
static bool loses_roce_lossless(const struct port_qos *w, const struct port_qos *h, uint8_t dscp)
{
	uint8_t now;

	if (!(h->known & RC_F_PFC) || !(h->known & RC_F_DSCP2PRIO) ||
	    !(h->dscp_mask & (1ull << dscp)))
		return false;
	now = h->dscp2prio[dscp];
	if (!(h->pfc_enabled & (1u << now)))
		return false; /* RoCE is lossy today: nothing to protect */
	if ((w->known & RC_F_PFC) && !(w->pfc_enabled & (1u << now)))
		return true;
	return (w->known & RC_F_DSCP2PRIO) && (w->dscp_mask & (1ull << dscp)) &&
	       w->dscp2prio[dscp] != now;
}

bool rc_fleet_reverse_order(const struct rc_fleet *f)
{
	uint8_t dscp = f->pol->roce_dscp;
	bool gains = false, loses = false;

	for (size_t i = 0; i < f->n; i++) {
		const struct rc_devrun *r = &f->devs[i].run;

		if (f->devs[i].rc)
			continue; /* not read: it is not applied either */
		for (size_t p = 0; r->want && p < r->n_ports; p++) {
			gains |= gains_roce_lossless(&r->want[p].qos, &r->have[p].qos, dscp);
			loses |= loses_roce_lossless(&r->want[p].qos, &r->have[p].qos, dscp);
		}
	}
	/* switches first whenever anyone gains: a host must never mark ahead of its switch */
	return loses && !gains;
}

static void counters_one(struct rc_fleet *f, struct rc_fleet_dev *d)
{
	const struct rc_device *dev = &f->inv->devices[d->index];
	const char *name = rc_driver_name_for(dev);
	const struct rc_driver *drv = rc_driver_find(name);
	int rc;

	if (!drv) {
		d->rc = rc_errf(&d->err, ENOTSUP, "'%s': no driver '%s' in this build", dev->name,
				name);
		return;
	}
	if (!drv->counters) {
		d->no_counters = true;
		rc_errf(&d->err, EOPNOTSUPP, "'%s': the %s driver reads no counters", dev->name,
			drv->name);
		return;
	}
	rc = rc_devrun_open(&d->run, dev, d->index, &f->opts, NULL, 0, &d->err);
	d->opened = rc == 0;
	if (!rc)
		rc = drv->counters(d->run.sess, d->run.have, d->run.n_ports, &d->counters, &d->err);
	d->rc = rc;
	rc_devrun_disconnect(&d->run);
	d->opened = false;
}

size_t rc_fleet_counters(struct rc_fleet *f)
{
	size_t *order = all_indices(f->n), failed;

	if (!order)
		return f->n;
	failed = run_pool(f, order, f->n, counters_one);
	free(order);
	return failed;
}

static void apply_one(struct rc_fleet *f, struct rc_fleet_dev *d)
{
	struct timespec start;
	int rc;

	clock_gettime(CLOCK_MONOTONIC, &start);
	d->run.keep_journal = f->keep_journal;
	rc = rc_devrun_apply(&d->run, f->pol, f->inv, f->journal_dir, f->run_id, &d->err);
	d->apply_ms = ms_since(&start);
	d->apply_timed = true;

	d->rc = rc < 0 ? rc : 0;
	d->applied = rc >= 0;
	/* done with this device: its connection need not live until the whole fabric is */
	rc_devrun_disconnect(&d->run);
	d->opened = false;
}

/* Tier of a device in apply order: 0 first. */
static int tier_of(const struct rc_device *d, bool reverse)
{
	int t = d->role == RC_ROLE_SPINE ? 0 : d->role == RC_ROLE_LEAF ? 1 : 2;

	return reverse ? 2 - t : t;
}

/* Mark devices of `tier` that are linked to a failed or skipped device of an earlier tier. */
static void block_dependents(struct rc_fleet *f, int tier, bool reverse)
{
	const struct rc_inventory *inv = f->inv;
	bool *bad = calloc(inv->n_devices ? inv->n_devices : 1, sizeof(*bad));

	if (!bad)
		return;
	for (size_t i = 0; i < f->n; i++)
		if (f->devs[i].rc || f->devs[i].skipped)
			bad[f->devs[i].index] = true;
	for (size_t i = 0; i < f->n; i++) {
		struct rc_fleet_dev *d = &f->devs[i];

		/* a device with nothing to change is neither applied nor at risk */
		if (tier_of(&inv->devices[d->index], reverse) != tier || d->rc || d->n_changes <= 0)
			continue;
		for (size_t l = 0; l < inv->n_links; l++) {
			const struct rc_link *k = &inv->links[l];
			size_t other;

			if (k->a.dev == d->index)
				other = k->b.dev;
			else if (k->b.dev == d->index)
				other = k->a.dev;
			else
				continue;
			if (bad[other] && tier_of(&inv->devices[other], reverse) < tier) {
				d->skipped = true;
				rc_errf(&d->err, EAGAIN,
					"'%s': not applied because '%s' (%s) failed first",
					inv->devices[d->index].name, inv->devices[other].name,
					rc_role_name(inv->devices[other].role));
				break;
			}
		}
	}
	free(bad);
}

static bool to_apply(const struct rc_fleet_dev *d)
{
	return !d->rc && !d->skipped && d->n_changes > 0;
}

/* The undo armed before the first write (struct rc_fleet_arm); a failure fails every
 * device that would have been written, none is touched. */
static int arm_once(struct rc_fleet *f)
{
	struct rc_fleet_arm *a = f->arm;
	bool any = false;

	for (size_t i = 0; i < f->n; i++)
		any |= to_apply(&f->devs[i]);
	if (!a || !any)
		return 0;
	if (!a->done) {
		a->done = true;
		a->rc = a->fn(f, a->ctx, &a->err);
	}
	if (!a->rc)
		return 0;
	for (size_t i = 0; i < f->n; i++)
		if (to_apply(&f->devs[i])) {
			f->devs[i].rc = a->rc;
			rc_errf(&f->devs[i].err, -a->rc, "'%s': nothing written: %s",
				f->inv->devices[f->devs[i].index].name, a->err.msg);
		}
	return a->rc;
}

size_t rc_fleet_apply(struct rc_fleet *f)
{
	bool reverse = rc_fleet_reverse_order(f);
	size_t *order = malloc((f->n ? f->n : 1) * sizeof(*order)), bad = 0;

	if (!order)
		return f->n;
	if (arm_once(f)) {
		for (size_t i = 0; i < f->n; i++)
			bad += f->devs[i].rc || f->devs[i].skipped;
		free(order);
		return bad;
	}
	/* devices with nothing to change are not touched again */
	for (size_t i = 0; i < f->n; i++) {
		if (f->devs[i].n_changes <= 0 && f->devs[i].opened) {
			rc_devrun_disconnect(&f->devs[i].run);
			f->devs[i].opened = false;
		}
	}
	for (int tier = 0; tier < 3; tier++) {
		size_t n = 0;

		block_dependents(f, tier, reverse);
		for (size_t i = 0; i < f->n; i++) {
			struct rc_fleet_dev *d = &f->devs[i];

			if (tier_of(&f->inv->devices[d->index], reverse) == tier && !d->rc &&
			    !d->skipped && d->n_changes > 0)
				order[n++] = i;
		}
		run_pool(f, order, n, apply_one);
	}
	for (size_t i = 0; i < f->n; i++)
		if (f->devs[i].rc || f->devs[i].skipped)
			bad++;
	free(order);
	return bad;
}

void rc_fleet_fini(struct rc_fleet *f)
{
	for (size_t i = 0; i < f->n; i++) {
		rc_devrun_close(&f->devs[i].run);
		rc_counters_fini(&f->devs[i].counters);
		rc_lldp_dev_free(f->devs[i].lldp);
	}
	free(f->devs);
	f->devs = NULL;
	f->n = 0;
}
