/* SPDX-License-Identifier: Apache-2.0 */
/* The policy: what lossless means for a fabric (docs/POLICY.md). */
#ifndef ROCECTL_POLICY_H
#define ROCECTL_POLICY_H

#include <stdbool.h>
#include <stdint.h>

#include "rocectl/err.h"
#include "rocectl/model.h"

/* Source position of a value, for warnings and cross-field errors. */
struct rc_pos {
	int line;
	int column;
};

/* Where each value of a policy came from, for cross-field errors and warnings
 * (line 0 = not given in the file, a default). */
struct rc_policy_pos {
	struct rc_pos root, roce_dscp, roce_priority, cnp_dscp, cnp_priority, pfc, pfc_priorities,
	    ecn, ecn_enabled, ecn_tc, kmin, kmax, pmax, cable_length, mtu, size, ets, roce_tos,
	    tolerance;
};

struct rc_policy_ets_entry {
	uint8_t traffic_class;
	enum rc_tsa mode;     /* RC_TSA_STRICT or RC_TSA_DWRR */
	double bandwidth_pct; /* DWRR only */
};

struct rc_policy {
	char file[256];
	char name[RC_NAME_MAX];
	enum rc_trust trust;

	uint8_t roce_dscp;
	uint8_t roce_priority;
	uint8_t cnp_dscp;
	uint8_t cnp_priority;

	uint8_t pfc_priorities; /* bitmask: exactly these are lossless */

	bool watchdog_present;
	struct rc_watchdog watchdog;

	struct {
		bool enabled;
		uint8_t traffic_class;
		uint64_t kmin_bytes;
		uint64_t kmax_bytes;
		double pmax_pct;
		bool host_np; /* notification_point */
		bool host_rp; /* reaction_point */
	} ecn;

	struct {
		uint32_t cable_length_m; /* default for links that do not say */
		uint32_t mtu;
		uint64_t size_bytes; /* 0 = computed per link (auto) */
	} headroom;

	int n_ets; /* 0 = leave scheduling alone */
	struct rc_policy_ets_entry ets[RC_NTC];

	bool roce_tos_auto;
	int roce_tos; /* resolved: dscp << 2 | ECT(0) when auto */

	double tolerance_pct;

	/* Host DCQCN parameters to pin (section dcqcn): bit i of dcqcn_mask = dcqcn[i] given
	 * (enum rc_dcqcn_param); 0 = leave firmware's values alone. */
	uint16_t dcqcn_mask;
	uint32_t dcqcn[RC_DCQCN_N];

	/* Priority -> traffic class: identity unless the policy has `priority_to_tc`.
	 * ecn.traffic_class is always prio2tc[roce_priority]. */
	uint8_t prio2tc[RC_NPRIO];
	bool prio2tc_given;

	struct rc_policy_pos pos;
};

struct rc_warnings;

/* Load and validate a policy file.  Warnings (ECN off, > 2 lossless priorities, no
 * watchdog) are appended to `warn` when non-NULL. */
int rc_policy_load(const char *path, struct rc_policy *out, struct rc_warnings *warn,
		   struct rc_err *err);

/* The same from memory; `name` is used in positions. */
int rc_policy_load_buffer(const char *name, const char *buf, size_t len, struct rc_policy *out,
			  struct rc_warnings *warn, struct rc_err *err);

/* Warnings carry a position and a message, printed as "file:line:col: warning: msg". */
#define RC_WARN_MAX 32
struct rc_warnings {
	int n; /* never above RC_WARN_MAX */
	struct rc_err w[RC_WARN_MAX];
	int dropped; /* warnings beyond RC_WARN_MAX, counted only */
};

void rc_warnings_print(const struct rc_warnings *w, FILE *out);
/* Append a warning (file may be NULL or "" for none); w may be NULL. */
void rc_warn_add(struct rc_warnings *w, const char *file, int line, int column, const char *fmt,
		 ...) __attribute__((format(printf, 5, 6)));

/* The cross-field rules of docs/POLICY.md (roce.priority in pfc.priorities, thresholds ordered,
 * ETS sums to 100%, ToS carries roce.dscp, ...) and the warnings, on a filled policy.
 * rc_policy_load runs it; callers that build or change a policy in memory can too. */
int rc_policy_check(const struct rc_policy *p, struct rc_warnings *warn, struct rc_err *err);

/* Limits of docs/POLICY.md ("Keys", range column). */
#define RC_CABLE_MIN_M	     1
#define RC_CABLE_MAX_M	     100000
#define RC_MTU_MIN	     1500
#define RC_MTU_MAX	     9216
#define RC_TOLERANCE_MAX_PCT 50.0

#endif
