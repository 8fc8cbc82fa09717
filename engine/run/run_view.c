/* The run record as `history` and `show` see it (include/rocectl/run_dir.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rocectl/confirm.h"
#include "rocectl/run_dir.h"
#include "rocectl/util.h"

int rc_run_state_line(const char *journal, const char *run_id, char *buf, size_t len)
{
	struct rc_confirm c;
	struct rc_run_loc loc;
	struct rc_err err = {0};

	if (rc_run_locate(journal, run_id, &loc, &err) || rc_confirm_load(&loc, &c, &err))
		return -ENOENT;
	rc_confirm_describe(&c, time(NULL), buf, len);
	return 0;
}

static bool is_known(char *const *known, size_t n, const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(known[i], id))
			return true;
	return false;
}

int rc_run_list_open(const char *journal, char *const *known, size_t n_known,
		     struct rc_run_open **out, size_t *n)
{
	char **ids = NULL;
	size_t m = 0, cap = 0;
	int rc;

	*out = NULL;
	*n = 0;
	rc = rc_run_list_records(journal, &ids, &m);
	for (size_t i = 0; !rc && i < m; i++) {
		struct rc_confirm c;
		struct rc_run_loc loc;
		struct rc_err err = {0};
		struct rc_run_open *r;

		if (is_known(known, n_known, ids[i]) ||
		    rc_run_locate(journal, ids[i], &loc, &err) || rc_confirm_load(&loc, &c, &err) ||
		    c.state == RC_CONFIRM_CONFIRMED || c.state == RC_CONFIRM_ROLLED_BACK)
			continue;
		if (rc_array_reserve((void **)out, &cap, *n + 1, sizeof(**out), 4)) {
			rc = -ENOMEM;
			break;
		}
		r = &(*out)[(*n)++];
		memset(r, 0, sizeof(*r));
		snprintf(r->run_id, sizeof(r->run_id), "%s", ids[i]);
		snprintf(r->command, sizeof(r->command), "%s", c.command);
		snprintf(r->host, sizeof(r->host), "%s", c.owner.host);
		r->changed = c.changed;
	}
	rc_run_ids_free(ids, m);
	return rc;
}

int rc_run_forget(const char *journal, const char *run_id, struct rc_err *err)
{
	struct rc_run_loc loc;
	int rc = rc_run_locate(journal, run_id, &loc, err);

	return rc ? rc : rc_confirm_forget(&loc, err);
}
