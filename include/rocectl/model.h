/* SPDX-License-Identifier: Apache-2.0 */
/* The vendor-neutral model: what one port's lossless QoS is, whoever the vendor.
 *
 * Drivers fill a struct port_qos from the device (the actual state); engine/plan/desired.c
 * fills one from the policy (the desired state); engine/plan/diff.c compares them.  A field
 * group a driver could not read is absent from `known` and is never taken as equal; a
 * group the platform cannot read or control at all is in `unsupported` ("not
 * controllable here": neither drift nor success). */
#ifndef ROCECTL_MODEL_H
#define ROCECTL_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#define RC_NPRIO    8 /* 802.1p priorities */
#define RC_NTC	    8 /* traffic classes */
#define RC_NDSCP    64
#define RC_NAME_MAX 64 /* device and port names, NUL included */

enum rc_trust {
	RC_TRUST_UNSET = 0,
	RC_TRUST_PCP = 1,
	RC_TRUST_DSCP = 2,
};

/* Field groups: bits of port_qos.known/.unsupported and of a change's group. */
enum rc_field {
	RC_F_TRUST = 1u << 0,
	RC_F_DSCP2PRIO = 1u << 1, /* entries selected by dscp_mask */
	RC_F_PFC = 1u << 2,	  /* pfc_enabled */
	RC_F_CABLE = 1u << 3,	  /* cable_length_m (mlx5 PFC delay, NVUE cable-length) */
	RC_F_ECN = 1u << 4,	  /* switch ECN/WRED per traffic class in ecn_tc_mask */
	RC_F_HEADROOM = 1u << 5,  /* headroom_bytes per priority in headroom_mask */
	RC_F_ETS = 1u << 6,	  /* prio_tc, tsa, bandwidth for ets.tc_mask */
	RC_F_WATCHDOG = 1u << 7,  /* PFC storm watchdog */
	RC_F_MTU = 1u << 8,	  /* read-only here: checked per link */
	RC_F_SPEED = 1u << 9,	  /* read-only */
	RC_F_NIC_ECN = 1u << 10,  /* host DCQCN notification/reaction point per priority */
	RC_F_CNP = 1u << 11,	  /* host CNP DSCP and priority */
	RC_F_ROCE_TOS = 1u << 12, /* rdma_cm default ToS */
	RC_F_DCBX = 1u << 13,	  /* host DCBX: host-controlled IEEE */
	RC_F_PRIO2TC = 1u << 14,  /* switch priority -> traffic class for roce/cnp priorities */
	RC_F_DCQCN = 1u << 15,	  /* host DCQCN RP/NP parameters (mlx5 debugfs cc_params) */
};
#define RC_F_ALL ((1u << 16) - 1)

/* The DCQCN parameters a policy may pin, by their names in upstream mlx5_ib's debugfs
 * cc_params (drivers/infiniband/hw/mlx5/cong.c, mlx5_ib_dbg_cc_name[]).  Each is a 32-bit
 * firmware field written with kstrtou32, so 0..UINT32_MAX is the whole range cong.c
 * accepts; units are firmware's (docs/POLICY.md, "dcqcn"). */
enum rc_dcqcn_param {
	RC_DCQCN_RP_AI_RATE = 0,
	RC_DCQCN_RP_HAI_RATE,
	RC_DCQCN_RP_MIN_RATE,
	RC_DCQCN_RP_TIME_RESET,
	RC_DCQCN_RP_BYTE_RESET,
	RC_DCQCN_RP_THRESHOLD,
	RC_DCQCN_RP_INITIAL_ALPHA_VALUE,
	RC_DCQCN_RP_GD,
	RC_DCQCN_NP_MIN_TIME_BETWEEN_CNPS,
	RC_DCQCN_N
};

enum rc_tsa {
	RC_TSA_UNSET = 0,
	RC_TSA_STRICT = 1,
	RC_TSA_DWRR = 2, /* ETS in IEEE terms */
	RC_TSA_VENDOR = 3,
};

enum rc_wd_action {
	RC_WD_DROP = 0,
	RC_WD_FORWARD = 1,
};

struct rc_ecn_tc {
	bool enabled;
	uint64_t kmin_bytes;
	uint64_t kmax_bytes;
	double pmax_pct; /* marking probability at Kmax, percent (0 < p <= 100) */
};

struct rc_ets {
	uint8_t tc_mask; /* traffic classes described below */
	uint8_t tsa[RC_NTC];
	uint8_t bw_pct[RC_NTC];
	/* Desired side: classes the policy does not list, which must hold no DWRR share (the
	 * policy's DWRR shares sum to 100% and are the whole scheduler). */
	uint8_t no_share_mask;
};

/* Watchdog fields a platform fixes itself (actual side only): reported as "not
 * controllable here" instead of drift.  NVUE restores after its detection time and
 * always drops. */
enum rc_wd_fixed {
	RC_WD_FIXED_RESTORATION = 1u << 0,
	RC_WD_FIXED_ACTION = 1u << 1,
};

struct rc_watchdog {
	bool enabled;
	uint32_t detection_ms;
	uint32_t restoration_ms;
	enum rc_wd_action action;
	uint8_t fixed; /* enum rc_wd_fixed bits */
};

/* What a driver saw beyond the values (actual side only): verify effects, not echoes.
 * A value that reads back as written proves little; the driver also reads what makes the
 * hop lossless (the buffer profile the port got, the pool a priority sits in, the startup
 * configuration after save) and says here when that is missing. */
#define RC_WHY_LEN 200
/* Reasons kept apart by group in one rc_effect; a ninth shares the eighth's slot. */
#define RC_WHY_PARTS 8
struct rc_effect {
	/* Groups whose values read as wanted but whose effect is missing on the device (a
	 * SONiC cable length buffermgrd dropped, PFC on a priority no lossless pool carries,
	 * running differs from startup): drift, and apply rewrites the group. */
	uint32_t drift;
	/* Groups whose value has no effect on this device as configured (mlx5 cable length
	 * in firmware-buffer mode): reported "not effective here", neither drift nor in sync. */
	uint32_t inert;
	/* Groups whose reading on this platform is not checked against a vendor artifact
	 * (docs/PLATFORMS.md): verify says so, so that an operator knows what to trust. */
	uint32_t unverified;
	/* Groups in policy but worth a warning (mlx5 DSCPs that reach a lossless priority
	 * through firmware's default map): shown with the reason, neither drift nor written. */
	uint32_t warn;
	char why[RC_WHY_LEN]; /* one line for drift and inert: what was seen */
	/* Which groups each reason in `why` is about, so that a change's note carries only the
	 * reasons of its own group (engine/plan/diff.c): reason i ends at why[why_end[i]] and
	 * starts at 0 (i = 0) or two bytes after the previous one ("; ").  n_why 0 with a
	 * `why`: one reason about every group (a state written before reasons had groups). */
	uint8_t n_why;
	uint8_t why_end[RC_WHY_PARTS];
	uint16_t why_groups[RC_WHY_PARTS];
};

/* Add a reason to e->why ("; "-separated, truncated to fit) and the groups to e->drift. */
void rc_effect_drift(struct rc_effect *e, uint32_t groups, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Likewise for e->inert. */
void rc_effect_inert(struct rc_effect *e, uint32_t groups, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Likewise for e->warn. */
void rc_effect_warn(struct rc_effect *e, uint32_t groups, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Only the reason, about `groups` (a state being read back: engine/run/qos_json.c). */
void rc_effect_reason(struct rc_effect *e, uint32_t groups, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Reason i of e->why (i < rc_effect_n_reasons): its groups, and its text as why[*start,
 * *end). */
size_t rc_effect_n_reasons(const struct rc_effect *e);
void rc_effect_reason_at(const struct rc_effect *e, size_t i, uint32_t *groups, size_t *start,
			 size_t *end);
/* The reasons about any of `groups`, "; "-joined, into buf (truncated to fit); "" when there
 * are none. */
void rc_effect_why_of(const struct rc_effect *e, uint32_t groups, char *buf, size_t len);

struct port_qos {
	uint32_t known;	      /* field groups actually read (actual) or pinned (desired) */
	uint32_t unsupported; /* field groups this platform/port cannot read or control */

	enum rc_trust trust;

	uint64_t dscp_mask; /* bit d: dscp2prio[d] is meaningful */
	uint8_t dscp2prio[RC_NDSCP];
	/* Actual side, where a DSCP map is a table of entries (the mlx5 APP table): bit d when
	 * DSCP d has an entry of its own.  dscp2prio cannot tell an entry from firmware's
	 * default of the same priority; a restore to a journaled state needs to, to delete
	 * the entries the run added (drivers/host/host.c, target_map). */
	bool dscp_entries_known;
	uint64_t dscp_entries;

	uint8_t prio_mask; /* bit p: prio2tc[p] is meaningful */
	uint8_t prio2tc[RC_NPRIO];

	uint8_t pfc_enabled; /* bit p: PFC on priority p */
	uint32_t cable_length_m;
	/* Actual side: cable_is_row when the device holds lengths as rows (SONiC
	 * pg_profile_lookup.ini); the row stands for any cable in (cable_row_below_m,
	 * cable_length_m]. */
	bool cable_is_row;
	uint32_t cable_row_below_m;

	uint8_t ecn_tc_mask; /* bit t: ecn[t] is meaningful */
	struct rc_ecn_tc ecn[RC_NTC];

	uint8_t headroom_mask; /* bit p: headroom_bytes[p] is meaningful */
	uint64_t headroom_bytes[RC_NPRIO];
	/* Desired side only: headroom_bytes is a floor (computed), not an exact value. */
	bool headroom_is_min;
	/* Actual side: the device sizes a lossless priority's headroom itself from the port's
	 * speed, cable length and MTU (SONiC's dynamic buffer model, docs/platforms/sonic.md);
	 * bit p of headroom_derived: priority p has that derived headroom, not a configured
	 * profile (a headroom override).  A computed floor is then rocectl's estimate, shown
	 * beside the device's value, and not the measure of drift. */
	bool headroom_dynamic;
	uint8_t headroom_derived;

	struct rc_ets ets;
	struct rc_watchdog watchdog;

	uint32_t mtu;
	uint32_t speed_gbps;

	uint8_t nic_ecn_np;	   /* bit p: NIC sends CNPs for CE-marked packets on priority p */
	uint8_t nic_ecn_rp;	   /* bit p: NIC reacts to CNPs on priority p (DCQCN) */
	uint8_t nic_ecn_prio_mask; /* priorities the two masks above describe */
	uint8_t cnp_dscp;
	uint8_t cnp_prio;
	int roce_tos;	/* full ToS byte, e.g. 106 */
	bool dcbx_host; /* DCBX in host (OS) control, IEEE */
	/* bit i: dcqcn[i] is meaningful (enum rc_dcqcn_param).  Actual side: a parameter
	 * whose cc_params file is absent (older kernels) has its bit clear. */
	uint16_t dcqcn_mask;
	uint32_t dcqcn[RC_DCQCN_N];

	struct rc_effect effect; /* actual side only */
};

/* A port of a device with its state. */
struct rc_port_state {
	char name[RC_NAME_MAX];
	struct port_qos qos;
};

const char *rc_trust_name(enum rc_trust t);
const char *rc_tsa_name(enum rc_tsa t);
/* "trust", "dscp2prio", ...: the operator's name for one field group bit. */
const char *rc_field_name(uint32_t field_bit);
/* "rp_ai_rate", ...: the cc_params name of a DCQCN parameter, or NULL. */
const char *rc_dcqcn_name(int param);
/* The parameter of a cc_params name, or -1. */
int rc_dcqcn_index(const char *name);

#endif
