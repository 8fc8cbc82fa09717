/* SPDX-License-Identifier: Apache-2.0 */
/* switchsim-mux: one process that serves every simulated device of one kind over real SSH
 * (libssh's server API), for labs too large for a process per session (tests/lab/lab up
 * --mux, tests/lab/README.md).
 *
 *   switchsim-mux --kind nvue|sonic|eos --run-dir RUN [--listen FILE] --port N
 *                 --host-key KEY --authorized-key PUB --user NAME [--password-file F]
 *                 [--pid-file F] [--stats-file F]
 *   switchsim-mux --kind host --run-dir HOSTRUN --port N --host-shell PROG --host-mode M ...
 *
 * One epoll loop; no thread, no process per session.  The device is the connection's
 * local address (getsockname: RUN/by-addr/ADDR names it), as with switchsim-cli under
 * sshd (SSH_CONNECTION).  Switch commands run in this process through the same dialects,
 * state files and locks as switchsim-cli (cli_main.c), so simctl's faults and the lab's
 * drift keep working; a device's latency (RUN/delays) is a timerfd, not a sleep.  Host
 * commands run the lab's host-shell (the real rocectl agent under the NIC simulator) as a
 * child per command, after the latency.
 *
 * The lab gives each kind a wildcard listener on a port of its own (tests/lab/lab's
 * MUX_PORTS); --listen FILE (an address a line) listens on those addresses instead, which
 * lets kinds share a port but costs a descriptor per device.  The server raises its soft
 * RLIMIT_NOFILE to the hard one: a session is a socket (two for hosts) held until the
 * client leaves, and rocectl keeps all of them open to the end of a verify. */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <dlfcn.h>
#include <pwd.h>
#include <signal.h>
#include <stddef.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <libssh/callbacks.h>
#include <libssh/libssh.h>
#include <libssh/server.h>

#include "sim.h"

extern char **environ;

enum ev_kind {
	EV_LISTEN,
	EV_SESSION,
	EV_TIMER,
	EV_CHILD_OUT,
	EV_CHILD_ERR,
	EV_CHILD_IN,
	EV_CHILD_EXIT
};

struct evsrc {
	enum ev_kind kind;
	int fd;
	void *obj;
};

struct mux;
struct conn;

struct chan {
	struct conn *conn;
	ssh_channel ch;
	struct ssh_channel_callbacks_struct cb;
	struct chan *next;
	char *cmd;	    /* exec request, NULL for a shell */
	bool requested;	    /* exec or shell request seen */
	bool in_eof;	    /* the client sent EOF */
	bool started;	    /* the latency timer is armed or the command ran */
	bool ran;	    /* output is final (switch) or the child ended (host) */
	bool hang;	    /* fault: never answer */
	bool drop;	    /* fault: drop the connection once the output is out */
	bool finished;	    /* exit status, EOF and close sent */
	bool closed;	    /* the client closed the channel */
	bool gone;	    /* freed at the end of this round of events */
	int status;	    /* exit status */
	struct sbuf in;	    /* stdin */
	size_t in_off;	    /* stdin written to the child */
	struct sbuf out[2]; /* stdout, stderr */
	size_t off[2];
	struct evsrc timer;
	long extra_ms; /* "slow" faults met while running: the answer waits that much longer */
	cJSON *login;  /* the dialect's per-login state (EOS modes) */
	/* host kind: the child */
	pid_t pid;
	struct evsrc child[3]; /* stdin, stdout, stderr pipes */
	struct evsrc exit;     /* the child's pidfd: readable once it ended */
};

struct conn {
	struct mux *mux;
	ssh_session s;
	ssh_event ev;
	struct evsrc src;
	struct ssh_server_callbacks_struct cb;
	bool kex_done;
	bool authed;
	bool dead;
	bool own_fd;	 /* src.fd is ours, libssh has a duplicate */
	uint32_t events; /* epoll interest */
	char addr[64];	 /* local address: the device */
	char peer[80];	 /* client address and port, for SSH_CONNECTION */
	unsigned lport;	 /* local port */
	char name[SIM_NAME_MAX];
	struct chan *chans;
	struct conn *next;
	struct conn *next_gone;
};

struct mux {
	const char *kind;     /* nvue, sonic, eos, host */
	const char *run_dir;  /* switches: simctl's RUN; hosts: the lab's RUN */
	const char *user;     /* the one login accepted */
	const char *password; /* the lab password, or NULL */
	const char *host_shell;
	const char *host_mode;
	const char *stats_file;
	ssh_bind bind;
	ssh_key authorized;
	int ep;
	struct conn *conns;
	struct conn *gone; /* connections to free once no event of this round can name them */
	struct chan *gone_chans;
	struct evsrc **listeners;
	size_t n_listeners;
	pid_t *orphans; /* children of channels gone, to reap */
	size_t n_orphans, cap_orphans;
	long sessions; /* accepted connections, for the stats file */
	long commands;
	bool host;
};

static volatile sig_atomic_t stop;
static bool debug; /* SWITCHSIM_MUX_DEBUG: a line per step of a channel, on stderr */

#define DBG(c, what)                                                                               \
	do {                                                                                       \
		if (debug)                                                                         \
			fprintf(stderr, "mux %p %s: %s pid=%ld ran=%d eof=%d fds=%d,%d,%d\n",      \
				(void *)(c), (c)->conn->addr, what, (long)(c)->pid, (c)->ran,      \
				(c)->in_eof, (c)->child[0].fd, (c)->child[1].fd,                   \
				(c)->child[2].fd);                                                 \
	} while (0)

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "switchsim-mux: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n");
	exit(1);
}

static void ep_set(struct mux *m, struct evsrc *src, uint32_t events, int op)
{
	struct epoll_event e = {.events = events, .data.ptr = src};
	if (epoll_ctl(m->ep, op, src->fd, &e) < 0 && op != EPOLL_CTL_DEL)
		die("epoll_ctl: %s", strerror(errno));
}

/* ---- the latency of a real device: RUN/delays, as cli_main.c's device_latency ---- */

static long latency_ms(const struct mux *m, const char *line)
{
	char path[SIM_PATH_MAX], plat[32];
	long read_ms, apply_ms, jitter, ms = -1;
	const char *commit;
	FILE *f;

	snprintf(path, sizeof(path), "%s/delays", m->run_dir);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fscanf(f, "%31s %ld %ld %ld", plat, &read_ms, &apply_ms, &jitter) == 4)
		if (!strcmp(plat, m->kind)) {
			/* host-shell's: `rocectl agent write` commits */
			commit = !strcmp(plat, "nvue")	  ? "nv config apply"
				 : !strcmp(plat, "sonic") ? "config apply-patch"
				 : !strcmp(plat, "host")  ? "agent write"
							  : "commit";
			ms = strstr(line, commit) ? apply_ms : read_ms;
			break;
		}
	fclose(f);
	if (ms <= 0)
		return 0;
	if (jitter > 0 && jitter < 100)
		ms += ms * ((long)(random() % (2 * jitter + 1)) - jitter) / 100;
	return ms;
}

/* ---- the host key's signing key, built once ----
 *
 * libssh 0.10.6 (OpenSSL backend) signs with an ed25519 host key by building an OpenSSL key
 * from the raw seed for every signature (src/pki_crypto.c, pki_key_to_pkey:
 * EVP_PKEY_new_raw_private_key), which derives the public key again each time: ~0.085 ms
 * of the server's ~0.75 ms for a bare handshake (perf, 1,000 sessions).  This server signs
 * with one host key for its whole life, so the key built for the first signature is kept
 * and handed out again (a reference) when libssh asks for the same type and the same raw
 * bytes; anything else goes to OpenSSL as before.  The signatures are OpenSSL's, with the
 * same key: what the client checks is unchanged.  libssh calls the function through its
 * PLT, and an executable's definition comes first in the dynamic linker's lookup; the real
 * one is the next (dlsym RTLD_NEXT).  Declared here without OpenSSL's headers: only
 * pointers pass through.  Ed25519 keys only: libssh builds the key exchange's ephemeral
 * X25519 key the same way (src/curve25519.c), a new one every session. */
#define NID_ED25519_ 1087 /* NID_ED25519, OpenSSL's <openssl/obj_mac.h> */
typedef struct evp_pkey_st EVP_PKEY;
typedef struct engine_st ENGINE;
EVP_PKEY *EVP_PKEY_new_raw_private_key(int type, ENGINE *e, const unsigned char *priv, size_t len);

EVP_PKEY *EVP_PKEY_new_raw_private_key(int type, ENGINE *e, const unsigned char *priv, size_t len)
{
	static EVP_PKEY *(*real)(int, ENGINE *, const unsigned char *, size_t);
	static int (*up_ref)(EVP_PKEY *);
	static void (*pkey_free)(EVP_PKEY *);
	static EVP_PKEY *kept;
	static unsigned char kept_raw[64];
	static size_t kept_len;

	if (!real) {
		*(void **)&real = dlsym(RTLD_NEXT, "EVP_PKEY_new_raw_private_key");
		*(void **)&up_ref = dlsym(RTLD_DEFAULT, "EVP_PKEY_up_ref");
		*(void **)&pkey_free = dlsym(RTLD_DEFAULT, "EVP_PKEY_free");
		if (!real)
			abort();
	}
	if (type != NID_ED25519_ || e)
		return real(type, e, priv, len);
	if (kept && len == kept_len && !memcmp(priv, kept_raw, len) && up_ref(kept) == 1)
		return kept;
	EVP_PKEY *k = real(type, e, priv, len);
	if (k && len <= sizeof(kept_raw) && up_ref && pkey_free && up_ref(k) == 1) {
		if (kept)
			pkey_free(kept);
		kept = k;
		kept_len = len;
		memcpy(kept_raw, priv, len);
	}
	return k;
}

/* ---- cJSON's memory while a switch command runs: an arena ----
 *
 * A command parses the switch's state (~32 KB of JSON for NVUE, ~1,500 nodes, a malloc or
 * two each), builds views of it and frees it all at the end: glibc's malloc and free were a
 * third of the simulator's CPU in a switch read (perf, switchsim-mux).  While run_switch
 * runs, cJSON's allocations (cJSON_InitHooks, cJSON.h) come from blocks reused from one
 * command to the next, and its frees of them do nothing; what cJSON allocated outside a run
 * is malloc's, and freed by free, wherever it is freed.  Nothing allocated in a run may
 * outlive it: the state is freed by run_done, the login's state (EOS modes) is copied out
 * (run_switch), and cJSON_Print's strings are freed with cJSON_free. */
#define ARENA_BLOCK (256 * 1024)

struct arena_block {
	struct arena_block *next;
	size_t size, used;
	max_align_t data[];
};

static struct {
	struct arena_block *first, *cur;
	bool on;
} arena;

static void *arena_malloc(size_t n)
{
	if (!arena.on)
		return malloc(n);
	n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
	for (struct arena_block *b = arena.cur; b; b = b->next) {
		if (b->size - b->used >= n) {
			void *p = (char *)b->data + b->used;
			b->used += n;
			arena.cur = b;
			return p;
		}
		if (b->next)
			b->next->used = 0; /* a block after the current one is free again */
	}
	size_t size = n > ARENA_BLOCK ? n : ARENA_BLOCK;
	struct arena_block *b = malloc(sizeof(*b) + size);
	if (!b)
		return NULL;
	*b = (struct arena_block){.size = size, .used = n};
	if (arena.cur) {
		b->next = arena.cur->next;
		arena.cur->next = b;
	} else {
		arena.first = b;
	}
	arena.cur = b;
	return b->data;
}

static bool arena_owns(const void *p)
{
	for (const struct arena_block *b = arena.first; b; b = b->next)
		if ((const char *)p >= (const char *)b->data &&
		    (const char *)p < (const char *)b->data + b->size)
			return true;
	return false;
}

static void arena_free(void *p)
{
	if (p && !arena_owns(p))
		free(p);
}

static void arena_begin(void)
{
	if (arena.first)
		arena.first->used = 0;
	arena.cur = arena.first;
	arena.on = true;
}

/* The blocks are kept for the next command, up to 4 MB of them (one command's worth). */
static void arena_end(void)
{
	size_t kept = 0;
	arena.on = false;
	for (struct arena_block **p = &arena.first; *p;) {
		struct arena_block *b = *p;
		b->used = 0;
		if (kept + b->size > 4u << 20) {
			*p = b->next;
			free(b);
			continue;
		}
		kept += b->size;
		p = &b->next;
	}
	arena.cur = arena.first;
}

/* ---- running switch commands in-process (the logic of cli_main.c, output to memory) ---- */

struct run {
	struct mux *m;
	struct chan *c;
	FILE *in, *out, *err;
	bool line_mode;
	bool quit;
	bool stopped; /* hang or drop: run nothing more */
	bool open;    /* sw is locked and loaded */
	bool dirty;   /* sw must be saved */
	struct sim_switch sw;
};

/* The switch stays locked and loaded for all the commands of one channel (saved once at the
 * end if any changed it): a read of 64 ports is 64 commands, and parsing the state file is
 * most of a command's cost.  Nobody else sees the switch between them, as if the line were
 * one command; switchsim-cli locks, loads and saves per command. */
static int run_locked(struct run *r, int argc, char **argv, const char *line, bool sudo)
{
	char err[SIM_ERR_MAX];
	long slow_ms = 0;

	if (r->stopped)
		return 255;
	if (!r->open) {
		if (sim_switch_open(r->m->run_dir, r->c->conn->name, &r->sw, err, sizeof(err)) <
		    0) {
			fprintf(r->err, "switchsim: %s\n", err);
			return 255;
		}
		r->open = true;
	}
	struct sim_ctx ctx = {.st = r->sw.st, .user = r->m->user, .in = r->in};
	enum sim_fault_action act = sim_fault_before(&ctx, &slow_ms);
	r->dirty |= ctx.dirty;
	if (act == FAULT_HANG || act == FAULT_DROP) {
		r->stopped = true;
		if (act == FAULT_HANG)
			r->c->hang = true;
		else
			r->c->drop = true;
		return 255;
	}
	/* a slow command answers later (the channel's timer), without holding anything */
	r->c->extra_ms += slow_ms;
	const struct sim_dialect *d = sim_dialect_of(r->sw.st);
	int rc;
	if (!d || (line && !d->line)) {
		fprintf(r->err, "switchsim: '%s' has an unknown platform\n", r->c->conn->name);
		return 255;
	}
	ctx = (struct sim_ctx){.st = r->sw.st,
			       .user = r->m->user,
			       .in = r->in,
			       .interactive = false,
			       .sudo = sudo,
			       .login = r->c->login};
	if (line)
		rc = d->line(&ctx, line, r->out, r->err);
	else
		rc = d->cli(&ctx, argc, argv, r->out, r->err);
	if (ctx.quit)
		r->quit = true;
	r->dirty |= ctx.dirty;
	return rc;
}

static void run_done(struct run *r)
{
	char err[SIM_ERR_MAX];
	if (!r->open)
		return;
	if (r->dirty && sim_switch_save(&r->sw, err, sizeof(err)) < 0) {
		fprintf(r->err, "switchsim: %s\n", err);
		r->c->status = 255;
	}
	sim_switch_close(&r->sw);
	r->open = false;
}

static int run_command(struct run *r, int argc, char **argv)
{
	bool sudo = false;
	int status;

	if (sh_builtin(r->out, argc, argv, &status, &r->quit))
		return status;
	if (!strcmp(argv[0], "sudo") && argc > 1) {
		argv++;
		argc--;
		sudo = true;
	}
	return run_locked(r, argc, argv, NULL, sudo);
}

static int run_cli_lines(struct run *r, const char *text)
{
	int rc = 0;
	const char *p = text;
	while (*p && !r->quit && !r->stopped) {
		size_t n = strcspn(p, "\n");
		char *one = strndup(p, n);
		if (!one)
			abort();
		size_t l = strlen(one);
		while (l && (one[l - 1] == '\r' || one[l - 1] == ' ' || one[l - 1] == '\t'))
			one[--l] = '\0';
		int lrc = run_locked(r, 0, NULL, one, false);
		free(one);
		if (lrc != 0)
			rc = lrc;
		p += n;
		if (*p == '\n')
			p++;
	}
	return rc;
}

static int run_line(struct run *r, const char *line);

/* "$(cmd)": cmd's stdout captured; an `exit` in it ends only that subshell. */
static void subst(void *arg, const char *line, struct sbuf *out)
{
	struct run *r = arg;
	FILE *saved = r->out;
	bool quit = r->quit;
	char *buf = NULL;
	size_t len = 0;

	r->out = open_memstream(&buf, &len);
	if (!r->out)
		abort();
	run_line(r, line);
	fclose(r->out);
	r->out = saved;
	r->quit = quit;
	sb_addn(out, buf, len);
	free(buf);
}

static int run_line(struct run *r, const char *line)
{
	struct sh_cmd *cmds;
	char err[SIM_ERR_MAX];

	if (r->line_mode)
		return run_cli_lines(r, line);
	int n = sh_split(line, &cmds, err, sizeof(err));
	if (n < 0) {
		fprintf(r->err, "-sh: 1: %s\n", err);
		return 2;
	}
	int rc = 0;
	enum sh_link prev = SH_SEQ;
	for (int i = 0; i < n && !r->quit && !r->stopped; i++) {
		if (prev == SH_SEQ || prev == SH_END || (prev == SH_AND && rc == 0) ||
		    (prev == SH_OR && rc != 0)) {
			sh_expand(cmds[i].argc, cmds[i].argv, subst, r);
			rc = run_command(r, cmds[i].argc, cmds[i].argv);
		}
		prev = cmds[i].link;
	}
	sh_free(cmds, n);
	return rc;
}

/* A command's stdout and stderr write straight into the channel's output buffers
 * (fopencookie(3)): open_memstream's copy, and its realloc to the exact size at fclose, were
 * ~50 us of a switch read's lab CPU (perf, 10,000-switch bench). */
static ssize_t sb_cookie_write(void *cookie, const char *buf, size_t n)
{
	sb_addn(cookie, buf, n);
	return (ssize_t)n;
}

static FILE *sb_stream(struct sbuf *sb)
{
	static const cookie_io_functions_t io = {.write = sb_cookie_write};
	return fopencookie(sb, "w", io);
}

/* The whole command of a channel: the exec line, or (a shell) every line of stdin. */
static void run_switch(struct chan *c)
{
	struct mux *m = c->conn->mux;
	struct run r = {.m = m, .c = c, .line_mode = !strcmp(m->kind, "eos")};
	static char none[1];

	/* no input: zero bytes, an immediate EOF (glibc's fmemopen takes a size of 0), not an
	 * open of /dev/null per command */
	arena_begin();
	r.in = c->in.len ? fmemopen(c->in.buf, c->in.len, "r") : fmemopen(none, 0, "r");
	r.out = sb_stream(&c->out[0]);
	r.err = sb_stream(&c->out[1]);
	if (!r.in || !r.out || !r.err)
		abort();
	if (c->cmd) {
		c->status = run_line(&r, c->cmd);
	} else {
		/* a login without a command: stdin's lines, as switchsim-cli's repl reads them */
		const char *p = c->in.buf ? c->in.buf : "";
		int rc = 0;
		while (*p && !r.quit && !r.stopped) {
			size_t n = strcspn(p, "\n");
			char *one = strndup(p, n);
			if (!one)
				abort();
			int lrc = run_line(&r, one);
			free(one);
			if (!r.line_mode || lrc != 0)
				rc = lrc;
			p += n;
			if (*p == '\n')
				p++;
		}
		c->status = rc;
	}
	run_done(&r);
	fclose(r.in);
	fclose(r.out);
	fclose(r.err);
	/* the login's state may hold nodes of this run: a copy of it outside the arena */
	arena.on = false;
	if (c->login) {
		cJSON *login = cJSON_Duplicate(c->login, true);
		if (!login)
			abort();
		cJSON_Delete(c->login);
		c->login = login;
	}
	arena_end();
	m->commands++;
}

/* ---- host commands: host-shell as a child ---- */

static void child_close(struct mux *m, struct evsrc *src)
{
	if (src->fd < 0)
		return;
	ep_set(m, src, 0, EPOLL_CTL_DEL);
	close(src->fd);
	src->fd = -1;
}

static int spawn_host(struct chan *c)
{
	struct mux *m = c->conn->mux;
	int pin[2], pout[2], perr[2];
	char conn[200];
	posix_spawn_file_actions_t fa;

	if (pipe2(pin, O_CLOEXEC) < 0 || pipe2(pout, O_CLOEXEC) < 0 || pipe2(perr, O_CLOEXEC) < 0)
		return -errno;
	snprintf(conn, sizeof(conn), "SSH_CONNECTION=%s %s %u", c->conn->peer, c->conn->addr,
		 c->conn->lport);
	size_t clen = strlen("SSH_ORIGINAL_COMMAND=") + (c->cmd ? strlen(c->cmd) : 0) + 1;
	char *cmd = malloc(clen);
	if (!cmd)
		abort();
	snprintf(cmd, clen, "SSH_ORIGINAL_COMMAND=%s", c->cmd ? c->cmd : "");
	const char *home = getenv("HOME");
	char homev[SIM_PATH_MAX + 8], userv[80];
	snprintf(homev, sizeof(homev), "HOME=%s", home ? home : "/");
	snprintf(userv, sizeof(userv), "USER=%s", m->user);
	/* what sshd gives a forced command, and the mark that the latency was served here */
	char *envp[] = {conn,
			cmd,
			homev,
			userv,
			"PATH=/usr/local/bin:/usr/bin:/bin",
			"SHELL=/bin/sh",
			"ROCELAB_DELAY_DONE=1",
			NULL};
	char *argv[] = {(char *)m->host_shell, (char *)m->run_dir, (char *)m->host_mode, NULL};
	/* the child starts as sshd's would: no blocked signal, SIGPIPE back to default */
	posix_spawnattr_t sa;
	sigset_t none, def;
	sigemptyset(&none);
	sigemptyset(&def);
	sigaddset(&def, SIGPIPE);
	sigaddset(&def, SIGTERM);
	sigaddset(&def, SIGINT);
	posix_spawnattr_init(&sa);
	posix_spawnattr_setsigmask(&sa, &none);
	posix_spawnattr_setsigdefault(&sa, &def);
	posix_spawnattr_setflags(&sa, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pin[0], 0);
	posix_spawn_file_actions_adddup2(&fa, pout[1], 1);
	posix_spawn_file_actions_adddup2(&fa, perr[1], 2);
	int rc = posix_spawn(&c->pid, m->host_shell, &fa, &sa, argv, envp);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&sa);
	free(cmd);
	close(pin[0]);
	close(pout[1]);
	close(perr[1]);
	if (rc) {
		close(pin[1]);
		close(pout[0]);
		close(perr[0]);
		return -rc;
	}
	int fds[3] = {pin[1], pout[0], perr[0]};
	enum ev_kind kinds[3] = {EV_CHILD_IN, EV_CHILD_OUT, EV_CHILD_ERR};
	for (int i = 0; i < 3; i++) {
		fcntl(fds[i], F_SETFL, O_NONBLOCK);
		c->child[i] = (struct evsrc){.kind = kinds[i], .fd = fds[i], .obj = c};
		if (i)
			ep_set(m, &c->child[i], EPOLLIN, EPOLL_CTL_ADD);
	}
	ep_set(m, &c->child[0], EPOLLOUT, EPOLL_CTL_ADD);
	/* the end of this child, as a descriptor of its own (pidfd_open(2), Linux 5.3) */
	c->exit = (struct evsrc){
	    .kind = EV_CHILD_EXIT, .fd = (int)syscall(SYS_pidfd_open, c->pid, 0), .obj = c};
	if (c->exit.fd < 0)
		die("pidfd_open: %s", strerror(errno));
	ep_set(m, &c->exit, EPOLLIN, EPOLL_CTL_ADD);
	m->commands++;
	DBG(c, "spawned");
	return 0;
}

/* Feed the child's stdin; close it at the client's EOF. */
static void pump_child_in(struct chan *c)
{
	struct mux *m = c->conn->mux;
	struct evsrc *src = &c->child[0];
	if (src->fd < 0)
		return;
	while (c->in_off < c->in.len) {
		ssize_t w = write(src->fd, c->in.buf + c->in_off, c->in.len - c->in_off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EAGAIN)
			return;
		if (w < 0) {
			c->in_off = c->in.len;
			break;
		}
		c->in_off += (size_t)w;
	}
	if (c->in_eof)
		child_close(m, src);
	else
		ep_set(m, src, 0, EPOLL_CTL_MOD);
}

/* ---- channels ---- */

static void conn_pump(struct conn *k);

static void chan_finish(struct chan *c)
{
	if (c->finished || c->closed)
		return;
	DBG(c, "finish");
	ssh_channel_request_send_exit_status(c->ch, c->status);
	ssh_channel_send_eof(c->ch);
	ssh_channel_close(c->ch);
	c->finished = true;
}

/* Send what output the window and the socket take; finish when all of it is out. */
static void chan_pump(struct chan *c)
{
	if (c->closed || c->finished || !c->started)
		return;
	if (c->timer.fd >= 0)
		return; /* still waiting */
	for (int i = 0; i < 2; i++)
		while (c->off[i] < c->out[i].len) {
			size_t n = c->out[i].len - c->off[i];
			if (n > 32768)
				n = 32768;
			int w =
			    i ? ssh_channel_write_stderr(c->ch, c->out[i].buf + c->off[i],
							 (uint32_t)n)
			      : ssh_channel_write(c->ch, c->out[i].buf + c->off[i], (uint32_t)n);
			if (w == SSH_ERROR) {
				c->closed = true;
				return;
			}
			if (w <= 0)
				return; /* the window is full: channel_write_wontblock resumes */
			c->off[i] += (size_t)w;
		}
	if (!c->ran || c->hang)
		return;
	if (c->drop) {
		c->conn->dead = true;
		return;
	}
	chan_finish(c);
}

static void arm_timer(struct chan *c, long ms)
{
	struct mux *m = c->conn->mux;
	struct itimerspec its = {
	    .it_value = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L}};
	c->timer.fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (c->timer.fd < 0)
		die("timerfd_create: %s", strerror(errno));
	c->timer.kind = EV_TIMER;
	c->timer.obj = c;
	timerfd_settime(c->timer.fd, 0, &its, NULL);
	ep_set(m, &c->timer, EPOLLIN, EPOLL_CTL_ADD);
}

/* The command may run once it was requested and (for a switch, when it may read stdin) the
 * client's input is complete: first the device's latency, then the command. */
/* Runs the channel's command now: a host's through its shell, a switch's in-process.  true
 * when a switch's extra latency (an apply's) was armed as a second timer, the answer held
 * until it fires. */
static bool start_now(struct chan *c)
{
	if (c->conn->mux->host) {
		if (spawn_host(c) < 0) {
			sb_adds(&c->out[1], "switchsim-mux: cannot run host-shell\n");
			c->status = 255;
			c->ran = true;
		}
		pump_child_in(c);
		return false;
	}
	run_switch(c);
	c->ran = true;
	if (c->extra_ms > 0) {
		long extra = c->extra_ms;

		c->extra_ms = 0;
		arm_timer(c, extra);
		return true;
	}
	return false;
}

static void chan_maybe_start(struct chan *c)
{
	struct mux *m = c->conn->mux;
	if (c->started || !c->requested)
		return;
	/* a switch command reads stdin only to apply or write a file (SONiC's apply-patch and
	 * `tee FILE`, NVUE's confirmation prompt): those wait for the client's EOF, the others
	 * run at once (a person's `ssh leaf01 'nv show ...'` from a terminal sends no EOF); a
	 * login without a command is its stdin */
	if (!m->host && !c->in_eof &&
	    (!c->cmd || strstr(c->cmd, "apply") || strstr(c->cmd, "tee ")))
		return;
	c->started = true;
	long ms = 0;
	if (c->cmd) {
		ms = latency_ms(m, c->cmd);
	} else if (!m->host) {
		const char *p = c->in.buf ? c->in.buf : "";
		while (*p) {
			size_t n = strcspn(p, "\n");
			char *one = strndup(p, n);
			if (!one)
				abort();
			ms += latency_ms(m, one);
			free(one);
			p += n + (p[n] == '\n');
		}
	}
	if (ms > 0) {
		arm_timer(c, ms);
		return;
	}
	c->timer.fd = -1;
	start_now(c);
}

static void timer_fired(struct chan *c)
{
	struct mux *m = c->conn->mux;
	ep_set(m, &c->timer, 0, EPOLL_CTL_DEL);
	close(c->timer.fd);
	c->timer.fd = -1;
	if (!c->ran && !c->closed && start_now(c))
		return;
	conn_pump(c->conn);
}

static int on_data(ssh_session s, ssh_channel ch, void *data, uint32_t len, int is_stderr,
		   void *user)
{
	struct chan *c = user;
	(void)s;
	(void)ch;
	(void)is_stderr;
	sb_addn(&c->in, data, len);
	if (c->pid > 0)
		pump_child_in(c);
	return (int)len;
}

static void on_eof(ssh_session s, ssh_channel ch, void *user)
{
	struct chan *c = user;
	(void)s;
	(void)ch;
	c->in_eof = true;
	DBG(c, "eof");
	if (c->pid > 0)
		pump_child_in(c);
	chan_maybe_start(c);
}

static void on_close(ssh_session s, ssh_channel ch, void *user)
{
	struct chan *c = user;
	(void)s;
	(void)ch;
	c->closed = true;
	if (c->pid > 0)
		kill(c->pid, SIGTERM);
}

static int on_exec(ssh_session s, ssh_channel ch, const char *command, void *user)
{
	struct chan *c = user;
	(void)s;
	(void)ch;
	if (c->requested)
		return -1;
	c->cmd = strdup(command);
	if (!c->cmd)
		abort();
	c->requested = true;
	DBG(c, c->cmd);
	chan_maybe_start(c);
	return 0;
}

static int on_shell(ssh_session s, ssh_channel ch, void *user)
{
	struct chan *c = user;
	(void)s;
	(void)ch;
	if (c->requested)
		return -1;
	c->requested = true;
	chan_maybe_start(c);
	return 0;
}

static int on_pty(ssh_session s, ssh_channel ch, const char *term, int w, int h, int pw, int ph,
		  void *user)
{
	(void)s, (void)ch, (void)term, (void)w, (void)h, (void)pw, (void)ph, (void)user;
	return 0; /* accepted, and ignored: output is not a terminal's */
}

static int on_wontblock(ssh_session s, ssh_channel ch, uint32_t bytes, void *user)
{
	(void)s, (void)ch, (void)bytes;
	chan_pump(user);
	return 0;
}

static ssh_channel on_channel_open(ssh_session s, void *user)
{
	struct conn *k = user;
	if (!k->authed)
		return NULL;
	struct chan *c = calloc(1, sizeof(*c));
	if (!c)
		abort();
	c->conn = k;
	c->timer.fd = -1;
	for (int i = 0; i < 3; i++)
		c->child[i].fd = -1;
	c->exit.fd = -1;
	c->ch = ssh_channel_new(s);
	if (!c->ch) {
		free(c);
		return NULL;
	}
	c->login = cJSON_CreateObject();
	c->cb = (struct ssh_channel_callbacks_struct){
	    .userdata = c,
	    .channel_data_function = on_data,
	    .channel_eof_function = on_eof,
	    .channel_close_function = on_close,
	    .channel_pty_request_function = on_pty,
	    .channel_shell_request_function = on_shell,
	    .channel_exec_request_function = on_exec,
	    .channel_write_wontblock_function = on_wontblock,
	};
	ssh_callbacks_init(&c->cb);
	ssh_set_channel_callbacks(c->ch, &c->cb);
	c->next = k->chans;
	k->chans = c;
	return c->ch;
}

static int on_auth_pubkey(ssh_session s, const char *user, struct ssh_key_struct *key, char state,
			  void *data)
{
	struct conn *k = data;
	(void)s;
	if (strcmp(user, k->mux->user) || ssh_key_cmp(key, k->mux->authorized, SSH_KEY_CMP_PUBLIC))
		return SSH_AUTH_DENIED;
	if (state == SSH_PUBLICKEY_STATE_NONE)
		return SSH_AUTH_SUCCESS; /* "this key would do": the client signs next */
	if (state != SSH_PUBLICKEY_STATE_VALID)
		return SSH_AUTH_DENIED;
	k->authed = true;
	return SSH_AUTH_SUCCESS;
}

static int on_auth_password(ssh_session s, const char *user, const char *password, void *data)
{
	struct conn *k = data;
	(void)s;
	if (!k->mux->password || strcmp(user, k->mux->user) || strcmp(password, k->mux->password))
		return SSH_AUTH_DENIED;
	k->authed = true;
	return SSH_AUTH_SUCCESS;
}

/* ---- connections ---- */

static void chan_release(struct mux *m, struct chan *c, bool with_session)
{
	/* libssh may still hear of this channel (the client's EOF and close after ours): it
	 * must not call us back, and frees the channel itself when the client closes it */
	if (c->ch) {
		ssh_remove_channel_callbacks(c->ch, &c->cb);
		if (!with_session)
			ssh_channel_free(c->ch);
		c->ch = NULL;
	}
	if (c->timer.fd >= 0) {
		ep_set(m, &c->timer, 0, EPOLL_CTL_DEL);
		close(c->timer.fd);
	}
	for (int i = 0; i < 3; i++)
		child_close(m, &c->child[i]);
	child_close(m, &c->exit);
	if (c->pid > 0) {
		/* the client is gone: end the command, and reap it later */
		kill(c->pid, SIGTERM);
		if (m->n_orphans == m->cap_orphans) {
			m->cap_orphans = m->cap_orphans ? 2 * m->cap_orphans : 64;
			m->orphans = realloc(m->orphans, m->cap_orphans * sizeof(pid_t));
			if (!m->orphans)
				abort();
		}
		m->orphans[m->n_orphans++] = c->pid;
		c->pid = 0;
	}
	free(c->cmd);
	sb_free(&c->in);
	sb_free(&c->out[0]);
	sb_free(&c->out[1]);
	c->timer.fd = -1;
	cJSON_Delete(c->login);
	c->login = NULL;
	c->gone = true;
	c->next = m->gone_chans;
	m->gone_chans = c;
}

static void conn_free(struct conn *k)
{
	struct mux *m = k->mux;
	if (k->dead && !k->s)
		return;
	for (struct conn **p = &m->conns; *p; p = &(*p)->next)
		if (*p == k) {
			*p = k->next;
			break;
		}
	/* libssh owns the socket and may have closed it already (the client went): then its
	 * registration went with it, and the number may be another descriptor's by now */
	if (k->own_fd || ssh_get_fd(k->s) == k->src.fd)
		ep_set(m, &k->src, 0, EPOLL_CTL_DEL);
	while (k->chans) {
		struct chan *c = k->chans;
		k->chans = c->next;
		chan_release(m, c, true);
	}
	ssh_event_remove_session(k->ev, k->s);
	ssh_event_free(k->ev);
	ssh_disconnect(k->s);
	ssh_free(k->s);
	if (k->own_fd)
		close(k->src.fd);
	k->s = NULL;
	k->dead = true;
	k->next_gone = m->gone;
	m->gone = k;
}

/* Free what this round of events let go of. */
static void bury(struct mux *m)
{
	while (m->gone) {
		struct conn *k = m->gone;
		m->gone = k->next_gone;
		free(k);
	}
	while (m->gone_chans) {
		struct chan *c = m->gone_chans;
		m->gone_chans = c->next;
		free(c);
	}
}

/* After any event on a connection: output, finished channels, the epoll interest. */
static void conn_pump(struct conn *k)
{
	if (!k->s)
		return;
	for (struct chan **p = &k->chans; *p;) {
		struct chan *c = *p;
		chan_pump(c);
		/* both sides closed, no child left: forget it (a session may run many) */
		if ((c->closed || (c->finished && ssh_channel_is_closed(c->ch))) && c->pid <= 0 &&
		    c->timer.fd < 0) {
			*p = c->next;
			chan_release(k->mux, c, false);
			continue;
		}
		p = &c->next;
	}
	int st = ssh_get_status(k->s);
	if (k->dead || (st & (SSH_CLOSED | SSH_CLOSED_ERROR)) || !ssh_is_connected(k->s) ||
	    ssh_get_fd(k->s) == SSH_INVALID_SOCKET ||
	    (!k->own_fd && ssh_get_fd(k->s) != k->src.fd)) {
		conn_free(k);
		return;
	}
	uint32_t want = EPOLLIN | ((st & SSH_WRITE_PENDING) ? EPOLLOUT : 0);
	if (want != k->events) {
		k->events = want;
		ep_set(k->mux, &k->src, want, EPOLL_CTL_MOD);
	}
}

/* TCP_CORK (tcp(7)) while libssh answers one event: what it writes then, packet by packet
 * (the key exchange's reply and NEWKEYS; a command's output, exit status, EOF and close),
 * leaves in as few segments as fit instead of one each, and on loopback every segment is
 * also the receiving side's work on this CPU.  Uncorked before the loop waits again, so
 * nothing is held back. */
static void cork(struct conn *k, int on)
{
	if (k->s)
		setsockopt(k->src.fd, IPPROTO_TCP, TCP_CORK, &on, sizeof(on));
}

static void conn_event(struct conn *k)
{
	if (!k->s)
		return;
	if (!k->kex_done) {
		int rc = ssh_handle_key_exchange(k->s);
		if (rc == SSH_AGAIN) {
			conn_pump(k);
			return;
		}
		if (rc != SSH_OK) {
			conn_free(k);
			return;
		}
		k->kex_done = true;
	}
	if (ssh_event_dopoll(k->ev, 0) == SSH_ERROR) {
		conn_free(k);
		return;
	}
	conn_pump(k);
}

/* false when the listener has nothing more to accept */
static bool accept_one(struct mux *m, int lfd)
{
	struct sockaddr_in local, peer;
	socklen_t ll = sizeof(local), pl = sizeof(peer);
	char err[SIM_ERR_MAX], pa[INET_ADDRSTRLEN];
	int fd = accept4(lfd, (struct sockaddr *)&peer, &pl, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (fd < 0)
		return errno == EINTR || errno == ECONNABORTED;
	struct conn *k = calloc(1, sizeof(*k));
	if (!k)
		abort();
	k->mux = m;
	if (getsockname(fd, (struct sockaddr *)&local, &ll) < 0 ||
	    !inet_ntop(AF_INET, &local.sin_addr, k->addr, sizeof(k->addr)) ||
	    !inet_ntop(AF_INET, &peer.sin_addr, pa, sizeof(pa))) {
		close(fd);
		free(k);
		return true;
	}
	snprintf(k->peer, sizeof(k->peer), "%s %u", pa, ntohs(peer.sin_port));
	k->lport = ntohs(local.sin_port);
	/* the device at this address; a host's is host-shell's business */
	if (!m->host &&
	    sim_name_by_addr(m->run_dir, k->addr, k->name, sizeof(k->name), err, sizeof(err)) < 0) {
		close(fd);
		free(k);
		return true;
	}
	/* Hosts: libssh gets a duplicate and epoll watches our own descriptor, closed here only
	 * (conn_free).  Without it, under host commands (children, pipes, pidfds coming and
	 * going), an event came for a connection already freed (AddressSanitizer, a verify of
	 * 40 hosts at --parallel 64): a registration outlived its connection.  The switches
	 * (no children) never showed it, and their 10,000 sessions open at once need the
	 * descriptors (ulimit -Hn 20,000 here). */
	int lib_fd = m->host ? fcntl(fd, F_DUPFD_CLOEXEC, 0) : fd;
	k->own_fd = m->host;
	k->s = lib_fd < 0 ? NULL : ssh_new();
	if (!k->s || ssh_bind_accept_fd(m->bind, k->s, lib_fd) != SSH_OK) {
		fprintf(stderr, "switchsim-mux: accept: %s\n", ssh_get_error(m->bind));
		if (k->s)
			ssh_free(k->s);
		if (lib_fd >= 0 && lib_fd != fd)
			close(lib_fd);
		close(fd);
		free(k);
		return true;
	}
	m->sessions++;
	k->cb = (struct ssh_server_callbacks_struct){
	    .userdata = k,
	    .auth_pubkey_function = on_auth_pubkey,
	    .auth_password_function = on_auth_password,
	    .channel_open_request_session_function = on_channel_open,
	};
	ssh_callbacks_init(&k->cb);
	ssh_set_server_callbacks(k->s, &k->cb);
	ssh_set_auth_methods(k->s, SSH_AUTH_METHOD_PUBLICKEY |
				       (m->password ? SSH_AUTH_METHOD_PASSWORD : 0));
	ssh_set_blocking(k->s, 0);
	/* the first step of the key exchange makes the session's poll context, which the
	 * session's own event then takes over (ssh_event_add_session) */
	int rc = ssh_handle_key_exchange(k->s);
	k->ev = ssh_event_new();
	if (rc == SSH_ERROR || !k->ev || ssh_event_add_session(k->ev, k->s) != SSH_OK) {
		if (k->ev)
			ssh_event_free(k->ev);
		ssh_free(k->s); /* closes lib_fd */
		if (k->own_fd)
			close(fd);
		free(k);
		return true;
	}
	k->kex_done = rc == SSH_OK;
	k->src = (struct evsrc){.kind = EV_SESSION, .fd = fd, .obj = k};
	k->events = EPOLLIN;
	ep_set(m, &k->src, EPOLLIN, EPOLL_CTL_ADD);
	k->next = m->conns;
	m->conns = k;
	conn_pump(k);
	return true;
}

/* ---- host children ---- */

static void host_done(struct chan *c)
{
	if (c->pid == 0 && c->child[1].fd < 0 && c->child[2].fd < 0)
		c->ran = true;
}

static void child_read(struct chan *c, int i)
{
	struct evsrc *src = &c->child[i];
	char buf[65536];
	for (;;) {
		ssize_t n = read(src->fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			break;
		if (n <= 0) {
			child_close(c->conn->mux, src);
			host_done(c);
			DBG(c, "pipe eof");
			break;
		}
		sb_addn(&c->out[i - 1], buf, (size_t)n);
	}
	conn_pump(c->conn);
}

static void child_exited(struct chan *c)
{
	int wst;
	if (waitpid(c->pid, &wst, WNOHANG) != c->pid)
		return;
	c->pid = 0;
	DBG(c, "exited");
	child_close(c->conn->mux, &c->exit);
	child_close(c->conn->mux, &c->child[0]);
	c->status = WIFEXITED(wst) ? WEXITSTATUS(wst) : 128 + WTERMSIG(wst);
	/* done once the pipes are drained too (child_read), as sshd waits for EOF on them */
	host_done(c);
	conn_pump(c->conn);
}

/* ---- main ---- */

static void write_stats(struct mux *m)
{
	char tmp[SIM_PATH_MAX + 8];
	if (!m->stats_file)
		return;
	snprintf(tmp, sizeof(tmp), "%s.tmp", m->stats_file);
	FILE *f = fopen(tmp, "w");
	if (!f)
		return;
	fprintf(f, "sessions %ld\ncommands %ld\n", m->sessions, m->commands);
	fclose(f);
	rename(tmp, m->stats_file);
}

static int listen_on(struct mux *m, const char *addr, int port)
{
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
	int one = 1;
	if (inet_pton(AF_INET, addr, &sa.sin_addr) != 1)
		die("bad address '%s'", addr);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		die("socket: %s", strerror(errno));
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(fd, 4096) < 0) {
		fprintf(stderr, "switchsim-mux: %s:%d: %s\n", addr, port, strerror(errno));
		exit(1);
	}
	struct evsrc *src = malloc(sizeof(*src));
	if (!src)
		abort();
	*src = (struct evsrc){.kind = EV_LISTEN, .fd = fd};
	ep_set(m, src, EPOLLIN, EPOLL_CTL_ADD);
	/* kept for the process's life */
	struct evsrc **l = realloc(m->listeners, (m->n_listeners + 1) * sizeof(*l));
	if (!l)
		abort();
	m->listeners = l;
	m->listeners[m->n_listeners++] = src;
	return fd;
}

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static int usage(void)
{
	fprintf(stderr, "usage: switchsim-mux --kind nvue|sonic|eos|host --run-dir RUN --port N "
			"--host-key KEY --authorized-key PUB --user NAME [--listen FILE] "
			"[--password-file F] [--host-shell PROG --host-mode M] [--pid-file F] "
			"[--stats-file F]\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct mux m = {0};
	const char *listen_file = NULL, *host_key = NULL, *auth_key = NULL, *pw_file = NULL;
	const char *pid_file = NULL;
	int port = 22;
	static char password[256];

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!v)
			return usage();
		if (!strcmp(a, "--kind"))
			m.kind = v;
		else if (!strcmp(a, "--run-dir"))
			m.run_dir = v;
		else if (!strcmp(a, "--listen"))
			listen_file = v;
		else if (!strcmp(a, "--port"))
			port = atoi(v);
		else if (!strcmp(a, "--host-key"))
			host_key = v;
		else if (!strcmp(a, "--authorized-key"))
			auth_key = v;
		else if (!strcmp(a, "--user"))
			m.user = v;
		else if (!strcmp(a, "--password-file"))
			pw_file = v;
		else if (!strcmp(a, "--host-shell"))
			m.host_shell = v;
		else if (!strcmp(a, "--host-mode"))
			m.host_mode = v;
		else if (!strcmp(a, "--pid-file"))
			pid_file = v;
		else if (!strcmp(a, "--stats-file"))
			m.stats_file = v;
		else
			return usage();
		i++;
	}
	if (!m.kind || !m.run_dir || !host_key || !auth_key || !m.user || port <= 0)
		return usage();
	m.host = !strcmp(m.kind, "host");
	if (m.host ? !m.host_shell || !m.host_mode : !sim_dialect_find(m.kind))
		return usage();
	if (pw_file && sim_read_secret(pw_file, password, sizeof(password)) == 0)
		m.password = password;

	/* as many descriptors as the hard limit allows: a listener per device, a socket and a
	 * timer per session */
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	signal(SIGPIPE, SIG_IGN);
	signal(SIGTERM, on_term);
	signal(SIGINT, on_term);
	srandom((unsigned)(time(NULL) ^ getpid()));
	debug = getenv("SWITCHSIM_MUX_DEBUG") != NULL;

	cJSON_InitHooks(&(cJSON_Hooks){.malloc_fn = arena_malloc, .free_fn = arena_free});
	ssh_init();
	ssh_key key = NULL;
	if (ssh_pki_import_privkey_file(host_key, NULL, NULL, NULL, &key) != SSH_OK)
		die("cannot read host key '%s'", host_key);
	if (ssh_pki_import_pubkey_file(auth_key, &m.authorized) != SSH_OK)
		die("cannot read authorized key '%s'", auth_key);
	m.bind = ssh_bind_new();
	bool no = false;
	if (!m.bind || ssh_bind_options_set(m.bind, SSH_BIND_OPTIONS_PROCESS_CONFIG, &no) ||
	    ssh_bind_options_set(m.bind, SSH_BIND_OPTIONS_IMPORT_KEY, key))
		die("%s", "cannot set up libssh's server");

	m.ep = epoll_create1(EPOLL_CLOEXEC);
	if (m.ep < 0)
		die("epoll_create1: %s", strerror(errno));
	long listeners = 0;
	if (listen_file) {
		FILE *f = fopen(listen_file, "r");
		char addr[64];
		if (!f)
			die("cannot read '%s'", listen_file);
		while (fscanf(f, "%63s", addr) == 1) {
			listen_on(&m, addr, port);
			listeners++;
		}
		fclose(f);
	} else {
		listen_on(&m, "0.0.0.0", port);
		listeners = 1;
	}

	if (pid_file) {
		FILE *f = fopen(pid_file, "w");
		if (!f)
			die("cannot write '%s'", pid_file);
		fprintf(f, "%ld\n", (long)getpid());
		fclose(f);
	}
	fprintf(stderr, "switchsim-mux: %s: %ld listener(s) on port %d\n", m.kind, listeners, port);

	struct epoll_event evs[256];
	time_t last_stats = 0;
	while (!stop) {
		int n = epoll_wait(m.ep, evs, 256, 1000);
		if (n < 0 && errno != EINTR)
			die("epoll_wait: %s", strerror(errno));
		for (int i = 0; i < n; i++) {
			struct evsrc *src = evs[i].data.ptr;
			/* an earlier event of this round may have ended its connection */
			if (src->kind == EV_SESSION && !((struct conn *)src->obj)->s)
				continue;
			if (src->kind != EV_SESSION && src->kind != EV_LISTEN &&
			    (src->fd < 0 || ((struct chan *)src->obj)->gone))
				continue;
			switch (src->kind) {
			case EV_LISTEN:
				/* up to 64 a round; stopping at the first EAGAIN saved 63 failing
				 * accept4 calls per connection when they come one at a time */
				for (int j = 0; j < 64 && accept_one(&m, src->fd); j++)
					;
				break;
			case EV_SESSION:
				cork(src->obj, 1);
				conn_event(src->obj);
				cork(src->obj, 0); /* unless conn_event ended it */
				break;
			case EV_TIMER: {
				struct conn *k = ((struct chan *)src->obj)->conn;
				cork(k, 1);
				timer_fired(src->obj);
				cork(k, 0);
				break;
			}
			case EV_CHILD_OUT:
				child_read(src->obj, 1);
				break;
			case EV_CHILD_ERR:
				child_read(src->obj, 2);
				break;
			case EV_CHILD_IN:
				pump_child_in(src->obj);
				break;
			case EV_CHILD_EXIT:
				child_exited(src->obj);
				break;
			}
		}
		bury(&m);
		for (size_t j = 0; j < m.n_orphans;)
			if (waitpid(m.orphans[j], NULL, WNOHANG) != 0)
				m.orphans[j] = m.orphans[--m.n_orphans];
			else
				j++;
		time_t now = time(NULL);
		if (now != last_stats) {
			write_stats(&m);
			last_stats = now;
		}
	}
	write_stats(&m);
	return 0;
}
