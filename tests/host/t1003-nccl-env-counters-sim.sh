#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# rocectl nccl-env, rocectl counters and the apply pre-flight against the simulated NIC
# (tests/sim/nic).  Witnesses nobody here wrote: the simulated host's sysfs read with
# cat/ls (GID tables, the netdev -> RDMA device links), the real ethtool and iproute2 dcb.
. "$SRC_DIR/tests/lib/testlib.sh"
. "$SRC_DIR/tests/lib/niclib.sh"

write_host_policy "$TMP/policy.yaml"
P="$TMP/policy.yaml"

# The witnesses, straight from the simulated host's sysfs.
# rdma_dev HOST IF: the RDMA device the netdev's PCI function carries
rdma_dev() {
	ls "$TMP/$1/sys/class/net/$2/device/infiniband"
}
# ipv4_gid_index HOST DEV: the slot holding an IPv4-mapped GID of type RoCE v2
ipv4_gid_index() {
	port="$TMP/$1/sys/class/infiniband/$2/ports/1"
	for g in "$port"/gids/*; do
		i=${g##*/}
		case "$(cat "$g")" in 0000:0000:0000:0000:0000:ffff:*) ;; *) continue ;; esac
		[ "$(cat "$port/gid_attrs/types/$i" 2>/dev/null)" = "RoCE v2" ] && echo "$i"
	done
	return 0
}
# hw_counter HOST DEV NAME
hw_counter() {
	cat "$TMP/$1/sys/class/infiniband/$2/ports/1/hw_counters/$3"
}
# ethtool_stat HOST IF NAME: the real ethtool -S through the simulated NIC
ethtool_stat() {
	on "$1" ethtool -S "$2" | sed -n "s/^ *$3: //p"
}
# counter_tuples FILE: "name value source is_drop" of every counter in rocectl's JSON
counter_tuples() {
	grep -o '"name":"[^"]*","value":[0-9]*,"source":"[^"]*","is_drop":[a-z]*' "$1" | sort
}

"$NICSIM" init "$TMP/a" --nic eth0,rdma=mlx5_0 --nic eth1,rdma=mlx5_1 >/dev/null

# ---- nccl-env -----------------------------------------------------------------------------

test_expect_success 'nccl-env: the HCAs behind the interfaces, their GID index, the ToS' '
	on a "$ROCECTL" nccl-env -p "$P" >"$TMP/out" 2>"$TMP/err" &&
	test ! -s "$TMP/err" &&
	d0=$(rdma_dev a eth0) && d1=$(rdma_dev a eth1) &&
	g0=$(ipv4_gid_index a "$d0") && g1=$(ipv4_gid_index a "$d1") &&
	test "$g0" = 3 && test "$g1" = 3 &&
	printf "export NCCL_IB_HCA==%s:1,%s:1\nexport NCCL_IB_GID_INDEX=%s\nexport NCCL_IB_TC=%s\n" \
		"$d0" "$d1" "$g0" $((26 << 2 | 2)) >"$TMP/want" &&
	diff "$TMP/want" "$TMP/out"
'

test_expect_success 'nccl-env: the env form evaluates in sh to the same values' '
	on a "$ROCECTL" nccl-env -p "$P" >"$TMP/out" &&
	(
		eval "$(cat "$TMP/out")" &&
		test "$NCCL_IB_HCA" = "=mlx5_0:1,mlx5_1:1" &&
		test "$NCCL_IB_GID_INDEX" = 3 &&
		test "$NCCL_IB_TC" = 106
	)
'

test_expect_success 'nccl-env --format nccl.conf keeps the interface order given' '
	on a "$ROCECTL" nccl-env -p "$P" --format nccl.conf --interface eth1 --interface eth0 \
		>"$TMP/out" &&
	printf "NCCL_IB_HCA==%s:1,%s:1\nNCCL_IB_GID_INDEX=3\nNCCL_IB_TC=106\n" \
		"$(rdma_dev a eth1)" "$(rdma_dev a eth0)" >"$TMP/want" &&
	diff "$TMP/want" "$TMP/out" &&
	on a "$ROCECTL" nccl-env -p "$P" --format nccl.conf --interface eth1 >"$TMP/out" &&
	test_must_contain "$TMP/out" "^NCCL_IB_HCA==mlx5_1:1$"
'

test_expect_success 'nccl-env: an explicit host.roce_tos is the TC' '
	sed "s/roce_tos: auto/roce_tos: 104/" "$P" >"$TMP/p104.yaml" &&
	on a "$ROCECTL" nccl-env -p "$TMP/p104.yaml" >"$TMP/out" &&
	test_must_contain "$TMP/out" "^export NCCL_IB_TC=104$"
'

test_expect_success 'nccl-env: devices whose GID index differs get a warning and no index' '
	"$NICSIM" init "$TMP/g" --nic eth0,rdma=mlx5_0 --nic eth1,rdma=mlx5_1 >/dev/null &&
	# mlx5_1 gets the rxe layout: the IPv4 RoCE v2 GID in slot 1, slot 3 empty
	port="$TMP/g/sys/class/infiniband/mlx5_1/ports/1" &&
	cp "$port/gids/3" "$port/gids/1" &&
	echo 0000:0000:0000:0000:0000:0000:0000:0000 >"$port/gids/3" &&
	test "$(ipv4_gid_index g mlx5_1)" = 1 && test "$(ipv4_gid_index g mlx5_0)" = 3 &&
	on g "$ROCECTL" nccl-env -p "$P" >"$TMP/out" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "warning: the IPv4 RoCE v2 GID index differs between devices \(mlx5_0:1 3, mlx5_1:1 1\)" &&
	test_must_not_contain "$TMP/out" "NCCL_IB_GID_INDEX" &&
	test_must_contain "$TMP/out" "^export NCCL_IB_HCA==mlx5_0:1,mlx5_1:1$" &&
	test_must_contain "$TMP/out" "^export NCCL_IB_TC=106$" &&
	on g "$ROCECTL" nccl-env -p "$P" --interface eth1 >"$TMP/out" 2>"$TMP/err" &&
	test ! -s "$TMP/err" &&
	test_must_contain "$TMP/out" "^export NCCL_IB_GID_INDEX=1$"
'

test_expect_success 'nccl-env: a port without an IPv4 RoCE v2 GID is named, no index' '
	echo 0000:0000:0000:0000:0000:0000:0000:0000 >"$TMP/g/sys/class/infiniband/mlx5_1/ports/1/gids/1" &&
	test -z "$(ipv4_gid_index g mlx5_1)" &&
	on g "$ROCECTL" nccl-env -p "$P" >"$TMP/out" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "warning: '\''mlx5_1'\'' port 1 \(eth1\) has no IPv4 RoCE v2 GID" &&
	test_must_not_contain "$TMP/out" "NCCL_IB_GID_INDEX"
'

test_expect_success 'nccl-env: an interface without an RDMA device is an error' '
	"$NICSIM" init "$TMP/n" --nic eth0,rdma=mlx5_0 --nic eth9,rdma=none >/dev/null &&
	test_expect_code 1 on n "$ROCECTL" nccl-env -p "$P" --interface eth0 --interface eth9 \
		>"$TMP/out" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "'\''eth9'\'': no RDMA device behind the interface" &&
	test ! -s "$TMP/out" &&
	test_expect_code 1 on n "$ROCECTL" nccl-env -p "$TMP/nothere.yaml" >/dev/null 2>&1 &&
	test_expect_code 64 on n "$ROCECTL" nccl-env -p "$P" --format yaml >/dev/null 2>&1
'

# ---- counters -----------------------------------------------------------------------------

test_expect_success 'counters: this host, named by meaning, values as ethtool and sysfs say' '
	"$NICSIM" counter "$TMP/a" eth0 np_cnp_sent 34 &&
	"$NICSIM" counter "$TMP/a" eth1 out_of_sequence 0 &&
	on a "$ROCECTL" counters --json >"$TMP/out" &&
	test "$(wc -l <"$TMP/out")" -eq 1 &&
	test_must_contain "$TMP/out" "^\{\"schema_version\":1,\"rocectl_version\":\"[^\"]+\",\"timestamp\":\"[^\"]+\",\"schema\":\"rocectl.counters/v1\",\"command\":\"counters\",\"inventory\":null,\"policy\":null,\"mode\":\"total\",\"devices\":\[\{\"device\":\"[^\"]+\",\"kind\":\"host\",\"driver\":\"mlx5\",\"status\":\"ok\"" &&
	test_must_contain "$TMP/out" "\{\"port\":\"eth0\",\"name\":\"cnp_sent\",\"value\":$(hw_counter a mlx5_0 np_cnp_sent),\"source\":\"hw_counters:mlx5_0/1/np_cnp_sent\",\"is_drop\":false\}" &&
	test_must_contain "$TMP/out" "\{\"port\":\"eth1\",\"name\":\"rx_port_buffer_discards\",\"value\":$(ethtool_stat a eth1 rx_discards_phy),\"source\":\"ethtool:rx_discards_phy\",\"is_drop\":true\}" &&
	test_must_contain "$TMP/out" "\"drops\":0,\"status\":\"ok\",\"exit_code\":0\}$"
'

test_expect_success 'counters: the same data as agent counters' '
	on a "$ROCECTL" counters --json >"$TMP/c" &&
	on a "$ROCECTL" agent counters --json >"$TMP/ac" &&
	counter_tuples "$TMP/c" >"$TMP/c.t" &&
	counter_tuples "$TMP/ac" >"$TMP/ac.t" &&
	test "$(wc -l <"$TMP/c.t")" -gt 50 &&
	diff "$TMP/ac.t" "$TMP/c.t"
'

test_expect_success 'counters: a non-zero drop counter is flagged and exits 2' '
	"$NICSIM" counter "$TMP/a" eth1 rx_discards_phy 5 &&
	test "$(ethtool_stat a eth1 rx_discards_phy)" = 5 &&
	test_expect_code 2 on a "$ROCECTL" counters >"$TMP/out" &&
	test_must_contain "$TMP/out" "^  eth1:$" &&
	test_must_contain "$TMP/out" "^    rx_port_buffer_discards +5  ethtool:rx_discards_phy   DROPS$" &&
	test_must_contain "$TMP/out" "^1 device: 1 with drops, 0 failed, 0 without counters$" &&
	test_expect_code 2 on a "$ROCECTL" counters --json >"$TMP/out" &&
	test_must_contain "$TMP/out" "\"status\":\"drops\",\"counters\"" &&
	test_must_contain "$TMP/out" "\"drops\":1,\"status\":\"drops\",\"exit_code\":2\}$" &&
	on a "$ROCECTL" counters --interface eth0 >/dev/null
'

test_expect_success 'counters -p: pauses on a priority the policy keeps lossy are marked' '
	"$NICSIM" init "$TMP/u" --nic eth0,rdma=mlx5_0 >/dev/null &&
	# iproute2 6.1 may report a "Protocol error" for a set that worked (nicsim
	# README): judge by what the NIC shows
	{ on u dcb pfc set dev eth0 prio-pfc 3:on 5:on 2>/dev/null || :; } &&
	on u dcb -j pfc show dev eth0 >"$TMP/pfc" &&
	test_must_contain "$TMP/pfc" "\"prio_pfc\":\[false,false,false,true,false,true,false,false\]" &&
	"$NICSIM" counter "$TMP/u" eth0 rx_prio5_pause 7 &&
	"$NICSIM" counter "$TMP/u" eth0 rx_prio3_pause 9 &&
	test "$(ethtool_stat u eth0 rx_prio5_pause)" = 7 &&
	on u "$ROCECTL" counters -p "$P" >"$TMP/out" &&
	test_must_contain "$TMP/out" "^    pfc_pause_rx\[5\] +7  ethtool:rx_prio5_pause   UNEXPECTED \(priority 5 is lossy in the policy\)$" &&
	test_must_contain "$TMP/out" "^    pfc_pause_rx\[3\] +9  ethtool:rx_prio3_pause$" &&
	on u "$ROCECTL" counters -p "$P" --json >"$TMP/out" &&
	test_must_contain "$TMP/out" "\"policy\":\"roce-lossless\"" &&
	test_must_contain "$TMP/out" "\"name\":\"pfc_pause_rx\[5\]\",\"value\":7,\"source\":\"ethtool:rx_prio5_pause\",\"is_drop\":false,\"unexpected\":true\}" &&
	test_must_contain "$TMP/out" "\"name\":\"pfc_pause_rx\[3\]\",\"value\":9,\"source\":\"ethtool:rx_prio3_pause\",\"is_drop\":false,\"unexpected\":false\}"
'

cat >"$TMP/inventory.yaml" <<'EOI'
apiVersion: rocectl/v1
kind: Inventory
hosts:
  - {name: gpu001, transport: local, interfaces: [eth0]}
  - {name: gpu002, transport: local, interfaces: [eth1]}
EOI

test_expect_success 'counters -i: every selected device through its driver' '
	test_expect_code 2 on a "$ROCECTL" counters -i "$TMP/inventory.yaml" --json >"$TMP/out" &&
	test_must_contain "$TMP/out" "\"inventory\":\"[^\"]*inventory.yaml\"" &&
	test_must_contain "$TMP/out" "\{\"device\":\"gpu001\",\"kind\":\"host\",\"driver\":\"mlx5\",\"status\":\"ok\",\"counters\":\[\{\"port\":\"eth0\"" &&
	test_must_contain "$TMP/out" "\{\"device\":\"gpu002\",\"kind\":\"host\",\"driver\":\"mlx5\",\"status\":\"drops\",\"counters\":\[\{\"port\":\"eth1\"" &&
	test_must_contain "$TMP/out" "\"port\":\"eth1\",\"name\":\"rx_port_buffer_discards\",\"value\":5," &&
	grep -o "\"device\":\"[^\"]*\"\|\"port\":\"[^\"]*\"" "$TMP/out" | uniq >"$TMP/order" &&
	printf "\"device\":\"gpu001\"\n\"port\":\"eth0\"\n\"device\":\"gpu002\"\n\"port\":\"eth1\"\n" \
		>"$TMP/want" &&
	diff "$TMP/want" "$TMP/order" &&
	on a "$ROCECTL" counters -i "$TMP/inventory.yaml" --limit gpu001 >"$TMP/out" &&
	test_must_contain "$TMP/out" "^gpu001 \(host, mlx5\):$" &&
	test_must_not_contain "$TMP/out" "gpu002" &&
	test_must_contain "$TMP/out" "^1 device: 0 with drops, 0 failed, 0 without counters$"
'

test_expect_success 'counters: errors name the device and exit 1, a --limit typo 64' '
	test_expect_code 64 on a "$ROCECTL" counters -i "$TMP/inventory.yaml" --limit gpu009 \
		>/dev/null 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "'\''gpu009'\'' is neither a device nor a role" &&
	test_expect_code 1 on a "$ROCECTL" counters --interface eth7 >"$TMP/out" 2>"$TMP/err" &&
	test_must_contain "$TMP/out" "^[^ ]+ \(host, mlx5\): error: " &&
	test_must_contain "$TMP/err" "eth7" &&
	test_expect_code 64 "$ROCECTL" counters --limit gpu001 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "--limit selects from an inventory"
'

# ---- the apply pre-flight ------------------------------------------------------------------

test_expect_success 'apply refuses an interface lacking a needed section before any write' '
	"$NICSIM" init "$TMP/p" --nic eth0,rdma=mlx5_0,nodcb --nic eth2,rdma=none >/dev/null &&
	cp "$TMP/p/nics/eth0.state" "$TMP/p0.before" &&
	: >"$TMP/p/writes.log" &&
	test_expect_code 1 on p "$ROCECTL" agent apply -p "$P" --journal "$TMP/j" \
		--interface eth0 --interface eth2 >"$TMP/out" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "'\''eth0'\'': no DCB support \(the driver has no dcbnl ops: Operation not supported\): section '\''dcb'\'' cannot be managed here; nothing was written to '\''eth0'\''" &&
	test_must_contain "$TMP/err" "'\''eth2'\'': no RDMA device behind the interface: section '\''rdma'\'' cannot be managed here" &&
	test -z "$(grep -Ev "^(mkdir|rmdir) " "$TMP/p/writes.log")" &&
	cmp "$TMP/p0.before" "$TMP/p/nics/eth0.state" &&
	test -z "$(find "$TMP/j" -name "*.json" 2>/dev/null)" &&
	! on p dcb pfc show dev eth0 >"$TMP/dcb" 2>&1 &&
	test_must_contain "$TMP/dcb" "Operation not supported" &&
	test_expect_code 1 on p "$ROCECTL" agent apply -p "$P" --journal "$TMP/j" --json \
		--interface eth0 >"$TMP/out" 2>/dev/null &&
	test_must_contain "$TMP/out" "\"status\":\"error\",\"error\":\"[^\"]*section [^\"]*\",\"restored\":false,\"unsupported_sections\":\[\"dcb\"\],\"changes\":\[\]\}"
'

test_expect_success 'apply --only rdma manages the rdma_cm ToS of a NIC without DCB' '
	on p "$ROCECTL" agent apply -p "$P" --journal "$TMP/j" --only rdma --interface eth0 \
		>"$TMP/out" &&
	test_must_contain "$TMP/out" "^eth0: applied 1 change$" &&
	on p sh -c "cfs=\$NICSIM_DIR/sys/kernel/config/rdma_cm/mlx5_0 && mkdir \$cfs &&
		cat \$cfs/ports/1/default_roce_tos && rmdir \$cfs" >"$TMP/tos" &&
	test "$(cat "$TMP/tos")" = 106 &&
	test_expect_code 1 on p "$ROCECTL" agent apply -p "$P" --journal "$TMP/j" --only rdma \
		--interface eth2 >/dev/null 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "'\''eth2'\'': no RDMA device behind the interface: section '\''rdma'\''"
'

test_done
