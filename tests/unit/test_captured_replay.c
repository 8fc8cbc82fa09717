/* SPDX-License-Identifier: Apache-2.0 */
/* Replay of field captures (`rocectl capture`, cli/cmd_capture.c): every file under
 * tests/data/<platform>/captured/ (any depth) is fed to the parser its header names by
 * platform and command, and must parse; a file whose header says `# expect: error` must
 * fail with a message.  Adding a real device's capture needs no code: a command no parser
 * is known for fails this test, naming the file. */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cJSON.h>
#include <cmocka.h>

#include "rocectl/journal.h"

#include "../../drivers/host/agent_answer.h"
#include "../../drivers/host/host.h"
#include "../../drivers/host/lldpd.h"
#include "../../drivers/switch/eos.h"
#include "../../drivers/switch/nvue.h"
#include "../../drivers/switch/sonic.h"
#include "testutil.h"

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

/* ---- hosts: `rocectl agent state --raw` and `lldpcli -f json0 show neighbors` ---------- */

static int hex_decode(const char *hex, unsigned char **out, size_t *len)
{
	size_t n = strlen(hex);

	if (n % 2 || !n)
		return -EINVAL;
	*out = malloc(n / 2);
	if (!*out)
		return -ENOMEM;
	for (size_t i = 0; i < n / 2; i++) {
		unsigned v = 0;

		for (int k = 0; k < 2; k++) {
			char ch = hex[2 * i + (size_t)k];

			v <<= 4;
			if (ch >= '0' && ch <= '9')
				v |= (unsigned)(ch - '0');
			else if (ch >= 'a' && ch <= 'f')
				v |= (unsigned)(ch - 'a' + 10);
			else {
				free(*out);
				return -EINVAL;
			}
		}
		(*out)[i] = (unsigned char)v;
	}
	*len = n / 2;
	return 0;
}

/* The DCB replies the agent parsed, parsed again: they must give what it reported. */
static int host_netlink(const char *ifname, const cJSON *arr, const struct port_qos *q,
			struct rc_err *err)
{
	const cJSON *e;

	cJSON_ArrayForEach(e, arr)
	{
		const char *hex =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "reply"));
		const cJSON *cmd = cJSON_GetObjectItemCaseSensitive(e, "cmd");
		struct rc_dcb_state st;
		struct rc_dcb_caps caps;
		unsigned char *buf;
		size_t len;
		int rc;

		if (!hex || !cJSON_IsNumber(cmd) || hex_decode(hex, &buf, &len))
			return rc_errf(err, EPROTO, "'%s': a netlink entry without cmd/hex reply",
				       ifname);
		memset(&st, 0, sizeof(st));
		if (cmd->valueint == DCB_CMD_IEEE_GET) {
			rc = rc_dcb_parse_ieee_get(buf, len, ifname, &st, err);
			if (!rc && st.has_pfc && (q->known & RC_F_PFC) &&
			    st.pfc.pfc_en != q->pfc_enabled)
				rc =
				    rc_errf(err, EPROTO,
					    "'%s': the IEEE_GET reply has pfc_en 0x%02x, the agent "
					    "reported 0x%02x",
					    ifname, st.pfc.pfc_en, q->pfc_enabled);
		} else if (cmd->valueint == DCB_CMD_GCAP) {
			rc = rc_dcb_parse_gcap(buf, len, ifname, &caps, err);
		} else {
			rc = rc_errf(err, EPROTO, "'%s': no parser for DCB command %d", ifname,
				     cmd->valueint);
		}
		free(buf);
		if (rc)
			return rc;
	}
	return 0;
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* A relative path without "." or ".." components: what a rebuilt tree may hold. */
static bool tree_path_ok(const char *p)
{
	return p && *p && *p != '/' && !strstr(p, "..") && !strstr(p, "//") && !strstr(p, "/./") &&
	       strncmp(p, "./", 2);
}

static int mkdirs(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	return 0;
}

/* Rebuild the files the agent read under a fresh root, so the driver's own reader runs on
 * them. */
static int build_tree(const char *root, const cJSON *files, const char *ifname, struct rc_err *err)
{
	const cJSON *e;

	cJSON_ArrayForEach(e, files)
	{
		const char *rel = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "path"));
		const char *val =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "value"));
		const char *vhex =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "value_hex"));
		const char *link =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "link"));
		bool is_dir = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "dir"));
		unsigned char *bytes = NULL;
		size_t nbytes = 0;
		char path[4096];
		bool ok = true;
		FILE *f;

		if (!tree_path_ok(rel))
			return rc_errf(err, EPROTO, "'%s': unusable file path in the capture",
				       ifname);
		if (vhex && hex_decode(vhex, &bytes, &nbytes))
			return rc_errf(err, EPROTO, "'%s': a value_hex that is not hex", ifname);
		/* what was absent stays absent: not even its parent directories */
		if (!is_dir && !val && !bytes && !link)
			continue;
		snprintf(path, sizeof(path), "%s/%s", root, rel);
		if (mkdirs(path)) {
			free(bytes);
			return rc_errf(err, EIO, "cannot create the directories of '%s'", path);
		}
		if (is_dir) {
			ok = !mkdir(path, 0755) || errno == EEXIST;
		} else if (val || bytes) {
			f = fopen(path, "w");
			ok = f && (bytes ? fwrite(bytes, 1, nbytes, f) == nbytes
					 : fprintf(f, "%s\n", val) >= 0);
			if (f && fclose(f))
				ok = false;
		} else if (*link == '/' || (symlink(link, path) && errno != EEXIST)) {
			free(bytes);
			return rc_errf(err, EPROTO, "'%s': unusable link '%s'", ifname, link);
		}
		free(bytes);
		if (!ok)
			return rc_errf(err, EIO, "cannot create '%s'", path);
	}
	return 0;
}

static int differs(const char *ifname, const char *what, long long replayed, long long reported,
		   struct rc_err *err)
{
	return rc_errf(err, EPROTO,
		       "'%s': the captured files give %s %lld, the agent reported %lld", ifname,
		       what, replayed, reported);
}

/* The NIC knobs (ECN enables, CNP marking, DCQCN) read again by rc_mlx5_read from the
 * files the agent read: the same values it reported, through the same route. */
static int host_files(const char *ifname, const cJSON *files, const struct port_qos *q,
		      struct rc_err *err)
{
	char root[256];
	struct rc_mlx5_state st;
	int rc;

	snprintf(root, sizeof(root), "%s/rc-replay-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(root))
		return rc_errf(err, errno, "cannot create a replay directory");
	rc = build_tree(root, files, ifname, err);
	if (!rc)
		rc = rc_mlx5_read(root, ifname, NULL, RC_HOST_SEC_ECN, &st, err);
	nftw(root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	if (rc)
		return rc;
	if (!!(q->known & RC_F_NIC_ECN) != st.has_ecn)
		return differs(ifname, "ECN enables known", st.has_ecn, !!(q->known & RC_F_NIC_ECN),
			       err);
	if (st.has_ecn && (st.np != q->nic_ecn_np || st.rp != q->nic_ecn_rp))
		return differs(ifname, "ECN np|rp<<8", st.np | st.rp << 8,
			       q->nic_ecn_np | q->nic_ecn_rp << 8, err);
	if (!!(q->known & RC_F_CNP) != st.has_cnp)
		return differs(ifname, "CNP known", st.has_cnp, !!(q->known & RC_F_CNP), err);
	if (st.has_cnp && st.cnp_dscp != q->cnp_dscp)
		return differs(ifname, "cnp.dscp", st.cnp_dscp, q->cnp_dscp, err);
	if (st.has_cnp && st.cnp_prio != q->cnp_prio)
		return differs(ifname, "cnp.prio", st.cnp_prio, q->cnp_prio, err);
	if (!!(q->known & RC_F_DCQCN) != st.has_dcqcn)
		return differs(ifname, "DCQCN known", st.has_dcqcn, !!(q->known & RC_F_DCQCN), err);
	if (st.has_dcqcn && st.dcqcn_mask != q->dcqcn_mask)
		return differs(ifname, "the DCQCN parameter mask", st.dcqcn_mask, q->dcqcn_mask,
			       err);
	for (int i = 0; st.has_dcqcn && i < RC_DCQCN_N; i++)
		if ((st.dcqcn_mask & (1u << i)) && st.dcqcn[i] != q->dcqcn[i])
			return differs(ifname, rc_dcqcn_name(i), st.dcqcn[i], q->dcqcn[i], err);
	return 0;
}

static int host_state(const struct capture *c, struct rc_err *err)
{
	const cJSON *arr, *e;
	cJSON *j = NULL;
	int rc =
	    rc_agent_answer_parse("captured", c->command, c->body, c->len, NULL, 0, 0, &j, err);

	if (!rc)
		rc = rc_agent_protocol_check("captured", j, err);
	arr = cJSON_GetObjectItemCaseSensitive(j, "interfaces");
	if (!rc && !cJSON_IsArray(arr))
		rc = rc_errf(err, EPROTO, "'%s': no interfaces", c->command);
	cJSON_ArrayForEach(e, arr)
	{
		const char *ifname =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "interface"));
		const cJSON *raw = cJSON_GetObjectItemCaseSensitive(e, "raw");
		struct port_qos q;

		if (rc)
			break;
		if (!ifname || !rc_host_ifname_ok(ifname)) {
			rc = rc_errf(err, EPROTO, "'%s': an interface without a usable name",
				     c->command);
			break;
		}
		/* an interface the agent could not read is an answer too (its message) */
		if (cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "error")))
			continue;
		rc = rc_port_qos_from_cjson(cJSON_GetObjectItemCaseSensitive(e, "qos"), &q, err);
		if (!rc && raw)
			rc = host_netlink(ifname, cJSON_GetObjectItemCaseSensitive(raw, "netlink"),
					  &q, err);
		if (!rc && raw)
			rc = host_files(ifname, cJSON_GetObjectItemCaseSensitive(raw, "files"), &q,
					err);
	}
	cJSON_Delete(j);
	return rc;
}

static int host_replay(const struct capture *c, struct rc_err *err)
{
	struct rc_neighbors nb = {0};
	size_t n = c->len;
	int rc;

	if (strstr(c->command, "agent state"))
		return host_state(c, err);
	if (!is(c->command, "lldpcli "))
		return -ENOSYS;
	while (n && (c->body[n - 1] == '\n' || c->body[n - 1] == ' '))
		n--;
	/* No answer: no LLDP agent on the host, which the driver reports as unknown. */
	if (!n)
		return 0;
	rc = rc_lldpd_parse(c->body, c->len, "captured", &nb, err);
	rc_neighbors_fini(&nb);
	return rc;
}

static int replay(const struct capture *c, struct rc_err *err)
{
	cJSON *docs[64] = {0}, *one = NULL;
	size_t n = pieces(c->command);
	int rc = -ENOSYS;

	if (!strcmp(c->platform, "eos"))
		return strcmp(c->format, "json") ? eos_text(c, err) : eos_json(c, err);
	if (!strcmp(c->platform, "host"))
		return host_replay(c, err);
	if (!strcmp(c->platform, "nvue") && is(c->command, "nv show ") && n <= 64) {
		rc = nvue_parse_json_seq(c->body, c->len, c->command, docs, n, err);
	} else if (!strcmp(c->platform, "nvue") && is(c->command, "GET ")) {
		rc = nvue_parse_json(c->body, c->len, c->command, &one, err);
	} else if (!strcmp(c->platform, "sonic") &&
		   (!strcmp(c->command, "show runningconfiguration all") ||
		    !strcmp(c->command, "cat /etc/sonic/config_db.json"))) {
		/* the running configuration, and the startup one: the same CONFIG_DB format */
		rc = sonic_parse_configdb(c->body, c->len, c->command, &one, err);
	} else if (!strcmp(c->platform, "sonic") &&
		   is(c->command, "cat /usr/share/sonic/device/")) {
		struct sonic_rows rows = {0};

		rc = sonic_parse_lookup(c->body, c->len, c->command, &rows, err);
		if (!rc && !rows.n)
			rc = rc_errf(err, EPROTO, "'%s': no row", c->command);
	} else if (!strcmp(c->platform, "sonic") && is(c->command, "sonic-db-cli ") && n <= 64) {
		rc = sonic_parse_pydict_lines(c->body, c->len, c->command, docs, n, err);
	}
	for (size_t i = 0; i < 64; i++)
		cJSON_Delete(docs[i]);
	cJSON_Delete(one);
	return rc;
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
		buf = rc_test_slurp_file(path, &len);
		if (!buf)
			fail_msg("cannot read %s", path);
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
