# SPDX-License-Identifier: Apache-2.0
# Helpers shared by the lab tests that kill -9 `rocectl apply` on a simulated switch and
# check what `rocectl rollback` leaves (t3200, t3310).  The witness is the simulator's own
# state file, normalized as the fault campaign does (tests/faults/campaign.py switch_view),
# never rocectl.  Source after testlib.sh; the script sets LAB_CMD, SIMCTL, LAB, POLICY and
# SLOW_MS, keeps each switch's pre-run state file as $TMP/<switch>.factory, and sets
# JOURNAL before `rc`.
#
#   view leaf01 >"$TMP/pre"                  the switch's configuration as the campaign compares it
#   put_back leaf01                          its state file back to $TMP/leaf01.factory
#   quiesce                                  no switch command still running
#   rc rollback -i "$INV" --journal "$J"     rocectl in the lab, journal $JOURNAL
#   measure leaf01 "$INV"                    ms of a clean, slowed-down apply; $TMP/leaf01.golden
#   differences "$TMP/pre" "$TMP/post"       what two views differ in; fails when they do

view() {
	python3 -c 'import sys, json
sys.path.insert(0, sys.argv[1])
import campaign
print(json.dumps(campaign.switch_view(sys.argv[2]), sort_keys=True))' \
		"$SRC_DIR/tests/faults" "$LAB/switchsim/switches/$1.json"
}

# As the campaign does: atomic, owned by the lab user.
put_back() {
	cp "$TMP/$1.factory" "$LAB/switchsim/switches/.$1.tmp" &&
		chown "${SWITCHSIM_USER:-switchsim}:${SWITCHSIM_USER:-switchsim}" \
			"$LAB/switchsim/switches/.$1.tmp" &&
		mv "$LAB/switchsim/switches/.$1.tmp" "$LAB/switchsim/switches/$1.json"
}

# A killed client's remote commands run to their end.
quiesce() {
	i=0
	while pgrep -f "switchsim-cli" >/dev/null && [ $i -lt 150 ]; do
		sleep 0.2
		i=$((i + 1))
	done
}

rc() {
	"$LAB_CMD" exec "$LAB" -- env ROCECTL_JOURNAL="$JOURNAL" "$ROCECTL" "$@"
}

# The length of a clean apply of one switch (ms), slowed down like the trials; the view
# it leaves is $TMP/<switch>.golden.
measure() {
	sw=$1 inv=$2
	put_back "$sw" && "$SIMCTL" fault "$LAB/switchsim" "$sw" slow "$SLOW_MS" >/dev/null &&
		JOURNAL="$TMP/journal-measure" && rm -rf "$JOURNAL" &&
		t0=$(date +%s%N) && rc apply -p "$POLICY" -i "$inv" --limit "$sw" >/dev/null &&
		t1=$(date +%s%N) && view "$sw" >"$TMP/$sw.golden" &&
		"$SIMCTL" fault "$LAB/switchsim" "$sw" clear >/dev/null &&
		echo $(((t1 - t0) / 1000000))
}

# The campaign's list of what differs (at most 6 paths), printed; fails when not empty.
differences() {
	python3 -c 'import sys, json
sys.path.insert(0, sys.argv[1])
import campaign
a, b = (json.load(open(p)) for p in sys.argv[2:4])
d = campaign.differences(a, b, 6)
print(d)
sys.exit(1 if d else 0)' "$SRC_DIR/tests/faults" "$1" "$2"
}
