/* SPDX-License-Identifier: Apache-2.0 */
/* Cabling against LLDP (engine/diag/lldp.c): what each device's LLDP agent sees on its ports,
 * compared with the inventory's links, and the `links:` the inventory should have.
 *
 * A device whose driver reads no LLDP, or that runs no LLDP agent (a host without lldpd),
 * is "unknown": its ends of links are neither right nor wrong; the switch at the other end
 * still sees the host.  Neighbour names match an inventory device by its name or by the
 * name's first DNS label; a remote port is the port's name, or an identity the far device
 * gave (its alias, its MAC: rc_lldp_resolve); a MAC no identity explains matches any port of
 * that device, and a neighbour that sent no System Name and such a MAC cannot be told (not
 * a finding). */
#ifndef ROCECTL_LLDP_H
#define ROCECTL_LLDP_H

#include <stdbool.h>
#include <stddef.h>

#include "rocectl/driver.h"
#include "rocectl/fleet.h"
#include "rocectl/inventory.h"
#include "rocectl/print.h"

enum rc_lldp_state {
	RC_LLDP_NOT_READ = 0,
	RC_LLDP_OK,
	RC_LLDP_UNKNOWN, /* no LLDP here: the driver reads none, or no agent runs */
	RC_LLDP_ERROR,
};

struct rc_lldp_dev {
	enum rc_lldp_state state;
	struct rc_neighbors nb;
	struct rc_err err;
};

struct rc_lldp {
	const struct rc_inventory *inv;
	struct rc_lldp_dev *d; /* per inventory device */
};

/* One device's LLDP through its open session `s` (the fleet's read does this before it
 * disconnects, with read_neighbors); `out` zeroed by the caller. */
void rc_lldp_read_session(const struct rc_device *dev, struct rc_session *s,
			  struct rc_lldp_dev *out);
/* NULL is fine. */
void rc_lldp_dev_free(struct rc_lldp_dev *d);

/* Every device of the fleet, `parallel` at once: what the fleet's read already got
 * (read_neighbors), else through its open session, else a new one. */
int rc_lldp_read(struct rc_lldp *l, const struct rc_fleet *f, struct rc_err *err);
/* Neighbours' port IDs that are a far device's alias or MAC (struct rc_port_ident: SONiC's
 * lldpmgrd sends the alias, lldpd and NIC agents a MAC) become that port's name, and a
 * neighbour without a System Name whose MAC one device's port has becomes that device;
 * rc_lldp_read does it once every device is read. */
void rc_lldp_resolve(struct rc_lldp *l);
void rc_lldp_fini(struct rc_lldp *l);

enum rc_cable_kind {
	RC_CABLE_MISCABLED, /* the port sees another device or port than the inventory says */
	RC_CABLE_MISSING,   /* the inventory has a link, the port sees no neighbour */
	RC_CABLE_EXTRA,	    /* the port sees an inventory device, the inventory has no link */
};

struct rc_cable_finding {
	enum rc_cable_kind kind;
	size_t link; /* inventory link (miscabled, missing); SIZE_MAX for extra */
	size_t dev;  /* the device whose LLDP says so */
	char port[RC_NAME_MAX];
	char seen[2 * RC_NAME_MAX + 2]; /* "spine01:swp2"; "" for missing */
	char want[2 * RC_NAME_MAX + 2]; /* the inventory's far end; "" for extra */
};

struct rc_cabling {
	size_t n;
	struct rc_cable_finding *v;
	size_t links_checked, links_unknown; /* links with an end read / with no end read */
	size_t cap;
};

int rc_cabling_check(struct rc_cabling *c, const struct rc_lldp *l, struct rc_err *err);
void rc_cabling_fini(struct rc_cabling *c);
/* Adds to c what device dev's LLDP alone says (verify --format jsonl, one device at a time):
 * its ends of links (`ends`: 2 * link + side, side 0 = a) then the neighbours on ports no
 * link names; links_checked/unknown are left to the caller. */
int rc_cabling_check_device(struct rc_cabling *c, const struct rc_inventory *inv, size_t dev,
			    const struct rc_lldp_dev *ld, const size_t *ends, size_t n_ends,
			    struct rc_err *err);

/* verify's "cabling" object (text: the findings, and why a device's LLDP could not be
 * read); returns the number of findings. */
size_t rc_report_cabling(struct rc_out *o, const struct rc_lldp *l, const struct rc_cabling *c);
/* The same from each inventory device's LLDP state and read error alone (`why` NULL: the
 * device's read failed with nothing to say beyond its own error). */
size_t rc_report_cabling_states(struct rc_out *o, const struct rc_inventory *inv,
				enum rc_lldp_state (*state)(const void *ctx, size_t dev),
				const char *(*why)(const void *ctx, size_t dev), const void *ctx,
				const struct rc_cabling *c);

void rc_report_cabling_prom(FILE *f, const struct rc_cabling *c);

/* `discover`: the links LLDP shows between inventory devices, as inventory YAML (text) or
 * the "links" array of examples/discover.schema.json (JSON).  A far end whose port id is a
 * MAC names no port: a comment in text, an entry with "b_port_id_mac" in JSON. */
void rc_lldp_print_links(struct rc_out *o, const struct rc_lldp *l);

#endif
