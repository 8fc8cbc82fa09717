/* SPDX-License-Identifier: Apache-2.0 */
/* Saved plans (engine/run/plan_file.c) and SHA-256 (engine/util/sha256.c): a plan carries
 * the digest of its canonical body, so that a truncated or edited file is refused with a
 * reason; a plan naming no device or a role instead of a device is refused, because apply
 * turns the plan's names into --limit and would then touch devices it never fingerprinted. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <cJSON.h>
#include <cmocka.h>

#include "rocectl/plan_file.h"
#include "rocectl/fleet.h"
#include "rocectl/util.h"
#include "testutil.h"

static void assert_sha(const char *data, size_t len, const char *hex)
{
	char got[RC_SHA256_HEX_LEN];

	rc_sha256_hex(data, len, got);
	assert_string_equal(got, hex);
}

/* FIPS 180-4's examples (NIST CSRC "SHA256.pdf", "SHA2_Additional.pdf"), and every padding
 * boundary (55, 56, 63, 64, 119, 120 bytes) against Python's hashlib. */
static void test_sha256_vectors(void **unused)
{
	static const char two_blocks[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	static const char long_msg[] =
	    "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopq"
	    "klmnopqrlmnopqrsmnopqrstnopqrstu";
	static const struct {
		size_t n;
		const char *hex;
	} as[] = {
	    {55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"},
	    {56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"},
	    {63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"},
	    {64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"},
	    {119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"},
	    {120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"},
	};
	char *million = malloc(1000000);

	(void)unused;
	assert_sha("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	assert_sha("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	assert_sha(two_blocks, strlen(two_blocks),
		   "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	assert_sha(long_msg, strlen(long_msg),
		   "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
	assert_non_null(million);
	memset(million, 'a', 1000000);
	assert_sha(million, 1000000,
		   "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	for (size_t i = 0; i < sizeof(as) / sizeof(as[0]); i++)
		assert_sha(million, as[i].n, as[i].hex);
	free(million);
}

struct plan_fx {
	char dir[256], path[300], policy[4096], inventory[4096];
	struct rc_device dev[2];
	struct rc_inventory inv;
	struct rc_fleet_dev fdev[2];
	struct rc_fleet f;
};

static int setup(void **state)
{
	struct plan_fx *x = calloc(1, sizeof(*x));
	struct rc_err err = {0};

	if (!x || !rc_test_tmpdir(x->dir, sizeof(x->dir), "plan"))
		return -1;
	snprintf(x->path, sizeof(x->path), "%s/plan.json", x->dir);
	rc_test_path(x->policy, sizeof(x->policy), "policies/roce-lossless.yaml");
	rc_test_path(x->inventory, sizeof(x->inventory), "examples/inventory.yaml");
	snprintf(x->dev[0].name, RC_NAME_MAX, "leaf01");
	snprintf(x->dev[1].name, RC_NAME_MAX, "gpu001");
	x->inv.devices = x->dev;
	x->inv.n_devices = 2;
	x->fdev[0].index = 0;
	x->fdev[1].index = 1;
	x->f.inv = &x->inv;
	x->f.devs = x->fdev;
	x->f.n = 2;
	if (rc_plan_save(x->path, x->policy, x->inventory, &x->f, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return -1;
	}
	*state = x;
	return 0;
}

static int teardown(void **state)
{
	struct plan_fx *x = *state;
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", x->dir);
	free(x);
	return system(cmd) == 0 ? 0 : -1;
}

static void write_text(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* Load, expecting refusal with `why` in the message. */
static void assert_refused(const char *path, const char *why)
{
	struct rc_plan_file p;
	struct rc_err err = {0};

	assert_true(rc_plan_load(path, &p, &err) < 0);
	if (!strstr(err.msg, why))
		fail_msg("'%s' lacks '%s'", err.msg, why);
	assert_null(p.devs);
}

static void test_saved_plan_loads(void **state)
{
	struct plan_fx *x = *state;
	struct rc_plan_file p;
	struct rc_err err = {0};
	char *text = rc_test_slurp_file(x->path, NULL);

	assert_non_null(text);
	assert_non_null(strstr(text, "\"digest\":\t\"sha256:"));
	free(text);
	assert_int_equal(rc_plan_load(x->path, &p, &err), 0);
	assert_int_equal(p.n, 2);
	assert_string_equal(p.devs[0].name, "leaf01");
	assert_string_equal(p.devs[1].name, "gpu001");
	rc_plan_fini(&p);
}

static void test_truncated_or_edited_plan_is_refused(void **state)
{
	struct plan_fx *x = *state;
	size_t len;
	char *text = rc_test_slurp_file(x->path, &len), *fp;

	assert_non_null(text);
	for (size_t cut = 1; cut < len; cut += 7) {
		write_text(x->path, text, len - cut);
		assert_refused(x->path, "");
	}
	write_text(x->path, text, len / 2);
	assert_refused(x->path, "not valid JSON (truncated?)");
	/* one digit of a fingerprint changed */
	fp = strstr(text, "\"fingerprint\":\t\"");
	assert_non_null(fp);
	fp += strlen("\"fingerprint\":\t\"");
	*fp = *fp == '0' ? '1' : '0';
	write_text(x->path, text, len);
	assert_refused(x->path, "does not match its digest: the file was edited or damaged");
	/* something appended */
	write_text(x->path, text, len);
	{
		FILE *f = fopen(x->path, "a");

		assert_non_null(f);
		fputs("{}", f);
		fclose(f);
	}
	assert_refused(x->path, "not valid JSON");
	free(text);
}

/* Rewrite the plan with `edit` applied and a digest recomputed as rocectl would: what a
 * hand edit by someone who knows the format gives. */
static void rewrite(const char *path, void (*edit)(cJSON *o))
{
	char *text = rc_test_slurp_file(path, NULL), *body, *out, hex[RC_SHA256_HEX_LEN];
	char digest[80];
	cJSON *o;

	assert_non_null(text);
	o = cJSON_Parse(text);
	free(text);
	assert_non_null(o);
	cJSON_DeleteItemFromObjectCaseSensitive(o, "digest");
	edit(o);
	body = cJSON_PrintUnformatted(o);
	rc_sha256_hex(body, strlen(body), hex);
	snprintf(digest, sizeof(digest), "sha256:%s", hex);
	cJSON_AddStringToObject(o, "digest", digest);
	out = cJSON_Print(o);
	write_text(path, out, strlen(out));
	free(body);
	free(out);
	cJSON_Delete(o);
}

static void no_devices(cJSON *o)
{
	cJSON_ReplaceItemInObjectCaseSensitive(o, "devices", cJSON_CreateArray());
}

static void first_is_spine(cJSON *o)
{
	cJSON *d = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(o, "devices"), 0);

	cJSON_ReplaceItemInObjectCaseSensitive(d, "device", cJSON_CreateString("spine"));
}

static void second_is_host(cJSON *o)
{
	cJSON *d = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(o, "devices"), 1);

	cJSON_ReplaceItemInObjectCaseSensitive(d, "device", cJSON_CreateString("host"));
}

static void first_is_switch(cJSON *o)
{
	cJSON *d = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(o, "devices"), 0);

	cJSON_ReplaceItemInObjectCaseSensitive(d, "device", cJSON_CreateString("switch"));
}

static void twice(cJSON *o)
{
	cJSON *d = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(o, "devices"), 1);

	cJSON_ReplaceItemInObjectCaseSensitive(d, "device", cJSON_CreateString("leaf01"));
}

static void old_schema(cJSON *o)
{
	cJSON_ReplaceItemInObjectCaseSensitive(o, "schema", cJSON_CreateString("rocectl.plan/v1"));
}

static void nothing(cJSON *o)
{
	(void)o;
}

static void test_hand_edited_device_list_is_refused(void **state)
{
	struct plan_fx *x = *state;
	struct rc_plan_file p;
	struct rc_err err = {0};

	rewrite(x->path, nothing); /* the test's digest is the real one */
	assert_int_equal(rc_plan_load(x->path, &p, &err), 0);
	rc_plan_fini(&p);
	rewrite(x->path, no_devices);
	assert_refused(x->path, "lists no device");
	assert_int_equal(rc_plan_save(x->path, x->policy, x->inventory, &x->f, &err), 0);
	rewrite(x->path, first_is_spine);
	assert_refused(x->path, "device entry #1 is the role 'spine', not a device");
	assert_int_equal(rc_plan_save(x->path, x->policy, x->inventory, &x->f, &err), 0);
	rewrite(x->path, second_is_host);
	assert_refused(x->path, "device entry #2 is the role 'host'");
	assert_int_equal(rc_plan_save(x->path, x->policy, x->inventory, &x->f, &err), 0);
	rewrite(x->path, first_is_switch);
	assert_refused(x->path, "the role 'switch'");
	assert_int_equal(rc_plan_save(x->path, x->policy, x->inventory, &x->f, &err), 0);
	rewrite(x->path, twice);
	assert_refused(x->path, "'leaf01' is listed twice");
	assert_int_equal(rc_plan_save(x->path, x->policy, x->inventory, &x->f, &err), 0);
	rewrite(x->path, old_schema);
	assert_refused(x->path, "older rocectl without a digest");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sha256_vectors),
	    cmocka_unit_test_setup_teardown(test_saved_plan_loads, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_truncated_or_edited_plan_is_refused, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_hand_edited_device_list_is_refused, setup,
					    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
