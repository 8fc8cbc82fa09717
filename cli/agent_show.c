/* SPDX-License-Identifier: Apache-2.0 */
/* `rocectl agent`: the printing: changes, errors and `agent show`'s NIC details. */
#include "agent.h"
#include "rocectl/report.h"

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

/* A change outside the sections of this run is not part of the answer. */
static bool shown(const struct agent *a, const struct rc_change *c)
{
	return (rc_host_section_groups(a->o.sections) & c->group) != 0;
}

void agent_out_changes(struct agent *a, const struct rc_changes *ch)
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
			rc_report_change_json(o, c);
			rc_out_close_object(o);
			continue;
		}
		if (c->kind == RC_CHANGE_UNSUPPORTED && rc_change_note(c)[0])
			rc_out_text(o, "    %-22s %s: %s\n", c->field,
				    c->warning ? "warning" : "not effective here",
				    rc_change_note(c));
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
		if (c->kind == RC_CHANGE_SET && rc_change_note(c)[0])
			rc_out_text(o, "    %-22s   %s\n", "", rc_change_note(c));
	}
	rc_out_close_array(o);
}

size_t agent_count_drift(const struct agent *a, const struct rc_changes *ch)
{
	size_t n = 0;

	for (size_t i = 0; ch && i < ch->n; i++)
		if (shown(a, &ch->v[i]) && ch->v[i].kind != RC_CHANGE_UNSUPPORTED)
			n++;
	return n;
}

void agent_out_iface_error(struct agent *a, const char *ifname, const char *msg)
{
	rc_out_open_object(&a->out, NULL);
	rc_out_str(&a->out, "interface", "%s: ", ifname);
	rc_out_str(&a->out, "status", NULL, "error");
	rc_out_str(&a->out, "error", "error: %s\n", msg);
	fprintf(stderr, "rocectl agent: %s\n", msg);
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
		agent_out_iface_error(a, ifname, err.msg);
		rc_out_close_object(o);
		agent_note_error(a);
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
			agent_note_error(a);
		}
	}
	show_nic(o, hp, a->o.sections);
	rc_out_close_object(o);
}

void agent_run_show(struct agent *a)
{
	struct rc_host_port *hp = malloc(sizeof(*hp));
	struct rc_session *s = NULL;
	struct rc_err err = {0};

	if (!hp || rc_host_driver.open(&a->dev, &a->ropts, &s, &err)) {
		for (size_t i = 0; i < a->o.n_if; i++) {
			agent_out_iface_error(a, a->o.ifs[i], hp ? err.msg : "out of memory");
			rc_out_close_object(&a->out);
		}
		agent_note_error(a);
		free(hp);
		return;
	}
	for (size_t i = 0; i < a->o.n_if; i++)
		show_interface(a, s, a->o.ifs[i], hp);
	rc_host_driver.close(s);
	free(hp);
}
