/* SPDX-License-Identifier: Apache-2.0 */
#include "fleet_cmd.h"

/* rocectl apply -p POLICY -i INVENTORY: see cli/fleet_cmd.c. */
int cmd_apply(int argc, char **argv, const struct rc_global *g)
{
	return rc_fleet_command(RC_FLEET_CMD_APPLY, argc, argv, g);
}
