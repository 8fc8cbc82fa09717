/* SPDX-License-Identifier: Apache-2.0 */
/* rocectl capture -i INVENTORY [--limit NAMES] -o DIR
 *
 * Where no public source shows what a device answers (no EOS show output in AVD or the
 * EOS manual), the answers of real devices are the evidence.  For each selected device
 * the driver's normal read runs with dry_run set and a tap in the transport
 * (include/rocectl/transport.h), which sends only read-only commands (anything else is
 * refused before it is sent) and hands every answer here.  Each answer is saved as
 * DIR/<device>/<NN>-<command>.txt, scrubbed (addresses, MACs, secrets, serials, the
 * inventory's password), after a provenance header:
 *
 *   # rocectl-capture v1
 *   # platform: eos
 *   # driver: eos-ssh
 *   # version: 4.31.2F            (from the device; "unknown" when it would not say)
 *   # command: show running-config
 *   # format: text | json         (eAPI answers: one file per command of the request)
 *   # time: 2026-12-03T08:10:00Z
 *   # ---
 *   <the answer>
 *
 * A host (the agent-ssh driver) answers `rocectl agent state --raw`: the state the driver
 * reads plus every file and DCB netlink reply the agent read to make it; then lldpd's
 * `lldpcli -f json0 show neighbors`.  Its hostname becomes <hostname>.
 *
 * tests/data/<platform>/captured/ replays such files through the parsers
 * (tests/unit/test_captured_replay.c); adding a device's capture needs no code. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cJSON.h>

#include "rocectl/cli.h"
#include "rocectl/devrun.h"
#include "rocectl/fleet.h"
#include "rocectl/print.h"
#include "rocectl/transport.h"

struct cap_opts {
	const char *inventory, *limit, *out;
	bool json;
};

enum { OPT_LIMIT = 256, OPT_FORMAT };

static const struct rc_option options[] = {
    {"inventory", 'i', "FILE", "the devices to capture from", 'i'},
    {"limit", 0, "NAMES", RC_LIMIT_HELP, OPT_LIMIT},
    {"output", 'o', "DIR", "directory for the captured answers (created)", 'o'},
    {"format", 0, "FMT",
     "text (default) or json: the manifest of the files written (examples/capture.schema.json)",
     OPT_FORMAT},
    {NULL, 0, NULL, NULL, 0},
};

#define USAGE "rocectl capture -i INVENTORY [--limit NAMES] -o DIR [--format text|json]"

static int on_option(int id, const char *arg, void *ctx)
{
	struct cap_opts *o = ctx;

	if (id == 'i')
		o->inventory = arg;
	else if (id == 'o')
		o->out = arg;
	else if (id == OPT_FORMAT)
		return rc_format_text_json("capture", arg, &o->json);
	else
		o->limit = arg;
	return 0;
}

/* One file written, for the manifest (--format json). */
struct cap_file {
	char name[80];
	char *command;
	const char *format;
};

/* One device's capture in progress. */
struct cap {
	char dir[4096]; /* for messages; files are written through dfd */
	int dfd;
	const char *platform, *driver;
	char version[64];
	const char *secrets[3];
	char password[RC_SECRET_MAX];
	unsigned seq;
	int failures;
	bool host;
	struct cap_file *files;
	size_t n_files, cap_files;
};

static void note_file(struct cap *c, const char *name, const char *cmd, const char *format)
{
	struct cap_file *v;

	if (c->n_files == c->cap_files) {
		size_t n = c->cap_files ? 2 * c->cap_files : 16;

		v = realloc(c->files, n * sizeof(*v));
		if (!v) {
			c->failures++; /* the manifest would lie by omission */
			return;
		}
		c->files = v;
		c->cap_files = n;
	}
	v = &c->files[c->n_files];
	snprintf(v->name, sizeof(v->name), "%s", name);
	v->command = strdup(cmd);
	v->format = format;
	if (!v->command) {
		c->failures++;
		return;
	}
	c->n_files++;
}

static void cap_free(struct cap *c)
{
	if (c && c->dfd >= 0)
		close(c->dfd);
	for (size_t i = 0; c && i < c->n_files; i++)
		free(c->files[i].command);
	if (c)
		free(c->files);
	free(c);
}

static void slug(const char *cmd, char *out, size_t len)
{
	size_t o = 0;

	for (const char *p = cmd; *p && o + 1 < len && o < 60; p++) {
		char c = *p;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
			out[o++] = c;
		else if (o && out[o - 1] != '-')
			out[o++] = '-';
	}
	while (o && out[o - 1] == '-')
		o--;
	out[o] = '\0';
}

/* A file of the capture: created (never an existing file, never through a symlink) in the
 * device's directory, 0600 whatever the umask, since a capture goes to other people. */
static FILE *create_file(int dfd, const char *base)
{
	int fd = openat(dfd, base, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	FILE *f;

	if (fd < 0)
		return NULL;
	if (fchmod(fd, 0600) || !(f = fdopen(fd, "w"))) {
		close(fd);
		return NULL;
	}
	return f;
}

static void write_file(struct cap *c, const char *cmd, const char *format, const char *answer,
		       size_t len)
{
	char name[128], stamp[32], base[80];
	const char *scmd = cmd;
	time_t now = time(NULL);
	struct tm tm;
	FILE *f;

	slug(scmd, name, sizeof(name));
	snprintf(base, sizeof(base), "%02u-%s.txt", ++c->seq, name);
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
	f = create_file(c->dfd, base);
	if (!f) {
		c->failures++;
	} else {
		fprintf(f,
			"# rocectl-capture v1\n# platform: %s\n# driver: %s\n# version: %s\n"
			"# command: %s\n# format: %s\n# time: %s\n# ---\n",
			c->platform, c->driver, c->version, scmd, format, stamp);
		if (answer)
			fwrite(answer, 1, len, f);
		if (fclose(f))
			c->failures++;
		else
			note_file(c, base, scmd, format);
	}
}

/* An eAPI runCmds request: one file per command (its result), `enable` left out. */
static bool record_eapi(struct cap *c, const char *body, const char *answer, size_t len)
{
	cJSON *req = cJSON_Parse(body), *ans = cJSON_ParseWithLength(answer, len);
	const cJSON *params = cJSON_GetObjectItemCaseSensitive(req, "params");
	const cJSON *cmds = cJSON_GetObjectItemCaseSensitive(params, "cmds");
	const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(params, "format");
	const cJSON *res = cJSON_GetObjectItemCaseSensitive(ans, "result");
	bool text = cJSON_IsString(fmt) && !strcmp(fmt->valuestring, "text");
	bool ok = cJSON_IsArray(cmds) && cJSON_IsArray(res) &&
		  cJSON_GetArraySize(cmds) == cJSON_GetArraySize(res);

	for (int i = 0; ok && i < cJSON_GetArraySize(cmds); i++) {
		const cJSON *cmd = cJSON_GetArrayItem(cmds, i), *r = cJSON_GetArrayItem(res, i);
		const cJSON *o = cJSON_GetObjectItemCaseSensitive(r, "output");
		/* a string, or {"cmd": ..., "revision": N} (tap.c) */
		const char *line =
		    cJSON_IsString(cmd)
			? cmd->valuestring
			: cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(cmd, "cmd"));
		char *s;

		if (!line || !strcmp(line, "enable"))
			continue;
		if (text && cJSON_IsString(o)) {
			write_file(c, line, "text", o->valuestring, strlen(o->valuestring));
			continue;
		}
		s = cJSON_Print(r);
		if (s)
			write_file(c, line, "json", s, strlen(s));
		free(s);
	}
	cJSON_Delete(req);
	cJSON_Delete(ans);
	return ok;
}

/* `s` with every `what` replaced by `with`, malloc'd (NULL when out of memory). */
static char *replace_all(const char *s, size_t len, const char *what, const char *with,
			 size_t *out_len)
{
	size_t wl = strlen(what), nl = strlen(with), n = 0, o = 0;
	char *out;

	for (const char *p = s; (p = memmem(p, len - (size_t)(p - s), what, wl)); p += wl)
		n++;
	out = malloc(len + n * nl + 1);
	if (!out)
		return NULL;
	for (size_t i = 0; i < len;) {
		if (i + wl <= len && !memcmp(s + i, what, wl)) {
			memcpy(out + o, with, nl);
			o += nl;
			i += wl;
		} else {
			out[o++] = s[i++];
		}
	}
	out[o] = '\0';
	*out_len = o;
	return out;
}

/* A host agent's answer names the machine (gethostname) and the rocectl it runs: the
 * hostname is scrubbed like an address (the inventory name stays, as for switches), and
 * the rocectl version becomes the capture's version when the host would not say more. */
static void record_host(struct cap *c, const char *request, const char *answer, size_t len)
{
	cJSON *j = cJSON_ParseWithLength(answer, len);
	const char *host = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "host"));
	const char *ver =
	    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "rocectl_version"));
	char *scrubbed = NULL, pair[RC_NAME_MAX + 16];
	size_t slen = 0;

	if (ver && !strcmp(c->version, "unknown"))
		snprintf(c->version, sizeof(c->version), "rocectl %s", ver);
	/* only the key's own value: a short hostname must not eat other words */
	if (host && strlen(host) < RC_NAME_MAX) {
		snprintf(pair, sizeof(pair), "\"host\":\"%s\"", host);
		scrubbed = replace_all(answer, len, pair, "\"host\":\"<hostname>\"", &slen);
	}
	/* never write an answer whose hostname stayed (one cJSON escaped, say) */
	if (host && (!scrubbed || !strstr(scrubbed, "\"host\":\"<hostname>\""))) {
		free(scrubbed);
		scrubbed = NULL;
		c->failures++;
	} else if (scrubbed)
		write_file(c, request, "json", scrubbed, slen);
	else if (!host)
		write_file(c, request, j ? "json" : "text", answer, len);
	free(scrubbed);
	cJSON_Delete(j);
}

static void record(void *ctx, const char *request, const char *body, const char *answer, size_t len)
{
	struct cap *c = ctx;

	if (body && !strncmp(request, "POST ", 5) && record_eapi(c, body, answer, len))
		return;
	if (c->host && answer && len && answer[0] == '{') {
		record_host(c, request, answer, len);
		return;
	}
	write_file(c, request,
		   answer && len && (answer[0] == '{' || answer[0] == '[') ? "json" : "text",
		   answer, len);
}

/* The driver's own way to ask for the version (its `device_version` op), "unknown" when
 * it has none. */
static void device_version(const struct rc_device *dev, const struct rc_run_opts *opts, char *out,
			   size_t len)
{
	const struct rc_driver *drv = rc_driver_find(rc_driver_name_for(dev));

	snprintf(out, len, "unknown");
	if (drv && drv->device_version)
		drv->device_version(dev, opts, out, len);
}

/* The inventory's password for this device (rc_secret_password, in rocectl-net.so too),
 * so that it can be scrubbed out of every answer even where it is not labelled. */
static bool device_password(const struct rc_device *dev, char *buf, size_t len)
{
	int (*fn)(const struct rc_device *, char *, size_t, struct rc_err *);
	struct rc_err err = {0};

	*(void **)(&fn) = dlsym(RTLD_DEFAULT, "rc_secret_password");
	return fn && fn(dev, buf, len, &err) == 0 && buf[0];
}

/* A host with transport local is this machine: no transport to tap, so the capture is the
 * agent's own `agent state --raw` document, scrubbed by the tap's rc_scrub (rocectl-net.so,
 * loaded through a network driver's lookup like the other net helpers). */
static int capture_local_host(struct cap *c, const struct rc_device *dev, const char *root,
			      struct rc_err *err)
{
	int (*scrub)(const char *, size_t, const char *const *, char **, size_t *);
	char cmd[4096], *text, *clean = NULL;
	size_t off, clean_len = 0;
	int failed = 0;

	rc_driver_find("agent-ssh");
	*(void **)(&scrub) = dlsym(RTLD_DEFAULT, "rc_scrub");
	if (!scrub)
		return rc_errf(err, ENOENT,
			       "'%s': cannot scrub without rocectl-net.so (nothing captured)",
			       dev->name);
	off = (size_t)snprintf(cmd, sizeof(cmd), "rocectl agent state --raw");
	for (size_t i = 0; i < dev->n_ports && off < sizeof(cmd); i++)
		off += (size_t)snprintf(cmd + off, sizeof(cmd) - off, " --interface %s",
					dev->ports[i]);
	text =
	    rc_agent_state_raw(root, (const char(*)[RC_NAME_MAX])dev->ports, dev->n_ports, &failed);
	if (!text || scrub(text, strlen(text), c->secrets, &clean, &clean_len)) {
		free(text);
		return rc_errf(err, ENOMEM, "'%s': out of memory", dev->name);
	}
	record(c, cmd, NULL, clean, clean_len);
	free(clean);
	free(text);
	if (failed < 0)
		return rc_errf(err, EIO, "'%s': the host could not be read (the capture says why)",
			       dev->name);
	return 0;
}

/* The device's directory, a new one under the output directory's descriptor: the inventory
 * refuses device names that are not one safe path component (rc_device_name_is_safe), and
 * this checks again, so that no name can lead a file outside -o DIR; an existing directory
 * (an earlier capture, a symlink) is refused rather than mixed with or followed. */
static int open_device_dir(int outfd, const char *out, const char *name, struct cap *c,
			   struct rc_err *err)
{
	snprintf(c->dir, sizeof(c->dir), "%s/%s", out, name);
	if (!rc_device_name_is_safe(name))
		return rc_errf(err, EINVAL, "'%s' is not a safe directory name: nothing captured",
			       name);
	if (mkdirat(outfd, name, 0700))
		return rc_errf(err, errno, "cannot create '%s': %s%s", c->dir, strerror(errno),
			       errno == EEXIST ? " (capture into a new directory)" : "");
	c->dfd = openat(outfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (c->dfd < 0 || fchmod(c->dfd, 0700))
		return rc_errf(err, errno, "cannot open '%s': %s", c->dir, strerror(errno));
	return 0;
}

static int capture_device(const struct rc_inventory *inv, size_t index, int outfd, const char *out,
			  const char *root, struct cap *c, struct rc_err *err)
{
	const struct rc_device *dev = &inv->devices[index];
	struct rc_run_opts opts = {.root = "/", .dry_run = true};
	struct rc_tap tap = {record, c, c->secrets};
	struct rc_devrun run;
	int rc;

	c->platform = rc_platform_name(dev->platform);
	c->driver = rc_driver_name_for(dev);
	snprintf(c->version, sizeof(c->version), "unknown");
	if ((rc = open_device_dir(outfd, out, dev->name, c, err)))
		return rc;
	if (device_password(dev, c->password, sizeof(c->password)))
		c->secrets[0] = c->password;
	c->secrets[1] = dev->address;
	device_version(dev, &opts, c->version, sizeof(c->version));
	opts.tap = &tap;
	memset(&run, 0, sizeof(run));
	c->host = dev->kind == RC_DEV_HOST;
	if (c->host && dev->transport == RC_TRANSPORT_LOCAL) {
		rc = capture_local_host(c, dev, root, err);
		if (!rc && c->failures)
			rc = rc_errf(err, EIO, "'%s': %d answer(s) could not be written under '%s'",
				     dev->name, c->failures, c->dir);
		memset(c->password, 0, sizeof(c->password));
		return rc;
	}
	rc = rc_devrun_open(&run, dev, index, &opts, NULL, 0, err);
	if (!rc)
		rc = rc_devrun_read(&run, err);
	/* A host's driver also reads its LLDP neighbours (lldpd) for the cabling checks: that
	 * answer belongs in the capture; a host without lldpd is recorded, not a failure. */
	if (!rc && c->host && run.drv && run.drv->neighbors && run.sess) {
		struct rc_neighbors nb = {0};
		struct rc_err ignored = {0};

		run.drv->neighbors(run.sess, &nb, &ignored);
		rc_neighbors_fini(&nb);
	}
	rc_devrun_close(&run);
	if (!rc && c->failures)
		rc = rc_errf(err, EIO, "'%s': %d answer(s) could not be written under '%s'",
			     dev->name, c->failures, c->dir);
	memset(c->password, 0, sizeof(c->password));
	return rc;
}

/* Text: one line per device captured.  JSON (examples/capture.schema.json): the manifest,
 * every file with the command it answers, so that a replay corpus can be checked. */
static void print_device(struct rc_out *o, const struct rc_device *dev, const struct cap *c,
			 const char *error)
{
	rc_out_open_object(o, NULL);
	rc_out_str(o, "device", NULL, dev->name);
	rc_out_str(o, "platform", NULL, rc_platform_name(dev->platform));
	rc_out_str(o, "driver", NULL, rc_driver_name_for(dev));
	rc_out_str(o, "version", NULL, c ? c->version : "unknown");
	rc_out_str(o, "directory", NULL, c ? c->dir : "");
	rc_out_str(o, "status", NULL, error ? "failed" : "captured");
	if (error)
		rc_out_str(o, "error", NULL, error);
	else
		rc_out_null(o, "error", NULL);
	rc_out_open_array(o, "files");
	for (size_t i = 0; c && i < c->n_files; i++) {
		rc_out_open_object(o, NULL);
		rc_out_str(o, "file", NULL, c->files[i].name);
		rc_out_str(o, "request", NULL, c->files[i].command);
		rc_out_str(o, "format", NULL, c->files[i].format);
		rc_out_close_object(o);
	}
	rc_out_close_array(o);
	if (!error)
		rc_out_text(o, "%s: %u answer(s) in %s\n", dev->name, c->seq, c->dir);
	rc_out_close_object(o);
}

/* mkdir -p, the directories it creates 0700 whatever the umask (existing ones are left as
 * they are); then the last one opened, for the devices' directories. */
static int open_out_dir(const char *path)
{
	char buf[4096];
	size_t n = strlen(path);
	int fd;

	if (!n || n >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, n + 1);
	for (char *p = buf + 1;; p++) {
		char saved = *p;

		if (saved && saved != '/')
			continue;
		*p = '\0';
		if (!mkdir(buf, 0700)) {
			if (chmod(buf, 0700))
				return -errno;
		} else if (errno != EEXIST) {
			return -errno;
		}
		*p = saved;
		if (!saved)
			break;
	}
	fd = open(buf, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int cmd_capture(int argc, char **argv, const struct rc_global *g)
{
	struct cap_opts o = {0};
	struct rc_inventory inv;
	struct rc_fleet f;
	struct rc_run_opts opts = {.dry_run = true};
	struct rc_err err = {0};
	struct rc_out out;
	int npos = 0, failed = 0, outfd, rc;

	rc = rc_parse_options(argc, argv, USAGE, options, on_option, &o, &npos);
	if (rc)
		return rc > 0 ? RC_EXIT_OK : RC_EXIT_USAGE;
	if (npos || !o.inventory || !o.out) {
		fprintf(stderr, "rocectl capture: -i INVENTORY and -o DIR are required\n");
		rc_print_usage(stderr, USAGE, options);
		return RC_EXIT_USAGE;
	}
	if (rc_inventory_load(o.inventory, &inv, NULL, &err))
		return rc_cli_fail("capture", o.json, &err);
	if ((rc = rc_cli_limit_check("capture", &inv, o.limit))) {
		rc_inventory_free(&inv);
		return rc;
	}
	if (rc_fleet_init(&f, &inv, NULL, &opts, o.limit, 1, &err)) {
		rc_inventory_free(&inv);
		return rc_cli_fail("capture", o.json, &err);
	}
	if ((outfd = open_out_dir(o.out)) < 0) {
		rc_errf(&err, -outfd, "cannot create '%s': %s", o.out, strerror(-outfd));
		rc_fleet_free(&f);
		rc_inventory_free(&inv);
		return rc_cli_fail("capture", o.json, &err);
	}
	rc_out_init(&out, stdout, o.json ? RC_OUT_JSON : RC_OUT_TEXT);
	rc_out_open_object(&out, NULL);
	rc_out_str(&out, "schema", NULL, "rocectl.capture/v1");
	rc_out_str(&out, "command", NULL, "capture");
	rc_out_str(&out, "directory", NULL, o.out);
	rc_out_open_array(&out, "devices");
	for (size_t i = 0; i < f.n; i++) {
		struct cap *c = calloc(1, sizeof(*c));
		const struct rc_device *dev = &inv.devices[f.devs[i].index];

		memset(&err, 0, sizeof(err));
		if (c)
			c->dfd = -1;
		rc = c ? capture_device(&inv, f.devs[i].index, outfd, o.out, g->root, c, &err)
		       : rc_errf(&err, ENOMEM, "out of memory");
		if (rc) {
			fprintf(stderr, "rocectl capture: %s\n", err.msg);
			failed++;
		}
		print_device(&out, dev, c, rc ? err.msg : NULL);
		cap_free(c);
	}
	rc_out_close_array(&out);
	rc_out_int(&out, "exit_code", NULL, failed ? RC_EXIT_ERROR : RC_EXIT_OK);
	rc_out_close_object(&out);
	rc_out_end(&out);
	close(outfd);
	rc_fleet_free(&f);
	rc_inventory_free(&inv);
	return failed ? RC_EXIT_ERROR : RC_EXIT_OK;
}
