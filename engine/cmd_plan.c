#include <stdio.h>

#include "cli.h"

/* Placeholder until its issue lands; listed as such in --help. */
int cmd_plan(int argc, char **argv, const struct rc_global *g)
{
	(void)argc;
	(void)argv;
	(void)g;
	fprintf(stderr, "rocectl: 'plan' is not implemented yet\n");
	return RC_EXIT_ERROR;
}
