#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Drift on the lab (tests/lab): after a bring-up, `lab drift` makes random behind-the-back
# changes on hosts (dcb) and switches (NVUE revisions) for 20 seeds.  Each round, verify
# must report exactly the recorded changes (device, port, field and the value found),
# trace must put the first misaligned hop of every path where the drift is, and apply
# must repair exactly those fields.  drift.json is the witness: it is written by the lab
# from what it read back from the devices, not by rocectl.
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

LAB_CMD="$SRC_DIR/tests/lab/lab"
SIMCTL="$SRC_DIR/tests/sim/switch/simctl"
LAB="$TMP/lab"
INV="$LAB/inventory.yaml"
POLICY="$SRC_DIR/policies/roce-lossless.yaml"
ROCECTL_JOURNAL="$TMP/journal"
SEEDS=$(seq 1 20)
export BUILD_DIR ROCECTL ROCECTL_JOURNAL

test_needs root

test_at_exit '"$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true'

rc() {
	"$LAB_CMD" exec "$LAB" -- "$ROCECTL" "$@"
}

# drift.json as one record per (device, port, field, value): a switch-wide change is a
# change of every managed port bound to the profile it hit (README "Drift")
# A host's deleted DSCP 26 entry leaves firmware at 0, which the kernel does not report: the
# map reads the default (dscp >> 3), and the driver reports that no entry feeds the lossless
# priority ("dscp2prio.effect") -- unless PFC is off on that port too, so nothing is lossless.
expected() {
	jq -r '. as $all | .[] | if .kind == "switch" then . as $r | .ports[] | [$r.device, ., $r.field, $r.value]
		elif .field == "dscp2prio[26]" and .value == "0" then
			. as $r | if any($all[]; .device == $r.device and .port == $r.port and
					.field == "pfc_enabled" and .value == "none") then empty
				else [.device, .port, "dscp2prio.effect", "not in effect"] end
		else [.device, .port, .field, .value] end | @tsv' "$LAB/drift.json" | sort
}

# a report's set/unknown changes as (device, port, field, value found)
reported() {
	jq -r '.devices[] | .device as $d | .changes[] | select(.kind == "set" or .kind == "unknown") |
		[$d, .port, .field, (.old // "unknown")] | @tsv' "$1" | sort
}

# the same without the value (apply reports what it found before repairing)
fields() {
	cut -f1-3 "$1"
}

# Per path of a trace: the index of the first hop whose device has drifted on the port the
# path enters or leaves it by (from drift.json), or null.  A link's two ends disagree only
# if one of them drifted, so this is also where the first link disagreement shows.
first_drifted_hops() {
	expected | jq -R -s '[split("\n")[] | select(length > 0) | split("\t") | .[0:2]]' \
		>"$TMP/drifted.json" &&
		jq -c --slurpfile d "$TMP/drifted.json" '$d[0] as $set | [.paths[] | . as $p |
		[range(0; $p.hops | length) as $k | $p.hops[$k] |
		 select(([.device, .in] | IN($set[])) or ([.device, .out] | IN($set[]))) | $k] |
		first // null]' "$1"
}

# What the simulators saw written, per device: a host's DCB sets and file writes as its
# NICs logged them (not the configfs mkdir/rmdir a read of rdma_cm makes), a switch's
# applied revision.
writes() {
	for h in "$LAB"/hosts/*/; do
		h=${h%/}
		echo "${h##*/} $(grep -cv "^mkdir \|^rmdir " "$h/writes.log")"
	done
	awk '$1 == "switch" { print $2 }' "$LAB/topology" | while read -r sw; do
		echo "$sw $("$SIMCTL" state "$LAB/switchsim" "$sw" | jq '.nvue["applied-rev"]')"
	done
}

# Hosts for a trace whose paths cross the drifted device: the device itself (a host) and
# another host, else two hosts (with two leaves every host reaches every switch).
trace_pair() {
	d=$(jq -r '.[0].device' "$LAB/drift.json")
	case $d in
	gpu*) [ "$d" = gpu001 ] && echo "$d gpu003" || echo "$d gpu001" ;;
	*) echo "gpu002 gpu004" ;;
	esac
}

test_expect_success 'bring-up of a 4-host, 2-leaf, 1-spine lab' '
	"$LAB_CMD" up "$LAB" --hosts 4 --leaves 2 --spines 1 >/dev/null &&
	test_expect_code 2 rc plan -p "$POLICY" -i "$INV" >/dev/null &&
	rc apply -p "$POLICY" -i "$INV" >/dev/null &&
	rc verify -p "$POLICY" -i "$INV" >/dev/null
'

# One round: drift, verify (exactly the drift), trace (first hop), apply (exactly the
# drift).  A failed round leaves "$TMP/dirty" so that the next one repairs first and
# fails on its own merits.
# shellcheck disable=SC2046 # trace_pair gives two host names
drift_round() {
	seed=$1 k=$2
	if [ -e "$TMP/dirty" ]; then
		rc apply -p "$POLICY" -i "$INV" >/dev/null 2>&1
		rm -f "$TMP/dirty"
	fi
	: >"$TMP/dirty" &&
	"$LAB_CMD" drift "$LAB" "$seed" "$k" >/dev/null &&
	test "$(jq length "$LAB/drift.json")" = "$k" &&
	cp "$LAB/drift.json" "$TMP/drift-$seed.json" &&
	expected >"$TMP/want" &&
	test_expect_code 2 rc verify -p "$POLICY" -i "$INV" --format json >"$TMP/verify.json" &&
	reported "$TMP/verify.json" >"$TMP/got" &&
	{ diff -u "$TMP/want" "$TMP/got" || { cat "$LAB/drift.json"; exit 1; }; } &&
	set -- $(trace_pair) &&
	test_expect_code 2 rc trace -p "$POLICY" -i "$INV" --format json "$1" "$2" >"$TMP/trace.json" &&
	first_drifted_hops "$TMP/trace.json" >"$TMP/first.want" &&
	jq -c "[.paths[].first_misaligned]" "$TMP/trace.json" >"$TMP/first.got" &&
	{ cmp -s "$TMP/first.want" "$TMP/first.got" ||
		{ echo "first misaligned hops: want $(cat "$TMP/first.want"), trace says $(cat "$TMP/first.got")"
		  cat "$LAB/drift.json"; rc trace -p "$POLICY" -i "$INV" "$1" "$2"; exit 1; }; } &&
	d=$(jq -r ".[0].device" "$LAB/drift.json") &&
	jq -e --arg d "$d" "any(.paths[]; .first_misaligned != null and any(.hops[]; .device == \$d))" \
		"$TMP/trace.json" &&
	writes >"$TMP/writes.before" &&
	rc apply -p "$POLICY" -i "$INV" --format json >"$TMP/apply.json" &&
	writes >"$TMP/writes.after" &&
	diff "$TMP/writes.before" "$TMP/writes.after" | sed -n "s/^> \([^ ]*\) .*/\1/p" >"$TMP/touched" &&
	jq -r ".[].device" "$LAB/drift.json" | sort -u >"$TMP/drifted" &&
	{ cmp -s "$TMP/drifted" "$TMP/touched" ||
		{ echo "apply wrote to: $(cat "$TMP/touched"); drifted: $(cat "$TMP/drifted")"; exit 1; }; } &&
	reported "$TMP/apply.json" | fields /dev/stdin >"$TMP/applied" &&
	fields "$TMP/want" >"$TMP/want3" &&
	diff -u "$TMP/want3" "$TMP/applied" &&
	jq -e ".summary.errors == 0 and
		all(.devices[]; (.changes | length == 0) or .status == \"changes\" or
			all(.changes[]; .kind == \"unsupported\" or .kind == \"warning\"))" "$TMP/apply.json" &&
	rm -f "$TMP/dirty"
}

for seed in $SEEDS; do
	k=$((1 + seed % 3))
	test_expect_success "drift seed $seed ($k change(s)): verify reports exactly them, trace finds the first drifted hop, apply repairs only them" \
		"drift_round $seed $k"
done

test_expect_success 'after the last repair the fabric verifies clean and plans nothing' '
	rc verify -p "$POLICY" -i "$INV" --format json >"$TMP/verify.json" &&
	jq -e "all(.links[]; .status == \"ok\") and all(.hosts[]; .status == \"ok\")" "$TMP/verify.json" &&
	rc plan -p "$POLICY" -i "$INV" >/dev/null
'

test_expect_success 'the rounds drifted every kind of target the lab has, on leaves and a spine' '
	jq -s -e "[\"host/dscp2prio[26]\", \"host/pfc_enabled\", \"switch/dscp2prio[26]\",
		\"switch/ecn[3].kmin_bytes\", \"switch/pfc_enabled\", \"switch/trust\"] -
		[.[][] | .kind + \"/\" + .field] == []" "$TMP"/drift-*.json &&
	jq -s -e "[.[][] | select(.kind == \"switch\") | .device] | any(startswith(\"leaf\")) and any(startswith(\"spine\"))" \
		"$TMP"/drift-*.json &&
	jq -s -e "[.[][] | select(.kind == \"host\" and .field == \"dscp2prio[26]\") | .value == \"0\"] | any and (all | not)" \
		"$TMP"/drift-*.json
'

test_done
