#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# rocectl counters against a simulated Arista EOS switch, over SSH (`| json revision N`) and
# eAPI ({"cmd", "revision"}): PFC frames per port (revision 3 of `show priority-flow-control
# counters`, the model Arista's ANTA reads; the simulator answers revisions 1-2 with other
# keys), ECN marks per queue and drops per traffic class, named by meaning, the EOS view
# kept; a queue that answers "-" is "not countable here", never 0.
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

# Marks are counted only with `random-detect ecn count` under the queue
# (AVD's intended configuration qos.cfg, interfaces Ethernet6 and Ethernet7); apply configures it, and its loss is effect drift.
test_expect_success 'apply made EOS count ECN marks; an uncounted marking queue is drift' '
	sim cli "$LAB" eos1 "show running-config interfaces Ethernet1" >"$TMP/if1" &&
	test_must_contain "$TMP/if1" "^      random-detect ecn count$" &&
	sim fault "$LAB" eos1 drift interface.Ethernet1.tx-queue.3.ecn-count=false &&
	rc counters -i "$LAB/inventory.yaml" >"$TMP/all" &&
	awk "/^  Ethernet1:/ { on = 1; next } /^  [^ ]/ { on = 0 } on" "$TMP/all" >"$TMP/before" &&
	test_must_contain "$TMP/before" "pfc_pause_rx +12" &&
	test_must_contain "$TMP/before" "ecn_marked\[3\] +not enabled +eos:show qos interfaces ecn counters queue.3 .-.: marks not countable here$" &&
	test_must_not_contain "$TMP/before" "ecn_marked\[3\] +0" &&
	test_must_contain "$TMP/all" "ecn_marked\[3\] +0" &&
	{ rc verify -p "$P" -i "$LAB/inventory.yaml" --details >"$TMP/verify" 2>/dev/null; st=$?; } ;
	test "$st" = 2 &&
	test_must_contain "$TMP/verify" "Ethernet1 .*ecn.effect" &&
	test_must_contain "$TMP/verify" "tx-queue 3 are not counted" &&
	rc apply -p "$P" -i "$LAB/inventory.yaml" >/dev/null
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

test_expect_success 'egress drops per traffic class (show interfaces counters queue drops)' '
	sim fault "$LAB" eos1 drift counters:Ethernet2.drops.3.egress=9 counters:Ethernet2.drops.3.voq=4 &&
	test_expect_code 2 rc counters -i "$LAB/inventory-rest.yaml" >"$TMP/drops" &&
	test_must_contain "$TMP/drops" "egress_queue_discards\[3\] +9 +eos:show interfaces counters queue drops.TC3.egressQueueCounters +DROPS" &&
	test_must_contain "$TMP/drops" "voq_discards\[3\] +4 " &&
	sim fault "$LAB" eos1 drift counters:Ethernet2.drops.3.egress=0 counters:Ethernet2.drops.3.voq=0
'

test_expect_success 'the revision matters: without revision 3 the switch answers another model' '
	sim cli "$LAB" eos1 "show priority-flow-control counters | json" >"$TMP/rev1" &&
	jq -e ".interfaceCounters.Ethernet1 | has(\"rxFrames\") | not" "$TMP/rev1" &&
	sim cli "$LAB" eos1 "show priority-flow-control counters | json revision 3" >"$TMP/rev3" &&
	jq -e ".interfaceCounters.Ethernet1.rxFrames == 12" "$TMP/rev3"
'

test_expect_success 'the simulated switch goes down cleanly' '
	sim down "$LAB"
'
test_done
