#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# SONiC's dynamic buffer model (DEVICE_METADATA buffer_model dynamic, the Mellanox SKUs):
# rocectl writes the cable length as the policy gives it (no lookup-table rounding: the
# dynamic buffermgrd computes headroom for any length), reads the lossless profile
# buffermgrd derived into APPL_DB (the effect) and checks that its xoff, bounded by the shared
# headroom pool where that is on, absorbs something.  The switch's own sonic-db-cli is the witness; CONFIG_DB
# validates with SONiC's YANG models ($CONFORMANCE_DIR/sonic/validate-config-db).
. "$SRC_DIR/tests/lib/testlib.sh"

SIMCTL="$SRC_DIR/tests/sim/switch/simctl"
LAB="$TMP/lab"
P="$TMP/policy.yaml"
J="$TMP/journal"

. "$SRC_DIR/tests/lib/simlib.sh"

on() {
	sim cli "$LAB" "$1" "$2"
}

# lossless frames of 1500 B (SONiC's LOSSLESS_TRAFFIC_PATTERN assumes 1 KB): rocectl's worst-case
# floor for 9216-byte frames is above what buffer_headroom_mellanox.lua derives (checked below)
write_policy "$P" 7m
sed -i "s/mtu: 9216/mtu: 1500/" "$P"

mkdir -p "$LAB"
test_at_exit "sh '$SIMCTL' down '$LAB' >/dev/null 2>&1"
test_expect_success 'a Mellanox SN5600 runs the dynamic model: PG 3-4 NULL, profile in APPL_DB' '
	test -n "$CONFORMANCE_DIR" &&
	sim up "$LAB" --switch mlx=127.0.51.20:sonic:Mellanox-SN5600-O128 \
		--ports Ethernet0,Ethernet4 >"$TMP/up.log" 2>&1 &&
	test "$(on mlx "sonic-db-cli CONFIG_DB HGET '\''DEVICE_METADATA|localhost'\'' buffer_model")" = dynamic &&
	test "$(on mlx "sonic-db-cli CONFIG_DB HGET '\''BUFFER_PG|Ethernet0|3-4'\'' profile")" = NULL &&
	test "$(on mlx "sonic-db-cli APPL_DB HGET '\''BUFFER_PG_TABLE:Ethernet0:3-4'\'' profile")" = \
		pg_lossless_400000_5m_profile &&
	test "$(on mlx "sonic-db-cli APPL_DB HGET '\''BUFFER_PROFILE_TABLE:pg_lossless_400000_5m_profile'\'' xoff")" = 98304 &&
	sonic_yang mlx
'
I="$LAB/inventory.yaml"

test_expect_success 'apply writes 7m as given (no lookup row has it) and verifies in sync' '
	rc apply -p "$P" -i "$I" -J "$J" >"$TMP/apply" 2>&1 ||
		{ sed "s/^/# /" "$TMP/apply"; false; } &&
	test_must_contain "$TMP/apply" "applied and verified" &&
	test "$(on mlx "sonic-db-cli CONFIG_DB HGET '\''CABLE_LENGTH|AZURE'\'' Ethernet0")" = 7m &&
	test "$(on mlx "sonic-db-cli APPL_DB HGET '\''BUFFER_PG_TABLE:Ethernet0:3-4'\'' profile")" = \
		pg_lossless_400000_7m_profile &&
	test "$(on mlx "sonic-db-cli STATE_DB HGET '\''BUFFER_PROFILE_TABLE|pg_lossless_400000_7m_profile'\'' xoff")" = 99328 &&
	sonic_yang mlx &&
	rc verify -p "$P" -i "$I" >"$TMP/verify" 2>&1 ||
		{ sed "s/^/# /" "$TMP/verify"; false; }
'

test_expect_success 'plan after apply is empty' '
	rc plan -p "$P" -i "$I" >"$TMP/plan" 2>&1 ||
		{ sed "s/^/# /" "$TMP/plan"; false; }
'

test_expect_success 'a 3000m cable is written too, and its headroom is larger' '
	write_policy "$TMP/long.yaml" 3000m &&
	sed -i "s/mtu: 9216/mtu: 1500/" "$TMP/long.yaml" &&
	rc apply -p "$TMP/long.yaml" -i "$I" -J "$J" >"$TMP/apply2" 2>&1 ||
		{ sed "s/^/# /" "$TMP/apply2"; false; } &&
	test "$(on mlx "sonic-db-cli CONFIG_DB HGET '\''CABLE_LENGTH|AZURE'\'' Ethernet4")" = 3000m &&
	x=$(on mlx "sonic-db-cli APPL_DB HGET '\''BUFFER_PROFILE_TABLE:pg_lossless_400000_3000m_profile'\'' xoff") &&
	test "$x" -gt 98304 &&
	sonic_yang mlx &&
	rc apply -p "$P" -i "$I" -J "$J" >"$TMP/apply3" 2>&1 ||
		{ sed "s/^/# /" "$TMP/apply3"; false; }
'

# the device sizes headroom on this model: rocectl's estimate is shown, not compared
# (docs/platforms/sonic.md; tests/switch/t2130-sonic-dynhead.sh runs the shipped policy)
test_expect_success 'derived xoff below the estimate for 9216-byte frames: in sync, shown' '
	write_policy "$TMP/jumbo.yaml" 7m &&
	rc verify -p "$TMP/jumbo.yaml" -i "$I" >"$TMP/jumbo" 2>&1 ||
		{ sed "s/^/# /" "$TMP/jumbo"; false; } &&
	test_must_contain "$TMP/jumbo" "headroom\[3\].estimate *warning" &&
	test_must_contain "$TMP/jumbo" "the device derived xoff 99328 B"
'

test_expect_success 'buffermgrd not following (port admin down: its lossless PGs go) is drift' '
	sim fault "$LAB" mlx drift PORT.Ethernet0.admin_status=down &&
	test -z "$(on mlx "sonic-db-cli APPL_DB HGETALL '\''BUFFER_PG_TABLE:Ethernet0:3-4'\''" | tr -d "{}")" &&
	{ rc verify -p "$P" -i "$I" >"$TMP/drift" 2>&1; st=$?; } ;
	test "$st" = 2 &&
	test_must_contain "$TMP/drift" "buffermgrd did not follow the cable length" &&
	sim fault "$LAB" mlx drift PORT.Ethernet0.admin_status=up &&
	rc verify -p "$P" -i "$I" >"$TMP/verify2" 2>&1
'

test_expect_success 'shared headroom pool (over_subscribe_ratio): xoff still the headroom, pool sized' '
	sim fault "$LAB" mlx drift DEFAULT_LOSSLESS_BUFFER_PARAMETER.AZURE.over_subscribe_ratio=2 &&
	test "$(on mlx "sonic-db-cli APPL_DB HGET '\''BUFFER_PROFILE_TABLE:pg_lossless_400000_7m_profile'\'' size")" = 19456 &&
	x=$(on mlx "sonic-db-cli APPL_DB HGET '\''BUFFER_POOL_TABLE:ingress_lossless_pool'\'' xoff") &&
	test "$x" -ge 655360 &&
	rc verify -p "$P" -i "$I" >"$TMP/verify3" 2>&1 ||
		{ sed "s/^/# /" "$TMP/verify3"; false; }
'

test_expect_success 'the traditional model on the same SKU still rounds 7m up to its 40m row' '
	sim down "$LAB" &&
	sim up "$LAB" --switch mlx=127.0.51.20:sonic:Mellanox-SN5600-O128+traditional \
		--ports Ethernet0,Ethernet4 >"$TMP/up2.log" 2>&1 &&
	rc apply -p "$P" -i "$I" -J "$TMP/j2" >"$TMP/apply4" 2>&1 ||
		{ sed "s/^/# /" "$TMP/apply4"; false; } &&
	test "$(on mlx "sonic-db-cli CONFIG_DB HGET '\''CABLE_LENGTH|AZURE'\'' Ethernet0")" = 40m &&
	sonic_yang mlx
'

test_expect_success 'the simulated switch goes down cleanly' '
	sim down "$LAB"
'
test_done
