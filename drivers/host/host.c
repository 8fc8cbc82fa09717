/* SPDX-License-Identifier: Apache-2.0 */
/* The "mlx5" driver: a Linux host with ConnectX NICs, managed locally.  It combines DCB
 * netlink (dcbnl.c), the mlx5 sysfs/configfs knobs (mlx5.c) and rdma-core's view
 * (rdma.c) into the vendor-neutral model, and writes back only what the diff names. */
#include <errno.h>
#include <pthread.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"
#include "lldpd.h"

struct rc_session {
	char root[PATH_MAX];
	bool dry_run;
	unsigned sections;
	char device[RC_NAME_MAX];
	struct rc_dcb *dcb;
};

/* ---- sections --------------------------------------------------------------------------- */

int rc_host_parse_sections(const char *s, unsigned *mask, char *bad, size_t bad_len)
{
	const char *p = s;

	*mask = 0;
	while (p && *p) {
		size_t len = strcspn(p, ",");

		if (len == 3 && !strncmp(p, "dcb", 3))
			*mask |= RC_HOST_SEC_DCB;
		else if (len == 3 && !strncmp(p, "ecn", 3))
			*mask |= RC_HOST_SEC_ECN;
		else if (len == 4 && !strncmp(p, "rdma", 4))
			*mask |= RC_HOST_SEC_RDMA;
		else {
			snprintf(bad, bad_len, "%.*s", (int)len, p);
			return -EINVAL;
		}
		p += len;
		if (*p == ',')
			p++;
	}
	if (!*mask) {
		snprintf(bad, bad_len, "%s", s ? s : "");
		return -EINVAL;
	}
	return 0;
}

uint32_t rc_host_section_groups(unsigned sections)
{
	uint32_t g = 0;

	if (sections & RC_HOST_SEC_DCB)
		g |= RC_HOST_DCB_GROUPS;
	if (sections & RC_HOST_SEC_ECN)
		g |= RC_HOST_ECN_GROUPS;
	if (sections & RC_HOST_SEC_RDMA)
		g |= RC_HOST_RDMA_GROUPS;
	return g;
}

/* The sections owning any of `groups` (struct rc_run_opts.groups); 0 = all. */
static unsigned sections_of_groups(uint32_t groups)
{
	unsigned sec = 0;

	if (!groups)
		return RC_HOST_SEC_ALL;
	for (unsigned bit = RC_HOST_SEC_DCB; bit & RC_HOST_SEC_ALL; bit <<= 1)
		if (rc_host_section_groups(bit) & groups)
			sec |= bit;
	return sec;
}

/* ---- reading ---------------------------------------------------------------------------- */

static void read_netdev(const char *root, struct rc_host_port *hp)
{
	char path[4096];

	hp->mtu = hp->speed_mbps = -1;
	if (!rc_host_path(path, sizeof(path), root, "sys/class/net/%s/mtu", hp->ifname))
		if (rc_host_read_ll(path, &hp->mtu) || hp->mtu <= 0)
			hp->mtu = -1;
	/* "-1" or EINVAL while the link is down. */
	if (!rc_host_path(path, sizeof(path), root, "sys/class/net/%s/speed", hp->ifname))
		if (rc_host_read_ll(path, &hp->speed_mbps) || hp->speed_mbps <= 0)
			hp->speed_mbps = -1;
}

static void read_operstate(const char *root, struct rc_host_port *hp)
{
	char path[4096];

	if (!rc_host_path(path, sizeof(path), root, "sys/class/net/%s/operstate", hp->ifname))
		if (rc_host_read(path, hp->operstate, sizeof(hp->operstate)) < 0)
			hp->operstate[0] = '\0';
}

static int collect(struct rc_session *s, const char *ifname, bool details, struct rc_host_port *hp,
		   struct rc_err *err)
{
	struct rc_err e = {0};
	int rc;

	memset(hp, 0, sizeof(*hp));
	if (!rc_host_ifname_ok(ifname))
		return rc_errf(err, EINVAL, "'%s' is not a network interface name", ifname);
	snprintf(hp->ifname, sizeof(hp->ifname), "%s", ifname);
	hp->rdma.roce_v2_ipv4_gid = -1;
	read_netdev(s->root, hp);
	if (details)
		read_operstate(s->root, hp);
	if (s->sections & RC_HOST_SEC_RDMA) {
		rc = rc_rdma_lookup(s->root, ifname, &hp->rdma, err);
		if (rc)
			return rc;
		if (details)
			rc_rdma_details(s->root, ifname, &hp->rdma);
	}
	if (s->sections & RC_HOST_SEC_DCB) {
		hp->dcb_rc = rc_dcb_get(s->dcb, ifname, &hp->dcb, &e);
		if (hp->dcb_rc)
			snprintf(hp->dcb_err, sizeof(hp->dcb_err), "%s", e.msg);
		else if (details)
			hp->has_caps = !rc_dcb_getcap(s->dcb, ifname, &hp->caps, &e);
	}
	return rc_mlx5_read(s->root, ifname, &hp->rdma, s->sections, &hp->nic, err);
}

int rc_host_collect(struct rc_session *s, const char *ifname, struct rc_host_port *hp,
		    struct rc_err *err)
{
	return collect(s, ifname, true, hp, err);
}

int rc_host_preflight(struct rc_session *s, const char *ifname, unsigned sections,
		      unsigned *missing, struct rc_err *err)
{
	unsigned saved = s->sections;
	struct rc_host_port *hp = malloc(sizeof(*hp));
	char why[2 * RC_ERR_MSG_MAX] = "";
	size_t off = 0;
	int rc;

	*missing = 0;
	if (!hp)
		return rc_errf(err, ENOMEM, "out of memory");
	s->sections = sections & RC_HOST_SEC_ALL;
	rc = collect(s, ifname, false, hp, err);
	s->sections = saved;
	if (rc) {
		free(hp);
		return rc;
	}
	/* Only a driver without DCB ops refuses; any other failure is just an error. */
	if ((sections & RC_HOST_SEC_DCB) && hp->dcb_rc && hp->dcb_rc != -EOPNOTSUPP) {
		rc = rc_errf(err, -hp->dcb_rc, "%s", hp->dcb_err);
		free(hp);
		return rc;
	}
	if ((sections & RC_HOST_SEC_DCB) && hp->dcb_rc) {
		*missing |= RC_HOST_SEC_DCB;
		off += (size_t)snprintf(why + off, sizeof(why) - off,
					"%s: section 'dcb' cannot be managed here", hp->dcb_err);
	}
	if ((sections & RC_HOST_SEC_RDMA) && !hp->nic.has_tos && off < sizeof(why)) {
		*missing |= RC_HOST_SEC_RDMA;
		snprintf(why + off, sizeof(why) - off,
			 "%s'%s': %s: section 'rdma' cannot be managed here", off ? "; " : "",
			 ifname, hp->nic.tos_why);
	}
	free(hp);
	if (!*missing)
		return 0;
	return rc_errf(err, EOPNOTSUPP, "%s", why);
}

static enum rc_tsa tsa_from_ieee(uint8_t t)
{
	switch (t) {
	case IEEE_8021QAZ_TSA_STRICT:
		return RC_TSA_STRICT;
	case IEEE_8021QAZ_TSA_ETS:
		return RC_TSA_DWRR;
	case IEEE_8021QAZ_TSA_VENDOR:
		return RC_TSA_VENDOR;
	default:
		return RC_TSA_UNSET;
	}
}

static uint8_t tsa_to_ieee(uint8_t t)
{
	switch (t) {
	case RC_TSA_STRICT:
		return IEEE_8021QAZ_TSA_STRICT;
	case RC_TSA_DWRR:
		return IEEE_8021QAZ_TSA_ETS;
	default:
		return IEEE_8021QAZ_TSA_VENDOR;
	}
}

/* The DSCP map of an APP table: prio per DSCP, -1 where the table has no entry.  The
 * kernel lists the newest entry first; that is the one in force. */
static void dscp_map_of(const struct rc_dcb_state *st, int map[RC_NDSCP])
{
	for (int d = 0; d < RC_NDSCP; d++)
		map[d] = -1;
	for (size_t i = 0; i < st->n_app; i++) {
		const struct rc_dcb_app *a = &st->app[i];

		if (a->selector == IEEE_8021QAZ_APP_SEL_DSCP && a->protocol < RC_NDSCP &&
		    map[a->protocol] < 0)
			map[a->protocol] = a->priority;
	}
}

/* Trust as the hardware applies it.  With an APP_TRUST table: its first selector.  With
 * the legacy OFED file: that file.  Otherwise (upstream mlx5's en_dcbnl.c) the driver trusts
 * DSCP exactly while the APP table holds a DSCP entry. */
static enum rc_trust trust_of(const struct rc_dcb_state *st, const struct rc_mlx5_state *nic)
{
	if (st->has_trust) {
		if (!st->n_trust)
			return RC_TRUST_UNSET;
		return st->trust[0] == IEEE_8021QAZ_APP_SEL_DSCP ? RC_TRUST_DSCP
		       : st->trust[0] == RC_DCB_APP_SEL_PCP	 ? RC_TRUST_PCP
								 : RC_TRUST_UNSET;
	}
	if (nic->has_qos_trust)
		return nic->qos_trust;
	for (size_t i = 0; i < st->n_app; i++)
		if (st->app[i].selector == IEEE_8021QAZ_APP_SEL_DSCP)
			return RC_TRUST_DSCP;
	return RC_TRUST_PCP;
}

/* Firmware's DSCP -> priority default, which a DSCP keeps until an APP entry is set for
 * it (mlx5's en_dcbnl.c: the table is reset to 0 only on delapp): prio = dscp >> 3. */
static uint8_t fw_default_prio(int dscp)
{
	return (uint8_t)(dscp >> 3);
}

/* DSCPs without an entry whose firmware default lands in a lossless priority that an
 * explicit entry feeds (RoCE's): DSCP 24..31 share priority 3 with RoCE's 26 unless
 * mapped elsewhere.  Bit d set for each such DSCP. */
static uint8_t fed_prios(const int map[RC_NDSCP])
{
	uint8_t fed = 0;

	for (int d = 0; d < RC_NDSCP; d++)
		if (map[d] >= 0 && map[d] < RC_NPRIO)
			fed |= (uint8_t)(1u << map[d]);
	return fed;
}

static uint64_t stray_dscps(const int map[RC_NDSCP], uint8_t lossless)
{
	uint8_t fed = fed_prios(map);
	uint64_t stray = 0;

	for (int d = 0; d < RC_NDSCP; d++)
		if (map[d] < 0 && (lossless & fed & (1u << fw_default_prio(d))))
			stray |= 1ull << d;
	return stray;
}

/* "24-25,27-31" */
static void dscp_list(uint64_t set, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int d = 0; d < RC_NDSCP && off < len; d++) {
		int e = d;

		if (!(set & (1ull << d)))
			continue;
		while (e + 1 < RC_NDSCP && (set & (1ull << (e + 1))))
			e++;
		off += (size_t)snprintf(buf + off, len - off, e > d ? "%s%d-%d" : "%s%d",
					off ? "," : "", d, e);
		d = e;
	}
}

/* In firmware-buffer mode (the default until a DCB_ATTR_DCB_BUFFER set), mlx5 stores the
 * PFC delay but recomputes no threshold from it (en_dcbnl.c mlx5e_dcbnl_ieee_setpfc acts
 * only with priv->dcbx.manual_buffer).  The
 * kernel does not report the mode; a host-made layout is recognised by a priority mapped
 * to a buffer other than 0 (rocectl's layout gives lossless priorities their own buffer,
 * firmware's maps every priority to buffer 0).  Unverified against a vendor artifact. */
static bool firmware_buffers(const struct rc_dcb_state *st)
{
	if (!st->has_buffer)
		return true;
	for (int p = 0; p < RC_NPRIO; p++)
		if (st->buffer.prio2buffer[p])
			return false;
	return true;
}

static void dcb_to_qos(const struct rc_host_port *hp, struct port_qos *q)
{
	const struct rc_dcb_state *st = &hp->dcb;
	int map[RC_NDSCP];

	q->trust = trust_of(st, &hp->nic);
	q->known |= RC_F_TRUST;
	/* The whole table is known: a DSCP without an entry keeps firmware's default
	 * (dscp >> 3); only a deleted entry leaves 0 behind, which the kernel does not
	 * report, hence unverified. */
	dscp_map_of(st, map);
	q->dscp_mask = ~0ull;
	q->dscp_entries_known = true;
	q->dscp_entries = 0;
	for (int d = 0; d < RC_NDSCP; d++) {
		q->dscp2prio[d] = map[d] < 0 ? fw_default_prio(d) : (uint8_t)map[d];
		if (map[d] >= 0)
			q->dscp_entries |= 1ull << d;
	}
	q->known |= RC_F_DSCP2PRIO;
	q->effect.unverified |= RC_F_DSCP2PRIO;
	if (st->has_pfc && q->trust == RC_TRUST_DSCP) {
		uint64_t stray = stray_dscps(map, st->pfc.pfc_en);
		char list[96];

		/* A warning, not drift: this is what every mlx5 with trust DSCP does unless an
		 * operator maps those DSCPs away, and the policy does not say where. */
		if (stray) {
			dscp_list(stray, list, sizeof(list));
			rc_effect_warn(&q->effect, RC_F_DSCP2PRIO,
				       "DSCP %s without an APP entry keep firmware's dscp>>3 and "
				       "land in a lossless priority",
				       list);
		}
		/* A deleted entry leaves 0 in firmware, unseen: a lossless priority that no
		 * entry feeds may be fed by nothing at all. */
		if (st->pfc.pfc_en & ~fed_prios(map))
			rc_effect_drift(&q->effect, RC_F_DSCP2PRIO,
					"no APP entry feeds lossless priority mask 0x%02x",
					st->pfc.pfc_en & ~fed_prios(map));
	}

	if (st->has_pfc) {
		q->pfc_enabled = st->pfc.pfc_en;
		q->known |= RC_F_PFC;
		/* mlx5 reports the cable length in metres as the PFC delay, 0 without port
		 * buffer support (mlx5 en_dcbnl.c, mlx5e_dcbnl_ieee_setpfc). */
		if (st->pfc.delay) {
			q->cable_length_m = st->pfc.delay;
			q->known |= RC_F_CABLE;
			/* Whether it counts is a guess from the layout (firmware_buffers). */
			q->effect.unverified |= RC_F_CABLE;
			if (firmware_buffers(st))
				rc_effect_inert(&q->effect, RC_F_CABLE,
						"cable length is used only once the host sizes the "
						"buffers (manual-buffer mode); firmware owns them");
		} else {
			q->unsupported |= RC_F_CABLE;
		}
	} else {
		q->unsupported |= RC_F_PFC | RC_F_CABLE;
	}
	if (st->has_buffer) {
		q->headroom_mask = 0xff;
		for (int p = 0; p < RC_NPRIO; p++)
			q->headroom_bytes[p] = st->buffer.buffer_size[st->buffer.prio2buffer[p]];
		q->known |= RC_F_HEADROOM;
	} else {
		q->unsupported |= RC_F_HEADROOM;
	}
	if (st->has_ets) {
		q->ets.tc_mask = 0xff;
		q->prio_mask = 0xff;
		for (int t = 0; t < RC_NTC; t++) {
			q->ets.tsa[t] = (uint8_t)tsa_from_ieee(st->ets.tc_tsa[t]);
			q->ets.bw_pct[t] = st->ets.tc_tx_bw[t];
			q->prio2tc[t] = st->ets.prio_tc[t];
		}
		q->known |= RC_F_ETS | RC_F_PRIO2TC;
	} else {
		q->unsupported |= RC_F_ETS | RC_F_PRIO2TC;
	}
	if (st->has_dcbx) {
		q->dcbx_host = (st->dcbx & DCB_CAP_DCBX_HOST) && (st->dcbx & DCB_CAP_DCBX_VER_IEEE);
		q->known |= RC_F_DCBX;
	} else {
		q->unsupported |= RC_F_DCBX;
	}
}

void rc_host_to_qos(const struct rc_host_port *hp, unsigned sections, struct port_qos *q)
{
	memset(q, 0, sizeof(*q));
	q->roce_tos = -1;
	if (hp->mtu > 0) {
		q->mtu = (uint32_t)hp->mtu;
		q->known |= RC_F_MTU;
	}
	if (hp->speed_mbps > 0) {
		q->speed_gbps = (uint32_t)(hp->speed_mbps / 1000);
		q->known |= RC_F_SPEED;
	}
	if (!(sections & RC_HOST_SEC_DCB))
		q->unsupported |= RC_HOST_DCB_GROUPS;
	else if (!hp->dcb_rc)
		dcb_to_qos(hp, q);
	else if (hp->dcb_rc == -EOPNOTSUPP)
		q->unsupported |= RC_HOST_DCB_GROUPS;

	if (!(sections & RC_HOST_SEC_ECN)) {
		q->unsupported |= RC_HOST_ECN_GROUPS;
	} else {
		if (hp->nic.has_ecn) {
			q->nic_ecn_prio_mask = hp->nic.ecn_prio_mask;
			q->nic_ecn_np = hp->nic.np;
			q->nic_ecn_rp = hp->nic.rp;
			q->known |= RC_F_NIC_ECN;
		} else {
			q->unsupported |= RC_F_NIC_ECN;
		}
		if (hp->nic.has_cnp) {
			q->cnp_dscp = (uint8_t)hp->nic.cnp_dscp;
			q->cnp_prio = (uint8_t)hp->nic.cnp_prio;
			q->known |= RC_F_CNP;
			/* cong.c: only mode 0 makes CNPs take np_cnp_prio; what firmware uses
			 * otherwise is not public (PRM), hence unverified. */
			if (hp->nic.cnp_route == RC_CNP_DEBUGFS && hp->nic.cnp_prio_mode) {
				rc_effect_drift(&q->effect, RC_F_CNP,
						"np_cnp_prio_mode is %d: firmware does not use "
						"np_cnp_prio %d for CNPs",
						hp->nic.cnp_prio_mode, hp->nic.cnp_prio);
				q->effect.unverified |= RC_F_CNP;
			}
		} else {
			q->unsupported |= RC_F_CNP;
		}
		if (hp->nic.has_dcqcn) {
			q->dcqcn_mask = hp->nic.dcqcn_mask;
			memcpy(q->dcqcn, hp->nic.dcqcn, sizeof(q->dcqcn));
			q->known |= RC_F_DCQCN;
		} else if (!hp->nic.dcqcn_unreadable) {
			/* No cc_params directory: not controllable.  A file that exists but
			 * cannot be read leaves the group unknown instead. */
			q->unsupported |= RC_F_DCQCN;
		}
	}
	if ((sections & RC_HOST_SEC_RDMA) && hp->nic.has_tos) {
		q->roce_tos = hp->nic.roce_tos;
		q->known |= RC_F_ROCE_TOS;
	} else {
		q->unsupported |= RC_F_ROCE_TOS;
	}
}

/* ---- the driver: open, ports, read ----------------------------------------------------- */

/* One netlink socket for the whole run (bench/README.md): `rocectl agent` opens a session per
 * interface (each interface is its own journaled transaction), and a socket each cost a
 * socket(2), bind(2) and getsockname(2) per interface.  A closed session hands its socket
 * to the next one; sessions open at once (the fleet's threads) each get their own, so a
 * socket never carries two conversations.  A reply left over from an earlier request is
 * skipped by its sequence number (dcbnl.c: receive).  No dump: the kernel's DCB netlink
 * (net/dcb/dcbnl.c) serves RTM_GETDCB as a request per interface only. */
static pthread_mutex_t idle_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rc_dcb *idle_dcb;

static int dcb_take(struct rc_dcb **out, struct rc_err *err)
{
	pthread_mutex_lock(&idle_lock);
	*out = idle_dcb;
	idle_dcb = NULL;
	pthread_mutex_unlock(&idle_lock);
	return *out ? 0 : rc_dcb_open(out, err);
}

static void dcb_give(struct rc_dcb *d)
{
	pthread_mutex_lock(&idle_lock);
	if (!idle_dcb) {
		idle_dcb = d;
		d = NULL;
	}
	pthread_mutex_unlock(&idle_lock);
	rc_dcb_close(d);
}

__attribute__((destructor)) static void dcb_idle_free(void)
{
	rc_dcb_close(idle_dcb);
	idle_dcb = NULL;
}

static int host_open(const struct rc_device *dev, const struct rc_run_opts *opts,
		     struct rc_session **out, struct rc_err *err)
{
	struct rc_session *s = calloc(1, sizeof(*s));
	int rc;

	*out = NULL;
	/* this machine's NICs are no snapshot's answers (docs/SNAPSHOT.md) */
	if (opts && opts->snapshot) {
		free(s);
		return rc_errf(err, EOPNOTSUPP,
			       "'%s': a host with transport local is read on this machine, not "
			       "from a snapshot (capture it over SSH: transport ssh)",
			       dev ? dev->name : "?");
	}
	if (!s)
		return rc_errf(err, ENOMEM, "out of memory");
	snprintf(s->root, sizeof(s->root), "%s", opts && opts->root ? opts->root : "/");
	s->dry_run = opts && opts->dry_run;
	s->sections = sections_of_groups(opts ? opts->groups : 0);
	snprintf(s->device, sizeof(s->device), "%s", dev ? dev->name : "");
	rc = dcb_take(&s->dcb, err);
	if (rc) {
		free(s);
		return rc;
	}
	*out = s;
	return 0;
}

static void host_close(struct rc_session *s)
{
	if (!s)
		return;
	dcb_give(s->dcb);
	free(s);
}

static int host_ports(struct rc_session *s, char (**names)[RC_NAME_MAX], size_t *n,
		      struct rc_err *err)
{
	int rc = rc_rdma_netdevs(s->root, names, n, err);
	char path[4096];

	if (rc)
		return rc;
	if (*n == 0) {
		free(*names);
		*names = NULL;
		rc_host_path(path, sizeof(path), s->root, "sys/class/infiniband");
		return rc_errf(err, ENODEV,
			       "no network interface backs an RDMA device (nothing under '%s'); "
			       "name interfaces with --interface",
			       path);
	}
	return 0;
}

static int host_read(struct rc_session *s, struct rc_port_state *ports, size_t n,
		     struct rc_err *err)
{
	struct rc_host_port *hp = malloc(sizeof(*hp));
	int first = 0;

	if (!hp)
		return rc_errf(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		struct rc_err e = {0};
		int rc = collect(s, ports[i].name, false, hp, &e);

		if (!rc) {
			rc_host_to_qos(hp, s->sections, &ports[i].qos);
			/* A NIC without DCB is an error the operator must see, not a pass. */
			if ((s->sections & RC_HOST_SEC_DCB) && hp->dcb_rc) {
				rc = hp->dcb_rc;
				snprintf(e.msg, sizeof(e.msg), "%s", hp->dcb_err);
			}
		}
		if (rc && !first) {
			first = rc;
			rc_errf(err, -rc, "%s", e.msg);
		}
	}
	free(hp);
	return first;
}

/* ---- the driver: apply ----------------------------------------------------------------- */

struct writer {
	struct rc_session *s;
	const struct rc_port_write *w;
	const char *ifname;
	struct rc_dcb_state cur; /* read just before writing: read-modify-write */
	struct rc_mlx5_state nic;
};

static int write_dcbx(struct writer *x, struct rc_err *err)
{
	uint8_t want, have = x->cur.dcbx;

	if (!x->cur.has_dcbx)
		return rc_errf(err, EOPNOTSUPP, "'%s': the driver does not report a DCBX mode",
			       x->ifname);
	if (x->w->want->dcbx_host) {
		if ((have & DCB_CAP_DCBX_HOST) && (have & DCB_CAP_DCBX_VER_IEEE) &&
		    !(have & DCB_CAP_DCBX_LLD_MANAGED))
			return 0;
		/* Host-controlled IEEE: a willing firmware agent can no longer override what we
		 * write.  Keep the CEE bit as mlnx_qos -d os does. */
		want = (uint8_t)((have & DCB_CAP_DCBX_VER_CEE) | DCB_CAP_DCBX_HOST |
				 DCB_CAP_DCBX_VER_IEEE);
	} else {
		if (!(have & DCB_CAP_DCBX_HOST))
			return 0;
		want = 0; /* back to firmware control (mlx5 en_dcbnl.c, setdcbx) */
	}
	return rc_dcb_setdcbx(x->s->dcb, x->ifname, want, err);
}

static int write_ets(struct writer *x, uint32_t fields, struct rc_err *err)
{
	const struct port_qos *want = x->w->want;
	struct ieee_ets e;

	if (!x->cur.has_ets)
		return rc_errf(err, EOPNOTSUPP, "'%s': the driver has no ETS", x->ifname);
	e = x->cur.ets;
	if (fields & RC_F_ETS) {
		for (int t = 0; t < RC_NTC; t++) {
			if (!(want->ets.tc_mask & (1u << t)))
				continue;
			e.tc_tsa[t] = tsa_to_ieee(want->ets.tsa[t]);
			e.tc_tx_bw[t] = want->ets.tsa[t] == RC_TSA_DWRR ? want->ets.bw_pct[t] : 0;
		}
	}
	if (fields & RC_F_PRIO2TC) {
		for (int p = 0; p < RC_NPRIO; p++) {
			if (!(want->prio_mask & (1u << p)))
				continue;
			if (want->prio2tc[p] >= RC_NTC)
				return rc_errf(err, EINVAL, "'%s': traffic class %u out of range",
					       x->ifname, want->prio2tc[p]);
			e.prio_tc[p] = want->prio2tc[p];
		}
	}
	/* mlx5 reports vendor/strict TCs with bandwidth 100, and the core refuses any
	 * bandwidth on a non-ETS TC (en_dcbnl.c, mlx5e_dbcnl_validate_ets): zero them, as a careful
	 * RMW must. */
	for (int t = 0; t < RC_NTC; t++)
		if (e.tc_tsa[t] != IEEE_8021QAZ_TSA_ETS)
			e.tc_tx_bw[t] = 0;
	e.willing = 0;
	if (!memcmp(e.tc_tsa, x->cur.ets.tc_tsa, sizeof(e.tc_tsa)) &&
	    !memcmp(e.prio_tc, x->cur.ets.prio_tc, sizeof(e.prio_tc)) &&
	    !memcmp(e.tc_tx_bw, x->cur.ets.tc_tx_bw, sizeof(e.tc_tx_bw)) && !x->cur.ets.willing)
		return 0;
	return rc_dcb_ieee_set(x->s->dcb, x->ifname, &(struct rc_dcb_set){.ets = &e}, "ETS", err);
}

/* mlx5 keeps at least 4 cells of the port buffer for the shared pool and refuses a
 * layout that leaves fewer (en/port_buffer.c port_update_shared_buffer, -EINVAL).  dcbnl
 * does not report the cell size: 128 bytes is the driver's fallback (MLX5E_BUFFER_CELL_SHIFT);
 * larger cells on some ConnectX generations are unverified. */
#define RC_MLX5_CELL	   128u
#define RC_MLX5_SHARED_MIN (4u * RC_MLX5_CELL)

/* What buffers 0-7 may use together.  total_size is what getbuffer reports: on kernels
 * with "Consider internal buffers size" (2025) it already excludes the internal buffers
 * 8-9; older ones include them, and refuse only past the whole port buffer. */
static uint64_t buffer_room(const struct dcbnl_buffer *cur)
{
	return cur->total_size > RC_MLX5_SHARED_MIN ? cur->total_size - RC_MLX5_SHARED_MIN : 0;
}

/* The buffer layout that gives each priority the size it should have: priorities of
 * equal size and equal lossiness share a buffer, numbered in priority order (the usual
 * layout: lossy priorities in buffer 0, the lossless one in buffer 1); unused buffers
 * get no memory.  The model carries sizes per priority, not the map, so this is also how
 * a journaled layout is rebuilt.
 * When the sum does not fit the port buffer, the lossy buffers give way. */
static int plan_buffer(const struct writer *x, struct dcbnl_buffer *b, struct rc_err *err)
{
	const struct port_qos *want = x->w->want;
	const struct dcbnl_buffer *cur = &x->cur.buffer;
	uint64_t size[RC_NPRIO], used = 0;
	uint8_t lossless = x->w->fields & RC_F_PFC ? want->pfc_enabled : x->cur.pfc.pfc_en;
	int nb = 0;

	memset(b, 0, sizeof(*b));
	b->total_size = cur->total_size;
	for (int p = 0; p < RC_NPRIO; p++) {
		size[p] = cur->buffer_size[cur->prio2buffer[p]];
		if (!(want->headroom_mask & (1u << p)))
			continue;
		if (!want->headroom_is_min || want->headroom_bytes[p] > size[p])
			size[p] = want->headroom_bytes[p];
		if (size[p] > UINT32_MAX)
			return rc_errf(err, EINVAL, "'%s': buffer of %llu bytes is too big",
				       x->ifname, (unsigned long long)size[p]);
	}
	for (int p = 0; p < RC_NPRIO; p++) {
		bool ll = lossless & (1u << p);
		int found = -1;

		/* A lossless priority never shares a buffer with a lossy one: the buffer
		 * would turn lossless for all of them (mlx5 en/port_buffer.c). */
		for (int q = 0; q < p && found < 0; q++)
			if (size[q] == size[p] && !(lossless & (1u << q)) == !ll)
				found = b->prio2buffer[q];
		if (found < 0) {
			found = nb++;
			b->buffer_size[found] = (uint32_t)size[p];
			used += size[p];
		}
		b->prio2buffer[p] = (uint8_t)found;
	}
	if (cur->total_size && used > buffer_room(cur)) {
		uint64_t excess = used - buffer_room(cur);

		for (int i = 0; i < nb && excess; i++) {
			bool is_lossless = false;
			uint64_t cut;

			for (int p = 0; p < RC_NPRIO; p++)
				if (b->prio2buffer[p] == i && (lossless & (1u << p)))
					is_lossless = true;
			if (is_lossless)
				continue;
			cut = excess < b->buffer_size[i] ? excess : b->buffer_size[i];
			b->buffer_size[i] -= (uint32_t)cut;
			excess -= cut;
		}
		if (excess)
			return rc_errf(
			    err, ENOSPC,
			    "'%s': the buffers wanted need %llu bytes; the port has %u, of "
			    "which %u must stay shared (4 cells, en/port_buffer.c): "
			    "refusing before writing",
			    x->ifname, (unsigned long long)used, cur->total_size,
			    RC_MLX5_SHARED_MIN);
	}
	return 0;
}

static int write_buffer(struct writer *x, struct rc_err *err)
{
	struct dcbnl_buffer b;
	int rc;

	if (!x->cur.has_buffer)
		return rc_errf(err, EOPNOTSUPP, "'%s': the driver has no buffer object", x->ifname);
	rc = plan_buffer(x, &b, err);
	if (rc)
		return rc;
	if (!memcmp(b.prio2buffer, x->cur.buffer.prio2buffer, sizeof(b.prio2buffer)) &&
	    !memcmp(b.buffer_size, x->cur.buffer.buffer_size, sizeof(b.buffer_size)))
		return 0;
	return rc_dcb_ieee_set(x->s->dcb, x->ifname, &(struct rc_dcb_set){.buffer = &b}, "buffers",
			       err);
}

/* PFC and cable length share one struct; a change of pfc_en flaps the link on mlx5, so
 * nothing is sent unless a value really changes (mlx5 en_dcbnl.c, mlx5e_dcbnl_ieee_setpfc). */
static int write_pfc(struct writer *x, uint32_t fields, struct rc_err *err)
{
	const struct port_qos *want = x->w->want;
	struct ieee_pfc p;

	if (!x->cur.has_pfc)
		return rc_errf(err, EOPNOTSUPP, "'%s': the driver has no PFC", x->ifname);
	p = x->cur.pfc;
	if (fields & RC_F_PFC)
		p.pfc_en = want->pfc_enabled;
	if (fields & RC_F_CABLE) {
		/* mlx5 silently ignores 0 and >= 1000 (MLX5E_MAX_CABLE_LENGTH). */
		if (want->cable_length_m < 1 || want->cable_length_m > 999)
			return rc_errf(err, ERANGE,
				       "'%s': cable length %u m is outside what mlx5 accepts "
				       "(1..999 m)",
				       x->ifname, want->cable_length_m);
		p.delay = (uint16_t)want->cable_length_m;
	}
	if (p.pfc_en == x->cur.pfc.pfc_en && p.delay == x->cur.pfc.delay)
		return 0;
	memset(p.requests, 0, sizeof(p.requests));
	memset(p.indications, 0, sizeof(p.indications));
	p.mbc = 0;
	return rc_dcb_ieee_set(x->s->dcb, x->ifname, &(struct rc_dcb_set){.pfc = &p}, "PFC", err);
}

/* Does the trust follow the APP table (upstream mlx5), or is it set on its own? */
static bool implicit_trust(const struct writer *x)
{
	return !x->cur.has_trust && !x->nic.has_qos_trust;
}

/* The DSCP map to reach, -1 = no entry.  A read describes the whole table and reports a
 * DSCP without an entry as firmware's default (dscp >> 3), so in a whole-table state (a
 * journaled one being restored) that default on a DSCP that has no entry now means "leave
 * it without one".  A policy pins a few DSCPs, written explicitly; the others keep
 * firmware's default (DSCP 24..31 then share RoCE's priority 3: the read warns). */
static void target_map(const struct writer *x, uint32_t fields, enum rc_trust trust,
		       int tgt[RC_NDSCP])
{
	const struct port_qos *want = x->w->want;
	bool whole = want->dscp_mask == ~0ull, any = false;
	int cur[RC_NDSCP];

	dscp_map_of(&x->cur, cur);
	memcpy(tgt, cur, sizeof(cur));
	if (fields & (RC_F_DSCP2PRIO | RC_F_TRUST)) {
		for (int d = 0; d < RC_NDSCP; d++) {
			if (!(want->dscp_mask & (1ull << d)))
				continue;
			if (whole && want->dscp_entries_known) /* a journaled table, exactly */
				tgt[d] =
				    (want->dscp_entries & (1ull << d)) ? want->dscp2prio[d] : -1;
			else
				tgt[d] =
				    whole && cur[d] < 0 && want->dscp2prio[d] == fw_default_prio(d)
					? -1
					: want->dscp2prio[d];
		}
	}
	if (implicit_trust(x) && trust == RC_TRUST_PCP) {
		/* On upstream mlx5 the table *is* the trust: PCP means no DSCP entry at all... */
		for (int d = 0; d < RC_NDSCP; d++)
			tgt[d] = -1;
		return;
	}
	/* ...and DSCP needs at least one. */
	for (int d = 0; d < RC_NDSCP; d++)
		any |= tgt[d] >= 0;
	for (int d = 0; d < RC_NDSCP && !any && implicit_trust(x); d++) {
		if (want->dscp_mask & (1ull << d)) {
			tgt[d] = want->dscp2prio[d];
			any = true;
		}
	}
}

static int write_app_entries(struct writer *x, const int tgt[RC_NDSCP], struct rc_err *err)
{
	struct rc_dcb_app add[RC_NDSCP], del[RC_DCB_APP_MAX];
	size_t nadd = 0, ndel = 0;
	int map[RC_NDSCP], rc;

	dscp_map_of(&x->cur, map);
	for (int d = 0; d < RC_NDSCP; d++) {
		bool present = false;

		if (tgt[d] < 0)
			continue;
		for (size_t i = 0; i < x->cur.n_app && !present; i++)
			present = x->cur.app[i].selector == IEEE_8021QAZ_APP_SEL_DSCP &&
				  x->cur.app[i].protocol == d && x->cur.app[i].priority == tgt[d];
		/* Present but shadowed by a newer entry with another priority: re-add. */
		if (present && map[d] == tgt[d])
			continue;
		add[nadd++] =
		    (struct rc_dcb_app){IEEE_8021QAZ_APP_SEL_DSCP, (uint8_t)tgt[d], (uint16_t)d};
	}
	if (nadd) {
		rc = rc_dcb_ieee_set(x->s->dcb, x->ifname,
				     &(struct rc_dcb_set){.app = add, .n_app = nadd},
				     "the DSCP APP table", err);
		if (rc)
			return rc;
		/* mlx5 replaces the old entry of a DSCP itself; see what is left to delete. */
		rc = rc_dcb_get(x->s->dcb, x->ifname, &x->cur, err);
		if (rc)
			return rc;
	}
	for (size_t i = 0; i < x->cur.n_app && ndel < RC_DCB_APP_MAX; i++) {
		const struct rc_dcb_app *a = &x->cur.app[i];

		if (a->selector != IEEE_8021QAZ_APP_SEL_DSCP || a->protocol >= RC_NDSCP)
			continue;
		if (tgt[a->protocol] == a->priority)
			continue;
		del[ndel++] = *a;
	}
	if (!ndel)
		return 0;
	return rc_dcb_ieee_del(x->s->dcb, x->ifname, del, ndel, err);
}

static int write_trust_explicit(struct writer *x, enum rc_trust trust, struct rc_err *err)
{
	struct rc_mlx5_state now;

	if (x->cur.has_trust) {
		uint8_t order[2];
		size_t n = 0;

		if (trust == RC_TRUST_DSCP)
			order[n++] = IEEE_8021QAZ_APP_SEL_DSCP;
		order[n++] = RC_DCB_APP_SEL_PCP;
		if (x->cur.n_trust == n && !memcmp(x->cur.trust, order, n))
			return 0;
		return rc_dcb_ieee_set(
		    x->s->dcb, x->ifname,
		    &(struct rc_dcb_set){.set_trust = true, .trust = order, .n_trust = n},
		    "the trust order (APP_TRUST)", err);
	}
	/* Read again: on OFED the APP table just written may have switched it already. */
	if (rc_mlx5_read(x->s->root, x->ifname, NULL, RC_HOST_SEC_DCB, &now, err))
		return -EIO;
	if (now.has_qos_trust && now.qos_trust == trust)
		return 0;
	return rc_mlx5_write_qos_trust(x->s->root, x->ifname, trust, err);
}

/* Trust and the DSCP map.  Towards DSCP the map is written before trust switches, so
 * that no packet is classified by a half-written table; towards PCP, the reverse. */
static int write_app(struct writer *x, uint32_t fields, struct rc_err *err)
{
	enum rc_trust trust = fields & RC_F_TRUST ? x->w->want->trust : trust_of(&x->cur, &x->nic);
	int tgt[RC_NDSCP], rc;

	if (!implicit_trust(x) && (fields & RC_F_TRUST) && trust == RC_TRUST_PCP) {
		rc = write_trust_explicit(x, trust, err);
		/* The driver may have dropped DSCP entries with the trust: look again. */
		if (!rc)
			rc = rc_dcb_get(x->s->dcb, x->ifname, &x->cur, err);
		if (rc)
			return rc;
		target_map(x, fields, trust, tgt);
		return write_app_entries(x, tgt, err);
	}
	target_map(x, fields, trust, tgt);
	rc = write_app_entries(x, tgt, err);
	if (!rc && !implicit_trust(x) && (fields & RC_F_TRUST))
		rc = write_trust_explicit(x, trust, err);
	return rc;
}

static int write_nic(struct writer *x, uint32_t fields, struct rc_err *err)
{
	const struct port_qos *want = x->w->want;
	const char *root = x->s->root;
	int rc = 0;

	if (fields & RC_F_NIC_ECN) {
		if (!x->nic.has_ecn)
			return rc_errf(err, EOPNOTSUPP,
				       "'%s': ECN enables are not controllable here (no OFED "
				       "ecn/ sysfs)",
				       x->ifname);
		rc = rc_mlx5_write_ecn(root, x->ifname, "np", want->nic_ecn_prio_mask,
				       want->nic_ecn_np, err);
		if (!rc)
			rc = rc_mlx5_write_ecn(root, x->ifname, "rp", want->nic_ecn_prio_mask,
					       want->nic_ecn_rp, err);
	}
	if (!rc && (fields & RC_F_CNP)) {
		rc = rc_mlx5_write_cnp(root, x->ifname, &x->nic, want->cnp_dscp, want->cnp_prio,
				       err);
	}
	if (!rc && (fields & RC_F_DCQCN))
		rc = rc_mlx5_write_cc_dcqcn(root, x->ifname, &x->nic, want->dcqcn_mask, want->dcqcn,
					    err);
	if (!rc && (fields & RC_F_ROCE_TOS)) {
		struct rc_rdma_port *p = malloc(sizeof(*p));

		if (!p)
			return rc_errf(err, ENOMEM, "out of memory");
		rc = rc_rdma_lookup(root, x->ifname, p, err);
		if (!rc && !p->found)
			rc = rc_errf(err, ENODEV, "'%s': no RDMA device behind the interface",
				     x->ifname);
		if (!rc)
			rc = rc_mlx5_write_tos(root, p, want->roce_tos, err);
		free(p);
	}
	return rc;
}

#define HOST_WRITABLE (RC_HOST_DCB_GROUPS | RC_HOST_ECN_GROUPS | RC_HOST_RDMA_GROUPS)

static int apply_port(struct rc_session *s, const struct rc_port_write *w, struct rc_err *err)
{
	struct writer x = {.s = s, .w = w, .ifname = w->port};
	uint32_t f = w->fields & rc_host_section_groups(s->sections);
	uint32_t pfc_groups = RC_F_PFC | RC_F_CABLE;
	uint32_t app_groups = RC_F_TRUST | RC_F_DSCP2PRIO;
	bool pfc_off;
	int rc;

	for (uint32_t bit = 1; bit && bit <= RC_F_ALL; bit <<= 1)
		if (w->fields & ~HOST_WRITABLE & bit)
			return rc_errf(err, EOPNOTSUPP, "'%s': a host has no %s to write", w->port,
				       rc_field_name(bit));
	if (!rc_host_ifname_ok(w->port))
		return rc_errf(err, EINVAL, "'%s' is not a network interface name", w->port);
	rc = rc_mlx5_read(s->root, w->port, NULL,
			  s->sections & RC_HOST_SEC_ECN ? RC_HOST_SEC_DCB | RC_HOST_SEC_ECN
							: RC_HOST_SEC_DCB,
			  &x.nic, err);
	if (rc)
		return rc;
	/* Sizing the buffers takes them over from firmware, which makes the cable length
	 * count (mlx5 en_dcbnl.c, mlx5e_dcbnl_ieee_setpfc): write it with them, or it stays at
	 * whatever was there. */
	if ((f & RC_F_HEADROOM) && (w->want->known & RC_F_CABLE))
		f |= RC_F_CABLE;
	/* A deleted APP entry leaves firmware at priority 0 for its DSCP, which the kernel
	 * does not report (the read shows the default dscp >> 3): turning PFC on rewrites the
	 * policy's entries too, so that the lossless priority is fed for certain. */
	if ((f & RC_F_PFC) && (w->want->known & RC_F_DSCP2PRIO) && w->want->dscp_mask != ~0ull)
		f |= RC_F_DSCP2PRIO;
	if (f & RC_HOST_DCB_GROUPS) {
		rc = rc_dcb_get(s->dcb, w->port, &x.cur, err);
		if (rc)
			return rc;
	}
	/* Host control first, so that a willing firmware agent does not undo the rest. */
	if (f & RC_F_DCBX) {
		rc = write_dcbx(&x, err);
		if (rc)
			return rc;
	}
	if (f & (RC_F_ETS | RC_F_PRIO2TC)) {
		rc = write_ets(&x, f, err);
		if (rc)
			return rc;
	}
	/* Turning lossless on: buffers, then PFC, then classify RoCE into the priority.
	 * Turning it off (a restore): the reverse, so that no lossless priority is ever
	 * short of headroom or fed before it pauses. */
	pfc_off = (f & RC_F_PFC) && (x.cur.pfc.pfc_en & ~w->want->pfc_enabled);
	if (pfc_off && (f & app_groups))
		rc = write_app(&x, f, err);
	if (!rc && pfc_off && (f & pfc_groups))
		rc = write_pfc(&x, f, err);
	if (!rc && (f & RC_F_HEADROOM))
		rc = write_buffer(&x, err);
	if (!rc && !pfc_off && (f & pfc_groups))
		rc = write_pfc(&x, f, err);
	if (!rc && !pfc_off && (f & app_groups))
		rc = write_app(&x, f, err);
	if (!rc)
		rc = write_nic(&x, f, err);
	return rc;
}

static int host_apply(struct rc_session *s, const struct rc_port_write *w, size_t n,
		      struct rc_err *err)
{
	if (s->dry_run)
		return rc_errf(err, EPERM, "'%s': refusing to write during a dry run", s->device);
	for (size_t i = 0; i < n; i++) {
		int rc = apply_port(s, &w[i], err);

		if (rc)
			return rc;
	}
	return 0;
}

static int host_counters(struct rc_session *s, const struct rc_port_state *ports, size_t n,
			 struct rc_counters *out, struct rc_err *err)
{
	struct rc_rdma_port *p = malloc(sizeof(*p));
	int rc = 0;

	if (!p)
		return rc_errf(err, ENOMEM, "out of memory");
	for (size_t i = 0; !rc && i < n; i++) {
		rc = rc_host_ethtool_counters(ports[i].name, out, err);
		/* A netdev without ethtool statistics may still have RDMA counters. */
		if (rc == -EOPNOTSUPP)
			rc = 0;
		if (!rc)
			rc = rc_rdma_lookup(s->root, ports[i].name, p, err);
		if (!rc)
			rc = rc_host_rdma_counters(s->root, ports[i].name, p, out, err);
	}
	free(p);
	return rc;
}

/* This machine's LLDP neighbours, from its lldpd (lldpd_local.c), for the cabling checks. */
static int host_neighbors(struct rc_session *s, struct rc_neighbors *out, struct rc_err *err)
{
	return rc_lldpd_local(s->device, out, err);
}

const struct rc_driver rc_host_driver = {
    .name = "mlx5",
    /* A pfc_en change flaps the link; a trust change restarts the channels (mlx5 en_dcbnl.c). */
    .disruptive = RC_F_PFC | RC_F_TRUST,
    .open = host_open,
    .ports = host_ports,
    .read = host_read,
    .apply = host_apply,
    .counters = host_counters,
    .close = host_close,
    .neighbors = host_neighbors,
};

RC_DRIVER_REGISTER(rc_host_driver)
