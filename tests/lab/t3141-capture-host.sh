#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# rocectl capture on a lab host (MLNX_OFED files, DCQCN through ecn/roce_rp): the agent's
# state with the files and DCB netlink replies it read, and lldpd's answer, scrubbed, with a
# provenance header; nothing written to the host; the capture replays through the host
# parsers (tests/unit/test_captured_replay.c: rc_mlx5_read on the rebuilt files, the dcbnl
# parsers on the replies) and holds the values verify reported, drift included.
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"
. "$SRC_DIR/tests/lib/niclib.sh"

LAB_CMD="$SRC_DIR/tests/lab/lab"
LAB="$TMP/lab"
INV="$LAB/inventory.yaml"
ROCECTL_JOURNAL="$TMP/journal"
export BUILD_DIR ROCECTL ROCECTL_JOURNAL

test_needs root

test_at_exit '"$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true'

write_dcqcn_policy "$TMP/policy.yaml" roce-dcqcn-capture \
	"rp_ai_rate: 10, rp_hai_rate: 100, rp_byte_reset: 4294967295"
P="$TMP/policy.yaml"

rc() {
	"$LAB_CMD" exec "$LAB" -- "$ROCECTL" "$@"
}

STATE="$LAB/hosts/gpu001/nics/enp12s0np0.state"
# the captured agent state of the host (one file)
captured() {
	ls "$TMP/cap/$1/gpu001/"*-rocectl-agent-state-raw-*.txt
}
# the body of a capture file (after the provenance header)
body() {
	sed '1,/^# ---$/d' "$1"
}

test_expect_success 'lab up: 1 MLNX_OFED host, 1 leaf; the policy applied to the host' '
	"$LAB_CMD" up "$LAB" --hosts 1 --nics 1 --leaves 1 --spines 0 \
		--host-features ofed >"$TMP/up.out" &&
	{ rc apply -p "$P" -i "$INV" --limit gpu001 >"$TMP/apply.out" 2>&1 ||
		{ cat "$TMP/apply.out"; exit 1; }; } &&
	rc verify -p "$P" -i "$INV" --limit gpu001 >"$TMP/verify.out" 2>&1 ||
		{ cat "$TMP/verify.out"; exit 1; }
'

test_expect_success 'capture the host: the state with its raw reads, lldpd, a provenance header' '
	cp "$STATE" "$TMP/state.before" &&
	rc capture -i "$INV" --limit gpu001 -o "$TMP/cap/sync" >"$TMP/out" 2>&1 &&
	test_must_contain "$TMP/out" "^gpu001: 2 answer" &&
	f=$(captured sync) &&
	test_must_contain "$f" "^# platform: host$" &&
	test_must_contain "$f" "^# driver: agent-ssh$" &&
	test_must_contain "$f" "^# version: rocectl [0-9]" &&
	test_must_contain "$f" "^# command: rocectl agent state --raw --interface enp12s0np0$" &&
	test_must_contain "$f" "^# time: 20[0-9-]+T[0-9:]+Z$" &&
	test -s "$TMP/cap/sync/gpu001/02-lldpcli-f-json0-show-neighbors.txt" &&
	body "$f" >"$TMP/sync.json" &&
	jq -e ".interfaces[0].raw.netlink | map(.cmd) | index(21) != null" "$TMP/sync.json" &&
	jq -e ".interfaces[0].raw.files[] |
		select(.path == \"sys/class/net/enp12s0np0/ecn/roce_rp/rpg_ai_rate\") |
		.value == \"10\"" "$TMP/sync.json" >/dev/null
'

test_expect_success 'nothing was written to the host; no address or hostname in the files' '
	cmp "$TMP/state.before" "$STATE" &&
	! grep -rE "127\.2\.0\.[0-9]" "$TMP/cap" &&
	! grep -rF "\"host\":\"$("$LAB_CMD" ssh "$LAB" gpu001 hostname)\"" "$TMP/cap" &&
	test_must_contain "$TMP/sync.json" "\"host\":\"<hostname>\""
'

test_expect_success 'the capture holds the values verify reported in sync' '
	jq -e ".interfaces[0].qos.dcqcn == {\"rp_ai_rate\":10,\"rp_hai_rate\":100,
		\"rp_min_rate\":1,\"rp_time_reset\":300,\"rp_byte_reset\":4294967295,
		\"rp_threshold\":1,\"rp_initial_alpha_value\":1023,\"rp_gd\":11,
		\"np_min_time_between_cnps\":4}" "$TMP/sync.json" >/dev/null &&
	jq -e ".interfaces[0].qos.cnp == {\"dscp\":48,\"prio\":6}" "$TMP/sync.json" >/dev/null
'

test_expect_success 'after a change behind its back, the capture has what verify reports' '
	"$LAB_CMD" ssh "$LAB" gpu001 \
		"echo 32 >\$NICSIM_DIR/sys/class/net/enp12s0np0/ecn/roce_rp/rpg_hai_rate" &&
	test_expect_code 2 rc verify -p "$P" -i "$INV" --limit gpu001 >"$TMP/verify.out" 2>&1 &&
	test_must_contain "$TMP/verify.out" "dcqcn.rp_hai_rate +want 100, have 32" &&
	rc capture -i "$INV" --limit gpu001 -o "$TMP/cap/drift" >/dev/null 2>&1 &&
	body "$(captured drift)" >"$TMP/drift.json" &&
	jq -e ".interfaces[0].qos.dcqcn.rp_hai_rate == 32" "$TMP/drift.json" >/dev/null
'

test_expect_success 'both captures replay through the host parsers, as a real host would' '
	mkdir -p "$TMP/src/tests" &&
	cp -r "$SRC_DIR/tests/data" "$TMP/src/tests/" &&
	cp -r "$TMP/cap/sync/gpu001" "$TMP/src/tests/data/host/captured/sync" &&
	cp -r "$TMP/cap/drift/gpu001" "$TMP/src/tests/data/host/captured/drift" &&
	SRC_DIR="$TMP/src" "$BUILD_DIR/san/tests/unit/test_captured_replay" >"$TMP/replay" 2>&1 ||
		{ cat "$TMP/replay"; exit 1; }
'

test_expect_success 'a capture whose files disagree with the state fails the replay' '
	mkdir -p "$TMP/bad/tests/data/host/captured" &&
	f=$(captured drift) &&
	sed "s|rpg_hai_rate\",\"value\":\"32\"|rpg_hai_rate\",\"value\":\"33\"|" "$f" \
		>"$TMP/bad/tests/data/host/captured/x.txt" &&
	! cmp -s "$f" "$TMP/bad/tests/data/host/captured/x.txt" &&
	! SRC_DIR="$TMP/bad" "$BUILD_DIR/san/tests/unit/test_captured_replay" >"$TMP/replay" 2>&1 &&
	test_must_contain "$TMP/replay" "rp_hai_rate 33, the agent reported 32"
'

test_expect_success 'the lab goes down cleanly' '
	"$LAB_CMD" down "$LAB" >/dev/null
'
test_done
