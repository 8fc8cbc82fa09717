#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A device's LLDP table rides on its read's own command line instead of a second SSH exec:
# NVUE's `nv show` line (drivers/switch/nvue.c, NVUE_LLDP_PREFIX) makes the whole read one
# line; SONiC's `show runningconfiguration all` line (drivers/switch/sonic.c, FOLDED_CMD),
# whose aliases the neighbours reuse.  The simulators' ForceCommands are wrapped by a logger
# so that every command line a device receives is counted, per device and per run; the
# neighbours the folded reads return must still be the real ones (cabling right, a swapped
# cable found).  EOS and hosts still take separate lines: counted as such here, so that
# folding them later shows up as a change of this test.
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

# counts: "NAME LINES" for every device of the topology, from both logs; logs emptied
counts() {
	SWRUN=$(sed -n "s/^RUN=//p" "$LAB/switchsim/lab.env") &&
		HOSTRUN=$(sed -n "s/^RUN=//p" "$LAB/lab.env") &&
		cat "$SWRUN/cmdlog" "$HOSTRUN/cmdlog" >"$TMP/log" &&
		: >"$SWRUN/cmdlog" && : >"$HOSTRUN/cmdlog" &&
		awk -F"|" 'NR == FNR { if ($0 ~ /^(host|switch) /) { split($0, w, " ")
				name[w[3]] = w[2]; n[w[2]] = 0; order[++k] = w[2] }; next }
			{ n[name[$1]]++ }
			END { for (i = 1; i <= k; i++) print order[i], n[order[i]] }' \
			"$LAB/topology" "$TMP/log"
}

test_expect_success 'a small mixed lab, its sessions logged' '
	"$LAB_CMD" up "$LAB" --hosts 1 --leaves 3 --spines 1 --platforms nvue,sonic,eos \
		>/dev/null &&
	SWRUN=$(sed -n "s/^RUN=//p" "$LAB/switchsim/lab.env") &&
	HOSTRUN=$(sed -n "s/^RUN=//p" "$LAB/lab.env") &&
	wrap "$SWRUN" switchsim-cli && wrap "$HOSTRUN" host-shell &&
	"$LAB_CMD" ssh "$LAB" leaf01 "nv show qos roce" >/dev/null &&
	counts >"$TMP/n" && grep -qx "leaf01 1" "$TMP/n"
'

test_expect_success 'verify: NVUE one command line, SONiC the LLDP table in its read' '
	test_expect_code 2 rc verify -p "$POLICY" -i "$INV" --format json >"$TMP/v.json" &&
	counts >"$TMP/n" &&
	grep -qx "leaf01 1" "$TMP/n" && grep -qx "spine01 1" "$TMP/n" &&
	grep -qx "gpu001 2" "$TMP/n" &&
	grep "nv show interface lldp && echo @@rocectl-lldp-end@@; echo @@rocectl-qos@@; nv show qos -o json" \
		"$TMP/log" >"$TMP/lines" && test "$(wc -l <"$TMP/lines")" = 2 &&
	grep -c "show runningconfiguration all" "$TMP/log" >"$TMP/c" && test "$(cat "$TMP/c")" = 1 &&
	sonic=$(awk "\$1 == \"switch\" && \$5 == \"sonic\" { print \$3 }" "$LAB/topology") &&
	grep -qx "$sonic|show lldp table && echo @@rocectl-lldp-end@@; echo @@rocectl-config@@; show runningconfiguration all" \
		"$TMP/log" &&
	jq -e ".cabling.status == \"ok\" and .cabling.findings == [] and
		.cabling.links_checked == 5" "$TMP/v.json"
'

# counters show only in the Prometheus output; the cabling's there too
test_expect_success 'verify --counters: NVUE still one line, counters and cabling there' '
	test_expect_code 2 rc verify -p "$POLICY" -i "$INV" --counters --format prometheus \
		>"$TMP/vc.prom" &&
	counts >"$TMP/n" && grep -qx "leaf01 1" "$TMP/n" && grep -qx "spine01 1" "$TMP/n" &&
	! grep -q "|show lldp table\$" "$TMP/log" &&
	grep -q "counters qos -o json && echo @@rocectl-counters-end@@; echo @@rocectl-qos@@; nv show qos" \
		"$TMP/log" &&
	grep -c "^rocectl_pfc_pause_frames_total{.*device=\"leaf01\"" "$TMP/vc.prom" >"$TMP/c" &&
	test "$(cat "$TMP/c")" -gt 0 &&
	grep -qx "rocectl_cabling_problems 0" "$TMP/vc.prom" &&
	grep -qx "rocectl_cabling_links_unknown 0" "$TMP/vc.prom"
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
	jq -e ".cabling.findings == [] and .cabling.links_unknown == 4 and
		(.cabling.unknown_devices | index(\"leaf01\") and index(\"leaf02\") and
		 index(\"spine01\"))" "$TMP/bad.json" &&
	jq -e "all(.devices[]; .status == \"drift\")" "$TMP/bad.json"
'

test_expect_success 'a swapped cable is still found from the folded read' '
	awk "\$1 == \"link\" { print \$2 }" "$LAB/topology" | sed -n "1,2p" >"$TMP/ends" &&
	"$LAB_CMD" miscable "$LAB" $(cat "$TMP/ends") >/dev/null &&
	test_expect_code 2 rc verify -p "$POLICY" -i "$INV" --format json >"$TMP/v2.json" &&
	jq -e ".cabling.status != \"ok\" and (.cabling.findings | length) > 0" "$TMP/v2.json" &&
	counts >"$TMP/n" && grep -qx "leaf01 1" "$TMP/n" && grep -qx "spine01 1" "$TMP/n" &&
	! grep -q "|show lldp table\$" "$TMP/log"
'

test_expect_success 'plan and counters: one command line per switch' '
	test_expect_code 2 rc plan -p "$POLICY" -i "$INV" >/dev/null &&
	counts >"$TMP/n" && grep -qx "leaf01 1" "$TMP/n" && grep -qx "spine01 1" "$TMP/n" &&
	rc counters -i "$INV" --json >/dev/null &&
	counts >"$TMP/n" && grep -qx "leaf01 1" "$TMP/n" && grep -qx "spine01 1" "$TMP/n"
'

test_done
