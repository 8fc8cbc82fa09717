#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# DCQCN RP/NP parameters (policy section dcqcn) through MLNX_OFED's sysfs
# /sys/class/net/<if>/ecn/roce_rp/ and ecn/roce_np/ (tests/sim/nic/cong.c models OFED's
# en_sysfs.c/en_ecn.c): the OFED route is preferred where the host has it, show reports
# the route, apply writes OFED's files (never debugfs), values above INT_MAX survive
# OFED's "%d", a hand edit is drift, and a host without OFED keeps the debugfs route.
. "$SRC_DIR/tests/lib/testlib.sh"
. "$SRC_DIR/tests/lib/niclib.sh"

write_dcqcn_policy "$TMP/policy.yaml" roce-dcqcn-ofed \
	"rp_ai_rate: 10, rp_hai_rate: 100, rp_gd: 11, rp_byte_reset: 4294967295"
P="$TMP/policy.yaml"

"$NICSIM" init "$TMP/o" --ofed --nic eth0,rdma=mlx5_0,debugfs >/dev/null
E="$TMP/o/sys/class/net/eth0/ecn"
W="sys/class/net/eth0/ecn"

test_expect_success 'show reports the OFED route when the host has both OFED and debugfs' '
	agent o show --interface eth0 --json >"$TMP/out" &&
	test_must_contain "$TMP/out" "\"dcqcn\":{\"controllable\":true,\"route\":\"ofed-sysfs\"" &&
	test_must_contain "$TMP/out" "\"rp_ai_rate\":5," &&
	test_must_contain "$TMP/out" "\"dscp\":48,\"prio\":6,\"route\":\"ofed-sysfs\"" &&
	agent o show --interface eth0 >"$TMP/out" &&
	test_must_contain "$TMP/out" "dcqcn \(ofed-sysfs\): rp_ai_rate 5 rp_hai_rate 50"
'

test_expect_success 'plan shows old -> new per parameter and writes nothing' '
	: >"$TMP/o/writes.log" &&
	test_expect_code 2 agent o plan -p "$P" >"$TMP/out" &&
	test_must_contain "$TMP/out" "dcqcn.rp_ai_rate +5 -> 10$" &&
	test_must_contain "$TMP/out" "dcqcn.rp_byte_reset +32767 -> 4294967295$" &&
	test_must_contain "$TMP/out" "dcqcn.np_min_time_between_cnps +0 -> 4$" &&
	test_must_not_contain "$TMP/out" "dcqcn.rp_gd" &&
	test_must_not_contain "$TMP/o/writes.log" "ecn/roce_rp/rpg"
'

test_expect_success 'apply writes exactly the differing parameters to the OFED files' '
	: >"$TMP/o/writes.log" &&
	agent o apply -p "$P" --journal "$J" >/dev/null &&
	test_must_not_contain "$TMP/o/writes.log" "cc_params" &&
	grep -E "ecn/roce_(rp/rpg_|rp/initial|np/min_time)" "$TMP/o/writes.log" >"$TMP/w" &&
	test_must_contain "$TMP/w" "^write $W/roce_rp/rpg_ai_rate \"10\" -> 0$" &&
	test_must_contain "$TMP/w" "^write $W/roce_rp/rpg_hai_rate \"100\" -> 0$" &&
	test_must_contain "$TMP/w" "^write $W/roce_rp/rpg_byte_reset \"-1\" -> 0$" &&
	test_must_contain "$TMP/w" "^write $W/roce_np/min_time_between_cnps \"4\" -> 0$" &&
	test "$(wc -l <"$TMP/w")" = 4 &&
	test "$(cat "$E/roce_rp/rpg_ai_rate")" = 10 &&
	test "$(cat "$E/roce_rp/rpg_byte_reset")" = -1 &&
	"$NICSIM" show "$TMP/o" eth0 >"$TMP/st" &&
	test_must_contain "$TMP/st" "rp_byte_reset=4294967295" &&
	agent o verify -p "$P" >/dev/null &&
	: >"$TMP/o/writes.log" &&
	agent o apply -p "$P" --journal "$J" >/dev/null &&
	test_must_not_contain "$TMP/o/writes.log" "ecn/roce_rp/rpg"
'

test_expect_success 'a hand edit of an OFED file is drift, and apply repairs it' '
	on o sh -c "echo 32 >$E/roce_rp/rpg_hai_rate" &&
	test_expect_code 2 agent o verify -p "$P" >"$TMP/out" &&
	test_must_contain "$TMP/out" "dcqcn.rp_hai_rate +want 100, have 32" &&
	agent o apply -p "$P" --journal "$J" >/dev/null &&
	agent o verify -p "$P" >/dev/null
'

test_expect_success 'the simulated OFED files refuse what is no number, as sysfs does' '
	! on o sh -c "echo fast >$E/roce_rp/rpg_ai_rate" &&
	test "$(cat "$E/roce_rp/rpg_ai_rate")" = 10
'

test_expect_success 'without OFED the debugfs route is used and reported' '
	"$NICSIM" init "$TMP/d" --nic eth0,rdma=mlx5_0,debugfs >/dev/null &&
	agent d show --interface eth0 --json >"$TMP/out" &&
	test_must_contain "$TMP/out" "\"dcqcn\":{\"controllable\":true,\"route\":\"debugfs\"" &&
	agent d apply -p "$P" --journal "$J.d" >/dev/null &&
	test_must_contain "$TMP/d/writes.log" "cc_params/rp_byte_reset \"4294967295\" -> 0" &&
	agent d verify -p "$P" >/dev/null
'

test_expect_success 'neither route: not controllable, and show says why' '
	"$NICSIM" init "$TMP/n" --nic eth0,rdma=mlx5_0 >/dev/null &&
	agent n show --interface eth0 >"$TMP/out" &&
	test_must_contain "$TMP/out" "dcqcn: not controllable here \(no OFED ecn/roce_rp sysfs and no debugfs"
'

test_done
