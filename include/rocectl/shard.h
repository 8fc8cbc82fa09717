/* SPDX-License-Identifier: Apache-2.0 */
/* verify past one machine (docs/SCALE.md): `verify --shard K/N` reads one shard of the
 * inventory's devices, `verify --merge FILE...` joins the shards' `--format jsonl` outputs
 * into the report one unsharded verify prints.
 *
 * Shards (engine/run/shard.c).  The inventory names no pod, so a pod is what its links
 * make: a leaf, the hosts cabled to it, and every other leaf those hosts are cabled to (a
 * dual-homed or rail-optimized host joins its leaves), i.e. a connected component of the
 * host-switch links.  Switches cabled to no host (spines, super-spines) and hosts cabled
 * to no switch are units of one device each.  Units are dealt out largest first (ties: by
 * the smallest device name in the unit), each to the shard holding the fewest devices so
 * far (ties: the lowest shard).  The result depends only on the devices' names and kinds
 * and on the links, never on the order of the inventory's entries or on the machine, and
 * every device lands in exactly one shard.  --limit is applied on top (an intersection).
 *
 * Merge (engine/report/merge.c): with --shard, `--format jsonl` adds to each device's line
 * what the cross-shard checks need of it ("shard_data": the brief of each of its link ends,
 * include/rocectl/stream.h, and the LLDP it read), and to the summary line which shard of
 * which inventory and policy it is ("shard"). */
#ifndef ROCECTL_SHARD_H
#define ROCECTL_SHARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rocectl/fleet.h"
#include "rocectl/inventory.h"
#include "rocectl/print.h"
#include "rocectl/stream.h"
#include "rocectl/util.h"

#define RC_SHARD_MAX 10000 /* N of --shard K/N */

/* "K/N" -> k, n with 1 <= k <= n <= RC_SHARD_MAX; -EINVAL with a message otherwise. */
int rc_shard_parse(const char *arg, unsigned *k, unsigned *n, struct rc_err *err);
/* shard_of[d] (one per inventory device, 1-based) for N shards. */
int rc_shard_assign(const struct rc_inventory *inv, unsigned n, unsigned *shard_of,
		    struct rc_err *err);
/* Keep in f (just rc_fleet_init'ed, nothing read) only the devices of shard k of n. */
int rc_shard_filter(struct rc_fleet *f, unsigned k, unsigned n, struct rc_err *err);

/* What a shard's jsonl says of itself (its summary line's "shard" object). */
struct rc_shard_meta {
	unsigned index, count; /* K, N */
	char limit[1024];      /* --limit as given, "" for none */
	char policy_sha256[RC_SHA256_HEX_LEN], inventory_sha256[RC_SHA256_HEX_LEN];
};

/* The SHA-256 of a file's bytes (policy, inventory), as hex. */
int rc_shard_file_sha256(const char *path, char out[RC_SHA256_HEX_LEN], struct rc_err *err);

/* verify --format jsonl with the shard data (rc_stream_verify otherwise). */
int rc_stream_verify_shard(struct rc_fleet *f, FILE *out, struct rc_stream_totals *t,
			   const struct rc_shard_meta *meta, struct rc_err *err);
/* The stream's hooks (engine/report/merge.c): a device line's "shard_data" (its link ends'
 * briefs, `ends` as in stream.c: 2 * link + side), the summary line's "shard". */
void rc_shard_device_data(struct rc_out *o, const struct rc_inventory *inv,
			  const struct rc_fleet_dev *d, const struct rc_port_brief *brief,
			  const size_t *ends, size_t n_ends);
void rc_shard_summary_meta(struct rc_out *o, const struct rc_shard_meta *m);

/* The merge: every shard's lines read into one fleet as if it had been read here (devices
 * in inventory order, each with its diff, error and read time; its link-end ports' states
 * from their briefs; its LLDP), so that verify's own printers make the report. */
struct rc_merge {
	const struct rc_inventory *inv;
	const struct rc_policy *pol;
	const char *policy_sha256, *inventory_sha256; /* NULL: not checked (the fuzzer) */
	struct rc_fleet_dev *devs;		      /* per inventory device */
	unsigned *from;	      /* per inventory device: 0 none, else 1 + file */
	unsigned *shard_of;   /* per inventory device, for the count the files give */
	unsigned count;	      /* N, from the first summary */
	unsigned *seen_index; /* per shard 1..N: 0, else 1 + file */
	size_t *by_name;      /* inventory devices sorted by name */
	size_t *first, *ends; /* each device's link ends (2 * link + side) */
	char limit[1024];
	size_t n_files;
	/* the file being read */
	const char *path;
	size_t line;
	bool summary;
	size_t devices_in_file, failed_in_file, drift_in_file;
};

int rc_merge_init(struct rc_merge *m, const struct rc_inventory *inv, const struct rc_policy *pol,
		  struct rc_err *err);
/* One file: every line through rc_merge_line, then the file's checks (a summary, its
 * counts, its shard).  `name` is for messages. */
int rc_merge_file(struct rc_merge *m, FILE *in, const char *name, struct rc_err *err);
void rc_merge_begin_file(struct rc_merge *m, const char *name);
int rc_merge_line(struct rc_merge *m, const char *line, size_t len, struct rc_err *err);
int rc_merge_end_file(struct rc_merge *m, struct rc_err *err);
/* Every shard there, every device of the selection read once: the fleet `f` (f->devs owned
 * by m until rc_merge_fini). */
int rc_merge_finish(struct rc_merge *m, struct rc_fleet *f, struct rc_err *err);
void rc_merge_fini(struct rc_merge *m);

#endif
