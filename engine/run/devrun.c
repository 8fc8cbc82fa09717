/* SPDX-License-Identifier: Apache-2.0 */
/* One device through read -> diff -> journal -> apply -> re-read -> verify.
 *
 * The phases follow FRR's northbound transactions: the diff validates, the journal is the
 * prepare step (nothing is written to a device before its pre-change state is on disk),
 * the driver's apply commits, and restore_ports() is the abort: it drives the device back
 * to the journaled state through the same driver, so rollback needs no second code path. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rocectl/deadline.h"
#include "rocectl/desired.h"
#include "rocectl/devrun.h"
#include "rocectl/journal.h"
#include "rocectl/run_snap.h"
#include "rocectl/txn.h"

#include "plugin_dir.h" /* generated: ROCECTL_PLUGIN_DIR */

/* Switches apply asynchronously (NVUE reloads switchd); the read-back polls until the
 * state converges or this many attempts have passed. */
#define SETTLE_ATTEMPTS 4
#define SETTLE_DELAY_MS 250

static int alloc_ports(struct rc_devrun *r, size_t n, struct rc_err *err)
{
	r->n_ports = n;
	r->want = calloc(n ? n : 1, sizeof(*r->want));
	r->have = calloc(n ? n : 1, sizeof(*r->have));
	r->write_fields = calloc(n ? n : 1, sizeof(*r->write_fields));
	if (!r->want || !r->have || !r->write_fields)
		return rc_errf(err, ENOMEM, "out of memory");
	return 0;
}

static void set_port_name(struct rc_devrun *r, size_t i, const char *name)
{
	snprintf(r->have[i].name, sizeof(r->have[i].name), "%s", name);
	snprintf(r->want[i].name, sizeof(r->want[i].name), "%s", name);
}

static int choose_ports(struct rc_devrun *r, char (*only)[RC_NAME_MAX], size_t n_only,
			struct rc_err *err)
{
	char(*found)[RC_NAME_MAX] = NULL;
	size_t n = 0;
	int rc;

	if (n_only || r->dev->n_ports) {
		char(*src)[RC_NAME_MAX] = n_only ? only : r->dev->ports;

		n = n_only ? n_only : r->dev->n_ports;
		rc = alloc_ports(r, n, err);
		for (size_t i = 0; !rc && i < n; i++)
			set_port_name(r, i, src[i]);
		return rc;
	}
	if (!r->drv->ports)
		return rc_errf(err, EINVAL, "'%s': the inventory lists no ports", r->dev->name);
	rc = r->drv->ports(r->sess, &found, &n, err);
	if (rc)
		return rc;
	if (n == 0) {
		free(found);
		return rc_errf(err, ENODEV, "'%s': no port to manage was found", r->dev->name);
	}
	rc = alloc_ports(r, n, err);
	for (size_t i = 0; !rc && i < n; i++)
		set_port_name(r, i, found[i]);
	free(found);
	return rc;
}

int rc_devrun_open(struct rc_devrun *r, const struct rc_device *dev, size_t dev_index,
		   const struct rc_run_opts *opts, char (*only_ports)[RC_NAME_MAX], size_t n_only,
		   struct rc_err *err)
{
	const char *dname = rc_driver_name_for(dev);
	int rc;

	memset(r, 0, sizeof(*r));
	r->dev = dev;
	r->dev_index = dev_index;
	r->drv = rc_driver_find(dname);
	if (!r->drv && rc_driver_load_error())
		return rc_errf(err, ENOTSUP, "'%s': no driver '%s': cannot load rocectl-net.so: %s",
			       dev->name, dname, rc_driver_load_error());
	if (!r->drv)
		return rc_errf(err, ENOTSUP,
			       "'%s': no driver '%s' (network drivers live in rocectl-net.so, "
			       "next to rocectl or in " ROCECTL_PLUGIN_DIR ", or $ROCECTL_PLUGIN)",
			       dev->name, dname);
	rc = r->drv->open(dev, opts, &r->sess, err);
	if (rc) {
		r->sess = NULL;
		return rc;
	}
	return choose_ports(r, only_ports, n_only, err);
}

int rc_devrun_read(struct rc_devrun *r, struct rc_err *err)
{
	int rc;

	for (size_t i = 0; i < r->n_ports; i++)
		memset(&r->have[i].qos, 0, sizeof(r->have[i].qos));
	r->read_ok = false;
	rc = r->drv->read(r->sess, r->have, r->n_ports, err);
	if (!rc)
		r->read_ok = true;
	return rc;
}

/* want[] from the policy; the tolerance of the device's effective policy. */
static int compute_want(struct rc_devrun *r, const struct rc_policy *pol,
			const struct rc_inventory *inv, double *tolerance, struct rc_err *err)
{
	struct rc_policy devpol;
	int rc;

	if (r->preset) {
		*tolerance = r->preset->tolerance_pct;
		for (size_t i = 0; i < r->n_ports; i++)
			r->want[i].qos = *rc_desired_lookup(r->preset, r->have[i].name);
		return 0;
	}
	rc = rc_policy_for_device(pol, r->dev, &devpol, err);
	if (rc)
		return rc;
	*tolerance = devpol.tolerance_pct;
	for (size_t i = 0; i < r->n_ports; i++) {
		rc = rc_desired_port(pol, inv, r->dev_index, r->have[i].name, r->dev->kind,
				     r->have[i].qos.speed_gbps, &r->want[i].qos, err);
		if (rc)
			return rc;
	}
	return 0;
}

/* Diff want[] against have[] into r->changes and r->write_fields.  Held groups stay in
 * r->changes (they are reported) but are neither written nor counted. */
static int diff_all(struct rc_devrun *r, double tolerance)
{
	int n_set = 0;

	rc_changes_fini(&r->changes);
	for (size_t i = 0; i < r->n_ports; i++) {
		int64_t m = rc_diff_port(r->have[i].name, &r->want[i].qos, &r->have[i].qos,
					 tolerance, r->drv->disruptive, &r->changes);

		if (m < 0)
			return (int)m;
		r->write_fields[i] = (uint32_t)m & ~r->hold_groups;
	}
	rc_changes_fit(&r->changes);
	for (size_t i = 0; i < r->changes.n; i++)
		n_set += r->changes.v[i].kind == RC_CHANGE_SET &&
			 !(r->changes.v[i].group & r->hold_groups);
	return n_set;
}

int rc_devrun_diff(struct rc_devrun *r, const struct rc_policy *pol, const struct rc_inventory *inv,
		   struct rc_err *err)
{
	double tolerance;
	int rc;

	if (!r->read_ok)
		return rc_errf(err, EINVAL, "'%s': not read yet", r->dev->name);
	rc = compute_want(r, pol, inv, &tolerance, err);
	if (rc)
		return rc;
	rc = diff_all(r, tolerance);
	if (rc < 0)
		return rc_errf(err, -rc, "'%s': cannot compute the diff", r->dev->name);
	return rc;
}

static int write_ports(struct rc_devrun *r, const struct rc_port_state *want, struct rc_err *err)
{
	struct rc_port_write *w = calloc(r->n_ports ? r->n_ports : 1, sizeof(*w));
	size_t n = 0;
	int rc;

	if (!w)
		return rc_errf(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < r->n_ports; i++) {
		if (!r->write_fields[i])
			continue;
		w[n].port = r->have[i].name;
		w[n].want = &want[i].qos;
		w[n].have = &r->have[i].qos;
		w[n].fields = r->write_fields[i];
		n++;
	}
	rc = n ? r->drv->apply(r->sess, w, n, err) : 0;
	free(w);
	return rc;
}

/* Re-read until no SET change remains (or attempts run out).  Returns the number of SET
 * changes left, or a negative errno when the device cannot be read. */
static int settle(struct rc_devrun *r, double tolerance, struct rc_err *err)
{
	int left = 0;

	for (int attempt = 0; attempt < SETTLE_ATTEMPTS; attempt++) {
		int rc;

		if (attempt)
			rc_sleep_ms(SETTLE_DELAY_MS);
		rc = rc_devrun_read(r, err);
		if (rc)
			return rc;
		left = diff_all(r, tolerance);
		if (left <= 0)
			return left;
	}
	return left;
}

/* The first remaining change, for an error message. */
static void describe_first_change(const struct rc_devrun *r, char *buf, size_t len)
{
	for (size_t i = 0; i < r->changes.n; i++) {
		const struct rc_change *c = &r->changes.v[i];

		if (c->kind != RC_CHANGE_SET)
			continue;
		snprintf(buf, len, "%s %s is %s, want %s", c->port, c->field, c->old_value,
			 c->new_value);
		return;
	}
	snprintf(buf, len, "no difference");
}

/* want[] := `before` (what was read before the change), matched by port name; then read
 * the device and diff it against that: the number of SET changes left, or a negative
 * errno (err filled). */
static int diff_to_before(struct rc_devrun *r, const struct rc_port_state *before, size_t n,
			  struct rc_err *err)
{
	struct rc_port_state *want = calloc(r->n_ports ? r->n_ports : 1, sizeof(*want));
	int rc;

	if (!want)
		return rc_errf(err, ENOMEM, "out of memory");
	/* Match journaled ports by name: the port order may differ from this run's. */
	for (size_t i = 0; i < r->n_ports; i++) {
		want[i] = r->have[i];
		want[i].qos.known = 0;
		for (size_t j = 0; j < n; j++)
			if (!strcmp(before[j].name, r->have[i].name))
				want[i].qos = before[j].qos;
		/* what could not be read then cannot be restored now */
		want[i].qos.known &= ~(want[i].qos.unsupported | RC_F_MTU | RC_F_SPEED);
		want[i].qos.headroom_is_min = false;
	}
	rc = rc_devrun_read(r, err);
	for (size_t i = 0; !rc && i < r->n_ports; i++)
		r->want[i].qos = want[i].qos;
	if (!rc)
		rc = diff_all(r, 0.0);
	free(want);
	return rc;
}

/* Drive the device back to `before` (what was read before the change). */
static int restore_ports(struct rc_devrun *r, const struct rc_port_state *before, size_t n,
			 struct rc_err *err)
{
	int rc = diff_to_before(r, before, n, err), left;
	char what[256];

	if (rc > 0)
		rc = write_ports(r, r->want, err);
	if (rc >= 0)
		rc = 0;
	if (!rc) {
		left = settle(r, 0.0, err);
		if (left > 0) {
			describe_first_change(r, what, sizeof(what));
			rc = rc_errf(err, EIO, "state after restore still differs (%s)", what);
		} else if (left < 0) {
			rc = left;
		}
	}
	return rc;
}

int rc_devrun_restore(struct rc_devrun *r, const struct rc_port_state *before, size_t n,
		      struct rc_err *err)
{
	return restore_ports(r, before, n, err);
}

/* The driver's native restore puts back the configuration itself (deleting what the run
 * created), then restore_ports() checks the values and repairs what still differs.
 * Without a snapshot, what a killed run left staged is dropped first where the driver can
 * find it: values written over a staged revision would be applied along with it. */
static int restore_with(struct rc_devrun *r, const char *native, const struct rc_port_state *before,
			size_t n, struct rc_err *err)
{
	int rc = 0;

	if (native && r->drv->restore_native) {
		struct rc_err ignored = {0};

		rc = r->drv->restore_native(r->sess, native, err);
		/* Still different: the device changed after the native restore (a command of
		 * the interrupted run that it had received and ran late, as a switch goes on
		 * with a command whose connection is gone).  The native restore once more: the
		 * value repair of restore_ports() can put back only what the values say, and
		 * would keep what else the run added (EOS `random-detect ecn count`,
		 * drivers/switch/eos_ops.c) or save over a startup-config the native restore
		 * had put back (drivers/switch/eos.c, eos_restore_native).  So too when the
		 * native restore's own read-back found it different. */
		if (rc || diff_to_before(r, before, n, &ignored) > 0) {
			memset(err, 0, sizeof(*err));
			rc = r->drv->restore_native(r->sess, native, err);
		}
	} else if (r->drv->discard) {
		rc = r->drv->discard(r->sess, NULL, err);
	}
	if (rc) {
		rc_err_prefix(err, "'%s': %s", r->dev->name,
			      native && r->drv->restore_native
				  ? "native restore failed"
				  : "staged changes were not discarded");
		return rc;
	}
	rc = restore_ports(r, before, n, err);
	if (!rc && native && r->drv->restore_derived) {
		rc = r->drv->restore_derived(r->sess, native, err);
		if (rc)
			rc_err_prefix(err, "'%s': the values are back, but", r->dev->name);
	}
	return rc;
}

int rc_devrun_restore_native(struct rc_devrun *r, const char *native,
			     const struct rc_port_state *before, size_t n, struct rc_err *err)
{
	return restore_with(r, native, before, n, err);
}

static struct rc_port_state *copy_states(const struct rc_port_state *s, size_t n)
{
	struct rc_port_state *c = malloc((n ? n : 1) * sizeof(*c));

	if (c && n)
		memcpy(c, s, n * sizeof(*c));
	return c;
}

/* Apply failed with `cause`: restore and compose one message saying both. */
static int fail_and_restore(struct rc_devrun *r, const struct rc_port_state *before,
			    const char *native, const char *journal_dir, const char *run_id,
			    struct rc_err *cause, int cause_rc, struct rc_err *err)
{
	struct rc_err rerr = {0};
	char why[RC_ERR_MSG_MAX];
	int rrc;

	rc_err_format(cause, why, sizeof(why));
	rrc = restore_with(r, native, before, r->n_ports, &rerr);
	if (rrc) {
		return rc_errf(err, -cause_rc,
			       "'%s': apply failed: %s; restoring the pre-change state failed "
			       "too: %s; the journal is kept for 'rocectl rollback'",
			       r->dev->name, why, rerr.msg);
	}
	if (journal_dir)
		rc_journal_done(journal_dir, run_id, r->dev->name, NULL);
	return rc_errf(err, -cause_rc, "'%s': apply failed: %s; restored the pre-change state",
		       r->dev->name, why);
}

/* The prepare step: the driver's native snapshot (optional), then the journal.  Nothing
 * is written to the device before both are done; what the snapshot staged (a revision to
 * be used by apply) is dropped again when the journal cannot be written. */
static int prepare(struct rc_devrun *r, const struct rc_port_state *before, const char *journal_dir,
		   const char *run_id, char **native, struct rc_err *err)
{
	struct rc_err ignored = {0};
	int rc = 0;

	*native = NULL;
	if (r->drv->snapshot)
		rc = r->drv->snapshot(r->sess, native, err);
	if (rc) {
		*native = NULL;
		/* -EPERM: the driver will not write this device as it stands (its reason) */
		rc_err_prefix(err,
			      rc == -EPERM
				  ? "'%s': nothing written"
				  : "'%s': nothing written: cannot take the native snapshot",
			      r->dev->name);
		return rc;
	}
	if (journal_dir)
		rc = rc_journal_save_native(journal_dir, run_id, r->dev, r->drv->name, before,
					    r->n_ports, *native, err);
	/* kept with the run after the journal entry goes: `rollback RUN` of the finished run
	 * restores from it (include/rocectl/run_snap.h) */
	if (!rc && journal_dir) {
		rc = rc_run_snap_keep(run_id, r->dev, r->drv->name, before, r->n_ports, *native,
				      err);
		if (rc)
			rc_journal_done(journal_dir, run_id, r->dev->name, NULL);
	}
	if (rc) {
		if (*native && r->drv->discard)
			r->drv->discard(r->sess, *native, &ignored);
		free(*native);
		*native = NULL;
		rc_err_prefix(err, "'%s': nothing written", r->dev->name);
	}
	return rc;
}

int rc_devrun_apply(struct rc_devrun *r, const struct rc_policy *pol,
		    const struct rc_inventory *inv, const char *journal_dir, const char *run_id,
		    struct rc_err *err)
{
	struct rc_port_state *before;
	struct rc_err cause = {0};
	char *native = NULL;
	double tolerance;
	int rc, n_set, left;
	char what[256];

	n_set = rc_devrun_diff(r, pol, inv, err);
	if (n_set <= 0)
		return n_set;
	before = copy_states(r->have, r->n_ports);
	if (!before)
		return rc_errf(err, ENOMEM, "out of memory");
	rc = prepare(r, before, journal_dir, run_id, &native, err);
	if (rc) {
		free(before);
		return rc;
	}
	rc_crashpoint("dev.snapped");
	rc = write_ports(r, r->want, &cause);
	if (!rc) {
		rc_crashpoint("dev.write.sent");
		compute_want(r, pol, inv, &tolerance, &cause);
		left = settle(r, tolerance, &cause);
		if (left > 0) {
			describe_first_change(r, what, sizeof(what));
			rc = rc_errf(&cause, EIO, "read-back after apply differs: %s", what);
		} else if (left < 0) {
			rc = left;
		}
	}
	if (rc) {
		rc = fail_and_restore(r, before, native, journal_dir, run_id, &cause, rc, err);
	} else {
		rc_crashpoint("dev.verified");
		if (journal_dir && !r->keep_journal)
			rc_journal_done(journal_dir, run_id, r->dev->name, NULL);
		rc_crashpoint("dev.done");
	}
	free(before);
	free(native);
	return rc;
}

void rc_devrun_disconnect(struct rc_devrun *r)
{
	if (r->drv && r->sess && r->drv->close)
		r->drv->close(r->sess);
	r->sess = NULL;
}

void rc_devrun_close(struct rc_devrun *r)
{
	rc_devrun_disconnect(r);
	free(r->want);
	free(r->have);
	free(r->write_fields);
	r->want = r->have = NULL;
	r->write_fields = NULL;
	rc_changes_fini(&r->changes);
}
