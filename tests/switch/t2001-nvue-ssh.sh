#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# rocectl plan / apply / verify against a simulated NVUE switch over a real OpenSSH sshd in
# a network namespace (tests/sim/switch).  The switch's own CLI (`simctl cli`, no SSH) is
# the independent witness of what was applied.
. "$SRC_DIR/tests/lib/testlib.sh"

SIMCTL="$SRC_DIR/tests/sim/switch/simctl"
LAB="$TMP/lab"
P="$TMP/policy.yaml"
J="$TMP/journal"

. "$SRC_DIR/tests/lib/simlib.sh"

# the switch's CLI without SSH (the witness)
nv() {
	sim cli "$LAB" leaf01 "$1"
}

accepted_logins() {
	grep -c 'Accepted ' "$RUN/sshd.log" || true
}

# an inventory derived from the lab's: sed expression applied to it
inventory() {
	sed "$2" "$LAB/inventory.yaml" >"$TMP/$1.yaml"
}

write_policy "$P" 100m

mkdir -p "$LAB"
test_at_exit "sh '$SIMCTL' down '$LAB' >/dev/null 2>&1"
test_expect_success 'the simulated switch comes up' '
	sim up "$LAB" --switch leaf01=127.0.1.1:nvue --ports swp1-2 >"$TMP/up.log" 2>&1 &&
	test -s "$LAB/inventory.yaml"
'
RUN=$(sed -n "s/^RUN=//p" "$LAB/lab.env" 2>/dev/null)

test_expect_success 'plan against a factory-default switch shows exactly the needed changes' '
	{ rc plan -p "$P" -i "$LAB/inventory.yaml" --details >"$TMP/plan" 2>"$TMP/plan.err"; st=$?; } ;
	test "$st" = 2 &&
	changes "$TMP/plan" >"$TMP/got" &&
	for p in swp1 swp2; do
		printf "%s\n" \
			"$p trust pcp -> dscp" \
			"$p pfc_enabled none -> 3 (disruptive)" \
			"$p cable_length_m 10 -> 100 (disruptive)" \
			"$p ecn[3].enabled false -> true" \
			"$p ecn[3].kmin_bytes 0 -> 150000" \
			"$p ecn[3].kmax_bytes 0 -> 1500000" \
			"$p ecn[3].pmax_pct 0 -> 100" \
			"$p watchdog.enabled false -> true"
	done >"$TMP/want" &&
	diff "$TMP/want" "$TMP/got" &&
	test_must_contain "$TMP/plan" "^leaf01 \(nvue-ssh\)"
'

test_expect_success 'plan wrote nothing: the switch has only its factory revision' '
	nv "nv config history" >"$TMP/hist" &&
	test "$(grep -c applied "$TMP/hist")" = 1
'

test_expect_success 'apply stages everything as one revision and exits 0' '
	rc apply -p "$P" -i "$LAB/inventory.yaml" -J "$J" >"$TMP/apply" 2>"$TMP/apply.err" &&
	test_must_contain "$TMP/apply" "applied and verified" &&
	nv "nv config history" >"$TMP/hist" &&
	test "$(grep -c applied "$TMP/hist")" = 2 &&
	nv "nv show qos pfc default-global -o json" >"$TMP/pfc.json" &&
	tr -d " \n" <"$TMP/pfc.json" >"$TMP/pfc.flat" &&
	test_must_contain "$TMP/pfc.flat" "\"cable-length\":100" &&
	test_must_contain "$TMP/pfc.flat" "\"switch-priority\":\{\"3\":\{\}\}" &&
	nv "nv show qos mapping default-global trust -o json" >"$TMP/trust" &&
	test_must_contain "$TMP/trust" "l3" &&
	nv "nv show interface swp2 qos pfc-watchdog -o json" >"$TMP/wd" &&
	test_must_contain "$TMP/wd" "enable"
'

test_expect_success 'the journal of a verified apply is gone' '
	test -z "$(find "$J" -name "*.json" 2>/dev/null)"
'

test_expect_success 'a second plan is empty (exit 0)' '
	rc plan -p "$P" -i "$LAB/inventory.yaml" >"$TMP/plan2" 2>/dev/null &&
	test_must_contain "$TMP/plan2" "no changes" &&
	test -z "$(changes "$TMP/plan2")"
'

test_expect_success 'verify is in sync although the ASIC quantized the thresholds' '
	nv "nv show interface swp1 qos congestion-control -o json" >"$TMP/cc" &&
	test_must_contain "$TMP/cc" "\"min-threshold\": [0-9]+" &&
	test_must_not_contain "$TMP/cc" "\"min-threshold\": 150000," &&
	rc verify -p "$P" -i "$LAB/inventory.yaml" >"$TMP/verify" 2>/dev/null &&
	test_must_contain "$TMP/verify" "in sync"
'

test_expect_success 'drift behind our back is reported field by field (exit 2)' '
	sim fault "$LAB" leaf01 drift config:qos.pfc.default-global.cable-length=30 \
		config:qos.congestion-control.default-global.traffic-class.3.min-threshold=600000 &&
	{ rc verify -p "$P" -i "$LAB/inventory.yaml" --details >"$TMP/drift" 2>/dev/null; st=$?; } ;
	test "$st" = 2 &&
	changes "$TMP/drift" >"$TMP/got" &&
	grep -qx "swp1 cable_length_m want 100, have 30" "$TMP/got" &&
	grep -qx "swp2 cable_length_m want 100, have 30" "$TMP/got" &&
	grep -Eqx "swp1 ecn\[3\]\.kmin_bytes want 150000, have 6[0-9]{5}" "$TMP/got" &&
	test "$(wc -l <"$TMP/got")" = 4
'

test_expect_success 'the ASIC disagreeing with the config is drift too (per-port view)' '
	sim fault "$LAB" leaf01 drift "oper:interface.swp2.qos.pfc.switch-priority={\"4\":{}}" &&
	{ rc verify -p "$P" -i "$LAB/inventory.yaml" --details >"$TMP/oper" 2>/dev/null; st=$?; } ;
	test "$st" = 2 &&
	changes "$TMP/oper" >"$TMP/got" &&
	grep -qx "swp2 pfc_enabled want 3, have 4" "$TMP/got" &&
	! grep -q "^swp1 pfc_enabled" "$TMP/got"
'

# what the ASIC "says" is untrusted too; a config drift re-programs it afterwards
test_expect_success 'hostile switch output is refused with a clear error, not trusted' '
	sim fault "$LAB" leaf01 drift "oper:interface.swp1.qos.pfc.profile=x;reboot" &&
	{ rc verify -p "$P" -i "$LAB/inventory.yaml" >"$TMP/hostile" 2>&1; st=$?; } ;
	test "$st" = 1 &&
	test_must_contain "$TMP/hostile" "unexpected NVUE output at interface qos.pfc: expected a profile name" &&
	sim fault "$LAB" leaf01 drift "oper:interface.swp1.qos.pfc.profile=default-global" \
		"oper:interface.swp1.qos.congestion-control.traffic-class.3.min-threshold=-5" &&
	{ rc verify -p "$P" -i "$LAB/inventory.yaml" >"$TMP/hostile2" 2>&1; st=$?; } ;
	test "$st" = 1 &&
	test_must_contain "$TMP/hostile2" "traffic-class.3.min-threshold: expected an integer" &&
	sim fault "$LAB" leaf01 drift config:qos.pfc.default-global.cable-length=30 &&
	{ rc verify -p "$P" -i "$LAB/inventory.yaml" >"$TMP/hostile3" 2>&1; st=$?; } ;
	test "$st" = 2
'

test_expect_success 'reject-next mid-apply: exit 1, the switch keeps its previous revision' '
	nv "nv config history" | sed -n 3p >"$TMP/head.before" &&
	sim fault "$LAB" leaf01 reject-next &&
	{ rc apply -p "$P" -i "$LAB/inventory.yaml" -J "$J" >"$TMP/rej" 2>&1; st=$?; } ;
	test "$st" = 1 &&
	test_must_contain "$TMP/rej" "reject-next" &&
	test_must_contain "$TMP/rej" "restored the pre-change state" &&
	nv "nv config history" | sed -n 3p >"$TMP/head.after" &&
	cmp "$TMP/head.before" "$TMP/head.after" &&
	nv "nv show qos pfc default-global -o json" | tr -d " \n" >"$TMP/pfc.flat" &&
	test_must_contain "$TMP/pfc.flat" "\"cable-length\":30"
'

# The simulator counts each `nv` command of a command line.  A read is 5 (qos as it runs,
# as applied and as saved, swp1, swp2); the native snapshot is 1 (`nv config show -o
# json`); apply is `nv config detach`, 3 staged `nv set` (cable length, and the ECN group
# with both thresholds: the switch shows quantized values), then `nv config apply -y`: the
# 11th command, which is dropped.
test_expect_success 'a dropped connection mid-apply: exit 1, rolled back over a new session' '
	sim fault "$LAB" leaf01 drop-after 11 &&
	{ rc apply -p "$P" -i "$LAB/inventory.yaml" -J "$J" >"$TMP/drop" 2>&1; st=$?; } ;
	test "$st" = 1 &&
	test_must_contain "$TMP/drop" "nv config apply -y. on .leaf01. failed" &&
	test_must_contain "$TMP/drop" "restored the pre-change state" &&
	sim fault "$LAB" leaf01 clear
'

test_expect_success 'apply then repairs the drift' '
	rc apply -p "$P" -i "$LAB/inventory.yaml" -J "$J" >"$TMP/fix" 2>/dev/null &&
	rc verify -p "$P" -i "$LAB/inventory.yaml" >"$TMP/verify" 2>/dev/null &&
	test_must_contain "$TMP/verify" "in sync"
'

test_expect_success 'a hung switch gives a timeout error within the configured bound' '
	inventory short "s|known_hosts: \"\([^\"]*\)\"}|known_hosts: \"\1\", command_timeout: 2s}|" &&
	test_must_contain "$TMP/short.yaml" "command_timeout: 2s" &&
	sim fault "$LAB" leaf01 hang &&
	{ timeout 60 sh "$SIMCTL" exec "$LAB" -- "$ROCECTL" plan -p "$P" -i "$TMP/short.yaml" \
		>"$TMP/hang" 2>&1; st=$?; } ;
	test "$st" = 1 &&
	test_must_contain "$TMP/hang" "timed out after 2s"
'

test_expect_success 'an inventory port like swp1;reboot or swp1$(id) is refused, nothing sent' '
	n0=$(accepted_logins) &&
	for bad in "swp1;reboot" "swp1\$(id)" "swp1 swp2" "swp1/../swp2"; do
		inventory bad "s|ports: \[swp1-2\]|ports: [\"$bad\"]|" &&
		{ rc plan -p "$P" -i "$TMP/bad.yaml" >"$TMP/bad.out" 2>&1; st=$?; } ;
		test "$st" = 1 || { echo "$bad: exit $st"; cat "$TMP/bad.out"; exit 1; }
	done &&
	test "$(accepted_logins)" = "$n0"
'

test_expect_success 'wrong password: a clear error and a single attempt' '
	echo not-the-password >"$TMP/wrongpw" && chmod 600 "$TMP/wrongpw" &&
	inventory pw "s|identity_file: \"[^\"]*\"|password_file: \"$TMP/wrongpw\"|" &&
	f0=$(grep -c "Failed password" "$RUN/sshd.log" || true) &&
	{ rc plan -p "$P" -i "$TMP/pw.yaml" >"$TMP/pw.out" 2>&1; st=$?; } ;
	test "$st" = 1 &&
	test_must_contain "$TMP/pw.out" "authentication to .leaf01. .* failed \(tried: password\)" &&
	test "$(grep -c "Failed password" "$RUN/sshd.log")" = $((f0 + 1))
'

test_expect_success 'password authentication works, and the password appears nowhere' '
	inventory pwok "s|identity_file: \"[^\"]*\"|password_file: \"$LAB/secrets/leaf01\"|" &&
	sim fault "$LAB" leaf01 drift config:qos.pfc.default-global.cable-length=50 &&
	{ rc plan -p "$P" -i "$TMP/pwok.yaml" >"$TMP/s1" 2>&1; st=$?; } ; test "$st" = 2 &&
	rc apply -p "$P" -i "$TMP/pwok.yaml" -J "$J" >"$TMP/s2" 2>&1 &&
	rc verify -p "$P" -i "$TMP/pwok.yaml" --format json >"$TMP/s3" 2>&1 &&
	sim fault "$LAB" leaf01 reject-next &&
	sim fault "$LAB" leaf01 drift config:qos.pfc.default-global.cable-length=50 &&
	{ rc apply -p "$P" -i "$TMP/pwok.yaml" -J "$J" >"$TMP/s4" 2>&1; st=$?; } ; test "$st" = 1 &&
	pw=$(cat "$LAB/secrets/leaf01") && test -n "$pw" &&
	! grep -rF "$pw" "$TMP"/s1 "$TMP"/s2 "$TMP"/s3 "$TMP"/s4 "$J" "$TMP/plan" "$TMP/apply" \
		"$TMP/pw.out"
'

# libssh 0.10 reads the whole known_hosts during each key exchange; rocectl reads it into an
# index once per run and points the exchange at an empty file (drivers/transport/ssh.c).
# LeakSanitizer cannot run under ptrace: leaks are checked by every other test.
test_expect_success 'known_hosts is opened once per run: the key exchange does not read it' '
	command -v strace >/dev/null || { echo "# this test needs strace"; false; } &&
	{ sh "$SIMCTL" exec "$LAB" -- strace -f -qq -e trace=openat -o "$TMP/kh.trace" \
		env -u SSH_AUTH_SOCK ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" "$ROCECTL" verify -p "$P" -i "$LAB/inventory.yaml" \
		>"$TMP/kh.out" 2>&1; st=$?; } ;
	echo "# st=$st" && sed "s/^/# /" "$TMP/kh.out" | head -5 && grep known_hosts "$TMP/kh.trace" | sed "s/^/# /" ;
	test "$st" = 0 -o "$st" = 2 &&
	test "$(grep -c "\"$LAB/known_hosts\"" "$TMP/kh.trace")" = 1
'

test_expect_success 'host key changed: refused loudly, nothing sent, even with --accept-new-host-keys' '
	cp "$LAB/known_hosts" "$TMP/known_hosts.old" &&
	sim rekey "$LAB" &&
	n0=$(accepted_logins) &&
	{ rc plan -p "$P" -i "$LAB/inventory.yaml" >"$TMP/hk" 2>&1; st=$?; } ;
	test "$st" = 1 &&
	test_must_contain "$TMP/hk" "HAS CHANGED" &&
	{ rc --accept-new-host-keys plan -p "$P" -i "$LAB/inventory.yaml" >"$TMP/hk2" 2>&1; st=$?; } ;
	test "$st" = 1 &&
	test_must_contain "$TMP/hk2" "HAS CHANGED" &&
	test "$(accepted_logins)" = "$n0" &&
	cmp "$LAB/known_hosts" "$TMP/known_hosts.old"
'

test_expect_success 'unknown host key: refused without --accept-new-host-keys, recorded with it' '
	: >"$LAB/known_hosts" &&
	n0=$(accepted_logins) &&
	{ rc plan -p "$P" -i "$LAB/inventory.yaml" >"$TMP/uk" 2>&1; st=$?; } ;
	test "$st" = 1 &&
	test_must_contain "$TMP/uk" "is not known" &&
	test_must_contain "$TMP/uk" "--accept-new-host-keys" &&
	test "$(accepted_logins)" = "$n0" &&
	test ! -s "$LAB/known_hosts" &&
	{ rc --accept-new-host-keys plan -p "$P" -i "$LAB/inventory.yaml" >"$TMP/uk2" \
		2>"$TMP/uk2.err"; st=$?; } ;
	test "$st" != 1 &&
	test_must_contain "$TMP/uk2.err" "added host key" &&
	test_must_contain "$LAB/known_hosts" "^127\.0\.1\.1 ssh-ed25519 " &&
	{ rc plan -p "$P" -i "$LAB/inventory.yaml" >"$TMP/uk3" 2>&1; st=$?; } ;
	test "$st" != 1 &&
	test_must_not_contain "$TMP/uk3" "not known|added host key"
'

test_expect_success 'the simulated switch goes down cleanly' '
	sim down "$LAB"
'

# Cumulus Linux 5.8: `nv config apply` does not save (NVUE reference, Config Commands).
LAB="$TMP/lab58"
nv() {
	sim cli "$LAB" leaf02 "$1"
}
test_at_exit "sh '$SIMCTL' down '$LAB' >/dev/null 2>&1"

test_expect_success 'CL 5.8: apply creates the lossless pool with PFC and saves; a reboot keeps it' '
	sim up "$LAB" --switch leaf02=127.0.2.1:nvue:SN5600@5.8 --ports swp1-2 >/dev/null 2>&1 &&
	rc apply -p "$P" -i "$LAB/inventory.yaml" -J "$J" >"$TMP/a58" 2>&1 &&
	nv "nv show qos traffic-pool --applied -o json" | tr -d " \n" >"$TMP/pool" &&
	test_must_contain "$TMP/pool" "\"default-lossless\":\{\"memory-percent\":50,\"switch-priority\":\{\"3\":\{\}\}" &&
	test_must_contain "$TMP/pool" "\"default-lossy\":\{\"memory-percent\":50,\"switch-priority\":\{\"0\":\{\},\"1\":\{\},\"2\":\{\},\"4\"" &&
	nv "nv show qos --rev=startup -o json" | tr -d " \n" >"$TMP/startup" &&
	test_must_contain "$TMP/startup" "\"default-lossless\"" &&
	sim reboot "$LAB" leaf02 &&
	rc verify -p "$P" -i "$LAB/inventory.yaml" >"$TMP/v58" 2>&1 &&
	test_must_contain "$TMP/v58" "in sync"
'

# On 5.8 a change applied behind rocectl's back is not saved: apply refuses to save it along
# with its own unless --save-pending (drivers/switch/nvue.c, refuse_unsaved).
test_expect_success 'no lossless pool under PFC, and running unsaved: effect drift, repaired by apply --save-pending' '
	sim fault "$LAB" leaf02 drift config:qos.traffic-pool.default-lossless= &&
	{ rc verify -p "$P" -i "$LAB/inventory.yaml" >"$TMP/pd" 2>&1; st=$?; } ;
	test "$st" = 2 &&
	test_must_contain "$TMP/pd" "no lossless traffic pool carries" &&
	test_must_contain "$TMP/pd" "differs from startup" &&
	test_expect_code 1 rc apply -p "$P" -i "$LAB/inventory.yaml" -J "$J" >"$TMP/pn" 2>&1 &&
	test_must_contain "$TMP/pn" "nothing written: the applied configuration differs" &&
	rc --save-pending apply -p "$P" -i "$LAB/inventory.yaml" -J "$J" >"$TMP/pa" 2>&1 &&
	rc verify -p "$P" -i "$LAB/inventory.yaml" >"$TMP/pv" 2>&1 &&
	test_must_contain "$TMP/pv" "in sync" &&
	sim fault "$LAB" leaf02 drift config:qos.congestion-control.default-global.traffic-class.3.probability=50 &&
	sim reboot "$LAB" leaf02 &&
	rc verify -p "$P" -i "$LAB/inventory.yaml" >"$TMP/pr" 2>&1 &&
	test_must_contain "$TMP/pr" "in sync"
'

test_expect_success 'RoCE mode is read from the applied view; its cable length is qos roce cable-length' '
	nv "nv unset qos traffic-pool && nv set qos roce && nv config apply -y && nv config save" >/dev/null &&
	nv "nv show qos roce -o json" >"$TMP/roce.oper" &&
	test_must_not_contain "$TMP/roce.oper" "\"enable\"" &&
	rc verify -p "$P" -i "$LAB/inventory.yaml" >"$TMP/r1" 2>&1 ;
	sim fault "$LAB" leaf02 drift config:qos.roce.cable-length=30 &&
	{ rc verify -p "$P" -i "$LAB/inventory.yaml" --details >"$TMP/r2" 2>&1; st=$?; } ;
	test "$st" = 2 &&
	changes "$TMP/r2" | grep -qx "swp1 cable_length_m want 100, have 30" &&
	rc --save-pending apply -p "$P" -i "$LAB/inventory.yaml" -J "$J" >"$TMP/r3" 2>&1 &&
	nv "nv show qos roce --applied -o json" | tr -d " \n" >"$TMP/roce.app" &&
	test_must_contain "$TMP/roce.app" "\"cable-length\":100" &&
	rc verify -p "$P" -i "$LAB/inventory.yaml" >"$TMP/r4" 2>&1 &&
	test_must_contain "$TMP/r4" "in sync"
'

# RoCE mode has one cable length for the switch (qos roce cable-length): ports that need
# different ones cannot be served inside it.  plan finds that before anything is written
# (exit 1, the reason as the device's note), and says the switch runs RoCE mode.
test_expect_success 'RoCE mode: per-port cable lengths it cannot hold fail the plan, not the apply' '
	{ cat "$LAB/inventory.yaml" &&
		printf "hosts:\n  - {name: gpu9, address: 192.0.2.99, interfaces: [eth0]}\n" &&
		printf "links:\n  - {a: \"gpu9:eth0\", b: \"leaf02:swp1\", cable_length: 3m}\n"; } \
		>"$TMP/cables.yaml" &&
	{ rc plan -p "$P" -i "$TMP/cables.yaml" --limit leaf02 >"$TMP/c.txt" 2>&1; st=$?; } ;
	test "$st" = 1 &&
	test_must_contain "$TMP/c.txt" "apply would write nothing and fail: .*cable-length" &&
	test_must_contain "$TMP/c.txt" "runs RoCE mode" &&
	{ rc plan -p "$P" -i "$TMP/cables.yaml" --limit leaf02 --format json >"$TMP/c.json" \
		2>/dev/null; st=$?; } ;
	test "$st" = 1 &&
	jq -e "any(.notes[]; .device == \"leaf02\" and (.note | test(\"would write nothing and fail\")))" \
		"$TMP/c.json" &&
	nv "nv show qos roce --applied -o json" | tr -d " \n" >"$TMP/roce.after" &&
	test_must_contain "$TMP/roce.after" "\"cable-length\":100"
'

test_expect_success 'RoCE mode: a switch override of the cable length makes the ports agree, and the plan says so' '
	sed "/name: leaf02/a\\    overrides: {headroom: {cable_length: 3m}}" "$TMP/cables.yaml" \
		>"$TMP/cables-ov.yaml" &&
	grep -q "overrides: {headroom: {cable_length: 3m}}" "$TMP/cables-ov.yaml" &&
	{ rc plan -p "$P" -i "$TMP/cables-ov.yaml" --limit leaf02 --details >"$TMP/ov.txt" 2>&1; st=$?; } ;
	{ test "$st" = 2 || { cat "$TMP/ov.txt"; false; }; } &&
	test_must_not_contain "$TMP/ov.txt" "would write nothing and fail" &&
	test "$(grep -c "cable_length_m .*100 -> 3" "$TMP/ov.txt")" = 2
'

test_expect_success 'the CL 5.8 switch goes down cleanly' '
	sim down "$LAB"
'
test_done
