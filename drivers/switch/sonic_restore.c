/* SPDX-License-Identifier: Apache-2.0 */
/* The sonic-ssh driver's native snapshot and restore: GCU stages nothing, so the values
 * are restored by value; the snapshot says which buffer profiles buffermgrd derived before
 * the run (sonic_derived.c) and holds the saved configuration as it was. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "rocectl/util.h"
#include "sonic_session.h"
#include "switch_common.h"

/* ---- native snapshot: what buffermgrd will derive (sonic_derived.c) ------------------------ */

/* GCU stages nothing and a killed apply's patch is in CONFIG_DB or not at all: the values
 * are restored by value; the snapshot says which profiles existed before the run, and
 * holds the saved configuration as it was (restore_saved). */
int sonic_snapshot(struct rc_session *s, char **blob, struct rc_err *err)
{
	*blob = NULL;
	if (!s->cfg)
		return rc_errf(err, EINVAL, "'%s': nothing was read before the snapshot",
			       s->dev->name);
	*blob = sonic_derived_snapshot(s->cfg, s->startup);
	return *blob ? 0 : rc_errf(err, ENOMEM, "out of memory");
}

static bool refused_profiles(const char *why)
{
	char t[4][RC_NAME_MAX];
	size_t n = sonic_gcu_refused_tables(why, strlen(why), t, 4);

	return n == 1 && !strcmp(t[0], "BUFFER_PROFILE");
}

/* The saved configuration (/etc/sonic/config_db.json), parsed; -EIO when it cannot be read. */
static int fetch_saved(struct rc_session *s, cJSON **db, struct rc_err *err)
{
	static const char cmd[] = "cat /etc/sonic/config_db.json";
	struct rc_ssh_result res;
	char what[RC_NAME_MAX + 64];
	int rc = sonic_read_cmd(s, cmd, &res, err);

	*db = NULL;
	if (rc)
		return rc;
	snprintf(what, sizeof(what), "'%s' on '%s'", cmd, s->dev->name);
	rc = sonic_parse_configdb(res.out, res.out_len, what, db, err);
	rc_ssh_result_free(&res);
	return rc;
}

/* Put the saved configuration back as the snapshot found it.  A restore writes through
 * apply, which saves the running configuration (`config save`, what apply does so that a
 * reload keeps the change); when the run found running and saved different (a change
 * nobody saved), that save replaced the saved configuration with one it never had (fault
 * campaign seed 42039, tests/faults/README.md).  `config save` can only save running, so
 * the file is written back whole, and read back. */
static int restore_saved(struct rc_session *s, const char *blob, struct rc_err *err)
{
	cJSON *want = NULL, *now = NULL;
	struct rc_ssh_result res;
	char *text = NULL, why[300];
	int rc = sonic_derived_startup(blob, &want, err);

	if (rc || !want) /* an older journal, or the file was unreadable then: left as it is */
		return rc;
	rc = fetch_saved(s, &now, err);
	if (!rc && cJSON_Compare(want, now, true))
		goto out;
	cJSON_Delete(now);
	now = NULL;
	if (!rc && !(text = cJSON_Print(want)))
		rc = rc_errf(err, ENOMEM, "out of memory");
	if (!rc)
		rc = sonic_ssh_run(s, "sudo tee /etc/sonic/config_db.json", text, strlen(text),
				   &res, err);
	if (!rc) {
		rc_clean_text(res.err, res.err_len, why, sizeof(why));
		if (res.exit_status != 0)
			rc = rc_errf(err, EIO,
				     "writing /etc/sonic/config_db.json back failed (exit status "
				     "%d)%s%s",
				     res.exit_status, why[0] ? ": " : "", why);
		rc_ssh_result_free(&res);
	}
	if (!rc)
		rc = fetch_saved(s, &now, err);
	if (!rc && !cJSON_Compare(want, now, true)) {
		sonic_config_differences(want, now, why, sizeof(why));
		rc = rc_errf(err, EIO,
			     "/etc/sonic/config_db.json differs from the pre-run one "
			     "after it was written back: %s",
			     why[0] ? why : "the same entries in another shape");
	}
out:
	if (rc)
		rc_err_prefix(err, "the saved configuration is not the pre-run one");
	free(text);
	cJSON_Delete(want);
	cJSON_Delete(now);
	return rc;
}

/* After the values are back: remove the lossless profiles buffermgrd made from the run's
 * values (one patch), then save, as apply does.  GCU's buffer_profile validator refuses a
 * whole-profile removal before the release whose rules allow it (sonic_gate.c, the kit's
 * gcu_field_operation_validators files): there the profile stays, unreferenced, as a
 * value restore by hand would leave it (buffermgrd never deletes one), and the rollback
 * is not failed for it (tests/faults/README.md). */
/* The PORT_QOS_MAP fields apply derives from PFC, as the snapshot found them (the value
 * restore wrote them from the pre-run PFC list: pfcwd_sw_enable 2 where the port had
 * pfc_enable 2 and pfcwd_sw_enable 3,4), then saved as apply saves.  The number of fields
 * put back, or a negative errno. */
static int restore_fields(struct rc_session *s, const cJSON *cfg, const char *blob,
			  struct rc_err *err)
{
	struct sonic_ops ops = {0};
	struct rc_err ignored = {0};
	cJSON *patch = NULL;
	char *text = NULL, why[400];
	int rc = sonic_derived_fields(cfg, blob, &ops, err), n;

	if (!rc && ops.n && !(patch = sonic_render_patch(&ops, cfg, err)))
		rc = -ENOMEM;
	if (patch && !(text = cJSON_PrintUnformatted(patch)))
		rc = rc_errf(err, ENOMEM, "out of memory");
	if (!rc && text &&
	    sonic_gcu(s, SONIC_GCU_APPLY, "sudo config apply-patch " GCU_PATCH_ON_STDIN, text, why,
		      sizeof(why), &ignored))
		rc = rc_errf(err, EIO, "putting back %zu PORT_QOS_MAP field%s failed: %s", ops.n,
			     ops.n == 1 ? "" : "s", why);
	else if (!rc && text &&
		 sonic_gcu(s, SONIC_GCU_APPLY, "sudo config save -y", NULL, why, sizeof(why),
			   &ignored))
		rc = rc_errf(err, EIO, "config save failed: %s", why);
	free(text);
	cJSON_Delete(patch);
	n = (int)ops.n;
	sonic_ops_free(&ops);
	return rc ? rc : n;
}

int sonic_restore_derived(struct rc_session *s, const char *blob, struct rc_err *err)
{
	struct rc_err ignored = {0};
	char *patch = NULL, why[400];
	cJSON *cfg = NULL;
	bool changing = true;
	int rc = sonic_fetch_config(s, &cfg, err), n = 0;

	if (!rc)
		rc = restore_fields(s, cfg, blob, err);
	if (rc > 0) { /* read again: the leftovers are judged on what is there now */
		cJSON_Delete(cfg);
		cfg = NULL;
		rc = sonic_fetch_config(s, &cfg, err);
	}
	if (!rc)
		rc = sonic_derived_leftovers(cfg, blob, &patch, &n, err);
	cJSON_Delete(cfg);
	if (!rc && n) {
		rc =
		    sonic_gcu_run(s, SONIC_GCU_APPLY, "sudo config apply-patch " GCU_PATCH_ON_STDIN,
				  patch, why, sizeof(why), &changing, &ignored);
		if (rc && !changing && refused_profiles(why))
			rc = 0; /* the validator refused before any change: left, unreferenced */
		else if (rc)
			rc = rc_errf(err, EIO,
				     "removing %d lossless profile%s buffermgrd made from the "
				     "run's values failed: %s",
				     n, n == 1 ? "" : "s", why);
		else if (sonic_gcu(s, SONIC_GCU_APPLY, "sudo config save -y", NULL, why,
				   sizeof(why), &ignored))
			rc = rc_errf(err, EIO, "config save failed: %s", why);
	}
	free(patch);
	return rc ? rc : restore_saved(s, blob, err);
}
