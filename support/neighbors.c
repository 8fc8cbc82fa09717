/* SPDX-License-Identifier: Apache-2.0 */
/* The LLDP neighbours one device's driver saw (include/rocectl/lldp.h): what every driver
 * fills and the cabling check (engine/diag/lldp.c) reads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/lldp.h"
#include "rocectl/util.h"

int rc_neighbors_add(struct rc_neighbors *nb, const char *port, const char *device,
		     const char *remote_port)
{
	struct rc_neighbor *e;
	int rc = rc_array_reserve((void **)&nb->v, &nb->cap, nb->n + 1, sizeof(*nb->v), 16);

	if (rc)
		return rc;
	e = &nb->v[nb->n++];
	snprintf(e->port, sizeof(e->port), "%s", port);
	snprintf(e->device, sizeof(e->device), "%s", device);
	snprintf(e->remote_port, sizeof(e->remote_port), "%s", remote_port);
	return 0;
}

int rc_neighbors_add_ident(struct rc_neighbors *nb, const char *port, const char *alias,
			   const char *mac)
{
	struct rc_port_ident *e;
	int rc =
	    rc_array_reserve((void **)&nb->ids, &nb->cap_ids, nb->n_ids + 1, sizeof(*nb->ids), 16);

	if (rc)
		return rc;
	e = &nb->ids[nb->n_ids++];
	snprintf(e->port, sizeof(e->port), "%s", port);
	snprintf(e->alias, sizeof(e->alias), "%s", alias ? alias : "");
	snprintf(e->mac, sizeof(e->mac), "%s", mac ? mac : "");
	return 0;
}

void rc_neighbors_fini(struct rc_neighbors *nb)
{
	free(nb->v);
	free(nb->ids);
	memset(nb, 0, sizeof(*nb));
}
