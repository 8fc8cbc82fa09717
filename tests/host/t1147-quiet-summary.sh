#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# -q means "only the summary" on every command (README.md "Exit status and output
# conventions"): counters, history and agent's plan, verify, apply, show and counters print
# their last line alone, with the exit code they have without -q, and JSON is the same with
# -q or without.  On the simulated NIC (tests/sim/nic); nicsim's state files are the witness
# that the run behind the quiet output did what the loud one does.
. "$SRC_DIR/tests/lib/testlib.sh"
. "$SRC_DIR/tests/lib/niclib.sh"

ROCECTL_HISTORY="$TMP/history"
export ROCECTL_HISTORY
write_host_policy "$TMP/policy.yaml"
P="$TMP/policy.yaml"

"$NICSIM" init "$TMP/a" --nic eth0,rdma=mlx5_0 --nic eth1,rdma=mlx5_1 >/dev/null

# loud_and_quiet CODE NAME CMD...: CMD with and without -q (both before the command and
# among its options), both exiting CODE; the quiet output is one line, the loud one's last
quiet_is_last_line() {
	code=$1 name=$2
	shift 2
	test_expect_code "$code" "$@" >"$TMP/$name.loud" &&
	test_expect_code "$code" "$@" -q >"$TMP/$name.quiet" &&
	test "$(wc -l <"$TMP/$name.quiet")" = 1 &&
	test "$(wc -l <"$TMP/$name.loud")" -gt 1 &&
	tail -n 1 "$TMP/$name.loud" | cmp - "$TMP/$name.quiet"
}

test_expect_success 'agent verify -q: the summary line alone, exit 2 on a factory NIC' '
	quiet_is_last_line 2 verify agent a verify -p "$P" &&
	test_must_contain "$TMP/verify.quiet" "^verify: [1-9][0-9]* drifted fields on 2 of 2 interfaces, 0 failed$" &&
	test_expect_code 2 on a "$ROCECTL" -q agent verify -p "$P" >"$TMP/verify.quiet2" &&
	cmp "$TMP/verify.quiet" "$TMP/verify.quiet2"
'

test_expect_success 'agent plan, show and counters -q: their summary line alone' '
	quiet_is_last_line 2 plan agent a plan -p "$P" &&
	test_must_contain "$TMP/plan.quiet" "^plan: [1-9][0-9]* changes on 2 of 2 interfaces, 0 failed$" &&
	quiet_is_last_line 0 show agent a show &&
	test_must_contain "$TMP/show.quiet" "^show: 2 interfaces$" &&
	quiet_is_last_line 0 acounters agent a counters &&
	test_must_contain "$TMP/acounters.quiet" "^counters: 2 interfaces, no drops$"
'

test_expect_success 'agent apply -q applies as the loud one does and says so in one line' '
	agent a apply -p "$P" -q --journal "$J" >"$TMP/apply.quiet" &&
	test "$(cat "$TMP/apply.quiet")" = "apply: 2 of 2 interfaces changed, 0 failed" &&
	grep -qx "pfc-en 0x08" "$TMP/a/nics/eth0.state" &&
	quiet_is_last_line 0 verify2 agent a verify -p "$P" &&
	test "$(cat "$TMP/verify2.quiet")" = "verify: 0 drifted fields on 0 of 2 interfaces, 0 failed"
'

test_expect_success 'agent --json is the same with -q' '
	agent a verify -p "$P" --json | jq -S "del(.timestamp)" >"$TMP/v.json" &&
	agent a verify -p "$P" --json -q | jq -S "del(.timestamp)" >"$TMP/vq.json" &&
	cmp "$TMP/v.json" "$TMP/vq.json"
'

test_expect_success 'counters -q: the summary line alone' '
	quiet_is_last_line 0 counters on a "$ROCECTL" counters &&
	test "$(cat "$TMP/counters.quiet")" = "1 device: 0 with drops, 0 failed, 0 without counters"
'

test_expect_success 'history -q: how many runs, and how many failed' '
	on a "$ROCECTL" counters --save >/dev/null &&
	on a "$ROCECTL" counters --save >/dev/null &&
	quiet_is_last_line 0 history "$ROCECTL" history &&
	test "$(cat "$TMP/history.quiet")" = "history: 2 runs, 0 failed" &&
	test "$("$ROCECTL" history -j -q | jq ".runs | length")" = 2
'

test_done
