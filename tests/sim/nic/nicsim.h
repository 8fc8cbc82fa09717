/* SPDX-License-Identifier: Apache-2.0 */
/* nicsim: a simulated mlx5 NIC (kernel dcbnl + upstream mlx5 semantics, fake sysfs/configfs).
 *
 * An independent witness for rocectl's host side: nothing here includes or links product code.
 * Layout of a simulated host directory DIR (see README.md):
 *   DIR/nics/<if>.hw        identity and capabilities, fixed at init
 *   DIR/nics/<if>.state     configuration only, canonical text (byte-comparable)
 *   DIR/nics/<if>.counters  counters (pause frames, flaps, SET count, ethtool stats)
 *   DIR/faults              injected faults
 *   DIR/writes.log          one line per write attempt (netlink SET, sysfs/configfs write)
 *   DIR/lock                flock() serialising every read-modify-write
 *   DIR/sys/...             fake sysfs and configfs tree
 */
#ifndef NICSIM_H
#define NICSIM_H

#include <stddef.h>
#include <stdint.h>

#define NS_MAX_NICS	   32
#define NS_IFNAMSIZ	   16
#define NS_NPRIO	   8
#define NS_NDSCP	   64
#define NS_MAX_REWR	   64
#define NS_MAX_COUNTERS	   256
#define NS_MAX_FAULT_PATHS 16
#define NS_MAX_GROW_NAMES  32
#define NS_PATH_MAX	   4096
#define NS_GID_SLOTS	   16
#define NS_GID_VALID	   4

/* Constants that Debian 12's 6.1 <linux/dcbnl.h> lacks (upstream include/uapi/linux/dcbnl.h has
 * them) */
#define NS_DCB_ATTR_DCB_APP_TRUST_TABLE 11
#define NS_DCB_ATTR_DCB_REWR_TABLE	12
#define NS_DCB_ATTR_IEEE_MAX		12
#define NS_DCB_ATTR_DCB_APP		2
#define NS_DCB_APP_SEL_PCP		255

enum { NS_TSA_STRICT = 0, NS_TSA_CBS = 1, NS_TSA_ETS = 2, NS_TSA_VENDOR = 255 };
enum { NS_ROCE_V1 = 1, NS_ROCE_V2 = 2 };

struct ns_hw {
	char ifname[NS_IFNAMSIZ];
	char rdma[32]; /* "" when the NIC has no RDMA device */
	char pci[16];
	uint8_t mac[6];
	uint8_t ipv4[4];
	uint32_t ifindex;
	uint32_t speed_mbps;
	uint32_t max_mtu;
	uint32_t buffer_total;
	uint32_t cell_size;
	int dcb;  /* 0: the netdev has no dcbnl_ops (like a VF) */
	int ofed; /* MLNX_OFED sysfs extras */
	/* mlx5 driver with the 2024 "Validate Non ETS BW" patch in mlx5e_dbcnl_validate_ets
	 * (en_dcbnl.c, mlx5e_dbcnl_validate_ets): bandwidth on a non-ETS TC -> -EINVAL, CBS ->
	 * -EOPNOTSUPP.  Older drivers accept both (the dcbnl core checks neither). */
	int ets_nonets_check;
	/* debugfs mlx5/<pci>/cc_params (drivers/infiniband/hw/mlx5/cong.c): created when
	 * debugfs is mounted and the HCA has cc_query_allowed and cc_modify_allowed */
	int debugfs;
};

struct ns_app {
	uint8_t selector;
	uint8_t priority;
	uint16_t protocol;
};

/* debugfs cc_params (cong.c): the parameters, in the kernel's order */
#define NS_CC_N		    20
#define NS_CC_CNP_DSCP	    17
#define NS_CC_CNP_PRIO_MODE 18
#define NS_CC_CNP_PRIO	    19

/* Configuration only: what `state` files hold */
struct ns_cfg {
	uint8_t dcbx;		     /* getdcbx(); HOST bit = OS controlled */
	int trust_dscp;		     /* QPTS trust; always equals "some DSCP app entry exists" */
	uint64_t dscp_listed;	     /* bit d: the kernel app table holds (DSCP d, dscp2prio[d]) */
	uint8_t dscp2prio[NS_NDSCP]; /* firmware map, QPDPM */
	uint8_t pfc_en;
	uint32_t cable_len; /* metres (PFC "delay" on mlx5) */
	int manual_buffer;  /* the host took the buffers over from firmware */
	uint8_t prio2buffer[NS_NPRIO];
	uint32_t buffer_size[NS_NPRIO]; /* bytes, cell multiples */
	uint8_t prio_tc[NS_NPRIO];
	uint8_t tc_tsa[NS_NPRIO];
	uint8_t tc_bw[NS_NPRIO];
	uint64_t maxrate_kbps[NS_NPRIO];
	int n_rewr;
	struct ns_app rewr[NS_MAX_REWR];
	uint32_t mtu;
	uint8_t roce_tos;
	uint8_t roce_mode;
	uint8_t ecn_np[NS_NPRIO];
	uint8_t ecn_rp[NS_NPRIO];
	uint32_t cnp_dscp;
	uint32_t cnp_prio;
	uint32_t cc[NS_CC_N]; /* cc_params but the CNP DSCP and priority (above) */
};

enum ns_ckind {
	NS_CK_ETH,  /* ethtool -S, always listed */
	NS_CK_PFC,  /* ethtool -S, listed only while PFC is on for .prio */
	NS_CK_HW,   /* infiniband ports/1/hw_counters */
	NS_CK_IB,   /* infiniband ports/1/counters */
	NS_CK_LINK, /* net/<if>/carrier_* */
	NS_CK_META, /* simulator bookkeeping */
};

struct ns_cdef {
	const char *name;
	uint8_t kind;
	int8_t prio;
};

struct ns_cnt {
	uint64_t v[NS_MAX_COUNTERS];
};

struct ns_nic {
	struct ns_hw hw;
	struct ns_cfg cfg;
	struct ns_cnt cnt;
	struct ns_cnt acc; /* part of cnt added by moving counters since their base (rates.c) */
	int cfg_dirty;
	int cnt_dirty;
};

struct ns_faults {
	int fail_set_n; /* the Nth SET from now fails; 0 = off */
	char fail_set_if[NS_IFNAMSIZ];
	int fail_set_errno;
	int n_eperm;
	char eperm[NS_MAX_FAULT_PATHS][NS_PATH_MAX / 8];
	int n_nodcb;
	char nodcb[NS_MAX_NICS][NS_IFNAMSIZ];
	int grow;
	uint64_t grow_step;
	int n_grow;
	char grow_names[NS_MAX_GROW_NAMES][48];
};

/* Growable byte buffer for netlink messages and file contents */
struct ns_buf {
	uint8_t *p;
	size_t len;
	size_t cap;
	int oom;
};

/* counters.c */
extern const struct ns_cdef ns_counters[];
extern const size_t ns_ncounters;
int ns_counter_index(const char *name);
void ns_counter_add(struct ns_nic *nic, const char *name, uint64_t n);
uint64_t ns_counter_get(const struct ns_nic *nic, const char *name);
int ns_counter_visible(const struct ns_nic *nic, size_t i);
int ns_counters_grow(struct ns_nic *nic, const struct ns_faults *f, int kind, int only);

/* rates.c: counters that move with time (nics/<if>.rates; DIR/NS_RATES_MARKER exists
 * once any rate was set on the host) */
#define NS_RATES_MARKER "rates-set"
int ns_rates_accrue(const char *dir, struct ns_nic *nic);
int ns_rates_set(const char *dir, struct ns_nic *nic, const char *name, double per_s);

/* cong.c: debugfs cc_params */
const char *ns_cc_name(int i);
int ns_cc_index(const char *name);
void ns_cc_factory(struct ns_cfg *c);
uint32_t ns_cc_get(const struct ns_cfg *c, int i);
int ns_cc_store(struct ns_nic *nic, const char *name, const char *buf, size_t len);
/* the same parameters in MLNX_OFED's sysfs (net/<if>/ecn/roce_{rp,np}/...): k-th file */
#define NS_CC_OFED_N 17
const char *ns_cc_ofed_attr(int k);
int ns_cc_ofed_param(int k);
int ns_cc_ofed_index(const char *attr);
int ns_cc_ofed_store(struct ns_nic *nic, int k, const char *buf, size_t len);

/* buf.c */
void ns_buf_put(struct ns_buf *b, const void *data, size_t n);
void ns_buf_printf(struct ns_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ns_buf_free(struct ns_buf *b);
int ns_pathf(char *out, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
const char *ns_errname(int err);
int ns_errno_parse(const char *s);

/* state.c */
int ns_lock(const char *dir);
void ns_unlock(int fd);
int ns_write_atomic(const char *path, const void *data, size_t len);
int ns_read_file(const char *path, struct ns_buf *out);
void ns_log(const char *dir, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ns_cfg_factory(const struct ns_hw *hw, struct ns_cfg *cfg);
int ns_hw_format(const struct ns_hw *hw, struct ns_buf *out);
int ns_hw_parse(const char *text, struct ns_hw *hw);
int ns_cfg_format(const struct ns_hw *hw, const struct ns_cfg *cfg, struct ns_buf *out);
int ns_cfg_parse(const char *text, struct ns_cfg *cfg);
int ns_nic_load(const char *dir, const char *ifname, struct ns_nic *nic);
int ns_nic_save(const char *dir, struct ns_nic *nic);
int ns_list_nics(const char *dir, char names[][NS_IFNAMSIZ], int max);
int ns_faults_load(const char *dir, struct ns_faults *f);
int ns_faults_save(const char *dir, const struct ns_faults *f);
int ns_nic_dcb_enabled(const struct ns_nic *nic, const struct ns_faults *f);

/* mlx5.c: the dcbnl_rtnl_ops of upstream mlx5_core, on simulated hardware */
struct ieee_ets;
struct ieee_pfc;
struct ieee_maxrate;
struct dcbnl_buffer;
void ns_mlx5_getets(const struct ns_nic *nic, struct ieee_ets *ets);
int ns_mlx5_setets(struct ns_nic *nic, const struct ieee_ets *ets);
void ns_mlx5_getmaxrate(const struct ns_nic *nic, struct ieee_maxrate *m);
int ns_mlx5_setmaxrate(struct ns_nic *nic, const struct ieee_maxrate *m);
void ns_mlx5_getpfc(const struct ns_nic *nic, struct ieee_pfc *pfc);
int ns_mlx5_setpfc(struct ns_nic *nic, const struct ieee_pfc *pfc);
void ns_mlx5_getbuffer(const struct ns_nic *nic, struct dcbnl_buffer *buf);
int ns_mlx5_setbuffer(struct ns_nic *nic, const struct dcbnl_buffer *buf);
int ns_mlx5_setapp(struct ns_nic *nic, const struct ns_app *app);
int ns_mlx5_delapp(struct ns_nic *nic, const struct ns_app *app);
int ns_mlx5_apps(const struct ns_nic *nic, struct ns_app *out, int max);
uint8_t ns_mlx5_setdcbx(struct ns_nic *nic, uint8_t mode);
int ns_mlx5_getcap(const struct ns_nic *nic, int capid, uint8_t *cap);
void ns_mlx5_set_trust(struct ns_nic *nic, int dscp);
void ns_link_flap(struct ns_nic *nic);
int ns_dcb_setrewr(struct ns_nic *nic, const struct ns_app *app);
int ns_dcb_delrewr(struct ns_nic *nic, const struct ns_app *app);

/* dcbnl.c */
int ns_dcb_claim(const uint8_t *msg, size_t len, char names[][NS_IFNAMSIZ], int n_names,
		 int capable, char *ifname);
int ns_dcb_handle(const char *dir, const uint8_t *msg, size_t len, uint32_t portid, int cap_ack,
		  struct ns_buf *reply, struct ns_buf *ack);

/* tree.c: the fake sysfs/configfs tree */
enum ns_area { NS_AREA_NONE, NS_AREA_NET, NS_AREA_IB, NS_AREA_CFS, NS_AREA_DBG, NS_AREA_OTHER };
struct ns_where {
	enum ns_area area;
	char dev[32];		    /* netdev; RDMA device for IB/configfs; PCI for debugfs */
	char attr[256];		    /* path below the device directory */
	char rel[NS_PATH_MAX];	    /* canonical path relative to DIR */
	char show[NS_PATH_MAX / 2]; /* the path under its /sys/class name, for the log */
};
int ns_tree_create(const char *dir, const struct ns_nic *nic);
int ns_tree_sync(const char *dir, const struct ns_nic *nic);
int ns_classify(const char *dir, const char *rel, struct ns_where *w);
int ns_tree_open_write(const char *dir, const struct ns_where *w, int creating);
int ns_tree_store(const char *dir, const struct ns_where *w, const char *buf, size_t len);
int ns_tree_read_special(const char *dir, const struct ns_where *w);
int ns_tree_mkdir(const char *dir, const struct ns_where *w);
int ns_tree_rmdir(const char *dir, const struct ns_where *w);

/* ethtool.c */
int ns_ethtool(const char *dir, const char *ifname, void *data);

#endif
