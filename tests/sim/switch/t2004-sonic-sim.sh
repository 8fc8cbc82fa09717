#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The simulated SONiC switches through the real ssh client: CONFIG_DB reads (sonic-db-cli's
# Python-dict output, show runningconfiguration all), the Generic Config Updater (dry-run,
# checkpoint, apply, rollback), the per-SKU gate on lossless tables, buffermgrd, drift and
# faults.
. "$SRC_DIR/tests/lib/testlib.sh"

SIMCTL="$SRC_DIR/tests/sim/switch/simctl"
LAB="$TMP/lab"
export BUILD_DIR

test_needs root jq

test_at_exit '"$SIMCTL" down "$LAB" >/dev/null 2>&1 || true'

sw() {
	"$SIMCTL" exec "$LAB" -- ssh -F "$LAB/ssh_config" "$@"
}

# hget SWITCH KEY FIELD: one CONFIG_DB field
hget() {
	sw "$1" "sonic-db-cli CONFIG_DB HGET '$2' $3"
}

# hgets SWITCH 'KEY FIELD'...: several fields in one login, space-separated
hgets() {
	h_sw=$1
	shift
	h_cmd=
	for kf in "$@"; do
		h_cmd="$h_cmd sonic-db-cli CONFIG_DB HGET '${kf% *}' ${kf##* };"
	done
	sw "$h_sw" "$h_cmd" | tr '\n' ' ' | sed 's/ $//'
}

# patch SWITCH [OPTIONS]: the JSON patch on stdin through GCU
patch() {
	s=$1
	shift
	sw "$s" "sudo config apply-patch /dev/stdin $*"
}

test_expect_success 'simctl up starts SONiC switches of three SKUs' '
	"$SIMCTL" up "$LAB" --switch sn=127.0.4.1:sonic:Mellanox-SN5600-O128+traditional \
		--switch tl=127.0.4.2:sonic:Arista-7060X6-64PE-B-O128@202311 \
		--switch bc=127.0.4.3:sonic:Arista-7260CX3-D108C8 \
		--switch nw=127.0.4.4:sonic:Mellanox-SN5600-O128@202511+traditional \
		--switch rd=127.0.4.5:sonic:Mellanox-SN5600-O128@202511+rdma+traditional \
		>/dev/null &&
	test_must_contain "$LAB/inventory.yaml" "platform: sonic" &&
	test_must_contain "$LAB/inventory.yaml" "ports: \\[Ethernet0, Ethernet4, Ethernet8, Ethernet12\\]" &&
	test_must_not_contain "$LAB/inventory-rest.yaml" "transport: rest"
'

test_expect_success 'factory CONFIG_DB: AZURE maps, DSCP 26 lossy, PFC 3,4, WRED 1 MiB/2 MiB/5 %' '
	sw sn "sonic-db-cli CONFIG_DB HGETALL '\''PORT_QOS_MAP|Ethernet0'\''" >"$TMP/out" &&
	test "$(cat "$TMP/out")" = "{'\''dscp_to_tc_map'\'': '\''AZURE'\'', '\''pfc_enable'\'': '\''3,4'\'', '\''pfc_to_queue_map'\'': '\''AZURE'\'', '\''pfcwd_sw_enable'\'': '\''3,4'\'', '\''tc_to_pg_map'\'': '\''AZURE'\'', '\''tc_to_queue_map'\'': '\''AZURE'\''}" &&
	test "$(hgets sn "DSCP_TO_TC_MAP|AZURE 26" "DSCP_TO_TC_MAP|AZURE 48" \
		"QUEUE|Ethernet4|3 wred_profile" "PFC_WD|Ethernet0 detection_time" \
		"PFC_WD|Ethernet0 action" "PFC_WD|GLOBAL POLL_INTERVAL" \
		"CABLE_LENGTH|AZURE Ethernet12")" = "1 6 AZURE_LOSSLESS 200 drop 200 5m" &&
	sw sn "sonic-db-cli CONFIG_DB KEYS '\''QUEUE|*'\''" >"$TMP/keys" &&
	test $(wc -l <"$TMP/keys") = 896 &&
	sw sn "sonic-db-cli CONFIG_DB HGETALL '\''WRED_PROFILE|AZURE_LOSSLESS'\''" >"$TMP/out" &&
	test_must_contain "$TMP/out" "'\''green_min_threshold'\'': '\''1048576'\''" &&
	test_must_contain "$TMP/out" "'\''green_max_threshold'\'': '\''2097152'\''" &&
	test_must_contain "$TMP/out" "'\''green_drop_probability'\'': '\''5'\''"
'

test_expect_success 'buffermgrd derived the lossless PG profile from speed and cable length' '
	test "$(hget sn "BUFFER_PG|Ethernet0|3-4" profile)" = pg_lossless_400000_5m_profile &&
	sw sn "sonic-db-cli CONFIG_DB HGETALL '\''BUFFER_PROFILE|pg_lossless_400000_5m_profile'\''" \
		>"$TMP/out" &&
	test_must_contain "$TMP/out" "'\''xon'\'': '\''19456'\''" &&
	test_must_contain "$TMP/out" "'\''xoff'\'': '\''231424'\''" &&
	test_must_contain "$TMP/out" "'\''size'\'': '\''250880'\''"
'

test_expect_success 'show runningconfiguration all is the same CONFIG_DB as JSON' '
	sw sn "show runningconfiguration all" >"$TMP/run.json" &&
	jq -e ".DSCP_TO_TC_MAP.AZURE[\"26\"] == \"1\" and
		.PORT_QOS_MAP.Ethernet0.pfc_enable == \"3,4\" and
		.BUFFER_PG[\"Ethernet0|3-4\"].profile == \"pg_lossless_400000_5m_profile\" and
		(.PORT | length) == 128 and .PORT.Ethernet508.speed == \"400000\" and
		(.bgpraw | type) == \"string\"" "$TMP/run.json" &&
	test_expect_code 1 sw sn "sonic-db-cli NO_DB KEYS x" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "Invalid database name input : .NO_DB."
'

test_expect_success 'config needs root; a dry run reports and changes nothing' '
	test_expect_code 1 sw sn "config checkpoint x" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "Root privileges are required for this operation" &&
	echo "[{\"op\": \"replace\", \"path\": \"/DSCP_TO_TC_MAP/AZURE/26\", \"value\": \"3\"}]" |
		patch sn --dry-run >"$TMP/out" &&
	test "$(head -n 1 "$TMP/out")" = "** DRY RUN EXECUTION **" &&
	test_must_contain "$TMP/out" "^Patch Applier: localhost: The patch was sorted into 1 change:" &&
	test "$(tail -n 1 "$TMP/out")" = "Patch applied successfully." &&
	test "$(hget sn "DSCP_TO_TC_MAP|AZURE" 26)" = 1
'

cat >"$TMP/roce.json" <<'EOF'
[{"op": "replace", "path": "/DSCP_TO_TC_MAP/AZURE/26", "value": "3"},
 {"op": "replace", "path": "/PORT_QOS_MAP/Ethernet0/pfc_enable", "value": "3"},
 {"op": "replace", "path": "/WRED_PROFILE/AZURE_LOSSLESS/green_min_threshold", "value": "150000"},
 {"op": "replace", "path": "/WRED_PROFILE/AZURE_LOSSLESS/green_max_threshold", "value": "1500000"},
 {"op": "replace", "path": "/CABLE_LENGTH/AZURE/Ethernet0", "value": "40m"},
 {"op": "replace", "path": "/PFC_WD/Ethernet0/detection_time", "value": "400"}]
EOF

test_expect_success 'checkpoint, apply, and buffermgrd follows cable length and pfc_enable' '
	sw sn "sudo config checkpoint rocectl-1" >"$TMP/out" &&
	test_must_contain "$TMP/out" "^Checkpoint created successfully.$" &&
	patch sn <"$TMP/roce.json" >"$TMP/out" &&
	test_must_contain "$TMP/out" "Patch Applier: localhost: Applying 6 changes in order:" &&
	test "$(tail -n 1 "$TMP/out")" = "Patch applied successfully." &&
	test "$(hgets sn "DSCP_TO_TC_MAP|AZURE 26" "PORT_QOS_MAP|Ethernet0 pfc_enable" \
		"PORT_QOS_MAP|Ethernet4 pfc_enable" "WRED_PROFILE|AZURE_LOSSLESS green_min_threshold" \
		"PFC_WD|Ethernet0 detection_time")" = "3 3 3,4 150000 400" &&
	sw sn "sonic-db-cli CONFIG_DB KEYS '\''BUFFER_PG|Ethernet0|*'\''" >"$TMP/pgs" &&
	printf "BUFFER_PG|Ethernet0|0\nBUFFER_PG|Ethernet0|3\n" >"$TMP/expect" &&
	diff -u "$TMP/expect" "$TMP/pgs" &&
	set -- $(hgets sn "BUFFER_PG|Ethernet0|3 profile" \
		"BUFFER_PROFILE|pg_lossless_400000_40m_profile xoff") &&
	test "$1" = pg_lossless_400000_40m_profile && test "$2" = 283648 &&
	sw sn "sudo config list-checkpoints" | jq -e ". == [\"rocectl-1\"]"
'

test_expect_success 'rollback restores the checkpoint; buffermgrd re-derives the PGs' '
	sw sn "sudo config rollback rocectl-1" >"$TMP/out" &&
	test "$(tail -n 1 "$TMP/out")" = "Config rolled back successfully." &&
	test "$(hgets sn "DSCP_TO_TC_MAP|AZURE 26" "PORT_QOS_MAP|Ethernet0 pfc_enable" \
		"CABLE_LENGTH|AZURE Ethernet0" "PFC_WD|Ethernet0 detection_time" \
		"BUFFER_PG|Ethernet0|3-4 profile")" = "1 3,4 5m 200 pg_lossless_400000_5m_profile" &&
	sw sn "sudo config delete-checkpoint rocectl-1" >"$TMP/out" &&
	test_must_contain "$TMP/out" "Checkpoint deleted successfully." &&
	test_expect_code 2 sw sn "sudo config rollback rocectl-1" >/dev/null 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "^Failed to rollback config due to: Checkpoint .rocectl-1. does not exist$" &&
	test_must_contain "$TMP/err" "^Error: Checkpoint .rocectl-1. does not exist$"
'

# GCU's rules (gcu_field_operation_validators.conf.json, and the 2025-10-25 file before
# 202511): th5 allows PFC_WD edits from 20240500, so not on 202311; lossless maps, PFC and
# cable lengths have no validator; BUFFER_POOL edits are refused, but for a replace of the
# three sizes the older file lists (allowed on spc4 from 20221100).
test_expect_success 'GCU gates follow the real rules files per HWSKU and release' '
	echo "[{\"op\": \"replace\", \"path\": \"/PFC_WD/Ethernet0/detection_time\", \"value\": \"400\"}]" |
		test_expect_code 2 patch tl --dry-run >"$TMP/out" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "^Failed to apply patch due to: Modification of PFC_WD table is illegal- validating function generic_config_updater.field_operation_validators.rdma_config_update_validator returned False$" &&
	test_must_not_contain "$TMP/out" "Patch applied successfully" &&
	for p in /PORT_QOS_MAP/Ethernet0/pfc_enable /CABLE_LENGTH/AZURE/Ethernet0 \
		/BUFFER_PG/Ethernet0\|3-4/profile; do
		case $p in */profile) v=ingress_lossy_profile ;; */Ethernet0) v=40m ;; *) v=3 ;; esac
		echo "[{\"op\": \"replace\", \"path\": \"$p\", \"value\": \"$v\"}]" |
			patch tl --dry-run >/dev/null 2>"$TMP/err" || { cat "$TMP/err"; exit 1; }
	done &&
	echo "[{\"op\": \"replace\", \"path\": \"/PFC_WD/Ethernet0/detection_time\", \"value\": \"400\"}]" |
		patch sn --dry-run >/dev/null &&
	echo "[{\"op\": \"replace\", \"path\": \"/BUFFER_POOL/egress_lossless_pool/size\", \"value\": \"1000\"}]" |
		test_expect_code 2 patch sn -d >/dev/null 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "Modification of BUFFER_POOL table is illegal" &&
	echo "[{\"op\": \"replace\", \"path\": \"/BUFFER_POOL/ingress_lossless_pool/size\", \"value\": \"50000000\"}]" |
		patch sn -d >/dev/null &&
	test "$(hget tl "PFC_WD|Ethernet0" detection_time)" = 200
'

# The validators judge jsonpatch.JsonPatch.from_diff(old, target), not the patch as sent
# (gu_common.py validate_field_operation): a whole-entry add that changes one field is that
# field's replace; creating PFC_WD|GLOBAL is a dict add whose key POLL_INTERVAL is not
# lower-cased, so it matches no listed field.
test_expect_success 'GCU judges the diff: a whole PFC_WD|GLOBAL add passes where GLOBAL exists' '
	echo "[{\"op\": \"add\", \"path\": \"/PFC_WD/GLOBAL\", \"value\": {\"POLL_INTERVAL\": \"150\"}}]" |
		patch sn -d >"$TMP/out" &&
	test_must_contain "$TMP/out" "^Patch Applier: localhost:   \* \[{\"op\": \"replace\", \"path\": \"/PFC_WD/GLOBAL/POLL_INTERVAL\", \"value\": \"150\"}\]$" &&
	"$SIMCTL" fault "$LAB" nw drift "PFC_WD.GLOBAL=" &&
	echo "[{\"op\": \"add\", \"path\": \"/PFC_WD/GLOBAL\", \"value\": {\"POLL_INTERVAL\": \"200\"}}]" |
		test_expect_code 2 patch nw -d >/dev/null 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "^- localhost: Modification of PFC_WD table is illegal- validating function generic_config_updater.field_operation_validators.rdma_config_update_validator returned False$"
'

# 202405 and later word a failure per scope (config/main.py; the output quoted in
# commit-2e9e81c1-gcu-4219.message.txt); 202311 does not.
test_expect_success 'apply-patch failures are worded per scope from 202405 on' '
	echo "[{\"op\": \"replace\", \"path\": \"/BUFFER_POOL/egress_lossless_pool/size\", \"value\": \"1000\"}]" |
		test_expect_code 2 patch sn >/dev/null 2>"$TMP/err" &&
	printf "%s\n" "Failed to apply patch due to: Failed to apply patch on the following scopes:" \
		"- localhost: Modification of BUFFER_POOL table is illegal- validating function generic_config_updater.field_operation_validators.rdma_config_update_validator returned False" \
		"Usage: config apply-patch [OPTIONS] PATCH_FILE_PATH" >"$TMP/want" &&
	head -n 3 "$TMP/err" | diff -u "$TMP/want" - &&
	test_must_contain "$TMP/err" "^Error: Failed to apply patch on the following scopes:$" &&
	echo "[{\"op\": \"replace\", \"path\": \"/PFC_WD/Ethernet0/detection_time\", \"value\": \"400\"}]" |
		test_expect_code 2 patch tl >/dev/null 2>"$TMP/err" &&
	test_must_not_contain "$TMP/err" "following scopes"
'

# The rules file follows the release: 202511 carries the newest (no WRED_PROFILE validator,
# every BUFFER_POOL change refused, whole BUFFER_PROFILE entries allowed); earlier releases
# the 2025-10-25 file with its .py (WRED_PROFILE: replace of three fields only, whole
# entries included; BUFFER_PROFILE: fields only).
test_expect_success 'the 2025-10-25 rules before 202511, the newest from 202511 on' '
	wred="[{\"op\": \"add\", \"path\": \"/WRED_PROFILE/ROCE\", \"value\": {\"ecn\": \"ecn_all\", \"wred_green_enable\": \"true\", \"green_min_threshold\": \"150000\", \"green_max_threshold\": \"1500000\", \"green_drop_probability\": \"5\"}}]" &&
	echo "$wred" | test_expect_code 2 patch sn -d >/dev/null 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "Modification of WRED_PROFILE table is illegal- validating function generic_config_updater.field_operation_validators.wred_profile_config_update_validator returned False" &&
	echo "$wred" | patch nw -d >/dev/null &&
	echo "[{\"op\": \"replace\", \"path\": \"/BUFFER_POOL/ingress_lossless_pool/size\", \"value\": \"50000000\"}]" |
		test_expect_code 2 patch nw -d >/dev/null 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "Modification of BUFFER_POOL table is illegal" &&
	prof="[{\"op\": \"add\", \"path\": \"/BUFFER_PROFILE/rocectl_test\", \"value\": {\"pool\": \"ingress_lossless_pool\", \"size\": \"19456\", \"xon\": \"19456\", \"xoff\": \"231424\", \"dynamic_th\": \"0\"}}]" &&
	echo "$prof" | patch nw -d >/dev/null &&
	echo "$prof" | test_expect_code 2 patch sn -d >/dev/null 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "Modification of BUFFER_PROFILE table is illegal- validating function generic_config_updater.field_operation_validators.buffer_profile_config_update_validator returned False"
'

# An RDMA SKU ("+rdma"): commit-2e9e81c1-gcu-4219.message.txt lists DSCP_TO_TC_MAP,
# TC_TO_QUEUE_MAP and TC_TO_PRIORITY_GROUP_MAP patches as failing; PORT_QOS_MAP bindings pass.
test_expect_success 'an RDMA SKU refuses map edits (stand-in message), not PORT_QOS_MAP bindings' '
	for p in /DSCP_TO_TC_MAP/AZURE/26 /TC_TO_QUEUE_MAP/AZURE/3 /TC_TO_PRIORITY_GROUP_MAP/AZURE/3; do
		echo "[{\"op\": \"replace\", \"path\": \"$p\", \"value\": \"5\"}]" |
			test_expect_code 2 patch rd -d >"$TMP/out" 2>"$TMP/err" &&
		t=${p#/} && t=${t%%/*} &&
		test_must_contain "$TMP/err" "^- localhost: \[switchsim stand-in, the real message is not public\] Patch Sorter - Strict: changes to $t are not supported" ||
		{ sed "s,^,$p: ," "$TMP/err"; exit 1; }
	done &&
	test_must_not_contain "$TMP/out" "Patch applied successfully" &&
	echo "[{\"op\": \"add\", \"path\": \"/DSCP_TO_TC_MAP/ROCE\", \"value\": {\"26\": \"3\"}}]" |
		test_expect_code 2 patch rd -d >/dev/null 2>&1 &&
	"$SIMCTL" fault "$LAB" rd drift "DSCP_TO_TC_MAP.ROCE={\"26\": \"3\", \"48\": \"6\"}" &&
	echo "[{\"op\": \"replace\", \"path\": \"/PORT_QOS_MAP/Ethernet0/dscp_to_tc_map\", \"value\": \"ROCE\"}]" |
		patch rd >/dev/null &&
	test "$(hget rd "PORT_QOS_MAP|Ethernet0" dscp_to_tc_map)" = ROCE &&
	echo "[{\"op\": \"replace\", \"path\": \"/DSCP_TO_TC_MAP/AZURE/26\", \"value\": \"3\"}]" |
		patch nw -d >/dev/null
'

test_expect_success 'config save keeps running; reboot loads it' '
	sw sn "sonic-db-cli CONFIG_DB HSET '\''PORT_QOS_MAP|Ethernet8'\'' pfc_enable 3" >/dev/null &&
	"$SIMCTL" reboot "$LAB" sn >/dev/null &&
	test "$(hget sn "PORT_QOS_MAP|Ethernet8" pfc_enable)" = 3,4 &&
	sw sn "sonic-db-cli CONFIG_DB HSET '\''PORT_QOS_MAP|Ethernet8'\'' pfc_enable 3" >/dev/null &&
	sw sn "sudo config save -y" >/dev/null &&
	"$SIMCTL" reboot "$LAB" sn >/dev/null &&
	test "$(hget sn "PORT_QOS_MAP|Ethernet8" pfc_enable)" = 3 &&
	sw sn "cat /etc/sonic/config_db.json" | jq -e ".PORT_QOS_MAP.Ethernet8.pfc_enable == \"3\"" >/dev/null &&
	sw sn "sonic-db-cli CONFIG_DB HSET '\''PORT_QOS_MAP|Ethernet8'\'' pfc_enable 3,4" >/dev/null &&
	sw sn "sudo config save -y" >/dev/null
'

test_expect_success 'sudo tee /etc/sonic/config_db.json replaces the saved configuration (JSON only)' '
	sw sn "cat /etc/sonic/config_db.json" >"$TMP/saved.json" &&
	jq ".PORT_QOS_MAP.Ethernet8.pfc_enable = \"4\"" "$TMP/saved.json" >"$TMP/new.json" &&
	test_expect_code 1 sw sn "tee /etc/sonic/config_db.json" <"$TMP/new.json" >/dev/null 2>&1 &&
	echo "{" | test_expect_code 1 sw sn "sudo tee /etc/sonic/config_db.json" >/dev/null 2>&1 &&
	echo "[1]" | test_expect_code 1 sw sn "sudo tee /etc/sonic/config_db.json" >/dev/null 2>&1 &&
	sw sn "cat /etc/sonic/config_db.json" | cmp - "$TMP/saved.json" &&
	sw sn "sudo tee /etc/sonic/config_db.json" <"$TMP/new.json" >/dev/null &&
	sw sn "cat /etc/sonic/config_db.json" | jq -e ".PORT_QOS_MAP.Ethernet8.pfc_enable == \"4\"" >/dev/null &&
	test "$(hget sn "PORT_QOS_MAP|Ethernet8" pfc_enable)" = 3,4 &&
	sw sn "sudo tee /etc/sonic/config_db.json" <"$TMP/saved.json" >/dev/null &&
	sw sn "cat /etc/sonic/config_db.json" | cmp - "$TMP/saved.json"
'

test_expect_success 'invalid patches are refused with GCU and YANG reasons' '
	echo "[{\"op\": \"replace\", \"path\": \"/PORT_QOS_MAP/Ethernet0/pfc_enable\", \"value\": \"9\"}]" |
		test_expect_code 2 patch sn >/dev/null 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "Given patch will produce invalid config. Error: Value \"9\" of PORT_QOS_MAP.Ethernet0.pfc_enable" &&
	echo "[{\"op\": \"replace\", \"path\": \"/QUEUE/Ethernet0|3/wred_profile\", \"value\": \"NOPE\"}]" |
		test_expect_code 2 patch sn >/dev/null 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "Leafref .* of value \"NOPE\" points to a non-existing leaf" &&
	echo "[{\"op\": \"remove\", \"path\": \"/PORT_QOS_MAP/Ethernet0/nope\"}]" |
		test_expect_code 2 patch sn >/dev/null 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "can.t remove a non-existent object .nope." &&
	echo "[{\"op\": \"remove\", \"path\": \"/SCHEDULER\"}]" |
		test_expect_code 2 patch sn >/dev/null 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "Leafref|empty tables" &&
	echo "not json" | test_expect_code 2 patch sn >/dev/null 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "Failed to apply patch due to: Expecting value" &&
	test_expect_code 2 sw sn "sudo config apply-patch /tmp/x.json" </dev/null >/dev/null 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "No such file or directory: ./tmp/x.json." &&
	test "$(hget sn "PORT_QOS_MAP|Ethernet0" pfc_enable)" = 3,4
'

test_expect_success 'reject-next fails the apply half way; rollback repairs it' '
	sw sn "sudo config checkpoint before-fault" >/dev/null &&
	"$SIMCTL" fault "$LAB" sn reject-next &&
	test_expect_code 2 patch sn <"$TMP/roce.json" >/dev/null 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "^- localhost: change 4 of 6 was not applied" &&
	test "$(hgets sn "DSCP_TO_TC_MAP|AZURE 26" "CABLE_LENGTH|AZURE Ethernet0")" = "3 5m" &&
	sw sn "sudo config rollback before-fault" >/dev/null &&
	test "$(hgets sn "DSCP_TO_TC_MAP|AZURE 26" \
		"WRED_PROFILE|AZURE_LOSSLESS green_min_threshold")" = "1 1048576"
'

test_expect_success 'a SKU without a lookup row for 3m: the PG keeps its profile' '
	echo "[{\"op\": \"replace\", \"path\": \"/CABLE_LENGTH/AZURE/Ethernet0\", \"value\": \"3m\"},
	       {\"op\": \"replace\", \"path\": \"/CABLE_LENGTH/AZURE/Ethernet4\", \"value\": \"40m\"}]" |
		patch bc >/dev/null &&
	test "$(hgets bc "BUFFER_PG|Ethernet0|3-4 profile" "BUFFER_PG|Ethernet4|3-4 profile")" = \
		"pg_lossless_50000_5m_profile pg_lossless_50000_40m_profile" &&
	sw bc "cat /usr/share/sonic/device/x86_64-arista_7260cx3_64/Arista-7260CX3-D108C8/pg_profile_lookup.ini" >"$TMP/ini" &&
	test_must_contain "$TMP/ini" "^50000 +40m +1248 +1248 +59696 +0( +[0-9]+)?$"
'

test_expect_success 'writes through sonic-db-cli and drift bypass GCU; buffermgrd follows' '
	sw sn "sonic-db-cli CONFIG_DB HSET '\''PORT_QOS_MAP|Ethernet8'\'' pfc_enable 3" >"$TMP/out" &&
	test "$(cat "$TMP/out")" = 0 &&
	test "$(hget sn "BUFFER_PG|Ethernet8|3" profile)" = pg_lossless_400000_5m_profile &&
	"$SIMCTL" fault "$LAB" sn drift PORT_QOS_MAP.Ethernet0.pfc_enable=4 \
		DSCP_TO_TC_MAP.AZURE.26=5 WRED_PROFILE.AZURE_LOSSLESS.green_min_threshold=331776 &&
	test "$(hgets sn "PORT_QOS_MAP|Ethernet0 pfc_enable" "BUFFER_PG|Ethernet0|4 profile" \
		"DSCP_TO_TC_MAP|AZURE 26" "WRED_PROFILE|AZURE_LOSSLESS green_min_threshold")" = \
		"4 pg_lossless_400000_5m_profile 5 331776" &&
	"$SIMCTL" fault "$LAB" sn drift "PFC_WD.Ethernet0=" &&
	test "$(sw sn "sonic-db-cli CONFIG_DB EXISTS '\''PFC_WD|Ethernet0'\''")" = 0 &&
	test_expect_code 1 "$SIMCTL" fault "$LAB" sn drift oper:x.y=1 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "CONFIG_DB"
'

test_expect_success 'drop-after closes the SSH connection; hang never answers' '
	"$SIMCTL" fault "$LAB" tl drop-after 1 &&
	sw tl "show version" >/dev/null &&
	test_expect_code 255 sw tl "show version" >/dev/null 2>&1 &&
	sw tl "show version" >"$TMP/out" &&
	test_must_contain "$TMP/out" "^HwSKU: Arista-7060X6-64PE-B-O128$" &&
	"$SIMCTL" fault "$LAB" tl hang &&
	test_expect_code 124 "$SIMCTL" exec "$LAB" -- timeout 1 \
		ssh -F "$LAB/ssh_config" tl "show version" &&
	sw tl true
'

test_expect_success 'simctl down removes the lab' '
	"$SIMCTL" down "$LAB" &&
	test ! -e "$LAB/lab.env"
'

test_done
