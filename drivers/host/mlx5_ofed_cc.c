/* SPDX-License-Identifier: Apache-2.0 */
/* DCQCN RP/NP parameters through MLNX_OFED's sysfs: /sys/class/net/<if>/ecn/roce_rp/ and
 * ecn/roce_np/ (MLNX_OFED en_sysfs.c mlx5e_fill_rp_attributes/np, en_ecn.c; NVIDIA's
 * MLNX_OFED manual, "Explicit Congestion Notification (ECN)").
 * They are the firmware fields upstream shows in debugfs cc_params (mlx5_cc.c), under
 * OFED's own names.  OFED's show is sprintf("%d\n") of the u32 field, so a value above
 * INT_MAX reads negative; its store is sscanf("%d") into an int that MLX5_SET cuts to the
 * field's 32 bits, so such a value is written as its negative int form.  The files are
 * 0644 on a PF and 0444 on a VF; they exist with MLNX_OFED only. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "host.h"

#define PATH_LEN 4096

/* enum rc_dcqcn_param order (include/rocectl/model.h) */
static const char *const files[RC_DCQCN_N] = {
    "roce_rp/rpg_ai_rate",	   "roce_rp/rpg_hai_rate",   "roce_rp/rpg_min_rate",
    "roce_rp/rpg_time_reset",	   "roce_rp/rpg_byte_reset", "roce_rp/rpg_threshold",
    "roce_rp/initial_alpha_value", "roce_rp/rpg_gd",	     "roce_np/min_time_between_cnps",
};

const char *rc_mlx5_ofed_dcqcn_file(int param)
{
	return param >= 0 && param < RC_DCQCN_N ? files[param] : NULL;
}

const char *rc_cc_route_name(enum rc_cc_route r)
{
	return r == RC_CNP_OFED ? "ofed-sysfs" : r == RC_CNP_DEBUGFS ? "debugfs" : "none";
}

static int ecn_path(char *buf, const char *root, const char *ifname, const char *file)
{
	return rc_host_path(buf, PATH_LEN, root, "sys/class/net/%s/ecn/%s", ifname, file);
}

/* "%d" of a u32: -2147483648..-1 stand for 2^31..2^32-1. */
static int read_field(const char *path, uint32_t *v)
{
	long long x;
	int rc = rc_host_read_ll(path, &x);

	if (rc)
		return rc;
	if (x < INT_MIN || x > INT_MAX)
		return -ERANGE;
	*v = (uint32_t)(int32_t)x;
	return 0;
}

bool rc_mlx5_read_ofed_dcqcn(const char *root, const char *ifname, struct rc_mlx5_state *st)
{
	char path[PATH_LEN];
	uint32_t vals[RC_DCQCN_N];
	uint16_t mask = 0;

	for (int i = 0; i < RC_DCQCN_N; i++) {
		int rc = ecn_path(path, root, ifname, files[i]);

		if (!rc)
			rc = read_field(path, &vals[i]);
		/* A file this OFED release lacks is not controllable; the others still are. */
		if (rc == -ENOENT)
			continue;
		if (rc) {
			snprintf(st->dcqcn_why, sizeof(st->dcqcn_why),
				 "cannot read OFED sysfs ecn/%s: %s", files[i], strerror(-rc));
			st->has_dcqcn = false;
			st->dcqcn_mask = 0;
			st->dcqcn_unreadable = true;
			st->dcqcn_route = RC_CNP_OFED;
			return true;
		}
		mask |= (uint16_t)(1u << i);
	}
	if (!mask)
		return false;
	memcpy(st->dcqcn, vals, sizeof(vals));
	st->dcqcn_mask = mask;
	st->dcqcn_route = RC_CNP_OFED;
	st->dcqcn_unreadable = false;
	st->has_dcqcn = true;
	return true;
}

int rc_mlx5_write_ofed_dcqcn(const char *root, const char *ifname, const struct rc_mlx5_state *st,
			     uint16_t mask, const uint32_t *want, struct rc_err *err)
{
	char path[PATH_LEN], s[16];

	for (int i = 0; i < RC_DCQCN_N; i++) {
		uint16_t bit = (uint16_t)(1u << i);
		int rc;

		if (!(mask & st->dcqcn_mask & bit) || st->dcqcn[i] == want[i])
			continue;
		if (ecn_path(path, root, ifname, files[i]))
			return rc_errf(err, ENAMETOOLONG, "'%s': path too long", ifname);
		/* sscanf("%d") takes an int: the u32's own bits, as OFED's show prints them. */
		snprintf(s, sizeof(s), "%d", (int)(int32_t)want[i]);
		rc = rc_host_write(path, s);
		if (rc)
			return rc_errf(err, -rc, "'%s': cannot write '%s' to '%s': %s", ifname, s,
				       path, strerror(-rc));
	}
	return 0;
}
