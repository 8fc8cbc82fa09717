/* SPDX-License-Identifier: Apache-2.0 */
/* The EOS CLI: exec and configuration modes, configuration sessions (configure session
 * NAME ... commit | abort), output pipes (| json, | include, | section), and the SSH front
 * end (one CLI line at a time, errors as "% ..." on stderr).
 *
 * The login's mode lives in ctx->login: {"mode", "session", "ifs": [port...], "txq"}. */
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "eos.h"

#define EOS_WORDS 128

void eos_res_init(struct eos_res *r)
{
	memset(r, 0, sizeof(*r));
	sb_init(&r->text);
}

void eos_res_free(struct eos_res *r)
{
	sb_free(&r->text);
	cJSON_Delete(r->json);
	free(r->warning);
	r->json = NULL;
	r->warning = NULL;
}

static struct eos_pos login_pos(const cJSON *login)
{
	struct eos_pos p = {.mode = (enum eos_mode)jint(login, "mode", EM_EXEC)};
	const cJSON *v;
	cJSON_ArrayForEach(v, jget1(login, "ifs"))
	{
		if (p.nifs < EOS_PORTS && jis_long(v))
			p.ifs[p.nifs++] = (int)jlong(v, 1);
	}
	p.txq = (int)jint(login, "txq", 0);
	return p;
}

static void set_pos(cJSON *login, const struct eos_pos *p)
{
	jput(login, "mode", cJSON_CreateNumber(p->mode));
	jput(login, "ifs", cJSON_CreateIntArray(p->ifs, p->nifs));
	jput(login, "txq", cJSON_CreateNumber(p->txq));
}

static cJSON *sessions(struct eos_cli *c)
{
	cJSON *s = jget1(c->sw.eos, "sessions");
	if (!cJSON_IsObject(s)) {
		s = cJSON_CreateObject();
		jput(c->sw.eos, "sessions", s);
	}
	return s;
}

cJSON *eos_cfg_of(struct eos_cli *c)
{
	const char *name = jstr(c->ctx->login, "session", NULL);
	cJSON *s = name ? jget1(sessions(c), name) : NULL;
	if (s && !strcmp(jstr(s, "state", ""), "pending") && cJSON_IsObject(jget1(s, "config")))
		return jget1(s, "config");
	return jget1(c->sw.eos, "running");
}

static bool session_name_ok(const char *s)
{
	size_t n = strlen(s);
	return n && n <= 64 &&
	       strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.") == n;
}

static int pending_count(struct eos_cli *c)
{
	int n = 0;
	const cJSON *s;
	cJSON_ArrayForEach(s, sessions(c)) n += !strcmp(jstr(s, "state", ""), "pending");
	return n;
}

static bool timer_pending(const cJSON *s)
{
	return !strcmp(jstr(s, "state", ""), "pendingCommitTimer");
}

static int enter_session(struct eos_cli *c, const char *name, struct eos_res *r)
{
	char gen[32];
	cJSON *ss = sessions(c);
	if (!name) {
		long id = jint(c->sw.eos, "next-session", 1);
		do
			snprintf(gen, sizeof(gen), "session%ld", id++);
		while (jget1(ss, gen));
		jput(c->sw.eos, "next-session", cJSON_CreateNumber((double)id));
		name = gen;
	}
	cJSON *s = jget1(ss, name);
	if (s && timer_pending(s)) {
		eos_res_error(r, 1000, "Session %s is pending commit timer", name);
		return -1;
	}
	if (s && strcmp(jstr(s, "state", ""), "pending") != 0) {
		cJSON_DeleteItemFromObjectCaseSensitive(ss, name);
		s = NULL;
	}
	if (!s) {
		if (pending_count(c) >= EOS_MAX_PENDING) {
			eos_res_error(r, 1000,
				      "Maximum number of pending sessions has been reached. Please "
				      "commit or abort an existing session");
			return -1;
		}
		s = cJSON_CreateObject();
		jput(s, "state", cJSON_CreateString("pending"));
		jput(s, "user", cJSON_CreateString(c->ctx->user ? c->ctx->user : ""));
		jput(s, "time", cJSON_CreateNumber((double)time(NULL)));
		jput(s, "config", cJSON_Duplicate(jget1(c->sw.eos, "running"), true));
		jput(ss, name, s);
	}
	jput(c->ctx->login, "session", cJSON_CreateString(name));
	struct eos_pos p = {.mode = EM_CONFIG};
	set_pos(c->ctx->login, &p);
	c->ctx->dirty = true;
	return 0;
}

static void leave_session(struct eos_cli *c, enum eos_mode mode)
{
	cJSON_DeleteItemFromObjectCaseSensitive(c->ctx->login, "session");
	struct eos_pos p = {.mode = mode};
	set_pos(c->ctx->login, &p);
}

static cJSON *pending_session(struct eos_cli *c, const char *name, struct eos_res *r)
{
	cJSON *s = name ? jget1(sessions(c), name) : NULL;
	if (!s || (strcmp(jstr(s, "state", ""), "pending") != 0 && !timer_pending(s))) {
		eos_res_error(r, 1000, "Session %s does not exist", name ? name : "");
		return NULL;
	}
	return s;
}

/* "hh:mm:ss" of `commit timer` (EOS manual, "Configure session"): seconds, or -1. */
static long parse_hms(const char *t)
{
	unsigned h, m, sec;
	char tail;
	if (strspn(t, "0123456789:") != strlen(t) ||
	    sscanf(t, "%2u:%2u:%2u%c", &h, &m, &sec, &tail) != 3 || m > 59 || sec > 59)
		return -1;
	long v = (long)h * 3600 + (long)m * 60 + (long)sec;
	return v > 0 ? v : -1;
}

/* A session committed with a timer: the running-config is the session's, but it returns to
 * the pre-commit one at the deadline (timer.c) unless `configure session NAME commit`
 * comes first. */
static int commit_timer(struct eos_cli *c, cJSON *s, const char *name, long secs, struct eos_res *r)
{
	time_t deadline = time(NULL) + secs;
	if (timer_pending(s)) {
		/* a new timer for the same session: only the deadline moves */
		cJSON *t = jget1(c->ctx->st, "timed-commit");
		jput(t, "deadline", cJSON_CreateNumber((double)deadline));
		jput(t, "sleeper", cJSON_CreateBool(false));
		c->ctx->dirty = true;
		return 0;
	}
	if (sim_timer_pending(c->ctx->st)) {
		eos_res_error(r, 1000,
			      "Cannot commit session %s with a timer: another session is pending "
			      "commit timer",
			      name);
		return -1;
	}
	cJSON *restore = cJSON_CreateArray(), *e = cJSON_CreateObject();
	const char *run_path[] = {"eos", "running"}, *sess_path[] = {"eos", "sessions", name};
	jput(e, "path", cJSON_CreateStringArray(run_path, 2));
	jput(e, "value", cJSON_Duplicate(jget1(c->sw.eos, "running"), true));
	cJSON_AddItemToArray(restore, e);
	e = cJSON_CreateObject();
	jput(e, "path", cJSON_CreateStringArray(sess_path, 3));
	jput(e, "value", cJSON_CreateNull());
	cJSON_AddItemToArray(restore, e);
	sim_timer_arm(c->ctx->st, name, deadline, restore);
	jput(c->sw.eos, "running", cJSON_DetachItemFromObjectCaseSensitive(s, "config"));
	jput(s, "state", cJSON_CreateString("pendingCommitTimer"));
	jput(s, "deadline", cJSON_CreateNumber((double)deadline));
	c->ctx->dirty = true;
	return 0;
}

static int commit_session(struct eos_cli *c, const char *name, long timer, struct eos_res *r)
{
	cJSON *s = pending_session(c, name, r);
	if (!s)
		return -1;
	if (timer_pending(s) && !timer) {
		/* the confirmation: the running-config already is the session's */
		sim_timer_clear(c->ctx->st);
		cJSON_DeleteItemFromObjectCaseSensitive(s, "deadline");
		jput(s, "state", cJSON_CreateString("completed"));
		jput(s, "completed", cJSON_CreateNumber((double)time(NULL)));
		c->ctx->dirty = true;
		return 0;
	}
	if (sim_fault_take_reject(c->ctx)) {
		eos_res_error(r, 1000,
			      "Failed to commit session %s: the configuration could not be "
			      "applied (injected fault 'reject-next')",
			      name);
		return -1;
	}
	if (timer)
		return commit_timer(c, s, name, timer, r);
	jput(c->sw.eos, "running", cJSON_DetachItemFromObjectCaseSensitive(s, "config"));
	jput(s, "state", cJSON_CreateString("completed"));
	jput(s, "completed", cJSON_CreateNumber((double)time(NULL)));
	/* EOS keeps a bounded number of completed sessions: drop the oldest */
	cJSON *ss = sessions(c);
	for (;;) {
		int done = 0;
		cJSON *oldest = NULL, *e;
		cJSON_ArrayForEach(e, ss)
		{
			if (strcmp(jstr(e, "state", ""), "completed") != 0)
				continue;
			done++;
			if (!oldest || cJSON_GetNumberValue(jget1(e, "completed")) <
					   cJSON_GetNumberValue(jget1(oldest, "completed")))
				oldest = e;
		}
		if (done <= EOS_MAX_COMPLETED || !oldest)
			break;
		cJSON_Delete(cJSON_DetachItemViaPointer(ss, oldest));
	}
	c->ctx->dirty = true;
	return 0;
}

static int abort_session(struct eos_cli *c, const char *name, struct eos_res *r)
{
	cJSON *s = pending_session(c, name, r);
	if (!s)
		return -1;
	if (timer_pending(s)) {
		/* aborting a session pending its commit timer rolls it back now */
		cJSON *t = jget1(c->ctx->st, "timed-commit");
		jput(t, "deadline", cJSON_CreateNumber(0));
		sim_timer_expire(c->ctx->st, time(NULL));
		c->ctx->dirty = true;
		return 0;
	}
	cJSON_DeleteItemFromObjectCaseSensitive(sessions(c), name);
	c->ctx->dirty = true;
	return 0;
}

/* ---- output pipes ---- */

static int apply_pipe(struct eos_res *r, int argc, char **argv)
{
	static const char *const pipes[] = {"json",  "include", "exclude", "section",
					    "begin", "no-more", NULL};
	int k = argc ? eos_kw(argv[0], pipes) : -1;
	if (k < 0) {
		eos_res_invalid(r, argc, argv, 0);
		return -1;
	}
	if (k == 5)
		return 0;
	if (k == 0) {
		/* `| json [revision N]`: the revision was taken before the command ran */
		if (argc != 1 && !(argc == 3 && !strcasecmp(argv[1], "revision"))) {
			eos_res_invalid(r, argc, argv, 1);
			return -1;
		}
		if (!r->has_json) {
			eos_res_error(r, 1003, "This is an unconverted command");
			return -1;
		}
		sb_reset(&r->text);
		jprint(&r->text, r->json);
		return 0;
	}
	struct sbuf pat;
	sb_init(&pat);
	for (int i = 1; i < argc; i++)
		sb_addf(&pat, "%s%s", i > 1 ? " " : "", argv[i]);
	regex_t re;
	if (argc < 2 || regcomp(&re, sb_str(&pat), REG_EXTENDED | REG_NOSUB) != 0) {
		sb_free(&pat);
		eos_res_invalid(r, argc, argv, argc < 2 ? argc : 1);
		return -1;
	}
	sb_free(&pat);
	struct sbuf out;
	sb_init(&out);
	const char *p = sb_str(&r->text);
	bool begun = false, keep_block = false;
	while (*p) {
		size_t n = strcspn(p, "\n");
		char *line = strndup(p, n);
		if (!line)
			abort();
		bool m = regexec(&re, line, 0, NULL, 0) == 0;
		bool top = line[0] != ' ';
		bool keep = false;
		if (k == 1)
			keep = m;
		else if (k == 2)
			keep = !m;
		else if (k == 4)
			keep = begun = begun || m;
		else {
			/* section: a top-level line that matches, with its children */
			if (top)
				keep_block = m;
			keep = keep_block || m;
		}
		if (keep)
			sb_addf(&out, "%s\n", line);
		free(line);
		p += n + (p[n] == '\n');
	}
	regfree(&re);
	sb_free(&r->text);
	r->text = out;
	return 0;
}

/* ---- one line ---- */

static int split(char *buf, char **w, int max)
{
	int n = 0;
	char *save = NULL;
	for (char *s = strtok_r(buf, " \t", &save); s; s = strtok_r(NULL, " \t", &save)) {
		if (n == max)
			return -1;
		w[n++] = s;
	}
	return n;
}

static int exec_config(struct eos_cli *c, struct eos_pos pos, int argc, char **argv,
		       struct eos_res *r)
{
	cJSON *cfg = eos_cfg_of(c);
	int code = 0;
	char msg[sizeof(r->msg)] = "";
	for (;;) {
		struct eos_pos try = pos;
		bool unknown = false;
		if (eos_cfg_line(&c->sw, cfg, &try, argc, argv, r, &unknown) == 0) {
			set_pos(c->ctx->login, &try);
			c->ctx->dirty = true;
			r->code = 0;
			r->msg[0] = '\0';
			return 0;
		}
		/* the error of the mode that knows the command, else of the innermost one */
		if (!code || !unknown) {
			code = r->code;
			snprintf(msg, sizeof(msg), "%s", r->msg);
		}
		/* not a command of this mode: EOS tries the enclosing modes */
		if (!unknown || pos.mode == EM_CONFIG)
			break;
		pos.mode = pos.mode == EM_TXQ ? EM_IF : EM_CONFIG;
	}
	r->code = code;
	snprintf(r->msg, sizeof(r->msg), "%s", msg);
	return -1;
}

static int exec_words(struct eos_cli *c, int argc, char **argv, struct eos_res *r)
{
	struct eos_pos pos = login_pos(c->ctx->login);
	static const char *const any[] = {"show", "end", "exit", "commit", "abort", NULL};
	static const char *const timer_kw[] = {"timer", NULL};
	static const char *const execs[] = {"enable", "disable", "terminal", "configure", "copy",
					    "write",  "logout",	 "quit",     NULL};
	const char *session = jstr(c->ctx->login, "session", NULL);
	if (argc == 0 || argv[0][0] == '!')
		return 0;
	int k = eos_kw(argv[0], any);
	if (k == 0)
		return eos_show(c, jget1(c->sw.eos, "running"), argc, argv, r);
	long timer = 0;
	if (pos.mode != EM_EXEC && k == 3 && argc == 3 && eos_kw(argv[1], timer_kw) == 0) {
		/* commit timer hh:mm:ss */
		timer = parse_hms(argv[2]);
		if (timer < 0) {
			eos_res_invalid(r, argc, argv, 2);
			return -1;
		}
		argc = 1;
	}
	if (pos.mode != EM_EXEC && k > 0) {
		if (argc > 1) {
			eos_res_invalid(r, argc, argv, 1);
			return -1;
		}
		if (k == 1) {
			leave_session(c, EM_EXEC);
			return 0;
		}
		if (k == 2) {
			pos.mode = pos.mode == EM_TXQ  ? EM_IF
				   : pos.mode == EM_IF ? EM_CONFIG
						       : EM_EXEC;
			if (pos.mode == EM_EXEC)
				leave_session(c, EM_EXEC);
			else
				set_pos(c->ctx->login, &pos);
			return 0;
		}
		if (!session) {
			/* commit/abort belong to configuration sessions only */
			eos_res_invalid(r, argc, argv, 0);
			return -1;
		}
		if ((k == 3 ? commit_session(c, session, timer, r) : abort_session(c, session, r)) <
		    0)
			return -1;
		leave_session(c, EM_EXEC);
		return 0;
	}
	if (pos.mode != EM_EXEC)
		return exec_config(c, pos, argc, argv, r);
	if (k == 2) {
		if (argc > 1) {
			eos_res_invalid(r, argc, argv, 1);
			return -1;
		}
		c->ctx->quit = true;
		return 0;
	}
	k = eos_kw(argv[0], execs);
	if (k < 0) {
		eos_res_invalid(r, argc, argv, 0);
		return -1;
	}
	switch (k) {
	case 0:
	case 1:
		if (argc > 2 || (argc == 2 && !is_uint(argv[1]))) {
			eos_res_invalid(r, argc, argv, argc > 2 ? 2 : 1);
			return -1;
		}
		return 0;
	case 2: {
		static const char *const term[] = {"length", "width", "dont-ask", NULL};
		int t = argc > 1 ? eos_kw(argv[1], term) : -1;
		if (t < 0 || (t < 2 && (argc != 3 || !is_uint(argv[2]))) || (t == 2 && argc != 2)) {
			eos_res_invalid(r, argc, argv, t < 0 ? 1 : 2);
			return -1;
		}
		if (t == 0 && !strcmp(argv[2], "0"))
			sb_adds(&r->text, "Pagination disabled.\n");
		else if (t == 1)
			sb_addf(&r->text, "Width set to %s columns.\n", argv[2]);
		return 0;
	}
	case 3: {
		static const char *const sub[] = {"terminal", "session", NULL};
		int s = argc > 1 ? eos_kw(argv[1], sub) : 0;
		if (s < 0) {
			eos_res_invalid(r, argc, argv, 1);
			return -1;
		}
		if (s == 0) {
			if (argc > 2) {
				eos_res_invalid(r, argc, argv, 2);
				return -1;
			}
			pos.mode = EM_CONFIG;
			pos.nifs = 0;
			set_pos(c->ctx->login, &pos);
			return 0;
		}
		const char *name = argc > 2 ? argv[2] : NULL;
		if (name && !session_name_ok(name)) {
			eos_res_invalid(r, argc, argv, 2);
			return -1;
		}
		if (argc > 3) {
			static const char *const act[] = {"commit", "abort", NULL};
			int a = eos_kw(argv[3], act);
			if (a == 0 && argc == 6 && eos_kw(argv[4], timer_kw) == 0) {
				/* configure session NAME commit timer hh:mm:ss */
				timer = parse_hms(argv[5]);
				if (timer < 0) {
					eos_res_invalid(r, argc, argv, 5);
					return -1;
				}
				argc = 4;
			}
			if (a < 0 || argc > 4) {
				eos_res_invalid(r, argc, argv, a < 0 ? 3 : 4);
				return -1;
			}
			return a == 0 ? commit_session(c, name, timer, r)
				      : abort_session(c, name, r);
		}
		return enter_session(c, name, r);
	}
	case 4:
	case 5:
		/* copy running-config startup-config | write [memory] */
		if (k == 4 && (argc != 3 || strcasecmp(argv[1], "running-config") != 0 ||
			       strcasecmp(argv[2], "startup-config") != 0)) {
			eos_res_invalid(r, argc, argv, argc < 2 ? 1 : 2);
			return -1;
		}
		if (k == 5 && argc > 1 &&
		    (argc > 2 || strncasecmp(argv[1], "memory", strlen(argv[1])) != 0)) {
			eos_res_invalid(r, argc, argv, 1);
			return -1;
		}
		/* the running configuration becomes what a reload boots (eos.c eos_reboot) */
		jput(c->sw.eos, "startup", cJSON_Duplicate(jget1(c->sw.eos, "running"), true));
		c->ctx->dirty = true;
		sb_adds(&r->text, "Copy completed successfully.\n");
		return 0;
	default:
		c->ctx->quit = true;
		return 0;
	}
}

int eos_exec(struct eos_cli *c, const char *line, struct eos_res *r)
{
	char *buf = strdup(line);
	char *w[EOS_WORDS];
	if (!buf)
		abort();
	int n = split(buf, w, EOS_WORDS);
	if (n < 0) {
		free(buf);
		eos_res_error(r, 1002, "Invalid input (too many words)");
		return -1;
	}
	int pipe_at = -1;
	for (int i = 0; i < n; i++)
		if (!strcmp(w[i], "|")) {
			pipe_at = i;
			break;
		}
	int saved = c->revision;
	if (pipe_at >= 0 && pipe_at + 3 == n - 1 && !strcasecmp(w[pipe_at + 1], "json") &&
	    !strcasecmp(w[pipe_at + 2], "revision")) {
		char *end;
		long v = strtol(w[pipe_at + 3], &end, 10);
		if (*end || v < 1 || v > 99) {
			eos_res_invalid(r, n, w, pipe_at + 3);
			free(buf);
			return -1;
		}
		c->revision = (int)v;
	} else if (!c->eapi) {
		c->revision = 1;
	}
	int rc = exec_words(c, pipe_at >= 0 ? pipe_at : n, w, r);
	c->revision = saved;
	if (rc == 0 && pipe_at >= 0) {
		if (!r->show) {
			eos_res_invalid(r, n, w, pipe_at);
			rc = -1;
		} else {
			rc = apply_pipe(r, n - pipe_at - 1, w + pipe_at + 1);
		}
	}
	free(buf);
	return rc;
}

/* ---- the SSH front end ---- */

static int init_cli(struct eos_cli *c, struct sim_ctx *ctx, FILE *err)
{
	char e[SIM_ERR_MAX];
	memset(c, 0, sizeof(*c));
	c->ctx = ctx;
	if (eos_sw_init(&c->sw, ctx->st, e, sizeof(e)) < 0) {
		fprintf(err, "switchsim: %s\n", e);
		return -1;
	}
	if (!ctx->login)
		return -1;
	return 0;
}

int eos_line(struct sim_ctx *ctx, const char *line, FILE *out, FILE *err)
{
	struct eos_cli c;
	if (init_cli(&c, ctx, err) < 0)
		return 255;
	struct eos_res r;
	eos_res_init(&r);
	int rc = eos_exec(&c, line, &r);
	if (r.text.len)
		fputs(sb_str(&r.text), out);
	if (rc < 0)
		fprintf(err, "%% %s\n", r.msg);
	eos_res_free(&r);
	return rc < 0 ? 1 : 0;
}

int eos_cli_argv(struct sim_ctx *ctx, int argc, char **argv, FILE *out, FILE *err)
{
	struct sbuf sb;
	sb_init(&sb);
	for (int i = 0; i < argc; i++)
		sb_addf(&sb, "%s%s", i ? " " : "", argv[i]);
	int rc = eos_line(ctx, sb_str(&sb), out, err);
	sb_free(&sb);
	return rc;
}

void eos_prompt(const struct sim_ctx *ctx, struct sbuf *out)
{
	const cJSON *run = jget(ctx->st, (const char *const[]){"eos", "running"}, 2);
	struct eos_pos p = login_pos(ctx->login);
	const char *session = jstr(ctx->login, "session", NULL);
	sb_adds(out, jstr(run, "hostname", "localhost"));
	if (p.mode != EM_EXEC) {
		sb_adds(out, "(config");
		if (session)
			sb_addf(out, "-s-%.6s", session);
		if (p.mode >= EM_IF && p.nifs > 0) {
			sb_addf(out, "-if-Et%d", p.ifs[0]);
			if (p.nifs > 1)
				sb_addf(out, "-%d", p.ifs[p.nifs - 1]);
		}
		if (p.mode == EM_TXQ)
			sb_addf(out, "-txq-%d", p.txq);
		sb_addc(out, ')');
	}
	sb_adds(out, "#");
}
