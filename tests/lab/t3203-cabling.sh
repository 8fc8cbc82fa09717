#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Cabling against LLDP on the lab: the switches' LLDP agents see the lab's true cables
# (DIR/cabling, written by the lab, not by rocectl); the hosts run no lldpd.  verify must
# find the inventory's cabling right with the hosts "unknown", name both links of a swapped
# pair of cables, and discover must print the true cables both times; on SONiC and EOS
# switches, whose neighbours see SONiC ports by their aliases, the same.
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

LAB_CMD="$SRC_DIR/tests/lab/lab"
LAB="$TMP/lab"
INV="$LAB/inventory.yaml"
POLICY="$SRC_DIR/policies/roce-lossless.yaml"
ROCECTL_JOURNAL="$TMP/journal"
ROCECTL_LOCK_DIR="$TMP/locks"
export BUILD_DIR ROCECTL ROCECTL_JOURNAL ROCECTL_LOCK_DIR

test_needs root

test_at_exit '"$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true'

rc() {
	"$LAB_CMD" exec "$LAB" -- "$ROCECTL" "$@"
}

# cables as sorted "X Y" lines, from discover's or the inventory's links, or DIR/cabling
pairs_yaml() {
	sed -n 's/^  - {a: "\([^"]*\)", b: "\([^"]*\)".*/\1 \2/p' "$1" |
		awk '{ if ($1 < $2) print $1, $2; else print $2, $1 }' | sort
}

pairs_plain() {
	awk '{ if ($1 < $2) print $1, $2; else print $2, $1 }' "$1" | sort
}

test_expect_success 'a lab whose switches see the true cables over LLDP' '
	"$LAB_CMD" up "$LAB" --hosts 4 --leaves 2 --spines 1 >/dev/null &&
	test "$(wc -l <"$LAB/cabling")" = 10
'

test_expect_success 'verify: the cabling is right; hosts without lldpd are unknown, never drift' '
	test_expect_code 2 rc verify -p "$POLICY" -i "$INV" --format json >"$TMP/v.json" &&
	jq -e ".cabling == {\"links_checked\": 10, \"links_unknown\": 0,
		\"unknown_devices\": [\"gpu001\", \"gpu002\", \"gpu003\", \"gpu004\"],
		\"unreadable\": [], \"findings\": [], \"status\": \"ok\"}" "$TMP/v.json"
'

test_expect_success 'discover prints the inventory links the lab cabled' '
	rc discover -i "$INV" >"$TMP/d.yaml" &&
	grep -q "^# gpu001: no LLDP here" "$TMP/d.yaml" &&
	pairs_yaml "$TMP/d.yaml" >"$TMP/d.pairs" &&
	pairs_yaml "$INV" >"$TMP/inv.pairs" &&
	test "$(wc -l <"$TMP/d.pairs")" = 10 &&
	diff -u "$TMP/inv.pairs" "$TMP/d.pairs"
'

test_expect_success 'two swapped cables: verify names both links, discover prints the true ones' '
	r=$(od -An -N2 -tu2 /dev/urandom | tr -d " ") &&
	set -- $(awk -v r="$r" "\$1 == \"link\" && \$3 ~ /^leaf/ { p[n++] = \$3 }
		END { i = r % n; j = (i + 1 + int(r / n) % (n - 1)) % n; print p[i], p[j] }" \
		"$LAB/topology") &&
	echo "swapped: $1 $2" &&
	"$LAB_CMD" miscable "$LAB" "$1" "$2" >/dev/null &&
	test_expect_code 2 rc verify -p "$POLICY" -i "$INV" --format json >"$TMP/m.json" &&
	l1=$(grep -F -e "\"$1\"" "$INV" | sed -n "s/^  - {a: \"\([^\"]*\)\", b: \"\([^\"]*\)\".*/\1 -- \2/p") &&
	l2=$(grep -F -e "\"$2\"" "$INV" | sed -n "s/^  - {a: \"\([^\"]*\)\", b: \"\([^\"]*\)\".*/\1 -- \2/p") &&
	jq -e --arg l1 "$l1" --arg l2 "$l2" ".cabling.status == \"drift\" and
		([.cabling.findings[].link] | unique | sort) == ([\$l1, \$l2] | sort) and
		all(.cabling.findings[]; .kind == \"miscabled\")" "$TMP/m.json" &&
	jq -e --arg a "$1" "any(.cabling.findings[]; .at == \$a)" "$TMP/m.json" &&
	test_expect_code 2 rc verify -p "$POLICY" -i "$INV" >"$TMP/m.txt" &&
	grep -q "^  miscabled $1 (link " "$TMP/m.txt" &&
	test_expect_code 2 rc verify -p "$POLICY" -i "$INV" --format prometheus >"$TMP/m.prom" &&
	grep -q "^rocectl_cabling_problems 2$" "$TMP/m.prom" &&
	rc discover -i "$INV" >"$TMP/d2.yaml" &&
	pairs_yaml "$TMP/d2.yaml" >"$TMP/d2.pairs" &&
	pairs_plain "$LAB/cabling" >"$TMP/true.pairs" &&
	diff -u "$TMP/true.pairs" "$TMP/d2.pairs" &&
	! diff -q "$TMP/inv.pairs" "$TMP/d2.pairs" >/dev/null
'

# SONiC's lldpmgrd advertises each port's alias as its port ID (conformance sonic/FACTS.md
# facts 6-7): on a SONiC/EOS lab the switches see aliases (etpN) from the SONiC switches, and
# rocectl must still match every cable to the inventory's port names.
test_expect_success 'SONiC and EOS switches: ports seen by their aliases, cabling right, discover by names' '
	"$LAB_CMD" down "$LAB" >/dev/null &&
	"$LAB_CMD" up "$LAB" --hosts 2 --leaves 2 --spines 1 --platforms sonic,eos >/dev/null &&
	grep -q " etp[0-9]* local$" "$LAB/portids" &&
	sh "$SRC_DIR/tests/sim/switch/simctl" cli "$LAB/switchsim" spine01 "show lldp table" \
		>"$TMP/spine.lldp" &&
	grep -q "^Ethernet0  *leaf01  *etp[0-9]" "$TMP/spine.lldp" &&
	test_expect_code 2 rc verify -p "$POLICY" -i "$INV" --format json >"$TMP/mix.json" &&
	jq -e ".cabling.status == \"ok\" and .cabling.findings == [] and
		.cabling.links_checked == 6" "$TMP/mix.json" &&
	rc discover -i "$INV" >"$TMP/mix.yaml" &&
	pairs_yaml "$TMP/mix.yaml" >"$TMP/mix.pairs" &&
	pairs_yaml "$INV" >"$TMP/mixinv.pairs" &&
	diff -u "$TMP/mixinv.pairs" "$TMP/mix.pairs"
'

test_done
