/* SPDX-License-Identifier: Apache-2.0 */
/* The capture tap's rules (include/rocectl/transport.h): which commands and requests are
 * read-only, and how a raw answer is scrubbed before it is written to a file that may be
 * shared (secrets, addresses, serial numbers -> placeholders).
 *
 * Read-only means a show command of one of the dialects (`nv show`, SONiC `show` and `sonic-db-cli`
 * reads, EOS `show` and its `| json` filter), the host agent's `rocectl agent state|show|counters`
 * (also through the inventory's agent_command), lldpd's `lldpcli ... show` and the two files
 * the SONiC driver reads with `cat`;
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
 * in /rocectl, optionally after `sudo -n `) followed by `agent state`, `agent show` or
 * `agent counters` (reads: cli/agent_cmd.c). */
static bool agent_read_only(const char *p)
{
	const char *sp;

	if (starts(p, "sudo -n "))
		p += 8;
	sp = strchr(p, ' ');
	if (!sp || (strncmp(p, "rocectl ", 8) &&
		    (*p != '/' || sp - p < 8 || strncmp(sp - 8, "/rocectl", 8))))
		return false;
	return starts(sp, " agent state") || starts(sp, " agent show") ||
	       starts(sp, " agent counters");
}

/* The files the SONiC driver reads with `cat` (drivers/switch/sonic.c): the startup
 * configuration and the SKU's pg_profile_lookup.ini (sonic-buildimage keeps it under
 * /usr/share/sonic/device/<platform>/<hwsku>/); no other path, no "..". */
static bool cat_read_only(const char *p)
{
	static const char dev[] = "cat /usr/share/sonic/device/";
	static const char ini[] = "/pg_profile_lookup.ini";
	size_t n = strlen(p), slashes = 0;

	if (!strcmp(p, "cat /etc/sonic/config_db.json"))
		return true;
	if (!starts(p, dev) || n <= sizeof(dev) + sizeof(ini) || strcmp(p + n - strlen(ini), ini) ||
	    strstr(p, ".."))
		return false;
	for (const char *c = p + strlen(dev); c < p + n - strlen(ini); c++) {
		if (*c == '/')
			slashes++;
		else if (!isalnum((unsigned char)*c) && !strchr("._-", *c))
			return false;
	}
	return slashes == 1;
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
	static const char *const ok[] = {"show ",
					 "nv show ",
					 "rocectl agent state",
					 "rocectl agent show",
					 "rocectl agent counters",
					 NULL};
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
	if (agent_read_only(buf) || cat_read_only(buf))
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
		/* a command is a string, or {"cmd": ..., "revision": N} to ask for the answer's
		 * shape at a revision (Arista eAPI; ANTA pins revisions so) */
		const char *line =
		    cJSON_IsString(c) ? c->valuestring
		    : cJSON_IsObject(c)
			? cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "cmd"))
			: NULL;

		if (!ok)
			break;
		ok = line && (!strcmp(line, "enable") || rc_tap_read_only_cmd(line));
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

/* The secret-bearing keys of each platform (docs/PLATFORMS.md, "What capture scrubs"):
 * the value after one of these words is a secret, in text (`tacacs-server key 7 X`,
 * `snmp-server community X ro`, `username u secret sha512 X`) and in JSON (`"passkey": "X"`,
 * `"hashed-password": "X"`, `"SNMP_USER_AUTH_PASSWORD": "X"`).  `component`: also as the last
 * part of an identifier after '_' (SONiC's CONFIG_DB fields and tables are UPPER_SNAKE). */
static const struct secret_word {
	const char *word;
	bool component;
} secret_words[] = {
    {"password", true},	      {"passwd", true},	       {"passkey", true},
    {"secret", true},	      {"community-v6", true},  {"community", true},
    {"token", false},	      {"key", false},	       {"sshkey", false},
    {"auth-md5", false},      {"auth-sha", false},     {"encrypt-aes", false},
    {"encrypt-des", false},   {"serialnumber", false}, {"serial_number", false},
    {"serial number", false}, {"serial", false},       {NULL, false},
};

/* The value after a secret word in text: separators, then a token (two when the first is an
 * encryption type such as EOS's `secret sha512 HASH`, or an SSH key's type). */
static size_t secret_value(const char *s, size_t n, size_t *vstart)
{
	static const char *const types[] = {
	    "0",      "5",	 "7",		"8",	   "sha512",
	    "sha256", "ssh-rsa", "ssh-ed25519", "ssh-dss", "ecdsa-sha2-nistp256",
	    NULL};
	size_t i = 0, end;

	while (i < n && strchr(" \t:=\"'|", s[i]))
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

/* After a JSON key's closing quote: blanks, ':', blanks; the offset of the value, 0 if this
 * is not a key. */
static size_t json_value_at(const char *s, size_t n)
{
	size_t i = 1;

	if (!n || s[0] != '"')
		return 0;
	while (i < n && strchr(" \t\r\n", s[i]))
		i++;
	if (i >= n || s[i] != ':')
		return 0;
	for (i++; i < n && strchr(" \t\r\n", s[i]); i++)
		;
	return i < n ? i : 0;
}

/* The end of the JSON string starting at s[0] == '"' (the offset of its closing quote). */
static size_t json_string_end(const char *s, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		if (s[i] == '\\')
			i++;
		else if (s[i] == '"')
			return i;
	}
	return n;
}

/* A PEM block whose label says PRIVATE KEY (RFC 7468: "-----BEGIN RSA PRIVATE KEY-----",
 * "OPENSSH PRIVATE KEY", "ENCRYPTED PRIVATE KEY"), up to its END line; to the end of the
 * answer when it has none (a cut answer must not leave half a key). */
static size_t private_key_at(const char *s, size_t n)
{
	const char *label, *lend, *end;

	if (n < 11 || memcmp(s, "-----BEGIN ", 11))
		return 0;
	label = s + 11;
	lend = memmem(label, n - 11, "-----", 5);
	if (!lend || !memmem(label, (size_t)(lend - label), "PRIVATE KEY", 11))
		return 0;
	end = memmem(lend + 5, n - (size_t)(lend + 5 - s), "-----END ", 9);
	if (!end)
		return n;
	end = memmem(end + 9, n - (size_t)(end + 9 - s), "-----", 5);
	return end ? (size_t)(end + 5 - s) : n;
}

/* A secret word at s: after a word boundary, or after '_' for the words that end identifiers. */
static const struct secret_word *secret_word_at(const char *s, size_t n, bool boundary,
						bool underscore, size_t *len)
{
	for (int k = 0; secret_words[k].word; k++) {
		size_t l = strlen(secret_words[k].word);

		if ((boundary || (underscore && secret_words[k].component)) && l <= n &&
		    !strncasecmp(s, secret_words[k].word, l) && (l == n || !word_ch(s[l]))) {
			*len = l;
			return &secret_words[k];
		}
	}
	return NULL;
}

/* An object whose keys are the secrets (SONiC `"SNMP_COMMUNITY": {"public": {...}}`, NVUE
 * `"readonly-community": {"public": {...}}`): copied with each key of its first level
 * replaced by a numbered placeholder (numbered so that the document stays valid JSON).
 * Inside it, a key that is itself a secret word holds a secret too (NVUE `username U
 * auth-sha PASS encrypt-aes PASS`): its string value is replaced, and the keys of its object
 * value are.  One pass, no recursion (device output is untrusted, however deep); beyond 63
 * levels every string is taken for a secret.  Returns the length consumed, s[0] being '{'. */
static size_t secret_keys(struct out *o, const char *s, size_t n, unsigned *seq)
{
	uint64_t secret_level = 1u << 1; /* bit d: the keys at depth d are secrets */
	size_t i = 0, wl = 0;
	int depth = 0;

	while (i < n) {
		char c = s[i];

		if (c == '"') {
			size_t e = json_string_end(s + i, n - i), j = 0;
			bool key = i + e < n && (j = json_value_at(s + i + e, n - i - e));

			if (i + e >= n) { /* a cut answer: whatever string it ends in may be one */
				put(o, "\"<secret>", 9);
				i = n;
				break;
			}
			if (key && (depth > 63 || (secret_level & (1ull << depth)))) {
				char ph[32];
				int l = snprintf(ph, sizeof(ph), "\"<secret-%u>", ++*seq);

				put(o, ph, (size_t)l);
				i += e;
			} else if (depth > 63) {
				put(o, "\"<secret>", 9);
				i += e;
			} else if (key && secret_word_at(s + i + 1, e - 1, true, false, &wl) &&
				   wl == e - 1 && s[i + e + j] == '"') {
				size_t v = i + e + j, ve = json_string_end(s + v, n - v);

				put(o, s + i, v + 1 - i);
				put(o, "<secret>", 8);
				i = v + ve; /* the value's closing quote, copied below */
			} else {
				if (key && depth < 63 && s[i + e + j] == '{' &&
				    secret_word_at(s + i + 1, e - 1, true, false, &wl) &&
				    wl == e - 1)
					secret_level |= 1ull << (depth + 1);
				put(o, s + i, e < n - i ? e : n - i);
				i += e;
			}
			if (i >= n)
				break;
			put(o, s + i, 1); /* a closing quote */
			i++;
			continue;
		}
		put(o, s + i, 1);
		i++;
		if (c == '{' || c == '[') {
			depth++;
		} else if (c == '}' || c == ']') {
			if (depth < 64)
				secret_level &= ~(1ull << depth);
			if (--depth <= 0)
				break;
		}
	}
	return i;
}

/* A secret word at s (m bytes) and what follows it: the word and its value written to o,
 * the value as a placeholder.  Returns the length consumed. */
static size_t secret_at(struct out *o, const char *s, size_t n, size_t m, unsigned *seq)
{
	const char *ph = !strncasecmp(s, "serial", 6) ? "<serial>" : "<secret>";
	size_t j = json_value_at(s + m, n - m), v = 0, end;

	if (j && s[m + j] == '"') { /* "word": "value" */
		size_t e = json_string_end(s + m + j, n - m - j);

		put(o, s, m + j + 1);
		put(o, ph, 8);
		return m + j + e; /* the closing quote is copied by the caller */
	}
	if (j && s[m + j] == '{') { /* "word": {"secret": {...}, ...} */
		put(o, s, m + j);
		return m + j + secret_keys(o, s + m + j, n - m - j, seq);
	}
	end = secret_value(s + m, n - m, &v);
	if (!end) {
		put(o, s, m);
		return m;
	}
	put(o, s, m + v);
	put(o, ph, 8);
	return m + end;
}

static int scrub(const char *in, size_t len, const char *const *literals, bool addresses,
		 char **out, size_t *out_len)
{
	struct out o = {0};
	size_t i = 0;
	unsigned seq = 0;

	put(&o, "", 0);
	while (i < len && !o.fail) {
		const char *s = in + i;
		size_t n = len - i, m = 0;
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
		if ((m = private_key_at(s, n))) {
			put(&o, "<private-key>", 13);
		} else if (addresses && boundary && (m = mac_at(s, n))) {
			put(&o, "<mac>", 5);
		} else if (addresses && boundary && (m = ipv6_at(s, n))) {
			put(&o, "<ipv6>", 6);
		} else if (addresses && boundary && (i == 0 || in[i - 1] != '.') &&
			   (m = ipv4_at(s, n))) {
			put(&o, "<ipv4>", 6);
		} else if (secret_word_at(s, n, boundary, i && in[i - 1] == '_', &m)) {
			m = secret_at(&o, s, n, m, &seq);
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
