/* SPDX-License-Identifier: Apache-2.0 */
/* The inventory's `proxy_jump: [user@]host[:port]` (docs/INVENTORY.md), parsed and checked
 * once at load.  The host ends up in an SSH direct-tcpip request and in known_hosts lookups,
 * the user in an SSH login: both must be in the character sets of names.c.  IPv6 takes
 * OpenSSH's bracket form when a port follows ("[2001:db8::1]:2222"). */
#include <stdio.h>
#include <string.h>

#include "rocectl/inventory.h"

static int parse_port(const char *s, uint16_t *out, const char **why)
{
	unsigned long v = 0;

	if (!*s) {
		*why = "expected a port number after ':'";
		return -1;
	}
	for (const char *p = s; *p; p++) {
		if (*p < '0' || *p > '9') {
			*why = "the port is not a number";
			return -1;
		}
		v = v * 10 + (unsigned long)(*p - '0');
		if (v > 65535)
			break;
	}
	if (v < 1 || v > 65535) {
		*why = "the port must be between 1 and 65535";
		return -1;
	}
	*out = (uint16_t)v;
	return 0;
}

/* "host", "host:port", "[v6]:port", "v6" (two colons or more, no port). */
static int split_host(char *s, char **host, char **port, const char **why)
{
	char *colon;

	*port = NULL;
	if (s[0] == '[') {
		char *end = strchr(s, ']');

		if (!end) {
			*why = "'[' without ']'";
			return -1;
		}
		*end = '\0';
		*host = s + 1;
		if (!strchr(*host, ':')) {
			*why = "brackets are for IPv6 addresses";
			return -1;
		}
		if (end[1] == ':')
			*port = end + 2;
		else if (end[1]) {
			*why = "expected ':PORT' or nothing after ']'";
			return -1;
		}
		return 0;
	}
	*host = s;
	colon = strchr(s, ':');
	if (colon && !strchr(colon + 1, ':')) {
		*colon = '\0';
		*port = colon + 1;
	}
	return 0;
}

int rc_jump_parse(const char *text, struct rc_jump *out, const char **why)
{
	char buf[2 * RC_NAME_MAX + 16], *at, *host, *port, *rest;
	size_t n = strnlen(text, sizeof(buf));

	memset(out, 0, sizeof(*out));
	*why = "";
	if (!strcmp(text, "none"))
		return 0;
	if (n == 0 || n >= sizeof(buf)) {
		*why = n ? "too long" : "empty: give [user@]host[:port], or none";
		return -1;
	}
	memcpy(buf, text, n + 1);
	rest = buf;
	at = strchr(buf, '@');
	if (at) {
		if (strchr(at + 1, '@')) {
			*why = "more than one '@'";
			return -1;
		}
		*at = '\0';
		if (!rc_user_is_safe(buf)) {
			*why = "the user is not a safe login name (letters, digits, '.', '_', '-'; "
			       "at most 32)";
			return -1;
		}
		memcpy(out->user, buf, strlen(buf) + 1);
		rest = at + 1;
	}
	if (split_host(rest, &host, &port, why))
		return -1;
	if (!*host) {
		*why = "the host is empty";
		return -1;
	}
	if (!rc_address_is_safe(host)) {
		*why = "the host is not an IPv4 or IPv6 address or a DNS name (letters, digits, "
		       "'.', ':', '_', '-'; at most 63)";
		return -1;
	}
	memcpy(out->host, host, strlen(host) + 1);
	out->port = RC_SSH_PORT_DEFAULT;
	if (port && parse_port(port, &out->port, why))
		return -1;
	return 0;
}

void rc_jump_format(const struct rc_jump *j, char *buf, size_t len)
{
	bool v6 = strchr(j->host, ':') != NULL;

	if (!j->host[0]) {
		snprintf(buf, len, "none");
		return;
	}
	snprintf(buf, len, "%s%s%s%s%s:%u", j->user, j->user[0] ? "@" : "", v6 ? "[" : "", j->host,
		 v6 ? "]" : "", j->port ? j->port : RC_SSH_PORT_DEFAULT);
}
