/* SPDX-License-Identifier: Apache-2.0 */
/* DCB netlink through libnl-3: RTM_GETDCB/RTM_SETDCB messages (the kernel's
 * include/uapi/linux/dcbnl.h and net/dcb/dcbnl.c).
 *
 * libnl has no DCB helpers, so messages are built from its generic attribute calls and
 * replies are parsed by hand from the raw bytes: every length is checked before it is
 * used, and every value that later indexes an array (priorities, buffers, TCs) is
 * range-checked here, so nothing downstream trusts the kernel (or a simulator). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <netlink/attr.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>

#include "host.h"

/* Biggest reply we accept: an IEEE_GET with a full 64-entry DSCP table is ~1 KiB. */
#define REPLY_MAX	(64 * 1024)
#define REPLY_TIMEOUT_S 5

/* ---- building ------------------------------------------------------------------------- */

static struct nl_msg *dcb_msg(int type, uint8_t cmd, const char *ifname)
{
	struct dcbmsg hdr = {.dcb_family = AF_UNSPEC, .cmd = cmd};
	struct nl_msg *m;

	if (!rc_host_ifname_ok(ifname))
		return NULL;
	/* NLM_F_ACK as iproute2 sends it; the reply (or error) is what we wait for. */
	m = nlmsg_alloc_simple(type, NLM_F_REQUEST | NLM_F_ACK);
	if (!m)
		return NULL;
	if (nlmsg_append(m, &hdr, sizeof(hdr), NLMSG_ALIGNTO) < 0 ||
	    nla_put_string(m, DCB_ATTR_IFNAME, ifname) < 0) {
		nlmsg_free(m);
		return NULL;
	}
	return m;
}

struct nl_msg *rc_dcb_msg_ieee_get(const char *ifname)
{
	return dcb_msg(RTM_GETDCB, DCB_CMD_IEEE_GET, ifname);
}

struct nl_msg *rc_dcb_msg_gdcbx(const char *ifname)
{
	return dcb_msg(RTM_GETDCB, DCB_CMD_GDCBX, ifname);
}

struct nl_msg *rc_dcb_msg_sdcbx(const char *ifname, uint8_t mode)
{
	struct nl_msg *m = dcb_msg(RTM_SETDCB, DCB_CMD_SDCBX, ifname);

	if (m && nla_put_u8(m, DCB_ATTR_DCBX, mode) < 0) {
		nlmsg_free(m);
		return NULL;
	}
	return m;
}

struct nl_msg *rc_dcb_msg_gcap(const char *ifname)
{
	struct nl_msg *m = dcb_msg(RTM_GETDCB, DCB_CMD_GCAP, ifname);
	struct nlattr *cap;

	if (!m)
		return NULL;
	cap = nla_nest_start(m, DCB_ATTR_CAP);
	if (!cap || nla_put_flag(m, DCB_CAP_ATTR_ALL) < 0 || nla_nest_end(m, cap) < 0) {
		nlmsg_free(m);
		return NULL;
	}
	return m;
}

/* The kernel checks that the attribute type matches the selector (dcbnl.c, dcbnl_ieee_set). */
static int put_app_table(struct nl_msg *m, const struct rc_dcb_app *app, size_t n)
{
	struct nlattr *t = nla_nest_start(m, DCB_ATTR_IEEE_APP_TABLE);

	if (!t)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct dcb_app a = {
		    .selector = app[i].selector,
		    .priority = app[i].priority,
		    .protocol = app[i].protocol,
		};
		int type =
		    a.selector == RC_DCB_APP_SEL_PCP ? RC_DCB_ATTR_DCB_APP : DCB_ATTR_IEEE_APP;

		if (nla_put(m, type, sizeof(a), &a) < 0)
			return -ENOMEM;
	}
	return nla_nest_end(m, t) < 0 ? -ENOMEM : 0;
}

static int put_trust_table(struct nl_msg *m, const uint8_t *sel, size_t n)
{
	struct nlattr *t = nla_nest_start(m, RC_DCB_ATTR_APP_TRUST_TABLE);

	if (!t)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		int type = sel[i] == RC_DCB_APP_SEL_PCP ? RC_DCB_ATTR_DCB_APP : DCB_ATTR_IEEE_APP;

		if (nla_put_u8(m, type, sel[i]) < 0)
			return -ENOMEM;
	}
	/* An empty table means "trust nothing"; plain nla_nest_end() would drop it. */
	return nla_nest_end_keep_empty(m, t) < 0 ? -ENOMEM : 0;
}

struct nl_msg *rc_dcb_msg_ieee_set(const char *ifname, const struct rc_dcb_set *s)
{
	struct nl_msg *m = dcb_msg(RTM_SETDCB, DCB_CMD_IEEE_SET, ifname);
	struct nlattr *ieee;
	int rc = 0;

	if (!m)
		return NULL;
	ieee = nla_nest_start(m, DCB_ATTR_IEEE);
	if (!ieee)
		rc = -ENOMEM;
	if (!rc && s->ets && nla_put(m, DCB_ATTR_IEEE_ETS, sizeof(*s->ets), s->ets) < 0)
		rc = -ENOMEM;
	if (!rc && s->pfc && nla_put(m, DCB_ATTR_IEEE_PFC, sizeof(*s->pfc), s->pfc) < 0)
		rc = -ENOMEM;
	if (!rc && s->buffer && nla_put(m, DCB_ATTR_DCB_BUFFER, sizeof(*s->buffer), s->buffer) < 0)
		rc = -ENOMEM;
	if (!rc && s->n_app)
		rc = put_app_table(m, s->app, s->n_app);
	if (!rc && s->set_trust)
		rc = put_trust_table(m, s->trust, s->n_trust);
	if (!rc && nla_nest_end_keep_empty(m, ieee) < 0)
		rc = -ENOMEM;
	if (rc) {
		nlmsg_free(m);
		return NULL;
	}
	return m;
}

static struct nl_msg *rc_dcb_msg_ieee_del(const char *ifname, const struct rc_dcb_app *app,
					  size_t n)
{
	struct nl_msg *m = dcb_msg(RTM_SETDCB, DCB_CMD_IEEE_DEL, ifname);
	struct nlattr *ieee;

	if (!m)
		return NULL;
	ieee = nla_nest_start(m, DCB_ATTR_IEEE);
	if (!ieee || put_app_table(m, app, n) < 0 || nla_nest_end(m, ieee) < 0) {
		nlmsg_free(m);
		return NULL;
	}
	return m;
}

/* ---- parsing -------------------------------------------------------------------------- */

/* A bounded view of a run of attributes. */
struct attrs {
	const struct nlattr *head;
	int len;
};

static int bad(struct rc_err *err, const char *ifname, const char *what)
{
	return rc_errf(err, EBADMSG, "'%s': malformed DCB netlink reply: %s", ifname, what);
}

/* Check the message framing and the dcbmsg header; give back its attributes. */
static int open_reply(const void *buf, size_t len, const char *ifname, int type, uint8_t cmd,
		      struct attrs *a, struct rc_err *err)
{
	const struct nlmsghdr *nlh = buf;
	const struct dcbmsg *dcb;
	size_t hdr = NLMSG_LENGTH(NLMSG_ALIGN(sizeof(struct dcbmsg)));

	if (!buf || len < NLMSG_HDRLEN)
		return bad(err, ifname, "shorter than a netlink header");
	if (nlh->nlmsg_len < NLMSG_HDRLEN || nlh->nlmsg_len > len)
		return bad(err, ifname, "netlink length does not match the bytes received");
	if (nlh->nlmsg_type != type)
		return bad(err, ifname, "unexpected message type");
	if (nlh->nlmsg_len < hdr)
		return bad(err, ifname, "truncated DCB header");
	dcb = NLMSG_DATA(nlh);
	if (dcb->cmd != cmd)
		return bad(err, ifname, "reply to another DCB command");
	a->head = (const struct nlattr *)((const char *)buf + hdr);
	a->len = (int)(nlh->nlmsg_len - hdr);
	return 0;
}

/* Iterate with libnl's bounds checks; a run that does not end exactly on an attribute
 * boundary is truncated (NLA_ALIGN padding aside). */
#define for_each_attr(pos, a, rem)                                                                 \
	for (pos = (struct nlattr *)(a)->head, rem = (a)->len; nla_ok(pos, rem);                   \
	     pos = nla_next(pos, &(rem)))

static bool trailing_garbage(int rem)
{
	return rem >= (int)NLA_HDRLEN;
}

static struct attrs nested(const struct nlattr *nla)
{
	struct attrs a = {(const struct nlattr *)nla_data(nla), nla_len(nla)};

	return a;
}

static int parse_app_table(const struct nlattr *tbl, const char *ifname, struct rc_dcb_state *st,
			   struct rc_err *err)
{
	struct attrs a = nested(tbl);
	struct nlattr *e;
	int rem;

	for_each_attr(e, &a, rem)
	{
		const struct dcb_app *app;
		int type = nla_type(e);

		/* The kernel skips other types too (net/dcb/dcbnl.c, dcbnl_ieee_set). */
		if (type != DCB_ATTR_IEEE_APP && type != RC_DCB_ATTR_DCB_APP)
			continue;
		if (nla_len(e) < (int)sizeof(struct dcb_app))
			return bad(err, ifname, "APP entry shorter than 4 bytes");
		if (st->n_app == RC_DCB_APP_MAX)
			return bad(err, ifname, "more APP entries than any NIC has");
		app = nla_data(e);
		if (app->priority >= IEEE_8021Q_MAX_PRIORITIES)
			return bad(err, ifname, "APP entry with a priority above 7");
		st->app[st->n_app].selector = app->selector;
		st->app[st->n_app].priority = app->priority;
		st->app[st->n_app].protocol = app->protocol;
		st->n_app++;
	}
	if (trailing_garbage(rem))
		return bad(err, ifname, "truncated APP table");
	return 0;
}

static int parse_trust_table(const struct nlattr *tbl, const char *ifname, struct rc_dcb_state *st,
			     struct rc_err *err)
{
	struct attrs a = nested(tbl);
	struct nlattr *e;
	int rem;

	st->has_trust = true;
	for_each_attr(e, &a, rem)
	{
		if (nla_len(e) != 1)
			return bad(err, ifname, "trust table entry is not one byte");
		if (st->n_trust == RC_DCB_TRUST_MAX)
			return bad(err, ifname, "trust table longer than the selectors that exist");
		st->trust[st->n_trust++] = nla_get_u8(e);
	}
	if (trailing_garbage(rem))
		return bad(err, ifname, "truncated trust table");
	return 0;
}

/* A struct attribute: at least the struct's size (newer kernels may append fields). */
static int get_struct(const struct nlattr *nla, void *dst, size_t size, const char *ifname,
		      const char *what, struct rc_err *err)
{
	char msg[96];

	if (nla_len(nla) < (int)size) {
		snprintf(msg, sizeof(msg), "%s attribute is %d bytes, expected %zu", what,
			 nla_len(nla), size);
		return bad(err, ifname, msg);
	}
	memcpy(dst, nla_data(nla), size);
	return 0;
}

static int check_indexes(const struct rc_dcb_state *st, const char *ifname, struct rc_err *err)
{
	for (int i = 0; i < IEEE_8021QAZ_MAX_TCS; i++) {
		if (st->has_ets && st->ets.prio_tc[i] >= IEEE_8021QAZ_MAX_TCS)
			return bad(err, ifname, "ETS maps a priority to a TC above 7");
		if (st->has_buffer && st->buffer.prio2buffer[i] >= DCBX_MAX_BUFFERS)
			return bad(err, ifname, "buffer map names a buffer above 7");
	}
	return 0;
}

static int parse_ieee(const struct nlattr *ieee, const char *ifname, struct rc_dcb_state *st,
		      struct rc_err *err)
{
	struct attrs a = nested(ieee);
	struct nlattr *e;
	int rem, rc = 0;

	for_each_attr(e, &a, rem)
	{
		switch (nla_type(e)) {
		case DCB_ATTR_IEEE_ETS:
			rc = get_struct(e, &st->ets, sizeof(st->ets), ifname, "ETS", err);
			st->has_ets = !rc;
			break;
		case DCB_ATTR_IEEE_PFC:
			rc = get_struct(e, &st->pfc, sizeof(st->pfc), ifname, "PFC", err);
			st->has_pfc = !rc;
			break;
		case DCB_ATTR_DCB_BUFFER:
			rc = get_struct(e, &st->buffer, sizeof(st->buffer), ifname, "buffer", err);
			st->has_buffer = !rc;
			break;
		case DCB_ATTR_IEEE_MAXRATE:
			rc = get_struct(e, &st->maxrate, sizeof(st->maxrate), ifname, "maxrate",
					err);
			st->has_maxrate = !rc;
			break;
		case DCB_ATTR_IEEE_APP_TABLE:
			rc = parse_app_table(e, ifname, st, err);
			break;
		case RC_DCB_ATTR_APP_TRUST_TABLE:
			rc = parse_trust_table(e, ifname, st, err);
			break;
		default:
			break; /* QCN, peer objects, rewrite table: not ours */
		}
		if (rc)
			return rc;
	}
	if (trailing_garbage(rem))
		return bad(err, ifname, "truncated IEEE attributes");
	return check_indexes(st, ifname, err);
}

int rc_dcb_parse_ieee_get(const void *buf, size_t len, const char *ifname, struct rc_dcb_state *st,
			  struct rc_err *err)
{
	struct attrs a;
	struct nlattr *e;
	bool have_ieee = false;
	int rem, rc;

	memset(st, 0, sizeof(*st));
	rc = open_reply(buf, len, ifname, RTM_GETDCB, DCB_CMD_IEEE_GET, &a, err);
	if (rc)
		return rc;
	for_each_attr(e, &a, rem)
	{
		switch (nla_type(e)) {
		case DCB_ATTR_IEEE:
			if (have_ieee)
				return bad(err, ifname, "two IEEE attributes");
			have_ieee = true;
			rc = parse_ieee(e, ifname, st, err);
			if (rc)
				return rc;
			break;
		case DCB_ATTR_DCBX:
			if (nla_len(e) < 1)
				return bad(err, ifname, "empty DCBX attribute");
			st->dcbx = nla_get_u8(e);
			st->has_dcbx = true;
			break;
		default:
			break;
		}
	}
	if (trailing_garbage(rem))
		return bad(err, ifname, "truncated attributes");
	if (!have_ieee)
		return bad(err, ifname, "no IEEE attributes in the IEEE_GET reply");
	return 0;
}

int rc_dcb_parse_status(const void *buf, size_t len, const char *ifname, uint8_t cmd, int attr,
			uint8_t *status, struct rc_err *err)
{
	struct attrs a;
	struct nlattr *e;
	int rem, rc = open_reply(buf, len, ifname, RTM_SETDCB, cmd, &a, err);

	if (rc)
		return rc;
	for_each_attr(e, &a, rem)
	{
		if (nla_type(e) != attr)
			continue;
		if (nla_len(e) != 1)
			return bad(err, ifname, "status attribute is not one byte");
		*status = nla_get_u8(e);
		return 0;
	}
	return bad(err, ifname, "the reply carries no status byte");
}

int rc_dcb_parse_gdcbx(const void *buf, size_t len, const char *ifname, uint8_t *mode,
		       struct rc_err *err)
{
	struct attrs a;
	struct nlattr *e;
	int rem, rc = open_reply(buf, len, ifname, RTM_GETDCB, DCB_CMD_GDCBX, &a, err);

	if (rc)
		return rc;
	for_each_attr(e, &a, rem)
	{
		if (nla_type(e) != DCB_ATTR_DCBX)
			continue;
		if (nla_len(e) < 1)
			return bad(err, ifname, "empty DCBX attribute");
		*mode = nla_get_u8(e);
		return 0;
	}
	return bad(err, ifname, "the GDCBX reply carries no mode");
}

int rc_dcb_parse_gcap(const void *buf, size_t len, const char *ifname, struct rc_dcb_caps *caps,
		      struct rc_err *err)
{
	struct attrs a, c;
	struct nlattr *e, *ce;
	int rem, crem, rc = open_reply(buf, len, ifname, RTM_GETDCB, DCB_CMD_GCAP, &a, err);

	memset(caps, 0, sizeof(*caps));
	if (rc)
		return rc;
	for_each_attr(e, &a, rem)
	{
		if (nla_type(e) != DCB_ATTR_CAP)
			continue;
		c = nested(e);
		for_each_attr(ce, &c, crem)
		{
			int t = nla_type(ce);

			if (t <= DCB_CAP_ATTR_ALL || t > DCB_CAP_ATTR_DCBX)
				continue;
			if (nla_len(ce) < 1)
				return bad(err, ifname, "empty capability attribute");
			caps->has[t] = true;
			caps->val[t] = nla_get_u8(ce);
		}
		if (trailing_garbage(crem))
			return bad(err, ifname, "truncated capability attributes");
		return 0;
	}
	return bad(err, ifname, "the GCAP reply carries no capabilities");
}

int rc_dcb_status_errno(uint8_t status)
{
	/* (u8)-errno: read it back as a signed byte like iproute2 does. */
	int8_t s = (int8_t)status;

	if (s == 0)
		return 0;
	return s < 0 ? s : -EIO;
}

void rc_dcbx_describe(uint8_t mode, char *buf, size_t len)
{
	static const struct {
		uint8_t bit;
		const char *name;
	} bits[] = {
	    {DCB_CAP_DCBX_HOST, "host"},     {DCB_CAP_DCBX_LLD_MANAGED, "lld-managed"},
	    {DCB_CAP_DCBX_VER_CEE, "cee"},   {DCB_CAP_DCBX_VER_IEEE, "ieee"},
	    {DCB_CAP_DCBX_STATIC, "static"},
	};
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
		int w;

		if (!(mode & bits[i].bit))
			continue;
		w = snprintf(buf + n, len - n, "%s%s", n ? " " : "", bits[i].name);
		if (w < 0 || (size_t)w >= len - n)
			return;
		n += (size_t)w;
	}
	if (!n)
		snprintf(buf, len, "none");
}

/* ---- transport ------------------------------------------------------------------------ */

struct rc_dcb {
	struct nl_sock *sk;
	unsigned char *buf; /* REPLY_MAX bytes */
};

int rc_dcb_open(struct rc_dcb **out, struct rc_err *err)
{
	struct rc_dcb *d = calloc(1, sizeof(*d));
	struct timeval tv = {.tv_sec = REPLY_TIMEOUT_S};
	int rc;

	*out = NULL;
	if (!d)
		return rc_errf(err, ENOMEM, "out of memory");
	d->buf = malloc(REPLY_MAX);
	d->sk = nl_socket_alloc();
	if (!d->buf || !d->sk) {
		rc_dcb_close(d);
		return rc_errf(err, ENOMEM, "out of memory");
	}
	nl_socket_disable_auto_ack(d->sk);
	rc = nl_connect(d->sk, NETLINK_ROUTE);
	if (rc < 0) {
		rc_dcb_close(d);
		return rc_errf(err, EIO, "cannot open a netlink socket: %s", nl_geterror(rc));
	}
	/* A reply that never comes must not hang the agent (a timer runs it). */
	setsockopt(nl_socket_get_fd(d->sk), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	*out = d;
	return 0;
}

void rc_dcb_close(struct rc_dcb *d)
{
	if (!d)
		return;
	if (d->sk)
		nl_socket_free(d->sk);
	free(d->buf);
	free(d);
}

/* Receive until the message answering `seq`: a reply (copied out) or an NLMSG_ERROR.
 * Stale ACKs of earlier requests are skipped by their sequence number. */
static int receive(struct rc_dcb *d, uint32_t seq, void **reply, size_t *rlen, struct rc_err *err)
{
	int fd = nl_socket_get_fd(d->sk);

	for (;;) {
		struct iovec iov = {d->buf, REPLY_MAX};
		struct sockaddr_nl sa;
		struct msghdr mh = {
		    .msg_name = &sa, .msg_namelen = sizeof(sa), .msg_iov = &iov, .msg_iovlen = 1};
		struct nlmsghdr *nlh;
		ssize_t n = recvmsg(fd, &mh, 0);
		int rem;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return rc_errf(err, ETIMEDOUT, "no DCB netlink reply within %ds",
				       REPLY_TIMEOUT_S);
		if (n < 0)
			return rc_errf(err, errno, "netlink receive failed: %s", strerror(errno));
		if (mh.msg_flags & MSG_TRUNC)
			return rc_errf(err, EMSGSIZE, "DCB netlink reply bigger than %d bytes",
				       REPLY_MAX);
		rem = (int)n;
		for (nlh = (struct nlmsghdr *)d->buf; nlmsg_ok(nlh, rem);
		     nlh = nlmsg_next(nlh, &rem)) {
			if (nlh->nlmsg_seq != seq)
				continue;
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(nlh);

				if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
					return rc_errf(err, EBADMSG,
						       "truncated netlink error message");
				if (e->error > 0 || e->error < -4095)
					return rc_errf(err, EBADMSG,
						       "netlink error message with errno %d",
						       e->error);
				if (e->error == 0)
					return rc_errf(err, EBADMSG,
						       "netlink ACK without a DCB reply");
				return e->error;
			}
			if (nlh->nlmsg_type != RTM_GETDCB && nlh->nlmsg_type != RTM_SETDCB)
				continue;
			*reply = malloc(nlh->nlmsg_len);
			if (!*reply)
				return rc_errf(err, ENOMEM, "out of memory");
			memcpy(*reply, nlh, nlh->nlmsg_len);
			*rlen = nlh->nlmsg_len;
			return 0;
		}
		if (rem > 0)
			return rc_errf(err, EBADMSG, "truncated netlink message (%d bytes left)",
				       rem);
	}
}

/* Send `msg` (always freed) and receive its reply: *reply is malloc'd, one message.
 * A kernel NLMSG_ERROR comes back as its negative errno (no message set). */
static int rc_dcb_transact(struct rc_dcb *d, struct nl_msg *msg, void **reply, size_t *len,
			   struct rc_err *err)
{
	int rc;

	*reply = NULL;
	*len = 0;
	if (!msg)
		return rc_errf(err, ENOMEM, "cannot build the DCB request");
	rc = nl_send_auto(d->sk, msg);
	if (rc < 0) {
		nlmsg_free(msg);
		return rc_errf(err, EIO, "cannot send the DCB request: %s", nl_geterror(rc));
	}
	rc = receive(d, nlmsg_hdr(msg)->nlmsg_seq, reply, len, err);
	nlmsg_free(msg);
	return rc;
}

/* A kernel error for an interface, in the operator's words. */
static int kernel_error(int rc, const char *ifname, const char *what, struct rc_err *err)
{
	if (rc == -EOPNOTSUPP)
		return rc_errf(err, EOPNOTSUPP,
			       "'%s': no DCB support (the driver has no dcbnl ops: %s)", ifname,
			       strerror(EOPNOTSUPP));
	if (rc == -ENODEV)
		return rc_errf(err, ENODEV, "'%s': no such network interface", ifname);
	if (rc == -EPERM)
		return rc_errf(err, EPERM, "'%s': %s refused: %s (needs CAP_NET_ADMIN)", ifname,
			       what, strerror(EPERM));
	return rc_errf(err, -rc, "'%s': %s failed: %s", ifname, what, strerror(-rc));
}

static int transact_named(struct rc_dcb *d, struct nl_msg *msg, const char *ifname,
			  const char *what, void **reply, size_t *len, struct rc_err *err)
{
	struct rc_err local = {0};
	int rc;

	if (!msg)
		return rc_errf(err, rc_host_ifname_ok(ifname) ? ENOMEM : EINVAL,
			       "'%s': cannot build the %s request", ifname, what);
	rc = rc_dcb_transact(d, msg, reply, len, &local);
	if (rc < 0 && !local.msg[0]) /* the kernel's NLMSG_ERROR */
		return kernel_error(rc, ifname, what, err);
	if (rc < 0)
		return rc_errf(err, -rc, "'%s': %s: %s", ifname, what, local.msg);
	return 0;
}

int rc_dcb_get(struct rc_dcb *d, const char *ifname, struct rc_dcb_state *st, struct rc_err *err)
{
	void *reply;
	size_t len;
	int rc;

	rc = transact_named(d, rc_dcb_msg_ieee_get(ifname), ifname, "reading DCB (IEEE_GET)",
			    &reply, &len, err);
	if (rc)
		return rc;
	rc_host_raw_netlink(ifname, DCB_CMD_IEEE_GET, reply, len);
	rc = rc_dcb_parse_ieee_get(reply, len, ifname, st, err);
	free(reply);
	return rc;
}

int rc_dcb_getcap(struct rc_dcb *d, const char *ifname, struct rc_dcb_caps *caps,
		  struct rc_err *err)
{
	void *reply;
	size_t len;
	int rc;

	rc = transact_named(d, rc_dcb_msg_gcap(ifname), ifname, "reading DCB capabilities", &reply,
			    &len, err);
	if (rc)
		return rc;
	rc_host_raw_netlink(ifname, DCB_CMD_GCAP, reply, len);
	rc = rc_dcb_parse_gcap(reply, len, ifname, caps, err);
	free(reply);
	return rc;
}

static int set_common(struct rc_dcb *d, struct nl_msg *msg, const char *ifname, uint8_t cmd,
		      const char *what, struct rc_err *err)
{
	uint8_t status = 0;
	void *reply;
	size_t len;
	int rc;

	rc = transact_named(d, msg, ifname, what, &reply, &len, err);
	if (rc)
		return rc;
	rc = rc_dcb_parse_status(reply, len, ifname, cmd, DCB_ATTR_IEEE, &status, err);
	free(reply);
	if (rc)
		return rc;
	rc = rc_dcb_status_errno(status);
	if (rc)
		return rc_errf(err, -rc, "'%s': %s was refused by the driver: %s (status %u)",
			       ifname, what, strerror(-rc), status);
	return 0;
}

int rc_dcb_ieee_set(struct rc_dcb *d, const char *ifname, const struct rc_dcb_set *s,
		    const char *what, struct rc_err *err)
{
	char w[80];

	snprintf(w, sizeof(w), "setting %s", what);
	return set_common(d, rc_dcb_msg_ieee_set(ifname, s), ifname, DCB_CMD_IEEE_SET, w, err);
}

int rc_dcb_ieee_del(struct rc_dcb *d, const char *ifname, const struct rc_dcb_app *app, size_t n,
		    struct rc_err *err)
{
	return set_common(d, rc_dcb_msg_ieee_del(ifname, app, n), ifname, DCB_CMD_IEEE_DEL,
			  "deleting APP entries", err);
}

int rc_dcb_setdcbx(struct rc_dcb *d, const char *ifname, uint8_t mode, struct rc_err *err)
{
	uint8_t status = 0;
	void *reply;
	size_t len;
	int rc;

	rc = transact_named(d, rc_dcb_msg_sdcbx(ifname, mode), ifname, "setting the DCBX mode",
			    &reply, &len, err);
	if (rc)
		return rc;
	rc = rc_dcb_parse_status(reply, len, ifname, DCB_CMD_SDCBX, DCB_ATTR_DCBX, &status, err);
	free(reply);
	if (rc)
		return rc;
	/* setdcbx returns 0 or 1 ("refused"), not an errno (net/dcb/dcbnl.c, dcbnl_setdcbx). */
	if (status)
		return rc_errf(err, EPERM, "'%s': the driver refused DCBX mode 0x%02x", ifname,
			       mode);
	return 0;
}
