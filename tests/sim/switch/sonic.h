/* SPDX-License-Identifier: Apache-2.0 */
/* SONiC dialect: shared declarations of sonic*.c.
 *
 * The switch is its CONFIG_DB (st["sonic"]["config_db"], the JSON shape `config
 * apply-patch` and `show runningconfiguration all` use: TABLE -> key -> field -> string),
 * GCU checkpoints (st["sonic"]["checkpoints"]) and the release.  buffermgrd's derived
 * tables (lossless BUFFER_PG and pg_lossless_* BUFFER_PROFILE entries) follow PORT speed,
 * CABLE_LENGTH and PORT_QOS_MAP pfc_enable as the daemon does. */
#ifndef SWITCHSIM_SONIC_H
#define SWITCHSIM_SONIC_H

#include "sim.h"

#define SN_PORTS_MAX 128
#define SN_FILE_MAX  (1024 * 1024) /* a patch or config file read from stdin */
#define SN_RELEASE   202405	   /* default release (YYYYMM of the branch) */
#define SN_SCOPE     "localhost"   /* GCU log scope on a single-ASIC switch */

/* Port layouts of the SKUs (sonic_sku.c says where each comes from). */
enum sn_layout {
	SN_LAYOUT_O128 = 1, /* 128 x 400G, 4 lanes: Ethernet0, Ethernet4, ... Ethernet508 */
	SN_LAYOUT_C64,	    /* 64 x 100G, 4 lanes: Ethernet0 ... Ethernet252 */
	SN_LAYOUT_D_C8,	    /* 50G pairs (2 lanes) on 0-11 and 20-63, 100G (4 lanes) on 12-19 */
};

/* One row of a SKU's pg_profile_lookup.ini. */
struct sn_row {
	long speed, cable_m, size, xon, xoff;
};

struct sn_model {
	const char *name;      /* the HWSKU: simctl model and DEVICE_METADATA hwsku */
	const char *platform;  /* DEVICE_METADATA platform */
	const char *asic_type; /* show version "ASIC:" (GCU's asic_type) */
	const char *asic;      /* GCU's ASIC family for this HWSKU: th5, spc4, ... */
	enum sn_layout layout;
	long shp_xoff; /* ingress_lossless_pool xoff: the shared headroom pool (0: off) */
	const struct sn_row *rows;
	size_t n_rows;
	/* pg_profile_lookup.ini's xon_offset column, the same on every row of the SKUs that
	 * have it (0: the file has no such column) */
	long xon_offset;
};

/* sonic_sku.c: the HWSKUs, NULL-terminated. */
extern const struct sn_model sn_models[];

/* Port i of a model (0-based): name and speed; false past the last port. */
bool sn_port_of(const struct sn_model *m, int i, char *name, size_t len, long *speed, int *lanes,
		int *first_lane);

/* GCU's rules files (sonic_gate.c): the 2025-10-25 one before release 202511, the newest
 * from 202511 on. */
#define SN_RULES_OLD	 1u
#define SN_RULES_NEW	 2u
#define SN_RULES_NEW_REL 202511
/* From 202405 on, apply-patch wraps its failures per scope ("Failed to apply patch on the
 * following scopes:\n- localhost: ..."; sonic-utilities config/main.py apply_patch, and the
 * output in commit-2e9e81c1-gcu-4219.message.txt). */
#define SN_SCOPED_REL 202405

struct sn_sw {
	cJSON *st;
	cJSON *sn; /* st["sonic"] */
	cJSON *db; /* st["sonic"]["config_db"] */
	const struct sn_model *model;
	long release;	/* 202405 */
	unsigned rules; /* SN_RULES_OLD or SN_RULES_NEW */
	bool rdma;	/* an RDMA SKU whose map tables GCU cannot patch ("+rdma") */
};

/* ---- switch and CONFIG_DB (sonic_db.c) ---- */
const struct sn_model *sn_model_find(const char *name);
extern const char *const sn_model_names[];
int sn_sw_init(struct sn_sw *sw, cJSON *st, char *err, size_t errlen);
/* The factory CONFIG_DB of a model (AZURE QoS templates, buffers, PFC watchdog), in the
 * dynamic buffer model or the traditional one. */
cJSON *sn_factory_db(const struct sn_model *m, bool dynamic, const char *hostname, const char *mac);
/* The QoS and buffer tables `config qos reload` regenerates. */
extern const char *const sn_qos_tables[];
/* buffermgrd: recompute the lossless PGs of every port whose speed, cable length or
 * pfc_enable differs between before and db (before NULL = every port). */
void sn_buffermgrd(const struct sn_model *m, const cJSON *before, cJSON *db);
bool sn_port_exists(const cJSON *db, const char *port);
/* The lookup row of a (speed, cable) pair; NULL when the SKU has no such row. */
const struct sn_row *sn_row_of(const struct sn_model *m, long speed_mbps, long cable_m);
/* YANG-style validation of a whole CONFIG_DB; 0, or -1 with the reason. */
int sn_validate(const struct sn_sw *sw, const cJSON *db, struct sbuf *err);

/* ---- the dynamic buffer model (sonic_dyn.c) ---- */
/* The SKU's ASIC has the dynamic model's headroom plugin (Mellanox): its default model. */
bool sn_model_dynamic(const struct sn_model *m);
/* DEVICE_METADATA|localhost buffer_model is "dynamic". */
bool sn_db_dynamic(const cJSON *db);
/* APPL_DB or STATE_DB as buffermgrd leaves them for this CONFIG_DB (TABLE -> key -> hash;
 * APPL_DB keys join with ':'); an empty object for other databases or the traditional
 * model. */
cJSON *sn_derived_db(const struct sn_model *m, const cJSON *cfg, const char *dbname);
/* The buffer tables of the dynamic model's templates for these ports. */
void sn_factory_dynamic(cJSON *db, const char *const *ports, size_t n);

/* ---- printing (sonic_db.c) ---- */
int sn_natcmp(const char *a, const char *b);
/* json.dumps(indent=4) with natural key order (sonic-cfggen --print-data). */
void sn_print_json(struct sbuf *out, const cJSON *j);
/* json.dumps() on one line, keys in their order (GCU log lines). */
void sn_print_compact(struct sbuf *out, const cJSON *j);
/* Python repr of a str -> str dict: {'a': 'b'} (sonic-db-cli HGETALL). */
void sn_pyrepr_hash(struct sbuf *out, const cJSON *hash);
void sn_pyrepr_str(struct sbuf *out, const char *s);

/* ---- commands ---- */
struct sn_cli {
	struct sim_ctx *ctx;
	struct sn_sw sw;
	FILE *out;
	FILE *err;
};
int sonic_cli(struct sim_ctx *ctx, int argc, char **argv, FILE *out, FILE *err);
int sn_db_cli(struct sn_cli *c, int argc, char **argv); /* sonic_db.c */
int sn_config(struct sn_cli *c, int argc, char **argv); /* sonic_gcu.c */
/* stdin for PATH /dev/stdin or "-", parsed as JSON (sonic_gcu.c) */
int sn_read_input(struct sn_cli *c, const char *path, cJSON **out, struct sbuf *err);
int sn_show(struct sn_cli *c, int argc, char **argv); /* sonic_show.c */
/* A write behind GCU's back (sonic-db-cli, drift): the new CONFIG_DB replaces the old one
 * and buffermgrd follows. */
void sn_commit_direct(struct sn_sw *sw, cJSON *db);

/* ---- GCU's field operation validators (sonic_gate.c) ---- */
/* 0 when every operation of the diff from cur to target passes the validators of this
 * HWSKU and release, or -1 with GCU's message. */
int sn_gate_patch(const struct sn_sw *sw, const cJSON *cur, const cJSON *target, struct sbuf *err);
/* The patch sorter's failure on an RDMA SKU's map tables: 0, or -1 with the stand-in
 * message. */
int sn_rdma_maps(const struct sn_sw *sw, const cJSON *cur, const cJSON *target, struct sbuf *err);

/* ---- JSON Patch (sonic_patch.c) ---- */
/* Apply an RFC 6902 patch to doc in place; 0, or -1 with python-jsonpatch's message. */
int jpatch_apply(cJSON **doc, const cJSON *patch, struct sbuf *err);
/* The RFC 6902 patch from a to b, table/key/field granular (GCU's changes), appended to
 * ops. */
void jpatch_diff(const cJSON *a, const cJSON *b, cJSON *ops);
/* RFC 6901 escaping of one path element. */
void jpointer_add(struct sbuf *out, const char *token);

#endif
