/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for verify --merge's reader of the shards' jsonl (engine/report/merge.c):
 * the input is the lines of one or more files (a line "--" starts the next file), read
 * against a small fabric of two hosts, a leaf and a spine; then the fleet is built and
 * the report printed, as `rocectl verify --merge` does.
 *
 *   make fuzz && build/fuzz/fuzz_merge -max_len=65536 tests/data/merge
 *
 * Every input must end in 0 or an error naming the file and line, without a crash, a leak
 * or a hang. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/deadlock.h"
#include "rocectl/inventory.h"
#include "rocectl/lldp.h"
#include "rocectl/policy.h"
#include "rocectl/result.h"
#include "rocectl/shard.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char inventory[] =
    "apiVersion: rocectl/v1\nkind: Inventory\n"
    "hosts:\n"
    "  - {name: gpu001, address: 127.2.0.1, transport: ssh, interfaces: [enp12s0np0]}\n"
    "  - {name: gpu002, address: 127.2.0.2, transport: ssh, interfaces: [enp12s0np0]}\n"
    "switches:\n"
    "  - {name: leaf01, address: 127.1.0.1, platform: nvue, ports: [swp1-3]}\n"
    "  - {name: spine01, address: 127.1.100.1, platform: sonic, ports: [Ethernet0]}\n"
    "links:\n"
    "  - {a: \"gpu001:enp12s0np0\", b: \"leaf01:swp1\"}\n"
    "  - {a: \"gpu002:enp12s0np0\", b: \"leaf01:swp2\"}\n"
    "  - {a: \"leaf01:swp3\", b: \"spine01:Ethernet0\"}\n";

static const char policy[] = "apiVersion: rocectl/v1\nkind: Policy\nname: f\n"
			     "roce: {dscp: 26, priority: 3}\ncnp: {dscp: 48, priority: 6}\n"
			     "pfc: {priorities: [3]}\n"
			     "ecn: {min_threshold: 150KB, max_threshold: 1500KB, "
			     "probability: 100%}\n";

static struct rc_inventory inv;
static struct rc_policy pol;
static int ready; /* 1 loaded, -1 failed */

static int setup(void)
{
	struct rc_err err = {0};

	if (!ready)
		ready = rc_inventory_load_buffer("inv.yaml", inventory, sizeof(inventory) - 1, &inv,
						 NULL, &err) ||
				rc_policy_load_buffer("pol.yaml", policy, sizeof(policy) - 1, &pol,
						      NULL, &err)
			    ? -1
			    : 1;
	return ready;
}

/* The merged fleet through verify's checks, printed into nothing. */
static void report(struct rc_fleet *f)
{
	FILE *null = fopen("/dev/null", "w");
	struct rc_result r;
	struct rc_deadlock dl;
	struct rc_lldp lldp;
	struct rc_cabling cab = {0};
	struct rc_err err = {0};
	struct rc_out o;
	size_t bl, bh, un;

	if (!null)
		return;
	rc_out_init(&o, null, RC_OUT_JSON);
	if (!rc_result_build(&r, f, &err)) {
		rc_out_open_object(&o, NULL);
		rc_report_checks(&o, &r, &bl, &bh);
		if (!rc_deadlock_analyze(&dl, f->inv, &err)) {
			rc_report_deadlock(&o, &dl, &r, &un);
			rc_deadlock_fini(&dl);
		}
		if (!rc_lldp_read(&lldp, f, &err)) {
			if (!rc_cabling_check(&cab, &lldp, &err))
				rc_report_cabling(&o, &lldp, &cab);
			rc_cabling_fini(&cab);
			rc_lldp_fini(&lldp);
		}
		rc_out_close_object(&o);
		rc_result_fini(&r);
	}
	fclose(null);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size;
	struct rc_merge m;
	struct rc_fleet f;
	struct rc_err err = {0};
	int rc;

	if (setup() < 0)
		abort();
	if (rc_merge_init(&m, &inv, &pol, &err))
		return 0;
	rc_merge_begin_file(&m, "a.jsonl");
	rc = 0;
	while (!rc && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (len == 2 && !memcmp(p, "--", 2)) {
			rc = rc_merge_end_file(&m, &err);
			if (!rc)
				rc_merge_begin_file(&m, "b.jsonl");
		} else {
			rc = rc_merge_line(&m, p, len, &err);
		}
		p += len + (nl != NULL);
	}
	if (!rc)
		rc = rc_merge_end_file(&m, &err);
	if (!rc && !rc_merge_finish(&m, &f, &err))
		report(&f);
	rc_merge_fini(&m);
	return 0;
}
