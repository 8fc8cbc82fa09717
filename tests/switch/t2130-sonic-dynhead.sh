#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The shipped policy (policies/roce-lossless.yaml, 9216-byte frames, headroom computed) on a
# Mellanox SKU running SONiC's dynamic buffer model, no "+traditional": buffermgrd derives the
# headroom from speed, cable length and MTU, and rocectl verifies the effect (the derived
# profile follows the cable, absorbs something, sits in the lossless pool) rather than its
# own estimate, which verify shows beside the device's value.  An explicit headroom is written
# as a headroom override and verified exactly; going back to computed takes it off.
# docs/platforms/sonic.md, "Headroom on the dynamic buffer model".
. "$SRC_DIR/tests/lib/testlib.sh"

SIMCTL="$SRC_DIR/tests/sim/switch/simctl"
LAB="$TMP/lab"
P="$SRC_DIR/policies/roce-lossless.yaml"
J="$TMP/journal"

. "$SRC_DIR/tests/lib/simlib.sh"

on() {
	sim cli "$LAB" "$1" "$2"
}

pg() {
	on mlx "sonic-db-cli $1 HGET '$2' $3"
}

mkdir -p "$LAB"
test_at_exit "sh '$SIMCTL' down '$LAB' >/dev/null 2>&1"
test_expect_success 'a Mellanox SN5600 on the dynamic buffer model' '
	test -n "$CONFORMANCE_DIR" &&
	sim up "$LAB" --switch mlx=127.0.51.30:sonic:Mellanox-SN5600-O128 \
		--ports Ethernet0,Ethernet4 >"$TMP/up.log" 2>&1 &&
	test "$(pg CONFIG_DB "DEVICE_METADATA|localhost" buffer_model)" = dynamic
'
I="$LAB/inventory.yaml"

test_expect_success 'the shipped policy applies, verified, and plans nothing after' '
	rc apply -p "$P" -i "$I" -J "$J" >"$TMP/apply" 2>&1 ||
		{ sed "s/^/# /" "$TMP/apply"; false; } &&
	test_must_contain "$TMP/apply" "applied and verified" &&
	test "$(pg CONFIG_DB "CABLE_LENGTH|AZURE" Ethernet0)" = 100m &&
	test "$(pg APPL_DB "BUFFER_PG_TABLE:Ethernet0:3-4" profile)" = \
		pg_lossless_400000_100m_profile &&
	sonic_yang mlx &&
	rc plan -p "$P" -i "$I" >"$TMP/plan" 2>&1 ||
		{ sed "s/^/# /" "$TMP/plan"; false; }
'

# the case of the shipped policy that failed before: 400G, 7 m, where the device derives
# xoff 99328 and rocectl's estimate for 9216-byte frames is larger
test_expect_success 'a 7 m cable (inventory override): in sync, the estimate shown beside' '
	sed -i "s/^    platform: sonic\$/&\n    overrides: {headroom: {cable_length: 7m}}/" "$I" &&
	rc apply -p "$P" -i "$I" -J "$J" >"$TMP/apply7" 2>&1 ||
		{ sed "s/^/# /" "$TMP/apply7"; false; } &&
	test "$(pg CONFIG_DB "CABLE_LENGTH|AZURE" Ethernet0)" = 7m &&
	test "$(pg APPL_DB "BUFFER_PROFILE_TABLE:pg_lossless_400000_7m_profile" xoff)" = 99328 &&
	sonic_yang mlx &&
	rc plan -p "$P" -i "$I" >"$TMP/plan7" 2>&1 ||
		{ sed "s/^/# /" "$TMP/plan7"; false; } &&
	rc verify -p "$P" -i "$I" >"$TMP/verify7" 2>&1 ||
		{ sed "s/^/# /" "$TMP/verify7"; false; } &&
	test_must_contain "$TMP/verify7" "in sync" &&
	test_must_contain "$TMP/verify7" "headroom\[3\].estimate" &&
	test_must_contain "$TMP/verify7" "the device derived xoff 99328 B for 400 G, 7 m, MTU 9216; rocectl.s estimate is [0-9]* B"
'

test_expect_success 'verify --format json says the headroom reading is unverified here' '
	rc verify -p "$P" -i "$I" --format json >"$TMP/verify.json" 2>&1 &&
	python3 -c "import json, sys
d = json.load(open(sys.argv[1]))
dev = [x for x in d[\"devices\"] if x[\"device\"] == \"mlx\"][0]
assert dev[\"status\"] == \"in-sync\", dev
assert \"headroom\" in dev[\"unverified\"], dev
w = [c for c in dev[\"changes\"] if c[\"field\"] == \"headroom[3].estimate\"]
assert w and w[0][\"kind\"] == \"warning\" and int(w[0][\"new\"]) > 99328, dev
assert \"derived xoff 99328 B\" in w[0][\"note\"], dev" "$TMP/verify.json"
'

test_expect_success 'a derived profile gone (port admin down) is drift, not in sync' '
	sim fault "$LAB" mlx drift PORT.Ethernet0.admin_status=down &&
	{ rc verify -p "$P" -i "$I" >"$TMP/down" 2>&1; st=$?; } ;
	sim fault "$LAB" mlx drift PORT.Ethernet0.admin_status=up &&
	test "$st" = 2 &&
	test_must_contain "$TMP/down" "headroom\[3\].bytes"
'

sed "s/^  mtu: 9216\$/&\n  size: 128KB/" "$P" >"$TMP/explicit.yaml"

# GCU before 202511 refuses any BUFFER_PROFILE addition (the kit's 2025-10-25 rules file; the
# newest validator allows whole profiles): nothing is sent, and the table is named
test_expect_success 'release 202405: an explicit headroom is refused by GCU, nothing sent' '
	grep -q "size: 128KB" "$TMP/explicit.yaml" &&
	{ rc apply -p "$TMP/explicit.yaml" -i "$I" -J "$J" >"$TMP/apply-r" 2>&1; st=$?; } ;
	test "$st" != 0 &&
	test_must_contain "$TMP/apply-r" "nothing was sent" &&
	test_must_contain "$TMP/apply-r" "GCU refuses changes to BUFFER_PROFILE" &&
	test "$(pg CONFIG_DB "BUFFER_PG|Ethernet0|3-4" profile)" = NULL
'

test_expect_success 'release 202511: an explicit headroom is an override, verified exactly' '
	sim down "$LAB" &&
	sim up "$LAB" --switch mlx=127.0.51.30:sonic:Mellanox-SN5600-O128@202511 \
		--ports Ethernet0,Ethernet4 >"$TMP/up2.log" 2>&1 &&
	sed -i "s/^    platform: sonic\$/&\n    overrides: {headroom: {cable_length: 7m}}/" "$I" &&
	rc apply -p "$TMP/explicit.yaml" -i "$I" -J "$TMP/j2" >"$TMP/apply-x" 2>&1 ||
		{ sed "s/^/# /" "$TMP/apply-x"; false; } &&
	prof=$(pg CONFIG_DB "BUFFER_PG|Ethernet0|3-4" profile) &&
	test "${prof#rocectl_headroom_128000_}" != "$prof" &&
	test "$(pg CONFIG_DB "BUFFER_PROFILE|$prof" xoff)" = 128000 &&
	test "$(pg CONFIG_DB "BUFFER_PROFILE|$prof" pool)" = ingress_lossless_pool &&
	test "$(pg APPL_DB "BUFFER_PG_TABLE:Ethernet0:3-4" profile)" = "$prof" &&
	sonic_yang mlx &&
	rc verify -p "$TMP/explicit.yaml" -i "$I" >"$TMP/verify-x" 2>&1 ||
		{ sed "s/^/# /" "$TMP/verify-x"; false; }
'

test_expect_success 'back to the shipped policy: the override comes off, the PG is derived' '
	rc apply -p "$P" -i "$I" -J "$TMP/j2" >"$TMP/apply-back" 2>&1 ||
		{ sed "s/^/# /" "$TMP/apply-back"; false; } &&
	test "$(pg CONFIG_DB "BUFFER_PG|Ethernet0|3-4" profile)" = NULL &&
	test "$(pg APPL_DB "BUFFER_PG_TABLE:Ethernet0:3-4" profile)" = \
		pg_lossless_400000_7m_profile &&
	sonic_yang mlx &&
	rc plan -p "$P" -i "$I" >"$TMP/plan-back" 2>&1 ||
		{ sed "s/^/# /" "$TMP/plan-back"; false; }
'

test_expect_success 'the simulated switch goes down cleanly' '
	sim down "$LAB"
'
test_done
