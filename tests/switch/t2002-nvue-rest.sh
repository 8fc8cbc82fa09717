#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# rocectl plan / apply / verify against a simulated NVUE switch over its HTTPS REST API
# (nvue_v1 revisions) in a network namespace.  The switch's CLI (`simctl cli`) is the
# witness; the REST server's request log shows what reached it.
. "$SRC_DIR/tests/lib/testlib.sh"

SIMCTL="$SRC_DIR/tests/sim/switch/simctl"
LAB="$TMP/lab"
P="$TMP/policy.yaml"
J="$TMP/journal"

sim() {
	sh "$SIMCTL" "$@"
}

rc() {
	sh "$SIMCTL" exec "$LAB" -- "$ROCECTL" "$@"
}

nv() {
	sim cli "$LAB" leaf01 "$1"
}

changes() {
	awk '/^  swp/ { $1 = $1; print }' "$1"
}

# requests the REST server logged (not its TLS error lines)
requests() {
	grep -c ' leaf01 \(GET\|POST\|PATCH\|DELETE\|PUT\) ' "$RUN/rest.log" || true
}

inventory() {
	sed "$2" "$LAB/inventory-rest.yaml" >"$TMP/$1.yaml"
}

cat >"$P" <<'EOP'
apiVersion: rocectl/v1
kind: Policy
name: roce-lossless
trust: dscp
roce: {dscp: 26, priority: 3}
cnp: {dscp: 48, priority: 6}
pfc:
  priorities: [3]
  watchdog: {detection: 300ms, restoration: 300ms, action: drop}
ecn:
  enabled: true
  traffic_class: 3
  min_threshold: 150KB
  max_threshold: 1500KB
  probability: 100%
headroom: {cable_length: 100m, mtu: 9216}
tolerance: {threshold: 8%}
EOP

mkdir -p "$LAB"
test_at_exit "sh '$SIMCTL' down '$LAB' >/dev/null 2>&1"
test_expect_success 'the simulated switch comes up' '
	sim up "$LAB" --switch leaf01=127.0.1.1:nvue --ports swp1-2 >"$TMP/up.log" 2>&1 &&
	test -s "$LAB/inventory-rest.yaml"
'
RUN=$(sed -n "s/^RUN=//p" "$LAB/lab.env" 2>/dev/null)
I="$LAB/inventory-rest.yaml"

test_expect_success 'plan over REST against a factory-default switch shows the needed changes' '
	{ rc plan -p "$P" -i "$I" --details >"$TMP/plan" 2>"$TMP/plan.err"; st=$?; } ;
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
	test_must_contain "$TMP/plan" "^leaf01 \(nvue-rest\)" &&
	test_must_not_contain "$RUN/rest.log" " (POST|PATCH|DELETE) "
'

test_expect_success 'apply: one revision, one PATCH, applied, saved; exit 0' '
	rc apply -p "$P" -i "$I" -J "$J" >"$TMP/apply" 2>"$TMP/apply.err" &&
	test_must_contain "$TMP/apply" "applied and verified" &&
	test_must_not_contain "$TMP/apply.err" "restor|roll" &&
	nv "nv config revision -o json" >"$TMP/revs.json" &&
	jq -e "[.[] | .state] | index(\"applied_and_saved\") != null" "$TMP/revs.json" &&
	test "$(grep -c " leaf01 POST /nvue_v1/revision " "$RUN/rest.log")" = 1 &&
	test "$(grep -c " leaf01 PATCH /nvue_v1/ " "$RUN/rest.log")" = 1 &&
	test "$(grep -c " leaf01 PATCH /nvue_v1/revision/[0-9]" "$RUN/rest.log")" = 1 &&
	test "$(grep -c " leaf01 PATCH /nvue_v1/revision/applied " "$RUN/rest.log")" = 1 &&
	nv "nv config history" >"$TMP/hist" &&
	test "$(grep -c applied "$TMP/hist")" = 2 &&
	nv "nv show qos pfc default-global -o json" | tr -d " \n" >"$TMP/pfc.flat" &&
	test_must_contain "$TMP/pfc.flat" "\"cable-length\":100" &&
	test_must_contain "$TMP/pfc.flat" "\"switch-priority\":\{\"3\":\{\}\}"
'

test_expect_success 'second plan empty, verify in sync' '
	rc plan -p "$P" -i "$I" >"$TMP/plan2" 2>/dev/null &&
	test -z "$(changes "$TMP/plan2")" &&
	rc verify -p "$P" -i "$I" >"$TMP/verify" 2>/dev/null &&
	test_must_contain "$TMP/verify" "in sync"
'

test_expect_success 'verify --format json says in-sync per device' '
	rc verify -p "$P" -i "$I" --format json >"$TMP/verify.json" 2>/dev/null &&
	test_must_contain "$TMP/verify.json" "\"status\": *\"in-sync\"" &&
	test_must_contain "$TMP/verify.json" "\"device\": *\"leaf01\""
'

test_expect_success 'drift behind our back is reported field by field (exit 2)' '
	sim fault "$LAB" leaf01 drift config:qos.mapping.default-global.trust=l2 \
		config:interface.swp2.qos.pfc-watchdog.state=disable &&
	{ rc verify -p "$P" -i "$I" --details >"$TMP/drift" 2>/dev/null; st=$?; } ;
	test "$st" = 2 &&
	changes "$TMP/drift" >"$TMP/got" &&
	printf "%s\n" "swp1 trust want dscp, have pcp" "swp2 trust want dscp, have pcp" \
		"swp2 watchdog.enabled want true, have false" >"$TMP/want" &&
	diff "$TMP/want" "$TMP/got"
'

test_expect_success 'reject-next mid-apply: exit 1, the switch keeps its previous revision' '
	nv "nv config history" | sed -n 3p >"$TMP/head.before" &&
	sim fault "$LAB" leaf01 reject-next &&
	{ rc apply -p "$P" -i "$I" -J "$J" >"$TMP/rej" 2>&1; st=$?; } ;
	test "$st" = 1 &&
	test_must_contain "$TMP/rej" "not applied \(invalid\)" &&
	test_must_contain "$TMP/rej" "restored the pre-change state" &&
	nv "nv config history" | sed -n 3p >"$TMP/head.after" &&
	cmp "$TMP/head.before" "$TMP/head.after" &&
	nv "nv show qos mapping default-global trust -o json" >"$TMP/trust" &&
	test_must_contain "$TMP/trust" "l2"
'

test_expect_success 'apply repairs the drift' '
	rc apply -p "$P" -i "$I" -J "$J" >"$TMP/fix" 2>/dev/null &&
	rc verify -p "$P" -i "$I" >/dev/null 2>&1
'

test_expect_success 'a hung switch gives a timeout error within the configured bound' '
	inventory short "s|ca_file: \"\([^\"]*\)\"}|ca_file: \"\1\", timeout: 2s}|" &&
	test_must_contain "$TMP/short.yaml" "timeout: 2s" &&
	sim fault "$LAB" leaf01 hang &&
	{ timeout 60 sh "$SIMCTL" exec "$LAB" -- "$ROCECTL" plan -p "$P" -i "$TMP/short.yaml" \
		>"$TMP/hang" 2>&1; st=$?; } ;
	test "$st" = 1 &&
	test_must_contain "$TMP/hang" "timed out after 2s" &&
	sim fault "$LAB" leaf01 clear
'

test_expect_success 'a certificate from another CA is refused, nothing is sent' '
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
		-keyout "$TMP/other.key" -out "$TMP/other-ca.pem" -days 1 -subj /CN=other \
		>/dev/null 2>&1 &&
	inventory ca "s|ca_file: \"[^\"]*\"|ca_file: \"$TMP/other-ca.pem\"|" &&
	n0=$(requests) &&
	{ rc plan -p "$P" -i "$TMP/ca.yaml" >"$TMP/ca.out" 2>&1; st=$?; } ;
	test "$st" = 1 &&
	test_must_contain "$TMP/ca.out" "TLS certificate of .leaf01. .* is not trusted" &&
	test "$(requests)" = "$n0"
'

test_expect_success 'wrong password: a clear error, one request, no retry storm' '
	echo not-the-password >"$TMP/wrongpw" && chmod 600 "$TMP/wrongpw" &&
	inventory pw "s|password_file: \"[^\"]*\"|password_file: \"$TMP/wrongpw\"|" &&
	u0=$(grep -c " 401$" "$RUN/rest.log" || true) &&
	{ rc plan -p "$P" -i "$TMP/pw.yaml" >"$TMP/pw.out" 2>&1; st=$?; } ;
	test "$st" = 1 &&
	test_must_contain "$TMP/pw.out" "authentication to .leaf01. as .* failed \(HTTP 401" &&
	test "$(grep -c " 401$" "$RUN/rest.log")" = $((u0 + 1))
'

test_expect_success 'the factory password (403 until changed) gives a clear error' '
	echo cumulus >"$TMP/cumulus" && chmod 600 "$TMP/cumulus" &&
	sim rest-password "$LAB" leaf01 "$TMP/cumulus" &&
	inventory fac "s|password_file: \"[^\"]*\"|password_file: \"$TMP/cumulus\"|" &&
	{ rc plan -p "$P" -i "$TMP/fac.yaml" >"$TMP/fac.out" 2>&1; st=$?; } ;
	sim rest-password "$LAB" leaf01 "$LAB/secrets/password" &&
	test "$st" = 1 &&
	test_must_contain "$TMP/fac.out" "leaf01. refused GET .* \(HTTP 403\)" &&
	test_must_not_contain "$TMP/fac.out" "cumulus"
'

test_expect_success 'password from the environment (password_env)' '
	inventory env "s|password_file: \"[^\"]*\"|password_env: SWSIM_PW|" &&
	SWSIM_PW=$(cat "$LAB/secrets/leaf01") &&
	export SWSIM_PW &&
	rc verify -p "$P" -i "$TMP/env.yaml" >"$TMP/env.out" 2>&1 &&
	unset SWSIM_PW &&
	{ rc verify -p "$P" -i "$TMP/env.yaml" >"$TMP/env2.out" 2>&1; st=$?; } ;
	test "$st" = 1 &&
	test_must_contain "$TMP/env2.out" "SWSIM_PW"
'

test_expect_success 'insecure: true works and warns on every run' '
	inventory insecure "s|ca_file: \"[^\"]*\"|insecure: true|" &&
	rc verify -p "$P" -i "$TMP/insecure.yaml" >"$TMP/ins1" 2>"$TMP/ins1.err" &&
	rc verify -p "$P" -i "$TMP/insecure.yaml" >"$TMP/ins2" 2>"$TMP/ins2.err" &&
	test_must_contain "$TMP/ins1.err" "verification is OFF" &&
	test_must_contain "$TMP/ins2.err" "verification is OFF"
'

test_expect_success 'the password appears in no output, error or journal' '
	sim fault "$LAB" leaf01 drift config:qos.pfc.default-global.cable-length=20 &&
	sim fault "$LAB" leaf01 reject-next &&
	{ rc apply -p "$P" -i "$I" -J "$J" --format json >"$TMP/s1" 2>&1; st=$?; } ;
	test "$st" = 1 &&
	rc apply -p "$P" -i "$I" -J "$J" >"$TMP/s2" 2>&1 &&
	pw=$(cat "$LAB/secrets/leaf01") && test -n "$pw" &&
	! grep -rF "$pw" "$TMP"/s1 "$TMP"/s2 "$TMP"/plan "$TMP"/plan.err "$TMP"/apply \
		"$TMP"/apply.err "$TMP"/rej "$TMP"/pw.out "$TMP"/env.out "$TMP"/env2.out \
		"$TMP"/ins1.err "$TMP"/hang "$TMP"/ca.out "$J" "$RUN/rest.log"
'

test_expect_success 'the simulated switch goes down cleanly' '
	sim down "$LAB"
'
test_done
