/* SPDX-License-Identifier: Apache-2.0 */
/* NVIDIA Cumulus Linux NVUE dialect: shared declarations of nvue_*.c. */
#ifndef SWITCHSIM_NVUE_H
#define SWITCHSIM_NVUE_H

#include "sim.h"

#define NV_MAX_DEPTH 16
#define NV_MAX_IDS   512
#define NV_PORTS     64

/* ---- schema (nvue_schema.c) ---- */
enum nv_kind { NV_OBJ, NV_COLL, NV_SET, NV_INT, NV_ENUM, NV_STR };
enum nv_idk { ID_NONE, ID_NUM, ID_NAME, ID_IF, ID_ENUM };

#define NVF_BYTES   1u /* shown as "N B" */
#define NVF_ROCE_EN 2u /* qos.roce enable|state: spelling depends on the release */
#define NVF_BARE    4u /* "nv set <obj>" with nothing after sets this leaf to vals[0] */

struct nv_node {
	const char *key;
	enum nv_kind kind;
	const struct nv_node *sub; /* OBJ: children (key NULL ends); COLL: the entry object */
	enum nv_idk idk;	   /* COLL/SET: what an id is */
	long lo, hi;		   /* INT range, or numeric id range */
	const char *const *vals;   /* ENUM values, or ID_ENUM ids */
	const char *def;	   /* default (text), NULL = none */
	const char *desc;
	unsigned flags;
};

extern const struct nv_node nv_root;

/* A switch as the NVUE code sees it. */
struct nv_model {
	const char *name;    /* SN5600 */
	const char *product; /* MSN5600 */
	const char *asic;    /* Spectrum-4 */
	int cell_bytes;	     /* 0 = no ASIC (VX): nothing is quantized */
	int ecn_cells;	     /* ECN thresholds are programmed in units of this many cells */
	long speed_mbps;     /* default port speed */
};

struct nv_sw {
	cJSON *st;
	cJSON *nv; /* st["nvue"]: revisions and applied config */
	const char *name;
	int version; /* 514 = 5.14 */
	const struct nv_model *model;
};

int nv_sw_init(struct nv_sw *sw, cJSON *st, char *err, size_t errlen);
const struct nv_model *nv_model_find(const char *name);

/* Child of an OBJ by keyword (exact); NULL if none. */
const struct nv_node *nv_kid(const struct nv_node *obj, const char *key);
/* The canonical key for a child (roce enable/state by release). */
const char *nv_canon_key(const struct nv_sw *sw, const struct nv_node *kid);
/* Schema node along a JSON path (ids taken as valid); *member set for a SET member. */
const struct nv_node *nv_node_at(const char *const *path, int n, bool *member);
/* Validate one id of a COLL/SET (no lists).  0 or -1 with err. */
int nv_check_id(const struct nv_node *coll, const char *id, struct sbuf *err);
/* Expand a CLI id word ("0-3,5", "swp1-4,swp6") into ids (caller frees each and the array). */
int nv_expand_ids(const struct nv_node *coll, const char *word, char ***ids, struct sbuf *err);
/* CLI text -> JSON value of a leaf, canonical spelling; NULL with err on a bad value. */
cJSON *nv_parse_value(const struct nv_sw *sw, const struct nv_node *leaf, const char *text,
		      struct sbuf *err);
/* Check and canonicalise a JSON value (REST body) against a node, in place; 0 or -1 with
 * err, and where (optional) holding the dotted location of the offending element. */
int nv_check_json(const struct nv_sw *sw, const struct nv_node *node, cJSON **val, struct sbuf *err,
		  struct sbuf *where);
bool nv_is_bool_enum(const struct nv_node *leaf);
const char *nv_enum_canon(const struct nv_node *leaf, const char *s);

/* CLI words -> targets (id lists expand to several). */
struct nv_target {
	int n;
	char *path[NV_MAX_DEPTH];
	const struct nv_node *node; /* node at the end of path */
	bool member;		    /* path ends at a SET member */
};
struct nv_targets {
	struct nv_target *v;
	int n;
	int end; /* index of the first word not consumed */
};
int nv_parse_words(int argc, char **argv, struct nv_targets *out, struct sbuf *err);
void nv_targets_free(struct nv_targets *t);
void nv_path_str(struct sbuf *out, char *const *path, int n, char sep);

/* ---- model (nvue_model.c) ---- */
bool nv_roce_on(const cJSON *qos);
/* Whether RoCE mode runs, from the operational state (whose qos.roce, as NVUE shows it,
 * has no enable/state: that is configuration). */
bool nv_oper_roce_on(const cJSON *st);
/* Factory tree (every default) for this release. */
cJSON *nv_factory(const struct nv_sw *sw);
/* Applied view as NVUE shows it: factory defaults under the sparse config. */
cJSON *nv_filled(const struct nv_sw *sw, const cJSON *sparse);
/* What the switch runs: defaults, then what RoCE mode implies, then the user's config. */
cJSON *nv_effective(const struct nv_sw *sw, const cJSON *sparse);
/* Operational state programmed from a sparse config (ASIC quantization included). */
cJSON *nv_operational(const struct nv_sw *sw, const cJSON *sparse);
/* Apply-time validation; appends {"location","reason"} objects to issues. */
void nv_validate(const struct nv_sw *sw, const cJSON *sparse, cJSON *issues);
/* Changes that make NVUE ask "Are you sure?" (switchd restart). */
void nv_warnings(const cJSON *from, const cJSON *to, cJSON *warnings);
long nv_quantize(const struct nv_sw *sw, long bytes);
bool nv_port_valid(const char *ifname);
/* Remove SET containers left empty by unsets (an empty set means "not configured"). */
void nv_prune_sets(cJSON *sparse);

/* ---- revisions (nvue_rev.c) ---- */
cJSON *nv_applied(const struct nv_sw *sw);
long nv_applied_rev(const struct nv_sw *sw);
cJSON *nv_rev(const struct nv_sw *sw, long id);
long nv_rev_new(struct nv_sw *sw, const char *user, const char *via);
/* The user's CLI pending revision (created when create is true); 0 if none. */
long nv_cli_pending(struct nv_sw *sw, const char *user, bool create);
void nv_rev_add_op(cJSON *rev, const char *op, char *const *path, int n, cJSON *value);
/* Sparse config of a revision: applied config with the revision's changes on top. */
cJSON *nv_rev_view(const struct nv_sw *sw, const cJSON *rev);
/* The saved startup configuration (sparse); the applied one where none was kept. */
cJSON *nv_startup(const struct nv_sw *sw);
/* `nv config save`: startup := applied. */
void nv_save(struct nv_sw *sw);
/* Does `nv config apply` save by itself?  From CL 5.9 (NVUE reference, Config Commands). */
bool nv_auto_save(const struct nv_sw *sw);
/* The state of a revision just applied: "applied_and_saved" where apply saves, else
 * "applied"; and whether a state is one of the two. */
const char *nv_applied_state(const struct nv_sw *sw);
bool nv_state_applied(const char *state);
/* Sparse config by name: applied, startup, pending (the user's), empty, or a number. */
cJSON *nv_view_by_name(struct nv_sw *sw, const char *name, const char *user, struct sbuf *err);

enum nv_apply_status { NV_APPLIED, NV_INVALID, NV_REJECTED, NV_AYS_FAIL };
struct nv_apply {
	bool assume_yes;
	const char *message;
	/* asked when the change has warnings and assume_yes is false; true = go on */
	bool (*confirm)(void *arg, const cJSON *warnings);
	void *arg;
	/* results */
	cJSON *warnings; /* array of strings */
	cJSON *issues;	 /* array of {location, reason} */
};
enum nv_apply_status nv_apply_rev(struct sim_ctx *ctx, struct nv_sw *sw, long id,
				  struct nv_apply *ap);
void nv_apply_done(struct nv_apply *ap);
/* Re-program the ASIC from the applied config. */
void nv_program(struct nv_sw *sw);
/* Revision state object as the REST API shows it. */
cJSON *nv_rev_state_json(const cJSON *rev);
/* set/unset trees between two sparse configs. */
void nv_diff(const cJSON *a, const cJSON *b, cJSON *set, cJSON *unset);
void nv_diff_commands(struct sbuf *out, const cJSON *set, const cJSON *unset);
/* Commit a config change made behind NVUE's back as a new applied revision. */
void nv_commit_direct(struct nv_sw *sw, cJSON *sparse, const char *user, const char *message);

/* ---- CLI and show (nvue_cli.c, nvue_show.c) ---- */
enum nv_fmt { FMT_AUTO, FMT_JSON, FMT_YAML, FMT_COMMANDS };
struct nv_cli {
	struct sim_ctx *ctx;
	struct nv_sw sw;
	FILE *out;
	FILE *err;
	enum nv_fmt fmt;
	const char *rev; /* NULL = default view; "applied", "pending", "operational", N */
	bool assume_yes, assume_no;
	const char *message;
	long confirm_min;   /* config apply --confirm <minutes>; 0 = none */
	int confirm_answer; /* --confirm-yes 1, --confirm-no -1, neither 0 */
	bool confirm_status;
	bool help;
};
int nvue_cli(struct sim_ctx *ctx, int argc, char **argv, FILE *out, FILE *err);
int nv_cmd_show(struct nv_cli *c, int nw, char **w);
void nv_print_json(struct nv_cli *c, const cJSON *j);
int nv_not_found(struct nv_cli *c);
/* The operational "qos roce" object derived from the running QoS tree. */
cJSON *nv_roce_oper(const cJSON *qos, bool on);
cJSON *nv_system_json(const struct nv_sw *sw, bool platform);

/* ---- interface QoS counters (nvue_counters.c) ---- */
/* Every counter of a port, zeros under what st["counters"][ifname] sets. */
cJSON *nv_counters_of(const struct sim_ctx *ctx, const char *ifname);
int nv_show_counters(struct nv_cli *c, const char *ifname, int nw, char **w);

/* ---- commit-confirm and the revision list (nvue_confirm.c) ---- */
/* What the --confirm timer puts back: applied, startup, programmed state; the revision
 * ends "confirm_fail". */
cJSON *nv_confirm_restore(struct sim_ctx *ctx, const struct nv_sw *sw, long id);
/* Revision `id` waits in state "confirm" for `minutes` (the confirm-minute knob). */
void nv_confirm_arm(struct sim_ctx *ctx, struct nv_sw *sw, long id, long minutes, cJSON *restore);
/* A bare apply with nothing pending while a revision waits: refused (1), else 0. */
int nv_confirm_check_bare(struct nv_cli *c);
int nv_confirm_answer(struct nv_cli *c, int nw, char **w);
int nv_confirm_status(struct nv_cli *c);
/* A bare number of minutes: 0, else -1 (a suffix, zero, too long). */
int nv_confirm_minutes(const char *text, long *minutes);
int nv_config_revision(struct nv_cli *c);

/* ---- REST (nvue_rest.c) ---- */
void nv_rest(struct sim_ctx *ctx, const struct sim_req *req, struct sim_resp *resp);

#endif
