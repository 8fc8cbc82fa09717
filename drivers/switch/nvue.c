/* SPDX-License-Identifier: Apache-2.0 */
/* The nvue-ssh and nvue-rest drivers: NVUE's dialect (nvue_parse.c, nvue_ops.c) over the
 * SSH or HTTPS transport.  One session per device for read -> apply -> verify.
 *
 * Apply is one NVUE revision for all ports: staged `nv set` lines then one
 * `nv config apply -y` (SSH), or one revision, one PATCH, apply and poll (REST).  NVUE
 * switches to the new revision only when all of it is valid, so a failed apply leaves the
 * applied revision as it was; the staged one is then discarded (Cumulus Linux user guide, "NVUE
 * CLI": nv config apply/detach, Cumulus Linux "NVUE API"). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cJSON.h>

#include "nvue.h"
#include "port_memo.h"
#include "switch_common.h"
#include "rocectl/deadline.h"
#include "rocectl/confirm.h"
#include "rocectl/transport.h"

#define NVUE_REST_BASE	 "/nvue_v1"
#define NVUE_REST_PORT	 8765
#define POLL_MS		 200
#define DEFAULT_APPLY_MS 60000u

struct rc_session {
	const struct rc_device *dev;
	struct rc_run_opts opts;
	bool rest;
	struct rc_ssh *ssh;
	struct rc_rest *api;
	/* the last read, so that apply can check ports sharing a profile */
	struct rc_port_memo read; /* what was read last, for apply's checks */
	bool timed;		  /* this session applied under `--confirm` */
	bool read_once;		  /* found_unsaved is set (only with save_only_if_saved) */
	bool found_unsaved;	  /* the first read: applied != startup, or not known */
	/* rc_run_opts.read_neighbors: the LLDP table the last read's command line printed,
	 * handed over once by nvue_neighbors */
	struct rc_switch_lldp lldp;
	/* rc_run_opts.read_counters: the counters the last read's line printed, handed over
	 * once by nvue_counters */
	bool cnt_kept;
	int cnt_rc;
	struct rc_err cnt_err;
	struct rc_counters cnt;
};

/* ---- SSH ------------------------------------------------------------------------------ */

/* Run a command; a connection abandoned after a timeout is replaced once, so that a
 * rollback can still reach a switch that hung on one command. */
static int ssh_run(struct rc_session *s, const char *cmd, struct rc_ssh_result *res,
		   struct rc_err *err)
{
	return rc_switch_ssh_run(&s->ssh, s->dev, &s->opts, cmd, NULL, 0, res, err);
}

/* Drop whatever is staged in this user's pending revision (ours after a failure, or a
 * stale one before we start, which must not be applied along with our changes). */
static void ssh_discard(struct rc_session *s)
{
	struct rc_ssh_result res;
	struct rc_err ignored;

	if (!ssh_run(s, "nv config detach", &res, &ignored))
		rc_ssh_result_free(&res);
}

/* Stage `lines` (`nv set/unset`, one per line; consumed) as one revision and apply it;
 * with `confirm_min`, under NVUE's own timer: `nv config apply --confirm <minutes>` rolls
 * the revision back by itself unless it is confirmed (keep_timed).  The time is a bare
 * number, whose unit NVIDIA documents by example (NVUE reference, Config Commands,
 * `nv config apply`: ten minutes by default, `--confirm 60` is one hour); suffixed forms
 * ("90s") appear only in third-party clients, so none is sent. */
static int ssh_commit_lines(struct rc_session *s, char *lines, uint32_t confirm_min,
			    struct rc_err *err)
{
	struct rc_ssh_result res;
	char *cmd, *save = NULL, why[300], apply[64];
	size_t len, o = 0;
	int rc;

	if (!lines)
		return rc_errf(err, ENOMEM, "out of memory");
	/* one command line: stage every change or none (&& stops at the first refusal) */
	len = strlen(lines) * 2 + 64;
	cmd = malloc(len);
	if (!cmd) {
		free(lines);
		return rc_errf(err, ENOMEM, "out of memory");
	}
	for (char *line = strtok_r(lines, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		o += (size_t)snprintf(cmd + o, len - o, "%s%s", o ? " && " : "", line);
	free(lines);

	ssh_discard(s);
	rc = ssh_run(s, cmd, &res, err);
	free(cmd);
	if (rc)
		goto fail;
	if (res.exit_status != 0) {
		rc_clean_text(res.err_len ? res.err : res.out,
			      res.err_len ? res.err_len : res.out_len, why, sizeof(why));
		rc = rc_errf(err, EIO,
			     "a staged change was refused (exit status %d)%s%s; "
			     "nothing was applied",
			     res.exit_status, why[0] ? ": " : "", why);
		rc_ssh_result_free(&res);
		goto fail;
	}
	rc_ssh_result_free(&res);

	if (confirm_min)
		snprintf(apply, sizeof(apply), "nv config apply -y --confirm %u", confirm_min);
	else
		snprintf(apply, sizeof(apply), "nv config apply -y");
	rc = ssh_run(s, apply, &res, err);
	if (rc)
		goto fail;
	rc = nvue_check_apply_output(res.out, res.out_len, res.err, res.err_len, res.exit_status,
				     why, sizeof(why));
	rc_ssh_result_free(&res);
	if (rc) {
		rc = rc_errf(err, EIO, "the revision was not applied: %s", why);
		goto fail;
	}
	return 0;
fail:
	ssh_discard(s);
	return rc;
}

/* Commit-confirm over SSH: the device's timer in whole minutes, rounded up. */
static uint32_t timed_minutes(const struct rc_session *s)
{
	if (s->rest || !s->opts.confirm_s)
		return 0;
	return (rc_confirm_device_seconds(s->opts.confirm_s) + 59u) / 60u;
}

static int waiting_revision(struct rc_session *s, char *id, size_t len, struct rc_err *err);

/* Under --confirm the switch must show the revision waiting (state "confirm"): the confirm
 * later keeps exactly that one, and a switch that shows none has no timer rocectl can rely
 * on, so the apply fails (and is undone) rather than promising a rollback nobody arms. */
static int ssh_apply(struct rc_session *s, const struct nvue_ops *ops, struct rc_err *err)
{
	char id[64] = "";
	int rc = ssh_commit_lines(s, nvue_render_cli(ops), timed_minutes(s), err);

	s->timed |= !rc && timed_minutes(s);
	if (!rc && timed_minutes(s)) {
		rc = waiting_revision(s, id, sizeof(id), err);
		if (!rc && !id[0])
			rc = rc_errf(
			    err, EPROTO,
			    "after 'nv config apply --confirm' no revision waits for a "
			    "confirm (state 'confirm' in 'nv config revision -o json'): the "
			    "switch's own rollback cannot be relied on");
	}
	return rc;
}

/* ---- REST ----------------------------------------------------------------------------- */

static int rest_get(struct rc_session *s, const char *path, cJSON **out, struct rc_err *err)
{
	return rc_rest_json(s->api, "GET", path, NULL, NULL, NULL, out, err);
}

static void rest_discard(struct rc_session *s, const char *rev_path)
{
	static const long any[] = {400, 403, 404, 405, 409, 500, 0};
	struct rc_err ignored;

	rc_rest_json(s->api, "DELETE", rev_path, NULL, any, NULL, NULL, &ignored);
}

static int rest_wait(struct rc_session *s, const char *rev_path, const char *id, struct rc_err *err)
{
	uint32_t limit = s->dev->rest.timeout_ms ? s->dev->rest.timeout_ms : DEFAULT_APPLY_MS;
	uint64_t deadline = rc_now_ms() + limit;
	char state[64] = "", issue[300];
	bool ok;

	for (;;) {
		cJSON *j = NULL;
		int rc = rest_get(s, rev_path, &j, err);

		if (!rc)
			rc =
			    nvue_revision_state(j, state, sizeof(state), issue, sizeof(issue), err);
		cJSON_Delete(j);
		if (rc) {
			rc_err_prefix(err, "revision %s", id);
			return rc;
		}
		if (nvue_revision_final(state, &ok)) {
			if (ok)
				return 0;
			return rc_errf(err, EIO, "revision %s was not applied (%s)%s%s", id, state,
				       issue[0] ? ": " : "", issue);
		}
		if (rc_now_ms() >= deadline)
			return rc_errf(err, ETIMEDOUT,
				       "revision %s was not applied within %us (state '%s')", id,
				       (limit + 999) / 1000, state);
		rc_sleep_ms(POLL_MS);
	}
}

static int rest_new_revision(struct rc_session *s, char *id, size_t len, struct rc_err *err)
{
	cJSON *j = NULL;
	int rc = rc_rest_json(s->api, "POST", "/revision", NULL, NULL, NULL, &j, err);

	if (!rc)
		rc = nvue_revision_id(j, id, len, err);
	cJSON_Delete(j);
	if (rc)
		rc_err_prefix(err, "cannot create a revision");
	return rc;
}

/* A new revision to stage into, and its paths. */
static int rest_take_revision(struct rc_session *s, char *id, size_t len, char *rev_path,
			      char *path, size_t plen, struct rc_err *err)
{
	char eid[200];
	int rc = rest_new_revision(s, id, len, err);

	if (rc)
		return rc;
	if (rc_rest_escape(id, eid, sizeof(eid)))
		return rc_errf(err, EPROTO, "revision id too long");
	snprintf(rev_path, plen, "/revision/%s", eid);
	snprintf(path, plen, "/?rev=%s", eid);
	return 0;
}

/* Apply the staged revision and wait for NVUE's verdict. */
static int rest_commit(struct rc_session *s, const char *rev_path, const char *id,
		       struct rc_err *err)
{
	cJSON *body = cJSON_CreateObject();
	int rc;

	if (!body || !cJSON_AddStringToObject(body, "state", "apply") ||
	    !cJSON_AddStringToObject(cJSON_AddObjectToObject(body, "auto-prompt"), "ays",
				     "ays_yes")) {
		cJSON_Delete(body);
		return rc_errf(err, ENOMEM, "out of memory");
	}
	rc = rc_rest_json(s->api, "PATCH", rev_path, body, NULL, NULL, NULL, err);
	cJSON_Delete(body);
	if (rc) {
		rc_err_prefix(err, "applying revision %s failed", id);
		return rc;
	}
	return rest_wait(s, rev_path, id, err);
}

static int rest_apply(struct rc_session *s, const struct nvue_ops *ops, struct rc_err *err)
{
	char id[64], path[300], rev_path[300];
	cJSON *patch;
	int rc;

	rc = rest_take_revision(s, id, sizeof(id), rev_path, path, sizeof(path), err);
	if (rc)
		return rc;
	patch = nvue_render_patch(ops);
	rc = patch ? rc_rest_json(s->api, "PATCH", path, patch, NULL, NULL, NULL, err)
		   : rc_errf(err, ENOMEM, "out of memory");
	cJSON_Delete(patch);
	if (rc)
		rc_err_prefix(err, "staging revision %s failed, nothing was applied", id);
	if (!rc)
		rc = rest_commit(s, rev_path, id, err);
	if (rc)
		rest_discard(s, rev_path);
	return rc;
}

/* ---- the driver ---------------------------------------------------------------------- */

static int nvue_connect(void *p, const struct rc_device *dev, const struct rc_run_opts *opts,
			bool rest, struct rc_err *err)
{
	struct rc_session *s = p;

	s->dev = dev;
	if (opts)
		s->opts = *opts;
	/* the snapshot has no saved configuration to put back (driver.h, undo_finished) */
	if (s->opts.undo_finished)
		s->opts.save_only_if_saved = true;
	s->rest = rest;
	if (rest)
		return rc_rest_open(dev, opts, NVUE_REST_BASE, NVUE_REST_PORT, &s->api, err);
	return rc_ssh_open(dev, opts, &s->ssh, err);
}

static int nvue_open(const struct rc_device *dev, const struct rc_run_opts *opts, bool rest,
		     struct rc_session **out, struct rc_err *err)
{
	static const struct rc_switch_dialect nvue = {"NVUE", "interface name", nvue_port_name_ok};
	void *s;
	int rc = rc_switch_open(dev, opts, &nvue, sizeof(**out), nvue_connect, rest, &s, err);

	*out = s;
	return rc;
}

static int nvue_ssh_open(const struct rc_device *dev, const struct rc_run_opts *opts,
			 struct rc_session **out, struct rc_err *err)
{
	return nvue_open(dev, opts, false, out, err);
}

static int nvue_rest_open(const struct rc_device *dev, const struct rc_run_opts *opts,
			  struct rc_session **out, struct rc_err *err)
{
	return nvue_open(dev, opts, true, out, err);
}

/* SSH: the show commands of a read in as few command lines as possible (each SSH command
 * is a round trip and a process on the switch), `&&`-chained so that the first failure
 * stops the line and says why on stderr. */
#define SHOW_BATCH 64
/* What runs, what is configured (RoCE mode is configuration: the `nv show qos roce` sample of the
 * Cumulus Linux 5.18 RoCE page fills `enable` in the applied column only), and what a reboot would
 * load (NVUE reference, "Config Commands": `nv config apply` saves only from CL 5.9 on).
 * `--rev=startup` takes the revision names of the API's `?rev=` (Cumulus Linux 5.18 user guide,
 * "NVUE API"); that the CLI accepts it is unverified. */
#define QOS_VIEWS 3
#define QOS_VIEWS_CMD                                                                              \
	"nv show qos -o json && nv show qos --applied -o json && "                                 \
	"nv show qos --rev=startup -o json"

/* The LLDP section of a read's answer (NVUE_LLDP_PREFIX), kept for nvue_neighbors; *from:
 * where the QoS documents start. */
static int keep_lldp(struct rc_session *s, const struct rc_ssh_result *res, size_t *from,
		     struct rc_err *err)
{
	int rc;

	rc_switch_lldp_begin(&s->lldp);
	rc = nvue_split_lldp(res->out, res->out_len, s->dev->name, &s->lldp.nb, &s->lldp.rc,
			     &s->lldp.err, from, err);
	if (rc) /* the read fails: its neighbours are unknown, not asked again */
		rc_switch_lldp_pending(&s->lldp, s->dev->name);
	else
		s->lldp.kept = true;
	return rc;
}

static void drop_counters(struct rc_session *s)
{
	rc_counters_fini(&s->cnt);
	memset(&s->cnt, 0, sizeof(s->cnt));
	s->cnt_kept = false;
}

/* The counters section of a read that folded them in too (NVUE_CNT_PREFIX): the LLDP table,
 * then `nv show interface PORT counters qos -o json` per port (NVUE command reference,
 * "Interface Commands"; conformance nvue/FACTS.md), kept for nvue_counters; *from: where
 * the QoS documents start. */
static int keep_with_counters(struct rc_session *s, const struct rc_ssh_result *res,
			      const struct rc_port_state *ports, size_t k, size_t *from,
			      struct rc_err *err)
{
	cJSON *docs[SHOW_BATCH];
	size_t pre, lldp_end, cnt_off;
	bool cnt_ok, lldp_ok;
	char what[RC_NAME_MAX + 48];

	rc_switch_lldp_begin(&s->lldp);
	drop_counters(s);
	memset(&s->cnt_err, 0, sizeof(s->cnt_err));
	if (rc_switch_split_folded(res->out, res->out_len, NVUE_CNT_END, NVUE_QOS_BEGIN, &pre,
				   &cnt_ok, from) ||
	    rc_switch_split_folded(res->out, pre, NVUE_LLDP_END, NVUE_CNT_BEGIN, &lldp_end,
				   &lldp_ok, &cnt_off)) {
		rc_switch_lldp_pending(&s->lldp, s->dev->name);
		return rc_errf(
		    err, EPROTO,
		    "'%s': the read's answer lacks its counters or QoS section: cut short",
		    s->dev->name);
	}
	s->lldp.rc =
	    lldp_ok ? nvue_parse_lldp(res->out, lldp_end, s->dev->name, &s->lldp.nb, &s->lldp.err)
		    : rc_errf(&s->lldp.err, EIO,
			      "'%s': the LLDP section ('nv show interface lldp') of the "
			      "read failed or was cut short",
			      s->dev->name);
	snprintf(what, sizeof(what), "counters of '%s'", s->dev->name);
	if (!cnt_ok)
		s->cnt_rc = rc_errf(&s->cnt_err, EIO,
				    "'%s': the counters section ('nv show interface ... counters "
				    "qos') of the read failed or was cut short",
				    s->dev->name);
	else
		s->cnt_rc = nvue_parse_json_seq(res->out + cnt_off, pre - cnt_off, what, docs, k,
						&s->cnt_err);
	for (size_t i = 0; cnt_ok && !s->cnt_rc && i < k; i++)
		s->cnt_rc = nvue_parse_counters(docs[i], ports[i].name, &s->cnt, &s->cnt_err);
	for (size_t i = 0; cnt_ok && i < k; i++)
		cJSON_Delete(docs[i]);
	s->lldp.kept = s->cnt_kept = true;
	return 0;
}

/* One batch's command line; `all`: it holds every port of the read (counters are folded in
 * only then). */
static int ssh_show_batch(struct rc_session *s, bool with_qos, bool all,
			  const struct rc_port_state *ports, size_t k, cJSON **docs,
			  struct rc_err *err)
{
	size_t len = (2 * k + 1) * (RC_NAME_MAX + 56) + sizeof(QOS_VIEWS_CMD) +
		     sizeof(NVUE_LLDP_PREFIX) + sizeof(NVUE_CNT_PREFIX) + sizeof(NVUE_CNT_SUFFIX);
	size_t ndocs = k + (with_qos ? QOS_VIEWS : 0), o = 0, from = 0;
	bool lldp = with_qos && rc_switch_folds_lldp(&s->opts);
	bool cnt = lldp && all && s->opts.read_counters;
	char *cmd, what[RC_NAME_MAX + 48];
	struct rc_ssh_result res;
	int rc;

	for (size_t i = 0; i < k; i++)
		/* checked at open; checked again because these bytes go into a command line */
		if (!nvue_port_name_ok(ports[i].name))
			return rc_errf(err, EINVAL,
				       "'%s': port name '%s' is not a valid NVUE interface name",
				       s->dev->name, ports[i].name);
	if (lldp) { /* nothing of an earlier read is handed over for this one */
		rc_switch_lldp_pending(&s->lldp, s->dev->name);
		drop_counters(s);
	}
	cmd = malloc(len);
	if (!cmd)
		return rc_errf(err, ENOMEM, "out of memory");
	cmd[0] = '\0';
	if (cnt) {
		o += (size_t)snprintf(cmd + o, len - o, "%s", NVUE_CNT_PREFIX);
		for (size_t i = 0; i < k; i++)
			o += (size_t)snprintf(cmd + o, len - o,
					      "%snv show interface %s counters qos -o json",
					      i ? " && " : "", ports[i].name);
		o += (size_t)snprintf(cmd + o, len - o, "%s", NVUE_CNT_SUFFIX);
	} else if (lldp) {
		o += (size_t)snprintf(cmd + o, len - o, "%s", NVUE_LLDP_PREFIX);
	}
	if (with_qos)
		o += (size_t)snprintf(cmd + o, len - o, "%s", QOS_VIEWS_CMD);
	for (size_t i = 0; i < k; i++)
		o += (size_t)snprintf(cmd + o, len - o, "%snv show interface %s qos -o json",
				      o ? " && " : "", ports[i].name);
	rc = ssh_run(s, cmd, &res, err);
	free(cmd);
	if (rc)
		return rc;
	snprintf(what, sizeof(what), "'nv show' on '%s'", s->dev->name);
	if (res.exit_status != 0) {
		rc = rc_switch_exit_error(&res, what, err);
	} else {
		if (cnt)
			rc = keep_with_counters(s, &res, ports, k, &from, err);
		else if (lldp)
			rc = keep_lldp(s, &res, &from, err);
		if (!rc)
			rc = nvue_parse_json_seq(res.out + from, res.out_len - from, what, docs,
						 ndocs, err);
	}
	rc_ssh_result_free(&res);
	return rc;
}

static int ssh_fetch(struct rc_session *s, const struct rc_port_state *ports, size_t n, cJSON **qos,
		     cJSON **ifq, struct rc_err *err)
{
	cJSON *docs[SHOW_BATCH + QOS_VIEWS];
	size_t done = 0;
	bool first = true;

	while (first || done < n) {
		size_t k = n - done < SHOW_BATCH ? n - done : SHOW_BATCH;
		size_t d = 0;
		int rc = ssh_show_batch(s, first, first && k == n, ports + done, k, docs, err);

		if (rc)
			return rc;
		if (first)
			for (size_t v = 0; v < QOS_VIEWS; v++)
				qos[v] = docs[d++];
		for (size_t i = 0; i < k; i++)
			ifq[done + i] = docs[d++];
		done += k;
		first = false;
	}
	return 0;
}

static int rest_fetch(struct rc_session *s, const struct rc_port_state *ports, size_t n,
		      cJSON **qos, cJSON **ifq, struct rc_err *err)
{
	char path[RC_NAME_MAX * 3 + 32], esc[RC_NAME_MAX * 3];
	int rc = rest_get(s, "/qos", &qos[0], err);

	if (!rc)
		rc = rest_get(s, "/qos?rev=applied", &qos[1], err);
	if (!rc)
		rc = rest_get(s, "/qos?rev=startup", &qos[2], err);

	for (size_t i = 0; !rc && i < n; i++) {
		/* checked at open; checked again because these bytes go into a URL */
		if (!nvue_port_name_ok(ports[i].name) ||
		    rc_rest_escape(ports[i].name, esc, sizeof(esc)))
			return rc_errf(err, EINVAL,
				       "'%s': port name '%s' is not a valid NVUE interface name",
				       s->dev->name, ports[i].name);
		snprintf(path, sizeof(path), "/interface/%s/qos", esc);
		rc = rest_get(s, path, &ifq[i], err);
	}
	return rc;
}

/* `cmd` is `nv config show [-r REV] -o json` (NVUE reference, "Config Commands"). */
static int ssh_config_root(struct rc_session *s, const char *cmd, cJSON **root, struct rc_err *err)
{
	struct rc_ssh_result res;
	char what[96];
	int rc = ssh_run(s, cmd, &res, err);

	if (rc)
		return rc;
	snprintf(what, sizeof(what), "'%s'", cmd);
	if (res.exit_status != 0) {
		rc = rc_switch_exit_error(&res, what, err);
	} else {
		rc = nvue_config_show_root(res.out, res.out_len, root, err);
	}
	rc_ssh_result_free(&res);
	return rc;
}

/* The applied configuration, configured values only (Cumulus Linux 5.18 "NVUE API", "View a
 * Configuration": filled=false). */
static int applied_root(struct rc_session *s, cJSON **root, struct rc_err *err)
{
	*root = NULL;
	return s->rest ? rest_get(s, "/?rev=applied&filled=false", root, err)
		       : ssh_config_root(s, "nv config show -o json", root, err);
}

/* Whether the applied configuration differs from the startup one (/etc/nvue.d/startup.yaml):
 * a revision applied and not saved, which `nv config apply` leaves before Cumulus Linux
 * 5.9 or with `system config auto-save` off (NVUE reference, "Config Commands").  The
 * revision name `startup` is the API's `?rev=` one (Cumulus Linux 5.18 "NVUE API"). */
static int applied_unsaved(struct rc_session *s, bool *differs, cJSON **applied_out,
			   struct rc_err *err)
{
	cJSON *applied = NULL, *startup = NULL;
	int rc = applied_root(s, &applied, err);

	*differs = true;
	if (!rc)
		rc = s->rest
			 ? rest_get(s, "/?rev=startup&filled=false", &startup, err)
			 : ssh_config_root(s, "nv config show -r startup -o json", &startup, err);
	if (!rc)
		*differs = !cJSON_Compare(applied, startup, true);
	if (!rc && applied_out) {
		*applied_out = applied;
		applied = NULL;
	}
	cJSON_Delete(applied);
	cJSON_Delete(startup);
	return rc;
}

/* Whether a write of this session saves (rc_run_opts.save_only_if_saved). */
static bool saves(const struct rc_session *s)
{
	return !s->opts.save_only_if_saved || !s->found_unsaved;
}

static bool nvue_found_unsaved(const struct rc_session *s)
{
	return s->found_unsaved;
}

/* With save_only_if_saved: whether applied == startup, once, before anything is written
 * (not known: taken as differing, so that nothing is saved over it). */
static void first_look(struct rc_session *s)
{
	struct rc_err ignored = {0};

	if (s->read_once || !s->opts.save_only_if_saved)
		return;
	applied_unsaved(s, &s->found_unsaved, NULL, &ignored);
	s->read_once = true;
}

static int nvue_read(struct rc_session *s, struct rc_port_state *ports, size_t n,
		     struct rc_err *err)
{
	struct nvue_port_info *info = calloc(n ? n : 1, sizeof(*info));
	cJSON **ifq = calloc(n ? n : 1, sizeof(*ifq));
	cJSON *qos[QOS_VIEWS] = {NULL};
	uint32_t startup_groups = 0, *memo = NULL;
	int rc;

	if (!info || !ifq) {
		free(info);
		free(ifq);
		return rc_errf(err, ENOMEM, "out of memory");
	}
	rc = s->rest ? rest_fetch(s, ports, n, qos, ifq, err)
		     : ssh_fetch(s, ports, n, qos, ifq, err);
	if (!rc)
		first_look(s);
	if (!rc && qos[1] && qos[2]) {
		/* under a pending --confirm, startup is saved by the confirm, not before; a
		 * session that will not save cannot repair a startup that differs */
		if (!((s->opts.timed_commit_pending || s->timed) && timed_minutes(s)) && saves(s))
			startup_groups = nvue_startup_groups(qos[1], qos[2]);
		memo = &startup_groups;
	}
	for (size_t i = 0; !rc && i < n; i++) {
		struct nvue_views v = {qos[0], qos[1], qos[2], ifq[i]};

		rc = nvue_parse_port_with(&v, memo, &ports[i].qos, &info[i], err);
		if (rc)
			rc_err_prefix(err, "'%s' port '%s'", s->dev->name, ports[i].name);
	}
	if (!rc && rc_port_memo_store(&s->read, ports, info, n, sizeof(*info)))
		rc = rc_errf(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		cJSON_Delete(ifq[i]);
	for (size_t v = 0; v < QOS_VIEWS; v++)
		cJSON_Delete(qos[v]);
	free(ifq);
	free(info);
	return rc;
}

static bool startup_differs(const struct nvue_port_info *info, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (info[i].startup_differs)
			return true;
	return false;
}

/* Save what NVUE applied (and verified: the revision reached "applied") as the startup
 * configuration: `nv config apply` saves only from CL 5.9 on, or with `system config
 * auto-save` (NVUE reference, "Config Commands", nv config apply / nv config save).  Over
 * REST, `nv config save` is a PATCH of revision "applied" to state "save" (NVIDIA's "Data Center
 * Network Automation Quick Start Guide", Use Cases and Recommendations, Revisions step 5, which
 * saves to /etc/nvue.d/startup.yaml).  A failed save leaves the change in effect until a reload,
 * and the next read reports it (startup is read back as `?rev=startup`: drift), so it does not
 * fail apply. */
static void persist(struct rc_session *s)
{
	struct rc_ssh_result res;
	struct rc_err ignored;

	if (s->rest) {
		cJSON *body = cJSON_CreateObject();

		if (body && cJSON_AddStringToObject(body, "state", "save") &&
		    cJSON_AddStringToObject(cJSON_AddObjectToObject(body, "auto-prompt"), "ays",
					    "ays_yes"))
			rc_rest_json(s->api, "PATCH", "/revision/applied", body, NULL, NULL, NULL,
				     &ignored);
		cJSON_Delete(body);
		return;
	}
	if (!ssh_run(s, "nv config save", &res, &ignored))
		rc_ssh_result_free(&res);
}

/* The operations apply would send for `w`, from what the last read kept (*info: each written
 * port's, freed by the caller); plan's check builds the same, so that what apply would
 * refuse is found without writing. */
static int build(struct rc_session *s, const struct rc_port_write *w, size_t n,
		 struct nvue_port_info **info, struct nvue_ops *ops, struct rc_err *err)
{
	struct nvue_peer *peers = calloc(s->read.n ? s->read.n : 1, sizeof(*peers));
	int rc;

	memset(ops, 0, sizeof(*ops));
	*info = calloc(n ? n : 1, sizeof(**info));
	if (!*info || !peers) {
		free(peers);
		return rc_errf(err, ENOMEM, "out of memory");
	}
	rc = rc_switch_write_infos(&s->read, w, n, *info, sizeof(**info), err);
	for (size_t i = 0; !rc && i < s->read.n; i++)
		peers[i] = (struct nvue_peer){s->read.port[i], rc_port_memo_at(&s->read, i)};
	if (!rc)
		rc = nvue_build_ops(w, *info, n, peers, s->read.n, ops, err);
	free(peers);
	return rc;
}

/* plan: what apply would refuse (a profile shared with a port already as wanted, RoCE mode's
 * one cable length for the switch, a value outside NVUE's range), and that the switch runs
 * RoCE mode, which rocectl then changes from inside (nvue_ops.c). */
static int nvue_check(struct rc_session *s, const struct rc_port_write *w, size_t n,
		      struct rc_notes *notes, struct rc_err *err)
{
	struct rc_port_write *writes = calloc(n ? n : 1, sizeof(*writes));
	struct nvue_port_info *info = NULL;
	struct nvue_ops ops = {0};
	struct rc_err berr = {0};
	size_t nw = 0;
	bool roce = false, lossy = false;

	if (!writes)
		return rc_errf(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		if (w[i].fields)
			writes[nw++] = w[i];
	if (nw && build(s, writes, nw, &info, &ops, &berr)) {
		rc_switch_note(notes, "apply would write nothing and fail: %s", berr.msg);
		notes->apply_fails = true;
	}
	for (size_t i = 0; info && i < nw; i++) {
		roce |= info[i].roce_mode;
		lossy |= info[i].roce_lossy && (writes[i].fields & RC_F_PFC) &&
			 writes[i].want->pfc_enabled;
	}
	if (lossy)
		rc_switch_note(notes,
			       "RoCE mode is lossy here, with no lossless pool for PFC: apply "
			       "sets qos roce mode lossless, for the whole switch");
	if (roce)
		rc_switch_note(notes, "the switch runs RoCE mode (nv set qos roce): changes are "
				      "made inside it, and its cable length (qos roce "
				      "cable-length) is one value for every port");
	nvue_ops_free(&ops);
	free(info);
	free(writes);
	return 0;
}

static int nvue_apply(struct rc_session *s, const struct rc_port_write *w, size_t n,
		      struct rc_err *err)
{
	struct nvue_port_info *info = NULL;
	struct nvue_ops ops = {0};
	int rc = rc_switch_refuse_dry_run(s->dev, &s->opts, err);

	if (rc)
		return rc;
	rc = build(s, w, n, &info, &ops, err);
	if (rc) {
		rc_err_prefix(err, "nothing was sent");
		goto out;
	}
	if (ops.n)
		rc = s->rest ? rest_apply(s, &ops, err) : ssh_apply(s, &ops, err);
	/* a revision under NVUE's timer is saved by the confirm (nvue_confirm) */
	if (!rc && saves(s) &&
	    ((ops.n && !timed_minutes(s)) || (!ops.n && startup_differs(info, n))))
		persist(s);
out:
	nvue_ops_free(&ops);
	free(info);
	return rc;
}

/* ---- native snapshot and restore (nvue_snap.c) ------------------------------------------ */

/* Over REST the revisions pending now are kept: apply creates its own after the journal
 * is written, and a rollback after a kill finds it as a pending one that was not. */
/* A run saves what it applied (persist), and NVUE saves the whole applied configuration:
 * a revision someone applied and did not save would be saved along with it, and no
 * restore can put the startup configuration back (NVUE saves nothing but the applied
 * revision).  Such a device is not written unless the run is told to save it too
 * (--save-pending). */
static int refuse_unsaved(struct rc_session *s, cJSON **applied, struct rc_err *err)
{
	bool differs = true;
	int rc = applied_unsaved(s, &differs, applied, err);

	if (rc) {
		rc_err_prefix(err, "cannot tell whether the applied configuration is saved");
		return rc;
	}
	if (!differs)
		return 0;
	cJSON_Delete(*applied);
	*applied = NULL;
	return rc_errf(err, EPERM,
		       "the applied configuration differs from the startup one (a change "
		       "applied and not saved: Cumulus Linux before 5.9, or auto-save off); this "
		       "run would save it along with its own, and nothing can unsave it.  Save "
		       "it (`nv config save`) or undo it first, or run again with --save-pending "
		       "to save it too");
}

static int nvue_snapshot(struct rc_session *s, char **blob, struct rc_err *err)
{
	struct nvue_snap snap;
	cJSON *root = NULL, *revs = NULL;
	int rc;

	*blob = NULL;
	if (!s->read.n)
		return rc_errf(err, EINVAL, "'%s': no port was read before the snapshot",
			       s->dev->name);
	/* the refusal's check reads the applied configuration the snapshot needs */
	rc = s->opts.save_pending ? applied_root(s, &root, err) : refuse_unsaved(s, &root, err);
	if (rc == -EPERM)
		return rc;
	if (!rc)
		rc = nvue_snap_from_root(root, (const char(*)[RC_NAME_MAX])s->read.port, s->read.n,
					 &snap, err);
	cJSON_Delete(root);
	snap.timed = timed_minutes(s) > 0;
	if (!rc && s->rest) {
		snap.rest = true;
		rc = rest_get(s, "/revision", &revs, err);
		if (!rc)
			rc = nvue_pending_revisions(revs, &snap.pending, &snap.n_pending, err);
		cJSON_Delete(revs);
		if (rc)
			nvue_snap_free(&snap);
	}
	if (rc) {
		rc_err_prefix(err, "'%s'", s->dev->name);
		return rc;
	}
	*blob = nvue_snap_write(&snap);
	nvue_snap_free(&snap);
	return *blob ? 0 : rc_errf(err, ENOMEM, "out of memory");
}

/* REST: the journaled revision must not stay pending.  NVUE deletes only pending
 * revisions (409 otherwise: it was applied or refused, which the restore then undoes). */
static int rest_drop_revision(struct rc_session *s, const char *id, struct rc_err *err)
{
	static const long gone[] = {404, 409, 0};
	char eid[200], path[300], state[64] = "", issue[8];
	cJSON *j = NULL;
	long status = 0;
	int rc;

	if (rc_rest_escape(id, eid, sizeof(eid)))
		return rc_errf(err, EPROTO, "revision id too long");
	snprintf(path, sizeof(path), "/revision/%s", eid);
	rc = rc_rest_json(s->api, "DELETE", path, NULL, gone, NULL, NULL, err);
	if (!rc)
		rc = rc_rest_json(s->api, "GET", path, NULL, gone, &status, &j, err);
	if (!rc && status < 400)
		rc = nvue_revision_state(j, state, sizeof(state), issue, sizeof(issue), err);
	cJSON_Delete(j);
	if (!rc && !strcmp(state, "pending"))
		rc = rc_errf(err, EBUSY, "revision %s is still pending after DELETE", id);
	if (rc)
		rc_err_prefix(err, "cannot discard revision %s", id);
	return rc;
}

/* SSH: this user's staged `nv set`s live in its pending CLI revision; `nv config detach`
 * drops it (NVUE reference, "Config Commands"). */
static int ssh_detach(struct rc_session *s, struct rc_err *err)
{
	struct rc_ssh_result res;
	int rc = ssh_run(s, "nv config detach", &res, err);

	if (rc)
		return rc;
	if (res.exit_status != 0)
		rc = rc_errf(err, EIO, "'nv config detach' failed (exit status %d)",
			     res.exit_status);
	rc_ssh_result_free(&res);
	return rc;
}

/* REST: every revision pending now that was not pending at the snapshot was staged by the
 * killed run (rocectl holds the device lock: no other rocectl run stages at the same time). */
static int rest_drop_new(struct rc_session *s, const struct nvue_snap *snap, struct rc_err *err)
{
	char(*ids)[64] = NULL;
	cJSON *revs = NULL;
	size_t n = 0;
	int rc = rest_get(s, "/revision", &revs, err);

	if (!rc)
		rc = nvue_pending_revisions(revs, &ids, &n, err);
	cJSON_Delete(revs);
	for (size_t i = 0; !rc && i < n; i++)
		if (!nvue_snap_was_pending(snap, ids[i]))
			rc = rest_drop_revision(s, ids[i], err);
	free(ids);
	return rc;
}

static int nvue_discard(struct rc_session *s, const char *blob, struct rc_err *err)
{
	struct nvue_snap snap;
	int rc;

	if (!s->rest)
		return ssh_detach(s, err);
	if (!blob)
		return 0; /* without the snapshot no revision is known to be ours */
	rc = nvue_snap_parse(blob, &snap, err);
	/* a run that ended staged nothing that is still pending: those are someone else's */
	if (!rc && snap.rest && !s->opts.undo_finished)
		rc = rest_drop_new(s, &snap, err);
	nvue_snap_free(&snap);
	return rc;
}

/* REST: the "Replace an Entire Configuration" workflow (Cumulus Linux 5.18 "NVUE API") on the
 * managed subtrees: DELETE each of them, PATCH the snapshot back, apply, in one new revision. */
static int rest_restore(struct rc_session *s, const struct nvue_snap *snap, struct rc_err *err)
{
	static const long absent[] = {404, 0};
	char id[64], path[300], rev_path[300], q[RC_NAME_MAX * 3 + 64], esc[RC_NAME_MAX * 3];
	cJSON *patch = nvue_snap_patch(snap);
	int rc = patch ? rest_take_revision(s, id, sizeof(id), rev_path, path, sizeof(path), err)
		       : rc_errf(err, ENOMEM, "out of memory");

	if (rc) {
		cJSON_Delete(patch);
		return rc;
	}
	snprintf(q, sizeof(q), "/qos%s", path + 1);
	rc = rc_rest_json(s->api, "DELETE", q, NULL, absent, NULL, NULL, err);
	for (size_t i = 0; !rc && i < snap->n_ports; i++) {
		if (rc_rest_escape(snap->port[i], esc, sizeof(esc)))
			rc = rc_errf(err, EINVAL, "port name too long");
		/* an interface entry the run created goes as a whole */
		snprintf(q, sizeof(q), "/interface/%s%s%s", esc, snap->absent[i] ? "" : "/qos",
			 path + 1);
		if (!rc)
			rc = rc_rest_json(s->api, "DELETE", q, NULL, absent, NULL, NULL, err);
	}
	if (!rc && patch->child)
		rc = rc_rest_json(s->api, "PATCH", path, patch, NULL, NULL, NULL, err);
	cJSON_Delete(patch);
	if (rc)
		rc_err_prefix(err, "staging the restore in revision %s failed", id);
	if (!rc)
		rc = rest_commit(s, rev_path, id, err);
	if (rc)
		rest_discard(s, rev_path);
	return rc;
}

/* Is the applied configuration already the snapshot's?  (A failed apply leaves it so:
 * NVUE applies a revision whole or not at all, and a new revision is then not needed.) */
static int differences(struct rc_session *s, const struct nvue_snap *snap, bool *same, char *why,
		       size_t len, struct rc_err *err)
{
	struct nvue_snap now;
	cJSON *root = NULL;
	int rc = applied_root(s, &root, err);

	*same = false;
	if (!rc)
		rc = nvue_snap_from_root(root, (const char(*)[RC_NAME_MAX])snap->port,
					 snap->n_ports, &now, err);
	cJSON_Delete(root);
	if (rc)
		return rc;
	*same = (!now.qos == !snap->qos) && (!now.qos || cJSON_Compare(now.qos, snap->qos, true));
	for (size_t i = 0; *same && i < snap->n_ports; i++)
		*same = now.absent[i] == snap->absent[i] && !now.ifqos[i] == !snap->ifqos[i] &&
			(!now.ifqos[i] || cJSON_Compare(now.ifqos[i], snap->ifqos[i], true));
	if (!*same && why && nvue_snap_differences(snap, &now, why, len) < 0)
		rc = rc_errf(err, ENOMEM, "out of memory");
	nvue_snap_free(&now);
	return rc;
}

static int already_restored(struct rc_session *s, const struct nvue_snap *snap, bool *same,
			    struct rc_err *err)
{
	return differences(s, snap, same, NULL, 0, err);
}

/* Read back after a restore: the applied configuration of the managed subtrees must be the
 * snapshot's, else the settings that differ are the error. */
static int verify_restored(struct rc_session *s, const struct nvue_snap *snap, struct rc_err *err)
{
	char why[900];
	bool same = false;
	int rc = differences(s, snap, &same, why, sizeof(why), err);

	if (!rc && !same)
		rc = rc_errf(err, EIO, "after the restore, not the snapshot's configuration: %s",
			     why[0] ? why : "the same settings in another shape");
	return rc;
}

/* `nv config revision -o json`: every revision keyed by its id, each with a "state"
 * (NVUE reference, Config Commands, `nv config revision`; the JSON shape is the one
 * third-party commit-confirm clients read). */
static int ssh_revisions(struct rc_session *s, cJSON **revs, struct rc_err *err)
{
	static const char cmd[] = "nv config revision -o json";
	struct rc_ssh_result res;
	int rc = ssh_run(s, cmd, &res, err);

	*revs = NULL;
	if (rc)
		return rc;
	if (res.exit_status != 0)
		rc = rc_switch_exit_error(&res, "'nv config revision -o json'", err);
	else
		rc = nvue_parse_json(res.out, res.out_len, "'nv config revision -o json'", revs,
				     err);
	rc_ssh_result_free(&res);
	return rc;
}

/* The one revision waiting in state "confirm" (*id ""; none).  Two waiting is refused:
 * which one this run applied cannot be told, and confirming the other would keep someone
 * else's change. */
static int waiting_revision(struct rc_session *s, char *id, size_t len, struct rc_err *err)
{
	char(*ids)[64] = NULL;
	cJSON *revs = NULL;
	size_t n = 0;
	int rc = ssh_revisions(s, &revs, err);

	if (!rc)
		rc = nvue_revisions_in_state(revs, "confirm", &ids, &n, err);
	cJSON_Delete(revs);
	id[0] = '\0';
	if (!rc && n > 1)
		rc = rc_errf(err, EBUSY,
			     "revisions %s and %s both wait for a confirm; which one this run "
			     "applied is not known, so neither is confirmed",
			     ids[0], ids[1]);
	else if (!rc && n == 1)
		snprintf(id, len, "%s", ids[0]);
	free(ids);
	return rc;
}

/* Keep the revision NVUE's --confirm timer would roll back: `nv config apply <rev>
 * --confirm-yes` (the form of clients written against real switches; a bare
 * `nv config apply` with nothing pending proves nothing), then read the revision back: it
 * must have left "confirm" for an applied state.  *kept is false when nothing waited;
 * *gone (with 0 and err saying so) when the switch's own timer had already rolled it back
 * ("confirm_fail").  Any other failure, a command that timed out included, is an error:
 * the revision may still wait, and a restore on top of it would leave the switch's timer
 * armed over the restored configuration.  This user's staged changes are dropped first
 * so that nothing else is applied with it. */
static int keep_timed(struct rc_session *s, bool *kept, bool *gone, struct rc_err *err)
{
	char id[64], cmd[128], state[64] = "", why[300];
	struct rc_ssh_result res;
	cJSON *revs = NULL;
	int rc = ssh_detach(s, err);

	*kept = false;
	*gone = false;
	if (!rc)
		rc = waiting_revision(s, id, sizeof(id), err);
	if (rc || !id[0])
		return rc;
	snprintf(cmd, sizeof(cmd), "nv config apply %s --confirm-yes", id);
	rc = ssh_run(s, cmd, &res, err);
	if (rc)
		return rc;
	rc = nvue_check_apply_output(res.out, res.out_len, res.err, res.err_len, res.exit_status,
				     why, sizeof(why));
	rc_ssh_result_free(&res);
	if (rc)
		return rc_errf(err, EIO, "'%s' failed: %s", cmd, why);
	rc = ssh_revisions(s, &revs, err);
	if (!rc && nvue_revision_state_of(revs, id, state, sizeof(state), err) == 1)
		rc = rc_errf(err, EPROTO, "revision %s is gone after '%s'", id, cmd);
	cJSON_Delete(revs);
	if (rc)
		return rc;
	if (!strcmp(state, "confirm_fail")) {
		*gone = true;
		rc_errf(err, ETIMEDOUT,
			"the switch's own --confirm timer already rolled the change back "
			"(revision %s: %s)",
			id, state);
		return 0;
	}
	if (!nvue_revision_applied(state))
		return rc_errf(err, EIO, "revision %s is '%s' after '%s', not applied", id, state,
			       cmd);
	*kept = true;
	return 0;
}

/* A revision still under NVUE's timer is kept first, so that the restore below is the
 * last word and the timer cannot undo it later (or race it). */
static int nvue_restore_native(struct rc_session *s, const char *blob, struct rc_err *err)
{
	struct nvue_snap snap;
	bool same = false, kept = false, gone = false;
	int rc = nvue_snap_parse(blob, &snap, err);

	first_look(s);
	if (!rc)
		rc = nvue_discard(s, blob, err);
	/* a run that ended was confirmed or rolled back by its timer long ago; one rolled
	 * back by its timer already (gone) is compared below like any other */
	if (!rc && snap.timed && !s->rest && !s->opts.undo_finished)
		rc = keep_timed(s, &kept, &gone, err);
	if (!rc && gone)
		*err = (struct rc_err){0}; /* not an error here: restored below if need be */
	if (!rc)
		rc = already_restored(s, &snap, &same, err);
	if (!rc && !same)
		rc = s->rest ? rest_restore(s, &snap, err)
			     : ssh_commit_lines(s, nvue_snap_cli(&snap), 0, err);
	if (!rc && !same && saves(s))
		persist(s);
	if (!rc && !same)
		rc = verify_restored(s, &snap, err);
	nvue_snap_free(&snap);
	if (rc)
		rc_err_prefix(err, "'%s'", s->dev->name);
	return rc;
}

/* Keep a run applied under NVUE's timer, then save it.  If the applied configuration is
 * the snapshot's again, the timer came first: the change is gone, not kept. */
static int nvue_confirm(struct rc_session *s, const char *blob, struct rc_err *err)
{
	struct nvue_snap snap;
	bool same = false, kept = false, gone = false;
	int rc = nvue_snap_parse(blob, &snap, err);

	if (!rc && snap.timed && !s->rest) {
		rc = keep_timed(s, &kept, &gone, err);
		if (!rc && gone)
			rc = -ETIMEDOUT; /* err says so */
		/* nothing waited: gone back already, or kept by an earlier confirm */
		if (!rc && !kept)
			rc = already_restored(s, &snap, &same, err);
		if (!rc && same)
			rc = rc_errf(err, ETIMEDOUT,
				     "the switch's own --confirm timer already rolled the change "
				     "back");
		if (!rc)
			persist(s);
	}
	nvue_snap_free(&snap);
	if (rc)
		rc_err_prefix(err, "'%s'", s->dev->name);
	return rc;
}

static void nvue_close(struct rc_session *s)
{
	if (!s)
		return;
	rc_ssh_close(s->ssh);
	rc_rest_close(s->api);
	rc_port_memo_free(&s->read);
	rc_switch_lldp_drop(&s->lldp);
	rc_counters_fini(&s->cnt);
	free(s);
}

/* Nothing written here restarts switchd (RoCE mode and traffic pools do; we leave them
 * alone), but PFC and cable length resize the port's lossless buffers, which drops what
 * is queued on the port at that moment. */
/* Counters over SSH: the same batching as the reads, one command line per SHOW_BATCH ports. */
static int nvue_counters(struct rc_session *s, const struct rc_port_state *ports, size_t n,
			 struct rc_counters *out, struct rc_err *err)
{
	cJSON *docs[SHOW_BATCH];
	int rc = 0;

	if (s->rest)
		return rc_errf(err, EOPNOTSUPP, "'%s': counters are read over SSH only",
			       s->dev->name);
	if (s->cnt_kept) { /* the read's own command line printed them (keep_with_counters) */
		rc_counters_fini(out);
		*out = s->cnt;
		memset(&s->cnt, 0, sizeof(s->cnt));
		s->cnt_kept = false;
		if (s->cnt_rc)
			*err = s->cnt_err;
		return s->cnt_rc;
	}
	for (size_t done = 0; done < n && !rc;) {
		size_t k = n - done < SHOW_BATCH ? n - done : SHOW_BATCH, len, o = 0;
		char *cmd, what[RC_NAME_MAX + 48];
		struct rc_ssh_result res;

		memset(docs, 0, sizeof(docs));
		len = k * (RC_NAME_MAX + 56) + 1;
		cmd = malloc(len);
		if (!cmd)
			return rc_errf(err, ENOMEM, "out of memory");
		cmd[0] = '\0';
		for (size_t i = 0; i < k && !rc; i++) {
			if (!nvue_port_name_ok(ports[done + i].name))
				rc = rc_errf(err, EINVAL, "'%s': port name '%s' is not valid",
					     s->dev->name, ports[done + i].name);
			o += (size_t)snprintf(cmd + o, len - o,
					      "%snv show interface %s counters qos -o json",
					      o ? " && " : "", ports[done + i].name);
		}
		if (!rc)
			rc = ssh_run(s, cmd, &res, err);
		free(cmd);
		if (rc)
			break;
		snprintf(what, sizeof(what), "counters of '%s'", s->dev->name);
		if (res.exit_status != 0)
			rc = rc_errf(err, EIO, "'nv show ... counters' on '%s' failed (exit %d)",
				     s->dev->name, res.exit_status);
		else
			rc = nvue_parse_json_seq(res.out, res.out_len, what, docs, k, err);
		rc_ssh_result_free(&res);
		for (size_t i = 0; !rc && i < k; i++)
			rc = nvue_parse_counters(docs[i], ports[done + i].name, out, err);
		for (size_t i = 0; i < k; i++)
			cJSON_Delete(docs[i]);
		done += k;
	}
	return rc;
}

/* LLDP neighbours over SSH (nvue_lldp.c); the REST driver has none (no documented model). */
static int nvue_neighbors(struct rc_session *s, struct rc_neighbors *out, struct rc_err *err)
{
	struct rc_ssh_result res;
	int rc;

	if (s->rest)
		return -ENOENT;
	if (rc_switch_lldp_take(&s->lldp, out, err, &rc)) /* the read's own line printed them */
		return rc;
	rc = ssh_run(s, "nv show interface lldp", &res, err);
	if (rc)
		return rc;
	if (res.exit_status != 0)
		rc = rc_errf(err, EIO, "'nv show interface lldp' on '%s' failed (exit %d)",
			     s->dev->name, res.exit_status);
	else
		rc = nvue_parse_lldp(res.out, res.out_len, s->dev->name, out, err);
	rc_ssh_result_free(&res);
	return rc;
}

static const struct rc_driver nvue_ssh_driver = {
    .name = "nvue-ssh",
    .disruptive = RC_F_PFC | RC_F_CABLE,
    .open = nvue_ssh_open,
    .read = nvue_read,
    .apply = nvue_apply,
    .check = nvue_check,
    .counters = nvue_counters,
    .close = nvue_close,
    .neighbors = nvue_neighbors,
    .snapshot = nvue_snapshot,
    .restore_native = nvue_restore_native,
    .discard = nvue_discard,
    .confirm = nvue_confirm,
    .found_unsaved = nvue_found_unsaved,
    .device_version = rc_tap_device_version,
};

static const struct rc_driver nvue_rest_driver = {
    .name = "nvue-rest",
    .disruptive = RC_F_PFC | RC_F_CABLE,
    .open = nvue_rest_open,
    .read = nvue_read,
    .apply = nvue_apply,
    .check = nvue_check,
    .close = nvue_close,
    .snapshot = nvue_snapshot,
    .restore_native = nvue_restore_native,
    .discard = nvue_discard,
    .found_unsaved = nvue_found_unsaved,
    .device_version = rc_tap_device_version,
};

RC_DRIVER_REGISTER(nvue_ssh_driver)
RC_DRIVER_REGISTER(nvue_rest_driver)
