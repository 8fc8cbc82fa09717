#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# rocectl diff RUN_A RUN_B: what differs between the records of two runs.  The runs are
# real: plan, apply and plan again of a simulated host (tests/sim/nic) managed through an
# inventory; `rocectl show` of the same runs is what diff must agree with.
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
# run N: the id of the Nth run recorded (1 = oldest)
run() {
	"$ROCECTL" history -j | jq -r ".runs[$(($1 - 1))].run_id"
}
check() {
	python3 "$SRC_DIR/tests/lib/schema_check.py" "$SRC_DIR/examples/$1.schema.json" "$2"
}

"$NICSIM" init "$TMP/h" --nic eth0,rdma=mlx5_0 >/dev/null
cat >"$TMP/inv.yaml" <<'EOI'
apiVersion: rocectl/v1
kind: Inventory
hosts:
  - {name: gpu001, transport: local, interfaces: [eth0]}
EOI

test_expect_success 'three runs recorded: plan (changes), apply, plan (none)' '
	test_expect_code 2 on "$ROCECTL" plan -p "$P" -i "$TMP/inv.yaml" >/dev/null &&
	on "$ROCECTL" apply -p "$P" -i "$TMP/inv.yaml" >/dev/null &&
	on "$ROCECTL" plan -p "$P" -i "$TMP/inv.yaml" >/dev/null &&
	test "$("$ROCECTL" history -j | jq ".runs | length")" = 3
'

test_expect_success 'a run against itself: no difference, exit 0' '
	"$ROCECTL" diff "$(run 1)" "$(run 1)" >"$TMP/same.txt" &&
	test_must_contain "$TMP/same.txt" "^0 difference" &&
	"$ROCECTL" diff -j "$(run 2)" "$(run 2)" >"$TMP/same.json" &&
	jq -e ".status == \"same\" and .exit_code == 0 and .devices == [] and .inputs == []" \
		"$TMP/same.json" &&
	check diff "$TMP/same.json"
'

test_expect_success 'plan then apply: every planned field, as read -> as applied, exit 2' '
	test_expect_code 2 "$ROCECTL" diff -j "$(run 1)" "$(run 2)" >"$TMP/d12.json" &&
	check diff "$TMP/d12.json" &&
	jq -e ".status == \"differ\" and .exit_code == 2 and .a.command == \"plan\" and
		.b.command == \"apply\" and .devices[0].device == \"gpu001\" and
		.devices[0].a.result == \"planned\" and .devices[0].b.result == \"applied\"" \
		"$TMP/d12.json" &&
	# the same fields and values `show` gives: old of the plan, new of the apply
	"$ROCECTL" show -j "$(run 1)" | jq -r ".devices[0].changes[] | [.port, .field, .old] | @tsv" \
		>"$TMP/plan.old" &&
	"$ROCECTL" show -j "$(run 2)" | jq -r ".devices[0].changes[] | [.port, .field, .new] | @tsv" \
		>"$TMP/apply.new" &&
	jq -r ".devices[0].fields[] | [.port, .field, .a] | @tsv" "$TMP/d12.json" >"$TMP/diff.a" &&
	jq -r ".devices[0].fields[] | [.port, .field, .b] | @tsv" "$TMP/d12.json" >"$TMP/diff.b" &&
	test -s "$TMP/plan.old" &&
	diff -u "$TMP/plan.old" "$TMP/diff.a" && diff -u "$TMP/apply.new" "$TMP/diff.b" &&
	jq -e "[.devices[0].fields[] | select(.field == \"pfc_enabled\")] == [{\"port\": \"eth0\",
		\"field\": \"pfc_enabled\", \"a\": \"none\", \"b\": \"3\"}]" "$TMP/d12.json" &&
	test_expect_code 2 "$ROCECTL" diff "$(run 1)" "$(run 2)" >"$TMP/d12.txt" &&
	test_must_contain "$TMP/d12.txt" "^gpu001: planned -> applied" &&
	test_must_contain "$TMP/d12.txt" "eth0 +pfc_enabled +none -> 3"
'

test_expect_success 'apply then a plan that found nothing: the fields are not recorded there' '
	test_expect_code 2 "$ROCECTL" diff -j "$(run 2)" "$(run 3)" >"$TMP/d23.json" &&
	check diff "$TMP/d23.json" &&
	jq -e "all(.devices[0].fields[]; .b == null) and .devices[0].b.result != \"applied\"" \
		"$TMP/d23.json" &&
	test_expect_code 2 "$ROCECTL" diff "$(run 2)" "$(run 3)" >"$TMP/d23.txt" &&
	test_must_contain "$TMP/d23.txt" "pfc_enabled +3 -> not recorded"
'

test_expect_success 'another policy: the input digests differ' '
	sed "s/name: roce-lossless/name: roce-lossless-2/" "$P" >"$TMP/p2.yaml" &&
	on "$ROCECTL" plan -p "$TMP/p2.yaml" -i "$TMP/inv.yaml" >/dev/null &&
	test_expect_code 2 "$ROCECTL" diff -j "$(run 3)" "$(run 4)" >"$TMP/d34.json" &&
	check diff "$TMP/d34.json" &&
	jq -e ".inputs == [{\"input\": \"policy\", \"a\": \"$(sha256sum "$P" | cut -d" " -f1)\",
		\"b\": \"$(sha256sum "$TMP/p2.yaml" | cut -d" " -f1)\"}]" "$TMP/d34.json"
'

test_expect_success 'history and show JSON validate against their schemas' '
	"$ROCECTL" history -j >"$TMP/h.json" && check history "$TMP/h.json" &&
	"$ROCECTL" history --format json --device gpu001 >"$TMP/h2.json" && check history "$TMP/h2.json" &&
	"$ROCECTL" show --json "$(run 2)" >"$TMP/s.json" && check show "$TMP/s.json"
'

test_expect_success 'a run that does not exist is an error (1); not two runs is usage (64)' '
	test_expect_code 1 "$ROCECTL" diff "$(run 1)" 20990101T000000.000Z-1 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "rocectl diff: " &&
	test_expect_code 1 "$ROCECTL" diff "$(run 1)" ../x 2>/dev/null &&
	test_expect_code 64 "$ROCECTL" diff "$(run 1)" 2>/dev/null &&
	test_expect_code 64 "$ROCECTL" diff a b c 2>/dev/null &&
	test_expect_code 64 "$ROCECTL" diff --format yaml a b 2>/dev/null
'

test_done
