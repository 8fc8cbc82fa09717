#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A GPU host whose rocectl is missing, prints nothing, prints garbage, prints too much or
# is not UTF-8: the controller reports an error for that host alone and carries on with
# the others (drivers/host/agent_answer.c).  It used to read the empty answer unchecked
# and die with a segfault (exit 139), reporting no device at all.
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

LAB_CMD="$SRC_DIR/tests/lab/lab"
LAB="$TMP/lab"
INV="$LAB/inventory.yaml"
POLICY="$SRC_DIR/policies/roce-lossless.yaml"
ROCECTL_JOURNAL="$TMP/journal"
export BUILD_DIR ROCECTL ROCECTL_JOURNAL

test_needs root

test_at_exit '"$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true'

rc() {
	"$LAB_CMD" exec "$LAB" -- "$ROCECTL" "$@"
}

# host_rocectl HOST BODY: the host runs this sh script as its rocectl
host_rocectl() {
	. "$LAB/lab.env"
	mkdir -p "$RUN/override/$1"
	chmod 755 "$RUN/override" "$RUN/override/$1"
	printf '#!/bin/sh\n%s\n' "$2" >"$RUN/override/$1/rocectl"
	chmod 755 "$RUN/override/$1/rocectl"
}

host_rocectl_restore() {
	. "$LAB/lab.env"
	rm -rf "$RUN/override/$1"
}

# check CMD NAME: the command fails with exit 1 (never 139), names gpu002 with WHAT, and
# still reports gpu001
check() {
	code=0
	rc "$1" -p "$POLICY" -i "$INV" --format json >"$TMP/$2.json" 2>"$TMP/$2.err" ||
		code=$?
	cat "$TMP/$2.err"
	test "$code" = 1 &&
		grep -q "gpu002.*$3" "$TMP/$2.err" "$TMP/$2.json" &&
		jq -e '[.devices[] | select(.device == "gpu001")] | length == 1' "$TMP/$2.json" >/dev/null
}

test_expect_success 'lab up: 2 hosts, 1 leaf' '
	"$LAB_CMD" up "$LAB" --hosts 2 --leaves 1 --spines 0 --nics 1 >"$TMP/up.out"
'

test_expect_success 'a host without rocectl: an error for that host, exit 1, not a crash' '
	host_rocectl gpu002 "echo \"sh: 1: rocectl: not found\" >&2; exit 127" &&
	check verify missing-verify "not installed" &&
	check plan missing-plan "not installed"
'

test_expect_success 'a rocectl that prints nothing and exits 0' '
	host_rocectl gpu002 "exit 0" &&
	check verify empty "is empty"
'

test_expect_success 'a rocectl that prints garbage, a truncated object, or a NUL' '
	host_rocectl gpu002 "echo Segmentation fault; exit 139" &&
	check verify garbage "not a JSON object" &&
	host_rocectl gpu002 "printf %s \"{\\\"interfaces\\\":[\"" &&
	check verify truncated "not a JSON object" &&
	host_rocectl gpu002 "printf \"{}\\\\000\"" &&
	check verify nul "NUL byte"
'

test_expect_success 'a rocectl that prints invalid UTF-8, or more than the cap' '
	host_rocectl gpu002 "printf \"{\\\"a\\\":\\\"\\\\351\\\"}\"" &&
	check verify latin1 "not UTF-8" &&
	host_rocectl gpu002 "head -c 2000000 /dev/zero | tr \"\\\\000\" \" \"" &&
	check verify huge "exceeds"
'

test_expect_success 'with its rocectl back, the host is read again' '
	host_rocectl_restore gpu002 &&
	code=0 && rc verify -p "$POLICY" -i "$INV" >"$TMP/back.out" 2>&1 || code=$? &&
	test "$code" = 2
'

test_done
