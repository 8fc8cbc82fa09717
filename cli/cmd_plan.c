/* SPDX-License-Identifier: Apache-2.0 */
#include "fleet_cmd.h"

/* rocectl plan -p POLICY -i INVENTORY: see cli/fleet_cmd.c. */
int cmd_plan(int argc, char **argv, const struct rc_global *g)
{
	return rc_fleet_command(RC_FLEET_CMD_PLAN, argc, argv, g);
}
