#!/bin/sh
# rocectl counters against a simulated Arista EOS switch, over SSH (`| json`) and eAPI:
# PFC frames per port and ECN marks per queue, named by meaning, the EOS view kept.
. "$SRC_DIR/tests/lib/testlib.sh"

SIMCTL="$SRC_DIR/tests/sim/switch/simctl"
LAB="$TMP/lab"
P="$SRC_DIR/policies/roce-lossless.yaml"
export BUILD_DIR

sim() {
	sh "$SIMCTL" "$@"
}

rc() {
	sh "$SIMCTL" exec "$LAB" -- env -u SSH_AUTH_SOCK ROCECTL_JOURNAL="$TMP/j" "$ROCECTL" "$@"
}

test_at_exit 'sh "$SIMCTL" down "$LAB" >/dev/null 2>&1 || true'

test_expect_success 'an EOS switch with the policy applied marks ECN on queue 3' '
	sim up "$LAB" --switch eos1=127.0.39.1:eos >/dev/null &&
	rc apply -p "$P" -i "$LAB/inventory.yaml" >/dev/null &&
	sim fault "$LAB" eos1 drift counters:Ethernet1.pfc.rxFrames=12 counters:Ethernet1.ecn.3=7
'

test_expect_success 'ECN marks are counted only where the operator asked EOS to count them' '
	rc counters -i "$LAB/inventory.yaml" >"$TMP/before" &&
	test_must_not_contain "$TMP/before" "ecn_marked" &&
	sim fault "$LAB" eos1 drift interface.Ethernet1.tx-queue.3.ecn-count=true
'

test_expect_success 'over SSH: PFC frames and ECN marks read back, no drops (exit 0)' '
	rc counters -i "$LAB/inventory.yaml" >"$TMP/out" &&
	test_must_contain "$TMP/out" "^eos1 \(switch, eos-ssh\):$" &&
	test_must_contain "$TMP/out" "pfc_pause_rx +12 +eos:show priority-flow-control counters.rxFrames$" &&
	test_must_contain "$TMP/out" "ecn_marked\[3\] +7 +eos:show qos interfaces ecn counters queue.3$"
'

test_expect_success 'over eAPI: the same numbers' '
	rc counters -i "$LAB/inventory-rest.yaml" --format json >"$TMP/json" &&
	jq -e "[.. | objects | select(.port? == \"Ethernet1\" and .name? == \"pfc_pause_rx\")][0].value == 12" "$TMP/json" &&
	jq -e "[.. | objects | select(.port? == \"Ethernet1\" and .name? == \"ecn_marked[3]\")][0].value == 7" "$TMP/json"
'

test_expect_success 'the simulated switch goes down cleanly' '
	sim down "$LAB"
'
test_done
