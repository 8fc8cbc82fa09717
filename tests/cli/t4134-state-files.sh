#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# State files are trusted no further than their owner: a run record, a journal entry, a
# saved plan or a --desired file that another user owns or can write, a symlink in its
# place, a FIFO given as an input, a truncated record, a run id that does not exist or is
# too long: each refused with a clear error and exit 1 (or 64 for a usage error), never
# "nothing to roll back" with exit 0.
. "$SRC_DIR/tests/lib/testlib.sh"

H="$TMP/history"
J="$TMP/journal"
mkdir -p "$H" "$J" && chmod 0700 "$H" "$J"
export ROCECTL_HISTORY="$H" ROCECTL_JOURNAL="$J" ROCECTL_STATE_DIR="$TMP/state"
RUN=20261203T101500.000Z-42

record() {
	printf '{"schema": "rocectl.history/v1", "run_id": "%s", "command": "apply", "started_epoch": 1, "devices": []}' \
		"$1" >"$H/$1.json" && chmod 0600 "$H/$1.json"
}

test_expect_success 'a truncated history record: rollback RUN exits 1 naming the record' '
	printf "{\"schema\": \"rocectl.history/v1\", \"run_id\": \"%s\", \"comm" "$RUN" >"$H/$RUN.json" &&
	test_expect_code 1 "$ROCECTL" rollback "$RUN" >"$TMP/out" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "$RUN.json" &&
	test_must_not_contain "$TMP/out" "^nothing to roll back"
'

test_expect_success 'a symlinked record, one others can write, one another user owns: exit 1' '
	rm -f "$H/$RUN.json" && record real && ln -s "$H/real.json" "$H/$RUN.json" &&
	test_expect_code 1 "$ROCECTL" rollback "$RUN" 2>"$TMP/e1" &&
	test_must_contain "$TMP/e1" "symbolic link" &&
	rm "$H/$RUN.json" && record "$RUN" && chmod 0666 "$H/$RUN.json" &&
	test_expect_code 1 "$ROCECTL" rollback "$RUN" 2>"$TMP/e2" &&
	test_must_contain "$TMP/e2" "writable by group or others" &&
	chmod 0600 "$H/$RUN.json" && chown 65534 "$H/$RUN.json" &&
	test_expect_code 1 "$ROCECTL" rollback "$RUN" 2>"$TMP/e3" &&
	test_must_contain "$TMP/e3" "owned by uid 65534" &&
	rm "$H/$RUN.json"
'

test_expect_success 'a run id nobody recorded is an error, not an empty rollback' '
	test_expect_code 1 "$ROCECTL" rollback 20261203T999999.000Z-1 >"$TMP/out" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "no run .20261203T999999.000Z-1." &&
	test_must_not_contain "$TMP/out" "^nothing to roll back"
'

test_expect_success 'a 200-character run id is refused whole, never cut and looked up' '
	long=$(printf "2026%0196d" 0) &&
	test_expect_code 1 "$ROCECTL" rollback "$long" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "$long" &&
	test_expect_code 1 "$ROCECTL" show "$long" 2>"$TMP/err2" &&
	test_must_not_contain "$TMP/err2" "Sanitizer"
'

test_expect_success 'a journal entry others can write is not restored from' '
	mkdir -p "$J/20261203T000000Z-1" &&
	echo "{}" >"$J/20261203T000000Z-1/leaf01.json" && chmod 0666 "$J/20261203T000000Z-1/leaf01.json" &&
	test_expect_code 1 "$ROCECTL" rollback >"$TMP/out" 2>"$TMP/err" &&
	cat "$TMP/out" "$TMP/err" >"$TMP/all" &&
	test_must_contain "$TMP/all" "writable by group or others" &&
	rm -rf "$J/20261203T000000Z-1"
'

test_expect_success 'a saved plan that is a symlink or that others can write is refused' '
	echo "{}" >"$TMP/plan.json" && chmod 0666 "$TMP/plan.json" &&
	test_expect_code 1 "$ROCECTL" apply "$TMP/plan.json" 2>"$TMP/p1" &&
	test_must_contain "$TMP/p1" "writable by group or others" &&
	chmod 0600 "$TMP/plan.json" && ln -s "$TMP/plan.json" "$TMP/plan-link.json" &&
	test_expect_code 1 "$ROCECTL" apply "$TMP/plan-link.json" 2>"$TMP/p2" &&
	test_must_contain "$TMP/p2" "symbolic link"
'

test_expect_success 'a --desired file others can write is refused' '
	echo "{}" >"$TMP/desired.json" && chmod 0666 "$TMP/desired.json" &&
	test_expect_code 1 "$ROCECTL" agent plan --desired "$TMP/desired.json" >/dev/null 2>"$TMP/d1" &&
	test_must_contain "$TMP/d1" "writable by group or others"
'

test_expect_success 'a FIFO as the policy, the inventory or a plan: refused at once, not waited on' '
	mkfifo "$TMP/fifo" &&
	test_expect_code 1 timeout 10 "$ROCECTL" validate -p "$TMP/fifo" 2>"$TMP/f1" &&
	test_must_contain "$TMP/f1" "not a regular file" &&
	test_expect_code 1 timeout 10 "$ROCECTL" validate -p "$SRC_DIR/policies/roce-lossless.yaml" \
		-i "$TMP/fifo" 2>"$TMP/f2" &&
	test_must_contain "$TMP/f2" "not a regular file" &&
	test_expect_code 1 timeout 10 "$ROCECTL" apply "$TMP/fifo" 2>"$TMP/f3"
'

test_done
