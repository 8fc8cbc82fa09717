/* SPDX-License-Identifier: Apache-2.0 */
/* Interned strings (include/rocectl/util.h): each distinct string stored once, for the
 * inventory's paths and names that most devices share (an identity file, a known_hosts, a
 * CA file, given once in `defaults:`).  A fixed-size array per device cost 256 bytes per
 * path, 1.4 KB of each 2.2 KB struct rc_device, 14 MB at 10,000 devices.  An open-addressing
 * table of pointers into blocks that never move, so that an interned string stays valid
 * until the pool is freed.  Single-threaded: the loader fills it, readers only read. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/util.h"

#define BLOCK_BYTES 4096u

struct pool_block {
	struct pool_block *next;
	size_t used, size;
	char data[];
};

struct rc_strpool {
	const char **slots; /* NULL = empty; a power of two */
	size_t n_slots, n_used;
	struct pool_block *blocks;
};

/* FNV-1a, 64 bits: short strings, no adversary worth more (the pool holds the operator's
 * own inventory). */
static uint64_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

struct rc_strpool *rc_strpool_new(void)
{
	return calloc(1, sizeof(struct rc_strpool));
}

void rc_strpool_free(struct rc_strpool *p)
{
	if (!p)
		return;
	for (struct pool_block *b = p->blocks, *next; b; b = next) {
		next = b->next;
		free(b);
	}
	free(p->slots);
	free(p);
}

static const char **find_slot(const char **slots, size_t n_slots, const char *s)
{
	size_t i = (size_t)hash(s) & (n_slots - 1);

	while (slots[i] && strcmp(slots[i], s))
		i = (i + 1) & (n_slots - 1);
	return &slots[i];
}

static int grow(struct rc_strpool *p)
{
	size_t n = p->n_slots ? p->n_slots * 2 : 64;
	const char **slots;

	if (n > SIZE_MAX / sizeof(*slots))
		return -ENOMEM;
	slots = calloc(n, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < p->n_slots; i++)
		if (p->slots[i])
			*find_slot(slots, n, p->slots[i]) = p->slots[i];
	free(p->slots);
	p->slots = slots;
	p->n_slots = n;
	return 0;
}

static char *store(struct rc_strpool *p, const char *s, size_t len)
{
	struct pool_block *b = p->blocks;
	char *out;

	if (!b || b->size - b->used < len + 1) {
		size_t size = len + 1 > BLOCK_BYTES ? len + 1 : BLOCK_BYTES;

		b = malloc(sizeof(*b) + size);
		if (!b)
			return NULL;
		b->used = 0;
		b->size = size;
		b->next = p->blocks;
		p->blocks = b;
	}
	out = b->data + b->used;
	memcpy(out, s, len + 1);
	b->used += len + 1;
	return out;
}

const char *rc_strpool_intern(struct rc_strpool *p, const char *s)
{
	const char **slot;
	char *copy;

	if (!p || !s)
		return NULL;
	/* at most half full, so that a probe ends soon */
	if ((p->n_used + 1) * 2 > p->n_slots && grow(p))
		return NULL;
	slot = find_slot(p->slots, p->n_slots, s);
	if (*slot)
		return *slot;
	copy = store(p, s, strlen(s));
	if (!copy)
		return NULL;
	*slot = copy;
	p->n_used++;
	return copy;
}
