/* SPDX-License-Identifier: Apache-2.0 */
/* A host's desired state as a file (`rocectl render`, `rocectl agent --desired`): one source
 * of truth for the controller and the host agent.  The values that only the inventory knows
 * (cable length of each link, the device's overrides) are computed here, by the same
 * rc_desired_port() the controller's plan uses, and travel to the host in the file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cJSON.h>

#include "rocectl/desired.h"
#include "rocectl/journal.h"
#include "rocectl/print.h"
#include "rocectl/util.h"

#define DESIRED_MAX_BYTES (4u << 20)

static int add_port(struct rc_desired_set *s, const char *port)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].port, port))
			return 0;
	if (s->n >= RC_DESIRED_MAX_PORTS)
		return -E2BIG;
	if (rc_array_reserve((void **)&s->v, &s->cap, s->n + 1, sizeof(*s->v), 8))
		return -ENOMEM;
	memset(&s->v[s->n], 0, sizeof(s->v[s->n]));
	snprintf(s->v[s->n].port, sizeof(s->v[s->n].port), "%s", port);
	s->n++;
	return 0;
}

static int collect_ports(struct rc_desired_set *s, const struct rc_inventory *inv, size_t di)
{
	const struct rc_device *d = &inv->devices[di];
	int rc = 0;

	for (size_t i = 0; !rc && i < d->n_ports; i++)
		rc = add_port(s, d->ports[i]);
	for (size_t i = 0; !rc && i < inv->n_links; i++) {
		if (inv->links[i].a.dev == di)
			rc = add_port(s, inv->links[i].a.port);
		if (!rc && inv->links[i].b.dev == di)
			rc = add_port(s, inv->links[i].b.port);
	}
	return rc;
}

int rc_desired_render(const struct rc_policy *policy, const struct rc_inventory *inv,
		      size_t dev_index, struct rc_desired_set *out, struct rc_err *err)
{
	const struct rc_device *d;
	struct rc_policy eff;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!inv || dev_index >= inv->n_devices)
		return rc_errf(err, EINVAL, "render: no device #%zu in the inventory", dev_index);
	d = &inv->devices[dev_index];
	if (d->kind != RC_DEV_HOST)
		return rc_errf(err, EINVAL, "render: '%s' is a switch, not a host", d->name);
	rc = rc_inventory_policy(inv, dev_index, policy, &eff, err);
	if (rc < 0)
		return rc;
	snprintf(out->host, sizeof(out->host), "%s", d->name);
	snprintf(out->policy, sizeof(out->policy), "%s", policy->name);
	out->tolerance_pct = eff.tolerance_pct;
	rc = collect_ports(out, inv, dev_index);
	if (rc) {
		rc_desired_fini(out);
		return rc_errf(err, -rc, "render: '%s': too many ports or out of memory", d->name);
	}
	/* a port the inventory does not name has no link: the policy's own defaults */
	rc = rc_desired_port(policy, inv, dev_index, "", RC_DEV_HOST, 0, &out->dflt, err);
	for (size_t i = 0; !rc && i < out->n; i++)
		rc = rc_desired_port(policy, inv, dev_index, out->v[i].port, RC_DEV_HOST, 0,
				     &out->v[i].qos, err);
	if (rc)
		rc_desired_fini(out);
	return rc;
}

/* The header every JSON document of rocectl carries (include/rocectl/print.h); the loader
 * reads only what it needs, so it ignores it. */
static void add_header(cJSON *o)
{
	time_t now = time(NULL);
	struct tm tm;
	char ts[32] = "1970-01-01T00:00:00Z";

	if (gmtime_r(&now, &tm))
		strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", &tm);
	cJSON_AddNumberToObject(o, "schema_version", RC_JSON_SCHEMA_VERSION);
	cJSON_AddStringToObject(o, "rocectl_version", ROCECTL_VERSION);
	cJSON_AddStringToObject(o, "timestamp", ts);
}

char *rc_desired_to_json(const struct rc_desired_set *set)
{
	cJSON *o = cJSON_CreateObject(), *ports, *q;
	char *text = NULL, *line = NULL;

	if (!o)
		return NULL;
	add_header(o);
	cJSON_AddStringToObject(o, "schema", RC_DESIRED_SCHEMA);
	cJSON_AddStringToObject(o, "host", set->host);
	cJSON_AddStringToObject(o, "policy", set->policy);
	cJSON_AddNumberToObject(o, "tolerance_pct", set->tolerance_pct);
	ports = cJSON_AddArrayToObject(o, "ports");
	for (size_t i = 0; ports && i < set->n; i++) {
		cJSON *p = cJSON_CreateObject();

		if (!p)
			goto out;
		cJSON_AddItemToArray(ports, p);
		cJSON_AddStringToObject(p, "port", set->v[i].port);
		q = rc_port_qos_to_cjson(&set->v[i].qos);
		if (!q)
			goto out;
		cJSON_AddItemToObject(p, "qos", q);
	}
	q = rc_port_qos_to_cjson(&set->dflt);
	if (!ports || !q)
		goto out;
	cJSON_AddItemToObject(o, "default", q);
	text = cJSON_Print(o);
	if (text) {
		size_t n = strlen(text);

		line = malloc(n + 2);
		if (line) {
			memcpy(line, text, n);
			line[n] = '\n';
			line[n + 1] = '\0';
		}
		cJSON_free(text);
	}
out:
	cJSON_Delete(o);
	return line;
}

static int bad(const char *path, const char *what, struct rc_err *err)
{
	return rc_errf(err, EINVAL, "'%s' is not a desired state (%s): %s", path, RC_DESIRED_SCHEMA,
		       what);
}

static int copy_name(char *dst, size_t len, const cJSON *v)
{
	if (!cJSON_IsString(v) || !v->valuestring[0] || strlen(v->valuestring) >= len)
		return -EINVAL;
	snprintf(dst, len, "%s", v->valuestring);
	return 0;
}

static int load_ports(const char *path, const cJSON *arr, struct rc_desired_set *out,
		      struct rc_err *err)
{
	const cJSON *p;

	if (!cJSON_IsArray(arr))
		return bad(path, "\"ports\" is not an array", err);
	cJSON_ArrayForEach(p, arr)
	{
		char name[RC_NAME_MAX];
		struct rc_desired_port_entry *e;

		if (copy_name(name, sizeof(name), cJSON_GetObjectItemCaseSensitive(p, "port")) ||
		    !rc_ifname_is_safe(name))
			return bad(path, "a port without a valid interface name", err);
		for (size_t i = 0; i < out->n; i++)
			if (!strcmp(out->v[i].port, name))
				return bad(path, "a port listed twice", err);
		if (add_port(out, name))
			return bad(path, "too many ports", err);
		e = &out->v[out->n - 1];
		if (rc_port_qos_from_cjson(cJSON_GetObjectItemCaseSensitive(p, "qos"), &e->qos,
					   err)) {
			rc_err_prefix(err, "'%s': port '%s'", path, name);
			return -EINVAL;
		}
	}
	return 0;
}

int rc_desired_load(const char *path, struct rc_desired_set *out, struct rc_err *err)
{
	const cJSON *v;
	cJSON *o;
	char *buf;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	buf = rc_read_file(path, DESIRED_MAX_BYTES, RC_READ_NOFOLLOW | RC_READ_OURS, NULL, err);
	if (!buf)
		return -EIO;
	o = cJSON_Parse(buf);
	free(buf);
	if (!cJSON_IsObject(o)) {
		cJSON_Delete(o);
		return bad(path, "not a JSON object", err);
	}
	v = cJSON_GetObjectItemCaseSensitive(o, "schema");
	if (!cJSON_IsString(v) || strcmp(v->valuestring, RC_DESIRED_SCHEMA))
		rc = bad(path, "no \"schema\": \"" RC_DESIRED_SCHEMA "\"", err);
	if (!rc &&
	    (copy_name(out->host, sizeof(out->host), cJSON_GetObjectItemCaseSensitive(o, "host")) ||
	     copy_name(out->policy, sizeof(out->policy),
		       cJSON_GetObjectItemCaseSensitive(o, "policy"))))
		rc = bad(path, "\"host\" or \"policy\" missing", err);
	v = cJSON_GetObjectItemCaseSensitive(o, "tolerance_pct");
	if (!rc && (!cJSON_IsNumber(v) || !(v->valuedouble >= 0 && v->valuedouble <= 100)))
		rc = bad(path, "\"tolerance_pct\" is not a number in 0..100", err);
	else if (!rc)
		out->tolerance_pct = v->valuedouble;
	if (!rc)
		rc = load_ports(path, cJSON_GetObjectItemCaseSensitive(o, "ports"), out, err);
	if (!rc && rc_port_qos_from_cjson(cJSON_GetObjectItemCaseSensitive(o, "default"),
					  &out->dflt, err)) {
		rc_err_prefix(err, "'%s': default", path);
		rc = -EINVAL;
	}
	cJSON_Delete(o);
	if (rc)
		rc_desired_fini(out);
	return rc;
}

const struct port_qos *rc_desired_lookup(const struct rc_desired_set *set, const char *port)
{
	for (size_t i = 0; i < set->n; i++)
		if (!strcmp(set->v[i].port, port))
			return &set->v[i].qos;
	return &set->dflt;
}

void rc_desired_fini(struct rc_desired_set *set)
{
	free(set->v);
	set->v = NULL;
	set->n = set->cap = 0;
}
