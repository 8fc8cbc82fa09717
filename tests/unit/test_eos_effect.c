/* SPDX-License-Identifier: Apache-2.0 */
/* EOS effects beyond the values (drivers/switch/eos_effect.c): ECN marks that nothing
 * counts (no `random-detect ecn count`), a running-config that differs from the
 * startup-config a reload boots, and every group read marked
 * unverified (no public EOS show output exists). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../drivers/switch/eos.h"

static void load(const char *name, struct eos_config *cfg)
{
	const char *src = getenv("SRC_DIR");
	struct rc_err err = {0};
	char path[1024], *buf;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/tests/data/eos/%s", src && *src ? src : ".", name);
	f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	if (eos_parse_config_text(buf, (size_t)n, name, cfg, &err))
		fail_msg("%s: %s", name, err.msg);
	free(buf);
}

static void read_port(const struct eos_config *cfg, const char *port, struct port_qos *q,
		      struct eos_port_info *in)
{
	struct rc_err err = {0};

	if (eos_parse_port(cfg, port, q, in, &err))
		fail_msg("%s: %s", port, err.msg);
}

static void test_ecn_count(void **state)
{
	struct eos_config cfg;
	struct eos_port_info in;
	struct port_qos q;
	(void)state;

	load("running-lossless.txt", &cfg);
	read_port(&cfg, "Ethernet1", &q, &in); /* counts its marks */
	eos_effect_ecn_count(&q, &in);
	assert_int_equal(q.effect.drift, 0);
	read_port(&cfg, "Ethernet2", &q, &in); /* marks on tx-queue 3, uncounted */
	assert_true(q.ecn[3].enabled);
	eos_effect_ecn_count(&q, &in);
	assert_int_equal(q.effect.drift, RC_F_ECN);
	assert_non_null(strstr(q.effect.why, "tx-queue 3"));
	assert_non_null(strstr(q.effect.why, "random-detect ecn count"));
	eos_config_free(&cfg);
}

static void test_startup(void **state)
{
	struct eos_config run, saved, factory, partial, never = {0};
	struct eos_port_info in;
	struct port_qos q;
	struct rc_err err = {0};
	(void)state;

	load("running-lossless.txt", &run);
	load("running-lossless.txt", &saved);
	load("running-factory.txt", &factory);
	load("startup-pfc-unsaved.txt", &partial);

	read_port(&run, "Ethernet1", &q, &in);
	assert_int_equal(eos_effect_startup(&run, &saved, "Ethernet1", &q, &err), 0);
	assert_int_equal(q.effect.drift, 0);

	/* saved before PFC was turned on: only the PFC group comes back wrong */
	assert_int_equal(eos_effect_startup(&run, &partial, "Ethernet1", &q, &err), 1);
	assert_int_equal(q.effect.drift, RC_F_PFC);
	assert_non_null(strstr(q.effect.why, "running differs from startup"));

	/* a factory startup-config: every group the port configures differs */
	memset(&q.effect, 0, sizeof(q.effect));
	assert_int_equal(eos_effect_startup(&run, &factory, "Ethernet1", &q, &err), 1);
	assert_true(q.effect.drift & RC_F_TRUST);
	/* its DSCP lines equal EOS's default map (24-27 -> 3, 48 -> 6): nothing to lose */
	assert_false(q.effect.drift & RC_F_DSCP2PRIO);
	assert_true(q.effect.drift & RC_F_PFC);
	assert_true(q.effect.drift & RC_F_ECN);
	assert_true(q.effect.drift & RC_F_WATCHDOG);

	/* never saved: no startup-config at all */
	memset(&q.effect, 0, sizeof(q.effect));
	assert_int_equal(eos_effect_startup(&run, &never, "Ethernet1", &q, &err), 1);
	assert_true(q.effect.drift & RC_F_PFC);
	assert_non_null(strstr(q.effect.why, "not saved"));

	/* a port the running-config lacks is the read's error, named */
	assert_true(eos_effect_startup(&run, &saved, "Ethernet9", &q, &err) < 0);
	assert_non_null(strstr(err.msg, "Ethernet9"));

	eos_config_free(&run);
	eos_config_free(&saved);
	eos_config_free(&factory);
	eos_config_free(&partial);
}

static void test_unverified(void **state)
{
	struct eos_config cfg;
	struct eos_port_info in;
	struct port_qos q;
	(void)state;

	load("running-lossless.txt", &cfg);
	read_port(&cfg, "Ethernet1", &q, &in);
	eos_mark_unverified(&q);
	assert_int_equal(q.effect.unverified, RC_F_TRUST | RC_F_DSCP2PRIO | RC_F_PRIO2TC |
						  RC_F_PFC | RC_F_ECN | RC_F_WATCHDOG | RC_F_ETS);
	assert_false(q.effect.unverified & RC_F_HEADROOM);
	eos_config_free(&cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_ecn_count),
	    cmocka_unit_test(test_startup),
	    cmocka_unit_test(test_unverified),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
