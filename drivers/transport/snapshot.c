/* SPDX-License-Identifier: Apache-2.0 */
/* The snapshot transport (`--snapshot DIR`, docs/SNAPSHOT.md): a device's answers are read
 * from files instead of from the device, so verify, diagnose and export can judge a fabric
 * from a capture, a support bundle or a backup, offline.
 *
 * DIR/<device>/ holds either what `rocectl capture` wrote (cli/cmd_capture.c: a provenance
 * header whose `# command:` line names the request, then the answer after `# ---`) or raw
 * answers named by the request itself: every run of characters other than letters and
 * digits becomes one '-', so `show pfc counters` is `show-pfc-counters.txt` (or `.json`),
 * `GET /qos` is `GET-qos.json`.  An eAPI command asked at a revision may also be named
 * `<name>.rev<N>.json`, as Arista's own test data names them.
 *
 * Only reads are answered: a command the capture tap would refuse (tap.c) is refused here
 * too, so a snapshot can never stand in for a write, and a read with no file is an error
 * that names the device, the request and the file expected. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cJSON.h>

#include "rocectl/transport.h"

#define SNAP_FILE_MAX RC_SSH_OUT_MAX
#define CAPTURE_MAGIC "# rocectl-capture v1\n"

/* The raw layout's name of a request: runs of other characters become one '-'. */
static int rc_snapshot_name(const char *request, char *out, size_t len)
{
	size_t o = 0;

	for (const char *p = request; *p; p++) {
		char c = *p;
		bool word =
		    (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');

		if (o + 2 >= len)
			return -ENAMETOOLONG;
		if (word)
			out[o++] = c;
		else if (o && out[o - 1] != '-')
			out[o++] = '-';
	}
	while (o && out[o - 1] == '-')
		o--;
	out[o] = '\0';
	return o ? 0 : -EINVAL;
}

/* A device name is a path component here: the inventory's names are checked already
 * (rc_name_is_safe), this keeps the promise local. */
static bool component_ok(const char *s)
{
	return *s && strcmp(s, ".") && strcmp(s, "..") && !strchr(s, '/');
}

static int slurp(const char *path, char **out, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	char *buf;
	size_t n;

	if (!f)
		return -errno;
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode) || (size_t)st.st_size > SNAP_FILE_MAX) {
		fclose(f);
		return -EFBIG;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		fclose(f);
		return -ENOMEM;
	}
	n = fread(buf, 1, (size_t)st.st_size, f);
	fclose(f);
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

/* A capture file's command line (`# command: X`) and where its answer starts; false for
 * a file that is not a capture. */
static bool capture_header(const char *buf, size_t len, char *cmd, size_t cmd_len, size_t *body)
{
	const char *p = buf, *end = buf + len;

	cmd[0] = '\0';
	if (len < strlen(CAPTURE_MAGIC) || memcmp(buf, CAPTURE_MAGIC, strlen(CAPTURE_MAGIC)))
		return false;
	while (p < end && *p == '#') {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (n > 11 && !memcmp(p, "# command: ", 11))
			snprintf(cmd, cmd_len, "%.*s", (int)(n - 11), p + 11);
		if (n == 5 && !memcmp(p, "# ---", 5)) {
			*body = nl ? (size_t)(nl + 1 - buf) : len;
			return true;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	return false; /* no end of header: a truncated capture is no answer */
}

/* The capture file of DIR/<device> whose `# command:` is `request`. */
static int find_captured(const char *dir, const char *request, char **out, size_t *len)
{
	struct dirent **names = NULL;
	char path[PATH_MAX], cmd[4096];
	int n = scandir(dir, &names, NULL, alphasort), rc = -ENOENT;

	for (int i = 0; i < n; i++) {
		char *buf = NULL;
		size_t blen = 0, body = 0;

		if (rc == -ENOENT && names[i]->d_name[0] != '.' &&
		    (size_t)snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name) <
			sizeof(path) &&
		    !slurp(path, &buf, &blen)) {
			if (capture_header(buf, blen, cmd, sizeof(cmd), &body) &&
			    !strcmp(cmd, request)) {
				memmove(buf, buf + body, blen - body + 1);
				*out = buf;
				*len = blen - body;
				buf = NULL;
				rc = 0;
			}
			free(buf);
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

/* DIR/<device>/<name>.rev<N>.json, <name>.txt or <name>.json. */
static int find_raw(const char *dir, const char *request, int revision, char **out, size_t *len,
		    char *expected, size_t exp_len)
{
	static const char *const ext[] = {".txt", ".json"};
	char name[300], path[PATH_MAX];
	int rc;

	if (rc_snapshot_name(request, name, sizeof(name)))
		return -ENAMETOOLONG;
	if (revision > 0) {
		snprintf(path, sizeof(path), "%s/%s.rev%d.json", dir, name, revision);
		if ((rc = slurp(path, out, len)) != -ENOENT)
			return rc;
	}
	for (size_t i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s%s", dir, name, ext[i]);
		if ((rc = slurp(path, out, len)) != -ENOENT)
			return rc;
	}
	snprintf(expected, exp_len, "%s/%s.txt", dir, name);
	return -ENOENT;
}

static int answer_rev(const char *root, const char *device, const char *request, int revision,
		      char **out, size_t *len, struct rc_err *err)
{
	char dir[PATH_MAX], expected[PATH_MAX] = "";
	struct stat st;
	int rc;

	*out = NULL;
	*len = 0;
	if (!component_ok(device))
		return rc_errf(err, EINVAL, "'%s': not a name a snapshot directory can hold",
			       device);
	if ((size_t)snprintf(dir, sizeof(dir), "%s/%s", root, device) >= sizeof(dir))
		return rc_errf(err, ENAMETOOLONG, "'%s': snapshot path too long", device);
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return rc_errf(err, ENOENT, "'%s': the snapshot has no directory '%s'", device,
			       dir);
	rc = find_captured(dir, request, out, len);
	if (rc == -ENOENT)
		rc = find_raw(dir, request, revision, out, len, expected, sizeof(expected));
	if (rc == -ENOENT)
		return rc_errf(err, ENOENT,
			       "'%s': the snapshot has no answer to '%s' (expected a capture "
			       "file with '# command: %s' or '%s')",
			       device, request, request, expected);
	if (rc == -EFBIG)
		return rc_errf(err, EFBIG,
			       "'%s': the snapshot's answer to '%s' is not a regular file of at "
			       "most %u bytes",
			       device, request, SNAP_FILE_MAX);
	if (rc)
		return rc_errf(err, -rc, "'%s': cannot read the snapshot's answer to '%s': %s",
			       device, request, strerror(-rc));
	return 0;
}

/* A command line joined by `&&` (NVUE's one-session read) with no file of its own is
 * answered piece by piece, the answers one after the other, as the shell would print them. */
static int answer_pieces(const char *root, const char *device, const char *request, char **out,
			 size_t *len, struct rc_err *err)
{
	char *copy = strdup(request), *save = NULL, *all = NULL;
	size_t n = 0;
	int rc = 0;

	if (!copy)
		return rc_errf(err, ENOMEM, "out of memory");
	for (char *p = strtok_r(copy, "&", &save); p && !rc; p = strtok_r(NULL, "&", &save)) {
		char *piece = NULL, *grown;
		size_t plen = 0;

		while (*p == ' ')
			p++;
		for (size_t e = strlen(p); e && p[e - 1] == ' ';)
			p[--e] = '\0';
		rc = answer_rev(root, device, p, 0, &piece, &plen, err);
		if (rc)
			break;
		grown = realloc(all, n + plen + 1);
		if (!grown) {
			free(piece);
			rc = rc_errf(err, ENOMEM, "out of memory");
			break;
		}
		all = grown;
		memcpy(all + n, piece, plen);
		n += plen;
		all[n] = '\0';
		free(piece);
	}
	free(copy);
	if (rc) {
		free(all);
		return rc;
	}
	*out = all;
	*len = n;
	return 0;
}

int rc_snapshot_answer(const char *root, const char *device, const char *request, char **out,
		       size_t *len, struct rc_err *err)
{
	struct rc_err first = {0};
	int rc = answer_rev(root, device, request, 0, out, len, &first);

	if (rc != -ENOENT || !strstr(request, " && ")) {
		if (rc)
			*err = first;
		return rc;
	}
	rc = answer_pieces(root, device, request, out, len, err);
	if (rc == -ENOENT)
		*err = first;
	return rc;
}

/* One eAPI command's result: the file's JSON, or its text in {"output": ...} when the
 * request asked for text (Arista eAPI, JSON-RPC 2.0 `runCmds`: one result per command). */
static int eapi_result(const char *root, const char *device, const cJSON *cmd, bool text,
		       cJSON **result, struct rc_err *err)
{
	const char *line = cJSON_IsString(cmd)
			       ? cmd->valuestring
			       : cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(cmd, "cmd"));
	const cJSON *rev = cJSON_GetObjectItemCaseSensitive(cmd, "revision");
	char *buf = NULL;
	size_t len = 0;
	int rc;

	*result = NULL;
	if (!line)
		return rc_errf(err, EPROTO, "'%s': an eAPI command without text", device);
	if (!strcmp(line, "enable")) {
		*result = cJSON_CreateObject();
		return *result ? 0 : rc_errf(err, ENOMEM, "out of memory");
	}
	rc = answer_rev(root, device, line, cJSON_IsNumber(rev) ? rev->valueint : 0, &buf, &len,
			err);
	if (rc)
		return rc;
	if (text) {
		*result = cJSON_CreateObject();
		if (*result && !cJSON_AddStringToObject(*result, "output", buf)) {
			cJSON_Delete(*result);
			*result = NULL;
		}
	} else {
		*result = cJSON_ParseWithLength(buf, len);
		if (!cJSON_IsObject(*result)) {
			cJSON_Delete(*result);
			*result = NULL;
			free(buf);
			return rc_errf(err, EPROTO,
				       "'%s': the snapshot's answer to '%s' is not a JSON object",
				       device, line);
		}
	}
	free(buf);
	return *result ? 0 : rc_errf(err, ENOMEM, "out of memory");
}

int rc_snapshot_eapi(const char *root, const char *device, const char *body, size_t body_len,
		     char **out, size_t *len, struct rc_err *err)
{
	cJSON *req = cJSON_ParseWithLength(body, body_len), *ans = cJSON_CreateObject(), *res;
	const cJSON *params = cJSON_GetObjectItemCaseSensitive(req, "params");
	const cJSON *cmds = cJSON_GetObjectItemCaseSensitive(params, "cmds");
	const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(params, "format");
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(req, "id"), *c;
	bool text = cJSON_IsString(fmt) && !strcmp(fmt->valuestring, "text");
	int rc = 0;

	*out = NULL;
	if (!ans || !cJSON_IsArray(cmds) || !cJSON_AddStringToObject(ans, "jsonrpc", "2.0") ||
	    !cJSON_AddItemToObject(ans, "id",
				   id ? cJSON_Duplicate(id, true) : cJSON_CreateNull()) ||
	    !(res = cJSON_AddArrayToObject(ans, "result")))
		rc = rc_errf(err, EPROTO, "'%s': not an eAPI runCmds request", device);
	for (c = rc ? NULL : cmds->child; c; c = c->next) {
		cJSON *r = NULL;

		rc = eapi_result(root, device, c, text, &r, err);
		if (rc)
			break;
		cJSON_AddItemToArray(res, r);
	}
	if (!rc && !(*out = cJSON_PrintUnformatted(ans)))
		rc = rc_errf(err, ENOMEM, "out of memory");
	if (!rc)
		*len = strlen(*out);
	cJSON_Delete(req);
	cJSON_Delete(ans);
	return rc;
}
