/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for the policy and inventory loaders (untrusted YAML).  `make fuzz`
 * builds it as build/fuzz/fuzz_policy (t0900 gives it a short smoke run); for a campaign,
 * or by hand without the Makefile, from the repository root:
 *
 *   clang -std=c11 -D_GNU_SOURCE -Iinclude -g -O1 -fsanitize=fuzzer,address,undefined \
 *       tests/fuzz/fuzz_policy.c engine/config/[a-z]*.c engine/util/err.c \
 *       support/model.c $(pkg-config --cflags --libs yaml-0.1) -lm \
 *       -o build/fuzz_policy
 *   mkdir -p build/fuzz-corpus
 *   build/fuzz_policy -max_total_time=300 -max_len=65536 build/fuzz-corpus policies \
 *       examples tests/data/bad
 *
 * (new inputs go to the first directory; the others seed it). *
 * Every input must end in 0 or an error with a position, without a crash, a leak, a hang
 * or an allocation out of proportion to the input. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "rocectl/inventory.h"
#include "rocectl/policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rc_policy *pol = malloc(sizeof(*pol)), *dp = malloc(sizeof(*dp));
	struct rc_warnings *warn = malloc(sizeof(*warn));
	struct rc_inventory inv;
	struct rc_err err;

	if (!pol || !dp || !warn)
		abort();
	warn->n = warn->dropped = 0;
	rc_policy_load_buffer("fuzz.yaml", (const char *)data, size, pol, warn, &err);
	warn->n = warn->dropped = 0;
	if (rc_inventory_load_buffer("fuzz.yaml", (const char *)data, size, &inv, warn, &err) ==
	    0) {
		/* Exercise the per-device path against a known-good policy shape. */
		static const char base[] = "apiVersion: rocectl/v1\nkind: Policy\nname: f\n"
					   "roce: {dscp: 26, priority: 3}\ncnp: {dscp: 48, "
					   "priority: 6}\npfc: {priorities: [3]}\n"
					   "ecn: {min_threshold: 150KB, max_threshold: 1500KB, "
					   "probability: 100%}\n";

		if (rc_policy_load_buffer("base.yaml", base, sizeof(base) - 1, pol, NULL, &err) ==
		    0)
			for (size_t i = 0; i < inv.n_devices; i++)
				rc_inventory_policy(&inv, i, pol, dp, &err);
		rc_inventory_free(&inv);
	}
	free(pol);
	free(dp);
	free(warn);
	return 0;
}
