#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A plain apply (no --confirm) keeps no run record: killed while it writes, what is left of
# it is its journal entries.  `history` lists it as needing recovery until the next plain
# `rollback` restores them (include/rocectl/run_dir.h rc_run_list_open); a simulated host
# (tests/sim/nic), killed at its own crash point (include/rocectl/txn.h), no lab.
. "$SRC_DIR/tests/lib/testlib.sh"

NICSIM="$SRC_DIR/tests/sim/nic/nicsim"
P="$SRC_DIR/policies/roce-lossless.yaml"
ROCECTL_HISTORY="$TMP/history"
ROCECTL_JOURNAL="$TMP/journal"
ROCECTL_LOCK_DIR="$TMP/locks"
export ROCECTL_HISTORY ROCECTL_JOURNAL ROCECTL_LOCK_DIR

on() {
	"$NICSIM" run "$TMP/h" -- "$@"
}
# the NIC's configuration but the mlx5 firmware DSCP map (tests/faults/README.md, "What is
# left out of the comparison")
nic() {
	"$NICSIM" show "$TMP/h" eth0 | grep -v '^fw-dscp2prio '
}

"$NICSIM" init "$TMP/h" --nic eth0,rdma=mlx5_0 >/dev/null
cat >"$TMP/inv.yaml" <<'EOI'
apiVersion: rocectl/v1
kind: Inventory
hosts:
  - {name: gpu001, transport: local, interfaces: [eth0]}
EOI
nic >"$TMP/before"

test_expect_success 'apply killed after its write: history says the run needs recovery' '
	! ROCECTL_CRASH_AT=dev.write.sent on "$ROCECTL" apply -p "$P" -i "$TMP/inv.yaml" \
		>"$TMP/a.out" 2>&1 &&
	! nic | cmp -s - "$TMP/before" &&
	run=$(ls "$ROCECTL_JOURNAL") && test -n "$run" && echo "$run" >"$TMP/run" &&
	"$ROCECTL" history >"$TMP/h.txt" &&
	test_must_contain "$TMP/h.txt" "^$run  [?] .* exit 1  \[needs recovery: killed while writing, 1 device left in the journal; .rocectl rollback. restores it\]" &&
	"$ROCECTL" history --format json >"$TMP/h.json" &&
	jq -e --arg r "$run" ".runs[] | select(.run_id == \$r) | .exit_code == 1 and (.confirm | startswith(\"needs recovery\"))" "$TMP/h.json"
'

test_expect_success 'plain rollback restores it; history no longer lists it' '
	run=$(cat "$TMP/run") &&
	on "$ROCECTL" rollback -i "$TMP/inv.yaml" >"$TMP/r.out" &&
	nic | diff -u "$TMP/before" - &&
	"$ROCECTL" history >"$TMP/h2.txt" &&
	! grep -q "needs recovery: killed while writing" "$TMP/h2.txt"
'

test_done
