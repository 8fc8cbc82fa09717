/* SPDX-License-Identifier: Apache-2.0 */
/* Arista EOS dialect, shared by the eos-ssh and eos-eapi drivers: the running-config (CLI
 * text, or eAPI's JSON tree of it) -> the vendor-neutral model, writes -> configuration
 * lines for one configuration session, and eAPI JSON-RPC answers judged
 * (AVD's eos_cli_config_gen templates, Arista's EOS manual and eAPI).  Nothing here does I/O; tests
 * feed it recorded outputs.
 *
 * The model's words in EOS terms: a "priority" is an EOS traffic class (`qos map dscp D to
 * traffic-class T`, `priority-flow-control priority T no-drop`), a model "traffic class"
 * is a transmit queue (`qos map traffic-class T to tx-queue Q`, `tx-queue Q` /
 * `random-detect ecn ...`). */
#ifndef ROCECTL_EOS_H
#define ROCECTL_EOS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rocectl/driver.h"
#include "rocectl/err.h"
#include "rocectl/model.h"
#include "rocectl/util.h"

struct cJSON;

#define EOS_LINE_MAX 256

/* EOS interface names: Ethernet1, Ethernet1/1, Ethernet3/1/1, Port-Channel10.  They go
 * into CLI lines: letters, then digits joined by '/' or '.'. */
bool eos_port_name_ok(const char *name);
/* Profile and session names: [A-Za-z0-9][A-Za-z0-9_-]{0,62}. */
bool eos_name_ok(const char *name);

/* One port's counters from `show priority-flow-control counters` and `show qos interfaces
 * ecn counters queue` (JSON): pfc_pause_rx, pfc_pause_tx (per port: EOS does not split them
 * by priority), ecn_marked[q].  Values that are not non-negative integers are skipped. */
struct rc_counters;
int eos_parse_counters(const struct cJSON *pfc, const struct cJSON *ecn, const char *port,
		       struct rc_counters *out, struct rc_err *err);
/* One port's drops per traffic class from `show interfaces counters queue drops` (revision 1,
 * JSON): egress_queue_discards[tc] and voq_discards[tc]; a range key "TC0-5" gives
 * ...[0-5], which no single class owns.  -EPROTO without the interfaces object. */
int eos_parse_queue_drops(const struct cJSON *doc, const char *port, struct rc_counters *out,
			  struct rc_err *err);
/* `show lldp neighbors detail` (or the summary) as JSON (eos_lldp.c). */
int eos_parse_lldp(const struct cJSON *doc, const char *device, struct rc_neighbors *out,
		   struct rc_err *err);

/* ---- the running-config ------------------------------------------------------------- */

/* One configuration line and its nesting depth (0: global, 1: inside `interface X`, 2:
 * inside `tx-queue N` of an interface). */
struct eos_line {
	int depth;
	char text[EOS_LINE_MAX];
};

struct eos_config {
	size_t n, cap;
	struct eos_line *v;
	bool uc_queues; /* the platform spells transmit queues `uc-tx-queue` */
};

void eos_config_free(struct eos_config *c);
/* The same lines at the same depths (comments are not lines). */
bool eos_config_same(const struct eos_config *a, const struct eos_config *b);

/* `show running-config` text (3-space indentation per level, '!' separators). */
int eos_parse_config_text(const char *buf, size_t len, const char *what, struct eos_config *out,
			  struct rc_err *err);
/* eAPI's JSON form of it: {"cmds": {"line": null | {"cmds": {...}}}}; nested objects
 * are blocks, key order is the configuration's. */
int eos_parse_config_json(const struct cJSON *j, const char *what, struct eos_config *out,
			  struct rc_err *err);

/* What one port is configured with, for the writer. */
struct eos_port_info {
	bool pfc_on;		  /* `priority-flow-control on` */
	bool pfc_all_off;	  /* global `priority-flow-control all off` */
	uint8_t nodrop;		  /* priorities marked no-drop on the port */
	bool routed;		  /* `no switchport` */
	bool trust_line;	  /* an explicit `qos trust` / `no qos trust` */
	bool queue_block[RC_NTC]; /* the port has a `tx-queue Q` block */
	bool ecn_line[RC_NTC];	  /* ... with a `random-detect ecn` line */
	bool ecn_count[RC_NTC];	  /* ... and `random-detect ecn count` */
	bool wd_timeout_set, wd_recovery_set, wd_action_set; /* global watchdog lines */
	uint32_t wd_poll_ms;	   /* global polling interval (0: default) */
	uint64_t dscp_explicit;	   /* bit d: a `qos map dscp ... d ...` line exists */
	uint8_t tc_queue_explicit; /* bit t: a `qos map traffic-class t to tx-queue` line */
};

/* One port's actual QoS from the running-config.  Errors name the line that was not what
 * EOS writes. */
int eos_parse_port(const struct eos_config *cfg, const char *port, struct port_qos *out,
		   struct eos_port_info *info, struct rc_err *err);

/* ---- effects: what the values alone do not show ------------------------------------------ */

/* ECN marks on a queue are counted only with `random-detect ecn count` under it
 * (AVD's qos.cfg, interfaces Ethernet6 and Ethernet7): a marking queue without it is effect drift
 * of the ECN group, which apply repairs. */
void eos_effect_ecn_count(struct port_qos *q, const struct eos_port_info *info);
/* The startup-config (what a reload brings back) against the running-config, for one port:
 * each group whose configured value differs is effect drift ("running differs from
 * startup").  `startup` may hold no configuration at all (never saved).  Returns 1 when
 * the port differs, 0 when not, or a negative errno. */
int eos_effect_startup(const struct eos_config *running, const struct eos_config *startup,
		       const char *port, struct port_qos *q, struct rc_err *err);
/* No public source has EOS show output (Arista's EOS manual and AVD carry configurations only):
 * every group read from the device is marked unverified (docs/platforms/eos.md). */
void eos_mark_unverified(struct port_qos *q);

/* ---- operational views, laid over the running-config --------------------------------- */

/* Each returns 0 when it applied what the view says about `port`, 1 when the view does
 * not mention the port (the running-config's reading stands), or a negative errno when the
 * view is not what EOS prints.  `json` (eAPI) or `text` (SSH), one of them. */

/* `show priority-flow-control`: global PFC, the watchdog's timers and action in effect
 * (EOS's defaults included), per port PFC on/off, no-drop priorities, watchdog on/off. */
int eos_view_pfc(const struct cJSON *json, const char *text, size_t len, const char *port,
		 struct port_qos *q, struct eos_port_info *info, struct rc_err *err);
/* `show qos interfaces ecn` (text): per transmit queue, ECN and its thresholds; the
 * header names the platform's queue keyword ("Ethernet1 (uc-tx-queue):"), which sets
 * *uc_queues (may be NULL). */
int eos_view_ecn(const char *text, size_t len, const char *port, struct port_qos *q,
		 struct eos_port_info *info, bool *uc_queues, struct rc_err *err);
/* `show qos interfaces trust`: the trust mode in effect. */
int eos_view_trust(const struct cJSON *json, const char *text, size_t len, const char *port,
		   struct port_qos *q, struct rc_err *err);
/* `show qos maps` (JSON): the DSCP -> traffic class and traffic class -> queue maps in
 * effect, defaults included. */
int eos_view_maps(const struct cJSON *json, struct port_qos *q, struct rc_err *err);

/* ---- writes -------------------------------------------------------------------------- */

enum eos_ctx {
	EOS_CTX_GLOBAL = 0,
	EOS_CTX_IF,    /* interface <port> */
	EOS_CTX_QUEUE, /* interface <port> / tx-queue <queue> */
};

struct eos_cmd {
	enum eos_ctx ctx;
	const char *port; /* IF, QUEUE; also the port a global line was made for */
	int queue;
	uint32_t group;
	char line[EOS_LINE_MAX];
};

struct eos_cmds {
	size_t n, cap;
	struct eos_cmd *v;
	bool uc_queues;
};

void eos_cmds_free(struct eos_cmds *c);

struct eos_peer {
	const char *port;
	const struct eos_port_info *info;
};

/* The configuration lines that make each port's `fields` equal to `want`.  Global lines
 * (the DSCP map, watchdog timers) change every port: each peer (port read) must want that
 * group written too, else nothing is produced.  Port names are checked here. */
int eos_build_cmds(const struct eos_config *cfg, const struct rc_port_write *w,
		   const struct eos_port_info *info, size_t n, const struct eos_peer *peers,
		   size_t n_peers, struct eos_cmds *cmds, struct rc_err *err);

/* The commands in session order: global lines, then each interface with its queue
 * sub-blocks (`exit` after each block), as a NULL-terminated array of malloc'd strings
 * (free with eos_lines_free).  Without `configure session` / `commit`: the driver wraps
 * them. */
char **eos_render(const struct eos_cmds *cmds, size_t *n);
void eos_lines_free(char **lines);

/* ---- native snapshot (eos_snap.c) ------------------------------------------------------- */

/* The running-config lines rocectl manages (global qos / priority-flow-control lines, and
 * the qos, priority-flow-control and transmit-queue lines of each managed port), the
 * startup-config's same lines when it differed from the running-config (a restore must
 * put both back), and the configuration session the run stages in. */
struct eos_snap {
	char session[64];
	size_t n_ports;
	char (*port)[RC_NAME_MAX];
	struct eos_config cfg;
	bool has_startup;
	struct eos_config startup;
};

void eos_snap_free(struct eos_snap *s);
/* startup: the startup-config (NULL: not read); kept only where it differs. */
int eos_snap_from_config(const struct eos_config *cfg, const struct eos_config *startup,
			 const char (*ports)[RC_NAME_MAX], size_t n, const char *session,
			 struct eos_snap *out, struct rc_err *err);
/* The blob (JSON text, malloc'd) and back; parsing refuses any line that is not managed. */
char *eos_snap_write(const struct eos_snap *s);
int eos_snap_parse(const char *blob, struct eos_snap *out, struct rc_err *err);
/* The session lines (NULL-terminated, eos_lines_free) that turn `running` into `to` (the
 * snapshot's cfg or startup) on the snapshot's managed lines: `default` of what is not in
 * `to`, then the lines of `to` that are missing, interface by interface.  0 lines: equal. */
int eos_snap_restore_lines(const struct eos_config *running, const struct eos_snap *s,
			   const struct eos_config *to, char ***lines, size_t *n,
			   struct rc_err *err);

/* After a restore: how `now` (a running- or startup-config as read) differs from `want`
 * (the snapshot's cfg or startup) on the snapshot's managed lines.  Returns the number of
 * lines that differ (0: identical), `why` listing them as "-LINE" (missing) and "+LINE"
 * (not in the snapshot), each with its interface and queue; or a negative errno. */
int eos_snap_differences(const struct eos_config *now, const struct eos_snap *s,
			 const struct eos_config *want, char *why, size_t len, struct rc_err *err);

/* ---- answers ------------------------------------------------------------------------- */

/* CLI output (SSH): 0 when no line is an EOS error ("% Invalid input ...", "% Incomplete
 * command" ...), else -EIO with the first such line and the command it answered when it
 * can be told. */
int eos_check_cli_output(const char *out, size_t out_len, const char *errout, size_t err_len,
			 int exit_status, char *why, size_t why_len);

/* An eAPI JSON-RPC answer to runCmds of `n` commands: 0 with *results (the answer's own
 * array, one element per command) or -EIO naming the failing command and its errors
 * ("eAPI error 1002 at command 3 'qos map dscp 26 to traffic-class 9': Invalid input (at
 * token 6: '9')"), -EPROTO when the answer is not JSON-RPC. */
int eos_eapi_result(const struct cJSON *answer, const char *id, const char *const *cmds, size_t n,
		    const struct cJSON **results, struct rc_err *err);

/* The revision of `cmd`'s JSON model rocectl reads (0: not a show command). */
int eos_cmd_revision(const char *cmd);
/* `cmd | json revision N` (or `| json` for what has no revision) into out: the CLI form of
 * the same request; -ENAMETOOLONG when it does not fit. */
int eos_cli_json(const char *cmd, char *out, size_t len);

/* A runCmds request (version 1): show commands asked for JSON as {"cmd", "revision"}. */
struct cJSON *eos_eapi_request(const char *id, const char *const *cmds, size_t n,
			       const char *format);

#endif
