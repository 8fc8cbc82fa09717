/* SPDX-License-Identifier: Apache-2.0 */
/* The enforce quarantine: a device that failed in the last K scheduled runs is not retried
 * until someone clears it (`rocectl enforce --clear DEVICE`).  A timer that keeps hitting
 * a switch whose apply fails keeps opening sessions, journaling and restoring on it every
 * interval; after K failures in a row it is more useful to stop and page (the Prometheus
 * alert in dist/prometheus/rocectl.rules.yml) than to retry.
 *
 * The file is JSON: {"devices": [{"device", "failures", "last_run", "last_error"}]}.  It is
 * rewritten whole and atomically (rc_write_atomic), 0600; reading refuses a symlink, a
 * non-regular file and anything that does not parse, because forgetting a quarantine
 * silently would defeat it. */
#include <cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rocectl/enforce.h"
#include "rocectl/util.h"

#define STATE_MAX_BYTES (4u << 20)

static int add(struct rc_quarantine *q, const char *device, struct rc_quarantine_dev **out)
{
	if (rc_array_reserve((void **)&q->v, &q->cap, q->n + 1, sizeof(*q->v), 16))
		return -ENOMEM;
	*out = &q->v[q->n++];
	memset(*out, 0, sizeof(**out));
	snprintf((*out)->device, sizeof((*out)->device), "%s", device);
	return 0;
}

static int parse(const char *path, const char *text, struct rc_quarantine *q, struct rc_err *err)
{
	cJSON *root = cJSON_Parse(text), *devs, *e;
	int rc = 0;

	devs = cJSON_GetObjectItemCaseSensitive(root, "devices");
	if (!root || !cJSON_IsArray(devs)) {
		cJSON_Delete(root);
		return rc_errf(err, EINVAL, "enforce state '%s': not a {\"devices\": [...]} object",
			       path);
	}
	cJSON_ArrayForEach(e, devs)
	{
		const cJSON *dev = cJSON_GetObjectItemCaseSensitive(e, "device");
		const cJSON *fail = cJSON_GetObjectItemCaseSensitive(e, "failures");
		const cJSON *run = cJSON_GetObjectItemCaseSensitive(e, "last_run");
		const cJSON *msg = cJSON_GetObjectItemCaseSensitive(e, "last_error");
		struct rc_quarantine_dev *d;

		if (!cJSON_IsString(dev) || !rc_name_is_safe(dev->valuestring) ||
		    strlen(dev->valuestring) >= RC_NAME_MAX || !cJSON_IsNumber(fail) ||
		    fail->valuedouble < 0 || fail->valuedouble > 1e6) {
			rc = rc_errf(err, EINVAL,
				     "enforce state '%s': an entry without a valid device name "
				     "and failure count",
				     path);
			break;
		}
		if (add(q, dev->valuestring, &d)) {
			rc = rc_errf(err, ENOMEM, "out of memory");
			break;
		}
		d->failures = (unsigned)fail->valuedouble;
		if (cJSON_IsString(run))
			rc_clean_text(run->valuestring, strlen(run->valuestring), d->last_run,
				      sizeof(d->last_run));
		if (cJSON_IsString(msg))
			rc_clean_text(msg->valuestring, strlen(msg->valuestring), d->last_error,
				      sizeof(d->last_error));
	}
	cJSON_Delete(root);
	return rc;
}

int rc_quarantine_load(const char *path, struct rc_quarantine *q, struct rc_err *err)
{
	char *text;
	int rc;

	memset(q, 0, sizeof(*q));
	err->msg[0] = '\0';
	text = rc_read_file(path, STATE_MAX_BYTES, RC_READ_NOFOLLOW | RC_READ_OURS, NULL, err);
	if (!text && errno == ENOENT)
		return 0; /* missing: nothing quarantined yet */
	if (!text)
		return -EINVAL;
	rc = parse(path, text, q, err);
	free(text);
	if (rc)
		rc_quarantine_fini(q);
	return rc;
}

void rc_quarantine_default_path(const char *journal, char *buf, size_t len)
{
	char dir[PATH_MAX];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", journal);
	for (size_t n = strlen(dir); n > 1 && dir[n - 1] == '/'; n--)
		dir[n - 1] = '\0';
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(buf, len, "enforce-state.json");
	else if (slash == dir)
		snprintf(buf, len, "/enforce-state.json");
	else
		snprintf(buf, len, "%.*s/enforce-state.json", (int)(slash - dir), dir);
}

int rc_quarantine_save(const char *path, const struct rc_quarantine *q, struct rc_err *err)
{
	cJSON *root = cJSON_CreateObject(), *devs = cJSON_AddArrayToObject(root, "devices");
	char *text;
	int rc;

	for (size_t i = 0; devs && i < q->n; i++) {
		cJSON *e = cJSON_CreateObject();

		if (!e || !cJSON_AddItemToArray(devs, e))
			break;
		cJSON_AddStringToObject(e, "device", q->v[i].device);
		cJSON_AddNumberToObject(e, "failures", q->v[i].failures);
		cJSON_AddStringToObject(e, "last_run", q->v[i].last_run);
		cJSON_AddStringToObject(e, "last_error", q->v[i].last_error);
	}
	text = devs ? cJSON_Print(root) : NULL;
	cJSON_Delete(root);
	if (!text)
		return rc_errf(err, ENOMEM, "out of memory");
	rc = rc_make_parents(path, err);
	if (!rc)
		rc = rc_write_atomic(path, text, strlen(text), 0600, "enforce state", err);
	free(text);
	return rc;
}

struct rc_quarantine_dev *rc_quarantine_find(struct rc_quarantine *q, const char *device)
{
	for (size_t i = 0; i < q->n; i++)
		if (!strcmp(q->v[i].device, device))
			return &q->v[i];
	return NULL;
}

bool rc_quarantine_blocks(const struct rc_quarantine *q, const char *device, unsigned after)
{
	for (size_t i = 0; after && i < q->n; i++)
		if (!strcmp(q->v[i].device, device))
			return q->v[i].failures >= after;
	return false;
}

int rc_quarantine_clear(struct rc_quarantine *q, const char *device)
{
	struct rc_quarantine_dev *d = rc_quarantine_find(q, device);

	if (!d)
		return -ENOENT;
	memmove(d, d + 1, (size_t)(q->v + q->n - (d + 1)) * sizeof(*d));
	q->n--;
	return 0;
}

int rc_quarantine_record(struct rc_quarantine *q, const char *device, bool failed,
			 const char *run_id, const char *error)
{
	struct rc_quarantine_dev *d = rc_quarantine_find(q, device);

	if (!failed) {
		if (d)
			rc_quarantine_clear(q, device);
		return 0;
	}
	if (!d && add(q, device, &d))
		return -ENOMEM;
	d->failures++;
	snprintf(d->last_run, sizeof(d->last_run), "%s", run_id);
	rc_clean_text(error, strlen(error), d->last_error, sizeof(d->last_error));
	return 0;
}

void rc_quarantine_fini(struct rc_quarantine *q)
{
	free(q->v);
	memset(q, 0, sizeof(*q));
}
