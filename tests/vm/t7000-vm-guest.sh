#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The real-kernel tier itself: a Debian 12 kernel under QEMU with rxe0 on a virtio NIC.
# Everything judged here comes from tools nobody in this project wrote (rdma-core,
# iproute2, the kernel's sysfs/configfs), so this also pins the facts rocectl relies on.
# Two boots carry all the checks; the failure-path tests stop before or early in a boot.
. "$SRC_DIR/tests/lib/testlib.sh"

# through bash: the harness must not depend on the file's mode bits surviving
vm() {
	bash "$SRC_DIR/tests/vm/vm" "$@"
}

# One boot: the harness contract (argv, stdout/stderr, exit status, files in the guest).
test_expect_success 'a command in the guest keeps its argv, streams and exit status' '
	printf "fixture with spaces\n" >"$TMP/fixture"
	rc=0
	vm run --file "$TMP/fixture:/data/fixture" --env "GREETING=a  b" -- \
		sh -c "printf \"%s|\" \"\$@\"; echo
			echo \"env \$GREETING\"
			echo \"file \$(cat /data/fixture)\"
			echo \"rocectl \$(rocectl --version)\"
			echo \"policies \$(cd /policies && find . -type f | sort | xargs sha256sum | sha256sum)\"
			echo to-stderr >&2
			exit 7" argv0 "a b" "it'\''s" "\$HOME" "" "*" >"$TMP/out" 2>"$TMP/err" || rc=$?
	cat "$TMP/err"
	test "$rc" -eq 7
	{
		echo "a b|it'\''s|\$HOME||*|"
		echo "env a  b"
		echo "file fixture with spaces"
		echo "rocectl $("$SRC_DIR/rocectl" --version)"
		echo "policies $(cd "$SRC_DIR/policies" && find . -type f | LC_ALL=C sort | xargs sha256sum | sha256sum)"
	} >"$TMP/want"
	diff "$TMP/want" "$TMP/out"
	test_must_contain "$TMP/err" "^to-stderr$"
'

# One boot: everything about rxe0, collected by tests/vm/guest/rdma-facts.sh.
probe="$TMP/probe"
mkdir -p "$probe"
probe_rc=0
vm run -- sh /tests/rdma-facts.sh >"$TMP/facts" 2>"$TMP/facts.err" || probe_rc=$?
# Split "### NAME" ... "### NAME exit RC" sections into NAME.out and NAME.rc.
awk -v dir="$probe" '
	/^### [^ ]+ exit [0-9]+$/ { print $4 > (dir "/" $2 ".rc"); close(dir "/" $2 ".rc"); name = ""; next }
	/^### [^ ]+$/ { name = $2; printf "" > (dir "/" name ".out"); next }
	name != "" { print >> (dir "/" name ".out") }
' "$TMP/facts"

# section NAME WANT_RC: the probe ran and exited as expected; its output is in $out
section() {
	out="$probe/$1.out"
	if [ ! -f "$probe/$1.rc" ]; then
		echo "probe section '$1' missing; vm run exited $probe_rc:"
		cat "$TMP/facts.err" "$TMP/facts"
		return 1
	fi
	cat "$out"
	case "$2" in
	nonzero) test "$(cat "$probe/$1.rc")" -ne 0 ;;
	*) test "$(cat "$probe/$1.rc")" -eq "$2" ;;
	esac
}

test_expect_success 'the guest boots and runs a script from tests/vm/guest' '
	cat "$TMP/facts.err"
	test "$probe_rc" -eq 0
	for s in ibv_devinfo gid-type-1 gid-1 gid-ipv4-index dcb-pfc configfs hw-counters \
		rdma-link rdma-stat; do
		test -f "$probe/$s.rc" || { echo "no section $s"; exit 1; }
	done
'

test_expect_success 'ibv_devinfo sees rxe0 with an ACTIVE port' '
	section ibv_devinfo 0
	test_must_contain "$out" "^hca_id:[[:space:]]+rxe0$"
	test_must_contain "$out" "state:[[:space:]]+PORT_ACTIVE \(4\)"
	test_must_contain "$out" "link_layer:[[:space:]]+Ethernet"
'

test_expect_success 'the IPv4 RoCE v2 GID is index 1 on rxe (not 3 as on mlx5)' '
	section ibv_devinfo 0
	test_must_contain "$out" "GID\[ *0\]:[[:space:]]+fe80::[0-9a-f:]+, RoCE v2"
	test_must_contain "$out" "GID\[ *1\]:[[:space:]]+::ffff:192\.0\.2\.15, RoCE v2"
	section gid-ipv4-index 0
	test "$(cat "$out")" = 1
'

test_expect_success 'sysfs gid_attrs/types/1 says RoCE v2 for the IPv4-mapped GID' '
	section gid-type-1 0
	test "$(cat "$out")" = "RoCE v2"
	section gid-1 0
	test "$(cat "$out")" = "0000:0000:0000:0000:0000:ffff:c000:020f"
'

test_expect_success 'dcb on the virtio NIC fails with Operation not supported' '
	section dcb-pfc nonzero
	test_must_contain "$out" "Operation not supported"
'

test_expect_success 'configfs rdma_cm default_roce_tos takes 106 and keeps it across rmdir' '
	section configfs 0
	test_must_contain "$out" "^default_roce_tos$"
	test_must_contain "$out" "^tos-before 0$"
	test_must_contain "$out" "^tos-after 106$"
	test_must_contain "$out" "^mode RoCE v2$"
	test_must_contain "$out" "^tos-recreated 106$"
'

test_expect_success 'rxe0 port 1 has hw_counters, each a decimal number' '
	section hw-counters 0
	test "$(wc -l <"$out")" -ge 5
	test_must_contain "$out" "^sent_pkts [0-9]+$"
	test_must_contain "$out" "^rcvd_pkts [0-9]+$"
	test_must_not_contain "$out" "^[^ ]+ ([^0-9]|$)"
'

test_expect_success 'iproute2 rdma shows the link on eth0 and its counters' '
	section rdma-link 0
	test_must_contain "$out" "^link rxe0/1 state ACTIVE .*netdev eth0"
	section rdma-stat 0
	test_must_contain "$out" "sent_pkts [0-9]+"
'

test_expect_success 'a guest that does not finish within --timeout is stopped with a reason' '
	rc=0
	vm run --timeout 3 -- sleep 600 >"$TMP/out" 2>"$TMP/err" || rc=$?
	cat "$TMP/err"
	test "$rc" -eq 124
	test_must_contain "$TMP/err" "did not finish within 3s"
'

test_expect_success 'a guest whose setup fails says why' '
	echo no_such_module.ko >"$TMP/order"
	rc=0
	vm run --file "$TMP/order:/lib/modules/load-order" -- true >"$TMP/out" 2>"$TMP/err" || rc=$?
	cat "$TMP/err"
	test "$rc" -eq 125
	test_must_contain "$TMP/err" "insmod no_such_module.ko"
'

test_expect_success 'a QEMU that cannot start fails the run with the reason' '
	rc=0
	VM_QEMU=/nonexistent/qemu bash "$SRC_DIR/tests/vm/vm" run -- true 2>"$TMP/err" || rc=$?
	cat "$TMP/err"
	test "$rc" -eq 125
	test_must_contain "$TMP/err" "cannot start the guest: .*/nonexistent/qemu"
'

test_done
