/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for the SONiC parsers (drivers/switch/sonic_parse.c, sonic_ops.c,
 * sonic_effect.c): the input is device output, as any of `show runningconfiguration all`
 * (CONFIG_DB JSON), `sonic-db-cli ... HGETALL` lines (Python dicts), a pg_profile_lookup.ini
 * or GCU's output.  A CONFIG_DB that parses
 * is also read as every port it names, and written back through the patch builder.
 *
 *   make fuzz && build/fuzz/fuzz_sonic tests/data/sonic/
 *
 * Linked with tests/fuzz/replay_main.c instead of -fsanitize=fuzzer, it replays the files
 * given as arguments (a corpus check without libFuzzer). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "../../drivers/switch/sonic.h"
#include "../../drivers/switch/switch_common.h"
#include "rocectl/driver.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Read every PORT of the document, then plan a lossless change for what was read. */
static void ports_of(const cJSON *cfg)
{
	const cJSON *ports = cJSON_GetObjectItemCaseSensitive(cfg, "PORT"), *p;
	int n = 0;

	if (!cJSON_IsObject(ports))
		return;
	cJSON_ArrayForEach(p, ports)
	{
		struct port_qos have, want;
		struct sonic_port_info info;
		struct rc_err err = {0};
		struct sonic_ops ops;
		struct sonic_peer peer;
		struct rc_port_write w;

		if (!p->string || ++n > 8)
			break;
		if (sonic_parse_port(cfg, cfg, p->string, &have, &info, &err))
			continue;
		sonic_effect_pfcwd(&info, p->string, &have);
		sonic_effect_unverified(&info, NULL, &have);
		want = have;
		want.dscp2prio[26] = 3;
		want.pfc_enabled = 1u << 3;
		want.cable_length_m = 100;
		want.ecn[3] = (struct rc_ecn_tc){true, 150000, 1500000, 100};
		want.watchdog = (struct rc_watchdog){true, 300, 300, RC_WD_DROP, 0};
		w = (struct rc_port_write){p->string, &want, &have,
					   RC_F_TRUST | RC_F_DSCP2PRIO | RC_F_PFC | RC_F_CABLE |
					       RC_F_ECN | RC_F_WATCHDOG};
		peer = (struct sonic_peer){p->string, &info};
		if (sonic_build_ops(cfg, &w, &info, 1, &peer, 1, &ops, &err) == 0) {
			cJSON_Delete(sonic_render_patch(&ops, cfg, &err));
			sonic_ops_free(&ops);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct rc_err err = {0};
	char why[256], tables[4][RC_NAME_MAX];
	cJSON *j = NULL, *docs[3];

	sonic_gcu_verdict(SONIC_GCU_APPLY, text, size, text, size, size ? data[0] : 0, why,
			  sizeof(why));
	sonic_gcu_refused_tables(text, size, tables, 4);
	{
		struct rc_counters c = {0};

		sonic_parse_pfc_counters(text, size, "Ethernet0", &c, &err);
		sonic_parse_wred_counters(text, size, "Ethernet0", &c, &err);
		sonic_parse_queue_counters(text, size, "Ethernet0", &c, &err);
		sonic_parse_pg_drops(text, size, "Ethernet0", &c, &err);
		rc_counters_free(&c);
	}
	{
		/* the folded read's sections (sonic.c split_read): whatever the device printed,
		 * the split stays inside the answer */
		size_t extra_len = 0, read_off = 0;
		bool extra_ok = false;

		if (rc_switch_line_at(text, size, "@@rocectl-config@@") > size)
			abort();
		if (rc_switch_split_folded(text, size, "@@rocectl-rows-end@@", "@@rocectl-config@@",
					   &extra_len, &extra_ok, &read_off) == 0 &&
		    (extra_len > size || read_off > size))
			abort();
	}
	{
		struct rc_neighbors nb = {0};

		sonic_parse_port_aliases(text, size, "fuzz", &nb, &err);
		rc_neighbors_fini(&nb);
	}
	{
		struct sonic_rows rows;
		uint32_t below;

		if (sonic_parse_lookup(text, size, "fuzz", &rows, &err) == 0)
			sonic_row_up(&rows, rows.v[0].speed_mbps, rows.v[0].cable_m, &below);
	}
	if (sonic_parse_pydict(text, size, "fuzz", &j, &err) == 0)
		cJSON_Delete(j);
	if (sonic_parse_pydict_lines(text, size, "fuzz", docs, 3, &err) == 0)
		for (int i = 0; i < 3; i++)
			cJSON_Delete(docs[i]);
	if (sonic_parse_configdb(text, size, "fuzz", &j, &err) == 0) {
		ports_of(j);
		cJSON_Delete(j);
	}
	return 0;
}
