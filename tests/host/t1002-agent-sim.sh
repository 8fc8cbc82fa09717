#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# rocectl agent through the simulated NIC (tests/sim/nic), with the real iproute2 `dcb` as
# the independent witness: what the agent writes, dcb reads back; what dcb breaks, the agent
# reports and repairs; plan writes nothing; a second apply changes nothing.
. "$SRC_DIR/tests/lib/testlib.sh"
. "$SRC_DIR/tests/lib/niclib.sh"

# The APP table after apply (dcb -j, DSCP order): RoCE's 26 and CNP's 48 only; the DSCPs
# whose firmware default (dscp >> 3) is lossless priority 3 are a warning, not rewritten.
e='(,\" \")?'
APP_TABLE="\[\[26,3$e\],\[48,6$e\]\]"

write_host_policy "$TMP/policy.yaml"
P="$TMP/policy.yaml"

# The lines of a host's write log that reach a device: netlink SETs and file writes.  The
# configfs mkdir/rmdir pair around a read is how rdma_cm's group is looked at (as
# NVIDIA's cma_roce_tos does); it writes no device state.
device_writes() {
	grep -Ev '^(mkdir|rmdir) sys/kernel/config/rdma_cm/' "$TMP/$1/writes.log" || true
}

"$NICSIM" init "$TMP/a" --nic eth0,rdma=mlx5_0 --nic eth1,rdma=mlx5_1 >/dev/null

test_expect_success 'show reports rdma device, GIDs, RoCEv2 GID index and DCB state' '
	agent a show >"$TMP/out" &&
	test_must_contain "$TMP/out" "^eth0: mtu 1500 speed 100000 Mb/s" &&
	test_must_contain "$TMP/out" "rdma: mlx5_0 port 1 \(4: ACTIVE" &&
	test_must_contain "$TMP/out" "^ +3 +0000:0000:0000:0000:0000:ffff:c000:0201 +RoCE v2 +eth0$" &&
	test_must_contain "$TMP/out" "RoCEv2 IPv4 GID index: 3 \(NCCL_IB_GID_INDEX\)" &&
	test_must_contain "$TMP/out" "dcbx cee ieee" &&
	test_must_contain "$TMP/out" "trust pcp" &&
	test_must_contain "$TMP/out" "pfc pfc-cap 8 prio-pfc none delay 7" &&
	test_must_contain "$TMP/out" "ecn enables: not controllable here" &&
	test_must_contain "$TMP/out" "rdma_cm default ToS 0" &&
	test_must_contain "$TMP/out" "^eth1:"
'

test_expect_success 'interfaces default to every RDMA netdev; --interface selects' '
	agent a show --json >"$TMP/out" &&
	test_must_contain "$TMP/out" "\"interface\":\"eth0\".*\"interface\":\"eth1\"" &&
	agent a show --json --interface eth1 >"$TMP/out" &&
	test_must_not_contain "$TMP/out" "\"interface\":\"eth0\""
'

test_expect_success 'plan lists the changes, exits 2, and no write reaches a NIC' '
	cp "$TMP/a/nics/eth0.state" "$TMP/eth0.before" &&
	cp "$TMP/a/nics/eth1.state" "$TMP/eth1.before" &&
	: >"$TMP/a/writes.log" &&
	test_expect_code 2 agent a plan -p "$P" >"$TMP/out" &&
	test_must_contain "$TMP/out" "^eth0: 4 changes" &&
	test_must_contain "$TMP/out" "trust +pcp -> dscp +\(disruptive\)" &&
	test_must_not_contain "$TMP/out" "dscp2prio\[26\]" &&
	test_must_contain "$TMP/out" "cable_length_m +not effective here: .*firmware" &&
	test_must_contain "$TMP/out" "pfc_enabled +none -> 3 +\(disruptive\)" &&
	test_must_contain "$TMP/out" "roce_tos +0 -> 106" &&
	test_must_contain "$TMP/out" "dcbx +firmware -> host" &&
	test -z "$(device_writes a)" &&
	cmp "$TMP/eth0.before" "$TMP/a/nics/eth0.state" &&
	cmp "$TMP/eth1.before" "$TMP/a/nics/eth1.state"
'

test_expect_success 'verify before apply reports drift (exit 2), still writing nothing' '
	test_expect_code 2 agent a verify -p "$P" >"$TMP/out" &&
	test_must_contain "$TMP/out" "pfc_enabled +want 3, have none" &&
	test -z "$(device_writes a)"
'

test_expect_success 'apply makes the NICs match the policy' '
	agent a apply -p "$P" --journal "$J" >"$TMP/out" &&
	test_must_contain "$TMP/out" "^eth0: applied 4 changes" &&
	test_must_contain "$TMP/out" "^eth1: applied 4 changes" &&
	test -z "$(find "$J" -name "*.json" 2>/dev/null)"
'

test_expect_success 'dcb shows the policy: PFC, APP table, buffers, DCBX' '
	for dev in eth0 eth1; do
		on a dcb -j pfc show dev $dev >"$TMP/pfc" &&
		test_must_contain "$TMP/pfc" "\"prio_pfc\":\[false,false,false,true,false,false,false,false\]" &&
		test_must_contain "$TMP/pfc" "\"delay\":7" &&
		on a dcb -j app show dev $dev >"$TMP/app" &&
		test_must_contain "$TMP/app" "^\{\"dscp_prio\":$APP_TABLE\}$" &&
		on a dcb -j buffer show dev $dev >"$TMP/buf" &&
		test_must_contain "$TMP/buf" "\"prio_buffer\":\[0,0,0,0,0,0,0,0\]" &&
		on a dcb -j dcbx show dev $dev >"$TMP/dcbx" &&
		test_must_contain "$TMP/dcbx" "\"host\":true" &&
		test_must_contain "$TMP/dcbx" "\"ieee\":true" || return 1
	done
'

test_expect_success 'verify after apply is in sync (exit 0)' '
	agent a verify -p "$P" >"$TMP/out" &&
	test_must_contain "$TMP/out" "^eth0: in sync" &&
	test_must_contain "$TMP/out" "^eth1: in sync"
'

test_expect_success 'a second apply plans no change and writes nothing' '
	: >"$TMP/a/writes.log" &&
	agent a plan -p "$P" >"$TMP/out" &&
	test_must_contain "$TMP/out" "^eth0: no changes" &&
	agent a apply -p "$P" --journal "$J" >"$TMP/out" &&
	test_must_contain "$TMP/out" "^eth1: no changes" &&
	test -z "$(device_writes a)"
'

test_expect_success 'the same state made with dcb gives a byte-identical state file' '
	"$NICSIM" init "$TMP/b" --nic eth0,rdma=mlx5_0 --nic eth1,rdma=mlx5_1 >/dev/null &&
	on b dcb dcbx set dev eth0 host cee ieee &&
	on b dcb pfc set dev eth0 prio-pfc 3:on &&
	on b dcb app add dev eth0 dscp-prio 26:3 48:6 &&
	# as cma_roce_tos does it; through tee, as the simulator does not follow a shell
	# redirection (dup2) to the attribute file
	on b sh -c "cfs=\$NICSIM_DIR/sys/kernel/config/rdma_cm/mlx5_0 && mkdir \$cfs &&
		echo 106 | tee \$cfs/ports/1/default_roce_tos >/dev/null && rmdir \$cfs" &&
	cmp "$TMP/a/nics/eth0.state" "$TMP/b/nics/eth0.state"
'

test_expect_success 'drift made with dcb is reported field by field' '
	on a dcb pfc set dev eth0 prio-pfc 3:off &&
	on a dcb app del dev eth0 dscp-prio 26:3 &&
	on a dcb app add dev eth1 dscp-prio 26:5 &&
	test_expect_code 2 agent a verify -p "$P" >"$TMP/out" &&
	# The deleted entry leaves firmware at 0 for DSCP 26, which the kernel does not report:
	# the map reads the default (dscp >> 3), unverified; PFC off makes no priority lossless.
	test_must_contain "$TMP/out" "^eth0: 1 drifted field$" &&
	test_must_contain "$TMP/out" "pfc_enabled +want 3, have none" &&
	test_must_contain "$TMP/out" "^eth1: 1 drifted field$" &&
	test_must_contain "$TMP/out" "dscp2prio\[26\] +want 3, have 5" &&
	test_expect_code 2 agent a verify -p "$P" --json >"$TMP/out" &&
	test_must_contain "$TMP/out" "\{\"field\":\"dscp2prio\[26\]\",\"group\":\"dscp2prio\",\"kind\":\"set\",\"old\":\"5\",\"new\":\"3\",\"disruptive\":false\}" &&
	test_must_contain "$TMP/out" "\{\"field\":\"pfc_enabled\",\"group\":\"pfc_enabled\",\"kind\":\"set\",\"old\":\"none\",\"new\":\"3\",\"disruptive\":true\}" &&
	test_must_contain "$TMP/out" "\"status\":\"drift\",\"exit_code\":2\}$"
'

test_expect_success 'apply repairs the drift, and only the drifted fields' '
	: >"$TMP/a/writes.log" &&
	agent a apply -p "$P" --journal "$J" >"$TMP/out" &&
	# PFC changes which DSCPs reach a lossless priority: the map is rewritten with it.
	test_must_contain "$TMP/out" "^eth0: applied 1 change$" &&
	test_must_contain "$TMP/out" "^eth1: applied 1 change$" &&
	test "$(device_writes a | grep -c setdcb)" -eq 3 &&
	agent a verify -p "$P" >"$TMP/out" &&
	on a dcb -j app show dev eth1 >"$TMP/app" &&
	test_must_contain "$TMP/app" "^\{\"dscp_prio\":$APP_TABLE\}$" &&
	cmp "$TMP/a/nics/eth0.state" "$TMP/b/nics/eth0.state"
'

test_expect_success 'an explicit headroom size writes the buffer object' '
	sed "s/headroom: {cable_length: 7m, mtu: 9216}/headroom: {cable_length: 7m, mtu: 9216, size: 200KiB}/" \
		"$P" >"$TMP/policy-hr.yaml" &&
	"$NICSIM" init "$TMP/c" --nic eth0,rdma=mlx5_0 >/dev/null &&
	agent c apply -p "$TMP/policy-hr.yaml" --journal "$J" >"$TMP/out" &&
	test_must_contain "$TMP/out" "headroom\[3\].bytes +262144 -> 204800" &&
	on c dcb -j buffer show dev eth0 >"$TMP/buf" &&
	test_must_contain "$TMP/buf" "\"prio_buffer\":\[0,0,0,1,0,0,0,0\]" &&
	test_must_contain "$TMP/buf" "\"buffer_size\":\[262144,204800,0,0,0,0,0,0\]" &&
	agent c verify -p "$TMP/policy-hr.yaml" >/dev/null
'

test_expect_success 'buffers that would leave under 4 cells shared are refused before writing' '
	sed "s/headroom: {cable_length: 7m, mtu: 9216}/headroom: {cable_length: 7m, mtu: 9216, size: 1048320B}/" \
		"$P" >"$TMP/policy-big.yaml" &&
	"$NICSIM" init "$TMP/c2" --nic eth0,rdma=mlx5_0 >/dev/null &&
	: >"$TMP/c2/writes.log" &&
	test_expect_code 1 agent c2 apply -p "$TMP/policy-big.yaml" --journal "$J" >"$TMP/out" 2>&1 &&
	test_must_contain "$TMP/out" "must stay shared \(4 cells" &&
	test_must_not_contain "$TMP/c2/writes.log" "buffer" &&
	sed "s/headroom: {cable_length: 7m, mtu: 9216}/headroom: {cable_length: 7m, mtu: 9216, size: 1047552B}/" \
		"$P" >"$TMP/policy-fits.yaml" &&
	agent c2 apply -p "$TMP/policy-fits.yaml" --journal "$J" >"$TMP/out" &&
	on c2 dcb -j buffer show dev eth0 >"$TMP/buf" &&
	test_must_contain "$TMP/buf" "\"buffer_size\":\[512,1047552,0,0,0,0,0,0\]"
'

test_expect_success 'MLNX_OFED sysfs: ECN enables written, read before write' '
	"$NICSIM" init "$TMP/d" --ofed --nic eth0,rdma=mlx5_0 >/dev/null &&
	test_expect_code 2 agent d plan -p "$P" >"$TMP/out" &&
	test_must_contain "$TMP/out" "nic_ecn.np +none -> 3" &&
	test_must_contain "$TMP/out" "nic_ecn.rp +none -> 3" &&
	agent d apply -p "$P" --journal "$J" >/dev/null &&
	device_writes d >"$TMP/w" &&
	test_must_contain "$TMP/w" "^write sys/class/net/eth0/ecn/roce_np/enable/3 \"1\" -> 0$" &&
	test_must_contain "$TMP/w" "^write sys/class/net/eth0/ecn/roce_rp/enable/3 \"1\" -> 0$" &&
	test_must_not_contain "$TMP/w" "enable/[0124567]" &&
	test_must_not_contain "$TMP/w" "cnp_dscp|cnp_802p_prio|qos/trust" &&
	agent d verify -p "$P" >/dev/null
'

test_expect_success 'upstream debugfs cc_params: CNP DSCP and priority read and written there' '
	"$NICSIM" init "$TMP/dbg" --nic eth0,rdma=mlx5_0,debugfs >/dev/null &&
	cc="$TMP/dbg/sys/kernel/debug/mlx5/0000:10:00.0/cc_params" &&
	agent dbg apply -p "$P" --journal "$J" >/dev/null &&
	agent dbg verify -p "$P" >/dev/null &&
	on dbg sh -c "echo 1 >$cc/np_cnp_prio_mode" &&
	test_expect_code 2 agent dbg verify -p "$P" >"$TMP/out" &&
	test_must_contain "$TMP/out" "cnp.effect +want in effect, have not in effect" &&
	test_expect_code 2 agent dbg verify -p "$P" --json >"$TMP/out" &&
	test_must_contain "$TMP/out" "\{\"field\":\"cnp.effect\",\"group\":\"cnp\",\"kind\":\"set\"" &&
	on dbg sh -c "echo 46 >$cc/np_cnp_dscp" &&
	test_expect_code 2 agent dbg verify -p "$P" >"$TMP/out" &&
	test_must_contain "$TMP/out" "cnp.dscp +want 48, have 46" &&
	: >"$TMP/dbg/writes.log" &&
	agent dbg apply -p "$P" --journal "$J" >/dev/null &&
	device_writes dbg >"$TMP/w" &&
	test_must_contain "$TMP/w" "^write sys/kernel/debug/mlx5/0000:10:00.0/cc_params/np_cnp_dscp \"48\" -> 0$" &&
	test_must_contain "$TMP/w" "^write sys/kernel/debug/mlx5/0000:10:00.0/cc_params/np_cnp_prio \"6\" -> 0$" &&
	test "$(cat "$cc/np_cnp_prio_mode")" = 0 &&
	agent dbg verify -p "$P" >/dev/null
'

test_expect_success 'without OFED sysfs or debugfs, CNP marking is not controllable, with the reason' '
	agent a show >"$TMP/out" &&
	test_must_contain "$TMP/out" "cnp: not controllable here" &&
	agent a verify -p "$P" >"$TMP/out" &&
	test_must_contain "$TMP/out" "cnp.*not controllable"
'

test_expect_success 'an ETS policy converges on a 2024 mlx5 and on an older one' '
	{ cat "$P" && cat <<-EOF
	ets:
	  - {traffic_class: 6, mode: strict}
	  - {traffic_class: 3, mode: dwrr, bandwidth: 50%}
	  - {traffic_class: 0, mode: dwrr, bandwidth: 50%}
	EOF
	} >"$TMP/ets.yaml" &&
	"$NICSIM" init "$TMP/etsv" --nic eth0,rdma=mlx5_0 --nic eth1,rdma=mlx5_1,mlx5=pre-2024 >/dev/null &&
	agent etsv apply -p "$TMP/ets.yaml" --journal "$J" >/dev/null &&
	agent etsv verify -p "$TMP/ets.yaml" >/dev/null &&
	test_must_not_contain "$TMP/etsv/writes.log" "status -" &&
	grep "^ets-tsa" "$TMP/etsv/nics/eth0.state" >"$TMP/e0" &&
	grep "^ets-tsa" "$TMP/etsv/nics/eth1.state" >"$TMP/e1" &&
	cmp "$TMP/e0" "$TMP/e1"
'

test_expect_success '--only limits plan and apply to the sections named' '
	"$NICSIM" init "$TMP/o" --ofed --nic eth0,rdma=mlx5_0 >/dev/null &&
	test_expect_code 2 agent o plan -p "$P" --only rdma >"$TMP/out" &&
	test_must_contain "$TMP/out" "^eth0: 1 change$" &&
	test_must_contain "$TMP/out" "roce_tos +0 -> 106" &&
	test_must_not_contain "$TMP/out" "pfc_enabled|nic_ecn|dcbx" &&
	agent o apply -p "$P" --only ecn --journal "$J" >"$TMP/out" &&
	test_must_contain "$TMP/out" "^eth0: applied 2 changes" &&
	device_writes o >"$TMP/w" &&
	test "$(wc -l <"$TMP/w")" -eq 2 &&
	test_must_contain "$TMP/w" "ecn/roce_np/enable/3" &&
	test_must_contain "$TMP/w" "ecn/roce_rp/enable/3" &&
	agent o verify -p "$P" --only ecn >/dev/null &&
	test_expect_code 2 agent o verify -p "$P" --only dcb >/dev/null
'

test_expect_success 'a failed SET restores that NIC, exits 1, and the others are still handled' '
	"$NICSIM" init "$TMP/e" --nic eth0,rdma=mlx5_0 --nic eth1,rdma=mlx5_1 >/dev/null &&
	cp "$TMP/e/nics/eth0.state" "$TMP/e0.before" &&
	"$NICSIM" fault "$TMP/e" fail-set 3 --nic eth0 &&
	test_expect_code 1 agent e apply -p "$P" --journal "$J" >"$TMP/out" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "eth0: .*apply failed: '\''eth0'\'': setting the DSCP APP table was refused by the driver: Input/output error \(status 251\); restored the pre-change state" &&
	cmp "$TMP/e0.before" "$TMP/e/nics/eth0.state" &&
	test_must_contain "$TMP/out" "^eth1: applied 4 changes" &&
	on e dcb -j pfc show dev eth1 >"$TMP/pfc" &&
	test_must_contain "$TMP/pfc" "\"prio_pfc\":\[false,false,false,true" &&
	test -z "$(find "$J" -name "*.json")" &&
	"$NICSIM" fault "$TMP/e" fail-set 2 --nic eth0 &&
	test_expect_code 1 agent e apply -p "$P" --journal "$J" --json >"$TMP/out" 2>/dev/null &&
	test_must_contain "$TMP/out" "\{\"interface\":\"eth0\",\"status\":\"error\",\"error\":\"[^\"]*setting PFC was refused by the driver[^\"]*restored the pre-change state\",\"restored\":true," &&
	test_must_contain "$TMP/out" "\"status\":\"error\",\"exit_code\":1\}$" &&
	cmp "$TMP/e0.before" "$TMP/e/nics/eth0.state"
'

test_expect_success 'restoring after a buffer write brings back sizes and map' '
	"$NICSIM" init "$TMP/f" --nic eth0,rdma=mlx5_0 >/dev/null &&
	cp "$TMP/f/nics/eth0.state" "$TMP/f0.before" &&
	"$NICSIM" fault "$TMP/f" fail-set 4 &&
	test_expect_code 1 agent f apply -p "$TMP/policy-hr.yaml" --journal "$J" >/dev/null 2>&1 &&
	# mlx5 keeps the host in charge of the buffers once it has set them (manual_buffer);
	# everything else is byte for byte what it was.
	grep -v "^buffer-owner" "$TMP/f0.before" >"$TMP/f0.want" &&
	grep -v "^buffer-owner" "$TMP/f/nics/eth0.state" >"$TMP/f0.have" &&
	cmp "$TMP/f0.want" "$TMP/f0.have"
'

# Dies (SIGKILL) just before the Nth RTM_SETDCB reaches the NIC: "kill -9 between two writes".
cat >"$TMP/killer.c" <<'EOC'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>

static int seen;

ssize_t sendmsg(int fd, const struct msghdr *m, int flags)
{
	static ssize_t (*next)(int, const struct msghdr *, int);
	const char *at = getenv("KILL_AT_SETDCB");

	if (!next)
		next = (ssize_t(*)(int, const struct msghdr *, int))dlsym(RTLD_NEXT, "sendmsg");
	if (at && m->msg_iovlen && m->msg_iov[0].iov_len >= sizeof(struct nlmsghdr) &&
	    ((const struct nlmsghdr *)m->msg_iov[0].iov_base)->nlmsg_type == RTM_SETDCB &&
	    ++seen == atoi(at))
		raise(SIGKILL);
	return next(fd, m, flags);
}
EOC

test_expect_success 'kill -9 between two writes leaves a journal; rollback restores' '
	${CC:-cc} -shared -fPIC -o "$TMP/killer.so" "$TMP/killer.c" -ldl &&
	"$NICSIM" init "$TMP/g" --nic eth0,rdma=mlx5_0 --nic eth1,rdma=mlx5_1 >/dev/null &&
	cp "$TMP/g/nics/eth0.state" "$TMP/g0.before" &&
	cp "$TMP/g/nics/eth1.state" "$TMP/g1.before" &&
	(
		eval "$("$NICSIM" env "$TMP/g")" &&
		export LD_PRELOAD="$TMP/killer.so:$LD_PRELOAD" KILL_AT_SETDCB=3 &&
		exec "$ROCECTL" agent apply -p "$P" --journal "$J"
	) >"$TMP/out" 2>&1 || st=$? &&
	test "$st" -eq 137 &&
	test -n "$(find "$J" -name "*.json")" &&
	! cmp -s "$TMP/g0.before" "$TMP/g/nics/eth0.state" &&
	on g "$ROCECTL" rollback --journal "$J" >"$TMP/out" &&
	test_must_contain "$TMP/out" "^restored .* \(1 port\) from run " &&
	cmp "$TMP/g0.before" "$TMP/g/nics/eth0.state" &&
	cmp "$TMP/g1.before" "$TMP/g/nics/eth1.state" &&
	test -z "$(find "$J" -name "*.json")"
'

test_expect_success 'a NIC without DCB gets a clear error; the other NIC is still handled' '
	"$NICSIM" init "$TMP/h" --nic eth0,rdma=mlx5_0,nodcb --nic eth1,rdma=mlx5_1 >/dev/null &&
	test_expect_code 1 agent h apply -p "$P" --journal "$J" >"$TMP/out" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "'\''eth0'\'': no DCB support \(the driver has no dcbnl ops: Operation not supported\)" &&
	test_must_contain "$TMP/out" "^eth1: applied 4 changes" &&
	test_expect_code 1 agent h show --interface eth0 >"$TMP/out" 2>/dev/null &&
	test_must_contain "$TMP/out" "dcb: not supported by this driver" &&
	test_must_contain "$TMP/out" "RoCEv2 IPv4 GID index: 3" &&
	test_must_contain "$TMP/out" "rdma_cm default ToS 0"
'

test_expect_success 'counters are named by meaning, with their source kept' '
	"$NICSIM" counter "$TMP/a" eth0 rx_prio3_pause 12 &&
	"$NICSIM" counter "$TMP/a" eth0 np_cnp_sent 34 &&
	"$NICSIM" counter "$TMP/a" eth0 rx_discards_phy 5 &&
	test_expect_code 2 agent a counters --json --interface eth0 >"$TMP/out" &&
	test_must_contain "$TMP/out" "\{\"name\":\"pfc_pause_rx\[3\]\",\"value\":12,\"source\":\"ethtool:rx_prio3_pause\",\"is_drop\":false\}" &&
	test_must_contain "$TMP/out" "\{\"name\":\"cnp_sent\",\"value\":34,\"source\":\"hw_counters:mlx5_0/1/np_cnp_sent\",\"is_drop\":false\}" &&
	test_must_contain "$TMP/out" "\{\"name\":\"rx_port_buffer_discards\",\"value\":5,\"source\":\"ethtool:rx_discards_phy\",\"is_drop\":true\}" &&
	test_must_contain "$TMP/out" "\"status\":\"drops\"" &&
	test_expect_code 2 agent a counters --interface eth0 >"$TMP/out" &&
	test_must_contain "$TMP/out" "rx_port_buffer_discards +5 +ethtool:rx_discards_phy +DROPS"
'

test_expect_success '--json is one object with the documented envelope' '
	agent a verify -p "$P" --json >"$TMP/out" &&
	test "$(wc -l <"$TMP/out")" -eq 1 &&
	test_must_contain "$TMP/out" "^\{\"schema_version\":1,\"rocectl_version\":\"[^\"]+\",\"timestamp\":\"[^\"]+\",\"schema\":\"rocectl.agent/v1\",\"protocol\":1,\"command\":\"verify\",\"host\":\"[^\"]+\",\"policy\":\"roce-lossless\",\"interfaces\":\[" &&
	test_must_contain "$TMP/out" "\"status\":\"in-sync\",\"exit_code\":0\}$"
'

test_done
