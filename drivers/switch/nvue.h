/* SPDX-License-Identifier: Apache-2.0 */
/* NVIDIA Cumulus Linux NVUE dialect, shared by the nvue-ssh and nvue-rest drivers:
 * parse the qos configuration tree into the vendor-neutral model, and turn writes into
 * NVUE operations rendered as `nv set/unset` lines or one JSON patch
 * (Cumulus Linux 5.x user guide, "Quality of Service" and "RoCE"; the NVUE command reference).
 * Nothing here does I/O; tests feed it recorded outputs. */
#ifndef ROCECTL_NVUE_H
#define ROCECTL_NVUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rocectl/driver.h"
#include "rocectl/err.h"
#include "rocectl/model.h"
#include "rocectl/util.h"

struct cJSON;

/* Profile kinds a port can bind (`nv set interface <if> qos <kind> profile <p>`). */
enum nvue_prof {
	NVUE_PROF_MAPPING = 0,
	NVUE_PROF_PFC,
	NVUE_PROF_CC,	 /* congestion-control */
	NVUE_PROF_SCHED, /* egress-scheduler */
	NVUE_PROF_N,
};

/* What one port of the switch is bound to, plus the raw PFC priority set of its profile
 * (pfc_enabled reports PFC as effective, i.e. also needing rx and tx on). */
struct nvue_port_info {
	char prof[NVUE_PROF_N][RC_NAME_MAX];
	bool pfc_profile_exists;
	uint8_t pfc_prio_set;
	bool pfc_rx, pfc_tx;
	bool roce_mode;	   /* `nv set qos roce` macro is on: its defaults underlie the rest */
	bool roce_unknown; /* the applied view says nothing about RoCE mode */
	bool roce_lossy;   /* RoCE mode in its lossy mode: no lossless pool, no PFC */
	uint32_t wd_polling_ms, wd_robustness;
	uint32_t cable_length_m; /* of the port's PFC profile (RoCE mode: of `qos roce`) */
	/* Traffic pools as configured (applied view): the lossless one (default-lossless,
	 * roce-lossless in RoCE mode) and default-lossy. */
	bool pools_read;
	bool lossless_pool_exists;
	uint8_t lossless_pool_prios, lossy_pool_prios;
	uint32_t lossless_pool_pct, lossy_pool_pct;
	bool startup_differs; /* startup configuration differs from applied (qos tree) */
};

/* What one read of a switch brings back, as NVUE shows it (Cumulus Linux "NVUE CLI": views). */
struct nvue_views {
	const struct cJSON *oper;    /* `nv show qos -o json`: what runs */
	const struct cJSON *applied; /* `nv show qos --applied -o json`: what is configured;
				      * NULL when not read (RoCE mode is then unknown) */
	const struct cJSON *startup; /* `nv show qos --rev=startup -o json`; NULL: not read */
	const struct cJSON *ifqos;   /* `nv show interface <if> qos -o json`; may be NULL */
};

/* The groups whose switch-wide trees differ between the applied and startup views (both
 * non-NULL), for nvue_parse_port_with. */
uint32_t nvue_startup_groups(const struct cJSON *applied, const struct cJSON *startup);

/* The lossless pool's share the driver creates when the policy does not say: the split
 * of NVIDIA's example (QoS guide, "Flow Control Buffers": default-lossless and
 * default-lossy 50 % each; Cumulus Linux 5.18 QoS guide, "Flow Control Buffers"). */
#define NVUE_LOSSLESS_POOL_PCT 50u

/* NVUE interface names: swp1, swp1s0, bond0, eth0, lo, vlan10 ... A stricter set than
 * rc_name_is_safe: no '/' (it would change a URL path) and no ':'. */
bool nvue_port_name_ok(const char *name);

/* One port's actual QoS from the views of the qos tree (`nv show qos -o json`, GET
 * /nvue_v1/qos, with --applied / ?rev=applied and --rev=startup / ?rev=startup) and the
 * port's interface qos tree.  Errors name the JSON path that was not what NVUE sends. */
int nvue_parse_port(const struct nvue_views *v, struct port_qos *out, struct nvue_port_info *info,
		    struct rc_err *err);
/* The same, with the applied/startup comparison done once for the whole switch
 * (nvue_startup_groups; NULL: compared here): comparing the switch-wide trees again for
 * every port made a 64-port switch's read quadratic (bench/README.md). */
int nvue_parse_port_with(const struct nvue_views *v, const uint32_t *startup_groups,
			 struct port_qos *out, struct nvue_port_info *info, struct rc_err *err);

/* One port's `nv show interface <if> counters qos -o json` into counters named by meaning
 * (pfc_pause_rx[p], pfc_pause_tx[p], egress_buffer_discards[t] (frames), wred_discards[t],
 * ecn_marked[t]), the NVUE path kept as the source.  Each map is keyed by index directly
 * or under "switch-priority"/"traffic-class"; another nesting is -EPROTO naming the path.
 * Values that are not non-negative integers are skipped. */
struct rc_counters;
int nvue_parse_counters(const struct cJSON *doc, const char *port, struct rc_counters *out,
			struct rc_err *err);
/* `nv show interface lldp` (nvue_lldp.c). */
int nvue_parse_lldp(const char *text, size_t len, const char *device, struct rc_neighbors *out,
		    struct rc_err *err);

/* A read that folds the LLDP table into its one command line (rc_run_opts.read_neighbors)
 * prefixes its `nv show` chain with NVUE_LLDP_PREFIX: the table, a line NVUE_LLDP_END when
 * it was printed whole (exit 0), then NVUE_QOS_BEGIN before the QoS documents.  `;` and
 * `echo` are the login shell's, as the `&&` the reads already chain (Cumulus Linux runs
 * bash; tests/sim/switch/cli_main.c implements the same subset).  A marker counts only as a
 * whole line: a table row starts with the switch's own interface name, JSON with '{'. */
#define NVUE_LLDP_END  "@@rocectl-lldp-end@@"
#define NVUE_QOS_BEGIN "@@rocectl-qos@@"
#define NVUE_LLDP_PREFIX                                                                           \
	"nv show interface lldp && echo " NVUE_LLDP_END "; echo " NVUE_QOS_BEGIN "; "

/* With the counters too (rc_run_opts.read_counters, every port in the one line):
 * NVUE_CNT_PREFIX, the ports' `nv show interface PORT counters qos -o json` &&-chained,
 * NVUE_CNT_SUFFIX, then the QoS chain. */
#define NVUE_CNT_BEGIN "@@rocectl-counters@@"
#define NVUE_CNT_END   "@@rocectl-counters-end@@"
#define NVUE_CNT_PREFIX                                                                            \
	"nv show interface lldp && echo " NVUE_LLDP_END "; echo " NVUE_CNT_BEGIN "; "
#define NVUE_CNT_SUFFIX " && echo " NVUE_CNT_END "; echo " NVUE_QOS_BEGIN "; "

/* Split such an answer: the neighbours into *nb (*nb_rc 0, or the LLDP section's error in
 * nb_err, naming the device and the section), *qos_off where the QoS documents start.
 * An answer without the QoS marker is an error in err (cut short, or not this command). */
int nvue_split_lldp(const char *out, size_t len, const char *device, struct rc_neighbors *nb,
		    int *nb_rc, struct rc_err *nb_err, size_t *qos_off, struct rc_err *err);

/* One field of an `nv show` row table (no -o json): `field` is the dotted path of the rows
 * ("pfc.cable-length", "[switch-priority]"), `column` a header ("operational",
 * "applied").  0 with the cell (set members joined by ','; "" when the column is empty
 * there), 1 when no row has the field, -EPROTO naming `cmd` on an unknown shape. */
int nvue_text_field(const char *text, size_t len, const char *cmd, const char *field,
		    const char *column, char *out, size_t olen, struct rc_err *err);

/* Parse a whole JSON document from device output (bounded, explicit length). */
int nvue_parse_json(const char *buf, size_t len, const char *what, struct cJSON **out,
		    struct rc_err *err);

/* Exactly `n` JSON documents one after the other (the output of several show commands in
 * one SSH command line), nothing else.  On error every docs[i] is NULL. */
int nvue_parse_json_seq(const char *buf, size_t len, const char *what, struct cJSON **docs,
			size_t n, struct rc_err *err);

/* ---- writes -------------------------------------------------------------------------- */

#define NVUE_PATH_MAX 8

enum nvue_val {
	NVUE_V_NONE = 0, /* membership / bare object: `... switch-priority 3`, {"3": {}} */
	NVUE_V_INT,
	NVUE_V_STR,
};

struct nvue_op {
	bool unset;
	int n;
	char tok[NVUE_PATH_MAX][RC_NAME_MAX];
	enum nvue_val vt;
	long long ival;
	char sval[RC_NAME_MAX];
	const char *port; /* the port the op was made for (messages) */
};

struct nvue_ops {
	size_t n, cap;
	struct nvue_op *v;
};

void nvue_ops_free(struct nvue_ops *ops);

/* A port that was read, with what it is bound to: shared profiles are checked against it. */
struct nvue_peer {
	const char *port;
	const struct nvue_port_info *info;
};

/* The operations that make each port's `fields` equal to `want`, given what was read
 * (`have`, and `info[i]` for w[i]).  Only what differs is written.  An op on a profile
 * that a peer (any port read, written or not) shares must be wanted by that peer too;
 * a conflict is an error and no op is produced.  Port names are checked here, before
 * they can reach a command or URL. */
int nvue_build_ops(const struct rc_port_write *w, const struct nvue_port_info *info, size_t n,
		   const struct nvue_peer *peers, size_t n_peers, struct nvue_ops *ops,
		   struct rc_err *err);

/* PFC watchdog ranges (Cumulus Linux 5.6 "What's New", new commands: polling-interval
 * 100-5000 ms, robustness 1-1000; Cumulus Linux 5.6 release notes, new commands, and the 5.18 QoS
 * guide, "PFC Watchdog"). */
#define NVUE_WD_POLL_MIN   100u
#define NVUE_WD_POLL_MAX   5000u
#define NVUE_WD_ROBUST_MIN 1u
#define NVUE_WD_ROBUST_MAX 1000u

/* A detection time as polling-interval x robustness within those ranges: 0, or -ERANGE
 * when no pair gives it exactly. */
int nvue_wd_split(uint32_t detection_ms, uint32_t *poll_ms, uint32_t *robustness);

/* `nv set ...` / `nv unset ...` lines, one per op, each ending in '\n'.  malloc'd. */
char *nvue_render_cli(const struct nvue_ops *ops);
/* The ops as one patch of the root tree (null = unset). */
struct cJSON *nvue_render_patch(const struct nvue_ops *ops);

/* Judge the output of `nv config apply -y`: 0 when applied, else -EIO with the first
 * reason NVUE gave (e.g. "Config invalid at qos.pfc...: ..."), made printable. */
int nvue_check_apply_output(const char *out, size_t out_len, const char *errout, size_t err_len,
			    int exit_status, char *why, size_t why_len);

/* REST revision objects. */
/* {"<id>": {"state": ...}} from POST /revision -> the id. */
int nvue_revision_id(const struct cJSON *j, char *id, size_t len, struct rc_err *err);
/* A revision's state: "applied", "invalid", ... and the first issue's message. */
int nvue_revision_state(const struct cJSON *j, char *state, size_t slen, char *issue, size_t ilen,
			struct rc_err *err);
/* Is this revision state final? *ok says whether it is success ("applied", or
 * "applied_and_saved" where NVUE saves on apply: Cumulus Linux 5.9 and later). */
bool nvue_revision_final(const char *state, bool *ok);
bool nvue_revision_applied(const char *state);
/* The ids of the revisions in `state` ("confirm": waiting for --confirm-yes/-no) in an
 * object keyed by revision id, each with a "state" (`nv config revision -o json`, GET
 * /revision); ids are checked to be safe in a command line.  *ids malloc'd. */
int nvue_revisions_in_state(const struct cJSON *revs, const char *state, char (**ids)[64],
			    size_t *n, struct rc_err *err);
/* One revision's state from the same object: 0, 1 when the id is not there. */
int nvue_revision_state_of(const struct cJSON *revs, const char *id, char *state, size_t slen,
			   struct rc_err *err);

/* ---- native snapshot (nvue_snap.c) ----------------------------------------------------- */

/* The applied configuration of what rocectl manages: the `qos` tree and each managed port's
 * `interface <if> qos` tree (NULL: nothing configured there), plus over REST the revision
 * the run stages into, so that a rollback can delete it if the run was killed. */
struct nvue_snap {
	struct cJSON *qos;
	size_t n_ports;
	char (*port)[RC_NAME_MAX];
	struct cJSON **ifqos;
	bool *absent; /* the port had no interface entry at all */
	bool rest;    /* taken over REST: `pending` says which revisions were pending */
	size_t n_pending;
	char (*pending)[64];
	bool timed; /* apply will use `nv config apply --confirm` (commit-confirm) */
};

void nvue_snap_free(struct nvue_snap *s);
/* From a sparse applied root (`nv config show -o json`'s set tree, GET /?rev=applied&
 * filled=false). */
int nvue_snap_from_root(const struct cJSON *root, const char (*ports)[RC_NAME_MAX], size_t n,
			struct nvue_snap *out, struct rc_err *err);
/* The ids of the pending revisions in GET /revision's answer (malloc'd). */
int nvue_pending_revisions(const struct cJSON *revs, char (**ids)[64], size_t *n,
			   struct rc_err *err);
bool nvue_snap_was_pending(const struct nvue_snap *s, const char *id);
/* `nv config show -o json` output -> the applied root (malloc'd). */
int nvue_config_show_root(const char *buf, size_t len, struct cJSON **root, struct rc_err *err);
/* The blob (JSON text, malloc'd) and back; parsing checks every word and bounds the tree. */
char *nvue_snap_write(const struct nvue_snap *s);
int nvue_snap_parse(const char *blob, struct nvue_snap *out, struct rc_err *err);
/* The restore as CLI lines: `nv unset qos`, `nv unset interface <if> qos` for each port
 * (`nv unset interface <if>` where the entry did not exist),
 * then `nv set` of every leaf of the snapshot; one line each, '\n'-terminated. */
char *nvue_snap_cli(const struct nvue_snap *s);
/* The snapshot as one patch of the root (to follow the DELETEs of the same subtrees). */
struct cJSON *nvue_snap_patch(const struct nvue_snap *s);
/* How `now` (the applied configuration as read after a restore, same ports) differs from
 * the snapshot `want`: the number of settings that differ (0: identical), `why` listing
 * them as "-nv set ..." (missing) and "+nv set ..." (not in the snapshot); -ENOMEM. */
int nvue_snap_differences(const struct nvue_snap *want, const struct nvue_snap *now, char *why,
			  size_t len);

#endif
