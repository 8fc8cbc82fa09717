/* SPDX-License-Identifier: Apache-2.0 */
/* rocectl discover -i INVENTORY [--limit NAMES]: the `links:` section the inventory should
 * have, from what the devices' LLDP agents see (include/rocectl/lldp.h).  A cable seen from
 * both ends is printed once; speed and cable length are kept from the inventory where it
 * has the same cable.  Devices without LLDP (hosts without lldpd, drivers that read none)
 * are listed as comments: their cables show from the switch at the other end.
 * Exit: 0, or 1 when a device could not be read (what could be read is still printed). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/cli.h"
#include "rocectl/fleet.h"
#include "rocectl/lldp.h"
#include "rocectl/print.h"
#include "rocectl/util.h"

struct disc_opts {
	const char *inventory, *limit;
	unsigned parallel;
	bool json;
};

enum { OPT_LIMIT = 256, OPT_PARALLEL, OPT_FORMAT };

static const struct rc_option options[] = {
    {"inventory", 'i', "FILE", "the inventory (YAML)", 'i'},
    {"limit", 0, "NAMES", RC_LIMIT_HELP, OPT_LIMIT},
    {"parallel", 0, "N", "devices read at once (default 32)", OPT_PARALLEL},
    {"format", 0, "FMT", "text (default: inventory YAML) or json (examples/discover.schema.json)",
     OPT_FORMAT},
    {NULL, 0, NULL, NULL, 0},
};

#define USAGE "rocectl discover -i INVENTORY [--limit NAMES] [--parallel N] [--format text|json]"

static int on_option(int id, const char *arg, void *ctx)
{
	struct disc_opts *o = ctx;

	switch (id) {
	case 'i':
		o->inventory = arg;
		return 0;
	case OPT_LIMIT:
		o->limit = arg;
		return 0;
	case OPT_FORMAT:
		return rc_format_text_json("discover", arg, &o->json);
	case OPT_PARALLEL:
		return rc_number_arg("discover", "parallel", arg, 1, 1024, &o->parallel);
	default:
		return -EINVAL;
	}
}

/* Text: the inventory's `links:` section, devices without LLDP as comments.  JSON
 * (examples/discover.schema.json): each device's LLDP state, then the same links.  Returns
 * the number of devices that could not be read. */
static size_t print(const struct disc_opts *o, const struct rc_inventory *inv,
		    const struct rc_fleet *f, const struct rc_lldp *l)
{
	static const char *const state[] = {"not-read", "read", "none", "error"};
	struct rc_out out;
	size_t failed = 0;

	rc_out_init(&out, stdout, o->json ? RC_OUT_JSON : RC_OUT_TEXT);
	rc_out_open_object(&out, NULL);
	rc_out_str(&out, "schema", NULL, "rocectl.discover/v1");
	rc_out_str(&out, "command", NULL, "discover");
	rc_out_str(&out, "inventory", "# from LLDP, by rocectl discover -i %s\n", o->inventory);
	rc_out_open_array(&out, "devices");
	for (size_t i = 0; i < f->n; i++) {
		const struct rc_lldp_dev *d = &l->d[f->devs[i].index];
		const char *name = inv->devices[f->devs[i].index].name;

		rc_out_open_object(&out, NULL);
		rc_out_str(&out, "device", NULL, name);
		rc_out_str(&out, "lldp", NULL, state[d->state]);
		/* the reason may quote a device's answer: rc_out_str keeps it UTF-8 */
		if (d->state == RC_LLDP_UNKNOWN) {
			rc_out_text(&out, "# %s: no LLDP here (", name);
			rc_out_str(&out, "error", "%s)\n",
				   d->err.msg[0] ? d->err.msg : "no agent runs");
		} else if (d->state == RC_LLDP_ERROR) {
			fprintf(stderr, "rocectl discover: %s\n", d->err.msg);
			rc_out_text(&out, "# %s: not read (", name);
			rc_out_str(&out, "error", "%s)\n", d->err.msg);
			failed++;
		} else {
			rc_out_null(&out, "error", NULL);
		}
		rc_out_close_object(&out);
	}
	rc_out_close_array(&out);
	rc_lldp_print_links(&out, l);
	rc_out_int(&out, "exit_code", NULL, failed ? RC_EXIT_ERROR : RC_EXIT_OK);
	rc_out_close_object(&out);
	rc_out_end(&out);
	return failed;
}

int cmd_discover(int argc, char **argv, const struct rc_global *g)
{
	struct disc_opts o = {0};
	struct rc_run_opts opts = {
	    .root = g->root, .accept_new_host_keys = g->accept_new_host_keys, .dry_run = true};
	struct rc_inventory inv = {0};
	struct rc_fleet f = {0};
	struct rc_lldp l = {0};
	struct rc_warnings warn = {0};
	struct rc_err err = {0};
	size_t failed = 0;
	int npos, rc;

	rc = rc_parse_options(argc, argv, USAGE, options, on_option, &o, &npos);
	if (rc)
		return rc > 0 ? RC_EXIT_OK : RC_EXIT_USAGE;
	if (npos || !o.inventory) {
		fprintf(stderr, "rocectl discover: need -i INVENTORY and nothing else\n");
		rc_print_usage(stderr, USAGE, options);
		return RC_EXIT_USAGE;
	}
	if (rc_inventory_load(o.inventory, &inv, &warn, &err))
		return rc_cli_fail("discover", o.json, &err);
	rc_warnings_print(&warn, stderr);
	if ((rc = rc_cli_limit_check("discover", &inv, o.limit))) {
		rc_inventory_fini(&inv);
		return rc;
	}
	rc = rc_fleet_init(&f, &inv, NULL, &opts, o.limit, o.parallel, &err);
	if (!rc)
		rc = rc_lldp_read(&l, &f, &err);
	if (rc) {
		rc_fleet_fini(&f);
		rc_inventory_fini(&inv);
		return rc_cli_fail("discover", o.json, &err);
	}
	failed = print(&o, &inv, &f, &l);
	rc_lldp_fini(&l);
	rc_fleet_fini(&f);
	rc_inventory_fini(&inv);
	return failed ? RC_EXIT_ERROR : RC_EXIT_OK;
}
