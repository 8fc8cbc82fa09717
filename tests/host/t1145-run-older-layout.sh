#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A run made before the run directory (include/rocectl/run_dir.h) kept its record, its log
# and its kept entries in CONFIRM_DIR ("confirm" next to the journal: RUN.json, RUN.lock,
# RUN.log, RUN/DEVICE.json).  Such a run is still listed, confirmed, rolled back by
# `rollback RUN` and finished by plain `rollback`, where it is.  The older layout is made
# here from a run of today moved back into it, its record without the fields added since
# (grace_s); a simulated host (tests/sim/nic), no lab.
. "$SRC_DIR/tests/lib/testlib.sh"

NICSIM="$SRC_DIR/tests/sim/nic/nicsim"
P="$SRC_DIR/policies/roce-lossless.yaml"
ROCECTL_HISTORY="$TMP/history"
ROCECTL_JOURNAL="$TMP/journal"
ROCECTL_LOCK_DIR="$TMP/locks"
export ROCECTL_HISTORY ROCECTL_JOURNAL ROCECTL_LOCK_DIR
RUNS="$ROCECTL_HISTORY/runs"
OLD="$TMP/confirm"

on() {
	"$NICSIM" run "$TMP/h" -- "$@"
}
# the NIC's configuration but the mlx5 firmware DSCP map (tests/faults/README.md, "What is
# left out of the comparison")
nic() {
	"$NICSIM" show "$TMP/h" eth0 | grep -v '^fw-dscp2prio '
}
# apply --confirm 5m, its timer stopped, the run moved into the older layout: its id
older_run() {
	on "$ROCECTL" apply -p "$P" -i "$TMP/inv.yaml" --confirm 5m >"$TMP/a.out" || return 1
	r=$(sed -n "s/^confirm with: rocectl confirm \([^ ]*\) .*/\1/p" "$TMP/a.out")
	t=$(jq -r .timer_pid "$RUNS/$r/record.json")
	[ -n "$r" ] && [ "$t" -gt 1 ] && kill -9 "$t" || return 1
	while [ -n "$(sed -n 's/^State:[[:space:]]*\([A-Y]\).*/\1/p' "/proc/$t/status" 2>/dev/null)" ]; do
		sleep 0.1
	done
	rm -f "$OLD/$r.json" "$OLD/$r.log" &&
		jq 'del(.grace_s)' "$RUNS/$r/record.json" >"$OLD/$r.json" && chmod 600 "$OLD/$r.json" &&
		mv "$RUNS/$r/journal/$r" "$OLD/$r" && mv "$RUNS/$r/timer.log" "$OLD/$r.log" &&
		: >"$OLD/$r.lock" && chmod 600 "$OLD/$r.lock" &&
		rm "$RUNS/$r/record.json" "$RUNS/$r/record.lock" && rmdir "$RUNS/$r/journal" &&
		echo "$r"
}

"$NICSIM" init "$TMP/h" --nic eth0,rdma=mlx5_0 >/dev/null
cat >"$TMP/inv.yaml" <<'EOI'
apiVersion: rocectl/v1
kind: Inventory
hosts:
  - {name: gpu001, transport: local, interfaces: [eth0]}
EOI
nic >"$TMP/before"

test_expect_success 'an older run is listed by history, pending its confirm' '
	run=$(older_run) && echo "$run" >"$TMP/r1" &&
	test -f "$OLD/$run.json" && test ! -L "$OLD/$run.json" && test -f "$OLD/$run/gpu001.json" &&
	"$ROCECTL" history >"$TMP/h.txt" &&
	test_must_contain "$TMP/h.txt" "^$run  apply .*\[pending confirm until "
'

test_expect_success 'rollback RUN restores it from where it is, and its record says so there' '
	run=$(cat "$TMP/r1") &&
	on "$ROCECTL" rollback "$run" -i "$TMP/inv.yaml" >"$TMP/r.out" &&
	test_must_contain "$TMP/r.out" "run $run was waiting for a confirm: restoring it from .$OLD." &&
	test_must_contain "$TMP/r.out" "restored .gpu001. \\(1 port\\) from run $run" &&
	jq -e ".state == \"rolled back\" and .reason == \"rollback\"" "$OLD/$run.json" &&
	test ! -e "$RUNS/$run/record.json" &&
	nic | diff -u "$TMP/before" -
'

test_expect_success 'confirm RUN keeps an older run and drops its entries' '
	run=$(older_run) &&
	on "$ROCECTL" confirm "$run" >"$TMP/c.out" &&
	test_must_contain "$TMP/c.out" "run $run confirmed: its 1 device keep the change" &&
	jq -e ".state == \"confirmed\"" "$OLD/$run.json" &&
	test ! -e "$OLD/$run" &&
	! nic | cmp -s - "$TMP/before" &&
	on "$ROCECTL" rollback "$run" -i "$TMP/inv.yaml" >/dev/null &&
	nic | diff -u "$TMP/before" -
'

test_expect_success 'plain rollback finishes an older run past its deadline with no timer' '
	run=$(older_run) &&
	jq ".deadline = 1000000000" "$OLD/$run.json" >"$TMP/rec" && cat "$TMP/rec" >"$OLD/$run.json" &&
	"$ROCECTL" history >"$TMP/h2.txt" &&
	test_must_contain "$TMP/h2.txt" "^$run  apply .*\[needs recovery: pending" &&
	on "$ROCECTL" rollback -i "$TMP/inv.yaml" >"$TMP/p.out" &&
	test_must_contain "$TMP/p.out" "run $run needs recovery \\(pending, nobody is finishing it\\)" &&
	jq -e ".state == \"rolled back\"" "$OLD/$run.json" &&
	nic | diff -u "$TMP/before" -
'

test_expect_success 'retention takes an older record that is over' '
	run=$(cat "$TMP/r1") &&
	"$ROCECTL" history --keep 1 >/dev/null &&
	test ! -e "$OLD/$run.json" && test ! -e "$OLD/$run.lock" && test ! -e "$OLD/$run.log"
'

test_done
