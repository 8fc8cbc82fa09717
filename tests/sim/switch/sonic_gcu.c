/* SPDX-License-Identifier: Apache-2.0 */
/* SONiC's "config" group: the Generic Config Updater (apply-patch, replace, checkpoint,
 * rollback, list-checkpoints, delete-checkpoint; SONiC's Generic Config Update design and
 * sonic-utilities generic_config_updater), save, and qos reload.
 *
 * apply-patch follows GCU's pipeline and log lines: simulate the target, check the field
 * operations against the platform's gate (rdma_config_update_validator), refuse empty
 * tables, validate the target (YANG), sort into changes, apply them one by one, verify.
 * --dry-run runs every check and changes nothing.  Patch and config files are read from
 * stdin: the path must be /dev/stdin (or "-"); nothing is written to the real filesystem. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sonic.h"

struct opts {
	bool dry, verbose, time;
	const char *format;
	int npos;
	const char *pos[4];
};

static const char *usage_of(const char *sub)
{
	if (!strcmp(sub, "apply-patch"))
		return "[OPTIONS] PATCH_FILE_PATH";
	if (!strcmp(sub, "replace"))
		return "[OPTIONS] TARGET_FILE_PATH";
	if (!strcmp(sub, "checkpoint") || !strcmp(sub, "rollback") ||
	    !strcmp(sub, "delete-checkpoint"))
		return "[OPTIONS] CHECKPOINT_NAME";
	if (!strcmp(sub, "qos"))
		return "[OPTIONS] COMMAND [ARGS]...";
	return "[OPTIONS]";
}

/* click's ctx.fail(): usage, a hint, the error; exit status 2. */
static int click_fail(struct sn_cli *c, const char *sub, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int click_fail(struct sn_cli *c, const char *sub, const char *fmt, ...)
{
	va_list ap;
	if (sub)
		fprintf(c->err,
			"Usage: config %s %s\nTry \"config %s -h\" for help.\n\nError: ", sub,
			usage_of(sub), sub);
	else
		fprintf(c->err, "Usage: config [OPTIONS] COMMAND [ARGS]...\nTry \"config -h\" for "
				"help.\n\nError: ");
	va_start(ap, fmt);
	vfprintf(c->err, fmt, ap);
	va_end(ap);
	fputc('\n', c->err);
	return 2;
}

/* "Failed to X due to: REASON" (click.secho to stderr), then ctx.fail(REASON). */
static int gcu_fail(struct sn_cli *c, const char *sub, const char *what, const char *reason)
{
	fprintf(c->err, "Failed to %s due to: %s\n", what, reason);
	return click_fail(c, sub, "%s", reason);
}

static int parse_opts(struct sn_cli *c, const char *sub, int argc, char **argv, int want,
		      struct opts *o)
{
	memset(o, 0, sizeof(*o));
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-d") || !strcmp(a, "--dry-run"))
			o->dry = true;
		else if (!strcmp(a, "-v") || !strcmp(a, "--verbose"))
			o->verbose = true;
		else if (!strcmp(a, "-t") || !strcmp(a, "--time"))
			o->time = true;
		else if (!strcmp(a, "-p") || !strcmp(a, "--parallel") || !strcmp(a, "-n") ||
			 !strcmp(a, "--ignore-non-yang-tables"))
			;
		else if ((!strcmp(a, "-f") || !strcmp(a, "--format")) && i + 1 < argc)
			o->format = argv[++i];
		else if ((!strcmp(a, "-i") || !strcmp(a, "--ignore-path")) && i + 1 < argc)
			i++;
		else if (a[0] == '-' && a[1])
			return -click_fail(c, sub, "No such option: %s", a);
		else if (o->npos < 4)
			o->pos[o->npos++] = a;
		else
			return -click_fail(c, sub, "Got unexpected extra argument (%s)", a);
	}
	if (o->npos < want) {
		const char *u = usage_of(sub);
		const char *name = strrchr(u, ' ');
		return -click_fail(c, sub, "Missing argument \"%s\".", name ? name + 1 : "ARG");
	}
	if (o->npos > want)
		return -click_fail(c, sub, "Got unexpected extra argument (%s)", o->pos[want]);
	if (o->format && strcmp(o->format, "CONFIGDB") != 0) {
		if (!strcmp(o->format, "SONICYANG"))
			return -click_fail(c, sub, "the simulated GCU takes CONFIGDB format only");
		return -click_fail(c, sub,
				   "Invalid value for \"-f\" / \"--format\": invalid choice: %s. "
				   "(choose from CONFIGDB, SONICYANG)",
				   o->format);
	}
	return 0;
}

static void dry_banner(struct sn_cli *c, const struct opts *o)
{
	if (o->dry)
		fprintf(c->out, "** DRY RUN EXECUTION **\n");
}

static void glog(struct sn_cli *c, const char *who, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void glog(struct sn_cli *c, const char *who, const char *fmt, ...)
{
	va_list ap;
	fprintf(c->out, "%s: %s: ", who, SN_SCOPE);
	va_start(ap, fmt);
	vfprintf(c->out, fmt, ap);
	va_end(ap);
	fputc('\n', c->out);
}

/* The contents of PATH: stdin for /dev/stdin or "-"; any other path does not exist. */
int sn_read_input(struct sn_cli *c, const char *path, cJSON **out, struct sbuf *err)
{
	if (strcmp(path, "/dev/stdin") != 0 && strcmp(path, "-") != 0) {
		sb_addf(err, "[Errno 2] No such file or directory: '%s'", path);
		return -1;
	}
	struct sbuf data;
	sb_init(&data);
	sb_addn(&data, "", 0);
	char buf[8192];
	size_t n;
	while (c->ctx->in && (n = fread(buf, 1, sizeof(buf), c->ctx->in)) > 0) {
		if (data.len + n > SN_FILE_MAX) {
			sb_free(&data);
			sb_addf(err, "'%s' is larger than %d bytes", path, SN_FILE_MAX);
			return -1;
		}
		sb_addn(&data, buf, n);
	}
	*out = cJSON_ParseWithLength(data.buf, data.len);
	if (!*out) {
		/* python's json.loads() wording, with the position cJSON stopped at */
		const char *at = cJSON_GetErrorPtr();
		size_t off =
		    at && at >= data.buf && at <= data.buf + data.len ? (size_t)(at - data.buf) : 0;
		int line = 1, col = 1;
		for (size_t i = 0; i < off; i++, col++)
			if (data.buf[i] == '\n') {
				line++;
				col = 0;
			}
		sb_addf(err, "Expecting value: line %d column %d (char %zu)", line, col, off);
		sb_free(&data);
		return -1;
	}
	sb_free(&data);
	return 0;
}

/* gu_common's forbidden operations: PFC_WD's GLOBAL entry and its POLL_INTERVAL cannot be
 * removed. */
static int gate(const cJSON *cur, const cJSON *target, struct sbuf *err)
{
	const char *wd[] = {"PFC_WD", "GLOBAL"};
	const cJSON *gc = jget(cur, wd, 2), *gt = jget(target, wd, 2);
	if (gc && !gt && jget1(target, "PFC_WD")) {
		sb_adds(err, "Given patch operation is invalid. Operation: remove is illegal on "
			     "field: /PFC_WD/GLOBAL");
		return -1;
	}
	if (jget1(gc, "POLL_INTERVAL") && gt && !jget1(gt, "POLL_INTERVAL")) {
		sb_adds(err, "Given patch operation is invalid. Operation: remove is illegal on "
			     "field: /PFC_WD/GLOBAL/POLL_INTERVAL");
		return -1;
	}
	return 0;
}

/* ---- Patch Applier ---- */

static void log_ops(struct sn_cli *c, const cJSON *ops)
{
	const cJSON *op;
	cJSON_ArrayForEach(op, ops)
	{
		struct sbuf sb;
		sb_init(&sb);
		cJSON *one = cJSON_CreateArray();
		cJSON_AddItemToArray(one, cJSON_Duplicate(op, true));
		sn_print_compact(&sb, one);
		glog(c, "Patch Applier", "  * %s", sb_str(&sb));
		cJSON_Delete(one);
		sb_free(&sb);
	}
}

/* Apply a patch the way GCU does; on success (not dry) CONFIG_DB is the target and
 * buffermgrd has followed.  0, or -1 with the reason. */
static int patch_applier(struct sn_cli *c, const cJSON *patch, bool dry, struct sbuf *err)
{
	struct sn_sw *sw = &c->sw;
	struct sbuf sb;
	sb_init(&sb);
	sn_print_compact(&sb, patch);
	glog(c, "Patch Applier", "Patch application starting.");
	glog(c, "Patch Applier", "Patch: %s", sb_str(&sb));
	sb_free(&sb);
	glog(c, "Patch Applier", "Getting current config db.");
	cJSON *cur = sw->db;
	glog(c, "Patch Applier", "Simulating the target full config after applying the patch.");
	cJSON *target = cJSON_Duplicate(cur, true);
	if (jpatch_apply(&target, patch, err) < 0) {
		cJSON_Delete(target);
		return -1;
	}
	glog(c, "Patch Applier",
	     "Validating all JsonPatch operations are permitted on the specified fields");
	if (gate(cur, target, err) < 0 || sn_gate_patch(sw, cur, target, err) < 0) {
		cJSON_Delete(target);
		return -1;
	}
	glog(c, "Patch Applier",
	     "Validating target config does not have empty tables, since they "
	     "do not show up in ConfigDb.");
	const cJSON *t;
	struct sbuf empty;
	sb_init(&empty);
	int nempty = 0;
	cJSON_ArrayForEach(t, target)
	{
		if (cJSON_IsObject(t) && !t->child) {
			sb_addf(&empty, "%s%s", nempty ? ", " : "", t->string);
			nempty++;
		}
	}
	if (nempty) {
		sb_addf(err,
			"Given patch is not valid because it will result in empty tables which is "
			"not allowed in ConfigDb. Table%s: %s",
			nempty == 1 ? "" : "s", sb_str(&empty));
		sb_free(&empty);
		cJSON_Delete(target);
		return -1;
	}
	sb_free(&empty);
	glog(c, "Patch Applier", "Sorting patch updates.");
	struct sbuf why;
	sb_init(&why);
	if (sn_validate(sw, target, &why) < 0) {
		sb_addf(err, "Given patch will produce invalid config. Error: %s", sb_str(&why));
		sb_free(&why);
		cJSON_Delete(target);
		return -1;
	}
	sb_free(&why);
	if (sn_rdma_maps(sw, cur, target, err) < 0) {
		cJSON_Delete(target);
		return -1;
	}
	cJSON *ops = cJSON_CreateArray();
	jpatch_diff(cur, target, ops);
	int n = cJSON_GetArraySize(ops);
	glog(c, "Patch Applier", "The patch was sorted into %d change%s%s", n, n == 1 ? "" : "s",
	     n ? ":" : ".");
	log_ops(c, ops);
	glog(c, "Patch Applier", "Applying %d change%s in order%s", n, n == 1 ? "" : "s",
	     n ? ":" : ".");
	log_ops(c, ops);
	int rc = 0;
	if (!dry) {
		cJSON *work = cJSON_Duplicate(cur, true);
		/* reject-next: the change applier fails half way, as when a daemon refuses a
		 * change; what was applied before stays applied (GCU has no transaction) */
		int upto = n;
		if (n > 0 && sim_fault_take_reject(c->ctx))
			upto = n / 2;
		int i = 0;
		const cJSON *op;
		cJSON_ArrayForEach(op, ops)
		{
			if (i++ >= upto)
				break;
			cJSON *one = cJSON_CreateArray();
			cJSON_AddItemToArray(one, cJSON_Duplicate(op, true));
			jpatch_apply(&work, one, err);
			cJSON_Delete(one);
		}
		/* redis cannot hold an empty table: drop what the changes emptied */
		cJSON *tb = work->child, *next;
		for (; tb; tb = next) {
			next = tb->next;
			if (cJSON_IsObject(tb) && !tb->child)
				cJSON_DeleteItemFromObjectCaseSensitive(work, tb->string);
		}
		if (upto < n) {
			sb_reset(err);
			sb_addf(err,
				"change %d of %d was not applied: orchagent rejected it (injected "
				"fault 'reject-next')",
				upto + 1, n);
			rc = -1;
		} else {
			glog(c, "Patch Applier",
			     "Verifying patch updates are reflected on ConfigDB.");
		}
		/* buffermgrd reacts once the changes are in CONFIG_DB */
		sn_commit_direct(sw, work);
		c->ctx->dirty = true;
	} else {
		glog(c, "Patch Applier", "Verifying patch updates are reflected on ConfigDB.");
	}
	if (rc == 0)
		glog(c, "Patch Applier", "Patch application completed.");
	cJSON_Delete(ops);
	cJSON_Delete(target);
	return rc;
}

static bool derived_pg(const cJSON *e)
{
	return strncmp(jstr(e, "profile", ""), "pg_lossless_", 12) == 0;
}

/* buffermgrd owns the lossless PGs and pg_lossless_* profiles: a replace keeps the running
 * ones (the daemon recomputes them from the restored speed, cable length and pfc_enable),
 * so that rolling back an input never needs a gated BUFFER_* edit. */
static void keep_derived(const cJSON *cur, cJSON *target)
{
	const char *const tabs[] = {"BUFFER_PG", "BUFFER_PROFILE"};
	for (int i = 0; i < 2; i++) {
		cJSON *tt = jget1(target, tabs[i]);
		const cJSON *ct = jget1(cur, tabs[i]);
		cJSON *e, *next;
		for (e = tt ? tt->child : NULL; e; e = next) {
			next = e->next;
			bool derived =
			    i == 0 ? derived_pg(e) : strncmp(e->string, "pg_lossless_", 12) == 0;
			if (derived && !jget1(ct, e->string))
				cJSON_DeleteItemFromObjectCaseSensitive(tt, e->string);
		}
		const cJSON *ce;
		cJSON_ArrayForEach(ce, ct)
		{
			bool derived =
			    i == 0 ? derived_pg(ce) : strncmp(ce->string, "pg_lossless_", 12) == 0;
			if (!derived)
				continue;
			if (!tt) {
				tt = cJSON_CreateObject();
				jput(target, tabs[i], tt);
			}
			jput(tt, ce->string, cJSON_Duplicate(ce, true));
		}
	}
}

/* Config Replacer: the patch from the running config to target, through the applier. */
static int config_replacer(struct sn_cli *c, cJSON *target, bool dry, struct sbuf *err)
{
	glog(c, "Config Replacer", "Config replacement starting.");
	glog(c, "Config Replacer", "Target config length: %d.", cJSON_GetArraySize(target));
	glog(c, "Config Replacer", "Getting current config db.");
	glog(c, "Config Replacer", "Generating patch between target config and current config db.");
	if (!cJSON_IsObject(target)) {
		sb_adds(err, "Given target config is not a JSON object");
		return -1;
	}
	keep_derived(c->sw.db, target);
	cJSON *patch = cJSON_CreateArray();
	jpatch_diff(c->sw.db, target, patch);
	glog(c, "Config Replacer", "Applying patch using 'Patch Applier'.");
	int rc = patch_applier(c, patch, dry, err);
	cJSON_Delete(patch);
	if (rc < 0)
		return -1;
	glog(c, "Config Replacer", "Verifying config replacement is reflected on ConfigDB.");
	glog(c, "Config Replacer", "Config replacement completed.");
	return 0;
}

/* ---- commands ---- */

static bool checkpoint_name_ok(const char *s)
{
	return *s && strlen(s) <= 64 &&
	       strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			 "0123456789._-") == strlen(s);
}

static cJSON *checkpoints(struct sn_cli *c)
{
	cJSON *cp = jget1(c->sw.sn, "checkpoints");
	if (!cJSON_IsObject(cp)) {
		cp = cJSON_CreateObject();
		jput(c->sw.sn, "checkpoints", cp);
	}
	return cp;
}

static int cmd_apply_patch(struct sn_cli *c, int argc, char **argv)
{
	struct opts o;
	if (parse_opts(c, "apply-patch", argc, argv, 1, &o) < 0)
		return 2;
	dry_banner(c, &o);
	struct sbuf err;
	sb_init(&err);
	cJSON *patch = NULL;
	int rc = sn_read_input(c, o.pos[0], &patch, &err);
	if (rc == 0 && (rc = patch_applier(c, patch, o.dry, &err)) < 0 &&
	    c->sw.release >= SN_SCOPED_REL) {
		/* the failures of the one scope, as the multi-ASIC front end words them */
		struct sbuf scoped;
		sb_init(&scoped);
		sb_addf(&scoped, "Failed to apply patch on the following scopes:\n- %s: %s",
			SN_SCOPE, sb_str(&err));
		sb_free(&err);
		err = scoped;
	}
	cJSON_Delete(patch);
	if (rc < 0) {
		rc = gcu_fail(c, "apply-patch", "apply patch", sb_str(&err));
		sb_free(&err);
		return rc;
	}
	sb_free(&err);
	fprintf(c->out, "Patch applied successfully.\n");
	return 0;
}

static int cmd_replace(struct sn_cli *c, int argc, char **argv)
{
	struct opts o;
	if (parse_opts(c, "replace", argc, argv, 1, &o) < 0)
		return 2;
	dry_banner(c, &o);
	struct sbuf err;
	sb_init(&err);
	cJSON *target = NULL;
	int rc = sn_read_input(c, o.pos[0], &target, &err);
	if (rc == 0)
		rc = config_replacer(c, target, o.dry, &err);
	cJSON_Delete(target);
	if (rc < 0) {
		rc = gcu_fail(c, "replace", "replace config", sb_str(&err));
		sb_free(&err);
		return rc;
	}
	sb_free(&err);
	fprintf(c->out, "Config replaced successfully.\n");
	return 0;
}

static int cmd_checkpoint(struct sn_cli *c, int argc, char **argv)
{
	struct opts o;
	if (parse_opts(c, "checkpoint", argc, argv, 1, &o) < 0)
		return 2;
	const char *name = o.pos[0];
	dry_banner(c, &o);
	glog(c, "Config Rollbacker", "Config checkpoint starting.");
	glog(c, "Config Rollbacker", "Checkpoint name: %s.", name);
	if (!checkpoint_name_ok(name))
		return gcu_fail(c, "checkpoint", "create a config checkpoint",
				"checkpoint name may hold letters, digits, '.', '_' and '-' only");
	glog(c, "Config Rollbacker", "Getting current config db.");
	glog(c, "Config Rollbacker", "Getting checkpoint full-path.");
	glog(c, "Config Rollbacker", "Ensuring checkpoint directory exist.");
	glog(c, "Config Rollbacker",
	     "Saving config db content to /etc/sonic/checkpoints/%s.cp.json.", name);
	if (!o.dry) {
		cJSON *cp = cJSON_CreateObject();
		jput(cp, "time", cJSON_CreateNumber((double)time(NULL)));
		jput(cp, "config", cJSON_Duplicate(c->sw.db, true));
		jput(checkpoints(c), name, cp);
		c->ctx->dirty = true;
	}
	glog(c, "Config Rollbacker", "Config checkpoint completed.");
	fprintf(c->out, "Checkpoint created successfully.\n");
	return 0;
}

static int cmd_rollback(struct sn_cli *c, int argc, char **argv)
{
	struct opts o;
	if (parse_opts(c, "rollback", argc, argv, 1, &o) < 0)
		return 2;
	const char *name = o.pos[0];
	dry_banner(c, &o);
	glog(c, "Config Rollbacker", "Config rollbacking starting.");
	glog(c, "Config Rollbacker", "Checkpoint name: %s.", name);
	glog(c, "Config Rollbacker", "Verifying '%s' exists.", name);
	cJSON *cp = jget1(checkpoints(c), name);
	if (!checkpoint_name_ok(name) || !cJSON_IsObject(jget1(cp, "config"))) {
		char why[160];
		snprintf(why, sizeof(why), "Checkpoint '%s' does not exist", name);
		return gcu_fail(c, "rollback", "rollback config", why);
	}
	glog(c, "Config Rollbacker", "Loading checkpoint into memory.");
	glog(c, "Config Rollbacker", "Replacing config using 'Config Replacer'.");
	cJSON *target = cJSON_Duplicate(jget1(cp, "config"), true);
	struct sbuf err;
	sb_init(&err);
	int rc = config_replacer(c, target, o.dry, &err);
	cJSON_Delete(target);
	if (rc < 0) {
		rc = gcu_fail(c, "rollback", "rollback config", sb_str(&err));
		sb_free(&err);
		return rc;
	}
	sb_free(&err);
	glog(c, "Config Rollbacker", "Config rollbacking completed.");
	fprintf(c->out, "Config rolled back successfully.\n");
	return 0;
}

static int cmp_cp(const void *a, const void *b)
{
	const cJSON *x = *(const cJSON *const *)a, *y = *(const cJSON *const *)b;
	double tx = cJSON_GetNumberValue(jget1(x, "time")),
	       ty = cJSON_GetNumberValue(jget1(y, "time"));
	if (tx != ty)
		return tx > ty ? -1 : 1;
	return strcmp(x->string, y->string);
}

static int cmd_list(struct sn_cli *c, int argc, char **argv)
{
	struct opts o;
	if (parse_opts(c, "list-checkpoints", argc, argv, 0, &o) < 0)
		return 2;
	cJSON *cps = checkpoints(c), *e;
	int n = cJSON_GetArraySize(cps), i = 0;
	const cJSON **v = calloc((size_t)n + 1, sizeof(*v));
	if (!v)
		abort();
	cJSON_ArrayForEach(e, cps) v[i++] = e;
	qsort(v, (size_t)n, sizeof(*v), cmp_cp);
	cJSON *list = cJSON_CreateArray();
	for (i = 0; i < n; i++) {
		if (!o.time) {
			cJSON_AddItemToArray(list, cJSON_CreateString(v[i]->string));
			continue;
		}
		char ts[40];
		time_t tt = (time_t)cJSON_GetNumberValue(jget1(v[i], "time"));
		struct tm tm;
		gmtime_r(&tt, &tm);
		strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", &tm);
		cJSON *o2 = cJSON_CreateObject();
		cJSON_AddStringToObject(o2, "name", v[i]->string);
		cJSON_AddStringToObject(o2, "time", ts);
		cJSON_AddItemToArray(list, o2);
	}
	free(v);
	struct sbuf sb;
	sb_init(&sb);
	sn_print_json(&sb, list);
	fputs(sb_str(&sb), c->out);
	sb_free(&sb);
	cJSON_Delete(list);
	return 0;
}

static int cmd_delete(struct sn_cli *c, int argc, char **argv)
{
	struct opts o;
	if (parse_opts(c, "delete-checkpoint", argc, argv, 1, &o) < 0)
		return 2;
	const char *name = o.pos[0];
	glog(c, "Config Rollbacker", "Deleting checkpoint starting.");
	glog(c, "Config Rollbacker", "Checkpoint name: %s.", name);
	glog(c, "Config Rollbacker", "Checking checkpoint exists.");
	cJSON *cps = checkpoints(c);
	if (!jget1(cps, name)) {
		char why[160];
		snprintf(why, sizeof(why), "Checkpoint '%s' does not exist", name);
		return gcu_fail(c, "delete-checkpoint", "delete config checkpoint", why);
	}
	glog(c, "Config Rollbacker", "Deleting checkpoint.");
	cJSON_DeleteItemFromObjectCaseSensitive(cps, name);
	c->ctx->dirty = true;
	glog(c, "Config Rollbacker", "Deleting checkpoint completed.");
	fprintf(c->out, "Checkpoint deleted successfully.\n");
	return 0;
}

static int cmd_qos(struct sn_cli *c, int argc, char **argv)
{
	if (argc < 3)
		return click_fail(c, "qos", "Missing command.");
	bool reload = !strcmp(argv[2], "reload");
	if (!reload && strcmp(argv[2], "clear") != 0)
		return click_fail(c, "qos", "No such command \"%s\".", argv[2]);
	for (int i = 3; i < argc; i++)
		if (strcmp(argv[i], "--no-dynamic-buffer") != 0 && strcmp(argv[i], "-y") != 0)
			return click_fail(c, "qos",
					  "the simulator takes 'qos reload' and 'qos "
					  "clear' without options other than "
					  "--no-dynamic-buffer");
	cJSON *db = cJSON_Duplicate(c->sw.db, true);
	const char *path[] = {"DEVICE_METADATA", "localhost"};
	const cJSON *meta = jget(db, path, 2);
	/* the model in use picks the template: buffers_dynamic.json.j2 or buffers.json.j2 */
	bool dynamic = sn_db_dynamic(db);
	cJSON *fresh = sn_factory_db(c->sw.model, dynamic, jstr(meta, "hostname", "sonic"),
				     jstr(meta, "mac", "00:00:00:00:00:00"));
	for (int i = 0; sn_qos_tables[i]; i++) {
		cJSON *t = cJSON_DetachItemFromObjectCaseSensitive(fresh, sn_qos_tables[i]);
		if (reload && t)
			jput(db, sn_qos_tables[i], t);
		else {
			cJSON_Delete(t);
			cJSON_DeleteItemFromObjectCaseSensitive(db, sn_qos_tables[i]);
		}
	}
	cJSON_Delete(fresh);
	if (reload) {
		fprintf(c->out,
			"Running command: /usr/local/bin/sonic-cfggen -d -t "
			"/usr/share/sonic/device/%s/%s/%s,/tmp/cfg_buffer.json -t "
			"/usr/share/sonic/device/%s/%s/qos.json.j2,/tmp/cfg_qos.json -y "
			"/etc/sonic/sonic_version.yml\n",
			c->sw.model->platform, c->sw.model->name,
			dynamic ? "buffers_dynamic.json.j2" : "buffers.json.j2",
			c->sw.model->platform, c->sw.model->name);
		fprintf(c->out,
			"Running command: /usr/local/bin/sonic-cfggen -j /tmp/cfg_buffer.json "
			"-j /tmp/cfg_qos.json --write-to-db\n");
	}
	/* the tables are rewritten whole: no "before" for buffermgrd to diff against */
	jput(c->sw.sn, "config_db", db);
	c->sw.db = db;
	c->ctx->dirty = true;
	return 0;
}

int sn_config(struct sn_cli *c, int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fprintf(c->out,
			"Usage: config [OPTIONS] COMMAND [ARGS]...\n\n  SONiC command line - "
			"'config' command\n\nCommands:\n  apply-patch        Apply given "
			"patch of updates to Config.\n  checkpoint         Take a checkpoint "
			"of the whole current config with the specified checkpoint name.\n  "
			"delete-checkpoint  Delete a checkpoint with the given name.\n  "
			"list-checkpoints   List the config checkpoints available.\n  qos\n  "
			"replace            Replace the whole config with the specified "
			"config.\n  rollback           Rollback the whole config to the "
			"specified checkpoint.\n  save               Export current config "
			"DB to a file on disk.\n");
		return argc < 2 ? 2 : 0;
	}
	if (!c->ctx->sudo) {
		fprintf(c->err, "Root privileges are required for this operation\n");
		return 1;
	}
	const char *sub = argv[1];
	if (!strcmp(sub, "apply-patch"))
		return cmd_apply_patch(c, argc, argv);
	if (!strcmp(sub, "replace"))
		return cmd_replace(c, argc, argv);
	if (!strcmp(sub, "checkpoint"))
		return cmd_checkpoint(c, argc, argv);
	if (!strcmp(sub, "rollback"))
		return cmd_rollback(c, argc, argv);
	if (!strcmp(sub, "list-checkpoints"))
		return cmd_list(c, argc, argv);
	if (!strcmp(sub, "delete-checkpoint"))
		return cmd_delete(c, argc, argv);
	if (!strcmp(sub, "qos"))
		return cmd_qos(c, argc, argv);
	if (!strcmp(sub, "save")) {
		/* running CONFIG_DB -> /etc/sonic/config_db.json, what a reload loads */
		jput(c->sw.sn, "startup", cJSON_Duplicate(c->sw.db, true));
		c->ctx->dirty = true;
		fprintf(c->out, "Running command: /usr/local/bin/sonic-cfggen -d --print-data > "
				"/etc/sonic/config_db.json\n");
		return 0;
	}
	return click_fail(c, NULL, "No such command \"%s\".", sub);
}
