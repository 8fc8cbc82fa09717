/* SPDX-License-Identifier: Apache-2.0 */
/* SSH transport (libssh): one authenticated session per device, one channel per command.
 *
 * Host keys follow OpenSSH's StrictHostKeyChecking=yes, or =accept-new when the user asked
 * for it: a known key must match, an unknown one is refused (or recorded), a changed one
 * is always refused before anything is sent.
 *
 * A device with a proxy_jump is reached through a session to the jump host, opened, key
 * checked (same known_hosts, same rules) and authenticated here before a direct-tcpip
 * channel to the device is asked for; the device's session then runs over that channel
 * (ssh_relay.c says why this is not libssh's own jump support). */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pwd.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <libssh/libssh.h>

#include "known_hosts.h"
#include "ssh_relay.h"
#include "rocectl/deadline.h"
#include "rocectl/transport.h"

#define DEFAULT_CONNECT_MS 10000u
#define DEFAULT_COMMAND_MS 60000u
#define READ_SLICE_MS	   100
#define READ_SLICE_MAX_MS  1600

struct rc_ssh {
	pthread_mutex_t lock; /* one command at a time on this session */
	ssh_session s;
	char dev[RC_NAME_MAX];
	char who[3 * RC_NAME_MAX + 48]; /* "'leaf01'" or "jump host 'ops@b:22' of 'leaf01'" */
	char where[RC_NAME_MAX + 8];	/* "address:port", for messages */
	char kh_host[RC_NAME_MAX + 8];	/* as known_hosts names it: "address" or "[address]:port" */
	uint32_t command_ms;
	bool broken;		    /* abandoned after a timeout: the channel state is unknown */
	const struct rc_tap *tap;   /* rocectl capture: record, refuse writes */
	struct rc_ssh_relay *relay; /* proxy_jump: the hop this session runs over */
	bool verbose;		    /* -v: print each command */
	bool is_jump;		    /* the session to a jump host, not to the device */
	const char *snapshot;	    /* --snapshot DIR: answers from files, no connection */
};

/* known_hosts is shared by every session of the process; OpenSSH appends whole lines, and
 * so do we, one session at a time. */
static pthread_mutex_t known_hosts_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t ssh_once = PTHREAD_ONCE_INIT;

/* The known_hosts file last indexed (known_hosts.c), under known_hosts_lock; read again
 * when it is another file or it changed (a key recorded by --accept-new-host-keys). */
#define KH_MAX_BYTES (64u << 20)
static struct {
	char path[PATH_MAX];
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
	struct rc_kh_index *ix;
} kh_cache;

__attribute__((destructor)) static void kh_cache_free(void)
{
	rc_kh_index_free(kh_cache.ix);
	kh_cache.ix = NULL;
}

static const struct rc_kh_index *kh_index(const char *path)
{
	struct stat st;
	char *buf;
	FILE *f;
	size_t n;

	if (stat(path, &st) || !S_ISREG(st.st_mode) || st.st_size > (off_t)KH_MAX_BYTES)
		return NULL;
	if (kh_cache.ix && !strcmp(kh_cache.path, path) && kh_cache.dev == st.st_dev &&
	    kh_cache.ino == st.st_ino && kh_cache.size == st.st_size &&
	    kh_cache.mtime.tv_sec == st.st_mtim.tv_sec &&
	    kh_cache.mtime.tv_nsec == st.st_mtim.tv_nsec)
		return kh_cache.ix;
	rc_kh_index_free(kh_cache.ix);
	kh_cache.ix = NULL;
	f = fopen(path, "re");
	buf = f ? malloc((size_t)st.st_size + 1) : NULL;
	n = buf ? fread(buf, 1, (size_t)st.st_size, f) : 0;
	if (f)
		fclose(f);
	/* a file that changed while read is indexed next time, when its stat is stable */
	if (buf && n == (size_t)st.st_size)
		kh_cache.ix = rc_kh_index_new(buf, n);
	free(buf);
	if (!kh_cache.ix)
		return NULL;
	snprintf(kh_cache.path, sizeof(kh_cache.path), "%s", path);
	kh_cache.dev = st.st_dev;
	kh_cache.ino = st.st_ino;
	kh_cache.size = st.st_size;
	kh_cache.mtime = st.st_mtim;
	return kh_cache.ix;
}

/* The server's key is in the file, literally under its host: libssh would say OK. */
static bool known_literally(struct rc_ssh *c, const char *kh_file)
{
	const struct rc_kh_index *ix = kh_index(kh_file);
	ssh_key key = NULL;
	char *b64 = NULL;
	bool ok = false;

	if (!ix || ssh_get_server_publickey(c->s, &key) != SSH_OK)
		return false;
	if (ssh_pki_export_pubkey_base64(key, &b64) == SSH_OK && b64)
		ok = rc_kh_index_has(ix, c->kh_host, ssh_key_type_to_char(ssh_key_type(key)), b64);
	ssh_string_free_char(b64);
	ssh_key_free(key);
	return ok;
}

/* The user's ssh directory, looked up once per run.  libssh 0.10 looks the home directory
 * up in the password database (getpwuid_r: /etc/passwd, nsswitch.conf) during every
 * ssh_connect whose ssh directory is unset (options.c, ssh_options_parse_config), to name
 * ~/.ssh; it is the same directory for the whole run.  Empty: libssh looks it up. */
static char ssh_dir[PATH_MAX];

static void ssh_global_init(void)
{
	struct passwd pw, *res = NULL;
	char buf[4096];
	int n;

	ssh_init();
	/* libssh expands '%' escapes in it: such a home is left to libssh */
	if (getpwuid_r(getuid(), &pw, buf, sizeof(buf), &res) || !res || res->pw_dir[0] != '/' ||
	    strchr(res->pw_dir, '%'))
		return;
	n = snprintf(ssh_dir, sizeof(ssh_dir), "%s/.ssh", res->pw_dir);
	if (n < 0 || (size_t)n >= sizeof(ssh_dir))
		ssh_dir[0] = '\0';
}

/* Host names and addresses only: libssh reads "user@host" out of the host option. */
static bool address_is_safe(const char *a)
{
	if (!*a || strlen(a) >= RC_NAME_MAX)
		return false;
	for (const char *p = a; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '.' || *p == '-' || *p == ':' || *p == '_'))
			return false;
	return *a != '-';
}

static void fingerprint(ssh_session s, char *type, size_t tlen, char *fp, size_t flen)
{
	ssh_key key = NULL;
	unsigned char *hash = NULL;
	size_t hlen = 0;
	char *hex;

	snprintf(type, tlen, "?");
	snprintf(fp, flen, "?");
	if (ssh_get_server_publickey(s, &key) != SSH_OK)
		return;
	snprintf(type, tlen, "%s", ssh_key_type_to_char(ssh_key_type(key)));
	if (ssh_get_publickey_hash(key, SSH_PUBLICKEY_HASH_SHA256, &hash, &hlen) == 0) {
		hex = ssh_get_fingerprint_hash(SSH_PUBLICKEY_HASH_SHA256, hash, hlen);
		if (hex)
			snprintf(fp, flen, "%s", hex);
		ssh_string_free_char(hex);
		ssh_clean_pubkey_hash(&hash);
	}
	ssh_key_free(key);
}

static int check_host_key(struct rc_ssh *c, const char *kh_file, bool accept_new,
			  struct rc_err *err)
{
	char type[32], fp[128];
	enum ssh_known_hosts_e st;
	int rc = 0;

	pthread_mutex_lock(&known_hosts_lock);
	st = known_literally(c, kh_file) ? SSH_KNOWN_HOSTS_OK : ssh_session_is_known_server(c->s);
	/* only messages name the key: no hash of it for a known host */
	if (st != SSH_KNOWN_HOSTS_OK)
		fingerprint(c->s, type, sizeof(type), fp, sizeof(fp));
	switch (st) {
	case SSH_KNOWN_HOSTS_OK:
		break;
	case SSH_KNOWN_HOSTS_CHANGED:
	case SSH_KNOWN_HOSTS_OTHER:
		rc = rc_errf(err, EPERM,
			     "host key of %s (%s) HAS CHANGED: it now presents %s %s, which "
			     "does not match %s; someone may be intercepting the connection, or "
			     "the %s was reinstalled; refusing to connect (remove the old "
			     "key from that file once you have checked the new one)",
			     c->who, c->where, type, fp, kh_file,
			     c->is_jump ? "jump host" : "switch");
		break;
	case SSH_KNOWN_HOSTS_UNKNOWN:
	case SSH_KNOWN_HOSTS_NOT_FOUND:
		if (!accept_new) {
			rc = rc_errf(err, EPERM,
				     "host key of %s (%s) is not known: %s %s is not in %s; "
				     "check it and add it, or run with --accept-new-host-keys",
				     c->who, c->where, type, fp, kh_file);
			break;
		}
		if (ssh_session_update_known_hosts(c->s) != SSH_OK) {
			rc = rc_errf(err, EIO, "cannot record the host key of %s in %s: %s", c->who,
				     kh_file, ssh_get_error(c->s));
			break;
		}
		fprintf(stderr, "rocectl: warning: %s: added host key %s %s of %s to %s\n", c->who,
			type, fp, c->where, kh_file);
		break;
	default:
		rc = rc_errf(err, EIO, "cannot check the host key of %s against %s: %s", c->who,
			     kh_file, ssh_get_error(c->s));
		break;
	}
	pthread_mutex_unlock(&known_hosts_lock);
	return rc;
}

static void tried_add(char *tried, size_t len, const char *what)
{
	size_t n = strlen(tried);

	snprintf(tried + n, len - n, "%s%s", n ? ", " : "", what);
}

static int auth_pubkey_file(struct rc_ssh *c, const char *file, char *tried, size_t tlen)
{
	ssh_key key = NULL;
	char note[PATH_MAX + 96];
	int rc;

	if (access(file, F_OK) != 0) {
		snprintf(note, sizeof(note), "identity file %s (missing)", file);
		tried_add(tried, tlen, note);
		return SSH_AUTH_DENIED;
	}
	/* no passphrase prompt: encrypted keys belong in ssh-agent */
	if (ssh_pki_import_privkey_file(file, NULL, NULL, NULL, &key) != SSH_OK) {
		snprintf(note, sizeof(note),
			 "identity file %s (unreadable or encrypted; use ssh-agent)", file);
		tried_add(tried, tlen, note);
		return SSH_AUTH_DENIED;
	}
	rc = ssh_userauth_publickey(c->s, NULL, key);
	ssh_key_free(key);
	snprintf(note, sizeof(note), "public key %s", file);
	tried_add(tried, tlen, note);
	return rc;
}

/* keyboard-interactive with every prompt answered by the password (sshd with PAM). */
static int auth_kbdint(ssh_session s, const char *pw)
{
	int rc = ssh_userauth_kbdint(s, NULL, NULL);

	for (int round = 0; rc == SSH_AUTH_INFO && round < 4; round++) {
		int n = ssh_userauth_kbdint_getnprompts(s);

		for (int i = 0; i < n; i++)
			if (ssh_userauth_kbdint_setanswer(s, (unsigned)i, pw) < 0)
				return SSH_AUTH_ERROR;
		rc = ssh_userauth_kbdint(s, NULL, NULL);
	}
	return rc == SSH_AUTH_INFO ? SSH_AUTH_DENIED : rc;
}

static int auth_password(struct rc_ssh *c, const struct rc_device *dev, int methods, char *tried,
			 size_t tlen, struct rc_err *err)
{
	char pw[RC_SECRET_MAX];
	int rc = rc_secret_password(dev, pw, sizeof(pw), err);

	if (rc == 1)
		return SSH_AUTH_DENIED; /* no password configured */
	if (rc)
		return rc;
	rc = SSH_AUTH_DENIED;
	if (methods & SSH_AUTH_METHOD_PASSWORD) {
		tried_add(tried, tlen, "password");
		rc = ssh_userauth_password(c->s, NULL, pw);
	} else if (methods & SSH_AUTH_METHOD_INTERACTIVE) {
		tried_add(tried, tlen, "password (keyboard-interactive)");
		rc = auth_kbdint(c->s, pw);
	} else {
		tried_add(tried, tlen, "password (not offered by the server)");
	}
	rc_secret_wipe(pw, sizeof(pw));
	return rc;
}

static int authenticate(struct rc_ssh *c, const struct rc_device *dev, const char *user,
			struct rc_err *err)
{
	char tried[3 * PATH_MAX], id[PATH_MAX];
	const char *idf = rc_inv_str(dev->cred.identity_file)[0]
			      ? dev->cred.identity_file
			      : rc_inv_str(dev->ssh.identity_file);
	int methods, rc;

	tried[0] = '\0';
	/* With an identity file, the key goes first, without a "none" request to learn the
	 * methods: that is a round trip and a server-side attempt per device, and a server
	 * answers a refused key with the methods anyway (RFC 4252, section 5.1).  "none" is
	 * still asked when the key is refused, for a server that needs no authentication. */
	if (idf[0]) {
		if (rc_expand_home(idf, id, sizeof(id)))
			return rc_errf(err, ENAMETOOLONG, "%s: identity file path is too long",
				       c->who);
		rc = auth_pubkey_file(c, id, tried, sizeof(tried));
		if (rc == SSH_AUTH_SUCCESS)
			return 0;
		if (rc == SSH_AUTH_ERROR)
			goto proto_err;
	}
	rc = ssh_userauth_none(c->s, NULL);
	if (rc == SSH_AUTH_SUCCESS)
		return 0;
	if (rc == SSH_AUTH_ERROR)
		goto proto_err;
	methods = ssh_userauth_list(c->s, NULL);
	if (getenv("SSH_AUTH_SOCK") && (methods & SSH_AUTH_METHOD_PUBLICKEY)) {
		tried_add(tried, sizeof(tried), "ssh-agent");
		rc = ssh_userauth_agent(c->s, NULL);
		if (rc == SSH_AUTH_SUCCESS)
			return 0;
		if (rc == SSH_AUTH_ERROR)
			goto proto_err;
	}
	/* the device's password is the device's: it is not offered to a jump host */
	rc = c->is_jump ? SSH_AUTH_DENIED
			: auth_password(c, dev, methods, tried, sizeof(tried), err);
	if (c->is_jump)
		tried_add(tried, sizeof(tried), "no password: a jump host takes keys only");
	if (rc == SSH_AUTH_SUCCESS)
		return 0;
	if (rc < 0 && rc != SSH_AUTH_ERROR)
		return rc; /* the password source itself failed; err says which */
	if (rc == SSH_AUTH_ERROR)
		goto proto_err;
	return rc_errf(err, EACCES, "authentication to %s (%s) as '%s' failed (tried: %s)", c->who,
		       c->where, user, tried[0] ? tried : "nothing usable was configured");
proto_err:
	return rc_errf(err, EIO, "authentication to %s (%s) failed: %s", c->who, c->where,
		       ssh_get_error(c->s));
}

/* The host key algorithms libssh proposes when not told (libssh 0.10's defaults). */
static const char *const default_hostkeys[] = {
    "ssh-ed25519",	   "ecdsa-sha2-nistp521", "ecdsa-sha2-nistp384",
    "ecdsa-sha2-nistp256", "rsa-sha2-512",	  "rsa-sha2-256",
};

/* Appends `alg` to list unless it is there; false when it does not fit. */
static bool list_add(char *list, size_t len, const char *alg)
{
	size_t n = strlen(list), al = strlen(alg);

	for (const char *p = list; *p;) {
		size_t k = strcspn(p, ",");

		if (k == al && !strncmp(p, alg, al))
			return true;
		p += k + (p[k] == ',');
	}
	if (n + (n != 0) + al + 1 > len)
		return false;
	snprintf(list + n, len - n, "%s%s", n ? "," : "", alg);
	return true;
}

/* The host key algorithms to propose: those of the types known_hosts has for this host
 * first, then the defaults; true when it set them (then the key exchange need not read
 * known_hosts, see rc_ssh_open).  The defaults behind keep a server whose key changed
 * type reaching the check, which then refuses it as changed.  An "ssh-rsa" key proposes
 * the SHA-2 signatures only, as OpenSSH does since 8.8.  Anything else: no preference,
 * libssh reads the file. */
static bool prefer_known_hostkeys(struct rc_ssh *c, const char *kh_file)
{
	char types[256], list[512] = "";
	size_t n;
	bool ok = true;

	pthread_mutex_lock(&known_hosts_lock);
	n = rc_kh_index_types(kh_index(kh_file), c->kh_host, types, sizeof(types));
	pthread_mutex_unlock(&known_hosts_lock);
	if (!n)
		return false;
	for (char *save = NULL, *t = strtok_r(types, ",", &save); t && ok;
	     t = strtok_r(NULL, ",", &save)) {
		bool known = false;

		if (!strcmp(t, "ssh-rsa")) {
			ok = list_add(list, sizeof(list), "rsa-sha2-512") &&
			     list_add(list, sizeof(list), "rsa-sha2-256");
			continue;
		}
		for (size_t i = 0; i < sizeof(default_hostkeys) / sizeof(*default_hostkeys); i++)
			known |= !strcmp(t, default_hostkeys[i]);
		ok = known && list_add(list, sizeof(list), t);
	}
	for (size_t i = 0; ok && i < sizeof(default_hostkeys) / sizeof(*default_hostkeys); i++)
		ok = list_add(list, sizeof(list), default_hostkeys[i]);
	/* a refusal leaves libssh's own choice: the same key exchange, a little dearer */
	return ok && ssh_options_set(c->s, SSH_OPTIONS_HOSTKEYS, list) == 0;
}

static int set_options(struct rc_ssh *c, const char *host, unsigned int port, const char *user,
		       const char *kh_file, uint32_t connect_ms, struct rc_err *err)
{
	long secs = (long)(connect_ms / 1000), usecs = (long)(connect_ms % 1000) * 1000;
	int no = 0;

	/* the inventory is the whole truth: ~/.ssh/config must not reroute a switch */
	if (ssh_options_set(c->s, SSH_OPTIONS_PROCESS_CONFIG, &no) ||
	    ssh_options_set(c->s, SSH_OPTIONS_HOST, host) ||
	    ssh_options_set(c->s, SSH_OPTIONS_PORT, &port) ||
	    ssh_options_set(c->s, SSH_OPTIONS_KNOWNHOSTS, kh_file) ||
	    ssh_options_set(c->s, SSH_OPTIONS_TIMEOUT, &secs) ||
	    ssh_options_set(c->s, SSH_OPTIONS_TIMEOUT_USEC, &usecs) ||
	    (user[0] && ssh_options_set(c->s, SSH_OPTIONS_USER, user)) ||
	    (ssh_dir[0] && ssh_options_set(c->s, SSH_OPTIONS_SSH_DIR, ssh_dir)))
		return rc_errf(err, EINVAL, "%s: cannot set SSH options: %s", c->who,
			       ssh_get_error(c->s));
	return 0;
}

/* "address" on port 22, else "[address]:port": how OpenSSH and libssh name a host in
 * known_hosts. */
static void kh_name(char *buf, size_t len, const char *address, unsigned int port)
{
	if (port == 22)
		snprintf(buf, len, "%s", address);
	else
		snprintf(buf, len, "[%s]:%u", address, port);
}

#define JUMP_CONNECT_TRIES 8

/* Connect to the jump host, again when it cut the handshake.  Every device has its own
 * connection to the bastion, so a run starts up to --parallel handshakes there at once;
 * sshd drops unauthenticated connections beyond its MaxStartups (default 10:30:100,
 * sshd_config(5)) with a reset, and measured in tests/lab/t3110 with MaxStartups 2:100:2
 * and 5 devices, 3 of them failed that way.  Not tried again: a timeout (it has used the
 * connect budget) and a refused connection (no sshd there: the bastion is down). */
static int connect_jump(struct rc_ssh *b, const char *host, unsigned int port, const char *user,
			const char *kh_file, uint32_t connect_ms, struct rc_err *err)
{
	unsigned int seed = (unsigned int)(rc_now_ms() ^ (uintptr_t)b);
	uint64_t until = rc_now_ms() + connect_ms;
	char why[256];
	int rc;

	for (int attempt = 1;; attempt++) {
		uint64_t now = rc_now_ms();

		b->s = ssh_new();
		if (!b->s)
			return rc_errf(err, ENOMEM, "out of memory");
		rc = set_options(b, host, port, user, kh_file,
				 until > now ? (uint32_t)(until - now) : 1, err);
		if (rc)
			return rc;
		if (ssh_connect(b->s) == SSH_OK)
			return 0;
		snprintf(why, sizeof(why), "%s", ssh_get_error(b->s));
		ssh_free(b->s);
		b->s = NULL;
		/* back off 100, 200, 400, then 800 ms, and up to as much again, so that the
		 * retries of devices cut together do not arrive together */
		unsigned int step = 50u << (attempt < 4 ? attempt : 4);
		uint64_t pause = step + (uint64_t)(rand_r(&seed) % step);

		if (attempt == JUMP_CONNECT_TRIES || strcasestr(why, "timeout") ||
		    strcasestr(why, "timed out") || strcasestr(why, "refused") ||
		    rc_now_ms() + pause >= until)
			return rc_errf(err, EHOSTUNREACH, "cannot connect to %s (%s): %s (%d %s)",
				       b->who, b->where, why, attempt,
				       attempt > 1 ? "attempts" : "attempt");
		nanosleep(
		    &(struct timespec){(time_t)(pause / 1000), (long)(pause % 1000) * 1000000},
		    NULL);
	}
}

/* The jump host of dev: connect, check its key, authenticate (keys only), then ask it for
 * a direct-tcpip channel to the device and start the relay; *fd is the socket the
 * device's session runs over.  Nothing reaches the device before the jump host's key
 * checked out. */
static int open_jump(struct rc_ssh *c, const struct rc_device *dev, const struct rc_run_opts *opts,
		     const char *kh_file, uint32_t connect_ms, int *fd, struct rc_err *err)
{
	const char *user = dev->jump.user[0] ? dev->jump.user : dev->ssh.user;
	unsigned int port = dev->jump.port ? dev->jump.port : 22;
	unsigned int dport = dev->ssh.port ? dev->ssh.port : 22;
	char jump[3 * RC_NAME_MAX], line[4 * RC_NAME_MAX];
	struct rc_ssh *b = calloc(1, sizeof(*b));
	ssh_channel ch = NULL;
	int rc;

	if (!b)
		return rc_errf(err, ENOMEM, "out of memory");
	pthread_mutex_init(&b->lock, NULL);
	b->is_jump = true;
	rc_jump_format(&dev->jump, jump, sizeof(jump));
	snprintf(b->dev, sizeof(b->dev), "%s", dev->name);
	snprintf(b->who, sizeof(b->who), "jump host '%s' of '%s'", jump, dev->name);
	snprintf(b->where, sizeof(b->where), "%s:%u", dev->jump.host, port);
	kh_name(b->kh_host, sizeof(b->kh_host), dev->jump.host, port);
	if (opts && opts->verbose) {
		snprintf(line, sizeof(line), "connecting through jump host %s to %s", jump,
			 c->where);
		rc_verbose_log(dev->name, "ssh", line, NULL, 0);
	}
	rc = connect_jump(b, dev->jump.host, port, user, kh_file, connect_ms, err);
	if (rc)
		goto out;
	rc = check_host_key(b, kh_file, opts && opts->accept_new_host_keys, err);
	if (!rc)
		rc = authenticate(b, dev, user[0] ? user : "(local user)", err);
	if (rc)
		goto out;
	ch = ssh_channel_new(b->s);
	if (!ch ||
	    ssh_channel_open_forward(ch, dev->address, (int)dport, "127.0.0.1", 0) != SSH_OK) {
		rc = rc_errf(err, EHOSTUNREACH, "%s cannot reach '%s' (%s): %s", b->who, dev->name,
			     c->where, ssh_get_error(b->s));
		goto out;
	}
	rc = rc_ssh_relay_start(b->s, ch, fd, &c->relay);
	b->s = NULL; /* the relay's now, freed by it even when it failed */
	ch = NULL;
	if (rc)
		rc = rc_errf(err, -rc, "'%s': cannot relay through %s: %s", dev->name, b->who,
			     strerror(-rc));
out:
	if (ch)
		ssh_channel_free(ch);
	rc_ssh_close(b);
	return rc;
}

/* --snapshot: a session that connects to nothing (snapshot.c answers its commands). */
static int snapshot_open(const struct rc_device *dev, const struct rc_run_opts *opts,
			 struct rc_ssh **out, struct rc_err *err)
{
	struct rc_ssh *c = calloc(1, sizeof(*c));

	if (!c)
		return rc_errf(err, ENOMEM, "out of memory");
	pthread_mutex_init(&c->lock, NULL);
	snprintf(c->dev, sizeof(c->dev), "%s", dev->name);
	snprintf(c->who, sizeof(c->who), "'%s'", dev->name);
	snprintf(c->where, sizeof(c->where), "snapshot");
	c->snapshot = opts->snapshot;
	c->verbose = opts->verbose;
	*out = c;
	return 0;
}

int rc_ssh_open(const struct rc_device *dev, const struct rc_run_opts *opts, struct rc_ssh **out,
		struct rc_err *err)
{
	const char *user = dev->cred.user[0] ? dev->cred.user : dev->ssh.user;
	unsigned int port = dev->ssh.port ? dev->ssh.port : 22;
	uint32_t connect_ms = dev->ssh.connect_timeout_ms;
	char kh_file[PATH_MAX], jump_desc[3 * RC_NAME_MAX];
	struct rc_ssh *c;
	bool kex_kh_empty;
	int rc;

	*out = NULL;
	if (opts && opts->snapshot)
		return snapshot_open(dev, opts, out, err);
	if (!address_is_safe(dev->address))
		return rc_errf(err, EINVAL, "'%s': address '%s' is not a host name or IP address",
			       dev->name, dev->address);
	if (dev->jump.host[0] && !address_is_safe(dev->jump.host))
		return rc_errf(err, EINVAL, "'%s': jump host '%s' is not a host name or IP address",
			       dev->name, dev->jump.host);
	rc_jump_format(&dev->jump, jump_desc, sizeof(jump_desc));
	if (rc_expand_home(rc_inv_str(dev->ssh.known_hosts)[0] ? dev->ssh.known_hosts
							       : "~/.ssh/known_hosts",
			   kh_file, sizeof(kh_file)))
		return rc_errf(err, ENAMETOOLONG, "'%s': known_hosts path is too long", dev->name);
	if (!connect_ms)
		connect_ms = opts && opts->default_timeout_ms ? opts->default_timeout_ms
							      : DEFAULT_CONNECT_MS;
	connect_ms = rc_deadline_clamp_ms(connect_ms, NULL);
	if (!connect_ms)
		return rc_errf(err, ETIMEDOUT,
			       "'%s': the device's deadline (%us) passed before "
			       "connecting",
			       dev->name, (rc_deadline_length_ms() + 999) / 1000);
	pthread_once(&ssh_once, ssh_global_init);
	c = calloc(1, sizeof(*c));
	if (!c)
		return rc_errf(err, ENOMEM, "out of memory");
	pthread_mutex_init(&c->lock, NULL);
	snprintf(c->dev, sizeof(c->dev), "%s", dev->name);
	snprintf(c->who, sizeof(c->who), "'%s'", dev->name);
	snprintf(c->where, sizeof(c->where), "%s:%u", dev->address, port);
	kh_name(c->kh_host, sizeof(c->kh_host), dev->address, port);
	c->command_ms =
	    dev->ssh.command_timeout_ms ? dev->ssh.command_timeout_ms : DEFAULT_COMMAND_MS;
	c->s = ssh_new();
	if (!c->s) {
		rc = rc_errf(err, ENOMEM, "out of memory");
		goto fail;
	}
	rc = set_options(c, dev->address, port, user, kh_file, connect_ms, err);
	if (rc)
		goto fail;
	/* Told the host key algorithms, libssh 0.10 still reads the whole known_hosts during
	 * the key exchange to reorder them (kex.c, ssh_client_select_hostkeys): a fleet's file
	 * has a line per device, so every session paid for the whole fleet.  When the index
	 * named this host's key types, the exchange is pointed at an empty file; the real one
	 * is set back before the key is checked (check_host_key), so nothing is trusted on
	 * the strength of the empty file.  The global /etc/ssh/ssh_known_hosts is untouched. */
	kex_kh_empty = prefer_known_hostkeys(c, kh_file) &&
		       ssh_options_set(c->s, SSH_OPTIONS_KNOWNHOSTS, "/dev/null") == 0;
	if (dev->jump.host[0]) {
		int fd = -1;

		rc = open_jump(c, dev, opts, kh_file, connect_ms, &fd, err);
		if (rc)
			goto fail;
		/* ssh_connect takes the socket: libssh closes it when the session ends (also
		 * after a failed connect); only a socket it never took is ours to close */
		if (ssh_options_set(c->s, SSH_OPTIONS_FD, &fd)) {
			close(fd);
			rc = rc_errf(err, EINVAL, "%s: cannot set SSH options: %s", c->who,
				     ssh_get_error(c->s));
			goto fail;
		}
	}
	if (ssh_connect(c->s) != SSH_OK) {
		rc = rc_errf(err, EHOSTUNREACH, "cannot connect to %s (%s)%s%s: %s", c->who,
			     c->where, c->relay ? " through its jump host " : "",
			     c->relay ? jump_desc : "", ssh_get_error(c->s));
		goto fail;
	}
	if (kex_kh_empty && ssh_options_set(c->s, SSH_OPTIONS_KNOWNHOSTS, kh_file)) {
		rc = rc_errf(err, EINVAL, "%s: cannot set SSH options: %s", c->who,
			     ssh_get_error(c->s));
		goto fail;
	}
	rc = check_host_key(c, kh_file, opts && opts->accept_new_host_keys, err);
	if (!rc)
		rc = authenticate(c, dev, user[0] ? user : "(local user)", err);
	if (rc)
		goto fail;
	c->tap = opts ? opts->tap : NULL;
	c->verbose = opts && opts->verbose;
	*out = c;
	return 0;
fail:
	rc_ssh_close(c);
	return rc;
}

static int append(char **buf, size_t *len, size_t *cap, const char *data, size_t n, size_t max)
{
	if (*len + n > max)
		return -EFBIG;
	if (*len + n + 1 > *cap) {
		size_t ncap = *cap ? *cap : 4096;
		char *nb;

		while (ncap < *len + n + 1)
			ncap *= 2;
		nb = realloc(*buf, ncap);
		if (!nb)
			return -ENOMEM;
		*buf = nb;
		*cap = ncap;
	}
	memcpy(*buf + *len, data, n);
	*len += n;
	(*buf)[*len] = '\0';
	return 0;
}

/* A command, shortened for messages. */
static void short_cmd(const char *cmd, char *buf, size_t len)
{
	size_t n = strcspn(cmd, "\n");

	if (n > 60)
		snprintf(buf, len, "%.57s...", cmd);
	else
		snprintf(buf, len, "%.*s%s", (int)n, cmd, cmd[n] ? " ..." : "");
}

struct collect {
	size_t out_cap, err_cap;
};

static int drain_stderr(ssh_channel ch, struct rc_ssh_result *res, struct collect *col, bool *got)
{
	char buf[4096];
	int n;

	while ((n = ssh_channel_read_nonblocking(ch, buf, sizeof(buf), 1)) > 0) {
		*got = true;
		/* stderr beyond the cap is dropped: it only feeds messages */
		if (res->err_len + (size_t)n <= RC_SSH_ERR_MAX &&
		    append(&res->err, &res->err_len, &col->err_cap, buf, (size_t)n, RC_SSH_ERR_MAX))
			return -ENOMEM;
	}
	return n == SSH_ERROR ? -EIO : 0;
}

static int collect_output(struct rc_ssh *c, ssh_channel ch, const char *what,
			  struct rc_ssh_result *res, struct rc_err *err)
{
	bool cut;
	uint64_t deadline = rc_now_ms() + rc_deadline_clamp_ms(c->command_ms, &cut);
	struct collect col = {0, 0};
	char buf[16384];
	int n, rc, wait_ms = READ_SLICE_MS;

	/* A wait for stdout does not end when stderr arrives (libssh 0.10.6 channels.c,
	 * ssh_channel_read_termination looks at the one stream read), and a command that
	 * writes only to stderr stops once the channel's window (CHANNEL_INITIAL_WINDOW, 64,000
	 * bytes) is full until stderr is read: so stderr is drained between waits.  Each wait
	 * is a wakeup of this thread and libssh's poll: at a fixed 100 ms, a device answering
	 * in 1 s cost ~0.25 ms more controller CPU than one answering at once (400 lab switches,
	 * 1.43 vs 1.16 ms per device).  The waits double while nothing came, up to 1.6 s, and
	 * start again at 100 ms after any stderr or stdout. */
	for (;;) {
		uint64_t now = rc_now_ms();
		bool got = false;
		int slice;

		if (now >= deadline) {
			c->broken = true;
			if (cut)
				return rc_errf(err, ETIMEDOUT,
					       "'%s' on '%s' was cut by the device's deadline "
					       "(%us for the whole read)",
					       what, c->dev,
					       (rc_deadline_length_ms() + 999) / 1000);
			return rc_errf(err, ETIMEDOUT, "'%s' on '%s' timed out after %us", what,
				       c->dev, (c->command_ms + 999) / 1000);
		}
		slice = deadline - now < (uint64_t)wait_ms ? (int)(deadline - now) : wait_ms;
		n = ssh_channel_read_timeout(ch, buf, sizeof(buf), 0, slice);
		if (n == SSH_ERROR)
			return rc_errf(err, EIO, "'%s' on '%s' failed: %s", what, c->dev,
				       ssh_get_error(c->s));
		if (n > 0) {
			rc = append(&res->out, &res->out_len, &col.out_cap, buf, (size_t)n,
				    RC_SSH_OUT_MAX);
			if (rc == -EFBIG)
				return rc_errf(err, EFBIG,
					       "output of '%s' on '%s' exceeds %u bytes", what,
					       c->dev, RC_SSH_OUT_MAX);
			if (rc)
				return rc_errf(err, ENOMEM, "out of memory");
		}
		if (drain_stderr(ch, res, &col, &got))
			return rc_errf(err, EIO, "'%s' on '%s' failed: %s", what, c->dev,
				       ssh_get_error(c->s));
		if (n == 0 && ssh_channel_is_eof(ch))
			break;
		if (n > 0 || got)
			wait_ms = READ_SLICE_MS;
		else if (wait_ms < READ_SLICE_MAX_MS)
			wait_ms *= 2;
	}
	res->exit_status = ssh_channel_get_exit_status(ch);
	return 0;
}

static int ssh_run_raw(struct rc_ssh *c, const char *cmd, const char *in, size_t in_len,
		       struct rc_ssh_result *res, struct rc_err *err);

/* --snapshot: a read is answered from its file; what the capture tap would not send (a
 * write, or anything on stdin) is refused, as the snapshot cannot stand in for it. */
static int snapshot_run(struct rc_ssh *c, const char *cmd, const char *in, size_t in_len,
			struct rc_ssh_result *res, struct rc_err *err)
{
	char what[80];
	int rc;

	(void)in;
	memset(res, 0, sizeof(*res));
	res->exit_status = -1;
	short_cmd(cmd, what, sizeof(what));
	if (in_len || !rc_tap_read_only_cmd(cmd))
		return rc_errf(err, EPERM, "'%s': a snapshot answers reads only: refusing '%s'",
			       c->dev, what);
	if (c->verbose)
		rc_verbose_log(c->dev, "snapshot", cmd, NULL, 0);
	rc = rc_snapshot_answer(c->snapshot, c->dev, cmd, &res->out, &res->out_len, err);
	if (!rc)
		res->exit_status = 0;
	return rc;
}

/* With a capture tap: only read-only commands are sent, and each answer is recorded. */
int rc_ssh_run(struct rc_ssh *c, const char *cmd, const char *in, size_t in_len,
	       struct rc_ssh_result *res, struct rc_err *err)
{
	int rc;

	if (c->snapshot)
		return snapshot_run(c, cmd, in, in_len, res, err);
	if (c->tap && (in_len || !rc_tap_read_only_cmd(cmd))) {
		char what[80];

		memset(res, 0, sizeof(*res));
		short_cmd(cmd, what, sizeof(what));
		return rc_errf(err, EPERM, "'%s': capture refuses to send '%s': not read-only",
			       c->dev, what);
	}
	if (c->verbose)
		rc_verbose_log(c->dev, "ssh", cmd, in, in_len);
	rc = ssh_run_raw(c, cmd, in, in_len, res, err);
	if (!rc && c->tap)
		rc_tap_record(c->tap, cmd, NULL, 0, res->out, res->out_len);
	return rc;
}

static int ssh_run_raw(struct rc_ssh *c, const char *cmd, const char *in, size_t in_len,
		       struct rc_ssh_result *res, struct rc_err *err)
{
	ssh_channel ch = NULL;
	char what[80];
	int rc = 0;

	memset(res, 0, sizeof(*res));
	res->exit_status = -1;
	short_cmd(cmd, what, sizeof(what));
	pthread_mutex_lock(&c->lock);
	if (!rc_deadline_clamp_ms(c->command_ms, NULL)) {
		rc = rc_errf(err, ETIMEDOUT,
			     "'%s' on '%s' not sent: the device's deadline (%us) "
			     "has passed",
			     what, c->dev, (rc_deadline_length_ms() + 999) / 1000);
		goto out;
	}
	if (c->broken || !ssh_is_connected(c->s)) {
		c->broken = true;
		rc = rc_errf(err, EPIPE, "the connection to '%s' (%s) was lost", c->dev, c->where);
		goto out;
	}
	ch = ssh_channel_new(c->s);
	if (!ch || ssh_channel_open_session(ch) != SSH_OK ||
	    ssh_channel_request_exec(ch, cmd) != SSH_OK) {
		rc = rc_errf(err, EIO, "cannot run '%s' on '%s': %s", what, c->dev,
			     ssh_get_error(c->s));
		goto out;
	}
	for (size_t off = 0; off < in_len;) {
		int n = ssh_channel_write(ch, in + off,
					  (uint32_t)(in_len - off > 65536 ? 65536 : in_len - off));

		if (n == SSH_ERROR) {
			rc = rc_errf(err, EIO, "cannot send input of '%s' to '%s': %s", what,
				     c->dev, ssh_get_error(c->s));
			goto out;
		}
		off += (size_t)n;
	}
	if (ssh_channel_send_eof(ch) != SSH_OK) {
		rc = rc_errf(err, EIO, "cannot send input of '%s' to '%s': %s", what, c->dev,
			     ssh_get_error(c->s));
		goto out;
	}
	rc = collect_output(c, ch, what, res, err);
out:
	/* After a transport failure the session's state is unknown (a dropped connection is
	 * not always noticed as "disconnected" at once): the next call says -EPIPE so that
	 * the caller may connect again.  This command is not repeated: it may have run. */
	if (rc && rc != -EFBIG)
		c->broken = true;
	if (ch) {
		if (ssh_channel_is_open(ch))
			ssh_channel_close(ch);
		ssh_channel_free(ch);
	}
	pthread_mutex_unlock(&c->lock);
	if (rc)
		rc_ssh_result_free(res);
	return rc;
}

void rc_ssh_result_free(struct rc_ssh_result *res)
{
	free(res->out);
	free(res->err);
	res->out = res->err = NULL;
	res->out_len = res->err_len = 0;
}

void rc_ssh_close(struct rc_ssh *c)
{
	if (!c)
		return;
	if (c->s) {
		if (ssh_is_connected(c->s))
			ssh_disconnect(c->s);
		ssh_free(c->s);
	}
	/* after the device's session: its goodbye goes out through the hop first */
	rc_ssh_relay_stop(c->relay);
	pthread_mutex_destroy(&c->lock);
	free(c);
}
