/* SPDX-License-Identifier: Apache-2.0 */
/* The dcbnl_rtnl_ops of upstream mlx5_core (en_dcbnl.c, en/port_buffer.c) on simulated
 * hardware.  mlx5's en_dcbnl.c and en/port_buffer.c hold each rule; the comments here say which
 * quirk of the driver a line keeps. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/dcbnl.h>

#include "nicsim.h"

#define MLX5_MAX_CABLE_LENGTH 1000
#define MLX5_MIN_MAX_MTU      9216
#define MLX5_100MB	      100000ULL
#define MLX5_1GB	      1000000ULL

enum {
	CHG_PFC = 1,
	CHG_CABLE = 2,
	CHG_P2B = 4,
	CHG_SIZE = 8,
};

void ns_mlx5_getets(const struct ns_nic *nic, struct ieee_ets *ets)
{
	memset(ets, 0, sizeof(*ets));
	ets->ets_cap = NS_NPRIO;
	for (int i = 0; i < NS_NPRIO; i++) {
		ets->tc_tx_bw[i] = nic->cfg.tc_bw[i];
		ets->tc_tsa[i] = nic->cfg.tc_tsa[i];
		ets->prio_tc[i] = nic->cfg.prio_tc[i];
	}
}

/* mlx5e_dbcnl_validate_ets: priorities < 8; an ETS TC needs bandwidth ("BW 0 is illegal")
 * and ETS bandwidths sum to 100.  The 2024 "Validate Non ETS BW" patch adds: bandwidth on
 * a non-ETS TC -> -EINVAL, and CBS -> -EOPNOTSUPP (en_dcbnl.c, mlx5e_dbcnl_validate_ets); drivers
 * before it take both, which is why the check is a property of the simulated driver */
static int validate_ets(const struct ns_nic *nic, const struct ieee_ets *ets)
{
	int sum = 0;
	for (int i = 0; i < NS_NPRIO; i++)
		if (ets->prio_tc[i] >= NS_NPRIO)
			return -EINVAL;
	for (int i = 0; i < NS_NPRIO; i++) {
		if (ets->tc_tsa[i] == NS_TSA_ETS) {
			if (!ets->tc_tx_bw[i])
				return -EINVAL;
			sum += ets->tc_tx_bw[i];
		} else if (nic->hw.ets_nonets_check && ets->tc_tsa[i] == NS_TSA_CBS) {
			return -EOPNOTSUPP;
		} else if (nic->hw.ets_nonets_check && ets->tc_tx_bw[i]) {
			return -EINVAL;
		}
	}
	return sum != 0 && sum != 100 ? -EINVAL : 0;
}

int ns_mlx5_setets(struct ns_nic *nic, const struct ieee_ets *ets)
{
	int err = validate_ets(nic, ets);
	if (err)
		return err;
	for (int i = 0; i < NS_NPRIO; i++) {
		nic->cfg.prio_tc[i] = ets->prio_tc[i];
		nic->cfg.tc_tsa[i] = ets->tc_tsa[i];
		/* firmware gives strict and vendor TCs the whole link; that is what it reports */
		nic->cfg.tc_bw[i] = ets->tc_tsa[i] == NS_TSA_ETS ? ets->tc_tx_bw[i] : 100;
	}
	nic->cfg_dirty = 1;
	return 0;
}

void ns_mlx5_getmaxrate(const struct ns_nic *nic, struct ieee_maxrate *m)
{
	memset(m, 0, sizeof(*m));
	for (int i = 0; i < NS_NPRIO; i++)
		m->tc_maxrate[i] = nic->cfg.maxrate_kbps[i];
}

int ns_mlx5_setmaxrate(struct ns_nic *nic, const struct ieee_maxrate *m)
{
	uint64_t out[NS_NPRIO];
	for (int i = 0; i < NS_NPRIO; i++) {
		uint64_t r = m->tc_maxrate[i];
		if (!r) {
			out[i] = 0;
		} else if (r <= 255 * MLX5_100MB) {
			/* hardware units of 100 Mb/s, at least one unit */
			uint64_t v = r / MLX5_100MB;
			out[i] = (v ? v : 1) * MLX5_100MB;
		} else if (r <= 255 * MLX5_1GB) {
			out[i] = r / MLX5_1GB * MLX5_1GB;
		} else {
			return -EINVAL;
		}
	}
	memcpy(nic->cfg.maxrate_kbps, out, sizeof(out));
	nic->cfg_dirty = 1;
	return 0;
}

void ns_mlx5_getpfc(const struct ns_nic *nic, struct ieee_pfc *pfc)
{
	char name[40];
	memset(pfc, 0, sizeof(*pfc));
	pfc->pfc_cap = NS_NPRIO;
	pfc->pfc_en = nic->cfg.pfc_en;
	pfc->delay = (uint16_t)nic->cfg.cable_len;
	for (int i = 0; i < NS_NPRIO; i++) {
		snprintf(name, sizeof(name), "tx_prio%d_pause", i);
		pfc->requests[i] = ns_counter_get(nic, name);
		snprintf(name, sizeof(name), "rx_prio%d_pause", i);
		pfc->indications[i] = ns_counter_get(nic, name);
	}
}

/* en/port_buffer.c calculate_xoff(): headroom bytes above the xoff threshold */
static uint64_t xoff_bytes(const struct ns_nic *nic)
{
	uint64_t speed = nic->hw.speed_mbps > 40000 ? nic->hw.speed_mbps : 40000;
	return (301 + 216 * (uint64_t)nic->cfg.cable_len / 100) * speed / 1000 +
	       272 * (uint64_t)nic->cfg.mtu / 100;
}

/* A buffer is lossless iff a PFC-enabled priority maps to it */
static void lossy_bits(const uint8_t *p2b, uint8_t pfc_en, uint8_t *lossy)
{
	for (int b = 0; b < NS_NPRIO; b++) {
		int prios = 0, lossy_prios = 0;
		for (int p = 0; p < NS_NPRIO; p++) {
			if (p2b[p] != b)
				continue;
			prios++;
			lossy_prios += !((pfc_en >> p) & 1);
		}
		lossy[b] = lossy_prios == prios;
	}
}

/* update_xoff_threshold(): every lossless buffer must hold xoff + max_mtu + one cell */
static int check_lossless(const struct ns_nic *nic, const uint64_t *size, const uint8_t *lossy)
{
	uint64_t max_mtu = nic->hw.max_mtu > MLX5_MIN_MAX_MTU ? nic->hw.max_mtu : MLX5_MIN_MAX_MTU;
	uint64_t need = xoff_bytes(nic) + max_mtu + nic->hw.cell_size;
	for (int b = 0; b < NS_NPRIO; b++)
		if (!lossy[b] && size[b] < need)
			return -ENOMEM;
	return 0;
}

/* mlx5e_port_manual_buffer_config(), step by step: each step checks the sizes as they are at
 * that point, so a prio2buffer change that makes a still-empty buffer lossless fails with
 * -ENOMEM even if the same request also sizes that buffer. */
static int manual_buffer_config(struct ns_nic *nic, int change, uint8_t old_pfc, uint8_t new_pfc,
				const uint32_t *req_size, const uint8_t *req_p2b, int first)
{
	uint64_t size[NS_NPRIO];
	uint8_t lossy[NS_NPRIO], l2[NS_NPRIO];
	int update = 0, err;

	for (int b = 0; b < NS_NPRIO; b++)
		size[b] = nic->cfg.buffer_size[b];
	lossy_bits(nic->cfg.prio2buffer, old_pfc, lossy);

	if (change & CHG_CABLE) {
		update = 1;
		if ((err = check_lossless(nic, size, lossy)))
			return err;
	}
	if (change & CHG_PFC) {
		lossy_bits(nic->cfg.prio2buffer, new_pfc, l2);
		if (memcmp(l2, lossy, sizeof(l2))) {
			memcpy(lossy, l2, sizeof(l2));
			update = 1;
			if ((err = check_lossless(nic, size, lossy)))
				return err;
		}
	}
	if (change & CHG_P2B) {
		lossy_bits(req_p2b, new_pfc, l2);
		if (memcmp(l2, lossy, sizeof(l2))) {
			memcpy(lossy, l2, sizeof(l2));
			update = 1;
			if ((err = check_lossless(nic, size, lossy)))
				return err;
		}
	}
	if (change & CHG_SIZE) {
		uint64_t total = 0;
		for (int b = 0; b < NS_NPRIO; b++) {
			if (!lossy[b] && !req_size[b])
				return -EINVAL;
			size[b] = req_size[b];
			total += req_size[b];
		}
		if (total > nic->hw.buffer_total)
			return -EINVAL;
		/* port_update_shared_buffer(): the shared pool keeps at least 4 cells of what
		 * the buffers leave of the port (en/port_buffer.c), else -EINVAL */
		if ((nic->hw.buffer_total - total) / nic->hw.cell_size < 4)
			return -EINVAL;
		update = 1;
		if ((err = check_lossless(nic, size, lossy)))
			return err;
	}
	/* the driver's cached xoff starts at 0: the first manual configuration always checks */
	if (!update && first && (err = check_lossless(nic, size, lossy)))
		return err;

	for (int b = 0; b < NS_NPRIO; b++)
		nic->cfg.buffer_size[b] =
		    (uint32_t)(size[b] / nic->hw.cell_size * nic->hw.cell_size);
	if (change & CHG_P2B)
		memcpy(nic->cfg.prio2buffer, req_p2b, NS_NPRIO);
	nic->cfg_dirty = 1;
	return 0;
}

int ns_mlx5_setpfc(struct ns_nic *nic, const struct ieee_pfc *pfc)
{
	uint32_t old_cable = nic->cfg.cable_len;
	uint8_t old_pfc = nic->cfg.pfc_en;
	int changed = 0, err = 0;

	if (pfc->pfc_en != old_pfc) {
		nic->cfg.pfc_en = pfc->pfc_en;
		nic->cfg_dirty = 1;
		ns_link_flap(nic); /* mlx5_toggle_port_link() */
		changed |= CHG_PFC;
	}
	/* delay is the cable length in metres; 0 and >= 1000 are ignored, not refused */
	if (pfc->delay && pfc->delay < MLX5_MAX_CABLE_LENGTH && pfc->delay != nic->cfg.cable_len) {
		nic->cfg.cable_len = pfc->delay;
		nic->cfg_dirty = 1;
		changed |= CHG_CABLE;
	}
	if (nic->cfg.manual_buffer && changed)
		err = manual_buffer_config(nic, changed, old_pfc, nic->cfg.pfc_en, NULL, NULL, 0);
	if (err && (changed & CHG_CABLE))
		nic->cfg.cable_len = old_cable;
	return err;
}

void ns_mlx5_getbuffer(const struct ns_nic *nic, struct dcbnl_buffer *buf)
{
	memset(buf, 0, sizeof(*buf));
	memcpy(buf->prio2buffer, nic->cfg.prio2buffer, NS_NPRIO);
	for (int b = 0; b < NS_NPRIO; b++)
		buf->buffer_size[b] = nic->cfg.buffer_size[b];
	buf->total_size = nic->hw.buffer_total;
}

int ns_mlx5_setbuffer(struct ns_nic *nic, const struct dcbnl_buffer *buf)
{
	int changed = 0;
	if (memcmp(buf->prio2buffer, nic->cfg.prio2buffer, NS_NPRIO))
		changed |= CHG_P2B;
	for (int b = 0; b < NS_NPRIO; b++)
		if (buf->buffer_size[b] != nic->cfg.buffer_size[b])
			changed |= CHG_SIZE;
	if (!changed)
		return 0;
	int first = !nic->cfg.manual_buffer;
	nic->cfg.manual_buffer = 1; /* set before the attempt, kept if it fails */
	nic->cfg_dirty = 1;
	uint32_t size[NS_NPRIO];
	for (int b = 0; b < NS_NPRIO; b++)
		size[b] = buf->buffer_size[b];
	return manual_buffer_config(nic, changed, nic->cfg.pfc_en, nic->cfg.pfc_en, size,
				    buf->prio2buffer, first);
}

void ns_mlx5_set_trust(struct ns_nic *nic, int dscp)
{
	nic->cfg.trust_dscp = dscp;
	nic->cfg_dirty = 1;
}

/* Only DSCP entries: the first one switches trust to DSCP, re-adding replaces */
int ns_mlx5_setapp(struct ns_nic *nic, const struct ns_app *app)
{
	if (app->selector != IEEE_8021QAZ_APP_SEL_DSCP || app->protocol >= NS_NDSCP)
		return -EINVAL;
	/* the QPDPM priority field cannot hold more; the driver itself does not check */
	if (app->priority >= NS_NPRIO)
		return -EINVAL;
	if (!nic->cfg.dscp_listed)
		ns_mlx5_set_trust(nic, 1);
	nic->cfg.dscp2prio[app->protocol] = app->priority;
	nic->cfg.dscp_listed |= 1ULL << app->protocol;
	nic->cfg_dirty = 1;
	return 0;
}

/* The priority must match the firmware map; the map entry goes back to 0 */
int ns_mlx5_delapp(struct ns_nic *nic, const struct ns_app *app)
{
	if (app->selector != IEEE_8021QAZ_APP_SEL_DSCP || app->protocol >= NS_NDSCP)
		return -EINVAL;
	if (!nic->cfg.dscp_listed)
		return -ENOENT;
	if (app->priority != nic->cfg.dscp2prio[app->protocol])
		return -ENOENT;
	if (!((nic->cfg.dscp_listed >> app->protocol) & 1))
		return -ENOENT;
	nic->cfg.dscp_listed &= ~(1ULL << app->protocol);
	nic->cfg.dscp2prio[app->protocol] = 0;
	if (!nic->cfg.dscp_listed)
		ns_mlx5_set_trust(nic, 0);
	nic->cfg_dirty = 1;
	return 0;
}

/* The kernel's app list holds newest entries first; for a canonical state the simulator
 * keeps no history and lists by descending DSCP instead (also not sorted ascending). */
int ns_mlx5_apps(const struct ns_nic *nic, struct ns_app *out, int max)
{
	int n = 0;
	for (int d = NS_NDSCP - 1; d >= 0 && n < max; d--)
		if ((nic->cfg.dscp_listed >> d) & 1)
			out[n++] = (struct ns_app){IEEE_8021QAZ_APP_SEL_DSCP, nic->cfg.dscp2prio[d],
						   (uint16_t)d};
	return n;
}

/* Returns the u8 the kernel puts in the reply: 0 done, 1 refused (not an errno) */
uint8_t ns_mlx5_setdcbx(struct ns_nic *nic, uint8_t mode)
{
	if (mode & DCB_CAP_DCBX_LLD_MANAGED)
		return 1;
	if (!mode) {
		/* back to firmware (AUTO) control */
		if (nic->cfg.dcbx & DCB_CAP_DCBX_HOST) {
			nic->cfg.dcbx &= (uint8_t)~DCB_CAP_DCBX_HOST;
			nic->cfg_dirty = 1;
		}
		return 0;
	}
	if (!(mode & DCB_CAP_DCBX_HOST))
		return 1;
	if (nic->cfg.dcbx != mode) {
		nic->cfg.dcbx = mode; /* stored as given: "host ieee" reads back 0x09 */
		nic->cfg_dirty = 1;
	}
	return 0;
}

/* Returns 0 and fills cap, or 1 for an unknown capability (the op's convention) */
int ns_mlx5_getcap(const struct ns_nic *nic, int capid, uint8_t *cap)
{
	switch (capid) {
	case DCB_CAP_ATTR_PG:
	case DCB_CAP_ATTR_PFC:
		*cap = 1;
		return 0;
	case DCB_CAP_ATTR_UP2TC:
	case DCB_CAP_ATTR_GSP:
	case DCB_CAP_ATTR_BCN:
		*cap = 0;
		return 0;
	case DCB_CAP_ATTR_PG_TCS:
	case DCB_CAP_ATTR_PFC_TCS:
		*cap = 1 << (NS_NPRIO - 1);
		return 0;
	case DCB_CAP_ATTR_DCBX:
		*cap = nic->cfg.dcbx | DCB_CAP_DCBX_VER_CEE | DCB_CAP_DCBX_VER_IEEE;
		return 0;
	}
	*cap = 0;
	return 1;
}

void ns_link_flap(struct ns_nic *nic)
{
	ns_counter_add(nic, "carrier_changes", 2); /* down, then up */
	ns_counter_add(nic, "carrier_down_count", 1);
	ns_counter_add(nic, "carrier_up_count", 1);
	ns_counter_add(nic, "link_down_events_phy", 1);
	ns_counter_add(nic, "link_downed", 1);
	ns_counter_add(nic, "link_flaps", 1);
}

static int app_cmp(const struct ns_app *a, const struct ns_app *b)
{
	if (a->selector != b->selector)
		return a->selector - b->selector;
	if (a->protocol != b->protocol)
		return a->protocol - b->protocol;
	return a->priority - b->priority;
}

/* Generic dcb_setrewr()/dcb_delrewr(): mlx5 has no rewrite ops, the core keeps a list */
int ns_dcb_setrewr(struct ns_nic *nic, const struct ns_app *app)
{
	struct ns_cfg *c = &nic->cfg;
	int i;
	for (i = 0; i < c->n_rewr; i++)
		if (!app_cmp(&c->rewr[i], app))
			return -EEXIST;
	if (c->n_rewr == NS_MAX_REWR)
		return -ENOMEM;
	for (i = c->n_rewr; i > 0 && app_cmp(&c->rewr[i - 1], app) > 0; i--)
		c->rewr[i] = c->rewr[i - 1];
	c->rewr[i] = *app;
	c->n_rewr++;
	nic->cfg_dirty = 1;
	return 0;
}

int ns_dcb_delrewr(struct ns_nic *nic, const struct ns_app *app)
{
	struct ns_cfg *c = &nic->cfg;
	for (int i = 0; i < c->n_rewr; i++) {
		if (app_cmp(&c->rewr[i], app))
			continue;
		memmove(&c->rewr[i], &c->rewr[i + 1], (size_t)(c->n_rewr - i - 1) * sizeof(*app));
		c->n_rewr--;
		nic->cfg_dirty = 1;
		return 0;
	}
	return -ENOENT;
}
