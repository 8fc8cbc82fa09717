/* SPDX-License-Identifier: Apache-2.0 */
/* The per-device blocks of an inventory.  Values inherit: built-in defaults, then
 * `defaults:`, then the device's own block, key by key. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rocectl/units.h"
#include "rocectl/util.h"
#include "yaml_device.h"

static const char *const ssh_keys[] = {
    "user", "port", "identity_file", "known_hosts", "connect_timeout", "command_timeout", NULL};
static const char *const rest_keys[] = {"ca_file", "timeout", "insecure", "port", NULL};
static const char *const cred_keys[] = {"user", "password_file", "password_env", "identity_file",
					NULL};
static const char *const ov_keys[] = {"ecn", "headroom", "tolerance", NULL};
static const char *const ov_ecn_keys[] = {"min_threshold", "max_threshold", "probability",
					  "enabled", NULL};
static const char *const ov_headroom_keys[] = {"cable_length", "size", "mtu", NULL};
static const char *const ov_tolerance_keys[] = {"threshold", NULL};

#define TIMEOUT_MAX_MS 3600000 /* an hour: anything longer is a typo */

static struct rc_pos pos_of(const struct yd_node *n)
{
	return (struct rc_pos){n ? n->line : 0, n ? n->col : 0};
}

static int read_user(struct yw *w, const struct yw_map *m, char *out)
{
	const struct yd_node *n = yw_get(m, "user");
	char path[YW_PATH_MAX];
	int rc = yw_f_str(w, m, "user", out, RC_NAME_MAX);

	if (rc != 1)
		return rc;
	if (!rc_user_is_safe(out)) {
		yw_join(path, m->path, "user");
		return yw_fail(w, n,
			       "%s: '%s' is not a safe login name (letters, digits, '.', '_', '-'; "
			       "at most 32)",
			       path, out);
	}
	return 1;
}

/* A path or name of the device, read as yw_f_path/yw_f_str would (`is_path`) and kept
 * once in the inventory's pool (include/rocectl/inventory.h, "Strings"); 1 = read, 0 =
 * absent (out keeps the inherited value), < 0 = error. */
static int f_interned(struct yw *w, const struct yw_map *m, const char *key, bool is_path,
		      struct rc_strpool *pool, const char **out)
{
	char buf[RC_INV_PATH_MAX];
	int rc = is_path ? yw_f_path(w, m, key, buf, sizeof(buf))
			 : yw_f_str(w, m, key, buf, RC_NAME_MAX);

	if (rc != 1)
		return rc;
	*out = rc_strpool_intern(pool, buf);
	if (!*out)
		return yw_fail(w, yw_get(m, key), "out of memory");
	return 1;
}

static int read_port(struct yw *w, const struct yw_map *m, uint16_t *port)
{
	uint64_t v;
	int rc = yw_f_uint(w, m, "port", 1, 65535, &v);

	if (rc == 1)
		*port = (uint16_t)v;
	return rc;
}

int ydev_read_ssh(struct yw *w, const struct yw_map *m, const char *key, struct rc_strpool *pool,
		  struct rc_ssh_opts *out)
{
	struct yw_map s;
	int rc = yw_f_map(w, m, key, ssh_keys, &s);

	if (rc <= 0)
		return rc;
	if (read_user(w, &s, out->user) < 0 || read_port(w, &s, &out->port) < 0 ||
	    f_interned(w, &s, "identity_file", true, pool, &out->identity_file) < 0 ||
	    f_interned(w, &s, "known_hosts", true, pool, &out->known_hosts) < 0 ||
	    yw_f_ms(w, &s, "connect_timeout", TIMEOUT_MAX_MS, &out->connect_timeout_ms) < 0 ||
	    yw_f_ms(w, &s, "command_timeout", TIMEOUT_MAX_MS, &out->command_timeout_ms) < 0)
		return -EINVAL;
	return 0;
}

int ydev_read_rest(struct yw *w, const struct yw_map *m, const char *key, struct rc_strpool *pool,
		   struct rc_rest_opts *out, struct rc_warnings *warn)
{
	struct yw_map s;
	int rc = yw_f_map(w, m, key, rest_keys, &s);
	const struct yd_node *ins;

	if (rc <= 0)
		return rc;
	if (f_interned(w, &s, "ca_file", true, pool, &out->ca_file) < 0 ||
	    yw_f_ms(w, &s, "timeout", TIMEOUT_MAX_MS, &out->timeout_ms) < 0 ||
	    yw_f_bool(w, &s, "insecure", &out->insecure) < 0 || read_port(w, &s, &out->port) < 0)
		return -EINVAL;
	ins = yw_get(&s, "insecure");
	if (ins && out->insecure)
		rc_warn_add(warn, w->file, ins->line, ins->col,
			    "%s.insecure is true: TLS certificates are not checked, anyone on the "
			    "path can read the credentials",
			    s.path);
	return 0;
}

int ydev_read_credentials(struct yw *w, const struct yw_map *m, const char *key,
			  struct rc_strpool *pool, struct rc_credentials *out)
{
	const struct yd_node *env;
	char path[YW_PATH_MAX];
	struct yw_map s;
	int rc = yw_f_map(w, m, key, cred_keys, &s);

	if (rc <= 0)
		return rc;
	if (read_user(w, &s, out->user) < 0 ||
	    f_interned(w, &s, "password_file", true, pool, &out->password_file) < 0 ||
	    f_interned(w, &s, "password_env", false, pool, &out->password_env) < 0 ||
	    f_interned(w, &s, "identity_file", true, pool, &out->identity_file) < 0)
		return -EINVAL;
	env = yw_get(&s, "password_env");
	if (env && !rc_env_name_is_safe(out->password_env)) {
		yw_join(path, s.path, "password_env");
		return yw_fail(w, env,
			       "%s: '%s' is not an environment variable name (letters, digits, "
			       "'_')",
			       path, out->password_env);
	}
	if (env && yw_get(&s, "password_file")) {
		const struct yd_node *k1 = yw_get_key(&s, "password_file");
		const struct yd_node *k2 = yw_get_key(&s, "password_env");
		const struct yd_node *later =
		    k1->line > k2->line || (k1->line == k2->line && k1->col > k2->col) ? k1 : k2;

		return yw_fail(w, later, "%s: give password_file or password_env, not both",
			       s.path);
	}
	/* The other of the pair is no longer inherited. */
	if (env)
		out->password_file = NULL;
	else if (yw_get(&s, "password_file"))
		out->password_env = NULL;
	return 0;
}

static int read_ov_ecn(struct yw *w, const struct yw_map *o, struct rc_overrides *ov)
{
	struct yw_map e;
	char path[YW_PATH_MAX];
	int rc = yw_f_map(w, o, "ecn", ov_ecn_keys, &e);

	if (rc <= 0)
		return rc;
	if ((rc = yw_f_size(w, &e, "min_threshold", &ov->ecn_kmin_bytes)) < 0)
		return rc;
	ov->has_ecn_kmin = rc == 1;
	if ((rc = yw_f_size(w, &e, "max_threshold", &ov->ecn_kmax_bytes)) < 0)
		return rc;
	ov->has_ecn_kmax = rc == 1;
	if ((rc = yw_f_percent(w, &e, "probability", &ov->ecn_pmax_pct)) < 0)
		return rc;
	ov->has_ecn_pmax = rc == 1;
	if ((rc = yw_f_bool(w, &e, "enabled", &ov->ecn_enabled)) < 0)
		return rc;
	ov->has_ecn_enabled = rc == 1;
	ov->ecn_kmin_pos = pos_of(yw_get(&e, "min_threshold"));
	ov->ecn_kmax_pos = pos_of(yw_get(&e, "max_threshold"));
	ov->ecn_pmax_pos = pos_of(yw_get(&e, "probability"));
	ov->ecn_enabled_pos = pos_of(yw_get(&e, "enabled"));
	if (ov->has_ecn_kmin && ov->has_ecn_kmax && ov->ecn_kmin_bytes >= ov->ecn_kmax_bytes) {
		char a[32], b[32];

		rc_format_size(ov->ecn_kmin_bytes, a, sizeof(a));
		rc_format_size(ov->ecn_kmax_bytes, b, sizeof(b));
		yw_join(path, e.path, "min_threshold");
		return yw_fail(w, yw_get(&e, "min_threshold"),
			       "%s (%s) must be below %s.max_threshold (%s)", path, a, e.path, b);
	}
	if (ov->has_ecn_pmax && !(ov->ecn_pmax_pct > 0 && ov->ecn_pmax_pct <= 100)) {
		yw_join(path, e.path, "probability");
		return yw_fail(w, yw_get(&e, "probability"),
			       "%s (%g%%) must be above 0%% and at most 100%%", path,
			       ov->ecn_pmax_pct);
	}
	return 0;
}

static int read_ov_headroom(struct yw *w, const struct yw_map *o, struct rc_overrides *ov)
{
	struct yw_map h;
	char path[YW_PATH_MAX];
	uint64_t mtu;
	int rc = yw_f_map(w, o, "headroom", ov_headroom_keys, &h);

	if (rc <= 0)
		return rc;
	if ((rc = yw_f_length(w, &h, "cable_length", &ov->cable_length_m)) < 0)
		return rc;
	ov->has_cable_length = rc == 1;
	if ((rc = yw_f_size(w, &h, "size", &ov->headroom_size_bytes)) < 0)
		return rc;
	ov->has_headroom_size = rc == 1;
	if ((rc = yw_f_uint(w, &h, "mtu", RC_MTU_MIN, RC_MTU_MAX, &mtu)) < 0)
		return rc;
	ov->has_mtu = rc == 1;
	ov->mtu = (uint32_t)mtu;
	ov->cable_length_pos = pos_of(yw_get(&h, "cable_length"));
	ov->headroom_size_pos = pos_of(yw_get(&h, "size"));
	ov->mtu_pos = pos_of(yw_get(&h, "mtu"));
	if (ov->has_cable_length && ov->cable_length_m > RC_CABLE_MAX_M) {
		yw_join(path, h.path, "cable_length");
		return yw_fail(w, yw_get(&h, "cable_length"),
			       "%s (%um) must be between 1m and 100km", path, ov->cable_length_m);
	}
	if (ov->has_headroom_size && ov->headroom_size_bytes == 0) {
		yw_join(path, h.path, "size");
		return yw_fail(w, yw_get(&h, "size"), "%s: must be above 0", path);
	}
	return 0;
}

int ydev_read_overrides(struct yw *w, const struct yw_map *m, const char *key,
			struct rc_overrides *ov)
{
	struct yw_map o, t;
	char path[YW_PATH_MAX];
	int rc = yw_f_map(w, m, key, ov_keys, &o);

	if (rc <= 0)
		return rc;
	ov->pos = pos_of(o.node);
	if (read_ov_ecn(w, &o, ov) < 0 || read_ov_headroom(w, &o, ov) < 0)
		return -EINVAL;
	rc = yw_f_map(w, &o, "tolerance", ov_tolerance_keys, &t);
	if (rc < 0)
		return rc;
	if (rc == 1) {
		rc = yw_f_percent(w, &t, "threshold", &ov->tolerance_pct);
		if (rc < 0)
			return rc;
		ov->has_tolerance = rc == 1;
		ov->tolerance_pos = pos_of(yw_get(&t, "threshold"));
		if (ov->has_tolerance && ov->tolerance_pct > RC_TOLERANCE_MAX_PCT) {
			yw_join(path, t.path, "threshold");
			return yw_fail(w, yw_get(&t, "threshold"),
				       "%s (%g%%) must be between 0%% and 50%%", path,
				       ov->tolerance_pct);
		}
	}
	return 0;
}

int ydev_read_cable_rows(struct yw *w, const struct yw_map *m, const char *key,
			 struct rc_device *out)
{
	const struct yd_node *list;
	char path[YW_PATH_MAX];
	int rc = yw_f_seq(w, m, key, &list);

	if (rc <= 0)
		return rc;
	yw_join(path, m->path, key);
	if (!list->n || list->n > RC_CABLE_ROWS_MAX)
		return yw_fail(w, list, "%s: expected 1 to %d cable lengths, got %zu", path,
			       RC_CABLE_ROWS_MAX, list->n);
	for (size_t i = 0; i < list->n; i++) {
		uint32_t v;

		snprintf(path, sizeof(path), "%s%s%s[%zu]", m->path, *m->path ? "." : "", key, i);
		if (yw_length(w, list->kids[i], path, &v) < 0)
			return -EINVAL;
		if (v < RC_CABLE_MIN_M || v > RC_CABLE_MAX_M)
			return yw_fail(w, list->kids[i], "%s (%um) must be between 1m and 100km",
				       path, v);
		if (i && v <= out->cable_rows_m[i - 1])
			return yw_fail(w, list->kids[i],
				       "%s (%um) must be longer than the row before it (%um): "
				       "list the rows in ascending order, each once",
				       path, v, out->cable_rows_m[i - 1]);
		out->cable_rows_m[i] = v;
	}
	out->n_cable_rows = list->n;
	return 0;
}
