#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# dist/completion/rocectl: commands, each command's options (from its --help), and after
# --limit the roles and the inventory's device names, ranges expanded.
. "$SRC_DIR/tests/lib/testlib.sh"

I="$SRC_DIR/examples/inventory.yaml"
# complete WORDS...: what bash completion offers for the last word (one per line, sorted)
complete_words() {
	ROCECTL="$ROCECTL" bash -c '
		. "$1"; shift
		COMP_WORDS=("$ROCECTL" "$@"); COMP_CWORD=$(($# ))
		COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
		_rocectl; printf "%s\n" "${COMPREPLY[@]}" | sort' \
		sh "$SRC_DIR/dist/completion/rocectl" "$@"
}

test_expect_success 'commands' '
	complete_words "" >"$TMP/out" &&
	for c in validate plan apply verify trace rollback counters headroom agent nccl-env capture; do
		grep -qx "$c" "$TMP/out" || { echo "missing $c"; return 1; }
	done &&
	test "$(complete_words pl)" = plan
'

test_expect_success 'options of the command, from its --help' '
	complete_words plan --li >"$TMP/out" && test "$(cat "$TMP/out")" = --limit &&
	complete_words verify --f >"$TMP/out" && grep -qx -- --format "$TMP/out" &&
	complete_words headroom --s >"$TMP/out" && test "$(cat "$TMP/out")" = --speed &&
	complete_words agent "" >"$TMP/out" && grep -qx counters "$TMP/out" &&
	complete_words verify --format p >"$TMP/out" && test "$(cat "$TMP/out")" = prometheus
'

test_expect_success '--limit offers roles and the inventory devices, ranges expanded' '
	complete_words verify -i "$I" --limit gpu00 >"$TMP/out" &&
	printf "gpu001\ngpu002\ngpu003\ngpu004\n" >"$TMP/want" &&
	cmp "$TMP/want" "$TMP/out" &&
	complete_words plan --inventory "$I" --limit "leaf01,!sp" >"$TMP/out" &&
	printf "leaf01,!spine\nleaf01,!spine01\n" >"$TMP/want" && cmp "$TMP/want" "$TMP/out" &&
	complete_words plan --limit s >"$TMP/out" &&
	printf "spine\nswitch\n" >"$TMP/want" && cmp "$TMP/want" "$TMP/out"
'

test_expect_success 'run ids of the history after show, diff and counters --since' '
	mkdir -p "$TMP/hist" &&
	for r in 20261203T101500.000Z-42 20261203T111500.000Z-43; do
		printf "{\"schema\": \"rocectl.history/v1\", \"run_id\": \"%s\", \"command\": \"counters\", \"started_epoch\": 1, \"devices\": []}" \
			"$r" >"$TMP/hist/$r.json" || return 1
	done &&
	ROCECTL_HISTORY="$TMP/hist" complete_words diff 20261203T1015 >"$TMP/out" &&
	test "$(cat "$TMP/out")" = 20261203T101500.000Z-42 &&
	ROCECTL_HISTORY="$TMP/hist" complete_words show "" >"$TMP/out" &&
	test "$(wc -l <"$TMP/out")" = 2 &&
	ROCECTL_HISTORY="$TMP/hist" complete_words counters --since 2026 >"$TMP/out" &&
	test "$(wc -l <"$TMP/out")" = 2 &&
	complete_words export --ov >"$TMP/out" && test "$(cat "$TMP/out")" = --overrides &&
	(cd "$TMP" && : >20261203T-a-file && ROCECTL_HISTORY="$TMP/hist" complete_words rollback "") \
		>"$TMP/out" &&
	printf "20261203T101500.000Z-42\n20261203T111500.000Z-43\n" >"$TMP/want" &&
	cmp "$TMP/want" "$TMP/out"
'

test_expect_success 'agent offers every subcommand of its usage line; trace and diagnose the hosts' '
	complete_words agent "" >"$TMP/out" &&
	for s in show plan apply enforce verify counters; do
		grep -qx "$s" "$TMP/out" || { echo "missing agent $s"; return 1; }
	done &&
	complete_words diagnose -i "$I" gpu00 >"$TMP/out" &&
	printf "gpu001\ngpu002\ngpu003\ngpu004\n" >"$TMP/want" && cmp "$TMP/want" "$TMP/out"
'

test_expect_success '--format offers what the command writes, from its --help' '
	complete_words rollback --format "" >"$TMP/out" &&
	printf "json\ntext\n" >"$TMP/want" && cmp "$TMP/want" "$TMP/out" &&
	test "$(complete_words render --format "")" = json &&
	test "$(complete_words nccl-env --format n)" = nccl.conf &&
	complete_words verify --format "" >"$TMP/out" &&
	for f in text json prometheus dot html jsonl; do grep -qx "$f" "$TMP/out" || return 1; done &&
	test "$(complete_words diagnose --format h)" = html &&
	test "$(complete_words diagnose --by c)" = class &&
	test "$(complete_words agent state --format "")" = json &&
	complete_words confirm --j >"$TMP/out" && grep -qx -- --json "$TMP/out" &&
	complete_words export --fo >"$TMP/out" && test "$(cat "$TMP/out")" = --format
'

test_expect_success 'verify --shard and --merge; files after --merge, none without' '
	complete_words verify --sh >"$TMP/out" && test "$(cat "$TMP/out")" = --shard &&
	complete_words verify --mer >"$TMP/out" && test "$(cat "$TMP/out")" = --merge &&
	(cd "$TMP" && : >shard-1.jsonl && : >shard-2.jsonl &&
	 complete_words verify --merge shard- >"$TMP/out") &&
	printf "shard-1.jsonl\nshard-2.jsonl\n" | cmp - "$TMP/out" &&
	(cd "$TMP" && complete_words verify shard- >"$TMP/out") && test -z "$(cat "$TMP/out")"
'

test_done
