/* SPDX-License-Identifier: Apache-2.0 */
/* Prometheus text exposition format 0.0.4 of a fabric result (include/rocectl/result.h),
 * for node_exporter's textfile collector: gauges (and counters with --counters), no sample
 * timestamps (the collector rejects them), every family's HELP and TYPE before its samples and each
 * family in one group.  Port names come from the devices (discovery), so label values are treated
 * as hostile: escaped as the format says and kept valid UTF-8, because a parser that meets
 * invalid UTF-8 drops the whole file, not just one series. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/driver.h"
#include "rocectl/result.h"
#include "rocectl/util.h"

#include "prom_counters.h"

/* Label values escape backslash, double quote and newline; HELP text only the first and
 * the last.  Bytes that are not UTF-8 become U+FFFD. */
static void escape(FILE *f, const char *str, size_t max, bool label)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t len = strnlen(str, max);

	for (size_t i = 0; i < len;) {
		size_t n = rc_utf8_seq_len(s + i, len - i);

		if (!n) {
			fputs("\xef\xbf\xbd", f);
			i++;
			continue;
		}
		if (s[i] == '\\')
			fputs("\\\\", f);
		else if (s[i] == '\n')
			fputs("\\n", f);
		else if (s[i] == '"' && label)
			fputs("\\\"", f);
		else
			fwrite(s + i, 1, n, f);
		i += n;
	}
}

static void family(FILE *f, const char *name, const char *help)
{
	fprintf(f, "# HELP %s ", name);
	escape(f, help, SIZE_MAX, false);
	fprintf(f, "\n# TYPE %s gauge\n", name);
}

/* One label; `first` opens the label set. */
static void label(FILE *f, bool first, const char *key, const char *value, size_t max)
{
	fprintf(f, "%s%s=\"", first ? "{" : ",", key);
	escape(f, value, max, true);
	fputc('"', f);
}

/* "device:port", the way links are named everywhere else. */
static void label_end(FILE *f, bool first, const char *key, const struct rc_inventory *inv,
		      const struct rc_link_end *e)
{
	fprintf(f, "%s%s=\"", first ? "{" : ",", key);
	escape(f, inv->devices[e->dev].name, RC_NAME_MAX, true);
	fputc(':', f);
	escape(f, e->port, RC_NAME_MAX, true);
	fputc('"', f);
}

static bool dev_ok(const struct rc_fleet_dev *d)
{
	return d->rc == 0 && d->run.read_ok && (d->run.have || !d->run.n_ports);
}

static const struct rc_device *inv_dev(const struct rc_result *r, const struct rc_fleet_dev *d)
{
	return &r->inv->devices[d->index];
}

/* A port name as it appears in a label value: invalid bytes as U+FFFD. */
static void as_written(const char *str, char out[3 * RC_NAME_MAX + 1])
{
	const unsigned char *s = (const unsigned char *)str;
	size_t len = strnlen(str, RC_NAME_MAX), o = 0;

	for (size_t i = 0; i < len;) {
		size_t n = rc_utf8_seq_len(s + i, len - i);

		if (n) {
			memcpy(out + o, s + i, n);
			o += n;
			i += n;
		} else {
			memcpy(out + o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		}
	}
	out[o] = '\0';
}

/* A port listed twice (a device's discovery is not trusted), or two names that differ only
 * in invalid bytes, would be a duplicate series, which makes the whole scrape fail: only
 * the first is reported. */
static bool port_repeated(const struct rc_fleet_dev *d, size_t i)
{
	const char *name = d->run.have[i].name;
	char a[3 * RC_NAME_MAX + 1], b[3 * RC_NAME_MAX + 1];
	bool plain = true;

	for (size_t k = 0; k < RC_NAME_MAX && name[k]; k++)
		plain = plain && (unsigned char)name[k] < 0x80;
	if (!plain)
		as_written(name, a);
	for (size_t j = 0; j < i; j++) {
		if (!strncmp(d->run.have[j].name, name, RC_NAME_MAX))
			return true;
		if (plain)
			continue;
		as_written(d->run.have[j].name, b);
		if (!strcmp(a, b))
			return true;
	}
	return false;
}

static void port_counts(const struct rc_fleet_dev *d, const char *port, size_t *drift,
			size_t *unsupported)
{
	*drift = *unsupported = 0;
	for (size_t i = 0; i < d->run.changes.n; i++) {
		const struct rc_change *c = &d->run.changes.v[i];

		if (strncmp(c->port, port, RC_NAME_MAX))
			continue;
		if (c->kind == RC_CHANGE_UNSUPPORTED)
			(*unsupported)++;
		else
			(*drift)++;
	}
}

enum port_metric { PM_COMPLIANT, PM_DRIFT, PM_UNSUPPORTED };

static const char *const port_metric_name[] = {"rocectl_port_compliant", "rocectl_drift_fields",
					       "rocectl_port_uncontrollable_fields"};
static const char *const port_metric_help[] = {
    "1 when the port matches the policy, 0 when it has drifted or unreadable fields",
    "Fields of the port that differ from the policy or could not be read",
    "Policy fields this platform cannot control on the port (reported, not drift)"};

/* The samples of one device in the port family m (the device read, else none). */
static void port_lines(FILE *f, const struct rc_device *dev, const struct rc_fleet_dev *d,
		       enum port_metric m)
{
	if (!dev_ok(d))
		return;
	for (size_t p = 0; p < d->run.n_ports; p++) {
		const char *port = d->run.have[p].name;
		size_t drift, unsupported, v;

		if (port_repeated(d, p))
			continue;
		port_counts(d, port, &drift, &unsupported);
		v = m == PM_COMPLIANT ? drift == 0 : m == PM_DRIFT ? drift : unsupported;
		fputs(port_metric_name[m], f);
		label(f, true, "device", dev->name, RC_NAME_MAX);
		label(f, false, "port", port, RC_NAME_MAX);
		if (m != PM_UNSUPPORTED)
			label(f, false, "role", rc_role_name(dev->role), SIZE_MAX);
		fprintf(f, "} %zu\n", v);
	}
}

static void port_family(FILE *f, const struct rc_result *r, enum port_metric m)
{
	family(f, port_metric_name[m], port_metric_help[m]);
	for (size_t i = 0; i < r->fleet->n; i++)
		port_lines(f, inv_dev(r, &r->fleet->devs[i]), &r->fleet->devs[i], m);
}

/* Whether change k of the device names a port and field an earlier change named, or a
 * port listed twice: one series each, else node_exporter refuses the scrape. */
static bool field_repeated(const struct rc_fleet_dev *d, size_t k)
{
	const struct rc_change *c = &d->run.changes.v[k];

	for (size_t j = 0; j < k; j++) {
		const struct rc_change *e = &d->run.changes.v[j];

		if (e->kind != RC_CHANGE_UNSUPPORTED && !strncmp(e->port, c->port, RC_NAME_MAX) &&
		    !strncmp(e->field, c->field, sizeof(c->field)))
			return true;
	}
	for (size_t p = 0; p < d->run.n_ports; p++)
		if (!strncmp(d->run.have[p].name, c->port, RC_NAME_MAX))
			return port_repeated(d, p);
	return false;
}

#define FIELD_FAMILY "rocectl_drift_field"
#define FIELD_HELP   "1 for each field of a port that differs from the policy or could not be read"

/* One series per drifted or unreadable field, so that an alert or a dashboard can say which
 * (rocectl_drift_fields counts them per port); a fabric in sync has none. */
static void field_lines(FILE *f, const struct rc_device *dev, const struct rc_fleet_dev *d)
{
	for (size_t k = 0; dev_ok(d) && k < d->run.changes.n; k++) {
		const struct rc_change *c = &d->run.changes.v[k];

		if (c->kind == RC_CHANGE_UNSUPPORTED || field_repeated(d, k))
			continue;
		fputs(FIELD_FAMILY, f);
		label(f, true, "device", dev->name, RC_NAME_MAX);
		label(f, false, "port", c->port, RC_NAME_MAX);
		label(f, false, "role", rc_role_name(dev->role), SIZE_MAX);
		label(f, false, "field", c->field, sizeof(c->field));
		fputs("} 1\n", f);
	}
}

static void field_family(FILE *f, const struct rc_result *r)
{
	family(f, FIELD_FAMILY, FIELD_HELP);
	for (size_t i = 0; i < r->fleet->n; i++)
		field_lines(f, inv_dev(r, &r->fleet->devs[i]), &r->fleet->devs[i]);
}

#define UP_FAMILY "rocectl_device_up"
#define UP_HELP	  "1 when the device was read, 0 when reading it failed"

static void up_line(FILE *f, const struct rc_device *dev, const struct rc_fleet_dev *d)
{
	fputs(UP_FAMILY, f);
	label(f, true, "device", dev->name, RC_NAME_MAX);
	label(f, false, "role", rc_role_name(dev->role), SIZE_MAX);
	label(f, false, "driver", rc_driver_name_for(dev), SIZE_MAX);
	fprintf(f, "} %d\n", dev_ok(d) ? 1 : 0);
}

/* The drifted or unreadable fields rocectl_fabric_drift_fields adds up. */
static size_t device_drift(const struct rc_fleet_dev *d)
{
	return d->run.changes.n - rc_changes_count(&d->run.changes, RC_CHANGE_UNSUPPORTED);
}

static void fleet_totals(FILE *f, size_t ok, size_t failed, size_t drift)
{
	family(f, "rocectl_devices", "Selected devices by the outcome of reading them");
	fprintf(f, "rocectl_devices{state=\"ok\"} %zu\n", ok);
	fprintf(f, "rocectl_devices{state=\"failed\"} %zu\n", failed);
	/* not "_total": that suffix is the counters' (OpenMetrics, promtool check metrics) */
	family(f, "rocectl_fabric_drift_fields",
	       "Drifted or unreadable fields over every port of the devices that were read");
	fprintf(f, "rocectl_fabric_drift_fields %zu\n", drift);
}

static void device_families(FILE *f, const struct rc_result *r)
{
	size_t ok = 0, drift = 0;

	for (size_t i = 0; i < r->fleet->n; i++) {
		const struct rc_fleet_dev *d = &r->fleet->devs[i];

		if (!dev_ok(d))
			continue;
		ok++;
		drift += device_drift(d);
	}
	fleet_totals(f, ok, r->fleet->n - ok, drift);
	family(f, UP_FAMILY, UP_HELP);
	for (size_t i = 0; i < r->fleet->n; i++)
		up_line(f, inv_dev(r, &r->fleet->devs[i]), &r->fleet->devs[i]);
}

#define LINK_OK_FAMILY "rocectl_link_consistent"
#define LINK_OK_HELP                                                                               \
	"1 when both ends of the link agree, 0 on a mismatch or when an end could not be read "    \
	"(see rocectl_link_unknown)"
#define LINK_UNKNOWN_FAMILY "rocectl_link_unknown"
#define LINK_UNKNOWN_HELP   "1 when an end of the link could not be read"
#define HOST_OK_FAMILY	    "rocectl_host_symmetric"
#define HOST_OK_HELP                                                                               \
	"1 when every NIC of a multi-homed host lands on switch ports with the same QoS, 0 when "  \
	"they differ or one could not be read (see rocectl_host_unknown)"
#define HOST_UNKNOWN_FAMILY "rocectl_host_unknown"
#define HOST_UNKNOWN_HELP   "1 when a switch port a multi-homed host lands on could not be read"

static void link_line(FILE *f, const char *name, const struct rc_inventory *inv, size_t link,
		      int value)
{
	const struct rc_link *l = &inv->links[link];

	fputs(name, f);
	label_end(f, true, "a", inv, &l->a);
	label_end(f, false, "b", inv, &l->b);
	fprintf(f, "} %d\n", value);
}

static void host_line(FILE *f, const char *name, const struct rc_inventory *inv, size_t dev,
		      int value)
{
	fputs(name, f);
	label(f, true, "host", inv->devices[dev].name, RC_NAME_MAX);
	fprintf(f, "} %d\n", value);
}

static void link_families(FILE *f, const struct rc_result *r)
{
	family(f, LINK_OK_FAMILY, LINK_OK_HELP);
	for (size_t i = 0; i < r->n_links; i++)
		link_line(f, LINK_OK_FAMILY, r->inv, r->links[i].link,
			  r->links[i].status == RC_CHECK_OK);
	family(f, LINK_UNKNOWN_FAMILY, LINK_UNKNOWN_HELP);
	for (size_t i = 0; i < r->n_links; i++)
		link_line(f, LINK_UNKNOWN_FAMILY, r->inv, r->links[i].link,
			  r->links[i].status == RC_CHECK_UNKNOWN);
}

static void host_families(FILE *f, const struct rc_result *r)
{
	family(f, HOST_OK_FAMILY, HOST_OK_HELP);
	for (size_t i = 0; i < r->n_hosts; i++)
		host_line(f, HOST_OK_FAMILY, r->inv, r->hosts[i].dev,
			  r->hosts[i].status == RC_CHECK_OK);
	family(f, HOST_UNKNOWN_FAMILY, HOST_UNKNOWN_HELP);
	for (size_t i = 0; i < r->n_hosts; i++)
		host_line(f, HOST_UNKNOWN_FAMILY, r->inv, r->hosts[i].dev,
			  r->hosts[i].status == RC_CHECK_UNKNOWN);
}

/* The devices' own counters (verify --counters): monotonic, hence counters named _total,
 * one family per quantity (engine/report/prom_counters.c).  A family is written only when
 * some device gave one of its counters, so a plain verify has no empty family; each
 * family's samples stay together as the format requires. */
static void counter_sample(FILE *f, const char *family, const char *device,
			   const struct rc_counter *c, const struct rc_prom_sample *s)
{
	fputs(family, f);
	label(f, true, "device", device, RC_NAME_MAX);
	label(f, false, "port", c->port, RC_NAME_MAX);
	for (int k = 0; k < 2; k++)
		if (s->key[k])
			label(f, false, s->key[k], s->value[k], sizeof(c->name));
	if (s->index_key)
		label(f, false, s->index_key, s->index, sizeof(s->index));
	label(f, false, "source", c->source, sizeof(c->source));
	if (s->scale == 1)
		fprintf(f, "} %llu\n", (unsigned long long)c->value);
	else
		fprintf(f, "} %.9g\n", (double)c->value * s->scale);
}

static void counter_header(FILE *f, const struct rc_prom_family *pf)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s counter\n", pf->name, pf->help, pf->name);
}

/* The device's samples of counter family `fam`; *opened: its header was written. */
static void counter_lines(FILE *f, size_t fam, const struct rc_device *dev,
			  const struct rc_fleet_dev *d, bool *opened)
{
	const struct rc_prom_family *pf = rc_prom_family_at(fam);

	for (size_t k = 0; dev_ok(d) && k < d->counters.n; k++) {
		const struct rc_counter *c = &d->counters.v[k];
		struct rc_prom_sample s;

		if (c->not_enabled) /* no sample: absent is not zero */
			continue;
		rc_prom_counter_map(c->name, &s);
		if (s.family != fam)
			continue;
		if (opened && !*opened) {
			counter_header(f, pf);
			*opened = true;
		}
		counter_sample(f, pf->name, dev->name, c, &s);
	}
}

static void counter_families(FILE *f, const struct rc_result *r)
{
	for (size_t fam = 0; fam < rc_prom_n_families(); fam++) {
		bool opened = false;

		for (size_t i = 0; i < r->fleet->n; i++)
			counter_lines(f, fam, inv_dev(r, &r->fleet->devs[i]), &r->fleet->devs[i],
				      &opened);
	}
}

void rc_prom_build_info(FILE *f, const char *command)
{
	family(f, "rocectl_build_info",
	       "Always 1; the labels say which rocectl wrote this file and for which command");
	fputs("rocectl_build_info", f);
	label(f, true, "version", ROCECTL_VERSION, SIZE_MAX);
	label(f, false, "command", command, SIZE_MAX);
	fputs("} 1\n", f);
}

void rc_report_prometheus(FILE *f, const struct rc_result *r)
{
	rc_prom_build_info(f, "verify");
	family(f, "rocectl_last_verify_timestamp_seconds",
	       "Unix time at which the fabric was last read");
	fprintf(f, "rocectl_last_verify_timestamp_seconds %lld\n", (long long)r->when);
	device_families(f, r);
	port_family(f, r, PM_COMPLIANT);
	port_family(f, r, PM_DRIFT);
	port_family(f, r, PM_UNSUPPORTED);
	field_family(f, r);
	link_families(f, r);
	host_families(f, r);
	counter_families(f, r);
}

void rc_report_prometheus_host(FILE *f, const struct rc_device *dev, bool ok, time_t when,
			       const struct rc_prom_iface *v, size_t n)
{
	size_t drift = 0;
	static const char *const name[] = {"rocectl_port_compliant", "rocectl_drift_fields"};
	static const char *const help[] = {
	    "1 when the port matches the policy, 0 when it has drifted or unreadable fields",
	    "Fields of the port that differ from the policy or could not be read"};

	rc_prom_build_info(f, "agent");
	/* Every series says scope="agent": a node's agent file and a controller's verify file
	 * may share one textfile directory (the controller runs on a host of the fabric), and
	 * node_exporter refuses the whole scrape when two files give one series. */
	/* as for the fleet: a device that was not read adds nothing */
	for (size_t i = 0; ok && i < n; i++)
		drift += v[i].ok ? v[i].drift : 0;
	family(f, "rocectl_last_verify_timestamp_seconds",
	       "Unix time at which the fabric was last read");
	fprintf(f, "rocectl_last_verify_timestamp_seconds{scope=\"agent\"} %lld\n",
		(long long)when);
	family(f, "rocectl_devices", "Selected devices by the outcome of reading them");
	fprintf(f, "rocectl_devices{state=\"ok\",scope=\"agent\"} %d\n", ok ? 1 : 0);
	fprintf(f, "rocectl_devices{state=\"failed\",scope=\"agent\"} %d\n", ok ? 0 : 1);
	family(f, "rocectl_fabric_drift_fields",
	       "Drifted or unreadable fields over every port of the devices that were read");
	fprintf(f, "rocectl_fabric_drift_fields{scope=\"agent\"} %zu\n", drift);
	family(f, "rocectl_device_up", "1 when the device was read, 0 when reading it failed");
	fputs("rocectl_device_up", f);
	label(f, true, "device", dev->name, RC_NAME_MAX);
	label(f, false, "role", rc_role_name(dev->role), SIZE_MAX);
	label(f, false, "driver", rc_driver_name_for(dev), SIZE_MAX);
	label(f, false, "scope", "agent", SIZE_MAX);
	fprintf(f, "} %d\n", ok ? 1 : 0);
	for (size_t m = 0; m < 2; m++) {
		family(f, name[m], help[m]);
		for (size_t i = 0; ok && i < n; i++) {
			if (!v[i].ok)
				continue;
			fputs(name[m], f);
			label(f, true, "device", dev->name, RC_NAME_MAX);
			label(f, false, "port", v[i].port, RC_NAME_MAX);
			label(f, false, "role", rc_role_name(dev->role), SIZE_MAX);
			label(f, false, "scope", "agent", SIZE_MAX);
			fprintf(f, "} %zu\n", m == 0 ? (size_t)(v[i].drift == 0) : v[i].drift);
		}
	}
}

/* The streaming verify's Prometheus file (include/rocectl/result.h): each family's samples
 * go to a spool file of their own as devices finish, and are copied out family by family at
 * the end, so that each family stays one group whatever order the devices finish in. */
static int spool_open(FILE **f, int *bad)
{
	*f = tmpfile();
	if (!*f && !*bad)
		*bad = errno ? errno : EIO;
	return *f ? 0 : -1;
}

int rc_prom_spool_init(struct rc_prom_spool *ps, struct rc_err *err)
{
	size_t n = rc_prom_n_families();
	int bad = 0;

	memset(ps, 0, sizeof(*ps));
	ps->counter = calloc(n ? n : 1, sizeof(*ps->counter));
	ps->counter_used = calloc(n ? n : 1, sizeof(*ps->counter_used));
	if (!ps->counter || !ps->counter_used)
		bad = ENOMEM;
	spool_open(&ps->up, &bad);
	for (int m = 0; m < 3; m++)
		spool_open(&ps->port[m], &bad);
	spool_open(&ps->field, &bad);
	spool_open(&ps->link_ok, &bad);
	spool_open(&ps->link_unknown, &bad);
	spool_open(&ps->host_ok, &bad);
	spool_open(&ps->host_unknown, &bad);
	for (size_t k = 0; !bad && k < n; k++)
		spool_open(&ps->counter[k], &bad);
	if (bad) {
		rc_prom_spool_fini(ps);
		return rc_errf(err, bad, "cannot make the metrics' spool files: %s", strerror(bad));
	}
	return 0;
}

/* One device's samples, slot by slot: 0 rocectl_device_up, 1-3 the port families, 4 the
 * field family, 5 on the counter families. */
#define SLOT_UP	     0
#define SLOT_PORT    1
#define SLOT_FIELD   4
#define SLOT_COUNTER 5

static void slot_lines(FILE *f, size_t slot, const struct rc_device *dev,
		       const struct rc_fleet_dev *d)
{
	if (slot == SLOT_UP)
		up_line(f, dev, d);
	else if (slot < SLOT_FIELD)
		port_lines(f, dev, d, (enum port_metric)(slot - SLOT_PORT));
	else if (slot == SLOT_FIELD)
		field_lines(f, dev, d);
	else
		counter_lines(f, slot - SLOT_COUNTER, dev, d, NULL);
}

static FILE *slot_file(struct rc_prom_spool *ps, size_t slot)
{
	if (slot == SLOT_UP)
		return ps->up;
	if (slot < SLOT_FIELD)
		return ps->port[slot - SLOT_PORT];
	if (slot == SLOT_FIELD)
		return ps->field;
	return ps->counter[slot - SLOT_COUNTER];
}

static void count_device(struct rc_prom_spool *ps, bool ok, size_t drift)
{
	ps->ok += ok;
	ps->failed += !ok;
	ps->drift += drift;
}

int rc_prom_lines_make(struct rc_prom_lines *l, const struct rc_device *dev,
		       const struct rc_fleet_dev *d)
{
	FILE *f;
	size_t size = 0;

	memset(l, 0, sizeof(*l));
	l->n = SLOT_COUNTER + rc_prom_n_families();
	l->end = calloc(l->n, sizeof(*l->end));
	f = l->end ? open_memstream(&l->buf, &size) : NULL;
	if (!f) {
		rc_prom_lines_fini(l);
		return -ENOMEM;
	}
	l->ok = dev_ok(d);
	l->drift = l->ok ? device_drift(d) : 0;
	/* one buffer for every family (one allocation a device, not one a family): slot i
	 * is [end[i - 1], end[i]) */
	for (size_t i = 0; i < l->n; i++) {
		long at;

		slot_lines(f, i, dev, d);
		at = ftell(f);
		l->end[i] = at < 0 ? 0 : (size_t)at;
	}
	if (fclose(f) || !l->buf || size != l->end[l->n - 1]) {
		rc_prom_lines_fini(l);
		return -ENOMEM;
	}
	return 0;
}

void rc_prom_lines_fini(struct rc_prom_lines *l)
{
	free(l->buf);
	free(l->end);
	memset(l, 0, sizeof(*l));
}

void rc_prom_spool_add(struct rc_prom_spool *ps, struct rc_prom_lines *l)
{
	count_device(ps, l->ok, l->drift);
	for (size_t i = 0, from = 0; i < l->n; from = l->end[i++]) {
		if (l->end[i] == from)
			continue;
		fwrite(l->buf + from, 1, l->end[i] - from, slot_file(ps, i));
		if (i >= SLOT_COUNTER)
			ps->counter_used[i - SLOT_COUNTER] = true;
	}
	rc_prom_lines_fini(l);
}

void rc_prom_spool_device(struct rc_prom_spool *ps, const struct rc_device *dev,
			  const struct rc_fleet_dev *d)
{
	size_t n = SLOT_COUNTER + rc_prom_n_families();

	count_device(ps, dev_ok(d), dev_ok(d) ? device_drift(d) : 0);
	for (size_t i = 0; i < n; i++) {
		FILE *f = slot_file(ps, i);
		long before = ftell(f);

		slot_lines(f, i, dev, d);
		if (i >= SLOT_COUNTER && ftell(f) != before)
			ps->counter_used[i - SLOT_COUNTER] = true;
	}
}

void rc_prom_spool_link(struct rc_prom_spool *ps, const struct rc_inventory *inv, size_t link,
			enum rc_check_status status)
{
	link_line(ps->link_ok, LINK_OK_FAMILY, inv, link, status == RC_CHECK_OK);
	link_line(ps->link_unknown, LINK_UNKNOWN_FAMILY, inv, link, status == RC_CHECK_UNKNOWN);
}

void rc_prom_spool_host(struct rc_prom_spool *ps, const struct rc_inventory *inv, size_t dev,
			enum rc_check_status status)
{
	host_line(ps->host_ok, HOST_OK_FAMILY, inv, dev, status == RC_CHECK_OK);
	host_line(ps->host_unknown, HOST_UNKNOWN_FAMILY, inv, dev, status == RC_CHECK_UNKNOWN);
}

/* The spool's samples after the family's header: 0, or an errno. */
static int copy_out(FILE *out, FILE *spool)
{
	char buf[65536];
	size_t n;

	if (fflush(spool) || ferror(spool) || fseek(spool, 0, SEEK_SET))
		return errno ? errno : EIO;
	while ((n = fread(buf, 1, sizeof(buf), spool)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			return errno ? errno : EIO;
	return ferror(spool) ? EIO : 0;
}

int rc_prom_spool_write(struct rc_prom_spool *ps, FILE *out, time_t when, struct rc_err *err)
{
	int bad;

	rc_prom_build_info(out, "verify");
	family(out, "rocectl_last_verify_timestamp_seconds",
	       "Unix time at which the fabric was last read");
	fprintf(out, "rocectl_last_verify_timestamp_seconds %lld\n", (long long)when);
	fleet_totals(out, ps->ok, ps->failed, ps->drift);
	/* the spooled families in the whole-fleet printer's order */
	const struct {
		const char *name, *help;
		FILE *spool;
	} fams[] = {
	    {UP_FAMILY, UP_HELP, ps->up},
	    {port_metric_name[0], port_metric_help[0], ps->port[0]},
	    {port_metric_name[1], port_metric_help[1], ps->port[1]},
	    {port_metric_name[2], port_metric_help[2], ps->port[2]},
	    {FIELD_FAMILY, FIELD_HELP, ps->field},
	    {LINK_OK_FAMILY, LINK_OK_HELP, ps->link_ok},
	    {LINK_UNKNOWN_FAMILY, LINK_UNKNOWN_HELP, ps->link_unknown},
	    {HOST_OK_FAMILY, HOST_OK_HELP, ps->host_ok},
	    {HOST_UNKNOWN_FAMILY, HOST_UNKNOWN_HELP, ps->host_unknown},
	};

	bad = 0;
	for (size_t i = 0; !bad && i < sizeof(fams) / sizeof(fams[0]); i++) {
		family(out, fams[i].name, fams[i].help);
		bad = copy_out(out, fams[i].spool);
	}
	for (size_t k = 0; !bad && k < rc_prom_n_families(); k++) {
		if (!ps->counter_used[k])
			continue;
		counter_header(out, rc_prom_family_at(k));
		bad = copy_out(out, ps->counter[k]);
	}
	if (bad)
		return rc_errf(err, bad, "cannot write the metrics: %s", strerror(bad));
	return 0;
}

void rc_prom_spool_fini(struct rc_prom_spool *ps)
{
	FILE *all[] = {ps->up,	    ps->port[0],      ps->port[1], ps->port[2],	    ps->field,
		       ps->link_ok, ps->link_unknown, ps->host_ok, ps->host_unknown};

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (all[i])
			fclose(all[i]);
	for (size_t k = 0; ps->counter && k < rc_prom_n_families(); k++)
		if (ps->counter[k])
			fclose(ps->counter[k]);
	free(ps->counter);
	free(ps->counter_used);
	memset(ps, 0, sizeof(*ps));
}
