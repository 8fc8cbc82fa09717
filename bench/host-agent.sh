#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Benchmark: `rocectl agent verify` on a simulated host with 8 mlx5 NICs, against a shell
# loop of the iproute2 `dcb ... show` commands that read the same DCB objects (PFC, APP
# table, buffers, DCBX, ETS), side by side in one run (rounds interleaved), with the ratio.
# Target: rocectl at least 20x faster.
#
#   bench/host-agent.sh [ROUNDS]        (after `make rocectl sims`; ROUNDS default 20)
#
# Rows:
#   verify --only dcb   exactly the objects the dcb loop reads: the like-for-like ratio
#   verify              everything the agent checks (adds ECN sysfs and the rdma_cm ToS
#                       through configfs, whose mkdir/rmdir the simulator journals)
#   start-up            `rocectl --version` and `/bin/true`: what any process costs here
set -eu

src=$(cd "$(dirname "$0")/.." && pwd)
ROCECTL=${ROCECTL:-$src/rocectl}
NICSIM=$src/tests/sim/nic/nicsim
export BUILD_DIR="${BUILD_DIR:-$src/build}"
rounds=${1:-20}
nics=8
objects="pfc app buffer dcbx ets"

[ -x "$ROCECTL" ] || { echo "bench: no '$ROCECTL'; run 'make rocectl sims'" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rocectl-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

specs=
i=0
while [ $i -lt $nics ]; do
	specs="$specs --nic eth$i,rdma=mlx5_$i"
	i=$((i + 1))
done
# shellcheck disable=SC2086
"$NICSIM" init "$tmp/host" $specs >/dev/null

cat >"$tmp/policy.yaml" <<'EOP'
apiVersion: rocectl/v1
kind: Policy
name: roce-lossless
trust: dscp
roce: {dscp: 26, priority: 3}
cnp: {dscp: 48, priority: 6}
pfc:
  priorities: [3]
  watchdog: {detection: 200ms, restoration: 400ms, action: drop}
ecn:
  enabled: true
  traffic_class: 3
  min_threshold: 150KB
  max_threshold: 1500KB
  probability: 100%
  host: {notification_point: true, reaction_point: true}
headroom: {cable_length: 7m, mtu: 9216}
host: {roce_tos: auto}
EOP

# The simulator's environment goes to the measured commands only (not to `date`).
eval "$("$NICSIM" env "$tmp/host")"
sim() {
	LD_PRELOAD="$LD_PRELOAD" NICSIM_DIR="$NICSIM_DIR" SYSFS_PATH="$SYSFS_PATH" \
		ROCECTL_ROOT="$ROCECTL_ROOT" ASAN_OPTIONS="$ASAN_OPTIONS" "$@"
}
sim "$ROCECTL" agent apply -p "$tmp/policy.yaml" --journal "$tmp/journal" >/dev/null
# Both sides must be reading a host that is in sync, or we would time error paths.
sim "$ROCECTL" agent verify -p "$tmp/policy.yaml" >/dev/null ||
	{ echo "bench: the simulated host is not in sync after apply" >&2; exit 1; }

now() { date +%s%N; }

# Each timed block runs its command `batch` times, so that the cost of reading the clock
# (a process here) is spread thin; blocks of the two sides alternate.
batch=5

rocectl_only() {
	k=0
	while [ $k -lt $batch ]; do
		sim "$ROCECTL" agent verify -p "$tmp/policy.yaml" --only dcb >/dev/null
		k=$((k + 1))
	done
}

rocectl_full() {
	k=0
	while [ $k -lt $batch ]; do
		sim "$ROCECTL" agent verify -p "$tmp/policy.yaml" >/dev/null
		k=$((k + 1))
	done
}

startup() {
	k=0
	while [ $k -lt $batch ]; do
		sim "$@" >/dev/null
		k=$((k + 1))
	done
}

dcb_loop() {
	i=0
	while [ $i -lt $nics ]; do
		for o in $objects; do
			sim dcb -j "$o" show dev "eth$i" >/dev/null
		done
		i=$((i + 1))
	done
}

t_only=0 t_full=0 t_dcb=0 t_start=0 t_true=0
r=0
while [ $r -lt $rounds ]; do
	s=$(now); rocectl_only; e=$(now)
	t_only=$((t_only + (e - s) / batch))
	s=$(now); dcb_loop; e=$(now)
	t_dcb=$((t_dcb + e - s))
	s=$(now); rocectl_full; e=$(now)
	t_full=$((t_full + (e - s) / batch))
	s=$(now); startup "$ROCECTL" --version; e=$(now)
	t_start=$((t_start + (e - s) / batch))
	s=$(now); startup /bin/true; e=$(now)
	t_true=$((t_true + (e - s) / batch))
	r=$((r + 1))
done

awk -v n="$nics" -v r="$rounds" -v only="$t_only" -v full="$t_full" -v dcb="$t_dcb" \
	-v start="$t_start" -v tru="$t_true" -v objs="$objects" 'BEGIN {
	k = split(objs, o, " ")
	printf "host-agent: %d simulated mlx5 NICs, %d rounds, interleaved (mean per round)\n", n, r
	printf "  %-48s %10.2f ms\n", "rocectl agent verify --only dcb", only / r / 1e6
	printf "  %-48s %10.2f ms\n", sprintf("shell loop: %d x dcb -j {%s} show", n * k, objs), dcb / r / 1e6
	printf "  %-48s %10.2f ms\n", "rocectl agent verify (all sections)", full / r / 1e6
	printf "  %-48s %10.2f ms\n", "start-up: rocectl --version (same environment)", start / r / 1e6
	printf "  %-48s %10.2f ms\n", "start-up: /bin/true (same environment)", tru / r / 1e6
	ratio = dcb / only
	printf "ratio dcb loop / rocectl verify --only dcb: %.1fx (target >= 20x: %s)\n", ratio,
		(ratio >= 20 ? "met" : "missed")
	printf "ratio dcb loop / rocectl verify (all):      %.1fx\n", dcb / full
	# one process that does nothing at all: no single-process verify can beat this ratio
	printf "ceiling dcb loop / /bin/true:               %.1fx\n", dcb / tru
}'
