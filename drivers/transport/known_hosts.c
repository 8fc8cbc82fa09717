/* SPDX-License-Identifier: Apache-2.0 */
/* known_hosts read once per run (bench/README.md).  libssh's ssh_session_is_known_server()
 * reads and parses the whole file for every connection, under the transport's lock; a
 * fleet's file has a line per device, so a 4,352-device verify parsed 19 million lines
 * and its CPU per device grew with the fleet.  This index answers only the case that
 * needs no judgement: the file names the host literally with exactly the key the server
 * presented, which libssh would accept too (a key matching one of the host's entries
 * is SSH_KNOWN_HOSTS_OK, whatever else the file says about it).  Everything else (no
 * entry, another key, patterns, hashed names, markers) still goes to libssh, which
 * decides, refuses and records as before (drivers/transport/ssh.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "known_hosts.h"

struct kh_entry {
	const char *host, *type, *b64; /* into text */
};

struct rc_kh_index {
	char *text; /* a copy, cut into fields */
	size_t n;
	struct kh_entry *v; /* sorted by host */
	bool unusable;	    /* hashed names or markers: answer nothing */
};

static int by_host(const void *a, const void *b)
{
	return strcmp(((const struct kh_entry *)a)->host, ((const struct kh_entry *)b)->host);
}

static char *field(char **p)
{
	char *s = *p, *start;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s)
		return NULL;
	start = s;
	while (*s && *s != ' ' && *s != '\t')
		s++;
	if (*s)
		*s++ = '\0';
	*p = s;
	return start;
}

/* Every literal host of one line's comma-separated list, with its key. */
static int add_line(struct rc_kh_index *ix, size_t *cap, char *line)
{
	char *p = line, *hosts = field(&p), *type = field(&p), *b64 = field(&p), *h, *save = NULL;

	if (!hosts || hosts[0] == '#')
		return 0;
	if (hosts[0] == '@' || hosts[0] == '|') {
		ix->unusable = true;
		return 0;
	}
	if (!type || !b64)
		return 0; /* libssh skips what it cannot parse; so do we */
	for (h = strtok_r(hosts, ",", &save); h; h = strtok_r(NULL, ",", &save)) {
		if (strpbrk(h, "*?!|"))
			continue;
		if (ix->n == *cap) {
			size_t ncap = *cap ? 2 * *cap : 64;
			struct kh_entry *v = realloc(ix->v, ncap * sizeof(*v));

			if (!v)
				return -1;
			ix->v = v;
			*cap = ncap;
		}
		ix->v[ix->n++] = (struct kh_entry){h, type, b64};
	}
	return 0;
}

struct rc_kh_index *rc_kh_index_new(const char *text, size_t len)
{
	struct rc_kh_index *ix = calloc(1, sizeof(*ix));
	size_t cap = 0;
	char *line, *save = NULL;

	if (!ix)
		return NULL;
	ix->text = malloc(len + 1);
	if (!ix->text) {
		free(ix);
		return NULL;
	}
	memcpy(ix->text, text, len);
	ix->text[len] = '\0';
	/* a NUL inside the file ends it here; libssh's line reader stops there too */
	for (line = strtok_r(ix->text, "\r\n", &save); line; line = strtok_r(NULL, "\r\n", &save))
		if (add_line(ix, &cap, line)) {
			rc_kh_index_free(ix);
			return NULL;
		}
	if (ix->n)
		qsort(ix->v, ix->n, sizeof(*ix->v), by_host);
	return ix;
}

void rc_kh_index_free(struct rc_kh_index *ix)
{
	if (!ix)
		return;
	free(ix->v);
	free(ix->text);
	free(ix);
}

/* The first entry >= host. */
static size_t first_of(const struct rc_kh_index *ix, const char *host)
{
	size_t lo = 0, hi = ix->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(ix->v[mid].host, host) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t rc_kh_index_types(const struct rc_kh_index *ix, const char *host, char *buf, size_t len)
{
	size_t n = 0, used = 0;

	if (!len)
		return 0;
	buf[0] = '\0';
	if (!ix || ix->unusable || !ix->n)
		return 0;
	for (size_t i = first_of(ix, host); i < ix->n && !strcmp(ix->v[i].host, host); i++) {
		const char *t = ix->v[i].type;
		size_t tl = strlen(t);
		bool dup = false;

		/* each type once: "ssh-ed25519" must not match inside "sk-ssh-ed25519@..." */
		for (const char *p = buf; *p && !dup;
		     p += strcspn(p, ",") + (p[strcspn(p, ",")] != 0))
			dup = strcspn(p, ",") == tl && !strncmp(p, t, tl);
		if (dup)
			continue;
		if (used + (used != 0) + tl + 1 > len) {
			buf[0] = '\0';
			return 0;
		}
		used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "," : "", t);
		n++;
	}
	return n;
}

bool rc_kh_index_has(const struct rc_kh_index *ix, const char *host, const char *type,
		     const char *b64)
{
	size_t lo;

	if (!ix || ix->unusable || !ix->n)
		return false;
	lo = first_of(ix, host);
	for (; lo < ix->n && !strcmp(ix->v[lo].host, host); lo++)
		if (!strcmp(ix->v[lo].type, type) && !strcmp(ix->v[lo].b64, b64))
			return true;
	return false;
}
