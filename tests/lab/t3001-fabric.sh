#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The fabric commands end to end on the lab (tests/lab): a factory fabric is brought up with
# plan -> apply -> verify; a saved plan is refused once a device changed behind its back;
# a device lock keeps a second apply out; a hung switch fails alone and the hosts behind
# it are skipped; a controller killed mid-apply is undone by `rollback`; and the machine
# outputs (JSON against examples/*.schema.json, Prometheus, DOT) are what they claim to be.
# Every check of device state goes through the simulators' own views (dcb, nv, nicsim state
# files, simctl state), never through rocectl.
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

LAB_CMD="$SRC_DIR/tests/lab/lab"
SIMCTL="$SRC_DIR/tests/sim/switch/simctl"
LAB="$TMP/lab"
INV="$LAB/inventory.yaml"
POLICY="$SRC_DIR/policies/roce-lossless.yaml"
REPORT_SCHEMA="$SRC_DIR/examples/report.schema.json"
TRACE_SCHEMA="$SRC_DIR/examples/trace.schema.json"
ROCECTL_JOURNAL="$TMP/journal"
LOCKS="${ROCECTL_LOCK_DIR:-/run/lock/rocectl}" # per-device locks (engine/run/lock.c)
HOSTS="gpu001 gpu002 gpu003 gpu004"
SWITCHES="leaf01 leaf02 spine01"
export BUILD_DIR ROCECTL ROCECTL_JOURNAL

test_needs root

test_at_exit '"$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true'

# rocectl as the controller, inside the lab's namespace
rc() {
	"$LAB_CMD" exec "$LAB" -- "$ROCECTL" "$@"
}

on() {
	"$LAB_CMD" ssh "$LAB" "$@"
}

fault() {
	"$SIMCTL" fault "$LAB/switchsim" "$@" >/dev/null
}

# Debian's python3 with python3-jsonschema (a missing module fails the test)
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

# validate SCHEMA FILE...: every FILE against SCHEMA (draft 2020-12), errors listed
validate() {
	"$PY" - "$@" <<-'EOF'
	import json, sys
	from jsonschema import Draft202012Validator
	schema = json.load(open(sys.argv[1]))
	Draft202012Validator.check_schema(schema)
	v = Draft202012Validator(schema)
	bad = 0
	for f in sys.argv[2:]:
	    for e in v.iter_errors(json.load(open(f))):
	        print("%s: at %s: %s" % (f, "/".join(map(str, e.absolute_path)), e.message[:300]))
	        bad = 1
	sys.exit(bad)
	EOF
}

# Every device's configuration as the simulators hold it: the hosts' NIC state files and
# each switch's applied revision, applied config and pending CLI revisions (all switches,
# or the ones named).
state_of() {
	for f in "$LAB"/hosts/*/nics/*.state; do
		echo "== $f"
		cat "$f"
	done
	# shellcheck disable=SC2086 # a list of names
	[ $# -gt 0 ] || set -- $SWITCHES
	for sw in "$@"; do
		echo "== $sw"
		"$SIMCTL" state "$LAB/switchsim" "$sw" |
			jq -cS '{rev: .nvue["applied-rev"], applied: .nvue.applied, pending: .nvue["cli-pending"]}'
	done
}

# The QoS a switch runs, per managed port and for the default mapping profile (nv's view).
switch_qos() {
	cmd=$(jq -r --arg d "$1" '.[] | select(.device == $d) | .ports[] |
		"nv show interface \(.) qos -o json && "' "$TMP/ports.json" | tr -d '\n') &&
	test -n "$cmd" &&
	on "$1" "${cmd}nv show qos mapping default-global -o json"
}

# device -> managed ports, from the lab's topology (not from rocectl)
ports_json() {
	awk '$1 == "switch" {
		printf "%s{\"device\":\"%s\",\"ports\":[", (n > 0 ? "," : "["), $2
		n++
		for (i = 7; i <= NF; i++)
			printf "%s\"%s\"", (i > 7 ? "," : ""), $i
		printf "]}"
	}
	END { print "]" }' "$LAB/topology"
}

# trust of a switch port / the RoCE DSCP's priority on a host NIC, as nv and dcb say
sw_trust() {
	on "$1" "nv show interface $2 qos -o json" | jq -r '.mapping.trust'
}

host_dscp26() {
	on "$1" "dcb -j app show dev $2" |
		jq -r '[(.dscp_prio // [])[] | select(.[0] == 26) | .[1]] | .[0] // 0'
}

host_pfc() {
	on "$1" "dcb -j pfc show dev $2" |
		jq -r '[.prio_pfc | to_entries[] | select(.value) | .key | tostring] |
			if length == 0 then "none" else join(",") end'
}

# the switchsim-cli processes still running in the lab (a killed client's last command)
cli_busy() {
	. "$LAB/lab.env"
	for p in $(ip netns pids "$NS"); do
		readlink "/proc/$p/exe" 2>/dev/null
	done | grep -c '/switchsim-cli$'
}

wait_cli_idle() {
	i=0
	while [ "$(cli_busy)" != 0 ]; do
		i=$((i + 1))
		[ "$i" -le 200 ] || { echo "switchsim-cli still running"; return 1; }
		sleep 0.05
	done
}

journal_files() {
	find "$1" -name '*.json' 2>/dev/null | sort
}

all_devices='["gpu001","gpu002","gpu003","gpu004","leaf01","leaf02","spine01"]'

test_expect_success 'lab up: 4 dual-homed hosts, 2 leaves and a spine, factory state' '
	"$LAB_CMD" up "$LAB" --hosts 4 --leaves 2 --spines 1 >"$TMP/up.out" &&
	test_must_contain "$TMP/up.out" "4 hosts x 2 NICs, 2 leaves, 1 spines \(10 links\)" &&
	ports_json >"$TMP/ports.json" &&
	jq -e "length == 3" "$TMP/ports.json" &&
	test "$(host_pfc gpu001 enp12s0np0)" = none &&
	test "$(sw_trust leaf01 swp1)" = l2
'

test_expect_success 'bring-up: plan lists every device, apply, verify and a second plan are clean' '
	test_expect_code 2 rc plan -p "$POLICY" -i "$INV" --details >"$TMP/plan0.txt" &&
	test_must_contain "$TMP/plan0.txt" "^plan: [0-9]+ changes on 7 of 7 device\(s\), 0 failed$" &&
	for d in $HOSTS $SWITCHES; do
		test_must_contain "$TMP/plan0.txt" "^$d \((agent-ssh|nvue-ssh)\): [0-9]+ changes" ||
			exit 1
	done &&
	test_expect_code 2 rc plan -p "$POLICY" -i "$INV" --format json >"$TMP/plan0.json" &&
	jq -e --argjson all "$all_devices" "[.devices[] | select(.status == \"changes\") | .device] == \$all
		and .summary.devices_with_changes == 7 and .summary.errors == 0" "$TMP/plan0.json" &&
	rc apply -p "$POLICY" -i "$INV" --format json >"$TMP/apply0.json" &&
	jq -e --argjson all "$all_devices" "[.devices[] | select(.status == \"changes\") | .device] == \$all
		and .summary.errors == 0" "$TMP/apply0.json" &&
	test -z "$(journal_files "$ROCECTL_JOURNAL")" &&
	for h in $HOSTS; do
		for i in enp12s0np0 enp13s0np0; do
			test "$(host_pfc $h $i)" = 3 && test "$(host_dscp26 $h $i)" = 3 || exit 1
		done
	done &&
	test "$(sw_trust leaf01 swp1)" = l3 && test "$(sw_trust spine01 swp2)" = l3 &&
	rc verify -p "$POLICY" -i "$INV" --format json >"$TMP/verify0.json" &&
	jq -e "all(.devices[]; .status == \"in-sync\") and (.links | length) == 10 and
		all(.links[]; .status == \"ok\") and (.hosts | length) == 4 and
		all(.hosts[]; .status == \"ok\") and .summary.drifted_fields == 0" "$TMP/verify0.json" &&
	rc plan -p "$POLICY" -i "$INV" >"$TMP/plan1.txt" &&
	test_must_contain "$TMP/plan1.txt" "^plan: 0 changes on 0 of 7 device\(s\), 0 failed$"
'

test_expect_success 'a saved plan is refused once a device changed behind it, and applies while unchanged' '
	fault leaf02 drift qos.mapping.default-global.trust=l2 &&
	test_expect_code 2 rc plan -p "$POLICY" -i "$INV" -o "$TMP/stale.plan" >/dev/null &&
	on gpu003 "dcb app add dev enp12s0np0 dscp-prio 26:2" &&
	test "$(host_dscp26 gpu003 enp12s0np0)" = 2 &&
	state_of >"$TMP/state.before" &&
	test_expect_code 1 rc apply "$TMP/stale.plan" >"$TMP/out" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "rocectl apply: .gpu003. changed since the plan was made; nothing was applied" &&
	test_must_not_contain "$TMP/err" "leaf02" &&
	state_of >"$TMP/state.after" &&
	cmp "$TMP/state.before" "$TMP/state.after" &&
	test -z "$(journal_files "$ROCECTL_JOURNAL")" &&
	test "$(sw_trust leaf02 swp1)" = l2 &&
	test_expect_code 2 rc plan -p "$POLICY" -i "$INV" -o "$TMP/fresh.plan" >/dev/null &&
	rc apply "$TMP/fresh.plan" >"$TMP/out" &&
	test "$(sw_trust leaf02 swp1)" = l3 &&
	test "$(host_dscp26 gpu003 enp12s0np0)" = 3 &&
	rc verify -p "$POLICY" -i "$INV" >/dev/null
'

test_expect_success 'a device lock keeps a second apply out while flock holds it' '
	fault spine01 drift qos.mapping.default-global.trust=l2 &&
	mkdir -p "$LOCKS" &&
	{ (exec 9>"$LOCKS/spine01.lock" && flock -n 9 && : >"$TMP/locked" && exec sleep 60) & } &&
	holder=$! &&
	i=0 && while [ ! -e "$TMP/locked" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done &&
	test -e "$TMP/locked" &&
	state_of >"$TMP/state.before" &&
	test_expect_code 1 rc apply -p "$POLICY" -i "$INV" >"$TMP/out" 2>"$TMP/err"
	st=$?
	kill "$holder" && wait "$holder"
	test $st = 0 &&
	test_must_contain "$TMP/err" "spine01. is locked by another rocectl run \(pid unknown; lock $LOCKS/spine01\.lock\); nothing was changed" &&
	test ! -s "$TMP/out" &&
	state_of >"$TMP/state.after" &&
	cmp "$TMP/state.before" "$TMP/state.after" &&
	test "$(sw_trust spine01 swp1)" = l2
'

test_expect_success 'a running apply holds its devices: a second one, with another journal, names its pid and touches nothing' '
	fault spine01 slow 300 &&
	{ "$LAB_CMD" exec "$LAB" -- "$ROCECTL" apply -p "$POLICY" -i "$INV" >"$TMP/first.out" 2>&1 & } &&
	first=$! &&
	i=0 && while ! grep -qx "pid $first" "$LOCKS/spine01.lock" 2>/dev/null && [ $i -lt 200 ]; do
		sleep 0.05; i=$((i + 1)); done &&
	state_of leaf01 leaf02 >"$TMP/state.before" &&
	test_expect_code 1 rc apply -p "$POLICY" -i "$INV" --journal "$TMP/journal2" >"$TMP/out" 2>"$TMP/err"
	st=$?
	wait "$first"
	first_st=$?
	fault spine01 slow 0
	test $st = 0 &&
	test_must_contain "$TMP/err" "is locked by another rocectl run \(.apply., pid $first on host [^,]*, started [0-9T:Z-]*; lock $LOCKS/[a-z0-9]*\.lock\); nothing was changed" &&
	test ! -e "$TMP/journal2" &&
	test ! -s "$TMP/out" &&
	state_of leaf01 leaf02 >"$TMP/state.after" &&
	cmp "$TMP/state.before" "$TMP/state.after" &&
	test $first_st = 0 &&
	test_must_contain "$TMP/first.out" "^apply: [1-9][0-9]* changes made on 1 of 7 device\(s\), 0 failed" &&
	test "$(sw_trust spine01 swp1)" = l3 &&
	rc verify -p "$POLICY" -i "$INV" >/dev/null
'

test_expect_success 'a hung switch times out alone: the others are applied, a host behind it with changes is skipped' '
	sed "s|\(ssh: {port: 22, known_hosts: \"[^\"]*\"\)}|\1, command_timeout: 2s}|" "$INV" \
		>"$TMP/inv-short.yaml" &&
	test $(grep -c "command_timeout: 2s" "$TMP/inv-short.yaml") = 3 &&
	for sw in $SWITCHES; do fault $sw drift qos.mapping.default-global.trust=l2 || exit 1; done &&
	on gpu001 "dcb app add dev enp12s0np0 dscp-prio 26:5" &&
	fault leaf01 hang always &&
	cat "$LAB"/hosts/*/nics/*.state >"$TMP/hosts.before" &&
	test_expect_code 1 rc apply -p "$POLICY" -i "$TMP/inv-short.yaml" --format json \
		>"$TMP/apply-hang.json" &&
	test_expect_code 1 rc verify -p "$POLICY" -i "$TMP/inv-short.yaml" --format json \
		>"$TMP/verify-hang.json" &&
	test_expect_code 1 rc trace -p "$POLICY" -i "$TMP/inv-short.yaml" --format json gpu001 gpu002 \
		>"$TMP/trace-hang.json" &&
	fault leaf01 clear &&
	jq -e "[.devices[] | select(.device == \"leaf01\")][0] |
		.status == \"error\" and (.error | test(\"leaf01.* timed out after 2s\"))" \
		"$TMP/apply-hang.json" &&
	jq -e "[.devices[] | select(.device == \"leaf02\" or .device == \"spine01\") | .status] ==
		[\"changes\", \"changes\"]" "$TMP/apply-hang.json" &&
	jq -e "[.devices[] | select(.device | startswith(\"gpu\")) | select(.status == \"error\") |
		.device] == [\"gpu001\"]" "$TMP/apply-hang.json" &&
	jq -e "[.devices[] | select(.device == \"gpu001\")][0].error |
		test(\"^.gpu001.: not applied because .leaf01. .leaf. failed first\")" \
		"$TMP/apply-hang.json" &&
	jq -e ".summary.errors == 2 and .summary.devices_with_changes == 2" "$TMP/apply-hang.json" &&
	test "$(sw_trust leaf02 swp3)" = l3 && test "$(sw_trust spine01 swp1)" = l3 &&
	test "$(sw_trust leaf01 swp1)" = l2 &&
	cat "$LAB"/hosts/*/nics/*.state >"$TMP/hosts.after" &&
	cmp "$TMP/hosts.before" "$TMP/hosts.after" &&
	test "$(host_dscp26 gpu001 enp12s0np0)" = 5 &&
	test -z "$(journal_files "$ROCECTL_JOURNAL")" &&
	jq -e "[.devices[] | select(.status == \"error\") | .device] == [\"leaf01\"] and
		([.links[] | select(.status == \"unknown\")] | length) == 5 and
		all(.links[]; (.a | startswith(\"leaf01:\")) or (.b | startswith(\"leaf01:\")) or .status != \"unknown\")" \
		"$TMP/verify-hang.json" &&
	jq -e ".status == \"error\"" "$TMP/trace-hang.json" &&
	rc apply -p "$POLICY" -i "$INV" >/dev/null &&
	rc verify -p "$POLICY" -i "$INV" >/dev/null
'

test_expect_success 'kill -9 mid-apply: rollback restores the journaled device, the rest untouched' '
	KJ="$TMP/kill-journal" &&
	fault leaf01 drift qos.mapping.default-global.trust=l2 \
		qos.mapping.default-global.dscp.26.switch-priority=5 \
		qos.congestion-control.default-global.traffic-class.3.min-threshold=331776 &&
	on gpu002 "dcb app add dev enp13s0np0 dscp-prio 26:4" &&
	switch_qos leaf01 >"$TMP/leaf01.pre" &&
	cat "$LAB"/hosts/*/nics/*.state >"$TMP/hosts.before" &&
	rev0=$("$SIMCTL" state "$LAB/switchsim" leaf01 | jq ".nvue[\"applied-rev\"]") &&
	fault leaf01 slow 300 &&
	{ "$LAB_CMD" exec "$LAB" -- "$ROCECTL" apply -p "$POLICY" -i "$INV" --journal "$KJ" \
		>"$TMP/killed.out" 2>&1 & } &&
	pid=$! &&
	i=0 && while [ "$("$SIMCTL" state "$LAB/switchsim" leaf01 | jq ".nvue[\"applied-rev\"]")" = "$rev0" ] &&
		[ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done &&
	test "$(readlink /proc/$pid/exe)" = "$(readlink -f "$ROCECTL")"
	ok=$?
	kill -9 "$pid"
	wait "$pid"
	st=$?
	fault leaf01 clear
	test $ok = 0 && test $st = 137 &&
	wait_cli_idle &&
	journal_files "$KJ" >"$TMP/left" &&
	test $(wc -l <"$TMP/left") = 1 && grep -q "/leaf01.json$" "$TMP/left" &&
	test "$(sw_trust leaf01 swp1)" = l3 &&
	rc rollback -i "$INV" --journal "$KJ" >"$TMP/rb.out" &&
	test_must_contain "$TMP/rb.out" "^restored .leaf01. \(5 ports\) from run " &&
	switch_qos leaf01 >"$TMP/leaf01.post" &&
	cmp "$TMP/leaf01.pre" "$TMP/leaf01.post" &&
	test "$(sw_trust leaf01 swp1)" = l2 &&
	cat "$LAB"/hosts/*/nics/*.state >"$TMP/hosts.after" &&
	cmp "$TMP/hosts.before" "$TMP/hosts.after" &&
	test -z "$(journal_files "$KJ")" &&
	rc rollback -i "$INV" --journal "$KJ" >"$TMP/rb.out" &&
	test_must_contain "$TMP/rb.out" "^nothing to roll back" &&
	rc apply -p "$POLICY" -i "$INV" >/dev/null &&
	rc verify -p "$POLICY" -i "$INV" >/dev/null
'

test_expect_success 'the outputs on a drifted fabric: plan, verify, apply, trace, prometheus, dot' '
	"$LAB_CMD" drift "$LAB" 4242 4 >/dev/null &&
	jq -e "any(.[]; .kind == \"switch\")" "$LAB/drift.json" &&
	test_expect_code 2 rc plan -p "$POLICY" -i "$INV" --format json >"$TMP/plan-drift.json" &&
	test_expect_code 2 rc verify -p "$POLICY" -i "$INV" --format json >"$TMP/verify-drift.json" &&
	test_expect_code 2 rc verify -p "$POLICY" -i "$INV" --format prometheus >"$TMP/drift.prom" &&
	test_expect_code 2 rc verify -p "$POLICY" -i "$INV" --format dot >"$TMP/drift.dot" &&
	test_expect_code 2 rc trace -p "$POLICY" -i "$INV" --format json gpu001 gpu004 \
		>"$TMP/trace-drift.json" &&
	rc apply -p "$POLICY" -i "$INV" --format json >"$TMP/apply-drift.json" &&
	rc verify -p "$POLICY" -i "$INV" --format json >"$TMP/verify-clean.json" &&
	rc trace -p "$POLICY" -i "$INV" --format json gpu001 gpu004 >"$TMP/trace-clean.json" &&
	jq -e "any(.links[]; .status == \"mismatch\") or any(.hosts[]; .status == \"mismatch\")" \
		"$TMP/verify-drift.json"
'

test_expect_success 'plan, apply and verify JSON follow examples/report.schema.json' '
	"$PY" -c "import jsonschema" &&
	validate "$REPORT_SCHEMA" "$TMP/plan0.json" "$TMP/apply0.json" "$TMP/verify0.json" \
		"$TMP/apply-hang.json" "$TMP/verify-hang.json" "$TMP/plan-drift.json" \
		"$TMP/verify-drift.json" "$TMP/apply-drift.json" "$TMP/verify-clean.json" &&
	for f in plan0 apply0 verify0 apply-hang verify-hang plan-drift verify-drift apply-drift; do
		jq -e "(.devices | length) == .summary.devices and
			([.devices[] | select(.status == \"error\")] | length) == .summary.errors" \
			"$TMP/$f.json" || exit 1
	done
'

test_expect_success 'report.schema.json is strict: a wrong status, key or kind is refused' '
	jq ".devices[0].status = \"bogus\"" "$TMP/verify-drift.json" >"$TMP/bad1.json" &&
	jq ".summary.extra = 1" "$TMP/verify-drift.json" >"$TMP/bad2.json" &&
	jq "(.devices[] | select(.changes | length > 0) | .changes[0].kind) |= \"maybe\"" \
		"$TMP/plan-drift.json" >"$TMP/bad3.json" &&
	jq "del(.links)" "$TMP/verify-drift.json" >"$TMP/bad4.json" &&
	jq "del(.run_id)" "$TMP/apply-drift.json" >"$TMP/bad5.json" &&
	jq ".devices[0].status = \"drift\"" "$TMP/plan0.json" >"$TMP/bad6.json" &&
	jq ".notes = []" "$TMP/verify-drift.json" >"$TMP/bad7.json" &&
	jq "(.devices[] | select(.status == \"in-sync\")) |= (.error = \"x\")" \
		"$TMP/verify-drift.json" >"$TMP/bad8.json" &&
	for i in 1 2 3 4 5 6 7 8; do
		! validate "$REPORT_SCHEMA" "$TMP/bad$i.json" >"$TMP/v.out" ||
			{ echo "bad$i.json was accepted"; exit 1; }
		test -s "$TMP/v.out" || exit 1
	done
'

test_expect_success 'trace JSON follows examples/trace.schema.json' '
	"$PY" -c "import jsonschema" &&
	validate "$TRACE_SCHEMA" "$TMP/trace-drift.json" "$TMP/trace-clean.json" "$TMP/trace-hang.json" &&
	jq -e ".status == \"misaligned\"" "$TMP/trace-drift.json" &&
	jq -e ".status == \"ok\" and (.paths | length) == 4" "$TMP/trace-clean.json" &&
	jq ".paths[0].hops[0].status = \"fine\"" "$TMP/trace-drift.json" >"$TMP/bad.json" &&
	! validate "$TRACE_SCHEMA" "$TMP/bad.json" >/dev/null &&
	jq ".paths[0].hops |= .[0:2]" "$TMP/trace-clean.json" >"$TMP/bad.json" &&
	! validate "$TRACE_SCHEMA" "$TMP/bad.json" >/dev/null
'

# A light Prometheus text-format check (tests/unit/test_report_prom.c has the strict one):
# every sample's family has HELP and TYPE first, names and labels are well formed, values
# are numbers, no series twice.
prom_check() {
	awk '
	function fail(m) { printf "line %d: %s: %s\n", NR, m, $0; bad = 1 }
	/^# HELP / { if (split($0, w, " ") < 4) fail("HELP without text"); help[$3] = 1; next }
	/^# TYPE / {
		if ($4 !~ /^(counter|gauge|histogram|summary|untyped)$/ || NF != 4) fail("bad TYPE")
		if (!($3 in help)) fail("TYPE before HELP")
		if ($3 in type) fail("TYPE twice"); type[$3] = 1; next }
	/^#/ { next }
	/^$/ { fail("empty line"); next }
	{
		if (!match($0, /^[a-zA-Z_:][a-zA-Z0-9_:]*/)) { fail("bad name"); next }
		name = substr($0, 1, RLENGTH); rest = substr($0, RLENGTH + 1)
		if (rest ~ /^\{/) {
			if (!match(rest, /^\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\.)*"(,[a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\.)*")*)?\}/)) {
				fail("bad labels"); next }
			series = name substr(rest, 1, RLENGTH); rest = substr(rest, RLENGTH + 1)
		} else series = name
		if (rest !~ /^ ([-+]?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?|[-+]?Inf|NaN)( -?[0-9]+)?$/) fail("bad value")
		if (!(name in type)) fail("sample without TYPE")
		if (series in seen) fail("series twice"); seen[series] = 1; n++
	}
	END { if (!n) { print "no samples"; bad = 1 } exit bad }' "$1"
}

test_expect_success 'verify --format prometheus is well-formed text exposition and agrees with JSON' '
	if command -v promtool >/dev/null 2>&1; then
		promtool check metrics <"$TMP/drift.prom"
	else
		prom_check "$TMP/drift.prom"
	fi &&
	drifted=$(jq .summary.drifted_fields "$TMP/verify-drift.json") &&
	test "$drifted" -gt 0 &&
	test_must_contain "$TMP/drift.prom" "^rocectl_fabric_drift_fields $drifted$" &&
	test $(grep -c "^rocectl_device_up{" "$TMP/drift.prom") = 7 &&
	test_must_contain "$TMP/drift.prom" "^rocectl_devices\{state=\"failed\"\} 0$" &&
	printf "# TYPE x gauge\nx 1\n" >"$TMP/bad.prom" &&
	! prom_check "$TMP/bad.prom" >/dev/null &&
	printf "# HELP x y\n# TYPE x gauge\nx{a=b} 1\n" >"$TMP/bad.prom" &&
	! prom_check "$TMP/bad.prom" >/dev/null
'

test_expect_success 'verify --format dot renders with graphviz' '
	dot -Tsvg "$TMP/drift.dot" >"$TMP/drift.svg" &&
	test_must_contain "$TMP/drift.svg" "<svg" &&
	for d in $HOSTS $SWITCHES; do
		grep -q ">$d<" "$TMP/drift.svg" || { echo "$d not drawn"; exit 1; }
	done
'

test_done
