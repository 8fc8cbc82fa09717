/* SPDX-License-Identifier: Apache-2.0 */
/* DCB netlink: requests byte for byte (the layout of include/uapi/linux/dcbnl.h as net/dcb/dcbnl.c
 * parses it), replies parsed from bytes, including truncated and hostile ones, and the real
 * kernel's answer for a netdev without dcbnl ops. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <linux/rtnetlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include "../../drivers/host/host.h"

/* ---- requests ------------------------------------------------------------------------- */

static void assert_bytes(struct nl_msg *m, const uint8_t *want, size_t len)
{
	struct nlmsghdr *h;

	assert_non_null(m);
	h = nlmsg_hdr(m);
	h->nlmsg_seq = 1; /* as in the reference capture */
	assert_int_equal(h->nlmsg_len, len);
	assert_memory_equal(h, want, len);
	nlmsg_free(m);
}

static void ieee_get_request(void **state)
{
	static const uint8_t want[] = {
	    0x20, 0x00, 0x00, 0x00, 0x4e, 0x00, 0x05, 0x00, 0x01, 0x00, 0x00,
	    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x15, 0x00, 0x00, 0x09, 0x00,
	    0x01, 0x00, 0x65, 0x74, 0x68, 0x30, 0x00, 0x00, 0x00, 0x00,
	};

	(void)state;
	assert_bytes(rc_dcb_msg_ieee_get("eth0"), want, sizeof(want));
}

static void ieee_set_app_request(void **state)
{
	static const uint8_t want[] = {
	    0x30, 0x00, 0x00, 0x00, 0x4f, 0x00, 0x05, 0x00, 0x01, 0x00, 0x00, 0x00,
	    0x00, 0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x09, 0x00, 0x01, 0x00,
	    0x65, 0x74, 0x68, 0x30, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x0d, 0x80,
	    0x0c, 0x00, 0x03, 0x80, 0x08, 0x00, 0x01, 0x00, 0x05, 0x03, 0x1a, 0x00,
	};
	struct rc_dcb_app a = {IEEE_8021QAZ_APP_SEL_DSCP, 3, 26};

	(void)state;
	assert_bytes(rc_dcb_msg_ieee_set("eth0", &(struct rc_dcb_set){.app = &a, .n_app = 1}), want,
		     sizeof(want));
}

static void ieee_set_pfc_request(void **state)
{
	uint8_t want[176] = {
	    0xb0, 0x00, 0x00, 0x00, 0x4f, 0x00, 0x05, 0x00, 0x01, 0x00, 0x00, 0x00,
	    0x00, 0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x09, 0x00, 0x01, 0x00,
	    0x65, 0x74, 0x68, 0x30, 0x00, 0x00, 0x00, 0x00, 0x90, 0x00, 0x0d, 0x80,
	    0x8c, 0x00, 0x02, 0x00, 0x08, 0x08, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00,
	};
	struct ieee_pfc pfc = {.pfc_cap = 8, .pfc_en = 0x08, .delay = 7};

	(void)state;
	assert_bytes(rc_dcb_msg_ieee_set("eth0", &(struct rc_dcb_set){.pfc = &pfc}), want,
		     sizeof(want));
}

/* An empty trust table means "trust nothing" and must reach the kernel. */
static void empty_trust_table_is_sent(void **state)
{
	struct nl_msg *m = rc_dcb_msg_ieee_set("eth0", &(struct rc_dcb_set){.set_trust = true});
	struct nlattr *ieee, *t;
	struct nlmsghdr *h;

	(void)state;
	assert_non_null(m);
	h = nlmsg_hdr(m);
	ieee = nlmsg_find_attr(h, sizeof(struct dcbmsg), DCB_ATTR_IEEE);
	assert_non_null(ieee);
	t = nla_find(nla_data(ieee), nla_len(ieee), RC_DCB_ATTR_APP_TRUST_TABLE);
	assert_non_null(t);
	assert_int_equal(nla_len(t), 0);
	nlmsg_free(m);
}

/* PCP entries and PCP trust selectors go in DCB_ATTR_DCB_APP (type 2), the kernel checks. */
static void pcp_selector_uses_dcb_app_type(void **state)
{
	struct rc_dcb_app a[2] = {{IEEE_8021QAZ_APP_SEL_DSCP, 3, 26}, {RC_DCB_APP_SEL_PCP, 1, 9}};
	uint8_t order[2] = {IEEE_8021QAZ_APP_SEL_DSCP, RC_DCB_APP_SEL_PCP};
	struct nl_msg *m = rc_dcb_msg_ieee_set(
	    "eth0", &(struct rc_dcb_set){
			.app = a, .n_app = 2, .set_trust = true, .trust = order, .n_trust = 2});
	struct nlattr *ieee, *tbl, *e;
	int rem, types[4], n = 0;

	(void)state;
	assert_non_null(m);
	ieee = nlmsg_find_attr(nlmsg_hdr(m), sizeof(struct dcbmsg), DCB_ATTR_IEEE);
	tbl = nla_find(nla_data(ieee), nla_len(ieee), DCB_ATTR_IEEE_APP_TABLE);
	nla_for_each_nested(e, tbl, rem) types[n++] = nla_type(e);
	assert_int_equal(n, 2);
	assert_int_equal(types[0], DCB_ATTR_IEEE_APP);
	assert_int_equal(types[1], RC_DCB_ATTR_DCB_APP);
	tbl = nla_find(nla_data(ieee), nla_len(ieee), RC_DCB_ATTR_APP_TRUST_TABLE);
	n = 0;
	nla_for_each_nested(e, tbl, rem)
	{
		assert_int_equal(nla_len(e), 1);
		types[n++] = nla_type(e) * 1000 + nla_get_u8(e);
	}
	assert_int_equal(n, 2);
	assert_int_equal(types[0], 1005);
	assert_int_equal(types[1], 2255);
	nlmsg_free(m);
}

static void sdcbx_and_gcap_requests(void **state)
{
	struct nl_msg *m = rc_dcb_msg_sdcbx("eth0", 0x09);
	struct nlattr *a, *cap;

	(void)state;
	assert_non_null(m);
	assert_int_equal(nlmsg_hdr(m)->nlmsg_type, RTM_SETDCB);
	assert_int_equal(((struct dcbmsg *)nlmsg_data(nlmsg_hdr(m)))->cmd, DCB_CMD_SDCBX);
	a = nlmsg_find_attr(nlmsg_hdr(m), sizeof(struct dcbmsg), DCB_ATTR_DCBX);
	assert_non_null(a);
	assert_int_equal(nla_get_u8(a), 0x09);
	nlmsg_free(m);

	m = rc_dcb_msg_gcap("eth0");
	assert_non_null(m);
	assert_int_equal(nlmsg_hdr(m)->nlmsg_type, RTM_GETDCB);
	cap = nlmsg_find_attr(nlmsg_hdr(m), sizeof(struct dcbmsg), DCB_ATTR_CAP);
	assert_non_null(cap);
	assert_non_null(nla_find(nla_data(cap), nla_len(cap), DCB_CAP_ATTR_ALL));
	nlmsg_free(m);
}

static void bad_ifname_builds_nothing(void **state)
{
	(void)state;
	assert_null(rc_dcb_msg_ieee_get(""));
	assert_null(rc_dcb_msg_ieee_get("a-name-longer-than-15"));
	assert_null(rc_dcb_msg_ieee_get("../eth0"));
	assert_null(rc_dcb_msg_gdcbx("eth 0"));
}

/* ---- replies -------------------------------------------------------------------------- */

/* A reply as the kernel builds it (§1.8.3): IEEE nest without NLA_F_NESTED. */
struct reply_opts {
	bool ets, pfc, buffer, trust, dcbx;
	size_t n_app;
	const struct rc_dcb_app *app;
	uint8_t dcbx_mode;
};

static struct nl_msg *ieee_get_reply(const struct reply_opts *o)
{
	struct dcbmsg hdr = {.dcb_family = AF_UNSPEC, .cmd = DCB_CMD_IEEE_GET};
	struct nl_msg *m = nlmsg_alloc_simple(RTM_GETDCB, 0);
	struct ieee_ets ets = {.ets_cap = 8, .prio_tc = {1, 0, 2, 3, 4, 5, 6, 7}};
	struct ieee_pfc pfc = {.pfc_cap = 8, .pfc_en = 0x08, .delay = 7};
	struct dcbnl_buffer buf = {
	    .prio2buffer = {0, 0, 0, 1}, .buffer_size = {130944, 156672}, .total_size = 1048576};
	struct nlattr *ieee, *t;

	for (int i = 0; i < 8; i++) {
		ets.tc_tsa[i] = IEEE_8021QAZ_TSA_VENDOR;
		ets.tc_tx_bw[i] = 100;
	}
	assert_non_null(m);
	nlmsg_append(m, &hdr, sizeof(hdr), NLMSG_ALIGNTO);
	nla_put_string(m, DCB_ATTR_IFNAME, "eth0");
	ieee = nla_nest_start(m, DCB_ATTR_IEEE);
	ieee->nla_type &= ~NLA_F_NESTED;
	if (o->ets)
		nla_put(m, DCB_ATTR_IEEE_ETS, sizeof(ets), &ets);
	if (o->pfc)
		nla_put(m, DCB_ATTR_IEEE_PFC, sizeof(pfc), &pfc);
	if (o->buffer)
		nla_put(m, DCB_ATTR_DCB_BUFFER, sizeof(buf), &buf);
	t = nla_nest_start(m, DCB_ATTR_IEEE_APP_TABLE);
	for (size_t i = 0; i < o->n_app; i++) {
		struct dcb_app a = {o->app[i].selector, o->app[i].priority, o->app[i].protocol};

		nla_put(m, DCB_ATTR_IEEE_APP, sizeof(a), &a);
	}
	nla_nest_end_keep_empty(m, t);
	if (o->trust) {
		t = nla_nest_start(m, RC_DCB_ATTR_APP_TRUST_TABLE);
		nla_put_u8(m, DCB_ATTR_IEEE_APP, IEEE_8021QAZ_APP_SEL_DSCP);
		nla_put_u8(m, RC_DCB_ATTR_DCB_APP, RC_DCB_APP_SEL_PCP);
		nla_nest_end(m, t);
	}
	nla_nest_end(m, ieee);
	if (o->dcbx)
		nla_put_u8(m, DCB_ATTR_DCBX, o->dcbx_mode);
	return m;
}

static const struct rc_dcb_app two_apps[] = {{5, 6, 48}, {5, 3, 26}};

static void parses_full_reply(void **state)
{
	struct reply_opts o = {.ets = true,
			       .pfc = true,
			       .buffer = true,
			       .trust = true,
			       .dcbx = true,
			       .dcbx_mode = 0x0d,
			       .n_app = 2,
			       .app = two_apps};
	struct nl_msg *m = ieee_get_reply(&o);
	struct rc_dcb_state *st = malloc(sizeof(*st));
	struct rc_err err = {0};

	(void)state;
	assert_int_equal(
	    rc_dcb_parse_ieee_get(nlmsg_hdr(m), nlmsg_hdr(m)->nlmsg_len, "eth0", st, &err), 0);
	assert_true(st->has_ets && st->has_pfc && st->has_buffer && st->has_trust && st->has_dcbx);
	assert_int_equal(st->pfc.pfc_en, 0x08);
	assert_int_equal(st->pfc.delay, 7);
	assert_int_equal(st->ets.prio_tc[0], 1);
	assert_int_equal(st->buffer.prio2buffer[3], 1);
	assert_int_equal(st->buffer.buffer_size[1], 156672);
	assert_int_equal(st->n_app, 2);
	assert_int_equal(st->app[1].protocol, 26);
	assert_int_equal(st->app[1].priority, 3);
	assert_int_equal(st->n_trust, 2);
	assert_int_equal(st->trust[0], 5);
	assert_int_equal(st->trust[1], 255);
	assert_int_equal(st->dcbx, 0x0d);
	free(st);
	nlmsg_free(m);
}

static void absent_objects_are_not_invented(void **state)
{
	struct reply_opts o = {0};
	struct nl_msg *m = ieee_get_reply(&o);
	struct rc_dcb_state *st = malloc(sizeof(*st));
	struct rc_err err = {0};

	(void)state;
	assert_int_equal(
	    rc_dcb_parse_ieee_get(nlmsg_hdr(m), nlmsg_hdr(m)->nlmsg_len, "eth0", st, &err), 0);
	assert_false(st->has_ets || st->has_pfc || st->has_buffer || st->has_trust || st->has_dcbx);
	assert_int_equal(st->n_app, 0);
	free(st);
	nlmsg_free(m);
}

/* Every prefix of a valid reply, with its header claiming the full length, is refused;
 * and every prefix with a consistent header either parses or is refused, never read
 * past. */
static void truncated_replies_are_refused(void **state)
{
	struct reply_opts o = {.ets = true,
			       .pfc = true,
			       .buffer = true,
			       .trust = true,
			       .dcbx = true,
			       .dcbx_mode = 0x0d,
			       .n_app = 2,
			       .app = two_apps};
	struct nl_msg *m = ieee_get_reply(&o);
	struct nlmsghdr *h = nlmsg_hdr(m);
	size_t len = h->nlmsg_len;
	struct rc_dcb_state *st = malloc(sizeof(*st));

	(void)state;
	for (size_t cut = 0; cut < len; cut++) {
		struct rc_err err = {0};
		uint8_t *copy = malloc(cut ? cut : 1);

		memcpy(copy, h, cut);
		assert_int_equal(rc_dcb_parse_ieee_get(copy, cut, "eth0", st, &err), -EBADMSG);
		assert_non_null(strstr(err.msg, "'eth0': malformed DCB netlink reply"));
		if (cut >= NLMSG_HDRLEN) {
			((struct nlmsghdr *)copy)->nlmsg_len = (uint32_t)cut;
			rc_dcb_parse_ieee_get(copy, cut, "eth0", st, &err);
		}
		free(copy);
	}
	free(st);
	nlmsg_free(m);
}

static struct nlattr *find_ieee_child(struct nlmsghdr *h, int type)
{
	struct nlattr *ieee = nlmsg_find_attr(h, sizeof(struct dcbmsg), DCB_ATTR_IEEE);

	return ieee ? nla_find(nla_data(ieee), nla_len(ieee), type) : NULL;
}

static void expect_bad(struct nl_msg *m, const char *what)
{
	struct rc_dcb_state *st = malloc(sizeof(*st));
	struct rc_err err = {0};

	assert_int_equal(
	    rc_dcb_parse_ieee_get(nlmsg_hdr(m), nlmsg_hdr(m)->nlmsg_len, "eth0", st, &err),
	    -EBADMSG);
	if (!strstr(err.msg, what))
		fail_msg("message '%s' lacks '%s'", err.msg, what);
	free(st);
}

static void short_struct_attribute_is_refused(void **state)
{
	struct reply_opts o = {.pfc = true};
	struct nl_msg *m = ieee_get_reply(&o);
	struct nlattr *pfc = find_ieee_child(nlmsg_hdr(m), DCB_ATTR_IEEE_PFC);

	(void)state;
	/* Claim 12 bytes of payload: the attribute still fits, the struct does not. */
	pfc->nla_len = NLA_HDRLEN + 12;
	expect_bad(m, "PFC attribute is 12 bytes, expected 136");
	nlmsg_free(m);
}

static void short_app_entry_is_refused(void **state)
{
	struct reply_opts o = {.n_app = 1, .app = two_apps};
	struct nl_msg *m = ieee_get_reply(&o);
	struct nlattr *tbl = find_ieee_child(nlmsg_hdr(m), DCB_ATTR_IEEE_APP_TABLE);
	struct nlattr *e = nla_data(tbl);

	(void)state;
	e->nla_len = NLA_HDRLEN + 3;
	expect_bad(m, "APP entry shorter than 4 bytes");
	nlmsg_free(m);
}

static void hostile_indexes_are_refused(void **state)
{
	static const struct rc_dcb_app bad_prio[] = {{5, 9, 26}};
	struct reply_opts o = {.n_app = 1, .app = bad_prio};
	struct nl_msg *m = ieee_get_reply(&o);
	struct dcbnl_buffer *b;
	struct ieee_ets *e;

	(void)state;
	expect_bad(m, "priority above 7");
	nlmsg_free(m);

	o = (struct reply_opts){.buffer = true};
	m = ieee_get_reply(&o);
	b = nla_data(find_ieee_child(nlmsg_hdr(m), DCB_ATTR_DCB_BUFFER));
	b->prio2buffer[7] = 8;
	expect_bad(m, "buffer above 7");
	nlmsg_free(m);

	o = (struct reply_opts){.ets = true};
	m = ieee_get_reply(&o);
	e = nla_data(find_ieee_child(nlmsg_hdr(m), DCB_ATTR_IEEE_ETS));
	e->prio_tc[2] = 200;
	expect_bad(m, "TC above 7");
	nlmsg_free(m);
}

static void overlong_attribute_is_refused(void **state)
{
	struct reply_opts o = {.pfc = true};
	struct nl_msg *m = ieee_get_reply(&o);
	struct nlattr *ieee = nlmsg_find_attr(nlmsg_hdr(m), sizeof(struct dcbmsg), DCB_ATTR_IEEE);

	(void)state;
	/* The IEEE nest claims more than the message holds: iteration must stop. */
	ieee->nla_len = 0xfff0;
	expect_bad(m, "truncated attributes");
	nlmsg_free(m);
}

static void reply_to_other_command_is_refused(void **state)
{
	struct reply_opts o = {.pfc = true};
	struct nl_msg *m = ieee_get_reply(&o);

	(void)state;
	((struct dcbmsg *)nlmsg_data(nlmsg_hdr(m)))->cmd = DCB_CMD_IEEE_SET;
	expect_bad(m, "another DCB command");
	nlmsg_hdr(m)->nlmsg_type = RTM_NEWLINK;
	expect_bad(m, "unexpected message type");
	nlmsg_free(m);
}

static void missing_ieee_nest_is_refused(void **state)
{
	struct dcbmsg hdr = {.cmd = DCB_CMD_IEEE_GET};
	struct nl_msg *m = nlmsg_alloc_simple(RTM_GETDCB, 0);

	(void)state;
	nlmsg_append(m, &hdr, sizeof(hdr), NLMSG_ALIGNTO);
	nla_put_string(m, DCB_ATTR_IFNAME, "eth0");
	expect_bad(m, "no IEEE attributes");
	nlmsg_free(m);
}

static struct nl_msg *status_reply(uint8_t cmd, int attr, const void *data, int len)
{
	struct dcbmsg hdr = {.cmd = cmd};
	struct nl_msg *m = nlmsg_alloc_simple(RTM_SETDCB, 0);

	nlmsg_append(m, &hdr, sizeof(hdr), NLMSG_ALIGNTO);
	if (data)
		nla_put(m, attr, len, data);
	return m;
}

/* A netlink ACK of 0 does not mean the driver took it: the status byte does. */
static void set_status_is_decoded(void **state)
{
	uint8_t einval = 234, ok = 0, eopnotsupp = 161, status = 99;
	uint16_t two = 0;
	struct rc_err err = {0};
	struct nl_msg *m;

	(void)state;
	m = status_reply(DCB_CMD_IEEE_SET, DCB_ATTR_IEEE, &einval, 1);
	assert_int_equal(rc_dcb_parse_status(nlmsg_hdr(m), nlmsg_hdr(m)->nlmsg_len, "eth0",
					     DCB_CMD_IEEE_SET, DCB_ATTR_IEEE, &status, &err),
			 0);
	assert_int_equal(status, 234);
	assert_int_equal(rc_dcb_status_errno(status), -EINVAL);
	nlmsg_free(m);

	assert_int_equal(rc_dcb_status_errno(ok), 0);
	assert_int_equal(rc_dcb_status_errno(eopnotsupp), -EOPNOTSUPP);
	assert_int_equal(rc_dcb_status_errno(255), -EPERM);

	m = status_reply(DCB_CMD_IEEE_SET, DCB_ATTR_IEEE, NULL, 0);
	assert_int_equal(rc_dcb_parse_status(nlmsg_hdr(m), nlmsg_hdr(m)->nlmsg_len, "eth0",
					     DCB_CMD_IEEE_SET, DCB_ATTR_IEEE, &status, &err),
			 -EBADMSG);
	assert_non_null(strstr(err.msg, "no status byte"));
	nlmsg_free(m);

	m = status_reply(DCB_CMD_IEEE_SET, DCB_ATTR_IEEE, &two, 2);
	assert_int_equal(rc_dcb_parse_status(nlmsg_hdr(m), nlmsg_hdr(m)->nlmsg_len, "eth0",
					     DCB_CMD_IEEE_SET, DCB_ATTR_IEEE, &status, &err),
			 -EBADMSG);
	nlmsg_free(m);

	/* The status of an IEEE_DEL is not accepted as the answer to an IEEE_SET. */
	m = status_reply(DCB_CMD_IEEE_DEL, DCB_ATTR_IEEE, &ok, 1);
	assert_int_equal(rc_dcb_parse_status(nlmsg_hdr(m), nlmsg_hdr(m)->nlmsg_len, "eth0",
					     DCB_CMD_IEEE_SET, DCB_ATTR_IEEE, &status, &err),
			 -EBADMSG);
	nlmsg_free(m);
}

static void gdcbx_and_gcap_replies(void **state)
{
	struct dcbmsg hdr = {.cmd = DCB_CMD_GDCBX};
	struct nl_msg *m = nlmsg_alloc_simple(RTM_GETDCB, 0);
	struct rc_dcb_caps caps;
	struct rc_err err = {0};
	struct nlattr *cap;
	uint8_t mode = 0;
	char text[64];

	(void)state;
	nlmsg_append(m, &hdr, sizeof(hdr), NLMSG_ALIGNTO);
	nla_put_u8(m, DCB_ATTR_DCBX, 0x0c);
	assert_int_equal(
	    rc_dcb_parse_gdcbx(nlmsg_hdr(m), nlmsg_hdr(m)->nlmsg_len, "eth0", &mode, &err), 0);
	assert_int_equal(mode, 0x0c);
	rc_dcbx_describe(mode, text, sizeof(text));
	assert_string_equal(text, "cee ieee");
	rc_dcbx_describe(0x0d, text, sizeof(text));
	assert_string_equal(text, "host cee ieee");
	nlmsg_free(m);

	hdr.cmd = DCB_CMD_GCAP;
	m = nlmsg_alloc_simple(RTM_GETDCB, 0);
	nlmsg_append(m, &hdr, sizeof(hdr), NLMSG_ALIGNTO);
	cap = nla_nest_start(m, DCB_ATTR_CAP);
	nla_put_u8(m, DCB_CAP_ATTR_PFC, 1);
	nla_put_u8(m, DCB_CAP_ATTR_DCBX, 0x0d);
	nla_put_u8(m, 77, 1); /* unknown: ignored, not an index */
	nla_nest_end(m, cap);
	assert_int_equal(
	    rc_dcb_parse_gcap(nlmsg_hdr(m), nlmsg_hdr(m)->nlmsg_len, "eth0", &caps, &err), 0);
	assert_true(caps.has[DCB_CAP_ATTR_PFC]);
	assert_true(caps.has[DCB_CAP_ATTR_DCBX]);
	assert_int_equal(caps.val[DCB_CAP_ATTR_DCBX], 0x0d);
	assert_false(caps.has[DCB_CAP_ATTR_PG]);
	nlmsg_free(m);
}

/* ---- the real kernel ------------------------------------------------------------------- */

/* The loopback device has no dcbnl ops: the kernel answers EOPNOTSUPP (dcbnl.c, dcb_doit). */
static void kernel_without_dcb_gives_clear_error(void **state)
{
	struct rc_dcb *d;
	struct rc_dcb_state *st = malloc(sizeof(*st));
	struct rc_err err = {0};

	(void)state;
	assert_int_equal(rc_dcb_open(&d, &err), 0);
	assert_int_equal(rc_dcb_get(d, "lo", st, &err), -EOPNOTSUPP);
	assert_string_equal(err.msg, "'lo': no DCB support (the driver has no dcbnl ops: "
				     "Operation not supported)");
	assert_int_equal(rc_dcb_get(d, "rcnosuchif0", st, &err), -ENODEV);
	assert_string_equal(err.msg, "'rcnosuchif0': no such network interface");
	/* The socket is still usable after errors (stale ACKs are skipped). */
	assert_int_equal(rc_dcb_get(d, "lo", st, &err), -EOPNOTSUPP);
	rc_dcb_close(d);
	free(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(ieee_get_request),
	    cmocka_unit_test(ieee_set_app_request),
	    cmocka_unit_test(ieee_set_pfc_request),
	    cmocka_unit_test(empty_trust_table_is_sent),
	    cmocka_unit_test(pcp_selector_uses_dcb_app_type),
	    cmocka_unit_test(sdcbx_and_gcap_requests),
	    cmocka_unit_test(bad_ifname_builds_nothing),
	    cmocka_unit_test(parses_full_reply),
	    cmocka_unit_test(absent_objects_are_not_invented),
	    cmocka_unit_test(truncated_replies_are_refused),
	    cmocka_unit_test(short_struct_attribute_is_refused),
	    cmocka_unit_test(short_app_entry_is_refused),
	    cmocka_unit_test(hostile_indexes_are_refused),
	    cmocka_unit_test(overlong_attribute_is_refused),
	    cmocka_unit_test(reply_to_other_command_is_refused),
	    cmocka_unit_test(missing_ieee_nest_is_refused),
	    cmocka_unit_test(set_status_is_decoded),
	    cmocka_unit_test(gdcbx_and_gcap_replies),
	    cmocka_unit_test(kernel_without_dcb_gives_clear_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
