/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for the LLDP neighbour parsers: NVUE's `nv show interface lldp` table
 * (drivers/switch/nvue_lldp.c), SONiC's `show lldp table` (sonic_lldp.c), EOS's
 * `show lldp neighbors` JSON (eos_lldp.c) and lldpd's `lldpcli -f json0` (drivers/host/
 * lldpd.c): the input is device output, fed to each.
 *
 *   make fuzz && build/fuzz/fuzz_lldp
 *
 * Linked with tests/fuzz/replay_main.c instead of -fsanitize=fuzzer, it replays the files
 * given as arguments (a corpus check without libFuzzer). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "../../drivers/host/lldpd.h"
#include "../../drivers/switch/eos.h"
#include "../../drivers/switch/nvue.h"
#include "../../drivers/switch/sonic.h"
#include "rocectl/driver.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rc_neighbors nb = {0};
	struct rc_err err = {0};
	const char *text = (const char *)data;
	cJSON *doc;

	nvue_parse_lldp(text, size, "sw", &nb, &err);
	sonic_parse_lldp(text, size, "sw", &nb, &err);
	rc_lldpd_parse(text, size, "host", &nb, &err);
	doc = cJSON_ParseWithLength(text, size);
	eos_parse_lldp(doc, "sw", &nb, &err);
	cJSON_Delete(doc);
	for (size_t i = 0; i < nb.n; i++)
		if (strlen(nb.v[i].port) >= RC_NAME_MAX || strlen(nb.v[i].device) >= RC_NAME_MAX ||
		    strlen(nb.v[i].remote_port) >= RC_NAME_MAX)
			abort();
	rc_neighbors_fini(&nb);
	return 0;
}
