/* The capture tap's rules (include/rocectl/transport.h): which commands and requests are
 * read-only, and how a raw answer is scrubbed before it is written to a file that may be
 * shared (secrets, addresses, serial numbers -> placeholders).
 *
 * Read-only means a show command of one of the dialects (`nv show`, SONiC `show` and `sonic-db-cli`
 * reads, EOS `show` and its `| json` filter), the host agent's `rocectl agent state|show`
 * (also through the inventory's agent_command) and lldpd's `lldpcli ... show`;
 * everything else is refused, so a capture can never change a device whatever the driver asks. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <strings.h>

#include <cJSON.h>

#include "rocectl/transport.h"

static bool starts(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

/* The inventory's agent_command (docs/INVENTORY.md: `rocectl`, or an absolute path ending
 * in /rocectl, optionally after `sudo -n `) followed by `agent state` or `agent show`. */
static bool agent_read_only(const char *p)
{
	const char *sp;

	if (starts(p, "sudo -n "))
		p += 8;
	sp = strchr(p, ' ');
	if (!sp || (strncmp(p, "rocectl ", 8) &&
		    (*p != '/' || sp - p < 8 || strncmp(sp - 8, "/rocectl", 8))))
		return false;
	return starts(sp, " agent state") || starts(sp, " agent show");
}

/* EOS's `| json revision N` (Arista ANTA's developer notes: "`<EOS command> | json revision
 * <number>`"), N 1..99. */
static bool json_revision(const char *s)
{
	if (!starts(s, "json revision "))
		return false;
	s += 14;
	return s[0] >= '1' && s[0] <= '9' && (!s[1] || (s[1] >= '0' && s[1] <= '9' && !s[2]));
}

/* One piece of a command line, trimmed. */
static bool piece_read_only(const char *p, size_t n)
{
	static const char *const ok[] = {"show ", "nv show ", "rocectl agent state",
					 "rocectl agent show", NULL};
	static const char *const db_reads[] = {"HGETALL ", "HGET ", "KEYS ", "EXISTS ", NULL};
	char buf[512], *w;

	while (n && *p == ' ')
		p++, n--;
	while (n && p[n - 1] == ' ')
		n--;
	if (!n || n >= sizeof(buf))
		return false;
	memcpy(buf, p, n);
	buf[n] = '\0';
	if (!strcmp(buf, "json") || !strcmp(buf, "show") || json_revision(buf))
		return true;
	for (int i = 0; ok[i]; i++)
		if (starts(buf, ok[i]))
			return true;
	if (agent_read_only(buf))
		return true;
	/* lldpd's reads (lldpcli(8)): `show`, never `configure`/`update` */
	if (starts(buf, "lldpcli -f json0 show ") || starts(buf, "lldpcli show "))
		return true;
	if (!starts(buf, "sonic-db-cli "))
		return false;
	w = strchr(buf + 13, ' '); /* after the database name */
	for (int i = 0; w && db_reads[i]; i++)
		if (starts(w + 1, db_reads[i]))
			return true;
	return false;
}

bool rc_tap_read_only_cmd(const char *cmd)
{
	const char *p = cmd;

	if (!cmd || !*cmd || strpbrk(cmd, "><`$\n\r\\"))
		return false;
	while (*p) {
		size_t n = strcspn(p, ";&|");

		if (!piece_read_only(p, n))
			return false;
		p += n;
		while (*p == ';' || *p == '&' || *p == '|')
			p++;
	}
	return true;
}

bool rc_tap_read_only_http(const char *method, const char *path, const char *body, size_t len)
{
	const cJSON *cmds, *c;
	cJSON *j;
	bool ok = true;

	(void)path;
	if (!strcmp(method, "GET") || !strcmp(method, "HEAD"))
		return true;
	if (strcmp(method, "POST") || !body)
		return false;
	/* eAPI runCmds (Arista eAPI, JSON-RPC 2.0 `runCmds`; pyeapi's eapilib.py): only `enable`
	 * and show commands */
	j = cJSON_ParseWithLength(body, len);
	cmds =
	    cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(j, "params"), "cmds");
	if (!cJSON_IsArray(cmds) ||
	    !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(j, "method")) ||
	    strcmp(cJSON_GetObjectItemCaseSensitive(j, "method")->valuestring, "runCmds"))
		ok = false;
	cJSON_ArrayForEach(c, cmds)
	{
		if (!ok)
			break;
		/* a command is a string or an object {"cmd", "revision"} (eAPI command objects) */
		const cJSON *cmd =
		    cJSON_IsObject(c) ? cJSON_GetObjectItemCaseSensitive(c, "cmd") : c;

		ok = cJSON_IsString(cmd) && (!strcmp(cmd->valuestring, "enable") ||
					     (rc_tap_read_only_cmd(cmd->valuestring)));
	}
	cJSON_Delete(j);
	return ok;
}

/* ---- scrubbing ---------------------------------------------------------------------- */

struct out {
	char *b;
	size_t n, cap;
	bool fail;
};

static void put(struct out *o, const char *s, size_t n)
{
	if (o->fail)
		return;
	if (o->n + n + 1 > o->cap) {
		size_t cap = (o->n + n + 1) * 2;
		char *b = realloc(o->b, cap);

		if (!b) {
			o->fail = true;
			return;
		}
		o->b = b;
		o->cap = cap;
	}
	memcpy(o->b + o->n, s, n);
	o->n += n;
	o->b[o->n] = '\0';
}

static bool word_ch(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* a.b.c.d, each 1-3 digits <= 255, not part of a longer dotted number */
static size_t ipv4_at(const char *s, size_t n)
{
	size_t i = 0;

	for (int part = 0; part < 4; part++) {
		size_t d = 0;
		unsigned v = 0;

		if (part) {
			if (i >= n || s[i] != '.')
				return 0;
			i++;
		}
		while (i < n && d < 4 && isdigit((unsigned char)s[i]))
			v = v * 10 + (unsigned)(s[i++] - '0'), d++;
		if (!d || d > 3 || v > 255)
			return 0;
	}
	if (i < n && (isdigit((unsigned char)s[i]) ||
		      (s[i] == '.' && i + 1 < n && isdigit((unsigned char)s[i + 1]))))
		return 0;
	return i;
}

/* hh:hh:hh:hh:hh:hh, hh-hh-..., or hhhh.hhhh.hhhh */
static size_t mac_at(const char *s, size_t n)
{
	if (n >= 17 && (s[2] == ':' || s[2] == '-')) {
		for (size_t i = 0; i < 17; i++)
			if (i % 3 == 2 ? s[i] != s[2] : !isxdigit((unsigned char)s[i]))
				return 0;
		return n > 17 && isxdigit((unsigned char)s[17]) ? 0 : 17;
	}
	if (n >= 14 && s[4] == '.' && s[9] == '.') {
		for (size_t i = 0; i < 14; i++)
			if (i == 4 || i == 9 ? false : !isxdigit((unsigned char)s[i]))
				return 0;
		return n > 14 && isxdigit((unsigned char)s[14]) ? 0 : 14;
	}
	return 0;
}

/* hex groups and colons: "::" with a hex digit, or 7 colons (times like 07:36:01 are not) */
static size_t ipv6_at(const char *s, size_t n)
{
	size_t i = 0, colons = 0;
	bool dbl = false, hex = false;

	while (i < n && (isxdigit((unsigned char)s[i]) || s[i] == ':' || s[i] == '.')) {
		if (s[i] == ':') {
			colons++;
			dbl |= i && s[i - 1] == ':';
		} else {
			hex = true;
		}
		i++;
	}
	if (colons < 2 || !hex || !(dbl || colons == 7))
		return 0;
	if (i < n && word_ch(s[i]))
		return 0;
	return i;
}

/* The value after a secret word: separators, then a token (two when the first is an
 * encryption type such as EOS's `secret sha512 HASH`). */
static size_t secret_value(const char *s, size_t n, size_t *vstart)
{
	static const char *const types[] = {"0", "5", "7", "8", "sha512", "sha256", NULL};
	size_t i = 0, end;

	while (i < n && strchr(" \t:=\"'", s[i]))
		i++;
	if (i == 0 || i >= n || s[i] == '\n' || s[i] == '{' || s[i] == '[')
		return 0;
	*vstart = i;
	end = i;
	while (end < n && !strchr(" \t\r\n\"',}]", s[end]))
		end++;
	for (int k = 0; types[k]; k++)
		if (end - i == strlen(types[k]) && !strncmp(s + i, types[k], end - i) && end < n &&
		    s[end] == ' ') {
			end++;
			while (end < n && !strchr(" \t\r\n\"',}]", s[end]))
				end++;
		}
	return end;
}

static size_t secret_word_at(const char *s, size_t n)
{
	static const char *const words[] = {
	    "password",	    "passwd",	     "secret",	      "token",	"community", "key",
	    "serialnumber", "serial_number", "serial number", "serial", NULL};

	for (int k = 0; words[k]; k++) {
		size_t l = strlen(words[k]);

		if (l <= n && !strncasecmp(s, words[k], l) && (l == n || !word_ch(s[l])))
			return l;
	}
	return 0;
}

static int scrub(const char *in, size_t len, const char *const *literals, bool addresses,
		 char **out, size_t *out_len)
{
	struct out o = {0};
	size_t i = 0;

	put(&o, "", 0);
	while (i < len && !o.fail) {
		const char *s = in + i;
		size_t n = len - i, m = 0, v = 0;
		bool boundary = i == 0 || !word_ch(in[i - 1]);
		bool lit = false;

		for (int k = 0; literals && literals[k]; k++) {
			size_t l = strlen(literals[k]);

			if (l >= 4 && l <= n && !memcmp(s, literals[k], l)) {
				put(&o, "<secret>", 8);
				i += l;
				lit = true;
				break;
			}
		}
		if (lit)
			continue;
		if (addresses && boundary && (m = mac_at(s, n))) {
			put(&o, "<mac>", 5);
		} else if (addresses && boundary && (m = ipv6_at(s, n))) {
			put(&o, "<ipv6>", 6);
		} else if (addresses && boundary && (i == 0 || in[i - 1] != '.') &&
			   (m = ipv4_at(s, n))) {
			put(&o, "<ipv4>", 6);
		} else if (boundary && (m = secret_word_at(s, n))) {
			size_t end = secret_value(s + m, n - m, &v);

			if (end) {
				put(&o, s, m + v);
				put(&o, !strncasecmp(s, "serial", 6) ? "<serial>" : "<secret>", 8);
				m += end;
			} else {
				put(&o, s, m);
			}
		} else {
			put(&o, s, 1);
			m = 1;
		}
		i += m;
	}
	if (o.fail) {
		free(o.b);
		return -ENOMEM;
	}
	*out = o.b;
	*out_len = o.n;
	return 0;
}

int rc_scrub(const char *in, size_t len, const char *const *literals, char **out, size_t *out_len)
{
	return scrub(in, len, literals, true, out, out_len);
}

int rc_redact(const char *in, size_t len, const char *const *literals, char **out, size_t *out_len)
{
	return scrub(in, len, literals, false, out, out_len);
}

void rc_verbose_log(const char *device, const char *what, const char *request, const char *body,
		    size_t body_len)
{
	char *r = NULL, *b = NULL;
	size_t rl = 0, bl = 0;

	if (rc_redact(request, strlen(request), NULL, &r, &rl) ||
	    (body && body_len && rc_redact(body, body_len, NULL, &b, &bl))) {
		free(r);
		fprintf(stderr, "%s %s: (not shown: out of memory)\n", device, what);
		return;
	}
	/* one write per line: the fleet's threads log at once */
	flockfile(stderr);
	fprintf(stderr, "%s %s: %s\n", device, what, r);
	if (b)
		fprintf(stderr, "%s %s body: %.*s\n", device, what, (int)(bl > 4096 ? 4096 : bl),
			b);
	funlockfile(stderr);
	free(r);
	free(b);
}

void rc_tap_record(const struct rc_tap *t, const char *request, const char *body, size_t body_len,
		   const char *answer, size_t len)
{
	char *req = NULL, *b = NULL, *a = NULL;
	size_t n;

	if (!rc_scrub(request, strlen(request), t->secrets, &req, &n) &&
	    (!body || !rc_scrub(body, body_len, t->secrets, &b, &n)) &&
	    !rc_scrub(answer ? answer : "", answer ? len : 0, t->secrets, &a, &n))
		t->record(t->ctx, req, b, a, n);
	free(req);
	free(b);
	free(a);
}

/* ---- the device's version ----------------------------------------------------------- */

/* "version": "4.31.2F", "product-release": "5.14.0", "SONiC Software Version: X". */
static void version_of(const char *s, char *out, size_t len)
{
	static const char *const keys[] = {"\"version\": \"",
					   "\"product-release\": \"",
					   "\"product-release\":\"",
					   "\"version\":\"",
					   "Software Version: ",
					   "Software image version: ",
					   NULL};

	for (int k = 0; s && keys[k]; k++) {
		const char *p = strstr(s, keys[k]);
		size_t n;

		if (!p)
			continue;
		p += strlen(keys[k]);
		n = strcspn(p, "\"\r\n ");
		if (n && n < len) {
			memcpy(out, p, n);
			out[n] = '\0';
			return;
		}
	}
}

/* The device's own version, through its transport (read-only, outside the tap). */
void rc_tap_device_version(const struct rc_device *dev, const struct rc_run_opts *opts, char *out,
			   size_t len)
{
	static const char *const ssh_cmd[] = {[RC_PLAT_HOST] = NULL,
					      [RC_PLAT_NVUE] = "nv show system -o json",
					      [RC_PLAT_SONIC] = "show version",
					      [RC_PLAT_EOS] = "show version"};
	struct rc_err err = {0};

	snprintf(out, len, "unknown");
	if (dev->transport == RC_TRANSPORT_SSH && ssh_cmd[dev->platform]) {
		struct rc_ssh *s;
		struct rc_ssh_result res;

		if (rc_ssh_open(dev, opts, &s, &err))
			return;
		if (!rc_ssh_run(s, ssh_cmd[dev->platform], NULL, 0, &res, &err)) {
			version_of(res.out, out, len);
			rc_ssh_result_free(&res);
		}
		rc_ssh_close(s);
	} else if (dev->transport != RC_TRANSPORT_SSH && dev->platform == RC_PLAT_EOS) {
		static const char body[] = "{\"jsonrpc\":\"2.0\",\"method\":\"runCmds\",\"id\":"
					   "\"v\",\"params\":{\"version\":1,\"format\":\"json\","
					   "\"cmds\":[\"show version\"]}}";
		struct rc_rest *r;
		struct rc_rest_response resp;

		if (rc_rest_open(dev, opts, "", 443, &r, &err))
			return;
		if (!rc_rest_request(r, "POST", "/command-api", body, strlen(body),
				     "application/json-rpc", &resp, &err)) {
			cJSON *j = cJSON_ParseWithLength(resp.body, resp.len);
			char *s =
			    cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(j, "result"));

			version_of(s, out, len);
			free(s);
			cJSON_Delete(j);
			rc_rest_response_free(&resp);
		}
		rc_rest_close(r);
	}
}
