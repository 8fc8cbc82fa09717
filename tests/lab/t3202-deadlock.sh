#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# PFC deadlock risk in verify, on the lab: a leaf-leaf cable (an inventory link between two
# free leaf ports) breaks up-down routing; with a lossless priority and the PFC watchdog off
# on its ports verify reports drift, with the watchdog on it reports the risk as protected,
# and a plain Clos has no risk at all.
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

LAB_CMD="$SRC_DIR/tests/lab/lab"
LAB="$TMP/lab"
INV="$LAB/inventory.yaml"
LL="$TMP/leaf-leaf.yaml"
POLICY="$SRC_DIR/policies/roce-lossless.yaml"
NOWD="$TMP/no-watchdog.yaml"
ROCECTL_JOURNAL="$TMP/journal"
# locks of our own: other runs on this machine may manage devices of the same names
ROCECTL_LOCK_DIR="$TMP/locks"
export BUILD_DIR ROCECTL ROCECTL_JOURNAL ROCECTL_LOCK_DIR

test_needs root

test_at_exit '"$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true'

rc() {
	"$LAB_CMD" exec "$LAB" -- "$ROCECTL" "$@"
}

test_expect_success 'a lab, an inventory with a leaf01-leaf02 cable, a policy without watchdog' '
	"$LAB_CMD" up "$LAB" --hosts 4 --leaves 2 --spines 1 >/dev/null &&
	grep -q "ports: \[swp1-5\]" "$INV" &&
	sed "s/ports: \[swp1-5\]/ports: [swp1-6]/" "$INV" >"$LL" &&
	echo "  - {a: \"leaf01:swp6\", b: \"leaf02:swp6\", speed: 400G, cable_length: 3m}" >>"$LL" &&
	# the cable exists in the lab too: the leaves see each other on swp6 (LLDP)
	"$SRC_DIR/tests/sim/switch/simctl" fault "$LAB/switchsim" leaf01 lldp swp6=leaf02:swp6 &&
	"$SRC_DIR/tests/sim/switch/simctl" fault "$LAB/switchsim" leaf02 lldp swp6=leaf01:swp6 &&
	rc validate -p "$POLICY" -i "$LL" >/dev/null &&
	awk "/^  watchdog:/ { skip = 1; next } skip && /^    / { next } { skip = 0; print }" \
		"$POLICY" >"$NOWD" &&
	! grep -q watchdog "$NOWD" &&
	rc validate -p "$NOWD" >/dev/null
'

test_expect_success 'lossless priority over a leaf-leaf link with the watchdog off: verify reports drift' '
	rc apply -p "$NOWD" -i "$LL" >/dev/null &&
	test_expect_code 2 rc verify -p "$NOWD" -i "$LL" --format json >"$TMP/v.json" &&
	jq -e "all(.devices[]; .status == \"in-sync\")" "$TMP/v.json" &&
	jq -e ".deadlock.prone and .deadlock.status == \"unprotected\" and
		.deadlock.lossless_priorities == [3] and
		.deadlock.lateral_links == [{\"kind\": \"leaf-leaf\", \"a\": \"leaf01:swp6\", \"b\": \"leaf02:swp6\"}] and
		([.deadlock.unprotected[] | .device + \":\" + .port + \"=\" + .watchdog] | sort ==
		 [\"leaf01:swp6=off\", \"leaf02:swp6=off\"])" "$TMP/v.json" &&
	test_expect_code 2 rc verify -p "$NOWD" -i "$LL" >"$TMP/v.txt" &&
	grep -q "deadlock risk on lossless priority 3: 1 link breaks up-down routing" "$TMP/v.txt" &&
	grep -q "leaf-leaf link leaf01:swp6 -- leaf02:swp6" "$TMP/v.txt" &&
	grep -q "leaf02:swp6: PFC watchdog off on a deadlock-prone link" "$TMP/v.txt" &&
	test_expect_code 2 rc verify -p "$NOWD" -i "$LL" --format prometheus >"$TMP/v.prom" &&
	grep -q "^rocectl_deadlock_unprotected_ports 2$" "$TMP/v.prom" &&
	grep -q "^rocectl_deadlock_prone_links 1$" "$TMP/v.prom"
'

test_expect_success 'with the watchdog on (the shipped policy) the risk is protected: in sync' '
	rc apply -p "$POLICY" -i "$LL" >/dev/null &&
	rc verify -p "$POLICY" -i "$LL" --format json >"$TMP/p.json" &&
	jq -e ".deadlock.prone and .deadlock.status == \"protected\" and .deadlock.unprotected == [] and
		.cabling.status == \"ok\"" "$TMP/p.json"
'

test_expect_success 'the plain Clos of the lab has no deadlock risk' '
	"$SRC_DIR/tests/sim/switch/simctl" fault "$LAB/switchsim" leaf01 lldp swp6= &&
	"$SRC_DIR/tests/sim/switch/simctl" fault "$LAB/switchsim" leaf02 lldp swp6= &&
	rc verify -p "$POLICY" -i "$INV" --format json >"$TMP/c.json" &&
	jq -e ".deadlock == {\"prone\": false, \"lossless_priorities\": [3], \"lateral_links\": [],
		\"cycles\": [], \"unprotected\": [], \"status\": \"ok\"}" "$TMP/c.json" &&
	rc verify -p "$POLICY" -i "$INV" >"$TMP/c.txt" &&
	! grep -q deadlock "$TMP/c.txt"
'

test_done
