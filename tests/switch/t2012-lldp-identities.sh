#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# LLDP port IDs as the devices send them, on a SONiC and an EOS switch cabled together:
# SONiC's lldpmgrd advertises each port's CONFIG_DB alias as a locally assigned port ID
# (`portidsubtype local <alias>`: etp1, ...; conformance sonic/FACTS.md facts 6-7), so the EOS
# switch sees "etp1", printed quoted in `show lldp neighbors detail` (eos/FACTS.md fact 18);
# a NIC's firmware agent sends a MAC and no System Name (host/FACTS.md fact 10), a blank
# RemoteDevice in SONiC's `show lldp table`.  rocectl must match the alias to the port by
# the SONiC switch's own aliases: the cabling is right, discover prints the inventory's
# port names, and a swapped pair is still found.
. "$SRC_DIR/tests/lib/testlib.sh"

SIMCTL="$SRC_DIR/tests/sim/switch/simctl"
LAB="$TMP/lab"
INV="$TMP/inventory.yaml"
P="$SRC_DIR/policies/roce-lossless.yaml"
export BUILD_DIR

sim() {
	sh "$SIMCTL" "$@"
}

rc() {
	sh "$SIMCTL" exec "$LAB" -- env -u SSH_AUTH_SOCK ROCECTL_JOURNAL="$TMP/j" "$ROCECTL" "$@"
}

test_at_exit 'sh "$SIMCTL" down "$LAB" >/dev/null 2>&1 || true'

test_expect_success 'a SONiC and an EOS switch, two cables between them' '
	sim up "$LAB" --switch s1=127.0.61.1:sonic --switch e1=127.0.61.2:eos >/dev/null &&
	{ cat "$LAB/inventory.yaml" &&
		printf "links:\n  - {a: \"s1:Ethernet0\", b: \"e1:Ethernet1\"}\n" &&
		printf "  - {a: \"s1:Ethernet4\", b: \"e1:Ethernet2\"}\n"; } >"$INV" &&
	sim cli "$LAB" s1 "show runningconfiguration all" |
		jq -e ".PORT.Ethernet0.alias == \"etp1\" and .PORT.Ethernet4.alias == \"etp2\"" &&
	sim fault "$LAB" e1 lldp Ethernet1=s1:etp1,local Ethernet2=s1:etp2,local \
		Ethernet3=:50:6b:4b:f6:1e:b1,mac &&
	sim fault "$LAB" s1 lldp Ethernet0=e1:Ethernet1 Ethernet4=e1:Ethernet2 \
		Ethernet8=:50:6b:4b:f6:1e:b1,mac
'

test_expect_success 'the switches print the IDs as they were sent' '
	sim cli "$LAB" e1 "show lldp neighbors detail | json revision 1" >"$TMP/eos.json" &&
	jq -e ".lldpNeighbors.Ethernet1.lldpNeighborInfo[0] |
		.systemName == \"s1\" and .neighborInterfaceInfo.interfaceIdType == \"local\" and
		.neighborInterfaceInfo.interfaceId == \"\\\"etp1\\\"\"" "$TMP/eos.json" &&
	jq -e ".lldpNeighbors.Ethernet3.lldpNeighborInfo[0] | (has(\"systemName\") | not) and
		.neighborInterfaceInfo.interfaceId == \"506b.4bf6.1eb1\"" "$TMP/eos.json" &&
	jq -e ".lldpNeighbors.Ethernet4.lldpNeighborInfo == []" "$TMP/eos.json" &&
	sim cli "$LAB" s1 "show lldp table" >"$TMP/sonic.txt" &&
	grep -q "^Ethernet8  *50:6b:4b:f6:1e:b1$" "$TMP/sonic.txt"
'

test_expect_success 'verify: the cabling is right, the aliases matched to their ports' '
	test_expect_code 2 rc verify -p "$P" -i "$INV" --format json >"$TMP/v.json" &&
	jq -e ".cabling.status == \"ok\" and .cabling.links_checked == 2 and
		.cabling.findings == []" "$TMP/v.json"
'

test_expect_success 'discover prints the inventory port names, not the aliases' '
	rc discover -i "$INV" >"$TMP/d.yaml" &&
	grep -q "{a: \"s1:Ethernet0\", b: \"e1:Ethernet1\"}" "$TMP/d.yaml" &&
	grep -q "{a: \"s1:Ethernet4\", b: \"e1:Ethernet2\"}" "$TMP/d.yaml" &&
	test_must_not_contain "$TMP/d.yaml" "etp"
'

test_expect_success 'a swapped pair is found, named by the ports the aliases stand for' '
	sim fault "$LAB" e1 lldp Ethernet1=s1:etp2,local Ethernet2=s1:etp1,local &&
	sim fault "$LAB" s1 lldp Ethernet0=e1:Ethernet2 Ethernet4=e1:Ethernet1 &&
	test_expect_code 2 rc verify -p "$P" -i "$INV" --format json >"$TMP/m.json" &&
	jq -e ".cabling.status == \"drift\" and (.cabling.findings | length) == 4 and
		all(.cabling.findings[]; .kind == \"miscabled\") and
		any(.cabling.findings[]; .at == \"e1:Ethernet1\" and .seen == \"s1:Ethernet4\")" \
		"$TMP/m.json"
'

test_expect_success 'the simulated switches go down cleanly' '
	sim down "$LAB"
'
test_done
