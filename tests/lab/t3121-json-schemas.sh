#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every JSON document rocectl writes validates against its schema in examples/ (README.md
# "Exit status and output conventions"), here on a real fabric (tests/lab, NVUE, SONiC and
# EOS) where the documents have content: plan, apply, verify, trace, enforce (repairing and
# blocked by a guardrail), diagnose (clean and congested), counters (totals and deltas),
# render, a saved plan, history, show and diff, discover, a capture's manifest, export,
# apply --confirm then confirm, and the rollback of a finished run; validate, headroom, and
# on a lab host agent (show, state), nccl-env.  Every command `rocectl --help` lists must
# have had a document validated here: the last test fails otherwise.
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

LAB_CMD="$SRC_DIR/tests/lab/lab"
LAB="$TMP/lab"
INV="$LAB/inventory.yaml"
P="$SRC_DIR/policies/roce-lossless.yaml"
ROCECTL_JOURNAL="$TMP/journal"
ROCECTL_LOCK_DIR="$TMP/locks"
ROCECTL_HISTORY="$TMP/history"
export BUILD_DIR ROCECTL ROCECTL_JOURNAL ROCECTL_LOCK_DIR ROCECTL_HISTORY

# Each command whose document was validated is written to $TMP/validated (json, check_as).
: >"$TMP/validated"

test_needs root

test_at_exit '"$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true'

rc() {
	"$LAB_CMD" exec "$LAB" -- "$ROCECTL" "$@"
}
check() {
	python3 "$SRC_DIR/tests/lib/schema_check.py" "$SRC_DIR/examples/$1.schema.json" "$2"
}
# check_as COMMAND SCHEMA FILE: check, and count it as COMMAND's validated document
check_as() {
	check "$2" "$3" && echo "$1" >>"$TMP/validated"
}
# json SCHEMA OUT CMD...: run CMD (exit 0, 1 or 2) and check what it printed
json() {
	schema=$1 out=$2
	shift 2
	rc "$@" >"$TMP/$out.json"
	st=$?
	test "$st" -le 2 || { echo "exit $st: $*" >&2; return 1; }
	check_as "$1" "$schema" "$TMP/$out.json"
}

test_expect_success 'bring-up of an NVUE, SONiC and EOS lab' '
	"$LAB_CMD" up "$LAB" --hosts 2 --leaves 2 --spines 1 --platforms nvue,sonic,eos >/dev/null
'

test_expect_success 'plan, apply, verify and trace: the report schema' '
	json report plan plan -p "$P" -i "$INV" -j &&
	jq -e ".summary.changes > 0" "$TMP/plan.json" &&
	json report apply apply -p "$P" -i "$INV" --format json &&
	json report verify verify -p "$P" -i "$INV" --counters -j &&
	jq -e "all(.devices[]; .read_ms >= 0 and (has(\"apply_ms\") | not))" "$TMP/plan.json" &&
	jq -e "all(.devices[] | select(.changes | length > 0); .apply_ms >= 0) and
		all(.devices[]; .read_ms >= 0)" "$TMP/apply.json" &&
	jq ".devices[0].apply_ms = 1" "$TMP/verify.json" >"$TMP/bad-apply-ms.json" &&
	! check report "$TMP/bad-apply-ms.json" >/dev/null 2>&1 &&
	jq "del(.devices[0].read_ms)" "$TMP/verify.json" >"$TMP/bad-read-ms.json" &&
	! check report "$TMP/bad-read-ms.json" >/dev/null 2>&1 &&
	json trace trace trace -p "$P" -i "$INV" gpu001 gpu002 -j
'

test_expect_success 'a saved plan and a rendered host state: their file schemas' '
	"$LAB_CMD" drift "$LAB" 11 3 >/dev/null &&
	st=0 && { rc plan -p "$P" -i "$INV" -o "$TMP/saved-plan.json" >/dev/null || st=$?; } &&
	test "$st" = 2 &&
	check plan-file "$TMP/saved-plan.json" &&
	rc render -p "$P" -i "$INV" --host gpu001 -o "$TMP/desired.json" &&
	check desired "$TMP/desired.json" &&
	json desired desired2 render -p "$P" -i "$INV" --host gpu002 -j
'

test_expect_success 'enforce: blocked by a guardrail, then repairing, then a quarantined device' '
	"$LAB_CMD" drift "$LAB" 12 8 >/dev/null &&
	json enforce enf-blocked enforce -p "$P" -i "$INV" --max-changes 1 --disruptive allow -j &&
	jq -e ".guardrail == \"max-changes\"" "$TMP/enf-blocked.json" &&
	json enforce enf enforce -p "$P" -i "$INV" --canary 1 --canary-wait 1s -j &&
	jq -e ".guardrail == null and .summary.repaired_fields > 0" "$TMP/enf.json" &&
	jq -e ".canary.result == \"clean\" and (.canary.devices | length) > 0" "$TMP/enf.json" &&
	sed "s/address: 127.1.0.1/address: 127.9.9.9/" "$INV" >"$TMP/inv-bad.yaml" &&
	{ rc enforce -p "$P" -i "$TMP/inv-bad.yaml" --quarantine-after 1 >/dev/null 2>&1; true; } &&
	json enforce enf-q enforce -p "$P" -i "$TMP/inv-bad.yaml" --quarantine-after 1 -j &&
	jq -e "any(.devices[]; .status == \"quarantined\")" "$TMP/enf-q.json"
'

test_expect_success 'diagnose: a clean window and a congested one' '
	json diagnose diag-clean diagnose -p "$P" -i "$INV" --interval 300ms -j &&
	jq -e ".status == \"clean\" and (.paths | length) > 0" "$TMP/diag-clean.json" &&
	root=$(awk "\$1 == \"link\" && \$3 ~ /^leaf/ && \$2 ~ /^gpu/ { print \$3; exit }" \
		"$LAB/topology") &&
	"$LAB_CMD" congest "$LAB" "$root" >/dev/null &&
	json diagnose diag-cong diagnose -p "$P" -i "$INV" --interval 1s --format json &&
	jq -e ".status == \"not_clean\" and any(.paths[].hops[]; .role == \"root\")" \
		"$TMP/diag-cong.json" &&
	json diagnose diag-class diagnose -p "$P" -i "$INV" --interval 1s --by class -j &&
	jq -e ".by == \"class\" and .status == \"not_clean\" and any(.ports[]; .role == \"root\")" \
		"$TMP/diag-class.json"
'

test_expect_success 'counters of the fabric: totals, deltas, a saved sample and deltas since it' '
	json counters ctr counters -i "$INV" -p "$P" -j &&
	json counters ctr-int counters -i "$INV" --interval 1s -j &&
	jq -e ".mode == \"delta\" and .pauses > 0 and .exit_code == 2" "$TMP/ctr-int.json" &&
	json counters ctr-save counters -i "$INV" --save -j &&
	json counters ctr-since counters -i "$INV" --since "$(jq -r .run_id "$TMP/ctr-save.json")" -j &&
	"$LAB_CMD" congest "$LAB" --clear >/dev/null &&
	json counters ctr-quiet counters -i "$INV" --interval 1s -j &&
	jq -e ".pauses == 0" "$TMP/ctr-quiet.json"
'

test_expect_success 'history, show and diff of the runs above' '
	json history hist history -j &&
	jq -r ".runs[].command" "$TMP/hist.json" | sort | uniq -c &&
	test "$(jq "[.runs[] | select(.command == \"enforce\")] | length" "$TMP/hist.json")" -ge 2 &&
	first=$(jq -r ".runs[0].run_id" "$TMP/hist.json") &&
	last=$(jq -r ".runs[-1].run_id" "$TMP/hist.json") &&
	json show show show "$first" -j &&
	json diff diff diff "$first" "$last" -j
'

test_expect_success 'validate and headroom; agent and nccl-env on a lab host' '
	json validate val validate -p "$P" -i "$INV" --format json &&
	json headroom hr headroom --speed 400G --cable 30m -j &&
	"$LAB_CMD" ssh "$LAB" gpu001 "rocectl agent show -j" >"$TMP/agent.json" &&
	check_as agent agent "$TMP/agent.json" &&
	"$LAB_CMD" ssh "$LAB" gpu001 "rocectl agent state -j" >"$TMP/agent-state.json" &&
	check agent-state "$TMP/agent-state.json" &&
	jq -e "(.interfaces | length) > 0 and all(.interfaces[]; .qos != null)" \
		"$TMP/agent-state.json" &&
	"$LAB_CMD" ssh "$LAB" gpu001 "rocectl nccl-env -p $P -j" >"$TMP/nccl.json" &&
	check_as nccl-env nccl-env "$TMP/nccl.json"
'

test_expect_success 'discover: every device read over LLDP, the links of the fabric' '
	json discover disc discover -i "$INV" -j &&
	jq -e ".exit_code == 0 and (.links | length) > 0" "$TMP/disc.json" &&
	jq -e "any(.devices[]; .lldp == \"read\")" "$TMP/disc.json" &&
	rc discover -i "$INV" >"$TMP/disc.txt" &&
	test "$(grep -c "^  - {a: " "$TMP/disc.txt")" = \
		"$(jq "[.links[] | select(.b != null)] | length" "$TMP/disc.json")"
'

test_expect_success 'capture: the manifest names every file written, on every platform' '
	json capture cap capture -i "$INV" --limit "leaf*,spine*" -o "$TMP/cap" -j &&
	jq -e ".exit_code == 0 and (.devices | length) == 3" "$TMP/cap.json" &&
	jq -r ".devices[] | .directory + \"/\" + .files[].file" "$TMP/cap.json" >"$TMP/cap.files" &&
	test -s "$TMP/cap.files" &&
	while read -r f; do test -s "$f" || { echo "missing $f" >&2; exit 1; }; done <"$TMP/cap.files" &&
	test "$(wc -l <"$TMP/cap.files")" = "$(find "$TMP/cap" -name "*.txt" | wc -l)" &&
	jq -e "[.devices[].platform] | sort == [\"eos\", \"nvue\", \"sonic\"]" "$TMP/cap.json"
'

test_expect_success 'export: the policy as JSON, loadable as YAML from -o, with the differences' '
	json export exp export -i "$INV" -o "$TMP/exp.yaml" --overrides "$TMP/exp-ov.yaml" -j &&
	jq -e ".policy.kind == \"Policy\" and .devices_read > 0" "$TMP/exp.json" &&
	jq -e ".exit_code == 0 and (.differences | type) == \"array\"" "$TMP/exp.json" &&
	rc validate -p "$TMP/exp.yaml" >/dev/null &&
	jq -j .policy_yaml "$TMP/exp.json" | cmp - "$TMP/exp.yaml" &&
	jq -e ".policy.pfc.priorities == [3]" "$TMP/exp.json"
'

test_expect_success 'apply --confirm, then confirm -j: kept, and said so in JSON' '
	rc apply -p "$P" -i "$INV" >/dev/null &&
	rc plan -p "$P" -i "$INV" >/dev/null &&
	sed "s/min_threshold: 150KB/min_threshold: 300KB/" "$P" >"$TMP/p2.yaml" &&
	rc apply -p "$TMP/p2.yaml" -i "$INV" --confirm 10m -j >"$TMP/capply.json" &&
	check report "$TMP/capply.json" &&
	run=$(jq -r .run_id "$TMP/capply.json") && test -n "$run" && echo "$run" >"$TMP/crun" &&
	json confirm conf confirm "$run" -j &&
	jq -e ".status == \"confirmed\" and .devices > 0 and .exit_code == 0" "$TMP/conf.json" &&
	json confirm conf2 confirm "$run" --format json &&
	jq -e ".status == \"already-confirmed\"" "$TMP/conf2.json"
'

test_expect_success 'rollback -j of that finished run: undone from its history record' '
	run=$(cat "$TMP/crun") &&
	json rollback rb rollback "$run" -i "$INV" -j &&
	jq -e ".source == \"history\" and .status == \"restored\" and .exit_code == 0" "$TMP/rb.json" &&
	jq -e "(.devices | length) > 0 and all(.devices[]; .status == \"restored\")" "$TMP/rb.json" &&
	rc plan -p "$P" -i "$INV" >/dev/null &&
	test_expect_code 2 rc plan -p "$TMP/p2.yaml" -i "$INV" >/dev/null
'

test_expect_success 'every command of rocectl --help had its JSON validated above' '
	"$ROCECTL" --help | awk "/^commands:/ { f = 1; next } f && NF { print \$1 }" \
		| grep -v "^exit$" | sort -u >"$TMP/cmds" &&
	test "$(wc -l <"$TMP/cmds")" -ge 20 &&
	sort -u "$TMP/validated" >"$TMP/validated.sorted" &&
	comm -23 "$TMP/cmds" "$TMP/validated.sorted" >"$TMP/missing" &&
	{ test ! -s "$TMP/missing" || { echo "no validated JSON for:" $(cat "$TMP/missing") >&2; false; }; }
'

test_done
