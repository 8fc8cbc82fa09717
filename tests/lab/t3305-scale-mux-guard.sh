#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bench/scale.sh --mux N is the 10,000-device run on the multiplexed lab (bench/README.md).
# Here it runs small and untimed, in both formats it measures, so that it keeps running as
# the controller, the lab and the simulators change: a lab of 12 switches comes up, every
# device is read, and the table prints each target with a verdict (which one is not judged:
# two shared CPUs under a test suite say nothing about the targets).
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

test_needs root

run_bench() {
	ROCECTL="$ROCECTL" sh "$SRC_DIR/bench/scale.sh" --mux 12 --mux-delay 20ms \
		--mux-parallel 4 "$@"
}

check_table() {
	test_must_contain "$1" "devices 12 \\(0 hosts\\), P 4, D 20ms: wall" &&
	test_must_contain "$1" "lab server nvue" &&
	for t in "wall " "maxRSS " "CPU per device " "lab CPU per session "; do
		grep -E "^  $t.*: (PASS|MISS)\$" "$1" >/dev/null ||
			{ echo "no verdict for '$t'"; return 1; }
	done
}

test_expect_success 'the 10,000-device bench runs at 12: the default format (text)' '
	run_bench >"$TMP/out" 2>"$TMP/err" &&
	test_must_contain "$TMP/out" "rocectl verify --format text" &&
	check_table "$TMP/out"
'

test_expect_success 'and in jsonl' '
	run_bench --mux-format jsonl >"$TMP/out2" 2>"$TMP/err2" &&
	test_must_contain "$TMP/out2" "rocectl verify --format jsonl" &&
	check_table "$TMP/out2"
'

test_done
