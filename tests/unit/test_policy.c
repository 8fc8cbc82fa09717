/* SPDX-License-Identifier: Apache-2.0 */
/* Policy loading: the shipped policies, defaults, every validation rule with its position,
 * the warnings, per-device overrides, and hostile input. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rocectl/inventory.h"
#include "rocectl/policy.h"

/* Line numbers below refer to this text (line 1 = apiVersion). */
static const char base[] = "apiVersion: rocectl/v1\n"	      /* 1 */
			   "kind: Policy\n"		      /* 2 */
			   "name: t\n"			      /* 3 */
			   "roce:\n"			      /* 4 */
			   "  dscp: 26\n"		      /* 5 */
			   "  priority: 3\n"		      /* 6 */
			   "cnp:\n"			      /* 7 */
			   "  dscp: 48\n"		      /* 8 */
			   "  priority: 6\n"		      /* 9 */
			   "pfc:\n"			      /* 10 */
			   "  priorities: [3]\n"	      /* 11 */
			   "  watchdog: {detection: 200ms}\n" /* 12 */
			   "ecn:\n"			      /* 13 */
			   "  min_threshold: 150KB\n"	      /* 14 */
			   "  max_threshold: 1500KB\n"	      /* 15 */
			   "  probability: 100%\n";	      /* 16 */

struct fixture {
	struct rc_policy p;
	struct rc_warnings w;
	struct rc_err err;
};

static int setup(void **state)
{
	*state = calloc(1, sizeof(struct fixture));
	return *state ? 0 : -1;
}

static int teardown(void **state)
{
	free(*state);
	return 0;
}

/* base with `from` replaced by `to` (once), then `extra` appended. */
static int load_variant(struct fixture *f, const char *from, const char *to, const char *extra)
{
	char buf[4096];
	const char *at = from ? strstr(base, from) : NULL;
	int n;

	if (from)
		assert_non_null(at);
	if (at)
		n = snprintf(buf, sizeof(buf), "%.*s%s%s%s", (int)(at - base), base, to,
			     at + strlen(from), extra ? extra : "");
	else
		n = snprintf(buf, sizeof(buf), "%s%s", base, extra ? extra : "");
	assert_true(n > 0 && (size_t)n < sizeof(buf));
	memset(&f->w, 0, sizeof(f->w));
	rc_err_clear(&f->err);
	return rc_policy_load_buffer("p.yaml", buf, (size_t)n, &f->p, &f->w, &f->err);
}

static void expect_error(struct fixture *f, const char *from, const char *to, const char *extra,
			 int line, int col, const char *msg)
{
	int rc = load_variant(f, from, to, extra);

	if (rc == 0 || f->err.line != line || f->err.column != col || !strstr(f->err.msg, msg))
		fail_msg("variant '%s' -> '%s' + '%s': rc %d, got %s:%d:%d: %s; want %d:%d: %s",
			 from ? from : "", to ? to : "", extra ? extra : "", rc, f->err.file,
			 f->err.line, f->err.column, f->err.msg, line, col, msg);
	assert_string_equal(f->err.file, "p.yaml");
}

static const char *src_path(char *buf, size_t len, const char *rel)
{
	const char *src = getenv("SRC_DIR");

	snprintf(buf, len, "%s/%s", src && *src ? src : ".", rel);
	return buf;
}

static void test_shipped_policies(void **state)
{
	struct fixture *f = *state;
	char path[4096];

	assert_int_equal(rc_policy_load(src_path(path, sizeof(path), "policies/roce-lossless.yaml"),
					&f->p, &f->w, &f->err),
			 0);
	assert_string_equal(f->p.name, "roce-lossless");
	assert_int_equal(f->p.trust, RC_TRUST_DSCP);
	assert_int_equal(f->p.roce_dscp, 26);
	assert_int_equal(f->p.roce_priority, 3);
	assert_int_equal(f->p.cnp_dscp, 48);
	assert_int_equal(f->p.cnp_priority, 6);
	assert_int_equal(f->p.pfc_priorities, 1u << 3);
	assert_true(f->p.watchdog_present);
	assert_int_equal(f->p.watchdog.detection_ms, 200);
	assert_int_equal(f->p.watchdog.restoration_ms, 400);
	assert_int_equal(f->p.watchdog.action, RC_WD_DROP);
	assert_true(f->p.ecn.enabled);
	assert_int_equal(f->p.ecn.traffic_class, 3);
	assert_int_equal(f->p.ecn.kmin_bytes, 150000);
	assert_int_equal(f->p.ecn.kmax_bytes, 1500000);
	assert_true(f->p.ecn.pmax_pct == 100.0);
	assert_true(f->p.ecn.host_np && f->p.ecn.host_rp);
	assert_int_equal(f->p.headroom.cable_length_m, 100);
	assert_int_equal(f->p.headroom.mtu, 9216);
	assert_int_equal(f->p.headroom.size_bytes, 0);
	assert_int_equal(f->p.n_ets, 3);
	assert_int_equal(f->p.ets[0].traffic_class, 6);
	assert_int_equal(f->p.ets[0].mode, RC_TSA_STRICT);
	assert_int_equal(f->p.ets[1].mode, RC_TSA_DWRR);
	assert_true(f->p.ets[1].bandwidth_pct == 50.0);
	assert_true(f->p.roce_tos_auto);
	assert_int_equal(f->p.roce_tos, 106);
	assert_true(f->p.tolerance_pct == 8.0);
	assert_int_equal(f->w.n, 0);

	memset(&f->w, 0, sizeof(f->w));
	assert_int_equal(rc_policy_load(src_path(path, sizeof(path), "policies/pfc-only.yaml"),
					&f->p, &f->w, &f->err),
			 0);
	assert_false(f->p.ecn.enabled);
	assert_false(f->p.ecn.host_np);
	assert_int_equal(f->w.n, 1);
	assert_non_null(strstr(f->w.w[0].msg, "ecn.enabled is false"));

	memset(&f->w, 0, sizeof(f->w));
	assert_int_equal(
	    rc_policy_load(src_path(path, sizeof(path), "policies/deep-buffer-spine.yaml"), &f->p,
			   &f->w, &f->err),
	    0);
	assert_string_equal(f->p.name, "deep-buffer-spine");
	assert_int_equal(f->w.n, 0);
}

static void test_defaults(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(load_variant(f, NULL, NULL, NULL), 0);
	assert_int_equal(f->p.trust, RC_TRUST_DSCP);
	assert_int_equal(f->p.headroom.cable_length_m, 100);
	assert_int_equal(f->p.headroom.mtu, 9216);
	assert_int_equal(f->p.roce_tos, 106);
	assert_int_equal(f->p.watchdog.restoration_ms, 400); /* defaulted inside watchdog */
	assert_int_equal(f->p.ecn.traffic_class, 3);
	assert_int_equal(f->p.n_ets, 0);
	for (int i = 0; i < RC_NPRIO; i++)
		assert_int_equal(f->p.prio2tc[i], i);
	assert_false(f->p.prio2tc_given);
	assert_int_equal(f->p.pos.kmin.line, 14);
	assert_int_equal(f->p.pos.kmin.column, 18);
	assert_int_equal(f->w.n, 0);
}

static void test_classes_rules(void **state)
{
	struct fixture *f = *state;

	expect_error(f, "priorities: [3]", "priorities: [4]", NULL, 6, 13,
		     "roce.priority 3 must be one of pfc.priorities [4]");
	expect_error(f, "priorities: [3]", "priorities: [3, 6]", NULL, 9, 13,
		     "cnp.priority 6 must not be in pfc.priorities [3, 6]");
	expect_error(f, "  priority: 6", "  priority: 3", NULL, 9, 13,
		     "cnp.priority 3 must differ from roce.priority 3");
	expect_error(f, "dscp: 48", "dscp: 26", NULL, 8, 9,
		     "cnp.dscp 26 must differ from roce.dscp 26");
	expect_error(f, "ecn:\n", "ecn:\n  traffic_class: 4\n", NULL, 14, 18,
		     "ecn.traffic_class 4 is not the class roce.priority 3 maps to (3)");
	expect_error(f, "ecn:\n", "priority_to_tc: {3: 5}\necn:\n  traffic_class: 3\n", NULL, 15,
		     18, "ecn.traffic_class 3 is not the class roce.priority 3 maps to (5)");
	expect_error(f, "ecn:\n", "priority_to_tc: {3: 5, 3: 4}\necn:\n", NULL, 13, 24,
		     "priority_to_tc.3: duplicate key");
	expect_error(f, "ecn:\n", "priority_to_tc: {8: 5}\necn:\n", NULL, 13, 18,
		     "expected an integer 0..7");
	expect_error(f, "dscp: 26", "dscp: 64", NULL, 5, 9, "roce.dscp: expected an integer 0..63");
	expect_error(f, "priorities: [3]", "priorities: [3, 3]", NULL, 11, 19,
		     "pfc.priorities[1]: priority 3 is listed twice");
}

static void test_prio2tc_ok(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(load_variant(f, "ecn:\n", "priority_to_tc: {3: 5, 0: 1}\necn:\n", NULL),
			 0);
	assert_true(f->p.prio2tc_given);
	assert_int_equal(f->p.prio2tc[3], 5);
	assert_int_equal(f->p.prio2tc[0], 1);
	assert_int_equal(f->p.prio2tc[6], 6);
	assert_int_equal(f->p.ecn.traffic_class, 5); /* follows the map when not given */
}

static void test_ecn_rules(void **state)
{
	struct fixture *f = *state;

	expect_error(f, "min_threshold: 150KB", "min_threshold: 2MB", NULL, 14, 18,
		     "ecn.min_threshold (2MB) must be below ecn.max_threshold (1.5MB)");
	expect_error(f, "min_threshold: 150KB", "min_threshold: 1500000", NULL, 14, 18,
		     "must be below");
	expect_error(f, "probability: 100%", "probability: 0%", NULL, 16, 16,
		     "ecn.probability (0%) must be above 0% and at most 100%");
	expect_error(f, "probability: 100%", "probability: 100.5%", NULL, 16, 16,
		     "ecn.probability (100.5%)");
	expect_error(f, "  probability: 100%\n", "", NULL, 14, 3,
		     "ecn: missing required key 'probability'");
	expect_error(f, "ecn:\n", "ecn:\n  enabled: on\n", NULL, 14, 12,
		     "ecn.enabled: expected true or false, found 'on'");
	expect_error(f, "min_threshold: 150KB", "min_threshold: -1KB", NULL, 14, 18,
		     "must not be negative");

	/* Disabled ECN needs no thresholds, but given ones are still checked. */
	assert_int_equal(load_variant(f,
				      "ecn:\n  min_threshold: 150KB\n  max_threshold: 1500KB\n  "
				      "probability: 100%\n",
				      "ecn:\n  enabled: false\n", NULL),
			 0);
}

static void test_ecn_disabled_thresholds_checked(void **state)
{
	struct fixture *f = *state;
	int rc = load_variant(f, "ecn:\n  min_threshold: 150KB",
			      "ecn:\n  enabled: false\n  min_threshold: 2MB", NULL);

	assert_int_equal(rc, -EINVAL);
	assert_int_equal(f->err.line, 15);
	assert_non_null(strstr(f->err.msg, "must be below"));
}

static void test_headroom_rules(void **state)
{
	struct fixture *f = *state;

	expect_error(f, NULL, NULL, "headroom:\n  cable_length: 0m\n", 18, 17,
		     "must be at least 1m");
	expect_error(f, NULL, NULL, "headroom:\n  cable_length: 100001m\n", 18, 17,
		     "headroom.cable_length (100001m) must be between 1m and 100km");
	expect_error(f, NULL, NULL, "headroom:\n  mtu: 1499\n", 18, 8,
		     "headroom.mtu (1499) must be between 1500 and 9216");
	expect_error(f, NULL, NULL, "headroom:\n  mtu: 9217\n", 18, 8, "headroom.mtu (9217)");
	expect_error(f, NULL, NULL, "headroom:\n  size: 0KB\n", 18, 9,
		     "headroom.size: must be above 0");
	expect_error(f, NULL, NULL, "headroom:\n  size: 2GiB\n", 18, 9, "must be at most 1GiB");

	assert_int_equal(
	    load_variant(f, NULL, NULL,
			 "headroom:\n  cable_length: 100km\n  mtu: 1500\n  size: 200KiB\n"),
	    0);
	assert_int_equal(f->p.headroom.cable_length_m, 100000);
	assert_int_equal(f->p.headroom.mtu, 1500);
	assert_int_equal(f->p.headroom.size_bytes, 200 * 1024);
	assert_int_equal(load_variant(f, NULL, NULL, "headroom:\n  cable_length: 1m\n"), 0);
	assert_int_equal(f->p.headroom.cable_length_m, 1);
}

static void test_ets_rules(void **state)
{
	struct fixture *f = *state;

	expect_error(f, NULL, NULL,
		     "ets:\n  - {traffic_class: 3, mode: dwrr, bandwidth: 60%}\n"
		     "  - {traffic_class: 0, mode: dwrr, bandwidth: 50%}\n",
		     18, 3, "ets: bandwidths of the dwrr classes sum to 110%, not 100%");
	expect_error(f, NULL, NULL, "ets:\n  - {traffic_class: 3, mode: dwrr}\n", 18, 5,
		     "ets[0]: missing required key 'bandwidth' (dwrr)");
	expect_error(f, NULL, NULL, "ets:\n  - {traffic_class: 8, mode: dwrr, bandwidth: 100%}\n",
		     18, 21, "ets[0].traffic_class: expected an integer 0..7");
	expect_error(f, NULL, NULL, "ets:\n  - {mode: strict}\n", 18, 5,
		     "ets[0]: missing required key 'traffic_class'");
	expect_error(f, NULL, NULL, "ets: {traffic_class: 3}\n", 17, 6, "ets: expected a list");

	assert_int_equal(load_variant(f, NULL, NULL,
				      "ets:\n  - {traffic_class: 6, mode: strict}\n"
				      "  - {traffic_class: 3, mode: dwrr, bandwidth: 100%}\n"),
			 0);
	assert_int_equal(f->p.n_ets, 2);
	/* Only strict classes: nothing to sum. */
	assert_int_equal(
	    load_variant(f, NULL, NULL, "ets:\n  - {traffic_class: 6, mode: strict}\n"), 0);
}

static void test_tos_rules(void **state)
{
	struct fixture *f = *state;

	expect_error(f, NULL, NULL, "host:\n  roce_tos: 100\n", 18, 13,
		     "host.roce_tos 100 carries DSCP 25, not roce.dscp 26 (auto gives 106)");
	expect_error(f, NULL, NULL, "host:\n  roce_tos: 256\n", 18, 13,
		     "expected an integer 0..255");
	expect_error(f, NULL, NULL, "host:\n  roce_tos: Auto\n", 18, 13,
		     "expected auto or an integer");
	assert_int_equal(load_variant(f, NULL, NULL, "host:\n  roce_tos: 104\n"), 0);
	assert_false(f->p.roce_tos_auto);
	assert_int_equal(f->p.roce_tos, 104);
	assert_int_equal(load_variant(f, NULL, NULL, "host:\n  roce_tos: auto\n"), 0);
	assert_int_equal(f->p.roce_tos, 106);
	assert_int_equal(load_variant(f, "dscp: 26", "dscp: 24", NULL), 0);
	assert_int_equal(f->p.roce_tos, 98);
}

static void test_tolerance_rules(void **state)
{
	struct fixture *f = *state;

	expect_error(f, NULL, NULL, "tolerance:\n  threshold: 50.5%\n", 18, 14,
		     "tolerance.threshold (50.5%) must be between 0% and 50%");
	assert_int_equal(load_variant(f, NULL, NULL, "tolerance:\n  threshold: 0%\n"), 0);
	assert_true(f->p.tolerance_pct == 0.0);
	assert_int_equal(load_variant(f, NULL, NULL, "tolerance:\n  threshold: 50%\n"), 0);
}

static void test_structure_errors(void **state)
{
	struct fixture *f = *state;

	expect_error(f, "min_threshold", "min_treshold", NULL, 14, 3,
		     "ecn.min_treshold: unknown key; did you mean 'min_threshold'?");
	expect_error(f, NULL, NULL, "zzz: 1\n", 17, 1, "zzz: unknown key (expected one of:");
	expect_error(f, NULL, NULL, "name: again\n", 17, 1, "name: duplicate key (first at 3:1)");
	expect_error(f, "kind: Policy", "kind: Inventory", NULL, 2, 7,
		     "kind: expected 'Policy', found 'Inventory'");
	expect_error(f, "apiVersion: rocectl/v1\n", "", NULL, 1, 1,
		     "missing required key 'apiVersion'");
	expect_error(f, "name: t", "name: 'a b'", NULL, 3, 7, "name: 'a b' is not a safe name");
	expect_error(f, "dscp: 26", "dscp: '26'", NULL, 5, 9, "found the quoted string '26'");
	expect_error(f, "name: t", "name: &x t", NULL, 3, 7, "YAML anchors (&name)");
	expect_error(f, "name: t", "name: !!str t", NULL, 3, 7, "YAML tags");
	expect_error(f, NULL, NULL, "---\nname: x\n", 17, 1, "only one YAML document");
	expect_error(f, "  priority: 3\n", "\tpriority: 3\n", NULL, 6, 1,
		     "tab character in indentation");
	expect_error(f, "priorities: [3]", "priorities: [3", NULL, 12, 11, "invalid YAML:");
	expect_error(f, "pfc:\n  priorities: [3]\n  watchdog: {detection: 200ms}\n", "pfc: [1]\n",
		     NULL, 10, 6, "pfc: expected a mapping, found a list");
	expect_error(f, "name: t", "name: \"a\\0b\"", NULL, 3, 7, "value contains a NUL character");
	expect_error(f, "detection: 200ms", "detection: 0ms", NULL, 12, 25,
		     "expected whole milliseconds from 1ms to 60000ms");
	expect_error(f, "detection: 200ms", "detection: 61s", NULL, 12, 25, "from 1ms to 60000ms");
	expect_error(f, "{detection: 200ms}", "{detection: 200ms, action: stop}", NULL, 12, 40,
		     "pfc.watchdog.action: expected one of drop, forward");
	expect_error(f, NULL, NULL, "password: sekrit\n", 17, 1,
		     "password: literal passwords are not accepted");
	assert_null(strstr(f->err.msg, "sekrit"));
}

static void test_empty_and_garbage(void **state)
{
	struct fixture *f = *state;
	static const char bin[] = "\x7f"
				  "ELF\x02\x01\x01\x00\x00\x00";

	assert_int_equal(rc_policy_load_buffer("p.yaml", "", 0, &f->p, &f->w, &f->err), -EINVAL);
	assert_int_equal(f->err.line, 1);
	assert_non_null(strstr(f->err.msg, "empty document"));
	assert_int_equal(rc_policy_load_buffer("p.yaml", "# x\n", 4, &f->p, &f->w, &f->err),
			 -EINVAL);
	assert_non_null(strstr(f->err.msg, "empty document"));
	assert_int_equal(rc_policy_load_buffer("p.yaml", bin, sizeof(bin), &f->p, &f->w, &f->err),
			 -EINVAL);
	assert_int_equal(f->err.line, 1);
	assert_non_null(strstr(f->err.msg, "not valid UTF-8 YAML text"));
	assert_int_equal(rc_policy_load_buffer("p.yaml", "42\n", 3, &f->p, &f->w, &f->err),
			 -EINVAL);
	assert_non_null(strstr(f->err.msg, "expected a mapping at the top level, found '42'"));
	assert_int_equal(rc_policy_load_buffer("p.yaml", "[]\n", 3, &f->p, &f->w, &f->err),
			 -EINVAL);
	assert_int_equal(rc_policy_load_buffer("p.yaml", "x", 1, &f->p, &f->w, &f->err), -EINVAL);
}

static void test_caps(void **state)
{
	struct fixture *f = *state;
	size_t big = 32u * 1024 * 1024 + 1, n = 0;
	char *buf = malloc(big);

	assert_non_null(buf);
	memset(buf, ' ', big);
	assert_int_equal(rc_policy_load_buffer("p.yaml", buf, big, &f->p, &f->w, &f->err), -EFBIG);
	assert_int_equal(f->err.line, 1);
	assert_non_null(strstr(f->err.msg, "larger than 32 MiB"));

	/* 40 nested lists: refused at the 33rd. */
	for (int i = 0; i < 40; i++)
		buf[n++] = '[';
	for (int i = 0; i < 40; i++)
		buf[n++] = ']';
	assert_int_equal(rc_policy_load_buffer("p.yaml", buf, n, &f->p, &f->w, &f->err), -EINVAL);
	assert_int_equal(f->err.line, 1);
	assert_int_equal(f->err.column, 33);
	assert_non_null(strstr(f->err.msg, "nesting is deeper than 32 levels"));

	/* Exponential aliases never expand: refused at the first anchor. */
	n = (size_t)snprintf(buf, big,
			     "a: &a [x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a]\n"
			     "c: [*b, *b, *b, *b, *b, *b, *b, *b]\n");
	assert_int_equal(rc_policy_load_buffer("p.yaml", buf, n, &f->p, &f->w, &f->err), -EINVAL);
	assert_int_equal(f->err.line, 1);
	assert_int_equal(f->err.column, 4);
	free(buf);
}

static void test_warnings(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(load_variant(f, "  watchdog: {detection: 200ms}\n", "", NULL), 0);
	assert_int_equal(f->w.n, 1);
	assert_string_equal(f->w.w[0].file, "p.yaml");
	assert_int_equal(f->w.w[0].line, 10);
	assert_int_equal(f->w.w[0].column, 1);
	assert_non_null(strstr(f->w.w[0].msg, "pfc.watchdog is not set"));

	assert_int_equal(load_variant(f, "priorities: [3]", "priorities: [2, 3, 4]", NULL), 0);
	assert_int_equal(f->w.n, 1);
	assert_int_equal(f->w.w[0].line, 11);
	assert_int_equal(f->w.w[0].column, 15);
	assert_non_null(strstr(f->w.w[0].msg, "has 3 lossless priorities"));
	assert_int_equal(load_variant(f, "priorities: [3]", "priorities: [3, 4]", NULL), 0);
	assert_int_equal(f->w.n, 0);

	assert_int_equal(load_variant(f,
				      "ecn:\n  min_threshold: 150KB\n  max_threshold: 1500KB\n  "
				      "probability: 100%\n",
				      "ecn:\n  enabled: false\n", NULL),
			 0);
	assert_int_equal(f->w.n, 1);
	assert_int_equal(f->w.w[0].line, 14);
	assert_int_equal(f->w.w[0].column, 12);
	assert_non_null(strstr(f->w.w[0].msg, "ecn.enabled is false"));
}

static void test_warnings_cap(void **state)
{
	struct rc_warnings w = {0};
	char buf[256];
	FILE *mem;

	(void)state;
	for (int i = 0; i < RC_WARN_MAX + 5; i++)
		rc_warn_add(&w, "f.yaml", i + 1, 2, "number %d", i);
	assert_int_equal(w.n, RC_WARN_MAX);
	assert_int_equal(w.dropped, 5);
	rc_warn_add(NULL, "f.yaml", 1, 1, "ignored");
	mem = fmemopen(buf, sizeof(buf), "w");
	assert_non_null(mem);
	w.n = 1;
	rc_warnings_print(&w, mem);
	fclose(mem);
	assert_string_equal(buf, "f.yaml:1:2: warning: number 0\n"
				 "warning: 5 more warnings not shown\n");
}

static void test_for_device(void **state)
{
	struct fixture *f = *state;
	struct rc_device dev;
	struct rc_policy out;

	assert_int_equal(load_variant(f, NULL, NULL, NULL), 0);
	memset(&dev, 0, sizeof(dev));
	snprintf(dev.name, sizeof(dev.name), "spine01");
	dev.ov.has_ecn_kmin = dev.ov.has_ecn_kmax = true;
	dev.ov.ecn_kmin_bytes = 1000000;
	dev.ov.ecn_kmax_bytes = 10000000;
	dev.ov.has_mtu = true;
	dev.ov.mtu = 4200;
	assert_int_equal(rc_policy_for_device(&f->p, &dev, &out, &f->err), 0);
	assert_int_equal(out.ecn.kmin_bytes, 1000000);
	assert_int_equal(out.ecn.kmax_bytes, 10000000);
	assert_int_equal(out.headroom.mtu, 4200);
	assert_int_equal(out.headroom.cable_length_m, 100);
	assert_string_equal(out.file, "p.yaml");
	assert_int_equal(out.pos.kmin.line, 14); /* positions are the base's again */

	/* Only Kmin overridden, above the policy's Kmax: error names the device. */
	dev.ov.has_ecn_kmax = false;
	dev.ov.ecn_kmin_bytes = 2000000;
	dev.ov.ecn_kmin_pos = (struct rc_pos){7, 12};
	assert_int_equal(rc_policy_for_device(&f->p, &dev, &out, &f->err), -EINVAL);
	assert_string_equal(f->err.msg, "device 'spine01': ecn.min_threshold (2MB) must be below "
					"ecn.max_threshold (1.5MB)");
	assert_int_equal(f->err.line, 7);
	assert_int_equal(f->err.column, 12);
	assert_string_equal(f->err.file, "");

	/* Enabling ECN on a PFC-only policy without thresholds is refused. */
	assert_int_equal(load_variant(f,
				      "ecn:\n  min_threshold: 150KB\n  max_threshold: 1500KB\n  "
				      "probability: 100%\n",
				      "ecn:\n  enabled: false\n", NULL),
			 0);
	memset(&dev.ov, 0, sizeof(dev.ov));
	dev.ov.has_ecn_enabled = dev.ov.ecn_enabled = true;
	assert_int_equal(rc_policy_for_device(&f->p, &dev, &out, &f->err), -EINVAL);
	assert_non_null(strstr(f->err.msg, "ecn is enabled but"));
}

static void test_check_in_memory(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(load_variant(f, NULL, NULL, NULL), 0);
	f->p.ecn.kmin_bytes = f->p.ecn.kmax_bytes;
	assert_int_equal(rc_policy_check(&f->p, NULL, &f->err), -EINVAL);
	assert_int_equal(f->err.line, 14);
	f->p.ecn.kmin_bytes = 1;
	assert_int_equal(rc_policy_check(&f->p, NULL, &f->err), 0);
	f->p.roce_priority = 9;
	assert_int_equal(rc_policy_check(&f->p, NULL, &f->err), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_shipped_policies, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_defaults, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_classes_rules, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_prio2tc_ok, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_ecn_rules, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_ecn_disabled_thresholds_checked, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_headroom_rules, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_ets_rules, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_tos_rules, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_tolerance_rules, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_structure_errors, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_empty_and_garbage, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_caps, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_warnings, setup, teardown),
	    cmocka_unit_test(test_warnings_cap),
	    cmocka_unit_test_setup_teardown(test_for_device, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_check_in_memory, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
