#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# rocectl counters and verify --counters against a simulated NVUE switch over a real sshd:
# the switch's QoS counters named by meaning, drops flagged (exit 2), the NVUE path kept.
# The switch answers `counters qos -o json` keyed directly by priority and traffic class
# (the nesting NVIDIA's own tests read), with ECN marks per class and
# tx-uc-buffer-discards a frame count although its table prints a byte unit.
. "$SRC_DIR/tests/lib/testlib.sh"

SIMCTL="$SRC_DIR/tests/sim/switch/simctl"
LAB="$TMP/lab"
P="$SRC_DIR/policies/roce-lossless.yaml"
export BUILD_DIR

. "$SRC_DIR/tests/lib/simlib.sh"

test_at_exit 'sh "$SIMCTL" down "$LAB" >/dev/null 2>&1 || true'

test_expect_success 'a simulated NVUE switch with zero counters: counters exits 0' '
	sim up "$LAB" --switch leaf01=127.0.19.1:nvue >/dev/null &&
	rc counters -i "$LAB/inventory.yaml" >"$TMP/out" &&
	test_must_contain "$TMP/out" "^  swp1:$" &&
	test_must_contain "$TMP/out" "pfc_pause_rx\[3\] +0 +nv:pfc-stats.3.rx-pause-frames$" &&
	test_must_not_contain "$TMP/out" "DROPS"
'

# doc FILE: a kit sample without its prompt line, trailing blanks and the doc's "..."
doc() {
	sed -e 1d -e 's/ *$//' -e '/^\.\.\. *$/d' "$CONFORMANCE_DIR/nvue/outputs/$1"
}

nvsh() {
	sim cli "$LAB" leaf01 "$1" | sed 's/ *$//'
}

test_expect_success 'the simulated tables are the ones NVIDIA documents (the kit samples, zeros)' '
	test -n "$CONFORMANCE_DIR" &&
	for s in pfc-stats ingress-buffer-stats port-stats; do
		nvsh "nv show interface swp1 counters qos $s" >"$TMP/$s" &&
		doc nv_show_interface_swp1_counters_qos_$s.txt | diff -u - "$TMP/$s" || exit 1
	done &&
	nvsh "nv show interface swp1 counters qos egress-queue-stats" >"$TMP/eq" &&
	doc nv_show_interface_swp1_counters_qos_egress-queue-stats.txt |
		sed -n "/^traffic-class/,\$p" | diff -u - "$TMP/eq" &&
	nvsh "nv show interface swp1 counters qos" >"$TMP/all" &&
	doc nv_show_interface_swp1_counters_qos.txt | diff -u - "$TMP/all"
'

test_expect_success 'pauses and WRED drops set on the switch are read back, drops flagged, exit 2' '
	sim fault "$LAB" leaf01 drift counters:swp1.pfc-stats.3.rx-pause-frames=12 \
		counters:swp2.egress-queue-stats.3.wred-discards=5 \
		counters:swp2.egress-queue-stats.3.tx-uc-buffer-discards=76993 \
		counters:swp2.egress-queue-stats.3.ecn-marked-frames=400 &&
	test_expect_code 2 rc counters -i "$LAB/inventory.yaml" --format json >"$TMP/json" &&
	jq -e "[.. | objects | select(.port? == \"swp1\" and .name? == \"pfc_pause_rx[3]\")][0].value == 12" "$TMP/json" &&
	jq -e "[.. | objects | select(.port? == \"swp2\" and .name? == \"wred_discards[3]\")][0] |
		.value == 5 and .is_drop == true" "$TMP/json" &&
	jq -e "[.. | objects | select(.port? == \"swp2\" and .name? == \"egress_buffer_discards[3]\")][0] |
		.value == 76993 and .is_drop == true" "$TMP/json" &&
	jq -e "[.. | objects | select(.port? == \"swp2\" and .name? == \"ecn_marked[3]\")][0] |
		.value == 400 and .source == \"nv:egress-queue-stats.3.ecn-marked-frames\"" "$TMP/json"
'
test_expect_success 'the table view prints the frame count with a byte unit, as NVUE does' '
	"$SIMCTL" exec "$LAB" -- ssh -F "$LAB/ssh_config" leaf01 \
		"nv show interface swp2 counters qos egress-queue-stats" >"$TMP/table" &&
	head -n 1 "$TMP/table" | grep -Eq "^traffic-class +tx-frames +tx-bytes +tx-uc-buffer-discards +wred-discards *$" &&
	grep -Eq "^3 +0 +0 Bytes +75.19 KB +5 *$" "$TMP/table"
'

test_expect_success 'verify --counters puts them in the Prometheus output' '
	test_expect_code 2 rc verify -p "$P" -i "$LAB/inventory.yaml" --counters \
		--format prometheus >"$TMP/prom" &&
	test_must_contain "$TMP/prom" "^# TYPE rocectl_pfc_pause_frames_total counter$" &&
	test_must_contain "$TMP/prom" "^rocectl_pfc_pause_frames_total\{device=\"leaf01\",port=\"swp1\",direction=\"rx\",priority=\"3\",source=\"nv:pfc-stats.3.rx-pause-frames\"\} 12$" &&
	test_must_contain "$TMP/prom" "^rocectl_discards_total\{device=\"leaf01\",port=\"swp2\",reason=\"wred\",direction=\"tx\",queue=\"3\",source=\"nv:[^\"]*\"\} 5$"
'

test_expect_success 'promtool check metrics: the --counters output follows the naming rules' '
	command -v promtool >/dev/null || { echo "promtool missing: make deps (Debian package prometheus)"; exit 1; } &&
	promtool check metrics <"$TMP/prom" >"$TMP/pt.out" 2>&1 &&
	test ! -s "$TMP/pt.out" || { cat "$TMP/pt.out"; exit 1; }
'

test_expect_success 'the simulated switch goes down cleanly' '
	sim down "$LAB"
'
test_done
