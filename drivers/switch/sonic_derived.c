/* SPDX-License-Identifier: Apache-2.0 */
/* The lossless profiles buffermgrd derives from a run's values, and what a rollback must
 * remove of them.  buffermgrd (static buffer model) names a port's lossless profile
 * `pg_lossless_<speed>_<cable>_profile` and writes it to CONFIG_DB BUFFER_PROFILE when it
 * is absent; nothing in it ever deletes one (sonic-swss cfgmgr/buffermgr.cpp,
 * BufferMgr::doSpeedUpdateTask).  Writing a pre-run cable length back therefore moves the
 * port's PGs to the old profile and leaves the run's one behind, unreferenced.
 *
 * The snapshot is the list of BUFFER_PROFILE names before the run; after the values are
 * back, a derived profile that is not in it and that nothing references is the run's
 * leftover.  The snapshot also keeps the saved configuration (/etc/sonic/config_db.json) as
 * the run found it: a restore saves, and the running configuration it saves need not be
 * the one that was saved before the run (sonic.c, restore_saved).  Nothing here does I/O;
 * the blob comes from a journal file and is checked like device output. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "sonic.h"

#define DERIVED_VERSION	 1
#define DERIVED_PREFIX	 "pg_lossless_"
#define DERIVED_MAX_LIST 65536

/* What apply writes into PORT_QOS_MAP|<port> along with PFC and not from a value of the
 * model (sonic_ops.c, w_pfc): the watchdog's list follows pfc_enable (sonic-buildimage
 * Configuration.md, sonic-yang-models sonic-port-qos-map.yang), the PG and PFC-queue maps
 * are bound when PFC needs them.  A value restore would write them derived from the
 * pre-run PFC list instead of as they were (fault campaign seed 60032). */
static const char *const derived_pqm[] = {"pfcwd_sw_enable", "tc_to_pg_map", "pfc_to_queue_map"};
#define N_DERIVED_PQM (sizeof(derived_pqm) / sizeof(derived_pqm[0]))

/* "port_qos": each PORT_QOS_MAP entry's derived fields as they are ({} when it has none);
 * optional too: an older journal has none, and then nothing is put back. */
static bool snapshot_pqm(cJSON *o, const cJSON *cfg)
{
	cJSON *pqm = cJSON_AddObjectToObject(o, "port_qos");
	const cJSON *row;
	bool ok = pqm != NULL;

	cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(cfg, "PORT_QOS_MAP"))
	{
		cJSON *e;

		if (!ok || !row->string || !sonic_name_ok(row->string))
			continue;
		e = cJSON_AddObjectToObject(pqm, row->string);
		ok = e != NULL;
		for (size_t f = 0; ok && f < N_DERIVED_PQM; f++) {
			const char *v = cJSON_GetStringValue(
			    cJSON_GetObjectItemCaseSensitive(row, derived_pqm[f]));

			if (v)
				ok = cJSON_AddStringToObject(e, derived_pqm[f], v) != NULL;
		}
	}
	return ok;
}

char *sonic_derived_snapshot(const cJSON *cfg, const cJSON *startup)
{
	cJSON *o = cJSON_CreateObject(), *list = cJSON_AddArrayToObject(o, "profiles");
	const cJSON *p;
	char *out = NULL;
	bool ok = o && list && cJSON_AddNumberToObject(o, "version", DERIVED_VERSION);

	/* optional (absent in the journals of older releases, and when the file could not be
	 * read): a version-1 reader ignores it */
	if (ok && startup)
		ok = cJSON_AddItemToObject(o, "startup", cJSON_Duplicate(startup, true));

	cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(cfg, "BUFFER_PROFILE"))
	{
		/* names rocectl could not put in a patch are never removed: no need to keep */
		if (ok && p->string && sonic_name_ok(p->string))
			ok = cJSON_AddItemToArray(list, cJSON_CreateString(p->string));
	}
	if (ok)
		ok = snapshot_pqm(o, cfg);
	if (ok)
		out = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	return out;
}

static bool listed(const cJSON *list, const char *name)
{
	const cJSON *e;

	cJSON_ArrayForEach(e, list)
	{
		if (cJSON_IsString(e) && !strcmp(e->valuestring, name))
			return true;
	}
	return false;
}

/* A BUFFER_* row's reference to profile `name`: its "profile" field, or one item of a
 * comma-separated "profile_list" (BUFFER_PORT_*_PROFILE_LIST). */
static bool refers(const cJSON *row, const char *name)
{
	const char *prof = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(row, "profile"));
	const char *l = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(row, "profile_list"));
	size_t n = strlen(name);

	if (prof && !strcmp(prof, name))
		return true;
	for (const char *s = l; s && *s;) {
		const char *end = strchr(s, ',');
		size_t len = end ? (size_t)(end - s) : strlen(s);

		if (len == n && !strncmp(s, name, n))
			return true;
		s = end ? end + 1 : s + len;
	}
	return false;
}

static bool referenced(const cJSON *cfg, const char *name)
{
	static const char *const tabs[] = {"BUFFER_PG", "BUFFER_QUEUE",
					   "BUFFER_PORT_INGRESS_PROFILE_LIST",
					   "BUFFER_PORT_EGRESS_PROFILE_LIST"};
	const cJSON *row;

	for (size_t t = 0; t < sizeof(tabs) / sizeof(tabs[0]); t++)
		cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(cfg, tabs[t]))
		{
			if (refers(row, name))
				return true;
		}
	return false;
}

int sonic_derived_leftovers(const cJSON *cfg, const char *blob, char **patch, int *n,
			    struct rc_err *err)
{
	cJSON *o = blob ? cJSON_Parse(blob) : NULL, *ops = NULL;
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "version");
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(o, "profiles"), *p;
	int rc = 0;

	*patch = NULL;
	*n = 0;
	if (!cJSON_IsObject(o))
		rc = rc_errf(err, EPROTO, "native snapshot: not a JSON object");
	else if (!cJSON_IsNumber(v) || v->valuedouble != DERIVED_VERSION)
		rc = rc_errf(err, EPROTO, "native snapshot: unknown version");
	else if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) > DERIVED_MAX_LIST)
		rc = rc_errf(err, EPROTO, "native snapshot: 'profiles' is not a list");
	if (!rc && !(ops = cJSON_CreateArray()))
		rc = rc_errf(err, ENOMEM, "out of memory");
	cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(cfg, "BUFFER_PROFILE"))
	{
		char path[SONIC_KEY_MAX];
		cJSON *op;

		if (rc)
			break;
		if (!p->string || strncmp(p->string, DERIVED_PREFIX, strlen(DERIVED_PREFIX)) ||
		    !sonic_name_ok(p->string) || listed(list, p->string) ||
		    referenced(cfg, p->string))
			continue;
		snprintf(path, sizeof(path), "/BUFFER_PROFILE/%s", p->string);
		op = cJSON_CreateObject();
		if (!op || !cJSON_AddStringToObject(op, "op", "remove") ||
		    !cJSON_AddStringToObject(op, "path", path) || !cJSON_AddItemToArray(ops, op)) {
			cJSON_Delete(op);
			rc = rc_errf(err, ENOMEM, "out of memory");
		} else {
			(*n)++;
		}
	}
	if (!rc && *n && !(*patch = cJSON_PrintUnformatted(ops)))
		rc = rc_errf(err, ENOMEM, "out of memory");
	cJSON_Delete(ops);
	cJSON_Delete(o);
	if (rc)
		*n = 0;
	return rc;
}

int sonic_derived_startup(const char *blob, cJSON **startup, struct rc_err *err)
{
	cJSON *o = blob ? cJSON_Parse(blob) : NULL;
	cJSON *st = cJSON_DetachItemFromObjectCaseSensitive(o, "startup");
	int rc = 0;

	*startup = NULL;
	if (!cJSON_IsObject(o))
		rc = rc_errf(err, EPROTO, "native snapshot: not a JSON object");
	else if (st && !cJSON_IsObject(st))
		rc = rc_errf(err, EPROTO, "native snapshot: 'startup' is not a JSON object");
	if (!rc)
		*startup = st;
	else
		cJSON_Delete(st);
	cJSON_Delete(o);
	return rc;
}

/* One port's derived fields back to `was` (the snapshot's entry): set what differs,
 * remove what the port did not have. */
static int port_fields(const cJSON *now, const char *port, const cJSON *was, struct sonic_ops *ops,
		       struct rc_err *err)
{
	int rc = 0;

	for (size_t f = 0; !rc && f < N_DERIVED_PQM; f++) {
		const cJSON *w = cJSON_GetObjectItemCaseSensitive(was, derived_pqm[f]);
		const char *cur =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(now, derived_pqm[f]));

		if (w && (!cJSON_IsString(w) || strlen(w->valuestring) >= RC_NAME_MAX))
			return rc_errf(err, EPROTO,
				       "native snapshot: '%s' %s is not a short string", port,
				       derived_pqm[f]);
		if (w && (!cur || strcmp(cur, w->valuestring)))
			rc = sonic_ops_add(ops, err, port, RC_F_PFC, "PORT_QOS_MAP", port,
					   derived_pqm[f], false, w->valuestring);
		else if (!w && cur)
			rc = sonic_ops_add(ops, err, port, RC_F_PFC, "PORT_QOS_MAP", port,
					   derived_pqm[f], true, NULL);
	}
	return rc;
}

int sonic_derived_fields(const cJSON *cfg, const char *blob, struct sonic_ops *ops,
			 struct rc_err *err)
{
	cJSON *o = blob ? cJSON_Parse(blob) : NULL;
	const cJSON *pqm = cJSON_GetObjectItemCaseSensitive(o, "port_qos"), *was;
	const cJSON *rows = cJSON_GetObjectItemCaseSensitive(cfg, "PORT_QOS_MAP");
	int rc = 0;

	if (!cJSON_IsObject(o))
		rc = rc_errf(err, EPROTO, "native snapshot: not a JSON object");
	else if (pqm && (!cJSON_IsObject(pqm) || cJSON_GetArraySize(pqm) > DERIVED_MAX_LIST))
		rc = rc_errf(err, EPROTO, "native snapshot: 'port_qos' is not an object");
	if (rc)
		pqm = NULL;
	cJSON_ArrayForEach(was, pqm)
	{
		const cJSON *now;

		if (!cJSON_IsObject(was) || !was->string || !sonic_name_ok(was->string)) {
			rc = rc_errf(err, EPROTO,
				     "native snapshot: a 'port_qos' entry is not a "
				     "port's object");
			break;
		}
		/* an entry gone since (deleted by someone else) is not made again */
		now = cJSON_GetObjectItemCaseSensitive(rows, was->string);
		if (cJSON_IsObject(now))
			rc = port_fields(now, was->string, was, ops, err);
		if (rc)
			break;
	}
	cJSON_Delete(o);
	return rc;
}

static void note(char *why, size_t len, size_t *o, char sign, const char *table, const char *key)
{
	if (*o < len)
		*o += (size_t)snprintf(why + *o, len - *o, "%s%c%s|%s", *o ? "; " : "", sign, table,
				       key ? key : "");
}

/* The entries of table `a` missing from (or, `both`, other than in) table `b`. */
static int table_lacks(const cJSON *a, const cJSON *b, const char *table, char sign, bool both,
		       char *why, size_t len, size_t *o)
{
	const cJSON *e;
	int n = 0;

	cJSON_ArrayForEach(e, a)
	{
		const cJSON *other = cJSON_GetObjectItemCaseSensitive(b, e->string);

		if (!other) {
			note(why, len, o, sign, table, e->string);
			n++;
		} else if (both && !cJSON_Compare(e, other, true)) {
			note(why, len, o, '~', table, e->string);
			n++;
		}
	}
	return n;
}

int sonic_config_differences(const cJSON *want, const cJSON *now, char *why, size_t len)
{
	const cJSON *t;
	size_t o = 0;
	int n = 0;

	if (len)
		why[0] = '\0';
	cJSON_ArrayForEach(t, want)
	{
		const cJSON *other = cJSON_GetObjectItemCaseSensitive(now, t->string);

		n += table_lacks(t, other, t->string, '-', true, why, len, &o);
	}
	cJSON_ArrayForEach(t, now)
	{
		const cJSON *other = cJSON_GetObjectItemCaseSensitive(want, t->string);

		n += table_lacks(t, other, t->string, '+', false, why, len, &o);
	}
	return n;
}
