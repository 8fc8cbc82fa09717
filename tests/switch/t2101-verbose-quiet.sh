#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# -v shows every command and request sent to a device, with secrets redacted; -q prints only
# the summary (README.md "Exit status and output conventions"), through a simulated NVUE
# switch over SSH and over HTTPS.
. "$SRC_DIR/tests/lib/testlib.sh"

SIMCTL="$SRC_DIR/tests/sim/switch/simctl"
LAB="$TMP/lab"
P="$TMP/policy.yaml"

rc() {
	sh "$SIMCTL" exec "$LAB" -- env -u SSH_AUTH_SOCK "$ROCECTL" "$@"
}

cat >"$P" <<'EOP'
apiVersion: rocectl/v1
kind: Policy
name: roce-lossless
trust: dscp
roce: {dscp: 26, priority: 3}
cnp: {dscp: 48, priority: 6}
pfc:
  priorities: [3]
  watchdog: {detection: 300ms, restoration: 300ms, action: drop}
ecn:
  enabled: true
  traffic_class: 3
  min_threshold: 150KB
  max_threshold: 1500KB
  probability: 100%
headroom: {cable_length: 100m, mtu: 9216}
EOP

mkdir -p "$LAB"
test_at_exit "sh '$SIMCTL' down '$LAB' >/dev/null 2>&1"
test_expect_success 'the simulated switch comes up' '
	sh "$SIMCTL" up "$LAB" --switch leaf01=127.0.41.1:nvue --ports swp1-2 >"$TMP/up.log" 2>&1 &&
	test -s "$LAB/inventory.yaml" && test -s "$LAB/inventory-rest.yaml"
'

test_expect_success '-v over SSH prints each command with the device, the report stays on stdout' '
	test_expect_code 2 rc plan -v -p "$P" -i "$LAB/inventory.yaml" >"$TMP/out" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "^leaf01 ssh: nv show" &&
	test_must_not_contain "$TMP/out" "ssh: " &&
	test_must_contain "$TMP/out" "^plan: [0-9]+ changes"
'

test_expect_success '-v before the command is the same; over HTTPS it prints method and path' '
	test_expect_code 2 rc -v plan -p "$P" -i "$LAB/inventory-rest.yaml" >"$TMP/out" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "^leaf01 https: GET /" &&
	test_must_not_contain "$TMP/err" "Authorization|Basic "
'

test_expect_success '-v shows the writes and bodies of an apply, never the password' '
	pw=$(cat "$LAB/secrets/leaf01") && test -n "$pw" &&
	test_expect_code 0 rc apply -v -p "$P" -i "$LAB/inventory-rest.yaml" \
		--journal "$TMP/j" >"$TMP/out" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "^leaf01 https: (PATCH|POST) " &&
	test_must_contain "$TMP/err" "^leaf01 https body: " &&
	test_must_not_contain "$TMP/err" "$pw"
'

test_expect_success 'without -v nothing sent is printed' '
	rc verify -p "$P" -i "$LAB/inventory.yaml" >"$TMP/out" 2>"$TMP/err" &&
	test_must_not_contain "$TMP/err" "ssh: |https: "
'

test_expect_success '-q prints only the summary, with the same exit code' '
	rc verify -q -p "$P" -i "$LAB/inventory.yaml" >"$TMP/out" 2>"$TMP/err" &&
	test "$(wc -l <"$TMP/out")" -eq 1 &&
	test_must_contain "$TMP/out" "^verify: 0 drifted fields on 0 of 1 device\(s\), 0 failed$" &&
	sh "$SIMCTL" fault "$LAB" leaf01 drift config:qos.pfc.default-global.cable-length=30 &&
	{ rc -q verify -p "$P" -i "$LAB/inventory.yaml" >"$TMP/out" 2>"$TMP/err"; st=$?; } ;
	echo "exit $st" && test "$st" = 2 &&
	test "$(wc -l <"$TMP/out")" -eq 1 &&
	test_must_contain "$TMP/out" "^verify: [1-9][0-9]* drifted field"
'

test_expect_success '-q on counters: only the summary line, the same exit code as without' '
	{ rc counters -i "$LAB/inventory.yaml" >"$TMP/c.full" 2>/dev/null; full=$?; } ;
	{ rc counters -q -i "$LAB/inventory.yaml" >"$TMP/c.q" 2>/dev/null; q=$?; } ;
	echo "exit $full / $q" && test "$full" = "$q" &&
	test "$(wc -l <"$TMP/c.full")" -gt 1 &&
	test "$(wc -l <"$TMP/c.q")" -eq 1 &&
	test_must_contain "$TMP/c.q" "^1 device: .* failed, .* without counters$" &&
	test "$(tail -n 1 "$TMP/c.full")" = "$(cat "$TMP/c.q")"
'

test_done
