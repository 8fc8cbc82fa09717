/* SPDX-License-Identifier: Apache-2.0 */
/* The "agent-ssh" driver: a host reached from the controller.  It runs `rocectl agent
 * state|write|counters` on the host over one SSH session (cli/agent_remote.c), so
 * the host's NICs are read and written by the same mlx5 driver as a local agent, while
 * the run, the journal and any rollback stay with the controller.
 *
 * The host's answers are untrusted input like any device output: size-capped by the
 * transport, parsed strictly, and every interface we asked about must be in the reply. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "rocectl/driver.h"
#include "rocectl/journal.h"
#include "rocectl/transport.h"
#include "rocectl/util.h"

#include "agent_answer.h"
#include "lldpd.h"

/* The agent on the host; the lab and real hosts put rocectl on PATH. */
/* The inventory's agent_command (checked by the loader), else rocectl from the PATH. */
#define REMOTE_ROCECTL(s)                                                                          \
	(rc_inv_str((s)->dev->agent_command)[0] ? (s)->dev->agent_command : "rocectl")
#define CMD_MAX 8192

struct rc_session {
	const struct rc_device *dev;
	struct rc_ssh *ssh;
	/* `rocectl capture` (a tap on the transport): the read asks for what the agent read
	 * too (`agent state --raw`), so that the capture holds the host's own answers; a
	 * snapshot read asks the same, to find the file the capture wrote. */
	bool raw;
	/* rc_run_opts.read_neighbors (verify): the read's own answer carries the host's LLDP
	 * neighbours ("lldp", cli/agent_remote.c), kept here and handed over once by
	 * agent_neighbors, so that a host is read with one command line.  Not under capture
	 * or --snapshot, whose files hold `lldpcli`'s own answer (as the switch drivers do). */
	bool fold_lldp;
	bool lldp_kept;
	int lldp_rc;
	struct rc_err lldp_err;
	struct rc_neighbors lldp;
	/* rc_run_opts.read_counters (verify --counters): the read asks `agent state
	 * --counters`, whose answer carries `agent counters --json`'s list as "counters"
	 * (cli/agent_remote.c), kept here and handed over once by agent_counters; not under
	 * capture or --snapshot (one command a file), as for LLDP */
	bool fold_counters;
	cJSON *counters; /* the kept "counters" object, NULL when none */
	bool counters_kept;
	/* agent_ports' answer (`agent state` of every RDMA interface), which the read right
	 * after it uses instead of asking again: a host whose inventory entry lists no
	 * interfaces is read with one command line too */
	cJSON *all;
};

static int agent_open(const struct rc_device *dev, const struct rc_run_opts *opts,
		      struct rc_session **out, struct rc_err *err)
{
	struct rc_session *s = calloc(1, sizeof(*s));
	int rc;

	if (!s)
		return rc_errf(err, ENOMEM, "out of memory");
	s->dev = dev;
	s->raw = opts->tap != NULL || opts->snapshot != NULL;
	s->fold_lldp = opts->read_neighbors && !s->raw;
	s->fold_counters = opts->read_counters && !s->raw;
	rc = rc_ssh_open(dev, opts, &s->ssh, err);
	if (rc) {
		free(s);
		return rc;
	}
	*out = s;
	return 0;
}

static void agent_close(struct rc_session *s)
{
	if (!s)
		return;
	rc_ssh_close(s->ssh);
	rc_neighbors_fini(&s->lldp);
	cJSON_Delete(s->all);
	cJSON_Delete(s->counters);
	free(s);
}

/* "rocectl agent SUB --interface a --interface b": names were checked by the inventory
 * (rc_name_is_safe), and are checked again here because they go into a command line. */
static int build_cmd(const struct rc_session *s, char *buf, size_t len, const char *sub,
		     const struct rc_port_state *ports, size_t n, struct rc_err *err)
{
	size_t off = (size_t)snprintf(buf, len, "%s agent %s", REMOTE_ROCECTL(s), sub);

	for (size_t i = 0; i < n; i++) {
		if (!rc_name_is_safe(ports[i].name))
			return rc_errf(err, EINVAL, "refusing unsafe interface name '%s'",
				       ports[i].name);
		off += (size_t)snprintf(buf + off, off < len ? len - off : 0, " --interface %s",
					ports[i].name);
	}
	if (off >= len)
		return rc_errf(err, E2BIG, "too many interfaces for one command");
	return 0;
}

/* Run the command, parse its stdout as one JSON object (agent_answer.c judges it: a host
 * without rocectl answers nothing at all). */
static int run_json(struct rc_session *s, const char *cmd, const char *in, cJSON **json,
		    struct rc_err *err)
{
	struct rc_ssh_result res = {0};
	int rc = rc_ssh_run(s->ssh, cmd, in, in ? strlen(in) : 0, &res, err);

	*json = NULL;
	if (rc)
		return rc;
	rc = rc_agent_answer_parse(s->dev->name, cmd, res.out, res.out_len, res.err, res.err_len,
				   res.exit_status, json, err);
	rc_ssh_result_free(&res);
	return rc;
}

/* An agent that refused `--counters` (cli/options.c: "unknown option or missing value:
 * '--counters'"; an older forced-command wrapper: "option '--counters' is not allowed")
 * predates `agent state --counters`: said so, never read as a host without counters. */
static int old_agent(const struct rc_session *s, struct rc_err *err)
{
	if (!strstr(err->msg, "'--counters'"))
		return -EPROTO;
	return rc_errf(
	    err, EPROTO,
	    "'%s': the agent does not know 'agent state --counters' (its answer: %.160s): "
	    "it is older than this controller (rocectl %s), which reads a host's "
	    "counters on the read's own command line; install the same rocectl version "
	    "on the host (and its rocectl-agent-wrapper), or verify without --counters",
	    s->dev->name, err->msg, ROCECTL_VERSION);
}

static int agent_ports(struct rc_session *s, char (**names)[RC_NAME_MAX], size_t *n,
		       struct rc_err *err)
{
	char cmd[CMD_MAX];
	cJSON *j;
	const cJSON *arr, *e;
	int rc;

	snprintf(cmd, sizeof(cmd), "%s agent state%s", REMOTE_ROCECTL(s),
		 s->fold_counters ? " --counters" : "");
	if ((rc = run_json(s, cmd, NULL, &j, err)) && s->fold_counters)
		rc = old_agent(s, err);
	if (rc)
		return rc;
	if ((rc = rc_agent_protocol_check(s->dev->name, j, err))) {
		cJSON_Delete(j);
		return rc;
	}
	arr = cJSON_GetObjectItemCaseSensitive(j, "interfaces");
	*n = 0;
	*names = calloc((size_t)cJSON_GetArraySize(arr) + 1, sizeof(**names));
	if (!*names) {
		cJSON_Delete(j);
		return rc_errf(err, ENOMEM, "out of memory");
	}
	cJSON_ArrayForEach(e, arr)
	{
		const char *name =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "interface"));

		if (name && rc_name_is_safe(name))
			snprintf((*names)[(*n)++], RC_NAME_MAX, "%s", name);
	}
	if (!*n && !cJSON_IsArray(arr)) {
		const char *msg =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "error"));

		rc = rc_errf(err, ENODEV, "'%s': %s", s->dev->name,
			     msg ? msg : "the agent found no RDMA interface");
	}
	cJSON_Delete(s->all);
	s->all = NULL;
	if (!rc && !s->raw) /* the answer of the read that follows (agent_read) */
		s->all = j;
	else
		cJSON_Delete(j);
	return rc;
}

static const cJSON *find_interface(const cJSON *arr, const char *name)
{
	const cJSON *e;

	cJSON_ArrayForEach(e, arr)
	{
		const char *n =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "interface"));

		if (n && !strcmp(n, name))
			return e;
	}
	return NULL;
}

/* The "lldp" key of an `agent state` answer into the session (fold_lldp); what it says is
 * judged by rc_agent_lldp_parse (agent_answer.c). */
static void keep_lldp(struct rc_session *s, const cJSON *answer)
{
	rc_neighbors_fini(&s->lldp);
	memset(&s->lldp_err, 0, sizeof(s->lldp_err));
	s->lldp_kept = true;
	s->lldp_rc = rc_agent_lldp_parse(s->dev->name, answer, &s->lldp, &s->lldp_err);
}

/* The "counters" object of an `agent state --counters` answer into the session. */
static int keep_counters(struct rc_session *s, cJSON *answer, struct rc_err *err)
{
	cJSON *c = cJSON_DetachItemFromObjectCaseSensitive(answer, "counters");

	cJSON_Delete(s->counters);
	s->counters = c;
	s->counters_kept = true;
	if (!cJSON_IsObject(c))
		return rc_errf(err, EPROTO,
			       "'%s': the agent's answer to 'agent state --counters' has no "
			       "\"counters\" object",
			       s->dev->name);
	return 0;
}

static int agent_read(struct rc_session *s, struct rc_port_state *ports, size_t n,
		      struct rc_err *err)
{
	char cmd[CMD_MAX];
	const cJSON *arr;
	cJSON *j = s->all;
	int rc = 0;

	s->counters_kept = false;
	cJSON_Delete(s->counters);
	s->counters = NULL;
	/* agent_ports' answer, once, when it holds every port asked (it holds every RDMA
	 * interface the host has, and their counters under fold_counters) */
	s->all = NULL;
	for (size_t i = 0; j && i < n; i++)
		if (!find_interface(cJSON_GetObjectItemCaseSensitive(j, "interfaces"),
				    ports[i].name)) {
			cJSON_Delete(j);
			j = NULL;
		}
	if (!j) {
		rc = build_cmd(s, cmd, sizeof(cmd),
			       s->raw		  ? "state --raw"
			       : s->fold_counters ? "state --counters"
						  : "state",
			       ports, n, err);
		if (!rc && (rc = run_json(s, cmd, NULL, &j, err)) && s->fold_counters)
			rc = old_agent(s, err);
	}
	if (rc)
		return rc;
	if ((rc = rc_agent_protocol_check(s->dev->name, j, err))) {
		cJSON_Delete(j);
		return rc;
	}
	if (s->fold_lldp)
		keep_lldp(s, j);
	if (s->fold_counters && (rc = keep_counters(s, j, err))) {
		cJSON_Delete(j);
		return rc;
	}
	arr = cJSON_GetObjectItemCaseSensitive(j, "interfaces");
	for (size_t i = 0; !rc && i < n; i++) {
		const cJSON *e = find_interface(arr, ports[i].name);
		const char *msg =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "error"));

		if (!e)
			rc = rc_errf(err, EPROTO, "'%s': the agent did not report '%s'",
				     s->dev->name, ports[i].name);
		else if (msg)
			rc = rc_errf(err, EIO, "'%s': %s", s->dev->name, msg);
		else if ((rc = rc_port_qos_from_cjson(cJSON_GetObjectItemCaseSensitive(e, "qos"),
						      &ports[i].qos, err)))
			rc_err_prefix(err, "'%s' %s", s->dev->name, ports[i].name);
	}
	cJSON_Delete(j);
	return rc;
}

static int agent_apply(struct rc_session *s, const struct rc_port_write *w, size_t n,
		       struct rc_err *err)
{
	cJSON *req = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(req, "writes"), *j;
	char cmd[CMD_MAX], *body;
	const char *status, *msg;
	int rc;

	for (size_t i = 0; i < n; i++) {
		cJSON *e = cJSON_CreateObject();

		if (!rc_name_is_safe(w[i].port)) {
			cJSON_Delete(e);
			cJSON_Delete(req);
			return rc_errf(err, EINVAL, "refusing unsafe interface name '%s'",
				       w[i].port);
		}
		cJSON_AddStringToObject(e, "interface", w[i].port);
		cJSON_AddNumberToObject(e, "fields", w[i].fields);
		cJSON_AddItemToObject(e, "want", rc_port_qos_to_cjson(w[i].want));
		cJSON_AddItemToArray(arr, e);
	}
	body = cJSON_PrintUnformatted(req);
	cJSON_Delete(req);
	if (!body)
		return rc_errf(err, ENOMEM, "out of memory");
	snprintf(cmd, sizeof(cmd), "%s agent write", REMOTE_ROCECTL(s));
	rc = run_json(s, cmd, body, &j, err);
	free(body);
	if (rc)
		return rc;
	if ((rc = rc_agent_protocol_check(s->dev->name, j, err))) {
		cJSON_Delete(j);
		return rc;
	}
	status = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "status"));
	msg = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "error"));
	if (!status || strcmp(status, "ok"))
		rc = rc_errf(err, EIO, "'%s': %s", s->dev->name,
			     msg ? msg : "the agent did not confirm the write");
	cJSON_Delete(j);
	return rc;
}

/* The counters: kept from the read's answer under fold_counters (once), else (no read
 * before, as `rocectl counters` and diagnose's samples) `agent counters --json`. */
static int agent_counters(struct rc_session *s, const struct rc_port_state *ports, size_t n,
			  struct rc_counters *out, struct rc_err *err)
{
	char cmd[CMD_MAX];
	cJSON *j = NULL;
	int rc;

	if (s->counters_kept) {
		s->counters_kept = false;
		rc = rc_agent_counters_parse(s->dev->name, s->counters, out, err);
		cJSON_Delete(s->counters);
		s->counters = NULL;
		return rc;
	}
	rc = build_cmd(s, cmd, sizeof(cmd), "counters --json", ports, n, err);
	if (!rc)
		rc = run_json(s, cmd, NULL, &j, err);
	if (rc)
		return rc;
	if (!(rc = rc_agent_protocol_check(s->dev->name, j, err)))
		rc = rc_agent_counters_parse(s->dev->name, j, out, err);
	cJSON_Delete(j);
	return rc;
}

/* LLDP neighbours from lldpd (lldpd.c).  A host without lldpcli, or whose lldpd does not
 * answer, runs no LLDP agent: unknown, never drift.  Under fold_lldp they come from the
 * read's answer (keep_lldp), once; a read that did not answer leaves them unknown rather
 * than sending a second command line. */
static int agent_neighbors(struct rc_session *s, struct rc_neighbors *out, struct rc_err *err)
{
	struct rc_ssh_result res = {0};
	int rc;

	if (s->lldp_kept) {
		s->lldp_kept = false;
		*out = s->lldp;
		memset(&s->lldp, 0, sizeof(s->lldp));
		*err = s->lldp_err;
		return s->lldp_rc;
	}
	if (s->fold_lldp)
		return rc_errf(err, EIO,
			       "'%s': LLDP unknown: the read that carries the neighbours "
			       "did not answer",
			       s->dev->name);
	rc = rc_ssh_run(s->ssh, RC_LLDPD_CMD, NULL, 0, &res, err);

	if (!rc && res.exit_status != 0) {
		rc_errf(err, ENOENT, "'%s': no LLDP agent answers ('%s' exited %d)", s->dev->name,
			RC_LLDPD_CMD, res.exit_status);
		rc = -ENOENT;
	} else if (!rc) {
		rc = rc_lldpd_parse(res.out, res.out_len, s->dev->name, out, err);
	}
	rc_ssh_result_free(&res);
	return rc;
}

static const struct rc_driver agent_ssh = {
    .name = "agent-ssh",
    .disruptive = RC_F_PFC | RC_F_TRUST,
    .open = agent_open,
    .ports = agent_ports,
    .read = agent_read,
    .apply = agent_apply,
    .counters = agent_counters,
    .neighbors = agent_neighbors,
    .close = agent_close,
};

RC_DRIVER_REGISTER(agent_ssh)
