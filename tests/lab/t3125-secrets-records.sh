#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Secrets stay out of what the unattended commands leave behind: enforce (text, JSON,
# Prometheus), history, show, diff, render and rollback RUN run against NVUE switches whose
# REST password comes from a password_file (leaf01) and from password_env (leaf02); every
# output, the history records, the journal and every syslog message they sent (a listener
# on /dev/log, tests/lib/sysloglib.sh) are searched for the two passwords.
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"
. "$SRC_DIR/tests/lib/sysloglib.sh"

LAB_CMD="$SRC_DIR/tests/lab/lab"
SIMCTL="$SRC_DIR/tests/sim/switch/simctl"
LAB="$TMP/lab"
POLICY="$SRC_DIR/policies/roce-lossless.yaml"
INV="$TMP/inv.yaml"
OUT="$TMP/left" # everything the commands wrote: outputs, records, journal, syslog
export BUILD_DIR ROCECTL

test_lab_needs_root

salt=$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')
PW_FILE="file-pw!${salt}&%2F"
PW_ENV="env-pw\$${salt} 'q'"
PW_WRONG="wrong-pw#${salt}"
PW_GIVEN=$PW_ENV # what the environment variable holds

# run NAME ARGS...: rocectl in the lab with the secret in its environment; stdout, stderr
# and syslog kept as $OUT/NAME.{out,err,log}
run() {
	name=$1
	shift
	with_syslog "$OUT/$name.log" "$LAB_CMD" exec "$LAB" -- env \
		ROCECTL_JOURNAL="$OUT/journal" ROCECTL_HISTORY="$OUT/history" \
		ROCECTL_LOCK_DIR="$TMP/locks" ROCECTL_T4125_PW="$PW_GIVEN" \
		"$ROCECTL" "$@" >"$OUT/$name.out" 2>"$OUT/$name.err"
}

test_expect_success 'bring-up: leaf01 reads its password from a file, leaf02 from the environment' '
	mkdir -p "$OUT" "$TMP/pw" && chmod 700 "$TMP/pw" &&
	"$LAB_CMD" up "$LAB" --hosts 2 --nics 1 --leaves 2 --spines 0 >/dev/null &&
	(umask 077 && printf "%s\n" "$PW_FILE" >"$TMP/pw/leaf01" && printf "%s\n" "$PW_ENV" >"$TMP/pw/leaf02") &&
	"$SIMCTL" rest-password "$LAB/switchsim" leaf01 "$TMP/pw/leaf01" >/dev/null &&
	"$SIMCTL" rest-password "$LAB/switchsim" leaf02 "$TMP/pw/leaf02" >/dev/null &&
	rm "$TMP/pw/leaf02" &&
	sed -e "/password_file: .*\/leaf01\"/s|password_file: \"[^\"]*\"|password_file: \"$TMP/pw/leaf01\"|" \
		-e "/password_file: .*\/leaf02\"/s|password_file: \"[^\"]*\"|password_env: ROCECTL_T4125_PW|" \
		"$LAB/inventory-rest.yaml" >"$INV" &&
	test_must_contain "$INV" "password_env: ROCECTL_T4125_PW" &&
	test_must_contain "$INV" "password_file: \"$TMP/pw/leaf01\""
'

test_expect_success 'enforce repairs the fabric (both switches reached), then history, show, diff' '
	run enforce enforce -p "$POLICY" -i "$INV" --disruptive allow --format json &&
	jq -e "[.devices[] | select(.device == \"leaf01\" or .device == \"leaf02\")] | length == 2" \
		"$OUT/enforce.out" &&
	test_must_contain "$OUT/enforce.log" "ROCECTL_DEVICE=leaf0[12]" &&
	run enforce-prom enforce -p "$POLICY" -i "$INV" --format prometheus -o "$OUT/enforce.prom" &&
	test -s "$OUT/enforce.prom" &&
	run history history --json &&
	run history-text history &&
	rid=$(jq -r "[.runs[] | select(.command == \"enforce\")][0].run_id" "$OUT/history.out") &&
	rid2=$(jq -r "[.runs[] | select(.command == \"enforce\")][1].run_id" "$OUT/history.out") &&
	test -n "$rid" && test "$rid" != null && echo "$rid" >"$TMP/rid" &&
	run show show "$rid" &&
	run show-json show "$rid" --json &&
	test_must_contain "$OUT/show.out" "leaf0[12]" &&
	{ run diff diff "$rid" "$rid2" || test $? = 2; } &&
	run render render -p "$POLICY" -i "$INV" --host gpu001 -o "$OUT/desired.json" &&
	test -s "$OUT/desired.json"
'

test_expect_success 'rollback RUN of the enforce run restores through the same credentials' '
	run rollback rollback "$(cat "$TMP/rid")" -i "$INV" &&
	test_must_contain "$OUT/rollback.out" "restored .leaf0[12]." &&
	run history-after history --json &&
	jq -e "any(.runs[]; .command == \"rollback\")" "$OUT/history-after.out"
'

test_expect_success 'a wrong password in the environment is reported without itself' '
	PW_GIVEN=$PW_WRONG &&
	{ run wrong verify -p "$POLICY" -i "$INV" --limit leaf02; st=$?; PW_GIVEN=$PW_ENV; } &&
	test "$st" = 1 &&
	test_must_contain "$OUT/wrong.out" "leaf02"
'

test_expect_success 'no password in any output, history record, journal entry or syslog message' '
	test -s "$OUT/history/$(cat "$TMP/rid").json" &&
	ls "$OUT"/*.log >/dev/null &&
	for s in "$PW_FILE" "$PW_ENV" "$PW_WRONG"; do
		! grep -rlF -- "$s" "$OUT" || { echo "a password is in the files above"; exit 1; }
	done
'

test_done
