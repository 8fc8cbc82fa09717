#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Scale (bench/README.md), in a small lab: `verify --format jsonl` reports exactly what
# `--format json` does (every device, link and dual-homed host; devices in the order they
# finish), a 128-port SONiC leaf is cabled, hosts share a pool of simulated hosts, and the
# simulators wait the latencies `lab up --delay` / `lab delay` give them.
. "$SRC_DIR/tests/lib/testlib.sh"

LAB_CMD="$SRC_DIR/tests/lab/lab"
LAB="$TMP/lab"
# shellcheck disable=SC2034 # used inside the test bodies
POLICY="$SRC_DIR/policies/roce-lossless.yaml"
export BUILD_DIR ROCECTL

test_needs root

test_at_exit '"$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true'

verify() {
	"$LAB_CMD" exec "$LAB" -- "$ROCECTL" verify -p "$POLICY" -i "$LAB/inventory.yaml" "$@"
}

test_expect_success 'up refuses more than 2048 hosts without a pool, and bad delays' '
	test_expect_code 1 "$LAB_CMD" up "$TMP/bad" --hosts 3000 --leaves 48 --spines 1 \
		2>"$TMP/err" &&
	test_must_contain "$TMP/err" "more than 2048 hosts need --host-pool" &&
	test_expect_code 1 "$LAB_CMD" up "$TMP/bad" --hosts 2 --leaves 1 --spines 1 \
		--delay junos=1s 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "unknown device kind in .junos=1s." &&
	test_expect_code 1 "$LAB_CMD" up "$TMP/bad" --hosts 2 --leaves 1 --spines 1 \
		--delay host=fast 2>"$TMP/err" &&
	test_must_contain "$TMP/err" "not a time" &&
	test ! -e "$TMP/bad/lab.env"
'

# 60 dual-homed hosts on one SONiC leaf: 120 host ports and an uplink, past 64
test_expect_success 'up cables a 128-port SONiC leaf; 60 hosts share 4 simulated ones' '
	"$LAB_CMD" up "$LAB" --hosts 60 --leaves 1 --spines 1 --platforms sonic,nvue \
		--host-pool 4 --delay host=1s --apply-delay host=2s --jitter 0 >"$TMP/up.out" &&
	test_must_contain "$TMP/up.out" "60 hosts x 2 NICs, 1 leaves, 1 spines \(121 links\)" &&
	grep "^switch leaf01 " "$LAB/topology" | grep -q " Ethernet480\$" &&
	. "$LAB/lab.env" &&
	test "$(find "$RUN/hosts/" -mindepth 1 -maxdepth 1 -type d | wc -l)" = 4 &&
	test "$(find "$RUN/hosts/" -mindepth 1 -maxdepth 1 -type l | wc -l)" = 56 &&
	test "$(readlink "$RUN/hosts/gpu060")" = gpu004 &&
	grep -qx "host 1000 2000 0" "$RUN/delays" &&
	grep -qx "nvue 0 0 0" "$RUN/delays" &&
	swrun=$(sed -n "s/^RUN=//p" "$LAB/switchsim/lab.env") &&
	cmp "$RUN/delays" "$swrun/delays"
'

# A lower bound only (a session cannot answer before its delay): no upper bound is asserted.
test_expect_success 'a host session waits its delay; lab delay changes it' '
	. "$LAB/lab.env" &&
	swrun=$(sed -n "s/^RUN=//p" "$LAB/switchsim/lab.env") &&
	start=$(date +%s%N) &&
	test_expect_code 2 verify --limit gpu001 >/dev/null &&
	end=$(date +%s%N) &&
	test $((end - start)) -ge 1000000000 &&
	"$LAB_CMD" delay "$LAB" --delay nvue=300ms,sonic=1.5s --jitter 20 &&
	grep -qx "host 0 0 20" "$RUN/delays" &&
	grep -qx "nvue 300 300 20" "$RUN/delays" &&
	grep -qx "sonic 1500 1500 20" "$RUN/delays" &&
	cmp "$RUN/delays" "$swrun/delays" &&
	"$LAB_CMD" delay "$LAB" &&
	grep -qx "sonic 0 0 10" "$swrun/delays"
'

# One device at a time: the 60 names share 4 simulated hosts, and two names of one host read
# at once race on its configfs rdma_cm directory (made, read and removed per read), which
# turns roce_tos into "not supported" for one of them at random.
test_expect_success 'verify --format jsonl reports what --format json does' '
	test_expect_code 2 verify --format json --parallel 1 >"$TMP/out.json" &&
	test_expect_code 2 verify --format jsonl --parallel 1 >"$TMP/out.jsonl" &&
	test "$(wc -l <"$TMP/out.jsonl")" = $((62 + 121 + 60 + 2 + 1)) &&
	python3 - "$TMP/out.json" "$TMP/out.jsonl" <<-\EOF
	import json, sys
	full = json.load(open(sys.argv[1]))
	lines = [json.loads(l) for l in open(sys.argv[2])]
	# every line is a document: the header first, then one key
	head = ("schema_version", "rocectl_version", "timestamp")
	assert all(list(l)[:3] == list(head) and len(l) == 4 for l in lines), lines[0]
	lines = [{k: v for k, v in l.items() if k not in head} for l in lines]
	kinds = [next(iter(l)) for l in lines]
	# devices as they finish, then links, hosts, the fabric-wide sections, the summary
	order = ["device", "link", "host", "deadlock", "cabling", "summary"]
	assert kinds == sorted(kinds, key=order.index), kinds
	assert kinds.count("deadlock") == kinds.count("cabling") == 1, kinds
	streamed = {l["device"]["device"]: l["device"] for l in lines if "device" in l}
	# two reads take their own time: read_ms is there in both, its value is not compared
	for d in list(full["devices"]) + list(streamed.values()):
	    assert d.pop("read_ms") >= 0, d
	for d in full["devices"]:
	    assert streamed.get(d["device"]) == d, (d, streamed.get(d["device"]))
	assert len(streamed) == len(full["devices"]) == 62
	assert [l["link"] for l in lines if "link" in l] == full["links"]
	assert [l["host"] for l in lines if "host" in l] == full["hosts"]
	for k in ("deadlock", "cabling"):
	    assert [l[k] for l in lines if k in l] == [full[k]], k
	s = lines[-1]["summary"]
	for k, v in full["summary"].items():
	    assert s[k] == v, (k, s[k], v)
	assert s["links"] == 121 and s["hosts"] == 60
	assert s["links_inconsistent"] == sum(l["status"] != "ok" for l in full["links"])
	EOF
'

# the pool's own hosts only: an apply through two names of one simulated host would race
L=leaf01,spine01,gpu001,gpu002,gpu003,gpu004
test_expect_success 'jsonl: in sync after apply, exit 0; one drifted NIC, exit 2' '
	"$LAB_CMD" exec "$LAB" -- "$ROCECTL" apply -p "$POLICY" -i "$LAB/inventory.yaml" \
		--limit $L --journal "$TMP/journal" >"$TMP/apply.out" 2>&1 &&
	verify --format jsonl --limit $L >"$TMP/sync.jsonl" &&
	tail -n 1 "$TMP/sync.jsonl" | grep -q "\"drifted_fields\":0,.*\"links_inconsistent\":0" &&
	"$LAB_CMD" ssh "$LAB" gpu001 "dcb pfc set dev enp12s0np0 prio-pfc 3:off" &&
	test_expect_code 2 verify --format jsonl --limit $L >"$TMP/drift.jsonl" &&
	grep -q "^{\"schema_version\":1,.*\"device\":{\"device\":\"gpu001\",\"driver\":\"agent-ssh\",\"status\":\"drift\"" \
		"$TMP/drift.jsonl" &&
	grep -q "^{\"schema_version\":1,.*\"link\":{\"a\":\"gpu001:enp12s0np0\",.*\"status\":\"mismatch\"" "$TMP/drift.jsonl"
'

test_done
