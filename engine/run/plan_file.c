/* SPDX-License-Identifier: Apache-2.0 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cJSON.h>

#include "rocectl/plan_file.h"
#include "rocectl/util.h"
#include "rocectl/journal.h"

#define PLAN_MAX_BYTES (16u << 20)
/* v2 added the digest; a v1 plan (none) is refused with a reason. */
#define PLAN_SCHEMA   "rocectl.plan/v2"
#define DIGEST_PREFIX "sha256:"

/* "sha256:" + SHA-256 of the canonical body: the plan object without "digest", printed by
 * cJSON without formatting (keys in file order).  Parsing and printing again gives the same
 * bytes, so that load can recompute what save computed.  It detects truncation and edits;
 * it is not a signature: whoever can write the file can recompute it. */
static int body_digest(const cJSON *o, char *out, size_t len, struct rc_err *err)
{
	char *body = cJSON_PrintUnformatted(o);
	char hex[RC_SHA256_HEX_LEN];

	if (!body)
		return rc_errf(err, ENOMEM, "out of memory");
	rc_sha256_hex(body, strlen(body), hex);
	free(body);
	snprintf(out, len, DIGEST_PREFIX "%s", hex);
	return 0;
}

static int add_digest(cJSON *o, struct rc_err *err)
{
	char d[sizeof(DIGEST_PREFIX) + RC_SHA256_HEX_LEN];
	int rc = body_digest(o, d, sizeof(d), err);

	if (!rc && !cJSON_AddStringToObject(o, "digest", d))
		rc = rc_errf(err, ENOMEM, "out of memory");
	return rc;
}

/* Take "digest" out of `o` and compare it with the digest of what remains. */
static int check_digest(const char *path, cJSON *o, struct rc_err *err)
{
	cJSON *item = cJSON_DetachItemFromObjectCaseSensitive(o, "digest");
	const char *have = cJSON_GetStringValue(item);
	char want[sizeof(DIGEST_PREFIX) + RC_SHA256_HEX_LEN];
	int rc;

	if (!have) {
		cJSON_Delete(item);
		return rc_errf(err, EINVAL, "'%s' has no digest; make a new plan", path);
	}
	rc = body_digest(o, want, sizeof(want), err);
	if (!rc && strcmp(have, want))
		rc = rc_errf(err, EINVAL,
			     "'%s' does not match its digest: the file was edited or damaged "
			     "since it was saved; make a new plan",
			     path);
	cJSON_Delete(item);
	return rc;
}

static uint64_t fnv1a(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

#define FNV_INIT 0xcbf29ce484222325ull

uint64_t rc_plan_fingerprint(const struct rc_fleet_dev *d)
{
	uint64_t h = FNV_INIT;

	for (size_t i = 0; i < d->run.n_ports; i++) {
		char *json = rc_port_qos_to_json(&d->run.have[i].qos);

		h = fnv1a(h, d->run.have[i].name, strlen(d->run.have[i].name) + 1);
		if (json)
			h = fnv1a(h, json, strlen(json) + 1);
		free(json);
	}
	return h;
}

int rc_plan_file_hash(const char *path, uint64_t *out, struct rc_err *err)
{
	size_t len;
	char *buf = rc_read_file(path, PLAN_MAX_BYTES, 0, &len, err);

	if (!buf)
		return -EIO;
	*out = fnv1a(FNV_INIT, buf, len);
	free(buf);
	return 0;
}

static void hex(char *buf, size_t len, uint64_t v)
{
	snprintf(buf, len, "%016" PRIx64, v);
}

static cJSON *file_entry(const char *path, struct rc_err *err, int *rc)
{
	char abs[PATH_MAX], h[20];
	uint64_t fp;
	cJSON *o;

	if (!realpath(path, abs)) {
		*rc = rc_errf(err, errno, "cannot resolve '%s': %s", path, strerror(errno));
		return NULL;
	}
	*rc = rc_plan_file_hash(abs, &fp, err);
	if (*rc)
		return NULL;
	o = cJSON_CreateObject();
	hex(h, sizeof(h), fp);
	cJSON_AddStringToObject(o, "path", abs);
	cJSON_AddStringToObject(o, "fingerprint", h);
	return o;
}

int rc_plan_save(const char *path, const char *policy, const char *inventory,
		 const struct rc_fleet *f, struct rc_err *err)
{
	cJSON *o = cJSON_CreateObject(), *devs, *e;
	char h[20];
	char *text;
	int rc = 0;

	cJSON_AddStringToObject(o, "schema", PLAN_SCHEMA);
	if (!(e = file_entry(policy, err, &rc)))
		goto out;
	cJSON_AddItemToObject(o, "policy", e);
	if (!(e = file_entry(inventory, err, &rc)))
		goto out;
	cJSON_AddItemToObject(o, "inventory", e);
	devs = cJSON_AddArrayToObject(o, "devices");
	for (size_t i = 0; i < f->n; i++) {
		const struct rc_fleet_dev *d = &f->devs[i];

		if (d->rc) {
			rc = rc_errf(err, EIO, "cannot save a plan: '%s' could not be read",
				     f->inv->devices[d->index].name);
			goto out;
		}
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "device", f->inv->devices[d->index].name);
		hex(h, sizeof(h), rc_plan_fingerprint(d));
		cJSON_AddStringToObject(e, "fingerprint", h);
		cJSON_AddNumberToObject(e, "changes", d->n_changes);
		cJSON_AddItemToArray(devs, e);
	}
	rc = add_digest(o, err);
	if (rc)
		goto out;
	text = cJSON_Print(o);
	if (!text) {
		rc = rc_errf(err, ENOMEM, "out of memory");
		goto out;
	}
	rc = rc_write_atomic(path, text, strlen(text), 0600, "plan", err);
	free(text);
out:
	cJSON_Delete(o);
	return rc;
}

static int parse_hex(const char *s, uint64_t *v)
{
	if (!s || strlen(s) != 16)
		return -EINVAL;
	return rc_parse_u64(s, 16, 0, UINT64_MAX, v) ? -EINVAL : 0;
}

static int file_of(const cJSON *o, const char *key, char *path, size_t len, uint64_t *fp)
{
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(o, key);
	const char *p = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "path"));

	if (!p || strlen(p) >= len ||
	    parse_hex(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "fingerprint")), fp))
		return -EINVAL;
	memcpy(path, p, strlen(p) + 1);
	return 0;
}

/* A device entry: a safe name, not a role (a role in the --limit apply builds would select
 * devices whose state the plan never fingerprinted), not listed twice. */
static int device_entry(const char *path, const cJSON *e, struct rc_plan_file *p, size_t i,
			struct rc_err *err)
{
	static const char *const roles[] = {"spine", "leaf", "host", "switch"};
	const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "device"));

	if (!name || !rc_name_is_safe(name) || strlen(name) >= RC_NAME_MAX ||
	    parse_hex(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "fingerprint")),
		      &p->devs[i].fingerprint))
		return rc_errf(err, EINVAL, "'%s': device entry #%zu is malformed", path, i + 1);
	for (size_t r = 0; r < sizeof(roles) / sizeof(roles[0]); r++)
		if (!strcmp(name, roles[r]))
			return rc_errf(err, EINVAL,
				       "'%s': device entry #%zu is the role '%s', not a device",
				       path, i + 1, name);
	for (size_t k = 0; k < i; k++)
		if (!strcmp(p->devs[k].name, name))
			return rc_errf(err, EINVAL, "'%s': device '%s' is listed twice", path,
				       name);
	snprintf(p->devs[i].name, sizeof(p->devs[i].name), "%s", name);
	return 0;
}

static int plan_header(const char *path, cJSON *o, struct rc_plan_file *p, struct rc_err *err)
{
	const char *schema = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "schema"));
	int rc;

	if (!o)
		return rc_errf(err, EINVAL,
			       "'%s' is not a rocectl plan file: not valid JSON (truncated?)",
			       path);
	if (schema && !strcmp(schema, "rocectl.plan/v1"))
		return rc_errf(err, EINVAL,
			       "'%s' was saved by an older rocectl without a digest; make a new "
			       "plan",
			       path);
	if (!schema || strcmp(schema, PLAN_SCHEMA))
		return rc_errf(err, EINVAL, "'%s' is not a rocectl plan file (schema %s)", path,
			       PLAN_SCHEMA);
	rc = check_digest(path, o, err);
	if (rc)
		return rc;
	if (file_of(o, "policy", p->policy, sizeof(p->policy), &p->policy_fp) ||
	    file_of(o, "inventory", p->inventory, sizeof(p->inventory), &p->inventory_fp))
		return rc_errf(err, EINVAL, "'%s': the policy or inventory entry is malformed",
			       path);
	return 0;
}

int rc_plan_load(const char *path, struct rc_plan_file *p, struct rc_err *err)
{
	size_t len, i = 0;
	char *text = rc_read_file(path, PLAN_MAX_BYTES, RC_READ_NOFOLLOW | RC_READ_OURS, &len, err);
	const cJSON *devs, *e;
	cJSON *o;
	int rc;

	memset(p, 0, sizeof(*p));
	if (!text)
		return -EIO;
	/* the whole file is one JSON value: no NUL inside, nothing after it */
	o = strlen(text) == len ? cJSON_ParseWithOpts(text, NULL, 1) : NULL;
	free(text);
	rc = plan_header(path, o, p, err);
	devs = cJSON_GetObjectItemCaseSensitive(o, "devices");
	if (!rc && !cJSON_IsArray(devs))
		rc = rc_errf(err, EINVAL, "'%s': no device list", path);
	if (!rc && cJSON_GetArraySize(devs) == 0)
		rc = rc_errf(err, EINVAL, "'%s' lists no device: nothing could be checked", path);
	if (!rc) {
		p->n = (size_t)cJSON_GetArraySize(devs);
		p->devs = calloc(p->n, sizeof(*p->devs));
		if (!p->devs)
			rc = rc_errf(err, ENOMEM, "out of memory");
	}
	cJSON_ArrayForEach(e, devs)
	{
		if (rc)
			break;
		rc = device_entry(path, e, p, i++, err);
	}
	cJSON_Delete(o);
	if (rc)
		rc_plan_fini(p);
	return rc;
}

void rc_plan_fini(struct rc_plan_file *p)
{
	free(p->devs);
	p->devs = NULL;
	p->n = 0;
}
