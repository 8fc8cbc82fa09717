/* SPDX-License-Identifier: Apache-2.0 */
/* Run records (engine/run/history.c): what a record keeps (who, inputs' digests, per device
 * the changes and the pre-change values of the written groups only), that it is 0600 in a
 * 0700 directory and reads back the same, that a record which is not ours is refused, and
 * that undoing a finished run puts exactly the written groups into the journal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "rocectl/history.h"
#include "rocectl/journal.h"
#include "testutil.h"

struct fixture {
	char dir[256];
	char hist[300], journal[300], policy[300];
	struct rc_device dev;
	struct rc_port_state have[2];
	uint32_t write_fields[2];
	struct rc_devrun run;
};

static void change(struct rc_changes *c, const char *port, const char *field, uint32_t group,
		   const char *old, const char *new_value)
{
	struct rc_change ch = {.kind = RC_CHANGE_SET, .group = group};

	snprintf(ch.port, sizeof(ch.port), "%s", port);
	snprintf(ch.field, sizeof(ch.field), "%s", field);
	snprintf(ch.old_value, sizeof(ch.old_value), "%s", old);
	snprintf(ch.new_value, sizeof(ch.new_value), "%s", new_value);
	assert_int_equal(rc_array_reserve((void **)&c->v, &c->cap, c->n + 1, sizeof(*c->v), 8), 0);
	c->v[c->n++] = ch;
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f || !rc_test_tmpdir(f->dir, sizeof(f->dir), "history"))
		return -1;
	snprintf(f->hist, sizeof(f->hist), "%s/a/history", f->dir);
	snprintf(f->journal, sizeof(f->journal), "%s/journal", f->dir);
	snprintf(f->policy, sizeof(f->policy), "%s/policy.yaml", f->dir);
	if (rc_test_write(f->dir, "policy.yaml", "abc"))
		return -1;
	snprintf(f->dev.name, sizeof(f->dev.name), "leaf01");
	snprintf(f->dev.address, sizeof(f->dev.address), "127.1.0.1");
	/* swp1: DSCP 26 on priority 0 and PFC off (both drifted, PFC held back);
	 * swp2: in sync */
	for (int i = 0; i < 2; i++) {
		snprintf(f->have[i].name, sizeof(f->have[i].name), "swp%d", i + 1);
		f->have[i].qos.known = RC_F_DSCP2PRIO | RC_F_PFC | RC_F_TRUST;
		f->have[i].qos.trust = RC_TRUST_DSCP;
		f->have[i].qos.dscp_mask = 1ull << 26;
		f->have[i].qos.dscp2prio[26] = i ? 3 : 0;
		f->have[i].qos.pfc_enabled = i ? 1u << 3 : 0;
	}
	f->write_fields[0] = RC_F_DSCP2PRIO;
	f->run.dev = &f->dev;
	f->run.n_ports = 2;
	f->run.have = f->have;
	f->run.write_fields = f->write_fields;
	f->run.read_ok = true;
	f->run.hold_groups = RC_F_PFC;
	change(&f->run.changes, "swp1", "dscp2prio[26]", RC_F_DSCP2PRIO, "0", "3");
	change(&f->run.changes, "swp1", "pfc_enabled", RC_F_PFC, "none", "3");
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[512];

	rc_changes_fini(&f->run.changes);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	assert_int_equal(system(cmd), 0);
	free(f);
	return 0;
}

static void write_record(struct fixture *f, const char *run_id)
{
	struct rc_history h;
	struct rc_err err = {0};

	assert_int_equal(rc_history_begin(&h, "apply", run_id, f->policy, NULL, &err), 0);
	assert_int_equal(rc_history_add(&h, &f->run, "pending"), 0);
	rc_history_result(&h, "leaf01", "applied", NULL);
	rc_history_result(&h, "gpu001", "failed", "'gpu001': connection refused\n\x1b[2J");
	assert_int_equal(rc_history_write(&h, f->hist, 0, &err), 0);
	rc_history_fini(&h);
}

static void test_record_round_trip(void **state)
{
	struct fixture *f = *state;
	struct rc_history h;
	struct rc_err err = {0};
	char path[512], want[RC_SHA256_HEX_LEN];
	struct stat st;

	write_record(f, "20261203T101500.000Z-42");
	snprintf(path, sizeof(path), "%s/20261203T101500.000Z-42.json", f->hist);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(stat(f->hist, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);

	assert_int_equal(rc_history_load(f->hist, "20261203T101500.000Z-42", &h, &err), 0);
	assert_string_equal(h.command, "apply");
	assert_true(h.user[0] != '\0');
	assert_true(h.host[0] != '\0');
	rc_sha256_hex("abc", 3, want);
	assert_string_equal(h.policy_sha256, want);
	assert_string_equal(h.inventory, "");
	assert_int_equal(h.n, 2);
	assert_string_equal(h.devs[0].device, "leaf01");
	assert_string_equal(h.devs[0].result, "applied");
	/* only what was written: the held PFC change is not in the record */
	assert_int_equal(h.devs[0].changes.n, 1);
	assert_string_equal(h.devs[0].changes.v[0].field, "dscp2prio[26]");
	assert_string_equal(h.devs[0].changes.v[0].old_value, "0");
	assert_string_equal(h.devs[0].changes.v[0].new_value, "3");
	/* pre-change values: swp1 only, DSCP2PRIO only */
	assert_int_equal(h.devs[0].n_ports, 1);
	assert_string_equal(h.devs[0].before[0].name, "swp1");
	assert_int_equal(h.devs[0].before[0].qos.known, RC_F_DSCP2PRIO);
	assert_int_equal(h.devs[0].before[0].qos.dscp2prio[26], 0);
	/* a device's message is one printable line */
	assert_string_equal(h.devs[1].result, "failed");
	assert_null(strchr(h.devs[1].error, '\n'));
	assert_null(strchr(h.devs[1].error, '\x1b'));
	rc_history_fini(&h);
}

static void test_list_is_oldest_first_and_skips_strangers(void **state)
{
	struct fixture *f = *state;
	struct rc_err err = {0};
	char **ids;
	size_t n;

	write_record(f, "20261203T101500.000Z-42");
	write_record(f, "20261202T090000.000Z-7");
	assert_int_equal(rc_test_write(f->hist, "notes.txt", "x"), 0);
	assert_int_equal(rc_test_write(f->hist, ".hidden.json", "{}"), 0);
	assert_int_equal(rc_history_list(f->hist, &ids, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(ids[0], "20261202T090000.000Z-7");
	assert_string_equal(ids[1], "20261203T101500.000Z-42");
	rc_history_ids_free(ids, n);
}

static int link_or_copy_helper(const char *from, const char *to)
{
	char *text = rc_test_slurp_file(from, NULL);
	FILE *out = fopen(to, "w");
	int rc = text && out && fputs(text, out) >= 0 ? 0 : -1;

	if (out && fclose(out))
		rc = -1;
	free(text);
	return rc;
}

static void test_refuses_records_not_ours(void **state)
{
	struct fixture *f = *state;
	struct rc_history h;
	struct rc_err err = {0};
	char target[512], link[512];

	write_record(f, "20261203T101500.000Z-42");
	assert_int_equal(rc_history_load(f->hist, "../journal", &h, &err), -EINVAL);
	assert_int_equal(rc_history_load(f->hist, "20991231T000000.000Z-1", &h, &err), -ENOENT);
	assert_int_equal(rc_test_write(f->hist, "r1.json", "{\"devices\": []}"), 0);
	assert_true(rc_history_load(f->hist, "r1", &h, &err) < 0);
	assert_non_null(strstr(err.msg, "not a rocectl.history/v1 record"));
	/* a record that names another run (copied or renamed) */
	snprintf(target, sizeof(target), "%s/20261203T101500.000Z-42.json", f->hist);
	snprintf(link, sizeof(link), "%s/r2.json", f->hist);
	assert_int_equal(link_or_copy_helper(target, link), 0);
	assert_true(rc_history_load(f->hist, "r2", &h, &err) < 0);
	assert_non_null(strstr(err.msg, "names run"));
	snprintf(link, sizeof(link), "%s/r3.json", f->hist);
	assert_int_equal(symlink(target, link), 0);
	assert_true(rc_history_load(f->hist, "r3", &h, &err) < 0);
	assert_non_null(strstr(err.msg, "symbolic link"));
}

/* Undo of a finished run: the journal gets leaf01's swp1 DSCP2PRIO as it was, nothing of
 * PFC (held, not written) or swp2 (in sync), and nothing for the failed gpu001. */
static void test_undo_goes_through_the_journal(void **state)
{
	struct fixture *f = *state;
	struct rc_journal_entry *e;
	struct rc_err err = {0};
	size_t n, saved;

	write_record(f, "20261203T101500.000Z-42");
	assert_int_equal(
	    rc_history_to_journal(f->hist, "20261203T101500.000Z-42", f->journal, &saved, &err), 0);
	assert_int_equal(saved, 1);
	assert_int_equal(rc_journal_list(f->journal, "20261203T101500.000Z-42", &e, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_string_equal(e[0].device, "leaf01");
	assert_string_equal(e[0].address, "127.1.0.1");
	assert_int_equal(e[0].n_ports, 1);
	assert_int_equal(e[0].ports[0].qos.known, RC_F_DSCP2PRIO);
	assert_int_equal(e[0].ports[0].qos.dscp2prio[26], 0);
	rc_journal_entries_free(e, n);
	assert_int_equal(
	    rc_history_to_journal(f->hist, "20991231T000000.000Z-1", f->journal, &saved, &err),
	    -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_record_round_trip, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_list_is_oldest_first_and_skips_strangers, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_refuses_records_not_ours, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_undo_goes_through_the_journal, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
