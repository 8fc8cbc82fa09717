#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every libFuzzer target (tests/fuzz/fuzz_*.c) gets a fixed number of generated inputs on
# top of its seed corpus.  Long campaigns are run by hand:
#   make fuzz && build/fuzz/fuzz_policy -max_total_time=600 tests/data
. "$SRC_DIR/tests/lib/testlib.sh"

for bin in "$BUILD_DIR"/fuzz/fuzz_*; do
	[ -x "$bin" ] || continue
	name=$(basename "$bin")
	# seed corpora: the shipped and recorded inputs of each parser
	case "$name" in
	fuzz_policy) seeds="policies examples tests/data/bad" ;;
	fuzz_nvue) seeds="tests/data/nvue" ;;
	fuzz_sonic) seeds="tests/data/sonic" ;;
	fuzz_eos) seeds="tests/data/eos" ;;
	fuzz_merge) seeds="tests/data/merge" ;;
	fuzz_agent) seeds="tests/data/agent" ;;
	*) seeds= ;;
	esac
	test_expect_success "$name survives 20000 generated inputs" '
		mkdir -p "$TMP/$name" &&
		for d in $seeds; do
			find "$SRC_DIR/$d" -type f -size -64k -exec cp {} "$TMP/$name"/ \; ;
		done &&
		ASAN_OPTIONS=detect_leaks=1 "$bin" -runs=20000 -max_len=4096 -seed=1 \
			-rss_limit_mb=1024 -timeout=10 "$TMP/$name" >"$TMP/$name.log" 2>&1 ||
		{ tail -n 30 "$TMP/$name.log"; exit 1; }
	'
done
test_expect_success 'there is at least one fuzz target' '
	ls "$BUILD_DIR"/fuzz/fuzz_* >/dev/null
'
test_done
