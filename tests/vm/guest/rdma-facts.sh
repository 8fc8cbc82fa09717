#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Runs inside the guest (t7000): collects what rdma-core, iproute2 and the kernel say about
# rxe0, one section per probe, so one boot answers every question.  Each section is
#   ### NAME
#   <stdout and stderr of the probe>
#   ### NAME exit RC
# The host side judges the sections; this script judges nothing and always exits 0.
section() {
	name=$1
	shift
	echo "### $name"
	"$@" 2>&1
	echo "### $name exit $?"
}

port=/sys/class/infiniband/rxe0/ports/1
cma=/sys/kernel/config/rdma_cm/rxe0

# The index of the IPv4-mapped RoCE v2 GID, found by scanning as a tool must do.
ipv4_gid_index() {
	for g in "$port"/gids/*; do
		i=${g##*/}
		case "$(cat "$g")" in 0000:0000:0000:0000:0000:ffff:*) ;; *) continue ;; esac
		[ "$(cat "$port/gid_attrs/types/$i" 2>/dev/null)" = "RoCE v2" ] && echo "$i"
	done
	return 0
}

counters() {
	for c in "$port"/hw_counters/*; do
		printf '%s %s\n' "${c##*/}" "$(cat "$c")"
	done
}

configfs_tos() {
	mkdir "$cma" || return 1
	ls "$cma/ports/1"
	echo "tos-before $(cat "$cma/ports/1/default_roce_tos")"
	echo 106 >"$cma/ports/1/default_roce_tos" || return 1
	echo "tos-after $(cat "$cma/ports/1/default_roce_tos")"
	echo "mode $(cat "$cma/ports/1/default_roce_mode")"
	rmdir "$cma" || return 1
	mkdir "$cma" || return 1
	echo "tos-recreated $(cat "$cma/ports/1/default_roce_tos")"
	rmdir "$cma"
}

section ibv_devinfo ibv_devinfo -v -d rxe0
section gid-type-1 cat "$port/gid_attrs/types/1"
section gid-1 cat "$port/gids/1"
section gid-ipv4-index ipv4_gid_index
section dcb-pfc dcb pfc show dev eth0
section configfs configfs_tos
section hw-counters counters
section rdma-link rdma link show rxe0/1
section rdma-stat rdma statistic show link rxe0/1
exit 0
