/* SPDX-License-Identifier: Apache-2.0 */
/* What a switch driver read last, per port: the port names and the dialect's own per-port
 * facts (profile bindings, shared maps...), kept in the session so that apply can check a
 * write against every port sharing what it changes.  One copy for every dialect. */
#ifndef ROCECTL_PORT_MEMO_H
#define ROCECTL_PORT_MEMO_H

#include <stddef.h>

#include "rocectl/model.h"

struct rc_port_memo {
	size_t n;
	size_t info_size;
	char (*port)[RC_NAME_MAX];
	void *info; /* n entries of info_size bytes */
};

/* Replace the memo with these ports and their infos; -ENOMEM leaves the old one. */
int rc_port_memo_store(struct rc_port_memo *m, const struct rc_port_state *ports, const void *info,
		       size_t n, size_t info_size);
/* The info of `port`, or NULL when it was not read. */
const void *rc_port_memo_find(const struct rc_port_memo *m, const char *port);
/* The i-th info (i < m->n). */
const void *rc_port_memo_at(const struct rc_port_memo *m, size_t i);
void rc_port_memo_free(struct rc_port_memo *m);

#endif
