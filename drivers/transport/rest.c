/* SPDX-License-Identifier: Apache-2.0 */
/* HTTPS transport (libcurl, cJSON): one reused connection per device.
 *
 * Certificate verification is always on unless the inventory says `insecure: true`, and
 * then every run says so.  Only idempotent requests are retried: a POST or PATCH that
 * timed out may have been executed. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cJSON.h>
#include <curl/curl.h>

#include "rocectl/deadline.h"
#include "rocectl/transport.h"

#define DEFAULT_TIMEOUT_MS 30000u
#define BACKOFF_MS	   250u

#ifndef ROCECTL_VERSION
#define ROCECTL_VERSION "dev"
#endif

struct rc_rest {
	pthread_mutex_t lock; /* one request at a time on this handle */
	CURL *h;
	struct curl_slist *hdr_json, *hdr_plain, *hdr_custom;
	char dev[RC_NAME_MAX];
	char user[RC_NAME_MAX];
	char base[2 * RC_NAME_MAX + 32]; /* https://address:port/base */
	uint32_t timeout_ms;
	char errbuf[CURL_ERROR_SIZE];
	const struct rc_tap *tap; /* rocectl capture: record, refuse writes */
	bool verbose;		  /* -v: print each request */
	const char *snapshot;	  /* --snapshot DIR: answers from files, no connection */
};

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static CURLcode curl_init_rc;

static void curl_global(void)
{
	curl_init_rc = curl_global_init(CURL_GLOBAL_DEFAULT);
}

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

static bool base_is_safe(const char *b)
{
	for (const char *p = b; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '/' || *p == '-' || *p == '_' || *p == '.'))
			return false;
	return true;
}

void rc_rest_url(const struct rc_rest *r, const char *path, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", r->base, path);
}

int rc_rest_escape(const char *in, char *out, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t o = 0;

	for (const unsigned char *p = (const unsigned char *)in; *p; p++) {
		bool keep = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			    (*p >= '0' && *p <= '9') || *p == '-' || *p == '.' || *p == '_' ||
			    *p == '~';

		if (o + (keep ? 1 : 3) >= len)
			return -ENAMETOOLONG;
		if (keep) {
			out[o++] = (char)*p;
		} else {
			out[o++] = '%';
			out[o++] = hex[*p >> 4];
			out[o++] = hex[*p & 15];
		}
	}
	if (o >= len)
		return -ENAMETOOLONG;
	out[o] = '\0';
	return 0;
}

static int set_auth(struct rc_rest *r, const struct rc_device *dev, struct rc_err *err)
{
	char pw[RC_SECRET_MAX];
	int rc = rc_secret_password(dev, pw, sizeof(pw), err);

	if (rc == 1)
		return 0; /* no credentials: the device may not need them */
	if (rc)
		return rc;
	/* libcurl keeps its own copy; ours is wiped at once */
	if (curl_easy_setopt(r->h, CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC) ||
	    curl_easy_setopt(r->h, CURLOPT_USERNAME, r->user) ||
	    curl_easy_setopt(r->h, CURLOPT_PASSWORD, pw))
		rc = rc_errf(err, ENOMEM, "'%s': cannot set the credentials", r->dev);
	rc_secret_wipe(pw, sizeof(pw));
	return rc;
}

static int set_tls(struct rc_rest *r, const struct rc_device *dev, struct rc_err *err)
{
	char ca[PATH_MAX];

	if (dev->rest.insecure) {
		fprintf(stderr,
			"rocectl: warning: '%s': TLS certificate verification is OFF "
			"(insecure: true in the inventory); anyone on the path can read and "
			"change what is sent, credentials included\n",
			r->dev);
		curl_easy_setopt(r->h, CURLOPT_SSL_VERIFYPEER, 0L);
		curl_easy_setopt(r->h, CURLOPT_SSL_VERIFYHOST, 0L);
		return 0;
	}
	curl_easy_setopt(r->h, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(r->h, CURLOPT_SSL_VERIFYHOST, 2L);
	if (!rc_inv_str(dev->rest.ca_file)[0])
		return 0; /* the system's trust store */
	if (rc_expand_home(dev->rest.ca_file, ca, sizeof(ca)))
		return rc_errf(err, ENAMETOOLONG, "'%s': ca_file path is too long", r->dev);
	if (access(ca, R_OK) != 0)
		return rc_errf(err, errno, "'%s': cannot read CA file '%s': %s", r->dev, ca,
			       strerror(errno));
	if (curl_easy_setopt(r->h, CURLOPT_CAINFO, ca))
		return rc_errf(err, ENOMEM, "'%s': cannot set the CA file", r->dev);
	return 0;
}

static void set_common(struct rc_rest *r)
{
	long t = (long)r->timeout_ms;

	curl_easy_setopt(r->h, CURLOPT_NOSIGNAL, 1L); /* threads: no SIGALRM for DNS */
	curl_easy_setopt(r->h, CURLOPT_PROTOCOLS_STR, "https");
	curl_easy_setopt(r->h, CURLOPT_FOLLOWLOCATION, 0L);
	/* the inventory's address is the whole truth: no proxy from the environment */
	curl_easy_setopt(r->h, CURLOPT_PROXY, "");
	curl_easy_setopt(r->h, CURLOPT_TIMEOUT_MS, t);
	curl_easy_setopt(r->h, CURLOPT_CONNECTTIMEOUT_MS, t);
	curl_easy_setopt(r->h, CURLOPT_TCP_KEEPALIVE, 1L);
	curl_easy_setopt(r->h, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)RC_REST_BODY_MAX);
	curl_easy_setopt(r->h, CURLOPT_USERAGENT, "rocectl/" ROCECTL_VERSION);
	curl_easy_setopt(r->h, CURLOPT_ERRORBUFFER, r->errbuf);
}

int rc_rest_open(const struct rc_device *dev, const struct rc_run_opts *opts, const char *base,
		 uint16_t default_port, struct rc_rest **out, struct rc_err *err)
{
	unsigned port = dev->rest.port ? dev->rest.port : default_port;
	bool v6 = strchr(dev->address, ':') != NULL;
	struct rc_rest *r;
	int rc;

	*out = NULL;
	if (!address_is_safe(dev->address))
		return rc_errf(err, EINVAL, "'%s': address '%s' is not a host name or IP address",
			       dev->name, dev->address);
	if (!base_is_safe(base))
		return rc_errf(err, EINVAL, "'%s': bad API base path", dev->name);
	pthread_once(&curl_once, curl_global);
	if (curl_init_rc != CURLE_OK)
		return rc_errf(err, EIO, "cannot initialize libcurl: %s",
			       curl_easy_strerror(curl_init_rc));
	r = calloc(1, sizeof(*r));
	if (!r)
		return rc_errf(err, ENOMEM, "out of memory");
	pthread_mutex_init(&r->lock, NULL);
	snprintf(r->dev, sizeof(r->dev), "%s", dev->name);
	snprintf(r->user, sizeof(r->user), "%s", dev->cred.user);
	snprintf(r->base, sizeof(r->base), "https://%s%s%s:%u%s", v6 ? "[" : "", dev->address,
		 v6 ? "]" : "", port ? port : 443, base);
	if (opts && opts->snapshot) {
		/* no connection: snapshot.c answers (rc_rest_request) */
		r->snapshot = opts->snapshot;
		r->verbose = opts->verbose;
		*out = r;
		return 0;
	}
	r->tap = opts ? opts->tap : NULL;
	r->verbose = opts && opts->verbose;
	r->timeout_ms = dev->rest.timeout_ms		   ? dev->rest.timeout_ms
			: opts && opts->default_timeout_ms ? opts->default_timeout_ms
							   : DEFAULT_TIMEOUT_MS;
	r->h = curl_easy_init();
	r->hdr_json = curl_slist_append(NULL, "Accept: application/json");
	r->hdr_json = curl_slist_append(r->hdr_json, "Content-Type: application/json");
	r->hdr_json = curl_slist_append(r->hdr_json, "Expect:");
	r->hdr_plain = curl_slist_append(NULL, "Accept: application/json");
	r->hdr_plain = curl_slist_append(r->hdr_plain, "Expect:");
	if (!r->h || !r->hdr_json || !r->hdr_plain) {
		rc = rc_errf(err, ENOMEM, "out of memory");
		goto fail;
	}
	set_common(r);
	rc = set_tls(r, dev, err);
	if (!rc)
		rc = set_auth(r, dev, err);
	if (rc)
		goto fail;
	*out = r;
	return 0;
fail:
	rc_rest_close(r);
	return rc;
}

struct sink {
	char *buf;
	size_t len, cap;
	bool oversize;
};

static size_t sink_write(char *data, size_t size, size_t nmemb, void *ud)
{
	struct sink *s = ud;
	size_t n = size * nmemb;

	if (s->len + n > RC_REST_BODY_MAX) {
		s->oversize = true;
		return 0;
	}
	if (s->len + n + 1 > s->cap) {
		size_t cap = s->cap ? s->cap : 8192;
		char *nb;

		while (cap < s->len + n + 1)
			cap *= 2;
		nb = realloc(s->buf, cap);
		if (!nb)
			return 0;
		s->buf = nb;
		s->cap = cap;
	}
	memcpy(s->buf + s->len, data, n);
	s->len += n;
	s->buf[s->len] = '\0';
	return n;
}

static bool idempotent(const char *method)
{
	return !strcmp(method, "GET") || !strcmp(method, "HEAD") || !strcmp(method, "PUT") ||
	       !strcmp(method, "DELETE") || !strcmp(method, "OPTIONS");
}

static bool retryable(CURLcode c, long status)
{
	switch (c) {
	case CURLE_OK:
		return status == 502 || status == 503 || status == 504;
	case CURLE_COULDNT_CONNECT:
	case CURLE_SEND_ERROR:
	case CURLE_RECV_ERROR:
	case CURLE_GOT_NOTHING:
	case CURLE_PARTIAL_FILE:
		return true;
	default: /* timeouts, TLS and auth failures do not get better by asking again */
		return false;
	}
}

static void prepare(struct rc_rest *r, const char *method, const char *url, const char *body,
		    size_t body_len, const char *content_type, struct sink *s)
{
	CURL *h = r->h;

	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_HTTPGET, 1L); /* resets method and body of the last one */
	curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, NULL);
	curl_easy_setopt(h, CURLOPT_NOBODY, 0L);
	if (body || strcmp(method, "GET")) {
		if (body) {
			curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
			curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body_len);
		}
		if (!strcmp(method, "POST") && !body) {
			/* the size of the last request's body would otherwise stay: curl would
			 * read that many bytes of "" */
			curl_easy_setopt(h, CURLOPT_POSTFIELDS, "");
			curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)0);
		}
		if (strcmp(method, "POST") && strcmp(method, "GET"))
			curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method);
	}
	if (content_type && strcmp(content_type, "application/json")) {
		/* a dialect with its own type (eAPI's application/json-rpc) */
		char ct[96];
		struct curl_slist *l;

		snprintf(ct, sizeof(ct), "Content-Type: %s", content_type);
		l = curl_slist_append(NULL, "Accept: application/json");
		l = l ? curl_slist_append(l, "Expect:") : NULL;
		l = l ? curl_slist_append(l, ct) : NULL;
		curl_easy_setopt(h, CURLOPT_HTTPHEADER, l ? l : r->hdr_json);
		curl_slist_free_all(r->hdr_custom); /* no longer referenced by the handle */
		r->hdr_custom = l;
	} else {
		curl_easy_setopt(h, CURLOPT_HTTPHEADER, body ? r->hdr_json : r->hdr_plain);
	}
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, sink_write);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, s);
}

static int transport_error(struct rc_rest *r, CURLcode c, const char *method, const char *url,
			   const struct sink *s, struct rc_err *err)
{
	const char *why = r->errbuf[0] ? r->errbuf : curl_easy_strerror(c);

	switch (c) {
	case CURLE_OPERATION_TIMEDOUT:
		return rc_errf(err, ETIMEDOUT, "%s %s on '%s' timed out after %us", method, url,
			       r->dev, (r->timeout_ms + 999) / 1000);
	case CURLE_PEER_FAILED_VERIFICATION:
#if LIBCURL_VERSION_NUM < 0x073e00
	case CURLE_SSL_CACERT:
#endif
		return rc_errf(err, EPERM,
			       "TLS certificate of '%s' (%s) is not trusted: %s; refusing to "
			       "talk to it (check rest.ca_file)",
			       r->dev, url, why);
	case CURLE_SSL_CACERT_BADFILE:
		return rc_errf(err, EINVAL, "'%s': cannot use the CA file: %s", r->dev, why);
	case CURLE_COULDNT_CONNECT:
	case CURLE_COULDNT_RESOLVE_HOST:
		return rc_errf(err, EHOSTUNREACH, "cannot connect to '%s' (%s): %s", r->dev, url,
			       why);
	case CURLE_FILESIZE_EXCEEDED:
		return rc_errf(err, EFBIG, "answer of '%s' to %s %s exceeds %u bytes", r->dev,
			       method, url, RC_REST_BODY_MAX);
	case CURLE_WRITE_ERROR:
		if (s->oversize)
			return rc_errf(err, EFBIG, "answer of '%s' to %s %s exceeds %u bytes",
				       r->dev, method, url, RC_REST_BODY_MAX);
		return rc_errf(err, ENOMEM, "out of memory");
	default:
		return rc_errf(err, EIO, "%s %s on '%s' failed: %s", method, url, r->dev, why);
	}
}

static int rest_request_raw(struct rc_rest *r, const char *method, const char *path,
			    const char *body, size_t body_len, const char *content_type,
			    struct rc_rest_response *resp, struct rc_err *err);

/* --snapshot: GET answered from the file of "GET path", an eAPI read from its commands'
 * files; anything else is refused. */
static int snapshot_request(struct rc_rest *r, const char *method, const char *path,
			    const char *body, size_t body_len, struct rc_rest_response *resp,
			    struct rc_err *err)
{
	char req[1100];
	int rc;

	memset(resp, 0, sizeof(*resp));
	if (!rc_tap_read_only_http(method, path, body, body_len))
		return rc_errf(err, EPERM, "'%s': a snapshot answers reads only: refusing %s %s",
			       r->dev, method, path);
	snprintf(req, sizeof(req), "%s %s", method, path);
	if (r->verbose)
		rc_verbose_log(r->dev, "snapshot", req, body, body_len);
	if (!strcmp(method, "POST"))
		rc = rc_snapshot_eapi(r->snapshot, r->dev, body, body_len, &resp->body, &resp->len,
				      err);
	else
		rc = rc_snapshot_answer(r->snapshot, r->dev, req, &resp->body, &resp->len, err);
	if (!rc)
		resp->status = 200;
	return rc;
}

/* With a capture tap: only read-only requests are sent, and each answer is recorded. */
int rc_rest_request(struct rc_rest *r, const char *method, const char *path, const char *body,
		    size_t body_len, const char *content_type, struct rc_rest_response *resp,
		    struct rc_err *err)
{
	char req[1100];
	int rc;

	if (r->snapshot)
		return snapshot_request(r, method, path, body, body_len, resp, err);
	if (r->tap && !rc_tap_read_only_http(method, path, body, body_len)) {
		memset(resp, 0, sizeof(*resp));
		return rc_errf(err, EPERM, "'%s': capture refuses to send %s %s: not read-only",
			       r->dev, method, path);
	}
	snprintf(req, sizeof(req), "%s %s", method, path);
	if (r->verbose)
		rc_verbose_log(r->dev, "https", req, body, body_len);
	rc = rest_request_raw(r, method, path, body, body_len, content_type, resp, err);
	if (!rc && r->tap) {
		rc_tap_record(r->tap, req, body, body_len, resp->body, resp->len);
	}
	return rc;
}

static int rest_request_raw(struct rc_rest *r, const char *method, const char *path,
			    const char *body, size_t body_len, const char *content_type,
			    struct rc_rest_response *resp, struct rc_err *err)
{
	int attempts = idempotent(method) ? RC_REST_ATTEMPTS : 1;
	char url[sizeof(r->base) + 1024];
	struct sink s = {0};
	CURLcode c = CURLE_OK;
	long status = 0;
	bool cut = false;
	int rc = 0;

	memset(resp, 0, sizeof(*resp));
	if ((size_t)snprintf(url, sizeof(url), "%s%s", r->base, path) >= sizeof(url))
		return rc_errf(err, ENAMETOOLONG, "'%s': URL too long", r->dev);
	pthread_mutex_lock(&r->lock);
	for (int i = 0; i < attempts; i++) {
		long t;

		if (i)
			rc_sleep_ms(BACKOFF_MS << (i - 1));
		t = (long)rc_deadline_clamp_ms(r->timeout_ms, &cut);
		if (!t) {
			c = CURLE_OPERATION_TIMEDOUT;
			break;
		}
		curl_easy_setopt(r->h, CURLOPT_TIMEOUT_MS, t);
		curl_easy_setopt(r->h, CURLOPT_CONNECTTIMEOUT_MS, t);
		free(s.buf);
		memset(&s, 0, sizeof(s));
		r->errbuf[0] = '\0';
		status = 0;
		prepare(r, method, url, body, body_len, content_type, &s);
		c = curl_easy_perform(r->h);
		if (c == CURLE_OK)
			curl_easy_getinfo(r->h, CURLINFO_RESPONSE_CODE, &status);
		if (!retryable(c, status))
			break;
	}
	if (c == CURLE_OPERATION_TIMEDOUT && cut) {
		rc = rc_errf(err, ETIMEDOUT,
			     "%s %s on '%s' was cut by the device's deadline (%us "
			     "for the whole read)",
			     method, url, r->dev, (rc_deadline_length_ms() + 999) / 1000);
		free(s.buf);
	} else if (c != CURLE_OK) {
		rc = transport_error(r, c, method, url, &s, err);
		free(s.buf);
	} else {
		resp->status = status;
		resp->body = s.buf ? s.buf : calloc(1, 1);
		resp->len = s.len;
		if (!resp->body)
			rc = rc_errf(err, ENOMEM, "out of memory");
	}
	pthread_mutex_unlock(&r->lock);
	return rc;
}

void rc_rest_response_free(struct rc_rest_response *resp)
{
	free(resp->body);
	resp->body = NULL;
	resp->len = 0;
}

/* A device-supplied message, made printable and short. */
static void clean_text(const char *in, size_t in_len, char *out, size_t len)
{
	size_t o = 0;

	for (size_t i = 0; i < in_len && o + 4 < len; i++) {
		unsigned char ch = (unsigned char)in[i];

		out[o++] = (ch >= 0x20 && ch < 0x7f) ? (char)ch : ' ';
	}
	if (o + 4 >= len && o >= 3)
		memcpy(out + o - 3, "...", 3);
	out[o] = '\0';
}

static void body_message(const cJSON *j, const struct rc_rest_response *resp, char *buf, size_t len)
{
	static const char *const keys[] = {"message", "detail", "title", "error"};

	buf[0] = '\0';
	for (size_t i = 0; j && cJSON_IsObject(j) && i < sizeof(keys) / sizeof(keys[0]); i++) {
		const cJSON *m = cJSON_GetObjectItemCaseSensitive(j, keys[i]);

		if (cJSON_IsString(m) && m->valuestring[0]) {
			clean_text(m->valuestring, strlen(m->valuestring), buf, len);
			return;
		}
	}
	clean_text(resp->body, resp->len < 200 ? resp->len : 200, buf, len);
}

static bool status_ok(long status, const long *ok)
{
	if (status >= 200 && status < 300)
		return true;
	for (; ok && *ok; ok++)
		if (*ok == status)
			return true;
	return false;
}

int rc_rest_json(struct rc_rest *r, const char *method, const char *path, const struct cJSON *body,
		 const long *ok_statuses, long *status, struct cJSON **json, struct rc_err *err)
{
	struct rc_rest_response resp;
	char url[sizeof(r->base) + 1024], msg[240];
	char *text = NULL;
	cJSON *j = NULL;
	int rc;

	if (json)
		*json = NULL;
	if (body) {
		text = cJSON_PrintUnformatted(body);
		if (!text)
			return rc_errf(err, ENOMEM, "out of memory");
	}
	rc = rc_rest_request(r, method, path, text, text ? strlen(text) : 0, "application/json",
			     &resp, err);
	free(text);
	if (rc)
		return rc;
	rc_rest_url(r, path, url, sizeof(url));
	if (status)
		*status = resp.status;
	if (resp.len) {
		const char *end = NULL;

		j = cJSON_ParseWithLengthOpts(resp.body, resp.len, &end, 0);
		if (!j && status_ok(resp.status, ok_statuses)) {
			size_t at = end && end >= resp.body ? (size_t)(end - resp.body) : 0;

			rc = rc_errf(err, EPROTO,
				     "cannot parse the JSON answer of '%s' to %s %s (HTTP %ld): "
				     "invalid at byte %zu of %zu",
				     r->dev, method, url, resp.status, at, resp.len);
			goto out;
		}
	}
	if (!status_ok(resp.status, ok_statuses)) {
		body_message(j, &resp, msg, sizeof(msg));
		if (resp.status == 401)
			rc = rc_errf(err, EACCES,
				     "authentication to '%s' as '%s' failed (HTTP 401 "
				     "to %s %s)",
				     r->dev, r->user[0] ? r->user : "(none)", method, url);
		else if (resp.status == 403)
			rc = rc_errf(err, EACCES, "'%s' refused %s %s (HTTP 403)%s%s", r->dev,
				     method, url, msg[0] ? ": " : "", msg);
		else
			rc = rc_errf(err, EIO, "'%s' answered HTTP %ld to %s %s%s%s", r->dev,
				     resp.status, method, url, msg[0] ? ": " : "", msg);
		goto out;
	}
	if (json) {
		*json = j;
		j = NULL;
	}
out:
	cJSON_Delete(j);
	rc_rest_response_free(&resp);
	return rc;
}

void rc_rest_close(struct rc_rest *r)
{
	if (!r)
		return;
	if (r->h)
		curl_easy_cleanup(r->h);
	curl_slist_free_all(r->hdr_json);
	curl_slist_free_all(r->hdr_plain);
	curl_slist_free_all(r->hdr_custom);
	pthread_mutex_destroy(&r->lock);
	free(r);
}
