#!/bin/sh
# `make demo`: what a new user sees first.  Validates every shipped policy against the
# example inventory and prints the PFC headroom a lossless priority needs per link type.
set -eu
: "${ROCECTL:=./rocectl}"
step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

for p in policies/*.yaml; do
	step "rocectl validate -p $p -i examples/inventory.yaml"
	"$ROCECTL" validate -p "$p" -i examples/inventory.yaml
done

step "PFC headroom per lossless priority (MTU 9216)"
printf '%-6s %8s %12s\n' speed cable headroom
for speed in 100G 200G 400G 800G; do
	for cable in 3m 30m 100m; do
		total=$("$ROCECTL" headroom --speed "$speed" --cable "$cable" --mtu 9216 --json |
			sed -n 's/.*"total_bytes":\([0-9]*\).*/\1/p')
		printf '%-6s %8s %10s B\n' "$speed" "$cable" "$total"
	done
done
step "rocectl headroom --speed 400G --cable 30m --mtu 9216"
"$ROCECTL" headroom --speed 400G --cable 30m --mtu 9216
