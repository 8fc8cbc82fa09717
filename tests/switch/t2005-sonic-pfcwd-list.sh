#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# PORT_QOS_MAP's pfcwd_sw_enable must follow pfc_enable (the QoS template writes both from
# the same lossless list, sonic-buildimage files/build_templates/qos_config.j2): a switch
# left with pfc_enable as wanted but the watchdog's list parted (as a half-applied patch
# rolled back left it) is drift, and apply rewrites the list alone.
. "$SRC_DIR/tests/lib/testlib.sh"

SIMCTL="$SRC_DIR/tests/sim/switch/simctl"
LAB="$TMP/lab"
P="$TMP/policy.yaml"
J="$TMP/journal"

. "$SRC_DIR/tests/lib/simlib.sh"

hget() {
	sim cli "$LAB" sw "sonic-db-cli CONFIG_DB HGETALL 'PORT_QOS_MAP|$1'"
}

write_policy "$P" 40m
mkdir -p "$LAB"
test_at_exit "sh '$SIMCTL' down '$LAB' >/dev/null 2>&1"
test_expect_success 'a SONiC switch in policy' '
	sim up "$LAB" --switch sw=127.0.50.9:sonic:Mellanox-SN5600-O128+traditional \
		--ports Ethernet0,Ethernet4 >"$TMP/up.log" 2>&1 &&
	rc apply -p "$P" -i "$LAB/inventory.yaml" -J "$J" >"$TMP/apply" 2>&1 &&
	hget Ethernet0 >"$TMP/pqm" &&
	test_must_contain "$TMP/pqm" "pfc_enable.: .3.," &&
	test_must_contain "$TMP/pqm" "pfcwd_sw_enable.: .3."
'

test_expect_success 'the watchdog list parted from pfc_enable is drift (exit 2), named' '
	sim fault "$LAB" sw drift "PORT_QOS_MAP.Ethernet0.pfcwd_sw_enable=\"3,4\"" &&
	{ rc verify -p "$P" -i "$LAB/inventory.yaml" >"$TMP/verify" 2>&1; st=$?; } ;
	test "$st" = 2 &&
	test_must_contain "$TMP/verify" "pfcwd_sw_enable 3,4 does not follow pfc_enable 3"
'

test_expect_success 'apply rewrites pfcwd_sw_enable only; verify in sync' '
	rc apply -p "$P" -i "$LAB/inventory.yaml" -J "$J" >"$TMP/fix" 2>&1 &&
	hget Ethernet0 >"$TMP/pqm" &&
	test_must_contain "$TMP/pqm" "pfcwd_sw_enable.: .3.," &&
	rc verify -p "$P" -i "$LAB/inventory.yaml" >"$TMP/verify2" 2>&1
'

test_expect_success 'the simulated switch goes down cleanly' '
	sim down "$LAB"
'
test_done
