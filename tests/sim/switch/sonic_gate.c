/* SPDX-License-Identifier: Apache-2.0 */
/* GCU's field operation validators (sonic-utilities generic_config_updater), as the real
 * rules files say.  Two pairs of files, chosen by the simulated release (sn_sw.rules):
 *   NEW: $CONFORMANCE_DIR/sonic/gcu/gcu_field_operation_validators.conf.json with the
 *        kit's field_operation_validators.py (the 202511 branch carries the same rows for
 *        th2, th5, spc2, spc3 and spc4);
 *   OLD: $CONFORMANCE_DIR/sonic/gcu/gcu_field_operation_validators.conf.2025-10-25.json
 *        with the .py of the same commit (sonic-utilities@8d2bc08dc, not in the kit: its
 *        buffer_profile_config_update_validator has no object-level rule, and its
 *        wred_profile_config_update_validator is rdma_config_update_validator_common with
 *        both flags off).  The 202505 branch is this file but for the trimming row.
 * Older branches (202311-202411) carry files the kit does not hold (WRED rows keyed by the
 * AZURE_LOSSLESS name, no th5 HWSKU before 202411); they are not modelled.
 *
 * What the validators see: not the patch as sent, but jsonpatch.JsonPatch.from_diff(old,
 * target) (gu_common.py validate_field_operation), so a whole-entry add that only changes
 * one field is judged as that field's replace.  jpatch_diff is that diff, without the
 * move operations python-jsonpatch pairs from equal removed/added values.
 *
 * Only the rows of this simulator's HWSKU families (helper_data: th2, th5, spc2, spc3,
 * spc4; each kit SKU is listed there by name) are copied.  Matching, per the .py's
 * rdma_config_update_validator_common: the path's elements after the table (those holding a
 * digit dropped when remove_port), joined with '/' and lower-cased; a dict value adds one
 * field per key, keys not lower-cased; the first scenario listing the field decides; the
 * platform's date must be non-empty, the op listed, and the image's branch date (the
 * 8-digit element of build_version) not older than the platform's. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sonic.h"

#define VPREFIX "generic_config_updater.field_operation_validators."

enum { FAM_TH2, FAM_TH5, FAM_SPC2, FAM_SPC3, FAM_SPC4, FAM_N };

struct scenario {
	const char *table;
	const char *const *fields;
	const char *ops; /* " add replace " */
	/* YYYYMMDD per family (th2, th5, spc2, spc3, spc4), "" = not allowed */
	const char *date[FAM_N];
	unsigned files; /* SN_RULES_* bits: the files that have the row */
};

/* "PFCWD enable/disable": conf.json lines 54-63, conf.2025-10-25.json lines 49-58 */
static const char *const wd_fields[] = {"restoration_time",
					"detection_time",
					"action",
					"global/poll_interval",
					"pfc_stat_history",
					"",
					NULL};
/* "Shared/headroom pool size changes": conf.2025-10-25.json lines 86-92; conf.json lines
 * 94-97 list no field and no operation, so every BUFFER_POOL change is refused there */
static const char *const pool[] = {"ingress_lossless_pool/xoff", "ingress_lossless_pool/size",
				   "egress_lossy_pool/size", NULL};
/* BUFFER_PROFILE "Dynamic threshold tuning", "PG headroom modification", "Packet trimming
 * eligibility modification": conf.json lines 110-181, conf.2025-10-25.json lines 121-185 */
static const char *const dyn_th[] = {"dynamic_th", NULL};
static const char *const xoff[] = {"xoff", NULL};
static const char *const trim[] = {"packet_discard_action", NULL};
/* "ECN tuning": conf.2025-10-25.json lines 195-201 (removed by commit-2e9e81c1) */
static const char *const wred[] = {"green_min_threshold", "green_max_threshold",
				   "green_drop_probability", NULL};

#define BOTH (SN_RULES_OLD | SN_RULES_NEW)

static const struct scenario scenarios[] = {
    {"PFC_WD",
     wd_fields,
     " remove add replace ",
     {"20181100", "20240500", "20191100", "20220500", "20221100"},
     BOTH},
    {"BUFFER_POOL",
     pool,
     " replace ",
     {"20221100", "20240500", "20191100", "20220500", "20221100"},
     SN_RULES_OLD},
    {"BUFFER_PROFILE",
     dyn_th,
     " replace ",
     {"20181100", "20240500", "20191100", "20220500", "20221100"},
     BOTH},
    {"BUFFER_PROFILE",
     xoff,
     " replace ",
     {"20221100", "20240500", "20191100", "20220500", "20221100"},
     BOTH},
    {"BUFFER_PROFILE", trim, " add replace ", {"", "20241200", "", "", "20241200"}, BOTH},
    {"WRED_PROFILE",
     wred,
     " replace ",
     {"20181100", "20240500", "20191100", "20220500", "20221100"},
     SN_RULES_OLD},
};

static int family(const char *asic)
{
	static const char *const f[FAM_N] = {"th2", "th5", "spc2", "spc3", "spc4"};
	for (int i = 0; i < FAM_N; i++)
		if (!strcmp(f[i], asic))
			return i;
	return -1;
}

/* The validator a table's "field_operation_validators" names in the rules file, and how
 * the .py calls rdma_config_update_validator_common for it. */
struct validator {
	const char *name;
	bool exact, remove_port;
	bool object_level; /* buffer_profile_config_update_validator of the newest .py */
};

static bool validator_of(const char *table, unsigned rules, struct validator *v)
{
	bool newest = rules == SN_RULES_NEW;
	memset(v, 0, sizeof(*v));
	if (!strcmp(table, "PFC_WD") || !strcmp(table, "BUFFER_POOL")) {
		/* rdma_config_update_validator: exact_field_match=True, remove_port=True */
		*v = (struct validator){VPREFIX "rdma_config_update_validator", true, true, false};
		return true;
	}
	if (!strcmp(table, "BUFFER_PROFILE")) {
		*v = (struct validator){VPREFIX "buffer_profile_config_update_validator", false,
					false, newest};
		return true;
	}
	if (!strcmp(table, "WRED_PROFILE") && !newest) {
		*v = (struct validator){VPREFIX "wred_profile_config_update_validator", false,
					false, false};
		return true;
	}
	/* PORT's port_config_update_validator checks speed and fec against STATE_DB, which
	 * this simulator does not keep; nothing here patches them */
	return false;
}

/* RFC 6901 path -> elements (unescaped), at most max. */
static int gate_split_path(const char *path, char parts[][128], int max)
{
	int n = 0;
	if (*path != '/')
		return 0;
	for (const char *s = path + 1; n < max; n++) {
		size_t o = 0;
		for (; *s && *s != '/'; s++) {
			char ch = *s;
			if (ch == '~' && (s[1] == '0' || s[1] == '1'))
				ch = *++s == '0' ? '~' : '/';
			if (o + 1 < 128)
				parts[n][o++] = ch;
		}
		parts[n][o] = '\0';
		if (!*s++) {
			n++;
			break;
		}
	}
	return n;
}

static bool has_digit(const char *s)
{
	for (; *s; s++)
		if (*s >= '0' && *s <= '9')
			return true;
	return false;
}

static bool field_ok(const struct sn_sw *sw, const char *table, const char *field, const char *op,
		     bool exact)
{
	int fam = family(sw->model->asic);
	char date[16], opw[16];
	snprintf(date, sizeof(date), "%ld10", sw->release);
	snprintf(opw, sizeof(opw), " %s ", op);
	if (fam < 0)
		return false; /* get_asic_name() "unknown": every change refused */
	for (size_t i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++) {
		const struct scenario *s = &scenarios[i];
		if (strcmp(s->table, table) || !(s->files & sw->rules))
			continue;
		for (const char *const *f = s->fields; *f; f++) {
			const char *slash = strrchr(field, '/');
			const char *last = slash ? slash + 1 : field;
			if (exact ? strcmp(field, *f) : strcmp(last, *f))
				continue;
			/* the first scenario listing the field decides */
			return *s->date[fam] && strstr(s->ops, opw) &&
			       strcmp(date, s->date[fam]) >= 0;
		}
	}
	return false;
}

/* One operation of the diff: 0, or -1 with GCU's message. */
static int gate_op(const struct sn_sw *sw, const cJSON *op, struct sbuf *err)
{
	char parts[8][128];
	const char *path = jstr(op, "path", ""), *verb = jstr(op, "op", "");
	int n = gate_split_path(path, parts, 8);
	struct validator v;
	if (n < 1 || !validator_of(parts[0], sw->rules, &v))
		return 0;
	if (v.object_level && n == 2)
		return 0; /* add, remove or replace of a whole profile */
	char cleaned[256] = "";
	size_t o = 0;
	for (int i = 1; i < n; i++) {
		if (v.remove_port && has_digit(parts[i]))
			continue;
		o += (size_t)snprintf(cleaned + o, sizeof(cleaned) - o, "%s%s", o ? "/" : "",
				      parts[i]);
		if (o >= sizeof(cleaned))
			o = sizeof(cleaned) - 1;
	}
	for (char *p = cleaned; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	const cJSON *val = jget1(op, "value"), *k;
	bool ok = true;
	if (cJSON_IsObject(val)) {
		cJSON_ArrayForEach(k, val)
		{
			char f[400];
			snprintf(f, sizeof(f), "%s%s%s", cleaned, *cleaned ? "/" : "", k->string);
			ok = ok && field_ok(sw, parts[0], f, verb, v.exact);
		}
	} else {
		ok = field_ok(sw, parts[0], cleaned, verb, v.exact);
	}
	if (ok)
		return 0;
	sb_addf(err, "Modification of %s table is illegal- validating function %s returned False",
		parts[0], v.name);
	return -1;
}

int sn_gate_patch(const struct sn_sw *sw, const cJSON *cur, const cJSON *target, struct sbuf *err)
{
	cJSON *ops = cJSON_CreateArray();
	const cJSON *op;
	int rc = 0;
	jpatch_diff(cur, target, ops);
	cJSON_ArrayForEach(op, ops)
	{
		if ((rc = gate_op(sw, op, err)) < 0)
			break;
	}
	cJSON_Delete(ops);
	return rc;
}

/* An RDMA SKU's map tables (the "+rdma" model suffix): commit-2e9e81c1-gcu-4219.message.txt
 * lists DSCP_TO_TC_MAP, TC_TO_QUEUE_MAP and TC_TO_PRIORITY_GROUP_MAP patches as failing in
 * "Patch Sorter - Strict" on an RDMA SKU, without the message.  Any change of these tables
 * in the diff fails here, after the field operation validators, with a message that says
 * it is this simulator's stand-in. */
int sn_rdma_maps(const struct sn_sw *sw, const cJSON *cur, const cJSON *target, struct sbuf *err)
{
	static const char *const maps[] = {"DSCP_TO_TC_MAP", "TC_TO_QUEUE_MAP",
					   "TC_TO_PRIORITY_GROUP_MAP"};
	if (!sw->rdma)
		return 0;
	for (int i = 0; i < 3; i++) {
		if (cJSON_Compare(jget1(cur, maps[i]), jget1(target, maps[i]), true) ||
		    (!jget1(cur, maps[i]) && !jget1(target, maps[i])))
			continue;
		sb_addf(
		    err,
		    "[switchsim stand-in, the real message is not public] Patch Sorter - Strict: "
		    "changes to %s are not supported on this RDMA SKU",
		    maps[i]);
		return -1;
	}
	return 0;
}
