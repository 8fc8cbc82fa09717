#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every device is read with one SSH command line per read by verify, plan, counters and
# diagnose.  The simulators' ForceCommands are wrapped by a logger so that every command
# line a device receives is counted, per device and per run, and no device may receive more
# than one per read.  What folds where: NVUE's `nv show` line carries the LLDP table
# (drivers/switch/nvue.c, NVUE_LLDP_PREFIX); SONiC's `show runningconfiguration all` line
# carries `show lldp table` and the saved configuration, its four counter tables share a
# line (drivers/switch/sonic.c, tables_part), the read's own under verify --counters, and
# verify sends no GCU dry run; a host's `rocectl agent state` answer carries lldpd's
# neighbours (cli/agent_remote.c),
# and under `verify --counters` its counters too (`agent state --counters`).
# SONiC's first read of a session also carries the SKU's pg_profile_lookup.ini, the switch
# naming the directory itself (fetch_config_read); no line may read it alone.
# Counted apart, by their command text: GCU's dry runs, which `verify` and `plan` never
# send; `apply` sends one (a patch probing which lossless tables are live-changeable, in one
# patch: drivers/switch/sonic.c probe_gates; the patch itself goes to `config apply-patch`
# without a dry run ahead), `plan --gcu-dry-run` that one and its verdict on the plan's patch.  EOS over SSH sends one CLI command per line, each view
# on its own (nothing public shows a real EOS running several from one exec request:
# drivers/switch/eos.c ssh_fetch): its lines are counted exactly, so that a change shows.
# The neighbours the folded reads return must still be the real ones (cabling right, a
# swapped cable found).
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

LAB_CMD="$SRC_DIR/tests/lab/lab"
LAB="$TMP/lab"
INV="$LAB/inventory.yaml"
POLICY="$SRC_DIR/policies/roce-lossless.yaml"
export BUILD_DIR ROCECTL

test_needs root

test_at_exit '"$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true'

rc() {
	"$LAB_CMD" exec "$LAB" -- "$ROCECTL" "$@"
}

# wrap RUN/bin/PROG: each session appends "SERVER-ADDR|COMMAND" to RUN/cmdlog, then runs it
# (after the sed expression in RUN/rewrite, if any: a command made to fail on the device)
wrap() {
	mv "$1/bin/$2" "$1/bin/$2.real" &&
		printf '#!/bin/sh\nset -f\nc=${SSH_CONNECTION:-}\nc=${c#* * }\nprintf "%%s|%%s\\n" "${c%% *}" "${SSH_ORIGINAL_COMMAND:-}" >>%s\n[ -s %s ] && SSH_ORIGINAL_COMMAND=$(printf "%%s" "$SSH_ORIGINAL_COMMAND" | sed -f %s) && export SSH_ORIGINAL_COMMAND\nexec %s "$@"\n' \
			"$1/cmdlog" "$1/rewrite" "$1/rewrite" "$1/bin/$2.real" >"$1/bin/$2" &&
		chmod 755 "$1/bin/$2" && : >"$1/cmdlog" && chmod 666 "$1/cmdlog"
}

# counts [ERE]: "NAME LINES" for every device of the topology, from both logs, leaving out
# the commands ERE matches (the ones counted apart, above); logs emptied
counts() {
	SWRUN=$(sed -n "s/^RUN=//p" "$LAB/switchsim/lab.env") &&
		HOSTRUN=$(sed -n "s/^RUN=//p" "$LAB/lab.env") &&
		cat "$SWRUN/cmdlog" "$HOSTRUN/cmdlog" >"$TMP/log" &&
		: >"$SWRUN/cmdlog" && : >"$HOSTRUN/cmdlog" &&
		awk -F"|" -v drop="${1:-^\$^}" 'NR == FNR { if ($0 ~ /^(host|switch) /) { split($0, w, " ")
				name[w[3]] = w[2]; n[w[2]] = 0; order[++k] = w[2] }; next }
			$2 ~ drop { next }
			{ n[name[$1]]++ }
			END { for (i = 1; i <= k; i++) print order[i], n[order[i]] }' \
			"$LAB/topology" "$TMP/log"
}

# lines READS MAX EOS: from $TMP/n, every device read (at least READS lines) and none with
# more than MAX, except EOS switches: exactly EOS (one CLI command per line, above)
lines() {
	awk -v reads="$1" -v max="$2" -v eos="$3" 'NR == FNR { if ($1 == "switch") plat[$2] = $5; next }
		{ if (plat[$1] == "eos" ? $2 != eos : $2 > max || $2 < reads) bad = bad " " $1 "=" $2 }
		END { if (bad) { print "lines per device:" bad; exit 1 } }' "$LAB/topology" "$TMP/n"
}

# what is counted apart (above), and the lookup rows' line of old (a `cat` of its own)
ROWS="pg_profile_lookup[.]ini\$"
GCU="config apply-patch --dry-run"
SONIC_ROWS="echo @@rocectl-rows@@; cat \"/usr/share/sonic/device/\$(sonic-db-cli CONFIG_DB HGET 'DEVICE_METADATA|localhost' platform)/\$(sonic-db-cli CONFIG_DB HGET 'DEVICE_METADATA|localhost' hwsku)/pg_profile_lookup.ini\" && echo && echo @@rocectl-rows-end@@; "

test_expect_success 'a small mixed lab, its sessions logged' '
	"$LAB_CMD" up "$LAB" --hosts 2 --leaves 3 --spines 1 --platforms nvue,sonic,eos \
		>/dev/null &&
	SWRUN=$(sed -n "s/^RUN=//p" "$LAB/switchsim/lab.env") &&
	HOSTRUN=$(sed -n "s/^RUN=//p" "$LAB/lab.env") &&
	wrap "$SWRUN" switchsim-cli && wrap "$HOSTRUN" host-shell &&
	"$LAB_CMD" ssh "$LAB" leaf01 "nv show qos roce" >/dev/null &&
	counts >"$TMP/n" && grep -qx "leaf01 1" "$TMP/n"
'

test_expect_success 'verify: one command line per device, no GCU dry run' '
	test_expect_code 2 rc verify -p "$POLICY" -i "$INV" --format json >"$TMP/v.json" &&
	counts >"$TMP/n" && lines 1 1 6 && ! grep -q "$GCU" "$TMP/log" &&
	! grep -q "$ROWS" "$TMP/log" &&
	grep -qx "leaf01 1" "$TMP/n" && grep -qx "spine01 1" "$TMP/n" &&
	grep -qx "gpu001 1" "$TMP/n" && ! grep -q "|lldpcli" "$TMP/log" &&
	grep "nv show interface lldp && echo @@rocectl-lldp-end@@; echo @@rocectl-qos@@; nv show qos -o json" \
		"$TMP/log" >"$TMP/lines" && test "$(wc -l <"$TMP/lines")" = 2 &&
	grep -c "show runningconfiguration all" "$TMP/log" >"$TMP/c" && test "$(cat "$TMP/c")" = 1 &&
	sonic=$(awk "\$1 == \"switch\" && \$5 == \"sonic\" { print \$3 }" "$LAB/topology") &&
	grep -Fqx "$sonic|show lldp table && echo @@rocectl-lldp-end@@; ${SONIC_ROWS}echo @@rocectl-config@@; show runningconfiguration all && echo @@rocectl-startup@@; cat /etc/sonic/config_db.json" \
		"$TMP/log" &&
	jq -e ".cabling.status == \"ok\" and .cabling.findings == [] and
		.cabling.links_checked == 7 and (.cabling.unknown_devices | index(\"gpu001\"))" "$TMP/v.json" &&
	jq -e "[.devices[] | select(.device | startswith(\"gpu\"))] | length == 2" "$TMP/v.json"
'

test_expect_success 'a host listed without interfaces: still one command line' '
	awk "/^switches:/ { exit } !/interfaces:/" "$INV" >"$LAB/hosts-only.yaml" &&
	test_expect_code 2 rc verify -p "$POLICY" -i "$LAB/hosts-only.yaml" >/dev/null &&
	counts >"$TMP/n" && grep -qx "gpu001 1" "$TMP/n" && grep -qx "gpu002 1" "$TMP/n" &&
	grep -q "|rocectl agent state\$" "$TMP/log"
'

# an agent older than the "lldp" key: the real one, its answer without the key
test_expect_success 'an agent that sends no neighbours is named, its cabling not dropped' '
	. "$LAB/lab.env" && mkdir -p "$RUN/override/gpu002" &&
	chmod 755 "$RUN/override" "$RUN/override/gpu002" &&
	printf "#!/bin/sh\nPATH=\${PATH#*:}\nrocectl \"\$@\" | jq -c \"del(.lldp)\"\n" \
		>"$RUN/override/gpu002/rocectl" && chmod 755 "$RUN/override/gpu002/rocectl" &&
	{ rc verify -p "$POLICY" -i "$INV" --format json >"$TMP/old.json"; echo $? >"$TMP/old.rc"; } &&
	rm -r "$RUN/override/gpu002" && counts >"$TMP/n" &&
	test "$(cat "$TMP/old.rc")" = 2 && grep -qx "gpu002 1" "$TMP/n" &&
	jq -e ".cabling.unreadable[] | select(.device == \"gpu002\") |
		.error | test(\"sends no LLDP neighbours.*install the same rocectl version\")" \
		"$TMP/old.json" >/dev/null &&
	jq -e "[.cabling.unreadable[].device] | index(\"gpu001\") == null" "$TMP/old.json"
'

# the agent's neighbours as lldpd would list them on gpu002 (the lab's hosts run no lldpd):
# the real agent, its "lldp" replaced by the topology's links of gpu002 (FLIP 1: the far ends
# of its two links swapped, as a swapped pair of cables shows)
fake_lldp() {
	. "$LAB/lab.env" && mkdir -p "$RUN/override/gpu002" &&
		chmod 755 "$RUN/override" "$RUN/override/gpu002" &&
		awk '$1 == "link" { split($2, a, ":"); split($3, b, ":")
			if (a[1] == "gpu002") print a[2], b[1], b[2]
			if (b[1] == "gpu002") print b[2], a[1], a[2] }' "$LAB/topology" >"$TMP/ends2" &&
		awk -v flip="$1" '{ i[NR] = $1; r[NR] = $2 " " $3 }
			END { for (k = 1; k <= NR; k++) print i[k], r[flip ? NR + 1 - k : k] }' \
			"$TMP/ends2" |
		jq -R -s -c '{status: "ok", neighbors: [split("\n")[] | select(. != "") |
			split(" ") | {interface: .[0], system_name: .[1], port_id: .[2]}]}' \
			>"$RUN/override/gpu002/lldp.json" &&
		printf '#!/bin/sh\nPATH=${PATH#*:}\nrocectl "$@" | jq -c --slurpfile l %s %s\n' \
			"$RUN/override/gpu002/lldp.json" "'.lldp = \$l[0]'" >"$RUN/override/gpu002/rocectl" &&
		chmod 755 "$RUN/override/gpu002/rocectl" && chmod 644 "$RUN/override/gpu002/lldp.json"
}

test_expect_success 'the neighbours in the agent answer are checked: right, then swapped' '
	fake_lldp 0 && jq -e ".neighbors | length == 2" "$RUN/override/gpu002/lldp.json" &&
	test_expect_code 2 rc verify -p "$POLICY" -i "$INV" --format json >"$TMP/h.json" &&
	fake_lldp 1 &&
	test_expect_code 2 rc verify -p "$POLICY" -i "$INV" --format json >"$TMP/h2.json" &&
	rm -r "$RUN/override/gpu002" && counts >"$TMP/n" && grep -qx "gpu002 2" "$TMP/n" &&
	jq -e ".cabling.findings == [] and .cabling.links_checked == 7 and
		(.cabling.unknown_devices | index(\"gpu002\") == null)" "$TMP/h.json" &&
	jq -e "[.cabling.findings[] | select(.kind == \"miscabled\") | .at] ==
		[\"gpu002:enp12s0np0\", \"gpu002:enp13s0np0\"]" "$TMP/h2.json"
'

# counters show only in the Prometheus output; the cabling's there too.  SONiC's four
# counter tables ride on its read line (drivers/switch/sonic.c, tables_part); EOS sends its
# three CLI commands
test_expect_success 'verify --counters: one line a device, counters and cabling there' '
	test_expect_code 2 rc verify -p "$POLICY" -i "$INV" --counters --format prometheus \
		>"$TMP/vc.prom" &&
	counts >"$TMP/n" && lines 1 1 9 &&
	sonic=$(awk "\$1 == \"switch\" && \$3 ~ /./ && \$5 == \"sonic\" { print \$3 }" "$LAB/topology") &&
	grep "^$sonic|show lldp table && echo @@rocectl-lldp-end@@; " "$TMP/log" |
		grep -q "echo @@rocectl-table0@@; show pfc counters && echo @@rocectl-table0-end@@; .*echo @@rocectl-table3-end@@; echo @@rocectl-config@@; " &&
	name=$(awk "\$1 == \"switch\" && \$5 == \"sonic\" { print \$2 }" "$LAB/topology") &&
	grep -c "^rocectl_pfc_pause_frames_total{.*device=\"$name\"" "$TMP/vc.prom" >"$TMP/c" &&
	test "$(cat "$TMP/c")" -gt 0 &&
	grep -qx "leaf01 1" "$TMP/n" && grep -qx "spine01 1" "$TMP/n" &&
	grep -qx "gpu001 1" "$TMP/n" && grep -qx "gpu002 1" "$TMP/n" &&
	! grep -q "|rocectl agent counters" "$TMP/log" &&
	grep -c "|rocectl agent state --counters --interface" "$TMP/log" >"$TMP/c" &&
	test "$(cat "$TMP/c")" = 2 &&
	grep -c "^rocectl_cnp_packets_total{.*device=\"gpu001\"" "$TMP/vc.prom" >"$TMP/c" &&
	test "$(cat "$TMP/c")" -gt 0 &&
	! grep -q "|show lldp table\$" "$TMP/log" &&
	grep -q "counters qos -o json && echo @@rocectl-counters-end@@; echo @@rocectl-qos@@; nv show qos" \
		"$TMP/log" &&
	grep -c "^rocectl_pfc_pause_frames_total{.*device=\"leaf01\"" "$TMP/vc.prom" >"$TMP/c" &&
	test "$(cat "$TMP/c")" -gt 0 &&
	grep -qx "rocectl_cabling_problems 0" "$TMP/vc.prom" &&
	grep -qx "rocectl_cabling_links_unknown 0" "$TMP/vc.prom"
'

# an agent older than `agent state --counters`: it refuses the option as rocectl refuses any
# unknown one (cli/options.c), and the host is that error, naming the version, on one line
test_expect_success 'verify --counters: an agent without --counters is named, one line' '
	. "$LAB/lab.env" && mkdir -p "$RUN/override/gpu002" &&
	chmod 755 "$RUN/override" "$RUN/override/gpu002" &&
	printf "#!/bin/sh\nPATH=\${PATH#*:}\nfor a; do [ \"\$a\" != --counters ] || { echo \"rocectl: unknown option or missing value: '"'"'--counters'"'"'\" >&2; exit 64; }; done\nexec rocectl \"\$@\"\n" \
		>"$RUN/override/gpu002/rocectl" && chmod 755 "$RUN/override/gpu002/rocectl" &&
	{ rc verify -p "$POLICY" -i "$INV" --counters --format json >"$TMP/oc.json"
		echo $? >"$TMP/oc.rc"; } &&
	rm -r "$RUN/override/gpu002" && counts >"$TMP/n" &&
	test "$(cat "$TMP/oc.rc")" = 1 && grep -qx "gpu002 1" "$TMP/n" &&
	grep -qx "gpu001 1" "$TMP/n" &&
	jq -e ".devices[] | select(.device == \"gpu002\") | .error |
		test(\"does not know .agent state --counters.*older than this controller.*install the same rocectl version\")" \
		"$TMP/oc.json" >/dev/null &&
	jq -e ".devices[] | select(.device == \"gpu001\") | .error == null" "$TMP/oc.json"
'

# The error itself (naming the device and the section) is checked by tests/unit/test_lldp.c;
# here: such a switch is "unknown" to the cabling check, never one with no neighbours (which
# would be findings), and its read still counts.
test_expect_success 'a folded LLDP section that fails leaves the cabling unknown, not empty' '
	SWRUN=$(sed -n "s/^RUN=//p" "$LAB/switchsim/lab.env") &&
	echo "s/show lldp table/show lldp tablex/; s/nv show interface lldp/nv show interface lldpx/" \
		>"$SWRUN/rewrite" && chmod 644 "$SWRUN/rewrite" &&
	{ rc verify -p "$POLICY" -i "$INV" --format json >"$TMP/bad.json"; echo $? >"$TMP/bad.rc"; } &&
	rm -f "$SWRUN/rewrite" && counts >"$TMP/n" &&
	test "$(cat "$TMP/bad.rc")" = 2 &&
	grep -qx "leaf01 1" "$TMP/n" && grep -qx "spine01 1" "$TMP/n" &&
	jq -e ".cabling.findings == [] and .cabling.links_unknown == 5 and
		(.cabling.unknown_devices | index(\"leaf01\") and index(\"leaf02\") and
		 index(\"spine01\"))" "$TMP/bad.json" &&
	jq -e "all(.devices[]; .status == \"drift\")" "$TMP/bad.json"
'

# SONiC: the saved configuration behind the read on its line must not hide the running
# configuration's failure (its marker is printed by `&&` only); the neighbours of a read
# that failed are unknown, not asked on a line of their own
test_expect_success 'a failing running-config read on the folded line is that device'"'"'s error' '
	SWRUN=$(sed -n "s/^RUN=//p" "$LAB/switchsim/lab.env") &&
	echo "s/show runningconfiguration all/show runningconfiguration allx/" \
		>"$SWRUN/rewrite" && chmod 644 "$SWRUN/rewrite" &&
	{ rc verify -p "$POLICY" -i "$INV" --format json >"$TMP/rc.json"; echo $? >"$TMP/rc.rc"; } &&
	rm -f "$SWRUN/rewrite" && counts >"$TMP/n" && ! grep -q "$ROWS" "$TMP/log" &&
	sonic=$(awk "\$1 == \"switch\" && \$5 == \"sonic\" { print \$2 }" "$LAB/topology") &&
	grep -qx "$sonic 1" "$TMP/n" && test "$(cat "$TMP/rc.rc")" = 1 &&
	jq -e --arg d "$sonic" ".devices[] | select(.device == \$d) | .error |
		test(\"show runningconfiguration all.* failed or was cut short\")" "$TMP/rc.json"
'

# rows_inv SWITCH LEN: the inventory, SWITCH with cable_rows 5m and 40m and its uplink LEN long
rows_inv() {
	awk -v s="$1" -v m="$2" '/platform: sonic/ { print; print "    cable_rows: [5m, 40m]"; next }
		index($0, "a: \"" s ":") && /spine/ { sub(/cable_length: [0-9]+m/, "cable_length: " m) }
		{ print }' "$INV" >"$LAB/rows.yaml"
}

# The rows on the read's line are the ones used: a link longer than the SKU file's last row
# (500 m) is refused naming the file; the inventory's cable_rows (5m, 40m) are only the
# fallback when the file cannot be read (the path made wrong on the switch: `cat` fails),
# which then refuses a 50 m link the file would have rounded up to 60 m; one line each time
test_expect_success 'SONiC: the lookup rows on the read'"'"'s line; unreadable, the fallback' '
	SWRUN=$(sed -n "s/^RUN=//p" "$LAB/switchsim/lab.env") &&
	sonic=$(awk "\$1 == \"switch\" && \$5 == \"sonic\" { print \$2 }" "$LAB/topology") &&
	rows_inv "$sonic" 600m && grep -q "cable_length: 600m" "$LAB/rows.yaml" &&
	{ rc plan -p "$POLICY" -i "$LAB/rows.yaml" --limit "$sonic" >"$TMP/r1.txt"
		echo $? >"$TMP/r1.rc"; } &&
	counts >"$TMP/n" && grep -qx "$sonic 1" "$TMP/n" && ! grep -q "$ROWS" "$TMP/log" &&
	test "$(cat "$TMP/r1.rc")" = 1 &&
	grep -q "pg_profile_lookup.ini has no row for 400000 Mb/s at 600 m" "$TMP/r1.txt" &&
	rows_inv "$sonic" 50m && test_expect_code 2 rc plan -p "$POLICY" -i "$LAB/rows.yaml" \
		--limit "$sonic" >"$TMP/r2.txt" && ! grep -q "has no row" "$TMP/r2.txt" &&
	counts >"$TMP/n" && grep -qx "$sonic 1" "$TMP/n" &&
	echo "s/pg_profile_lookup[.]ini/pg_profile_lookupx.ini/" >"$SWRUN/rewrite" &&
	chmod 644 "$SWRUN/rewrite" &&
	{ rc plan -p "$POLICY" -i "$LAB/rows.yaml" --limit "$sonic" >"$TMP/r3.txt"
		echo $? >"$TMP/r3.rc"; } &&
	rm -f "$SWRUN/rewrite" && counts >"$TMP/n" &&
	test "$(cat "$TMP/r3.rc")" = 1 && grep -qx "$sonic 1" "$TMP/n" &&
	grep -q "the inventory.s cable_rows has no row for 400000 Mb/s at 50 m" "$TMP/r3.txt"
'

# a section where the line did not put it (here: the rows' marker never printed) is that
# device's error naming it, never a silent default
test_expect_success 'SONiC: the read'"'"'s answer without its lookup-rows section is an error' '
	SWRUN=$(sed -n "s/^RUN=//p" "$LAB/switchsim/lab.env") &&
	sonic=$(awk "\$1 == \"switch\" && \$5 == \"sonic\" { print \$2 }" "$LAB/topology") &&
	echo "s/echo @@rocectl-rows@@/echo @@rocectl-rowz@@/" >"$SWRUN/rewrite" &&
	chmod 644 "$SWRUN/rewrite" &&
	{ rc verify -p "$POLICY" -i "$INV" --limit "$sonic" --format json >"$TMP/nr.json"
		echo $? >"$TMP/nr.rc"; } &&
	rm -f "$SWRUN/rewrite" && counts >"$TMP/n" && grep -qx "$sonic 1" "$TMP/n" &&
	test "$(cat "$TMP/nr.rc")" = 1 &&
	jq -e --arg d "$sonic" ".devices[] | select(.device == \$d) | .error |
		test(\"no lookup-rows section .no .@@rocectl-rows@@. line\")" "$TMP/nr.json"
'

test_expect_success 'a swapped cable is still found from the folded read' '
	awk "\$1 == \"link\" { print \$2 }" "$LAB/topology" | sed -n "1,2p" >"$TMP/ends" &&
	"$LAB_CMD" miscable "$LAB" $(cat "$TMP/ends") >/dev/null &&
	test_expect_code 2 rc verify -p "$POLICY" -i "$INV" --format json >"$TMP/v2.json" &&
	jq -e ".cabling.status != \"ok\" and (.cabling.findings | length) > 0" "$TMP/v2.json" &&
	counts >"$TMP/n" && grep -qx "leaf01 1" "$TMP/n" && grep -qx "spine01 1" "$TMP/n" &&
	! grep -q "|show lldp table\$" "$TMP/log"
'

test_expect_success 'plan: one command line per device, no GCU dry run unless asked' '
	test_expect_code 2 rc plan -p "$POLICY" -i "$INV" >"$TMP/plan.txt" &&
	counts >"$TMP/n" && lines 1 1 5 && ! grep -q "$GCU" "$TMP/log" &&
	! grep -q "$ROWS" "$TMP/log" &&
	grep -qx "gpu001 1" "$TMP/n" && grep -qx "leaf01 1" "$TMP/n" &&
	grep -q "GCU dry run not asked" "$TMP/plan.txt"
'

test_expect_success 'plan --gcu-dry-run: GCU asked twice, the reads still one line' '
	test_expect_code 2 rc plan --gcu-dry-run -p "$POLICY" -i "$INV" >"$TMP/plan2.txt" &&
	counts "$GCU" >"$TMP/n" && lines 1 1 5 &&
	grep -c "|sudo config apply-patch --dry-run" "$TMP/log" >"$TMP/c" &&
	test "$(cat "$TMP/c")" = 2 &&
	! grep -q "$ROWS" "$TMP/log" &&
	grep -q "GCU dry run: the patch" "$TMP/plan2.txt"
'

test_expect_success 'counters: one command line per device, SONiC its four tables' '
	rc counters -i "$INV" --json >"$TMP/c.json" &&
	counts >"$TMP/n" && lines 1 1 3 &&
	sonic=$(awk "\$1 == \"switch\" && \$5 == \"sonic\" { print \$2 }" "$LAB/topology") &&
	jq -e --arg d "$sonic" "[.. | objects | select(.device? == \$d)] | length > 0" \
		"$TMP/c.json" >/dev/null
'

# two samples: two reads of each device
test_expect_success 'diagnose: one command line per device and sample' '
	rc diagnose -p "$POLICY" -i "$INV" --interval 300ms >"$TMP/d.txt" 2>&1 ||
		test $? = 2 &&
	counts >"$TMP/n" && lines 2 2 6
'

# apply last (it changes the lab): the SONiC switch's one read line, then ONE GCU dry run
# (the live-change probes, one patch), then the checkpoint, the patch, the save and the
# checkpoint's deletion; a second dry run would be a regression
test_expect_success 'apply: one GCU dry run on the SONiC switch' '
	sonic=$(awk "\$1 == \"switch\" && \$5 == \"sonic\" { print \$2 }" "$LAB/topology") &&
	J="$LAB/journal" && mkdir -p "$J" &&
	rc apply -p "$POLICY" -i "$INV" --limit "$sonic" -J "$J" >"$TMP/apply.txt" 2>&1 &&
	counts >"$TMP/n" &&
	grep -c "|sudo config apply-patch --dry-run" "$TMP/log" >"$TMP/c" &&
	test "$(cat "$TMP/c")" = 1 &&
	grep -c "|sudo config apply-patch /dev/stdin\$" "$TMP/log" >"$TMP/c" &&
	test "$(cat "$TMP/c")" = 1 &&
	{ rc verify -p "$POLICY" -i "$INV" --limit "$sonic" >"$TMP/av.txt"; true; } &&
	grep -q "^in sync: 1 switch $sonic\$" "$TMP/av.txt"
'

test_done
