#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# rocectl agent against the real kernel: a dummy netdev in a network namespace has no
# dcbnl ops, so the kernel answers EOPNOTSUPP and the agent must say so, clearly.  Kernels
# built without the dummy driver get a veth pair instead (no dcbnl ops either).
. "$SRC_DIR/tests/lib/testlib.sh"
. "$SRC_DIR/tests/lib/niclib.sh"

NS=rocectl-t1001-$$
ip netns add "$NS" || { echo "not ok - cannot create a network namespace"; exit 1; }
test_at_exit "ip netns del $NS"
ip -n "$NS" link add rcdummy0 type dummy 2>/dev/null ||
	ip -n "$NS" link add rcdummy0 type veth peer name rcdummy1
ip -n "$NS" link set rcdummy0 up

write_host_policy "$TMP/policy.yaml"

in_ns() {
	ip netns exec "$NS" "$@"
}

test_expect_success 'show on a device without DCB names the device and the reason' '
	test_expect_code 1 in_ns "$ROCECTL" agent show --interface rcdummy0 >"$TMP/out" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "^rocectl agent: '\''rcdummy0'\'': no DCB support \(the driver has no dcbnl ops: Operation not supported\)$" &&
	test_must_contain "$TMP/out" "dcb: not supported by this driver" &&
	test_must_contain "$TMP/out" "^rcdummy0: mtu 1500"
'

test_expect_success 'show --json reports the device as not supporting DCB' '
	test_expect_code 1 in_ns "$ROCECTL" agent show --json --interface rcdummy0 >"$TMP/out" 2>/dev/null &&
	test_must_contain "$TMP/out" "\"dcb\":\\{\"supported\":false,\"error\":\"'\''rcdummy0'\'': no DCB support" &&
	test_must_contain "$TMP/out" "\"exit_code\":1\\}$"
'

test_expect_success 'plan and verify on it are errors, not a silent pass' '
	test_expect_code 1 in_ns "$ROCECTL" agent plan -p "$TMP/policy.yaml" --interface rcdummy0 >"$TMP/out" 2>"$TMP/err" &&
	test_must_contain "$TMP/out" "rcdummy0: error: '\''rcdummy0'\'': no DCB support" &&
	test_expect_code 1 in_ns "$ROCECTL" agent verify -p "$TMP/policy.yaml" --interface rcdummy0 >"$TMP/out" 2>"$TMP/err" &&
	test_must_not_contain "$TMP/out" "in sync"
'

test_expect_success 'apply on it writes nothing and leaves no journal' '
	test_expect_code 1 in_ns "$ROCECTL" agent apply -p "$TMP/policy.yaml" --journal "$TMP/journal" --interface rcdummy0 >"$TMP/out" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "no DCB support" &&
	test -z "$(find "$TMP/journal" -name "*.json" 2>/dev/null)"
'

test_expect_success 'a missing interface is named as such' '
	test_expect_code 1 in_ns "$ROCECTL" agent show --interface rcnothere0 >"$TMP/out" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "'\''rcnothere0'\'': no such network interface"
'

test_expect_success 'without RDMA devices and without --interface: a clear error' '
	test_expect_code 1 in_ns "$ROCECTL" agent verify -p "$TMP/policy.yaml" >"$TMP/out" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "no network interface backs an RDMA device"
'

test_expect_success '--only rdma leaves DCB out: no DCB error' '
	in_ns "$ROCECTL" agent show --only rdma --interface rcdummy0 >"$TMP/out" 2>"$TMP/err" &&
	test_must_not_contain "$TMP/out" "dcb" &&
	test_must_contain "$TMP/out" "rdma: no RDMA device behind this interface"
'

test_expect_success 'an unknown --only section is refused' '
	test_expect_code 64 "$ROCECTL" agent show --only dcb,pfc --interface lo 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "unknown section '\''pfc'\''"
'

test_done
