/* SPDX-License-Identifier: Apache-2.0 */
/* EOS LLDP neighbours, `show lldp neighbors detail` at revision 1 as JSON (eAPI, or `| json
 * revision 1` over SSH), in the shapes real switches answer (conformance eos/FACTS.md facts
 * 18-21, napalm's captures eos/napalm/show_lldp_neighbors_detail.*.json, ANTA's mocks):
 *
 *   {"lldpNeighbors": {
 *      "Ethernet1": {"lldpNeighborInfo": [{
 *          "systemName": "spine01", "chassisIdType": "macAddress", "chassisId": "001c.73a0.fc18",
 *          "neighborInterfaceInfo": {"interfaceIdType": "interfaceName",
 *              "interfaceId": "\"Ethernet3\"", "interfaceId_v2": "Ethernet3"}}]},
 *      "Ethernet2": {"lldpNeighborInfo": []}}}
 *
 * - lldpNeighborInfo is [] on a port without a neighbour;
 * - a port ID of type interfaceName or local is quoted inside the string ("\"597\""); newer
 *   releases add an unquoted interfaceId_v2, which is preferred; the quotes are dropped as
 *   napalm does (eos.py: every '"' removed);
 * - a port ID of type macAddress is a dotted MAC ("000f.532e.ced1"), turned into the colon
 *   form the other platforms print (lldpd, SONiC's `show lldp table`), so that one MAC
 *   compares equal whoever saw it;
 * - systemName may be missing (a NIC's firmware agent sends none, host/FACTS.md fact 10):
 *   the neighbour is kept with an empty device name.
 *
 * The summary `show lldp neighbors` ({"lldpNeighbors": [{"port", "neighborDevice",
 * "neighborPort"}]}, fact 20) is read too, for captures made with it.  A document with
 * neither shape is an error naming the command; entries whose fields are not names are
 * skipped. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <cJSON.h>

#include "eos.h"

/* A printable name (no blanks, no controls) that fits; "" allowed when `empty`. */
static bool printable(const char *s, bool empty)
{
	if ((!s[0] && !empty) || strlen(s) >= RC_NAME_MAX)
		return false;
	for (const char *c = s; *c; c++)
		if ((unsigned char)*c <= ' ' || *c == 0x7f)
			return false;
	return true;
}

static const char *name_of(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) && printable(v->valuestring, false) ? v->valuestring : NULL;
}

/* A dotted MAC "aac1.ab5d.2bb4" as "aa:c1:ab:5d:2b:b4"; -EINVAL when it is not one. */
static int eos_mac_colon(const char *dotted, char *out, size_t len)
{
	char hex[13];
	size_t n = 0;

	for (const char *c = dotted; *c; c++) {
		if (*c == '.' && (c - dotted) % 5 == 4)
			continue;
		if (!isxdigit((unsigned char)*c) || n >= 12)
			return -EINVAL;
		hex[n++] = (char)tolower((unsigned char)*c);
	}
	if (n != 12 || strlen(dotted) != 14 || len < 18)
		return -EINVAL;
	snprintf(out, len, "%.2s:%.2s:%.2s:%.2s:%.2s:%.2s", hex, hex + 2, hex + 4, hex + 6, hex + 8,
		 hex + 10);
	return 0;
}

/* The neighbour's port ID as the other platforms print it; false when it is not a name. */
static bool port_id(const cJSON *nii, char *out, size_t len)
{
	const char *type = name_of(nii, "interfaceIdType");
	const cJSON *v2 = cJSON_GetObjectItemCaseSensitive(nii, "interfaceId_v2");
	const cJSON *id = cJSON_IsString(v2) && v2->valuestring[0]
			      ? v2
			      : cJSON_GetObjectItemCaseSensitive(nii, "interfaceId");
	size_t n = 0;

	if (!cJSON_IsString(id))
		return false;
	if (type && !strcmp(type, "macAddress") && !eos_mac_colon(id->valuestring, out, len))
		return true;
	for (const char *c = id->valuestring; *c; c++) {
		if (*c == '"')
			continue;
		if (n + 1 >= len)
			return false;
		out[n++] = *c;
	}
	out[n] = '\0';
	return printable(out, false);
}

static int detail(const cJSON *ports, struct rc_neighbors *out, struct rc_err *err)
{
	const cJSON *p, *e;

	cJSON_ArrayForEach(p, ports)
	{
		const cJSON *info = cJSON_GetObjectItemCaseSensitive(p, "lldpNeighborInfo");

		if (!p->string || !printable(p->string, false) || !cJSON_IsArray(info))
			continue;
		cJSON_ArrayForEach(e, info)
		{
			const cJSON *sys = cJSON_GetObjectItemCaseSensitive(e, "systemName");
			const char *dev = cJSON_IsString(sys) ? sys->valuestring : "";
			char rport[RC_NAME_MAX];

			if (!printable(dev, true) ||
			    !port_id(cJSON_GetObjectItemCaseSensitive(e, "neighborInterfaceInfo"),
				     rport, sizeof(rport)))
				continue;
			if (rc_neighbors_add(out, p->string, dev, rport))
				return rc_errf(err, ENOMEM, "out of memory");
		}
	}
	return 0;
}

static int summary(const cJSON *list, struct rc_neighbors *out, struct rc_err *err)
{
	const cJSON *e;

	cJSON_ArrayForEach(e, list)
	{
		const char *port = name_of(e, "port"), *dev = name_of(e, "neighborDevice");
		const char *rport = name_of(e, "neighborPort");
		char mac[18];

		if (!port || !dev || !rport)
			continue;
		if (!eos_mac_colon(rport, mac, sizeof(mac)))
			rport = mac;
		if (rc_neighbors_add(out, port, dev, rport))
			return rc_errf(err, ENOMEM, "out of memory");
	}
	return 0;
}

int eos_parse_lldp(const cJSON *doc, const char *device, struct rc_neighbors *out,
		   struct rc_err *err)
{
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(doc, "lldpNeighbors");

	if (cJSON_IsObject(n))
		return detail(n, out, err);
	if (cJSON_IsArray(n))
		return summary(n, out, err);
	return rc_errf(err, EPROTO, "'%s': 'show lldp neighbors detail' has no lldpNeighbors",
		       device);
}
