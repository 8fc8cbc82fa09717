/* SPDX-License-Identifier: Apache-2.0 */
/* SONiC: what makes the values take effect, checked beside the values (verify effects, not
 * echoes).
 *
 * Cable length: buffermgrd (traditional model) gives a port a lossless profile only for a
 * (speed, cable) pair its SKU's pg_profile_lookup.ini has; for any other pair it logs "No
 * PG profile configured for speed ... and cable length ...", drops the update and GCU
 * still reports success (sonic-swss cfgmgr/buffermgr.cpp,
 * doSpeedUpdateTask).  So lengths are written rounded up to the
 * next row, and the port's lossless BUFFER_PG must reference pg_lossless_<speed>_<cable>_
 * profile, the name buffermgrd gives the profile of that row.
 *
 * Persistence: a reload loads /etc/sonic/config_db.json (what `config save` wrote); a
 * running CONFIG_DB that differs from it loses the policy at the next reboot. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sonic.h"

int sonic_parse_lookup(const char *text, size_t len, const char *what, struct sonic_rows *rows,
		       struct rc_err *err)
{
	size_t at = 0;

	rows->n = 0;
	if (!text || len > (1u << 20))
		return rc_errf(err, EPROTO, "%s: no output, or too long", what);
	while (at < len) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t end = nl ? (size_t)(nl - text) : len, n = end - at;
		char line[160], unit[8];
		unsigned long speed, cable;
		int used = 0;

		if (n >= sizeof(line))
			return rc_errf(err, EPROTO, "%s: line of %zu bytes", what, n);
		memcpy(line, text + at, n);
		line[n] = '\0';
		at = end + 1;
		if (memchr(line, '\0', n))
			return rc_errf(err, EPROTO, "%s: NUL byte in the output", what);
		if (strspn(line, " \t\r") == n || line[strspn(line, " \t")] == '#')
			continue;
		/* speed cable size xon xoff threshold [xon_offset]: only the key is used */
		if (sscanf(line, " %7lu %7lu%1[m]%n", &speed, &cable, unit, &used) != 3 || !speed ||
		    !cable || speed > 10000000 || cable > 100000)
			return rc_errf(err, EPROTO,
				       "%s: expected 'speed cable size xon xoff threshold' rows "
				       "(pg_profile_lookup.ini), got a line that is not one",
				       what);
		if (rows->n == SONIC_ROWS_MAX)
			return rc_errf(err, EPROTO, "%s: more than %d rows", what, SONIC_ROWS_MAX);
		rows->v[rows->n].speed_mbps = (uint32_t)speed;
		rows->v[rows->n].cable_m = (uint32_t)cable;
		rows->n++;
	}
	if (!rows->n)
		return rc_errf(err, EPROTO, "%s: no (speed, cable) row", what);
	return 0;
}

uint32_t sonic_row_up(const struct sonic_rows *rows, uint32_t speed_mbps, uint32_t cable_m,
		      uint32_t *below)
{
	uint32_t up = 0, lo = 0;

	for (size_t i = 0; i < rows->n; i++) {
		uint32_t c = rows->v[i].cable_m;

		if (rows->v[i].speed_mbps && rows->v[i].speed_mbps != speed_mbps)
			continue;
		if (c >= cable_m && (!up || c < up))
			up = c;
	}
	for (size_t i = 0; up && i < rows->n; i++)
		if ((!rows->v[i].speed_mbps || rows->v[i].speed_mbps == speed_mbps) &&
		    rows->v[i].cable_m < up && rows->v[i].cable_m > lo)
			lo = rows->v[i].cable_m;
	if (below)
		*below = lo;
	return up;
}

/* The dynamic buffer model: buffermgrd computes the profile of each PG that CONFIG_DB
 * names "NULL" from the port's speed, cable length and MTU, names it
 * pg_lossless_<speed>_<cable>[_mtu<mtu>][_th<th>][_8lane]_profile and writes it with the
 * PG to APPL_DB (sonic-swss cfgmgr/buffermgrdyn.cpp, getDynamicProfileName and
 * refreshPgsForPort; any cable length, no lookup row).  It leaves a port alone when the
 * port is admin down, has no speed, or the update was refused (headroom over the port's
 * limit), and the APPL_DB profile then still names the old length, or is missing. */
static void effect_cable_dynamic(const struct sonic_port_info *info, const char *port,
				 struct port_qos *q)
{
	char want[RC_NAME_MAX];
	size_t n = (size_t)snprintf(want, sizeof(want), "pg_lossless_%u_%um_", q->speed_gbps * 1000,
				    q->cable_length_m);

	for (int p = 0; p < RC_NPRIO; p++) {
		uint8_t bit = (uint8_t)(1u << p);

		if (!(q->pfc_enabled & bit))
			continue;
		if (!(info->pg_cfg & bit)) {
			/* on PFC: apply's PFC writer adds the PG */
			rc_effect_drift(&q->effect, RC_F_PFC,
					"%s prio %d: no BUFFER_PG lists PG %u, so buffermgrd "
					"gives it no lossless headroom",
					port, p, info->pg_of[p]);
			return;
		}
		/* a configured profile (headroom override) does not follow the cable */
		if (!(info->pg_cfg_null & bit))
			continue;
		if ((info->pg_appl & bit) && !strncmp(info->pg_profile[p], want, n))
			continue;
		rc_effect_drift(&q->effect, RC_F_CABLE,
				"%s prio %d: APPL_DB BUFFER_PG_TABLE has %s, not %sprofile: "
				"buffermgrd did not follow the cable length (port down, no "
				"speed, or the headroom update refused)",
				port, p, (info->pg_appl & bit) ? info->pg_profile[p] : "no profile",
				want);
		return;
	}
}

void sonic_effect_cable(const struct sonic_rows *rows, const struct sonic_port_info *info,
			const char *port, struct port_qos *q)
{
	char want[RC_NAME_MAX];
	uint32_t below = 0;

	if (!(q->known & RC_F_CABLE) || !(q->known & RC_F_SPEED) || !q->cable_length_m)
		return;
	if (info->buffer_dynamic) {
		effect_cable_dynamic(info, port, q);
		return;
	}
	if (rows && rows->n &&
	    sonic_row_up(rows, q->speed_gbps * 1000, q->cable_length_m, &below) ==
		q->cable_length_m) {
		q->cable_is_row = true;
		q->cable_row_below_m = below;
	}
	if (!q->pfc_enabled)
		return;
	snprintf(want, sizeof(want), "pg_lossless_%u_%um_profile", q->speed_gbps * 1000,
		 q->cable_length_m);
	for (int p = 0; p < RC_NPRIO; p++) {
		if (!(q->pfc_enabled & (1u << p)) || !strcmp(info->pg_profile[p], want))
			continue;
		rc_effect_drift(&q->effect, RC_F_CABLE, "%s prio %d BUFFER_PG %s, not %s (%s)",
				port, p,
				info->pg_profile[p][0] ? info->pg_profile[p] : "not lossless", want,
				rows && rows->n &&
					sonic_row_up(rows, q->speed_gbps * 1000, q->cable_length_m,
						     NULL) != q->cable_length_m
				    ? "no lookup row for this speed and cable"
				    : "buffermgrd did not follow");
		return;
	}
}

static void prio_text(uint8_t bits, char *buf, size_t len)
{
	size_t o = 0;

	snprintf(buf, len, "\"\"");
	for (int p = 0; p < RC_NPRIO && o + 3 < len; p++)
		if (bits & (1u << p))
			o += (size_t)snprintf(buf + o, len - o, "%s%d", o ? "," : "", p);
}

/* SONiC's QoS template writes pfcwd_sw_enable with the same lossless list as pfc_enable
 * (sonic-buildimage files/build_templates/qos_config.j2, PORT_QOS_MAP; its dual-ToR
 * extra-queue ports are the one exception, and rocectl writes the two equal there too).
 * Parted, a lossless priority runs without the watchdog, or a lossy one is watched. */
void sonic_effect_pfcwd(const struct sonic_port_info *info, const char *port, struct port_qos *q)
{
	char a[24], b[24];

	if (!info->pfcwd_sw_field || !(q->known & RC_F_PFC) || info->pfcwd_sw == q->pfc_enabled)
		return;
	prio_text(info->pfcwd_sw, a, sizeof(a));
	prio_text(q->pfc_enabled, b, sizeof(b));
	rc_effect_drift(&q->effect, RC_F_PFC, "%s pfcwd_sw_enable %s does not follow pfc_enable %s",
			port, a, b);
}

void sonic_effect_unverified(const struct sonic_port_info *info, const struct sonic_rows *rows,
			     struct port_qos *q)
{
	/* no vendor artifact shows APPL_DB's BUFFER_PROFILE_TABLE output or the dynamic
	 * model's profile names (the kit's buffer_headroom_mellanox.lua computes sizes, not
	 * names; the names are read from buffermgrdyn.cpp, not from a device) */
	if (info->buffer_dynamic)
		q->effect.unverified |= RC_F_HEADROOM | RC_F_CABLE;
	if (rows && rows->n && !strcmp(rows->src, "the inventory's cable_rows"))
		q->effect.unverified |= RC_F_CABLE;
}

static bool same_group(const struct port_qos *a, const struct port_qos *b, uint32_t g)
{
	switch (g) {
	case RC_F_TRUST:
		return a->trust == b->trust;
	case RC_F_DSCP2PRIO:
		return a->dscp_mask == b->dscp_mask && !memcmp(a->dscp2prio, b->dscp2prio, 64);
	case RC_F_PRIO2TC:
		return !memcmp(a->prio2tc, b->prio2tc, sizeof(a->prio2tc));
	case RC_F_PFC:
		return a->pfc_enabled == b->pfc_enabled;
	case RC_F_CABLE:
		return a->cable_length_m == b->cable_length_m;
	case RC_F_ECN:
		return !memcmp(a->ecn, b->ecn, sizeof(a->ecn));
	case RC_F_WATCHDOG:
		return !memcmp(&a->watchdog, &b->watchdog, sizeof(a->watchdog));
	default:
		return true;
	}
}

void sonic_effect_startup(const struct port_qos *startup, const char *why, struct port_qos *q)
{
	static const uint32_t groups[] = {RC_F_TRUST, RC_F_DSCP2PRIO, RC_F_PRIO2TC, RC_F_PFC,
					  RC_F_CABLE, RC_F_ECN,	      RC_F_WATCHDOG};
	uint32_t differ = 0;

	for (size_t i = 0; i < sizeof(groups) / sizeof(groups[0]); i++)
		if ((q->known & groups[i]) && !same_group(q, startup, groups[i]))
			differ |= groups[i];
	if (differ)
		rc_effect_drift(&q->effect, differ, "running differs from startup%s%s",
				why ? ": " : "", why ? why : "");
}
