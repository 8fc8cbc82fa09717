#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Devices behind a jump host (inventory proxy_jump): a second real sshd is the bastion, and
# the controller runs in a network namespace of its own whose only route is a veth to the
# bastion's address.  The lab's devices listen on loopback addresses of the lab namespace
# (tests/lab/README.md), which no other namespace can reach, so the bastion's direct-tcpip
# forwarding is the only way to them; the bastion allows forwarding and nothing else
# (ForceCommand /bin/false).  Checked: verify, apply, verify of the whole fabric through
# it; -v names the hop; a changed or unknown bastion key stops the run before anything
# is sent to a device; a bastion that cuts concurrent handshakes (sshd's MaxStartups) is
# tried again; a bastion that is down or unreachable is an error per device, within the
# connect timeout.  Device state is read from the simulators, never rocectl.
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

LAB_CMD="$SRC_DIR/tests/lab/lab"
SIMCTL="$SRC_DIR/tests/sim/switch/simctl"
LAB="$TMP/lab"
POLICY="$SRC_DIR/policies/roce-lossless.yaml"
BAST="$TMP/bastion"
BAST_ADDR=10.251.0.1
CTL_ADDR=10.251.0.2
JUMP="switchsim@$BAST_ADDR:2200"
SWITCHES="leaf01 leaf02 spine01"
ALL="gpu001 gpu002 leaf01 leaf02 spine01"
ROCECTL_JOURNAL="$TMP/journal"
ROCECTL_LOCK_DIR="$TMP/locks"
export BUILD_DIR ROCECTL ROCECTL_JOURNAL ROCECTL_LOCK_DIR

test_needs root

rand=$(od -An -N3 -tx1 /dev/urandom | tr -d ' \n')
CNS="rcjump-$rand"
test_at_exit 'ip netns del "$CNS" 2>/dev/null; [ ! -s "$BAST/sshd.pid" ] ||
	kill "$(cat "$BAST/sshd.pid")" 2>/dev/null; "$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true'

# rocectl as the controller, in its own namespace
rc() {
	ip netns exec "$CNS" "$ROCECTL" "$@"
}

state_of() {
	cat "$LAB"/hosts/*/nics/*.state
	for sw in $SWITCHES; do
		"$SIMCTL" state "$LAB/switchsim" "$sw" |
			jq -cS '{rev: .nvue["applied-rev"], applied: .nvue.applied}'
	done
}

# the simulated NIC as dcb shows it in the host's own session (tests/lab/README.md)
host_pfc() {
	"$LAB_CMD" ssh "$LAB" "$1" "dcb -j pfc show dev enp12s0np0" |
		jq -r '[.prio_pfc | to_entries[] | select(.value) | .key | tostring] |
			if length == 0 then "none" else join(",") end'
}

host_dscp26() {
	"$LAB_CMD" ssh "$LAB" "$1" "dcb -j app show dev enp12s0np0" |
		jq -r '[(.dscp_prio // [])[] | select(.[0] == 26) | .[1]] | .[0] // 0'
}

accepted() {
	grep -c "Accepted publickey for switchsim" "$BAST/sshd.log" || true
}

# INV_FROM SRC DST JUMP [EXTRA-DEFAULTS-LINE]: the lab's inventory with defaults added
inv_with() {
	{
		sed -n '1,/^kind: Inventory$/p' "$1"
		echo "defaults:"
		echo "  proxy_jump: \"$3\""
		[ -z "$4" ] || echo "  $4"
		sed '1,/^kind: Inventory$/d' "$1"
	} >"$2"
}

test_expect_success 'set-up: a lab, a bastion sshd, and a controller namespace routed only to it' '
	"$LAB_CMD" up "$LAB" --hosts 2 --nics 1 --leaves 2 --spines 1 >/dev/null &&
	. "$LAB/lab.env" &&
	mkdir -p "$BAST" &&
	ssh-keygen -q -t ed25519 -N "" -C bastion -f "$BAST/host_key" &&
	cat >"$BAST/sshd_config" <<-EOF &&
	Port 2200
	ListenAddress $BAST_ADDR
	HostKey $BAST/host_key
	PidFile $BAST/sshd.pid
	AllowUsers switchsim
	PermitRootLogin no
	AuthorizedKeysFile $RUN/authorized_keys
	PasswordAuthentication no
	KbdInteractiveAuthentication no
	UsePAM no
	StrictModes no
	MaxStartups 1000:30:2000
	PerSourceMaxStartups none
	MaxSessions 1000
	UseDNS no
	AllowTcpForwarding local
	PermitListen none
	X11Forwarding no
	AllowAgentForwarding no
	PermitTTY no
	ForceCommand /bin/false
	LogLevel INFO
	EOF
	ip netns add "$CNS" &&
	ip link add "rjc$rand" type veth peer name "rjl$rand" &&
	ip link set "rjc$rand" netns "$CNS" &&
	ip link set "rjl$rand" netns "$NS" &&
	ip -n "$CNS" addr add "$CTL_ADDR/24" dev "rjc$rand" &&
	ip -n "$NS" addr add "$BAST_ADDR/24" dev "rjl$rand" &&
	ip -n "$CNS" link set lo up && ip -n "$CNS" link set "rjc$rand" up &&
	ip -n "$NS" link set "rjl$rand" up &&
	/usr/sbin/sshd -t -f "$BAST/sshd_config" &&
	ip netns exec "$NS" /usr/sbin/sshd -f "$BAST/sshd_config" -E "$BAST/sshd.log" </dev/null &&
	i=0 && while [ ! -s "$BAST/sshd.pid" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done &&
	test -s "$BAST/sshd.pid" &&
	cp "$LAB/known_hosts" "$TMP/known_hosts" &&
	echo "[$BAST_ADDR]:2200 $(cut -d" " -f1,2 "$BAST/host_key.pub")" >>"$TMP/known_hosts" &&
	sed "s|$LAB/known_hosts|$TMP/known_hosts|" "$LAB/inventory.yaml" >"$TMP/direct.yaml" &&
	inv_with "$TMP/direct.yaml" "$TMP/inv.yaml" "$JUMP" &&
	rc validate -p "$POLICY" -i "$TMP/inv.yaml" --format json >"$TMP/validate.json" &&
	jq -e "[.inventory.devices[].proxy_jump] == [range(5) | \"$JUMP\"]" "$TMP/validate.json" &&
	/usr/bin/python3 -c "import json, sys, jsonschema
jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))" \
		"$SRC_DIR/examples/validate.schema.json" "$TMP/validate.json"
'

test_expect_success 'without proxy_jump the controller reaches no device' '
	test_expect_code 1 rc verify -p "$POLICY" -i "$TMP/direct.yaml" --format json \
		>"$TMP/direct.json" &&
	jq -e "all(.devices[]; .status == \"error\" and (.error | test(\"cannot connect to\")))
		and (.devices | length) == 5" "$TMP/direct.json"
'

test_expect_success 'through the bastion: plan, apply and verify the fabric; -v shows the hop' '
	n0=$(accepted) &&
	test_expect_code 2 rc plan -p "$POLICY" -i "$TMP/inv.yaml" --format json >"$TMP/plan.json" &&
	jq -e ".summary.errors == 0 and .summary.devices_with_changes == 5" "$TMP/plan.json" &&
	rc apply -p "$POLICY" -i "$TMP/inv.yaml" >"$TMP/apply.out" &&
	rc -v verify -p "$POLICY" -i "$TMP/inv.yaml" --format json >"$TMP/verify.json" \
		2>"$TMP/verify.err" &&
	jq -e "all(.devices[]; .status == \"in-sync\") and (.devices | length) == 5" \
		"$TMP/verify.json" &&
	for d in $ALL; do
		test_must_contain "$TMP/verify.err" \
			"^$d ssh: connecting through jump host $JUMP to 127\.[0-9.]+:(22|2222)$" ||
			exit 1
	done &&
	for sw in $SWITCHES; do
		"$SIMCTL" state "$LAB/switchsim" "$sw" >"$TMP/$sw.state" &&
		jq -e ".nvue.applied.qos.mapping[\"default-global\"].trust == \"l3\"" \
			"$TMP/$sw.state" >/dev/null || exit 1
	done &&
	for h in gpu001 gpu002; do
		test "$(host_pfc $h)" = 3 && test "$(host_dscp26 $h)" = 3 || exit 1
	done &&
	test $(( $(accepted) - n0 )) -ge 15
'

test_expect_success 'a device the bastion cannot reach fails alone, naming both' '
	sed "/^  - name: leaf01$/,/^  - name:/s|ssh: {port: 22,|ssh: {port: 2299,|" "$TMP/inv.yaml" \
		>"$TMP/inv-noport.yaml" &&
	test $(grep -c "port: 2299" "$TMP/inv-noport.yaml") = 1 &&
	test_expect_code 1 rc verify -p "$POLICY" -i "$TMP/inv-noport.yaml" --format json \
		>"$TMP/noport.json" &&
	jq -e "[.devices[] | select(.status == \"error\") | .device] == [\"leaf01\"]" \
		"$TMP/noport.json" &&
	jq -e "[.devices[] | select(.device == \"leaf01\")][0].error |
		test(\"jump host .$JUMP. of .leaf01. cannot reach .leaf01. \\\\(127\\\\.1\\\\.0\\\\.1:2299\\\\)\")" \
		"$TMP/noport.json"
'

test_expect_success 'a changed bastion key: every device refused, naming the bastion; nothing sent' '
	ssh-keygen -q -t ed25519 -N "" -C other -f "$TMP/other_key" &&
	sed "\|^\[$BAST_ADDR\]:2200 |d" "$TMP/known_hosts" >"$TMP/kh-changed" &&
	echo "[$BAST_ADDR]:2200 $(cut -d" " -f1,2 "$TMP/other_key.pub")" >>"$TMP/kh-changed" &&
	sed "s|$TMP/known_hosts|$TMP/kh-changed|" "$TMP/inv.yaml" >"$TMP/inv-changed.yaml" &&
	"$SIMCTL" fault "$LAB/switchsim" leaf01 drift qos.mapping.default-global.trust=l2 >/dev/null &&
	state_of >"$TMP/state.before" && n0=$(accepted) &&
	test_expect_code 1 rc apply -p "$POLICY" -i "$TMP/inv-changed.yaml" --format json \
		>"$TMP/changed.json" 2>"$TMP/changed.err" &&
	jq -e "(.devices | length) == 5 and all(.devices[]; .device as \$d | .status == \"error\" and
		(.error | test(\"host key of jump host .switchsim@10\\\\.251\\\\.0\\\\.1:2200. of .\" +
		\$d + \". \\\\(10\\\\.251\\\\.0\\\\.1:2200\\\\) HAS CHANGED\")))" "$TMP/changed.json" &&
	state_of >"$TMP/state.after" && cmp "$TMP/state.before" "$TMP/state.after" &&
	test "$(accepted)" = "$n0"
'

test_expect_success 'an unknown bastion key is refused too, and recorded only when asked' '
	sed "\|^\[$BAST_ADDR\]:2200 |d" "$TMP/known_hosts" >"$TMP/kh-unknown" &&
	sed "s|$TMP/known_hosts|$TMP/kh-unknown|" "$TMP/inv.yaml" >"$TMP/inv-unknown.yaml" &&
	test_expect_code 1 rc verify -p "$POLICY" -i "$TMP/inv-unknown.yaml" --limit leaf01 \
		>"$TMP/unknown.out" 2>"$TMP/unknown.err" &&
	test_must_contain "$TMP/unknown.out" "host key of jump host .$JUMP. of .leaf01. \($BAST_ADDR:2200\) is not known" &&
	test_expect_code 2 rc --accept-new-host-keys verify -p "$POLICY" -i "$TMP/inv-unknown.yaml" \
		--limit leaf01 >/dev/null 2>"$TMP/accept.err" &&
	grep -q "^\[$BAST_ADDR\]:2200 ssh-ed25519 " "$TMP/kh-unknown"
'

test_expect_success 'a bastion that drops concurrent handshakes (MaxStartups): retried; apply and verify reach every device' '
	. "$LAB/lab.env" &&
	pid=$(cat "$BAST/sshd.pid") && kill "$pid" &&
	i=0 && while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done &&
	! kill -0 "$pid" 2>/dev/null && rm -f "$BAST/sshd.pid" &&
	sed "s/^MaxStartups .*/MaxStartups 2:100:2/" "$BAST/sshd_config" >"$BAST/sshd_config.2" &&
	ip netns exec "$NS" /usr/sbin/sshd -f "$BAST/sshd_config.2" -E "$BAST/sshd.log" </dev/null &&
	i=0 && while [ ! -s "$BAST/sshd.pid" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done &&
	rc apply -p "$POLICY" -i "$TMP/inv.yaml" >/dev/null &&
	test "$("$SIMCTL" state "$LAB/switchsim" leaf01 |
		jq -r ".nvue.applied.qos.mapping[\"default-global\"].trust")" = l3 &&
	rc verify -p "$POLICY" -i "$TMP/inv.yaml" --format json >"$TMP/maxstartups.json" &&
	jq -e "all(.devices[]; .status == \"in-sync\") and (.devices | length) == 5" \
		"$TMP/maxstartups.json"
'

test_expect_success 'a bastion that is down: an error per device, no crash, within the timeout' '
	kill "$(cat "$BAST/sshd.pid")" &&
	i=0 && while ip netns exec "$CNS" sh -c "echo >/dev/tcp/$BAST_ADDR/2200" 2>/dev/null &&
		[ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done &&
	t0=$(date +%s) &&
	test_expect_code 1 rc verify -p "$POLICY" -i "$TMP/inv.yaml" --format json >"$TMP/down.json" &&
	test $(( $(date +%s) - t0 )) -lt 10 &&
	jq -e "(.devices | length) == 5 and all(.devices[]; .device as \$d | .status == \"error\" and
		(.error | test(\"cannot connect to jump host .switchsim@10\\\\.251\\\\.0\\\\.1:2200. of .\" + \$d + \".\")))" \
		"$TMP/down.json" &&
	inv_with "$TMP/direct.yaml" "$TMP/inv-gone.yaml" "switchsim@10.251.0.3:2200" \
		"ssh: {connect_timeout: 2s}" &&
	sed -i "s|ssh: {port: \([0-9]*\), known_hosts: \"\([^\"]*\)\"}|ssh: {port: \1, known_hosts: \"\2\", connect_timeout: 2s}|" \
		"$TMP/inv-gone.yaml" &&
	t0=$(date +%s) &&
	test_expect_code 1 rc verify -p "$POLICY" -i "$TMP/inv-gone.yaml" --format json >"$TMP/gone.json" &&
	test $(( $(date +%s) - t0 )) -lt 10 &&
	jq -e "(.devices | length) == 5 and all(.devices[]; .device as \$d | .status == \"error\" and
		(.error | test(\"jump host .switchsim@10\\\\.251\\\\.0\\\\.3:2200.\")))" "$TMP/gone.json"
'

test_done
