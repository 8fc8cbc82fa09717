#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Measurement (no target): `verify --shard K/N --format jsonl` for each shard, one
# unsharded `verify --format json`, and `verify --merge` of the shards (json and jsonl),
# on one lab fabric; wall time and maxRSS of each (GNU time around rocectl; the lab's
# devices are sshd's children, not counted), and whether the merge equals the unsharded
# report (timestamps and read times aside).  The shards run one after the other on this
# machine: what splitting buys across machines is not measured here.
#
#   bench/shard-merge.sh [--hosts 256] [--leaves 32] [--spines 8] [--shards 4] [--lab DIR]
set -u
cd "$(dirname "$0")/.." || exit 1
hosts=256 leaves=32 spines=8 shards=4 lab=/tmp/rocectl-bench-shard
while [ $# -gt 0 ]; do
	case "$1" in
	--hosts) hosts=$2 ;; --leaves) leaves=$2 ;; --spines) spines=$2 ;;
	--shards) shards=$2 ;; --lab) lab=$2 ;;
	*) echo "usage: $0 [--hosts N] [--leaves L] [--spines S] [--shards N] [--lab DIR]" >&2
	   exit 64 ;;
	esac
	shift 2
done
R=$PWD/rocectl P=$PWD/policies/roce-lossless.yaml out=$lab.out
[ -x "$R" ] && [ -x /usr/bin/time ] || { echo "needs ./rocectl (make) and GNU time" >&2; exit 1; }
rm -rf "$out" && mkdir -p "$out" || exit 1
tests/lab/lab down "$lab" >/dev/null 2>&1
ROCECTL=$R tests/lab/lab up "$lab" --hosts "$hosts" --leaves "$leaves" --spines "$spines" \
	--nics 1 >"$out/up.log" 2>&1 || { cat "$out/up.log"; exit 1; }
trap 'tests/lab/lab down "$lab" >/dev/null 2>&1' EXIT
tests/lab/lab drift "$lab" 7 20 >/dev/null || exit 1
inv=$lab/inventory.yaml
timed() { # NAME CMD...
	name=$1
	shift
	/usr/bin/time -f "$name %e %M" -o "$out/time" "$@" 2>/dev/null
	# GNU time puts "Command exited with non-zero status N" before its line
	tail -n 1 "$out/time" | awk -v code=$? '{ printf "  %-13s %4s %7s %10s\n", $1, code, $2, $3 }'
}
echo "fabric: $hosts hosts x 1 NIC, $leaves leaves, $spines spines; $shards shards"
echo "  run           exit  wall s  maxRSS KB"
files=
for k in $(seq 1 "$shards"); do
	timed "shard$k/$shards" tests/lab/lab exec "$lab" -- "$R" verify -p "$P" -i "$inv" \
		--shard "$k/$shards" --format jsonl -o "$out/s$k.jsonl"
	files="$files $out/s$k.jsonl"
done
timed unsharded tests/lab/lab exec "$lab" -- "$R" verify -p "$P" -i "$inv" --format json \
	-o "$out/one.json"
# shellcheck disable=SC2086 # the shards' files, one word each
timed merge-json "$R" verify -p "$P" -i "$inv" --merge $files --format json -o "$out/merged.json"
# shellcheck disable=SC2086
timed merge-jsonl "$R" verify -p "$P" -i "$inv" --merge $files --format jsonl \
	-o "$out/merged.jsonl"
norm='del(.timestamp, .rocectl_version) | .devices |= map(del(.read_ms))'
if diff <(jq -S "$norm" "$out/one.json") <(jq -S "$norm" "$out/merged.json") >/dev/null; then
	echo "merged json = unsharded json: yes"
else
	echo "merged json = unsharded json: NO"
fi
# shellcheck disable=SC2086
echo "shard files: $(cat $files | wc -c) bytes; merged json: $(wc -c <"$out/merged.json") bytes"
