/* SPDX-License-Identifier: Apache-2.0 */
/* libnicsim.so, netlink side: DCB requests for simulated interfaces are answered from the
 * simulated state and their replies queued per socket; recv*(), read() and poll/select hand
 * them out.  Also SIOCETHTOOL for simulated interfaces. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/select.h>
#include <sys/uio.h>

#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sockios.h>
#include <net/if.h>

#include "preload.h"

#define NS_MAX_SEND (1 << 20)

/* glibc's fortified entry points, which callers may bind to */
ssize_t __recv_chk(int fd, void *buf, size_t n, size_t buflen, int flags);
ssize_t __recvfrom_chk(int fd, void *buf, size_t n, size_t buflen, int flags, struct sockaddr *addr,
		       socklen_t *alen);
int __poll_chk(struct pollfd *fds, nfds_t n, int timeout, size_t fdslen);

static ssize_t (*real_send)(int, const void *, size_t, int);
static ssize_t (*real_sendto)(int, const void *, size_t, int, const struct sockaddr *, socklen_t);
static ssize_t (*real_sendmsg)(int, const struct msghdr *, int);
static ssize_t (*real_recv)(int, void *, size_t, int);
static ssize_t (*real_recv_chk)(int, void *, size_t, size_t, int);
static ssize_t (*real_recvfrom)(int, void *, size_t, int, struct sockaddr *, socklen_t *);
static ssize_t (*real_recvfrom_chk)(int, void *, size_t, size_t, int, struct sockaddr *,
				    socklen_t *);
static ssize_t (*real_recvmsg)(int, struct msghdr *, int);
static int (*real_poll)(struct pollfd *, nfds_t, int);
static int (*real_poll_chk)(struct pollfd *, nfds_t, int, size_t);
static int (*real_ppoll)(struct pollfd *, nfds_t, const struct timespec *, const sigset_t *);
static int (*real_select)(int, fd_set *, fd_set *, fd_set *, struct timeval *);
static int (*real_pselect)(int, fd_set *, fd_set *, fd_set *, const struct timespec *,
			   const sigset_t *);
static int (*real_ioctl)(int, unsigned long, ...);

/* Netlink: sending */

static int looks_dcb(const uint8_t *p, size_t len)
{
	while (len >= NLMSG_HDRLEN) {
		struct nlmsghdr h;
		memcpy(&h, p, sizeof(h));
		if (h.nlmsg_len < NLMSG_HDRLEN || h.nlmsg_len > len)
			return 0;
		if (h.nlmsg_type == RTM_GETDCB || h.nlmsg_type == RTM_SETDCB)
			return 1;
		size_t step = NLMSG_ALIGN(h.nlmsg_len);
		if (step >= len)
			break;
		p += step;
		len -= step;
	}
	return 0;
}

static int is_route_netlink(int fd)
{
	int v;
	socklen_t l = sizeof(v);
	if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &v, &l) < 0 || v != AF_NETLINK)
		return 0;
	l = sizeof(v);
	return getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &v, &l) == 0 && v == NETLINK_ROUTE;
}

/* CAP_NET_ADMIN in the effective set: what the kernel checks for SET-type commands */
static int cap_net_admin(void)
{
	struct ns_buf b = {0};
	int ok = 0;
	if (!ns_read_file("/proc/self/status", &b)) {
		const char *p = strstr((const char *)b.p, "\nCapEff:");
		unsigned long long caps;
		if (p && sscanf(p + 8, "%llx", &caps) == 1)
			ok = (caps >> 12) & 1;
	}
	ns_buf_free(&b);
	return ok;
}

/* The socket's port id; an unbound socket is autobound the way the kernel does on its first
 * send, by sending it a NOOP that it ignores */
static uint32_t port_id(int fd)
{
	struct sockaddr_nl sa;
	socklen_t l = sizeof(sa);
	if (getsockname(fd, (struct sockaddr *)&sa, &l) < 0)
		return 0;
	if (sa.nl_pid)
		return sa.nl_pid;
	struct nlmsghdr noop = {.nlmsg_len = NLMSG_HDRLEN, .nlmsg_type = NLMSG_NOOP};
	struct sockaddr_nl kernel = {.nl_family = AF_NETLINK};
	RESOLVE(real_sendto, "sendto");
	real_sendto(fd, &noop, sizeof(noop), 0, (struct sockaddr *)&kernel, sizeof(kernel));
	l = sizeof(sa);
	if (getsockname(fd, (struct sockaddr *)&sa, &l) < 0)
		return 0;
	return sa.nl_pid;
}

/* Returns the byte count the caller sees, or -2 when the kernel must get the buffer as is */
ssize_t sim_send(int fd, const uint8_t *buf, size_t len, int flags, const struct sockaddr *to,
		 socklen_t tolen)
{
	char ifname[NS_IFNAMSIZ];
	struct sockaddr_nl dst;

	if (!looks_dcb(buf, len) || !active())
		return -2;
	if (to) {
		if (tolen < sizeof(dst))
			return -2;
		memcpy(&dst, to, sizeof(dst));
		if (dst.nl_family != AF_NETLINK || dst.nl_pid != 0)
			return -2;
	}
	t_busy++;
	ssize_t ret = -2;
	if (!is_route_netlink(fd))
		goto out;
	int capable = cap_net_admin();
	int claimed = 0;
	const uint8_t *p = buf;
	size_t left = len;
	while (left >= NLMSG_HDRLEN) {
		struct nlmsghdr h;
		memcpy(&h, p, sizeof(h));
		if (h.nlmsg_len < NLMSG_HDRLEN || h.nlmsg_len > left)
			break;
		claimed += ns_dcb_claim(p, h.nlmsg_len, g_names, g_n_names, capable, ifname);
		size_t step = NLMSG_ALIGN(h.nlmsg_len);
		if (step >= left)
			break;
		p += step;
		left -= step;
	}
	if (!claimed)
		goto out;

	uint32_t portid = port_id(fd);
	int cap_ack = 0;
	socklen_t l = sizeof(cap_ack);
	if (getsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &cap_ack, &l) < 0)
		cap_ack = 0;
	RESOLVE(real_sendto, "sendto");
	p = buf;
	left = len;
	while (left >= NLMSG_HDRLEN) {
		struct nlmsghdr h;
		memcpy(&h, p, sizeof(h));
		if (h.nlmsg_len < NLMSG_HDRLEN || h.nlmsg_len > left)
			break;
		if (ns_dcb_claim(p, h.nlmsg_len, g_names, g_n_names, capable, ifname)) {
			struct ns_buf reply = {0}, ack = {0};
			ns_dcb_handle(g_dir, p, h.nlmsg_len, portid, cap_ack, &reply, &ack);
			enqueue(fd, &reply);
			enqueue(fd, &ack);
			ns_buf_free(&reply);
			ns_buf_free(&ack);
		} else {
			/* a mixed batch: the kernel still answers the messages that are its own */
			struct sockaddr_nl kernel = {.nl_family = AF_NETLINK};
			real_sendto(fd, p, h.nlmsg_len, flags, (struct sockaddr *)&kernel,
				    sizeof(kernel));
		}
		size_t step = NLMSG_ALIGN(h.nlmsg_len);
		if (step >= left)
			break;
		p += step;
		left -= step;
	}
	ret = (ssize_t)len;
out:
	t_busy--;
	return ret;
}

/* Netlink: receiving one queued datagram with recvmsg() semantics (MSG_PEEK, MSG_TRUNC) */
static ssize_t sim_recv(int fd, struct msghdr *m, int flags)
{
	if (!has_queue(fd))
		return -2;
	pthread_mutex_lock(&g_mu);
	struct fdent *e = &g_fd[fd];
	struct dgram *d = e->head;
	if (!d) {
		pthread_mutex_unlock(&g_mu);
		return -2;
	}
	size_t copied = 0;
	for (size_t i = 0; i < (size_t)m->msg_iovlen && copied < d->len; i++) {
		size_t n = m->msg_iov[i].iov_len;
		if (n > d->len - copied)
			n = d->len - copied;
		memcpy(m->msg_iov[i].iov_base, d->data + copied, n);
		copied += n;
	}
	m->msg_flags = copied < d->len ? MSG_TRUNC : 0;
	if (m->msg_name) {
		struct sockaddr_nl from = {.nl_family = AF_NETLINK};
		size_t n = m->msg_namelen < sizeof(from) ? m->msg_namelen : sizeof(from);
		memcpy(m->msg_name, &from, n);
		m->msg_namelen = sizeof(from);
	}
	m->msg_controllen = 0;
	ssize_t ret = (ssize_t)((flags & MSG_TRUNC) ? d->len : copied);
	if (!(flags & MSG_PEEK)) {
		e->head = d->next;
		if (!e->head) {
			e->tail = NULL;
			atomic_fetch_and(&g_fdkind[fd], (unsigned char)~FD_NLQ);
			atomic_fetch_sub(&g_queued, 1);
		}
		free(d);
	}
	pthread_mutex_unlock(&g_mu);
	return ret;
}

ssize_t sim_recvfrom(int fd, void *buf, size_t n, int flags, struct sockaddr *addr, socklen_t *alen)
{
	struct iovec iov = {.iov_base = buf, .iov_len = n};
	struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1};
	if (addr && alen) {
		m.msg_name = addr;
		m.msg_namelen = *alen;
	}
	ssize_t r = sim_recv(fd, &m, flags);
	if (r >= 0 && addr && alen)
		*alen = m.msg_namelen;
	return r;
}

NS_EXPORT ssize_t sendto(int fd, const void *buf, size_t n, int flags, const struct sockaddr *to,
			 socklen_t tolen)
{
	RESOLVE(real_sendto, "sendto");
	if (!t_busy && buf) {
		ssize_t r = sim_send(fd, buf, n, flags, to, tolen);
		if (r != -2)
			return r;
	}
	return real_sendto(fd, buf, n, flags, to, tolen);
}

NS_EXPORT ssize_t send(int fd, const void *buf, size_t n, int flags)
{
	RESOLVE(real_send, "send");
	if (!t_busy && buf) {
		ssize_t r = sim_send(fd, buf, n, flags, NULL, 0);
		if (r != -2)
			return r;
	}
	return real_send(fd, buf, n, flags);
}

NS_EXPORT ssize_t sendmsg(int fd, const struct msghdr *m, int flags)
{
	RESOLVE(real_sendmsg, "sendmsg");
	if (t_busy || !m || !m->msg_iovlen)
		return real_sendmsg(fd, m, flags);
	size_t total = 0;
	for (size_t i = 0; i < (size_t)m->msg_iovlen; i++)
		total += m->msg_iov[i].iov_len;
	if (total < NLMSG_HDRLEN || total > NS_MAX_SEND)
		return real_sendmsg(fd, m, flags);
	uint8_t *flat = malloc(total);
	if (!flat)
		return real_sendmsg(fd, m, flags);
	size_t off = 0;
	for (size_t i = 0; i < (size_t)m->msg_iovlen; i++) {
		memcpy(flat + off, m->msg_iov[i].iov_base, m->msg_iov[i].iov_len);
		off += m->msg_iov[i].iov_len;
	}
	ssize_t r = sim_send(fd, flat, total, flags, m->msg_name, m->msg_namelen);
	free(flat);
	return r != -2 ? r : real_sendmsg(fd, m, flags);
}

NS_EXPORT ssize_t recvmsg(int fd, struct msghdr *m, int flags)
{
	RESOLVE(real_recvmsg, "recvmsg");
	if (m && !t_busy) {
		ssize_t r = sim_recv(fd, m, flags);
		if (r != -2)
			return r;
	}
	return real_recvmsg(fd, m, flags);
}

NS_EXPORT ssize_t recvfrom(int fd, void *buf, size_t n, int flags, struct sockaddr *addr,
			   socklen_t *alen)
{
	RESOLVE(real_recvfrom, "recvfrom");
	if (!t_busy) {
		ssize_t r = sim_recvfrom(fd, buf, n, flags, addr, alen);
		if (r != -2)
			return r;
	}
	return real_recvfrom(fd, buf, n, flags, addr, alen);
}

NS_EXPORT ssize_t __recvfrom_chk(int fd, void *buf, size_t n, size_t buflen, int flags,
				 struct sockaddr *addr, socklen_t *alen)
{
	RESOLVE(real_recvfrom_chk, "__recvfrom_chk");
	if (!t_busy && n <= buflen) {
		ssize_t r = sim_recvfrom(fd, buf, n, flags, addr, alen);
		if (r != -2)
			return r;
	}
	return real_recvfrom_chk(fd, buf, n, buflen, flags, addr, alen);
}

NS_EXPORT ssize_t recv(int fd, void *buf, size_t n, int flags)
{
	RESOLVE(real_recv, "recv");
	if (!t_busy) {
		ssize_t r = sim_recvfrom(fd, buf, n, flags, NULL, NULL);
		if (r != -2)
			return r;
	}
	return real_recv(fd, buf, n, flags);
}

NS_EXPORT ssize_t __recv_chk(int fd, void *buf, size_t n, size_t buflen, int flags)
{
	RESOLVE(real_recv_chk, "__recv_chk");
	if (!t_busy && n <= buflen) {
		ssize_t r = sim_recvfrom(fd, buf, n, flags, NULL, NULL);
		if (r != -2)
			return r;
	}
	return real_recv_chk(fd, buf, n, buflen, flags);
}

/* poll/select: a socket with queued replies is readable */

static int poll_merge(struct pollfd *fds, nfds_t n, int *marked)
{
	*marked = 0;
	if (!atomic_load(&g_queued) || t_busy)
		return 0;
	for (nfds_t i = 0; i < n; i++)
		if ((fds[i].events & POLLIN) && has_queue(fds[i].fd))
			(*marked)++;
	return *marked;
}

static int poll_finish(struct pollfd *fds, nfds_t n, int r)
{
	if (r < 0)
		r = 0;
	for (nfds_t i = 0; i < n; i++)
		if ((fds[i].events & POLLIN) && has_queue(fds[i].fd)) {
			if (!fds[i].revents)
				r++;
			fds[i].revents |= POLLIN;
		}
	return r;
}

NS_EXPORT int poll(struct pollfd *fds, nfds_t n, int timeout)
{
	int marked;
	RESOLVE(real_poll, "poll");
	if (!poll_merge(fds, n, &marked))
		return real_poll(fds, n, timeout);
	return poll_finish(fds, n, real_poll(fds, n, 0));
}

NS_EXPORT int __poll_chk(struct pollfd *fds, nfds_t n, int timeout, size_t fdslen)
{
	int marked;
	RESOLVE(real_poll_chk, "__poll_chk");
	if (!poll_merge(fds, n, &marked))
		return real_poll_chk(fds, n, timeout, fdslen);
	return poll_finish(fds, n, real_poll_chk(fds, n, 0, fdslen));
}

NS_EXPORT int ppoll(struct pollfd *fds, nfds_t n, const struct timespec *ts, const sigset_t *mask)
{
	int marked;
	static const struct timespec zero;
	RESOLVE(real_ppoll, "ppoll");
	if (!poll_merge(fds, n, &marked))
		return real_ppoll(fds, n, ts, mask);
	return poll_finish(fds, n, real_ppoll(fds, n, &zero, mask));
}

static int select_marked(int nfds, fd_set *rd, fd_set *marks)
{
	int n = 0;
	FD_ZERO(marks);
	if (!rd || !atomic_load(&g_queued) || t_busy)
		return 0;
	for (int fd = 0; fd < nfds && fd < FD_SETSIZE && fd < NS_MAXFD; fd++)
		if (FD_ISSET(fd, rd) && has_queue(fd)) {
			FD_SET(fd, marks);
			n++;
		}
	return n;
}

static int select_finish(int nfds, fd_set *rd, fd_set *wr, fd_set *ex, const fd_set *marks, int r)
{
	if (r < 0) {
		*rd = *marks;
		if (wr)
			FD_ZERO(wr);
		if (ex)
			FD_ZERO(ex);
		r = 0;
	}
	for (int fd = 0; fd < nfds && fd < FD_SETSIZE; fd++)
		if (FD_ISSET(fd, marks) && !FD_ISSET(fd, rd)) {
			FD_SET(fd, rd);
			r++;
		}
	return r;
}

NS_EXPORT int select(int nfds, fd_set *rd, fd_set *wr, fd_set *ex, struct timeval *tv)
{
	fd_set marks;
	RESOLVE(real_select, "select");
	if (!select_marked(nfds, rd, &marks))
		return real_select(nfds, rd, wr, ex, tv);
	struct timeval zero = {0, 0};
	return select_finish(nfds, rd, wr, ex, &marks, real_select(nfds, rd, wr, ex, &zero));
}

NS_EXPORT int pselect(int nfds, fd_set *rd, fd_set *wr, fd_set *ex, const struct timespec *ts,
		      const sigset_t *mask)
{
	fd_set marks;
	static const struct timespec zero;
	RESOLVE(real_pselect, "pselect");
	if (!select_marked(nfds, rd, &marks))
		return real_pselect(nfds, rd, wr, ex, ts, mask);
	return select_finish(nfds, rd, wr, ex, &marks, real_pselect(nfds, rd, wr, ex, &zero, mask));
}

/* ethtool */

NS_EXPORT int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	va_start(ap, req);
	void *arg = va_arg(ap, void *);
	va_end(ap);
	RESOLVE(real_ioctl, "ioctl");
	if (req == SIOCETHTOOL && arg && active()) {
		struct ifreq *ifr = arg;
		char name[IFNAMSIZ + 1];
		memcpy(name, ifr->ifr_name, IFNAMSIZ);
		name[IFNAMSIZ] = 0;
		if (sim_name(name)) {
			t_busy++;
			int err = ns_ethtool(g_dir, name, ifr->ifr_data);
			t_busy--;
			return err ? fail(err) : 0;
		}
	}
	return real_ioctl(fd, req, arg);
}
