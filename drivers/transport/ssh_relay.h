/* SPDX-License-Identifier: Apache-2.0 */
/* The byte pipe between a device's SSH session and the direct-tcpip channel a jump host
 * opened to it (drivers/transport/ssh_relay.c, used by ssh.c for proxy_jump). */
#ifndef ROCECTL_SSH_RELAY_H
#define ROCECTL_SSH_RELAY_H

#include <libssh/libssh.h>

struct rc_ssh_relay;

/* Start a thread that copies bytes both ways between `ch` (an open forward channel of the
 * connected, authenticated session `jump`) and one end of a socketpair; *dev_fd is the
 * other end, for the device's session (SSH_OPTIONS_FD).  The relay owns `jump` and `ch`
 * from then on (also when it fails: both are freed).  0 or a negative errno. */
int rc_ssh_relay_start(ssh_session jump, ssh_channel ch, int *dev_fd, struct rc_ssh_relay **out);
/* Stop the thread (it also stops by itself when either side closes), close the channel and
 * disconnect from the jump host.  NULL is ignored. */
void rc_ssh_relay_stop(struct rc_ssh_relay *r);

#endif
