/* SPDX-License-Identifier: Apache-2.0 */
/* SONiC dialect of the sonic-ssh driver: CONFIG_DB (as `show runningconfiguration all`
 * JSON, or `sonic-db-cli ... HGETALL` Python-dict lines) -> the vendor-neutral model, and
 * writes -> one RFC 6902 JSON Patch for the Generic Config Updater, whose output is judged
 * here too (sonic-buildimage Configuration.md and sonic-yang-models).  Nothing here does I/O; tests
 * feed it recorded outputs.
 *
 * The model's words in SONiC's terms: a "priority" is a SONiC traffic class (DSCP_TO_TC_MAP
 * values, pfc_enable), a model "traffic class" is an egress queue (TC_TO_QUEUE_MAP values,
 * QUEUE|<port>|<q> wred_profile), headroom is the lossless PG's BUFFER_PROFILE size. */
#ifndef ROCECTL_SONIC_H
#define ROCECTL_SONIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rocectl/driver.h"
#include "rocectl/err.h"
#include "rocectl/model.h"
#include "rocectl/util.h"

struct cJSON;
struct sonic_ops;

#define SONIC_KEY_MAX 160 /* a CONFIG_DB key: "Ethernet0|3-4" */

/* Names that go into commands and JSON pointers (ports, maps, profiles, checkpoints):
 * [A-Za-z0-9][A-Za-z0-9._-]{0,62}.  SONiC's own (YANG) patterns are narrower. */
bool sonic_name_ok(const char *name);

/* ---- what buffermgrd derives (sonic_derived.c) ------------------------------------------ */

/* The native snapshot: the BUFFER_PROFILE names of `cfg` (CONFIG_DB) and, when not NULL,
 * the saved configuration `startup` (/etc/sonic/config_db.json); malloc'd, or NULL. */
char *sonic_derived_snapshot(const struct cJSON *cfg, const struct cJSON *startup);

/* The saved configuration of the snapshot `blob` (*startup NULL when it holds none); the
 * blob is checked like device output. */
int sonic_derived_startup(const char *blob, struct cJSON **startup, struct rc_err *err);
/* How the configuration `now` differs from `want` (both {TABLE: {KEY: {...}}}): the number
 * of entries that differ, `why` listing them as "-TABLE|KEY" (missing), "+TABLE|KEY" (not
 * in `want`) and "~TABLE|KEY" (other fields). */
int sonic_config_differences(const struct cJSON *want, const struct cJSON *now, char *why,
			     size_t len);

/* The buffermgrd-made profiles (pg_lossless_*) of `cfg` that the snapshot `blob` did not
 * hold and that nothing references: a JSON Patch removing them (*patch malloc'd, NULL when
 * *n is 0).  The blob is checked like device output. */
int sonic_derived_leftovers(const struct cJSON *cfg, const char *blob, char **patch, int *n,
			    struct rc_err *err);

/* The PORT_QOS_MAP fields apply derives from others (pfcwd_sw_enable from pfc_enable, the
 * PG and PFC-queue maps bound with PFC), put back to the snapshot's: the changes go into
 * `ops`.  Nothing when the blob holds none (an older journal); the blob is checked like
 * device output. */
int sonic_derived_fields(const struct cJSON *cfg, const char *blob, struct sonic_ops *ops,
			 struct rc_err *err);

/* ---- reading ------------------------------------------------------------------------- */

/* One HGETALL answer: a Python dict repr of strings ("{'pfc_enable': '3,4'}", "{}") ->
 * a JSON object of strings. */
int sonic_parse_pydict(const char *buf, size_t len, const char *what, struct cJSON **out,
		       struct rc_err *err);

/* `n` HGETALL answers, one per line (the output of n sonic-db-cli commands run in one
 * command line).  On error every docs[i] is NULL. */
int sonic_parse_pydict_lines(const char *buf, size_t len, const char *what, struct cJSON **docs,
			     size_t n, struct rc_err *err);

/* CONFIG_DB as JSON ({"TABLE": {"key": {"field": "value"}}}, the shape of config_db.json
 * and of `show runningconfiguration all`).  Only the top level is checked here; the tables
 * the driver uses are checked where they are read. */
int sonic_parse_configdb(const char *buf, size_t len, const char *what, struct cJSON **out,
			 struct rc_err *err);

/* What a port is bound to, for the writer. */
struct sonic_port_info {
	bool qos_entry;				/* PORT_QOS_MAP|<port> exists */
	char dscp_map[RC_NAME_MAX];		/* DSCP_TO_TC_MAP in effect ("" none) */
	bool dscp_map_global;			/* ... bound by PORT_QOS_MAP|global, not the port */
	char dot1p_map[RC_NAME_MAX];		/* DOT1P_TO_TC_MAP bound to the port */
	char queue_map[RC_NAME_MAX];		/* TC_TO_QUEUE_MAP bound to the port */
	char pg_map[RC_NAME_MAX];		/* TC_TO_PRIORITY_GROUP_MAP bound to the port */
	char pfc_queue_map[RC_NAME_MAX];	/* pfc_to_queue_map bound to the port */
	bool pfcwd_sw_field;			/* PORT_QOS_MAP|<port> has pfcwd_sw_enable */
	uint8_t pfcwd_sw;			/* ... its priorities, as bits */
	char queue_key[RC_NTC][SONIC_KEY_MAX];	/* QUEUE key holding queue q ("" none) */
	char wred[RC_NTC][RC_NAME_MAX];		/* WRED_PROFILE bound to queue q ("" none) */
	char cable_key[RC_NAME_MAX];		/* CABLE_LENGTH key that lists the port ("" none) */
	bool wd_entry;				/* PFC_WD|<port> exists */
	uint32_t wd_poll_ms;			/* PFC_WD|GLOBAL POLL_INTERVAL (0: not set) */
	bool buffer_dynamic;			/* DEVICE_METADATA buffer_model dynamic */
	char pg_profile[RC_NPRIO][RC_NAME_MAX]; /* BUFFER_PROFILE of the PG of priority p */
	uint8_t pg_of[RC_NPRIO];		/* the PG of priority p (tc_to_pg_map) */
	uint8_t pg_cfg;				/* priorities whose PG CONFIG_DB lists */
	uint8_t pg_cfg_null;			/* ... with profile "NULL" (dynamic model) */
	uint8_t pg_appl;			/* ... whose profile came from APPL_DB */
	char pg_key[RC_NPRIO][SONIC_KEY_MAX];	/* the BUFFER_PG key listing it ("" none) */
	uint64_t pg_xon[RC_NPRIO];		/* its profile's xon (0: none read) */
	char pg_th[RC_NPRIO][16];		/* ... and dynamic_th ("" none) */
	bool shp;	    /* shared headroom pool on (pool xoff or over_subscribe_ratio) */
	uint64_t shp_bytes; /* its size: APPL_DB's (dynamic) or CONFIG_DB's pool xoff; 0 unknown */
};

/* One port's actual QoS.  `cfg` is CONFIG_DB; `appl` (may be NULL) holds APPL_DB's
 * BUFFER_PG_TABLE and BUFFER_PROFILE_TABLE, where the dynamic buffer model keeps the
 * profiles it computes (CONFIG_DB then says "NULL").  Errors name the table, key and field
 * that were not what SONiC writes. */
int sonic_parse_port(const struct cJSON *cfg, const struct cJSON *appl, const char *port,
		     struct port_qos *out, struct sonic_port_info *info, struct rc_err *err);

/* ---- effects (sonic_effect.c) ----------------------------------------------------------- */

/* The (speed, cable) keys of a SKU's pg_profile_lookup.ini.  Speed 0: a row for every
 * speed (the fallbacks of sonic_rows.c). */
#define SONIC_ROWS_MAX 256
struct sonic_rows {
	size_t n;
	struct {
		uint32_t speed_mbps, cable_m;
	} v[SONIC_ROWS_MAX];
	char src[96]; /* where they came from, for messages */
};

/* `cat .../pg_profile_lookup.ini` -> its rows' keys; -EPROTO naming `what` on any line
 * that is not a row or a comment. */
int sonic_parse_lookup(const char *text, size_t len, const char *what, struct sonic_rows *rows,
		       struct rc_err *err);

/* ---- lookup rows when the switch's file cannot be read (sonic_rows.c) --------------------- */

/* The inventory's `cable_rows` (n > 0) win; else rocectl's table of the SKUs whose files it
 * has checked, by DEVICE_METADATA hwsku (may be NULL).  False (rows->n 0): unknown. */
bool sonic_rows_fallback(const uint32_t *inv_rows_m, size_t n, const char *hwsku,
			 struct sonic_rows *rows);

/* The shortest row length >= cable_m at this speed (0: none); *below (may be NULL): the
 * row before it (0: none). */
uint32_t sonic_row_up(const struct sonic_rows *rows, uint32_t speed_mbps, uint32_t cable_m,
		      uint32_t *below);

/* After sonic_parse_port: the cable length's effect.  Sets q->cable_row_below_m when the
 * length is a row (rows may be NULL: unknown), and effect drift on RC_F_CABLE when a
 * lossless priority's BUFFER_PG is not pg_lossless_<speed>_<cable>_profile: CONFIG_DB's in
 * the traditional buffer model; in the dynamic model APPL_DB's, computed for a PG that
 * CONFIG_DB names "NULL" (its name may carry _mtu/_th/_8lane parts after the cable). */
void sonic_effect_cable(const struct sonic_rows *rows, const struct sonic_port_info *info,
			const char *port, struct port_qos *q);

/* Effect drift on PFC when the PFC watchdog's priorities (pfcwd_sw_enable) do not follow
 * pfc_enable: the template keeps them equal, and a half-applied patch or restore can part
 * them while pfc_enable reads as wanted. */
void sonic_effect_pfcwd(const struct sonic_port_info *info, const char *port, struct port_qos *q);

/* effect.unverified on the groups whose reading here no vendor artifact checks
 * (docs/platforms/sonic.md): on the dynamic buffer model the headroom (APPL_DB's computed
 * profiles) and the cable length's effect; lookup rows that came from the inventory (the
 * cable length is rounded to rows nobody checked against the switch's file). */
void sonic_effect_unverified(const struct sonic_port_info *info, const struct sonic_rows *rows,
			     struct port_qos *q);

/* Effect drift on every group that the startup configuration (parsed the same way) holds
 * differently from running. */
void sonic_effect_startup(const struct port_qos *startup, const char *why, struct port_qos *q);

/* ---- writing ------------------------------------------------------------------------- */

/* One change of CONFIG_DB: a field set, a field removed, or a whole entry removed. */
struct sonic_op {
	char table[RC_NAME_MAX];
	char key[SONIC_KEY_MAX];
	char field[RC_NAME_MAX]; /* "" with remove: the whole entry */
	bool remove;
	char value[RC_NAME_MAX];
	const char *port; /* the port it was made for (messages) */
	uint32_t group;	  /* the RC_F_* group it serves */
};

struct sonic_ops {
	size_t n, cap;
	struct sonic_op *v;
};

void sonic_ops_free(struct sonic_ops *ops);
/* Add one change (field "" with remove: the whole entry); the same change twice is one, two
 * different values for one field are refused (-EINVAL, naming both ports). */
int sonic_ops_add(struct sonic_ops *ops, struct rc_err *err, const char *port, uint32_t group,
		  const char *table, const char *key, const char *field, bool remove,
		  const char *value);

struct sonic_peer {
	const char *port;
	const struct sonic_port_info *info;
};

/* The CONFIG_DB changes that make each port's `fields` equal to `want`, given what was
 * read (`have`, and info[i] for w[i]).  Only what differs is written.  A change of a map
 * or profile that a peer (any port read) shares must be wanted by that peer too.  Headroom
 * is not written: buffermgrd derives the lossless profile from the speed, the cable length
 * and pfc_enable (sonic-swss cfgmgr/buffermgr.cpp and buffer_headroom_mellanox.lua), and GCU
 * refuses direct BUFFER_PROFILE edits (SONiC's Generic Config Update design and sonic-utilities
 * generic_config_updater); the writer refuses a headroom change that no cable length or PFC change
 * comes with. */
int sonic_build_ops(const struct cJSON *cfg, const struct rc_port_write *w,
		    const struct sonic_port_info *info, size_t n, const struct sonic_peer *peers,
		    size_t n_peers, struct sonic_ops *ops, struct rc_err *err);

/* GCU cannot patch `table` (DSCP_TO_TC_MAP or TC_TO_QUEUE_MAP) here (an RDMA SKU:
 * commit-2e9e81c1-gcu-4219.message.txt lists both as failing, PORT_QOS_MAP bindings as
 * allowed): the ops on `table` are dropped, and each port that wanted them is bound in
 * PORT_QOS_MAP to an existing map that already gives every mapping its `want` asks of that
 * table.  `bound` lists the maps used ("'ROCE'").  -ENOENT naming the table and the port
 * when no map fits; -EPERM for a switch-wide (PORT_QOS_MAP|global) DSCP map. */
int sonic_rebind_map(const struct cJSON *cfg, const struct rc_port_write *w,
		     const struct sonic_port_info *info, size_t n, const char *table,
		     struct sonic_ops *ops, char *bound, size_t bound_len, struct rc_err *err);

/* The ops as one RFC 6902 patch against `cfg`: add/replace/remove per field, a new entry
 * or table added whole, an entry or table removed whole rather than left empty (GCU
 * refuses empty tables). */
struct cJSON *sonic_render_patch(const struct sonic_ops *ops, const struct cJSON *cfg,
				 struct rc_err *err);

/* "/TABLE/key/field" with RFC 6901 escaping (~ -> ~0, / -> ~1); field may be NULL. */
int sonic_json_pointer(char *out, size_t len, const char *table, const char *key,
		       const char *field);

/* ---- GCU output ---------------------------------------------------------------------- */

enum sonic_gcu_cmd {
	SONIC_GCU_APPLY = 0, /* config apply-patch */
	SONIC_GCU_DRY_RUN,   /* config apply-patch --dry-run */
	SONIC_GCU_CHECKPOINT,
	SONIC_GCU_ROLLBACK,
	SONIC_GCU_DELETE_CHECKPOINT,
};

/* Judge a GCU command's output: 0 when it says it succeeded, else -EIO with the reason
 * GCU gave ("Failed to apply patch due to: ..."), made printable. */
int sonic_gcu_verdict(enum sonic_gcu_cmd cmd, const char *out, size_t out_len, const char *errout,
		      size_t err_len, int exit_status, char *why, size_t why_len);

/* The tables GCU refused to modify live ("Modification of BUFFER_PROFILE table is
 * illegal..."), as found in `text`: up to `max` distinct names; returns how many. */
size_t sonic_gcu_refused_tables(const char *text, size_t len, char (*tables)[RC_NAME_MAX],
				size_t max);

/* `show lldp table` (sonic_lldp.c). */
int sonic_parse_lldp(const char *text, size_t len, const char *device, struct rc_neighbors *out,
		     struct rc_err *err);
/* The ports' aliases of CONFIG_DB (`show runningconfiguration all`, PORT|*|alias): the port
 * IDs lldpmgrd makes lldpd advertise (rc_neighbors_add_ident); an alias equal to the name
 * is left out. */
int sonic_parse_port_aliases(const char *text, size_t len, const char *device,
			     struct rc_neighbors *out, struct rc_err *err);
struct rc_counters;
/* sonic-utilities' queue and priority-group tables (text, as in the conformance kit's
 * sonic/outputs/): `show queue counters` -> egress_queue_discards[q] (Drop/pkts), `show queue
 * wredcounters` -> wred_discards[q] (WredDrp/pkts) and ecn_marked[q] (EcnMarked/pkts),
 * `show priority-group drop counters` -> pg_discards[pg]; unicast queues UC0-7 (or ALL0-7);
 * a cell N/A is a counter "not countable here", never 0.  -EPROTO without the table. */
int sonic_parse_queue_counters(const char *text, size_t len, const char *port,
			       struct rc_counters *out, struct rc_err *err);
int sonic_parse_wred_counters(const char *text, size_t len, const char *port,
			      struct rc_counters *out, struct rc_err *err);
int sonic_parse_pg_drops(const char *text, size_t len, const char *port, struct rc_counters *out,
			 struct rc_err *err);
/* One port's PFC pause frames from `show pfc counters` (text): pfc_pause_rx[p] and
 * pfc_pause_tx[p].  -EPROTO when the output has no Port Rx/Tx table. */
int sonic_parse_pfc_counters(const char *text, size_t len, const char *port,
			     struct rc_counters *out, struct rc_err *err);

#endif
