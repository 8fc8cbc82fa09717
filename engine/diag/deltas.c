/* SPDX-License-Identifier: Apache-2.0 */
/* Counter deltas per port between two samples, by meaning (include/rocectl/diag.h).  The
 * names are the drivers' vendor-neutral ones (drivers/host/counters.c,
 * drivers/switch/{nvue,sonic,eos}_counters.c): "pfc_pause_tx[3]", "ecn_marked", "cnp_sent", ... */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/util.h"
#include "rocectl/diag.h"

/* "pfc_pause_tx[3]" with base "pfc_pause_tx": the index 0..7, -1 without one (EOS counts
 * per port), -2 when name is not base at all. */
static int indexed(const char *name, const char *base)
{
	size_t n = strlen(base);

	if (strncmp(name, base, n))
		return -2;
	if (!name[n])
		return -1;
	if (name[n] == '[' && name[n + 1] >= '0' && name[n + 1] <= '7' && name[n + 2] == ']' &&
	    !name[n + 3])
		return name[n + 1] - '0';
	return -2;
}

/* Counted when per-port (i == -1) or on an index of mask. */
static bool in_scope(int i, uint8_t mask)
{
	return i == -1 || (i >= 0 && (mask >> i) & 1);
}

static void add(uint64_t *field, uint32_t *have, uint32_t bit, uint64_t delta)
{
	*field += delta;
	*have |= bit;
}

/* A per-priority or per-class counter: true when name is base[...] (whether or not it is
 * counted). */
static bool scoped(struct rc_diag_deltas *d, const char *name, const char *base, uint8_t mask,
		   uint64_t *field, uint32_t bit, uint64_t delta)
{
	int i = indexed(name, base);

	if (i == -2)
		return false;
	if (in_scope(i, mask))
		add(field, &d->have, bit, delta);
	else
		d->have |= bit;
	return true;
}

struct plain {
	const char *name;
	size_t off;
	uint32_t bit;
};

#define F(field) offsetof(struct rc_diag_deltas, field)

static const struct plain plain_names[] = {
    {"ecn_marked_received", F(ecn_received), RC_DH_ECN_RECEIVED},
    {"cnp_sent", F(cnp_sent), RC_DH_CNP_SENT},
    {"cnp_handled", F(cnp_handled), RC_DH_CNP_HANDLED},
    {"rdma_rx_out_of_buffer", F(out_of_buffer), RC_DH_OUT_OF_BUFFER},
    {"rx_ring_out_of_buffer", F(out_of_buffer), RC_DH_OUT_OF_BUFFER},
    {"rdma_out_of_sequence", F(seq_errors), RC_DH_SEQ_ERRORS},
    {"rdma_packet_seq_errors", F(seq_errors), RC_DH_SEQ_ERRORS},
    {"rdma_implied_nak_seq_errors", F(seq_errors), RC_DH_SEQ_ERRORS},
    {"pfc_storm_warnings", F(storm_events), RC_DH_STORM},
    {"pfc_storm_errors", F(storm_events), RC_DH_STORM},
    {"rx_port_buffer_discards", F(discards), RC_DH_DISCARDS},
    {"tx_port_discards", F(discards), RC_DH_DISCARDS},
};

/* Fold `name` (struct rc_counter.name) with its delta into d.  Unknown names are ignored;
 * a drop counter (is_drop) of no known kind counts as a discard. */
static void rc_diag_count(struct rc_diag_deltas *d, const struct rc_diag_scope *scope,
			  const char *name, bool is_drop, uint64_t delta)
{
	uint8_t pm = scope->prio_mask, tm = scope->tc_mask;

	if (scoped(d, name, "pfc_pause_tx", pm, &d->pause_tx, RC_DH_PAUSE_TX, delta) ||
	    scoped(d, name, "pfc_pause_rx", pm, &d->pause_rx, RC_DH_PAUSE_RX, delta) ||
	    scoped(d, name, "pfc_pause_tx_duration_us", pm, &d->pause_tx_us, RC_DH_PAUSE_US,
		   delta) ||
	    scoped(d, name, "ecn_marked", tm, &d->ecn_marked, RC_DH_ECN_MARKED, delta) ||
	    /* drops per priority (NIC receive buffer) or per class (switch egress, WRED):
	     * only the lossless ones say the fabric lost what it promised to keep */
	    scoped(d, name, "rx_buffer_discards", pm, &d->discards, RC_DH_DISCARDS, delta) ||
	    scoped(d, name, "rx_congestion_discards", pm, &d->discards, RC_DH_DISCARDS, delta) ||
	    scoped(d, name, "egress_buffer_discards", tm, &d->discards, RC_DH_DISCARDS, delta) ||
	    scoped(d, name, "egress_buffer_discard_bytes", tm, &d->discards, RC_DH_DISCARDS,
		   delta) ||
	    scoped(d, name, "wred_discards", tm, &d->discards, RC_DH_DISCARDS, delta) ||
	    /* SONiC: queue drops per queue (queuestat), ingress PG drops (pg-drop) by the
	     * priority the PG carries; EOS: egress queue drops per traffic class */
	    scoped(d, name, "egress_queue_discards", tm, &d->discards, RC_DH_DISCARDS, delta) ||
	    scoped(d, name, "pg_discards", pm, &d->discards, RC_DH_DISCARDS, delta) ||
	    /* EOS: VoQ drops per traffic class (show interfaces counters queue drops) */
	    scoped(d, name, "voq_discards", tm, &d->discards, RC_DH_DISCARDS, delta))
		return;
	for (size_t i = 0; i < sizeof(plain_names) / sizeof(plain_names[0]); i++) {
		if (strcmp(name, plain_names[i].name))
			continue;
		add((uint64_t *)((char *)d + plain_names[i].off), &d->have, plain_names[i].bit,
		    delta);
		return;
	}
	/* another per-priority counter (rx_packets[3], pause durations on rx) says nothing
	 * here; another drop counter (tx_errors, ICRC errors) is a loss all the same */
	if (is_drop && !strchr(name, '['))
		add(&d->discards, &d->have, RC_DH_DISCARDS, delta);
}

void rc_diag_dev_fini(struct rc_diag_dev *d)
{
	free(d->v);
	d->v = NULL;
	d->n = 0;
	d->sampled = false;
}

static struct rc_diag_port *port_of(struct rc_diag_dev *d, const char *name, size_t *cap)
{
	struct rc_diag_port *v;

	for (size_t i = d->n; i > 0; i--)
		if (!strcmp(d->v[i - 1].name, name))
			return &d->v[i - 1];
	if (rc_array_reserve((void **)&d->v, cap, d->n + 1, sizeof(*d->v), 8))
		return NULL;
	v = &d->v[d->n++];
	memset(v, 0, sizeof(*v));
	snprintf(v->name, sizeof(v->name), "%s", name);
	return v;
}

/* The same counter in the other sample: usually at the same position. */
static const struct rc_counter *match(const struct rc_counters *c, size_t hint,
				      const struct rc_counter *e)
{
	if (hint < c->n && !strcmp(c->v[hint].port, e->port) && !strcmp(c->v[hint].name, e->name))
		return &c->v[hint];
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].port, e->port) && !strcmp(c->v[i].name, e->name))
			return &c->v[i];
	return NULL;
}

int rc_diag_dev_build(struct rc_diag_dev *out, const struct rc_counters *before,
		      const struct rc_counters *after, const struct rc_diag_scope *scope,
		      struct rc_err *err)
{
	size_t cap = 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < after->n; i++) {
		const struct rc_counter *a = &after->v[i], *b = match(before, i, a);
		struct rc_diag_port *p;
		uint64_t delta;

		if (!b || a->not_enabled || b->not_enabled)
			continue;
		p = port_of(out, a->port, &cap);
		if (!p) {
			rc_diag_dev_fini(out);
			return rc_errf(err, ENOMEM, "out of memory");
		}
		if (a->value >= b->value) {
			delta = a->value - b->value;
		} else {
			delta = a->value;
			p->d.reset = true;
		}
		rc_diag_count(&p->d, scope, a->name, a->is_drop, delta);
	}
	out->sampled = true;
	return 0;
}

const struct rc_diag_deltas *rc_diag_dev_port(const struct rc_diag_dev *d, const char *port)
{
	if (!d || !d->sampled || !port)
		return NULL;
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->v[i].name, port))
			return &d->v[i].d;
	return NULL;
}

int rc_counters_delta(struct rc_counters *out, const struct rc_counters *before,
		      const struct rc_counters *after, size_t *resets, size_t *unmatched)
{
	for (size_t i = 0; i < after->n; i++) {
		const struct rc_counter *a = &after->v[i], *b = match(before, i, a);
		int rc;

		if (a->not_enabled) {
			rc = rc_counters_add_disabled(out, a->port, a->name, a->source);
		} else if (!b || b->not_enabled) {
			(*unmatched)++;
			continue;
		} else {
			*resets += a->value < b->value;
			rc = rc_counters_add(out, a->port, a->name, a->source,
					     a->value >= b->value ? a->value - b->value : a->value,
					     a->is_drop);
		}
		if (rc)
			return -ENOMEM;
	}
	return 0;
}
