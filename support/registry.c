/* SPDX-License-Identifier: Apache-2.0 */
/* The driver registry: the one piece of global mutable state.  Drivers register from
 * constructors: the host driver's before main() runs, the network drivers' when
 * rocectl-net.so is loaded, the first time a driver is not found.  The registry is
 * filled once under a lock and only read afterwards (the fleet's threads look up). */
#include <dlfcn.h>
#include <stdbool.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rocectl/driver.h"
#include "rocectl/util.h"

#define RC_MAX_DRIVERS 32
#define PLUGIN_NAME    "rocectl-net.so"

#include "plugin_dir.h" /* generated: ROCECTL_PLUGIN_DIR */

static const struct rc_driver *drivers[RC_MAX_DRIVERS];
static size_t n_drivers;
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static bool plugin_tried;
static char plugin_error[512];		/* why rocectl-net.so could not be loaded */
static char plugin_path[PATH_MAX + 32]; /* where it was loaded from */

static bool try_load(const char *path)
{
	if (!dlopen(path, RTLD_NOW | RTLD_GLOBAL))
		return false;
	snprintf(plugin_path, sizeof(plugin_path), "%s", path);
	return true;
}

static void rc_driver_register(const struct rc_driver *d)
{
	if (n_drivers < RC_MAX_DRIVERS)
		drivers[n_drivers++] = d;
}

void rc_driver_register_checked(const struct rc_driver *d, const char *built_for)
{
	if (strcmp(built_for, ROCECTL_VERSION)) {
		snprintf(plugin_error, sizeof(plugin_error),
			 "driver '%s' was built for rocectl %.32s, this is rocectl %s: install the "
			 "rocectl-net.so of the same version",
			 d->name, built_for, ROCECTL_VERSION);
		return;
	}
	rc_driver_register(d);
}

static const struct rc_driver *lookup(const char *name)
{
	for (size_t i = 0; i < n_drivers; i++)
		if (!strcmp(drivers[i]->name, name))
			return drivers[i];
	return NULL;
}

/* $ROCECTL_PLUGIN, else next to the executable (the build tree), else the install dir. */
static void load_plugin(void)
{
	char exe[PATH_MAX], path[PATH_MAX + 32];
	const char *env = getenv("ROCECTL_PLUGIN");
	ssize_t n;

	if (env && *env) {
		if (try_load(env))
			return;
		snprintf(plugin_error, sizeof(plugin_error), "%s", dlerror());
		return;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		char *slash;

		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			snprintf(path, sizeof(path), "%s/%s", exe, PLUGIN_NAME);
			if (try_load(path))
				return;
			/* a plugin that is there but does not load is the error to show */
			if (access(path, F_OK) == 0) {
				snprintf(plugin_error, sizeof(plugin_error), "%s", dlerror());
				return;
			}
		}
	}
	snprintf(path, sizeof(path), "%s/%s", ROCECTL_PLUGIN_DIR, PLUGIN_NAME);
	if (!try_load(path))
		snprintf(plugin_error, sizeof(plugin_error), "%s", dlerror());
}

const char *rc_driver_load_error(void)
{
	const char *e;

	pthread_mutex_lock(&registry_lock);
	e = plugin_error[0] ? plugin_error : NULL;
	pthread_mutex_unlock(&registry_lock);
	return e;
}

const char *rc_driver_plugin_path(void)
{
	const char *p;

	pthread_mutex_lock(&registry_lock);
	if (!plugin_tried) {
		plugin_tried = true;
		load_plugin();
	}
	p = plugin_path[0] ? plugin_path : NULL;
	pthread_mutex_unlock(&registry_lock);
	return p;
}

/* Under the lock: the plugin's constructors register while fleet threads look up. */
const struct rc_driver *rc_driver_find(const char *name)
{
	const struct rc_driver *d;

	pthread_mutex_lock(&registry_lock);
	d = lookup(name);
	if (!d && !plugin_tried) {
		plugin_tried = true;
		load_plugin();
		d = lookup(name);
	}
	pthread_mutex_unlock(&registry_lock);
	return d;
}

const char *rc_driver_name_for(const struct rc_device *dev)
{
	if (dev->driver[0])
		return dev->driver;
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

	int rc = rc_array_reserve((void **)&c->v, &c->cap, c->n + 1, sizeof(*c->v), 32);

	if (rc)
		return rc;
	e = &c->v[c->n++];
	memset(e, 0, sizeof(*e));
	snprintf(e->port, sizeof(e->port), "%s", port ? port : "");
	snprintf(e->name, sizeof(e->name), "%s", name);
	snprintf(e->source, sizeof(e->source), "%s", source);
	e->value = value;
	e->is_drop = is_drop;
	return 0;
}

int rc_counters_add_disabled(struct rc_counters *c, const char *port, const char *name,
			     const char *source)
{
	int rc = rc_counters_add(c, port, name, source, 0, false);

	if (!rc)
		c->v[c->n - 1].not_enabled = true;
	return rc;
}

void rc_counters_fini(struct rc_counters *c)
{
	free(c->v);
	c->v = NULL;
	c->n = c->cap = 0;
}
