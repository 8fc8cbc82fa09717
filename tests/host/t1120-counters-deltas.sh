#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# rocectl counters --interval, --save and --since against the simulated NIC (tests/sim/nic):
# the rise of each counter between two samples, with exit 2 only when a drop, discard or
# pause counter rose in the window.  The witness is nicsim, which sets the counters
# (`nicsim counter`, `nicsim rate`) behind rocectl's back.
. "$SRC_DIR/tests/lib/testlib.sh"

NICSIM="$SRC_DIR/tests/sim/nic/nicsim"
ROCECTL_HISTORY="$TMP/history"
export ROCECTL_HISTORY

on() {
	"$NICSIM" run "$TMP/h" -- "$@"
}
# value NAME FILE: the value of counter NAME of eth0 in a counters JSON document
value() {
	jq -r --arg n "$1" '.devices[0].counters[] | select(.port == "eth0" and .name == $n) | .value' "$2"
}
# the run `counters --save` kept (the only record in the history)
saved_run() {
	ls "$ROCECTL_HISTORY" | sed -n "s/\.json\$//p" | grep -v "^2026010" | head -n 1
}
check() {
	python3 "$SRC_DIR/tests/lib/schema_check.py" "$SRC_DIR/examples/counters.schema.json" "$@"
}

"$NICSIM" init "$TMP/h" --nic eth0,rdma=mlx5_0 >/dev/null

test_expect_success 'a drop counter that rose before, not during, the window: totals say 2, the interval 0' '
	"$NICSIM" counter "$TMP/h" eth0 rx_discards_phy 17 &&
	test_expect_code 2 on "$ROCECTL" counters -j >"$TMP/total.json" &&
	test "$(value rx_port_buffer_discards "$TMP/total.json")" = 17 &&
	on "$ROCECTL" counters --interval 300ms -j >"$TMP/quiet.json" &&
	jq -e ".mode == \"delta\" and .window_s >= 0.3 and .since == null and .drops == 0 and
		.pauses == 0 and .status == \"ok\" and .exit_code == 0 and
		all(.devices[0].counters[]; .value == 0 or .value == null)" "$TMP/quiet.json" &&
	check "$TMP/total.json" "$TMP/quiet.json"
'

test_expect_success 'a drop counter rising during the window: exit 2, its rise reported' '
	"$NICSIM" rate "$TMP/h" eth0 rx_discards_phy=1000 &&
	test_expect_code 2 on "$ROCECTL" counters --interval 1s -j >"$TMP/drop.json" &&
	v=$(value rx_port_buffer_discards "$TMP/drop.json") &&
	test "$v" -ge 500 && test "$v" -le 3000 &&
	jq -e ".status == \"drops\" and .drops >= 1 and .exit_code == 2 and
		.devices[0].status == \"drops\"" "$TMP/drop.json" &&
	check "$TMP/drop.json" &&
	"$NICSIM" rate "$TMP/h" eth0 rx_discards_phy=0
'

test_expect_success 'pauses rising during the window: exit 2, status pauses, PAUSES in text' '
	# mlx5 lists per-priority pause counters of the priorities PFC is on for
	on dcb pfc set dev eth0 prio-pfc 3:on &&
	"$NICSIM" rate "$TMP/h" eth0 rx_prio3_pause=500 &&
	test_expect_code 2 on "$ROCECTL" counters --interval 1s -j >"$TMP/pause.json" &&
	test "$(value "pfc_pause_rx[3]" "$TMP/pause.json")" -gt 0 &&
	jq -e ".status == \"pauses\" and .pauses >= 1 and .drops == 0" "$TMP/pause.json" &&
	check "$TMP/pause.json" &&
	test_expect_code 2 on "$ROCECTL" counters --interval 300ms >"$TMP/pause.txt" &&
	test_must_contain "$TMP/pause.txt" "pfc_pause_rx\[3\] .* PAUSES" &&
	test_must_contain "$TMP/pause.txt" "1 device: 0 with drops, 1 pausing" &&
	"$NICSIM" rate "$TMP/h" eth0 rx_prio3_pause=0
'

test_expect_success '--save keeps the sample as a run; --since reports the rise since it' '
	test_expect_code 2 on "$ROCECTL" counters --save -j >"$TMP/saved.json" &&
	run=$(jq -r .run_id "$TMP/saved.json") && test -n "$run" && test "$run" = "$(saved_run)" &&
	test -f "$ROCECTL_HISTORY/$run.json" &&
	"$ROCECTL" history >"$TMP/hist.txt" &&
	test_must_contain "$TMP/hist.txt" "^$run +counters" &&
	on "$ROCECTL" counters --since "$run" -j >"$TMP/since0.json" &&
	jq -e --arg r "$run" ".since == \$r and .exit_code == 0" "$TMP/since0.json" &&
	"$NICSIM" counter "$TMP/h" eth0 rx_discards_phy +5 &&
	test_expect_code 2 on "$ROCECTL" counters --since "$run" -j >"$TMP/since5.json" &&
	test "$(value rx_port_buffer_discards "$TMP/since5.json")" = 5 &&
	check "$TMP/saved.json" "$TMP/since0.json" "$TMP/since5.json"
'

test_expect_success 'a counter that went back since the baseline counts its new value, and says so' '
	run=$(saved_run) &&
	"$NICSIM" counter "$TMP/h" eth0 rx_discards_phy 2 &&
	test_expect_code 2 on "$ROCECTL" counters --since "$run" -j >"$TMP/reset.json" &&
	test "$(value rx_port_buffer_discards "$TMP/reset.json")" = 2 &&
	jq -e ".devices[0].resets >= 1" "$TMP/reset.json"
'

test_expect_success '--since a run that is not a counters run, or none: exit 1 with the reason' '
	run=$(saved_run) &&
	cp "$ROCECTL_HISTORY/$run.json" "$TMP/plan.json" &&
	sed -e "s/\"command\":[[:space:]]*\"counters\"/\"command\": \"plan\"/" \
		-e "s/$run/20260101T000000.000Z-1/" "$TMP/plan.json" \
		>"$ROCECTL_HISTORY/20260101T000000.000Z-1.json" &&
	test_expect_code 1 on "$ROCECTL" counters --since 20260101T000000.000Z-1 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "is a plan run, which keeps no counters.*counters --save" &&
	test_expect_code 1 on "$ROCECTL" counters --since 20990101T000000.000Z-1 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "no run .20990101T000000.000Z-1. in the history"
'

test_expect_success 'usage: --interval out of range, with --since, or not a duration: exit 64' '
	test_expect_code 64 "$ROCECTL" counters --interval 10ms 2>/dev/null &&
	test_expect_code 64 "$ROCECTL" counters --interval 2h 2>/dev/null &&
	test_expect_code 64 "$ROCECTL" counters --interval soon 2>/dev/null &&
	test_expect_code 64 "$ROCECTL" counters --interval 1s --since "$(saved_run)" 2>/dev/null
'

test_done
