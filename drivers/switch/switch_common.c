/* SPDX-License-Identifier: Apache-2.0 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "rocectl/util.h"
#include "switch_common.h"

/* 0, or -EINVAL naming the first port `ok` refuses ("not a valid <dialect> <what>"). */
static int rc_switch_check_ports(const struct rc_device *dev, bool (*ok)(const char *name),
				 const char *dialect, const char *what, struct rc_err *err)
{
	for (size_t i = 0; i < dev->n_ports; i++)
		if (!ok(dev->ports[i]))
			return rc_errf(
			    err, EINVAL,
			    "'%s': port name '%s' is not a valid %s %s; nothing was sent",
			    dev->name, dev->ports[i], dialect, what);
	return 0;
}

int rc_switch_ssh_run(struct rc_ssh **ssh, const struct rc_device *dev,
		      const struct rc_run_opts *opts, const char *cmd, const char *in,
		      size_t in_len, struct rc_ssh_result *res, struct rc_err *err)
{
	int rc = *ssh ? rc_ssh_run(*ssh, cmd, in, in_len, res, err) : -EPIPE;

	if (rc != -EPIPE)
		return rc;
	rc_ssh_close(*ssh);
	*ssh = NULL;
	rc = rc_ssh_open(dev, opts, ssh, err);
	if (rc)
		return rc;
	return rc_ssh_run(*ssh, cmd, in, in_len, res, err);
}

int rc_switch_exit_error(const struct rc_ssh_result *res, const char *what, struct rc_err *err)
{
	char why[300];

	rc_clean_text(res->err_len ? res->err : res->out,
		      res->err_len ? res->err_len : res->out_len, why, sizeof(why));
	return rc_errf(err, EIO, "%s failed (exit status %d)%s%s", what, res->exit_status,
		       why[0] ? ": " : "", why);
}

bool rc_switch_name_ok(const char *name, const char *inner)
{
	size_t n = name ? strnlen(name, RC_NAME_MAX) : 0;

	if (n < 1 || n >= RC_NAME_MAX)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = name[i];
		bool alnum =
		    (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');

		if (!alnum && (i == 0 || !strchr(inner, c)))
			return false;
	}
	return true;
}

int rc_switch_refuse_dry_run(const struct rc_device *dev, const struct rc_run_opts *opts,
			     struct rc_err *err)
{
	if (opts->dry_run)
		return rc_errf(err, EPERM, "'%s': refusing to write in a dry run", dev->name);
	return 0;
}

int rc_switch_write_infos(const struct rc_port_memo *read, const struct rc_port_write *w, size_t n,
			  void *info, size_t info_size, struct rc_err *err)
{
	for (size_t i = 0; i < n; i++) {
		const void *in = rc_port_memo_find(read, w[i].port);

		if (!in || read->info_size != info_size)
			return rc_errf(err, EINVAL, "port '%s' was not read before apply",
				       w[i].port);
		memcpy((char *)info + i * info_size, in, info_size);
	}
	return 0;
}

int rc_switch_cli_status(const char *out, size_t out_len, const char *errout, size_t err_len,
			 int exit_status, char *why, size_t why_len)
{
	if (exit_status == 0)
		return 0;
	if (err_len)
		rc_clean_text(errout, err_len < 300 ? err_len : 300, why, why_len);
	else if (out_len)
		rc_clean_text(out, out_len < 300 ? out_len : 300, why, why_len);
	if (!why[0])
		snprintf(why, why_len, "exit status %d", exit_status);
	return -EIO;
}

int rc_switch_open(const struct rc_device *dev, const struct rc_run_opts *opts,
		   const struct rc_switch_dialect *d, size_t size,
		   int (*connect)(void *s, const struct rc_device *dev,
				  const struct rc_run_opts *opts, bool alt, struct rc_err *err),
		   bool alt, void **out, struct rc_err *err)
{
	void *s;
	int rc;

	*out = NULL;
	rc = rc_switch_check_ports(dev, d->name_ok, d->name, d->port_what, err);
	if (rc)
		return rc;
	s = calloc(1, size);
	if (!s)
		return rc_errf(err, ENOMEM, "out of memory");
	rc = connect(s, dev, opts, alt, err);
	if (rc) {
		free(s);
		return rc;
	}
	*out = s;
	return 0;
}

bool rc_switch_port_writes(const struct rc_port_write *w, size_t n, const char *port,
			   uint32_t group)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(w[i].port, port) && (w[i].fields & group))
			return true;
	return false;
}

/* Offset of the first line of text[0..len) that is exactly `marker` ("\r" aside); len when
 * none. */
size_t rc_switch_line_at(const char *text, size_t len, const char *marker)
{
	size_t m = strlen(marker);

	for (size_t off = 0; off < len;) {
		const char *nl = memchr(text + off, '\n', len - off);
		size_t l = nl ? (size_t)(nl - (text + off)) : len - off;

		if (l && text[off + l - 1] == '\r')
			l--;
		if (l == m && !memcmp(text + off, marker, m))
			return off;
		off = nl ? (size_t)(nl - text) + 1 : len;
	}
	return len;
}

bool rc_switch_folds_lldp(const struct rc_run_opts *opts)
{
	return opts->read_neighbors && !opts->tap && !opts->snapshot;
}

int rc_switch_split_folded(const char *out, size_t len, const char *end, const char *begin,
			   size_t *extra_len, bool *extra_ok, size_t *read_off)
{
	size_t at = rc_switch_line_at(out, len, begin), last;
	const char *nl;

	if (at == len)
		return -EPROTO;
	nl = memchr(out + at, '\n', len - at);
	*read_off = nl ? (size_t)(nl - out) + 1 : len;
	/* END must be the last line before BEGIN: nothing of EXTRA may follow it */
	last = at ? at - 1 : 0;
	while (last && out[last - 1] != '\n')
		last--;
	*extra_ok = at && rc_switch_line_at(out + last, at - last, end) == 0;
	*extra_len = *extra_ok ? last : at;
	return 0;
}

void rc_switch_lldp_drop(struct rc_switch_lldp *k)
{
	rc_neighbors_fini(&k->nb);
	memset(&k->nb, 0, sizeof(k->nb));
	k->kept = false;
}

void rc_switch_lldp_begin(struct rc_switch_lldp *k)
{
	rc_switch_lldp_drop(k);
	k->rc = 0;
	memset(&k->err, 0, sizeof(k->err));
}

void rc_switch_lldp_pending(struct rc_switch_lldp *k, const char *device)
{
	rc_switch_lldp_begin(k);
	k->rc = rc_errf(&k->err, EIO,
			"'%s': LLDP unknown: the read whose command line carries the neighbours "
			"failed",
			device);
	k->kept = true;
}

bool rc_switch_lldp_take(struct rc_switch_lldp *k, struct rc_neighbors *out, struct rc_err *err,
			 int *rc)
{
	if (!k->kept)
		return false;
	rc_neighbors_fini(out);
	*out = k->nb;
	memset(&k->nb, 0, sizeof(k->nb));
	k->kept = false;
	if (k->rc)
		*err = k->err;
	*rc = k->rc;
	return true;
}

void rc_switch_note(struct rc_notes *notes, const char *fmt, ...)
{
	va_list ap;

	if (notes->n == RC_NOTES_MAX) {
		notes->dropped++;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(notes->v[notes->n++], RC_NOTE_LEN, fmt, ap);
	va_end(ap);
}
