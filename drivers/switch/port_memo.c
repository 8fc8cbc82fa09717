/* SPDX-License-Identifier: Apache-2.0 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "port_memo.h"

int rc_port_memo_store(struct rc_port_memo *m, const struct rc_port_state *ports, const void *info,
		       size_t n, size_t info_size)
{
	char(*names)[RC_NAME_MAX] = calloc(n ? n : 1, sizeof(*names));
	void *copy = calloc(n ? n : 1, info_size);

	if (!names || !copy) {
		free(names);
		free(copy);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		snprintf(names[i], RC_NAME_MAX, "%s", ports[i].name);
	if (n)
		memcpy(copy, info, n * info_size);
	rc_port_memo_free(m);
	m->port = names;
	m->info = copy;
	m->n = n;
	m->info_size = info_size;
	return 0;
}

const void *rc_port_memo_at(const struct rc_port_memo *m, size_t i)
{
	return (const char *)m->info + i * m->info_size;
}

const void *rc_port_memo_find(const struct rc_port_memo *m, const char *port)
{
	for (size_t i = 0; i < m->n; i++)
		if (!strcmp(m->port[i], port))
			return rc_port_memo_at(m, i);
	return NULL;
}

void rc_port_memo_free(struct rc_port_memo *m)
{
	free(m->port);
	free(m->info);
	memset(m, 0, sizeof(*m));
}
