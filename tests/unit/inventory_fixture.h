/* SPDX-License-Identifier: Apache-2.0 */
/* The fixture of the inventory loader's unit tests (test_inventory.c, test_jump.c): YAML
 * text loaded as "i.yaml" into one inventory, with its warnings and error, and the checks
 * those tests make of a load.  Header-only, like testutil.h; include after <cmocka.h>. */
#ifndef ROCECTL_INVENTORY_FIXTURE_H
#define ROCECTL_INVENTORY_FIXTURE_H

#include <stdlib.h>
#include <string.h>

#include "rocectl/inventory.h"

#define HEAD "apiVersion: rocectl/v1\nkind: Inventory\n"

struct fixture {
	struct rc_inventory inv;
	struct rc_warnings w;
	struct rc_err err;
};

static inline int inventory_setup(void **state)
{
	*state = calloc(1, sizeof(struct fixture));
	return *state ? 0 : -1;
}

static inline int teardown(void **state)
{
	struct fixture *f = *state;

	rc_inventory_fini(&f->inv);
	free(f);
	return 0;
}

/* Load `text` in place of what the fixture held; 0 or the loader's negative errno. */
static inline int load(struct fixture *f, const char *text)
{
	rc_inventory_fini(&f->inv);
	memset(&f->w, 0, sizeof(f->w));
	rc_err_clear(&f->err);
	return rc_inventory_load_buffer("i.yaml", text, strlen(text), &f->inv, &f->w, &f->err);
}

/* `text` is refused with `msg` at line:col, and nothing of it is left loaded. */
static inline void expect_error(struct fixture *f, const char *text, int line, int col,
				const char *msg)
{
	int rc = load(f, text);

	if (rc == 0 || f->err.line != line || f->err.column != col || !strstr(f->err.msg, msg))
		fail_msg("rc %d, got %s:%d:%d: %s; want %d:%d: %s", rc, f->err.file, f->err.line,
			 f->err.column, f->err.msg, line, col, msg);
	assert_string_equal(f->err.file, "i.yaml");
	assert_int_equal(f->inv.n_devices, 0); /* freed on error */
	assert_null(f->inv.devices);
}

static inline const struct rc_device *dev(const struct fixture *f, const char *name)
{
	const struct rc_device *d = rc_inventory_device(&f->inv, name);

	if (!d)
		fail_msg("no device '%s'", name);
	return d;
}

#endif
