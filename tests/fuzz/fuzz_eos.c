/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for the EOS parsers (drivers/switch/eos_parse.c, eos_views.c,
 * eos_ops.c): the input is device output, as any of `show running-config` (text, or
 * eAPI's JSON tree), the operational views (text and JSON), CLI error output or an eAPI
 * JSON-RPC answer.  A configuration that parses is also read as every interface it holds
 * and written back through the command builder, its effects read against itself as the
 * startup-config; and any input goes through the capture scrubber.
 *
 *   make fuzz && build/fuzz/fuzz_eos tests/data/eos/
 *
 * Linked with tests/fuzz/replay_main.c instead of -fsanitize=fuzzer, it replays the files
 * given as arguments (a corpus check without libFuzzer). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "../../drivers/switch/eos.h"
#include "rocectl/transport.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void interfaces_of(const struct eos_config *cfg, const char *text, size_t size,
			  const cJSON *j)
{
	int n = 0;

	for (size_t i = 0; i < cfg->n && n < 8; i++) {
		const char *l = cfg->v[i].text;
		struct port_qos have, want;
		struct eos_port_info info;
		struct rc_err err = {0};
		struct eos_cmds cmds;
		struct eos_peer peer;
		struct rc_port_write w;
		bool uc = false;
		size_t nl;
		char **lines;

		if (cfg->v[i].depth || strncmp(l, "interface ", 10))
			continue;
		n++;
		if (eos_parse_port(cfg, l + 10, &have, &info, &err))
			continue;
		eos_view_pfc(j, j ? NULL : text, size, l + 10, &have, &info, &err);
		eos_view_trust(j, j ? NULL : text, size, l + 10, &have, &err);
		eos_view_ecn(text, size, l + 10, &have, &info, &uc, &err);
		if (j)
			eos_view_maps(j, &have, &err);
		/* the same document as the startup-config, and the effects read from it */
		eos_effect_ecn_count(&have, &info);
		eos_effect_startup(cfg, cfg, l + 10, &have, &err);
		eos_mark_unverified(&have);
		want = have;
		want.trust = RC_TRUST_DSCP;
		want.dscp_mask = 1ull << 26;
		want.dscp2prio[26] = 3;
		want.pfc_enabled = 1u << 3;
		want.ecn_tc_mask = 1u << 3;
		want.ecn[3] = (struct rc_ecn_tc){true, 150000, 1500000, 100};
		want.watchdog = (struct rc_watchdog){true, 300, 300, RC_WD_DROP, 0};
		w = (struct rc_port_write){l + 10, &want, &have,
					   RC_F_TRUST | RC_F_DSCP2PRIO | RC_F_PFC | RC_F_ECN |
					       RC_F_WATCHDOG | RC_F_ETS};
		want.ets.tc_mask = 1u << 3;
		want.ets.tsa[3] = RC_TSA_DWRR;
		want.ets.bw_pct[3] = 50;
		want.ets.no_share_mask = (uint8_t)~want.ets.tc_mask;
		peer = (struct eos_peer){l + 10, &info};
		if (eos_build_cmds(cfg, &w, &info, 1, &peer, 1, &cmds, &err))
			continue;
		lines = eos_render(&cmds, &nl);
		eos_lines_free(lines);
		eos_cmds_free(&cmds);
	}
}

/* The native snapshot (drivers/switch/eos_snap.c): the input as a journaled blob, and as
 * a running-config snapshotted and restored against itself and against nothing. */
static void native_snapshot(const char *text, size_t size, const struct eos_config *cfg)
{
	static const char ports[2][RC_NAME_MAX] = {"Ethernet1", "Ethernet2"};
	struct rc_err err = {0};
	struct eos_config empty = {0};
	struct eos_snap snap;
	char *blob, **lines;
	size_t n;

	if (cfg && eos_snap_from_config(cfg, cfg, ports, 2, "rocectl-1", &snap, &err) == 0) {
		if (eos_snap_restore_lines(cfg, &snap, &empty, &lines, &n, &err) == 0)
			eos_lines_free(lines);
		if (eos_snap_restore_lines(&empty, &snap, &snap.cfg, &lines, &n, &err) == 0)
			eos_lines_free(lines);
		free(eos_snap_write(&snap));
		eos_snap_free(&snap);
	}
	blob = malloc(size + 1);
	if (!blob)
		return;
	memcpy(blob, text, size);
	blob[size] = '\0';
	if (eos_snap_parse(blob, &snap, &err) == 0) {
		if (eos_snap_restore_lines(&snap.cfg, &snap, &snap.startup, &lines, &n, &err) == 0)
			eos_lines_free(lines);
		eos_snap_free(&snap);
	}
	free(blob);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const cmds[] = {"enable", "configure session s", "commit"};
	const char *text = (const char *)data;
	struct rc_err err = {0};
	struct eos_config cfg;
	const cJSON *res;
	char why[256];
	cJSON *j;

	eos_check_cli_output(text, size, text, size, size ? data[0] : 0, why, sizeof(why));
	{ /* every answer `rocectl capture` records is scrubbed first (drivers/transport/tap.c) */
		static const char *const lit[] = {"secret", NULL};
		char *out = NULL;
		size_t n;

		if (!rc_scrub(text, size, lit, &out, &n))
			free(out);
	}
	if (eos_parse_config_text(text, size, "fuzz", &cfg, &err) == 0) {
		interfaces_of(&cfg, text, size, NULL);
		native_snapshot(text, size, &cfg);
		eos_config_free(&cfg);
	} else {
		native_snapshot(text, size, NULL);
	}
	j = cJSON_ParseWithLength(text, size);
	if (j) {
		eos_eapi_result(j, "rocectl-1", cmds, 3, &res, &err);
		{
			struct rc_counters c = {0};

			eos_parse_counters(j, j, "Ethernet1", &c, &err);
			eos_parse_queue_drops(j, "Ethernet1", &c, &err);
			rc_counters_free(&c);
		}
		if (eos_parse_config_json(j, "fuzz", &cfg, &err) == 0) {
			interfaces_of(&cfg, text, size, j);
			eos_config_free(&cfg);
		}
		cJSON_Delete(j);
	}
	return 0;
}
