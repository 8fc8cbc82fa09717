#!/bin/sh
# rocectl counters against a simulated SONiC switch over a real sshd: `show pfc counters`
# read back as PFC pause frames per priority, the SONiC table and column kept.
. "$SRC_DIR/tests/lib/testlib.sh"

SIMCTL="$SRC_DIR/tests/sim/switch/simctl"
LAB="$TMP/lab"
export BUILD_DIR

sim() {
	sh "$SIMCTL" "$@"
}

rc() {
	sh "$SIMCTL" exec "$LAB" -- env -u SSH_AUTH_SOCK "$ROCECTL" "$@"
}

test_at_exit 'sh "$SIMCTL" down "$LAB" >/dev/null 2>&1 || true'

test_expect_success 'pause frames set on the switch are read back per port and priority' '
	sim up "$LAB" --switch s1=127.0.59.1:sonic >/dev/null &&
	sim fault "$LAB" s1 drift counters:Ethernet0.pfc.rx.3=12 counters:Ethernet4.pfc.tx.3=5 &&
	rc counters -i "$LAB/inventory.yaml" >"$TMP/out" &&
	test_must_contain "$TMP/out" "^s1 \(switch, sonic-ssh\):$" &&
	sed -n "/^  Ethernet0:/,/^  Ethernet4:/p" "$TMP/out" >"$TMP/e0" &&
	test_must_contain "$TMP/e0" "pfc_pause_rx\[3\] +12 +sonic:show pfc counters rx PFC3$" &&
	sed -n "/^  Ethernet4:/,/^  Ethernet8:/p" "$TMP/out" >"$TMP/e4" &&
	test_must_contain "$TMP/e4" "pfc_pause_tx\[3\] +5 +sonic:show pfc counters tx PFC3$" &&
	test_must_not_contain "$TMP/e4" "pfc_pause_rx\[3\] +12"
'

test_expect_success 'the simulated switch goes down cleanly' '
	sim down "$LAB"
'
test_done
