/* SPDX-License-Identifier: Apache-2.0 */
/* verify --shard's data on its jsonl lines, and verify --merge, which reads them back
 * (include/rocectl/shard.h).
 *
 * The merge rebuilds the fleet one verify would have read: each device with its diff
 * (the changes of its "device" object), its error and read time, the states of its
 * link-end ports (expanded from their briefs: exactly what the link, dual-homing and
 * deadlock checks read) and its LLDP as read.  verify's printers then make the report, so
 * the link checks whose two ends were read by different shards are made here, as are
 * cabling and deadlock.
 *
 * The files are untrusted: every line must parse, every name fit and be the inventory's,
 * every number be in range; a device may be read once, by the shard it belongs to; each
 * file must end with its summary (a file cut short has none) whose counts match its lines;
 * every shard 1..N must be there, all of one inventory, policy and --limit.  Any of these
 * is an error and nothing is printed. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "rocectl/lldp.h"
#include "rocectl/shard.h"

/* A device's line: its changes and its link ends; a 128-port switch far from policy is
 * well under 1 MiB. */
#define MERGE_LINE_MAX (16u << 20)

/* ---- what --shard adds to the stream's lines ---------------------------------------------- */

static const char *lldp_state_name(int s)
{
	return s == RC_LLDP_OK	      ? "ok"
	       : s == RC_LLDP_UNKNOWN ? "unknown"
	       : s == RC_LLDP_ERROR   ? "error"
				      : "not-read";
}

static void brief_json(struct rc_out *o, const char *port, const struct rc_port_brief *b)
{
	rc_out_open_object(o, NULL);
	rc_out_str(o, "port", NULL, port);
	rc_out_uint(o, "flags", NULL, b->flags);
	rc_out_uint(o, "known", NULL, b->known);
	rc_out_uint(o, "unsupported", NULL, b->unsupported);
	rc_out_uint(o, "mtu", NULL, b->mtu);
	rc_out_uint(o, "trust", NULL, b->trust);
	rc_out_uint(o, "pfc_enabled", NULL, b->pfc_enabled);
	rc_out_uint(o, "roce_prio", NULL, b->roce_prio);
	rc_out_uint(o, "cnp_prio", NULL, b->cnp_prio);
	rc_out_uint(o, "kmin_bytes", NULL, b->kmin_bytes);
	rc_out_uint(o, "kmax_bytes", NULL, b->kmax_bytes);
	rc_out_close_object(o);
}

void rc_shard_device_data(struct rc_out *o, const struct rc_inventory *inv,
			  const struct rc_fleet_dev *d, const struct rc_port_brief *brief,
			  const size_t *ends, size_t n_ends)
{
	const struct rc_lldp_dev *l = d->lldp;

	rc_out_open_object(o, "shard_data");
	rc_out_open_array(o, "ends");
	for (size_t k = 0; k < n_ends; k++) {
		const struct rc_link *ln = &inv->links[ends[k] / 2];
		const struct rc_port_brief *b = &brief[ends[k]];

		if (b->flags & RC_BRIEF_READ)
			brief_json(o, ends[k] % 2 ? ln->b.port : ln->a.port, b);
	}
	rc_out_close_array(o);
	rc_out_open_object(o, "lldp");
	/* no LLDP kept: the session never opened (as stream.c and rc_lldp_read take it) */
	rc_out_str(o, "state", NULL, l ? lldp_state_name(l->state) : "none");
	if (l && l->err.msg[0])
		rc_out_str(o, "error", NULL, l->err.msg);
	rc_out_open_array(o, "neighbors");
	for (size_t i = 0; l && i < l->nb.n; i++) {
		rc_out_open_object(o, NULL);
		rc_out_str(o, "port", NULL, l->nb.v[i].port);
		rc_out_str(o, "device", NULL, l->nb.v[i].device);
		rc_out_str(o, "remote_port", NULL, l->nb.v[i].remote_port);
		rc_out_close_object(o);
	}
	rc_out_close_array(o);
	rc_out_open_array(o, "ids");
	for (size_t i = 0; l && i < l->nb.n_ids; i++) {
		rc_out_open_object(o, NULL);
		rc_out_str(o, "port", NULL, l->nb.ids[i].port);
		rc_out_str(o, "alias", NULL, l->nb.ids[i].alias);
		rc_out_str(o, "mac", NULL, l->nb.ids[i].mac);
		rc_out_close_object(o);
	}
	rc_out_close_array(o);
	rc_out_close_object(o);
	rc_out_close_object(o);
}

void rc_shard_summary_meta(struct rc_out *o, const struct rc_shard_meta *m)
{
	rc_out_open_object(o, "shard");
	rc_out_uint(o, "index", NULL, m->index);
	rc_out_uint(o, "count", NULL, m->count);
	rc_out_str(o, "limit", NULL, m->limit);
	rc_out_str(o, "policy_sha256", NULL, m->policy_sha256);
	rc_out_str(o, "inventory_sha256", NULL, m->inventory_sha256);
	rc_out_close_object(o);
}

/* ---- the merge ------------------------------------------------------------------------------ */

static int bad(struct rc_merge *m, struct rc_err *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int bad(struct rc_merge *m, struct rc_err *err, const char *fmt, ...)
{
	char msg[RC_ERR_MSG_MAX / 2];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return rc_errf(err, EINVAL, "%s:%zu: %s", m->path ? m->path : "-", m->line, msg);
}

/* A string member that fits `len` (NUL included); NULL member and `optional`: "". */
static int get_str(struct rc_merge *m, const cJSON *obj, const char *key, char *out, size_t len,
		   bool optional, struct rc_err *err)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!v && optional) {
		out[0] = '\0';
		return 0;
	}
	if (!cJSON_IsString(v) || !v->valuestring)
		return bad(m, err, "expected a string \"%s\"", key);
	if (strlen(v->valuestring) >= len)
		return bad(m, err, "\"%s\" is too long", key);
	memcpy(out, v->valuestring, strlen(v->valuestring) + 1);
	return 0;
}

static int get_u64(struct rc_merge *m, const cJSON *obj, const char *key, uint64_t max,
		   uint64_t *out, struct rc_err *err)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	/* cJSON keeps numbers as doubles: exact up to 2^53, which every value here is below */
	if (max > 1ull << 52)
		max = 1ull << 52;
	if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > (double)max ||
	    v->valuedouble != (double)(uint64_t)v->valuedouble)
		return bad(m, err, "expected a whole number \"%s\" in range", key);
	*out = (uint64_t)v->valuedouble;
	return 0;
}

static const struct rc_inventory *sort_inv;

static int name_cmp(const void *a, const void *b)
{
	return strcmp(sort_inv->devices[*(const size_t *)a].name,
		      sort_inv->devices[*(const size_t *)b].name);
}

static size_t device_index(const struct rc_merge *m, const char *name)
{
	size_t lo = 0, hi = m->inv->n_devices;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(m->inv->devices[m->by_name[mid]].name, name);

		if (!c)
			return m->by_name[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return SIZE_MAX;
}

int rc_merge_init(struct rc_merge *m, const struct rc_inventory *inv, const struct rc_policy *pol,
		  struct rc_err *err)
{
	size_t n = inv->n_devices + 1;
	unsigned *fill;

	memset(m, 0, sizeof(*m));
	m->inv = inv;
	m->pol = pol;
	m->devs = calloc(n, sizeof(*m->devs));
	m->from = calloc(n, sizeof(*m->from));
	m->shard_of = calloc(n, sizeof(*m->shard_of));
	m->seen_index = calloc(RC_SHARD_MAX + 1, sizeof(*m->seen_index));
	m->by_name = malloc(n * sizeof(*m->by_name));
	m->first = calloc(n, sizeof(*m->first));
	m->ends = calloc(2 * inv->n_links + 1, sizeof(*m->ends));
	if (!m->devs || !m->from || !m->shard_of || !m->seen_index || !m->by_name || !m->first ||
	    !m->ends) {
		rc_merge_fini(m);
		return rc_errf(err, ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < inv->n_devices; i++)
		m->by_name[i] = i;
	sort_inv = inv;
	qsort(m->by_name, inv->n_devices, sizeof(*m->by_name), name_cmp);
	/* each device's link ends, as stream.c indexes them: ends[first[d] .. first[d + 1]) */
	for (size_t l = 0; l < inv->n_links; l++) {
		m->first[inv->links[l].a.dev + 1]++;
		m->first[inv->links[l].b.dev + 1]++;
	}
	for (size_t d = 0; d < inv->n_devices; d++)
		m->first[d + 1] += m->first[d];
	/* m->from is all zero here and again after: a scratch count per device */
	fill = m->from;
	for (size_t l = 0; l < inv->n_links; l++) {
		size_t a = inv->links[l].a.dev, b = inv->links[l].b.dev;

		m->ends[m->first[a] + fill[a]++] = 2 * l;
		m->ends[m->first[b] + fill[b]++] = 2 * l + 1;
	}
	memset(m->from, 0, n * sizeof(*m->from));
	return 0;
}

void rc_merge_begin_file(struct rc_merge *m, const char *name)
{
	m->n_files++;
	m->path = name;
	m->line = 0;
	m->summary = false;
	m->devices_in_file = m->failed_in_file = m->drift_in_file = 0;
}

static uint32_t field_bit(const char *name)
{
	for (uint32_t bit = 1; bit && bit <= RC_F_ALL; bit <<= 1)
		if (!strcmp(rc_field_name(bit), name))
			return bit;
	return 0;
}

static int read_change(struct rc_merge *m, const cJSON *c, struct rc_change *out,
		       struct rc_err *err)
{
	char kind[16], note[RC_WHY_LEN];
	const cJSON *old = cJSON_GetObjectItemCaseSensitive(c, "old");
	const cJSON *dis = cJSON_GetObjectItemCaseSensitive(c, "disruptive");
	int rc;

	memset(out, 0, sizeof(*out));
	if (!cJSON_IsObject(c))
		return bad(m, err, "a change is not an object");
	if ((rc = get_str(m, c, "port", out->port, sizeof(out->port), false, err)) ||
	    (rc = get_str(m, c, "field", out->field, sizeof(out->field), false, err)) ||
	    (rc = get_str(m, c, "kind", kind, sizeof(kind), false, err)) ||
	    (rc = get_str(m, c, "new", out->new_value, sizeof(out->new_value), false, err)) ||
	    (rc = get_str(m, c, "note", note, sizeof(note), true, err)))
		return rc;
	if (!strcmp(kind, "set"))
		out->kind = RC_CHANGE_SET;
	else if (!strcmp(kind, "unknown"))
		out->kind = RC_CHANGE_UNKNOWN;
	else if (!strcmp(kind, "unsupported"))
		out->kind = RC_CHANGE_UNSUPPORTED;
	else if (!strcmp(kind, "warning"))
		out->kind = RC_CHANGE_UNSUPPORTED, out->warning = true;
	else
		return bad(m, err, "unknown change kind '%s'", kind);
	if (out->kind == RC_CHANGE_SET) {
		if ((rc = get_str(m, c, "old", out->old_value, sizeof(out->old_value), false, err)))
			return rc;
	} else if (!cJSON_IsNull(old)) {
		return bad(m, err, "\"old\" must be null for a change of kind %s", kind);
	}
	if (!cJSON_IsBool(dis))
		return bad(m, err, "expected true or false \"%s\"", "disruptive");
	out->disruptive = cJSON_IsTrue(dis);
	/* last: a change refused above holds nothing to free */
	if (rc_change_set_note(out, note))
		return rc_errf(err, ENOMEM, "out of memory");
	return 0;
}

static int read_changes(struct rc_merge *m, const cJSON *dev, struct rc_changes *out,
			struct rc_err *err)
{
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(dev, "changes");
	const cJSON *unv = cJSON_GetObjectItemCaseSensitive(dev, "unverified");
	const cJSON *c;
	int rc;

	if (!cJSON_IsArray(arr))
		return bad(m, err, "expected an array \"%s\"", "changes");
	if (unv && !cJSON_IsArray(unv))
		return bad(m, err, "expected an array \"%s\"", "unverified");
	cJSON_ArrayForEach(c, unv)
	{
		uint32_t bit = cJSON_IsString(c) ? field_bit(c->valuestring) : 0;

		if (!bit)
			return bad(m, err, "\"unverified\" names an unknown field group");
		out->unverified |= bit;
	}
	cJSON_ArrayForEach(c, arr)
	{
		if (rc_array_reserve((void **)&out->v, &out->cap, out->n + 1, sizeof(*out->v), 16))
			return rc_errf(err, ENOMEM, "out of memory");
		if ((rc = read_change(m, c, &out->v[out->n], err)))
			return rc;
		out->n++;
	}
	return 0;
}

/* Is `port` one of the device's link ends? */
static bool is_end_of(const struct rc_merge *m, size_t dev, const char *port)
{
	const struct rc_inventory *inv = m->inv;

	for (size_t k = m->first[dev]; k < m->first[dev + 1]; k++) {
		const struct rc_link *l = &inv->links[m->ends[k] / 2];

		if (!strcmp(m->ends[k] % 2 ? l->b.port : l->a.port, port))
			return true;
	}
	return false;
}

static int read_brief(struct rc_merge *m, const cJSON *e, struct rc_port_brief *b,
		      struct rc_err *err)
{
	uint64_t v[10];
	static const char *const keys[] = {"flags",	 "known",	"unsupported", "mtu",
					   "trust",	 "pfc_enabled", "roce_prio",   "cnp_prio",
					   "kmin_bytes", "kmax_bytes"};
	static const uint64_t max[] = {0x3f, RC_F_ALL, RC_F_ALL, UINT32_MAX, RC_TRUST_DSCP, 0xff,
				       RC_NPRIO - 1, RC_NPRIO - 1,
				       /* byte thresholds: within what a double holds exactly */
				       1ull << 52, 1ull << 52};
	int rc;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if ((rc = get_u64(m, e, keys[i], max[i], &v[i], err)))
			return rc;
	if (!(v[0] & RC_BRIEF_READ))
		return bad(m, err, "a link end that was not read");
	*b = (struct rc_port_brief){.flags = (uint8_t)v[0],
				    .known = (uint32_t)v[1],
				    .unsupported = (uint32_t)v[2],
				    .mtu = (uint32_t)v[3],
				    .trust = (uint8_t)v[4],
				    .pfc_enabled = (uint8_t)v[5],
				    .roce_prio = (uint8_t)v[6],
				    .cnp_prio = (uint8_t)v[7],
				    .kmin_bytes = v[8],
				    .kmax_bytes = v[9]};
	return 0;
}

/* The link-end ports' states, expanded from their briefs, as the device's `have`. */
static int read_ends(struct rc_merge *m, size_t dev, const cJSON *ends, struct rc_fleet_dev *d,
		     struct rc_err *err)
{
	const cJSON *e;
	int n, rc;

	if (!cJSON_IsArray(ends))
		return bad(m, err, "expected an array \"%s\"", "ends");
	n = cJSON_GetArraySize(ends);
	d->run.have = calloc(n ? (size_t)n : 1, sizeof(*d->run.have));
	if (!d->run.have)
		return rc_errf(err, ENOMEM, "out of memory");
	cJSON_ArrayForEach(e, ends)
	{
		struct rc_port_state *p = &d->run.have[d->run.n_ports];
		struct rc_port_brief b;

		if (!cJSON_IsObject(e))
			return bad(m, err, "a link end is not an object");
		if ((rc = get_str(m, e, "port", p->name, sizeof(p->name), false, err)) ||
		    (rc = read_brief(m, e, &b, err)))
			return rc;
		if (!is_end_of(m, dev, p->name))
			return bad(m, err, "'%s' is not a link end of the device in the inventory",
				   p->name);
		for (size_t i = 0; i < d->run.n_ports; i++)
			if (!strcmp(d->run.have[i].name, p->name))
				return bad(m, err, "link end '%s' twice", p->name);
		rc_port_brief_expand(m->pol, &b, &p->qos);
		d->run.n_ports++;
	}
	return 0;
}

static int read_lldp(struct rc_merge *m, const cJSON *l, struct rc_fleet_dev *d, struct rc_err *err)
{
	char state[16];
	const cJSON *e, *nb = cJSON_GetObjectItemCaseSensitive(l, "neighbors"),
			*ids = cJSON_GetObjectItemCaseSensitive(l, "ids");
	struct rc_lldp_dev *ld;
	int rc;

	if (!cJSON_IsObject(l))
		return bad(m, err, "expected an object \"%s\"", "lldp");
	if (!cJSON_IsArray(nb) || !cJSON_IsArray(ids))
		return bad(m, err, "expected arrays \"neighbors\" and \"ids\"");
	ld = d->lldp = calloc(1, sizeof(*ld));
	if (!ld)
		return rc_errf(err, ENOMEM, "out of memory");
	if ((rc = get_str(m, l, "state", state, sizeof(state), false, err)) ||
	    (rc = get_str(m, l, "error", ld->err.msg, sizeof(ld->err.msg), true, err)))
		return rc;
	if (!strcmp(state, "ok"))
		ld->state = RC_LLDP_OK;
	else if (!strcmp(state, "unknown"))
		ld->state = RC_LLDP_UNKNOWN;
	else if (!strcmp(state, "error") || !strcmp(state, "none"))
		/* "none": the session never opened; an error with nothing more to say (the
		 * merge opens no session to ask again) */
		ld->state = RC_LLDP_ERROR;
	else if (!strcmp(state, "not-read"))
		ld->state = RC_LLDP_NOT_READ;
	else
		return bad(m, err, "unknown LLDP state '%s'", state);
	cJSON_ArrayForEach(e, nb)
	{
		char port[RC_NAME_MAX], dev[RC_NAME_MAX], rport[RC_NAME_MAX];

		if (!cJSON_IsObject(e))
			return bad(m, err, "a neighbour is not an object");
		if ((rc = get_str(m, e, "port", port, sizeof(port), false, err)) ||
		    (rc = get_str(m, e, "device", dev, sizeof(dev), false, err)) ||
		    (rc = get_str(m, e, "remote_port", rport, sizeof(rport), false, err)))
			return rc;
		if (rc_neighbors_add(&ld->nb, port, dev, rport))
			return rc_errf(err, ENOMEM, "out of memory");
	}
	cJSON_ArrayForEach(e, ids)
	{
		char port[RC_NAME_MAX], alias[RC_NAME_MAX], mac[18];

		if (!cJSON_IsObject(e))
			return bad(m, err, "a port identity is not an object");
		if ((rc = get_str(m, e, "port", port, sizeof(port), false, err)) ||
		    (rc = get_str(m, e, "alias", alias, sizeof(alias), false, err)) ||
		    (rc = get_str(m, e, "mac", mac, sizeof(mac), false, err)))
			return rc;
		if (rc_neighbors_add_ident(&ld->nb, port, alias, mac))
			return rc_errf(err, ENOMEM, "out of memory");
	}
	return 0;
}

static void dev_fini(struct rc_fleet_dev *d)
{
	rc_changes_fini(&d->run.changes);
	free(d->run.have);
	rc_lldp_dev_free(d->lldp);
	memset(d, 0, sizeof(*d));
}

static int read_device(struct rc_merge *m, const cJSON *line, struct rc_err *err)
{
	const cJSON *dev = cJSON_GetObjectItemCaseSensitive(line, "device");
	const cJSON *data = cJSON_GetObjectItemCaseSensitive(line, "shard_data");
	const cJSON *error = cJSON_GetObjectItemCaseSensitive(dev, "error");
	char name[RC_NAME_MAX];
	struct rc_fleet_dev *d;
	uint64_t ms;
	size_t i;
	int rc;

	if (!cJSON_IsObject(dev))
		return bad(m, err, "expected an object \"%s\"", "device");
	if (!cJSON_IsObject(data))
		return bad(m, err,
			   "a device without \"shard_data\": not made by verify --shard K/N "
			   "--format jsonl");
	if ((rc = get_str(m, dev, "device", name, sizeof(name), false, err)))
		return rc;
	i = device_index(m, name);
	if (i == SIZE_MAX)
		return bad(m, err, "'%s' is not a device of the inventory", name);
	if (m->from[i])
		return bad(m, err,
			   m->from[i] == m->n_files ? "'%s' appears twice in this file"
						    : "'%s' appears in two shards' files",
			   name);
	d = &m->devs[i];
	memset(d, 0, sizeof(*d));
	d->index = i;
	m->from[i] = (unsigned)m->n_files;
	if ((rc = get_u64(m, dev, "read_ms", UINT32_MAX, &ms, err)))
		return rc;
	d->read_ms = (uint32_t)ms;
	if (error) {
		if ((rc = get_str(m, dev, "error", d->err.msg, sizeof(d->err.msg), false, err)))
			return rc;
		d->rc = -EIO;
		m->failed_in_file++;
	}
	if ((rc = read_changes(m, dev, &d->run.changes, err)) ||
	    (rc = read_ends(m, i, cJSON_GetObjectItemCaseSensitive(data, "ends"), d, err)) ||
	    (rc = read_lldp(m, cJSON_GetObjectItemCaseSensitive(data, "lldp"), d, err)))
		return rc;
	d->run.read_ok = !d->rc;
	d->n_changes = (int)rc_changes_count(&d->run.changes, RC_CHANGE_SET);
	m->devices_in_file++;
	if (!d->rc)
		m->drift_in_file += rc_changes_count(&d->run.changes, RC_CHANGE_SET) +
				    rc_changes_count(&d->run.changes, RC_CHANGE_UNKNOWN);
	return 0;
}

static int read_summary(struct rc_merge *m, const cJSON *line, struct rc_err *err)
{
	const cJSON *s = cJSON_GetObjectItemCaseSensitive(line, "summary");
	const cJSON *sh = cJSON_GetObjectItemCaseSensitive(line, "shard");
	char limit[sizeof(m->limit)], psha[RC_SHA256_HEX_LEN], isha[RC_SHA256_HEX_LEN];
	uint64_t devices, errors, drift, index, count;
	int rc;

	if (!cJSON_IsObject(s))
		return bad(m, err, "expected an object \"%s\"", "summary");
	if (!cJSON_IsObject(sh))
		return bad(m, err, "a summary without \"shard\": not made by verify --shard K/N");
	if ((rc = get_u64(m, s, "devices", SIZE_MAX, &devices, err)) ||
	    (rc = get_u64(m, s, "errors", SIZE_MAX, &errors, err)) ||
	    (rc = get_u64(m, s, "drifted_fields", SIZE_MAX, &drift, err)) ||
	    (rc = get_u64(m, sh, "count", RC_SHARD_MAX, &count, err)) ||
	    (rc = get_u64(m, sh, "index", count, &index, err)) ||
	    (rc = get_str(m, sh, "limit", limit, sizeof(limit), false, err)) ||
	    (rc = get_str(m, sh, "policy_sha256", psha, sizeof(psha), false, err)) ||
	    (rc = get_str(m, sh, "inventory_sha256", isha, sizeof(isha), false, err)))
		return rc;
	if (index == 0)
		return bad(m, err, "shard index 0");
	if (devices != m->devices_in_file || errors != m->failed_in_file ||
	    drift != m->drift_in_file)
		return bad(m, err,
			   "the summary counts other devices than the file's lines "
			   "(a line lost?)");
	if (m->count && count != m->count)
		return bad(m, err, "the files are shards of different counts N");
	if (m->count && strcmp(limit, m->limit))
		return bad(m, err, "the files were made with different --limit ('%s')", limit);
	if (m->policy_sha256 && strcmp(psha, m->policy_sha256))
		return bad(m, err, "made with another policy than -p (its SHA-256 differs)");
	if (m->inventory_sha256 && strcmp(isha, m->inventory_sha256))
		return bad(m, err, "made with another inventory than -i (its SHA-256 differs)");
	if (m->seen_index[index]) {
		char what[32];

		snprintf(what, sizeof(what), "%" PRIu64 "/%" PRIu64, index, count);
		return bad(m, err, "shard %s twice", what);
	}
	if (!m->count) {
		m->count = (unsigned)count;
		memcpy(m->limit, limit, sizeof(limit));
		if (rc_shard_assign(m->inv, m->count, m->shard_of, err))
			return -ENOMEM;
	}
	m->seen_index[index] = (unsigned)m->n_files;
	m->summary = true;
	/* every device of this file is of its shard */
	for (size_t i = 0; i < m->inv->n_devices; i++)
		if (m->from[i] == m->n_files && m->shard_of[i] != index) {
			char what[RC_NAME_MAX + 32];

			snprintf(what, sizeof(what), "'%s' (of shard %u)", m->inv->devices[i].name,
				 m->shard_of[i]);
			return bad(m, err, "%s was read by another shard", what);
		}
	return 0;
}

int rc_merge_line(struct rc_merge *m, const char *text, size_t len, struct rc_err *err)
{
	cJSON *line;
	const cJSON *v;
	int rc = 0;

	m->line++;
	if (m->summary)
		return bad(m, err, "a line after the summary");
	line = cJSON_ParseWithLength(text, len);
	if (!cJSON_IsObject(line)) {
		cJSON_Delete(line);
		return bad(m, err, "not a JSON object (a garbled or cut line)");
	}
	v = cJSON_GetObjectItemCaseSensitive(line, "schema_version");
	if (!cJSON_IsNumber(v) || v->valuedouble != RC_JSON_SCHEMA_VERSION)
		rc = bad(m, err, "not a rocectl line of this schema_version");
	else if (cJSON_GetObjectItemCaseSensitive(line, "device"))
		rc = read_device(m, line, err);
	else if (cJSON_GetObjectItemCaseSensitive(line, "summary"))
		rc = read_summary(m, line, err);
	else if (!cJSON_GetObjectItemCaseSensitive(line, "link") &&
		 !cJSON_GetObjectItemCaseSensitive(line, "host") &&
		 !cJSON_GetObjectItemCaseSensitive(line, "deadlock") &&
		 !cJSON_GetObjectItemCaseSensitive(line, "cabling"))
		rc = bad(m, err, "not a line of verify --format jsonl");
	/* the shard's own link, host, deadlock and cabling lines are made again from all */
	cJSON_Delete(line);
	return rc;
}

int rc_merge_end_file(struct rc_merge *m, struct rc_err *err)
{
	if (!m->summary)
		return rc_errf(err, EINVAL,
			       "%s: no summary line: the file is cut short or not a finished "
			       "verify --shard K/N --format jsonl",
			       m->path ? m->path : "-");
	return 0;
}

/* One line of `in` into *buf (grown, at most MERGE_LINE_MAX + 1 bytes kept): its length
 * with the newline, 0 at the end, -EFBIG for a longer line (read no further).  Byte by
 * byte: a NUL in the line must not end it (fgets would hide what follows). */
static ssize_t read_line(FILE *in, char **buf, size_t *cap)
{
	size_t len = 0;
	int c;

	while ((c = getc_unlocked(in)) != EOF) {
		if (len == *cap) {
			size_t want = *cap ? *cap * 2 : 65536;
			char *p;

			if (len > MERGE_LINE_MAX)
				return -EFBIG;
			p = realloc(*buf, want);
			if (!p)
				return -ENOMEM;
			*buf = p;
			*cap = want;
		}
		(*buf)[len++] = (char)c;
		if (c == '\n')
			break;
	}
	return (ssize_t)len;
}

int rc_merge_file(struct rc_merge *m, FILE *in, const char *name, struct rc_err *err)
{
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;
	int rc = 0;

	rc_merge_begin_file(m, name);
	while (!rc && (n = read_line(in, &buf, &cap)) != 0) {
		if (n == -ENOMEM)
			rc = rc_errf(err, ENOMEM, "out of memory");
		else if (n < 0 || (size_t)n > MERGE_LINE_MAX)
			rc = (m->line++, bad(m, err, "a line longer than 16 MiB"));
		else if (buf[n - 1] != '\n')
			/* each line ends in a newline: one that does not was cut */
			rc = (m->line++, bad(m, err, "a line without its newline (cut short)"));
		else if (memchr(buf, '\0', (size_t)n - 1))
			rc = (m->line++, bad(m, err, "a NUL byte in the line (not JSON text)"));
		else
			rc = rc_merge_line(m, buf, (size_t)n - 1, err);
	}
	free(buf);
	if (!rc && ferror(in))
		rc = rc_errf(err, EIO, "%s: read error", name);
	return rc ? rc : rc_merge_end_file(m, err);
}

int rc_merge_finish(struct rc_merge *m, struct rc_fleet *f, struct rc_err *err)
{
	const struct rc_inventory *inv = m->inv;
	bool *sel = calloc(inv->n_devices + 1, sizeof(*sel));
	char missing[RC_ERR_MSG_MAX / 2] = "";
	size_t n_missing = 0, off = 0;
	int rc = 0;

	if (!sel)
		return rc_errf(err, ENOMEM, "out of memory");
	if (!m->count) {
		free(sel);
		return rc_errf(err, EINVAL, "no shard was read");
	}
	for (unsigned k = 1; k <= m->count; k++)
		if (!m->seen_index[k]) {
			free(sel);
			return rc_errf(err, EINVAL, "shard %u/%u is missing: no file is that shard",
				       k, m->count);
		}
	if (m->limit[0] && rc_limit_select(inv, m->limit, sel, err)) {
		free(sel);
		return -EINVAL;
	}
	for (size_t i = 0; i < inv->n_devices; i++) {
		if (!m->limit[0])
			sel[i] = true;
		if (sel[i] && !m->from[i]) {
			if (n_missing++ < 8 && off < sizeof(missing))
				off +=
				    (size_t)snprintf(missing + off, sizeof(missing) - off, "%s%s",
						     off ? ", " : "", inv->devices[i].name);
		} else if (!sel[i] && m->from[i]) {
			rc = rc_errf(err, EINVAL, "'%s' was read but is outside --limit '%s'",
				     inv->devices[i].name, m->limit);
		}
	}
	free(sel);
	if (rc)
		return rc;
	if (n_missing)
		return rc_errf(err, EINVAL,
			       "%zu device%s of the selection in no file (%s%s): a shard's file is "
			       "incomplete",
			       n_missing, n_missing == 1 ? "" : "s", missing,
			       n_missing > 8 ? ", ..." : "");
	memset(f, 0, sizeof(*f));
	f->inv = inv;
	f->pol = m->pol;
	f->parallel = 1;
	f->devs = m->devs;
	for (size_t i = 0; i < inv->n_devices; i++)
		if (m->from[i])
			f->devs[f->n++] = m->devs[i];
	/* compacted in place: m->devs[f->n..] are moved-from copies, cleared below */
	for (size_t i = f->n; i < inv->n_devices; i++)
		memset(&m->devs[i], 0, sizeof(m->devs[i]));
	return 0;
}

void rc_merge_fini(struct rc_merge *m)
{
	for (size_t i = 0; m->devs && m->inv && i < m->inv->n_devices; i++)
		dev_fini(&m->devs[i]);
	free(m->devs);
	free(m->from);
	free(m->shard_of);
	free(m->seen_index);
	free(m->by_name);
	free(m->first);
	free(m->ends);
	memset(m, 0, sizeof(*m));
}
