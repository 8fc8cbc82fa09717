#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bench/fleet.sh compares rocectl verify with an OpenSSH floor and Ansible sending the same
# command lines; when rocectl's drivers change what they send, the bench must refuse rather
# than time something else.  Its check (sshds that log every command, a verify through them,
# the log compared with what the bench replays) runs here on a small lab, untimed, so that
# the bench cannot rot unnoticed.
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

test_needs root

test_expect_success 'the bench replays exactly the command lines rocectl verify sends' '
	ROCECTL="$ROCECTL" sh "$SRC_DIR/bench/fleet.sh" --hosts 2 --switches 3 --check-only \
		2>"$TMP/err" &&
	test_must_contain "$TMP/err" "command lines to gpu001,leaf01,spine01 are the ones replayed"
'

test_expect_success 'a command line rocectl no longer sends makes it refuse' '
	sed "s/nv show interface lldp/nv show interface lldp-gone/" "$SRC_DIR/bench/fleet.sh" \
		>"$TMP/fleet.sh" &&
	mkdir -p "$TMP/bench" && cp "$TMP/fleet.sh" "$TMP/bench/fleet.sh" &&
	ln -s "$SRC_DIR/tests" "$SRC_DIR/policies" "$TMP/" &&
	! env ROCECTL="$ROCECTL" sh "$TMP/bench/fleet.sh" --hosts 2 --switches 3 \
		--check-only 2>"$TMP/err2" &&
	test_must_contain "$TMP/err2" "are not the ones replayed"
'

test_done
