/* SPDX-License-Identifier: Apache-2.0 */
/* Every JSON Patch the SONiC writer emits, applied to a switch's CONFIG_DB and judged by
 * SONiC's own YANG models ($CONFORMANCE_DIR/sonic/validate-config-db, which runs yanglint).
 *
 * Starting states: the factory CONFIG_DB the switch simulator makes for each SKU of the kit
 * (its binaries run without sshd: switchsim-ctl add, switchsim-cli 'show runningconfiguration
 * all'), then each shipped policy in turn, so that every policy is also applied on top of
 * another one (lossless -> ECN off -> deep buffers -> lossless).  Each patch is built by the
 * driver's writer (sonic_build_ops, sonic_render_patch) from the engine's desired state and
 * diff, as `rocectl apply` does, applied with RFC 6902 semantics, and the result must
 * validate (exit 0; 1 and 2 fail) and read back as the policy.  A deliberately broken state
 * must fail the validator, so that this test can fail. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cJSON.h>
#include <cmocka.h>

#include "../../drivers/switch/sonic.h"
#include "rocectl/desired.h"
#include "rocectl/diff.h"
#include "rocectl/policy.h"

#define N_PORTS 4

static const char *const skus[] = {"Arista-7060X6-64PE-B-O128", "Arista-7260CX3-D108C8",
				   "Mellanox-SN3800-D112C8", "Mellanox-SN4600C-C64",
				   "Mellanox-SN5600-O128"};

/* the order the chain applies the shipped policies in */
static const char *const chain[] = {"roce-lossless.yaml", "pfc-only.yaml", "deep-buffer-spine.yaml",
				    "roce-lossless.yaml"};

static const char *env(const char *name)
{
	const char *v = getenv(name);

	if (!v || !*v)
		fail_msg("%s is not set (run through make conformance)", name);
	return v;
}

static char *slurp_fd(FILE *f, size_t *len)
{
	size_t cap = 1 << 16, n = 0, r;
	char *buf = malloc(cap);

	assert_non_null(buf);
	while ((r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += r;
		if (cap - n - 1 == 0) {
			cap *= 2;
			buf = realloc(buf, cap);
			assert_non_null(buf);
		}
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* The simulator's factory CONFIG_DB of a SKU, without the "bgpraw" string. */
static cJSON *factory_db(const char *sku)
{
	const char *bin = env("BUILD_DIR");
	char dir[] = "/tmp/rocectl-conf-XXXXXX", cmd[4096];
	struct rc_err err = {0};
	cJSON *db = NULL;
	size_t len;
	char *out;
	FILE *p;

	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p '%s/switches' '%s/by-addr' && '%s/sim/switch/switchsim-ctl' --run-dir "
		 "'%s' add sw 127.0.0.1 sonic '%s'",
		 dir, dir, bin, dir, sku);
	if (system(cmd) != 0)
		fail_msg("cannot make the simulator's factory switch: %s", cmd);
	snprintf(cmd, sizeof(cmd),
		 "'%s/sim/switch/switchsim-cli' --run-dir '%s' --switch sw -c 'show "
		 "runningconfiguration all'",
		 bin, dir);
	p = popen(cmd, "r");
	assert_non_null(p);
	out = slurp_fd(p, &len);
	if (pclose(p) != 0)
		fail_msg("'%s' failed", cmd);
	if (sonic_parse_configdb(out, len, sku, &db, &err))
		fail_msg("%s: %s", sku, err.msg);
	free(out);
	cJSON_DeleteItemFromObjectCaseSensitive(db, "bgpraw");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	return db;
}

/* ---- RFC 6902 on a CONFIG_DB (objects only, as GCU's patches are) ----------------------- */

static void unescape(char *tok)
{
	char *w = tok;

	for (char *r = tok; *r; r++) {
		if (*r == '~' && (r[1] == '0' || r[1] == '1')) {
			*w++ = r[1] == '0' ? '~' : '/';
			r++;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
}

static void apply_op(cJSON *db, const cJSON *op)
{
	const char *kind = cJSON_GetStringValue(cJSON_GetObjectItem(op, "op"));
	const char *path = cJSON_GetStringValue(cJSON_GetObjectItem(op, "path"));
	const cJSON *value = cJSON_GetObjectItem(op, "value");
	char buf[1024], *tok[4], *save = NULL;
	cJSON *parent = db, *cur;
	int n = 0;

	if (!kind || !path || path[0] != '/' || strlen(path) >= sizeof(buf))
		fail_msg("not a patch operation");
	snprintf(buf, sizeof(buf), "%s", path + 1);
	for (char *t = strtok_r(buf, "/", &save); t && n < 4; t = strtok_r(NULL, "/", &save)) {
		unescape(t);
		tok[n++] = t;
	}
	if (n < 1 || n > 3)
		fail_msg("%s: CONFIG_DB paths are /TABLE[/KEY[/FIELD]]", path);
	for (int i = 0; i < n - 1; i++) {
		parent = cJSON_GetObjectItemCaseSensitive(parent, tok[i]);
		if (!cJSON_IsObject(parent))
			fail_msg("%s %s: member '%s' not found", kind, path, tok[i]);
	}
	cur = cJSON_GetObjectItemCaseSensitive(parent, tok[n - 1]);
	if (!strcmp(kind, "remove") || !strcmp(kind, "replace")) {
		if (!cur)
			fail_msg("%s %s: can't %s a non-existent object", kind, path, kind);
		cJSON_DeleteItemFromObjectCaseSensitive(parent, tok[n - 1]);
		if (!strcmp(kind, "remove"))
			return;
	} else if (strcmp(kind, "add")) {
		fail_msg("%s: unexpected operation '%s'", path, kind);
	} else if (cur) {
		cJSON_DeleteItemFromObjectCaseSensitive(parent, tok[n - 1]);
	}
	if (!value)
		fail_msg("%s %s: no value", kind, path);
	cJSON_AddItemToObject(parent, tok[n - 1], cJSON_Duplicate(value, 1));
}

/* GCU refuses a result with an empty table or entry (they do not exist in Redis). */
static void no_empty(const cJSON *db)
{
	const cJSON *t, *e;

	cJSON_ArrayForEach(t, db)
	{
		if (!cJSON_IsObject(t) || !t->child)
			fail_msg("table %s is empty or not an object", t->string);
		cJSON_ArrayForEach(e, t) if (!cJSON_IsObject(e) || !e->child)
		    fail_msg("%s|%s is empty or not an object", t->string, e->string);
	}
}

/* ---- the validator ---------------------------------------------------------------------- */

/* Its exit status on `db`; stderr (yanglint's message) in *why. */
static int validate(const cJSON *db, char *why, size_t why_len)
{
	char file[] = "/tmp/rocectl-configdb-XXXXXX", errf[64], cmd[2048];
	char *text = cJSON_Print(db);
	FILE *f;
	int fd, st;

	assert_non_null(text);
	fd = mkstemp(file);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	free(text);
	snprintf(errf, sizeof(errf), "%s.err", file);
	snprintf(cmd, sizeof(cmd),
		 "python3 '%s/sonic/validate-config-db' --ignore-unknown '%s' >'%s' 2>&1",
		 env("CONFORMANCE_DIR"), file, errf);
	st = system(cmd);
	why[0] = '\0';
	if ((f = fopen(errf, "r"))) {
		size_t n = fread(why, 1, why_len - 1, f);

		why[n] = '\0';
		fclose(f);
	}
	unlink(file);
	unlink(errf);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st);
}

static void expect_valid(const cJSON *db, const char *what)
{
	char why[2048];
	int st = validate(db, why, sizeof(why));

	if (st != 0)
		fail_msg("%s: validate-config-db exit %d: %s", what, st, why);
}

/* ---- the writer, as apply drives it ----------------------------------------------------- */

/* Four ports: the first two, the first of another speed (if any), the last. */
static size_t pick_ports(const cJSON *db, const char **ports)
{
	const cJSON *t = cJSON_GetObjectItem(db, "PORT"), *e, *first = NULL, *other = NULL;
	const cJSON *last = NULL;
	size_t n = 0;

	cJSON_ArrayForEach(e, t)
	{
		const char *sp = cJSON_GetStringValue(cJSON_GetObjectItem(e, "speed"));

		if (!first)
			first = e;
		else if (!other && sp &&
			 strcmp(sp, cJSON_GetStringValue(cJSON_GetObjectItem(first, "speed"))))
			other = e;
		if (n < 2)
			ports[n++] = e->string;
		last = e;
	}
	if (other && strcmp(other->string, ports[1]))
		ports[n++] = other->string;
	if (last && strcmp(last->string, ports[n - 1]))
		ports[n++] = last->string;
	return n;
}

/* Read the ports of db, want the policy, write the difference: returns the patch.  With
 * `rebind` (a map table GCU cannot patch), the ports are bound to an existing map instead,
 * as the driver does after such a dry run (sonic_rebind_map). */
static cJSON *policy_patch_as(const cJSON *db, const struct rc_policy *pol,
			      const struct sonic_rows *rows, const char **ports, size_t n,
			      uint32_t *left, const char *what, const char *rebind)
{
	char bound[128];
	struct port_qos have[N_PORTS], want[N_PORTS];
	struct sonic_port_info info[N_PORTS];
	struct rc_port_write w[N_PORTS];
	struct sonic_peer peers[N_PORTS];
	struct sonic_ops ops;
	struct rc_err err = {0};
	cJSON *patch;

	*left = 0;
	for (size_t i = 0; i < n; i++) {
		struct rc_changes ch = {0};
		int64_t m;

		if (sonic_parse_port(db, NULL, ports[i], &have[i], &info[i], &err))
			fail_msg("%s %s: %s", what, ports[i], err.msg);
		sonic_effect_pfcwd(&info[i], ports[i], &have[i]);
		if (rc_desired_port(pol, NULL, 0, ports[i], RC_DEV_SWITCH, have[i].speed_gbps,
				    &want[i], &err))
			fail_msg("%s %s: %s", what, ports[i], err.msg);
		/* the driver writes lengths rounded up to the SKU's next row */
		want[i].cable_length_m =
		    sonic_row_up(rows, have[i].speed_gbps * 1000, want[i].cable_length_m, NULL);
		assert_true(want[i].cable_length_m > 0);
		m = rc_diff_port(ports[i], &want[i], &have[i], pol->tolerance_pct, 0, &ch);
		rc_changes_free(&ch);
		assert_true(m >= 0);
		/* headroom is buffermgrd's, derived from the cable length and PFC written here */
		w[i] = (struct rc_port_write){ports[i], &want[i], &have[i],
					      (uint32_t)m & ~(uint32_t)RC_F_HEADROOM};
		*left |= w[i].fields;
		peers[i] = (struct sonic_peer){ports[i], &info[i]};
	}
	if (sonic_build_ops(db, w, info, n, peers, n, &ops, &err))
		fail_msg("%s: the writer refused: %s", what, err.msg);
	if (rebind && sonic_rebind_map(db, w, info, n, rebind, &ops, bound, sizeof(bound), &err))
		fail_msg("%s: re-binding %s failed: %s", what, rebind, err.msg);
	patch = sonic_render_patch(&ops, db, &err);
	if (!patch)
		fail_msg("%s: %s", what, err.msg);
	sonic_ops_free(&ops);
	return patch;
}

static cJSON *policy_patch(const cJSON *db, const struct rc_policy *pol,
			   const struct sonic_rows *rows, const char **ports, size_t n,
			   uint32_t *left, const char *what)
{
	return policy_patch_as(db, pol, rows, ports, n, left, what, NULL);
}

static void load_rows(const char *sku, struct sonic_rows *rows)
{
	char path[1024], *text;
	struct rc_err err = {0};
	size_t len;
	FILE *f;

	snprintf(path, sizeof(path), "%s/sonic/skus/%s/pg_profile_lookup.ini",
		 env("CONFORMANCE_DIR"), sku);
	if (!(f = fopen(path, "r")))
		fail_msg("missing artifact %s", path);
	text = slurp_fd(f, &len);
	fclose(f);
	if (sonic_parse_lookup(text, len, path, rows, &err))
		fail_msg("%s", err.msg);
	free(text);
}

static void load_policy(const char *name, struct rc_policy *pol)
{
	char path[1024];
	struct rc_err err = {0};

	snprintf(path, sizeof(path), "%s/policies/%s", env("SRC_DIR"), name);
	if (rc_policy_load(path, pol, NULL, &err))
		fail_msg("%s: %s", path, err.msg);
}

static void test_patches_validate(void **state)
{
	static struct sonic_rows rows;
	(void)state;

	for (size_t k = 0; k < sizeof(skus) / sizeof(skus[0]); k++) {
		cJSON *db = factory_db(skus[k]);
		const char *ports[N_PORTS];
		size_t n = pick_ports(db, ports);
		char what[256];

		load_rows(skus[k], &rows);
		snprintf(what, sizeof(what), "%s factory", skus[k]);
		expect_valid(db, what);
		for (size_t c = 0; c < sizeof(chain) / sizeof(chain[0]); c++) {
			struct rc_policy pol;
			uint32_t fields, again;
			cJSON *patch, *check, *op;

			memset(&pol, 0, sizeof(pol));
			load_policy(chain[c], &pol);
			snprintf(what, sizeof(what), "%s, step %zu (%s)", skus[k], c + 1, chain[c]);
			patch = policy_patch(db, &pol, &rows, ports, n, &fields, what);
			if (!fields || !cJSON_GetArraySize(patch))
				fail_msg("%s: nothing to write; the chain must change something",
					 what);
			cJSON_ArrayForEach(op, patch) apply_op(db, op);
			cJSON_Delete(patch);
			no_empty(db);
			expect_valid(db, what);
			/* and the switch now reads as the policy: nothing left to write */
			check = policy_patch(db, &pol, &rows, ports, n, &again, what);
			if (again || cJSON_GetArraySize(check)) {
				char *s = cJSON_PrintUnformatted(check);

				fail_msg("%s: after the patch, groups %#x still differ: %s", what,
					 again, s);
			}
			cJSON_Delete(check);
		}
		cJSON_Delete(db);
	}
}

/* Where GCU cannot patch DSCP_TO_TC_MAP (an RDMA SKU, commit-2e9e81c1-gcu-4219.message.txt),
 * the driver binds the ports to an existing map that fits: that patch touches no map table,
 * validates, and the ports then read as the policy.  A map that does not fit every DSCP the
 * policy names is not used. */
static void test_rebind_patches_validate(void **state)
{
	static struct sonic_rows rows;
	(void)state;

	for (size_t k = 0; k < sizeof(skus) / sizeof(skus[0]); k++) {
		cJSON *db = factory_db(skus[k]);
		cJSON *maps = cJSON_GetObjectItem(db, "DSCP_TO_TC_MAP"), *roce, *patch, *op;
		const char *ports[N_PORTS];
		size_t n = pick_ports(db, ports);
		struct rc_policy pol;
		uint32_t fields, again;
		char what[256];

		assert_non_null(maps);
		load_rows(skus[k], &rows);
		memset(&pol, 0, sizeof(pol));
		load_policy("roce-lossless.yaml", &pol);
		snprintf(what, sizeof(what), "%s re-bound", skus[k]);
		/* a half-fitting map first (CNP DSCP 48 elsewhere), then a fitting one */
		roce = cJSON_AddObjectToObject(maps, "HALF");
		cJSON_AddStringToObject(roce, "26", "3");
		cJSON_AddStringToObject(roce, "48", "5");
		roce = cJSON_AddObjectToObject(maps, "ROCE");
		cJSON_AddStringToObject(roce, "26", "3");
		cJSON_AddStringToObject(roce, "48", "6");
		expect_valid(db, what);
		patch = policy_patch_as(db, &pol, &rows, ports, n, &fields, what, "DSCP_TO_TC_MAP");
		cJSON_ArrayForEach(op, patch)
		{
			const char *path = cJSON_GetStringValue(cJSON_GetObjectItem(op, "path"));

			if (path && !strncmp(path, "/DSCP_TO_TC_MAP", 15))
				fail_msg("%s: the patch edits a map: %s", what, path);
			apply_op(db, op);
		}
		cJSON_Delete(patch);
		no_empty(db);
		expect_valid(db, what);
		for (size_t i = 0; i < n; i++) {
			const cJSON *pqm =
			    cJSON_GetObjectItem(cJSON_GetObjectItem(db, "PORT_QOS_MAP"), ports[i]);

			assert_string_equal(
			    cJSON_GetStringValue(cJSON_GetObjectItem(pqm, "dscp_to_tc_map")),
			    "ROCE");
		}
		patch = policy_patch(db, &pol, &rows, ports, n, &again, what);
		if (again || cJSON_GetArraySize(patch))
			fail_msg("%s: after the re-binding, groups %#x still differ", what, again);
		cJSON_Delete(patch);
		cJSON_Delete(db);
	}
}

/* The validator is no rubber stamp: a state the writer never makes fails it. */
static void test_broken_state_fails(void **state)
{
	cJSON *db = factory_db("Mellanox-SN5600-O128");
	cJSON *pqm = cJSON_GetObjectItem(cJSON_GetObjectItem(db, "PORT_QOS_MAP"), "Ethernet0");
	char why[2048];
	(void)state;

	assert_non_null(pqm);
	expect_valid(db, "SN5600 factory");
	cJSON_ReplaceItemInObject(pqm, "pfc_enable", cJSON_CreateString("3,9"));
	assert_int_equal(validate(db, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "pfc_enable"));
	cJSON_Delete(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_broken_state_fails),
	    cmocka_unit_test(test_patches_validate),
	    cmocka_unit_test(test_rebind_patches_validate),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
