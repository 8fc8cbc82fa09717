#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Cabling against Debian's real lldpd, no simulator in the LLDP path.  Two network
# namespaces joined by two veth pairs, an lldpd in each (each in its own mount namespace,
# so each has its own /run/lldpd.socket): one configured as a SONiC switch's lldpmgrd
# configures it (system name leaf01, each port's ID its alias, `portidsubtype local`,
# sonic/lldp/lldpmgrd.portidsubtype.excerpt in the conformance kit), the other as a host
# (MAC port IDs).  rocectl runs in the host's namespaces as a transport-local host and reads
# `lldpcli -f json0 show neighbors` (drivers/host/lldpd_local.c, parsed by lldpd.c): the
# cabling check must find both links right, then, with the two cables swapped, name both.
# The veths have no DCB, so the host's own configuration is an error here (exit 1); only
# the cabling section is judged.  Root; lldpd from `make deps` (DEB_PACKAGES).
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

test_needs root lldpd lldpcli

H=rocectl-t1150-h-$$
S=rocectl-t1150-s-$$
POLICY="$SRC_DIR/policies/roce-lossless.yaml"
INV="$TMP/inventory.yaml"
ip netns add "$H" && ip netns add "$S" ||
	{ echo "not ok - cannot create network namespaces"; exit 1; }
# the lldpds (each leaves its pid file when started), then the namespaces (test_at_exit
# runs the last registered first); registered here, as test bodies run in subshells
test_at_exit "ip netns del $H; ip netns del $S"
test_at_exit 'for f in "$TMP"/*.pid; do [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null; done; true'

# lldpd in its own mount namespace (a private /run) inside network namespace $1, started
# in the foreground (-d) in the background; its pid in $TMP/$1.pid (the same process:
# ip netns exec, unshare and sh exec each other)
start_lldpd() {
	ip netns exec "$1" unshare -m --propagation private \
		sh -c 'mount -t tmpfs tmpfs /run && exec lldpd -d -O "$0" -I "$1"' "$2" "$3" \
		>"$TMP/$1.log" 2>&1 &
	echo $! >"$TMP/$1.pid"
}

# run in the mount and network namespaces of the lldpd of namespace $1
in_lldpd() {
	ns=$1
	shift
	nsenter -t "$(cat "$TMP/$ns.pid")" -m -n "$@"
}

cable() { # HOST_IF SWITCH_IF
	ip link add "$1" netns "$H" type veth peer name "$2" netns "$S" &&
		ip -n "$H" link set "$1" up && ip -n "$S" link set "$2" up
}

# the switch's lldpmgrd step: each port advertises its alias (here: the inventory's names)
switch_port_ids() {
	in_lldpd "$S" lldpcli configure ports sw-p1 lldp portidsubtype local Ethernet1 &&
		in_lldpd "$S" lldpcli configure ports sw-p2 lldp portidsubtype local Ethernet2
}

# wait until the host's lldpd sees `leaf01 PORT` on interface IF and nothing else there
# (an entry of the cable before lives until its TTL: 4 s at tx-interval 1)
host_sees() { # IF PORT
	i=0
	while [ $i -lt 15 ]; do
		in_lldpd "$H" lldpcli -f json0 show neighbors >"$TMP/nb.json" 2>/dev/null &&
			jq -e --arg i "$1" --arg p "$2" '[.lldp[0].interface[]? | select(.name == $i) |
				[.chassis[0].name[0].value, .port[0].id[0].value]] == [["leaf01", $p]]' \
				"$TMP/nb.json" >/dev/null && return 0
		sleep 1
		i=$((i + 1))
	done
	echo "# $1 never saw leaf01 $2; lldpcli -f json0 show neighbors said:"
	jq -c ".lldp[0].interface[]? | {name, chassis: .chassis[0].name, port: .port[0].id}" \
		"$TMP/nb.json" | sed "s/^/# /"
	return 1
}

rocectl_in_host() {
	in_lldpd "$H" env ROCECTL_LOCK_DIR="$TMP/locks" ROCECTL_JOURNAL="$TMP/journal" \
		"$ROCECTL" "$@"
}

test_expect_success 'two namespaces, two cables, a switch and a host lldpd' '
	chmod 711 "$TMP" && # lldpcli reads -O files after dropping privileges (lldpd(8) -O)
	ip -n "$H" link set lo up && ip -n "$S" link set lo up &&
	cable eth-a sw-p1 && cable eth-b sw-p2 &&
	printf "%s\n" "configure system hostname leaf01" "configure lldp tx-interval 1" \
		>"$TMP/switch.conf" &&
	printf "%s\n" "configure system hostname gpu1" "configure lldp tx-interval 1" \
		"configure lldp portidsubtype macaddress" >"$TMP/host.conf" &&
	start_lldpd "$S" "$TMP/switch.conf" "sw-p*" &&
	start_lldpd "$H" "$TMP/host.conf" "eth-*" &&
	sleep 1 && switch_port_ids &&
	host_sees eth-a Ethernet1 && host_sees eth-b Ethernet2 &&
	cat >"$INV" <<-EOF
	apiVersion: rocectl/v1
	kind: Inventory
	hosts:
	  - name: gpu1
	    transport: local
	    interfaces: [eth-a, eth-b]
	switches:
	  - {name: leaf01, address: 192.0.2.1, platform: sonic, transport: ssh,
	     ports: [Ethernet1, Ethernet2]}
	links:
	  - {a: "gpu1:eth-a", b: "leaf01:Ethernet1"}
	  - {a: "gpu1:eth-b", b: "leaf01:Ethernet2"}
	EOF
'

test_expect_success 'the switch sees the host by its MAC port IDs (lldpd configured as a host)' '
	mac=$(ip -n "$H" -br link show eth-a | awk "{ print \$3 }") &&
	i=0 && until in_lldpd "$S" lldpcli -f json0 show neighbors >"$TMP/sw.json" &&
		jq -e --arg m "$mac" "any(.lldp[0].interface[]?; .name == \"sw-p1\" and
		.port[0].id[0].type == \"mac\" and .port[0].id[0].value == \$m)" "$TMP/sw.json"; do
		# the host advertises once a second (tx-interval 1): a loaded machine may be later
		i=$((i + 1)) && [ $i -lt 15 ] || { cat "$TMP/sw.json"; exit 1; }
		sleep 1
	done
'

test_expect_success 'verify reads the host'\''s lldpd: both links right' '
	test_expect_code 1 rocectl_in_host verify -p "$POLICY" -i "$INV" --limit gpu1 \
		--format json >"$TMP/v.json" 2>"$TMP/v.err" &&
	jq -e ".cabling == {\"links_checked\": 2, \"links_unknown\": 0,
		\"unknown_devices\": [], \"unreadable\": [], \"findings\": [], \"status\": \"ok\"}" "$TMP/v.json" &&
	jq -e ".devices[0].error | test(\"no DCB support\")" "$TMP/v.json"
'

test_expect_success 'the two cables swapped: verify names both links' '
	ip -n "$H" link del eth-a && ip -n "$H" link del eth-b &&
	cable eth-a sw-p2 && cable eth-b sw-p1 &&
	sleep 1 && switch_port_ids &&
	host_sees eth-a Ethernet2 && host_sees eth-b Ethernet1 &&
	test_expect_code 1 rocectl_in_host verify -p "$POLICY" -i "$INV" --limit gpu1 \
		--format json >"$TMP/m.json" 2>"$TMP/m.err" &&
	jq -e ".cabling.status == \"drift\" and
		([.cabling.findings[].link] | unique | sort) ==
		[\"gpu1:eth-a -- leaf01:Ethernet1\", \"gpu1:eth-b -- leaf01:Ethernet2\"] and
		all(.cabling.findings[]; .kind == \"miscabled\")" "$TMP/m.json" ||
		{ jq -c .cabling "$TMP/m.json" | sed "s/^/# /"; false; }
'
test_done
