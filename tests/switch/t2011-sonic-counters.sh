#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# rocectl counters against a simulated SONiC switch over a real sshd: `show pfc counters`
# read back as PFC pause frames per priority, `show queue wredcounters` as ECN marks and WRED
# drops per queue, `show queue counters` as queue drops, `show priority-group drop counters`
# as PG drops, the SONiC table and column kept.  The simulator's tables begin as
# sonic-utilities' own expected outputs do ($CONFORMANCE_DIR/sonic/outputs/).
. "$SRC_DIR/tests/lib/testlib.sh"

SIMCTL="$SRC_DIR/tests/sim/switch/simctl"
CONFORMANCE_DIR=${CONFORMANCE_DIR:-$SRC_DIR/../shared/conformance}
OUT="$CONFORMANCE_DIR/sonic/outputs"
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

test_expect_success 'ECN marks, WRED and queue drops per queue, PG drops per priority group' '
	sim fault "$LAB" s1 drift counters:Ethernet0.queue.3.ecn_marked_pkts=40 \
		counters:Ethernet0.queue.3.wred_drop_pkts=2 counters:Ethernet0.queue.3.drop_pkts=5 \
		counters:Ethernet0.queue.9.ecn_marked_pkts=77 counters:Ethernet0.pg.3.drop=6 &&
	test_expect_code 2 rc counters -i "$LAB/inventory.yaml" >"$TMP/out" &&
	sed -n "/^  Ethernet0:/,/^  Ethernet4:/p" "$TMP/out" >"$TMP/e0" &&
	test_must_contain "$TMP/e0" "ecn_marked\[3\] +40 +sonic:show queue wredcounters EcnMarked/pkts$" &&
	test_must_contain "$TMP/e0" "wred_discards\[3\] +2 +sonic:show queue wredcounters WredDrp/pkts .*DROPS" &&
	test_must_contain "$TMP/e0" "egress_queue_discards\[3\] +5 +sonic:show queue counters Drop/pkts" &&
	test_must_contain "$TMP/e0" "pg_discards\[3\] +6 +sonic:show priority-group drop counters PG3" &&
	test_must_not_contain "$TMP/e0" "ecn_marked\[9\]" &&
	test_must_not_contain "$TMP/e0" " 77 "
'

# The first lines of a table, its words in order and its columns counted by their dashes
# (widths follow the widest port name, which differs between the kit's switch and ours).
shape() {
	head -n "$1" "$2" | awk '/^-+( +-+)*$/ { print NF " columns"; next } { $1 = $1; print }'
}

test_expect_success 'the tables begin as sonic-utilities prints them (titles, columns, namespace line)' '
	test -d "$OUT" &&
	sim fault "$LAB" s1 drift counters:Ethernet0.pfc.rx.0=1200 &&
	sim cli "$LAB" s1 "show pfc counters" >"$TMP/pfc" &&
	shape 2 "$OUT/show_pfc_counters.txt" >"$TMP/pfc.want" && shape 2 "$TMP/pfc" >"$TMP/pfc.got" &&
	diff -u "$TMP/pfc.want" "$TMP/pfc.got" &&
	grep -q "^ *Ethernet0  *1,200  *0  *0  *12 " "$TMP/pfc" &&
	sim cli "$LAB" s1 "show queue wredcounters" >"$TMP/wred" &&
	shape 2 "$OUT/show_queue_wredcounters.txt" >"$TMP/wred.want" &&
	shape 2 "$TMP/wred" >"$TMP/wred.got" && diff -u "$TMP/wred.want" "$TMP/wred.got" &&
	grep -q "^ *Ethernet0  *UC3  *2  *0  *40  *0$" "$TMP/wred" &&
	sim cli "$LAB" s1 "show queue counters" >"$TMP/queue" &&
	shape 3 "$OUT/show_queue_counters.txt" >"$TMP/queue.want" &&
	shape 3 "$TMP/queue" >"$TMP/queue.got" && diff -u "$TMP/queue.want" "$TMP/queue.got" &&
	sim cli "$LAB" s1 "show priority-group drop counters" >"$TMP/pg" &&
	shape 3 "$OUT/show_priority-group_drop_counters.txt" >"$TMP/pg.want" &&
	shape 3 "$TMP/pg" >"$TMP/pg.got" && diff -u "$TMP/pg.want" "$TMP/pg.got"
'

test_expect_success 'the simulated switch goes down cleanly' '
	sim down "$LAB"
'
test_done
