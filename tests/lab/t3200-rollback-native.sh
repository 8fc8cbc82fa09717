#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# kill -9 of `rocectl apply` at several moments, then `rocectl rollback`, on an NVUE and an
# EOS switch, over SSH and over REST (NVUE API, eAPI).  After the rollback each switch's
# configuration must be EXACTLY its pre-run one -- nothing the run created may remain
# (profiles, explicit settings where the factory had none, added lines) and nothing may be
# left staged (an NVUE pending revision, an EOS configuration session).  Witness: the
# simulators' own state files, normalized as the fault campaign does
# (tests/faults/campaign.py switch_view), never rocectl.
#
# Each kill lands somewhere in a slowed-down apply (every switch command delayed): the
# moments are fractions of the measured length of a clean apply.  Kills that land before
# the journal (nothing written) or after the end (nothing to roll back) still have to
# leave the pre-run or the applied state; at least two per switch and transport must
# land while the device was changed or had something staged, so that the rollback had
# work to do.
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"
. "$SRC_DIR/tests/lib/rollbacklib.sh"

LAB_CMD="$SRC_DIR/tests/lab/lab"
SIMCTL="$SRC_DIR/tests/sim/switch/simctl"
LAB="$TMP/lab"
POLICY="$SRC_DIR/policies/roce-lossless.yaml"
SLOW_MS=100
export BUILD_DIR ROCECTL

test_needs root

test_at_exit '"$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true'

# One trial: kill -9 the apply after `ms`, roll back, compare.  Prints "busy" when the kill
# landed while the device was changed or had something staged.
trial() {
	sw=$1 inv=$2 ms=$3
	JOURNAL="$TMP/journal-$sw-$ms" && rm -rf "$JOURNAL" && put_back "$sw" &&
		view "$sw" >"$TMP/pre" &&
		"$SIMCTL" fault "$LAB/switchsim" "$sw" slow $SLOW_MS >/dev/null || return 1
	setsid "$LAB_CMD" exec "$LAB" -- env ROCECTL_JOURNAL="$JOURNAL" "$ROCECTL" apply \
		-p "$POLICY" -i "$inv" --limit "$sw" >"$TMP/apply.out" 2>&1 &
	pid=$!
	sleep "$(awk -v m="$ms" 'BEGIN { printf "%.3f", m / 1000 }')"
	kill -9 "-$pid" 2>/dev/null # the process group setsid made
	wait "$pid" 2>/dev/null
	"$SIMCTL" fault "$LAB/switchsim" "$sw" clear >/dev/null
	quiesce
	view "$sw" >"$TMP/mid"
	journaled=$(find "$JOURNAL" -name "$sw.json" 2>/dev/null | wc -l)
	if ! rc rollback -i "$inv" --journal "$JOURNAL" >"$TMP/rollback.out" 2>&1; then
		echo "$sw $inv kill at ${ms}ms: rollback failed:" >&2
		cat "$TMP/rollback.out" >&2
		return 1
	fi
	view "$sw" >"$TMP/post"
	if cmp -s "$TMP/pre" "$TMP/post"; then
		if [ "$journaled" != 0 ] && ! cmp -s "$TMP/pre" "$TMP/mid"; then
			echo busy
		fi
		return 0
	fi
	# a run that ended before the kill: nothing journaled, the policy's state
	if [ "$journaled" = 0 ] && cmp -s "$TMP/$sw.golden" "$TMP/post"; then
		return 0
	fi
	echo "$sw $inv kill at ${ms}ms ($journaled journal entries): differs from the pre-run state" >&2
	differences "$TMP/pre" "$TMP/post" >&2
	cat "$TMP/rollback.out" >&2
	return 1
}

# Kills at 1/6 .. 5/6 of a clean apply's length; at least two must find work to undo.  A
# loaded machine stretches the apply past the measured length, so a kill can miss the busy
# part: then more kills, at the twelfths in between (every one must still hold).
kills() {
	sw=$1 inv=$2
	len=$(measure "$sw" "$inv") || return 1
	busy=0 n=0
	for k in 2 4 6 8 10 1 3 5 7 9 11; do
		[ $n -ge 5 ] && [ $busy -ge 2 ] && break
		out=$(trial "$sw" "$inv" $((len * k / 12))) || return 1
		n=$((n + 1))
		[ "$out" = busy ] && busy=$((busy + 1))
	done
	echo "$sw $inv: clean apply ${len}ms, $busy of $n kills left work to undo"
	[ $busy -ge 2 ]
}

test_expect_success 'bring-up of a lab with an NVUE and an EOS leaf' '
	"$LAB_CMD" up "$LAB" --hosts 2 --nics 1 --leaves 2 --spines 0 --platforms nvue,eos \
		>/dev/null &&
	cp "$LAB/switchsim/switches/leaf01.json" "$TMP/leaf01.factory" &&
	cp "$LAB/switchsim/switches/leaf02.json" "$TMP/leaf02.factory"
'

test_expect_success 'NVUE over SSH: kill -9 of apply, rollback gives the pre-run state' '
	kills leaf01 "$LAB/inventory.yaml"
'

test_expect_success 'NVUE over REST: kill -9 of apply, rollback gives the pre-run state' '
	kills leaf01 "$LAB/inventory-rest.yaml"
'

test_expect_success 'EOS over SSH: kill -9 of apply, rollback gives the pre-run state' '
	kills leaf02 "$LAB/inventory.yaml"
'

test_expect_success 'EOS over eAPI: kill -9 of apply, rollback gives the pre-run state' '
	kills leaf02 "$LAB/inventory-rest.yaml"
'

test_done
