/* SPDX-License-Identifier: Apache-2.0 */
/* --limit is the operator's selector: a term that matches no device, or a list that leaves
 * none selected, is a mistake in the command line (a typo, an old name), so it is a usage
 * error (exit 64) named before any device is opened, the same for every command. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "rocectl/cli.h"
#include "rocectl/fleet.h"

int rc_cli_limit_check(const char *cmd, const struct rc_inventory *inv, const char *limit)
{
	struct rc_err err = {0};
	bool *sel;
	size_t n = 0;
	int rc;

	if (!limit || !*limit)
		return 0;
	sel = calloc(inv->n_devices ? inv->n_devices : 1, sizeof(*sel));
	if (!sel) {
		fprintf(stderr, "rocectl %s: out of memory\n", cmd);
		return RC_EXIT_ERROR;
	}
	rc = rc_limit_select(inv, limit, sel, &err);
	for (size_t i = 0; !rc && i < inv->n_devices; i++)
		n += sel[i];
	free(sel);
	if (rc) {
		fprintf(stderr, "rocectl %s: %s\n", cmd, err.msg);
		return RC_EXIT_USAGE;
	}
	if (n == 0) {
		fprintf(stderr, "rocectl %s: --limit '%s' selects no device of the inventory\n",
			cmd, limit);
		return RC_EXIT_USAGE;
	}
	return 0;
}
