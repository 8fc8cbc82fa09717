#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The fabric lab with a platform mix (--platforms nvue,sonic,eos): round-robin assignment,
# each platform's port names in the topology and inventory, every switch answering in its
# own dialect, and `lab drift` on SONiC and EOS switches read back with their own commands.
. "$SRC_DIR/tests/lib/testlib.sh"

LAB_CMD="$SRC_DIR/tests/lab/lab"
LAB="$TMP/lab"
# shellcheck disable=SC2034 # used inside the test bodies
POLICY="$SRC_DIR/policies/roce-lossless.yaml"
export BUILD_DIR ROCECTL

test_needs root

test_at_exit '"$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true'

on() {
	"$LAB_CMD" ssh "$LAB" "$@"
}

test_expect_success 'up assigns nvue, sonic, eos round-robin over leaves then spines' '
	test_expect_code 1 "$LAB_CMD" up "$TMP/bad" --hosts 2 --leaves 1 --spines 0 \
		--model sonic=Arista-7060X6-64PE-B-O128,ios=X 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "unknown platform .ios." &&
	"$LAB_CMD" up "$LAB" --hosts 3 --leaves 3 --spines 1 --platforms nvue,sonic,eos \
		>/dev/null &&
	awk "\$1 == \"switch\" { print \$2, \$5, \$6, \$7 }" "$LAB/topology" >"$TMP/sw" &&
	printf "%s\n" "leaf01 nvue SN5400 swp1" "leaf02 sonic Arista-7060X6-64PE-B-O128 Ethernet0" \
		"leaf03 eos 7060DX5 Ethernet1" "spine01 nvue SN5400 swp1" >"$TMP/expect" &&
	diff -u "$TMP/expect" "$TMP/sw" &&
	test_must_contain "$LAB/topology" "^link leaf02:Ethernet[0-9]+ spine01:swp2 400G 30m$" &&
	test_must_contain "$LAB/topology" "^link leaf03:Ethernet3 spine01:swp3 400G 30m$"
'

test_expect_success 'the inventory has each platform, its port names, SONiC on SSH' '
	"$ROCECTL" validate -p "$POLICY" -i "$LAB/inventory.yaml" >"$TMP/val" &&
	test_must_contain "$TMP/val" "device leaf02: switch role=leaf platform=sonic .*transport=ssh ports=Ethernet0,Ethernet4,Ethernet8$" &&
	test_must_contain "$TMP/val" "device leaf03: switch role=leaf platform=eos .*ports=Ethernet1,Ethernet2,Ethernet3$" &&
	"$ROCECTL" validate -p "$POLICY" -i "$LAB/inventory-rest.yaml" >"$TMP/val" &&
	test_must_contain "$TMP/val" "device leaf02: switch .*transport=ssh" &&
	test_must_contain "$TMP/val" "device leaf03: switch .*transport=rest"
'

test_expect_success 'every switch answers in its own dialect, in factory state' '
	on leaf01 "nv show qos roce" >"$TMP/out" &&
	test_must_contain "$TMP/out" "^enable +off" &&
	test "$(on leaf02 "sonic-db-cli CONFIG_DB HGET '\''DSCP_TO_TC_MAP|AZURE'\'' 26")" = 1 &&
	on leaf03 "show priority-flow-control | json" |
		jq -e ".interfaces.Ethernet1.pfcEnabled == false"
'

# read_back DEVICE PLATFORM FIELD PORT: the field as the device reports it, rocectl spelling
read_back() {
	case $2/$3 in
	sonic/pfc_enabled)
		v=$(on "$1" "sonic-db-cli CONFIG_DB HGET '\''PORT_QOS_MAP|$4'\'' pfc_enable")
		echo "${v:-none}" ;;
	sonic/dscp2prio*)
		m=$(on "$1" "sonic-db-cli CONFIG_DB HGET '\''PORT_QOS_MAP|$4'\'' dscp_to_tc_map") &&
		on "$1" "sonic-db-cli CONFIG_DB HGET '\''DSCP_TO_TC_MAP|$m'\'' 26" ;;
	sonic/ecn*)
		w=$(on "$1" "sonic-db-cli CONFIG_DB HGET '\''QUEUE|$4|3'\'' wred_profile") &&
		on "$1" "sonic-db-cli CONFIG_DB HGET '\''WRED_PROFILE|$w'\'' green_min_threshold" ;;
	eos/pfc_enabled)
		on "$1" "show priority-flow-control interfaces $4 | json" |
			jq -r ".interfaces[\"$4\"] | if .pfcEnabled and (.priorities | length) > 0
				then .priorities | map(tostring) | join(\",\") else \"none\" end" ;;
	eos/trust)
		on "$1" "show qos interfaces $4 trust | json" |
			jq -r ".intfConfig[\"$4\"].trustMode | {DSCP: \"dscp\", COS: \"pcp\", UNTRUSTED: \"unset\"}[.]" ;;
	eos/dscp2prio*)
		on "$1" "show qos maps | json" | jq -r ".dscpToTcMap[\"26\"]" ;;
	eos/ecn*)
		on "$1" "show qos interfaces $4 ecn | json" |
			jq -r ".interfaces[\"$4\"].txQueues[\"3\"].minThresholdBytes // 0" ;;
	nvue/pfc_enabled)
		on "$1" "nv show interface $4 qos -o json" |
			jq -r ".pfc[\"switch-priority\"] | keys | join(\",\")" ;;
	nvue/trust)
		on "$1" "nv show interface $4 qos -o json" |
			jq -r ".mapping.trust | {l2: \"pcp\", l3: \"dscp\", both: \"unset\"}[.]" ;;
	nvue/dscp2prio*)
		on "$1" "nv show qos mapping default-global -o json" |
			jq -r ".dscp[\"26\"][\"switch-priority\"]" ;;
	nvue/ecn*)
		on "$1" "nv show interface $4 qos -o json" |
			jq -r ".[\"congestion-control\"][\"traffic-class\"][\"3\"][\"min-threshold\"]" ;;
	esac
}

test_expect_success 'drift changes every switch target of every platform, as drift.json says' '
	targets=$(awk "\$1 == \"host\" { t += 2 * (NF - 3) } \$1 == \"switch\" { t += \$5 == \"sonic\" ? 3 : 4 } END { print t }" "$LAB/topology") &&
	"$LAB_CMD" drift "$LAB" 7 "$targets" >/dev/null &&
	jq -r ".[] | select(.kind == \"switch\") | [.device, .field, .value, .port, .ports[0]] | @tsv" \
		"$LAB/drift.json" >"$TMP/recs" &&
	test $(wc -l <"$TMP/recs") = 15 &&
	jq -e "[.[] | select(.device == \"leaf02\" and .field == \"pfc_enabled\")][0] |
		.port == \"Ethernet0\" and .ports == [\"Ethernet0\"]" "$LAB/drift.json" &&
	jq -e "[.[] | select(.device == \"leaf03\" and .field == \"dscp2prio[26]\")][0] |
		.port == \"*\" and (.ports | length) == 3" "$LAB/drift.json" &&
	while IFS="	" read -r dev field value port p0; do
		plat=$(awk -v d="$dev" "\$1 == \"switch\" && \$2 == d { print \$5 }" "$LAB/topology")
		got=$(read_back "$dev" "$plat" "$field" "$p0")
		[ "$got" = "$value" ] || { echo "$dev ($plat) $field: drift.json says $value, device has $got"; exit 1; }
	done <"$TMP/recs"
'

test_expect_success 'down removes the lab' '
	"$LAB_CMD" down "$LAB" &&
	test ! -e "$LAB/lab.env"
'

test_done
