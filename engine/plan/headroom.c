/* SPDX-License-Identifier: Apache-2.0 */
/* PFC headroom: what a lossless priority must be able to absorb after the receiver has
 * decided to pause its peer (the IEEE 802.1Qbb / 802.3 Annex 31B worst case, as mlx5's
 * en/port_buffer.c and SONiC's buffer_headroom_mellanox.lua compute it):
 *
 *   headroom = MTU_rx            frame the receiver is already sending ahead of its PAUSE
 *            + PAUSE frame       64 B + 20 B preamble/IPG = 672 bit times
 *            + cable round trip  2 x length x 5 ns/m x rate
 *            + 2 x interface     MAC+PHY delay (TX+RX) of each end
 *            + response          sender's pause reaction, in 512-bit quanta
 *            + MTU_tx            frame the sender may not cut short
 *
 * It is a floor, not a buffer size: cell rounding and vendor pipeline terms (SONiC's
 * xon, sonic-swss cfgmgr/buffer_headroom_mellanox.lua) come on top, which is why a computed
 * headroom is compared with ">=" and never written smaller than the platform's own choice.
 *
 * The MTU terms are the MTU itself, without the 20 B of preamble/IPG or the L2 header: the
 * worked examples in tests/unit/test_headroom.c count them that way, and the conservative interface
 * delays below cover those few bytes many times over. */
#include <errno.h>

#include "rocectl/headroom.h"
#include "rocectl/policy.h"

/* 64-byte PAUSE/PFC frame + 8 B preamble/SFD + 12 B inter-packet gap (IEEE 802.3 clause 31B). */
#define PAUSE_FRAME_BYTES 84u

/* Round-trip propagation, in tenths of a nanosecond per metre: 2 x 5 ns/m (fibre
 * 4.9-5.1 ns/m; mlx5 and SONiC use 1.98e8 m/s = 5.05 ns/m, a 1% difference that
 * is far inside the interface-delay margin). */
#define RTT_NS_PER_M 10u

struct speed_model {
	uint32_t gbps;
	/* Maximum pause reaction in 512-bit quanta.  10G: 67 (sonic-swss
	 * buffer_headroom_mellanox.lua; IEEE 802.3 Annex 31B says 60 -> the larger one); 25G 80,
	 * 40G 118, 100G 394, 200G 453, 400G 905: the 802.3 values both references agree on;
	 * 50G 147: SONiC table only; 800G 1810: mlx5 [PB-NEW] table (SONiC reuses 905 for
	 * 800G -> the larger one). */
	uint32_t response_quanta;
	/* One end's MAC+PHY delay, transmit + receive, in bit times (IEEE 802.3
	 * delay constraints, as mlx5's en/port_buffer.c uses them): 10G 8192, 25G 6144, 40G 24576,
	 * 100G 122880.  For 50G the reference has no value (UNVERIFIED): 100G's 1228.8 ns in time,
	 * 61440 bits.  For 200G-800G (UNVERIFIED) we keep 100G's budget in *bits*: the MAC/PCS/FEC
	 * pipeline is specified in bit times and does not get slower as the rate rises.  Scaling
	 * 100G's *time* instead would ask for 122880 B at 400G for this term alone, more than the
	 * whole headroom SONiC programs on a Spectrum-4 400G port (117760 B at 5 m by the formula
	 * of sonic-swss cfgmgr/buffer_headroom_mellanox.lua), so every correctly configured port
	 * would be reported as short. */
	uint32_t interface_delay_bits;
};

/* clang-format off */
static const struct speed_model models[] = {
	/* Gb/s  quanta  bits/end */
	{  10,     67,     8192 },
	{  25,     80,     6144 },
	{  40,    118,    24576 },
	{  50,    147,    61440 },	/* 1228.8 ns, UNVERIFIED */
	{ 100,    394,   122880 },
	{ 200,    453,   122880 },	/* 100G's bits, UNVERIFIED */
	{ 400,    905,   122880 },	/* 100G's bits, UNVERIFIED */
	{ 800,   1810,   122880 },	/* 100G's bits, UNVERIFIED */
};
/* clang-format on */

#define N_MODELS (sizeof(models) / sizeof(models[0]))

static const struct speed_model *model_for(uint32_t gbps)
{
	for (size_t i = 0; i < N_MODELS; i++)
		if (models[i].gbps == gbps)
			return &models[i];
	return NULL;
}

bool rc_headroom_speed_supported(uint32_t speed_gbps)
{
	return model_for(speed_gbps) != NULL;
}

static int unsupported_speed(uint32_t speed_gbps, struct rc_err *err)
{
	char list[96];
	size_t n = 0;

	list[0] = '\0';
	for (size_t i = 0; i < N_MODELS && n < sizeof(list); i++) {
		int w = snprintf(list + n, sizeof(list) - n, "%s%uG", i ? " " : "",
				 (unsigned)models[i].gbps);

		if (w < 0)
			break;
		n += (size_t)w;
	}
	return rc_errf(err, EINVAL, "unsupported speed %uG; supported: %s", (unsigned)speed_gbps,
		       list);
}

int rc_headroom_compute(uint32_t speed_gbps, uint32_t cable_length_m, uint32_t mtu,
			struct rc_headroom *out, struct rc_err *err)
{
	const struct speed_model *m = model_for(speed_gbps);
	struct rc_headroom h = {0};
	uint64_t cable_bits;

	if (!m)
		return unsupported_speed(speed_gbps, err);
	if (cable_length_m < RC_CABLE_MIN_M || cable_length_m > RC_CABLE_MAX_M)
		return rc_errf(err, ERANGE, "cable length %um out of range: must be %um..%um",
			       (unsigned)cable_length_m, (unsigned)RC_CABLE_MIN_M,
			       (unsigned)RC_CABLE_MAX_M);
	if (mtu < RC_MTU_MIN || mtu > RC_MTU_MAX)
		return rc_errf(err, ERANGE, "mtu %u out of range: must be %u..%u", (unsigned)mtu,
			       (unsigned)RC_MTU_MIN, (unsigned)RC_MTU_MAX);

	h.speed_gbps = speed_gbps;
	h.cable_length_m = cable_length_m;
	h.mtu = mtu;
	h.response_quanta = m->response_quanta;
	h.interface_delay_bits = m->interface_delay_bits;

	h.mtu_rx_bytes = mtu;
	h.mtu_tx_bytes = mtu;
	h.pause_frame_bytes = PAUSE_FRAME_BYTES;
	/* ns x Gb/s = bits; RTT_NS_PER_M is whole ns, so bits are exact; round bytes up. */
	cable_bits = (uint64_t)cable_length_m * RTT_NS_PER_M * speed_gbps;
	h.cable_bytes = (cable_bits + 7) / 8;
	h.response_bytes = (uint64_t)m->response_quanta * 512 / 8;
	h.interface_bytes = 2 * (((uint64_t)m->interface_delay_bits + 7) / 8);
	h.total_bytes = h.mtu_rx_bytes + h.mtu_tx_bytes + h.pause_frame_bytes + h.cable_bytes +
			h.response_bytes + h.interface_bytes;
	*out = h;
	return 0;
}
