/* libFuzzer target for the LLDP neighbour parsers: NVUE's `nv show interface lldp` table
 * (drivers/switch/nvue_lldp.c), SONiC's `show lldp table` (sonic_lldp.c), EOS's
 * `show lldp neighbors` JSON (eos_lldp.c) and lldpd's `lldpcli -f json0` (drivers/host/
 * lldpd.c): the input is device output, fed to each.
 *
 *   make fuzz && build/fuzz/fuzz_lldp
 *
 * Built with -DRC_FUZZ_MAIN instead of -fsanitize=fuzzer, it replays the files given as
 * arguments (a corpus check without libFuzzer). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
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

#ifdef RC_FUZZ_MAIN
int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		char *buf;
		long n;

		if (!f) {
			perror(argv[i]);
			return 1;
		}
		fseek(f, 0, SEEK_END);
		n = ftell(f);
		fseek(f, 0, SEEK_SET);
		buf = malloc(n > 0 ? (size_t)n : 1);
		if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
			fclose(f);
			free(buf);
			return 1;
		}
		fclose(f);
		LLVMFuzzerTestOneInput((const uint8_t *)buf, (size_t)n);
		free(buf);
	}
	return 0;
}
#endif
