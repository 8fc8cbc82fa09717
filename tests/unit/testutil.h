/* SPDX-License-Identifier: Apache-2.0 */
/* Helpers shared by the unit tests: reading fixtures from the source tree, scratch
 * directories.  Header-only (each test is one translation unit); include after <cmocka.h>. */
#ifndef ROCECTL_TESTUTIL_H
#define ROCECTL_TESTUTIL_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* $SRC_DIR/rel (tests/run.sh exports SRC_DIR; "." when run by hand from the root). */
static inline void rc_test_path(char *buf, size_t len, const char *rel)
{
	const char *src = getenv("SRC_DIR");

	snprintf(buf, len, "%s/%s", src && *src ? src : ".", rel);
}

/* The whole file, NUL-terminated (malloc'd), or NULL; *len its size when len != NULL. */
static inline char *rc_test_slurp_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long size;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc((size_t)size + 1);
		if (buf && fread(buf, 1, (size_t)size, f) != (size_t)size) {
			free(buf);
			buf = NULL;
		}
		if (buf) {
			buf[size] = '\0';
			if (len)
				*len = (size_t)size;
		}
	}
	fclose(f);
	return buf;
}

/* A fixture of the source tree ("tests/data/nvue/qos.json"). */
static inline char *rc_test_slurp(const char *rel, size_t *len)
{
	char path[4096];

	rc_test_path(path, sizeof(path), rel);
	return rc_test_slurp_file(path, len);
}

/* A fixture that must exist, dir/name of the source tree ("tests/data/eos", "show.json"):
 * the test fails naming the file otherwise. */
static inline char *rc_test_fixture(const char *dir, const char *name, size_t *len)
{
	char rel[1024];
	char *buf;

	snprintf(rel, sizeof(rel), "%s/%s", dir, name);
	buf = rc_test_slurp(rel, len);
	if (!buf)
		fail_msg("cannot read the fixture %s: %s", rel, strerror(errno));
	return buf;
}

/* A file of the conformance kit, $CONFORMANCE_DIR/rel (the Makefile exports it): the test
 * fails naming the file when the kit or the file is missing, never skips. */
static inline char *rc_test_artifact(const char *rel, size_t *len)
{
	const char *dir = getenv("CONFORMANCE_DIR");
	char path[4096];
	char *buf;

	if (!dir || !*dir)
		fail_msg("CONFORMANCE_DIR is not set (the Makefile exports it)");
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	buf = rc_test_slurp_file(path, len);
	if (!buf)
		fail_msg("conformance artifact missing: %s: %s", path, strerror(errno));
	return buf;
}

/* A fresh scratch directory under $TMPDIR (or /tmp) into buf; NULL on failure.  It is also
 * where a run applied from now on keeps its snapshots ($ROCECTL_STATE_DIR,
 * include/rocectl/run_snap.h), so that a test run by hand never writes /var/lib/rocectl. */
static inline char *rc_test_tmpdir(char *buf, size_t len, const char *tag)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(buf, len, "%s/rocectl-%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", tag);
	if (!mkdtemp(buf))
		return NULL;
	setenv("ROCECTL_STATE_DIR", buf, 1);
	return buf;
}

/* Write `text` to dir/name; 0 or a negative errno. */
static inline int rc_test_write(const char *dir, const char *name, const char *text)
{
	char path[4096];
	FILE *f;
	int rc = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	if (fputs(text, f) < 0)
		rc = -EIO;
	if (fclose(f) && !rc)
		rc = -EIO;
	return rc;
}

#endif
