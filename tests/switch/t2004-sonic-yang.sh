#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A real `rocectl apply` of each shipped policy, in turn, on simulated SONiC switches of both
# SKU families of the conformance kit (Broadcom: Arista-7060X6-64PE-B-O128 and
# Arista-7260CX3-D108C8; Mellanox: SN4600C-C64 and SN5600-O128), and after each one the
# switch's whole CONFIG_DB validated by SONiC's own YANG models
# ($CONFORMANCE_DIR/sonic/validate-config-db, yanglint): exit 1 and exit 2 both fail.  The
# Mellanox switches run the traditional buffer model here: on the dynamic one the shipped
# policies' headroom floor (9216-byte frames) is above what buffermgrd derives, so apply is
# rolled back (t2120 covers the dynamic model's CONFIG_DB).
. "$SRC_DIR/tests/lib/testlib.sh"

SIMCTL="$SRC_DIR/tests/sim/switch/simctl"
LAB="$TMP/lab"
J="$TMP/journal"
SWITCHES="bcm1 bcm2 mlx1 mlx2"

. "$SRC_DIR/tests/lib/simlib.sh"

validate_all() {
	for s in $SWITCHES; do
		sonic_yang "$s" || { st=$?; echo "# $s: exit $st"; return 1; }
	done
}

mkdir -p "$LAB"
test_at_exit "sh '$SIMCTL' down '$LAB' >/dev/null 2>&1"
test_expect_success 'four SONiC switches, two SKU families, come up; factory CONFIG_DBs validate' '
	test -n "$CONFORMANCE_DIR" &&
	sim up "$LAB" --switch bcm1=127.0.50.1:sonic:Arista-7060X6-64PE-B-O128 \
		--switch bcm2=127.0.50.2:sonic:Arista-7260CX3-D108C8 \
		--switch mlx1=127.0.50.3:sonic:Mellanox-SN4600C-C64+traditional \
		--switch mlx2=127.0.50.4:sonic:Mellanox-SN5600-O128+traditional \
		--ports Ethernet0,Ethernet4 >"$TMP/up.log" 2>&1 &&
	validate_all
'
I="$LAB/inventory.yaml"

for pol in roce-lossless pfc-only deep-buffer-spine roce-lossless; do
	test_expect_success "apply $pol on every switch; every CONFIG_DB validates" '
		rc apply -p "$SRC_DIR/policies/$pol.yaml" -i "$I" -J "$J" >"$TMP/apply" 2>&1 ||
			{ sed "s/^/# /" "$TMP/apply"; false; } &&
		test_must_contain "$TMP/apply" "applied and verified" &&
		validate_all &&
		rc verify -p "$SRC_DIR/policies/$pol.yaml" -i "$I" >"$TMP/verify" 2>&1
	'
done

test_expect_success 'the validator fails a broken state (pfc_enable 3,9): exit 1' '
	sim fault "$LAB" mlx1 drift "PORT_QOS_MAP.Ethernet0.pfc_enable=\"3,9\"" &&
	{ sonic_yang mlx1; st=$?; } ;
	test "$st" = 1 &&
	test_must_contain "$TMP/mlx1.yang" "pfc_enable"
'

test_expect_success 'the simulated switches go down cleanly' '
	sim down "$LAB"
'
test_done
