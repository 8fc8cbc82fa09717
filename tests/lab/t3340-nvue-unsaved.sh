#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# An NVUE switch whose applied configuration differs from its startup one (Cumulus Linux
# before 5.9, where `nv config apply` does not save; NVUE reference, "Config Commands"):
# a run would save that pending change along with its own (`nv config save` saves the whole
# applied revision) and no restore can unsave it.  apply and enforce refuse to write such a
# switch, over SSH and REST, unless --save-pending; `rollback RUN` of a finished run
# restores it without saving.  The lab's NVUE leaf imitates Cumulus Linux 5.8.
# Witness: the simulator's state file (applied and startup), never rocectl.
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"
. "$SRC_DIR/tests/lib/rollbacklib.sh"

LAB_CMD="$SRC_DIR/tests/lab/lab"
SIMCTL="$SRC_DIR/tests/sim/switch/simctl"
LAB="$TMP/lab"
POLICY="$SRC_DIR/policies/roce-lossless.yaml"
JOURNAL="$TMP/journal"
ROCECTL_HISTORY="$TMP/history"
export BUILD_DIR ROCECTL ROCECTL_HISTORY

test_needs root

test_at_exit '"$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true'

state() {
	"$SIMCTL" state "$LAB/switchsim" leaf01
}

# applied == startup on the leaf (0), or not (1)
saved() {
	state | jq -e '.nvue | (.startup // .applied) == .applied' >/dev/null
}

# a change applied behind rocectl's back, not saved (the ports trust their default
# priority, as `nv set qos mapping PROFILE trust port` would)
pending_change() {
	prof=$(state | jq -r '[.operational.interface[].qos.mapping.profile // empty][0]') &&
		test -n "$prof" &&
		"$SIMCTL" fault "$LAB/switchsim" leaf01 drift "qos.mapping.$prof.trust=port" \
			>/dev/null &&
		! saved
}

test_expect_success 'bring-up: an NVUE leaf on Cumulus Linux 5.8, one host' '
	"$LAB_CMD" up "$LAB" --hosts 1 --nics 1 --leaves 1 --spines 0 --platforms nvue \
		--model SN5400@5.8 >/dev/null &&
	state | jq -e ".version == \"5.8.0\"" >/dev/null && saved
'

test_expect_success 'nothing pending: apply writes and saves (5.8 does not save by itself)' '
	rc apply -p "$POLICY" -i "$LAB/inventory.yaml" >"$TMP/a0.out" &&
	saved && view leaf01 >"$TMP/policy"
'

for inv in inventory inventory-rest; do
	test_expect_success "a change pending: $inv apply refuses, nothing written, startup as found" '
		"$LAB_CMD" down "$LAB" >/dev/null 2>&1; "$LAB_CMD" up "$LAB" --hosts 1 --nics 1 \
			--leaves 1 --spines 0 --platforms nvue --model SN5400@5.8 >/dev/null &&
		pending_change && view leaf01 >"$TMP/pre.$inv" &&
		test_expect_code 1 rc apply -p "$POLICY" -i "$LAB/$inv.yaml" \
			>"$TMP/r.$inv.out" 2>"$TMP/r.$inv.err" &&
		cat "$TMP/r.$inv.out" &&
		test_must_contain "$TMP/r.$inv.out" "^leaf01 .*nothing written: the applied configuration differs from the startup one" &&
		test_must_contain "$TMP/r.$inv.out" "save-pending" &&
		view leaf01 >"$TMP/post.$inv" && differences "$TMP/pre.$inv" "$TMP/post.$inv" &&
		! saved &&
		test_expect_code 1 rc enforce -p "$POLICY" -i "$LAB/$inv.yaml" --disruptive allow \
			>"$TMP/e.$inv.out" 2>"$TMP/e.$inv.err" &&
		cat "$TMP/e.$inv.out" "$TMP/e.$inv.err" &&
		grep -q "differs from the startup one" "$TMP/e.$inv.out" "$TMP/e.$inv.err" &&
		view leaf01 >"$TMP/post2.$inv" && differences "$TMP/pre.$inv" "$TMP/post2.$inv"
	'
done

test_expect_success '--save-pending: apply writes and saves, the pending change along' '
	rc --save-pending apply -p "$POLICY" -i "$LAB/inventory.yaml" >"$TMP/s.out" &&
	saved
'

# The run above finished and saved; a change is pending again: its rollback restores the
# values and does not save them (rollback RUN of a finished run, docs/ENFORCE.md).
test_expect_success 'rollback RUN of a finished run with a change pending: restored, not saved' '
	run=$(sed -n "s/^run //p" "$TMP/s.out") && test -n "$run" &&
	st=$(state | jq -cS .nvue.startup) &&
	pending_change &&
	rc rollback "$run" -i "$LAB/inventory.yaml" >"$TMP/rb.out" &&
	cat "$TMP/rb.out" &&
	test_must_contain "$TMP/rb.out" "^.leaf01.: not saved" &&
	test "$(state | jq -cS .nvue.startup)" = "$st"
'

test_done
