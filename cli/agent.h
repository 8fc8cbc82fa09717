/* SPDX-License-Identifier: Apache-2.0 */
/* `rocectl agent` (cli/agent_cmd.c): the run every subcommand shares, between the options
 * (agent_cmd.c), the orchestration (agent_run.c: each interface through devrun, the
 * history, the counters) and the printing (agent_show.c). */
#ifndef ROCECTL_CLI_AGENT_H
#define ROCECTL_CLI_AGENT_H

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../drivers/host/agent_answer.h"
#include "../drivers/host/host.h"
#include "rocectl/cli.h"
#include "rocectl/devrun.h"
#include "rocectl/history.h"
#include "rocectl/result.h"
#include "rocectl/util.h"
#include "rocectl/print.h"
#include "rocectl/txn.h"

#define AGENT_SCHEMA   "rocectl.agent/v1"
#define MAX_INTERFACES 64
#define DEFAULT_POLICY "/etc/rocectl/policy.yaml"

enum agent_cmd { A_SHOW, A_PLAN, A_VERIFY, A_APPLY, A_COUNTERS };

static const char *const agent_cmd_names[] = {"show", "plan", "verify", "apply", "counters"};

struct agent_opts {
	const char *policy;
	const char *inventory; /* -i: the desired state as the controller computes it */
	const char *host;      /* --host: this host's name in the inventory */
	const char *desired;   /* --desired: a `rocectl render` output */
	const char *journal;
	const char *root;
	bool json;
	bool prom;	    /* --format prometheus: plan/verify/apply/enforce */
	const char *output; /* -o: the metrics, replaced atomically (node_exporter textfile) */
	unsigned sections;
	bool enforce;	       /* `agent enforce`: apply without the disruptive groups */
	bool allow_disruptive; /* --disruptive allow */
	size_t n_if;
	char ifs[MAX_INTERFACES][RC_NAME_MAX];
	int bad;
};

/* The run: what every subcommand shares. */
struct agent {
	enum agent_cmd cmd;
	struct agent_opts o;
	struct rc_run_opts ropts;
	struct rc_device dev;
	struct rc_policy pol;
	bool have_policy;
	struct rc_inventory inv;
	bool have_inv;
	size_t dev_index;
	struct rc_desired_set desired;
	bool have_desired;
	struct rc_out out;
	int exit_code;
	size_t n_errors;
	size_t n_applied; /* interfaces apply changed */
	size_t n_drift;	  /* plan, verify: drifted fields (changes), on n_drifted interfaces */
	size_t n_drifted;
	bool drops; /* counters: a drop counter is non-zero */
	const char *policy_path;
	struct rc_history *hist; /* `agent enforce`: the run's record, NULL when none */
	/* --format prometheus: each interface's drift left, and whether it could be read */
	size_t n_prom;
	struct rc_prom_iface prom[MAX_INTERFACES];
	char *sink; /* --format prometheus: the text report, not printed */
	size_t sink_len;
};

/* agent_run.c: the interfaces to handle (--interface, else every RDMA netdev); plan,
 * verify, apply and enforce of each; the counters subcommand; an error of the run. */
int agent_discover(struct agent *a, struct rc_err *err);
void agent_run_policy_cmd(struct agent *a);
void agent_run_counters(struct agent *a);
void agent_note_error(struct agent *a);

/* agent_show.c: `agent show`; one interface's changes, its drift count, its error. */
void agent_run_show(struct agent *a);
void agent_out_changes(struct agent *a, const struct rc_changes *ch);
size_t agent_count_drift(const struct agent *a, const struct rc_changes *ch);
void agent_out_iface_error(struct agent *a, const char *ifname, const char *msg);

#endif
