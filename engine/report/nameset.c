/* SPDX-License-Identifier: Apache-2.0 */
/* Name sets folded into ranges (include/rocectl/nameset.h).  The number of a name is its last
 * run of digits, zero padding kept as engine/config/range.c reads it back: "gpu[0001-2048]" is
 * gpu0001..gpu2048, "swp[1-32]" swp1..swp32. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/nameset.h"

#define MAX_DIGITS 9 /* keeps every number in 32 bits, as range.c does */

struct parsed {
	char name[RC_NAME_MAX];
	size_t at, len; /* the number in name; len 0: none */
	uint32_t n;
	uint8_t width; /* 0 unless the number has a leading zero */
};

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static void parse(const char *name, struct parsed *p)
{
	size_t end, at;

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	end = strlen(p->name);
	while (end > 0 && !is_digit(p->name[end - 1]))
		end--;
	at = end;
	while (at > 0 && is_digit(p->name[at - 1]))
		at--;
	if (end == at || end - at > MAX_DIGITS)
		return; /* no number, or one too long to count with: the name stands alone */
	p->at = at;
	p->len = end - at;
	for (size_t i = at; i < end; i++)
		p->n = p->n * 10 + (uint32_t)(p->name[i] - '0');
	p->width = p->len > 1 && p->name[at] == '0' ? (uint8_t)p->len : 0;
}

static size_t digits(uint32_t n)
{
	size_t d = 1;

	while (n >= 10) {
		n /= 10;
		d++;
	}
	return d;
}

static const char *suffix_of(const struct rc_name_run *r)
{
	return r->name + r->num_at + r->num_len;
}

/* Could `p` belong to run `r`: the same text around the number, and a number written the
 * way the run's are (padded to its width or longer, or not padded).  An unpadded run whose numbers
 * all have p's padded width becomes padded (gpu1000 first, then gpu0999). */
static bool same_family(const struct rc_name_run *r, const struct parsed *p, bool *widen)
{
	*widen = false;
	if (!r->num_len || !p->len || r->num_at != p->at || memcmp(r->name, p->name, p->at) ||
	    strcmp(suffix_of(r), p->name + p->at + p->len))
		return false;
	if (r->width) /* range.c pads to at least the width: leaf[01-128] is leaf01..leaf128 */
		return p->len == r->width || (!p->width && p->len > r->width);
	if (!p->width)
		return true;
	*widen = digits(r->first) == p->width && digits(r->last) == p->width;
	return *widen;
}

static bool runs_join(const struct rc_name_run *a, const struct rc_name_run *b)
{
	return a->num_len && b->num_len && a->num_at == b->num_at && a->width == b->width &&
	       !memcmp(a->name, b->name, a->num_at) && !strcmp(suffix_of(a), suffix_of(b)) &&
	       (b->first == a->last + 1 || a->first == b->last + 1);
}

/* Run i grew: a run it now touches is folded into it. */
static void merge_into(struct rc_nameset *s, size_t i)
{
	for (size_t k = 0; k < s->n_runs; k++) {
		struct rc_name_run *a = &s->run[i], *b = &s->run[k];

		if (k == i || !runs_join(a, b))
			continue;
		if (b->first < a->first)
			a->first = b->first;
		if (b->last > a->last)
			a->last = b->last;
		memmove(b, b + 1, (s->n_runs - k - 1) * sizeof(*b));
		s->n_runs--;
		return;
	}
}

/* 1: taken by run i (or already in it), 0: not this run's. */
static int take(struct rc_nameset *s, size_t i, const struct parsed *p)
{
	struct rc_name_run *r = &s->run[i];
	bool widen;

	if (!r->num_len || !p->len)
		return !r->num_len && !p->len && !strcmp(r->name, p->name);
	if (!same_family(r, p, &widen))
		return 0;
	if (p->n >= r->first && p->n <= r->last)
		return 1;
	if (p->n != r->last + 1 && p->n + 1 != r->first)
		return 0;
	if (p->n > r->last)
		r->last = p->n;
	else
		r->first = p->n;
	if (widen)
		r->width = p->width;
	s->kept++;
	merge_into(s, i);
	return 1;
}

void rc_nameset_add(struct rc_nameset *s, const char *name)
{
	struct rc_name_run *r;
	struct parsed p;

	parse(name, &p);
	/* the last runs first: names mostly come in order */
	for (size_t i = s->n_runs; i-- > 0;)
		if (take(s, i, &p))
			return;
	if (s->n_runs == RC_NAMESET_RUNS) {
		s->dropped++;
		return;
	}
	r = &s->run[s->n_runs++];
	memset(r, 0, sizeof(*r));
	memcpy(r->name, p.name, sizeof(r->name));
	r->num_at = (uint8_t)p.at;
	r->num_len = (uint8_t)p.len;
	r->width = p.width;
	r->first = r->last = p.n;
	s->kept++;
}

static size_t run_size(const struct rc_name_run *r)
{
	return (size_t)(r->last - r->first) + 1;
}

static void render(const struct rc_name_run *r, char *buf, size_t len)
{
	if (!r->num_len)
		snprintf(buf, len, "%s", r->name);
	else if (r->first == r->last)
		snprintf(buf, len, "%.*s%0*u%s", (int)r->num_at, r->name, (int)r->width, r->first,
			 suffix_of(r));
	else
		snprintf(buf, len, "%.*s[%0*u-%0*u]%s", (int)r->num_at, r->name, (int)r->width,
			 r->first, (int)r->width, r->last, suffix_of(r));
}

size_t rc_nameset_format(const struct rc_nameset *s, char *buf, size_t len)
{
	static const char more[] = ",...";
	size_t o = 0, left = s->dropped, i;

	if (!len)
		return s->kept + s->dropped;
	buf[0] = '\0';
	for (i = 0; i < s->n_runs; i++) {
		char piece[2 * RC_NAME_MAX + 24];
		bool last = i + 1 == s->n_runs && !s->dropped;
		size_t need;

		render(&s->run[i], piece, sizeof(piece));
		need = strlen(piece) + (o ? 1 : 0);
		if (o + need + (last ? 0 : sizeof(more) - 1) + 1 > len)
			break;
		o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? "," : "", piece);
	}
	for (size_t k = i; k < s->n_runs; k++)
		left += run_size(&s->run[k]);
	if (left && o + sizeof(more) <= len)
		snprintf(buf + o, len - o, "%s", o ? more : more + 1);
	return left;
}

/* A run's text around its number (a plain name: all of it). */
static void frame(const struct rc_name_run *r, char *buf, size_t len)
{
	if (!r->num_len)
		snprintf(buf, len, "%s", r->name);
	else
		snprintf(buf, len, "%.*s%s", (int)r->num_at, r->name, suffix_of(r));
}

static int run_cmp(const void *x, const void *y)
{
	const struct rc_name_run *a = x, *b = y;
	char fa[RC_NAME_MAX], fb[RC_NAME_MAX];
	int c;

	frame(a, fa, sizeof(fa));
	frame(b, fb, sizeof(fb));
	c = strcmp(fa, fb);
	if (c)
		return c;
	if (a->num_at != b->num_at)
		return a->num_at < b->num_at ? -1 : 1;
	return a->first < b->first ? -1 : a->first > b->first;
}

void rc_nameset_sort(struct rc_nameset *s)
{
	qsort(s->run, s->n_runs, sizeof(s->run[0]), run_cmp);
}
