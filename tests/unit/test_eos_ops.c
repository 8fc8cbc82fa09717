/* SPDX-License-Identifier: Apache-2.0 */
/* EOS write side (drivers/switch/eos_ops.c): configuration lines in session order from
 * recorded running-configs, global lines checked against every port read, the CLI's error
 * lines, and eAPI JSON-RPC answers (tests/data/eos/eapi-*) with the failing command named. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>
#include <cmocka.h>

#include "../../drivers/switch/eos.h"
#include "rocectl/diff.h"
#include "testutil.h"

static void policy_want(struct port_qos *q)
{
	memset(q, 0, sizeof(*q));
	q->known = RC_F_TRUST | RC_F_DSCP2PRIO | RC_F_PRIO2TC | RC_F_PFC | RC_F_ECN | RC_F_WATCHDOG;
	q->trust = RC_TRUST_DSCP;
	q->dscp_mask = (1ull << 26) | (1ull << 48);
	q->dscp2prio[26] = 3;
	q->dscp2prio[48] = 6;
	q->prio_mask = (1u << 3) | (1u << 6);
	q->prio2tc[3] = 3;
	q->prio2tc[6] = 6;
	q->pfc_enabled = 1u << 3;
	q->ecn_tc_mask = 1u << 3;
	q->ecn[3] = (struct rc_ecn_tc){true, 150000, 1500000, 100};
	q->watchdog = (struct rc_watchdog){true, 300, 300, RC_WD_DROP, 0};
}

struct fixture {
	struct eos_config cfg;
	size_t n;
	struct port_qos have[4], want[4];
	struct eos_port_info info[4];
	struct rc_port_write w[4];
	struct eos_peer peers[4];
};

static void setup(struct fixture *f, const char *file, size_t n, const char *const *ports)
{
	struct rc_err err = {0};
	size_t len;
	char *buf = rc_test_fixture("tests/data/eos", file, &len);

	memset(f, 0, sizeof(*f));
	if (eos_parse_config_text(buf, len, file, &f->cfg, &err))
		fail_msg("%s: %s", file, err.msg);
	free(buf);
	f->n = n;
	for (size_t i = 0; i < n; i++) {
		struct rc_changes ch = {0};
		int64_t m;

		if (eos_parse_port(&f->cfg, ports[i], &f->have[i], &f->info[i], &err))
			fail_msg("%s: %s", ports[i], err.msg);
		policy_want(&f->want[i]);
		m = rc_diff_port(ports[i], &f->want[i], &f->have[i], 0, 0, &ch);
		assert_true(m >= 0);
		rc_changes_free(&ch);
		f->w[i] = (struct rc_port_write){ports[i], &f->want[i], &f->have[i], (uint32_t)m};
		f->peers[i] = (struct eos_peer){ports[i], &f->info[i]};
	}
}

/* The rendered session lines, joined by '\n'. */
static char *script(struct fixture *f, size_t n_writes, struct rc_err *err, int *rc)
{
	struct eos_cmds cmds;
	char **lines, *s;
	size_t n, len = 1;

	memset(err, 0, sizeof(*err));
	*rc = eos_build_cmds(&f->cfg, f->w, f->info, n_writes, f->peers, f->n, &cmds, err);
	if (*rc)
		return NULL;
	lines = eos_render(&cmds, &n);
	assert_non_null(lines);
	for (size_t i = 0; i < n; i++)
		len += strlen(lines[i]) + 1;
	s = calloc(1, len);
	for (size_t i = 0; i < n; i++) {
		strcat(s, lines[i]);
		strcat(s, "\n");
	}
	assert_null(lines[n]);
	eos_lines_free(lines);
	eos_cmds_free(&cmds);
	return s;
}

static void test_factory_to_lossless(void **state)
{
	static const char *const ports[] = {"Ethernet1", "Ethernet2"};
	static const char want[] =
	    "qos map dscp 26 to traffic-class 3\n"
	    "qos map dscp 48 to traffic-class 6\n"
	    "priority-flow-control pause watchdog default timeout 0.3\n"
	    "priority-flow-control pause watchdog default recovery-time 0.3\n"
	    "priority-flow-control pause watchdog action drop\n"
	    "interface Ethernet1\n"
	    "qos trust dscp\n"
	    "priority-flow-control priority 3 no-drop\n"
	    "priority-flow-control on\n"
	    "priority-flow-control pause watchdog\n"
	    "tx-queue 3\n"
	    "random-detect ecn minimum-threshold 150 kbytes maximum-threshold 1500 kbytes "
	    "max-mark-probability 100\n"
	    "random-detect ecn count\n"
	    "exit\n"
	    "exit\n"
	    "interface Ethernet2\n"
	    "qos trust dscp\n"
	    "priority-flow-control priority 3 no-drop\n"
	    "priority-flow-control on\n"
	    "priority-flow-control pause watchdog\n"
	    "tx-queue 3\n"
	    "random-detect ecn minimum-threshold 150 kbytes maximum-threshold 1500 kbytes "
	    "max-mark-probability 100\n"
	    "random-detect ecn count\n"
	    "exit\n"
	    "exit\n";
	struct fixture f;
	struct rc_err err;
	int rc;
	char *s;
	(void)state;

	setup(&f, "running-factory.txt", 2, ports);
	/* EOS's default map already sends 26 to 3 and 48 to 6, but its defaults are not
	 * documented: a port turned to DSCP trust gets them written out */
	assert_false(f.w[0].fields & RC_F_DSCP2PRIO);
	s = script(&f, 2, &err, &rc);
	assert_int_equal(rc, 0);
	if (strcmp(s, want))
		fail_msg("got:\n%s", s);
	free(s);
	eos_config_free(&f.cfg);
}

static void test_drift_repair(void **state)
{
	static const char *const ports[] = {"Ethernet1", "Ethernet2"};
	struct fixture f;
	struct rc_err err;
	int rc;
	char *s;
	(void)state;

	/* Ethernet1 is as wanted; Ethernet2 has priority 4 lossless too and ECN in other
	 * units: only its lines are written */
	setup(&f, "running-lossless.txt", 2, ports);
	assert_int_equal(f.w[0].fields, 0);
	assert_true(f.w[1].fields & RC_F_PFC);
	f.w[1].fields &= ~RC_F_WATCHDOG; /* the global timers are shared: Ethernet1 is fine */
	s = script(&f, 2, &err, &rc);
	assert_int_equal(rc, 0);
	assert_string_equal(s, "interface Ethernet2\n"
			       "no priority-flow-control priority 4\n"
			       "tx-queue 3\n"
			       "random-detect ecn minimum-threshold 150 kbytes maximum-threshold "
			       "1500 kbytes max-mark-probability 100\n"
			       "random-detect ecn count\n"
			       "exit\n"
			       "exit\n");
	free(s);
	eos_config_free(&f.cfg);
}

static void test_global_conflict_and_names(void **state)
{
	static const char *const ports[] = {"Ethernet1", "Ethernet2"};
	struct fixture f;
	struct rc_err err;
	int rc;
	char *s;
	(void)state;

	/* a global map line for one port while another port read does not want it */
	setup(&f, "running-factory.txt", 2, ports);
	f.w[1].fields &= ~RC_F_WATCHDOG;
	s = script(&f, 2, &err, &rc);
	assert_null(s);
	assert_int_equal(rc, -EINVAL);
	assert_non_null(strstr(err.msg, "'priority-flow-control pause watchdog default timeout "
					"0.3' for port 'Ethernet1' is global"));
	/* pinning DSCP entries the default already has changes no port: no conflict */
	f.w[1].fields = RC_F_WATCHDOG;
	s = script(&f, 2, &err, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(s, "qos map dscp 26 to traffic-class 3\n"));
	free(s);
	eos_config_free(&f.cfg);

	setup(&f, "running-factory.txt", 1, ports);
	f.w[0].port = "Ethernet1\nreload";
	s = script(&f, 1, &err, &rc);
	assert_int_equal(rc, -EINVAL);
	eos_config_free(&f.cfg);

	setup(&f, "running-factory.txt", 1, ports);
	f.want[0].ecn[3].pmax_pct = 150;
	s = script(&f, 1, &err, &rc);
	assert_int_equal(rc, -ERANGE);
	f.want[0].ecn[3].pmax_pct = 100;
	f.want[0].watchdog.detection_ms = 5;
	s = script(&f, 1, &err, &rc);
	assert_int_equal(rc, -ERANGE);
	eos_config_free(&f.cfg);
}

static void test_uc_queues(void **state)
{
	static const char *const ports[] = {"Ethernet3/1/1"};
	struct fixture f;
	struct rc_err err;
	int rc;
	char *s;
	(void)state;

	setup(&f, "running-uc.txt", 1, ports);
	f.w[0].fields = RC_F_ECN | RC_F_PFC;
	s = script(&f, 1, &err, &rc);
	assert_int_equal(rc, 0);
	/* the platform's own queue keyword; the global PFC switch back on */
	assert_non_null(strstr(s, "no priority-flow-control all off\n"));
	assert_non_null(strstr(s, "\nuc-tx-queue 3\nrandom-detect ecn minimum-threshold 150 "
				  "kbytes"));
	assert_null(strstr(s, "\ntx-queue"));
	free(s);
	eos_config_free(&f.cfg);
}

/* Scheduling: strict is EOS's default for every queue, so a DWRR
 * policy is written out as `no priority` + `bandwidth percent`; a class the policy leaves
 * out keeps no share; thresholds that are not whole kbytes stay in bytes. */
static void test_ets(void **state)
{
	static const char *const ports[] = {"Ethernet1", "Ethernet2"};
	struct fixture f;
	struct rc_err err;
	int rc;
	char *s;
	(void)state;

	setup(&f, "running-lossless.txt", 2, ports);
	/* as read: tx-queue 3 has a bandwidth but no `no priority`: still strict */
	assert_int_equal(f.have[0].ets.tc_mask, 0xff);
	for (int t = 0; t < RC_NTC; t++)
		assert_int_equal(f.have[0].ets.tsa[t], RC_TSA_STRICT);
	assert_int_equal(f.have[0].ets.bw_pct[3], 50);
	for (size_t i = 0; i < 2; i++) {
		struct rc_ets *e = &f.want[i].ets;

		e->tc_mask = (1u << 3) | (1u << 0) | (1u << 6);
		e->no_share_mask = (uint8_t)~e->tc_mask;
		e->tsa[3] = e->tsa[0] = RC_TSA_DWRR;
		e->tsa[6] = RC_TSA_STRICT;
		e->bw_pct[3] = 60;
		e->bw_pct[0] = 40;
		f.want[i].known |= RC_F_ETS;
		f.w[i].fields = RC_F_ETS;
	}
	f.have[1].ets.tsa[5] = RC_TSA_DWRR; /* a share the policy does not give */
	f.have[1].ets.bw_pct[5] = 10;
	s = script(&f, 2, &err, &rc);
	assert_int_equal(rc, 0);
	assert_string_equal(s, "interface Ethernet1\n"
			       "tx-queue 0\nno priority\nbandwidth percent 40\nexit\n"
			       "tx-queue 3\nno priority\nbandwidth percent 60\nexit\n"
			       "exit\n"
			       "interface Ethernet2\n"
			       "tx-queue 0\nno priority\nbandwidth percent 40\nexit\n"
			       "tx-queue 3\nno priority\nbandwidth percent 60\nexit\n"
			       "tx-queue 5\npriority strict\nexit\n"
			       "exit\n");
	free(s);
	f.want[0].ets.bw_pct[3] = 0;
	s = script(&f, 1, &err, &rc);
	assert_int_equal(rc, -ERANGE);
	f.want[0].ets.bw_pct[3] = 60;
	/* thresholds that are not whole kbytes */
	f.w[0].fields = RC_F_ECN;
	f.want[0].ecn[3].kmin_bytes = 153600;
	s = script(&f, 1, &err, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(
	    strstr(s, "minimum-threshold 153600 bytes maximum-threshold 1500000 bytes"));
	free(s);
	eos_config_free(&f.cfg);
}

static void test_cli_output(void **state)
{
	static const char ok[] = "leaf03(config-s-rocect)#\n";
	static const char badin[] = "qos map dscp 26 to traffic-class 9\n"
				    "% Invalid input (at token 6: '9')\n";
	char why[200];
	(void)state;

	assert_int_equal(eos_check_cli_output(ok, strlen(ok), "", 0, 0, why, sizeof(why)), 0);
	assert_int_equal(eos_check_cli_output(badin, strlen(badin), "", 0, 0, why, sizeof(why)),
			 -EIO);
	assert_string_equal(why, "% Invalid input (at token 6: '9')");
	assert_int_equal(
	    eos_check_cli_output("", 0, "  % Incomplete command\n", 23, 1, why, sizeof(why)), -EIO);
	assert_string_equal(why, "% Incomplete command");
	assert_int_equal(eos_check_cli_output("", 0, "", 0, 255, why, sizeof(why)), -EIO);
	assert_string_equal(why, "exit status 255");
}

static const cJSON *answer(const char *file, cJSON **j, struct rc_err *err, int *rc)
{
	static const char *const cmds[] = {"enable", "configure session rocectl-1", "commit",
					   "qos map dscp 26 to traffic-class 9"};
	const cJSON *res = NULL;
	size_t len;
	char *buf = rc_test_fixture("tests/data/eos", file, &len);

	*j = cJSON_ParseWithLength(buf, len);
	free(buf);
	memset(err, 0, sizeof(*err));
	*rc = eos_eapi_result(*j, "rocectl-1", cmds, 4, &res, err);
	return res;
}

static void test_eapi(void **state)
{
	static const char *const two[] = {"enable", "show qos maps"};
	static const char *const counters[] = {"enable", "show priority-flow-control counters",
					       "show qos interfaces ecn counters queue"};
	struct rc_err err;
	const cJSON *res, *item, *cmds;
	cJSON *j, *req;
	char line[80];
	int rc;
	(void)state;

	res = answer("eapi-ok.json", &j, &err, &rc);
	assert_int_equal(rc, 0);
	assert_int_equal(cJSON_GetArraySize(res), 4);
	cJSON_Delete(j);
	/* per-command errors name the command that failed and EOS's reason */
	answer("eapi-error-1002.json", &j, &err, &rc);
	assert_int_equal(rc, -EIO);
	assert_string_equal(err.msg, "eAPI error 1002 at command 4 'qos map dscp 26 to "
				     "traffic-class 9': Invalid input (at token 6: '9')");
	cJSON_Delete(j);
	answer("eapi-error-1000.json", &j, &err, &rc);
	assert_int_equal(rc, -EIO);
	assert_non_null(strstr(err.msg, "at command 3 'commit': Failed to commit session"));
	cJSON_Delete(j);
	/* without data, the message says which command */
	answer("eapi-error-no-data.json", &j, &err, &rc);
	assert_int_equal(rc, -EIO);
	assert_non_null(strstr(err.msg, "at command 2 'configure session rocectl-1'"));
	cJSON_Delete(j);
	answer("eapi-error-32600.json", &j, &err, &rc);
	assert_int_equal(rc, -EIO);
	assert_string_equal(err.msg, "eAPI error -32600: Expected field 'jsonrpc' not specified");
	cJSON_Delete(j);
	answer("eapi-id-mismatch.json", &j, &err, &rc);
	assert_int_equal(rc, -EPROTO);
	cJSON_Delete(j);
	answer("eapi-count-mismatch.json", &j, &err, &rc);
	assert_int_equal(rc, -EPROTO);
	assert_non_null(strstr(err.msg, "2 results for 4 commands"));
	cJSON_Delete(j);

	req = eos_eapi_request("rocectl-7", two, 2, "json");
	assert_string_equal(cJSON_GetObjectItem(req, "jsonrpc")->valuestring, "2.0");
	assert_string_equal(cJSON_GetObjectItem(req, "method")->valuestring, "runCmds");
	assert_string_equal(cJSON_GetObjectItem(req, "id")->valuestring, "rocectl-7");
	assert_int_equal(
	    cJSON_GetObjectItem(cJSON_GetObjectItem(req, "params"), "version")->valueint, 1);
	/* a show command asked for JSON names the revision of the model parsed (eAPI answers
	 * revision 1 unless asked); `enable` stays a string */
	item =
	    cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetObjectItem(req, "params"), "cmds"), 1);
	assert_string_equal(cJSON_GetObjectItem(item, "cmd")->valuestring, "show qos maps");
	assert_int_equal(cJSON_GetObjectItem(item, "revision")->valueint, 1);
	assert_true(cJSON_IsString(cJSON_GetArrayItem(
	    cJSON_GetObjectItem(cJSON_GetObjectItem(req, "params"), "cmds"), 0)));
	cJSON_Delete(req);
	req = eos_eapi_request("rocectl-8", counters, 3, "json");
	cmds = cJSON_GetObjectItem(cJSON_GetObjectItem(req, "params"), "cmds");
	assert_int_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(cmds, 1), "revision")->valueint, 3);
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(cmds, 1), "cmd")->valuestring,
			    "show priority-flow-control counters");
	assert_int_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(cmds, 2), "revision")->valueint, 1);
	cJSON_Delete(req);
	/* text answers and configuration lines have no model: plain strings */
	req = eos_eapi_request("rocectl-9", counters, 3, "text");
	cmds = cJSON_GetObjectItem(cJSON_GetObjectItem(req, "params"), "cmds");
	assert_string_equal(cJSON_GetArrayItem(cmds, 1)->valuestring,
			    "show priority-flow-control counters");
	cJSON_Delete(req);
	assert_int_equal(eos_cmd_revision("priority-flow-control on"), 0);
	assert_int_equal(eos_cmd_revision("show priority-flow-control"), 1);
	assert_int_equal(eos_cmd_revision("show priority-flow-control counters"), 3);
	assert_int_equal(eos_cmd_revision("show priority-flow-control countersx"), 1);
	assert_int_equal(eos_cli_json("show priority-flow-control counters", line, sizeof(line)),
			 0);
	assert_string_equal(line, "show priority-flow-control counters | json revision 3");
	assert_int_equal(eos_cli_json("show lldp neighbors detail", line, sizeof(line)), 0);
	assert_string_equal(line, "show lldp neighbors detail | json revision 1");
	assert_int_equal(eos_cli_json("show lldp neighbors detail", line, 20), -ENAMETOOLONG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_factory_to_lossless),
	    cmocka_unit_test(test_drift_repair),
	    cmocka_unit_test(test_global_conflict_and_names),
	    cmocka_unit_test(test_uc_queues),
	    cmocka_unit_test(test_ets),
	    cmocka_unit_test(test_cli_output),
	    cmocka_unit_test(test_eapi),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
