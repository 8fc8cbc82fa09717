/* SPDX-License-Identifier: Apache-2.0 */
/* LLDP: NVUE's neighbour table parser (drivers/switch/nvue_lldp.c) on well-formed and
 * hostile text, and the cabling check against the inventory (engine/diag/lldp.c) on
 * neighbour lists made by hand. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>
#include <cmocka.h>

#include "../../drivers/host/lldpd.h"
#include "../../drivers/switch/eos.h"
#include "../../drivers/switch/nvue.h"
#include "../../drivers/switch/sonic.h"
#include "../../drivers/switch/switch_common.h"
#include "rocectl/lldp.h"

/* The shape of the NVUE command reference's example, with this project's names. */
static const char table[] = "Interface  Speed  Type  Remote Host      Remote Port      \n"
			    "---------  -----  ----  ---------------  -----------------\n"
			    "eth0       1G     eth   oob-mgmt         swp10            \n"
			    "swp1       400G   swp   gpu001           aa:bb:cc:00:11:22\n"
			    "swp2              swp                                     \n"
			    "swp51      400G   swp   spine01.dc1      swp1             \n";

/* A read with the LLDP table folded in (NVUE_LLDP_PREFIX): the table, its end marker, the
 * QoS marker, the QoS documents. */
static void test_nvue_split(void **state)
{
	char buf[1024];
	struct rc_neighbors nb = {0};
	struct rc_err err = {0}, nerr = {0};
	size_t from = 0;
	int nrc = -1;

	(void)state;
	snprintf(buf, sizeof(buf), "%s" NVUE_LLDP_END "\n" NVUE_QOS_BEGIN "\n{}\n", table);
	assert_int_equal(nvue_split_lldp(buf, strlen(buf), "leaf01", &nb, &nrc, &nerr, &from, &err),
			 0);
	assert_int_equal(nrc, 0);
	assert_int_equal(nb.n, 3);
	assert_string_equal(buf + from, "{}\n");
	rc_neighbors_fini(&nb);
	memset(&nb, 0, sizeof(nb));

	/* `nv show interface lldp` failed: no table, no end marker -> an error of the LLDP
	 * section naming the device, never an empty list; the QoS part still parses */
	snprintf(buf, sizeof(buf), NVUE_QOS_BEGIN "\n{}\n");
	assert_int_equal(nvue_split_lldp(buf, strlen(buf), "leaf01", &nb, &nrc, &nerr, &from, &err),
			 0);
	assert_int_equal(nrc, -EIO);
	assert_non_null(strstr(nerr.msg, "leaf01"));
	assert_non_null(strstr(nerr.msg, "LLDP"));
	assert_int_equal(nb.n, 0);

	/* the table cut short before its end marker */
	snprintf(buf, sizeof(buf), "%.80s\n" NVUE_QOS_BEGIN "\n{}\n", table);
	assert_int_equal(nvue_split_lldp(buf, strlen(buf), "leaf01", &nb, &nrc, &nerr, &from, &err),
			 0);
	assert_int_equal(nrc, -EIO);
	rc_neighbors_fini(&nb);
	memset(&nb, 0, sizeof(nb));

	/* a marker inside a line is not a marker; no QoS line at all is the read's error */
	snprintf(buf, sizeof(buf), "%s x" NVUE_LLDP_END "\n x" NVUE_QOS_BEGIN "\n", table);
	assert_int_equal(nvue_split_lldp(buf, strlen(buf), "leaf01", &nb, &nrc, &nerr, &from, &err),
			 -EPROTO);
	assert_non_null(strstr(err.msg, "QoS section"));
	assert_non_null(strstr(err.msg, "leaf01"));
	rc_neighbors_fini(&nb);
}

/* Three sections (NVUE_CNT_PREFIX): the outer split finds the counters' end, the inner one
 * the LLDP end inside what precedes it; a counters section cut short is told apart. */
static void test_split_nested(void **state)
{
	const char ok[] = "T\n" NVUE_LLDP_END "\n" NVUE_CNT_BEGIN "\n{}\n" NVUE_CNT_END
			  "\n" NVUE_QOS_BEGIN "\n{}\n";
	const char cut[] = "T\n" NVUE_LLDP_END "\n" NVUE_CNT_BEGIN "\n{\n" NVUE_QOS_BEGIN "\n{}\n";
	size_t pre, lend, coff, qoff;
	bool cok, lok;

	(void)state;
	assert_int_equal(
	    rc_switch_split_folded(ok, strlen(ok), NVUE_CNT_END, NVUE_QOS_BEGIN, &pre, &cok, &qoff),
	    0);
	assert_true(cok);
	assert_string_equal(ok + qoff, "{}\n");
	assert_int_equal(
	    rc_switch_split_folded(ok, pre, NVUE_LLDP_END, NVUE_CNT_BEGIN, &lend, &lok, &coff), 0);
	assert_true(lok);
	assert_int_equal(lend, 2);
	assert_int_equal(pre - coff, 3); /* "{}\n" */
	assert_int_equal(rc_switch_split_folded(cut, strlen(cut), NVUE_CNT_END, NVUE_QOS_BEGIN,
						&pre, &cok, &qoff),
			 0);
	assert_false(cok);
	assert_int_equal(
	    rc_switch_split_folded("T\n", 2, NVUE_CNT_END, NVUE_QOS_BEGIN, &pre, &cok, &qoff),
	    -EPROTO);
}

static void test_nvue_table(void **state)
{
	struct rc_neighbors nb = {0};
	struct rc_err err = {0};

	(void)state;
	assert_int_equal(nvue_parse_lldp(table, strlen(table), "leaf01", &nb, &err), 0);
	assert_int_equal(nb.n, 3); /* swp2 has no neighbour */
	assert_string_equal(nb.v[0].port, "eth0");
	assert_string_equal(nb.v[1].port, "swp1");
	assert_string_equal(nb.v[1].device, "gpu001");
	assert_string_equal(nb.v[1].remote_port, "aa:bb:cc:00:11:22");
	assert_string_equal(nb.v[2].port, "swp51");
	assert_string_equal(nb.v[2].device, "spine01.dc1");
	assert_string_equal(nb.v[2].remote_port, "swp1");
	rc_neighbors_fini(&nb);
}

/* A peer without a System Name (a ConnectX firmware agent: MAC port ID, no name; conformance
 * host/lldp/connectx.pcap) leaves Remote Host blank: kept, nameless. */
static void test_nvue_nameless(void **state)
{
	static const char t[] = "Interface  Speed  Type  Remote Host      Remote Port      \n"
				"---------  -----  ----  ---------------  -----------------\n"
				"swp1       400G   swp                    50:6b:4b:f6:1e:b1\n";
	struct rc_neighbors nb = {0};
	struct rc_err err = {0};

	(void)state;
	assert_int_equal(nvue_parse_lldp(t, strlen(t), "leaf01", &nb, &err), 0);
	assert_int_equal(nb.n, 1);
	assert_string_equal(nb.v[0].device, "");
	assert_string_equal(nb.v[0].remote_port, "50:6b:4b:f6:1e:b1");
	rc_neighbors_fini(&nb);
}

static void test_nvue_hostile(void **state)
{
	struct rc_neighbors nb = {0};
	struct rc_err err = {0};
	char big[4096];
	const char *ctl = "Interface  Speed  Type  Remote Host  Remote Port\n"
			  "swp1       1G     swp   bad\x01name   swp1\n"
			  "swp2       1G     swp   ok           swp2\n";

	(void)state;
	/* not the table: an error naming the command and the device */
	assert_int_equal(nvue_parse_lldp("Error: unknown command\n", 23, "leaf01", &nb, &err),
			 -EPROTO);
	assert_non_null(strstr(err.msg, "nv show interface lldp"));
	assert_non_null(strstr(err.msg, "leaf01"));
	/* empty answer: no neighbours */
	assert_int_equal(nvue_parse_lldp("", 0, "leaf01", &nb, &err), 0);
	assert_int_equal(nb.n, 0);
	/* a control byte in a cell: that row is skipped */
	assert_int_equal(nvue_parse_lldp(ctl, strlen(ctl), "leaf01", &nb, &err), 0);
	assert_int_equal(nb.n, 1);
	assert_string_equal(nb.v[0].device, "ok");
	rc_neighbors_fini(&nb);
	/* a name longer than any port: skipped, no overflow */
	snprintf(big, sizeof(big),
		 "Interface  Speed  Type  Remote Host  Remote Port\nswp1       1G "
		 "    swp   %0300d  swp1\n",
		 7);
	assert_int_equal(nvue_parse_lldp(big, strlen(big), "leaf01", &nb, &err), 0);
	assert_int_equal(nb.n, 0);
	rc_neighbors_fini(&nb);
}

/* lldpshow's summary (sonic-utilities), with this project's names. */
static void test_sonic_table(void **state)
{
	struct rc_neighbors nb = {0};
	struct rc_err err = {0};
	const char *t = "Capability codes: (R) Router, (B) Bridge, (O) Other\n"
			"LocalPort    RemoteDevice    RemotePortID    Capability  RemotePortDescr\n"
			"-----------  --------------  --------------  ----------  ---------------\n"
			"Ethernet0    gpu001          enp12s0np0      O           enp12s0np0\n"
			"Ethernet8    spine01         Ethernet4       BR          to leaf01\n"
			"Ethernet12   spine\x02x        Ethernet4       BR\n"
			"--------------------------------------------------\n"
			"Total entries displayed:  3\n";

	(void)state;
	assert_int_equal(sonic_parse_lldp(t, strlen(t), "leaf02", &nb, &err), 0);
	assert_int_equal(nb.n, 2);
	assert_string_equal(nb.v[1].port, "Ethernet8");
	assert_string_equal(nb.v[1].device, "spine01");
	assert_string_equal(nb.v[1].remote_port, "Ethernet4");
	rc_neighbors_fini(&nb);
	assert_int_equal(sonic_parse_lldp("Usage: show [OPTIONS]\n", 22, "leaf02", &nb, &err),
			 -EPROTO);
	assert_non_null(strstr(err.msg, "show lldp table"));
	rc_neighbors_fini(&nb);
}

/* EOS's JSON model of `show lldp neighbors`, written for this test. */
static void test_eos_json(void **state)
{
	struct rc_neighbors nb = {0};
	struct rc_err err = {0};
	cJSON *doc = cJSON_Parse(
	    "{\"tablesAgeOuts\": 0, \"lldpNeighbors\": ["
	    "{\"port\": \"Ethernet1\", \"neighborDevice\": \"gpu001\", \"neighborPort\": "
	    "\"enp12s0np0\", \"ttl\": 120},"
	    "{\"port\": \"Ethernet2\", \"neighborDevice\": 7, \"neighborPort\": \"x\"},"
	    "{\"port\": \"Ethernet3\", \"neighborDevice\": \"has space\", \"neighborPort\": "
	    "\"x\"}]}");
	cJSON *bad = cJSON_Parse("{\"lldpNeighbors\": 7}");

	(void)state;
	assert_non_null(doc);
	assert_int_equal(eos_parse_lldp(doc, "leaf03", &nb, &err), 0);
	assert_int_equal(nb.n, 1);
	assert_string_equal(nb.v[0].port, "Ethernet1");
	assert_string_equal(nb.v[0].device, "gpu001");
	assert_string_equal(nb.v[0].remote_port, "enp12s0np0");
	assert_int_equal(eos_parse_lldp(bad, "leaf03", &nb, &err), -EPROTO);
	assert_non_null(strstr(err.msg, "show lldp neighbors"));
	assert_int_equal(eos_parse_lldp(NULL, "leaf03", &nb, &err), -EPROTO);
	cJSON_Delete(doc);
	cJSON_Delete(bad);
	rc_neighbors_fini(&nb);
}

/* lldpd's json0: every level an array (lldpcli(8)); written for this test. */
static void test_lldpd_json0(void **state)
{
	struct rc_neighbors nb = {0};
	struct rc_err err = {0};
	const char *doc =
	    "{\"lldp\": [{\"interface\": ["
	    "{\"name\": \"enp12s0np0\", \"via\": \"LLDP\","
	    " \"chassis\": [{\"id\": [{\"type\": \"mac\", \"value\": \"02:00:00:00:00:01\"}],"
	    "                \"name\": [{\"value\": \"leaf01\"}]}],"
	    " \"port\": [{\"id\": [{\"type\": \"ifname\", \"value\": \"swp1\"}]}]},"
	    "{\"name\": \"enp13s0np0\", \"chassis\": [{\"name\": [{\"value\": \"bad name\"}]}],"
	    " \"port\": [{\"id\": [{\"value\": \"swp2\"}]}]},"
	    "{\"name\": \"enp14s0np0\", \"chassis\": [{}], \"port\": [{}]}"
	    "]}]}";

	(void)state;
	assert_int_equal(rc_lldpd_parse(doc, strlen(doc), "gpu001", &nb, &err), 0);
	assert_int_equal(nb.n, 1);
	assert_string_equal(nb.v[0].port, "enp12s0np0");
	assert_string_equal(nb.v[0].device, "leaf01");
	assert_string_equal(nb.v[0].remote_port, "swp1");
	rc_neighbors_fini(&nb);
	/* no neighbours at all */
	assert_int_equal(rc_lldpd_parse("{\"lldp\": [{}]}", 14, "gpu001", &nb, &err), 0);
	assert_int_equal(nb.n, 0);
	/* -f json (objects, not arrays) or garbage: an error naming the command */
	assert_int_equal(rc_lldpd_parse("{\"lldp\": {\"interface\": {}}}", 29, "gpu001", &nb, &err),
			 -EPROTO);
	assert_non_null(strstr(err.msg, "lldpcli -f json0"));
	assert_int_equal(rc_lldpd_parse("not json", 8, "gpu001", &nb, &err), -EPROTO);
	rc_neighbors_fini(&nb);
}

static const char inventory[] =
    "apiVersion: rocectl/v1\nkind: Inventory\n"
    "hosts:\n"
    "  - {name: gpu1, transport: local, interfaces: [e0]}\n"
    "switches:\n"
    "  - {name: leaf1, platform: nvue, role: leaf, ports: [p1, up, x]}\n"
    "  - {name: leaf2, platform: nvue, role: leaf, ports: [up]}\n"
    "  - {name: spine, platform: nvue, role: spine, ports: [s1, s2]}\n"
    "links:\n"
    "  - {a: 'gpu1:e0', b: 'leaf1:p1'}\n"
    "  - {a: 'leaf1:up', b: 'spine:s1'}\n"
    "  - {a: 'leaf2:up', b: 'spine:s2'}\n";

struct fx {
	struct rc_inventory inv;
	struct rc_lldp l;
	struct rc_cabling c;
	struct rc_err err;
};

static size_t idx(struct fx *f, const char *name)
{
	ptrdiff_t i = rc_inventory_device_index(&f->inv, name);

	assert_true(i >= 0);
	return (size_t)i;
}

static void see(struct fx *f, const char *dev, const char *port, const char *rdev,
		const char *rport)
{
	struct rc_lldp_dev *d = &f->l.d[idx(f, dev)];

	d->state = RC_LLDP_OK;
	assert_int_equal(rc_neighbors_add(&d->nb, port, rdev, rport), 0);
}

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	assert_int_equal(rc_inventory_load_buffer("i.yaml", inventory, strlen(inventory), &f->inv,
						  NULL, &f->err),
			 0);
	f->l.inv = &f->inv;
	f->l.d = calloc(f->inv.n_devices, sizeof(*f->l.d));
	assert_non_null(f->l.d);
	f->l.d[idx(f, "gpu1")].state = RC_LLDP_UNKNOWN; /* no lldpd */
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	rc_cabling_fini(&f->c);
	rc_lldp_fini(&f->l);
	rc_inventory_fini(&f->inv);
	free(f);
	return 0;
}

static void test_cabling_right(void **state)
{
	struct fx *f = *state;

	/* a MAC port id matches any port of the device; an FQDN its first label */
	see(f, "leaf1", "p1", "gpu1", "02:5a:00:00:00:01");
	see(f, "leaf1", "up", "spine.dc1.example", "s1");
	see(f, "spine", "s1", "leaf1", "up");
	see(f, "spine", "s2", "leaf2", "up");
	see(f, "leaf2", "up", "spine", "s2");
	see(f, "leaf1", "x", "laptop-of-someone", "eth0"); /* not an inventory device */
	assert_int_equal(rc_cabling_check(&f->c, &f->l, &f->err), 0);
	assert_int_equal(f->c.n, 0);
	assert_int_equal(f->c.links_checked, 3);
	assert_int_equal(f->c.links_unknown, 0);
}

static void test_cabling_wrong(void **state)
{
	struct fx *f = *state;

	see(f, "leaf1", "p1", "gpu1", "e0");
	see(f, "leaf1", "up", "spine", "s2"); /* swapped */
	see(f, "spine", "s1", "leaf2", "up");
	see(f, "leaf1", "x", "leaf2", "x"); /* a cable the inventory lacks */
	/* leaf2 reads LLDP but sees nothing on up; spine sees nothing on s2 */
	f->l.d[idx(f, "leaf2")].state = RC_LLDP_OK;
	assert_int_equal(rc_cabling_check(&f->c, &f->l, &f->err), 0);
	assert_int_equal(f->c.n, 5);
	assert_int_equal(f->c.v[0].kind, RC_CABLE_MISCABLED);
	assert_int_equal(f->c.v[0].dev, idx(f, "leaf1"));
	assert_string_equal(f->c.v[0].seen, "spine:s2");
	assert_string_equal(f->c.v[0].want, "spine:s1");
	assert_int_equal(f->c.v[1].kind, RC_CABLE_MISCABLED);
	assert_int_equal(f->c.v[1].dev, idx(f, "spine"));
	assert_int_equal(f->c.v[2].kind, RC_CABLE_MISSING);
	assert_string_equal(f->c.v[2].port, "up");
	assert_int_equal(f->c.v[2].dev, idx(f, "leaf2"));
	assert_int_equal(f->c.v[3].kind, RC_CABLE_MISSING);
	assert_int_equal(f->c.v[3].dev, idx(f, "spine"));
	assert_string_equal(f->c.v[3].port, "s2");
	assert_int_equal(f->c.v[4].kind, RC_CABLE_EXTRA);
	assert_int_equal(f->c.v[4].link, SIZE_MAX);
	assert_string_equal(f->c.v[4].seen, "leaf2:x");
}

static void test_cabling_unknown(void **state)
{
	struct fx *f = *state;

	/* nothing reads LLDP but the host, which has none: every link unknown, no finding */
	assert_int_equal(rc_cabling_check(&f->c, &f->l, &f->err), 0);
	assert_int_equal(f->c.n, 0);
	assert_int_equal(f->c.links_checked, 0);
	assert_int_equal(f->c.links_unknown, 3);
}

static bool same_finding(const struct rc_cable_finding *a, const struct rc_cable_finding *b)
{
	return a->kind == b->kind && a->link == b->link && a->dev == b->dev &&
	       !strcmp(a->port, b->port) && !strcmp(a->seen, b->seen) && !strcmp(a->want, b->want);
}

/* One device at a time (verify --format jsonl): each device's findings from its LLDP and
 * its link ends alone, together, are the whole check's. */
static void test_cabling_per_device(void **state)
{
	struct fx *f = *state;
	struct rc_cabling one = {0};
	size_t ends[8];

	see(f, "leaf1", "p1", "gpu1", "e0");
	see(f, "leaf1", "up", "spine", "s2");
	see(f, "spine", "s1", "leaf2", "up");
	see(f, "leaf1", "x", "leaf2", "x");
	f->l.d[idx(f, "leaf2")].state = RC_LLDP_OK;
	assert_int_equal(rc_cabling_check(&f->c, &f->l, &f->err), 0);
	for (size_t d = 0; d < f->inv.n_devices; d++) {
		size_t n = 0;

		for (size_t k = 0; k < f->inv.n_links; k++) {
			if (f->inv.links[k].a.dev == d)
				ends[n++] = 2 * k;
			if (f->inv.links[k].b.dev == d)
				ends[n++] = 2 * k + 1;
		}
		assert_int_equal(
		    rc_cabling_check_device(&one, &f->inv, d, &f->l.d[d], ends, n, &f->err), 0);
	}
	assert_int_equal(one.n, f->c.n);
	for (size_t i = 0; i < f->c.n; i++) {
		bool found = false;

		for (size_t j = 0; j < one.n && !found; j++)
			found = same_finding(&one.v[j], &f->c.v[i]);
		assert_true(found);
	}
	/* a device whose LLDP was not read adds nothing */
	f->l.d[idx(f, "leaf1")].state = RC_LLDP_ERROR;
	{
		size_t before = one.n;

		assert_int_equal(rc_cabling_check_device(&one, &f->inv, idx(f, "leaf1"),
							 &f->l.d[idx(f, "leaf1")], ends, 0,
							 &f->err),
				 0);
		assert_int_equal(one.n, before);
	}
	rc_cabling_fini(&one);
}

/* Port IDs as devices send them (conformance sonic/FACTS.md facts 6-7, host/FACTS.md fact
 * 10): a SONiC peer advertises its port's alias, a NIC's firmware agent a MAC and no System
 * Name.  With the far device's identities the alias and the MAC are its port; without them
 * an alias from the right device is a different port (miscabled), a nameless MAC cannot be
 * told. */
static void test_cabling_identities(void **state)
{
	struct fx *f = *state;
	struct rc_lldp_dev *leaf1 = &f->l.d[idx(f, "leaf1")], *leaf2 = &f->l.d[idx(f, "leaf2")];
	struct rc_lldp_dev *gpu = &f->l.d[idx(f, "gpu1")];

	see(f, "leaf1", "p1", "", "50:6B:4B:F6:1E:B1"); /* the ConnectX frame's port ID */
	see(f, "leaf1", "up", "spine", "s1");
	see(f, "spine", "s1", "leaf1", "etp2"); /* lldpmgrd: portidsubtype local etp2 */
	see(f, "spine", "s2", "leaf2", "Ethernet1/1");
	see(f, "leaf2", "up", "spine", "s2");
	/* no identities known: the aliases are other ports, the nameless MAC is not judged */
	rc_lldp_resolve(&f->l);
	assert_int_equal(rc_cabling_check(&f->c, &f->l, &f->err), 0);
	assert_int_equal(f->c.n, 2);
	assert_string_equal(f->c.v[0].seen, "leaf1:etp2");
	assert_string_equal(f->c.v[1].seen, "leaf2:Ethernet1/1");
	rc_cabling_fini(&f->c);
	/* the switches' aliases and the host's MAC: every end is right, named by its port */
	assert_int_equal(rc_neighbors_add_ident(&leaf1->nb, "up", "etp2", NULL), 0);
	assert_int_equal(rc_neighbors_add_ident(&leaf1->nb, "p1", "etp1", NULL), 0);
	assert_int_equal(rc_neighbors_add_ident(&leaf2->nb, "up", "Ethernet1/1", NULL), 0);
	assert_int_equal(rc_neighbors_add_ident(&gpu->nb, "e0", NULL, "50:6b:4b:f6:1e:b1"), 0);
	rc_lldp_resolve(&f->l);
	assert_int_equal(rc_cabling_check(&f->c, &f->l, &f->err), 0);
	assert_int_equal(f->c.n, 0);
	assert_int_equal(f->c.links_checked, 3);
	assert_string_equal(leaf1->nb.v[0].device, "gpu1");
	assert_string_equal(leaf1->nb.v[0].remote_port, "e0");
	assert_string_equal(f->l.d[idx(f, "spine")].nb.v[0].remote_port, "up");
	rc_cabling_fini(&f->c);
}

/* A nameless neighbour whose MAC is another device's port is that device: miscabled. */
static void test_cabling_nameless_mac(void **state)
{
	struct fx *f = *state;

	see(f, "leaf1", "p1", "", "02:00:00:00:00:02");
	see(f, "leaf1", "up", "spine", "s1");
	assert_int_equal(
	    rc_neighbors_add_ident(&f->l.d[idx(f, "leaf2")].nb, "up", NULL, "02:00:00:00:00:02"),
	    0);
	rc_lldp_resolve(&f->l);
	assert_int_equal(rc_cabling_check(&f->c, &f->l, &f->err), 0);
	assert_int_equal(f->c.n, 1);
	assert_int_equal(f->c.v[0].kind, RC_CABLE_MISCABLED);
	assert_string_equal(f->c.v[0].seen, "leaf2:up");
	assert_string_equal(f->c.v[0].want, "gpu1:e0");
}

/* `discover`: one printer for its YAML and its JSON (rc_lldp_print_links); a cable seen
 * from both ends once; a far port id that is a MAC names no port; a port name from a
 * device that is not UTF-8 comes out as U+FFFD in both. */
static char *links(struct fx *f, enum rc_out_mode mode)
{
	struct rc_out o;
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	assert_non_null(m);
	rc_out_init(&o, m, mode);
	o.no_header = true;
	rc_out_open_object(&o, NULL);
	rc_lldp_print_links(&o, &f->l);
	rc_out_close_object(&o);
	fclose(m);
	return buf;
}

static void test_discover_links(void **state)
{
	struct fx *f = *state;
	char *text, *json;

	see(f, "leaf1", "p1\xfe", "gpu1", "02:5a:00:00:00:01");
	see(f, "leaf1", "up", "spine", "s1");
	see(f, "spine", "s1", "leaf1", "up"); /* the same cable from the other end */
	see(f, "spine", "s2", "leaf2", "up\xff");
	text = links(f, RC_OUT_TEXT);
	json = links(f, RC_OUT_JSON);
	assert_string_equal(
	    text, "links:\n"
		  "  # leaf1:p1\xef\xbf\xbd sees gpu1, port id 02:5a:00:00:00:01 (a MAC: set "
		  "lldpd's portidsubtype to ifname)\n"
		  "  - {a: \"leaf1:up\", b: \"spine:s1\"}\n"
		  "  - {a: \"spine:s2\", b: \"leaf2:up\xef\xbf\xbd\"}\n");
	assert_string_equal(json, "{\"links\":[{\"a\":\"leaf1:p1\\ufffd\",\"b_device\":\"gpu1\","
				  "\"b_port_id_mac\":\"02:5a:00:00:00:01\"},"
				  "{\"a\":\"leaf1:up\",\"b\":\"spine:s1\"},"
				  "{\"a\":\"spine:s2\",\"b\":\"leaf2:up\\ufffd\"}]}");
	free(text);
	free(json);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_nvue_table),
	    cmocka_unit_test(test_nvue_nameless),
	    cmocka_unit_test(test_nvue_hostile),
	    cmocka_unit_test(test_lldpd_json0),
	    cmocka_unit_test(test_sonic_table),
	    cmocka_unit_test(test_eos_json),
	    cmocka_unit_test_setup_teardown(test_cabling_right, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_cabling_per_device, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_cabling_wrong, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_cabling_unknown, setup, teardown),
	    cmocka_unit_test(test_nvue_split),
	    cmocka_unit_test(test_split_nested),
	    cmocka_unit_test_setup_teardown(test_discover_links, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_cabling_identities, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_cabling_nameless_mac, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
