/* rocectl agent show|plan|apply|verify|counters: the local host's RoCE interfaces against
 * the policy.  Each interface is its own run through engine/run/devrun.c (read -> diff ->
 * journal -> apply -> re-read -> verify), so that a NIC that fails (no DCB, a refused
 * write) is reported and restored on its own while the others are still handled.
 *
 * JSON output (--format json or -j), schema "rocectl.agent/v1" (examples/agent.schema.json, after
 * the header every document starts with: engine/report/print.c).  Keys are only ever added.
 * One object on one line:
 *
 *   {"schema": "rocectl.agent/v1", "protocol": 1,       (the agent protocol, agent_answer.h)
 *    "command": "show" | "plan" | "verify" | "apply" | "counters",
 *    "host": "<hostname>",
 *    "policy": "<policy name>" | null,            (null for show/counters without -p)
 *    "status": "ok" | "in-sync" | "changes" | "drift" | "applied" | "error",
 *    "exit_code": 0 | 1 | 2,
 *    "interfaces": [ INTERFACE... ]}
 *
 * plan / verify / apply, per INTERFACE:
 *   {"interface": "eth0",
 *    "status": "in-sync" | "changes" (plan) | "drift" (verify) | "applied" (apply) | "error",
 *    "error": "<message>",                         (only with status "error")
 *    "restored": true | false,                     (apply only: pre-change state restored)
 *    "run_id": "<journal run id>",                 (apply only, when something was written)
 *    "changes": [{"field": "dscp2prio[26]",        (operator's name, with index)
 *                 "group": "dscp2prio",             (model field group, rc_field_name())
 *                 "kind": "set" | "unknown" | "unsupported" | "warning",
 *                 "old": "0" | null,                (null unless kind is "set")
 *                 "new": "3",
 *                 "disruptive": true | false}]}     (flaps the link / restarts channels)
 *    "unsupported_sections": ["dcb", "rdma"],    (apply only, when the pre-flight refused)
 *   plan lists what apply would change; verify lists the drift; apply lists what it
 *   changed.  "unsupported" = not controllable here (e.g. ECN enables on upstream mlx5):
 *   reported, neither drift nor success.
 *   apply first pre-flights every selected section on every interface (DCB ops present,
 *   RDMA device and rdma_cm configfs usable) and writes nothing to an interface that
 *   fails it: status "error", the sections in "unsupported_sections", exit 1.  --only
 *   leaves the unsupported sections out (a site whose DCBX is firmware-managed, a
 *   soft-RoCE NIC without DCB).
 *
 * show, per INTERFACE:
 *   {"interface": "eth0", "mtu": 9000 | null, "speed_mbps": 100000 | null,
 *    "operstate": "up",
 *    "rdma": null | {"device": "mlx5_0", "port": 1, "state": "4: ACTIVE",
 *                    "phys_state": "5: LinkUp", "link_layer": "Ethernet",
 *                    "gid_source": "sysfs" | "verbs",
 *                    "gids": [{"index": 3, "gid": "0000:...:c0a8:0101", "type": "RoCE v2",
 *                              "ndev": "eth0"}],
 *                    "roce_v2_ipv4_gid_index": 3 | null},   (= NCCL_IB_GID_INDEX)
 *    "dcb": {"supported": false, "error": "<message>"}
 *         | {"supported": true,
 *            "caps": {"pg": 1, "pfc": 1, "pfc_tcs": 8, "dcbx": 13, ...} | null,  (GCAP, u8 each)
 *            "dcbx": {"mode": 13, "host": true, "cee": true, "ieee": true} | null,
 *            "trust": "dscp" | "pcp" | "unset",
 *            "trust_source": "app-table" | "apptrust" | "qos-sysfs",
 *            "apptrust": ["dscp", "pcp"] | null,
 *            "dscp_prio": [[26, 3], [48, 6]],      (sorted by DSCP)
 *            "pfc": {"pfc_cap": 8, "prio_pfc": [3], "delay": 7} | null,   (delay = cable m)
 *            "buffer": {"prio_buffer": [8 x int], "buffer_size": [8 x bytes],
 *                       "total_size": bytes} | null,
 *            "ets": {"prio_tc": [8], "tc_tsa": ["vendor"|"strict"|"ets"|"cbs"...],
 *                    "tc_bw": [8]} | null},
 *    "ecn": {"controllable": false} | {"controllable": true, "np": [prios], "rp": [prios]},
 *    "cnp": {"controllable": false, "why": "..."}
 *         | {"controllable": true, "dscp": 48, "prio": 6, "route": "ofed-sysfs" | "debugfs"},
 *    "dcqcn": {"controllable": false, "why": "..."}
 *           | {"controllable": true, "route": "ofed-sysfs" | "debugfs",
 *              "params": {"rp_ai_rate": 5, ...}},   (cc_params names, the files present)
 *    "roce_tos": {"controllable": false, "why": "..."} | {"controllable": true, "value": 106}}
 *   A section not selected with --only is absent.
 *
 * counters, per INTERFACE:
 *   {"interface": "eth0", "error": "<message>" (only on error),
 *    "counters": [{"name": "pfc_pause_rx[3]", "source": "ethtool:rx_prio3_pause",
 *                  "value": 12, "is_drop": false}]}
 *   "is_drop": a non-zero value means packets were lost ("status" is then "drops" and the
 *   exit code 2, as for `rocectl counters`). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agent_answer.h"
#include "host.h"
#include "rocectl/cli.h"
#include "rocectl/devrun.h"
#include "rocectl/history.h"
#include "rocectl/journal.h"
#include "rocectl/result.h"
#include "rocectl/util.h"
#include "rocectl/print.h"

#define AGENT_SCHEMA   "rocectl.agent/v1"
#define MAX_INTERFACES 64
#define DEFAULT_POLICY "/etc/rocectl/policy.yaml"

enum agent_cmd { A_SHOW, A_PLAN, A_VERIFY, A_APPLY, A_COUNTERS };

static const char *const cmd_names[] = {"show", "plan", "verify", "apply", "counters"};

struct agent_opts {
	const char *policy;
	const char *inventory; /* -i: the desired state as the controller computes it */
	const char *host;      /* --host: this host's name in the inventory */
	const char *desired;   /* --desired: a `rocectl render` output */
	const char *journal;
	const char *root;
	bool json;
	bool prom;	    /* --format prometheus: plan/verify/apply/enforce */
	const char *output; /* -o: the metrics, replaced atomically (node_exporter textfile) */
	unsigned sections;
	bool enforce;	       /* `agent enforce`: apply without the disruptive groups */
	bool allow_disruptive; /* --disruptive allow */
	size_t n_if;
	char ifs[MAX_INTERFACES][RC_NAME_MAX];
	int bad;
};

enum { OPT_ROOT = 256, OPT_JOURNAL, OPT_ONLY, OPT_FORMAT, OPT_DISRUPTIVE, OPT_HOST, OPT_DESIRED };

static const struct rc_option options[] = {
    {"policy", 'p', "FILE", "the policy (default $ROCECTL_POLICY or " DEFAULT_POLICY ")", 'p'},
    {"inventory", 'i', "FILE",
     "plan/apply/verify/enforce: the inventory, so that link cable lengths are the "
     "controller's",
     'i'},
    {"host", 0, "NAME", "this host's name in the inventory (default: the hostname)", OPT_HOST},
    {"desired", 0, "FILE", "the desired state `rocectl render` wrote for this host (no -p/-i)",
     OPT_DESIRED},
    {"interface", 'I', "IF", "manage this interface (repeatable; default: every RDMA netdev)", 'I'},
    {"format", 0, "FMT",
     "text (default), json (examples/agent.schema.json) or prometheus (plan, verify, apply, "
     "enforce: the controller's metric families for this host)",
     OPT_FORMAT},
    {"output", 'o', "FILE",
     "--format prometheus: write the metrics to FILE, replaced atomically (node_exporter's "
     "textfile directory)",
     'o'},
    {"root", 0, "DIR", "sysfs/configfs root prefix (default: the global --root)", OPT_ROOT},
    {"journal", 'J', "DIR",
     "journal directory (default $ROCECTL_JOURNAL or " RC_JOURNAL_DEFAULT_DIR ")", OPT_JOURNAL},
    {"only", 0, "SECTIONS", "only these sections: dcb,ecn,rdma (default: all)", OPT_ONLY},
    {"disruptive", 0, "skip|allow",
     "enforce: skip (default) reports drift of fields that flap the link (PFC, trust) "
     "without repairing it; allow repairs it too",
     OPT_DISRUPTIVE},
    {NULL, 0, NULL, NULL, 0},
};

static int on_option(int id, const char *arg, void *ctx)
{
	struct agent_opts *o = ctx;
	char bad[64];

	switch (id) {
	case 'p':
		o->policy = arg;
		break;
	case 'i':
		o->inventory = arg;
		break;
	case OPT_HOST:
		if (!rc_name_is_safe(arg)) {
			fprintf(stderr, "rocectl agent: --host: '%s' is not a device name\n", arg);
			return -EINVAL;
		}
		o->host = arg;
		break;
	case OPT_DESIRED:
		o->desired = arg;
		break;
	case 'I':
		if (!rc_host_ifname_ok(arg)) {
			fprintf(stderr, "rocectl agent: '%s' is not a network interface name\n",
				arg);
			return -EINVAL;
		}
		if (o->n_if == MAX_INTERFACES) {
			fprintf(stderr, "rocectl agent: at most %d interfaces\n", MAX_INTERFACES);
			return -EINVAL;
		}
		for (size_t i = 0; i < o->n_if; i++)
			if (!strcmp(o->ifs[i], arg))
				return 0;
		snprintf(o->ifs[o->n_if++], RC_NAME_MAX, "%s", arg);
		break;
	case OPT_FORMAT:
		o->prom = !strcmp(arg, "prometheus");
		return o->prom ? 0 : rc_format_text_json("agent", arg, &o->json);
	case 'o':
		o->output = arg;
		break;
	case OPT_ROOT:
		o->root = arg;
		break;
	case OPT_DISRUPTIVE:
		if (strcmp(arg, "skip") && strcmp(arg, "allow")) {
			fprintf(stderr,
				"rocectl agent: --disruptive: '%s' is not one of skip, allow\n",
				arg);
			return -EINVAL;
		}
		o->allow_disruptive = !strcmp(arg, "allow");
		break;
	case OPT_JOURNAL:
		o->journal = arg;
		break;
	case OPT_ONLY:
		if (rc_host_parse_sections(arg, &o->sections, bad, sizeof(bad))) {
			fprintf(stderr,
				"rocectl agent: unknown section '%s' in --only (dcb, ecn, "
				"rdma)\n",
				bad);
			return -EINVAL;
		}
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

/* The run: what every subcommand shares. */
struct agent {
	enum agent_cmd cmd;
	struct agent_opts o;
	struct rc_run_opts ropts;
	struct rc_device dev;
	struct rc_policy pol;
	bool have_policy;
	struct rc_inventory inv;
	bool have_inv;
	size_t dev_index;
	struct rc_desired_set desired;
	bool have_desired;
	struct rc_out out;
	int exit_code;
	size_t n_errors;
	size_t n_applied; /* interfaces apply changed */
	size_t n_drift;	  /* plan, verify: drifted fields (changes), on n_drifted interfaces */
	size_t n_drifted;
	bool drops; /* counters: a drop counter is non-zero */
	const char *policy_path;
	struct rc_history *hist; /* `agent enforce`: the run's record, NULL when none */
	/* --format prometheus: each interface's drift left, and whether it could be read */
	size_t n_prom;
	struct rc_prom_iface prom[MAX_INTERFACES];
	char *sink; /* --format prometheus: the text report, not printed */
	size_t sink_len;
};

static void prom_note(struct agent *a, const char *ifname, size_t drift, bool ok)
{
	if (a->n_prom == MAX_INTERFACES)
		return;
	a->prom[a->n_prom++] = (struct rc_prom_iface){.port = ifname, .drift = drift, .ok = ok};
}

static void note_error(struct agent *a)
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

static int discover(struct agent *a, struct rc_err *err)
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

/* ---- output helpers ------------------------------------------------------------------- */

static void out_prios(struct rc_out *o, const char *key, uint8_t mask)
{
	rc_out_open_array(o, key);
	for (int p = 0; p < RC_NPRIO; p++)
		if (mask & (1u << p))
			rc_out_uint(o, NULL, NULL, (uint64_t)p);
	rc_out_close_array(o);
}

static void text_prios(struct rc_out *o, uint8_t mask)
{
	bool any = false;

	for (int p = 0; p < RC_NPRIO; p++) {
		if (!(mask & (1u << p)))
			continue;
		rc_out_text(o, "%s%d", any ? "," : "", p);
		any = true;
	}
	if (!any)
		rc_out_text(o, "none");
}

static const char *kind_name(enum rc_change_kind k)
{
	return k == RC_CHANGE_UNKNOWN	    ? "unknown"
	       : k == RC_CHANGE_UNSUPPORTED ? "unsupported"
					    : "set";
}

/* A change outside the sections of this run is not part of the answer. */
static bool shown(const struct agent *a, const struct rc_change *c)
{
	return (rc_host_section_groups(a->o.sections) & c->group) != 0;
}

static void out_changes(struct agent *a, const struct rc_changes *ch)
{
	struct rc_out *o = &a->out;

	rc_out_open_array(o, "changes");
	for (size_t i = 0; ch && i < ch->n; i++) {
		const struct rc_change *c = &ch->v[i];

		if (!shown(a, c))
			continue;
		if (rc_out_json(o)) {
			rc_out_open_object(o, NULL);
			rc_out_str(o, "field", NULL, c->field);
			rc_out_str(o, "group", NULL, rc_field_name(c->group));
			rc_out_str(o, "kind", NULL, c->warning ? "warning" : kind_name(c->kind));
			if (c->kind == RC_CHANGE_SET)
				rc_out_str(o, "old", NULL, c->old_value);
			else
				rc_out_null(o, "old", NULL);
			rc_out_str(o, "new", NULL, c->new_value);
			rc_out_bool(o, "disruptive", NULL, c->disruptive);
			if (c->note[0])
				rc_out_str(o, "note", NULL, c->note);
			rc_out_close_object(o);
			continue;
		}
		if (c->kind == RC_CHANGE_UNSUPPORTED && c->note[0])
			rc_out_text(o, "    %-22s %s: %s\n", c->field,
				    c->warning ? "warning" : "not effective here", c->note);
		else if (c->kind == RC_CHANGE_UNSUPPORTED)
			rc_out_text(o, "    %-22s not controllable here (want %s)\n", c->field,
				    c->new_value);
		else if (a->cmd == A_VERIFY)
			rc_out_text(o, "    %-22s want %s, have %s\n", c->field, c->new_value,
				    c->kind == RC_CHANGE_UNKNOWN ? "unknown (unreadable)"
								 : c->old_value);
		else
			rc_out_text(o, "    %-22s %s -> %s%s\n", c->field,
				    c->kind == RC_CHANGE_UNKNOWN ? "unknown" : c->old_value,
				    c->new_value, c->disruptive ? "   (disruptive)" : "");
		if (c->kind == RC_CHANGE_SET && c->note[0])
			rc_out_text(o, "    %-22s   %s\n", "", c->note);
	}
	rc_out_close_array(o);
}

static size_t count_drift(const struct agent *a, const struct rc_changes *ch)
{
	size_t n = 0;

	for (size_t i = 0; ch && i < ch->n; i++)
		if (shown(a, &ch->v[i]) && ch->v[i].kind != RC_CHANGE_UNSUPPORTED)
			n++;
	return n;
}

static void out_iface_error(struct agent *a, const char *ifname, const char *msg)
{
	rc_out_open_object(&a->out, NULL);
	rc_out_str(&a->out, "interface", "%s: ", ifname);
	rc_out_str(&a->out, "status", NULL, "error");
	rc_out_str(&a->out, "error", "error: %s\n", msg);
	fprintf(stderr, "rocectl agent: %s\n", msg);
}

/* ---- plan / verify / apply ------------------------------------------------------------- */

static int copy_changes(struct rc_changes *dst, const struct rc_changes *src)
{
	memset(dst, 0, sizeof(*dst));
	if (!src->n)
		return 0;
	dst->v = malloc(src->n * sizeof(*dst->v));
	if (!dst->v)
		return -ENOMEM;
	memcpy(dst->v, src->v, src->n * sizeof(*dst->v));
	dst->n = dst->cap = src->n;
	return 0;
}

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
		out_iface_error(a, ifname, err.msg);
		rc_out_open_array(&a->out, "changes");
		rc_out_close_array(&a->out);
		rc_out_close_object(&a->out);
		note_error(a);
		prom_note(a, ifname, 0, false);
		if (a->hist)
			rc_history_result(a->hist, a->dev.name, "failed", err.msg);
		rc_devrun_close(&r);
		return;
	}
	drift = count_drift(a, &r.changes);
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
		out_changes(a, &r.changes);
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
	if (copy_changes(&planned, &r.changes)) {
		out_iface_error(a, ifname, "out of memory");
		rc_out_close_object(&a->out);
		note_error(a);
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
		note_error(a);
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
	out_changes(a, &planned);
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
	out_iface_error(a, ifname, pf->msg);
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
	note_error(a);
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

static void run_policy_cmd(struct agent *a)
{
	struct preflight *pf = NULL;
	char base_run[64];

	rc_journal_new_run_id(base_run, sizeof(base_run));
	history_begin(a, base_run);
	if (a->cmd == A_APPLY) {
		pf = calloc(a->o.n_if ? a->o.n_if : 1, sizeof(*pf));
		if (!pf) {
			fprintf(stderr, "rocectl agent: out of memory\n");
			note_error(a);
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

/* ---- show ------------------------------------------------------------------------------ */

static const char *tsa_text(uint8_t t)
{
	switch (t) {
	case IEEE_8021QAZ_TSA_STRICT:
		return "strict";
	case IEEE_8021QAZ_TSA_CB_SHAPER:
		return "cbs";
	case IEEE_8021QAZ_TSA_ETS:
		return "ets";
	case IEEE_8021QAZ_TSA_VENDOR:
		return "vendor";
	default:
		return "unknown";
	}
}

static const char *selector_text(uint8_t sel)
{
	return sel == IEEE_8021QAZ_APP_SEL_DSCP	       ? "dscp"
	       : sel == RC_DCB_APP_SEL_PCP	       ? "pcp"
	       : sel == IEEE_8021QAZ_APP_SEL_ETHERTYPE ? "ethtype"
						       : "other";
}

static void show_rdma(struct rc_out *o, const struct rc_host_port *hp)
{
	const struct rc_rdma_port *r = &hp->rdma;

	if (!r->found) {
		rc_out_null(o, "rdma", "  rdma: no RDMA device behind this interface\n");
		return;
	}
	rc_out_open_object(o, "rdma");
	rc_out_str(o, "device", "  rdma: %s", r->ibdev);
	rc_out_uint(o, "port", " port %" PRIu64, r->port);
	rc_out_str(o, "state", " (%s", r->state[0] ? r->state : "?");
	rc_out_str(o, "phys_state", ", %s", r->phys_state[0] ? r->phys_state : "?");
	rc_out_str(o, "link_layer", ", %s)\n", r->link_layer[0] ? r->link_layer : "?");
	rc_out_str(o, "gid_source", "  gids (from %s):\n", r->source[0] ? r->source : "sysfs");
	rc_out_open_array(o, "gids");
	for (size_t i = 0; i < r->n_gids; i++) {
		rc_out_open_object(o, NULL);
		rc_out_uint(o, "index", "    %3llu  ", r->gids[i].index);
		rc_out_str(o, "gid", "%s  ", r->gids[i].gid);
		rc_out_str(o, "type", "%-10s  ", r->gids[i].type);
		rc_out_str(o, "ndev", "%s\n", r->gids[i].ndev);
		rc_out_close_object(o);
	}
	rc_out_close_array(o);
	if (r->roce_v2_ipv4_gid >= 0)
		rc_out_uint(o, "roce_v2_ipv4_gid_index",
			    "  RoCEv2 IPv4 GID index: %" PRIu64 " (NCCL_IB_GID_INDEX)\n",
			    (uint64_t)r->roce_v2_ipv4_gid);
	else
		rc_out_null(o, "roce_v2_ipv4_gid_index", "  RoCEv2 IPv4 GID index: none\n");
	rc_out_close_object(o);
}

static void show_dscp_map(struct rc_out *o, const struct rc_dcb_state *st)
{
	int map[RC_NDSCP];
	bool any = false;

	for (int d = 0; d < RC_NDSCP; d++)
		map[d] = -1;
	for (size_t i = 0; i < st->n_app; i++)
		if (st->app[i].selector == IEEE_8021QAZ_APP_SEL_DSCP &&
		    st->app[i].protocol < RC_NDSCP && map[st->app[i].protocol] < 0)
			map[st->app[i].protocol] = st->app[i].priority;
	rc_out_text(o, "    app dscp-prio");
	rc_out_open_array(o, "dscp_prio");
	for (int d = 0; d < RC_NDSCP; d++) {
		if (map[d] < 0)
			continue;
		rc_out_open_array(o, NULL);
		rc_out_uint(o, NULL, " %" PRIu64, (uint64_t)d);
		rc_out_uint(o, NULL, ":%" PRIu64, (uint64_t)map[d]);
		rc_out_close_array(o);
		any = true;
	}
	rc_out_close_array(o);
	rc_out_text(o, "%s\n", any ? "" : " (empty)");
}

static void show_dcb(struct rc_out *o, const struct rc_host_port *hp)
{
	const struct rc_dcb_state *st = &hp->dcb;
	char text[64];

	rc_out_open_object(o, "dcb");
	if (hp->dcb_rc) {
		rc_out_bool(o, "supported", NULL, false);
		rc_out_str(o, "error", "  dcb: not supported by this driver (%s)\n", hp->dcb_err);
		rc_out_close_object(o);
		return;
	}
	rc_out_bool(o, "supported", NULL, true);
	rc_out_text(o, "  dcb:\n");
	if (hp->has_caps) {
		static const struct {
			int attr;
			const char *key;
		} caps[] = {
		    {DCB_CAP_ATTR_PG, "pg"},	       {DCB_CAP_ATTR_PFC, "pfc"},
		    {DCB_CAP_ATTR_UP2TC, "up2tc"},     {DCB_CAP_ATTR_PG_TCS, "pg_tcs"},
		    {DCB_CAP_ATTR_PFC_TCS, "pfc_tcs"}, {DCB_CAP_ATTR_GSP, "gsp"},
		    {DCB_CAP_ATTR_BCN, "bcn"},	       {DCB_CAP_ATTR_DCBX, "dcbx"},
		};

		rc_out_open_object(o, "caps");
		rc_out_text(o, "    caps");
		for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
			char fmt[32];

			if (!hp->caps.has[caps[i].attr])
				continue;
			snprintf(fmt, sizeof(fmt), " %s 0x%%02" PRIx64, caps[i].key);
			rc_out_uint(o, caps[i].key, fmt, hp->caps.val[caps[i].attr]);
		}
		rc_out_text(o, "\n");
		rc_out_close_object(o);
	} else {
		rc_out_null(o, "caps", NULL);
	}
	if (st->has_dcbx) {
		rc_dcbx_describe(st->dcbx, text, sizeof(text));
		rc_out_open_object(o, "dcbx");
		rc_out_uint(o, "mode", NULL, st->dcbx);
		rc_out_text(o, "    dcbx %s\n", text);
		rc_out_bool(o, "host", NULL, st->dcbx & DCB_CAP_DCBX_HOST);
		rc_out_bool(o, "cee", NULL, st->dcbx & DCB_CAP_DCBX_VER_CEE);
		rc_out_bool(o, "ieee", NULL, st->dcbx & DCB_CAP_DCBX_VER_IEEE);
		rc_out_close_object(o);
	} else {
		rc_out_null(o, "dcbx", "    dcbx not reported\n");
	}
	{
		struct port_qos q;

		rc_host_to_qos(hp, RC_HOST_SEC_DCB, &q);
		rc_out_str(o, "trust", "    trust %s", rc_trust_name(q.trust));
		rc_out_str(o, "trust_source", " (from the %s)\n",
			   st->has_trust	   ? "apptrust"
			   : hp->nic.has_qos_trust ? "qos-sysfs"
						   : "app-table");
	}
	if (st->has_trust) {
		rc_out_open_array(o, "apptrust");
		rc_out_text(o, "    apptrust order:");
		for (size_t i = 0; i < st->n_trust; i++)
			rc_out_str(o, NULL, " %s", selector_text(st->trust[i]));
		rc_out_text(o, "\n");
		rc_out_close_array(o);
	} else {
		rc_out_null(o, "apptrust", NULL);
	}
	show_dscp_map(o, st);
	if (st->has_pfc) {
		rc_out_open_object(o, "pfc");
		rc_out_uint(o, "pfc_cap", "    pfc pfc-cap %" PRIu64 " prio-pfc ", st->pfc.pfc_cap);
		out_prios(o, "prio_pfc", st->pfc.pfc_en);
		text_prios(o, st->pfc.pfc_en);
		rc_out_uint(o, "delay", " delay %" PRIu64 " (cable metres on mlx5)\n",
			    st->pfc.delay);
		rc_out_close_object(o);
	} else {
		rc_out_null(o, "pfc", "    pfc not reported\n");
	}
	if (st->has_buffer) {
		rc_out_open_object(o, "buffer");
		rc_out_text(o, "    buffer prio-buffer");
		rc_out_open_array(o, "prio_buffer");
		for (int p = 0; p < RC_NPRIO; p++)
			rc_out_uint(o, NULL, " %" PRIu64, st->buffer.prio2buffer[p]);
		rc_out_close_array(o);
		rc_out_text(o, "\n    buffer buffer-size");
		rc_out_open_array(o, "buffer_size");
		for (int b = 0; b < DCBX_MAX_BUFFERS; b++)
			rc_out_uint(o, NULL, " %" PRIu64, st->buffer.buffer_size[b]);
		rc_out_close_array(o);
		rc_out_uint(o, "total_size", " total-size %" PRIu64 "\n", st->buffer.total_size);
		rc_out_close_object(o);
	} else {
		rc_out_null(o, "buffer", "    buffer not reported\n");
	}
	if (st->has_ets) {
		rc_out_open_object(o, "ets");
		rc_out_text(o, "    ets prio-tc");
		rc_out_open_array(o, "prio_tc");
		for (int p = 0; p < RC_NPRIO; p++)
			rc_out_uint(o, NULL, " %" PRIu64, st->ets.prio_tc[p]);
		rc_out_close_array(o);
		rc_out_text(o, " tc-tsa");
		rc_out_open_array(o, "tc_tsa");
		for (int t = 0; t < RC_NTC; t++)
			rc_out_str(o, NULL, " %s", tsa_text(st->ets.tc_tsa[t]));
		rc_out_close_array(o);
		rc_out_text(o, " tc-bw");
		rc_out_open_array(o, "tc_bw");
		for (int t = 0; t < RC_NTC; t++)
			rc_out_uint(o, NULL, " %" PRIu64, st->ets.tc_tx_bw[t]);
		rc_out_close_array(o);
		rc_out_text(o, "\n");
		rc_out_close_object(o);
	} else {
		rc_out_null(o, "ets", "    ets not reported\n");
	}
	rc_out_close_object(o);
}

/* The DCQCN parameters the driver can pin, with the route they were read through: the
 * operator sees which files `apply` would write. */
static void show_dcqcn(struct rc_out *o, const struct rc_mlx5_state *n)
{
	rc_out_open_object(o, "dcqcn");
	rc_out_bool(o, "controllable", NULL, n->has_dcqcn);
	if (!n->has_dcqcn) {
		rc_out_str(o, "why", "  dcqcn: not controllable here (%s)\n", n->dcqcn_why);
		rc_out_close_object(o);
		return;
	}
	rc_out_str(o, "route", "  dcqcn (%s):", rc_cc_route_name(n->dcqcn_route));
	rc_out_open_object(o, "params");
	for (int i = 0; i < RC_DCQCN_N; i++) {
		char fmt[64];

		if (!(n->dcqcn_mask & (1u << i)))
			continue;
		snprintf(fmt, sizeof(fmt), " %s %%" PRIu64, rc_dcqcn_name(i));
		rc_out_uint(o, rc_dcqcn_name(i), fmt, n->dcqcn[i]);
	}
	rc_out_close_object(o);
	rc_out_text(o, "\n");
	rc_out_close_object(o);
}

static void show_nic(struct rc_out *o, const struct rc_host_port *hp, unsigned sections)
{
	const struct rc_mlx5_state *n = &hp->nic;

	if (sections & RC_HOST_SEC_ECN) {
		rc_out_open_object(o, "ecn");
		rc_out_bool(o, "controllable", NULL, n->has_ecn);
		if (n->has_ecn) {
			rc_out_text(o, "  ecn notification point on ");
			out_prios(o, "np", n->np);
			text_prios(o, n->np);
			rc_out_text(o, ", reaction point on ");
			out_prios(o, "rp", n->rp);
			text_prios(o, n->rp);
			rc_out_text(o, "\n");
		} else {
			rc_out_text(o, "  ecn enables: not controllable here (no MLNX_OFED "
				       "ecn/ sysfs)\n");
		}
		rc_out_close_object(o);
		rc_out_open_object(o, "cnp");
		rc_out_bool(o, "controllable", NULL, n->has_cnp);
		if (n->has_cnp) {
			rc_out_uint(o, "dscp", "  cnp dscp %" PRIu64, (uint64_t)n->cnp_dscp);
			rc_out_uint(o, "prio", " prio %" PRIu64, (uint64_t)n->cnp_prio);
			rc_out_str(o, "route", " (%s)\n", rc_cc_route_name(n->cnp_route));
		} else {
			rc_out_str(o, "why", "  cnp: not controllable here (%s)\n", n->cnp_why);
		}
		rc_out_close_object(o);
		show_dcqcn(o, n);
	}
	if (sections & RC_HOST_SEC_RDMA) {
		rc_out_open_object(o, "roce_tos");
		rc_out_bool(o, "controllable", NULL, n->has_tos);
		if (n->has_tos)
			rc_out_uint(o, "value", "  rdma_cm default ToS %" PRIu64 "\n",
				    (uint64_t)n->roce_tos);
		else
			rc_out_str(o, "why", "  rdma_cm default ToS: not available (%s)\n",
				   n->tos_why);
		rc_out_close_object(o);
	}
}

static void show_interface(struct agent *a, struct rc_session *s, const char *ifname,
			   struct rc_host_port *hp)
{
	struct rc_out *o = &a->out;
	struct rc_err err = {0};

	if (rc_host_collect(s, ifname, hp, &err)) {
		out_iface_error(a, ifname, err.msg);
		rc_out_close_object(o);
		note_error(a);
		return;
	}
	rc_out_open_object(o, NULL);
	rc_out_str(o, "interface", "%s:", ifname);
	if (hp->mtu > 0)
		rc_out_int(o, "mtu", " mtu %" PRId64, hp->mtu);
	else
		rc_out_null(o, "mtu", NULL);
	if (hp->speed_mbps > 0)
		rc_out_int(o, "speed_mbps", " speed %" PRId64 " Mb/s", hp->speed_mbps);
	else
		rc_out_null(o, "speed_mbps", NULL);
	rc_out_str(o, "operstate", " %s\n", hp->operstate[0] ? hp->operstate : "unknown");
	if (a->o.sections & RC_HOST_SEC_RDMA)
		show_rdma(o, hp);
	if (a->o.sections & RC_HOST_SEC_DCB) {
		show_dcb(o, hp);
		/* A NIC without DCB is an error to report, never a silent pass. */
		if (hp->dcb_rc) {
			fprintf(stderr, "rocectl agent: %s\n", hp->dcb_err);
			note_error(a);
		}
	}
	show_nic(o, hp, a->o.sections);
	rc_out_close_object(o);
}

static void run_show(struct agent *a)
{
	struct rc_host_port *hp = malloc(sizeof(*hp));
	struct rc_session *s = NULL;
	struct rc_err err = {0};

	if (!hp || rc_host_driver.open(&a->dev, &a->ropts, &s, &err)) {
		for (size_t i = 0; i < a->o.n_if; i++) {
			out_iface_error(a, a->o.ifs[i], hp ? err.msg : "out of memory");
			rc_out_close_object(&a->out);
		}
		note_error(a);
		free(hp);
		return;
	}
	for (size_t i = 0; i < a->o.n_if; i++)
		show_interface(a, s, a->o.ifs[i], hp);
	rc_host_driver.close(s);
	free(hp);
}

/* ---- counters -------------------------------------------------------------------------- */

static void run_counters(struct agent *a)
{
	struct rc_session *s = NULL;
	struct rc_err err = {0};

	if (rc_host_driver.open(&a->dev, &a->ropts, &s, &err)) {
		note_error(a);
		for (size_t i = 0; i < a->o.n_if; i++) {
			out_iface_error(a, a->o.ifs[i], err.msg);
			rc_out_close_object(&a->out);
		}
		return;
	}
	for (size_t i = 0; i < a->o.n_if; i++) {
		struct rc_port_state port = {0};
		struct rc_counters c = {0};

		snprintf(port.name, sizeof(port.name), "%s", a->o.ifs[i]);
		if (rc_host_driver.counters(s, &port, 1, &c, &err)) {
			out_iface_error(a, port.name, err.msg);
			note_error(a);
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

/* ---- the command ----------------------------------------------------------------------- */

/* The last line of the text, and with -q the only one. */
static void summary_line(struct agent *a)
{
	struct rc_out *o = &a->out;
	size_t n = a->o.n_if;
	const char *ifs = n == 1 ? "interface" : "interfaces";

	o->quiet = false;
	switch (a->cmd) {
	case A_PLAN:
	case A_VERIFY:
		rc_out_text(o, "%s: %zu %s%s on %zu of %zu %s, %zu failed\n", cmd_names[a->cmd],
			    a->n_drift, a->cmd == A_PLAN ? "change" : "drifted field",
			    a->n_drift == 1 ? "" : "s", a->n_drifted, n, ifs, a->n_errors);
		break;
	case A_APPLY:
		rc_out_text(o, "%s: %zu of %zu %s changed, %zu failed\n",
			    a->o.enforce ? "enforce" : "apply", a->n_applied, n, ifs, a->n_errors);
		break;
	case A_COUNTERS:
		rc_out_text(o, "counters: %zu %s, %s\n", n, ifs,
			    a->drops ? "drops counted" : "no drops");
		break;
	default:
		rc_out_text(o, "show: %zu %s\n", n, ifs);
	}
}

static const char *overall_status(const struct agent *a)
{
	if (a->exit_code == RC_EXIT_ERROR)
		return "error";
	switch (a->cmd) {
	case A_PLAN:
		return a->exit_code == RC_EXIT_CHANGES ? "changes" : "in-sync";
	case A_VERIFY:
		return a->exit_code == RC_EXIT_CHANGES ? "drift" : "in-sync";
	case A_APPLY:
		return a->n_applied ? "applied" : "in-sync";
	default:
		return a->drops ? "drops" : "ok";
	}
}

static int parse_cmd(const char *s, enum agent_cmd *cmd)
{
	for (int i = 0; i < (int)(sizeof(cmd_names) / sizeof(cmd_names[0])); i++) {
		if (!strcmp(s, cmd_names[i])) {
			*cmd = (enum agent_cmd)i;
			return 0;
		}
	}
	return -EINVAL;
}

/* --desired: the controller's rendered state replaces the policy (docs/ENFORCE.md, "One
 * source of truth").  A file rendered for another host is refused: its cable lengths are
 * another host's. */
static int load_desired(struct agent *a, struct rc_err *err)
{
	const char *want = a->o.host ? a->o.host : a->dev.name;
	int rc;

	if (a->o.policy || a->o.inventory)
		return rc_errf(err, EINVAL, "--desired replaces -p and -i: give one or the other");
	rc = rc_desired_load(a->o.desired, &a->desired, err);
	if (rc)
		return rc;
	a->have_desired = true;
	if (strcmp(a->desired.host, want))
		return rc_errf(err, EINVAL,
			       "'%s' was rendered for host '%s', this is '%s' (--host says which "
			       "host this is)",
			       a->o.desired, a->desired.host, want);
	if (a->o.host)
		snprintf(a->dev.name, sizeof(a->dev.name), "%s", a->o.host);
	memset(&a->pol, 0, sizeof(a->pol));
	snprintf(a->pol.name, sizeof(a->pol.name), "%s", a->desired.policy);
	a->have_policy = true;
	return 0;
}

/* -i: this host's entry of the inventory (its interfaces and links), reached
 * locally whatever transport the controller uses for it. */
static int load_inventory(struct agent *a, struct rc_err *err)
{
	struct rc_warnings warn = {0};
	const char *name = a->o.host ? a->o.host : a->dev.name;
	ptrdiff_t idx;

	if (rc_inventory_load(a->o.inventory, &a->inv, &warn, err))
		return -EINVAL;
	a->have_inv = true;
	if (!a->o.json)
		rc_warnings_print(&warn, stderr);
	idx = rc_inventory_device_index(&a->inv, name);
	if (idx < 0)
		return rc_errf(err, ENOENT,
			       "host '%s' is not in the inventory '%s' (--host names it)", name,
			       a->o.inventory);
	if (a->inv.devices[idx].kind != RC_DEV_HOST)
		return rc_errf(err, EINVAL, "'%s' is a switch in the inventory '%s', not a host",
			       name, a->o.inventory);
	a->dev = a->inv.devices[idx];
	a->dev.platform = RC_PLAT_HOST;
	a->dev.transport = RC_TRANSPORT_LOCAL;
	a->dev.driver[0] = '\0';
	a->dev_index = (size_t)idx;
	return 0;
}

static int load_policy(struct agent *a, struct rc_err *err)
{
	struct rc_warnings warn = {0};
	const char *path = a->o.policy;
	bool desired_cmd = a->cmd != A_SHOW && a->cmd != A_COUNTERS;

	if (!desired_cmd && (a->o.inventory || a->o.desired))
		return rc_errf(err, EINVAL,
			       "-i and --desired are for plan, apply, verify, enforce");
	if (a->o.host && !a->o.inventory && !a->o.desired)
		return rc_errf(err, EINVAL,
			       "--host names this host in an inventory (-i) or a "
			       "rendered state (--desired)");
	if (a->o.desired)
		return load_desired(a, err);
	if (!path && !desired_cmd)
		return 0;
	if (!path)
		path = getenv("ROCECTL_POLICY");
	if (!path || !*path)
		path = DEFAULT_POLICY;
	if (rc_policy_load(path, &a->pol, &warn, err))
		return -EINVAL;
	a->policy_path = path;
	if (!a->o.json)
		rc_warnings_print(&warn, stderr);
	a->have_policy = true;
	return a->o.inventory ? load_inventory(a, err) : 0;
}

/* --format prometheus: the host's metrics to -o FILE (atomically, readable by node_exporter)
 * or stdout.  ok false: the host could not be read at all (policy, discovery). */
static int write_prom(struct agent *a, bool ok)
{
	struct rc_err err = {0};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = a->o.output ? open_memstream(&buf, &len) : stdout;
	int rc = 0;

	if (!f) {
		fprintf(stderr, "rocectl agent: out of memory\n");
		return -ENOMEM;
	}
	for (size_t i = 0; ok && i < a->n_prom; i++)
		ok = a->prom[i].ok;
	rc_report_prometheus_host(f, &a->dev, ok, time(NULL), a->prom, a->n_prom);
	if (!a->o.output)
		return fflush(f) ? -EIO : 0;
	if (fclose(f)) {
		free(buf);
		fprintf(stderr, "rocectl agent: out of memory\n");
		return -ENOMEM;
	}
	rc = rc_write_atomic(a->o.output, buf, len, 0644, "metrics", &err);
	if (rc) {
		fprintf(stderr, "rocectl agent: ");
		rc_err_print(&err, stderr);
	}
	free(buf);
	return rc;
}

static void agent_free(struct agent *a)
{
	if (a->have_inv)
		rc_inventory_fini(&a->inv);
	if (a->have_desired)
		rc_desired_fini(&a->desired);
	if (a->out.f && a->out.f != stdout)
		fclose(a->out.f);
	free(a->sink);
	free(a);
}

#define USAGE                                                                                      \
	"rocectl agent show|plan|apply|enforce|verify|counters [-p POLICY] [--interface IF]... "   \
	"[-i INVENTORY [--host NAME] | --desired FILE] [--json] [--root DIR] [--journal DIR] "     \
	"[--only dcb,ecn,rdma] [--disruptive skip|allow] [--format text|json|prometheus [-o "      \
	"FILE]]"

int cmd_agent(int argc, char **argv, const struct rc_global *g)
{
	struct agent *a = calloc(1, sizeof(*a));
	struct rc_err err = {0};
	int npos, rc, code;
	char host[RC_NAME_MAX] = "localhost";

	if (!a) {
		fprintf(stderr, "rocectl agent: out of memory\n");
		return RC_EXIT_ERROR;
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "state") || !strcmp(argv[i], "write")) {
			free(a);
			return cmd_agent_remote(argc, argv, g);
		}
	}
	a->o.journal = getenv("ROCECTL_JOURNAL");
	a->o.sections = RC_HOST_SEC_ALL;
	rc = rc_parse_options(argc, argv, USAGE, options, on_option, &a->o, &npos);
	if (rc) {
		free(a);
		return rc > 0 ? RC_EXIT_OK : RC_EXIT_USAGE;
	}
	if (npos == 1 && !strcmp(argv[0], "enforce")) {
		a->o.enforce = true;
		argv[0] = "apply";
	}
	if (npos != 1 || parse_cmd(argv[0], &a->cmd)) {
		fprintf(stderr, "rocectl agent: say what to do: show, plan, apply, verify or "
				"counters\n");
		rc_print_usage(stderr, USAGE, options);
		free(a);
		return RC_EXIT_USAGE;
	}
	if (!a->o.journal || !*a->o.journal)
		a->o.journal = RC_JOURNAL_DEFAULT_DIR;
	a->ropts.root = a->o.root ? a->o.root : g->root;
	a->ropts.accept_new_host_keys = g->accept_new_host_keys;
	/* Only apply writes; the driver refuses a write in any other run. */
	a->ropts.dry_run = a->cmd != A_APPLY;
	/* --only reaches the driver as the groups of the run, like any other option */
	a->ropts.groups = rc_host_section_groups(a->o.sections);
	if (gethostname(host, sizeof(host) - 1) || !host[0])
		snprintf(host, sizeof(host), "localhost");
	host[sizeof(host) - 1] = '\0';
	snprintf(a->dev.name, sizeof(a->dev.name), "%s", host);
	a->dev.kind = RC_DEV_HOST;
	a->dev.platform = RC_PLAT_HOST;
	a->dev.transport = RC_TRANSPORT_LOCAL;
	a->dev.role = RC_ROLE_HOST;

	if (a->o.output && !a->o.prom) {
		fprintf(stderr, "rocectl agent: -o is for --format prometheus\n");
		agent_free(a);
		return RC_EXIT_USAGE;
	}
	if (a->o.prom && (a->cmd == A_SHOW || a->cmd == A_COUNTERS)) {
		fprintf(stderr, "rocectl agent: --format prometheus is for plan, verify, apply and "
				"enforce\n");
		agent_free(a);
		return RC_EXIT_USAGE;
	}
	/* prometheus: the text report goes nowhere, the metrics are written at the end */
	rc_out_init(&a->out, a->o.prom ? open_memstream(&a->sink, &a->sink_len) : stdout,
		    a->o.json ? RC_OUT_JSON : RC_OUT_TEXT);
	if (!a->out.f) {
		fprintf(stderr, "rocectl agent: out of memory\n");
		agent_free(a);
		return RC_EXIT_ERROR;
	}
	a->out.quiet = rc_cli_verbosity() < 0; /* -q: the summary line only */
	rc = load_policy(a, &err);
	if (!rc)
		rc = discover(a, &err);
	if (rc) {
		if (a->o.json) {
			rc_out_open_object(&a->out, NULL);
			rc_out_str(&a->out, "schema", NULL, AGENT_SCHEMA);
			rc_out_uint(&a->out, "protocol", NULL, RC_AGENT_PROTOCOL);
			rc_out_str(&a->out, "command", NULL, cmd_names[a->cmd]);
			rc_out_str(&a->out, "host", NULL, a->dev.name);
			rc_out_str(&a->out, "status", NULL, "error");
			rc_out_int(&a->out, "exit_code", NULL, RC_EXIT_ERROR);
			rc_out_str(&a->out, "error", NULL, err.msg);
			rc_out_open_array(&a->out, "interfaces");
			rc_out_close_array(&a->out);
			rc_out_close_object(&a->out);
			rc_out_end(&a->out);
		}
		fprintf(stderr, "rocectl agent: ");
		rc_err_print(&err, stderr);
		if (a->o.prom)
			write_prom(a, false);
		agent_free(a);
		return RC_EXIT_ERROR;
	}

	rc_out_open_object(&a->out, NULL);
	rc_out_str(&a->out, "schema", NULL, AGENT_SCHEMA);
	/* the controller reads `agent counters --json` over SSH and checks the protocol it
	 * speaks (agent_answer.c), as for `agent state` and `agent write` */
	rc_out_uint(&a->out, "protocol", NULL, RC_AGENT_PROTOCOL);
	rc_out_str(&a->out, "command", NULL, a->o.enforce ? "enforce" : cmd_names[a->cmd]);
	rc_out_str(&a->out, "host", "%s", a->dev.name);
	if (a->have_policy)
		rc_out_str(&a->out, "policy", " (policy %s)", a->pol.name);
	else
		rc_out_null(&a->out, "policy", NULL);
	rc_out_text(&a->out, ": %s, %zu interface%s\n",
		    a->o.enforce ? "enforce" : cmd_names[a->cmd], a->o.n_if,
		    a->o.n_if == 1 ? "" : "s");
	rc_out_open_array(&a->out, "interfaces");
	if (a->cmd == A_SHOW)
		run_show(a);
	else if (a->cmd == A_COUNTERS)
		run_counters(a);
	else
		run_policy_cmd(a);
	rc_out_close_array(&a->out);
	summary_line(a);
	rc_out_str(&a->out, "status", NULL, overall_status(a));
	rc_out_int(&a->out, "exit_code", NULL, a->exit_code);
	rc_out_close_object(&a->out);
	rc_out_end(&a->out);
	code = a->exit_code;
	if (a->o.prom && write_prom(a, true))
		code = RC_EXIT_ERROR;
	agent_free(a);
	return code;
}
