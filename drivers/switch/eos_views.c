/* SPDX-License-Identifier: Apache-2.0 */
/* EOS operational views laid over the running-config: what the switch says is in effect,
 * EOS's defaults included (the running-config shows only what was configured).
 *
 *   show priority-flow-control      global PFC, watchdog timers/action, per port state
 *   show qos interfaces ecn         per queue ECN thresholds (text: names the queue keyword)
 *   show qos interfaces trust       trust mode in effect
 *   show qos maps                   DSCP -> traffic class -> queue in effect (JSON)
 *
 * JSON shapes follow eAPI's models (Arista EOS eAPI, `show` commands with `| json`); the text
 * layouts are not documented publicly (no public sample), so the text parsers read lines by their
 * leading words and table rows by tokens, never by column widths. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "eos.h"

#define SECONDS_MAX 3600.0

static int bad(struct rc_err *err, const char *view, const char *what)
{
	return rc_errf(err, EPROTO, "unexpected output of 'show %s': %s", view, what);
}

/* Lines of text, trimmed of surrounding blanks, as NUL-terminated copies in `line`.
 * Returns false at the end; `over` is set for a line too long to hold. */
struct lines {
	const char *s;
	size_t len, off;
};

static bool next_line(struct lines *l, char *line, size_t cap, size_t *indent, bool *over)
{
	size_t s, e;

	if (l->off >= l->len)
		return false;
	s = l->off;
	e = s;
	while (e < l->len && l->s[e] != '\n')
		e++;
	l->off = e + 1;
	*indent = 0;
	while (s < e && l->s[s] == ' ')
		s++, (*indent)++;
	while (e > s && (l->s[e - 1] == ' ' || l->s[e - 1] == '\r'))
		e--;
	*over = e - s >= cap;
	if (*over)
		e = s + cap - 1;
	memcpy(line, l->s + s, e - s);
	line[e - s] = '\0';
	for (char *p = line; *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
			*p = '?';
	return true;
}

static int split(char *s, char **w, int max)
{
	int n = 0;

	for (char *save = NULL, *t = strtok_r(s, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		if (n == max)
			return -1;
		w[n++] = t;
	}
	return n;
}

static bool small_uint(const char *s, unsigned hi, unsigned *out)
{
	unsigned v = 0;

	if (!*s || strlen(s) > 9 || (s[0] == '0' && s[1]))
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		v = v * 10 + (unsigned)(*s - '0');
	}
	if (v > hi)
		return false;
	*out = v;
	return true;
}

/* "Ethernet1" in a table may be printed short: "Et1". */
static bool port_is(const char *name, const char *port)
{
	if (!strcmp(name, port))
		return true;
	return !strncmp(port, "Ethernet", 8) && !strncmp(name, "Et", 2) &&
	       !strcmp(name + 2, port + 8);
}

/* "0.2", "1", "0.25" seconds (the %g of EOS's text) -> ms */
static bool seconds_text(const char *s, uint32_t *ms)
{
	unsigned whole = 0, frac = 0, digits = 0;
	const char *dot = strchr(s, '.');
	char w[12];

	if (!dot)
		return small_uint(s, (unsigned)SECONDS_MAX, &whole) && (*ms = whole * 1000, true);
	if (dot == s || (size_t)(dot - s) >= sizeof(w))
		return false;
	memcpy(w, s, (size_t)(dot - s));
	w[dot - s] = '\0';
	if (!small_uint(w, (unsigned)SECONDS_MAX, &whole))
		return false;
	for (const char *p = dot + 1; *p; p++) {
		if (*p < '0' || *p > '9' || digits == 3)
			return false;
		frac = frac * 10 + (unsigned)(*p - '0');
		digits++;
	}
	if (!digits)
		return false;
	while (digits++ < 3)
		frac *= 10;
	*ms = whole * 1000 + frac;
	return true;
}

static bool seconds_json(const cJSON *v, uint32_t *ms)
{
	if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0 && v->valuedouble <= SECONDS_MAX))
		return false;
	*ms = (uint32_t)(v->valuedouble * 1000 + 0.5);
	return true;
}

static bool prio_list_text(const char *s, uint8_t *bits)
{
	*bits = 0;
	if (!strcmp(s, "-"))
		return true;
	for (;;) {
		if (*s < '0' || *s > '7')
			return false;
		*bits |= (uint8_t)(1u << (*s - '0'));
		if (!*++s)
			return true;
		if (*s++ != ',')
			return false;
	}
}

static void apply_pfc(struct port_qos *q, struct eos_port_info *info, bool global)
{
	info->pfc_all_off = !global;
	q->pfc_enabled = info->pfc_on && global ? info->nodrop : 0;
}

/* ---- show priority-flow-control ---------------------------------------------------------- */

static int pfc_json(const cJSON *j, const char *port, struct port_qos *q,
		    struct eos_port_info *info, struct rc_err *err)
{
	const cJSON *g = cJSON_GetObjectItemCaseSensitive(j, "globalPfcEnabled");
	const cJSON *wd = cJSON_GetObjectItemCaseSensitive(j, "watchdog");
	const cJSON *ifs = cJSON_GetObjectItemCaseSensitive(j, "interfaces"), *p, *v;
	bool global = !info->pfc_all_off;

	if (!cJSON_IsObject(j))
		return bad(err, "priority-flow-control", "not a JSON object");
	if (g) {
		if (!cJSON_IsBool(g))
			return bad(err, "priority-flow-control",
				   "globalPfcEnabled is not a boolean");
		global = cJSON_IsTrue(g);
	}
	if (wd) {
		const cJSON *a = cJSON_GetObjectItemCaseSensitive(wd, "action");
		uint32_t ms;

		if (!cJSON_IsObject(wd))
			return bad(err, "priority-flow-control", "watchdog is not an object");
		if ((v = cJSON_GetObjectItemCaseSensitive(wd, "timeout"))) {
			if (!seconds_json(v, &ms))
				return bad(err, "priority-flow-control",
					   "watchdog timeout in seconds");
			q->watchdog.detection_ms = ms;
		}
		if ((v = cJSON_GetObjectItemCaseSensitive(wd, "recoveryTime"))) {
			if (!seconds_json(v, &ms))
				return bad(err, "priority-flow-control",
					   "watchdog recoveryTime in seconds");
			q->watchdog.restoration_ms = ms;
		}
		if ((v = cJSON_GetObjectItemCaseSensitive(wd, "pollingInterval"))) {
			if (!seconds_json(v, &ms))
				return bad(err, "priority-flow-control",
					   "watchdog pollingInterval in seconds");
			info->wd_poll_ms = ms;
		}
		if (a) {
			if (!cJSON_IsString(a) ||
			    (strcmp(a->valuestring, "drop") && strcmp(a->valuestring, "no-drop")))
				return bad(err, "priority-flow-control",
					   "watchdog action drop or no-drop");
			q->watchdog.action =
			    !strcmp(a->valuestring, "drop") ? RC_WD_DROP : RC_WD_FORWARD;
		}
	}
	if (ifs && !cJSON_IsObject(ifs))
		return bad(err, "priority-flow-control", "interfaces is not an object");
	p = ifs ? cJSON_GetObjectItemCaseSensitive(ifs, port) : NULL;
	if (!p) {
		apply_pfc(q, info, global);
		return 1;
	}
	if (!cJSON_IsObject(p))
		return bad(err, "priority-flow-control", "an interface is not an object");
	if ((v = cJSON_GetObjectItemCaseSensitive(p, "pfcEnabled"))) {
		if (!cJSON_IsBool(v))
			return bad(err, "priority-flow-control", "pfcEnabled is not a boolean");
		info->pfc_on = cJSON_IsTrue(v);
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(p, "priorities"))) {
		const cJSON *e;

		if (!cJSON_IsArray(v))
			return bad(err, "priority-flow-control", "priorities is not a list");
		info->nodrop = 0;
		cJSON_ArrayForEach(e, v)
		{
			if (!cJSON_IsNumber(e) || e->valuedouble < 0 || e->valuedouble > 7 ||
			    e->valuedouble != (double)(int)e->valuedouble)
				return bad(err, "priority-flow-control", "priorities 0..7");
			info->nodrop |= (uint8_t)(1u << e->valueint);
		}
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(p, "watchdogEnabled"))) {
		if (!cJSON_IsBool(v))
			return bad(err, "priority-flow-control",
				   "watchdogEnabled is not a boolean");
		q->watchdog.enabled = cJSON_IsTrue(v);
	}
	apply_pfc(q, info, global);
	return 0;
}

static int pfc_text(const char *text, size_t len, const char *port, struct port_qos *q,
		    struct eos_port_info *info, struct rc_err *err)
{
	static const char wdp[] = "The PFC watchdog ";
	struct lines l = {text, len, 0};
	char line[EOS_LINE_MAX], *w[24];
	size_t ind;
	bool over, global = !info->pfc_all_off, found = false;

	while (next_line(&l, line, sizeof(line), &ind, &over)) {
		int n;

		if (over)
			continue;
		if (!strncmp(line, wdp, sizeof(wdp) - 1)) {
			/* "The PFC watchdog <what> is <value> [second(s)]" */
			uint32_t ms;

			n = split(line + sizeof(wdp) - 1, w, 24);
			if (n < 3 || strcmp(w[1], "is"))
				continue;
			if (!strcmp(w[0], "action")) {
				if (!strcmp(w[2], "drop"))
					q->watchdog.action = RC_WD_DROP;
				else if (!strcmp(w[2], "no-drop"))
					q->watchdog.action = RC_WD_FORWARD;
				else
					return bad(err, "priority-flow-control",
						   "watchdog action drop or no-drop");
				continue;
			}
			if (strcmp(w[0], "timeout") && strcmp(w[0], "recovery-time") &&
			    strcmp(w[0], "polling-interval"))
				continue;
			if (!seconds_text(w[2], &ms))
				return bad(err, "priority-flow-control",
					   "watchdog times in seconds");
			if (!strcmp(w[0], "timeout"))
				q->watchdog.detection_ms = ms;
			else if (!strcmp(w[0], "recovery-time"))
				q->watchdog.restoration_ms = ms;
			else
				info->wd_poll_ms = ms;
			continue;
		}
		n = split(line, w, 24);
		if (n == 4 && !strcmp(w[0], "Global") && !strcmp(w[1], "PFC") &&
		    !strcmp(w[2], ":")) {
			if (strcmp(w[3], "Enabled") && strcmp(w[3], "Disabled"))
				return bad(err, "priority-flow-control",
					   "Global PFC Enabled/Disabled");
			global = !strcmp(w[3], "Enabled");
			continue;
		}
		if (n >= 3 && port_is(w[0], port)) {
			int i = 1;
			bool on = false, wd = false;
			uint8_t bits;

			for (; i < n && strlen(w[i]) == 1 && strchr("EDAW", w[i][0]); i++) {
				on |= w[i][0] == 'E';
				wd |= w[i][0] == 'W';
			}
			if (i == 1 || i >= n || !prio_list_text(w[i], &bits))
				return bad(err, "priority-flow-control",
					   "a port row: status flags, then priorities");
			info->pfc_on = on;
			info->nodrop = bits;
			q->watchdog.enabled = wd;
			found = true;
		}
	}
	apply_pfc(q, info, global);
	return found ? 0 : 1;
}

int eos_view_pfc(const cJSON *json, const char *text, size_t len, const char *port,
		 struct port_qos *q, struct eos_port_info *info, struct rc_err *err)
{
	return json ? pfc_json(json, port, q, info, err) : pfc_text(text, len, port, q, info, err);
}

/* ---- show qos interfaces ecn ------------------------------------------------------------- */

static bool threshold(const char *num, const char *unit, uint64_t *bytes, bool *exact)
{
	unsigned v;

	if (!small_uint(num, 256000000, &v))
		return false;
	if (!strcmp(unit, "bytes"))
		*bytes = v;
	else if (!strcmp(unit, "kbytes"))
		*bytes = (uint64_t)v * 1000;
	else if (!strcmp(unit, "mbytes"))
		*bytes = (uint64_t)v * 1000000;
	else if (!strcmp(unit, "segments") || !strcmp(unit, "milliseconds") ||
		 !strcmp(unit, "microseconds"))
		*bytes = 0, *exact = false; /* platform cell size: see eos_parse.c ecn_line */
	else
		return false;
	return true;
}

int eos_view_ecn(const char *text, size_t len, const char *port, struct port_qos *q,
		 struct eos_port_info *info, bool *uc_queues, struct rc_err *err)
{
	struct lines l = {text, len, 0};
	char line[EOS_LINE_MAX], head1[RC_NAME_MAX + 24], head2[RC_NAME_MAX + 24], *w[16];
	size_t ind;
	bool over, in = false, found = false;

	(void)info;
	snprintf(head1, sizeof(head1), "%s (tx-queue):", port);
	snprintf(head2, sizeof(head2), "%s (uc-tx-queue):", port);
	while (next_line(&l, line, sizeof(line), &ind, &over)) {
		unsigned t, p;
		int n;

		if (over)
			continue;
		if (ind == 0 && line[0]) {
			in = !strcmp(line, head1) || !strcmp(line, head2);
			if (in) {
				found = true;
				if (uc_queues)
					*uc_queues = !strcmp(line, head2);
			}
			continue;
		}
		if (!in)
			continue;
		n = split(line, w, 16);
		if (n < 2 || !small_uint(w[0], 63, &t))
			continue; /* the table's header and rule */
		if (t >= RC_NTC)
			continue;
		if (!strcmp(w[1], "disabled")) {
			q->ecn[t].enabled = false;
			continue;
		}
		if (strcmp(w[1], "enabled") || n != 7)
			return bad(err, "qos interfaces ecn",
				   "queue rows 'N enabled MIN UNIT MAX UNIT PROBABILITY'");
		{
			struct rc_ecn_tc e = {true, 0, 0, 100};
			bool exact = true;

			if (!threshold(w[2], w[3], &e.kmin_bytes, &exact) ||
			    !threshold(w[4], w[5], &e.kmax_bytes, &exact) ||
			    !small_uint(w[6], 100, &p) || p < 1)
				return bad(err, "qos interfaces ecn",
					   "thresholds with a unit and a probability 1..100");
			if (!exact)
				e.kmin_bytes = e.kmax_bytes = 0;
			e.pmax_pct = p;
			q->ecn[t] = e;
		}
	}
	return found ? 0 : 1;
}

/* ---- show qos interfaces trust ----------------------------------------------------------- */

static int trust_word(const char *s, enum rc_trust *t)
{
	if (!strcmp(s, "DSCP"))
		*t = RC_TRUST_DSCP;
	else if (!strcmp(s, "COS"))
		*t = RC_TRUST_PCP;
	else if (!strcmp(s, "UNTRUSTED"))
		*t = RC_TRUST_UNSET;
	else
		return -1;
	return 0;
}

int eos_view_trust(const cJSON *json, const char *text, size_t len, const char *port,
		   struct port_qos *q, struct rc_err *err)
{
	enum rc_trust t;

	if (json) {
		const cJSON *ic = cJSON_GetObjectItemCaseSensitive(json, "intfConfig");
		const cJSON *p = cJSON_GetObjectItemCaseSensitive(ic, port);
		const cJSON *m = cJSON_GetObjectItemCaseSensitive(p, "trustMode");

		if (!cJSON_IsObject(json) || (ic && !cJSON_IsObject(ic)))
			return bad(err, "qos interfaces trust", "not an object of interfaces");
		if (!p)
			return 1;
		if (!cJSON_IsString(m) || trust_word(m->valuestring, &t))
			return bad(err, "qos interfaces trust", "trustMode DSCP, COS or UNTRUSTED");
		q->trust = t;
		return 0;
	} else {
		struct lines l = {text, len, 0};
		char line[EOS_LINE_MAX], head[RC_NAME_MAX + 2], *w[8];
		size_t ind;
		bool over, in = false;

		snprintf(head, sizeof(head), "%s:", port);
		while (next_line(&l, line, sizeof(line), &ind, &over)) {
			int n;

			if (over)
				continue;
			if (ind == 0 && line[0]) {
				in = !strcmp(line, head);
				continue;
			}
			n = in ? split(line, w, 8) : 0;
			if (n >= 2 && !strcmp(w[0], "Trust") && !strcmp(w[1], "Mode:")) {
				if (n != 3 || trust_word(w[2], &t))
					return bad(err, "qos interfaces trust",
						   "Trust Mode: DSCP, COS or UNTRUSTED");
				q->trust = t;
				return 0;
			}
		}
		return 1;
	}
}

/* ---- show qos maps ------------------------------------------------------------------------- */

static int map_json(const cJSON *m, unsigned n_keys, unsigned hi, uint8_t *vals, struct rc_err *err)
{
	const cJSON *e;

	if (!m)
		return 0;
	if (!cJSON_IsObject(m))
		return bad(err, "qos maps", "a map is not an object");
	cJSON_ArrayForEach(e, m)
	{
		unsigned k;

		if (!e->string || !small_uint(e->string, n_keys - 1, &k) || !cJSON_IsNumber(e) ||
		    e->valuedouble < 0 || e->valuedouble > hi ||
		    e->valuedouble != (double)(int)e->valuedouble)
			return bad(err, "qos maps", "map entries within range");
		vals[k] = (uint8_t)e->valueint;
	}
	return 0;
}

int eos_view_maps(const cJSON *json, struct port_qos *q, struct rc_err *err)
{
	int rc;

	if (!cJSON_IsObject(json))
		return bad(err, "qos maps", "not a JSON object");
	rc = map_json(cJSON_GetObjectItemCaseSensitive(json, "dscpToTcMap"), RC_NDSCP, RC_NPRIO - 1,
		      q->dscp2prio, err);
	if (!rc)
		rc = map_json(cJSON_GetObjectItemCaseSensitive(json, "tcToTxQueueMap"), RC_NPRIO,
			      RC_NTC - 1, q->prio2tc, err);
	return rc;
}
