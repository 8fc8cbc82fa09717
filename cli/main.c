/* SPDX-License-Identifier: Apache-2.0 */
/* rocectl: make RoCEv2 fabrics lossless and keep them that way. */
#include <dlfcn.h>
#include <errno.h>
#include <malloc.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>
#include <netlink/version.h>
#include <yaml.h>

#include "commit.h" /* generated: ROCECTL_COMMIT */
#include "rocectl/cli.h"
#include "rocectl/driver.h"
#include "rocectl/txn.h"

static const struct rc_command commands[] = {
    {"validate", "parse and check a policy (and inventory); print it normalized", cmd_validate},
    {"plan", "read every device and print the changes the policy needs", cmd_plan},
    {"apply", "apply the policy (or a saved plan) in a safe order, journaled", cmd_apply},
    {"verify", "re-read everything and check ports, links and paths", cmd_verify},
    {"trace", "the hops between two hosts, first misaligned hop marked", cmd_trace},
    {"enforce", "verify, repair drift within guardrails, verify again (for timers)", cmd_enforce},
    {"history", "the runs recorded: who, when, inputs, what changed, result", cmd_history},
    {"show", "one recorded run in full", cmd_show},
    {"diff", "what differs between the records of two runs", cmd_diff},
    {"rollback", "restore devices from the journal of an interrupted or failed run", cmd_rollback},
    {"confirm", "keep a run made with --confirm (else it is rolled back at its deadline)",
     cmd_confirm},
    /* the detached process an `apply --confirm` starts (cli/cmd_confirm.c) */
    {"confirm-timer", NULL, cmd_confirm_timer},
    {"counters", "pause, ECN, CNP, discard and RDMA error counters", cmd_counters},
    {"diagnose", "where it hurts: pause tree root, storms, drops and DCQCN on every path",
     cmd_diagnose},
    {"discover", "the links: section the inventory should have, from LLDP", cmd_discover},
    {"export", "the fabric's current configuration written as a policy", cmd_export},
    {"headroom", "the PFC headroom a link needs and how it is made up", cmd_headroom},
    {"render", "one host's full desired state as JSON, for `agent --desired`", cmd_render},
    {"agent", "the same for the local host only (show|plan|apply|verify|counters)", cmd_agent},
    {"nccl-env", "NCCL_IB_HCA, NCCL_IB_GID_INDEX and NCCL_IB_TC for this host", cmd_nccl_env},
    {"capture", "save what each device answers to the read (scrubbed), for parser replay",
     cmd_capture},
};

/* What a bug report needs: which build and which libraries.  The network plugin pulls in
 * libssh and libcurl and runs its constructors when loaded, so a plain --version does not
 * load it (a node runs without it, and a broken one must not stop --version); with -v it
 * is loaded to name its path and its libraries, or to say why it was refused. */
static void version(bool with_plugin)
{
	const char *plugin = NULL;
	rc_net_versions_fn net = NULL;

	printf("rocectl %s\ncommit: %s\n", ROCECTL_VERSION, ROCECTL_COMMIT);
	if (!with_plugin) {
		printf("plugin: not loaded (-v --version loads it)\n");
	} else if ((plugin = rc_driver_plugin_path()) && rc_driver_load_error()) {
		printf("plugin: %s refused (%s)\n", plugin, rc_driver_load_error());
	} else if (plugin) {
		printf("plugin: %s\n", plugin);
		*(void **)(&net) = dlsym(RTLD_DEFAULT, RC_NET_VERSIONS_SYMBOL);
	} else {
		const char *why = rc_driver_load_error();

		printf("plugin: not loaded (%s)\n", why ? why : "not found");
	}
	printf("libraries: libyaml %s, libnl %s, cJSON %s%s%s\n", yaml_get_version_string(),
	       LIBNL_VERSION, cJSON_Version(), net ? ", " : "", net ? net() : "");
}

static void usage(FILE *f)
{
	fprintf(f, "usage: rocectl [--root DIR] [--accept-new-host-keys] [--save-pending] [-v|-q] "
		   "COMMAND [ARGS]\n"
		   "       rocectl [-v] --version | --help | COMMAND --help\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (commands[i].summary) /* NULL: internal (confirm-timer), not offered */
			fprintf(f, "    %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\nexit status: 0 ok / in sync, 2 changes planned or drift found, 1 error, "
		   "64 usage error\n");
}

/* The commands that work on a fabric take -p/-i/--parallel from /etc/rocectl/rocectl.conf
 * when the command line does not give them.  Not the host-local ones (agent, nccl-env,
 * counters: there -i switches from this host to a fleet) nor the record readers. */
static bool takes_config(const char *name)
{
	static const char *const fabric[] = {"validate", "plan",    "apply",	"verify",
					     "enforce",	 "trace",   "diagnose", "discover",
					     "render",	 "capture", "export",	"rollback"};

	for (size_t k = 0; k < sizeof(fabric) / sizeof(fabric[0]); k++)
		if (!strcmp(name, fabric[k]))
			return true;
	return false;
}

/* The commands that keep state or speak to devices with the controller's SSH identity: they
 * run as the state directory's owner.  Not the agent (root's NICs on its own host) and not
 * the offline ones, which read only the files they are given. */
static bool runs_as_state_owner(const char *name)
{
	static const char *const local[] = {"validate", "headroom", "render", "agent", "nccl-env"};

	for (size_t k = 0; k < sizeof(local) / sizeof(local[0]); k++)
		if (!strcmp(name, local[k]))
			return false;
	return true;
}

static int run_command(const struct rc_command *c, int argc, char **argv, const struct rc_global *g)
{
	struct rc_err err = {0};
	int code;

	if (rc_cli_config_load(&err) ||
	    (runs_as_state_owner(c->name) && rc_cli_become_state_owner(&err))) {
		fprintf(stderr, "rocectl: ");
		rc_err_print(&err, stderr);
		return RC_EXIT_ERROR;
	}
	rc_cli_config_enable(takes_config(c->name));
	code = c->run(argc, argv, g);
	rc_cli_config_fini();
	return code;
}

/* glibc's allocator for commands whose worker threads each hold a device (verify, plan,
 * apply, counters, diagnose): one place for both settings, bench/README.md has the runs.
 * - Two arenas: glibc gives worker threads arenas of their own (up to 8 per core); a
 *   device's state freed in one of them stays there (a 512-device verify at --parallel 32:
 *   50 MB with them, 36 MB with two).
 * - Large buffers (a device's answer, its changes: hundreds of kilobytes each, one per
 *   worker) straight from and back to the kernel: glibc raises its mmap threshold to the
 *   largest such buffer freed (up to 32 MB), after which they come from the arenas and stay
 *   there, fragmented; setting it turns that off (mallopt(3), M_MMAP_THRESHOLD): verify of
 *   2,176 devices at --parallel 32, 54-57 MB of resident memory -> 44-48. */
static void tune_malloc(void)
{
	mallopt(M_ARENA_MAX, 2);
	mallopt(M_MMAP_THRESHOLD, 64 * 1024);
}

int main(int argc, char **argv)
{
	struct rc_global g = {.root = getenv("ROCECTL_ROOT")};
	bool want_version = false;
	int i = 1;

	tune_malloc();
	if (!g.root || !*g.root)
		g.root = "/";
	/* the named steps of the run transaction, for the crash-point test (rocectl/txn.h) */
	if (getenv("ROCECTL_CRASH_LIST")) {
		rc_crashpoint_print(stdout);
		return RC_EXIT_OK;
	}
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--version")) {
			want_version = true; /* after the other options: -v may follow it */
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return RC_EXIT_OK;
		} else if (!strcmp(argv[i], "--root") && i + 1 < argc) {
			g.root = argv[++i];
		} else if (!strncmp(argv[i], "--root=", 7)) {
			g.root = argv[i] + 7;
		} else if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose")) {
			rc_cli_set_verbosity(1);
		} else if (!strcmp(argv[i], "-q") || !strcmp(argv[i], "--quiet")) {
			rc_cli_set_verbosity(-1);
		} else if (!strcmp(argv[i], "--accept-new-host-keys")) {
			g.accept_new_host_keys = true;
		} else if (!strcmp(argv[i], "--save-pending")) {
			g.save_pending = true;
		} else {
			fprintf(stderr, "rocectl: unknown option '%s'\n", argv[i]);
			usage(stderr);
			return RC_EXIT_USAGE;
		}
	}
	if (want_version) {
		version(rc_cli_verbosity() > 0);
		return RC_EXIT_OK;
	}
	if (i >= argc) {
		usage(stderr);
		return RC_EXIT_USAGE;
	}
	for (size_t c = 0; c < sizeof(commands) / sizeof(commands[0]); c++)
		if (!strcmp(argv[i], commands[c].name))
			return run_command(&commands[c], argc - i, argv + i, &g);
	fprintf(stderr, "rocectl: '%s' is not a command; see 'rocectl --help'\n", argv[i]);
	return RC_EXIT_USAGE;
}
