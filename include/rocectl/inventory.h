/* SPDX-License-Identifier: Apache-2.0 */
/* The inventory: which hosts and switches, how to reach them, how they are linked
 * (docs/INVENTORY.md). */
#ifndef ROCECTL_INVENTORY_H
#define ROCECTL_INVENTORY_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rocectl/err.h"
#include "rocectl/model.h"
#include "rocectl/policy.h"

enum rc_dev_kind {
	RC_DEV_HOST = 0,
	RC_DEV_SWITCH = 1,
};

enum rc_platform {
	RC_PLAT_HOST = 0, /* Linux host, rocectl agent */
	RC_PLAT_NVUE,
	RC_PLAT_SONIC,
	RC_PLAT_EOS,
};

enum rc_transport {
	RC_TRANSPORT_LOCAL = 0, /* the agent on this machine */
	RC_TRANSPORT_SSH,
	RC_TRANSPORT_REST,
};

/* Fabric tier, for apply order: spines first, then leaves, then hosts. */
enum rc_role {
	RC_ROLE_HOST = 0,
	RC_ROLE_LEAF,
	RC_ROLE_SPINE,
};

/* Paths an inventory names (keys, known_hosts, CA, secrets).  Not PATH_MAX: a device holds
 * five of them, and at PATH_MAX they were 20 KB per device, most of a 10,000-device
 * inventory's memory (bench/README.md); a longer path is refused by the loader with its position
 * ("expected a shorter path"). */
#define RC_INV_PATH_MAX 256

/* Strings: the paths, the password variable and the agent command of a device are
 * pointers, not arrays: most devices share them (given once in `defaults:`), and the loader
 * keeps one copy of each in the inventory's pool (struct rc_strpool, freed by
 * rc_inventory_fini), which took a struct rc_device from 2.2 KB to about 0.8 KB.  NULL and ""
 * both mean "not given" (a device built by hand leaves them NULL); rc_inv_str reads either
 * as "".  The loader caps a path at RC_INV_PATH_MAX - 1 bytes as before. */
static inline const char *rc_inv_str(const char *s)
{
	return s ? s : "";
}

struct rc_ssh_opts {
	char user[RC_NAME_MAX];
	uint16_t port;
	const char *identity_file; /* see "Strings" above */
	const char *known_hosts;
	uint32_t connect_timeout_ms;
	uint32_t command_timeout_ms;
};

struct rc_rest_opts {
	const char *ca_file;
	uint32_t timeout_ms;
	uint16_t port; /* 0 = 443 */
	bool insecure; /* explicit only; warned on every run */
};

/* Secrets are references only: a file to read or an environment variable to look up.
 * Empty strings are "not given" (user "" = ssh.user). */
struct rc_credentials {
	char user[RC_NAME_MAX];
	const char *password_file;
	const char *password_env;
	const char *identity_file; /* overrides ssh.identity_file */
};

/* Per-device policy overrides: the subset of policy fields a device may change. */
struct rc_overrides {
	bool has_ecn_kmin, has_ecn_kmax, has_ecn_pmax, has_ecn_enabled;
	uint64_t ecn_kmin_bytes, ecn_kmax_bytes;
	double ecn_pmax_pct;
	bool ecn_enabled;
	bool has_cable_length, has_headroom_size, has_mtu;
	uint32_t cable_length_m;
	uint64_t headroom_size_bytes;
	uint32_t mtu;
	bool has_tolerance;
	double tolerance_pct;
	/* Positions in the inventory: of `overrides:` and of each value given. */
	struct rc_pos pos, ecn_kmin_pos, ecn_kmax_pos, ecn_pmax_pos, ecn_enabled_pos,
	    cable_length_pos, headroom_size_pos, mtu_pos, tolerance_pos;
};

#define RC_CABLE_ROWS_MAX 16

/* `proxy_jump:` the SSH jump host (bastion) a device is reached through (docs/INVENTORY.md).
 * host "" = none (no proxy_jump, or `proxy_jump: none` cancelling an inherited one). */
struct rc_jump {
	char user[RC_NAME_MAX]; /* "" = the device's ssh.user, else the local user */
	char host[RC_NAME_MAX];
	uint16_t port;	   /* 22 unless given */
	struct rc_pos pos; /* of the value that set it, for messages */
};

struct rc_device {
	char name[RC_NAME_MAX];
	char address[RC_NAME_MAX];
	enum rc_dev_kind kind;
	enum rc_platform platform;
	enum rc_transport transport;
	enum rc_role role;
	/* The driver by name; empty = chosen from kind, platform and transport (the loader
	 * leaves it empty; tests name a fake driver here). */
	char driver[32];
	/* Switch ports, or host interfaces; n_ports == 0 on a host = every RDMA netdev. */
	size_t n_ports;
	char (*ports)[RC_NAME_MAX];
	struct rc_ssh_opts ssh;
	struct rc_rest_opts rest;
	struct rc_credentials cred;
	struct rc_jump jump;
	struct rc_overrides ov;
	/* Hosts over SSH: how to call rocectl there (`agent_command:`, "sudo -n /opt/bin/rocectl");
	 * empty = "rocectl" from the login's PATH.  Checked by rc_agent_command_is_safe. */
	const char *agent_command;
	/* SONiC: the cable lengths buffermgrd has a lookup row for (`cable_rows:`, ascending),
	 * used when the switch's pg_profile_lookup.ini cannot be read; 0 = not given. */
	size_t n_cable_rows;
	uint32_t cable_rows_m[RC_CABLE_ROWS_MAX];
	struct rc_pos pos; /* where the device's entry starts */
};

struct rc_link_end {
	size_t dev; /* index into devices */
	char port[RC_NAME_MAX];
};

struct rc_link {
	struct rc_link_end a, b;
	uint32_t speed_gbps;	 /* 0 = not given */
	uint32_t cable_length_m; /* 0 = policy default */
	struct rc_pos pos;
	struct rc_pos a_pos, b_pos; /* of the "a" and "b" values */
};

struct rc_inv_index;

struct rc_inventory {
	char file[256];
	size_t n_devices;
	struct rc_device *devices;
	size_t n_links;
	struct rc_link *links;
	/* Private: sorted lookups built by the loader (NULL = linear search, e.g. for an
	 * inventory built by hand in a test).  Freed by rc_inventory_fini. */
	struct rc_inv_index *index;
	struct rc_strpool *strings; /* the devices' strings ("Strings" above) */
};

/* Caps that keep a hostile inventory from allocating without bound (a struct rc_device is
 * about 0.8 KB, its shared strings pooled); 65536 devices cover one inventory of a 100,000-GPU
 * fabric (12,500 hosts and ~4,000 switches, docs/SCALE.md).  Each is reported with its value when
 * exceeded. */
#define RC_INV_MAX_DEVICES     65536
#define RC_INV_MAX_LINKS       262144
#define RC_INV_MAX_PORTS       1024    /* per device */
#define RC_INV_MAX_TOTAL_PORTS 1048576 /* all devices together */

/* Built-in defaults, before `defaults:` (user "" = the transport's default, the local user). */
#define RC_SSH_PORT_DEFAULT		  22
#define RC_SSH_CONNECT_TIMEOUT_MS_DEFAULT 10000
#define RC_SSH_COMMAND_TIMEOUT_MS_DEFAULT 60000
#define RC_REST_TIMEOUT_MS_DEFAULT	  30000

int rc_inventory_load(const char *path, struct rc_inventory *out, struct rc_warnings *warn,
		      struct rc_err *err);
int rc_inventory_load_buffer(const char *name, const char *buf, size_t len,
			     struct rc_inventory *out, struct rc_warnings *warn,
			     struct rc_err *err);
void rc_inventory_fini(struct rc_inventory *inv);
/* _fini releases what the struct holds, not the struct (_free would); the old name is
 * kept for callers not yet renamed. */
static inline void rc_inventory_free(struct rc_inventory *inv)
{
	rc_inventory_fini(inv);
}

/* Lookups; NULL / -1 when absent. */
const struct rc_device *rc_inventory_device(const struct rc_inventory *inv, const char *name);
ptrdiff_t rc_inventory_device_index(const struct rc_inventory *inv, const char *name);
/* The link a device's port is on, or NULL. */
const struct rc_link *rc_inventory_link_of(const struct rc_inventory *inv, size_t dev,
					   const char *port);

/* The policy a device gets: base with the device's overrides applied and re-validated.
 * An error names the device ("device 'spine01': ecn.min_threshold (10MB) must be below
 * ecn.max_threshold (1.5MB)") and carries the line:column of the override but no file name
 * (rc_device does not know it): prefer rc_inventory_policy when you have the inventory. */
int rc_policy_for_device(const struct rc_policy *base, const struct rc_device *dev,
			 struct rc_policy *out, struct rc_err *err);
/* The same for inv->devices[dev]; errors are "inventory.yaml:line:col: device '...': ...". */
int rc_inventory_policy(const struct rc_inventory *inv, size_t dev, const struct rc_policy *base,
			struct rc_policy *out, struct rc_err *err);

const char *rc_platform_name(enum rc_platform p);
const char *rc_transport_name(enum rc_transport t);
const char *rc_role_name(enum rc_role r);

/* An inventory agent_command: "rocectl" or an absolute path of [A-Za-z0-9._/-] (no "..",
 * no "//"), optionally after "sudo -n ", at most 127 characters: it goes into a command
 * line run by the host's shell. */
/* The longest agent_command the loader accepts, NUL included. */
#define RC_AGENT_COMMAND_MAX 128
bool rc_agent_command_is_safe(const char *cmd);
/* Names used inside CLI commands and URLs: [A-Za-z0-9._/-], 1..63 chars, first an
 * alphanumeric.  No spaces, quotes, shell metacharacters or ":" (the link separator). */
bool rc_name_is_safe(const char *name);
/* Device names: as rc_name_is_safe without '/' and without "..": [A-Za-z0-9._-], first an
 * alphanumeric, so that the name is one safe path component. */
bool rc_device_name_is_safe(const char *name);
/* Addresses: IPv4, IPv6 or a DNS name: [A-Za-z0-9.:_-], 1..63, first alphanumeric or ':'. */
bool rc_address_is_safe(const char *addr);
/* Login names: [A-Za-z0-9._-], 1..32, first alphanumeric or '_'. */
bool rc_user_is_safe(const char *user);
/* "none" (out->host "") or [user@]host[:port] with a safe login name, an address as
 * rc_address_is_safe and a port 1..65535; IPv6 with a port in brackets ("[::1]:2222").
 * 0, or -1 with *why saying what is wrong. */
int rc_jump_parse(const char *text, struct rc_jump *out, const char **why);
/* "user@host:port" (IPv6 in brackets), "none" when there is no jump host. */
void rc_jump_format(const struct rc_jump *j, char *buf, size_t len);
/* Environment variable names: [A-Za-z0-9_], not starting with a digit. */
bool rc_env_name_is_safe(const char *name);
/* Network interface names as the kernel accepts them (dev_valid_name): 1..15 bytes,
 * not "." or "..", no '/', ':', whitespace or control bytes. */
bool rc_ifname_is_safe(const char *name);

#endif
