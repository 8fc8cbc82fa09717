/* SPDX-License-Identifier: Apache-2.0 */
/* Character sets for names that end up inside CLI commands, URLs and file paths on remote
 * devices.  Checked once at load; everything built later can rely on them. */
#include <ctype.h>
#include <string.h>

#include "rocectl/inventory.h"

static bool is_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

bool rc_name_is_safe(const char *name)
{
	size_t n = name ? strnlen(name, RC_NAME_MAX) : 0;

	if (n < 1 || n > RC_NAME_MAX - 1 || !is_alnum(name[0]))
		return false;
	for (size_t i = 1; i < n; i++)
		if (!is_alnum(name[i]) && !strchr("._/-", name[i]))
			return false;
	return true;
}

/* A device name is also a directory and file name (capture -o DIR/<name>, the journal, the
 * lock): a port's '/' ("Ethernet1/1") has no place in it, and neither has "..". */
bool rc_device_name_is_safe(const char *name)
{
	return rc_name_is_safe(name) && !strchr(name, '/') && !strstr(name, "..");
}

/* IPv4, IPv6 (colons) or a DNS name. */
bool rc_address_is_safe(const char *addr)
{
	size_t n = addr ? strnlen(addr, RC_NAME_MAX) : 0;

	if (n < 1 || n > RC_NAME_MAX - 1 || !(is_alnum(addr[0]) || addr[0] == ':'))
		return false;
	for (size_t i = 1; i < n; i++)
		if (!is_alnum(addr[i]) && !strchr(".:_-", addr[i]))
			return false;
	return true;
}

/* Login names: no '/' (unlike device names), may start with '_'. */
bool rc_user_is_safe(const char *user)
{
	size_t n = user ? strnlen(user, RC_NAME_MAX) : 0;

	if (n < 1 || n > 32 || !(is_alnum(user[0]) || user[0] == '_'))
		return false;
	for (size_t i = 1; i < n; i++)
		if (!is_alnum(user[i]) && !strchr("._-", user[i]))
			return false;
	return true;
}

bool rc_env_name_is_safe(const char *name)
{
	size_t n = name ? strnlen(name, RC_NAME_MAX) : 0;

	if (n < 1 || n > RC_NAME_MAX - 1 || (name[0] >= '0' && name[0] <= '9'))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!is_alnum(name[i]) && name[i] != '_')
			return false;
	return true;
}

/* The kernel's dev_valid_name() (net/core/dev.c): 1..IFNAMSIZ-1 bytes, not "." or "..", no
 * '/', ':' or whitespace.  We also refuse non-printable bytes: the name is printed. */
bool rc_ifname_is_safe(const char *name)
{
	size_t len = name ? strnlen(name, 16) : 0;

	if (len == 0 || len > 15 || !strcmp(name, ".") || !strcmp(name, ".."))
		return false;
	for (const char *p = name; *p; p++)
		if (*p == '/' || *p == ':' || isspace((unsigned char)*p) ||
		    !isprint((unsigned char)*p))
			return false;
	return true;
}

bool rc_agent_command_is_safe(const char *cmd)
{
	const char *p = cmd;

	if (!strncmp(p, "sudo -n ", 8))
		p += 8;
	if (!strcmp(p, "rocectl"))
		return true;
	if (p[0] != '/' || strlen(cmd) > 127 || strstr(p, "..") || strstr(p, "//") ||
	    p[strlen(p) - 1] == '/')
		return false;
	for (; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || strchr("._/-", *p)))
			return false;
	return true;
}
