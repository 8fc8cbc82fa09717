/* SPDX-License-Identifier: Apache-2.0 */
/* verify --merge --format jsonl (cli/fleet_cmd.c reads the files): the merged fleet as the
 * lines of `verify --format jsonl` (include/rocectl/stream.h), devices in inventory order,
 * then the links, the dual-homed hosts, deadlock, cabling and the summary, each from
 * verify's own checks and printers over the whole fabric. */
#include <stdio.h>

#include "fleet_cmd.h"
#include "rocectl/deadlock.h"
#include "rocectl/lldp.h"
#include "rocectl/report.h"
#include "rocectl/result.h"
#include "rocectl/stream.h"
#include "rocectl/util.h"

static void line_close(FILE *f)
{
	fputs("}\n", f);
}

/* {header, "deadlock": {...}} and the like: a section whose printer names its own key. */
static void section_open(struct rc_out *o, FILE *f)
{
	rc_out_init(o, f, RC_OUT_JSON);
	rc_out_open_object(o, NULL);
}

static void section_close(struct rc_out *o, FILE *f)
{
	rc_out_close_object(o);
	fputc('\n', f);
}

int rc_verify_merged_jsonl(FILE *dst, struct rc_fleet *f)
{
	const struct rc_inventory *inv = f->inv;
	struct rc_stream_totals t = {0};
	struct rc_verify_checks vc;
	struct rc_out o;

	if (rc_verify_checks_build(&vc, f))
		return RC_EXIT_ERROR;
	for (size_t i = 0; i < f->n; i++) {
		const struct rc_fleet_dev *d = &f->devs[i];
		const struct rc_device *dev = &inv->devices[d->index];
		const struct rc_changes *c = &d->run.changes;
		size_t n = d->rc ? 0
				 : rc_changes_count(c, RC_CHANGE_SET) +
				       rc_changes_count(c, RC_CHANGE_UNKNOWN);

		rc_out_header_line(&o, dst, "device");
		rc_report_device_timed(
		    &o, RC_REPORT_VERIFY, dev->name, rc_driver_name_for(dev), d->rc ? NULL : c,
		    d->rc ? d->err.msg : NULL,
		    &(struct rc_report_times){.read = true, .read_ms = d->read_ms});
		line_close(dst);
		t.devices++;
		t.failed += d->rc != 0;
		t.with_changes += n > 0;
		t.changes += n;
	}
	for (size_t i = 0; i < vc.r.n_links; i++) {
		rc_out_header_line(&o, dst, "link");
		rc_report_link(&o, inv, &vc.r.links[i]);
		line_close(dst);
		t.bad_links += vc.r.links[i].status != RC_CHECK_OK;
	}
	for (size_t i = 0; i < vc.r.n_hosts; i++) {
		rc_out_header_line(&o, dst, "host");
		rc_report_host(&o, inv, &vc.r.hosts[i]);
		line_close(dst);
		t.bad_hosts += vc.r.hosts[i].status != RC_CHECK_OK;
	}
	section_open(&o, dst);
	rc_report_deadlock(&o, &vc.dl, &vc.r, &t.deadlock_unprotected);
	section_close(&o, dst);
	section_open(&o, dst);
	t.cabling = rc_report_cabling(&o, &vc.lldp, &vc.cab);
	section_close(&o, dst);
	t.links = vc.r.n_links;
	t.hosts = vc.r.n_hosts;
	rc_stream_summary_line(dst, &t, NULL);
	fflush(dst);
	rc_verify_checks_fini(&vc);
	return t.failed ? RC_EXIT_ERROR
	       : t.changes || t.bad_links || t.bad_hosts || t.deadlock_unprotected || t.cabling
		   ? RC_EXIT_CHANGES
		   : RC_EXIT_OK;
}
