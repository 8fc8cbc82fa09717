/* SPDX-License-Identifier: Apache-2.0 */
/* rocectl validate: load, check, and print the normalized policy (and inventory).  Text
 * lines are "key.path: value" with the same names as the JSON keys, so the two outputs
 * describe one model. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/cli.h"
#include "rocectl/inventory.h"
#include "rocectl/policy.h"
#include "rocectl/print.h"
#include "rocectl/units.h"

enum { OPT_FORMAT = 256 };

struct validate_opts {
	const char *policy;
	const char *inventory;
	bool json;
};

static const struct rc_option options[] = {
    {"policy", 'p', "FILE", "the policy to check", 'p'},
    {"inventory", 'i', "FILE", "also check this inventory against the policy", 'i'},
    {"format", 0, "FMT",
     "text (default) or json (examples/validate.schema.json): the normalized result", OPT_FORMAT},
    {NULL, 0, NULL, NULL, 0},
};

static const char usage[] = "rocectl validate -p POLICY [-i INVENTORY] [--format text|json]";

static int on_option(int id, const char *arg, void *ctx)
{
	struct validate_opts *v = ctx;

	switch (id) {
	case 'p':
		v->policy = arg;
		break;
	case 'i':
		v->inventory = arg;
		break;
	case OPT_FORMAT:
		return rc_format_text_json("validate", arg, &v->json);
	default:
		return -EINVAL;
	}
	return 0;
}

/* A size as bytes, with the human form in text only. */
static void out_size(struct rc_out *o, const char *key, const char *text_fmt, uint64_t v)
{
	char h[32];

	rc_out_uint(o, key, text_fmt, v);
	rc_format_size(v, h, sizeof(h));
	rc_out_text(o, " (%s)\n", h);
}

static void print_prios(struct rc_out *o, const char *key, const char *label, uint8_t mask)
{
	bool first = true;

	rc_out_text(o, "%s:", label);
	rc_out_open_array(o, key);
	for (unsigned p = 0; p < RC_NPRIO; p++) {
		if (!(mask & (1u << p)))
			continue;
		rc_out_uint(o, NULL, first ? " %" PRIu64 : ",%" PRIu64, p);
		first = false;
	}
	rc_out_close_array(o);
	rc_out_text(o, "\n");
}

static void print_classes(struct rc_out *o, const struct rc_policy *p)
{
	rc_out_str(o, "trust", "trust: %s\n", rc_trust_name(p->trust));
	rc_out_open_object(o, "roce");
	rc_out_uint(o, "dscp", "roce.dscp: %" PRIu64 "\n", p->roce_dscp);
	rc_out_uint(o, "priority", "roce.priority: %" PRIu64 "\n", p->roce_priority);
	rc_out_uint(o, "traffic_class", "roce.traffic_class: %" PRIu64 "\n",
		    p->prio2tc[p->roce_priority]);
	rc_out_close_object(o);
	rc_out_open_object(o, "cnp");
	rc_out_uint(o, "dscp", "cnp.dscp: %" PRIu64 "\n", p->cnp_dscp);
	rc_out_uint(o, "priority", "cnp.priority: %" PRIu64 "\n", p->cnp_priority);
	rc_out_uint(o, "traffic_class", "cnp.traffic_class: %" PRIu64 "\n",
		    p->prio2tc[p->cnp_priority]);
	rc_out_close_object(o);
	rc_out_text(o, "priority_to_tc:");
	rc_out_open_array(o, "priority_to_tc");
	for (int i = 0; i < RC_NPRIO; i++) {
		rc_out_text(o, " %d:", i);
		rc_out_uint(o, NULL, "%" PRIu64, p->prio2tc[i]);
	}
	rc_out_close_array(o);
	rc_out_text(o, "\n");
}

static void print_pfc(struct rc_out *o, const struct rc_policy *p)
{
	rc_out_open_object(o, "pfc");
	print_prios(o, "priorities", "pfc.priorities", p->pfc_priorities);
	if (!p->watchdog_present) {
		rc_out_null(o, "watchdog", "pfc.watchdog: none\n");
	} else {
		rc_out_open_object(o, "watchdog");
		rc_out_uint(o, "detection_ms", "pfc.watchdog.detection_ms: %" PRIu64 "\n",
			    p->watchdog.detection_ms);
		rc_out_uint(o, "restoration_ms", "pfc.watchdog.restoration_ms: %" PRIu64 "\n",
			    p->watchdog.restoration_ms);
		rc_out_str(o, "action", "pfc.watchdog.action: %s\n",
			   p->watchdog.action == RC_WD_FORWARD ? "forward" : "drop");
		rc_out_close_object(o);
	}
	rc_out_close_object(o);
}

static void print_ecn(struct rc_out *o, const struct rc_policy *p)
{
	rc_out_open_object(o, "ecn");
	rc_out_bool(o, "enabled", "ecn.enabled: %s\n", p->ecn.enabled);
	rc_out_uint(o, "traffic_class", "ecn.traffic_class: %" PRIu64 "\n", p->ecn.traffic_class);
	if (p->ecn.kmax_bytes) {
		out_size(o, "min_threshold_bytes", "ecn.min_threshold_bytes: %" PRIu64,
			 p->ecn.kmin_bytes);
		out_size(o, "max_threshold_bytes", "ecn.max_threshold_bytes: %" PRIu64,
			 p->ecn.kmax_bytes);
	} else {
		rc_out_null(o, "min_threshold_bytes", "ecn.min_threshold_bytes: none\n");
		rc_out_null(o, "max_threshold_bytes", "ecn.max_threshold_bytes: none\n");
	}
	if (p->ecn.pmax_pct > 0)
		rc_out_double(o, "probability_pct", "ecn.probability_pct: %g\n", p->ecn.pmax_pct);
	else
		rc_out_null(o, "probability_pct", "ecn.probability_pct: none\n");
	rc_out_open_object(o, "host");
	rc_out_bool(o, "notification_point", "ecn.host.notification_point: %s\n", p->ecn.host_np);
	rc_out_bool(o, "reaction_point", "ecn.host.reaction_point: %s\n", p->ecn.host_rp);
	rc_out_close_object(o);
	rc_out_close_object(o);
}

static void print_rest(struct rc_out *o, const struct rc_policy *p)
{
	rc_out_open_object(o, "headroom");
	rc_out_uint(o, "cable_length_m", "headroom.cable_length_m: %" PRIu64 "\n",
		    p->headroom.cable_length_m);
	rc_out_uint(o, "mtu", "headroom.mtu: %" PRIu64 "\n", p->headroom.mtu);
	if (p->headroom.size_bytes)
		out_size(o, "size_bytes", "headroom.size_bytes: %" PRIu64, p->headroom.size_bytes);
	else
		rc_out_null(o, "size_bytes", "headroom.size_bytes: auto (computed per link)\n");
	rc_out_close_object(o);
	rc_out_open_array(o, "ets");
	if (p->n_ets == 0)
		rc_out_text(o, "ets: none (scheduling left alone)\n");
	for (int i = 0; i < p->n_ets; i++) {
		rc_out_open_object(o, NULL);
		rc_out_text(o, "ets[%d]:", i);
		rc_out_uint(o, "traffic_class", " traffic_class=%" PRIu64, p->ets[i].traffic_class);
		rc_out_str(o, "mode", " mode=%s", rc_tsa_name(p->ets[i].mode));
		if (p->ets[i].mode == RC_TSA_DWRR)
			rc_out_double(o, "bandwidth_pct", " bandwidth_pct=%g",
				      p->ets[i].bandwidth_pct);
		rc_out_text(o, "\n");
		rc_out_close_object(o);
	}
	rc_out_close_array(o);
	rc_out_open_object(o, "host");
	rc_out_uint(o, "roce_tos", "host.roce_tos: %" PRIu64, (uint64_t)p->roce_tos);
	rc_out_bool(o, "roce_tos_auto", NULL, p->roce_tos_auto);
	rc_out_text(o, "%s\n", p->roce_tos_auto ? " (auto: dscp << 2 | ECT(0))" : "");
	rc_out_close_object(o);
	rc_out_open_object(o, "tolerance");
	rc_out_double(o, "threshold_pct", "tolerance.threshold_pct: %g\n", p->tolerance_pct);
	rc_out_close_object(o);
}

static void print_policy(struct rc_out *o, const struct rc_policy *p)
{
	rc_out_open_object(o, "policy");
	rc_out_str(o, "name", "policy: %s", p->name);
	rc_out_str(o, "file", " (%s)\n", p->file);
	print_classes(o, p);
	print_pfc(o, p);
	print_ecn(o, p);
	print_rest(o, p);
	rc_out_close_object(o);
}

static void print_overrides(struct rc_out *o, const struct rc_overrides *ov)
{
	rc_out_text(o, "  overrides:");
	rc_out_open_object(o, "overrides");
	rc_out_open_object(o, "ecn");
	if (ov->has_ecn_enabled)
		rc_out_bool(o, "enabled", " ecn.enabled=%s", ov->ecn_enabled);
	if (ov->has_ecn_kmin)
		rc_out_uint(o, "min_threshold_bytes", " ecn.min_threshold_bytes=%" PRIu64,
			    ov->ecn_kmin_bytes);
	if (ov->has_ecn_kmax)
		rc_out_uint(o, "max_threshold_bytes", " ecn.max_threshold_bytes=%" PRIu64,
			    ov->ecn_kmax_bytes);
	if (ov->has_ecn_pmax)
		rc_out_double(o, "probability_pct", " ecn.probability_pct=%g", ov->ecn_pmax_pct);
	rc_out_close_object(o);
	rc_out_open_object(o, "headroom");
	if (ov->has_cable_length)
		rc_out_uint(o, "cable_length_m", " headroom.cable_length_m=%" PRIu64,
			    ov->cable_length_m);
	if (ov->has_headroom_size)
		rc_out_uint(o, "size_bytes", " headroom.size_bytes=%" PRIu64,
			    ov->headroom_size_bytes);
	if (ov->has_mtu)
		rc_out_uint(o, "mtu", " headroom.mtu=%" PRIu64, ov->mtu);
	rc_out_close_object(o);
	rc_out_open_object(o, "tolerance");
	if (ov->has_tolerance)
		rc_out_double(o, "threshold_pct", " tolerance.threshold_pct=%g", ov->tolerance_pct);
	rc_out_close_object(o);
	rc_out_close_object(o);
	rc_out_text(o, "\n");
}

static bool has_overrides(const struct rc_overrides *ov)
{
	return ov->has_ecn_enabled || ov->has_ecn_kmin || ov->has_ecn_kmax || ov->has_ecn_pmax ||
	       ov->has_cable_length || ov->has_headroom_size || ov->has_mtu || ov->has_tolerance;
}

/* Connection details: JSON only, the text line stays readable. */
static void print_access(struct rc_out *o, const struct rc_device *d)
{
	rc_out_open_object(o, "ssh");
	rc_out_str(o, "user", NULL, d->ssh.user);
	rc_out_uint(o, "port", NULL, d->ssh.port);
	rc_out_str(o, "identity_file", NULL, d->ssh.identity_file);
	rc_out_str(o, "known_hosts", NULL, d->ssh.known_hosts);
	rc_out_uint(o, "connect_timeout_ms", NULL, d->ssh.connect_timeout_ms);
	rc_out_uint(o, "command_timeout_ms", NULL, d->ssh.command_timeout_ms);
	rc_out_close_object(o);
	if (d->kind == RC_DEV_SWITCH) {
		rc_out_open_object(o, "rest");
		rc_out_str(o, "ca_file", NULL, rc_inv_str(d->rest.ca_file));
		rc_out_uint(o, "timeout_ms", NULL, d->rest.timeout_ms);
		rc_out_uint(o, "port", NULL, d->rest.port ? d->rest.port : 443);
		rc_out_bool(o, "insecure", NULL, d->rest.insecure);
		rc_out_close_object(o);
	}
	/* References to secrets only: a file name or a variable name, never a value. */
	rc_out_open_object(o, "credentials");
	rc_out_str(o, "user", NULL, d->cred.user);
	rc_out_str(o, "password_file", NULL, rc_inv_str(d->cred.password_file));
	rc_out_str(o, "password_env", NULL, rc_inv_str(d->cred.password_env));
	rc_out_str(o, "identity_file", NULL, d->cred.identity_file);
	rc_out_close_object(o);
}

static void print_device(struct rc_out *o, const struct rc_device *d)
{
	bool host = d->kind == RC_DEV_HOST;

	rc_out_open_object(o, NULL);
	rc_out_str(o, "name", "device %s:", d->name);
	rc_out_str(o, "kind", " %s", host ? "host" : "switch");
	rc_out_str(o, "role", " role=%s", rc_role_name(d->role));
	rc_out_str(o, "platform", " platform=%s", rc_platform_name(d->platform));
	rc_out_str(o, "address", " address=%s", d->address);
	rc_out_str(o, "transport", " transport=%s", rc_transport_name(d->transport));
	if (rc_inv_str(d->agent_command)[0])
		rc_out_str(o, "agent_command", " agent_command='%s'", d->agent_command);
	if (d->jump.host[0]) {
		char jump[3 * RC_NAME_MAX];

		rc_jump_format(&d->jump, jump, sizeof(jump));
		rc_out_str(o, "proxy_jump", " proxy_jump=%s", jump);
	}
	rc_out_open_array(o, "ports");
	if (d->n_ports == 0)
		rc_out_text(o, host ? " interfaces=(every RDMA netdev)" : " ports=(discovered)");
	for (size_t i = 0; i < d->n_ports; i++)
		rc_out_str(o, NULL, i ? ",%s" : (host ? " interfaces=%s" : " ports=%s"),
			   d->ports[i]);
	rc_out_close_array(o);
	rc_out_text(o, "\n");
	print_access(o, d);
	if (has_overrides(&d->ov))
		print_overrides(o, &d->ov);
	rc_out_close_object(o);
}

static void print_link(struct rc_out *o, const struct rc_inventory *inv, const struct rc_link *l,
		       const struct rc_policy *p)
{
	rc_out_open_object(o, NULL);
	rc_out_open_object(o, "a");
	rc_out_str(o, "device", "link %s", inv->devices[l->a.dev].name);
	rc_out_str(o, "port", ":%s", l->a.port);
	rc_out_close_object(o);
	rc_out_open_object(o, "b");
	rc_out_str(o, "device", " -- %s", inv->devices[l->b.dev].name);
	rc_out_str(o, "port", ":%s", l->b.port);
	rc_out_close_object(o);
	if (l->speed_gbps)
		rc_out_uint(o, "speed_gbps", " speed_gbps=%" PRIu64, l->speed_gbps);
	else
		rc_out_null(o, "speed_gbps", " speed_gbps=unknown");
	if (l->cable_length_m)
		rc_out_uint(o, "cable_length_m", " cable_length_m=%" PRIu64, l->cable_length_m);
	else if (p)
		rc_out_uint(o, "cable_length_m", " cable_length_m=%" PRIu64 " (policy default)",
			    p->headroom.cable_length_m);
	else
		rc_out_null(o, "cable_length_m", " cable_length_m=(policy default)");
	rc_out_text(o, "\n");
	rc_out_close_object(o);
}

static void print_inventory(struct rc_out *o, const struct rc_inventory *inv,
			    const struct rc_policy *p)
{
	rc_out_open_object(o, "inventory");
	rc_out_str(o, "file", "inventory: %s\n", inv->file);
	rc_out_open_array(o, "devices");
	for (size_t i = 0; i < inv->n_devices; i++)
		print_device(o, &inv->devices[i]);
	rc_out_close_array(o);
	rc_out_open_array(o, "links");
	for (size_t i = 0; i < inv->n_links; i++)
		print_link(o, inv, &inv->links[i], p);
	rc_out_close_array(o);
	rc_out_close_object(o);
}

/* Every device's policy with its overrides must still be valid. */
static int check_devices(const struct rc_inventory *inv, const struct rc_policy *p,
			 struct rc_err *err)
{
	struct rc_policy *dp = malloc(sizeof(*dp));
	int rc = 0;

	if (!dp)
		return rc_errf(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < inv->n_devices && rc == 0; i++)
		rc = rc_inventory_policy(inv, i, p, dp, err);
	free(dp);
	return rc;
}

static int run(const struct validate_opts *v, struct rc_policy *pol, struct rc_inventory *inv,
	       struct rc_warnings *warn, struct rc_err *err)
{
	struct rc_out o;
	int rc;

	if (v->policy) {
		rc = rc_policy_load(v->policy, pol, warn, err);
		if (rc < 0)
			return rc;
	}
	if (v->inventory) {
		rc = rc_inventory_load(v->inventory, inv, warn, err);
		if (rc < 0)
			return rc;
		if (v->policy) {
			rc = check_devices(inv, pol, err);
			if (rc < 0)
				return rc;
		}
	}
	rc_warnings_print(warn, stderr);
	rc_out_init(&o, stdout, v->json ? RC_OUT_JSON : RC_OUT_TEXT);
	rc_out_open_object(&o, NULL);
	if (v->policy)
		print_policy(&o, pol);
	if (v->inventory)
		print_inventory(&o, inv, v->policy ? pol : NULL);
	rc_out_close_object(&o);
	rc_out_end(&o);
	return 0;
}

int cmd_validate(int argc, char **argv, const struct rc_global *g)
{
	struct validate_opts v = {0};
	struct rc_inventory inv = {0};
	struct rc_warnings *warn;
	struct rc_policy *pol;
	struct rc_err err = {0};
	int npos, rc;

	(void)g;
	rc = rc_parse_options(argc, argv, usage, options, on_option, &v, &npos);
	if (rc == 1)
		return RC_EXIT_OK;
	if (rc < 0)
		return RC_EXIT_USAGE;
	if (npos > 0) {
		fprintf(stderr, "rocectl validate: unexpected argument '%s'\n", argv[0]);
		rc_print_usage(stderr, usage, options);
		return RC_EXIT_USAGE;
	}
	if (!v.policy && !v.inventory) {
		fprintf(stderr, "rocectl validate: give a policy (-p) and/or an inventory (-i)\n");
		rc_print_usage(stderr, usage, options);
		return RC_EXIT_USAGE;
	}
	pol = calloc(1, sizeof(*pol));
	warn = calloc(1, sizeof(*warn));
	if (!pol || !warn) {
		free(pol);
		free(warn);
		fprintf(stderr, "rocectl validate: out of memory\n");
		return RC_EXIT_ERROR;
	}
	rc = run(&v, pol, &inv, warn, &err);
	if (rc < 0) {
		rc_warnings_print(warn, stderr);
		rc_err_print(&err, stderr);
	}
	rc_inventory_fini(&inv);
	free(pol);
	free(warn);
	return rc < 0 ? RC_EXIT_ERROR : RC_EXIT_OK;
}
