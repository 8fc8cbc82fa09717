/* SPDX-License-Identifier: Apache-2.0 */
/* The CPU floor of one SSH session with libssh alone: connect, key exchange, host key
 * check, public key authentication, and (optionally) one command, N times in a row on one
 * thread, as rocectl's transport does them (drivers/transport/ssh.c) but with nothing of
 * rocectl around them.  bench/scale.sh prints it next to rocectl's CPU per device: a
 * controller that opens one session per device cannot go below it.
 *
 *   [SSH_FLOOR_KEX=…] [SSH_FLOOR_HOSTKEYS=…] [SSH_FLOOR_CIPHERS=…] \
 *   ssh-floor ADDRESS PORT USER IDENTITY KNOWN_HOSTS N [COMMAND]
 *
 * Prints one line, e.g. "floor: 2.104 ms CPU per session (user+sys, 200 sessions)".  Not part of
 * the product or the tests (bench/README.md). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include <libssh/libssh.h>

static double cpu_s(void)
{
	struct rusage r;

	getrusage(RUSAGE_SELF, &r);
	return (double)(r.ru_utime.tv_sec + r.ru_stime.tv_sec) +
	       (double)(r.ru_utime.tv_usec + r.ru_stime.tv_usec) / 1e6;
}

static int run(ssh_session s, const char *cmd)
{
	ssh_channel ch = ssh_channel_new(s);
	char buf[16384];
	int n;

	if (!ch || ssh_channel_open_session(ch) != SSH_OK ||
	    ssh_channel_request_exec(ch, cmd) != SSH_OK || ssh_channel_send_eof(ch) != SSH_OK)
		return -1;
	while ((n = ssh_channel_read(ch, buf, sizeof(buf), 0)) > 0)
		;
	ssh_channel_close(ch);
	ssh_channel_free(ch);
	return n < 0 ? -1 : 0;
}

/* SSH_FLOOR_KEX, SSH_FLOOR_HOSTKEYS, SSH_FLOOR_CIPHERS: the algorithms to offer (libssh's
 * defaults when unset), to compare their cost side by side. */
static int algorithms(ssh_session s)
{
	const char *kex = getenv("SSH_FLOOR_KEX"), *hk = getenv("SSH_FLOOR_HOSTKEYS");
	const char *ciph = getenv("SSH_FLOOR_CIPHERS");

	return (kex && ssh_options_set(s, SSH_OPTIONS_KEY_EXCHANGE, kex)) ||
	       (hk && ssh_options_set(s, SSH_OPTIONS_HOSTKEYS, hk)) ||
	       (ciph && (ssh_options_set(s, SSH_OPTIONS_CIPHERS_C_S, ciph) ||
			 ssh_options_set(s, SSH_OPTIONS_CIPHERS_S_C, ciph)));
}

static int one(const char *const *argv, unsigned port, ssh_key key, const char *cmd)
{
	ssh_session s = ssh_new();
	int no = 0, rc = -1;

	if (!s)
		return -1;
	if (ssh_options_set(s, SSH_OPTIONS_PROCESS_CONFIG, &no) ||
	    ssh_options_set(s, SSH_OPTIONS_HOST, argv[1]) ||
	    ssh_options_set(s, SSH_OPTIONS_PORT, &port) ||
	    ssh_options_set(s, SSH_OPTIONS_USER, argv[3]) ||
	    ssh_options_set(s, SSH_OPTIONS_KNOWNHOSTS, argv[5]) || algorithms(s))
		goto out;
	if (ssh_connect(s) != SSH_OK) {
		fprintf(stderr, "ssh-floor: connect: %s\n", ssh_get_error(s));
		goto out;
	}
	if (ssh_session_is_known_server(s) != SSH_KNOWN_HOSTS_OK) {
		fprintf(stderr, "ssh-floor: the host key is not in %s\n", argv[5]);
		goto out;
	}
	if (ssh_userauth_publickey(s, NULL, key) != SSH_AUTH_SUCCESS) {
		fprintf(stderr, "ssh-floor: authentication: %s\n", ssh_get_error(s));
		goto out;
	}
	rc = cmd ? run(s, cmd) : 0;
	ssh_disconnect(s);
out:
	ssh_free(s);
	return rc;
}

int main(int argc, char **argv)
{
	ssh_key key = NULL;
	double t0;
	long n;

	if (argc < 7 || argc > 8) {
		fprintf(stderr, "usage: ssh-floor ADDRESS PORT USER IDENTITY KNOWN_HOSTS N "
				"[COMMAND]\n");
		return 2;
	}
	n = strtol(argv[6], NULL, 10);
	ssh_init();
	if (n < 1 || ssh_pki_import_privkey_file(argv[4], NULL, NULL, NULL, &key) != SSH_OK) {
		fprintf(stderr, "ssh-floor: bad N or identity file\n");
		return 2;
	}
	t0 = cpu_s();
	for (long i = 0; i < n; i++)
		if (one((const char *const *)argv, (unsigned)strtoul(argv[2], NULL, 10), key,
			argc == 8 ? argv[7] : NULL)) {
			ssh_key_free(key);
			return 1;
		}
	printf("floor: %.3f ms CPU per session (user+sys, %ld sessions%s)\n",
	       (cpu_s() - t0) * 1000 / (double)n, n, argc == 8 ? ", one command each" : "");
	ssh_key_free(key);
	ssh_finalize();
	return 0;
}
