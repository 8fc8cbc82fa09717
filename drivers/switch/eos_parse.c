/* SPDX-License-Identifier: Apache-2.0 */
/* EOS read side: the running-config (text over SSH, the JSON tree over eAPI) -> one list of
 * lines with their depth -> struct port_qos.
 *
 * Lines this driver does not manage are skipped; a line it manages that does not parse is
 * an error naming the line (device output is untrusted).  What the configuration does not
 * say is EOS's default: PFC off, no ECN marking, identity traffic class -> queue, trust
 * DSCP on routed ports and CoS on switched ones (AVD's eos_cli_config_gen template
 * ethernet-interfaces.j2). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "rocectl/util.h"
#include "eos.h"
#include "switch_common.h"

#define MAX_LINES  (1u << 20)
#define MAX_DEPTH  8
#define THRESH_MAX (1ull << 40)
#define WD_MAX_MS  3600000u

bool eos_port_name_ok(const char *name)
{
	size_t n = name ? strnlen(name, RC_NAME_MAX) : 0, i = 0;
	bool digit = false;

	if (n < 2 || n >= RC_NAME_MAX)
		return false;
	while (i < n && ((name[i] >= 'A' && name[i] <= 'Z') || (name[i] >= 'a' && name[i] <= 'z') ||
			 (name[i] == '-' && i > 0)))
		i++;
	if (i == 0 || i == n)
		return false;
	for (; i < n; i++) {
		char c = name[i];

		if (c >= '0' && c <= '9') {
			digit = true;
			continue;
		}
		/* a separator only between digits */
		if ((c != '/' && c != '.') || !digit || i + 1 == n || name[i + 1] < '0' ||
		    name[i + 1] > '9')
			return false;
	}
	return digit;
}

bool eos_name_ok(const char *name)
{
	return rc_switch_name_ok(name, "_-");
}

void eos_config_free(struct eos_config *c)
{
	free(c->v);
	c->v = NULL;
	c->n = c->cap = 0;
}

static int push_line(struct eos_config *c, int depth, const char *text, size_t len,
		     const char *what, struct rc_err *err)
{
	char shown[48];

	rc_clean_text(text, len < 40 ? len : 40, shown, sizeof(shown));
	if (len >= EOS_LINE_MAX)
		return rc_errf(err, EPROTO, "%s: configuration line too long: '%s...'", what,
			       shown);
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)text[i] < 0x20 || (unsigned char)text[i] >= 0x7f)
			return rc_errf(err, EPROTO,
				       "%s: unexpected byte 0x%02x in configuration line '%s'",
				       what, (unsigned char)text[i], shown);
	if (c->n >= MAX_LINES)
		return rc_errf(err, EPROTO, "%s: more than %u configuration lines", what,
			       MAX_LINES);
	if (rc_array_reserve((void **)&c->v, &c->cap, c->n + 1, sizeof(*c->v), 256))
		return rc_errf(err, ENOMEM, "out of memory");
	c->v[c->n].depth = depth;
	memcpy(c->v[c->n].text, text, len);
	c->v[c->n].text[len] = '\0';
	c->n++;
	/* `text` is not NUL-terminated: compare within len */
	if (len >= 12 && !memcmp(text, "uc-tx-queue ", 12))
		c->uc_queues = true;
	return 0;
}

int eos_parse_config_text(const char *buf, size_t len, const char *what, struct eos_config *out,
			  struct rc_err *err)
{
	size_t indent[MAX_DEPTH + 1], off = 0, lineno = 0;
	int depth = -1;

	memset(out, 0, sizeof(*out));
	while (off < len) {
		const char *nl = memchr(buf + off, '\n', len - off);
		size_t end = nl ? (size_t)(nl - buf) : len, s = off, e, ind;
		int rc;

		lineno++;
		off = end + 1;
		e = end;
		while (e > s && (buf[e - 1] == ' ' || buf[e - 1] == '\r'))
			e--;
		ind = s;
		while (s < e && buf[s] == ' ')
			s++;
		ind = s - ind;
		if (s == e || buf[s] == '!')
			continue; /* blank, separator or comment */
		if (buf[s] == '\t') {
			rc = rc_errf(err, EPROTO, "%s: line %zu is indented with a tab", what,
				     lineno);
			goto fail;
		}
		/* depth from indentation: one level deeper than the line above at most */
		if (depth < 0 && ind)
			goto bad_indent;
		if (depth < 0 || ind == 0) {
			depth = 0;
			indent[0] = 0;
		} else if (ind > indent[depth]) {
			if (depth == MAX_DEPTH)
				goto bad_indent;
			indent[++depth] = ind;
		} else {
			while (depth > 0 && ind < indent[depth])
				depth--;
			if (ind != indent[depth])
				goto bad_indent;
		}
		if (depth == 0 && e - s == 3 && !memcmp(buf + s, "end", 3))
			continue;
		rc = push_line(out, depth, buf + s, e - s, what, err);
		if (rc)
			goto fail;
		continue;
	bad_indent:
		rc = rc_errf(err, EPROTO, "%s: line %zu is indented inconsistently", what, lineno);
	fail:
		eos_config_free(out);
		return rc;
	}
	return 0;
}

static int json_block(const cJSON *cmds, int depth, const char *what, struct eos_config *out,
		      struct rc_err *err)
{
	const cJSON *e;

	if (!cJSON_IsObject(cmds))
		return rc_errf(err, EPROTO, "%s: expected an object of configuration lines", what);
	if (depth > MAX_DEPTH)
		return rc_errf(err, EPROTO, "%s: configuration nested too deeply", what);
	cJSON_ArrayForEach(e, cmds)
	{
		const cJSON *sub;
		int rc;

		if (!e->string)
			continue;
		if (e->string[0] == '!' || !e->string[0])
			continue;
		rc = push_line(out, depth, e->string, strlen(e->string), what, err);
		if (rc)
			return rc;
		if (cJSON_IsNull(e))
			continue;
		if (!cJSON_IsObject(e))
			return rc_errf(err, EPROTO,
				       "%s: configuration line '%.60s' is neither null nor a block",
				       what, e->string);
		sub = cJSON_GetObjectItemCaseSensitive(e, "cmds");
		if (sub && !cJSON_IsNull(sub) && (rc = json_block(sub, depth + 1, what, out, err)))
			return rc;
	}
	return 0;
}

int eos_parse_config_json(const cJSON *j, const char *what, struct eos_config *out,
			  struct rc_err *err)
{
	const cJSON *cmds = cJSON_IsObject(j) ? cJSON_GetObjectItemCaseSensitive(j, "cmds") : NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!cmds)
		return rc_errf(err, EPROTO, "%s: expected the running-config as {\"cmds\": {...}}",
			       what);
	rc = json_block(cmds, 0, what, out, err);
	if (rc)
		eos_config_free(out);
	return rc;
}

/* ---- lines -> model ------------------------------------------------------------------ */

struct ctx {
	struct rc_err *err;
	const char *port;
};

static int bad_line(struct ctx *c, const char *line, const char *expected)
{
	char shown[120];

	rc_clean_text(line, strlen(line), shown, sizeof(shown));
	return rc_errf(c->err, EPROTO, "unexpected EOS configuration line '%s'%s%s: expected %s",
		       shown, c->port ? " of " : "", c->port ? c->port : "", expected);
}

/* Split into at most max words. */
static int words(char *s, char **w, int max)
{
	int n = 0;

	for (char *save = NULL, *t = strtok_r(s, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		if (n == max)
			return -1;
		w[n++] = t;
	}
	return n;
}

static bool parse_uint(const char *s, uint64_t hi, uint64_t *out)
{
	uint64_t v = 0;

	if (!s || !*s || strlen(s) > 20 || (s[0] == '0' && s[1]))
		return false;
	for (const char *p = s; *p; p++) {
		if (*p < '0' || *p > '9' || v > (UINT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (v > hi)
		return false;
	*out = v;
	return true;
}

/* "0.2", "1", "0.25", "0.125" seconds -> ms. */
static bool parse_seconds(const char *s, uint32_t *ms)
{
	uint64_t whole = 0, frac = 0;
	int digits = 0;
	const char *dot = strchr(s, '.');
	char w[16];

	if (!dot) {
		if (!parse_uint(s, WD_MAX_MS / 1000, &whole))
			return false;
		*ms = (uint32_t)(whole * 1000);
		return true;
	}
	if (dot == s || (size_t)(dot - s) >= sizeof(w))
		return false;
	memcpy(w, s, (size_t)(dot - s));
	w[dot - s] = '\0';
	if (!parse_uint(w, WD_MAX_MS / 1000, &whole))
		return false;
	for (const char *p = dot + 1; *p; p++) {
		if (*p < '0' || *p > '9' || digits == 3)
			return false;
		frac = frac * 10 + (uint64_t)(*p - '0');
		digits++;
	}
	if (!digits)
		return false;
	while (digits++ < 3)
		frac *= 10;
	*ms = (uint32_t)(whole * 1000 + frac);
	return *ms <= WD_MAX_MS;
}

/* "24 25 26" or "24-31 46": DSCP/TC lists of `qos map` lines, up to the word "to". */
static bool parse_id_list(char **w, int n, int hi, uint64_t *bits)
{
	*bits = 0;
	if (n < 1)
		return false;
	for (int i = 0; i < n; i++) {
		char *dash = strchr(w[i], '-');
		uint64_t lo, up;

		if (dash) {
			*dash = '\0';
			if (!parse_uint(w[i], (uint64_t)hi, &lo) ||
			    !parse_uint(dash + 1, (uint64_t)hi, &up) || lo > up)
				return false;
		} else if (!parse_uint(w[i], (uint64_t)hi, &lo)) {
			return false;
		} else {
			up = lo;
		}
		for (uint64_t v = lo; v <= up; v++)
			*bits |= 1ull << v;
	}
	return true;
}

/* EOS's default DSCP -> traffic class map (what `show qos maps` lists for a DSCP that no
 * `qos map dscp` line names). */
static uint8_t eos_default_dscp_tc(int dscp)
{
	/* DSCP d has CoS d/8, and EOS's CoS -> traffic class default swaps 0 and 1 (CoS 0,
	 * best effort, above CoS 1, background) */
	int cos = (dscp >> 3) & 7;

	return (uint8_t)(cos == 0 ? 1 : cos == 1 ? 0 : cos);
}

/* `qos map dscp L to traffic-class T` / `qos map traffic-class L to tx-queue Q` */
static int global_map(struct ctx *c, const char *line, struct port_qos *q,
		      struct eos_port_info *info)
{
	char buf[EOS_LINE_MAX], *w[80];
	int n, to;
	uint64_t ids, v;

	snprintf(buf, sizeof(buf), "%s", line);
	n = words(buf, w, 80);
	if (n < 3)
		return n < 0 ? bad_line(c, line, "a qos map line of reasonable length") : 0;
	for (to = 3; to < n && strcmp(w[to], "to"); to++)
		;
	if (!strcmp(w[2], "dscp")) {
		if (to + 3 != n || strcmp(w[to + 1], "traffic-class") ||
		    !parse_id_list(w + 3, to - 3, RC_NDSCP - 1, &ids) ||
		    !parse_uint(w[to + 2], RC_NPRIO - 1, &v))
			return bad_line(c, line,
					"'qos map dscp <0-63 ...> to traffic-class <0-7>'");
		for (int d = 0; d < RC_NDSCP; d++)
			if (ids & (1ull << d))
				q->dscp2prio[d] = (uint8_t)v;
		info->dscp_explicit |= ids;
		return 0;
	}
	if (!strcmp(w[2], "traffic-class") && to + 3 == n && !strcmp(w[to + 1], "tx-queue")) {
		if (!parse_id_list(w + 3, to - 3, RC_NPRIO - 1, &ids) ||
		    !parse_uint(w[to + 2], RC_NTC - 1, &v))
			return bad_line(c, line,
					"'qos map traffic-class <0-7 ...> to tx-queue <0-7>'");
		for (int t = 0; t < RC_NPRIO; t++)
			if (ids & (1ull << t))
				q->prio2tc[t] = (uint8_t)v;
		info->tc_queue_explicit |= (uint8_t)ids;
	}
	return 0; /* other maps (cos, traffic-class to dscp/cos) are not ours */
}

static int global_watchdog(struct ctx *c, const char *line, struct port_qos *q,
			   struct eos_port_info *info)
{
	static const char pre[] = "priority-flow-control pause watchdog ";
	const char *rest = line + sizeof(pre) - 1;
	char buf[EOS_LINE_MAX], *w[8];
	uint32_t ms;
	int n;

	snprintf(buf, sizeof(buf), "%s", rest);
	n = words(buf, w, 8);
	if (n == 2 && !strcmp(w[0], "action")) {
		if (!strcmp(w[1], "drop"))
			q->watchdog.action = RC_WD_DROP;
		else if (!strcmp(w[1], "no-drop"))
			q->watchdog.action = RC_WD_FORWARD;
		else
			return bad_line(c, line, "watchdog action drop or no-drop");
		info->wd_action_set = true;
		return 0;
	}
	if (n == 3 && !strcmp(w[0], "default")) {
		if (!parse_seconds(w[2], &ms))
			return bad_line(c, line, "a time in seconds like 0.2");
		if (!strcmp(w[1], "timeout")) {
			q->watchdog.detection_ms = ms;
			info->wd_timeout_set = true;
		} else if (!strcmp(w[1], "recovery-time")) {
			q->watchdog.restoration_ms = ms;
			info->wd_recovery_set = true;
		} else if (!strcmp(w[1], "polling-interval")) {
			info->wd_poll_ms = ms;
		}
	}
	return 0;
}

/* `random-detect ecn minimum-threshold A U maximum-threshold B U [max-mark-probability P]
 * [weight W]` (AVD's eos_cli_config_gen templates).  Thresholds in segments or time depend on the
 * platform's cell size and port speed: the queue is then reported with thresholds 0, so that a
 * policy in bytes rewrites them rather than guessing. */
static int ecn_line(struct ctx *c, const char *line, struct rc_ecn_tc *t)
{
	char buf[EOS_LINE_MAX], *w[16];
	uint64_t v[2] = {0, 0}, p = 100, wt;
	bool exact = true;
	int n, i;

	snprintf(buf, sizeof(buf), "%s", line);
	n = words(buf, w, 16);
	if (n < 8 || strcmp(w[2], "minimum-threshold") || strcmp(w[5], "maximum-threshold"))
		return bad_line(c, line,
				"'random-detect ecn minimum-threshold N UNIT maximum-threshold N "
				"UNIT [max-mark-probability P]'");
	for (int k = 0; k < 2; k++) {
		const char *num = w[3 + 3 * k], *unit = w[4 + 3 * k];
		uint64_t mult;

		if (!parse_uint(num, 256000000, &v[k]))
			return bad_line(c, line, "thresholds 1..256000000");
		if (!strcmp(unit, "bytes"))
			mult = 1;
		else if (!strcmp(unit, "kbytes"))
			mult = 1000;
		else if (!strcmp(unit, "mbytes"))
			mult = 1000000;
		else if (!strcmp(unit, "segments") || !strcmp(unit, "milliseconds") ||
			 !strcmp(unit, "microseconds"))
			mult = 0, exact = false;
		else
			return bad_line(c, line, "a unit: bytes, kbytes, mbytes or segments");
		v[k] *= mult;
	}
	for (i = 8; i + 1 < n; i += 2) {
		if (!strcmp(w[i], "max-mark-probability")) {
			if (!parse_uint(w[i + 1], 100, &p) || p < 1)
				return bad_line(c, line, "max-mark-probability 1..100");
		} else if (!strcmp(w[i], "weight")) {
			if (!parse_uint(w[i + 1], 15, &wt))
				return bad_line(c, line, "weight 0..15");
		} else {
			break;
		}
	}
	if (i != n)
		return bad_line(c, line, "max-mark-probability P and weight W only");
	t->enabled = true;
	t->kmin_bytes = exact ? v[0] : 0;
	t->kmax_bytes = exact ? v[1] : 0;
	t->pmax_pct = (double)p;
	return 0;
}

/* `bandwidth percent N`: the queue's DWRR share (conformance eos/avd/intended_configs/
 * qos.cfg, `qos profile experiment`); `bandwidth guaranteed percent N` is a minimum rate,
 * not a share, and left alone. */
static int bandwidth_line(struct ctx *c, const char *line, int t, struct port_qos *q)
{
	char buf[EOS_LINE_MAX], *w[6];
	uint64_t v;
	int n;

	snprintf(buf, sizeof(buf), "%s", line);
	n = words(buf, w, 6);
	if (n >= 2 && !strcmp(w[1], "guaranteed"))
		return 0;
	if (n != 3 || strcmp(w[1], "percent") || !parse_uint(w[2], 100, &v) || v < 1)
		return bad_line(c, line, "'bandwidth percent <1-100>'");
	q->ets.bw_pct[t] = (uint8_t)v;
	return 0;
}

/* One line of a `tx-queue N` block.  Scheduling: strict priority is EOS's default for a
 * queue, `no priority` puts it in the weighted round robin that `bandwidth percent`
 * shares (AVD's intended configuration qos.cfg, `qos profile test`). */
static int queue_line(struct ctx *c, const char *l, int t, struct port_qos *q,
		      struct eos_port_info *info)
{
	int rc;

	if (!strcmp(l, "random-detect ecn count")) {
		info->ecn_count[t] = true;
	} else if (!strncmp(l, "random-detect ecn ", 18)) {
		rc = ecn_line(c, l, &q->ecn[t]);
		if (rc)
			return rc;
		info->ecn_line[t] = true;
	} else if (!strcmp(l, "no random-detect ecn")) {
		q->ecn[t].enabled = false;
	} else if (!strcmp(l, "no priority")) {
		q->ets.tsa[t] = RC_TSA_DWRR;
	} else if (!strcmp(l, "priority strict")) {
		q->ets.tsa[t] = RC_TSA_STRICT;
	} else if (!strncmp(l, "bandwidth ", 10)) {
		return bandwidth_line(c, l, t, q);
	}
	return 0;
}

/* The lines of one interface (or qos profile) block: [first, end). */
static int interface_lines(struct ctx *c, const struct eos_config *cfg, size_t first, size_t end,
			   struct port_qos *q, struct eos_port_info *info)
{
	for (size_t i = first; i < end; i++) {
		const char *l = cfg->v[i].text;
		uint64_t v;
		int rc;

		if (cfg->v[i].depth != 1)
			continue;
		if (!strcmp(l, "qos trust dscp")) {
			q->trust = RC_TRUST_DSCP;
			info->trust_line = true;
		} else if (!strcmp(l, "qos trust cos")) {
			q->trust = RC_TRUST_PCP;
			info->trust_line = true;
		} else if (!strcmp(l, "no qos trust")) {
			q->trust = RC_TRUST_UNSET;
			info->trust_line = true;
		} else if (!strncmp(l, "qos trust", 9)) {
			return bad_line(c, l, "'qos trust dscp' or 'qos trust cos'");
		} else if (!strcmp(l, "no switchport")) {
			info->routed = true;
		} else if (!strcmp(l, "priority-flow-control on") ||
			   !strcmp(l, "priority-flow-control mode on")) {
			info->pfc_on = true;
		} else if (!strcmp(l, "priority-flow-control pause watchdog")) {
			q->watchdog.enabled = true;
		} else if (!strncmp(l, "priority-flow-control priority ", 31)) {
			char buf[EOS_LINE_MAX], *w[6];
			int n;

			snprintf(buf, sizeof(buf), "%s", l);
			n = words(buf, w, 6);
			if (n != 4 || !parse_uint(w[2], RC_NPRIO - 1, &v) ||
			    (strcmp(w[3], "no-drop") && strcmp(w[3], "drop")))
				return bad_line(c, l,
						"'priority-flow-control priority <0-7> "
						"no-drop|drop'");
			if (!strcmp(w[3], "no-drop"))
				info->nodrop |= (uint8_t)(1u << v);
			else
				info->nodrop &= (uint8_t) ~(1u << v);
		} else if (!strncmp(l, "tx-queue ", 9) || !strncmp(l, "uc-tx-queue ", 12)) {
			const char *num = strchr(l, ' ') + 1;

			if (!parse_uint(num, 63, &v))
				return bad_line(c, l, "a queue number");
			if (v >= RC_NTC)
				continue;
			info->queue_block[v] = true;
			for (size_t k = i + 1; k < end && cfg->v[k].depth > 1; k++) {
				if (cfg->v[k].depth != 2)
					continue;
				rc = queue_line(c, cfg->v[k].text, (int)v, q, info);
				if (rc)
					return rc;
			}
		}
	}
	return 0;
}

/* The block [first, end) of the depth-0 line equal to `head`, or false. */
static bool find_block(const struct eos_config *cfg, const char *head, size_t *first, size_t *end)
{
	for (size_t i = 0; i < cfg->n; i++) {
		if (cfg->v[i].depth != 0 || strcmp(cfg->v[i].text, head))
			continue;
		*first = i + 1;
		for (*end = i + 1; *end < cfg->n && cfg->v[*end].depth > 0; (*end)++)
			;
		return true;
	}
	return false;
}

int eos_parse_port(const struct eos_config *cfg, const char *port, struct port_qos *q,
		   struct eos_port_info *info, struct rc_err *err)
{
	struct ctx c = {err, NULL};
	char head[RC_NAME_MAX + 32];
	size_t first, end;
	int rc;

	memset(q, 0, sizeof(*q));
	memset(info, 0, sizeof(*info));
	if (!eos_port_name_ok(port))
		return rc_errf(err, EINVAL, "port name '%s' is not a valid EOS interface name",
			       port);
	for (int d = 0; d < RC_NDSCP; d++)
		q->dscp2prio[d] = eos_default_dscp_tc(d);
	for (int p = 0; p < RC_NPRIO; p++)
		q->prio2tc[p] = (uint8_t)p;
	q->watchdog.action = RC_WD_DROP;
	q->ets.tc_mask = 0xff;
	for (int t = 0; t < RC_NTC; t++)
		q->ets.tsa[t] = RC_TSA_STRICT; /* EOS's default for every queue */

	for (size_t i = 0; i < cfg->n; i++) {
		const char *l = cfg->v[i].text;

		if (cfg->v[i].depth != 0)
			continue;
		if (!strncmp(l, "qos map ", 8))
			rc = global_map(&c, l, q, info);
		else if (!strncmp(l, "priority-flow-control pause watchdog ", 37))
			rc = global_watchdog(&c, l, q, info);
		else if (!strcmp(l, "priority-flow-control all off"))
			info->pfc_all_off = true, rc = 0;
		else
			rc = 0;
		if (rc)
			return rc;
	}

	c.port = port;
	snprintf(head, sizeof(head), "interface %s", port);
	if (!find_block(cfg, head, &first, &end))
		return rc_errf(err, ENOENT,
			       "port '%s' does not exist on this switch (no 'interface %s' in the "
			       "running-config)",
			       port, port);
	/* a bound qos profile first, the interface's own lines over it */
	for (size_t i = first; i < end; i++) {
		const char *l = cfg->v[i].text;
		size_t pf, pe;
		char phead[EOS_LINE_MAX + 16];

		if (cfg->v[i].depth != 1 || strncmp(l, "service-profile ", 16))
			continue;
		if (!eos_name_ok(l + 16))
			return bad_line(&c, l, "a qos profile name");
		snprintf(phead, sizeof(phead), "qos profile %s", l + 16);
		if (find_block(cfg, phead, &pf, &pe) &&
		    (rc = interface_lines(&c, cfg, pf, pe, q, info)))
			return rc;
	}
	if ((rc = interface_lines(&c, cfg, first, end, q, info)))
		return rc;
	if (!info->trust_line)
		q->trust = info->routed ? RC_TRUST_DSCP : RC_TRUST_PCP;
	q->pfc_enabled = info->pfc_on && !info->pfc_all_off ? info->nodrop : 0;
	q->dscp_mask = ~0ull;
	q->prio_mask = 0xff;
	q->ecn_tc_mask = 0xff;
	q->known = RC_F_TRUST | RC_F_DSCP2PRIO | RC_F_PRIO2TC | RC_F_PFC | RC_F_ECN |
		   RC_F_WATCHDOG | RC_F_ETS;
	/* EOS sizes PFC headroom itself (AVD's eos_cli_config_gen templates: platform internal) and
	 * has no cable length */
	q->unsupported =
	    RC_F_CABLE | RC_F_HEADROOM | RC_F_NIC_ECN | RC_F_CNP | RC_F_ROCE_TOS | RC_F_DCBX;
	return 0;
}
