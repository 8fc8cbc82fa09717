/* SPDX-License-Identifier: Apache-2.0 */
/* verify for very large fabrics (`--format jsonl`, engine/report/stream.c): each device's
 * report is printed as one JSON line as soon as that device is read, and its full state
 * (every port's read and wanted QoS, every change) is freed there.  What the cross-hop
 * checks need later is kept per link end in a compact form (struct rc_port_brief, 40
 * bytes instead of a port_qos pair of ~1.5 KB), so the memory of a run follows the
 * inventory and --parallel, not the number of devices read so far (bench/README.md).
 *
 * Lines, in this order: one per device as it finishes ({"device": {...}}, the object of
 * the JSON report's "devices" array), one per link whose two ends were selected
 * ({"link": {...}}), one per dual-homed host ({"host": {...}}), the fabric-wide sections
 * of the JSON report, each one line ({"deadlock": {...}}, {"cabling": {...}}), and the
 * summary ({"summary": {...}}, the JSON report's, plus "command", "links_inconsistent",
 * "hosts_asymmetric", "deadlock_unprotected" and "cabling_problems").  The cabling check
 * keeps, per device, its LLDP state (one byte) and what it found wrong; the deadlock
 * check needs the topology and each switch port's watchdog bit. */
#ifndef ROCECTL_STREAM_H
#define ROCECTL_STREAM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "rocectl/fleet.h"
#include "rocectl/model.h"

/* What the link and dual-homing checks (engine/report/result.c) read of one port: the
 * policy's RoCE and CNP DSCPs, its ECN traffic class, PFC, trust and MTU. */
struct rc_port_brief {
	uint64_t kmin_bytes, kmax_bytes; /* ecn[ecn tc] */
	uint32_t known, unsupported;
	uint32_t mtu;
	uint8_t trust;
	uint8_t pfc_enabled;
	uint8_t roce_prio, cnp_prio; /* dscp2prio[roce dscp], dscp2prio[cnp dscp] */
	uint8_t flags;		     /* enum rc_brief_flag */
};

enum rc_brief_flag {
	RC_BRIEF_READ = 1u << 0,      /* the port was read: the rest means something */
	RC_BRIEF_ROCE_DSCP = 1u << 1, /* the roce dscp is in dscp_mask */
	RC_BRIEF_CNP_DSCP = 1u << 2,
	RC_BRIEF_ECN_TC = 1u << 3, /* the ecn tc is in ecn_tc_mask */
	RC_BRIEF_ECN_ON = 1u << 4, /* ecn[tc].enabled */
	RC_BRIEF_WD_ON = 1u << 5,  /* watchdog.enabled (the deadlock section) */
};

void rc_port_brief_make(const struct rc_policy *pol, const struct port_qos *q,
			struct rc_port_brief *b);
/* Back to a port_qos holding exactly what the checks read (the rest zero). */
void rc_port_brief_expand(const struct rc_policy *pol, const struct rc_port_brief *b,
			  struct port_qos *q);

struct rc_stream_totals {
	size_t devices, failed, with_changes, changes;
	size_t links, bad_links, hosts, bad_hosts;
	size_t deadlock_unprotected; /* ports, as the JSON report's deadlock section counts */
	size_t cabling;		     /* findings of the cabling section */
};

/* Read every device of `f` (rc_fleet_read) printing as above to `out`; `after` (may be
 * NULL) is called once a device is printed and freed, under the printer's lock, with
 * the count of devices done (tests measure the heap there).  Returns 0 (totals filled)
 * or a negative errno (out of memory before anything was read). */
int rc_stream_verify(struct rc_fleet *f, FILE *out, struct rc_stream_totals *t,
		     void (*after)(void *ctx, size_t done), void *ctx, struct rc_err *err);

/* The same reading and checks, printed in another format: RC_STREAM_PROMETHEUS writes the
 * file rc_report_prometheus, rc_report_deadlock_prom and rc_report_cabling_prom would (each
 * family one group; the devices in the order they finished), its samples spooled to disk
 * while devices are read (struct rc_prom_spool); RC_STREAM_TEXT the text report's devices
 * (grouped, include/rocectl/group.h; with `details` each device as it finishes), link and
 * host checks, deadlock and cabling sections, without its summary line (the caller's, from
 * the totals); RC_STREAM_JSON the whole JSON report, summary included, each device's object
 * spooled to disk as it finishes and copied out in the fleet's order; RC_STREAM_DOT the
 * picture rc_report_dot draws, each device's tooltip spooled to disk as it finishes
 * (engine/report/stream_dot.c), the deadlock and cabling checks only counted.  Memory stays
 * flat in each. */
struct rc_shard_meta;
/* The jsonl report's last line, {"summary": ...} from the totals (with `shard`, what the
 * merge checks it against); verify --merge prints it too (cli/verify_merge.c). */
void rc_stream_summary_line(FILE *f, const struct rc_stream_totals *t,
			    const struct rc_shard_meta *shard);
enum rc_stream_format {
	RC_STREAM_JSONL,
	RC_STREAM_PROMETHEUS,
	RC_STREAM_TEXT,
	RC_STREAM_JSON,
	RC_STREAM_DOT,
};
struct rc_stream_opts {
	enum rc_stream_format fmt;
	bool details;			   /* text: every device and field (--details, -v) */
	const struct rc_shard_meta *shard; /* jsonl of --shard: the merge's data (shard.h) */
};
int rc_stream_verify_as(struct rc_fleet *f, const struct rc_stream_opts *o, FILE *out,
			struct rc_stream_totals *t, void (*after)(void *ctx, size_t done),
			void *ctx, struct rc_err *err);

#endif
