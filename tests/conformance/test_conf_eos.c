/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: every configuration line rocectl's EOS driver emits has a shape found in
 * the real EOS configurations of $CONFORMANCE_DIR/eos/avd/intended_configs/ (AVD's
 * expected output, conformance README).  The writer is driven through its unit-level
 * entry points (eos_build_cmds, eos_render) for each shipped policy in policies/, from a
 * factory switch, a drifted one and one with uc-tx-queues.
 *
 * A shape is the line with numbers as <n> (a run of them as one, DSCP lists) and
 * interface names as <if>, in its mode: global, interface (an `interface` block or a `qos
 * profile`, which hold the same lines, AVD's qos.cfg `qos profile test_with_pfc`) or queue
 * (tx-queue, uc-tx-queue, mc-tx-queue).  `no W...` is accepted when W... begins a shape of that
 * mode, as the artifact's own `no priority` (of `priority strict`), `no qos trust` and `no
 * priority-flow-control` do.  `exit` leaves a mode and is not configuration.  Where the
 * configurations show one value of a keyword, AVD's schema table gives the others (the
 * watchdog action: drop | no-drop). */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cJSON.h>
#include <cmocka.h>

#include "../../drivers/switch/eos.h"
#include "rocectl/desired.h"
#include "rocectl/driver.h"
#include "rocectl/diff.h"
#include "rocectl/policy.h"
#include "rocectl/transport.h"
#include "../unit/testutil.h"

enum mode { M_GLOBAL, M_IF, M_QUEUE };

#define SHAPES_MAX 1024
#define SHAPE_LEN  256

struct shapes {
	size_t n;
	enum mode mode[SHAPES_MAX];
	char v[SHAPES_MAX][SHAPE_LEN];
};

static bool is_num(const char *w)
{
	bool digit = false;

	for (; *w; w++) {
		if (*w >= '0' && *w <= '9')
			digit = true;
		else if (*w != '.')
			return false;
	}
	return digit;
}

static bool is_if(const char *w)
{
	if (strncmp(w, "Ethernet", 8) && strncmp(w, "Port-Channel", 12))
		return false;
	w += w[0] == 'E' ? 8 : 12;
	for (; *w; w++)
		if (!((*w >= '0' && *w <= '9') || *w == '/' || *w == '.'))
			return false;
	return true;
}

/* "qos map dscp 18 20 22 to traffic-class 4" -> "qos map dscp <n> to traffic-class <n>" */
static void shape_of(const char *line, char *out, size_t len)
{
	char buf[SHAPE_LEN * 4], *save = NULL;
	size_t o = 0;
	bool last_num = false;

	snprintf(buf, sizeof(buf), "%s", line);
	out[0] = '\0';
	for (char *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		const char *word = w;
		bool num = is_num(w);

		if (num && last_num)
			continue;
		if (num)
			word = "<n>";
		else if (is_if(w))
			word = "<if>";
		last_num = num;
		o += (size_t)snprintf(out + o, o < len ? len - o : 0, "%s%s", o ? " " : "", word);
	}
}

static bool opens_queue(const char *line)
{
	return !strncmp(line, "tx-queue ", 9) || !strncmp(line, "uc-tx-queue ", 12) ||
	       !strncmp(line, "mc-tx-queue ", 12);
}

static void add_shape(struct shapes *s, enum mode m, const char *line)
{
	char sh[SHAPE_LEN];

	shape_of(line, sh, sizeof(sh));
	for (size_t i = 0; i < s->n; i++)
		if (s->mode[i] == m && !strcmp(s->v[i], sh))
			return;
	assert_true(s->n < SHAPES_MAX);
	s->mode[s->n] = m;
	snprintf(s->v[s->n++], SHAPE_LEN, "%s", sh);
}

/* One AVD configuration: 3-space indentation per level ('!' lines are separators and
 * comments). */
static void load_cfg(struct shapes *s, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	bool depth1_is_if = false, depth2_is_queue = false;

	if (!f)
		fail_msg("conformance artifact missing: %s", path);
	while (fgets(line, sizeof(line), f)) {
		size_t ind = strspn(line, " ");
		char *t = line + ind;
		int depth = (int)ind / 3;

		t[strcspn(t, "\r\n")] = '\0';
		if (!*t || *t == '!')
			continue;
		if (depth == 0) {
			add_shape(s, M_GLOBAL, t);
			depth1_is_if =
			    !strncmp(t, "interface ", 10) || !strncmp(t, "qos profile ", 12);
		} else if (depth == 1 && depth1_is_if) {
			add_shape(s, M_IF, t);
			depth2_is_queue = opens_queue(t);
		} else if (depth == 2 && depth1_is_if && depth2_is_queue) {
			add_shape(s, M_QUEUE, t);
		}
	}
	fclose(f);
}

/* The values AVD's schema table allows for `key` ("Valid Values: <code>a</code> ..."): the
 * configurations show one of them, the schema all.  Each becomes `prefix VALUE` in `m`. */
static void load_schema_values(struct shapes *s, enum mode m, const char *prefix, const char *path,
			       const char *key)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	int found = 0;

	if (!f)
		fail_msg("conformance artifact missing: %s", path);
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, key), *v, *e;

		if (!p || !(p = strstr(p, "Valid Values:")))
			continue;
		while ((v = strstr(p, "<code>")) && (e = strstr(v, "</code>"))) {
			char shape[SHAPE_LEN];

			v += 6;
			snprintf(shape, sizeof(shape), "%s %.*s", prefix, (int)(e - v), v);
			add_shape(s, m, shape);
			found++;
			p = e + 7;
		}
	}
	fclose(f);
	if (!found)
		fail_msg("%s: no valid values for %s", path, key);
}

static void load_shapes(struct shapes *s)
{
	const char *dir = getenv("CONFORMANCE_DIR");
	char path[1024];

	memset(s, 0, sizeof(*s));
	if (!dir || !*dir)
		fail_msg("CONFORMANCE_DIR is not set (the Makefile exports it)");
	snprintf(path, sizeof(path), "%s/eos/avd/intended_configs/qos.cfg", dir);
	load_cfg(s, path);
	snprintf(path, sizeof(path), "%s/eos/avd/intended_configs/ethernet-interfaces.cfg", dir);
	load_cfg(s, path);
	/* qos.cfg shows `... watchdog action no-drop`; T-PFC gives drop and no-drop
	 * (AVD's schema table for priority-flow-control) */
	snprintf(path, sizeof(path), "%s/eos/avd/schema_tables/priority-flow-control.md", dir);
	load_schema_values(s, M_GLOBAL, "priority-flow-control pause watchdog action", path,
			   "\"priority_flow_control.watchdog.action\"");
	assert_true(s->n > 50);
}

/* NULL when the line's shape is found in its mode, else why. */
static const char *check_line(const struct shapes *s, enum mode m, const char *line)
{
	char sh[SHAPE_LEN];
	bool neg = !strncmp(line, "no ", 3);

	shape_of(neg ? line + 3 : line, sh, sizeof(sh));
	for (size_t i = 0; i < s->n; i++) {
		size_t l = strlen(sh);

		if (s->mode[i] != m)
			continue;
		if (!strcmp(s->v[i], sh))
			return NULL;
		if (neg && !strncmp(s->v[i], sh, l) && (s->v[i][l] == ' ' || !s->v[i][l]))
			return NULL;
	}
	return "shape not found in eos/avd/intended_configs";
}

/* Every rendered line, in its mode; the first failure is reported with the line. */
static int check_script(const struct shapes *s, char **lines, size_t n, char *bad, size_t len)
{
	enum mode m = M_GLOBAL;

	for (size_t i = 0; i < n; i++) {
		const char *l = lines[i];

		if (!strcmp(l, "exit")) {
			m = m == M_QUEUE ? M_IF : M_GLOBAL;
			continue;
		}
		if (check_line(s, m, l)) {
			snprintf(bad, len, "%s", l);
			return -1;
		}
		if (m == M_GLOBAL && !strncmp(l, "interface ", 10))
			m = M_IF;
		else if (m == M_IF && opens_queue(l))
			m = M_QUEUE;
	}
	return 0;
}

static void slurp_cfg(const char *name, struct eos_config *cfg)
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

/* The lines the driver would send to bring `ports` of `start` to `policy`. */
static size_t emit(const char *policy, const char *start, const char *const *ports, size_t np,
		   const struct shapes *s)
{
	struct rc_policy p;
	struct eos_config cfg;
	struct port_qos want[4], have[4];
	struct eos_port_info info[4];
	struct rc_port_write w[4];
	struct eos_peer peers[4];
	struct eos_cmds cmds;
	struct rc_err err = {0};
	char **lines, bad[EOS_LINE_MAX] = "";
	size_t n = 0;

	if (rc_policy_load(policy, &p, NULL, &err))
		fail_msg("%s: %s", policy, err.msg);
	slurp_cfg(start, &cfg);
	for (size_t i = 0; i < np; i++) {
		struct rc_changes ch = {0};
		int64_t m;

		if (eos_parse_port(&cfg, ports[i], &have[i], &info[i], &err))
			fail_msg("%s %s: %s", start, ports[i], err.msg);
		eos_effect_ecn_count(&have[i], &info[i]);
		if (rc_desired_port(&p, NULL, 0, ports[i], RC_DEV_SWITCH, 400, &want[i], &err))
			fail_msg("%s: %s", policy, err.msg);
		m = rc_diff_port(ports[i], &want[i], &have[i], p.tolerance_pct, 0, &ch);
		assert_true(m >= 0);
		rc_changes_free(&ch);
		w[i] = (struct rc_port_write){ports[i], &want[i], &have[i], (uint32_t)m};
		peers[i] = (struct eos_peer){ports[i], &info[i]};
	}
	if (eos_build_cmds(&cfg, w, info, np, peers, np, &cmds, &err))
		fail_msg("%s from %s: %s", policy, start, err.msg);
	lines = eos_render(&cmds, &n);
	assert_non_null(lines);
	if (check_script(s, lines, n, bad, sizeof(bad)))
		fail_msg("%s from %s emits '%s': its shape is not in the real EOS configurations",
			 policy, start, bad);
	eos_lines_free(lines);
	eos_cmds_free(&cmds);
	eos_config_free(&cfg);
	return n;
}

static void test_shipped_policies(void **state)
{
	static const char *const starts[] = {"running-factory.txt", "running-lossless.txt"};
	static const char *const ports[] = {"Ethernet1", "Ethernet2"};
	static const char *const uc[] = {"Ethernet3/1/1"};
	const char *src = getenv("SRC_DIR");
	char dir[1024], path[1400];
	struct shapes *s = malloc(sizeof(*s));
	struct dirent *e;
	size_t policies = 0, lines = 0;
	DIR *d;
	(void)state;

	assert_non_null(s);
	load_shapes(s);
	snprintf(dir, sizeof(dir), "%s/policies", src && *src ? src : ".");
	d = opendir(dir);
	assert_non_null(d);
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);

		if (l < 6 || strcmp(e->d_name + l - 5, ".yaml"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		for (size_t k = 0; k < 2; k++)
			lines += emit(path, starts[k], ports, 2, s);
		lines += emit(path, "running-uc.txt", uc, 1, s);
		policies++;
	}
	closedir(d);
	assert_true(policies >= 3);
	assert_true(lines > 40); /* the writer did write */
	free(s);
}

/* The checker itself: lines EOS does not write (or AVD never shows) are refused. */
static void test_checker_refuses(void **state)
{
	struct shapes *s = malloc(sizeof(*s));
	char *bad1[] = {"interface Ethernet1", "priority-flow-control mode on", "exit"};
	char *bad2[] = {"interface Ethernet1", "tx-queue 3",
			"random-detect ecn minimum-threshold 150000 octets maximum-threshold "
			"1500000 octets",
			"exit", "exit"};
	char *bad3[] = {"qos map dscp 26 to priority 3"};
	char *good[] = {"qos map dscp 26 to traffic-class 3",
			"interface Ethernet1/1",
			"priority-flow-control priority 3 no-drop",
			"no priority-flow-control priority 4",
			"tx-queue 3",
			"no priority",
			"bandwidth percent 50",
			"random-detect ecn minimum-threshold 150 kbytes maximum-threshold 1500 "
			"kbytes max-mark-probability 100",
			"random-detect ecn count",
			"exit",
			"exit"};
	char why[EOS_LINE_MAX];
	(void)state;

	assert_non_null(s);
	load_shapes(s);
	assert_int_equal(check_script(s, bad1, 3, why, sizeof(why)), -1);
	assert_string_equal(why, "priority-flow-control mode on");
	assert_int_equal(check_script(s, bad2, 5, why, sizeof(why)), -1);
	assert_int_equal(check_script(s, bad3, 1, why, sizeof(why)), -1);
	/* a queue line outside its queue is in the wrong mode */
	assert_int_equal(
	    check_script(s, (char *[]){"random-detect ecn count"}, 1, why, sizeof(why)), -1);
	assert_int_equal(check_script(s, good, 11, why, sizeof(why)), 0);
	free(s);
}

/* ---- eAPI answers: Arista ANTA's unit-test answers and napalm's real captures ---------- */

static cJSON *kit_json(const char *rel)
{
	char path[1024], *buf;
	size_t n;
	cJSON *j;

	snprintf(path, sizeof(path), "eos/%s", rel);
	buf = rc_test_artifact(path, &n);
	j = cJSON_ParseWithLength(buf, n);
	free(buf);
	if (!j)
		fail_msg("%s is not JSON", path);
	return j;
}

/* rocectl asks each command at the revision Arista's own test framework pins for it (the
 * `revision` of every eos/anta/ file): `show priority-flow-control counters` at 3, the ECN
 * queue counters and the LLDP detail at 1. */
static void test_revisions(void **state)
{
	static const char *const files[] = {"anta/show_priority-flow-control_counters.rev3.json",
					    "anta/show_qos_interfaces_ecn_counters_queue.rev1.json",
					    "anta/show_lldp_neighbors_detail.rev1.json",
					    "anta/show_interfaces_counters_queue_drops.rev1.json"};
	(void)state;

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		cJSON *j = kit_json(files[i]);
		const cJSON *cmd = cJSON_GetObjectItemCaseSensitive(j, "command");
		const cJSON *rev = cJSON_GetObjectItemCaseSensitive(j, "revision");

		assert_true(cJSON_IsString(cmd) && cJSON_IsNumber(rev));
		if (eos_cmd_revision(cmd->valuestring) != rev->valueint)
			fail_msg("'%s': rocectl asks revision %d, ANTA reads %d", cmd->valuestring,
				 eos_cmd_revision(cmd->valuestring), rev->valueint);
		cJSON_Delete(j);
	}
}

static const struct rc_counter *counter_named(const struct rc_counters *c, const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].name, name))
			return &c->v[i];
	return NULL;
}

/* Every answer of ANTA's PFC (revision 3) and ECN tests read as its numbers: rxFrames and
 * txFrames per interface; per queue a string count, or "-" not countable (never 0). */
static void test_counters_answers(void **state)
{
	cJSON *pfc = kit_json("anta/show_priority-flow-control_counters.rev3.json");
	cJSON *ecn = kit_json("anta/show_qos_interfaces_ecn_counters_queue.rev1.json");
	const cJSON *a, *port, *q;
	size_t checked = 0;
	(void)state;

	cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(pfc, "answers"))
	{
		const cJSON *doc = cJSON_GetObjectItemCaseSensitive(a, "eos_data_0");

		cJSON_ArrayForEach(port, cJSON_GetObjectItemCaseSensitive(doc, "interfaceCounters"))
		{
			struct rc_counters c = {0};
			struct rc_err err = {0};

			if (eos_parse_counters(doc, NULL, port->string, &c, &err))
				fail_msg("%s %s: %s", a->string, port->string, err.msg);
			assert_int_equal(
			    counter_named(&c, "pfc_pause_rx")->value,
			    cJSON_GetObjectItemCaseSensitive(port, "rxFrames")->valuedouble);
			assert_int_equal(
			    counter_named(&c, "pfc_pause_tx")->value,
			    cJSON_GetObjectItemCaseSensitive(port, "txFrames")->valuedouble);
			rc_counters_free(&c);
			checked++;
		}
	}
	cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(ecn, "answers"))
	{
		const cJSON *doc = cJSON_GetObjectItemCaseSensitive(a, "eos_data_0");
		cJSON *empty = cJSON_Parse("{\"interfaceCounters\": {}}");

		cJSON_ArrayForEach(port, cJSON_GetObjectItemCaseSensitive(doc, "intfQueueCounters"))
		{
			struct rc_counters c = {0};
			struct rc_err err = {0};

			if (eos_parse_counters(empty, doc, port->string, &c, &err))
				fail_msg("%s %s: %s", a->string, port->string, err.msg);
			cJSON_ArrayForEach(q,
					   cJSON_GetObjectItemCaseSensitive(port, "queueCounters"))
			{
				char name[48];
				const struct rc_counter *e;

				snprintf(name, sizeof(name), "ecn_marked[%s]", q->string);
				e = counter_named(&c, name);
				assert_non_null(e);
				if (!strcmp(q->valuestring, "-"))
					assert_true(e->not_enabled);
				else
					assert_true(!e->not_enabled &&
						    e->value == strtoull(q->valuestring, NULL, 10));
				checked++;
			}
			rc_counters_free(&c);
		}
		cJSON_Delete(empty);
	}
	assert_true(checked > 30);
	cJSON_Delete(pfc);
	cJSON_Delete(ecn);
}

/* ANTA's answers of `show interfaces counters queue drops` (revision 1): every traffic class
 * of every interface read as its egress and VoQ drops, a range key "TC0-5" as the range
 * (eos/FACTS.md fact 16), never split over classes. */
static void test_queue_drops_answers(void **state)
{
	cJSON *j = kit_json("anta/show_interfaces_counters_queue_drops.rev1.json");
	const cJSON *a, *port, *tc;
	size_t checked = 0, ranges = 0;
	(void)state;

	cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(j, "answers"))
	{
		const cJSON *doc = cJSON_GetObjectItemCaseSensitive(a, "eos_data_0");

		cJSON_ArrayForEach(port, cJSON_GetObjectItemCaseSensitive(doc, "interfaces"))
		{
			struct rc_counters c = {0};
			struct rc_err err = {0};

			if (eos_parse_queue_drops(doc, port->string, &c, &err))
				fail_msg("%s %s: %s", a->string, port->string, err.msg);
			cJSON_ArrayForEach(tc,
					   cJSON_GetObjectItemCaseSensitive(port, "trafficClasses"))
			{
				char name[48];
				const char *dash = strchr(tc->string, '-');
				const struct rc_counter *e;
				double want = cJSON_GetObjectItemCaseSensitive(
						  cJSON_GetObjectItemCaseSensitive(
						      cJSON_GetObjectItemCaseSensitive(
							  tc, "egressQueueCounters"),
						      "countersSum"),
						  "droppedPackets")
						  ->valuedouble;

				snprintf(name, sizeof(name), "egress_queue_discards[%s]",
					 tc->string + 2);
				e = counter_named(&c, name);
				if (!e)
					fail_msg("%s %s: no %s", a->string, port->string, name);
				assert_true(e->is_drop && e->value == (uint64_t)want);
				ranges += dash != NULL;
				checked++;
			}
			rc_counters_free(&c);
		}
	}
	assert_true(checked > 10 && ranges > 0);
	cJSON_Delete(j);
}

static const struct rc_neighbor *on_port(const struct rc_neighbors *nb, const char *port)
{
	for (size_t i = 0; i < nb->n; i++)
		if (!strcmp(nb->v[i].port, port))
			return &nb->v[i];
	return NULL;
}

/* An ANTA file's answer named case ("<AntaTest>/<case>"), or its first when case is NULL;
 * a napalm file is the answer itself. */
static void lldp_case(const char *rel, const char *name, struct rc_neighbors *nb)
{
	cJSON *j = kit_json(rel);
	const cJSON *doc = j, *answers = cJSON_GetObjectItemCaseSensitive(j, "answers");
	struct rc_err err = {0};

	if (answers) {
		const cJSON *a =
		    name ? cJSON_GetObjectItemCaseSensitive(answers, name) : answers->child;

		if (!a)
			fail_msg("%s has no answer '%s'", rel, name);
		doc = cJSON_GetObjectItemCaseSensitive(a, "eos_data_0");
	}
	memset(nb, 0, sizeof(*nb));
	if (eos_parse_lldp(doc, "eos", nb, &err))
		fail_msg("%s: %s", rel, err.msg);
	cJSON_Delete(j);
}

static void lldp_of(const char *rel, struct rc_neighbors *nb)
{
	lldp_case(rel, NULL, nb);
}

static void expect(const struct rc_neighbors *nb, const char *port, const char *dev,
		   const char *rport)
{
	const struct rc_neighbor *n = on_port(nb, port);

	if (!n)
		fail_msg("no neighbour on %s", port);
	assert_string_equal(n->device, dev);
	assert_string_equal(n->remote_port, rport);
}

/* napalm's real captures of `show lldp neighbors detail` (eos/FACTS.md facts 18-22): MAC
 * port IDs dotted (turned into the colon form every other platform prints), interfaceName
 * and local IDs quoted inside the string, [] on a port without a neighbour; and ANTA's
 * answer from before its test-data refactor, with interfaceId_v2. */
static void test_lldp_answers(void **state)
{
	struct rc_neighbors nb;
	(void)state;

	lldp_of("napalm/show_lldp_neighbors_detail.normal.json", &nb);
	assert_int_equal(nb.n, 41);
	expect(&nb, "Ethernet8", "78m3", "00:0f:53:2e:ce:d1");
	expect(&nb, "Ethernet47", "ms01.bru01", "597");
	rc_neighbors_fini(&nb);
	lldp_of("napalm/show_lldp_neighbors_detail.issue1153.json", &nb);
	assert_int_equal(nb.n, 3); /* every other port: lldpNeighborInfo [] */
	expect(&nb, "Ethernet1/1", "some-server", "1c:e7:10:03:54:13");
	expect(&nb, "Ethernet27/1", "some-switch", "et-0/0/20");
	rc_neighbors_fini(&nb);
	lldp_of("napalm/show_lldp_neighbors_detail.issue903.json", &nb);
	expect(&nb, "Ethernet22", "linux", "00:0c:29:7b:d2:a8");
	rc_neighbors_fini(&nb);
	lldp_of("anta/show_lldp_neighbors_detail.rev1.pre-d2b2c787.json", &nb);
	expect(&nb, "Ethernet1", "DC1-SPINE1", "Ethernet1");
	expect(&nb, "Ethernet2", "DC1-SPINE2", "Ethernet1");
	rc_neighbors_fini(&nb);
	/* ANTA's current answers (revision 1, interfaceId_v2 beside interfaceId) */
	lldp_case("anta/show_lldp_neighbors_detail.rev1.json", "VerifyLLDPNeighbors/success", &nb);
	assert_int_equal(nb.n, 2);
	expect(&nb, "Ethernet1", "DC1-SPINE1.local.com", "Ethernet1");
	expect(&nb, "Ethernet2", "DC1-SPINE2.local.com", "Ethernet1");
	rc_neighbors_fini(&nb);
	lldp_case("anta/show_lldp_neighbors_detail.rev1.json",
		  "VerifyLLDPNeighbors/success-external-lldp-neighbors", &nb);
	expect(&nb, "Ethernet1", "dc1-leaf2-server1.local.com", "iLO"); /* v2 over interfaceId */
	rc_neighbors_fini(&nb);
	lldp_case("anta/show_lldp_neighbors_detail.rev1.json",
		  "VerifyLLDPNeighbors/failure-no-neighbor", &nb);
	assert_int_equal(nb.n, 1); /* Ethernet2: lldpNeighborInfo [] */
	rc_neighbors_fini(&nb);
	/* the summary form: neighborPort a dotted MAC for Linux hosts (fact 20) */
	lldp_of("napalm/show_lldp_neighbors.normal.json", &nb);
	assert_true(nb.n > 0);
	for (size_t i = 0; i < nb.n; i++)
		assert_null(strchr(nb.v[i].remote_port, '.'));
	rc_neighbors_fini(&nb);
}

/* ---- the eAPI path: each answer as a snapshot's raw answer (docs/SNAPSHOT.md) ----------- */

/* The kit answer as the raw file a snapshot holds for cmd, printed as compact JSON (a napalm
 * file is the answer, an ANTA file holds it as its first eos_data_0); half of it when cut. */
static void lay_out(const char *dir, const char *rel, const char *cmd, bool cut)
{
	cJSON *j = kit_json(rel), *ans = cJSON_GetObjectItemCaseSensitive(j, "answers");
	char name[200], path[1200], *text;
	size_t k = 0, len;
	FILE *f;

	for (const char *c = cmd; *c; c++)
		name[k++] = (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') ? *c : '-';
	name[k] = '\0';
	snprintf(path, sizeof(path), "%s/leaf/%s.rev%d.json", dir, name, eos_cmd_revision(cmd));
	text = cJSON_PrintUnformatted(
	    ans ? cJSON_GetObjectItemCaseSensitive(ans->child, "eos_data_0") : j);
	assert_non_null(text);
	len = strlen(text);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, cut ? len / 2 : len, f), cut ? len / 2 : len);
	fclose(f);
	free(text);
	cJSON_Delete(j);
}

/* runCmds ["enable", cmd] as the driver builds it, answered from dir; the result of cmd in
 * *answer (0), or the error. */
static int replay(const char *dir, const char *cmd, cJSON **answer, const cJSON **result,
		  struct rc_err *err)
{
	const char *const cmds[] = {"enable", cmd};
	cJSON *req = eos_eapi_request("conf-1", cmds, 2, "json");
	char *body = cJSON_PrintUnformatted(req), *out = NULL;
	const cJSON *res = NULL;
	size_t len = 0;
	int rc = rc_snapshot_eapi(dir, "leaf", body, strlen(body), &out, &len, err);

	*answer = NULL;
	if (!rc) {
		*answer = cJSON_ParseWithLength(out, len);
		rc = eos_eapi_result(*answer, "conf-1", cmds, 2, &res, err);
	}
	*result = rc ? NULL : cJSON_GetArrayItem(res, 1);
	free(out);
	free(body);
	cJSON_Delete(req);
	return rc;
}

/* The answers rocectl asks for, replayed through the eAPI request the driver builds and the
 * snapshot transport: what reaches the parser is the kit's answer (napalm's capture read to
 * its values), and half an answer is an error naming the command. */
static void test_eapi_replay(void **state)
{
	static const struct {
		const char *rel, *cmd;
	} a[] = {
	    {"napalm/show_lldp_neighbors_detail.normal.json", "show lldp neighbors detail"},
	    {"anta/show_priority-flow-control_counters.rev3.json",
	     "show priority-flow-control counters"},
	    {"anta/show_qos_interfaces_ecn_counters_queue.rev1.json",
	     "show qos interfaces ecn counters queue"},
	    {"anta/show_interfaces_counters_queue_drops.rev1.json",
	     "show interfaces counters queue drops"},
	};
	char dir[] = "/tmp/conf-eos-XXXXXX", sub[64];
	(void)state;

	assert_non_null(mkdtemp(dir));
	snprintf(sub, sizeof(sub), "%s/leaf", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	for (size_t i = 0; i < sizeof(a) / sizeof(a[0]); i++) {
		cJSON *answer, *kit = kit_json(a[i].rel);
		const cJSON *ans = cJSON_GetObjectItemCaseSensitive(kit, "answers"), *res;
		struct rc_err err = {0};

		lay_out(dir, a[i].rel, a[i].cmd, false);
		if (replay(dir, a[i].cmd, &answer, &res, &err))
			fail_msg("%s: %s", a[i].rel, err.msg);
		assert_true(cJSON_Compare(
		    res, ans ? cJSON_GetObjectItemCaseSensitive(ans->child, "eos_data_0") : kit,
		    true));
		if (i == 0) {
			struct rc_neighbors nb = {0};

			assert_int_equal(eos_parse_lldp(res, "leaf", &nb, &err), 0);
			assert_int_equal(nb.n, 41);
			expect(&nb, "Ethernet8", "78m3", "00:0f:53:2e:ce:d1");
			rc_neighbors_fini(&nb);
		}
		cJSON_Delete(answer);
		lay_out(dir, a[i].rel, a[i].cmd, true);
		memset(&err, 0, sizeof(err));
		assert_int_equal(replay(dir, a[i].cmd, &answer, &res, &err), -EPROTO);
		if (!strstr(err.msg, a[i].cmd) || !strstr(err.msg, "leaf"))
			fail_msg("%s cut: '%s' names neither device nor command", a[i].rel,
				 err.msg);
		cJSON_Delete(answer);
		cJSON_Delete(kit);
	}
	{
		char cmd[1200];

		snprintf(cmd, sizeof(cmd), "rm -r '%s'", dir);
		assert_int_equal(system(cmd), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_checker_refuses), cmocka_unit_test(test_shipped_policies),
	    cmocka_unit_test(test_revisions),	    cmocka_unit_test(test_counters_answers),
	    cmocka_unit_test(test_lldp_answers),    cmocka_unit_test(test_queue_drops_answers),
	    cmocka_unit_test(test_eapi_replay),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
