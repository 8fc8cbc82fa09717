/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for the NVUE parsers (drivers/switch/nvue_parse.c, nvue_ops.c): the
 * input is device output, as any of an `nv show` row table, `nv show qos -o json`, `nv show
 * interface <if> qos -o json`, `nv config apply` output or a REST revision object.
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Iinclude -I/usr/include/cjson \
 *     tests/fuzz/fuzz_nvue.c drivers/switch/nvue_parse.c drivers/switch/nvue_ops.c \
 *     engine/util/err.c -lcjson -o fuzz_nvue
 *   ./fuzz_nvue tests/data/nvue/
 *
 * Linked with tests/fuzz/replay_main.c instead of -fsanitize=fuzzer, it replays the files
 * given as arguments (a corpus check without libFuzzer). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "../../drivers/switch/nvue.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The native snapshot: the input as `nv config show -o json` output and as a journaled
 * blob (drivers/switch/nvue_snap.c); what parses is rendered as the restore. */
static void native_snapshot(const char *text, size_t size)
{
	static const char ports[2][RC_NAME_MAX] = {"swp1", "swp2"};
	struct rc_err err = {0};
	struct nvue_snap snap;
	cJSON *root = NULL;
	char *blob;

	if (nvue_config_show_root(text, size, &root, &err) == 0) {
		char(*ids)[64] = NULL;
		size_t n;

		if (nvue_pending_revisions(root, &ids, &n, &err) == 0)
			free(ids);
		if (nvue_snap_from_root(root, ports, 2, &snap, &err) == 0)
			nvue_snap_free(&snap);
		cJSON_Delete(root);
	}
	blob = malloc(size + 1);
	if (!blob)
		return;
	memcpy(blob, text, size);
	blob[size] = '\0';
	if (nvue_snap_parse(blob, &snap, &err) == 0) {
		char *cli = nvue_snap_cli(&snap), *back = nvue_snap_write(&snap);

		cJSON_Delete(nvue_snap_patch(&snap));
		free(cli);
		free(back);
		nvue_snap_free(&snap);
	}
	free(blob);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct rc_err err = {0};
	struct port_qos q;
	struct nvue_port_info info;
	char why[256], id[64], st[64], issue[256];
	cJSON *j = NULL;
	bool ok;

	nvue_check_apply_output(text, size, text, size, size ? data[0] : 0, why, sizeof(why));
	/* as an `nv show` row table */
	nvue_text_field(text, size, "fuzz", "pfc.cable-length", "operational", why, sizeof(why),
			&err);
	nvue_text_field(text, size, "fuzz", "[switch-priority]", "applied", why, sizeof(why), &err);
	if (nvue_parse_json(text, size, "fuzz", &j, &err) == 0) {
		/* the same document as the system tree, the interface tree, and both */
		nvue_parse_port(&(struct nvue_views){j, NULL, NULL, NULL}, &q, &info, &err);
		nvue_parse_port(&(struct nvue_views){j, j, j, j}, &q, &info, &err);
		if (cJSON_IsObject(j)) {
			cJSON *empty = cJSON_CreateObject();

			/* as the interface tree, and as the applied and startup views of a
			 * switch whose operational view is empty */
			nvue_parse_port(&(struct nvue_views){empty, NULL, NULL, j}, &q, &info,
					&err);
			nvue_parse_port(&(struct nvue_views){empty, j, empty, NULL}, &q, &info,
					&err);
			nvue_parse_port(&(struct nvue_views){empty, empty, j, NULL}, &q, &info,
					&err);
			cJSON_Delete(empty);
		}
		{
			struct rc_counters c = {0};

			nvue_parse_counters(j, "swp1", &c, &err);
			rc_counters_free(&c);
		}
		nvue_revision_id(j, id, sizeof(id), &err);
		if (nvue_revision_state(j, st, sizeof(st), issue, sizeof(issue), &err) == 0)
			nvue_revision_final(st, &ok);
		{
			char(*ids)[64] = NULL;
			size_t n = 0;

			if (nvue_revisions_in_state(j, "confirm", &ids, &n, &err) == 0 && n)
				nvue_revision_state_of(j, ids[0], st, sizeof(st), &err);
			free(ids);
		}
		cJSON_Delete(j);
	}
	native_snapshot(text, size);
	return 0;
}
