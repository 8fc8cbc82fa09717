/* SPDX-License-Identifier: Apache-2.0 */
/* The kernel's DCB netlink handler (net/dcb/dcbnl.c dcb_doit() and friends) in front of the
 * simulated mlx5: parsing, policy checks, command table, reply and ACK framing.
 * net/dcb/dcbnl.c (dcb_doit and its IEEE handlers) and include/uapi/linux/dcbnl.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/dcbnl.h>
#include <linux/if.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "nicsim.h"

#define ENOTSUPP 524 /* kernel-internal errno some dcbnl paths leak to user space */

struct attr {
	const uint8_t *data;
	uint16_t len;
	int present;
};

enum { P_NONE, P_U8, P_FLAG, P_NESTED, P_NULSTR, P_MIN };
struct pol {
	uint8_t kind;
	uint16_t len;
};

static const struct pol rtnl_policy[DCB_ATTR_MAX + 1] = {
    [DCB_ATTR_IFNAME] = {P_NULSTR, IFNAMSIZ - 1},
    [DCB_ATTR_STATE] = {P_U8, 0},
    [DCB_ATTR_PFC_CFG] = {P_NESTED, 0},
    [DCB_ATTR_PG_CFG] = {P_NESTED, 0},
    [DCB_ATTR_SET_ALL] = {P_U8, 0},
    [DCB_ATTR_PERM_HWADDR] = {P_FLAG, 0},
    [DCB_ATTR_CAP] = {P_NESTED, 0},
    [DCB_ATTR_PFC_STATE] = {P_U8, 0},
    [DCB_ATTR_BCN] = {P_NESTED, 0},
    [DCB_ATTR_APP] = {P_NESTED, 0},
    [DCB_ATTR_IEEE] = {P_NESTED, 0},
    [DCB_ATTR_DCBX] = {P_U8, 0},
    [DCB_ATTR_FEATCFG] = {P_NESTED, 0},
    [DCB_ATTR_NUMTCS] = {P_NESTED, 0},
};

static const struct pol ieee_policy[NS_DCB_ATTR_IEEE_MAX + 1] = {
    [DCB_ATTR_IEEE_ETS] = {P_MIN, sizeof(struct ieee_ets)},
    [DCB_ATTR_IEEE_PFC] = {P_MIN, sizeof(struct ieee_pfc)},
    [DCB_ATTR_IEEE_APP_TABLE] = {P_NESTED, 0},
    [DCB_ATTR_IEEE_MAXRATE] = {P_MIN, sizeof(struct ieee_maxrate)},
    [DCB_ATTR_IEEE_QCN] = {P_MIN, sizeof(struct ieee_qcn)},
    [DCB_ATTR_IEEE_QCN_STATS] = {P_MIN, sizeof(struct ieee_qcn_stats)},
    [DCB_ATTR_DCB_BUFFER] = {P_MIN, sizeof(struct dcbnl_buffer)},
    [NS_DCB_ATTR_DCB_APP_TRUST_TABLE] = {P_NESTED, 0},
};

static const struct pol cap_policy[DCB_CAP_ATTR_MAX + 1] = {
    [DCB_CAP_ATTR_ALL] = {P_FLAG, 0},  [DCB_CAP_ATTR_PG] = {P_U8, 0},
    [DCB_CAP_ATTR_PFC] = {P_U8, 0},    [DCB_CAP_ATTR_UP2TC] = {P_U8, 0},
    [DCB_CAP_ATTR_PG_TCS] = {P_U8, 0}, [DCB_CAP_ATTR_PFC_TCS] = {P_U8, 0},
    [DCB_CAP_ATTR_GSP] = {P_U8, 0},    [DCB_CAP_ATTR_BCN] = {P_U8, 0},
    [DCB_CAP_ATTR_DCBX] = {P_U8, 0},
};

static const struct pol numtcs_policy[DCB_NUMTCS_ATTR_MAX + 1] = {
    [DCB_NUMTCS_ATTR_ALL] = {P_FLAG, 0},
    [DCB_NUMTCS_ATTR_PG] = {P_U8, 0},
    [DCB_NUMTCS_ATTR_PFC] = {P_U8, 0},
};

static const char *const cmd_names[DCB_CMD_MAX + 1] = {
    "UNDEFINED",  "GSTATE",	"SSTATE",   "PGTX_GCFG",    "PGTX_SCFG", "PGRX_GCFG", "PGRX_SCFG",
    "PFC_GCFG",	  "PFC_SCFG",	"SET_ALL",  "GPERM_HWADDR", "GCAP",	 "GNUMTCS",   "SNUMTCS",
    "PFC_GSTATE", "PFC_SSTATE", "BCN_GCFG", "BCN_SCFG",	    "GAPP",	 "SAPP",      "IEEE_SET",
    "IEEE_GET",	  "GDCBX",	"SDCBX",    "GFEATCFG",	    "SFEATCFG",	 "CEE_GET",   "IEEE_DEL",
};

/* The reply type of each command in the kernel's reply_funcs table */
static int cmd_is_set(int cmd)
{
	switch (cmd) {
	case DCB_CMD_SSTATE:
	case DCB_CMD_PGTX_SCFG:
	case DCB_CMD_PGRX_SCFG:
	case DCB_CMD_PFC_SCFG:
	case DCB_CMD_SET_ALL:
	case DCB_CMD_SNUMTCS:
	case DCB_CMD_PFC_SSTATE:
	case DCB_CMD_BCN_SCFG:
	case DCB_CMD_SAPP:
	case DCB_CMD_IEEE_SET:
	case DCB_CMD_SDCBX:
	case DCB_CMD_SFEATCFG:
	case DCB_CMD_IEEE_DEL:
		return 1;
	}
	return 0;
}

/* lib/nlattr.c validate_nla() for the policy kinds dcbnl uses (liberal, "deprecated" mode) */
static int validate(const struct pol *pl, const uint8_t *d, uint16_t n)
{
	switch (pl->kind) {
	case P_U8:
		return n < 1 ? -ERANGE : 0;
	case P_FLAG:
		return n > 0 ? -ERANGE : 0;
	case P_NESTED:
		return n && n < NLA_HDRLEN ? -ERANGE : 0;
	case P_MIN:
		return n < pl->len ? -ERANGE : 0;
	case P_NULSTR: {
		size_t minlen = pl->len && n > pl->len + 1 ? (size_t)pl->len + 1 : n;
		if (!minlen || !memchr(d, 0, minlen))
			return -EINVAL;
		size_t l = n;
		if (d[l - 1] == 0)
			l--;
		return pl->len && l > pl->len ? -ERANGE : 0;
	}
	}
	return 0;
}

/* nla_parse_deprecated(): the last instance of a type wins, unknown types are skipped, a
 * malformed tail ends the walk silently */
static int parse(struct attr *tb, int maxtype, const uint8_t *p, size_t len, const struct pol *pol)
{
	memset(tb, 0, sizeof(*tb) * (size_t)(maxtype + 1));
	while (len >= NLA_HDRLEN) {
		struct nlattr a;
		memcpy(&a, p, sizeof(a));
		if (a.nla_len < NLA_HDRLEN || a.nla_len > len)
			break;
		int type = a.nla_type & NLA_TYPE_MASK;
		const uint8_t *data = p + NLA_HDRLEN;
		uint16_t alen = (uint16_t)(a.nla_len - NLA_HDRLEN);
		if (type > 0 && type <= maxtype) {
			if (pol) {
				int err = validate(&pol[type], data, alen);
				if (err)
					return err;
			}
			tb[type] = (struct attr){data, alen, 1};
		}
		size_t step = NLA_ALIGN(a.nla_len);
		if (step >= len)
			break;
		p += step;
		len -= step;
	}
	return 0;
}

int ns_dcb_claim(const uint8_t *msg, size_t len, char names[][NS_IFNAMSIZ], int n_names,
		 int capable, char *ifname)
{
	struct nlmsghdr h;
	struct attr tb[DCB_ATTR_MAX + 1];

	if (len < sizeof(h))
		return 0;
	memcpy(&h, msg, sizeof(h));
	if (h.nlmsg_len < NLMSG_HDRLEN || h.nlmsg_len > len)
		return 0;
	if (h.nlmsg_type != RTM_GETDCB && h.nlmsg_type != RTM_SETDCB)
		return 0;
	/* everything the kernel rejects before looking the device up, it answers itself */
	if (!(h.nlmsg_flags & NLM_F_REQUEST))
		return 0;
	if (h.nlmsg_type == RTM_GETDCB && (h.nlmsg_flags & NLM_F_DUMP))
		return 0;
	if (h.nlmsg_type == RTM_SETDCB && !capable)
		return 0;
	if (h.nlmsg_len < NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(struct dcbmsg)))
		return 0;
	const uint8_t *payload = msg + NLMSG_HDRLEN;
	size_t off = NLMSG_ALIGN(sizeof(struct dcbmsg));
	if (parse(tb, DCB_ATTR_MAX, payload + off, h.nlmsg_len - NLMSG_HDRLEN - off, rtnl_policy))
		return 0;
	int cmd = payload[1];
	if (cmd == DCB_CMD_UNDEFINED || cmd > DCB_CMD_MAX)
		return 0;
	if (cmd_is_set(cmd) && !capable)
		return 0;
	if (!tb[DCB_ATTR_IFNAME].present)
		return 0;
	const char *name = (const char *)tb[DCB_ATTR_IFNAME].data; /* NUL checked by policy */
	for (int i = 0; i < n_names; i++)
		if (!strcmp(names[i], name)) {
			strcpy(ifname, names[i]);
			return 1;
		}
	return 0;
}

/* Reply construction */

static void nla_put(struct ns_buf *b, uint16_t type, const void *data, size_t n)
{
	struct nlattr a = {.nla_len = (uint16_t)(NLA_HDRLEN + n), .nla_type = type};
	static const uint8_t pad[NLA_ALIGNTO];
	ns_buf_put(b, &a, sizeof(a));
	ns_buf_put(b, data, n);
	ns_buf_put(b, pad, NLA_ALIGN(n) - n);
}

static void nla_put_u8(struct ns_buf *b, uint16_t type, uint8_t v)
{
	nla_put(b, type, &v, 1);
}

static size_t nest_start(struct ns_buf *b, uint16_t type)
{
	size_t off = b->len;
	nla_put(b, type, NULL, 0);
	return off;
}

static void nest_end(struct ns_buf *b, size_t off)
{
	if (b->oom)
		return;
	uint16_t l = (uint16_t)(b->len - off);
	memcpy(b->p + off, &l, sizeof(l));
}

struct ctx {
	const char *dir;
	struct ns_nic nic;
	struct ns_faults faults;
	int faults_dirty;
	struct ns_buf *out;
	char log[1536];
	size_t loglen;
};

static void logf_(struct ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void logf_(struct ctx *c, const char *fmt, ...)
{
	va_list ap;
	if (c->loglen >= sizeof(c->log) - 1)
		return;
	va_start(ap, fmt);
	int n = vsnprintf(c->log + c->loglen, sizeof(c->log) - c->loglen, fmt, ap);
	va_end(ap);
	if (n > 0)
		c->loglen += (size_t)n;
	if (c->loglen >= sizeof(c->log))
		c->loglen = sizeof(c->log) - 1;
}

static const char *sel_name(uint8_t sel)
{
	static const char *n[] = {"0", "ethtype", "stream", "dgram", "any", "dscp"};
	return sel < 6 ? n[sel] : sel == NS_DCB_APP_SEL_PCP ? "pcp" : "sel?";
}

/* The Nth SET from now on this NIC fails (nicsim fault DIR fail-set N) */
static int fault_fires(struct ctx *c)
{
	struct ns_faults *f = &c->faults;
	if (f->fail_set_n <= 0)
		return 0;
	if (f->fail_set_if[0] && strcmp(f->fail_set_if, c->nic.hw.ifname))
		return 0;
	c->faults_dirty = 1;
	if (--f->fail_set_n > 0)
		return 0;
	logf_(c, " fault-injected");
	return 1;
}

static void fill_ieee(struct ctx *c)
{
	struct ns_buf *b = c->out;
	struct ieee_ets ets;
	struct ieee_maxrate mr;
	struct ieee_pfc pfc;
	struct dcbnl_buffer buf;
	struct ns_app apps[NS_NDSCP];

	nla_put(b, DCB_ATTR_IFNAME, c->nic.hw.ifname, strlen(c->nic.hw.ifname) + 1);
	size_t ieee = nest_start(b, DCB_ATTR_IEEE); /* nla_nest_start_noflag() */
	ns_mlx5_getets(&c->nic, &ets);
	nla_put(b, DCB_ATTR_IEEE_ETS, &ets, sizeof(ets));
	ns_mlx5_getmaxrate(&c->nic, &mr);
	nla_put(b, DCB_ATTR_IEEE_MAXRATE, &mr, sizeof(mr));
	ns_counters_grow(&c->nic, &c->faults, NS_CK_PFC, -1);
	ns_mlx5_getpfc(&c->nic, &pfc);
	nla_put(b, DCB_ATTR_IEEE_PFC, &pfc, sizeof(pfc));
	ns_mlx5_getbuffer(&c->nic, &buf);
	nla_put(b, DCB_ATTR_DCB_BUFFER, &buf, sizeof(buf));

	size_t app = nest_start(b, DCB_ATTR_IEEE_APP_TABLE); /* always present, maybe empty */
	int n = ns_mlx5_apps(&c->nic, apps, NS_NDSCP);
	for (int i = 0; i < n; i++) {
		struct dcb_app a = {.selector = apps[i].selector,
				    .priority = apps[i].priority,
				    .protocol = apps[i].protocol};
		nla_put(b, DCB_ATTR_IEEE_APP, &a, sizeof(a));
	}
	nest_end(b, app);

	/* kernels with rewrite support (6.3+) always add this one, flagged as nested */
	size_t rewr = nest_start(b, NS_DCB_ATTR_DCB_REWR_TABLE | NLA_F_NESTED);
	for (int i = 0; i < c->nic.cfg.n_rewr; i++) {
		const struct ns_app *r = &c->nic.cfg.rewr[i];
		struct dcb_app a = {
		    .selector = r->selector, .priority = r->priority, .protocol = r->protocol};
		nla_put(b,
			r->selector == NS_DCB_APP_SEL_PCP ? NS_DCB_ATTR_DCB_APP : DCB_ATTR_IEEE_APP,
			&a, sizeof(a));
	}
	nest_end(b, rewr);
	/* mlx5 has no getapptrust, no peer ops: nothing more in the nest */
	nest_end(b, ieee);
	nla_put_u8(b, DCB_ATTR_DCBX, c->nic.cfg.dcbx);
}

static int app_attr_type(uint8_t selector)
{
	switch (selector) {
	case IEEE_8021QAZ_APP_SEL_ETHERTYPE:
	case IEEE_8021QAZ_APP_SEL_STREAM:
	case IEEE_8021QAZ_APP_SEL_DGRAM:
	case IEEE_8021QAZ_APP_SEL_ANY:
	case IEEE_8021QAZ_APP_SEL_DSCP:
		return DCB_ATTR_IEEE_APP;
	case NS_DCB_APP_SEL_PCP:
		return NS_DCB_ATTR_DCB_APP;
	}
	return 0;
}

typedef int (*app_op)(struct ns_nic *nic, const struct ns_app *app);

/* dcbnl_app_table_setdel() */
static int app_table(struct ctx *c, const struct attr *nest, app_op op, const char *what)
{
	const uint8_t *p = nest->data;
	size_t len = nest->len;
	while (len >= NLA_HDRLEN) {
		struct nlattr a;
		memcpy(&a, p, sizeof(a));
		if (a.nla_len < NLA_HDRLEN || a.nla_len > len)
			break;
		int type = a.nla_type & NLA_TYPE_MASK;
		if (type == DCB_ATTR_IEEE_APP || type == NS_DCB_ATTR_DCB_APP) {
			if (a.nla_len - NLA_HDRLEN < (int)sizeof(struct dcb_app))
				return -ERANGE;
			struct dcb_app d;
			memcpy(&d, p + NLA_HDRLEN, sizeof(d));
			struct ns_app app = {d.selector, d.priority, d.protocol};
			logf_(c, " %s%s:%u:%u", what, sel_name(d.selector), d.protocol, d.priority);
			if (app_attr_type(d.selector) != type)
				return -EINVAL;
			int err = op(&c->nic, &app);
			if (err)
				return err;
		}
		size_t step = NLA_ALIGN(a.nla_len);
		if (step >= len)
			break;
		p += step;
		len -= step;
	}
	return 0;
}

static int ieee_set(struct ctx *c, const struct attr *tb, int *status)
{
	struct attr ieee[NS_DCB_ATTR_IEEE_MAX + 1];
	int err;

	if (!tb[DCB_ATTR_IEEE].present)
		return -EINVAL;
	err = parse(ieee, NS_DCB_ATTR_IEEE_MAX, tb[DCB_ATTR_IEEE].data, tb[DCB_ATTR_IEEE].len,
		    ieee_policy);
	if (err)
		return err;
	if (fault_fires(c)) {
		*status = -c->faults.fail_set_errno;
		return 0;
	}
	if (ieee[DCB_ATTR_IEEE_ETS].present) {
		struct ieee_ets ets;
		memcpy(&ets, ieee[DCB_ATTR_IEEE_ETS].data, sizeof(ets));
		logf_(c, " ets");
		/* the core checks no bandwidth (dcbnl_ieee_set): the driver does (mlx5.c) */
		if ((*status = ns_mlx5_setets(&c->nic, &ets)))
			return 0;
	}
	if (ieee[DCB_ATTR_IEEE_MAXRATE].present) {
		struct ieee_maxrate mr;
		memcpy(&mr, ieee[DCB_ATTR_IEEE_MAXRATE].data, sizeof(mr));
		logf_(c, " maxrate");
		if ((*status = ns_mlx5_setmaxrate(&c->nic, &mr)))
			return 0;
	}
	/* QCN: mlx5 has no ieee_setqcn, the core skips it */
	if (ieee[DCB_ATTR_IEEE_PFC].present) {
		struct ieee_pfc pfc;
		memcpy(&pfc, ieee[DCB_ATTR_IEEE_PFC].data, sizeof(pfc));
		logf_(c, " pfc(en=0x%02x,delay=%u)", pfc.pfc_en, pfc.delay);
		if ((*status = ns_mlx5_setpfc(&c->nic, &pfc)))
			return 0;
	}
	if (ieee[DCB_ATTR_DCB_BUFFER].present) {
		struct dcbnl_buffer buf;
		memcpy(&buf, ieee[DCB_ATTR_DCB_BUFFER].data, sizeof(buf));
		logf_(c, " buffer");
		for (int i = 0; i < NS_NPRIO; i++)
			if (buf.prio2buffer[i] >= DCBX_MAX_BUFFERS) {
				*status = -EINVAL;
				return 0;
			}
		if ((*status = ns_mlx5_setbuffer(&c->nic, &buf)))
			return 0;
	}
	if (ieee[NS_DCB_ATTR_DCB_REWR_TABLE].present &&
	    (*status = app_table(c, &ieee[NS_DCB_ATTR_DCB_REWR_TABLE], ns_dcb_setrewr, "rewr+")))
		return 0;
	if (ieee[DCB_ATTR_IEEE_APP_TABLE].present &&
	    (*status = app_table(c, &ieee[DCB_ATTR_IEEE_APP_TABLE], ns_mlx5_setapp, "app+")))
		return 0;
	if (ieee[NS_DCB_ATTR_DCB_APP_TRUST_TABLE].present) {
		logf_(c, " apptrust");
		*status = -EOPNOTSUPP; /* mlx5 has no dcbnl_setapptrust */
	}
	return 0;
}

static int ieee_del(struct ctx *c, const struct attr *tb, int *status)
{
	struct attr ieee[NS_DCB_ATTR_IEEE_MAX + 1];
	if (!tb[DCB_ATTR_IEEE].present)
		return -EINVAL;
	int err = parse(ieee, NS_DCB_ATTR_IEEE_MAX, tb[DCB_ATTR_IEEE].data, tb[DCB_ATTR_IEEE].len,
			ieee_policy);
	if (err)
		return err;
	if (fault_fires(c)) {
		*status = -c->faults.fail_set_errno;
		return 0;
	}
	if (ieee[DCB_ATTR_IEEE_APP_TABLE].present &&
	    (*status = app_table(c, &ieee[DCB_ATTR_IEEE_APP_TABLE], ns_mlx5_delapp, "app-")))
		return 0;
	if (ieee[NS_DCB_ATTR_DCB_REWR_TABLE].present &&
	    (*status = app_table(c, &ieee[NS_DCB_ATTR_DCB_REWR_TABLE], ns_dcb_delrewr, "rewr-")))
		return 0;
	return 0;
}

static int getcap(struct ctx *c, const struct attr *tb)
{
	struct attr data[DCB_CAP_ATTR_MAX + 1];
	if (!tb[DCB_ATTR_CAP].present)
		return -EINVAL;
	int err =
	    parse(data, DCB_CAP_ATTR_MAX, tb[DCB_ATTR_CAP].data, tb[DCB_ATTR_CAP].len, cap_policy);
	if (err)
		return err;
	size_t nest = nest_start(c->out, DCB_ATTR_CAP);
	int all = data[DCB_CAP_ATTR_ALL].present;
	for (int i = DCB_CAP_ATTR_ALL + 1; i <= DCB_CAP_ATTR_MAX; i++) {
		uint8_t v;
		if (!all && !data[i].present)
			continue;
		if (!ns_mlx5_getcap(&c->nic, i, &v))
			nla_put_u8(c->out, (uint16_t)i, v);
	}
	nest_end(c->out, nest);
	return 0;
}

static int getnumtcs(struct ctx *c, const struct attr *tb)
{
	struct attr data[DCB_NUMTCS_ATTR_MAX + 1];
	if (!tb[DCB_ATTR_NUMTCS].present)
		return -EINVAL;
	int err = parse(data, DCB_NUMTCS_ATTR_MAX, tb[DCB_ATTR_NUMTCS].data,
			tb[DCB_ATTR_NUMTCS].len, numtcs_policy);
	if (err)
		return err;
	size_t nest = nest_start(c->out, DCB_ATTR_NUMTCS);
	int all = data[DCB_NUMTCS_ATTR_ALL].present;
	for (int i = DCB_NUMTCS_ATTR_ALL + 1; i <= DCB_NUMTCS_ATTR_MAX; i++)
		if (all || data[i].present)
			nla_put_u8(c->out, (uint16_t)i, NS_NPRIO);
	nest_end(c->out, nest);
	return 0;
}

/* Runs one command; < 0 becomes the NLMSG_ERROR, >= 0 means the reply body is in c->out */
static int dispatch(struct ctx *c, int cmd, const struct attr *tb)
{
	int status = 0, err;
	uint8_t v;

	switch (cmd) {
	case DCB_CMD_IEEE_GET:
		fill_ieee(c);
		return 0;
	case DCB_CMD_IEEE_SET:
	case DCB_CMD_IEEE_DEL:
		err = cmd == DCB_CMD_IEEE_SET ? ieee_set(c, tb, &status) : ieee_del(c, tb, &status);
		if (err)
			return err;
		/* the result travels as a u8 in the reply, not as an errno */
		nla_put_u8(c->out, DCB_ATTR_IEEE, (uint8_t)status);
		logf_(c, " -> status %s%s", status ? "-" : "", status ? ns_errname(status) : "0");
		return 0;
	case DCB_CMD_GDCBX:
		nla_put_u8(c->out, DCB_ATTR_DCBX, c->nic.cfg.dcbx);
		return 0;
	case DCB_CMD_SDCBX:
		if (!tb[DCB_ATTR_DCBX].present)
			return -EINVAL;
		logf_(c, " mode=0x%02x", tb[DCB_ATTR_DCBX].data[0]);
		v = fault_fires(c) ? 1 : ns_mlx5_setdcbx(&c->nic, tb[DCB_ATTR_DCBX].data[0]);
		nla_put_u8(c->out, DCB_ATTR_DCBX, v);
		logf_(c, " -> dcbx %u", v);
		return 0;
	case DCB_CMD_GSTATE:
		nla_put_u8(c->out, DCB_ATTR_STATE, 1); /* mlx5: always "up" */
		return 0;
	case DCB_CMD_SSTATE:
		return tb[DCB_ATTR_STATE].present ? -EOPNOTSUPP : -EINVAL;
	case DCB_CMD_GPERM_HWADDR: {
		uint8_t addr[32];
		memset(addr, 0xff, sizeof(addr));
		memcpy(addr, c->nic.hw.mac, 6);
		nla_put(c->out, DCB_ATTR_PERM_HWADDR, addr, sizeof(addr));
		return 0;
	}
	case DCB_CMD_GCAP:
		return getcap(c, tb);
	case DCB_CMD_GNUMTCS:
		return getnumtcs(c, tb);
	case DCB_CMD_SNUMTCS:
		return tb[DCB_ATTR_NUMTCS].present ? -EOPNOTSUPP : -EINVAL;
	case DCB_CMD_PFC_GSTATE:
		nla_put_u8(c->out, DCB_ATTR_PFC_STATE, c->nic.cfg.pfc_en ? 1 : 0);
		return 0;
	case DCB_CMD_BCN_GCFG:
	case DCB_CMD_BCN_SCFG:
		return tb[DCB_ATTR_BCN].present ? -EOPNOTSUPP : -EINVAL;
	case DCB_CMD_GFEATCFG:
		return -EOPNOTSUPP;
	case DCB_CMD_SFEATCFG:
		return -ENOTSUPP;
	}
	/* the CEE configuration commands are not simulated */
	logf_(c, " (CEE command not simulated)");
	return -EOPNOTSUPP;
}

static void put_error(struct ns_buf *ack, const uint8_t *req, uint32_t portid, int err, int cap_ack)
{
	struct nlmsghdr rh;
	memcpy(&rh, req, sizeof(rh));
	int capped = !err || cap_ack;
	size_t copy = capped ? sizeof(rh) : rh.nlmsg_len;
	struct nlmsghdr h = {
	    .nlmsg_len = (uint32_t)(NLMSG_HDRLEN + sizeof(int) + copy),
	    .nlmsg_type = NLMSG_ERROR,
	    .nlmsg_flags = capped ? NLM_F_CAPPED : 0,
	    .nlmsg_seq = rh.nlmsg_seq,
	    .nlmsg_pid = portid,
	};
	ns_buf_put(ack, &h, sizeof(h));
	ns_buf_put(ack, &err, sizeof(err));
	ns_buf_put(ack, req, copy);
	static const uint8_t pad[NLMSG_ALIGNTO];
	ns_buf_put(ack, pad, NLMSG_ALIGN(ack->len) - ack->len);
}

int ns_dcb_handle(const char *dir, const uint8_t *msg, size_t len, uint32_t portid, int cap_ack,
		  struct ns_buf *reply, struct ns_buf *ack)
{
	struct nlmsghdr h;
	struct attr tb[DCB_ATTR_MAX + 1];
	struct ctx *c;
	int err, lock;

	if (len < sizeof(h))
		return -EINVAL;
	memcpy(&h, msg, sizeof(h));
	const uint8_t *payload = msg + NLMSG_HDRLEN;
	size_t off = NLMSG_ALIGN(sizeof(struct dcbmsg));
	if (h.nlmsg_len > len || h.nlmsg_len < NLMSG_HDRLEN + off)
		return -EINVAL;
	parse(tb, DCB_ATTR_MAX, payload + off, h.nlmsg_len - NLMSG_HDRLEN - off, rtnl_policy);
	int cmd = payload[1];
	const char *ifname = (const char *)tb[DCB_ATTR_IFNAME].data;

	c = malloc(sizeof(*c));
	if (!c)
		return -ENOMEM;
	memset(c, 0, sizeof(*c));
	c->dir = dir;
	c->out = reply;

	struct nlmsghdr rh = {.nlmsg_type = cmd_is_set(cmd) ? RTM_SETDCB : RTM_GETDCB,
			      .nlmsg_flags = h.nlmsg_flags, /* the kernel copies them */
			      .nlmsg_seq = h.nlmsg_seq,
			      .nlmsg_pid = portid};
	struct dcbmsg dm = {.dcb_family = AF_UNSPEC, .cmd = (uint8_t)cmd};
	ns_buf_put(reply, &rh, sizeof(rh));
	ns_buf_put(reply, &dm, sizeof(dm));

	lock = ns_lock(dir);
	if (lock < 0) {
		err = lock;
		goto out;
	}
	err = ns_nic_load(dir, ifname, &c->nic);
	if (!err)
		err = ns_faults_load(dir, &c->faults);
	if (!err && !ns_nic_dcb_enabled(&c->nic, &c->faults))
		err = -EOPNOTSUPP; /* no dcbnl_ops on this netdev */
	if (!err) {
		if (cmd_is_set(cmd))
			ns_counter_add(&c->nic, "dcb_sets", 1);
		err = dispatch(c, cmd, tb);
	}
	if (!err && reply->oom)
		err = -EMSGSIZE;
	if (c->nic.hw.ifname[0] && (c->nic.cfg_dirty || c->nic.cnt_dirty)) {
		int e = ns_nic_save(dir, &c->nic);
		if (!err)
			err = e;
	}
	if (c->faults_dirty)
		ns_faults_save(dir, &c->faults);
	if (cmd_is_set(cmd)) {
		if (err)
			logf_(c, " -> error -%s", ns_errname(err));
		ns_log(dir, "setdcb %s %s%.*s", ifname, cmd_names[cmd], (int)c->loglen, c->log);
	}
	ns_unlock(lock);
out:
	free(c);
	if (err) {
		reply->len = 0;
		put_error(ack, msg, portid, err, cap_ack);
		return 0;
	}
	uint32_t total = (uint32_t)reply->len;
	memcpy(reply->p, &total, sizeof(total)); /* nlmsg_len */
	if (h.nlmsg_flags & NLM_F_ACK)
		put_error(ack, msg, portid, 0, cap_ack);
	return 0;
}
