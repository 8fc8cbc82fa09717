/* SPDX-License-Identifier: Apache-2.0 */
/* switchsim: simulated switches for rocectl's tests.
 *
 * An independent witness: nothing here includes or links rocectl's product code.  The core
 * (state files, faults, JSON and text helpers, the two front ends) is dialect-neutral; a
 * dialect (nvue_*.c today) plugs in through struct sim_dialect, registered in dialect.c.
 */
#ifndef SWITCHSIM_SIM_H
#define SWITCHSIM_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

#include <cJSON.h>

#define SIM_NAME_MAX 64
#define SIM_PATH_MAX 4096
#define SIM_ERR_MAX  512

/* ---- growable string (text.c) ---- */
struct sbuf {
	char *buf;
	size_t len;
	size_t cap;
};

void sb_init(struct sbuf *sb);
void sb_free(struct sbuf *sb);
void sb_reset(struct sbuf *sb);
void sb_addn(struct sbuf *sb, const char *s, size_t n);
void sb_adds(struct sbuf *sb, const char *s);
void sb_addc(struct sbuf *sb, char c);
void sb_addf(struct sbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_indent(struct sbuf *sb, int n);
const char *sb_str(const struct sbuf *sb);

/* ---- text helpers (text.c) ---- */
struct table {
	int ncols;
	int nrows;
	int cap;
	char **cells; /* nrows * ncols, row-major; row 0 is the header */
};

void table_init(struct table *t, int ncols, ...);
void table_row(struct table *t, ...);
void table_rowv(struct table *t, const char *const *cells);
/* Columns separated by two spaces, dashes under the header, indent spaces on the left. */
void table_print(struct sbuf *out, const struct table *t, int indent);
void table_free(struct table *t);

/* "146.48 KB", "1.43 MB", "512 B": binary units, two decimals (NVUE style). */
void fmt_bin_size(char *buf, size_t len, double bytes);

/* One command of a command line: argv plus how it chains to the next one. */
enum sh_link { SH_END, SH_SEQ, SH_AND, SH_OR };
struct sh_cmd {
	int argc;
	char **argv;
	enum sh_link link;
};
/* Split a POSIX-sh-like line (quotes, backslashes, ';', '&&', '||', newlines, '#'
 * comments) into commands.  Returns the number of commands or -1 with err filled. */
int sh_split(const char *line, struct sh_cmd **cmds, char *err, size_t errlen);
void sh_free(struct sh_cmd *cmds, int n);
/* A command substitution inside double quotes, "$(cmd)" (POSIX sh 2.6.3), is kept in its
 * word between these two bytes, which no command line of the simulators holds; sh_expand
 * replaces each with what `run` printed for cmd, its trailing newlines dropped. */
#define SH_SUBST_BEGIN '\x01'
#define SH_SUBST_END   '\x02'
typedef void (*sh_subst_fn)(void *arg, const char *line, struct sbuf *out);
int sh_expand(int argc, char **argv, sh_subst_fn run, void *arg);
/* The shell built-ins both front ends (switchsim-cli, switchsim-mux) answer: exit/logout
 * (*quit set), true, false, echo (to out).  true with *status set when argv[0] is one. */
bool sh_builtin(FILE *out, int argc, char **argv, int *status, bool *quit);

bool is_uint(const char *s);
/* Parse "0-3,5" into ids (lo..hi); returns count or -1. */
int parse_id_list(const char *s, long lo, long hi, long *ids, int max);
/* Strict character set for names that end up in paths (switch names, addresses). */
bool is_safe_name(const char *s);
/* Keyword match with unambiguous-prefix abbreviation: index, -1 none, -2 ambiguous. */
int match_word(const char *word, const char *const *cands, int n);

/* ---- JSON helpers (json.c) ---- */
cJSON *jget(const cJSON *root, const char *const *path, int n);
cJSON *jget1(const cJSON *obj, const char *key);
/* Create objects along path (replacing non-objects); returns the last one. */
cJSON *jmkpath(cJSON *root, const char *const *path, int n);
/* Put val (ownership taken) at path. */
void jset(cJSON *root, const char *const *path, int n, cJSON *val);
bool jdel(cJSON *root, const char *const *path, int n);
void jput(cJSON *obj, const char *key, cJSON *val); /* replace or add, takes val */
/* An integral number within +-9e15 (exactly representable), else dflt. */
bool jis_long(const cJSON *v);
long jlong(const cJSON *v, long dflt);
long jint(const cJSON *obj, const char *key, long dflt);
const char *jstr(const cJSON *obj, const char *key, const char *dflt);
/* RFC 7386 merge patch of src into dst (null deletes).  If replace_at returns true for a
 * path, the src object replaces dst's instead of merging. */
typedef bool (*jreplace_fn)(const char *const *path, int n, void *arg);
void jmerge(cJSON *dst, const cJSON *src, jreplace_fn replace_at, void *arg);
/* Pretty JSON: two-space indent, keys sorted (numeric keys by value), like NVUE's output. */
void jprint(struct sbuf *out, const cJSON *j);
/* YAML rendering of the same tree (block style), at a given indent. */
void yprint(struct sbuf *out, const cJSON *j, int indent);
/* A value given on a command line: JSON if it parses, else a string; "" means NULL. */
cJSON *jparse_loose(const char *s);
/* Split "a.b.c" in place; returns count or -1 when more than max. */
int split_path(char *s, char sep, char **parts, int max);
/* Sorted object keys (caller frees the array, not the strings). */
int jkeys_sorted(const cJSON *obj, const char ***keys);

/* ---- switch state files (state.c) ---- */
struct sim_switch {
	char name[SIM_NAME_MAX];
	char path[SIM_PATH_MAX];
	char run_dir[SIM_PATH_MAX];
	int lock_fd;
	cJSON *st;
};

/* The switch name served at a local address (RUN/by-addr/ADDR). */
int sim_name_by_addr(const char *run_dir, const char *addr, char *name, size_t len, char *err,
		     size_t errlen);
/* Lock (flock on RUN/switches/NAME.lock) and load RUN/switches/NAME.json. */
int sim_switch_open(const char *run_dir, const char *name, struct sim_switch *sw, char *err,
		    size_t errlen);
/* Write atomically: NAME.json.tmp.PID, fsync-free rename (state lives on local disk and is
 * only meaningful while the lab runs). */
int sim_switch_save(struct sim_switch *sw, char *err, size_t errlen);
void sim_switch_close(struct sim_switch *sw);
int sim_switch_create(const char *run_dir, const char *name, cJSON *st, char *err, size_t errlen);
/* ---- timed commits (timer.c) ---- */
/* Roll back at `deadline` unless confirmed: restore is [{"path": [key...], "value": v}]
 * (null value: delete), applied in order; ownership of restore taken.  One per switch. */
void sim_timer_arm(cJSON *st, const char *id, time_t deadline, cJSON *restore);
const cJSON *sim_timer_pending(const cJSON *st); /* st["timed-commit"] or NULL */
void sim_timer_clear(cJSON *st);		 /* confirmed: keep the change */
/* Apply the rollback if the deadline has passed; true when it did (sim_switch_open). */
bool sim_timer_expire(cJSON *st, time_t now);
/* Start the detached sleeper of a newly armed timer (sim_switch_save). */
void sim_timer_spawn(cJSON *st, const char *run_dir, const char *name);

/* Read a one-line secret file; trailing newline removed.  Returns 0 or -errno. */
int sim_read_secret(const char *path, char *buf, size_t len);

/* ---- counters that move with time (rates.c) ---- */
/* Write every running rate's current value into st["counters"] (done on every load). */
void sim_rates_apply(cJSON *st);
/* "PATH=PER_SECOND": the counter at PATH grows by PER_SECOND from now on (0 freezes it). */
int sim_rates_set(cJSON *st, const char *spec, char *err, size_t errlen);
/* Freeze every counter at its current value. */
void sim_rates_clear(cJSON *st);

/* ---- the dialect interface (dialect.c) ---- */
struct sim_ctx {
	cJSON *st;	  /* whole switch state; a dialect owns st["<dialect>"] and "operational" */
	bool dirty;	  /* set when st must be saved */
	const char *user; /* login name (SSH user or REST Basic-auth user) */
	FILE *in;	  /* stdin of the command (confirmation prompts, uploaded files) */
	bool interactive;
	bool sudo;    /* the command line started with "sudo" (SONiC's config needs root) */
	cJSON *login; /* per-login state of a modal CLI (EOS modes): lives as long as the SSH
		       * login or the REST request; never saved */
	bool quit;    /* set by a line dialect: end the login ("exit" in exec mode) */
	/* Run fn with the switch unlocked (a prompt waiting for a person must not block the
	 * switch); afterwards st is the state re-read under the lock, or NULL if that failed.
	 * NULL when the front end cannot do it: then call fn with the lock held. */
	bool (*unlocked)(struct sim_ctx *ctx, bool (*fn)(void *arg), void *arg);
	void *core;
};

struct sim_req {
	const char *method;
	const char *path; /* below the dialect's base, '/'-separated, percent-decoded */
	const char *body;
	size_t body_len;
	const char *(*query)(const struct sim_req *req, const char *key);
	void *conn;
};

struct sim_resp {
	int status;
	struct sbuf body;
};

struct sim_dialect {
	const char *name;	   /* "nvue" */
	const char *rest_base;	   /* URL prefix served, e.g. "/nvue_v1" */
	const char *default_model; /* when simctl is given none */
	const char *const *models; /* accepted model names, NULL-terminated */
	/* Fill a fresh state (factory default) for the model. */
	int (*factory)(cJSON *st, const char *model, char *err, size_t errlen);
	/* One CLI command (argv[0] is the program, e.g. "nv"); returns the exit status. */
	int (*cli)(struct sim_ctx *ctx, int argc, char **argv, FILE *out, FILE *err);
	/* The prompt shown in an interactive login. */
	void (*prompt)(const struct sim_ctx *ctx, struct sbuf *out);
	/* One REST request. */
	void (*rest)(struct sim_ctx *ctx, const struct sim_req *req, struct sim_resp *resp);
	/* Change things behind the tool's back: root is "config", "oper" or "counters";
	 * val NULL removes the path. */
	int (*drift)(struct sim_ctx *ctx, const char *root, char **path, int n, cJSON *val,
		     char *err, size_t errlen);
	/* Optional: a CLI whose lines are its own language, not sh (EOS).  Every line of the
	 * SSH command and of stdin goes here whole (no sh splitting, no built-ins), with
	 * ctx->login kept across the lines of one login.  Returns the line's status. */
	int (*line)(struct sim_ctx *ctx, const char *line, FILE *out, FILE *err);
	/* Optional: a reload.  The running configuration is replaced by the saved startup
	 * configuration, as a real reboot does (NVUE: the startup file; SONiC:
	 * /etc/sonic/config_db.json; EOS: startup-config); operational state restarts from
	 * it.  NULL: the dialect keeps no startup configuration (simctl reboot refuses). */
	int (*reboot)(struct sim_ctx *ctx, char *err, size_t errlen);
	/* HTTP Basic realm on 401 (default: the dialect name), and the factory password the
	 * API refuses with 403 until it is changed (NVUE's "cumulus"; NULL = none). */
	const char *auth_realm;
	const char *default_password;
};

const struct sim_dialect *sim_dialect_find(const char *name);
const struct sim_dialect *sim_dialect_of(const cJSON *st);

/* ---- faults (fault.c) ---- */
enum sim_fault_action { FAULT_NONE, FAULT_HANG, FAULT_DROP };

/* Called once per command/request with the state locked: consumes one-shot faults,
 * returns what to do and the delay to add. */
enum sim_fault_action sim_fault_before(struct sim_ctx *ctx, long *slow_ms);
/* Dialects call this when an apply starts; true = fail this apply (consumed). */
bool sim_fault_take_reject(struct sim_ctx *ctx);
/* REST only: the status (5xx) the request answers instead of its own, or 0; *after: the
 * request is carried out first */
int sim_fault_take_http_error(struct sim_ctx *ctx, bool *after);
/* "reject-next", "hang [always]", "drop-after N", "slow MS", "clear" (drift is dialect). */
int sim_fault_set(cJSON *st, int argc, char **argv, char *err, size_t errlen);

#endif
