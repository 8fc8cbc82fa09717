/* SPDX-License-Identifier: Apache-2.0 */
/* `rocectl agent`: the orchestration: the RDMA interfaces, each one's plan/verify/apply
 * through devrun, the preflight, the history record, the counters. */
#include "agent.h"

static void prom_note(struct agent *a, const char *ifname, size_t drift, bool ok)
{
	if (a->n_prom == MAX_INTERFACES)
		return;
	a->prom[a->n_prom++] = (struct rc_prom_iface){.port = ifname, .drift = drift, .ok = ok};
}

void agent_note_error(struct agent *a)
{
	a->n_errors++;
	a->exit_code = RC_EXIT_ERROR;
}

static void escalate(struct agent *a, int code)
{
	if (a->exit_code == RC_EXIT_OK)
		a->exit_code = code;
}

/* ---- interfaces ------------------------------------------------------------------------ */

int agent_discover(struct agent *a, struct rc_err *err)
{
	const struct rc_driver *drv = &rc_host_driver;
	struct rc_session *s;
	char(*names)[RC_NAME_MAX] = NULL;
	size_t n = 0;
	int rc;

	if (a->o.n_if)
		return 0;
	if (a->dev.n_ports) { /* the interfaces the inventory names, as the controller does */
		if (a->dev.n_ports > MAX_INTERFACES)
			return rc_errf(err, E2BIG, "more than %d interfaces in the inventory",
				       MAX_INTERFACES);
		for (size_t i = 0; i < a->dev.n_ports; i++)
			snprintf(a->o.ifs[i], RC_NAME_MAX, "%s", a->dev.ports[i]);
		a->o.n_if = a->dev.n_ports;
		return 0;
	}
	rc = drv->open(&a->dev, &a->ropts, &s, err);
	if (rc)
		return rc;
	rc = drv->ports(s, &names, &n, err);
	drv->close(s);
	if (rc)
		return rc;
	if (n > MAX_INTERFACES) {
		free(names);
		return rc_errf(err, E2BIG,
			       "more than %d RDMA interfaces; name them with "
			       "--interface",
			       MAX_INTERFACES);
	}
	for (size_t i = 0; i < n; i++)
		snprintf(a->o.ifs[i], RC_NAME_MAX, "%s", names[i]);
	a->o.n_if = n;
	free(names);
	return 0;
}

/* ---- plan / verify / apply ------------------------------------------------------------- */

static void run_interface(struct agent *a, const char *ifname, const char *base_run)
{
	char only[1][RC_NAME_MAX], run_id[128];
	struct rc_changes planned = {0};
	struct rc_err err = {0};
	struct rc_devrun r;
	const char *status;
	size_t drift;
	int rc;

	snprintf(only[0], sizeof(only[0]), "%s", ifname);
	rc = rc_devrun_open(&r, &a->dev, a->dev_index, &a->ropts, only, 1, &err);
	if (!rc && a->have_desired)
		r.preset = &a->desired;
	/* enforce: what flaps the link is reported, not written (docs/ENFORCE.md) */
	if (!rc && a->o.enforce && !a->o.allow_disruptive)
		r.hold_groups = r.drv->disruptive;
	if (!rc)
		rc = rc_devrun_read(&r, &err);
	if (!rc)
		rc = rc_devrun_diff(&r, &a->pol, a->have_inv ? &a->inv : NULL, &err);
	if (rc < 0) {
		agent_out_iface_error(a, ifname, err.msg);
		rc_out_open_array(&a->out, "changes");
		rc_out_close_array(&a->out);
		rc_out_close_object(&a->out);
		agent_note_error(a);
		prom_note(a, ifname, 0, false);
		if (a->hist)
			rc_history_result(a->hist, a->dev.name, "failed", err.msg);
		rc_devrun_close(&r);
		return;
	}
	drift = agent_count_drift(a, &r.changes);
	a->n_drift += drift;
	a->n_drifted += drift > 0;
	if (a->cmd != A_APPLY || rc == 0) {
		status = !drift ? "in-sync" : a->cmd == A_PLAN ? "changes" : "drift";
		rc_out_open_object(&a->out, NULL);
		rc_out_str(&a->out, "interface", "%s: ", ifname);
		rc_out_str(&a->out, "status", NULL, status);
		if (a->cmd == A_APPLY)
			rc_out_bool(&a->out, "restored", NULL, false);
		if (!drift)
			rc_out_text(&a->out, "%s\n", a->cmd == A_VERIFY ? "in sync" : "no changes");
		else
			rc_out_text(&a->out, "%zu %s%s\n", drift,
				    a->cmd == A_VERIFY ? "drifted field" : "change",
				    drift == 1 ? "" : "s");
		agent_out_changes(a, &r.changes);
		rc_out_close_object(&a->out);
		if (drift && (a->cmd != A_APPLY || a->o.enforce))
			escalate(a, RC_EXIT_CHANGES);
		prom_note(a, ifname, drift, true);
		rc_devrun_close(&r);
		return;
	}

	/* apply: what the diff said is what we report as done (or undone). */
	if (a->hist && rc_history_add(a->hist, &r, "pending"))
		fprintf(stderr, "rocectl agent: warning: out of memory for the run record\n");
	if (rc_changes_copy(&r.changes, &planned)) {
		agent_out_iface_error(a, ifname, "out of memory");
		rc_out_close_object(&a->out);
		agent_note_error(a);
		rc_devrun_close(&r);
		return;
	}
	snprintf(run_id, sizeof(run_id), "%s-%s", base_run, ifname);
	rc = rc_devrun_apply(&r, &a->pol, a->have_inv ? &a->inv : NULL, a->o.journal, run_id, &err);
	rc_out_open_object(&a->out, NULL);
	rc_out_str(&a->out, "interface", "%s: ", ifname);
	if (rc < 0) {
		bool restored = strstr(err.msg, "restored the pre-change state") != NULL;

		rc_out_str(&a->out, "status", NULL, "error");
		rc_out_str(&a->out, "error", "error: %s\n", err.msg);
		rc_out_bool(&a->out, "restored", NULL, restored);
		fprintf(stderr, "rocectl agent: %s: %s\n", ifname, err.msg);
		agent_note_error(a);
		prom_note(a, ifname, drift, true);
		if (a->hist)
			rc_history_result(a->hist, a->dev.name, "failed", err.msg);
	} else {
		rc_out_str(&a->out, "status", NULL, "applied");
		rc_out_bool(&a->out, "restored", NULL, false);
		size_t n_set = rc_changes_count(&planned, RC_CHANGE_SET);

		/* held (disruptive) changes were not applied: enforce leaves them as drift */
		n_set -= rc_changes_count(&r.changes, RC_CHANGE_SET);
		rc_out_text(&a->out, "applied %zu change%s\n", n_set, n_set == 1 ? "" : "s");
		if (rc_changes_count(&r.changes, RC_CHANGE_SET)) {
			rc_out_text(&a->out,
				    "  %zu disruptive field(s) not repaired (--disruptive "
				    "allow repairs them)\n",
				    rc_changes_count(&r.changes, RC_CHANGE_SET));
			escalate(a, RC_EXIT_CHANGES);
		}
		prom_note(a, ifname, rc_changes_count(&r.changes, RC_CHANGE_SET), true);
		a->n_applied++;
	}
	rc_out_str(&a->out, "run_id", NULL, run_id);
	agent_out_changes(a, &planned);
	rc_out_close_object(&a->out);
	rc_changes_fini(&planned);
	rc_devrun_close(&r);
}

/* The pre-flight of apply: every interface, every selected section, before anything is
 * written anywhere.  pf[i].rc is 0 (go), -EOPNOTSUPP (refused: pf[i].missing says which
 * sections) or the error of an interface that cannot be used at all. */
struct preflight {
	int rc;
	unsigned missing;
	char msg[RC_ERR_MSG_MAX + 160];
};

static const char *const section_names[] = {"dcb", "ecn", "rdma"};

static void sections_text(unsigned mask, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < 3 && off < len; i++)
		if (mask & (1u << i))
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? "," : "",
						section_names[i]);
}

static void preflight_all(struct agent *a, struct preflight *pf)
{
	struct rc_session *s = NULL;
	struct rc_err err = {0};

	if (rc_host_driver.open(&a->dev, &a->ropts, &s, &err)) {
		for (size_t i = 0; i < a->o.n_if; i++) {
			pf[i].rc = -EIO;
			snprintf(pf[i].msg, sizeof(pf[i].msg), "%s", err.msg);
		}
		return;
	}
	for (size_t i = 0; i < a->o.n_if; i++) {
		char rest[32];

		memset(&err, 0, sizeof(err));
		pf[i].rc = rc_host_preflight(s, a->o.ifs[i], a->o.sections, &pf[i].missing, &err);
		if (pf[i].rc != -EOPNOTSUPP) {
			snprintf(pf[i].msg, sizeof(pf[i].msg), "%s", err.msg);
			continue;
		}
		sections_text(a->o.sections & ~pf[i].missing, rest, sizeof(rest));
		snprintf(pf[i].msg, sizeof(pf[i].msg), "%s; nothing was written to '%s'%s%s%s",
			 err.msg, a->o.ifs[i], rest[0] ? " (--only " : "", rest,
			 rest[0] ? " manages the rest)" : "");
	}
	rc_host_driver.close(s);
}

static void out_refused(struct agent *a, const char *ifname, const struct preflight *pf)
{
	agent_out_iface_error(a, ifname, pf->msg);
	rc_out_bool(&a->out, "restored", NULL, false);
	if (pf->missing) {
		rc_out_open_array(&a->out, "unsupported_sections");
		for (int i = 0; i < 3; i++)
			if (pf->missing & (1u << i))
				rc_out_str(&a->out, NULL, NULL, section_names[i]);
		rc_out_close_array(&a->out);
	}
	rc_out_open_array(&a->out, "changes");
	rc_out_close_array(&a->out);
	rc_out_close_object(&a->out);
	agent_note_error(a);
	if (a->hist)
		rc_history_result(a->hist, a->dev.name, "failed", pf->msg);
}

/* `agent enforce` leaves the controller's kind of run record (engine/run/history.c) in
 * $ROCECTL_HISTORY or /var/lib/rocectl/history on the node, so that `rocectl history` there
 * lists it (docs/ENFORCE.md "The host agent").  With --desired, the rendered file stands
 * for the policy. */
static void history_begin(struct agent *a, const char *run_id)
{
	struct rc_err err = {0};

	if (a->cmd != A_APPLY || !a->o.enforce)
		return;
	a->hist = calloc(1, sizeof(*a->hist));
	if (!a->hist || rc_history_begin(a->hist, "enforce", run_id,
					 a->o.desired ? a->o.desired : a->policy_path,
					 a->have_inv ? a->o.inventory : NULL, &err)) {
		fprintf(stderr, "rocectl agent: warning: no run record: %s\n",
			a->hist ? err.msg : "out of memory");
		free(a->hist);
		a->hist = NULL;
	}
}

static void history_end(struct agent *a)
{
	struct rc_err err = {0};

	if (!a->hist)
		return;
	/* the results enforce gives a device (include/rocectl/enforce.h); "failed" was set
	 * with its error when an interface failed */
	if (!a->n_errors)
		rc_history_result(a->hist, a->dev.name,
				  a->n_applied			    ? "applied"
				  : a->exit_code == RC_EXIT_CHANGES ? "held"
								    : "in-sync",
				  NULL);
	if (rc_history_write(a->hist, rc_history_dir(), a->exit_code, &err))
		fprintf(stderr, "rocectl agent: warning: no run record: %s\n", err.msg);
	rc_history_fini(a->hist);
	free(a->hist);
	a->hist = NULL;
}

void agent_run_policy_cmd(struct agent *a)
{
	struct preflight *pf = NULL;
	char base_run[64];

	rc_txn_new_run_id(base_run, sizeof(base_run));
	history_begin(a, base_run);
	if (a->cmd == A_APPLY) {
		pf = calloc(a->o.n_if ? a->o.n_if : 1, sizeof(*pf));
		if (!pf) {
			fprintf(stderr, "rocectl agent: out of memory\n");
			agent_note_error(a);
			return;
		}
		preflight_all(a, pf);
	}
	for (size_t i = 0; i < a->o.n_if; i++) {
		if (pf && pf[i].rc)
			out_refused(a, a->o.ifs[i], &pf[i]);
		else
			run_interface(a, a->o.ifs[i], base_run);
	}
	free(pf);
	history_end(a);
}

/* ---- counters -------------------------------------------------------------------------- */

void agent_run_counters(struct agent *a)
{
	struct rc_session *s = NULL;
	struct rc_err err = {0};

	if (rc_host_driver.open(&a->dev, &a->ropts, &s, &err)) {
		agent_note_error(a);
		for (size_t i = 0; i < a->o.n_if; i++) {
			agent_out_iface_error(a, a->o.ifs[i], err.msg);
			rc_out_close_object(&a->out);
		}
		return;
	}
	for (size_t i = 0; i < a->o.n_if; i++) {
		struct rc_port_state port = {0};
		struct rc_counters c = {0};

		snprintf(port.name, sizeof(port.name), "%s", a->o.ifs[i]);
		if (rc_host_driver.counters(s, &port, 1, &c, &err)) {
			agent_out_iface_error(a, port.name, err.msg);
			agent_note_error(a);
		} else {
			rc_out_open_object(&a->out, NULL);
			rc_out_str(&a->out, "interface", "%s:\n", port.name);
		}
		rc_out_open_array(&a->out, "counters");
		for (size_t k = 0; k < c.n; k++) {
			const struct rc_counter *e = &c.v[k];

			rc_out_open_object(&a->out, NULL);
			rc_out_str(&a->out, "name", "    %-36s", e->name);
			if (e->not_enabled) {
				rc_out_null(&a->out, "value", "          not enabled");
				rc_out_bool(&a->out, "not_enabled", NULL, true);
			} else {
				rc_out_uint(&a->out, "value", " %20llu", e->value);
			}
			rc_out_str(&a->out, "source", "  %s", e->source);
			rc_out_bool(&a->out, "is_drop", NULL, e->is_drop);
			rc_out_text(&a->out, "%s\n", e->is_drop && e->value ? "   DROPS" : "");
			rc_out_close_object(&a->out);
			a->drops |= e->is_drop && e->value;
		}
		rc_out_close_array(&a->out);
		rc_out_close_object(&a->out);
		rc_counters_fini(&c);
	}
	/* like `rocectl counters`: lost packets are something to act on (exit 2) */
	if (a->drops)
		escalate(a, RC_EXIT_CHANGES);
	rc_host_driver.close(s);
}
