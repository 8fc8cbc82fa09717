/* SPDX-License-Identifier: Apache-2.0 */
/* The devices' counters (verify --counters) as Prometheus metrics.  Prometheus' naming rules
 * (prometheus.io "Metric and label naming", enforced by `promtool check metrics`): one
 * metric per quantity with what varies in labels, base units (seconds, bytes), counters
 * ending in _total, and no type word in the name.  So "pfc_pause_rx[3]" is
 * rocectl_pfc_pause_frames_total{direction="rx",priority="3"}, not one metric with sixty
 * meanings.  The counter names are the drivers' own (drivers/host/counters.c,
 * drivers/switch/ *_counters.c); a family omits the index label where a platform counts
 * the whole port (EOS pause frames, NVUE ECN marks). */
#include <stdlib.h>
#include <string.h>

#include "prom_counters.h"

enum {
	F_PFC_PAUSE,
	F_PFC_PAUSE_SECONDS,
	F_PFC_PAUSE_TRANSITIONS,
	F_PAUSE_CONTROL,
	F_GLOBAL_PAUSE,
	F_PFC_STORM,
	F_ECN_MARKED,
	F_ECN_RECEIVED,
	F_CNP,
	F_DISCARDS,
	F_DISCARD_BYTES,
	F_ERRORS,
	F_PACKETS,
	F_BUFFER_EVENTS,
	F_RDMA_PACKETS,
	F_RDMA_OPS,
	F_RDMA_EVENTS,
	F_ROCE_EVENTS,
	F_OTHER,
	F_N
};

static const struct rc_prom_family families[F_N] = {
    [F_PFC_PAUSE] = {"rocectl_pfc_pause_frames_total",
		     "PFC pause frames by direction and priority (no priority label: the port's "
		     "total, where the platform counts only that)"},
    [F_PFC_PAUSE_SECONDS] = {"rocectl_pfc_pause_duration_seconds_total",
			     "Time the port was paused by PFC, by direction and priority"},
    [F_PFC_PAUSE_TRANSITIONS] =
	{"rocectl_pfc_pause_transitions_total",
	 "Transitions into the PFC paused state, by direction and priority"},
    [F_PAUSE_CONTROL] = {"rocectl_pause_control_frames_total",
			 "MAC control (pause) frames of every kind, by direction"},
    [F_GLOBAL_PAUSE] = {"rocectl_global_pause_frames_total",
			"802.3x global (link-level) pause frames, by direction"},
    [F_PFC_STORM] = {"rocectl_pfc_storm_events_total",
		     "PFC pause storm events of the NIC's storm prevention, by severity"},
    [F_ECN_MARKED] = {"rocectl_ecn_marked_packets_total",
		      "Packets marked ECN CE, by queue (switch) or priority (NIC); no label: "
		      "the port's total"},
    [F_ECN_RECEIVED] = {"rocectl_ecn_received_packets_total",
			"RoCE packets that arrived with ECN CE set (source: the NIC counter)"},
    [F_CNP] = {"rocectl_cnp_packets_total",
	       "Congestion notification packets, by event (sent, received, handled, ignored)"},
    [F_DISCARDS] = {"rocectl_discards_total",
		    "Packets dropped, by reason and direction (and priority or queue where "
		    "counted so)"},
    [F_DISCARD_BYTES] = {"rocectl_discards_bytes_total", "Bytes dropped, by reason and queue"},
    [F_ERRORS] = {"rocectl_port_errors_total", "Port errors, by direction"},
    [F_PACKETS] = {"rocectl_packets_total", "Packets, by direction and priority"},
    [F_BUFFER_EVENTS] = {"rocectl_rx_buffer_near_full_events_total",
			 "Times the receive buffer passed its near-full threshold"},
    [F_RDMA_PACKETS] = {"rocectl_rdma_packets_total", "RDMA packets, by direction"},
    [F_RDMA_OPS] = {"rocectl_rdma_operations_total", "RDMA operations, by operation"},
    [F_RDMA_EVENTS] = {"rocectl_rdma_events_total",
		       "RDMA transport events and errors (rdma statistic), by event"},
    [F_ROCE_EVENTS] = {"rocectl_roce_events_total",
		       "RoCE slow restart and adaptive retransmission events, by event"},
    [F_OTHER] = {"rocectl_device_events_total",
		 "Counters of a device with no metric of their own yet, by name"},
};

struct map {
	const char *counter; /* the name before "[N]" */
	int family;
	const char *k0, *v0, *k1, *v1;
	const char *index_key; /* label of "[N]"; NULL: the counter has no index */
	double scale;
};

#define PRIO  "priority"
#define QUEUE "queue"

static const struct map maps[] = {
    {"pfc_pause_rx", F_PFC_PAUSE, "direction", "rx", NULL, NULL, PRIO, 1},
    {"pfc_pause_tx", F_PFC_PAUSE, "direction", "tx", NULL, NULL, PRIO, 1},
    {"pfc_pause_rx_duration_us", F_PFC_PAUSE_SECONDS, "direction", "rx", NULL, NULL, PRIO, 1e-6},
    {"pfc_pause_tx_duration_us", F_PFC_PAUSE_SECONDS, "direction", "tx", NULL, NULL, PRIO, 1e-6},
    {"pfc_pause_rx_transitions", F_PFC_PAUSE_TRANSITIONS, "direction", "rx", NULL, NULL, PRIO, 1},
    {"pfc_pause_tx_transitions", F_PFC_PAUSE_TRANSITIONS, "direction", "tx", NULL, NULL, PRIO, 1},
    {"pause_frames_rx", F_PAUSE_CONTROL, "direction", "rx", NULL, NULL, NULL, 1},
    {"pause_frames_tx", F_PAUSE_CONTROL, "direction", "tx", NULL, NULL, NULL, 1},
    {"global_pause_rx", F_GLOBAL_PAUSE, "direction", "rx", NULL, NULL, NULL, 1},
    {"global_pause_tx", F_GLOBAL_PAUSE, "direction", "tx", NULL, NULL, NULL, 1},
    {"pfc_storm_warnings", F_PFC_STORM, "severity", "warning", NULL, NULL, NULL, 1},
    {"pfc_storm_errors", F_PFC_STORM, "severity", "error", NULL, NULL, NULL, 1},
    {"ecn_marked", F_ECN_MARKED, "by", "switch", NULL, NULL, QUEUE, 1},
    {"ecn_marked_by_nic", F_ECN_MARKED, "by", "nic", NULL, NULL, PRIO, 1},
    /* the same quantity from two NIC counters: the source label tells them apart */
    {"ecn_marked_received", F_ECN_RECEIVED, NULL, NULL, NULL, NULL, NULL, 1},
    {"ecn_ce_received", F_ECN_RECEIVED, NULL, NULL, NULL, NULL, NULL, 1},
    {"cnp_sent", F_CNP, "event", "sent", NULL, NULL, NULL, 1},
    {"cnp_transmitted", F_CNP, "event", "transmitted", NULL, NULL, NULL, 1},
    {"cnp_received", F_CNP, "event", "received", NULL, NULL, NULL, 1},
    {"cnp_handled", F_CNP, "event", "handled", NULL, NULL, NULL, 1},
    {"cnp_ignored", F_CNP, "event", "ignored", NULL, NULL, NULL, 1},
    {"rx_port_buffer_discards", F_DISCARDS, "reason", "port_buffer", "direction", "rx", NULL, 1},
    {"tx_port_discards", F_DISCARDS, "reason", "port", "direction", "tx", NULL, 1},
    {"rx_ring_out_of_buffer", F_DISCARDS, "reason", "ring_out_of_buffer", "direction", "rx", NULL,
     1},
    {"rdma_rx_out_of_buffer", F_DISCARDS, "reason", "rdma_out_of_buffer", "direction", "rx", NULL,
     1},
    {"out_of_buffer", F_DISCARDS, "reason", "rdma_out_of_buffer", "direction", "rx", NULL, 1},
    {"rx_buffer_discards", F_DISCARDS, "reason", "buffer", "direction", "rx", PRIO, 1},
    {"rx_congestion_discards", F_DISCARDS, "reason", "congestion", "direction", "rx", PRIO, 1},
    {"wred_discards", F_DISCARDS, "reason", "wred", "direction", "tx", QUEUE, 1},
    {"egress_buffer_discards", F_DISCARDS, "reason", "egress_buffer", "direction", "tx", QUEUE, 1},
    {"egress_buffer_discard_bytes", F_DISCARD_BYTES, "reason", "egress_buffer", NULL, NULL, QUEUE,
     1},
    {"tx_errors", F_ERRORS, "direction", "tx", NULL, NULL, NULL, 1},
    {"rx_packets", F_PACKETS, "direction", "rx", NULL, NULL, PRIO, 1},
    {"tx_packets", F_PACKETS, "direction", "tx", NULL, NULL, PRIO, 1},
    {"rx_buffer_near_full_events", F_BUFFER_EVENTS, NULL, NULL, NULL, NULL, NULL, 1},
    {"rdma_rx_packets", F_RDMA_PACKETS, "direction", "rx", NULL, NULL, NULL, 1},
    {"rdma_tx_packets", F_RDMA_PACKETS, "direction", "tx", NULL, NULL, NULL, 1},
    {"rdma_send_operations", F_RDMA_OPS, "operation", "send", NULL, NULL, NULL, 1},
    {"rdma_receive_operations", F_RDMA_OPS, "operation", "receive", NULL, NULL, NULL, 1},
};

/* rdma_<event> and roce_<event>: the event label is the rest of the name */
static const char *const rdma_events[] = {
    "rdma_out_of_sequence",
    "rdma_packet_seq_errors",
    "rdma_implied_nak_seq_errors",
    "rdma_local_ack_timeouts",
    "rdma_transport_retries_exceeded",
    "rdma_duplicate_requests",
    "rdma_rnr_nak_retry_errors",
    "rdma_rx_icrc_errors",
    "rdma_rnr_retries_exceeded",
    "rdma_completer_retries",
    "rdma_rnr_naks_sent",
    "rdma_acks_deferred",
    "rdma_send_errors",
    "rdma_link_downed",
    "roce_slow_restarts",
    "roce_slow_restart_cnps",
    "roce_slow_restart_transitions",
    "roce_adaptive_retransmissions",
    "roce_adaptive_retransmission_timeouts",
};

size_t rc_prom_n_families(void)
{
	return F_N;
}

const struct rc_prom_family *rc_prom_family_at(size_t i)
{
	return i < F_N ? &families[i] : NULL;
}

static void other(const char *name, struct rc_prom_sample *out)
{
	out->family = F_OTHER;
	out->key[0] = "name";
	out->value[0] = name;
}

void rc_prom_counter_map(const char *name, struct rc_prom_sample *out)
{
	const char *br = strchr(name, '[');
	size_t base = br ? (size_t)(br - name) : strlen(name);

	memset(out, 0, sizeof(*out));
	out->scale = 1;
	/* an index is one digit 0..7 and closes the name: "[3]" */
	if (br && !(br[1] >= '0' && br[1] <= '7' && br[2] == ']' && !br[3])) {
		other(name, out);
		return;
	}
	for (size_t i = 0; i < sizeof(maps) / sizeof(maps[0]); i++) {
		const struct map *m = &maps[i];

		if (strlen(m->counter) != base || strncmp(m->counter, name, base))
			continue;
		if (br && !m->index_key)
			break;
		out->family = (size_t)m->family;
		out->key[0] = m->k0;
		out->value[0] = m->v0;
		out->key[1] = m->k1;
		out->value[1] = m->v1;
		out->scale = m->scale;
		if (br) {
			out->index_key = m->index_key;
			out->index[0] = br[1];
		}
		return;
	}
	for (size_t i = 0; !br && i < sizeof(rdma_events) / sizeof(rdma_events[0]); i++) {
		if (strcmp(rdma_events[i], name))
			continue;
		out->family = name[1] == 'd' ? F_RDMA_EVENTS : F_ROCE_EVENTS;
		out->key[0] = "event";
		out->value[0] = name + 5; /* after "rdma_" / "roce_" */
		return;
	}
	other(name, out);
}
