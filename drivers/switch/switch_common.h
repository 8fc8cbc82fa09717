/* SPDX-License-Identifier: Apache-2.0 */
/* What every switch dialect does the same way: refuse unsafe port names before anything
 * is sent, and run a command over a session that is replaced once when it was abandoned
 * (after a timeout), so that a rollback can still reach a switch that hung once. */
#ifndef ROCECTL_SWITCH_COMMON_H
#define ROCECTL_SWITCH_COMMON_H

#include <stdbool.h>
#include <stddef.h>

#include "rocectl/driver.h"
#include "rocectl/transport.h"
#include "port_memo.h"

/* rc_ssh_run on *ssh; on -EPIPE (the connection was given up) reconnect once and retry. */
int rc_switch_ssh_run(struct rc_ssh **ssh, const struct rc_device *dev,
		      const struct rc_run_opts *opts, const char *cmd, const char *in,
		      size_t in_len, struct rc_ssh_result *res, struct rc_err *err);

/* -EIO for a command that exited non-zero: "WHAT failed (exit status N): <its stderr, or
 * stdout when stderr is empty, cleaned>". */
int rc_switch_exit_error(const struct rc_ssh_result *res, const char *what, struct rc_err *err);

/* What a dialect's sessions need of the open below: how its port names are checked. */
struct rc_switch_dialect {
	const char *name;      /* "NVUE", for messages */
	const char *port_what; /* "interface name" */
	bool (*name_ok)(const char *name);
};

/* A dialect's open: refuse the inventory's unsafe port names (nothing is sent), allocate a
 * zeroed session of `size` bytes and let `connect` fill it (alt: the dialect's second
 * transport, REST or eAPI); the session is freed when connect fails.  *out is NULL on error. */
int rc_switch_open(const struct rc_device *dev, const struct rc_run_opts *opts,
		   const struct rc_switch_dialect *d, size_t size,
		   int (*connect)(void *s, const struct rc_device *dev,
				  const struct rc_run_opts *opts, bool alt, struct rc_err *err),
		   bool alt, void **out, struct rc_err *err);

/* The guard every dialect puts on a shared object (a global line, a profile, a map): may
 * the run change `group` of `port`?  Only when one of the writes is for that port and has
 * that group; otherwise a change to the shared object would also change a port that is
 * already as wanted, which the run must refuse. */
bool rc_switch_port_writes(const struct rc_port_write *w, size_t n, const char *port,
			   uint32_t group);

/* A name the dialects interpolate into commands and paths: 1..RC_NAME_MAX-1 characters,
 * the first a letter or digit, each other one a letter, a digit or one of `inner`. */
bool rc_switch_name_ok(const char *name, const char *inner);

/* -EPERM "'<device>': refusing to write in a dry run" when opts->dry_run, else 0. */
int rc_switch_refuse_dry_run(const struct rc_device *dev, const struct rc_run_opts *opts,
			     struct rc_err *err);

/* info[i] (info_size bytes each, the size the read kept) becomes the info the last read kept for
 * the port of w[i]; -EINVAL "port '<p>' was not read before apply" for a port it did not read. */
int rc_switch_write_infos(const struct rc_port_memo *read, const struct rc_port_write *w, size_t n,
			  void *info, size_t info_size, struct rc_err *err);

/* After a dialect found no error line of its own in a CLI command's output: 0 for exit
 * status 0, else -EIO with `why` the start of stderr (stdout when stderr is empty),
 * cleaned, or "exit status N". */
int rc_switch_cli_status(const char *out, size_t out_len, const char *errout, size_t err_len,
			 int exit_status, char *why, size_t why_len);

/* A read that folds a second command into its one command line sends
 * `EXTRA && echo END; echo BEGIN; READ`: EXTRA's output, a line END when EXTRA exited 0,
 * a line BEGIN, then READ's output; the line's exit status is READ's.  A marker counts only
 * as a whole line.  -EPROTO when there is no BEGIN line (cut short, or another command);
 * else *extra_len is where EXTRA's output ends (the END line excluded), *extra_ok whether
 * the END line closes it (false: EXTRA failed or was cut short), *read_off where READ's
 * output starts.  rc_switch_folds_lldp: whether a read folds LLDP in (opts->read_neighbors),
 * never under `rocectl capture` or --snapshot, whose files hold one command's answer each
 * (drivers/transport/snapshot.c), so that a capture stays replayable by any later run. */
/* Where the first line of text[0..len) that is exactly `marker` (a trailing CR allowed)
 * starts; len when none is. */
size_t rc_switch_line_at(const char *text, size_t len, const char *marker);

bool rc_switch_folds_lldp(const struct rc_run_opts *opts);

/* A note of a driver's check op (plan); one past RC_NOTES_MAX is counted as dropped. */
void rc_switch_note(struct rc_notes *notes, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The neighbours a read's own command line printed (rc_switch_folds_lldp), kept in the
 * session until the run asks for them through the driver's neighbors op, once: the list, or
 * its section's error (rc, err). */
struct rc_switch_lldp {
	bool kept;
	int rc;
	struct rc_err err;
	struct rc_neighbors nb;
};
/* Forget what was kept (a new read keeps its own). */
void rc_switch_lldp_drop(struct rc_switch_lldp *k);
/* The read starts keeping: what was kept before dropped, the error cleared. */
void rc_switch_lldp_begin(struct rc_switch_lldp *k);
/* A read whose line carries the neighbours starts: until it keeps them, what is kept is the
 * error that it did not, so that `neighbors` sends no second line after a read that
 * failed (the device's cabling is then unknown, with this error). */
void rc_switch_lldp_pending(struct rc_switch_lldp *k, const char *device);
/* When something was kept: hands it to *out (whose old list is freed) and *err, returns
 * true with *rc its result, and keeps nothing more; false when the read kept nothing. */
bool rc_switch_lldp_take(struct rc_switch_lldp *k, struct rc_neighbors *out, struct rc_err *err,
			 int *rc);
int rc_switch_split_folded(const char *out, size_t len, const char *end, const char *begin,
			   size_t *extra_len, bool *extra_ok, size_t *read_off);

#endif
