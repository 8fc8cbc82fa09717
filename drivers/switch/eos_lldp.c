/* EOS LLDP neighbours, `show lldp neighbors` as JSON (eAPI, or `| json` over SSH):
 * {"lldpNeighbors": [{"port": "Ethernet1", "neighborDevice": "spine01",
 *                     "neighborPort": "Ethernet3", "ttl": 120}]}, the model eAPI client
 * libraries read.  No public capture of it backs this reading (docs/PLATFORMS.md:
 * unverified); a document without the list is an error naming the command, entries
 * whose fields are not names are skipped. */
#include <errno.h>
#include <string.h>

#include <cJSON.h>

#include "eos.h"

static const char *name_of(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!cJSON_IsString(v) || !v->valuestring[0] || strlen(v->valuestring) >= RC_NAME_MAX)
		return NULL;
	for (const char *c = v->valuestring; *c; c++)
		if ((unsigned char)*c <= ' ' || *c == 0x7f)
			return NULL;
	return v->valuestring;
}

int eos_parse_lldp(const cJSON *doc, const char *device, struct rc_neighbors *out,
		   struct rc_err *err)
{
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(doc, "lldpNeighbors"), *e;

	if (!cJSON_IsArray(list))
		return rc_errf(err, EPROTO, "'%s': 'show lldp neighbors' has no lldpNeighbors list",
			       device);
	cJSON_ArrayForEach(e, list)
	{
		const char *port = name_of(e, "port"), *dev = name_of(e, "neighborDevice");
		const char *rport = name_of(e, "neighborPort");

		if (!port || !dev || !rport)
			continue;
		if (rc_neighbors_add(out, port, dev, rport))
			return rc_errf(err, ENOMEM, "out of memory");
	}
	return 0;
}
