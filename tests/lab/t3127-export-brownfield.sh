#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# rocectl export from a fabric set up by hand, as operators do before rocectl: the hosts
# with `dcb app ... dscp-prio 26:3` and PFC on 3 (their RDMA ToS left at its default 0), an
# NVUE leaf with `nv set qos roce`, an EOS leaf with `qos map dscp 26 to traffic-class 3`.
# The export takes RoCE's DSCP from the maps the devices agree on (26), never from the
# hosts' default ToS (0: planning with that would make best-effort traffic lossless), names
# the dissenting hosts, and turns what it cannot express into warnings, exit 0.  Then, on
# each platform and after the shipped policy was applied: export keeps the ets section and
# plan with the export finds nothing to change.
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

LAB_CMD="$SRC_DIR/tests/lab/lab"
LAB="$TMP/lab"
INV="$LAB/inventory.yaml"
ROCECTL_JOURNAL="$TMP/journal"
ROCECTL_LOCK_DIR="$TMP/locks"
ROCECTL_HISTORY="$TMP/history"
export BUILD_DIR ROCECTL ROCECTL_JOURNAL ROCECTL_LOCK_DIR ROCECTL_HISTORY

test_needs root

test_at_exit '"$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true'

rc() {
	"$LAB_CMD" exec "$LAB" -- "$ROCECTL" "$@"
}

test_expect_success 'a lab set up by hand: dcb app 26:3 on the hosts, nv set qos roce, EOS qos map' '
	"$LAB_CMD" up "$LAB" --hosts 2 --nics 1 --leaves 2 --spines 0 \
		--platforms nvue,eos >/dev/null &&
	for h in gpu001 gpu002; do
		"$LAB_CMD" ssh "$LAB" "$h" "dcb app add dev enp12s0np0 dscp-prio 26:3 &&
			dcb pfc set dev enp12s0np0 prio-pfc 3:on" || exit 1
	done &&
	"$LAB_CMD" ssh "$LAB" leaf01 "nv set qos roce && nv config apply -y" >/dev/null &&
	"$LAB_CMD" ssh "$LAB" leaf02 "configure
qos map dscp 26 to traffic-class 3
interface Ethernet1-2
qos trust dscp
priority-flow-control on
priority-flow-control priority 3 no-drop
end" >"$TMP/eos.out" 2>&1 &&
	"$LAB_CMD" ssh "$LAB" leaf02 "show running-config" | grep -q "qos map dscp 26 to traffic-class 3"
'

test_expect_success 'export writes roce.dscp 26 from the maps, not the hosts default ToS 0; exit 0' '
	rc export -i "$INV" -o "$TMP/exp.yaml" 2>"$TMP/err" || { cat "$TMP/err"; exit 1; } &&
	grep -qx "roce: {dscp: 26, priority: 3}" "$TMP/exp.yaml" &&
	grep -q "^  priorities: \[3\]$" "$TMP/exp.yaml" &&
	grep -qx "host: {roce_tos: auto}" "$TMP/exp.yaml" &&
	test_must_contain "$TMP/exp.yaml" "^# roce.dscp 26: [0-9]+ port\(s\) map it to lossless priority 3, the hosts. own DSCP entries" &&
	test_must_contain "$TMP/exp.yaml" "^# disagree: host.roce_tos 106 \(DSCP 26\) exported.* gpu001 has 0 \(DSCP 0\); gpu002 has 0 \(DSCP 0\)" &&
	test_must_not_contain "$TMP/err" "no policy can express" &&
	test_must_contain "$TMP/err" "^rocectl export: warning: gpu001 enp12s0np0 roce_tos: 0, the export says 106" &&
	test_must_contain "$TMP/err" "^export: 4 device\(s\) read, [0-9]+ switch override\(s\), [1-9][0-9]* warning\(s\)"
'

test_expect_success 'plan with the export never makes DSCP 0 (best effort) lossless' '
	st=0 && { rc plan -p "$TMP/exp.yaml" -i "$INV" >"$TMP/plan.txt" 2>&1 || st=$?; } &&
	test "$st" -le 2 &&
	test_must_not_contain "$TMP/plan.txt" "dscp2prio\[0\]" &&
	test_must_not_contain "$TMP/plan.txt" "dscp2prio\[26\]"
'

test_expect_success 'the shipped policy applies on the hand-made lab (NVUE in RoCE mode included) and verifies' '
	rc apply -p "$SRC_DIR/policies/roce-lossless.yaml" -i "$INV" >"$TMP/ship" 2>&1 ||
		{ tail -n 30 "$TMP/ship"; exit 1; } &&
	rc verify -p "$SRC_DIR/policies/roce-lossless.yaml" -i "$INV" >"$TMP/shipv" 2>&1 ||
		{ tail -n 30 "$TMP/shipv"; exit 1; }
'

test_expect_success 'the lab goes down' '
	"$LAB_CMD" down "$LAB" >/dev/null
'

# each platform's fabric, then a mixed one, the shipped policy applied: export keeps ets,
# plan finds nothing
for p in nvue sonic eos nvue,sonic,eos; do
	# one leaf; the mixed fabric: a leaf of each of the first two, a spine of the third
	case $p in *,*) shape="--leaves 2 --spines 1" devices=5 ;; *) shape="--leaves 1 --spines 0" devices=3 ;; esac
	test_expect_success "$p: after apply, export keeps the ets section; plan with it: no change" '
		"$LAB_CMD" up "$LAB" --hosts 2 --nics 1 '"$shape"' \
			--platforms '"$p"' >/dev/null &&
		rc apply -p "$SRC_DIR/policies/roce-lossless.yaml" -i "$INV" >"$TMP/apply" 2>&1 ||
			{ cat "$TMP/apply"; exit 1; } &&
		rc export -i "$INV" -o "$TMP/exp-'"$p"'.yaml" 2>"$TMP/err" &&
		test_must_contain "$TMP/err" "0 warning\(s\)" &&
		grep -qx "  - {traffic_class: 3, mode: dwrr, bandwidth: 50%}" "$TMP/exp-'"$p"'.yaml" &&
		grep -qx "  - {traffic_class: 6, mode: strict}" "$TMP/exp-'"$p"'.yaml" &&
		grep -qx "roce: {dscp: 26, priority: 3}" "$TMP/exp-'"$p"'.yaml" &&
		rc plan -p "$TMP/exp-'"$p"'.yaml" -i "$INV" >"$TMP/plan" 2>&1 &&
		test_must_contain "$TMP/plan" "^plan: 0 changes on 0 of '"$devices"'" &&
		"$LAB_CMD" down "$LAB" >/dev/null
	'
done

test_done
