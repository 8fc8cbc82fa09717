#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A run whose owner is alive but hung (include/rocectl/confirm.h rc_confirm_hung): the confirm
# timer of `apply --confirm` takes the deadline and then stops (ROCECTL_HANG_AT, SIGSTOP: as
# a process stuck on a device that never answers, alive, its run held).  Within the run's
# grace it is left alone; past it `history` says "owner hung", plain `rollback` says what to
# do (exit 1), `rollback RUN` refuses and names --force, and `rollback RUN --force` stops the
# timer and restores the host exactly.  A simulated host (tests/sim/nic), no lab.
. "$SRC_DIR/tests/lib/testlib.sh"

NICSIM="$SRC_DIR/tests/sim/nic/nicsim"
P="$SRC_DIR/policies/roce-lossless.yaml"
ROCECTL_HISTORY="$TMP/history"
ROCECTL_JOURNAL="$TMP/journal"
ROCECTL_LOCK_DIR="$TMP/locks"
export ROCECTL_HISTORY ROCECTL_JOURNAL ROCECTL_LOCK_DIR
RUNS="$ROCECTL_HISTORY/runs"

on() {
	"$NICSIM" run "$TMP/h" -- "$@"
}
# the NIC's configuration as the simulator holds it, but the mlx5 firmware DSCP map: deleting
# an APP entry maps its DSCP to priority 0 and no kernel interface reaches the pre-run value
# (tests/faults/README.md, "What is left out of the comparison")
nic() {
	"$NICSIM" show "$TMP/h" eth0 | grep -v '^fw-dscp2prio '
}
# gone, or a zombie nobody reaps (the timer's parent is init): not running
gone() {
	st=$(sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' "/proc/$1/status" 2>/dev/null)
	test -z "$st" || test "$st" = Z
}
# the run's record field $2 (jq filter)
rec() {
	jq -r "$2" "$RUNS/$1/record.json"
}

"$NICSIM" init "$TMP/h" --nic eth0,rdma=mlx5_0 >/dev/null
cat >"$TMP/inv.yaml" <<'EOI'
apiVersion: rocectl/v1
kind: Inventory
hosts:
  - {name: gpu001, transport: local, interfaces: [eth0]}
EOI
nic >"$TMP/before"
# the stopped timer must not outlive the test
test_at_exit 'p=$(jq -r .timer_pid "$RUNS"/*/record.json 2>/dev/null); [ -n "$p" ] && [ "$p" -gt 1 ] && kill -9 $p 2>/dev/null'

test_expect_success 'apply --confirm 2s: its timer takes the deadline, then hangs' '
	ROCECTL_HANG_AT=timer.fired on "$ROCECTL" apply -p "$P" -i "$TMP/inv.yaml" \
		--confirm 2s >"$TMP/a.out" &&
	run=$(sed -n "s/^confirm with: rocectl confirm \([^ ]*\) .*/\1/p" "$TMP/a.out") &&
	test -n "$run" && echo "$run" >"$TMP/run" &&
	n=0 && until [ "$(rec "$run" .state)" = "rolling back" ]; do
		n=$((n + 1)) && [ $n -le 100 ] && sleep 0.2 || return 1
	done &&
	pid=$(rec "$run" .owner_pid) && test "$pid" = "$(rec "$run" .timer_pid)" &&
	n=0 && until grep -q "^State:.*stopped" /proc/$pid/status; do
		n=$((n + 1)) && [ $n -le 50 ] && sleep 0.2 || return 1
	done &&
	test "$(rec "$run" .grace_s)" = 10 &&
	! nic | cmp -s - "$TMP/before"
'

test_expect_success 'within its grace the owner is busy, not hung: --force does not take it' '
	run=$(cat "$TMP/run") &&
	test_expect_code 1 on "$ROCECTL" rollback "$run" --force 2>"$TMP/early.err" &&
	test_must_contain "$TMP/early.err" "being rolled back by pid .* now \\(not hung" &&
	kill -0 "$(rec "$run" .owner_pid)" &&
	test "$(rec "$run" .state)" = "rolling back"
'

test_expect_success 'past its grace: history says owner hung, rollback names --force' '
	run=$(cat "$TMP/run") &&
	since=$(stat -c %Y "$RUNS/$run/record.json") &&
	while [ "$(date +%s)" -le $((since + 11)) ]; do sleep 1; done &&
	"$ROCECTL" history >"$TMP/h.txt" &&
	test_must_contain "$TMP/h.txt" "^$run  apply .*\[owner hung: rolling back by pid [0-9]*, alive, nothing moved since .*rocectl rollback $run --force" &&
	test_expect_code 1 on "$ROCECTL" rollback -i "$TMP/inv.yaml" >"$TMP/plain.out" 2>"$TMP/plain.err" &&
	test_must_contain "$TMP/plain.err" "run $run: owner hung" &&
	test_expect_code 1 on "$ROCECTL" rollback "$run" 2>"$TMP/r.err" &&
	test_must_contain "$TMP/r.err" "alive but hung .*rocectl rollback $run --force" &&
	test "$(rec "$run" .state)" = "rolling back"
'

test_expect_success 'rollback RUN --force stops the hung timer and restores the host exactly' '
	run=$(cat "$TMP/run") && pid=$(rec "$run" .owner_pid) &&
	on "$ROCECTL" rollback "$run" --force -i "$TMP/inv.yaml" >"$TMP/f.out" 2>"$TMP/f.err" &&
	test_must_contain "$TMP/f.out" "run $run: pid $pid was alive but hung .*stopped; taking the run over" &&
	test_must_contain "$TMP/f.out" "restored .gpu001." &&
	gone "$pid" &&
	test "$(rec "$run" .state)" = "rolled back" &&
	nic | diff -u "$TMP/before" - &&
	"$ROCECTL" history >"$TMP/h2.txt" &&
	test_must_contain "$TMP/h2.txt" "^$run  apply .*\[rolled back \\(timer\\) at " &&
	on "$ROCECTL" rollback -i "$TMP/inv.yaml" >/dev/null
'

test_expect_success '--force names one run' '
	test_expect_code 64 "$ROCECTL" rollback --force 2>"$TMP/u.err" &&
	test_must_contain "$TMP/u.err" "force takes over one RUN"
'

test_done
