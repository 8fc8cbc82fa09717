/* SPDX-License-Identifier: Apache-2.0 */
/* EOS write side: writes of the vendor-neutral model -> configuration lines in their mode
 * (global, interface, interface tx-queue), rendered in session order; and the answers of
 * the CLI and of eAPI judged.
 *
 * The DSCP map, the traffic class -> queue map and the PFC watchdog timers are global in
 * EOS (AVD's eos_cli_config_gen templates qos.j2 and ethernet-interfaces.j2): a change to them is
 * checked against every port that was read, as NVUE's shared profiles are. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "rocectl/util.h"
#include "eos.h"
#include "switch_common.h"

#define WD_MIN_MS	 10
#define WD_MAX_MS	 60000
#define THRESH_WRITE_MAX 256000000ull /* AVD's eos_cli_config_gen templates: 1..256000000 */

void eos_cmds_free(struct eos_cmds *c)
{
	free(c->v);
	c->v = NULL;
	c->n = c->cap = 0;
}

static int add_cmd(struct eos_cmds *c, struct rc_err *err, enum eos_ctx ctx, const char *port,
		   int queue, uint32_t group, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));

static int add_cmd(struct eos_cmds *c, struct rc_err *err, enum eos_ctx ctx, const char *port,
		   int queue, uint32_t group, const char *fmt, ...)
{
	struct eos_cmd o;
	va_list ap;
	int n;

	memset(&o, 0, sizeof(o));
	va_start(ap, fmt);
	n = vsnprintf(o.line, sizeof(o.line), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(o.line))
		return rc_errf(err, ENAMETOOLONG, "EOS configuration line too long");
	o.ctx = ctx;
	o.port = port;
	o.queue = queue;
	o.group = group;
	for (size_t i = 0; i < c->n; i++) {
		const struct eos_cmd *p = &c->v[i];

		if (p->ctx == ctx && !strcmp(p->line, o.line) &&
		    (ctx == EOS_CTX_GLOBAL || (!strcmp(p->port, port) && p->queue == queue)))
			return 0;
	}
	if (rc_array_reserve((void **)&c->v, &c->cap, c->n + 1, sizeof(*c->v), 32))
		return rc_errf(err, ENOMEM, "out of memory");
	c->v[c->n++] = o;
	return 0;
}

/* no libm: percentages are small and non-negative */
static long long round_pct(double v)
{
	return v < 0 ? -1 : (long long)(v + 0.5);
}

/* ms -> "0.3", "1", "0.125" (seconds, the watchdog's unit) */
static void seconds(char *buf, size_t len, uint32_t ms)
{
	if (ms % 1000 == 0)
		snprintf(buf, len, "%u", ms / 1000);
	else if (ms % 100 == 0)
		snprintf(buf, len, "%u.%u", ms / 1000, (ms % 1000) / 100);
	else if (ms % 10 == 0)
		snprintf(buf, len, "%u.%02u", ms / 1000, (ms % 1000) / 10);
	else
		snprintf(buf, len, "%u.%03u", ms / 1000, ms % 1000);
}

struct wctx {
	const struct rc_port_write *w;
	const struct eos_port_info *info;
	struct eos_cmds *cmds;
	struct rc_err *err;
};

#define GLOBAL(x, g, ...)                                                                          \
	add_cmd((x)->cmds, (x)->err, EOS_CTX_GLOBAL, (x)->w->port, -1, g, __VA_ARGS__)
#define IFACE(x, g, ...) add_cmd((x)->cmds, (x)->err, EOS_CTX_IF, (x)->w->port, -1, g, __VA_ARGS__)
#define QUEUE(x, q, g, ...)                                                                        \
	add_cmd((x)->cmds, (x)->err, EOS_CTX_QUEUE, (x)->w->port, q, g, __VA_ARGS__)

static int w_trust(struct wctx *x)
{
	const struct port_qos *want = x->w->want, *have = x->w->have;

	if (want->trust == have->trust && x->info->trust_line)
		return 0;
	if (want->trust == RC_TRUST_DSCP) {
		int rc = IFACE(x, RC_F_TRUST, "qos trust dscp");

		/* EOS's default DSCP map is not documented (AVD's eos_cli_config_gen templates): a
		 * port that starts to classify by DSCP gets the entries it relies on written out,
		 * even where the default already agrees (group 0: no port's state changes) */
		for (int d = 0; d < RC_NDSCP && !rc; d++)
			if ((want->dscp_mask & (1ull << d)) &&
			    !(x->info->dscp_explicit & (1ull << d)) &&
			    (have->dscp_mask & (1ull << d)) &&
			    have->dscp2prio[d] == want->dscp2prio[d])
				rc = GLOBAL(x, 0, "qos map dscp %d to traffic-class %u", d,
					    want->dscp2prio[d]);
		return rc;
	}
	if (want->trust == RC_TRUST_PCP)
		return IFACE(x, RC_F_TRUST, "qos trust cos");
	return 0;
}

/* An explicit map line for every entry that changes: EOS's defaults are not documented
 * (AVD's eos_cli_config_gen templates).  An entry that already reads as wanted is left alone,
 * explicit or not: the group may come here for its effect only (running differs from startup,
 * eos_effect.c), which a save repairs, and a port turned to DSCP trust gets its entries pinned by
 * w_trust. */
static int w_dscp(struct wctx *x)
{
	const struct port_qos *want = x->w->want, *have = x->w->have;
	int rc = 0;

	for (int d = 0; d < RC_NDSCP && !rc; d++) {
		if (!(want->dscp_mask & (1ull << d)))
			continue;
		if (want->dscp2prio[d] >= RC_NPRIO)
			return rc_errf(x->err, ERANGE,
				       "'%s': DSCP %d to traffic class %u: out of "
				       "range",
				       x->w->port, d, want->dscp2prio[d]);
		if ((have->dscp_mask & (1ull << d)) && have->dscp2prio[d] == want->dscp2prio[d])
			continue;
		rc = GLOBAL(x, RC_F_DSCP2PRIO, "qos map dscp %d to traffic-class %u", d,
			    want->dscp2prio[d]);
	}
	return rc;
}

static int w_prio2tc(struct wctx *x)
{
	const struct port_qos *want = x->w->want, *have = x->w->have;
	int rc = 0;

	for (int p = 0; p < RC_NPRIO && !rc; p++) {
		if (!(want->prio_mask & (1u << p)))
			continue;
		if (want->prio2tc[p] >= RC_NTC)
			return rc_errf(x->err, ERANGE,
				       "'%s': traffic class %d to queue %u: out of "
				       "range",
				       x->w->port, p, want->prio2tc[p]);
		if ((have->prio_mask & (1u << p)) && have->prio2tc[p] == want->prio2tc[p])
			continue;
		rc = GLOBAL(x, RC_F_PRIO2TC, "qos map traffic-class %d to tx-queue %u", p,
			    want->prio2tc[p]);
	}
	return rc;
}

static int w_pfc(struct wctx *x)
{
	uint8_t want = x->w->want->pfc_enabled, cur = x->info->nodrop;
	int rc = 0;

	/* PFC off and wanted off: no-drop lines under a port without `priority-flow-control
	 * on` do nothing, and the group may be here for its effect only (eos_effect.c) */
	if (!want && !x->w->have->pfc_enabled)
		return 0;
	if (want && x->info->pfc_all_off)
		rc = GLOBAL(x, RC_F_PFC, "no priority-flow-control all off");
	for (int p = 0; p < RC_NPRIO && !rc; p++) {
		uint8_t bit = (uint8_t)(1u << p);

		if ((want & bit) && !(cur & bit))
			rc = IFACE(x, RC_F_PFC, "priority-flow-control priority %d no-drop", p);
		else if (!(want & bit) && (cur & bit))
			rc = IFACE(x, RC_F_PFC, "no priority-flow-control priority %d", p);
	}
	if (!rc && want && !x->info->pfc_on)
		rc = IFACE(x, RC_F_PFC, "priority-flow-control on");
	else if (!rc && !want && x->info->pfc_on)
		rc = IFACE(x, RC_F_PFC, "no priority-flow-control on");
	return rc;
}

/* One line carries all three.  `kbytes` is the unit the real configurations use
 * (conformance eos/avd/intended_configs/qos.cfg) and what the policy's KB means (1000, as
 * engine/units.c); `bytes` (AVD schema table qos-profiles.md) only for a size that is not
 * a whole number of kbytes. */
static int ecn_thresholds(struct wctx *x, int t, uint64_t kmin, uint64_t kmax, long long p)
{
	bool k = kmin % 1000 == 0 && kmax % 1000 == 0;

	return QUEUE(x, t, RC_F_ECN,
		     "random-detect ecn minimum-threshold %llu %s maximum-threshold %llu %s "
		     "max-mark-probability %lld",
		     (unsigned long long)(k ? kmin / 1000 : kmin), k ? "kbytes" : "bytes",
		     (unsigned long long)(k ? kmax / 1000 : kmax), k ? "kbytes" : "bytes", p);
}

/* Every queue that marks after this write counts its marks (eos_effect.c): otherwise the
 * ECN counters of `rocectl counters` have nothing to read. */
static int w_ecn_count(struct wctx *x)
{
	const struct port_qos *want = x->w->want, *have = x->w->have;
	int rc = 0;

	for (int t = 0; t < RC_NTC && !rc; t++) {
		bool pinned = want->ecn_tc_mask & (1u << t);
		bool marks = pinned ? want->ecn[t].enabled : have->ecn[t].enabled;

		if (marks && !x->info->ecn_count[t])
			rc = QUEUE(x, t, RC_F_ECN, "random-detect ecn count");
	}
	return rc;
}

/* Scheduling per queue: strict priority is EOS's default, `no priority` joins the weighted
 * round robin shared by `bandwidth percent` (AVD's qos.cfg, `qos profile test`;
 * qos.cfg `qos profile test`).  A queue the policy leaves out holds no share: it goes
 * back to strict, EOS's default. */
static int w_ets(struct wctx *x)
{
	const struct rc_ets *want = &x->w->want->ets, *have = &x->w->have->ets;
	int rc = 0;

	for (int t = 0; t < RC_NTC && !rc; t++) {
		uint8_t bit = (uint8_t)(1u << t);

		if (!(want->tc_mask & bit)) {
			if ((want->no_share_mask & bit) && have->tsa[t] == RC_TSA_DWRR &&
			    have->bw_pct[t])
				rc = QUEUE(x, t, RC_F_ETS, "priority strict");
			continue;
		}
		if (want->tsa[t] == RC_TSA_STRICT) {
			if (have->tsa[t] != RC_TSA_STRICT)
				rc = QUEUE(x, t, RC_F_ETS, "priority strict");
			continue;
		}
		if (want->tsa[t] != RC_TSA_DWRR)
			return rc_errf(x->err, EINVAL,
				       "'%s': queue %d: EOS schedules a queue strict or by "
				       "bandwidth share only",
				       x->w->port, t);
		if (want->bw_pct[t] < 1 || want->bw_pct[t] > 100)
			return rc_errf(
			    x->err, ERANGE,
			    "'%s': queue %d: bandwidth share %u%% is outside EOS's 1..100",
			    x->w->port, t, want->bw_pct[t]);
		if (have->tsa[t] != RC_TSA_DWRR)
			rc = QUEUE(x, t, RC_F_ETS, "no priority");
		if (!rc && have->bw_pct[t] != want->bw_pct[t])
			rc = QUEUE(x, t, RC_F_ETS, "bandwidth percent %u", want->bw_pct[t]);
	}
	return rc;
}

static int w_ecn(struct wctx *x)
{
	const struct port_qos *want = x->w->want, *have = x->w->have;
	int rc = 0;

	for (int t = 0; t < RC_NTC && !rc; t++) {
		const struct rc_ecn_tc *wt = &want->ecn[t], *ht = &have->ecn[t];
		long long p;

		if (!(want->ecn_tc_mask & (1u << t)))
			continue;
		if (!wt->enabled) {
			if (x->info->ecn_line[t])
				rc = QUEUE(x, t, RC_F_ECN, "no random-detect ecn");
			continue;
		}
		p = round_pct(wt->pmax_pct);
		if (wt->kmin_bytes < 1 || wt->kmin_bytes >= wt->kmax_bytes ||
		    wt->kmax_bytes > THRESH_WRITE_MAX)
			return rc_errf(x->err, EINVAL,
				       "'%s': ECN thresholds of queue %d are not 0 < min < max <= "
				       "%llu bytes",
				       x->w->port, t, THRESH_WRITE_MAX);
		if (p < 1 || p > 100)
			return rc_errf(x->err, ERANGE,
				       "'%s': ECN probability %g%% is outside EOS's 1..100",
				       x->w->port, wt->pmax_pct);
		if ((have->ecn_tc_mask & (1u << t)) && ht->enabled &&
		    ht->kmin_bytes == wt->kmin_bytes && ht->kmax_bytes == wt->kmax_bytes &&
		    round_pct(ht->pmax_pct) == p)
			continue;
		rc = ecn_thresholds(x, t, wt->kmin_bytes, wt->kmax_bytes, p);
	}
	return rc ? rc : w_ecn_count(x);
}

static int w_watchdog(struct wctx *x)
{
	const struct rc_watchdog *want = &x->w->want->watchdog, *have = &x->w->have->watchdog;
	const struct eos_port_info *in = x->info;
	char s[24];
	int rc = 0;

	if (want->enabled != have->enabled)
		rc = want->enabled
			 ? IFACE(x, RC_F_WATCHDOG, "priority-flow-control pause watchdog")
			 : IFACE(x, RC_F_WATCHDOG, "no priority-flow-control pause watchdog");
	if (rc || !want->enabled)
		return rc;
	if (want->detection_ms < WD_MIN_MS || want->detection_ms > WD_MAX_MS ||
	    want->restoration_ms < WD_MIN_MS || want->restoration_ms > WD_MAX_MS)
		return rc_errf(x->err, ERANGE,
			       "'%s': watchdog times %ums / %ums are outside %u..%u ms", x->w->port,
			       want->detection_ms, want->restoration_ms, WD_MIN_MS, WD_MAX_MS);
	if (!in->wd_timeout_set || have->detection_ms != want->detection_ms) {
		seconds(s, sizeof(s), want->detection_ms);
		rc = GLOBAL(x, RC_F_WATCHDOG,
			    "priority-flow-control pause watchdog default timeout %s", s);
	}
	if (!rc && (!in->wd_recovery_set || have->restoration_ms != want->restoration_ms)) {
		seconds(s, sizeof(s), want->restoration_ms);
		rc = GLOBAL(x, RC_F_WATCHDOG,
			    "priority-flow-control pause watchdog default recovery-time %s", s);
	}
	if (!rc && (!in->wd_action_set || have->action != want->action))
		rc = GLOBAL(x, RC_F_WATCHDOG, "priority-flow-control pause watchdog action %s",
			    want->action == RC_WD_FORWARD ? "no-drop" : "drop");
	return rc;
}

static const struct {
	uint32_t group;
	int (*fn)(struct wctx *x);
} writers[] = {
    {RC_F_TRUST, w_trust}, {RC_F_DSCP2PRIO, w_dscp}, {RC_F_PRIO2TC, w_prio2tc},
    {RC_F_PFC, w_pfc},	   {RC_F_ECN, w_ecn},	     {RC_F_WATCHDOG, w_watchdog},
    {RC_F_ETS, w_ets},
};

int eos_build_cmds(const struct eos_config *cfg, const struct rc_port_write *w,
		   const struct eos_port_info *info, size_t n, const struct eos_peer *peers,
		   size_t n_peers, struct eos_cmds *cmds, struct rc_err *err)
{
	int rc = 0;

	memset(cmds, 0, sizeof(*cmds));
	cmds->uc_queues = cfg && cfg->uc_queues;
	for (size_t i = 0; i < n && !rc; i++) {
		struct wctx x = {&w[i], &info[i], cmds, err};

		if (!eos_port_name_ok(w[i].port)) {
			rc = rc_errf(err, EINVAL,
				     "port name '%s' is not a valid EOS interface name", w[i].port);
			break;
		}
		for (size_t g = 0; g < sizeof(writers) / sizeof(writers[0]) && !rc; g++)
			if (w[i].fields & writers[g].group)
				rc = writers[g].fn(&x);
	}
	/* a global line changes every port: each port read must want that group written */
	for (size_t k = 0; k < cmds->n && !rc; k++) {
		const struct eos_cmd *c = &cmds->v[k];

		if (c->ctx != EOS_CTX_GLOBAL || !c->group)
			continue;
		for (size_t p = 0; p < n_peers && !rc; p++)
			if (!rc_switch_port_writes(w, n, peers[p].port, c->group))
				rc = rc_errf(
				    err, EINVAL,
				    "'%s' for port '%s' is global and would also change port "
				    "'%s', which is already as wanted",
				    c->line, c->port ? c->port : "?", peers[p].port);
	}
	if (rc)
		eos_cmds_free(cmds);
	return rc;
}

/* ---- rendering -------------------------------------------------------------------------- */

struct lines {
	size_t n, cap;
	char **v;
	bool failed;
};

static void add_line(struct lines *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add_line(struct lines *l, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	if (l->failed)
		return;
	if (rc_array_reserve((void **)&l->v, &l->cap, l->n + 2, sizeof(*l->v), 32)) {
		l->failed = true;
		return;
	}
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (!s) {
		l->failed = true;
		return;
	}
	l->v[l->n++] = s;
	l->v[l->n] = NULL;
}

void eos_lines_free(char **lines)
{
	for (size_t i = 0; lines && lines[i]; i++)
		free(lines[i]);
	free(lines);
}

char **eos_render(const struct eos_cmds *cmds, size_t *n)
{
	struct lines l = {0};

	l.v = calloc(1, sizeof(*l.v)); /* an empty list is still a list */
	if (!l.v)
		return NULL;
	l.cap = 1;
	for (size_t i = 0; i < cmds->n; i++)
		if (cmds->v[i].ctx == EOS_CTX_GLOBAL)
			add_line(&l, "%s", cmds->v[i].line);
	for (size_t i = 0; i < cmds->n; i++) {
		const char *port = cmds->v[i].port;
		bool first = true;

		if (cmds->v[i].ctx == EOS_CTX_GLOBAL)
			continue;
		for (size_t k = 0; k < i; k++)
			first &= cmds->v[k].ctx == EOS_CTX_GLOBAL || strcmp(cmds->v[k].port, port);
		if (!first)
			continue;
		add_line(&l, "interface %s", port);
		for (size_t k = i; k < cmds->n; k++)
			if (cmds->v[k].ctx == EOS_CTX_IF && !strcmp(cmds->v[k].port, port))
				add_line(&l, "%s", cmds->v[k].line);
		for (int q = 0; q < RC_NTC; q++) {
			bool opened = false;

			for (size_t k = i; k < cmds->n; k++) {
				if (cmds->v[k].ctx != EOS_CTX_QUEUE || cmds->v[k].queue != q ||
				    strcmp(cmds->v[k].port, port))
					continue;
				if (!opened)
					add_line(&l, "%s %d",
						 cmds->uc_queues ? "uc-tx-queue" : "tx-queue", q);
				opened = true;
				add_line(&l, "%s", cmds->v[k].line);
			}
			if (opened)
				add_line(&l, "exit");
		}
		add_line(&l, "exit");
	}
	if (l.failed) {
		eos_lines_free(l.v);
		return NULL;
	}
	*n = l.n;
	return l.v;
}

/* ---- answers ---------------------------------------------------------------------------- */

/* The first line of text starting with '%' (after blanks), cleaned. */
static bool find_error_line(const char *text, size_t len, char *out, size_t olen)
{
	size_t i = 0;

	while (text && i < len) {
		size_t s = i, e;

		while (i < len && text[i] != '\n')
			i++;
		e = i++;
		while (s < e && (text[s] == ' ' || text[s] == '\r'))
			s++;
		if (s < e && text[s] == '%') {
			rc_clean_text(text + s, e - s, out, olen);
			return true;
		}
	}
	return false;
}

int eos_check_cli_output(const char *out, size_t out_len, const char *errout, size_t err_len,
			 int exit_status, char *why, size_t why_len)
{
	why[0] = '\0';
	if (find_error_line(errout, err_len, why, why_len) ||
	    find_error_line(out, out_len, why, why_len))
		return -EIO;
	return rc_switch_cli_status(out, out_len, errout, err_len, exit_status, why, why_len);
}

/* The revision of each command's JSON model that rocectl parses.  eAPI answers revision 1
 * of a command unless a command object asks for another ({"cmd", "revision"}; Arista
 * ANTA's AntaCommand: "Revision has precedence over version"), and `| json revision N` asks
 * the same over the CLI.  `show priority-flow-control counters` is read at revision 3, the
 * one ANTA pins (VerifyInterfacesPFCCounters: interfaceCounters.<if>.rxFrames/txFrames;
 * conformance eos/FACTS.md fact 11); every other command at 1, the revision ANTA and napalm
 * read (facts 14-20).  Longest prefix first: "show priority-flow-control" is revision 1. */
static const struct {
	const char *cmd;
	int revision;
} revisions[] = {
    {"show priority-flow-control counters", 3},
    {"show ", 1},
};

int eos_cmd_revision(const char *cmd)
{
	for (size_t i = 0; i < sizeof(revisions) / sizeof(revisions[0]); i++) {
		size_t n = strlen(revisions[i].cmd);

		if (!strncmp(cmd, revisions[i].cmd, n) &&
		    (revisions[i].cmd[n - 1] == ' ' || !cmd[n] || cmd[n] == ' '))
			return revisions[i].revision;
	}
	return 0;
}

int eos_cli_json(const char *cmd, char *out, size_t len)
{
	int rev = eos_cmd_revision(cmd);
	int n = rev ? snprintf(out, len, "%s | json revision %d", cmd, rev)
		    : snprintf(out, len, "%s | json", cmd);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* A show command asked for JSON is a command object naming its revision; anything else
 * (enable, configuration lines, text answers) a plain string. */
static cJSON *command_item(const char *cmd, bool json)
{
	int rev = json ? eos_cmd_revision(cmd) : 0;
	cJSON *o;

	if (!rev)
		return cJSON_CreateString(cmd);
	o = cJSON_CreateObject();
	if (o && (!cJSON_AddStringToObject(o, "cmd", cmd) ||
		  !cJSON_AddNumberToObject(o, "revision", rev))) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

cJSON *eos_eapi_request(const char *id, const char *const *cmds, size_t n, const char *format)
{
	cJSON *req = cJSON_CreateObject(), *params, *arr;
	bool json = !strcmp(format, "json");

	if (!req || !cJSON_AddStringToObject(req, "jsonrpc", "2.0") ||
	    !cJSON_AddStringToObject(req, "method", "runCmds") ||
	    !(params = cJSON_AddObjectToObject(req, "params")) ||
	    !cJSON_AddNumberToObject(params, "version", 1) ||
	    !(arr = cJSON_AddArrayToObject(params, "cmds")) ||
	    !cJSON_AddStringToObject(params, "format", format) ||
	    !cJSON_AddStringToObject(req, "id", id))
		goto fail;
	for (size_t i = 0; i < n; i++) {
		cJSON *s = command_item(cmds[i], json);

		if (!s)
			goto fail;
		cJSON_AddItemToArray(arr, s);
	}
	return req;
fail:
	cJSON_Delete(req);
	return NULL;
}

/* "CLI command 2 of 5 'x' failed: ..." -> 2 (1-based), 0 when it does not say. */
static size_t index_from_message(const char *msg)
{
	const char *p = msg ? strstr(msg, "CLI command ") : NULL;
	size_t v = 0;

	if (!p)
		return 0;
	for (p += 12; *p >= '0' && *p <= '9' && v < 100000; p++)
		v = v * 10 + (size_t)(*p - '0');
	return *p == ' ' ? v : 0;
}

int eos_eapi_result(const cJSON *ans, const char *id, const char *const *cmds, size_t n,
		    const cJSON **results, struct rc_err *err)
{
	const cJSON *e, *res, *aid;
	char msg[200] = "", detail[200] = "", cmd[120] = "";

	*results = NULL;
	if (!cJSON_IsObject(ans))
		return rc_errf(err, EPROTO, "eAPI answer is not a JSON-RPC object");
	aid = cJSON_GetObjectItemCaseSensitive(ans, "id");
	e = cJSON_GetObjectItemCaseSensitive(ans, "error");
	if (e) {
		const cJSON *code = cJSON_GetObjectItemCaseSensitive(e, "code");
		const cJSON *m = cJSON_GetObjectItemCaseSensitive(e, "message");
		const cJSON *data = cJSON_GetObjectItemCaseSensitive(e, "data");
		size_t at = 0;

		if (!cJSON_IsObject(e))
			return rc_errf(err, EPROTO, "eAPI answer has a malformed error object");
		if (cJSON_IsString(m))
			rc_clean_text(m->valuestring, strlen(m->valuestring), msg, sizeof(msg));
		/* data: one entry per command run, the failing one last (Arista eAPI, JSON-RPC 2.0)
		 */
		if (cJSON_IsArray(data) && cJSON_GetArraySize(data) > 0) {
			const cJSON *last = cJSON_GetArrayItem(data, cJSON_GetArraySize(data) - 1);
			const cJSON *errs = cJSON_GetObjectItemCaseSensitive(last, "errors");
			const cJSON *first = cJSON_IsArray(errs) ? errs->child : NULL;

			at = (size_t)cJSON_GetArraySize(data);
			if (cJSON_IsString(first))
				rc_clean_text(first->valuestring, strlen(first->valuestring),
					      detail, sizeof(detail));
			if (!detail[0])
				at = 0; /* an answer without errors: not the failing one */
		}
		if (!at)
			at = index_from_message(msg);
		if (at >= 1 && at <= n)
			rc_clean_text(cmds[at - 1], strlen(cmds[at - 1]), cmd, sizeof(cmd));
		if (cmd[0])
			return rc_errf(err, EIO, "eAPI error %d at command %zu '%s': %s",
				       cJSON_IsNumber(code) ? code->valueint : 0, at, cmd,
				       detail[0] ? detail
				       : msg[0]	 ? msg
						 : "(no message)");
		return rc_errf(err, EIO, "eAPI error %d: %s",
			       cJSON_IsNumber(code) ? code->valueint : 0,
			       msg[0] ? msg : "(no message)");
	}
	if (id && aid && !(cJSON_IsString(aid) && !strcmp(aid->valuestring, id)))
		return rc_errf(err, EPROTO, "eAPI answer is for another request (id mismatch)");
	res = cJSON_GetObjectItemCaseSensitive(ans, "result");
	if (!cJSON_IsArray(res))
		return rc_errf(err, EPROTO, "eAPI answer has neither a result nor an error");
	if ((size_t)cJSON_GetArraySize(res) != n)
		return rc_errf(err, EPROTO, "eAPI answer has %d results for %zu commands",
			       cJSON_GetArraySize(res), n);
	*results = res;
	return 0;
}
