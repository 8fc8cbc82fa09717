/* SPDX-License-Identifier: Apache-2.0 */
/* Run as the owner of the state directory.  The packaged controller owns its state with a
 * system user (`rocectl`, dist/sysusers/rocectl.conf): the timers run as it, and a run
 * directory, journal or lock is refused when another non-root user owns it
 * (rc_check_ours).  An operator's `sudo rocectl apply` must leave state the recovery timer
 * can read and settle, and use the same SSH key and known_hosts as the timers, so a command
 * started as root becomes that user before it reads or writes anything: its real, effective
 * and saved IDs and its groups all change (setresuid(2)), so it cannot return to root.
 * Where the state directory is root's (a source install, the tests) nothing changes.  The
 * agent is not switched: it changes the local host's NICs and needs root there. */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rocectl/cli.h"
#include "rocectl/util.h"

#define STATE_DEFAULT "/var/lib/rocectl"

/* The person behind the run, for the history record: sudo's user, else the account that
 * started rocectl (history.c reads SUDO_USER). */
static int keep_invoker(struct rc_err *err)
{
	const struct passwd *pw;

	if (getenv("SUDO_USER"))
		return 0;
	pw = getpwuid(getuid());
	if (pw && setenv("SUDO_USER", pw->pw_name, 1))
		return rc_errf(err, errno, "cannot keep the invoking user's name");
	return 0;
}

static int drop_to(const struct passwd *pw, struct rc_err *err)
{
	if (initgroups(pw->pw_name, pw->pw_gid) || setresgid(pw->pw_gid, pw->pw_gid, pw->pw_gid) ||
	    setresuid(pw->pw_uid, pw->pw_uid, pw->pw_uid))
		return rc_errf(err, errno,
			       "cannot become '%s' (uid %u), the state directory's owner",
			       pw->pw_name, (unsigned)pw->pw_uid);
	/* setresuid changed all three IDs, so root cannot come back; make sure of it */
	if (setuid(0) == 0 || geteuid() != pw->pw_uid)
		return rc_errf(err, EPERM, "still able to regain root after becoming '%s'",
			       pw->pw_name);
	if (setenv("HOME", pw->pw_dir, 1) || setenv("USER", pw->pw_name, 1) ||
	    setenv("LOGNAME", pw->pw_name, 1))
		return rc_errf(err, errno, "cannot set HOME for '%s'", pw->pw_name);
	return 0;
}

int rc_cli_become_state_owner(struct rc_err *err)
{
	const char *dir = getenv("ROCECTL_STATE_DIR");
	const struct passwd *found;
	struct passwd pw;
	char name[256], home[4096];
	struct stat st;
	int rc;

	if (geteuid() != 0)
		return 0;
	if (!dir || !*dir)
		dir = STATE_DEFAULT;
	if (stat(dir, &st)) {
		if (errno == ENOENT)
			return 0; /* made by the first run, as root's */
		return rc_errf(err, errno, "cannot read the state directory '%s': %s", dir,
			       strerror(errno));
	}
	if (!S_ISDIR(st.st_mode))
		return rc_errf(err, ENOTDIR, "the state directory '%s' is not a directory", dir);
	if (st.st_uid == 0)
		return 0;
	errno = 0;
	found = getpwuid(st.st_uid);
	if (!found)
		return rc_errf(err, errno ? errno : ENOENT,
			       "the state directory '%s' is owned by uid %u, which no user has",
			       dir, (unsigned)st.st_uid);
	/* a copy: initgroups and keep_invoker may reuse getpwuid's static entry */
	pw = *found;
	if (snprintf(name, sizeof(name), "%s", found->pw_name) >= (int)sizeof(name) ||
	    snprintf(home, sizeof(home), "%s", found->pw_dir) >= (int)sizeof(home))
		return rc_errf(err, ENAMETOOLONG,
			       "the state directory owner's name or home is too long");
	pw.pw_name = name;
	pw.pw_dir = home;
	rc = keep_invoker(err);
	if (!rc)
		rc = drop_to(&pw, err);
	if (!rc && rc_cli_verbosity() > 0)
		fprintf(stderr, "rocectl: running as '%s', the owner of %s\n", name, dir);
	return rc;
}
