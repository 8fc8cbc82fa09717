#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The simulated NIC, witnessed by the real iproute2 dcb and ethtool tools: factory state,
# round trips, mlx5 rules, faults, pass-through, the write log, canonical state files.
. "$SRC_DIR/tests/lib/testlib.sh"

PATH=$PATH:/usr/sbin:/sbin
cd "$TMP" || exit 1 # scratch files (out, err) stay out of the source tree
export BUILD_DIR
NICSIM=$SRC_DIR/tests/sim/nic/nicsim
PROBE=$BUILD_DIR/sim/nic/nlprobe

# on HOST CMD...: run CMD against the simulated host $TMP/HOST
on() {
	h=$1
	shift
	"$NICSIM" run "$TMP/$h" -- "$@"
}

# dcb's read-modify-write sets (pfc/buffer set) send a GET and a SET with the same sequence
# number (seconds) and stop reading at the GET's reply, so the GET's unread ACK answers the SET:
# iproute2 6.1 cannot report their errors and fails with EPROTO when the second changes between
# the two requests (a kernel gives the same).  They are judged by what they change.
rmw() {
	h=$1
	shift
	on "$h" dcb "$@" 2>"$TMP/rmw.err" || grep -q "Protocol error" "$TMP/rmw.err"
}

probe() {
	h=$1
	shift
	on "$h" "$PROBE" "$@"
}

# state HOST IF KEY: the value of KEY in the NIC's canonical state file
state() {
	sed -n "s/^$3 //p" "$TMP/$1/nics/$2.state"
}

sysfs() {
	cat "$TMP/$1/sys/$2"
}

test_expect_success 'init creates a factory-state mlx5 host with its sysfs tree' '
	"$NICSIM" init "$TMP/f" --nic eth0,rdma=mlx5_0,speed=400G --nic eth1,rdma=mlx5_1,nodcb &&
	test "$(sysfs f class/net/eth0/speed)" = 400000 &&
	test "$(sysfs f class/net/eth0/address)" = 02:5a:00:00:00:01 &&
	test "$(sysfs f class/net/eth0/carrier_changes)" = 0 &&
	test "$(ls "$TMP/f/sys/class/infiniband/mlx5_0/device/net")" = eth0 &&
	test "$(sysfs f class/infiniband/mlx5_0/ports/1/gids/3)" = \
		0000:0000:0000:0000:0000:ffff:c000:0201 &&
	test "$(sysfs f class/infiniband/mlx5_0/ports/1/gid_attrs/types/3)" = "RoCE v2" &&
	test "$(sysfs f class/infiniband/mlx5_0/ports/1/gid_attrs/types/2)" = "IB/RoCE v1" &&
	test "$(sysfs f class/infiniband/mlx5_0/ports/1/gid_attrs/ndevs/3)" = eth0 &&
	test "$(sysfs f class/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent)" = 0 &&
	test -d "$TMP/f/sys/kernel/config/rdma_cm" &&
	test ! -e "$TMP/f/sys/class/net/eth0/ecn" &&
	test "$(state f eth0 trust)" = pcp &&
	test "$(state f eth0 app-dscp)" = - &&
	test "$(state f eth0 pfc-en)" = 0x00 &&
	test "$(state f eth0 cable-len)" = 7 &&
	test "$(state f eth0 dcbx)" = 0x0c &&
	test ! -s "$TMP/f/writes.log"
'

test_expect_success 'dcb shows the factory state; reads are not logged' '
	on f dcb -j pfc show dev eth0 >out &&
	test "$(cat out)" = "{\"pfc_cap\":8,\"macsec_bypass\":false,\"delay\":7,\"prio_pfc\":[false,false,false,false,false,false,false,false]}" &&
	on f dcb -j app show dev eth0 >out && test "$(cat out)" = "{}" &&
	on f dcb -j buffer show dev eth0 >out &&
	test "$(cat out)" = "{\"prio_buffer\":[0,0,0,0,0,0,0,0],\"buffer_size\":[262144,0,0,0,0,0,0,0],\"total_size\":1048576}" &&
	on f dcb -j dcbx show dev eth0 >out && test "$(cat out)" = "{\"cee\":true,\"ieee\":true}" &&
	on f dcb ets show dev eth0 >out &&
	test_must_contain out "^prio-tc 0:1 1:0 2:2 3:3 4:4 5:5 6:6 7:7 $" &&
	test_must_contain out "^tc-tsa 0:vendor 1:vendor" &&
	test ! -s "$TMP/f/writes.log"
'

test_expect_success 'PFC round trip; a pfc_en change flaps the link, an unchanged one does not' '
	rmw f pfc set dev eth0 prio-pfc 3:on &&
	on f dcb -j pfc show dev eth0 >out &&
	grep -q "\"prio_pfc\":\[false,false,false,true,false,false,false,false\]" out &&
	test "$(state f eth0 pfc-en)" = 0x08 &&
	test "$(sysfs f class/net/eth0/carrier_changes)" = 2 &&
	rmw f pfc set dev eth0 prio-pfc 3:on &&
	test "$(sysfs f class/net/eth0/carrier_changes)" = 2 &&
	test_must_contain "$TMP/f/nics/eth0.counters" "^link_flaps 1$"
'

test_expect_success 'PFC delay is the cable length; 0 and 1000 are ignored' '
	rmw f pfc set dev eth0 delay 30 &&
	on f dcb -j pfc show dev eth0 | grep -q "\"delay\":30" &&
	rmw f pfc set dev eth0 delay 1000 &&
	rmw f pfc set dev eth0 delay 0 &&
	on f dcb -j pfc show dev eth0 | grep -q "\"delay\":30" &&
	test "$(state f eth0 cable-len)" = 30
'

test_expect_success 'a DSCP entry trusts DSCP, re-adding replaces, the last delete trusts PCP' '
	on f dcb app add dev eth0 dscp-prio 26:3 &&
	test "$(on f dcb -j app show dev eth0)" = "{\"dscp_prio\":[[26,3]]}" &&
	test "$(state f eth0 trust)" = dscp &&
	on f dcb app add dev eth0 dscp-prio 26:5 &&
	test "$(on f dcb -j app show dev eth0)" = "{\"dscp_prio\":[[26,5]]}" &&
	test_expect_code 1 on f dcb app del dev eth0 dscp-prio 26:3 2>err &&
	test_must_contain err "No such file or directory" &&
	on f dcb app del dev eth0 dscp-prio 26:5 &&
	test "$(on f dcb -j app show dev eth0)" = "{}" &&
	test "$(state f eth0 trust)" = pcp &&
	test "$(state f eth0 fw-dscp2prio | cut -d" " -f27)" = 0 &&
	test "$(state f eth0 fw-dscp2prio | cut -d" " -f25)" = 3
'

test_expect_success 'mlx5 accepts DSCP app entries only' '
	test_expect_code 1 on f dcb app add dev eth0 ethtype-prio 0x8906:3 2>err &&
	test_must_contain err "Invalid argument" &&
	probe f eth0 app-add 5:64:3 >out && test_must_contain out "status=-22" &&
	test "$(on f dcb -j app show dev eth0)" = "{}"
'

test_expect_success 'ETS bandwidth on a strict TC: refused by a 2024 mlx5, taken by an older one' '
	"$NICSIM" init "$TMP/etsv" --nic eth0 --nic eth1,mlx5=pre-2024 &&
	grep -q "^mlx5-driver 2024$" "$TMP/etsv/nics/eth0.hw" &&
	grep -q "^mlx5-driver pre-2024$" "$TMP/etsv/nics/eth1.hw" &&
	probe etsv eth0 set-ets 0,0,0,1,0,0,0,0 2,2,0,0,0,0,0,0 50,50,0,0,0,0,0,0 >out &&
	test_must_contain out "status=0" &&
	probe etsv eth0 set-ets 0,0,0,1,0,0,0,0 2,0,0,0,0,0,0,0 100,10,0,0,0,0,0,0 >out &&
	test_must_contain out "status=-22" &&
	probe etsv eth0 set-ets 0,0,0,1,0,0,0,0 2,1,0,0,0,0,0,0 100,0,0,0,0,0,0,0 >out &&
	test_must_contain out "status=-95" &&
	test "$(state etsv eth0 ets-tsa)" = "ets ets strict strict strict strict strict strict" &&
	probe etsv eth1 set-ets 0,0,0,1,0,0,0,0 2,0,0,0,0,0,0,0 100,10,0,0,0,0,0,0 >out &&
	test_must_contain out "status=0" &&
	test "$(state etsv eth1 ets-tsa)" = "ets strict strict strict strict strict strict strict" &&
	test "$(state etsv eth1 ets-bw)" = "100 100 100 100 100 100 100 100"
'

test_expect_success 'ETS checks both drivers share: BW 0 on an ETS TC, a sum other than 100' '
	for i in eth0 eth1; do
		probe etsv $i set-ets 0,0,0,1,0,0,0,0 2,2,0,0,0,0,0,0 100,0,0,0,0,0,0,0 >out &&
		test_must_contain out "status=-22" &&
		probe etsv $i set-ets 0,0,0,1,0,0,0,0 2,2,0,0,0,0,0,0 50,40,0,0,0,0,0,0 >out &&
		test_must_contain out "status=-22" || return 1
	done
'

test_expect_success 'buffer sizes are rounded down to 128-byte cells' '
	"$NICSIM" init "$TMP/b" --nic eth0,speed=400G &&
	rmw b buffer set dev eth0 buffer-size 0:100000 1:200001 &&
	on b dcb -j buffer show dev eth0 >out &&
	grep -q "\"buffer_size\":\[99968,199936,0,0,0,0,0,0\]" out &&
	test "$(state b eth0 buffer-owner)" = host
'

test_expect_success 'buffer checks: lossless minimum (ENOMEM), port total and prio2buffer (EINVAL)' '
	# the driver programs PFC first, then finds buffer 0 (now lossless) too small
	probe b eth0 set-pfc 0x08 7 >out && test_must_contain out "status=-12" &&
	test "$(state b eth0 pfc-en)" = 0x08 &&
	probe b eth0 buffer 0,0,0,0,0,0,0,0 130000,0,0,0,0,0,0,0 >out &&
	test_must_contain out "status=-12" &&
	test "$(state b eth0 buffer-size)" = "99968 199936 0 0 0 0 0 0" &&
	probe b eth0 buffer 0,0,0,0,0,0,0,0 150000,0,0,0,0,0,0,0 >out &&
	test_must_contain out "status=0" &&
	test "$(state b eth0 buffer-size)" = "149888 0 0 0 0 0 0 0" &&
	probe b eth0 buffer 0,0,0,0,0,0,0,0 600000,600000,0,0,0,0,0,0 >out &&
	test_must_contain out "status=-22" &&
	# the shared pool must keep 4 cells: 1 MiB - 3 cells is refused, - 4 cells accepted
	probe b eth0 buffer 0,0,0,0,0,0,0,0 150000,898192,0,0,0,0,0,0 >out &&
	test_must_contain out "status=-22" &&
	probe b eth0 buffer 0,0,0,0,0,0,0,0 150016,898048,0,0,0,0,0,0 >out &&
	test_must_contain out "status=0" &&
	probe b eth0 buffer 0,0,0,0,0,0,0,0 150000,0,0,0,0,0,0,0 >out &&
	test_must_contain out "status=0" &&
	probe b eth0 buffer 0,0,0,8,0,0,0,0 150000,0,0,0,0,0,0,0 >out &&
	test_must_contain out "status=-22" &&
	test_must_contain "$TMP/b/writes.log" "IEEE_SET buffer -> status -ENOMEM"
'

test_expect_success 'DCBX: host mode is stored as given, 0 returns to firmware, LLD refused' '
	on f dcb dcbx set dev eth0 host ieee &&
	test "$(on f dcb -j dcbx show dev eth0)" = "{\"host\":true,\"ieee\":true}" &&
	test "$(state f eth0 dcbx)" = 0x09 &&
	probe f eth0 sdcbx 0x02 >out && test_must_contain out "dcbx=0x01" &&
	probe f eth0 gcap >out && test_must_contain out "9:0x0d" &&
	probe f eth0 sdcbx 0 >out && test_must_contain out "dcbx=0x00" &&
	test "$(state f eth0 dcbx)" = 0x08
'

test_expect_success 'netlink framing: reply type, copied flags, ids, emission order, capped ACK' '
	probe f eth0 get >out &&
	test_must_contain out "^reply type=78 cmd=21 flags=0x5 ids=ok ifname=eth0 " &&
	test_must_contain out "order=ETS,MAXRATE,PFC,BUFFER,APP_TABLE,REWR_TABLE\+ dcbx=0x08$" &&
	test_must_contain out "^ack len=36 flags=0x100 ids=ok$" &&
	probe f -n eth0 gdcbx >out && test "$(wc -l <out)" = 1 &&
	test_must_contain out "^reply type=78 cmd=22 flags=0x1 ids=ok dcbx=0x08$" &&
	probe f -f eth0 set-pfc 0x08 30 >out &&
	test_must_contain out "^reply type=79 cmd=20 flags=0x5 ids=ok status=0$" &&
	probe f eth0 gstate >out && test_must_contain out "state=1" &&
	probe f eth0 perm >out && test_must_contain out "perm=02:5a:00:00:00:01 len=32"
'

test_expect_success 'length checks: short structs are NLMSG errors, a short app entry a status' '
	test_expect_code 1 probe f eth0 short-pfc >out && test_must_contain out "^error -34 " &&
	test_expect_code 1 probe f eth0 short-ets >out && test_must_contain out "^error -34 " &&
	test_expect_code 1 probe f eth0 short-buffer >out &&
	test_must_contain out "^error -34 " &&
	probe f eth0 short-app >out && test_must_contain out "status=-34" &&
	test_expect_code 1 probe f eth0 no-ieee >out && test_must_contain out "^error -22 " &&
	probe f eth0 apptrust >out && test_must_contain out "status=-95"
'

test_expect_success 'a NIC without DCB answers EOPNOTSUPP and the others keep working' '
	test_expect_code 1 on f dcb pfc show dev eth1 2>err &&
	test_must_contain err "Operation not supported" &&
	on f dcb pfc show dev eth0 >/dev/null &&
	"$NICSIM" fault "$TMP/f" nodcb eth0 &&
	test_expect_code 1 on f dcb pfc show dev eth0 2>err &&
	test_must_contain err "Operation not supported" &&
	"$NICSIM" fault "$TMP/f" clear &&
	on f dcb pfc show dev eth0 >/dev/null
'

test_expect_success 'fail-set: the Nth SET fails with its errno, the others go through' '
	"$NICSIM" init "$TMP/s" --nic eth0 &&
	"$NICSIM" fault "$TMP/s" fail-set 2 &&
	on s dcb app add dev eth0 dscp-prio 10:1 &&
	test_expect_code 1 on s dcb app add dev eth0 dscp-prio 20:2 2>err &&
	test_must_contain err "Input/output error" &&
	on s dcb app add dev eth0 dscp-prio 30:3 &&
	test "$(state s eth0 app-dscp)" = "10:1 30:3" &&
	"$NICSIM" fault "$TMP/s" fail-set 1 --nic eth0 --errno EBUSY &&
	test_expect_code 1 on s dcb app del dev eth0 dscp-prio 10:1 2>err &&
	test_must_contain err "Device or resource busy" &&
	test "$(state s eth0 app-dscp)" = "10:1 30:3" &&
	test_must_contain "$TMP/s/writes.log" "fault-injected"
'

test_expect_success 'requests for real interfaces and other messages reach the kernel' '
	test_expect_code 1 on f dcb pfc show dev lo 2>err &&
	test_must_contain err "Operation not supported" &&
	test_expect_code 1 on f dcb pfc show dev nicsim-none 2>err &&
	test_must_contain err "No such device" &&
	on f ip -o link show lo >out && test_must_contain out "^1: lo:"
'

test_expect_success 'writes.log has one line per write and none for reads' '
	"$NICSIM" init "$TMP/w" --nic eth0 &&
	on w dcb pfc show dev eth0 >/dev/null &&
	on w dcb app show dev eth0 >/dev/null &&
	on w cat "$TMP/w/sys/class/net/eth0/mtu" >/dev/null &&
	probe w eth0 get >/dev/null &&
	test ! -s "$TMP/w/writes.log" &&
	on w dcb app add dev eth0 dscp-prio 26:3 &&
	on w sh -c "echo 9000 >\"\$NICSIM_DIR/sys/class/net/eth0/mtu\"" &&
	test "$(wc -l <"$TMP/w/writes.log")" = 2 &&
	test_must_contain "$TMP/w/writes.log" "^setdcb eth0 IEEE_SET app\+dscp:26:3 -> status 0$" &&
	test_must_contain "$TMP/w/writes.log" "^write sys/class/net/eth0/mtu \"9000\" -> 0$" &&
	test "$(state w eth0 mtu)" = 9000
'

test_expect_success 'the same configuration reached in different orders gives identical state' '
	for h in x y z; do "$NICSIM" init "$TMP/$h" --nic eth0,speed=200G || return 1; done &&
	on x dcb app add dev eth0 dscp-prio 26:3 48:6 &&
	rmw x pfc set dev eth0 prio-pfc 3:on &&
	on x dcb dcbx set dev eth0 host ieee &&
	on y dcb dcbx set dev eth0 host ieee &&
	rmw y pfc set dev eth0 prio-pfc 3:on 5:on &&
	rmw y pfc set dev eth0 prio-pfc 5:off &&
	on y dcb app add dev eth0 dscp-prio 48:3 &&
	on y dcb app add dev eth0 dscp-prio 48:6 26:5 &&
	on y dcb app add dev eth0 dscp-prio 26:3 &&
	cmp "$TMP/x/nics/eth0.state" "$TMP/y/nics/eth0.state" &&
	on z dcb app add dev eth0 dscp-prio 26:4 48:6 &&
	rmw z pfc set dev eth0 prio-pfc 3:on &&
	on z dcb dcbx set dev eth0 host ieee &&
	! cmp -s "$TMP/x/nics/eth0.state" "$TMP/z/nics/eth0.state"
'

test_expect_success 'concurrent writers do not lose updates' '
	"$NICSIM" init "$TMP/c" --nic eth0 &&
	for d in 40 41 42 43 44 45 46 47; do on c dcb app add dev eth0 dscp-prio $d:5 & done &&
	wait &&
	test "$(state c eth0 app-dscp)" = "40:5 41:5 42:5 43:5 44:5 45:5 46:5 47:5"
'

if command -v ethtool >/dev/null; then
	test_expect_success 'ethtool -S: pause counters only for PFC priorities; counters can grow' '
		"$NICSIM" init "$TMP/e" --nic eth0,rdma=mlx5_0 &&
		on e ethtool -S eth0 >out &&
		test_must_contain out "^     rx_discards_phy: 0$" &&
		test_must_not_contain out "rx_prio3_pause" &&
		"$NICSIM" counter "$TMP/e" eth0 rx_discards_phy 42 &&
		on e ethtool -S eth0 >out && test_must_contain out "^     rx_discards_phy: 42$" &&
		rmw e pfc set dev eth0 prio-pfc 3:on &&
		"$NICSIM" counter "$TMP/e" eth0 tx_prio3_pause 7 &&
		on e ethtool -S eth0 >out &&
		test_must_contain out "^     tx_prio3_pause: 7$" &&
		test_must_contain out "^     rx_prio3_pause_duration: 0$" &&
		test_must_not_contain out "rx_prio4_pause" &&
		probe e eth0 get >out && test_must_contain out " tx3=7 " &&
		on e ethtool -i eth0 >out && test_must_contain out "^driver: mlx5_core$" &&
		"$NICSIM" fault "$TMP/e" counters-grow --step 5 rx_prio3_pause np_cnp_sent &&
		on e ethtool -S eth0 | grep -q "^     rx_prio3_pause: 5$" &&
		on e ethtool -S eth0 | grep -q "^     rx_prio3_pause: 10$" &&
		on e ethtool -S eth0 | grep -q "^     rx_discards_phy: 42$" &&
		hw=$TMP/e/sys/class/infiniband/mlx5_0/ports/1/hw_counters &&
		test "$(on e cat "$hw/np_cnp_sent")" = 5 &&
		test "$(on e cat "$hw/np_cnp_sent")" = 10 &&
		test "$(on e cat "$hw/out_of_buffer")" = 0
	'
else
	echo "# ethtool is not installed: skipping the ethtool -S test"
fi

test_expect_success 'configfs: mkdir makes the port attributes, values survive rmdir, writes validated' '
	"$NICSIM" init "$TMP/r" --nic eth0,rdma=mlx5_0 &&
	cfs=$TMP/r/sys/kernel/config/rdma_cm &&
	on r mkdir "$cfs/mlx5_0" &&
	test "$(cat "$cfs/mlx5_0/ports/1/default_roce_tos")" = 0 &&
	test "$(cat "$cfs/mlx5_0/ports/1/default_roce_mode")" = "RoCE v2" &&
	on r sh -c "echo 106 >\"$cfs/mlx5_0/ports/1/default_roce_tos\"" &&
	test_expect_code 1 on r sh -c "echo 300 >\"$cfs/mlx5_0/ports/1/default_roce_tos\"" &&
	test_expect_code 1 on r sh -c "echo RoCE v1 >\"$cfs/mlx5_0/ports/1/default_roce_mode\"" &&
	on r rmdir "$cfs/mlx5_0" && test ! -e "$cfs/mlx5_0" &&
	test_expect_code 1 on r mkdir "$cfs/mlx5_7" 2>err && test_must_contain err "No such device" &&
	on r mkdir "$cfs/mlx5_0" &&
	test "$(cat "$cfs/mlx5_0/ports/1/default_roce_tos")" = 106 &&
	test "$(state r eth0 rdma-cm-tos)" = 106 &&
	test_must_contain "$TMP/r/writes.log" "default_roce_tos \"300\" -> -ERANGE"
'

test_expect_success 'OFED: re-enabling an enabled ECN priority is EPERM; qos/trust dscp lists the map' '
	"$NICSIM" init "$TMP/o" --ofed --nic eth0 &&
	net=$TMP/o/sys/class/net/eth0 &&
	test "$(cat "$net/ecn/roce_np/enable/3")" = 0 &&
	on o sh -c "echo 1 >\"$net/ecn/roce_np/enable/3\"" &&
	test "$(cat "$net/ecn/roce_np/enable/3")" = 1 &&
	test_expect_code 1 on o sh -c "echo 1 >\"$net/ecn/roce_np/enable/3\"" &&
	test_must_contain "$TMP/o/writes.log" "enable/3 \"1\" -> -EPERM" &&
	on o sh -c "echo 0 >\"$net/ecn/roce_np/enable/3\"" &&
	on o sh -c "echo 26 >\"$net/ecn/roce_np/cnp_dscp\"" &&
	test "$(state o eth0 cnp-dscp)" = 26 &&
	test "$(cat "$net/qos/trust")" = pcp &&
	on o sh -c "echo dscp >\"$net/qos/trust\"" &&
	test "$(cat "$net/qos/trust")" = dscp &&
	on o dcb -N app show dev eth0 >out &&
	test_must_contain out "^dscp-prio 0:0 1:0 .* 26:3 .* 63:7 $"
'

test_expect_success 'eperm fault refuses writing a tree file; read-only attributes give EACCES' '
	"$NICSIM" fault "$TMP/w" eperm sys/class/net/eth0/mtu &&
	test_expect_code 2 on w sh -c "echo 4200 >\"\$NICSIM_DIR/sys/class/net/eth0/mtu\"" 2>err &&
	test_must_contain err "Operation not permitted" &&
	test_expect_code 2 on w sh -c "echo 1 >\"\$NICSIM_DIR/sys/class/net/eth0/speed\"" 2>err &&
	test_must_contain err "Permission denied" &&
	"$NICSIM" fault "$TMP/w" clear &&
	on w sh -c "echo 4200 >\"\$NICSIM_DIR/sys/class/net/eth0/mtu\"" &&
	test "$(cat "$TMP/w/sys/class/net/eth0/mtu")" = 4200
'

test_expect_success 'debugfs cc_params as cong.c: %d reads, kstrtou32 writes, field widths' '
	"$NICSIM" init "$TMP/cc" --nic eth0,rdma=mlx5_0,debugfs --nic eth1,rdma=mlx5_1 &&
	d="$TMP/cc/sys/kernel/debug/mlx5/0000:10:00.0/cc_params" &&
	test "$(ls "$d" | wc -l)" = 20 &&
	test ! -e "$TMP/cc/sys/kernel/debug/mlx5/0000:11:00.0" &&
	test "$(cat "$d/np_cnp_dscp")" = 48 &&
	test "$(cat "$d/np_cnp_prio")" = 6 &&
	test "$(cat "$d/rp_gd")" = 11 &&
	on cc sh -c "echo 0x1a >$d/np_cnp_dscp && echo 1 >$d/np_cnp_prio_mode" &&
	test "$(state cc eth0 cnp-dscp)" = 26 &&
	test_must_contain "$TMP/cc/nics/eth0.state" " np_cnp_prio_mode=1$" &&
	on cc sh -c "echo 5 >$d/np_cnp_prio" &&
	test "$(cat "$d/np_cnp_prio_mode")" = 0 &&
	test "$(state cc eth0 cnp-802p-prio)" = 5 &&
	on cc sh -c "echo 65 >$d/np_cnp_dscp" &&
	test "$(cat "$d/np_cnp_dscp")" = 1 &&
	test_expect_code 1 on cc sh -c "echo 99999999999 >$d/rp_gd" 2>err &&
	test_expect_code 1 on cc sh -c "echo abc >$d/rp_gd" 2>err &&
	test "$(cat "$d/rp_gd")" = 11 &&
	test_must_contain "$TMP/cc/writes.log" "cc_params/rp_gd \"abc\" -> -EINVAL"
'

test_expect_success 'attributes of an empty GID slot fail with EINVAL' '
	test_expect_code 1 on f cat "$TMP/f/sys/class/infiniband/mlx5_0/ports/1/gid_attrs/types/4" 2>err &&
	test_must_contain err "Invalid argument" &&
	test "$(on f cat "$TMP/f/sys/class/infiniband/mlx5_0/ports/1/gids/4")" = \
		0000:0000:0000:0000:0000:0000:0000:0000
'

test_expect_success 'an ASan-instrumented client works under the library' '
	on f "$PROBE-asan" eth0 get >out &&
	test_must_contain out "^reply type=78 cmd=21 flags=0x5 ids=ok ifname=eth0 " &&
	test_must_contain out "^ack len=36 flags=0x100 ids=ok$"
'

test_done
