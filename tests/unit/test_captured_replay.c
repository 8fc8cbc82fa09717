/* Replay of field captures (`rocectl capture`, cli/cmd_capture.c): every file under
 * tests/data/<platform>/captured/ (any depth) is fed to the parser its header names by
 * platform and command, and must parse; a file whose header says `# expect: error` must
 * fail with a message.  Adding a real device's capture needs no code: a command no parser
 * is known for fails this test, naming the file. */
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
#include "../../drivers/switch/nvue.h"
#include "../../drivers/switch/sonic.h"

struct capture {
	char platform[32], command[512], format[16];
	bool expect_error;
	const char *body;
	size_t len;
};

/* The provenance header (cli/cmd_capture.c), up to "# ---". */
static int header(char *buf, size_t len, struct capture *c)
{
	char *p = buf, *end = buf + len;

	memset(c, 0, sizeof(*c));
	if (strncmp(buf, "# rocectl-capture v1\n", 21))
		return -1;
	while (p < end) {
		char *nl = memchr(p, '\n', (size_t)(end - p));

		if (!nl)
			return -1;
		*nl = '\0';
		if (!strcmp(p, "# ---")) {
			c->body = nl + 1;
			c->len = (size_t)(end - c->body);
			return c->platform[0] && c->command[0] ? 0 : -1;
		}
		if (!strncmp(p, "# platform: ", 12))
			snprintf(c->platform, sizeof(c->platform), "%s", p + 12);
		else if (!strncmp(p, "# command: ", 11))
			snprintf(c->command, sizeof(c->command), "%s", p + 11);
		else if (!strncmp(p, "# format: ", 10))
			snprintf(c->format, sizeof(c->format), "%s", p + 10);
		else if (!strcmp(p, "# expect: error"))
			c->expect_error = true;
		p = nl + 1;
	}
	return -1;
}

static size_t pieces(const char *cmd)
{
	size_t n = 1;

	for (const char *p = cmd; (p = strstr(p, " && ")); p += 4)
		n++;
	return n;
}

static bool is(const char *cmd, const char *prefix)
{
	return !strncmp(cmd, prefix, strlen(prefix));
}

/* EOS views are laid over a port's running-config reading; any port name will do. */
static int eos_text(const struct capture *c, struct rc_err *err)
{
	struct eos_config cfg = {0};
	struct eos_port_info info = {0};
	struct port_qos q = {0};
	bool uc = false;
	int rc = -ENOSYS;

	if (is(c->command, "show running-config") || is(c->command, "show startup-config"))
		rc = eos_parse_config_text(c->body, c->len, c->command, &cfg, err);
	else if (!strcmp(c->command, "show priority-flow-control"))
		rc = eos_view_pfc(NULL, c->body, c->len, "Ethernet1", &q, &info, err);
	else if (!strcmp(c->command, "show qos interfaces trust"))
		rc = eos_view_trust(NULL, c->body, c->len, "Ethernet1", &q, err);
	else if (!strcmp(c->command, "show qos interfaces ecn"))
		rc = eos_view_ecn(c->body, c->len, "Ethernet1", &q, &info, &uc, err);
	eos_config_free(&cfg);
	return rc;
}

static int eos_json(const struct capture *c, struct rc_err *err)
{
	cJSON *j = cJSON_ParseWithLength(c->body, c->len);
	struct eos_config cfg = {0};
	struct eos_port_info info = {0};
	struct port_qos q = {0};
	struct rc_counters ctr = {0};
	int rc = -ENOSYS;

	if (!j) {
		rc = rc_errf(err, EPROTO, "'%s': not JSON", c->command);
	} else if (!strcmp(c->command, "show running-config")) {
		rc = eos_parse_config_json(j, c->command, &cfg, err);
	} else if (!strcmp(c->command, "show priority-flow-control")) {
		rc = eos_view_pfc(j, NULL, 0, "Ethernet1", &q, &info, err);
	} else if (!strcmp(c->command, "show qos interfaces trust")) {
		rc = eos_view_trust(j, NULL, 0, "Ethernet1", &q, err);
	} else if (!strcmp(c->command, "show qos maps")) {
		rc = eos_view_maps(j, &q, err);
	} else if (!strcmp(c->command, "show priority-flow-control counters")) {
		rc = eos_parse_counters(j, NULL, "Ethernet1", &ctr, err);
	}
	eos_config_free(&cfg);
	rc_counters_free(&ctr);
	cJSON_Delete(j);
	return rc;
}

static int replay(const struct capture *c, struct rc_err *err)
{
	cJSON *docs[64] = {0}, *one = NULL;
	size_t n = pieces(c->command);
	int rc = -ENOSYS;

	if (!strcmp(c->platform, "eos"))
		return strcmp(c->format, "json") ? eos_text(c, err) : eos_json(c, err);
	if (!strcmp(c->platform, "nvue") && is(c->command, "nv show ") && n <= 64) {
		rc = nvue_parse_json_seq(c->body, c->len, c->command, docs, n, err);
	} else if (!strcmp(c->platform, "nvue") && is(c->command, "GET ")) {
		rc = nvue_parse_json(c->body, c->len, c->command, &one, err);
	} else if (!strcmp(c->platform, "sonic") &&
		   !strcmp(c->command, "show runningconfiguration all")) {
		rc = sonic_parse_configdb(c->body, c->len, c->command, &one, err);
	} else if (!strcmp(c->platform, "sonic") && is(c->command, "sonic-db-cli ") && n <= 64) {
		rc = sonic_parse_pydict_lines(c->body, c->len, c->command, docs, n, err);
	}
	for (size_t i = 0; i < 64; i++)
		cJSON_Delete(docs[i]);
	cJSON_Delete(one);
	return rc;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		fail_msg("cannot open %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void walk(const char *dir, size_t *files)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char path[2048];
		struct stat st;
		struct capture c;
		struct rc_err err = {0};
		size_t len;
		char *buf;
		int rc;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (stat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			walk(path, files);
			continue;
		}
		buf = slurp(path, &len);
		if (header(buf, len, &c))
			fail_msg("%s: no rocectl-capture v1 header", path);
		rc = replay(&c, &err);
		if (rc == -ENOSYS)
			fail_msg("%s: no parser for platform '%s' command '%s'", path, c.platform,
				 c.command);
		if (c.expect_error && (rc >= 0 || !err.msg[0]))
			fail_msg("%s: hostile capture was accepted", path);
		if (!c.expect_error && rc < 0)
			fail_msg("%s: %s", path, err.msg);
		free(buf);
		(*files)++;
	}
	closedir(d);
}

static void test_replay(void **state)
{
	static const char *const platforms[] = {"eos", "nvue", "sonic", "host"};
	const char *src = getenv("SRC_DIR");
	size_t files = 0;
	(void)state;

	for (size_t i = 0; i < sizeof(platforms) / sizeof(platforms[0]); i++) {
		char dir[1024];

		snprintf(dir, sizeof(dir), "%s/tests/data/%s/captured", src && *src ? src : ".",
			 platforms[i]);
		walk(dir, &files);
	}
	assert_true(files >= 10);
}

/* The dispatcher itself: an unknown command is no parser, a hostile body an error. */
static void test_dispatch(void **state)
{
	struct capture c = {.platform = "eos", .command = "show bogus", .format = "text"};
	struct rc_err err = {0};
	(void)state;

	c.body = "x\n";
	c.len = 2;
	assert_int_equal(replay(&c, &err), -ENOSYS);
	snprintf(c.command, sizeof(c.command), "show qos interfaces trust");
	c.body = "Ethernet1:\n   Trust Mode: SOMETIMES\n";
	c.len = strlen(c.body);
	assert_true(replay(&c, &err) < 0);
	assert_non_null(strstr(err.msg, "show qos interfaces trust"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_dispatch),
	    cmocka_unit_test(test_replay),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
