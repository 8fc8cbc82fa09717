/* SPDX-License-Identifier: Apache-2.0 */
/* rocectl render: one host's full desired state as the controller computes it (policy,
 * the cable length and speed of each of its links, the overrides the device may have), for
 * `rocectl agent ... --desired FILE` on that host (docs/ENFORCE.md, "One source of truth").
 * Schema and format: include/rocectl/desired.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/cli.h"
#include "rocectl/desired.h"
#include "rocectl/inventory.h"
#include "rocectl/policy.h"
#include "rocectl/util.h"

enum { OPT_HOST = 256, OPT_FORMAT };

static const char usage_line[] =
    "rocectl render -p POLICY -i INVENTORY --host NAME [-o FILE] [--format json]";

static const struct rc_option options[] = {
    {"policy", 'p', "FILE", "the policy", 'p'},
    {"inventory", 'i', "FILE", "the inventory", 'i'},
    {"host", 0, "NAME", "the host (its name in the inventory)", OPT_HOST},
    {"output", 'o', "FILE", "write here, atomically, mode 0644 (default: standard output)", 'o'},
    {"format", 0, "FMT",
     "json, the only one (examples/desired.schema.json): the file is the agent's input",
     OPT_FORMAT},
    {NULL, 0, NULL, NULL, 0},
};

struct args {
	const char *policy, *inventory, *host, *output;
};

static int on_option(int id, const char *arg, void *ctx)
{
	struct args *a = ctx;

	switch (id) {
	case 'p':
		a->policy = arg;
		break;
	case 'i':
		a->inventory = arg;
		break;
	case OPT_HOST:
		a->host = arg;
		break;
	case 'o':
		a->output = arg;
		break;
	case OPT_FORMAT:
		/* the output is a file for `agent --desired`, which reads JSON only */
		if (strcmp(arg, "json")) {
			fprintf(stderr,
				"rocectl render: --format: '%s' is not json (render writes the "
				"agent's JSON input only)\n",
				arg);
			return -EINVAL;
		}
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

static int render(const struct args *a, struct rc_err *err)
{
	struct rc_warnings warn = {0};
	struct rc_inventory inv = {0};
	struct rc_desired_set set;
	struct rc_policy pol;
	ptrdiff_t idx;
	char *json;
	int rc;

	if (rc_policy_load(a->policy, &pol, &warn, err))
		return -EINVAL;
	if (rc_inventory_load(a->inventory, &inv, &warn, err))
		return -EINVAL;
	rc_warnings_print(&warn, stderr);
	idx = rc_inventory_device_index(&inv, a->host);
	if (idx < 0) {
		rc = rc_errf(err, ENOENT, "host '%s' is not in the inventory '%s'", a->host,
			     a->inventory);
		goto out;
	}
	rc = rc_desired_render(&pol, &inv, (size_t)idx, &set, err);
	if (rc)
		goto out;
	json = rc_desired_to_json(&set);
	rc_desired_fini(&set);
	if (!json) {
		rc = rc_errf(err, ENOMEM, "out of memory");
		goto out;
	}
	if (a->output)
		rc = rc_write_atomic(a->output, json, strlen(json), 0644, "desired state", err);
	else if (fputs(json, stdout) == EOF || fflush(stdout))
		rc = rc_errf(err, EIO, "cannot write to standard output");
	free(json);
out:
	rc_inventory_fini(&inv);
	return rc;
}

int cmd_render(int argc, char **argv, const struct rc_global *g)
{
	struct args a = {0};
	struct rc_err err = {0};
	int npos, rc;

	(void)g;
	rc = rc_parse_options(argc, argv, usage_line, options, on_option, &a, &npos);
	if (rc)
		return rc > 0 ? RC_EXIT_OK : RC_EXIT_USAGE;
	if (npos || !a.policy || !a.inventory || !a.host) {
		fprintf(stderr, "rocectl render: -p, -i and --host are required\n");
		rc_print_usage(stderr, usage_line, options);
		return RC_EXIT_USAGE;
	}
	if (render(&a, &err)) {
		fprintf(stderr, "rocectl render: ");
		rc_err_print(&err, stderr);
		return RC_EXIT_ERROR;
	}
	return RC_EXIT_OK;
}
