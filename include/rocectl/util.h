/* SPDX-License-Identifier: Apache-2.0 */
/* Small helpers the core shares instead of keeping near-copies (engine/util/). */
#ifndef ROCECTL_UTIL_H
#define ROCECTL_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "rocectl/err.h"

/* Replace `path` with `len` bytes of `data`, atomically and durably: a temporary file in
 * the same directory, every byte written (short writes and EINTR retried), fsync, close,
 * rename over `path`, fsync of the directory.  On any failure the temporary file is
 * removed, no descriptor is left open and `path` is untouched.  `what` names the file in
 * the error ("journal", "plan"): "cannot write plan 'x': No space left on device". */
int rc_write_atomic(const char *path, const void *data, size_t len, mode_t mode, const char *what,
		    struct rc_err *err);

/* The same inside the directory open as `dfd`; `name` is a plain file name (no '/'), and
 * no symlink is followed. */
int rc_write_atomic_at(int dfd, const char *name, const void *data, size_t len, mode_t mode,
		       const char *what, struct rc_err *err);

/* The same for a report written as it is made: rc_atomic_open makes the temporary file
 * (mode `mode`, whatever the umask) and gives its stream in af->f; rc_atomic_commit
 * flushes, fsyncs and renames it over `path` (0, or an error naming `path`: the temporary
 * file is then gone and `path` untouched); rc_atomic_abort drops it.  `what` and `path`
 * must outlive `af`. */
struct rc_atomic_file {
	FILE *f;
	int dfd;
	const char *what, *path;
	char base[256], tmp[256];
};
int rc_atomic_open(struct rc_atomic_file *af, const char *path, mode_t mode, const char *what,
		   struct rc_err *err);
int rc_atomic_commit(struct rc_atomic_file *af, struct rc_err *err);
void rc_atomic_abort(struct rc_atomic_file *af);

/* Each missing directory above `path` (not `path` itself) made 0700, as the state
 * directory's files need: 0, or a negative errno naming the directory it could not make. */
int rc_make_parents(const char *path, struct rc_err *err);

/* `s` as an unsigned number in base 10 or 16: digits only (no blank, sign or "0x"), the
 * whole string, min <= value <= max.  -EINVAL when it is not a number, -ERANGE when it is
 * out of range. */
int rc_parse_u64(const char *s, int base, uint64_t min, uint64_t max, uint64_t *out);

/* Make room for `need` elements of `elem` bytes in *v (capacity *cap, in elements):
 * doubling from `first` (8 when 0), overflow-checked.  On failure *v and *cap are
 * unchanged and -ENOMEM is returned.  Use: rc_array_reserve((void **)&a->v, &a->cap,
 * a->n + 1, sizeof(*a->v), 16). */
int rc_array_reserve(void **v, size_t *cap, size_t need, size_t elem, size_t first);

/* The file name for device `name` (+ `suffix`) in a per-device directory (journal, locks):
 * '/' becomes "%2F"; -EINVAL for a name rc_name_is_safe() refuses, -ENAMETOOLONG. */
int rc_name_to_file(const char *name, const char *suffix, char *buf, size_t len);

/* SHA-256 (FIPS 180-4) of `len` bytes; _hex writes 64 lower-case digits and a NUL. */
#define RC_SHA256_LEN	  32
#define RC_SHA256_HEX_LEN (2 * RC_SHA256_LEN + 1)
void rc_sha256_hex(const void *data, size_t len, char out[RC_SHA256_HEX_LEN]);

/* UTF-8 (engine/util/utf8.c): the length of the well-formed sequence at p (RFC 3629), 0
 * when it is not one; whether all of s is well-formed; a malloc'd copy of s with every byte
 * that is not part of a well-formed sequence replaced by U+FFFD (NULL: out of memory). */
size_t rc_utf8_seq_len(const unsigned char *p, size_t avail);
bool rc_utf8_valid(const char *s);
char *rc_utf8_fix(const char *s);

/* Device text (an error message, an unexpected line) as one printable line: at most
 * len - 1 bytes of `in`'s first in_len, runs of blanks, control and non-ASCII bytes
 * folded into one space, never an escape sequence from a device reaching a terminal. */
void rc_clean_text(const char *in, size_t in_len, char *out, size_t len);

/* The whole of a regular file of at most `max` bytes, NUL-terminated (*len without the NUL;
 * len may be NULL); NULL with `err` filled and errno set (ENOENT when it does not exist).
 * RC_READ_NOFOLLOW refuses a symbolic link (files in rocectl's own directories). */
#define RC_READ_NOFOLLOW 1u
/* RC_READ_OURS: the file must belong to the running user or to root and be writable by
 * nobody else (run records, plans, desired states: whoever can write them decides what is
 * pushed to a device or restored). */
#define RC_READ_OURS 2u
/* The ownership rule of RC_READ_OURS for a file already open: 0, or -EPERM with `err` naming
 * `what`, the path and the reason. */
struct stat;
int rc_check_ours(const struct stat *st, const char *what, const char *path, struct rc_err *err);
char *rc_read_file(const char *path, size_t max, unsigned flags, size_t *len, struct rc_err *err);

/* Interned strings (engine/util/strpool.c): equal strings share one copy, valid until
 * rc_strpool_free.  rc_strpool_intern returns NULL when out of memory (or given NULL). */
struct rc_strpool;
struct rc_strpool *rc_strpool_new(void);
const char *rc_strpool_intern(struct rc_strpool *p, const char *s);
void rc_strpool_free(struct rc_strpool *p);

#endif
