#!/bin/sh
# Each device is read with one command line per read: an NVUE switch's LLDP table rides on
# the read's own `nv show` line (drivers/switch/nvue.c, NVUE_LLDP_PREFIX) instead of a
# second SSH exec.  The simulators' ForceCommands are wrapped by a logger so that every
# command line a device receives is counted, per device and per run; the neighbours the
# folded read returns must still be the real ones (cabling right, a swapped cable found).
# SONiC, EOS and hosts still take a second line for LLDP: counted as such here, so that
# folding them later shows up as a change of this test.
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

LAB_CMD="$SRC_DIR/tests/lab/lab"
LAB="$TMP/lab"
INV="$LAB/inventory.yaml"
POLICY="$SRC_DIR/policies/roce-lossless.yaml"
export BUILD_DIR ROCECTL

if [ "$(id -u)" != 0 ]; then
	test_expect_success 'the lab needs root (namespaces, sshd): not run' 'false'
	test_done
	exit
fi

test_at_exit '"$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true'

rc() {
	"$LAB_CMD" exec "$LAB" -- "$ROCECTL" "$@"
}

# wrap RUN/bin/PROG: each session appends "SERVER-ADDR|COMMAND" to RUN/cmdlog, then runs it
wrap() {
	mv "$1/bin/$2" "$1/bin/$2.real" &&
		printf '#!/bin/sh\nset -f\nset -- "$@"\nc=${SSH_CONNECTION:-}\nc=${c#* * }\nprintf "%%s|%%s\\n" "${c%% *}" "${SSH_ORIGINAL_COMMAND:-}" >>%s\nexec %s "$@"\n' \
			"$1/cmdlog" "$1/bin/$2.real" >"$1/bin/$2" &&
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

test_expect_success 'a small NVUE lab, its sessions logged' '
	"$LAB_CMD" up "$LAB" --hosts 1 --leaves 1 --spines 1 >/dev/null &&
	SWRUN=$(sed -n "s/^RUN=//p" "$LAB/switchsim/lab.env") &&
	HOSTRUN=$(sed -n "s/^RUN=//p" "$LAB/lab.env") &&
	wrap "$SWRUN" switchsim-cli && wrap "$HOSTRUN" host-shell &&
	"$LAB_CMD" ssh "$LAB" leaf01 "nv show qos roce" >/dev/null &&
	counts >"$TMP/n" && grep -qx "leaf01 1" "$TMP/n"
'

test_expect_success 'verify: one command line per switch, the LLDP table in it' '
	test_expect_code 2 rc verify -p "$POLICY" -i "$INV" --format json >"$TMP/v.json" &&
	counts >"$TMP/n" &&
	printf "%s\n" "gpu001 2" "leaf01 1" "spine01 1" >"$TMP/expect" &&
	diff -u "$TMP/expect" "$TMP/n" &&
	grep "nv show interface lldp && echo @@rocectl-lldp-end@@; echo @@rocectl-qos@@; nv show qos -o json" \
		"$TMP/log" >"$TMP/lines" && test "$(wc -l <"$TMP/lines")" = 2 &&
	jq -e ".cabling.status == \"ok\" and .cabling.findings == [] and
		.cabling.links_checked == 3" "$TMP/v.json"
'

test_expect_success 'a swapped cable is still found from the folded read' '
	awk "\$1 == \"link\" { print \$2 }" "$LAB/topology" | sed -n "1,2p" >"$TMP/ends" &&
	"$LAB_CMD" miscable "$LAB" $(cat "$TMP/ends") >/dev/null &&
	test_expect_code 2 rc verify -p "$POLICY" -i "$INV" --format json >"$TMP/v2.json" &&
	jq -e ".cabling.status != \"ok\" and (.cabling.findings | length) > 0" "$TMP/v2.json" &&
	counts >"$TMP/n" && grep -qx "leaf01 1" "$TMP/n" && grep -qx "spine01 1" "$TMP/n"
'

test_expect_success 'plan and counters: one command line per switch' '
	test_expect_code 2 rc plan -p "$POLICY" -i "$INV" >/dev/null &&
	counts >"$TMP/n" && grep -qx "leaf01 1" "$TMP/n" && grep -qx "spine01 1" "$TMP/n" &&
	rc counters -i "$INV" --json >/dev/null &&
	counts >"$TMP/n" && grep -qx "leaf01 1" "$TMP/n" && grep -qx "spine01 1" "$TMP/n"
'

test_done
