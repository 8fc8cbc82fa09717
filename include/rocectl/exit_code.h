/* SPDX-License-Identifier: Apache-2.0 */
/* Process exit codes (README.md, "Exit status"): 0 in sync / ok, 2 changes or drift, 1 a
 * runtime error, 64 a usage error (the command line itself is wrong: EX_USAGE of BSD's
 * sysexits.h), so that a script can tell "the fabric is not right" from "I called it wrong".
 * The engine's run transaction (include/rocectl/txn.h) returns them too. */
#ifndef ROCECTL_EXIT_CODE_H
#define ROCECTL_EXIT_CODE_H

enum {
	RC_EXIT_OK = 0,
	RC_EXIT_ERROR = 1,
	RC_EXIT_CHANGES = 2,
	RC_EXIT_USAGE = 64,
};

#endif
