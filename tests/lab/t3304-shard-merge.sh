#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# verify past one machine (docs/SCALE.md): `verify --shard K/N --format jsonl` on three
# shards of a lab of three pods (a leaf and its hosts each) and two spines, with drift
# planted on hosts and switches (a leaf's switch-wide change reaches its uplinks, whose far
# ends, the spines, another shard reads), merged with `verify --merge`, says exactly what
# one unsharded verify says: the same JSON (timestamps and read times aside), the same
# text, the same exit, also when a switch cannot be read, and on a second lab of NVUE,
# SONiC and EOS switches with dual-homed hosts.  Files cut short, garbled, a
# device in two shards, a shard or a device missing: an error, exit 1, nothing on
# standard output.
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

LAB_CMD="$SRC_DIR/tests/lab/lab"
LAB="$TMP/lab"
LAB2="$TMP/lab2"
INV="$LAB/inventory.yaml"
POLICY="$SRC_DIR/policies/roce-lossless.yaml"
ROCECTL_JOURNAL="$TMP/journal"
ROCECTL_LOCK_DIR="$TMP/locks"
export BUILD_DIR ROCECTL ROCECTL_JOURNAL ROCECTL_LOCK_DIR

test_needs root jq

test_at_exit '"$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true; "$LAB_CMD" down "$LAB2" >/dev/null 2>&1 || true'

rc() {
	"$LAB_CMD" exec "$LAB" -- "$ROCECTL" "$@"
}

# verify's exit when it read: 0 in sync, 2 drift (a shard may hold no drift)
read_ok() {
	code=0
	"$@" || code=$?
	test "$code" = 0 || test "$code" = 2
}

# a JSON report without what differs between two runs: when, which rocectl, how long
NORM='del(.timestamp, .rocectl_version) | if .devices then .devices |= map(del(.read_ms)) else . end'

merge() { # FILE... (verify --merge, policy and inventory of the lab)
	"$ROCECTL" verify -p "$POLICY" -i "$INV" --merge "$@"
}

# an error of the merge: exit 1, the message on stderr, nothing on stdout
merge_refuses() { # PATTERN FILE...
	pat=$1
	shift
	test_expect_code 1 merge "$@" --format json >"$TMP/refused.out" 2>"$TMP/refused.err" &&
	test ! -s "$TMP/refused.out" &&
	grep -q -- "$pat" "$TMP/refused.err" ||
	{ cat "$TMP/refused.err"; false; }
}

test_expect_success 'a lab of three pods and two spines, applied, then drift on hosts and leaves' '
	"$LAB_CMD" up "$LAB" --hosts 6 --leaves 3 --spines 2 --nics 1 >/dev/null &&
	rc apply -p "$POLICY" -i "$INV" >/dev/null 2>&1 &&
	"$LAB_CMD" drift "$LAB" 1 4 >/dev/null &&
	jq -e "[.[] | select(.device | test(\"^leaf\"))] | length >= 1" "$LAB/drift.json" >/dev/null
'

test_expect_success 'three shards: every device in exactly one, a leaf and its hosts together' '
	for k in 1 2 3; do
		read_ok rc verify -p "$POLICY" -i "$INV" --shard $k/3 --format jsonl \
			>"$TMP/s$k.jsonl" 2>"$TMP/s$k.err" || return 1
		jq -r "select(has(\"device\")) | .device.device + \" $k\"" "$TMP/s$k.jsonl" || return 1
	done >"$TMP/where" &&
	sort "$TMP/where" >"$TMP/where.sorted" &&
	awk "\$1 == \"host\" || \$1 == \"switch\" { print \$2 }" "$LAB/topology" | sort >"$TMP/all" &&
	cut -d" " -f1 "$TMP/where.sorted" | diff -u "$TMP/all" - &&
	awk "\$1 == \"link\" { split(\$2, a, \":\"); split(\$3, b, \":\");
		if (a[1] ~ /^gpu/) print a[1], b[1] }" "$LAB/topology" >"$TMP/host-leaf" &&
	while read -r host leaf; do
		test "$(grep "^$host " "$TMP/where" | cut -d" " -f2)" = \
			"$(grep "^$leaf " "$TMP/where" | cut -d" " -f2)" || return 1
	done <"$TMP/host-leaf" &&
	rc verify -p "$POLICY" -i "$INV" --shard 2/3 --format jsonl 2>/dev/null |
		jq -r "select(has(\"device\")) | .device.device" | sort >"$TMP/again" ;
	grep " 2$" "$TMP/where" | cut -d" " -f1 | sort | diff -u - "$TMP/again"
'

test_expect_success 'the merge is the unsharded JSON report, exit 2 as verify' '
	test_expect_code 2 rc verify -p "$POLICY" -i "$INV" --format json >"$TMP/one.json" 2>/dev/null &&
	test_expect_code 2 merge "$TMP/s1.jsonl" "$TMP/s2.jsonl" "$TMP/s3.jsonl" --format json \
		>"$TMP/merged.json" &&
	jq -S "$NORM" "$TMP/one.json" >"$TMP/one.norm" &&
	jq -S "$NORM" "$TMP/merged.json" >"$TMP/merged.norm" &&
	diff -u "$TMP/one.norm" "$TMP/merged.norm" &&
	jq -e ".summary.drifted_fields > 0 and .summary.devices == 11" "$TMP/merged.json" >/dev/null
'

test_expect_success 'a link whose ends two shards read is checked, and found inconsistent' '
	jq -r ".links[] | select(.status == \"mismatch\") | .a + \" \" + .b" "$TMP/merged.json" |
		sed "s/:[^ ]*//g" >"$TMP/bad-links" &&
	test -s "$TMP/bad-links" &&
	crossed=0 &&
	while read -r a b; do
		sa=$(grep "^$a " "$TMP/where" | cut -d" " -f2) &&
		sb=$(grep "^$b " "$TMP/where" | cut -d" " -f2) &&
		if test "$sa" != "$sb"; then crossed=$((crossed + 1)); fi
	done <"$TMP/bad-links" &&
	test "$crossed" -gt 0
'

test_expect_success 'the merge in text is the unsharded text; in jsonl the same lines' '
	test_expect_code 2 rc verify -p "$POLICY" -i "$INV" >"$TMP/one.txt" 2>/dev/null &&
	test_expect_code 2 merge "$TMP/s1.jsonl" "$TMP/s2.jsonl" "$TMP/s3.jsonl" >"$TMP/merged.txt" &&
	diff -u "$TMP/one.txt" "$TMP/merged.txt" &&
	test_expect_code 2 rc verify -p "$POLICY" -i "$INV" --format jsonl >"$TMP/one.jsonl" 2>/dev/null &&
	test_expect_code 2 merge "$TMP/s3.jsonl" "$TMP/s1.jsonl" "$TMP/s2.jsonl" --format jsonl \
		>"$TMP/merged.jsonl" &&
	jq -c -S "$NORM | if .device then .device |= del(.read_ms) else . end" "$TMP/one.jsonl" |
		sort >"$TMP/one.lines" &&
	jq -c -S "$NORM | if .device then .device |= del(.read_ms) else . end" "$TMP/merged.jsonl" |
		sort >"$TMP/merged.lines" &&
	diff -u "$TMP/one.lines" "$TMP/merged.lines"
'

test_expect_success 'with --limit: the intersection, merged as verify --limit says' '
	for k in 1 2 3; do
		read_ok rc verify -p "$POLICY" -i "$INV" --limit "leaf*,spine*" --shard $k/3 \
			--format jsonl >"$TMP/l$k.jsonl" 2>/dev/null || return 1
	done &&
	test "$(jq -r "select(has(\"device\")) | .device.device" "$TMP/l3.jsonl")" = leaf03 &&
	test_expect_code 2 rc verify -p "$POLICY" -i "$INV" --limit "leaf*,spine*" --format json \
		>"$TMP/lone.json" 2>/dev/null &&
	test_expect_code 2 merge "$TMP/l1.jsonl" "$TMP/l2.jsonl" "$TMP/l3.jsonl" --format json \
		>"$TMP/lmerged.json" &&
	jq -S "$NORM" "$TMP/lone.json" >"$TMP/lone.norm" &&
	jq -S "$NORM" "$TMP/lmerged.json" | diff -u "$TMP/lone.norm" - &&
	merge_refuses "different --limit" "$TMP/l1.jsonl" "$TMP/s2.jsonl" "$TMP/s3.jsonl"
'

test_expect_success 'a shard that holds nothing of --limit, a bad K/N: usage errors' '
	test_expect_code 64 rc verify -p "$POLICY" -i "$INV" --limit leaf01 --shard 2/3 \
		--format jsonl >/dev/null 2>"$TMP/empty.err" &&
	grep -q "holds none" "$TMP/empty.err" &&
	for bad in 0/3 4/3 3 a/b 1/0 /3; do
		test_expect_code 64 "$ROCECTL" verify -p "$POLICY" -i "$INV" --shard "$bad" \
			>/dev/null 2>&1 || return 1
	done
'

test_expect_success 'a file cut short: refused, nothing printed' '
	head -n 3 "$TMP/s1.jsonl" >"$TMP/cut-lines.jsonl" &&
	merge_refuses "no summary line" "$TMP/cut-lines.jsonl" "$TMP/s2.jsonl" "$TMP/s3.jsonl" &&
	size=$(wc -c <"$TMP/s2.jsonl") &&
	head -c $((size / 2)) "$TMP/s2.jsonl" >"$TMP/cut-mid.jsonl" &&
	merge_refuses "cut" "$TMP/s1.jsonl" "$TMP/cut-mid.jsonl" "$TMP/s3.jsonl"
'

test_expect_success 'a garbled line, a line lost, a line too long, a NUL: refused' '
	sed "2s/\"device\":{/\"device\":{{/" "$TMP/s1.jsonl" >"$TMP/garbled.jsonl" &&
	merge_refuses "garbled.jsonl:2: not a JSON object" "$TMP/garbled.jsonl" "$TMP/s2.jsonl" \
		"$TMP/s3.jsonl" &&
	sed 1d "$TMP/s1.jsonl" >"$TMP/lost.jsonl" &&
	merge_refuses "a line lost" "$TMP/lost.jsonl" "$TMP/s2.jsonl" "$TMP/s3.jsonl" &&
	head -c 17000000 /dev/zero | tr "\\0" x >"$TMP/long.jsonl" &&
	merge_refuses "long.jsonl:1: a line longer than 16 MiB" "$TMP/long.jsonl" &&
	{ head -n 1 "$TMP/s1.jsonl" | tr "}" "\\0"; } >"$TMP/nul.jsonl" &&
	merge_refuses "nul.jsonl:1: a NUL byte" "$TMP/nul.jsonl"
'

test_expect_success 'a device in two shards, a file given twice: refused' '
	{ head -n 1 "$TMP/s1.jsonl"; cat "$TMP/s2.jsonl"; } >"$TMP/twice.jsonl" &&
	merge_refuses "appears in two shards" "$TMP/s1.jsonl" "$TMP/twice.jsonl" "$TMP/s3.jsonl" &&
	merge_refuses "appears in two shards" "$TMP/s1.jsonl" "$TMP/s1.jsonl" "$TMP/s2.jsonl" \
		"$TMP/s3.jsonl"
'

test_expect_success 'a shard missing, a device of the inventory in no file: refused' '
	merge_refuses "shard 2/3 is missing" "$TMP/s1.jsonl" "$TMP/s3.jsonl" &&
	name=$(head -n 1 "$TMP/s3.jsonl" | jq -r .device.device) &&
	drift=$(head -n 1 "$TMP/s3.jsonl" |
		jq "[.device.changes[] | select(.kind == \"set\" or .kind == \"unknown\")] | length") &&
	{ sed "1d;\$d" "$TMP/s3.jsonl";
	  tail -n 1 "$TMP/s3.jsonl" | jq -c --argjson d "$drift" ".summary.devices -= 1 |
		.summary.drifted_fields -= \$d | .summary.errors = 0"; } >"$TMP/short.jsonl" &&
	merge_refuses "of the selection in no file ($name)" "$TMP/s1.jsonl" "$TMP/s2.jsonl" \
		"$TMP/short.jsonl"
'

test_expect_success 'another policy than the shards had, a jsonl made without --shard: refused' '
	sed "s/dscp: 26/dscp: 24/" "$POLICY" >"$TMP/other.yaml" &&
	test_expect_code 1 "$ROCECTL" verify -p "$TMP/other.yaml" -i "$INV" --merge "$TMP/s1.jsonl" \
		"$TMP/s2.jsonl" "$TMP/s3.jsonl" >"$TMP/other.out" 2>"$TMP/other.err" &&
	test ! -s "$TMP/other.out" && grep -q "another policy" "$TMP/other.err" &&
	merge_refuses "without \"shard_data\"" "$TMP/one.jsonl"
'

test_expect_success 'a switch that cannot be read: exit 1 in the merge as in verify, the same report' '
	sed "s/address: 127\.1\.100\.2\$/address: 127.1.99.99/" "$INV" >"$TMP/down.yaml" &&
	! cmp -s "$INV" "$TMP/down.yaml" &&
	for k in 1 2 3; do
		code=0
		rc verify -p "$POLICY" -i "$TMP/down.yaml" --shard $k/3 --format jsonl \
			>"$TMP/d$k.jsonl" 2>/dev/null || code=$?
		test "$code" != 64 || return 1
	done &&
	test_expect_code 1 rc verify -p "$POLICY" -i "$TMP/down.yaml" --format json \
		>"$TMP/down-one.json" 2>/dev/null &&
	test_expect_code 1 "$ROCECTL" verify -p "$POLICY" -i "$TMP/down.yaml" --merge \
		"$TMP/d1.jsonl" "$TMP/d2.jsonl" "$TMP/d3.jsonl" --format json >"$TMP/down-merged.json" &&
	jq -e ".devices[] | select(.device == \"spine02\") | .status == \"error\"" \
		"$TMP/down-merged.json" >/dev/null &&
	# its LLDP is unknown in both (docs/SCALE.md): a dead device is not tried twice
	jq -e ".cabling.unreadable == [] and (.cabling.unknown_devices | index(\"spine02\"))" \
		"$TMP/down-merged.json" >/dev/null &&
	jq -S "$NORM" "$TMP/down-one.json" >"$TMP/down-one.norm" &&
	jq -S "$NORM" "$TMP/down-merged.json" | diff -u "$TMP/down-one.norm" -
'

test_expect_success 'the Kubernetes Job script, run as its three pods would, merges the switches' '
	python3 -c "import yaml" &&
	python3 -c "
import sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
cj = [d for d in docs if d[\"kind\"] == \"CronJob\"][0]
print(cj[\"spec\"][\"jobTemplate\"][\"spec\"][\"template\"][\"spec\"][\"containers\"][0][\"args\"][0])
" "$SRC_DIR/dist/kubernetes/rocectl-verify-sharded-job.yaml" >"$TMP/job.sh" &&
	printf "#!/bin/sh\nexec \"%s\" exec \"%s\" -- \"%s\" \"\$@\"\n" "$LAB_CMD" "$LAB" \
		"$ROCECTL" >"$TMP/rocectl-in-lab" && chmod +x "$TMP/rocectl-in-lab" &&
	sed -e "s|/usr/bin/rocectl|$TMP/rocectl-in-lab|g" -e "s|/etc/rocectl/policy.yaml|$POLICY|g" \
		-e "s|/etc/rocectl/inventory.yaml|$INV|g" -e "s|/shards/|$TMP/shards/|g" \
		-e "s|sleep 10|sleep 1|" "$TMP/job.sh" >"$TMP/pod.sh" &&
	mkdir -p "$TMP/shards" &&
	for i in 2 1 0; do
		JOB_COMPLETION_INDEX=$i SHARDS=3 JOB_NAME=j1 MERGE_WAIT_SECONDS=120 \
			sh "$TMP/pod.sh" >"$TMP/pod$i.log" 2>&1 &
	done &&
	wait &&
	ls "$TMP/shards/j1" | sort | tr "\n" " " | grep -q "^merged.json shard-1.jsonl shard-2.jsonl shard-3.jsonl $" &&
	grep -q "verify --merge: exit 2" "$TMP/pod0.log" &&
	test_expect_code 2 rc verify -p "$POLICY" -i "$INV" --limit switch --format json \
		>"$TMP/sw.json" 2>/dev/null &&
	jq -S "$NORM" "$TMP/sw.json" >"$TMP/sw.norm" &&
	jq -S "$NORM" "$TMP/shards/j1/merged.json" | diff -u "$TMP/sw.norm" - ||
	{ tail -n 5 "$TMP"/pod*.log; false; }
'

test_expect_success 'NVUE, SONiC and EOS, dual-homed hosts (one pod), spines apart: merge = verify' '
	"$LAB_CMD" down "$LAB" >/dev/null &&
	"$LAB_CMD" up "$LAB2" --hosts 4 --leaves 2 --spines 2 --platforms nvue,sonic,eos >/dev/null &&
	I2="$LAB2/inventory.yaml" &&
	"$LAB_CMD" exec "$LAB2" -- "$ROCECTL" apply -p "$POLICY" -i "$I2" >/dev/null 2>&1 &&
	"$LAB_CMD" drift "$LAB2" 3 5 >/dev/null &&
	for k in 1 2 3; do
		read_ok "$LAB_CMD" exec "$LAB2" -- "$ROCECTL" verify -p "$POLICY" -i "$I2" \
			--shard $k/3 --format jsonl >"$TMP/p$k.jsonl" 2>/dev/null || return 1
	done &&
	test "$(jq -r "select(has(\"device\")) | .device.device" "$TMP/p2.jsonl")" = spine01 &&
	test "$(jq -r "select(has(\"device\")) | .device.device" "$TMP/p3.jsonl")" = spine02 &&
	test_expect_code 2 "$LAB_CMD" exec "$LAB2" -- "$ROCECTL" verify -p "$POLICY" -i "$I2" \
		--format json >"$TMP/p-one.json" 2>/dev/null &&
	test_expect_code 2 "$ROCECTL" verify -p "$POLICY" -i "$I2" --merge "$TMP/p1.jsonl" \
		"$TMP/p2.jsonl" "$TMP/p3.jsonl" --format json >"$TMP/p-merged.json" &&
	jq -e "(.hosts | length) == 4 and (.links | length) == 12" "$TMP/p-merged.json" >/dev/null &&
	jq -S "$NORM" "$TMP/p-one.json" >"$TMP/p-one.norm" &&
	jq -S "$NORM" "$TMP/p-merged.json" | diff -u "$TMP/p-one.norm" -
'

test_done
