/* SPDX-License-Identifier: Apache-2.0 */
/* The CLI's printer for the run transaction (cli/txn_print.h). */
#include <stdio.h>

#include "txn_print.h"

static void say(void *ctx, enum rc_txn_say_kind kind, const char *cmd, const char *text)
{
	const struct rc_cli_say *s = ctx;
	FILE *f = kind == RC_TXN_NOTE && !s->notes_to_stderr ? stdout : stderr;

	switch (kind) {
	case RC_TXN_NOTE:
	case RC_TXN_RAW:
		fprintf(f, "%s\n", text);
		break;
	case RC_TXN_ERROR:
		fprintf(f, "rocectl %s: %s\n", cmd, text);
		break;
	case RC_TXN_WARN:
		fprintf(f, "rocectl %s: warning: %s\n", cmd, text);
		break;
	}
	if (s->flush)
		fflush(f);
}

void rc_cli_say_init(struct rc_cli_say *s, bool notes_to_stderr)
{
	s->notes_to_stderr = notes_to_stderr;
	s->flush = false;
	s->say.fn = say;
	s->say.ctx = s;
}

void rc_cli_txn_env(const struct rc_global *g, struct rc_txn_env *env)
{
	env->root = g->root;
	env->accept_new_host_keys = g->accept_new_host_keys;
	env->save_pending = g->save_pending;
	env->verbose = rc_cli_verbosity() > 0;
}
