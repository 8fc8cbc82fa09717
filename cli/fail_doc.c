/* SPDX-License-Identifier: Apache-2.0 */
/* A command whose --format json promises one document on stdout still keeps that promise
 * when it fails before its report: the message goes to stderr as in text mode, and stdout
 * gets the header, "schema", "command", "error" and "exit_code": 1, which the command's
 * schema in examples/ accepts in place of the full report (as confirm and rollback carry
 * their "error" in the document). */
#include <stdio.h>

#include "rocectl/cli.h"
#include "rocectl/print.h"

int rc_cli_fail(const char *cmd, bool json, const struct rc_err *err)
{
	char schema[64], msg[RC_ERR_MSG_MAX + 300];
	struct rc_out out;

	fprintf(stderr, "rocectl %s: ", cmd);
	rc_err_print(err, stderr);
	if (!json)
		return RC_EXIT_ERROR;
	snprintf(schema, sizeof(schema), "rocectl.%s/v1", cmd);
	rc_err_format(err, msg, sizeof(msg));
	rc_out_init(&out, stdout, RC_OUT_JSON);
	rc_out_open_object(&out, NULL);
	rc_out_str(&out, "schema", NULL, schema);
	rc_out_str(&out, "command", NULL, cmd);
	rc_out_str(&out, "error", NULL, msg[0] ? msg : "failed");
	rc_out_int(&out, "exit_code", NULL, RC_EXIT_ERROR);
	rc_out_close_object(&out);
	rc_out_end(&out);
	return RC_EXIT_ERROR;
}
