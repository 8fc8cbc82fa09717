#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A mixed-vendor fabric (NVUE, SONiC and EOS switches, hosts behind sshd): one plan, one
# apply, a clean verify end to end, and a trace that crosses vendors; then drift
# anywhere in it is found and repaired.  Over SSH and over REST (eAPI).
. "$SRC_DIR/tests/lib/testlib.sh"

LAB_CMD="$SRC_DIR/tests/lab/lab"
LAB="$TMP/lab"
POLICY="$SRC_DIR/policies/roce-lossless.yaml"
export BUILD_DIR ROCECTL

test_at_exit '"$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true'

# rocectl inside the lab's namespace, journal in the lab
rc() {
	"$LAB_CMD" exec "$LAB" -- env ROCECTL_JOURNAL="$TMP/journal" "$ROCECTL" "$@"
}

test_expect_success 'a lab with leaves on NVUE, SONiC and EOS and an NVUE spine comes up' '
	"$LAB_CMD" up "$LAB" --hosts 3 --leaves 3 --spines 1 --platforms nvue,sonic,eos \
		>/dev/null &&
	grep -q "platform: sonic" "$LAB/inventory.yaml" &&
	grep -q "platform: eos" "$LAB/inventory.yaml"
'

test_expect_success 'plan covers every vendor; the factory SONiC map sends DSCP 26 to a lossy class' '
	test_expect_code 2 rc plan -p "$POLICY" -i "$LAB/inventory.yaml" --details >"$TMP/plan" &&
	test_must_contain "$TMP/plan" "^leaf01 \(nvue-ssh\): [0-9]+ changes" &&
	test_must_contain "$TMP/plan" "^leaf02 \(sonic-ssh\): [0-9]+ changes" &&
	test_must_contain "$TMP/plan" "^leaf03 \(eos-ssh\): [0-9]+ changes" &&
	test_must_contain "$TMP/plan" "Ethernet[0-9]+ +dscp2prio\[26\] +1 -> 3"
'

test_expect_success 'apply, then verify is clean end to end over SSH' '
	rc apply -p "$POLICY" -i "$LAB/inventory.yaml" >"$TMP/apply" &&
	rc verify -p "$POLICY" -i "$LAB/inventory.yaml" >"$TMP/verify" &&
	test_must_contain "$TMP/verify" "links: [0-9]+ checked, 0 not consistent" &&
	test_expect_code 0 rc plan -p "$POLICY" -i "$LAB/inventory.yaml" >/dev/null
'

test_expect_success 'verify over REST (eAPI for EOS) agrees' '
	rc verify -p "$POLICY" -i "$LAB/inventory-rest.yaml" --details >"$TMP/verify-rest" &&
	test_must_contain "$TMP/verify-rest" "^leaf03 \(eos-eapi\): in sync"
'

test_expect_success 'a trace between hosts on different vendors crosses them, every hop aligned' '
	rc trace -p "$POLICY" -i "$LAB/inventory.yaml" --format json gpu001 gpu002 >"$TMP/trace" &&
	jq -e ".status == \"ok\" and (.paths | length) > 0" "$TMP/trace" &&
	jq -r "[.paths[].hops[].device] | unique | .[]" "$TMP/trace" >"$TMP/devs" &&
	grep -qx spine01 "$TMP/devs" &&
	test "$(grep -c "^leaf0" "$TMP/devs")" -ge 2
'

test_expect_success 'verify --counters exposes the hosts'"'"' NIC counters in the Prometheus output' '
	rc verify -p "$POLICY" -i "$LAB/inventory.yaml" --counters --format prometheus \
		-o "$TMP/metrics.prom" &&
	test_must_contain "$TMP/metrics.prom" "^# TYPE rocectl_pfc_pause_frames_total counter$" &&
	test_must_contain "$TMP/metrics.prom" \
		"^rocectl_pfc_pause_frames_total\\{device=\"gpu001\",port=\"enp12s0np0\",direction=\"rx\",priority=\"[0-7]\",source=\"ethtool:" &&
	test_must_contain "$TMP/metrics.prom" \
		"^rocectl_discards_total\\{device=\"gpu001\",port=\"enp12s0np0\",reason=\"[a-z_]+\",direction=\"(rx|tx)\",.*source=\"(ethtool|hw_counters):" &&
	{ ! command -v promtool >/dev/null || ! promtool check metrics <"$TMP/metrics.prom" 2>&1 | grep .; } &&
	test_must_contain "$TMP/metrics.prom" "^rocectl_port_compliant\\{device=\"leaf02\"" &&
	! ls "$TMP"/metrics.prom.tmp.* 2>/dev/null
'

test_expect_success 'drift anywhere in the mixed fabric is reported on exactly the drifted devices and apply repairs it' '
	"$LAB_CMD" drift "$LAB" 11 4 >/dev/null &&
	test_expect_code 2 rc verify -p "$POLICY" -i "$LAB/inventory.yaml" --format json \
		>"$TMP/drift.json" &&
	jq -r ".[] | .device" "$LAB/drift.json" | sort -u >"$TMP/drifted" &&
	jq -r "[.devices[] | select(.status == \"drift\") | .device] | unique | .[]" \
		"$TMP/drift.json" >"$TMP/found" &&
	diff -u "$TMP/drifted" "$TMP/found" &&
	rc apply -p "$POLICY" -i "$LAB/inventory.yaml" >/dev/null &&
	rc verify -p "$POLICY" -i "$LAB/inventory.yaml" >/dev/null
'

test_done
