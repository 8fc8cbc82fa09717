/* The inventory: which hosts and switches, how to reach them, how they are linked
 * (POLICY.md "Inventory"). */
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

struct rc_ssh_opts {
	char user[RC_NAME_MAX];
	uint16_t port;
	char identity_file[PATH_MAX];
	char known_hosts[PATH_MAX];
	uint32_t connect_timeout_ms;
	uint32_t command_timeout_ms;
};

struct rc_rest_opts {
	char ca_file[PATH_MAX];
	uint32_t timeout_ms;
	uint16_t port; /* 0 = 443 */
	bool insecure; /* explicit only; warned on every run */
};

/* Secrets are references only: a file to read or an environment variable to look up. */
struct rc_credentials {
	char user[RC_NAME_MAX];
	char password_file[PATH_MAX];
	char password_env[RC_NAME_MAX];
	char identity_file[PATH_MAX]; /* overrides ssh.identity_file */
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
};

struct rc_device {
	char name[RC_NAME_MAX];
	char address[RC_NAME_MAX];
	enum rc_dev_kind kind;
	enum rc_platform platform;
	enum rc_transport transport;
	enum rc_role role;
	/* Switch ports, or host interfaces; n_ports == 0 on a host = every RDMA netdev. */
	size_t n_ports;
	char (*ports)[RC_NAME_MAX];
	struct rc_ssh_opts ssh;
	struct rc_rest_opts rest;
	struct rc_credentials cred;
	struct rc_overrides ov;
	struct rc_pos pos; /* where the device's entry starts */
};

struct rc_link_end {
	size_t dev;  /* index into devices */
	char port[RC_NAME_MAX];
};

struct rc_link {
	struct rc_link_end a, b;
	uint32_t speed_gbps;      /* 0 = not given */
	uint32_t cable_length_m;  /* 0 = policy default */
	struct rc_pos pos;
};

struct rc_inventory {
	char file[256];
	size_t n_devices;
	struct rc_device *devices;
	size_t n_links;
	struct rc_link *links;
};

int rc_inventory_load(const char *path, struct rc_inventory *out, struct rc_warnings *warn,
		      struct rc_err *err);
int rc_inventory_load_buffer(const char *name, const char *buf, size_t len,
			     struct rc_inventory *out, struct rc_warnings *warn, struct rc_err *err);
void rc_inventory_free(struct rc_inventory *inv);

/* Lookups; NULL / -1 when absent. */
const struct rc_device *rc_inventory_device(const struct rc_inventory *inv, const char *name);
ptrdiff_t rc_inventory_device_index(const struct rc_inventory *inv, const char *name);
/* The link a device's port is on, or NULL. */
const struct rc_link *rc_inventory_link_of(const struct rc_inventory *inv, size_t dev,
					   const char *port);

/* The policy a device gets: base with the device's overrides applied and re-validated. */
int rc_policy_for_device(const struct rc_policy *base, const struct rc_device *dev,
			 struct rc_policy *out, struct rc_err *err);

const char *rc_platform_name(enum rc_platform p);
const char *rc_transport_name(enum rc_transport t);
const char *rc_role_name(enum rc_role r);

/* Names used inside CLI commands and URLs: [A-Za-z0-9._/-], 1..63 chars, first an
 * alphanumeric.  No spaces, quotes, shell metacharacters or ":" (the link separator). */
bool rc_name_is_safe(const char *name);

#endif
