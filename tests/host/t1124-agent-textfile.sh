#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The host agent writes node_exporter's textfile itself (`agent verify|enforce --format
# prometheus -o FILE`), through the simulated NIC (tests/sim/nic): the controller's metric
# families for this one host, so the shipped alert rules read a node's file as they read the
# controller's; the file is replaced atomically, passes promtool check metrics, and says
# device_up 0 when the host could not be read at all.
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

NICSIM="$SRC_DIR/tests/sim/nic/nicsim"
POLICY="$SRC_DIR/policies/roce-lossless.yaml"
TF="$TMP/textfile"
PROM="$TF/rocectl.prom"

agent() {
	"$NICSIM" run "$TMP/h" -- "$ROCECTL" agent "$@" --journal "$TMP/journal"
}

# promtool's lint of the exposition: no output at all when clean
lint() {
	command -v promtool >/dev/null || { echo "promtool missing: make deps (Debian package prometheus)"; return 1; }
	promtool check metrics <"$1" >"$TMP/lint.out" 2>&1 && test ! -s "$TMP/lint.out" ||
		{ cat "$TMP/lint.out"; return 1; }
}

"$NICSIM" init "$TMP/h" --nic eth0,rdma=mlx5_0 --nic eth1,rdma=mlx5_1 >/dev/null
mkdir -p "$TF"

test_expect_success 'agent verify of a factory host: drift per port in the textfile, exit 2' '
	test_expect_code 2 agent verify -p "$POLICY" --format prometheus -o "$PROM" >"$TMP/out" &&
	test ! -s "$TMP/out" &&
	test "$(stat -c %a "$PROM")" = 644 &&
	test "$(ls "$TF")" = rocectl.prom &&
	test_must_contain "$PROM" "^rocectl_device_up\{device=\"[^\"]+\",role=\"host\",driver=\"[a-z0-9-]+\",scope=\"agent\"\} 1$" &&
	test_must_contain "$PROM" "^rocectl_port_compliant\{device=\"[^\"]+\",port=\"eth0\",role=\"host\",scope=\"agent\"\} 0$" &&
	test_must_contain "$PROM" "^rocectl_port_compliant\{device=\"[^\"]+\",port=\"eth1\",role=\"host\",scope=\"agent\"\} 0$" &&
	test_must_contain "$PROM" "^rocectl_fabric_drift_fields\{scope=\"agent\"\} [1-9][0-9]*$" &&
	test_must_contain "$PROM" "^rocectl_last_verify_timestamp_seconds\{scope=\"agent\"\} [0-9]+$" &&
	sum=$(sed -n "s/^rocectl_drift_fields{.*} //p" "$PROM" | paste -sd+ | bc) &&
	test "$sum" = "$(sed -n "s/^rocectl_fabric_drift_fields{scope=\"agent\"} //p" "$PROM")" &&
	lint "$PROM"
'

test_expect_success 'agent enforce --disruptive allow repairs the host; the textfile says in sync' '
	agent enforce -p "$POLICY" --disruptive allow --format prometheus -o "$PROM" &&
	test_must_contain "$PROM" "^rocectl_fabric_drift_fields\{scope=\"agent\"\} 0$" &&
	test_must_contain "$PROM" "^rocectl_port_compliant\{device=\"[^\"]+\",port=\"eth0\",role=\"host\",scope=\"agent\"\} 1$" &&
	test_must_contain "$PROM" "^rocectl_port_compliant\{device=\"[^\"]+\",port=\"eth1\",role=\"host\",scope=\"agent\"\} 1$" &&
	test_must_not_contain "$PROM" "_compliant.* 0$" &&
	test "$(ls "$TF")" = rocectl.prom &&
	lint "$PROM"
'

test_expect_success 'without -o the metrics go to stdout, and nothing else does' '
	agent verify -p "$POLICY" --format prometheus >"$TMP/stdout.prom" &&
	test_must_contain "$TMP/stdout.prom" "^rocectl_device_up\{.*\} 1$" &&
	test_must_not_contain "$TMP/stdout.prom" "^[^#r]" &&
	lint "$TMP/stdout.prom"
'

test_expect_success 'a host that cannot be read at all: device_up 0 in the file, exit 1' '
	test_expect_code 1 agent verify -p "$TMP/no-such-policy.yaml" --format prometheus \
		-o "$PROM" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "no-such-policy.yaml" &&
	test_must_contain "$PROM" "^rocectl_device_up\{.*\} 0$" &&
	test_must_contain "$PROM" "^rocectl_devices\{state=\"failed\",scope=\"agent\"\} 1$" &&
	test_must_not_contain "$PROM" "^rocectl_port_compliant\{" &&
	lint "$PROM"
'

test_expect_success 'every metric the alert rules read about a host is in its textfile' '
	for m in rocectl_fabric_drift_fields rocectl_last_verify_timestamp_seconds rocectl_device_up; do
		grep -q "$m" "$SRC_DIR/dist/prometheus/rocectl.rules.yml" &&
		test_must_contain "$PROM" "^$m[ {]" || exit 1
	done
'

test_expect_success 'usage: -o without prometheus, prometheus for show or counters' '
	test_expect_code 64 agent verify -p "$POLICY" -o "$TMP/x.prom" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "-o is for --format prometheus" &&
	test_expect_code 64 agent show --format prometheus 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "is for plan, verify, apply and enforce" &&
	test_expect_code 64 agent verify -p "$POLICY" --format yaml &&
	test ! -e "$TMP/x.prom"
'

test_done
