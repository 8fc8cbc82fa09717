#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `rocectl enforce --canary 1` on the lab (tests/lab): two leaves and their hosts drifted.
# With a quiet fabric the canary (leaf01 with gpu001 and gpu003) is repaired, stays clean,
# and everything is repaired.  With a PFC storm on a NIC behind leaf01 (`lab congest
# --storm`), the canary is rolled back to exactly its pre-run state, leaf02 and its hosts
# are not touched, the run exits 2 and the report names the device, the counter and its
# delta.  The witnesses are the simulators' own state (simctl state, the NICs' state files
# and writes.log), never rocectl's report.
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

LAB_CMD="$SRC_DIR/tests/lab/lab"
SIMCTL="$SRC_DIR/tests/sim/switch/simctl"
LAB="$TMP/lab"
INV="$LAB/inventory.yaml"
POLICY="$SRC_DIR/policies/roce-lossless.yaml"
ROCECTL_JOURNAL="$TMP/state/journal"
IF=enp12s0np0
export BUILD_DIR ROCECTL ROCECTL_JOURNAL

test_needs root

test_at_exit '"$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true; [ -s "$TMP/shared" ] && rm -rf "$(cat "$TMP/shared")"'

rc() {
	"$LAB_CMD" exec "$LAB" -- "$ROCECTL" "$@"
}

# every device's configuration as the simulators hold it: the NICs' state files and each
# switch's applied configuration (not its revision number: a restore is a new revision)
state_of() {
	for h in "$@"; do
		case $h in
		gpu*) echo "== $h" && cat "$LAB/hosts/$h/nics/$IF.state" ;;
		*) echo "== $h" && "$SIMCTL" state "$LAB/switchsim" "$h" | jq -cS '.nvue.applied' ;;
		esac
	done
}

# what the NICs and switches were told to do: writes.log lines, applied revisions
writes_of() {
	for h in "$@"; do
		case $h in
		gpu*) echo "$h $(grep -cv '^mkdir \|^rmdir ' "$LAB/hosts/$h/writes.log")" ;;
		*) echo "$h $("$SIMCTL" state "$LAB/switchsim" "$h" | jq '.nvue["applied-rev"]')" ;;
		esac
	done
}

# DSCP 26 mapped to priority 5 on both leaves (an operator's `nv set` + apply) and on every
# host (the APP entry 26:3 replaced by 26:5, a value rocectl reads and restores)
drift_all() {
	for sw in leaf01 leaf02; do
		"$SIMCTL" fault "$LAB/switchsim" "$sw" drift \
			qos.mapping.default-global.dscp.26.switch-priority=5 >/dev/null || return 1
	done
	for h in gpu001 gpu002 gpu003 gpu004; do
		drift_host "$h" || return 1
	done
}

drift_host() {
	n=0
	# iproute2 6.1's read-modify-write can say "Protocol error" whatever happened (nicsim
	# README): the NIC's state decides
	until grep -q '^app-dscp 26:5 ' "$LAB/hosts/$1/nics/$IF.state"; do
		n=$((n + 1)) && [ "$n" -le 5 ] || return 1
		"$LAB_CMD" ssh "$LAB" "$1" "dcb app del dev $IF dscp-prio 26:3;
			dcb app add dev $IF dscp-prio 26:5" >/dev/null 2>&1
	done
}

# on HOST, as its operator would, with the history in the shared directory $SH (the hosts
# may run in a user namespace that cannot read the test's private $TMP)
on() {
	h=$1
	shift
	"$LAB_CMD" ssh "$LAB" "$h" "ROCECTL_HISTORY=$SH/history $*"
}

ALL="gpu001 gpu002 gpu003 gpu004 leaf01 leaf02 spine01"
CANARY="gpu001 gpu003 leaf01"
REST="gpu002 gpu004 leaf02 spine01"

test_expect_success 'bring-up: 4 hosts behind 2 leaves and a spine, applied' '
	"$LAB_CMD" up "$LAB" --hosts 4 --leaves 2 --spines 1 --nics 1 >/dev/null &&
	rc apply -p "$POLICY" -i "$INV" >/dev/null &&
	rc verify -p "$POLICY" -i "$INV" >/dev/null
'

test_expect_success 'quiet fabric: the canary leaf01 with its hosts is clean, then everything is repaired' '
	drift_all &&
	test_expect_code 2 rc verify -p "$POLICY" -i "$INV" >/dev/null &&
	rc enforce -p "$POLICY" -i "$INV" --canary 1 --canary-wait 1s --format json >"$TMP/e1.json" &&
	jq -e ".canary.result == \"clean\" and .canary.units == [\"leaf01\"] and
		(.canary.devices | sort) == [\"gpu001\",\"gpu003\",\"leaf01\"] and
		.canary.sampled_devices == 4 and .guardrail == null and
		.summary.repaired_devices == 6" "$TMP/e1.json" &&
	rc verify -p "$POLICY" -i "$INV" >/dev/null
'

test_expect_success 'a PFC storm behind the canary leaf: canary rolled back exactly, the rest untouched, exit 2' '
	drift_all &&
	state_of $ALL >"$TMP/s0" &&
	writes_of $REST >"$TMP/w0" &&
	"$LAB_CMD" congest "$LAB" gpu003:$IF --storm >/dev/null &&
	test_expect_code 2 rc enforce -p "$POLICY" -i "$INV" --canary 1 --canary-wait 1s \
		--format json >"$TMP/e2.json" &&
	jq -e ".guardrail == \"canary\" and .canary.result == \"counters\" and
		.canary.finding.device == \"gpu003\" and .canary.finding.port == \"$IF\" and
		.canary.finding.counter == \"pfc_storm_events\" and .canary.finding.delta > 0 and
		.canary.rolled_back == 3 and .summary.repaired_fields == 0 and
		([.actions[] | select(.action == \"rolled-back\") | .device] | sort) ==
			[\"gpu001\",\"gpu003\",\"leaf01\"] and
		([.actions[] | select(.action == \"blocked\") | .device] | sort) ==
			[\"gpu002\",\"gpu004\",\"leaf02\"]" "$TMP/e2.json" &&
	state_of $ALL >"$TMP/s1" && diff -u "$TMP/s0" "$TMP/s1" &&
	writes_of $REST >"$TMP/w1" && diff -u "$TMP/w0" "$TMP/w1"
'

test_expect_success 'the text report names the canary, the device, the counter and its delta' '
	test_expect_code 2 rc enforce -p "$POLICY" -i "$INV" --canary 1 --canary-wait 1s >"$TMP/e3.txt" &&
	test_must_contain "$TMP/e3.txt" "^canary: 1 unit\(s\) \(leaf01\): gpu001, gpu003, leaf01;" &&
	test_must_contain "$TMP/e3.txt" "not clean: gpu003:$IF pfc_storm_events rose by [1-9]" &&
	test_must_contain "$TMP/e3.txt" "^guardrail --canary: the canary was not clean" &&
	state_of $ALL >"$TMP/s2" && diff -u "$TMP/s0" "$TMP/s2"
'

test_expect_success 'a rolled-back canary counts for the quarantine of its devices' '
	jq -e "[.devices[] | select(.failures == 2) | .device] | sort ==
		[\"gpu001\",\"gpu003\",\"leaf01\"]" "$TMP/state/enforce-state.json"
'

test_expect_success 'the storm over: the canary is clean, everything is repaired, the failures forgotten' '
	"$LAB_CMD" congest "$LAB" --clear >/dev/null &&
	rc enforce -p "$POLICY" -i "$INV" --canary 1 --canary-wait 1s --format prometheus \
		-o "$TMP/enforce.prom" &&
	test_must_contain "$TMP/enforce.prom" "^rocectl_enforce_canary_clean 1$" &&
	test_must_contain "$TMP/enforce.prom" "^rocectl_enforce_guardrail_blocked\{guardrail=\"canary\"\} 0$" &&
	rc verify -p "$POLICY" -i "$INV" >/dev/null &&
	jq -e ".devices == []" "$TMP/state/enforce-state.json"
'

test_expect_success 'promtool check metrics: the canary gauges follow the naming rules' '
	command -v promtool >/dev/null || { echo "promtool missing: make deps (Debian package prometheus)"; exit 1; } &&
	promtool check metrics <"$TMP/enforce.prom" >"$TMP/pt.out" 2>&1 &&
	test ! -s "$TMP/pt.out" || { cat "$TMP/pt.out"; exit 1; }
'

test_expect_success 'agent enforce on a host leaves a run record that rocectl history there lists' '
	SH=$(mktemp -d /tmp/rocectl-t3070.XXXXXX) && echo "$SH" >"$TMP/shared" && chmod 1777 "$SH" &&
	cp "$INV" "$SH/inventory.yaml" && chmod 644 "$SH/inventory.yaml" &&
	drift_host gpu002 &&
	on gpu002 "rocectl agent enforce -p $POLICY -i $SH/inventory.yaml --journal $SH/journal \
		--json" >"$TMP/a1.json" &&
	jq -e ".command == \"enforce\" and .exit_code == 0" "$TMP/a1.json" &&
	grep -q "^app-dscp 26:3 " "$LAB/hosts/gpu002/nics/$IF.state" &&
	on gpu002 "rocectl history --json" >"$TMP/h1.json" &&
	jq -e ".runs | length == 1 and .[0].command == \"enforce\" and
		.[0].devices == [{\"device\": \"gpu002\", \"result\": \"applied\", \"changes\": 1}]" \
		"$TMP/h1.json" &&
	run=$(jq -r ".runs[0].run_id" "$TMP/h1.json") &&
	test "$(stat -c %a "$SH/history/$run.json")" = 600 &&
	on gpu002 "rocectl show $run --json" >"$TMP/s1.json" &&
	jq -e "(.devices[0].changes[0] | .port == \"$IF\" and .field == \"dscp2prio[26]\" and
		.old == \"5\" and .new == \"3\") and .exit_code == 0" "$TMP/s1.json"
'

test_done
