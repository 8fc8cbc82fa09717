#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# verify --snapshot from what `rocectl capture` wrote (docs/SNAPSHOT.md): against simulated
# EOS, NVUE and SONiC switches over SSH and over the APIs, the offline verify of a capture
# finds the same changes as the live verify, outside the lab's network namespace (nothing
# to connect to); a capture file cut short, or one that is missing, fails naming the device
# and the command.
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

SIMCTL="$SRC_DIR/tests/sim/switch/simctl"
LAB="$TMP/lab"
POLICY="$SRC_DIR/policies/roce-lossless.yaml"
ROCECTL_JOURNAL="$TMP/journal"
export ROCECTL_JOURNAL

test_needs root

rc() {
	sh "$SIMCTL" exec "$LAB" -- env -u SSH_AUTH_SOCK ROCECTL_JOURNAL="$ROCECTL_JOURNAL" \
		"$ROCECTL" "$@"
}

# the devices' changes, without what differs by nature (times, versions)
changes() {
	jq -S "[.devices[] | {device, status, changes}]" "$1"
}

test_at_exit 'sh "$SIMCTL" down "$LAB" >/dev/null 2>&1 || true'

test_expect_success 'three simulated switches, captured over SSH and over the APIs' '
	sh "$SIMCTL" up "$LAB" --switch eos1=127.0.42.1:eos --switch nv1=127.0.42.2:nvue \
		--switch so1=127.0.42.3:sonic >/dev/null &&
	rc capture -i "$LAB/inventory.yaml" -o "$TMP/cap/ssh" >/dev/null 2>&1 &&
	rc capture -i "$LAB/inventory-rest.yaml" -o "$TMP/cap/api" >/dev/null 2>&1
'

for kind in ssh api; do
	inv="$LAB/inventory.yaml"
	[ "$kind" = api ] && inv="$LAB/inventory-rest.yaml"
	test_expect_success "$kind: the capture verified offline finds what the live verify finds" '
		test_expect_code 2 rc verify -p "$POLICY" -i "'"$inv"'" --format json \
			>"$TMP/live.json" 2>/dev/null &&
		test_expect_code 2 "$ROCECTL" verify -p "$POLICY" -i "'"$inv"'" \
			--snapshot "$TMP/cap/'"$kind"'" --format json >"$TMP/snap.json" \
			2>"$TMP/snap.err" &&
		changes "$TMP/live.json" >"$TMP/live.changes" &&
		changes "$TMP/snap.json" >"$TMP/snap.changes" &&
		test "$(jq length "$TMP/snap.changes")" = 3 &&
		jq -e "all(.[]; .status == \"drift\" and (.changes | length) > 0)" \
			"$TMP/snap.changes" &&
		diff -u "$TMP/live.changes" "$TMP/snap.changes"
	'
done

test_expect_success 'a capture file cut short fails, naming the device and the command' '
	cp -r "$TMP/cap/ssh" "$TMP/cut" &&
	f=$(grep -l "^# command: show runningconfiguration all$" "$TMP/cut/so1/"*) &&
	head -c 2000 "$f" >"$f.cut" && mv "$f.cut" "$f" &&
	test_expect_code 1 "$ROCECTL" verify -p "$POLICY" -i "$LAB/inventory.yaml" --details \
		--snapshot "$TMP/cut" >"$TMP/cut.out" 2>&1 &&
	test_must_contain "$TMP/cut.out" "^so1 .*error.*show runningconfiguration all"
'

test_expect_success 'a missing capture file fails, naming the request and the file expected' '
	cp -r "$TMP/cap/api" "$TMP/missing" &&
	rm "$(grep -l "^# command: GET /qos$" "$TMP/missing/nv1/"*)" &&
	test_expect_code 1 "$ROCECTL" verify -p "$POLICY" -i "$LAB/inventory-rest.yaml" \
		--snapshot "$TMP/missing" >"$TMP/missing.out" 2>&1 &&
	test_must_contain "$TMP/missing.out" "no answer to .GET /qos. .*nv1/GET-qos.txt"
'

test_expect_success 'the simulated switches go down cleanly' '
	sh "$SIMCTL" down "$LAB"
'
test_done
