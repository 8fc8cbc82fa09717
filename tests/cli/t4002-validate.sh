#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# rocectl validate: shipped files are valid, every bad input is refused with its position.
. "$SRC_DIR/tests/lib/testlib.sh"

POL="$SRC_DIR/policies"
INV="$SRC_DIR/examples/inventory.yaml"
BAD="$SRC_DIR/tests/data/bad"

# check_bad FILE ARGS...: exit 1, the expected line on stderr, no sanitizer report
check_bad() {
	name=$(basename "$1" .yaml)
	shift
	(cd "$BAD" && test_expect_code 1 "$ROCECTL" validate "$@" >"$TMP/$name.out" 2>"$TMP/$name.err") || return 1
	want=$(cat "$BAD/$name.expect")
	[ -n "$want" ] || { echo "$name.expect is empty" >&2; return 1; }
	if ! grep -qF -- "$want" "$TMP/$name.err"; then
		echo "$name: expected '$want', got:" >&2
		cat "$TMP/$name.err" >&2
		return 1
	fi
	# The expected text is the start of a line, and the error is a single line.
	grep -F -- "$want" "$TMP/$name.err" | grep -q "^$(printf '%s' "$want" | cut -c1-20)" ||
		{ echo "$name: not at the start of a line" >&2; return 1; }
	test_must_not_contain "$TMP/$name.err" 'Sanitizer|runtime error'
	[ ! -s "$TMP/$name.out" ] || { echo "$name: printed output although invalid" >&2; return 1; }
}

for p in roce-lossless pfc-only deep-buffer-spine; do
	test_expect_success "shipped policy $p is valid" "
		\"\$ROCECTL\" validate -p \"$POL/$p.yaml\" >\"\$TMP/out\" 2>\"\$TMP/err\" &&
		test_must_contain \"\$TMP/out\" '^policy: $p ' &&
		test_must_not_contain \"\$TMP/err\" 'error|Sanitizer'
	"
	test_expect_success "example inventory is valid with $p" "
		\"\$ROCECTL\" validate -p \"$POL/$p.yaml\" -i \"$INV\" >\"\$TMP/out\" 2>\"\$TMP/err\" &&
		test_must_contain \"\$TMP/out\" '^device spine01: switch role=spine platform=eos'
	"
done

test_expect_success 'normalized policy shows bytes, metres, milliseconds and ToS 106' '
	"$ROCECTL" validate -p "$POL/roce-lossless.yaml" >"$TMP/out" &&
	test_must_contain "$TMP/out" "^ecn.min_threshold_bytes: 150000 \(150KB\)$" &&
	test_must_contain "$TMP/out" "^ecn.max_threshold_bytes: 1500000 \(1.5MB\)$" &&
	test_must_contain "$TMP/out" "^ecn.probability_pct: 100$" &&
	test_must_contain "$TMP/out" "^headroom.cable_length_m: 100$" &&
	test_must_contain "$TMP/out" "^pfc.watchdog.detection_ms: 200$" &&
	test_must_contain "$TMP/out" "^pfc.priorities: 3$" &&
	test_must_contain "$TMP/out" "^host.roce_tos: 106 " &&
	test_must_contain "$TMP/out" "^ets\[1\]: traffic_class=3 mode=dwrr bandwidth_pct=50$"
'

test_expect_success 'the roce-lossless policy has no warnings' '
	"$ROCECTL" validate -p "$POL/roce-lossless.yaml" -i "$INV" >/dev/null 2>"$TMP/err" &&
	test_must_not_contain "$TMP/err" .
'

test_expect_success 'inventory ranges expand, pair in lock-step, and roles are derived' '
	"$ROCECTL" validate -p "$POL/roce-lossless.yaml" -i "$INV" >"$TMP/out" &&
	test_must_contain "$TMP/out" "^device gpu003: host role=host platform=host address=10.0.1.3 transport=ssh interfaces=enp12s0np0,enp13s0np0$" &&
	test_must_contain "$TMP/out" "^device leaf01: switch role=leaf .* ports=swp1,swp2,.*,swp32$" &&
	test_must_contain "$TMP/out" "^device leaf02: switch role=leaf platform=sonic" &&
	test_must_contain "$TMP/out" "ports=Ethernet1/1,Ethernet1/2,.*,Ethernet1/32$" &&
	test_must_contain "$TMP/out" "^link gpu003:enp12s0np0 -- leaf01:swp3 speed_gbps=400 cable_length_m=3$" &&
	test_must_contain "$TMP/out" "^link leaf02:Ethernet124 -- spine01:Ethernet1/4 speed_gbps=400 cable_length_m=100 \(policy default\)$" &&
	test_must_contain "$TMP/out" "^  overrides: ecn.min_threshold_bytes=1000000 ecn.max_threshold_bytes=10000000$" &&
	test "$(grep -c "^device " "$TMP/out")" -eq 7 &&
	test "$(grep -c "^link " "$TMP/out")" -eq 12
'

test_expect_success '--json prints the same model as JSON' '
	"$ROCECTL" validate --json -p "$POL/roce-lossless.yaml" -i "$INV" >"$TMP/out.json" &&
	python3 - "$TMP/out.json" <<-EOF
	import json, sys
	d = json.load(open(sys.argv[1]))
	p = d["policy"]
	assert p["name"] == "roce-lossless"
	assert p["ecn"]["min_threshold_bytes"] == 150000
	assert p["ecn"]["max_threshold_bytes"] == 1500000
	assert p["host"]["roce_tos"] == 106 and p["host"]["roce_tos_auto"] is True
	assert p["pfc"]["priorities"] == [3]
	assert p["pfc"]["watchdog"]["restoration_ms"] == 400
	devs = {x["name"]: x for x in d["inventory"]["devices"]}
	assert len(devs) == 7 and devs["spine01"]["role"] == "spine"
	assert devs["leaf01"]["role"] == "leaf" and len(devs["leaf01"]["ports"]) == 32
	assert devs["gpu001"]["ssh"]["connect_timeout_ms"] == 10000
	assert devs["gpu001"]["ssh"]["identity_file"].endswith("/.ssh/id_ed25519")
	assert not devs["gpu001"]["ssh"]["identity_file"].startswith("~")
	assert devs["spine01"]["overrides"]["ecn"]["max_threshold_bytes"] == 10000000
	links = d["inventory"]["links"]
	assert len(links) == 12
	assert links[0]["a"] == {"device": "gpu001", "port": "enp12s0np0"}
	assert links[0]["b"] == {"device": "leaf01", "port": "swp1"}
	EOF
'

test_expect_success 'JSON text of the policy alone parses' '
	"$ROCECTL" validate --json -p "$POL/pfc-only.yaml" >"$TMP/out.json" 2>/dev/null &&
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d[\"policy\"][\"ecn\"][\"enabled\"] is False" "$TMP/out.json"
'

test_expect_success 'ECN off is a warning with its position, exit 0' '
	"$ROCECTL" validate -p "$POL/pfc-only.yaml" >/dev/null 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "pfc-only.yaml:[0-9]+:[0-9]+: warning: ecn.enabled is false"
'

test_expect_success 'no watchdog and three lossless priorities are warnings, exit 0' '
	sed -e "/watchdog:/,/action:/d" -e "s/priorities: \[3\]/priorities: [2, 3, 4]/" \
		"$POL/roce-lossless.yaml" >"$TMP/w.yaml" &&
	(cd "$TMP" && "$ROCECTL" validate -p w.yaml >/dev/null 2>err) &&
	test_must_contain "$TMP/err" "^w.yaml:[0-9]+:[0-9]+: warning: pfc.watchdog is not set" &&
	test_must_contain "$TMP/err" "^w.yaml:[0-9]+:[0-9]+: warning: pfc.priorities has 3 lossless priorities"
'

test_expect_success 'rest.insecure is a warning naming its position' '
	sed "s/timeout: 30s/timeout: 30s\n    insecure: true/" "$INV" >"$TMP/i.yaml" &&
	(cd "$TMP" && "$ROCECTL" validate -p "$POL/roce-lossless.yaml" -i i.yaml >/dev/null 2>err) &&
	test_must_contain "$TMP/err" "^i.yaml:[0-9]+:[0-9]+: warning: defaults.rest.insecure is true"
'

for f in "$BAD"/policy-*.yaml; do
	n=$(basename "$f")
	test_expect_success "bad policy $n exits 1 with its position" "check_bad '$n' -p '$n'"
done
for f in "$BAD"/inventory-*.yaml; do
	n=$(basename "$f")
	test_expect_success "bad inventory $n exits 1 with its position" \
		"check_bad '$n' -p '$POL/roce-lossless.yaml' -i '$n'"
done

test_expect_success 'every bad file has an expectation' '
	for f in "$BAD"/*.yaml; do test -s "${f%.yaml}.expect" || { echo "no expect: $f"; exit 1; }; done
'

test_expect_success 'a literal password is never echoed' '
	(cd "$BAD" && test_expect_code 1 "$ROCECTL" validate -p "$POL/roce-lossless.yaml" \
		-i inventory-password.yaml >"$TMP/out" 2>"$TMP/err") &&
	test_must_not_contain "$TMP/err" hunter2 && test_must_not_contain "$TMP/out" hunter2
'

# Generated hostile inputs: one positioned line each, exit 1, quickly and without a crash.
gen_bad() {
	test_expect_code 1 "$ROCECTL" validate -p "$1" >"$TMP/g.out" 2>"$TMP/g.err" || return 1
	test "$(wc -l <"$TMP/g.err")" -eq 1 || { cat "$TMP/g.err" >&2; return 1; }
	test_must_contain "$TMP/g.err" "^$1:$2: $3"
}

test_expect_success 'a 100 MB file is refused before parsing, naming the cap' '
	cd "$TMP" && dd if=/dev/zero of=big.yaml bs=1M count=0 seek=100 2>/dev/null &&
	gen_bad big.yaml 1:1 "file is larger than 32 MiB"
'

test_expect_success 'a stream (a pipe, a FIFO) is refused as a policy: only a regular file is read' '
	head -c 5000000 /dev/zero | test_expect_code 1 "$ROCECTL" validate -p /dev/stdin 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "cannot read ./dev/stdin.: not a regular file"
'

test_expect_success 'billion laughs: aliases are refused at the first anchor' '
	cd "$TMP" && {
		echo "apiVersion: rocectl/v1"; echo "kind: Policy"
		echo "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"
		i=1; while [ $i -lt 10 ]; do
			echo "a$i: &a$i [*a$((i-1)), *a$((i-1)), *a$((i-1)), *a$((i-1)), *a$((i-1)), *a$((i-1)), *a$((i-1)), *a$((i-1)), *a$((i-1))]"
			i=$((i+1))
		done
	} >laughs.yaml &&
	gen_bad laughs.yaml 3:5 "YAML anchors"
'

test_expect_success 'an alias without an anchor is refused' '
	cd "$TMP" && printf "apiVersion: rocectl/v1\nkind: Policy\nname: *x\n" >alias.yaml &&
	gen_bad alias.yaml 3:7 "YAML aliases"
'

test_expect_success 'deep nesting stops at the depth cap' '
	cd "$TMP" && python3 -c "print(\"[\" * 200000 + \"]\" * 200000)" >deep.yaml &&
	gen_bad deep.yaml 1:33 "nesting is deeper than 32 levels"
'

test_expect_success 'a very wide document stops at the node cap' '
	cd "$TMP" && python3 -c "print(\"[\" + \",\".join([\"1\"] * 2200000) + \"]\")" >wide.yaml &&
	gen_bad wide.yaml "1:[0-9]+" "document has more than 2097152 values"
'

test_expect_success 'binary garbage is refused with a position' '
	cd "$TMP" && printf "apiVersion: rocectl/v1\nkind: \377\376\000\001Policy\n" >bin.yaml &&
	gen_bad bin.yaml 2:7 "not valid UTF-8 YAML text"
'

test_expect_success 'random bytes never crash' '
	cd "$TMP" && i=0 && while [ $i -lt 20 ]; do
		head -c 4096 /dev/urandom >r.yaml
		test_expect_code 1 "$ROCECTL" validate -p r.yaml >/dev/null 2>r.err || exit 1
		test "$(wc -l <r.err)" -eq 1 || { cat r.err; exit 1; }
		test_must_contain r.err "^r.yaml:[0-9]+:[0-9]+: "
		i=$((i+1))
	done
'

test_expect_success 'a missing file is an error, exit 1' '
	test_expect_code 1 "$ROCECTL" validate -p "$TMP/nope.yaml" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "cannot read .*nope.yaml.*No such file"
'

test_expect_success '--help prints usage and exits 0' '
	"$ROCECTL" validate --help >"$TMP/out" &&
	test_must_contain "$TMP/out" "usage: rocectl validate -p POLICY" &&
	test_must_contain "$TMP/out" "--inventory FILE" &&
	test_must_contain "$TMP/out" "--json"
'

test_expect_success 'an unknown option exits 64 (usage error)' '
	test_expect_code 64 "$ROCECTL" validate --frobnicate -p "$POL/roce-lossless.yaml" 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "frobnicate"
'

test_expect_success 'no policy and no inventory exits 64' '
	test_expect_code 64 "$ROCECTL" validate 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "usage"
'

test_expect_success 'a stray argument exits 64' '
	test_expect_code 64 "$ROCECTL" validate -p "$POL/roce-lossless.yaml" extra 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "unexpected argument .extra."
'

test_expect_success 'an inventory alone can be validated' '
	"$ROCECTL" validate -i "$INV" >"$TMP/out" &&
	test_must_contain "$TMP/out" "cable_length_m=\(policy default\)" &&
	test_must_not_contain "$TMP/out" "^policy:"
'

test_done
