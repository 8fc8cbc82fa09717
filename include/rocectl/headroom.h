/* SPDX-License-Identifier: Apache-2.0 */
/* PFC headroom a lossless priority needs on a link (IEEE 802.1Qbb / 802.3 Annex
 * 31B; SONiC's dynamic buffer formula, sonic-swss cfgmgr/buffer_headroom_mellanox.lua). */
#ifndef ROCECTL_HEADROOM_H
#define ROCECTL_HEADROOM_H

#include <stdbool.h>
#include <stdint.h>

#include "rocectl/err.h"

struct rc_headroom {
	uint32_t speed_gbps;
	uint32_t cable_length_m;
	uint32_t mtu;
	/* The constants used for this speed (engine/plan/headroom.c says where they come from). */
	uint32_t response_quanta;      /* sender's pause reaction, in 512-bit quanta */
	uint32_t interface_delay_bits; /* one end's MAC+PHY delay, TX+RX, in bit times */
	/* The terms, in bytes; total is their sum. */
	uint64_t mtu_rx_bytes;	    /* frame the receiver may still be receiving */
	uint64_t mtu_tx_bytes;	    /* frame the sender cannot cut short */
	uint64_t pause_frame_bytes; /* the PAUSE frame itself on the wire */
	uint64_t cable_bytes;	    /* round trip on the cable, ~5 ns/m */
	uint64_t response_bytes;    /* sender's pause reaction, 512-bit quanta */
	uint64_t interface_bytes;   /* PHY/MAC delays of both ends */
	uint64_t total_bytes;
};

/* Compute; speeds other than 10/25/40/50/100/200/400/800G are refused (-EINVAL); a cable
 * length outside RC_CABLE_MIN_M..RC_CABLE_MAX_M and an MTU outside RC_MTU_MIN..RC_MTU_MAX
 * (policy.h) are -ERANGE.  `out` is untouched on error. */
int rc_headroom_compute(uint32_t speed_gbps, uint32_t cable_length_m, uint32_t mtu,
			struct rc_headroom *out, struct rc_err *err);

/* Is there a headroom model for this speed? */
bool rc_headroom_speed_supported(uint32_t speed_gbps);

#endif
