/* What every switch dialect does the same way: refuse unsafe port names before anything
 * is sent, and run a command over a session that is replaced once when it was abandoned
 * (after a timeout), so that a rollback can still reach a switch that hung once. */
#ifndef ROCECTL_SWITCH_COMMON_H
#define ROCECTL_SWITCH_COMMON_H

#include <stdbool.h>
#include <stddef.h>

#include "rocectl/driver.h"
#include "rocectl/transport.h"

/* 0, or -EINVAL naming the first port `ok` refuses ("not a valid <dialect> <what>"). */
int rc_switch_check_ports(const struct rc_device *dev, bool (*ok)(const char *name),
			  const char *dialect, const char *what, struct rc_err *err);

/* rc_ssh_run on *ssh; on -EPIPE (the connection was given up) reconnect once and retry. */
int rc_switch_ssh_run(struct rc_ssh **ssh, const struct rc_device *dev,
		      const struct rc_run_opts *opts, const char *cmd, const char *in,
		      size_t in_len, struct rc_ssh_result *res, struct rc_err *err);

/* -EIO for a command that exited non-zero: "WHAT failed (exit status N): <its stderr, or
 * stdout when stderr is empty, cleaned>". */
int rc_switch_exit_error(const struct rc_ssh_result *res, const char *what, struct rc_err *err);

#endif
