#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# rocectl capture of a host with transport local (this machine: no transport to tap): the
# agent's own `agent state --raw` document, scrubbed, under the provenance header; it
# replays through the host parsers (tests/unit/test_captured_replay.c) for an OFED host, an
# upstream host with debugfs and one with neither.
. "$SRC_DIR/tests/lib/testlib.sh"

NICSIM="$SRC_DIR/tests/sim/nic/nicsim"

cat >"$TMP/inventory.yaml" <<'EOI'
apiVersion: rocectl/v1
kind: Inventory
hosts:
  - name: node1
    transport: local
    interfaces: [eth0]
EOI

"$NICSIM" init "$TMP/ofed" --ofed --nic eth0,rdma=mlx5_0 >/dev/null
"$NICSIM" init "$TMP/dbg" --nic eth0,rdma=mlx5_0,debugfs >/dev/null
"$NICSIM" init "$TMP/none" --nic eth0,rdma=mlx5_0 >/dev/null

capture() {
	"$NICSIM" run "$TMP/$1" -- "$ROCECTL" capture -i "$TMP/inventory.yaml" -o "$TMP/cap/$1"
}

test_expect_success 'a local host is captured: one answer with a provenance header' '
	"$NICSIM" run "$TMP/ofed" -- sh -c \
		"echo 12 >\$NICSIM_DIR/sys/class/net/eth0/ecn/roce_rp/rpg_ai_rate" &&
	capture ofed >"$TMP/out" &&
	test_must_contain "$TMP/out" "^node1: 1 answer" &&
	f="$TMP/cap/ofed/node1/01-rocectl-agent-state-raw-interface-eth0.txt" &&
	test_must_contain "$f" "^# platform: host$" &&
	test_must_contain "$f" "^# driver: mlx5$" &&
	test_must_contain "$f" "^# version: rocectl [0-9]" &&
	test_must_contain "$f" "^# command: rocectl agent state --raw --interface eth0$" &&
	test_must_contain "$f" "\"host\":\"<hostname>\"" &&
	test_must_contain "$f" "\"rp_ai_rate\":12," &&
	test_must_contain "$f" "\"path\":\"sys/class/net/eth0/ecn/roce_rp/rpg_ai_rate\",\"value\":\"12\""
'

test_expect_success 'the debugfs host and the host with neither are captured too' '
	capture dbg >/dev/null &&
	test_must_contain "$TMP/cap/dbg/node1/"*.txt "cc_params/rp_ai_rate\",\"value\":\"5\"" &&
	capture none >/dev/null &&
	test -s "$TMP/cap/none/node1/"*.txt
'

test_expect_success 'a file that is not text travels as hex, and the JSON stays valid' '
	"$NICSIM" init "$TMP/bin" --ofed --nic eth0,rdma=mlx5_0 >/dev/null &&
	printf "1\\377" >"$TMP/bin/sys/class/net/eth0/ecn/roce_rp/rpg_gd" &&
	capture bin >/dev/null &&
	f=$(ls "$TMP/cap/bin/node1/"*.txt) &&
	test_must_contain "$f" "rpg_gd\",\"value_hex\":\"31ff\"" &&
	sed "1,/^# ---\$/d" "$f" | jq -e ".interfaces[0].qos.known" >/dev/null
'

test_expect_success 'the four captures replay through the host parsers' '
	mkdir -p "$TMP/src/tests" &&
	cp -r "$SRC_DIR/tests/data" "$TMP/src/tests/" &&
	for h in ofed dbg none bin; do
		cp -r "$TMP/cap/$h/node1" "$TMP/src/tests/data/host/captured/local-$h" || exit 1
	done &&
	SRC_DIR="$TMP/src" "$BUILD_DIR/san/tests/unit/test_captured_replay" >"$TMP/replay" 2>&1 ||
		{ cat "$TMP/replay"; exit 1; }
'

test_done
