/* SPDX-License-Identifier: Apache-2.0 */
/* Which shard of N each device is in (include/rocectl/shard.h): pods from the host-switch
 * links, dealt out largest first to the least loaded shard. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/shard.h"

int rc_shard_parse(const char *arg, unsigned *k, unsigned *n, struct rc_err *err)
{
	const char *slash = arg ? strchr(arg, '/') : NULL;
	char left[16];
	uint64_t a, b;
	size_t len = slash ? (size_t)(slash - arg) : 0;

	if (!slash || len == 0 || len >= sizeof(left))
		return rc_errf(err, EINVAL, "'%s' is not K/N (e.g. 2/8)", arg ? arg : "");
	memcpy(left, arg, len);
	left[len] = '\0';
	if (rc_parse_u64(slash + 1, 10, 1, RC_SHARD_MAX, &b))
		return rc_errf(err, EINVAL, "'%s': N must be a number from 1 to %u", arg,
			       RC_SHARD_MAX);
	if (rc_parse_u64(left, 10, 1, b, &a))
		return rc_errf(err, EINVAL, "'%s': K must be a number from 1 to N", arg);
	*k = (unsigned)a;
	*n = (unsigned)b;
	return 0;
}

static size_t find(size_t *up, size_t x)
{
	while (up[x] != x) {
		up[x] = up[up[x]];
		x = up[x];
	}
	return x;
}

struct unit {
	size_t root;   /* union-find root: the unit's id */
	size_t weight; /* devices */
	size_t key;    /* the device with the smallest name */
};

static const struct rc_inventory *sort_inv;

static int unit_cmp(const void *x, const void *y)
{
	const struct unit *a = x, *b = y;

	if (a->weight != b->weight)
		return a->weight > b->weight ? -1 : 1;
	return strcmp(sort_inv->devices[a->key].name, sort_inv->devices[b->key].name);
}

int rc_shard_assign(const struct rc_inventory *inv, unsigned n, unsigned *shard_of,
		    struct rc_err *err)
{
	size_t nd = inv->n_devices, nu = 0;
	size_t *up = malloc((nd + 1) * sizeof(*up));
	size_t *unit_of = malloc((nd + 1) * sizeof(*unit_of));
	struct unit *u = calloc(nd + 1, sizeof(*u));
	size_t *load = calloc(n + 1, sizeof(*load));
	unsigned *shard_of_unit = calloc(nd + 1, sizeof(*shard_of_unit));

	if (!up || !unit_of || !u || !load || !shard_of_unit || n == 0) {
		free(up);
		free(unit_of);
		free(u);
		free(load);
		free(shard_of_unit);
		return n ? rc_errf(err, ENOMEM, "out of memory") : rc_errf(err, EINVAL, "N is 0");
	}
	for (size_t d = 0; d < nd; d++)
		up[d] = d;
	/* a host and the switches it is cabled to are one pod */
	for (size_t l = 0; l < inv->n_links; l++) {
		size_t a = inv->links[l].a.dev, b = inv->links[l].b.dev;

		if (inv->devices[a].kind != inv->devices[b].kind)
			up[find(up, a)] = find(up, b);
	}
	for (size_t d = 0; d < nd; d++)
		unit_of[d] = SIZE_MAX;
	for (size_t d = 0; d < nd; d++) {
		size_t r = find(up, d);

		if (unit_of[r] == SIZE_MAX) {
			unit_of[r] = nu;
			u[nu].root = r;
			u[nu].key = d;
			nu++;
		}
		struct unit *x = &u[unit_of[r]];

		x->weight++;
		if (strcmp(inv->devices[d].name, inv->devices[x->key].name) < 0)
			x->key = d;
	}
	sort_inv = inv;
	qsort(u, nu, sizeof(*u), unit_cmp);
	for (size_t i = 0; i < nu; i++) {
		unsigned best = 1;

		for (unsigned s = 2; s <= n; s++)
			if (load[s] < load[best])
				best = s;
		load[best] += u[i].weight;
		unit_of[u[i].root] = i; /* sorted position */
		shard_of_unit[i] = best;
	}
	for (size_t d = 0; d < nd; d++)
		shard_of[d] = shard_of_unit[unit_of[find(up, d)]];
	free(up);
	free(unit_of);
	free(u);
	free(load);
	free(shard_of_unit);
	return 0;
}

int rc_shard_filter(struct rc_fleet *f, unsigned k, unsigned n, struct rc_err *err)
{
	unsigned *shard_of = malloc((f->inv->n_devices + 1) * sizeof(*shard_of));
	size_t kept = 0;
	int rc;

	if (!shard_of)
		return rc_errf(err, ENOMEM, "out of memory");
	rc = rc_shard_assign(f->inv, n, shard_of, err);
	for (size_t i = 0; !rc && i < f->n; i++)
		if (shard_of[f->devs[i].index] == k)
			f->devs[kept++] = f->devs[i];
	free(shard_of);
	if (rc)
		return rc;
	f->n = kept;
	return 0;
}

int rc_shard_file_sha256(const char *path, char out[RC_SHA256_HEX_LEN], struct rc_err *err)
{
	size_t len;
	/* the loaders' own cap (README.md: files are capped at 32 MiB) */
	char *buf = rc_read_file(path, 32u << 20, 0, &len, err);

	if (!buf)
		return -EIO;
	rc_sha256_hex(buf, len, out);
	free(buf);
	return 0;
}
