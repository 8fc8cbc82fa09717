#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Persistence over NVUE's REST API: on Cumulus Linux 5.8 `nv config apply` does not save
# (NVUE reference, Config Commands), so after a verified apply rocectl saves with the API's
# form of `nv config save`, a PATCH of revision "applied" to state "save" (NVIDIA's "Data
# Center Network Automation Quick Start Guide", Use Cases and Recommendations), and verify
# reads the startup configuration back over REST (`?rev=startup`): a reboot keeps the policy,
# and running unsaved is drift.  apply does not save that over startup by itself (its save
# would keep a change nobody saved, and nothing could unsave it): with --save-pending it
# repairs it by saving.
. "$SRC_DIR/tests/lib/testlib.sh"

SIMCTL="$SRC_DIR/tests/sim/switch/simctl"
LAB="$TMP/lab"
P="$SRC_DIR/policies/roce-lossless.yaml"
J="$TMP/journal"

. "$SRC_DIR/tests/lib/simlib.sh"

nv() {
	sim cli "$LAB" leaf09 "$1"
}

mkdir -p "$LAB"
test_at_exit "sh '$SIMCTL' down '$LAB' >/dev/null 2>&1"
test_expect_success 'a CL 5.8 switch (apply does not save) over REST' '
	sim up "$LAB" --switch leaf09=127.0.9.31:nvue:SN5600@5.8 --ports swp1-2 \
		>"$TMP/up.log" 2>&1 &&
	grep -q "transport: rest" "$LAB/inventory-rest.yaml"
'
I="$LAB/inventory-rest.yaml"
RUN=$(sed -n "s/^RUN=//p" "$LAB/lab.env" 2>/dev/null)

test_expect_success 'apply saves over REST: startup holds the policy, verify in sync' '
	rc apply -p "$P" -i "$I" -J "$J" >"$TMP/apply" 2>&1 ||
		{ sed "s/^/# /" "$TMP/apply"; false; } &&
	test_must_contain "$TMP/apply" "applied and verified" &&
	test "$(grep -c " leaf09 PATCH /nvue_v1/revision/applied " "$RUN/rest.log")" = 1 &&
	nv "nv show qos --rev=startup -o json" | tr -d " \n" >"$TMP/startup" &&
	test_must_contain "$TMP/startup" "\"default-lossless\"" &&
	rc verify -p "$P" -i "$I" >"$TMP/verify" 2>&1 ||
		{ sed "s/^/# /" "$TMP/verify"; false; }
'

test_expect_success 'a reboot loads startup: still in sync, plan empty' '
	sim reboot "$LAB" leaf09 &&
	rc verify -p "$P" -i "$I" >"$TMP/verify2" 2>&1 ||
		{ sed "s/^/# /" "$TMP/verify2"; false; } &&
	rc plan -p "$P" -i "$I" >"$TMP/plan" 2>&1 ||
		{ sed "s/^/# /" "$TMP/plan"; false; }
'

test_expect_success 'running unsaved is drift over REST; apply --save-pending saves it, a reboot keeps it' '
	sim fault "$LAB" leaf09 drift config:qos.traffic-pool.default-lossless= &&
	{ rc verify -p "$P" -i "$I" >"$TMP/unsaved" 2>&1; st=$?; } ;
	test "$st" = 2 &&
	test_must_contain "$TMP/unsaved" "differs from startup" &&
	test_expect_code 1 rc apply -p "$P" -i "$I" -J "$J" >"$TMP/refused" 2>&1 &&
	test_must_contain "$TMP/refused" "nothing written: the applied configuration differs" &&
	test "$(grep -c " leaf09 PATCH /nvue_v1/revision/applied " "$RUN/rest.log")" = 1 &&
	rc --save-pending apply -p "$P" -i "$I" -J "$J" >"$TMP/apply2" 2>&1 ||
		{ sed "s/^/# /" "$TMP/apply2"; false; } &&
	test "$(grep -c " leaf09 PATCH /nvue_v1/revision/applied " "$RUN/rest.log")" = 2 &&
	sim reboot "$LAB" leaf09 &&
	rc verify -p "$P" -i "$I" >"$TMP/verify3" 2>&1 ||
		{ sed "s/^/# /" "$TMP/verify3"; false; }
'

test_expect_success 'the simulated switch goes down cleanly' '
	sim down "$LAB"
'
test_done
