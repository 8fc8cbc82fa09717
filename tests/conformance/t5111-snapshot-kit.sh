#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The kit's real SONiC outputs through the whole pipeline, offline (--snapshot,
# docs/SNAPSHOT.md): sonic-utilities' CONFIG_DB (the running and the startup configuration
# of switch str-s6000, its DEVICE_METADATA hostname), its `show pfc counters`, `show queue
# counters`, `show queue wredcounters`, `show priority-group drop counters` and `show lldp
# table` texts, laid out as raw answers named by command, are parsed, modelled, diffed
# against a shipped policy and reported by verify and export, and diagnosed between two
# hosts whose answers are a captured agent state and the agent's counters on a simulated
# NIC; the values asserted are the kit's own (PORT_QOS_MAP pfc_enable "3,4", Ethernet0 PFC0
# Rx "1,200", UC1 WredDrp 60, PG0 800, LLDP neighbour "dummy").  lldpd's own json0
# expectation (host/lldp/lldpcli.json0.show_neighbors_details.expected.json) answers a
# host's `lldpcli -f json0 show neighbors` in verify's cabling check.  A truncated answer
# must fail naming the device and the command, and a missing one naming the file expected.
# The kit's EOS and NVUE outputs do not make a device's whole read (docs/SNAPSHOT.md): the
# conformance unit tests read them through the parsers, tests/conformance/kit-coverage.txt
# says which file is read where.
# No lab, no root.
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

K="$CONFORMANCE_DIR"
S="$TMP/snap"
INV="$TMP/inventory.yaml"
POLICY="$SRC_DIR/policies/roce-lossless.yaml"
ROCECTL_JOURNAL="$TMP/journal"
export ROCECTL_JOURNAL

test_expect_success 'a snapshot of the kit'\''s SONiC switch, raw answers named by command' '
	test -n "$K" && test -f "$K/sonic/config_db/sonic-utilities_filter_fdb_config_db.json" &&
	mkdir -p "$S/str-s6000" &&
	cp "$K/sonic/config_db/sonic-utilities_filter_fdb_config_db.json" \
		"$S/str-s6000/show-runningconfiguration-all.json" &&
	cp "$K/sonic/config_db/sonic-utilities_filter_fdb_config_db.json" \
		"$S/str-s6000/cat-etc-sonic-config-db-json.json" &&
	cp "$K/sonic/outputs/show_pfc_counters.txt" "$S/str-s6000/show-pfc-counters.txt" &&
	cp "$K/sonic/outputs/show_queue_counters.txt" "$S/str-s6000/show-queue-counters.txt" &&
	cp "$K/sonic/outputs/show_queue_wredcounters.txt" \
		"$S/str-s6000/show-queue-wredcounters.txt" &&
	cp "$K/sonic/outputs/show_priority-group_drop_counters.txt" \
		"$S/str-s6000/show-priority-group-drop-counters.txt" &&
	cp "$K/sonic/outputs/show_lldp_table.2macs.txt" "$S/str-s6000/show-lldp-table.txt" &&
	cat >"$INV" <<-EOF
	apiVersion: rocectl/v1
	kind: Inventory
	switches:
	  - name: str-s6000
	    address: 192.0.2.1
	    platform: sonic
	    transport: ssh
	    ports: [Ethernet0, Ethernet4, Ethernet8]
	EOF
'

test_expect_success 'verify judges the real CONFIG_DB: drift with the values it holds' '
	test_expect_code 2 "$ROCECTL" verify -p "$POLICY" -i "$INV" --snapshot "$S" \
		--format json >"$TMP/v.json" 2>"$TMP/v.err" &&
	jq -e ".devices[0].device == \"str-s6000\" and .devices[0].status == \"drift\"" \
		"$TMP/v.json" &&
	jq -e "any(.devices[0].changes[]; .port == \"Ethernet4\" and
		.field == \"pfc_enabled\" and .old == \"3,4\" and .new == \"3\")" "$TMP/v.json" &&
	jq -e "any(.devices[0].changes[]; .port == \"Ethernet4\" and
		.field == \"ecn[3].kmin_bytes\" and .old == \"1048576\")" "$TMP/v.json"
'

test_expect_success 'verify --counters: the real show pfc counters in the prometheus report' '
	test_expect_code 2 "$ROCECTL" verify -p "$POLICY" -i "$INV" --snapshot "$S" --counters \
		--format prometheus >"$TMP/v.prom" 2>"$TMP/v.err" &&
	grep -q "^rocectl_pfc_pause_frames_total{device=\"str-s6000\",port=\"Ethernet0\",direction=\"rx\",priority=\"0\",[^}]*} 1200$" \
		"$TMP/v.prom" &&
	grep -q "^rocectl_pfc_pause_frames_total{device=\"str-s6000\",port=\"Ethernet8\",direction=\"rx\",priority=\"7\",[^}]*} 807$" \
		"$TMP/v.prom" &&
	grep -q "^rocectl_discards_total{device=\"str-s6000\",port=\"Ethernet0\",reason=\"wred\",direction=\"tx\",queue=\"1\",source=\"sonic:show queue wredcounters WredDrp/pkts\"} 60$" \
		"$TMP/v.prom" &&
	grep -q "^rocectl_ecn_marked_packets_total{device=\"str-s6000\",port=\"Ethernet0\",by=\"switch\",queue=\"7\",source=\"sonic:show queue wredcounters EcnMarked/pkts\"} 94$" \
		"$TMP/v.prom" &&
	grep -q "^rocectl_device_events_total{device=\"str-s6000\",port=\"Ethernet0\",name=\"egress_queue_discards\[1\]\",source=\"sonic:show queue counters Drop/pkts\"} 39$" \
		"$TMP/v.prom" &&
	grep -q "^rocectl_device_events_total{device=\"str-s6000\",port=\"Ethernet4\",name=\"pg_discards\[7\]\",source=\"sonic:show priority-group drop counters PG7\"} 407$" \
		"$TMP/v.prom"
'

test_expect_success 'verify'\''s cabling: the real show lldp table and lldpd'\''s json0 at both ends' '
	mkdir -p "$S/gpu3" &&
	cp "$K/host/lldp/lldpcli.json0.show_neighbors_details.expected.json" \
		"$S/gpu3/lldpcli-f-json0-show-neighbors.json" &&
	sh "$SRC_DIR/tests/sim/nic/nicsim" init "$TMP/nic3" --nic eth0,speed=400G >/dev/null &&
	sh "$SRC_DIR/tests/sim/nic/nicsim" run "$TMP/nic3" -- "$ROCECTL" agent state --raw \
		--interface eth0 >"$S/gpu3/rocectl-agent-state-raw-interface-eth0.json" &&
	cat >"$TMP/cabled.yaml" <<-EOF &&
	apiVersion: rocectl/v1
	kind: Inventory
	hosts:
	  - {name: gpu3, address: 192.0.2.13, interfaces: [eth0]}
	switches:
	  - {name: str-s6000, address: 192.0.2.1, platform: sonic, transport: ssh,
	     ports: [Ethernet0, Ethernet4]}
	links:
	  - {a: "gpu3:eth0", b: "str-s6000:Ethernet0"}
	EOF
	test_expect_code 2 "$ROCECTL" verify -p "$POLICY" -i "$TMP/cabled.yaml" --snapshot "$S" \
		--format json >"$TMP/c.json" 2>"$TMP/c.err" &&
	jq -e ".cabling.links_checked == 1 and .cabling.links_unknown == 0" "$TMP/c.json" &&
	jq -e "any(.cabling.findings[]; .at == \"gpu3:eth0\" and
		.seen == \"ns-2.example.com:00:00:00:00:00:02\")" "$TMP/c.json" &&
	jq -e "any(.cabling.findings[]; .at == \"str-s6000:Ethernet0\" and
		.seen == \"dummy:00:00:00:00:00:01\")" "$TMP/c.json"
'

# A cut answer leaves the cabling unjudged at that end rather than judged on half a table,
# and verify says why, in text and in JSON, naming the device and what was cut.
test_expect_success 'a truncated LLDP answer is not judged, and verify says why' '
	for f in gpu3/lldpcli-f-json0-show-neighbors.json str-s6000/show-lldp-table.txt; do
		rm -rf "$TMP/cut" && cp -r "$S" "$TMP/cut" &&
			head -c 150 "$S/$f" >"$TMP/cut/$f" &&
			{ test_expect_code 2 "$ROCECTL" verify -p "$POLICY" -i "$TMP/cabled.yaml" \
				--snapshot "$TMP/cut" --format json >"$TMP/u.json" 2>"$TMP/u.err" ||
				return 1; } &&
			d=${f%%/*} &&
			jq -e "(.cabling.unknown_devices | index(\"$d\")) != null and
				all(.cabling.findings[]; .at | startswith(\"$d:\") | not) and
				(.cabling.unreadable | length == 1 and .[0].device == \"$d\" and
				 (.[0].error | length > 0))" "$TMP/u.json" &&
			{ test_expect_code 2 "$ROCECTL" verify -p "$POLICY" -i "$TMP/cabled.yaml" \
				--snapshot "$TMP/cut" >"$TMP/u.txt" 2>&1 || return 1; } &&
			grep -A1 "neighbours not read" "$TMP/u.txt" | grep -q "^  .$d.: ." ||
			{ cat "$TMP/u.txt" "$TMP/u.json"; return 1; }
	done
'

test_expect_success 'export writes the policy the real switch runs' '
	"$ROCECTL" export -i "$INV" --snapshot "$S" -o "$TMP/exported.yaml" \
		2>"$TMP/e.err" &&
	grep -q "^  priorities: \[3, 4\]$" "$TMP/exported.yaml" &&
	grep -q "^  min_threshold: 1048576B$" "$TMP/exported.yaml"
'

test_expect_success 'diagnose offline: the kit'\''s switch between two captured hosts' '
	for h in gpu1 gpu2; do
		mkdir -p "$S/$h" &&
			cp "$SRC_DIR/tests/data/host/captured/lab-host-debugfs/01-"*.txt "$S/$h/" ||
			return 1
	done &&
	sh "$SRC_DIR/tests/sim/nic/nicsim" init "$TMP/nic" --nic enp12s0np0,speed=400G \
		>/dev/null &&
	sh "$SRC_DIR/tests/sim/nic/nicsim" run "$TMP/nic" -- "$ROCECTL" agent counters --json \
		--interface enp12s0np0 >"$TMP/counters.json" &&
	cp "$TMP/counters.json" "$S/gpu1/rocectl-agent-counters-json-interface-enp12s0np0.json" &&
	cp "$TMP/counters.json" "$S/gpu2/rocectl-agent-counters-json-interface-enp12s0np0.json" &&
	cat >"$TMP/fabric.yaml" <<-EOF &&
	apiVersion: rocectl/v1
	kind: Inventory
	hosts:
	  - {name: gpu1, address: 192.0.2.11, interfaces: [enp12s0np0]}
	  - {name: gpu2, address: 192.0.2.12, interfaces: [enp12s0np0]}
	switches:
	  - {name: str-s6000, address: 192.0.2.1, platform: sonic, transport: ssh,
	     ports: [Ethernet0, Ethernet4]}
	links:
	  - {a: "gpu1:enp12s0np0", b: "str-s6000:Ethernet0"}
	  - {a: "gpu2:enp12s0np0", b: "str-s6000:Ethernet4"}
	EOF
	"$ROCECTL" diagnose -p "$POLICY" -i "$TMP/fabric.yaml" --snapshot "$S" gpu1 gpu2 \
		--format json >"$TMP/d.json" 2>"$TMP/d.err" &&
	jq -e ".status == \"clean\" and (.paths | length) == 2" "$TMP/d.json"
'

test_expect_success 'a truncated real answer fails, naming the device and the command' '
	cp -r "$S" "$TMP/broken" &&
	f="$TMP/broken/str-s6000/show-runningconfiguration-all.json" &&
	head -c 5000 "$f" >"$f.cut" && mv "$f.cut" "$f" &&
	test_expect_code 1 "$ROCECTL" verify -p "$POLICY" -i "$INV" --snapshot "$TMP/broken" \
		>"$TMP/b.out" 2>&1 &&
	test_must_contain "$TMP/b.out" "show runningconfiguration all. on .str-s6000.: output is not JSON"
'

test_expect_success 'a missing answer fails, naming the file expected' '
	cp -r "$S" "$TMP/missing" &&
	rm "$TMP/missing/str-s6000/show-runningconfiguration-all.json" &&
	test_expect_code 1 "$ROCECTL" verify -p "$POLICY" -i "$INV" --snapshot "$TMP/missing" \
		>"$TMP/m.out" 2>&1 &&
	test_must_contain "$TMP/m.out" "no answer to .show runningconfiguration all." &&
	test_must_contain "$TMP/m.out" "str-s6000/show-runningconfiguration-all.txt"
'
test_done
