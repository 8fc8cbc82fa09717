/* SPDX-License-Identifier: Apache-2.0 */
/* /etc/rocectl/rocectl.conf: the defaults an operator would otherwise type on every command
 * (policy, inventory, parallel, state_dir).  Precedence, strongest first: the command line
 * (-p, -i, --parallel), the environment (ROCECTL_POLICY, ROCECTL_INVENTORY, ROCECTL_PARALLEL,
 * ROCECTL_STATE_DIR), this file.  ROCECTL_CONFIG names another file (which must then exist).
 *
 * The format is the one systemd's EnvironmentFile and most /etc files share: "key = value"
 * lines, '#' comments, nothing else.  The file decides which policy is pushed to a fabric, so
 * it is read like any state file: not writable by group or others, owned by root or by us,
 * and every line must parse (a typo is an error naming file:line, never silently ignored). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rocectl/cli.h"
#include "rocectl/util.h"

#define CONFIG_DEFAULT	"/etc/rocectl/rocectl.conf"
#define CONFIG_LINE_MAX 4096

static struct rc_cli_config config;
static bool config_enabled;

static const char *const config_keys[] = {"policy", "inventory", "parallel", "state_dir"};

static char **slot(struct rc_cli_config *c, const char *key)
{
	if (!strcmp(key, "policy"))
		return &c->policy;
	if (!strcmp(key, "inventory"))
		return &c->inventory;
	if (!strcmp(key, "parallel"))
		return &c->parallel;
	if (!strcmp(key, "state_dir"))
		return &c->state_dir;
	return NULL;
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

static int parse_line(struct rc_cli_config *c, const char *path, unsigned line, char *text,
		      struct rc_err *err)
{
	char *s = trim(text), *eq, *key, *value, **dst;

	if (!*s || *s == '#')
		return 0;
	eq = strchr(s, '=');
	if (!eq)
		return rc_errf(err, EINVAL, "%s:%u: expected 'key = value'", path, line);
	*eq = '\0';
	key = trim(s);
	value = trim(eq + 1);
	dst = slot(c, key);
	if (!dst)
		return rc_errf(err, EINVAL,
			       "%s:%u: unknown key '%s' (policy, inventory, parallel, state_dir)",
			       path, line, key);
	if (*dst)
		return rc_errf(err, EINVAL, "%s:%u: '%s' given twice", path, line, key);
	if (!*value)
		return rc_errf(err, EINVAL, "%s:%u: '%s' has no value", path, line, key);
	if (!strcmp(key, "parallel") && strspn(value, "0123456789") != strlen(value))
		return rc_errf(err, EINVAL, "%s:%u: parallel '%s' is not a number", path, line,
			       value);
	*dst = strdup(value);
	return *dst ? 0 : rc_errf(err, ENOMEM, "out of memory");
}

/* Who may have written the file: root or us, and nobody else (stat, not lstat: /etc files
 * are often links into a configuration-management tree, and the target is what counts). */
static int check_file(FILE *f, const char *path, struct rc_err *err)
{
	struct stat st;

	if (fstat(fileno(f), &st))
		return rc_errf(err, errno, "%s: %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return rc_errf(err, EINVAL, "%s: not a regular file", path);
	if (st.st_uid != 0 && st.st_uid != geteuid())
		return rc_errf(err, EPERM, "%s: owned by uid %u, not by root or by us", path,
			       (unsigned)st.st_uid);
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		return rc_errf(err, EPERM, "%s: writable by group or others (mode %04o)", path,
			       (unsigned)(st.st_mode & 07777));
	return 0;
}

static int read_file(struct rc_cli_config *c, const char *path, bool must_exist, struct rc_err *err)
{
	char buf[CONFIG_LINE_MAX];
	unsigned line = 0;
	int rc;
	FILE *f = fopen(path, "re");

	if (!f)
		return errno == ENOENT && !must_exist
			   ? 0
			   : rc_errf(err, errno, "%s: %s", path, strerror(errno));
	rc = check_file(f, path, err);
	while (!rc && fgets(buf, sizeof(buf), f)) {
		line++;
		if (!strchr(buf, '\n') && !feof(f))
			rc = rc_errf(err, EINVAL, "%s:%u: line longer than %d bytes", path, line,
				     CONFIG_LINE_MAX - 1);
		else
			rc = parse_line(c, path, line, buf, err);
	}
	if (!rc && ferror(f))
		rc = rc_errf(err, EIO, "%s: read error", path);
	fclose(f);
	return rc;
}

/* The environment wins over the file. */
static int apply_env(struct rc_cli_config *c, struct rc_err *err)
{
	static const char *const env[] = {"ROCECTL_POLICY", "ROCECTL_INVENTORY", "ROCECTL_PARALLEL",
					  "ROCECTL_STATE_DIR"};

	for (size_t i = 0; i < sizeof(env) / sizeof(env[0]); i++) {
		const char *v = getenv(env[i]);
		char **dst = slot(c, config_keys[i]);

		if (!v || !*v)
			continue;
		free(*dst);
		*dst = strdup(v);
		if (!*dst)
			return rc_errf(err, ENOMEM, "out of memory");
	}
	return 0;
}

int rc_cli_config_load(struct rc_err *err)
{
	const char *path = getenv("ROCECTL_CONFIG");
	bool named = path && *path;
	int rc;

	rc_cli_config_fini();
	rc = read_file(&config, named ? path : CONFIG_DEFAULT, named, err);
	if (!rc)
		rc = apply_env(&config, err);
	/* the state directory is read where it is used (engine/run): hand it on there */
	if (!rc && config.state_dir && setenv("ROCECTL_STATE_DIR", config.state_dir, 1))
		rc = rc_errf(err, errno, "cannot set ROCECTL_STATE_DIR");
	if (rc)
		rc_cli_config_fini();
	return rc;
}

const struct rc_cli_config *rc_cli_config(void)
{
	return config_enabled ? &config : NULL;
}

void rc_cli_config_enable(bool on)
{
	config_enabled = on;
}

void rc_cli_config_fini(void)
{
	free(config.policy);
	free(config.inventory);
	free(config.parallel);
	free(config.state_dir);
	memset(&config, 0, sizeof(config));
}
