/* SPDX-License-Identifier: Apache-2.0 */
/* The congestion-control parameters of upstream mlx5_ib in debugfs
 * (drivers/infiniband/hw/mlx5/cong.c; mlx5_ib_dbg_cc_name[] and its params):
 *   sys/kernel/debug/mlx5/<pci>/cc_params/<name>, mode 0600, one file per parameter,
 *   created only while debugfs is mounted and the HCA allows cc query and modify.
 * get_param answers "%d\n" of the firmware value.  set_param refuses a write longer than
 * 11 bytes (-EINVAL), keeps the first 10 characters, parses them with kstrtou32(base 0)
 * and sends MODIFY_CONG_PARAMS; MLX5_SET keeps only the field's width (mlx5_ifc.h:
 * cnp_dscp 6 bits, cnp_prio_mode 1, cnp_802p_prio 3, the clamp flags 1, the rest 32).
 * Writing np_cnp_prio also sets cnp_prio_mode to 0.  CNP DSCP and priority are the same
 * firmware fields MLNX_OFED shows as ecn/roce_np/cnp_dscp and cnp_802p_prio.
 *
 * MLNX_OFED shows the other parameters too, under /sys/class/net/<if>/ecn/roce_rp/ and
 * ecn/roce_np/ with names of its own (MLNX_OFED en_sysfs.c mlx5e_fill_rp_attributes and
 * en_ecn.c): show is sprintf("%d\n") of the
 * u32 firmware field, store is sscanf("%d") into an int handed to MLX5_SET. */
#include <errno.h>
#include <string.h>

#include "nicsim.h"

struct cc_def {
	const char *name;
	unsigned bits;
	uint32_t factory; /* commonly deployed defaults, not read from firmware */
};

/* cong.c's mlx5_ib_dbg_cc_name[] order (with rp_max_rate and np_min_time_between_cnps,
 * added in 2020: "IB/mlx5: Add np_min_time_between_cnps and rp_max_rate debug params") */
static const struct cc_def defs[NS_CC_N] = {
    {"rp_clamp_tgt_rate", 1, 1},
    {"rp_clamp_tgt_rate_ati", 1, 1},
    {"rp_time_reset", 32, 300},
    {"rp_byte_reset", 32, 32767},
    {"rp_threshold", 32, 1},
    {"rp_ai_rate", 32, 5},
    {"rp_max_rate", 32, 0},
    {"rp_hai_rate", 32, 50},
    {"rp_min_dec_fac", 32, 50},
    {"rp_min_rate", 32, 1},
    {"rp_rate_to_set_on_first_cnp", 32, 0},
    {"rp_dce_tcp_g", 32, 1019},
    {"rp_dce_tcp_rtt", 32, 1},
    {"rp_rate_reduce_monitor_period", 32, 4},
    {"rp_initial_alpha_value", 32, 1023},
    {"rp_gd", 32, 11},
    {"np_min_time_between_cnps", 32, 0},
    {"np_cnp_dscp", 6, 48},
    {"np_cnp_prio_mode", 1, 0},
    {"np_cnp_prio", 3, 6},
};

/* OFED's file for each cc_params parameter it shows (not the CNP three: cnp_dscp and
 * cnp_802p_prio are tree.c's, and OFED has no cnp_prio_mode file) */
static const struct {
	const char *attr;
	int cc;
} ofed[NS_CC_OFED_N] = {
    {"ecn/roce_rp/clamp_tgt_rate", 0},
    {"ecn/roce_rp/clamp_tgt_rate_after_time_inc", 1},
    {"ecn/roce_rp/rpg_time_reset", 2},
    {"ecn/roce_rp/rpg_byte_reset", 3},
    {"ecn/roce_rp/rpg_threshold", 4},
    {"ecn/roce_rp/rpg_ai_rate", 5},
    {"ecn/roce_rp/rpg_max_rate", 6},
    {"ecn/roce_rp/rpg_hai_rate", 7},
    {"ecn/roce_rp/rpg_min_dec_fac", 8},
    {"ecn/roce_rp/rpg_min_rate", 9},
    {"ecn/roce_rp/rate_to_set_on_first_cnp", 10},
    {"ecn/roce_rp/dce_tcp_g", 11},
    {"ecn/roce_rp/dce_tcp_rtt", 12},
    {"ecn/roce_rp/rate_reduce_monitor_period", 13},
    {"ecn/roce_rp/initial_alpha_value", 14},
    {"ecn/roce_rp/rpg_gd", 15},
    {"ecn/roce_np/min_time_between_cnps", 16},
};

const char *ns_cc_ofed_attr(int k)
{
	return k >= 0 && k < NS_CC_OFED_N ? ofed[k].attr : NULL;
}

int ns_cc_ofed_param(int k)
{
	return k >= 0 && k < NS_CC_OFED_N ? ofed[k].cc : -1;
}

int ns_cc_ofed_index(const char *attr)
{
	for (int k = 0; k < NS_CC_OFED_N; k++)
		if (!strcmp(ofed[k].attr, attr))
			return k;
	return -1;
}

const char *ns_cc_name(int i)
{
	return i >= 0 && i < NS_CC_N ? defs[i].name : NULL;
}

int ns_cc_index(const char *name)
{
	for (int i = 0; i < NS_CC_N; i++)
		if (!strcmp(defs[i].name, name))
			return i;
	return -1;
}

void ns_cc_factory(struct ns_cfg *c)
{
	for (int i = 0; i < NS_CC_N; i++)
		c->cc[i] = defs[i].factory;
}

/* The CNP fields live in cfg->cnp_dscp / cnp_prio too (the OFED files show them) */
uint32_t ns_cc_get(const struct ns_cfg *c, int i)
{
	if (i == NS_CC_CNP_DSCP)
		return c->cnp_dscp;
	if (i == NS_CC_CNP_PRIO)
		return c->cnp_prio;
	return c->cc[i];
}

static void cc_set(struct ns_cfg *c, int i, uint32_t v)
{
	uint32_t masked = defs[i].bits < 32 ? v & ((1u << defs[i].bits) - 1) : v;

	if (i == NS_CC_CNP_DSCP)
		c->cnp_dscp = masked;
	else if (i == NS_CC_CNP_PRIO)
		c->cnp_prio = masked;
	else
		c->cc[i] = masked;
	if (i == NS_CC_CNP_PRIO)
		c->cc[NS_CC_CNP_PRIO_MODE] = 0;
}

/* kstrtou32(s, 0): optional '+', 0x hex, 0 octal, one trailing newline */
static int kstrtou32(const char *s, uint32_t *out)
{
	size_t len = strlen(s);
	unsigned base = 10;
	uint64_t v = 0;

	if (len && s[len - 1] == '\n')
		len--;
	if (len && s[0] == '+') {
		s++;
		len--;
	}
	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
		len -= 2;
	} else if (len > 1 && s[0] == '0') {
		base = 8;
		s++;
		len--;
	}
	if (!len)
		return -EINVAL;
	for (size_t k = 0; k < len; k++) {
		char ch = s[k];
		unsigned d = ch >= '0' && ch <= '9'   ? (unsigned)(ch - '0')
			     : ch >= 'a' && ch <= 'f' ? (unsigned)(ch - 'a' + 10)
			     : ch >= 'A' && ch <= 'F' ? (unsigned)(ch - 'A' + 10)
						      : 99;
		if (d >= base)
			return -EINVAL;
		v = v * base + d;
		if (v > UINT32_MAX)
			return -ERANGE;
	}
	*out = (uint32_t)v;
	return 0;
}

int ns_cc_store(struct ns_nic *nic, const char *name, const char *buf, size_t len)
{
	char lbuf[11] = {0};
	int i = ns_cc_index(name);
	uint32_t v;

	if (i < 0)
		return -EACCES;
	if (len > sizeof(lbuf))
		return -EINVAL;
	memcpy(lbuf, buf, len);
	lbuf[sizeof(lbuf) - 1] = '\0';
	if (kstrtou32(lbuf, &v))
		return -EINVAL;
	cc_set(&nic->cfg, i, v);
	nic->cfg_dirty = 1;
	return 0;
}

/* The kernel's vsscanf("%d") (lib/vsprintf.c): leading blanks, an optional sign, decimal
 * digits read as a long long and cut to int; nothing matched leaves the int unset, which
 * OFED's store does not check (it then sends whatever the stack held) -- the simulator
 * refuses that case with EINVAL instead of inventing a value. */
static int kernel_scan_int(const char *buf, size_t len, int32_t *out)
{
	size_t i = 0;
	uint64_t v = 0;
	int neg = 0, digits = 0;

	while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n'))
		i++;
	if (i < len && (buf[i] == '-' || buf[i] == '+'))
		neg = buf[i++] == '-';
	for (; i < len && buf[i] >= '0' && buf[i] <= '9'; i++, digits++)
		v = v * 10 + (uint64_t)(buf[i] - '0');
	if (!digits)
		return -EINVAL;
	v = neg ? (uint64_t)0 - v : v;
	*out = (int32_t)(uint32_t)v;
	return 0;
}

int ns_cc_ofed_store(struct ns_nic *nic, int k, const char *buf, size_t len)
{
	int32_t v;
	int i = ns_cc_ofed_param(k);

	if (i < 0)
		return -EACCES;
	if (kernel_scan_int(buf, len, &v))
		return -EINVAL;
	cc_set(&nic->cfg, i, (uint32_t)v);
	nic->cfg_dirty = 1;
	return 0;
}
