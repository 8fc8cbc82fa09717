/* SPDX-License-Identifier: Apache-2.0 */
/* The CLI's printer for the engine's run transaction (include/rocectl/txn.h): notes on
 * stdout (stderr when stdout carries a document), errors and warnings on stderr as
 * "rocectl CMD: ..." (cli/txn_print.c). */
#ifndef ROCECTL_CLI_TXN_PRINT_H
#define ROCECTL_CLI_TXN_PRINT_H

#include <stdbool.h>

#include "rocectl/cli.h"
#include "rocectl/txn.h"

struct rc_cli_say {
	bool notes_to_stderr;
	bool flush; /* every line flushed as it is said (the confirm timer's log) */
	struct rc_txn_say say;
};

/* `s->say` ready to pass to the engine. */
void rc_cli_say_init(struct rc_cli_say *s, bool notes_to_stderr);
/* The global options as the engine's environment. */
void rc_cli_txn_env(const struct rc_global *g, struct rc_txn_env *env);

#endif
