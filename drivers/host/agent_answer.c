/* SPDX-License-Identifier: Apache-2.0 */
/* The remote agent's answer is untrusted input like any device output: a host without
 * rocectl prints nothing (and its shell exits 127), a broken install prints a stack of
 * errors, a hostile host prints anything.  Each of these is an error for that device,
 * with a message an operator can act on, and never reaches the JSON reader unchecked. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "agent_answer.h"
#include "rocectl/util.h"

/* RFC 3629 UTF-8: no overlong forms, no surrogates, nothing above U+10FFFF.  cJSON
 * copies bytes through; a report or journal must not carry invalid text onwards. */
static bool utf8_valid(const unsigned char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		unsigned char c = s[i];
		size_t len;
		uint32_t cp;

		if (c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf)
			len = 2, cp = c & 0x1f;
		else if (c >= 0xe0 && c <= 0xef)
			len = 3, cp = c & 0x0f;
		else if (c >= 0xf0 && c <= 0xf4)
			len = 4, cp = c & 0x07;
		else
			return false;
		if (n - i < len)
			return false;
		for (size_t k = 1; k < len; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return false;
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
		    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
			return false;
		i += len;
	}
	return true;
}

/* The first line of stderr, printable ASCII only, for the message. */
static void first_line(const char *s, size_t n, char *buf, size_t len)
{
	size_t o = 0;

	for (size_t i = 0; s && i < n && s[i] != '\n' && o + 1 < len; i++)
		buf[o++] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
	buf[o] = '\0';
}

static int refuse(struct rc_err *err, const char *device, const char *cmd, const char *what,
		  const char *errout, size_t err_len, int exit_status)
{
	char line[160];

	first_line(errout, err_len, line, sizeof(line));
	if (exit_status == 127)
		return rc_errf(err, EPROTO,
			       "'%s': '%s' %s: rocectl is not installed on the host or not on "
			       "its PATH (exit 127%s%s)",
			       device, cmd, what, line[0] ? ": " : "", line);
	return rc_errf(err, EPROTO, "'%s': the agent's answer to '%s' %s (exit %d%s%s)", device,
		       cmd, what, exit_status, line[0] ? ": " : "", line);
}

int rc_agent_answer_parse(const char *device, const char *cmd, const char *out, size_t out_len,
			  const char *errout, size_t err_len, int exit_status, cJSON **json,
			  struct rc_err *err)
{
	const char *end = NULL;
	char what[64];

	*json = NULL;
	if (!out || !out_len)
		return refuse(err, device, cmd, "is empty", errout, err_len, exit_status);
	if (out_len > RC_AGENT_ANSWER_MAX) {
		snprintf(what, sizeof(what), "exceeds %u bytes", RC_AGENT_ANSWER_MAX);
		return refuse(err, device, cmd, what, errout, err_len, exit_status);
	}
	if (memchr(out, '\0', out_len))
		return refuse(err, device, cmd, "holds a NUL byte", errout, err_len, exit_status);
	if (!utf8_valid((const unsigned char *)out, out_len))
		return refuse(err, device, cmd, "is not UTF-8", errout, err_len, exit_status);
	*json = cJSON_ParseWithLengthOpts(out, out_len, &end, 0);
	/* One object and nothing after it but white space: "{} garbage" is not an answer. */
	while (*json && end && (size_t)(end - out) < out_len && strchr(" \t\r\n", *end) && *end)
		end++;
	if (!*json || !cJSON_IsObject(*json) || !end || (size_t)(end - out) != out_len) {
		cJSON_Delete(*json);
		*json = NULL;
		return refuse(err, device, cmd, "is not a JSON object", errout, err_len,
			      exit_status);
	}
	/* A non-zero exit with a JSON object is the agent reporting a failure in it
	 * ("status", "error"): the caller reads that. */
	return 0;
}

int rc_agent_protocol_check(const char *device, const cJSON *answer, struct rc_err *err)
{
	const cJSON *p = cJSON_GetObjectItemCaseSensitive(answer, "protocol");
	const char *v =
	    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(answer, "rocectl_version"));
	char proto[24], ver[40];

	if (cJSON_IsNumber(p) && p->valuedouble == RC_AGENT_PROTOCOL)
		return 0;
	if (cJSON_IsNumber(p) && p->valuedouble >= 0 && p->valuedouble < 1e6)
		snprintf(proto, sizeof(proto), "%d", (int)p->valuedouble);
	else
		snprintf(proto, sizeof(proto), "none");
	/* the version is the host's text: printable ASCII, bounded */
	first_line(v, v ? strlen(v) : 0, ver, sizeof(ver));
	return rc_errf(err, EPROTO,
		       "'%s': the agent speaks protocol %s (rocectl %s), this controller "
		       "protocol %d (rocectl %s): install the same rocectl version on the host",
		       device, proto, ver[0] ? ver : "unknown", RC_AGENT_PROTOCOL, ROCECTL_VERSION);
}

int rc_agent_counters_parse(const char *device, const cJSON *doc, struct rc_counters *out,
			    struct rc_err *err)
{
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(doc, "interfaces"), *e;

	if (!cJSON_IsArray(arr))
		return rc_errf(err, EPROTO, "'%s': the agent's counters have no interface list",
			       device);
	cJSON_ArrayForEach(e, arr)
	{
		const char *ifname =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "interface"));
		const cJSON *c;

		cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(e, "counters"))
		{
			const char *name =
			    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "name"));
			const char *src =
			    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "source"));
			const cJSON *v = cJSON_GetObjectItemCaseSensitive(c, "value");

			if (ifname && name && src &&
			    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "not_enabled"))) {
				if (rc_counters_add_disabled(out, ifname, name, src))
					return rc_errf(err, ENOMEM, "out of memory");
				continue;
			}
			if (!ifname || !name || !src || !cJSON_IsNumber(v) || v->valuedouble < 0)
				continue;
			if (rc_counters_add(
				out, ifname, name, src, (uint64_t)v->valuedouble,
				cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "is_drop"))))
				return rc_errf(err, ENOMEM, "out of memory");
		}
	}
	return 0;
}

/* A name from the host's neighbour list: as lldpd.c accepts one (fits, no blanks or
 * control bytes). */
static bool lldp_name_ok(const char *v)
{
	if (!v || !v[0] || strlen(v) >= RC_NAME_MAX)
		return false;
	for (const char *c = v; *c; c++)
		if ((unsigned char)*c <= ' ' || *c == 0x7f)
			return false;
	return true;
}

int rc_agent_lldp_parse(const char *device, const cJSON *answer, struct rc_neighbors *out,
			struct rc_err *err)
{
	const cJSON *l = cJSON_GetObjectItemCaseSensitive(answer, "lldp"), *e;
	const char *status = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(l, "status"));
	const char *msg = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(l, "error"));
	char why[160];

	if (msg) /* the host's text: printable ASCII, bounded */
		rc_clean_text(msg, strlen(msg), why, sizeof(why));
	if (!l) {
		const char *v = cJSON_GetStringValue(
		    cJSON_GetObjectItemCaseSensitive(answer, "rocectl_version"));

		rc_clean_text(v ? v : "unknown", v ? strlen(v) : 7, why, sizeof(why));
		return rc_errf(err, EPROTO,
			       "'%s': LLDP unknown: the agent (rocectl %s) sends no LLDP "
			       "neighbours in its answer, as agents older than this controller "
			       "(rocectl %s) do; install the same rocectl version on the host",
			       device, why, ROCECTL_VERSION);
	}
	if (status && !strcmp(status, "no-agent"))
		return rc_errf(err, ENOENT, "'%s': %s", device,
			       msg ? why : "no LLDP agent answers");
	if (!status || strcmp(status, "ok"))
		return rc_errf(err, EIO, "'%s': LLDP unreadable: %s", device,
			       msg ? why : "the agent's \"lldp\" answer has no status \"ok\"");
	if (!cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(l, "neighbors")))
		return rc_errf(err, EPROTO,
			       "'%s': LLDP unreadable: the agent's \"lldp\" answer has no "
			       "neighbour list",
			       device);
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(l, "neighbors"))
	{
		const char *port =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "interface"));
		const char *sys =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "system_name"));
		const char *pid =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "port_id"));

		/* the limits of lldpd.c's own reading (names that fit, no blanks) */
		if (!lldp_name_ok(port) || !lldp_name_ok(sys) || !lldp_name_ok(pid))
			continue;
		if (rc_neighbors_add(out, port, sys, pid))
			return rc_errf(err, ENOMEM, "out of memory");
	}
	return 0;
}
