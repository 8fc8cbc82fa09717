/* SPDX-License-Identifier: Apache-2.0 */
/* switchsim-rest: one HTTPS server (libmicrohttpd + GnuTLS) for every simulated switch of a
 * lab.  The switch is the one whose address the client connected to (the local address of
 * the connection), the API is the switch's dialect's (NVUE: /nvue_v1), access is HTTP
 * Basic auth against RUN/secrets/<switch> or RUN/secrets/password.
 *
 *   switchsim-rest --run-dir RUN --port N --cert PEM --key PEM --user NAME [--pid-file F]
 *
 * Runs until SIGTERM/SIGINT.  One log line per request on stderr (never a secret). */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "sim.h"

#define BODY_MAX (1024 * 1024)

struct server {
	const char *run_dir;
	const char *user;
	atomic_int stopping;
};

struct request {
	struct sbuf body;
	bool too_big;
};

static void sleep_ms(long ms)
{
	struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static int b64val(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

/* Decode base64 into out (NUL-terminated); -1 on bad input or overflow. */
static int b64decode(const char *in, char *out, size_t outlen)
{
	size_t o = 0;
	unsigned acc = 0;
	int bits = 0;
	for (; *in && *in != '='; in++) {
		int v = b64val(*in);
		if (v < 0)
			return -1;
		acc = (acc << 6) | (unsigned)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			if (o + 1 >= outlen)
				return -1;
			out[o++] = (char)((acc >> bits) & 0xff);
		}
	}
	out[o] = '\0';
	return (int)o;
}

static bool equal_ct(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned char d = (unsigned char)(la != lb);
	for (size_t i = 0; i < la; i++)
		d |= (unsigned char)(a[i] ^ b[i % (lb ? lb : 1)]);
	return d == 0;
}

static enum MHD_Result send_body(struct MHD_Connection *conn, int status, const char *body,
				 const char *extra_hdr, const char *extra_val)
{
	struct MHD_Response *r =
	    MHD_create_response_from_buffer(strlen(body), (void *)body, MHD_RESPMEM_MUST_COPY);
	if (!r)
		return MHD_NO;
	if (status != 204)
		MHD_add_response_header(r, "Content-Type", "application/json");
	if (extra_hdr)
		MHD_add_response_header(r, extra_hdr, extra_val);
	enum MHD_Result rc = MHD_queue_response(conn, (unsigned)status, r);
	MHD_destroy_response(r);
	return rc;
}

static enum MHD_Result send_problem(struct MHD_Connection *conn, int status, const char *title,
				    const char *detail, const char *hdr, const char *val)
{
	cJSON *j = cJSON_CreateObject();
	struct sbuf sb;
	sb_init(&sb);
	jput(j, "detail", cJSON_CreateString(detail));
	jput(j, "status", cJSON_CreateNumber(status));
	jput(j, "title", cJSON_CreateString(title));
	jput(j, "type", cJSON_CreateString("about:blank"));
	jprint(&sb, j);
	cJSON_Delete(j);
	enum MHD_Result rc = send_body(conn, status, sb_str(&sb), hdr, val);
	sb_free(&sb);
	return rc;
}

static int local_addr(struct MHD_Connection *conn, char *buf, size_t len)
{
	const union MHD_ConnectionInfo *ci =
	    MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	if (!ci || getsockname(ci->connect_fd, (struct sockaddr *)&ss, &sl) < 0)
		return -1;
	if (ss.ss_family == AF_INET)
		return inet_ntop(AF_INET, &((struct sockaddr_in *)&ss)->sin_addr, buf,
				 (socklen_t)len)
			   ? 0
			   : -1;
	if (ss.ss_family == AF_INET6) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;
		/* a v4-mapped address is the v4 switch */
		if (IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr))
			return inet_ntop(AF_INET, &s6->sin6_addr.s6_addr[12], buf, (socklen_t)len)
				   ? 0
				   : -1;
		return inet_ntop(AF_INET6, &s6->sin6_addr, buf, (socklen_t)len) ? 0 : -1;
	}
	return -1;
}

/* 0 ok, 401 bad credentials, 403 the factory-default password (dflt_pw) is still set. */
static int check_auth(const struct server *srv, struct MHD_Connection *conn, const char *name,
		      const char *dflt_pw)
{
	const char *h = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Authorization");
	char dec[512], want[256], path[SIM_PATH_MAX];
	if (!h || strncasecmp(h, "Basic ", 6) != 0 || strlen(h) > 600)
		return 401;
	if (b64decode(h + 6, dec, sizeof(dec)) < 0)
		return 401;
	char *colon = strchr(dec, ':');
	if (!colon)
		return 401;
	*colon = '\0';
	snprintf(path, sizeof(path), "%s/secrets/%s", srv->run_dir, name);
	if (sim_read_secret(path, want, sizeof(want)) < 0) {
		snprintf(path, sizeof(path), "%s/secrets/password", srv->run_dir);
		if (sim_read_secret(path, want, sizeof(want)) < 0 || !*want)
			return 401;
	}
	/* both compared, whatever the first says: no timing hint about which was wrong */
	bool user_ok = equal_ct(dec, srv->user), pw_ok = equal_ct(colon + 1, want);
	bool ok = user_ok && pw_ok;
	memset(dec, 0, sizeof(dec));
	if (!ok)
		return 401;
	/* CL 5.6+: the API answers 403 until the default password is changed (Cumulus Linux "NVUE
	 * API") */
	if (dflt_pw && strcmp(want, dflt_pw) == 0)
		return 403;
	return 0;
}

static const char *query_arg(const struct sim_req *req, const char *key)
{
	return MHD_lookup_connection_value(req->conn, MHD_GET_ARGUMENT_KIND, key);
}

static void log_line(const char *name, const char *method, const char *url, int status)
{
	char ts[32];
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(ts, sizeof(ts), "%H:%M:%S", &tm);
	fprintf(stderr, "%s %s %s %s %d\n", ts, name, method, url, status);
}

/* The switch's dialect, read before authentication (realm, default password). */
static const struct sim_dialect *switch_dialect(const char *run_dir, const char *name)
{
	struct sim_switch sw;
	char err[SIM_ERR_MAX];
	if (sim_switch_open(run_dir, name, &sw, err, sizeof(err)) < 0)
		return NULL;
	const struct sim_dialect *d = sim_dialect_of(sw.st);
	sim_switch_close(&sw);
	return d;
}

static const char *status_title(int status)
{
	switch (status) {
	case 502:
		return "Bad Gateway";
	case 503:
		return "Service Unavailable";
	case 504:
		return "Gateway Timeout";
	default:
		return "Internal Server Error";
	}
}

static enum MHD_Result serve(struct server *srv, struct MHD_Connection *conn, const char *url,
			     const char *method, struct request *rq)
{
	char addr[64], name[SIM_NAME_MAX], err[SIM_ERR_MAX];
	struct sim_switch sw;
	long slow_ms = 0;

	if (local_addr(conn, addr, sizeof(addr)) < 0 ||
	    sim_name_by_addr(srv->run_dir, addr, name, sizeof(name), err, sizeof(err)) < 0) {
		log_line("?", method, url, 404);
		return send_problem(conn, 404, "Not Found", "no simulated switch at this address",
				    NULL, NULL);
	}
	const struct sim_dialect *pd = switch_dialect(srv->run_dir, name);
	int auth = check_auth(srv, conn, name, pd ? pd->default_password : NULL);
	if (auth) {
		char realm[96];
		const char *rn = pd ? (pd->auth_realm ? pd->auth_realm : pd->name) : "switch";
		snprintf(realm, sizeof(realm), "Basic realm=\"%s\"", rn);
		log_line(name, method, url, auth);
		if (auth == 403)
			return send_problem(conn, 403, "Forbidden",
					    "the default password must be changed before the API "
					    "can be used",
					    NULL, NULL);
		return send_problem(conn, 401, "Unauthorized",
				    "The server could not verify that you are authorized to access "
				    "the URL requested.",
				    "WWW-Authenticate", realm);
	}
	if (rq->too_big)
		return send_problem(conn, 413, "Payload Too Large", "request body too large", NULL,
				    NULL);

	if (sim_switch_open(srv->run_dir, name, &sw, err, sizeof(err)) < 0) {
		log_line(name, method, url, 500);
		return send_problem(conn, 500, "Internal Server Error", err, NULL, NULL);
	}
	struct sim_ctx ctx = {.st = sw.st, .user = srv->user};
	enum sim_fault_action act = sim_fault_before(&ctx, &slow_ms);
	if (act != FAULT_NONE || slow_ms > 0) {
		/* wait outside the lock: a hung or slow request must not block the switch */
		if (ctx.dirty)
			sim_switch_save(&sw, err, sizeof(err));
		sim_switch_close(&sw);
		if (act == FAULT_HANG) {
			log_line(name, method, url, 0);
			while (!atomic_load(&srv->stopping))
				sleep_ms(100);
			return MHD_NO;
		}
		if (act == FAULT_DROP) {
			log_line(name, method, url, -1);
			return MHD_NO; /* closes the connection without an answer */
		}
		sleep_ms(slow_ms);
		if (sim_switch_open(srv->run_dir, name, &sw, err, sizeof(err)) < 0)
			return send_problem(conn, 500, "Internal Server Error", err, NULL, NULL);
	}
	const struct sim_dialect *d = sim_dialect_of(sw.st);
	size_t bl = d && d->rest_base ? strlen(d->rest_base) : 0;
	if (!d || !d->rest || strncmp(url, d->rest_base, bl) != 0 ||
	    (url[bl] != '\0' && url[bl] != '/')) {
		sim_switch_close(&sw);
		log_line(name, method, url, 404);
		return send_problem(conn, 404, "Not Found",
				    "The requested URL was not found on the server.", NULL, NULL);
	}
	/* an injected 5xx (fault.c, http-error): before the request is carried out, or after */
	struct sim_ctx fctx = {.st = sw.st, .user = srv->user};
	bool err_after = false;
	int err_status = sim_fault_take_http_error(&fctx, &err_after);
	bool fault_dirty = fctx.dirty || (ctx.dirty && act == FAULT_NONE && slow_ms == 0);
	if (err_status && !err_after) {
		if (fault_dirty)
			sim_switch_save(&sw, err, sizeof(err));
		sim_switch_close(&sw);
		log_line(name, method, url, err_status);
		return send_problem(conn, err_status, status_title(err_status),
				    "injected fault 'http-error'", NULL, NULL);
	}
	struct sim_req req = {.method = method,
			      .path = url + bl,
			      .body = rq->body.buf,
			      .body_len = rq->body.len,
			      .query = query_arg,
			      .conn = conn};
	struct sim_resp resp = {.status = 500};
	sb_init(&resp.body);
	/* keep "dirty" from a consumed fault when the request runs under the same lock */
	ctx = (struct sim_ctx){
	    .st = sw.st, .user = srv->user, .login = cJSON_CreateObject(), .dirty = fault_dirty};
	d->rest(&ctx, &req, &resp);
	cJSON_Delete(ctx.login);
	if (ctx.dirty && sim_switch_save(&sw, err, sizeof(err)) < 0) {
		sb_reset(&resp.body);
		resp.status = 500;
	}
	sim_switch_close(&sw);
	if (err_status) { /* carried out, answered with the injected error all the same */
		sb_free(&resp.body);
		log_line(name, method, url, err_status);
		return send_problem(
		    conn, err_status, status_title(err_status),
		    "injected fault 'http-error' (after the request was carried out)", NULL, NULL);
	}
	log_line(name, method, url, resp.status);
	enum MHD_Result rc = send_body(conn, resp.status, sb_str(&resp.body), NULL, NULL);
	sb_free(&resp.body);
	return rc;
}

static enum MHD_Result handler(void *cls, struct MHD_Connection *conn, const char *url,
			       const char *method, const char *version, const char *upload,
			       size_t *upload_size, void **con_cls)
{
	struct server *srv = cls;
	struct request *rq = *con_cls;
	(void)version;
	if (!rq) {
		rq = calloc(1, sizeof(*rq));
		if (!rq)
			return MHD_NO;
		sb_init(&rq->body);
		*con_cls = rq;
		return MHD_YES;
	}
	if (*upload_size) {
		if (rq->body.len + *upload_size > BODY_MAX)
			rq->too_big = true;
		else
			sb_addn(&rq->body, upload, *upload_size);
		*upload_size = 0;
		return MHD_YES;
	}
	return serve(srv, conn, url, method, rq);
}

static void completed(void *cls, struct MHD_Connection *conn, void **con_cls,
		      enum MHD_RequestTerminationCode toe)
{
	struct request *rq = *con_cls;
	(void)cls;
	(void)conn;
	(void)toe;
	if (rq) {
		sb_free(&rq->body);
		free(rq);
	}
	*con_cls = NULL;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	struct sbuf sb;
	char buf[4096];
	size_t n;
	sb_init(&sb);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0 && sb.len < 1024 * 1024)
		sb_addn(&sb, buf, n);
	fclose(f);
	if (!sb.buf)
		sb_adds(&sb, "");
	return sb.buf;
}

static int usage(void)
{
	fprintf(stderr, "usage: switchsim-rest --run-dir RUN --port N --cert PEM --key PEM "
			"--user NAME [--pid-file F]\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct server srv = {0};
	const char *cert = NULL, *key = NULL, *pidfile = NULL;
	long port = 8765;

	for (int i = 1; i < argc; i += 2) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!v)
			return usage();
		if (!strcmp(a, "--run-dir"))
			srv.run_dir = v;
		else if (!strcmp(a, "--port"))
			port = strtol(v, NULL, 10);
		else if (!strcmp(a, "--cert"))
			cert = v;
		else if (!strcmp(a, "--key"))
			key = v;
		else if (!strcmp(a, "--user"))
			srv.user = v;
		else if (!strcmp(a, "--pid-file"))
			pidfile = v;
		else
			return usage();
	}
	if (!srv.run_dir || !cert || !key || !srv.user || port < 1 || port > 65535)
		return usage();
	char *cert_pem = slurp(cert), *key_pem = slurp(key);
	if (!cert_pem || !key_pem) {
		fprintf(stderr, "switchsim-rest: cannot read '%s' or '%s'\n", cert, key);
		free(cert_pem);
		free(key_pem);
		return 1;
	}

	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);

	struct MHD_Daemon *d = MHD_start_daemon(
	    MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_TLS |
		MHD_USE_ERROR_LOG,
	    (uint16_t)port, NULL, NULL, handler, &srv, MHD_OPTION_HTTPS_MEM_KEY, key_pem,
	    MHD_OPTION_HTTPS_MEM_CERT, cert_pem, MHD_OPTION_CONNECTION_LIMIT, (unsigned)4096,
	    MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)300, MHD_OPTION_NOTIFY_COMPLETED, completed,
	    NULL, MHD_OPTION_END);
	if (!d) {
		fprintf(stderr, "switchsim-rest: cannot start the HTTPS server on port %ld\n",
			port);
		free(cert_pem);
		free(key_pem);
		return 1;
	}
	if (pidfile) {
		FILE *f = fopen(pidfile, "w");
		if (f) {
			fprintf(f, "%ld\n", (long)getpid());
			fclose(f);
		}
	}
	fprintf(stderr, "switchsim-rest: listening on port %ld\n", port);
	int sig = 0;
	sigwait(&set, &sig);
	atomic_store(&srv.stopping, 1);
	MHD_stop_daemon(d);
	free(cert_pem);
	free(key_pem);
	return 0;
}
