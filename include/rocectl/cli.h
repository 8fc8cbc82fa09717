/* SPDX-License-Identifier: Apache-2.0 */
/* Command-line plumbing shared by cli/main.c, the cli/cmd_*.c files and the host commands in
 * drivers/host/. */
#ifndef ROCECTL_CLI_H
#define ROCECTL_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rocectl/exit_code.h"
#include "rocectl/journal.h"
#include "rocectl/model.h"

/* Options before the command name, valid for every command. */
struct rc_global {
	const char *root; /* --root DIR, default $ROCECTL_ROOT or "/" */
	bool accept_new_host_keys;
	bool save_pending; /* --save-pending (struct rc_run_opts) */
};

/* One option of a command; help text is generated from the same table that parses, so
 * `--help` cannot drift from what is accepted (git's parse-options). */
struct rc_option {
	const char *name; /* long name without "--" */
	char short_name;  /* 0 = none */
	const char *arg;  /* argument placeholder ("FILE"), NULL = flag */
	const char *help;
	int id; /* returned to the handler; use short_name or a value >= 256 */
};

/* Parse argv[1..] (argv[0] is the command name).  For each option, handler(id, arg, ctx)
 * is called; it returns 0 or a negative errno (it prints its own message).  Positional
 * arguments are moved to the front of argv; *npos receives their count.  `--help` prints
 * usage to stdout and returns 1; errors print "rocectl CMD: ..." + usage to stderr and
 * return -EINVAL. */
/* The state directory option every command that writes or undoes a run takes (`-J DIR`,
 * `--journal DIR`): its default is the engine's (rc_txn_journal_dir). */
#define RC_OPT_JOURNAL(key)                                                                        \
	{                                                                                          \
		"journal", 'J', "DIR",                                                             \
		    "journal directory (default $ROCECTL_JOURNAL or " RC_JOURNAL_DEFAULT_DIR ")",  \
		    (key)                                                                          \
	}

int rc_parse_options(int argc, char **argv, const char *usage, const struct rc_option *opts,
		     int (*handler)(int id, const char *arg, void *ctx), void *ctx, int *npos);
void rc_print_usage(FILE *f, const char *usage, const struct rc_option *opts);
/* --format text|json: *json set, or a message naming cmd and -EINVAL.  Every command with a
 * --format option also takes -j/--json as "--format json" (rc_parse_options). */
int rc_format_text_json(const char *cmd, const char *arg, bool *json);
/* --OPT N (decimal, min..max, max < 2^32) into *out, or a message naming cmd and opt and
 * -EINVAL: --parallel and the other counts every command takes. */
int rc_number_arg(const char *cmd, const char *opt, const char *arg, uint64_t min, uint64_t max,
		  unsigned *out);
/* -I/--interface NAME, repeatable: a name the kernel would take (rc_ifname_is_safe) added to
 * ifs[*n] once (a repeat is ignored), at most max of them; else a message naming cmd and
 * -EINVAL. */
int rc_interface_arg(const char *cmd, const char *arg, char (*ifs)[RC_NAME_MAX], size_t *n,
		     size_t max);

/* -v/--verbose and -q/--quiet, before the command or among its options (rc_parse_options
 * takes them for every command): > 0 show what is sent to each device, < 0 only the
 * summary, 0 the default.  The last one given wins. */
int rc_cli_verbosity(void);
void rc_cli_set_verbosity(int v);

/* Defaults from /etc/rocectl/rocectl.conf (or $ROCECTL_CONFIG) overridden by ROCECTL_POLICY,
 * ROCECTL_INVENTORY, ROCECTL_PARALLEL and ROCECTL_STATE_DIR (cli/config_file.c).  main()
 * loads them once and enables them for the commands that work on a fabric; rc_parse_options
 * then passes -p, -i and --parallel to the command's handler when the command line did
 * not.  Each field is NULL when unset. */
struct rc_err;
struct rc_cli_config {
	char *policy, *inventory, *parallel, *state_dir;
};
int rc_cli_config_load(struct rc_err *err);
/* NULL unless enabled for this command. */
const struct rc_cli_config *rc_cli_config(void);
void rc_cli_config_enable(bool on);
void rc_cli_config_fini(void);

/* Started as root where the state directory ($ROCECTL_STATE_DIR, else /var/lib/rocectl)
 * belongs to another user (the packaged `rocectl`): become that user for good, with its
 * groups and HOME, so that every state file and SSH identity is the timers' own
 * (cli/state_owner.c).  Otherwise nothing.  SUDO_USER keeps the invoking user's name. */
int rc_cli_become_state_owner(struct rc_err *err);

/* The help of every command's --limit: one selector for all (engine/run/limit.c). */
#define RC_LIMIT_HELP                                                                              \
	"only these devices: names, roles (spine, leaf, switch, host), ranges (gpu[001-016]), "    \
	"globs (leaf*), !TERM to exclude; comma-separated"

/* The help of --snapshot (verify, diagnose, export; docs/SNAPSHOT.md). */
#define RC_SNAPSHOT_HELP                                                                           \
	"read each device's answers from DIR/<device>/ (a capture, or raw outputs named by "       \
	"command; docs/SNAPSHOT.md) instead of the network"

/* A --limit that names no device of inv (a term matching nothing, or nothing left selected):
 * prints "rocectl CMD: ..." naming the term and returns RC_EXIT_USAGE; 0 when it selects
 * (or limit is NULL/empty).  Every command calls it before its fleet is set up. */
struct rc_inventory;
int rc_cli_limit_check(const char *cmd, const struct rc_inventory *inv, const char *limit);

/* A command that fails before its report: "rocectl CMD: <err>" on stderr and, with json, one
 * document on stdout naming the error ("schema": "rocectl.CMD/v1", "error", "exit_code": 1).
 * Returns RC_EXIT_ERROR. */
struct rc_err;
int rc_cli_fail(const char *cmd, bool json, const struct rc_err *err);

struct rc_command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv, const struct rc_global *g);
};

int cmd_validate(int argc, char **argv, const struct rc_global *g);
int cmd_headroom(int argc, char **argv, const struct rc_global *g);
int cmd_plan(int argc, char **argv, const struct rc_global *g);
int cmd_apply(int argc, char **argv, const struct rc_global *g);
int cmd_verify(int argc, char **argv, const struct rc_global *g);
int cmd_trace(int argc, char **argv, const struct rc_global *g);
int cmd_enforce(int argc, char **argv, const struct rc_global *g);
int cmd_history(int argc, char **argv, const struct rc_global *g);
int cmd_show(int argc, char **argv, const struct rc_global *g);
int cmd_rollback(int argc, char **argv, const struct rc_global *g);
int cmd_confirm(int argc, char **argv, const struct rc_global *g);
int cmd_confirm_timer(int argc, char **argv, const struct rc_global *g);
int cmd_counters(int argc, char **argv, const struct rc_global *g);
int cmd_agent(int argc, char **argv, const struct rc_global *g);
/* `agent state` and `agent write`: what the controller runs on a host over SSH. */
int cmd_agent_remote(int argc, char **argv, const struct rc_global *g);
/* What `rocectl agent state --raw --interface IF...` prints, for this machine under `root`
 * (every RDMA interface when n_if is 0), malloc'd; *failed as for that command (-1: the
 * host could not be read at all).  `rocectl capture` of a host with transport local. */
char *rc_agent_state_raw(const char *root, const char (*ifs)[RC_NAME_MAX], size_t n_if,
			 int *failed);
int cmd_nccl_env(int argc, char **argv, const struct rc_global *g);
int cmd_render(int argc, char **argv, const struct rc_global *g);
int cmd_capture(int argc, char **argv, const struct rc_global *g);
int cmd_diagnose(int argc, char **argv, const struct rc_global *g);
int cmd_discover(int argc, char **argv, const struct rc_global *g);
int cmd_diff(int argc, char **argv, const struct rc_global *g);
int cmd_export(int argc, char **argv, const struct rc_global *g);

#endif
