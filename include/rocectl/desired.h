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

#endif
