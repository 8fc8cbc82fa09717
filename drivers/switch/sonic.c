/* SPDX-License-Identifier: Apache-2.0 */
/* The sonic-ssh driver: SONiC's dialect (sonic_parse.c, sonic_ops.c) over SSH.
 *
 * Read: `show runningconfiguration all` (CONFIG_DB as JSON); on the dynamic buffer model
 * the computed lossless profiles come from APPL_DB through `sonic-db-cli ... HGETALL`.
 * Apply: one JSON Patch through the Generic Config Updater, fed on stdin: `config
 * checkpoint`, `config apply-patch`, and `config rollback` to the checkpoint when the patch
 * fails (GCU has no transaction: a change applier that fails half way leaves the first
 * half applied: SONiC's "Generic Config Update and Rollback" design, sonic-net/SONiC).  Plan: the
 * same patch with --dry-run.
 *
 * GCU refuses live edits of some lossless tables on some platforms (its
 * rdma_config_update_validator, SONiC's Generic Config Update design and sonic-utilities
 * generic_config_updater).  Which ones is asked once per session with one dry run of a probe
 * patch (probe_gates); a refused group is reported as not controllable (with a note in the plan
 * saying it is not live-changeable here) instead of failing at apply time. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cJSON.h>

#include "rocectl/util.h"
#include "sonic.h"
#include "sonic_session.h"
#include "port_memo.h"
#include "switch_common.h"
#include "rocectl/transport.h"

static bool sonic_found_unsaved(const struct rc_session *s)
{
	return s->opts.save_only_if_saved && s->found_unsaved;
}

/* Whether a write of this session saves (rc_run_opts.save_only_if_saved). */
static bool sonic_saves(const struct rc_session *s)
{
	return !s->opts.save_only_if_saved || !s->found_unsaved;
}

/* The table whose live edit GCU refused, per group (index by bit number). */
int sonic_group_bit(uint32_t group)
{
	for (int b = 0; b < 32; b++)
		if (group == (1u << b))
			return b;
	return 0;
}

/* ---- SSH -------------------------------------------------------------------------------- */

/* Run a command; a connection abandoned after a timeout or a drop is replaced once, so that
 * a rollback can still reach a switch that dropped the apply. */
int sonic_ssh_run(struct rc_session *s, const char *cmd, const char *in, size_t in_len,
		  struct rc_ssh_result *res, struct rc_err *err)
{
	return rc_switch_ssh_run(&s->ssh, s->dev, &s->opts, cmd, in, in_len, res, err);
}

/* Whether GCU's log says it began applying changes: "Applying N change(s) in order" (older
 * sonic-utilities), "<scope>: applying N change(s) in order" (202405 on: generic_config_updater/
 * generic_updater.py PatchApplier.apply, whose earlier lines are those of the conformance kit's
 * gcu/commit-2e9e81c1-gcu-4219.message.txt, "localhost: simulating ... after applying the
 * patch" among them, which is no change): "pplying " then a count. */
static bool gcu_began(const char *out, size_t len)
{
	static const char k[] = "pplying ";

	for (const char *p = out; p && (size_t)(p - out) + sizeof(k) - 1 < len;) {
		const char *at = memmem(p, len - (size_t)(p - out), k, sizeof(k) - 1);

		if (!at || (size_t)(at - out) + sizeof(k) - 1 >= len)
			return false;
		if (at > out && (at[-1] == 'A' || at[-1] == 'a') && at[sizeof(k) - 1] >= '0' &&
		    at[sizeof(k) - 1] <= '9')
			return true;
		p = at + 1;
	}
	return false;
}

/* A GCU command (stdin: the patch, may be NULL): 0, or -EIO with GCU's reason in `why`
 * (and in err).  Transport failures are errors too, with `why` saying so.  *changing (may
 * be NULL) says whether GCU may have changed CONFIG_DB: false only when its log shows it
 * stopped before applying any change (validation failures). */
int sonic_gcu_run(struct rc_session *s, enum sonic_gcu_cmd kind, const char *cmd, const char *patch,
		  char *why, size_t why_len, bool *changing, struct rc_err *err)
{
	struct rc_ssh_result res;
	int rc = sonic_ssh_run(s, cmd, patch, patch ? strlen(patch) : 0, &res, err);

	if (changing)
		*changing = true;
	if (rc) {
		snprintf(why, why_len, "%s", err->msg);
		return rc;
	}
	/* GCU logs "applying N change(s) in order" once validation is over (SONiC's Generic Config
	 * Update design and sonic-utilities generic_config_updater; gcu_began) */
	if (changing && res.exit_status != -1)
		*changing = res.out && gcu_began(res.out, res.out_len);
	rc = sonic_gcu_verdict(kind, res.out, res.out_len, res.err, res.err_len, res.exit_status,
			       why, why_len);
	rc_ssh_result_free(&res);
	if (rc)
		return rc_errf(err, EIO, "'%s' on '%s' failed: %s", cmd, s->dev->name, why);
	return 0;
}

int sonic_gcu(struct rc_session *s, enum sonic_gcu_cmd kind, const char *cmd, const char *patch,
	      char *why, size_t why_len, struct rc_err *err)
{
	return sonic_gcu_run(s, kind, cmd, patch, why, why_len, NULL, err);
}

/* ---- reading ------------------------------------------------------------------------------ */

int sonic_fetch_config(struct rc_session *s, cJSON **cfg, struct rc_err *err)
{
	static const char cmd[] = "show runningconfiguration all";
	struct rc_ssh_result res;
	char what[RC_NAME_MAX + 64];
	int rc = sonic_ssh_run(s, cmd, NULL, 0, &res, err);

	if (rc)
		return rc;
	snprintf(what, sizeof(what), "'%s' on '%s'", cmd, s->dev->name);
	if (res.exit_status != 0) {
		rc = rc_switch_exit_error(&res, what, err);
	} else {
		rc = sonic_parse_configdb(res.out, res.out_len, what, cfg, err);
	}
	rc_ssh_result_free(&res);
	return rc;
}

typedef int (*table_parser)(const char *text, size_t len, const char *port, struct rc_counters *out,
			    struct rc_err *err);

/* The counter tables, sonic-utilities' pfcstat, wredstat, queuestat and pg-drop
 * (sonic_counters.c).  Only `show pfc counters` is required: a switch whose sonic-utilities
 * lacks another (or fails it) leaves those counters out, so diagnose has no marks or drops
 * there rather than zeros. */
static const struct {
	const char *cmd;
	table_parser parse;
	bool required;
} counter_tables[] = {
    {"show pfc counters", sonic_parse_pfc_counters, true},
    {"show queue wredcounters", sonic_parse_wred_counters, false},
    {"show queue counters", sonic_parse_queue_counters, false},
    {"show priority-group drop counters", sonic_parse_pg_drops, false},
};

#define N_TABLES (sizeof(counter_tables) / sizeof(counter_tables[0]))

/* The four tables on one command line, each between a marker line before it and one that
 * `&&` prints only when its command succeeded (the shell's `echo`, as the read's line).
 * tables_part writes that chain (with "; " after it); tables_split reads text[0..len) into
 * res[t], table t's text, or nothing when its command failed (an optional one is then left
 * out, the required one fails the read, as when each had its own line). */
static size_t tables_part(char *cmd, size_t len)
{
	size_t o = 0;

	for (size_t t = 0; t < N_TABLES; t++)
		o += (size_t)snprintf(
		    cmd + o, o < len ? len - o : 0,
		    "echo @@rocectl-table%zu@@; %s && echo @@rocectl-table%zu-end@@; ", t,
		    counter_tables[t].cmd, t);
	return o;
}

static int tables_split(struct rc_session *s, const char *text, size_t len,
			struct rc_ssh_result *res, struct rc_err *err)
{
	char begin[32], end[32];
	int rc = 0;

	for (size_t t = 0; !rc && t < N_TABLES; t++) {
		size_t at, from, to;
		const char *nl;

		snprintf(begin, sizeof(begin), "@@rocectl-table%zu@@", t);
		snprintf(end, sizeof(end), "@@rocectl-table%zu-end@@", t);
		at = rc_switch_line_at(text, len, begin);
		nl = at < len ? memchr(text + at, '\n', len - at) : NULL;
		from = nl ? (size_t)(nl - text) + 1 : len;
		to = from + rc_switch_line_at(text + from, len - from, end);
		if (at == len || to == len) {
			if (counter_tables[t].required)
				rc = rc_errf(err, EIO, "'%s' on '%s' failed%s",
					     counter_tables[t].cmd, s->dev->name,
					     at == len ? " (its answer was cut short)" : "");
			continue;
		}
		res[t].out = malloc(to - from + 1);
		if (!res[t].out) {
			rc = rc_errf(err, ENOMEM, "out of memory");
			break;
		}
		memcpy(res[t].out, text + from, to - from);
		res[t].out[to - from] = '\0';
		res[t].out_len = to - from;
	}
	return rc;
}

static int fetch_tables_folded(struct rc_session *s, struct rc_ssh_result *res, struct rc_err *err)
{
	char cmd[512];
	struct rc_ssh_result all;
	size_t o = tables_part(cmd, sizeof(cmd));
	int rc;

	cmd[o - 2] = '\0'; /* no "; " after the last */
	rc = sonic_ssh_run(s, cmd, NULL, 0, &all, err);
	if (rc)
		return rc;
	rc = tables_split(s, all.out, all.out_len, res, err);
	rc_ssh_result_free(&all);
	return rc;
}

/* A read that also answers `neighbors` (rc_run_opts.read_neighbors): `show lldp table`
 * (sonic-utilities' lldpshow, conformance sonic/FACTS.md fact 10) folded in front of
 * `show runningconfiguration all` on the same command line, between whole-line markers
 * (rc_switch_split_folded).  Behind it, on every read but a capture's or a snapshot's (one
 * command per file), the saved configuration (`cat /etc/sonic/config_db.json`, check_startup)
 * after a marker that `&&` prints only when the running configuration was read whole.
 * `&&`, `;` and `echo` are the login shell's (bash on SONiC, which the driver's other chains
 * already rely on, appl_hgetall).
 *
 * The first such read of a session also prints the SKU's lookup rows (fetch_rows) before
 * the configuration, the switch naming its own SKU directory: buffermgrd reads
 * /usr/share/sonic/hwsku/pg_profile_lookup.ini (sonic-buildimage
 * dockers/docker-orchagent/buffermgrd.sh, traditional model), a mount of
 * /usr/share/sonic/device/$PLATFORM/$HWSKU whose names come from DEVICE_METADATA|localhost
 * (files/build_templates/docker_image_ctl.j2: HWSKU from CONFIG_DB, PLATFORM from
 * `sonic-cfggen -H`, which is CONFIG_DB's platform on a switch set up as shipped).  They are
 * read here with `sonic-db-cli CONFIG_DB HGET`, as buffermgrd.sh reads buffer_model, from the
 * same CONFIG_DB entry this driver took them from when it built the path itself.  A missing
 * field makes a path that does not exist: the file is then unreadable, as before.  `echo`
 * alone ends the file's last line whether or not it has a newline, then ROWS_END says the
 * `cat` succeeded (a blank line is no row). */
#define LLDP_END      "@@rocectl-lldp-end@@"
#define CONFIG_BEGIN  "@@rocectl-config@@"
#define STARTUP_BEGIN "@@rocectl-startup@@"
#define ROWS_BEGIN    "@@rocectl-rows@@"
#define ROWS_END      "@@rocectl-rows-end@@"
#define TABLES_BEGIN  "@@rocectl-table0@@"
#define LLDP_PART     "show lldp table && echo " LLDP_END "; "
#define CONFIG_PART   "echo " CONFIG_BEGIN "; show runningconfiguration all"
#define STARTUP_CMD   "cat /etc/sonic/config_db.json"
#define STARTUP_PART  " && echo " STARTUP_BEGIN "; " STARTUP_CMD
#define METADATA_GET  "$(sonic-db-cli CONFIG_DB HGET 'DEVICE_METADATA|localhost' "
#define ROWS_PART                                                                                  \
	"echo " ROWS_BEGIN "; cat \"/usr/share/sonic/device/" METADATA_GET                         \
	"platform)/" METADATA_GET "hwsku)/pg_profile_lookup.ini\" && echo && echo " ROWS_END "; "

/* The lookup rows a folded read printed (asked: the read's line carried them). */
struct folded_rows {
	bool asked;
	bool ok; /* the `cat` succeeded: text[0..len) is the file */
	size_t off, len;
};

/* The LLDP section of a folded read (out[0..len), `ok`: its END line was there), and the
 * aliases from its configuration section cfg[0..cfg_len), kept for sonic_neighbors. */
static void keep_lldp(struct rc_session *s, const char *out, size_t len, bool ok, const char *cfg,
		      size_t cfg_len)
{
	struct rc_err e = {0};

	rc_switch_lldp_begin(&s->lldp);
	if (!ok)
		s->lldp.rc =
		    rc_errf(&s->lldp.err, EIO,
			    "'%s': the LLDP section ('show lldp table') of the read failed "
			    "or was cut short",
			    s->dev->name);
	else
		s->lldp.rc = sonic_parse_lldp(out, len, s->dev->name, &s->lldp.nb, &s->lldp.err);
	if (!s->lldp.rc &&
	    sonic_parse_port_aliases(cfg, cfg_len, s->dev->name, &s->lldp.nb, &e) == -ENOMEM)
		s->lldp.rc = rc_errf(&s->lldp.err, ENOMEM, "out of memory");
	s->lldp.kept = true;
}

/* The sections of a folded answer out[0..len) (len: where the saved configuration's marker
 * is), in the order the line prints them: the LLDP table (*lldp_len, *lldp_ok), the lookup
 * rows (rows), the counter tables (cnt: asked; *cnt_off, *cnt_len, for tables_split), and
 * where the running configuration starts (*cfg_from).  Each section must be where the line
 * put it: anything else is the answer of another shell, or cut short, and an error, never a
 * default. */
static int split_read(struct rc_session *s, const char *out, size_t len, bool lldp,
		      struct folded_rows *rows, bool cnt, size_t *cnt_off, size_t *cnt_len,
		      size_t *lldp_len, bool *lldp_ok, size_t *cfg_from, struct rc_err *err)
{
	const char *after_rows = cnt ? TABLES_BEGIN : CONFIG_BEGIN;
	const char *next = rows->asked ? ROWS_BEGIN : after_rows;
	size_t at = rc_switch_line_at(out, len, next), from, off, pos;
	const char *nl;

	*lldp_len = 0;
	*lldp_ok = false;
	*cfg_from = 0;
	*cnt_off = *cnt_len = 0;
	if (!lldp && !rows->asked && !cnt)
		return 0;
	if (at == len || (!lldp && at != 0))
		return rc_errf(err, EPROTO,
			       "'%s': the read's answer has no %s section (no '%s' line%s): cut "
			       "short",
			       s->dev->name,
			       rows->asked ? "lookup-rows"
			       : cnt	   ? "counters"
					   : "configuration",
			       next, at == len ? "" : " first");
	if (lldp && rc_switch_split_folded(out, len, LLDP_END, next, lldp_len, lldp_ok, &from))
		return -EPROTO; /* not reached: `next` is there */
	pos = at;
	if (rows->asked) {
		nl = memchr(out + at, '\n', len - at);
		from = nl ? (size_t)(nl - out) + 1 : len;
		if (rc_switch_split_folded(out + from, len - from, ROWS_END, after_rows, &rows->len,
					   &rows->ok, &off))
			return rc_errf(err, EPROTO,
				       "'%s': the read's answer has no %s section after the lookup "
				       "rows (no '%s' line): cut short",
				       s->dev->name, cnt ? "counters" : "configuration",
				       after_rows);
		rows->off = from;
		pos = from + rc_switch_line_at(out + from, len - from, after_rows);
	}
	if (cnt) {
		size_t c = rc_switch_line_at(out + pos, len - pos, CONFIG_BEGIN);

		if (pos + c == len)
			return rc_errf(err, EPROTO,
				       "'%s': the read's answer has no configuration section after "
				       "the counters (no '%s' line): cut short",
				       s->dev->name, CONFIG_BEGIN);
		*cnt_off = pos;
		*cnt_len = c;
		pos += c;
	}
	nl = memchr(out + pos, '\n', len - pos);
	*cfg_from = nl ? (size_t)(nl - out) + 1 : len;
	return 0;
}

/* Where the STARTUP_BEGIN line of a folded answer starts (len when there is none), and in
 * *saved where the saved configuration after it starts. */
static size_t startup_at(const char *out, size_t len, size_t *saved)
{
	static const char m[] = STARTUP_BEGIN;
	size_t k = sizeof(m) - 1;

	*saved = len;
	for (size_t off = 0; off < len;) {
		const char *nl = memchr(out + off, '\n', len - off);
		size_t l = nl ? (size_t)(nl - (out + off)) : len - off;

		if (l >= k && l <= k + 1 && !memcmp(out + off, m, k) &&
		    (l == k || out[off + k] == '\r')) {
			*saved = nl ? (size_t)(nl - out) + 1 : len;
			return off;
		}
		off = nl ? (size_t)(nl - out) + 1 : len;
	}
	return len;
}

/* The read's `show runningconfiguration all`, with the LLDP table when the run asks, the
 * lookup rows on the session's first read (*rows, *rows_text: malloc'd, NULL when not
 * asked), and the saved configuration behind it (*startup, malloc'd text, NULL when not
 * folded). */
static int fetch_config_read(struct rc_session *s, cJSON **cfg, char **startup, size_t *startup_len,
			     struct folded_rows *rows, char **rows_text, struct rc_err *err)
{
	bool lldp = rc_switch_folds_lldp(&s->opts);
	bool saved = !s->opts.tap && !s->opts.snapshot;
	bool cnt = s->opts.read_counters && saved;
	char cmd[sizeof(LLDP_PART ROWS_PART CONFIG_PART STARTUP_PART) + 512];
	struct rc_ssh_result res;
	char what[RC_NAME_MAX + 64];
	size_t from = 0, end = 0, at, lldp_len = 0, cnt_off = 0, cnt_len = 0, o;
	bool lldp_ok = false;
	int rc;

	*startup = NULL;
	*startup_len = 0;
	*rows_text = NULL;
	*rows = (struct folded_rows){.asked = saved && !s->rows_read && !s->rows_dynamic};
	if (!lldp && !saved)
		return sonic_fetch_config(s, cfg, err);
	if (lldp) /* nothing of an earlier read is handed over for this one */
		rc_switch_lldp_pending(&s->lldp, s->dev->name);
	/* nothing of an earlier read is handed over for this one */
	free(s->counters_text);
	s->counters_text = NULL;
	s->counters_kept = false;
	o = (size_t)snprintf(cmd, sizeof(cmd), "%s%s", lldp ? LLDP_PART : "",
			     rows->asked ? ROWS_PART : "");
	if (cnt)
		o += tables_part(cmd + o, sizeof(cmd) - o);
	snprintf(cmd + o, sizeof(cmd) - o, "%s%s",
		 lldp || rows->asked || cnt ? CONFIG_PART : "show runningconfiguration all",
		 saved ? STARTUP_PART : "");
	rc = sonic_ssh_run(s, cmd, NULL, 0, &res, err);
	if (rc)
		return rc;
	snprintf(what, sizeof(what), "'show runningconfiguration all' on '%s'", s->dev->name);
	at = saved ? startup_at(res.out, res.out_len, &end) : res.out_len;
	/* without the marker the running configuration was not read whole (`&&`); with it,
	 * the exit status is the saved configuration's, which check_startup judges */
	if (!saved && res.exit_status != 0) {
		rc = rc_switch_exit_error(&res, what, err);
	} else if (saved && at == res.out_len) { /* the status is the saved file's cat */
		char why[300];

		rc_clean_text(res.err ? res.err : "", res.err ? res.err_len : 0, why, sizeof(why));
		rc = rc_errf(err, EIO, "%s failed or was cut short (no '%s' line after it)%s%s",
			     what, STARTUP_BEGIN, why[0] ? ": " : "", why);
	} else if (!(rc = split_read(s, res.out, at, lldp, rows, cnt, &cnt_off, &cnt_len, &lldp_len,
				     &lldp_ok, &from, err))) {
		if (lldp)
			keep_lldp(s, res.out, lldp_len, lldp_ok, res.out + from, at - from);
		rc = sonic_parse_configdb(res.out + from, at - from, what, cfg, err);
	}
	if (!rc && cnt) { /* sonic_counters parses them (tables_split), once */
		s->counters_text = malloc(cnt_len + 1);
		if (!s->counters_text) {
			rc = rc_errf(err, ENOMEM, "out of memory");
		} else {
			memcpy(s->counters_text, res.out + cnt_off, cnt_len);
			s->counters_text[cnt_len] = '\0';
			s->counters_len = cnt_len;
			s->counters_kept = true;
		}
	}
	if (!rc && rows->asked && rows->ok) {
		*rows_text = malloc(rows->len + 1);
		if (!*rows_text)
			rc = rc_errf(err, ENOMEM, "out of memory");
		else
			memcpy(*rows_text, res.out + rows->off, rows->len);
	}
	if (!rc && saved && res.exit_status == 0) {
		*startup_len = res.out_len - end;
		*startup = malloc(*startup_len + 1);
		if (!*startup) {
			rc = rc_errf(err, ENOMEM, "out of memory");
		} else {
			memcpy(*startup, res.out + end, *startup_len);
			(*startup)[*startup_len] = '\0';
		}
	}
	rc_ssh_result_free(&res);
	return rc;
}

/* Run `n` HGETALLs of APPL_DB in one command line and parse the n answers. */
static int appl_hgetall(struct rc_session *s, char (*keys)[SONIC_KEY_MAX + 32], size_t n,
			cJSON **docs, struct rc_err *err)
{
	size_t len = n * (SONIC_KEY_MAX + 96) + 1, o = 0;
	char *cmd = malloc(len), what[RC_NAME_MAX + 48];
	struct rc_ssh_result res;
	int rc;

	if (!cmd)
		return rc_errf(err, ENOMEM, "out of memory");
	cmd[0] = '\0';
	/* keys are built from checked names only: no quote can be inside */
	for (size_t i = 0; i < n; i++)
		o += (size_t)snprintf(cmd + o, len - o, "%ssonic-db-cli APPL_DB HGETALL '%s'",
				      i ? " && " : "", keys[i]);
	rc = sonic_ssh_run(s, cmd, NULL, 0, &res, err);
	free(cmd);
	if (rc)
		return rc;
	snprintf(what, sizeof(what), "'sonic-db-cli APPL_DB' on '%s'", s->dev->name);
	if (res.exit_status != 0)
		rc = rc_errf(err, EIO, "%s failed (exit status %d)", what, res.exit_status);
	else
		rc = sonic_parse_pydict_lines(res.out, res.out_len, what, docs, n, err);
	rc_ssh_result_free(&res);
	return rc;
}

static int add_appl(cJSON *appl, const char *table, const char *key, cJSON *hash)
{
	cJSON *t = cJSON_GetObjectItemCaseSensitive(appl, table);

	if (!t && !(t = cJSON_AddObjectToObject(appl, table)))
		return -ENOMEM;
	if (!hash->child) { /* an empty hash: no such key */
		cJSON_Delete(hash);
		return 0;
	}
	cJSON_DeleteItemFromObjectCaseSensitive(t, key);
	cJSON_AddItemToObject(t, key, hash);
	return 0;
}

/* The shared headroom pool sized by buffermgrd: an over_subscribe_ratio without a
 * configured pool xoff (buffer_pool_mellanox.lua then computes the xoff into APPL_DB). */
static bool shp_by_ratio(const cJSON *cfg)
{
	const cJSON *pool = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(cfg, "BUFFER_POOL"), "ingress_lossless_pool");
	const char *x = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(pool, "xoff"));
	const cJSON *par;

	if (x && strcmp(x, "0"))
		return false;
	cJSON_ArrayForEach(
	    par, cJSON_GetObjectItemCaseSensitive(cfg, "DEFAULT_LOSSLESS_BUFFER_PARAMETER"))
	{
		const char *r = cJSON_GetStringValue(
		    cJSON_GetObjectItemCaseSensitive(par, "over_subscribe_ratio"));

		if (r && strcmp(r, "0"))
			return true;
	}
	return false;
}

/* The dynamic buffer model keeps the lossless profiles it computes in APPL_DB (CONFIG_DB
 * says "NULL"): two rounds of HGETALL, the PGs of the managed ports, then their profiles;
 * a third for the shared headroom pool's size when buffermgrd computes it. */
static int fetch_appl(struct rc_session *s, const cJSON *cfg, const struct rc_port_state *ports,
		      size_t n, cJSON **appl, struct rc_err *err)
{
	const cJSON *pg = cJSON_GetObjectItemCaseSensitive(cfg, "BUFFER_PG"), *e;
	char(*keys)[SONIC_KEY_MAX + 32] = NULL;
	cJSON **docs = NULL;
	size_t nk = 0, cap = 0;
	int rc = 0;

	*appl = NULL;
	if (!cJSON_IsObject(pg))
		return 0;
	cJSON_ArrayForEach(e, pg)
	{
		const cJSON *prof = cJSON_GetObjectItemCaseSensitive(e, "profile");
		const char *bar = e->string ? strchr(e->string, '|') : NULL;
		bool managed = false;

		if (!bar || !cJSON_IsString(prof) || strcmp(prof->valuestring, "NULL"))
			continue;
		for (size_t i = 0; i < n; i++)
			managed |= strlen(ports[i].name) == (size_t)(bar - e->string) &&
				   !strncmp(ports[i].name, e->string, (size_t)(bar - e->string));
		/* the PG part: digits and one '-' (BUFFER_PG keys, sonic-buildimage
		 * Configuration.md and sonic-yang-models) */
		if (!managed || strspn(bar + 1, "0123456789-") != strlen(bar + 1) ||
		    strlen(bar + 1) > 8)
			continue;
		if (rc_array_reserve((void **)&keys, &cap, nk + 1, sizeof(*keys), 16)) {
			rc = rc_errf(err, ENOMEM, "out of memory");
			goto out;
		}
		snprintf(keys[nk++], sizeof(keys[0]), "BUFFER_PG_TABLE:%.*s:%s",
			 (int)(bar - e->string), e->string, bar + 1);
	}
	if (!nk)
		return 0;
	*appl = cJSON_CreateObject();
	docs = calloc(nk, sizeof(*docs));
	if (!*appl || !docs) {
		rc = rc_errf(err, ENOMEM, "out of memory");
		goto out;
	}
	if ((rc = appl_hgetall(s, keys, nk, docs, err)))
		goto out;
	{
		size_t np = 0;
		char(*pkeys)[SONIC_KEY_MAX + 32] = calloc(nk, sizeof(*pkeys));
		cJSON **pdocs = calloc(nk, sizeof(*pdocs));

		for (size_t i = 0; !rc && i < nk; i++) {
			const cJSON *p = cJSON_GetObjectItemCaseSensitive(docs[i], "profile");
			char name[RC_NAME_MAX + 32];
			const char *v = cJSON_IsString(p) ? p->valuestring : "";
			size_t vl = strlen(v);

			if (!pkeys || !pdocs) {
				rc = rc_errf(err, ENOMEM, "out of memory");
				break;
			}
			if (!strncmp(v, "[BUFFER_PROFILE_TABLE:", 22) && vl > 23 &&
			    v[vl - 1] == ']')
				snprintf(name, sizeof(name), "%.*s", (int)(vl - 23), v + 22);
			else
				snprintf(name, sizeof(name), "%s", v);
			if (sonic_name_ok(name)) {
				bool dup = false;

				for (size_t k = 0; k < np; k++)
					dup |= !strcmp(pkeys[k] + 21, name);
				if (!dup)
					snprintf(pkeys[np++], sizeof(pkeys[0]),
						 "BUFFER_PROFILE_TABLE:%s", name);
			}
			if (add_appl(*appl, "BUFFER_PG_TABLE", keys[i] + 16, docs[i]))
				rc = rc_errf(err, ENOMEM, "out of memory");
			docs[i] = NULL;
		}
		if (!rc && np && !(rc = appl_hgetall(s, pkeys, np, pdocs, err)))
			for (size_t i = 0; i < np && !rc; i++) {
				if (add_appl(*appl, "BUFFER_PROFILE_TABLE", pkeys[i] + 21,
					     pdocs[i]))
					rc = rc_errf(err, ENOMEM, "out of memory");
				pdocs[i] = NULL;
			}
		for (size_t i = 0; pdocs && i < nk; i++)
			cJSON_Delete(pdocs[i]);
		free(pdocs);
		free(pkeys);
	}
	if (!rc && shp_by_ratio(cfg)) {
		char pk[1][SONIC_KEY_MAX + 32] = {"BUFFER_POOL_TABLE:ingress_lossless_pool"};
		cJSON *pd[1] = {NULL};

		if (!(rc = appl_hgetall(s, pk, 1, pd, err)) &&
		    add_appl(*appl, "BUFFER_POOL_TABLE", "ingress_lossless_pool", pd[0]))
			rc = rc_errf(err, ENOMEM, "out of memory");
	}
out:
	for (size_t i = 0; docs && i < nk; i++)
		cJSON_Delete(docs[i]);
	free(docs);
	free(keys);
	if (rc) {
		cJSON_Delete(*appl);
		*appl = NULL;
	}
	return rc;
}

/* The probe ops of `group` for `port`, appended to `ops` (room for 3): a change that
 * differs from what the switch has. */
static void probe_ops(const cJSON *cfg, const char *port, const struct sonic_port_info *in,
		      uint32_t group, const char *table, struct sonic_ops *ops)
{
	const cJSON *e =
	    cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(cfg, table), port);
	struct sonic_op *o = &ops->v[ops->n];

	if (group == RC_F_PFC) {
		const cJSON *f = cJSON_GetObjectItemCaseSensitive(e, "pfc_enable");

		*o = (struct sonic_op){.table = "PORT_QOS_MAP", .field = "pfc_enable"};
		snprintf(o->key, sizeof(o->key), "%s", port);
		snprintf(o->value, sizeof(o->value), "%s",
			 cJSON_IsString(f) && !strcmp(f->valuestring, "3") ? "3,4" : "3");
		ops->n++;
	} else if (group == RC_F_CABLE) {
		const char *key = in->cable_key[0] ? in->cable_key : "AZURE";
		const cJSON *f = cJSON_GetObjectItemCaseSensitive(
		    cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(cfg, table),
						     key),
		    port);

		*o = (struct sonic_op){.table = "CABLE_LENGTH"};
		snprintf(o->key, sizeof(o->key), "%s", key);
		snprintf(o->field, sizeof(o->field), "%s", port);
		snprintf(o->value, sizeof(o->value), "%s",
			 cJSON_IsString(f) && !strcmp(f->valuestring, "5m") ? "40m" : "5m");
		ops->n++;
	} else {
		const cJSON *f = cJSON_GetObjectItemCaseSensitive(e, "detection_time");
		static const char *const fields[] = {"detection_time", "restoration_time",
						     "action"};

		for (int i = 0; i < 3; i++) {
			o = &ops->v[ops->n++];
			*o = (struct sonic_op){.table = "PFC_WD"};
			snprintf(o->key, sizeof(o->key), "%s", port);
			snprintf(o->field, sizeof(o->field), "%s", fields[i]);
			snprintf(o->value, sizeof(o->value), "%s",
				 i == 2							? "drop"
				 : cJSON_IsString(f) && !strcmp(f->valuestring, "1000") ? "2000"
											: "1000");
			if (e)
				break; /* an existing entry: one field is enough */
		}
	}
}

/* Which lossless groups GCU refuses to change live here, asked once per session with ONE
 * dry run of a patch holding a probe change of every group (a JSON Patch may hold
 * operations on any number of tables: sonic-utilities generic_config_updater/
 * gu_common.py PatchWrapper builds its config over every operation's table).  GCU's
 * field-operation check (gu_common.py ConfigWrapper.validate_field_operation) walks the
 * patch's operations and raises at the first whose table's validator refuses it, naming
 * only that table ("Modification of T table is illegal"): the group of the table it names
 * is refused, and the groups after it are not known yet, so those are asked again, without
 * it, in a dry run more.  A switch that refuses nothing is asked once; one that refuses k
 * of the three groups, k + 1 times at most.  A refusal naming no probe table (the running
 * configuration itself refused, say) gates nothing, as each probe alone did. */
static void probe_gates(struct rc_session *s, const cJSON *cfg, const char *port,
			const struct sonic_port_info *in)
{
	static const struct {
		uint32_t group;
		const char *table;
	} g[] = {
	    {RC_F_PFC, "PORT_QOS_MAP"}, {RC_F_CABLE, "CABLE_LENGTH"}, {RC_F_WATCHDOG, "PFC_WD"}};
	uint32_t left = RC_F_PFC | RC_F_CABLE | RC_F_WATCHDOG;

	if (s->probed)
		return;
	s->probed = true;
	while (left) {
		struct sonic_ops ops = {0};
		struct rc_err err = {0};
		char why[400], refused[4][RC_NAME_MAX];
		uint32_t now = 0;
		cJSON *patch;
		char *text;
		size_t nref;
		int rc = 0;

		if (!(ops.v = calloc(8, sizeof(*ops.v))))
			return;
		ops.cap = 8;
		for (size_t k = 0; k < sizeof(g) / sizeof(g[0]); k++)
			if (left & g[k].group)
				probe_ops(cfg, port, in, g[k].group, g[k].table, &ops);
		patch = sonic_render_patch(&ops, cfg, &err);
		text = patch ? cJSON_PrintUnformatted(patch) : NULL;
		if (text)
			rc = sonic_gcu(s, SONIC_GCU_DRY_RUN,
				       "sudo config apply-patch --dry-run " GCU_PATCH_ON_STDIN,
				       text, why, sizeof(why), &err);
		nref = text && rc ? sonic_gcu_refused_tables(why, strlen(why), refused, 4) : 0;
		for (size_t i = 0; i < nref; i++)
			for (size_t k = 0; k < sizeof(g) / sizeof(g[0]); k++) {
				if (!(left & g[k].group) || strcmp(refused[i], g[k].table))
					continue;
				now |= g[k].group;
				snprintf(s->reason[sonic_group_bit(g[k].group)], REASON_MAX,
					 "GCU refuses live edits of %s%s", g[k].table,
					 g[k].group == RC_F_PFC ? " pfc_enable" : "");
			}
		free(text);
		cJSON_Delete(patch);
		sonic_ops_free(&ops);
		s->gated |= now;
		/* accepted, or refused for no probe's table: the rest is known */
		left = now ? left & ~now : 0;
	}
	/* the lossless profile follows the cable length: when that cannot change, neither
	 * can the headroom */
	if (s->gated & RC_F_CABLE) {
		s->gated |= RC_F_HEADROOM;
		snprintf(s->reason[sonic_group_bit(RC_F_HEADROOM)], REASON_MAX,
			 "buffermgrd derives it from the cable length, which %s",
			 "is not live-changeable here");
	}
}

/* Run a read-only command; its output in *res when it exited 0, else -EIO naming it. */
int sonic_read_cmd(struct rc_session *s, const char *cmd, struct rc_ssh_result *res,
		   struct rc_err *err)
{
	int rc = sonic_ssh_run(s, cmd, NULL, 0, res, err);

	if (rc)
		return rc;
	int status = res->exit_status;

	if (status == 0)
		return 0;
	rc_ssh_result_free(res);
	return rc_errf(err, EIO, "'%s' on '%s' failed (exit status %d)", cmd, s->dev->name, status);
}

/* The SKU's lookup rows, from the file buffermgrd reads (/usr/share/sonic/device/<platform>/
 * <hwsku>/pg_profile_lookup.ini), once per session: the text the session's first read
 * printed (`folded`, fetch_config_read), or, on a capture or a snapshot (one command a
 * file), a `cat` of its own, the path from the configuration read.  When it cannot be read:
 * the inventory's cable_rows, else rocectl's table for the SKU (sonic_rows.c); unknown
 * (n 0) when neither has it: lengths are then written as given and only the effect check
 * tells. */
static void fetch_rows(struct rc_session *s, const cJSON *cfg, const struct folded_rows *folded,
		       const char *text)
{
	const cJSON *md = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(cfg, "DEVICE_METADATA"), "localhost");
	const cJSON *pl = cJSON_GetObjectItemCaseSensitive(md, "platform");
	const cJSON *sku = cJSON_GetObjectItemCaseSensitive(md, "hwsku");
	char cmd[3 * RC_NAME_MAX], what[4 * RC_NAME_MAX];
	struct rc_ssh_result res;
	struct rc_err err = {0};

	if (s->rows_read)
		return;
	s->rows_read = true;
	s->rows.n = 0;
	if (folded->asked) {
		snprintf(what, sizeof(what),
			 "the lookup rows (pg_profile_lookup.ini) of the read of '%s'",
			 s->dev->name);
		/* the `cat` failed (folded->ok false): unreadable, as below */
		if (folded->ok && !sonic_parse_lookup(text, folded->len, what, &s->rows, &err))
			snprintf(s->rows.src, sizeof(s->rows.src), "pg_profile_lookup.ini");
		else
			s->rows.n = 0;
	} else if (cJSON_IsString(pl) && cJSON_IsString(sku) && sonic_name_ok(pl->valuestring) &&
		   sonic_name_ok(sku->valuestring)) {
		snprintf(cmd, sizeof(cmd),
			 "cat /usr/share/sonic/device/%s/%s/pg_profile_lookup.ini", pl->valuestring,
			 sku->valuestring);
		if (!sonic_read_cmd(s, cmd, &res, &err)) {
			snprintf(what, sizeof(what), "'%s' on '%s'", cmd, s->dev->name);
			if (sonic_parse_lookup(res.out, res.out_len, what, &s->rows, &err))
				s->rows.n = 0;
			else
				snprintf(s->rows.src, sizeof(s->rows.src), "pg_profile_lookup.ini");
			rc_ssh_result_free(&res);
		}
	}
	if (!s->rows.n)
		sonic_rows_fallback(s->dev->cable_rows_m, s->dev->n_cable_rows,
				    cJSON_IsString(sku) ? sku->valuestring : NULL, &s->rows);
}

/* Each port of the startup configuration against running: effect drift where they differ
 * (`config save` repairs it).  A session that will not save (sonic_saves()) leaves that out: its
 * writes cannot repair it.  The first read also says whether anything was pending:
 * `config save` writes what `show runningconfiguration all` shows (both are sonic-cfggen's
 * CONFIG_DB dump, sonic-utilities config/main.py), equal JSON when nothing is. */
static void check_startup(struct rc_session *s, const cJSON *cfg, struct rc_port_state *ports,
			  size_t n, bool folded, const char *text, size_t text_len)
{
	static const char cmd[] = STARTUP_CMD;
	struct rc_ssh_result res;
	struct rc_err err = {0};
	struct sonic_port_info info;
	struct port_qos q;
	cJSON *db = NULL;
	char what[RC_NAME_MAX + 64];

	snprintf(what, sizeof(what), "'%s' on '%s'", cmd, s->dev->name);
	if (folded && text) { /* the read's own line printed it (fetch_config_read) */
		sonic_parse_configdb(text, text_len, what, &db, &err);
	} else if (folded) {
		rc_errf(&err, EIO, "%s failed", what);
	} else if (!sonic_read_cmd(s, cmd, &res, &err)) {
		sonic_parse_configdb(res.out, res.out_len, what, &db, &err);
		rc_ssh_result_free(&res);
	}
	if (!s->read_once)
		s->found_unsaved = !db || !cJSON_Compare(cfg, db, true);
	s->read_once = true;
	for (size_t i = 0; sonic_saves(s) && i < n; i++) {
		memset(&q, 0, sizeof(q));
		if (db && !sonic_parse_port(db, NULL, ports[i].name, &q, &info, &err)) {
			sonic_effect_startup(&q, NULL, &ports[i].qos);
			continue;
		}
		/* unreadable or without the port: a reload would not bring the policy back */
		memset(&q, 0xff, sizeof(q));
		sonic_effect_startup(&q, err.msg, &ports[i].qos);
	}
	/* kept for the native snapshot: a restore puts the saved configuration back as found */
	cJSON_Delete(s->startup);
	s->startup = db;
}

static int sonic_read(struct rc_session *s, struct rc_port_state *ports, size_t n,
		      struct rc_err *err)
{
	struct sonic_port_info *info = calloc(n ? n : 1, sizeof(*info));
	cJSON *cfg = NULL, *appl = NULL;
	const cJSON *md;
	char *startup = NULL, *rows_text = NULL;
	size_t startup_len = 0;
	struct folded_rows rows;
	int rc;

	if (!info)
		return rc_errf(err, ENOMEM, "out of memory");
	rc = fetch_config_read(s, &cfg, &startup, &startup_len, &rows, &rows_text, err);
	md = cfg ? cJSON_GetObjectItemCaseSensitive(
		       cJSON_GetObjectItemCaseSensitive(cfg, "DEVICE_METADATA"), "localhost")
		 : NULL;
	if (!rc && cJSON_IsString(cJSON_GetObjectItemCaseSensitive(md, "buffer_model")) &&
	    !strcmp(cJSON_GetObjectItemCaseSensitive(md, "buffer_model")->valuestring, "dynamic"))
		rc = fetch_appl(s, cfg, ports, n, &appl, err);
	for (size_t i = 0; !rc && i < n; i++) {
		rc = sonic_parse_port(cfg, appl, ports[i].name, &ports[i].qos, &info[i], err);
		if (rc)
			rc_err_prefix(err, "'%s'", s->dev->name);
	}
	if (!rc && n) {
		/* verify sends no GCU dry run (rc_run_opts.no_platform_dry_runs): a group GCU
		 * would not change live is then read as what the switch has, drift included */
		if (!s->opts.no_platform_dry_runs)
			probe_gates(s, cfg, ports[0].name, &info[0]);
		if (!info[0].buffer_dynamic)
			fetch_rows(s, cfg, &rows, rows_text);
		else /* buffermgrd reads no rows on it (buffermgrd.sh): the next reads ask none */
			s->rows_dynamic = true;
		check_startup(s, cfg, ports, n, !s->opts.tap && !s->opts.snapshot, startup,
			      startup_len);
	}
	free(startup);
	free(rows_text);
	for (size_t i = 0; !rc && i < n; i++) {
		sonic_effect_cable(&s->rows, &info[i], ports[i].name, &ports[i].qos);
		sonic_effect_pfcwd(&info[i], ports[i].name, &ports[i].qos);
		sonic_effect_unverified(&info[i], &s->rows, &ports[i].qos);
	}
	for (size_t i = 0; !rc && i < n; i++) {
		ports[i].qos.known &= ~s->gated;
		ports[i].qos.unsupported |= s->gated;
	}
	if (!rc && rc_port_memo_store(&s->read, ports, info, n, sizeof(*info)))
		rc = rc_errf(err, ENOMEM, "out of memory");
	if (!rc) {
		cJSON_Delete(s->cfg);
		cJSON_Delete(s->appl);
		s->cfg = cfg;
		s->appl = appl;
	} else {
		cJSON_Delete(cfg);
		cJSON_Delete(appl);
	}
	free(info);
	return rc;
}

/* ---- writing ------------------------------------------------------------------------------ */

static const struct sonic_port_info *info_of(const struct rc_session *s, const char *port)
{
	return rc_port_memo_find(&s->read, port);
}

/* A cable length is written as the SKU's next row up: buffermgrd drops any other
 * (sonic_effect.c).  No row long enough: refused, naming the file.  Not on the dynamic
 * buffer model, whose buffermgrd has no rows. */
static int round_cable(const struct rc_session *s, const struct rc_port_write *w,
		       struct port_qos *want, struct rc_port_write *out, struct rc_err *err)
{
	uint32_t speed = w->have->speed_gbps * 1000, up;

	const struct sonic_port_info *in = info_of(s, w->port);

	*out = *w;
	/* the dynamic model computes headroom for any length: written as given */
	if (!(w->fields & RC_F_CABLE) || !s->rows.n || !(w->have->known & RC_F_SPEED) ||
	    (in && in->buffer_dynamic))
		return 0;
	*want = *w->want;
	out->want = want;
	up = sonic_row_up(&s->rows, speed, want->cable_length_m, NULL);
	if (!up)
		return rc_errf(err, ERANGE,
			       "'%s' port %s: %s has no row for %u Mb/s at %u m or longer; "
			       "buffermgrd would drop the cable length, refusing",
			       s->dev->name, w->port, s->rows.src, speed, want->cable_length_m);
	want->cable_length_m = up;
	return 0;
}

/* The ops of the writes, against the last read. */
int sonic_build(struct rc_session *s, const struct rc_port_write *w, size_t n,
		struct sonic_ops *ops, struct rc_err *err)
{
	struct sonic_port_info *info = calloc(n ? n : 1, sizeof(*info));
	struct sonic_peer *peers = calloc(s->read.n ? s->read.n : 1, sizeof(*peers));
	struct rc_port_write *rw = NULL;
	struct port_qos *want = NULL;
	int rc = 0;

	memset(ops, 0, sizeof(*ops));
	if (!info || !peers) {
		rc = rc_errf(err, ENOMEM, "out of memory");
		goto out;
	}
	if (!s->cfg) {
		rc = rc_errf(err, EINVAL, "'%s' was not read before apply", s->dev->name);
		goto out;
	}
	rc = rc_switch_write_infos(&s->read, w, n, info, sizeof(*info), err);
	if (rc)
		goto out;
	for (size_t i = 0; i < n; i++) {
		/* traffic must not move onto a priority that cannot be made lossless here */
		if ((s->gated & RC_F_PFC) && (w[i].want->known & RC_F_PFC) &&
		    (w[i].want->pfc_enabled & ~w[i].have->pfc_enabled) &&
		    (w[i].fields & RC_F_DSCP2PRIO)) {
			rc =
			    rc_errf(err, EPERM,
				    "'%s': PFC on priority set %#x is wanted but pfc_enable is not "
				    "live-changeable on this platform; refusing to move traffic "
				    "onto a lossy priority",
				    w[i].port, w[i].want->pfc_enabled);
			goto out;
		}
	}
	for (size_t i = 0; i < s->read.n; i++)
		peers[i] = (struct sonic_peer){s->read.port[i], rc_port_memo_at(&s->read, i)};
	if (!(rw = calloc(n ? n : 1, sizeof(*rw))) || !(want = calloc(n ? n : 1, sizeof(*want)))) {
		rc = rc_errf(err, ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; !rc && i < n; i++)
		rc = round_cable(s, &w[i], &want[i], &rw[i], err);
	if (!rc)
		rc = sonic_build_ops(s->cfg, rw, info, n, peers, s->read.n, ops, err);
out:
	free(info);
	free(peers);
	free(rw);
	free(want);
	return rc;
}

static int render(struct rc_session *s, const struct sonic_ops *ops, char **text, int *n_ops,
		  struct rc_err *err)
{
	cJSON *patch = sonic_render_patch(ops, s->cfg, err);

	*text = NULL;
	if (!patch)
		return -ENOMEM;
	*n_ops = cJSON_GetArraySize(patch);
	*text = cJSON_Print(patch);
	cJSON_Delete(patch);
	return *text ? 0 : rc_errf(err, ENOMEM, "out of memory");
}

/* ---- GCU's dry run decides what is sent -------------------------------------------------- */

#define REFUSED_MAX 8

/* `ops` as one patch (*text, *n_ops), dry-run: 0 when GCU would apply it, else -EIO with
 * GCU's reason in `why`. */
static int dry_run(struct rc_session *s, const struct sonic_ops *ops, char **text, int *n_ops,
		   char *why, size_t why_len, struct rc_err *err)
{
	int rc = render(s, ops, text, n_ops, err);

	if (rc) {
		snprintf(why, why_len, "%s", err->msg);
		return rc;
	}
	return sonic_gcu(s, SONIC_GCU_DRY_RUN,
			 "sudo config apply-patch --dry-run " GCU_PATCH_ON_STDIN, *text, why,
			 why_len, err);
}

/* The tables whose changes GCU refuses: those its message names, else (a patch sorter
 * failure names none) those whose own part of the patch fails a dry run, unless an empty
 * patch fails too (the running CONFIG_DB itself is refused, e.g. invalid for YANG). */
static size_t refused_tables(struct rc_session *s, const struct sonic_ops *ops, const char *why,
			     char (*tables)[RC_NAME_MAX], size_t max)
{
	size_t n = sonic_gcu_refused_tables(why, strlen(why), tables, max);
	struct sonic_ops none = {0};
	struct rc_err e0 = {0};
	char *t0 = NULL, w0[400];
	int n0;

	if (!n && dry_run(s, &none, &t0, &n0, w0, sizeof(w0), &e0)) {
		free(t0);
		return 0;
	}
	free(t0);
	for (size_t i = 0; !n && i < ops->n; i++) {
		struct sonic_ops sub = {0};
		struct rc_err e = {0};
		char *text = NULL, w2[400];
		bool seen = false;
		int n_ops;

		for (size_t k = 0; k < i; k++)
			seen |= !strcmp(ops->v[k].table, ops->v[i].table);
		if (seen)
			continue;
		if (!(sub.v = calloc(ops->n, sizeof(*sub.v))))
			break;
		for (size_t k = 0; k < ops->n; k++)
			if (!strcmp(ops->v[k].table, ops->v[i].table))
				sub.v[sub.n++] = ops->v[k];
		if (dry_run(s, &sub, &text, &n_ops, w2, sizeof(w2), &e) && n < max)
			snprintf(tables[n++], RC_NAME_MAX, "%s", ops->v[i].table);
		free(text);
		free(sub.v);
	}
	return n;
}

static bool is_map(const char *table)
{
	return !strcmp(table, "DSCP_TO_TC_MAP") || !strcmp(table, "TC_TO_QUEUE_MAP");
}

/* The patch apply sends, as GCU's dry run decides it (sonic-utilities generic_config_updater: the
 * dry run is the truth).  Where GCU refuses DSCP_TO_TC_MAP or TC_TO_QUEUE_MAP, the ports that
 * wanted the edit are bound to an existing map that already fits (PORT_QOS_MAP bindings pass on
 * such SKUs, commit-2e9e81c1-gcu-4219.message.txt), and `instead` says so.  0 with *text
 * (NULL when nothing is left to send); else -EPERM naming the refused tables, GCU's first
 * reason in `why`, *n_ops the size of the refused patch. */
int sonic_settle(struct rc_session *s, const struct rc_port_write *w, size_t n,
		 struct sonic_ops *ops, char **text, int *n_ops, char *why, size_t why_len,
		 char *instead, size_t instead_len, struct rc_err *err)
{
	char tables[REFUSED_MAX][RC_NAME_MAX], list[REFUSED_MAX * (RC_NAME_MAX + 2)] = "";
	char bound[256] = "", why2[400];
	struct sonic_port_info *info = NULL;
	struct rc_err e = {0};
	size_t nt, o = 0;
	bool maps = true;
	int rc = 0, n2;

	instead[0] = '\0';
	why[0] = '\0';
	if (!dry_run(s, ops, text, n_ops, why, why_len, &e))
		return 0;
	free(*text);
	*text = NULL;
	nt = refused_tables(s, ops, why, tables, REFUSED_MAX);
	for (size_t i = 0; i < nt; i++) {
		maps &= is_map(tables[i]);
		o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%s", i ? ", " : "", tables[i]);
	}
	if (!nt)
		return rc_errf(err, EPERM,
			       "GCU refused the patch (%d operation%s) before changing anything: "
			       "%s",
			       *n_ops, *n_ops == 1 ? "" : "s", why);
	if (!maps)
		return rc_errf(err, EPERM,
			       "'%s': GCU refuses changes to %s there, and rocectl has no other "
			       "way to make them (dry run: %s)",
			       s->dev->name, list, why);
	if (!(info = calloc(n ? n : 1, sizeof(*info))))
		return rc_errf(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		const struct sonic_port_info *in = info_of(s, w[i].port);

		if (in)
			info[i] = *in;
	}
	for (size_t i = 0, bl = 0; i < nt && !rc; i++) {
		char one[128];

		rc = sonic_rebind_map(s->cfg, w, info, n, tables[i], ops, one, sizeof(one), &e);
		if (!rc && one[0] && bl + 1 < sizeof(bound))
			bl += (size_t)snprintf(bound + bl, sizeof(bound) - bl, "%s%s",
					       bl ? ", " : "", one);
	}
	free(info);
	if (rc) {
		rc = rc_errf(err, EPERM,
			     "'%s': GCU refuses changes to %s there, and %s (dry run: %s)",
			     s->dev->name, list, e.msg, why);
		snprintf(instead, instead_len, "apply would write nothing and fail: %s", err->msg);
		return rc;
	}
	if (!ops->n)
		return 0;
	if (dry_run(s, ops, text, &n2, why2, sizeof(why2), &e)) {
		free(*text);
		*text = NULL;
		rc = rc_errf(err, EPERM,
			     "'%s': GCU refuses changes to %s there, and binding the ports to %s "
			     "instead is refused too (dry run: %s)",
			     s->dev->name, list, bound, why2);
		snprintf(instead, instead_len, "apply would write nothing and fail: %s", err->msg);
		return rc;
	}
	*n_ops = n2;
	snprintf(instead, instead_len,
		 "%s cannot be patched here: apply binds the ports to the existing map %s "
		 "instead (GCU dry run: %s)",
		 list, bound, why);
	return 0;
}

static void checkpoint_name(struct rc_session *s, char *buf, size_t len)
{
	snprintf(buf, len, "rocectl-%ld-%d-%u", (long)time(NULL), (int)getpid(), ++s->seq);
}

static int sonic_apply(struct rc_session *s, const struct rc_port_write *w, size_t n,
		       struct rc_err *err)
{
	struct sonic_ops ops;
	char *patch = NULL, cp[96], cmd[160], why[400], why2[400], instead[RC_NOTE_LEN];
	struct rc_err ignored = {0};
	bool changing, sent = true;
	int rc, n_ops = 0;

	if (s->opts.dry_run)
		return rc_errf(err, EPERM, "'%s': refusing to write in a dry run", s->dev->name);
	rc = sonic_build(s, w, n, &ops, err);
	if (rc) {
		rc_err_prefix(err, "nothing was sent");
		return rc;
	}
	if (!ops.n) {
		/* nothing differs from running: what was asked is the effect (the startup
		 * configuration differs; sonic_effect.c) */
		if (n && sonic_saves(s) &&
		    sonic_gcu(s, SONIC_GCU_APPLY, "sudo config save -y", NULL, why, sizeof(why),
			      err))
			rc = rc_errf(err, EIO, "'%s': config save failed: %s", s->dev->name, why);
		goto out;
	}
	/* No dry run ahead of the patch: `config apply-patch` validates the whole patch (YANG,
	 * the field-operation validators) before its change applier runs, and says "Applying N
	 * change(s)" only after that (sonic-utilities generic_config_updater/generic_updater.py,
	 * PatchApplier.apply; sonic_gcu_run's `changing`), so a refusal there changed nothing,
	 * as a dry run's would.  Only then is GCU asked, with dry runs, what it refuses and
	 * whether a map can be re-bound instead (sonic_settle), and the settled patch sent. */
	rc = render(s, &ops, &patch, &n_ops, err);
	if (rc) {
		rc_err_prefix(err, "nothing was sent");
		goto out;
	}
	checkpoint_name(s, cp, sizeof(cp));
	snprintf(cmd, sizeof(cmd), "sudo config checkpoint %s", cp);
	rc = sonic_gcu(s, SONIC_GCU_CHECKPOINT, cmd, NULL, why, sizeof(why), err);
	if (rc) {
		rc = rc_errf(err, -rc, "cannot take checkpoint '%s': %s; nothing was applied", cp,
			     why);
		goto out;
	}
	rc = sonic_gcu_run(s, SONIC_GCU_APPLY, "sudo config apply-patch " GCU_PATCH_ON_STDIN, patch,
			   why, sizeof(why), &changing, err);
	if (rc && !changing) {
		free(patch);
		patch = NULL;
		rc = sonic_settle(s, w, n, &ops, &patch, &n_ops, why, sizeof(why), instead,
				  sizeof(instead), err);
		if (rc)
			rc_err_prefix(err, "nothing was sent");
		else if (patch)
			rc = sonic_gcu_run(s, SONIC_GCU_APPLY,
					   "sudo config apply-patch " GCU_PATCH_ON_STDIN, patch,
					   why, sizeof(why), &changing, err);
		else
			sent = false; /* nothing is left to send */
	}
	if (rc && !changing && !patch) {
		/* sonic_settle's error, nothing sent */
	} else if (rc && !changing) {
		rc = rc_errf(err, EIO,
			     "GCU refused the patch (%d operation%s) before changing anything: %s",
			     n_ops, n_ops == 1 ? "" : "s", why);
	} else if (rc) {
		int rrc;

		snprintf(cmd, sizeof(cmd), "sudo config rollback %s", cp);
		rrc = sonic_gcu(s, SONIC_GCU_ROLLBACK, cmd, NULL, why2, sizeof(why2), &ignored);
		if (rrc) {
			rc = rc_errf(err, EIO,
				     "the patch (%d operation%s) failed: %s; rolling back to "
				     "checkpoint '%s' failed too: %s; the checkpoint is kept",
				     n_ops, n_ops == 1 ? "" : "s", why, cp, why2);
			goto out;
		}
		rc =
		    rc_errf(err, EIO,
			    "the patch (%d operation%s) failed: %s; rolled back to checkpoint '%s'",
			    n_ops, n_ops == 1 ? "" : "s", why, cp);
	} else if (sent) {
		/* persist what GCU changed in the running CONFIG_DB (a failure here leaves the
		 * change in effect until a reload; verify will tell) */
		if (sonic_saves(s))
			sonic_gcu(s, SONIC_GCU_APPLY, "sudo config save -y", NULL, why2,
				  sizeof(why2), &ignored);
	}
	snprintf(cmd, sizeof(cmd), "sudo config delete-checkpoint %s", cp);
	sonic_gcu(s, SONIC_GCU_DELETE_CHECKPOINT, cmd, NULL, why2, sizeof(why2), &ignored);
out:
	free(patch);
	sonic_ops_free(&ops);
	return rc;
}

/* ---- the driver ------------------------------------------------------------------------------ */

/* Each command's output (res[i].out NULL when an optional one failed), then every port's
 * counters from all of them, port by port. */
static int sonic_counters(struct rc_session *s, const struct rc_port_state *ports, size_t n,
			  struct rc_counters *out, struct rc_err *err)
{
	struct rc_ssh_result res[N_TABLES];
	int rc = 0;

	memset(res, 0, sizeof(res));
	bool folded = !s->opts.tap && !s->opts.snapshot;

	if (s->counters_kept) { /* the read's own line printed them (fetch_config_read) */
		rc = tables_split(s, s->counters_text, s->counters_len, res, err);
		s->counters_kept = false;
		free(s->counters_text);
		s->counters_text = NULL;
	} else if (folded) { /* one command line (fetch_tables_folded) */
		rc = fetch_tables_folded(s, res, err);
	}
	for (size_t t = 0; !rc && !folded && t < N_TABLES; t++) {
		struct rc_err e = {0};
		bool req = counter_tables[t].required;

		rc = sonic_ssh_run(s, counter_tables[t].cmd, NULL, 0, &res[t], req ? err : &e);
		if (!rc && res[t].exit_status != 0) {
			rc = req ? rc_errf(err, EIO, "'%s' on '%s' failed (exit status %d)",
					   counter_tables[t].cmd, s->dev->name, res[t].exit_status)
				 : 0;
			rc_ssh_result_free(&res[t]);
			memset(&res[t], 0, sizeof(res[t]));
		}
		if (!req)
			rc = 0;
	}
	for (size_t i = 0; !rc && i < n; i++)
		for (size_t t = 0; !rc && t < N_TABLES; t++) {
			struct rc_err e = {0};
			bool req = counter_tables[t].required;

			if (!res[t].out)
				continue;
			rc = counter_tables[t].parse(res[t].out, res[t].out_len, ports[i].name, out,
						     req ? err : &e);
			if (rc == -ENOMEM && !req)
				rc = rc_errf(err, ENOMEM, "out of memory");
			else if (rc && req)
				rc_err_prefix(err, "'%s'", s->dev->name);
			else if (!req)
				rc = 0;
		}
	for (size_t t = 0; t < N_TABLES; t++)
		rc_ssh_result_free(&res[t]);
	return rc;
}

/* LLDP neighbours (sonic_lldp.c), and the identities this switch's own ports advertise: the
 * aliases lldpmgrd sends as port IDs (`portidsubtype local <alias>`, conformance
 * sonic/lldp/lldpmgrd.portidsubtype.excerpt), which the other ends' neighbours name.  Without
 * the aliases (the configuration unreadable) the neighbours are still read. */
static int sonic_neighbors(struct rc_session *s, struct rc_neighbors *out, struct rc_err *err)
{
	struct rc_ssh_result res;
	struct rc_err e = {0};
	int rc;

	if (rc_switch_lldp_take(&s->lldp, out, err, &rc)) /* the read's own line printed them */
		return rc;
	rc = sonic_ssh_run(s, "show lldp table", NULL, 0, &res, err);
	if (rc)
		return rc;
	if (res.exit_status != 0)
		rc = rc_errf(err, EIO, "'show lldp table' on '%s' failed (exit status %d)",
			     s->dev->name, res.exit_status);
	else
		rc = sonic_parse_lldp(res.out, res.out_len, s->dev->name, out, err);
	rc_ssh_result_free(&res);
	if (rc || sonic_ssh_run(s, "show runningconfiguration all", NULL, 0, &res, &e))
		return rc;
	if (res.exit_status == 0 &&
	    sonic_parse_port_aliases(res.out, res.out_len, s->dev->name, out, &e) == -ENOMEM)
		rc = rc_errf(err, ENOMEM, "out of memory");
	rc_ssh_result_free(&res);
	return rc;
}

static int sonic_connect(void *p, const struct rc_device *dev, const struct rc_run_opts *opts,
			 bool alt, struct rc_err *err)
{
	struct rc_session *s = p;

	(void)alt; /* SSH is SONiC's one transport */
	s->dev = dev;
	if (opts)
		s->opts = *opts;
	return rc_ssh_open(dev, opts, &s->ssh, err);
}

static int sonic_open(const struct rc_device *dev, const struct rc_run_opts *opts,
		      struct rc_session **out, struct rc_err *err)
{
	static const struct rc_switch_dialect sonic = {"SONiC", "port name", sonic_name_ok};
	void *s;
	int rc = rc_switch_open(dev, opts, &sonic, sizeof(**out), sonic_connect, false, &s, err);

	*out = s;
	return rc;
}

static void sonic_close(struct rc_session *s)
{
	if (!s)
		return;
	rc_ssh_close(s->ssh);
	cJSON_Delete(s->cfg);
	cJSON_Delete(s->appl);
	cJSON_Delete(s->startup);
	rc_port_memo_free(&s->read);
	rc_switch_lldp_drop(&s->lldp);
	free(s->counters_text);
	free(s);
}

/* PFC and the cable length make buffermgrd re-carve the port's lossless buffers, which
 * drops what is queued on the port at that moment. */
static const struct rc_driver sonic_ssh_driver = {
    .name = "sonic-ssh",
    .disruptive = RC_F_PFC | RC_F_CABLE,
    .open = sonic_open,
    .read = sonic_read,
    .apply = sonic_apply,
    .counters = sonic_counters,
    .close = sonic_close,
    .check = sonic_check,
    .neighbors = sonic_neighbors,
    .snapshot = sonic_snapshot,
    .restore_derived = sonic_restore_derived,
    .found_unsaved = sonic_found_unsaved,
    .device_version = rc_tap_device_version,
};

RC_DRIVER_REGISTER(sonic_ssh_driver)
