#include <errno.h>

#include "rocectl/util.h"
#include "switch_common.h"

int rc_switch_check_ports(const struct rc_device *dev, bool (*ok)(const char *name),
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
