/* SPDX-License-Identifier: Apache-2.0 */
/* switchsim-cli: the login "shell" of the simulated switches, run by a real OpenSSH sshd
 * as ForceCommand.  The switch is the one at the server address of SSH_CONNECTION; the
 * command is SSH_ORIGINAL_COMMAND (a POSIX-sh-like line: ';', '&&', '||', quotes), or, when
 * there is none, lines read from stdin with a prompt on a terminal (an interactive login).
 *
 *   switchsim-cli --run-dir RUN [--switch NAME] [-c LINE]
 *
 * Every command locks the switch's state file, runs, and saves it if it changed. */
#include <errno.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim.h"

struct cli {
	const char *run_dir;
	char name[SIM_NAME_MAX];
	char user[64];
	bool interactive;
	bool quit;
	bool line_mode;	      /* the dialect reads CLI lines, not sh (EOS) */
	cJSON *login;	      /* the dialect's per-login state */
	const char *platform; /* the dialect's name, for the lab's latencies */
};

static void sleep_ms(long ms)
{
	struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* The latency of a real device (bench/README.md), for the lab (tests/lab/lab up --delay): every
 * command line a session receives waits, before it runs, as long as the platform's file
 * RUN/delays says: "PLATFORM READ_MS APPLY_MS JITTER_PCT" per line, APPLY_MS for a line
 * that commits (NVUE "nv config apply", SONiC "config apply-patch", EOS "commit"), READ_MS
 * otherwise, each drawn uniformly within +-JITTER_PCT.  No file, or no line for the
 * platform: no delay.  Real figures: NVUE's `nv show` about a second, `nv config apply`
 * tens of seconds, SONiC's `show runningconfiguration all` seconds (bench/README.md). */
static void device_latency(const struct cli *cli, const char *line)
{
	char path[SIM_PATH_MAX], plat[32];
	long read_ms, apply_ms, jitter, ms = -1;
	const char *commit;
	FILE *f;

	if (!cli->platform)
		return;
	snprintf(path, sizeof(path), "%s/delays", cli->run_dir);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fscanf(f, "%31s %ld %ld %ld", plat, &read_ms, &apply_ms, &jitter) == 4)
		if (!strcmp(plat, cli->platform)) {
			commit = !strcmp(plat, "nvue")	  ? "nv config apply"
				 : !strcmp(plat, "sonic") ? "config apply-patch"
							  : "commit";
			ms = strstr(line, commit) ? apply_ms : read_ms;
			break;
		}
	fclose(f);
	if (ms <= 0)
		return;
	if (jitter > 0 && jitter < 100) {
		struct timespec now;

		clock_gettime(CLOCK_MONOTONIC, &now);
		srandom((unsigned)(now.tv_nsec ^ getpid()));
		ms += ms * ((long)(random() % (2 * jitter + 1)) - jitter) / 100;
	}
	sleep_ms(ms);
}

static bool proc_comm(pid_t pid, char *comm, size_t len, pid_t *ppid, uid_t *uid)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	char *open = strchr(buf, '('), *close = strrchr(buf, ')');
	if (!open || !close || close < open)
		return false;
	snprintf(comm, len, "%.*s", (int)(close - open - 1), open + 1);
	long pp = 0;
	char state;
	if (sscanf(close + 1, " %c %ld", &state, &pp) != 2)
		return false;
	*ppid = (pid_t)pp;
	snprintf(path, sizeof(path), "/proc/%ld/status", (long)pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	*uid = (uid_t)-1;
	while (fgets(buf, sizeof(buf), f))
		if (strncmp(buf, "Uid:", 4) == 0)
			*uid = (uid_t)strtoul(buf + 4, NULL, 10);
	fclose(f);
	return true;
}

/* Our own (unprivileged) sshd session process, or 0 when not run by sshd. */
static pid_t sshd_session(void)
{
	pid_t pid = getppid();
	for (int depth = 0; depth < 6 && pid > 1; depth++) {
		char comm[64];
		pid_t ppid;
		uid_t uid;
		if (!proc_comm(pid, comm, sizeof(comm), &ppid, &uid))
			break;
		if (strncmp(comm, "sshd", 4) == 0 && uid == getuid())
			return pid;
		pid = ppid;
	}
	return 0;
}

/* "hang": never answer; go away once the client is gone (our output has no reader any
 * more, or the SSH session ended), so that a hung command does not outlive its client. */
static void hang(void)
{
	pid_t session = sshd_session(), parent = getppid();
	fflush(stdout);
	fflush(stderr);
	for (;;) {
		struct pollfd pfd = {.fd = STDOUT_FILENO, .events = 0};
		if (poll(&pfd, 1, 200) > 0 && (pfd.revents & (POLLHUP | POLLERR | POLLNVAL)))
			_exit(255);
		if ((session && kill(session, 0) < 0 && errno == ESRCH) || getppid() != parent)
			_exit(255);
	}
}

/* "drop-after": close the SSH connection under the client's feet, by ending our own
 * sshd session process: the client sees the connection drop without an exit status, as
 * when a switch reboots or a firewall cuts the session. */
static void drop_connection(void)
{
	pid_t session = sshd_session();
	fflush(stdout);
	fflush(stderr);
	if (session)
		kill(session, SIGKILL);
	_exit(255);
}

struct held {
	struct cli *cli;
	struct sim_switch *sw;
};

static bool run_unlocked(struct sim_ctx *ctx, bool (*fn)(void *arg), void *arg)
{
	struct held *h = ctx->core;
	char err[SIM_ERR_MAX];
	if (ctx->dirty && sim_switch_save(h->sw, err, sizeof(err)) < 0)
		fprintf(stderr, "switchsim: %s\n", err);
	sim_switch_close(h->sw);
	bool r = fn(arg);
	ctx->dirty = false;
	if (sim_switch_open(h->cli->run_dir, h->cli->name, h->sw, err, sizeof(err)) < 0) {
		fprintf(stderr, "switchsim: %s\n", err);
		ctx->st = NULL;
		return false;
	}
	ctx->st = h->sw->st;
	return r;
}

/* Lock the switch, take the faults, and run one command on it: argv through the dialect's
 * cli(), or (line != NULL) a whole line through its line().  Returns the exit status. */
static int run_locked(struct cli *cli, int argc, char **argv, const char *line, bool sudo)
{
	char err[SIM_ERR_MAX];
	struct sim_switch sw;
	long slow_ms = 0;

	if (sim_switch_open(cli->run_dir, cli->name, &sw, err, sizeof(err)) < 0) {
		fprintf(stderr, "switchsim: %s\n", err);
		return 255;
	}
	struct sim_ctx ctx = {.st = sw.st, .user = cli->user, .in = stdin};
	enum sim_fault_action act = sim_fault_before(&ctx, &slow_ms);
	if (act != FAULT_NONE || slow_ms > 0) {
		/* wait outside the lock: a hung or slow command must not block the switch */
		if (ctx.dirty && sim_switch_save(&sw, err, sizeof(err)) < 0)
			fprintf(stderr, "switchsim: %s\n", err);
		sim_switch_close(&sw);
		if (act == FAULT_HANG)
			hang();
		if (act == FAULT_DROP)
			drop_connection();
		sleep_ms(slow_ms);
		if (sim_switch_open(cli->run_dir, cli->name, &sw, err, sizeof(err)) < 0) {
			fprintf(stderr, "switchsim: %s\n", err);
			return 255;
		}
	}
	const struct sim_dialect *d = sim_dialect_of(sw.st);
	int rc;
	if (!d || (line && !d->line)) {
		fprintf(stderr, "switchsim: '%s' has an unknown platform\n", cli->name);
		rc = 255;
	} else {
		/* keep "dirty" from a consumed fault when the command ran under the same lock */
		bool consumed = ctx.dirty && act == FAULT_NONE && slow_ms == 0;
		struct held h = {.cli = cli, .sw = &sw};
		ctx = (struct sim_ctx){.st = sw.st,
				       .user = cli->user,
				       .in = stdin,
				       .interactive = cli->interactive,
				       .sudo = sudo,
				       .login = cli->login,
				       .dirty = consumed,
				       .unlocked = run_unlocked,
				       .core = &h};
		if (line)
			rc = d->line(&ctx, line, stdout, stderr);
		else
			rc = d->cli(&ctx, argc, argv, stdout, stderr);
		if (ctx.quit)
			cli->quit = true;
		fflush(stdout);
		if (ctx.st && ctx.dirty && sim_switch_save(&sw, err, sizeof(err)) < 0) {
			fprintf(stderr, "switchsim: %s\n", err);
			rc = 255;
		}
	}
	sim_switch_close(&sw);
	return rc;
}

/* One sh command: the shell's built-ins, else the switch. */
static int run_command(struct cli *cli, int argc, char **argv)
{
	bool sudo = false;
	int status;

	if (sh_builtin(stdout, argc, argv, &status, &cli->quit))
		return status;
	if (!strcmp(argv[0], "sudo") && argc > 1) {
		argv++;
		argc--;
		sudo = true;
	}
	return run_locked(cli, argc, argv, NULL, sudo);
}

/* A line dialect (EOS): the text is one or more CLI lines; each runs on its own (lock,
 * faults), in the login's mode.  The status is 1 if any line failed. */
static int run_cli_lines(struct cli *cli, const char *text)
{
	int rc = 0;
	const char *p = text;
	while (*p && !cli->quit) {
		size_t n = strcspn(p, "\n");
		char *one = strndup(p, n);
		if (!one)
			abort();
		size_t l = strlen(one);
		while (l && (one[l - 1] == '\r' || one[l - 1] == ' ' || one[l - 1] == '\t'))
			one[--l] = '\0';
		int r = run_locked(cli, 0, NULL, one, false);
		free(one);
		if (r != 0)
			rc = r;
		fflush(stdout);
		fflush(stderr);
		p += n;
		if (*p == '\n')
			p++;
	}
	return rc;
}

static int run_sh(struct cli *cli, const char *line);

/* "$(cmd)": cmd runs in a subshell (a child, as sh forks one) whose stdout is captured. */
static void subst(void *arg, const char *line, struct sbuf *out)
{
	struct cli *cli = arg;
	int fd[2], st;
	char buf[4096];
	ssize_t r;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	if (pipe(fd) < 0 || (pid = fork()) < 0)
		abort();
	if (!pid) {
		close(fd[0]);
		if (dup2(fd[1], STDOUT_FILENO) < 0)
			_exit(126);
		close(fd[1]);
		st = run_sh(cli, line);
		fflush(stdout);
		_exit(st & 0xff);
	}
	close(fd[1]);
	while ((r = read(fd[0], buf, sizeof(buf))) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		sb_addn(out, buf, (size_t)r);
	}
	close(fd[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
}

static int run_line(struct cli *cli, const char *line)
{
	device_latency(cli, line);
	if (cli->line_mode)
		return run_cli_lines(cli, line);
	return run_sh(cli, line);
}

static int run_sh(struct cli *cli, const char *line)
{
	struct sh_cmd *cmds;
	char err[SIM_ERR_MAX];
	int n = sh_split(line, &cmds, err, sizeof(err));
	if (n < 0) {
		fprintf(stderr, "-sh: 1: %s\n", err);
		return 2;
	}
	int rc = 0;
	enum sh_link prev = SH_SEQ;
	for (int i = 0; i < n && !cli->quit; i++) {
		/* && and || are left-associative with equal precedence; a skipped command
		 * keeps the previous status, as in sh */
		if (prev == SH_SEQ || prev == SH_END || (prev == SH_AND && rc == 0) ||
		    (prev == SH_OR && rc != 0)) {
			sh_expand(cmds[i].argc, cmds[i].argv, subst, cli);
			rc = run_command(cli, cmds[i].argc, cmds[i].argv);
		}
		prev = cmds[i].link;
		fflush(stdout);
		fflush(stderr);
	}
	sh_free(cmds, n);
	return rc;
}

static int repl(struct cli *cli)
{
	char *line = NULL;
	size_t cap = 0;
	int rc = 0;
	for (;;) {
		if (cli->interactive) {
			struct sim_switch sw;
			char err[SIM_ERR_MAX];
			struct sbuf p;
			sb_init(&p);
			if (sim_switch_open(cli->run_dir, cli->name, &sw, err, sizeof(err)) == 0) {
				const struct sim_dialect *d = sim_dialect_of(sw.st);
				struct sim_ctx ctx = {
				    .st = sw.st, .user = cli->user, .login = cli->login};
				if (d && d->prompt)
					d->prompt(&ctx, &p);
				sim_switch_close(&sw);
			}
			fputs(p.len ? sb_str(&p) : "$ ", stdout);
			sb_free(&p);
			fflush(stdout);
		}
		ssize_t r = getline(&line, &cap, stdin);
		if (r < 0)
			break;
		if (r > 0 && line[r - 1] == '\n')
			line[r - 1] = '\0';
		int lrc = run_line(cli, line);
		/* a CLI fed a script fails if any line failed; a shell keeps the last status */
		if (!cli->line_mode || lrc != 0)
			rc = lrc;
		if (cli->quit)
			break;
	}
	if (cli->interactive)
		fputc('\n', stdout);
	free(line);
	return rc;
}

static int usage(void)
{
	fprintf(stderr, "usage: switchsim-cli --run-dir RUN [--switch NAME] [-c LINE]\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct cli cli = {0};
	const char *line = getenv("SSH_ORIGINAL_COMMAND");
	const char *name = NULL;
	char err[SIM_ERR_MAX];

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--run-dir") && i + 1 < argc)
			cli.run_dir = argv[++i];
		else if (!strcmp(argv[i], "--switch") && i + 1 < argc)
			name = argv[++i];
		else if (!strcmp(argv[i], "-c") && i + 1 < argc)
			line = argv[++i];
		else
			return usage();
	}
	if (!cli.run_dir)
		return usage();

	if (name) {
		snprintf(cli.name, sizeof(cli.name), "%s", name);
	} else {
		/* SSH_CONNECTION = "client-ip client-port server-ip server-port" */
		const char *conn = getenv("SSH_CONNECTION");
		char cip[64], sip[64];
		long cport, sport;
		if (!conn || sscanf(conn, "%63s %ld %63s %ld", cip, &cport, sip, &sport) != 4) {
			fprintf(stderr,
				"switchsim: SSH_CONNECTION is not set; use --switch NAME\n");
			return 255;
		}
		if (sim_name_by_addr(cli.run_dir, sip, cli.name, sizeof(cli.name), err,
				     sizeof(err)) < 0) {
			fprintf(stderr, "switchsim: %s\n", err);
			return 255;
		}
	}
	struct passwd *pw = getpwuid(getuid());
	snprintf(cli.user, sizeof(cli.user), "%s", pw ? pw->pw_name : "admin");

	/* a client that goes away must not kill us half way through a state write */
	signal(SIGPIPE, SIG_IGN);

	/* the platform decides how lines are read: sh for NVUE and SONiC, the CLI's own
	 * language for EOS */
	struct sim_switch sw;
	if (sim_switch_open(cli.run_dir, cli.name, &sw, err, sizeof(err)) < 0) {
		fprintf(stderr, "switchsim: %s\n", err);
		return 255;
	}
	const struct sim_dialect *d = sim_dialect_of(sw.st);
	cli.line_mode = d && d->line;
	cli.platform = d ? d->name : NULL;
	sim_switch_close(&sw);
	cli.login = cJSON_CreateObject();

	int rc;
	if (line && *line) {
		rc = run_line(&cli, line);
	} else {
		cli.interactive = isatty(STDIN_FILENO);
		rc = repl(&cli);
	}
	cJSON_Delete(cli.login);
	return rc;
}
