#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Device locks across journal directories (engine/run/lock.c) and rollback over a journal
# with a corrupt file (cli/cmd_rollback.c): no lab needed, the devices are never reached.
. "$SRC_DIR/tests/lib/testlib.sh"

POLICY="$SRC_DIR/policies/roce-lossless.yaml"
ROCECTL_LOCK_DIR="$TMP/locks"
export ROCECTL_LOCK_DIR
cat >"$TMP/inv.yaml" <<'EOI'
apiVersion: rocectl/v1
kind: Inventory
switches:
  - name: leaf01
    address: 127.0.0.1
    platform: nvue
    transport: rest
    ports: [swp1]
    credentials: {user: admin, password_env: ROCECTL_T3101_UNSET}
EOI

# hold leaf01's lock as another process would, while running $@
with_lock_held() {
	mkdir -p "$ROCECTL_LOCK_DIR" &&
	printf 'pid 4242\nhost elsewhere\nstarted 2025-01-01T00:00:00Z\ncommand apply\n' \
		>"$ROCECTL_LOCK_DIR/leaf01.lock" &&
	flock "$ROCECTL_LOCK_DIR/leaf01.lock" "$@"
}

test_expect_success 'apply with another journal directory is refused on a locked device' '
	with_lock_held sh -c "\"\$0\" apply -p \"\$1\" -i \"\$2\" --journal \"\$3\" \
		>\"\$4/out\" 2>\"\$4/err\"; echo \$? >\"\$4/st\"" \
		"$ROCECTL" "$POLICY" "$TMP/inv.yaml" "$TMP/other-journal" "$TMP" &&
	test "$(cat "$TMP/st")" = 1 &&
	test_must_contain "$TMP/err" "leaf01. is locked by another rocectl run \(.apply., pid 4242 on host elsewhere, started 2025-01-01T00:00:00Z" &&
	test ! -e "$TMP/other-journal"
'

test_expect_success 'a lock left by a killed run is reported with what to do' '
	{ env -u ROCECTL_T3101_UNSET "$ROCECTL" apply -p "$POLICY" -i "$TMP/inv.yaml" \
		--journal "$TMP/j" >"$TMP/out" 2>"$TMP/err"; st=$?; } ;
	test "$st" = 1 &&
	test_must_contain "$TMP/err" "run .apply., pid 4242 on host elsewhere.*ended without releasing its lock" &&
	test_must_contain "$TMP/err" "rocectl rollback" &&
	test ! -s "$ROCECTL_LOCK_DIR/leaf01.lock"
'

# A journal with one corrupt file and one entry for a device the inventory does not have,
# from a run whose process is gone (the pid of a shell that has exited).
dead=$(sh -c 'echo $$')
RUN="20250101T000000.000Z-$dead"
mkdir -p "$TMP/j/$RUN" && chmod -R 700 "$TMP/j"
printf '{"run_id": "%s", "device": "leaf01"' "$RUN" >"$TMP/j/$RUN/leaf01.json"
cat >"$TMP/j/$RUN/leaf09.json" <<EOJ
{"version": 1, "run_id": "$RUN", "device": "leaf09", "driver": "nvue-ssh",
 "address": "192.0.2.9", "ports": [{"name": "swp1", "qos": {"known": 0, "unsupported": 0}}]}
EOJ

test_expect_success 'rollback lists the stale entries, reports the corrupt one and goes on' '
	test_expect_code 1 "$ROCECTL" rollback -i "$TMP/inv.yaml" --journal "$TMP/j" \
		>"$TMP/out" 2>"$TMP/err" &&
	test_must_contain "$TMP/out" "holds 2 entries left by interrupted or failed runs" &&
	test_must_contain "$TMP/out" "run $RUN  leaf01  \(unreadable\)" &&
	test_must_contain "$TMP/err" "leaf01. \(run $RUN\) cannot be restored: .*not valid JSON" &&
	test_must_contain "$TMP/err" "leaf09. \(nvue-ssh\) is not in the inventory" &&
	test -e "$TMP/j/$RUN/leaf01.json"
'

test_expect_success 'rollback takes the device lock too' '
	rm "$TMP/j/$RUN/leaf01.json" &&
	sed -i "s/leaf09/leaf01/g" "$TMP/j/$RUN/leaf09.json" &&
	mv "$TMP/j/$RUN/leaf09.json" "$TMP/j/$RUN/leaf01.json" &&
	with_lock_held sh -c "\"\$0\" rollback -i \"\$1\" --journal \"\$2\" \
		>\"\$3/out\" 2>\"\$3/err\"; echo \$? >\"\$3/st\"" \
		"$ROCECTL" "$TMP/inv.yaml" "$TMP/j" "$TMP" &&
	test "$(cat "$TMP/st")" = 1 &&
	test_must_contain "$TMP/err" "leaf01. is locked by another rocectl run" &&
	test -e "$TMP/j/$RUN/leaf01.json"
'

test_expect_success 'plan warns about the stale entry of a selected device' '
	{ env -u ROCECTL_T3101_UNSET "$ROCECTL" plan -p "$POLICY" -i "$TMP/inv.yaml" \
		--journal "$TMP/j" >"$TMP/out" 2>"$TMP/err"; st=$?; } ;
	test "$st" = 1 &&
	test_must_contain "$TMP/err" "warning: .leaf01. has a stale journal entry from run $RUN"
'

test_expect_success 'a run id that leaves the journal is refused' '
	test_expect_code 1 "$ROCECTL" rollback ../etc --journal "$TMP/j" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "is not a journal run id"
'

test_done
