/* SPDX-License-Identifier: Apache-2.0 */
/* The driver interface: a table of functions, registered by name ("mlx5", "nvue-ssh",
 * "nvue-rest", "sonic-ssh", "eos-ssh", "eos-eapi").  Drivers translate between the
 * vendor-neutral model and a platform; they never decide what should be. */
#ifndef ROCECTL_DRIVER_H
#define ROCECTL_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rocectl/err.h"
#include "rocectl/inventory.h"
#include "rocectl/model.h"

struct rc_tap;

/* Run-wide options a driver may need. */
struct rc_run_opts {
	const char *root;	   /* sysfs/configfs root prefix, "/" by default */
	bool accept_new_host_keys; /* record unknown SSH host keys (never changed ones) */
	uint32_t default_timeout_ms;
	bool dry_run; /* plan: a driver must not write anything */
	/* RC_F_* groups this run may read and write (`agent --only`); 0 = every group.  A
	 * driver leaves the others alone and reports them as not controllable in this run. */
	uint32_t groups;
	/* `rocectl capture`: the transports record every command and answer here, and refuse
	 * anything that is not read-only (include/rocectl/transport.h).  NULL: no capture. */
	const struct rc_tap *tap;
	/* --snapshot DIR: the transports answer reads from DIR/<device>/ and refuse writes
	 * (include/rocectl/transport.h, docs/SNAPSHOT.md).  NULL: the network. */
	const char *snapshot;
	/* -v: the transports print each command and request to stderr before sending it,
	 * secrets redacted (rc_redact, include/rocectl/transport.h). */
	bool verbose;
	/* apply/enforce --confirm (include/rocectl/confirm.h): a switch whose platform has a
	 * timed commit of its own applies with it, rolling back by itself after
	 * rc_confirm_device_seconds(confirm_s) unless `confirm` (below) keeps it, and saves
	 * nothing to startup until then.  0: no commit-confirm. */
	uint32_t confirm_s;
	/* The re-read after such an apply: running != startup is expected until the confirm
	 * saves, so a driver does not report it as drift. */
	bool timed_commit_pending;
	/* `rollback RUN` of a finished run: a switch driver's writes save the configuration
	 * (what a reload boots) only when the session's first read found it equal to the
	 * running one.  A change nobody saved was pending then; saving the restored running
	 * configuration would make it permanent (struct rc_driver.found_unsaved). */
	bool save_only_if_saved;
	/* `rollback RUN` of a run that ended, from the snapshots it kept
	 * (include/rocectl/run_snap.h): what is staged or pending on the device now is not the
	 * run's (a native restore drops only what its snapshot names as the run's own).  A
	 * driver whose snapshot holds the saved configuration puts it back from there; one
	 * whose snapshot does not (NVUE saves only the applied configuration) saves as with
	 * save_only_if_saved. */
	bool undo_finished;
	/* --save-pending: a run writes (and saves) an NVUE switch whose applied configuration
	 * differs from its startup one, saving that pending change along with its own; without
	 * it such a switch is not written (drivers/switch/nvue.c, refuse_unsaved). */
	bool save_pending;
	/* The run will ask the session for the device's LLDP neighbours right after its read
	 * (`verify`): a driver that can fold them into the read's own command line does, and
	 * its `neighbors` then answers from what the read kept, without a second round trip
	 * (drivers/switch/nvue.c, sonic.c; not under `capture` or --snapshot, whose files hold
	 * one command each).  Without it, `neighbors` asks the device itself. */
	bool read_neighbors;
	/* Likewise for `counters` after the read (verify --counters; drivers/switch/nvue.c). */
	bool read_counters;
	/* `verify`, and `plan` without --gcu-dry-run: the platform is asked for no dry run of a
	 * change (SONiC's GCU probes of which lossless tables it changes live, and its verdict
	 * on the plan's patch: drivers/switch/sonic.c, sonic_notes.c), so that a device is read
	 * with its one command line.  apply still asks them. */
	bool no_platform_dry_runs;
};

/* What apply gets for one port: the groups in `fields` must be made equal to `want`. */
struct rc_port_write {
	const char *port;
	const struct port_qos *want;
	const struct port_qos *have; /* as read just before */
	uint32_t fields;	     /* RC_F_* groups to write */
};

/* One counter: named by meaning, with the platform's source field kept. */
struct rc_counter {
	char port[RC_NAME_MAX];
	char name[48];	 /* "pfc_pause_rx[3]", "ecn_marked", "cnp_sent", "out_of_buffer", ... */
	char source[96]; /* "ethtool:rx_prio3_pause", "hw_counters:np_cnp_sent", ... */
	uint64_t value;
	bool is_drop; /* a non-zero value means packets were lost */
	/* An optional counter the device has but keeps switched off (mlx5's cc_* and
	 * rdma_*_packets until `rdma statistic set ... optional-counters`): no value, and
	 * never shown as zero.  `source` says how to enable it. */
	bool not_enabled;
};

struct rc_counters {
	size_t n, cap;
	struct rc_counter *v;
};

int rc_counters_add(struct rc_counters *c, const char *port, const char *name, const char *source,
		    uint64_t value, bool is_drop);
void rc_counters_fini(struct rc_counters *c);
/* A counter the device keeps switched off (struct rc_counter.not_enabled). */
int rc_counters_add_disabled(struct rc_counters *c, const char *port, const char *name,
			     const char *source);
/* _fini releases what the struct holds, not the struct (_free would); the old name is
 * kept for callers not yet renamed. */
static inline void rc_counters_free(struct rc_counters *c)
{
	rc_counters_fini(c);
}

/* One LLDP neighbour: what the far end of a port says it is (system name, port id). */
struct rc_neighbor {
	char port[RC_NAME_MAX];
	char device[RC_NAME_MAX];
	char remote_port[RC_NAME_MAX];
};

/* How one of the device's own ports identifies itself to its neighbours, where that is not
 * its name: SONiC's lldpmgrd advertises the port's alias (`portidsubtype local <alias>`),
 * a host's lldpd its MAC by default.  Neighbours' port IDs are matched against these
 * (engine/diag/lldp.c). */
struct rc_port_ident {
	char port[RC_NAME_MAX];
	char alias[RC_NAME_MAX]; /* "" when none */
	char mac[18];		 /* "aa:bb:cc:dd:ee:ff", "" when none */
};

struct rc_neighbors {
	size_t n, cap;
	struct rc_neighbor *v;
	size_t n_ids, cap_ids; /* the device's own port identities */
	struct rc_port_ident *ids;
};

/* device "" when the neighbour sent no System Name (a NIC's firmware LLDP agent). */
int rc_neighbors_add(struct rc_neighbors *nb, const char *port, const char *device,
		     const char *remote_port);
int rc_neighbors_add_ident(struct rc_neighbors *nb, const char *port, const char *alias,
			   const char *mac);
void rc_neighbors_fini(struct rc_neighbors *nb);

/* What a driver says about a plan without changing anything (struct rc_driver.check):
 * one line per note, e.g. "GCU dry run: the patch would apply (12 operations)" or
 * "Ethernet0 pfc_enabled 3,4 -> 3: not live-changeable on this platform (...)".  Fixed
 * size so that filling it needs no allocation; what does not fit is counted. */
#define RC_NOTES_MAX 64
#define RC_NOTE_LEN  240

struct rc_notes {
	size_t n;	/* notes in v */
	size_t dropped; /* notes that did not fit */
	/* the check found that apply would refuse these writes (the note says why): plan
	 * counts the device as failed, so that it is found before an apply, not during one */
	bool apply_fails;
	char v[RC_NOTES_MAX][RC_NOTE_LEN];
};

struct rc_session; /* driver-private */

struct rc_driver {
	const char *name;
	/* Groups whose change disrupts traffic on this platform (mlx5: PFC flaps the link). */
	uint32_t disruptive;
	/* Connect / probe capabilities. */
	int (*open)(const struct rc_device *dev, const struct rc_run_opts *opts,
		    struct rc_session **out, struct rc_err *err);
	/* Ports this device manages when the inventory does not say (hosts: every RDMA netdev).
	 * Optional.  *names is malloc'd, caller frees. */
	int (*ports)(struct rc_session *s, char (**names)[RC_NAME_MAX], size_t *n,
		     struct rc_err *err);
	/* Actual state of each port (ports[i].name filled by the caller). */
	int (*read)(struct rc_session *s, struct rc_port_state *ports, size_t n,
		    struct rc_err *err);
	/* Push the writes; all-or-nothing where the platform allows. */
	int (*apply)(struct rc_session *s, const struct rc_port_write *w, size_t n,
		     struct rc_err *err);
	/* Optional. */
	int (*counters)(struct rc_session *s, const struct rc_port_state *ports, size_t n,
			struct rc_counters *out, struct rc_err *err);
	void (*close)(struct rc_session *s);
	/* Optional, run by `plan` only: the platform's own verdict on the writes, without
	 * writing (SONiC: GCU's --dry-run), as notes printed under the device's changes.
	 * Every port read is passed, `fields` 0 included (a note may concern a group the
	 * diff reports as not controllable). */
	int (*check)(struct rc_session *s, const struct rc_port_write *w, size_t n,
		     struct rc_notes *notes, struct rc_err *err);
	/* Optional: the LLDP neighbours the device sees on any port (engine/diag/lldp.c).
	 * -ENOENT: the device runs no LLDP agent (the cabling is then unknown, never drift). */
	int (*neighbors)(struct rc_session *s, struct rc_neighbors *out, struct rc_err *err);
	/* Optional, the three together: a native snapshot and restore.  The model's values
	 * cannot say "this did not exist" (a profile the run created, a line the factory did
	 * not have), so writing them back leaves what a run added.  `snapshot` is taken after
	 * the last read and before the first write, and journaled with the device: *blob is
	 * the platform's own configuration of what rocectl manages (malloc'd text, and it
	 * names what the run will stage, so that a killed run's leftovers can be found).
	 * `restore_native` first discards what is staged (discard), then puts that
	 * configuration back as one transaction, deleting what was added; the blob comes
	 * from a file on disk and is checked like device output.  `discard` drops what a run
	 * staged and did not apply (blob NULL: what can be found without it); it fails when
	 * something is staged and cannot be dropped.  `snapshot` fails with -EPERM (and why)
	 * when the device must not be written as it stands (NVUE with a change not saved). */
	int (*snapshot)(struct rc_session *s, char **blob, struct rc_err *err);
	int (*restore_native)(struct rc_session *s, const char *blob, struct rc_err *err);
	int (*discard)(struct rc_session *s, const char *blob, struct rc_err *err);
	/* Optional, with `snapshot` (then restore_native and discard may be absent): called
	 * after a restore has put the values back, to remove what the platform itself
	 * derived from the run's values and keeps after they are gone (SONiC's buffermgrd
	 * profiles, sonic_derived.c), and to put back what the restore's own writes changed
	 * beyond the values (SONiC's saved config_db.json, which every write saves over).
	 * The blob is the journaled snapshot. */
	int (*restore_derived)(struct rc_session *s, const char *blob, struct rc_err *err);
	/* Optional: keep what apply committed under the device's own timer (opts.confirm_s)
	 * and save it; blob is the journaled snapshot.  It checks the effect: a device whose
	 * timer already rolled the change back is an error (-ETIMEDOUT), never "kept".  A
	 * device whose snapshot says no timer was armed is only saved. */
	int (*confirm)(struct rc_session *s, const char *blob, struct rc_err *err);
	/* Optional (switches that save after a write): whether the session's first read found
	 * the saved configuration different from the running one, or could not read it.  With
	 * rc_run_opts.save_only_if_saved, the writes of such a session are not saved; without
	 * it, false (they were saved). */
	bool (*found_unsaved)(const struct rc_session *s);
	/* Optional: the device's software version, asked without a session through a
	 * read-only command ("unknown" when it does not say), for `rocectl capture`'s
	 * provenance (rc_tap_device_version, drivers/transport/tap.c). */
	void (*device_version)(const struct rc_device *dev, const struct rc_run_opts *opts,
			       char *out, size_t len);
};

const struct rc_driver *rc_driver_find(const char *name);
/* What RC_DRIVER_REGISTER calls, with the version the driver was compiled as: a plugin of
 * another rocectl (its structures may differ) is not registered, and
 * rc_driver_load_error() names both versions. */
void rc_driver_register_checked(const struct rc_driver *d, const char *built_for);
/* Why the network drivers' plugin (rocectl-net.so) could not be loaded, or NULL. */
const char *rc_driver_load_error(void);
/* Where the network drivers' plugin was loaded from (it is loaded now if it was not yet),
 * or NULL (then rc_driver_load_error() says why). */
const char *rc_driver_plugin_path(void);
/* The plugin's libraries ("libssh 0.10.6, libcurl 7.88.1"), exported by rocectl-net.so as
 * rc_net_library_versions and looked up by name, since the core does not link them. */
typedef const char *(*rc_net_versions_fn)(void);
#define RC_NET_VERSIONS_SYMBOL "rc_net_library_versions"
/* "nvue-ssh" for an NVUE switch over SSH, "mlx5" for a local host, ... */
const char *rc_driver_name_for(const struct rc_device *dev);

#define RC_DRIVER_REGISTER(drv)                                                                    \
	__attribute__((constructor)) static void rc_register_##drv(void)                           \
	{                                                                                          \
		rc_driver_register_checked(&drv, ROCECTL_VERSION);                                 \
	}

#endif
