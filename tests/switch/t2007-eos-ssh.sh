#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# rocectl plan / apply / verify against simulated Arista EOS switches over a real OpenSSH
# sshd (tests/sim/switch): the running-config and the operational views read as CLI text,
# changes made in one configuration session (staged, then committed; aborted on any error).
# The switch's own CLI (`simctl cli`) is the independent witness.  eos1 spells its queues
# `tx-queue`, eos2 (7050CX3) `uc-tx-queue`.
. "$SRC_DIR/tests/lib/testlib.sh"

SIMCTL="$SRC_DIR/tests/sim/switch/simctl"
LAB="$TMP/lab"
P="$TMP/policy.yaml"
J="$TMP/journal"

. "$SRC_DIR/tests/lib/simlib.sh"

on() {
	sim cli "$LAB" "$1" "$2"
}

# port lines of a report, blanks squeezed, without the "not controllable" ones (EOS has no
# cable length: every port says so)
changes() {
	awk '/^  Ethernet/ && !/not controllable here/ { $1 = $1; print }' "$1"
}

# pending configuration sessions (the State column)
sessions() {
	on "$1" "show configuration sessions" | awk '$2 == "pending"' | wc -l | tr -d " "
}

write_policy "$P" 40m

mkdir -p "$LAB"
test_at_exit "sh '$SIMCTL' down '$LAB' >/dev/null 2>&1"
test_expect_success 'two simulated EOS switches come up' '
	sim up "$LAB" --switch eos1=127.0.6.1:eos:7060DX5 --switch eos2=127.0.6.2:eos:7050CX3 \
		--ports Ethernet1-2 >"$TMP/up.log" 2>&1 &&
	test -s "$LAB/inventory.yaml"
'
I="$LAB/inventory.yaml"
RUN=$(sed -n "s/^RUN=//p" "$LAB/lab.env" 2>/dev/null)

test_expect_success 'plan against a factory switch shows exactly the needed changes' '
	on eos1 "show running-config" >"$TMP/run.before" &&
	{ rc plan -p "$P" -i "$I" --limit eos1 --details >"$TMP/plan" 2>"$TMP/plan.err"; st=$?; } ;
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
	test_must_contain "$TMP/plan" "^eos1 \(eos-ssh\)" &&
	test_must_contain "$TMP/plan" "Ethernet1 +cable_length_m +not controllable here"
'

test_expect_success 'plan wrote nothing: same running-config, no session' '
	on eos1 "show running-config" >"$TMP/run.after" &&
	{ diff "$TMP/run.before" "$TMP/run.after" || { cat "$TMP/rej" "$TMP/drop" 2>/dev/null; false; }; } &&
	test "$(sessions eos1)" = 0
'

test_expect_success 'apply: one session, committed; the running-config has the lines; exit 0' '
	rc apply -p "$P" -i "$I" --limit eos1 -J "$J" >"$TMP/apply" 2>"$TMP/apply.err" &&
	test_must_contain "$TMP/apply" "applied and verified" &&
	on eos1 "show running-config" >"$TMP/run" &&
	test_must_contain "$TMP/run" "^qos map dscp 26 to traffic-class 3$" &&
	test_must_contain "$TMP/run" "^qos map dscp 48 to traffic-class 6$" &&
	test_must_contain "$TMP/run" "^priority-flow-control pause watchdog default timeout 0.30$" &&
	on eos1 "show running-config interfaces Ethernet2" >"$TMP/if2" &&
	printf "%s\n" "interface Ethernet2" "   qos trust dscp" "   priority-flow-control on" \
		"   priority-flow-control priority 3 no-drop" \
		"   priority-flow-control pause watchdog" "   !" "   tx-queue 3" \
		"      random-detect ecn minimum-threshold 150 kbytes maximum-threshold 1500 kbytes max-mark-probability 100" \
		"      random-detect ecn count" \
		>"$TMP/if2.want" &&
	diff "$TMP/if2.want" "$TMP/if2" &&
	on eos1 "show running-config interfaces Ethernet3" >"$TMP/if3" &&
	test "$(cat "$TMP/if3")" = "interface Ethernet3" &&
	test "$(sessions eos1)" = 0 &&
	test -z "$(find "$J" -name "*.json" 2>/dev/null)"
'

test_expect_success 'a second plan is empty (exit 0), verify in sync' '
	rc plan -p "$P" -i "$I" --limit eos1 >"$TMP/plan2" 2>/dev/null &&
	test_must_contain "$TMP/plan2" "no changes" &&
	test -z "$(changes "$TMP/plan2")" &&
	rc verify -p "$P" -i "$I" --limit eos1 >"$TMP/verify" 2>/dev/null &&
	test_must_contain "$TMP/verify" "in sync"
'

test_expect_success 'drift behind our back is reported field by field (exit 2)' '
	sim fault "$LAB" eos1 drift qos-map-dscp.26=1 \
		"interface.Ethernet2.pfc-priority={\"3\":\"no-drop\",\"4\":\"no-drop\"}" \
		interface.Ethernet1.tx-queue.3.ecn.probability=50 pfc-watchdog.timeout=0.5 \
		interface.Ethernet2.qos-trust=cos &&
	{ rc verify -p "$P" -i "$I" --limit eos1 --details >"$TMP/drift" 2>/dev/null; st=$?; } ;
	test "$st" = 2 &&
	changes "$TMP/drift" >"$TMP/got" &&
	printf "%s\n" \
		"Ethernet1 dscp2prio[26] want 3, have 1" \
		"Ethernet1 ecn[3].pmax_pct want 100, have 50" \
		"Ethernet1 watchdog.detection_ms want 300, have 500" \
		"Ethernet2 trust want dscp, have pcp" \
		"Ethernet2 dscp2prio[26] want 3, have 1" \
		"Ethernet2 pfc_enabled want 3, have 3,4" \
		"Ethernet2 watchdog.detection_ms want 300, have 500" >"$TMP/want" &&
	diff "$TMP/want" "$TMP/got"
'

test_expect_success 'a failed commit (reject-next): exit 1, session aborted, running-config as it was' '
	on eos1 "show running-config" >"$TMP/run.before" &&
	sim fault "$LAB" eos1 reject-next &&
	{ rc apply -p "$P" -i "$I" --limit eos1 -J "$J" >"$TMP/rej" 2>&1; st=$?; } ;
	test "$st" = 1 &&
	test_must_contain "$TMP/rej" "Failed to commit session rocectl-.*injected fault .reject-next." &&
	test_must_contain "$TMP/rej" "configuration session .rocectl-[-0-9]*. aborted, nothing was applied" &&
	test_must_contain "$TMP/rej" "restored the pre-change state" &&
	on eos1 "show running-config" >"$TMP/run.after" &&
	{ diff "$TMP/run.before" "$TMP/run.after" || { cat "$TMP/rej" "$TMP/drop" 2>/dev/null; false; }; } &&
	test "$(sessions eos1)" = 0
'

# A read over SSH is 4 commands (running-config, priority-flow-control, qos interfaces
# trust, qos interfaces ecn); staging the session is one SSH command whose lines each count
# (drop-after counts EOS lines): the connection drops in the middle of the staged lines.
test_expect_success 'a dropped connection while staging: exit 1, aborted over a new session' '
	sim fault "$LAB" eos1 drop-after 8 &&
	{ rc apply -p "$P" -i "$I" --limit eos1 -J "$J" >"$TMP/drop" 2>&1; st=$?; } ;
	test "$st" = 1 &&
	test_must_contain "$TMP/drop" "aborted, nothing was applied" &&
	on eos1 "show running-config" >"$TMP/run.after" &&
	{ diff "$TMP/run.before" "$TMP/run.after" || { cat "$TMP/rej" "$TMP/drop" 2>/dev/null; false; }; } &&
	test "$(sessions eos1)" = 0 &&
	sim fault "$LAB" eos1 clear
'

test_expect_success 'apply then repairs the drift' '
	rc apply -p "$P" -i "$I" --limit eos1 -J "$J" >"$TMP/fix" 2>&1 &&
	rc verify -p "$P" -i "$I" --limit eos1 >"$TMP/verify" 2>/dev/null &&
	test_must_contain "$TMP/verify" "in sync" &&
	on eos1 "show running-config" >"$TMP/run" &&
	test_must_not_contain "$TMP/run" "priority 4 no-drop"
'

# A reload boots the startup-config, so apply saves and read compares.
test_expect_success 'apply saved: the startup-config holds the policy' '
	on eos1 "show startup-config" >"$TMP/startup" &&
	test_must_contain "$TMP/startup" "^! Command: show startup-config$" &&
	test_must_contain "$TMP/startup" "^   priority-flow-control priority 3 no-drop$" &&
	test_must_not_contain "$TMP/startup" "priority 4 no-drop"
'

test_expect_success 'running differs from startup: drift on the group, apply saves (exit 2, then 0)' '
	sim fault "$LAB" eos1 drift interface.Ethernet1.pfc-priority.3=drop &&
	on eos1 "write memory" >/dev/null &&
	sim fault "$LAB" eos1 drift interface.Ethernet1.pfc-priority.3=no-drop &&
	{ rc verify -p "$P" -i "$I" --limit eos1 --details >"$TMP/unsaved" 2>/dev/null; st=$?; } ;
	test "$st" = 2 &&
	test_must_contain "$TMP/unsaved" "Ethernet1 .*pfc_enabled.effect" &&
	test_must_contain "$TMP/unsaved" "running differs from startup" &&
	test_must_not_contain "$TMP/unsaved" "Ethernet2 .*effect" &&
	rc apply -p "$P" -i "$I" --limit eos1 -J "$J" >"$TMP/save" 2>&1 &&
	on eos1 "show startup-config" >"$TMP/startup" &&
	test "$(grep -c "^   priority-flow-control priority 3 no-drop$" "$TMP/startup")" = 2 &&
	rc verify -p "$P" -i "$I" --limit eos1 >"$TMP/verify" 2>/dev/null
'

test_expect_success 'a reload keeps the policy: verify in sync after simctl reboot' '
	sim fault "$LAB" eos1 drift interface.Ethernet2.qos-trust=cos &&
	sim reboot "$LAB" eos1 >/dev/null &&
	on eos1 "show running-config interfaces Ethernet2" >"$TMP/if2" &&
	test_must_contain "$TMP/if2" "^   qos trust dscp$" &&
	rc verify -p "$P" -i "$I" --limit eos1 >"$TMP/verify" 2>/dev/null &&
	test_must_contain "$TMP/verify" "in sync"
'

# Strict is EOS's default for a queue; a DWRR policy is written out.
test_expect_success 'scheduling: the shipped policy DWRR shares are planned, applied, in sync' '
	S="$SRC_DIR/policies/roce-lossless.yaml" &&
	{ rc plan -p "$S" -i "$I" --limit eos1 --details >"$TMP/ets.plan" 2>/dev/null; st=$?; } ;
	test "$st" = 2 &&
	test_must_contain "$TMP/ets.plan" "Ethernet1 +ets\[3\].tsa +strict -> dwrr" &&
	test_must_contain "$TMP/ets.plan" "Ethernet1 +ets\[0\].bw_pct +0 -> 50" &&
	rc apply -p "$S" -i "$I" --limit eos1 -J "$J" >"$TMP/ets.apply" 2>&1 &&
	on eos1 "show running-config interfaces Ethernet1" >"$TMP/ets.if" &&
	test_must_contain "$TMP/ets.if" "^   tx-queue 3$" &&
	test_must_contain "$TMP/ets.if" "^      no priority$" &&
	test_must_contain "$TMP/ets.if" "^      bandwidth percent 50$" &&
	rc plan -p "$S" -i "$I" --limit eos1 >"$TMP/ets.plan2" 2>/dev/null &&
	test -z "$(changes "$TMP/ets.plan2")"
'

test_expect_success 'a platform with uc-tx-queues gets its own keyword' '
	rc apply -p "$P" -i "$I" --limit eos2 -J "$J" >"$TMP/uc" 2>&1 &&
	on eos2 "show running-config interfaces Ethernet1" >"$TMP/uc.if" &&
	test_must_contain "$TMP/uc.if" "^   uc-tx-queue 3$" &&
	test_must_not_contain "$TMP/uc.if" "^   tx-queue" &&
	rc plan -p "$P" -i "$I" --limit eos2 >"$TMP/uc.plan" 2>&1 &&
	test -z "$(changes "$TMP/uc.plan")"
'

test_expect_success 'an inventory port like Ethernet1;reload is refused, nothing sent' '
	n0=$(grep -c "Accepted " "$RUN/sshd.log" || true) &&
	for bad in "Ethernet1;reload" "Ethernet1 Ethernet2" "Ethernet1/../2"; do
		sed "s|ports: \[Ethernet1-2\]|ports: [\"$bad\"]|" "$I" >"$TMP/bad.yaml" &&
		{ rc plan -p "$P" -i "$TMP/bad.yaml" --limit eos1 >"$TMP/bad.out" 2>&1; st=$?; } ;
		test "$st" = 1 || { echo "$bad: exit $st"; cat "$TMP/bad.out"; exit 1; }
	done &&
	test "$(grep -c "Accepted " "$RUN/sshd.log" || true)" = "$n0"
'

test_expect_success 'a port the switch does not have is a clear error' '
	sed "s|ports: \[Ethernet1-2\]|ports: [Ethernet99]|" "$I" >"$TMP/nop.yaml" &&
	{ rc plan -p "$P" -i "$TMP/nop.yaml" --limit eos1 >"$TMP/nop.out" 2>&1; st=$?; } ;
	test "$st" = 1 &&
	test_must_contain "$TMP/nop.out" "port .Ethernet99. does not exist on this switch"
'

test_expect_success 'the simulated switches go down cleanly' '
	sim down "$LAB"
'
test_done
