/* SPDX-License-Identifier: Apache-2.0 */
/* lldpd's neighbours as `lldpcli -f json0 show neighbors` prints them.  lldpcli(8) says
 * json0 keeps one structure whatever the number of interfaces and neighbours, unlike
 * `-f json`, whose objects become arrays when there are several: every level is an array,
 * and a value is {"value": ...}:
 *
 *   {"lldp": [{"interface": [{"name": "eth0",
 *                             "chassis": [{"name": [{"value": "leaf01"}]}],
 *                             "port": [{"id": [{"type": "ifname", "value": "swp1"}]}]}]}]}
 *
 * lldpd's own expected json0 output (conformance kit host/lldp/, read through this parser
 * by tests/conformance/test_conf_host.c; docs/PLATFORMS.md: checked) has this shape;
 * anything else is an error naming the command; entries missing a name are skipped. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <cJSON.h>

#include "lldpd.h"

/* o[key][0] */
static const cJSON *first(const cJSON *o, const char *key)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsArray(a) ? cJSON_GetArrayItem(a, 0) : NULL;
}

/* o[key][0].value as a string that fits a name, or NULL. */
static const char *value(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(first(o, key), "value");

	if (!cJSON_IsString(v) || !v->valuestring[0] || strlen(v->valuestring) >= RC_NAME_MAX)
		return NULL;
	for (const char *c = v->valuestring; *c; c++)
		if ((unsigned char)*c <= ' ' || *c == 0x7f)
			return NULL;
	return v->valuestring;
}

int rc_lldpd_parse(const char *text, size_t len, const char *device, struct rc_neighbors *out,
		   struct rc_err *err)
{
	cJSON *doc = cJSON_ParseWithLength(text, len);
	const cJSON *lldp = first(doc, "lldp"), *ifs, *e;
	int rc = 0;

	if (!cJSON_IsObject(doc) || !cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(doc, "lldp"))) {
		cJSON_Delete(doc);
		return rc_errf(err, EPROTO, "'%s': '%s' is not lldpd's json0 neighbour list",
			       device, RC_LLDPD_CMD);
	}
	ifs = cJSON_GetObjectItemCaseSensitive(lldp, "interface");
	if (!cJSON_IsArray(ifs))
		ifs = NULL;
	cJSON_ArrayForEach(e, ifs)
	{
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(e, "name");
		const char *sys = value(first(e, "chassis"), "name");
		const char *port = value(first(e, "port"), "id");

		if (!cJSON_IsString(name) || strlen(name->valuestring) >= RC_NAME_MAX || !sys ||
		    !port)
			continue;
		if (rc_neighbors_add(out, name->valuestring, sys, port)) {
			rc = rc_errf(err, ENOMEM, "out of memory");
			break;
		}
	}
	cJSON_Delete(doc);
	return rc;
}
