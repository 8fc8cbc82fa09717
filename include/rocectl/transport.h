/* SPDX-License-Identifier: Apache-2.0 */
/* Transports shared by the switch dialects (drivers/transport/): SSH (libssh) for CLI
 * dialects, HTTPS (libcurl) for REST/JSON-RPC dialects.
 *
 * One connection per device, reused for read -> apply -> verify.  A connection is used by
 * one thread at a time (each call takes the connection's lock); different connections may
 * be used from different threads at once.  There is no other mutable state.
 *
 * Secrets: passwords come only from the inventory's password_file / password_env; they are
 * held in memory for as short a time as possible and never put into a message. */
#ifndef ROCECTL_TRANSPORT_H
#define ROCECTL_TRANSPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rocectl/driver.h"
#include "rocectl/err.h"
#include "rocectl/inventory.h"

/* Largest password accepted from a file or the environment. */
#define RC_SECRET_MAX 512

/* The device's password (first line of password_file, or $password_env).  Returns 0, 1
 * when the inventory names no password source, or a negative errno (a named source that
 * is missing or empty too) with a message that names the source but never the secret.
 * Caller wipes `buf` after use (rc_secret_wipe). */
int rc_secret_password(const struct rc_device *dev, char *buf, size_t len, struct rc_err *err);
void rc_secret_wipe(void *buf, size_t len);

/* "~/x" -> "$HOME/x"; other paths are copied.  -ENAMETOOLONG when it does not fit. */
int rc_expand_home(const char *path, char *out, size_t len);

/* ---- SSH ---------------------------------------------------------------------------- */

struct rc_ssh;

/* Output of one remote command.  Buffers are NUL-terminated for convenience but may
 * contain NULs: use the lengths. */
struct rc_ssh_result {
	int exit_status; /* -1 when the server sent none */
	char *out;
	size_t out_len;
	char *err;
	size_t err_len;
};

#define RC_SSH_OUT_MAX (8u << 20)  /* stdout cap per command */
#define RC_SSH_ERR_MAX (64u << 10) /* stderr cap per command */

/* Connect, verify the host key against known_hosts (an unknown key is refused unless
 * opts->accept_new_host_keys, then recorded; a changed key is always refused) and
 * authenticate (public key: identity file, then ssh-agent when SSH_AUTH_SOCK is set;
 * then password from the inventory's password source). */
int rc_ssh_open(const struct rc_device *dev, const struct rc_run_opts *opts, struct rc_ssh **out,
		struct rc_err *err);

/* Run `cmd` (stdin from `in`/`in_len`, may be NULL/0) and collect its output, exit status
 * and stderr, within the command timeout.  A non-zero exit status is not an error here:
 * the caller judges it.  After a timeout or a dropped connection it is unusable: later
 * calls fail with -EPIPE, and the caller may open a new one. */
int rc_ssh_run(struct rc_ssh *s, const char *cmd, const char *in, size_t in_len,
	       struct rc_ssh_result *res, struct rc_err *err);
void rc_ssh_result_free(struct rc_ssh_result *res);
void rc_ssh_close(struct rc_ssh *s);

/* ---- HTTPS -------------------------------------------------------------------------- */

struct rc_rest;

struct rc_rest_response {
	long status; /* HTTP status */
	char *body;  /* NUL-terminated; may contain NULs */
	size_t len;
};

#define RC_REST_BODY_MAX (8u << 20) /* response size cap */
#define RC_REST_ATTEMPTS 3	    /* for idempotent requests (GET, PUT, DELETE) */

/* Prepare a connection to https://address:port<base> (port: the inventory's, else
 * default_port).  Certificate verification is on unless the inventory says insecure: true,
 * which prints a warning to stderr every time.  Basic auth with the device's credentials
 * when a password source is given. */
int rc_rest_open(const struct rc_device *dev, const struct rc_run_opts *opts, const char *base,
		 uint16_t default_port, struct rc_rest **out, struct rc_err *err);

/* One request.  `path` is appended to the base and must be already escaped (see
 * rc_rest_escape).  Any HTTP status is returned in resp->status (not an error); transport
 * failures, timeouts and oversize bodies are errors naming the device and URL.  Idempotent
 * methods are retried with backoff on connection failures and 502/503/504. */
int rc_rest_request(struct rc_rest *r, const char *method, const char *path, const char *body,
		    size_t body_len, const char *content_type, struct rc_rest_response *resp,
		    struct rc_err *err);
void rc_rest_response_free(struct rc_rest_response *resp);

/* A JSON request: `body` (may be NULL) is serialized; the response body, when not empty, is
 * parsed into *json (caller frees with cJSON_Delete).  Parse errors name device and URL.
 * HTTP statuses >= 400 are errors (with the body's message when there is one), except
 * those listed in `ok_statuses` (0-terminated, may be NULL). */
struct cJSON;
int rc_rest_json(struct rc_rest *r, const char *method, const char *path, const struct cJSON *body,
		 const long *ok_statuses, long *status, struct cJSON **json, struct rc_err *err);

/* Percent-encode `in` for a path segment or query value (unreserved characters kept). */
int rc_rest_escape(const char *in, char *out, size_t len);

void rc_rest_url(const struct rc_rest *r, const char *path, char *buf, size_t len);

void rc_rest_close(struct rc_rest *r);

/* ---- capture tap (drivers/transport/tap.c) -------------------------------------------- */

/* What `rocectl capture` hands the transports (rc_run_opts.tap): every SSH command or HTTP
 * request is first judged read-only (else refused with -EPERM before anything is sent),
 * then recorded with its raw answer.  `request` is the command line, or "METHOD path";
 * `body` the request body or NULL.  A record error does not fail the command. */
struct rc_tap {
	void (*record)(void *ctx, const char *request, const char *body, const char *answer,
		       size_t len);
	void *ctx;
	/* scrubbed out of request, body and answer before record sees them (rc_scrub) */
	const char *const *secrets;
};

/* Tap a transport answer: scrub, then record (used by ssh.c and rest.c). */
void rc_tap_record(const struct rc_tap *t, const char *request, const char *body, size_t body_len,
		   const char *answer, size_t len);

/* The device's software version, asked through its transport with a read-only command
 * (EOS `show version`, NVUE `nv show system -o json`, SONiC `show version`); "unknown"
 * when it does not say.  The switch drivers' `device_version` op (include/rocectl/driver.h). */
void rc_tap_device_version(const struct rc_device *dev, const struct rc_run_opts *opts, char *out,
			   size_t len);

/* An SSH command line every piece of which (split at &&, ||, ;, |) is a show command of a
 * dialect: `show ...`, `nv show ...`, `sonic-db-cli DB HGETALL|HGET|KEYS|EXISTS ...`,
 * `rocectl agent state|show|counters ...`, `json` (EOS's output filter); no redirection, no
 * substitution. */
bool rc_tap_read_only_cmd(const char *cmd);
/* GET or HEAD; or an eAPI runCmds POST whose commands are `enable` and show commands. */
bool rc_tap_read_only_http(const char *method, const char *path, const char *body, size_t len);

/* Scrub `in` into a malloc'd copy (*out, *out_len): IPv4 and IPv6 addresses, MAC addresses,
 * the values after password/secret/token/key/community words and serial numbers become
 * placeholders (<ipv4>, <ipv6>, <mac>, <secret>, <serial>); each of `literals` (may be
 * NULL-terminated list or NULL, e.g. the inventory's password) becomes <secret>. */
int rc_scrub(const char *in, size_t len, const char *const *literals, char **out, size_t *out_len);
/* The same without the addresses (what `-v` prints: secrets go, addresses stay). */
int rc_redact(const char *in, size_t len, const char *const *literals, char **out, size_t *out_len);
/* -v (rc_run_opts.verbose): "DEVICE ssh: COMMAND" or "DEVICE https: METHOD PATH" (and the
 * body, at most 4 KiB of it) on stderr, redacted. */
void rc_verbose_log(const char *device, const char *what, const char *request, const char *body,
		    size_t body_len);

/* ---- snapshot (drivers/transport/snapshot.c, docs/SNAPSHOT.md) ----------------------- */

/* `--snapshot DIR` (rc_run_opts.snapshot): rc_ssh_open and rc_rest_open connect to nothing,
 * and every read-only command or request is answered from DIR/<device>/ (a capture's files
 * or raw answers named by rc_snapshot_name); anything else is refused with -EPERM, a read
 * without a file with -ENOENT naming the device, the request and the file expected. */
int rc_snapshot_answer(const char *dir, const char *device, const char *request, char **out,
		       size_t *len, struct rc_err *err);
/* An eAPI runCmds body answered from the files of its commands, as a JSON-RPC answer. */
int rc_snapshot_eapi(const char *dir, const char *device, const char *body, size_t body_len,
		     char **out, size_t *len, struct rc_err *err);

#endif
