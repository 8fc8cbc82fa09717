/* SPDX-License-Identifier: Apache-2.0 */
/* Arista EOS dialect: shared declarations of eos*.c.
 *
 * The switch is its running configuration (st["eos"]["running"], a JSON form of the
 * lines it renders), its configuration sessions (st["eos"]["sessions"]), and counters.
 * The CLI is modal (exec, config, interface, tx-queue) with EOS's fallback to parent modes;
 * the SSH front end feeds it lines, eAPI feeds it runCmds commands. */
#ifndef SWITCHSIM_EOS_H
#define SWITCHSIM_EOS_H

#include "sim.h"

#define EOS_PORTS	  64
#define EOS_MAX_PENDING	  5 /* pending configuration sessions */
#define EOS_MAX_COMPLETED 1 /* completed sessions kept */
#define EOS_SEGMENT_BYTES 208

struct eos_model {
	const char *name;    /* simctl model: 7060DX5 */
	const char *dcs;     /* DCS-7060DX5-64S */
	long speed_mbps;     /* every port */
	bool uc_tx_queue;    /* "uc-tx-queue N" instead of "tx-queue N" */
	const char *version; /* EOS release */
};

struct eos_sw {
	cJSON *st;
	cJSON *eos; /* st["eos"] */
	const struct eos_model *model;
};

enum eos_mode { EM_EXEC, EM_CONFIG, EM_IF, EM_TXQ };

/* What one command did (SSH prints it, eAPI wraps it). */
struct eos_res {
	int code;	  /* 0, or eAPI's: 1002 invalid input, 1000 could not run, 1003 no JSON */
	char msg[300];	  /* the error, without "% " */
	struct sbuf text; /* output (show commands) */
	cJSON *json;	  /* JSON model of a show command; NULL = {} */
	bool show;	  /* a show command */
	bool has_json;	  /* ... that has a JSON model */
	char *warning;	  /* a "! ..." warning line, or NULL */
};

struct eos_cli {
	struct sim_ctx *ctx;
	struct eos_sw sw;
	bool eapi;
	bool json;    /* eAPI format json */
	int revision; /* of the JSON model asked: {"cmd", "revision"}, `| json revision N` */
};

/* ---- switch (eos.c) ---- */
const struct eos_model *eos_model_find(const char *name);
int eos_sw_init(struct eos_sw *sw, cJSON *st, char *err, size_t errlen);

/* ---- configuration (eos_cfg.c) ---- */
/* Run one configuration-mode line on cfg.  mode is EM_CONFIG, EM_IF (on ifs) or EM_TXQ (on
 * ifs, queue txq).  On a mode change *new_mode (and ifs/txq) are set.  0, or -1 with r
 * filled; *unknown is set when the line is not a command of this mode at all (so the
 * caller may try the parent mode, as EOS does). */
struct eos_pos {
	enum eos_mode mode;
	int nifs;
	int ifs[EOS_PORTS]; /* port numbers */
	int txq;
};
int eos_cfg_line(const struct eos_sw *sw, cJSON *cfg, struct eos_pos *pos, int argc, char **argv,
		 struct eos_res *r, bool *unknown);
/* The running-config text of cfg (header included when device is true). */
void eos_render(const struct eos_sw *sw, const cJSON *cfg, bool header, struct sbuf *out);
/* Load running-config text into a fresh cfg (drift validation); 0 or -1 with err. */
int eos_load(const struct eos_sw *sw, const char *text, cJSON **cfg, char *err, size_t errlen);
cJSON *eos_factory_cfg(const char *hostname);
/* "Ethernet1-4,6", "Et1", "ethernet 1,3": ports (1-based); count or -1. */
int eos_parse_ifs(int argc, char **argv, int *ports, int max);
/* Effective maps: configured entries over the defaults (CoS 0 -> TC 1, 1 -> 0, n -> n;
 * DSCP d -> default CoS d/8 -> TC; TC t -> tx-queue t).  cfg may be NULL. */
int eos_dscp_tc(const cJSON *cfg, int dscp);
int eos_cos_tc(const cJSON *cfg, int cos);
int eos_tc_txq(const cJSON *cfg, int tc);
long eos_unit_bytes(const char *unit);
/* Unified diff of two texts (show session-config diffs). */
void eos_diff(const char *a, const char *b, const char *la, const char *lb, struct sbuf *out);
void eos_res_error(struct eos_res *r, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void eos_res_invalid(struct eos_res *r, int argc, char **argv, int at);
/* Case-insensitive unambiguous-prefix keyword match: index, -1 none, -2 ambiguous. */
int eos_kw(const char *tok, const char *const *cands);

/* ---- show (eos_show.c) ---- */
int eos_show(struct eos_cli *c, const cJSON *cfg, int argc, char **argv, struct eos_res *r);

/* ---- CLI (eos_cli.c) ---- */
/* Run one line in the login's mode (ctx->login); 0 or -1 (r->code set). */
int eos_exec(struct eos_cli *c, const char *line, struct eos_res *r);
void eos_res_init(struct eos_res *r);
void eos_res_free(struct eos_res *r);
int eos_line(struct sim_ctx *ctx, const char *line, FILE *out, FILE *err);
int eos_cli_argv(struct sim_ctx *ctx, int argc, char **argv, FILE *out, FILE *err);
void eos_prompt(const struct sim_ctx *ctx, struct sbuf *out);
/* The configuration a show or edit sees: the login's session, else running. */
cJSON *eos_cfg_of(struct eos_cli *c);

/* ---- eAPI (eos_eapi.c) ---- */
void eos_rest(struct sim_ctx *ctx, const struct sim_req *req, struct sim_resp *resp);

#endif
