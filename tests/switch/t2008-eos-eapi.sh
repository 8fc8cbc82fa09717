#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# rocectl plan / apply / verify against a simulated Arista EOS switch over eAPI (JSON-RPC
# 2.0 runCmds on HTTPS /command-api) in a network namespace: the running-config and views
# as JSON, one configuration session per apply (staged, then committed; aborted on error),
# eAPI errors reported with the command that failed.  The switch's CLI (`simctl cli`) is
# the witness; the REST server's log shows the requests.
. "$SRC_DIR/tests/lib/testlib.sh"

SIMCTL="$SRC_DIR/tests/sim/switch/simctl"
LAB="$TMP/lab"
P="$TMP/policy.yaml"
J="$TMP/journal"

sim() {
	sh "$SIMCTL" "$@"
}

rc() {
	sh "$SIMCTL" exec "$LAB" -- "$ROCECTL" "$@"
}

on() {
	sim cli "$LAB" eos1 "$1"
}

changes() {
	awk '/^  Ethernet/ && !/not controllable here/ { $1 = $1; print }' "$1"
}

sessions() {
	on "show configuration sessions" | awk '$2 == "pending"' | wc -l | tr -d " "
}

requests() {
	grep -c " eos1 POST /command-api " "$RUN/rest.log" || true
}

inventory() {
	sed "$2" "$LAB/inventory-rest.yaml" >"$TMP/$1.yaml"
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
headroom: {cable_length: 40m, mtu: 9216}
tolerance: {threshold: 8%}
EOP

mkdir -p "$LAB"
test_at_exit "sh '$SIMCTL' down '$LAB' >/dev/null 2>&1"
test_expect_success 'the simulated EOS switch comes up' '
	sim up "$LAB" --switch eos1=127.0.7.1:eos --ports Ethernet1-2 >"$TMP/up.log" 2>&1 &&
	test -s "$LAB/inventory-rest.yaml"
'
RUN=$(sed -n "s/^RUN=//p" "$LAB/lab.env" 2>/dev/null)
I="$LAB/inventory-rest.yaml"

test_expect_success 'plan over eAPI against a factory switch shows the needed changes' '
	on "show running-config" >"$TMP/run.before" &&
	n0=$(requests) &&
	{ rc plan -p "$P" -i "$I" --details >"$TMP/plan" 2>"$TMP/plan.err"; st=$?; } ;
	test "$st" = 2 &&
	changes "$TMP/plan" >"$TMP/got" &&
	for p in Ethernet1 Ethernet2; do
		printf "%s\n" \
			"$p trust pcp -> dscp" \
			"$p pfc_enabled none -> 3 (disruptive)" \
			"$p ecn[3].enabled false -> true" \
			"$p ecn[3].kmin_bytes 0 -> 150000" \
			"$p ecn[3].kmax_bytes 0 -> 1500000" \
			"$p ecn[3].pmax_pct 0 -> 100" \
			"$p watchdog.enabled false -> true" \
			"$p watchdog.detection_ms 200 -> 300" \
			"$p watchdog.restoration_ms 200 -> 300"
	done >"$TMP/want" &&
	diff "$TMP/want" "$TMP/got" &&
	test_must_contain "$TMP/plan" "^eos1 \(eos-eapi\)" &&
	test "$(requests)" = $((n0 + 2)) &&
	on "show running-config" >"$TMP/run.after" &&
	cmp "$TMP/run.before" "$TMP/run.after" &&
	test "$(sessions)" = 0
'

test_expect_success 'apply: staged and committed in one session; exit 0' '
	n0=$(requests) &&
	rc apply -p "$P" -i "$I" -J "$J" >"$TMP/apply" 2>"$TMP/apply.err" &&
	test_must_contain "$TMP/apply" "applied and verified" &&
	on "show running-config interfaces Ethernet1" >"$TMP/if1" &&
	test_must_contain "$TMP/if1" "^   qos trust dscp$" &&
	test_must_contain "$TMP/if1" "^   priority-flow-control priority 3 no-drop$" &&
	test_must_contain "$TMP/if1" "^      random-detect ecn minimum-threshold 150 kbytes maximum-threshold 1500 kbytes max-mark-probability 100$" &&
	test_must_contain "$TMP/if1" "^      random-detect ecn count$" &&
	on "show startup-config" >"$TMP/startup" &&
	test_must_contain "$TMP/startup" "^      random-detect ecn count$" &&
	on "show priority-flow-control" >"$TMP/pfc" &&
	test_must_contain "$TMP/pfc" "^Et1 +E A W +3 +drop +0.3 +0.3" &&
	on "show configuration sessions" >"$TMP/sess" &&
	test_must_contain "$TMP/sess" "rocectl-[-0-9]+ +completed" &&
	test "$(sessions)" = 0 &&
	test "$(requests)" -gt $((n0 + 3))
'

test_expect_success 'a second plan is empty (exit 0), verify in sync, over SSH too' '
	rc plan -p "$P" -i "$I" >"$TMP/plan2" 2>/dev/null &&
	test -z "$(changes "$TMP/plan2")" &&
	rc verify -p "$P" -i "$I" >"$TMP/verify" 2>/dev/null &&
	test_must_contain "$TMP/verify" "in sync" &&
	sh "$SIMCTL" exec "$LAB" -- env -u SSH_AUTH_SOCK "$ROCECTL" verify -p "$P" \
		-i "$LAB/inventory.yaml" --details >"$TMP/verify.ssh" 2>/dev/null &&
	test_must_contain "$TMP/verify.ssh" "eos1 \(eos-ssh\): in sync"
'

test_expect_success 'drift behind our back is reported field by field (exit 2)' '
	sim fault "$LAB" eos1 drift interface.Ethernet2.pfc= \
		"interface.Ethernet1.tx-queue.3.ecn={\"min\":300,\"min-unit\":\"kbytes\",\"max\":2,\"max-unit\":\"mbytes\",\"probability\":100}" &&
	{ rc verify -p "$P" -i "$I" --details >"$TMP/drift" 2>/dev/null; st=$?; } ;
	test "$st" = 2 &&
	changes "$TMP/drift" >"$TMP/got" &&
	printf "%s\n" \
		"Ethernet1 ecn[3].kmin_bytes want 150000, have 300000" \
		"Ethernet1 ecn[3].kmax_bytes want 1500000, have 2000000" \
		"Ethernet2 pfc_enabled want 3, have none" >"$TMP/want" &&
	diff "$TMP/want" "$TMP/got"
'

test_expect_success 'a failed commit: the eAPI error names the command; session aborted' '
	on "show running-config" >"$TMP/run.before" &&
	sim fault "$LAB" eos1 reject-next &&
	{ rc apply -p "$P" -i "$I" -J "$J" >"$TMP/rej" 2>&1; st=$?; } ;
	test "$st" = 1 &&
	test_must_contain "$TMP/rej" "eAPI error 1000 at command 3 .commit.: Failed to commit session rocectl-" &&
	test_must_contain "$TMP/rej" "aborted, nothing was applied" &&
	test_must_contain "$TMP/rej" "restored the pre-change state" &&
	on "show running-config" >"$TMP/run.after" &&
	diff "$TMP/run.before" "$TMP/run.after" &&
	test "$(sessions)" = 0
'

# A read is 2 requests (the JSON views, then the ECN view as text); apply stages in the
# 3rd request and commits in the 4th, whose connection is dropped unanswered.  libcurl
# sends a request that died on a reused connection once more on a fresh one: the commit
# happens once, and the state is verified.
test_expect_success 'a commit request dropped unanswered is sent again and commits once' '
	sim fault "$LAB" eos1 drop-after 3 &&
	rc apply -p "$P" -i "$I" -J "$J" >"$TMP/drop" 2>&1 &&
	test_must_contain "$TMP/drop" "applied and verified" &&
	test "$(grep -c " eos1 POST /command-api -1$" "$RUN/rest.log")" = 1 &&
	test "$(sessions)" = 0 &&
	rc verify -p "$P" -i "$I" >/dev/null 2>&1 &&
	sim fault "$LAB" eos1 clear &&
	sim fault "$LAB" eos1 drift interface.Ethernet2.pfc=
'

test_expect_success 'apply repairs the drift' '
	rc apply -p "$P" -i "$I" -J "$J" >"$TMP/fix" 2>&1 &&
	rc verify -p "$P" -i "$I" >/dev/null 2>&1
'

test_expect_success 'wrong password: a clear error, one request' '
	echo not-the-password >"$TMP/wrongpw" && chmod 600 "$TMP/wrongpw" &&
	inventory pw "s|password_file: \"[^\"]*\"|password_file: \"$TMP/wrongpw\"|" &&
	u0=$(grep -c " 401$" "$RUN/rest.log" || true) &&
	{ rc plan -p "$P" -i "$TMP/pw.yaml" >"$TMP/pw.out" 2>&1; st=$?; } ;
	test "$st" = 1 &&
	test_must_contain "$TMP/pw.out" "authentication to .eos1. failed \(HTTP 401" &&
	test "$(grep -c " 401$" "$RUN/rest.log")" = $((u0 + 1))
'

test_expect_success 'a hung switch gives a timeout error within the configured bound' '
	inventory short "s|ca_file: \"\([^\"]*\)\"}|ca_file: \"\1\", timeout: 2s}|" &&
	test_must_contain "$TMP/short.yaml" "timeout: 2s" &&
	sim fault "$LAB" eos1 hang &&
	{ timeout 60 sh "$SIMCTL" exec "$LAB" -- "$ROCECTL" plan -p "$P" -i "$TMP/short.yaml" \
		>"$TMP/hang" 2>&1; st=$?; } ;
	test "$st" = 1 &&
	test_must_contain "$TMP/hang" "timed out after 2s" &&
	sim fault "$LAB" eos1 clear
'

test_expect_success 'the password appears in no output, error or journal' '
	pw=$(cat "$LAB/secrets/eos1") && test -n "$pw" &&
	! grep -rF "$pw" "$TMP"/plan "$TMP"/plan.err "$TMP"/apply "$TMP"/apply.err "$TMP"/rej \
		"$TMP"/drop "$TMP"/pw.out "$TMP"/hang "$J" "$RUN/rest.log"
'

test_expect_success 'the simulated switch goes down cleanly' '
	sim down "$LAB"
'
test_done
