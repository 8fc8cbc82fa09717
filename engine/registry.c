/* The driver registry: the one piece of global mutable state, filled by constructors
 * before main() runs and read-only afterwards. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/driver.h"

#define RC_MAX_DRIVERS 32

static const struct rc_driver *drivers[RC_MAX_DRIVERS];
static size_t n_drivers;

void rc_driver_register(const struct rc_driver *d)
{
	if (n_drivers < RC_MAX_DRIVERS)
		drivers[n_drivers++] = d;
}

const struct rc_driver *rc_driver_find(const char *name)
{
	for (size_t i = 0; i < n_drivers; i++)
		if (!strcmp(drivers[i]->name, name))
			return drivers[i];
	return NULL;
}

const char *rc_driver_name_for(const struct rc_device *dev)
{
	if (dev->kind == RC_DEV_HOST)
		return dev->transport == RC_TRANSPORT_SSH ? "agent-ssh" : "mlx5";
	switch (dev->platform) {
	case RC_PLAT_NVUE:
		return dev->transport == RC_TRANSPORT_REST ? "nvue-rest" : "nvue-ssh";
	case RC_PLAT_SONIC:
		return "sonic-ssh";
	case RC_PLAT_EOS:
		return dev->transport == RC_TRANSPORT_REST ? "eos-eapi" : "eos-ssh";
	default:
		return "?";
	}
}

int rc_counters_add(struct rc_counters *c, const char *port, const char *name, const char *source,
		    uint64_t value, bool is_drop)
{
	struct rc_counter *e;

	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 32;
		struct rc_counter *v = realloc(c->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		c->v = v;
		c->cap = cap;
	}
	e = &c->v[c->n++];
	memset(e, 0, sizeof(*e));
	snprintf(e->port, sizeof(e->port), "%s", port ? port : "");
	snprintf(e->name, sizeof(e->name), "%s", name);
	snprintf(e->source, sizeof(e->source), "%s", source);
	e->value = value;
	e->is_drop = is_drop;
	return 0;
}

void rc_counters_free(struct rc_counters *c)
{
	free(c->v);
	c->v = NULL;
	c->n = c->cap = 0;
}
