/* SPDX-License-Identifier: Apache-2.0 */
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
#include "agent.h"

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
    RC_OPT_JOURNAL(OPT_JOURNAL),
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
		return rc_interface_arg("agent", arg, o->ifs, &o->n_if, MAX_INTERFACES);
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
		rc_out_text(o, "%s: %zu %s%s on %zu of %zu %s, %zu failed\n",
			    agent_cmd_names[a->cmd], a->n_drift,
			    a->cmd == A_PLAN ? "change" : "drifted field",
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
	for (int i = 0; i < (int)(sizeof(agent_cmd_names) / sizeof(agent_cmd_names[0])); i++) {
		if (!strcmp(s, agent_cmd_names[i])) {
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
	a->o.journal = rc_txn_journal_dir(a->o.journal);
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
		rc = agent_discover(a, &err);
	if (rc) {
		if (a->o.json) {
			rc_out_open_object(&a->out, NULL);
			rc_out_str(&a->out, "schema", NULL, AGENT_SCHEMA);
			rc_out_uint(&a->out, "protocol", NULL, RC_AGENT_PROTOCOL);
			rc_out_str(&a->out, "command", NULL, agent_cmd_names[a->cmd]);
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
	rc_out_str(&a->out, "command", NULL, a->o.enforce ? "enforce" : agent_cmd_names[a->cmd]);
	rc_out_str(&a->out, "host", "%s", a->dev.name);
	if (a->have_policy)
		rc_out_str(&a->out, "policy", " (policy %s)", a->pol.name);
	else
		rc_out_null(&a->out, "policy", NULL);
	rc_out_text(&a->out, ": %s, %zu interface%s\n",
		    a->o.enforce ? "enforce" : agent_cmd_names[a->cmd], a->o.n_if,
		    a->o.n_if == 1 ? "" : "s");
	rc_out_open_array(&a->out, "interfaces");
	if (a->cmd == A_SHOW)
		agent_run_show(a);
	else if (a->cmd == A_COUNTERS)
		agent_run_counters(a);
	else
		agent_run_policy_cmd(a);
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
