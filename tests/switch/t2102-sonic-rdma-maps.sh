#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# An RDMA SKU whose GCU cannot patch DSCP_TO_TC_MAP (commit-2e9e81c1-gcu-4219.message.txt
# lists DSCP_TO_TC_MAP and TC_TO_QUEUE_MAP patches as failing there, PORT_QOS_MAP bindings
# as allowed; the simulator's "+rdma" models, with a labelled stand-in message).  rocectl
# takes GCU's dry run as the truth before anything is sent: without a map that already
# fits, plan says apply would fail and apply sends nothing, naming the table; once a fitting
# map exists, the ports are bound to it instead of editing the shared one.
. "$SRC_DIR/tests/lib/testlib.sh"

SIMCTL="$SRC_DIR/tests/sim/switch/simctl"
LAB="$TMP/lab"
P="$TMP/policy.yaml"
J="$TMP/journal"

. "$SRC_DIR/tests/lib/simlib.sh"

on() {
	sim cli "$LAB" "$1" "$2"
}

hget() {
	on "$1" "sonic-db-cli CONFIG_DB HGET '$2' $3"
}

notes() {
	sed -n 's/^  note: //p' "$1"
}

write_policy "$P" 40m
mkdir -p "$LAB"
test_at_exit "sh '$SIMCTL' down '$LAB' >/dev/null 2>&1"
test_expect_success 'an RDMA SN5600 and a plain one on 202511' '
	sim up "$LAB" --switch rd=127.0.51.1:sonic:Mellanox-SN5600-O128@202511+rdma+traditional \
		--switch nw=127.0.51.2:sonic:Mellanox-SN5600-O128@202511+traditional \
		--ports Ethernet0,Ethernet4 >"$TMP/up.log" 2>&1
'
I="$LAB/inventory.yaml"

test_expect_success 'no map fits: plan says apply would fail, naming DSCP_TO_TC_MAP' '
	sim fault "$LAB" rd drift "DSCP_TO_TC_MAP.PART={\"26\": \"3\", \"48\": \"5\"}" &&
	{ rc plan --gcu-dry-run -p "$P" -i "$I" --limit rd >"$TMP/plan" 2>&1; st=$?; } ;
	test "$st" = 2 &&
	notes "$TMP/plan" >"$TMP/notes" &&
	test_must_contain "$TMP/notes" "^GCU dry run: the patch \([0-9]* operations\) was refused: \[switchsim stand-in" &&
	test_must_contain "$TMP/notes" "^apply would write nothing and fail: .rd.: GCU refuses changes to DSCP_TO_TC_MAP there, and no existing DSCP_TO_TC_MAP gives port .Ethernet0. the mapping the policy wants"
'

test_expect_success 'apply sends nothing (exit 1), names the table; CONFIG_DB as it was' '
	on rd "show runningconfiguration all" >"$TMP/db.before" &&
	{ rc apply -p "$P" -i "$I" --limit rd -J "$J" >"$TMP/apply" 2>&1; st=$?; } ;
	test "$st" = 1 &&
	test_must_contain "$TMP/apply" "nothing was sent" &&
	test_must_contain "$TMP/apply" "GCU refuses changes to DSCP_TO_TC_MAP there" &&
	on rd "show runningconfiguration all" >"$TMP/db.after" &&
	cmp "$TMP/db.before" "$TMP/db.after" &&
	test "$(on rd "sudo config list-checkpoints")" = "[]"
'

test_expect_success 'with a fitting map, plan binds the ports to it instead' '
	sim fault "$LAB" rd drift "DSCP_TO_TC_MAP.ROCE={\"0\": \"0\", \"26\": \"3\", \"48\": \"6\"}" &&
	{ rc plan --gcu-dry-run -p "$P" -i "$I" --limit rd --details >"$TMP/plan2" 2>&1; st=$?; } ;
	test "$st" = 2 &&
	notes "$TMP/plan2" >"$TMP/notes2" &&
	test_must_contain "$TMP/notes2" "^DSCP_TO_TC_MAP cannot be patched here: apply binds the ports to the existing map .ROCE. instead \(GCU dry run: \[switchsim stand-in" &&
	test_must_not_contain "$TMP/notes2" "DSCP_TO_TC_MAP.AZURE is shared" &&
	test_must_contain "$TMP/notes2" "^GCU dry run: the patch \([0-9]* operations\) would apply$"
'

test_expect_success 'apply binds Ethernet0 and Ethernet4 to ROCE; AZURE is untouched; verify in sync' '
	rc apply -p "$P" -i "$I" --limit rd -J "$J" >"$TMP/apply2" 2>&1 &&
	test "$(hget rd "PORT_QOS_MAP|Ethernet0" dscp_to_tc_map)" = ROCE &&
	test "$(hget rd "PORT_QOS_MAP|Ethernet4" dscp_to_tc_map)" = ROCE &&
	test "$(hget rd "PORT_QOS_MAP|Ethernet8" dscp_to_tc_map)" = AZURE &&
	test "$(hget rd "DSCP_TO_TC_MAP|AZURE" 26)" = 1 &&
	test "$(hget rd "PORT_QOS_MAP|Ethernet0" pfc_enable)" = 3 &&
	rc verify -p "$P" -i "$I" --limit rd >"$TMP/verify" 2>&1 &&
	rc plan --gcu-dry-run -p "$P" -i "$I" --limit rd >"$TMP/plan3" 2>&1
'

test_expect_success 'a re-binding GCU fails half way is rolled back; the next apply makes it' '
	sim fault "$LAB" rd drift "PORT_QOS_MAP.Ethernet0.dscp_to_tc_map=\"AZURE\"" &&
	sim fault "$LAB" rd reject-next &&
	{ rc apply -p "$P" -i "$I" --limit rd -J "$J" >"$TMP/apply5" 2>&1; st=$?; } ;
	test "$st" = 1 &&
	test_must_contain "$TMP/apply5" "rolled back to checkpoint" &&
	test "$(hget rd "PORT_QOS_MAP|Ethernet0" dscp_to_tc_map)" = AZURE &&
	rc apply -p "$P" -i "$I" --limit rd -J "$J" >"$TMP/apply6" 2>&1 &&
	test "$(hget rd "PORT_QOS_MAP|Ethernet0" dscp_to_tc_map)" = ROCE &&
	rc verify -p "$P" -i "$I" --limit rd >/dev/null 2>&1
'

test_expect_success 'a switch that can patch the map gets the edit, not a re-binding' '
	sim fault "$LAB" nw drift "DSCP_TO_TC_MAP.ROCE={\"26\": \"3\", \"48\": \"6\"}" &&
	{ rc plan --gcu-dry-run -p "$P" -i "$I" --limit nw >"$TMP/plan4" 2>&1; st=$?; } ;
	test "$st" = 2 &&
	test_must_not_contain "$TMP/plan4" "cannot be patched here" &&
	rc apply -p "$P" -i "$I" --limit nw -J "$J" >"$TMP/apply4" 2>&1 &&
	test "$(hget nw "DSCP_TO_TC_MAP|AZURE" 26)" = 3 &&
	test "$(hget nw "PORT_QOS_MAP|Ethernet0" dscp_to_tc_map)" = AZURE
'

test_expect_success 'the simulated switches go down cleanly' '
	sim down "$LAB"
'
test_done
