/* SPDX-License-Identifier: Apache-2.0 */
/* switchsim-ctl: what simctl does to the switches' state files.
 *
 *   switchsim-ctl --run-dir RUN add NAME ADDR PLATFORM [MODEL]
 *   switchsim-ctl --run-dir RUN add-batch     (lines "NAME ADDR PLATFORM [MODEL]" on stdin)
 *   switchsim-ctl --run-dir RUN fault NAME reject-next [N] | hang [always] | drop-after N |
 *                                       slow MS | clear | http-error N [STATUS] [after] |
 *                                       drift [ROOT:]PATH=VALUE... |
 *                                       rate PATH=PER_SECOND... | rate clear |
 *                                       lldp PORT=DEVICE:PORTID[,TYPE]... | lldp PORT=
 *   switchsim-ctl --run-dir RUN dump NAME
 *
 * drift paths are dotted (qos.roce.mode=lossy); ROOT is config (default), oper or counters;
 * VALUE is JSON when it parses as JSON, else a string; an empty VALUE removes the path.
 * rate PATH (a counters path, as drift's) makes that counter grow by PER_SECOND from now
 * on (rates.c); 0 freezes it; `rate clear` freezes every one.  lldp PORT=DEVICE:PORTID[,TYPE]
 * is the neighbour the switch's LLDP agent sees on PORT (st["lldp"]; PORT= forgets it;
 * set_lldp). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim.h"

static int usage(void)
{
	fprintf(stderr, "usage: switchsim-ctl --run-dir RUN add NAME ADDR PLATFORM [MODEL]\n"
			"       switchsim-ctl --run-dir RUN add-batch < lines\n"
			"       switchsim-ctl --run-dir RUN fault NAME FAULT [ARGS]\n"
			"       switchsim-ctl --run-dir RUN dump NAME\n"
			"       switchsim-ctl --run-dir RUN reboot NAME\n");
	return 2;
}

static int write_small(const char *path, const char *text)
{
	char tmp[SIM_PATH_MAX + 16];
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	size_t len = strlen(text);
	if (write(fd, text, len) != (ssize_t)len) {
		close(fd);
		unlink(tmp);
		return -EIO;
	}
	if (close(fd) < 0 || rename(tmp, path) < 0)
		return -errno;
	return 0;
}

static int cmd_add(const char *run, int argc, char **argv)
{
	char err[SIM_ERR_MAX], path[SIM_PATH_MAX];
	if (argc < 3 || argc > 4)
		return usage();
	const char *name = argv[0], *addr = argv[1], *platform = argv[2];
	const struct sim_dialect *d = sim_dialect_find(platform);
	if (!is_safe_name(name) || strchr(name, ':')) {
		fprintf(stderr, "switchsim-ctl: invalid switch name '%s'\n", name);
		return 1;
	}
	if (!is_safe_name(addr)) {
		fprintf(stderr, "switchsim-ctl: invalid address '%s'\n", addr);
		return 1;
	}
	if (!d) {
		fprintf(stderr, "switchsim-ctl: unknown platform '%s' (nvue, sonic, eos)\n",
			platform);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/by-addr/%s", run, addr);
	if (access(path, F_OK) == 0) {
		fprintf(stderr, "switchsim-ctl: address '%s' is already used\n", addr);
		return 1;
	}
	cJSON *st = cJSON_CreateObject();
	jput(st, "name", cJSON_CreateString(name));
	jput(st, "hostname", cJSON_CreateString(name));
	jput(st, "address", cJSON_CreateString(addr));
	jput(st, "platform", cJSON_CreateString(platform));
	jput(st, "faults", cJSON_CreateObject());
	jput(st, "counters", cJSON_CreateObject());
	if (d->factory(st, argc == 4 ? argv[3] : d->default_model, err, sizeof(err)) < 0 ||
	    sim_switch_create(run, name, st, err, sizeof(err)) < 0) {
		fprintf(stderr, "switchsim-ctl: %s\n", err);
		cJSON_Delete(st);
		return 1;
	}
	cJSON_Delete(st);
	char line[SIM_NAME_MAX + 2];
	snprintf(line, sizeof(line), "%s\n", name);
	int rc = write_small(path, line);
	if (rc < 0) {
		fprintf(stderr, "switchsim-ctl: cannot write '%s': %s\n", path, strerror(-rc));
		return 1;
	}
	return 0;
}

static int cmd_add_batch(const char *run)
{
	char line[512];
	int lineno = 0;
	while (fgets(line, sizeof(line), stdin)) {
		char *words[5];
		int n = 0;
		char *save = NULL;
		lineno++;
		for (char *w = strtok_r(line, " \t\n", &save); w && n < 5;
		     w = strtok_r(NULL, " \t\n", &save))
			words[n++] = w;
		if (n == 0)
			continue;
		if (n < 3 || n > 4) {
			fprintf(stderr,
				"switchsim-ctl: line %d: expected NAME ADDR PLATFORM [MODEL]\n",
				lineno);
			return 1;
		}
		if (cmd_add(run, n, words) != 0)
			return 1;
	}
	return 0;
}

static int drift(struct sim_ctx *ctx, const struct sim_dialect *d, char *spec, char *err,
		 size_t errlen)
{
	char *eq = strchr(spec, '=');
	char *parts[32];
	const char *root = "config";
	if (!eq) {
		snprintf(err, errlen, "drift: expected PATH=VALUE, got '%s'", spec);
		return -1;
	}
	*eq = '\0';
	char *colon = strchr(spec, ':');
	if (colon) {
		*colon = '\0';
		root = spec;
		spec = colon + 1;
		if (strcmp(root, "config") && strcmp(root, "oper") && strcmp(root, "counters")) {
			snprintf(err, errlen, "drift: unknown root '%s' (config, oper, counters)",
				 root);
			return -1;
		}
	}
	int n = split_path(spec, '.', parts, 32);
	if (n <= 0) {
		snprintf(err, errlen, "drift: bad path");
		return -1;
	}
	for (int i = 0; i < n; i++)
		if (!*parts[i]) {
			snprintf(err, errlen, "drift: empty element in path");
			return -1;
		}
	return d->drift(ctx, root, parts, n, jparse_loose(eq + 1), err, errlen);
}

/* A port ID as a device may send it: a name, an alias (Ethernet1/1), a MAC. */
static bool port_id_ok(const char *s)
{
	size_t n = strlen(s);
	if (!n || n >= SIM_NAME_MAX)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("._:/-", *s))
			return false;
	return true;
}

/* PORT=DEVICE:PORTID[,TYPE]: what the switch's LLDP agent sees on PORT.  DEVICE is the
 * neighbour's system name, empty when it sends none (a NIC's firmware agent,
 * conformance host/FACTS.md fact 10); PORTID is everything after the first ':' (a MAC
 * holds colons); TYPE is lldpd's word for its subtype: ifname (default), local (SONiC's
 * alias, lldpmgrd) or mac. */
static int set_lldp(cJSON *st, const char *spec, char *err, size_t errlen)
{
	char port[SIM_NAME_MAX], dev[SIM_NAME_MAX], rport[SIM_NAME_MAX];
	const char *eq = strchr(spec, '='), *colon = eq ? strchr(eq, ':') : NULL;
	const char *type = "ifname";
	cJSON *lldp = jget1(st, "lldp");

	if (!eq || eq == spec || (size_t)(eq - spec) >= sizeof(port)) {
		snprintf(err, errlen, "lldp: expected PORT=DEVICE:PORT, got '%s'", spec);
		return -1;
	}
	memcpy(port, spec, (size_t)(eq - spec));
	port[eq - spec] = '\0';
	if (!cJSON_IsObject(lldp)) {
		lldp = cJSON_CreateObject();
		jput(st, "lldp", lldp);
	}
	if (!eq[1]) {
		cJSON_DeleteItemFromObjectCaseSensitive(lldp, port);
		return 0;
	}
	if (!colon || !colon[1] || (size_t)(colon - eq - 1) >= sizeof(dev) ||
	    strlen(colon + 1) >= sizeof(rport)) {
		snprintf(err, errlen, "lldp: expected PORT=DEVICE:PORT, got '%s'", spec);
		return -1;
	}
	memcpy(dev, eq + 1, (size_t)(colon - eq - 1));
	dev[colon - eq - 1] = '\0';
	snprintf(rport, sizeof(rport), "%s", colon + 1);
	char *comma = strrchr(rport, ',');
	if (comma) {
		*comma = '\0';
		type = comma + 1;
	}
	if (!is_safe_name(port) || (dev[0] && !is_safe_name(dev)) || !port_id_ok(rport) ||
	    (strcmp(type, "ifname") && strcmp(type, "local") && strcmp(type, "mac"))) {
		snprintf(err, errlen, "lldp: bad name or type in '%s' (TYPE: ifname, local, mac)",
			 spec);
		return -1;
	}
	cJSON *e = cJSON_CreateObject();
	jput(e, "host", cJSON_CreateString(dev));
	jput(e, "port", cJSON_CreateString(rport));
	jput(e, "type", cJSON_CreateString(type));
	jput(lldp, port, e);
	return 0;
}

static int cmd_fault(const char *run, int argc, char **argv)
{
	char err[SIM_ERR_MAX];
	struct sim_switch sw;
	if (argc < 2)
		return usage();
	if (sim_switch_open(run, argv[0], &sw, err, sizeof(err)) < 0) {
		fprintf(stderr, "switchsim-ctl: %s\n", err);
		return 1;
	}
	int rc = 0;
	if (!strcmp(argv[1], "drift")) {
		const struct sim_dialect *d = sim_dialect_of(sw.st);
		struct sim_ctx ctx = {.st = sw.st, .user = "drift"};
		if (argc < 3) {
			snprintf(err, sizeof(err), "drift: expected PATH=VALUE");
			rc = -1;
		}
		for (int i = 2; i < argc && rc == 0; i++)
			rc = drift(&ctx, d, argv[i], err, sizeof(err));
	} else if (!strcmp(argv[1], "lldp")) {
		for (int i = 2; i < argc && rc == 0; i++)
			rc = set_lldp(sw.st, argv[i], err, sizeof(err));
		if (argc < 3) {
			snprintf(err, sizeof(err), "lldp: expected PORT=DEVICE:PORT");
			rc = -1;
		}
	} else if (!strcmp(argv[1], "rate")) {
		if (argc < 3) {
			snprintf(err, sizeof(err), "rate: expected PATH=PER_SECOND or clear");
			rc = -1;
		} else if (argc == 3 && !strcmp(argv[2], "clear")) {
			sim_rates_clear(sw.st);
		}
		for (int i = 2; i < argc && rc == 0 && strcmp(argv[2], "clear"); i++)
			rc = sim_rates_set(sw.st, argv[i], err, sizeof(err));
	} else {
		rc = sim_fault_set(sw.st, argc - 1, argv + 1, err, sizeof(err));
	}
	if (rc == 0)
		rc = sim_switch_save(&sw, err, sizeof(err));
	sim_switch_close(&sw);
	if (rc < 0) {
		fprintf(stderr, "switchsim-ctl: %s\n", err);
		return 1;
	}
	return 0;
}

/* The sleeper of a timed commit (timer.c): wait for DEADLINE (epoch seconds), then open
 * the switch, which rolls the commit back unless it was confirmed in the meantime. */
static int cmd_tick(const char *run, int argc, char **argv)
{
	char err[SIM_ERR_MAX];
	struct sim_switch sw;
	if (argc != 2 || !is_uint(argv[1]))
		return usage();
	time_t deadline = (time_t)strtoll(argv[1], NULL, 10);
	for (time_t now = time(NULL); now < deadline; now = time(NULL))
		sleep((unsigned)(deadline - now));
	if (sim_switch_open(run, argv[0], &sw, err, sizeof(err)) < 0) {
		fprintf(stderr, "switchsim-ctl: %s\n", err);
		return 1;
	}
	sim_switch_close(&sw);
	return 0;
}

static int cmd_dump(const char *run, int argc, char **argv)
{
	char err[SIM_ERR_MAX];
	struct sim_switch sw;
	if (argc != 1)
		return usage();
	if (sim_switch_open(run, argv[0], &sw, err, sizeof(err)) < 0) {
		fprintf(stderr, "switchsim-ctl: %s\n", err);
		return 1;
	}
	struct sbuf sb;
	sb_init(&sb);
	jprint(&sb, sw.st);
	sim_switch_close(&sw);
	fputs(sb_str(&sb), stdout);
	sb_free(&sb);
	return 0;
}

/* A reload: the dialect replaces running with its startup configuration. */
static int cmd_reboot(const char *run, int argc, char **argv)
{
	char err[SIM_ERR_MAX];
	struct sim_switch sw;
	if (argc != 1)
		return usage();
	if (sim_switch_open(run, argv[0], &sw, err, sizeof(err)) < 0) {
		fprintf(stderr, "switchsim-ctl: %s\n", err);
		return 1;
	}
	const struct sim_dialect *d = sim_dialect_of(sw.st);
	struct sim_ctx ctx = {.st = sw.st, .user = "reboot"};
	int rc = -1;
	if (!d || !d->reboot)
		snprintf(err, sizeof(err), "reboot: %s keeps no startup configuration",
			 d ? d->name : "this switch");
	else
		rc = d->reboot(&ctx, err, sizeof(err));
	if (rc == 0)
		rc = sim_switch_save(&sw, err, sizeof(err));
	sim_switch_close(&sw);
	if (rc < 0) {
		fprintf(stderr, "switchsim-ctl: %s\n", err);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 4 || strcmp(argv[1], "--run-dir") != 0)
		return usage();
	const char *run = argv[2], *cmd = argv[3];
	umask(022);
	if (!strcmp(cmd, "add"))
		return cmd_add(run, argc - 4, argv + 4);
	if (!strcmp(cmd, "add-batch") && argc == 4)
		return cmd_add_batch(run);
	if (!strcmp(cmd, "fault"))
		return cmd_fault(run, argc - 4, argv + 4);
	if (!strcmp(cmd, "dump"))
		return cmd_dump(run, argc - 4, argv + 4);
	if (!strcmp(cmd, "tick"))
		return cmd_tick(run, argc - 4, argv + 4);
	if (!strcmp(cmd, "reboot"))
		return cmd_reboot(run, argc - 4, argv + 4);
	return usage();
}
