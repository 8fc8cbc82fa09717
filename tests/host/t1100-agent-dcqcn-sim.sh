#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# DCQCN RP/NP parameters (policy section dcqcn) through the simulated NIC's debugfs
# cc_params (tests/sim/nic/cong.c models drivers/infiniband/hw/mlx5/cong.c): plan shows
# old -> new per parameter and writes nothing, apply writes only what differs, verify is in
# sync, a hand edit is drift, and without cc_params the parameters are not controllable.
. "$SRC_DIR/tests/lib/testlib.sh"
. "$SRC_DIR/tests/lib/niclib.sh"

write_dcqcn_policy "$TMP/policy.yaml" roce-dcqcn "rp_ai_rate: 10, rp_hai_rate: 100, rp_gd: 11"
P="$TMP/policy.yaml"

"$NICSIM" init "$TMP/d" --nic eth0,rdma=mlx5_0,debugfs >/dev/null
CC="$TMP/d/sys/kernel/debug/mlx5/0000:10:00.0/cc_params"
W="sys/kernel/debug/mlx5/0000:10:00.0/cc_params"

test_expect_success 'plan shows old -> new per DCQCN parameter and writes nothing' '
	: >"$TMP/d/writes.log" &&
	test_expect_code 2 agent d plan -p "$P" >"$TMP/out" &&
	test_must_contain "$TMP/out" "dcqcn.rp_ai_rate +5 -> 10$" &&
	test_must_contain "$TMP/out" "dcqcn.rp_hai_rate +50 -> 100$" &&
	test_must_contain "$TMP/out" "dcqcn.np_min_time_between_cnps +0 -> 4$" &&
	test_must_not_contain "$TMP/out" "dcqcn.rp_gd" &&
	test_must_not_contain "$TMP/d/writes.log" "cc_params"
'

test_expect_success 'apply writes exactly the differing parameters; verify is in sync' '
	: >"$TMP/d/writes.log" &&
	agent d apply -p "$P" --journal "$J" >/dev/null &&
	grep "cc_params/[rn]p_[a-z_]*_*" "$TMP/d/writes.log" | grep -v np_cnp >"$TMP/w" &&
	test_must_contain "$TMP/w" "^write $W/rp_ai_rate \"10\" -> 0$" &&
	test_must_contain "$TMP/w" "^write $W/rp_hai_rate \"100\" -> 0$" &&
	test_must_contain "$TMP/w" "^write $W/np_min_time_between_cnps \"4\" -> 0$" &&
	test "$(wc -l <"$TMP/w")" = 3 &&
	test "$(cat "$CC/rp_ai_rate")" = 10 &&
	agent d verify -p "$P" >/dev/null &&
	: >"$TMP/d/writes.log" &&
	agent d apply -p "$P" --journal "$J" >/dev/null &&
	test_must_not_contain "$TMP/d/writes.log" "cc_params"
'

test_expect_success 'a hand edit of a cc_params file is drift, and apply repairs it' '
	on d sh -c "echo 0x20 >$CC/rp_hai_rate" &&
	test_expect_code 2 agent d verify -p "$P" >"$TMP/out" &&
	test_must_contain "$TMP/out" "dcqcn.rp_hai_rate +want 100, have 32" &&
	test_expect_code 2 agent d verify -p "$P" --json >"$TMP/out" &&
	test_must_contain "$TMP/out" "\"field\":\"dcqcn.rp_hai_rate\",\"group\":\"dcqcn\"" &&
	agent d apply -p "$P" --journal "$J" >/dev/null &&
	agent d verify -p "$P" >/dev/null
'

test_expect_success 'the simulated cc_params refuses what cong.c set_param refuses' '
	! on d sh -c "echo 4294967296 >$CC/rp_ai_rate" &&
	! on d sh -c "echo fast >$CC/rp_ai_rate" &&
	test "$(cat "$CC/rp_ai_rate")" = 10
'

test_expect_success 'without debugfs cc_params the parameters are not controllable here' '
	"$NICSIM" init "$TMP/n" --nic eth0,rdma=mlx5_0 >/dev/null &&
	{ agent n verify -p "$P" >"$TMP/out" 2>&1; test $? = 2; } &&
	test_must_contain "$TMP/out" "dcqcn.rp_ai_rate.*not controllable" &&
	test_must_not_contain "$TMP/n/writes.log" "cc_params"
'

test_done
