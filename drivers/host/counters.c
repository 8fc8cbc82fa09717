/* SPDX-License-Identifier: Apache-2.0 */
/* Counters that tell whether the fabric is lossless in practice (mlx5's en_stats.c and
 * drivers/infiniband/hw/mlx5/counters.c; the kernel's
 * Documentation/networking/device_drivers/ethernet/mellanox/mlx5/counters.rst):
 * ethtool statistics through SIOCETHTOOL (string set + stats, as `ethtool -S` reads them)
 * and the RDMA port's hw_counters.  Each is reported under a name that says what it
 * means, with the driver's own name kept as its source. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>

#include "host.h"

/* More statistics than this is not a NIC we understand (mlx5 has ~1500 with all groups). */
#define ETHTOOL_STATS_MAX 16384

struct meaning {
	const char *source; /* driver name; "%u" stands for the priority */
	const char *name;   /* ours; "%u" likewise */
	bool is_drop;
};

/* mlx5's optional counters: absent until enabled with `rdma statistic set link DEV/PORT
 * optional-counters NAME` (drivers/infiniband/hw/mlx5/counters.c, the optional counters;
 * rdma-statistic(8)). */
static const char *const mlx5_optional[] = {"cc_rx_ce_pkts", "cc_rx_cnp_pkts", "cc_tx_cnp_pkts",
					    "rdma_tx_packets", "rdma_rx_packets"};

static bool mlx5_is_optional(const char *source)
{
	for (size_t i = 0; i < sizeof(mlx5_optional) / sizeof(mlx5_optional[0]); i++)
		if (!strcmp(mlx5_optional[i], source))
			return true;
	return false;
}

static const struct meaning ethtool_names[] = {
    {"rx_prio%u_pause", "pfc_pause_rx[%u]", false},
    {"tx_prio%u_pause", "pfc_pause_tx[%u]", false},
    {"rx_prio%u_pause_duration", "pfc_pause_rx_duration_us[%u]", false},
    {"tx_prio%u_pause_duration", "pfc_pause_tx_duration_us[%u]", false},
    {"rx_prio%u_pause_transition", "pfc_pause_rx_transitions[%u]", false},
    {"rx_prio%u_packets", "rx_packets[%u]", false},
    {"tx_prio%u_packets", "tx_packets[%u]", false},
    {"rx_prio%u_buf_discard", "rx_buffer_discards[%u]", true},
    {"rx_prio%u_cong_discard", "rx_congestion_discards[%u]", true},
    {"rx_prio%u_marked", "ecn_marked_by_nic[%u]", false},
    {"rx_discards_phy", "rx_port_buffer_discards", true},
    {"tx_discards_phy", "tx_port_discards", true},
    {"tx_errors_phy", "tx_errors", true},
    {"rx_out_of_buffer", "rx_ring_out_of_buffer", true},
    {"rx_buffer_passed_thres_phy", "rx_buffer_near_full_events", false},
    {"tx_pause_storm_warning_events", "pfc_storm_warnings", false},
    {"tx_pause_storm_error_events", "pfc_storm_errors", true},
    {"rx_pause_ctrl_phy", "pause_frames_rx", false},
    {"tx_pause_ctrl_phy", "pause_frames_tx", false},
    {"rx_global_pause", "global_pause_rx", false},
    {"tx_global_pause", "global_pause_tx", false},
};

static const struct meaning hw_names[] = {
    {"out_of_buffer", "rdma_rx_out_of_buffer", true},
    {"out_of_sequence", "rdma_out_of_sequence", true},
    {"packet_seq_err", "rdma_packet_seq_errors", true},
    {"implied_nak_seq_err", "rdma_implied_nak_seq_errors", true},
    {"local_ack_timeout_err", "rdma_local_ack_timeouts", true},
    {"req_transport_retries_exceeded", "rdma_transport_retries_exceeded", true},
    {"duplicate_request", "rdma_duplicate_requests", false},
    {"rnr_nak_retry_err", "rdma_rnr_nak_retry_errors", false},
    {"rx_icrc_encapsulated", "rdma_rx_icrc_errors", true},
    {"np_ecn_marked_roce_packets", "ecn_marked_received", false},
    {"np_cnp_sent", "cnp_sent", false},
    {"rp_cnp_handled", "cnp_handled", false},
    {"rp_cnp_ignored", "cnp_ignored", false},
    {"cc_rx_ce_pkts", "ecn_ce_received", false},
    {"cc_rx_cnp_pkts", "cnp_received", false},
    {"cc_tx_cnp_pkts", "cnp_transmitted", false},
    {"roce_slow_restart", "roce_slow_restarts", false},
    {"roce_slow_restart_cnps", "roce_slow_restart_cnps", false},
    {"roce_slow_restart_trans", "roce_slow_restart_transitions", false},
    {"roce_adp_retrans", "roce_adaptive_retransmissions", false},
    {"roce_adp_retrans_to", "roce_adaptive_retransmission_timeouts", false},
    {"req_rnr_retries_exceeded", "rdma_rnr_retries_exceeded", false},
    {"rdma_tx_packets", "rdma_tx_packets", false},
    {"rdma_rx_packets", "rdma_rx_packets", false},
    /* Soft-RoCE (rdma_rxe): its own names for the same events, and a few of its own.  A
     * retry of the completer follows an ACK timeout or a sequence NAK: a loss. */
    {"sent_pkts", "rdma_tx_packets", false},
    {"rcvd_pkts", "rdma_rx_packets", false},
    {"out_of_seq_request", "rdma_out_of_sequence", true},
    {"rcvd_seq_err", "rdma_packet_seq_errors", true},
    {"completer_retry_err", "rdma_completer_retries", true},
    {"retry_exceeded_err", "rdma_transport_retries_exceeded", true},
    {"retry_rnr_exceeded_err", "rdma_rnr_retries_exceeded", false},
    {"rcvd_rnr_err", "rdma_rnr_nak_retry_errors", false},
    {"send_rnr_err", "rdma_rnr_naks_sent", false},
    {"ack_deferred", "rdma_acks_deferred", false},
    {"send_err", "rdma_send_errors", false},
    {"link_downed", "rdma_link_downed", false},
    {"rdma_sends", "rdma_send_operations", false},
    {"rdma_recvs", "rdma_receive_operations", false},
};

/* Does `name` match `pattern` ("%u" = one priority digit 0..7)?  *prio gets the digit. */
static bool match(const char *pattern, const char *name, unsigned *prio)
{
	const char *u = strstr(pattern, "%u");
	size_t pre;

	if (!u)
		return !strcmp(pattern, name);
	pre = (size_t)(u - pattern);
	if (strncmp(pattern, name, pre) || name[pre] < '0' || name[pre] > '7')
		return false;
	*prio = (unsigned)(name[pre] - '0');
	return !strcmp(u + 2, name + pre + 1);
}

const char *rc_host_counter_meaning(const char *source_kind, const char *name, char *buf,
				    size_t len, bool *is_drop)
{
	const struct meaning *t = ethtool_names;
	size_t n = sizeof(ethtool_names) / sizeof(ethtool_names[0]);

	if (!strcmp(source_kind, "hw_counters")) {
		t = hw_names;
		n = sizeof(hw_names) / sizeof(hw_names[0]);
	}
	for (size_t i = 0; i < n; i++) {
		unsigned prio = 0;

		if (!match(t[i].source, name, &prio))
			continue;
		if (strstr(t[i].name, "%u"))
			snprintf(buf, len, "%.*s%u%s", (int)(strstr(t[i].name, "%u") - t[i].name),
				 t[i].name, prio, strstr(t[i].name, "%u") + 2);
		else
			snprintf(buf, len, "%s", t[i].name);
		*is_drop = t[i].is_drop;
		return buf;
	}
	return NULL;
}

static int ethtool_ioctl(int fd, const char *ifname, void *cmd)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = cmd;
	return ioctl(fd, SIOCETHTOOL, &ifr) ? -errno : 0;
}

static int stats_count(int fd, const char *ifname, uint32_t *count)
{
	/* The header and the one count it returns for the one set asked for. */
	_Alignas(uint64_t) unsigned char buf[sizeof(struct ethtool_sset_info) + sizeof(uint32_t)];
	struct ethtool_sset_info *ss = (struct ethtool_sset_info *)buf;
	struct ethtool_drvinfo di;
	int rc;

	memset(buf, 0, sizeof(buf));
	ss->cmd = ETHTOOL_GSSET_INFO;
	ss->sset_mask = 1ull << ETH_SS_STATS;
	if (!ethtool_ioctl(fd, ifname, ss) && (ss->sset_mask & (1ull << ETH_SS_STATS))) {
		*count = ss->data[0];
		return 0;
	}
	/* Older drivers: the count is in the driver info. */
	memset(&di, 0, sizeof(di));
	di.cmd = ETHTOOL_GDRVINFO;
	rc = ethtool_ioctl(fd, ifname, &di);
	if (rc)
		return rc;
	*count = di.n_stats;
	return 0;
}

/* Names and values, both sized with slack: the kernel copies as many entries as it has
 * *now*, and mlx5 changes its set when PFC is switched (per-priority pause counters). */
static int fetch(int fd, const char *ifname, uint32_t count, struct ethtool_gstrings **str,
		 struct ethtool_stats **st)
{
	size_t slots = (size_t)count * 2 + 64;
	int rc;

	*str = calloc(1, sizeof(**str) + slots * ETH_GSTRING_LEN);
	*st = calloc(1, sizeof(**st) + slots * sizeof(uint64_t));
	if (!*str || !*st)
		return -ENOMEM;
	(*str)->cmd = ETHTOOL_GSTRINGS;
	(*str)->string_set = ETH_SS_STATS;
	(*str)->len = count;
	rc = ethtool_ioctl(fd, ifname, *str);
	if (rc)
		return rc;
	(*st)->cmd = ETHTOOL_GSTATS;
	(*st)->n_stats = count;
	rc = ethtool_ioctl(fd, ifname, *st);
	if (rc)
		return rc;
	/* The set changed between the calls: names and values would not line up. */
	if ((*str)->len != count || (*st)->n_stats != count)
		return -EAGAIN;
	return 0;
}

int rc_host_ethtool_counters(const char *ifname, struct rc_counters *out, struct rc_err *err)
{
	struct ethtool_gstrings *str = NULL;
	struct ethtool_stats *st = NULL;
	uint32_t count = 0;
	int fd, rc = 0;

	if (!rc_host_ifname_ok(ifname))
		return rc_errf(err, EINVAL, "'%s' is not a network interface name", ifname);
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return rc_errf(err, errno, "cannot open a socket for ethtool: %s", strerror(errno));
	for (int attempt = 0; attempt < 3; attempt++) {
		free(str);
		free(st);
		str = NULL;
		st = NULL;
		rc = stats_count(fd, ifname, &count);
		if (!rc && count > ETHTOOL_STATS_MAX)
			rc = -E2BIG;
		if (!rc)
			rc = fetch(fd, ifname, count, &str, &st);
		if (rc != -EAGAIN)
			break;
	}
	close(fd);
	for (uint32_t i = 0; !rc && i < count; i++) {
		char name[ETH_GSTRING_LEN + 1], meaning[48], source[96];
		size_t len;
		bool drop;

		memcpy(name, str->data + (size_t)i * ETH_GSTRING_LEN, ETH_GSTRING_LEN);
		name[ETH_GSTRING_LEN] = '\0';
		/* One kernel spelled a name with a trailing space (mlx5 en_stats.c). */
		len = strlen(name);
		while (len && name[len - 1] == ' ')
			name[--len] = '\0';
		if (!rc_host_counter_meaning("ethtool", name, meaning, sizeof(meaning), &drop))
			continue;
		snprintf(source, sizeof(source), "ethtool:%s", name);
		if (rc_counters_add(out, ifname, meaning, source, st->data[i], drop))
			rc = -ENOMEM;
	}
	free(str);
	free(st);
	if (rc)
		return rc_errf(err, -rc, "'%s': cannot read ethtool statistics: %s", ifname,
			       strerror(-rc));
	return 0;
}

static int optional_off(const char *ifname, const struct rc_rdma_port *p, const struct meaning *m,
			struct rc_counters *out)
{
	char source[96];

	/* the command that enables it, as the source an operator sees */
	snprintf(source, sizeof(source), "rdma statistic set link %s/%u optional-counters %s",
		 p->ibdev, p->port, m->source);
	return rc_counters_add_disabled(out, ifname, m->name, source);
}

int rc_host_rdma_counters(const char *root, const char *ifname, const struct rc_rdma_port *p,
			  struct rc_counters *out, struct rc_err *err)
{
	if (!p->found)
		return 0;
	for (size_t i = 0; i < sizeof(hw_names) / sizeof(hw_names[0]); i++) {
		char path[4096], source[96];
		long long v;

		if (rc_host_path(path, sizeof(path), root,
				 "sys/class/infiniband/%s/ports/%u/hw_counters/%s", p->ibdev,
				 p->port, hw_names[i].source))
			continue;
		/* A counter group exists only if the HCA has its capability; an optional one
		 * of mlx5 only once enabled: then it is "not enabled", never zero. */
		if (rc_host_read_ll(path, &v) || v < 0) {
			if (mlx5_is_optional(hw_names[i].source) && !strncmp(p->ibdev, "mlx5", 4) &&
			    optional_off(ifname, p, &hw_names[i], out))
				return rc_errf(err, ENOMEM, "out of memory");
			continue;
		}
		snprintf(source, sizeof(source), "hw_counters:%s/%u/%s", p->ibdev, p->port,
			 hw_names[i].source);
		if (rc_counters_add(out, ifname, hw_names[i].name, source, (uint64_t)v,
				    hw_names[i].is_drop))
			return rc_errf(err, ENOMEM, "out of memory");
	}
	return 0;
}
