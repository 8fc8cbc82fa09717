/* SPDX-License-Identifier: Apache-2.0 */
/* The host side (private to drivers/host/, its commands included): DCB netlink (dcbnl.c),
 * mlx5 knobs outside DCB (mlx5.c), rdma-core view of a netdev (rdma.c), counters
 * (counters.c), the --root prefix (sysfs.c), and the "mlx5" rc_driver on top (host.c).
 *
 * Sections are separable (`rocectl agent --only dcb,ecn,rdma`): a section that is not
 * selected is neither read nor written, and its field groups are reported as not
 * controllable in this run. */
#ifndef ROCECTL_DRIVERS_HOST_H
#define ROCECTL_DRIVERS_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/dcbnl.h>
#include <netlink/msg.h>

#include "rocectl/driver.h"

/* ---- constants the Debian 12 (linux 6.1) UAPI lacks (upstream include/uapi/linux/dcbnl.h)
 * Upstream they are enum members, which #ifndef cannot test for: hence our own names. */
#define RC_DCB_ATTR_APP_TRUST_TABLE 11	/* ieee_attrs: DCB_ATTR_DCB_APP_TRUST_TABLE (v6.2) */
#define RC_DCB_ATTR_REWR_TABLE	    12	/* ieee_attrs: DCB_ATTR_DCB_REWR_TABLE (v6.3) */
#define RC_DCB_ATTR_DCB_APP	    2	/* ieee_attrs_app: entry with a non-IEEE selector */
#define RC_DCB_APP_SEL_PCP	    255 /* DCB_APP_SEL_PCP */
#define RC_IEEE_APP_SEL_MAX	    255 /* IEEE_8021QAZ_APP_SEL_MAX */

/* Bounds on what we accept from a reply (a kernel lists one entry per mapping). */
#define RC_DCB_APP_MAX	 512
#define RC_DCB_TRUST_MAX 8

/* Sections of the host state, for --only. */
enum rc_host_section {
	RC_HOST_SEC_DCB = 1u << 0,  /* dcbnl: trust, app table, pfc, buffer, ets, dcbx */
	RC_HOST_SEC_ECN = 1u << 1,  /* mlx5 sysfs: ECN NP/RP enables, CNP dscp/prio */
	RC_HOST_SEC_RDMA = 1u << 2, /* rdma-core: device, port, GIDs, rdma_cm ToS */
};
#define RC_HOST_SEC_ALL 7u

/* The model groups each section owns. */
#define RC_HOST_DCB_GROUPS                                                                         \
	(RC_F_TRUST | RC_F_DSCP2PRIO | RC_F_PFC | RC_F_CABLE | RC_F_HEADROOM | RC_F_ETS |          \
	 RC_F_PRIO2TC | RC_F_DCBX)
#define RC_HOST_ECN_GROUPS  (RC_F_NIC_ECN | RC_F_CNP | RC_F_DCQCN)
#define RC_HOST_RDMA_GROUPS (RC_F_ROCE_TOS)

/* "dcb,ecn,rdma" -> mask; -EINVAL naming the bad word in `bad` (static storage not used). */
int rc_host_parse_sections(const char *s, unsigned *mask, char *bad, size_t bad_len);
uint32_t rc_host_section_groups(unsigned sections);

/* ---- sysfs.c: every sysfs/configfs path goes through the root prefix ----------------- */

/* root + "/" + formatted path; -ENAMETOOLONG when it does not fit. */
int rc_host_path(char *buf, size_t len, const char *root, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Read a small text file, NUL-terminated, trailing whitespace removed.  Returns the
 * length or a negative errno (-EFBIG when it does not fit). */
int rc_host_read(const char *path, char *buf, size_t len);
/* A decimal integer file ("%d\n", "%llu\n"); -EINVAL when it is not one. */
int rc_host_read_ll(const char *path, long long *v);
/* Write `s` in one write(2) as sysfs expects. */
int rc_host_write(const char *path, const char *s);
bool rc_host_is_dir(const char *path);
bool rc_host_exists(const char *path);
/* Sorted entry names of a directory (without "." and ".."); *names is malloc'd. */
int rc_host_list(const char *path, char (**names)[RC_NAME_MAX], size_t *n);
/* A netdev name we may put in a path and a netlink request: 1..15 bytes, no '/', no
 * whitespace, not "." or "..". */
bool rc_host_ifname_ok(const char *name);

/* ---- rawlog.c: what a read saw, for `rocectl capture` ---------------------------------- */

struct cJSON;
/* Until called again with NULLs, append every file access below `root` to `files`
 * ({"path": relative to root, then "value": text | "value_hex": bytes that are not
 * printable ASCII | "errno": N | "dir": bool | "link": target}) and every DCB netlink read reply to
 * `netlink` ({"interface", "cmd": DCB_CMD_*, "reply": hex}).  Either may be NULL. */
void rc_host_raw_log(struct cJSON *files, struct cJSON *netlink, const char *root);
void rc_host_raw_file(const char *path, const char *value, int rc);
void rc_host_raw_dir(const char *path, bool is_dir);
void rc_host_raw_link(const char *path, const char *target, int rc);
void rc_host_raw_netlink(const char *ifname, unsigned cmd, const void *reply, size_t len);
/* readlink(2) into a NUL-terminated buffer: length, or -errno (logged like a read). */
int rc_host_readlink(const char *path, char *buf, size_t len);

/* ---- dcbnl.c: DCB netlink through libnl-3 ------------------------------------------- */

struct rc_dcb_app {
	uint8_t selector; /* IEEE_8021QAZ_APP_SEL_*, RC_DCB_APP_SEL_PCP */
	uint8_t priority;
	uint16_t protocol; /* DSCP for selector 5 */
};

/* One interface's DCB state as IEEE_GET reports it (net/dcb/dcbnl.c, dcbnl_ieee_fill). */
struct rc_dcb_state {
	bool has_ets, has_pfc, has_buffer, has_maxrate, has_trust, has_dcbx;
	struct ieee_ets ets;
	struct ieee_pfc pfc;
	struct dcbnl_buffer buffer;
	struct ieee_maxrate maxrate;
	size_t n_app;
	struct rc_dcb_app app[RC_DCB_APP_MAX]; /* kernel order (newest first) */
	size_t n_trust;
	uint8_t trust[RC_DCB_TRUST_MAX]; /* selectors, highest precedence first */
	uint8_t dcbx;			 /* DCB_CAP_DCBX_* bits */
};

/* Capabilities from GCAP (DCB_CAP_ATTR_*), has[i] when the driver reported attribute i. */
struct rc_dcb_caps {
	bool has[DCB_CAP_ATTR_DCBX + 1];
	uint8_t val[DCB_CAP_ATTR_DCBX + 1];
};

/* What one IEEE_SET or IEEE_DEL carries; NULL / 0 = absent. */
struct rc_dcb_set {
	const struct ieee_ets *ets;
	const struct ieee_pfc *pfc;
	const struct dcbnl_buffer *buffer;
	const struct rc_dcb_app *app;
	size_t n_app;
	bool set_trust; /* send the trust table even when empty ("trust nothing") */
	const uint8_t *trust;
	size_t n_trust;
};

/* Message building (pure: unit-tested byte for byte).  NULL on allocation failure or an
 * unusable ifname. */
struct nl_msg *rc_dcb_msg_ieee_get(const char *ifname);
struct nl_msg *rc_dcb_msg_ieee_set(const char *ifname, const struct rc_dcb_set *s);
struct nl_msg *rc_dcb_msg_gdcbx(const char *ifname);
struct nl_msg *rc_dcb_msg_sdcbx(const char *ifname, uint8_t mode);
struct nl_msg *rc_dcb_msg_gcap(const char *ifname);

/* Reply parsing: `buf` holds one netlink message of `len` bytes, untrusted.  Errors are
 * -EBADMSG with a message naming the interface and what was wrong. */
int rc_dcb_parse_ieee_get(const void *buf, size_t len, const char *ifname, struct rc_dcb_state *st,
			  struct rc_err *err);
/* The u8 status of an IEEE_SET/IEEE_DEL reply (top-level DCB_ATTR_IEEE) or an SDCBX
 * reply (DCB_ATTR_DCBX): *status is the raw byte.  A netlink ACK of 0 does not mean the
 * driver accepted anything: this byte does (net/dcb/dcbnl.c, dcbnl_ieee_set). */
int rc_dcb_parse_status(const void *buf, size_t len, const char *ifname, uint8_t cmd, int attr,
			uint8_t *status, struct rc_err *err);
int rc_dcb_parse_gdcbx(const void *buf, size_t len, const char *ifname, uint8_t *mode,
		       struct rc_err *err);
int rc_dcb_parse_gcap(const void *buf, size_t len, const char *ifname, struct rc_dcb_caps *caps,
		      struct rc_err *err);
/* IEEE_SET status byte -> negative errno (the kernel stores (u8)-errno). */
int rc_dcb_status_errno(uint8_t status);

/* The transport: one NETLINK_ROUTE socket. */
struct rc_dcb;
int rc_dcb_open(struct rc_dcb **out, struct rc_err *err);
void rc_dcb_close(struct rc_dcb *d);

/* The operations, with messages naming the interface ("'eth0': no DCB support (...)"). */
int rc_dcb_get(struct rc_dcb *d, const char *ifname, struct rc_dcb_state *st, struct rc_err *err);
int rc_dcb_getcap(struct rc_dcb *d, const char *ifname, struct rc_dcb_caps *caps,
		  struct rc_err *err);
/* `what` names the object for the error ("PFC", "APP table"). */
int rc_dcb_ieee_set(struct rc_dcb *d, const char *ifname, const struct rc_dcb_set *s,
		    const char *what, struct rc_err *err);
int rc_dcb_ieee_del(struct rc_dcb *d, const char *ifname, const struct rc_dcb_app *app, size_t n,
		    struct rc_err *err);
int rc_dcb_setdcbx(struct rc_dcb *d, const char *ifname, uint8_t mode, struct rc_err *err);

/* "host ieee", "cee ieee": the DCBX bits as iproute2 names them. */
void rc_dcbx_describe(uint8_t mode, char *buf, size_t len);

/* ---- rdma.c: rdma-core's view of a netdev -------------------------------------------- */

#define RC_GID_MAX 256

struct rc_gid {
	unsigned index;
	char gid[40];  /* sysfs form: 8 groups of 4 hex digits */
	char type[16]; /* "RoCE v2", "IB/RoCE v1" */
	char ndev[RC_NAME_MAX];
};

struct rc_rdma_port {
	bool found;
	char ibdev[RC_NAME_MAX];
	unsigned port;
	char state[32];	     /* "4: ACTIVE" */
	char phys_state[32]; /* "5: LinkUp" */
	char link_layer[16];
	char source[8]; /* "sysfs" or "verbs": where the GID table came from */
	size_t n_gids;
	struct rc_gid gids[RC_GID_MAX];
	int roce_v2_ipv4_gid; /* what NCCL_IB_GID_INDEX must be; -1 = none */
};

/* Every netdev that backs an RDMA device under root (sorted, unique). */
int rc_rdma_netdevs(const char *root, char (**names)[RC_NAME_MAX], size_t *n, struct rc_err *err);
/* The RDMA device and port behind `ifname`; p->found = false when there is none. */
int rc_rdma_lookup(const char *root, const char *ifname, struct rc_rdma_port *p,
		   struct rc_err *err);
/* Port state, link layer and the GID table (what `agent show` prints). */
int rc_rdma_details(const char *root, const char *ifname, struct rc_rdma_port *p);

/* ---- mlx5.c: knobs outside DCB --------------------------------------------------------- */

/* Which files carry the firmware's congestion-control fields: MLNX_OFED's sysfs
 * net/<if>/ecn/roce_{rp,np}/ or upstream's debugfs mlx5/<pci>/cc_params/. */
enum rc_cc_route { RC_CNP_NONE, RC_CNP_OFED, RC_CNP_DEBUGFS };

/* "ofed-sysfs", "debugfs" or "none": the route's name in show and capture output. */
const char *rc_cc_route_name(enum rc_cc_route r);

struct rc_mlx5_state {
	/* Legacy MLNX_OFED /sys/class/net/IF/qos/trust. */
	bool has_qos_trust;
	enum rc_trust qos_trust;
	/* MLNX_OFED ecn/roce_np|roce_rp/enable/<prio>: prio_mask = files present. */
	bool has_ecn;
	uint8_t ecn_prio_mask, np, rp;
	/* CNP marking: OFED ecn/roce_np/{cnp_dscp,cnp_802p_prio}, or upstream debugfs
	 * mlx5/<pci>/cc_params/np_cnp_{dscp,prio_mode,prio} (mlx5_cc.c). */
	bool has_cnp;
	enum rc_cc_route cnp_route;
	int cnp_dscp, cnp_prio;
	int cnp_prio_mode; /* debugfs: 0 = CNPs take cnp_prio */
	char pci[32];	   /* PCI address of the netdev (debugfs directory name) */
	char cnp_why[200]; /* why CNP marking is not available, when !has_cnp */
	/* DCQCN RP/NP parameters, through OFED's ecn/ sysfs where the host has it
	 * (mlx5_ofed_cc.c), else debugfs cc_params (mlx5_cc.c): has_dcqcn = a route is there
	 * and every present file read; dcqcn_mask = the parameters whose file exists (enum
	 * rc_dcqcn_param). */
	bool has_dcqcn;
	enum rc_cc_route dcqcn_route;
	bool dcqcn_unreadable; /* a file is there but could not be read: unknown */
	uint16_t dcqcn_mask;
	uint32_t dcqcn[RC_DCQCN_N];
	char dcqcn_why[200]; /* why they are not available, when !has_dcqcn */
	/* rdma_cm default ToS (configfs). */
	bool has_tos;
	int roce_tos;
	char tos_why[160]; /* why it is not available, when !has_tos */
};

/* Read what exists; absent knobs leave has_* false (upstream mlx5 has no ECN sysfs). */
int rc_mlx5_read(const char *root, const char *ifname, const struct rc_rdma_port *rdma,
		 unsigned sections, struct rc_mlx5_state *st, struct rc_err *err);
int rc_mlx5_write_qos_trust(const char *root, const char *ifname, enum rc_trust t,
			    struct rc_err *err);
/* Writes only the priorities in `mask` whose current value differs (read before write:
 * re-enabling an enabled priority fails with EPERM on OFED). */
int rc_mlx5_write_ecn(const char *root, const char *ifname, const char *point, uint8_t mask,
		      uint8_t want, struct rc_err *err);
/* Through the route the read found (st->cnp_route), writing only what differs. */
int rc_mlx5_write_cnp(const char *root, const char *ifname, const struct rc_mlx5_state *st,
		      int dscp, int prio, struct rc_err *err);
/* mlx5_cc.c: the debugfs route. */
void rc_mlx5_read_cc(const char *root, const char *ifname, struct rc_mlx5_state *st);
int rc_mlx5_write_cc_cnp(const char *root, const char *ifname, const struct rc_mlx5_state *st,
			 int dscp, int prio, struct rc_err *err);
/* The DCQCN parameters of debugfs cc_params into st->dcqcn (has_dcqcn, or dcqcn_why). */
void rc_mlx5_read_cc_dcqcn(const char *root, const char *ifname, struct rc_mlx5_state *st);
/* The parameters of `mask` that differ from what st read, through st->dcqcn_route; one
 * whose file is absent is skipped (the diff reports it not controllable); no route at
 * all is EOPNOTSUPP. */
int rc_mlx5_write_cc_dcqcn(const char *root, const char *ifname, const struct rc_mlx5_state *st,
			   uint16_t mask, const uint32_t *want, struct rc_err *err);
/* mlx5_ofed_cc.c: the MLNX_OFED sysfs route.  read: st->dcqcn from ecn/roce_{rp,np}/
 * (dcqcn_route RC_CNP_OFED) and true when the host has the directory, else false and
 * nothing changed. */
bool rc_mlx5_read_ofed_dcqcn(const char *root, const char *ifname, struct rc_mlx5_state *st);
int rc_mlx5_write_ofed_dcqcn(const char *root, const char *ifname, const struct rc_mlx5_state *st,
			     uint16_t mask, const uint32_t *want, struct rc_err *err);
/* OFED's file of a DCQCN parameter, "roce_rp/rpg_ai_rate" ..., or NULL. */
const char *rc_mlx5_ofed_dcqcn_file(int param);
int rc_mlx5_write_tos(const char *root, const struct rc_rdma_port *rdma, int tos,
		      struct rc_err *err);

/* ---- counters.c ------------------------------------------------------------------------ */

/* ethtool -S counters of `ifname` (SIOCETHTOOL), named by meaning. */
int rc_host_ethtool_counters(const char *ifname, struct rc_counters *out, struct rc_err *err);
/* RDMA hw_counters of the port behind the interface. */
int rc_host_rdma_counters(const char *root, const char *ifname, const struct rc_rdma_port *p,
			  struct rc_counters *out, struct rc_err *err);
/* The meaning of an ethtool / hw_counters name, or NULL when we do not report it. */
const char *rc_host_counter_meaning(const char *source_kind, const char *name, char *buf,
				    size_t len, bool *is_drop);

/* ---- host.c: everything about one interface, and the driver ----------------------------- */

struct rc_host_port {
	char ifname[RC_NAME_MAX];
	int dcb_rc; /* 0, or why DCB could not be read */
	char dcb_err[RC_ERR_MSG_MAX];
	struct rc_dcb_state dcb;
	bool has_caps; /* show only: GCAP answered */
	struct rc_dcb_caps caps;
	struct rc_rdma_port rdma;
	struct rc_mlx5_state nic;
	long long mtu;	      /* -1 = unknown */
	long long speed_mbps; /* -1 = unknown (link down) */
	char operstate[16];
};

/* Read everything about `ifname` (the sections selected in the session).  Only an
 * unusable interface name or a missing netdev is an error; a failing part is recorded in
 * the struct (dcb_rc, has_* flags). */
int rc_host_collect(struct rc_session *s, const char *ifname, struct rc_host_port *hp,
		    struct rc_err *err);
/* The vendor-neutral view of a collected interface. */
void rc_host_to_qos(const struct rc_host_port *hp, unsigned sections, struct port_qos *q);
/* Before apply writes anything to `ifname`: can each of `sections` be managed there?  The
 * sections that cannot get their bit in *missing, and the error names the interface, each
 * such section and why ("'eth0': no DCB support (...): section 'dcb' cannot be managed
 * here").  DCB is missing without dcbnl ops; rdma without an RDMA device or a usable
 * rdma_cm configfs.  ECN never is: upstream mlx5 has no ECN knobs by design, and those
 * fields are reported as not controllable instead.  Returns 0, -EOPNOTSUPP (refuse), or
 * the error of an unusable interface. */
int rc_host_preflight(struct rc_session *s, const char *ifname, unsigned sections,
		      unsigned *missing, struct rc_err *err);

extern const struct rc_driver rc_host_driver;

#endif
