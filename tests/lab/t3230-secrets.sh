#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Secrets never leave their source: every fabric command is run against NVUE switches whose
# REST passwords come from a password_file and from an environment variable (password_env),
# and every output (stdout, stderr, JSON, Prometheus, DOT, `verify -o`), saved plan, journal
# entry (kept from a killed apply), lock file and capture is searched for the secret values.
# A wrong password is reported without itself.  transport.h: "never put into a message".
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

LAB_CMD="$SRC_DIR/tests/lab/lab"
SIMCTL="$SRC_DIR/tests/sim/switch/simctl"
LAB="$TMP/lab"
POLICY="$SRC_DIR/policies/roce-lossless.yaml"
INV="$TMP/inv.yaml"
OUT="$TMP/outputs" # everything rocectl wrote, searched at the end
JOURNAL="$OUT/journal"
ROCECTL_LOCK_DIR="$OUT/locks"
export BUILD_DIR ROCECTL ROCECTL_LOCK_DIR

test_needs root

test_at_exit '"$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true'

# distinctive values, with characters a shell or a URL would treat specially
rand=$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')
S_FILE="Pw-file:${rand}%40&x"
S_ENV="Pw-env'${rand}\"y z"
S_WRONG="Pw-wrong/${rand}#q"
mkdir -p "$OUT" "$TMP/secrets" && chmod 700 "$TMP/secrets"

n=0
# rc NAME ARGS...: rocectl in the lab, stdout and stderr kept as $OUT/NAME.{out,err}
rc() {
	name=$1
	shift
	"$LAB_CMD" exec "$LAB" -- env ROCECTL_JOURNAL="$JOURNAL" \
		ROCECTL_LOCK_DIR="$ROCECTL_LOCK_DIR" ROCECTL_T3230_PW="$S_ENV" \
		"$ROCECTL" "$@" >"$OUT/$name.out" 2>"$OUT/$name.err"
	st=$?
	echo "rocectl $name: exit $st" >&2
	n=$((n + 1))
	return $st
}

# every file under $OUT (and the lab's switch state: what was sent) free of every secret
no_secret() {
	for s in "$S_FILE" "$S_ENV" "$S_WRONG"; do
		if grep -rlF -- "$s" "$OUT" "$LAB/switchsim/switches"; then
			echo "a secret is in the files above" >&2
			return 1
		fi
	done
}

test_expect_success 'bring-up: leaf01 with a password_file, leaf02 with password_env' '
	"$LAB_CMD" up "$LAB" --hosts 2 --nics 1 --leaves 2 --spines 1 >/dev/null &&
	printf "%s\n" "$S_FILE" >"$TMP/secrets/leaf01" && chmod 600 "$TMP/secrets/leaf01" &&
	printf "%s\n" "$S_ENV" >"$TMP/secrets/leaf02" && chmod 600 "$TMP/secrets/leaf02" &&
	printf "%s\n" "$S_WRONG" >"$TMP/secrets/wrong" && chmod 600 "$TMP/secrets/wrong" &&
	"$SIMCTL" rest-password "$LAB/switchsim" leaf01 "$TMP/secrets/leaf01" >/dev/null &&
	"$SIMCTL" rest-password "$LAB/switchsim" leaf02 "$TMP/secrets/leaf02" >/dev/null &&
	sed -e "s|password_file: \"[^\"]*/leaf01\"|password_file: \"$TMP/secrets/leaf01\"|" \
		-e "s|password_file: \"[^\"]*/leaf02\"|password_env: ROCECTL_T3230_PW|" \
		"$LAB/inventory-rest.yaml" >"$INV" &&
	grep -q password_env "$INV" && grep -q "$TMP/secrets/leaf01" "$INV" &&
	rm "$TMP/secrets/leaf02"
'

test_expect_success 'every command works with the secrets' '
	rc validate validate -p "$POLICY" -i "$INV" &&
	test_expect_code 2 rc plan plan -p "$POLICY" -i "$INV" &&
	test_expect_code 2 rc plan-json plan -p "$POLICY" -i "$INV" --format json -o "$OUT/saved.plan" &&
	test -s "$OUT/saved.plan" &&
	test_expect_code 2 rc verify-before verify -p "$POLICY" -i "$INV" -o "$OUT/verify-before.txt" &&
	rc counters counters -i "$INV" -p "$POLICY" --json &&
	rc capture capture -i "$INV" -o "$OUT/capture" &&
	rc apply apply "$OUT/saved.plan" &&
	rc verify verify -p "$POLICY" -i "$INV" &&
	rc verify-json verify -p "$POLICY" -i "$INV" --format json &&
	rc verify-prom verify -p "$POLICY" -i "$INV" --format prometheus &&
	rc verify-dot verify -p "$POLICY" -i "$INV" --format dot &&
	rc trace trace -p "$POLICY" -i "$INV" gpu001 gpu002 &&
	test_must_contain "$OUT/verify.out" "leaf\[01-02\]|leaf02"
'

test_expect_success 'a killed apply leaves journal entries; rollback restores them' '
	for sw in leaf01 leaf02; do "$SIMCTL" fault "$LAB/switchsim" $sw slow 300 >/dev/null; done &&
	{ setsid "$LAB_CMD" exec "$LAB" -- env ROCECTL_JOURNAL="$JOURNAL" \
		ROCECTL_LOCK_DIR="$ROCECTL_LOCK_DIR" ROCECTL_T3230_PW="$S_ENV" "$ROCECTL" apply \
		-p "$SRC_DIR/policies/pfc-only.yaml" -i "$INV" >"$OUT/killed.out" 2>&1 &
	pid=$!; i=0; while [ $i -lt 200 ] && ! find "$JOURNAL" -name "leaf*.json" 2>/dev/null |
		grep -q .; do sleep 0.1; i=$((i + 1)); done; sleep 0.5;
	kill -9 "-$pid" 2>/dev/null; wait "$pid" 2>/dev/null; } ;
	for sw in leaf01 leaf02; do "$SIMCTL" fault "$LAB/switchsim" $sw clear >/dev/null; done &&
	cp -a "$JOURNAL" "$OUT/journal-before-rollback" &&
	find "$JOURNAL" -name "leaf*.json" | grep -q . &&
	rc rollback rollback -i "$INV"
'

test_expect_success 'a wrong password is refused without being shown' '
	sed "s|$TMP/secrets/leaf01|$TMP/secrets/wrong|" "$INV" >"$TMP/inv-wrong.yaml" &&
	test_expect_code 1 rc wrong verify -p "$POLICY" -i "$TMP/inv-wrong.yaml" --limit leaf01 &&
	test_must_contain "$OUT/wrong.out" "leaf01" &&
	test_expect_code 1 rc wrong-json verify -p "$POLICY" -i "$TMP/inv-wrong.yaml" --limit leaf01 \
		--format json
'

test_expect_success 'no secret in any output, plan, journal, lock file or capture' '
	ls "$OUT"/*.out >/dev/null && test -d "$OUT/capture" &&
	no_secret
'

test_done
