/* SPDX-License-Identifier: Apache-2.0 */
/* Run records for audit and undo (include/rocectl/history.h).  A record is written once, at
 * the end of the run, whole and atomically; reading treats it as untrusted (it sits on disk
 * where anyone with root could edit it): a symlink, a file that is not regular or too big,
 * or JSON without the expected shape is refused with the reason. */
#include <cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include "rocectl/fleet.h"
#include "rocectl/history.h"
#include "rocectl/util.h"
#include "rocectl/journal.h"

#define RECORD_MAX_BYTES (64u << 20)
#define INPUT_MAX_BYTES	 (4u << 20) /* the policy and inventory cap (README) */

const char *rc_history_dir(void)
{
	const char *d = getenv("ROCECTL_HISTORY");

	return d && *d ? d : RC_HISTORY_DEFAULT_DIR;
}

/* A run id names a file here: the journal's rule (letters, digits, "._-", no leading dot). */
static bool id_is_safe(const char *id)
{
	size_t n = strnlen(id, 64);

	if (n == 0 || n >= 64 || id[0] == '.' || id[0] == '-')
		return false;
	for (size_t i = 0; i < n; i++)
		if (!strchr("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz._-",
			    id[i]))
			return false;
	return true;
}

static int digest(const char *path, char *abs, size_t abs_len, char *hex, struct rc_err *err)
{
	char real[PATH_MAX];
	size_t len;
	char *buf;

	if (!path) {
		abs[0] = hex[0] = '\0';
		return 0;
	}
	snprintf(abs, abs_len, "%s", realpath(path, real) ? real : path);
	buf = rc_read_file(path, INPUT_MAX_BYTES, 0, &len, err);
	if (!buf)
		return -EIO;
	rc_sha256_hex(buf, len, hex);
	free(buf);
	return 0;
}

int rc_history_begin(struct rc_history *h, const char *command, const char *run_id,
		     const char *policy, const char *inventory, struct rc_err *err)
{
	struct passwd *pw = getpwuid(geteuid());
	const char *sudo = getenv("SUDO_USER");
	int rc;

	memset(h, 0, sizeof(*h));
	snprintf(h->command, sizeof(h->command), "%s", command);
	snprintf(h->run_id, sizeof(h->run_id), "%s", run_id);
	if (pw)
		snprintf(h->user, sizeof(h->user), "%s", pw->pw_name);
	else
		snprintf(h->user, sizeof(h->user), "uid %u", (unsigned)geteuid());
	if (sudo)
		rc_clean_text(sudo, strlen(sudo), h->sudo_user, sizeof(h->sudo_user));
	if (gethostname(h->host, sizeof(h->host) - 1))
		snprintf(h->host, sizeof(h->host), "unknown");
	h->started = time(NULL);
	rc = digest(policy, h->policy, sizeof(h->policy), h->policy_sha256, err);
	if (!rc)
		rc =
		    digest(inventory, h->inventory, sizeof(h->inventory), h->inventory_sha256, err);
	return rc;
}

static struct rc_history_dev *find(struct rc_history *h, const char *device)
{
	for (size_t i = 0; i < h->n; i++)
		if (!strcmp(h->devs[i].device, device))
			return &h->devs[i];
	return NULL;
}

static struct rc_history_dev *grow(struct rc_history *h, const char *device)
{
	struct rc_history_dev *d;

	if (rc_array_reserve((void **)&h->devs, &h->cap, h->n + 1, sizeof(*h->devs), 16))
		return NULL;
	d = &h->devs[h->n++];
	memset(d, 0, sizeof(*d));
	snprintf(d->device, sizeof(d->device), "%s", device);
	return d;
}

int rc_history_counters(struct rc_history *h, const char *device, const char *driver,
			const struct rc_counters *c)
{
	struct rc_history_dev *d = find(h, device);

	if (!d)
		d = grow(h, device);
	if (!d)
		return -ENOMEM;
	snprintf(d->driver, sizeof(d->driver), "%s", driver);
	if (!d->result[0])
		snprintf(d->result, sizeof(d->result), "sampled");
	d->has_counters = true;
	for (size_t i = 0; i < c->n; i++) {
		const struct rc_counter *e = &c->v[i];
		int rc = e->not_enabled
			     ? rc_counters_add_disabled(&d->counters, e->port, e->name, e->source)
			     : rc_counters_add(&d->counters, e->port, e->name, e->source, e->value,
					       e->is_drop);

		if (rc)
			return rc;
	}
	return 0;
}

/* A copy of ch, its note its own (rc_changes_fini frees it). */
static int push_change(struct rc_changes *c, const struct rc_change *ch)
{
	if (rc_array_reserve((void **)&c->v, &c->cap, c->n + 1, sizeof(*c->v), 16))
		return -ENOMEM;
	c->v[c->n] = *ch;
	c->v[c->n].note = NULL;
	if (rc_change_set_note(&c->v[c->n], ch->note))
		return -ENOMEM;
	c->n++;
	return 0;
}

int rc_history_add(struct rc_history *h, const struct rc_devrun *r, const char *result)
{
	/* the agent works on a host interface by interface: one device, its ports added up */
	struct rc_history_dev *d = find(h, r->dev->name);
	struct rc_port_state *before;

	if (!d)
		d = grow(h, r->dev->name);
	if (!d)
		return -ENOMEM;
	snprintf(d->driver, sizeof(d->driver), "%s", r->drv ? r->drv->name : "");
	snprintf(d->address, sizeof(d->address), "%s", r->dev->address);
	snprintf(d->result, sizeof(d->result), "%s", result);
	if (!r->read_ok)
		return 0;
	before = realloc(d->before, (d->n_ports + r->n_ports + 1) * sizeof(*d->before));
	if (!before)
		return -ENOMEM;
	d->before = before;
	for (size_t i = 0; i < r->n_ports; i++) {
		if (!r->write_fields[i])
			continue;
		d->before[d->n_ports] = r->have[i];
		d->before[d->n_ports++].qos.known = r->write_fields[i];
		for (size_t k = 0; k < r->changes.n; k++) {
			const struct rc_change *c = &r->changes.v[k];

			if (c->kind == RC_CHANGE_SET && (c->group & r->write_fields[i]) &&
			    !strcmp(c->port, r->have[i].name) && push_change(&d->changes, c))
				return -ENOMEM;
		}
	}
	return 0;
}

void rc_history_result(struct rc_history *h, const char *device, const char *result,
		       const char *error)
{
	struct rc_history_dev *d = find(h, device);

	if (!d)
		d = grow(h, device);
	if (!d)
		return;
	snprintf(d->result, sizeof(d->result), "%s", result);
	if (error)
		rc_clean_text(error, strlen(error), d->error, sizeof(d->error));
}

static void iso(time_t t, char *buf, size_t len)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* A counter sample kept for `counters --since`.  Values go out as strings: a JSON number
 * read back through a double loses the low bits of a 64-bit counter. */
static cJSON *counters_json(const struct rc_counters *c)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t i = 0; a && i < c->n; i++) {
		const struct rc_counter *e = &c->v[i];
		cJSON *o = cJSON_CreateObject();
		char v[24];

		snprintf(v, sizeof(v), "%" PRIu64, e->value);
		cJSON_AddStringToObject(o, "port", e->port);
		cJSON_AddStringToObject(o, "name", e->name);
		cJSON_AddStringToObject(o, "source", e->source);
		if (e->not_enabled)
			cJSON_AddBoolToObject(o, "not_enabled", true);
		else
			cJSON_AddStringToObject(o, "value", v);
		cJSON_AddBoolToObject(o, "is_drop", e->is_drop);
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

static cJSON *device_json(const struct rc_history_dev *d)
{
	cJSON *o = cJSON_CreateObject(), *ch, *ports;

	cJSON_AddStringToObject(o, "device", d->device);
	cJSON_AddStringToObject(o, "driver", d->driver);
	cJSON_AddStringToObject(o, "address", d->address);
	cJSON_AddStringToObject(o, "result", d->result);
	if (d->error[0])
		cJSON_AddStringToObject(o, "error", d->error);
	ch = cJSON_AddArrayToObject(o, "changes");
	for (size_t i = 0; ch && i < d->changes.n; i++) {
		const struct rc_change *c = &d->changes.v[i];
		cJSON *e = cJSON_CreateObject();

		cJSON_AddStringToObject(e, "port", c->port);
		cJSON_AddStringToObject(e, "field", c->field);
		cJSON_AddStringToObject(e, "old", c->old_value);
		cJSON_AddStringToObject(e, "new", c->new_value);
		cJSON_AddBoolToObject(e, "disruptive", c->disruptive);
		cJSON_AddItemToArray(ch, e);
	}
	/* the journal's port format (engine/run/journal.c), restricted to the written groups */
	ports = cJSON_AddArrayToObject(o, "before");
	for (size_t i = 0; ports && i < d->n_ports; i++) {
		cJSON *p = cJSON_CreateObject();

		cJSON_AddStringToObject(p, "name", d->before[i].name);
		cJSON_AddItemToObject(p, "qos", rc_port_qos_to_cjson(&d->before[i].qos));
		cJSON_AddItemToArray(ports, p);
	}
	if (d->has_counters)
		cJSON_AddItemToObject(o, "counters", counters_json(&d->counters));
	return o;
}

static bool logged(const struct rc_history_dev *d)
{
	return !strcmp(d->result, "applied") || !strcmp(d->result, "restored");
}

/* One line per change, structured as KEY=value pairs (journald indexes none of them as a
 * field when sent through syslog(3), but `journalctl -g ROCECTL_DEVICE=leaf01` and every
 * log shipper can match them). */
static void to_syslog(const struct rc_history *h)
{
	openlog("rocectl", LOG_PID, LOG_DAEMON);
	for (size_t i = 0; i < h->n; i++) {
		const struct rc_history_dev *d = &h->devs[i];

		if (logged(d) && !d->changes.n)
			syslog(LOG_NOTICE,
			       "ROCECTL_RUN=%s ROCECTL_COMMAND=%s ROCECTL_DEVICE=%s "
			       "ROCECTL_RESULT=%s ROCECTL_USER=%s",
			       h->run_id, h->command, d->device, d->result,
			       h->sudo_user[0] ? h->sudo_user : h->user);
		for (size_t k = 0; logged(d) && k < d->changes.n; k++) {
			const struct rc_change *c = &d->changes.v[k];

			syslog(
			    LOG_NOTICE,
			    "ROCECTL_RUN=%s ROCECTL_COMMAND=%s ROCECTL_DEVICE=%s ROCECTL_PORT=%s "
			    "ROCECTL_FIELD=%s ROCECTL_OLD=%s ROCECTL_NEW=%s ROCECTL_RESULT=%s "
			    "ROCECTL_USER=%s",
			    h->run_id, h->command, d->device, c->port, c->field,
			    c->old_value[0] ? c->old_value : "unknown", c->new_value, d->result,
			    h->sudo_user[0] ? h->sudo_user : h->user);
		}
	}
	closelog();
}

static int mkdir_p(const char *path, struct rc_err *err)
{
	char tmp[PATH_MAX];

	if (snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp))
		return rc_errf(err, ENAMETOOLONG, "history path too long: '%s'", path);
	for (char *p = tmp + 1;; p++) {
		bool end = !*p;

		if (*p && *p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0700) && errno != EEXIST)
			return rc_errf(err, errno, "cannot create history directory '%s': %s", tmp,
				       strerror(errno));
		if (end)
			break;
		*p = '/';
	}
	return 0;
}

int rc_history_write(struct rc_history *h, const char *dir, int exit_code, struct rc_err *err)
{
	cJSON *o = cJSON_CreateObject(), *devs;
	char when[32], path[PATH_MAX];
	char *text;
	int rc;

	if (!id_is_safe(h->run_id)) {
		cJSON_Delete(o);
		return rc_errf(err, EINVAL, "'%s' is not a run id", h->run_id);
	}
	h->exit_code = exit_code;
	h->finished = time(NULL);
	cJSON_AddStringToObject(o, "schema", "rocectl.history/v1");
	cJSON_AddStringToObject(o, "run_id", h->run_id);
	cJSON_AddStringToObject(o, "command", h->command);
	cJSON_AddStringToObject(o, "user", h->user);
	if (h->sudo_user[0])
		cJSON_AddStringToObject(o, "sudo_user", h->sudo_user);
	cJSON_AddStringToObject(o, "host", h->host);
	iso(h->started, when, sizeof(when));
	cJSON_AddStringToObject(o, "started", when);
	cJSON_AddNumberToObject(o, "started_epoch", (double)h->started);
	iso(h->finished, when, sizeof(when));
	cJSON_AddStringToObject(o, "finished", when);
	if (h->policy[0]) {
		cJSON_AddStringToObject(o, "policy", h->policy);
		cJSON_AddStringToObject(o, "policy_sha256", h->policy_sha256);
	}
	if (h->inventory[0]) {
		cJSON_AddStringToObject(o, "inventory", h->inventory);
		cJSON_AddStringToObject(o, "inventory_sha256", h->inventory_sha256);
	}
	cJSON_AddNumberToObject(o, "exit_code", exit_code);
	devs = cJSON_AddArrayToObject(o, "devices");
	for (size_t i = 0; devs && i < h->n; i++)
		cJSON_AddItemToArray(devs, device_json(&h->devs[i]));
	text = cJSON_Print(o);
	cJSON_Delete(o);
	if (!text)
		return rc_errf(err, ENOMEM, "out of memory");
	rc = mkdir_p(dir, err);
	snprintf(path, sizeof(path), "%s/%s.json", dir, h->run_id);
	if (!rc)
		rc = rc_write_atomic(path, text, strlen(text), 0600, "history record", err);
	free(text);
	if (!rc)
		to_syslog(h);
	return rc;
}

void rc_history_fini(struct rc_history *h)
{
	for (size_t i = 0; i < h->n; i++) {
		rc_changes_fini(&h->devs[i].changes);
		rc_counters_fini(&h->devs[i].counters);
		free(h->devs[i].before);
	}
	free(h->devs);
	h->devs = NULL;
	h->n = h->cap = 0;
}

static void copy_str(const cJSON *o, const char *key, char *out, size_t len)
{
	const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));

	out[0] = '\0';
	if (s)
		rc_clean_text(s, strlen(s), out, len);
}

static int load_counters(const char *path, const cJSON *a, struct rc_history_dev *d,
			 struct rc_err *err)
{
	const cJSON *it;

	d->has_counters = true;
	cJSON_ArrayForEach(it, a)
	{
		char port[RC_NAME_MAX], name[48], source[96], num[24];
		uint64_t v = 0;
		int rc;

		copy_str(it, "port", port, sizeof(port));
		copy_str(it, "name", name, sizeof(name));
		copy_str(it, "source", source, sizeof(source));
		copy_str(it, "value", num, sizeof(num));
		if (!port[0] || !name[0] ||
		    (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "not_enabled")) &&
		     rc_parse_u64(num, 10, 0, UINT64_MAX, &v)))
			return rc_errf(err, EINVAL,
				       "history '%s': device '%s': a counter without port, name "
				       "or a decimal value",
				       path, d->device);
		if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "not_enabled")))
			rc = rc_counters_add_disabled(&d->counters, port, name, source);
		else
			rc = rc_counters_add(
			    &d->counters, port, name, source, v,
			    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "is_drop")));
		if (rc)
			return rc_errf(err, ENOMEM, "out of memory");
	}
	return 0;
}

static int load_device(const char *path, const cJSON *e, struct rc_history *h, struct rc_err *err)
{
	const cJSON *ch = cJSON_GetObjectItemCaseSensitive(e, "changes");
	const cJSON *ports = cJSON_GetObjectItemCaseSensitive(e, "before"), *it;
	char name[RC_NAME_MAX];
	struct rc_history_dev *d;
	int n;

	copy_str(e, "device", name, sizeof(name));
	if (!rc_name_is_safe(name) || !cJSON_IsArray(ch) || !cJSON_IsArray(ports))
		return rc_errf(err, EINVAL,
			       "history '%s': a device without a valid name, changes or before",
			       path);
	d = grow(h, name);
	if (!d)
		return rc_errf(err, ENOMEM, "out of memory");
	copy_str(e, "driver", d->driver, sizeof(d->driver));
	copy_str(e, "address", d->address, sizeof(d->address));
	copy_str(e, "result", d->result, sizeof(d->result));
	copy_str(e, "error", d->error, sizeof(d->error));
	cJSON_ArrayForEach(it, ch)
	{
		struct rc_change c = {.kind = RC_CHANGE_SET};

		copy_str(it, "port", c.port, sizeof(c.port));
		copy_str(it, "field", c.field, sizeof(c.field));
		copy_str(it, "old", c.old_value, sizeof(c.old_value));
		copy_str(it, "new", c.new_value, sizeof(c.new_value));
		c.disruptive = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "disruptive"));
		if (push_change(&d->changes, &c))
			return rc_errf(err, ENOMEM, "out of memory");
	}
	n = cJSON_GetArraySize(ports);
	d->before = calloc(n > 0 ? (size_t)n : 1, sizeof(*d->before));
	if (!d->before)
		return rc_errf(err, ENOMEM, "out of memory");
	cJSON_ArrayForEach(it, ports)
	{
		struct rc_port_state *p = &d->before[d->n_ports];

		copy_str(it, "name", p->name, sizeof(p->name));
		if (!p->name[0] || rc_port_qos_from_cjson(
				       cJSON_GetObjectItemCaseSensitive(it, "qos"), &p->qos, err)) {
			rc_err_prefix(err, "history '%s': device '%s'", path, d->device);
			return -EINVAL;
		}
		d->n_ports++;
	}
	if (cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(e, "counters")))
		return load_counters(path, cJSON_GetObjectItemCaseSensitive(e, "counters"), d, err);
	return 0;
}

int rc_history_load(const char *dir, const char *run_id, struct rc_history *h, struct rc_err *err)
{
	char path[PATH_MAX];
	const cJSON *devs, *e, *num;
	cJSON *o;
	size_t len;
	char *text;
	int rc = 0;

	memset(h, 0, sizeof(*h));
	if (!id_is_safe(run_id))
		return rc_errf(err, EINVAL, "'%s' is not a run id", run_id);
	snprintf(path, sizeof(path), "%s/%s.json", dir, run_id);
	text = rc_read_file(path, RECORD_MAX_BYTES, RC_READ_NOFOLLOW | RC_READ_OURS, &len, err);
	if (!text)
		return errno == ENOENT ? -ENOENT : -EIO;
	o = cJSON_Parse(text);
	free(text);
	devs = cJSON_GetObjectItemCaseSensitive(o, "devices");
	if (!o || !cJSON_IsArray(devs) ||
	    !cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "schema")) ||
	    strcmp(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "schema")),
		   "rocectl.history/v1")) {
		cJSON_Delete(o);
		return rc_errf(err, EINVAL, "history '%s' is not a rocectl.history/v1 record",
			       path);
	}
	copy_str(o, "run_id", h->run_id, sizeof(h->run_id));
	copy_str(o, "command", h->command, sizeof(h->command));
	copy_str(o, "user", h->user, sizeof(h->user));
	copy_str(o, "sudo_user", h->sudo_user, sizeof(h->sudo_user));
	copy_str(o, "host", h->host, sizeof(h->host));
	copy_str(o, "policy", h->policy, sizeof(h->policy));
	copy_str(o, "inventory", h->inventory, sizeof(h->inventory));
	copy_str(o, "policy_sha256", h->policy_sha256, sizeof(h->policy_sha256));
	copy_str(o, "inventory_sha256", h->inventory_sha256, sizeof(h->inventory_sha256));
	num = cJSON_GetObjectItemCaseSensitive(o, "started_epoch");
	h->started = cJSON_IsNumber(num) && num->valuedouble >= 0 && num->valuedouble < 1e11
			 ? (time_t)num->valuedouble
			 : 0;
	num = cJSON_GetObjectItemCaseSensitive(o, "exit_code");
	h->exit_code = cJSON_IsNumber(num) ? num->valueint : -1;
	if (strcmp(h->run_id, run_id))
		rc = rc_errf(err, EINVAL, "history '%s' names run '%s'", path, h->run_id);
	cJSON_ArrayForEach(e, devs)
	{
		if (rc)
			break;
		rc = load_device(path, e, h, err);
	}
	cJSON_Delete(o);
	if (rc)
		rc_history_fini(h);
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int rc_history_list(const char *dir, char ***ids, size_t *n, struct rc_err *err)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t cap = 0;

	*ids = NULL;
	*n = 0;
	if (!d)
		return errno == ENOENT ? 0
				       : rc_errf(err, errno, "cannot read history '%s': %s", dir,
						 strerror(errno));
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		char id[64];

		if (len < 6 || len - 5 >= sizeof(id) || strcmp(de->d_name + len - 5, ".json"))
			continue;
		snprintf(id, sizeof(id), "%.*s", (int)(len - 5), de->d_name);
		if (!id_is_safe(id))
			continue;
		if (rc_array_reserve((void **)ids, &cap, *n + 1, sizeof(**ids), 64) ||
		    !((*ids)[*n] = strdup(id))) {
			closedir(d);
			rc_history_ids_free(*ids, *n);
			*ids = NULL;
			*n = 0;
			return rc_errf(err, ENOMEM, "out of memory");
		}
		(*n)++;
	}
	closedir(d);
	if (*n)
		qsort(*ids, *n, sizeof(**ids), cmp_str);
	return 0;
}

void rc_history_ids_free(char **ids, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(ids[i]);
	free(ids);
}

int rc_history_fleet_begin(struct rc_history *h, const char *command, const struct rc_fleet *f,
			   const char *policy, const char *inventory, const char *result,
			   struct rc_err *err)
{
	int rc = rc_history_begin(h, command, f->run_id, policy, inventory, err);

	for (size_t i = 0; !rc && i < f->n; i++) {
		const struct rc_fleet_dev *d = &f->devs[i];

		if (!d->rc && rc_history_add(h, &d->run, result))
			rc = rc_errf(err, ENOMEM, "out of memory");
		else if (d->rc)
			rc_history_result(h, f->inv->devices[d->index].name, "failed", d->err.msg);
	}
	return rc;
}

void rc_history_fleet_applied(struct rc_history *h, const struct rc_fleet *f)
{
	for (size_t i = 0; i < f->n; i++) {
		const struct rc_fleet_dev *d = &f->devs[i];
		const char *name = f->inv->devices[d->index].name;

		if (d->rc)
			rc_history_result(h, name, "failed", d->err.msg);
		else if (d->skipped)
			rc_history_result(h, name, "skipped", d->err.msg);
		else if (d->applied && d->n_changes > 0)
			rc_history_result(h, name, "applied", NULL);
		else
			rc_history_result(h, name, "unchanged", NULL);
	}
}

int rc_history_to_journal(const char *hist_dir, const char *run_id, const char *journal_dir,
			  size_t *n_saved, struct rc_err *err)
{
	struct rc_history h;
	int rc = rc_history_load(hist_dir, run_id, &h, err);

	*n_saved = 0;
	if (rc)
		return rc;
	for (size_t i = 0; !rc && i < h.n; i++) {
		const struct rc_history_dev *d = &h.devs[i];
		struct rc_device dev;

		if (strcmp(d->result, "applied") || !d->n_ports)
			continue;
		memset(&dev, 0, sizeof(dev));
		snprintf(dev.name, sizeof(dev.name), "%s", d->device);
		snprintf(dev.address, sizeof(dev.address), "%s", d->address);
		rc = rc_journal_save(journal_dir, run_id, &dev, d->driver, d->before, d->n_ports,
				     err);
		*n_saved += rc == 0;
	}
	rc_history_fini(&h);
	return rc;
}
