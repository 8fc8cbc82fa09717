/* SPDX-License-Identifier: Apache-2.0 */
/* The two agent subcommands the controller runs on a host over SSH (drivers/host/
 * agent_ssh.c), so that a host reached from the controller goes through the same mlx5
 * driver as a local `rocectl agent`:
 *
 *   rocectl agent state [--interface IF]... [--only SECTIONS] [--raw] [--counters]
 *     -> {"schema_version":1,"rocectl_version":V,"timestamp":T,
 *         "schema":"rocectl.agent-state/v1","protocol":1,"host":H,
 *         "interfaces":[{"interface":IF,"qos":PORT_QOS} | {"interface":IF,"error":MSG}],
 *         "lldp":{"status":"ok","neighbors":[{"interface":IF,"system_name":S,"port_id":P}]}
 *               | {"status":"no-agent"|"error","error":MSG}}
 *     "lldp" is this host's lldpd as `lldpcli -f json0 show neighbors` gives it
 *     (drivers/host/lldpd_local.c): the controller's verify reads a host's cabling from this
 *     one answer instead of a second command line, and a forced-command wrapper that lets
 *     only `rocectl agent ...` through (dist/ssh/rocectl-agent-wrapper) passes it too.
 *     "no-agent": no lldpcli, or no lldpd answers (the cabling is unknown, never drift).
 *     A key added, not changed: the protocol stays 1, and a controller finding no "lldp"
 *     knows the agent predates it (drivers/host/agent_ssh.c says so).
 *     --raw adds to each interface "raw":{"files":[...],"netlink":[...]}: every file the
 *     read opened and every DCB netlink reply it parsed (rawlog.c), for `rocectl capture`.
 *     --counters adds "counters":{"interfaces":[...]}, the list `agent counters --json`
 *     prints (cli/agent_run.c), read in the same run: the controller's `verify --counters`
 *     then reads a host with one command line.  An agent older than the option refuses it
 *     (exit 64, "unknown option"), which the controller reports as such
 *     (drivers/host/agent_ssh.c, old_agent), never as a host without counters.
 *   rocectl agent write [--only SECTIONS]   (stdin, at most 1 MiB:)
 *     {"writes":[{"interface":IF,"fields":N,"want":PORT_QOS}]}
 *     -> {"schema_version":1,"rocectl_version":V,"timestamp":T,
 *         "schema":"rocectl.agent-write/v1","protocol":1,"status":"ok"|"error","error":MSG}
 * The controller refuses an answer of another protocol (agent_answer.h, RC_AGENT_PROTOCOL).
 *
 * PORT_QOS is the journal's serialization (support/qos_json.c).  `write` re-reads each
 * interface itself so the driver's read-modify-write starts from the live state; the
 * journal and the rollback stay with the controller, which owns the run. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cJSON.h>

#include "../drivers/host/agent_answer.h"
#include "../drivers/host/host.h"
#include "../drivers/host/lldpd.h"
#include "rocectl/cli.h"
#include "rocectl/print.h"
#include "rocectl/util.h"

#define WRITE_INPUT_MAX (1u << 20)
#define MAX_IFS		64

struct remote_opts {
	size_t n_if;
	char ifs[MAX_IFS][RC_NAME_MAX];
	unsigned sections;
	const char *root;
	bool raw;
	bool counters;
};

enum { OPT_ONLY = 256, OPT_ROOT, OPT_RAW, OPT_FORMAT, OPT_COUNTERS };

static const struct rc_option options[] = {
    {"interface", 'I', "IF", "this interface (repeatable; default: every RDMA netdev)", 'I'},
    {"only", 0, "SECTIONS", "only these sections: dcb,ecn,rdma", OPT_ONLY},
    {"root", 0, "DIR", "sysfs/configfs root prefix", OPT_ROOT},
    {"raw", 0, NULL, "state: add what was read (files, DCB netlink replies)", OPT_RAW},
    {"counters", 0, NULL, "state: add the interfaces' counters (as 'agent counters --json')",
     OPT_COUNTERS},
    {"format", 0, "FMT",
     "json, the only one: the controller's wire format (examples/agent-state.schema.json, "
     "examples/agent-write.schema.json)",
     OPT_FORMAT},
    {NULL, 0, NULL, NULL, 0},
};

static int on_option(int id, const char *arg, void *ctx)
{
	struct remote_opts *o = ctx;
	char bad[64];

	if (id == 'I') {
		if (!rc_ifname_is_safe(arg) || o->n_if == MAX_IFS) {
			fprintf(stderr, "rocectl agent: bad or too many interfaces: '%s'\n", arg);
			return -EINVAL;
		}
		snprintf(o->ifs[o->n_if++], RC_NAME_MAX, "%s", arg);
	} else if (id == OPT_ONLY) {
		if (rc_host_parse_sections(arg, &o->sections, bad, sizeof(bad))) {
			fprintf(stderr, "rocectl agent: unknown section '%s'\n", bad);
			return -EINVAL;
		}
	} else if (id == OPT_ROOT) {
		o->root = arg;
	} else if (id == OPT_RAW) {
		o->raw = true;
	} else if (id == OPT_COUNTERS) {
		o->counters = true;
	} else if (id == OPT_FORMAT && strcmp(arg, "json")) {
		/* what the controller parses (agent_ssh.c); a person reads `agent show` */
		fprintf(stderr,
			"rocectl agent: --format: '%s' is not json (state and write answer the "
			"controller in JSON only; 'rocectl agent show' is the text view)\n",
			arg);
		return -EINVAL;
	}
	return 0;
}

/* The keys every rocectl JSON document opens with (include/rocectl/print.h); the agent's
 * own "schema" and "protocol" follow. */
static void add_header(cJSON *out)
{
	char ts[32];
	time_t now = time(NULL);
	struct tm tm;

	if (!gmtime_r(&now, &tm) || !strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(ts, sizeof(ts), "1970-01-01T00:00:00Z");
	cJSON_AddNumberToObject(out, "schema_version", RC_JSON_SCHEMA_VERSION);
	cJSON_AddStringToObject(out, "rocectl_version", ROCECTL_VERSION);
	cJSON_AddStringToObject(out, "timestamp", ts);
}

static void local_device(struct rc_device *dev)
{
	memset(dev, 0, sizeof(*dev));
	if (gethostname(dev->name, sizeof(dev->name) - 1) || !dev->name[0])
		snprintf(dev->name, sizeof(dev->name), "localhost");
	dev->kind = RC_DEV_HOST;
	dev->platform = RC_PLAT_HOST;
	dev->transport = RC_TRANSPORT_LOCAL;
	dev->role = RC_ROLE_HOST;
}

static int open_local(struct remote_opts *o, const struct rc_global *g, bool dry_run,
		      const struct rc_device *dev, struct rc_session **s, struct rc_err *err)
{
	struct rc_run_opts ropts = {.root = o->root ? o->root : g->root,
				    .dry_run = dry_run,
				    .groups = rc_host_section_groups(o->sections)};

	return rc_host_driver.open(dev, &ropts, s, err);
}

/* cJSON copies string bytes as they are: a sysfs value or an error message that is not
 * UTF-8 would make the answer invalid JSON (RFC 8259 section 8.1), so such bytes become
 * U+FFFD, as in every other document (engine/report/print.c). */
static void print_json(cJSON *o)
{
	char *text = cJSON_PrintUnformatted(o);
	char *fixed = text && !rc_utf8_valid(text) ? rc_utf8_fix(text) : NULL;

	if (text)
		printf("%s\n", fixed ? fixed : text);
	free(fixed);
	free(text);
	cJSON_Delete(o);
}

/* This host's LLDP neighbours into the answer (the "lldp" key above). */
static void add_lldp(cJSON *out, const char *host)
{
	struct rc_neighbors nb = {0};
	struct rc_err err = {0};
	cJSON *l = cJSON_AddObjectToObject(out, "lldp"), *arr;
	int rc = rc_lldpd_local(host, &nb, &err);

	if (rc) {
		char prefix[RC_NAME_MAX + 8];
		size_t k = (size_t)snprintf(prefix, sizeof(prefix), "'%s': ", host);

		/* the controller names the host in its own words: not this name twice */
		cJSON_AddStringToObject(l, "status", rc == -ENOENT ? "no-agent" : "error");
		cJSON_AddStringToObject(l, "error",
					strncmp(err.msg, prefix, k) ? err.msg : err.msg + k);
		rc_neighbors_fini(&nb);
		return;
	}
	cJSON_AddStringToObject(l, "status", "ok");
	arr = cJSON_AddArrayToObject(l, "neighbors");
	for (size_t i = 0; i < nb.n; i++) {
		cJSON *e = cJSON_CreateObject();

		cJSON_AddStringToObject(e, "interface", nb.v[i].port);
		cJSON_AddStringToObject(e, "system_name", nb.v[i].device);
		cJSON_AddStringToObject(e, "port_id", nb.v[i].remote_port);
		cJSON_AddItemToArray(arr, e);
	}
	rc_neighbors_fini(&nb);
}

/* The counters of the interfaces read (the "counters" key, --counters): per interface
 * what `agent counters --json` prints, or the driver's error for it. */
static void add_counters(cJSON *out, struct rc_session *s, char (*names)[RC_NAME_MAX], size_t n)
{
	cJSON *arr = cJSON_AddArrayToObject(cJSON_AddObjectToObject(out, "counters"), "interfaces");

	for (size_t i = 0; i < n; i++) {
		struct rc_port_state p = {0};
		struct rc_counters c = {0};
		struct rc_err err = {0};
		cJSON *e = cJSON_CreateObject(), *list;

		snprintf(p.name, sizeof(p.name), "%s", names[i]);
		cJSON_AddStringToObject(e, "interface", p.name);
		cJSON_AddItemToArray(arr, e);
		if (rc_host_driver.counters(s, &p, 1, &c, &err)) {
			cJSON_AddStringToObject(e, "error", err.msg);
			rc_counters_fini(&c);
			continue;
		}
		list = cJSON_AddArrayToObject(e, "counters");
		for (size_t k = 0; k < c.n; k++) {
			cJSON *v = cJSON_CreateObject();

			cJSON_AddStringToObject(v, "name", c.v[k].name);
			if (c.v[k].not_enabled) {
				cJSON_AddNullToObject(v, "value");
				cJSON_AddTrueToObject(v, "not_enabled");
			} else {
				cJSON_AddNumberToObject(v, "value", (double)c.v[k].value);
			}
			cJSON_AddStringToObject(v, "source", c.v[k].source);
			cJSON_AddBoolToObject(v, "is_drop", c.v[k].is_drop);
			cJSON_AddItemToArray(list, v);
		}
		rc_counters_fini(&c);
	}
}

/* The `agent state` document; *failed = interfaces that could not be read, -1 when the
 * host could not be opened at all (the document then carries "error"). */
static cJSON *state_doc(const struct remote_opts *o, const struct rc_global *g, int *failed)
{
	struct rc_device dev;
	struct rc_session *s = NULL;
	struct rc_err err = {0};
	char(*found)[RC_NAME_MAX] = NULL;
	size_t n = o->n_if;
	cJSON *out = cJSON_CreateObject(), *arr;
	int rc;

	*failed = 0;
	local_device(&dev);
	add_header(out);
	cJSON_AddStringToObject(out, "schema", "rocectl.agent-state/v1");
	cJSON_AddNumberToObject(out, "protocol", RC_AGENT_PROTOCOL);
	cJSON_AddStringToObject(out, "host", dev.name);
	if (open_local((struct remote_opts *)o, g, true, &dev, &s, &err) ||
	    (!n && rc_host_driver.ports(s, &found, &n, &err))) {
		cJSON_AddStringToObject(out, "error", err.msg);
		if (s)
			rc_host_driver.close(s);
		*failed = -1;
		return out;
	}
	arr = cJSON_AddArrayToObject(out, "interfaces");
	for (size_t i = 0; i < n; i++) {
		struct rc_port_state p = {0};
		cJSON *e = cJSON_CreateObject();

		snprintf(p.name, sizeof(p.name), "%s", found ? found[i] : o->ifs[i]);
		cJSON_AddStringToObject(e, "interface", p.name);
		/* --raw (rocectl capture): the files and DCB replies this read used, beside
		 * what the driver made of them (rawlog.c) */
		if (o->raw) {
			cJSON *r = cJSON_AddObjectToObject(e, "raw");

			rc_host_raw_log(cJSON_AddArrayToObject(r, "files"),
					cJSON_AddArrayToObject(r, "netlink"),
					o->root ? o->root : g->root);
		}
		/* one interface at a time: a NIC without DCB must not hide the others */
		rc = rc_host_driver.read(s, &p, 1, &err);
		rc_host_raw_log(NULL, NULL, NULL);
		if (rc) {
			cJSON_AddStringToObject(e, "error", err.msg);
			(*failed)++;
		} else {
			cJSON_AddItemToObject(e, "qos", rc_port_qos_to_cjson(&p.qos));
		}
		cJSON_AddItemToArray(arr, e);
	}
	if (o->counters)
		add_counters(out, s, found ? found : (char(*)[RC_NAME_MAX])o->ifs, n);
	free(found);
	rc_host_driver.close(s);
	add_lldp(out, dev.name);
	return out;
}

static int agent_state(struct remote_opts *o, const struct rc_global *g)
{
	int failed;

	print_json(state_doc(o, g, &failed));
	return failed ? RC_EXIT_ERROR : RC_EXIT_OK;
}

char *rc_agent_state_raw(const char *root, const char (*ifs)[RC_NAME_MAX], size_t n_if, int *failed)
{
	struct remote_opts o = {.sections = RC_HOST_SEC_ALL, .root = root, .raw = true};
	struct rc_global g = {.root = root};
	cJSON *doc;
	char *text;

	if (n_if > MAX_IFS)
		n_if = MAX_IFS;
	for (size_t i = 0; i < n_if; i++)
		snprintf(o.ifs[i], RC_NAME_MAX, "%s", ifs[i]);
	o.n_if = n_if;
	doc = state_doc(&o, &g, failed);
	text = cJSON_PrintUnformatted(doc);
	cJSON_Delete(doc);
	if (text && !rc_utf8_valid(text)) { /* as print_json does for the wire answer */
		char *fixed = rc_utf8_fix(text);

		free(text);
		text = fixed;
	}
	return text;
}

static char *read_stdin(size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap + 1);

	while (buf) {
		ssize_t r;

		if (n == cap) {
			char *nb;

			if (cap >= WRITE_INPUT_MAX) {
				free(buf);
				return NULL;
			}
			cap *= 2;
			nb = realloc(buf, cap + 1);
			if (!nb) {
				free(buf);
				return NULL;
			}
			buf = nb;
		}
		r = read(STDIN_FILENO, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	if (buf)
		buf[n] = '\0';
	*len = n;
	return buf;
}

/* Parse the write list into ports[]/want[]/fields[]. */
static int parse_writes(const char *text, struct rc_port_state *have, struct rc_port_state *want,
			uint32_t *fields, size_t *n, struct rc_err *err)
{
	cJSON *o = cJSON_Parse(text);
	const cJSON *w, *arr = cJSON_GetObjectItemCaseSensitive(o, "writes");
	int rc = 0;

	*n = 0;
	if (!cJSON_IsArray(arr)) {
		cJSON_Delete(o);
		return rc_errf(err, EINVAL, "write: expected {\"writes\":[...]} on stdin");
	}
	cJSON_ArrayForEach(w, arr)
	{
		const char *ifname =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(w, "interface"));
		const cJSON *f = cJSON_GetObjectItemCaseSensitive(w, "fields");

		if (*n == MAX_IFS || !ifname || !rc_ifname_is_safe(ifname) || !cJSON_IsNumber(f) ||
		    f->valuedouble < 0 || f->valuedouble > RC_F_ALL) {
			rc = rc_errf(err, EINVAL, "write: bad entry #%zu", *n + 1);
			break;
		}
		snprintf(have[*n].name, RC_NAME_MAX, "%s", ifname);
		snprintf(want[*n].name, RC_NAME_MAX, "%s", ifname);
		fields[*n] = (uint32_t)f->valuedouble;
		rc = rc_port_qos_from_cjson(cJSON_GetObjectItemCaseSensitive(w, "want"),
					    &want[*n].qos, err);
		if (rc)
			break;
		(*n)++;
	}
	cJSON_Delete(o);
	return rc;
}

static int agent_write(struct remote_opts *o, const struct rc_global *g)
{
	struct rc_port_state have[MAX_IFS], want[MAX_IFS];
	struct rc_port_write w[MAX_IFS];
	uint32_t fields[MAX_IFS];
	struct rc_device dev;
	struct rc_session *s = NULL;
	struct rc_err err = {0};
	size_t len, n = 0;
	char *text = read_stdin(&len);
	cJSON *out = cJSON_CreateObject();
	int rc;

	memset(have, 0, sizeof(have));
	memset(want, 0, sizeof(want));
	local_device(&dev);
	add_header(out);
	cJSON_AddStringToObject(out, "schema", "rocectl.agent-write/v1");
	cJSON_AddNumberToObject(out, "protocol", RC_AGENT_PROTOCOL);
	rc = text ? parse_writes(text, have, want, fields, &n, &err)
		  : rc_errf(&err, EFBIG, "write: no input or more than 1 MiB");
	free(text);
	if (!rc)
		rc = open_local(o, g, false, &dev, &s, &err);
	if (!rc && n)
		rc = rc_host_driver.read(s, have, n, &err);
	for (size_t i = 0; !rc && i < n; i++)
		w[i] = (struct rc_port_write){have[i].name, &want[i].qos, &have[i].qos, fields[i]};
	if (!rc && n)
		rc = rc_host_driver.apply(s, w, n, &err);
	if (s)
		rc_host_driver.close(s);
	cJSON_AddStringToObject(out, "status", rc ? "error" : "ok");
	if (rc)
		cJSON_AddStringToObject(out, "error", err.msg);
	print_json(out);
	return rc ? RC_EXIT_ERROR : RC_EXIT_OK;
}

int cmd_agent_remote(int argc, char **argv, const struct rc_global *g)
{
	struct remote_opts o = {.sections = RC_HOST_SEC_ALL};
	int npos, rc;

	rc = rc_parse_options(argc, argv,
			      "rocectl agent state|write [--interface IF]... [--only SECTIONS] "
			      "[--raw] [--counters] [--format json]",
			      options, on_option, &o, &npos);
	if (rc)
		return rc > 0 ? RC_EXIT_OK : RC_EXIT_USAGE;
	if (npos == 1 && !strcmp(argv[0], "state"))
		return agent_state(&o, g);
	if (npos == 1 && !strcmp(argv[0], "write") && !o.raw && !o.counters)
		return agent_write(&o, g);
	fprintf(stderr, "rocectl agent: expected 'state' or 'write'\n");
	return RC_EXIT_USAGE;
}
