/* SPDX-License-Identifier: Apache-2.0 */
/* The counters a ConnectX port exposes (mlx5's en_stats.c, drivers/infiniband/hw/mlx5/counters.c):
 * ethtool -S names of mlx5_core, RDMA hw_counters and IB port counters, carrier counters of the
 * netdev. */
#include <string.h>

#include "nicsim.h"

#define ETH(n)                                                                                     \
	{                                                                                          \
		n, NS_CK_ETH, -1                                                                   \
	}
#define HW(n)                                                                                      \
	{                                                                                          \
		n, NS_CK_HW, -1                                                                    \
	}
#define IB(n)                                                                                      \
	{                                                                                          \
		n, NS_CK_IB, -1                                                                    \
	}
#define TRAF(p)                                                                                    \
	{"rx_prio" #p "_bytes", NS_CK_ETH, p}, {"rx_prio" #p "_packets", NS_CK_ETH, p},            \
	    {"rx_prio" #p "_discards", NS_CK_ETH, p}, {"tx_prio" #p "_bytes", NS_CK_ETH, p},       \
	{                                                                                          \
		"tx_prio" #p "_packets", NS_CK_ETH, p                                              \
	}
/* mlx5 lists the per-priority pause group only for priorities with PFC on */
#define PFC(p)                                                                                     \
	{"rx_prio" #p "_pause", NS_CK_PFC, p}, {"rx_prio" #p "_pause_duration", NS_CK_PFC, p},     \
	    {"tx_prio" #p "_pause", NS_CK_PFC, p}, {"tx_prio" #p "_pause_duration", NS_CK_PFC, p}, \
	{                                                                                          \
		"rx_prio" #p "_pause_transition", NS_CK_PFC, p                                     \
	}
#define BUFD(p)                                                                                    \
	{"rx_prio" #p "_buf_discard", NS_CK_ETH, p}, {"rx_prio" #p "_cong_discard", NS_CK_ETH, p}, \
	{                                                                                          \
		"rx_prio" #p "_marked", NS_CK_ETH, p                                               \
	}

const struct ns_cdef ns_counters[] = {
    ETH("rx_packets"),
    ETH("rx_bytes"),
    ETH("tx_packets"),
    ETH("tx_bytes"),
    ETH("rx_out_of_buffer"),
    ETH("rx_packets_phy"),
    ETH("rx_bytes_phy"),
    ETH("tx_packets_phy"),
    ETH("tx_bytes_phy"),
    ETH("rx_discards_phy"),
    ETH("tx_discards_phy"),
    ETH("tx_errors_phy"),
    ETH("rx_pause_ctrl_phy"),
    ETH("tx_pause_ctrl_phy"),
    /* link-level pause in the real mlx5 answer too ($CONFORMANCE_DIR/host/ethtool/) */
    ETH("rx_global_pause"),
    ETH("tx_global_pause"),
    ETH("rx_buffer_passed_thres_phy"),
    ETH("link_down_events_phy"),
    TRAF(0),
    TRAF(1),
    TRAF(2),
    TRAF(3),
    TRAF(4),
    TRAF(5),
    TRAF(6),
    TRAF(7),
    PFC(0),
    PFC(1),
    PFC(2),
    PFC(3),
    PFC(4),
    PFC(5),
    PFC(6),
    PFC(7),
    ETH("tx_pause_storm_warning_events"),
    ETH("tx_pause_storm_error_events"),
    BUFD(0),
    BUFD(1),
    BUFD(2),
    BUFD(3),
    BUFD(4),
    BUFD(5),
    BUFD(6),
    BUFD(7),
    HW("rx_write_requests"),
    HW("rx_read_requests"),
    HW("rx_atomic_requests"),
    HW("out_of_buffer"),
    HW("out_of_sequence"),
    HW("duplicate_request"),
    HW("rnr_nak_retry_err"),
    HW("packet_seq_err"),
    HW("implied_nak_seq_err"),
    HW("local_ack_timeout_err"),
    HW("resp_local_length_error"),
    HW("resp_cqe_error"),
    HW("req_cqe_error"),
    HW("req_remote_invalid_request"),
    HW("req_remote_access_errors"),
    HW("resp_remote_access_errors"),
    HW("resp_cqe_flush_error"),
    HW("req_cqe_flush_error"),
    HW("roce_adp_retrans"),
    HW("roce_adp_retrans_to"),
    HW("roce_slow_restart"),
    HW("roce_slow_restart_cnps"),
    HW("roce_slow_restart_trans"),
    HW("rp_cnp_ignored"),
    HW("rp_cnp_handled"),
    HW("np_ecn_marked_roce_packets"),
    HW("np_cnp_sent"),
    HW("rx_icrc_encapsulated"),
    IB("port_xmit_data"),
    IB("port_rcv_data"),
    IB("port_xmit_packets"),
    IB("port_rcv_packets"),
    IB("port_rcv_errors"),
    IB("port_xmit_discards"),
    IB("symbol_error"),
    IB("link_downed"),
    IB("link_error_recovery"),
    IB("excessive_buffer_overrun_errors"),
    IB("local_link_integrity_errors"),
    IB("port_rcv_remote_physical_errors"),
    IB("port_rcv_switch_relay_errors"),
    IB("port_rcv_constraint_errors"),
    IB("port_xmit_constraint_errors"),
    IB("VL15_dropped"),
    IB("port_xmit_wait"),
    IB("unicast_xmit_packets"),
    IB("unicast_rcv_packets"),
    IB("multicast_xmit_packets"),
    IB("multicast_rcv_packets"),
    {"carrier_changes", NS_CK_LINK, -1},
    {"carrier_up_count", NS_CK_LINK, -1},
    {"carrier_down_count", NS_CK_LINK, -1},
    {"link_flaps", NS_CK_META, -1},
    {"dcb_sets", NS_CK_META, -1},
};

const size_t ns_ncounters = sizeof(ns_counters) / sizeof(ns_counters[0]);

_Static_assert(sizeof(ns_counters) / sizeof(ns_counters[0]) <= NS_MAX_COUNTERS,
	       "raise NS_MAX_COUNTERS");

int ns_counter_index(const char *name)
{
	for (size_t i = 0; i < ns_ncounters; i++)
		if (!strcmp(ns_counters[i].name, name))
			return (int)i;
	return -1;
}

void ns_counter_add(struct ns_nic *nic, const char *name, uint64_t n)
{
	int i = ns_counter_index(name);
	if (i >= 0) {
		nic->cnt.v[i] += n;
		nic->cnt_dirty = 1;
	}
}

uint64_t ns_counter_get(const struct ns_nic *nic, const char *name)
{
	int i = ns_counter_index(name);
	return i < 0 ? 0 : nic->cnt.v[i];
}

/* Whether `ethtool -S` lists counter i right now */
int ns_counter_visible(const struct ns_nic *nic, size_t i)
{
	const struct ns_cdef *d = &ns_counters[i];
	if (d->kind == NS_CK_ETH)
		return 1;
	if (d->kind == NS_CK_PFC)
		return (nic->cfg.pfc_en >> d->prio) & 1;
	return 0;
}

static int grow_wanted(const struct ns_faults *f, const char *name)
{
	if (f->n_grow == 0)
		return 1;
	for (int i = 0; i < f->n_grow; i++)
		if (!strcmp(f->grow_names[i], name))
			return 1;
	return 0;
}

/* The counters-grow fault: every read advances what it reads.  kind < 0 means every kind
 * that a reader sees; only >= 0 restricts the step to one counter.  Returns how many grew. */
int ns_counters_grow(struct ns_nic *nic, const struct ns_faults *f, int kind, int only)
{
	int n = 0;
	if (!f->grow)
		return 0;
	for (size_t i = 0; i < ns_ncounters; i++) {
		const struct ns_cdef *d = &ns_counters[i];
		if (only >= 0 && (size_t)only != i)
			continue;
		if (kind >= 0 && d->kind != kind && !(kind == NS_CK_ETH && d->kind == NS_CK_PFC))
			continue;
		if (d->kind == NS_CK_LINK || d->kind == NS_CK_META)
			continue;
		if (d->kind == NS_CK_PFC && !((nic->cfg.pfc_en >> d->prio) & 1))
			continue;
		if (!grow_wanted(f, d->name))
			continue;
		nic->cnt.v[i] += f->grow_step;
		n++;
	}
	if (n)
		nic->cnt_dirty = 1;
	return n;
}
