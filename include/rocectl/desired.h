/* SPDX-License-Identifier: Apache-2.0 */
/* Desired state: policy x device x port -> struct port_qos (engine/plan/desired.c). */
#ifndef ROCECTL_DESIRED_H
#define ROCECTL_DESIRED_H

#include "rocectl/inventory.h"
#include "rocectl/model.h"
#include "rocectl/policy.h"

/* The desired QoS of one port of a device.  `inv`/`dev_index` give the link the port is on
 * (speed and cable length drive computed headroom); inv may be NULL for the local agent,
 * then the policy's defaults apply and `speed_gbps` (0 = unknown) is the port's own speed.
 * Overrides of the device are applied. */
int rc_desired_port(const struct rc_policy *policy, const struct rc_inventory *inv,
		    size_t dev_index, const char *port, enum rc_dev_kind kind, uint32_t speed_gbps,
		    struct port_qos *out, struct rc_err *err);

/* A host's full desired state, rendered by the controller (`rocectl render`) so that the
 * host agent applies exactly what the controller computed: the inventory's values (cable
 * length per link, the device's overrides) included.  engine/plan/desired_file.c.
 *
 * JSON, schema "rocectl.desired/v1":
 *   {"schema": "rocectl.desired/v1", "host": "gpu001", "policy": "<policy name>",
 *    "tolerance_pct": 5,
 *    "ports": [{"port": "enp12s0np0", "qos": QOS}],   (the ports the inventory knows)
 *    "default": QOS}                                  (any other port of the host)
 * QOS is the journal's port state (support/qos_json.c). */
#define RC_DESIRED_SCHEMA    "rocectl.desired/v1"
#define RC_DESIRED_MAX_PORTS 1024

struct rc_desired_port_entry {
	char port[RC_NAME_MAX];
	struct port_qos qos;
};

struct rc_desired_set {
	char host[RC_NAME_MAX];
	char policy[RC_NAME_MAX];
	double tolerance_pct;
	size_t n, cap;
	struct rc_desired_port_entry *v;
	struct port_qos dflt;
};

/* The desired state of inventory device `dev_index` (a host): every port it lists or has a
 * link on, and the default for the others. */
int rc_desired_render(const struct rc_policy *policy, const struct rc_inventory *inv,
		      size_t dev_index, struct rc_desired_set *out, struct rc_err *err);
/* As JSON (malloc'd, NUL-terminated, ends with a newline); NULL when out of memory. */
char *rc_desired_to_json(const struct rc_desired_set *set);
/* Parse a render output; strict: anything unexpected is an error naming the file. */
int rc_desired_load(const char *path, struct rc_desired_set *out, struct rc_err *err);
/* The desired state of `port`: its own entry, else the default. */
const struct port_qos *rc_desired_lookup(const struct rc_desired_set *set, const char *port);
void rc_desired_fini(struct rc_desired_set *set);

#endif
