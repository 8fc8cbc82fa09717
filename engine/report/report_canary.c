/* SPDX-License-Identifier: Apache-2.0 */
/* What the canary of `rocectl enforce --canary N` did (include/rocectl/canary.h): the units
 * and devices chosen, how their counters were judged, what was rolled back.  One printer
 * for text and JSON (engine/report/print.c); the gauges follow report_enforce.c. */
#include <inttypes.h>

#include "rocectl/canary.h"
#include "rocectl/enforce.h"
#include "rocectl/print.h"

static void names(struct rc_out *o, const char *key, char (*v)[RC_NAME_MAX], size_t n)
{
	rc_out_open_array(o, key);
	for (size_t i = 0; i < n; i++)
		rc_out_str(o, NULL, i ? ", %s" : "%s", v[i]);
	rc_out_close_array(o);
}

static void finding(struct rc_out *o, const struct rc_canary_report *c)
{
	const struct rc_canary_finding *f = &c->finding;

	if (c->result == RC_CANARY_CLEAN || c->result == RC_CANARY_NONE) {
		rc_out_null(o, "finding", NULL);
		return;
	}
	rc_out_open_object(o, "finding");
	rc_out_str(o, "device", NULL, f->device);
	rc_out_str(o, "port", NULL, f->port);
	rc_out_str(o, "counter", NULL, f->counter);
	rc_out_uint(o, "delta", NULL, f->delta);
	rc_out_double(o, "rate_per_second", NULL, f->rate);
	rc_out_str(o, "why", "  not clean: %s\n", f->why);
	rc_out_close_object(o);
}

void rc_canary_print(struct rc_out *o, const struct rc_enforce_run *r)
{
	const struct rc_canary_report *c = &r->canary;

	if (c->result == RC_CANARY_NONE) {
		rc_out_null(o, "canary", NULL);
		return;
	}
	rc_out_open_object(o, "canary");
	rc_out_uint(o, "units_wanted", NULL, c->units_wanted);
	rc_out_text(o, "canary: %zu unit(s) (", c->n_units);
	names(o, "units", c->units, c->n_units);
	rc_out_text(o, "): ");
	names(o, "devices", c->devices, c->n_devs);
	rc_out_uint(o, "sampled_devices", "; counters of %" PRIu64 " device(s)", c->n_sampled);
	rc_out_double(o, "window_s", " compared over %.1f s", c->window_s);
	rc_out_str(o, "result", NULL, rc_canary_result_name(c->result));
	rc_out_text(o, ": %s\n", c->result == RC_CANARY_CLEAN ? "clean" : "not clean");
	finding(o, c);
	rc_out_uint(o, "rolled_back", NULL, c->rolled_back);
	rc_out_uint(o, "rollback_failed", NULL, c->rollback_failed);
	if (c->result != RC_CANARY_CLEAN)
		rc_out_text(o,
			    "  %zu canary device(s) rolled back, %zu could not be; nothing else "
			    "was repaired\n",
			    c->rolled_back, c->rollback_failed);
	rc_out_close_object(o);
}

void rc_canary_prometheus(FILE *f, const struct rc_enforce_run *r)
{
	const struct rc_canary_report *c = &r->canary;

	if (c->result == RC_CANARY_NONE)
		return;
	fprintf(f,
		"# HELP rocectl_enforce_canary_clean 1 when the last run's canary stayed clean "
		"and in sync, 0 when it was rolled back.\n"
		"# TYPE rocectl_enforce_canary_clean gauge\n"
		"rocectl_enforce_canary_clean %d\n",
		c->result == RC_CANARY_CLEAN);
	fprintf(f,
		"# HELP rocectl_enforce_canary_devices Devices the last run repaired as "
		"canaries.\n"
		"# TYPE rocectl_enforce_canary_devices gauge\n"
		"rocectl_enforce_canary_devices %zu\n",
		c->n_devs);
	fprintf(f,
		"# HELP rocectl_enforce_canary_rolled_back_devices Canary devices the last run "
		"restored because the canary was not clean.\n"
		"# TYPE rocectl_enforce_canary_rolled_back_devices gauge\n"
		"rocectl_enforce_canary_rolled_back_devices %zu\n",
		c->rolled_back);
}
