/* SPDX-License-Identifier: Apache-2.0 */
/* rocectl export -i INVENTORY [--limit L] [-o FILE] [--overrides FILE] [--name NAME]:
 * onboarding a brownfield fabric starts from what it does now.  Every selected device is
 * read; engine/plan/export.c makes the policy most ports follow and the switch overrides the
 * inventory can carry; then every device is diffed against that policy (with those
 * overrides), as `plan` would, and what still differs is listed: the settings no policy
 * field or override can express (a port that differs from the rest of its own switch, a
 * host that differs from the other hosts).
 *
 * Output (FILE or stdout): the policy, then as comments the choices made, the overrides
 * (to paste under each switch of the inventory, or written uncommented as an inventory
 * fragment by --overrides FILE) and the remaining differences.
 *
 * Exit: 0 the policy is written (settings it cannot express are warnings, on stderr and
 * listed at the end: a brownfield fabric always has some, and they are what the reader
 * must review, not a failure), 1 a device could not be read (nothing written) or no
 * policy can be made, 64 usage. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rocectl/cli.h"
#include "rocectl/export.h"
#include "rocectl/fleet.h"
#include "rocectl/print.h"
#include "rocectl/util.h"

enum { OPT_LIMIT = 256, OPT_PARALLEL, OPT_OVERRIDES, OPT_NAME, OPT_FORMAT, OPT_SNAPSHOT };

struct export_opts {
	const char *inventory, *limit, *out, *overrides, *name;
	const char *snapshot; /* --snapshot DIR (docs/SNAPSHOT.md) */
	unsigned parallel;
	bool json;
};

static const struct rc_option options[] = {
    {"inventory", 'i', "FILE", "the devices to read (required)", 'i'},
    {"limit", 0, "NAMES", RC_LIMIT_HELP, OPT_LIMIT},
    {"output", 'o', "FILE", "write the policy to FILE (default: stdout)", 'o'},
    {"overrides", 0, "FILE", "also write the switch overrides as an inventory fragment",
     OPT_OVERRIDES},
    {"name", 0, "NAME", "the policy's name (default: exported)", OPT_NAME},
    {"parallel", 0, "N", "devices read at once (default 32)", OPT_PARALLEL},
    {"snapshot", 0, "DIR", RC_SNAPSHOT_HELP, OPT_SNAPSHOT},
    {"format", 0, "FMT",
     "text (default: the policy as YAML) or json: policy, overrides and differences on stdout "
     "(examples/export.schema.json); -o still gets the YAML",
     OPT_FORMAT},
    {NULL, 0, NULL, NULL, 0},
};

#define USAGE                                                                                      \
	"rocectl export -i INVENTORY [--limit NAMES] [-o FILE] [--overrides FILE] [--name NAME] "  \
	"[--parallel N] [--snapshot DIR] [--format text|json]"

/* What only reading needs: the fleet diffs what it reads against some policy, and this one
 * is thrown away (the export's own policy is diffed afterwards). */
static const char read_policy[] = "apiVersion: rocectl/v1\nkind: Policy\nname: export-read\n"
				  "roce: {dscp: 26, priority: 3}\ncnp: {dscp: 48, priority: 6}\n"
				  "pfc: {priorities: [3]}\necn: {enabled: false}\n";

static int on_option(int id, const char *arg, void *ctx)
{
	struct export_opts *o = ctx;

	switch (id) {
	case 'i':
		o->inventory = arg;
		return 0;
	case 'o':
		o->out = arg;
		return 0;
	case OPT_LIMIT:
		o->limit = arg;
		return 0;
	case OPT_OVERRIDES:
		o->overrides = arg;
		return 0;
	case OPT_FORMAT:
		return rc_format_text_json("export", arg, &o->json);
	case OPT_NAME:
		if (!rc_name_is_safe(arg)) {
			fprintf(stderr, "rocectl export: --name: '%s' is not a policy name\n", arg);
			return -EINVAL;
		}
		o->name = arg;
		return 0;
	case OPT_PARALLEL:
		return rc_number_arg("export", "parallel", arg, 1, 1024, &o->parallel);
	case OPT_SNAPSHOT:
		o->snapshot = arg;
		return 0;
	default:
		return -EINVAL;
	}
}

struct export_run {
	struct export_opts o;
	struct rc_inventory inv;
	struct rc_policy read_pol, pol;
	struct rc_fleet f;
	struct rc_export e;
	bool have_inv, have_fleet;
	bool printed; /* the document is on stdout: a later failure only says so on stderr */
};

static bool has_overrides(const struct rc_overrides *ov)
{
	return ov->has_ecn_enabled || ov->has_ecn_kmin || ov->has_ecn_kmax || ov->has_ecn_pmax ||
	       ov->has_cable_length || ov->has_headroom_size || ov->has_mtu || ov->has_tolerance;
}

/* The exported policy with its overrides, diffed against every device as `plan` would:
 * each SET change is a setting the export could not express.  Returns how many.  Text:
 * comments after the policy; JSON: the "replaced_overrides" and "differences" arrays. */
static size_t residue(struct export_run *r, struct rc_out *o, struct rc_err *err)
{
	size_t n = 0;

	rc_out_open_array(o, "replaced_overrides");
	for (size_t i = 0; i < r->inv.n_devices; i++) {
		/* the diff below is against the export's overrides, not the inventory's */
		if (has_overrides(&r->inv.devices[i].ov))
			rc_out_str(o, NULL,
				   "#\n# %s has overrides in the inventory: replace them with the "
				   "ones above (or remove them where none is listed)\n",
				   r->inv.devices[i].name);
		r->inv.devices[i].ov = r->e.ov[i];
	}
	rc_out_close_array(o);
	rc_out_open_array(o, "differences");
	for (size_t i = 0; i < r->f.n; i++) {
		struct rc_fleet_dev *d = &r->f.devs[i];
		const char *name = r->inv.devices[d->index].name;

		if (rc_devrun_diff(&d->run, &r->pol, &r->inv, err) < 0) {
			rc_out_open_object(o, NULL);
			rc_out_str(o, "device", "# %s: ", name);
			rc_out_str(o, "error", "cannot diff: %s\n", err->msg);
			rc_out_close_object(o);
			n++;
			continue;
		}
		for (size_t k = 0; k < d->run.changes.n; k++) {
			const struct rc_change *c = &d->run.changes.v[k];

			if (c->kind != RC_CHANGE_SET)
				continue;
			if (!n++)
				rc_out_text(o, "#\n# Settings that differ from this policy and its "
					       "overrides (plan with them lists these):\n");
			fprintf(stderr,
				"rocectl export: warning: %s %s %s: %s, the export says %s (no "
				"policy field or override expresses it: plan with the export "
				"changes it)\n",
				name, c->port, c->field, c->old_value[0] ? c->old_value : "unknown",
				c->new_value);
			rc_out_open_object(o, NULL);
			rc_out_str(o, "device", "# differs: %s", name);
			rc_out_str(o, "port", " %s", c->port);
			rc_out_str(o, "field", " %s", c->field);
			if (c->old_value[0])
				rc_out_str(o, "old", ": %s", c->old_value);
			else
				rc_out_null(o, "old", ": unknown");
			rc_out_str(o, "new", " -> %s\n", c->new_value);
			rc_out_close_object(o);
		}
	}
	rc_out_close_array(o);
	return n;
}

/* An override the device does not need (its values are within the policy's tolerance,
 * as ASICs quantize thresholds) is dropped: the inventory is not to grow for nothing. */
static int prune_overrides(struct export_run *r, struct rc_err *err)
{
	for (size_t i = 0; i < r->f.n; i++) {
		struct rc_fleet_dev *d = &r->f.devs[i];
		struct rc_overrides *ov = &r->e.ov[d->index], keep;
		int n;

		if (!has_overrides(ov))
			continue;
		keep = r->inv.devices[d->index].ov;
		memset(&r->inv.devices[d->index].ov, 0, sizeof(r->inv.devices[d->index].ov));
		n = rc_devrun_diff(&d->run, &r->pol, &r->inv, err);
		r->inv.devices[d->index].ov = keep;
		if (n < 0)
			return n;
		if (n == 0) {
			memset(ov, 0, sizeof(*ov));
			r->e.n_ov--;
		}
	}
	return 0;
}

/* The notes ("# ..." lines) as a JSON array of their text. */
static void notes_json(struct rc_out *o, const char *notes)
{
	rc_out_open_array(o, "notes");
	for (const char *l = notes; *l;) {
		const char *nl = strchr(l, '\n');
		size_t ll = nl ? (size_t)(nl - l) : strlen(l);
		char line[RC_EXPORT_NOTES];

		snprintf(line, sizeof(line), "%.*s", (int)ll, l);
		rc_out_str(o, NULL, NULL, line + (!strncmp(line, "# ", 2) ? 2 : 0));
		l += ll + (nl != NULL);
	}
	rc_out_close_array(o);
}

/* Text: the policy, then as comments the choices, the overrides and the differences, to
 * -o FILE or stdout.  JSON (examples/export.schema.json): the same content as one document
 * on stdout; -o FILE still receives the policy as YAML, so that it can be used. */
static int write_out(struct export_run *r, size_t *n_residue, struct rc_err *err)
{
	char *ovy = rc_export_overrides_yaml(&r->inv, &r->e), *text = NULL;
	const char *fragment = ovy && ovy[0] ? ovy : "switches: []\n";
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	struct rc_out o;
	int rc = 0;

	if (!ovy || !m) {
		free(ovy);
		if (m)
			fclose(m);
		free(text);
		return rc_errf(err, ENOMEM, "out of memory");
	}
	rc_out_init(&o, m, r->o.json ? RC_OUT_JSON : RC_OUT_TEXT);
	rc_out_open_object(&o, NULL);
	rc_out_str(&o, "schema", NULL, "rocectl.export/v1");
	rc_out_str(&o, "command", NULL, "export");
	rc_out_str(&o, "inventory", NULL, r->o.inventory);
	rc_out_uint(&o, "devices_read", NULL, r->f.n);
	rc_out_str(&o, "policy_yaml", "%s", r->e.yaml);
	if (r->o.json) {
		rc = rc_out_yaml(&o, "policy", "exported policy", r->e.yaml, err);
		if (!rc)
			rc = rc_out_yaml(&o, "overrides", "exported overrides", fragment, err);
		notes_json(&o, r->e.notes);
	} else {
		if (r->e.notes[0])
			fprintf(m, "#\n# Chosen by rocectl export:\n%s", r->e.notes);
		if (ovy[0]) {
			fprintf(m, "#\n# Switches that differ where the inventory can say so: add "
				   "each 'overrides:' to the switch's entry in the inventory "
				   "(docs/INVENTORY.md)\n");
			for (char *l = ovy; *l;) {
				char *nl = strchr(l, '\n');
				int ll = nl ? (int)(nl - l) : (int)strlen(l);

				fprintf(m, "#   %.*s\n", ll, l);
				l += ll + (nl != NULL);
			}
		}
	}
	if (!rc)
		*n_residue = residue(r, &o, err);
	rc_out_int(&o, "exit_code", NULL, RC_EXIT_OK);
	rc_out_close_object(&o);
	rc_out_end(&o);
	if (fclose(m) && !rc)
		rc = rc_errf(err, ENOMEM, "out of memory");
	if (!rc && r->o.out)
		rc = rc_write_atomic(r->o.out, r->o.json ? r->e.yaml : text,
				     r->o.json ? strlen(r->e.yaml) : len, 0600, "policy", err);
	if (!rc && (r->o.json || !r->o.out)) {
		fwrite(text, 1, len, stdout);
		r->printed = true;
	}
	if (!rc && r->o.overrides)
		rc = rc_write_atomic(r->o.overrides, fragment, strlen(fragment), 0600, "overrides",
				     err);
	free(ovy);
	free(text);
	return rc;
}

static int run(struct export_run *r, const struct rc_global *g, struct rc_err *err)
{
	struct rc_run_opts opts = {.root = g->root,
				   .accept_new_host_keys = g->accept_new_host_keys,
				   .verbose = rc_cli_verbosity() > 0,
				   .snapshot = r->o.snapshot,
				   .dry_run = true};
	struct rc_warnings warn = {0};
	struct rc_export_dev *devs;
	size_t failed, n_residue = 0;
	int rc;

	if (rc_inventory_load(r->o.inventory, &r->inv, &warn, err))
		return -EINVAL;
	r->have_inv = true;
	rc_warnings_print(&warn, stderr);
	if (rc_policy_load_buffer("export", read_policy, strlen(read_policy), &r->read_pol, NULL,
				  err))
		return -EINVAL;
	if ((rc = rc_cli_limit_check("export", &r->inv, r->o.limit)))
		return rc; /* said; positive: the exit status */
	if (rc_fleet_init(&r->f, &r->inv, &r->read_pol, &opts, r->o.limit, r->o.parallel, err))
		return -EINVAL;
	r->have_fleet = true;
	r->f.progress = isatty(STDERR_FILENO) && rc_cli_verbosity() >= 0;
	r->f.disconnect_after_read = true;
	failed = rc_fleet_read(&r->f);
	for (size_t i = 0; i < r->f.n; i++)
		if (r->f.devs[i].rc)
			fprintf(stderr, "rocectl export: %s\n", r->f.devs[i].err.msg);
	if (failed)
		return rc_errf(err, EIO,
			       "%zu device(s) could not be read: nothing written (an export "
			       "must describe every device it selects; --limit leaves some out)",
			       failed);
	devs = calloc(r->f.n ? r->f.n : 1, sizeof(*devs));
	if (!devs)
		return rc_errf(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < r->f.n; i++)
		devs[i] = (struct rc_export_dev){r->f.devs[i].index, r->f.devs[i].run.have,
						 r->f.devs[i].run.n_ports};
	rc =
	    rc_export_derive(&r->inv, devs, r->f.n, r->o.name ? r->o.name : "exported", &r->e, err);
	free(devs);
	if (rc)
		return rc;
	/* what is written must load as any policy does: a failure here is rocectl's bug */
	if (rc_policy_load_buffer("exported policy", r->e.yaml, strlen(r->e.yaml), &r->pol, NULL,
				  err)) {
		rc_err_prefix(err, "the exported policy does not load");
		return -EINVAL;
	}
	rc = prune_overrides(r, err);
	if (!rc)
		rc = write_out(r, &n_residue, err);
	if (rc)
		return rc;
	fprintf(stderr, "export: %zu device(s) read, %zu switch override(s), %zu warning(s)%s\n",
		r->f.n, r->e.n_ov, n_residue,
		n_residue ? ": settings the export cannot express, listed at the end" : "");
	return RC_EXIT_OK;
}

int cmd_export(int argc, char **argv, const struct rc_global *g)
{
	struct export_run *r = calloc(1, sizeof(*r));
	struct rc_err err = {0};
	int npos, rc;

	if (!r) {
		fprintf(stderr, "rocectl export: out of memory\n");
		return RC_EXIT_ERROR;
	}
	rc = rc_parse_options(argc, argv, USAGE, options, on_option, &r->o, &npos);
	if (!rc && (npos || !r->o.inventory)) {
		if (npos)
			fprintf(stderr, "rocectl export: unexpected argument '%s'\n", argv[0]);
		else
			fprintf(stderr, "rocectl export: an inventory (-i) is needed\n");
		rc_print_usage(stderr, USAGE, options);
		rc = -EINVAL;
	}
	if (rc) {
		free(r);
		return rc > 0 ? RC_EXIT_OK : RC_EXIT_USAGE;
	}
	rc = run(r, g, &err);
	if (rc < 0)
		rc = rc_cli_fail("export", r->o.json && !r->printed, &err);
	rc_export_fini(&r->e);
	if (r->have_fleet)
		rc_fleet_fini(&r->f);
	if (r->have_inv)
		rc_inventory_fini(&r->inv);
	free(r);
	return rc < 0 ? RC_EXIT_ERROR : rc;
}
