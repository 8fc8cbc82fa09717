/* SPDX-License-Identifier: Apache-2.0 */
/* A read-once index of a known_hosts file (drivers/transport/known_hosts.c), for the fast
 * path of the SSH host key check. */
#ifndef ROCECTL_KNOWN_HOSTS_H
#define ROCECTL_KNOWN_HOSTS_H

#include <stdbool.h>
#include <stddef.h>

struct rc_kh_index;

/* Index `len` bytes of known_hosts text.  NULL when out of memory.  An index of a file
 * holding hashed names (|1|...) or markers (@revoked, @cert-authority) answers nothing:
 * those lines need libssh's own reading. */
struct rc_kh_index *rc_kh_index_new(const char *text, size_t len);
void rc_kh_index_free(struct rc_kh_index *ix);
/* True when a line names `host` ("addr", or "[addr]:port" off port 22) literally (no
 * wildcard, no negation) with exactly this key type and base64 blob. */
bool rc_kh_index_has(const struct rc_kh_index *ix, const char *host, const char *type,
		     const char *b64);
/* The key types the file names `host` with literally, comma-separated into buf (each once,
 * in file order); 0 when none, the index answers nothing, or they do not fit. */
size_t rc_kh_index_types(const struct rc_kh_index *ix, const char *host, char *buf, size_t len);

#endif
