/* SPDX-License-Identifier: Apache-2.0 */
/* The sonic-ssh driver's session and what its files share (sonic.c: open, read, apply and
 * the GCU runs; sonic_notes.c: the plan's notes; sonic_restore.c: snapshot and restore). */
#ifndef ROCECTL_SONIC_SESSION_H
#define ROCECTL_SONIC_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include <cJSON.h>

#include "port_memo.h"
#include "switch_common.h"
#include "rocectl/transport.h"
#include "sonic.h"

#define REASON_MAX 160
/* GCU reads the patch from a file: ours is fed on its stdin. */
#define GCU_PATCH_ON_STDIN "/dev/stdin"

struct rc_session {
	const struct rc_device *dev;
	struct rc_run_opts opts;
	struct rc_ssh *ssh;
	cJSON *cfg;	/* CONFIG_DB of the last read */
	cJSON *appl;	/* APPL_DB buffer tables of the last read (dynamic model), or NULL */
	cJSON *startup; /* /etc/sonic/config_db.json of the last read, or NULL (unreadable) */
	struct rc_port_memo read; /* what was read last, for apply's checks */
	bool probed;
	uint32_t gated;		     /* RC_F_* groups GCU refuses to change live here */
	char reason[32][REASON_MAX]; /* why, per group bit */
	unsigned seq;		     /* checkpoint names */
	bool rows_read;
	bool rows_dynamic;	/* a read saw the dynamic buffer model: no rows folded in */
	struct sonic_rows rows; /* the SKU's lookup rows (n 0: unknown) */
	bool read_once;		/* found_unsaved is set */
	bool found_unsaved;	/* the first read: saved != running, or saved unreadable */
	/* rc_run_opts.read_neighbors: the LLDP table (and the ports' aliases) the last read's
	 * command line printed, handed over once by sonic_neighbors */
	struct rc_switch_lldp lldp;
	/* rc_run_opts.read_counters (verify --counters): the counter tables the last read's line
	 * printed (sonic_counters hands them over once); NULL when none */
	char *counters_text;
	size_t counters_len;
	bool counters_kept;
};

/* The bit number of a one-bit RC_F_* group. */
int sonic_group_bit(uint32_t group);
int sonic_ssh_run(struct rc_session *s, const char *cmd, const char *in, size_t in_len,
		  struct rc_ssh_result *res, struct rc_err *err);
/* One GCU command (checkpoint, apply-patch, rollback...) with its patch on stdin; `why`
 * says what GCU refused; *changing (may be NULL) whether it had begun to change. */
int sonic_gcu_run(struct rc_session *s, enum sonic_gcu_cmd kind, const char *cmd, const char *patch,
		  char *why, size_t why_len, bool *changing, struct rc_err *err);
int sonic_gcu(struct rc_session *s, enum sonic_gcu_cmd kind, const char *cmd, const char *patch,
	      char *why, size_t why_len, struct rc_err *err);
/* CONFIG_DB as `show runningconfiguration all` prints it. */
int sonic_fetch_config(struct rc_session *s, cJSON **cfg, struct rc_err *err);
/* A read-only command that must exit 0. */
int sonic_read_cmd(struct rc_session *s, const char *cmd, struct rc_ssh_result *res,
		   struct rc_err *err);
/* The ops of the writes, against the last read. */
int sonic_build(struct rc_session *s, const struct rc_port_write *w, size_t n,
		struct sonic_ops *ops, struct rc_err *err);
/* The patch GCU's dry run accepts for the writes (maps it refuses re-bound per port):
 * its text and operation count, or why it was refused and what is done instead. */
int sonic_settle(struct rc_session *s, const struct rc_port_write *w, size_t n,
		 struct sonic_ops *ops, char **text, int *n_ops, char *why, size_t why_len,
		 char *instead, size_t instead_len, struct rc_err *err);

/* The driver ops of sonic_notes.c and sonic_restore.c. */
int sonic_check(struct rc_session *s, const struct rc_port_write *w, size_t n,
		struct rc_notes *notes, struct rc_err *err);
int sonic_snapshot(struct rc_session *s, char **blob, struct rc_err *err);
int sonic_restore_derived(struct rc_session *s, const char *blob, struct rc_err *err);

#endif
