/* SPDX-License-Identifier: Apache-2.0 */
/* How the run transaction speaks and what it shares (include/rocectl/txn.h): lines go
 * through the caller's printer, never straight to a stream of the engine's choosing. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "rocectl/journal.h"
#include "txn_int.h"

void rc_txn_say(const struct rc_txn_say *s, enum rc_txn_say_kind kind, const char *cmd,
		const char *fmt, ...)
{
	char small[512], *text = small;
	va_list ap;
	int n;

	if (!s || !s->fn)
		return;
	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(small)) {
		text = malloc((size_t)n + 1);
		if (!text)
			return;
		va_start(ap, fmt);
		vsnprintf(text, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	s->fn(s->ctx, kind, cmd, text);
	if (text != small)
		free(text);
}

void rc_txn_say_warnings(const struct rc_txn_say *say, const struct rc_warnings *w)
{
	for (int i = 0; w && i < w->n && i < RC_WARN_MAX; i++) {
		const struct rc_err *e = &w->w[i];

		if (e->file[0])
			rc_txn_say(say, RC_TXN_RAW, "", "%s:%d:%d: warning: %s", e->file, e->line,
				   e->column, e->msg);
		else
			rc_txn_say(say, RC_TXN_RAW, "", "warning: %s", e->msg);
	}
	if (w && w->dropped)
		rc_txn_say(say, RC_TXN_RAW, "", "warning: %d more warnings not shown", w->dropped);
}

const char *rc_txn_journal_dir(const char *opt)
{
	const char *env = getenv("ROCECTL_JOURNAL");

	if (opt) /* given, even empty: "--journal ''" is the default, not the environment's */
		return *opt ? opt : RC_JOURNAL_DEFAULT_DIR;
	return env && *env ? env : RC_JOURNAL_DEFAULT_DIR;
}

void rc_txn_new_run_id(char *buf, size_t len)
{
	rc_journal_new_run_id(buf, len);
}

void rc_txn_env_of(const struct rc_confirm *c, const struct rc_txn_env *base,
		   struct rc_txn_env *out)
{
	*out = *base;
	out->root = c->root[0] ? c->root : base->root;
	out->accept_new_host_keys = c->accept_new_host_keys;
}
