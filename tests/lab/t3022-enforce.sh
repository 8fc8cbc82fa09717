#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `rocectl enforce` on the lab (tests/lab): after a bring-up, three hosts drift and
# --max-devices 1 repairs nothing (exit 2, the guardrail named in text, JSON and the
# Prometheus output); PFC turned off on a host is reported and not repaired under the
# default --disruptive skip, and repaired with --disruptive allow.  What the simulated NICs
# logged as written (writes.log) is the witness that nothing was touched, not rocectl's
# own report.
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

LAB_CMD="$SRC_DIR/tests/lab/lab"
LAB="$TMP/lab"
INV="$LAB/inventory.yaml"
POLICY="$SRC_DIR/policies/roce-lossless.yaml"
ROCECTL_JOURNAL="$TMP/state/journal"
IF=enp12s0np0
export BUILD_DIR ROCECTL ROCECTL_JOURNAL

test_needs root

test_at_exit '"$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true; [ -s "$TMP/agent-journal" ] && rm -rf "$(cat "$TMP/agent-journal")"'

rc() {
	"$LAB_CMD" exec "$LAB" -- "$ROCECTL" "$@"
}

# the number of writes each host's NICs logged (not configfs mkdir/rmdir of a read)
writes() {
	for h in "$LAB"/hosts/*/; do
		h=${h%/}
		echo "${h##*/} $(grep -cv "^mkdir \|^rmdir " "$h/writes.log")"
	done
}

# host_dcb HOST ARGS...: a dcb command on the host, as an operator would; iproute2 6.1's
# read-modify-write sets can answer "Protocol error" whatever happened (nicsim README), so
# the caller judges by what rocectl reads
host_dcb() {
	h=$1
	shift
	"$LAB_CMD" ssh "$LAB" "$h" "dcb $*" >/dev/null 2>&1 || true
}

# drifted devices of a verify report, sorted, one a line
drifted() {
	jq -r '.devices[] | select(.status == "drift") | .device' "$1" | sort
}

test_expect_success 'bring-up of a 3-host, 1-leaf lab, applied' '
	"$LAB_CMD" up "$LAB" --hosts 3 --leaves 1 --spines 0 --nics 1 >/dev/null &&
	rc apply -p "$POLICY" -i "$INV" >/dev/null &&
	rc verify -p "$POLICY" -i "$INV" >/dev/null
'

test_expect_success 'enforce on a fabric in sync repairs nothing and exits 0' '
	writes >"$TMP/w0" &&
	rc enforce -p "$POLICY" -i "$INV" --max-devices 1 >"$TMP/e0.txt" &&
	test_must_contain "$TMP/e0.txt" "enforce: 0 field\(s\) repaired" &&
	writes >"$TMP/w1" && cmp "$TMP/w0" "$TMP/w1"
'

test_expect_success 'three hosts drifted, --max-devices 1: nothing repaired, exit 2, guardrail named' '
	for h in gpu001 gpu002 gpu003; do host_dcb "$h" app del dev "$IF" dscp-prio 26:3; done &&
	test_expect_code 2 rc verify -p "$POLICY" -i "$INV" --format json >"$TMP/v1.json" &&
	printf "gpu001\ngpu002\ngpu003\n" >"$TMP/want" &&
	drifted "$TMP/v1.json" >"$TMP/got" && diff -u "$TMP/want" "$TMP/got" &&
	writes >"$TMP/w0" &&
	test_expect_code 2 rc enforce -p "$POLICY" -i "$INV" --max-devices 1 >"$TMP/e1.txt" &&
	test_must_contain "$TMP/e1.txt" "guardrail --max-devices: 3 devices to repair, the limit is 1: nothing was repaired" &&
	test_expect_code 2 rc enforce -p "$POLICY" -i "$INV" --max-devices 1 --format json >"$TMP/e1.json" &&
	jq -e ".guardrail == \"max-devices\" and .summary.repaired_fields == 0 and
		([.actions[] | select(.action == \"blocked\") | .device] | sort == [\"gpu001\",\"gpu002\",\"gpu003\"])" \
		"$TMP/e1.json" &&
	test_expect_code 2 rc enforce -p "$POLICY" -i "$INV" --max-devices 1 --format prometheus \
		-o "$TMP/enforce.prom" &&
	test_must_contain "$TMP/enforce.prom" "^rocectl_enforce_guardrail_blocked\{guardrail=\"max-devices\"\} 1$" &&
	writes >"$TMP/w1" && cmp "$TMP/w0" "$TMP/w1" &&
	test_expect_code 2 rc verify -p "$POLICY" -i "$INV" --format json >"$TMP/v2.json" &&
	drifted "$TMP/v2.json" >"$TMP/got" && diff -u "$TMP/want" "$TMP/got"
'

test_expect_success 'without the limit the same drift is repaired and verifies clean' '
	rc enforce -p "$POLICY" -i "$INV" --max-devices 3 --format json >"$TMP/e2.json" &&
	jq -e ".guardrail == null and .summary.repaired_devices == 3" "$TMP/e2.json" &&
	rc verify -p "$POLICY" -i "$INV" >/dev/null
'

test_expect_success 'PFC off on a host is reported and not repaired (--disruptive skip, the default)' '
	n=0 &&
	until rc verify -p "$POLICY" -i "$INV" --format json --limit gpu001 >"$TMP/v3.json";
		[ "$(jq "[.devices[].changes[] | select(.field == \"pfc_enabled\")] | length" "$TMP/v3.json")" = 1 ]; do
		n=$((n + 1)) && [ "$n" -le 5 ] && host_dcb gpu001 pfc set dev "$IF" prio-pfc 3:off
	done &&
	writes >"$TMP/w0" &&
	test_expect_code 2 rc enforce -p "$POLICY" -i "$INV" --format json >"$TMP/e3.json" &&
	jq -e "(.actions[] | select(.device == \"gpu001\")) as \$a |
		\$a.action == \"held\" and \$a.held_fields == 1 and \$a.repaired_fields == 0 and
		.summary.held_fields == 1" "$TMP/e3.json" &&
	writes >"$TMP/w1" && cmp "$TMP/w0" "$TMP/w1" &&
	test_expect_code 2 rc enforce -p "$POLICY" -i "$INV" >"$TMP/e3.txt" &&
	test_must_contain "$TMP/e3.txt" "1 disruptive field\(s\) not repaired \(--disruptive allow repairs them\)"
'

test_expect_success 'with --disruptive allow the PFC drift is repaired' '
	rc enforce -p "$POLICY" -i "$INV" --disruptive allow --format json >"$TMP/e4.json" &&
	jq -e "(.actions[] | select(.device == \"gpu001\")).action == \"repaired\"" "$TMP/e4.json" &&
	rc verify -p "$POLICY" -i "$INV" >/dev/null
'

test_expect_success 'agent enforce on the host itself: PFC off held (exit 2), repaired with --disruptive allow' '
	AJ=$(mktemp -d /tmp/rocectl-agent-journal.XXXXXX) && chmod 1777 "$AJ" &&
	echo "$AJ" >"$TMP/agent-journal" &&
	n=0 &&
	until rc verify -p "$POLICY" -i "$INV" --format json --limit gpu002 >"$TMP/v5.json";
		[ "$(jq "[.devices[].changes[] | select(.field == \"pfc_enabled\")] | length" "$TMP/v5.json")" = 1 ]; do
		n=$((n + 1)) && [ "$n" -le 5 ] && host_dcb gpu002 pfc set dev "$IF" prio-pfc 3:off
	done &&
	writes >"$TMP/w0" &&
	test_expect_code 2 "$LAB_CMD" ssh "$LAB" gpu002 \
		"rocectl agent enforce -p $POLICY --journal $AJ --json" >"$TMP/a1.json" &&
	jq -e ".command == \"enforce\" and .exit_code == 2" "$TMP/a1.json" &&
	writes >"$TMP/w1" && cmp "$TMP/w0" "$TMP/w1" &&
	"$LAB_CMD" ssh "$LAB" gpu002 \
		"rocectl agent enforce -p $POLICY --journal $AJ --disruptive allow" >"$TMP/a2.txt" &&
	rc verify -p "$POLICY" -i "$INV" >/dev/null
'

test_expect_success 'promtool check metrics: the enforce output follows the naming rules' '
	command -v promtool >/dev/null || { echo "promtool missing: make deps (Debian package prometheus)"; exit 1; } &&
	promtool check metrics <"$TMP/enforce.prom" >"$TMP/pt1.out" 2>&1 &&
	test ! -s "$TMP/pt1.out" || { cat "$TMP/pt1.out"; exit 1; }
'

test_expect_success 'the quarantine file lives next to the journal, 0600, and --clear of an unknown device fails' '
	test "$(stat -c %a "$TMP/state/enforce-state.json")" = 600 &&
	jq -e ".devices == []" "$TMP/state/enforce-state.json" &&
	test_expect_code 1 rc enforce --clear gpu001 2>"$TMP/clear.err" &&
	test_must_contain "$TMP/clear.err" "has no failures recorded"
'

test_done
