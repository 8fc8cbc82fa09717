/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: what a host's agent answers the controller (drivers/host/agent_ssh.c):
 * the transport's raw result (stdout that may be empty, NUL-laden, not UTF-8; stderr; any
 * exit status) judged by rc_agent_answer_parse, then the state in it and what a journal
 * holds parsed by rc_port_qos_from_json (support/qos_json.c), the counters in an accepted
 * answer (`agent counters --json`'s, or `agent state --counters`'s "counters") by
 * rc_agent_counters_parse, its LLDP neighbours by rc_agent_lldp_parse, and saved plans by
 * rc_plan_load, and rendered desired states by rc_desired_load; none may crash on any input.
 * Accepted port states must survive a round trip unchanged. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../drivers/host/agent_answer.h"
#include "rocectl/plan_file.h"
#include "rocectl/desired.h"
#include "rocectl/journal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The transport-level result: the first byte picks the exit status and how much of the
 * rest is stderr; stdout is handed over as the transport does (NULL when empty). */
static void fuzz_answer(const uint8_t *data, size_t size)
{
	static const int status[] = {0, 1, 2, 127, -1, 255, 139, 3};
	struct rc_err err = {0};
	size_t split;
	cJSON *j = NULL;

	if (!size)
		return;
	split = (size_t)(data[0] >> 3) % size;
	if (rc_agent_answer_parse("h", "rocectl agent state",
				  size > 1 + split ? (const char *)data + 1 + split : NULL,
				  size > 1 + split ? size - 1 - split : 0, (const char *)data + 1,
				  split, status[data[0] & 7], &j, &err) == 0) {
		struct rc_counters c = {0};
		struct rc_neighbors nb;

		if (!cJSON_IsObject(j))
			abort();
		rc_agent_counters_parse("h", j, &c, &err);
		rc_counters_fini(&c);
		c = (struct rc_counters){0};
		rc_agent_counters_parse("h", cJSON_GetObjectItemCaseSensitive(j, "counters"), &c,
					&err);
		rc_counters_fini(&c);
		nb = (struct rc_neighbors){0};
		rc_agent_lldp_parse("h", j, &nb, &err);
		rc_neighbors_fini(&nb);
	}
	cJSON_Delete(j);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), path[] = "/tmp/rocectl-fuzz-plan-XXXXXX";
	struct rc_plan_file plan;
	struct rc_err err = {0};
	struct port_qos q, again;
	int fd;

	fuzz_answer(data, size);
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
		struct rc_desired_set set;

		if (write(fd, data, size) == (ssize_t)size && rc_plan_load(path, &plan, &err) == 0)
			rc_plan_free(&plan);
		/* a rendered desired state (agent --desired): accepted ones print again */
		if (rc_desired_load(path, &set, &err) == 0) {
			char *json = rc_desired_to_json(&set);

			if (!json)
				abort();
			free(json);
			rc_desired_fini(&set);
		}
		close(fd);
		unlink(path);
	}
	free(text);
	return 0;
}
