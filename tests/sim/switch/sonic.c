/* SPDX-License-Identifier: Apache-2.0 */
/* The SONiC dialect's entry points (struct sim_dialect): factory state, the bash-like
 * command dispatch (sonic-db-cli, show, config, sonic-cfggen), drift. */
#include <stdlib.h>
#include <string.h>

#include "sonic.h"

/* model is a HWSKU of sonic_sku.c, "Arista-7060X6-64PE-B-O128" or
 * "Arista-7060X6-64PE-B-O128@202311" (the release branch to imitate, YYYYMM; GCU's gate
 * allows some edits only from a release on, and its rules file follows the release), and
 * "+rdma" at the end for an RDMA SKU whose map tables GCU cannot patch (sonic_gate.c).
 * A Mellanox SKU runs the dynamic buffer model (sonic_dyn.c) unless "+traditional" follows:
 * its directory ships both models' templates (buffers.json.j2 with pg_profile_lookup.ini,
 * and buffers_dynamic.json.j2). */
static int sn_factory_state(cJSON *st, const char *spec, char *err, size_t errlen)
{
	char name[32], model[64];
	long release = SN_RELEASE;
	bool rdma = false, traditional = false;
	size_t sl = strlen(spec);
	for (int k = 0; k < 2; k++) {
		if (sl > 5 && !strncmp(spec + sl - 5, "+rdma", 5)) {
			rdma = true;
			sl -= 5;
		} else if (sl > 12 && !strncmp(spec + sl - 12, "+traditional", 12)) {
			traditional = true;
			sl -= 12;
		}
	}
	snprintf(model, sizeof(model), "%.*s", (int)sl, spec);
	const char *at = strchr(model, '@');
	size_t n = at ? (size_t)(at - model) : strlen(model);
	const struct sn_model *m = NULL;
	if (n < sizeof(name)) {
		memcpy(name, model, n);
		name[n] = '\0';
		m = sn_model_find(name);
	}
	if (!m) {
		struct sbuf l;
		sb_init(&l);
		for (const char *const *k = sn_model_names; *k; k++)
			sb_addf(&l, "%s%s", k == sn_model_names ? "" : ", ", *k);
		snprintf(err, errlen, "unknown SONiC model '%.*s' (%s)", (int)n, model, sb_str(&l));
		sb_free(&l);
		return -1;
	}
	if (at) {
		if (strlen(at + 1) != 6 || !is_uint(at + 1) || atol(at + 1) < 201811 ||
		    atol(at + 1) % 100 < 1 || atol(at + 1) % 100 > 12) {
			snprintf(err, errlen, "bad SONiC release '%s' (YYYYMM, e.g. 202311)",
				 at + 1);
			return -1;
		}
		release = atol(at + 1);
	}
	/* a stable, locally administered MAC from the name */
	unsigned h = 5381;
	for (const char *s = jstr(st, "name", "sonic"); *s; s++)
		h = h * 33 + (unsigned char)*s;
	char mac[32];
	snprintf(mac, sizeof(mac), "02:5c:%02x:%02x:%02x:%02x", (h >> 24) & 0xff, (h >> 16) & 0xff,
		 (h >> 8) & 0xff, h & 0xff);
	char version[48];
	snprintf(version, sizeof(version), "SONiC.%ld.1-switchsim", release);
	jput(st, "model", cJSON_CreateString(m->name));
	jput(st, "version", cJSON_CreateString(version));
	cJSON *sn = cJSON_CreateObject();
	jput(sn, "release", cJSON_CreateNumber((double)release));
	if (rdma)
		jput(sn, "rdma", cJSON_CreateTrue());
	jput(sn, "config_db",
	     sn_factory_db(m, sn_model_dynamic(m) && !traditional, jstr(st, "hostname", "sonic"),
			   mac));
	/* /etc/sonic/config_db.json as shipped: the factory configuration, saved */
	jput(sn, "startup", cJSON_Duplicate(jget1(sn, "config_db"), true));
	jput(sn, "checkpoints", cJSON_CreateObject());
	jput(st, "sonic", sn);
	return 0;
}

static void sn_prompt(const struct sim_ctx *ctx, struct sbuf *out)
{
	sb_addf(out, "%s@%s:~$ ", ctx->user, jstr(ctx->st, "hostname", "sonic"));
}

/* The files a reader of the switch may look at: the saved CONFIG_DB, and the SKU's lookup
 * table under /usr/share/sonic/device/<platform>/<hwsku>/, in the file's own layout
 * (sonic-buildimage device/<vendor>/<platform>/<HWSKU>/pg_profile_lookup.ini, read from
 * $CONFORMANCE_DIR). */
static int sn_cat(struct sn_cli *c, const char *path)
{
	char ini[256];
	snprintf(ini, sizeof(ini), "/usr/share/sonic/device/%s/%s/pg_profile_lookup.ini",
		 c->sw.model->platform, c->sw.model->name);
	if (!strcmp(path, "/etc/sonic/config_db.json")) {
		struct sbuf sb;
		sb_init(&sb);
		sn_print_json(&sb, jget1(c->sw.sn, "startup"));
		fputs(sb_str(&sb), c->out);
		sb_free(&sb);
		return 0;
	}
	if (!strcmp(path, ini)) {
		long off = c->sw.model->xon_offset;

		fprintf(c->out,
			"# PG lossless profiles.\n# speed cable size    xon  xoff threshold%s\n",
			off ? " xon_offset" : "");
		for (size_t i = 0; i < c->sw.model->n_rows; i++) {
			const struct sn_row *r = &c->sw.model->rows[i];
			fprintf(c->out, "%-7ld %ldm %-7ld %-6ld %-7ld 0", r->speed, r->cable_m,
				r->size, r->xon, r->xoff);
			if (off)
				fprintf(c->out, "         %ld", off);
			fputc('\n', c->out);
		}
		return 0;
	}
	fprintf(c->err, "cat: %s: No such file or directory\n", path);
	return 1;
}

/* `tee /etc/sonic/config_db.json`: stdin becomes the saved configuration (what a reload
 * loads), and is copied to stdout as tee does.  The file is root's (sudo).  The simulator
 * keeps the saved configuration as JSON, so anything else is refused (on a switch it would
 * be written, and the next `config reload` would fail on it). */
static int sn_tee(struct sn_cli *c, const char *path)
{
	struct sbuf e;
	cJSON *db = NULL;
	if (strcmp(path, "/etc/sonic/config_db.json") != 0) {
		fprintf(c->err, "tee: %s: Permission denied\n", path);
		return 1;
	}
	if (!c->ctx->sudo) {
		fprintf(c->err, "tee: %s: Permission denied\n", path);
		return 1;
	}
	sb_init(&e);
	if (sn_read_input(c, "-", &db, &e) < 0 || !cJSON_IsObject(db)) {
		fprintf(c->err, "switchsim: tee %s: not a JSON object (%s)\n", path,
			e.len ? sb_str(&e) : "wrong shape");
		sb_free(&e);
		cJSON_Delete(db);
		return 1;
	}
	sb_free(&e);
	jput(c->sw.sn, "startup", db);
	c->ctx->dirty = true;
	struct sbuf sb;
	sb_init(&sb);
	sn_print_json(&sb, db);
	fputs(sb_str(&sb), c->out);
	sb_free(&sb);
	return 0;
}

int sonic_cli(struct sim_ctx *ctx, int argc, char **argv, FILE *out, FILE *err)
{
	struct sn_cli c = {.ctx = ctx, .out = out, .err = err};
	char e[SIM_ERR_MAX];
	if (sn_sw_init(&c.sw, ctx->st, e, sizeof(e)) < 0) {
		fprintf(err, "switchsim: %s\n", e);
		return 255;
	}
	const char *prog = argv[0];
	if (!strcmp(prog, "sonic-db-cli"))
		return sn_db_cli(&c, argc, argv);
	if (!strcmp(prog, "show"))
		return sn_show(&c, argc, argv);
	if (!strcmp(prog, "config"))
		return sn_config(&c, argc, argv);
	if (!strcmp(prog, "sonic-cfggen") && argc == 3 && !strcmp(argv[1], "-d") &&
	    !strcmp(argv[2], "--print-data")) {
		struct sbuf sb;
		sb_init(&sb);
		sn_print_json(&sb, c.sw.db);
		fputs(sb_str(&sb), out);
		sb_free(&sb);
		return 0;
	}
	if (!strcmp(prog, "cat") && argc == 2)
		return sn_cat(&c, argv[1]);
	if (!strcmp(prog, "tee") && argc == 2)
		return sn_tee(&c, argv[1]);
	fprintf(err, "-bash: %s: command not found\n", prog);
	return 127;
}

/* Drift: config:TABLE.KEY.FIELD=VALUE writes CONFIG_DB directly (as sonic-db-cli HSET
 * would: no GCU, no gate, no YANG), and buffermgrd follows.  TABLE.KEY=JSON-object sets a
 * whole entry, an empty VALUE removes the field/entry/table.  A key holding dots
 * (scheduler.0) is found by taking the path's middle elements joined with '.'. */
static int sn_drift(struct sim_ctx *ctx, const char *root, char **path, int n, cJSON *val,
		    char *err, size_t errlen)
{
	struct sn_sw sw;
	if (sn_sw_init(&sw, ctx->st, err, errlen) < 0) {
		cJSON_Delete(val);
		return -1;
	}
	if (!strcmp(root, "counters")) {
		cJSON *base = jget1(ctx->st, "counters");
		if (!cJSON_IsObject(base)) {
			base = cJSON_CreateObject();
			jput(ctx->st, "counters", base);
		}
		if (val)
			jset(base, (const char *const *)path, n, val);
		else
			jdel(base, (const char *const *)path, n);
		ctx->dirty = true;
		return 0;
	}
	if (strcmp(root, "config") != 0) {
		snprintf(err, errlen,
			 "a SONiC switch's state is its CONFIG_DB: drift config:TABLE.KEY.FIELD "
			 "or counters:PORT.pfc.rx.N (no '%s:')",
			 root);
		cJSON_Delete(val);
		return -1;
	}
	if (val && !cJSON_IsObject(val) && !cJSON_IsString(val)) {
		/* CONFIG_DB holds strings: 300000 and true are written as "300000", "true" */
		char *txt = cJSON_PrintUnformatted(val);
		cJSON_Delete(val);
		val = cJSON_CreateString(txt ? txt : "");
		cJSON_free(txt);
	}
	if (cJSON_IsObject(val)) {
		cJSON *f;
		cJSON_ArrayForEach(f, val)
		{
			if (!cJSON_IsString(f)) {
				char *txt = cJSON_PrintUnformatted(f);
				cJSON_ReplaceItemViaPointer(val, f,
							    cJSON_CreateString(txt ? txt : ""));
				cJSON_free(txt);
			}
		}
	}
	struct sbuf key;
	sb_init(&key);
	sb_addn(&key, "", 0);
	cJSON *db = cJSON_Duplicate(sw.db, true);
	const char *field = NULL;
	if (n >= 2) {
		for (int i = 1; i < n; i++)
			sb_addf(&key, "%s%s", i > 1 ? "." : "", path[i]);
		const char *kp[] = {path[0], sb_str(&key)};
		bool whole = n == 2 || (jget(db, kp, 2) && (!val || cJSON_IsObject(val)));
		if (!whole) {
			sb_reset(&key);
			for (int i = 1; i < n - 1; i++)
				sb_addf(&key, "%s%s", i > 1 ? "." : "", path[i]);
			field = path[n - 1];
		}
	}
	int rc = 0;
	if (n == 1) {
		if (val && !cJSON_IsObject(val)) {
			snprintf(err, errlen, "drift: a table's value is a JSON object");
			rc = -1;
		} else if (val) {
			jput(db, path[0], val);
			val = NULL;
		} else {
			jdel(db, (const char *const *)path, 1);
		}
	} else if (!field) {
		const char *kp[] = {path[0], sb_str(&key)};
		if (val && !cJSON_IsObject(val)) {
			snprintf(err, errlen,
				 "drift: an entry's value is a JSON object of strings");
			rc = -1;
		} else if (val) {
			jset(db, kp, 2, val);
			val = NULL;
		} else {
			jdel(db, kp, 2);
		}
	} else {
		const char *fp[] = {path[0], sb_str(&key), field};
		if (cJSON_IsObject(val)) {
			snprintf(err, errlen, "drift: a field's value is a string");
			rc = -1;
		} else if (val) {
			jset(db, fp, 3, val);
			val = NULL;
		} else {
			jdel(db, fp, 3);
		}
	}
	/* redis holds no empty hash or table */
	if (rc == 0 && n >= 2) {
		const char *kp[] = {path[0], sb_str(&key)};
		cJSON *h = jget(db, kp, 2);
		if (cJSON_IsObject(h) && !h->child)
			jdel(db, kp, 2);
		cJSON *t = jget1(db, path[0]);
		if (cJSON_IsObject(t) && !t->child)
			jdel(db, (const char *const *)path, 1);
	}
	sb_free(&key);
	cJSON_Delete(val);
	if (rc < 0) {
		cJSON_Delete(db);
		return -1;
	}
	sn_commit_direct(&sw, db);
	ctx->dirty = true;
	return 0;
}

/* A reload: CONFIG_DB is loaded from /etc/sonic/config_db.json (the last `config save`),
 * and buffermgrd recomputes every port's lossless PGs from it.  Checkpoints are files under
 * /etc/sonic/checkpoints and survive. */
static int sn_reboot(struct sim_ctx *ctx, char *err, size_t errlen)
{
	struct sn_sw sw;
	if (sn_sw_init(&sw, ctx->st, err, errlen) < 0)
		return -1;
	cJSON *startup = jget1(sw.sn, "startup");
	if (!cJSON_IsObject(startup)) {
		snprintf(err, errlen, "no /etc/sonic/config_db.json to load");
		return -1;
	}
	cJSON *db = cJSON_Duplicate(startup, true);
	sn_buffermgrd(sw.model, NULL, db);
	jput(sw.sn, "config_db", db);
	ctx->dirty = true;
	return 0;
}

const struct sim_dialect sonic_dialect = {
    .name = "sonic",
    .rest_base = NULL, /* SONiC is managed over SSH here */
    .default_model = "Arista-7060X6-64PE-B-O128",
    .models = sn_model_names,
    .factory = sn_factory_state,
    .cli = sonic_cli,
    .prompt = sn_prompt,
    .rest = NULL,
    .drift = sn_drift,
    .reboot = sn_reboot,
};
