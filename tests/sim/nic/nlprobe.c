/* SPDX-License-Identifier: Apache-2.0 */
/* nlprobe: a raw DCB netlink client for the simulator's own tests.  It sends requests the dcb
 * tool cannot (short attributes, trust tables, CEE commands) and prints every message the
 * socket receives, one line each.  It reads the way libnl does (poll, then recvmsg with
 * MSG_PEEK|MSG_TRUNC to size the buffer, then recvmsg), complementing dcb's libmnl pattern.
 *
 *   nlprobe [-n] [-f] IFNAME REQUEST [ARGS]
 *     -n  no NLM_F_ACK        -f  flat nests (no NLA_F_NESTED)
 *   REQUEST: get | gdcbx | gstate | gcap | numtcs | perm | sdcbx MODE | cmd N
 *            set-pfc EN DELAY | set-ets | buffer P2B SIZES | maxrate K0
 *            app-add SEL:PROTO:PRIO... | app-del SEL:PROTO:PRIO... | apptrust
 *            short-pfc | short-ets | short-buffer | short-app | no-ieee | dump
 */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <linux/dcbnl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#define MAXMSG 8192

struct msg {
	uint8_t b[MAXMSG];
	size_t len;
};

static int g_flat;

static void put(struct msg *m, const void *d, size_t n)
{
	if (m->len + n > sizeof(m->b)) {
		fprintf(stderr, "nlprobe: message too long\n");
		exit(2);
	}
	memcpy(m->b + m->len, d, n);
	m->len += n;
}

static void attr(struct msg *m, uint16_t type, const void *d, size_t n)
{
	struct nlattr a = {.nla_len = (uint16_t)(NLA_HDRLEN + n), .nla_type = type};
	static const uint8_t pad[4];
	put(m, &a, sizeof(a));
	put(m, d, n);
	put(m, pad, NLA_ALIGN(n) - n);
}

static size_t nest(struct msg *m, uint16_t type)
{
	size_t off = m->len;
	attr(m, (uint16_t)(type | (g_flat ? 0 : NLA_F_NESTED)), NULL, 0);
	return off;
}

static void nest_end(struct msg *m, size_t off)
{
	uint16_t l = (uint16_t)(m->len - off);
	memcpy(m->b + off, &l, sizeof(l));
}

static int parse_list(const char *s, long *out, int max)
{
	int n = 0;
	char *copy = strdup(s), *save = NULL;
	for (char *t = strtok_r(copy, ",", &save); t && n < max; t = strtok_r(NULL, ",", &save))
		out[n++] = strtol(t, NULL, 0);
	free(copy);
	return n;
}

static void app_entries(struct msg *m, int argc, char **argv)
{
	size_t app = nest(m, DCB_ATTR_IEEE_APP_TABLE);
	for (int i = 0; i < argc; i++) {
		unsigned sel, proto, prio;
		if (sscanf(argv[i], "%u:%u:%u", &sel, &proto, &prio) != 3) {
			fprintf(stderr, "nlprobe: bad app entry '%s'\n", argv[i]);
			exit(2);
		}
		struct dcb_app a = {(uint8_t)sel, (uint8_t)prio, (uint16_t)proto};
		attr(m, sel == 255 ? 2 : DCB_ATTR_IEEE_APP, &a, sizeof(a));
	}
	nest_end(m, app);
}

static void usage(void)
{
	fprintf(stderr, "usage: nlprobe [-n] [-f] IFNAME REQUEST [ARGS]\n");
	exit(2);
}

/* Builds the request; returns the nlmsg type */
static int build(struct msg *m, const char *ifname, const char *req, int argc, char **argv,
		 uint8_t *cmd_out)
{
	int type = RTM_SETDCB;
	uint8_t cmd = DCB_CMD_IEEE_SET;
	struct msg body = {0};
	size_t ieee;

	attr(&body, DCB_ATTR_IFNAME, ifname, strlen(ifname) + 1);
	if (!strcmp(req, "get") || !strcmp(req, "dump")) {
		type = RTM_GETDCB;
		cmd = DCB_CMD_IEEE_GET;
	} else if (!strcmp(req, "gdcbx")) {
		type = RTM_GETDCB;
		cmd = DCB_CMD_GDCBX;
	} else if (!strcmp(req, "gstate")) {
		type = RTM_GETDCB;
		cmd = DCB_CMD_GSTATE;
	} else if (!strcmp(req, "perm")) {
		type = RTM_GETDCB;
		cmd = DCB_CMD_GPERM_HWADDR;
	} else if (!strcmp(req, "gcap")) {
		type = RTM_GETDCB;
		cmd = DCB_CMD_GCAP;
		size_t n = nest(&body, DCB_ATTR_CAP);
		attr(&body, DCB_CAP_ATTR_ALL, NULL, 0);
		nest_end(&body, n);
	} else if (!strcmp(req, "numtcs")) {
		type = RTM_GETDCB;
		cmd = DCB_CMD_GNUMTCS;
		size_t n = nest(&body, DCB_ATTR_NUMTCS);
		attr(&body, DCB_NUMTCS_ATTR_ALL, NULL, 0);
		nest_end(&body, n);
	} else if (!strcmp(req, "cmd") && argc == 1) {
		type = RTM_GETDCB;
		cmd = (uint8_t)atoi(argv[0]);
	} else if (!strcmp(req, "sdcbx") && argc == 1) {
		cmd = DCB_CMD_SDCBX;
		uint8_t mode = (uint8_t)strtol(argv[0], NULL, 0);
		attr(&body, DCB_ATTR_DCBX, &mode, 1);
	} else if (!strcmp(req, "no-ieee")) {
		/* IEEE_SET without its nest */
	} else {
		ieee = nest(&body, DCB_ATTR_IEEE);
		if (!strcmp(req, "set-pfc") && argc == 2) {
			struct ieee_pfc pfc = {.pfc_cap = 8};
			pfc.pfc_en = (uint8_t)strtol(argv[0], NULL, 0);
			pfc.delay = (uint16_t)strtol(argv[1], NULL, 0);
			attr(&body, DCB_ATTR_IEEE_PFC, &pfc, sizeof(pfc));
		} else if (!strcmp(req, "set-ets") && argc == 3) {
			struct ieee_ets ets = {.ets_cap = 8};
			long v[8];
			if (parse_list(argv[0], v, 8) != 8)
				usage();
			for (int i = 0; i < 8; i++)
				ets.prio_tc[i] = (uint8_t)v[i];
			if (parse_list(argv[1], v, 8) != 8)
				usage();
			for (int i = 0; i < 8; i++)
				ets.tc_tsa[i] = (uint8_t)v[i];
			if (parse_list(argv[2], v, 8) != 8)
				usage();
			for (int i = 0; i < 8; i++)
				ets.tc_tx_bw[i] = (uint8_t)v[i];
			attr(&body, DCB_ATTR_IEEE_ETS, &ets, sizeof(ets));
		} else if (!strcmp(req, "buffer") && argc == 2) {
			struct dcbnl_buffer b = {0};
			long v[8];
			if (parse_list(argv[0], v, 8) != 8)
				usage();
			for (int i = 0; i < 8; i++)
				b.prio2buffer[i] = (uint8_t)v[i];
			if (parse_list(argv[1], v, 8) != 8)
				usage();
			for (int i = 0; i < 8; i++)
				b.buffer_size[i] = (uint32_t)v[i];
			attr(&body, DCB_ATTR_DCB_BUFFER, &b, sizeof(b));
		} else if (!strcmp(req, "maxrate") && argc == 1) {
			struct ieee_maxrate mr = {{0}};
			mr.tc_maxrate[0] = strtoull(argv[0], NULL, 0);
			attr(&body, DCB_ATTR_IEEE_MAXRATE, &mr, sizeof(mr));
		} else if (!strcmp(req, "app-add") && argc >= 1) {
			app_entries(&body, argc, argv);
		} else if (!strcmp(req, "app-del") && argc >= 1) {
			cmd = DCB_CMD_IEEE_DEL;
			app_entries(&body, argc, argv);
		} else if (!strcmp(req, "apptrust")) {
			size_t t = nest(&body, 11);
			uint8_t dscp = 5, pcp = 255;
			attr(&body, 1, &dscp, 1);
			attr(&body, 2, &pcp, 1);
			nest_end(&body, t);
		} else if (!strcmp(req, "short-pfc")) {
			uint8_t raw[100] = {8, 8};
			attr(&body, DCB_ATTR_IEEE_PFC, raw, sizeof(raw));
		} else if (!strcmp(req, "short-ets")) {
			uint8_t raw[40] = {0};
			attr(&body, DCB_ATTR_IEEE_ETS, raw, sizeof(raw));
		} else if (!strcmp(req, "short-buffer")) {
			uint8_t raw[40] = {0};
			attr(&body, DCB_ATTR_DCB_BUFFER, raw, sizeof(raw));
		} else if (!strcmp(req, "short-app")) {
			size_t app = nest(&body, DCB_ATTR_IEEE_APP_TABLE);
			uint8_t raw[3] = {5, 3, 26};
			attr(&body, DCB_ATTR_IEEE_APP, raw, sizeof(raw));
			nest_end(&body, app);
		} else {
			usage();
		}
		nest_end(&body, ieee);
	}
	struct dcbmsg dm = {.dcb_family = AF_UNSPEC, .cmd = cmd};
	struct nlmsghdr h = {.nlmsg_len = (uint32_t)(NLMSG_HDRLEN + sizeof(dm) + body.len),
			     .nlmsg_type = (uint16_t)type};
	put(m, &h, sizeof(h));
	put(m, &dm, sizeof(dm));
	put(m, body.b, body.len);
	*cmd_out = cmd;
	return type;
}

static void print_app(const uint8_t *d, size_t len, const char *label)
{
	printf(" %s=", label);
	int first = 1;
	while (len >= NLA_HDRLEN) {
		struct nlattr a;
		memcpy(&a, d, sizeof(a));
		if (a.nla_len < NLA_HDRLEN || a.nla_len > len)
			break;
		struct dcb_app app;
		if (a.nla_len - NLA_HDRLEN >= (int)sizeof(app)) {
			memcpy(&app, d + NLA_HDRLEN, sizeof(app));
			printf("%s%u:%u:%u", first ? "" : ",", app.selector, app.protocol,
			       app.priority);
			first = 0;
		}
		size_t step = NLA_ALIGN(a.nla_len);
		if (step >= len)
			break;
		d += step;
		len -= step;
	}
	if (first)
		printf("-");
}

static const char *ieee_name(int t)
{
	static const char *n[] = {"?",	      "ETS",	   "PFC",	"APP_TABLE", "PEER_ETS",
				  "PEER_PFC", "PEER_APP",  "MAXRATE",	"QCN",	     "QCN_STATS",
				  "BUFFER",   "APP_TRUST", "REWR_TABLE"};
	return t < 13 ? n[t] : "?";
}

static void print_ieee(const uint8_t *d, size_t len)
{
	char order[256] = "";
	while (len >= NLA_HDRLEN) {
		struct nlattr a;
		memcpy(&a, d, sizeof(a));
		if (a.nla_len < NLA_HDRLEN || a.nla_len > len)
			break;
		int t = a.nla_type & NLA_TYPE_MASK;
		const uint8_t *p = d + NLA_HDRLEN;
		size_t n = a.nla_len - NLA_HDRLEN;
		snprintf(order + strlen(order), sizeof(order) - strlen(order), "%s%s%s",
			 order[0] ? "," : "", ieee_name(t), (a.nla_type & NLA_F_NESTED) ? "+" : "");
		if (t == DCB_ATTR_IEEE_PFC && n >= sizeof(struct ieee_pfc)) {
			struct ieee_pfc pfc;
			memcpy(&pfc, p, sizeof(pfc));
			printf(" pfc_cap=%u pfc_en=0x%02x delay=%u tx3=%llu rx3=%llu", pfc.pfc_cap,
			       pfc.pfc_en, pfc.delay, (unsigned long long)pfc.requests[3],
			       (unsigned long long)pfc.indications[3]);
		} else if (t == DCB_ATTR_IEEE_ETS && n >= sizeof(struct ieee_ets)) {
			struct ieee_ets e;
			memcpy(&e, p, sizeof(e));
			printf(" ets_cap=%u prio_tc=", e.ets_cap);
			for (int i = 0; i < 8; i++)
				printf("%s%u", i ? "," : "", e.prio_tc[i]);
			printf(" tsa=");
			for (int i = 0; i < 8; i++)
				printf("%s%u", i ? "," : "", e.tc_tsa[i]);
			printf(" bw=");
			for (int i = 0; i < 8; i++)
				printf("%s%u", i ? "," : "", e.tc_tx_bw[i]);
		} else if (t == DCB_ATTR_DCB_BUFFER && n >= sizeof(struct dcbnl_buffer)) {
			struct dcbnl_buffer b;
			memcpy(&b, p, sizeof(b));
			printf(" p2b=");
			for (int i = 0; i < 8; i++)
				printf("%s%u", i ? "," : "", b.prio2buffer[i]);
			printf(" sizes=");
			for (int i = 0; i < 8; i++)
				printf("%s%u", i ? "," : "", b.buffer_size[i]);
			printf(" total=%u", b.total_size);
		} else if (t == DCB_ATTR_IEEE_MAXRATE && n >= sizeof(struct ieee_maxrate)) {
			struct ieee_maxrate mr;
			memcpy(&mr, p, sizeof(mr));
			printf(" maxrate0=%llu", (unsigned long long)mr.tc_maxrate[0]);
		} else if (t == DCB_ATTR_IEEE_APP_TABLE) {
			print_app(p, n, "apps");
		} else if (t == 12) {
			print_app(p, n, "rewr");
		}
		size_t step = NLA_ALIGN(a.nla_len);
		if (step >= len)
			break;
		d += step;
		len -= step;
	}
	printf(" order=%s", order);
}

static int print_msg(const uint8_t *b, size_t len, uint32_t seq, uint32_t portid)
{
	struct nlmsghdr h;
	if (len < sizeof(h))
		return printf("short message\n"), 1;
	memcpy(&h, b, sizeof(h));
	const char *ids = h.nlmsg_seq == seq && h.nlmsg_pid == portid ? "ids=ok" : "ids=BAD";
	if (h.nlmsg_type == NLMSG_ERROR) {
		int err;
		memcpy(&err, b + NLMSG_HDRLEN, sizeof(err));
		if (err)
			printf("error %d len=%u flags=0x%x %s\n", err, h.nlmsg_len, h.nlmsg_flags,
			       ids);
		else
			printf("ack len=%u flags=0x%x %s\n", h.nlmsg_len, h.nlmsg_flags, ids);
		return err ? 1 : 0;
	}
	printf("reply type=%u cmd=%u flags=0x%x %s", h.nlmsg_type, b[NLMSG_HDRLEN + 1],
	       h.nlmsg_flags, ids);
	const uint8_t *d = b + NLMSG_HDRLEN + 4;
	size_t rem = h.nlmsg_len - NLMSG_HDRLEN - 4;
	while (rem >= NLA_HDRLEN) {
		struct nlattr a;
		memcpy(&a, d, sizeof(a));
		if (a.nla_len < NLA_HDRLEN || a.nla_len > rem)
			break;
		int t = a.nla_type & NLA_TYPE_MASK;
		const uint8_t *p = d + NLA_HDRLEN;
		size_t n = a.nla_len - NLA_HDRLEN;
		switch (t) {
		case DCB_ATTR_IFNAME:
			printf(" ifname=%.*s", (int)n, (const char *)p);
			break;
		case DCB_ATTR_STATE:
			printf(" state=%u", p[0]);
			break;
		case DCB_ATTR_DCBX:
			printf(" dcbx=0x%02x", p[0]);
			break;
		case DCB_ATTR_PERM_HWADDR:
			printf(" perm=%02x:%02x:%02x:%02x:%02x:%02x len=%zu", p[0], p[1], p[2],
			       p[3], p[4], p[5], n);
			break;
		case DCB_ATTR_CAP:
		case DCB_ATTR_NUMTCS:
			printf(" %s=", t == DCB_ATTR_CAP ? "cap" : "numtcs");
			for (size_t o = 0; o + NLA_HDRLEN < n; o += 8)
				printf("%s%u:0x%02x", o ? "," : "", p[o + 2], p[o + 4]);
			break;
		case DCB_ATTR_IEEE:
			if (n == 1)
				printf(" status=%d", (int8_t)p[0]);
			else
				print_ieee(p, n);
			break;
		default:
			printf(" attr%d", t);
		}
		size_t step = NLA_ALIGN(a.nla_len);
		if (step >= rem)
			break;
		d += step;
		rem -= step;
	}
	printf("\n");
	return 0;
}

int main(int argc, char **argv)
{
	int ack = 1, dump = 0;
	int i = 1;
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-n"))
			ack = 0;
		else if (!strcmp(argv[i], "-f"))
			g_flat = 1;
		else
			usage();
	}
	if (argc - i < 2)
		usage();
	const char *ifname = argv[i], *req = argv[i + 1];
	dump = !strcmp(req, "dump");
	struct msg m = {0};
	uint8_t cmd;
	build(&m, ifname, req, argc - i - 2, argv + i + 2, &cmd);

	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	struct sockaddr_nl local = {.nl_family = AF_NETLINK};
	if (fd < 0 || bind(fd, (struct sockaddr *)&local, sizeof(local)) < 0)
		return perror("nlprobe: socket"), 2;
	socklen_t l = sizeof(local);
	getsockname(fd, (struct sockaddr *)&local, &l);

	struct nlmsghdr *h = (struct nlmsghdr *)m.b;
	h->nlmsg_flags = NLM_F_REQUEST | (ack ? NLM_F_ACK : 0) | (dump ? NLM_F_DUMP : 0);
	h->nlmsg_seq = (uint32_t)time(NULL);
	struct sockaddr_nl kernel = {.nl_family = AF_NETLINK};
	struct iovec iov = {.iov_base = m.b, .iov_len = m.len};
	struct msghdr mh = {
	    .msg_name = &kernel, .msg_namelen = sizeof(kernel), .msg_iov = &iov, .msg_iovlen = 1};
	if (sendmsg(fd, &mh, 0) < 0)
		return perror("nlprobe: sendmsg"), 2;

	int rc = 0;
	for (;;) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		if (poll(&p, 1, 2000) != 1) {
			printf("timeout\n");
			return 1;
		}
		/* libnl: peek for the size, then read */
		uint8_t small[16];
		struct iovec piov = {.iov_base = small, .iov_len = sizeof(small)};
		struct msghdr pm = {.msg_iov = &piov, .msg_iovlen = 1};
		ssize_t n = recvmsg(fd, &pm, MSG_PEEK | MSG_TRUNC);
		if (n < 0)
			return perror("nlprobe: recvmsg"), 2;
		uint8_t *buf = malloc((size_t)n);
		struct sockaddr_nl from;
		struct iovec riov = {.iov_base = buf, .iov_len = (size_t)n};
		struct msghdr rm = {.msg_name = &from,
				    .msg_namelen = sizeof(from),
				    .msg_iov = &riov,
				    .msg_iovlen = 1};
		ssize_t got = recvmsg(fd, &rm, 0);
		if (got != n || rm.msg_namelen != sizeof(from) || from.nl_pid != 0) {
			printf("bad recvmsg: %zd of %zd, namelen %u\n", got, n, rm.msg_namelen);
			return 1;
		}
		struct nlmsghdr rh;
		memcpy(&rh, buf, sizeof(rh));
		rc |= print_msg(buf, (size_t)got, h->nlmsg_seq, local.nl_pid);
		free(buf);
		if (rh.nlmsg_type == NLMSG_ERROR || !ack)
			break;
	}
	close(fd);
	return rc;
}
