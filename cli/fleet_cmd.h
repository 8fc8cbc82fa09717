/* SPDX-License-Identifier: Apache-2.0 */
/* What `rocectl plan`, `apply` and `verify` share (cli/fleet_cmd.c): options, loading
 * the policy and inventory, running the fleet executor over the selected devices (the
 * inventory's switches unless --limit says otherwise), printing, exit codes. */
#ifndef ROCECTL_FLEET_CMD_H
#define ROCECTL_FLEET_CMD_H

#include <stdio.h>

#include "rocectl/cli.h"
#include "rocectl/deadlock.h"
#include "rocectl/lldp.h"
#include "rocectl/result.h"

enum rc_fleet_cmd {
	RC_FLEET_CMD_PLAN = 0,
	RC_FLEET_CMD_APPLY,
	RC_FLEET_CMD_VERIFY,
};

/* Raise the soft RLIMIT_NOFILE to what `parallel` workers need (cli/fd_limit.c); -EMFILE
 * with a message naming the hard limit when that is too low. */
int rc_fd_limit_for(unsigned parallel, const char *cmd);

/* verify --merge --format jsonl: a merged fleet (engine/report/merge.c) as the lines
 * `verify --format jsonl` prints (cli/verify_merge.c); returns verify's exit code. */
/* What verify's cross-hop sections are made from, over a fleet held whole (a read fleet,
 * or the shards merged): the link and host checks, the deadlock analysis, the cabling
 * against LLDP.  _build prints its error and returns -1; _fini only after a 0. */
struct rc_verify_checks {
	struct rc_result r;
	struct rc_deadlock dl;
	struct rc_lldp lldp;
	struct rc_cabling cab;
};
int rc_verify_checks_build(struct rc_verify_checks *c, const struct rc_fleet *f);
void rc_verify_checks_fini(struct rc_verify_checks *c);

int rc_verify_merged_jsonl(FILE *dst, struct rc_fleet *f);

int rc_fleet_command(enum rc_fleet_cmd cmd, int argc, char **argv, const struct rc_global *g);

#endif
