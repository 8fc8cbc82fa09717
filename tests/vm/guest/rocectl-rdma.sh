#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Runs inside the guest (t7001): rocectl against rxe0 on the real kernel, next to the
# tools that judge it (ibv_devinfo, cat of sysfs/configfs, dcb, rdma).  One section per
# probe, in the order the host side reads them:
#   ### NAME
#   <stdout and stderr of the probe>
#   ### NAME exit RC
# This script judges nothing and always exits 0.  The policy is /p/policy.yaml.
P=/p/policy.yaml
J=/tmp/journal
port=/sys/class/infiniband/rxe0/ports/1
cma=/sys/kernel/config/rdma_cm/rxe0

# Under the ASan build, leak checking costs about a second per process under TCG: the
# host turns it off and these commands, one per code path, turn it back on.
leakcheck() {
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=1" "$@"
}

section() {
	name=$1
	shift
	echo "### $name"
	"$@" 2>&1
	echo "### $name exit $?"
}

# replay BASE: what a command run earlier printed (BASE.out, BASE.err) and its status
replay() {
	cat "/tmp/$1.out" "/tmp/$1.err"
	return "$(cat "/tmp/$1.rc")"
}

# run BASE CMD...: run CMD now, keep its output and status for replay
run() {
	base=$1
	shift
	"$@" >"/tmp/$base.out" 2>"/tmp/$base.err"
	echo $? >"/tmp/$base.rc"
}

# The rdma_cm ToS as configfs shows it; the group exists only while held, as rocectl
# also does it.  mkdir fails if rocectl left its group behind.
tos() {
	mkdir "$cma" || return 1
	cat "$cma/ports/1/default_roce_tos"
	rc=$?
	rmdir "$cma"
	return $rc
}

set_tos() {
	mkdir "$cma" || return 1
	echo "$1" >"$cma/ports/1/default_roce_tos"
	rc=$?
	rmdir "$cma"
	return $rc
}

# Every non-empty GID slot: "INDEX GID TYPE NDEV", read with the shell's own read (rxe
# has 1024 slots; a process per file is slow under TCG).  An empty slot's type does not
# read (EINVAL), like rdma-core skips it.
sysfs_gids() {
	for g in "$port"/gids/*; do
		i=${g##*/}
		read -r gid <"$g" || continue
		[ "$gid" = 0000:0000:0000:0000:0000:0000:0000:0000 ] && continue
		read -r type <"$port/gid_attrs/types/$i" 2>/dev/null || continue
		read -r ndev <"$port/gid_attrs/ndevs/$i" 2>/dev/null || ndev=-
		echo "$i $gid $type $ndev"
	done | sort -n
}

sysfs_port() {
	echo "state $(cat "$port/state")"
	echo "phys_state $(cat "$port/phys_state")"
	echo "link_layer $(cat "$port/link_layer")"
}

# The GID table grows while the guest runs (IPv6 autoconfiguration adds a GID): take
# rocectl's views between two identical ibv_devinfo readings.
snapshot() {
	for try in 1 2 3 4 5 6 7 8 9 10; do
		ibv_devinfo -v -d rxe0 >/tmp/ibv.1 2>&1
		run show-json leakcheck rocectl agent show --json
		run show-text rocectl agent show
		run nccl-env leakcheck rocectl nccl-env -p "$P"
		run nccl-conf rocectl nccl-env -p "$P" --format nccl.conf
		sysfs_gids >/tmp/gids.out
		ibv_devinfo -v -d rxe0 >/tmp/ibv.2 2>&1
		if cmp -s /tmp/ibv.1 /tmp/ibv.2; then
			echo "stable after $try"
			return 0
		fi
		sleep 1
	done
	echo "the GID table kept changing"
	return 1
}

# RDMA traffic over rxe0's loopback: ibv_rc_pingpong server and client on this host, so
# that counters have something to count.  The client retries until the server listens.
traffic() {
	ibv_rc_pingpong -d rxe0 -g 1 -n 20 >/tmp/pp-server 2>&1 &
	server=$!
	ok=
	for try in 1 2 3 4 5 6 7 8 9 10; do
		if ibv_rc_pingpong -d rxe0 -g 1 -n 20 127.0.0.1 >/tmp/pp-client 2>&1; then
			ok=1
			break
		fi
		sleep 0.5
	done
	[ -n "$ok" ] || kill $server 2>/dev/null
	wait $server
	rc=$?
	cat /tmp/pp-client /tmp/pp-server
	[ -n "$ok" ] && return $rc
	echo "the client never connected"
	return 1
}

hw_counters() {
	for c in "$port"/hw_counters/*; do
		read -r v <"$c" && echo "${c##*/} $v"
	done
}

mkdir -p "$J"

# show and nccl-env, judged against ibv_devinfo and sysfs
section snapshot snapshot
section ibv_devinfo cat /tmp/ibv.1
section sysfs-gids cat /tmp/gids.out
section sysfs-port sysfs_port
section show-json replay show-json
section show-text replay show-text
section nccl-env replay nccl-env
section nccl-conf replay nccl-conf
section dcb-pfc dcb pfc show dev eth0
section dcb-app dcb app show dev eth0

# apply without --only: refused before any write
section tos-initial tos
section apply-all leakcheck rocectl agent apply -p "$P" --journal "$J"
section apply-all-json rocectl agent apply -p "$P" --journal "$J" --json
section apply-dcb rocectl agent apply -p "$P" --journal "$J" --only dcb
section tos-after-refusal tos
section journal-after-refusal find "$J" -type f

# --only rdma: plan, apply, idempotence, drift by hand, repair
section plan-rdma rocectl agent plan -p "$P" --only rdma
section plan-rdma-json rocectl agent plan -p "$P" --only rdma --json
section tos-after-plan tos
section apply-rdma leakcheck rocectl agent apply -p "$P" --journal "$J" --only rdma
section cma-groups ls /sys/kernel/config/rdma_cm
section tos-applied tos
section verify-rdma rocectl agent verify -p "$P" --only rdma
section apply-rdma-again rocectl agent apply -p "$P" --journal "$J" --only rdma
section tos-again tos
section hand-edit set_tos 104
section tos-hand tos
section verify-drift leakcheck rocectl agent verify -p "$P" --only rdma
section verify-drift-json rocectl agent verify -p "$P" --only rdma --json
section apply-repair rocectl agent apply -p "$P" --journal "$J" --only rdma
section tos-repaired tos
section verify-repaired rocectl agent verify -p "$P" --only rdma
section show-rdma-json rocectl agent show --only rdma --json
section journal-after find "$J" -type f

# counters, after real RDMA traffic
section traffic traffic
section counters-json leakcheck rocectl counters --json
section counters-text rocectl counters
section agent-counters-json rocectl agent counters --json
section hw-counters hw_counters
section rdma-stat rdma statistic show link rxe0/1
exit 0
