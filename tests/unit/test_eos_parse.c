/* SPDX-License-Identifier: Apache-2.0 */
/* EOS read side (drivers/switch/eos_parse.c, eos_views.c) fed recorded outputs from
 * tests/data/eos/: the running-config as text and as eAPI's JSON tree, a platform with
 * uc-tx-queues and qos profiles, the operational views (priority-flow-control, qos
 * interfaces trust/ecn, qos maps), and hostile documents. */
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
#include "testutil.h"

static cJSON *json(const char *name)
{
	size_t len;
	char *buf = rc_test_fixture("tests/data/eos", name, &len);
	cJSON *j = cJSON_ParseWithLength(buf, len);

	free(buf);
	if (!j)
		fail_msg("%s: not JSON", name);
	return j;
}

static int config_text(const char *name, struct eos_config *cfg, struct rc_err *err)
{
	size_t len;
	char *buf = rc_test_fixture("tests/data/eos", name, &len);
	int rc;

	memset(err, 0, sizeof(*err));
	rc = eos_parse_config_text(buf, len, name, cfg, err);
	free(buf);
	return rc;
}

static void port_ok(const struct eos_config *cfg, const char *port, struct port_qos *q,
		    struct eos_port_info *in)
{
	struct rc_err err = {0};

	if (eos_parse_port(cfg, port, q, in, &err))
		fail_msg("%s: %s", port, err.msg);
	assert_int_equal(q->known & q->unsupported, 0);
	assert_true(q->unsupported & RC_F_HEADROOM);
	assert_true(q->unsupported & RC_F_CABLE);
	assert_true(q->known & RC_F_PFC);
}

static void test_factory(void **state)
{
	struct eos_config cfg;
	struct port_qos q;
	struct eos_port_info in;
	struct rc_err err;
	(void)state;

	assert_int_equal(config_text("running-factory.txt", &cfg, &err), 0);
	port_ok(&cfg, "Ethernet1", &q, &in);
	/* switched ports trust CoS; the default DSCP map goes through CoS (0 <-> 1 swapped) */
	assert_int_equal(q.trust, RC_TRUST_PCP);
	assert_int_equal(q.dscp2prio[26], 3);
	assert_int_equal(q.dscp2prio[48], 6);
	assert_int_equal(q.dscp2prio[0], 1);
	assert_int_equal(q.dscp2prio[8], 0);
	assert_int_equal(q.prio2tc[3], 3);
	assert_int_equal(q.pfc_enabled, 0);
	assert_false(q.ecn[3].enabled);
	assert_false(q.watchdog.enabled);
	assert_false(cfg.uc_queues);
	eos_config_free(&cfg);
}

static void check_lossless_port1(const struct port_qos *q, const struct eos_port_info *in)
{
	assert_int_equal(q->trust, RC_TRUST_DSCP);
	assert_int_equal(q->dscp2prio[26], 3);
	assert_int_equal(q->dscp2prio[24], 3);
	assert_int_equal(q->dscp2prio[48], 6);
	assert_int_equal(q->dscp2prio[28], 3); /* default: CoS 3 */
	assert_true(in->dscp_explicit & (1ull << 26));
	assert_false(in->dscp_explicit & (1ull << 28));
	assert_int_equal(q->pfc_enabled, 1u << 3);
	assert_true(in->pfc_on);
	assert_true(q->ecn[3].enabled);
	assert_int_equal(q->ecn[3].kmin_bytes, 150000);
	assert_int_equal(q->ecn[3].kmax_bytes, 1500000);
	assert_true(q->ecn[3].pmax_pct == 100.0);
	assert_true(in->ecn_line[3]);
	assert_false(q->ecn[6].enabled);
	assert_true(q->watchdog.enabled);
	assert_int_equal(q->watchdog.detection_ms, 300);
	assert_int_equal(q->watchdog.restoration_ms, 300);
	assert_int_equal(q->watchdog.action, RC_WD_DROP);
	assert_true(in->wd_timeout_set);
}

static void test_lossless_text_and_json(void **state)
{
	struct eos_config cfg;
	struct port_qos q;
	struct eos_port_info in;
	struct rc_err err = {0};
	cJSON *j;
	(void)state;

	assert_int_equal(config_text("running-lossless.txt", &cfg, &err), 0);
	port_ok(&cfg, "Ethernet1", &q, &in);
	check_lossless_port1(&q, &in);
	/* kbytes and mbytes are decimal; no probability means 100 */
	port_ok(&cfg, "Ethernet2", &q, &in);
	assert_int_equal(q.ecn[3].kmin_bytes, 150000);
	assert_int_equal(q.ecn[3].kmax_bytes, 2000000);
	assert_true(q.ecn[3].pmax_pct == 100.0);
	assert_int_equal(q.pfc_enabled, (1u << 3) | (1u << 4));
	assert_false(q.watchdog.enabled);
	eos_config_free(&cfg);

	/* the same configuration as eAPI's JSON tree reads the same */
	j = json("running-lossless.json");
	assert_int_equal(eos_parse_config_json(j, "eapi", &cfg, &err), 0);
	port_ok(&cfg, "Ethernet1", &q, &in);
	check_lossless_port1(&q, &in);
	eos_config_free(&cfg);
	cJSON_Delete(j);
}

static void test_uc_queues_and_profiles(void **state)
{
	struct eos_config cfg;
	struct port_qos q;
	struct eos_port_info in;
	struct rc_err err;
	(void)state;

	assert_int_equal(config_text("running-uc.txt", &cfg, &err), 0);
	assert_true(cfg.uc_queues);
	port_ok(&cfg, "Ethernet3/1/1", &q, &in);
	/* a routed port trusts DSCP; `priority-flow-control all off` wins over the port */
	assert_int_equal(q.trust, RC_TRUST_DSCP);
	assert_true(in.pfc_on);
	assert_true(in.pfc_all_off);
	assert_int_equal(q.pfc_enabled, 0);
	/* segments depend on the platform's cell size: thresholds 0 (rewritten in bytes) */
	assert_true(q.ecn[3].enabled);
	assert_int_equal(q.ecn[3].kmin_bytes, 0);
	assert_true(q.ecn[3].pmax_pct == 20.0);
	/* a port bound to a qos profile gets the profile's lines */
	port_ok(&cfg, "Ethernet4/1/1", &q, &in);
	assert_int_equal(q.trust, RC_TRUST_DSCP);
	assert_int_equal(in.nodrop, 1u << 3);
	eos_config_free(&cfg);
}

static void test_views(void **state)
{
	struct eos_config cfg;
	struct port_qos q;
	struct eos_port_info in;
	struct rc_err err = {0};
	size_t len;
	char *t;
	cJSON *j;
	bool uc = true;
	(void)state;

	assert_int_equal(config_text("running-factory.txt", &cfg, &err), 0);
	port_ok(&cfg, "Ethernet1", &q, &in);
	/* EOS's watchdog defaults are in the view, not in the running-config */
	t = rc_test_fixture("tests/data/eos", "pfc-factory.txt", &len);
	assert_int_equal(eos_view_pfc(NULL, t, len, "Ethernet1", &q, &in, &err), 0);
	assert_int_equal(q.watchdog.detection_ms, 200);
	assert_int_equal(q.watchdog.restoration_ms, 200);
	assert_int_equal(in.wd_poll_ms, 100);
	assert_false(q.watchdog.enabled);
	assert_int_equal(q.pfc_enabled, 0);
	free(t);
	/* the view is what is in effect: PFC on 3 and 4 with the watchdog on Et2 */
	t = rc_test_fixture("tests/data/eos", "pfc-lossless.txt", &len);
	assert_int_equal(eos_view_pfc(NULL, t, len, "Ethernet2", &q, &in, &err), 0);
	assert_int_equal(q.pfc_enabled, 0x18);
	assert_false(q.watchdog.enabled);
	assert_int_equal(eos_view_pfc(NULL, t, len, "Ethernet1", &q, &in, &err), 0);
	assert_int_equal(q.pfc_enabled, 0x08);
	assert_true(q.watchdog.enabled);
	assert_int_equal(q.watchdog.detection_ms, 300);
	/* a port the view does not list */
	assert_int_equal(eos_view_pfc(NULL, t, len, "Ethernet9", &q, &in, &err), 1);
	free(t);
	t = rc_test_fixture("tests/data/eos", "pfc-global-off.txt", &len);
	assert_int_equal(eos_view_pfc(NULL, t, len, "Ethernet1", &q, &in, &err), 0);
	assert_true(in.pfc_on);
	assert_int_equal(q.pfc_enabled, 0);
	free(t);
	j = json("pfc-lossless.json");
	assert_int_equal(eos_view_pfc(j, NULL, 0, "Ethernet2", &q, &in, &err), 0);
	assert_int_equal(q.pfc_enabled, 0x18);
	assert_int_equal(q.watchdog.restoration_ms, 300);
	cJSON_Delete(j);

	t = rc_test_fixture("tests/data/eos", "trust.txt", &len);
	assert_int_equal(eos_view_trust(NULL, t, len, "Ethernet1", &q, &err), 0);
	assert_int_equal(q.trust, RC_TRUST_DSCP);
	assert_int_equal(eos_view_trust(NULL, t, len, "Ethernet2", &q, &err), 0);
	assert_int_equal(q.trust, RC_TRUST_PCP);
	assert_int_equal(eos_view_trust(NULL, t, len, "Ethernet3", &q, &err), 1);
	free(t);
	j = json("trust.json");
	assert_int_equal(eos_view_trust(j, NULL, 0, "Ethernet2", &q, &err), 0);
	assert_int_equal(q.trust, RC_TRUST_UNSET);
	cJSON_Delete(j);

	t = rc_test_fixture("tests/data/eos", "ecn.txt", &len);
	assert_int_equal(eos_view_ecn(t, len, "Ethernet2", &q, &in, &uc, &err), 0);
	assert_false(uc);
	assert_true(q.ecn[3].enabled);
	assert_int_equal(q.ecn[3].kmin_bytes, 150000);
	assert_int_equal(q.ecn[3].kmax_bytes, 2000000);
	assert_int_equal(eos_view_ecn(t, len, "Ethernet1", &q, &in, &uc, &err), 0);
	assert_int_equal(q.ecn[3].kmax_bytes, 1500000);
	assert_false(q.ecn[0].enabled);
	free(t);
	t = rc_test_fixture("tests/data/eos", "ecn-uc.txt", &len);
	assert_int_equal(eos_view_ecn(t, len, "Ethernet3/1/1", &q, &in, &uc, &err), 0);
	assert_true(uc);
	assert_true(q.ecn[3].pmax_pct == 20.0);
	assert_int_equal(eos_view_ecn(t, len, "Ethernet1", &q, &in, &uc, &err), 1);
	free(t);

	j = json("maps.json");
	memset(q.dscp2prio, 0, sizeof(q.dscp2prio));
	assert_int_equal(eos_view_maps(j, &q, &err), 0);
	assert_int_equal(q.dscp2prio[26], 3);
	assert_int_equal(q.dscp2prio[0], 1);
	assert_int_equal(q.prio2tc[6], 6);
	cJSON_Delete(j);
	eos_config_free(&cfg);
}

static void test_hostile_config(void **state)
{
	static const struct {
		const char *file, *msg;
	} text_cases[] = {
	    {"hostile-tab.txt", "indented with a tab"},
	    {"hostile-indent.txt", "indented inconsistently"},
	    {"hostile-first-indented.txt", "line 1 is indented inconsistently"},
	    {"hostile-ctrl.txt", "unexpected byte 0x01"},
	    {"hostile-long.txt", "configuration line too long"},
	};
	static const struct {
		const char *file, *msg;
	} port_cases[] = {
	    {"hostile-dscp.txt", "'qos map dscp 26 27 99 to traffic-class 3'"},
	    {"hostile-tc.txt", "expected 'qos map dscp <0-63 ...> to traffic-class <0-7>'"},
	    {"hostile-map-short.txt", "'qos map dscp'"},
	    {"hostile-pfc-prio.txt", "priority-flow-control priority 9 no-drop"},
	    {"hostile-ecn-unit.txt", "a unit: bytes, kbytes, mbytes or segments"},
	    {"hostile-ecn-prob.txt", "max-mark-probability 1..100"},
	    {"hostile-trust.txt", "'qos trust everything' of Ethernet1"},
	    {"hostile-wd-time.txt", "a time in seconds"},
	};
	struct eos_config cfg;
	struct port_qos q;
	struct eos_port_info in;
	struct rc_err err;
	cJSON *j;
	(void)state;

	for (size_t i = 0; i < sizeof(text_cases) / sizeof(text_cases[0]); i++) {
		assert_int_equal(config_text(text_cases[i].file, &cfg, &err), -EPROTO);
		assert_null(cfg.v);
		if (!strstr(err.msg, text_cases[i].msg))
			fail_msg("%s: '%s' lacks '%s'", text_cases[i].file, err.msg,
				 text_cases[i].msg);
	}
	for (size_t i = 0; i < sizeof(port_cases) / sizeof(port_cases[0]); i++) {
		assert_int_equal(config_text(port_cases[i].file, &cfg, &err), 0);
		assert_int_equal(eos_parse_port(&cfg, "Ethernet1", &q, &in, &err), -EPROTO);
		if (!strstr(err.msg, port_cases[i].msg))
			fail_msg("%s: '%s' lacks '%s'", port_cases[i].file, err.msg,
				 port_cases[i].msg);
		eos_config_free(&cfg);
	}
	/* the port must exist; its name must be one EOS could have */
	assert_int_equal(config_text("running-factory.txt", &cfg, &err), 0);
	assert_int_equal(eos_parse_port(&cfg, "Ethernet7", &q, &in, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "no 'interface Ethernet7'"));
	assert_int_equal(eos_parse_port(&cfg, "Ethernet1;reload", &q, &in, &err), -EINVAL);
	eos_config_free(&cfg);
	j = json("hostile-running.json");
	assert_int_equal(eos_parse_config_json(j, "x", &cfg, &err), -EPROTO);
	assert_non_null(strstr(err.msg, "neither null nor a block"));
	cJSON_Delete(j);
}

static void test_hostile_views(void **state)
{
	struct port_qos q = {0};
	struct eos_port_info in = {0};
	struct rc_err err = {0};
	size_t len;
	char *t;
	cJSON *j;
	(void)state;

	t = rc_test_fixture("tests/data/eos", "hostile-pfc-row.txt", &len);
	assert_int_equal(eos_view_pfc(NULL, t, len, "Ethernet1", &q, &in, &err), -EPROTO);
	free(t);
	t = rc_test_fixture("tests/data/eos", "hostile-ecn-row.txt", &len);
	assert_int_equal(eos_view_ecn(t, len, "Ethernet1", &q, &in, NULL, &err), -EPROTO);
	assert_non_null(strstr(err.msg, "probability 1..100"));
	free(t);
	j = json("hostile-pfc.json");
	assert_int_equal(eos_view_pfc(j, NULL, 0, "Ethernet1", &q, &in, &err), -EPROTO);
	cJSON_Delete(j);
	j = json("hostile-maps.json");
	assert_int_equal(eos_view_maps(j, &q, &err), -EPROTO);
	cJSON_Delete(j);
}

static void test_names(void **state)
{
	(void)state;
	assert_true(eos_port_name_ok("Ethernet1"));
	assert_true(eos_port_name_ok("Ethernet1/1"));
	assert_true(eos_port_name_ok("Ethernet3/1/1"));
	assert_true(eos_port_name_ok("Port-Channel10"));
	assert_false(eos_port_name_ok("Ethernet"));
	assert_false(eos_port_name_ok("Ethernet1/"));
	assert_false(eos_port_name_ok("Ethernet1//2"));
	assert_false(eos_port_name_ok("1Ethernet"));
	assert_false(eos_port_name_ok("Ethernet1 2"));
	assert_false(eos_port_name_ok("Ethernet1;reload"));
	assert_false(eos_port_name_ok("Ethernet1\n"));
	assert_true(eos_name_ok("rocectl-1-2"));
	assert_false(eos_name_ok("a b"));
	assert_false(eos_name_ok("-a"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_factory),
	    cmocka_unit_test(test_lossless_text_and_json),
	    cmocka_unit_test(test_uc_queues_and_profiles),
	    cmocka_unit_test(test_views),
	    cmocka_unit_test(test_hostile_config),
	    cmocka_unit_test(test_hostile_views),
	    cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
