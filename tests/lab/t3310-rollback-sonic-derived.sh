#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# kill -9 of `rocectl apply` at several moments on a SONiC leaf, then `rocectl rollback`
# (fault campaign seed 1010, tests/faults/README.md).  The policy's cable length makes
# buffermgrd create a `pg_lossless_<speed>_<cable>_profile` in CONFIG_DB, and buffermgrd
# never deletes one (sonic-swss cfgmgr/buffermgr.cpp, doSpeedUpdateTask: it sets
# BUFFER_PROFILE when absent, nothing removes it); putting the cable length back leaves
# it.  After the rollback CONFIG_DB must be EXACTLY the pre-run one, that profile gone.
# Witness: the simulator's state file, normalized as the campaign does, never rocectl.
# The kill lands as soon as the patch is in (kills at fractions of the apply's length, as
# in t3200, rarely hit the one command that writes).
# test-serial: the kill must land in the window between the patch and the end of the run,
# which a loaded machine's slower polling misses
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"
. "$SRC_DIR/tests/lib/rollbacklib.sh"

LAB_CMD="$SRC_DIR/tests/lab/lab"
SIMCTL="$SRC_DIR/tests/sim/switch/simctl"
LAB="$TMP/lab"
POLICY="$SRC_DIR/policies/roce-lossless.yaml"
SLOW_MS=300
export BUILD_DIR ROCECTL

test_needs root

test_at_exit '"$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true'

test_expect_success 'bring-up of a lab with a SONiC leaf and a spine (its uplink gets a longer cable)' '
	"$LAB_CMD" up "$LAB" --hosts 1 --nics 1 --leaves 1 --spines 1 --platforms sonic,nvue \
		>/dev/null &&
	cp "$LAB/switchsim/switches/leaf01.json" "$TMP/leaf01.factory"
'

# The BUFFER_PROFILE names of a view (`view` output on stdin).
profiles() {
	python3 -c 'import sys, json
db = json.load(sys.stdin).get("sonic", {}).get("config_db", {})
print("\n".join(sorted(db.get("BUFFER_PROFILE", {}))))'
}

test_expect_success 'a clean apply makes buffermgrd create a profile (else this proves nothing)' '
	view leaf01 | profiles >"$TMP/profiles.pre" &&
	measure leaf01 "$LAB/inventory.yaml" >/dev/null &&
	profiles <"$TMP/leaf01.golden" >"$TMP/profiles.golden" &&
	comm -13 "$TMP/profiles.pre" "$TMP/profiles.golden" >"$TMP/profiles.new" &&
	cat "$TMP/profiles.new" &&
	test_must_contain "$TMP/profiles.new" "^pg_lossless_"
'

# The BUFFER_PROFILE names of the switch's CONFIG_DB and saved config_db.json, from its
# state file as it is (the campaign's view leaves unreferenced buffermgrd profiles out).
raw_profiles() {
	python3 -c 'import sys, json
sn = json.load(open(sys.argv[1])).get("sonic", {})
for db in ("config_db", "startup"):
    for p in sorted((sn.get(db) or {}).get("BUFFER_PROFILE", {})):
        print(db, p)' "$LAB/switchsim/switches/$1.json"
}

# kill -9 the apply as soon as the switch's CONFIG_DB changed (the patch is in, the run
# has not ended: its journal entry is still open), then roll back; pre, mid and post
# views and raw profile lists in $TMP.
kill_on_change() {
	sw=$1 inv=$2
	JOURNAL="$TMP/journal-$sw-change" && rm -rf "$JOURNAL" && put_back "$sw" &&
		view "$sw" >"$TMP/pre" && raw_profiles "$sw" >"$TMP/raw.pre" &&
		"$SIMCTL" fault "$LAB/switchsim" "$sw" slow $SLOW_MS >/dev/null || return 1
	setsid "$LAB_CMD" exec "$LAB" -- env ROCECTL_JOURNAL="$JOURNAL" "$ROCECTL" apply \
		-p "$POLICY" -i "$inv" --limit "$sw" >"$TMP/apply.out" 2>&1 &
	pid=$!
	i=0
	while view "$sw" >"$TMP/mid" && cmp -s "$TMP/pre" "$TMP/mid" && [ $i -lt 600 ]; do
		i=$((i + 1))
	done
	kill -9 "-$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	"$SIMCTL" fault "$LAB/switchsim" "$sw" clear >/dev/null
	quiesce
	profiles <"$TMP/mid" >"$TMP/profiles.mid"
	test "$(find "$JOURNAL" -name "$sw.json" | wc -l)" != 0 &&
		comm -13 "$TMP/profiles.pre" "$TMP/profiles.mid" | grep -q "^pg_lossless_" &&
		rc rollback -i "$inv" --journal "$JOURNAL" &&
		view "$sw" >"$TMP/post" && raw_profiles "$sw" >"$TMP/raw.post" &&
		differences "$TMP/pre" "$TMP/post"
}

# The simulated release (GCU's validator rules follow it, tests/sim/switch/sonic_gate.c).
release() {
	python3 -c 'import sys, json
st = json.load(open(sys.argv[1]))
st["sonic"]["release"] = int(sys.argv[2])
json.dump(st, open(sys.argv[1], "w"))' "$TMP/leaf01.factory" "$1"
}

test_expect_success 'release 202511 (GCU removes a profile): rollback gives the pre-run CONFIG_DB' '
	cp "$TMP/leaf01.factory" "$TMP/leaf01.lab" &&
	release 202511 &&
	kill_on_change leaf01 "$LAB/inventory.yaml" &&
	cmp "$TMP/raw.pre" "$TMP/raw.post"
'

test_expect_success 'older release (GCU refuses): rollback succeeds, the profile stays unused' '
	cp "$TMP/leaf01.lab" "$TMP/leaf01.factory" &&
	kill_on_change leaf01 "$LAB/inventory.yaml" &&
	comm -13 "$TMP/raw.pre" "$TMP/raw.post" >"$TMP/raw.left" &&
	cat "$TMP/raw.left" &&
	test_must_contain "$TMP/raw.left" "^config_db pg_lossless_"
'

test_done
