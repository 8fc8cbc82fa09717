/* SPDX-License-Identifier: Apache-2.0 */
/* The raw material of a host read, for `rocectl capture` (cli/cmd_capture.c): while a log
 * is set (`rocectl agent state --raw`, agent_remote.c), every file access of sysfs.c and
 * every DCB netlink read reply of dcbnl.c is appended to it, so that a capture holds what
 * the host answered and not only what the driver made of it.  Replayed by
 * tests/unit/test_captured_replay.c through the same parsers (rc_mlx5_read on a tree
 * rebuilt from the files, rc_dcb_parse_* on the replies).
 * The file helpers take a path and nothing else, so the log is not passed down but set
 * around one interface's read; it is per thread, so that a fleet thread reading another
 * device never writes into it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "host.h"

static _Thread_local struct {
	cJSON *files, *netlink;
	char root[4096];
	size_t root_len;
} raw;

void rc_host_raw_log(cJSON *files, cJSON *netlink, const char *root)
{
	size_t n;

	raw.files = files;
	raw.netlink = netlink;
	if (!root || !*root)
		root = "/";
	n = strlen(root);
	while (n > 0 && root[n - 1] == '/')
		n--;
	if (n >= sizeof(raw.root))
		n = 0;
	memcpy(raw.root, root, n);
	raw.root[n] = '\0';
	raw.root_len = n;
}

/* The path below the --root prefix ("sys/class/net/eth0/mtu"), or NULL when outside. */
static const char *below_root(const char *path)
{
	if (strncmp(path, raw.root, raw.root_len) || path[raw.root_len] != '/')
		return NULL;
	return path + raw.root_len + 1;
}

static cJSON *entry(const char *path)
{
	const char *rel = raw.files ? below_root(path) : NULL;
	cJSON *e;

	if (!rel)
		return NULL;
	e = cJSON_CreateObject();
	cJSON_AddStringToObject(e, "path", rel);
	cJSON_AddItemToArray(raw.files, e);
	return e;
}

static char *to_hex(const void *data, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = data;
	char *s = malloc(len * 2 + 1);

	if (!s)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		s[2 * i] = hex[p[i] >> 4];
		s[2 * i + 1] = hex[p[i] & 15];
	}
	s[2 * len] = '\0';
	return s;
}

void rc_host_raw_file(const char *path, const char *value, int rc)
{
	cJSON *e = entry(path);
	bool text = true;

	if (!e)
		return;
	if (rc < 0) {
		cJSON_AddNumberToObject(e, "errno", -rc);
		return;
	}
	/* A device's bytes are untrusted: what is not plain text travels as hex, so that the
	 * answer stays the UTF-8 JSON the controller accepts (agent_answer.c). */
	for (const unsigned char *p = (const unsigned char *)value; *p && text; p++)
		text = (*p >= 0x20 && *p < 0x7f) || *p == '\n' || *p == '\t';
	if (text) {
		cJSON_AddStringToObject(e, "value", value);
	} else {
		char *h = to_hex(value, strlen(value));

		if (h)
			cJSON_AddStringToObject(e, "value_hex", h);
		free(h);
	}
}

void rc_host_raw_dir(const char *path, bool is_dir)
{
	cJSON *e = entry(path);

	if (e)
		cJSON_AddBoolToObject(e, "dir", is_dir);
}

void rc_host_raw_link(const char *path, const char *target, int rc)
{
	cJSON *e = entry(path);

	if (!e)
		return;
	if (rc < 0)
		cJSON_AddNumberToObject(e, "errno", -rc);
	else
		cJSON_AddStringToObject(e, "link", target);
}

void rc_host_raw_netlink(const char *ifname, unsigned cmd, const void *reply, size_t len)
{
	cJSON *e;
	char *s;

	if (!raw.netlink)
		return;
	s = to_hex(reply, len);
	if (!s)
		return;
	e = cJSON_CreateObject();
	cJSON_AddStringToObject(e, "interface", ifname);
	cJSON_AddNumberToObject(e, "cmd", cmd);
	cJSON_AddStringToObject(e, "reply", s);
	cJSON_AddItemToArray(raw.netlink, e);
	free(s);
}
