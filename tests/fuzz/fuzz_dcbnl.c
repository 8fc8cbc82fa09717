/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: DCB netlink replies are untrusted input (drivers/host/dcbnl.c).
 * Every parser gets the same bytes; none may crash, read out of bounds or leak. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../../drivers/host/host.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rc_dcb_state st;
	struct rc_dcb_caps caps;
	struct rc_err err;
	uint8_t mode, status;

	memset(&st, 0, sizeof(st));
	rc_dcb_parse_ieee_get(data, size, "eth0", &st, &err);
	rc_dcb_parse_status(data, size, "eth0", 20 /* IEEE_SET */, 13 /* DCB_ATTR_IEEE */, &status,
			    &err);
	rc_dcb_parse_gdcbx(data, size, "eth0", &mode, &err);
	rc_dcb_parse_gcap(data, size, "eth0", &caps, &err);
	return 0;
}
