/* SPDX-License-Identifier: Apache-2.0 */
/* proxy_jump without libssh's own jump support.  Debian 12's libssh is 0.10.6: it has no
 * SSH_OPTIONS_PROXYJUMP (added in 0.11), and a ProxyJump line of an ssh_config file becomes
 * a ProxyCommand running OpenSSH's `ssh -W [%h]:%p JUMP` (libssh 0.10 src/config.c,
 * ssh_config_parse_proxy_jump), a process that reads ~/.ssh/config and checks the jump
 * host's key against OpenSSH's files and options, not the inventory's known_hosts, and
 * that we could not hold to our timeouts and messages.  So ssh.c opens the session to the
 * jump host itself, checks its key like a device's and opens a direct-tcpip channel
 * (ssh_channel_open_forward, RFC 4254 section 7.2) to the device; this file carries the
 * device session's bytes over that channel through a socketpair, as libssh 0.11 does for
 * its own jump hosts (a thread per hop).
 *
 * A libssh session is not thread-safe: once started, only this thread touches the jump
 * session and its channel, until rc_ssh_relay_stop joins it. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ssh_relay.h"

#define RELAY_POLL_MS 50

struct rc_ssh_relay {
	pthread_t thread;
	ssh_session jump;
	ssh_channel ch;
	int fd;		  /* our end of the socketpair */
	atomic_bool stop; /* set by rc_ssh_relay_stop */
};

/* Everything the channel has now, to the device session.  0, or -1 when done. */
static int channel_to_fd(struct rc_ssh_relay *r)
{
	char buf[16384];
	int n;

	while ((n = ssh_channel_read_nonblocking(r->ch, buf, sizeof(buf), 0)) > 0)
		for (int off = 0; off < n;) {
			/* MSG_NOSIGNAL: a device session already closed is EPIPE, not SIGPIPE */
			ssize_t w = send(r->fd, buf + off, (size_t)(n - off), MSG_NOSIGNAL);

			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0 && errno == EAGAIN) {
				struct pollfd p = {.fd = r->fd, .events = POLLOUT};

				if (atomic_load(&r->stop))
					return -1;
				poll(&p, 1, RELAY_POLL_MS);
				continue;
			}
			if (w <= 0)
				return -1;
			off += (int)w;
		}
	if (n == SSH_ERROR || ssh_channel_is_eof(r->ch) || !ssh_channel_is_open(r->ch))
		return -1;
	return 0;
}

/* What the device session wrote, to the channel.  0, or -1 when done. */
static int fd_to_channel(struct rc_ssh_relay *r)
{
	char buf[16384];

	for (;;) {
		ssize_t n = recv(r->fd, buf, sizeof(buf), MSG_DONTWAIT);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		if (n <= 0)
			return -1; /* the device session closed its end */
		for (ssize_t off = 0; off < n;) {
			int w = ssh_channel_write(r->ch, buf + off, (uint32_t)(n - off));

			if (w == SSH_ERROR)
				return -1;
			off += w;
		}
	}
}

static void *relay_main(void *arg)
{
	struct rc_ssh_relay *r = arg;
	struct pollfd p[2] = {{.fd = r->fd, .events = POLLIN},
			      {.fd = ssh_get_fd(r->jump), .events = POLLIN}};

	while (!atomic_load(&r->stop)) {
		if (channel_to_fd(r) || fd_to_channel(r))
			break;
		if (poll(p, 2, RELAY_POLL_MS) < 0 && errno != EINTR)
			break;
	}
	/* the device session sees the end of its connection instead of waiting out its
	 * timeout */
	shutdown(r->fd, SHUT_RDWR);
	return NULL;
}

static void release(struct rc_ssh_relay *r)
{
	if (r->ch) {
		if (ssh_channel_is_open(r->ch))
			ssh_channel_close(r->ch);
		ssh_channel_free(r->ch);
	}
	if (r->jump) {
		if (ssh_is_connected(r->jump))
			ssh_disconnect(r->jump);
		ssh_free(r->jump);
	}
	if (r->fd >= 0)
		close(r->fd);
	free(r);
}

int rc_ssh_relay_start(ssh_session jump, ssh_channel ch, int *dev_fd, struct rc_ssh_relay **out)
{
	struct rc_ssh_relay *r = calloc(1, sizeof(*r));
	int sv[2], e;

	*out = NULL;
	*dev_fd = -1;
	if (!r) {
		ssh_channel_free(ch);
		ssh_disconnect(jump);
		ssh_free(jump);
		return -ENOMEM;
	}
	r->jump = jump;
	r->ch = ch;
	r->fd = -1;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
		e = errno;
		release(r);
		return -e;
	}
	r->fd = sv[1];
	atomic_init(&r->stop, false);
	e = pthread_create(&r->thread, NULL, relay_main, r);
	if (e) {
		close(sv[0]);
		release(r);
		return -e;
	}
	*dev_fd = sv[0];
	*out = r;
	return 0;
}

void rc_ssh_relay_stop(struct rc_ssh_relay *r)
{
	if (!r)
		return;
	atomic_store(&r->stop, true);
	pthread_join(r->thread, NULL);
	release(r);
}
