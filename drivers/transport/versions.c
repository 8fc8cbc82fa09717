/* SPDX-License-Identifier: Apache-2.0 */
/* What `rocectl --version` reports of the network plugin's libraries: the versions of the
 * libssh and libcurl loaded at run time (ssh_version(3) and curl_version_info(3)), which
 * may differ from the headers the plugin was built against. */
#include <curl/curl.h>
#include <libssh/libssh.h>
#include <stdio.h>

#include "rocectl/driver.h"

const char *rc_net_library_versions(void);

const char *rc_net_library_versions(void)
{
	static char buf[128];
	const curl_version_info_data *c = curl_version_info(CURLVERSION_NOW);

	snprintf(buf, sizeof(buf), "libssh %s, libcurl %s", ssh_version(0),
		 c && c->version ? c->version : "unknown");
	return buf;
}
