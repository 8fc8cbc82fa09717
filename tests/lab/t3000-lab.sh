#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The fabric lab (tests/lab): a small fabric comes up, its inventory is one rocectl accepts,
# every device answers the real OpenSSH client as operators use it (dcb on hosts, nv on
# switches), `lab drift` changes exactly what drift.json says, and `lab down` leaves nothing.
. "$SRC_DIR/tests/lib/testlib.sh"

LAB_CMD="$SRC_DIR/tests/lab/lab"
LAB="$TMP/lab"
# shellcheck disable=SC2034 # used inside the test bodies
POLICY="$SRC_DIR/policies/roce-lossless.yaml"
export BUILD_DIR ROCECTL

test_needs root

test_at_exit '"$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true'

on() {
	"$LAB_CMD" ssh "$LAB" "$@"
}

# running PID: alive and not a zombie (an exited daemon waits for init to reap it)
running() {
	st=$(sed -n "s/^State:[[:space:]]*\([A-Z]\).*/\1/p" "/proc/$1/status" 2>/dev/null) &&
		[ -n "$st" ] && [ "$st" != Z ] && [ "$st" != X ]
}

# prios_of: dcb's prio_pfc booleans -> "3", "1,3" or "none" (rocectl's spelling)
prios_of() {
	jq -r '[.prio_pfc | to_entries[] | select(.value) | .key | tostring] |
		if length == 0 then "none" else join(",") end'
}

test_expect_success 'up refuses a fabric the simulated switches cannot cable' '
	test_expect_code 1 "$LAB_CMD" up "$TMP/bad" --hosts 64 --nics 1 --leaves 1 --spines 1 \
		2>"$TMP/err" &&
	test_must_contain "$TMP/err" "leaf01 needs 65 ports, a simulated switch has 64" &&
	test_expect_code 1 "$LAB_CMD" up "$TMP/bad" --hosts 2 --leaves 1 --spines 1 \
		--platforms nvue,junos 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "unknown platform .junos." &&
	test ! -e "$TMP/bad/lab.env"
'

test_expect_success 'up builds 4 dual-homed hosts, 2 leaves and a spine' '
	"$LAB_CMD" up "$LAB" --hosts 4 --leaves 2 --spines 1 >"$TMP/up.out" &&
	for f in inventory.yaml inventory-rest.yaml known_hosts ca.pem id_ed25519 ssh_config \
		topology lab.env; do
		test -s "$LAB/$f" || { echo "missing $f"; exit 1; }
	done &&
	test_must_contain "$TMP/up.out" "4 hosts x 2 NICs, 2 leaves, 1 spines \(10 links\)"
'

test_expect_success 'the inventory is valid and has the hosts, roles and links' '
	"$ROCECTL" validate -p "$POLICY" -i "$LAB/inventory.yaml" >"$TMP/val" &&
	"$ROCECTL" validate -p "$POLICY" -i "$LAB/inventory-rest.yaml" >/dev/null &&
	test_must_contain "$TMP/val" "device gpu004: host .*address=127.2.0.4 transport=ssh interfaces=enp12s0np0,enp13s0np0" &&
	test_must_contain "$TMP/val" "device leaf02: switch role=leaf platform=nvue address=127.1.0.2 transport=ssh ports=swp1,swp2,swp3,swp4,swp5" &&
	test_must_contain "$TMP/val" "device spine01: switch role=spine .*ports=swp1,swp2$" &&
	test $(grep -c "^link " "$TMP/val") = 10 &&
	test_must_contain "$TMP/val" "^link gpu001:enp12s0np0 -- leaf01:swp1 speed_gbps=400 cable_length_m=3$" &&
	test_must_contain "$TMP/val" "^link gpu001:enp13s0np0 -- leaf02:swp1 speed_gbps=400 cable_length_m=3$" &&
	test_must_contain "$TMP/val" "^link leaf02:swp5 -- spine01:swp2 speed_gbps=400 cable_length_m=30$" &&
	test_must_contain "$LAB/inventory.yaml" "ssh: \{port: 2222, known_hosts: \"$LAB/known_hosts\"\}" &&
	test_must_contain "$LAB/known_hosts" "^\[127.2.0.3\]:2222 ssh-ed25519 " &&
	test_must_contain "$LAB/known_hosts" "^127.1.100.1 ssh-ed25519 "
'

test_expect_success 'a host answers ssh with dcb on its own simulated NICs' '
	on gpu001 "hostname; dcb -j pfc show dev enp13s0np0" >"$TMP/out" &&
	test "$(sed -n 1p "$TMP/out")" = gpu001 &&
	sed -n 2p "$TMP/out" | prios_of >"$TMP/pfc" &&
	test "$(cat "$TMP/pfc")" = none &&
	"$LAB_CMD" exec "$LAB" -- ssh -F "$LAB/ssh_config" 127.2.0.3 hostname >"$TMP/out" &&
	test "$(cat "$TMP/out")" = gpu003
'

test_expect_success 'a hand change on one host stays on that host' '
	on gpu002 "dcb pfc set dev enp12s0np0 prio-pfc 3:on; dcb app add dev enp12s0np0 dscp-prio 26:3" ||
		true &&
	on gpu002 "dcb -j pfc show dev enp12s0np0" | prios_of >"$TMP/pfc" &&
	test "$(cat "$TMP/pfc")" = 3 &&
	grep -q "^pfc-en 0x08$" "$LAB/hosts/gpu002/nics/enp12s0np0.state" &&
	on gpu001 "dcb -j pfc show dev enp12s0np0" | prios_of >"$TMP/pfc" &&
	test "$(cat "$TMP/pfc")" = none
'

test_expect_success 'the host runs the rocectl under test as its agent' '
	on gpu002 "rocectl agent show --json" >"$TMP/agent.json" &&
	jq -e ".host == \"gpu002\" and
		([.interfaces[].interface] == [\"enp12s0np0\", \"enp13s0np0\"]) and
		.interfaces[0].speed_mbps == 400000 and
		.interfaces[0].dcb.pfc.prio_pfc == [3]" "$TMP/agent.json"
'

test_expect_success 'a switch answers ssh with NVUE in factory state' '
	on leaf01 "nv show qos roce" >"$TMP/out" &&
	test_must_contain "$TMP/out" "^enable +off" &&
	on spine01 "nv show system" >"$TMP/out" &&
	test_must_contain "$TMP/out" "hostname +spine01"
'

test_expect_success 'drift refuses more changes than the lab has targets' '
	test_expect_code 1 "$LAB_CMD" drift "$LAB" 1 29 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "29 changes asked, the lab has 28 targets"
'

# check_drift: each record of drift.json, read back from the device over SSH
check_drift() {
	n=$(jq length "$LAB/drift.json")
	i=0
	while [ "$i" -lt "$n" ]; do
		jq -r ".[$i] | [.device, .kind, .port, .field, .value, (.ports // [] | join(\",\"))] | @tsv" \
			"$LAB/drift.json" >"$TMP/rec"
		IFS="	" read -r dev kind port field value ports <"$TMP/rec"
		p0=${ports%%,*}
		case $kind/$field in
		host/pfc_enabled)
			got=$(on "$dev" "dcb -j pfc show dev $port" | prios_of) ;;
		host/dscp2prio*)
			got=$(on "$dev" "dcb -j app show dev $port" |
				jq -r "[(.dscp_prio // [])[] | select(.[0] == 26) | .[1]] | .[0] // 0") ;;
		switch/pfc_enabled)
			got=$(on "$dev" "nv show interface $p0 qos -o json" |
				jq -r ".pfc[\"switch-priority\"] | keys | join(\",\")") ;;
		switch/trust)
			got=$(on "$dev" "nv show interface $p0 qos -o json" |
				jq -r ".mapping.trust | {l2: \"pcp\", l3: \"dscp\", both: \"unset\"}[.]") ;;
		switch/dscp2prio*)
			got=$(on "$dev" "nv show qos mapping default-global -o json" |
				jq -r ".dscp[\"26\"][\"switch-priority\"]") ;;
		switch/ecn*)
			got=$(on "$dev" "nv show interface $p0 qos -o json" |
				jq -r ".[\"congestion-control\"][\"traffic-class\"][\"3\"][\"min-threshold\"]") ;;
		*) echo "unknown record $kind/$field"; return 1 ;;
		esac
		[ "$got" = "$value" ] || { echo "$dev $port $field: drift.json says $value, device has $got"; return 1; }
		i=$((i + 1))
	done
}

test_expect_success 'drift changes what drift.json says, on hosts and switches' '
	"$LAB_CMD" drift "$LAB" 20240611 8 >"$TMP/drift.out" &&
	test $(jq length "$LAB/drift.json") = 8 &&
	jq -r ".[] | [.device, .port, .field] | @tsv" "$LAB/drift.json" | sort -u >"$TMP/t1" &&
	test $(wc -l <"$TMP/t1") = 8 &&
	jq -e "all(.[]; .value != .was) and any(.[]; .kind == \"host\") and
		any(.[]; .kind == \"switch\" and .port == \"*\" and (.ports | length) > 1)" \
		"$LAB/drift.json" &&
	check_drift
'

test_expect_success 'the same seed picks the same targets, and drift reads back first' '
	cp "$LAB/drift.json" "$TMP/first.json" &&
	"$LAB_CMD" drift "$LAB" 20240611 8 >/dev/null &&
	jq -r ".[] | [.device, .port, .field] | @tsv" "$LAB/drift.json" | sort -u >"$TMP/t2" &&
	cmp "$TMP/t1" "$TMP/t2" &&
	jq -s -e "[.[0][] | .value] == [.[1][] | .was]" "$TMP/first.json" "$LAB/drift.json" &&
	"$LAB_CMD" drift "$LAB" 7 2 >/dev/null &&
	jq -s -e "[.[0][0:2][] | [.device, .port, .field]] != [.[1][] | [.device, .port, .field]]" \
		"$TMP/first.json" "$LAB/drift.json" &&
	check_drift
'

test_expect_success 'down stops every process and removes the namespace' '
	. "$LAB/lab.env" &&
	sw_pids=$(sed -n "s/^\(SSHD\|REST\)_PID=//p" "$LAB/switchsim/lab.env") &&
	"$LAB_CMD" down "$LAB" &&
	! ip netns list | grep -q "^$NS\b" &&
	for pid in $HOST_SSHD_PID $sw_pids; do
		! running "$pid" || { echo "pid $pid still runs"; exit 1; }
	done &&
	pat="${RUN%/*}/[l]${RUN##*/l}" &&
	! grep -ls "$pat" /proc/[0-9]*/cmdline 2>/dev/null | grep -q . &&
	test ! -e "$RUN" && test ! -e "$LAB/lab.env" && test ! -e "$LAB/switchsim/lab.env"
'

test_done
