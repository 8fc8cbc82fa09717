/* SPDX-License-Identifier: Apache-2.0 */
/* lldpd's neighbour list on a host (drivers/host/lldpd.c). */
#ifndef ROCECTL_HOST_LLDPD_H
#define ROCECTL_HOST_LLDPD_H

#include <stddef.h>

#include "rocectl/driver.h"

/* The command the agent-ssh driver runs on the host. */
#define RC_LLDPD_CMD "lldpcli -f json0 show neighbors"

/* `lldpcli -f json0 show neighbors` into neighbours.  device names the host in errors. */
int rc_lldpd_parse(const char *text, size_t len, const char *device, struct rc_neighbors *out,
		   struct rc_err *err);

/* The same, from this machine's lldpd (lldpd_local.c: lldpcli run without a shell); -ENOENT
 * when no lldpcli or no lldpd answers. */
int rc_lldpd_local(const char *device, struct rc_neighbors *out, struct rc_err *err);

#endif
