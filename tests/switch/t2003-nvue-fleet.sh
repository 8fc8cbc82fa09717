#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Several simulated NVUE switches at once, over SSH and REST in the same run (the fleet
# executor's threads share the transports), and per-port NVUE profiles: links with
# different cable lengths on one switch need separate PFC profiles.
. "$SRC_DIR/tests/lib/testlib.sh"

SIMCTL="$SRC_DIR/tests/sim/switch/simctl"
LAB="$TMP/lab"
P="$TMP/policy.yaml"
J="$TMP/journal"

. "$SRC_DIR/tests/lib/simlib.sh"

cat >"$P" <<'EOP'
apiVersion: rocectl/v1
kind: Policy
name: roce-lossless
trust: dscp
roce: {dscp: 26, priority: 3}
cnp: {dscp: 48, priority: 6}
pfc:
  priorities: [3]
ecn:
  enabled: true
  traffic_class: 3
  min_threshold: 150KB
  max_threshold: 1500KB
  probability: 100%
headroom: {cable_length: 100m, mtu: 9216}
EOP

mkdir -p "$LAB"
test_at_exit "sh '$SIMCTL' down '$LAB' >/dev/null 2>&1"
test_expect_success 'four simulated switches come up' '
	sim up "$LAB" --switch leaf01=127.0.1.1:nvue --switch leaf02=127.0.1.2:nvue \
		--switch spine01=127.0.2.1:nvue --switch spine02=127.0.2.2:nvue \
		--ports swp1-2 >"$TMP/up.log" 2>&1
'

# swp1 of leaf01 is a 3 m link; swp2 takes the policy's 100 m: one PFC profile cannot
# hold both.
cat >"$TMP/links.yaml.in" <<'EOI'
links:
  - {a: "leaf01:swp1", b: "spine01:swp1", cable_length: 3m}
EOI

# One inventory entry for a switch of the lab, over ssh or rest.
entry() {
	echo "  - name: $1"
	echo "    address: $2"
	echo "    platform: nvue"
	echo "    transport: $3"
	echo "    ports: [swp1-2]"
	if [ "$3" = ssh ]; then
		echo "    credentials: {user: $LAB_USER, identity_file: \"$LAB/id_ed25519\"}"
		echo "    ssh: {known_hosts: \"$LAB/known_hosts\"}"
	else
		echo "    credentials: {user: $LAB_USER, password_file: \"$LAB/secrets/$1\"}"
		echo "    rest: {ca_file: \"$LAB/ca.pem\"}"
	fi
}

# leaf01 and spine01 over SSH, leaf02 and spine02 over REST, in one inventory
test_expect_success 'a mixed SSH/REST inventory' '
	LAB_USER=$(sed -n "s/^LAB_USER=//p" "$LAB/lab.env") &&
	{
		printf "apiVersion: rocectl/v1\nkind: Inventory\nswitches:\n" &&
		entry leaf01 127.0.1.1 ssh && entry spine01 127.0.2.1 ssh &&
		entry leaf02 127.0.1.2 rest && entry spine02 127.0.2.2 rest
	} >"$TMP/mixed.yaml" &&
	{
		printf "apiVersion: rocectl/v1\nkind: Inventory\nswitches:\n" &&
		entry leaf01 127.0.1.1 ssh && echo "    role: leaf" &&
		entry spine01 127.0.2.1 ssh && echo "    role: spine" &&
		cat "$TMP/links.yaml.in"
	} >"$TMP/links.yaml"
'

test_expect_success 'plan reads all four at once: 7 changes per port each' '
	{ rc plan -p "$P" -i "$TMP/mixed.yaml" --parallel 4 --details >"$TMP/plan" 2>&1; st=$?; } ;
	test "$st" = 2 &&
	for d in leaf01 spine01; do
		test_must_contain "$TMP/plan" "^$d \(nvue-ssh\): 14 changes" || exit 1
	done &&
	for d in leaf02 spine02; do
		test_must_contain "$TMP/plan" "^$d \(nvue-rest\): 14 changes" || exit 1
	done
'

test_expect_success 'apply all four in parallel, then everything is in sync' '
	rc apply -p "$P" -i "$TMP/mixed.yaml" -J "$J" --parallel 4 >"$TMP/apply" 2>&1 &&
	test "$(grep -c "applied and verified" "$TMP/apply")" = 4 &&
	rc verify -p "$P" -i "$TMP/mixed.yaml" --details >"$TMP/verify" 2>&1 &&
	test "$(grep -c ": in sync" "$TMP/verify")" = 4
'

test_expect_success '--limit selects one switch' '
	sim fault "$LAB" spine02 drift config:qos.pfc.default-global.cable-length=7 &&
	sim fault "$LAB" leaf01 drift config:qos.pfc.default-global.cable-length=7 &&
	{ rc verify -p "$P" -i "$TMP/mixed.yaml" --limit spine02 --details >"$TMP/lim" 2>&1; st=$?; } ;
	test "$st" = 2 &&
	test_must_contain "$TMP/lim" "^spine02 " &&
	test_must_not_contain "$TMP/lim" "^leaf01 " &&
	{ rc verify -p "$P" -i "$TMP/mixed.yaml" --limit no-such-device >"$TMP/lim2" 2>&1; st=$?; } ;
	test "$st" = 64 &&
	test_must_contain "$TMP/lim2" "no-such-device"
'

test_expect_success 'one failing switch does not stop the others' '
	sim fault "$LAB" leaf01 reject-next &&
	{ rc apply -p "$P" -i "$TMP/mixed.yaml" -J "$J" >"$TMP/part" 2>&1; st=$?; } ;
	test "$st" = 1 &&
	test_must_contain "$TMP/part" "^leaf01 \(nvue-ssh\): error: .*reject-next" &&
	test_must_contain "$TMP/part" "^spine02 \(nvue-rest\): 2 changes" &&
	{ rc verify -p "$P" -i "$TMP/mixed.yaml" --details >"$TMP/v2" 2>&1; st=$?; } ;
	test "$st" = 2 &&
	test_must_contain "$TMP/v2" "^spine02 \(nvue-rest\): in sync" &&
	test_must_contain "$TMP/v2" "^leaf01 \(nvue-ssh\): 2 drifted"
'

test_expect_success 'ports sharing a PFC profile but needing different cable lengths move to profiles of their own length' '
	# the cable as LLDP sees it at both ends, so that verify checks the cabling too
	sim fault "$LAB" leaf01 lldp swp1=spine01:swp1 &&
	sim fault "$LAB" spine01 lldp swp1=leaf01:swp1 &&
	{ rc plan -p "$P" -i "$TMP/links.yaml" --limit leaf01 --details >"$TMP/lp" 2>&1; st=$?; } ;
	test "$st" = 2 &&
	test_must_contain "$TMP/lp" "swp1 +cable_length_m +7 -> 3" &&
	test_must_contain "$TMP/lp" "swp2 +cable_length_m +7 -> 100" &&
	rc apply -p "$P" -i "$TMP/links.yaml" --limit leaf01 -J "$J" >"$TMP/la" 2>&1 &&
	sim cli "$LAB" leaf01 "nv show interface swp1 qos -o json" | tr -d " \n" >"$TMP/if1.json" &&
	test_must_contain "$TMP/if1.json" "\"profile\":\"rocectl-cable-3m\"" &&
	sim cli "$LAB" leaf01 "nv show interface swp2 qos -o json" | tr -d " \n" >"$TMP/if2.json" &&
	test_must_contain "$TMP/if2.json" "\"profile\":\"rocectl-cable-100m\"" &&
	sim cli "$LAB" leaf01 "nv show qos pfc rocectl-cable-3m -o json" | tr -d " \n" >"$TMP/p3.json" &&
	test_must_contain "$TMP/p3.json" "\"cable-length\":3" &&
	test_must_contain "$TMP/p3.json" "\"switch-priority\":\\{\"3\"" &&
	test_must_contain "$TMP/p3.json" "\"rx\":\"enable\"" &&
	sim cli "$LAB" leaf01 "nv show qos pfc default-global -o json" | tr -d " \n" >"$TMP/dg.json" &&
	test_must_contain "$TMP/dg.json" "\"cable-length\":7" &&
	rc verify -p "$P" -i "$TMP/links.yaml" --limit leaf01 --details >"$TMP/lv" 2>&1 &&
	test_must_contain "$TMP/lv" "^leaf01 \(nvue-ssh\): in sync"
'

test_expect_success 'a second apply reuses those profiles and changes nothing' '
	sim cli "$LAB" leaf01 "nv config history" >"$TMP/h0" &&
	rc apply -p "$P" -i "$TMP/links.yaml" --limit leaf01 -J "$J" >"$TMP/lb" 2>&1 &&
	sim cli "$LAB" leaf01 "nv config history" >"$TMP/h1" &&
	cmp "$TMP/h0" "$TMP/h1"
'

test_expect_success 'the simulated switches go down cleanly' '
	sim down "$LAB"
'
test_done
