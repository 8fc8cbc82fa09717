/* PFC headroom a lossless priority needs on a link (host-dcb.md §4, SONiC dynamic
 * buffer formula in switch-dialects.md §2.6). */
#ifndef ROCECTL_HEADROOM_H
#define ROCECTL_HEADROOM_H

#include <stdint.h>

#include "rocectl/err.h"

struct rc_headroom {
	uint32_t speed_gbps;
	uint32_t cable_length_m;
	uint32_t mtu;
	/* The terms, in bytes; total is their sum. */
	uint64_t mtu_rx_bytes;        /* frame the receiver may still be receiving */
	uint64_t mtu_tx_bytes;        /* frame the sender cannot cut short */
	uint64_t pause_frame_bytes;   /* the PAUSE frame itself on the wire */
	uint64_t cable_bytes;         /* round trip on the cable, ~5 ns/m */
	uint64_t response_bytes;      /* sender's pause reaction, 512-bit quanta */
	uint64_t interface_bytes;     /* PHY/MAC delays of both ends */
	uint64_t total_bytes;
};

/* Compute; speeds other than 10/25/40/50/100/200/400/800G are refused (-EINVAL). */
int rc_headroom_compute(uint32_t speed_gbps, uint32_t cable_length_m, uint32_t mtu,
			struct rc_headroom *out, struct rc_err *err);

#endif
