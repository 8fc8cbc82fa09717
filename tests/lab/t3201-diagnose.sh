#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# rocectl diagnose on the lab (tests/lab): `lab congest` makes the counters of the fabric
# move as a congestion tree would (congest.json is the witness: written by the lab from the
# topology, not by rocectl).  diagnose must find no fault on a quiet fabric, the congested
# leaf port as the root with every pausing switch port as a relay, a NIC pause storm as a
# storm on its host, and marks that no CNP answers when the receiving NIC's ECN is off.
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

LAB_CMD="$SRC_DIR/tests/lab/lab"
LAB="$TMP/lab"
INV="$LAB/inventory.yaml"
POLICY="$SRC_DIR/policies/roce-lossless.yaml"
ROCECTL_JOURNAL="$TMP/journal"
# locks of our own: other runs on this machine may manage devices of the same names
ROCECTL_LOCK_DIR="$TMP/locks"
export BUILD_DIR ROCECTL ROCECTL_JOURNAL ROCECTL_LOCK_DIR

test_needs root

test_at_exit '"$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true'

rc() {
	"$LAB_CMD" exec "$LAB" -- "$ROCECTL" "$@"
}

diagnose() {
	rc diagnose -p "$POLICY" -i "$INV" --interval 1s "$@"
}

# A random host-facing port of a random leaf, from the topology (said in the log).
random_leaf_port() {
	r=$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')
	awk -v r="$r" '$1 == "link" && $3 ~ /^leaf/ && $2 ~ /^gpu/ { p[n++] = $3 }
		END { print p[r % n] }' "$LAB/topology"
}

# The far end of DEV:PORT's link.
peer_of() {
	awk -v e="$1" '$1 == "link" && $2 == e { print $3 } $1 == "link" && $3 == e { print $2 }' \
		"$LAB/topology"
}

test_expect_success 'bring-up of a 4-host, 2-leaf, 1-spine lab, in policy' '
	"$LAB_CMD" up "$LAB" --hosts 4 --leaves 2 --spines 1 >/dev/null &&
	rc apply -p "$POLICY" -i "$INV" >/dev/null &&
	rc verify -p "$POLICY" -i "$INV" >/dev/null
'

test_expect_success 'no fault: every path is clean, every hop clean, exit 0' '
	diagnose --format json >"$TMP/clean.json" &&
	jq -e ".schema == \"rocectl.diagnose/v1\" and .exit_code == 0 and .status == \"clean\" and
		(.paths | length) == 48 and all(.paths[]; .verdict == \"clean\" and .at == null and
		all(.hops[]; .role == \"clean\")) and .roots == [] and .findings == []" "$TMP/clean.json" &&
	diagnose >"$TMP/clean.txt" &&
	grep -q "48 paths: 48 clean" "$TMP/clean.txt"
'

test_expect_success 'congestion at a random leaf port: that port is the root, every pausing hop a relay' '
	root=$(random_leaf_port) && echo "congested: $root" &&
	"$LAB_CMD" congest "$LAB" "$root" >/dev/null &&
	test_expect_code 2 diagnose --format json >"$TMP/cong.json" &&
	jq -e --arg r "$root" ".roots == [\$r] and .status == \"not_clean\"" "$TMP/cong.json" &&
	# every root hop is the congested port, and every path into it has one
	jq -e --arg r "$root" "[.paths[].hops[] | select(.role == \"root\") | .device + \":\" + .out] |
		length > 0 and all(. == \$r)" "$TMP/cong.json" &&
	to=$(peer_of "$root") &&
	jq -e --arg r "$root" --arg to "$to" "[.paths[] | select(.to + \":\" + .to_port == \$to and
		(.from + \":\" + .from_port) != \$to)] | length > 0 and all(.verdict == \"congested\" and
		.at == \$r and any(.hops[]; .role == \"root\"))" "$TMP/cong.json" &&
	# relays: exactly the switch ports the lab made send pause (on the root device too, for
	# the paths that leave it by another port)
	jq -r "[.paths[].hops[] | select(.role == \"relay\") | .device + \":\" + .in] | unique[]" \
		"$TMP/cong.json" >"$TMP/relays.got" &&
	jq -r "[.pause_tx[] | select(startswith(\"leaf\") or startswith(\"spine\"))] | unique[]" \
		"$LAB/congest.json" >"$TMP/relays.want" &&
	diff -u "$TMP/relays.want" "$TMP/relays.got" &&
	# the deltas that decided it are in the report
	jq -e --arg r "$root" "any(.paths[].hops[]; .role == \"root\" and .deltas.out.ecn_marked > 0 and
		.deltas.out.pause_rx == 0 and .deltas.in.pause_tx > 0)" "$TMP/cong.json" &&
	jq -e ".findings == []" "$TMP/cong.json" &&
	"$LAB_CMD" congest "$LAB" --clear
'

# The whole fabric by equal-cost class (what diagnose does past 65536 paths): the same root,
# every class into the congested leaf blames it, each class counts the paths it stands for,
# and the pausing ports are listed with their roles.  Hosts are chosen by range and glob.
test_expect_success 'by class: the same root and relays, classes into it blame it' '
	"$LAB_CMD" congest "$LAB" leaf02:swp2 >/dev/null &&
	test_expect_code 2 diagnose --by class --format json >"$TMP/class.json" &&
	jq -e ".by == \"class\" and .paths == [] and .roots == [\"leaf02:swp2\"] and
		.n_paths == 48 and ([.classes[].paths] | add) == 48 and (.classes | length) == 4 and
		any(.classes[]; .from == \"leaf01\" and .to == \"leaf02\" and
			.verdict == \"congested\" and .at == \"leaf02:swp2\") and
		any(.ports[]; .device == \"leaf02\" and .port == \"swp2\" and .role == \"root\" and
			.deltas.ecn_marked > 0)" "$TMP/class.json" &&
	jq -r "[.ports[] | select(.role == \"relay\") | .device + \":\" + .port] | unique[]" \
		"$TMP/class.json" >"$TMP/crelays.got" &&
	jq -r "[.pause_tx[] | select(startswith(\"leaf\") or startswith(\"spine\"))] | unique[]" \
		"$LAB/congest.json" >"$TMP/crelays.want" &&
	diff -u "$TMP/crelays.want" "$TMP/crelays.got" &&
	test_expect_code 2 diagnose --by class >"$TMP/class.txt" &&
	grep -q "^48 paths in 4 equal-cost classes\|paths in 4 equal-cost classes" "$TMP/class.txt" &&
	grep -q "congested at leaf02:swp2: " "$TMP/class.txt" &&
	test_expect_code 2 diagnose --by class --format prometheus >"$TMP/class.prom" &&
	grep -q "^rocectl_diagnose_class_clean{from=\"leaf01\",to=\"leaf02\"} 0$" "$TMP/class.prom" &&
	grep -v "^#" "$TMP/class.prom" | sed "s/ [^ ]*\$//" | sort | uniq -d >"$TMP/class.dups" &&
	test ! -s "$TMP/class.dups" &&
	test_expect_code 2 diagnose --by class --format html >"$TMP/class.html" &&
	grep -q "^\[\"leaf02\",[0-9]*,\"root\"," "$TMP/class.html" &&
	grep -q "^\[\"gpu001\",[0-9]*,\"clean\"," "$TMP/class.html" &&
	test_expect_code 2 diagnose --format json "gpu00[1-2]" >"$TMP/range.json" &&
	jq -e "[.paths[] | .from, .to] | unique == [\"gpu001\", \"gpu002\"]" "$TMP/range.json" &&
	test_expect_code 2 diagnose --format json --limit "gpu*,!gpu004,leaf*,spine*" >"$TMP/lim.json" &&
	jq -e "[.paths[] | .from, .to] | unique == [\"gpu001\", \"gpu002\", \"gpu003\"]" \
		"$TMP/lim.json" &&
	"$LAB_CMD" congest "$LAB" --clear
'

test_expect_success 'after --clear the counters stop: every path clean again' '
	diagnose --format json >"$TMP/after.json" &&
	jq -e "all(.paths[]; .verdict == \"clean\")" "$TMP/after.json"
'

test_expect_success 'a NIC pause storm is named as a storm on its host; paths through it are host-side' '
	"$LAB_CMD" congest "$LAB" gpu002:enp12s0np0 --storm >/dev/null &&
	test_expect_code 2 diagnose --format json gpu001 gpu002 >"$TMP/storm.json" &&
	jq -e "[.paths[].hops[] | select(.role == \"storm\") | .device + \":\" + (.in + .out)] | unique ==
		[\"gpu002:enp12s0np0\"]" "$TMP/storm.json" &&
	jq -e "all(.paths[] | select(.to_port == \"enp12s0np0\" and .to == \"gpu002\");
		.verdict == \"host-side\" and .at == \"gpu002:enp12s0np0\")" "$TMP/storm.json" &&
	jq -e "(.paths | length) == 8" "$TMP/storm.json" &&
	"$LAB_CMD" congest "$LAB" --clear
'

test_expect_success 'ECN off on the receiving NIC: marks without CNPs, named with the fields to change; -o writes a 0644 textfile with each series once; -q only the status' '
	"$LAB_CMD" congest "$LAB" leaf01:swp3 --ecn-off >/dev/null &&
	test_expect_code 2 diagnose --format json >"$TMP/ecn.json" &&
	jq -e "[.findings[] | select(.kind == \"marks_without_cnps\")] | length == 1 and
		.[0].device == \"gpu003\" and .[0].port == \"enp12s0np0\" and
		(.[0].fields | test(\"notification_point\")) and (.[0].message | test(\"leaf01:swp3\"))" \
		"$TMP/ecn.json" &&
	test_expect_code 2 diagnose >"$TMP/ecn.txt" &&
	grep -q "^marks_without_cnps gpu003:enp12s0np0: leaf01:swp3 marked" "$TMP/ecn.txt" &&
	grep -q "change: nic_ecn notification point" "$TMP/ecn.txt" &&
	test_expect_code 2 diagnose --format prometheus >"$TMP/ecn.prom" &&
	grep -q "^rocectl_diagnose_finding{kind=\"marks_without_cnps\",device=\"gpu003\",port=\"enp12s0np0\"} 1$" "$TMP/ecn.prom" &&
	grep -q "^rocectl_diagnose_pause_root{at=\"leaf01:swp3\"} 1$" "$TMP/ecn.prom" &&
	(umask 077 && test_expect_code 2 diagnose --format prometheus -o "$TMP/ecn-o.prom") &&
	test "$(stat -c %a "$TMP/ecn-o.prom")" = 644 &&
	grep -v "^#" "$TMP/ecn-o.prom" | sed "s/ [^ ]*\$//" | sort | uniq -d >"$TMP/ecn.dups" &&
	test ! -s "$TMP/ecn.dups" &&
	test_expect_code 2 diagnose -q >"$TMP/ecn.q" &&
	test "$(wc -l <"$TMP/ecn.q")" -eq 2 &&
	grep -q "^status: not_clean$" "$TMP/ecn.q" &&
	grep -q "^[0-9]* path(s) not clean, 1 finding(s)$" "$TMP/ecn.q" &&
	"$LAB_CMD" congest "$LAB" --clear
'

test_expect_success 'trace --counters gives each hop the role diagnose gives it' '
	"$LAB_CMD" congest "$LAB" leaf02:swp2 >/dev/null &&
	test_expect_code 2 diagnose --format json gpu001 gpu002 >"$TMP/d.json" &&
	test_expect_code 2 rc trace -p "$POLICY" -i "$INV" --counters --interval 1s --format json \
		gpu001 gpu002 >"$TMP/t.json" &&
	jq -c "[.paths[] | select(.from == \"gpu001\") | [.verdict, .at, [.hops[].role]]]" \
		"$TMP/d.json" >"$TMP/d.roles" &&
	jq -c "[.paths[] | [.verdict, .at, [.hops[].role]]]" "$TMP/t.json" >"$TMP/t.roles" &&
	cat "$TMP/t.roles" && diff "$TMP/d.roles" "$TMP/t.roles" &&
	grep -q "root" "$TMP/t.roles" &&
	jq -e "all(.paths[]; .first_misaligned == null)" "$TMP/t.json" &&
	test_expect_code 2 rc trace -p "$POLICY" -i "$INV" --counters --interval 1s gpu001 gpu002 >"$TMP/t.txt" &&
	grep -q "counters: root" "$TMP/t.txt" &&
	grep -q "verdict: congested at leaf02:swp2" "$TMP/t.txt" &&
	"$LAB_CMD" congest "$LAB" --clear &&
	rc trace -p "$POLICY" -i "$INV" --counters --interval 1s gpu001 gpu002 >/dev/null
'

test_expect_success 'diagnose refuses what selects no host, and a bad interval' '
	test_expect_code 64 diagnose leaf01 gpu001 2>"$TMP/err" &&
	grep -q "leaf01.* selects no host" "$TMP/err" &&
	test_expect_code 64 diagnose "gpu9*" 2>"$TMP/err" &&
	grep -q "gpu9\*" "$TMP/err" &&
	test_expect_code 64 diagnose --by hop 2>"$TMP/err" &&
	grep -q "by" "$TMP/err" &&
	test_expect_code 64 diagnose --interval 5 2>"$TMP/err" &&
	grep -q "interval" "$TMP/err"
'

# SONiC counts ECN marks and drops per queue (`show queue wredcounters`, `show queue counters`)
# and drops per priority group (`show priority-group drop counters`): a congested SONiC leaf
# port is named as the root, and a lossless PG that drops makes the paths through it lossy.
test_expect_success 'SONiC: the congested port is the root, a dropping lossless PG is lossy' '
	"$LAB_CMD" down "$LAB" >/dev/null &&
	"$LAB_CMD" up "$LAB" --hosts 2 --leaves 2 --spines 1 --platforms sonic >/dev/null &&
	rc apply -p "$POLICY" -i "$INV" >/dev/null &&
	"$LAB_CMD" congest "$LAB" leaf01:Ethernet0 >/dev/null &&
	test_expect_code 2 diagnose --format json >"$TMP/sonic.json" &&
	jq -e ".roots == [\"leaf01:Ethernet0\"]" "$TMP/sonic.json" &&
	jq -e "any(.paths[].hops[]; .role == \"root\" and .device == \"leaf01\" and
		.out == \"Ethernet0\" and .deltas.out.ecn_marked > 0)" "$TMP/sonic.json" &&
	"$LAB_CMD" congest "$LAB" --clear &&
	sh "$SRC_DIR/tests/sim/switch/simctl" fault "$LAB/switchsim" leaf01 rate \
		Ethernet4.pg.3.drop=500 >/dev/null &&
	test_expect_code 2 diagnose --format json >"$TMP/lossy.json" &&
	jq -e "[.paths[] | select(.verdict == \"lossy\") | .at] | length > 0 and
		all(. == \"leaf01:Ethernet4\")" "$TMP/lossy.json"
'

test_done
