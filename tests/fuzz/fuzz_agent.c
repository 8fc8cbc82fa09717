/* libFuzzer target: what a host's agent answers the controller (drivers/host/agent_ssh.c)
 * and what a journal holds are parsed by rc_port_qos_from_json (engine/run/qos_json.c), and
 * saved plans by rc_plan_load; neither may crash on any input.  Accepted port states must
 * survive a round trip unchanged. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../engine/run/plan_file.h"
#include "rocectl/journal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), path[] = "/tmp/rocectl-fuzz-plan-XXXXXX";
	struct rc_plan_file plan;
	struct rc_err err = {0};
	struct port_qos q, again;
	int fd;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (rc_port_qos_from_json(text, &q, &err) == 0) {
		char *json = rc_port_qos_to_json(&q);

		if (!json || rc_port_qos_from_json(json, &again, &err) ||
		    memcmp(&q, &again, sizeof(q)))
			abort();
		free(json);
	}
	fd = mkstemp(path);
	if (fd >= 0) {
		if (write(fd, data, size) == (ssize_t)size && rc_plan_load(path, &plan, &err) == 0)
			rc_plan_free(&plan);
		close(fd);
		unlink(path);
	}
	free(text);
	return 0;
}
