/* SPDX-License-Identifier: Apache-2.0 */
/* The dialect registry: adding a platform = one file defining a struct sim_dialect and one
 * line here. */
#include <string.h>

#include "sim.h"

extern const struct sim_dialect nvue_dialect;
extern const struct sim_dialect sonic_dialect;
extern const struct sim_dialect eos_dialect;

static const struct sim_dialect *const dialects[] = {
    &nvue_dialect,
    &sonic_dialect,
    &eos_dialect,
};

const struct sim_dialect *sim_dialect_find(const char *name)
{
	for (size_t i = 0; i < sizeof(dialects) / sizeof(dialects[0]); i++)
		if (name && strcmp(dialects[i]->name, name) == 0)
			return dialects[i];
	return NULL;
}

const struct sim_dialect *sim_dialect_of(const cJSON *st)
{
	return sim_dialect_find(jstr(st, "platform", NULL));
}
