#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# rocectl on the real kernel: Debian 12's kernel under QEMU, rxe0 on a virtio NIC (no DCB).
# One boot runs tests/vm/guest/rocectl-rdma.sh, which puts every rocectl answer next to
# the answer of a tool nobody here wrote: ibv_devinfo for the GID table, cat of sysfs and
# configfs, dcb for DCB support, rdma statistic for the counters.  This file judges.
#
# The guest runs the ASan build.  Leak checking is off except where the guest script turns
# it on (it costs about a second per process under TCG).  A guest that cannot start fails
# the first test with the reason (tests/vm/README.md: never a skip).
. "$SRC_DIR/tests/lib/testlib.sh"
. "$SRC_DIR/tests/lib/niclib.sh"

vm() {
	bash "$SRC_DIR/tests/vm/vm" "$@"
}

write_host_policy "$TMP/policy.yaml"

probe="$TMP/probe"
mkdir -p "$probe"
probe_rc=0
vm run --rocectl "$ROCECTL" \
	--env "ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:verify_asan_link_order=0" \
	--env "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1" \
	--file "$TMP/policy.yaml:/p/policy.yaml" \
	--file "$(command -v ibv_rc_pingpong || echo /usr/bin/ibv_rc_pingpong):/usr/local/bin/ibv_rc_pingpong" \
	-- sh /tests/rocectl-rdma.sh >"$TMP/guest" 2>"$TMP/guest.err" || probe_rc=$?
awk -v dir="$probe" '
	/^### [^ ]+ exit [0-9]+$/ { print $4 > (dir "/" $2 ".rc"); close(dir "/" $2 ".rc"); name = ""; next }
	/^### [^ ]+$/ { name = $2; printf "" > (dir "/" name ".out"); next }
	name != "" { print >> (dir "/" name ".out") }
' "$TMP/guest"

# section NAME WANT_RC: the probe ran and exited as expected; its output is in $out.  No
# sanitizer report and no crash, whatever the exit status.
section() {
	out="$probe/$1.out"
	if [ ! -f "$probe/$1.rc" ]; then
		echo "guest section '$1' missing; vm run exited $probe_rc:"
		cat "$TMP/guest.err"
		return 1
	fi
	cat "$out"
	test_must_not_contain "$out" "AddressSanitizer|LeakSanitizer|runtime error:|Segmentation" &&
		test "$(cat "$probe/$1.rc")" -eq "$2"
}

# The GID table as ibv_devinfo prints it: "INDEX TYPE" per slot.
ibv_gids() {
	sed -n 's/^[[:space:]]*GID\[ *\([0-9]*\)\]:[[:space:]]*[^,]*, \(.*\)$/\1 \2/p' "$probe/ibv_devinfo.out"
}
# The slot ibv_devinfo shows for the IPv4-mapped RoCE v2 GID of 192.0.2.15.
ibv_ipv4_index() {
	sed -n 's/^[[:space:]]*GID\[ *\([0-9]*\)\]:[[:space:]]*::ffff:192\.0\.2\.15, RoCE v2$/\1/p' \
		"$probe/ibv_devinfo.out"
}
# rocectl's GID table from agent show --json: "INDEX GID TYPE NDEV" per entry.
rocectl_gids() {
	grep -o '{"index":[0-9]*,"gid":"[^"]*","type":"[^"]*","ndev":"[^"]*"}' "$1" |
		sed 's/{"index":\([0-9]*\),"gid":"\([^"]*\)","type":"\([^"]*\)","ndev":"\([^"]*\)"}/\1 \2 \3 \4/'
}
# configfs, as cat read it in the guest
tos_of() {
	section "$1" 0 >/dev/null && cat "$probe/$1.out"
}

test_expect_success 'the guest ran every probe' '
	cat "$TMP/guest.err"
	test "$probe_rc" -eq 0 &&
	for s in snapshot show-json nccl-env apply-all plan-rdma apply-rdma verify-drift \
		apply-repair traffic counters-json rdma-stat; do
		test -f "$probe/$s.rc" || { echo "no section $s"; exit 1; }
	done &&
	section snapshot 0
'

test_expect_success 'agent show --json: rxe0 behind eth0, its port as sysfs says' '
	section show-json 1 &&
	test_must_contain "$out" "\{\"interface\":\"eth0\",\"mtu\":1500,[^{]*\"rdma\":\{\"device\":\"rxe0\",\"port\":1," &&
	section sysfs-port 0 &&
	state=$(sed -n "s/^state //p" "$out") && phys=$(sed -n "s/^phys_state //p" "$out") &&
	ll=$(sed -n "s/^link_layer //p" "$out") &&
	test -n "$state" &&
	test_must_contain "$probe/show-json.out" "\"state\":\"$state\",\"phys_state\":\"$phys\",\"link_layer\":\"$ll\""
'

test_expect_success 'agent show --json: the GID table and its types, as ibv_devinfo and sysfs say' '
	section ibv_devinfo 0 &&
	rocectl_gids "$probe/show-json.out" >"$TMP/rgids" &&
	test "$(wc -l <"$TMP/rgids")" -ge 2 &&
	cut -d" " -f1,3- "$TMP/rgids" | sed "s/ eth0$//" >"$TMP/r-index-type" &&
	ibv_gids >"$TMP/i-index-type" &&
	diff "$TMP/i-index-type" "$TMP/r-index-type" &&
	section sysfs-gids 0 &&
	diff "$out" "$TMP/rgids"
'

test_expect_success 'agent show --json: the IPv4 RoCE v2 GID index is what ibv_devinfo says' '
	idx=$(ibv_ipv4_index) &&
	test "$idx" = 1 &&
	test_must_contain "$probe/show-json.out" "\"roce_v2_ipv4_gid_index\":$idx\}" &&
	section show-text 1 &&
	test_must_contain "$out" "RoCEv2 IPv4 GID index: $idx \(NCCL_IB_GID_INDEX\)"
'

test_expect_success 'agent show: the rdma_cm default ToS is what configfs says' '
	tos=$(tos_of tos-initial) &&
	test "$tos" = 0 &&
	test_must_contain "$probe/show-json.out" "\"roce_tos\":\{\"controllable\":true,\"value\":$tos\}"
'

test_expect_success 'agent show: DCB is "not supported by this driver", as dcb finds' '
	section dcb-pfc 1 && test_must_contain "$out" "Operation not supported" &&
	section dcb-app 1 && test_must_contain "$out" "Operation not supported" &&
	section show-json 1 &&
	test_must_contain "$out" "\"dcb\":\{\"supported\":false,\"error\":\"'\''eth0'\'': no DCB support \(the driver has no dcbnl ops: Operation not supported\)\"\}" &&
	test_must_contain "$out" "\"status\":\"error\",\"exit_code\":1\}$" &&
	section show-text 1 &&
	test_must_contain "$out" "^  dcb: not supported by this driver \("
'

test_expect_success 'nccl-env: rxe0, its GID index from ibv_devinfo, the ToS of DSCP 26' '
	section nccl-env 0 &&
	printf "export NCCL_IB_HCA==rxe0:1\nexport NCCL_IB_GID_INDEX=%s\nexport NCCL_IB_TC=%s\n" \
		"$(ibv_ipv4_index)" $((26 << 2 | 2)) >"$TMP/want" &&
	diff "$TMP/want" "$out" &&
	section nccl-conf 0 &&
	sed "s/^export //" "$TMP/want" >"$TMP/want.conf" &&
	diff "$TMP/want.conf" "$out"
'

test_expect_success 'apply without --only refuses before any write, naming eth0 and dcb' '
	section apply-all 1 &&
	test_must_contain "$out" "^rocectl agent: '\''eth0'\'': no DCB support .*section '\''dcb'\'' cannot be managed here; nothing was written to '\''eth0'\''" &&
	section apply-all-json 1 &&
	test_must_contain "$out" "\"unsupported_sections\":\[\"dcb\"\],\"changes\":\[\]\}\],\"status\":\"error\",\"exit_code\":1\}$" &&
	section apply-dcb 1 &&
	test_must_contain "$out" "section '\''dcb'\''" &&
	test "$(tos_of tos-after-refusal)" = 0 &&
	section journal-after-refusal 0 && test ! -s "$out"
'

test_expect_success 'plan --only rdma: default_roce_tos 0 -> 106, nothing else, nothing written' '
	section plan-rdma 2 &&
	test_must_contain "$out" "^eth0: 1 change$" &&
	test_must_contain "$out" "^    roce_tos +0 -> 106$" &&
	test_must_not_contain "$out" "dcb|pfc|trust|dscp2prio|nic_ecn" &&
	section plan-rdma-json 2 &&
	test_must_contain "$out" "\"changes\":\[\{\"field\":\"roce_tos\",\"group\":\"roce_tos\",\"kind\":\"set\",\"old\":\"0\",\"new\":\"106\",\"disruptive\":false\}\]" &&
	test "$(tos_of tos-after-plan)" = 0
'

test_expect_success 'apply --only rdma writes 106 through configfs; cat reads it back' '
	section apply-rdma 0 &&
	test_must_contain "$out" "^eth0: applied 1 change$" &&
	test "$(tos_of tos-applied)" = 106 &&
	section cma-groups 0 && test ! -s "$out" &&
	section verify-rdma 0 &&
	test_must_contain "$out" "^eth0: in sync$"
'

test_expect_success 'apply --only rdma again changes nothing' '
	section apply-rdma-again 0 &&
	test_must_contain "$out" "^eth0: no changes$" &&
	test "$(tos_of tos-again)" = 106
'

test_expect_success 'a ToS changed by hand is drift; apply repairs it' '
	section hand-edit 0 &&
	test "$(tos_of tos-hand)" = 104 &&
	section verify-drift 2 &&
	test_must_contain "$out" "^    roce_tos +want 106, have 104$" &&
	section verify-drift-json 2 &&
	test_must_contain "$out" "\"status\":\"drift\",\"changes\":\[\{\"field\":\"roce_tos\",\"group\":\"roce_tos\",\"kind\":\"set\",\"old\":\"104\",\"new\":\"106\"" &&
	section apply-repair 0 &&
	test_must_contain "$out" "^    roce_tos +104 -> 106$" &&
	test "$(tos_of tos-repaired)" = 106 &&
	section verify-repaired 0 &&
	section show-rdma-json 0 &&
	test_must_contain "$out" "\"roce_tos\":\{\"controllable\":true,\"value\":106\}" &&
	test_must_not_contain "$out" "\"dcb\"" &&
	section journal-after 0 && test ! -s "$out"
'

# rxe's counters that mean loss; a slow guest may retransmit, so the expected exit status
# (2 when one is non-zero) comes from what cat read.
drops_in() {
	grep -Ec "^(out_of_seq_request|rcvd_seq_err|completer_retry_err|retry_exceeded_err) [1-9]" "$1"
}

test_expect_success 'counters: rxe hw_counters by meaning, values as cat and rdma statistic say' '
	section traffic 0 &&
	section hw-counters 0 && cp "$out" "$TMP/hw" &&
	sent=$(sed -n "s/^sent_pkts //p" "$TMP/hw") && test "$sent" -gt 0 &&
	drops=$(drops_in "$TMP/hw" || :) && want=0 && { test "$drops" -eq 0 || want=2; } &&
	section counters-json $want &&
	for pair in sent_pkts:rdma_tx_packets rcvd_pkts:rdma_rx_packets \
		out_of_seq_request:rdma_out_of_sequence rcvd_seq_err:rdma_packet_seq_errors \
		duplicate_request:rdma_duplicate_requests rdma_sends:rdma_send_operations; do
		src=${pair%%:*} name=${pair#*:} &&
		v=$(sed -n "s/^$src //p" "$TMP/hw") && test -n "$v" &&
		test_must_contain "$out" "\{\"port\":\"eth0\",\"name\":\"$name\",\"value\":$v,\"source\":\"hw_counters:rxe0/1/$src\"" || exit 1
	done &&
	test_must_contain "$out" "\"name\":\"rdma_out_of_sequence\",\"value\":[0-9]+,\"source\":\"[^\"]*\",\"is_drop\":true" &&
	test_must_not_contain "$out" "lifespan" &&
	test_must_contain "$out" "\"drops\":$drops,\"status\":\"[a-z]*\",\"exit_code\":$want\}$" &&
	section rdma-stat 0 &&
	test_must_contain "$out" " sent_pkts $sent " &&
	section counters-text $want &&
	test_must_contain "$out" "^    rdma_tx_packets +$sent  hw_counters:rxe0/1/sent_pkts$" &&
	test "$(grep -o "hw_counters:" "$probe/counters-json.out" | wc -l)" -eq \
		"$(grep -vc "^lifespan " "$TMP/hw")"
'

test_expect_success 'counters and agent counters report the same data' '
	section agent-counters-json 0 &&
	grep -o "\"name\":\"[^\"]*\",\"value\":[0-9]*,\"source\":\"[^\"]*\",\"is_drop\":[a-z]*" "$out" >"$TMP/a" &&
	grep -o "\"name\":\"[^\"]*\",\"value\":[0-9]*,\"source\":\"[^\"]*\",\"is_drop\":[a-z]*" \
		"$probe/counters-json.out" >"$TMP/c" &&
	test -s "$TMP/c" &&
	diff "$TMP/a" "$TMP/c"
'

test_done
