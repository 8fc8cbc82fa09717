#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# rocectl plan / apply / verify against simulated SONiC switches over a real OpenSSH sshd in
# a network namespace (tests/sim/switch): CONFIG_DB read with `show runningconfiguration
# all`, one JSON Patch through the Generic Config Updater (dry run in the plan, checkpoint,
# apply, rollback on failure).  The switch's own commands (`simctl cli`: sonic-db-cli, config
# list-checkpoints) are the independent witness.  sonic1 is a Spectrum-4 (every lossless
# table live-changeable), tl10 an Arista-7060X6-64PE-B-O128 on release 202311, whose GCU
# refuses live PFC_WD edits.
. "$SRC_DIR/tests/lib/testlib.sh"

SIMCTL="$SRC_DIR/tests/sim/switch/simctl"
LAB="$TMP/lab"
P="$TMP/policy.yaml"
J="$TMP/journal"

. "$SRC_DIR/tests/lib/simlib.sh"

# the switch's CLI without SSH (the witness)
on() {
	sim cli "$LAB" "$1" "$2"
}

hget() {
	on "$1" "sonic-db-cli CONFIG_DB HGETALL '$2'"
}

# report lines about ports, blanks squeezed: "Ethernet0 pfc_enabled 3,4 -> 3 (disruptive)"
changes() {
	awk '/^  Ethernet/ { $1 = $1; print }' "$1"
}

notes() {
	sed -n 's/^  note: //p' "$1"
}

config_db() {
	on "$1" "show runningconfiguration all"
}

write_policy "$P" 40m

mkdir -p "$LAB"
test_at_exit "sh '$SIMCTL' down '$LAB' >/dev/null 2>&1"
test_expect_success 'two simulated SONiC switches come up' '
	sim up "$LAB" --switch sonic1=127.0.5.1:sonic:Mellanox-SN5600-O128+traditional \
		--switch tl10=127.0.5.2:sonic:Arista-7060X6-64PE-B-O128@202311 \
		--ports Ethernet0,Ethernet4 >"$TMP/up.log" 2>&1 &&
	test -s "$LAB/inventory.yaml"
'
I="$LAB/inventory.yaml"

test_expect_success 'plan on a factory switch: DSCP 26 leaves lossy TC 1, and GCU agrees' '
	config_db sonic1 >"$TMP/db.before" &&
	{ rc plan --gcu-dry-run -p "$P" -i "$I" --limit sonic1 --details >"$TMP/plan" 2>"$TMP/plan.err"; st=$?; } ;
	test "$st" = 2 &&
	changes "$TMP/plan" | sed "s/>= [0-9]*/>= FLOOR/" >"$TMP/got" &&
	for p in Ethernet0 Ethernet4; do
		printf "%s\n" \
			"$p dscp2prio[26] 1 -> 3" \
			"$p pfc_enabled 3,4 -> 3 (disruptive)" \
			"$p cable_length_m 5 -> 40 (disruptive)" \
			"$p ecn[3].kmin_bytes 1048576 -> 150000" \
			"$p ecn[3].kmax_bytes 2097152 -> 1500000" \
			"$p ecn[3].pmax_pct 5 -> 100" \
			"$p watchdog.detection_ms 200 -> 300" \
			"$p watchdog.restoration_ms 200 -> 300"
	done >"$TMP/want" &&
	diff "$TMP/want" "$TMP/got" &&
	test_must_contain "$TMP/plan" "^sonic1 \(sonic-ssh\)" &&
	notes "$TMP/plan" >"$TMP/notes" &&
	printf "%s\n" \
		"DSCP_TO_TC_MAP|AZURE is shared with 126 ports not in the inventory (Ethernet8, ...): they change too" \
		"WRED_PROFILE|AZURE_LOSSLESS is shared with 126 ports not in the inventory (Ethernet8, ...): they change too" \
		"GCU dry run: the patch (14 operations) would apply" >"$TMP/notes.want" &&
	diff "$TMP/notes.want" "$TMP/notes"
'

test_expect_success 'plan wrote nothing: CONFIG_DB as it was, no checkpoint' '
	config_db sonic1 >"$TMP/db.after" &&
	cmp "$TMP/db.before" "$TMP/db.after" &&
	test "$(on sonic1 "sudo config list-checkpoints" | tr -d " \n")" = "[]"
'

test_expect_success 'plan --format json carries the GCU verdict as a note' '
	{ rc plan --gcu-dry-run -p "$P" -i "$I" --limit sonic1 --format json >"$TMP/plan.json" 2>/dev/null; st=$?; } ;
	test "$st" = 2 &&
	test_must_contain "$TMP/plan.json" "\"note\": *\"GCU dry run: the patch \(14 operations\) would apply\""
'

test_expect_success 'apply: one patch through GCU; CONFIG_DB and buffermgrd follow; exit 0' '
	rc apply -p "$P" -i "$I" --limit sonic1 -J "$J" >"$TMP/apply" 2>"$TMP/apply.err" &&
	test_must_contain "$TMP/apply" "applied and verified" &&
	hget sonic1 "DSCP_TO_TC_MAP|AZURE" >"$TMP/map" &&
	test_must_contain "$TMP/map" ".26.: .3." &&
	hget sonic1 "PORT_QOS_MAP|Ethernet4" >"$TMP/pqm" &&
	test_must_contain "$TMP/pqm" ".pfc_enable.: .3." &&
	hget sonic1 "WRED_PROFILE|AZURE_LOSSLESS" >"$TMP/wred" &&
	test_must_contain "$TMP/wred" ".green_min_threshold.: .150000." &&
	test_must_contain "$TMP/wred" ".green_drop_probability.: .100." &&
	hget sonic1 "CABLE_LENGTH|AZURE" >"$TMP/cable" &&
	test_must_contain "$TMP/cable" ".Ethernet0.: .40m." &&
	test_must_contain "$TMP/cable" ".Ethernet8.: .5m." &&
	hget sonic1 "PFC_WD|Ethernet0" >"$TMP/wd" &&
	test_must_contain "$TMP/wd" ".detection_time.: .300." &&
	hget sonic1 "BUFFER_PG|Ethernet0|3" >"$TMP/pg" &&
	test_must_contain "$TMP/pg" "pg_lossless_400000_40m_profile" &&
	test "$(on sonic1 "sudo config list-checkpoints" | tr -d " \n")" = "[]" &&
	test -z "$(find "$J" -name "*.json" 2>/dev/null)"
'

test_expect_success 'a second plan is empty (exit 0), verify in sync' '
	rc plan --gcu-dry-run -p "$P" -i "$I" --limit sonic1 >"$TMP/plan2" 2>/dev/null &&
	test_must_contain "$TMP/plan2" "no changes" &&
	test -z "$(changes "$TMP/plan2")" &&
	test -z "$(notes "$TMP/plan2")" &&
	rc verify -p "$P" -i "$I" --limit sonic1 >"$TMP/verify" 2>/dev/null &&
	test_must_contain "$TMP/verify" "in sync"
'

test_expect_success 'drift behind our back is reported field by field (exit 2)' '
	sim fault "$LAB" sonic1 drift DSCP_TO_TC_MAP.AZURE.26=1 \
		WRED_PROFILE.AZURE_LOSSLESS.green_min_threshold=331776 \
		PFC_WD.Ethernet4.detection_time=400 "CABLE_LENGTH.AZURE.Ethernet4=\"300m\"" &&
	{ rc verify -p "$P" -i "$I" --limit sonic1 --details >"$TMP/drift" 2>/dev/null; st=$?; } ;
	test "$st" = 2 &&
	changes "$TMP/drift" >"$TMP/got" &&
	printf "%s\n" \
		"Ethernet0 dscp2prio[26] want 3, have 1" \
		"Ethernet0 ecn[3].kmin_bytes want 150000, have 331776" \
		"Ethernet4 dscp2prio[26] want 3, have 1" \
		"Ethernet4 cable_length_m want 40, have 300" \
		"Ethernet4 ecn[3].kmin_bytes want 150000, have 331776" \
		"Ethernet4 watchdog.detection_ms want 300, have 400" >"$TMP/want" &&
	diff "$TMP/want" "$TMP/got"
'

test_expect_success 'reject-next mid-apply: exit 1, rolled back to the checkpoint' '
	config_db sonic1 >"$TMP/db.before" &&
	sim fault "$LAB" sonic1 reject-next &&
	{ rc apply -p "$P" -i "$I" --limit sonic1 -J "$J" >"$TMP/rej" 2>&1; st=$?; } ;
	test "$st" = 1 &&
	test_must_contain "$TMP/rej" "was not applied: orchagent rejected it \(injected fault .reject-next.\)" &&
	test_must_contain "$TMP/rej" "rolled back to checkpoint .rocectl-" &&
	test_must_contain "$TMP/rej" "restored the pre-change state" &&
	config_db sonic1 >"$TMP/db.after" &&
	cmp "$TMP/db.before" "$TMP/db.after" &&
	test "$(on sonic1 "sudo config list-checkpoints" | tr -d " \n")" = "[]"
'

# The simulator counts the commands of a line (its shell's built-in `echo` aside): apply's
# read is 5 (one line: the two `sonic-db-cli CONFIG_DB HGET` naming the SKU directory, the
# `cat` of its pg_profile_lookup.ini, the CONFIG_DB, the startup configuration), then ONE GCU
# dry run asking which lossless tables are live-changeable (PFC, cable length, watchdog in
# one patch); then `config checkpoint` and `config apply-patch` (no dry run of the patch
# ahead of it: apply-patch validates before it changes anything), the 8th, which is dropped.
test_expect_success 'a dropped connection mid-apply: rolled back over a new session' '
	sim fault "$LAB" sonic1 drop-after 7 &&
	{ rc apply -p "$P" -i "$I" --limit sonic1 -J "$J" >"$TMP/drop" 2>&1; st=$?; } ;
	test "$st" = 1 &&
	test_must_contain "$TMP/drop" "config apply-patch /dev/stdin. on .sonic1. failed" &&
	test_must_contain "$TMP/drop" "rolled back to checkpoint" &&
	config_db sonic1 >"$TMP/db.after" &&
	cmp "$TMP/db.before" "$TMP/db.after" &&
	sim fault "$LAB" sonic1 clear
'

test_expect_success 'apply then repairs the drift' '
	rc apply -p "$P" -i "$I" --limit sonic1 -J "$J" >"$TMP/fix" 2>&1 &&
	rc verify -p "$P" -i "$I" --limit sonic1 >"$TMP/verify" 2>/dev/null &&
	test_must_contain "$TMP/verify" "in sync"
'

test_expect_success 'GCU refusing the patch shows in the plan; apply changes nothing' '
	sim fault "$LAB" sonic1 drift SCHEDULER.scheduler.0.weight=0 \
		DSCP_TO_TC_MAP.AZURE.26=1 &&
	config_db sonic1 >"$TMP/db.before" &&
	{ rc plan --gcu-dry-run -p "$P" -i "$I" --limit sonic1 >"$TMP/refplan" 2>&1; st=$?; } ;
	test "$st" = 2 &&
	test_must_contain "$TMP/refplan" "note: GCU dry run: the patch \(1 operation\) was refused: Given patch will produce invalid config" &&
	{ rc apply -p "$P" -i "$I" --limit sonic1 -J "$J" >"$TMP/refapply" 2>&1; st=$?; } ;
	test "$st" = 1 &&
	test_must_contain "$TMP/refapply" "GCU refused the patch \(1 operation\) before changing anything: Given patch will produce invalid config" &&
	test "$(on sonic1 "sudo config list-checkpoints" | tr -d " \n")" = "[]" &&
	config_db sonic1 >"$TMP/db.after" &&
	cmp "$TMP/db.before" "$TMP/db.after" &&
	sim fault "$LAB" sonic1 drift SCHEDULER.scheduler.0.weight=14 &&
	rc apply -p "$P" -i "$I" --limit sonic1 -J "$J" >/dev/null 2>&1
'

test_expect_success 'hostile CONFIG_DB values are refused with a clear error, not trusted' '
	sim fault "$LAB" sonic1 drift "PORT_QOS_MAP.Ethernet0.pfc_enable=\"3,9\"" &&
	{ rc verify -p "$P" -i "$I" --limit sonic1 >"$TMP/h1" 2>&1; st=$?; } ;
	test "$st" = 1 &&
	test_must_contain "$TMP/h1" "unexpected SONiC output at PORT_QOS_MAP\|Ethernet0 pfc_enable: expected a list of priorities 0-7 like .3,4., got .3,9." &&
	sim fault "$LAB" sonic1 drift "PORT_QOS_MAP.Ethernet0.pfc_enable=\"3\"" \
		"PORT_QOS_MAP.Ethernet4.dscp_to_tc_map=AZURE;reboot" &&
	{ rc apply -p "$P" -i "$I" --limit sonic1 -J "$J" >"$TMP/h2" 2>&1; st=$?; } ;
	test "$st" = 1 &&
	test_must_contain "$TMP/h2" "expected a map or profile name, got .AZURE;reboot." &&
	sim fault "$LAB" sonic1 drift PORT_QOS_MAP.Ethernet4.dscp_to_tc_map=AZURE &&
	rc verify -p "$P" -i "$I" --limit sonic1 >/dev/null 2>&1
'

# The device sizes headroom on the dynamic model: Ethernet0's derived profile is judged by its
# effect, rocectl's estimate shown beside it; Ethernet4 keeps a configured lossless profile,
# which on the dynamic model is a headroom override the policy does not ask for
# (docs/platforms/sonic.md, "Headroom on the dynamic buffer model").
test_expect_success 'dynamic buffer model: the lossless profile is looked up in APPL_DB' '
	sim fault "$LAB" sonic1 drift DEVICE_METADATA.localhost.buffer_model=dynamic \
		"BUFFER_PG.Ethernet0|3.profile=NULL" &&
	x=$(on sonic1 "sonic-db-cli APPL_DB HGET '\''BUFFER_PROFILE_TABLE:pg_lossless_400000_40m_profile'\'' xoff") &&
	test -n "$x" &&
	{ rc verify -p "$P" -i "$I" --limit sonic1 --details >"$TMP/dyn" 2>&1; st=$?; } ;
	changes "$TMP/dyn" >"$TMP/got" &&
	floor=$("$ROCECTL" headroom --speed 400G --cable 40m --mtu 9216 | awk "/total/ { print \$2 }") &&
	test_must_not_contain "$TMP/got" "unreadable" &&
	test_must_not_contain "$TMP/got" "^Ethernet0 headroom\[3\].bytes" &&
	if test "$x" -lt "$floor"; then
		test_must_contain "$TMP/got" "^Ethernet0 headroom\[3\].estimate warning$"
	else
		test_must_not_contain "$TMP/got" "^Ethernet0 headroom"
	fi &&
	test "$st" = 2 &&
	test_must_contain "$TMP/got" "^Ethernet4 headroom\[3\].bytes want derived by the device, have [0-9]* \(override\)$" &&
	sim fault "$LAB" sonic1 drift DEVICE_METADATA.localhost.buffer_model=traditional \
		"BUFFER_PG.Ethernet0|3.profile=pg_lossless_400000_40m_profile" &&
	rc verify -p "$P" -i "$I" --limit sonic1 >/dev/null 2>&1
'

# tl10 is an Arista-7060X6-64PE-B-O128 (th5) on release 202311: GCU's rules file allows
# PFC_WD edits on th5 only from 20240500 (gcu_field_operation_validators.conf.json).
test_expect_success 'th5 on 202311: the plan says the watchdog is not live-changeable there' '
	{ rc plan --gcu-dry-run -p "$P" -i "$I" --limit tl10 --details >"$TMP/tl" 2>&1; st=$?; } ;
	test "$st" = 2 &&
	notes "$TMP/tl" >"$TMP/got" &&
	for p in Ethernet0 Ethernet4; do
		printf "%s\n" \
			"$p watchdog.detection_ms 200 -> 300: not live-changeable on this platform (GCU refuses live edits of PFC_WD)" \
			"$p watchdog.restoration_ms 200 -> 300: not live-changeable on this platform (GCU refuses live edits of PFC_WD)"
	done >"$TMP/want" &&
	grep -v "is shared with\|GCU dry run" "$TMP/got" >"$TMP/got2" &&
	diff "$TMP/want" "$TMP/got2" &&
	test_must_contain "$TMP/got" "^GCU dry run: the patch \([0-9]* operations\) was refused: Modification of WRED_PROFILE table is illegal- validating function generic_config_updater.field_operation_validators.wred_profile_config_update_validator returned False$" &&
	changes "$TMP/tl" >"$TMP/tlc" &&
	test_must_contain "$TMP/tlc" "^Ethernet0 watchdog.detection_ms not controllable here$" &&
	test_must_contain "$TMP/tlc" "^Ethernet0 pfc_enabled 3,4 -> 3 \(disruptive\)$"
'

# ... and WRED_PROFILE edits from 20240500 (the 2025-10-25 rules file): the patch is
# refused before anything changes, naming the table.
test_expect_success 'th5 on 202311: apply is refused naming WRED_PROFILE, nothing changes' '
	config_db tl10 >"$TMP/db.before" &&
	{ rc apply -p "$P" -i "$I" --limit tl10 -J "$J" >"$TMP/tlapply" 2>&1; st=$?; } ;
	test "$st" = 1 &&
	test_must_contain "$TMP/tlapply" "nothing was sent: .tl10.: GCU refuses changes to WRED_PROFILE there.* Modification of WRED_PROFILE table is illegal" &&
	config_db tl10 >"$TMP/db.after" &&
	cmp "$TMP/db.before" "$TMP/db.after"
'

test_expect_success 'a cable length without a lookup row is written as the next row up' '
	sed "s/cable_length: 40m/cable_length: 100m/" "$P" >"$TMP/p100.yaml" &&
	rc apply -p "$TMP/p100.yaml" -i "$I" --limit sonic1 -J "$J" >"$TMP/c100" 2>&1 &&
	hget sonic1 "CABLE_LENGTH|AZURE" | grep -q ".Ethernet0.: .300m." &&
	hget sonic1 "BUFFER_PG|Ethernet0|3" | grep -q ".profile.: .pg_lossless_400000_300m_profile." &&
	rc verify -p "$TMP/p100.yaml" -i "$I" --limit sonic1 >"$TMP/v100" 2>&1
'

test_expect_success 'a cable length buffermgrd dropped is effect drift, apply repairs it' '
	sim fault "$LAB" sonic1 drift "CABLE_LENGTH.AZURE.Ethernet0=\"100m\"" &&
	hget sonic1 "BUFFER_PG|Ethernet0|3" | grep -q ".profile.: .pg_lossless_400000_300m_profile." &&
	{ rc verify -p "$TMP/p100.yaml" -i "$I" --limit sonic1 >"$TMP/v100" 2>&1; st=$?; } ;
	{ test "$st" = 2 || { cat "$TMP/v100"; false; }; } &&
	test_must_contain "$TMP/v100" "no lookup row for this speed and cable" &&
	rc apply -p "$TMP/p100.yaml" -i "$I" --limit sonic1 -J "$J" >"$TMP/c100" 2>&1 &&
	hget sonic1 "CABLE_LENGTH|AZURE" | grep -q ".Ethernet0.: .300m." &&
	rc apply -p "$P" -i "$I" --limit sonic1 -J "$J" >/dev/null 2>&1
'

test_expect_success 'running that differs from startup is drift; apply saves; a reboot keeps the policy' '
	rc verify -p "$P" -i "$I" --limit sonic1 >/dev/null 2>&1 &&
	sim fault "$LAB" sonic1 drift "PORT_QOS_MAP.Ethernet0.pfc_enable=\"3,4\"" &&
	on sonic1 "sudo config save -y" >/dev/null &&
	sim fault "$LAB" sonic1 drift "PORT_QOS_MAP.Ethernet0.pfc_enable=\"3\"" &&
	{ rc verify -p "$P" -i "$I" --limit sonic1 >"$TMP/vs" 2>&1; st=$?; } ;
	{ test "$st" = 2 || { cat "$TMP/vs"; false; }; } &&
	test_must_contain "$TMP/vs" "running differs from startup" &&
	rc apply -p "$P" -i "$I" --limit sonic1 -J "$J" >"$TMP/as" 2>&1 &&
	"$SIMCTL" reboot "$LAB" sonic1 >/dev/null &&
	rc verify -p "$P" -i "$I" --limit sonic1 >"$TMP/vs2" 2>&1 &&
	hget sonic1 "PORT_QOS_MAP|Ethernet0" | grep -q ".pfc_enable.: .3."
'

test_expect_success 'an inventory port like Ethernet0;reboot is refused, nothing sent' '
	n0=$(grep -c "Accepted " "$(sed -n "s/^RUN=//p" "$LAB/lab.env")/sshd.log" || true) &&
	for bad in "Ethernet0;reboot" "Ethernet0 Ethernet4" "Ethernet0/../x"; do
		sed "s|ports: \[Ethernet0,Ethernet4\]|ports: [\"$bad\"]|" "$I" >"$TMP/bad.yaml" &&
		{ rc plan --gcu-dry-run -p "$P" -i "$TMP/bad.yaml" --limit sonic1 >"$TMP/bad.out" 2>&1; st=$?; } ;
		test "$st" = 1 || { echo "$bad: exit $st"; cat "$TMP/bad.out"; exit 1; }
	done &&
	test "$(grep -c "Accepted " "$(sed -n "s/^RUN=//p" "$LAB/lab.env")/sshd.log" || true)" = "$n0"
'

test_expect_success 'the simulated switches go down cleanly' '
	sim down "$LAB"
'
test_done
