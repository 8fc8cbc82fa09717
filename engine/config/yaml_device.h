/* SPDX-License-Identifier: Apache-2.0 */
/* Reading the per-device blocks of an inventory (ssh, rest, credentials, overrides), shared
 * by `defaults:`, hosts and switches. */
#ifndef ROCECTL_YAML_DEVICE_H
#define ROCECTL_YAML_DEVICE_H

#include "rocectl/inventory.h"
#include "yaml_walk.h"

/* Each reads the block under `key` of m into out (which holds the inherited values);
 * 0 = absent or read, < 0 = error.  `warn` receives the rest.insecure warning; paths and
 * names are kept in `pool` (the inventory's). */
int ydev_read_ssh(struct yw *w, const struct yw_map *m, const char *key, struct rc_strpool *pool,
		  struct rc_ssh_opts *out);
int ydev_read_rest(struct yw *w, const struct yw_map *m, const char *key, struct rc_strpool *pool,
		   struct rc_rest_opts *out, struct rc_warnings *warn);
int ydev_read_credentials(struct yw *w, const struct yw_map *m, const char *key,
			  struct rc_strpool *pool, struct rc_credentials *out);
int ydev_read_overrides(struct yw *w, const struct yw_map *m, const char *key,
			struct rc_overrides *out);
/* `cable_rows: [5m, 40m, 300m]` of a switch: lengths, each 1m..100km, strictly ascending,
 * at most RC_CABLE_ROWS_MAX. */
int ydev_read_cable_rows(struct yw *w, const struct yw_map *m, const char *key,
			 struct rc_device *out);

#endif
