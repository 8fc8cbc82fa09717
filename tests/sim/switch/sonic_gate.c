/* GCU's field operation validators (sonic-utilities generic_config_updater), as the real
 * rules files say, per patch operation:
 *   ../shared/conformance/sonic/gcu/gcu_field_operation_validators.conf.json (newest) and
 *   ../shared/conformance/sonic/gcu/gcu_field_operation_validators.conf.2025-10-25.json,
 * read by ../shared/conformance/sonic/gcu/field_operation_validators.py.  Only the rows for
 * this simulator's HWSKUs (helper_data: th2, th5, spc2, spc3, spc4) are copied; the
 * matching rules are the .py's:
 *   - rdma_config_update_validator (PFC_WD, BUFFER_POOL): the path's elements after the
 *     table, those holding a digit dropped (remove_port), joined with '/' and lower-cased;
 *     a dict value adds one field per key, the keys NOT lower-cased; exact match;
 *   - buffer_profile_config_update_validator: an op on /BUFFER_PROFILE/<name> passes; a
 *     field op must end with a listed field (no port removal);
 *   - wred_profile_config_update_validator (older file only): as the BUFFER_PROFILE field
 *     rule;
 *   - a field must be listed, the platform's date non-empty, the op listed, and the image's
 *     branch date (an 8-digit element of build_version) not older than the platform's.
 * Releases before 202511 carry the 2025-10-25 file; 202511 on the newest (the change of
 * commit-2e9e81c1-gcu-4219.message.txt, January 2026, cherry-picked in February). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sonic.h"

#define VPREFIX "generic_config_updater.field_operation_validators."

struct scenario {
	const char *table;
	const char *const *fields;
	const char *ops; /* " add replace " */
	/* YYYYMMDD per ASIC family, "" = not allowed: th2, th5, spc2, spc3, spc4 */
	const char *date[5];
	bool old_only, new_only;
};

static const char *const wd_fields[] = {"restoration_time",
					"detection_time",
					"action",
					"global/poll_interval",
					"pfc_stat_history",
					"",
					NULL};
static const char *const dyn_th[] = {"dynamic_th", NULL};
static const char *const xoff[] = {"xoff", NULL};
static const char *const trim[] = {"packet_discard_action", NULL};
static const char *const pool[] = {"ingress_lossless_pool/xoff", "ingress_lossless_pool/size",
				   "egress_lossy_pool/size", NULL};
static const char *const wred[] = {"green_min_threshold", "green_max_threshold",
				   "green_drop_probability", NULL};

static const struct scenario scenarios[] = {
    /* "PFCWD enable/disable" (both files) */
    {"PFC_WD",
     wd_fields,
     " remove add replace ",
     {"20181100", "20240500", "20191100", "20220500", "20221100"},
     false,
     false},
    /* "Shared/headroom pool size changes": the newest file lists no field */
    {"BUFFER_POOL",
     pool,
     " replace ",
     {"20221100", "20240500", "20191100", "20220500", "20221100"},
     true,
     false},
    /* "Dynamic threshold tuning", "PG headroom modification", "Packet trimming ..." */
    {"BUFFER_PROFILE",
     dyn_th,
     " replace ",
     {"20181100", "20240500", "20191100", "20220500", "20221100"},
     false,
     false},
    {"BUFFER_PROFILE",
     xoff,
     " replace ",
     {"20221100", "20240500", "20191100", "20220500", "20221100"},
     false,
     false},
    {"BUFFER_PROFILE", trim, " add replace ", {"", "20241200", "", "", "20241200"}, false, false},
    /* "ECN tuning": removed by the January 2026 change */
    {"WRED_PROFILE",
     wred,
     " replace ",
     {"20181100", "20240500", "20191100", "20220500", "20221100"},
     true,
     false},
};

static int family(const char *asic)
{
	static const char *const f[] = {"th2", "th5", "spc2", "spc3", "spc4"};
	for (int i = 0; i < 5; i++)
		if (!strcmp(f[i], asic))
			return i;
	return -1;
}

static const char *validator_of(const char *table, bool newest)
{
	if (!strcmp(table, "PFC_WD") || !strcmp(table, "BUFFER_POOL"))
		return VPREFIX "rdma_config_update_validator";
	if (!strcmp(table, "BUFFER_PROFILE"))
		return VPREFIX "buffer_profile_config_update_validator";
	if (!strcmp(table, "WRED_PROFILE") && !newest)
		return VPREFIX "wred_profile_config_update_validator";
	return NULL;
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
		     bool exact, bool newest)
{
	int fam = family(sw->model->asic);
	char date[16], opw[16];
	snprintf(date, sizeof(date), "%ld10", sw->release);
	snprintf(opw, sizeof(opw), " %s ", op);
	for (size_t i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++) {
		const struct scenario *s = &scenarios[i];
		if (strcmp(s->table, table) || (s->old_only && newest) || (s->new_only && !newest))
			continue;
		for (const char *const *f = s->fields; *f; f++) {
			const char *slash = strrchr(field, '/');
			const char *last = slash ? slash + 1 : field;
			if (exact ? strcmp(field, *f) : strcmp(last, *f))
				continue;
			/* the first scenario listing the field decides */
			return fam >= 0 && *s->date[fam] && strstr(s->ops, opw) &&
			       strcmp(date, s->date[fam]) >= 0;
		}
	}
	return false;
}

/* One patch operation: 0, or -1 with GCU's message. */
static int gate_op(const struct sn_sw *sw, const cJSON *op, bool newest, struct sbuf *err)
{
	char parts[8][128];
	const char *path = jstr(op, "path", ""), *verb = jstr(op, "op", "");
	int n = gate_split_path(path, parts, 8);
	if (n < 1)
		return 0; /* a whole-document op: the tables are judged by GCU's sorter */
	const char *v = validator_of(parts[0], newest);
	if (!v)
		return 0;
	bool profile = !strcmp(parts[0], "BUFFER_PROFILE") || !strcmp(parts[0], "WRED_PROFILE");
	if (profile && n == 2)
		return 0; /* object-level: add, remove or replace of a whole profile */
	char cleaned[256] = "";
	size_t o = 0;
	for (int i = 1; i < n; i++) {
		if (!profile && has_digit(parts[i]))
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
			ok = ok && field_ok(sw, parts[0], f, verb, !profile, newest);
		}
	} else {
		ok = field_ok(sw, parts[0], cleaned, verb, !profile, newest);
	}
	if (ok)
		return 0;
	sb_addf(err, "Modification of %s table is illegal- validating function %s returned False",
		parts[0], v);
	return -1;
}

int sn_gate_patch(const struct sn_sw *sw, const cJSON *patch, struct sbuf *err)
{
	const cJSON *op;
	bool newest = sw->release >= 202511;
	cJSON_ArrayForEach(op, patch)
	{
		if (gate_op(sw, op, newest, err) < 0)
			return -1;
	}
	return 0;
}
